#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! `numgpu_{s,d}khatri_rao` and `numgpu_{s,d}mttkrp`: convert the C arguments and call the
//! family's Rust API.

use super::{khatri_rao, mttkrp};
use crate::core::check::arg_i32;
use crate::core::error::numgpu_status;
use crate::core::Handle;
use crate::ffi::{boundary, deref_mut};
use crate::lapack::Blas;

#[allow(clippy::too_many_arguments)]
unsafe fn khatri_rao_form<T: Blas>(name: &str, h: *mut Handle, m: i64, n: i64, r: i64, A: *const T, lda: i64, B: *const T, ldb: i64, C: *mut T, ldc: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        khatri_rao(h, m, n, r, A, lda, B, ldb, C, ldc)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn mttkrp_form<T: Blas>(name: &str, h: *mut Handle, ndim: i64, dims: *const i64, X: *const T, mode: i64, rank: i64, U: *const *const T, ldu: *const i64, M: *mut T, ldm: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        mttkrp(h, arg_i32(ndim, "ndim")?, dims, X, arg_i32(mode, "mode")?, rank, U, ldu, M, ldm)
    })
}

/// Computes the Khatri–Rao (column-wise Kronecker) product of two matrices of single-precision
/// numbers: C = A ⊙ B, C(j + i·n, k) = A(i, k)·B(j, k) for i < m, j < n, k < r (0-based,
/// column-major; Kolda and Bader's definition: B's row index is the fastest).
///
/// - `h` [in]: handle.
/// - `m` [in]: rows of A, >= 0.
/// - `n` [in]: rows of B, >= 0.
/// - `r` [in]: columns of A, B and C, >= 0.
/// - `A` [in]: m × r, leading dimension `lda` >= max(1, m).
/// - `B` [in]: n × r, leading dimension `ldb` >= max(1, n).
/// - `C` [out]: (m·n) × r, leading dimension `ldc` >= max(1, m·n); rows m·n … ldc − 1 are not
///   written. Must not overlap A or B.
///
/// m, n or r = 0 is success and touches nothing. All arrays are host memory, or all are device
/// memory of the handle's device (then the call is enqueued on the handle's stream and returns
/// at once). Each entry is one rounded product, so results are the same bits on every backend.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or array, negative size,
/// leading dimension too small, device memory on the CPU backend, arrays in different spaces,
/// C the same array as A or B); nothing is written then. `NOT_SUPPORTED` (m·n or an extent
/// beyond the address space), `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_skhatri_rao(h: *mut Handle, m: i64, n: i64, r: i64, A: *const f32, lda: i64, B: *const f32, ldb: i64, C: *mut f32, ldc: i64) -> numgpu_status {
    khatri_rao_form::<f32>("numgpu_skhatri_rao", h, m, n, r, A, lda, B, ldb, C, ldc)
}

/// Computes the Khatri–Rao product of two matrices of double-precision numbers:
/// `numgpu_skhatri_rao` with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dkhatri_rao(h: *mut Handle, m: i64, n: i64, r: i64, A: *const f64, lda: i64, B: *const f64, ldb: i64, C: *mut f64, ldc: i64) -> numgpu_status {
    khatri_rao_form::<f64>("numgpu_dkhatri_rao", h, m, n, r, A, lda, B, ldb, C, ldc)
}

/// Computes the matricised tensor times Khatri–Rao product (MTTKRP) of a dense tensor of
/// single-precision numbers, the kernel of CP decompositions (Kolda and Bader):
///
/// M = X_(mode) · (U[d−1] ⊙ … ⊙ U[mode+1] ⊙ U[mode−1] ⊙ … ⊙ U[0]),  d = ndim,
///
/// that is M(i, r) = Σ X(i_0, …, i_{d−1})·Π_{k≠mode} U[k](i_k, r) over the indices with
/// i_mode = i. X is dims[0] × … × dims[d−1], column-major (entry (i_0, …, i_{d−1}) at
/// i_0 + dims[0]·(i_1 + dims[1]·(…))); X_(mode) is its mode unfolding, whose columns run
/// with the lowest remaining mode fastest, hence the reverse order of the Khatri–Rao product
/// (`numgpu_skhatri_rao`). X is never unfolded or permuted: for the first mode (or when every
/// dimension before `mode` is 1) the product is one GEMM on X as it is stored, for the last one
/// GEMM with X transposed (leading dimension dims[0]·…·dims[d−2]), for a middle mode a strided
/// batch of GEMMs over the slices of X and a reduction; the Khatri–Rao product of the other
/// factors (∏_{k≠mode} dims[k] × rank elements) is formed once in the backend's memory (the
/// handle's device workspace on CUDA).
///
/// - `h` [in]: handle.
/// - `ndim` [in]: the order d of X, >= 3.
/// - `dims` [in]: d dimensions, each >= 0. Host memory.
/// - `X` [in]: the tensor, dims[0]·…·dims[d−1] elements; may be NULL when that is 0.
/// - `mode` [in]: the mode, 0-based: 0 <= mode < d (Kolda and Bader's mode mode + 1).
/// - `rank` [in]: columns of the factors and of M, >= 0.
/// - `U` [in]: d pointers (host memory), U[k] the factor of mode k: dims[k] × rank with leading
///   dimension ldu[k]. U[mode] is not referenced (may be NULL), nor is a U[k] with
///   dims[k] = 0.
/// - `ldu` [in]: d leading dimensions (host memory): ldu[k] >= max(1, dims[k]) for k ≠ mode;
///   ldu[mode] is not referenced.
/// - `M` [out]: dims[mode] × rank, leading dimension `ldm` >= max(1, dims[mode]); rows
///   dims[mode] … ldm − 1 are not written. Must not overlap X or a factor.
///
/// dims[mode] = 0 or rank = 0 is success and touches nothing; a zero among the other
/// dimensions gives M = 0 (an empty sum). NaN and Inf propagate as in GEMM. X, the factors and
/// M are all host memory, or all device memory of the handle's device (then the call is
/// enqueued on the handle's stream and returns at once; dims, U and ldu are read before it
/// returns). The sums run in a fixed order that depends on the sizes and the device only, so
/// results are bitwise reproducible on the same device; accuracy as a GEMM with inner
/// dimension ∏_{k≠mode} dims[k].
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, ndim < 3, NULL or device
/// dims, U or ldu, a negative dimension, mode out of range, negative rank, NULL X, U[k] or M
/// where referenced, ldu[k] or ldm too small, device memory on the CPU backend, arrays in
/// different spaces, M the same array as X or a factor); nothing is written then.
/// `NOT_SUPPORTED` (sizes or extents beyond the address space; on the CPU backend a size
/// beyond BLAS's 32-bit integers), `ALLOC_FAILED` (the Khatri–Rao product and partial
/// products do not fit the device), `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_smttkrp(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f32, mode: i64, rank: i64, U: *const *const f32, ldu: *const i64, M: *mut f32, ldm: i64) -> numgpu_status {
    mttkrp_form::<f32>("numgpu_smttkrp", h, ndim, dims, X, mode, rank, U, ldu, M, ldm)
}

/// Computes the MTTKRP of a dense tensor of double-precision numbers: `numgpu_smttkrp` with
/// `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dmttkrp(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f64, mode: i64, rank: i64, U: *const *const f64, ldu: *const i64, M: *mut f64, ldm: i64) -> numgpu_status {
    mttkrp_form::<f64>("numgpu_dmttkrp", h, ndim, dims, X, mode, rank, U, ldu, M, ldm)
}
