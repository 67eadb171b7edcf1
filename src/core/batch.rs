//! How a batch of matrices is passed: strided or as a pointer array.

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
    /// The element type pointed to.
    type Elem;
    fn addr(self) -> *const c_void;
    /// `self + elems` elements.
    ///
    /// # Safety
    /// The result stays inside the allocation `self` points into, as for `pointer::add`.
    unsafe fn at(self, elems: usize) -> Self;
}
impl<T> RawPtr for *const T {
    type Elem = T;
    fn addr(self) -> *const c_void {
        self as *const c_void
    }
    unsafe fn at(self, elems: usize) -> Self {
        self.add(elems)
    }
}
impl<T> RawPtr for *mut T {
    type Elem = T;
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

/// The pointer-array argument of a batch (NULL for the strided form).
pub fn array_of<P: RawPtr>(b: &Batch<P>) -> *const *const c_void {
    match *b {
        Batch::Array(p) => p as *const *const c_void,
        Batch::Strided { .. } => std::ptr::null(),
    }
}
