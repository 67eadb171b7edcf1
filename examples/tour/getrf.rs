//! getrf_fullpivot: per precision, batches of n×n random matrices (n = 16 and 100) through
//! getrf in both modes, getrs (N, and T or C), gesc2 on the GETC2 factors, and gesv.
//! getrf: ipiv, jpiv and info identical to the CPU backend's (LAPACK `?getc2` in mode GETC2)
//! for every matrix, except near-ties (`numgpu::testing::lu::compare_pivots`: rounding breaks
//! those either way), counted apart; err/cpu the factors' difference ‖F − F_cpu‖₁ /
//! (n·‖A‖₁·ε) where the pivots agree, err/ref LAPACK's ratio ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) on a
//! sample. getrs, gesv, gesc2: the residual ratio ‖s·b − op(A)·x‖₁ / (‖op(A)‖₁·‖x‖₁·n·ε) of
//! every right-hand side (s: gesc2's scale, else 1), and the same measure of the difference
//! from the CPU backend's solution; gesv's pivots and info, and gesc2's scale, identical to the
//! CPU backend's.

use crate::{measure, op_char, sample, seed_of, Row, Rows};
use numgpu::getrf_fullpivot::{gesc2_strided, gesv_strided, getrf_strided, getrs_strided, Mode};
use numgpu::lapack::Blas;
use numgpu::testing::gen::filled;
use numgpu::testing::lu::{compare_pivots, lu_ratio, op_matrix, residual_ratio, Pivots};
use numgpu::testing::norm::{c64s, nan_max, norm1_matrix};
use numgpu::{Complex64, Handle, Op, Scalar};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "getrf_fullpivot: factors vs the CPU backend ‖ΔF‖₁/(n‖A‖₁ε), and ‖PLUQ − A‖₁/(n‖A‖₁ε) (a sample); ≠cpu: matrices whose pivots or info differ from the CPU backend's (LAPACK ?getc2 in mode GETC2), must be 0; +k~: k near-ties besides (pivot within 4nε of the CPU's, relative: rounding), not failures\n  getrs, gesv, gesc2: ‖op(A)(x − x_cpu)‖₁ and ‖s·b − op(A)x‖₁ over ‖op(A)‖₁‖x‖₁nε (every rhs); ≠cpu: gesv's pivots or info, gesc2's scale, must be 0";

/// Right-hand sides of the solves.
const NRHS: usize = 2;

/// LU flops of one n×n matrix: 2n³/3 (real flops).
fn lu_flops<T: Scalar>(n: usize) -> f64 {
    crate::cflops::<T>(2.0 * (n * n * n) as f64 / 3.0)
}

/// Flops of one solve with the factors, one right-hand side: 2n².
fn solve_flops<T: Scalar>(n: usize) -> f64 {
    crate::cflops::<T>(2.0 * (n * n) as f64)
}

/// Factors of a batch: matrices in place, pivots, info.
#[derive(Clone)]
struct Factors<T> {
    f: Vec<T>,
    ipiv: Vec<i32>,
    jpiv: Vec<i32>,
    info: Vec<i32>,
}

impl<T: Scalar> Factors<T> {
    /// `a` (a batch of n×n matrices) before its factorisation.
    fn of(a: &[T], n: usize) -> Factors<T> {
        let batch = a.len() / (n * n);
        Factors { f: a.to_vec(), ipiv: vec![0; n * batch], jpiv: vec![0; n * batch], info: vec![0; batch] }
    }

    /// Matrix i's pivots compared with the reference `r`'s.
    fn compare(&self, r: &Factors<T>, n: usize, i: usize) -> Pivots {
        let s = i * n..(i + 1) * n;
        compare_pivots(&r.f[i * n * n..(i + 1) * n * n], &r.ipiv[s.clone()], &r.jpiv[s.clone()], r.info[i], &self.ipiv[s.clone()], &self.jpiv[s], self.info[i], n)
    }

    /// (matrices whose pivots or info differ from `r`'s, near-ties left out; near-ties).
    fn differ(&self, r: &Factors<T>, n: usize) -> (usize, usize) {
        let outcomes: Vec<Pivots> = (0..self.info.len()).map(|i| self.compare(r, n, i)).collect();
        (outcomes.iter().filter(|&&o| o == Pivots::Differ).count(), outcomes.iter().filter(|&&o| o == Pivots::NearTie).count())
    }
}

/// `?getrf_fullpivot_batched_strided` in `mode`; the row and the factors, which the solves
/// reuse.
fn getrf_case<T: Blas>(h: &mut Handle, mode: Mode, n: usize, a: &[T]) -> Result<(Row, Factors<T>), String> {
    let (e, batch) = (n * n, a.len() / (n * n));
    let (ni, bi) = (n as i64, batch as i64);
    let (ours, secs, cpu) = measure(h, || Factors::of(a, n), |h, r| getrf_strided(h, mode, ni, &mut r.f, ni, ni * ni, &mut r.ipiv, &mut r.jpiv, &mut r.info, bi))?;
    let diff = |i: usize| -> f64 {
        let d: Vec<Complex64> = ours.f[i * e..(i + 1) * e].iter().zip(&cpu.f[i * e..(i + 1) * e]).map(|(x, y)| x.to_c64() - y.to_c64()).collect();
        norm1_matrix(&d, n, n) / (n as f64 * norm1_matrix(&c64s(&a[i * e..(i + 1) * e]), n, n) * T::EPS)
    };
    let err_cpu = (0..batch).filter(|&i| ours.compare(&cpu, n, i) == Pivots::Same).map(diff).fold(0.0, nan_max);
    let err_ref = sample(batch).filter(|&i| ours.info[i] == 0).map(|i| lu_ratio(&a[i * e..], &ours.f[i * e..], &ours.ipiv[i * n..], &ours.jpiv[i * n..], n)).fold(0.0, nan_max);
    let (differ, near) = ours.differ(&cpu, n);
    let row = Row {
        routine: format!("{}getrf_fullpivot_strided {}", T::LETTER, if mode == Mode::Getc2 { "GETC2" } else { "STRICT" }),
        size: format!("{n}x{n}"),
        batch,
        secs,
        flops: batch as f64 * lu_flops::<T>(n),
        err_cpu,
        err_ref,
        differ: Some(differ),
        near,
        ..Row::default()
    };
    Ok((row, ours))
}

/// (err/cpu, err/ref) of our solutions `x` and the CPU backend's `xc` of op(A_i)·x = s_i·b
/// for `nrhs` right-hand sides per matrix (columns n apart); matrices with info ≠ 0 left out.
#[allow(clippy::too_many_arguments)]
fn solve_errors<T: Scalar>(a: &[T], n: usize, trans: Op, b: &[T], x: &[T], xc: &[T], nrhs: usize, scale: impl Fn(usize) -> f64, info: &[i32]) -> (f64, f64) {
    let e = n * n;
    let (mut err_cpu, mut err_ref) = (0f64, 0f64);
    for i in (0..info.len()).filter(|&i| info[i] == 0) {
        let m = op_matrix(&a[i * e..(i + 1) * e], n, trans);
        for r in (i * nrhs..(i + 1) * nrhs).map(|c| c * n..(c + 1) * n) {
            let rhs: Vec<Complex64> = b[r.clone()].iter().map(|v| v.to_c64() * scale(i)).collect();
            err_ref = nan_max(err_ref, residual_ratio(&m, &x[r.clone()], &rhs, None));
            err_cpu = nan_max(err_cpu, residual_ratio(&m, &x[r.clone()], &rhs, Some(&xc[r])));
        }
    }
    (err_cpu, err_ref)
}

/// The row of a solve: `routine`, `nrhs` right-hand sides per matrix, the flops of one matrix.
#[allow(clippy::too_many_arguments)]
fn solve_row(routine: String, n: usize, nrhs: usize, batch: usize, secs: f64, flops: f64, errors: (f64, f64), differ: Option<usize>) -> Row {
    Row { routine, size: format!("{n}x{n}, {nrhs} rhs"), batch, secs, flops: batch as f64 * flops, err_cpu: errors.0, err_ref: errors.1, differ, ..Row::default() }
}

/// `?getrs_fullpivot_batched_strided` with the factors `lu` of `a`.
fn getrs_case<T: Blas>(h: &mut Handle, trans: Op, n: usize, a: &[T], lu: &Factors<T>, seed: u64) -> Result<Row, String> {
    let batch = lu.info.len();
    let b = filled::<T>(batch * n * NRHS, seed);
    let (ni, sb) = (n as i64, (n * NRHS) as i64);
    let (x, secs, xc) = measure(h, || b.clone(), |h, x| getrs_strided(h, trans, ni, NRHS as i64, &lu.f, ni, ni * ni, &lu.ipiv, &lu.jpiv, x, ni, sb, batch as i64))?;
    let errors = solve_errors(a, n, trans, &b, &x, &xc, NRHS, |_| 1.0, &lu.info);
    Ok(solve_row(format!("{}getrs_fullpivot_strided {}", T::LETTER, op_char(trans)), n, NRHS, batch, secs, NRHS as f64 * solve_flops::<T>(n), errors, None))
}

/// `?gesv_fullpivot_batched_strided`: factor (STRICT) and solve.
fn gesv_case<T: Blas>(h: &mut Handle, n: usize, a: &[T], seed: u64) -> Result<Row, String> {
    let batch = a.len() / (n * n);
    let b = filled::<T>(batch * n * NRHS, seed);
    let (ni, sb) = (n as i64, (n * NRHS) as i64);
    let ((f, x), secs, (fc, xc)) = measure(h, || (Factors::of(a, n), b.clone()), |h, (f, x)| gesv_strided(h, ni, NRHS as i64, &mut f.f, ni, ni * ni, &mut f.ipiv, &mut f.jpiv, x, ni, sb, &mut f.info, batch as i64))?;
    let errors = solve_errors(a, n, Op::N, &b, &x, &xc, NRHS, |_| 1.0, &f.info);
    let flops = lu_flops::<T>(n) + NRHS as f64 * solve_flops::<T>(n);
    let (differ, near) = f.differ(&fc, n);
    Ok(Row { near, ..solve_row(format!("{}gesv_fullpivot_strided", T::LETTER), n, NRHS, batch, secs, flops, errors, Some(differ)) })
}

/// `?gesc2_batched_strided` with the factors `lu` of `a` (mode GETC2), one right-hand side.
fn gesc2_case<T: Blas>(h: &mut Handle, n: usize, a: &[T], lu: &Factors<T>, seed: u64) -> Result<Row, String> {
    let batch = lu.info.len();
    let b = filled::<T>(batch * n, seed);
    let ni = n as i64;
    let ((x, scale), secs, (xc, scalec)) =
        measure(h, || (b.clone(), vec![T::Real::default(); batch]), |h, (x, scale)| gesc2_strided(h, ni, &lu.f, ni, ni * ni, x, ni, &lu.ipiv, &lu.jpiv, scale, batch as i64))?;
    let errors = solve_errors(a, n, Op::N, &b, &x, &xc, 1, |i| scale[i].into(), &lu.info);
    let differ = scale.iter().zip(&scalec).filter(|(p, q)| p != q).count();
    Ok(solve_row(format!("{}gesc2_batched_strided", T::LETTER), n, 1, batch, secs, solve_flops::<T>(n), errors, Some(differ)))
}

/// Every case of one precision: two size classes.
fn all<T: Blas>(h: &mut Handle, rows: &mut Rows) {
    for (n, batch) in [(16, 10_000), (100, 1_000)] {
        let seed = seed_of::<T>(2) | (n as u64) << 8;
        let a = filled::<T>(batch * n * n, seed);
        match getrf_case::<T>(h, Mode::Getc2, n, &a) {
            Ok((row, lu)) => {
                rows.push(Ok(row));
                rows.push(getrs_case::<T>(h, Op::N, n, &a, &lu, seed + 1));
                rows.push(getrs_case::<T>(h, if T::IS_COMPLEX { Op::C } else { Op::T }, n, &a, &lu, seed + 2));
                rows.push(gesc2_case::<T>(h, n, &a, &lu, seed + 3));
            }
            Err(e) => rows.push(Err(e)),
        }
        rows.push(getrf_case::<T>(h, Mode::Strict, n, &a).map(|r| r.0));
        rows.push(gesv_case::<T>(h, n, &a, seed + 4));
    }
}

rows_in_every_precision!(all);
