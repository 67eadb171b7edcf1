//! potrf: per precision, batches of n×n Hermitian positive definite matrices
//! (`numgpu::testing::spd`: L·Lᴴ of a random L for n = 16 with uplo lower, diagonally
//! dominant for n = 100 with uplo upper) through potrf,
//! potrs with its factors, and posv. potrf: info identical to the CPU backend's (LAPACK
//! `?potrf`) for every matrix; err/cpu the factors' difference ‖F − F_cpu‖₁ / (n·‖A‖₁·ε) in
//! the triangle, err/ref LAPACK's ratio ‖L·Lᴴ − A‖₁ / (n·‖A‖₁·ε) on a sample. potrs, posv:
//! the residual ratio ‖b − A·x‖₁ / (‖A‖₁·‖x‖₁·n·ε) of every right-hand side, and the same
//! measure of the difference from the CPU backend's solution; posv's info identical to the
//! CPU backend's.

use crate::{measure, sample, seed_of, Row, Rows};
use numgpu::lapack::Blas;
use numgpu::potrf::{posv_strided, potrf_strided, potrs_strided};
use numgpu::testing::gen::filled;
use numgpu::testing::lu::{op_matrix, residual_ratio};
use numgpu::testing::norm::{c64s, nan_max, norm1_matrix};
use numgpu::testing::spd::{chol_ratio, dominant_batch, lower_of, spd};
use numgpu::{Complex64, Handle, Op, Scalar, Uplo};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "potrf: factors vs the CPU backend ‖ΔF‖₁/(n‖A‖₁ε) (the triangle), and ‖L·Lᴴ − A‖₁/(n‖A‖₁ε) (a sample); ≠cpu: matrices whose info differs from the CPU backend's (LAPACK ?potrf), must be 0\n  potrs, posv: ‖A(x − x_cpu)‖₁ and ‖b − Ax‖₁ over ‖A‖₁‖x‖₁nε (every rhs); ≠cpu: posv's info, must be 0";

/// Right-hand sides of the solves.
const NRHS: usize = 2;

/// Cholesky flops of one n×n matrix: n³/3 (real flops).
fn chol_flops<T: Scalar>(n: usize) -> f64 {
    crate::cflops::<T>((n * n * n) as f64 / 3.0)
}

/// Flops of one solve with the factor, one right-hand side: 2n².
fn solve_flops<T: Scalar>(n: usize) -> f64 {
    crate::cflops::<T>(2.0 * (n * n) as f64)
}

/// `?potrf_batched_strided`; the row and the factors, which potrs reuses.
fn potrf_case<T: Blas>(h: &mut Handle, uplo: Uplo, n: usize, a: &[T]) -> Result<(Row, Vec<T>), String> {
    let (e, batch) = (n * n, a.len() / (n * n));
    let (ni, bi) = (n as i64, batch as i64);
    let ((f, info), secs, (fc, infoc)) = measure(h, || (a.to_vec(), vec![0i32; batch]), |h, (f, info)| potrf_strided(h, uplo, ni, f, ni, ni * ni, info, bi))?;
    let diff = |i: usize| -> f64 {
        let d: Vec<Complex64> = lower_of(&f[i * e..(i + 1) * e], n, uplo).iter().zip(lower_of(&fc[i * e..(i + 1) * e], n, uplo)).map(|(x, y)| x - y).collect();
        norm1_matrix(&d, n, n) / (n as f64 * norm1_matrix(&c64s(&a[i * e..(i + 1) * e]), n, n) * T::EPS)
    };
    let err_cpu = (0..batch).filter(|&i| info[i] == 0 && infoc[i] == 0).map(diff).fold(0.0, nan_max);
    let err_ref = sample(batch).filter(|&i| info[i] == 0).map(|i| chol_ratio(&a[i * e..(i + 1) * e], &f[i * e..(i + 1) * e], n, uplo)).fold(0.0, nan_max);
    let row = Row {
        routine: format!("{}potrf_batched_strided {uplo:?}", T::LETTER),
        size: format!("{n}x{n}"),
        batch,
        secs,
        flops: batch as f64 * chol_flops::<T>(n),
        err_cpu,
        err_ref,
        differ: Some(info.iter().zip(&infoc).filter(|(p, q)| p != q || **p != 0).count()),
        ..Row::default()
    };
    Ok((row, f))
}

/// (err/cpu, err/ref) of our solutions `x` and the CPU backend's `xc` of A_i·x = b for `NRHS`
/// right-hand sides per matrix (columns n apart).
fn solve_errors<T: Scalar>(a: &[T], n: usize, b: &[T], x: &[T], xc: &[T]) -> (f64, f64) {
    let (e, batch) = (n * n, a.len() / (n * n));
    let (mut err_cpu, mut err_ref) = (0f64, 0f64);
    for i in 0..batch {
        let m = op_matrix(&a[i * e..(i + 1) * e], n, Op::N);
        for r in (i * NRHS..(i + 1) * NRHS).map(|c| c * n..(c + 1) * n) {
            let rhs = c64s(&b[r.clone()]);
            err_ref = nan_max(err_ref, residual_ratio(&m, &x[r.clone()], &rhs, None));
            err_cpu = nan_max(err_cpu, residual_ratio(&m, &x[r.clone()], &rhs, Some(&xc[r])));
        }
    }
    (err_cpu, err_ref)
}

/// The row of a solve.
#[allow(clippy::too_many_arguments)]
fn solve_row(routine: String, n: usize, batch: usize, secs: f64, flops: f64, errors: (f64, f64), differ: Option<usize>) -> Row {
    Row { routine, size: format!("{n}x{n}, {NRHS} rhs"), batch, secs, flops: batch as f64 * flops, err_cpu: errors.0, err_ref: errors.1, differ, ..Row::default() }
}

/// `?potrs_batched_strided` with the factors `f` of `a`.
fn potrs_case<T: Blas>(h: &mut Handle, uplo: Uplo, n: usize, a: &[T], f: &[T], seed: u64) -> Result<Row, String> {
    let batch = a.len() / (n * n);
    let b = filled::<T>(batch * n * NRHS, seed);
    let (ni, sb) = (n as i64, (n * NRHS) as i64);
    let (x, secs, xc) = measure(h, || b.clone(), |h, x| potrs_strided(h, uplo, ni, NRHS as i64, f, ni, ni * ni, x, ni, sb, batch as i64))?;
    let errors = solve_errors(a, n, &b, &x, &xc);
    Ok(solve_row(format!("{}potrs_batched_strided {uplo:?}", T::LETTER), n, batch, secs, NRHS as f64 * solve_flops::<T>(n), errors, None))
}

/// `?posv_batched_strided`: factor and solve.
fn posv_case<T: Blas>(h: &mut Handle, uplo: Uplo, n: usize, a: &[T], seed: u64) -> Result<Row, String> {
    let batch = a.len() / (n * n);
    let b = filled::<T>(batch * n * NRHS, seed);
    let (ni, sb) = (n as i64, (n * NRHS) as i64);
    let ((_, x, info), secs, (_, xc, infoc)) =
        measure(h, || (a.to_vec(), b.clone(), vec![0i32; batch]), |h, (f, x, info)| posv_strided(h, uplo, ni, NRHS as i64, f, ni, ni * ni, x, ni, sb, info, batch as i64))?;
    let errors = solve_errors(a, n, &b, &x, &xc);
    let flops = chol_flops::<T>(n) + NRHS as f64 * solve_flops::<T>(n);
    let differ = info.iter().zip(&infoc).filter(|(p, q)| p != q || **p != 0).count();
    Ok(solve_row(format!("{}posv_batched_strided {uplo:?}", T::LETTER), n, batch, secs, flops, errors, Some(differ)))
}

/// Every case of one precision: two size classes.
fn all<T: Blas>(h: &mut Handle, rows: &mut Rows) {
    for (n, batch, uplo) in [(16, 10_000, Uplo::Lower), (100, 1_000, Uplo::Upper)] {
        let seed = seed_of::<T>(9) | (n as u64) << 8;
        let a: Vec<T> = if n <= 32 { (0..batch as u64).flat_map(|i| spd::<T>(n, seed + i)).collect() } else { dominant_batch::<T>(n, batch, seed) };
        match potrf_case::<T>(h, uplo, n, &a) {
            Ok((row, f)) => {
                rows.push(Ok(row));
                rows.push(potrs_case::<T>(h, uplo, n, &a, &f, seed + 1));
            }
            Err(e) => rows.push(Err(e)),
        }
        rows.push(posv_case::<T>(h, uplo, n, &a, seed + 2));
    }
}

rows_in_every_precision!(all);
