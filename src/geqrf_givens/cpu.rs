//! CPU backend: the rotations in Rust, in the serial order (columns left to right, each from
//! the bottom row up), one matrix per rayon task. LAPACK has no Givens QR with this storage.

use super::{Gels, Geqrf, Orgqr, Ormqr};
use crate::core::{Op, Result, Scalar, Side};
use num_traits::{Float, Zero};
use rayon::prelude::*;

/// Matrices per rayon task for `work` flops per matrix: at least ~64K flops each.
fn per_task(work: usize) -> usize {
    (65536 / work.max(1)).max(1)
}

/// LAPACK's `safmin` (the smallest normal number; its reciprocal does not overflow) and
/// `safmax = 1 / safmin` of a real type.
fn safe_range<R: Float>() -> (R, R) {
    let safmin = R::min_positive_value();
    (safmin, R::one() / safmin)
}

/// The plane rotation of LAPACK's `?lartg` with safe scaling (Anderson, ACM TOMS 44, 2017;
/// LAPACK 3.10's `la_xlartg`, as revised since): `(c, s, r)` with
/// `[c s; −conj(s) c]·[f; g] = [r; 0]`, c real >= 0 and `c² + |s|² = 1`. g = 0 gives
/// (1, 0, f); f = 0 gives c = 0 and r = |g| real; otherwise r = sgn(f)·‖(f, g)‖. No overflow
/// or underflow for finite inputs; NaN propagates into c, s and r.
pub fn lartg<T: Scalar>(f: T, g: T) -> (T::Real, T, T) {
    if T::IS_COMPLEX {
        let (c, s, r) = lartg_complex((f.re(), f.im()), (g.re(), g.im()));
        (c, T::from_parts(s.0, s.1), T::from_parts(r.0, r.1))
    } else {
        let (c, s, r) = lartg_real(f.re(), g.re());
        (c, T::from_real(s), T::from_real(r))
    }
}

/// `dlartg.f90`: unscaled where f and g lie in (rtmin, rtmax), else scaled by max(|f|, |g|).
fn lartg_real<R: Float>(f: R, g: R) -> (R, R, R) {
    let (safmin, safmax) = safe_range::<R>();
    let (rtmin, rtmax) = (safmin.sqrt(), (safmax / (R::one() + R::one())).sqrt());
    let (f1, g1) = (f.abs(), g.abs());
    if g.is_zero() {
        (R::one(), R::zero(), f)
    } else if f.is_zero() {
        (R::zero(), R::one().copysign(g), g1)
    } else if f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax {
        let d = (f * f + g * g).sqrt();
        let r = d.copysign(f);
        (f1 / d, g / r, r)
    } else {
        let u = safmax.min(safmin.max(f1).max(g1));
        let (fs, gs) = (f / u, g / u);
        let d = (fs * fs + gs * gs).sqrt();
        let r = d.copysign(f);
        (fs.abs() / d, gs / r, r * u)
    }
}

/// A complex number as (re, im), so the arithmetic below is exactly Fortran's (no fused
/// multiply-adds, real divisors divide each part).
type C<R> = (R, R);

fn cmul<R: Float>(a: C<R>, b: C<R>) -> C<R> {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}
fn cdiv<R: Float>(a: C<R>, d: R) -> C<R> {
    (a.0 / d, a.1 / d)
}
fn cconj<R: Float>(a: C<R>) -> C<R> {
    (a.0, -a.1)
}
fn abssq<R: Float>(a: C<R>) -> R {
    a.0 * a.0 + a.1 * a.1
}

/// `zlartg.f90`: g = 0, f = 0 (g real or imaginary exactly, else unscaled or scaled), then
/// unscaled where both lie in (rtmin, rtmax), else f and g scaled separately when their
/// magnitudes are far apart.
fn lartg_complex<R: Float>(f: C<R>, g: C<R>) -> (R, C<R>, C<R>) {
    let (safmin, safmax) = safe_range::<R>();
    let two = R::one() + R::one();
    let rtmin = safmin.sqrt();
    let zero = R::zero();
    if g.0.is_zero() && g.1.is_zero() {
        return (R::one(), (zero, zero), f);
    }
    if f.0.is_zero() && f.1.is_zero() {
        let r = if g.0.is_zero() {
            g.1.abs()
        } else if g.1.is_zero() {
            g.0.abs()
        } else {
            let g1 = g.0.abs().max(g.1.abs());
            if g1 > rtmin && g1 < (safmax / two).sqrt() {
                abssq(g).sqrt()
            } else {
                let u = safmax.min(safmin.max(g1));
                let gs = cdiv(g, u);
                let d = abssq(gs).sqrt();
                return (zero, cdiv(cconj(gs), d), (d * u, zero));
            }
        };
        return (zero, cdiv(cconj(g), r), (r, zero));
    }
    let f1 = f.0.abs().max(f.1.abs());
    let g1 = g.0.abs().max(g.1.abs());
    let rtmax = (safmax / (two + two)).sqrt();
    // Unscaled: u = w = 1; scaled: f and g divided by u = max(|f|, |g|) (f by v = |f| instead
    // when f/u would fall below rtmin), and c, r scaled back at the end.
    let (fs, gs, f2, h2, u, w) = if f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax {
        let (f2, g2) = (abssq(f), abssq(g));
        (f, g, f2, f2 + g2, R::one(), R::one())
    } else {
        let u = safmax.min(safmin.max(f1).max(g1));
        let gs = cdiv(g, u);
        let g2 = abssq(gs);
        if f1 / u < rtmin {
            let v = safmax.min(safmin.max(f1));
            let w = v / u;
            let fs = cdiv(f, v);
            let f2 = abssq(fs);
            (fs, gs, f2, f2 * (w * w) + g2, u, w)
        } else {
            let fs = cdiv(f, u);
            let f2 = abssq(fs);
            (fs, gs, f2, f2 + g2, u, R::one())
        }
    };
    let (c, r, s);
    if f2 >= h2 * safmin {
        // safmin <= f2/h2 <= 1: c from the ratio.
        c = (f2 / h2).sqrt();
        r = cdiv(fs, c);
        s = if f2 > rtmin && h2 < rtmax * two { cmul(cdiv(fs, f2.sqrt()), cdiv(cconj(gs), h2.sqrt())) } else { cmul(cconj(gs), cdiv(r, h2)) };
    } else {
        // f2/h2 may be subnormal and h2/f2 overflow: go through sqrt(f2·h2), which is safe.
        let d = (f2 * h2).sqrt();
        c = f2 / d;
        r = if c >= safmin { cdiv(fs, c) } else { (fs.0 * (h2 / d), fs.1 * (h2 / d)) };
        s = cmul(cdiv(fs, f2.sqrt()), cdiv(cconj(gs), h2.sqrt()));
    }
    (c * w, s, (r.0 * u, r.1 * u))
}

/// `[x; y] := [c s; −conj(s) c]·[x; y]` (LAPACK `?rot`). Plain multiplies and adds, not
/// `Scalar::fma`: without the FMA target feature that is a software fallback, 4× slower
/// here, and the backends only promise to agree within rounding.
#[inline]
fn rot<T: Scalar>(x: T, y: T, c: T::Real, s: T) -> (T, T) {
    (s * y + x.scale(c), y.scale(c) - s.conj() * x)
}

/// Givens QR of one `m × n` matrix in place (m >= n): R above the diagonal, s of G(i, j) in
/// A(i, j) and c in CS(i, j), i > j.
///
/// # Safety
/// `a` covers `m × n` elements with leading dimension `lda`, `cs` likewise with `ldcs`.
unsafe fn factor<T: Scalar>(a: *mut T, lda: usize, cs: *mut T::Real, ldcs: usize, m: usize, n: usize) {
    let at = |i: usize, j: usize| a.add(i + j * lda);
    for j in 0..n.min(m.saturating_sub(1)) {
        // The rotations of column j read and write column j only (G(i, j) meets the r of
        // G(i + 1, j) in row i), so they are all computed first, then applied column by
        // column in the same order.
        for i in (j + 1..m).rev() {
            let (c, s, r) = lartg(*at(i - 1, j), *at(i, j));
            *at(i - 1, j) = r;
            *at(i, j) = s;
            *cs.add(i + j * ldcs) = c;
        }
        for col in j + 1..n {
            for i in (j + 1..m).rev() {
                let (x, y) = rot(*at(i - 1, col), *at(i, col), *cs.add(i + j * ldcs), *at(i, j));
                *at(i - 1, col) = x;
                *at(i, col) = y;
            }
        }
    }
}

/// Calls `f(i, j)` for the rotations G(i, j) of the first k columns of a factorisation with
/// nq rows: in the serial order (`forward`), or in reverse.
fn for_each_rotation(nq: usize, k: usize, forward: bool, f: impl FnMut((usize, usize))) {
    let order = (0..k).flat_map(move |j| (j + 1..nq).rev().map(move |i| (i, j)));
    if forward {
        order.for_each(f)
    } else {
        order.rev().for_each(f)
    }
}

/// `op(Q)·C` or `C·op(Q)` for one matrix, Q from the rotations of the first k columns of
/// `a`/`cs` (nq = m for Left, n for Right, rows). With `Qᴴ = G(N) ⋯ G(1)`:
/// - Left, Qᴴ: G(1) first, each G as is; Left, Q: G(N)ᴴ first (Gᴴ is G with −s);
/// - Right, Q = G(1)ᴴ ⋯ G(N)ᴴ: ·G(1)ᴴ first, on a row pair [x y] that is the rotation with
///   conj(s); Right, Qᴴ: ·G(N) first, the rotation with −conj(s).
///
/// # Safety
/// `a`, `cs` cover `nq × k` (leading dimensions `lda`, `ldcs`), `c` covers `m × n` (`ldc`).
#[allow(clippy::too_many_arguments)]
unsafe fn apply<T: Scalar>(side: Side, trans: Op, m: usize, n: usize, k: usize, a: *const T, lda: usize, cs: *const T::Real, ldcs: usize, c: *mut T, ldc: usize) {
    let adjoint = trans != Op::N;
    let nq = if side == Side::Left { m } else { n };
    let forward = (side == Side::Left) == adjoint;
    let sine = |i: usize, j: usize| {
        let s = *a.add(i + j * lda);
        let s = if side == Side::Right { s.conj() } else { s };
        if forward {
            s
        } else {
            -s
        }
    };
    let cosine = |i: usize, j: usize| *cs.add(i + j * ldcs);
    let at = |i: usize, j: usize| c.add(i + j * ldc);
    match side {
        // Each column of C on its own: contiguous rows.
        Side::Left => {
            for col in 0..n {
                for_each_rotation(nq, k, forward, |(i, j)| {
                    let (x, y) = rot(*at(i - 1, col), *at(i, col), cosine(i, j), sine(i, j));
                    *at(i - 1, col) = x;
                    *at(i, col) = y;
                });
            }
        }
        // Each rotation on a pair of columns of C.
        Side::Right => for_each_rotation(nq, k, forward, |(i, j)| {
            let (cc, s) = (cosine(i, j), sine(i, j));
            for row in 0..m {
                let (x, y) = rot(*at(row, i - 1), *at(row, i), cc, s);
                *at(row, i - 1) = x;
                *at(row, i) = y;
            }
        }),
    }
}

/// The first n columns of Q (rotations of the first k columns) over the factors of one
/// matrix, in place, as LAPACK `?org2r`: columns k.. start as unit vectors; column j < k is
/// built after the columns right of it have taken its rotations, reading its sines just
/// before each is overwritten.
///
/// # Safety
/// `a` covers `m × n` (`lda`), `cs` covers `m × k` (`ldcs`); m >= n >= k.
unsafe fn form_q<T: Scalar>(m: usize, n: usize, k: usize, a: *mut T, lda: usize, cs: *const T::Real, ldcs: usize) {
    let at = |i: usize, j: usize| a.add(i + j * lda);
    for col in k..n {
        for i in 0..m {
            *at(i, col) = if i == col { T::one() } else { T::zero() };
        }
    }
    for j in (0..k).rev() {
        // Q·e_c for c > j: rows 0..=j are still zero there, so only rows j.. move.
        for col in j + 1..n {
            for i in j + 1..m {
                let (x, y) = rot(*at(i - 1, col), *at(i, col), *cs.add(i + j * ldcs), -*at(i, j));
                *at(i - 1, col) = x;
                *at(i, col) = y;
            }
        }
        // Q·e_j: row i is still zero when G(i, j)ᴴ reaches it, so A(i, j) may hold its sine.
        let mut v = T::one();
        for i in j + 1..m {
            let (x, y) = rot(v, T::zero(), *cs.add(i + j * ldcs), -*at(i, j));
            *at(i - 1, j) = x;
            v = y;
        }
        *at(m - 1, j) = v;
        for i in 0..j {
            *at(i, j) = T::zero();
        }
    }
}

/// `x := R⁻¹·x` for the upper-triangular `n × n` R at `a` (column-oriented back
/// substitution; complex divisions by Smith's algorithm, which does not overflow |d|²).
///
/// # Safety
/// `a` covers `n × n` (`lda`), `x` covers n elements.
unsafe fn back_substitute<T: Scalar>(n: usize, a: *const T, lda: usize, x: *mut T) {
    for l in (0..n).rev() {
        let xl = (*x.add(l)).quot(*a.add(l + l * lda));
        *x.add(l) = xl;
        for i in 0..l {
            *x.add(i) = *x.add(i) - *a.add(i + l * lda) * xl;
        }
    }
}

/// [`super::geqrf`] on host arrays: one matrix per task.
pub fn geqrf<T: Scalar>(f: &Geqrf<T>) -> Result<()> {
    (0..f.batch).into_par_iter().with_min_len(per_task(f.m.saturating_mul(f.n).saturating_mul(f.n))).for_each(|i| {
        // SAFETY: validated call; task i touches matrix i of A and CS only.
        unsafe { factor(f.a.matrix(i), f.lda, f.cs.matrix(i), f.ldcs, f.m, f.n) }
    });
    Ok(())
}

/// [`super::ormqr`] on host arrays: one matrix per task.
pub fn ormqr<T: Scalar>(o: &Ormqr<T>) -> Result<()> {
    // 6 flops per rotation and element of the other dimension of C.
    let nq = if o.side == Side::Left { o.m } else { o.n };
    (0..o.batch).into_par_iter().with_min_len(per_task(6usize.saturating_mul(nq).saturating_mul(o.k).saturating_mul(o.m + o.n - nq))).for_each(|i| {
        // SAFETY: validated call; task i writes C_i only.
        unsafe { apply(o.side, o.trans, o.m, o.n, o.k, o.a.matrix(i), o.lda, o.cs.matrix(i), o.ldcs, o.c.matrix(i), o.ldc) }
    });
    Ok(())
}

/// [`super::orgqr`] on host arrays: one matrix per task.
pub fn orgqr<T: Scalar>(o: &Orgqr<T>) -> Result<()> {
    (0..o.batch).into_par_iter().with_min_len(per_task(6usize.saturating_mul(o.m).saturating_mul(o.n).saturating_mul(o.k.max(1)))).for_each(|i| {
        // SAFETY: validated call; task i writes A_i only (CS_i is not read when k = 0).
        unsafe {
            let cs = if o.k > 0 { o.cs.matrix(i) } else { std::ptr::null() };
            form_q(o.m, o.n, o.k, o.a.matrix(i), o.lda, cs, o.ldcs)
        }
    });
    Ok(())
}

/// [`super::gels`] on host arrays, one problem per task: factor, check R's diagonal, then
/// replay the rotations on B and back-substitute; the
/// cosines live in a per-task scratch (gels has no CS argument), so B is not touched when
/// R(j, j) is zero.
pub fn gels<T: Scalar>(g: &Gels<T>) -> Result<()> {
    let work = 6usize.saturating_mul(g.m).saturating_mul(g.n).saturating_mul(g.n + g.nrhs);
    (0..g.batch).into_par_iter().with_min_len(per_task(work)).for_each_init(Vec::new, |cs: &mut Vec<T::Real>, i| {
        cs.resize(g.m * g.n, T::Real::zero());
        // SAFETY: validated call; task i touches A_i, B_i and info[i] only.
        unsafe {
            let (a, b) = (g.a.matrix(i), g.b.matrix(i));
            factor(a, g.lda, cs.as_mut_ptr(), g.m, g.m, g.n);
            let zero = (0..g.n).find(|&j| (*a.add(j + j * g.lda)).is_zero());
            *g.info.add(i) = zero.map_or(0, |j| j as i32 + 1);
            if zero.is_none() {
                apply(Side::Left, Op::C, g.m, g.nrhs, g.n, a, g.lda, cs.as_ptr(), g.m, b, g.ldb);
                for r in 0..g.nrhs {
                    back_substitute(g.n, a, g.lda, b.add(r * g.ldb));
                }
            }
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lapack::Blas;
    use num_complex::{Complex32, Complex64};
    use std::fmt::Debug;

    /// Seeded inputs over the whole exponent range, with exact zeros, real and imaginary
    /// values and pairs of very different magnitude, to reach every branch.
    fn inputs(count: usize, max_exp: i32) -> Vec<(f64, f64, f64, f64)> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut value = move |zero_one_in: u64| -> f64 {
            let x = next();
            if x % zero_one_in == 0 {
                return 0.0;
            }
            let mant = (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            let exp = (x >> 3) % (2 * max_exp as u64 + 1);
            mant * 2f64.powi(exp as i32 - max_exp)
        };
        let mut v: Vec<_> = (0..count).map(|_| (value(7), value(5), value(7), value(5))).collect();
        // Every pair of magnitudes at the branch boundaries (safmin, rtmin, rtmax of both
        // kinds, safmax; subnormal), with real, imaginary and mixed phases.
        let e = max_exp as f64 - 1.0;
        let edges = [-e - 20.0, -e, -e + 1.0, -e / 2.0 - 1.0, -e / 2.0 + 0.5, -30.0, 0.0, 30.0, e / 2.0 - 1.5, e / 2.0 - 0.7, e / 2.0 - 0.2, e / 2.0 + 0.5, e - 1.0, e];
        let phases = [(1.0, 0.0), (0.0, -1.0), (0.6, 0.8), (-0.8, 0.6)];
        let points: Vec<(f64, f64)> = edges.iter().flat_map(|&x| phases.iter().map(move |&(c, s)| (c * 2f64.powf(x), s * 2f64.powf(x)))).collect();
        for &(fr, fi) in &points {
            v.extend(points.iter().map(|&(gr, gi)| (fr, fi, gr, gi)));
        }
        v
    }

    /// |x − y| within 4 units in the last place of the larger magnitude `mag`, or 4 of the
    /// smallest subnormal `tiny` (results in the subnormal range carry absolute rounding).
    fn close(diff: f64, mag: f64, eps: f64, tiny: f64) -> bool {
        diff <= 4.0 * (eps * mag + tiny)
    }

    /// Our lartg against the linked LAPACK's `?lartg` (3.10 through 3.12 differ in the
    /// rounding of some branches, hence a few ulps rather than bitwise), and the rotation's
    /// own properties: c >= 0, c² + |s|² = 1, and `−conj(s)·f + c·g = 0` relative to |r|.
    fn check_lartg<T: Blas + Debug>(max_exp: i32) {
        let tiny: f64 = T::Real::min_positive_value().into();
        let (eps, tiny) = (T::EPS, T::EPS * tiny);
        for (k, &(fr, fi, gr, gi)) in inputs(20_000, max_exp).iter().enumerate() {
            let (f, g) = (T::from_c64(Complex64::new(fr, fi)), T::from_c64(Complex64::new(gr, gi)));
            let (c, s, r) = lartg(f, g);
            let (lc, ls, lr) = T::lartg(f, g);
            let (c, lc): (f64, f64) = (c.into(), lc.into());
            let what = format!("{}lartg case {k}: f = {f:?}, g = {g:?}: ours ({c:e}, {s:?}, {r:?}), LAPACK ({lc:e}, {ls:?}, {lr:?})", T::LETTER);
            if !(lc.is_finite() && ls.is_finite() && lr.is_finite()) {
                // LAPACK 3.10.0's complex rtmax let |f|² + |g|² overflow near sqrt(safmax).
                assert!(T::IS_COMPLEX && c.is_finite() && s.is_finite() && r.is_finite(), "{what}");
                continue;
            }
            let (s64, r64, ls64, lr64) = (s.to_c64(), r.to_c64(), ls.to_c64(), lr.to_c64());
            let (sn, rn) = (s64.norm().max(ls64.norm()), r64.norm().max(lr64.norm()));
            assert!(close((c - lc).abs(), c.max(lc), eps, tiny), "{what}: c");
            assert!(close((s64 - ls64).norm(), sn, eps, tiny), "{what}: s");
            assert!(close((r64 - lr64).norm(), rn, eps, tiny), "{what}: r");
            assert!(c >= 0.0 && (c * c + s64.norm_sqr() - 1.0).abs() <= 4.0 * eps, "{what}: not unitary");
            // The zeroed component, in units of |r| (scaled to stay finite).
            let sc = rn.max(f64::MIN_POSITIVE);
            let (fs, gs) = (f.to_c64() / sc, g.to_c64() / sc);
            assert!((-s64.conj() * fs + c * gs).norm() <= 8.0 * eps, "{what}: g not zeroed");
        }
    }

    #[test]
    fn lartg_matches_lapack_over_the_exponent_range() {
        check_lartg::<f32>(127);
        check_lartg::<f64>(1023);
        check_lartg::<Complex32>(127);
        check_lartg::<Complex64>(1023);
    }

    /// The special branches exactly: g = 0 is the identity, f = 0 gives c = 0 and a real r.
    #[test]
    fn lartg_zero_branches() {
        assert_eq!(lartg(3.0f64, 0.0), (1.0, 0.0, 3.0));
        assert_eq!(lartg(0.0f64, -2.0), (0.0, -1.0, 2.0));
        assert_eq!(lartg(0.0f32, 1e-40), (0.0, 1.0, 1e-40));
        let z = |re: f64, im: f64| Complex64::new(re, im);
        assert_eq!(lartg(z(0.0, 0.0), z(0.0, -4.0)), (0.0, z(0.0, 1.0), z(4.0, 0.0)));
        assert_eq!(lartg(z(0.0, 0.0), z(3.0, 4.0)), (0.0, z(0.6, -0.8), z(5.0, 0.0)));
        assert_eq!(lartg(z(1.0, 2.0), z(0.0, 0.0)), (1.0, z(0.0, 0.0), z(1.0, 2.0)));
        assert_eq!(lartg(3.0f32, 4.0), (0.6, 0.8, 5.0));
    }
}
