//! CUDA backend: picks the size class and its compile-time parameters, stages host arrays
//! through the workspace, launches `kernels/gemm_batched.cu`.

use super::{Batch, Gemm};
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::params::{arg, grid, KBatch};
use crate::cuda::staging::{chunk_len, pack, upload};
use crate::cuda::CudaHandle;
use std::ffi::c_void;

const SOURCE: &str = include_str!("../../kernels/gemm_batched.cu");

/// A kernel of gemm_batched.cu with its compile-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// alpha == 0 or k == 0: C = beta·C.
    Scale,
    /// M, N, K ≤ 32 at compile time; `nb` matrices per block, a `ti × tj` thread grid each.
    Small { nb: usize, ti: usize, tj: usize },
    /// `bm × bn` tiles `bk` deep, a `ti × tj` thread grid, at least `minb` blocks per SM
    /// (which caps registers at 64K / (minb·ti·tj)).
    Tiled { bm: usize, bn: usize, bk: usize, ti: usize, tj: usize, minb: usize },
}

/// Register budget of one thread's block of C in the small kernel, in 4-byte words, and the
/// register cap per thread: small enough that 1024 threads fit on an SM, which a
/// bandwidth-bound kernel needs to keep enough loads in flight.
/// (Double complex keeps 32 words and 128 registers: with fewer it spills.)
fn small_budget<T: Scalar>() -> (usize, usize) {
    if std::mem::size_of::<T>() == 16 {
        (32, 128)
    } else {
        (16, 64)
    }
}
/// Shared memory a small-class block stays under: the limit without opting in, and small
/// enough that several blocks share an SM.
const SMALL_SMEM: usize = 48 << 10;

/// The size class and its parameters for op(A) `m × k` times op(B) `k × n` of type `T`.
pub fn plan<T: Scalar>(m: usize, n: usize, k: usize, reads_ab: bool) -> Plan {
    if !reads_ab {
        return Plan::Scale;
    }
    let words = std::mem::size_of::<T>() / 4;
    if m.max(n).max(k) <= 32 {
        // The fewest threads per matrix whose share of C fits the register budget.
        let per_thread = (small_budget::<T>().0 / words).max(1);
        let (mut ti, mut tj) = (1, 1);
        while m.div_ceil(ti) * n.div_ceil(tj) > per_thread {
            if m.div_ceil(ti) >= n.div_ceil(tj) {
                ti *= 2;
            } else {
                tj *= 2;
            }
        }
        let tpm = ti * tj;
        let mut nb = (256 / tpm).max(1);
        while nb > 1 && small_smem::<T>(m, n, k, nb) > SMALL_SMEM {
            nb /= 2;
        }
        return Plan::Small { nb, ti, tj };
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

/// Dynamic shared memory of the small kernel: max(A + B, C) for `nb` matrices (odd row
/// lengths as in the kernel).
fn small_smem<T>(m: usize, n: usize, k: usize, nb: usize) -> usize {
    let (lsa, lsb, lsc) = (m | 1, n | 1, m | 1);
    nb * (k * (lsa + lsb)).max(n * lsc) * std::mem::size_of::<T>()
}

/// The `-D` defines that specialise gemm_batched.cu for `plan`, and the entry point's name.
pub fn specialise<T: Scalar>(plan: Plan, m: usize, n: usize, k: usize, ta: i32, tb: i32) -> (Vec<String>, String) {
    let mut d = vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)];
    let (kind, extra): (&str, Vec<String>) = match plan {
        Plan::Scale => ("scale", vec!["NG_SCALE=1".into()]),
        Plan::Small { nb, ti, tj } => (
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
                format!("NG_MINB={}", (65536 / (nb * ti * tj * small_budget::<T>().1)).max(1)),
            ],
        ),
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

pub fn gemm<T: Scalar>(ch: &mut CudaHandle, g: &Gemm<T>, space: Space) -> Result<()> {
    ch.bind()?;
    match space {
        Space::Device => launch(ch, g, KBatch::of(&g.a), g.lda, KBatch::of(&g.b), g.ldb, KBatch::of(&g.c), g.ldc, g.batch),
        Space::Host => staged(ch, g),
    }
}

/// Enqueues the kernel for `g`'s sizes on operands already in device memory.
#[allow(clippy::too_many_arguments)]
fn launch<T: Scalar>(ch: &CudaHandle, g: &Gemm<T>, a: KBatch, lda: usize, b: KBatch, ldb: usize, c: KBatch, ldc: usize, batch: usize) -> Result<()> {
    let p = plan::<T>(g.m, g.n, g.k, g.reads_ab());
    let (defines, entry) = specialise::<T>(p, g.m, g.n, g.k, g.ta.code(), g.tb.code());
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (m, n, k) = (g.m as i64, g.n as i64, g.k as i64);
    let (lda, ldb, ldc, batch) = (lda as i64, ldb as i64, ldc as i64, batch as i64);
    let (mut alpha, mut beta) = (g.alpha, g.beta);
    let (mut a, mut b, mut c) = (a, b, c);
    let (mut m_, mut n_, mut k_, mut lda_, mut ldb_, mut ldc_, mut batch_) = (m, n, k, lda, ldb, ldc, batch);
    // SAFETY: each parameter list matches the signature of the entry point named by
    // `entry` in gemm_batched.cu, in order and type (ng_i64 = i64, T by value, ng_batch = KBatch).
    unsafe {
        match p {
            Plan::Scale => {
                // gemm_scale_<T>(ng_i64 M, ng_i64 N, T beta, ng_batch<T> C, ng_i64 ldc, ng_i64 batch)
                let mut params = [arg(&mut m_), arg(&mut n_), arg(&mut beta), arg(&mut c), arg(&mut ldc_), arg(&mut batch_)];
                let total = m * n * batch;
                ch.launch(&module, grid((total + 255) / 256), 256, 0, &mut params)
            }
            Plan::Small { nb, ti, tj } => {
                // gemm_small_<T>(T alpha, ng_batch<const T> A, ng_i64 lda, ng_batch<const T> B,
                //                ng_i64 ldb, T beta, ng_batch<T> C, ng_i64 ldc, ng_i64 batch,
                //                int packed)
                let (ar, ac) = g.ta.stored(g.m, g.k);
                let (br, bc) = g.tb.stored(g.k, g.n);
                let mut packed = a.packed::<T>(ar, ac, lda as usize, nb) as i32
                    | (b.packed::<T>(br, bc, ldb as usize, nb) as i32) << 1
                    | (c.packed::<T>(g.m, g.n, ldc as usize, nb) as i32) << 2;
                let mut params = [
                    arg(&mut alpha),
                    arg(&mut a),
                    arg(&mut lda_),
                    arg(&mut b),
                    arg(&mut ldb_),
                    arg(&mut beta),
                    arg(&mut c),
                    arg(&mut ldc_),
                    arg(&mut batch_),
                    arg(&mut packed),
                ];
                let smem = small_smem::<T>(g.m, g.n, g.k, nb) as u32;
                ch.launch(&module, grid(ceil_div(batch, nb as i64)), (nb * ti * tj) as u32, smem, &mut params)
            }
            Plan::Tiled { bm, bn, ti, tj, .. } => {
                // gemm_tiled_<T>(ng_i64 M, ng_i64 N, ng_i64 K, T alpha, ng_batch<const T> A,
                //                ng_i64 lda, ng_batch<const T> B, ng_i64 ldb, T beta,
                //                ng_batch<T> C, ng_i64 ldc, ng_i64 batch)
                let mut params = [
                    arg(&mut m_),
                    arg(&mut n_),
                    arg(&mut k_),
                    arg(&mut alpha),
                    arg(&mut a),
                    arg(&mut lda_),
                    arg(&mut b),
                    arg(&mut ldb_),
                    arg(&mut beta),
                    arg(&mut c),
                    arg(&mut ldc_),
                    arg(&mut batch_),
                ];
                let blocks = ceil_div(m, bm as i64) * ceil_div(n, bn as i64) * batch;
                ch.launch(&module, grid(blocks), (ti * tj) as u32, 0, &mut params)
            }
        }
    }
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// Host arrays on the CUDA backend: packs chunks of the batch into the workspace (compact
/// leading dimensions), runs the kernel, copies C back and returns when it is there.
fn staged<T: Scalar>(ch: &mut CudaHandle, g: &Gemm<T>) -> Result<()> {
    let (ar, ac) = g.ta.stored(g.m, g.k);
    let (br, bc) = g.tb.stored(g.k, g.n);
    let reads_ab = g.reads_ab();
    let (sa, sb) = if reads_ab { (ar * ac, br * bc) } else { (0, 0) };
    let sc = g.m * g.n;
    let size = std::mem::size_of::<T>();
    // Stride 0 (one matrix for the whole batch) is staged once.
    let shared_a = matches!(g.a, Batch::Strided { stride: 0, .. });
    let shared_b = matches!(g.b, Batch::Strided { stride: 0, .. });
    let per_matrix = (if shared_a { 0 } else { sa } + if shared_b { 0 } else { sb } + sc) * size;
    let chunk = chunk_len(per_matrix, g.batch);
    let count = |shared: bool, s: usize| if shared { s } else { s * chunk };
    let (na, nb, nc) = (count(shared_a, sa), count(shared_b, sb), sc * chunk);
    let align = |x: usize| x.div_ceil(256) * 256;
    let ws = ch.workspace(align(na * size) + align(nb * size) + nc * size)?;
    let (da, db) = (ws, ws + align(na * size) as u64);
    let dc = db + align(nb * size) as u64;
    let mut host = vec![T::zero(); na.max(nb).max(nc)];
    let mut first = 0;
    while first < g.batch {
        let cnt = chunk.min(g.batch - first);
        // SAFETY: host matrices cover their validated extents; the device ranges were sized
        // above for `chunk` matrices; the stream is synchronised before `host` is reused.
        unsafe {
            if reads_ab {
                let a_n = if shared_a { 1 } else { cnt };
                upload(ch, &mut host, da, a_n, sa, |i, dst| pack(g.a.matrix(first + i), g.lda, ar, ac, dst))?;
                let b_n = if shared_b { 1 } else { cnt };
                upload(ch, &mut host, db, b_n, sb, |i, dst| pack(g.b.matrix(first + i), g.ldb, br, bc, dst))?;
            }
            if !g.beta.is_zero() {
                upload(ch, &mut host, dc, cnt, sc, |i, dst| pack(g.c.matrix(first + i) as *const T, g.ldc, g.m, g.n, dst))?;
            }
            let strided = |base: u64, shared: bool, s: usize| KBatch::strided(base, if shared { 0 } else { s });
            launch(ch, g, strided(da, shared_a, sa), ar.max(1), strided(db, shared_b, sb), br.max(1), strided(dc, false, sc), g.m, cnt)?;
            ch.dtoh(host.as_mut_ptr() as *mut c_void, dc, cnt * sc * size)?;
            ch.synchronize()?;
            for i in 0..cnt {
                let src = &host[i * sc..(i + 1) * sc];
                let dst = g.c.matrix(first + i);
                for j in 0..g.n {
                    std::ptr::copy_nonoverlapping(src.as_ptr().add(j * g.m), dst.add(j * g.ldc), g.m);
                }
            }
        }
        first += cnt;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64;

    #[test]
    fn plans_by_size_class() {
        assert_eq!(plan::<f32>(4, 4, 4, true), Plan::Small { nb: 256, ti: 1, tj: 1 });
        assert_eq!(plan::<f32>(32, 32, 32, true), Plan::Small { nb: 4, ti: 8, tj: 8 });
        assert!(matches!(plan::<Complex64>(33, 8, 8, true), Plan::Tiled { .. }));
        assert_eq!(plan::<f64>(4, 4, 4, false), Plan::Scale);
        for n in [1, 3, 8, 17, 32] {
            if let Plan::Small { nb, .. } = plan::<Complex64>(n, n, n, true) {
                assert!(nb == 1 || small_smem::<Complex64>(n, n, n, nb) <= SMALL_SMEM);
            }
        }
    }

    #[test]
    fn entry_names_carry_the_type_suffix() {
        let (d, e) = specialise::<f32>(Plan::Scale, 1, 1, 1, 0, 0);
        assert_eq!(e, "gemm_scale_f32");
        assert!(d.contains(&"NG_SCALE=1".to_string()));
    }
}
