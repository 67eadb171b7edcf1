//! ODE problems and their reference solutions (rkc: RKC and RKCK over many systems): a linear
//! system with a forcing term and the semi-discretised heat equation, both with exact
//! solutions; diffusion with cubic decay on a chain, written as a user would (CUDA source and
//! host function); PLEI's published values at t = 3; a tight-tolerance reference (RKCK at
//! 1e-12 on the CPU backend); and the error measure, per system ‖y − y_ref‖∞ / (atol +
//! rtol·‖y_ref‖∞), in units of the local tolerance (norm-wise: a component passing through
//! zero does not inflate it).

use crate::rkc::{rkc_integrate_slices, Callbacks, Layout, Method, Ode, Options};
use crate::Handle;
use std::ffi::c_void;

/// y' = A·(y − g(t)) + g'(t), g = (sin t, cos t), A = [p0 p1; p2 p3] (four parameters per
/// system), exact y = g + e^{At}·(y0 − g(0)); its CUDA form.
pub const LINEAR_CU: &str = r#"
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    const double d0 = y[0] - sin(t), d1 = y[1] - cos(t);
    f[0] = p[0] * d0 + p[1] * d1 + cos(t);
    f[1] = p[2] * d0 + p[3] * d1 - sin(t);
}
"#;

/// The linear problem's host form.
///
/// # Safety
/// `y` and `f` hold 2 values, `p` 4.
pub unsafe extern "C" fn linear_rhs(t: f64, y: *const f64, p: *const f64, f: *mut f64, _neq: i64, _user: *mut c_void) {
    let (y, p, f) = (std::slice::from_raw_parts(y, 2), std::slice::from_raw_parts(p, 4), std::slice::from_raw_parts_mut(f, 2));
    let (d0, d1) = (y[0] - t.sin(), y[1] - t.cos());
    f[0] = p[0] * d0 + p[1] * d1 + t.cos();
    f[1] = p[2] * d0 + p[3] * d1 - t.sin();
}

/// The linear problem's host callbacks.
pub fn linear_callbacks() -> Callbacks {
    Callbacks { rhs: linear_rhs, spcrad: None, user: std::ptr::null_mut() }
}

/// The linear problem on `h`, in both forms.
pub fn linear(h: &mut Handle) -> Ode {
    Ode::create(h, 2, 4, Some(LINEAR_CU), Some(linear_callbacks())).expect("the linear ODE")
}

/// The linear problem's exact solution at t for a diagonal A = diag(a0, a3) from y0.
pub fn linear_exact(a0: f64, a3: f64, y0: &[f64], t: f64) -> [f64; 2] {
    [t.sin() + (y0[0] - 0.0) * (a0 * t).exp(), t.cos() + (y0[1] - 1.0) * (a3 * t).exp()]
}

/// The semi-discretised heat equation (n interior points of [0, 1], coefficient `d`) from a
/// sum of sine modes `(m, amplitude)`, exact at the semi-discrete level: each mode decays with
/// its eigenvalue 4·d·(n + 1)²·sin²(mπ / (2(n + 1))). At t = 0, the initial values.
pub fn heat_modes(n: usize, modes: &[(f64, f64)], d: f64, t: f64) -> Vec<f64> {
    let pi = std::f64::consts::PI;
    let lam = |m: f64| 4.0 * d * ((n + 1) * (n + 1)) as f64 * (m * pi / (2.0 * (n + 1) as f64)).sin().powi(2);
    (0..n)
        .map(|k| {
            let x = (k + 1) as f64 / (n + 1) as f64;
            modes.iter().map(|&(m, amp)| amp * (m * pi * x).sin() * (-lam(m) * t).exp()).sum()
        })
        .collect()
}

/// Diffusion with cubic decay on a chain, written by a user: u_k' = D(N+1)²(u_{k−1} − 2u_k +
/// u_{k+1}) − r·u_k³, u = 1 left of the chain and 0 right of it, p = (D, r); the CUDA form.
pub const DECAY_CU: &str = r#"
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    const double c = p[0] * (double)((NEQ + 1) * (NEQ + 1));
    for (int k = 0; k < NEQ; ++k) {
        const double l = k > 0 ? y[k - 1] : 1.0, r = k + 1 < NEQ ? y[k + 1] : 0.0;
        f[k] = c * (l - 2.0 * y[k] + r) - p[1] * y[k] * y[k] * y[k];
    }
}
"#;

/// The decay problem's host form.
///
/// # Safety
/// `y` and `f` hold `neq` values, `p` 2.
pub unsafe extern "C" fn decay_rhs(_t: f64, y: *const f64, p: *const f64, f: *mut f64, neq: i64, _user: *mut c_void) {
    let n = neq as usize;
    let (y, p, f) = (std::slice::from_raw_parts(y, n), std::slice::from_raw_parts(p, 2), std::slice::from_raw_parts_mut(f, n));
    let c = p[0] * ((n + 1) * (n + 1)) as f64;
    for k in 0..n {
        let (l, r) = (if k > 0 { y[k - 1] } else { 1.0 }, if k + 1 < n { y[k + 1] } else { 0.0 });
        f[k] = c * (l - 2.0 * y[k] + r) - p[1] * y[k] * y[k] * y[k];
    }
}

/// The decay problem of `neq` equations on `h`, in both forms.
pub fn decay(h: &mut Handle, neq: usize) -> crate::Result<Ode> {
    Ode::create(h, neq as i64, 2, Some(DECAY_CU), Some(Callbacks { rhs: decay_rhs, spcrad: None, user: std::ptr::null_mut() }))
}

/// PLEI's values at t = 3 (Hairer–Wanner's test set, `plei.pdf`): positions x1…x7, y1…y7,
/// then velocities.
// The digits as published, beyond what a double holds.
#[allow(clippy::excessive_precision)]
pub const PLEI_AT_3: [f64; 28] = [
    0.3706139143970502,
    0.3237284092057233e1,
    -0.3222559032418324e1,
    0.6597091455775310,
    0.3425581707156584,
    0.1562172101400631e1,
    -0.7003092922212495,
    -0.3943437585517392e1,
    -0.3271380973972550e1,
    0.5225081843456543e1,
    -0.2590612434977470e1,
    0.1198213693392275e1,
    -0.2429682344935824,
    0.1091449240428980e1,
    0.3417003806314313e1,
    0.1354584501625501e1,
    -0.2590065597810775e1,
    0.2025053734714242e1,
    -0.1155815100160448e1,
    -0.8072988170223021,
    0.5952396354208710,
    -0.3741244961234010e1,
    0.3773459685750630,
    0.9386858869551073,
    0.3667922227200571,
    -0.3474046353808490,
    0.2344915448180937e1,
    -0.1947020434263292e1,
];

/// ‖y − r‖∞ / (atol + rtol·‖r‖∞) of one system; +∞ when y has a NaN.
pub fn weighted_error(y: &[f64], r: &[f64], rtol: f64, atol: f64) -> f64 {
    let rn = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    y.iter().zip(r).map(|(a, b)| (a - b).abs() / (atol + rtol * rn)).fold(0.0, |m, e| if e.is_nan() { f64::INFINITY } else { m.max(e) })
}

/// The worst [`weighted_error`] over the systems of `neq` values each, one after the other.
pub fn worst_weighted_error(y: &[f64], r: &[f64], neq: usize, rtol: f64, atol: f64) -> f64 {
    y.chunks(neq).zip(r.chunks(neq)).map(|(a, b)| weighted_error(a, b, rtol, atol)).fold(0.0, f64::max)
}

/// The tight reference of systems y0 (system after system, parameters `p` likewise): RKCK at
/// rtol = atol = 1e-12 on the CPU backend; an error when a system does not reach tend.
pub fn reference(ode: &Ode, t0: f64, tend: f64, y0: &[f64], p: &[f64]) -> Result<Vec<f64>, String> {
    let (neq, nsys) = (ode.neq(), y0.len() / ode.neq());
    let mut y = y0.to_vec();
    let mut status = vec![-7; nsys];
    let o = Options { method: Method::Rkck, ..Options::default() };
    rkc_integrate_slices(&mut Handle::cpu(), ode, nsys as i64, t0, tend, &mut y, neq as i64, Layout::SystemMajor, p, ode.npar().max(1) as i64, 1e-12, &[1e-12], o, None, &mut status, None).map_err(|e| e.msg)?;
    if status.iter().any(|&s| s != 0) {
        return Err(format!("reference status {status:?}"));
    }
    Ok(y)
}
