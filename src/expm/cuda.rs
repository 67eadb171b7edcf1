//! CUDA backend: the kernels of `kernels/expm.cu` through the staging engine. expm_eig: one
//! kernel per order M (compiled on first use), E and E⁻¹ in shared memory when the batch
//! shares them and they fit. expm: matrices of the chunk in groups per block, their seven
//! work matrices in shared memory while they fit (a kernel per order), else in per-matrix
//! scratch in device memory (one kernel for every order).

use super::{is_double, Expm, ExpmEig};
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::params::grid;
use crate::cuda::staging::{Chunk, Dir, Operand, Stage};
use crate::cuda::CudaHandle;
use crate::core::batch::Batch;
use std::mem::size_of;

const SOURCE: &str = include_str!("../../kernels/expm.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// Threads of an expm_eig block, and the most of either kernel.
const THREADS: usize = 256;

/// Resident blocks per SM the expm_eig grid aims at (it strides over the groups beyond).
const BLOCKS_PER_SM: usize = 8;

/// How expm_eig runs for order M.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EigPlan {
    /// Columns per thread, and column blocks (cb·ncb ≥ M).
    pub cb: usize,
    pub ncb: usize,
    /// Problems per group.
    pub g: usize,
    /// E and E⁻¹ staged in shared memory.
    pub shared: bool,
}

/// The plan for order m; `shared_inputs`: E and E⁻¹ have stride 0.
pub fn eig_plan<T: Scalar>(m: usize, shared_inputs: bool, max_smem: usize) -> EigPlan {
    // Register accumulators per thread: 32 real, 16 complex; whole 16-byte vectors of E⁻¹'s
    // row each.
    let most = if T::IS_COMPLEX { 16 } else { 32 };
    let vec = (16 / size_of::<T>()).max(1);
    let ncb = m.div_ceil(most).max(1);
    let cb = m.div_ceil(ncb).next_multiple_of(vec);
    let g = (THREADS / (m * ncb)).max(1);
    let mut p = EigPlan { cb, ncb, g, shared: shared_inputs };
    if eig_smem::<T>(m, &p) > max_smem {
        p.shared = false;
    }
    p
}

/// Dynamic shared memory of expm_eig: the group's exponentials, and when staged E (m × m)
/// and E⁻¹'s rows padded to ncb·cb.
pub fn eig_smem<T>(m: usize, p: &EigPlan) -> usize {
    (p.g * m + if p.shared { m * m + m * p.ncb * p.cb } else { 0 }) * size_of::<T>()
}

/// The defines and entry point of expm_eig for order m.
pub fn eig_specialise<T: Scalar>(m: usize, p: &EigPlan) -> (Vec<String>, String) {
    let d = vec![
        format!("NG_T={}", T::CUDA_TYPE),
        format!("NG_SUFFIX={}", T::SUFFIX),
        "NG_EIG=1".to_string(),
        format!("NG_M={m}"),
        format!("NG_CB={}", p.cb),
        format!("NG_NCB={}", p.ncb),
        format!("NG_G={}", p.g),
        format!("NG_NT={THREADS}"),
        format!("NG_SHARED={}", p.shared as i32),
    ];
    (d, format!("expm_eig_{}", T::SUFFIX))
}

/// Operand indices of expm_eig's stage.
const E: usize = 0;
const LAMBDA: usize = 1;
const EINV: usize = 2;
const TIMES: usize = 3;
const P: usize = 4;

/// P_i = E_i·diag(exp(λ_i·t_i))·E_i⁻¹ for the call `c`, its arrays in `space`.
pub fn expm_eig<T: Scalar>(ch: &mut CudaHandle, c: &ExpmEig<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let m = c.m;
    let stage = Stage::new(space, c.batch)
        .op(Operand::matrix(Dir::In, &Batch::Strided { ptr: c.e, stride: c.stride_e as i64 }, m, m, c.lde))
        .op(Operand::vector(Dir::In, c.lambda, c.stride_l, m))
        .op(Operand::matrix(Dir::In, &Batch::Strided { ptr: c.einv, stride: c.stride_einv as i64 }, m, m, c.ldei))
        .op(Operand::vector(Dir::In, c.t, 1, 1))
        .op(Operand::matrix(Dir::Out, &Batch::Strided { ptr: c.p, stride: c.stride_p as i64 }, m, m, c.ldp));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernel touches the
    // chunk's problems only.
    unsafe { stage.run(ch, |ch, k| launch_eig::<T>(ch, m, k)) }
}

/// Enqueues expm_eig on the chunk's problems.
fn launch_eig<T: Scalar>(ch: &CudaHandle, m: usize, k: &Chunk) -> Result<()> {
    let dev = &ch.dev;
    let p = eig_plan::<T>(m, k[E].stride == 0 && k[EINV].stride == 0, dev.max_smem_optin);
    let (defines, entry) = eig_specialise::<T>(m, &p);
    let module = dev.modules.get(dev, SOURCE, &defines, &entry)?;
    let (e, lde, se) = (k[E].ptr(), k[E].ld as i64, k[E].stride as i64);
    let (lam, sl) = (k[LAMBDA].ptr(), k[LAMBDA].stride as i64);
    let (ei, ldei, sei) = (k[EINV].ptr(), k[EINV].ld as i64, k[EINV].stride as i64);
    let (t, pp, ldp, sp, batch) = (k[TIMES].ptr(), k[P].ptr(), k[P].ld as i64, k[P].stride as i64, k.count as i64);
    let smem = eig_smem::<T>(m, &p);
    let per_sm = (dev.max_smem_optin / smem.max(1)).clamp(1, BLOCKS_PER_SM);
    let blocks = k.count.div_ceil(p.g).min(per_sm * dev.sm_count.max(1) as usize);
    // SAFETY: the argument list of expm_eig_<T> in expm.cu (E, lde, strideE, lambda,
    // strideL, Einv, ldei, strideEinv, t, P, ldp, strideP, batch), on the chunk's views;
    // the grid strides over the groups.
    unsafe {
        let l = ch.launch(&module).arg(&e).arg(&lde).arg(&se).arg(&lam).arg(&sl).arg(&ei).arg(&ldei).arg(&sei);
        l.arg(&t).arg(&pp).arg(&ldp).arg(&sp).arg(&batch).run(grid(blocks as i64), THREADS as u32, smem as u32)
    }
}

/// Work matrices per matrix of expm_pade.
const WORK: usize = 7;

/// Dynamic shared memory per block the per-order kernels aim at: two blocks per SM.
const PADE_SMEM_AIM: usize = 96 << 10;

/// How expm_pade runs for order n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PadePlan {
    /// Matrices per block and threads per matrix.
    pub g: usize,
    pub tpm: usize,
    /// Work matrices in shared memory (a kernel for this n), else in device scratch.
    pub smem: bool,
}

/// The plan for order n on a device allowing `max_smem` bytes of shared memory per block.
pub fn pade_plan<T>(n: usize, max_smem: usize) -> PadePlan {
    let per = WORK * n * n * size_of::<T>();
    let tpm = (n * n).min(THREADS);
    let g = (THREADS / tpm).min((PADE_SMEM_AIM / per).max(1)).max(1);
    let p = PadePlan { g, tpm, smem: true };
    if pade_smem::<T>(n, &p) > max_smem {
        return PadePlan { g: 1, tpm: THREADS, smem: false };
    }
    p
}

/// Dynamic shared memory of expm_pade (its only shared memory, carved as the kernel does):
/// the work matrices when staged (rounded up to 16 bytes), 4·tpm + 4 doubles of reductions
/// and norms and 4 ints of state per matrix, and one int.
pub fn pade_smem<T>(n: usize, p: &PadePlan) -> usize {
    let work = if p.smem { (p.g * WORK * n * n * size_of::<T>()).next_multiple_of(16) } else { 0 };
    work + p.g * (4 * p.tpm + 4) * 8 + (4 * p.g + 1) * 4
}

/// The defines and entry point of expm_pade for order n.
pub fn pade_specialise<T: Scalar>(n: usize, p: &PadePlan) -> (Vec<String>, String) {
    let d = vec![
        format!("NG_T={}", T::CUDA_TYPE),
        format!("NG_SUFFIX={}", T::SUFFIX),
        "NG_PADE=1".to_string(),
        format!("NG_N={}", if p.smem { n } else { 0 }),
        format!("NG_G={}", p.g),
        format!("NG_TPM={}", p.tpm),
        format!("NG_SMEM={}", p.smem as i32),
        format!("NG_DOUBLE={}", is_double::<T>() as i32),
    ];
    (d, format!("expm_pade_{}", T::SUFFIX))
}

/// Operand indices of expm's stage.
const A: usize = 0;
const EXP: usize = 1;
const INFO: usize = 2;
const WORKSPACE: usize = 3;

/// E_i = exp(A_i) for the call `x`, its arrays in `space`.
pub fn expm<T: Scalar>(ch: &mut CudaHandle, x: &Expm<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let n = x.m;
    let p = pade_plan::<T>(n, ch.dev.max_smem_optin);
    let scratch = if p.smem { Operand::absent() } else { Operand::scratch::<T>(WORK * n * n) };
    let stage = Stage::new(space, x.batch)
        .op(Operand::matrix(Dir::In, &Batch::Strided { ptr: x.a, stride: x.stride_a as i64 }, n, n, x.lda))
        .op(Operand::matrix(Dir::Out, &Batch::Strided { ptr: x.e, stride: x.stride_e as i64 }, n, n, x.lde))
        .op(Operand::vector(Dir::Out, x.info, 1, 1))
        .op(scratch);
    // SAFETY: as in `expm_eig`.
    unsafe { stage.run(ch, |ch, k| launch_pade::<T>(ch, n, &p, k)) }
}

/// Enqueues expm_pade on the chunk's matrices.
fn launch_pade<T: Scalar>(ch: &CudaHandle, n: usize, p: &PadePlan, k: &Chunk) -> Result<()> {
    let dev = &ch.dev;
    let (defines, entry) = pade_specialise::<T>(n, p);
    let module = dev.modules.get(dev, SOURCE, &defines, &entry)?;
    let (n_, a, lda, sa) = (n as i64, k[A].ptr(), k[A].ld as i64, k[A].stride as i64);
    let (e, lde, se, info) = (k[EXP].ptr(), k[EXP].ld as i64, k[EXP].stride as i64, k[INFO].ptr());
    let (w, sw, batch) = (k[WORKSPACE].base, k[WORKSPACE].stride as i64, k.count as i64);
    let blocks = k.count.div_ceil(p.g) as i64;
    // SAFETY: the argument list of expm_pade_<T> in expm.cu (n, A, lda, strideA, E, lde,
    // strideE, info, scratch, strideW, batch), on the chunk's views (scratch: 7·n² elements
    // per matrix of the chunk, or none with NG_SMEM); the grid strides over the groups.
    unsafe {
        let l = ch.launch(&module).arg(&n_).arg(&a).arg(&lda).arg(&sa).arg(&e).arg(&lde).arg(&se).arg(&info);
        l.arg(&w).arg(&sw).arg(&batch).run(grid(blocks), (p.g * p.tpm) as u32, pade_smem::<T>(n, p) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64;

    #[test]
    fn eig_plans_by_order() {
        assert_eq!(eig_plan::<f32>(4, true, 227 << 10), EigPlan { cb: 4, ncb: 1, g: 64, shared: true });
        assert_eq!(eig_plan::<f32>(20, true, 227 << 10), EigPlan { cb: 20, ncb: 1, g: 12, shared: true });
        assert_eq!(eig_plan::<f64>(61, true, 227 << 10), EigPlan { cb: 32, ncb: 2, g: 2, shared: true });
        assert_eq!(eig_plan::<f32>(61, true, 227 << 10), EigPlan { cb: 32, ncb: 2, g: 2, shared: true });
        assert_eq!(eig_plan::<Complex64>(64, false, 227 << 10), EigPlan { cb: 16, ncb: 4, g: 1, shared: false });
        // Too large for shared memory: read from global memory.
        assert!(!eig_plan::<f64>(200, true, 227 << 10).shared);
    }

    #[test]
    fn pade_plans_by_order() {
        assert_eq!(pade_plan::<f32>(8, 227 << 10), PadePlan { g: 4, tpm: 64, smem: true });
        assert_eq!(pade_plan::<f64>(32, 227 << 10), PadePlan { g: 1, tpm: 256, smem: true });
        assert_eq!(pade_plan::<f32>(4, 227 << 10), PadePlan { g: 16, tpm: 16, smem: true });
        assert!(!pade_plan::<f64>(64, 227 << 10).smem);
        assert!(pade_smem::<Complex64>(32, &pade_plan::<Complex64>(32, 227 << 10)) <= 227 << 10);
        // The scratch path's shared memory: the reductions and the state only.
        assert_eq!(pade_smem::<f64>(64, &pade_plan::<f64>(64, 227 << 10)), (4 * 256 + 4) * 8 + 5 * 4);
    }
}
