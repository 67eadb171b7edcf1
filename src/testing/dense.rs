//! The classes of dense matrices the checks use (random, ill-conditioned, rank-deficient
//! exactly or up to rounding, zero, ties, Wilkinson's growth matrix, rows or columns scaled by 10^±20, zero columns,
//! triangular), and a double-precision product for references. Served to getrf (LU with
//! complete pivoting) and geqrf (Givens QR).

use super::gen::{random, rng};
use crate::lapack::Blas;
use crate::{Complex64, Scalar};
use rand::Rng;

/// A class of dense matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Uniform in [-1, 1) (both parts for complex types).
    Random,
    /// Condition number 10^e: (Householder)·Σ·(Householder), singular values from 1 down to
    /// 10^−e, evenly spaced in their logarithm. m >= n.
    Cond(i32),
    /// A random r × r block at scattered rows and columns, zeros elsewhere: rank r exactly.
    Rank(usize),
    /// A random m × r matrix times a random r × n one: rank r up to rounding, no entry zero
    /// (the trailing part of a factorisation is small, not zero).
    LowRank(usize),
    /// All zero.
    Zero,
    /// Square, tie-rich, and eliminated exactly in floating point, so that every
    /// implementation (with or without fused multiply-adds) meets the same ties and must
    /// break them alike: by seed, D1·H·D2 with H block-diagonal Sylvester–Hadamard blocks of at
    /// most 16 (larger ones are not exact), a phased permutation, or a rank-one outer product
    /// of entries in {1, 2}·{±1, ±i}.
    Ties,
    /// Square: Wilkinson's matrix of the largest growth under partial pivoting (1 on the
    /// diagonal and in the last column, −1 below the diagonal).
    Wilkinson,
    /// Random, rows scaled by 10^20 and 10^−20 alternately.
    ScaledRows,
    /// Random, columns scaled by 10^20 and 10^−20 alternately (their squares overflow f32).
    ScaledColumns,
    /// Random with columns 1, 4, 7, … exactly zero.
    ZeroColumns,
    /// Random upper triangular.
    Triangular,
}

/// One `m × n` matrix of `kind` from `seed`, compact column-major.
pub fn matrix<T: Scalar>(kind: Kind, m: usize, n: usize, seed: u64) -> Vec<T> {
    let mut r = rng(seed);
    let mut a = vec![T::zero(); m * n];
    match kind {
        Kind::Random | Kind::ScaledRows | Kind::ScaledColumns | Kind::ZeroColumns | Kind::Triangular => {
            let v = random::<T>(&mut r, m * n, 1.0);
            let alternate = |k: usize| if k % 2 == 0 { 1e20 } else { 1e-20 };
            for j in 0..n {
                for i in 0..m {
                    let zero = (kind == Kind::ZeroColumns && j % 3 == 1) || (kind == Kind::Triangular && i > j);
                    let s = match kind {
                        Kind::ScaledRows => alternate(i),
                        Kind::ScaledColumns => alternate(j),
                        _ => 1.0,
                    };
                    if !zero {
                        a[i + j * m] = T::from_c64(v[i + j * m].to_c64() * s);
                    }
                }
            }
        }
        Kind::Cond(e) => {
            assert!(m >= n, "Cond is tall or square");
            let sigma: Vec<f64> = (0..n).map(|i| if n == 1 { 1.0 } else { 10f64.powf(-(e as f64) * i as f64 / (n - 1) as f64) }).collect();
            let (hu, hv) = (householder(&random::<T>(&mut r, m, 1.0)), householder(&random::<T>(&mut r, n, 1.0)));
            for j in 0..n {
                for i in 0..m {
                    let s: Complex64 = (0..n).map(|k| hu[i + k * m] * sigma[k] * hv[k + j * n]).sum();
                    a[i + j * m] = T::from_c64(s);
                }
            }
        }
        Kind::Rank(rk) => {
            let rows: Vec<usize> = (0..m).filter(|i| (i * 7 + 3) % m < rk).collect();
            let cols: Vec<usize> = (0..n).filter(|j| (j * 5 + 1) % n < rk).collect();
            for j in cols {
                for &i in &rows {
                    a[i + j * m] = random::<T>(&mut r, 1, 1.0)[0];
                }
            }
        }
        Kind::LowRank(rk) => {
            let (x, y) = (random::<T>(&mut r, m * rk, 1.0), random::<T>(&mut r, rk * n, 1.0));
            for j in 0..n {
                for i in 0..m {
                    a[i + j * m] = T::from_c64((0..rk).map(|k| x[i + k * m].to_c64() * y[k + j * rk].to_c64()).sum());
                }
            }
        }
        Kind::Zero => {}
        Kind::Ties => {
            assert_eq!(m, n, "Ties is square");
            ties::<T>(&mut r, n, seed).iter().zip(a.iter_mut()).for_each(|(v, x)| *x = T::from_c64(*v));
        }
        Kind::Wilkinson => {
            assert_eq!(m, n, "Wilkinson is square");
            for j in 0..n {
                for i in 0..n {
                    let v = if i == j || j == n - 1 { 1.0 } else if i > j { -1.0 } else { 0.0 };
                    a[i + j * n] = T::from_c64(Complex64::new(v, 0.0));
                }
            }
        }
    }
    a
}

/// I − 2·w·wᴴ/‖w‖², compact, in double precision.
fn householder<T: Scalar>(w: &[T]) -> Vec<Complex64> {
    let k = w.len();
    let nn: f64 = w.iter().map(|x| x.to_c64().norm_sqr()).sum();
    (0..k * k)
        .map(|e| {
            let (i, j) = (e % k, e / k);
            let d = if i == j { 1.0 } else { 0.0 };
            d - 2.0 * w[i].to_c64() * w[j].to_c64().conj() / nn
        })
        .collect()
}

/// The `n × n` tie-rich matrix of [`Kind::Ties`] for `seed`.
fn ties<T: Scalar>(r: &mut impl Rng, n: usize, seed: u64) -> Vec<Complex64> {
    let mut unit = || -> Complex64 {
        let k = r.gen_range(0..if T::IS_COMPLEX { 4 } else { 2 });
        [Complex64::new(1.0, 0.0), Complex64::new(-1.0, 0.0), Complex64::new(0.0, 1.0), Complex64::new(0.0, -1.0)][k]
    };
    let mut m = vec![Complex64::new(0.0, 0.0); n * n];
    match seed % 3 {
        0 => {
            let (d1, d2): (Vec<Complex64>, Vec<Complex64>) = ((0..n).map(|_| unit()).collect(), (0..n).map(|_| unit()).collect());
            let (mut off, mut rest) = (0, n);
            while rest > 0 {
                let b = 1usize << (usize::BITS - 1 - rest.min(16).leading_zeros());
                for i in 0..b {
                    for j in 0..b {
                        let h = if (i & j).count_ones() % 2 == 0 { 1.0 } else { -1.0 };
                        m[off + i + (off + j) * n] = d1[off + i] * h * d2[off + j];
                    }
                }
                (off, rest) = (off + b, rest - b);
            }
        }
        1 => {
            let mut perm: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                perm.swap(i, (seed as usize * 31 + i * 17) % (i + 1));
            }
            for j in 0..n {
                m[perm[j] + j * n] = unit();
            }
        }
        _ => {
            let mut v = || unit() * if (seed as usize + n) % 2 == 0 { 1.0 } else { 2.0 };
            let (x, y): (Vec<Complex64>, Vec<Complex64>) = ((0..n).map(|_| v()).collect(), (0..n).map(|_| v()).collect());
            for j in 0..n {
                for i in 0..n {
                    m[i + j * n] = x[i] * y[j];
                }
            }
        }
    }
    m
}

/// `op(A)·B` in double precision (CBLAS `zgemm`): op(A) is `m × k`, A itself (`m × k`) or,
/// with `adjoint`, Aᴴ for A `k × m`; B is `k × n`; all compact column-major.
pub fn zgemm(a: &[Complex64], b: &[Complex64], m: usize, n: usize, k: usize, adjoint: bool) -> Vec<Complex64> {
    // CBLAS codes: 111 no transpose, 113 conjugate transpose.
    let (ta, lda) = if adjoint { (113, k.max(1)) } else { (111, m.max(1)) };
    let mut c = vec![Complex64::new(0.0, 0.0); m * n];
    let (one, zero) = (Complex64::new(1.0, 0.0), Complex64::new(0.0, 0.0));
    // SAFETY: a, b and c hold the compact matrices the dimensions describe.
    unsafe { Complex64::gemm(ta, 111, m as i32, n as i32, k as i32, one, a.as_ptr(), lda as i32, b.as_ptr(), k.max(1) as i32, zero, c.as_mut_ptr(), m.max(1) as i32) };
    c
}
