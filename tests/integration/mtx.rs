//! Matrix Market files for numgpu-bench, which includes this file by `#[path]`: the reader is
//! the oracle's (`numgpu::testing::sparse`). Not a module of the integration tests; to be
//! deleted once the bench uses `numgpu::testing::sparse` itself.

pub use numgpu::testing::sparse::{read, shared_matrices};
