#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract; the real-precision forms keep the casts that the
// complex forms need, so the four read alike.
#![allow(clippy::missing_safety_doc, clippy::unnecessary_cast)]
//! `numgpu_{s,d,c,z}potrf_batched`, `potrs_batched`, `posv_batched` (pointer-array and
//! `_strided` forms): convert the C arguments and call the family's Rust API.

use crate::core::uplo::UploArg;
use super::{posv, potrf, potrs};
use crate::core::batch::Batch;
use crate::core::error::numgpu_status;
use crate::core::scalar::{numgpu_complex_double, numgpu_complex_float};
use crate::core::{Handle, Uplo};
use crate::ffi::{boundary, deref_mut};
use crate::lapack::Blas;
use num_complex::{Complex32, Complex64};

#[allow(clippy::too_many_arguments)]
unsafe fn potrf_form<T: Blas>(name: &str, h: *mut Handle, uplo: i32, n: i64, a: Batch<*mut T>, lda: i64, info: *mut i32, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let uplo = Uplo::from_i32(uplo, "uplo")?;
        potrf(h, uplo, n, a, lda, info, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn potrs_form<T: Blas>(name: &str, h: *mut Handle, uplo: i32, n: i64, nrhs: i64, a: Batch<*const T>, lda: i64, b: Batch<*mut T>, ldb: i64, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let uplo = Uplo::from_i32(uplo, "uplo")?;
        potrs(h, uplo, n, nrhs, a, lda, b, ldb, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn posv_form<T: Blas>(name: &str, h: *mut Handle, uplo: i32, n: i64, nrhs: i64, a: Batch<*mut T>, lda: i64, b: Batch<*mut T>, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let uplo = Uplo::from_i32(uplo, "uplo")?;
        posv(h, uplo, n, nrhs, a, lda, b, ldb, info, batch)
    })
}

/// Batched Cholesky factorisation of single-precision symmetric positive definite matrices,
/// pointer-array form: for each i, `A[i] = L·Lᵀ` (uplo lower) or `A[i] = Uᵀ·U` (uplo
/// upper), the factor overwriting the triangle uplo names, as LAPACK `spotrf`.
///
/// - `h` [in]: handle.
/// - `uplo` [in]: `NUMGPU_UPLO_LOWER` or `NUMGPU_UPLO_UPPER`: the triangle read and
///   overwritten; the other triangle is neither read nor written (it may hold anything).
/// - `n` [in]: order of every matrix, >= 0.
/// - `A` [in,out]: array of `batch` pointers to distinct n × n matrices (column-major).
///   Distinct: the matrices a call writes are neither repeated nor any other matrix of the
///   call; equal pointers are rejected where they are cheap to see (entries of host pointer
///   arrays, strided base pointers), partial overlaps are not checked.
/// - `lda` [in]: >= max(1, n).
/// - `info` [out]: `batch` entries; 0, or k > 0 when the leading minor of order k of A[i]
///   is not positive definite: the pivot of step k (the Schur complement's diagonal entry,
///   before its square root) is <= 0 or NaN, as LAPACK tests it, or +Inf. Then the leading
///   (k−1) × (k−1) block of the factor is complete, and the rest of the triangle holds
///   intermediate values, as in LAPACK (whose blocked factorisation may leave the rest of
///   columns 1 … k−1 unfinished). A NaN or Inf anywhere in the triangle gives info > 0.
/// - `batch` [in]: number of matrices, >= 0.
///
/// All arrays (and the pointer array) are host memory, or all are device memory of the
/// handle's device (then the call is enqueued on the handle's stream and returns at once).
/// n = 0 or batch = 0 is success and touches nothing (`info` included). Any n: the CUDA
/// backend factors in registers (n <= 32) or in shared memory, leaving in place in global
/// memory the leading columns of a triangle too large for it (double beyond n = 240).
/// Results are bitwise reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, uplo out of range,
/// negative n or batch, lda too small, NULL array or host pointer-array entry, device memory
/// on the CPU backend, arrays in different spaces, an output aliasing another matrix of the
/// call); nothing is written then. `NOT_SUPPORTED` (extents beyond the address space; n or
/// lda beyond 2^31 − 1 on the CPU backend, LAPACK's integers), `ALLOC_FAILED`,
/// `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_spotrf_batched(h: *mut Handle, uplo: UploArg, n: i64, A: *const *mut f32, lda: i64, info: *mut i32, batch: i64) -> numgpu_status {
    potrf_form::<f32>("numgpu_spotrf_batched", h, uplo, n, Batch::Array(A as *const *mut f32), lda, info, batch)
}

/// Batched Cholesky factorisation, strided form: matrix i at `A + i·strideA` (a Fortran
/// `A(lda, n, batch)` array), otherwise as `numgpu_spotrf_batched`.
///
/// - `strideA` [in]: >= lda·n when batch > 1 (the matrices must not overlap), in elements.
///
/// Errors as the pointer-array form, plus `INVALID_VALUE` for strideA.
#[no_mangle]
pub unsafe extern "C" fn numgpu_spotrf_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, A: *mut f32, lda: i64, strideA: i64, info: *mut i32, batch: i64) -> numgpu_status {
    potrf_form::<f32>("numgpu_spotrf_batched_strided", h, uplo, n, Batch::Strided { ptr: A as *mut f32, stride: strideA }, lda, info, batch)
}

/// Batched solve with the Cholesky factors of `numgpu_spotrf_batched`, pointer-array form:
/// for each i, `A[i]·X = B[i]` with A[i] = L·Lᵀ (uplo lower) or Uᵀ·U (uplo upper), X
/// overwriting B[i], as LAPACK `spotrs` (the factors are used as given).
///
/// - `h` [in]: handle.
/// - `uplo` [in]: `NUMGPU_UPLO_LOWER` or `NUMGPU_UPLO_UPPER`: the triangle holding the
///   factor (the other one is not read).
/// - `n` [in]: order, >= 0. `nrhs` [in]: right-hand sides per matrix, >= 0.
/// - `A` [in]: array of `batch` pointers to the factors (n × n). `lda` [in]: >= max(1, n).
/// - `B` [in,out]: array of `batch` pointers to distinct n × nrhs matrices.
/// - `ldb` [in]: >= max(1, n).
/// - `batch` [in]: >= 0.
///
/// n, nrhs or batch = 0 is success with no work. Spaces and errors as the factorisation
/// (`INVALID_VALUE` for nrhs and ldb too).
#[no_mangle]
pub unsafe extern "C" fn numgpu_spotrs_batched(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const *const f32, lda: i64, B: *const *mut f32, ldb: i64, batch: i64) -> numgpu_status {
    potrs_form::<f32>("numgpu_spotrs_batched", h, uplo, n, nrhs, Batch::Array(A as *const *const f32), lda, Batch::Array(B as *const *mut f32), ldb, batch)
}

/// Batched Cholesky solve, strided form: A[i] at `A + i·strideA` (strideA 0: one
/// factorisation for the whole batch, >= lda·n otherwise), B[i] at `B + i·strideB`
/// (>= ldb·nrhs when batch > 1); otherwise as `numgpu_spotrs_batched`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_spotrs_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const f32, lda: i64, strideA: i64, B: *mut f32, ldb: i64, strideB: i64, batch: i64) -> numgpu_status {
    potrs_form::<f32>("numgpu_spotrs_batched_strided", h, uplo, n, nrhs, Batch::Strided { ptr: A as *const f32, stride: strideA }, lda, Batch::Strided { ptr: B as *mut f32, stride: strideB }, ldb, batch)
}

/// Batched solve of `A[i]·X = B[i]` for symmetric positive definite A[i] by Cholesky,
/// pointer-array form, as LAPACK `sposv`: the factorisation of `numgpu_spotrf_batched` (A
/// and info written as there), then the solve of `numgpu_spotrs_batched`, X overwriting
/// B[i]. Where `info[i] > 0`, B[i] is left unchanged. nrhs = 0 only factors.
///
/// Arguments as the two routines: `uplo`, `n`, `nrhs`, `A` [in,out], `lda`, `B` [in,out],
/// `ldb` (>= max(1, n)), `info` [out] (`batch` entries), `batch`. Spaces and errors as the
/// factorisation.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sposv_batched(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const *mut f32, lda: i64, B: *const *mut f32, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    posv_form::<f32>("numgpu_sposv_batched", h, uplo, n, nrhs, Batch::Array(A as *const *mut f32), lda, Batch::Array(B as *const *mut f32), ldb, info, batch)
}

/// Batched Cholesky solve of A[i]·X = B[i], strided form: A[i] at `A + i·strideA`
/// (>= lda·n when batch > 1), B[i] at `B + i·strideB` (>= ldb·nrhs when batch > 1);
/// otherwise as `numgpu_sposv_batched`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sposv_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *mut f32, lda: i64, strideA: i64, B: *mut f32, ldb: i64, strideB: i64, info: *mut i32, batch: i64) -> numgpu_status {
    posv_form::<f32>("numgpu_sposv_batched_strided", h, uplo, n, nrhs, Batch::Strided { ptr: A as *mut f32, stride: strideA }, lda, Batch::Strided { ptr: B as *mut f32, stride: strideB }, ldb, info, batch)
}

/// Batched Cholesky factorisation of double symmetric positive definite matrices, pointer-array
/// form: `numgpu_spotrf_batched` with `double` elements, as LAPACK `dpotrf`; the
/// same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dpotrf_batched(h: *mut Handle, uplo: UploArg, n: i64, A: *const *mut f64, lda: i64, info: *mut i32, batch: i64) -> numgpu_status {
    potrf_form::<f64>("numgpu_dpotrf_batched", h, uplo, n, Batch::Array(A as *const *mut f64), lda, info, batch)
}

/// Batched Cholesky factorisation of double symmetric matrices, strided form: as
/// `numgpu_spotrf_batched_strided` with `double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dpotrf_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, A: *mut f64, lda: i64, strideA: i64, info: *mut i32, batch: i64) -> numgpu_status {
    potrf_form::<f64>("numgpu_dpotrf_batched_strided", h, uplo, n, Batch::Strided { ptr: A as *mut f64, stride: strideA }, lda, info, batch)
}

/// Batched solve with Cholesky factors of double symmetric matrices, pointer-array form:
/// `numgpu_spotrs_batched` with `double` elements, as LAPACK `dpotrs`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dpotrs_batched(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const *const f64, lda: i64, B: *const *mut f64, ldb: i64, batch: i64) -> numgpu_status {
    potrs_form::<f64>("numgpu_dpotrs_batched", h, uplo, n, nrhs, Batch::Array(A as *const *const f64), lda, Batch::Array(B as *const *mut f64), ldb, batch)
}

/// Batched solve with Cholesky factors of double symmetric matrices, strided form: as
/// `numgpu_spotrs_batched_strided` with `double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dpotrs_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const f64, lda: i64, strideA: i64, B: *mut f64, ldb: i64, strideB: i64, batch: i64) -> numgpu_status {
    potrs_form::<f64>("numgpu_dpotrs_batched_strided", h, uplo, n, nrhs, Batch::Strided { ptr: A as *const f64, stride: strideA }, lda, Batch::Strided { ptr: B as *mut f64, stride: strideB }, ldb, batch)
}

/// Batched Cholesky solve of double symmetric positive definite systems, pointer-array form:
/// `numgpu_sposv_batched` with `double` elements, as LAPACK `dposv`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dposv_batched(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const *mut f64, lda: i64, B: *const *mut f64, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    posv_form::<f64>("numgpu_dposv_batched", h, uplo, n, nrhs, Batch::Array(A as *const *mut f64), lda, Batch::Array(B as *const *mut f64), ldb, info, batch)
}

/// Batched Cholesky solve of double symmetric positive definite systems, strided form: as
/// `numgpu_sposv_batched_strided` with `double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dposv_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *mut f64, lda: i64, strideA: i64, B: *mut f64, ldb: i64, strideB: i64, info: *mut i32, batch: i64) -> numgpu_status {
    posv_form::<f64>("numgpu_dposv_batched_strided", h, uplo, n, nrhs, Batch::Strided { ptr: A as *mut f64, stride: strideA }, lda, Batch::Strided { ptr: B as *mut f64, stride: strideB }, ldb, info, batch)
}

/// Batched Cholesky factorisation of complex float Hermitian positive definite matrices, pointer-array
/// form: `numgpu_spotrf_batched` with `numgpu_complex_float` elements, as LAPACK `cpotrf` (A = L·Lᴴ or Uᴴ·U, Hermitian; the imaginary parts of the diagonal are not read and the factor's diagonal is real); the
/// same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cpotrf_batched(h: *mut Handle, uplo: UploArg, n: i64, A: *const *mut numgpu_complex_float, lda: i64, info: *mut i32, batch: i64) -> numgpu_status {
    potrf_form::<Complex32>("numgpu_cpotrf_batched", h, uplo, n, Batch::Array(A as *const *mut Complex32), lda, info, batch)
}

/// Batched Cholesky factorisation of complex float Hermitian matrices, strided form: as
/// `numgpu_spotrf_batched_strided` with `numgpu_complex_float` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cpotrf_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, A: *mut numgpu_complex_float, lda: i64, strideA: i64, info: *mut i32, batch: i64) -> numgpu_status {
    potrf_form::<Complex32>("numgpu_cpotrf_batched_strided", h, uplo, n, Batch::Strided { ptr: A as *mut Complex32, stride: strideA }, lda, info, batch)
}

/// Batched solve with Cholesky factors of complex float Hermitian matrices, pointer-array form:
/// `numgpu_spotrs_batched` with `numgpu_complex_float` elements, as LAPACK `cpotrs`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cpotrs_batched(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const *const numgpu_complex_float, lda: i64, B: *const *mut numgpu_complex_float, ldb: i64, batch: i64) -> numgpu_status {
    potrs_form::<Complex32>("numgpu_cpotrs_batched", h, uplo, n, nrhs, Batch::Array(A as *const *const Complex32), lda, Batch::Array(B as *const *mut Complex32), ldb, batch)
}

/// Batched solve with Cholesky factors of complex float Hermitian matrices, strided form: as
/// `numgpu_spotrs_batched_strided` with `numgpu_complex_float` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cpotrs_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const numgpu_complex_float, lda: i64, strideA: i64, B: *mut numgpu_complex_float, ldb: i64, strideB: i64, batch: i64) -> numgpu_status {
    potrs_form::<Complex32>("numgpu_cpotrs_batched_strided", h, uplo, n, nrhs, Batch::Strided { ptr: A as *const Complex32, stride: strideA }, lda, Batch::Strided { ptr: B as *mut Complex32, stride: strideB }, ldb, batch)
}

/// Batched Cholesky solve of complex float Hermitian positive definite systems, pointer-array form:
/// `numgpu_sposv_batched` with `numgpu_complex_float` elements, as LAPACK `cposv`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cposv_batched(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const *mut numgpu_complex_float, lda: i64, B: *const *mut numgpu_complex_float, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    posv_form::<Complex32>("numgpu_cposv_batched", h, uplo, n, nrhs, Batch::Array(A as *const *mut Complex32), lda, Batch::Array(B as *const *mut Complex32), ldb, info, batch)
}

/// Batched Cholesky solve of complex float Hermitian positive definite systems, strided form: as
/// `numgpu_sposv_batched_strided` with `numgpu_complex_float` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cposv_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *mut numgpu_complex_float, lda: i64, strideA: i64, B: *mut numgpu_complex_float, ldb: i64, strideB: i64, info: *mut i32, batch: i64) -> numgpu_status {
    posv_form::<Complex32>("numgpu_cposv_batched_strided", h, uplo, n, nrhs, Batch::Strided { ptr: A as *mut Complex32, stride: strideA }, lda, Batch::Strided { ptr: B as *mut Complex32, stride: strideB }, ldb, info, batch)
}

/// Batched Cholesky factorisation of complex double Hermitian positive definite matrices, pointer-array
/// form: `numgpu_spotrf_batched` with `numgpu_complex_double` elements, as LAPACK `zpotrf` (A = L·Lᴴ or Uᴴ·U, Hermitian; the imaginary parts of the diagonal are not read and the factor's diagonal is real); the
/// same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zpotrf_batched(h: *mut Handle, uplo: UploArg, n: i64, A: *const *mut numgpu_complex_double, lda: i64, info: *mut i32, batch: i64) -> numgpu_status {
    potrf_form::<Complex64>("numgpu_zpotrf_batched", h, uplo, n, Batch::Array(A as *const *mut Complex64), lda, info, batch)
}

/// Batched Cholesky factorisation of complex double Hermitian matrices, strided form: as
/// `numgpu_spotrf_batched_strided` with `numgpu_complex_double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zpotrf_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, A: *mut numgpu_complex_double, lda: i64, strideA: i64, info: *mut i32, batch: i64) -> numgpu_status {
    potrf_form::<Complex64>("numgpu_zpotrf_batched_strided", h, uplo, n, Batch::Strided { ptr: A as *mut Complex64, stride: strideA }, lda, info, batch)
}

/// Batched solve with Cholesky factors of complex double Hermitian matrices, pointer-array form:
/// `numgpu_spotrs_batched` with `numgpu_complex_double` elements, as LAPACK `zpotrs`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zpotrs_batched(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const *const numgpu_complex_double, lda: i64, B: *const *mut numgpu_complex_double, ldb: i64, batch: i64) -> numgpu_status {
    potrs_form::<Complex64>("numgpu_zpotrs_batched", h, uplo, n, nrhs, Batch::Array(A as *const *const Complex64), lda, Batch::Array(B as *const *mut Complex64), ldb, batch)
}

/// Batched solve with Cholesky factors of complex double Hermitian matrices, strided form: as
/// `numgpu_spotrs_batched_strided` with `numgpu_complex_double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zpotrs_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const numgpu_complex_double, lda: i64, strideA: i64, B: *mut numgpu_complex_double, ldb: i64, strideB: i64, batch: i64) -> numgpu_status {
    potrs_form::<Complex64>("numgpu_zpotrs_batched_strided", h, uplo, n, nrhs, Batch::Strided { ptr: A as *const Complex64, stride: strideA }, lda, Batch::Strided { ptr: B as *mut Complex64, stride: strideB }, ldb, batch)
}

/// Batched Cholesky solve of complex double Hermitian positive definite systems, pointer-array form:
/// `numgpu_sposv_batched` with `numgpu_complex_double` elements, as LAPACK `zposv`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zposv_batched(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *const *mut numgpu_complex_double, lda: i64, B: *const *mut numgpu_complex_double, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    posv_form::<Complex64>("numgpu_zposv_batched", h, uplo, n, nrhs, Batch::Array(A as *const *mut Complex64), lda, Batch::Array(B as *const *mut Complex64), ldb, info, batch)
}

/// Batched Cholesky solve of complex double Hermitian positive definite systems, strided form: as
/// `numgpu_sposv_batched_strided` with `numgpu_complex_double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zposv_batched_strided(h: *mut Handle, uplo: UploArg, n: i64, nrhs: i64, A: *mut numgpu_complex_double, lda: i64, strideA: i64, B: *mut numgpu_complex_double, ldb: i64, strideB: i64, info: *mut i32, batch: i64) -> numgpu_status {
    posv_form::<Complex64>("numgpu_zposv_batched_strided", h, uplo, n, nrhs, Batch::Strided { ptr: A as *mut Complex64, stride: strideA }, lda, Batch::Strided { ptr: B as *mut Complex64, stride: strideB }, ldb, info, batch)
}
