//! CUDA backend of the tridiagonal solvers: not built yet on this branch. These are the three
//! entry points `mod.rs` dispatches to, each called with a validated problem whose arrays are
//! all host memory or all device memory of the handle's device (`space`); until the kernels
//! exist each refuses with `NOT_SUPPORTED`, and a CUDA handle cannot solve tridiagonal systems.

use super::{Gtsv, GtsvInterleaved, GtsvStrided};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::CudaHandle;

/// The refusal of every entry point until the kernels exist.
fn not_built() -> Error {
    Error::not_supported("gtsv_spike: CUDA backend not yet built")
}

/// One system (SPIKE with diagonal pivoting, or without pivoting).
pub fn gtsv<T: Scalar>(_ch: &mut CudaHandle, _g: &Gtsv<T>, _space: Space) -> Result<()> {
    Err(not_built())
}

/// A strided batch of systems.
pub fn gtsv_strided<T: Scalar>(_ch: &mut CudaHandle, _g: &GtsvStrided<T>, _space: Space) -> Result<()> {
    Err(not_built())
}

/// An interleaved batch of systems.
pub fn gtsv_interleaved<T: Scalar>(_ch: &mut CudaHandle, _g: &GtsvInterleaved<T>, _space: Space) -> Result<()> {
    Err(not_built())
}
