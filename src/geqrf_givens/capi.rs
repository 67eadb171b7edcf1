#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract; the real-precision forms keep the casts that the
// complex forms need, so the four read alike.
#![allow(clippy::missing_safety_doc, clippy::unnecessary_cast)]
//! `numgpu_{s,d,c,z}geqrf_givens_batched`, `numgpu_{s,d}ormqr_givens_batched` /
//! `numgpu_{c,z}unmqr_givens_batched`, `numgpu_{s,d}orgqr_givens_batched` /
//! `numgpu_{c,z}ungqr_givens_batched` and `numgpu_{s,d,c,z}gels_givens_batched`, each in
//! pointer-array and `_strided` form: convert the C arguments and call the family's Rust API.

use crate::core::op::OpArg;
use crate::core::side::SideArg;
use super::{gels, geqrf, orgqr, ormqr};
use crate::core::batch::Batch;
use crate::core::error::numgpu_status;
use crate::core::scalar::{numgpu_complex_double, numgpu_complex_float};
use crate::core::{Handle, Op, Scalar, Side};
use crate::ffi::{boundary, deref_mut};
use num_complex::{Complex32, Complex64};

#[allow(clippy::too_many_arguments)]
unsafe fn geqrf_form<T: Scalar>(name: &str, h: *mut Handle, m: i64, n: i64, a: Batch<*mut T>, lda: i64, cs: Batch<*mut T::Real>, ldcs: i64, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        geqrf(h, m, n, a, lda, cs, ldcs, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn ormqr_form<T: Scalar>(
    name: &str,
    h: *mut Handle,
    side: i32,
    trans: i32,
    m: i64,
    n: i64,
    k: i64,
    a: Batch<*const T>,
    lda: i64,
    cs: Batch<*const T::Real>,
    ldcs: i64,
    c: Batch<*mut T>,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let side = Side::from_i32(side, "side")?;
        let trans = Op::from_i32(trans, "trans")?;
        ormqr(h, side, trans, m, n, k, a, lda, cs, ldcs, c, ldc, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn orgqr_form<T: Scalar>(name: &str, h: *mut Handle, m: i64, n: i64, k: i64, a: Batch<*mut T>, lda: i64, cs: Batch<*const T::Real>, ldcs: i64, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        orgqr(h, m, n, k, a, lda, cs, ldcs, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn gels_form<T: Scalar>(name: &str, h: *mut Handle, m: i64, n: i64, nrhs: i64, a: Batch<*mut T>, lda: i64, b: Batch<*mut T>, ldb: i64, info: *mut i32, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        gels(h, m, n, nrhs, a, lda, b, ldb, info, batch)
    })
}

/// Batched QR factorisation by Givens rotations of single-precision matrices, pointer-array
/// form: for each i, `A[i] = Q·R` with `Qᴴ = G(N) ⋯ G(1)`, G(i, j) (0-based, i > j) the
/// rotation of the adjacent rows (i−1, i) that zeros A(i, j), applied column by column from
/// the left, each column from the bottom row up (equivalently, Sameh–Kuck's parallel order).
/// Rotations are LAPACK `slartg`'s (safe scaling): `[c s; −s c]·[f; g] = [r; 0]`, c >= 0.
///
/// - `h` [in]: handle.
/// - `m` [in]: rows of every matrix, >= 0.
/// - `n` [in]: columns of every matrix, 0 <= n <= m (n > m is an error naming n).
/// - `A` [in,out]: array of `batch` pointers to distinct m × n matrices (column-major). On
///   exit, R in the upper triangle (R(i, i) may be negative) and, below the diagonal, the
///   sine s of G(i, j) in A(i, j).
///   Distinct: the matrices a call writes are neither repeated nor any other matrix of the
///   call; equal pointers are rejected where they are cheap to see (entries of host pointer
///   arrays, strided base pointers), partial overlaps are not checked.
/// - `lda` [in]: >= max(1, m).
/// - `CS` [out]: array of `batch` pointers to distinct real m × n arrays: the cosine c of
///   G(i, j) in CS(i, j) for i > j; the entries with i <= j are not referenced. Store it
///   with A: the Q of `numgpu_sormqr_givens_batched` / `numgpu_sorgqr_givens_batched` needs
///   both.
/// - `ldcs` [in]: >= max(1, m).
/// - `batch` [in]: number of matrices, >= 0.
///
/// Non-finite input is not an error: a NaN or Inf in column j makes R(j, j) non-finite and
/// spreads through the rotations it meets; the columns left of column j are factored
/// exactly as without it (their rotations depend on them alone). n = 0 or batch = 0 is
/// success and touches nothing.
/// All arrays (and the pointer arrays) are host memory, or all are device memory of the
/// handle's device (then the call is enqueued on the handle's stream and returns at once).
/// Results are bitwise reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, negative m, n or
/// batch, n > m, lda or ldcs too small, NULL array or host pointer-array entry, device
/// memory on the CPU backend, arrays in different spaces, an output aliasing
/// another matrix of the call); nothing is written then.
/// `NOT_SUPPORTED` (extents beyond the address space), `ALLOC_FAILED`, `COMPILE_FAILED`,
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgeqrf_givens_batched(h: *mut Handle, m: i64, n: i64, A: *const *mut f32, lda: i64, CS: *const *mut f32, ldcs: i64, batch: i64) -> numgpu_status {
    geqrf_form::<f32>("numgpu_sgeqrf_givens_batched", h, m, n, Batch::Array(A), lda, Batch::Array(CS), ldcs, batch)
}

/// Batched Givens QR, strided form: A[i] at `A + i·strideA` (a Fortran `A(lda, n, batch)`
/// array), CS[i] at `CS + i·strideCS`; otherwise as `numgpu_sgeqrf_givens_batched`.
///
/// - `strideA` [in]: >= lda·n when batch > 1 (the matrices must not overlap), in elements.
/// - `strideCS` [in]: >= ldcs·n when batch > 1, in elements.
///
/// Errors as the pointer-array form, plus `INVALID_VALUE` for the strides.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgeqrf_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    A: *mut f32,
    lda: i64,
    strideA: i64,
    CS: *mut f32,
    ldcs: i64,
    strideCS: i64,
    batch: i64,
) -> numgpu_status {
    geqrf_form::<f32>("numgpu_sgeqrf_givens_batched_strided", h, m, n, Batch::Strided { ptr: A, stride: strideA }, lda, Batch::Strided { ptr: CS, stride: strideCS }, ldcs, batch)
}

/// Applies the Q of `numgpu_sgeqrf_givens_batched` to single-precision matrices,
/// pointer-array form, as LAPACK `sormqr`: for each i, `C[i] := op(Q)·C[i]` (side LEFT) or
/// `C[i]·op(Q)` (side RIGHT), op(Q) = Q or Qᵀ, Q of order nq (m for LEFT, n for RIGHT) made
/// of the rotations of the first k columns of the factorisation, replayed without forming Q.
///
/// - `h` [in]: handle.
/// - `side` [in]: `NUMGPU_SIDE_LEFT` or `NUMGPU_SIDE_RIGHT`.
/// - `trans` [in]: `NUMGPU_OP_N` (Q) or `NUMGPU_OP_T` (Qᵀ); `NUMGPU_OP_C` is an error, as
///   in `sormqr`.
/// - `m` [in]: rows of C, >= 0. `n` [in]: columns of C, >= 0.
/// - `k` [in]: columns of the factorisation whose rotations make Q, 0 <= k <= nq.
/// - `A` [in]: array of `batch` pointers to the factorisations (nq × k at least: the sines
///   below the diagonal are read). `lda` [in]: >= max(1, nq).
/// - `CS` [in]: array of `batch` pointers to the cosines (nq × k). `ldcs` [in]: >= max(1, nq).
/// - `C` [in,out]: array of `batch` pointers to distinct m × n matrices.
/// - `ldc` [in]: >= max(1, m).
/// - `batch` [in]: number of matrices, >= 0.
///
/// m, n, k or batch = 0 is success and touches nothing.
/// All arrays (and the pointer arrays) are host memory, or all are device memory of the
/// handle's device (then the call is enqueued on the handle's stream and returns at once).
/// Results are bitwise reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, side or trans out of
/// range, negative sizes, k > nq, lda, ldcs or ldc too small, NULL array or host
/// pointer-array entry, device memory on the CPU backend, arrays in different spaces, an output aliasing
/// another matrix of the call);
/// nothing is written then. `NOT_SUPPORTED`, `ALLOC_FAILED`, `COMPILE_FAILED`,
/// `EXECUTION_FAILED` as for the factorisation.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sormqr_givens_batched(
    h: *mut Handle,
    side: SideArg,
    trans: OpArg,
    m: i64,
    n: i64,
    k: i64,
    A: *const *const f32,
    lda: i64,
    CS: *const *const f32,
    ldcs: i64,
    C: *const *mut f32,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    ormqr_form::<f32>("numgpu_sormqr_givens_batched", h, side, trans, m, n, k, Batch::Array(A), lda, Batch::Array(CS), ldcs, Batch::Array(C), ldc, batch)
}

/// Applies the Q of a Givens QR, strided form: A[i] at `A + i·strideA`, CS[i] at
/// `CS + i·strideCS` (0 for either: one factorisation for the whole batch), C[i] at
/// `C + i·strideC`; otherwise as `numgpu_sormqr_givens_batched`.
///
/// - `strideA` [in]: 0 or >= lda·k when batch > 1. `strideCS` [in]: 0 or >= ldcs·k.
/// - `strideC` [in]: >= ldc·n when batch > 1.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sormqr_givens_batched_strided(
    h: *mut Handle,
    side: SideArg,
    trans: OpArg,
    m: i64,
    n: i64,
    k: i64,
    A: *const f32,
    lda: i64,
    strideA: i64,
    CS: *const f32,
    ldcs: i64,
    strideCS: i64,
    C: *mut f32,
    ldc: i64,
    strideC: i64,
    batch: i64,
) -> numgpu_status {
    ormqr_form::<f32>(
        "numgpu_sormqr_givens_batched_strided",
        h,
        side,
        trans,
        m,
        n,
        k,
        Batch::Strided { ptr: A, stride: strideA },
        lda,
        Batch::Strided { ptr: CS, stride: strideCS },
        ldcs,
        Batch::Strided { ptr: C, stride: strideC },
        ldc,
        batch,
    )
}

/// Generates the Q of `numgpu_sgeqrf_givens_batched` for single-precision matrices,
/// pointer-array form, as LAPACK `sorgqr`: for each i, A[i] := the first n columns of the
/// Q (order m) made of the rotations of the first k columns of the factorisation.
///
/// - `h` [in]: handle.
/// - `m` [in]: order of Q, >= 0. `n` [in]: columns wanted, 0 <= n <= m.
/// - `k` [in]: columns of the factorisation whose rotations make Q, 0 <= k <= n.
/// - `A` [in,out]: array of `batch` pointers to distinct m × n matrices: on entry the
///   factorisation in the first k columns (its sines below the diagonal), on exit Q(:, 1:n).
/// - `lda` [in]: >= max(1, m).
/// - `CS` [in]: array of `batch` pointers to the cosines (m × k); not referenced when k = 0
///   (then A[i] := the first n columns of the identity).
/// - `ldcs` [in]: >= max(1, m).
/// - `batch` [in]: number of matrices, >= 0.
///
/// n = 0 or batch = 0 is success and touches nothing.
/// All arrays (and the pointer arrays) are host memory, or all are device memory of the
/// handle's device (then the call is enqueued on the handle's stream and returns at once).
/// Results are bitwise reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, negative sizes,
/// n > m, k > n, lda or ldcs too small, NULL array or host pointer-array entry, device
/// memory on the CPU backend, arrays in different spaces, an output aliasing
/// another matrix of the call); nothing is written then.
/// `NOT_SUPPORTED`, `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED` as for the
/// factorisation.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sorgqr_givens_batched(h: *mut Handle, m: i64, n: i64, k: i64, A: *const *mut f32, lda: i64, CS: *const *const f32, ldcs: i64, batch: i64) -> numgpu_status {
    orgqr_form::<f32>("numgpu_sorgqr_givens_batched", h, m, n, k, Batch::Array(A), lda, Batch::Array(CS), ldcs, batch)
}

/// Generates the Q of a Givens QR, strided form: A[i] at `A + i·strideA`, CS[i] at
/// `CS + i·strideCS`; otherwise as `numgpu_sorgqr_givens_batched`.
///
/// - `strideA` [in]: >= lda·n when batch > 1.
/// - `strideCS` [in]: >= ldcs·k when batch > 1.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sorgqr_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    k: i64,
    A: *mut f32,
    lda: i64,
    strideA: i64,
    CS: *const f32,
    ldcs: i64,
    strideCS: i64,
    batch: i64,
) -> numgpu_status {
    orgqr_form::<f32>("numgpu_sorgqr_givens_batched_strided", h, m, n, k, Batch::Strided { ptr: A, stride: strideA }, lda, Batch::Strided { ptr: CS, stride: strideCS }, ldcs, batch)
}

/// Batched full-rank least squares by Givens QR of single-precision matrices, pointer-array
/// form, as LAPACK `sgels` with TRANS = N: for each i, X minimising ‖A[i]·X − B[i]‖₂
/// (columnwise), m >= n: A[i] is factored as by `numgpu_sgeqrf_givens_batched` (the
/// cosines are not kept), B[i] := Qᵀ·B[i], and R·X = B[i](1:n, :) is solved.
///
/// - `h` [in]: handle.
/// - `m` [in]: rows of A and B, >= 0. `n` [in]: columns of A, 0 <= n <= m.
/// - `nrhs` [in]: columns of B, >= 0.
/// - `A` [in,out]: array of `batch` pointers to distinct m × n matrices; on exit R and the
///   sines, as the factorisation writes them.
/// - `lda` [in]: >= max(1, m).
/// - `B` [in,out]: array of `batch` pointers to distinct m × nrhs matrices; on exit X in rows
///   1..n and, in rows n+1..m, the residual's coordinates (the 2-norm of rows n+1..m of a
///   column is that column's residual norm).
/// - `ldb` [in]: >= max(1, m).
/// - `info` [out]: `batch` entries: 0, or j > 0 when R(j, j) is exactly zero (the first such
///   j): A[i] is not of full rank, it is factored and B[i] is left unchanged. Non-finite
///   input is not an error: a NaN in A[i] makes all of X NaN with info 0 (unless a zero
///   R(j, j) comes first); an Inf usually does too, through 0·Inf in the rotations.
/// - `batch` [in]: number of problems, >= 0.
///
/// Unlike `sgels`, A is not scaled first (the rotations need no scaling) and an all-zero A
/// has info = 1 rather than X = 0. m, n, nrhs or batch = 0 is success and touches nothing
/// (A, B and info included).
/// All arrays (and the pointer arrays) are host memory, or all are device memory of the
/// handle's device (then the call is enqueued on the handle's stream and returns at once).
/// Results are bitwise reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, negative sizes,
/// n > m, lda or ldb too small, NULL array or host pointer-array entry, NULL info, device
/// memory on the CPU backend, arrays in different spaces, an output aliasing
/// another matrix of the call); nothing is written then.
/// `NOT_SUPPORTED`, `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED` as for the
/// factorisation.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgels_givens_batched(
    h: *mut Handle,
    m: i64,
    n: i64,
    nrhs: i64,
    A: *const *mut f32,
    lda: i64,
    B: *const *mut f32,
    ldb: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    gels_form::<f32>("numgpu_sgels_givens_batched", h, m, n, nrhs, Batch::Array(A), lda, Batch::Array(B), ldb, info, batch)
}

/// Batched least squares by Givens QR, strided form: A[i] at `A + i·strideA`, B[i] at
/// `B + i·strideB`; otherwise as `numgpu_sgels_givens_batched`.
///
/// - `strideA` [in]: >= lda·n when batch > 1. `strideB` [in]: >= ldb·nrhs when batch > 1.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgels_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    nrhs: i64,
    A: *mut f32,
    lda: i64,
    strideA: i64,
    B: *mut f32,
    ldb: i64,
    strideB: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    gels_form::<f32>("numgpu_sgels_givens_batched_strided", h, m, n, nrhs, Batch::Strided { ptr: A, stride: strideA }, lda, Batch::Strided { ptr: B, stride: strideB }, ldb, info, batch)
}

/// Batched Givens QR of double matrices, pointer-array form: `numgpu_sgeqrf_givens_batched`
/// with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgeqrf_givens_batched(h: *mut Handle, m: i64, n: i64, A: *const *mut f64, lda: i64, CS: *const *mut f64, ldcs: i64, batch: i64) -> numgpu_status {
    geqrf_form::<f64>("numgpu_dgeqrf_givens_batched", h, m, n, Batch::Array(A), lda, Batch::Array(CS), ldcs, batch)
}

/// Batched Givens QR of double matrices, strided form: `numgpu_sgeqrf_givens_batched_strided`
/// with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgeqrf_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    A: *mut f64,
    lda: i64,
    strideA: i64,
    CS: *mut f64,
    ldcs: i64,
    strideCS: i64,
    batch: i64,
) -> numgpu_status {
    geqrf_form::<f64>("numgpu_dgeqrf_givens_batched_strided", h, m, n, Batch::Strided { ptr: A, stride: strideA }, lda, Batch::Strided { ptr: CS, stride: strideCS }, ldcs, batch)
}

/// Applies the Q of a Givens QR of double matrices, pointer-array form:
/// `numgpu_sormqr_givens_batched` with `double` elements (as LAPACK `dormqr`); the same
/// arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dormqr_givens_batched(
    h: *mut Handle,
    side: SideArg,
    trans: OpArg,
    m: i64,
    n: i64,
    k: i64,
    A: *const *const f64,
    lda: i64,
    CS: *const *const f64,
    ldcs: i64,
    C: *const *mut f64,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    ormqr_form::<f64>("numgpu_dormqr_givens_batched", h, side, trans, m, n, k, Batch::Array(A), lda, Batch::Array(CS), ldcs, Batch::Array(C), ldc, batch)
}

/// Applies the Q of a Givens QR of double matrices, strided form:
/// `numgpu_sormqr_givens_batched_strided` with `double` elements (as LAPACK `dormqr`); the
/// same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dormqr_givens_batched_strided(
    h: *mut Handle,
    side: SideArg,
    trans: OpArg,
    m: i64,
    n: i64,
    k: i64,
    A: *const f64,
    lda: i64,
    strideA: i64,
    CS: *const f64,
    ldcs: i64,
    strideCS: i64,
    C: *mut f64,
    ldc: i64,
    strideC: i64,
    batch: i64,
) -> numgpu_status {
    ormqr_form::<f64>(
        "numgpu_dormqr_givens_batched_strided",
        h,
        side,
        trans,
        m,
        n,
        k,
        Batch::Strided { ptr: A, stride: strideA },
        lda,
        Batch::Strided { ptr: CS, stride: strideCS },
        ldcs,
        Batch::Strided { ptr: C, stride: strideC },
        ldc,
        batch,
    )
}

/// Generates the Q of a Givens QR of double matrices, pointer-array form:
/// `numgpu_sorgqr_givens_batched` with `double` elements (as LAPACK `dorgqr`); the same
/// arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dorgqr_givens_batched(h: *mut Handle, m: i64, n: i64, k: i64, A: *const *mut f64, lda: i64, CS: *const *const f64, ldcs: i64, batch: i64) -> numgpu_status {
    orgqr_form::<f64>("numgpu_dorgqr_givens_batched", h, m, n, k, Batch::Array(A), lda, Batch::Array(CS), ldcs, batch)
}

/// Generates the Q of a Givens QR of double matrices, strided form:
/// `numgpu_sorgqr_givens_batched_strided` with `double` elements (as LAPACK `dorgqr`); the
/// same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dorgqr_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    k: i64,
    A: *mut f64,
    lda: i64,
    strideA: i64,
    CS: *const f64,
    ldcs: i64,
    strideCS: i64,
    batch: i64,
) -> numgpu_status {
    orgqr_form::<f64>("numgpu_dorgqr_givens_batched_strided", h, m, n, k, Batch::Strided { ptr: A, stride: strideA }, lda, Batch::Strided { ptr: CS, stride: strideCS }, ldcs, batch)
}

/// Batched least squares by Givens QR of double matrices, pointer-array form:
/// `numgpu_sgels_givens_batched` with `double` elements (as LAPACK `dgels`); the same
/// arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgels_givens_batched(
    h: *mut Handle,
    m: i64,
    n: i64,
    nrhs: i64,
    A: *const *mut f64,
    lda: i64,
    B: *const *mut f64,
    ldb: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    gels_form::<f64>("numgpu_dgels_givens_batched", h, m, n, nrhs, Batch::Array(A), lda, Batch::Array(B), ldb, info, batch)
}

/// Batched least squares by Givens QR of double matrices, strided form:
/// `numgpu_sgels_givens_batched_strided` with `double` elements (as LAPACK `dgels`); the same
/// arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgels_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    nrhs: i64,
    A: *mut f64,
    lda: i64,
    strideA: i64,
    B: *mut f64,
    ldb: i64,
    strideB: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    gels_form::<f64>("numgpu_dgels_givens_batched_strided", h, m, n, nrhs, Batch::Strided { ptr: A, stride: strideA }, lda, Batch::Strided { ptr: B, stride: strideB }, ldb, info, batch)
}

/// Batched Givens QR of complex single-precision matrices, pointer-array form:
/// `numgpu_sgeqrf_givens_batched` with `numgpu_complex_float` elements and `float` cosines;
/// the same arguments, semantics and errors. Rotations as LAPACK `clartg`:
/// `[c s; −conj(s) c]`, c real >= 0, s complex.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgeqrf_givens_batched(h: *mut Handle, m: i64, n: i64, A: *const *mut numgpu_complex_float, lda: i64, CS: *const *mut f32, ldcs: i64, batch: i64) -> numgpu_status {
    geqrf_form::<Complex32>("numgpu_cgeqrf_givens_batched", h, m, n, Batch::Array(A as *const *mut Complex32), lda, Batch::Array(CS), ldcs, batch)
}

/// Batched Givens QR of complex single-precision matrices, strided form:
/// `numgpu_sgeqrf_givens_batched_strided` with `numgpu_complex_float` elements and `float`
/// cosines; the same arguments, semantics and errors. Rotations as LAPACK `clartg`:
/// `[c s; −conj(s) c]`, c real >= 0, s complex.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgeqrf_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    A: *mut numgpu_complex_float,
    lda: i64,
    strideA: i64,
    CS: *mut f32,
    ldcs: i64,
    strideCS: i64,
    batch: i64,
) -> numgpu_status {
    geqrf_form::<Complex32>(
        "numgpu_cgeqrf_givens_batched_strided",
        h,
        m,
        n,
        Batch::Strided { ptr: A as *mut Complex32, stride: strideA },
        lda,
        Batch::Strided { ptr: CS, stride: strideCS },
        ldcs,
        batch,
    )
}

/// Applies the Q of a Givens QR of complex single-precision matrices, pointer-array form:
/// `numgpu_sormqr_givens_batched` with `numgpu_complex_float` elements and `float` cosines (as
/// LAPACK `cunmqr`); the same arguments, semantics and errors. trans is `NUMGPU_OP_N` (Q) or
/// `NUMGPU_OP_C` (Qᴴ); `NUMGPU_OP_T` is an error, as in LAPACK.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cunmqr_givens_batched(
    h: *mut Handle,
    side: SideArg,
    trans: OpArg,
    m: i64,
    n: i64,
    k: i64,
    A: *const *const numgpu_complex_float,
    lda: i64,
    CS: *const *const f32,
    ldcs: i64,
    C: *const *mut numgpu_complex_float,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    ormqr_form::<Complex32>(
        "numgpu_cunmqr_givens_batched",
        h,
        side,
        trans,
        m,
        n,
        k,
        Batch::Array(A as *const *const Complex32),
        lda,
        Batch::Array(CS),
        ldcs,
        Batch::Array(C as *const *mut Complex32),
        ldc,
        batch,
    )
}

/// Applies the Q of a Givens QR of complex single-precision matrices, strided form:
/// `numgpu_sormqr_givens_batched_strided` with `numgpu_complex_float` elements and `float`
/// cosines (as LAPACK `cunmqr`); the same arguments, semantics and errors. trans is
/// `NUMGPU_OP_N` (Q) or `NUMGPU_OP_C` (Qᴴ); `NUMGPU_OP_T` is an error, as in LAPACK.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cunmqr_givens_batched_strided(
    h: *mut Handle,
    side: SideArg,
    trans: OpArg,
    m: i64,
    n: i64,
    k: i64,
    A: *const numgpu_complex_float,
    lda: i64,
    strideA: i64,
    CS: *const f32,
    ldcs: i64,
    strideCS: i64,
    C: *mut numgpu_complex_float,
    ldc: i64,
    strideC: i64,
    batch: i64,
) -> numgpu_status {
    ormqr_form::<Complex32>(
        "numgpu_cunmqr_givens_batched_strided",
        h,
        side,
        trans,
        m,
        n,
        k,
        Batch::Strided { ptr: A as *const Complex32, stride: strideA },
        lda,
        Batch::Strided { ptr: CS, stride: strideCS },
        ldcs,
        Batch::Strided { ptr: C as *mut Complex32, stride: strideC },
        ldc,
        batch,
    )
}

/// Generates the Q of a Givens QR of complex single-precision matrices, pointer-array form:
/// `numgpu_sorgqr_givens_batched` with `numgpu_complex_float` elements and `float` cosines (as
/// LAPACK `cungqr`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cungqr_givens_batched(
    h: *mut Handle,
    m: i64,
    n: i64,
    k: i64,
    A: *const *mut numgpu_complex_float,
    lda: i64,
    CS: *const *const f32,
    ldcs: i64,
    batch: i64,
) -> numgpu_status {
    orgqr_form::<Complex32>("numgpu_cungqr_givens_batched", h, m, n, k, Batch::Array(A as *const *mut Complex32), lda, Batch::Array(CS), ldcs, batch)
}

/// Generates the Q of a Givens QR of complex single-precision matrices, strided form:
/// `numgpu_sorgqr_givens_batched_strided` with `numgpu_complex_float` elements and `float`
/// cosines (as LAPACK `cungqr`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cungqr_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    k: i64,
    A: *mut numgpu_complex_float,
    lda: i64,
    strideA: i64,
    CS: *const f32,
    ldcs: i64,
    strideCS: i64,
    batch: i64,
) -> numgpu_status {
    orgqr_form::<Complex32>(
        "numgpu_cungqr_givens_batched_strided",
        h,
        m,
        n,
        k,
        Batch::Strided { ptr: A as *mut Complex32, stride: strideA },
        lda,
        Batch::Strided { ptr: CS, stride: strideCS },
        ldcs,
        batch,
    )
}

/// Batched least squares by Givens QR of complex single-precision matrices, pointer-array
/// form: `numgpu_sgels_givens_batched` with `numgpu_complex_float` elements (as LAPACK
/// `cgels`); the same arguments, semantics and errors. B := Qᴴ·B.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgels_givens_batched(
    h: *mut Handle,
    m: i64,
    n: i64,
    nrhs: i64,
    A: *const *mut numgpu_complex_float,
    lda: i64,
    B: *const *mut numgpu_complex_float,
    ldb: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    gels_form::<Complex32>("numgpu_cgels_givens_batched", h, m, n, nrhs, Batch::Array(A as *const *mut Complex32), lda, Batch::Array(B as *const *mut Complex32), ldb, info, batch)
}

/// Batched least squares by Givens QR of complex single-precision matrices, strided form:
/// `numgpu_sgels_givens_batched_strided` with `numgpu_complex_float` elements (as LAPACK
/// `cgels`); the same arguments, semantics and errors. B := Qᴴ·B.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgels_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    nrhs: i64,
    A: *mut numgpu_complex_float,
    lda: i64,
    strideA: i64,
    B: *mut numgpu_complex_float,
    ldb: i64,
    strideB: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    gels_form::<Complex32>(
        "numgpu_cgels_givens_batched_strided",
        h,
        m,
        n,
        nrhs,
        Batch::Strided { ptr: A as *mut Complex32, stride: strideA },
        lda,
        Batch::Strided { ptr: B as *mut Complex32, stride: strideB },
        ldb,
        info,
        batch,
    )
}

/// Batched Givens QR of complex double matrices, pointer-array form:
/// `numgpu_sgeqrf_givens_batched` with `numgpu_complex_double` elements and `double` cosines;
/// the same arguments, semantics and errors. Rotations as LAPACK `zlartg`:
/// `[c s; −conj(s) c]`, c real >= 0, s complex.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgeqrf_givens_batched(h: *mut Handle, m: i64, n: i64, A: *const *mut numgpu_complex_double, lda: i64, CS: *const *mut f64, ldcs: i64, batch: i64) -> numgpu_status {
    geqrf_form::<Complex64>("numgpu_zgeqrf_givens_batched", h, m, n, Batch::Array(A as *const *mut Complex64), lda, Batch::Array(CS), ldcs, batch)
}

/// Batched Givens QR of complex double matrices, strided form:
/// `numgpu_sgeqrf_givens_batched_strided` with `numgpu_complex_double` elements and `double`
/// cosines; the same arguments, semantics and errors. Rotations as LAPACK `zlartg`:
/// `[c s; −conj(s) c]`, c real >= 0, s complex.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgeqrf_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    A: *mut numgpu_complex_double,
    lda: i64,
    strideA: i64,
    CS: *mut f64,
    ldcs: i64,
    strideCS: i64,
    batch: i64,
) -> numgpu_status {
    geqrf_form::<Complex64>(
        "numgpu_zgeqrf_givens_batched_strided",
        h,
        m,
        n,
        Batch::Strided { ptr: A as *mut Complex64, stride: strideA },
        lda,
        Batch::Strided { ptr: CS, stride: strideCS },
        ldcs,
        batch,
    )
}

/// Applies the Q of a Givens QR of complex double matrices, pointer-array form:
/// `numgpu_sormqr_givens_batched` with `numgpu_complex_double` elements and `double` cosines
/// (as LAPACK `zunmqr`); the same arguments, semantics and errors. trans is `NUMGPU_OP_N` (Q)
/// or `NUMGPU_OP_C` (Qᴴ); `NUMGPU_OP_T` is an error, as in LAPACK.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zunmqr_givens_batched(
    h: *mut Handle,
    side: SideArg,
    trans: OpArg,
    m: i64,
    n: i64,
    k: i64,
    A: *const *const numgpu_complex_double,
    lda: i64,
    CS: *const *const f64,
    ldcs: i64,
    C: *const *mut numgpu_complex_double,
    ldc: i64,
    batch: i64,
) -> numgpu_status {
    ormqr_form::<Complex64>(
        "numgpu_zunmqr_givens_batched",
        h,
        side,
        trans,
        m,
        n,
        k,
        Batch::Array(A as *const *const Complex64),
        lda,
        Batch::Array(CS),
        ldcs,
        Batch::Array(C as *const *mut Complex64),
        ldc,
        batch,
    )
}

/// Applies the Q of a Givens QR of complex double matrices, strided form:
/// `numgpu_sormqr_givens_batched_strided` with `numgpu_complex_double` elements and `double`
/// cosines (as LAPACK `zunmqr`); the same arguments, semantics and errors. trans is
/// `NUMGPU_OP_N` (Q) or `NUMGPU_OP_C` (Qᴴ); `NUMGPU_OP_T` is an error, as in LAPACK.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zunmqr_givens_batched_strided(
    h: *mut Handle,
    side: SideArg,
    trans: OpArg,
    m: i64,
    n: i64,
    k: i64,
    A: *const numgpu_complex_double,
    lda: i64,
    strideA: i64,
    CS: *const f64,
    ldcs: i64,
    strideCS: i64,
    C: *mut numgpu_complex_double,
    ldc: i64,
    strideC: i64,
    batch: i64,
) -> numgpu_status {
    ormqr_form::<Complex64>(
        "numgpu_zunmqr_givens_batched_strided",
        h,
        side,
        trans,
        m,
        n,
        k,
        Batch::Strided { ptr: A as *const Complex64, stride: strideA },
        lda,
        Batch::Strided { ptr: CS, stride: strideCS },
        ldcs,
        Batch::Strided { ptr: C as *mut Complex64, stride: strideC },
        ldc,
        batch,
    )
}

/// Generates the Q of a Givens QR of complex double matrices, pointer-array form:
/// `numgpu_sorgqr_givens_batched` with `numgpu_complex_double` elements and `double` cosines
/// (as LAPACK `zungqr`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zungqr_givens_batched(
    h: *mut Handle,
    m: i64,
    n: i64,
    k: i64,
    A: *const *mut numgpu_complex_double,
    lda: i64,
    CS: *const *const f64,
    ldcs: i64,
    batch: i64,
) -> numgpu_status {
    orgqr_form::<Complex64>("numgpu_zungqr_givens_batched", h, m, n, k, Batch::Array(A as *const *mut Complex64), lda, Batch::Array(CS), ldcs, batch)
}

/// Generates the Q of a Givens QR of complex double matrices, strided form:
/// `numgpu_sorgqr_givens_batched_strided` with `numgpu_complex_double` elements and `double`
/// cosines (as LAPACK `zungqr`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zungqr_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    k: i64,
    A: *mut numgpu_complex_double,
    lda: i64,
    strideA: i64,
    CS: *const f64,
    ldcs: i64,
    strideCS: i64,
    batch: i64,
) -> numgpu_status {
    orgqr_form::<Complex64>(
        "numgpu_zungqr_givens_batched_strided",
        h,
        m,
        n,
        k,
        Batch::Strided { ptr: A as *mut Complex64, stride: strideA },
        lda,
        Batch::Strided { ptr: CS, stride: strideCS },
        ldcs,
        batch,
    )
}

/// Batched least squares by Givens QR of complex double matrices, pointer-array form:
/// `numgpu_sgels_givens_batched` with `numgpu_complex_double` elements (as LAPACK `zgels`);
/// the same arguments, semantics and errors. B := Qᴴ·B.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgels_givens_batched(
    h: *mut Handle,
    m: i64,
    n: i64,
    nrhs: i64,
    A: *const *mut numgpu_complex_double,
    lda: i64,
    B: *const *mut numgpu_complex_double,
    ldb: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    gels_form::<Complex64>("numgpu_zgels_givens_batched", h, m, n, nrhs, Batch::Array(A as *const *mut Complex64), lda, Batch::Array(B as *const *mut Complex64), ldb, info, batch)
}

/// Batched least squares by Givens QR of complex double matrices, strided form:
/// `numgpu_sgels_givens_batched_strided` with `numgpu_complex_double` elements (as LAPACK
/// `zgels`); the same arguments, semantics and errors. B := Qᴴ·B.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgels_givens_batched_strided(
    h: *mut Handle,
    m: i64,
    n: i64,
    nrhs: i64,
    A: *mut numgpu_complex_double,
    lda: i64,
    strideA: i64,
    B: *mut numgpu_complex_double,
    ldb: i64,
    strideB: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    gels_form::<Complex64>(
        "numgpu_zgels_givens_batched_strided",
        h,
        m,
        n,
        nrhs,
        Batch::Strided { ptr: A as *mut Complex64, stride: strideA },
        lda,
        Batch::Strided { ptr: B as *mut Complex64, stride: strideB },
        ldb,
        info,
        batch,
    )
}
