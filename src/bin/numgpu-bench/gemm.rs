//! The gemm sweep: for one precision and one n, numgpu's batched GEMM (strided and
//! pointer-array forms) against cuBLAS `gemmStridedBatched` / `gemmBatched` on the same
//! device buffers and stream, and OpenBLAS (numgpu's CPU backend) on the host; accuracy of
//! numgpu's C against cuBLAS's in the same run.
//!
//! C_i = alpha·A_i·B_i + beta·C_i with alpha = 1, beta = 0.5 (C is read), square n, packed
//! (ld = n, stride = n²), nonzero random data.

use crate::gpu::{median, ng, Cublas, DevBuf, Gpu, Res};
use crate::prec::{fill_random, Prec};
use crate::roofline::Roofline;
use numgpu::gemm_batched::{gemm_batched, gemm_batched_strided, Batch};
use numgpu::{Complex64, Handle, Op};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// What every row shares.
pub struct Config {
    /// A + B + C of one input set, bytes.
    pub target_bytes: f64,
    pub reps: usize,
    pub warmup: usize,
    /// Most flops, and about the seconds, of one OpenBLAS run (its batch is sized from them).
    pub cpu_flops: f64,
    pub cpu_secs: f64,
    pub cpu_reps: usize,
    /// Device memory the sweep may hold at once, bytes.
    pub mem_budget: f64,
    /// MAGMA's tolerance on the scaled error.
    pub tol: f64,
}

/// One row of the table: one precision and one n.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub precision: char,
    pub n: usize,
    pub batch: usize,
    /// Input sets the timed calls rotate through (more than 1 when one fits in L2).
    pub sets: usize,
    /// Flops and bytes of one call: 2n³ or 8n³ per matrix; (A + B + 2·C)·elem per matrix.
    pub flops: f64,
    pub bytes: f64,
    pub ours_ms: Option<f64>,
    pub ours_gflops: Option<f64>,
    pub ours_gbs: Option<f64>,
    /// min(bandwidth · flops/bytes, FMA peak) and which of the two it is.
    pub roof_gflops: f64,
    pub roof_bound: &'static str,
    pub roof_pct: Option<f64>,
    pub cublas_ms: Option<f64>,
    pub cublas_gflops: Option<f64>,
    pub cublas_gbs: Option<f64>,
    /// t_cuBLAS / t_numgpu (> 1: numgpu is faster), strided forms.
    pub ratio_cublas: Option<f64>,
    pub ours_array_ms: Option<f64>,
    pub cublas_array_ms: Option<f64>,
    /// t_cuBLAS gemmBatched / t_numgpu pointer-array form.
    pub ratio_cublas_array: Option<f64>,
    pub openblas_batch: usize,
    pub openblas_ms: Option<f64>,
    pub openblas_gflops: Option<f64>,
    /// ‖C_numgpu − C_cuBLAS‖_F / ‖C_cuBLAS‖_F over the batch (strided form).
    pub rel_error: Option<f64>,
    /// max_i ‖ΔC_i‖_F / ((√(k+2)·|α|·‖A_i‖_F·‖B_i‖_F + 2|β|·‖C_i‖_F)·ε): strided and pointer-array forms.
    pub scaled_error: Option<f64>,
    pub scaled_error_array: Option<f64>,
    /// Two strided calls on the same inputs gave bitwise the same C.
    pub reproducible: Option<bool>,
    pub ok: bool,
    pub note: String,
}

/// The device buffers of one input set.
struct Set {
    a: DevBuf,
    b: DevBuf,
    c: DevBuf,
    pa: DevBuf,
    pb: DevBuf,
    pc: DevBuf,
}

/// Relative Frobenius error over the batch and MAGMA's scaled error (max over the matrices)
/// of `c` against the reference `r`, for C = alpha·A·B + beta·C0.
#[allow(clippy::too_many_arguments)]
fn compare<T: Prec>(c: &[T], r: &[T], a: &[T], b: &[T], c0: &[T], n: usize, alpha: T, beta: T) -> (f64, f64) {
    let e = n * n;
    let (al, be) = (alpha.to_c64().norm(), beta.to_c64().norm());
    let nsq = |x: &[T]| x.iter().map(|v| v.to_c64().norm_sqr()).sum::<f64>();
    let nanmax = |x: f64, y: f64| if x.is_nan() || y.is_nan() { f64::NAN } else { x.max(y) };
    let (diff, refn, worst) = (0..c.len() / e)
        .into_par_iter()
        .map(|i| {
            let s = i * e..(i + 1) * e;
            let d: f64 = c[s.clone()].iter().zip(&r[s.clone()]).map(|(x, y)| (x.to_c64() - y.to_c64()).norm_sqr()).sum();
            let denom = (((n + 2) as f64).sqrt() * al * nsq(&a[s.clone()]).sqrt() * nsq(&b[s.clone()]).sqrt() + 2.0 * be * nsq(&c0[s.clone()]).sqrt()) * T::EPS;
            let scaled = if denom > 0.0 { d.sqrt() / denom } else if d == 0.0 { 0.0 } else { f64::INFINITY };
            (d, nsq(&r[s]), scaled)
        })
        .reduce(|| (0.0, 0.0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1, nanmax(x.2, y.2)));
    let rel = if refn > 0.0 { (diff / refn).sqrt() } else { diff.sqrt() };
    (rel, worst)
}

/// `x < tol`, false for a missing value or NaN.
fn below(x: Option<f64>, tol: f64) -> bool {
    x.is_some_and(|x| x < tol)
}

fn bits<T>(v: &[T]) -> &[u8] {
    // SAFETY: plain-old-data element types; reading their bytes is sound.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

/// One row; a failure anywhere in it is recorded in the row (`ok = false`, `note`), never
/// ends the sweep.
pub fn run_row<T: Prec>(gpu: &Gpu, cublas: &Cublas, h: &mut Handle, roof: &Roofline, cfg: &Config, n: usize) -> Row {
    let size = std::mem::size_of::<T>();
    let e = n * n;
    let per_matrix = 3 * e * size;
    let batch = ((cfg.target_bytes / per_matrix as f64) as usize).clamp(1, i32::MAX as usize);
    let flops = batch as f64 * T::FLOPS_PER_FMA * (n * n * n) as f64;
    let bytes = (batch * 4 * e * size) as f64;
    let (bw_roof, peak) = (roof.bandwidth_gbs * flops / bytes, roof.peak(T::LETTER));
    let mut row = Row {
        precision: T::LETTER,
        n,
        batch,
        flops,
        bytes,
        roof_gflops: bw_roof.min(peak),
        roof_bound: if bw_roof < peak { "bandwidth" } else { "FMA" },
        ..Default::default()
    };
    let r = row_body::<T>(gpu, cublas, h, cfg, n, &mut row);
    // Whatever happened, leave the stream idle before the buffers are freed.
    let s = gpu.sync();
    match r.and(s) {
        Ok(()) => {
            let mut why = Vec::new();
            if !below(row.scaled_error, cfg.tol) {
                why.push(format!("scaled error {:.3e} >= {}", row.scaled_error.unwrap_or(f64::NAN), cfg.tol));
            }
            if !below(row.scaled_error_array, cfg.tol) {
                why.push(format!("pointer-array form: scaled error {:.3e} >= {}", row.scaled_error_array.unwrap_or(f64::NAN), cfg.tol));
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
    row
}

fn row_body<T: Prec>(gpu: &Gpu, cublas: &Cublas, h: &mut Handle, cfg: &Config, n: usize, row: &mut Row) -> Res<()> {
    let size = std::mem::size_of::<T>();
    let e = n * n;
    let batch = row.batch;
    let len = batch * e;
    let set_bytes = (3 * len * size) as f64;
    // Rotate through enough sets that the next call's inputs are out of L2.
    let l2 = gpu.l2_bytes as f64;
    let sets = if set_bytes < 3.0 * l2 { ((3.0 * l2 / set_bytes).ceil() as usize).clamp(2, 64) } else { 1 };
    row.sets = sets;
    let need = sets as f64 * (set_bytes + (3 * batch * 8) as f64);
    if need > cfg.mem_budget {
        return Err(format!("skipped: needs {:.1} GB of device memory, the budget is {:.1} GB (lower --target-bytes)", need / 1e9, cfg.mem_budget / 1e9));
    }
    let alpha = T::one();
    let beta = T::from_c64(Complex64::new(0.5, 0.0));
    let seed = ((T::LETTER as u64) << 32) ^ n as u64;
    let mut a = vec![T::zero(); len];
    let mut b = vec![T::zero(); len];
    let mut c0 = vec![T::zero(); len];
    fill_random(&mut a, seed ^ 0xa);
    fill_random(&mut b, seed ^ 0xb);
    fill_random(&mut c0, seed ^ 0xc);

    let mut bufs = Vec::with_capacity(sets);
    for _ in 0..sets {
        let s = Set {
            a: gpu.alloc(len * size)?,
            b: gpu.alloc(len * size)?,
            c: gpu.alloc(len * size)?,
            pa: gpu.alloc(batch * 8)?,
            pb: gpu.alloc(batch * 8)?,
            pc: gpu.alloc(batch * 8)?,
        };
        gpu.htod(s.a.ptr, &a)?;
        gpu.htod(s.b.ptr, &b)?;
        gpu.htod(s.c.ptr, &c0)?;
        for (arr, base) in [(&s.pa, s.a.ptr), (&s.pb, s.b.ptr), (&s.pc, s.c.ptr)] {
            let ptrs: Vec<u64> = (0..batch as u64).map(|i| base + i * (e * size) as u64).collect();
            gpu.htod(arr.ptr, &ptrs)?;
        }
        bufs.push(s);
    }

    let (ni, nl, bi) = (n as i32, n as i64, batch as i32);
    let stride = e as i64;
    let ours = |h: &mut Handle, s: &Set| -> Res<()> {
        // SAFETY: device buffers of `batch` packed n×n matrices each, on the handle's device.
        ng(unsafe {
            gemm_batched::<T>(
                h,
                Op::N,
                Op::N,
                nl,
                nl,
                nl,
                alpha,
                Batch::Strided { ptr: s.a.ptr as *const T, stride },
                nl,
                Batch::Strided { ptr: s.b.ptr as *const T, stride },
                nl,
                beta,
                Batch::Strided { ptr: s.c.ptr as *mut T, stride },
                nl,
                batch as i64,
            )
        })
    };
    let ours_array = |h: &mut Handle, s: &Set| -> Res<()> {
        // SAFETY: device pointer arrays of `batch` entries to packed n×n matrices.
        ng(unsafe {
            gemm_batched::<T>(
                h,
                Op::N,
                Op::N,
                nl,
                nl,
                nl,
                alpha,
                Batch::Array(s.pa.ptr as *const *const T),
                nl,
                Batch::Array(s.pb.ptr as *const *const T),
                nl,
                beta,
                Batch::Array(s.pc.ptr as *const *mut T),
                nl,
                batch as i64,
            )
        })
    };
    let cb_strided = |s: &Set| -> Res<()> {
        // SAFETY: as for `ours`.
        crate::gpu::cublas_check(unsafe { T::cublas_strided(cublas.h, ni, &alpha, s.a.ptr, stride, s.b.ptr, &beta, s.c.ptr, bi) }, "cublasXgemmStridedBatched")
    };
    let cb_array = |s: &Set| -> Res<()> {
        // SAFETY: as for `ours_array`.
        crate::gpu::cublas_check(unsafe { T::cublas_array(cublas.h, ni, &alpha, s.pa.ptr, s.pb.ptr, &beta, s.pc.ptr, bi) }, "cublasXgemmBatched")
    };

    // Accuracy, on set 0, each call from the same C0: cuBLAS strided is the reference.
    let s0 = &bufs[0];
    let (mut c_ref, mut c_ours, mut tmp) = (vec![T::zero(); len], vec![T::zero(); len], vec![T::zero(); len]);
    cb_strided(s0)?;
    gpu.dtoh(&mut c_ref, s0.c.ptr)?;
    gpu.htod(s0.c.ptr, &c0)?;
    cb_array(s0)?;
    gpu.dtoh(&mut tmp, s0.c.ptr)?;
    let (_, cb_err) = compare(&tmp, &c_ref, &a, &b, &c0, n, alpha, beta);
    if !below(Some(cb_err), cfg.tol) {
        row.note = format!("bench check: cuBLAS gemmBatched disagrees with gemmStridedBatched (scaled error {cb_err:.3e})");
    }
    gpu.htod(s0.c.ptr, &c0)?;
    ours(h, s0)?;
    gpu.dtoh(&mut c_ours, s0.c.ptr)?;
    let (rel, scaled) = compare(&c_ours, &c_ref, &a, &b, &c0, n, alpha, beta);
    row.rel_error = Some(rel);
    row.scaled_error = Some(scaled);
    gpu.htod(s0.c.ptr, &c0)?;
    ours(h, s0)?;
    gpu.dtoh(&mut tmp, s0.c.ptr)?;
    row.reproducible = Some(bits(&tmp) == bits(&c_ours));
    gpu.htod(s0.c.ptr, &c0)?;
    ours_array(h, s0)?;
    gpu.dtoh(&mut tmp, s0.c.ptr)?;
    row.scaled_error_array = Some(compare(&tmp, &c_ref, &a, &b, &c0, n, alpha, beta).1);
    drop((c_ref, c_ours, tmp));

    // Timing: C keeps being updated (C ← A·B + C/2 stays bounded); calls rotate the sets.
    let ms = gpu.time(cfg.warmup, cfg.reps, |i| cb_strided(&bufs[i % sets]))?;
    let t_cb = median(&ms);
    let ms = gpu.time(cfg.warmup, cfg.reps, |i| ours(h, &bufs[i % sets]))?;
    let t_ours = median(&ms);
    let ms = gpu.time(cfg.warmup, cfg.reps, |i| cb_array(&bufs[i % sets]))?;
    let t_cba = median(&ms);
    let ms = gpu.time(cfg.warmup, cfg.reps, |i| ours_array(h, &bufs[i % sets]))?;
    let t_oa = median(&ms);
    gpu.sync()?;
    drop(bufs);

    let gflops = |t: f64| row.flops / (t * 1e6);
    let gbs = |t: f64| row.bytes / (t * 1e6);
    row.ours_ms = Some(t_ours);
    row.ours_gflops = Some(gflops(t_ours));
    row.ours_gbs = Some(gbs(t_ours));
    row.roof_pct = Some(100.0 * gflops(t_ours) / row.roof_gflops);
    row.cublas_ms = Some(t_cb);
    row.cublas_gflops = Some(gflops(t_cb));
    row.cublas_gbs = Some(gbs(t_cb));
    row.ratio_cublas = Some(t_cb / t_ours);
    row.ours_array_ms = Some(t_oa);
    row.cublas_array_ms = Some(t_cba);
    row.ratio_cublas_array = Some(t_cba / t_oa);

    // OpenBLAS on the host through numgpu's CPU backend, on the first matrices of the batch:
    // a first run of about `cpu_flops / 100` flops sizes the batch so that one run takes
    // about `cpu_secs` (small matrices are slow on the host: per-call overheads).
    let per = T::FLOPS_PER_FMA * (n * n * n) as f64;
    let mut cpu = Handle::cpu();
    let mut cc = c0.clone();
    let mut cpu_run = |bc: usize| -> Res<f64> {
        let t = Instant::now();
        let k = bc * e;
        ng(gemm_batched_strided(&mut cpu, Op::N, Op::N, nl, nl, nl, alpha, &a[..k], nl, stride, &b[..k], nl, stride, beta, &mut cc[..k], nl, stride, bc as i64))?;
        Ok(t.elapsed().as_secs_f64())
    };
    let probe = ((cfg.cpu_flops / 100.0 / per).ceil() as usize).clamp(1, batch);
    let secs = cpu_run(probe)?; // also the warm-up
    let by_time = (cfg.cpu_secs * probe as f64 / secs.max(1e-9)) as usize;
    let bc = by_time.min((cfg.cpu_flops / per).ceil() as usize).clamp(1, batch);
    let mut times = Vec::new();
    for _ in 0..cfg.cpu_reps {
        times.push(cpu_run(bc)? * 1e3);
    }
    let t_cpu = median(&times);
    row.openblas_batch = bc;
    row.openblas_ms = Some(t_cpu);
    row.openblas_gflops = Some(bc as f64 * per / (t_cpu * 1e6));
    Ok(())
}
