//! CPU backend: the kernels' algorithm in Rust, one matrix per rayon task: the same
//! round-robin ordering, rotation formulas, skip test and convergence rule (see the module
//! docs), so that the two backends take the same rotations in exact arithmetic. The in-place
//! iterations ([`eig_in_place`], [`svd_in_place`]) are public for families built on them.

use super::{Gesvdj, Opts, Syevj};
use crate::core::{Result, Scalar};
use num_traits::{Float, One, Zero};
use rayon::prelude::*;

/// How one matrix's iteration ended: `info` (0, 1 or 2, as in the module docs), the sweeps
/// it took and the residual of its last sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome<R> {
    pub info: i32,
    pub sweeps: i32,
    pub residual: R,
}

/// Pair j of step k of the round-robin ordering of N (even) players, p < q.
pub fn pair(j: usize, k: usize, big_n: usize) -> (usize, usize) {
    let x = if j == 0 { 0 } else { (j - 1 + k) % (big_n - 1) + 1 };
    let y = (big_n - 2 - j + k) % (big_n - 1) + 1;
    (x.min(y), x.max(y))
}

/// One rotation of a step: J = [[c, sp], [−conj(sp), c]], and the 2 × 2 block's new
/// diagonal (two-sided).
#[derive(Clone, Copy, Debug)]
struct Rot<T: Scalar> {
    p: usize,
    q: usize,
    c: T::Real,
    sp: T,
    dp: T::Real,
    dq: T::Real,
}

fn two<R: Float>() -> R {
    R::one() + R::one()
}

/// The rotation that diagonalises [[a, b], [conj(b), d]] (a, d real, g = |b| > 0): (c, sp, t),
/// the new diagonal being a − t·g and d + t·g.
fn rotation<T: Scalar>(a: T::Real, d: T::Real, b: T, g: T::Real) -> (T::Real, T, T::Real) {
    let theta = (d - a) / (two::<T::Real>() * g);
    let sign = if theta >= T::Real::zero() { T::Real::one() } else { -T::Real::one() };
    let t = sign / (theta.abs() + T::Real::one().hypot(theta));
    let c = T::Real::one() / (T::Real::one() + t * t).sqrt();
    (c, b.scale(t * c / g), t)
}

/// Columns p and q of x (rows × ·, leading dimension ld) times J.
fn rotate_columns<T: Scalar>(x: &mut [T], rows: usize, ld: usize, r: &Rot<T>) {
    for i in 0..rows {
        let (u, v) = (x[i + r.p * ld], x[i + r.q * ld]);
        x[i + r.p * ld] = u.scale(r.c) - v * r.sp.conj();
        x[i + r.q * ld] = u * r.sp + v.scale(r.c);
    }
}

/// The test of a pair: (ratio, rotate?), ratio = g / scale (0 when g = 0); NaN when something
/// is NaN.
fn test<R: Float>(g: R, scale: R, tol: R) -> (R, bool) {
    let ratio = if g == R::zero() { R::zero() } else { g / scale };
    (ratio, g > tol * scale && !ratio.is_nan())
}

/// Ends a sweep: Some(outcome) when the iteration stops.
fn end_sweep<R: Float>(sweep: u32, bad: bool, rotated: bool, worst: R, opts: &Opts<R>) -> Option<Outcome<R>> {
    let sweeps = sweep as i32;
    if bad {
        return Some(Outcome { info: 2, sweeps, residual: R::nan() });
    }
    if !rotated {
        return Some(Outcome { info: 0, sweeps, residual: worst });
    }
    (sweep >= opts.max_sweeps).then_some(Outcome { info: 1, sweeps, residual: worst })
}

/// Two-sided cyclic Jacobi on the n × n Hermitian matrix a (full, leading dimension n, finite):
/// diagonal on return (its diagonal the eigenvalues, unsorted); `v` (n × n, in: the identity
/// or any unitary start) accumulates the rotations.
pub fn eig_in_place<T: Scalar>(n: usize, a: &mut [T], mut v: Option<&mut [T]>, opts: &Opts<T::Real>) -> Outcome<T::Real> {
    let big_n = n + (n & 1);
    let mut rots: Vec<Rot<T>> = Vec::with_capacity(big_n / 2);
    let mut sweep = 0;
    loop {
        sweep += 1;
        let (mut worst, mut rotated, mut bad) = (T::Real::zero(), false, false);
        for k in 0..big_n.saturating_sub(1) {
            rots.clear();
            for j in 0..big_n / 2 {
                let (p, q) = pair(j, k, big_n);
                if q >= n {
                    continue;
                }
                let (app, aqq, b) = (a[p + p * n].re(), a[q + q * n].re(), a[p + q * n]);
                let (g, scale) = (b.abs(), app.abs().sqrt() * aqq.abs().sqrt());
                let (ratio, rotate) = test(g, scale, opts.tol);
                if ratio.is_nan() || app.is_nan() || aqq.is_nan() {
                    bad = true;
                } else {
                    worst = worst.max(ratio);
                }
                if rotate {
                    let (c, sp, t) = rotation(app, aqq, b, g);
                    rots.push(Rot { p, q, c, sp, dp: app - t * g, dq: aqq + t * g });
                }
            }
            rotated |= !rots.is_empty();
            for r in &rots {
                rotate_columns(a, n, n, r);
                if let Some(v) = v.as_deref_mut() {
                    rotate_columns(v, n, n, r);
                }
            }
            for r in &rots {
                for i in 0..n {
                    let (u, w) = (a[r.p + i * n], a[r.q + i * n]);
                    a[r.p + i * n] = u.scale(r.c) - r.sp * w;
                    a[r.q + i * n] = r.sp.conj() * u + w.scale(r.c);
                }
            }
            for r in &rots {
                a[r.p + r.p * n] = T::from_real(r.dp);
                a[r.q + r.q * n] = T::from_real(r.dq);
                a[r.p + r.q * n] = T::zero();
                a[r.q + r.p * n] = T::zero();
            }
        }
        if let Some(o) = end_sweep(sweep, bad, rotated, worst, opts) {
            return o;
        }
    }
}

/// Σ|x|² of a column.
fn norm2<T: Scalar>(x: &[T]) -> T::Real {
    x.iter().fold(T::Real::zero(), |s, &e| s + e.re() * e.re() + e.im() * e.im())
}

/// One-sided Jacobi on the columns of the mm × nn matrix w (leading dimension mm, finite): on
/// return its columns are orthogonal to the tolerance; `q` (nn × nn) accumulates the
/// rotations.
pub fn svd_in_place<T: Scalar>(mm: usize, nn: usize, w: &mut [T], mut q: Option<&mut [T]>, opts: &Opts<T::Real>) -> Outcome<T::Real> {
    let big_n = nn + (nn & 1);
    let mut rots: Vec<Rot<T>> = Vec::with_capacity(big_n / 2);
    let mut sweep = 0;
    loop {
        sweep += 1;
        let (mut worst, mut rotated, mut bad) = (T::Real::zero(), false, false);
        for k in 0..big_n.saturating_sub(1) {
            rots.clear();
            for j in 0..big_n / 2 {
                let (p, qq) = pair(j, k, big_n);
                if qq >= nn {
                    continue;
                }
                let (x, y) = (&w[p * mm..(p + 1) * mm], &w[qq * mm..(qq + 1) * mm]);
                let (al, be) = (norm2(x), norm2(y));
                let ga = x.iter().zip(y).fold(T::zero(), |s, (&a, &b)| T::fma(a.conj(), b, s));
                let (g, scale) = (ga.abs(), al.sqrt() * be.sqrt());
                let (ratio, rotate) = test(g, scale, opts.tol);
                if ratio.is_nan() || al.is_nan() || be.is_nan() {
                    bad = true;
                } else {
                    worst = worst.max(ratio);
                }
                if rotate {
                    let (c, sp, _) = rotation(al, be, ga, g);
                    rots.push(Rot { p, q: qq, c, sp, dp: al, dq: be });
                }
            }
            rotated |= !rots.is_empty();
            for r in &rots {
                rotate_columns(w, mm, mm, r);
                if let Some(q) = q.as_deref_mut() {
                    rotate_columns(q, nn, nn, r);
                }
            }
        }
        if let Some(o) = end_sweep(sweep, bad, rotated, worst, opts) {
            return o;
        }
    }
}

/// Where value j goes: its rank among `vals` (ascending, or descending when `desc`; ties by
/// index), or j unsorted.
fn ranks<R: Float>(vals: &[R], sort: bool, desc: bool) -> Vec<usize> {
    (0..vals.len())
        .map(|j| {
            if !sort {
                return j;
            }
            let v = vals[j];
            vals.iter().enumerate().filter(|&(i, &u)| (if desc { u > v } else { u < v }) || (u == v && i < j)).count()
        })
        .collect()
}

/// Column r of x (rows × cols, leading dimension ld) made a unit vector orthogonal to the
/// columns before it and to those after it whose value in s is nonzero (CGS2 from e_0, e_1, …
/// until one keeps more than half its norm): the kernels' completion.
pub fn complete<T: Scalar>(x: &mut [T], rows: usize, cols: usize, ld: usize, r: usize, s: &[T::Real]) {
    let present = |c: usize| c != r && (c < r || s[c] != T::Real::zero());
    for e in 0..rows {
        let mut xr: Vec<T> = (0..rows).map(|i| if i == e { T::one() } else { T::zero() }).collect();
        for _ in 0..2 {
            let coef: Vec<T> = (0..cols).map(|c| if present(c) { (0..rows).fold(T::zero(), |d, i| T::fma(x[i + c * ld].conj(), xr[i], d)) } else { T::zero() }).collect();
            for (i, xi) in xr.iter_mut().enumerate() {
                *xi = (0..cols).fold(*xi, |d, c| T::fma(-x[i + c * ld], coef[c], d));
            }
        }
        let nrm = norm2(&xr).sqrt();
        if nrm > T::Real::one() / two::<T::Real>() {
            for (i, xi) in xr.iter().enumerate() {
                x[i + r * ld] = xi.scale(T::Real::one() / nrm);
            }
            return;
        }
    }
}

/// The identity of order n, column-major.
fn identity<T: Scalar>(n: usize) -> Vec<T> {
    let mut v = vec![T::zero(); n * n];
    (0..n).for_each(|i| v[i + i * n] = T::one());
    v
}

/// Writes matrix i's statistics.
///
/// # Safety
/// A validated call's per-matrix outputs; no other task writes entry i.
unsafe fn stats<R: Copy>(info: *mut i32, sweeps: *mut i32, residual: *mut R, i: usize, o: Outcome<R>) {
    *info.add(i) = o.info;
    *sweeps.add(i) = o.sweeps;
    *residual.add(i) = o.residual;
}

/// Matrix i of a syevj call.
///
/// # Safety
/// A validated call on host memory; no other task touches matrix i's outputs.
unsafe fn syevj_one<T: Scalar>(p: &Syevj<T>, i: usize) {
    let n = p.n;
    let am = p.a.add(i * p.stride_a);
    let mut a = vec![T::zero(); n * n];
    for c in 0..n {
        for r in 0..n {
            let stored = if p.upper { r <= c } else { r >= c };
            let x = if stored { *am.add(r + c * p.lda) } else { (*am.add(c + r * p.lda)).conj() };
            a[r + c * n] = if r == c { T::from_real(x.re()) } else { x };
        }
    }
    let w = std::slice::from_raw_parts_mut(p.w.add(i * p.stride_w), n);
    let mut v = p.vectors.then(|| identity::<T>(n));
    let o = if a.iter().all(|x| x.is_finite()) { eig_in_place(n, &mut a, v.as_deref_mut(), &p.opts) } else { Outcome { info: 2, sweeps: 0, residual: T::Real::nan() } };
    if o.info == 2 {
        w.fill(T::Real::nan());
        if p.vectors {
            (0..n).for_each(|c| (0..n).for_each(|r| *am.add(r + c * p.lda) = T::from_real(T::Real::nan())));
        }
    } else {
        let vals: Vec<T::Real> = (0..n).map(|j| a[j + j * n].re()).collect();
        let rk = ranks(&vals, p.opts.sort, false);
        (0..n).for_each(|j| w[rk[j]] = vals[j]);
        if let Some(v) = v {
            (0..n).for_each(|j| (0..n).for_each(|r| *am.add(r + rk[j] * p.lda) = v[r + j * n]));
        }
    }
    stats(p.info, p.sweeps, p.residual, i, o);
}

/// Every matrix of a syevj call, rayon over the matrices.
pub fn syevj<T: Scalar>(p: &Syevj<T>) -> Result<()> {
    // SAFETY: a validated call on host memory; task i writes matrix i's outputs only.
    (0..p.batch).into_par_iter().for_each(|i| unsafe { syevj_one(p, i) });
    Ok(())
}

/// Matrix i of a gesvdj call.
///
/// # Safety
/// As [`syevj_one`].
unsafe fn gesvdj_one<T: Scalar>(p: &Gesvdj<T>, i: usize) {
    let (m, n) = (p.m, p.n);
    let wide = m < n;
    let (mm, nn) = (m.max(n), m.min(n));
    let am = p.a.add(i * p.stride_a);
    let mut w: Vec<T> = (0..mm * nn).map(|e| if wide { (*am.add(e / mm + (e % mm) * p.lda)).conj() } else { *am.add(e % mm + (e / mm) * p.lda) }).collect();
    // X: the normalised columns of W; Y: the rotations.
    let (x, ldx, y, ldy) = if wide { (p.v, p.ldv, p.u, p.ldu) } else { (p.u, p.ldu, p.v, p.ldv) };
    let (x, y) = (if x.is_null() { None } else { Some(x.add(i * if wide { p.stride_v } else { p.stride_u })) }, if y.is_null() { None } else { Some(y.add(i * if wide { p.stride_u } else { p.stride_v })) });
    let mut q = y.map(|_| identity::<T>(nn));
    let o = if w.iter().all(|e| e.is_finite()) { svd_in_place(mm, nn, &mut w, q.as_deref_mut(), &p.opts) } else { Outcome { info: 2, sweeps: 0, residual: T::Real::nan() } };
    let s = std::slice::from_raw_parts_mut(p.s.add(i * p.stride_s), nn);
    let nan = T::from_real(T::Real::nan());
    if o.info == 2 {
        s.fill(T::Real::nan());
        if let Some(x) = x {
            (0..nn).for_each(|c| (0..mm).for_each(|r| *x.add(r + c * ldx) = nan));
        }
        if let Some(y) = y {
            (0..nn).for_each(|c| (0..nn).for_each(|r| *y.add(r + c * ldy) = nan));
        }
    } else {
        let vals: Vec<T::Real> = (0..nn).map(|j| norm2(&w[j * mm..(j + 1) * mm]).sqrt()).collect();
        let rk = ranks(&vals, p.opts.sort, true);
        (0..nn).for_each(|j| s[rk[j]] = vals[j]);
        if let Some(x) = x {
            let xs = std::slice::from_raw_parts_mut(x, ldx * (nn - 1) + mm);
            for j in 0..nn {
                let inv = if vals[j] > T::Real::zero() { T::Real::one() / vals[j] } else { T::Real::zero() };
                (0..mm).for_each(|r| xs[r + rk[j] * ldx] = if inv > T::Real::zero() { w[r + j * mm].scale(inv) } else { T::zero() });
            }
            for r in 0..nn {
                if s[r] == T::Real::zero() {
                    complete(xs, mm, nn, ldx, r, s);
                }
            }
        }
        if let (Some(y), Some(q)) = (y, q) {
            (0..nn).for_each(|j| (0..nn).for_each(|r| *y.add(r + rk[j] * ldy) = q[r + j * nn]));
        }
    }
    stats(p.info, p.sweeps, p.residual, i, o);
}

/// Every matrix of a gesvdj call, rayon over the matrices.
pub fn gesvdj<T: Scalar>(p: &Gesvdj<T>) -> Result<()> {
    // SAFETY: as in `syevj`.
    (0..p.batch).into_par_iter().for_each(|i| unsafe { gesvdj_one(p, i) });
    Ok(())
}
