//! stebz (symmetric tridiagonal eigenvalues by bisection), per real precision, with the
//! oracle's matrices (`numgpu::testing::tridiag_eig`): every eigenvalue of a batch of 1,000
//! random matrices of order 128 (range ALL); an index window and a value range of 100
//! eigenvalues each in the middle of tridiag(−1, 2, −1) of order 10^5 (exact spectrum); and
//! the Sturm counts of a batch of 1,000 random matrices of order 128 at 64 shifts.
//! Eigenvalue rows: err/cpu = max|w − w_cpu| / max(abstol, ulp·‖T‖) over the whole batch (the
//! CPU backend is LAPACK `?stebz`), err/ref the same ratio against the reference spectrum
//! (exact, or LAPACK `dsterf` on a sample: its unit is then n·ulp·‖T‖, QL's own error);
//! ≠cpu counts the matrices whose m or info differ from the CPU backend's or from the
//! expected (m = the range's size, info = 0). Count rows: ≠cpu counts the matrices with a
//! count that differs from the CPU backend's (the same bits promised) or, at a shift farther
//! than 100·ulp·‖T‖ from the spectrum, from the exact count in double-double arithmetic.

use crate::{measure, sample, seed_of, Row, Rows};
use numgpu::lapack::RealLapack;
use numgpu::stebz::{numgpu_stebz_range as R, stebz_batched_slices, stecount_batched_slices};
use numgpu::testing::gen::{nan, POISON};
use numgpu::testing::norm::nan_max;
use numgpu::testing::tridiag_eig::{count_dd, ratio, reference, reference_unit, strided, value_range, Class, Tri};
use numgpu::{Complex64, Handle, Scalar};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "stebz: max|w − w_cpu| and max|w − λ| over max(abstol, ulp‖T‖) (λ exact, or LAPACK dsterf on a sample in units of n·ulp‖T‖; the CPU backend is LAPACK ?stebz); ≠cpu: matrices whose m or info differ from the CPU backend's or the range's, must be 0; stecount: ≠cpu matrices whose counts differ from the CPU backend's or from the exact (double-double) count away from the spectrum; GFLOP/s at 4n flops per Sturm count and log2(‖T‖/tol) counts per eigenvalue (one bisection each, as LAPACK)";

/// The order and batch of the batched rows, the order of the single matrix.
const N: usize = 128;
const BATCH: usize = 1_000;
const BIG: usize = 100_000;

fn t<T: Scalar>(x: f64) -> T {
    T::from_c64(Complex64::new(x, 0.0))
}

fn f<T: Scalar>(x: T) -> f64 {
    x.to_c64().re
}

/// Flops of finding m eigenvalues of order n to ulp by plain bisection: 4n per count,
/// log2(1/ulp) counts each.
fn flops<T: Scalar>(n: usize, m: usize) -> f64 {
    4.0 * n as f64 * m as f64 * (1.0 / T::EPS).log2()
}

/// One stebz call on `mats` (one order), range `code` (vl, vu, il, iu), against the CPU
/// backend and the reference eigenvalues `want(i)` of matrix i (checked on `picks`).
#[allow(clippy::too_many_arguments)]
fn eig_case<T: RealLapack>(h: &mut Handle, what: &str, mats: &[Tri], code: R, (vl, vu, il, iu): (f64, f64, usize, usize), picks: &[usize], want: impl Fn(usize) -> Vec<f64>) -> Result<Row, String> {
    let (n, batch) = (mats[0].n(), mats.len());
    let (d, e) = strided::<T>(mats, nan::<T>());
    let input = || (vec![-7i64; batch], vec![nan::<T>(); n * batch], vec![POISON; batch]);
    let ((m, w, info), secs, (mc, wc, infoc)) = measure(h, input, |h, (m, w, info)| {
        stebz_batched_slices(h, code as i32, n as i64, t(vl), t(vu), il as i64, iu as i64, t(0.0), &d, n as i64, &e, n as i64, m, w, n as i64, info, batch as i64)
    })?;
    let eigs = |w: &[T], m: &[i64], i: usize| -> Vec<f64> { w[i * n..i * n + m[i].clamp(0, n as i64) as usize].iter().map(|&x| f(x)).collect() };
    let mut err_cpu = 0f64;
    for (i, mat) in mats.iter().enumerate() {
        if m[i] == mc[i] {
            err_cpu = nan_max(err_cpu, ratio::<T>(mat, &eigs(&w, &m, i), &eigs(&wc, &mc, i), 0.0, 1.0));
        }
    }
    let mut err_ref = 0f64;
    let mut differ = (0..batch).filter(|&i| m[i] != mc[i] || info[i] != infoc[i] || info[i] != 0).count();
    for &i in picks {
        let r = want(i);
        differ += usize::from(m[i] as usize != r.len() && m[i] == mc[i] && info[i] == 0);
        err_ref = nan_max(err_ref, ratio::<T>(&mats[i], &eigs(&w, &m, i), &r, 0.0, reference_unit::<T>(&mats[i])));
    }
    let found: i64 = m.iter().sum();
    Ok(Row {
        routine: format!("{}stebz_batched {what}", T::LETTER),
        size: format!("n={n}"),
        batch,
        secs,
        flops: flops::<T>(n, found as usize),
        err_cpu,
        err_ref,
        differ: Some(differ),
        note: format!("{found} eigenvalues found; {:?}", mats[0].class),
        ..Row::default()
    })
}

/// The Sturm counts of a batch of random matrices at 64 shifts spread over [−3, 3].
fn count_case<T: RealLapack>(h: &mut Handle, seed: u64) -> Result<Row, String> {
    let mats: Vec<Tri> = (0..BATCH as u64).map(|i| Tri::new::<T>(Class::Random, N, seed + i)).collect();
    let (d, e) = strided::<T>(&mats, nan::<T>());
    let mu: Vec<T> = (0..64).map(|j| t(-3.0 + 6.0 * (j as f64 + 0.37) / 64.0)).collect();
    let nmu = mu.len();
    let (count, secs, cpu) = measure(h, || vec![-7i64; nmu * BATCH], |h, c| stecount_batched_slices(h, N as i64, &d, N as i64, &e, N as i64, &mu, c, BATCH as i64))?;
    let mut differ = (0..BATCH).filter(|&i| count[i * nmu..(i + 1) * nmu] != cpu[i * nmu..(i + 1) * nmu]).count();
    for i in sample(BATCH) {
        let (r, scale) = (reference(&mats[i]), 100.0 * T::EPS * mats[i].norm1());
        let wrong = mu.iter().enumerate().filter(|&(j, &x)| r.iter().all(|&l| (f(x) - l).abs() > scale) && count[i * nmu + j] != count_dd(&mats[i], f(x))).count();
        differ += usize::from(wrong > 0 && count[i * nmu..(i + 1) * nmu] == cpu[i * nmu..(i + 1) * nmu]);
    }
    Ok(Row {
        routine: format!("{}stecount_batched", T::LETTER),
        size: format!("n={N}, {nmu} shifts"),
        batch: BATCH,
        secs,
        flops: (4 * N * nmu * BATCH) as f64,
        differ: Some(differ),
        note: "exact counts: err columns not used".into(),
        ..Row::default()
    })
}

fn all<T: RealLapack>(h: &mut Handle, rows: &mut Rows) {
    let seed = seed_of::<T>(8);
    let mats: Vec<Tri> = (0..BATCH as u64).map(|i| Tri::new::<T>(Class::Random, N, seed + i)).collect();
    let picks: Vec<usize> = sample(BATCH).collect();
    rows.push(eig_case::<T>(h, "ALL", &mats, R::NUMGPU_STEBZ_ALL, (0.0, 0.0, 1, N), &picks, |i| reference(&mats[i])));
    let big = [Tri::new::<T>(Class::Laplace, BIG, 0)];
    let r = reference(&big[0]);
    let (il, iu) = (BIG / 2 - 49, BIG / 2 + 50);
    rows.push(eig_case::<T>(h, "INDEX", &big, R::NUMGPU_STEBZ_INDEX, (0.0, 0.0, il, iu), &[0], |_| r[il - 1..iu].to_vec()));
    let (vl, vu, inside) = value_range(&r, BIG / 4, BIG / 4 + 99);
    rows.push(eig_case::<T>(h, "VALUE", &big, R::NUMGPU_STEBZ_VALUE, (vl, vu, 0, 0), &[0], |_| inside.clone()));
    rows.push(count_case::<T>(h, seed + 1_000_000));
}

/// The family's rows, appended to `rows`.
pub fn rows(h: &mut Handle, rows: &mut Rows) {
    all::<f32>(h, rows);
    all::<f64>(h, rows);
}
