#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! `numgpu_{s,d}stebz_batched` and `numgpu_{s,d}stecount_batched`: convert the C arguments
//! and call the family's Rust API.

use super::StebzRangeArg;
use super::{stebz_batched, stecount_batched};
use crate::core::error::numgpu_status;
use crate::core::Handle;
use crate::ffi::{boundary, deref_mut};
use crate::lapack::RealLapack;

#[allow(clippy::too_many_arguments)]
unsafe fn stebz_form<T: RealLapack>(
    name: &str,
    h: *mut Handle,
    range: i32,
    n: i64,
    vl: T,
    vu: T,
    il: i64,
    iu: i64,
    abstol: T,
    d: *const T,
    stride_d: i64,
    e: *const T,
    stride_e: i64,
    m: *mut i64,
    w: *mut T,
    stride_w: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        stebz_batched(h, range, n, vl, vu, il, iu, abstol, d, stride_d, e, stride_e, m, w, stride_w, info, batch)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn stecount_form<T: RealLapack>(name: &str, h: *mut Handle, n: i64, nmu: i64, d: *const T, stride_d: i64, e: *const T, stride_e: i64, mu: *const T, count: *mut i64, batch: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        stecount_batched(h, n, nmu, d, stride_d, e, stride_e, mu, count, batch)
    })
}

/// Computes eigenvalues of a batch of real symmetric tridiagonal matrices of single-precision
/// numbers by bisection, as LAPACK `sstebz` with ORDER = 'E': for i = 0 … batch − 1, T_i is
/// n × n with diagonal `d + i·strideD` (n entries) and off-diagonal `e + i·strideE` (n − 1
/// entries, T_i(k+1, k) = T_i(k, k+1) = e[k−1], 1-based k). On CUDA, a block per matrix (or,
/// for a large matrix, the index range spread over many blocks).
///
/// - `h` [in]: handle.
/// - `range` [in]: `NUMGPU_STEBZ_ALL` (every eigenvalue), `NUMGPU_STEBZ_VALUE` (those in the
///   half-open interval (vl, vu]) or `NUMGPU_STEBZ_INDEX` (the il-th through iu-th smallest).
/// - `n` [in]: order of every T_i, >= 0.
/// - `vl`, `vu` [in]: the interval for `NUMGPU_STEBZ_VALUE`, vl < vu; not referenced otherwise.
/// - `il`, `iu` [in]: the indices for `NUMGPU_STEBZ_INDEX`, 1 <= il <= iu <= n (il = 1,
///   iu = 0 when n = 0); not referenced otherwise.
/// - `abstol` [in]: absolute tolerance: an eigenvalue is the midpoint of an interval (a, b]
///   narrower than max(abstol, pivmin, 2·ulp·max(|a|, |b|)); abstol <= 0 selects LAPACK's
///   default ulp·max(|gl|, |gu|) (gl, gu: the Gershgorin bounds of T_i). Finite.
/// - `d` [in]: the diagonals.
/// - `strideD` [in]: elements between consecutive diagonals: 0 (one T for the whole batch) or
///   >= n, when batch > 1.
/// - `e` [in]: the off-diagonals; not referenced (may be NULL) when n = 1.
/// - `strideE` [in]: elements between consecutive off-diagonals: 0 or >= n − 1, when
///   batch > 1.
/// - `m` [out]: `batch` entries: the number of eigenvalues found for T_i (iu − il + 1 for
///   INDEX, the number in (vl, vu] for VALUE, n for ALL; 0 when info[i] = n + 1).
/// - `w` [out]: n entries per matrix at `w + i·strideW`: the m[i] eigenvalues, ascending;
///   entries m[i] … n − 1 are not written.
/// - `strideW` [in]: elements between consecutive w_i, >= n when batch > 1.
/// - `info` [out]: `batch` entries: 0; k in 1 … n when k eigenvalues of the range were not
///   computed to the tolerance (bisection did not converge in its iteration limit, or, CPU
///   backend, `sstebz` could not resolve the index range: its info 2 and 4); n + 1 when T_i has
///   a NaN or an Inf (or an e[k] whose square overflows): then m[i] = 0 and w_i is not
///   written.
/// - `batch` [in]: number of matrices, >= 0.
///
/// Eigenvalues are accurate to about the tolerance plus a few ulp·‖T_i‖ (bisection with Sturm
/// counts is backward stable); T_i is split where e[k]² <= ulp²·|d[k]·d[k+1]| + safmin, as in
/// `sstebz`. A bad matrix affects only its own m, w and info. n = 0 or batch = 0 is success and
/// touches nothing. All arrays are host memory, or all are device memory of the handle's device
/// (then the call is enqueued on the handle's stream and returns at once, for every range:
/// with NUMGPU_STEBZ_VALUE each block counts at vl and vu itself). Results are bitwise
/// reproducible on the same device; the CPU backend's are `sstebz`'s.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, range out of range,
/// negative n or batch, vl >= vu or NaN for VALUE, il or iu out of range for INDEX, abstol not
/// finite, NULL array, strides too small, device memory on the CPU backend, arrays in different
/// spaces); nothing is written then. `NOT_SUPPORTED` (n above 2^31 − 1, extents beyond the
/// address space), `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sstebz_batched(
    h: *mut Handle,
    range: StebzRangeArg,
    n: i64,
    vl: f32,
    vu: f32,
    il: i64,
    iu: i64,
    abstol: f32,
    d: *const f32,
    strideD: i64,
    e: *const f32,
    strideE: i64,
    m: *mut i64,
    w: *mut f32,
    strideW: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    stebz_form::<f32>("numgpu_sstebz_batched", h, range, n, vl, vu, il, iu, abstol, d, strideD, e, strideE, m, w, strideW, info, batch)
}

/// Computes eigenvalues of a batch of real symmetric tridiagonal matrices of double-precision
/// numbers by bisection: `numgpu_sstebz_batched` with `double` elements (as LAPACK `dstebz`);
/// the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dstebz_batched(
    h: *mut Handle,
    range: StebzRangeArg,
    n: i64,
    vl: f64,
    vu: f64,
    il: i64,
    iu: i64,
    abstol: f64,
    d: *const f64,
    strideD: i64,
    e: *const f64,
    strideE: i64,
    m: *mut i64,
    w: *mut f64,
    strideW: i64,
    info: *mut i32,
    batch: i64,
) -> numgpu_status {
    stebz_form::<f64>("numgpu_dstebz_batched", h, range, n, vl, vu, il, iu, abstol, d, strideD, e, strideE, m, w, strideW, info, batch)
}

/// Counts eigenvalues of a batch of real symmetric tridiagonal matrices of single-precision
/// numbers below given shifts (Sturm counts): `count[j + i·nmu]` = the number of eigenvalues
/// of T_i below mu[j], for i = 0 … batch − 1 and j = 0 … nmu − 1; T_i as for
/// `numgpu_sstebz_batched`.
///
/// The count is the number of negative pivots of T_i − mu[j]·I = L·D·Lᵀ with LAPACK's guard
/// (a pivot of magnitude below pivmin = safmin·max(1, max e[k]²) is taken as −pivmin) and
/// `sstebz`'s splitting: the count `sstebz`'s bisection sees. It is the exact count of a
/// matrix whose off-diagonal entries differ from T_i's by a few ulp (Kahan), so it is exact
/// for shifts farther than a few ulp·‖T_i‖ from every eigenvalue; an eigenvalue equal to
/// mu[j] (within that) may be counted as below it.
///
/// - `h` [in]: handle.
/// - `n` [in]: order of every T_i, >= 0.
/// - `nmu` [in]: number of shifts, >= 0.
/// - `d`, `strideD`, `e`, `strideE` [in]: the matrices, as for `numgpu_sstebz_batched`.
/// - `mu` [in]: the nmu shifts, the same for every matrix (±Inf allowed).
/// - `count` [out]: nmu·batch entries, as above; −1 where T_i has a NaN or an Inf (or an
///   e[k] whose square overflows) or mu[j] is NaN.
/// - `batch` [in]: number of matrices, >= 0.
///
/// n, nmu or batch = 0 is success and touches nothing. Spaces, reproducibility and errors as
/// `numgpu_sstebz_batched` (the CPU backend's counts are the same bits as the CUDA
/// backend's), plus `INVALID_VALUE` for a negative nmu and NULL mu or count.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sstecount_batched(h: *mut Handle, n: i64, nmu: i64, d: *const f32, strideD: i64, e: *const f32, strideE: i64, mu: *const f32, count: *mut i64, batch: i64) -> numgpu_status {
    stecount_form::<f32>("numgpu_sstecount_batched", h, n, nmu, d, strideD, e, strideE, mu, count, batch)
}

/// Counts eigenvalues of a batch of real symmetric tridiagonal matrices of double-precision
/// numbers below given shifts: `numgpu_sstecount_batched` with `double` elements; the same
/// arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dstecount_batched(h: *mut Handle, n: i64, nmu: i64, d: *const f64, strideD: i64, e: *const f64, strideE: i64, mu: *const f64, count: *mut i64, batch: i64) -> numgpu_status {
    stecount_form::<f64>("numgpu_dstecount_batched", h, n, nmu, d, strideD, e, strideE, mu, count, batch)
}
