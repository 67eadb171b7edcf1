//! The geqrf sweep: for one precision and one n, numgpu's batched QR by Givens rotations
//! (`geqrf_givens`, strided form, device memory) against cuBLAS `geqrfBatched` (Householder,
//! pointer-array form) on the same device buffers and stream, and against LAPACK `?geqrf` on
//! the host, over all cores (rayon) and on one core.
//!
//! Square n, packed (lda = ldcs = n, strides n²), nonzero random data. Each timed call
//! factors fresh inputs: a copy of the pristine batch, enqueued before the call's start event
//! (so untimed), restores the input set the previous call used. GB/s count what each call
//! must move: numgpu n²·elem (A read) + n²·elem (R and the sines written over A) + n²·real
//! (the cosines CS written) per matrix; cuBLAS and LAPACK n²·elem (A read) + n²·elem (R and
//! the reflectors written) + n·elem (tau written).
//!
//! Checks, on a sample of the batch (the whole batch for small n): Q formed from our factors
//! by numgpu's `orgqr` on the device, ‖A − Q·R‖₁ / (n·‖A‖₁·ε) and ‖I − Qᴴ·Q‖₁ / (n·ε); |R|
//! against the |R| of LAPACK `?geqrf` on the same matrix (R is unique up to a unit diagonal
//! factor: ±1 real, a phase complex); two calls on the same inputs give bitwise the same A and
//! CS.

use crate::getrf::{below, bits, fetch_sample, nan_max, rotation_sets, sample_of, Config};
use crate::gpu::{cublas_check, median, ng, Cublas, DevBuf, Gpu, Res};
use crate::prec::{fill_random, Prec};
use crate::roofline::Roofline;
use numgpu::core::batch::Batch;
use numgpu::geqrf_givens::{geqrf, orgqr_strided};
use numgpu::{Complex64, Handle, Scalar};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// One row of the table: one precision and one n.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub precision: char,
    pub n: usize,
    pub batch: usize,
    /// Input sets the timed calls rotate through (more than 1 keeps a restored set out of L2
    /// until it is factored again).
    pub sets: usize,
    /// Bytes of one numgpu call: (2·n²·elem + n²·real) per matrix (A read, A and CS written).
    pub bytes: f64,
    /// Bytes of one cuBLAS (or LAPACK) call: (2·n²·elem + n·elem) per matrix (A read, A and
    /// tau written).
    pub cublas_bytes: f64,
    pub ours_ms: Option<f64>,
    pub ours_gbs: Option<f64>,
    /// GB/s / the copy bandwidth measured in the same run, %.
    pub roof_pct: Option<f64>,
    pub cublas_ms: Option<f64>,
    /// cublas_bytes / cuBLAS's time.
    pub cublas_gbs: Option<f64>,
    /// t_cuBLAS / t_numgpu (> 1: numgpu is faster).
    pub ratio_cublas: Option<f64>,
    /// Matrices LAPACK `?geqrf` factored in the all-cores run, and that run scaled to the
    /// whole batch (per-matrix time × batch).
    pub lapack_all_batch: usize,
    pub lapack_all_ms: Option<f64>,
    /// cublas_bytes / LAPACK's time over all cores.
    pub lapack_all_gbs: Option<f64>,
    pub ratio_lapack_all: Option<f64>,
    /// The same on one core (a subset of the batch).
    pub lapack_one_batch: usize,
    pub lapack_one_ms: Option<f64>,
    pub ratio_lapack_one: Option<f64>,
    /// Matrices of the sample checked.
    pub checked: usize,
    /// max ‖A − Q·R‖₁ / (n·‖A‖₁·ε) over the sample, Q from numgpu's orgqr on the device.
    pub qr_ratio: Option<f64>,
    /// max ‖I − Qᴴ·Q‖₁ / (n·ε) over the sample.
    pub orth_ratio: Option<f64>,
    /// max over the sample and i <= j of ||R(i, j)| − |R_LAPACK(i, j)|| / (n·κ̂·‖a_j‖₂·ε), κ̂ =
    /// max / min of |R_LAPACK(i, i)| / ‖a_i‖₂ (R's sensitivity; R(A·D) = R(A)·D).
    pub r_ratio: Option<f64>,
    /// Two calls on the same inputs gave bitwise the same sampled A and CS.
    pub reproducible: Option<bool>,
    pub ok: bool,
    pub note: String,
}

/// The device buffers of one input set: A, our CS, cuBLAS's pointer arrays and tau.
struct Set {
    a: DevBuf,
    cs: DevBuf,
    pa: DevBuf,
    ptau: DevBuf,
    tau: DevBuf,
}

/// Device bytes per matrix besides A, for one set: CS, two pointers, tau.
fn extra_bytes<T: Prec>(n: usize) -> usize {
    n * n * std::mem::size_of::<T::Real>() + 16 + n * std::mem::size_of::<T>()
}

/// The batch (capped by device memory) and the number of input sets for order n.
fn sizing<T: Prec>(gpu: &Gpu, cfg: &Config, n: usize) -> (usize, usize) {
    let a_per = (n * n * std::mem::size_of::<T>()) as f64;
    let l2 = gpu.l2_bytes as f64;
    // The pristine copy plus `sets` working sets.
    let need = |batch: usize, sets: usize| (sets + 1) as f64 * batch as f64 * a_per + (sets * batch * extra_bytes::<T>(n)) as f64;
    let mut batch = cfg.batch.min(i32::MAX as usize).max(1);
    if need(batch, 2) > cfg.mem_budget {
        batch = (cfg.mem_budget / need(1, 2)) as usize;
    }
    let mut sets = rotation_sets(batch as f64 * (a_per + extra_bytes::<T>(n) as f64), l2);
    while sets > 2 && need(batch, sets) > cfg.mem_budget {
        sets -= 1;
    }
    (batch, sets)
}

/// One row; a failure anywhere in it is recorded in the row (`ok = false`, `note`), never
/// ends the sweep.
pub fn run_row<T: Prec>(gpu: &Gpu, cublas: &Cublas, h: &mut Handle, roof: &Roofline, cfg: &Config, n: usize) -> Row {
    let (size, rsize) = (std::mem::size_of::<T>(), std::mem::size_of::<T::Real>());
    let (batch, sets) = sizing::<T>(gpu, cfg, n);
    let mut row = Row { precision: T::LETTER, n, batch, sets, bytes: (batch * n * n * (2 * size + rsize)) as f64, cublas_bytes: (batch * (2 * n * n + n) * size) as f64, ..Default::default() };
    let r = if batch == 0 {
        Err(format!("skipped: one {n}×{n} matrix and its copies exceed the device memory budget of {:.1} GB", cfg.mem_budget / 1e9))
    } else {
        row_body::<T>(gpu, cublas, h, roof, cfg, n, &mut row)
    };
    // Whatever happened, leave the stream idle before the buffers are freed.
    let s = gpu.sync();
    match r.and(s) {
        Ok(()) => {
            let mut why = Vec::new();
            if !below(row.qr_ratio, cfg.tol) {
                why.push(format!("‖A − QR‖ ratio {:.3e} >= {}", row.qr_ratio.unwrap_or(f64::NAN), cfg.tol));
            }
            if !below(row.orth_ratio, cfg.tol) {
                why.push(format!("‖I − QᴴQ‖ ratio {:.3e} >= {}", row.orth_ratio.unwrap_or(f64::NAN), cfg.tol));
            }
            if !below(row.r_ratio, cfg.tol) {
                why.push(format!("|R| vs LAPACK ?geqrf ratio {:.3e} >= {}", row.r_ratio.unwrap_or(f64::NAN), cfg.tol));
            }
            if row.reproducible != Some(true) {
                why.push("two calls on the same inputs differ bitwise".into());
            }
            if !row.note.is_empty() {
                why.push(std::mem::take(&mut row.note));
            }
            row.ok = why.is_empty();
            row.note = why.join("; ");
        }
        Err(e) => {
            row.ok = false;
            row.note = e;
        }
    }
    if row.ok && batch < cfg.batch {
        row.note = format!("batch {batch} (of {}): device memory", cfg.batch);
    }
    row
}

fn c64s<T: Scalar>(x: &[T]) -> Vec<Complex64> {
    x.iter().map(|v| v.to_c64()).collect()
}

fn norm1(a: &[Complex64], n: usize) -> f64 {
    (0..n).map(|j| a[j * n..(j + 1) * n].iter().map(|x| x.norm()).sum::<f64>()).fold(0.0, f64::max)
}

/// ‖A − Q·R‖₁ / (n·‖A‖₁·ε) of one n×n matrix: `a` the input, `f` the factors (R in the upper
/// triangle), `q` the Q formed from them; in double precision.
fn qr_ratio<T: Scalar>(a: &[T], f: &[T], q: &[T], n: usize) -> f64 {
    let (a, f, q) = (c64s(a), c64s(f), c64s(q));
    let mut diff = a.clone();
    for j in 0..n {
        for k in 0..=j {
            let r = f[k + j * n];
            for i in 0..n {
                diff[i + j * n] -= q[i + k * n] * r;
            }
        }
    }
    let na = norm1(&a, n);
    if na == 0.0 {
        return norm1(&diff, n);
    }
    norm1(&diff, n) / (n as f64 * na * T::EPS)
}

/// ‖I − Qᴴ·Q‖₁ / (n·ε) of one n×n matrix q, in double precision.
fn orth_ratio<T: Scalar>(q: &[T], n: usize) -> f64 {
    let q = c64s(q);
    let mut g = vec![Complex64::new(0.0, 0.0); n * n];
    for j in 0..n {
        for i in 0..n {
            let s: Complex64 = (0..n).map(|k| q[k + i * n].conj() * q[k + j * n]).sum();
            g[i + j * n] = if i == j { s - 1.0 } else { s };
        }
    }
    norm1(&g, n) / (n as f64 * T::EPS)
}

/// max over i <= j of ||R(i, j)| − |L(i, j)|| / (n·κ̂·‖a_j‖₂·ε): `f` our factors, `l` LAPACK
/// `?geqrf`'s, `a` the input, all n×n; κ̂ = max / min of |L(i, i)| / ‖a_i‖₂. Moduli, because R
/// is unique only up to a unit diagonal factor (LAPACK's complex R has a real diagonal, ours
/// need not).
fn r_ratio<T: Scalar>(a: &[T], f: &[T], l: &[T], n: usize) -> f64 {
    let norms: Vec<f64> = (0..n).map(|j| a[j * n..(j + 1) * n].iter().map(|x| x.to_c64().norm_sqr()).sum::<f64>().sqrt()).collect();
    let diag: Vec<f64> = (0..n).map(|j| l[j + j * n].to_c64().norm() / norms[j]).collect();
    let kappa = diag.iter().cloned().fold(0.0, f64::max) / diag.iter().cloned().fold(f64::INFINITY, f64::min);
    let mut worst = 0f64;
    for j in 0..n {
        for i in 0..=j {
            let d = (f[i + j * n].to_c64().norm() - l[i + j * n].to_c64().norm()).abs();
            worst = nan_max(worst, d / (n as f64 * kappa.max(1.0) * norms[j] * T::EPS));
        }
    }
    worst
}

/// LAPACK `?geqrf` on each matrix of `a` (packed n×n), tau into `tau` (n each), one matrix
/// after the other on this thread or over rayon's threads; a workspace per thread, allocated
/// once; returns the number of matrices with info ≠ 0.
fn lapack_run<T: Prec>(a: &mut [T], tau: &mut [T], n: usize, lwork: usize, parallel: bool) -> usize {
    let (e, ni) = (n * n, n as i32);
    // SAFETY: m is one n×n matrix (lda = n), t holds n entries, w lwork.
    let one = |w: &mut Vec<T>, m: &mut [T], t: &mut [T]| (unsafe { T::lapack_geqrf(ni, ni, m.as_mut_ptr(), ni, t.as_mut_ptr(), w) } != 0) as usize;
    if parallel {
        let min = (65536 / (4 * n * n * n / 3).max(1)).max(1);
        a.par_chunks_mut(e).zip(tau.par_chunks_mut(n)).with_min_len(min).map_init(|| vec![T::zero(); lwork], |w, (m, t)| one(w, m, t)).sum()
    } else {
        let mut w = vec![T::zero(); lwork];
        a.chunks_mut(e).zip(tau.chunks_mut(n)).map(|(m, t)| one(&mut w, m, t)).sum()
    }
}

/// The ratios of one sampled matrix: our factors `f` and the Q formed from them, against the
/// input `a` and LAPACK `?geqrf` on it: (QR, orthogonality, |R|); |R| is NaN when LAPACK
/// reports an error.
fn check_one<T: Prec>(a: &[T], f: &[T], q: &[T], n: usize) -> (f64, f64, f64) {
    let mut l = a.to_vec();
    let mut tau = vec![T::zero(); n];
    // SAFETY: one n×n matrix (lda = n) and n entries of tau.
    let info = unsafe { T::geqrf(n as i32, n as i32, l.as_mut_ptr(), n as i32, tau.as_mut_ptr()) };
    let r = if info == 0 { r_ratio(a, f, &l, n) } else { f64::NAN };
    (qr_ratio(a, f, q, n), orth_ratio(q, n), r)
}

#[allow(clippy::too_many_arguments)]
fn row_body<T: Prec>(gpu: &Gpu, cublas: &Cublas, h: &mut Handle, roof: &Roofline, cfg: &Config, n: usize, row: &mut Row) -> Res<()> {
    let (size, rsize) = (std::mem::size_of::<T>(), std::mem::size_of::<T::Real>());
    let e = n * n;
    let (batch, sets) = (row.batch, row.sets);
    let len = batch * e;
    let (a_bytes, cs_bytes) = (len * size, len * rsize);
    let seed = ((T::LETTER as u64) << 32) ^ (n as u64) ^ 0x6765_7172_6600;
    let mut a = vec![T::zero(); len];
    fill_random(&mut a, seed);

    let pristine = gpu.alloc(a_bytes)?;
    gpu.htod(pristine.ptr, &a)?;
    let mut bufs = Vec::with_capacity(sets);
    for _ in 0..sets {
        let s = Set { a: gpu.alloc(a_bytes)?, cs: gpu.alloc(cs_bytes)?, pa: gpu.alloc(batch * 8)?, ptau: gpu.alloc(batch * 8)?, tau: gpu.alloc(batch * n * size)? };
        gpu.copy_async(s.a.ptr, pristine.ptr, a_bytes)?;
        let ptrs: Vec<u64> = (0..batch as u64).map(|i| s.a.ptr + i * (e * size) as u64).collect();
        gpu.htod(s.pa.ptr, &ptrs)?;
        let ptrs: Vec<u64> = (0..batch as u64).map(|i| s.tau.ptr + i * (n * size) as u64).collect();
        gpu.htod(s.ptau.ptr, &ptrs)?;
        bufs.push(s);
    }
    gpu.sync()?;

    let (nl, ni, bi) = (n as i64, n as i32, batch as i32);
    let restore = |s: &Set| gpu.copy_async(s.a.ptr, pristine.ptr, a_bytes);
    let ours = |h: &mut Handle, s: &Set| -> Res<()> {
        // SAFETY: device buffers of `batch` packed n×n matrices A and CS on the handle's device.
        ng(unsafe { geqrf::<T>(h, nl, nl, Batch::Strided { ptr: s.a.ptr as *mut T, stride: e as i64 }, nl, Batch::Strided { ptr: s.cs.ptr as *mut T::Real, stride: e as i64 }, nl, batch as i64) })
    };
    let cb = |s: &Set| -> Res<()> {
        let mut info = 0;
        // SAFETY: the pointer arrays name `batch` packed n×n matrices and n-entry tau vectors.
        cublas_check(unsafe { T::cublas_geqrf(cublas.h, ni, ni, s.pa.ptr, ni, s.ptau.ptr, &mut info, bi) }, "cublasXgeqrfBatched")?;
        if info != 0 {
            return Err(format!("cublasXgeqrfBatched: info = {info} (argument {} rejected)", -info));
        }
        Ok(())
    };

    // Accuracy, on set 0: two calls from the same inputs, CS poisoned with NaN before each
    // (an unwritten cosine then shows in Q).
    let sample = sample_of(cfg, n, batch);
    row.checked = sample.len();
    let s0 = &bufs[0];
    let poison = |s: &Set| gpu.memset_async(s.cs.ptr, 0xff, cs_bytes);
    poison(s0)?;
    ours(h, s0)?;
    let f = fetch_sample::<T>(gpu, s0.a.ptr, n, batch, &sample)?;
    let cs = fetch_sample::<T::Real>(gpu, s0.cs.ptr, n, batch, &sample)?;
    restore(s0)?;
    poison(s0)?;
    ours(h, s0)?;
    let f2 = fetch_sample::<T>(gpu, s0.a.ptr, n, batch, &sample)?;
    let cs2 = fetch_sample::<T::Real>(gpu, s0.cs.ptr, n, batch, &sample)?;
    row.reproducible = Some(bits(&f2) == bits(&f) && bits(&cs2) == bits(&cs));
    drop((f2, cs2));
    // cuBLAS on set 0 once (its argument check), then the pristine inputs back.
    restore(s0)?;
    cb(s0)?;
    restore(s0)?;
    gpu.sync()?;

    // Q of the sampled factors by numgpu's orgqr on the device (host arrays, staged), then
    // the ratios against the inputs and LAPACK ?geqrf.
    let ns = sample.len();
    let mut q = f.clone();
    ng(orgqr_strided::<T>(h, nl, nl, nl, &mut q, nl, e as i64, &cs, nl, e as i64, ns as i64)).map_err(|m| format!("forming Q for the check: {m}"))?;
    numgpu::lapack::single_threaded_blas();
    let per: Vec<(f64, f64, f64)> = sample.par_iter().enumerate().map(|(k, &i)| check_one(&a[i * e..(i + 1) * e], &f[k * e..(k + 1) * e], &q[k * e..(k + 1) * e], n)).collect();
    row.qr_ratio = Some(per.iter().fold(0.0, |w, x| nan_max(w, x.0)));
    row.orth_ratio = Some(per.iter().fold(0.0, |w, x| nan_max(w, x.1)));
    row.r_ratio = Some(per.iter().fold(0.0, |w, x| nan_max(w, x.2)));
    if !below(row.qr_ratio, cfg.tol) || !below(row.orth_ratio, cfg.tol) {
        // Which half is wrong: the same ratios with Q formed by the CPU backend from our factors.
        let mut qc = f.clone();
        if ng(orgqr_strided::<T>(&mut Handle::cpu(), nl, nl, nl, &mut qc, nl, e as i64, &cs, nl, e as i64, ns as i64)).is_ok() {
            let pc: Vec<(f64, f64, f64)> = sample.par_iter().enumerate().map(|(k, &i)| check_one(&a[i * e..(i + 1) * e], &f[k * e..(k + 1) * e], &qc[k * e..(k + 1) * e], n)).collect();
            let (qr, orth) = pc.iter().fold((0.0, 0.0), |w, x| (nan_max(w.0, x.0), nan_max(w.1, x.1)));
            row.note = format!("with Q formed by the CPU backend's orgqr from the same factors: QR ratio {qr:.3e}, orthogonality {orth:.3e}");
        }
    }
    drop((f, cs, q));

    // Timing: every call factors a fresh set; the set the previous call used is restored
    // before this call's start event, and the last one after the loop, so all sets are fresh
    // between measurements.
    let last = (cfg.warmup + cfg.reps - 1) % sets;
    let before = |j: usize| if j > 0 { restore(&bufs[(j - 1) % sets]) } else { Ok(()) };
    let ms = gpu.time_setup(cfg.warmup, cfg.reps, before, |j| cb(&bufs[j % sets]))?;
    restore(&bufs[last])?;
    let t_cb = median(&ms);
    let ms = gpu.time_setup(cfg.warmup, cfg.reps, before, |j| ours(h, &bufs[j % sets]))?;
    restore(&bufs[last])?;
    let t_ours = median(&ms);
    gpu.sync()?;
    drop(bufs);
    drop(pristine);

    row.ours_ms = Some(t_ours);
    row.ours_gbs = Some(row.bytes / (t_ours * 1e6));
    row.roof_pct = Some(100.0 * row.bytes / (t_ours * 1e6) / roof.bandwidth_gbs);
    row.cublas_ms = Some(t_cb);
    row.cublas_gbs = Some(row.cublas_bytes / (t_cb * 1e6));
    row.ratio_cublas = Some(t_cb / t_ours);

    // LAPACK ?geqrf on the host, on the first matrices of the batch (inputs copied outside
    // the clock): a one-core probe gives the time per matrix, which sizes both runs.
    let lwork = T::geqrf_lwork(ni, ni);
    let (mut work, mut wtau) = (Vec::new(), Vec::new());
    let mut bad = 0;
    let mut cpu_run = |bc: usize, parallel: bool| -> f64 {
        if wtau.len() < bc * n {
            work.resize(bc * e, T::zero());
            wtau.resize(bc * n, T::zero());
        }
        work[..bc * e].copy_from_slice(&a[..bc * e]);
        let t = Instant::now();
        bad += lapack_run(&mut work[..bc * e], &mut wtau[..bc * n], n, lwork, parallel);
        t.elapsed().as_secs_f64()
    };
    let probe = ((2e6 / (n * n * n) as f64).ceil() as usize).clamp(1, batch);
    cpu_run(probe, false); // warm-up
    let per = cpu_run(probe, false).max(1e-9) / probe as f64;
    let threads = rayon::current_num_threads() as f64;
    let b1 = ((cfg.cpu_secs_one / per) as usize).clamp(1, batch);
    let ba = ((cfg.cpu_secs_all * threads / per) as usize).clamp(1, batch);
    cpu_run(ba.min(probe * threads as usize).max(1), true); // warm-up of the thread pool
    let mut t1 = Vec::new();
    let mut ta = Vec::new();
    for _ in 0..cfg.cpu_reps {
        t1.push(cpu_run(b1, false));
        ta.push(cpu_run(ba, true));
    }
    if bad > 0 {
        return Err(format!("LAPACK ?geqrf reported info ≠ 0 on {bad} matrices of the timed runs"));
    }
    // Milliseconds for the whole batch, from the time per matrix.
    let one_ms = median(&t1) / b1 as f64 * batch as f64 * 1e3;
    let all_ms = median(&ta) / ba as f64 * batch as f64 * 1e3;
    row.lapack_one_batch = b1;
    row.lapack_one_ms = Some(one_ms);
    row.ratio_lapack_one = Some(one_ms / t_ours);
    row.lapack_all_batch = ba;
    row.lapack_all_ms = Some(all_ms);
    row.lapack_all_gbs = Some(row.cublas_bytes / (all_ms * 1e6));
    row.ratio_lapack_all = Some(all_ms / t_ours);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use numgpu::geqrf_givens::geqrf_strided;
    use numgpu::Complex32;

    /// The check's own pieces, on the host with the CPU backend: our factors and Q pass the
    /// three ratios, a perturbed R or Q does not, and the parallel LAPACK run equals the
    /// serial one.
    fn check_helpers<T: Prec>() {
        for n in [1usize, 2, 5, 33] {
            let (batch, e, nl) = (7, n * n, n as i64);
            let mut a = vec![T::zero(); batch * e];
            fill_random(&mut a, 42 + n as u64);
            let mut h = Handle::cpu();
            let (mut f, mut cs) = (a.clone(), vec![<T::Real>::default(); batch * e]);
            geqrf_strided(&mut h, nl, nl, &mut f, nl, e as i64, &mut cs, nl, e as i64, batch as i64).unwrap();
            let mut q = f.clone();
            orgqr_strided(&mut h, nl, nl, nl, &mut q, nl, e as i64, &cs, nl, e as i64, batch as i64).unwrap();
            for i in 0..batch {
                let s = i * e..(i + 1) * e;
                let (qr, orth, r) = check_one(&a[s.clone()], &f[s.clone()], &q[s.clone()], n);
                assert!(qr < 30.0 && orth < 30.0 && r < 30.0, "{} n={n} matrix {i}: ratios {qr} {orth} {r}", T::LETTER);
                let mut bad = f[s.clone()].to_vec();
                bad[e - 1] = bad[e - 1] * T::from_c64(Complex64::new(1.5, 0.0));
                let (qr, _, r) = check_one(&a[s.clone()], &bad, &q[s.clone()], n);
                assert!(qr > 100.0 && r > 100.0, "{} n={n}: a perturbed R passes ({qr}, {r})", T::LETTER);
                let mut badq = q[s.clone()].to_vec();
                badq[0] = badq[0] + T::from_c64(Complex64::new(0.1, 0.0));
                let (qr, orth, _) = check_one(&a[s.clone()], &f[s], &badq, n);
                assert!(qr > 100.0 && orth > 100.0, "{} n={n}: a perturbed Q passes ({qr}, {orth})", T::LETTER);
            }
            let lwork = T::geqrf_lwork(n as i32, n as i32);
            let (mut l1, mut l2) = (a.clone(), a.clone());
            let (mut t1, mut t2) = (vec![T::zero(); batch * n], vec![T::zero(); batch * n]);
            assert_eq!(lapack_run(&mut l1, &mut t1, n, lwork, false), 0);
            assert_eq!(lapack_run(&mut l2, &mut t2, n, lwork, true), 0);
            assert_eq!(bits(&l1), bits(&l2));
            assert_eq!(bits(&t1), bits(&t2));
            // The bench's workspace call equals Blas::geqrf's.
            let (mut l3, mut t3) = (a[..e].to_vec(), vec![T::zero(); n]);
            // SAFETY: one n×n matrix and n entries of tau.
            assert_eq!(unsafe { T::geqrf(n as i32, n as i32, l3.as_mut_ptr(), n as i32, t3.as_mut_ptr()) }, 0);
            assert_eq!((bits(&l3), bits(&t3)), (bits(&l1[..e]), bits(&t1[..n])));
        }
    }

    #[test]
    fn geqrf_check_helpers() {
        numgpu::lapack::single_threaded_blas();
        check_helpers::<f32>();
        check_helpers::<f64>();
        check_helpers::<Complex32>();
        check_helpers::<Complex64>();
    }
}
