//! CUDA infrastructure shared by every family: the driver and devices (primary contexts),
//! NVRTC compilation and module caches, and the per-handle stream, workspace and launches.
//! Nothing here knows about a routine.

pub mod driver;
pub mod handle;
pub mod module;
pub mod params;
pub mod legacy;
pub mod staging;

pub use driver::{device_count, device_of, Device};
pub use handle::CudaHandle;
pub use module::Module;
