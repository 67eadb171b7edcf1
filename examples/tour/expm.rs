//! expm (batched matrix exponentials), per precision, with the oracle's inputs
//! (`numgpu::testing::expm`): P(t) = E·diag(exp(λt))·E⁻¹ of one reversible rate model for
//! 10^5 branch lengths (M = 20) and 10^4 (M = 61), and exp(A) of 10^4 random 8 × 8 and 1,000
//! random 32 × 32 matrices with norms from 0.01 to 100 (0 to 5 squarings). expm_eig rows:
//! err = max elementwise |P − P'| in units of (M + 4)·ε·|E|·|D|·|E⁻¹| (the product's rounding
//! bound), against the CPU backend (whole batch) and E·D·E⁻¹ in double (a sample). expm rows:
//! err = ‖E − E'‖₁/(‖E'‖₁·ε·(n + ‖A‖₁)) against the CPU backend (whole batch) and Higham's
//! Padé 13 in double (a sample); ≠cpu counts matrices whose info differs from the CPU
//! backend's or is not 0.

use crate::{cflops, measure, sample, seed_of, Row, Rows};
use numgpu::expm::{expm_batched_slices, expm_eig_batched_slices};
use numgpu::lapack::Blas;
use numgpu::testing::expm::{eig_ratio, eig_reference, expm_ratio, expm_reference, norm1, rate_model};
use numgpu::testing::gen::{nan, random, rng, POISON};
use numgpu::testing::norm::nan_max;
use numgpu::{Complex64, Handle, Scalar};

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "expm_eig: max|P − P'| over (M+4)·ε·|E||D||E⁻¹| (P' the CPU backend's, with |D| <= I, or E·D·E⁻¹ in double on a sample); expm: ‖E − E'‖₁/(‖E'‖₁·ε·(n + ‖A‖₁)) (E' the CPU backend's, or Higham's Padé 13 in double on a sample); ≠cpu: matrices whose info differs from the CPU backend's or is not 0; GFLOP/s at 2M³ per P and (6 + 4/3 + s)·2n³ per exp";

fn t<T: Scalar>(x: f64) -> T {
    T::from_c64(Complex64::new(x, 0.0))
}

fn c64<T: Scalar>(v: &[T]) -> Vec<Complex64> {
    v.iter().map(|x| x.to_c64()).collect()
}

/// P(t_i) for `batch` branch lengths in (0, 2] of the rate model of order m (shared E, λ, E⁻¹).
fn eig_case<T: Blas>(h: &mut Handle, m: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let q = rate_model(m, seed);
    let (e, l, ei): (Vec<T>, Vec<T>, Vec<T>) = (q.e.iter().map(|&x| t(x)).collect(), q.lambda.iter().map(|&x| t(x)).collect(), q.einv.iter().map(|&x| t(x)).collect());
    let times: Vec<T::Real> = (0..batch).map(|i| t::<T>(2.0 * ((i * 7919) % batch + 1) as f64 / batch as f64).re()).collect();
    let mm = m * m;
    let (p, secs, cpu) = measure(h, || vec![nan::<T>(); mm * batch], |h, p| {
        expm_eig_batched_slices(h, m as i64, &e, m as i64, 0, &l, 0, &ei, m as i64, 0, &times, p, m as i64, mm as i64, batch as i64)
    })?;
    let (ce, cl, cei) = (c64(&e), c64(&l), c64(&ei));
    // λ <= 0 (to rounding): |D(t)| <= I, so |E|·|E⁻¹| bounds every problem's rounding scale.
    let (_, bound) = eig_reference(&ce, &cl, &cei, 0.0, m);
    let err_cpu = (0..batch).map(|i| eig_ratio(&c64(&p[i * mm..(i + 1) * mm]), &c64(&cpu[i * mm..(i + 1) * mm]), &bound, m, T::EPS)).fold(0.0, nan_max);
    let err_ref = sample(batch)
        .map(|i| {
            let (reference, bound) = eig_reference(&ce, &cl, &cei, times[i].into(), m);
            eig_ratio(&c64(&p[i * mm..(i + 1) * mm]), &reference, &bound, m, T::EPS)
        })
        .fold(0.0, nan_max);
    Ok(Row {
        routine: format!("{}expm_eig_batched", T::LETTER),
        size: format!("M={m}, shared E"),
        batch,
        secs,
        flops: cflops::<T>(2.0 * (m * mm) as f64 * batch as f64),
        err_cpu,
        err_ref,
        differ: None,
        note: "reversible rate model, t in (0, 2]".into(),
        ..Row::default()
    })
}

/// exp(A_i) of `batch` random n × n matrices, 1-norms spread log-uniformly over [0.01, 100].
fn expm_case<T: Blas>(h: &mut Handle, n: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let mut r = rng(seed);
    let nn = n * n;
    let mut a: Vec<T> = random(&mut r, nn * batch, 1.0);
    for (i, mat) in a.chunks_mut(nn).enumerate() {
        let want = 10f64.powf(-2.0 + 4.0 * i as f64 / batch as f64);
        let nrm = norm1(&c64(mat), n).max(f64::MIN_POSITIVE);
        mat.iter_mut().for_each(|x| *x = x.scale(t::<T>(want / nrm).re()));
    }
    let input = || (vec![nan::<T>(); nn * batch], vec![POISON; batch]);
    let ((e, info), secs, (ce, cinfo)) = measure(h, input, |h, (e, info)| expm_batched_slices(h, n as i64, &a, n as i64, nn as i64, e, n as i64, nn as i64, info, batch as i64))?;
    let (mut err_cpu, mut err_ref, mut flops) = (0f64, 0f64, 0f64);
    for i in 0..batch {
        let ai = c64(&a[i * nn..(i + 1) * nn]);
        let an = norm1(&ai, n);
        let got = c64(&e[i * nn..(i + 1) * nn]);
        err_cpu = nan_max(err_cpu, expm_ratio(&got, &c64(&ce[i * nn..(i + 1) * nn]), an, n, T::EPS));
        let s = (an / 5.37).log2().ceil().max(0.0);
        flops += (6.0 + 4.0 / 3.0 + s) * 2.0 * (n * nn) as f64;
    }
    for i in sample(batch) {
        let ai = c64(&a[i * nn..(i + 1) * nn]);
        err_ref = nan_max(err_ref, expm_ratio(&c64(&e[i * nn..(i + 1) * nn]), &expm_reference(&ai, n), norm1(&ai, n), n, T::EPS));
    }
    let differ = (0..batch).filter(|&i| info[i] != cinfo[i] || info[i] != 0).count();
    Ok(Row {
        routine: format!("{}expm_batched", T::LETTER),
        size: format!("n={n}"),
        batch,
        secs,
        flops: cflops::<T>(flops),
        err_cpu,
        err_ref,
        differ: Some(differ),
        note: "random, ‖A‖₁ from 0.01 to 100".into(),
        ..Row::default()
    })
}

fn all<T: Blas>(h: &mut Handle, rows: &mut Rows) {
    let seed = seed_of::<T>(9);
    rows.push(eig_case::<T>(h, 20, 100_000, seed));
    rows.push(eig_case::<T>(h, 61, 10_000, seed + 1));
    rows.push(expm_case::<T>(h, 8, 10_000, seed + 2));
    rows.push(expm_case::<T>(h, 32, 1_000, seed + 3));
}

rows_in_every_precision!(all);
