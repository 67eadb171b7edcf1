//! LU with complete pivoting (getrf_fullpivot: getrf, getrs, gesv, gesc2): LAPACK `?getc2` and
//! `?gesc2` as the reference, LAPACK's ratios ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) and
//! ‖B − op(A)·X‖₁ / (‖op(A)‖₁·‖X‖₁·n·ε), and the comparison of two pivot sequences (a near-tie
//! that rounding breaks either way apart from a real difference).

use super::norm::{c64s, norm1, norm1_matrix, ratio};
use super::tol;
use crate::lapack::Blas;
use crate::{Complex64, Op, Scalar};

/// LAPACK `?getc2` on a copy of the compact `n × n` matrix `a`: (the factors, ipiv, jpiv,
/// info).
pub fn getc2<T: Blas>(a: &[T], n: usize) -> (Vec<T>, Vec<i32>, Vec<i32>, i32) {
    let mut f = a[..n * n].to_vec();
    let (mut ip, mut jp) = (vec![0; n], vec![0; n]);
    // SAFETY: f holds n×n elements (lda = max(1, n)), ip and jp n each.
    let info = unsafe { T::getc2(n as i32, f.as_mut_ptr(), n.max(1) as i32, ip.as_mut_ptr(), jp.as_mut_ptr()) };
    (f, ip, jp, info)
}

/// LAPACK `?gesc2` with `getc2`'s factors `f` and pivots on a copy of `rhs`: (x, scale).
pub fn gesc2<T: Blas>(f: &[T], ipiv: &[i32], jpiv: &[i32], rhs: &[T], n: usize) -> (Vec<T>, f64) {
    let mut x = rhs[..n].to_vec();
    // SAFETY: f holds n×n elements, x, ipiv and jpiv n each.
    let scale = unsafe { T::gesc2(n as i32, f.as_ptr(), n.max(1) as i32, x.as_mut_ptr(), ipiv.as_ptr(), jpiv.as_ptr()) };
    (x, scale.into())
}

/// LAPACK's ratio ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) of one n×n matrix `a` (compact) and its factors
/// `f` with the interchanges `ipiv`/`jpiv` (1-based, LAPACK's), in double precision;
/// ‖P·L·U·Q − A‖₁ itself when A = 0, +∞ for a pivot out of range.
pub fn lu_ratio<T: Scalar>(a: &[T], f: &[T], ipiv: &[i32], jpiv: &[i32], n: usize) -> f64 {
    let m = c64s(&f[..n * n]);
    let mut prod = vec![Complex64::new(0.0, 0.0); n * n];
    for j in 0..n {
        for r in 0..n {
            // (L·U)(r, j) with L's unit diagonal.
            let mut s = if r <= j { m[r + j * n] } else { Complex64::new(0.0, 0.0) };
            for k in 0..r.min(j + 1) {
                s += m[r + k * n] * m[k + j * n];
            }
            prod[r + j * n] = s;
        }
    }
    // Undo the interchanges in reverse: step k swapped rows k, ipiv(k) and columns k, jpiv(k).
    for k in (0..n).rev() {
        let (p, q) = ((ipiv[k] as usize).wrapping_sub(1), (jpiv[k] as usize).wrapping_sub(1));
        if p >= n || q >= n {
            return f64::INFINITY;
        }
        for j in 0..n {
            prod.swap(k + j * n, p + j * n);
        }
        for r in 0..n {
            prod.swap(r + k * n, r + q * n);
        }
    }
    let a = c64s(&a[..n * n]);
    let diff: Vec<Complex64> = prod.iter().zip(&a).map(|(p, q)| p - q).collect();
    let na = norm1_matrix(&a, n, n);
    if na == 0.0 {
        norm1_matrix(&diff, n, n)
    } else {
        norm1_matrix(&diff, n, n) / (n as f64 * na * T::EPS)
    }
}

/// Where ipiv/jpiv `oip`/`ojp` first differ from a reference's `rip`/`rjp` (with the
/// reference's factors `rf`): that step k (0-based) and the relative gap
/// (|U(k,k)| − |S_k(r, c)|) / |U(k,k)| between the reference's pivot and the element picked
/// instead, in the reference's trailing block S_k = L₂₂·U₂₂ (rows and columns as the
/// reference leaves them); None where they agree. An out-of-range pick has gap +∞.
pub fn pivot_gap<T: Scalar>(rf: &[T], rip: &[i32], rjp: &[i32], oip: &[i32], ojp: &[i32], n: usize) -> Option<(usize, f64)> {
    let k = (0..n).find(|&k| rip[k] != oip[k] || rjp[k] != ojp[k])?;
    let pick = |v: i32| if v > k as i32 && v as usize <= n { Some(v as usize - 1) } else { None };
    let (Some(r0), Some(c0)) = (pick(oip[k]), pick(ojp[k])) else { return Some((k, f64::INFINITY)) };
    // Follow the pick (an index in step k's order) through the reference's interchanges.
    let follow = |mut p: usize, piv: &[i32]| {
        for (j, &q) in piv.iter().enumerate().skip(k) {
            let q = q as usize - 1;
            if p == j {
                p = q;
            } else if p == q {
                p = j;
            }
        }
        p
    };
    let (r, c) = (follow(r0, rip), follow(c0, rjp));
    let at = |i: usize, j: usize| rf[i + j * n].to_c64();
    let mut s = if r <= c { at(r, c) } else { Complex64::new(0.0, 0.0) };
    for t in k..r.min(c + 1) {
        s += at(r, t) * at(t, c);
    }
    let ukk = at(k, k).norm();
    Some((k, (ukk - s.norm()) / ukk))
}

/// How one matrix's pivots and info compare with a reference's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pivots {
    /// The pivots and the info agree.
    Same,
    /// The pivots differ first at a near-tie ([`tol::near_tie`]): rounding, not a failure.
    NearTie,
    /// The pivots differ beyond a near-tie, or the info does.
    Differ,
}

/// Compares pivots `ip`/`jp` and `info` (n×n) with the reference's `rf`, `rip`/`rjp`,
/// `rinfo`.
#[allow(clippy::too_many_arguments)]
pub fn compare_pivots<T: Scalar>(rf: &[T], rip: &[i32], rjp: &[i32], rinfo: i32, ip: &[i32], jp: &[i32], info: i32, n: usize) -> Pivots {
    match pivot_gap(rf, rip, rjp, ip, jp, n) {
        Some((_, g)) if g <= tol::near_tie(n, T::EPS) => Pivots::NearTie,
        Some(_) => Pivots::Differ,
        None if info != rinfo => Pivots::Differ,
        None => Pivots::Same,
    }
}

/// op(A) of the compact n×n matrix `a`, in double precision.
pub fn op_matrix<T: Scalar>(a: &[T], n: usize, op: Op) -> Vec<Complex64> {
    let at = |i: usize, j: usize| match op {
        Op::N => a[i + j * n].to_c64(),
        Op::T => a[j + i * n].to_c64(),
        Op::C => a[j + i * n].to_c64().conj(),
    };
    (0..n * n).map(|e| at(e % n, e / n)).collect()
}

/// ‖rhs − M·x‖₁ for the compact n×n matrix `m`.
fn residual1(m: &[Complex64], x: &[Complex64], rhs: &[Complex64]) -> f64 {
    let n = x.len();
    (0..n).map(|i| (rhs[i] - (0..n).map(|j| m[i + j * n] * x[j]).sum::<Complex64>()).norm()).sum()
}

/// The residual ratio ‖rhs − M·x‖₁ / (‖M‖₁·‖x‖₁·n·ε) of one solution x (n entries) of
/// M·x = rhs, M = op(A) ([`op_matrix`]); with `other` (another solution of the same system),
/// the same measure of their difference, ‖M·(x − other)‖₁ / (‖M‖₁·‖x‖₁·n·ε).
pub fn residual_ratio<T: Scalar>(m: &[Complex64], x: &[T], rhs: &[Complex64], other: Option<&[T]>) -> f64 {
    let (n, xs) = (x.len(), c64s(x));
    let num = match other {
        None => residual1(m, &xs, rhs),
        Some(o) => residual1(m, &xs.iter().zip(o).map(|(p, q)| p - q.to_c64()).collect::<Vec<_>>(), &vec![Complex64::new(0.0, 0.0); n]),
    };
    ratio(num, norm1_matrix(m, n, n) * norm1(&xs) * n as f64 * T::EPS)
}

/// The worst [`residual_ratio`] of op(A)·X = B over `nrhs` right-hand sides (x and b compact
/// n × nrhs) of the compact n×n matrix `a`.
pub fn solve_ratio<T: Scalar>(a: &[T], n: usize, trans: Op, x: &[T], b: &[T], nrhs: usize) -> f64 {
    let m = op_matrix(a, n, trans);
    (0..nrhs).map(|r| residual_ratio(&m, &x[r * n..(r + 1) * n], &c64s(&b[r * n..(r + 1) * n]), None)).fold(0.0, super::norm::nan_max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::dense::{matrix, Kind};
    use crate::{Complex32, Complex64};

    /// LAPACK's factors pass `lu_ratio`, a perturbed factor or a wrong pivot does not.
    fn lu_ratio_catches<T: Blas>() {
        for n in [1usize, 2, 5, 33] {
            for seed in 0..7 {
                let a = matrix::<T>(Kind::Random, n, n, 42 + seed);
                let (f, ip, jp, _) = getc2(&a, n);
                let r = lu_ratio(&a, &f, &ip, &jp, n);
                assert!(r < tol::RATIO, "{} n={n}: ratio {r}", T::LETTER);
                let mut bad = f.clone();
                bad[n * n - 1] = bad[n * n - 1] + T::from_c64(Complex64::new(0.1, 0.0));
                assert!(lu_ratio(&a, &bad, &ip, &jp, n) > 100.0, "{} n={n}: a perturbed factor passes", T::LETTER);
                if n > 1 && ip[0] != 2 {
                    let mut wrong = ip.clone();
                    wrong[0] = 2;
                    assert!(lu_ratio(&a, &f, &wrong, &jp, n) > 100.0, "{} n={n}: a wrong pivot passes", T::LETTER);
                }
                assert_eq!(lu_ratio(&a, &f, &vec![0; n], &jp, n), f64::INFINITY);
            }
        }
    }

    /// `pivot_gap` on LAPACK's factors: None for LAPACK's own pivots; a different first pick
    /// (r0, c0) has gap (max|A| − |A(r0, c0)|) / max|A|, and at step 1 the same in the trailing
    /// block after LAPACK's step 0 (done here by hand in double).
    fn pivot_gap_measures<T: Blas>() {
        for n in [2usize, 6, 40] {
            let a = matrix::<T>(Kind::Random, n, n, 7 + n as u64);
            let (f, ip, jp, _) = getc2(&a, n);
            assert_eq!(pivot_gap(&f, &ip, &jp, &ip, &jp, n), None);
            let gap_of = |step: usize, r0: usize, c0: usize| {
                let (mut oip, mut ojp) = (ip.clone(), jp.clone());
                (oip[step], ojp[step]) = (r0 as i32 + 1, c0 as i32 + 1);
                ((oip[step], ojp[step]) != (ip[step], jp[step])).then(|| pivot_gap(&f, &ip, &jp, &oip, &ojp, n).unwrap())
            };
            let amax = a.iter().map(|x| x.to_c64().norm()).fold(0.0, f64::max);
            for (r0, c0) in [(0, 0), (n - 1, 0), (n / 2, n - 1)] {
                if let Some((k, gap)) = gap_of(0, r0, c0) {
                    let want = (amax - a[r0 + c0 * n].to_c64().norm()) / amax;
                    assert!(k == 0 && (gap - want).abs() < 64.0 * n as f64 * T::EPS, "{} n={n} ({r0}, {c0}): gap {gap} want {want}", T::LETTER);
                }
            }
            let mut m = c64s(&a);
            let (p, q) = (ip[0] as usize - 1, jp[0] as usize - 1);
            (0..n).for_each(|j| m.swap(j * n, p + j * n));
            (0..n).for_each(|i| m.swap(i, i + q * n));
            for j in 1..n {
                for i in 1..n {
                    let (l, u) = (m[i] / m[0], m[j * n]);
                    m[i + j * n] -= l * u;
                }
            }
            let smax = (1..n).flat_map(|j| (1..n).map(move |i| (i, j))).map(|(i, j)| m[i + j * n].norm()).fold(0.0, f64::max);
            for (r0, c0) in [(1, 1), (n - 1, 1), (n / 2, n - 1)] {
                if let Some((k, gap)) = gap_of(1, r0, c0).filter(|_| n >= 3) {
                    let want = (smax - m[r0 + c0 * n].norm()) / smax;
                    assert!(k == 1 && (gap - want).abs() < 64.0 * n as f64 * T::EPS, "{} n={n} step 1 ({r0}, {c0}): gap {gap} want {want}", T::LETTER);
                }
            }
            let mut bad = ip.clone();
            bad[0] = 0;
            assert_eq!(pivot_gap(&f, &ip, &jp, &bad, &jp, n), Some((0, f64::INFINITY)));
        }
    }

    #[test]
    fn lu_ratio_catches_wrong_factors_and_pivots() {
        lu_ratio_catches::<f32>();
        lu_ratio_catches::<f64>();
        lu_ratio_catches::<Complex32>();
        lu_ratio_catches::<Complex64>();
    }

    #[test]
    fn pivot_gap_measures_the_trailing_block() {
        pivot_gap_measures::<f32>();
        pivot_gap_measures::<f64>();
        pivot_gap_measures::<Complex32>();
        pivot_gap_measures::<Complex64>();
    }
}
