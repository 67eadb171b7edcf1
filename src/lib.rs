//! numgpu: GPU implementations of numerical routines from the GPU literature, with a C ABI
//! (`include/numgpu.h`), a Fortran module (`include/numgpu.f90`) and a CPU backend on
//! OpenBLAS/LAPACK so that every routine runs, and can be checked, everywhere.
//!
//! Layout: `core` (handle, errors, element types, pointer spaces), `ffi` (the C boundary and
//! core entry points), `cuda` (driver, NVRTC, module cache, launches), `lapack` (the
//! CBLAS/LAPACK symbols), and one module per routine family with its Rust API (`mod.rs`),
//! CPU and CUDA backends and its `capi.rs`; `testing` (feature `testing`) is the oracle of the
//! checks, never part of the installed library.

pub mod core;
pub mod cuda;
pub mod expm;
pub mod ffi;
pub mod gemm_batched;
pub mod geqrf_givens;
pub mod getrf_fullpivot;
pub mod gtsv_spike;
pub mod jacobi;
pub mod lapack;
pub mod potrf;
pub mod life;
pub mod rkc;
pub mod spmv;
pub mod sshopm;
pub mod stebz;
pub mod tensor;
/// The oracle the tests, the tour and numgpu-bench check numgpu against (feature `testing`;
/// not part of the C API, so cbindgen skips it).
///
/// cbindgen:ignore
#[cfg(feature = "testing")]
pub mod testing;

pub use crate::core::{Backend, BackendChoice, Error, Handle, Op, Result, Scalar, Side, Status, Uplo};
pub use num_complex::{Complex32, Complex64};

// Links OpenBLAS (BLAS + LAPACK) into every artifact.
extern crate lapack_src;
extern crate openblas_src;
