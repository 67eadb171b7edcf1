//! CUDA backend of the tensor family: `tensor_kr` (kernels/tensor.cu) forms the Khatri–Rao
//! product of the other factors once in the workspace; the contraction M = X_(n)·K is the
//! library's batched GEMM (`gemm_batched::cuda::enqueue_gemm`) on views into X: one GEMM
//! straight into M when it fills the GPU, else a batch of pieces (the slices of a middle mode,
//! or stretches of one long sum: split-K) into partial products that `tensor_reduce` adds in a
//! fixed order.

use super::{Contraction, KhatriRao, Mttkrp};
use crate::core::batch::Batch;
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::{Op, Scalar};
use crate::cuda::module::Module;
use crate::cuda::params::grid;
use crate::cuda::staging::{Dir, Operand, Stage, View};
use crate::cuda::CudaHandle;
use crate::gemm_batched::cuda::{enqueue_gemm, Shape};
use crate::lapack::Blas;
use std::ffi::c_void;
use std::mem::size_of;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../kernels/tensor.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// The defines and entry point of a kernel: `kr` or `reduce`.
pub fn specialise<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)], format!("tensor_{kind}_{}", T::SUFFIX))
}

fn module<T: Scalar>(ch: &CudaHandle, kind: &str) -> Result<Arc<Module>> {
    let (defines, entry) = specialise::<T>(kind);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// Threads per block of both kernels.
const THREADS: usize = 256;

/// The output tile of the batched GEMM's kernels, for counting the blocks of one product.
const TILE: usize = 64;

/// Shortest stretch of one sum a split-K piece takes.
const MIN_PIECE: usize = 256;

/// Most elements of the partial products of one launch group.
const PARTIALS: usize = 1 << 24;

/// How a contraction runs: each slice's sum in `full` pieces of `len` (and one of `rem` when
/// rem > 0), `group` slices per launch; `direct`: one GEMM into M, no partials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub full: usize,
    pub len: usize,
    pub rem: usize,
    pub group: usize,
    pub direct: bool,
}

impl Plan {
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

/// The plan for `c` on a device of `sms` multiprocessors: a single product with fewer output
/// tiles than four blocks per SM is cut into stretches of at least MIN_PIECE (split-K); many
/// slices run as batches of at most PARTIALS elements of partials.
pub fn plan(c: &Contraction, sms: usize) -> Plan {
    if c.k == 0 || c.slices == 0 {
        // An empty sum: M = 0 is written without a product.
        return Plan { full: 0, len: 0, rem: 0, group: 1, direct: false };
    }
    let tiles = c.m.div_ceil(TILE) * c.n.div_ceil(TILE);
    let want = 4 * sms.max(1);
    if c.slices == 1 {
        let splits = if tiles >= want { 1 } else { want.div_ceil(tiles).min(c.k.div_ceil(MIN_PIECE)).max(1) };
        let len = c.k.div_ceil(splits);
        let (full, rem) = (c.k / len, c.k % len);
        return Plan { full, len, rem, group: 1, direct: full + (rem > 0) as usize == 1 };
    }
    let group = (PARTIALS / (c.m * c.n).max(1)).clamp(1, c.slices);
    Plan { full: 1, len: c.k, rem: 0, group, direct: false }
}

/// A strided view of device memory at `base` (bytes), items `stride` elements apart.
fn view(base: u64, stride: usize, ld: usize) -> View {
    View { base, stride, array: 0, ld, row_step: 1 }
}

/// `base` moved by `elems` elements of T.
fn at<T>(base: u64, elems: usize) -> u64 {
    base + (elems * size_of::<T>()) as u64
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
    let (rows, c) = (p.others(), p.contraction());
    let pl = plan(&c, ch.dev.sm_count as usize);
    let numel: usize = p.dims.iter().product();
    let mut stage = Stage::new(space, 1).op(Operand::vector(Dir::In, p.x, 0, numel));
    for k in 0..p.dims.len() {
        let f = if k == p.mode { Operand::absent() } else { Operand::matrix(Dir::In, &Batch::Strided { ptr: p.u[k], stride: 0 }, p.dims[k], p.rank, p.ldu[k]) };
        stage = stage.op(f);
    }
    let d = p.dims.len();
    let stage = stage
        .op(Operand::matrix(Dir::Out, &Batch::Strided { ptr: p.m, stride: 0 }, c.m, c.n, p.ldm))
        .op(Operand::scratch::<T>(rows * p.rank))
        .op(Operand::scratch::<T>(pl.partials(&c)))
        .op(Operand::scratch_once::<i64>(3 * (d - 1)));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernels touch the
    // chunk's views only, within the extents the validated sizes give.
    unsafe {
        stage.run(ch, |ch, k| {
            let (m, kr_out, partials, table) = (&k[d + 1], &k[d + 2], &k[d + 3], &k[d + 4]);
            if rows == 0 {
                return reduce::<T>(ch, c.m, c.n, 0, 0, m.ptr(), m.ld, false);
            }
            let factors: Vec<(u64, usize, usize)> = (0..d).filter(|&f| f != p.mode).map(|f| (k[1 + f].ptr(), k[1 + f].ld, p.dims[f])).collect();
            upload_table(ch, table.ptr(), &factors)?;
            kr::<T>(ch, d - 1, table.ptr(), rows, p.rank, kr_out.ptr(), rows)?;
            contract::<T>(ch, &c, &pl, &k[0], kr_out.ptr(), partials.ptr(), m)
        })
    }
}

/// M = Σ_q op(X_q)·K_q on device memory: X at `x`, K (c.ldb rows) at `kr`, partials at
/// `partials` (plan.partials(c) elements), M's view `m`.
///
/// # Safety
/// As [`mttkrp`]'s launch: every address is device memory of the validated extents.
unsafe fn contract<T: Scalar>(ch: &CudaHandle, c: &Contraction, pl: &Plan, x: &View, kr: u64, partials: u64, m: &View) -> Result<()> {
    let shape = |k: usize| Shape { ta: if c.trans { Op::T } else { Op::N }, tb: Op::N, m: c.m, n: c.n, k, alpha: T::one(), beta: T::zero() };
    let mn = c.m * c.n;
    if pl.direct {
        return enqueue_gemm(ch, &shape(c.k), &view(x.ptr(), 0, c.lda), &view(kr, 0, c.ldb), m, 1);
    }
    if c.slices == 1 {
        // Split-K: `full` stretches of `len`, then the remainder.
        let step = pl.len * c.a_step;
        enqueue_gemm(ch, &shape(pl.len), &view(x.ptr(), step, c.lda), &view(kr, pl.len, c.ldb), &view(partials, mn, c.m), pl.full)?;
        if pl.rem > 0 {
            let k0 = pl.full * pl.len;
            let (a, b, out) = (view(at::<T>(x.ptr(), k0 * c.a_step), 0, c.lda), view(at::<T>(kr, k0), 0, c.ldb), view(at::<T>(partials, pl.full * mn), 0, c.m));
            enqueue_gemm(ch, &shape(pl.rem), &a, &b, &out, 1)?;
        }
        return reduce::<T>(ch, c.m, c.n, pl.pieces(), partials, m.ptr(), m.ld, false);
    }
    for q0 in (0..c.slices).step_by(pl.group) {
        let count = pl.group.min(c.slices - q0);
        let (a, b) = (view(at::<T>(x.ptr(), q0 * c.a_slice), c.a_slice, c.lda), view(at::<T>(kr, q0 * c.b_slice), c.b_slice, c.ldb));
        enqueue_gemm(ch, &shape(c.k), &a, &b, &view(partials, mn, c.m), count)?;
        reduce::<T>(ch, c.m, c.n, count, partials, m.ptr(), m.ld, q0 > 0)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(m: usize, n: usize, k: usize, slices: usize) -> Contraction {
        Contraction { trans: slices > 1, m, n, k, lda: m, a_step: m, slices, a_slice: k * m, b_slice: k, ldb: k * slices }
    }

    #[test]
    fn plans_split_long_sums_and_group_slices() {
        // 500 × 32 from a sum of 250 000 on 132 SMs: 8 tiles, split-K.
        let p = plan(&c(500, 32, 250_000, 1), 132);
        assert!(!p.direct && p.full * p.len + p.rem == 250_000 && p.len >= MIN_PIECE && p.rem < p.len, "{p:?}");
        // A short sum: one GEMM.
        assert_eq!(plan(&c(3, 2, 5, 1), 132), Plan { full: 1, len: 5, rem: 0, group: 1, direct: true });
        assert_eq!(plan(&c(3, 2, 0, 1), 132).partials(&c(3, 2, 0, 1)), 0);
        // Slices: batches of at most PARTIALS elements.
        let p = plan(&c(500, 32, 500, 500), 132);
        assert_eq!((p.group, p.direct), (500, false));
        let p = plan(&c(5000, 64, 10, 100), 132);
        assert!(p.partials(&c(5000, 64, 10, 100)) <= PARTIALS && p.group < 100, "{p:?}");
    }
}
