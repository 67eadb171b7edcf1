//! The argument checks every family shares. Each names the C parameter it rejects (`"lda"`):
//! the C boundary turns the name into its position, so no position appears below it.

use super::batch::{Batch, RawPtr};
use super::error::{checked_add, checked_mul, Error, Result};
use super::handle::Handle;
use super::memory::{common_space, ArgPtr, Space};
use std::ffi::c_void;

/// A C `int64_t` size as `usize`, or `INVALID_VALUE` naming it when negative.
pub fn nonneg(v: i64, name: &'static str) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::arg(name, format!("({name} = {v}) must be >= 0")))
}

/// A pointer that must not be NULL.
pub fn not_null<T>(p: *const T, name: &'static str) -> Result<()> {
    if p.is_null() {
        return Err(Error::arg(name, format!("({name}) must not be NULL")));
    }
    Ok(())
}

/// A leading dimension: at least `max(1, rows)`, or `INVALID_VALUE` naming it.
pub fn check_ld(ld: i64, rows: usize, name: &'static str, rows_name: &str) -> Result<usize> {
    let need = rows.max(1);
    if ld < need as i64 {
        return Err(Error::arg(name, format!("({name} = {ld}) must be >= max(1, {rows_name}) = {need}")));
    }
    Ok(ld as usize)
}

/// A strided operand's stride: 0 (when `zero_ok`: read-only operands shared by the batch) or
/// at least the matrix's extent; only checked when the batch has more than one matrix.
pub fn check_stride(stride: i64, extent: usize, zero_ok: bool, batch: usize, name: &'static str, extent_name: &str) -> Result<()> {
    if stride < 0 {
        return Err(Error::arg(name, format!("({name} = {stride}) must be >= 0")));
    }
    if batch > 1 && !(zero_ok && stride == 0) && (stride as u64) < extent as u64 {
        let zero = if zero_ok { "0 or " } else { "" };
        return Err(Error::arg(name, format!("({name} = {stride}) must be {zero}>= {extent_name} = {extent}")));
    }
    Ok(())
}

/// A host pointer array of `batch` matrices: no NULL entry, and the matrices in host memory
/// too (checked on the first entry: one driver query per array, not per matrix), since a
/// pointer array lives in the space of its matrices.
///
/// # Safety
/// `arr` is valid for `batch` reads.
pub unsafe fn check_host_array<T>(arr: *const *const T, batch: usize, name: &'static str) -> Result<()> {
    for i in 0..batch {
        if (*arr.add(i)).is_null() {
            return Err(Error::arg(name, format!("({name}[{i}]) must not be NULL")));
        }
    }
    if batch > 0 {
        if let Some(d) = crate::cuda::device_of(*arr as *const c_void) {
            return Err(Error::arg(
                name,
                format!("({name}[0]) is memory of CUDA device {d} but the pointer array {name} is host memory: a pointer array must live in the space of its matrices"),
            ));
        }
    }
    Ok(())
}

/// Every element offset of `batch` matrices of `ld × cols` elements of `T`, `stride` elements
/// apart, must fit `isize` bytes; `NOT_SUPPORTED` otherwise.
pub fn check_extent<T>(ld: usize, cols: usize, stride: i64, batch: usize) -> Result<()> {
    let one = checked_mul(ld, cols, "matrix extent")?;
    let last = checked_mul(batch.saturating_sub(1), stride.max(0) as usize, "batch extent")?;
    let total = checked_add(one, last, "batch extent")?;
    if total > isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        return Err(Error::not_supported("batch extent exceeds the address space"));
    }
    Ok(())
}

/// A matrix operand of a batched call (elements of type `E`, `ld × cols`): NULL check,
/// stride (strided form, named `stride_name`; `zero_ok` for read-only operands) and extent.
#[allow(clippy::too_many_arguments)]
pub fn check_operand<E, P: RawPtr>(b: &Batch<P>, ld: usize, cols: usize, batch: usize, name: &'static str, stride_name: &'static str, ld_name: &str, zero_ok: bool) -> Result<()> {
    not_null(b.raw(), name)?;
    if let Batch::Strided { stride, .. } = *b {
        let extent = checked_mul(ld, cols, "ld·cols")?;
        check_stride(stride, extent, zero_ok, batch, stride_name, &format!("{ld_name}·{}", if cols == 0 { "0" } else { "cols" }))?;
    }
    check_extent::<E>(ld, cols, b.stride(), batch)
}

/// The common space of the arrays `args`, and for host pointer arrays (`arrays`: pointer and
/// name; NULL for strided operands) their entries.
///
/// # Safety
/// Each non-NULL pointer array is valid for `batch` reads when it is host memory.
pub unsafe fn space_of(h: &Handle, args: &[ArgPtr], arrays: &[(*const *const c_void, &'static str)], batch: usize) -> Result<Space> {
    let space = common_space(h, args)?;
    if space == Space::Host {
        for &(arr, name) in arrays {
            if !arr.is_null() {
                check_host_array(arr, batch, name)?;
            }
        }
    }
    Ok(space)
}

/// Elements a strided slice must hold: `(batch − 1)·stride + ld·cols` (0 for empty sizes).
pub fn needed(ld: i64, cols: i64, stride: i64, batch: i64) -> usize {
    if ld <= 0 || cols <= 0 || batch <= 0 {
        return 0;
    }
    ((batch - 1) as usize).saturating_mul(stride.max(0) as usize).saturating_add((ld as usize).saturating_mul(cols as usize))
}

/// A safe wrapper's slice of `len` elements against the `need` its sizes imply.
pub fn check_len(len: usize, need: usize, name: &'static str) -> Result<()> {
    if len < need {
        return Err(Error::arg(name, format!("({name}) has {len} elements but the sizes need {need}")));
    }
    Ok(())
}
