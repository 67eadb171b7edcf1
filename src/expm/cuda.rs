//! CUDA backend: the kernels of `kernels/expm.cu` through the staging engine. expm_eig: one
//! kernel per order M (compiled on first use), E and E⁻¹ in shared memory when the batch
//! shares them and they fit. expm: n ≤ 32, a warp (n > 16) or a sub-warp per matrix with
//! its five work matrices in shared memory (a kernel per order); larger n, matrices of the
//! chunk in groups per block, their seven work matrices in shared memory while they fit (a
//! kernel per order), else in per-matrix scratch in device memory (one kernel for every
//! order).

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
    /// Threads (rows) per column block, ≥ M: M rounded up to whole warps when ncb > 1, so that
    /// a warp reads one row segment of E⁻¹ (a broadcast), never two.
    pub mr: usize,
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
    // One column block: a warp's threads all read E⁻¹'s row at cb = 0 (a broadcast) whatever
    // problems they span. Several: odd orders would put two column blocks in a warp (M = 61:
    // twice the shared-memory wavefronts of M = 64), so rows are padded to whole warps.
    let mr = if ncb > 1 { m.next_multiple_of(32) } else { m };
    let g = (THREADS / (mr * ncb)).max(1);
    let mut p = EigPlan { cb, ncb, mr, g, shared: shared_inputs };
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
        format!("NG_MR={}", p.mr),
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

/// Work matrices per matrix of the block kernel (expm_pade) and of the warp kernel
/// (NG_PADE_WARP).
const WORK: usize = 7;
const WARP_WORK: usize = 5;

/// Dynamic shared memory per block the block kernel's per-order kernels aim at: two blocks per
/// SM.
const PADE_SMEM_AIM: usize = 96 << 10;

/// Orders the warp kernel takes (a warp or a sub-warp per matrix), its most threads per block,
/// and the shared memory per block it aims at (several small blocks per SM: matrices of
/// different blocks never wait for each other, and the tail of the grid is short).
const WARP_MAX: usize = 32;
const WARP_THREADS: usize = 128;
const WARP_SMEM_AIM: usize = 48 << 10;

/// How expm_pade runs for order n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PadePlan {
    /// Matrices per block and threads per matrix.
    pub g: usize,
    pub tpm: usize,
    /// Work matrices in shared memory (a kernel for this n), else in device scratch.
    pub smem: bool,
    /// The warp kernel (n ≤ 32): the tpm lanes (a power of two ≥ n, of one warp) of a matrix
    /// as an lr × lc grid for the products. None: the block kernel.
    pub lanes: Option<(usize, usize)>,
}

/// The leading dimension of the warp kernel's work matrices: n, or n + 1 when even (odd: the
/// lanes reading a row of n columns hit distinct banks).
fn warp_ld(n: usize) -> usize {
    n | 1
}

/// Tile columns per pass of the warp kernel's products for a tr × tc tile: all of them while
/// the accumulators stay within 32 real or 16 complex values (n = 32 complex: two passes).
fn warp_pass<T: Scalar>(tr: usize, tc: usize) -> usize {
    let most = if T::IS_COMPLEX { 16 } else { 32 };
    let mut tcp = tc;
    while tr * tcp > most && tcp > 1 {
        tcp = tcp.div_ceil(2);
    }
    tcp
}

/// The plan for order n on a device allowing `max_smem` bytes of shared memory per block.
pub fn pade_plan<T>(n: usize, max_smem: usize) -> PadePlan {
    if n <= WARP_MAX {
        let l = n.next_power_of_two();
        let lr = 1 << (l.trailing_zeros() / 2);
        let per = WARP_WORK * n * warp_ld(n) * size_of::<T>();
        let g = (WARP_THREADS / l).min(WARP_SMEM_AIM / per).max(1);
        let p = PadePlan { g, tpm: l, smem: true, lanes: Some((lr, l / lr)) };
        if pade_smem::<T>(n, &p) <= max_smem {
            return p;
        }
    }
    let per = WORK * n * n * size_of::<T>();
    let tpm = (n * n).min(THREADS);
    let g = (THREADS / tpm).min((PADE_SMEM_AIM / per).max(1)).max(1);
    let p = PadePlan { g, tpm, smem: true, lanes: None };
    if pade_smem::<T>(n, &p) > max_smem {
        return PadePlan { g: 1, tpm: THREADS, smem: false, lanes: None };
    }
    p
}

/// Dynamic shared memory of expm_pade (its only shared memory, carved as the kernel does).
/// Warp kernel: five n × ld work matrices per matrix. Block kernel: the work matrices when
/// staged (rounded up to 16 bytes), 4·tpm + 4 doubles of reductions and norms and 4 ints of
/// state per matrix, and one int.
pub fn pade_smem<T>(n: usize, p: &PadePlan) -> usize {
    if p.lanes.is_some() {
        return p.g * WARP_WORK * n * warp_ld(n) * size_of::<T>();
    }
    let work = if p.smem { (p.g * WORK * n * n * size_of::<T>()).next_multiple_of(16) } else { 0 };
    work + p.g * (4 * p.tpm + 4) * 8 + (4 * p.g + 1) * 4
}

/// The defines and entry point of expm_pade for order n.
pub fn pade_specialise<T: Scalar>(n: usize, p: &PadePlan) -> (Vec<String>, String) {
    let mut d = vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), format!("NG_DOUBLE={}", is_double::<T>() as i32)];
    match p.lanes {
        Some((lr, lc)) => d.extend([
            "NG_PADE_WARP=1".to_string(),
            format!("NG_N={n}"),
            format!("NG_LD={}", warp_ld(n)),
            format!("NG_L={}", p.tpm),
            format!("NG_GPB={}", p.g),
            format!("NG_LR={lr}"),
            format!("NG_LC={lc}"),
            format!("NG_TR={}", n.div_ceil(lr)),
            format!("NG_TC={}", n.div_ceil(lc)),
            format!("NG_TCP={}", warp_pass::<T>(n.div_ceil(lr), n.div_ceil(lc))),
        ]),
        None => d.extend([
            "NG_PADE=1".to_string(),
            format!("NG_N={}", if p.smem { n } else { 0 }),
            format!("NG_G={}", p.g),
            format!("NG_TPM={}", p.tpm),
            format!("NG_SMEM={}", p.smem as i32),
        ]),
    }
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
        assert_eq!(eig_plan::<f32>(4, true, 227 << 10), EigPlan { cb: 4, ncb: 1, mr: 4, g: 64, shared: true });
        assert_eq!(eig_plan::<f32>(20, true, 227 << 10), EigPlan { cb: 20, ncb: 1, mr: 20, g: 12, shared: true });
        // Odd orders with several column blocks run as the next multiple of 32 rows.
        assert_eq!(eig_plan::<f64>(61, true, 227 << 10), EigPlan { cb: 32, ncb: 2, mr: 64, g: 2, shared: true });
        assert_eq!(eig_plan::<f64>(64, true, 227 << 10), EigPlan { cb: 32, ncb: 2, mr: 64, g: 2, shared: true });
        assert_eq!(eig_plan::<f32>(61, true, 227 << 10), EigPlan { cb: 32, ncb: 2, mr: 64, g: 2, shared: true });
        assert_eq!(eig_plan::<f64>(33, true, 227 << 10), EigPlan { cb: 18, ncb: 2, mr: 64, g: 2, shared: true });
        assert_eq!(eig_plan::<Complex64>(64, false, 227 << 10), EigPlan { cb: 16, ncb: 4, mr: 64, g: 1, shared: false });
        assert_eq!(eig_plan::<Complex64>(61, true, 227 << 10), EigPlan { cb: 16, ncb: 4, mr: 64, g: 1, shared: true });
        // Too large for shared memory: read from global memory.
        assert!(!eig_plan::<f64>(200, true, 227 << 10).shared);
    }

    #[test]
    fn pade_plans_by_order() {
        let smem = 227 << 10;
        // n ≤ 32: the warp kernel, a power-of-two group of lanes per matrix.
        assert_eq!(pade_plan::<f32>(1, smem), PadePlan { g: 128, tpm: 1, smem: true, lanes: Some((1, 1)) });
        assert_eq!(pade_plan::<f64>(2, smem), PadePlan { g: 64, tpm: 2, smem: true, lanes: Some((1, 2)) });
        assert_eq!(pade_plan::<f32>(4, smem), PadePlan { g: 32, tpm: 4, smem: true, lanes: Some((2, 2)) });
        assert_eq!(pade_plan::<f32>(8, smem), PadePlan { g: 16, tpm: 8, smem: true, lanes: Some((2, 4)) });
        assert_eq!(pade_plan::<f64>(9, smem), PadePlan { g: 8, tpm: 16, smem: true, lanes: Some((4, 4)) });
        assert_eq!(pade_plan::<f64>(16, smem), PadePlan { g: 4, tpm: 16, smem: true, lanes: Some((4, 4)) });
        assert_eq!(pade_plan::<f64>(17, smem), PadePlan { g: 4, tpm: 32, smem: true, lanes: Some((4, 8)) });
        assert_eq!(pade_plan::<f64>(32, smem), PadePlan { g: 1, tpm: 32, smem: true, lanes: Some((4, 8)) });
        // Five 32 × 33 complex double work matrices: 84480 bytes, one matrix per block.
        assert_eq!(pade_smem::<Complex64>(32, &pade_plan::<Complex64>(32, smem)), 84480);
        // Where it does not fit, the block kernel.
        assert_eq!(pade_plan::<Complex64>(32, 64 << 10).lanes, None);
        // n > 32: the block kernel.
        assert_eq!(pade_plan::<f64>(33, smem), PadePlan { g: 1, tpm: 256, smem: true, lanes: None });
        assert!(!pade_plan::<f64>(64, smem).smem);
        // The scratch path's shared memory: the reductions and the state only.
        assert_eq!(pade_smem::<f64>(64, &pade_plan::<f64>(64, smem)), (4 * 256 + 4) * 8 + 5 * 4);
    }
}
