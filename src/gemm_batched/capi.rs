#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract; the real-precision forms keep the casts that the
// complex forms need, so the four read alike.
#![allow(clippy::missing_safety_doc, clippy::unnecessary_cast)]
//! `numgpu_{s,d,c,z}gemm_batched` and `..._strided`: convert the C arguments and call
//! [`super::gemm_batched`].

use crate::core::op::OpArg;
use super::{gemm_batched, Batch};
use crate::core::error::numgpu_status;
use crate::core::scalar::{numgpu_complex_double, numgpu_complex_float};
use crate::core::{Handle, Op};
use crate::ffi::{boundary, deref_mut};
use crate::lapack::Blas;
use num_complex::{Complex32, Complex64};

#[allow(clippy::too_many_arguments)]
unsafe fn array_form<T: Blas>(
    name: &str,
    h: *mut Handle,
    transa: i32,
    transb: i32,
    m: i64,
    n: i64,
    k: i64,
    alpha: T::Abi,
    a: *const *const T::Abi,
    lda: i64,
    b: *const *const T::Abi,
    ldb: i64,
    beta: T::Abi,
    c: *const *mut T::Abi,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let (ta, tb) = (Op::from_i32(transa, "transa")?, Op::from_i32(transb, "transb")?);
        gemm_batched::<T>(
            h,
            ta,
            tb,
            m,
            n,
            k,
            T::from_abi(alpha),
            Batch::Array(a as *const *const T),
            lda,
            Batch::Array(b as *const *const T),
            ldb,
            T::from_abi(beta),
            Batch::Array(c as *const *mut T),
            ldc,
            batch,
        )
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn strided_form<T: Blas>(
    name: &str,
    h: *mut Handle,
    transa: i32,
    transb: i32,
    m: i64,
    n: i64,
    k: i64,
    alpha: T::Abi,
    a: *const T::Abi,
    lda: i64,
    stride_a: i64,
    b: *const T::Abi,
    ldb: i64,
    stride_b: i64,
    beta: T::Abi,
    c: *mut T::Abi,
    ldc: i64,
    stride_c: i64,
    batch: i64,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let (ta, tb) = (Op::from_i32(transa, "transa")?, Op::from_i32(transb, "transb")?);
        gemm_batched::<T>(
            h,
            ta,
            tb,
            m,
            n,
            k,
            T::from_abi(alpha),
            Batch::Strided { ptr: a as *const T, stride: stride_a },
            lda,
            Batch::Strided { ptr: b as *const T, stride: stride_b },
            ldb,
            T::from_abi(beta),
            Batch::Strided { ptr: c as *mut T, stride: stride_c },
            ldc,
            batch,
        )
    })
}

/// Batched single-precision GEMM, pointer-array form: for i = 0 … batch−1,
/// `C[i] = alpha·op(A[i])·op(B[i]) + beta·C[i]`, each as BLAS `sgemm`, column-major.
///
/// - `h` [in]: handle.
/// - `transa`, `transb` [in]: `NUMGPU_OP_N`, `NUMGPU_OP_T` or `NUMGPU_OP_C` (= T for real).
/// - `m`, `n`, `k` [in]: op(A[i]) is m × k, op(B[i]) is k × n, C[i] is m × n; each >= 0.
/// - `alpha` [in]: scalar. When 0, or when k = 0, A and B are not read (may be NULL).
/// - `A` [in]: array of `batch` pointers to A[i], lda × (k if transa = N, else m).
/// - `lda` [in]: >= max(1, m) if transa = N, else >= max(1, k).
/// - `B` [in]: array of `batch` pointers to B[i], ldb × (n if transb = N, else k).
/// - `ldb` [in]: >= max(1, k) if transb = N, else >= max(1, n).
/// - `beta` [in]: scalar. When 0, C is not read (NaN in C does not propagate).
/// - `C` [in,out]: array of `batch` pointers to distinct C[i], ldc × n, none of them an A[j]
///   or B[j]. Equal pointers are rejected where they are cheap to see (entries of host
///   pointer arrays, the base pointers of the strided form); partial overlaps and the entries
///   of device pointer arrays are not checked.
/// - `ldc` [in]: >= max(1, m).
/// - `batch` [in]: number of products, >= 0.
///
/// The pointer arrays live in the same space as the matrices: all host memory, or all device
/// memory of the handle's device. Host arrays on the CUDA backend are staged and the call
/// returns when C is written; device arrays are enqueued on the handle's stream (the call
/// returns at once; `numgpu_synchronize` waits). m, n or batch = 0 is success with no work.
/// Results are bitwise reproducible on the same device. Single precision (s and c) follows
/// the handle's math mode (`numgpu_set_math_mode`): exact FP32 by default, or the TF32
/// tensor cores within the bound `numgpu_math_mode` states.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle; op out of range;
/// negative size; leading dimension too small; NULL array or, for host arrays, NULL entry
/// that would be accessed; device memory on the CPU backend; arrays in different spaces; an
/// output aliasing another matrix of the call); nothing is written then. `NOT_SUPPORTED` (extents beyond the address space or, on CPU,
/// beyond BLAS's 32-bit integers), `ALLOC_FAILED` (staging workspace; the handle stays
/// usable), `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgemm_batched(
    h: *mut Handle,
    transa: OpArg,
    transb: OpArg,
    m: i64,
    n: i64,
    k: i64,
    alpha: f32,
    A: *const *const f32,
    lda: i64,
    B: *const *const f32,
    ldb: i64,
    beta: f32,
    C: *const *mut f32,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    array_form::<f32>("numgpu_sgemm_batched", h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch)
}

/// Batched double-precision GEMM, pointer-array form: `numgpu_sgemm_batched` with double
/// elements and scalars; the same arguments, semantics and errors (FP64 in every math mode).
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgemm_batched(
    h: *mut Handle,
    transa: OpArg,
    transb: OpArg,
    m: i64,
    n: i64,
    k: i64,
    alpha: f64,
    A: *const *const f64,
    lda: i64,
    B: *const *const f64,
    ldb: i64,
    beta: f64,
    C: *const *mut f64,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    array_form::<f64>("numgpu_dgemm_batched", h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch)
}

/// Batched single-precision complex GEMM, pointer-array form: `numgpu_sgemm_batched` with
/// `numgpu_complex_float` elements and scalars; `NUMGPU_OP_C` conjugates.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgemm_batched(
    h: *mut Handle,
    transa: OpArg,
    transb: OpArg,
    m: i64,
    n: i64,
    k: i64,
    alpha: numgpu_complex_float,
    A: *const *const numgpu_complex_float,
    lda: i64,
    B: *const *const numgpu_complex_float,
    ldb: i64,
    beta: numgpu_complex_float,
    C: *const *mut numgpu_complex_float,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    array_form::<Complex32>("numgpu_cgemm_batched", h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch)
}

/// Batched double-precision complex GEMM, pointer-array form: `numgpu_sgemm_batched` with
/// `numgpu_complex_double` elements and scalars; `NUMGPU_OP_C` conjugates (FP64 in every math
/// mode).
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgemm_batched(
    h: *mut Handle,
    transa: OpArg,
    transb: OpArg,
    m: i64,
    n: i64,
    k: i64,
    alpha: numgpu_complex_double,
    A: *const *const numgpu_complex_double,
    lda: i64,
    B: *const *const numgpu_complex_double,
    ldb: i64,
    beta: numgpu_complex_double,
    C: *const *mut numgpu_complex_double,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    array_form::<Complex64>("numgpu_zgemm_batched", h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch)
}

/// Batched single-precision GEMM, strided form: matrix i of A is at `A + i·strideA` (a
/// Fortran `A(lda, *, batch)` array), likewise B and C; otherwise as `numgpu_sgemm_batched`.
///
/// - `strideA` [in]: 0 (one A for the whole batch) or >= lda·(columns of A), in elements.
/// - `strideB` [in]: 0 (one B for the whole batch) or >= ldb·(columns of B).
/// - `strideC` [in]: >= ldc·n (the C matrices must not overlap).
///
/// Strides are checked only when batch > 1. Errors as `numgpu_sgemm_batched`, plus
/// `INVALID_VALUE` for a stride out of range.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgemm_batched_strided(
    h: *mut Handle,
    transa: OpArg,
    transb: OpArg,
    m: i64,
    n: i64,
    k: i64,
    alpha: f32,
    A: *const f32,
    lda: i64,
    strideA: i64,
    B: *const f32,
    ldb: i64,
    strideB: i64,
    beta: f32,
    C: *mut f32,
    ldc: i64,
    strideC: i64,
    batch: i64,
) -> numgpu_status {
    strided_form::<f32>("numgpu_sgemm_batched_strided", h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batch)
}

/// Batched double-precision GEMM, strided form: `numgpu_sgemm_batched_strided` with double
/// elements and scalars; the same arguments, semantics and errors (FP64 in every math mode).
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgemm_batched_strided(
    h: *mut Handle,
    transa: OpArg,
    transb: OpArg,
    m: i64,
    n: i64,
    k: i64,
    alpha: f64,
    A: *const f64,
    lda: i64,
    strideA: i64,
    B: *const f64,
    ldb: i64,
    strideB: i64,
    beta: f64,
    C: *mut f64,
    ldc: i64,
    strideC: i64,
    batch: i64,
) -> numgpu_status {
    strided_form::<f64>("numgpu_dgemm_batched_strided", h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batch)
}

/// Batched single-precision complex GEMM, strided form: `numgpu_sgemm_batched_strided` with
/// `numgpu_complex_float` elements and scalars; `NUMGPU_OP_C` conjugates.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgemm_batched_strided(
    h: *mut Handle,
    transa: OpArg,
    transb: OpArg,
    m: i64,
    n: i64,
    k: i64,
    alpha: numgpu_complex_float,
    A: *const numgpu_complex_float,
    lda: i64,
    strideA: i64,
    B: *const numgpu_complex_float,
    ldb: i64,
    strideB: i64,
    beta: numgpu_complex_float,
    C: *mut numgpu_complex_float,
    ldc: i64,
    strideC: i64,
    batch: i64,
) -> numgpu_status {
    strided_form::<Complex32>("numgpu_cgemm_batched_strided", h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batch)
}

/// Batched double-precision complex GEMM, strided form: `numgpu_sgemm_batched_strided` with
/// `numgpu_complex_double` elements and scalars; `NUMGPU_OP_C` conjugates (FP64 in every math
/// mode).
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgemm_batched_strided(
    h: *mut Handle,
    transa: OpArg,
    transb: OpArg,
    m: i64,
    n: i64,
    k: i64,
    alpha: numgpu_complex_double,
    A: *const numgpu_complex_double,
    lda: i64,
    strideA: i64,
    B: *const numgpu_complex_double,
    ldb: i64,
    strideB: i64,
    beta: numgpu_complex_double,
    C: *mut numgpu_complex_double,
    ldc: i64,
    strideC: i64,
    batch: i64,
) -> numgpu_status {
    strided_form::<Complex64>("numgpu_zgemm_batched_strided", h, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batch)
}
