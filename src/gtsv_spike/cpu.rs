//! CPU backend: LAPACK `?gtsv` (Gaussian elimination with partial pivoting) on copies of each
//! system's diagonals and right-hand sides, so that the caller's diagonals are never written
//! and B receives X only when the system was solved (info = 0; `?gtsv` leaves B half
//! eliminated when it meets a zero pivot). One call for a single system, rayon over the
//! systems of a batch. The pivoting mode is not used: LAPACK always pivots.

use super::{Gtsv, GtsvInterleaved, GtsvStrided};
use crate::core::{Error, Result};
use crate::lapack::{single_threaded_blas, Blas};
use rayon::prelude::*;
use std::ffi::c_int;

/// One system's working copies (LAPACK overwrites them), reused by the systems of a task.
struct Work<T> {
    dl: Vec<T>,
    d: Vec<T>,
    du: Vec<T>,
    b: Vec<T>,
}

impl<T> Default for Work<T> {
    fn default() -> Self {
        Work {
            dl: Vec::new(),
            d: Vec::new(),
            du: Vec::new(),
            b: Vec::new(),
        }
    }
}

/// Where one system lives: entry k of its diagonals at `dl/d/du + k·step` (dl starting at
/// T(2, 1)), element (r, c) of B at `b + r·step + c·ldb`.
struct System<T> {
    dl: *const T,
    d: *const T,
    du: *const T,
    b: *mut T,
    step: usize,
    ldb: usize,
}

/// The sizes LAPACK's 32-bit integers can take (the copy of B has leading dimension n).
fn fits_lapack(n: usize, nrhs: usize) -> Result<()> {
    if n > c_int::MAX as usize || nrhs > c_int::MAX as usize {
        return Err(Error::not_supported(format!("gtsv on the CPU backend: n = {n} or nrhs = {nrhs} exceeds LAPACK's 32-bit integers")));
    }
    Ok(())
}

/// Systems per rayon task: at least ~64K flops of work each (about 8 flops per row and 5 per
/// row and right-hand side).
fn per_task(n: usize, nrhs: usize) -> usize {
    (65536 / (n * (8 + 5 * nrhs)).max(1)).max(1)
}

/// `len` entries `step` apart from `src` into `dst`.
///
/// # Safety
/// `src` is valid for those reads.
unsafe fn gather<T: Copy>(dst: &mut Vec<T>, src: *const T, len: usize, step: usize) {
    if step == 1 {
        dst.extend_from_slice(std::slice::from_raw_parts(src, len));
    } else {
        dst.extend((0..len).map(|k| *src.add(k * step)));
    }
}

/// Solves one system of order n >= 1 with nrhs >= 1 right-hand sides on copies and returns
/// its info; B is written (with X) only when info = 0.
///
/// # Safety
/// `s` describes a validated system (dl and du are read only when n > 1) whose B no other
/// thread touches; n and nrhs fit `c_int`.
unsafe fn solve<T: Blas>(n: usize, nrhs: usize, s: &System<T>, w: &mut Work<T>) -> i32 {
    w.dl.clear();
    w.d.clear();
    w.du.clear();
    w.b.clear();
    gather(&mut w.d, s.d, n, s.step);
    if n > 1 {
        gather(&mut w.dl, s.dl, n - 1, s.step);
        gather(&mut w.du, s.du, n - 1, s.step);
    }
    for c in 0..nrhs {
        gather(&mut w.b, s.b.add(c * s.ldb), n, s.step);
    }
    let info = T::gtsv(n as c_int, nrhs as c_int, w.dl.as_mut_ptr(), w.d.as_mut_ptr(), w.du.as_mut_ptr(), w.b.as_mut_ptr(), n as c_int);
    debug_assert!(info >= 0, "?gtsv refused validated arguments (info = {info})");
    if info == 0 {
        for c in 0..nrhs {
            let col = s.b.add(c * s.ldb);
            for (r, x) in w.b[c * n..(c + 1) * n].iter().enumerate() {
                *col.add(r * s.step) = *x;
            }
        }
    }
    info
}

/// One system: one `?gtsv` call on copies; info written, B only when info = 0.
/// `NOT_SUPPORTED` when n or nrhs exceeds LAPACK's 32-bit integers.
pub fn gtsv<T: Blas>(g: &Gtsv<T>) -> Result<()> {
    fits_lapack(g.n, g.nrhs)?;
    let s = System {
        dl: g.dl,
        d: g.d,
        du: g.du,
        b: g.b,
        step: 1,
        ldb: g.ldb,
    };
    // SAFETY: a validated call on host memory.
    unsafe { *g.info = solve(g.n, g.nrhs, &s, &mut Work::default()) };
    Ok(())
}

/// A strided batch: each system as [`gtsv`], rayon over the systems.
pub fn gtsv_strided<T: Blas>(g: &GtsvStrided<T>) -> Result<()> {
    fits_lapack(g.n, g.nrhs)?;
    single_threaded_blas();
    (0..g.batch).into_par_iter().with_min_len(per_task(g.n, g.nrhs)).for_each_init(Work::default, |w, i| {
        let off = i * g.stride_diag;
        // SAFETY: a validated call on host memory; task i writes B_i (distinct from the other
        // B_j: checked stride) and info[i] only. dl and du may be NULL when n = 1, so their
        // offsets are formed without `add` (they are not read then).
        unsafe {
            let s = System {
                dl: g.dl.wrapping_add(off),
                d: g.d.add(off),
                du: g.du.wrapping_add(off),
                b: g.b.add(i * g.stride_b),
                step: 1,
                ldb: g.ldb,
            };
            *g.info.add(i) = solve(g.n, g.nrhs, &s, w);
        }
    });
    Ok(())
}

/// An interleaved batch: each system gathered from its stride-`batch` entries, solved as
/// [`gtsv`] and scattered back; rayon over the systems.
pub fn gtsv_interleaved<T: Blas>(g: &GtsvInterleaved<T>) -> Result<()> {
    fits_lapack(g.n, 1)?;
    single_threaded_blas();
    (0..g.batch).into_par_iter().with_min_len(per_task(g.n, 1)).for_each_init(Work::default, |w, i| {
        // SAFETY: as in `gtsv_strided`; system i's entries are i, i + batch, … of every
        // array (n − 1 of them in dl and du).
        unsafe {
            let s = System {
                dl: g.dl.wrapping_add(i),
                d: g.d.add(i),
                du: g.du.wrapping_add(i),
                b: g.b.add(i),
                step: g.batch,
                ldb: 0,
            };
            *g.info.add(i) = solve(g.n, 1, &s, w);
        }
    });
    Ok(())
}
