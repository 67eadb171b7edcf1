#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! `numgpu_{s,d,c,z}expm_eig_batched` and `numgpu_{s,d,c,z}expm_batched`: convert the C
//! arguments and call the family's Rust API.

use super::{expm_batched, expm_eig_batched};
use crate::core::error::numgpu_status;
use crate::core::scalar::{numgpu_complex_double, numgpu_complex_float};
use crate::core::Handle;
use crate::ffi::{boundary, deref_mut};
use crate::lapack::Blas;
use num_complex::{Complex32, Complex64};

#[allow(clippy::too_many_arguments)]
unsafe fn eig_form<T: Blas>(
    name: &str,
    h: *mut Handle,
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
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        expm_eig_batched(h, m, e, lde, stride_e, lambda, stride_l, einv, ldei, stride_einv, t, p, ldp, stride_p, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn expm_form<T: Blas>(name: &str, h: *mut Handle, m: i64, a: *const T, lda: i64, stride_a: i64, e: *mut T, lde: i64, stride_e: i64, info: *mut i32, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        expm_batched(h, m, a, lda, stride_a, e, lde, stride_e, info, batch)
    })
}

/// Transition matrices of a diagonalised generator for many times, single precision:
/// P_i = E_i·diag(exp(lambda_i·t_i))·Einv_i for i = 0 … batch − 1 (Lopez & Horton's batched
/// matrix exponential for phylogenetics: one rate matrix Q = E·diag(lambda)·Einv, many
/// branch lengths t_i, P_i = exp(Q·t_i)). Nothing is factorised: E, lambda and Einv are the
/// caller's (a real E needs real eigenvalues, as a reversible model has; otherwise use
/// `numgpu_cexpm_eig_batched`). On CUDA, one fused kernel: the exponentials and both
/// products without an intermediate in memory, E and Einv staged once per block when shared.
///
/// - `h` [in]: handle.
/// - `m` [in]: order of every matrix, >= 0 (any m; 4, 20, 61 and 64 are the models' sizes).
/// - `E` [in]: the eigenvectors, m × m, column-major, at `E + i·strideE`.
/// - `lde` [in]: leading dimension of E, >= max(1, m).
/// - `strideE` [in]: elements between consecutive E_i: 0 (one E for the whole batch) or
///   >= lde·m, when batch > 1.
/// - `lambda` [in]: the eigenvalues, m entries at `lambda + i·strideL`.
/// - `strideL` [in]: 0 (shared) or >= m, when batch > 1.
/// - `Einv` [in]: the inverse of E, m × m, at `Einv + i·strideEinv`.
/// - `ldei` [in]: leading dimension of Einv, >= max(1, m).
/// - `strideEinv` [in]: 0 (shared) or >= ldei·m, when batch > 1.
/// - `t` [in]: `batch` times (branch lengths), contiguous; any real value (t = 0 gives
///   E·Einv, the identity to rounding).
/// - `P` [out]: m × m per problem at `P + i·strideP`; only the m × m part is written.
/// - `ldp` [in]: leading dimension of P, >= max(1, m).
/// - `strideP` [in]: >= ldp·m, when batch > 1.
/// - `batch` [in]: number of problems, >= 0.
///
/// Accuracy: |P_i − P̂_i| <= m·ε·|E|·|D_i|·|Einv| elementwise (D_i = diag(exp(lambda·t_i)),
/// exponentials to a few ulp), whatever the conditioning of E. No info: a NaN or Inf among the
/// inputs of problem i shows in P_i only. m = 0 or batch = 0 is success and touches nothing.
/// All arrays are host memory, or all are device memory of the handle's device (then the
/// call is enqueued on the handle's stream and returns at once). Results are bitwise
/// reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or array, negative m or
/// batch, a leading dimension or stride too small, P the same array as an input, device
/// memory on the CPU backend, arrays in different spaces); nothing is written then.
/// `NOT_SUPPORTED` (extents beyond the address space, sizes beyond BLAS's 32-bit integers on
/// the CPU backend), `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sexpm_eig_batched(
    h: *mut Handle,
    m: i64,
    E: *const f32,
    lde: i64,
    strideE: i64,
    lambda: *const f32,
    strideL: i64,
    Einv: *const f32,
    ldei: i64,
    strideEinv: i64,
    t: *const f32,
    P: *mut f32,
    ldp: i64,
    strideP: i64,
    batch: i64,
) -> numgpu_status {
    eig_form::<f32>("numgpu_sexpm_eig_batched", h, m, E, lde, strideE, lambda, strideL, Einv, ldei, strideEinv, t, P, ldp, strideP, batch)
}

/// Matrix exponentials of a batch of general single-precision matrices: E_i = exp(A_i) for
/// i = 0 … batch − 1, by scaling and squaring with Padé approximants (Higham 2005, with the
/// degree k and the squarings s of Al-Mohy & Higham 2009 from the 1-norms of A_i², A_i⁴ and
/// A_i⁶: single precision takes k in {3, 5, 7}, double precision k in {3, 5, 7, 13}; the ℓ
/// correction that trims squarings for strongly non-normal A is not applied). The denominator
/// is solved by LU with partial pivoting. CPU backend: `sgemm` and `sgesv` per matrix. CUDA:
/// a block per group of matrices with the work matrices in shared memory up to about m = 64
/// (single) / 48 (double), in device scratch beyond (correct for any m, but not a fast path
/// for large m).
///
/// - `h` [in]: handle.
/// - `m` [in]: order of every A_i, >= 0.
/// - `A` [in]: m × m per matrix at `A + i·strideA`.
/// - `lda` [in]: leading dimension of A, >= max(1, m).
/// - `strideA` [in]: 0 (one A for the whole batch) or >= lda·m, when batch > 1.
/// - `E` [out]: exp(A_i), m × m at `E + i·strideE`; only the m × m part is written.
/// - `lde` [in]: leading dimension of E, >= max(1, m).
/// - `strideE` [in]: >= lde·m, when batch > 1.
/// - `info` [out]: `batch` entries: 0 success; 1 when A_i holds a NaN or an Inf (E_i is NaN);
///   2 when the Padé denominator is exactly singular in working precision (E_i is NaN; not
///   seen for finite input); 3 when exp(A_i) overflows (E_i holds the Inf or NaN entries the
///   squarings produced).
/// - `batch` [in]: number of matrices, >= 0.
///
/// Accuracy: a backward error of about the unit roundoff per the Padé bound, so a relative
/// error of about cond(exp, A)·ε; one problem's trouble affects only its E_i and info[i].
/// m = 0 or batch = 0 is success and touches nothing. Spaces and reproducibility as
/// `numgpu_sexpm_eig_batched`.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or array, negative m or
/// batch, a leading dimension or stride too small, E the same array as A, device memory on
/// the CPU backend, arrays in different spaces); nothing is written then. `NOT_SUPPORTED`
/// (m or a leading dimension above 2^31 − 1, extents beyond the address space),
/// `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sexpm_batched(h: *mut Handle, m: i64, A: *const f32, lda: i64, strideA: i64, E: *mut f32, lde: i64, strideE: i64, info: *mut i32, batch: i64) -> numgpu_status {
    expm_form::<f32>("numgpu_sexpm_batched", h, m, A, lda, strideA, E, lde, strideE, info, batch)
}

/// Transition matrices of a diagonalised generator for many times, double elements:
/// `numgpu_sexpm_eig_batched` with `double` E, lambda, Einv and P and `double` times;
/// the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dexpm_eig_batched(
    h: *mut Handle,
    m: i64,
    E: *const f64,
    lde: i64,
    strideE: i64,
    lambda: *const f64,
    strideL: i64,
    Einv: *const f64,
    ldei: i64,
    strideEinv: i64,
    t: *const f64,
    P: *mut f64,
    ldp: i64,
    strideP: i64,
    batch: i64,
) -> numgpu_status {
    eig_form::<f64>("numgpu_dexpm_eig_batched", h, m, E, lde, strideE, lambda, strideL, Einv, ldei, strideEinv, t, P, ldp, strideP, batch)
}

/// Matrix exponentials of a batch of general double matrices: `numgpu_sexpm_batched` with
/// `double` elements (Padé degrees 3, 5, 7 or 13); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dexpm_batched(h: *mut Handle, m: i64, A: *const f64, lda: i64, strideA: i64, E: *mut f64, lde: i64, strideE: i64, info: *mut i32, batch: i64) -> numgpu_status {
    expm_form::<f64>("numgpu_dexpm_batched", h, m, A, lda, strideA, E, lde, strideE, info, batch)
}

/// Transition matrices of a diagonalised generator for many times, complex float elements:
/// `numgpu_sexpm_eig_batched` with `numgpu_complex_float` E, lambda, Einv and P and `float` times (complex eigenvalues and eigenvectors: any diagonalisable generator);
/// the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cexpm_eig_batched(
    h: *mut Handle,
    m: i64,
    E: *const numgpu_complex_float,
    lde: i64,
    strideE: i64,
    lambda: *const numgpu_complex_float,
    strideL: i64,
    Einv: *const numgpu_complex_float,
    ldei: i64,
    strideEinv: i64,
    t: *const f32,
    P: *mut numgpu_complex_float,
    ldp: i64,
    strideP: i64,
    batch: i64,
) -> numgpu_status {
    eig_form::<Complex32>("numgpu_cexpm_eig_batched", h, m, E as *const Complex32, lde, strideE, lambda as *const Complex32, strideL, Einv as *const Complex32, ldei, strideEinv, t, P as *mut Complex32, ldp, strideP, batch)
}

/// Matrix exponentials of a batch of general complex float matrices: `numgpu_sexpm_batched` with
/// `numgpu_complex_float` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cexpm_batched(h: *mut Handle, m: i64, A: *const numgpu_complex_float, lda: i64, strideA: i64, E: *mut numgpu_complex_float, lde: i64, strideE: i64, info: *mut i32, batch: i64) -> numgpu_status {
    expm_form::<Complex32>("numgpu_cexpm_batched", h, m, A as *const Complex32, lda, strideA, E as *mut Complex32, lde, strideE, info, batch)
}

/// Transition matrices of a diagonalised generator for many times, complex double elements:
/// `numgpu_sexpm_eig_batched` with `numgpu_complex_double` E, lambda, Einv and P and `double` times (complex eigenvalues and eigenvectors: any diagonalisable generator);
/// the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zexpm_eig_batched(
    h: *mut Handle,
    m: i64,
    E: *const numgpu_complex_double,
    lde: i64,
    strideE: i64,
    lambda: *const numgpu_complex_double,
    strideL: i64,
    Einv: *const numgpu_complex_double,
    ldei: i64,
    strideEinv: i64,
    t: *const f64,
    P: *mut numgpu_complex_double,
    ldp: i64,
    strideP: i64,
    batch: i64,
) -> numgpu_status {
    eig_form::<Complex64>("numgpu_zexpm_eig_batched", h, m, E as *const Complex64, lde, strideE, lambda as *const Complex64, strideL, Einv as *const Complex64, ldei, strideEinv, t, P as *mut Complex64, ldp, strideP, batch)
}

/// Matrix exponentials of a batch of general complex double matrices: `numgpu_sexpm_batched` with
/// `numgpu_complex_double` elements (Padé degrees 3, 5, 7 or 13); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zexpm_batched(h: *mut Handle, m: i64, A: *const numgpu_complex_double, lda: i64, strideA: i64, E: *mut numgpu_complex_double, lde: i64, strideE: i64, info: *mut i32, batch: i64) -> numgpu_status {
    expm_form::<Complex64>("numgpu_zexpm_batched", h, m, A as *const Complex64, lda, strideA, E as *mut Complex64, lde, strideE, info, batch)
}
