//! sshopm (tensor eigenpairs by SS-HOPM), per real precision, with the oracle's tensors
//! (`numgpu::testing::tensor`): Kofidis and Regalia's tensor ×1024 with 128 shared random
//! starts (the paper's setup): every start converges (≠cpu counts those that do not);
//! err/ref = starts whose λ is not within 1e-4 of a known local maximum (one that stops near
//! a saddle point, where λ moves by less than tol per step), per mille; err/cpu = starts that
//! reach another maximum than on the CPU backend, per mille. A synthetic brain slice (64 × 64
//! voxels, m = 6, n = 3: one fibre, or two crossing at right angles, in directions that turn
//! across the slice, weights 1 and 0.6): `sshopm_unique` per voxel from 32 starts, the local
//! maxima with λ above a fifth of the largest are the fibres found; ≠cpu counts the voxels
//! with another number of fibres than they hold, err/ref = the largest angle between a fibre
//! found and the true one in units of 0.1°, err/cpu the same against the CPU backend's
//! fibres. `sym_apply` (A·x^{m−1} on random tensors) against the CPU backend, and
//! `sym_pack(sym_unpack(a))` = a, in units of ε.

use crate::{measure, Row, Rows};
use numgpu::sshopm::{self as eig, Real};
use numgpu::testing::gen::filled;
use numgpu::testing::norm::nan_max;
use numgpu::testing::tensor::{axis_angle, fibres, sum_of_powers, KR, KR_MAX};
use numgpu::testing::tol::sshopm_tol;
use numgpu::Handle;

/// The legend of this family's rows, printed above the table.
pub const LEGEND: &str = "sshopm: K&R ×1024 (128 starts): err/ref starts not within 1e-4 of a known maximum (per mille), err/cpu starts reaching another maximum than on the CPU backend (per mille), ≠cpu starts not converged; brain slice (sshopm_unique, 64×64 voxels of one or two fibres): ≠cpu voxels with a wrong fibre count, err/ref and err/cpu the largest fibre angle error (0.1° units) against the truth and the CPU backend; sym_apply vs the CPU backend and pack(unpack(a)) − a (ε units); GFLOP/s at the specialised kernel's flops per iteration";

fn f<T: Real>(v: T) -> f64 {
    v.to_f64().unwrap_or(f64::NAN)
}

/// λ, x, iterations and flags of every start.
type Pairs<T> = (Vec<T>, Vec<T>, Vec<i32>, Vec<i32>);

/// The paper's workload: K&R ×1024, 128 shared random starts, convex SAFE.
fn kr_case<T: Real>(h: &mut Handle) -> Result<Row, String> {
    let (nt, ns, n) = (1024usize, 128usize, 3usize);
    let g = nt * ns;
    let a: Vec<T> = (0..nt).flat_map(|_| KR.iter().map(|&v| T::c(v))).collect();
    let tol = sshopm_tol(T::EPS);
    let input = || -> Pairs<T> { (vec![T::c(0.0); g], vec![T::c(0.0); g * n], vec![0; g], vec![0; g]) };
    let ((lam, _, it, fl), secs, (lc, ..)) = measure(h, input, |h, (lam, x, it, fl)| {
        h.set_seed(1024);
        let out = eig::Outputs { lambda: lam.as_mut_ptr(), x: x.as_mut_ptr(), iters: it.as_mut_ptr(), flags: fl.as_mut_ptr() };
        // SAFETY: host arrays of the sizes the call describes.
        unsafe { eig::sshopm::<T>(h, 0, 1, 4, 3, nt as i64, ns as i64, a.as_ptr(), 15, std::ptr::null(), 0, T::c(0.0), T::c(tol), 20_000, out) }
    })?;
    let nearest = |l: f64| (0..3).min_by(|&i, &j| (KR_MAX[i] - l).abs().total_cmp(&(KR_MAX[j] - l).abs())).unwrap_or(0);
    // A start may stop near a saddle point, where λ moves by less than tol per step: counted,
    // not a failure below 3%.
    let off = lam.iter().map(|&l| (f(l) - KR_MAX[nearest(f(l))]).abs()).filter(|gap| gap.is_nan() || *gap > 1e-4).count();
    let other = lam.iter().zip(&lc).filter(|(&l, &c)| nearest(f(l)) != nearest(f(c))).count();
    let iters: f64 = it.iter().map(|&i| i as f64).sum();
    Ok(Row {
        routine: format!("{} K&R (paper)", sshopm_name::<T>("")),
        size: "m=4 n=3 V=128".into(),
        batch: nt,
        secs,
        flops: iters * eig::iteration_flops(&eig::tables(4, 3)),
        err_cpu: other as f64 * 1000.0 / g as f64,
        err_ref: off as f64 * 1000.0 / g as f64,
        differ: Some(fl.iter().filter(|&&f| f != 0).count()),
        note: format!("{:.0} iterations per start on average", iters / g as f64),
        ..Row::default()
    })
}

/// The C name of SS-HOPM in precision T, without `numgpu_`: `sshopm` (single: the routine's
/// own s is its precision letter) and `dsshopm`, with `suffix` (`_unique`).
fn sshopm_name<T: Real>(suffix: &str) -> String {
    let p = if T::LETTER == 's' { "" } else { "d" };
    format!("{p}sshopm{suffix}")
}

/// The outputs of `sshopm_unique` per voxel: count, λ, x, multiplicity and type (kmax slots).
type Unique<T> = (Vec<i32>, Vec<T>, Vec<T>, Vec<i32>, Vec<i32>);

/// The fibres found per voxel: the local maxima with λ above a fifth of the voxel's largest
/// local maximum.
fn found_fibres<T: Real>((count, lam, x, _, kind): &Unique<T>, kmax: usize) -> Vec<Vec<[f64; 3]>> {
    (0..count.len())
        .map(|t| {
            let maxima: Vec<usize> = (t * kmax..t * kmax + count[t] as usize).filter(|&q| kind[q] == eig::TYPE_MAX).collect();
            let top = maxima.first().map_or(f64::NAN, |&q| f(lam[q]));
            maxima.into_iter().filter(|&q| f(lam[q]) > 0.2 * top).map(|q| std::array::from_fn(|i| f(x[q * 3 + i]))).collect()
        })
        .collect()
}

/// The brain slice through `sshopm_unique` (convex, ADAPTIVE, 32 random starts per voxel).
fn brain_case<T: Real>(h: &mut Handle) -> Result<Row, String> {
    let (side, m, ns, kmax) = (64usize, 6usize, 32usize, 8usize);
    let nt = side * side;
    let u = eig::tables(m, 3).u;
    let truth: Vec<Vec<[f64; 3]>> = (0..nt).map(|t| fibres(side, t % side, t / side)).collect();
    let a: Vec<T> = truth.iter().flat_map(|fs| sum_of_powers(m, 3, &[1.0, 0.6][..fs.len()], &fs.iter().map(|v| v.to_vec()).collect::<Vec<_>>())).map(T::c).collect();
    let tol = sshopm_tol(T::EPS);
    let input = || -> Unique<T> { (vec![0; nt], vec![T::c(0.0); nt * kmax], vec![T::c(0.0); nt * kmax * 3], vec![0; nt * kmax], vec![0; nt * kmax]) };
    let (ours, secs, cpu) = measure(h, input, |h, (count, lam, x, mult, kind)| {
        h.set_seed(6);
        // SAFETY: host arrays of the sizes the call describes.
        unsafe {
            eig::sshopm_unique::<T>(h, 0, 2, m as i64, 3, nt as i64, ns as i64, a.as_ptr(), u as i64, std::ptr::null(), 0, T::c(0.0), T::c(tol), 20_000, T::c(1e-2), kmax as i64, count.as_mut_ptr(), lam.as_mut_ptr(), x.as_mut_ptr(), mult.as_mut_ptr(), kind.as_mut_ptr())
        }
    })?;
    let (ours, theirs) = (found_fibres(&ours, kmax), found_fibres(&cpu, kmax));
    let closest = |f: &[f64; 3], set: &[[f64; 3]]| set.iter().map(|v| axis_angle(f, v)).fold(f64::INFINITY, f64::min) / 0.1;
    let (mut wrong, mut err_ref, mut err_cpu, mut two) = (0usize, 0f64, 0f64, 0usize);
    for t in 0..nt {
        if ours[t].len() != truth[t].len() {
            wrong += 1;
            continue;
        }
        two += usize::from(truth[t].len() == 2);
        for fb in &ours[t] {
            err_ref = nan_max(err_ref, closest(fb, &truth[t]));
            if theirs[t].len() == ours[t].len() {
                err_cpu = nan_max(err_cpu, closest(fb, &theirs[t]));
            }
        }
    }
    Ok(Row {
        routine: format!("{} brain slice", sshopm_name::<T>("_unique")),
        size: "m=6 n=3 V=32".into(),
        batch: nt,
        secs,
        err_cpu,
        err_ref,
        differ: Some(wrong),
        note: format!("{} one-fibre and {two} crossing voxels resolved", nt - wrong - two),
        ..Row::default()
    })
}

/// `sym_apply` (A·x^5 on random tensors) against the CPU backend, and the pack/unpack round
/// trip, in units of ε.
fn sym_case<T: Real>(h: &mut Handle) -> Result<Row, String> {
    let (m, n, nt) = (6usize, 3usize, 100_000usize);
    let tab = eig::tables(m, n);
    let (a, x) = (filled::<T>(nt * tab.u, 66), filled::<T>(nt * n, 67));
    // SAFETY: host arrays of the sizes the call describes.
    let (y, secs, yc) = measure(h, || vec![T::c(0.0); nt * n], |h, y| unsafe { eig::sym_apply::<T>(h, m as i64, n as i64, 1, nt as i64, a.as_ptr(), tab.u as i64, x.as_ptr(), n as i64, y.as_mut_ptr(), n as i64) })?;
    // |Δy| over Σ|terms| bound: the multiplicities' sum (3^5 per component) times ε.
    let scale = 3f64.powi(m as i32 - 1) * T::EPS;
    let err_cpu = y.iter().zip(&yc).map(|(&p, &q)| (f(p) - f(q)).abs() / scale).fold(0.0, nan_max);
    let (mut dense, mut back) = (vec![T::c(0.0); n.pow(m as u32)], vec![T::c(0.0); tab.u]);
    // SAFETY: host arrays of n^m and U values.
    unsafe {
        eig::sym_unpack::<T>(m as i64, n as i64, a.as_ptr(), dense.as_mut_ptr()).map_err(|e| e.msg)?;
        eig::sym_pack::<T>(m as i64, n as i64, dense.as_ptr(), back.as_mut_ptr()).map_err(|e| e.msg)?;
    }
    let err_ref = back.iter().zip(&a).map(|(&p, &q)| (f(p) - f(q)).abs() / T::EPS).fold(0.0, nan_max);
    Ok(Row {
        routine: format!("{}sym_apply + pack/unpack", T::LETTER),
        size: "m=6 n=3 p=1".into(),
        batch: nt,
        secs,
        flops: nt as f64 * (tab.nmono() + 2 * tab.ngrad * n) as f64,
        err_cpu,
        err_ref,
        note: "err/ref: sym_pack(sym_unpack(a)) − a".into(),
        ..Row::default()
    })
}

fn all<T: Real>(h: &mut Handle, rows: &mut Rows) {
    rows.push(kr_case::<T>(h));
    rows.push(brain_case::<T>(h));
    rows.push(sym_case::<T>(h));
}

/// The family's rows, appended to `rows`.
pub fn rows(h: &mut Handle, rows: &mut Rows) {
    all::<f32>(h, rows);
    all::<f64>(h, rows);
}
