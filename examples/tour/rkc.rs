//! rkc_integrate: the Brusselator at 32 and 64 equations and the heat equation with RKC, a
//! Lorenz ensemble and PLEI with RKCK, and a user-written problem (CUDA source and host
//! callback: diffusion with cubic decay) with RKC, parameters varied over the batch. Per
//! system ‖y − y_cpu‖∞ over 10·(atol + rtol·‖y‖∞) against the CPU backend (every system),
//! and ‖y − y_ref‖∞ over 100·(atol + rtol·‖y‖∞) against the oracle's reference on a sample
//! (`numgpu::testing::ode`: RKCK at 1e-12 on the CPU, or PLEI's published values at t = 3; a
//! global error, which on PLEI's close encounters reaches a few hundred local tolerances);
//! every status 0 and equal to the CPU backend's.

use crate::{sample, Row, Rows};
use numgpu::rkc::{rkc_integrate_slices, stats_len, Layout, Method, Ode, Options, Problem};
use numgpu::testing::ode::{decay, reference, worst_weighted_error, PLEI_AT_3};
use numgpu::{Backend, Handle};
use std::time::Instant;

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "rkc_integrate: ‖y − y_cpu‖∞ and ‖y − y_ref‖∞ per system over 10·(atol + rtol‖y‖∞) and 100·(atol + rtol‖y‖∞) (global errors; the reference: RKCK at 1e-12 on the CPU, PLEI's published values at t = 3; a sample of systems); ≠cpu: systems whose status differs from the CPU backend's or is not 0; the GFLOP/s column is 10^6 RHS evaluations/s";

/// The ODE problems of the tour.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    Builtin(Problem),
    /// Diffusion with cubic decay from a user source.
    Decay,
}

impl Case {
    fn ode(self, h: &mut Handle, size: usize) -> numgpu::Result<Ode> {
        match self {
            Case::Builtin(pb) => Ode::builtin(h, pb, size as i64),
            Case::Decay => decay(h, size),
        }
    }

    /// Initial values and parameters of `nsys` systems: a built-in problem's own, its last
    /// parameter (D, α, b) varied by up to ±25% over the batch (Lorenz sweeps R over
    /// [0.1, 50]); the decay problem from a step, r from 1 to 11.
    fn inputs(self, neq: usize, npar: usize, nsys: usize) -> (Vec<f64>, Vec<f64>) {
        match self {
            Case::Builtin(pb) => {
                let base = pb.default_params();
                let p = (0..nsys)
                    .flat_map(|i| {
                        let f = i as f64 / nsys.max(2) as f64;
                        let mut q = base.clone();
                        match pb {
                            Problem::Lorenz => q[1] = 0.1 + 49.9 * f,
                            _ if npar > 0 => q[npar - 1] *= 0.75 + 0.5 * f,
                            _ => {}
                        }
                        q
                    })
                    .collect();
                ((0..nsys).flat_map(|_| pb.initial(neq)).collect(), p)
            }
            Case::Decay => ((0..nsys).flat_map(|_| (0..neq).map(|k| if k < neq / 4 { 1.0 } else { 0.0 })).collect(), (0..nsys).flat_map(|i| [0.1, 1.0 + 10.0 * i as f64 / nsys as f64]).collect()),
        }
    }

    fn name(self) -> String {
        match self {
            Case::Builtin(pb) => format!("{pb:?}"),
            // Short: the table's size column is 20 characters wide; the note says more.
            Case::Decay => "user source".into(),
        }
    }
}

/// `numgpu_rkc_integrate` on `nsys` systems of one problem over [0, tend] at rtol = atol.
fn case(h: &mut Handle, case: Case, size: usize, method: Method, nsys: usize, tend: f64, rtol: f64) -> Result<Row, String> {
    let fail = |e: numgpu::Error| e.msg;
    let (ode, mut cpu) = (case.ode(h, size).map_err(fail)?, Handle::cpu());
    let ode_cpu = case.ode(&mut cpu, size).map_err(fail)?;
    let (neq, npar) = (ode.neq(), ode.npar());
    let (y0, p) = case.inputs(neq, npar, nsys);
    let opts = Options { method, ..Options::default() };
    let run = |h: &mut Handle, ode: &Ode, stats: &mut [i64]| -> Result<(Vec<f64>, Vec<i32>, f64), String> {
        let (mut y, mut status) = (y0.clone(), vec![-1; nsys]);
        let t = Instant::now();
        rkc_integrate_slices(h, ode, nsys as i64, 0.0, tend, &mut y, neq as i64, Layout::SystemMajor, &p, npar.max(1) as i64, rtol, &[rtol], opts, None, &mut status, Some(stats)).map_err(fail)?;
        h.synchronize().map_err(fail)?;
        Ok((y, status, t.elapsed().as_secs_f64()))
    };
    let mut stats = vec![0i64; stats_len() * nsys];
    run(h, &ode, &mut stats)?; // warm-up: compiles the kernel on CUDA
    let (y, status, secs) = run(h, &ode, &mut stats)?;
    let (yc, statusc, _) = run(&mut cpu, &ode_cpu, &mut vec![0; stats_len() * nsys])?;
    let picked: Vec<usize> = sample(nsys).collect();
    let pick = |v: &[f64], w: usize| -> Vec<f64> { picked.iter().flat_map(|&i| v.get(i * w..(i + 1) * w).unwrap_or(&[]).to_vec()).collect() };
    let yref = match case {
        Case::Builtin(Problem::Plei) => picked.iter().flat_map(|_| PLEI_AT_3).collect(),
        _ => reference(&ode_cpu, 0.0, tend, &pick(&y0, neq), &pick(&p, npar))?,
    };
    let evals: i64 = stats.chunks(stats_len()).map(|s| s[0] + s[4]).sum();
    Ok(Row {
        routine: format!("rkc_integrate {}", if method == Method::Rkc { "RKC" } else { "RKCK" }),
        size: format!("{}, neq={neq}", case.name()),
        batch: nsys,
        secs,
        // The GFLOP/s column shows 10^6 RHS evaluations per second for the ODE rows.
        flops: evals as f64 * 1e3,
        err_cpu: worst_weighted_error(&y, &yc, neq, rtol, rtol) / 10.0,
        err_ref: worst_weighted_error(&pick(&y, neq), &yref, neq, rtol, rtol) / 100.0,
        differ: Some(status.iter().zip(&statusc).filter(|(a, b)| a != b || **a != 0).count()),
        note: format!(
            "{}t in [0, {tend}], rtol = atol = {rtol:e}; {:.0} RHS evaluations per system",
            if case == Case::Decay { "diffusion with cubic decay; " } else { "" },
            evals as f64 / nsys as f64
        ),
        ..Row::default()
    })
}

/// The family's rows, appended to `rows`.
pub fn rows(h: &mut Handle, rows: &mut Rows) {
    let many = if h.backend() == Backend::Cuda { 20_000 } else { 2_000 };
    rows.push(case(h, Case::Builtin(Problem::Brusselator), 32, Method::Rkc, many, 1.0, 1e-6));
    rows.push(case(h, Case::Builtin(Problem::Brusselator), 64, Method::Rkc, many / 2, 1.0, 1e-6));
    rows.push(case(h, Case::Builtin(Problem::Heat), 31, Method::Rkc, many, 0.1, 1e-6));
    rows.push(case(h, Case::Builtin(Problem::Lorenz), 3, Method::Rkck, 10 * many, 1.0, 1e-8));
    rows.push(case(h, Case::Builtin(Problem::Plei), 28, Method::Rkck, many / 4, 3.0, 1e-10));
    rows.push(case(h, Case::Decay, 32, Method::Rkc, many, 1.0, 1e-6));
}
