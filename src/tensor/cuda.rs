//! CUDA backend of the tensor family. The MTTKRP's contraction M = X_(n)·K reads X in place.
//! With at most [`SKINNY_MAX`] columns (the rank) it is `tensor_skinny_<n|t><NC>`
//! (kernels/tensor.cu), a kernel for M with few columns that reads X once, coalesced, for every
//! mode alike (op(A) = X_(0), its transpose, or a batch of slices), forming the rows of the
//! Khatri–Rao product K from the factors as it goes (K is never stored): blocks of rows of M by
//! pieces of the sum (stretches of one long sum, or groups of slices), enough of them for four
//! blocks per SM, their partial products added by `tensor_reduce` in a fixed order. Wider ranks
//! have `tensor_kr` form K once in the workspace and the library's batched GEMM
//! (`gemm_batched::cuda::enqueue_gemm`) on views into X: one GEMM straight into M when it fills
//! the GPU, else a batch of pieces (the slices of a middle mode, or split-K) into partials that
//! `tensor_reduce` adds in a fixed order. [`CudaEngine`] gives the decompositions the same
//! contractions, the Jacobi SVD (`jacobi::cuda::enqueue_gesvdj`, on the Gram matrices) and the
//! small kernels of tensor.cu, all on device views inside the one staged call of the caller's
//! arrays.

use super::cp::{self, CpAls, CpArrays, CpOutcome, CpRecWork, CpReconstruct, CpWork};
use super::engine::{at, Engine, Mat, Real};
use super::ht::{self, extents, Ht, HtReconstruct, HtRecWork, HtWork};
use super::train::{self, offsets, Chain, ChainWork, Train, TrainOut, TrainWork};
use super::{Contraction, Factor, KhatriRao, Mttkrp};
use crate::core::batch::Batch;
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::{Op, Scalar};
use crate::cuda::module::Module;
use crate::cuda::params::{grid, KScalar};
use crate::cuda::staging::{Dir, Operand, Stage, View};
use crate::cuda::CudaHandle;
use crate::gemm_batched::cuda::{enqueue_gemm, Shape};
use crate::jacobi::cuda::{enqueue_gesvdj, gesvdj_scratch, SvdViews};
use crate::jacobi::Opts;
use crate::lapack::Blas;
use cudarc::driver::safe::DeviceRepr;
use std::ffi::c_void;
use std::mem::size_of;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../kernels/tensor.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// The kernels of tensor.cu (`tensor_<kind>_<type>`), for the compile check.
pub const KERNELS: [&str; 21] = ["kr", "skinny_n8", "skinny_n16", "skinny_n32", "skinny_n64", "skinny_t8", "skinny_t16", "skinny_t32", "skinny_t64", "reduce", "dots", "normalize", "scale", "tscale", "hadamard", "potrf", "solve", "permute", "copy", "fill", "sign"];

/// The defines and entry point of a kernel: one of [`KERNELS`].
pub fn specialise<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)], format!("tensor_{kind}_{}", T::SUFFIX))
}

fn module<T: Scalar>(ch: &CudaHandle, kind: &str) -> Result<Arc<Module>> {
    let (defines, entry) = specialise::<T>(kind);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// Threads per block of `tensor_kr`, `tensor_reduce` and `tensor_skinny`.
const THREADS: usize = 256;

/// Most columns of M that `tensor_skinny` takes; wider contractions are GEMMs.
pub const SKINNY_MAX: usize = 64;

/// Most factors whose Khatri–Rao rows `tensor_skinny` forms (kernels/tensor.cu `NG_KR_MAX`):
/// an MTTKRP of a higher order takes `tensor_kr` and the GEMMs.
const KR_MAX: usize = 16;

/// `NgKrTable` of tensor.cu: the factors' (address, leading dimension, rows), the fastest row
/// index first, by value (no upload, nothing to wait for).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct KrTable([i64; 3 * KR_MAX]);

// SAFETY: repr(C) plain data, the layout of `NgKrTable`.
unsafe impl DeviceRepr for KrTable {}

impl KrTable {
    /// The table of `factors` (at most KR_MAX; none: unused).
    fn of(factors: &[(u64, usize, usize)]) -> KrTable {
        let mut w = [0i64; 3 * KR_MAX];
        for (slot, &(p, ld, dim)) in w.chunks_mut(3).zip(factors) {
            slot.copy_from_slice(&[p as i64, ld as i64, dim as i64]);
        }
        KrTable(w)
    }
}

/// Entries of M one block of `tensor_skinny_<n|t><NC>` computes: BM = SKINNY_TILE / NC rows by
/// NC columns (kernels/tensor.cu `NgSkinny`).
const SKINNY_TILE: usize = 4096;

/// The output tile of the batched GEMM's kernels, for counting the blocks of one product.
const TILE: usize = 64;

/// Shortest stretch of one sum a split-K piece takes.
const MIN_PIECE: usize = 256;

/// Most elements of the partial products of one launch group.
const PARTIALS: usize = 1 << 24;

/// How a contraction runs: the skinny kernel (at most SKINNY_MAX columns) or GEMMs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    Skinny(Skinny),
    Gemm(GemmPlan),
}

impl Plan {
    /// Elements of partial products the contraction (or one launch group of it) needs.
    pub fn partials(&self, c: &Contraction) -> usize {
        match self {
            Plan::Skinny(s) => s.partials(c),
            Plan::Gemm(g) => g.partials(c),
        }
    }
}

/// How `tensor_skinny_<n|t><nc>` runs: `tiles` blocks of rows of M by `pieces` pieces of the
/// sum, each `spp` slices (fewer in the last group) by `per` stretches of `len` of each slice's
/// sum (the last shorter, or empty: such a piece writes zeros); one piece writes M itself, more
/// write partials that `tensor_reduce` adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skinny {
    pub nc: usize,
    pub tiles: usize,
    pub spp: usize,
    pub per: usize,
    pub len: usize,
    pub pieces: usize,
}

impl Skinny {
    /// Rows of M per block.
    pub fn rows(&self) -> usize {
        SKINNY_TILE / self.nc
    }

    /// Elements of partial products: one m × n product per piece (none when one piece).
    pub fn partials(&self, c: &Contraction) -> usize {
        if self.pieces == 1 {
            0
        } else {
            self.pieces * c.m * c.n
        }
    }
}

/// How the GEMM path runs a contraction: each slice's sum in `full` pieces of `len` (and one of
/// `rem` when rem > 0), `group` slices per launch; `direct`: one GEMM into M, no partials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmPlan {
    pub full: usize,
    pub len: usize,
    pub rem: usize,
    pub group: usize,
    pub direct: bool,
}

impl GemmPlan {
    /// Partial products per slice.
    pub fn pieces(&self) -> usize {
        self.full + (self.rem > 0) as usize
    }

    /// Elements of partial products one launch group needs.
    pub fn partials(&self, c: &Contraction) -> usize {
        if self.direct {
            0
        } else {
            self.group * self.pieces() * c.m * c.n
        }
    }
}

/// The plan for `c` on a device of `sms` multiprocessors: the skinny kernel for a non-empty sum
/// into M of at most SKINNY_MAX columns with op(B) = B (the MTTKRP, CP's Gram matrices), else
/// GEMMs ([`gemm_plan`]).
pub fn plan(c: &Contraction, sms: usize) -> Plan {
    let nonempty = c.k > 0 && c.slices > 0 && c.m > 0;
    if nonempty && !c.tb && (1..=SKINNY_MAX).contains(&c.n) && c.m.div_ceil(SKINNY_TILE / SKINNY_MAX) <= i32::MAX as usize {
        return Plan::Skinny(skinny_plan(c, sms));
    }
    Plan::Gemm(gemm_plan(c, sms))
}

/// The skinny plan of a non-empty `c` (1 ≤ n ≤ SKINNY_MAX): the narrowest kernel that holds n
/// columns; as many pieces as give four blocks per SM with the row tiles, but none shorter than
/// `16·nc` (and MIN_PIECE) terms of the sum, so the partials (m·n a piece) stay a small part of
/// what the piece reads. Many slices are grouped (⌊slices / pieces⌋ a group, so at most twice
/// the pieces wanted); few slices, or one, have their sums cut into equal stretches.
pub fn skinny_plan(c: &Contraction, sms: usize) -> Skinny {
    let nc = [8, 16, 32, SKINNY_MAX].into_iter().find(|&w| w >= c.n).unwrap_or(SKINNY_MAX);
    let tiles = c.m.div_ceil(SKINNY_TILE / nc);
    let total = c.slices.saturating_mul(c.k);
    let want = (4 * sms.max(1)).div_ceil(tiles).min(total / MIN_PIECE.max(16 * nc)).max(1);
    let one = Skinny { nc, tiles, spp: c.slices, per: 1, len: c.k, pieces: 1 };
    if want == 1 {
        return one;
    }
    if c.slices >= want {
        let spp = c.slices / want;
        return Skinny { spp, pieces: c.slices.div_ceil(spp), ..one };
    }
    // `per` stretches exactly (the last ones empty, writing zeros, when (per − 1)·⌈k/per⌉ ≥ k):
    // so the blocks are at least the wanted ones, and a slice's partials at most `per`.
    let per = want.div_ceil(c.slices);
    Skinny { spp: 1, per, len: c.k.div_ceil(per), pieces: c.slices * per, ..one }
}

/// The GEMM plan for `c` on `sms` multiprocessors: a single product with fewer output tiles
/// than four blocks per SM is cut into stretches of at least MIN_PIECE (split-K); many slices
/// run as batches of at most PARTIALS elements of partials.
pub fn gemm_plan(c: &Contraction, sms: usize) -> GemmPlan {
    if c.k == 0 || c.slices == 0 {
        // An empty sum: M = 0 is written without a product.
        return GemmPlan { full: 0, len: 0, rem: 0, group: 1, direct: false };
    }
    let tiles = c.m.div_ceil(TILE) * c.n.div_ceil(TILE);
    let want = 4 * sms.max(1);
    if c.slices == 1 {
        let splits = if tiles >= want { 1 } else { want.div_ceil(tiles).min(c.k.div_ceil(MIN_PIECE)).max(1) };
        let len = c.k.div_ceil(splits);
        let (full, rem) = (c.k / len, c.k % len);
        return GemmPlan { full, len, rem, group: 1, direct: full + (rem > 0) as usize == 1 };
    }
    let group = (PARTIALS / (c.m * c.n).max(1)).clamp(1, c.slices);
    GemmPlan { full: 1, len: c.k, rem: 0, group, direct: false }
}

/// A strided view of device memory at `base` (bytes), items `stride` elements apart.
fn view(base: u64, stride: usize, ld: usize) -> View {
    View { base, stride, array: 0, ld, row_step: 1 }
}


/// Copies the table of `tensor_kr` (address, leading dimension, rows per factor, the fastest
/// row index first) to `dst`.
///
/// # Safety
/// `dst` is device scratch of at least 3·factors.len() 64-bit words.
unsafe fn upload_table(ch: &CudaHandle, dst: u64, factors: &[(u64, usize, usize)]) -> Result<()> {
    let table: Vec<i64> = factors.iter().flat_map(|&(p, ld, dim)| [p as i64, ld as i64, dim as i64]).collect();
    // Pageable memory: copied before htod returns.
    ch.htod(dst, table.as_ptr() as *const c_void, table.len() * size_of::<i64>())
}

/// Enqueues `tensor_kr`: the Khatri–Rao product of the factors whose table is at `table`
/// (`nf` of them, `rows` = the product of their rows) into `out` (leading dimension `ld`).
///
/// # Safety
/// The table's factors are device memory of their extents; `out` holds rows × rank with `ld`.
unsafe fn kr<T: Scalar>(ch: &CudaHandle, nf: usize, table: u64, rows: usize, rank: usize, out: u64, ld: usize) -> Result<()> {
    let module = module::<T>(ch, "kr")?;
    let (nf, rows_, rank_, ld) = (nf as i32, rows as i64, rank as i64, ld as i64);
    let blocks = (rows * rank).div_ceil(THREADS) as i64;
    // SAFETY: the argument list of tensor_kr_<T> in tensor.cu (a grid-stride loop).
    ch.launch(&module).arg(&nf).arg(&table).arg(&rows_).arg(&rank_).arg(&out).arg(&ld).run(grid(blocks), THREADS as u32, 0)
}

/// Enqueues `tensor_reduce`: M (m × n, leading dimension `ldm`) = [M +] the sum of `slots`
/// compact partials m·n elements apart at `partials` (slots = 0: M = 0).
///
/// # Safety
/// `partials` holds slots·m·n elements and `m_ptr` the matrix, device memory.
#[allow(clippy::too_many_arguments)]
unsafe fn reduce<T: Scalar>(ch: &CudaHandle, m: usize, n: usize, slots: usize, partials: u64, m_ptr: u64, ldm: usize, accumulate: bool) -> Result<()> {
    let module = module::<T>(ch, "reduce")?;
    let (m_, n_, slots, sp, ldm, acc) = (m as i64, n as i64, slots as i64, (m * n) as i64, ldm as i64, accumulate as i32);
    let blocks = (m * n).div_ceil(THREADS) as i64;
    // SAFETY: the argument list of tensor_reduce_<T> in tensor.cu (a grid-stride loop).
    ch.launch(&module).arg(&m_).arg(&n_).arg(&slots).arg(&partials).arg(&sp).arg(&m_ptr).arg(&ldm).arg(&acc).run(grid(blocks), THREADS as u32, 0)
}

/// C = A ⊙ B (see [`KhatriRao`]), its arrays in `space`.
pub fn khatri_rao<T: Blas>(ch: &mut CudaHandle, p: &KhatriRao<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let stage = Stage::new(space, 1)
        .op(Operand::matrix(Dir::In, &Batch::Strided { ptr: p.a, stride: 0 }, p.m, p.r, p.lda))
        .op(Operand::matrix(Dir::In, &Batch::Strided { ptr: p.b, stride: 0 }, p.n, p.r, p.ldb))
        .op(Operand::matrix(Dir::Out, &Batch::Strided { ptr: p.c, stride: 0 }, p.m * p.n, p.r, p.ldc))
        .op(Operand::scratch_once::<i64>(6));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernel touches the
    // chunk's views only.
    unsafe {
        stage.run(ch, |ch, k| {
            let (a, b, c, table) = (&k[0], &k[1], &k[2], &k[3]);
            // B's row index is the fastest.
            upload_table(ch, table.ptr(), &[(b.ptr(), b.ld, p.n), (a.ptr(), a.ld, p.m)])?;
            kr::<T>(ch, 2, table.ptr(), p.m * p.n, p.r, c.ptr(), c.ld)
        })
    }
}

/// M = X_(n)·K (see [`Mttkrp`]), its arrays in `space`.
pub fn mttkrp<T: Blas>(ch: &mut CudaHandle, p: &Mttkrp<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let numel: usize = p.dims.iter().product();
    let mut stage = Stage::new(space, 1).op(Operand::vector(Dir::In, p.x, 0, numel));
    for k in 0..p.dims.len() {
        let f = if k == p.mode { Operand::absent() } else { Operand::matrix(Dir::In, &Batch::Strided { ptr: p.u[k], stride: 0 }, p.dims[k], p.rank, p.ldu[k]) };
        stage = stage.op(f);
    }
    let d = p.dims.len();
    let scratch = mttkrp_scratch(ch, p);
    let stage = stage.op(Operand::matrix(Dir::Out, &Batch::Strided { ptr: p.m, stride: 0 }, p.dims[p.mode], p.rank, p.ldm)).op(Operand::scratch_once::<T>(scratch));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernels touch the
    // chunk's views only, within the extents the validated sizes give.
    unsafe {
        stage.run(ch, |ch, k| {
            let on = Mttkrp { x: k[0].ptr() as *const T, u: (0..d).map(|f| k[1 + f].ptr() as *const T).collect(), ldu: (0..d).map(|f| k[1 + f].ld).collect(), m: k[d + 1].ptr() as *mut T, ldm: k[d + 1].ld, ..p.clone() };
            enqueue_mttkrp(ch, &on, k[d + 2].ptr())
        })
    }
}

/// How [`enqueue_mttkrp`] runs `p` (skinny up to KR_MAX factors) and carves its scratch
/// (elements of T, each region aligned to 64): the GEMM path's Khatri–Rao product at 0 and its
/// factor table at `table` (the skinny kernel forms K's rows from the factors, passed by value,
/// as it goes), the partial products at `partials`.
struct MttkrpWork {
    plan: Plan,
    partials: usize,
    table: usize,
    total: usize,
}

/// The [`MttkrpWork`] of `p` on the handle's device: the one place its scratch is sized.
fn mttkrp_work<T: Scalar>(ch: &CudaHandle, p: &Mttkrp<T>) -> MttkrpWork {
    let (c, sms) = (p.contraction(), ch.dev.sm_count as usize);
    let plan = match plan(&c, sms) {
        Plan::Skinny(_) if p.dims.len() - 1 > KR_MAX => Plan::Gemm(gemm_plan(&c, sms)),
        pl => pl,
    };
    let gemm = matches!(plan, Plan::Gemm(_));
    let (kr, table) = if gemm { (p.others() * p.rank, table_elems::<T>(p.dims.len() - 1)) } else { (0, 0) };
    let [kr, parts, table] = [kr, plan.partials(&c), table].map(|e| e.next_multiple_of(64));
    MttkrpWork { plan, partials: kr, table: kr + parts, total: kr + parts + table }
}

/// Scratch elements of T that [`enqueue_mttkrp`] needs ([`MttkrpWork`]).
fn mttkrp_scratch<T: Scalar>(ch: &CudaHandle, p: &Mttkrp<T>) -> usize {
    mttkrp_work(ch, p).total
}

/// Elements of T that hold the Khatri–Rao table of `nf` factors (three 64-bit words each).
fn table_elems<T>(nf: usize) -> usize {
    (3 * nf * 8).div_ceil(size_of::<T>())
}

/// Enqueues the MTTKRP `p`, whose pointers are device addresses, with [`mttkrp_scratch`]
/// elements of scratch at `scratch`: the skinny kernel on X and the factor table, or
/// `tensor_kr` and the GEMMs.
///
/// # Safety
/// Every address is device memory of the handle's device of the extent `p` gives.
unsafe fn enqueue_mttkrp<T: Scalar>(ch: &CudaHandle, p: &Mttkrp<T>, scratch: u64) -> Result<()> {
    let (rows, c, w) = (p.others(), p.contraction(), mttkrp_work(ch, p));
    let (partials, table) = (at::<T>(scratch, w.partials), at::<T>(scratch, w.table));
    let m = view(p.m as u64, 0, p.ldm);
    if rows == 0 {
        return reduce::<T>(ch, c.m, c.n, 0, 0, m.ptr(), m.ld, false);
    }
    let factors: Vec<(u64, usize, usize)> = p.factors().iter().map(|f| (f.ptr as u64, f.ld, f.dim)).collect();
    if let Plan::Skinny(s) = &w.plan {
        return skinny::<T>(ch, &c, s, p.x as u64, Rhs::Factors(factors.len(), &KrTable::of(&factors)), partials, &m);
    }
    upload_table(ch, table, &factors)?;
    kr::<T>(ch, factors.len(), table, rows, p.rank, scratch, rows)?;
    contract::<T>(ch, &c, &w.plan, p.x as u64, scratch, partials, &m)
}

/// The right-hand side of a skinny contraction: B in memory, or the Khatri–Rao product of `nf`
/// (≤ KR_MAX) factors of the table (K's rows formed as the kernel goes).
#[derive(Clone, Copy)]
enum Rhs<'a> {
    Matrix(u64),
    Factors(usize, &'a KrTable),
}

/// M = Σ_q op(A_q)·op(B_q) on device memory (A at `a`, B at `b`), partials at `partials`
/// (plan.partials(c) elements), M's view `m`.
///
/// # Safety
/// As [`mttkrp`]'s launch: every address is device memory of the validated extents.
unsafe fn contract<T: Scalar>(ch: &CudaHandle, c: &Contraction, pl: &Plan, a: u64, b: u64, partials: u64, m: &View) -> Result<()> {
    if c.k == 0 || c.slices == 0 {
        // An empty sum.
        return reduce::<T>(ch, c.m, c.n, 0, 0, m.ptr(), m.ld, false);
    }
    match pl {
        Plan::Skinny(s) => skinny::<T>(ch, c, s, a, Rhs::Matrix(b), partials, m),
        Plan::Gemm(g) => gemm_contract::<T>(ch, c, g, a, b, partials, m),
    }
}

/// Enqueues `tensor_skinny_<n|t><nc>` for the non-empty `c`, B being `rhs` (into M, or into the
/// partials that `tensor_reduce` then adds in piece order).
///
/// # Safety
/// As [`contract`].
unsafe fn skinny<T: Scalar>(ch: &CudaHandle, c: &Contraction, s: &Skinny, a: u64, rhs: Rhs<'_>, partials: u64, m: &View) -> Result<()> {
    let module = module::<T>(ch, &format!("skinny_{}{}", if c.trans { 't' } else { 'n' }, s.nc))?;
    let (out, ldp, pp) = if s.pieces == 1 { (m.ptr(), m.ld, 0) } else { (partials, c.m, c.m * c.n) };
    let w = |v: usize| v as i64;
    let (mm, n, k, slices, lda, a_slice, ldb, b_slice) = (w(c.m), w(c.n), w(c.k), w(c.slices), w(c.lda), w(c.a_slice), w(c.ldb), w(c.b_slice));
    let (spp, per, len, ldp, pp) = (w(s.spp), w(s.per), w(s.len), w(ldp), w(pp));
    let (b, nf, table) = match rhs {
        Rhs::Matrix(b) => (b, 0i32, KrTable::of(&[])),
        Rhs::Factors(nf, table) => (0u64, nf as i32, *table),
    };
    // The plan keeps tiles within i32 and pieces below 2·4·SMs (grid y ≤ 65535).
    let blocks = (s.tiles as u32, s.pieces as u32, 1);
    // SAFETY: the argument list of tensor_skinny_<n|t><NC>_<T> in tensor.cu; its tiles and pieces
    // cover M's rows and the sum exactly, every load is guarded by the sizes.
    ch.launch(&module)
        .arg(&mm)
        .arg(&n)
        .arg(&k)
        .arg(&slices)
        .arg(&a)
        .arg(&lda)
        .arg(&a_slice)
        .arg(&b)
        .arg(&ldb)
        .arg(&b_slice)
        .arg(&spp)
        .arg(&per)
        .arg(&len)
        .arg(&out)
        .arg(&ldp)
        .arg(&pp)
        .arg(&nf)
        .arg(&table)
        .run(blocks, THREADS as u32, 0)?;
    if s.pieces == 1 {
        return Ok(());
    }
    reduce::<T>(ch, c.m, c.n, s.pieces, partials, m.ptr(), m.ld, false)
}

/// The GEMM path of a non-empty `c`: one GEMM into M, split-K, or the slices in groups.
///
/// # Safety
/// As [`contract`].
unsafe fn gemm_contract<T: Scalar>(ch: &CudaHandle, c: &Contraction, pl: &GemmPlan, a: u64, b: u64, partials: u64, m: &View) -> Result<()> {
    let op = |t: bool| if t { Op::T } else { Op::N };
    let shape = |k: usize| Shape { ta: op(c.trans), tb: op(c.tb), m: c.m, n: c.n, k, alpha: T::one(), beta: T::zero() };
    let (mn, bs) = (c.m * c.n, c.b_step());
    if pl.direct {
        return enqueue_gemm(ch, &shape(c.k), &view(a, 0, c.lda), &view(b, 0, c.ldb), m, 1);
    }
    if c.slices == 1 {
        // Split-K: `full` stretches of `len`, then the remainder.
        enqueue_gemm(ch, &shape(pl.len), &view(a, pl.len * c.a_step, c.lda), &view(b, pl.len * bs, c.ldb), &view(partials, mn, c.m), pl.full)?;
        if pl.rem > 0 {
            let k0 = pl.full * pl.len;
            let (a, b, out) = (view(at::<T>(a, k0 * c.a_step), 0, c.lda), view(at::<T>(b, k0 * bs), 0, c.ldb), view(at::<T>(partials, pl.full * mn), 0, c.m));
            enqueue_gemm(ch, &shape(pl.rem), &a, &b, &out, 1)?;
        }
        return reduce::<T>(ch, c.m, c.n, pl.pieces(), partials, m.ptr(), m.ld, false);
    }
    for q0 in (0..c.slices).step_by(pl.group) {
        let count = pl.group.min(c.slices - q0);
        let (av, bv) = (view(at::<T>(a, q0 * c.a_slice), c.a_slice, c.lda), view(at::<T>(b, q0 * c.b_slice), c.b_slice, c.ldb));
        enqueue_gemm(ch, &shape(c.k), &av, &bv, &view(partials, mn, c.m), count)?;
        reduce::<T>(ch, c.m, c.n, count, partials, m.ptr(), m.ld, q0 > 0)?;
    }
    Ok(())
}

/// Partial products that contracting `c` takes on `sms` multiprocessors, and for one slice, any
/// contraction whose M is at most c.m × c.n: split-K and the skinny stretches keep at most
/// ⌈4·sms/tiles⌉ pieces of m × n, and tiles ≥ m·n/TILE² (GEMM) or m·n/SKINNY_TILE (skinny,
/// n ≤ nc).
fn contract_scratch(c: &Contraction, sms: usize) -> usize {
    if c.slices == 1 {
        return 4 * sms.max(1) * (TILE * TILE).max(SKINNY_TILE) + c.m * c.n;
    }
    plan(c, sms).partials(c)
}

/// Most SVDs of one Jacobi call: its order limit (`jacobi`'s MAX_ORDER).
const JACOBI_MAX: usize = 4096;

/// Segments of one column of [`Engine::dots`], at most.
const MAX_SEGS: usize = 1024;

/// Rows per segment of a long column in [`Engine::dots`].
const SEG_ROWS: usize = 1 << 16;

/// The decompositions' primitives on device memory (see [`Engine`]), enqueued on the handle's
/// stream inside a staged call; `space` is the space of the caller's arrays (for the one copy
/// out of the working memory, [`CudaEngine::export`]).
pub struct CudaEngine<'a> {
    pub ch: &'a CudaHandle,
    pub space: Space,
}

/// Blocks of 256 threads for `total` items of a grid-stride kernel.
fn blocks(total: usize) -> (u32, u32, u32) {
    grid(total.div_ceil(256) as i64)
}

impl CudaEngine<'_> {
    /// The kernel `kind` of T (compiled on first use).
    fn module<T: Scalar>(&self, kind: &str) -> Result<Arc<Module>> {
        module::<T>(self.ch, kind)
    }

    /// Copies `n` elements from the working memory at `src` to the caller's array `dst` (in the
    /// call's space): the outputs whose size the data decides, written once it is known.
    ///
    /// # Safety
    /// `src` holds n elements of device memory; `dst` n elements of the call's space.
    pub unsafe fn export<T: Blas>(&mut self, src: u64, dst: *mut T, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        match self.space {
            Space::Host => {
                self.ch.dtoh(dst as *mut c_void, src, n * size_of::<T>())?;
                self.ch.stream.synchronize().map_err(|e| crate::cuda::driver::failed(e, "cuStreamSynchronize"))
            }
            Space::Device => <Self as Engine<T>>::copy(self, n, 1, Mat::new(src, n), Mat::new(dst as u64, n)),
        }
    }

    /// Waits for the stream.
    fn sync(&self) -> Result<()> {
        self.ch.stream.synchronize().map_err(|e| crate::cuda::driver::failed(e, "cuStreamSynchronize"))
    }
}

impl<T: Blas> Engine<T> for CudaEngine<'_> {
    fn max_eig(&self) -> usize {
        JACOBI_MAX
    }
    fn eig_scratch(&self, n: usize, count: usize) -> usize {
        (gesvdj_scratch::<T>(self.ch, n, n, false, true) + 3) * count + 3 * 64
    }
    fn contract_scratch(&self, c: &Contraction) -> usize {
        contract_scratch(c, self.ch.dev.sm_count as usize)
    }
    fn mttkrp_scratch(&self, p: &Mttkrp<T>) -> usize {
        mttkrp_scratch(self.ch, p)
    }
    fn kr_scratch(&self, nf: usize) -> usize {
        table_elems::<T>(nf)
    }
    fn dots_scratch(&self, cols: usize) -> usize {
        (cols * MAX_SEGS * 8).div_ceil(size_of::<T>())
    }

    unsafe fn gemm(&mut self, s: &Shape<T>, a: Mat, b: Mat, c: Mat, count: usize) -> Result<()> {
        if s.m == 0 || s.n == 0 || count == 0 {
            return Ok(());
        }
        enqueue_gemm(self.ch, s, &view(a.at, a.stride, a.ld), &view(b.at, b.stride, b.ld), &view(c.at, c.stride, c.ld), count)
    }

    unsafe fn contract(&mut self, c: &Contraction, a: u64, b: u64, m: Mat, scratch: u64) -> Result<()> {
        let pl = plan(c, self.ch.dev.sm_count as usize);
        contract::<T>(self.ch, c, &pl, a, b, scratch, &view(m.at, 0, m.ld))
    }

    unsafe fn mttkrp(&mut self, p: &Mttkrp<T>, scratch: u64) -> Result<()> {
        enqueue_mttkrp(self.ch, p, scratch)
    }

    unsafe fn khatri_rao(&mut self, f: &[Factor<T>], rank: usize, out: Mat, scratch: u64) -> Result<()> {
        let rows: usize = f.iter().map(|g| g.dim).product();
        if rows == 0 || rank == 0 {
            return Ok(());
        }
        let table: Vec<(u64, usize, usize)> = f.iter().map(|g| (g.ptr as u64, g.ld, g.dim)).collect();
        upload_table(self.ch, scratch, &table)?;
        kr::<T>(self.ch, f.len(), scratch, rows, rank, out.at, out.ld)
    }

    unsafe fn eig(&mut self, n: usize, count: usize, g: u64, w: u64, v: u64, scratch: u64) -> Result<()> {
        let per = gesvdj_scratch::<T>(self.ch, n, n, false, true);
        let info = at::<T>(scratch, per * count);
        let (sweeps, residual) = (at::<T>(info, count), at::<T>(info, 2 * count));
        let mat = |base: u64| View { base, stride: n * n, array: 0, ld: n, row_step: 1 };
        let one = |base: u64, stride: usize| View { base, stride, array: 0, ld: stride.max(1), row_step: 1 };
        let (a, s, vv) = (mat(g), one(w, n), mat(v));
        let (inf, sw, res, work) = (one(info, 1), one(sweeps, 1), one(residual, 1), one(scratch, per));
        let views = SvdViews { a: &a, s: &s, u: None, v: Some(&vv), info: &inf, sweeps: &sw, residual: &res, work: &work };
        let opts = Opts::<T::Real>::from_c(std::ptr::null(), T::EPS, n)?;
        enqueue_gesvdj::<T>(self.ch, n, n, &opts, &views, count)?;
        let (module, (n_, cols, ld)) = (self.module::<T>("sign")?, (n as i64, (n * count) as i64, n as i64));
        // SAFETY: the argument list of tensor_sign_<T>: count·n columns of n, leading dimension n.
        self.ch.launch(&module).arg(&n_).arg(&cols).arg(&v).arg(&ld).run(grid(cols), 256, 0)
    }

    unsafe fn dots(&mut self, rows: usize, cols: usize, a: Mat, b: Mat, scratch: u64) -> Result<Vec<f64>> {
        if cols == 0 {
            return Ok(Vec::new());
        }
        let segs = rows.div_ceil(SEG_ROWS).clamp(1, MAX_SEGS);
        let module = self.module::<T>("dots")?;
        let (r, c, sg, lda, ldb) = (rows as i64, cols as i64, segs as i64, a.ld as i64, b.ld as i64);
        // SAFETY: the argument list of tensor_dots_<T>; cols·segs doubles at `scratch`.
        self.ch.launch(&module).arg(&r).arg(&c).arg(&sg).arg(&a.at).arg(&lda).arg(&b.at).arg(&ldb).arg(&scratch).run(grid(c * sg), 256, 0)?;
        let mut out = vec![0f64; cols * segs];
        self.ch.dtoh(out.as_mut_ptr() as *mut c_void, scratch, out.len() * 8)?;
        self.sync()?;
        Ok(out.chunks(segs).map(|p| p.iter().sum()).collect())
    }

    unsafe fn normalize(&mut self, rows: usize, cols: usize, a: Mat, lambda: u64) -> Result<()> {
        let module = self.module::<T>("normalize")?;
        let (r, c, lda) = (rows as i64, cols as i64, a.ld as i64);
        // SAFETY: the argument list of tensor_normalize_<T>.
        self.ch.launch(&module).arg(&r).arg(&c).arg(&a.at).arg(&lda).arg(&lambda).run(grid(c), 256, 0)
    }

    unsafe fn scale_cols(&mut self, rows: usize, cols: usize, a: Mat, s: u64) -> Result<()> {
        let module = self.module::<T>("scale")?;
        let (r, c, lda) = (rows as i64, cols as i64, a.ld as i64);
        // SAFETY: the argument list of tensor_scale_<T>.
        self.ch.launch(&module).arg(&r).arg(&c).arg(&a.at).arg(&lda).arg(&s).run(blocks(rows * cols), 256, 0)
    }

    unsafe fn transpose_scale(&mut self, rows: usize, cols: usize, a: Mat, s: u64, b: Mat) -> Result<()> {
        let module = self.module::<T>("tscale")?;
        let (r, c, lda, ldb) = (rows as i64, cols as i64, a.ld as i64, b.ld as i64);
        // SAFETY: the argument list of tensor_tscale_<T>.
        self.ch.launch(&module).arg(&r).arg(&c).arg(&a.at).arg(&lda).arg(&s).arg(&b.at).arg(&ldb).run(blocks(rows * cols), 256, 0)
    }

    unsafe fn hadamard(&mut self, r: usize, count: usize, skip: usize, g: u64, v: u64) -> Result<()> {
        let module = self.module::<T>("hadamard")?;
        let (r_, c, sk) = (r as i64, count as i64, skip.min(count) as i64);
        // SAFETY: the argument list of tensor_hadamard_<T>.
        self.ch.launch(&module).arg(&r_).arg(&c).arg(&sk).arg(&g).arg(&v).run(blocks(r * r), 256, 0)
    }

    unsafe fn spd_solve(&mut self, r: usize, v: u64, rows: usize, m: Mat, u: Mat) -> Result<()> {
        let (potrf, solve) = (self.module::<T>("potrf")?, self.module::<T>("solve")?);
        let (r_, rows_, ldm, ldu) = (r as i64, rows as i64, m.ld as i64, u.ld as i64);
        // SAFETY: the argument lists of tensor_potrf_<T> (one block) and tensor_solve_<T>.
        self.ch.launch(&potrf).arg(&r_).arg(&v).run((1, 1, 1), 256, 0)?;
        self.ch.launch(&solve).arg(&r_).arg(&rows_).arg(&v).arg(&m.at).arg(&ldm).arg(&u.at).arg(&ldu).run(blocks(rows), 256, 0)
    }

    unsafe fn permute3(&mut self, d: [usize; 3], p: [usize; 3], src: u64, dst: u64) -> Result<()> {
        let module = self.module::<T>("permute")?;
        let (d0, d1, d2, p0, p1, p2) = (d[0] as i64, d[1] as i64, d[2] as i64, p[0] as i32, p[1] as i32, p[2] as i32);
        // SAFETY: the argument list of tensor_permute_<T>.
        self.ch.launch(&module).arg(&d0).arg(&d1).arg(&d2).arg(&p0).arg(&p1).arg(&p2).arg(&src).arg(&dst).run(blocks(d[0] * d[1] * d[2]), 256, 0)
    }

    unsafe fn copy(&mut self, rows: usize, cols: usize, a: Mat, b: Mat) -> Result<()> {
        let module = self.module::<T>("copy")?;
        let (r, c, lda, ldb) = (rows as i64, cols as i64, a.ld as i64, b.ld as i64);
        // SAFETY: the argument list of tensor_copy_<T>.
        self.ch.launch(&module).arg(&r).arg(&c).arg(&a.at).arg(&lda).arg(&b.at).arg(&ldb).run(blocks(rows * cols), 256, 0)
    }

    unsafe fn fill(&mut self, rows: usize, cols: usize, a: Mat, v: T) -> Result<()> {
        let module = self.module::<T>("fill")?;
        let (r, c, lda, val) = (rows as i64, cols as i64, a.ld as i64, KScalar(v));
        // SAFETY: the argument list of tensor_fill_<T>.
        self.ch.launch(&module).arg(&r).arg(&c).arg(&a.at).arg(&lda).arg(&val).run(blocks(rows * cols), 256, 0)
    }

    unsafe fn upload(&mut self, src: &[T], dst: u64) -> Result<()> {
        // Pageable memory: copied before htod returns.
        self.ch.htod(dst, src.as_ptr() as *const c_void, std::mem::size_of_val(src))
    }

    unsafe fn download(&mut self, src: u64, dst: &mut [T]) -> Result<()> {
        self.ch.dtoh(dst.as_mut_ptr() as *mut c_void, src, std::mem::size_of_val(dst))?;
        self.sync()
    }
}

/// A caller's array of `len` elements as one staged item.
fn whole<T>(dir: Dir, p: *const T, len: usize) -> Operand {
    Operand::vector(dir, p, 0, len)
}

/// The result a staged call's closure left, or an internal error if it never ran.
fn ran<R>(out: Option<R>, what: &str) -> Result<R> {
    out.ok_or_else(|| Error::internal(format!("{what}: the staged call ran no chunk")))
}

/// CP-ALS of a validated call, its arrays in `space`: X in; the factors in and out (given) or
/// out; λ out; the engine's working memory. The factors' views have the caller's leading
/// dimensions (device arrays) or their rows (staged host arrays).
pub fn cp_als<T: Real>(ch: &mut CudaHandle, p: &CpAls<T>, space: Space) -> Result<CpOutcome> {
    ch.bind()?;
    let d = p.dims.len();
    let dir = if p.opts.given { Dir::InOut } else { Dir::Out };
    let mut stage = Stage::new(space, 1).op(whole(Dir::In, p.x, p.dims.iter().product()));
    for k in 0..d {
        stage = stage.op(Operand::matrix(dir, &Batch::Strided { ptr: p.u[k] as *const T, stride: 0 }, p.dims[k], p.rank, p.ldu[k]));
    }
    let ld = if space == Space::Host { p.dims.clone() } else { p.ldu.clone() };
    let w = CpWork::new(p, &CudaEngine { ch, space }, &ld)?;
    let stage = stage.op(whole(Dir::Out, p.lambda, p.rank)).op(Operand::scratch_once::<T>(w.total));
    let mut out = None;
    // SAFETY: the operands are the validated call's arrays in `space`; the engine touches the
    // chunk's views and the working memory of the layout only.
    unsafe {
        stage.run(ch, |ch, k| {
            let a = CpArrays { x: k[0].ptr(), u: (0..d).map(|i| Mat::new(k[1 + i].ptr(), k[1 + i].ld)).collect(), lambda: k[d + 1].ptr() };
            out = Some(cp::run(&mut CudaEngine { ch, space }, p, &a, &w, k[d + 2].ptr())?);
            Ok(())
        })?;
    }
    ran(out, "cp_als")
}

/// The tensor of a CP decomposition, its arrays in `space` (the factors and λ absent when not
/// referenced).
pub fn cp_reconstruct<T: Real>(ch: &mut CudaHandle, p: &CpReconstruct<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let d = p.dims.len();
    let mut stage = Stage::new(space, 1);
    for k in 0..d {
        stage = stage.op(if p.rank == 0 { Operand::absent() } else { Operand::matrix(Dir::In, &Batch::Strided { ptr: p.u[k], stride: 0 }, p.dims[k], p.rank, p.ldu[k]) });
    }
    let lambda = if p.lambda.is_null() { Operand::absent() } else { whole(Dir::In, p.lambda, p.rank) };
    let w = CpRecWork::new(p, &CudaEngine { ch, space })?;
    let stage = stage.op(lambda).op(whole(Dir::Out, p.x, p.dims.iter().product())).op(Operand::scratch_once::<T>(w.total));
    // SAFETY: as in `cp_als`.
    unsafe {
        stage.run(ch, |ch, k| {
            let u: Vec<Mat> = (0..d).map(|i| Mat::new(k[i].ptr(), k[i].ld)).collect();
            cp::reconstruct(&mut CudaEngine { ch, space }, p, &u, k[d].ptr(), k[d + 1].ptr(), &w, k[d + 2].ptr())
        })
    }
}

/// TT-SVD or TR-SVD of a validated call, X in `space`. The cores' length is known only at the
/// end, so they are not a staged operand: they are computed in the working memory and copied
/// once to the caller's array ([`CudaEngine::export`]) when they fit its capacity.
pub fn train<T: Real>(ch: &mut CudaHandle, p: &Train<T>, space: Space) -> Result<TrainOut> {
    ch.bind()?;
    let w = TrainWork::new(p, &CudaEngine { ch, space })?;
    let stage = Stage::new(space, 1).op(whole(Dir::In, p.x, p.dims.iter().product())).op(Operand::scratch_once::<T>(w.total));
    let mut out = None;
    // SAFETY: as in `cp_als`; the cores are copied only when `capacity` elements hold them.
    unsafe {
        stage.run(ch, |ch, k| {
            let mut e = CudaEngine { ch, space };
            let o = train::run(&mut e, p, k[0].ptr(), &w, k[1].ptr())?;
            if o.total <= p.capacity {
                e.export(at::<T>(k[1].ptr(), w.cores), p.cores, o.total)?;
            }
            out = Some(o);
            Ok(())
        })?;
    }
    ran(out, "the tensor-train decomposition")
}

/// The tensor of a TT or TR decomposition, its arrays in `space`.
pub fn chain<T: Real>(ch: &mut CudaHandle, p: &Chain<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let w = ChainWork::new(p)?;
    let total = *offsets(&p.dims, &p.ranks).last().unwrap_or(&0);
    let stage = Stage::new(space, 1).op(whole(Dir::In, p.cores, total)).op(whole(Dir::Out, p.x, p.dims.iter().product())).op(Operand::scratch_once::<T>(w.total));
    // SAFETY: as in `cp_als`.
    unsafe { stage.run(ch, |ch, k| train::reconstruct(&mut CudaEngine { ch, space }, p, k[0].ptr(), k[1].ptr(), &w, k[2].ptr())) }
}

/// HT of a validated call, its arrays in `space`.
pub fn ht<T: Real>(ch: &mut CudaHandle, p: &Ht<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let ext = extents(&p.dims, &p.ranks)?;
    let w = HtWork::new(p, &CudaEngine { ch, space })?;
    let mut stage = Stage::new(space, 1).op(whole(Dir::In, p.x, p.dims.iter().product()));
    for (&o, &len) in p.out.iter().zip(&ext) {
        stage = stage.op(whole(Dir::Out, o, len));
    }
    let stage = stage.op(Operand::scratch_once::<T>(w.total));
    // SAFETY: as in `cp_als`.
    unsafe {
        stage.run(ch, |ch, k| {
            let out = [k[1].ptr(), k[2].ptr(), k[3].ptr(), k[4].ptr(), k[5].ptr()];
            ht::run(&mut CudaEngine { ch, space }, p, k[0].ptr(), &out, &w, k[6].ptr())
        })
    }
}

/// The tensor of an HT decomposition, its arrays in `space`.
pub fn ht_reconstruct<T: Real>(ch: &mut CudaHandle, p: &HtReconstruct<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let ext = extents(&p.dims, &p.ranks)?;
    let w = HtRecWork::new(p)?;
    let mut stage = Stage::new(space, 1);
    for (&part, &len) in p.parts.iter().zip(&ext) {
        stage = stage.op(whole(Dir::In, part, len));
    }
    let stage = stage.op(whole(Dir::Out, p.x, p.dims.iter().product())).op(Operand::scratch_once::<T>(w.total));
    // SAFETY: as in `cp_als`.
    unsafe {
        stage.run(ch, |ch, k| {
            let parts = [k[0].ptr(), k[1].ptr(), k[2].ptr(), k[3].ptr(), k[4].ptr()];
            ht::reconstruct(&mut CudaEngine { ch, space }, p, &parts, k[5].ptr(), &w, k[6].ptr())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(m: usize, n: usize, k: usize, slices: usize) -> Contraction {
        Contraction { trans: slices > 1, tb: false, m, n, k, lda: m, a_step: m, slices, a_slice: k * m, b_slice: k, ldb: k * slices }
    }

    #[test]
    fn one_slice_bound_covers_every_smaller_contraction() {
        for sms in [1, 66, 132] {
            let bound = contract_scratch(&c(300, 300, 1, 1), sms);
            for m in [1, 2, 5, 63, 64, 65, 100, 257, 300] {
                for n in [1, 3, 64, 65, 128, 300] {
                    for k in [1, 255, 256, 257, 10_000, 1 << 20] {
                        let one = c(m, n, k, 1);
                        assert!(plan(&one, sms).partials(&one) <= bound, "{m} × {n} × {k} on {sms} SMs");
                    }
                }
            }
        }
    }

    #[test]
    fn gemm_plans_split_long_sums_and_group_slices() {
        // 500 × 96 from a sum of 250 000 on 132 SMs: 16 tiles, split-K.
        let p = gemm_plan(&c(500, 96, 250_000, 1), 132);
        assert!(!p.direct && p.full * p.len + p.rem == 250_000 && p.len >= MIN_PIECE && p.rem < p.len, "{p:?}");
        // A short sum: one GEMM.
        assert_eq!(gemm_plan(&c(3, 2, 5, 1), 132), GemmPlan { full: 1, len: 5, rem: 0, group: 1, direct: true });
        assert_eq!(plan(&c(3, 2, 0, 1), 132).partials(&c(3, 2, 0, 1)), 0);
        // Slices: batches of at most PARTIALS elements.
        let p = gemm_plan(&c(500, 96, 500, 500), 132);
        assert_eq!((p.group, p.direct), (349, false));
        let p = gemm_plan(&c(5000, 64, 10, 100), 132);
        assert!(p.partials(&c(5000, 64, 10, 100)) <= PARTIALS && p.group < 100, "{p:?}");
    }

    #[test]
    fn skinny_takes_up_to_64_columns_and_nonempty_sums() {
        let kinds = |n: usize, k: usize| match plan(&c(100, n, k, 1), 132) {
            Plan::Skinny(s) => Some(s.nc),
            Plan::Gemm(_) => None,
        };
        assert_eq!([1, 8, 9, 16, 17, 32, 33, 64].map(|n| kinds(n, 10)), [8, 8, 16, 16, 32, 32, 64, 64].map(Some));
        assert_eq!((kinds(65, 10), kinds(16, 0)), (None, None));
        let tb = Contraction { tb: true, ..c(100, 16, 10, 1) };
        assert!(matches!(plan(&tb, 132), Plan::Gemm(_)), "op(B) = Bᵀ is a GEMM");
    }

    /// Every (slice, sum index) of `c` in exactly one piece of its skinny plan, no piece empty,
    /// the rows covered, the grid within limits.
    fn check_cover(cc: &Contraction, sms: usize) -> Skinny {
        let Plan::Skinny(s) = plan(cc, sms) else { panic!("{cc:?} is not skinny") };
        assert!(s.tiles * s.rows() >= cc.m && (s.tiles - 1) * s.rows() < cc.m && s.pieces < 65_536, "{s:?}");
        let mut seen = vec![0u8; cc.slices * cc.k];
        for p in 0..s.pieces {
            let (group, stretch) = (p / s.per, p % s.per);
            let (q0, q1) = (group * s.spp, (group * s.spp + s.spp).min(cc.slices));
            let (kb, ke) = (stretch * s.len, (stretch * s.len + s.len).min(cc.k));
            assert!(q0 < q1, "{cc:?}: piece {p} of {s:?} has no slice");
            for q in q0..q1 {
                (kb..ke.max(kb)).for_each(|t| seen[q * cc.k + t] += 1);
            }
        }
        assert!(seen.iter().all(|&v| v == 1), "{cc:?}: {s:?} does not cover the sum once");
        assert!(s.partials(cc) <= 2 * (4 * sms).div_ceil(s.tiles) * cc.m * cc.n, "{s:?}");
        s
    }

    #[test]
    fn skinny_plans_cover_the_sum_once_and_fill_the_gpu() {
        for sms in [1, 132] {
            for (m, n) in [(1, 1), (3, 17), (100, 16), (129, 32), (500, 33), (1000, 64), (5000, 8)] {
                for (k, slices) in [(1, 1), (7, 1), (300, 1), (250_000, 1), (1, 3), (100, 100), (500, 500), (2, 1000), (37, 41), (1000, 2)] {
                    let s = check_cover(&c(m, n, k, slices), sms);
                    // Four blocks per SM whenever the sum has enough terms for them.
                    if k * slices / MIN_PIECE.max(16 * s.nc) >= 8 * sms {
                        assert!(s.tiles * s.pieces >= 4 * sms, "{m} × {n}, {slices} slices of {k}: {s:?}");
                    }
                }
            }
        }
        // A sum of 132 000 into 2 × 8 on 132 SMs: 515 stretches of 257, the last one empty (the
        // integration tests' case).
        let s = check_cover(&c(2, 8, 132_000, 1), 132);
        assert!(s.per == 515 && (s.per - 1) * s.len >= 132_000, "{s:?}");
        // N³ tensors, rank 16 and 32 (the shapes): mode 0, a middle mode, the last.
        for n in [16, 32] {
            for size in [100, 500, 1000] {
                let sq = size * size;
                for cc in [c(size, n, sq, 1), c(size, n, size, size), c(size, n, sq, 1)] {
                    let s = check_cover(&cc, 132);
                    assert!(s.tiles * s.pieces >= 4 * 132 || size == 100, "{cc:?}: {s:?}");
                    // The partials are a small part of X (m·k·slices): at most n/(8·nc): each piece sums at least 8·nc terms.
                    assert!(s.partials(&cc) * 8 * s.nc <= cc.m * cc.k * cc.slices * cc.n, "{cc:?}: {s:?}");
                }
            }
        }
    }
}
