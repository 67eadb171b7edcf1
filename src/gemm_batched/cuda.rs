//! CUDA backend: picks the size class and its compile-time parameters and launches
//! `kernels/gemm_batched.cu` through the staging engine.

use super::Gemm;
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::{MathMode, Op, Scalar};
use crate::cuda::params::{grid, KBatch, KScalar};
use crate::cuda::staging::{Dir, Operand, Stage, View};
use crate::cuda::CudaHandle;

const SOURCE: &str = include_str!("../../kernels/gemm_batched.cu");

/// A kernel of gemm_batched.cu with its compile-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// alpha == 0 or k == 0: C = beta·C.
    Scale,
    /// M, N, K ≤ 32 at compile time; `nb` matrices per block and group, a `ti × tj` thread
    /// grid each; `st` raw stages of shared memory filled by cp.async (0: loads straight into
    /// the compute layout; 1: one stage; 2: the next group's copies in flight while a group is
    /// computed; sm_80 and later), `pc`: C (beta ≠ 0) staged too.
    Small { nb: usize, ti: usize, tj: usize, st: usize, pc: bool },
    /// `bm × bn` tiles `bk` deep, a `ti × tj` thread grid, at least `minb` blocks per SM
    /// (which caps registers at 64K / (minb·ti·tj)).
    Tiled { bm: usize, bn: usize, bk: usize, ti: usize, tj: usize, minb: usize },
    /// Double (`w` = 1) and complex double (`w` = 2, the doubles per element) on the FP64
    /// tensor cores: `wm × wn` warps of `wr` × 32/w of C each, tiles `bk` deep in `st` stages
    /// of shared memory, at least `minb` blocks per SM.
    Mma { w: usize, wr: usize, wm: usize, wn: usize, bk: usize, st: usize, minb: usize },
    /// Float and complex float on the TF32 tensor cores (the handle's math mode): the 3xTF32
    /// split when `split`, else plain TF32; `wm × wn` warps of `wr × wc` of C each (`wr` a
    /// multiple of 16, `wc` of 8), tiles `bk` deep in `st` stages of shared memory, at least
    /// `minb` blocks per SM.
    Tf32 { split: bool, wr: usize, wc: usize, wm: usize, wn: usize, bk: usize, st: usize, minb: usize },
    /// Float and complex float in exact FP32 (the default math mode), m and n > 32, sm_80 and
    /// later: `bm × bn` of C a block, `tm × tn` a thread (`tm`, `tn` whole 16-byte groups of
    /// elements), tiles `bk` deep in `st` stages of shared memory filled by cp.async, at least
    /// `minb` blocks per SM. `vec` bits: A (1), B (2), C (4) are 16-byte aligned (matrices,
    /// leading dimension, batch stride; strided form) and move 16 bytes at a time.
    Simt { bm: usize, bn: usize, bk: usize, tm: usize, tn: usize, st: usize, minb: usize, vec: u8 },
}

/// Register budget of one thread's block of C in the small kernel, in 4-byte words, and the
/// register cap per thread: small enough that 1024 threads fit on an SM, which a
/// bandwidth-bound kernel needs to keep enough loads in flight.
/// (Double complex keeps 32 words, with fewer it spills, and 96 registers: the kernel needs
/// 88–94 (ptxas for sm_90, n = 16 … 32), and under a cap of 128 the per-matrix loads' extra
/// paths let ptxas take up to 121, one block of 128 threads an SM fewer than the kernel before
/// them had. `staged`, where its share of C is smaller, it takes the others' budget, as
/// measured.)
fn small_budget<T: Scalar>(staged: bool) -> (usize, usize) {
    if std::mem::size_of::<T>() == 16 && !staged {
        (32, 96)
    } else {
        (16, 64)
    }
}
/// Shared memory a small-class block without raw stages stays under: the limit without opting
/// in, and small enough that several blocks share an SM.
const SMALL_SMEM: usize = 48 << 10;
/// Shared memory a small-class block with raw stages stays under: within the opt-in limit of
/// every GPU from sm_80 on (99 KB on sm_86 and sm_89).
const SMALL_SMEM_STAGED: usize = 96 << 10;
/// Shared memory of one SM as the small class plans residency (H100 and H200: 228 KB, 1 KB of
/// it reserved per block).
const SM_SMEM: usize = 228 << 10;
/// Threads an SM should hold with raw stages: enough warps to hide the products' latency.
const SMALL_THREADS_SM: usize = 256;
/// Matrices of C above this many bytes, complex double up to 16 × 16, take raw stages on sm_80
/// and later (see [`small_staged`]).
const SMALL_STAGED_BYTES: usize = 2048;

/// Whether the small class stages its operands by cp.async (`dmma`: sm_80 and later): only
/// complex double of at most 16 × 16 with C above [`SMALL_STAGED_BYTES`]. Measured on an H200
/// (docs/bench/gemm-small-tune, 2026-11-28): z at 16 with 64 threads a matrix and two stages,
/// C staged, is 0.93× cuBLAS where the direct kernel is 0.71×; at n = 32, in every precision,
/// every staged variant was slower than the direct kernel (0.37–0.69× against 0.60–0.78×).
fn small_staged<T>(m: usize, n: usize, dmma: bool) -> bool {
    dmma && std::mem::size_of::<T>() == 16 && m.max(n) <= 16 && m * n * std::mem::size_of::<T>() > SMALL_STAGED_BYTES
}

/// The size class and its parameters for op(A) `m × k` times op(B) `k × n` of type `T` in
/// exact arithmetic (the default math mode); `dmma`: the device has FP64 tensor cores (sm_80
/// and later).
pub fn plan<T: Scalar>(m: usize, n: usize, k: usize, reads_ab: bool, dmma: bool) -> Plan {
    plan_in::<T>(MathMode::Default, m, n, k, reads_ab, dmma)
}

/// [`plan`] under the handle's math mode: float and complex float of the sizes the tensor-core
/// class takes (min(m, n) >= 32 and not the small class) go to the TF32 tensor cores in the
/// TF32 modes where the device has them (`dmma`: sm_80 and later, as for FP64); everything
/// else is computed exactly, which is within every mode's bound.
pub fn plan_in<T: Scalar>(mode: MathMode, m: usize, n: usize, k: usize, reads_ab: bool, dmma: bool) -> Plan {
    if !reads_ab {
        return Plan::Scale;
    }
    let words = std::mem::size_of::<T>() / 4;
    if m.max(n).max(k) <= 32 {
        // The fewest threads per matrix whose share of C fits the register budget.
        let per_thread = (small_budget::<T>(small_staged::<T>(m, n, dmma)).0 / words).max(1);
        let (mut ti, mut tj) = (1, 1);
        while m.div_ceil(ti) * n.div_ceil(tj) > per_thread {
            if m.div_ceil(ti) >= n.div_ceil(tj) {
                ti *= 2;
            } else {
                tj *= 2;
            }
        }
        return small_plan::<T>(m, n, k, ti, tj, dmma);
    }
    if mode != MathMode::Default && dmma && std::mem::size_of::<T::Real>() == 4 && m.min(n) >= 32 {
        // As measured best on an H100 (docs/bench/gemm-tf32-H100-2026-11-27): warps of 32 × 32
        // of C, 2 × 2 a block (complex float: two blocks an SM); float from 128 on warps of
        // 64 × 32, 2 × 4 a block, one block an SM. BK 16, 3 stages.
        let split = mode == MathMode::Tf32x3;
        if !T::IS_COMPLEX && m.min(n) >= 128 {
            return Plan::Tf32 { split, wr: 64, wc: 32, wm: 2, wn: 4, bk: 16, st: 3, minb: 1 };
        }
        return Plan::Tf32 { split, wr: 32, wc: 32, wm: 2, wn: 2, bk: 16, st: 3, minb: 3 - T::IS_COMPLEX as usize };
    }
    // Double and complex double (FP64 parts) on the tensor cores; w: doubles per element.
    if dmma && std::mem::size_of::<T::Real>() == 8 && m.min(n) >= 32 {
        // As measured best over n = 33 … 257 on an H100 (docs/bench): complex double's two
        // accumulator planes want the registers of two blocks an SM.
        let w = 1 + T::IS_COMPLEX as usize;
        return Plan::Mma { w, wr: 32, wm: 2, wn: 2, bk: 16, st: 3, minb: 4 - w };
    }
    // Float and complex float from m, n = 33 on the cp.async SIMT kernel (sm_80 and later),
    // with the tiles measured best against cuBLAS on an H100 (docs/bench/gemm-simt-tune):
    // float 64 × 64 tiles of 8 × 4 a thread below 128 (1.01× at 33 and 64), 128 × 64 of 8 × 8
    // from 128 (1.05-1.11×); complex 32 × 32 of 4 × 4, eight blocks an SM, below 128
    // (0.99-1.07×), 128 × 64 of 8 × 4 from 128 (0.96-1.05×). The alignment bits are the
    // caller's (Plan::aligned).
    if dmma && std::mem::size_of::<T::Real>() == 4 && m.min(n) > 32 {
        let big = m.min(n) >= 128;
        return match (T::IS_COMPLEX, big) {
            (false, true) => Plan::Simt { bm: 128, bn: 64, bk: 8, tm: 8, tn: 8, st: 3, minb: 3, vec: 7 },
            (false, false) => Plan::Simt { bm: 64, bn: 64, bk: 8, tm: 8, tn: 4, st: 3, minb: 4, vec: 7 },
            (true, true) => Plan::Simt { bm: 128, bn: 64, bk: 8, tm: 8, tn: 4, st: 3, minb: 2, vec: 7 },
            (true, false) => Plan::Simt { bm: 32, bn: 32, bk: 8, tm: 4, tn: 4, st: 3, minb: 8, vec: 7 },
        };
    }
    // Float register blocks are groups of four (bm / ti and bn / tj multiples of 4). Tile
    // depths and blocks per SM as measured best on an H100 (docs/bench).
    match (words, T::IS_COMPLEX, m.min(n) >= 128) {
        (1 | 2, false, true) => Plan::Tiled { bm: 128, bn: 64, bk: 8, ti: 16, tj: 16, minb: 2 },
        (1 | 2, false, false) => Plan::Tiled { bm: 64, bn: 64, bk: 16, ti: 16, tj: 16, minb: 2 },
        (2, true, _) => Plan::Tiled { bm: 64, bn: 64, bk: 8, ti: 16, tj: 16, minb: 2 },
        _ => Plan::Tiled { bm: 64, bn: 32, bk: 8, ti: 16, tj: 8, minb: 2 },
    }
}

/// The small class's groups and stages for `ti × tj` threads a matrix. Where
/// [`small_staged`]: the first of two stages
/// with C, two without, one without, whose block fits [`SMALL_SMEM_STAGED`] with at least
/// [`SMALL_THREADS_SM`] threads resident an SM, about 128 threads a block. Else loads straight
/// into the compute layout, 256 threads a block within [`SMALL_SMEM`].
fn small_plan<T>(m: usize, n: usize, k: usize, ti: usize, tj: usize, dmma: bool) -> Plan {
    let tpm = ti * tj;
    if small_staged::<T>(m, n, dmma) {
        for (st, pc) in [(2, true), (2, false), (1, false)] {
            let mut nb = (128 / tpm).max(1);
            loop {
                let smem = small_smem::<T>(m, n, k, nb, st, pc);
                if smem <= SMALL_SMEM_STAGED && small_resident(nb * tpm, smem) * nb * tpm >= SMALL_THREADS_SM {
                    return Plan::Small { nb, ti, tj, st, pc };
                }
                if nb == 1 {
                    break;
                }
                nb /= 2;
            }
        }
    }
    let mut nb = (256 / tpm).max(1);
    while nb > 1 && small_smem::<T>(m, n, k, nb, 0, false) > SMALL_SMEM {
        nb /= 2;
    }
    Plan::Small { nb, ti, tj, st: 0, pc: false }
}

/// Blocks of `threads` threads and `smem` bytes of shared memory one SM holds (as planned:
/// [`SM_SMEM`], 2048 threads, 32 blocks).
fn small_resident(threads: usize, smem: usize) -> usize {
    (SM_SMEM / (smem + 1024)).min(2048 / threads).clamp(1, 32)
}

/// Dynamic shared memory of the small kernel for `nb` matrices a group: `st` raw stages of A,
/// B and (`pc`) C as stored, each rounded up to 16 bytes, then the compute layout, max(A + B,
/// C) with odd row lengths (as in the kernel).
fn small_smem<T>(m: usize, n: usize, k: usize, nb: usize, st: usize, pc: bool) -> usize {
    let size = std::mem::size_of::<T>();
    let vec = (16 / size).max(1);
    let round = |e: usize| e.div_ceil(vec) * vec;
    let stage = round(nb * m * k) + round(nb * k * n) + if pc { round(nb * m * n) } else { 0 };
    let (lsa, lsb, lsc) = (m | 1, n | 1, m | 1);
    (st * stage + nb * (k * (lsa + lsb)).max(n * lsc)) * size
}

/// The small kernel's access bits of one operand stored `rows × cols` (leading dimension
/// `ld`): bit 0, ld = rows (a matrix is one run of elements); bit 1, also strided with stride =
/// rows · cols (a group of matrices is one run). The kernel checks alignment itself, per
/// matrix or run, pointer arrays included.
fn small_bits(v: &KBatch, rows: usize, cols: usize, ld: usize) -> i32 {
    let run = ld == rows;
    run as i32 | ((run && v.array == 0 && v.stride == (rows * cols) as i64) as i32) << 1
}

/// Blocks of the small kernel for `groups` groups: all of them without raw stages; with them,
/// as many as the device's SMs hold at once (`sm_count`), each looping over groups so that the
/// next group's copies are in flight during this one's products.
fn small_grid(plan: Plan, smem: usize, groups: i64, sm_count: usize) -> i64 {
    match plan {
        Plan::Small { nb, ti, tj, st, .. } if st > 0 => groups.min((sm_count * small_resident(nb * ti * tj, smem)) as i64),
        _ => groups,
    }
}

/// The `-D` defines that specialise gemm_batched.cu for `plan`, and the entry point's name.
pub fn specialise<T: Scalar>(plan: Plan, m: usize, n: usize, k: usize, ta: i32, tb: i32) -> (Vec<String>, String) {
    let mut d = vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)];
    let (kind, extra): (&str, Vec<String>) = match plan {
        Plan::Scale => ("scale", vec!["NG_SCALE=1".into()]),
        Plan::Small { nb, ti, tj, st, pc } => (
            "small",
            vec![
                "NG_SMALL=1".into(),
                format!("NG_M={m}"),
                format!("NG_N={n}"),
                format!("NG_K={k}"),
                format!("NG_TA={ta}"),
                format!("NG_TB={tb}"),
                format!("NG_NB={nb}"),
                format!("NG_TI={ti}"),
                format!("NG_TJ={tj}"),
                format!("NG_MINB={}", (65536 / (nb * ti * tj * small_budget::<T>(st > 0).1)).max(1)),
                format!("NG_ST={st}"),
                format!("NG_PC={}", pc as usize),
            ],
        ),
        Plan::Mma { wr, wm, wn, bk, st, minb, .. } => (
            "mma",
            vec![
                "NG_MMA=1".into(),
                format!("NG_TA={ta}"),
                format!("NG_TB={tb}"),
                format!("NG_WR={wr}"),
                format!("NG_WM={wm}"),
                format!("NG_WN={wn}"),
                format!("NG_BK={bk}"),
                format!("NG_ST={st}"),
                format!("NG_MINB={minb}"),
            ],
        ),
        Plan::Tf32 { split, wr, wc, wm, wn, bk, st, minb } => {
            let values = [("TF32", if split { 1 } else { 2 }), ("TA", ta as usize), ("TB", tb as usize), ("WR", wr), ("WC", wc), ("WM", wm), ("WN", wn), ("BK", bk), ("ST", st), ("MINB", minb)];
            ("tf32", values.iter().map(|(k, v)| format!("NG_{k}={v}")).collect())
        }
        Plan::Simt { bm, bn, bk, tm, tn, st, minb, vec } => {
            let values = [("TA", ta as usize), ("TB", tb as usize), ("BM", bm), ("BN", bn), ("BK", bk), ("TM", tm), ("TN", tn), ("ST", st), ("MINB", minb), ("VEC", vec as usize)];
            ("simt", std::iter::once("NG_SIMT=1".to_string()).chain(values.iter().map(|(k, v)| format!("NG_{k}={v}"))).collect())
        }
        Plan::Tiled { bm, bn, bk, ti, tj, minb } => (
            "tiled",
            vec![
                "NG_TILED=1".into(),
                format!("NG_TA={ta}"),
                format!("NG_TB={tb}"),
                format!("NG_BM={bm}"),
                format!("NG_BN={bn}"),
                format!("NG_BK={bk}"),
                format!("NG_TI={ti}"),
                format!("NG_TJ={tj}"),
                format!("NG_MINB={minb}"),
            ],
        ),
    };
    d.extend(extra);
    (d, kernel_name::<T>(&format!("gemm_{kind}")))
}

/// `<base>_<suffix>`, the name the `.cu` entry points are given through `NG_SUFFIX`.
pub fn kernel_name<T: Scalar>(base: &str) -> String {
    format!("{base}_{}", T::SUFFIX)
}

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// The validated call `g` on arrays in `space`, in the handle's math `mode`.
pub fn gemm<T: Scalar>(ch: &mut CudaHandle, g: &Gemm<T>, space: Space, mode: MathMode) -> Result<()> {
    ch.bind()?;
    let (ar, ac) = g.ta.stored(g.m, g.k);
    let (br, bc) = g.tb.stored(g.k, g.n);
    let (a, b) = match g.reads_ab() {
        true => (Operand::matrix(Dir::In, &g.a, ar, ac, g.lda), Operand::matrix(Dir::In, &g.b, br, bc, g.ldb)),
        false => (Operand::absent(), Operand::absent()),
    };
    let c_dir = if g.beta.is_zero() { Dir::Out } else { Dir::InOut };
    let stage = Stage::new(space, g.batch).op(a).op(b).op(Operand::matrix(c_dir, &g.c, g.m, g.n, g.ldc));
    let shape = Shape { ta: g.ta, tb: g.tb, m: g.m, n: g.n, k: g.k, alpha: g.alpha, beta: g.beta };
    // SAFETY: the operands are the validated call's arrays in `space`; the kernels touch the
    // chunk's matrices only.
    unsafe { stage.run(ch, |ch, k| enqueue(ch, &shape, mode, &k[0], &k[1], &k[2], k.count)) }
}

/// The sizes, ops and scalars of a batch of products `C_i = alpha·op(A_i)·op(B_i) + beta·C_i`
/// (op(A_i) m × k, op(B_i) k × n), without the operands: what [`enqueue_gemm`] launches on.
#[derive(Clone, Copy, Debug)]
pub struct Shape<T> {
    pub ta: Op,
    pub tb: Op,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: T,
    pub beta: T,
}

impl<T: Scalar> Shape<T> {
    fn reads_ab(&self) -> bool {
        self.k > 0 && !self.alpha.is_zero()
    }
}

/// Enqueues the products of `shape` on `batch` matrices already in device memory (the views
/// of a chunk): the entry for other families' staged calls (the tensor family's MTTKRP), inside
/// their `Stage::run`, in exact arithmetic whatever the handle's math mode. BLAS semantics as
/// [`gemm_batched`](super::gemm_batched): beta = 0 does not read C.
///
/// # Safety
/// The views are valid device memory of the handle's device for `batch` matrices of the
/// shape's sizes (leading dimensions and strides as the views give them), C not overlapping A
/// or B, and m, n, batch ≥ 1.
pub unsafe fn enqueue_gemm<T: Scalar>(ch: &CudaHandle, g: &Shape<T>, a: &View, b: &View, c: &View, batch: usize) -> Result<()> {
    enqueue(ch, g, MathMode::Default, a, b, c, batch)
}

/// [`enqueue_gemm`] in math mode `mode`.
///
/// # Safety
/// As [`enqueue_gemm`].
unsafe fn enqueue<T: Scalar>(ch: &CudaHandle, g: &Shape<T>, mode: MathMode, a: &View, b: &View, c: &View, batch: usize) -> Result<()> {
    let p = plan_in::<T>(mode, g.m, g.n, g.k, g.reads_ab(), has_dmma(ch)).aligned::<T>([a, b, c]);
    let (defines, entry) = specialise::<T>(p, g.m, g.n, g.k, g.ta.code(), g.tb.code());
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (m, n, k, batch) = (g.m as i64, g.n as i64, g.k as i64, batch as i64);
    let (lda, ldb, ldc) = (a.ld as i64, b.ld as i64, c.ld as i64);
    let (ka, kb, kc) = (a.kbatch(), b.kbatch(), c.kbatch());
    let (alpha, beta) = (KScalar(g.alpha), KScalar(g.beta));
    // SAFETY: each argument list is that of the entry point `entry` names in gemm_batched.cu,
    // on the validated views.
    unsafe {
        match p {
            Plan::Scale => ch.launch(&module).arg(&m).arg(&n).arg(&beta).arg(&kc).arg(&ldc).arg(&batch).run(grid(ceil_div(m * n * batch, 256)), 256, 0),
            Plan::Small { nb, ti, tj, st, pc } => {
                let (ar, ac) = g.ta.stored(g.m, g.k);
                let (br, bc) = g.tb.stored(g.k, g.n);
                let contig = small_bits(&ka, ar, ac, a.ld) | small_bits(&kb, br, bc, b.ld) << 2 | small_bits(&kc, g.m, g.n, c.ld) << 4;
                let smem = small_smem::<T>(g.m, g.n, g.k, nb, st, pc);
                let blocks = small_grid(p, smem, ceil_div(batch, nb as i64), ch.dev.sm_count.max(1) as usize);
                ch.launch(&module)
                    .arg(&alpha)
                    .arg(&ka)
                    .arg(&lda)
                    .arg(&kb)
                    .arg(&ldb)
                    .arg(&beta)
                    .arg(&kc)
                    .arg(&ldc)
                    .arg(&batch)
                    .arg(&contig)
                    .run(grid(blocks), (nb * ti * tj) as u32, smem as u32)
            }
            Plan::Tiled { .. } | Plan::Mma { .. } | Plan::Tf32 { .. } | Plan::Simt { .. } => {
                let ((bm, bn), threads) = p.tile();
                let smem = p.smem::<T>(g.ta, g.tb) as u32;
                let blocks = ceil_div(m, bm as i64) * ceil_div(n, bn as i64) * batch;
                ch.launch(&module)
                    .arg(&m)
                    .arg(&n)
                    .arg(&k)
                    .arg(&alpha)
                    .arg(&ka)
                    .arg(&lda)
                    .arg(&kb)
                    .arg(&ldb)
                    .arg(&beta)
                    .arg(&kc)
                    .arg(&ldc)
                    .arg(&batch)
                    .run(grid(blocks), threads as u32, smem)
            }
        }
    }
}

/// Whether the handle's device has FP64 tensor cores (sm_80 and later).
pub fn has_dmma(ch: &CudaHandle) -> bool {
    ch.dev.arch.0 >= 8
}

impl Plan {
    /// The C tile of one block of the tiled classes, and its threads.
    fn tile(&self) -> ((usize, usize), usize) {
        match *self {
            Plan::Tiled { bm, bn, ti, tj, .. } => ((bm, bn), ti * tj),
            Plan::Mma { w, wr, wm, wn, .. } => ((wr * wm, 32 / w * wn), 32 * wm * wn),
            Plan::Tf32 { wr, wc, wm, wn, .. } => ((wr * wm, wc * wn), 32 * wm * wn),
            Plan::Simt { bm, bn, tm, tn, .. } => ((bm, bn), (bm / tm) * (bn / tn)),
            _ => unreachable!("not a tiled class"),
        }
    }

    /// The SIMT class's plan with the 16-byte copies of A, B and C (views `v`, in that order)
    /// kept only where the operand allows them: strided form, the first matrix, the leading
    /// dimension and the batch stride all multiples of 16 bytes. Other plans as they are.
    fn aligned<T>(self, v: [&View; 3]) -> Plan {
        let size = std::mem::size_of::<T>() as u64;
        let ok = |v: &View| v.array == 0 && v.base % 16 == 0 && (v.ld as u64 * size) % 16 == 0 && (v.stride as u64 * size) % 16 == 0;
        match self {
            Plan::Simt { bm, bn, bk, tm, tn, st, minb, vec } => {
                let bits = v.iter().enumerate().filter(|(_, v)| ok(v)).fold(0u8, |b, (i, _)| b | 1 << i);
                Plan::Simt { bm, bn, bk, tm, tn, st, minb, vec: vec & bits }
            }
            p => p,
        }
    }

    /// Dynamic shared memory of the cp.async classes (0 for the others) for elements of type
    /// `T`: the SIMT class's `st` stages of op(A)'s and op(B)'s tiles, [k][x] with rows padded by
    /// 16 bytes, or the tensor-core classes' ([`Plan::mma_smem`]).
    fn smem<T>(&self, ta: Op, tb: Op) -> usize {
        let size = std::mem::size_of::<T>();
        match *self {
            Plan::Simt { bm, bn, bk, st, .. } => st * bk * (bm + bn + 2 * 16 / size) * size,
            _ => self.mma_smem::<T>(ta, tb),
        }
    }

    /// Dynamic shared memory of the tensor-core classes (0 for the others) for elements of
    /// type `T`: `st` stages of op(A)'s and op(B)'s tiles as gemm_mma and gemm_tf32 lay them
    /// out: an operand stored with its rows or columns of C contiguous [k][x], rows padded by
    /// 32 bytes, else [x][k], rows padded by 4 elements.
    fn mma_smem<T>(&self, ta: Op, tb: Op) -> usize {
        let (bk, st) = match *self {
            Plan::Mma { bk, st, .. } | Plan::Tf32 { bk, st, .. } => (bk, st),
            _ => return 0,
        };
        let size = std::mem::size_of::<T>();
        let tile = |x: usize, x_fast: bool| if x_fast { bk * (x + 32 / size) } else { x * (bk + 4) };
        let ((bm, bn), _) = self.tile();
        st * (tile(bm, ta == Op::N) + tile(bn, tb != Op::N)) * size
    }
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64;

    #[test]
    fn plans_by_size_class() {
        assert_eq!(plan::<f32>(4, 4, 4, true, true), Plan::Small { nb: 256, ti: 1, tj: 1, st: 0, pc: false });
        assert_eq!(plan::<f32>(32, 32, 32, true, true), Plan::Small { nb: 4, ti: 8, tj: 8, st: 0, pc: false });
        assert_eq!(plan::<f32>(32, 32, 32, true, false), Plan::Small { nb: 4, ti: 8, tj: 8, st: 0, pc: false });
        assert!(matches!(plan::<Complex64>(33, 8, 8, true, true), Plan::Tiled { .. }));
        assert_eq!(plan::<f64>(4, 4, 4, false, true), Plan::Scale);
        // The tensor cores take double from n = 32 up where the device has them.
        assert!(matches!(plan::<f64>(64, 64, 64, true, true), Plan::Mma { .. }));
        assert!(matches!(plan::<f64>(64, 64, 64, true, false), Plan::Tiled { .. }));
        // Three stages of A as [k][x] (16 × 68) and B as [x][k] (64 × 20) doubles.
        let p = Plan::Mma { w: 1, wr: 32, wm: 2, wn: 2, bk: 16, st: 3, minb: 3 };
        assert_eq!(p.mma_smem::<f64>(Op::N, Op::N), 3 * (16 * 68 + 64 * 20) * 8);
        assert_eq!(p.mma_smem::<f64>(Op::T, Op::C), 3 * (64 * 20 + 16 * 68) * 8);
        // Complex double: 64 × 32 of C a block, [k][x] rows padded by 2 elements.
        assert!(matches!(plan::<Complex64>(64, 64, 64, true, true), Plan::Mma { w: 2, .. }));
        let z = Plan::Mma { w: 2, wr: 32, wm: 2, wn: 2, bk: 16, st: 3, minb: 3 };
        assert_eq!(z.tile(), ((64, 32), 128));
        assert_eq!(z.mma_smem::<Complex64>(Op::N, Op::N), 3 * (16 * 66 + 32 * 20) * 16);
        assert!(matches!(plan::<f64>(300, 16, 9000, true, true), Plan::Tiled { .. }));
        assert!(matches!(plan::<f32>(64, 64, 64, true, true), Plan::Simt { .. }));
        for n in [1, 3, 8, 17, 32] {
            if let Plan::Small { nb, st: 0, .. } = plan::<Complex64>(n, n, n, true, true) {
                assert!(nb == 1 || small_smem::<Complex64>(n, n, n, nb, 0, false) <= SMALL_SMEM);
            }
        }
    }

    #[test]
    fn small_class_stages_where_the_matrices_are_large() {
        use num_complex::Complex32;
        // Raw stages for complex double of 12 … 16 only (C above 2 KB): 64 threads a matrix,
        // two a block, two stages with C, as measured best (small_staged).
        assert_eq!(plan::<Complex64>(16, 16, 16, true, true), Plan::Small { nb: 2, ti: 8, tj: 8, st: 2, pc: true });
        assert!(matches!(plan::<Complex64>(12, 12, 32, true, true), Plan::Small { st: 2, .. }));
        // Everything else, and GPUs without cp.async, load straight into the compute layout.
        for (m, n, k) in [(16, 16, 16), (4, 4, 32), (3, 17, 5), (22, 23, 32), (32, 32, 32)] {
            assert!(matches!(plan::<f32>(m, n, k, true, true), Plan::Small { st: 0, pc: false, .. }), "{m} {n} {k}");
            assert!(matches!(plan::<f64>(m, n, k, true, true), Plan::Small { st: 0, pc: false, .. }), "{m} {n} {k}");
            assert!(matches!(plan::<Complex32>(m, n, k, true, true), Plan::Small { st: 0, pc: false, .. }), "{m} {n} {k}");
        }
        for (m, n) in [(24, 24), (31, 31), (17, 32), (32, 1), (11, 11)] {
            assert!(matches!(plan::<Complex64>(m, n, 32, true, true), Plan::Small { st: 0, .. }));
        }
        assert!(matches!(plan::<Complex64>(16, 16, 16, true, false), Plan::Small { st: 0, .. }));
        // Every staged plan fits its limits; the shared memory as the kernel lays it out.
        for n in 1..=32 {
            for (m, k) in [(n, n), (32, n), (n, 1), (7, 32)] {
                let check = |p: Plan, size: usize| {
                    let Plan::Small { nb, ti, tj, st, pc } = p else { panic!("{p:?}") };
                    let smem = small_smem::<u8>(m, n, k, nb, st, pc) * size;
                    assert!(nb * ti * tj <= 256 && (st == 0 || smem <= SMALL_SMEM_STAGED), "{p:?} {m} {n} {k}");
                    assert!(st == 0 || small_resident(nb * ti * tj, smem) * nb * ti * tj >= SMALL_THREADS_SM, "{p:?}");
                };
                check(plan::<f32>(m, n, k, true, true), 4);
                check(plan::<f64>(m, n, k, true, true), 8);
                check(plan::<Complex32>(m, n, k, true, true), 8);
                check(plan::<Complex64>(m, n, k, true, true), 16);
            }
        }
        // Float 32 × 32 × 32, two a group: two stages of A, B and C (3 × 2048 floats), the
        // compute layout 2 × 32 × (33 + 33).
        assert_eq!(small_smem::<f32>(32, 32, 32, 2, 2, true), (2 * 3 * 2048 + 2 * 32 * 66) * 4);
        // Float 3 × 3, one stage: A and B (9 floats each) rounded up to whole 16-byte vectors.
        assert_eq!(small_smem::<f32>(3, 3, 3, 1, 1, false), (12 + 12 + 3 * 6) * 4);
        // Staged plans loop over groups: the grid is what the SMs hold, at most the groups.
        let p = plan::<Complex64>(16, 16, 16, true, true);
        let smem = small_smem::<Complex64>(16, 16, 16, 2, 2, true);
        assert_eq!(small_grid(p, smem, 1 << 20, 132), 132 * 3);
        assert_eq!(small_grid(p, smem, 100, 132), 100);
        assert_eq!(small_grid(plan::<f32>(32, 32, 32, true, true), 0, 1 << 20, 132), 1 << 20);
        let (d, e) = specialise::<Complex64>(p, 16, 16, 16, 1, 0);
        assert_eq!(e, "gemm_small_c64");
        for want in ["NG_SMALL=1", "NG_NB=2", "NG_ST=2", "NG_PC=1", "NG_MINB=8"] {
            assert!(d.contains(&want.to_string()), "{want} not in {d:?}");
        }
    }

    #[test]
    fn small_bits_mark_runs_of_elements() {
        let kb = |stride: i64, array: u64| KBatch { base: 4, stride, array };
        // ld = rows: each matrix is one run; with stride = rows·cols the group is one run too.
        assert_eq!(small_bits(&kb(32 * 32, 0), 32, 32, 32), 3);
        assert_eq!(small_bits(&kb(32 * 33, 0), 32, 32, 32), 1);
        assert_eq!(small_bits(&kb(0, 0), 32, 32, 32), 1);
        assert_eq!(small_bits(&kb(0, 4096), 32, 32, 32), 1);
        assert_eq!(small_bits(&kb(33 * 32, 0), 32, 32, 33), 0);
        assert_eq!(small_bits(&kb(0, 4096), 31, 32, 32), 0);
    }

    #[test]
    fn tf32_modes_plan_single_precision_only() {
        use num_complex::Complex32;
        let (x3, t) = (MathMode::Tf32x3, MathMode::Tf32);
        // The default mode never plans the TF32 class; neither do double, the small class,
        // min(m, n) < 32 or GPUs without tensor cores.
        assert!(matches!(plan::<f32>(64, 64, 64, true, true), Plan::Simt { .. }));
        assert!(matches!(plan_in::<f32>(x3, 64, 64, 64, true, true), Plan::Tf32 { split: true, wr: 32, wc: 32, .. }));
        assert!(matches!(plan_in::<f32>(t, 33, 200, 5, true, true), Plan::Tf32 { split: false, .. }));
        assert!(matches!(plan_in::<Complex32>(x3, 64, 64, 64, true, true), Plan::Tf32 { split: true, wc: 32, minb: 2, .. }));
        assert!(matches!(plan_in::<f32>(x3, 128, 256, 64, true, true), Plan::Tf32 { wr: 64, wc: 32, wm: 2, wn: 4, minb: 1, .. }));
        assert!(matches!(plan_in::<f64>(x3, 64, 64, 64, true, true), Plan::Mma { .. }));
        assert!(matches!(plan_in::<Complex64>(t, 64, 64, 64, true, true), Plan::Mma { .. }));
        assert!(matches!(plan_in::<f32>(x3, 32, 32, 32, true, true), Plan::Small { .. }));
        assert!(matches!(plan_in::<f32>(x3, 31, 64, 64, true, true), Plan::Tiled { .. }));
        assert!(matches!(plan_in::<f32>(x3, 64, 64, 64, true, false), Plan::Tiled { .. }));
        assert_eq!(plan_in::<f32>(t, 64, 64, 64, false, true), Plan::Scale);
        // Float at 128: A as [k][x] (16 × (128 + 8)) and B as [x][k] (128 × 20) floats, 3
        // stages; complex float: [k][x] rows padded by 4 elements, 64 × 64 of C a block.
        let p = plan_in::<f32>(x3, 128, 128, 128, true, true);
        assert_eq!(p.tile(), ((128, 128), 256));
        assert_eq!(p.mma_smem::<f32>(Op::N, Op::N), 3 * (16 * 136 + 128 * 20) * 4);
        assert_eq!(p.mma_smem::<f32>(Op::T, Op::T), 3 * (128 * 20 + 16 * 136) * 4);
        let c = plan_in::<Complex32>(x3, 128, 128, 128, true, true);
        assert_eq!(c.tile(), ((64, 64), 128));
        assert_eq!(c.mma_smem::<Complex32>(Op::N, Op::C), 3 * (16 * 68 + 16 * 68) * 8);
        let (d, e) = specialise::<Complex32>(c, 128, 128, 128, 0, 2);
        assert_eq!(e, "gemm_tf32_c32");
        assert!(d.contains(&"NG_TF32=1".to_string()) && d.contains(&"NG_WC=32".to_string()));
        let (d, _) = specialise::<f32>(plan_in::<f32>(t, 64, 64, 64, true, true), 64, 64, 64, 0, 0);
        assert!(d.contains(&"NG_TF32=2".to_string()));
    }

    #[test]
    fn simt_class_takes_single_precision_from_33() {
        use num_complex::Complex32;
        // Float and complex float with m and n > 32 in the default mode, on sm_80 and later.
        for (m, n, k) in [(33, 33, 1), (64, 64, 64), (33, 300, 7), (256, 40, 1000)] {
            assert!(matches!(plan::<f32>(m, n, k, true, true), Plan::Simt { vec: 7, .. }), "{m} {n} {k}");
            assert!(matches!(plan::<Complex32>(m, n, k, true, true), Plan::Simt { vec: 7, .. }), "{m} {n} {k}");
        }
        for (m, n, k) in [(32, 64, 64), (300, 16, 9), (16, 16, 100)] {
            assert!(matches!(plan::<f32>(m, n, k, true, true), Plan::Tiled { .. }), "{m} {n} {k}");
        }
        assert!(matches!(plan::<f32>(64, 64, 64, true, false), Plan::Tiled { .. }));
        assert!(matches!(plan::<f64>(64, 64, 64, true, true), Plan::Mma { .. }));
        let big = plan::<f32>(128, 200, 64, true, true);
        assert_eq!(big, Plan::Simt { bm: 128, bn: 64, bk: 8, tm: 8, tn: 8, st: 3, minb: 3, vec: 7 });
        assert_eq!(big.tile(), ((128, 64), 128));
        // Three stages of A and B as [k][x], rows padded by 16 bytes.
        assert_eq!(big.smem::<f32>(Op::N, Op::T), 3 * 8 * (132 + 68) * 4);
        let c = plan::<Complex32>(128, 128, 128, true, true);
        assert_eq!(c.tile(), ((128, 64), 256));
        assert_eq!(c.smem::<Complex32>(Op::C, Op::N), 3 * 8 * (130 + 66) * 8);
        for (m, n) in [(33, 33), (127, 300), (300, 127)] {
            for p in [plan::<f32>(m, n, 9, true, true), plan::<Complex32>(m, n, 9, true, true)] {
                let ((bm, bn), threads) = p.tile();
                assert!(threads % 32 == 0 && threads <= 256 && bm >= 32 && bn >= 32, "{p:?}");
            }
        }
        let (d, e) = specialise::<f32>(big, 128, 200, 64, 1, 0);
        assert_eq!(e, "gemm_simt_f32");
        for want in ["NG_SIMT=1", "NG_TA=1", "NG_BM=128", "NG_TM=8", "NG_ST=3", "NG_VEC=7"] {
            assert!(d.contains(&want.to_string()), "{want} not in {d:?}");
        }
    }

    #[test]
    fn simt_vector_copies_need_16_byte_alignment() {
        let view = |base: u64, stride: usize, ld: usize, array: u64| View { base, stride, array, ld, row_step: 1 };
        let p = plan::<f32>(64, 64, 64, true, true);
        let bits = |v: [&View; 3]| match p.aligned::<f32>(v) {
            Plan::Simt { vec, .. } => vec,
            other => panic!("{other:?}"),
        };
        let good = view(256, 64 * 64, 64, 0);
        assert_eq!(bits([&good, &good, &good]), 7);
        // A's base 4 bytes off, B's leading dimension odd, C a pointer array.
        assert_eq!(bits([&view(260, 4096, 64, 0), &good, &good]), 6);
        assert_eq!(bits([&good, &view(256, 65 * 64, 65, 0), &good]), 5);
        assert_eq!(bits([&good, &good, &view(0, 0, 64, 4096)]), 3);
        // A batch stride of 2 floats breaks the alignment of every other matrix; stride 0 does not.
        assert_eq!(bits([&view(256, 4098, 64, 0), &view(256, 0, 64, 0), &good]), 6);
        // Complex float: two elements are 16 bytes.
        let z = plan::<num_complex::Complex32>(64, 64, 64, true, true);
        assert!(matches!(z.aligned::<num_complex::Complex32>([&view(256, 66 * 64, 66, 0), &good, &good]), Plan::Simt { vec: 7, .. }));
        assert!(matches!(z.aligned::<num_complex::Complex32>([&view(256, 65 * 64, 65, 0), &good, &good]), Plan::Simt { vec: 6, .. }));
        // Other classes are left as they are.
        assert_eq!(Plan::Scale.aligned::<f32>([&good, &good, &good]), Plan::Scale);
    }

    #[test]
    fn entry_names_carry_the_type_suffix() {
        let (d, e) = specialise::<f32>(Plan::Scale, 1, 1, 1, 0, 0);
        assert_eq!(e, "gemm_scale_f32");
        assert!(d.contains(&"NG_SCALE=1".to_string()));
    }
}
