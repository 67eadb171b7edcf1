//! Checks of the oracle's measures that numgpu-bench's rows rest on (each once exercised by the
//! bench's own copies of them): the tridiagonal backward error against a hand computation and
//! on wrong or NaN solutions, the SpMV reference's exact sums and its error ratio on wrong,
//! NaN and exactly-zero results, and the gemm ratio of a wrong product.

use super::gemm::Gemm;
use super::sparse::{error_ratio, generate, reference, Kind as Class};
use super::tridiag::{backward_error, lapack, Kind, Sys};
use crate::spmv::Csr;
use crate::{Complex64, Op};

fn c(re: f64) -> Complex64 {
    Complex64::new(re, 0.0)
}

/// T = tridiag(1, 4, 1) of order 3, b = T·1 = (5, 6, 5), x = 1 except x(2) = 1 + δ: r = (−δ,
/// −4δ, −δ), ‖r‖∞ = 4δ, ‖T‖∞ = 6, ‖x‖∞ = 1 + δ, ‖b‖∞ = 6; a wrong or NaN solution of a dominant
/// system fails the bench's bound; the dominant class is dominant.
#[test]
fn tridiagonal_backward_error() {
    let s = Sys { kind: Kind::Dominant, seed: 0, n: 3, nrhs: 1, dl: vec![c(1.0); 2], d: vec![c(4.0); 3], du: vec![c(1.0); 2], b: vec![c(5.0), c(6.0), c(5.0)], exact: None };
    let delta = 1e-10;
    let want = 4.0 * delta / ((6.0 * (1.0 + delta) + 6.0) * f64::EPSILON);
    assert!((backward_error::<f64>(&s, 0, &[1.0, 1.0 + delta, 1.0], None) - want).abs() < 1e-6 * want);
    assert_eq!(backward_error::<f64>(&s, 0, &[1.0, 1.0, 1.0], None), 0.0);
    let s = Sys::new::<f32>(Kind::Dominant, 1000, 1, 7);
    let mut x: Vec<f32> = lapack::<f64>(&s, &s.b, 1).0.iter().map(|z| z.re as f32).collect();
    assert!(backward_error::<f32>(&s, 0, &x, None) < super::tol::RATIO);
    x[500] += 1e-2 * (1.0 + x.iter().fold(0.0f32, |m, v| m.max(v.abs())));
    assert!(backward_error::<f32>(&s, 0, &x, None) > 100.0);
    x[500] = f32::NAN;
    assert!(backward_error::<f32>(&s, 0, &x, None).is_nan());
    // The dominant class is strictly dominant by rows and by columns.
    let s = Sys::new::<crate::Complex32>(Kind::Dominant, 100, 1, 3);
    let at = |v: &[Complex64], k: usize| v.get(k).map_or(0.0, |z| z.norm());
    assert!((0..100).all(|k| s.d[k].norm() > at(&s.dl, k.wrapping_sub(1)) + at(&s.du, k) && s.d[k].norm() > at(&s.du, k.wrapping_sub(1)) + at(&s.dl, k)));
}

/// 1 + 2^-60 − 1 is 2^-60 exactly in the reference (a plain sum gives 0); a result moved by 4
/// tolerances, or NaN, fails; a row of zero terms admits only an exact 0.
#[test]
fn spmv_reference_and_ratio() {
    let a = Csr::from_triplets(1, 3, &[(0, 0, 1.0), (0, 1, 2f64.powi(-60)), (0, 2, -1.0)]);
    assert_eq!(reference(Op::N, 1.0, &a, &[1.0; 3], 0.0, &[]).0[0], c(2f64.powi(-60)));
    let a = generate(Class::Short, 20_000, 3).map(|v| v as f32);
    let x: Vec<f32> = (0..a.n).map(|j| 1.0 - (j % 7) as f32 / 4.0).collect();
    let (want, tol) = reference(Op::N, 1.0f32, &a, &x, 0.0, &[]);
    let mut y: Vec<f32> = want.iter().map(|z| z.re as f32).collect();
    assert!(error_ratio(&y, &want, &tol) <= 1.0);
    let i = (0..a.m).max_by(|&p, &q| tol[p].total_cmp(&tol[q])).unwrap_or(0);
    y[i] = (want[i].re + 4.0 * tol[i]) as f32;
    assert!(error_ratio(&y, &want, &tol) > 3.0);
    y[i] = f32::NAN;
    assert!(error_ratio(&y, &want, &tol).is_nan());
    assert_eq!(error_ratio(&[0.0f64; 2], &[c(0.0); 2], &[0.0; 2]), 0.0);
    assert_eq!(error_ratio(&[1.0f64], &[c(0.0)], &[0.0]), f64::INFINITY);
}

/// The gemm ratio of an exact product is small, of one with a wrong entry large.
#[test]
fn gemm_ratio_of_a_wrong_product() {
    let n = 16;
    let m = |s: u64| super::gen::filled::<f32>(n * n, s);
    let (a, b, c0) = (m(1), m(2), m(3));
    let g = Gemm { ta: Op::N, tb: Op::N, m: n, n, k: n, alpha: 1.0, a: &a, lda: n, b: &b, ldb: n, beta: 0.5, c0: &c0, ldc: n };
    let want = g.reference();
    let mut got: Vec<f32> = want.iter().map(|z| z.re as f32).collect();
    assert!(g.ratio_to(&got, &want) < super::tol::GEMM_RATIO);
    got[17] += 0.1;
    assert!(g.ratio_to(&got, &want) > 100.0);
}

/// The MTTKRP bench's sampled rows are the explicit unfold + Khatri–Rao + GEMM's rows, in every
/// mode of a 4th-order tensor, bound included.
#[test]
fn mttkrp_rows_are_the_unfolded_products_rows() {
    use super::tensor::{mttkrp, mttkrp_rows};
    let dims = [3, 4, 2, 5];
    let x: Vec<f64> = super::gen::filled(120, 9);
    let u: Vec<Vec<f64>> = dims.iter().map(|&d| super::gen::filled(d * 3, d as u64)).collect();
    for mode in 0..4 {
        let (want, bound) = mttkrp(&dims, &x, mode, 3, &u);
        let rows: Vec<usize> = (0..dims[mode]).rev().collect();
        let (got, gb) = mttkrp_rows(&dims, &x, mode, 3, &u, &rows);
        for (s, &i) in rows.iter().enumerate() {
            for r in 0..3 {
                let (a, b) = (got[s + r * rows.len()], want[i + r * dims[mode]]);
                assert!((a - b).abs() <= 1e-13 * bound[i + r * dims[mode]] && (gb[s + r * rows.len()] - bound[i + r * dims[mode]]).abs() <= 1e-13 * bound[i + r * dims[mode]], "mode {mode} row {i} rank {r}: {a} vs {b}");
            }
        }
    }
}
