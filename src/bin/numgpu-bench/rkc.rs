//! rkc: `numgpu_rkc_integrate` (RKC, one GPU thread per system) on many independent ODE
//! systems (the built-in Brusselator with 32 and 64 equations; a user-written CUDA source of
//! similar cost, the oracle's chain of 64 coupled phase oscillators) against the CPU backend
//! in the same run on all host cores and on one core (capped system counts, rates compared);
//! the GPU's solutions checked against the CPU's within the oracle's global-error bound.

use crate::bench::{finish, one_core, secs, About, Bench, Case, Ctx};
use crate::gpu::{median, ng, Res};
use crate::report::{series_lines, Fmt, Meta, Panel, Row, Scale, Style};
use crate::roofline::Roofline;
use crate::Cli;
use clap::ValueEnum;
use numgpu::rkc::{rkc_integrate, rkc_integrate_slices, stats_len, Layout, Method, Ode, Options, Problem};
use numgpu::testing::{ode::worst_weighted_error, tol, workloads};
use numgpu::Handle;

#[derive(clap::Args, Debug)]
#[group(id = "rkc")]
pub struct Args {
    /// rkc: systems per call, comma-separated [default: 1000,10000,100000,1000000; --quick: 1000,10000,100000].
    #[arg(long, value_delimiter = ',')]
    systems: Option<Vec<usize>>,
    /// rkc: problems, comma-separated: bruss32, bruss64 (the built-in Brusselator with 32 and 64 equations), user64 (a user-written CUDA source, a chain of 64 coupled phase oscillators) [default: all three].
    #[arg(long, value_delimiter = ',')]
    problems: Option<Vec<Workload>>,
    /// rkc: most systems the CPU backend integrates on all host cores (rates are compared) [default: 100000; --quick: 10000].
    #[arg(long)]
    cpu_all_max: Option<usize>,
    /// rkc: most systems the CPU backend integrates on one core [default: 10000; --quick: 1000].
    #[arg(long)]
    cpu_one_max: Option<usize>,
}

const TOL: f64 = 1e-6;
const TEND: f64 = 1.0;

/// The problems of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Workload {
    Bruss32,
    Bruss64,
    User64,
}

impl Workload {
    fn name(self) -> &'static str {
        ["bruss32", "bruss64", "user64"][self as usize]
    }

    fn ode(self, h: &mut Handle) -> numgpu::Result<Ode> {
        match self {
            Workload::Bruss32 => Ode::builtin(h, Problem::Brusselator, 32),
            Workload::Bruss64 => Ode::builtin(h, Problem::Brusselator, 64),
            Workload::User64 => workloads::chain(h, 64),
        }
    }
}

pub struct Rkc {
    systems: Vec<usize>,
    problems: Vec<Workload>,
    cpu_all_max: usize,
    cpu_one_max: usize,
    cpu_reps: usize,
    max_secs: f64,
}

impl Rkc {
    pub fn new(cli: &Cli) -> Res<Rkc> {
        let a = &cli.rkc;
        let systems = a.systems.clone().unwrap_or_else(|| if cli.quick { vec![1000, 10_000, 100_000] } else { vec![1000, 10_000, 100_000, 1_000_000] });
        if let Some(n) = systems.iter().find(|n| !(1..=100_000_000).contains(*n)) {
            return Err(format!("--systems: {n} is outside 1..=10^8"));
        }
        let mut problems: Vec<Workload> = Vec::new();
        a.problems.clone().unwrap_or_else(|| Workload::value_variants().to_vec()).into_iter().for_each(|w| if !problems.contains(&w) { problems.push(w) });
        let (cpu_all_max, cpu_one_max) = (cli.or(a.cpu_all_max, 100_000, 10_000).max(1), cli.or(a.cpu_one_max, 10_000, 1000).max(1));
        Ok(Rkc { systems, problems, cpu_all_max, cpu_one_max, cpu_reps: cli.or(None, 3, 1), max_secs: cli.max_secs() })
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "rkc", report: "rkc", tolerance: tol::ODE_GLOBAL, precisions: &['d'], default: &['d'], cusparse: false,
    description: "Many independent ODE systems: numgpu_rkc_integrate (RKC, one GPU thread per system) on the built-in Brusselator (32 and 64 equations) and on a user-written CUDA source of similar cost (a chain of 64 coupled phase oscillators), against numgpu's CPU backend (the same integrator in Rust, rayon over the systems) on all host cores and on one core in the same run.",
    columns: &[("problem", "problem", Fmt::Text), ("neq", "neq", Fmt::Fix(0)), ("systems", "nsys", Fmt::Fix(0)), ("ours ms", "ours_ms", Fmt::Ms), ("systems/s", "ours_sys_per_s", Fmt::Exp(2)),
        ("RHS evals/s", "ours_rhs_per_s", Fmt::Exp(2)), ("RHS/system", "rhs_per_system", Fmt::Fix(0)), ("CPU all: systems", "cpu_all_nsys", Fmt::Fix(0)), ("ms", "cpu_all_ms", Fmt::Ms),
        ("systems/s", "cpu_all_sys_per_s", Fmt::Exp(2)), ("×CPU all", "ratio_all", Fmt::Fix(1)), ("CPU 1 core: systems", "cpu_one_nsys", Fmt::Fix(0)), ("ms", "cpu_one_ms", Fmt::Ms),
        ("systems/s", "cpu_one_sys_per_s", Fmt::Exp(2)), ("×CPU 1 core", "ratio_one", Fmt::Fix(0)), ("Δ vs CPU (tol)", "err_cpu", Fmt::Fix(2))],
    log: &["ours_ms", "ratio_all"],
};

impl Bench for Rkc {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        let problems = self.problems.iter().enumerate().filter(|_| precisions.contains(&'d'));
        problems.flat_map(|(k, w)| self.systems.iter().map(move |&n| Case { precision: 'd', n, kind: k, label: format!("{} {n} systems", w.name()) })).collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let (w, mut row) = (self.problems[case.kind], Row::new(&case.label));
        [("problem", w.name()), ("precision", "d")].into_iter().for_each(|(k, v)| row.set(k, v));
        row.set("nsys", case.n);
        let r = body(self, ctx, w, case.n, &mut row);
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: double precision, RKC (rkc.f) with the problem's spectral-radius bound, t in [0, 1], rtol = atol = 1e-6, one GPU thread per system, device arrays (system-major); Y restored from a pristine copy before each call (untimed); two checked calls (every status 0, bitwise equal), then the median of up to {} calls between CUDA events (fewer where one call is slow: the `reps` column of the JSON); the CPU backend in the same run on the first min(systems, cap) systems of the same inputs, host clock, on all {} host threads (rayon) and on one core (a one-thread pool)\n\
             - rates: systems/s and RHS evaluations/s; ×CPU = our systems/s over the CPU's (the CPU peers may integrate fewer systems than the row: their system counts are in the table); Δ vs CPU = max over the systems both integrated of the oracle's ‖y − y_cpu‖∞ / (atol + rtol·‖y_cpu‖∞), which must stay below {} (the backends round differently, so their step sequences may part)\n",
            meta.reps, meta.host_threads, tol::ODE_GLOBAL
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, _: &Roofline) -> Vec<Panel> {
        let what = [("ours_sys_per_s", "numgpu", Style::Solid), ("cpu_all_sys_per_s", "CPU all cores", Style::Dashed), ("cpu_one_sys_per_s", "CPU one core", Style::Marks)];
        let lines = series_lines(rows, |r| r.text("problem"), "nsys", &what);
        let title = format!("numgpu rkc_integrate vs the CPU backend: {} ({})", meta.device, meta.date);
        vec![Panel { title, x: ("systems per call (log10)".into(), Scale::Log10), y: ("systems/s (log10)".into(), Scale::Log10), names: vec![], level: None, lines }]
    }
}

/// The CPU backend on the first `n` systems (all cores, or a one-thread pool); the median
/// seconds of `reps` runs and the last run's Y.
fn cpu_peer(w: Workload, y0: &[f64], p: &[f64], n: usize, one: bool, reps: usize) -> Res<(f64, Vec<f64>)> {
    let mut h = Handle::cpu();
    let ode = ng(w.ode(&mut h))?;
    let (neq, npar) = (ode.neq(), ode.npar());
    let mut run = || -> Res<(f64, Vec<f64>)> {
        let (mut y, mut status) = (y0[..n * neq].to_vec(), vec![-1; n]);
        let mut r = Ok(());
        let t = secs(|| r = ng(rkc_integrate_slices(&mut h, &ode, n as i64, 0.0, TEND, &mut y, neq as i64, Layout::SystemMajor, &p[..n * npar], npar as i64, TOL, &[TOL], Options::default(), None, &mut status, None)));
        r.map(|_| (t, y))
    };
    let pool = one_core()?;
    let runs = (0..reps.max(1)).map(|_| if one { pool.install(&mut run) } else { run() }).collect::<Res<Vec<_>>>()?;
    Ok((median(&runs.iter().map(|r| r.0).collect::<Vec<_>>()), runs.into_iter().last().map(|r| r.1).unwrap_or_default()))
}

fn body(c: &Rkc, ctx: &mut Ctx, w: Workload, nsys: usize, row: &mut Row) -> Res<()> {
    let (g, ode) = (ctx.gpu, ng(w.ode(ctx.h))?);
    let (neq, npar) = (ode.neq(), ode.npar());
    row.set("neq", neq);
    let (y0, p) = workloads::ode_inputs(w == Workload::User64, neq, nsys);
    let ybytes = y0.len() * 8;
    let (dy, dy0, dp, da, ds, dstats) = (g.alloc(ybytes)?, g.alloc(ybytes)?, g.alloc(p.len() * 8)?, g.alloc(8)?, g.alloc(nsys * 4)?, g.alloc(nsys * stats_len() * 8)?);
    g.htod(dy0.ptr, &y0)?;
    g.htod(dp.ptr, &p)?;
    g.htod(da.ptr, &[TOL])?;
    let restore = |_| g.copy_async(dy.ptr, dy0.ptr, ybytes);
    let call = |h: &mut Handle, stats: u64| -> Res<()> {
        // SAFETY: device arrays of nsys systems (system-major, compact) on the handle's device.
        ng(unsafe { rkc_integrate(h, &ode, nsys as i64, 1, 0.0, TEND, dy.ptr as *mut f64, neq as i64, Layout::SystemMajor, dp.ptr as *const f64, npar as i64, TOL, da.ptr as *const f64, Options { method: Method::Rkc, ..Options::default() }, std::ptr::null_mut(), ds.ptr as *mut i32, stats as *mut i64) })
    };
    // The checked calls: statuses, statistics, reproducibility.
    let (mut first, mut again, mut status, mut stats) = (vec![0.0f64; y0.len()], vec![0.0f64; y0.len()], vec![0i32; nsys], vec![0i64; stats_len() * nsys]);
    restore(0)?;
    let mut r = Ok(());
    let one_call = secs(|| r = call(ctx.h, dstats.ptr).and(g.sync()));
    r?;
    g.dtoh(&mut first, dy.ptr)?;
    g.dtoh(&mut status, ds.ptr)?;
    g.dtoh(&mut stats, dstats.ptr)?;
    restore(0)?;
    call(ctx.h, 0)?;
    g.dtoh(&mut again, dy.ptr)?;
    let same = first.iter().zip(&again).all(|(a, b)| a.to_bits() == b.to_bits());
    let bad = status.iter().filter(|&&s| s != 0).count();
    let evals: i64 = stats.chunks(stats_len()).map(|s| s[0] + s[4]).sum();
    row.set("rhs_per_system", evals as f64 / nsys as f64);
    let reps = ((c.max_secs / one_call.max(1e-6)) as usize).clamp(1, ctx.reps);
    row.set("reps", reps);
    restore(0)?;
    let t = g.time_fresh(0, reps, 1, restore, |_| call(ctx.h, 0))? / 1e3;
    row.set("ours_ms", t * 1e3);
    row.set("ours_sys_per_s", nsys as f64 / t);
    row.set("ours_rhs_per_s", evals as f64 / t);

    // The CPU peers on the first systems of the same inputs.
    let mut err = 0.0;
    for (who, cap, one) in [("all", c.cpu_all_max, false), ("one", c.cpu_one_max, true)] {
        let n = nsys.min(cap);
        let (secs, y) = cpu_peer(w, &y0, &p, n, one, if one { 1 } else { c.cpu_reps })?;
        row.set(&format!("cpu_{who}_nsys"), n);
        row.set(&format!("cpu_{who}_ms"), secs * 1e3);
        row.set(&format!("cpu_{who}_sys_per_s"), n as f64 / secs);
        row.set(&format!("ratio_{who}"), (nsys as f64 / t) / (n as f64 / secs));
        if !one {
            err = worst_weighted_error(&first[..n * neq], &y, neq, TOL, TOL);
        }
    }
    row.set("err_cpu", err);
    row.set("status_nonzero", bad);
    row.set("reproducible", same);
    row.check(bad == 0, || format!("{bad} systems with status ≠ 0"));
    row.check(same, || "two calls differ".into());
    row.check(err < tol::ODE_GLOBAL, || format!("differs from the CPU backend by {err:.3e} tolerances (limit {})", tol::ODE_GLOBAL));
    let (n_all, n_one) = (nsys.min(c.cpu_all_max), nsys.min(c.cpu_one_max));
    if n_all < nsys || n_one < nsys {
        row.note(format!("CPU peers on {n_all} (all cores) and {n_one} (one core) of the systems, rates compared"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The defaults (system counts, problems, CPU caps) and the options' checks.
    #[test]
    fn settings() {
        let r = Rkc::new(&crate::tests::cli(&["--routine", "rkc"])).unwrap();
        assert_eq!((r.systems.as_slice(), r.problems.len(), r.cpu_all_max, r.cpu_one_max), (&[1000, 10_000, 100_000, 1_000_000][..], 3, 100_000, 10_000));
        let q = Rkc::new(&crate::tests::cli(&["--quick", "--problems", "user64", "--systems", "5000", "--cpu-one-max", "7"])).unwrap();
        assert_eq!((q.systems.as_slice(), q.problems.as_slice(), q.cpu_one_max, q.cases(&['d']).len()), (&[5000][..], &[Workload::User64][..], 7, 1));
        assert!(Rkc::new(&crate::tests::cli(&["--systems", "0"])).is_err());
        assert!(Cli::try_parse_from(["numgpu-bench", "--problems", "robertson"]).is_err());
    }
}
