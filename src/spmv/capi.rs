#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract; the real-precision forms keep the casts that the
// complex forms need, so the four read alike.
#![allow(clippy::missing_safety_doc, clippy::unnecessary_cast)]
//! `numgpu_{s,d,c,z}csrmv`, and the CMRS object: `numgpu_{s,d}cmrs_create`,
//! `numgpu_{s,d}cmrs_update_values`, `numgpu_{s,d}cmrsmv`, `numgpu_cmrs_info`,
//! `numgpu_cmrs_destroy`, and the CSR plan: `numgpu_csr_plan_create`,
//! `numgpu_{s,d,c,z}csrmv_plan`, `numgpu_csr_plan_info`, `numgpu_csr_plan_destroy`: convert
//! the C arguments and call the family's Rust API.

use crate::core::op::OpArg;
use crate::core::index_base::IndexBaseArg;
use super::{cmrs_create, cmrs_update_values, cmrsmv, csr_plan_create, csrmv, csrmv_plan, CmrsMatrix, CmrsScalar, CsrPlan};
use crate::ffi::live::Live;
use std::ffi::c_void;
use crate::core::error::{numgpu_status, Error};
use crate::core::scalar::{numgpu_complex_double, numgpu_complex_float};
use crate::core::{Handle, Op, Scalar};
use crate::ffi::{boundary, deref, deref_mut};
use num_complex::{Complex32, Complex64};

#[allow(clippy::too_many_arguments)]
unsafe fn csrmv_form<T: Scalar>(
    name: &str,
    h: *mut Handle,
    trans: i32,
    m: i64,
    n: i64,
    nnz: i64,
    alpha: T::Abi,
    val: *const T::Abi,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: i32,
    x: *const T::Abi,
    beta: T::Abi,
    y: *mut T::Abi,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let trans = Op::from_i32(trans, "trans")?;
        csrmv::<T>(h, trans, m, n, nnz, T::from_abi(alpha), val as *const T, row_ptr, col_ind, index_base, x as *const T, T::from_abi(beta), y as *mut T)
    })
}

/// Sparse matrix–vector product, single precision: `y := alpha·op(A)·x + beta·y` with A an
/// m × n matrix in CSR (compressed sparse row) storage, as BLAS `sgemv` would with a sparse A.
///
/// - `h` [in]: handle.
/// - `trans` [in]: `NUMGPU_OP_N` (op(A) = A: x has n entries, y has m), `NUMGPU_OP_T` or
///   `NUMGPU_OP_C` (op(A) = Aᵀ: x has m entries, y has n).
/// - `m`, `n` [in]: rows and columns of A, >= 0.
/// - `nnz` [in]: stored entries, 0 <= nnz <= 2^31 − 1 − index_base.
/// - `alpha` [in]: scalar. When 0, val, row_ptr, col_ind and x are not read (may be NULL).
/// - `val` [in]: nnz values (NULL allowed when nnz = 0).
/// - `row_ptr` [in]: m + 1 offsets: row i's entries are `row_ptr[i] − index_base` up to
///   `row_ptr[i+1] − index_base` (exclusive). Rows may be empty.
/// - `col_ind` [in]: nnz column indices, `index_base`-based; within a row in any order,
///   duplicates allowed (they add up). The matrix is the entries up to row_ptr[m]: entries
///   of val and col_ind from `row_ptr[m] − index_base` to nnz are never read, so never
///   checked.
/// - `index_base` [in]: `NUMGPU_INDEX_BASE_ZERO` (C) or `NUMGPU_INDEX_BASE_ONE` (Fortran) for
///   row_ptr and col_ind.
/// - `x` [in]: op(A)'s columns: n entries for N, m for T and C.
/// - `beta` [in]: scalar. When 0, y is not read (NaN in y does not propagate).
/// - `y` [in,out]: op(A)'s rows: m entries for N, n for T and C.
///
/// m or n = 0, and alpha = 0 with beta = 1, are success and touch nothing. All arrays are
/// host memory, or all device memory of the handle's device: host arrays on the CUDA backend
/// are staged and the call returns when y is written; device arrays are enqueued on the
/// handle's stream and the call returns at once (`numgpu_synchronize` waits).
///
/// Op N is bitwise reproducible on the same device (each row summed in a fixed order). Op T
/// and C are a scatter: the CPU backend adds the products into y row by row, reproducibly;
/// the CUDA backend adds them with atomics (no transpose is formed or cached), so its
/// results may differ in the last bits from call to call.
///
/// Bad structure (a row with `row_ptr[i] > row_ptr[i+1]` or outside
/// `[index_base, nnz + index_base]`, a column index outside `[index_base, n + index_base)`)
/// is never read out of bounds: it is `INVALID_VALUE` naming row_ptr or col_ind and the first
/// bad row or entry. The CPU backend, and host arrays on the CUDA backend, check before
/// writing y. On device arrays the CUDA kernel skips bad entries (y may then be partly
/// updated) and the next `numgpu_synchronize` (or the next call on the handle that waits for
/// its stream) returns the error; with the environment variable `NUMGPU_CHECK_INPUTS=1` the
/// structure is checked first and this call returns it with y untouched.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, trans out of range,
/// negative size, nnz too large, index_base not 0 or 1, a NULL array that would be read, bad
/// structure, device memory on the CPU backend, arrays in different spaces); nothing is
/// written then (but see bad structure on device arrays). `NOT_SUPPORTED` (extents beyond the
/// address space), `ALLOC_FAILED` (staging workspace), `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_scsrmv(
    h: *mut Handle,
    trans: OpArg,
    m: i64,
    n: i64,
    nnz: i64,
    alpha: f32,
    val: *const f32,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: IndexBaseArg,
    x: *const f32,
    beta: f32,
    y: *mut f32,
) -> numgpu_status {
    csrmv_form::<f32>("numgpu_scsrmv", h, trans, m, n, nnz, alpha, val, row_ptr, col_ind, index_base, x, beta, y)
}

/// Sparse matrix–vector product, double precision: `numgpu_scsrmv` with double values and
/// scalars; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dcsrmv(
    h: *mut Handle,
    trans: OpArg,
    m: i64,
    n: i64,
    nnz: i64,
    alpha: f64,
    val: *const f64,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: IndexBaseArg,
    x: *const f64,
    beta: f64,
    y: *mut f64,
) -> numgpu_status {
    csrmv_form::<f64>("numgpu_dcsrmv", h, trans, m, n, nnz, alpha, val, row_ptr, col_ind, index_base, x, beta, y)
}

/// Sparse matrix–vector product, single-precision complex: `numgpu_scsrmv` with
/// `numgpu_complex_float` values and scalars; `NUMGPU_OP_C` conjugates A's values.
#[no_mangle]
pub unsafe extern "C" fn numgpu_ccsrmv(
    h: *mut Handle,
    trans: OpArg,
    m: i64,
    n: i64,
    nnz: i64,
    alpha: numgpu_complex_float,
    val: *const numgpu_complex_float,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: IndexBaseArg,
    x: *const numgpu_complex_float,
    beta: numgpu_complex_float,
    y: *mut numgpu_complex_float,
) -> numgpu_status {
    csrmv_form::<Complex32>("numgpu_ccsrmv", h, trans, m, n, nnz, alpha, val, row_ptr, col_ind, index_base, x, beta, y)
}

/// Sparse matrix–vector product, double-precision complex: `numgpu_scsrmv` with
/// `numgpu_complex_double` values and scalars; `NUMGPU_OP_C` conjugates A's values.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zcsrmv(
    h: *mut Handle,
    trans: OpArg,
    m: i64,
    n: i64,
    nnz: i64,
    alpha: numgpu_complex_double,
    val: *const numgpu_complex_double,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: IndexBaseArg,
    x: *const numgpu_complex_double,
    beta: numgpu_complex_double,
    y: *mut numgpu_complex_double,
) -> numgpu_status {
    csrmv_form::<Complex64>("numgpu_zcsrmv", h, trans, m, n, nnz, alpha, val, row_ptr, col_ind, index_base, x, beta, y)
}

#[allow(clippy::too_many_arguments)]
unsafe fn create_form<T: CmrsScalar>(
    name: &str,
    h: *mut Handle,
    m: i64,
    n: i64,
    nnz: i64,
    val: *const T,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: i32,
    height: i64,
    lanes: i64,
    a: *mut *mut CmrsMatrix,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let out = deref_mut(a, "A")?;
        let made = cmrs_create::<T>(h, m, n, nnz, val, row_ptr, col_ind, index_base, height, lanes)?;
        *out = Box::into_raw(Box::new(made));
        Ok(())
    })
}

/// Converts a single-precision CSR matrix (as `numgpu_scsrmv` takes it) to a CMRS matrix
/// (Compressed Multi-Row Storage), to be multiplied many times by `numgpu_scmrsmv`. The
/// object's data lives on the handle's backend (host memory, or memory of the handle's CUDA
/// device) and is independent of the input arrays, which may be freed after the call.
///
/// CMRS groups rows in strips of `height` rows, each processed by one warp; every stored
/// element packs its column and its row within the strip as `(col << 4) | r`. Within each
/// 32-element chunk of a strip a row's entries form one run of at most M lanes, so the warp
/// keeps M partial sums per row in shared memory; strips are padded to multiples of 32
/// elements (padding is skipped by the product and touches no row or entry of x).
/// `numgpu_cmrs_info` reports the padding.
///
/// - `h` [in]: handle.
/// - `m`, `n` [in]: rows and columns, >= 0; n < 2^28 (else `NOT_SUPPORTED`: 28 bits hold the
///   column).
/// - `nnz` [in]: stored entries, 0 <= nnz <= 2^31 − 1 − index_base.
/// - `val` [in]: nnz values (NULL allowed when nnz = 0).
/// - `row_ptr` [in]: m + 1 offsets, as `numgpu_scsrmv`.
/// - `col_ind` [in]: nnz column indices, as `numgpu_scsrmv` (any order, duplicates allowed).
/// - `index_base` [in]: `NUMGPU_INDEX_BASE_ZERO` or `NUMGPU_INDEX_BASE_ONE`.
/// - `height` [in]: rows per strip: 0 (16) or 1 … 16.
/// - `M` [in]: partial sums per row: 0 (chosen: the one of 2, 4, 8 that pads least), 2, 4
///   or 8.
/// - `A` [out]: receives the new matrix; written only on success. Release it with
///   `numgpu_cmrs_destroy`.
///
/// The structure is always validated (on the host; device arrays are copied there first).
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or A, negative size,
/// nnz too large, index_base, height or M out of range, NULL array, bad structure as for
/// `numgpu_scsrmv`, device memory on the CPU backend, arrays in different spaces);
/// `NOT_SUPPORTED` (n >= 2^28, extents beyond the address space); `ALLOC_FAILED`,
/// `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_scmrs_create(
    h: *mut Handle,
    m: i64,
    n: i64,
    nnz: i64,
    val: *const f32,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: IndexBaseArg,
    height: i64,
    M: i64,
    A: *mut *mut CmrsMatrix,
) -> numgpu_status {
    create_form::<f32>("numgpu_scmrs_create", h, m, n, nnz, val, row_ptr, col_ind, index_base, height, M, A)
}

/// Converts a double-precision CSR matrix to a CMRS matrix: `numgpu_scmrs_create` with double
/// values; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dcmrs_create(
    h: *mut Handle,
    m: i64,
    n: i64,
    nnz: i64,
    val: *const f64,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: IndexBaseArg,
    height: i64,
    M: i64,
    A: *mut *mut CmrsMatrix,
) -> numgpu_status {
    create_form::<f64>("numgpu_dcmrs_create", h, m, n, nnz, val, row_ptr, col_ind, index_base, height, M, A)
}

unsafe fn update_form<T: CmrsScalar>(name: &str, h: *mut Handle, a: *mut CmrsMatrix, val: *const T) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let a = deref_mut(a, "A")?;
        cmrs_update_values::<T>(h, a, val)
    })
}

/// Replaces the values of a single-precision CMRS matrix, keeping its pattern: `val` holds nnz
/// values in the order of the CSR arrays A was created from.
///
/// - `h` [in]: a handle of A's backend (and CUDA device).
/// - `A` [in,out]: a matrix from `numgpu_scmrs_create`.
/// - `val` [in]: nnz values, host memory or device memory of the handle's device (not read,
///   and may be NULL, when nnz = 0).
///
/// Host values on the CUDA backend are copied before the call returns; device values are
/// gathered by a kernel enqueued on the handle's stream.
///
/// Errors: `INVALID_VALUE` (NULL handle, A or val; A of the other precision or of another
/// backend or device; device memory on the CPU backend), nothing written then;
/// `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_scmrs_update_values(h: *mut Handle, A: *mut CmrsMatrix, val: *const f32) -> numgpu_status {
    update_form::<f32>("numgpu_scmrs_update_values", h, A, val)
}

/// Replaces the values of a double-precision CMRS matrix: `numgpu_scmrs_update_values` with
/// double values; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dcmrs_update_values(h: *mut Handle, A: *mut CmrsMatrix, val: *const f64) -> numgpu_status {
    update_form::<f64>("numgpu_dcmrs_update_values", h, A, val)
}

unsafe fn cmrsmv_form<T: CmrsScalar>(name: &str, h: *mut Handle, alpha: T, a: *const CmrsMatrix, x: *const T, beta: T, y: *mut T) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        let a = deref(a, "A")?;
        cmrsmv::<T>(h, alpha, a, x, beta, y)
    })
}

/// `y := alpha·A·x + beta·y` with a single-precision CMRS matrix A (m × n): a warp per strip,
/// M partial sums per row in shared memory, added in a fixed order, one coalesced write of
/// the strip's rows. Only op(A) = A (transpose a CSR matrix with `numgpu_scsrmv`).
///
/// - `h` [in]: a handle of A's backend (and CUDA device).
/// - `alpha` [in]: scalar; when 0, A and x are not read (x may be NULL).
/// - `A` [in]: a matrix from `numgpu_scmrs_create`.
/// - `x` [in]: n entries.
/// - `beta` [in]: scalar; when 0, y is not read.
/// - `y` [in,out]: m entries.
///
/// m or n = 0, and alpha = 0 with beta = 1, are success and touch nothing. x and y are both
/// host memory or both device memory of the handle's device (then the call is enqueued on the
/// handle's stream and returns at once). Bitwise reproducible, and the CPU backend computes
/// the same sums in the same order.
///
/// Errors: `INVALID_VALUE` (NULL handle, A, x or y; A of the other precision or of another
/// backend or device; device memory on the CPU backend; x and y in different spaces), nothing
/// written then; `ALLOC_FAILED` (staging), `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_scmrsmv(h: *mut Handle, alpha: f32, A: *const CmrsMatrix, x: *const f32, beta: f32, y: *mut f32) -> numgpu_status {
    cmrsmv_form::<f32>("numgpu_scmrsmv", h, alpha, A, x, beta, y)
}

/// `y := alpha·A·x + beta·y` with a double-precision CMRS matrix: `numgpu_scmrsmv` with
/// double values and scalars; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dcmrsmv(h: *mut Handle, alpha: f64, A: *const CmrsMatrix, x: *const f64, beta: f64, y: *mut f64) -> numgpu_status {
    cmrsmv_form::<f64>("numgpu_dcmrsmv", h, alpha, A, x, beta, y)
}

/// What a CMRS matrix chose when it was built.
///
/// - `A` [in]: a matrix from `numgpu_?cmrs_create`.
/// - `height` [out]: rows per strip (NULL: not written).
/// - `M` [out]: partial sums per row, 2, 4 or 8 (NULL: not written).
/// - `padding_ratio` [out]: padding elements per stored entry, (stored − nnz) / nnz, 0 when
///   nnz = 0 (NULL: not written).
///
/// Errors: `INVALID_VALUE` (A is NULL), nothing written then.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cmrs_info(A: *const CmrsMatrix, height: *mut i64, M: *mut i64, padding_ratio: *mut f64) -> numgpu_status {
    boundary("numgpu_cmrs_info", || {
        let a = deref(A, "A")?;
        if let Some(p) = height.as_mut() {
            *p = a.height() as i64;
        }
        if let Some(p) = M.as_mut() {
            *p = a.lanes() as i64;
        }
        if let Some(p) = padding_ratio.as_mut() {
            *p = a.padding_ratio();
        }
        Ok(())
    })
}

/// Releases a CMRS matrix and its memory (on the CUDA backend after waiting for the device,
/// so work still using it finishes first). NULL is a no-op.
///
/// - `A` [in]: a matrix from `numgpu_?cmrs_create`, not used afterwards.
///
/// Errors: none beyond `INTERNAL_ERROR`; a CUDA failure while freeing is ignored.
#[no_mangle]
pub unsafe extern "C" fn numgpu_cmrs_destroy(A: *mut CmrsMatrix) -> numgpu_status {
    boundary("numgpu_cmrs_destroy", || {
        if !A.is_null() {
            drop(Box::from_raw(A));
        }
        Ok::<(), Error>(())
    })
}

/// The plans `numgpu_csr_plan_create` made that `numgpu_csr_plan_destroy` has not released: a
/// destroyed plan passed to a product is refused.
static LIVE_PLANS: Live = Live::new();

/// The message for a plan pointer that is not live.
const NOT_LIVE: &str = "(plan) is not a live plan: destroyed already, or not made by numgpu_csr_plan_create";

/// `&*p` for a live plan: `INVALID_VALUE` naming `plan` when NULL or not live.
unsafe fn live<'a>(p: *const CsrPlan) -> crate::Result<&'a CsrPlan> {
    if !p.is_null() && !LIVE_PLANS.contains(p) {
        return Err(Error::arg("plan", NOT_LIVE));
    }
    deref(p, "plan")
}

/// Builds a CSR plan: the structure of an m × n matrix A in CSR (as `numgpu_scsrmv` takes it,
/// without values) and the op, validated, analysed and laid out once for any number of
/// products `numgpu_?csrmv_plan` (any precision, any values with this structure), as
/// cuSPARSE's SpMV buffer or MKL's inspector-executor. The plan holds a 0-based copy of the
/// structure (for `NUMGPU_OP_T`/`NUMGPU_OP_C` the transposed structure, CSC, with each entry's
/// position in val: 12 bytes per entry instead of 4), the kernel chosen from op(A)'s mean row
/// length, and a partition of op(A)'s rows into that kernel's work units (up to 256 rows whose
/// entries fit a tile of 2048, or about 4096 rows + entries; rows longer than a unit are split
/// into pieces whose sums a fix-up adds in a fixed order). Its data lives on the handle's backend (host
/// memory, or memory of the handle's CUDA device) and is independent of the input arrays,
/// which may be freed after the call. The call returns when the plan is ready.
///
/// - `h` [in]: handle.
/// - `trans` [in]: the op the plan's products compute: `NUMGPU_OP_N`, `NUMGPU_OP_T` or
///   `NUMGPU_OP_C`.
/// - `m`, `n` [in]: rows and columns of A, >= 0.
/// - `nnz` [in]: stored entries, 0 <= nnz <= 2^31 − 1 − index_base.
/// - `row_ptr` [in]: m + 1 offsets, as `numgpu_scsrmv`.
/// - `col_ind` [in]: nnz column indices, as `numgpu_scsrmv` (any order within a row,
///   duplicates allowed; NULL allowed when nnz = 0).
/// - `index_base` [in]: `NUMGPU_INDEX_BASE_ZERO` or `NUMGPU_INDEX_BASE_ONE`.
/// - `hints` [in]: must be 0 (every bit is reserved for future hints).
/// - `plan` [out]: receives the plan, written only on success; release it with
///   `numgpu_csr_plan_destroy`.
///
/// row_ptr and col_ind are host memory, or both device memory of the handle's device (copied
/// to the host for validation and analysis). The plan is used with any handle of the same
/// backend and CUDA device, on any stream (it is read-only; the products take their scratch
/// from the handle), by several threads at once.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or plan, trans out of
/// range, negative size, nnz too large, index_base not 0 or 1, unknown hint bits, NULL
/// row_ptr, NULL col_ind when nnz > 0, bad structure as for `numgpu_scsrmv`: the first bad row
/// or entry, device memory on the CPU backend, arrays in different spaces); nothing is
/// written then. `NOT_SUPPORTED` (n > 2^31 − 1, or m > 2^31 − 1 for op T/C: the plan stores
/// int32 indices; extents beyond the address space), `ALLOC_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_csr_plan_create(
    h: *mut Handle,
    trans: OpArg,
    m: i64,
    n: i64,
    nnz: i64,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: IndexBaseArg,
    hints: i64,
    plan: *mut *mut CsrPlan,
) -> numgpu_status {
    boundary("numgpu_csr_plan_create", || {
        let h = deref_mut(h, "h")?;
        let trans = Op::from_i32(trans, "trans")?;
        let out = deref_mut(plan, "plan")?;
        let made = Box::into_raw(Box::new(csr_plan_create(h, trans, m, n, nnz, row_ptr, col_ind, index_base, hints)?));
        LIVE_PLANS.insert(made);
        *out = made;
        Ok(())
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn csrmv_plan_form<T: Scalar>(name: &str, h: *mut Handle, plan: *const CsrPlan, alpha: T::Abi, val: *const T::Abi, x: *const T::Abi, beta: T::Abi, y: *mut T::Abi) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        csrmv_plan::<T>(h, live(plan)?, T::from_abi(alpha), val as *const T, x as *const T, T::from_abi(beta), y as *mut T)
    })
}

/// Sparse matrix–vector product with a CSR plan, single precision: `y := alpha·op(A)·x +
/// beta·y`, A the m × n matrix whose structure (and op) the plan holds and whose values are
/// `val`. BLAS conventions as `numgpu_scsrmv`.
///
/// - `h` [in]: a handle of the plan's backend (and CUDA device).
/// - `plan` [in]: a plan from `numgpu_csr_plan_create`.
/// - `alpha` [in]: scalar. When 0, val and x are not read (may be NULL).
/// - `val` [in]: nnz values, in the order of the col_ind the plan was built from (NULL allowed
///   when nnz = 0).
/// - `x` [in]: op(A)'s columns: n entries for op N, m for T and C.
/// - `beta` [in]: scalar. When 0, y is not read (NaN in y does not propagate).
/// - `y` [in,out]: op(A)'s rows: m entries for op N, n for T and C.
///
/// m or n = 0, and alpha = 0 with beta = 1, are success and touch nothing. All arrays are host
/// memory, or all device memory of the handle's device: host arrays on the CUDA backend are
/// staged and the call returns when y is written; device arrays are enqueued on the handle's
/// stream and the call returns at once (`numgpu_synchronize` waits).
///
/// Reproducible for every op, with no atomics: each entry of y is the sum of its row of op(A)
/// (op T/C: its column of A, in row order) in the fixed order of the plan's partition
/// (strided fma chains, shuffle trees, split rows' pieces added in order), and the CPU
/// backend computes the same sums in the same order: the CUDA result is bitwise equal to the
/// CPU backend's for the same plan inputs (s, d, c and z). The order is not the one of
/// `numgpu_scsrmv`, whose results may differ in the last bits.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or plan, a plan not live
/// or built on another backend or device, a NULL array that would be read, device memory on
/// the CPU backend, arrays in different spaces); nothing is written then. `NOT_SUPPORTED`
/// (extents beyond the address space), `ALLOC_FAILED` (staging workspace), `COMPILE_FAILED`,
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_scsrmv_plan(h: *mut Handle, plan: *const CsrPlan, alpha: f32, val: *const f32, x: *const f32, beta: f32, y: *mut f32) -> numgpu_status {
    csrmv_plan_form::<f32>("numgpu_scsrmv_plan", h, plan, alpha, val, x, beta, y)
}

/// Sparse matrix–vector product with a CSR plan, double precision: `numgpu_scsrmv_plan` with
/// double values and scalars; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dcsrmv_plan(h: *mut Handle, plan: *const CsrPlan, alpha: f64, val: *const f64, x: *const f64, beta: f64, y: *mut f64) -> numgpu_status {
    csrmv_plan_form::<f64>("numgpu_dcsrmv_plan", h, plan, alpha, val, x, beta, y)
}

/// Sparse matrix–vector product with a CSR plan, single-precision complex:
/// `numgpu_scsrmv_plan` with `numgpu_complex_float` values and scalars; a plan of
/// `NUMGPU_OP_C` conjugates A's values.
#[no_mangle]
pub unsafe extern "C" fn numgpu_ccsrmv_plan(
    h: *mut Handle,
    plan: *const CsrPlan,
    alpha: numgpu_complex_float,
    val: *const numgpu_complex_float,
    x: *const numgpu_complex_float,
    beta: numgpu_complex_float,
    y: *mut numgpu_complex_float,
) -> numgpu_status {
    csrmv_plan_form::<Complex32>("numgpu_ccsrmv_plan", h, plan, alpha, val, x, beta, y)
}

/// Sparse matrix–vector product with a CSR plan, double-precision complex:
/// `numgpu_scsrmv_plan` with `numgpu_complex_double` values and scalars; a plan of
/// `NUMGPU_OP_C` conjugates A's values.
#[no_mangle]
pub unsafe extern "C" fn numgpu_zcsrmv_plan(
    h: *mut Handle,
    plan: *const CsrPlan,
    alpha: numgpu_complex_double,
    val: *const numgpu_complex_double,
    x: *const numgpu_complex_double,
    beta: numgpu_complex_double,
    y: *mut numgpu_complex_double,
) -> numgpu_status {
    csrmv_plan_form::<Complex64>("numgpu_zcsrmv_plan", h, plan, alpha, val, x, beta, y)
}

/// What a CSR plan holds: each output may be NULL (not written), all host memory.
///
/// - `plan` [in]: a plan from `numgpu_csr_plan_create`.
/// - `units` [out]: work units of its partition (thread blocks of a CUDA product).
/// - `split_rows` [out]: rows of op(A) split across several units.
/// - `bytes` [out]: bytes the plan holds: its partition in host memory, and the structure (on
///   the CPU backend in host memory; on CUDA on the device, with a copy of the partition).
///
/// Errors: `INVALID_VALUE` when plan is NULL or not a live plan, or an output is device
/// memory; nothing is written then.
#[no_mangle]
pub unsafe extern "C" fn numgpu_csr_plan_info(plan: *const CsrPlan, units: *mut i64, split_rows: *mut i64, bytes: *mut i64) -> numgpu_status {
    boundary("numgpu_csr_plan_info", || {
        let p = live(plan)?;
        let outs: [(*mut i64, &'static str); 3] = [(units, "units"), (split_rows, "split_rows"), (bytes, "bytes")];
        crate::core::memory::host_pointers(&outs.map(|(o, name)| (o as *const c_void, name)))?;
        for ((o, _), v) in outs.into_iter().zip([p.units(), p.split_rows(), p.bytes()]) {
            if let Some(o) = o.as_mut() {
                *o = v as i64;
            }
        }
        Ok(())
    })
}

/// Releases a CSR plan and its memory (on CUDA after waiting for the device, so work still
/// using it finishes first). NULL is a no-op.
///
/// - `plan` [in]: a plan from `numgpu_csr_plan_create`, not used afterwards.
///
/// Errors: `INVALID_VALUE` when plan is not a live plan: destroyed already, or never returned
/// by `numgpu_csr_plan_create` (a plan destroyed twice is detected unless a later create
/// returned the same address meanwhile).
#[no_mangle]
pub unsafe extern "C" fn numgpu_csr_plan_destroy(plan: *mut CsrPlan) -> numgpu_status {
    boundary("numgpu_csr_plan_destroy", || {
        if plan.is_null() {
            return Ok(());
        }
        if !LIVE_PLANS.remove(plan) {
            return Err(Error::arg("plan", NOT_LIVE));
        }
        drop(Box::from_raw(plan));
        Ok(())
    })
}
