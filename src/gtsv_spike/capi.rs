#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! `numgpu_{s,d,c,z}gtsv_spike`, `numgpu_{s,d,c,z}gtsv_batched_strided` and
//! `numgpu_{s,d,c,z}gtsv_batched_interleaved`: convert the C arguments and call the family's
//! Rust API.

use super::GtsvPivotingArg;
use super::{gtsv_batched_interleaved, gtsv_batched_strided, gtsv_spike, Pivoting};
use crate::core::error::numgpu_status;
use crate::core::scalar::{numgpu_complex_double, numgpu_complex_float};
use crate::core::Handle;
use crate::ffi::{boundary, deref_mut};
use crate::lapack::Blas;
use num_complex::{Complex32, Complex64};

#[allow(clippy::too_many_arguments)]
unsafe fn spike_form<T: Blas>(name: &str, h: *mut Handle, pivoting: i32, n: i64, nrhs: i64, dl: *const T, d: *const T, du: *const T, b: *mut T, ldb: i64, info: *mut i32) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let pivoting = Pivoting::from_i32(pivoting)?;
        gtsv_spike(h, pivoting, n, nrhs, dl, d, du, b, ldb, info)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn strided_form<T: Blas>(
    name: &str,
    h: *mut Handle,
    pivoting: i32,
    n: i64,
    nrhs: i64,
    dl: *const T,
    d: *const T,
    du: *const T,
    stride_diag: i64,
    b: *mut T,
    ldb: i64,
    stride_b: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let pivoting = Pivoting::from_i32(pivoting)?;
        gtsv_batched_strided(h, pivoting, n, nrhs, dl, d, du, stride_diag, b, ldb, stride_b, info, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn interleaved_form<T: Blas>(name: &str, h: *mut Handle, pivoting: i32, n: i64, dl: *const T, d: *const T, du: *const T, b: *mut T, info: *mut i32, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let pivoting = Pivoting::from_i32(pivoting)?;
        gtsv_batched_interleaved(h, pivoting, n, dl, d, du, b, info, batch)
    })
}

/// Solves one tridiagonal system `T·X = B` of single-precision numbers, as LAPACK `sgtsv`
/// but with the diagonals left unchanged: T is n × n with sub-diagonal `dl`, diagonal `d` and
/// super-diagonal `du` (T(k+1, k) = dl[k−1], T(k, k) = d[k−1], T(k, k+1) = du[k−1], 1-based k);
/// X overwrites B. Made for large n: on CUDA, SPIKE (partitions solved in parallel, then the
/// separators' system, recursively).
///
/// - `h` [in]: handle.
/// - `pivoting` [in]: `NUMGPU_GTSV_DIAG_PIVOT` (diagonal pivoting with 1×1 and 2×2 pivots,
///   stable for non-dominant and indefinite T) or `NUMGPU_GTSV_NOPIVOT` (no pivoting, for
///   diagonally dominant T). The mode selects the CUDA algorithm; the CPU backend always solves
///   with `sgtsv`'s partial pivoting, so there NOPIVOT also solves systems that need pivoting.
/// - `n` [in]: order of T, >= 0.
/// - `nrhs` [in]: columns of B, >= 0.
/// - `dl` [in]: n − 1 entries, the sub-diagonal; not referenced (may be NULL) when n = 1.
///   cuSPARSE's `gtsv2` pads dl and du to n entries (dl[0] = 0, du[n−1] = 0): pass its
///   arrays as `dl + 1` and `du` here.
/// - `d` [in]: n entries, the diagonal.
/// - `du` [in]: n − 1 entries, the super-diagonal; not referenced (may be NULL) when n = 1.
/// - `B` [in,out]: n × nrhs (column-major); on exit X when `*info = 0`, else unchanged.
/// - `ldb` [in]: leading dimension of B, >= max(1, n).
/// - `info` [out]: one entry: 0, or i > 0 when a pivot was exactly zero (T is singular); B is
///   then left unchanged.
///   On the CPU backend i is `sgtsv`'s (U(i, i) exactly zero).
///
/// NaN or Inf in the input is not an error: `info` reports only exactly zero pivots (a NaN
/// pivot is not zero), and the NaN or Inf propagates into X (on the CPU, `sgtsv`'s pivot
/// comparison is false for NaN, so it takes the row interchange and carries the NaN on). n = 0 or nrhs = 0 is success and touches
/// nothing (`info` included). All arrays are host memory, or all are device memory of the
/// handle's device (then the call is enqueued on the handle's stream and returns at once).
/// Results are bitwise reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, negative n or nrhs, ldb
/// too small, NULL array, pivoting out of range, device memory on the CPU backend, arrays in
/// different spaces); nothing is written then. `NOT_SUPPORTED` (extents beyond the address
/// space; on the CPU backend n or nrhs above 2^31 − 1, LAPACK's integers), `ALLOC_FAILED`,
/// `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgtsv_spike(h: *mut Handle, pivoting: GtsvPivotingArg, n: i64, nrhs: i64, dl: *const f32, d: *const f32, du: *const f32, B: *mut f32, ldb: i64, info: *mut i32) -> numgpu_status {
    spike_form::<f32>("numgpu_sgtsv_spike", h, pivoting, n, nrhs, dl, d, du, B, ldb, info)
}

/// Solves a batch of tridiagonal systems `T_i·X_i = B_i` of single-precision numbers, strided
/// form: for i = 0 … batch − 1, T_i's diagonals are `dl + i·stride_diag` (n − 1 entries),
/// `d + i·stride_diag` (n) and `du + i·stride_diag` (n − 1), B_i is `B + i·strideB`; each
/// system as `numgpu_sgtsv_spike` (LAPACK `sgtsv` semantics, diagonals unchanged).
///
/// - `h` [in]: handle.
/// - `pivoting` [in]: as for `numgpu_sgtsv_spike`.
/// - `n` [in]: order of every T_i, >= 0. `nrhs` [in]: columns of every B_i, >= 0.
/// - `dl`, `d`, `du` [in]: the diagonals; dl and du are not referenced (may be NULL) when n = 1.
///   cuSPARSE's `gtsv2StridedBatch` pads dl and du to n entries per system: pass its arrays
///   as `dl + 1` and `du`, its `batchStride` as `stride_diag`.
/// - `stride_diag` [in]: elements between the diagonals of consecutive systems, the same for
///   dl, d and du: 0 (one matrix T for the whole batch) or >= n, when batch > 1.
/// - `B` [in,out]: the n × nrhs right-hand sides, on exit X_i where `info[i] = 0` (B_i
///   unchanged elsewhere).
/// - `ldb` [in]: >= max(1, n).
/// - `strideB` [in]: elements between consecutive B_i, >= ldb·nrhs when batch > 1 (they must
///   not overlap).
/// - `info` [out]: `batch` entries, each as the `info` of `numgpu_sgtsv_spike`.
/// - `batch` [in]: number of systems, >= 0.
///
/// A singular or non-finite system affects only its own B_i and info[i]. n, nrhs or batch = 0
/// is success and touches nothing. Spaces, reproducibility and errors as `numgpu_sgtsv_spike`,
/// plus `INVALID_VALUE` for the strides and a negative batch.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgtsv_batched_strided(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    nrhs: i64,
    dl: *const f32,
    d: *const f32,
    du: *const f32,
    stride_diag: i64,
    B: *mut f32,
    ldb: i64,
    strideB: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    strided_form::<f32>("numgpu_sgtsv_batched_strided", h, pivoting, n, nrhs, dl, d, du, stride_diag, B, ldb, strideB, info, batch)
}

/// Solves a batch of tridiagonal systems `T_i·x_i = b_i` of single-precision numbers with one
/// right-hand side each, interleaved layout (coalesced on the GPU, as in ADI codes: a thread per
/// system, or for a batch too small to fill the GPU a thread per partition of 17 rows, with
/// diagonal pivoting only for the systems diagonally dominant by rows, the others whole): entry
/// k (0-based) of system i's arrays is at index `k·batch + i`, so each array is a
/// row-major `rows × batch` array, or a Fortran `X(batch, rows)`. The diagonals are LAPACK's,
/// as in every gtsv form: d and B hold n entries per system, dl and du n − 1:
/// T_i(k+1, k) = dl[k·batch + i] and T_i(k, k+1) = du[k·batch + i] for k = 0 … n−2,
/// T_i(k, k) = d[k·batch + i] for k = 0 … n−1.
///
/// cuSPARSE's `gtsvInterleavedBatch` pads dl and du to n entries per system (its dl's first
/// row and du's last row are zero): pass its arrays as `dl + batch` and `du` here.
///
/// - `h` [in]: handle.
/// - `pivoting` [in]: as for `numgpu_sgtsv_spike`.
/// - `n` [in]: order of every T_i, >= 0.
/// - `dl` [in]: (n − 1)·batch entries, the sub-diagonals, as above; not referenced (may be
///   NULL) when n = 1.
/// - `d` [in]: n·batch entries, the diagonals.
/// - `du` [in]: (n − 1)·batch entries, the super-diagonals; not referenced (may be NULL) when
///   n = 1.
/// - `B` [in,out]: n·batch entries, b_i(k) = B[k·batch + i]; on exit x_i where `info[i] = 0`
///   (b_i unchanged elsewhere).
/// - `info` [out]: `batch` entries, each as the `info` of `numgpu_sgtsv_spike`.
/// - `batch` [in]: number of systems, >= 0.
///
/// n or batch = 0 is success and touches nothing. Spaces, reproducibility and errors as
/// `numgpu_sgtsv_spike`, plus `INVALID_VALUE` for a negative batch.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sgtsv_batched_interleaved(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    dl: *const f32,
    d: *const f32,
    du: *const f32,
    B: *mut f32,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    interleaved_form::<f32>("numgpu_sgtsv_batched_interleaved", h, pivoting, n, dl, d, du, B, info, batch)
}

/// Solves one tridiagonal system of double-precision numbers: `numgpu_sgtsv_spike` with
/// `double` elements (as LAPACK `dgtsv`, diagonals unchanged); the same arguments, semantics
/// and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgtsv_spike(h: *mut Handle, pivoting: GtsvPivotingArg, n: i64, nrhs: i64, dl: *const f64, d: *const f64, du: *const f64, B: *mut f64, ldb: i64, info: *mut i32) -> numgpu_status {
    spike_form::<f64>("numgpu_dgtsv_spike", h, pivoting, n, nrhs, dl, d, du, B, ldb, info)
}

/// Solves a strided batch of tridiagonal systems of double-precision numbers:
/// `numgpu_sgtsv_batched_strided` with `double` elements; the same arguments, semantics and
/// errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgtsv_batched_strided(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    nrhs: i64,
    dl: *const f64,
    d: *const f64,
    du: *const f64,
    stride_diag: i64,
    B: *mut f64,
    ldb: i64,
    strideB: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    strided_form::<f64>("numgpu_dgtsv_batched_strided", h, pivoting, n, nrhs, dl, d, du, stride_diag, B, ldb, strideB, info, batch)
}

/// Solves an interleaved batch of tridiagonal systems of double-precision numbers:
/// `numgpu_sgtsv_batched_interleaved` with `double` elements; the same layout, arguments,
/// semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dgtsv_batched_interleaved(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    dl: *const f64,
    d: *const f64,
    du: *const f64,
    B: *mut f64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    interleaved_form::<f64>("numgpu_dgtsv_batched_interleaved", h, pivoting, n, dl, d, du, B, info, batch)
}

/// Solves one tridiagonal system of complex float numbers: `numgpu_sgtsv_spike` with
/// `numgpu_complex_float` elements (as LAPACK `cgtsv`, diagonals unchanged; pivots compared by
/// |re| + |im| on the CPU, as `cgtsv`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgtsv_spike(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    nrhs: i64,
    dl: *const numgpu_complex_float,
    d: *const numgpu_complex_float,
    du: *const numgpu_complex_float,
    B: *mut numgpu_complex_float,
    ldb: i64,
    info: *mut i32,
) -> numgpu_status {
    spike_form::<Complex32>("numgpu_cgtsv_spike", h, pivoting, n, nrhs, dl as _, d as _, du as _, B as _, ldb, info)
}

/// Solves a strided batch of tridiagonal systems of complex float numbers:
/// `numgpu_sgtsv_batched_strided` with `numgpu_complex_float` elements; the same arguments,
/// semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgtsv_batched_strided(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    nrhs: i64,
    dl: *const numgpu_complex_float,
    d: *const numgpu_complex_float,
    du: *const numgpu_complex_float,
    stride_diag: i64,
    B: *mut numgpu_complex_float,
    ldb: i64,
    strideB: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    strided_form::<Complex32>(
        "numgpu_cgtsv_batched_strided",
        h,
        pivoting,
        n,
        nrhs,
        dl as _,
        d as _,
        du as _,
        stride_diag,
        B as _,
        ldb,
        strideB,
        info,
        batch,
    )
}

/// Solves an interleaved batch of tridiagonal systems of complex float numbers:
/// `numgpu_sgtsv_batched_interleaved` with `numgpu_complex_float` elements; the same layout,
/// arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cgtsv_batched_interleaved(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    dl: *const numgpu_complex_float,
    d: *const numgpu_complex_float,
    du: *const numgpu_complex_float,
    B: *mut numgpu_complex_float,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    interleaved_form::<Complex32>("numgpu_cgtsv_batched_interleaved", h, pivoting, n, dl as _, d as _, du as _, B as _, info, batch)
}

/// Solves one tridiagonal system of complex double numbers: `numgpu_sgtsv_spike` with
/// `numgpu_complex_double` elements (as LAPACK `zgtsv`, diagonals unchanged; pivots compared by
/// |re| + |im| on the CPU, as `zgtsv`); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgtsv_spike(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    nrhs: i64,
    dl: *const numgpu_complex_double,
    d: *const numgpu_complex_double,
    du: *const numgpu_complex_double,
    B: *mut numgpu_complex_double,
    ldb: i64,
    info: *mut i32,
) -> numgpu_status {
    spike_form::<Complex64>("numgpu_zgtsv_spike", h, pivoting, n, nrhs, dl as _, d as _, du as _, B as _, ldb, info)
}

/// Solves a strided batch of tridiagonal systems of complex double numbers:
/// `numgpu_sgtsv_batched_strided` with `numgpu_complex_double` elements; the same arguments,
/// semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgtsv_batched_strided(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    nrhs: i64,
    dl: *const numgpu_complex_double,
    d: *const numgpu_complex_double,
    du: *const numgpu_complex_double,
    stride_diag: i64,
    B: *mut numgpu_complex_double,
    ldb: i64,
    strideB: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    strided_form::<Complex64>(
        "numgpu_zgtsv_batched_strided",
        h,
        pivoting,
        n,
        nrhs,
        dl as _,
        d as _,
        du as _,
        stride_diag,
        B as _,
        ldb,
        strideB,
        info,
        batch,
    )
}

/// Solves an interleaved batch of tridiagonal systems of complex double numbers:
/// `numgpu_sgtsv_batched_interleaved` with `numgpu_complex_double` elements; the same layout,
/// arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zgtsv_batched_interleaved(
    h: *mut Handle,
    pivoting: GtsvPivotingArg,
    n: i64,
    dl: *const numgpu_complex_double,
    d: *const numgpu_complex_double,
    du: *const numgpu_complex_double,
    B: *mut numgpu_complex_double,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    interleaved_form::<Complex64>("numgpu_zgtsv_batched_interleaved", h, pivoting, n, dl as _, d as _, du as _, B as _, info, batch)
}
