//! Batched matrix exponentials.
//!
//! - [`expm_eig_batched`]: the transition matrices of a diagonalised generator for many
//!   times (Lopez & Horton, ch. 3 of the book in `shared/seeds/`; phylogenetics, BEAGLE):
//!
//!   ```text
//!   P_i = E_i · diag(exp(λ_i·t_i)) · E_i⁻¹,   i = 0 … batch − 1
//!   ```
//!
//!   E, λ and E⁻¹ are given (stride 0: one for the whole batch, the common case of one rate
//!   matrix and many branch lengths t_i), m × m. Nothing is factorised: P is exact up to the
//!   rounding of the products (|P − P̂| ≤ m·ε·|E|·|D|·|E⁻¹| elementwise).
//! - [`expm_batched`]: exp(A_i) of general m × m matrices by scaling and squaring with Padé
//!   approximants (Higham 2005, with the degree and scaling of Al-Mohy & Higham 2009):
//!
//!   ```text
//!   exp(A) = r_k(2^{−s}·A)^{2^s},   r_k = q_k(X)⁻¹·p_k(X) the [k/k] Padé approximant
//!   ```
//!
//!   From the 1-norms of A², A⁴, A⁶ (of A itself, before scaling), dₚ ≈ ‖Aᵖ‖^{1/p} bound
//!   the series' tail: d₄ = ‖A⁴‖^{1/4}, d₆ = ‖A⁶‖^{1/6}, and the upper bounds
//!   d₈ ≤ min(‖A⁴‖², ‖A²‖·‖A⁶‖)^{1/8}, d₁₀ ≤ (‖A⁴‖·‖A⁶‖)^{1/10} (Al-Mohy & Higham estimate
//!   these two; bounds keep their backward-error guarantee). Double precision takes the
//!   smallest k in {3, 5, 7} with η ≤ θ_k (η₁ = max(d₄, d₆) for 3 and 5, η₃ = max(d₆, d₈)
//!   for 7), else k = 13 and s = ⌈log₂(min(η₃, max(d₈, d₁₀))/θ₁₃)⌉⁺; single precision takes
//!   k in {3, 5, 7} with Higham's single-precision θ and scales for k = 7. Degree 9 is not
//!   used (13 costs one product more and is as accurate). The ℓ correction of Al-Mohy &
//!   Higham (fewer squarings for strongly non-normal A) is not applied: s is never smaller
//!   than theirs, so the backward error bound holds. When a power overflows, s comes from
//!   ‖A‖₁ as in Higham 2005 and the powers are formed again from 2^{−s}·A.
//!
//!   `info` per matrix: 0; 1 when A_i holds a NaN or an Inf (E_i is NaN); 2 when the Padé
//!   denominator q_k(2^{−s}A_i) is exactly singular in working precision (E_i is NaN: never
//!   seen for finite input, whose scaled norm keeps q_k near I); 3 when exp(A_i) overflows (E_i
//!   holds the Inf or NaN entries the squarings produced).
//!
//! CPU backend: BLAS `?gemm` and LAPACK `?gesv` per matrix, rayon over the batch. CUDA
//! backend: `cuda.rs`.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::check::{check_len, check_ld, check_operand, check_span, needed, nonneg, not_null, space_of};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::ArgPtr;
use crate::core::batch::Batch;
use crate::core::Scalar;
use crate::lapack::Blas;

/// Per-matrix `info` of [`expm_batched`]: A_i holds a NaN or an Inf.
pub const INFO_NONFINITE: i32 = 1;
/// Per-matrix `info`: the Padé denominator is exactly singular.
pub const INFO_SINGULAR: i32 = 2;
/// Per-matrix `info`: exp(A_i) overflows.
pub const INFO_OVERFLOW: i32 = 3;

/// One validated [`expm_eig_batched`] call (m, batch ≥ 1). Strides 0: shared.
#[derive(Clone, Copy, Debug)]
pub struct ExpmEig<T: Scalar> {
    pub m: usize,
    pub e: *const T,
    pub lde: usize,
    pub stride_e: usize,
    pub lambda: *const T,
    pub stride_l: usize,
    pub einv: *const T,
    pub ldei: usize,
    pub stride_einv: usize,
    /// `batch` times, contiguous.
    pub t: *const T::Real,
    pub p: *mut T,
    pub ldp: usize,
    pub stride_p: usize,
    pub batch: usize,
}

/// One validated [`expm_batched`] call (m, batch ≥ 1).
#[derive(Clone, Copy, Debug)]
pub struct Expm<T> {
    pub m: usize,
    pub a: *const T,
    pub lda: usize,
    pub stride_a: usize,
    pub e: *mut T,
    pub lde: usize,
    pub stride_e: usize,
    pub info: *mut i32,
    pub batch: usize,
}

// SAFETY: these carry the caller's pointers; the backends write problem i's P_i (E_i, info_i)
// from one task or thread group, outputs of different problems do not overlap (checked
// strides), and the inputs are only read.
unsafe impl<T: Scalar> Send for ExpmEig<T> {}
unsafe impl<T: Scalar> Sync for ExpmEig<T> {}
unsafe impl<T: Send> Send for Expm<T> {}
unsafe impl<T: Sync> Sync for Expm<T> {}

/// The Padé degrees and θ_k (largest scaled norm for which r_k meets the unit roundoff:
/// Higham 2005, tables 2.3 and 4.1), by precision: the last one is the one that scales.
pub fn degrees(double: bool) -> &'static [(u32, f64)] {
    const DOUBLE: [(u32, f64); 4] = [(3, 1.495585217958292e-2), (5, 2.53939833006323e-1), (7, 9.504178996162932e-1), (13, 5.371920351148152)];
    const SINGLE: [(u32, f64); 3] = [(3, 4.258730016922831e-1), (5, 1.880152677804762), (7, 3.92572478313866)];
    if double {
        &DOUBLE
    } else {
        &SINGLE
    }
}

/// The coefficients b_0 … b_k of the [k/k] Padé approximant of exp (times k!·(2k)!/(k!)²
/// scaling as in Higham 2005): p_k(x) = Σ b_j x^j, q_k(x) = p_k(−x).
pub fn pade_coefficients(k: u32) -> &'static [f64] {
    match k {
        3 => &[120.0, 60.0, 12.0, 1.0],
        5 => &[30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0],
        7 => &[17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0],
        _ => &[
            64764752532480000.0,
            32382376266240000.0,
            7771770303897600.0,
            1187353796428800.0,
            129060195264000.0,
            10559470521600.0,
            670442572800.0,
            33522128640.0,
            1323241920.0,
            40840800.0,
            960960.0,
            16380.0,
            182.0,
            1.0,
        ],
    }
}

/// The degree k and the squarings s for a matrix with 1-norms ‖A‖ = `n1`, ‖A²‖ = `n2`,
/// ‖A⁴‖ = `n4`, ‖A⁶‖ = `n6` (see the module docs); `None` when a power's norm is not finite
/// (overflow): then the caller takes [`scaling_from_norm`]. The kernels make the same choice
/// (kernels/expm.cu, `expm_choose`).
pub fn choose(n2: f64, n4: f64, n6: f64, double: bool) -> Option<(u32, i32)> {
    if !(n2.is_finite() && n4.is_finite() && n6.is_finite()) {
        return None;
    }
    let (d4, d6) = (n4.powf(0.25), n6.powf(1.0 / 6.0));
    let d8 = (n4 * n4).min(n2 * n6).powf(0.125);
    let d10 = (n4 * n6).powf(0.1);
    let (eta1, eta3) = (d4.max(d6), d6.max(d8));
    let ds = degrees(double);
    for &(k, theta) in &ds[..ds.len() - 1] {
        let eta = if k <= 5 { eta1 } else { eta3 };
        if eta <= theta {
            return Some((k, 0));
        }
    }
    let (k, theta) = ds[ds.len() - 1];
    let eta = if double { eta3.min(d8.max(d10)) } else { eta3 };
    Some((k, squarings(eta, theta)))
}

/// s = ⌈log₂(η/θ)⌉, at least 0.
fn squarings(eta: f64, theta: f64) -> i32 {
    if eta <= theta {
        return 0;
    }
    (eta / theta).log2().ceil() as i32
}

/// Higham 2005's choice when the powers overflow: the scaling degree and s from ‖A‖₁.
pub fn scaling_from_norm(n1: f64, double: bool) -> (u32, i32) {
    let ds = degrees(double);
    let (k, theta) = ds[ds.len() - 1];
    (k, squarings(n1, theta))
}

/// Whether a real type is double precision (the θ table to use).
pub fn is_double<T: Scalar>() -> bool {
    T::EPS < 1e-10
}

/// Computes P_i = E_i·diag(exp(λ_i·t_i))·E_i⁻¹ for a strided batch (see the module docs).
/// m = 0 or batch = 0 touches nothing.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes and strides describe, all in host
/// memory or all in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn expm_eig_batched<T: Blas>(
    h: &mut Handle,
    m: i64,
    e: *const T,
    lde: i64,
    stride_e: i64,
    lambda: *const T,
    stride_l: i64,
    einv: *const T,
    ldei: i64,
    stride_einv: i64,
    t: *const T::Real,
    p: *mut T,
    ldp: i64,
    stride_p: i64,
    batch: i64,
) -> Result<()> {
    let mu = nonneg(m, "m")?;
    let ldeu = check_ld(lde, mu, "lde", "m")?;
    let ldeiu = check_ld(ldei, mu, "ldei", "m")?;
    let ldpu = check_ld(ldp, mu, "ldp", "m")?;
    let batchu = nonneg(batch, "batch")?;
    if mu == 0 || batchu == 0 {
        return Ok(());
    }
    let eb = Batch::Strided { ptr: e, stride: stride_e };
    check_operand::<T, _>(&eb, ldeu, mu, batchu, "E", "strideE", "lde", true)?;
    not_null(lambda, "lambda")?;
    crate::core::check::check_stride(stride_l, mu, true, batchu, "strideL", "m")?;
    check_span::<T>(mu, stride_l as usize, batchu, "lambda")?;
    let eib = Batch::Strided { ptr: einv, stride: stride_einv };
    check_operand::<T, _>(&eib, ldeiu, mu, batchu, "Einv", "strideEinv", "ldei", true)?;
    not_null(t, "t")?;
    check_span::<T::Real>(batchu, 1, 1, "t")?;
    let pb = Batch::Strided { ptr: p, stride: stride_p };
    check_operand::<T, _>(&pb, ldpu, mu, batchu, "P", "strideP", "ldp", false)?;
    let c = ExpmEig { m: mu, e, lde: ldeu, stride_e: stride_e as usize, lambda, stride_l: stride_l as usize, einv, ldei: ldeiu, stride_einv: stride_einv as usize, t, p, ldp: ldpu, stride_p: stride_p as usize, batch: batchu };
    let args: [ArgPtr; 5] = [(e as _, "E"), (lambda as _, "lambda"), (einv as _, "Einv"), (t as _, "t"), (p as _, "P")];
    let space = space_of(h, &args, &[], &["P"], batchu)?;
    match &mut h.state {
        State::Cpu => cpu::expm_eig(&c),
        State::Cuda(ch) => cuda::expm_eig(ch, &c, space),
    }
}

/// Computes E_i = exp(A_i) for a strided batch of general matrices (see the module docs);
/// `info[i]` reports numerical trouble of matrix i. m = 0 or batch = 0 touches nothing.
///
/// # Safety
/// As [`expm_eig_batched`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn expm_batched<T: Blas>(h: &mut Handle, m: i64, a: *const T, lda: i64, stride_a: i64, e: *mut T, lde: i64, stride_e: i64, info: *mut i32, batch: i64) -> Result<()> {
    let mu = nonneg(m, "m")?;
    let ldau = check_ld(lda, mu, "lda", "m")?;
    let ldeu = check_ld(lde, mu, "lde", "m")?;
    let batchu = nonneg(batch, "batch")?;
    if mu == 0 || batchu == 0 {
        return Ok(());
    }
    let ab = Batch::Strided { ptr: a, stride: stride_a };
    check_operand::<T, _>(&ab, ldau, mu, batchu, "A", "strideA", "lda", true)?;
    let eb = Batch::Strided { ptr: e, stride: stride_e };
    check_operand::<T, _>(&eb, ldeu, mu, batchu, "E", "strideE", "lde", false)?;
    not_null(info, "info")?;
    check_span::<i32>(batchu, 1, 1, "info")?;
    if mu > i32::MAX as usize || ldau > i32::MAX as usize || ldeu > i32::MAX as usize {
        return Err(Error::not_supported(format!("m = {mu}, lda = {ldau} or lde = {ldeu} exceeds 2^31 - 1, LAPACK's and the kernels' index range")));
    }
    let x = Expm { m: mu, a, lda: ldau, stride_a: stride_a as usize, e, lde: ldeu, stride_e: stride_e as usize, info, batch: batchu };
    let args: [ArgPtr; 3] = [(a as _, "A"), (e as _, "E"), (info as _, "info")];
    let space = space_of(h, &args, &[], &["E", "info"], batchu)?;
    match &mut h.state {
        State::Cpu => cpu::expm(&x),
        State::Cuda(ch) => cuda::expm(ch, &x, space),
    }
}

/// Safe [`expm_eig_batched`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn expm_eig_batched_slices<T: Blas>(
    h: &mut Handle,
    m: i64,
    e: &[T],
    lde: i64,
    stride_e: i64,
    lambda: &[T],
    stride_l: i64,
    einv: &[T],
    ldei: i64,
    stride_einv: i64,
    t: &[T::Real],
    p: &mut [T],
    ldp: i64,
    stride_p: i64,
    batch: i64,
) -> Result<()> {
    check_len(e.len(), needed(lde, m, stride_e, batch), "E")?;
    check_len(lambda.len(), needed(m, 1, stride_l, batch), "lambda")?;
    check_len(einv.len(), needed(ldei, m, stride_einv, batch), "Einv")?;
    check_len(t.len(), batch.max(0) as usize, "t")?;
    check_len(p.len(), needed(ldp, m, stride_p, batch), "P")?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { expm_eig_batched(h, m, e.as_ptr(), lde, stride_e, lambda.as_ptr(), stride_l, einv.as_ptr(), ldei, stride_einv, t.as_ptr(), p.as_mut_ptr(), ldp, stride_p, batch) }
}

/// Safe [`expm_batched`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn expm_batched_slices<T: Blas>(h: &mut Handle, m: i64, a: &[T], lda: i64, stride_a: i64, e: &mut [T], lde: i64, stride_e: i64, info: &mut [i32], batch: i64) -> Result<()> {
    check_len(a.len(), needed(lda, m, stride_a, batch), "A")?;
    check_len(e.len(), needed(lde, m, stride_e, batch), "E")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { expm_batched(h, m, a.as_ptr(), lda, stride_a, e.as_mut_ptr(), lde, stride_e, info.as_mut_ptr(), batch) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_norms_take_low_degrees_and_large_ones_scale() {
        assert_eq!(choose(0.0, 0.0, 0.0, true), Some((3, 0)));
        assert_eq!(choose(1e-4, 1e-8, 1e-12, true), Some((3, 0)));
        assert_eq!(choose(0.01, 1e-4, 1e-6, true), Some((5, 0)));
        // ‖A^p‖ = 1000^p: η = 1000, s = ⌈log₂(1000/5.37)⌉ = 8.
        assert_eq!(choose(1e6, 1e12, 1e18, true), Some((13, 8)));
        assert_eq!(choose(1e6, 1e12, 1e18, false), Some((7, 8)));
        assert_eq!(choose(f64::INFINITY, 1.0, 1.0, true), None);
        assert_eq!(scaling_from_norm(1e300, true), (13, 995));
    }

    #[test]
    fn nilpotent_norms_need_no_scaling() {
        // A² ≠ 0 with A⁴ = 0 (a 3 × 3 Jordan block of 0 scaled by 100): only d₄ = d₆ = 0
        // matter, so no squaring, whatever ‖A‖.
        assert_eq!(choose(1e4, 0.0, 0.0, true), Some((3, 0)));
    }
}
