//! The getrf sweep: for one precision and one n, numgpu's batched LU with complete pivoting
//! (`getrf_fullpivot`, strided form, mode GETC2, device memory) against cuBLAS
//! `getrfBatched` (partial pivoting: full pivoting has no GPU peer) on the same device
//! buffers and stream, and against LAPACK `?getc2` on the host, over all cores (rayon) and on
//! one core.
//!
//! Square n, packed (lda = n, stride = n²), nonzero random data. Each timed call factors
//! fresh inputs: a copy of the pristine batch, enqueued before the call's start event (so
//! untimed), restores the input set the previous call used. GB/s count each matrix read and
//! written once, 2·n²·sizeof(T) per matrix (the pivots and info are not counted).
//!
//! Checks, on a sample of the batch (the whole batch for small n): ipiv, jpiv and info equal
//! to LAPACK `?getc2`'s on the same matrix, and ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) below the
//! tolerance; two calls on the same inputs give bitwise the same pivots, info and factors.

use crate::gpu::{cublas_check, median, ng, Cublas, DevBuf, Gpu, Res};
use crate::prec::{fill_random, Prec};
use crate::roofline::Roofline;
use numgpu::core::batch::Batch;
use numgpu::getrf_fullpivot::{getrf, lu_ratio, pivot_gap, Mode};
use numgpu::Handle;
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// What every row shares (geqrf's rows too).
pub struct Config {
    /// Matrices per call, unless device memory holds fewer.
    pub batch: usize,
    pub reps: usize,
    pub warmup: usize,
    /// About the seconds of one LAPACK run over all cores and on one core (their batches are
    /// sized from a probe; all cores take the whole batch when it fits in that time).
    pub cpu_secs_all: f64,
    pub cpu_secs_one: f64,
    pub cpu_reps: usize,
    /// Device memory the sweep may hold at once, bytes.
    pub mem_budget: f64,
    /// LAPACK's tolerance on the residual ratio.
    pub tol: f64,
    /// About the n³ work of the check: the sample holds max(64, check_work / n³) matrices
    /// (at most the batch), spread evenly over it.
    pub check_work: f64,
}

/// One row of the table: one precision and one n.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub precision: char,
    pub n: usize,
    pub batch: usize,
    /// Input sets the timed calls rotate through (more than 1 keeps a restored set out of L2
    /// until it is factored again).
    pub sets: usize,
    /// Bytes of one call: 2·n²·elem per matrix (each matrix read and written once).
    pub bytes: f64,
    pub ours_ms: Option<f64>,
    pub ours_gbs: Option<f64>,
    /// GB/s / the copy bandwidth measured in the same run, %.
    pub roof_pct: Option<f64>,
    pub cublas_ms: Option<f64>,
    pub cublas_gbs: Option<f64>,
    /// t_cuBLAS / t_numgpu (> 1: numgpu is faster; cuBLAS pivots partially).
    pub ratio_cublas: Option<f64>,
    /// Matrices LAPACK `?getc2` factored in the all-cores run, and that run scaled to the
    /// whole batch (per-matrix time × batch).
    pub lapack_all_batch: usize,
    pub lapack_all_ms: Option<f64>,
    pub lapack_all_gbs: Option<f64>,
    pub ratio_lapack_all: Option<f64>,
    /// The same on one core (a subset of the batch).
    pub lapack_one_batch: usize,
    pub lapack_one_ms: Option<f64>,
    pub ratio_lapack_one: Option<f64>,
    /// Matrices of the sample checked against LAPACK.
    pub checked: usize,
    /// Sampled matrices whose ipiv/jpiv, or info, differ from LAPACK `?getc2`'s.
    pub pivot_mismatches: Option<usize>,
    /// Of those, the matrices where our pivot at the first differing step is within 4nε
    /// (relative) of LAPACK's pivot in LAPACK's trailing block: a near-tie that rounding
    /// differences (FMA, the complex modulus) can break either way. These are reported, and
    /// do not fail the row; the other mismatches do.
    pub pivot_near_ties: Option<usize>,
    /// The first mismatch: matrix, seed, step, gap.
    pub pivot_first_mismatch: String,
    pub info_mismatches: Option<usize>,
    /// Matrices of the whole batch with info ≠ 0 (SMIN replaced a pivot).
    pub info_nonzero: Option<usize>,
    /// max ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) over the sample (matrices where LAPACK's info = 0).
    pub lu_ratio: Option<f64>,
    /// Two calls on the same inputs gave bitwise the same pivots, info and sampled factors.
    pub reproducible: Option<bool>,
    pub ok: bool,
    pub note: String,
}

/// The device buffers of one input set: A, our pivots and info, cuBLAS's pointer array,
/// pivots and info.
struct Set {
    a: DevBuf,
    ipiv: DevBuf,
    jpiv: DevBuf,
    info: DevBuf,
    pa: DevBuf,
    cpiv: DevBuf,
    cinfo: DevBuf,
}

/// Device bytes per matrix besides A, for one set: ipiv, jpiv, info (ours), pointer,
/// pivots, info (cuBLAS).
fn index_bytes(n: usize) -> usize {
    4 * (2 * n + 1) + 8 + 4 * (n + 1)
}

/// `x < tol`, false for a missing value or NaN.
pub(crate) fn below(x: Option<f64>, tol: f64) -> bool {
    x.is_some_and(|x| x < tol)
}

pub(crate) fn bits<T>(v: &[T]) -> &[u8] {
    // SAFETY: plain-old-data element types; reading their bytes is sound.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

pub(crate) fn nan_max(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.max(y)
    }
}

/// Input sets for timed calls that each use one set of `set_bytes` and restore the one the
/// previous call used: enough that the traffic between a set's restore and its next use is
/// at least 3× L2 (`l2` bytes), between 2 and 64.
pub(crate) fn rotation_sets(set_bytes: f64, l2: f64) -> usize {
    let sets = if set_bytes < 3.0 * l2 { ((3.0 * l2 / set_bytes).ceil() as usize).saturating_add(1) } else { 2 };
    sets.clamp(2, 64)
}

/// The batch (capped by device memory) and the number of input sets for order n.
fn sizing<T: Prec>(gpu: &Gpu, cfg: &Config, n: usize) -> (usize, usize) {
    let a_per = (n * n * std::mem::size_of::<T>()) as f64;
    let l2 = gpu.l2_bytes as f64;
    // The pristine copy plus `sets` working sets.
    let need = |batch: usize, sets: usize| (sets + 1) as f64 * batch as f64 * a_per + (sets * batch * index_bytes(n)) as f64;
    let mut batch = cfg.batch.min(i32::MAX as usize).max(1);
    if need(batch, 2) > cfg.mem_budget {
        batch = (cfg.mem_budget / need(1, 2)) as usize;
    }
    let mut sets = rotation_sets(batch as f64 * a_per, l2);
    while sets > 2 && need(batch, sets) > cfg.mem_budget {
        sets -= 1;
    }
    (batch, sets)
}

/// One row; a failure anywhere in it is recorded in the row (`ok = false`, `note`), never
/// ends the sweep.
pub fn run_row<T: Prec>(gpu: &Gpu, cublas: &Cublas, h: &mut Handle, roof: &Roofline, cfg: &Config, n: usize) -> Row {
    let size = std::mem::size_of::<T>();
    let (batch, sets) = sizing::<T>(gpu, cfg, n);
    let mut row = Row { precision: T::LETTER, n, batch, sets, bytes: (batch * 2 * n * n * size) as f64, ..Default::default() };
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
            let hard = row.pivot_mismatches.zip(row.pivot_near_ties).map(|(m, t)| m - t);
            if hard != Some(0) {
                why.push(format!(
                    "ipiv/jpiv differ from LAPACK ?getc2 on {} of {} sampled matrices beyond near-ties ({})",
                    hard.map_or("?".into(), |m| m.to_string()),
                    row.checked,
                    row.pivot_first_mismatch
                ));
            }
            if row.info_mismatches != Some(0) {
                why.push(format!("info differs from LAPACK ?getc2 on {} of {} sampled matrices", row.info_mismatches.map_or("?".into(), |m| m.to_string()), row.checked));
            }
            if !below(row.lu_ratio, cfg.tol) {
                why.push(format!("‖PLUQ − A‖ ratio {:.3e} >= {}", row.lu_ratio.unwrap_or(f64::NAN), cfg.tol));
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
    if row.ok {
        // What does not fail the row, but whoever reads it should know.
        let mut fyi = Vec::new();
        if let Some(t) = row.pivot_near_ties.filter(|t| *t > 0) {
            fyi.push(format!("{t} of {} sampled matrices differ from LAPACK's pivots at a near-tie (within 4nε, relative: rounding, not the search; {})", row.checked, row.pivot_first_mismatch));
        }
        if batch < cfg.batch {
            fyi.push(format!("batch {batch} (of {}): device memory", cfg.batch));
        }
        row.note = fyi.join("; ");
    }
    row
}

/// Evenly spread indices of the sample the check covers.
pub(crate) fn sample_of(cfg: &Config, n: usize, batch: usize) -> Vec<usize> {
    let s = ((cfg.check_work / (n * n * n) as f64) as usize).max(64).min(batch);
    if s == batch {
        return (0..batch).collect();
    }
    (0..s).map(|j| j * (batch - 1) / (s - 1).max(1)).collect()
}

/// The sampled matrices of device buffer `a` (packed n×n, `batch` of them), in sample order.
pub(crate) fn fetch_sample<T: Copy + Default>(gpu: &Gpu, a: u64, n: usize, batch: usize, sample: &[usize]) -> Res<Vec<T>> {
    let (e, size) = (n * n, std::mem::size_of::<T>());
    let mut out = vec![T::default(); sample.len() * e];
    // A dense sample comes in one copy (when that copy stays below 1 GB), else matrix by matrix.
    if sample.len() * 16 >= batch && batch * e * size <= 1 << 30 {
        let mut all = vec![T::default(); batch * e];
        gpu.dtoh(&mut all, a)?;
        for (k, &i) in sample.iter().enumerate() {
            out[k * e..(k + 1) * e].copy_from_slice(&all[i * e..(i + 1) * e]);
        }
    } else {
        for (k, &i) in sample.iter().enumerate() {
            gpu.dtoh(&mut out[k * e..(k + 1) * e], a + (i * e * size) as u64)?;
        }
    }
    Ok(out)
}

/// One sampled matrix against LAPACK: info differs, the LU ratio of our factors (0 where
/// LAPACK's info ≠ 0), and where the pivots differ, `pivot_gap`'s step and gap.
struct Checked {
    info_differs: bool,
    ratio: f64,
    gap: Option<(usize, f64)>,
}

/// LAPACK `?getc2` on each matrix of `a` (packed n×n), pivots into `ip`/`jp` (n each) and
/// info into `info`, one matrix after the other on this thread or over rayon's threads.
fn lapack_run<T: Prec>(a: &mut [T], ip: &mut [i32], jp: &mut [i32], info: &mut [i32], n: usize, parallel: bool) {
    let e = n * n;
    let one = |m: &mut [T], ip: &mut [i32], jp: &mut [i32], info: &mut i32| {
        // SAFETY: m is one n×n matrix (lda = n), ip and jp hold n entries each.
        *info = unsafe { T::getc2(n as i32, m.as_mut_ptr(), n as i32, ip.as_mut_ptr(), jp.as_mut_ptr()) };
    };
    if parallel {
        let min = (65536 / (n * n * n / 3).max(1)).max(1);
        a.par_chunks_mut(e).zip(ip.par_chunks_mut(n)).zip(jp.par_chunks_mut(n)).zip(info.par_iter_mut()).with_min_len(min).for_each(|(((m, ip), jp), info)| one(m, ip, jp, info));
    } else {
        a.chunks_mut(e).zip(ip.chunks_mut(n)).zip(jp.chunks_mut(n)).zip(info.iter_mut()).for_each(|(((m, ip), jp), info)| one(m, ip, jp, info));
    }
}

#[allow(clippy::too_many_arguments)]
fn row_body<T: Prec>(gpu: &Gpu, cublas: &Cublas, h: &mut Handle, roof: &Roofline, cfg: &Config, n: usize, row: &mut Row) -> Res<()> {
    let size = std::mem::size_of::<T>();
    let e = n * n;
    let (batch, sets) = (row.batch, row.sets);
    let len = batch * e;
    let a_bytes = len * size;
    let seed = ((T::LETTER as u64) << 32) ^ (n as u64) ^ 0x6765_7472_6600;
    let mut a = vec![T::zero(); len];
    fill_random(&mut a, seed);

    let pristine = gpu.alloc(a_bytes)?;
    gpu.htod(pristine.ptr, &a)?;
    let mut bufs = Vec::with_capacity(sets);
    for _ in 0..sets {
        let s = Set {
            a: gpu.alloc(a_bytes)?,
            ipiv: gpu.alloc(batch * n * 4)?,
            jpiv: gpu.alloc(batch * n * 4)?,
            info: gpu.alloc(batch * 4)?,
            pa: gpu.alloc(batch * 8)?,
            cpiv: gpu.alloc(batch * n * 4)?,
            cinfo: gpu.alloc(batch * 4)?,
        };
        gpu.copy_async(s.a.ptr, pristine.ptr, a_bytes)?;
        let ptrs: Vec<u64> = (0..batch as u64).map(|i| s.a.ptr + i * (e * size) as u64).collect();
        gpu.htod(s.pa.ptr, &ptrs)?;
        bufs.push(s);
    }
    gpu.sync()?;

    let (nl, ni, bi) = (n as i64, n as i32, batch as i32);
    let restore = |s: &Set| gpu.copy_async(s.a.ptr, pristine.ptr, a_bytes);
    let ours = |h: &mut Handle, s: &Set| -> Res<()> {
        // SAFETY: device buffers of `batch` packed n×n matrices, n pivots of each kind and one
        // info per matrix, on the handle's device.
        ng(unsafe { getrf::<T>(h, nl, Batch::Strided { ptr: s.a.ptr as *mut T, stride: e as i64 }, nl, s.ipiv.ptr as *mut i32, s.jpiv.ptr as *mut i32, s.info.ptr as *mut i32, batch as i64, Mode::Getc2) })
    };
    let cb = |s: &Set| -> Res<()> {
        // SAFETY: the pointer array names `batch` packed n×n matrices; pivots and info sized.
        cublas_check(unsafe { T::cublas_getrf(cublas.h, ni, s.pa.ptr, ni, s.cpiv.ptr, s.cinfo.ptr, bi) }, "cublasXgetrfBatched")
    };

    // Accuracy, on set 0: two calls from the same inputs, then LAPACK on the sample.
    let sample = sample_of(cfg, n, batch);
    row.checked = sample.len();
    let s0 = &bufs[0];
    let fetch_piv = |s: &Set| -> Res<(Vec<i32>, Vec<i32>, Vec<i32>)> {
        let (mut ip, mut jp, mut info) = (vec![0i32; batch * n], vec![0i32; batch * n], vec![0i32; batch]);
        gpu.dtoh(&mut ip, s.ipiv.ptr)?;
        gpu.dtoh(&mut jp, s.jpiv.ptr)?;
        gpu.dtoh(&mut info, s.info.ptr)?;
        Ok((ip, jp, info))
    };
    // Outputs poisoned before each call, so that an entry left unwritten shows.
    let poison = |s: &Set| -> Res<()> {
        let bad = vec![-7i32; batch * n];
        gpu.htod(s.ipiv.ptr, &bad)?;
        gpu.htod(s.jpiv.ptr, &bad)?;
        gpu.htod(s.info.ptr, &bad[..batch])
    };
    poison(s0)?;
    ours(h, s0)?;
    let (ip, jp, info) = fetch_piv(s0)?;
    let f = fetch_sample::<T>(gpu, s0.a.ptr, n, batch, &sample)?;
    restore(s0)?;
    poison(s0)?;
    ours(h, s0)?;
    let again = fetch_piv(s0)?;
    let f2 = fetch_sample::<T>(gpu, s0.a.ptr, n, batch, &sample)?;
    row.reproducible = Some(again.0 == ip && again.1 == jp && again.2 == info && bits(&f2) == bits(&f));
    drop((again, f2));
    row.info_nonzero = Some(info.iter().filter(|&&x| x != 0).count());
    // cuBLAS on set 0 once: a random matrix has no exactly zero pivot.
    restore(s0)?;
    cb(s0)?;
    let mut cinfo = vec![0i32; batch];
    gpu.dtoh(&mut cinfo, s0.cinfo.ptr)?;
    let bad = cinfo.iter().filter(|&&x| x != 0).count();
    if bad > 0 {
        row.note = format!("bench check: cublasXgetrfBatched reports info ≠ 0 on {bad} of {batch} random matrices");
    }
    restore(s0)?;

    // LAPACK ?getc2 on the sample, compared matrix by matrix; where the pivots differ, how
    // close our pick came to LAPACK's in LAPACK's own trailing block.
    numgpu::lapack::single_threaded_blas();
    let near = 4.0 * n as f64 * T::EPS;
    let per: Vec<Checked> = sample
        .par_iter()
        .enumerate()
        .map(|(k, &i)| {
            let ai = &a[i * e..(i + 1) * e];
            let mut m = ai.to_vec();
            let (mut lip, mut ljp) = (vec![0i32; n], vec![0i32; n]);
            // SAFETY: one n×n matrix (lda = n) and n pivots of each kind.
            let linfo = unsafe { T::getc2(ni, m.as_mut_ptr(), ni, lip.as_mut_ptr(), ljp.as_mut_ptr()) };
            let (oip, ojp) = (&ip[i * n..(i + 1) * n], &jp[i * n..(i + 1) * n]);
            let gap = pivot_gap(&m, &lip, &ljp, oip, ojp, n);
            let r = if linfo == 0 { lu_ratio(ai, &f[k * e..(k + 1) * e], oip, ojp, n) } else { 0.0 };
            Checked { info_differs: info[i] != linfo, ratio: r, gap }
        })
        .collect();
    // NaN gaps are not near.
    let is_near = |g: f64| g <= near;
    row.pivot_mismatches = Some(per.iter().filter(|x| x.gap.is_some()).count());
    row.pivot_near_ties = Some(per.iter().filter(|x| x.gap.is_some_and(|(_, g)| is_near(g))).count());
    row.info_mismatches = Some(per.iter().filter(|x| x.info_differs).count());
    row.lu_ratio = Some(per.iter().fold(0.0, |w, x| nan_max(w, x.ratio)));
    // Name the first mismatch (a near-tie only when all are), for whoever reads the report.
    let first = per.iter().enumerate().find(|(_, x)| x.gap.is_some_and(|(_, g)| !is_near(g))).or_else(|| per.iter().enumerate().find(|(_, x)| x.gap.is_some()));
    if let Some((k, Checked { gap: Some((step, gap)), .. })) = first {
        row.pivot_first_mismatch = format!("first: matrix {} (seed {seed:#x}), step {}, |pivot| gap {gap:.2e} relative, 4nε = {near:.1e}", sample[k], step + 1);
    }
    drop(f);

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

    let gbs = |t: f64| row.bytes / (t * 1e6);
    row.ours_ms = Some(t_ours);
    row.ours_gbs = Some(gbs(t_ours));
    row.roof_pct = Some(100.0 * gbs(t_ours) / roof.bandwidth_gbs);
    row.cublas_ms = Some(t_cb);
    row.cublas_gbs = Some(gbs(t_cb));
    row.ratio_cublas = Some(t_cb / t_ours);

    // LAPACK ?getc2 on the host, on the first matrices of the batch (inputs copied outside
    // the clock): a one-core probe gives the time per matrix, which sizes both runs.
    let (mut work, mut wip, mut wjp, mut winfo) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut cpu_run = |bc: usize, parallel: bool| -> f64 {
        if winfo.len() < bc {
            work.resize(bc * e, T::zero());
            wip.resize(bc * n, 0i32);
            wjp.resize(bc * n, 0i32);
            winfo.resize(bc, 0i32);
        }
        work[..bc * e].copy_from_slice(&a[..bc * e]);
        let t = Instant::now();
        lapack_run(&mut work[..bc * e], &mut wip[..bc * n], &mut wjp[..bc * n], &mut winfo[..bc], n, parallel);
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
    // Milliseconds for the whole batch, from the time per matrix.
    let one_ms = median(&t1) / b1 as f64 * batch as f64 * 1e3;
    let all_ms = median(&ta) / ba as f64 * batch as f64 * 1e3;
    row.lapack_one_batch = b1;
    row.lapack_one_ms = Some(one_ms);
    row.ratio_lapack_one = Some(one_ms / t_ours);
    row.lapack_all_batch = ba;
    row.lapack_all_ms = Some(all_ms);
    row.lapack_all_gbs = Some(gbs(all_ms));
    row.ratio_lapack_all = Some(all_ms / t_ours);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use numgpu::{Complex32, Complex64};

    /// The check's own pieces, on the host: LAPACK's factors pass `lu_ratio`, a perturbed
    /// factor or a wrong pivot does not, and the parallel LAPACK run equals the serial one.
    fn check_helpers<T: Prec>() {
        for n in [1usize, 2, 5, 33] {
            let batch = 7;
            let mut a = vec![T::zero(); batch * n * n];
            fill_random(&mut a, 42 + n as u64);
            let (mut f1, mut f2) = (a.clone(), a.clone());
            let (mut ip1, mut jp1, mut in1) = (vec![0; batch * n], vec![0; batch * n], vec![0; batch]);
            let (mut ip2, mut jp2, mut in2) = (vec![0; batch * n], vec![0; batch * n], vec![0; batch]);
            lapack_run(&mut f1, &mut ip1, &mut jp1, &mut in1, n, false);
            lapack_run(&mut f2, &mut ip2, &mut jp2, &mut in2, n, true);
            assert_eq!((&ip1, &jp1, &in1), (&ip2, &jp2, &in2), "{} n={n}", T::LETTER);
            assert_eq!(bits(&f1), bits(&f2));
            let e = n * n;
            for i in 0..batch {
                let (ai, fi, ip, jp) = (&a[i * e..(i + 1) * e], &f1[i * e..(i + 1) * e], &ip1[i * n..(i + 1) * n], &jp1[i * n..(i + 1) * n]);
                let r = lu_ratio(ai, fi, ip, jp, n);
                assert!(r < 30.0, "{} n={n} matrix {i}: ratio {r}", T::LETTER);
                let mut bad = fi.to_vec();
                bad[e - 1] = bad[e - 1] + T::from_c64(Complex64::new(0.1, 0.0));
                assert!(lu_ratio(ai, &bad, ip, jp, n) > 100.0, "{} n={n}: a perturbed factor passes", T::LETTER);
                if n > 1 && ip[0] != 2 {
                    let mut wrong = ip.to_vec();
                    wrong[0] = 2;
                    assert!(lu_ratio(ai, fi, &wrong, jp, n) > 100.0, "{} n={n}: a wrong pivot passes", T::LETTER);
                }
                assert_eq!(lu_ratio(ai, fi, &vec![0; n], jp, n), f64::INFINITY);
            }
        }
    }

    /// `pivot_gap` on LAPACK's factors: None for LAPACK's own pivots; a different first pick
    /// (r0, c0) has gap (max|A| − |A(r0, c0)|) / max|A|, read from the rebuilt trailing block.
    fn check_gap<T: Prec>() {
        for n in [2usize, 6, 40] {
            let mut a = vec![T::zero(); n * n];
            fill_random(&mut a, 7 + n as u64);
            let mut f = a.clone();
            let (mut ip, mut jp, mut info) = (vec![0; n], vec![0; n], vec![0; 1]);
            lapack_run(&mut f, &mut ip, &mut jp, &mut info, n, false);
            assert_eq!(pivot_gap(&f, &ip, &jp, &ip, &jp, n), None);
            let amax = a.iter().map(|x| x.to_c64().norm()).fold(0.0, f64::max);
            for (r0, c0) in [(0, 0), (n - 1, 0), (n / 2, n - 1)] {
                let (mut oip, mut ojp) = (ip.clone(), jp.clone());
                (oip[0], ojp[0]) = (r0 as i32 + 1, c0 as i32 + 1);
                if (oip[0], ojp[0]) == (ip[0], jp[0]) {
                    continue;
                }
                let (k, gap) = pivot_gap(&f, &ip, &jp, &oip, &ojp, n).unwrap();
                let want = (amax - a[r0 + c0 * n].to_c64().norm()) / amax;
                assert_eq!(k, 0);
                assert!((gap - want).abs() < 64.0 * n as f64 * T::EPS, "{} n={n} ({r0}, {c0}): gap {gap} want {want}", T::LETTER);
            }
            // Step 1: LAPACK's step 0 done by hand in double, then a different pick there.
            let mut m: Vec<Complex64> = a.iter().map(|x| x.to_c64()).collect();
            let (p, q) = (ip[0] as usize - 1, jp[0] as usize - 1);
            for j in 0..n {
                m.swap(j * n, p + j * n);
            }
            for i in 0..n {
                m.swap(i, i + q * n);
            }
            for j in 1..n {
                for i in 1..n {
                    let l = m[i] / m[0];
                    let u = m[j * n];
                    m[i + j * n] -= l * u;
                }
            }
            let smax = (1..n).flat_map(|j| (1..n).map(move |i| (i, j))).map(|(i, j)| m[i + j * n].norm()).fold(0.0, f64::max);
            for (r0, c0) in [(1, 1), (n - 1, 1), (n / 2, n - 1)] {
                let (mut oip, mut ojp) = (ip.clone(), jp.clone());
                (oip[1], ojp[1]) = (r0 as i32 + 1, c0 as i32 + 1);
                if n < 3 || (oip[1], ojp[1]) == (ip[1], jp[1]) {
                    continue;
                }
                let (k, gap) = pivot_gap(&f, &ip, &jp, &oip, &ojp, n).unwrap();
                let want = (smax - m[r0 + c0 * n].norm()) / smax;
                assert_eq!(k, 1);
                assert!((gap - want).abs() < 64.0 * n as f64 * T::EPS, "{} n={n} step 1 ({r0}, {c0}): gap {gap} want {want}", T::LETTER);
            }
            let mut bad = ip.clone();
            bad[0] = 0;
            assert_eq!(pivot_gap(&f, &ip, &jp, &bad, &jp, n), Some((0, f64::INFINITY)));
        }
    }

    #[test]
    fn pivot_gaps() {
        numgpu::lapack::single_threaded_blas();
        check_gap::<f32>();
        check_gap::<f64>();
        check_gap::<Complex32>();
        check_gap::<Complex64>();
    }

    #[test]
    fn getrf_check_helpers() {
        numgpu::lapack::single_threaded_blas();
        check_helpers::<f32>();
        check_helpers::<f64>();
        check_helpers::<Complex32>();
        check_helpers::<Complex64>();
    }

    #[test]
    fn samples_spread_over_the_batch() {
        let cfg = Config { batch: 0, reps: 0, warmup: 0, cpu_secs_all: 0.0, cpu_secs_one: 0.0, cpu_reps: 0, mem_budget: 0.0, tol: 30.0, check_work: 5e7 };
        assert_eq!(sample_of(&cfg, 4, 1000), (0..1000).collect::<Vec<_>>());
        let s = sample_of(&cfg, 128, 100_000);
        assert_eq!((s.len(), s[0], *s.last().unwrap()), (64, 0, 99_999));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(sample_of(&cfg, 128, 10), (0..10).collect::<Vec<_>>());
    }
}
