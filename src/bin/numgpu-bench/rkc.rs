//! The rkc sweep: `numgpu_rkc_integrate` (RKC, one GPU thread per system) on many independent
//! ODE systems, against the CPU backend in the same run on all host cores and on one core.
//!
//! Problems (double precision, t in [0, 1], rtol = atol = 1e-6, the spectral radius from the
//! problem's bound):
//! - `bruss32`, `bruss64`: the built-in Brusselator with 32 and 64 equations (16 and 32 grid
//!   points), B swept over [2.5, 3.5] across the systems;
//! - `user64`: a user-written CUDA source (and the same right-hand side as a host callback for
//!   the CPU peers) of similar cost: a chain of 64 diffusively coupled phase oscillators
//!   (ch. 7), θ_k' = ω_k + c·(sin(θ_{k+1} − θ_k) + sin(θ_{k−1} − θ_k)), c = κ·65², free ends,
//!   with its Gershgorin bound 4c as `numgpu_spcrad`; ω and κ vary over the systems.
//!
//! For each problem and system count: device arrays (system-major), Y restored from a pristine
//! copy before each call (untimed, enqueued before the start event); two checked calls (the
//! warm-up: every status 0, bitwise equal results), then the median of `reps` calls between
//! CUDA events (fewer where one call is slow: at most about `max_secs` of timed calls). The
//! CPU peers integrate the first min(nsys, cap) systems of the same inputs (caps
//! `cpu_all_max` for all cores, `cpu_one_max` for one core, a one-thread rayon pool), host
//! clock, the median of `cpu_reps` runs; their rates (systems/s) are compared with ours, since
//! they may integrate fewer systems. The GPU's results on those systems must agree with the
//! CPU's within ACC tolerances per system (‖Δy‖∞ / (atol + rtol·‖y‖∞)).

use crate::gpu::{median, ng, DevBuf, Gpu, Res};
use numgpu::rkc::{rkc_integrate, rkc_integrate_slices, Callbacks, Layout, Method, Ode, Options, Problem};
use numgpu::Handle;
use serde::Serialize;
use std::ffi::c_void;
use std::time::Instant;

/// Largest CPU-vs-GPU difference accepted per system, in tolerances (a global error: the
/// two backends round differently, and a step accepted on one may be rejected on the other).
const ACC: f64 = 100.0;
const TOL: f64 = 1e-6;
const TEND: f64 = 1.0;

/// The phase-oscillator chain's CUDA source.
const CHAIN_CU: &str = r#"
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    const double c = p[1] * (double)((NEQ + 1) * (NEQ + 1));
    for (int k = 0; k < NEQ; ++k) {
        double s = 0.0;
        if (k > 0) s += sin(y[k - 1] - y[k]);
        if (k + 1 < NEQ) s += sin(y[k + 1] - y[k]);
        f[k] = p[0] * (1.0 + 0.01 * (double)k) + c * s;
    }
}
__device__ double numgpu_spcrad(double t, const double *y, const double *p) {
    return 4.0 * p[1] * (double)((NEQ + 1) * (NEQ + 1));
}
"#;

/// The same chain on the host.
unsafe extern "C" fn chain_rhs(_t: f64, y: *const f64, p: *const f64, f: *mut f64, neq: i64, _user: *mut c_void) {
    let n = neq as usize;
    let (y, p, f) = (std::slice::from_raw_parts(y, n), std::slice::from_raw_parts(p, 2), std::slice::from_raw_parts_mut(f, n));
    let c = p[1] * ((n + 1) * (n + 1)) as f64;
    for k in 0..n {
        let mut s = 0.0;
        if k > 0 {
            s += (y[k - 1] - y[k]).sin();
        }
        if k + 1 < n {
            s += (y[k + 1] - y[k]).sin();
        }
        f[k] = p[0] * (1.0 + 0.01 * k as f64) + c * s;
    }
}

unsafe extern "C" fn chain_spcrad(_t: f64, _y: *const f64, p: *const f64, neq: i64, _user: *mut c_void) -> f64 {
    4.0 * *p.add(1) * ((neq + 1) * (neq + 1)) as f64
}

/// The problems of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    Bruss32,
    Bruss64,
    User64,
}

impl crate::gtsv::Named for Workload {
    const ALL: &'static [Workload] = &[Workload::Bruss32, Workload::Bruss64, Workload::User64];
    fn name(self) -> &'static str {
        match self {
            Workload::Bruss32 => "bruss32",
            Workload::Bruss64 => "bruss64",
            Workload::User64 => "user64",
        }
    }
}

impl Workload {
    fn ode(self, h: &mut Handle) -> numgpu::Result<Ode> {
        match self {
            Workload::Bruss32 => Ode::builtin(h, Problem::Brusselator, 32),
            Workload::Bruss64 => Ode::builtin(h, Problem::Brusselator, 64),
            Workload::User64 => Ode::create(h, 64, 2, Some(CHAIN_CU), Some(Callbacks { rhs: chain_rhs, spcrad: Some(chain_spcrad), user: std::ptr::null_mut() })),
        }
    }

    /// Initial states and parameters of `nsys` systems, system-major.
    fn inputs(self, nsys: usize) -> (Vec<f64>, Vec<f64>) {
        let f = |i: usize| i as f64 / nsys.max(2) as f64;
        match self {
            Workload::Bruss32 | Workload::Bruss64 => {
                let neq = if self == Workload::Bruss32 { 32 } else { 64 };
                let y0 = Problem::Brusselator.initial(neq);
                ((0..nsys).flat_map(|_| y0.iter().copied()).collect(), (0..nsys).flat_map(|i| [1.0, 2.5 + f(i), 0.02]).collect())
            }
            Workload::User64 => {
                let y = (0..nsys).flat_map(|i| (0..64).map(move |k| 0.1 * k as f64 + f(i))).collect();
                (y, (0..nsys).flat_map(|i| [1.0 + f(i), 0.005 * (1.0 + f(i))]).collect())
            }
        }
    }
}

/// What every row shares.
pub struct Config {
    pub reps: usize,
    /// About the longest the timed calls of one measurement may take, seconds.
    pub max_secs: f64,
    /// Systems the CPU peers integrate at most: all cores, one core.
    pub cpu_all_max: usize,
    pub cpu_one_max: usize,
    /// CPU runs per peer (the median).
    pub cpu_reps: usize,
    pub workloads: Vec<Workload>,
}

/// One row: one problem and one system count.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub problem: &'static str,
    pub precision: char,
    pub neq: usize,
    pub nsys: usize,
    /// Calls numgpu's median is of.
    pub reps: usize,
    pub ours_ms: Option<f64>,
    pub ours_sys_per_s: Option<f64>,
    /// RHS evaluations per second (the power method's included; none here).
    pub ours_rhs_per_s: Option<f64>,
    /// Mean RHS evaluations per system.
    pub rhs_per_system: Option<f64>,
    /// Systems the all-cores peer integrated (min(nsys, cap)).
    pub cpu_all_nsys: usize,
    pub cpu_all_ms: Option<f64>,
    pub cpu_all_sys_per_s: Option<f64>,
    /// Our rate / the all-cores rate.
    pub ratio_all: Option<f64>,
    pub cpu_one_nsys: usize,
    pub cpu_one_ms: Option<f64>,
    pub cpu_one_sys_per_s: Option<f64>,
    pub ratio_one: Option<f64>,
    /// max over the systems the CPU integrated of ‖y − y_cpu‖∞ / (atol + rtol·‖y_cpu‖∞).
    pub err_cpu: Option<f64>,
    /// Systems whose status is not 0.
    pub status_nonzero: Option<usize>,
    /// Two calls on the same inputs gave bitwise the same Y.
    pub reproducible: Option<bool>,
    pub ok: bool,
    pub note: String,
}

/// ‖y − r‖∞ / (atol + rtol·‖r‖∞) per system, the max.
fn max_err(y: &[f64], r: &[f64], neq: usize) -> f64 {
    y.chunks(neq)
        .zip(r.chunks(neq))
        .map(|(a, b)| {
            let rn = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let d = a.iter().zip(b).map(|(p, q)| (p - q).abs()).fold(0.0f64, |m, v| if v.is_nan() { f64::INFINITY } else { m.max(v) });
            d / (TOL + TOL * rn)
        })
        .fold(0.0, f64::max)
}

/// The CPU backend on the first `n` systems, in a pool of `threads` threads (0: rayon's
/// global pool); the median seconds of `reps` runs and the last run's Y.
fn cpu_peer(w: Workload, y0: &[f64], p: &[f64], neq: usize, n: usize, threads: usize, reps: usize) -> Res<(f64, Vec<f64>)> {
    let mut h = Handle::cpu();
    let ode = ng(w.ode(&mut h))?;
    let npar = ode.npar();
    let run = |h: &mut Handle| -> Res<(f64, Vec<f64>)> {
        let mut y = y0[..n * neq].to_vec();
        let mut status = vec![-1; n];
        let t = Instant::now();
        ng(rkc_integrate_slices(h, &ode, n as i64, 0.0, TEND, &mut y, neq as i64, Layout::SystemMajor, &p[..n * npar], npar as i64, TOL, &[TOL], Options::default(), None, &mut status, None))?;
        Ok((t.elapsed().as_secs_f64(), y))
    };
    let mut times = Vec::new();
    let mut last = Vec::new();
    for _ in 0..reps.max(1) {
        let (t, y) = if threads == 0 {
            run(&mut h)?
        } else {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| format!("rayon pool: {e}"))?;
            pool.install(|| run(&mut h))?
        };
        times.push(t);
        last = y;
    }
    Ok((median(&times), last))
}

/// One row: `w` on `nsys` systems.
pub fn run_row(g: &Gpu, h: &mut Handle, c: &Config, w: Workload, nsys: usize) -> Row {
    let mut row = Row { problem: crate::gtsv::Named::name(w), precision: 'd', nsys, ..Row::default() };
    if let Err(e) = measure(g, h, c, w, nsys, &mut row) {
        row.ok = false;
        row.note = e;
    }
    row
}

fn measure(g: &Gpu, h: &mut Handle, c: &Config, w: Workload, nsys: usize, row: &mut Row) -> Res<()> {
    let ode = ng(w.ode(h))?;
    let (neq, npar) = (ode.neq(), ode.npar());
    row.neq = neq;
    let (y0, p) = w.inputs(nsys);
    let ybytes = y0.len() * 8;
    let (dy, dy0, dp, da, ds, dstats): (DevBuf, DevBuf, DevBuf, DevBuf, DevBuf, DevBuf) =
        (g.alloc(ybytes)?, g.alloc(ybytes)?, g.alloc(p.len() * 8)?, g.alloc(8)?, g.alloc(nsys * 4)?, g.alloc(nsys * 48)?);
    g.htod(dy0.ptr, &y0)?;
    g.htod(dp.ptr, &p)?;
    g.htod(da.ptr, &[TOL])?;
    let call = |h: &mut Handle, stats: u64| -> Res<()> {
        // SAFETY: device arrays of nsys systems (system-major, compact) on the handle's device.
        ng(unsafe { rkc_integrate(h, &ode, nsys as i64, 0.0, TEND, dy.ptr as *mut f64, neq as i64, Layout::SystemMajor, dp.ptr as *const f64, npar as i64, TOL, da.ptr as *const f64, 1, Options { method: Method::Rkc, ..Options::default() }, std::ptr::null_mut(), ds.ptr as *mut i32, stats as *mut i64) })
    };
    // The checked calls: statuses, statistics, reproducibility.
    let mut first = vec![0.0f64; y0.len()];
    let mut again = vec![0.0f64; y0.len()];
    let mut status = vec![0i32; nsys];
    let mut stats = vec![0i64; 6 * nsys];
    g.copy_async(dy.ptr, dy0.ptr, ybytes)?;
    let t = Instant::now();
    call(h, dstats.ptr)?;
    g.sync()?;
    let one_call = t.elapsed().as_secs_f64();
    g.dtoh(&mut first, dy.ptr)?;
    g.dtoh(&mut status, ds.ptr)?;
    g.dtoh(&mut stats, dstats.ptr)?;
    g.copy_async(dy.ptr, dy0.ptr, ybytes)?;
    call(h, 0)?;
    g.dtoh(&mut again, dy.ptr)?;
    row.reproducible = Some(first.iter().zip(&again).all(|(a, b)| a.to_bits() == b.to_bits()));
    row.status_nonzero = Some(status.iter().filter(|&&s| s != 0).count());
    let evals: i64 = stats.chunks(6).map(|s| s[0] + s[4]).sum();
    row.rhs_per_system = Some(evals as f64 / nsys as f64);

    let reps = ((c.max_secs / one_call.max(1e-6)) as usize).clamp(1, c.reps);
    row.reps = reps;
    let ms = g.time_setup(0, reps, |_| g.copy_async(dy.ptr, dy0.ptr, ybytes), |_| call(h, 0))?;
    let t_ours = median(&ms) / 1e3;
    row.ours_ms = Some(t_ours * 1e3);
    row.ours_sys_per_s = Some(nsys as f64 / t_ours);
    row.ours_rhs_per_s = Some(evals as f64 / t_ours);

    // The CPU peers on the first systems of the same inputs.
    let n_all = nsys.min(c.cpu_all_max);
    let (t_all, y_all) = cpu_peer(w, &y0, &p, neq, n_all, 0, c.cpu_reps)?;
    row.cpu_all_nsys = n_all;
    row.cpu_all_ms = Some(t_all * 1e3);
    row.cpu_all_sys_per_s = Some(n_all as f64 / t_all);
    row.ratio_all = Some((nsys as f64 / t_ours) / (n_all as f64 / t_all));
    let n_one = nsys.min(c.cpu_one_max);
    let (t_one, _) = cpu_peer(w, &y0, &p, neq, n_one, 1, 1)?;
    row.cpu_one_nsys = n_one;
    row.cpu_one_ms = Some(t_one * 1e3);
    row.cpu_one_sys_per_s = Some(n_one as f64 / t_one);
    row.ratio_one = Some((nsys as f64 / t_ours) / (n_one as f64 / t_one));
    let err = max_err(&first[..n_all * neq], &y_all, neq);
    row.err_cpu = Some(err);

    let mut why = Vec::new();
    if row.status_nonzero != Some(0) {
        why.push(format!("{} systems with status ≠ 0", row.status_nonzero.unwrap_or(0)));
    }
    if row.reproducible != Some(true) {
        why.push("two calls differ".to_string());
    }
    if err.is_nan() || err >= ACC {
        why.push(format!("differs from the CPU backend by {err:.3e} tolerances (limit {ACC})"));
    }
    row.ok = why.is_empty();
    let capped = if n_all < nsys || n_one < nsys { format!("CPU peers on {n_all} (all cores) and {n_one} (one core) of the systems, rates compared") } else { String::new() };
    row.note = why.into_iter().chain((!capped.is_empty()).then_some(capped)).collect::<Vec<_>>().join("; ");
    Ok(())
}
