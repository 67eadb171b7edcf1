//! Hermitian positive definite matrices and their Cholesky factors (potrf: potrf, potrs,
//! posv): generators with known factors (A = L·Lᴴ from a random L, tridiag(−1, 2, −1)),
//! matrices whose leading minor of a chosen order k is not positive definite, LAPACK
//! `?potrf` as the reference, and LAPACK's ratio ‖L·Lᴴ − A‖₁ / (n·‖A‖₁·ε).
//!
//! Matrices are compact, column-major and full (both triangles); a factor is read from the
//! triangle `uplo` names only.

use super::gen::{c, fill_random, random, rng};
use super::norm::{norm1_matrix, ratio};
use crate::lapack::Blas;
use crate::{Complex64, Scalar, Uplo};
use rayon::prelude::*;

/// A random lower-triangular `n × n` L (compact) with real diagonal in [1, 2) and
/// off-diagonal entries uniform in [−1, 1) (both parts for complex types), scaled by
/// 1/√n so that A = L·Lᴴ stays well conditioned at every n.
pub fn random_factor(n: usize, complex: bool, seed: u64) -> Vec<Complex64> {
    let mut r = rng(seed);
    let v: Vec<Complex64> = if complex { random::<Complex64>(&mut r, n * n, 1.0) } else { random::<f64>(&mut r, n * n, 1.0).into_iter().map(|x| Complex64::new(x, 0.0)).collect() };
    let s = 1.0 / (n.max(1) as f64).sqrt();
    (0..n * n)
        .map(|e| {
            let (i, j) = (e % n, e / n);
            match i.cmp(&j) {
                std::cmp::Ordering::Less => Complex64::new(0.0, 0.0),
                std::cmp::Ordering::Equal => Complex64::new(1.5 + 0.5 * v[e].re, 0.0),
                std::cmp::Ordering::Greater => v[e] * s,
            }
        })
        .collect()
}

/// `L·Lᴴ` of the compact lower-triangular `l`, in double precision (exactly Hermitian).
pub fn gram(l: &[Complex64], n: usize) -> Vec<Complex64> {
    let mut a = vec![Complex64::new(0.0, 0.0); n * n];
    for j in 0..n {
        for i in j..n {
            let s: Complex64 = (0..=j).map(|k| l[i + k * n] * l[j + k * n].conj()).sum();
            a[i + j * n] = s;
            a[j + i * n] = s.conj();
        }
        a[j + j * n].im = 0.0;
    }
    a
}

/// A Hermitian positive definite `n × n` matrix `L·Lᴴ` of [`random_factor`], rounded to T.
pub fn spd<T: Scalar>(n: usize, seed: u64) -> Vec<T> {
    gram(&random_factor(n, T::IS_COMPLEX, seed), n).into_iter().map(T::from_c64).collect()
}

/// `batch` Hermitian, strictly diagonally dominant n × n matrices, one after the other
/// (compact): off-diagonal entries of [`fill_random`] (uniform in [−1, 1) per part),
/// mirrored, and 2n on the diagonal, so positive definite with a condition number below 6 by
/// Gershgorin. Filled in parallel: the large batches of numgpu-bench.
pub fn dominant_batch<T: Scalar>(n: usize, batch: usize, seed: u64) -> Vec<T> {
    let mut a = vec![T::zero(); n * n * batch];
    fill_random(&mut a, seed);
    a.par_chunks_mut((n * n).max(1)).for_each(|m| {
        for j in 0..n {
            for i in j + 1..n {
                m[j + i * n] = m[i + j * n].conj();
            }
            m[j * (n + 1)] = c(2.0 * n as f64, 0.0);
        }
    });
    a
}

/// tridiag(−1, 2, −1) of order n, rounded to T (exact).
pub fn tridiag_121<T: Scalar>(n: usize) -> Vec<T> {
    (0..n * n)
        .map(|e| {
            let (i, j) = (e % n, e / n);
            c(if i == j { 2.0 } else if i.abs_diff(j) == 1 { -1.0 } else { 0.0 }, 0.0)
        })
        .collect()
}

/// The exact Cholesky factor of tridiag(−1, 2, −1): with 1-based i, L_ii = √((i+1)/i) and
/// L_{i+1,i} = −√(i/(i+1)); compact lower triangular, in double precision.
pub fn tridiag_121_factor(n: usize) -> Vec<f64> {
    let mut l = vec![0.0; n * n];
    for i in 1..=n {
        let f = i as f64;
        l[(i - 1) * (n + 1)] = ((f + 1.0) / f).sqrt();
        if i < n {
            l[i + (i - 1) * n] = -(f / (f + 1.0)).sqrt();
        }
    }
    l
}

/// A Hermitian matrix of order n whose leading minors of order < k are positive definite and
/// of order k is not: [`spd`]'s L·Lᴴ with A(k, k) (1-based) lowered so that the pivot of step
/// k is about −1 (far from 0, so every implementation sees it negative). `k` in 1 ..= n.
pub fn indefinite_at<T: Scalar>(n: usize, k: usize, seed: u64) -> Vec<T> {
    let l = random_factor(n, T::IS_COMPLEX, seed);
    let mut a = gram(&l, n);
    let row: f64 = (0..k - 1).map(|j| l[(k - 1) + j * n].norm_sqr()).sum();
    a[(k - 1) * (n + 1)] = Complex64::new(row - 1.0, 0.0);
    a.into_iter().map(T::from_c64).collect()
}

/// L of a factor `f` (compact n × n) stored in the triangle `uplo`, in double precision:
/// L(i, j) = f(i, j) (lower) or conj(f(j, i)) (upper) for i >= j, 0 above.
pub fn lower_of<T: Scalar>(f: &[T], n: usize, uplo: Uplo) -> Vec<Complex64> {
    (0..n * n)
        .map(|e| {
            let (i, j) = (e % n, e / n);
            match (i >= j, uplo) {
                (false, _) => Complex64::new(0.0, 0.0),
                (true, Uplo::Lower) => f[i + j * n].to_c64(),
                (true, Uplo::Upper) => f[j + i * n].to_c64().conj(),
            }
        })
        .collect()
}

/// LAPACK `?potrf` on a copy of the compact `n × n` matrix `a`: (the result, info).
pub fn potrf<T: Blas>(a: &[T], n: usize, uplo: Uplo) -> (Vec<T>, i32) {
    let mut f = a[..n * n].to_vec();
    // SAFETY: f holds n×n elements, lda = max(1, n).
    let info = unsafe { T::potrf(uplo.lapack(), n as i32, f.as_mut_ptr(), n.max(1) as i32) };
    (f, info)
}

/// LAPACK's ratio ‖L·Lᴴ − A‖₁ / (n·‖A‖₁·ε) of the compact Hermitian `a` (full) and the
/// factor `f` in its triangle `uplo`, in double precision (ε of T).
pub fn chol_ratio<T: Scalar>(a: &[T], f: &[T], n: usize, uplo: Uplo) -> f64 {
    let l = lower_of(f, n, uplo);
    let a = super::norm::c64s(&a[..n * n]);
    let diff: Vec<Complex64> = gram(&l, n).iter().zip(&a).map(|(p, q)| p - q).collect();
    ratio(norm1_matrix(&diff, n, n), n as f64 * norm1_matrix(&a, n, n) * T::EPS)
}

/// The largest |f(i, j) − g(i, j)| / max(1, |g(i, j)|) over the leading `k × k` block of the
/// lower factors `f` and `g` (as [`lower_of`] gives them): what a factorisation that stopped
/// at step k + 1 has finished whatever its order of operations. (A blocked LAPACK leaves the
/// rows below k of those columns unfinished when the failure falls inside a block.)
pub fn leading_gap(f: &[Complex64], g: &[Complex64], n: usize, k: usize) -> f64 {
    (0..k * n).filter(|e| e % n >= e / n && e % n < k).map(|e| (f[e] - g[e]).norm() / g[e].norm().max(1.0)).fold(0.0, super::norm::nan_max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tol;
    use crate::{Complex32, Complex64};

    /// LAPACK's factors of the generated matrices pass, a perturbed one fails; the known
    /// factors are LAPACK's; indefinite_at fails exactly at k.
    fn oracle_for<T: Blas>() {
        for n in [1usize, 2, 7, 33] {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                let a = spd::<T>(n, 11 + n as u64);
                let (f, info) = potrf(&a, n, uplo);
                assert_eq!(info, 0);
                assert!(chol_ratio(&a, &f, n, uplo) < tol::RATIO);
                let mut bad = f.clone();
                bad[n * n - 1] = bad[n * n - 1] + T::from_c64(Complex64::new(0.1, 0.0));
                assert!(chol_ratio(&a, &bad, n, uplo) > 100.0, "{} n={n}: a perturbed factor passes", T::LETTER);
                let (t, info) = potrf(&tridiag_121::<T>(n), n, uplo);
                assert_eq!(info, 0);
                let exact = tridiag_121_factor(n);
                let gap = lower_of(&t, n, uplo).iter().zip(&exact).map(|(p, q)| (p.re - q).abs() + p.im.abs()).fold(0.0, f64::max);
                assert!(gap < 8.0 * n as f64 * T::EPS, "{} n={n}: known factor off by {gap}", T::LETTER);
                let d = dominant_batch::<T>(n, 2, 3);
                assert_eq!(potrf(&d[n * n..], n, uplo).1, 0, "{} n={n}: a dominant matrix", T::LETTER);
                for k in [1, n.div_ceil(2), n] {
                    assert_eq!(potrf(&indefinite_at::<T>(n, k, 5), n, uplo).1, k as i32, "{} n={n} k={k}", T::LETTER);
                }
            }
        }
    }

    #[test]
    fn oracle_matches_lapack() {
        oracle_for::<f32>();
        oracle_for::<f64>();
        oracle_for::<Complex32>();
        oracle_for::<Complex64>();
    }
}
