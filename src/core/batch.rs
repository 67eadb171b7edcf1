//! How a batch of matrices is passed (strided or pointer array) and the argument checks
//! every batched family shares.

use super::error::{checked_add, checked_mul, Error, Result};
use super::handle::Handle;
use super::memory::{common_space, ArgPtr, Space};
use std::ffi::c_void;

/// Where the matrices of one operand live.
#[derive(Clone, Copy, Debug)]
pub enum Batch<P> {
    /// Matrix i at `ptr + i·stride` elements.
    Strided { ptr: P, stride: i64 },
    /// Matrix i at `ptrs[i]`; the array lives in the same space as the matrices.
    Array(*const P),
}

/// A raw pointer of either mutability, as an address.
pub trait RawPtr: Copy {
    fn addr(self) -> *const c_void;
    /// `self + elems` elements.
    ///
    /// # Safety
    /// The result stays inside the allocation `self` points into, as for `pointer::add`.
    unsafe fn at(self, elems: usize) -> Self;
}
impl<T> RawPtr for *const T {
    fn addr(self) -> *const c_void {
        self as *const c_void
    }
    unsafe fn at(self, elems: usize) -> Self {
        self.add(elems)
    }
}
impl<T> RawPtr for *mut T {
    fn addr(self) -> *const c_void {
        self as *const c_void
    }
    unsafe fn at(self, elems: usize) -> Self {
        self.add(elems)
    }
}

impl<P: RawPtr> Batch<P> {
    /// The pointer the caller passed: the base (strided) or the pointer array.
    pub fn raw(&self) -> *const c_void {
        match *self {
            Batch::Strided { ptr, .. } => ptr.addr(),
            Batch::Array(p) => p as *const c_void,
        }
    }
    /// Matrix `i` of the batch (host pointer arrays only).
    ///
    /// # Safety
    /// `i < batch` of a validated call whose arrays are in host memory.
    pub unsafe fn matrix(&self, i: usize) -> P {
        match *self {
            Batch::Strided { ptr, stride } => ptr.at(i * stride as usize),
            Batch::Array(p) => *p.add(i),
        }
    }
    /// The stride of a strided operand, 0 for a pointer array.
    pub fn stride(&self) -> i64 {
        match *self {
            Batch::Strided { stride, .. } => stride,
            Batch::Array(_) => 0,
        }
    }
}

/// A leading dimension: at least `max(1, rows)`, or `INVALID_VALUE` naming argument `arg`.
pub fn check_ld(ld: i64, rows: usize, arg: i32, name: &str, rows_name: &str) -> Result<usize> {
    let need = rows.max(1);
    if ld < need as i64 {
        return Err(Error::arg(arg, format!("({name} = {ld}) must be >= max(1, {rows_name}) = {need}")));
    }
    Ok(ld as usize)
}

/// A strided operand's stride: 0 (A, B only) or at least the matrix's extent `ld·cols`;
/// only checked when the batch has more than one matrix.
pub fn check_stride(stride: i64, extent: usize, zero_ok: bool, batch: usize, arg: i32, name: &str, extent_name: &str) -> Result<()> {
    if stride < 0 {
        return Err(Error::arg(arg, format!("({name} = {stride}) must be >= 0")));
    }
    if batch > 1 && !(zero_ok && stride == 0) && (stride as u64) < extent as u64 {
        let zero = if zero_ok { "0 or " } else { "" };
        return Err(Error::arg(arg, format!("({name} = {stride}) must be {zero}>= {extent_name} = {extent}")));
    }
    Ok(())
}

/// A host pointer array of `batch` matrices: no NULL entry, and the matrices in host memory
/// too (checked on the first entry: one driver query per array, not per matrix), since a
/// pointer array lives in the space of its matrices.
///
/// # Safety
/// `arr` is valid for `batch` reads.
pub unsafe fn check_host_array<T>(arr: *const *const T, batch: usize, arg: i32, name: &str) -> Result<()> {
    for i in 0..batch {
        if (*arr.add(i)).is_null() {
            return Err(Error::arg(arg, format!("({name}[{i}]) must not be NULL")));
        }
    }
    if batch > 0 {
        if let Some(d) = crate::cuda::device_of(*arr as *const c_void) {
            return Err(Error::arg(
                arg,
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
/// stride (strided form; `zero_ok` for read-only operands) and extent. `arg` and
/// `stride_arg` are the 1-based C positions of the operand and its stride.
#[allow(clippy::too_many_arguments)]
pub fn check_operand<E, P: RawPtr>(b: &Batch<P>, ld: usize, cols: usize, batch: usize, arg: i32, name: &str, stride_arg: i32, zero_ok: bool) -> Result<()> {
    if b.raw().is_null() {
        return Err(Error::arg(arg, format!("({name}) must not be NULL")));
    }
    if let Batch::Strided { stride, .. } = *b {
        let extent = checked_mul(ld, cols, "ld·cols")?;
        check_stride(stride, extent, zero_ok, batch, stride_arg, &format!("stride{name}"), &format!("ld{}·{}", name.to_lowercase(), if cols == 0 { "0" } else { "cols" }))?;
    }
    check_extent::<E>(ld, cols, b.stride(), batch)
}

/// The pointer-array argument of a batch (NULL for the strided form).
pub fn array_of<P: RawPtr>(b: &Batch<P>) -> *const *const c_void {
    match *b {
        Batch::Array(p) => p as *const *const c_void,
        Batch::Strided { .. } => std::ptr::null(),
    }
}

/// The common space of the arrays `args`, and for host pointer arrays (`arrays`: pointer,
/// C position, name; NULL for strided operands) their entries.
///
/// # Safety
/// Each non-NULL pointer array is valid for `batch` reads when it is host memory.
pub unsafe fn space_of(h: &Handle, args: &[ArgPtr], arrays: &[(*const *const c_void, i32, &str)], batch: usize) -> Result<Space> {
    let space = common_space(h, args)?;
    if space == Space::Host {
        for &(arr, arg, name) in arrays {
            if !arr.is_null() {
                check_host_array(arr, batch, arg, name)?;
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
pub fn check_len(len: usize, need: usize, arg: i32, name: &str) -> Result<()> {
    if len < need {
        return Err(Error::arg(arg, format!("({name}) has {len} elements but the sizes need {need}")));
    }
    Ok(())
}
