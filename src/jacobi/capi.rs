#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract; the real-precision forms keep the casts that the
// complex forms need, so the four read alike.
#![allow(clippy::missing_safety_doc, clippy::unnecessary_cast)]
//! `numgpu_{s,d}syevj_batched`, `numgpu_{c,z}heevj_batched` and
//! `numgpu_{s,d,c,z}gesvdj_batched`: convert the C arguments and call the family's Rust API.

use crate::core::uplo::UploArg;
use super::JacobiJobArg;
use super::{gesvdj_batched, numgpu_jacobi_params, syevj_batched};
use crate::core::error::numgpu_status;
use crate::core::scalar::{numgpu_complex_double, numgpu_complex_float};
use crate::core::{Handle, Scalar};
use crate::ffi::{boundary, deref_mut};
use num_complex::{Complex32, Complex64};

#[allow(clippy::too_many_arguments)]
unsafe fn syevj_form<T: Scalar>(
    name: &str,
    h: *mut Handle,
    jobz: i32,
    uplo: i32,
    n: i64,
    a: *mut T,
    lda: i64,
    stride_a: i64,
    w: *mut T::Real,
    stride_w: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut T::Real,
    batch: i64,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        syevj_batched(h, jobz, uplo, n, a, lda, stride_a, w, stride_w, params, info, sweeps, residual, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn gesvdj_form<T: Scalar>(
    name: &str,
    h: *mut Handle,
    jobu: i32,
    jobv: i32,
    m: i64,
    n: i64,
    a: *const T,
    lda: i64,
    stride_a: i64,
    s: *mut T::Real,
    stride_s: i64,
    u: *mut T,
    ldu: i64,
    stride_u: i64,
    v: *mut T,
    ldv: i64,
    stride_v: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut T::Real,
    batch: i64,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        gesvdj_batched(h, jobu, jobv, m, n, a, lda, stride_a, s, stride_s, u, ldu, stride_u, v, ldv, stride_v, params, info, sweeps, residual, batch)
    })
}

/// Computes the eigenvalues, and optionally the eigenvectors, of a batch of real symmetric
/// matrices of single-precision numbers by cyclic Jacobi: for i = 0 … batch − 1, A_i = the n × n
/// matrix at `A + i·strideA` (leading dimension lda), of which only the triangle `uplo` is
/// read, = Z_i·diag(w_i)·Z_iᵀ. Each sweep runs over all pairs (p, q) in round-robin order
/// (n/2 disjoint pairs at a time); a pair is rotated only when |a_pq| > tol·√|a_pp|·√|a_qq|
/// (the relative test of Demmel and Veselić: graded matrices keep their small eigenvalues
/// to high relative accuracy, which LAPACK's tridiagonal QR-based solvers do not), and a
/// matrix has converged after a sweep that rotated nothing. On CUDA: a warp per matrix for
/// n <= 32, a block per matrix beyond, with the matrix in shared memory while it fits.
///
/// - `h` [in]: handle.
/// - `jobz` [in]: `NUMGPU_JACOBI_NOVEC` (eigenvalues only; A is not written) or
///   `NUMGPU_JACOBI_VEC` (the eigenvectors overwrite A_i, column j for w_i[j]).
/// - `uplo` [in]: `NUMGPU_UPLO_LOWER` or `NUMGPU_UPLO_UPPER`: the triangle read.
/// - `n` [in]: order of every A_i, 0 … 4096.
/// - `A` [in, out]: the matrices.
/// - `lda` [in]: leading dimension, >= max(1, n).
/// - `strideA` [in]: elements between consecutive A_i, >= lda·n when batch > 1.
/// - `w` [out]: n entries per matrix at `w + i·strideW`: the eigenvalues, ascending (unless
///   `params->unsorted`).
/// - `strideW` [in]: >= n when batch > 1.
/// - `params` [in]: tolerance, sweep limit and sorting (`numgpu_jacobi_params`); NULL or a
///   zero-initialised struct selects the defaults (tol = ε = 2^−23, 100 sweeps, sorted).
///   Host memory.
/// - `info` [out]: `batch` entries: 0 converged; 1 still rotating after max_sweeps sweeps (w
///   and Z are the last iterate's; Z is orthogonal to rounding); 2 A_i holds a NaN or an Inf
///   (or one arose): w_i, and Z_i when jobz = VEC, are NaN.
/// - `sweeps` [out]: `batch` entries: the sweeps performed (the last one rotated nothing when
///   info = 0; 0 when the input was not finite).
/// - `residual` [out]: `batch` entries: the largest |a_pq|/(√|a_pp|·√|a_qq|) of the last sweep
///   (<= tol when info = 0; NaN when info = 2).
/// - `batch` [in]: number of matrices, >= 0.
///
/// Eigenvalues have relative errors of a few ε times the condition of the scaled matrix
/// D^−1·A·D^−1 (D = diag(√|a_jj|)) for positive definite A, and errors of a few ε·‖A‖ in
/// general; sweep counts are those of the CPU backend except where rounding decides a
/// borderline test. n = 0 or batch = 0 is success and touches nothing. All arrays are host
/// memory, or all are device memory of the handle's device (then the call is enqueued on the
/// handle's stream and returns at once).
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or array, jobz, uplo
/// out of range, negative n or batch, lda or a stride too small, params->tol negative or not
/// finite, params->max_sweeps negative, params->unsorted not 0 or 1, device memory on the CPU
/// backend, arrays in different spaces); nothing is written then. `NOT_SUPPORTED` (n above
/// 4096, extents beyond the address space), `ALLOC_FAILED`, `COMPILE_FAILED`,
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_ssyevj_batched(
    h: *mut Handle,
    jobz: JacobiJobArg,
    uplo: UploArg,
    n: i64,
    A: *mut f32,
    lda: i64,
    strideA: i64,
    w: *mut f32,
    strideW: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut f32,
    batch: i64,
) -> numgpu_status {
    syevj_form::<f32>("numgpu_ssyevj_batched", h, jobz, uplo, n, A, lda, strideA, w, strideW, params, info, sweeps, residual, batch)
}

/// Eigenvalues and eigenvectors of a batch of real symmetric matrices of double-precision
/// numbers by cyclic Jacobi: `numgpu_ssyevj_batched` with `double` elements (default tol
/// 2^−52); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dsyevj_batched(
    h: *mut Handle,
    jobz: JacobiJobArg,
    uplo: UploArg,
    n: i64,
    A: *mut f64,
    lda: i64,
    strideA: i64,
    w: *mut f64,
    strideW: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut f64,
    batch: i64,
) -> numgpu_status {
    syevj_form::<f64>("numgpu_dsyevj_batched", h, jobz, uplo, n, A, lda, strideA, w, strideW, params, info, sweeps, residual, batch)
}

/// Eigenvalues and eigenvectors of a batch of complex Hermitian matrices of single-precision
/// numbers by cyclic Jacobi: `numgpu_ssyevj_batched` with `numgpu_complex_float` elements
/// (A_i = Z_i·diag(w_i)·Z_iᴴ; the imaginary parts of the diagonal are not read; w, residual
/// `float`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cheevj_batched(
    h: *mut Handle,
    jobz: JacobiJobArg,
    uplo: UploArg,
    n: i64,
    A: *mut numgpu_complex_float,
    lda: i64,
    strideA: i64,
    w: *mut f32,
    strideW: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut f32,
    batch: i64,
) -> numgpu_status {
    syevj_form::<Complex32>("numgpu_cheevj_batched", h, jobz, uplo, n, A as *mut Complex32, lda, strideA, w, strideW, params, info, sweeps, residual, batch)
}

/// Eigenvalues and eigenvectors of a batch of complex Hermitian matrices of double-precision
/// numbers by cyclic Jacobi: `numgpu_cheevj_batched` with `numgpu_complex_double` elements
/// (w, residual `double`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zheevj_batched(
    h: *mut Handle,
    jobz: JacobiJobArg,
    uplo: UploArg,
    n: i64,
    A: *mut numgpu_complex_double,
    lda: i64,
    strideA: i64,
    w: *mut f64,
    strideW: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut f64,
    batch: i64,
) -> numgpu_status {
    syevj_form::<Complex64>("numgpu_zheevj_batched", h, jobz, uplo, n, A as *mut Complex64, lda, strideA, w, strideW, params, info, sweeps, residual, batch)
}

/// Computes the singular values, and optionally the left and right singular vectors, of a
/// batch of real m × n matrices of single-precision numbers by one-sided (Hestenes) Jacobi:
/// for i = 0 … batch − 1, A_i (at `A + i·strideA`, leading dimension lda) = U_i·diag(s_i)·V_iᵀ,
/// economy size: k = min(m, n) singular values, U_i m × k and V_i n × k with orthonormal
/// columns. The columns of A_i (m >= n) or of A_iᵀ (m < n) are rotated in round-robin order
/// until every pair is orthogonal to the tolerance: a pair is rotated only when
/// |a_pᵀa_q| > tol·‖a_p‖·‖a_q‖, which keeps the small singular values of graded matrices
/// (A = B·D, B well conditioned) to high relative accuracy, as LAPACK's bidiagonal QR-based
/// `sgesvd` does not. A_i is only read. On CUDA: a warp per matrix for min(m, n) <= 32 and
/// max(m, n) <= 128, else a block per matrix; no limit of m or n beyond 4096 columns rotated.
///
/// - `h` [in]: handle.
/// - `jobu`, `jobv` [in]: `NUMGPU_JACOBI_NOVEC` or `NUMGPU_JACOBI_VEC`: whether U (V) is
///   computed.
/// - `m`, `n` [in]: rows and columns of every A_i, >= 0, min(m, n) <= 4096.
/// - `A` [in]: the matrices.
/// - `lda` [in]: >= max(1, m).
/// - `strideA` [in]: elements between consecutive A_i: 0 (one matrix for the whole batch) or
///   >= lda·n, when batch > 1.
/// - `S` [out]: k entries per matrix at `S + i·strideS`: the singular values, descending
///   (unless `params->unsorted`).
/// - `strideS` [in]: >= k when batch > 1.
/// - `U` [out]: m × k per matrix at `U + i·strideU`, leading dimension ldu: the left singular
///   vectors, column j for S_i[j]; not referenced (may be NULL) when jobu = NOVEC. For a zero
///   singular value, a unit vector orthogonal to the other columns.
/// - `ldu` [in]: >= max(1, m) when jobu = VEC.
/// - `strideU` [in]: >= ldu·k when batch > 1 and jobu = VEC.
/// - `V` [out]: n × k per matrix at `V + i·strideV`, leading dimension ldv: the right
///   singular vectors (V itself, not Vᵀ); not referenced (may be NULL) when jobv = NOVEC.
/// - `ldv` [in]: >= max(1, n) when jobv = VEC.
/// - `strideV` [in]: >= ldv·k when batch > 1 and jobv = VEC.
/// - `params` [in]: as for `numgpu_ssyevj_batched`, but the default tol is √max(m, n)·ε
///   (LAPACK `sgesvj`'s: the computed cosine of two orthogonal columns is that large).
/// - `info` [out]: `batch` entries: 0 converged; 1 still rotating after max_sweeps sweeps;
///   2 A_i holds a NaN or an Inf, or one arose (entries above about √(overflow/max(m, n))
///   overflow the column norms): S_i, U_i, V_i are NaN.
/// - `sweeps` [out]: `batch` entries: the sweeps performed.
/// - `residual` [out]: `batch` entries: the largest |a_pᵀa_q|/(‖a_p‖·‖a_q‖) of the last
///   sweep (<= tol when info = 0; NaN when info = 2).
/// - `batch` [in]: number of matrices, >= 0.
///
/// m, n or batch = 0 is success and touches nothing. Spaces as `numgpu_ssyevj_batched`.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (as `numgpu_ssyevj_batched`, and
/// jobu, jobv out of range, NULL U or V when wanted, ldu, ldv, strides too small);
/// `NOT_SUPPORTED` (min(m, n) above 4096, max(m, n) above 2^31 − 1, extents beyond the
/// address space), `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgesvdj_batched(
    h: *mut Handle,
    jobu: JacobiJobArg,
    jobv: JacobiJobArg,
    m: i64,
    n: i64,
    A: *const f32,
    lda: i64,
    strideA: i64,
    S: *mut f32,
    strideS: i64,
    U: *mut f32,
    ldu: i64,
    strideU: i64,
    V: *mut f32,
    ldv: i64,
    strideV: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut f32,
    batch: i64,
) -> numgpu_status {
    gesvdj_form::<f32>("numgpu_sgesvdj_batched", h, jobu, jobv, m, n, A as *const f32, lda, strideA, S, strideS, U as *mut f32, ldu, strideU, V as *mut f32, ldv, strideV, params, info, sweeps, residual, batch)
}

/// Singular value decompositions of a batch of real matrices of double-precision numbers by
/// one-sided Jacobi: `numgpu_sgesvdj_batched` with `double` elements; the same arguments,
/// semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgesvdj_batched(
    h: *mut Handle,
    jobu: JacobiJobArg,
    jobv: JacobiJobArg,
    m: i64,
    n: i64,
    A: *const f64,
    lda: i64,
    strideA: i64,
    S: *mut f64,
    strideS: i64,
    U: *mut f64,
    ldu: i64,
    strideU: i64,
    V: *mut f64,
    ldv: i64,
    strideV: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut f64,
    batch: i64,
) -> numgpu_status {
    gesvdj_form::<f64>("numgpu_dgesvdj_batched", h, jobu, jobv, m, n, A as *const f64, lda, strideA, S, strideS, U as *mut f64, ldu, strideU, V as *mut f64, ldv, strideV, params, info, sweeps, residual, batch)
}

/// Singular value decompositions of a batch of complex matrices of single-precision numbers
/// by one-sided Jacobi: `numgpu_sgesvdj_batched` with `numgpu_complex_float` elements
/// (A_i = U_i·diag(s_i)·V_iᴴ; S, residual `float`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgesvdj_batched(
    h: *mut Handle,
    jobu: JacobiJobArg,
    jobv: JacobiJobArg,
    m: i64,
    n: i64,
    A: *const numgpu_complex_float,
    lda: i64,
    strideA: i64,
    S: *mut f32,
    strideS: i64,
    U: *mut numgpu_complex_float,
    ldu: i64,
    strideU: i64,
    V: *mut numgpu_complex_float,
    ldv: i64,
    strideV: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut f32,
    batch: i64,
) -> numgpu_status {
    gesvdj_form::<Complex32>("numgpu_cgesvdj_batched", h, jobu, jobv, m, n, A as *const Complex32, lda, strideA, S, strideS, U as *mut Complex32, ldu, strideU, V as *mut Complex32, ldv, strideV, params, info, sweeps, residual, batch)
}

/// Singular value decompositions of a batch of complex matrices of double-precision numbers
/// by one-sided Jacobi: `numgpu_cgesvdj_batched` with `numgpu_complex_double` elements (S,
/// residual `double`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgesvdj_batched(
    h: *mut Handle,
    jobu: JacobiJobArg,
    jobv: JacobiJobArg,
    m: i64,
    n: i64,
    A: *const numgpu_complex_double,
    lda: i64,
    strideA: i64,
    S: *mut f64,
    strideS: i64,
    U: *mut numgpu_complex_double,
    ldu: i64,
    strideU: i64,
    V: *mut numgpu_complex_double,
    ldv: i64,
    strideV: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut f64,
    batch: i64,
) -> numgpu_status {
    gesvdj_form::<Complex64>("numgpu_zgesvdj_batched", h, jobu, jobv, m, n, A as *const Complex64, lda, strideA, S, strideS, U as *mut Complex64, ldu, strideU, V as *mut Complex64, ldv, strideV, params, info, sweeps, residual, batch)
}
