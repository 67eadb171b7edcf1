//! Symmetric tridiagonal eigenvalues (stebz): the classes of matrices with their exact
//! spectra where known, LAPACK `?sterf` and `?stebz` as references (`dsterf` for the higher
//! precision), the Sturm count in double-double arithmetic (exact for shifts farther than
//! about 1e-25·‖T‖ from the spectrum), and the error ratio of computed eigenvalues:
//! max_k |w_k − λ_k| / max(abstol, ulp·‖T‖), held below [`tol::RATIO`](super::tol::RATIO)
//! (bisection to LAPACK's tolerance is backward stable: its error is a few ulp·‖T‖), against
//! `?stebz` in the same precision and against the reference ([`reference_unit`] scales it for
//! a `dsterf` reference in double).

use super::gen::Xorshift;
use crate::lapack::RealLapack;
use crate::Scalar;

/// The classes of matrices the checks use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// tridiag(−1, 2, −1): λ_k = 2 − 2cos(kπ/(n+1)).
    Laplace,
    /// Clement (Kac): d = 0, e_k = √(k(n−k)); λ = −(n−1), −(n−3), …, n−1.
    Clement,
    /// Wilkinson's W⁺: d_k = |k − (n−1)/2|, e = 1; for n = 21 its pairs agree to 7e-14.
    Wilkinson,
    /// e = 0: the spectrum is d.
    Diagonal,
    /// Random, with every fifth e zero (T splits into blocks).
    Split,
    /// Graded: d_k and e_k decreasing by a factor 10 every n/8 rows.
    Graded,
    /// Random d and e in [−1, 1].
    Random,
}

/// Every class.
pub const CLASSES: [Class; 7] = [Class::Laplace, Class::Clement, Class::Wilkinson, Class::Diagonal, Class::Split, Class::Graded, Class::Random];

/// One matrix in double precision, every value representable in the precision it was drawn
/// for.
#[derive(Clone, Debug)]
pub struct Tri {
    /// The class it was drawn from.
    pub class: Class,
    /// The seed it was drawn from.
    pub seed: u64,
    /// Diagonal, n entries.
    pub d: Vec<f64>,
    /// Off-diagonal, n − 1 entries.
    pub e: Vec<f64>,
}

impl Tri {
    /// A matrix of `class` and order n, drawn for precision T.
    pub fn new<T: Scalar>(class: Class, n: usize, seed: u64) -> Tri {
        let mut r = Xorshift::new(seed);
        let m = n.saturating_sub(1);
        let round = |v: f64| super::gen::round::<T>(num_complex::Complex64::new(v, 0.0)).re;
        let rand = |r: &mut Xorshift, len: usize| -> Vec<f64> { r.uniform::<T>(len).iter().map(|z| z.re).collect() };
        let (d, e) = match class {
            Class::Laplace => (vec![2.0; n], vec![-1.0; m]),
            Class::Clement => (vec![0.0; n], (1..n).map(|k| round(((k * (n - k)) as f64).sqrt())).collect()),
            Class::Wilkinson => ((0..n).map(|k| (k as f64 - (n - 1) as f64 / 2.0).abs()).collect(), vec![1.0; m]),
            Class::Diagonal => (rand(&mut r, n), vec![0.0; m]),
            Class::Split => {
                let d = rand(&mut r, n);
                let e = rand(&mut r, m).into_iter().enumerate().map(|(k, v)| if k % 5 == 4 { 0.0 } else { v }).collect();
                (d, e)
            }
            Class::Graded => {
                let scale = |k: usize| 10f64.powi(-((8 * k / n.max(1)) as i32));
                let d = rand(&mut r, n).into_iter().enumerate().map(|(k, v)| round(v * scale(k))).collect();
                let e = rand(&mut r, m).into_iter().enumerate().map(|(k, v)| round(v * scale(k))).collect();
                (d, e)
            }
            Class::Random => (rand(&mut r, n), rand(&mut r, m)),
        };
        Tri { class, seed, d, e }
    }

    /// The order.
    pub fn n(&self) -> usize {
        self.d.len()
    }

    /// ‖T‖₁ (the largest column sum).
    pub fn norm1(&self) -> f64 {
        let n = self.n();
        (0..n).map(|k| self.d[k].abs() + if k > 0 { self.e[k - 1].abs() } else { 0.0 } + if k + 1 < n { self.e[k].abs() } else { 0.0 }).fold(0.0, f64::max)
    }

    /// The exact spectrum, ascending, where the class has one in closed form (Clement's to
    /// within ulp·‖T‖/2).
    pub fn exact(&self) -> Option<Vec<f64>> {
        let n = self.n();
        let mut v: Vec<f64> = match self.class {
            Class::Laplace => (1..=n).map(|k| 2.0 - 2.0 * (k as f64 * std::f64::consts::PI / (n + 1) as f64).cos()).collect(),
            // Of the matrix before its e_k were rounded: the rounding moves an eigenvalue by at
            // most ulp·max e_k, half a unit of the ratio.
            Class::Clement => (0..n).map(|k| 2.0 * k as f64 - (n - 1) as f64).collect(),
            Class::Diagonal => self.d.clone(),
            _ => return None,
        };
        v.sort_by(f64::total_cmp);
        Some(v)
    }

    /// d and e in precision T.
    pub fn as_t<T: Scalar>(&self) -> (Vec<T>, Vec<T>) {
        let cv = |v: &[f64]| v.iter().map(|&x| T::from_c64(num_complex::Complex64::new(x, 0.0))).collect();
        (cv(&self.d), cv(&self.e))
    }
}

/// d and e of a batch of matrices of one order in precision T, both n apart: each matrix's n
/// entries of d, and its n − 1 of e followed by `pad` (not referenced).
pub fn strided<T: Scalar>(mats: &[Tri], pad: T) -> (Vec<T>, Vec<T>) {
    let n = mats.first().map_or(0, Tri::n);
    let (mut d, mut e) = (Vec::with_capacity(n * mats.len()), Vec::with_capacity(n * mats.len()));
    for m in mats {
        let (di, ei) = m.as_t::<T>();
        d.extend(di);
        e.extend(ei);
        e.push(pad);
    }
    (d, e)
}

/// Every eigenvalue, ascending: the exact spectrum where known, else LAPACK `dsterf`.
pub fn reference(t: &Tri) -> Vec<f64> {
    t.exact().unwrap_or_else(|| sterf::<f64>(t))
}

/// LAPACK `?sterf` of precision R on a copy (as f64).
pub fn sterf<R: RealLapack>(t: &Tri) -> Vec<f64> {
    let (mut d, mut e) = t.as_t::<R>();
    e.push(<R as Scalar>::zero());
    // SAFETY: d holds n entries, e n (LAPACK reads n − 1).
    let info = unsafe { R::sterf(t.n() as i32, d.as_mut_ptr(), e.as_mut_ptr()) };
    assert_eq!(info, 0, "?sterf did not converge on {:?} n = {} (seed {})", t.class, t.n(), t.seed);
    d.iter().map(|x| x.to_c64().re).collect()
}

/// LAPACK `?stebz` of precision R with ORDER = 'E' (`range` b'A', b'V' or b'I'): (w, info).
pub fn stebz<R: RealLapack>(t: &Tri, range: u8, vl: R, vu: R, il: usize, iu: usize, abstol: R) -> (Vec<R>, i32) {
    let n = t.n();
    let (d, mut e) = t.as_t::<R>();
    e.push(<R as Scalar>::zero());
    let mut w = vec![<R as Scalar>::zero(); n];
    let (mut iblock, mut isplit, mut work, mut iwork) = (vec![0; n], vec![0; n], vec![<R as Scalar>::zero(); 4 * n], vec![0; 3 * n]);
    // SAFETY: the workspaces have ?stebz's sizes.
    let (m, info) = unsafe { R::stebz(range, n as i32, vl, vu, il as i32, iu as i32, abstol, d.as_ptr(), e.as_ptr(), w.as_mut_ptr(), iblock.as_mut_ptr(), isplit.as_mut_ptr(), work.as_mut_ptr(), iwork.as_mut_ptr()) };
    w.truncate(m.max(0) as usize);
    (w, info)
}

/// The unit of [`ratio`] against [`reference`] in precision T, in ulp·‖T‖: 1 where the
/// reference is exact or in a higher precision (single), n where it is `dsterf` in double
/// (QL/QR's own error grows as n·ulp·‖T‖).
pub fn reference_unit<T: Scalar>(t: &Tri) -> f64 {
    if t.exact().is_some() || T::EPS > 1e-10 {
        1.0
    } else {
        t.n() as f64
    }
}

/// max_k |w_k − reference_k| / (unit·max(abstol, ulp·‖T‖)) for eigenvalues w of precision T
/// (ulp = T::EPS); +∞ when the lengths differ or a value is NaN.
pub fn ratio<T: Scalar>(t: &Tri, w: &[f64], reference: &[f64], abstol: f64, unit: f64) -> f64 {
    if w.len() != reference.len() {
        return f64::INFINITY;
    }
    let scale = unit * abstol.max(T::EPS * t.norm1()).max(f64::MIN_POSITIVE);
    w.iter().zip(reference).map(|(a, b)| if a.is_nan() { f64::INFINITY } else { (a - b).abs() / scale }).fold(0.0, f64::max)
}

/// A double-double number hi + lo.
#[derive(Clone, Copy, Debug)]
struct Dd(f64, f64);

impl Dd {
    fn two_sum(a: f64, b: f64) -> Dd {
        let s = a + b;
        let v = s - a;
        Dd(s, (a - (s - v)) + (b - v))
    }
    fn add(self, o: Dd) -> Dd {
        let s = Dd::two_sum(self.0, o.0);
        let t = s.1 + self.1 + o.1;
        Dd::two_sum(s.0, t)
    }
    fn neg(self) -> Dd {
        Dd(-self.0, -self.1)
    }
    fn mul_f(self, b: f64) -> Dd {
        let p = self.0 * b;
        let err = self.0.mul_add(b, -p);
        Dd::two_sum(p, err + self.1 * b)
    }
    fn div(self, o: Dd) -> Dd {
        let q1 = self.0 / o.0;
        let r = self.add(o.mul_f(q1).neg());
        let q2 = r.0 / o.0;
        let r2 = r.add(o.mul_f(q2).neg());
        let q3 = r2.0 / o.0;
        Dd::two_sum(q1, q2).add(Dd(q3, 0.0))
    }
}

/// The number of eigenvalues of T below μ, from the signs of the pivots of T − μI in
/// double-double arithmetic (e² exact: e is a double); a pivot that vanishes is taken as
/// −safmin·max(1, max e²), as LAPACK's guard does (an eigenvalue at μ counts, and the next
/// pivot stays finite).
pub fn count_dd(t: &Tri, mu: f64) -> i64 {
    let tiny = Dd(-f64::MIN_POSITIVE * t.e.iter().fold(1f64, |a, x| a.max(x * x)), 0.0);
    let mut count = 0;
    let mut q = Dd(0.0, 0.0);
    for k in 0..t.n() {
        let base = Dd::two_sum(t.d[k], -mu);
        q = if k == 0 {
            base
        } else {
            let e = t.e[k - 1];
            let e2 = Dd(e * e, e.mul_add(e, -(e * e)));
            base.add(e2.div(q).neg())
        };
        if q.0 == 0.0 {
            q = tiny;
        }
        count += (q.0 < 0.0) as i64;
    }
    count
}

/// Shifts for count checks: the midpoints of the reference spectrum's gaps, each eigenvalue
/// itself shifted by ±`offset`, and points beyond both ends; only those farther than `margin`
/// from every eigenvalue.
pub fn shifts(reference: &[f64], offset: f64, margin: f64) -> Vec<f64> {
    let (lo, hi) = (reference[0], reference[reference.len() - 1]);
    let mut s: Vec<f64> = reference.windows(2).map(|p| 0.5 * (p[0] + p[1])).collect();
    s.extend(reference.iter().flat_map(|&x| [x - offset, x + offset]));
    s.extend([lo - 1.0 - lo.abs(), hi + 1.0 + hi.abs()]);
    s.retain(|&x| reference.iter().all(|&l| (x - l).abs() > margin));
    s
}

/// A VALUE range (vl, vu] around indices `from..=to` (0-based, to < n) of the reference spectrum with
/// its ends in the widest gaps near them: (vl, vu, the reference eigenvalues inside).
pub fn value_range(reference: &[f64], from: usize, to: usize) -> (f64, f64, Vec<f64>) {
    let n = reference.len();
    let gap = |k: usize| if k == 0 || k == n { f64::INFINITY } else { reference[k] - reference[k - 1] };
    // Cut k separates reference[k − 1] from reference[k]: the widest of the 3 before `from`,
    // and of the 3 after `to`.
    let best = |lo: usize, hi: usize| (lo..=hi).max_by(|&a, &b| gap(a).total_cmp(&gap(b))).unwrap();
    let (a, b) = (best(from.saturating_sub(3), from), best(to + 1, (to + 4).min(n)));
    let cut = |k: usize| match k {
        0 => reference[0] - 1.0 - reference[0].abs(),
        k if k == n => reference[n - 1] + 1.0 + reference[n - 1].abs(),
        k => 0.5 * (reference[k - 1] + reference[k]),
    };
    (cut(a), cut(b), reference[a..b].to_vec())
}
