//! CPU backend: LAPACK `?getc2`/`?gesc2` per matrix under rayon. STRICT mode, matrices with
//! NaN or Inf (where `?getc2`'s scan is undefined: `|NaN| >= xmax` never holds), and `getrs`
//! are our own code, with the kernels' conventions and arithmetic.

use super::{Gesc2, Getrf, Getrs, Mode};
use crate::core::{Op, Scalar};
use crate::lapack::{single_threaded_blas, Blas};
use num_traits::{Float, One, Zero};
use rayon::prelude::*;
use std::ffi::c_int;

/// LAPACK's `eps = ?lamch('P')` and `smlnum = ?lamch('S') / eps` of `T`'s real type.
pub fn getc2_constants<T: Scalar>() -> (T::Real, T::Real) {
    let eps = T::Real::epsilon();
    (eps, T::Real::min_positive_value() / eps)
}

/// Matrices per rayon task: at least ~64K flops of work each.
fn per_task(n: usize) -> usize {
    (65536 / (n * n * n / 3).max(1)).max(1)
}

pub fn getrf<T: Blas>(f: &Getrf<T>) -> crate::core::Result<()> {
    single_threaded_blas();
    let lapack_ok = f.n <= c_int::MAX as usize && f.lda <= c_int::MAX as usize;
    (0..f.batch).into_par_iter().with_min_len(per_task(f.n)).for_each(|i| {
        // SAFETY: validated call; task i touches matrix i and its pivots and info only.
        unsafe {
            let (a, ipiv, jpiv) = (f.a.matrix(i), f.ipiv.add(i * f.n), f.jpiv.add(i * f.n));
            *f.info.add(i) = if f.mode == Mode::Getc2 && lapack_ok && all_finite(a, f.lda, f.n) {
                T::getc2(f.n as c_int, a, f.lda as c_int, ipiv, jpiv)
            } else {
                factor(a, f.lda, f.n, ipiv, jpiv, f.mode)
            };
        }
    });
    Ok(())
}

unsafe fn all_finite<T: Scalar>(a: *const T, lda: usize, n: usize) -> bool {
    (0..n).all(|j| (0..n).all(|i| (*a.add(i + j * lda)).is_finite()))
}

/// The pivot search key: |a|, with NaN ranked as +Inf.
fn key<T: Scalar>(x: T) -> T::Real {
    let v = x.abs();
    if v.is_nan() {
        T::Real::infinity()
    } else {
        v
    }
}

/// LU with complete pivoting of one `n × n` matrix in place, with the conventions of the
/// module docs; returns `info`.
///
/// # Safety
/// `a` is valid for an `n × n` matrix with leading dimension `lda`; `ipiv`, `jpiv` for `n`.
pub unsafe fn factor<T: Scalar>(a: *mut T, lda: usize, n: usize, ipiv: *mut i32, jpiv: *mut i32, mode: Mode) -> i32 {
    let at = |i: usize, j: usize| a.add(i + j * lda);
    let (eps, smlnum) = getc2_constants::<T>();
    let (mut info, mut nonfinite, mut smin) = (0, false, smlnum);
    for k in 0..n {
        // LAPACK's scan: rows outer, columns inner, `>=`: the last maximal element wins.
        let (mut best, mut q, mut p) = (-T::Real::one(), k, k);
        for i in k..n {
            for j in k..n {
                let v = key(*at(i, j));
                if v >= best {
                    (best, q, p) = (v, i, j);
                }
            }
        }
        if k == 0 {
            smin = if n == 1 { smlnum } else { (eps * best).max(smlnum) };
        }
        if mode == Mode::Strict && best.is_zero() {
            if !nonfinite {
                info = (k + 1) as i32;
            }
            for j in k..n {
                *ipiv.add(j) = (j + 1) as i32;
                *jpiv.add(j) = (j + 1) as i32;
            }
            return info;
        }
        for j in 0..n {
            std::ptr::swap(at(k, j), at(q, j));
        }
        for i in 0..n {
            std::ptr::swap(at(i, k), at(i, p));
        }
        *ipiv.add(k) = (q + 1) as i32;
        *jpiv.add(k) = (p + 1) as i32;
        let piv = *at(k, k);
        if !piv.is_finite() {
            if !nonfinite {
                info = (k + 1) as i32;
                nonfinite = true;
            }
        } else if mode == Mode::Getc2 && piv.abs() < smin {
            if !nonfinite {
                info = (k + 1) as i32;
            }
            *at(k, k) = T::from_real(smin);
        }
        let piv = *at(k, k);
        for i in k + 1..n {
            *at(i, k) = (*at(i, k)).quot(piv);
        }
        for j in k + 1..n {
            let u = *at(k, j);
            for i in k + 1..n {
                *at(i, j) = T::fma(-*at(i, k), u, *at(i, j));
            }
        }
    }
    info
}

pub fn getrs<T: Blas>(g: &Getrs<T>) -> crate::core::Result<()> {
    let per = (65536 / (g.n * g.n).max(1)).max(1);
    (0..g.batch * g.nrhs).into_par_iter().with_min_len(per).for_each(|t| {
        let (i, r) = (t / g.nrhs, t % g.nrhs);
        // SAFETY: validated call with host pivots in range; task t writes column r of B_i only.
        unsafe {
            if g.skip.is_null() || *g.skip.add(i) == 0 {
                solve(g.trans, g.n, g.a.matrix(i), g.lda, g.ipiv.add(i * g.n), g.jpiv.add(i * g.n), g.b.matrix(i).add(r * g.ldb));
            }
        }
    });
    Ok(())
}

/// Swaps `x[k]` and `x[piv[k] − 1]` for k in `ks` (an out-of-range pivot is no interchange,
/// as in the kernels).
unsafe fn laswp<T>(x: *mut T, piv: *const i32, n: usize, ks: impl Iterator<Item = usize>) {
    for k in ks {
        let p = *piv.add(k) as i64 - 1;
        if p >= 0 && (p as usize) < n {
            std::ptr::swap(x.add(k), x.add(p as usize));
        }
    }
}

/// One right-hand side `x` (overwritten by the solution) of `op(A)·x = b` with the factors.
///
/// # Safety
/// `a` covers the `n × n` factors, `x` `n` elements, `ipiv`/`jpiv` `n` entries.
pub unsafe fn solve<T: Scalar>(trans: Op, n: usize, a: *const T, lda: usize, ipiv: *const i32, jpiv: *const i32, x: *mut T) {
    let at = |i: usize, j: usize| {
        let v = *a.add(i + j * lda);
        if trans == Op::C {
            v.conj()
        } else {
            v
        }
    };
    let xs = |i: usize| x.add(i);
    if trans == Op::N {
        laswp(x, ipiv, n, 0..n);
        for k in 0..n {
            let xk = *xs(k);
            for i in k + 1..n {
                *xs(i) = T::fma(-at(i, k), xk, *xs(i));
            }
        }
        for k in (0..n).rev() {
            let xk = (*xs(k)).quot(at(k, k));
            *xs(k) = xk;
            for i in 0..k {
                *xs(i) = T::fma(-at(i, k), xk, *xs(i));
            }
        }
        laswp(x, jpiv, n, (0..n).rev());
    } else {
        laswp(x, jpiv, n, 0..n);
        for k in 0..n {
            let mut s = *xs(k);
            for i in 0..k {
                s = T::fma(-at(i, k), *xs(i), s);
            }
            *xs(k) = s.quot(at(k, k));
        }
        for k in (0..n).rev() {
            let mut s = *xs(k);
            for i in k + 1..n {
                s = T::fma(-at(i, k), *xs(i), s);
            }
            *xs(k) = s;
        }
        laswp(x, ipiv, n, (0..n).rev());
    }
}

pub fn gesc2<T: Blas>(g: &Gesc2<T>) -> crate::core::Result<()> {
    if g.n > c_int::MAX as usize || g.lda > c_int::MAX as usize {
        return Err(crate::core::Error::not_supported(format!("n = {} or lda = {} exceeds LAPACK's 32-bit integers", g.n, g.lda)));
    }
    single_threaded_blas();
    (0..g.batch).into_par_iter().with_min_len((65536 / (g.n * g.n).max(1)).max(1)).for_each(|i| {
        // SAFETY: validated call with host pivots in range; task i writes rhs_i and scale_i.
        unsafe {
            *g.scale.add(i) = T::gesc2(g.n as c_int, g.a.matrix(i), g.lda as c_int, g.rhs.matrix(i), g.ipiv.add(i * g.n), g.jpiv.add(i * g.n));
        }
    });
    Ok(())
}
