//! CPU backend: the iteration in Rust from the shared tables (monomials by the tree, then the
//! gradient's terms), rayon over (tensor, start) pairs; `sshopm_unique` rayon over tensors.

use super::{draw, Apply, Mode, Outputs, Problem, Real, Shift, Starts, Tables, UniqueOutputs, ADAPTIVE_TAU, FLAG_CONVERGED, FLAG_MAXIT, FLAG_NONFINITE, FLAG_UNDERFLOW, TYPE_MAX, TYPE_MIN, TYPE_OTHER};
use crate::core::Result;
use rayon::prelude::*;

/// One thread's scratch.
pub struct Work<T> {
    /// Monomials of degrees 0 … m − 1.
    v: Vec<T>,
    y: Vec<T>,
    xh: Vec<T>,
    /// n × n.
    h: Vec<T>,
}

impl<T: Real> Work<T> {
    pub fn new(tab: &Tables) -> Work<T> {
        Work { v: vec![T::c(0.0); tab.nmono()], y: vec![T::c(0.0); tab.n], xh: vec![T::c(0.0); tab.n], h: vec![T::c(0.0); tab.n * tab.n] }
    }
}

/// Monomials x^k of degrees 0 … d_max into v (v[0] = 1).
fn monomials<T: Real>(tab: &Tables, x: &[T], v: &mut [T], upto: usize) {
    v[0] = T::c(1.0);
    for k in 1..upto {
        v[k] = v[tab.parent[k] as usize] * x[tab.var[k] as usize];
    }
}

/// y = A·x^{m−1}.
pub fn grad<T: Real>(tab: &Tables, a: &[T], x: &[T], v: &mut [T], y: &mut [T]) {
    monomials(tab, x, v, tab.nmono());
    y.iter_mut().for_each(|e| *e = T::c(0.0));
    let n = tab.n;
    for q in 0..tab.ngrad {
        let t = T::c(tab.gw[q]) * v[tab.grad_first + q];
        for (j, yj) in y.iter_mut().enumerate() {
            *yj = *yj + a[tab.gidx[q * n + j] as usize] * t;
        }
    }
}

/// H = A·x^{m−2}, n × n full (column-major, symmetric).
pub fn hess<T: Real>(tab: &Tables, a: &[T], x: &[T], v: &mut [T], h: &mut [T]) {
    monomials(tab, x, v, tab.hess_first + tab.nhess);
    let n = tab.n;
    h.iter_mut().for_each(|e| *e = T::c(0.0));
    let np = tab.npair();
    for r in 0..tab.nhess {
        let t = T::c(tab.hw[r]) * v[tab.hess_first + r];
        let mut p = 0;
        for j in 0..n {
            for l in j..n {
                h[j + l * n] = h[j + l * n] + a[tab.hidx[r * np + p] as usize] * t;
                p += 1;
            }
        }
    }
    for j in 0..n {
        for l in j + 1..n {
            h[l + j * n] = h[j + l * n];
        }
    }
}

/// The smallest and largest eigenvalues of the symmetric n × n `h` (destroyed), by cyclic
/// Jacobi rotations until the off-diagonal part is below ε·‖h‖_F (at most 50 sweeps).
pub fn sym_extremes<T: Real>(h: &mut [T], n: usize) -> (T, T) {
    let eps = T::c(T::EPS);
    for _ in 0..50 {
        let (mut off, mut all) = (T::c(0.0), T::c(0.0));
        for q in 0..n {
            for p in 0..n {
                let e = h[p + q * n] * h[p + q * n];
                all = all + e;
                if p != q {
                    off = off + e;
                }
            }
        }
        // Also stops on NaN (no comparison holds).
        if off.partial_cmp(&(eps * eps * all)) != Some(std::cmp::Ordering::Greater) {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = h[p + q * n];
                if apq == T::c(0.0) {
                    continue;
                }
                let theta = (h[q + q * n] - h[p + p * n]) / (apq + apq);
                let t = T::c(1.0).copysign(theta) / (theta.abs1() + theta.hypot(T::c(1.0)));
                let c = T::c(1.0) / t.hypot(T::c(1.0));
                let s = t * c;
                for k in 0..n {
                    let (hp, hq) = (h[k + p * n], h[k + q * n]);
                    h[k + p * n] = c * hp - s * hq;
                    h[k + q * n] = s * hp + c * hq;
                }
                for k in 0..n {
                    let (hp, hq) = (h[p + k * n], h[q + k * n]);
                    h[p + k * n] = c * hp - s * hq;
                    h[q + k * n] = s * hp + c * hq;
                }
            }
        }
    }
    (0..n).fold((T::infinity(), T::neg_infinity()), |(lo, hi), k| (lo.min(h[k + k * n]), hi.max(h[k + k * n])))
}

/// x = xh / ‖xh‖, or the flag that stops the iteration: non-finite, or ‖xh‖∞ below the
/// smallest normal number. Scaled by ‖xh‖∞ only when the plain sum of squares would lose
/// range.
fn normalize<T: Real>(xh: &[T], x: &mut [T]) -> std::result::Result<(), i32> {
    let s2: T = xh.iter().map(|&e| e * e).sum();
    if s2.is_nan() {
        return Err(FLAG_NONFINITE);
    }
    if s2 >= T::min_positive_value() && s2.finite() {
        let inv = T::c(1.0) / s2.sqrt();
        x.iter_mut().zip(xh).for_each(|(o, &e)| *o = e * inv);
        return Ok(());
    }
    let amax = xh.iter().fold(T::c(0.0), |m, e| m.max(e.abs1()));
    if !amax.finite() {
        return Err(FLAG_NONFINITE);
    }
    if amax < T::min_positive_value() {
        return Err(FLAG_UNDERFLOW);
    }
    let s2: T = xh.iter().map(|&e| (e / amax) * (e / amax)).sum();
    let inv = T::c(1.0) / s2.sqrt();
    x.iter_mut().zip(xh).for_each(|(o, &e)| *o = (e / amax) * inv);
    Ok(())
}

/// α of SAFE for tensor `a`: (m − 1)·‖A‖_F, negated in concave mode.
pub fn safe_shift<T: Real>(tab: &Tables, a: &[T], mode: Mode) -> T {
    let f2: T = a.iter().zip(&tab.mult).map(|(&e, &c)| T::c(c) * e * e).sum();
    let s = T::c((tab.m - 1) as f64) * f2.sqrt();
    if mode == Mode::Convex {
        s
    } else {
        -s
    }
}

/// The adaptive α at x (see the module docs).
fn adaptive_shift<T: Real>(tab: &Tables, a: &[T], x: &[T], w: &mut Work<T>, mode: Mode) -> T {
    hess(tab, a, x, &mut w.v, &mut w.h);
    let (lo, hi) = sym_extremes(&mut w.h, tab.n);
    let (tau, m1) = (T::c(ADAPTIVE_TAU / tab.m as f64), T::c((tab.m - 1) as f64));
    match mode {
        Mode::Convex => (tau - m1 * lo).max(T::c(0.0)),
        Mode::Concave => (-tau - m1 * hi).min(T::c(0.0)),
    }
}

/// Iterates from the unnormalised start in `x` (left holding the last iterate); returns
/// (λ, iterations, flag).
pub fn iterate<T: Real>(p: &Problem<T>, a: &[T], safe: T, x: &mut [T], w: &mut Work<T>) -> (T, i32, i32) {
    let tab = &*p.tab;
    w.xh.copy_from_slice(x);
    if let Err(flag) = normalize(&w.xh, x) {
        // A start that cannot be normalised is kept as given, with its λ.
        grad(tab, a, x, &mut w.v, &mut w.y);
        return (x.iter().zip(&w.y).map(|(&u, &v)| u * v).sum(), 0, flag);
    }
    grad(tab, a, x, &mut w.v, &mut w.y);
    let mut lam: T = x.iter().zip(&w.y).map(|(&u, &v)| u * v).sum();
    if !lam.finite() {
        return (lam, 0, FLAG_NONFINITE);
    }
    for it in 1..=p.maxit {
        let alpha = match p.shift {
            Shift::Fixed => p.alpha,
            Shift::Safe => safe,
            Shift::Adaptive => adaptive_shift(tab, a, x, w, p.mode),
        };
        for ((h, &yj), &xj) in w.xh.iter_mut().zip(&w.y).zip(x.iter()) {
            let e = yj + alpha * xj;
            *h = if p.mode == Mode::Convex { e } else { -e };
        }
        if let Err(flag) = normalize(&w.xh, x) {
            return (lam, it, flag);
        }
        grad(tab, a, x, &mut w.v, &mut w.y);
        let next: T = x.iter().zip(&w.y).map(|(&u, &v)| u * v).sum();
        if !next.finite() {
            return (next, it, FLAG_NONFINITE);
        }
        let done = (next - lam).abs1() <= p.tol;
        lam = next;
        if done {
            return (lam, it, FLAG_CONVERGED);
        }
    }
    (lam, p.maxit, FLAG_MAXIT)
}

/// Start s of tensor t into x (unnormalised).
///
/// # Safety
/// A validated problem on host memory.
unsafe fn load_start<T: Real>(p: &Problem<T>, t: usize, s: usize, x: &mut [T]) {
    let n = p.tab.n;
    match p.starts {
        Starts::Given { x0, stride } => x.copy_from_slice(std::slice::from_raw_parts(x0.add(t * stride + s * n), n)),
        Starts::Random { seed } => {
            let g = (t * p.nstarts + s) as u64;
            x.iter_mut().enumerate().for_each(|(i, e)| *e = draw(seed, g, n, i));
        }
    }
}

/// Tensor t's entries.
///
/// # Safety
/// A validated problem on host memory.
unsafe fn tensor<T>(p: &Problem<T>, t: usize) -> &[T] {
    std::slice::from_raw_parts(p.a.add(t * p.stride_a), p.tab.u)
}

/// Pairs (tensor, start) per rayon task: about 16K multiply-adds of one iteration each.
fn per_task(tab: &Tables) -> usize {
    (16384 / (tab.ngrad * tab.n + tab.nmono()).max(1)).max(1)
}

pub fn sshopm<T: Real>(p: &Problem<T>, out: &Outputs<T>) -> Result<()> {
    let (n, ns) = (p.tab.n, p.nstarts);
    (0..p.ntensors * ns).into_par_iter().with_min_len(per_task(&p.tab)).for_each_init(
        || (Work::new(&p.tab), vec![T::c(0.0); n]),
        |(w, x), g| {
            let (t, s) = (g / ns, g % ns);
            // SAFETY: a validated call on host memory; output g is written by this task only.
            unsafe {
                let a = tensor(p, t);
                load_start(p, t, s, x);
                let safe = if p.shift == Shift::Safe { safe_shift(&p.tab, a, p.mode) } else { T::c(0.0) };
                let (lam, it, flag) = iterate(p, a, safe, x, w);
                *out.lambda.add(g) = lam;
                std::ptr::copy_nonoverlapping(x.as_ptr(), out.x.add(g * n), n);
                *out.iters.add(g) = it;
                *out.flags.add(g) = flag;
            }
        },
    );
    Ok(())
}

/// Whether two converged results are one eigenpair (see `sshopm_unique`).
pub fn same_pair<T: Real>(m: usize, tol: T, la: T, xa: &[T], lb: T, xb: &[T]) -> bool {
    if (la - lb).abs1() > tol * la.abs1().max(T::c(1.0)) {
        return false;
    }
    let dist = |sign: T| xa.iter().zip(xb).fold(T::c(0.0), |d, (&u, &v)| d.max((u - sign * v).abs1()));
    dist(T::c(1.0)) <= tol || (m % 2 == 0 && dist(-T::c(1.0)) <= tol)
}

/// The type of the eigenpair (λ, x), x a unit vector: from the extreme eigenvalues of
/// P·H·P ∓ c·x·xᵀ, H = (m−1)·A·x^{m−2} − λ·I, P = I − x·xᵀ, c = 1 + ‖H‖_F (the ∓ c·x·xᵀ moves
/// the eigenvalue of x out of the way).
pub fn pair_type<T: Real>(tab: &Tables, a: &[T], lam: T, x: &[T], w: &mut Work<T>) -> i32 {
    let n = tab.n;
    hess(tab, a, x, &mut w.v, &mut w.h);
    let m1 = T::c((tab.m - 1) as f64);
    let mut hm: Vec<T> = w.h.iter().map(|&e| m1 * e).collect();
    (0..n).for_each(|k| hm[k + k * n] = hm[k + k * n] - lam);
    // hx = H·x, xhx = xᵀ·H·x; P·H·P = H − x·hxᵀ − hx·xᵀ + xhx·x·xᵀ.
    let hx: Vec<T> = (0..n).map(|i| (0..n).map(|k| hm[i + k * n] * x[k]).sum()).collect();
    let xhx: T = x.iter().zip(&hx).map(|(&u, &v)| u * v).sum();
    let norm: T = hm.iter().map(|&e| e * e).sum::<T>().sqrt();
    let c = T::c(1.0) + norm;
    let thr = T::c(T::EPS.sqrt()) * c;
    let pro = |sign: T, out: &mut [T]| {
        for j in 0..n {
            for i in 0..n {
                out[i + j * n] = hm[i + j * n] - x[i] * hx[j] - hx[i] * x[j] + (xhx + sign * c) * x[i] * x[j];
            }
        }
    };
    pro(-T::c(1.0), &mut w.h);
    if sym_extremes(&mut w.h, n).1 < -thr {
        return TYPE_MAX;
    }
    pro(T::c(1.0), &mut w.h);
    if sym_extremes(&mut w.h, n).0 > thr {
        return TYPE_MIN;
    }
    TYPE_OTHER
}

/// Clusters one tensor's converged results: (first start, starts) per distinct pair, in order
/// of discovery, then the kmax kept in storage order (see `sshopm_unique`).
pub fn clusters<T: Real>(m: usize, n: usize, tol: T, lam: &[T], x: &[T], flags: &[i32], kmax: usize) -> Vec<(usize, i32)> {
    let mut found: Vec<(usize, i32)> = Vec::new();
    for s in (0..lam.len()).filter(|&s| flags[s] == FLAG_CONVERGED) {
        match found.iter_mut().find(|(r, _)| same_pair(m, tol, lam[*r], &x[r * n..(r + 1) * n], lam[s], &x[s * n..(s + 1) * n])) {
            Some(c) => c.1 += 1,
            None => found.push((s, 1)),
        }
    }
    // Most starts first (stable: ties keep discovery order), then the kept by decreasing λ.
    found.sort_by_key(|c| std::cmp::Reverse(c.1));
    found.truncate(kmax);
    found.sort_by(|a, b| lam[b.0].partial_cmp(&lam[a.0]).unwrap_or(std::cmp::Ordering::Equal));
    found
}

pub fn sshopm_unique<T: Real>(p: &Problem<T>, out: &UniqueOutputs<T>) -> Result<()> {
    let (n, ns, k) = (p.tab.n, p.nstarts, out.kmax);
    (0..p.ntensors).into_par_iter().for_each_init(
        || (Work::new(&p.tab), vec![T::c(0.0); ns], vec![T::c(0.0); ns * n], vec![0i32; ns]),
        |(w, lam, xs, flags), t| {
            // SAFETY: a validated call on host memory; tensor t's slots are written by this
            // task only.
            unsafe {
                let a = tensor(p, t);
                let safe = if p.shift == Shift::Safe { safe_shift(&p.tab, a, p.mode) } else { T::c(0.0) };
                for s in 0..ns {
                    let x = &mut xs[s * n..(s + 1) * n];
                    load_start(p, t, s, x);
                    let (l, _, f) = iterate(p, a, safe, x, w);
                    lam[s] = l;
                    flags[s] = f;
                }
                let kept = clusters(p.tab.m, n, out.merge_tol, lam, xs, flags, k);
                *out.count.add(t) = kept.len() as i32;
                for slot in 0..k {
                    let o = t * k + slot;
                    let xo = std::slice::from_raw_parts_mut(out.x.add(o * n), n);
                    match kept.get(slot) {
                        Some(&(r, c)) => {
                            let xr = &xs[r * n..(r + 1) * n];
                            *out.lambda.add(o) = lam[r];
                            xo.copy_from_slice(xr);
                            *out.mult.add(o) = c;
                            *out.kind.add(o) = pair_type(&p.tab, a, lam[r], xr, w);
                        }
                        None => {
                            *out.lambda.add(o) = T::nan();
                            xo.iter_mut().for_each(|e| *e = T::nan());
                            *out.mult.add(o) = 0;
                            *out.kind.add(o) = TYPE_OTHER;
                        }
                    }
                }
            }
        },
    );
    Ok(())
}

pub fn sym_apply<T: Real>(ap: &Apply<T>) -> Result<()> {
    let (tab, n, len) = (&*ap.tab, ap.tab.n, ap.out_len());
    (0..ap.ntensors).into_par_iter().with_min_len(per_task(tab)).for_each_init(
        || Work::new(tab),
        |w, t| {
            // SAFETY: a validated call on host memory; output t is written by this task only
            // (strideY >= its length).
            unsafe {
                let a = std::slice::from_raw_parts(ap.a.add(t * ap.stride_a), tab.u);
                let x = std::slice::from_raw_parts(ap.x.add(t * ap.stride_x), n);
                let y = std::slice::from_raw_parts_mut(ap.y.add(t * ap.stride_y), len);
                match ap.p {
                    0 => {
                        grad(tab, a, x, &mut w.v, &mut w.y);
                        y[0] = x.iter().zip(&w.y).map(|(&u, &v)| u * v).sum();
                    }
                    1 => grad(tab, a, x, &mut w.v, y),
                    _ => hess(tab, a, x, &mut w.v, y),
                }
            }
        },
    );
    Ok(())
}
