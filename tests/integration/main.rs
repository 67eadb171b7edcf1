//! The one integration-test binary: a module per family, run on every available backend,
//! plus the C and Fortran suites and the header and kernel checks.

mod common;
mod header;
mod header_names;
mod kernels;
mod gemm_batched;
mod geqrf_givens;
mod getrf_fullpivot;
mod gtsv_spike;
mod sshopm;
mod rkc;
mod handle;
mod hostile;
mod spmv;
mod stebz;
mod jacobi;
mod potrf;
mod expm;
mod life;
mod tensor;
mod c_abi;
mod fortran;
mod examples;
mod multi_gpu;
