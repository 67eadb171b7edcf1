//! Dense Hermitian eigenvalues and singular values (the Jacobi family): the classes of
//! matrices the checks use, LAPACK references (`zheevd` and `zgesvd` in double precision for
//! every precision; `?syevd` and `?gesvd` in the tested precision, to show what a QR-based
//! solver loses on graded matrices; `dpotrf` + `dgesvj`, relatively accurate, as the
//! reference on graded ones) and the error ratios: eigen/singular values against the
//! reference in units of max(m, n)·ε·‖A‖₂ bound, residuals ‖A·Z − Z·Λ‖₁ and ‖A − U·Σ·Vᴴ‖₁ in
//! units of max(m, n)·ε·‖A‖₁, orthogonality ‖QᴴQ − I‖₁ in units of max(m, n)·ε, all held
//! below [`tol::RATIO`](super::tol::RATIO).

use super::dense::zgemm;
use super::gen::{rng, random};
use super::norm::{c64s, norm1_matrix};
use crate::Scalar;
use num_complex::Complex64;
use std::ffi::{c_char, c_int};

/// The classes of matrices the checks use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Random entries in [−1, 1] (Hermitian: A + Aᴴ).
    Random,
    /// Q·diag(λ)·Qᴴ (Q unitary, rounded to T) with clustered and repeated values: λ_k cycling
    /// through 1, 1 + 1e-6, 2, 2, −3 (singular values: 1, 1 + 1e-6, 2, 2, 3).
    Clustered,
    /// Rank n/2 (Hermitian: B·Bᴴ with B n × n/2; general: B·C with inner size min/2).
    RankDeficient,
    /// All zero.
    Zero,
    /// The identity (general: ones on the diagonal).
    Identity,
}

/// Every class.
pub const CLASSES: [Class; 5] = [Class::Random, Class::Clustered, Class::RankDeficient, Class::Zero, Class::Identity];

/// A random matrix of `rows × cols` in double, entries representable in T.
fn rand_c64<T: Scalar>(rows: usize, cols: usize, seed: u64) -> Vec<Complex64> {
    c64s(&random::<T>(&mut rng(seed), rows * cols, 1.0))
}

/// A unitary matrix of order n (the Q of a random matrix's QR, by modified Gram–Schmidt).
fn unitary(n: usize, seed: u64) -> Vec<Complex64> {
    let mut q = c64s(&random::<Complex64>(&mut rng(seed), n * n, 1.0));
    for j in 0..n {
        for _ in 0..2 {
            for i in 0..j {
                let d: Complex64 = (0..n).map(|r| q[r + i * n].conj() * q[r + j * n]).sum();
                for r in 0..n {
                    let t = q[r + i * n] * d;
                    q[r + j * n] -= t;
                }
            }
        }
        let nrm = (0..n).map(|r| q[r + j * n].norm_sqr()).sum::<f64>().sqrt();
        (0..n).for_each(|r| q[r + j * n] /= nrm);
    }
    q
}

/// Realness for a real T: drop imaginary parts.
fn own<T: Scalar>(x: &[Complex64]) -> Vec<T> {
    x.iter().map(|&z| T::from_c64(if T::IS_COMPLEX { z } else { Complex64::new(z.re, 0.0) })).collect()
}

/// A Hermitian (real symmetric for a real T) n × n matrix of `class`, full, in T.
pub fn hermitian<T: Scalar>(class: Class, n: usize, seed: u64) -> Vec<T> {
    let adj = |b: &[Complex64], r: usize, c: usize| (0..r * c).map(|e| b[e / r + (e % r) * c].conj()).collect::<Vec<_>>();
    let full = match class {
        Class::Random => {
            let b = own::<T>(&rand_c64::<T>(n, n, seed)).iter().map(|x| x.to_c64()).collect::<Vec<_>>();
            (0..n * n).map(|e| b[e] + b[e / n + (e % n) * n].conj()).collect()
        }
        Class::Clustered => {
            let q = own::<T>(&unitary(n, seed)).iter().map(|x| x.to_c64()).collect::<Vec<_>>();
            let lam = [1.0, 1.0 + 1e-6, 2.0, 2.0, -3.0];
            let ql: Vec<Complex64> = (0..n * n).map(|e| q[e] * lam[(e / n) % lam.len()]).collect();
            zgemm(&ql, &adj(&q, n, n), n, n, n, false)
        }
        Class::RankDeficient => {
            let r = (n / 2).max(1);
            let b = own::<T>(&rand_c64::<T>(n, r, seed)).iter().map(|x| x.to_c64()).collect::<Vec<_>>();
            zgemm(&b, &adj(&b, n, r), n, n, r, false)
        }
        Class::Zero => vec![Complex64::new(0.0, 0.0); n * n],
        Class::Identity => (0..n * n).map(|e| Complex64::new((e % n == e / n) as u8 as f64, 0.0)).collect(),
    };
    // Exactly Hermitian after rounding to T: the upper triangle from the lower.
    let mut h = own::<T>(&full);
    for c in 0..n {
        h[c + c * n] = T::from_real(h[c + c * n].re());
        for r in c + 1..n {
            h[c + r * n] = h[r + c * n].conj();
        }
    }
    h
}

/// A general m × n matrix of `class`, in T.
pub fn general<T: Scalar>(class: Class, m: usize, n: usize, seed: u64) -> Vec<T> {
    let k = m.min(n);
    let full = match class {
        Class::Random => rand_c64::<T>(m, n, seed),
        Class::Clustered => {
            let (u, v) = (unitary(m, seed), unitary(n, seed + 1));
            let lam = [1.0, 1.0 + 1e-6, 2.0, 2.0, 3.0];
            let mut us = vec![Complex64::new(0.0, 0.0); m * n];
            (0..k).for_each(|j| (0..m).for_each(|r| us[r + j * m] = u[r + j * m] * lam[j % lam.len()]));
            let vh: Vec<Complex64> = (0..n * n).map(|e| v[e / n + (e % n) * n].conj()).collect();
            zgemm(&us, &vh, m, n, n, false)
        }
        Class::RankDeficient => {
            let r = (k / 2).max(1);
            zgemm(&rand_c64::<T>(m, r, seed), &rand_c64::<T>(r, n, seed + 1), m, n, r, false)
        }
        Class::Zero => vec![Complex64::new(0.0, 0.0); m * n],
        Class::Identity => (0..m * n).map(|e| Complex64::new((e % m == e / m) as u8 as f64, 0.0)).collect(),
    };
    own::<T>(&full)
}

/// A graded positive definite matrix of order n: A = D·(I + E)(I + E)ᵀ·D, ‖E‖ small (so the
/// scaled matrix is well conditioned), D's entries from 1 down to `range` in a random order,
/// in T. Its eigenvalues span range², which a solver accurate to ε·‖A‖ cannot resolve.
pub fn graded_spd<T: Scalar>(n: usize, range: f64, seed: u64) -> Vec<T> {
    let g = graded_factor(n, n, range, seed);
    let a: Vec<f64> = (0..n * n).map(|e| (0..n).map(|k| g[e % n + k * n] * g[e / n + k * n]).sum()).collect();
    a.iter().map(|&x| T::from_c64(Complex64::new(x, 0.0))).collect()
}

/// A graded m × n matrix B·D: B = I + E (m × n, E's entries in ±0.3/√n), D's entries from
/// 1 down to `range` in a random order, in T.
pub fn graded<T: Scalar>(m: usize, n: usize, range: f64, seed: u64) -> Vec<T> {
    let e = rand_c64::<f64>(m, n, seed + 7);
    let d = scales(n, range, seed);
    (0..m * n).map(|k| T::from_c64(Complex64::new(d[k / m] * ((k % m == k / m) as u8 as f64 + 0.3 * e[k].re / (n as f64).sqrt()), 0.0))).collect()
}

/// The scales 1 … range (geometric) in a seeded random order.
fn scales(n: usize, range: f64, seed: u64) -> Vec<f64> {
    let mut d: Vec<f64> = (0..n).map(|i| range.powf(i as f64 / (n.max(2) - 1) as f64)).collect();
    let mut r = super::gen::SplitMix::new(seed);
    for i in (1..n).rev() {
        d.swap(i, r.below(i + 1));
    }
    d
}

/// D·(I + E) (rows × cols), E's entries in ±0.3/√cols.
fn graded_factor(rows: usize, cols: usize, range: f64, seed: u64) -> Vec<f64> {
    let e = rand_c64::<f64>(rows, cols, seed + 7);
    let d = scales(rows, range, seed);
    (0..rows * cols).map(|k| d[k % rows] * ((k % rows == k / rows) as u8 as f64 + 0.3 * e[k].re / (cols as f64).sqrt())).collect()
}

// LAPACK (lapack-sys has no hidden string lengths: one-character options are read by LSAME,
// which does not look at the length).

/// Eigenvalues, ascending, of the Hermitian n × n matrix a (full) by `zheevd` in double.
pub fn eig_ref(n: usize, a: &[Complex64]) -> Vec<f64> {
    let mut a = a.to_vec();
    let mut w = vec![0.0; n];
    let (nn, mut info) = (n as c_int, 0);
    let (mut work, mut rwork, mut iwork) = (vec![Complex64::new(0.0, 0.0); 2 * n + n * n + 1], vec![0.0; 2 * n * n + 5 * n + 1], vec![0 as c_int; 5 * n + 3]);
    let (lw, lrw, liw) = (work.len() as c_int, rwork.len() as c_int, iwork.len() as c_int);
    // SAFETY: sizes as zheevd documents for JOBZ = 'N' (larger than needed).
    unsafe { lapack_sys::zheevd_(&(b'N' as c_char), &(b'L' as c_char), &nn, a.as_mut_ptr() as _, &nn, w.as_mut_ptr(), work.as_mut_ptr() as _, &lw, rwork.as_mut_ptr(), &lrw, iwork.as_mut_ptr(), &liw, &mut info) };
    assert_eq!(info, 0, "zheevd failed");
    w
}

/// Singular values, descending, of the m × n matrix a by `zgesvd` in double.
pub fn svd_ref(m: usize, n: usize, a: &[Complex64]) -> Vec<f64> {
    let mut a = a.to_vec();
    let k = m.min(n);
    let mut s = vec![0.0; k];
    let (mm, nn, mut info) = (m as c_int, n as c_int, 0);
    let mut work = vec![Complex64::new(0.0, 0.0); 4 * (m + n) + 64];
    let mut rwork = vec![0.0; 5 * k + 1];
    let (lw, one) = (work.len() as c_int, 1 as c_int);
    let mut dummy = [Complex64::new(0.0, 0.0); 1];
    // SAFETY: JOBU = JOBVT = 'N': U and VT not referenced; workspace above the minimum.
    unsafe {
        lapack_sys::zgesvd_(&(b'N' as c_char), &(b'N' as c_char), &mm, &nn, a.as_mut_ptr() as _, &mm, s.as_mut_ptr(), dummy.as_mut_ptr() as _, &one, dummy.as_mut_ptr() as _, &one, work.as_mut_ptr() as _, &lw, rwork.as_mut_ptr(), &mut info)
    };
    assert_eq!(info, 0, "zgesvd failed");
    s
}

/// Singular values, descending, of the real m × n matrix a (m >= n) by `dgesvj`: one-sided
/// Jacobi, accurate to a few ε times the condition of a's column-scaled form.
pub fn svd_relative(m: usize, n: usize, a: &[f64]) -> Vec<f64> {
    assert!(m >= n);
    let mut a = a.to_vec();
    let mut s = vec![0.0; n];
    let (mm, nn, mut info, mv) = (m as c_int, n as c_int, 0, 0 as c_int);
    let mut work = vec![0.0; (m + n).max(6)];
    let lw = work.len() as c_int;
    let mut v = [0.0; 1];
    // SAFETY: JOBA = 'G', JOBU = 'N', JOBV = 'N' (V not referenced); lwork >= max(6, m + n).
    unsafe { lapack_sys::dgesvj_(&(b'G' as c_char), &(b'N' as c_char), &(b'N' as c_char), &mm, &nn, a.as_mut_ptr(), &mm, s.as_mut_ptr(), &mv, v.as_mut_ptr(), &1, work.as_mut_ptr(), &lw, &mut info) };
    assert_eq!(info, 0, "dgesvj failed");
    // dgesvj returns SVA scaled by WORK(1).
    let scale = work[0];
    let mut s: Vec<f64> = s.iter().map(|x| x * scale).collect();
    s.sort_by(|x, y| y.total_cmp(x));
    s
}

/// Eigenvalues, ascending, of the real positive definite n × n matrix a, relatively accurate
/// when a is graded (D·H·D, H well conditioned): `dpotrf` (A = L·Lᵀ) then `dgesvj` on Lᵀ,
/// λ = σ².
pub fn eig_relative_spd(n: usize, a: &[f64]) -> Vec<f64> {
    let mut l = a.to_vec();
    let (nn, mut info) = (n as c_int, 0);
    // SAFETY: an n × n matrix, leading dimension n.
    unsafe { lapack_sys::dpotrf_(&(b'L' as c_char), &nn, l.as_mut_ptr(), &nn, &mut info) };
    assert_eq!(info, 0, "dpotrf failed: not positive definite");
    let lt: Vec<f64> = (0..n * n).map(|e| if e % n <= e / n { l[e / n + (e % n) * n] } else { 0.0 }).collect();
    let mut w: Vec<f64> = svd_relative(n, n, &lt).iter().map(|s| s * s).collect();
    w.sort_by(f64::total_cmp);
    w
}

/// LAPACK's QR-based solvers in a real precision, to compare with on graded matrices.
pub trait QrBased: Scalar<Real = Self> {
    /// Eigenvalues, ascending, of the symmetric n × n matrix a by `?syevd` (JOBZ = 'N').
    fn syevd(n: usize, a: &[Self]) -> Vec<Self>;
    /// Singular values, descending, of the m × n matrix a by `?gesvd` (no vectors).
    fn gesvd(m: usize, n: usize, a: &[Self]) -> Vec<Self>;
}

macro_rules! qr_based {
    ($t:ty, $syevd:ident, $gesvd:ident) => {
        impl QrBased for $t {
            fn syevd(n: usize, a: &[$t]) -> Vec<$t> {
                let mut a = a.to_vec();
                let mut w = vec![0.0; n];
                let (nn, mut info) = (n as c_int, 0);
                let (mut work, mut iwork) = (vec![0.0 as $t; 2 * n + 1 + n * n], vec![0 as c_int; 5 * n + 3]);
                let (lw, liw) = (work.len() as c_int, iwork.len() as c_int);
                // SAFETY: sizes as ?syevd documents (larger than needed).
                unsafe { lapack_sys::$syevd(&(b'N' as c_char), &(b'L' as c_char), &nn, a.as_mut_ptr(), &nn, w.as_mut_ptr(), work.as_mut_ptr(), &lw, iwork.as_mut_ptr(), &liw, &mut info) };
                assert_eq!(info, 0, "?syevd failed");
                w
            }
            fn gesvd(m: usize, n: usize, a: &[$t]) -> Vec<$t> {
                let mut a = a.to_vec();
                let mut s = vec![0.0; m.min(n)];
                let (mm, nn, mut info, one) = (m as c_int, n as c_int, 0, 1 as c_int);
                let mut work = vec![0.0 as $t; 5 * (m + n) + 64];
                let lw = work.len() as c_int;
                let mut dummy = [0.0 as $t; 1];
                // SAFETY: no vectors: U and VT not referenced; workspace above the minimum.
                unsafe { lapack_sys::$gesvd(&(b'N' as c_char), &(b'N' as c_char), &mm, &nn, a.as_mut_ptr(), &mm, s.as_mut_ptr(), dummy.as_mut_ptr(), &one, dummy.as_mut_ptr(), &one, work.as_mut_ptr(), &lw, &mut info) };
                assert_eq!(info, 0, "?gesvd failed");
                s
            }
        }
    };
}
qr_based!(f32, ssyevd_, sgesvd_);
qr_based!(f64, dsyevd_, dgesvd_);

/// The largest relative error max_k |x_k − r_k| / |r_k|.
pub fn relative_error(x: &[f64], r: &[f64]) -> f64 {
    x.iter().zip(r).map(|(a, b)| ((a - b) / b).abs()).fold(0.0, super::norm::nan_max)
}

/// The value ratio: max_k |x_k − r_k| / (dim·ε·max(‖A‖₂ bound, tiny)), `norm` = ‖A‖₁ or the
/// largest reference value.
pub fn value_ratio(x: &[f64], r: &[f64], dim: usize, norm: f64, eps: f64) -> f64 {
    let err = x.iter().zip(r).map(|(a, b)| (a - b).abs()).fold(0.0, super::norm::nan_max);
    super::norm::ratio(err, dim.max(1) as f64 * eps * norm.max(f64::MIN_POSITIVE))
}

/// ‖QᴴQ − I‖₁ / (dim·ε) of the rows × cols matrix q (leading dimension rows).
pub fn orthogonality(q: &[Complex64], rows: usize, cols: usize, dim: usize, eps: f64) -> f64 {
    let qh: Vec<Complex64> = (0..cols * rows).map(|e| q[e / cols + (e % cols) * rows].conj()).collect();
    let mut g = zgemm(&qh, q, cols, cols, rows, false);
    (0..cols).for_each(|i| g[i + i * cols] -= 1.0);
    super::norm::ratio(norm1_matrix(&g, cols, cols), dim.max(1) as f64 * eps)
}

/// ‖A − U·diag(s)·Vᴴ‖₁ / (dim·ε·‖A‖₁) (U m × k, V n × k; for an eigen-decomposition U = V = Z).
#[allow(clippy::too_many_arguments)]
pub fn decomposition_residual(a: &[Complex64], m: usize, n: usize, u: &[Complex64], s: &[f64], v: &[Complex64], dim: usize, eps: f64) -> f64 {
    let k = s.len();
    let us: Vec<Complex64> = (0..m * k).map(|e| u[e] * s[e / m]).collect();
    let vh: Vec<Complex64> = (0..k * n).map(|e| v[e / k + (e % k) * n].conj()).collect();
    let p = zgemm(&us, &vh, m, n, k, false);
    let d: Vec<Complex64> = a.iter().zip(&p).map(|(x, y)| x - y).collect();
    super::norm::ratio(norm1_matrix(&d, m, n), dim.max(1) as f64 * eps * norm1_matrix(a, m, n).max(f64::MIN_POSITIVE))
}
