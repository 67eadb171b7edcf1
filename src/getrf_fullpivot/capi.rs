#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract; the real-precision forms keep the casts that the
// complex forms need, so the four read alike.
#![allow(clippy::missing_safety_doc, clippy::unnecessary_cast)]
//! `numgpu_{s,d,c,z}getrf_fullpivot_batched`, `getrs_fullpivot_batched`,
//! `gesv_fullpivot_batched` (pointer-array and `_strided` forms) and
//! `numgpu_{s,d,c,z}gesc2_batched_strided`: convert the C arguments and call the family's
//! Rust API.

use crate::core::op::OpArg;
use super::FullpivotModeArg;
use super::{gesc2, gesv, getrf, getrs, Mode};
use crate::core::batch::Batch;
use crate::core::error::numgpu_status;
use crate::core::scalar::{numgpu_complex_double, numgpu_complex_float};
use crate::core::{Handle, Op};
use crate::ffi::{boundary, deref_mut};
use crate::lapack::Blas;
use num_complex::{Complex32, Complex64};

#[allow(clippy::too_many_arguments)]
unsafe fn getrf_form<T: Blas>(name: &str, h: *mut Handle, mode: i32, n: i64, a: Batch<*mut T>, lda: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let mode = Mode::from_i32(mode)?;
        getrf(h, mode, n, a, lda, ipiv, jpiv, info, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn getrs_form<T: Blas>(name: &str, h: *mut Handle, trans: i32, n: i64, nrhs: i64, a: Batch<*const T>, lda: i64, ipiv: *const i32, jpiv: *const i32, b: Batch<*mut T>, ldb: i64, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let trans = Op::from_i32(trans, "trans")?;
        getrs(h, trans, n, nrhs, a, lda, ipiv, jpiv, b, ldb, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn gesv_form<T: Blas>(name: &str, h: *mut Handle, n: i64, nrhs: i64, a: Batch<*mut T>, lda: i64, ipiv: *mut i32, jpiv: *mut i32, b: Batch<*mut T>, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        gesv(h, n, nrhs, a, lda, ipiv, jpiv, b, ldb, info, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn gesc2_form<T: Blas>(name: &str, h: *mut Handle, n: i64, a: *const T, lda: i64, stride_a: i64, rhs: *mut T, stride_rhs: i64, ipiv: *const i32, jpiv: *const i32, scale: *mut T::Real, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        gesc2(h, n, a, lda, stride_a, rhs, stride_rhs, ipiv, jpiv, scale, batch)
    })
}

/// Batched LU factorisation with complete pivoting of single-precision matrices,
/// pointer-array form: for each i, `A[i] = P·L·U·Q` as LAPACK `sgetc2`, L (unit lower) and U
/// overwriting A[i].
///
/// - `h` [in]: handle.
/// - `mode` [in]: `NUMGPU_FULLPIVOT_GETC2` or `NUMGPU_FULLPIVOT_STRICT`.
/// - `n` [in]: order of every matrix, >= 0.
/// - `A` [in,out]: array of `batch` pointers to distinct n × n matrices (column-major).
///   Distinct: the matrices a call writes are neither repeated nor any other matrix of the
///   call; equal pointers are rejected where they are cheap to see (entries of host pointer
///   arrays, strided base pointers), partial overlaps are not checked.
/// - `lda` [in]: >= max(1, n).
/// - `ipiv` [out]: `n·batch` entries; matrix i's row interchanges at `ipiv + i·n`, 1-based:
///   row k was interchanged with row `ipiv[i·n + k−1]` (k = 1 … n, `ipiv(n) = n`).
/// - `jpiv` [out]: likewise, the column interchanges.
/// - `info` [out]: `batch` entries; 0, or k > 0 as follows, in this order of precedence:
///   the pivot of step k is not finite (NaN or Inf in the matrix: NaN and Inf rank above
///   every finite value in the pivot search, so k is the first step whose trailing block
///   holds one; the factors are then non-finite); in GETC2 mode, k is the last step whose
///   pivot was smaller than SMIN = max(eps·max|A|, smlnum) and was replaced by SMIN (n = 1:
///   smaller than smlnum), as `sgetc2`; in STRICT mode, the trailing block of step k was
///   exactly zero (rank k−1): the factorisation stopped there, the remaining pivots are the
///   identity and the factors stay as computed so far.
/// - `batch` [in]: number of matrices, >= 0.
///
/// Pivot choice as LAPACK's scan: the element of largest |a| in the trailing block; among
/// equal ones the largest row index, then the largest column index. On finite matrices the
/// pivots equal `sgetc2`'s. All arrays (and the pointer array) are host memory, or all are
/// device memory of the handle's device (then the call is enqueued on the handle's stream and
/// returns at once). n = 0 or batch = 0 is success and touches nothing (`info` included).
/// Results are bitwise reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, negative n or batch,
/// lda too small, NULL array or host pointer-array entry, mode out of range, device memory on
/// the CPU backend, arrays in different spaces, an output aliasing
/// another matrix of the call); nothing is written then. `NOT_SUPPORTED`
/// (extents beyond the address space; n > 46340 on CUDA), `ALLOC_FAILED`, `COMPILE_FAILED`,
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgetrf_fullpivot_batched(h: *mut Handle, mode: FullpivotModeArg, n: i64, A: *const *mut f32, lda: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    getrf_form::<f32>("numgpu_sgetrf_fullpivot_batched", h, mode, n, Batch::Array(A as *const *mut f32), lda, ipiv, jpiv, info, batch)
}

/// Batched LU with complete pivoting, strided form: matrix i at `A + i·strideA` (a Fortran
/// `A(lda, n, batch)` array), otherwise as `numgpu_sgetrf_fullpivot_batched`.
///
/// - `strideA` [in]: >= lda·n when batch > 1 (the matrices must not overlap), in elements.
///
/// Errors as the pointer-array form, plus `INVALID_VALUE` for strideA.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgetrf_fullpivot_batched_strided(h: *mut Handle, mode: FullpivotModeArg, n: i64, A: *mut f32, lda: i64, strideA: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    getrf_form::<f32>("numgpu_sgetrf_fullpivot_batched_strided", h, mode, n, Batch::Strided { ptr: A as *mut f32, stride: strideA }, lda, ipiv, jpiv, info, batch)
}

/// Batched solve with the factors of `numgpu_sgetrf_fullpivot_batched`, pointer-array
/// form: for each i, `op(A[i])·X = B[i]`, X overwriting B[i]. trans N applies the row
/// interchanges, solves with L (unit) and U and applies the column interchanges in reverse;
/// T (and C, the same for real types) the transposed chain. A perturbed GETC2 factorisation
/// solves the perturbed system; use `numgpu_sgesc2_batched_strided` for LAPACK's scaled solve.
///
/// - `h` [in]: handle.
/// - `trans` [in]: `NUMGPU_OP_N`, `NUMGPU_OP_T` or `NUMGPU_OP_C`.
/// - `n` [in]: order, >= 0. `nrhs` [in]: right-hand sides per matrix, >= 0.
/// - `A` [in]: array of `batch` pointers to the factors (n × n). `lda` [in]: >= max(1, n).
/// - `ipiv`, `jpiv` [in]: the interchanges, `n·batch` entries each, as getrf wrote them. On
///   host arrays each entry k must lie in [k, n] (else `INVALID_VALUE`); device arrays are
///   not checked, and an entry outside [1, n] there is treated as no interchange.
/// - `B` [in,out]: array of `batch` pointers to distinct n × nrhs matrices.
/// - `ldb` [in]: >= max(1, n).
/// - `batch` [in]: >= 0.
///
/// n, nrhs or batch = 0 is success with no work. Spaces and errors as the factorisation.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgetrs_fullpivot_batched(h: *mut Handle, trans: OpArg, n: i64, nrhs: i64, A: *const *const f32, lda: i64, ipiv: *const i32, jpiv: *const i32, B: *const *mut f32, ldb: i64, batch: i64) -> numgpu_status {
    getrs_form::<f32>("numgpu_sgetrs_fullpivot_batched", h, trans, n, nrhs, Batch::Array(A as *const *const f32), lda, ipiv, jpiv, Batch::Array(B as *const *mut f32), ldb, batch)
}

/// Batched solve with complete-pivoting factors, strided form: A[i] at `A + i·strideA`
/// (strideA 0: one factorisation for the whole batch, >= lda·n otherwise), B[i] at
/// `B + i·strideB` (>= ldb·nrhs); otherwise as `numgpu_sgetrs_fullpivot_batched`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgetrs_fullpivot_batched_strided(h: *mut Handle, trans: OpArg, n: i64, nrhs: i64, A: *const f32, lda: i64, strideA: i64, ipiv: *const i32, jpiv: *const i32, B: *mut f32, ldb: i64, strideB: i64, batch: i64) -> numgpu_status {
    getrs_form::<f32>("numgpu_sgetrs_fullpivot_batched_strided", h, trans, n, nrhs, Batch::Strided { ptr: A as *const f32, stride: strideA }, lda, ipiv, jpiv, Batch::Strided { ptr: B as *mut f32, stride: strideB }, ldb, batch)
}

/// Batched solve of `A[i]·X = B[i]` by LU with complete pivoting, pointer-array form: the
/// factorisation of `numgpu_sgetrf_fullpivot_batched` in STRICT mode (A, ipiv, jpiv, info
/// written as there), then the solve of `numgpu_sgetrs_fullpivot_batched` (trans N), X
/// overwriting B[i]. Where `info[i] > 0` (exactly singular, or a non-finite pivot), B[i] is
/// left unchanged. nrhs = 0 only factors.
///
/// Arguments as the two routines: `n`, `nrhs`, `A`, `lda`, `ipiv` [out], `jpiv` [out], `B`
/// [in,out], `ldb` (>= max(1, n)), `info` [out] (`batch` entries), `batch`. Spaces and errors
/// as the factorisation.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgesv_fullpivot_batched(h: *mut Handle, n: i64, nrhs: i64, A: *const *mut f32, lda: i64, ipiv: *mut i32, jpiv: *mut i32, B: *const *mut f32, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    gesv_form::<f32>("numgpu_sgesv_fullpivot_batched", h, n, nrhs, Batch::Array(A as *const *mut f32), lda, ipiv, jpiv, Batch::Array(B as *const *mut f32), ldb, info, batch)
}

/// Batched solve by LU with complete pivoting, strided form: A[i] at `A + i·strideA`
/// (>= lda·n), B[i] at `B + i·strideB` (>= ldb·nrhs); otherwise as
/// `numgpu_sgesv_fullpivot_batched`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgesv_fullpivot_batched_strided(h: *mut Handle, n: i64, nrhs: i64, A: *mut f32, lda: i64, strideA: i64, ipiv: *mut i32, jpiv: *mut i32, B: *mut f32, ldb: i64, strideB: i64, info: *mut i32, batch: i64) -> numgpu_status {
    gesv_form::<f32>("numgpu_sgesv_fullpivot_batched_strided", h, n, nrhs, Batch::Strided { ptr: A as *mut f32, stride: strideA }, lda, ipiv, jpiv, Batch::Strided { ptr: B as *mut f32, stride: strideB }, ldb, info, batch)
}

/// LAPACK `sgesc2` for a batch: for each i, solves `A_i·x = scale_i·rhs_i` with the factors
/// of `numgpu_sgetrf_fullpivot_batched` (mode GETC2, as `sgetc2` makes them), x overwriting
/// rhs_i, step for step as `sgesc2` (scale_i <= 1 keeps x from overflowing).
///
/// - `h` [in]: handle. `n` [in]: order, >= 0.
/// - `A` [in]: the factors, matrix i at `A + i·strideA`. `lda` [in]: >= max(1, n).
/// - `strideA` [in]: 0 (one factorisation for all) or >= lda·n.
/// - `rhs` [in,out]: vector i (n entries) at `rhs + i·strideRhs`.
/// - `strideRhs` [in]: >= n when batch > 1.
/// - `ipiv`, `jpiv` [in]: `n·batch` entries each, as for `numgpu_sgetrs_fullpivot_batched`.
/// - `scale` [out]: `batch` entries, the scale factor of each solve (real).
/// - `batch` [in]: >= 0.
///
/// Spaces and errors as the factorisation.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgesc2_batched_strided(h: *mut Handle, n: i64, A: *const f32, lda: i64, strideA: i64, rhs: *mut f32, strideRhs: i64, ipiv: *const i32, jpiv: *const i32, scale: *mut f32, batch: i64) -> numgpu_status {
    gesc2_form::<f32>("numgpu_sgesc2_batched_strided", h, n, A as *const f32, lda, strideA, rhs as *mut f32, strideRhs, ipiv, jpiv, scale, batch)
}

/// Batched LU factorisation with complete pivoting of double matrices, pointer-array form:
/// `numgpu_sgetrf_fullpivot_batched` with `double` elements (as LAPACK `dgetc2`); the
/// same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgetrf_fullpivot_batched(h: *mut Handle, mode: FullpivotModeArg, n: i64, A: *const *mut f64, lda: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    getrf_form::<f64>("numgpu_dgetrf_fullpivot_batched", h, mode, n, Batch::Array(A as *const *mut f64), lda, ipiv, jpiv, info, batch)
}

/// Batched LU with complete pivoting of double matrices, strided form: as
/// `numgpu_sgetrf_fullpivot_batched_strided` with `double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgetrf_fullpivot_batched_strided(h: *mut Handle, mode: FullpivotModeArg, n: i64, A: *mut f64, lda: i64, strideA: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    getrf_form::<f64>("numgpu_dgetrf_fullpivot_batched_strided", h, mode, n, Batch::Strided { ptr: A as *mut f64, stride: strideA }, lda, ipiv, jpiv, info, batch)
}

/// Batched solve with complete-pivoting factors of double matrices, pointer-array form:
/// `numgpu_sgetrs_fullpivot_batched` with `double` elements; NUMGPU_OP_C solves with the
/// conjugate transpose.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgetrs_fullpivot_batched(h: *mut Handle, trans: OpArg, n: i64, nrhs: i64, A: *const *const f64, lda: i64, ipiv: *const i32, jpiv: *const i32, B: *const *mut f64, ldb: i64, batch: i64) -> numgpu_status {
    getrs_form::<f64>("numgpu_dgetrs_fullpivot_batched", h, trans, n, nrhs, Batch::Array(A as *const *const f64), lda, ipiv, jpiv, Batch::Array(B as *const *mut f64), ldb, batch)
}

/// Batched solve with complete-pivoting factors of double matrices, strided form: as
/// `numgpu_sgetrs_fullpivot_batched_strided` with `double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgetrs_fullpivot_batched_strided(h: *mut Handle, trans: OpArg, n: i64, nrhs: i64, A: *const f64, lda: i64, strideA: i64, ipiv: *const i32, jpiv: *const i32, B: *mut f64, ldb: i64, strideB: i64, batch: i64) -> numgpu_status {
    getrs_form::<f64>("numgpu_dgetrs_fullpivot_batched_strided", h, trans, n, nrhs, Batch::Strided { ptr: A as *const f64, stride: strideA }, lda, ipiv, jpiv, Batch::Strided { ptr: B as *mut f64, stride: strideB }, ldb, batch)
}

/// Batched solve by LU with complete pivoting of double matrices, pointer-array form:
/// `numgpu_sgesv_fullpivot_batched` with `double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgesv_fullpivot_batched(h: *mut Handle, n: i64, nrhs: i64, A: *const *mut f64, lda: i64, ipiv: *mut i32, jpiv: *mut i32, B: *const *mut f64, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    gesv_form::<f64>("numgpu_dgesv_fullpivot_batched", h, n, nrhs, Batch::Array(A as *const *mut f64), lda, ipiv, jpiv, Batch::Array(B as *const *mut f64), ldb, info, batch)
}

/// Batched solve by LU with complete pivoting of double matrices, strided form: as
/// `numgpu_sgesv_fullpivot_batched_strided` with `double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgesv_fullpivot_batched_strided(h: *mut Handle, n: i64, nrhs: i64, A: *mut f64, lda: i64, strideA: i64, ipiv: *mut i32, jpiv: *mut i32, B: *mut f64, ldb: i64, strideB: i64, info: *mut i32, batch: i64) -> numgpu_status {
    gesv_form::<f64>("numgpu_dgesv_fullpivot_batched_strided", h, n, nrhs, Batch::Strided { ptr: A as *mut f64, stride: strideA }, lda, ipiv, jpiv, Batch::Strided { ptr: B as *mut f64, stride: strideB }, ldb, info, batch)
}

/// LAPACK `dgesc2` for a batch of double factorisations: `numgpu_sgesc2_batched_strided` with
/// `double` elements and a `double` scale.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgesc2_batched_strided(h: *mut Handle, n: i64, A: *const f64, lda: i64, strideA: i64, rhs: *mut f64, strideRhs: i64, ipiv: *const i32, jpiv: *const i32, scale: *mut f64, batch: i64) -> numgpu_status {
    gesc2_form::<f64>("numgpu_dgesc2_batched_strided", h, n, A as *const f64, lda, strideA, rhs as *mut f64, strideRhs, ipiv, jpiv, scale, batch)
}

/// Batched LU factorisation with complete pivoting of complex float matrices, pointer-array form:
/// `numgpu_sgetrf_fullpivot_batched` with `numgpu_complex_float` elements (as LAPACK `cgetc2`, the modulus |a| in the pivot search); the
/// same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgetrf_fullpivot_batched(h: *mut Handle, mode: FullpivotModeArg, n: i64, A: *const *mut numgpu_complex_float, lda: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    getrf_form::<Complex32>("numgpu_cgetrf_fullpivot_batched", h, mode, n, Batch::Array(A as *const *mut Complex32), lda, ipiv, jpiv, info, batch)
}

/// Batched LU with complete pivoting of complex float matrices, strided form: as
/// `numgpu_sgetrf_fullpivot_batched_strided` with `numgpu_complex_float` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgetrf_fullpivot_batched_strided(h: *mut Handle, mode: FullpivotModeArg, n: i64, A: *mut numgpu_complex_float, lda: i64, strideA: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    getrf_form::<Complex32>("numgpu_cgetrf_fullpivot_batched_strided", h, mode, n, Batch::Strided { ptr: A as *mut Complex32, stride: strideA }, lda, ipiv, jpiv, info, batch)
}

/// Batched solve with complete-pivoting factors of complex float matrices, pointer-array form:
/// `numgpu_sgetrs_fullpivot_batched` with `numgpu_complex_float` elements; NUMGPU_OP_C solves with the
/// conjugate transpose.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgetrs_fullpivot_batched(h: *mut Handle, trans: OpArg, n: i64, nrhs: i64, A: *const *const numgpu_complex_float, lda: i64, ipiv: *const i32, jpiv: *const i32, B: *const *mut numgpu_complex_float, ldb: i64, batch: i64) -> numgpu_status {
    getrs_form::<Complex32>("numgpu_cgetrs_fullpivot_batched", h, trans, n, nrhs, Batch::Array(A as *const *const Complex32), lda, ipiv, jpiv, Batch::Array(B as *const *mut Complex32), ldb, batch)
}

/// Batched solve with complete-pivoting factors of complex float matrices, strided form: as
/// `numgpu_sgetrs_fullpivot_batched_strided` with `numgpu_complex_float` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgetrs_fullpivot_batched_strided(h: *mut Handle, trans: OpArg, n: i64, nrhs: i64, A: *const numgpu_complex_float, lda: i64, strideA: i64, ipiv: *const i32, jpiv: *const i32, B: *mut numgpu_complex_float, ldb: i64, strideB: i64, batch: i64) -> numgpu_status {
    getrs_form::<Complex32>("numgpu_cgetrs_fullpivot_batched_strided", h, trans, n, nrhs, Batch::Strided { ptr: A as *const Complex32, stride: strideA }, lda, ipiv, jpiv, Batch::Strided { ptr: B as *mut Complex32, stride: strideB }, ldb, batch)
}

/// Batched solve by LU with complete pivoting of complex float matrices, pointer-array form:
/// `numgpu_sgesv_fullpivot_batched` with `numgpu_complex_float` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgesv_fullpivot_batched(h: *mut Handle, n: i64, nrhs: i64, A: *const *mut numgpu_complex_float, lda: i64, ipiv: *mut i32, jpiv: *mut i32, B: *const *mut numgpu_complex_float, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    gesv_form::<Complex32>("numgpu_cgesv_fullpivot_batched", h, n, nrhs, Batch::Array(A as *const *mut Complex32), lda, ipiv, jpiv, Batch::Array(B as *const *mut Complex32), ldb, info, batch)
}

/// Batched solve by LU with complete pivoting of complex float matrices, strided form: as
/// `numgpu_sgesv_fullpivot_batched_strided` with `numgpu_complex_float` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgesv_fullpivot_batched_strided(h: *mut Handle, n: i64, nrhs: i64, A: *mut numgpu_complex_float, lda: i64, strideA: i64, ipiv: *mut i32, jpiv: *mut i32, B: *mut numgpu_complex_float, ldb: i64, strideB: i64, info: *mut i32, batch: i64) -> numgpu_status {
    gesv_form::<Complex32>("numgpu_cgesv_fullpivot_batched_strided", h, n, nrhs, Batch::Strided { ptr: A as *mut Complex32, stride: strideA }, lda, ipiv, jpiv, Batch::Strided { ptr: B as *mut Complex32, stride: strideB }, ldb, info, batch)
}

/// LAPACK `cgesc2` for a batch of complex float factorisations: `numgpu_sgesc2_batched_strided` with
/// `numgpu_complex_float` elements and a `float` scale.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgesc2_batched_strided(h: *mut Handle, n: i64, A: *const numgpu_complex_float, lda: i64, strideA: i64, rhs: *mut numgpu_complex_float, strideRhs: i64, ipiv: *const i32, jpiv: *const i32, scale: *mut f32, batch: i64) -> numgpu_status {
    gesc2_form::<Complex32>("numgpu_cgesc2_batched_strided", h, n, A as *const Complex32, lda, strideA, rhs as *mut Complex32, strideRhs, ipiv, jpiv, scale, batch)
}

/// Batched LU factorisation with complete pivoting of complex double matrices, pointer-array form:
/// `numgpu_sgetrf_fullpivot_batched` with `numgpu_complex_double` elements (as LAPACK `zgetc2`, the modulus |a| in the pivot search); the
/// same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgetrf_fullpivot_batched(h: *mut Handle, mode: FullpivotModeArg, n: i64, A: *const *mut numgpu_complex_double, lda: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    getrf_form::<Complex64>("numgpu_zgetrf_fullpivot_batched", h, mode, n, Batch::Array(A as *const *mut Complex64), lda, ipiv, jpiv, info, batch)
}

/// Batched LU with complete pivoting of complex double matrices, strided form: as
/// `numgpu_sgetrf_fullpivot_batched_strided` with `numgpu_complex_double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgetrf_fullpivot_batched_strided(h: *mut Handle, mode: FullpivotModeArg, n: i64, A: *mut numgpu_complex_double, lda: i64, strideA: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> numgpu_status {
    getrf_form::<Complex64>("numgpu_zgetrf_fullpivot_batched_strided", h, mode, n, Batch::Strided { ptr: A as *mut Complex64, stride: strideA }, lda, ipiv, jpiv, info, batch)
}

/// Batched solve with complete-pivoting factors of complex double matrices, pointer-array form:
/// `numgpu_sgetrs_fullpivot_batched` with `numgpu_complex_double` elements; NUMGPU_OP_C solves with the
/// conjugate transpose.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgetrs_fullpivot_batched(h: *mut Handle, trans: OpArg, n: i64, nrhs: i64, A: *const *const numgpu_complex_double, lda: i64, ipiv: *const i32, jpiv: *const i32, B: *const *mut numgpu_complex_double, ldb: i64, batch: i64) -> numgpu_status {
    getrs_form::<Complex64>("numgpu_zgetrs_fullpivot_batched", h, trans, n, nrhs, Batch::Array(A as *const *const Complex64), lda, ipiv, jpiv, Batch::Array(B as *const *mut Complex64), ldb, batch)
}

/// Batched solve with complete-pivoting factors of complex double matrices, strided form: as
/// `numgpu_sgetrs_fullpivot_batched_strided` with `numgpu_complex_double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgetrs_fullpivot_batched_strided(h: *mut Handle, trans: OpArg, n: i64, nrhs: i64, A: *const numgpu_complex_double, lda: i64, strideA: i64, ipiv: *const i32, jpiv: *const i32, B: *mut numgpu_complex_double, ldb: i64, strideB: i64, batch: i64) -> numgpu_status {
    getrs_form::<Complex64>("numgpu_zgetrs_fullpivot_batched_strided", h, trans, n, nrhs, Batch::Strided { ptr: A as *const Complex64, stride: strideA }, lda, ipiv, jpiv, Batch::Strided { ptr: B as *mut Complex64, stride: strideB }, ldb, batch)
}

/// Batched solve by LU with complete pivoting of complex double matrices, pointer-array form:
/// `numgpu_sgesv_fullpivot_batched` with `numgpu_complex_double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgesv_fullpivot_batched(h: *mut Handle, n: i64, nrhs: i64, A: *const *mut numgpu_complex_double, lda: i64, ipiv: *mut i32, jpiv: *mut i32, B: *const *mut numgpu_complex_double, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    gesv_form::<Complex64>("numgpu_zgesv_fullpivot_batched", h, n, nrhs, Batch::Array(A as *const *mut Complex64), lda, ipiv, jpiv, Batch::Array(B as *const *mut Complex64), ldb, info, batch)
}

/// Batched solve by LU with complete pivoting of complex double matrices, strided form: as
/// `numgpu_sgesv_fullpivot_batched_strided` with `numgpu_complex_double` elements.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgesv_fullpivot_batched_strided(h: *mut Handle, n: i64, nrhs: i64, A: *mut numgpu_complex_double, lda: i64, strideA: i64, ipiv: *mut i32, jpiv: *mut i32, B: *mut numgpu_complex_double, ldb: i64, strideB: i64, info: *mut i32, batch: i64) -> numgpu_status {
    gesv_form::<Complex64>("numgpu_zgesv_fullpivot_batched_strided", h, n, nrhs, Batch::Strided { ptr: A as *mut Complex64, stride: strideA }, lda, ipiv, jpiv, Batch::Strided { ptr: B as *mut Complex64, stride: strideB }, ldb, info, batch)
}

/// LAPACK `zgesc2` for a batch of complex double factorisations: `numgpu_sgesc2_batched_strided` with
/// `numgpu_complex_double` elements and a `double` scale.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgesc2_batched_strided(h: *mut Handle, n: i64, A: *const numgpu_complex_double, lda: i64, strideA: i64, rhs: *mut numgpu_complex_double, strideRhs: i64, ipiv: *const i32, jpiv: *const i32, scale: *mut f64, batch: i64) -> numgpu_status {
    gesc2_form::<Complex64>("numgpu_zgesc2_batched_strided", h, n, A as *const Complex64, lda, strideA, rhs as *mut Complex64, strideRhs, ipiv, jpiv, scale, batch)
}
