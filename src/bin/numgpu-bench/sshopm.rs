//! The sshopm sweep: for one precision and one order m (n = 3), numgpu's SS-HOPM on
//! `tensors` diffusion-MRI-like tensors × `starts` random starts (device memory, convex, SAFE
//! shift, to convergence at tol 1e-6 in single precision and 1e-12 in double) against the
//! CPU backend in the same run, on all host cores and on one core (a one-thread rayon pool).
//!
//! The tensors: per voxel one fibre or two (half of the voxels each), random directions and
//! weights in [0.5, 1], Σ w_k·v_k^{⊗m} plus uniform noise of 2% of the largest weight on every
//! unique entry. The CPU peers run on the first tensors of the same batch (a subset sized to
//! take about `cpu_secs_*`: one core would take minutes on 10^6 × 128), reported per tensor
//! and scaled to the whole batch; the same seed gives them the same starts as the GPU's.
//!
//! Rates: iterations/s = Σ per-start iterations / time; GFLOP/s = iterations ×
//! `sshopm::iteration_flops` (the specialised kernel's flops per iteration) / time; % of the
//! FP32 or FP64 FMA peak measured in the same run.
//!
//! Checks: at least 99% of the starts converge (flag 0); on a sample of converged starts the
//! eigen-residual ‖A·x^{m−1} − λ·x‖ / (1 + ‖A‖_F) in double is below 10·√tol + 1e3·ε; on the
//! CPU subset at least 97% of the starts reach the same λ (within 1e-3, relative) with the
//! same flag (a start on a basin boundary may go either way under different rounding); two
//! calls give bitwise the same λ and flags.

use crate::gpu::{median, ng, Gpu, Res};
use crate::report::{ms, notes, opt, preamble, rate, Meta, Report};
use crate::roofline::Roofline;
use numgpu::sshopm::{self as eig, cpu, iteration_flops, splitmix, tables, Outputs, Real};
use numgpu::Handle;
use plotters::prelude::*;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

/// The sweep's settings.
pub struct Config {
    /// Tensors per call, unless device memory holds fewer.
    pub tensors: usize,
    /// Random starts per tensor.
    pub starts: usize,
    pub reps: usize,
    pub warmup: usize,
    /// About the seconds of one CPU run over all cores and on one core.
    pub cpu_secs_all: f64,
    pub cpu_secs_one: f64,
    pub cpu_reps: usize,
    /// Device memory the sweep may hold at once, bytes.
    pub mem_budget: f64,
}

/// One row: one precision and one order m.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub precision: char,
    pub m: usize,
    pub n: usize,
    pub tensors: usize,
    pub starts: usize,
    pub tol: f64,
    pub ours_ms: Option<f64>,
    /// Σ iterations over every (tensor, start) of one call.
    pub iterations: Option<f64>,
    pub iter_per_s: Option<f64>,
    pub gflops: Option<f64>,
    /// GFLOP/s / the FMA peak of the precision measured in the same run, %.
    pub fma_pct: Option<f64>,
    /// Starts with flag 0, %.
    pub converged_pct: Option<f64>,
    /// Tensors the all-cores run took, its time scaled to the whole batch, and the ratio
    /// t_CPU / t_numgpu.
    pub cpu_all_tensors: usize,
    pub cpu_all_ms: Option<f64>,
    pub ratio_cpu_all: Option<f64>,
    /// The same on one core.
    pub cpu_one_tensors: usize,
    pub cpu_one_ms: Option<f64>,
    pub ratio_cpu_one: Option<f64>,
    /// Starts of the all-cores subset with the CPU's flag and λ, %.
    pub agree_pct: Option<f64>,
    /// Max eigen-residual / (1 + ‖A‖_F) over the sample, and its bound.
    pub residual: Option<f64>,
    pub residual_bound: f64,
    pub reproducible: Option<bool>,
    pub ok: bool,
    pub note: String,
}

/// The nondecreasing index tuples of (m, n), in the packed order.
fn entry_tuples(m: usize, n: usize) -> Vec<Vec<u16>> {
    let tab = tables(m, n);
    let mut out = vec![Vec::new(); tab.u];
    let mut idx = vec![0u16; m];
    for _ in 0..n.pow(m as u32) {
        if idx.windows(2).all(|p| p[0] <= p[1]) {
            out[tab.entry(&idx)] = idx.clone();
        }
        for i in idx.iter_mut() {
            *i += 1;
            if (*i as usize) < n {
                break;
            }
            *i = 0;
        }
    }
    out
}

/// `count` fibre tensors (see the module docs), packed.
fn brain<T: Real>(m: usize, count: usize, seed: u64) -> Vec<T> {
    let tuples = entry_tuples(m, 3);
    let u = tuples.len();
    let mut a = vec![T::c(0.0); count * u];
    a.par_chunks_mut(u).enumerate().for_each(|(t, out)| {
        // Uniform in [0, 1) from SplitMix64 of (seed, tensor, draw).
        let mut k = 0u64;
        let mut uni = || {
            k += 1;
            (splitmix(seed, (t as u64) << 20 | k) >> 11) as f64 / (1u64 << 53) as f64
        };
        let fibres = 1 + t % 2;
        let dirs: Vec<([f64; 3], f64)> = (0..fibres)
            .map(|_| {
                let (z, phi) = (2.0 * uni() - 1.0, std::f64::consts::TAU * uni());
                let s = (1.0 - z * z).sqrt();
                ([s * phi.cos(), s * phi.sin(), z], 0.5 + 0.5 * uni())
            })
            .collect();
        for (e, tu) in out.iter_mut().zip(&tuples) {
            let v: f64 = dirs.iter().map(|(d, w)| w * tu.iter().map(|&i| d[i as usize]).product::<f64>()).sum();
            *e = T::c(v + 0.02 * (2.0 * uni() - 1.0));
        }
    });
    a
}

/// Runs the CPU backend on the first `count` tensors (all cores, or a one-thread pool), with
/// the handle's seed `seed`; returns (λ, flags, seconds).
fn cpu_run<T: Real>(a: &[T], m: usize, count: usize, starts: usize, tol: T, seed: u64, one_core: bool) -> Res<(Vec<T>, Vec<i32>, f64)> {
    let u = tables(m, 3).u;
    let g = count * starts;
    let (mut lam, mut x, mut it, mut fl) = (vec![T::c(0.0); g], vec![T::c(0.0); g * 3], vec![0i32; g], vec![0i32; g]);
    let mut h = Handle::cpu();
    h.set_seed(seed);
    let out = Outputs { lambda: lam.as_mut_ptr(), x: x.as_mut_ptr(), iters: it.as_mut_ptr(), flags: fl.as_mut_ptr() };
    let mut call = || {
        let t0 = Instant::now();
        // SAFETY: host arrays of the sizes the call describes.
        let r = unsafe { eig::sshopm::<T>(&mut h, m as i32, 3, count as i64, a.as_ptr(), u as i64, starts as i64, std::ptr::null(), 0, 0, 1, T::c(0.0), tol, 100_000, out) };
        r.map(|_| t0.elapsed().as_secs_f64())
    };
    let secs = if one_core {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().map_err(|e| format!("a one-thread pool: {e}"))?;
        pool.install(call)
    } else {
        call()
    };
    Ok((lam, fl, ng(secs)?))
}

pub fn run_row<T: Real>(gpu: &Gpu, h: &mut Handle, roof: &Roofline, cfg: &Config, m: usize) -> Row {
    let mut row = Row { precision: T::LETTER, m, n: 3, starts: cfg.starts, tol: if T::EPS < 1e-10 { 1e-12 } else { 1e-6 }, ..Default::default() };
    if let Err(e) = row_body::<T>(gpu, h, roof, cfg, m, &mut row) {
        row.ok = false;
        row.note = e;
    }
    row
}

fn row_body<T: Real>(gpu: &Gpu, h: &mut Handle, roof: &Roofline, cfg: &Config, m: usize, row: &mut Row) -> Res<()> {
    if !(2..=12).contains(&m) {
        return Err(format!("order m = {m}: the sweep takes 2 … 12"));
    }
    let (n, ns, e) = (3usize, cfg.starts, std::mem::size_of::<T>());
    let tab = tables(m, n);
    let u = tab.u;
    let per_tensor = (u + ns * (n + 1)) * e + 8 * ns;
    let tensors = cfg.tensors.min((cfg.mem_budget / per_tensor as f64) as usize).max(1);
    if tensors < cfg.tensors {
        row.note = format!("batch cut to {tensors} tensors by device memory; ");
    }
    row.tensors = tensors;
    let a = brain::<T>(m, tensors, 0x5eed + m as u64);
    let g = tensors * ns;
    let (da, dl, dx, di, df) = (gpu.alloc(a.len() * e)?, gpu.alloc(g * e)?, gpu.alloc(g * n * e)?, gpu.alloc(g * 4)?, gpu.alloc(g * 4)?);
    gpu.htod(da.ptr, &a)?;
    let tol = T::c(row.tol);
    let seed = 0xb1a5u64;
    h.set_seed(seed);
    let out = Outputs { lambda: dl.ptr as *mut T, x: dx.ptr as *mut T, iters: di.ptr as *mut i32, flags: df.ptr as *mut i32 };
    let call = |h: &mut Handle| -> Res<()> {
        // SAFETY: device buffers of the sizes the call describes.
        ng(unsafe { eig::sshopm::<T>(h, m as i32, n as i32, tensors as i64, da.ptr as *const T, u as i64, ns as i64, std::ptr::null(), 0, 0, 1, T::c(0.0), tol, 100_000, out) })
    };
    call(h)?;
    gpu.sync()?;
    let mut lam0 = vec![T::c(0.0); g];
    let mut fl0 = vec![0i32; g];
    gpu.dtoh(&mut lam0, dl.ptr)?;
    gpu.dtoh(&mut fl0, df.ptr)?;
    let times = gpu.time(cfg.warmup, cfg.reps, |_| call(h))?;
    let t = median(&times);
    let (mut lam, mut fl, mut it, mut x) = (vec![T::c(0.0); g], vec![0i32; g], vec![0i32; g], vec![T::c(0.0); g * n]);
    gpu.dtoh(&mut lam, dl.ptr)?;
    gpu.dtoh(&mut fl, df.ptr)?;
    gpu.dtoh(&mut it, di.ptr)?;
    gpu.dtoh(&mut x, dx.ptr)?;
    let bits = |v: &[T]| v.iter().map(|x| x.to_f64().unwrap_or(f64::NAN).to_bits()).collect::<Vec<_>>();
    row.reproducible = Some(bits(&lam) == bits(&lam0) && fl == fl0);
    let iters: f64 = it.iter().map(|&i| i as f64).sum();
    row.ours_ms = Some(t);
    row.iterations = Some(iters);
    row.iter_per_s = Some(iters / (t * 1e-3));
    let gflops = iters * iteration_flops(&tab) / (t * 1e6);
    row.gflops = Some(gflops);
    row.fma_pct = Some(100.0 * gflops / roof.peak(T::LETTER));
    let converged = fl.iter().filter(|&&f| f == 0).count();
    row.converged_pct = Some(100.0 * converged as f64 / g as f64);

    // Residuals of a sample of converged starts, in double.
    let tab64 = tables(m, n);
    let mut y = vec![0.0; n];
    let mut v = vec![0.0; tab64.nmono()];
    let step = (g / 2000).max(1);
    let mut worst = 0f64;
    for gi in (0..g).step_by(step).filter(|&gi| fl[gi] == 0) {
        let t = gi / ns;
        let a64: Vec<f64> = a[t * u..(t + 1) * u].iter().map(|v| v.to_f64().unwrap_or(f64::NAN)).collect();
        let xs: Vec<f64> = x[gi * n..(gi + 1) * n].iter().map(|v| v.to_f64().unwrap_or(f64::NAN)).collect();
        cpu::grad(&tab64, &a64, &xs, &mut v, &mut y);
        let l = lam[gi].to_f64().unwrap_or(f64::NAN);
        let res = y.iter().zip(&xs).map(|(p, q)| (p - l * q).powi(2)).sum::<f64>().sqrt();
        let norm = a64.iter().zip(&tab64.mult).map(|(p, c)| c * p * p).sum::<f64>().sqrt();
        worst = crate::getrf::nan_max(worst, res / (1.0 + norm));
    }
    row.residual = Some(worst);
    row.residual_bound = 10.0 * row.tol.sqrt() + 1e3 * T::EPS;

    // The CPU backend: a probe on one core sizes both runs.
    let probe = (64usize).min(tensors);
    let (_, _, tp) = cpu_run::<T>(&a, m, probe, ns, tol, seed, true)?;
    let per = (tp / probe as f64).max(1e-9);
    let threads = rayon::current_num_threads() as f64;
    let b1 = ((cfg.cpu_secs_one / per) as usize).clamp(1, tensors);
    let ba = ((cfg.cpu_secs_all * threads / per) as usize).clamp(1, tensors);
    let (mut t1, mut ta) = (Vec::new(), Vec::new());
    let mut agree = 0usize;
    for r in 0..cfg.cpu_reps {
        t1.push(cpu_run::<T>(&a, m, b1, ns, tol, seed, true)?.2);
        let (lc, fc, secs) = cpu_run::<T>(&a, m, ba, ns, tol, seed, false)?;
        ta.push(secs);
        if r == 0 {
            agree = (0..ba * ns)
                .filter(|&gi| {
                    let (p, q) = (lam[gi].to_f64().unwrap_or(f64::NAN), lc[gi].to_f64().unwrap_or(f64::NAN));
                    fc[gi] == fl[gi] && (p - q).abs() <= 1e-3 * (1.0 + q.abs())
                })
                .count();
        }
    }
    let one_ms = median(&t1) / b1 as f64 * tensors as f64 * 1e3;
    let all_ms = median(&ta) / ba as f64 * tensors as f64 * 1e3;
    row.cpu_one_tensors = b1;
    row.cpu_one_ms = Some(one_ms);
    row.ratio_cpu_one = Some(one_ms / t);
    row.cpu_all_tensors = ba;
    row.cpu_all_ms = Some(all_ms);
    row.ratio_cpu_all = Some(all_ms / t);
    row.agree_pct = Some(100.0 * agree as f64 / (ba * ns) as f64);

    let mut why = Vec::new();
    if row.converged_pct < Some(99.0) {
        why.push(format!("{:.2}% of the starts converged", row.converged_pct.unwrap_or(0.0)));
    }
    if worst.is_nan() || worst >= row.residual_bound {
        why.push(format!("residual {worst:.2e} above {:.2e}", row.residual_bound));
    }
    if row.agree_pct < Some(97.0) {
        why.push(format!("only {:.2}% of the CPU subset's starts agree", row.agree_pct.unwrap_or(0.0)));
    }
    if row.reproducible != Some(true) {
        why.push("two calls differ".into());
    }
    row.ok = why.is_empty();
    row.note.push_str(&why.join("; "));
    Ok(())
}

/// The table: one row per precision and m.
pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    s.push_str("| prec | m | n | tensors | starts | tol | ours ms | iterations/s | GFLOP/s | % FMA peak | converged | CPU all cores ms (tensors run) | ×CPU all | CPU one core ms (tensors run) | ×CPU one | agree with CPU | residual | ok |\n");
    s.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:e} | {} | {} | {} | {} | {} | {} ({}) | {} | {} ({}) | {} | {} | {} | {} |",
            r.precision,
            r.m,
            r.n,
            r.tensors,
            r.starts,
            r.tol,
            opt(r.ours_ms, ms),
            opt(r.iter_per_s, |x| format!("{:.3e}", x)),
            opt(r.gflops, rate),
            opt(r.fma_pct, |x| format!("{x:.1}%")),
            opt(r.converged_pct, |x| format!("{x:.2}%")),
            opt(r.cpu_all_ms, ms),
            r.cpu_all_tensors,
            opt(r.ratio_cpu_all, rate),
            opt(r.cpu_one_ms, ms),
            r.cpu_one_tensors,
            opt(r.ratio_cpu_one, rate),
            opt(r.agree_pct, |x| format!("{x:.2}%")),
            opt(r.residual, |x| format!("{x:.1e}")),
            if r.ok { "ok" } else { "FAIL" },
        );
    }
    notes(&mut s, rows.iter().map(|r| (r.ok, format!("{} m = {}", r.precision, r.m), r.note.as_str())));
    s
}

pub fn markdown(rep: &Report<Row>) -> String {
    let m: &Meta = rep.meta;
    let mut s = String::new();
    preamble(&mut s, rep);
    let _ = writeln!(
        s,
        "- method: numgpu_?sshopm on device memory, convex, SAFE shift (α = (m−1)·‖A‖_F), random starts (X0 = NULL, one seed), n = 3; diffusion-MRI-like tensors (one or two fibres per voxel, random directions and weights in [0.5, 1], Σ w·v^⊗m plus 2% noise); {} warm-up calls, then the median of {} calls between CUDA events; the CPU backend (numgpu's Rust SS-HOPM, rayon) in the same run on the first tensors of the batch (the subset in the table, sized by a one-core probe to take about a second), over all {} host threads and in a one-thread pool, host clock, per-tensor time scaled to the whole batch{}",
        m.warmup,
        m.reps,
        m.host_threads,
        if m.quick { "; --quick run" } else { "" }
    );
    s.push_str("- iterations/s = Σ per-start iterations / time; GFLOP/s = iterations × the specialised kernel's flops per iteration (monomials, weights ≠ 1, 2 per gradient term, 7n + 1 for the step, norm, reciprocal square root and λ) / time; % FMA peak against the FMA kernel measured in this run; ×CPU = t_CPU / t_numgpu\n");
    s.push_str("- checks: ≥ 99% of the starts converge; eigen-residual ‖A·x^(m−1) − λx‖/(1 + ‖A‖_F) in double on a sample below 10·√tol + 1e3·ε; ≥ 97% of the CPU subset's starts with the CPU's flag and λ (1e-3 relative); two calls bitwise equal\n");
    let _ = writeln!(s, "- failures: {}\n", rep.failures);
    s.push_str(&table(rep.rows));
    s
}

/// GFLOP/s per order, numgpu (solid) and the CPU backend on all cores (dashed) per precision.
pub fn svg(file: &Path, rep: &Report<Row>) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("plotting {}: {e}", file.display());
    let root = SVGBackend::new(file, (1000, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let ymax = rep.rows.iter().filter_map(|r| r.gflops).fold(1.0, f64::max) * 1.3;
    let (xmin, xmax) = rep.rows.iter().fold((f64::MAX, f64::MIN), |(a, b), r| (a.min(r.m as f64), b.max(r.m as f64)));
    let (xmin, xmax) = if rep.rows.is_empty() { (2.0, 8.0) } else { (xmin - 1.0, xmax + 1.0) };
    let title = format!("numgpu sshopm vs the CPU backend (all cores): {} ({})", rep.meta.device, rep.meta.date);
    let mut chart = ChartBuilder::on(&root).caption(title, ("sans-serif", 20)).margin(16).x_label_area_size(44).y_label_area_size(70).build_cartesian_2d(xmin..xmax, 0.0..ymax).map_err(|e| err(&e))?;
    chart.configure_mesh().x_desc("order m (n = 3)").y_desc("GFLOP/s").draw().map_err(|e| err(&e))?;
    for (i, p) in ['s', 'd'].iter().enumerate() {
        let color = if i == 0 { RGBColor(214, 39, 40) } else { RGBColor(31, 119, 180) };
        let rows: Vec<&Row> = rep.rows.iter().filter(|r| r.precision == *p).collect();
        let ours: Vec<(f64, f64)> = rows.iter().filter_map(|r| r.gflops.map(|g| (r.m as f64, g))).collect();
        let cpu: Vec<(f64, f64)> = rows.iter().filter_map(|r| Some((r.m as f64, r.gflops? / r.ratio_cpu_all?))).collect();
        let solid = color.stroke_width(2);
        chart.draw_series(LineSeries::new(ours.clone(), solid)).map_err(|e| err(&e))?.label(format!("{p}: numgpu")).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], solid));
        chart.draw_series(ours.iter().map(|&q| Circle::new(q, 4, color.filled()))).map_err(|e| err(&e))?;
        let thin = color.stroke_width(1);
        chart.draw_series(DashedLineSeries::new(cpu, 6, 4, thin)).map_err(|e| err(&e))?.label(format!("{p}: CPU backend, all cores")).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], thin));
    }
    chart.configure_series_labels().position(SeriesLabelPosition::UpperLeft).background_style(WHITE.mix(0.85)).border_style(BLACK).draw().map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench's inputs meet its own thresholds on the CPU backend: the fibre tensors are the
    /// packed Σ w·v^⊗m (noise aside), and ≥ 99% of their starts converge at the row's tol.
    fn inputs_converge<T: Real>(m: usize) {
        let tol = if T::EPS < 1e-10 { 1e-12 } else { 1e-6 };
        let a = brain::<T>(m, 40, 7);
        let (lam, fl, _) = cpu_run::<T>(&a, m, 40, 32, T::c(tol), 1, false).unwrap();
        let conv = fl.iter().filter(|&&f| f == 0).count();
        assert!(conv * 100 >= 99 * fl.len(), "{} m={m}: {conv} of {} converged", T::LETTER, fl.len());
        // Each tensor's best start reaches a fibre: λ about its weight, at least 0.5.
        for (t, ls) in lam.chunks(32).enumerate() {
            let top = ls.iter().map(|l| l.to_f64().unwrap()).fold(f64::MIN, f64::max);
            assert!(top > 0.4, "{} m={m} tensor {t}: largest λ {top}", T::LETTER);
        }
    }

    #[test]
    fn sshopm_bench_inputs_converge() {
        let t = entry_tuples(4, 3);
        assert_eq!((t.len(), t[4].as_slice()), (15, &[0u16, 0, 1, 2][..]));
        for m in [4, 6] {
            inputs_converge::<f32>(m);
            inputs_converge::<f64>(m);
        }
    }
}
