//! The argument checks every family shares. Each names the C parameter it rejects (`"lda"`):
//! the C boundary turns the name into its position, so no position appears below it.

use super::batch::{Batch, RawPtr};
use super::error::{checked_mul, mention, Error, Result};
use super::handle::Handle;
use super::memory::{common_space, ArgPtr, Space};
use std::ffi::c_void;

/// A C `int64_t` size as `usize`, or `INVALID_VALUE` naming it when negative.
pub fn nonneg(v: i64, name: &'static str) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::arg(name, format!("({name} = {v}) must be >= 0")))
}

/// A C `int64_t` value, already range-checked, that a routine keeps in 32 bits (a kernel's
/// `int`, a count reported in an `int32_t` array, LAPACK's integers): as `i32`, or
/// `NOT_SUPPORTED` naming it above 2^31 − 1.
pub fn fits_i32<V: Copy + std::fmt::Display + TryInto<i32>>(v: V, name: &'static str) -> Result<i32> {
    v.try_into().map_err(|_| Error::unsupported_arg(name, format!("({name} = {v}) exceeds 2^31 − 1")))
}

/// A C `int64_t` argument whose valid values all fit 32 bits (a tensor's order, a mode
/// number): as `i32` for the range checks that follow, or `INVALID_VALUE` naming it.
pub fn arg_i32(v: i64, name: &'static str) -> Result<i32> {
    i32::try_from(v).map_err(|_| Error::arg(name, format!("({name} = {v}) is out of range")))
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

/// `NOT_SUPPORTED` naming the array `name`, whose extent does not fit the address space.
fn beyond(name: &'static str, what: &str) -> Error {
    Error::unsupported_arg(name, format!("({name}) would span {what}: beyond the address space"))
}

/// The extent of an array of `count` blocks of `len` elements of `E`, `step` elements apart:
/// `(count − 1)·step + len` elements (0 when `count` or `len` is 0), which must fit `isize`
/// bytes, as every pointer offset must; `NOT_SUPPORTED` naming the array `name` otherwise.
/// The one extent check of every family: a leading dimension, a stride, a batch count and
/// a pointer array's length are all checked through it, before anything is read or written.
pub fn check_span<E>(len: usize, step: usize, count: usize, name: &'static str) -> Result<usize> {
    if len == 0 || count == 0 {
        return Ok(0);
    }
    let elems = (count - 1)
        .checked_mul(step)
        .and_then(|e| e.checked_add(len))
        .ok_or_else(|| beyond(name, &format!("({count} − 1)·{step} + {len} elements")))?;
    match elems.checked_mul(std::mem::size_of::<E>()) {
        Some(bytes) if bytes <= isize::MAX as usize => Ok(elems),
        _ => Err(beyond(name, &format!("{elems} elements of {} bytes", std::mem::size_of::<E>()))),
    }
}

/// A contiguous array `name` of `count` elements of `E`: its bytes fit the address space.
pub fn check_array<E>(count: usize, name: &'static str) -> Result<()> {
    check_span::<E>(count, 0, 1, name).map(|_| ())
}

/// `batch` matrices of `ld × cols` elements of `E`, `stride` elements apart (0 for a pointer
/// array's matrices, each of which is checked alone): every element offset fits `isize`
/// bytes; `NOT_SUPPORTED` naming the operand `name` otherwise.
pub fn check_extent<E>(ld: usize, cols: usize, stride: i64, batch: usize, name: &'static str) -> Result<()> {
    let one = ld.checked_mul(cols).ok_or_else(|| beyond(name, &format!("{ld}·{cols} elements")))?;
    check_span::<E>(one, stride.max(0) as usize, batch, name).map(|_| ())
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
    check_extent::<E>(ld, cols, b.stride(), batch, name)
}

/// The common space of the arrays `args`, and for host pointer arrays (`arrays`: pointer and
/// name; NULL for strided operands) their entries; then that the matrices the call writes
/// (the operands named in `written`) are distinct ([`check_distinct`]).
///
/// # Safety
/// Each non-NULL pointer array is valid for `batch` reads when it is host memory.
pub unsafe fn space_of(h: &Handle, args: &[ArgPtr], arrays: &[(*const *const c_void, &'static str)], written: &[&'static str], batch: usize) -> Result<Space> {
    // A pointer array is as long as the batch: its bytes must exist before it is walked.
    for &(_, name) in arrays.iter().filter(|a| !a.0.is_null()) {
        check_array::<*const c_void>(batch, name)?;
    }
    let space = common_space(h, args)?;
    let host_arrays: &[_] = if space == Space::Host { arrays } else { &[] };
    for &(arr, name) in host_arrays.iter().filter(|a| !a.0.is_null()) {
        check_host_array(arr, batch, name)?;
    }
    check_distinct(args, host_arrays, written, batch)?;
    Ok(space)
}

/// A matrix of a call: its address, operand name and batch index (None: a strided base).
type Matrix = (usize, &'static str, Option<usize>);

/// The matrices of operand `arg`: the entries of its host pointer array when `arrays` has
/// one, else the pointer itself (a strided base, or an array whose entries are not read here).
///
/// # Safety
/// As [`space_of`]; the host pointer arrays have been checked.
unsafe fn matrices(arg: &ArgPtr, arrays: &[(*const *const c_void, &'static str)], batch: usize) -> Vec<Matrix> {
    match arrays.iter().find(|a| a.1 == arg.1 && !a.0.is_null()) {
        Some(&(arr, name)) => (0..batch).map(|i| (*arr.add(i) as usize, name, Some(i))).collect(),
        None => vec![(arg.0 as usize, arg.1, None)],
    }
}

/// The matrices a call writes (operands named in `written`) must be distinct from each other
/// and from every other array of the call: `INVALID_VALUE` naming the second one found. What
/// is compared is what is cheap to see: the entries of host pointer arrays (sorted once,
/// O(batch·log batch)) and the base pointers of strided operands; overlapping but unequal
/// matrices, and the entries of device pointer arrays, are the caller's promise.
///
/// # Safety
/// As [`space_of`]; `arrays` are host pointer arrays already checked.
unsafe fn check_distinct(args: &[ArgPtr], arrays: &[(*const *const c_void, &'static str)], written: &[&'static str], batch: usize) -> Result<()> {
    let label = |&(_, name, i): &Matrix| i.map_or_else(|| name.to_string(), |i| format!("{name}[{i}]"));
    let mut outs: Vec<Matrix> = args.iter().filter(|a| written.contains(&a.1)).flat_map(|a| matrices(a, arrays, batch)).collect();
    outs.sort_unstable_by_key(|m| m.0);
    if let Some(w) = outs.windows(2).find(|w| w[0].0 == w[1].0) {
        let (first, second) = (label(&w[0]), label(&w[1]));
        return Err(Error::arg(w[1].1, format!("({second}) is the same matrix as {} ({first}): the matrices a call writes must be distinct", mention(w[0].1))));
    }
    for a in args.iter().filter(|a| !a.0.is_null() && !written.contains(&a.1)) {
        for m in matrices(a, arrays, batch) {
            if let Ok(k) = outs.binary_search_by_key(&m.0, |o| o.0) {
                let o = &outs[k];
                return Err(Error::arg(o.1, format!("({}) is also {} ({}), which the call reads: an output must not alias an input", label(o), mention(m.1), label(&m))));
            }
        }
    }
    Ok(())
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
