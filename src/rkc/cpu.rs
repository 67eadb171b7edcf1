//! CPU backend: the integrator of the module docs in Rust, one system at a time on copies of
//! its state and parameters (gathered from either layout), rayon over the systems, the
//! right-hand side from the host callback or the built-in problem. `kernels/rkc.cu` is the
//! same code for one GPU thread, statement for statement.

use super::{numgpu_rkc_stat, state_len, stats_len, Host, Integrate, Method, Settings};
use crate::core::handle::numgpu_backend;
use crate::core::{Error, Result};
use rayon::prelude::*;

/// A right-hand side on the host.
pub trait Rhs: Sync {
    /// `dydt = f(t, y; p)`.
    fn f(&self, t: f64, y: &[f64], p: &[f64], dydt: &mut [f64]);
    /// A bound on the spectral radius of ∂f/∂y, when the problem has one.
    fn spcrad(&self, t: f64, y: &[f64], p: &[f64]) -> Option<f64>;
}

impl Rhs for super::Callbacks {
    fn f(&self, t: f64, y: &[f64], p: &[f64], dydt: &mut [f64]) {
        // SAFETY: the callback is documented to read neq values of y and npar of p and write
        // neq of dydt; p is an empty slice's dangling pointer only when npar = 0.
        unsafe { (self.rhs)(t, y.as_ptr(), p.as_ptr(), dydt.as_mut_ptr(), y.len() as i64, self.user) }
    }
    fn spcrad(&self, t: f64, y: &[f64], p: &[f64]) -> Option<f64> {
        // SAFETY: as above.
        self.spcrad.map(|s| unsafe { s(t, y.as_ptr(), p.as_ptr(), y.len() as i64, self.user) })
    }
}

/// One system's working vectors, reused by the systems of a rayon task.
#[derive(Default)]
pub struct Work {
    yn: Vec<f64>,
    fn_: Vec<f64>,
    y: Vec<f64>,
    a: Vec<f64>,
    b: Vec<f64>,
    ev: Vec<f64>,
    k: [Vec<f64>; 4],
}

impl Work {
    fn resize(&mut self, n: usize) {
        for v in [&mut self.yn, &mut self.fn_, &mut self.y, &mut self.a, &mut self.b, &mut self.ev].into_iter().chain(self.k.iter_mut()) {
            v.clear();
            v.resize(n, 0.0);
        }
    }
}

/// Statistics of one system: RHS evaluations, steps, accepted, rejected, RHS evaluations of
/// the power method, most stages (the first six entries of [`numgpu_rkc_stat`]).
pub type Stats = [i64; 6];

const UROUND: f64 = f64::EPSILON;

fn all_finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// rkc.f's `rkcrho`: the nonlinear power method for σ at (t, yn), fn = f(t, yn); `v` and `fv`
/// are scratch, `ev` the eigenvector guess in and out (`use_ev`: else fn is the guess).
/// None when 50 iterations do not converge.
#[allow(clippy::too_many_arguments)]
fn rho<R: Rhs + ?Sized>(rhs: &R, t: f64, yn: &[f64], fn_: &[f64], p: &[f64], v: &mut [f64], fv: &mut [f64], ev: &mut [f64], use_ev: bool, hmax: f64, st: &mut Stats) -> Option<f64> {
    let n = yn.len();
    let small = 1.0 / hmax;
    v.copy_from_slice(if use_ev { ev } else { fn_ });
    let (ynrm, vnrm) = (norm2(yn), norm2(v));
    let sqrtu = UROUND.sqrt();
    let dynrm;
    if ynrm != 0.0 && vnrm != 0.0 {
        dynrm = ynrm * sqrtu;
        (0..n).for_each(|i| v[i] = yn[i] + v[i] * (dynrm / vnrm));
    } else if ynrm != 0.0 {
        dynrm = ynrm * sqrtu;
        (0..n).for_each(|i| v[i] = yn[i] + yn[i] * sqrtu);
    } else if vnrm != 0.0 {
        dynrm = UROUND;
        (0..n).for_each(|i| v[i] *= dynrm / vnrm);
    } else {
        dynrm = UROUND;
        v.fill(dynrm);
    }
    let mut sigma = 0.0;
    for iter in 1..=50 {
        rhs.f(t, v, p, fv);
        st[4] += 1;
        let dfnrm = (0..n).map(|i| (fv[i] - fn_[i]) * (fv[i] - fn_[i])).sum::<f64>().sqrt();
        let sigmal = sigma;
        sigma = dfnrm / dynrm;
        if iter >= 2 && (sigma - sigmal).abs() <= sigma.max(small) * 0.01 {
            (0..n).for_each(|i| ev[i] = v[i] - yn[i]);
            return Some(1.2 * sigma);
        }
        if dfnrm != 0.0 {
            (0..n).for_each(|i| v[i] = yn[i] + (fv[i] - fn_[i]) * (dynrm / dfnrm));
        } else {
            // v degenerated to yn: perturb the guess by flipping one component.
            let k = iter % n;
            v[k] = yn[k] - (v[k] - yn[k]);
        }
    }
    None
}

/// rkc.f's `step`: y = the RKC step of size h with m stages from (t, yn), fn = f(t, yn);
/// `yjm1`, `yjm2` scratch.
#[allow(clippy::too_many_arguments)]
fn rkc_step<R: Rhs + ?Sized>(rhs: &R, t: f64, yn: &[f64], fn_: &[f64], p: &[f64], h: f64, m: usize, y: &mut [f64], yjm1: &mut [f64], yjm2: &mut [f64]) {
    let n = yn.len();
    let mf = m as f64;
    let w0 = 1.0 + 2.0 / (13.0 * mf * mf);
    let temp1 = w0 * w0 - 1.0;
    let temp2 = temp1.sqrt();
    let arg = mf * (w0 + temp2).ln();
    let w1 = arg.sinh() * temp1 / (arg.cosh() * mf * temp2 - w0 * arg.sinh());
    let mut bjm1 = 1.0 / ((2.0 * w0) * (2.0 * w0));
    let mut bjm2 = bjm1;
    yjm2.copy_from_slice(yn);
    let mus = w1 * bjm1;
    (0..n).for_each(|i| yjm1[i] = yn[i] + h * mus * fn_[i]);
    let (mut thjm2, mut thjm1) = (0.0, mus);
    let (mut zjm1, mut zjm2, mut dzjm1, mut dzjm2, mut d2zjm1, mut d2zjm2) = (w0, 1.0, 1.0, 0.0, 0.0, 0.0);
    for j in 2..=m {
        let zj = 2.0 * w0 * zjm1 - zjm2;
        let dzj = 2.0 * w0 * dzjm1 - dzjm2 + 2.0 * zjm1;
        let d2zj = 2.0 * w0 * d2zjm1 - d2zjm2 + 4.0 * dzjm1;
        let bj = d2zj / (dzj * dzj);
        let ajm1 = 1.0 - zjm1 * bjm1;
        let mu = 2.0 * w0 * bj / bjm1;
        let nu = -bj / bjm2;
        let mus = mu * w1 / w0;
        rhs.f(t + h * thjm1, yjm1, p, y);
        (0..n).for_each(|i| y[i] = mu * yjm1[i] + nu * yjm2[i] + (1.0 - mu - nu) * yn[i] + h * mus * (y[i] - ajm1 * fn_[i]));
        let thj = mu * thjm1 + nu * thjm2 + mus * (1.0 - ajm1);
        if j < m {
            yjm2.copy_from_slice(yjm1);
            yjm1.copy_from_slice(y);
            (thjm2, thjm1) = (thjm1, thj);
            (bjm2, bjm1) = (bjm1, bj);
            (zjm2, zjm1) = (zjm1, zj);
            (dzjm2, dzjm1) = (dzjm1, dzj);
            (d2zjm2, d2zjm1) = (d2zjm1, d2zj);
        }
    }
}

/// Cash–Karp's tableau (Press et al., `rkck`): nodes, stage weights, 5th-order weights and
/// the differences to the 4th-order ones.
const CK_A: [f64; 5] = [0.2, 0.3, 0.6, 1.0, 0.875];
const CK_B: [[f64; 5]; 5] = [
    [0.2, 0.0, 0.0, 0.0, 0.0],
    [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0],
    [0.3, -0.9, 1.2, 0.0, 0.0],
    [-11.0 / 54.0, 2.5, -70.0 / 27.0, 35.0 / 27.0, 0.0],
    [1631.0 / 55296.0, 175.0 / 512.0, 575.0 / 13824.0, 44275.0 / 110592.0, 253.0 / 4096.0],
];
const CK_C: [f64; 6] = [37.0 / 378.0, 0.0, 250.0 / 621.0, 125.0 / 594.0, 0.0, 512.0 / 1771.0];
const CK_DC: [f64; 6] = [37.0 / 378.0 - 2825.0 / 27648.0, 0.0, 250.0 / 621.0 - 18575.0 / 48384.0, 125.0 / 594.0 - 13525.0 / 55296.0, -277.0 / 14336.0, 512.0 / 1771.0 - 0.25];

/// The Cash–Karp step of size h from (t, yn), k[0] = fn = f(t, yn): y the 5th-order solution,
/// `err` its difference from the 4th-order one; `tmp` and `ks` (k2…k6) scratch.
#[allow(clippy::too_many_arguments)]
fn rkck_step<R: Rhs + ?Sized>(rhs: &R, t: f64, yn: &[f64], fn_: &[f64], p: &[f64], h: f64, y: &mut [f64], err: &mut [f64], tmp: &mut [f64], ks: &mut [Vec<f64>; 4]) {
    let n = yn.len();
    // k2 goes to `err`, which the error needs only once k2 is no longer read.
    for s in 1..6 {
        let b = &CK_B[s - 1];
        for i in 0..n {
            let mut acc = b[0] * fn_[i];
            for (r, &br) in b.iter().enumerate().take(s).skip(1) {
                acc += br * stage(r, err, ks)[i];
            }
            tmp[i] = yn[i] + h * acc;
        }
        let out: &mut [f64] = if s == 1 { err } else { &mut ks[s - 2] };
        rhs.f(t + CK_A[s - 1] * h, tmp, p, out);
    }
    for i in 0..n {
        let k = |r: usize| if r == 0 { fn_[i] } else { stage(r, err, ks)[i] };
        y[i] = yn[i] + h * (CK_C[0] * k(0) + CK_C[2] * k(2) + CK_C[3] * k(3) + CK_C[5] * k(5));
        tmp[i] = h * (CK_DC[0] * k(0) + CK_DC[2] * k(2) + CK_DC[3] * k(3) + CK_DC[4] * k(4) + CK_DC[5] * k(5));
    }
    err.copy_from_slice(tmp);
}

/// Stage r (1-based beyond k1: 1 = k2 in `k2`, 2…5 = k3…k6 in `ks`).
fn stage<'a>(r: usize, k2: &'a [f64], ks: &'a [Vec<f64>; 4]) -> &'a [f64] {
    if r == 1 {
        k2
    } else {
        &ks[r - 2]
    }
}

/// Integrates one system from t0 to tend (see the module docs): `y` in/out, `state` (its
/// [`state_len`] doubles) in/out when given. Returns the status and the statistics.
#[allow(clippy::too_many_arguments)]
pub fn solve<R: Rhs + ?Sized>(rhs: &R, s: &Settings, t0: f64, tend: f64, y: &mut [f64], p: &[f64], atol: &[f64], state: Option<&mut [f64]>, w: &mut Work) -> (i32, Stats) {
    let n = y.len();
    let mut st: Stats = [0; 6];
    if t0 == tend {
        return (0, st);
    }
    w.resize(n);
    let at = |i: usize| if atol.len() == 1 { atol[0] } else { atol[i] };
    let tdir = if tend > t0 { 1.0 } else { -1.0 };
    let span = (tend - t0).abs();
    let hmax = if s.hmax > 0.0 { s.hmax.min(span) } else { span };
    let mut hmin = 10.0 * UROUND * t0.abs().max(span);
    let rkc = s.method == Method::Rkc;

    let warm = state.as_ref().is_some_and(|x| x[0] > 0.0);
    let (mut absh, mut hold, mut errold, mut sprad, mut nstsig, mut accepted) = (0.0, 0.0, 0.0, 0.0, 0u32, 0u64);
    if let (true, Some(x)) = (warm, state.as_ref()) {
        (absh, hold, errold, sprad, nstsig, accepted) = (x[0].min(hmax), x[1], x[2], x[3], x[4] as u32, x[5] as u64);
        w.ev.copy_from_slice(&x[6..6 + n]);
    }
    let mut t = t0;
    w.yn.copy_from_slice(y);
    rhs.f(t, &w.yn, p, &mut w.fn_);
    st[0] += 1;

    let status = 'run: {
        if !all_finite(&w.yn) || !all_finite(&w.fn_) {
            break 'run 4;
        }
        let mut newspc = rkc && (!warm || sprad <= 0.0 || (s.user_sigma && !s.constant));
        let mut jacatt = false;
        loop {
            if newspc {
                if s.user_sigma {
                    sprad = rhs.spcrad(t, &w.yn, p).unwrap_or(f64::NAN);
                } else {
                    let use_ev = warm || st[1] > 0;
                    match rho(rhs, t, &w.yn, &w.fn_, p, &mut w.a, &mut w.b, &mut w.ev, use_ev, hmax, &mut st) {
                        Some(v) => sprad = v,
                        None => break 'run 3,
                    }
                }
                if !sprad.is_finite() {
                    break 'run 4;
                }
                jacatt = true;
            }
            if absh == 0.0 {
                if s.h0 > 0.0 {
                    absh = s.h0.min(hmax);
                } else {
                    absh = hmax;
                    if sprad * absh > 1.0 {
                        absh = 1.0 / sprad;
                    }
                    absh = absh.max(hmin);
                    (0..n).for_each(|i| w.a[i] = w.yn[i] + absh * w.fn_[i]);
                    rhs.f(t + tdir * absh, &w.a, p, &mut w.b);
                    st[0] += 1;
                    let mut est = 0.0;
                    for i in 0..n {
                        let wt = at(i) + s.rtol * w.yn[i].abs();
                        if wt == 0.0 {
                            break 'run 5;
                        }
                        est += ((w.b[i] - w.fn_[i]) / wt).powi(2);
                    }
                    est = absh * (est / n as f64).sqrt();
                    if 0.1 * absh < hmax * est.sqrt() {
                        absh = (0.1 * absh / est.sqrt()).max(hmin);
                    } else {
                        absh = hmax;
                    }
                }
            }
            let mut last = false;
            if 1.1 * absh >= (tend - t).abs() {
                absh = (tend - t).abs();
                last = true;
            }
            let m = if rkc {
                let mut m = 1 + (1.54 * absh * sprad + 1.0).sqrt() as usize;
                if m > s.mmax {
                    m = s.mmax;
                    absh = ((m * m) as f64 - 1.0) / (1.54 * sprad);
                    last = false;
                    if absh < hmin {
                        break 'run 1;
                    }
                }
                m
            } else {
                6
            };
            st[5] = st[5].max(m as i64);
            let h = tdir * absh;
            hmin = 10.0 * UROUND * t.abs().max((t + h).abs());
            if rkc {
                rkc_step(rhs, t, &w.yn, &w.fn_, p, h, m, &mut w.y, &mut w.a, &mut w.b);
            } else {
                rkck_step(rhs, t, &w.yn, &w.fn_, p, h, &mut w.y, &mut w.b, &mut w.a, &mut w.k);
            }
            let tnew = if last { tend } else { t + h };
            rhs.f(tnew, &w.y, p, &mut w.a);
            st[0] += m as i64;
            st[1] += 1;
            let mut err = 0.0;
            for i in 0..n {
                let wt = at(i) + s.rtol * w.y[i].abs().max(w.yn[i].abs());
                if wt == 0.0 {
                    break 'run 5;
                }
                let est = if rkc { 0.8 * (w.yn[i] - w.y[i]) + 0.4 * h * (w.fn_[i] + w.a[i]) } else { w.b[i] };
                err += (est / wt) * (est / wt);
            }
            err = (err / n as f64).sqrt();
            // A NaN error is a rejection.
            if err.is_nan() || err > 1.0 {
                st[3] += 1;
                let finite = err.is_finite();
                absh = match (finite, rkc) {
                    (false, _) => 0.1 * absh,
                    (true, true) => 0.8 * absh / err.cbrt(),
                    (true, false) => absh * (0.9 * err.powf(-0.25)).max(0.1),
                };
                if absh < hmin {
                    break 'run if finite { 1 } else { 4 };
                }
                newspc = rkc && !jacatt;
                if st[1] as u64 >= s.max_steps {
                    break 'run 2;
                }
                continue;
            }
            st[2] += 1;
            accepted += 1;
            t = tnew;
            jacatt = s.constant;
            nstsig = (nstsig + 1) % 25;
            newspc = rkc && (s.user_sigma || nstsig == 0) && !jacatt;
            std::mem::swap(&mut w.yn, &mut w.y);
            std::mem::swap(&mut w.fn_, &mut w.a);
            let fac = if rkc {
                let mut fac = 10.0;
                if accepted == 1 {
                    let temp2 = err.cbrt();
                    if 0.8 < fac * temp2 {
                        fac = 0.8 / temp2;
                    }
                } else {
                    let temp1 = 0.8 * absh * errold.cbrt();
                    let temp2 = hold.abs() * (err * err).cbrt();
                    if temp1 < fac * temp2 {
                        fac = temp1 / temp2;
                    }
                }
                fac.max(0.1)
            } else if err > 1.89e-4 {
                (0.9 * err.powf(-0.2)).min(5.0)
            } else {
                5.0
            };
            absh = hmin.max(hmax.min(fac * absh));
            errold = err;
            hold = h;
            if last {
                break 'run 0;
            }
            if st[1] as u64 >= s.max_steps {
                break 'run 2;
            }
        }
    };
    y.copy_from_slice(&w.yn);
    if let Some(x) = state {
        x[..6].copy_from_slice(&[absh, hold, errold, sprad, nstsig as f64, accepted as f64]);
        x[6..6 + n].copy_from_slice(&w.ev);
    }
    (status, st)
}

/// The host form of a call's right-hand side, or `NOT_SUPPORTED` when the ODE has none.
fn host_rhs<'a>(c: &Integrate<'a>) -> Result<&'a dyn Rhs> {
    let ode: &'a super::Ode = c.ode;
    match &ode.host {
        Host::Callback(cb) => Ok(cb),
        Host::Builtin(b) => Ok(b),
        Host::None => Err(Error::not_supported("the ODE has no host right-hand side (host_rhs was NULL at numgpu_ode_create), which the CPU backend needs")),
    }
}

/// Systems per rayon task: enough that a task is not dominated by scheduling.
fn per_task(neq: usize) -> usize {
    (256 / neq).max(1)
}

/// The CPU backend: every system by [`solve`], rayon over the systems.
pub fn integrate(c: &Integrate) -> Result<()> {
    let rhs = host_rhs(c)?;
    let has_spcrad = match &c.ode.host {
        Host::Callback(cb) => cb.spcrad.is_some(),
        Host::Builtin(b) => b.has_spcrad(),
        Host::None => false,
    };
    let s = Settings::new(&c.opts, c.rtol, has_spcrad, "the ODE has no host spectral-radius function (host_spcrad was NULL)")?;
    let (neq, npar) = (c.ode.neq, c.ode.npar);
    let (ye, ys) = c.layout.steps(c.ldy);
    let (pe, ps) = c.layout.steps(c.ldp);
    let sl = state_len(neq);
    // SAFETY: atol holds natol values (validated call).
    let atol = unsafe { std::slice::from_raw_parts(c.atol, c.natol) };
    (0..c.nsys).into_par_iter().with_min_len(per_task(neq)).for_each_init(
        || (Work::default(), vec![0.0; neq], vec![0.0; npar]),
        |(w, y, p), i| {
            // SAFETY: a validated call on host memory; task i reads and writes system i's
            // values only (distinct offsets by the checked leading dimensions).
            unsafe {
                (0..neq).for_each(|j| y[j] = *c.y.add(j * ye + i * ys));
                (0..npar).for_each(|k| p[k] = *c.p.add(k * pe + i * ps));
                let state = (!c.state.is_null()).then(|| std::slice::from_raw_parts_mut(c.state.add(i * sl), sl));
                let (status, st) = solve(rhs, &s, c.t0, c.tend, y, p, atol, state, w);
                (0..neq).for_each(|j| *c.y.add(j * ye + i * ys) = y[j]);
                *c.status.add(i) = status;
                if !c.stats.is_null() {
                    let out = c.stats.add(i * stats_len());
                    std::ptr::copy_nonoverlapping(st.as_ptr(), out, st.len());
                    *out.add(numgpu_rkc_stat::NUMGPU_RKC_STAT_BACKEND as usize) = numgpu_backend::NUMGPU_BACKEND_CPU as i64;
                }
            }
        },
    );
    Ok(())
}
