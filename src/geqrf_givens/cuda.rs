//! CUDA backend: launches the kernels of `kernels/geqrf_givens.cu` (the factorisation with a
//! warp, or part of one, per matrix up to n = 32 and a block per matrix beyond, in shared
//! memory as far as the matrix and its cosines fit; a thread per vector for ormqr and gels' solve; a block per
//! matrix for orgqr) on the views of each routine's operands, described once to the staging
//! engine.

use super::{Gels, Geqrf, Orgqr, Ormqr};
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::{Op, Scalar, Side};
use crate::cuda::params::grid;
use crate::cuda::staging::{Dir, Operand, Part, Stage, View};
use crate::cuda::CudaHandle;
use std::mem::size_of;

const SOURCE: &str = include_str!("../../kernels/geqrf_givens.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// Threads of a block of the replay kernels (ormqr, orgqr, gels' solve).
const BLOCK_THREADS: usize = 128;

/// Threads of the factorisation's block per matrix (n > 32): beyond one per column, the
/// spare threads share the columns' rotations.
const FACTOR_BLOCK_THREADS: usize = 256;

/// What the factorisation keeps in shared memory (the rest is worked on in global memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Staging {
    Global = 0,
    Matrix = 1,
    MatrixAndCosines = 2,
}

/// How a factorisation of `m × n` matrices runs: `g` threads per matrix (a power of two up
/// to 32, or a whole block), `mpb` matrices per block, and what sits in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub g: usize,
    pub mpb: usize,
    pub staging: Staging,
}

impl Plan {
    /// Dynamic shared memory per block, in bytes: per matrix, the step's sines and cosines,
    /// then the matrix and its cosines as staged, with an odd leading dimension.
    fn smem_bytes<T: Scalar>(&self, m: usize, n: usize) -> usize {
        let elem = match self.staging {
            Staging::Global => 0,
            Staging::Matrix => size_of::<T>(),
            Staging::MatrixAndCosines => size_of::<T>() + size_of::<T::Real>(),
        };
        self.mpb * (2 * n * size_of::<T>() + (m | 1) * n * elem)
    }
}

/// The first plan that fits `max_smem`: everything in shared memory with several matrices
/// per block, then one matrix per block, then the matrix alone, then nothing.
pub fn plan<T: Scalar>(m: usize, n: usize, max_smem: usize) -> Plan {
    let (g, mpb) = if n <= 32 {
        let g = n.next_power_of_two();
        (g, BLOCK_THREADS / g)
    } else {
        (FACTOR_BLOCK_THREADS, 1)
    };
    let candidates = [(mpb, Staging::MatrixAndCosines), (1, Staging::MatrixAndCosines), (mpb, Staging::Matrix), (1, Staging::Matrix)];
    candidates
        .iter()
        .map(|&(mpb, staging)| Plan { g, mpb, staging })
        .find(|p| p.smem_bytes::<T>(m, n) <= max_smem)
        .unwrap_or(Plan { g, mpb, staging: Staging::Global })
}

fn base_defines<T: Scalar>(kind: &str) -> Vec<String> {
    vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), format!("NG_{}=1", kind.to_uppercase())]
}

/// The defines and entry point of a factorisation plan.
pub fn specialise<T: Scalar>(p: Plan) -> (Vec<String>, String) {
    let mut d = base_defines::<T>("geqrf");
    d.extend([format!("NG_G={}", p.g), format!("NG_MPB={}", p.mpb), format!("NG_SMEM={}", p.staging as i32)]);
    (d, format!("geqrf_{}", T::SUFFIX))
}

/// The defines and entry point of the other kernels: `ormqr`, `orgqr`, `gels_solve`.
pub fn specialise_kernel<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    (base_defines::<T>(kind), format!("{kind}_{}", T::SUFFIX))
}

/// The factorisation `f` on arrays in `space`.
pub fn geqrf<T: Scalar>(ch: &mut CudaHandle, f: &Geqrf<T>, space: Space) -> Result<()> {
    ch.bind()?;
    // The kernel writes CS strictly below the diagonal; the rest of the caller's CS is not
    // ours to write.
    let stage = Stage::new(space, f.batch)
        .op(Operand::matrix(Dir::InOut, &f.a, f.m, f.n, f.lda))
        .op(Operand::matrix(Dir::Out, &f.cs, f.m, f.n, f.ldcs).part(Part::StrictLower));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernels touch
    // the chunk's items only.
    unsafe { stage.run(ch, |ch, k| launch_geqrf::<T>(ch, f.m, f.n, &k[0], &k[1], k.count)) }
}

/// The application of Q `o` on arrays in `space`.
pub fn ormqr<T: Scalar>(ch: &mut CudaHandle, o: &Ormqr<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let nq = if o.side == Side::Left { o.m } else { o.n };
    let stage = Stage::new(space, o.batch)
        .op(Operand::matrix(Dir::In, &o.a, nq, o.k, o.lda))
        .op(Operand::matrix(Dir::In, &o.cs, nq, o.k, o.ldcs))
        .op(Operand::matrix(Dir::InOut, &o.c, o.m, o.n, o.ldc));
    // SAFETY: as in `geqrf`.
    unsafe { stage.run(ch, |ch, k| launch_ormqr(ch, o, &k[0], &k[1], &k[2], k.count)) }
}

/// The generation of Q `o` on arrays in `space`.
pub fn orgqr<T: Scalar>(ch: &mut CudaHandle, o: &Orgqr<T>, space: Space) -> Result<()> {
    ch.bind()?;
    // CS is not an operand when k = 0 (the caller's may be NULL).
    let cs = match o.k {
        0 => Operand::absent(),
        _ => Operand::matrix(Dir::In, &o.cs, o.m, o.k, o.ldcs),
    };
    let stage = Stage::new(space, o.batch).op(Operand::matrix(Dir::InOut, &o.a, o.m, o.n, o.lda)).op(cs);
    // SAFETY: as in `geqrf`.
    unsafe { stage.run(ch, |ch, k| launch_orgqr(ch, o, &k[0], &k[1], k.count)) }
}

/// gels: the factorisation with its cosines in per-item scratch, then the solve.
pub fn gels<T: Scalar>(ch: &mut CudaHandle, g: &Gels<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let stage = Stage::new(space, g.batch)
        .op(Operand::matrix(Dir::InOut, &g.a, g.m, g.n, g.lda))
        .op(Operand::matrix(Dir::InOut, &g.b, g.m, g.nrhs, g.ldb))
        .op(Operand::vector(Dir::Out, g.info, 1, 1))
        .op(Operand::scratch::<T::Real>(g.m * g.n));
    // SAFETY: as in `geqrf`.
    unsafe {
        stage.run(ch, |ch, k| {
            // The scratch holds compact m × n cosines.
            let cs = View { ld: g.m, ..k[3] };
            launch_geqrf::<T>(ch, g.m, g.n, &k[0], &cs, k.count)?;
            launch_gels_solve(ch, g, &k[0], &cs, &k[1], &k[2], k.count)
        })
    }
}

/// Enqueues the factorisation of `batch` `m × n` matrices on the views of A and CS.
fn launch_geqrf<T: Scalar>(ch: &CudaHandle, m: usize, n: usize, a: &View, cs: &View, batch: usize) -> Result<()> {
    let p = plan::<T>(m, n, ch.dev.max_smem_optin);
    let (defines, entry) = specialise::<T>(p);
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (m_, n_, ka, lda, kcs, ldcs, batch_, ldm) = (m as i32, n as i32, a.kbatch(), a.ld as i64, cs.kbatch(), cs.ld as i64, batch as i64, (m | 1) as i32);
    // SAFETY: the arguments are those of geqrf_<T> in geqrf_givens.cu, on the validated views.
    unsafe {
        ch.launch(&module)
            .arg(&m_)
            .arg(&n_)
            .arg(&ka)
            .arg(&lda)
            .arg(&kcs)
            .arg(&ldcs)
            .arg(&batch_)
            .arg(&ldm)
            .run(grid(batch.div_ceil(p.mpb) as i64), (p.g * p.mpb) as u32, p.smem_bytes::<T>(m, n) as u32)
    }
}

/// Enqueues `op(Q)·C` or `C·op(Q)` for `batch` problems on the views of A, CS and C.
fn launch_ormqr<T: Scalar>(ch: &CudaHandle, o: &Ormqr<T>, a: &View, cs: &View, c: &View, batch: usize) -> Result<()> {
    let (defines, entry) = specialise_kernel::<T>("ormqr");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let left = o.side == Side::Left;
    // The serial order for Qᴴ from the left and Q from the right, else its reverse.
    let forward = left == (o.trans != Op::N);
    let (side, fwd, m, n, k) = ((!left) as i32, forward as i32, o.m as i64, o.n as i64, o.k as i64);
    let (ka, lda, kcs, ldcs, kc, ldc, batch_) = (a.kbatch(), a.ld as i64, cs.kbatch(), cs.ld as i64, c.kbatch(), c.ld as i64, batch as i64);
    let threads = batch * if left { o.n } else { o.m };
    // SAFETY: the arguments are those of ormqr_<T> in geqrf_givens.cu, on the validated views.
    unsafe {
        ch.launch(&module)
            .arg(&side)
            .arg(&fwd)
            .arg(&m)
            .arg(&n)
            .arg(&k)
            .arg(&ka)
            .arg(&lda)
            .arg(&kcs)
            .arg(&ldcs)
            .arg(&kc)
            .arg(&ldc)
            .arg(&batch_)
            .run(grid(threads.div_ceil(BLOCK_THREADS) as i64), BLOCK_THREADS as u32, 0)
    }
}

/// Enqueues the generation of Q for `batch` matrices on the views of A and CS.
fn launch_orgqr<T: Scalar>(ch: &CudaHandle, o: &Orgqr<T>, a: &View, cs: &View, batch: usize) -> Result<()> {
    let (defines, entry) = specialise_kernel::<T>("orgqr");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (m, n, k, ka, lda, kcs, ldcs, batch_) = (o.m as i32, o.n as i32, o.k as i32, a.kbatch(), a.ld as i64, cs.kbatch(), cs.ld as i64, batch as i64);
    // SAFETY: the arguments are those of orgqr_<T> in geqrf_givens.cu, on the validated views
    // (CS is not read when k = 0).
    unsafe { ch.launch(&module).arg(&m).arg(&n).arg(&k).arg(&ka).arg(&lda).arg(&kcs).arg(&ldcs).arg(&batch_).run(grid(batch as i64), BLOCK_THREADS as u32, 0) }
}

/// Enqueues gels' solve (after the factorisation) for `batch` problems on the views of A,
/// CS, B and info.
fn launch_gels_solve<T: Scalar>(ch: &CudaHandle, g: &Gels<T>, a: &View, cs: &View, b: &View, info: &View, batch: usize) -> Result<()> {
    let (defines, entry) = specialise_kernel::<T>("gels_solve");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (m, n, nrhs, ka, lda, kcs, ldcs) = (g.m as i64, g.n as i64, g.nrhs as i64, a.kbatch(), a.ld as i64, cs.kbatch(), cs.ld as i64);
    let (kb, ldb, info, batch_) = (b.kbatch(), b.ld as i64, info.ptr(), batch as i64);
    let threads = batch * g.nrhs;
    // SAFETY: the arguments are those of gels_solve_<T> in geqrf_givens.cu, on the validated
    // views.
    unsafe {
        ch.launch(&module)
            .arg(&m)
            .arg(&n)
            .arg(&nrhs)
            .arg(&ka)
            .arg(&lda)
            .arg(&kcs)
            .arg(&ldcs)
            .arg(&kb)
            .arg(&ldb)
            .arg(&info)
            .arg(&batch_)
            .run(grid(threads.div_ceil(BLOCK_THREADS) as i64), BLOCK_THREADS as u32, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64;

    #[test]
    fn plans_by_shape() {
        let big = 227 << 10;
        let plan_of = |g, mpb, staging| Plan { g, mpb, staging };
        assert_eq!(plan::<f32>(4, 4, big), plan_of(4, 32, Staging::MatrixAndCosines));
        assert_eq!(plan::<f64>(64, 32, big), plan_of(32, 4, Staging::MatrixAndCosines));
        assert_eq!(plan::<f32>(128, 128, big), plan_of(256, 1, Staging::MatrixAndCosines));
        assert_eq!(plan::<f64>(128, 128, big), plan_of(256, 1, Staging::Matrix));
        assert_eq!(plan::<Complex64>(128, 128, big), plan_of(256, 1, Staging::Global));
        assert_eq!(plan::<Complex64>(64, 32, 64 << 10), plan_of(32, 1, Staging::MatrixAndCosines));
        assert_eq!(specialise::<f32>(plan::<f32>(8, 8, big)).1, "geqrf_f32");
    }
}
