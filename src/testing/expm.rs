//! Matrix exponentials (the `expm` family): the inputs with exact exponentials (diagonal,
//! nilpotent, rotation generators, Jordan blocks), reversible rate matrices with their
//! eigendecomposition, and the references, all in double precision (complex where needed):
//! Higham 2005's scaling and squaring with the [13/13] Padé approximant (s from ‖A‖₁ alone,
//! LAPACK `zgesv` for the denominator), and E·diag(exp(λt))·E⁻¹ with its elementwise rounding
//! bound. The error ratios and their thresholds the checks hold.

use super::dense::zgemm;
use super::gen::rng;
use crate::lapack::Blas;
use crate::Complex64;
use rand::Rng;

fn cz(re: f64) -> Complex64 {
    Complex64::new(re, 0.0)
}

/// `a·b` for compact n × n matrices (CBLAS `zgemm`).
pub fn mul(a: &[Complex64], b: &[Complex64], n: usize) -> Vec<Complex64> {
    zgemm(a, b, n, n, n, false)
}

/// The n × n identity.
pub fn identity(n: usize) -> Vec<Complex64> {
    (0..n * n).map(|e| cz(if e % (n + 1) == 0 { 1.0 } else { 0.0 })).collect()
}

/// The 1-norm (largest column sum of moduli) of a compact n × n matrix.
pub fn norm1(a: &[Complex64], n: usize) -> f64 {
    (0..n).map(|c| (0..n).map(|r| a[r + c * n].norm()).sum::<f64>()).fold(0.0, f64::max)
}

/// Solves `a·x = b` (n × n, n right-hand sides) by LAPACK `zgesv`; None when a is singular.
pub fn solve(a: &[Complex64], b: &[Complex64], n: usize) -> Option<Vec<Complex64>> {
    let (mut f, mut x, mut ipiv) = (a.to_vec(), b.to_vec(), vec![0; n]);
    // SAFETY: compact n × n matrices and n pivots.
    let info = unsafe { Complex64::gesv(n as i32, n as i32, f.as_mut_ptr(), n.max(1) as i32, ipiv.as_mut_ptr(), x.as_mut_ptr(), n.max(1) as i32) };
    (info == 0).then_some(x)
}

/// exp(A) of a compact n × n matrix in double precision: Higham 2005 (the [13/13] Padé
/// approximant of 2^{−s}A with s = ⌈log₂(‖A‖₁/θ₁₃)⌉⁺, then s squarings) — a different
/// choice of degree and scaling from the library's, which takes the 2009 bounds.
pub fn expm_reference(a: &[Complex64], n: usize) -> Vec<Complex64> {
    const THETA13: f64 = 5.371920351148152;
    let b = crate::expm::pade_coefficients(13);
    let nrm = norm1(a, n);
    let s = if nrm > THETA13 { (nrm / THETA13).log2().ceil() as i32 } else { 0 };
    let sa: Vec<Complex64> = a.iter().map(|&x| x * 2f64.powi(-s)).collect();
    let a2 = mul(&sa, &sa, n);
    let a4 = mul(&a2, &a2, n);
    let a6 = mul(&a4, &a2, n);
    let id = identity(n);
    let lin = |c: [f64; 4]| -> Vec<Complex64> { (0..n * n).map(|e| id[e] * c[0] + a2[e] * c[1] + a4[e] * c[2] + a6[e] * c[3]).collect() };
    let w1 = mul(&a6, &lin([0.0, b[9], b[11], b[13]]), n);
    let z: Vec<Complex64> = lin([b[1], b[3], b[5], b[7]]).iter().zip(&w1).map(|(x, y)| x + y).collect();
    let u = mul(&sa, &z, n);
    let w2 = mul(&a6, &lin([0.0, b[8], b[10], b[12]]), n);
    let v: Vec<Complex64> = lin([b[0], b[2], b[4], b[6]]).iter().zip(&w2).map(|(x, y)| x + y).collect();
    let num: Vec<Complex64> = v.iter().zip(&u).map(|(v, u)| v + u).collect();
    let den: Vec<Complex64> = v.iter().zip(&u).map(|(v, u)| v - u).collect();
    let mut x = solve(&den, &num, n).expect("the reference's Padé denominator is singular");
    for _ in 0..s {
        x = mul(&x, &x, n);
    }
    x
}

/// The squarings the library takes for A (its degree and scaling rule, `expm::choose`, on
/// the norms of A's powers in double precision), for the "many squarings" claims.
pub fn squarings(a: &[Complex64], n: usize, double: bool) -> i32 {
    let a2 = mul(a, a, n);
    let a4 = mul(&a2, &a2, n);
    let a6 = mul(&a4, &a2, n);
    match crate::expm::choose(norm1(&a2, n), norm1(&a4, n), norm1(&a6, n), double) {
        Some((_, s)) => s,
        None => crate::expm::scaling_from_norm(norm1(a, n), double).1,
    }
}

/// A matrix with a known exponential.
#[derive(Clone, Debug)]
pub struct Exact {
    /// What it is (for messages).
    pub name: String,
    /// Order.
    pub n: usize,
    /// A, compact column-major.
    pub a: Vec<Complex64>,
    /// exp(A), exactly (to double rounding).
    pub exp: Vec<Complex64>,
}

/// diag(d): exp = diag(e^{d_k}); `d` spread over [−spread, spread].
pub fn diagonal(n: usize, spread: f64, seed: u64) -> Exact {
    let mut r = rng(seed);
    let d: Vec<f64> = (0..n).map(|_| r.gen_range(-spread..spread)).collect();
    let mut a = vec![cz(0.0); n * n];
    let mut exp = a.clone();
    for k in 0..n {
        a[k * (n + 1)] = cz(d[k]);
        exp[k * (n + 1)] = cz(d[k].exp());
    }
    Exact { name: format!("diagonal n={n} spread {spread}"), n, a, exp }
}

/// A strictly upper triangular N (entries in [−scale, scale]): exp(N) = Σ_{k<n} N^k/k!, a
/// finite series.
pub fn nilpotent(n: usize, scale: f64, seed: u64) -> Exact {
    let mut r = rng(seed);
    let a: Vec<Complex64> = (0..n * n).map(|e| cz(if e % n < e / n { r.gen_range(-scale..scale) } else { 0.0 })).collect();
    let (mut term, mut exp) = (identity(n), identity(n));
    for k in 1..n {
        term = mul(&term, &a, n).iter().map(|x| x / k as f64).collect();
        exp.iter_mut().zip(&term).for_each(|(e, t)| *e += t);
    }
    Exact { name: format!("nilpotent n={n} scale {scale}"), n, a, exp }
}

/// Block diagonal of 2 × 2 rotation generators θ_j·[[0, −1], [1, 0]] (θ_j = θ·(j + 1)/blocks,
/// and a trailing 0 when n is odd): exp = the rotations [[cos, −sin], [sin, cos]].
pub fn rotations(n: usize, theta: f64) -> Exact {
    let (mut a, mut exp) = (vec![cz(0.0); n * n], identity(n));
    let blocks = n / 2;
    for j in 0..blocks {
        let t = theta * (j + 1) as f64 / blocks as f64;
        let (i0, i1) = (2 * j, 2 * j + 1);
        a[i1 + i0 * n] = cz(t);
        a[i0 + i1 * n] = cz(-t);
        exp[i0 + i0 * n] = cz(t.cos());
        exp[i1 + i1 * n] = cz(t.cos());
        exp[i1 + i0 * n] = cz(t.sin());
        exp[i0 + i1 * n] = cz(-t.sin());
    }
    Exact { name: format!("rotations n={n} theta {theta}"), n, a, exp }
}

/// The Jordan block λI + N (ones on the superdiagonal): exp(i, j) = e^λ/(j − i)! for j ≥ i.
pub fn jordan(n: usize, lambda: f64) -> Exact {
    let mut a = vec![cz(0.0); n * n];
    let mut exp = a.clone();
    for j in 0..n {
        a[j + j * n] = cz(lambda);
        if j > 0 {
            a[j - 1 + j * n] = cz(1.0);
        }
        let mut f = 1.0;
        for i in (0..=j).rev() {
            exp[i + j * n] = cz(lambda.exp() / f);
            f *= (j - i + 1) as f64;
        }
    }
    Exact { name: format!("jordan n={n} lambda {lambda}"), n, a, exp }
}

/// A reversible (GTR) rate matrix and its eigendecomposition Q = E·diag(λ)·E⁻¹, as
/// phylogenetic codes hold it: rows of Q sum to 0, λ real, the largest 0.
#[derive(Clone, Debug)]
pub struct RateModel {
    /// Order.
    pub m: usize,
    /// Q, compact column-major.
    pub q: Vec<f64>,
    /// Eigenvectors E (columns).
    pub e: Vec<f64>,
    /// Eigenvalues λ.
    pub lambda: Vec<f64>,
    /// E⁻¹.
    pub einv: Vec<f64>,
}

/// The rate model of order m: stationary π and exchangeabilities r_ij = r_ji random,
/// Q_ij = r_ij·π_j (i ≠ j), scaled to one expected substitution per unit time; E and E⁻¹
/// from the symmetric Π^{1/2}·Q·Π^{−1/2} = V·Λ·Vᵀ (Jacobi): E = Π^{−1/2}V, E⁻¹ = VᵀΠ^{1/2}.
pub fn rate_model(m: usize, seed: u64) -> RateModel {
    let mut r = rng(seed);
    let w: Vec<f64> = (0..m).map(|_| r.gen_range(0.2..1.0)).collect();
    let pi: Vec<f64> = w.iter().map(|x| x / w.iter().sum::<f64>()).collect();
    let mut q = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..i {
            let x = r.gen_range(0.1..2.0);
            q[i + j * m] = x * pi[j];
            q[j + i * m] = x * pi[i];
        }
    }
    for i in 0..m {
        q[i + i * m] = -(0..m).filter(|&j| j != i).map(|j| q[i + j * m]).sum::<f64>();
    }
    let rate = -(0..m).map(|i| pi[i] * q[i + i * m]).sum::<f64>();
    q.iter_mut().for_each(|x| *x /= rate.max(f64::MIN_POSITIVE));
    let mut s = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            s[i + j * m] = pi[i].sqrt() * q[i + j * m] / pi[j].sqrt();
        }
    }
    for i in 0..m {
        for j in 0..i {
            let avg = 0.5 * (s[i + j * m] + s[j + i * m]);
            s[i + j * m] = avg;
            s[j + i * m] = avg;
        }
    }
    let (lambda, v) = jacobi(&s, m);
    let mut e = vec![0.0; m * m];
    let mut einv = vec![0.0; m * m];
    for i in 0..m {
        for k in 0..m {
            e[i + k * m] = v[i + k * m] / pi[i].sqrt();
            einv[k + i * m] = v[i + k * m] * pi[i].sqrt();
        }
    }
    RateModel { m, q, e, lambda, einv }
}

/// Eigenvalues and orthonormal eigenvectors (columns) of a symmetric m × m matrix by cyclic
/// Jacobi rotations, to double rounding.
pub fn jacobi(a: &[f64], m: usize) -> (Vec<f64>, Vec<f64>) {
    let mut a = a.to_vec();
    let mut v: Vec<f64> = (0..m * m).map(|e| if e % (m + 1) == 0 { 1.0 } else { 0.0 }).collect();
    for _sweep in 0..100 {
        let off: f64 = (0..m).flat_map(|j| (0..m).filter(move |&i| i != j).map(move |i| (i, j))).map(|(i, j)| a[i + j * m].powi(2)).sum();
        let total: f64 = a.iter().map(|x| x * x).sum();
        if off <= 1e-30 * total {
            break;
        }
        for p in 0..m {
            for q in p + 1..m {
                let apq = a[p + q * m];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q + q * m] - a[p + p * m]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let (c, s) = (1.0 / (t * t + 1.0).sqrt(), t / (t * t + 1.0).sqrt());
                for k in 0..m {
                    let (akp, akq) = (a[k + p * m], a[k + q * m]);
                    a[k + p * m] = c * akp - s * akq;
                    a[k + q * m] = s * akp + c * akq;
                }
                for k in 0..m {
                    let (apk, aqk) = (a[p + k * m], a[q + k * m]);
                    a[p + k * m] = c * apk - s * aqk;
                    a[q + k * m] = s * apk + c * aqk;
                }
                for k in 0..m {
                    let (vkp, vkq) = (v[k + p * m], v[k + q * m]);
                    v[k + p * m] = c * vkp - s * vkq;
                    v[k + q * m] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..m).map(|k| a[k * (m + 1)]).collect(), v)
}

/// A diagonalisable complex generator of order m: E = I + 0.4·R (R complex uniform, scaled
/// by 1/√m), λ with real parts in [−2, 0] and imaginary parts in [−3, 3], E⁻¹ by `zgesv`.
pub fn complex_model(m: usize, seed: u64) -> (Vec<Complex64>, Vec<Complex64>, Vec<Complex64>) {
    let mut r = rng(seed);
    let sc = 0.4 / (m as f64).sqrt();
    let e: Vec<Complex64> = (0..m * m).map(|k| Complex64::new(r.gen_range(-sc..sc), r.gen_range(-sc..sc)) + if k % (m + 1) == 0 { 1.0 } else { 0.0 }).collect();
    let lambda: Vec<Complex64> = (0..m).map(|_| Complex64::new(r.gen_range(-2.0..0.0), r.gen_range(-3.0..3.0))).collect();
    let einv = solve(&e, &identity(m), m).expect("E is invertible");
    (e, lambda, einv)
}

/// E·diag(exp(λ·t))·E⁻¹ in double precision, and its elementwise rounding scale
/// |E|·|diag(exp(λt))|·|E⁻¹| (what an m-term product's error is proportional to).
pub fn eig_reference(e: &[Complex64], lambda: &[Complex64], einv: &[Complex64], t: f64, m: usize) -> (Vec<Complex64>, Vec<f64>) {
    let d: Vec<Complex64> = lambda.iter().map(|l| (l * t).exp()).collect();
    let mut p = vec![cz(0.0); m * m];
    let mut bound = vec![0.0; m * m];
    for c in 0..m {
        for r in 0..m {
            for k in 0..m {
                p[r + c * m] += e[r + k * m] * d[k] * einv[k + c * m];
                bound[r + c * m] += e[r + k * m].norm() * d[k].norm() * einv[k + c * m].norm();
            }
        }
    }
    (p, bound)
}

/// max_ij |P − P_ref| / (m·ε·bound_ij): the elementwise error of an m-term product in units
/// of its rounding bound (bound from [`eig_reference`], plus the exponentials' few ulp).
pub fn eig_ratio(p: &[Complex64], reference: &[Complex64], bound: &[f64], m: usize, eps: f64) -> f64 {
    p.iter()
        .zip(reference)
        .zip(bound)
        .map(|((x, y), b)| {
            let err = (x - y).norm();
            if err.is_nan() {
                f64::INFINITY
            } else {
                err / ((m as f64 + 4.0) * eps * b.max(f64::MIN_POSITIVE))
            }
        })
        .fold(0.0, f64::max)
}

/// ‖E − exp(A)‖₁ / (‖exp(A)‖₁·ε·(n + ‖A‖₁)): the relative error of an exponential in units
/// of ε times a condition estimate (‖A‖ is exp's relative condition number for normal A,
/// and the squarings' error growth), NaN as +Inf.
pub fn expm_ratio(got: &[Complex64], reference: &[Complex64], a_norm: f64, n: usize, eps: f64) -> f64 {
    let diff: Vec<Complex64> = got.iter().zip(reference).map(|(x, y)| x - y).collect();
    let r = norm1(&diff, n) / (norm1(reference, n).max(f64::MIN_POSITIVE) * eps * (n as f64 + a_norm));
    if r.is_nan() {
        f64::INFINITY
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_is_exact_on_the_exact_cases() {
        for x in [diagonal(6, 3.0, 1), nilpotent(7, 2.0, 2), rotations(6, 30.0), jordan(5, -0.5), rotations(5, 0.1)] {
            let got = expm_reference(&x.a, x.n);
            let r = expm_ratio(&got, &x.exp, norm1(&x.a, x.n), x.n, f64::EPSILON);
            assert!(r < 30.0, "{}: ratio {r}", x.name);
        }
    }

    #[test]
    fn rate_models_decompose_and_rows_sum_to_zero() {
        for m in [1, 4, 20, 61] {
            let q = rate_model(m, 7 + m as u64);
            let ce = |v: &[f64]| v.iter().map(|&x| cz(x)).collect::<Vec<_>>();
            let d: Vec<Complex64> = q.lambda.iter().map(|&x| cz(x)).collect();
            let ed: Vec<Complex64> = (0..m * m).map(|e| ce(&q.e)[e] * d[e / m]).collect();
            let back = mul(&ed, &ce(&q.einv), m);
            let err = back.iter().zip(&q.q).map(|(x, y)| (x.re - y).abs()).fold(0.0, f64::max);
            assert!(err < 1e-12 * m as f64, "m={m}: |E·Λ·E⁻¹ − Q| = {err}");
            for i in 0..m {
                assert!((0..m).map(|j| q.q[i + j * m]).sum::<f64>().abs() < 1e-13, "m={m}: row {i} does not sum to 0");
            }
        }
    }
}
