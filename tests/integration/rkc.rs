//! The ODE integrators (RKC, RKCK) on every backend: problems with exact solutions (a linear
//! system with a forcing term, the semi-discretised heat equation from sine modes) reach the
//! accuracy the tolerances promise; the Brusselator against a tight-tolerance RKCK reference
//! and PLEI against the published values at t = 3; Lorenz ensembles (R swept over [0.1, 50])
//! against the CPU backend; a warm restart in ten pieces against one call; every status code
//! provoked; both layouts with padding left untouched; device arrays; bad source; every
//! argument check (INVALID_VALUE naming it, outputs untouched).
//!
//! Errors are measured in the integrator's tolerances, per system ‖y − y_ref‖∞ / (atol +
//! rtol·‖y_ref‖∞), which must stay below ACC (global error is a modest multiple of the local
//! tolerance for these problems).

use crate::common::c_position;
use numgpu::rkc::cpu::Rhs;
use numgpu::rkc::{numgpu_rkc_stat as Stat, rkc_integrate, rkc_integrate_slices, state_len, stats_len, Callbacks, Layout, Method, Ode, Options, Problem, Spectral};
use numgpu::testing::ode::{heat_modes, linear, linear_callbacks, linear_exact as exact_linear, reference, weighted_error as weighted_err, LINEAR_CU, PLEI_AT_3};
use numgpu::testing::tol::ODE_GLOBAL as ACC;
use numgpu::{Backend, Handle, Status};
use std::ffi::c_void;

fn opts(method: Method) -> Options {
    Options { method, ..Options::default() }
}

/// `numgpu_backend`'s value of a backend, as the stats' backend entry holds it.
fn backend_code(b: Backend) -> i64 {
    match b {
        Backend::Cpu => numgpu::core::handle::numgpu_backend::NUMGPU_BACKEND_CPU as i64,
        Backend::Cuda => numgpu::core::handle::numgpu_backend::NUMGPU_BACKEND_CUDA as i64,
    }
}

/// Integrates `nsys` systems with the same layout arguments, system-major, compact; returns
/// the status and stats.
#[allow(clippy::too_many_arguments)]
fn run(h: &mut Handle, ode: &Ode, t0: f64, tend: f64, y: &mut [f64], p: &[f64], rtol: f64, atol: &[f64], o: Options) -> (Vec<i32>, Vec<i64>) {
    let nsys = y.len() / ode.neq();
    let mut status = vec![-7; nsys];
    let mut stats = vec![-7; stats_len() * nsys];
    rkc_integrate_slices(h, ode, nsys as i64, t0, tend, y, ode.neq() as i64, Layout::SystemMajor, p, ode.npar().max(1) as i64, rtol, atol, o, None, &mut status, Some(&mut stats)).expect("integrate");
    let here = backend_code(h.backend());
    let slot = Stat::NUMGPU_RKC_STAT_BACKEND as usize;
    assert!(stats.chunks(stats_len()).all(|s| s[slot] == here), "the stats name the backend {here}: {stats:?}");
    (status, stats)
}

/// The linear problem with diagonal A (λ from −1 to −2000: up to moderately stiff) reaches
/// its exact solution within ACC tolerances, with both methods, and the statistics add up.
fn linear_exact(h: &mut Handle) {
    let ode = linear(h);
    let nsys = 37;
    let lam: Vec<f64> = (0..nsys).map(|i| -(2000f64).powf(i as f64 / (nsys - 1) as f64)).collect();
    let p: Vec<f64> = lam.iter().flat_map(|&l| [l, 0.0, 0.0, 0.5 * l]).collect();
    let y0: Vec<f64> = (0..nsys).flat_map(|i| [1.0 + i as f64 * 0.1, -0.5]).collect();
    let (t0, tend) = (0.0, 2.0);
    for method in [Method::Rkc, Method::Rkck] {
        let (rtol, atol) = (1e-6, 1e-8);
        let mut y = y0.clone();
        let (status, stats) = run(h, &ode, t0, tend, &mut y, &p, rtol, &[atol], opts(method));
        for i in 0..nsys {
            assert_eq!(status[i], 0, "{method:?} system {i} λ = {}: status {}", lam[i], status[i]);
            let exact = exact_linear(p[4 * i], p[4 * i + 3], &y0[2 * i..], tend);
            let e = weighted_err(&y[2 * i..2 * i + 2], &exact, rtol, atol);
            assert!(e < ACC, "{method:?} system {i} λ = {}: error {e:.3e} tolerances (limit {ACC}), y = {:?}, exact = {exact:?}", lam[i], &y[2 * i..2 * i + 2]);
            let s = &stats[stats_len() * i..stats_len() * (i + 1)];
            assert_eq!(s[1], s[2] + s[3], "{method:?} system {i}: steps = accepted + rejected, {s:?}");
            if method == Method::Rkck {
                // f(t0), the initial-step estimate, then 6 per step.
                assert_eq!((s[0], s[4], s[5]), (2 + 6 * s[1], 0, 6), "RKCK system {i} stats {s:?}");
            } else {
                assert!(s[4] > 0 && s[5] >= 2 && s[0] > 2 * s[1], "RKC system {i} stats {s:?}");
            }
        }
        if method == Method::Rkc {
            // Stiffer systems take more stages.
            let stages = |i: usize| stats[stats_len() * i + Stat::NUMGPU_RKC_STAT_STAGES as usize];
            assert!(stages(nsys - 1) > stages(0), "stages {} (λ = −2000) vs {} (λ = −1)", stages(nsys - 1), stages(0));
        }
    }
}

/// The heat equation from two sine modes, exact at the semi-discrete level; D per system; the
/// spectral radius from the problem's bound, from the power method and as a constant.
fn heat_exact(h: &mut Handle) {
    let n = 31;
    let ode = Ode::builtin(h, Problem::Heat, n as i64).unwrap();
    let nsys = 9;
    let d: Vec<f64> = (0..nsys).map(|i| 0.1 * (1.5f64).powi(i as i32)).collect();
    let modes = [(1.0, 1.0), (3.0, 0.5)];
    let y0: Vec<f64> = (0..nsys).flat_map(|_| heat_modes(n, &modes, 1.0, 0.0)).collect();
    let tend = 0.05;
    for spectral in [Spectral::Auto, Spectral::Estimate, Spectral::Constant] {
        let (rtol, atol) = (1e-5, 1e-7);
        let mut y = y0.clone();
        let (status, stats) = run(h, &ode, 0.0, tend, &mut y, &d, rtol, &[atol], Options { spectral, ..Options::default() });
        for i in 0..nsys {
            assert_eq!(status[i], 0, "{spectral:?} system {i}");
            let e = weighted_err(&y[i * n..(i + 1) * n], &heat_modes(n, &modes, d[i], tend), rtol, atol);
            assert!(e < ACC, "{spectral:?} system {i} D = {}: error {e:.3e} tolerances", d[i]);
            let sigma_evals = stats[stats_len() * i + Stat::NUMGPU_RKC_STAT_SPCRAD_RHS as usize];
            // The problem's bound serves AUTO and CONSTANT; ESTIMATE runs the power method.
            match spectral {
                Spectral::Estimate => assert!(sigma_evals > 0, "{spectral:?}: the power method ran"),
                _ => assert_eq!(sigma_evals, 0, "{spectral:?}: the problem's bound needs no power method"),
            }
        }
    }
}

/// The Brusselator (32 equations) with per-system A and B, RKC at rtol 1e-6 against the RKCK
/// reference at 1e-12; both layouts.
fn brusselator_reference(h: &mut Handle) {
    let neq = 32;
    let ode = Ode::builtin(h, Problem::Brusselator, neq as i64).unwrap();
    let nsys = 5;
    let p: Vec<f64> = (0..nsys).flat_map(|i| [1.0 + 0.05 * i as f64, 3.0 - 0.1 * i as f64, 0.02]).collect();
    let y0: Vec<f64> = (0..nsys).flat_map(|_| Problem::Brusselator.initial(neq)).collect();
    let yref = reference(&ode, 0.0, 10.0, &y0, &p).unwrap();
    let (rtol, atol) = (1e-6, 1e-6);
    let mut y = y0.clone();
    let (status, stats) = run(h, &ode, 0.0, 10.0, &mut y, &p, rtol, &[atol], Options::default());
    assert!(status.iter().all(|&s| s == 0), "status {status:?}");
    // Ten time units on the limit cycle: the phase error accumulates beyond ACC.
    let e = weighted_err(&y, &yref, rtol, atol);
    assert!(e < 10.0 * ACC, "Brusselator: error {e:.3e} tolerances against the reference");
    // AUTO takes the problem's Gershgorin bound: no power method.
    assert!(stats.chunks(stats_len()).all(|s| s[4] == 0 && s[1] > 10), "stats {stats:?}");
    // Equation-major, with padding: the same numbers bitwise (the same arithmetic per system).
    let ld = nsys + 3;
    let mut ye = vec![f64::NAN; ld * neq];
    let mut pe = vec![f64::NAN; ld * 3];
    for i in 0..nsys {
        (0..neq).for_each(|j| ye[i + j * ld] = y0[j + i * neq]);
        (0..3).for_each(|k| pe[i + k * ld] = p[k + i * 3]);
    }
    let mut st = vec![-7; nsys];
    rkc_integrate_slices(h, &ode, nsys as i64, 0.0, 10.0, &mut ye, ld as i64, Layout::EquationMajor, &pe, ld as i64, rtol, &[atol], Options::default(), None, &mut st, None).unwrap();
    assert_eq!(st, status);
    for i in 0..ld {
        for j in 0..neq {
            let v = ye[i + j * ld];
            if i < nsys {
                assert_eq!(v.to_bits(), y[j + i * neq].to_bits(), "equation-major system {i} equation {j}");
            } else {
                assert!(v.is_nan(), "padding Y[{i} + {j}·ld] written");
            }
        }
    }
}

/// PLEI with RKCK at 1e-10 against the published values at t = 3.
fn plei_reference(h: &mut Handle) {
    let ode = Ode::builtin(h, Problem::Plei, 0).unwrap();
    let nsys = 3;
    let mut y: Vec<f64> = (0..nsys).flat_map(|_| Problem::Plei.initial(28)).collect();
    let (rtol, atol) = (1e-10, 1e-10);
    let (status, _) = run(h, &ode, 0.0, 3.0, &mut y, &[], rtol, &[atol], opts(Method::Rkck));
    assert_eq!(status, vec![0; nsys]);
    let r = PLEI_AT_3;
    for i in 0..nsys {
        let e = weighted_err(&y[28 * i..28 * (i + 1)], &r, rtol, atol);
        assert!(e < 1000.0, "PLEI system {i}: error {e:.3e} tolerances against the published values");
    }
    // And not by accident: far from the initial values.
    assert!(weighted_err(&Problem::Plei.initial(28), &r, rtol, atol) > 1e9);
}

/// A Lorenz ensemble (σ = 10, b = 8/3, R over [0.1, 50]) on this backend against the CPU
/// backend (and both against the tight reference), with RKCK: Lorenz is not stiff, and RKC's
/// power method does not settle on its complex eigenvalues for most R (status 3, checked).
fn lorenz_ensemble(h: &mut Handle) {
    let ode = Ode::builtin(h, Problem::Lorenz, 3).unwrap();
    let nsys = 300;
    let p: Vec<f64> = (0..nsys).flat_map(|i| [10.0, 0.1 + 49.9 * i as f64 / (nsys - 1) as f64, 8.0 / 3.0]).collect();
    let y0: Vec<f64> = (0..nsys).flat_map(|_| [10.0, 10.0, 10.0]).collect();
    let tend = 1.0;
    let yref = reference(&ode, 0.0, tend, &y0, &p).unwrap();
    let mut cpu = Handle::cpu();
    let mut y = y0.clone();
    let (status, _) = run(h, &ode, 0.0, tend, &mut y, &p, 1e-7, &[1e-7], opts(Method::Rkc));
    assert!(status.iter().all(|&s| s == 0 || s == 3) && status.iter().filter(|&&s| s == 3).count() > nsys / 2, "RKC on Lorenz: {status:?}");
    {
        let method = Method::Rkck;
        let (rtol, atol) = (1e-7, 1e-7);
        let mut y = y0.clone();
        let (status, _) = run(h, &ode, 0.0, tend, &mut y, &p, rtol, &[atol], opts(method));
        let mut yc = y0.clone();
        run(&mut cpu, &ode, 0.0, tend, &mut yc, &p, rtol, &[atol], opts(method));
        assert_eq!(status, vec![0; nsys], "{method:?}");
        for i in 0..nsys {
            let s = 3 * i..3 * i + 3;
            let (e, ec) = (weighted_err(&y[s.clone()], &yref[s.clone()], rtol, atol), weighted_err(&y[s.clone()], &yc[s.clone()], rtol, atol));
            // Lorenz's flow stretches the local errors: the global error reaches beyond ACC.
            assert!(e < 10.0 * ACC && ec < 10.0 * ACC, "{method:?} R = {}: error {e:.3e} against the reference, {ec:.3e} against the CPU backend (tolerances)", p[3 * i + 1]);
        }
    }
}

/// One call over [0, 1] and ten warm-restarted calls agree within the tolerances; the warm
/// pieces skip the initial-step estimate and reuse σ, so they cost about what the one call
/// costs; and a cold restart of each piece costs more.
fn warm_restart(h: &mut Handle) {
    let neq = 32;
    let ode = Ode::builtin(h, Problem::Brusselator, neq as i64).unwrap();
    let nsys = 4;
    let p: Vec<f64> = (0..nsys).flat_map(|i| [1.0, 3.0 + 0.1 * i as f64, 0.02]).collect();
    let y0: Vec<f64> = (0..nsys).flat_map(|_| Problem::Brusselator.initial(neq)).collect();
    let (rtol, atol) = (1e-6, 1e-6);
    let o = Options { spectral: Spectral::Estimate, ..Options::default() };
    let mut one = y0.clone();
    let (_, s1) = run(h, &ode, 0.0, 1.0, &mut one, &p, rtol, &[atol], o);
    let sl = state_len(neq);
    let mut state = vec![0.0; nsys * sl];
    let (mut warm, mut cold) = (y0.clone(), y0.clone());
    let (mut evals_warm, mut evals_cold) = (0, 0);
    for k in 0..10 {
        let (a, b) = (k as f64 / 10.0, (k + 1) as f64 / 10.0);
        let mut status = vec![-7; nsys];
        let mut stats = vec![0; stats_len() * nsys];
        rkc_integrate_slices(h, &ode, nsys as i64, a, b, &mut warm, neq as i64, Layout::SystemMajor, &p, 3, rtol, &[atol], o, Some(&mut state), &mut status, Some(&mut stats)).unwrap();
        assert_eq!(status, vec![0; nsys], "warm piece {k}");
        evals_warm += stats.chunks(stats_len()).map(|s| s[0] + s[4]).sum::<i64>();
        let (st, sc) = run(h, &ode, a, b, &mut cold, &p, rtol, &[atol], o);
        assert_eq!(st, vec![0; nsys], "cold piece {k}");
        evals_cold += sc.chunks(stats_len()).map(|s| s[0] + s[4]).sum::<i64>();
    }
    let e = weighted_err(&warm, &one, rtol, atol);
    assert!(e < ACC, "ten warm pieces against one call: {e:.3e} tolerances");
    let evals_one: i64 = s1.chunks(stats_len()).map(|s| s[0] + s[4]).sum();
    assert!(evals_warm < evals_cold, "warm restarts cost {evals_warm} RHS evaluations, cold ones {evals_cold}");
    assert!((evals_warm as f64) < 1.6 * evals_one as f64 + 40.0 * nsys as f64, "ten warm pieces cost {evals_warm} RHS evaluations, one call {evals_one}");
    // The state counts every accepted step of the ten pieces.
    for i in 0..nsys {
        assert!(state[i * sl + 5] >= 10.0 && state[i * sl] > 0.0, "system {i} state {:?}", &state[i * sl..i * sl + 6]);
    }
}

/// Every status code, each on one system of a batch whose other systems reach tend.
fn status_codes(h: &mut Handle) {
    let ode = linear(h);
    let good = [-1.0, 0.0, 0.0, -2.0];
    let run_one = |h: &mut Handle, bad: [f64; 4], y0: [f64; 2], atol: f64, o: Options, want: i32| {
        let p: Vec<f64> = [good, bad, good].concat();
        let mut y: Vec<f64> = [[1.0, 1.0], y0, [1.0, 1.0]].concat();
        let (status, stats) = run(h, &ode, 0.0, 5.0, &mut y, &p, 1e-6, &[atol], o);
        assert_eq!(status, vec![0, want, 0], "status {want} wanted for the middle system ({o:?}); stats {stats:?}");
        assert!(y[2].is_finite() || want == 4, "y of the failed system: {:?}", &y[2..4]);
    };
    // 4: a NaN right-hand side.
    run_one(h, [f64::NAN, 0.0, 0.0, -1.0], [1.0, 1.0], 1e-8, Options::default(), 4);
    // 5: atol 0 where y = 0 (and g(0) = 0: y' = 0 at t = 0 in the first equation).
    run_one(h, good, [0.0, 1.0], 0.0, Options::default(), 5);
    // 2: max_steps 1 over an interval one step cannot cover.
    let o = Options { max_steps: 1, ..Options::default() };
    let p: Vec<f64> = [good, good].concat();
    let mut y = vec![1.0; 4];
    let (status, _) = run(h, &ode, 0.0, 50.0, &mut y, &p, 1e-6, &[1e-8], o);
    assert_eq!(status, vec![2, 2]);
    // 3: J = [0 1; 100 0]: |J·v|/|v| alternates between 1 and 100, the power method never
    // settles.
    run_one(h, [0.0, 1.0, 100.0, 0.0], [1.0, 1.0], 1e-8, Options { spectral: Spectral::Estimate, ..Options::default() }, 3);
    // 1: a stiff problem beyond the stage limit: the heat equation with D = 1e18 and at most 2
    // stages needs steps below hmin.
    let heat = Ode::builtin(h, Problem::Heat, 8).unwrap();
    let o = Options { max_stages: 2, ..Options::default() };
    let mut y = [Problem::Heat.initial(8), Problem::Heat.initial(8)].concat();
    let (status, _) = run(h, &heat, 0.0, 1.0, &mut y, &[1.0, 1e18], 1e-6, &[1e-8], o);
    assert_eq!(status, vec![0, 1]);
}

/// nsys = 0 touches nothing; t0 = tend writes status 0 and zero counts, Y unchanged.
fn empty_work(h: &mut Handle) {
    let ode = Ode::builtin(h, Problem::Lorenz, 3).unwrap();
    let mut y = vec![1.0, 2.0, 3.0];
    let mut status = vec![-7];
    let mut stats = vec![-7; stats_len()];
    rkc_integrate_slices(h, &ode, 0, 0.0, 1.0, &mut y, 3, Layout::SystemMajor, &[10.0, 28.0, 2.0], 3, 1e-6, &[1e-6], Options::default(), None, &mut status, Some(&mut stats)).unwrap();
    assert_eq!((status[0], stats[0]), (-7, -7));
    rkc_integrate_slices(h, &ode, 1, 0.5, 0.5, &mut y, 3, Layout::SystemMajor, &[10.0, 28.0, 2.0], 3, 1e-6, &[1e-6], Options::default(), None, &mut status, Some(&mut stats)).unwrap();
    let mut zero = vec![0; stats_len()];
    zero[Stat::NUMGPU_RKC_STAT_BACKEND as usize] = backend_code(h.backend());
    assert_eq!((status, stats, y), (vec![0], zero, vec![1.0, 2.0, 3.0]));
}

/// Integrating backwards (tend < t0) returns to the start of a forward run.
fn backwards(h: &mut Handle) {
    let ode = Ode::builtin(h, Problem::Lorenz, 3).unwrap();
    let p = [10.0, 5.0, 8.0 / 3.0];
    let mut y = vec![1.0, 2.0, 3.0];
    let o = opts(Method::Rkck);
    run(h, &ode, 0.0, 0.5, &mut y, &p, 1e-10, &[1e-10], o);
    let (status, _) = run(h, &ode, 0.5, 0.0, &mut y, &p, 1e-10, &[1e-10], o);
    assert_eq!(status, vec![0]);
    let e = weighted_err(&y, &[1.0, 2.0, 3.0], 1e-10, 1e-10);
    assert!(e < 1000.0, "forward then backward: {e:.3e} tolerances from the start, y = {y:?}");
}

/// The same call on arrays from `Handle::malloc` (device memory on CUDA, host on the CPU) and
/// on host arrays gives bitwise the same results, state and statistics included.
fn device_arrays(h: &mut Handle) {
    let neq = 16;
    let ode = Ode::builtin(h, Problem::Brusselator, neq as i64).unwrap();
    let nsys = 70;
    let sl = state_len(neq);
    let p: Vec<f64> = (0..nsys).flat_map(|i| [1.0, 2.5 + 0.02 * i as f64, 0.02]).collect();
    let y0: Vec<f64> = (0..nsys).flat_map(|_| Problem::Brusselator.initial(neq)).collect();
    let mut yh = y0.clone();
    let mut sth = vec![0.0; nsys * sl];
    let mut stath = vec![-7; nsys];
    let mut statsh = vec![-7; stats_len() * nsys];
    rkc_integrate_slices(h, &ode, nsys as i64, 0.0, 2.0, &mut yh, neq as i64, Layout::SystemMajor, &p, 3, 1e-6, &[1e-6], Options::default(), Some(&mut sth), &mut stath, Some(&mut statsh)).unwrap();
    let bytes = |n: usize, e: usize| n * e;
    unsafe {
        let dy = h.malloc(bytes(y0.len(), 8)).unwrap() as *mut f64;
        let dp = h.malloc(bytes(p.len(), 8)).unwrap() as *mut f64;
        let da = h.malloc(8).unwrap() as *mut f64;
        let ds = h.malloc(bytes(nsys * sl, 8)).unwrap() as *mut f64;
        let dst = h.malloc(bytes(nsys, 4)).unwrap() as *mut i32;
        let dstats = h.malloc(bytes(stats_len() * nsys, 8)).unwrap() as *mut i64;
        let zeros = vec![0u8; nsys * sl * 8];
        h.memcpy(dy as _, y0.as_ptr() as _, y0.len() * 8).unwrap();
        h.memcpy(dp as _, p.as_ptr() as _, p.len() * 8).unwrap();
        h.memcpy(da as _, [1e-6f64].as_ptr() as _, 8).unwrap();
        h.memcpy(ds as _, zeros.as_ptr() as _, zeros.len()).unwrap();
        rkc_integrate(h, &ode, nsys as i64, 1, 0.0, 2.0, dy, neq as i64, Layout::SystemMajor, dp, 3, 1e-6, da, Options::default(), ds, dst, dstats).unwrap();
        h.synchronize().unwrap();
        let mut y = vec![0.0f64; y0.len()];
        let mut st = vec![0.0f64; nsys * sl];
        let mut stat = vec![0; nsys];
        let mut stats = vec![0; stats_len() * nsys];
        h.memcpy(y.as_mut_ptr() as _, dy as _, y.len() * 8).unwrap();
        h.memcpy(st.as_mut_ptr() as _, ds as _, st.len() * 8).unwrap();
        h.memcpy(stat.as_mut_ptr() as _, dst as _, nsys * 4).unwrap();
        h.memcpy(stats.as_mut_ptr() as _, dstats as _, stats.len() * 8).unwrap();
        for ptr in [dy as *mut c_void, dp as _, da as _, ds as _, dst as _, dstats as _] {
            h.free(ptr).unwrap();
        }
        assert_eq!(stat, stath);
        assert_eq!(stats, statsh);
        assert!(y.iter().zip(&yh).all(|(a, b)| a.to_bits() == b.to_bits()), "Y differs between device and host arrays");
        assert!(st.iter().zip(&sth).all(|(a, b)| a.to_bits() == b.to_bits()), "state differs between device and host arrays");
    }
}

/// Issue 25: an ODE made with only a host callback (a Fortran simulator's `bind(C)` right-hand
/// side) integrates on every backend, on the host's cores, with the CPU backend's results bit
/// for bit, and says so in its statistics; with host arrays and with arrays from
/// `Handle::malloc` (device memory on CUDA: copied to the host and back, each value to its
/// place), equation-major with gaps between the rows, which stay untouched.
fn host_callback_anywhere(h: &mut Handle) {
    let (nsys, neq, npar, ldy, ldp) = (7usize, 2usize, 4usize, 10usize, 9usize);
    let lam: Vec<f64> = (0..nsys).map(|i| -1.0 - 30.0 * i as f64).collect();
    // Equation-major: value j of system i at j·ld + i; the gaps (rows beyond nsys) hold -7.
    let (mut y0, mut p) = (vec![-7.0; ldy * neq], vec![-7.0; ldp * npar]);
    for i in 0..nsys {
        (y0[i], y0[ldy + i]) = (1.0 + 0.1 * i as f64, -0.5);
        for (k, v) in [lam[i], 0.0, 0.0, 0.5 * lam[i]].into_iter().enumerate() {
            p[k * ldp + i] = v;
        }
    }
    let em = Layout::EquationMajor;
    let sl = state_len(neq);
    let run_host = |h: &mut Handle, ode: &Ode| {
        let (mut y, mut state, mut status, mut stats) = (y0.clone(), vec![0.0; nsys * sl], vec![-7; nsys], vec![-7; stats_len() * nsys]);
        rkc_integrate_slices(h, ode, nsys as i64, 0.0, 1.5, &mut y, ldy as i64, em, &p, ldp as i64, 1e-6, &[1e-8], Options::default(), Some(&mut state), &mut status, Some(&mut stats)).unwrap();
        (y, state, status, stats)
    };
    let mut cpu = Handle::cpu();
    let ode_cpu = Ode::create(&mut cpu, neq as i64, npar as i64, None, Some(linear_callbacks())).unwrap();
    let want = run_host(&mut cpu, &ode_cpu);
    assert_eq!(want.2, vec![0; nsys], "the CPU backend's status");
    let slot = Stat::NUMGPU_RKC_STAT_BACKEND as usize;
    assert!(want.3.chunks(stats_len()).all(|s| s[slot] == backend_code(Backend::Cpu)), "stats {:?}", want.3);
    let ode = Ode::create(h, neq as i64, npar as i64, None, Some(linear_callbacks())).unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let got = run_host(h, &ode);
    assert!(bits(&got.0) == bits(&want.0) && bits(&got.1) == bits(&want.1) && got.2 == want.2 && got.3 == want.3, "host arrays: not the CPU backend's results");
    unsafe {
        let up = |h: &mut Handle, bytes: usize, src: *const c_void| {
            let d = h.malloc(bytes).unwrap();
            h.memcpy(d, src, bytes).unwrap();
            d
        };
        let zeros = vec![0.0f64; nsys * sl];
        let (dy, dp, da) = (up(h, y0.len() * 8, y0.as_ptr() as _), up(h, p.len() * 8, p.as_ptr() as _), up(h, 8, [1e-8f64].as_ptr() as _));
        let (ds, dst, dstats) = (up(h, zeros.len() * 8, zeros.as_ptr() as _), h.malloc(nsys * 4).unwrap(), h.malloc(stats_len() * nsys * 8).unwrap());
        rkc_integrate(h, &ode, nsys as i64, 1, 0.0, 1.5, dy as *mut f64, ldy as i64, em, dp as *const f64, ldp as i64, 1e-6, da as *const f64, Options::default(), ds as *mut f64, dst as *mut i32, dstats as *mut i64).unwrap();
        h.synchronize().unwrap();
        let (mut y, mut state, mut status, mut stats) = (vec![0.0; y0.len()], vec![0.0; nsys * sl], vec![0i32; nsys], vec![0i64; stats_len() * nsys]);
        for (dst_, src, bytes) in [(y.as_mut_ptr() as *mut c_void, dy, y.len() * 8), (state.as_mut_ptr() as _, ds, state.len() * 8), (status.as_mut_ptr() as _, dst, nsys * 4), (stats.as_mut_ptr() as _, dstats, stats.len() * 8)] {
            h.memcpy(dst_, src, bytes).unwrap();
        }
        for d in [dy, dp, da, ds, dst, dstats] {
            h.free(d).unwrap();
        }
        assert!(bits(&y) == bits(&want.0) && bits(&state) == bits(&want.1) && status == want.2 && stats == want.3, "numgpu_malloc arrays: not the CPU backend's results (the gaps of Y included)");
    }
}

/// Every argument check of `numgpu_rkc_integrate`: INVALID_VALUE naming the argument, nothing
/// written; an ODE without a host callback is NOT_SUPPORTED on the CPU backend.
fn bad_arguments(h: &mut Handle) {
    let ode = Ode::builtin(h, Problem::Lorenz, 3).unwrap();
    let p = [10.0, 28.0, 8.0 / 3.0, 10.0, 20.0, 8.0 / 3.0];
    let y0 = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let sm = Layout::SystemMajor;
    type Call<'a> = Box<dyn Fn(&mut Handle, &mut [f64], &mut [i32]) -> numgpu::Result<()> + 'a>;
    let cases: Vec<(i32, Call)> = vec![
        (3, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, -1, 0.0, 1.0, y, 3, sm, &p, 3, 1e-6, &[1e-6], Options::default(), None, s, None))),
        (5, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, f64::NAN, 1.0, y, 3, sm, &p, 3, 1e-6, &[1e-6], Options::default(), None, s, None))),
        (6, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, f64::INFINITY, y, 3, sm, &p, 3, 1e-6, &[1e-6], Options::default(), None, s, None))),
        (8, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 2, sm, &p, 3, 1e-6, &[1e-6], Options::default(), None, s, None))),
        (8, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 1, Layout::EquationMajor, &p, 2, 1e-6, &[1e-6], Options::default(), None, s, None))),
        (11, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 2, 1e-6, &[1e-6], Options::default(), None, s, None))),
        (12, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 3, 0.5, &[1e-6], Options::default(), None, s, None))),
        (12, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 3, -1e-6, &[1e-6], Options::default(), None, s, None))),
        (13, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 3, 1e-6, &[-1e-6], Options::default(), None, s, None))),
        (13, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 3, 1e-6, &[1e-6, 1e-6, f64::NAN], Options::default(), None, s, None))),
        (4, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 3, 1e-6, &[1e-6, 1e-6], Options::default(), None, s, None))),
        (7, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, &mut y[..5], 3, sm, &p, 3, 1e-6, &[1e-6], Options::default(), None, s, None))),
        (10, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p[..5], 3, 1e-6, &[1e-6], Options::default(), None, s, None))),
        (15, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 3, 1e-6, &[1e-6], Options::default(), Some(&mut [0.0; 17]), s, None))),
        (16, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 3, 1e-6, &[1e-6], Options::default(), None, &mut s[..1], None))),
        (17, Box::new(|h, y, s| rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, y, 3, sm, &p, 3, 1e-6, &[1e-6], Options::default(), None, s, Some(&mut [0; 11])))),
    ];
    for (arg, call) in &cases {
        let mut y = y0;
        let mut status = [-7, -7];
        let e = call(h, &mut y, &mut status).expect_err("bad argument accepted");
        let (text, position) = numgpu::ffi::boundary::as_raised_by("numgpu_rkc_integrate", &e);
        assert_eq!((e.status, position), (Status::NUMGPU_INVALID_VALUE, *arg), "{text}");
        assert!(text.starts_with(&format!("argument {arg} ")), "{text}");
        assert_eq!((y, status), (y0, [-7, -7]), "an invalid call wrote its outputs ({})", e.msg);
    }
    // The options, each bad field naming argument 14.
    use numgpu::rkc::numgpu_rkc_options as O;
    let d = O::default();
    for bad in [O { size: 8, ..d }, O { method: 2, ..d }, O { spectral: 4, ..d }, O { h0: -1.0, ..d }, O { hmax: f64::NAN, ..d }, O { max_steps: -1, ..d }, O { max_stages: 1, ..d }] {
        let e = Options::from_c(Some(&bad)).expect_err("bad options accepted");
        assert_eq!((e.status, c_position(&e, "numgpu_rkc_integrate")), (Status::NUMGPU_INVALID_VALUE, 14), "{}", e.msg);
    }
    // The ODE's sizes and the built-in problems' sizes.
    for (neq, npar, arg) in [(0, 0, 2), (-1, 0, 2), (2, -1, 3)] {
        let e = Ode::create(h, neq, npar, Some(LINEAR_CU), None).expect_err("bad size accepted");
        assert_eq!((e.status, c_position(&e, "numgpu_ode_create")), (Status::NUMGPU_INVALID_VALUE, arg), "{}", e.msg);
    }
    assert_eq!(c_position(&Ode::create(h, 2, 4, None, None).unwrap_err(), "numgpu_ode_create"), 4);
    assert_eq!(Ode::create(h, 5000, 0, Some(LINEAR_CU), None).unwrap_err().status, Status::NUMGPU_NOT_SUPPORTED);
    for (pb, size) in [(Problem::Heat, 0), (Problem::Brusselator, 33), (Problem::Lorenz, 4), (Problem::Plei, 27)] {
        let e = Ode::builtin(h, pb, size).expect_err("bad size accepted");
        assert_eq!((e.status, c_position(&e, "numgpu_ode_builtin")), (Status::NUMGPU_INVALID_VALUE, 3), "{}", e.msg);
    }
    // An ODE without the form this backend needs: the CPU backend runs host callbacks only
    // (a CUDA handle runs either form: host_callback_anywhere).
    if h.backend() == Backend::Cpu {
        let half = Ode::create(h, 2, 4, Some(LINEAR_CU), None).unwrap();
        let mut y = [1.0, 1.0];
        let mut status = [-7];
        let e = rkc_integrate_slices(h, &half, 1, 0.0, 1.0, &mut y, 2, sm, &[-1.0, 0.0, 0.0, -1.0], 4, 1e-6, &[1e-6], Options::default(), None, &mut status, None).unwrap_err();
        assert_eq!(e.status, Status::NUMGPU_NOT_SUPPORTED, "{}", e.msg);
        assert_eq!((y, status), ([1.0, 1.0], [-7]));
    }
    // USER spectral radius for a problem without one.
    let e = rkc_integrate_slices(h, &ode, 2, 0.0, 1.0, &mut y0.clone(), 3, sm, &p, 3, 1e-6, &[1e-6], Options { spectral: Spectral::User, ..Options::default() }, None, &mut [0; 2], None).unwrap_err();
    assert_eq!(e.status, Status::NUMGPU_NOT_SUPPORTED, "{}", e.msg);
}

/// A source that does not compile: COMPILE_FAILED with NVRTC's log naming the user's file and
/// line (on CUDA through `Ode::create`; without a GPU through the same program and NVRTC for
/// sm_80, where libnvrtc is found).
fn bad_source(h: &mut Handle) {
    let bad = "__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {\n  f[0] = undefined_name;\n}\n";
    let e = match h.backend() {
        Backend::Cuda => Ode::create(h, 1, 0, Some(bad), None).expect_err("a bad source compiled"),
        Backend::Cpu => {
            if !numgpu::cuda::module::nvrtc_available() {
                eprintln!("SKIPPED the CPU half of bad_source: libnvrtc not found");
                return;
            }
            // The CPU backend does not compile at creation.
            Ode::create(h, 1, 0, Some(bad), None).expect("the CPU backend compiles nothing");
            let (d, entry) = numgpu::rkc::cuda::specialise(1, 0, Method::Rkc, false);
            let e = numgpu::cuda::module::compile(&numgpu::rkc::cuda::program(bad), &numgpu::cuda::module::nvrtc_options("sm_80", &d)).expect_err("a bad source compiled");
            assert!(!entry.is_empty());
            e
        }
    };
    assert_eq!(e.status, Status::NUMGPU_COMPILE_FAILED, "{}", e.msg);
    assert!(e.msg.contains("numgpu_rhs.cu(2)") && e.msg.contains("undefined_name"), "the log names the user's file, line and identifier: {}", e.msg);
}

/// The host callback receives each system's own parameters, contiguous, in either layout.
fn host_rhs_sees_parameters(h: &mut Handle) {
    // y' = p0 (one equation, two parameters): y(1) = y0 + p0 exactly, whatever the method.
    const SRC: &str = "__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) { f[0] = p[0] + 0.0 * p[1]; }";
    unsafe extern "C" fn rhs(_t: f64, _y: *const f64, p: *const f64, f: *mut f64, _n: i64, user: *mut c_void) {
        // The user pointer arrives as given: the tag it points to cancels.
        *f = *p + 0.0 * *p.add(1) + (*(user as *const u32) as f64 - 12_648_430.0);
    }
    let tag: u32 = 0xC0FFEE;
    let ode = Ode::create(h, 1, 2, Some(SRC), Some(Callbacks { rhs, spcrad: None, user: &tag as *const u32 as *mut c_void })).unwrap();
    let nsys = 40;
    let ld = nsys + 1;
    let mut pe = vec![0.0; 2 * ld];
    (0..nsys).for_each(|i| pe[i] = i as f64);
    let mut y = vec![1.0; ld];
    let mut status = vec![-7; nsys];
    rkc_integrate_slices(h, &ode, nsys as i64, 0.0, 1.0, &mut y, ld as i64, Layout::EquationMajor, &pe, ld as i64, 1e-8, &[1e-8], Options::default(), None, &mut status, None).unwrap();
    assert_eq!(status, vec![0; nsys]);
    for (i, v) in y[..nsys].iter().enumerate() {
        assert!((v - (1.0 + i as f64)).abs() < 1e-10, "system {i}: y = {v}");
    }
}

/// The problems' spectral-radius bounds hold: they are at least the power method's estimate.
#[test]
fn builtin_bounds_cover_the_spectral_radius() {
    use numgpu::rkc::Settings;
    for (pb, size) in [(Problem::Heat, 20), (Problem::Brusselator, 32)] {
        let neq = pb.neq(size).unwrap();
        let (y, p) = (pb.initial(neq), pb.default_params());
        let bound = pb.spcrad(0.0, &y, &p).unwrap();
        // One RKC step of the power method's σ: stages from the estimate (1.2·σ) must not
        // exceed the bound's by much.
        let s = Settings::new(&Options { spectral: Spectral::Estimate, max_steps: 1, ..Options::default() }, 1e-6, false, "").unwrap();
        let mut state = vec![0.0; state_len(neq)];
        let mut yy = y.clone();
        let mut w = numgpu::rkc::cpu::Work::default();
        numgpu::rkc::cpu::solve(&pb, &s, 0.0, 1.0, &mut yy, &p, &[1e-6], Some(&mut state), &mut w);
        let est = state[3] / 1.2;
        assert!(est > 0.0 && bound >= est * 0.99, "{pb:?}: bound {bound} below the power method's σ {est}");
    }
}

crate::on_every_backend! {
    rkc_linear_exact => super::linear_exact;
    rkc_heat_exact => super::heat_exact;
    rkc_brusselator_reference => super::brusselator_reference;
    rkc_plei_reference => super::plei_reference;
    rkc_lorenz_ensemble_matches_cpu => super::lorenz_ensemble;
    rkc_warm_restart_ten_pieces => super::warm_restart;
    rkc_status_codes => super::status_codes;
    rkc_empty_work => super::empty_work;
    rkc_backwards => super::backwards;
    rkc_device_arrays => super::device_arrays;
    rkc_bad_arguments => super::bad_arguments;
    rkc_bad_source => super::bad_source;
    rkc_host_rhs_sees_parameters => super::host_rhs_sees_parameters;
    issue25_host_callback_anywhere => super::host_callback_anywhere;
}
