//! Tridiagonal systems (gtsv_spike): the classes of systems, LAPACK `?gtsv` as the reference
//! in the same and in the higher precision (`dgtsv` / `zgtsv` on the same system), κ₁(T)
//! estimated as LAPACK's `?lacn2` does, and the ratios: per right-hand side the relative
//! residual ‖b − T·x‖₁ / (‖T‖₁·‖x‖₁·n·ε) and the forward error ‖x − x_ref‖₁ / (‖x_ref‖₁·κ₁·ε),
//! both below [`tol::RATIO`](super::tol::RATIO) for the tests; and the normwise backward error
//! ‖b − T·x‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε) of the tour and the bench, without a factor n (a
//! tridiagonal solve's backward error does not grow with n, and n·ε reaches 4 in single
//! precision at n = 2^25, where such a factor would let any answer pass).

use super::gen::{round, Xorshift};
use super::norm::{c64s, norm1, norm_inf, ratio};
use crate::lapack::Blas;
use crate::{Complex64, Scalar};

/// The classes of systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// |d(k)| > |dl| + |du| by rows and columns (random signs and phases).
    Dominant,
    /// dl, d, du uniform: not dominant, pivoting needed.
    Random,
    /// Hermitian, diagonal 1e-3·uniform, off-diagonals about 1: indefinite, 2×2 pivots.
    Indefinite,
    /// Random with every third diagonal entry exactly zero.
    ZeroDiagonal,
    /// tridiag(−1, 2, −1) with b = (c + 1)·ones in column c: x(k) = (c + 1)·k(n + 1 − k)/2.
    Laplace,
    /// Dominant with rows scaled by 1e6, 1, 1e-6 in turn (b too).
    ScaledRows,
    /// Singular: all zero.
    Zero,
    /// Singular: Dominant with column n/2 zero.
    ZeroColumn,
    /// Singular for odd n: tridiag(1, 0, 1).
    Bipartite,
}

impl Kind {
    /// Whether every system of the class is singular (Bipartite: for odd n).
    pub fn singular(self) -> bool {
        matches!(self, Kind::Zero | Kind::ZeroColumn | Kind::Bipartite)
    }
    /// Whether the no-pivoting algorithm is meant for it (diagonally dominant by rows, or
    /// symmetric positive definite).
    pub fn dominant(self) -> bool {
        matches!(self, Kind::Dominant | Kind::Laplace | Kind::ScaledRows)
    }
}

/// The classes a solver must solve.
pub const SOLVABLE: [Kind; 6] = [Kind::Dominant, Kind::Random, Kind::Indefinite, Kind::ZeroDiagonal, Kind::Laplace, Kind::ScaledRows];

fn c64(re: f64, im: f64) -> Complex64 {
    Complex64::new(re, im)
}

/// One system in double precision (every value representable in the precision it was drawn
/// for), with its right-hand sides; dl and du have n − 1 entries, LAPACK's layout.
#[derive(Clone, Debug)]
pub struct Sys {
    /// The class it was drawn from.
    pub kind: Kind,
    /// The seed it was drawn from.
    pub seed: u64,
    /// The order.
    pub n: usize,
    /// Right-hand sides.
    pub nrhs: usize,
    /// The subdiagonal, n − 1 entries.
    pub dl: Vec<Complex64>,
    /// The diagonal, n entries.
    pub d: Vec<Complex64>,
    /// The superdiagonal, n − 1 entries.
    pub du: Vec<Complex64>,
    /// n × nrhs, compact.
    pub b: Vec<Complex64>,
    /// The exact solution, where known.
    pub exact: Option<Vec<Complex64>>,
}

impl Sys {
    /// A system of `kind` and order n with nrhs right-hand sides, drawn for precision T.
    pub fn new<T: Scalar>(kind: Kind, n: usize, nrhs: usize, seed: u64) -> Sys {
        let mut r = Xorshift::new(seed);
        let m = n.saturating_sub(1);
        let (mut dl, mut du) = (r.uniform::<T>(m), r.uniform::<T>(m));
        let mut d = r.uniform::<T>(n);
        let mut b = r.uniform::<T>(n * nrhs);
        let mut exact = None;
        let dominate = |d: &mut Vec<Complex64>| d.iter_mut().for_each(|x| *x = round::<T>(*x + if x.re >= 0.0 { 5.0 } else { -5.0 }));
        match kind {
            Kind::Dominant | Kind::ScaledRows | Kind::ZeroColumn => {
                dominate(&mut d);
                if kind == Kind::ScaledRows {
                    let s = |k: usize| [1e6, 1.0, 1e-6][k % 3];
                    (0..m).for_each(|k| {
                        dl[k] = round::<T>(dl[k] * s(k + 1));
                        du[k] = round::<T>(du[k] * s(k));
                    });
                    (0..n).for_each(|k| d[k] = round::<T>(d[k] * s(k)));
                    (0..n * nrhs).for_each(|e| b[e] = round::<T>(b[e] * s(e % n)));
                }
                if kind == Kind::ZeroColumn {
                    let j = n / 2;
                    d[j] = c64(0.0, 0.0);
                    if j > 0 {
                        du[j - 1] = c64(0.0, 0.0);
                    }
                    if j < m {
                        dl[j] = c64(0.0, 0.0);
                    }
                }
            }
            Kind::Random => {}
            Kind::Indefinite => {
                d.iter_mut().for_each(|x| *x = round::<T>(c64(1e-3 * x.re, 0.0)));
                dl.iter_mut().for_each(|x| *x = round::<T>(*x * 0.5 + 1.0));
                du = dl.iter().map(|x| x.conj()).collect();
            }
            Kind::ZeroDiagonal => (0..n).filter(|k| k % 3 == 1).for_each(|k| d[k] = c64(0.0, 0.0)),
            Kind::Laplace => {
                dl.fill(c64(-1.0, 0.0));
                du.fill(c64(-1.0, 0.0));
                d.fill(c64(2.0, 0.0));
                exact = Some((0..n * nrhs).map(|e| c64(((e / n + 1) * (e % n + 1) * (n - e % n)) as f64 / 2.0, 0.0)).collect());
                b = (0..n * nrhs).map(|e| c64((e / n + 1) as f64, 0.0)).collect();
            }
            Kind::Zero => {
                dl.fill(c64(0.0, 0.0));
                du.fill(c64(0.0, 0.0));
                d.fill(c64(0.0, 0.0));
            }
            Kind::Bipartite => {
                dl.fill(c64(1.0, 0.0));
                du.fill(c64(1.0, 0.0));
                d.fill(c64(0.0, 0.0));
            }
        }
        Sys { kind, seed, n, nrhs, dl, d, du, b, exact }
    }

    /// ‖T‖₁ (the largest column sum).
    pub fn norm1(&self) -> f64 {
        let n = self.n;
        (0..n).map(|k| self.d[k].norm() + if k > 0 { self.du[k - 1].norm() } else { 0.0 } + if k + 1 < n { self.dl[k].norm() } else { 0.0 }).fold(0.0, f64::max)
    }

    /// ‖T‖∞ (the largest row sum).
    pub fn norm_inf(&self) -> f64 {
        let n = self.n;
        (0..n).map(|k| self.d[k].norm() + if k > 0 { self.dl[k - 1].norm() } else { 0.0 } + if k + 1 < n { self.du[k].norm() } else { 0.0 }).fold(0.0, f64::max)
    }

    /// T·x for one column x (n entries).
    pub fn apply(&self, x: &[Complex64]) -> Vec<Complex64> {
        (0..self.n)
            .map(|k| {
                let mut s = self.d[k] * x[k];
                if k > 0 {
                    s += self.dl[k - 1] * x[k - 1];
                }
                if k + 1 < self.n {
                    s += self.du[k] * x[k + 1];
                }
                s
            })
            .collect()
    }

    /// Tᴴ (its solves estimate ‖T⁻¹‖₁).
    fn adjoint(&self) -> Sys {
        let conj = |v: &[Complex64]| v.iter().map(|z| z.conj()).collect();
        Sys { dl: conj(&self.du), d: conj(&self.d), du: conj(&self.dl), exact: None, ..self.clone() }
    }

    /// The system with only its first right-hand side.
    pub fn first_rhs(&self) -> Sys {
        Sys { nrhs: 1, b: self.b[..self.n].to_vec(), exact: self.exact.as_ref().map(|e| e[..self.n].to_vec()), ..self.clone() }
    }
}

/// LAPACK `?gtsv` of precision R on copies of the system (R real drops imaginary parts) for
/// the right-hand sides `rhs` (n × nrhs): X (as c64) and info.
pub fn lapack<R: Blas>(s: &Sys, rhs: &[Complex64], nrhs: usize) -> (Vec<Complex64>, i32) {
    let cv = |v: &[Complex64]| -> Vec<R> { v.iter().map(|&z| R::from_c64(z)).collect() };
    let (mut dl, mut d, mut du, mut b) = (cv(&s.dl), cv(&s.d), cv(&s.du), cv(rhs));
    let n = s.n as i32;
    // SAFETY: dl and du hold n − 1 elements, d n, b n·nrhs (ldb = max(1, n)).
    let info = unsafe { R::gtsv(n, nrhs as i32, dl.as_mut_ptr(), d.as_mut_ptr(), du.as_mut_ptr(), b.as_mut_ptr(), n.max(1)) };
    (c64s(&b), info)
}

/// LAPACK in the higher precision for T: `dgtsv` for real T, `zgtsv` for complex T.
pub fn reference<T: Scalar>(s: &Sys) -> (Vec<Complex64>, i32) {
    if T::IS_COMPLEX {
        lapack::<Complex64>(s, &s.b, s.nrhs)
    } else {
        lapack::<f64>(s, &s.b, s.nrhs)
    }
}

/// ‖T⁻¹‖₁: for T strictly diagonally dominant by columns, Varah's bound
/// 1 / min_k (|d(k)| − |du(k−1)| − |dl(k)|) (an upper bound, cheap for the large systems);
/// otherwise estimated as LAPACK's `?lacn2` does (Hager's method with Higham's refinements: at
/// most five steps, and the alternating-sign vector), with `zgtsv` solves; +∞ when T is
/// singular.
pub fn inv_norm1(s: &Sys) -> f64 {
    let n = s.n;
    let margin = (0..n).map(|k| s.d[k].norm() - if k > 0 { s.du[k - 1].norm() } else { 0.0 } - if k + 1 < n { s.dl[k].norm() } else { 0.0 }).fold(f64::INFINITY, f64::min);
    if margin > 0.0 {
        return 1.0 / margin;
    }
    let adj = s.adjoint();
    let solve = |t: &Sys, v: &[Complex64]| -> Option<Vec<Complex64>> {
        let (x, info) = lapack::<Complex64>(t, v, 1);
        (info == 0).then_some(x)
    };
    let mut x = vec![c64(1.0 / n as f64, 0.0); n];
    let mut est = 0.0;
    for step in 0..5 {
        let Some(y) = solve(s, &x) else { return f64::INFINITY };
        let ny = norm1(&y);
        if step > 0 && ny <= est {
            break;
        }
        est = ny;
        let xi: Vec<Complex64> = y.iter().map(|z| if z.norm() > 0.0 { z / z.norm() } else { c64(1.0, 0.0) }).collect();
        let Some(z) = solve(&adj, &xi) else { return f64::INFINITY };
        let (j, zj) = z.iter().enumerate().map(|(j, z)| (j, z.norm())).fold((0, -1.0), |a, b| if b.1 > a.1 { b } else { a });
        let ztx: f64 = z.iter().zip(&x).map(|(z, x)| (z.conj() * x).re).sum();
        if step > 0 && zj <= ztx {
            break;
        }
        x = vec![c64(0.0, 0.0); n];
        x[j] = c64(1.0, 0.0);
    }
    let alt: Vec<Complex64> = (0..n).map(|i| c64(if i % 2 == 0 { 1.0 } else { -1.0 } * (1.0 + i as f64 / (n.max(2) - 1) as f64), 0.0)).collect();
    let Some(y) = solve(s, &alt) else { return f64::INFINITY };
    est.max(2.0 * norm1(&y) / (3.0 * n as f64))
}

/// Per right-hand side of a nonsingular system, (residual ratio, forward error ratio) of its
/// solution `x` (n × nrhs, compact) in precision T: ‖b − T·x‖₁ / (‖T‖₁·‖x‖₁·n·ε) and
/// ‖x − x_ref‖₁ / (‖x_ref‖₁·κ₁·ε), x_ref the exact solution where known, else LAPACK's in the
/// higher precision.
pub fn ratios<T: Scalar>(s: &Sys, x: &[T]) -> Vec<(f64, f64)> {
    let n = s.n;
    let (xref, _) = reference::<T>(s);
    let norm_t = s.norm1();
    let kappa = norm_t * inv_norm1(s);
    (0..s.nrhs)
        .map(|c| {
            let xc = c64s(&x[c * n..(c + 1) * n]);
            let res: Vec<Complex64> = s.b[c * n..(c + 1) * n].iter().zip(s.apply(&xc)).map(|(b, t)| b - t).collect();
            let xr = match &s.exact {
                Some(e) => &e[c * n..(c + 1) * n],
                None => &xref[c * n..(c + 1) * n],
            };
            let diff: Vec<Complex64> = xc.iter().zip(xr).map(|(a, b)| a - b).collect();
            (ratio(norm1(&res), norm_t * norm1(&xc) * n as f64 * T::EPS), ratio(norm1(&diff), norm1(xr) * kappa * T::EPS))
        })
        .collect()
}

/// The normwise backward error ‖b − T·x‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε) of right-hand side `c`'s
/// solution x (n entries) in precision T; with `other` (another solution of the same
/// system), the same measure of their difference, ‖T·(x − other)‖∞ / (…); NaN when x is.
pub fn backward_error<T: Scalar>(s: &Sys, c: usize, x: &[T], other: Option<&[T]>) -> f64 {
    let (xs, b) = (c64s(x), &s.b[c * s.n..(c + 1) * s.n]);
    let scale = (s.norm_inf() * norm_inf(&xs) + norm_inf(b)) * T::EPS;
    let num = match other {
        None => norm_inf(&s.apply(&xs).iter().zip(b).map(|(p, q)| q - p).collect::<Vec<_>>()),
        Some(o) => norm_inf(&s.apply(&xs.iter().zip(o).map(|(p, q)| p - q.to_c64()).collect::<Vec<_>>())),
    };
    num / scale
}

/// dl, d, du and B of the system as T (LAPACK's layout).
pub fn as_t<T: Scalar>(s: &Sys) -> [Vec<T>; 4] {
    let cv = |v: &[Complex64]| v.iter().map(|&z| T::from_c64(z)).collect();
    [cv(&s.dl), cv(&s.d), cv(&s.du), cv(&s.b)]
}
