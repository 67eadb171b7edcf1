//! sshopm: numgpu's SS-HOPM on a batch of diffusion-MRI-like tensors (the oracle's fibre
//! tensors, n = 3, orders m) × random starts, to convergence at the oracle's tolerance,
//! against the CPU backend in the same run on all host cores and on one core (a subset of the
//! tensors, per-tensor time scaled to the whole batch); converged share, the oracle's
//! eigen-residual, agreement with the CPU and reproducibility checked.

use crate::bench::{dispatch, finish, grid, host_times, secs, About, Bench, Case, Ctx, HostTimes};
use crate::gpu::{median, ng, Res};
use crate::report::{series_lines, Fmt, Meta, Panel, Row, Scale, Style};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::sshopm::{self as eig, iteration_flops, tables, Outputs, Real};
use numgpu::testing::{norm::nan_max, tensor, tol, workloads};
use numgpu::Handle;
use rayon::prelude::*;

#[derive(clap::Args, Debug)]
#[group(id = "sshopm")]
pub struct Args {
    /// sshopm: tensors per call [default: 1000000; --quick: 10000].
    #[arg(long)]
    tensors: Option<usize>,
    /// sshopm: random starts per tensor [default: 128].
    #[arg(long)]
    starts: Option<usize>,
}

pub struct Sshopm {
    orders: Vec<usize>,
    tensors: usize,
    starts: usize,
    cpu_secs: f64,
    cpu_reps: usize,
}

impl Sshopm {
    pub fn new(cli: &Cli) -> Res<Sshopm> {
        let (tensors, starts) = (cli.or(cli.sshopm.tensors, 1_000_000, 10_000), cli.sshopm.starts.unwrap_or(128));
        if tensors == 0 || starts == 0 {
            return Err("--tensors and --starts must be at least 1".into());
        }
        // The orders m of the headline (n = 3).
        Ok(Sshopm { orders: cli.sizes_or(&[4, 6], &[4, 6]), tensors, starts, cpu_secs: cli.or(None, 1.0, 0.2), cpu_reps: cli.or(None, 3, 1) })
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "sshopm", report: "sshopm", tolerance: 0.0, precisions: &['s', 'd'], default: &['s', 'd'], cusparse: false,
    description: "Tensor eigenpairs by SS-HOPM (numgpu_sshopm / numgpu_dsshopm): 10^6 diffusion-MRI-like symmetric tensors (n = 3, orders m) × 128 random starts to convergence, against numgpu's CPU backend in the same run on all host cores and on one core (on a subset of the tensors, per-tensor time scaled to the whole batch).",
    columns: &[("prec", "precision", Fmt::Text), ("m", "m", Fmt::Fix(0)), ("n", "n", Fmt::Fix(0)), ("tensors", "tensors", Fmt::Fix(0)), ("starts", "starts", Fmt::Fix(0)),
        ("tol", "tol", Fmt::Text), ("ours ms", "ours_ms", Fmt::Ms), ("iterations/s", "iter_per_s", Fmt::Exp(3)), ("GFLOP/s", "gflops", Fmt::Rate), ("% FMA peak", "fma_pct", Fmt::Pct(1)),
        ("converged", "converged_pct", Fmt::Pct(2)), ("CPU all cores ms", "cpu_all_ms", Fmt::Ms), ("tensors run", "cpu_all_tensors", Fmt::Fix(0)), ("×CPU all", "ratio_cpu_all", Fmt::Rate),
        ("CPU one core ms", "cpu_one_ms", Fmt::Ms), ("tensors run", "cpu_one_tensors", Fmt::Fix(0)), ("×CPU one", "ratio_cpu_one", Fmt::Rate), ("agree with CPU", "agree_pct", Fmt::Pct(2)),
        ("residual", "residual", Fmt::Exp(1))],
    log: &["ours_ms", "ratio_cpu_all"],
};

impl Bench for Sshopm {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        grid(precisions, &self.orders, "m")
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut row = Row::new(&case.label);
        let r = dispatch!(case.precision, [f32, f64], body(self, ctx, case.n, &mut row));
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: numgpu_?sshopm on device memory, convex, SAFE shift (α = (m−1)·‖A‖_F), random starts (X0 = NULL, one seed), n = 3; diffusion-MRI-like tensors (one or two fibres per voxel, random directions and weights in [0.5, 1], Σ w·v^⊗m plus 2% noise); {} warm-up calls, then the median of {} calls between CUDA events; the CPU backend (numgpu's Rust SS-HOPM, rayon) in the same run on the first tensors of the batch (the subset in the table, sized by a one-core probe to take about a second), over all {} host threads and in a one-thread pool, host clock, per-tensor time scaled to the whole batch\n\
             - iterations/s = Σ per-start iterations / time; GFLOP/s = iterations × the specialised kernel's flops per iteration (monomials, weights ≠ 1, 2 per gradient term, 7n + 1 for the step, norm, reciprocal square root and λ) / time; % FMA peak against the FMA kernel measured in this run; ×CPU = t_CPU / t_numgpu\n\
             - checks: ≥ 99% of the starts converge; the oracle's eigen-residual ‖A·x^(m−1) − λx‖ / max(‖A‖_F, 1) in double on a sample below 10·√tol + 1e3·ε; ≥ 97% of the CPU subset's starts with the CPU's flag and λ (1e-3 relative); two calls bitwise equal\n",
            meta.warmup, meta.reps, meta.host_threads
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, _: &Roofline) -> Vec<Panel> {
        let lines = series_lines(rows, |r| r.text("precision"), "m", &[("gflops", "numgpu", Style::Solid), ("cpu_all_gflops", "CPU backend, all cores", Style::Dashed)]);
        let title = format!("numgpu sshopm vs the CPU backend (all cores): {} ({})", meta.device, meta.date);
        vec![Panel { title, x: ("order m (n = 3)".into(), Scale::Lin), y: ("GFLOP/s".into(), Scale::Lin), names: vec![], level: None, lines }]
    }
    fn extra(&self, _: &[Row]) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::from_iter([("batch".to_string(), self.tensors.into())])
    }
}

/// The CPU backend on the first `count` tensors with the handle's seed `seed` (its
/// parallelism rayon's); (λ, flags, seconds).
fn cpu_run<T: Real>(a: &[T], m: usize, count: usize, starts: usize, tol: T, seed: u64) -> Res<(Vec<T>, Vec<i32>, f64)> {
    let (u, g) = (tables(m, 3).u, count * starts);
    let (mut lam, mut x, mut it, mut fl) = (vec![T::c(0.0); g], vec![T::c(0.0); g * 3], vec![0i32; g], vec![0i32; g]);
    let mut h = Handle::cpu();
    h.set_seed(seed);
    let out = Outputs { lambda: lam.as_mut_ptr(), x: x.as_mut_ptr(), iters: it.as_mut_ptr(), flags: fl.as_mut_ptr() };
    let mut r = Ok(());
    // SAFETY: host arrays of the sizes the call describes.
    let secs = secs(|| r = unsafe { eig::sshopm::<T>(&mut h, 0, 1, m as i64, 3, count as i64, starts as i64, a.as_ptr(), u as i64, std::ptr::null(), 0, T::c(0.0), tol, 100_000, out) });
    ng(r)?;
    Ok((lam, fl, secs))
}

fn body<T: Real>(s: &Sshopm, ctx: &mut Ctx, m: usize, row: &mut Row) -> Res<()> {
    let tol = tol::sshopm_tol(T::EPS);
    row.set("precision", T::LETTER.to_string());
    [("m", m), ("n", 3), ("starts", s.starts)].into_iter().for_each(|(k, v)| row.set(k, v));
    row.set("tol", tol);
    if !(2..=12).contains(&m) {
        return Err(format!("order m = {m}: the sweep takes 2 … 12"));
    }
    let (gpu, n, ns, e) = (ctx.gpu, 3usize, s.starts, std::mem::size_of::<T>());
    let tab = tables(m, n);
    let u = tab.u;
    let tensors = s.tensors.min((ctx.budget / ((u + ns * (n + 1)) * e + 8 * ns) as f64) as usize).max(1);
    if tensors < s.tensors {
        row.note(format!("batch cut to {tensors} tensors by device memory"));
    }
    row.set("tensors", tensors);
    let a = workloads::fibre_tensors::<T>(m, tensors, 0x5eed + m as u64);
    let g = tensors * ns;
    let (da, dl, dx, di, df) = (gpu.alloc(a.len() * e)?, gpu.alloc(g * e)?, gpu.alloc(g * n * e)?, gpu.alloc(g * 4)?, gpu.alloc(g * 4)?);
    gpu.htod(da.ptr, &a)?;
    let seed = 0xb1a5u64;
    ctx.h.set_seed(seed);
    let out = Outputs { lambda: dl.ptr as *mut T, x: dx.ptr as *mut T, iters: di.ptr as *mut i32, flags: df.ptr as *mut i32 };
    // SAFETY: device buffers of the sizes the call describes.
    let call = |h: &mut Handle| ng(unsafe { eig::sshopm::<T>(h, 0, 1, m as i64, n as i64, tensors as i64, ns as i64, da.ptr as *const T, u as i64, std::ptr::null(), 0, T::c(0.0), T::c(tol), 100_000, out) });
    let fetch = |lam: &mut Vec<T>, fl: &mut Vec<i32>| gpu.dtoh(lam, dl.ptr).and_then(|_| gpu.dtoh(fl, df.ptr));
    call(ctx.h)?;
    let (mut lam0, mut fl0, mut lam, mut fl) = (vec![T::c(0.0); g], vec![0i32; g], vec![T::c(0.0); g], vec![0i32; g]);
    fetch(&mut lam0, &mut fl0)?;
    let t = median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |_| call(ctx.h))?);
    let (mut it, mut x) = (vec![0i32; g], vec![T::c(0.0); g * n]);
    fetch(&mut lam, &mut fl)?;
    gpu.dtoh(&mut it, di.ptr)?;
    gpu.dtoh(&mut x, dx.ptr)?;
    let f = |v: T| v.to_f64().unwrap_or(f64::NAN);
    let same = lam.iter().zip(&lam0).all(|(p, q)| f(*p).to_bits() == f(*q).to_bits()) && fl == fl0;
    let iters: f64 = it.iter().map(|&i| i as f64).sum();
    let flops = iters * iteration_flops(&tab);
    row.set("ours_ms", t);
    row.set("iterations", iters);
    row.set("iter_per_s", iters / (t * 1e-3));
    row.set("gflops", flops / (t * 1e6));
    row.set("fma_pct", 100.0 * flops / (t * 1e6) / ctx.roof.peak(T::LETTER));
    let converged = 100.0 * fl.iter().filter(|&&f| f == 0).count() as f64 / g as f64;
    row.set("converged_pct", converged);

    // The oracle's eigen-residual of a sample of converged starts, in double.
    let worst = (0..g).step_by((g / 2000).max(1)).filter(|&gi| fl[gi] == 0).par_bridge().map(|gi| {
        let a64: Vec<f64> = a[(gi / ns) * u..(gi / ns + 1) * u].iter().map(|v| f(*v)).collect();
        let d = tensor::dense(m, n, &a64);
        let xs: Vec<f64> = x[gi * n..(gi + 1) * n].iter().map(|v| f(*v)).collect();
        tensor::eigen_residual(m, n, &d, f(lam[gi]), &xs).0 / d.iter().map(|v| v * v).sum::<f64>().sqrt().max(1.0)
    });
    let worst = worst.reduce(|| 0.0, nan_max);
    let bound = tol::eigen_residual(tol, T::EPS, 1.0);
    row.set("residual", worst);
    row.set("residual_bound", bound);

    // The CPU backend on the first tensors; the largest run's pairs are compared with ours.
    let mut kept = (0, Vec::new(), Vec::new());
    let HostTimes { one_items, one_ms, all_items, all_ms } = host_times(tensors, 64, s.cpu_secs, s.cpu_secs, s.cpu_reps, |k| {
        let (lc, fc, secs) = cpu_run::<T>(&a, m, k, ns, T::c(tol), seed)?;
        if k > kept.0 {
            kept = (k, lc, fc);
        }
        Ok(secs)
    })?;
    let (k, lc, fc) = kept;
    let agree = (0..k * ns).filter(|&gi| fc[gi] == fl[gi] && (f(lam[gi]) - f(lc[gi])).abs() <= 1e-3 * (1.0 + f(lc[gi]).abs())).count();
    let agree = 100.0 * agree as f64 / (k * ns) as f64;
    row.set("cpu_all_tensors", all_items);
    row.set("cpu_all_ms", all_ms);
    row.set("cpu_all_gflops", flops / (all_ms * 1e6));
    row.set("ratio_cpu_all", all_ms / t);
    row.set("cpu_one_tensors", one_items);
    row.set("cpu_one_ms", one_ms);
    row.set("ratio_cpu_one", one_ms / t);
    row.set("agree_pct", agree);
    row.set("reproducible", same);
    row.check(converged >= 99.0, || format!("{converged:.2}% of the starts converged"));
    row.check(worst < bound, || format!("residual {worst:.2e} above {bound:.2e}"));
    row.check(agree >= 97.0, || format!("only {agree:.2}% of the CPU subset's starts agree"));
    row.check(same, || "two calls differ".into());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench's inputs meet its own thresholds on the CPU backend: ≥ 99% of their starts
    /// converge at the oracle's tol, and each tensor's best start reaches a fibre (λ about its
    /// weight, at least 0.5); the defaults.
    #[test]
    fn inputs_converge() {
        fn check<T: Real>(m: usize) {
            let a = workloads::fibre_tensors::<T>(m, 40, 7);
            let (lam, fl, _) = cpu_run::<T>(&a, m, 40, 32, T::c(tol::sshopm_tol(T::EPS)), 1).unwrap();
            let conv = fl.iter().filter(|&&f| f == 0).count();
            assert!(conv * 100 >= 99 * fl.len(), "{} m={m}: {conv} of {} converged", T::LETTER, fl.len());
            for (t, ls) in lam.chunks(32).enumerate() {
                let top = ls.iter().map(|l| l.to_f64().unwrap()).fold(f64::MIN, f64::max);
                assert!(top > 0.4, "{} m={m} tensor {t}: largest λ {top}", T::LETTER);
            }
        }
        assert_eq!((tensor::entry_tuples(4, 3).len(), tensor::entry_tuples(4, 3)[4].as_slice()), (15, &[0u16, 0, 1, 2][..]));
        for m in [4, 6] {
            check::<f32>(m);
            check::<f64>(m);
        }
        let s = Sshopm::new(&crate::tests::cli(&["--routine", "sshopm"])).unwrap();
        assert_eq!((s.orders.as_slice(), s.tensors, s.starts), (&[4, 6][..], 1_000_000, 128));
        assert_eq!(Sshopm::new(&crate::tests::cli(&["--quick", "--tensors", "500"])).unwrap().tensors, 500);
        assert!(Sshopm::new(&crate::tests::cli(&["--starts", "0"])).is_err());
    }
}
