//! Kernel parameters as the `.cu` files declare them.

use crate::core::Scalar;
use cudarc::driver::safe::DeviceRepr;

/// `ng_batch<T>` of common.cuh: matrix i at `array[i]` when `array != 0`, else
/// `base + i*stride`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct KBatch {
    pub base: u64,
    pub stride: i64,
    pub array: u64,
}

// SAFETY: repr(C) plain data, the layout of `ng_batch<T>`.
unsafe impl DeviceRepr for KBatch {}

/// A scalar of the element type `T` by value (`T` of the `.cu` templates: float, double,
/// `ng_complex<R>`, which has the layout of num-complex's `Complex<R>`).
#[repr(transparent)]
#[derive(Clone, Copy, Debug)]
pub struct KScalar<T>(pub T);

// SAFETY: every Scalar is plain data with the layout of its CUDA type.
unsafe impl<T: Scalar> DeviceRepr for KScalar<T> {}

/// A 1-D grid of `blocks` blocks, clamped to the grid-x limit (kernels loop beyond it).
pub fn grid(blocks: i64) -> (u32, u32, u32) {
    (blocks.clamp(1, i32::MAX as i64) as u32, 1, 1)
}
