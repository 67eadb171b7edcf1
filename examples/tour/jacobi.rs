//! jacobi (batched Jacobi eigen and singular value decompositions), per precision, with the
//! oracle's matrices (`numgpu::testing::jacobi`): syevj/heevj with vectors on 1,000 random
//! Hermitian matrices of order 32 and 20 of order 128; gesvdj with U and V on 500 random
//! 64 × 32 matrices and 500 of 32 × 64. err/cpu = max|λ − λ_cpu| / (n·ε·‖A‖₁) over the batch
//! (the CPU backend runs the same algorithm), err/ref the same ratio against LAPACK `zheevd` /
//! `zgesvd` in double on a sample; ≠cpu counts the matrices with info ≠ 0 or a sweep count
//! more than one from the CPU backend's.

use crate::{cflops, measure, sample, seed_of, Row, Rows};
use numgpu::jacobi::{gesvdj_batched_slices, syevj_batched_slices};
use numgpu::testing::jacobi::{eig_ref, general, hermitian, svd_ref, value_ratio, Class};
use numgpu::testing::norm::{c64s, nan_max, norm1_matrix};
use numgpu::{Handle, Scalar};
use num_traits::Float;

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "jacobi: max|λ − λ_cpu| and max|λ − λ_ref| over n·ε·‖A‖₁ (λ_ref: LAPACK zheevd / zgesvd in double on a sample; the CPU backend runs the same Jacobi); ≠cpu: matrices with info ≠ 0 or sweeps more than one from the CPU backend's, must be 0; GFLOP/s at the rotations' flops (two-sided: 18n per pair with vectors; one-sided: 8m + 6n per pair with V), summed over the sweeps taken";

/// Outputs of one call: values, info, sweeps.
type Out<R> = (Vec<R>, Vec<i32>, Vec<i32>);

fn f<R: Into<f64>>(x: R) -> f64 {
    x.into()
}

/// syevj with vectors on `batch` random matrices of order n.
fn eig_case<T: Scalar>(h: &mut Handle, n: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let mats: Vec<Vec<T>> = (0..batch as u64).map(|i| hermitian::<T>(Class::Random, n, seed + i)).collect();
    let a: Vec<T> = mats.concat();
    let nan = <T::Real as Float>::nan();
    let input = || (a.clone(), vec![nan; n * batch], vec![-7; batch], vec![-7; batch], vec![nan; batch]);
    let ((_, w, info, sweeps, _), secs, (_, wc, _, sweepsc, _)) = measure(h, input, |h, (a, w, info, sweeps, res)| {
        syevj_batched_slices(h, 1, 0, n as i64, a, n as i64, (n * n) as i64, w, n as i64, None, info, sweeps, res, batch as i64)
    })?;
    let out: Out<T::Real> = (w, info, sweeps);
    Ok(row::<T>(&format!("{}{}evj_batched", T::LETTER, if T::IS_COMPLEX { "he" } else { "sy" }), format!("n={n}"), n, &mats, &out, (&wc, &sweepsc), secs, |i| {
        eig_ref(n, &c64s(&mats[i]))
    }, |s| s as f64 * (n * (n - 1) / 2) as f64 * 18.0 * n as f64))
}

/// gesvdj with U and V on `batch` random m × n matrices.
fn svd_case<T: Scalar>(h: &mut Handle, m: usize, n: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let mats: Vec<Vec<T>> = (0..batch as u64).map(|i| general::<T>(Class::Random, m, n, seed + i)).collect();
    let a: Vec<T> = mats.concat();
    let k = m.min(n);
    let nan = <T::Real as Float>::nan();
    let input = || (vec![nan; k * batch], vec![T::zero(); m * k * batch], vec![T::zero(); n * k * batch], vec![-7; batch], vec![-7; batch], vec![nan; batch]);
    let ((s, _, _, info, sweeps, _), secs, (sc, _, _, _, sweepsc, _)) = measure(h, input, |h, (s, u, v, info, sweeps, res)| {
        gesvdj_batched_slices(h, 1, 1, m as i64, n as i64, &a, m as i64, (m * n) as i64, s, k as i64, u, m as i64, (m * k) as i64, v, n as i64, (n * k) as i64, None, info, sweeps, res, batch as i64)
    })?;
    let out: Out<T::Real> = (s, info, sweeps);
    let (mm, nn) = (m.max(n), k);
    Ok(row::<T>(&format!("{}gesvdj_batched", T::LETTER), format!("{m}x{n}"), k, &mats, &out, (&sc, &sweepsc), secs, |i| {
        svd_ref(m, n, &c64s(&mats[i]))
    }, |s| s as f64 * (nn * (nn - 1) / 2) as f64 * (8 * mm + 6 * nn) as f64))
}

/// The row of a call: `k` values per matrix; `flops_of(sweeps)` the real flops of one matrix.
#[allow(clippy::too_many_arguments)]
fn row<T: Scalar>(routine: &str, size: String, k: usize, mats: &[Vec<T>], out: &Out<T::Real>, cpu: (&[T::Real], &[i32]), secs: f64, want: impl Fn(usize) -> Vec<f64>, flops_of: impl Fn(i32) -> f64) -> Row {
    let (vals, info, sweeps) = out;
    let batch = mats.len();
    let dim = mats[0].len() / k;
    let norm = |i: usize| norm1_matrix(&c64s(&mats[i]), mats[i].len() / dim, dim);
    let got = |v: &[T::Real], i: usize| -> Vec<f64> { v[i * k..(i + 1) * k].iter().map(|&x| f(x)).collect() };
    let mut err_cpu = 0f64;
    for i in 0..batch {
        err_cpu = nan_max(err_cpu, value_ratio(&got(vals, i), &got(cpu.0, i), dim, norm(i), T::EPS));
    }
    let mut err_ref = 0f64;
    for i in sample(batch) {
        err_ref = nan_max(err_ref, value_ratio(&got(vals, i), &want(i), dim, norm(i), T::EPS));
    }
    let differ = (0..batch).filter(|&i| info[i] != 0 || (sweeps[i] - cpu.1[i]).abs() > 1).count();
    let total: f64 = sweeps.iter().map(|&s| flops_of(s)).sum();
    Row {
        routine: routine.into(),
        size,
        batch,
        secs,
        flops: cflops::<T>(total),
        err_cpu,
        err_ref,
        differ: Some(differ),
        note: format!("{:.1} sweeps per matrix", sweeps.iter().map(|&s| s as f64).sum::<f64>() / batch as f64),
        ..Row::default()
    }
}

fn all<T: Scalar>(h: &mut Handle, rows: &mut Rows) {
    let seed = seed_of::<T>(9);
    rows.push(eig_case::<T>(h, 32, 1_000, seed));
    rows.push(eig_case::<T>(h, 128, 20, seed + 10_000));
    rows.push(svd_case::<T>(h, 64, 32, 500, seed + 20_000));
    rows.push(svd_case::<T>(h, 32, 64, 500, seed + 30_000));
}

/// The family's rows, appended to `rows`.
pub fn rows(h: &mut Handle, rows: &mut Rows) {
    all::<f32>(h, rows);
    all::<f64>(h, rows);
    all::<numgpu::Complex32>(h, rows);
    all::<numgpu::Complex64>(h, rows);
}
