//! CPU backend: LAPACK `?potrf` / `?potrs` per matrix under rayon (single-threaded BLAS
//! inside each task). A factorisation's `info` is then completed with the module's rule for
//! non-finite pivots (+Inf, and NaN where the LAPACK in use does not test it).

use super::{Potrf, Potrs};
use crate::core::error::{Error, Result};
use crate::lapack::{single_threaded_blas, Blas};
use num_traits::Float;
use rayon::prelude::*;
use std::ffi::c_int;

/// Matrices per rayon task: at least ~64K flops of work each.
fn per_task(n: usize) -> usize {
    (65536 / (n * n * n / 3).max(1)).max(1)
}

/// LAPACK takes 32-bit sizes.
fn check_lapack_sizes(sizes: &[usize]) -> Result<()> {
    match sizes.iter().find(|&&s| s > c_int::MAX as usize) {
        Some(s) => Err(Error::not_supported(format!("size {s} exceeds LAPACK's 32-bit integers on the CPU backend"))),
        None => Ok(()),
    }
}

/// `?potrf` of one matrix, then the first non-finite diagonal entry of the factor before
/// LAPACK's `info` (the square root of a +Inf or NaN pivot is the pivot itself) as `info`.
///
/// # Safety
/// `a` is valid for an `n × n` matrix with leading dimension `lda`; both fit `c_int`.
pub unsafe fn factor<T: Blas>(uplo: u8, n: usize, a: *mut T, lda: usize) -> i32 {
    let info = T::potrf(uplo, n as c_int, a, lda as c_int);
    let done = if info > 0 { info as usize - 1 } else { n };
    match (0..done).find(|&j| !(*a.add(j + j * lda)).re().is_finite()) {
        Some(j) => (j + 1) as i32,
        None => info,
    }
}

pub fn potrf<T: Blas>(f: &Potrf<T>) -> Result<()> {
    check_lapack_sizes(&[f.n, f.lda])?;
    single_threaded_blas();
    (0..f.batch).into_par_iter().with_min_len(per_task(f.n)).for_each(|i| {
        // SAFETY: validated call; task i touches matrix i and info[i] only.
        unsafe { *f.info.add(i) = factor(f.uplo.lapack(), f.n, f.a.matrix(i), f.lda) };
    });
    Ok(())
}

pub fn potrs<T: Blas>(g: &Potrs<T>) -> Result<()> {
    check_lapack_sizes(&[g.n, g.lda, g.ldb, g.nrhs])?;
    single_threaded_blas();
    let per = (65536 / (g.n * g.n * g.nrhs).max(1)).max(1);
    (0..g.batch).into_par_iter().with_min_len(per).for_each(|i| {
        // SAFETY: validated call; task i writes B_i only (the skip array is host memory).
        unsafe {
            if g.skip.is_null() || *g.skip.add(i) == 0 {
                T::potrs(g.uplo.lapack(), g.n as c_int, g.nrhs as c_int, g.a.matrix(i), g.lda as c_int, g.b.matrix(i), g.ldb as c_int);
            }
        }
    });
    Ok(())
}

/// The factorisation, then the solves of the matrices whose info is 0.
pub fn posv<T: Blas>(f: &Potrf<T>, g: &Potrs<T>) -> Result<()> {
    check_lapack_sizes(&[g.n, g.lda, g.ldb, g.nrhs])?;
    potrf(f)?;
    if g.nrhs > 0 {
        potrs(g)?;
    }
    Ok(())
}
