//! The oracle: what the integration tests, the tour (`examples/tour`) and numgpu-bench check
//! numgpu against, written once. Feature `testing` (the tests and examples get it through
//! numgpu's dev-dependency on itself, the bench through its feature); never part of the
//! installed library, and no routine of the library calls it.
//!
//! Everything here is computed on the host in double precision (or with LAPACK in the
//! higher precision), independently of the code it checks: the generators of every class of
//! inputs the checks use, the LAPACK/BLAS references, the error ratios and their thresholds.
//! The layers above it decide what to run and how to report it; none derives numerics of its
//! own.
//!
//! Where to find things:
//! - [`gen`]: seeded generators, random data, the poison values of outputs;
//! - [`norm`]: norms, ratios and comparisons of results (`same`, `unchanged`, NaN-propagating
//!   maxima);
//! - [`layout`]: a strided batch of matrices as the routines take it (padding, gaps);
//! - [`tol`]: the thresholds the ratios are held below;
//! - one module per kind of mathematics, each with its generators, references and ratios:
//!   [`dense`] (the dense matrix classes and an f64 GEMM), [`expm`] (matrix exponentials:
//!   exact cases, rate models, Padé and eigen references), [`gemm`], [`lu`] (complete
//!   pivoting), [`qr`] (Givens QR, least squares), [`spd`] (positive definite matrices,
//!   Cholesky factors), [`tridiag`] (tridiagonal systems), [`tridiag_eig`] (tridiagonal
//!   eigenvalues), [`jacobi`] (dense Hermitian eigenvalues and singular values), [`sparse`]
//!   (the SpMV suite, Matrix Market files, products), [`tensor`] (symmetric tensors
//!   and their eigenpairs), [`ode`] (ODE problems and their reference solutions), [`life`]
//!   (LiFE connectomes, their dense M and NNLS references);
//! - [`workloads`]: the inputs of numgpu-bench's larger workloads (ODE systems, fibre tensors).
//!
//! A module per kind of mathematics rather than per entry point, because the checks are about
//! the mathematics (an LU ratio holds for any LU); each module's doc names the families it
//! serves.

#![warn(missing_docs)]

pub mod dense;
pub mod expm;
pub mod gemm;
pub mod gen;
pub mod jacobi;
pub mod layout;
pub mod life;
pub mod lu;
pub mod norm;
pub mod ode;
pub mod qr;
pub mod sparse;
pub mod spd;
pub mod tensor;
pub mod tol;
pub mod tridiag;
pub mod tridiag_eig;
pub mod workloads;

#[cfg(test)]
mod checks;
