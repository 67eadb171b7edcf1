//! CPU backend: LAPACK `?stebz` (ORDER = 'E') per matrix on copies, rayon over the batch;
//! the Sturm counts in Rust with `?stebz`'s splitting and `?laebz`'s pivmin guard, the same
//! operations in the same order, so a count is the one LAPACK's bisection sees.

use super::{Range, Stebz, Stecount};
use crate::core::{Result, Scalar};
use crate::lapack::{single_threaded_blas, RealLapack};
use num_traits::Float;
use rayon::prelude::*;
use std::ffi::c_int;

/// One matrix's copies and LAPACK's workspaces, reused by the matrices of a task.
#[derive(Default)]
struct Work<T> {
    d: Vec<T>,
    e: Vec<T>,
    w: Vec<T>,
    work: Vec<T>,
    iblock: Vec<c_int>,
    isplit: Vec<c_int>,
    iwork: Vec<c_int>,
}

/// Matrices per rayon task: at least ~64K Sturm steps of work each (n² per matrix, roughly).
fn per_task(n: usize) -> usize {
    (65536 / (n * n).max(1)).max(1)
}

/// d (n entries) and e (n − 1) of matrix i into `w`'s copies.
///
/// # Safety
/// A validated call on host memory; `i < batch`.
#[allow(clippy::too_many_arguments)]
unsafe fn gather<T: Copy>(n: usize, d: *const T, stride_d: usize, e: *const T, stride_e: usize, i: usize, dst_d: &mut Vec<T>, dst_e: &mut Vec<T>) {
    dst_d.clear();
    dst_e.clear();
    dst_d.extend_from_slice(std::slice::from_raw_parts(d.add(i * stride_d), n));
    if n > 1 {
        dst_e.extend_from_slice(std::slice::from_raw_parts(e.add(i * stride_e), n - 1));
    }
}

/// Whether every entry of T is finite and no e_k² overflows (what the bisection needs).
fn finite<T: RealLapack>(d: &[T], e: &[T]) -> bool {
    d.iter().all(|&x| Float::is_finite(x)) && e.iter().all(|&x| Float::is_finite(x * x))
}

/// Matrix i by `?stebz`: its info (see the module docs); w_i's first m entries written.
///
/// # Safety
/// A validated call on host memory; no other task touches matrix i's outputs.
unsafe fn one<T: RealLapack>(p: &Stebz<T>, i: usize, wk: &mut Work<T>) -> (i64, i32) {
    let n = p.n;
    gather(n, p.d, p.stride_d, p.e, p.stride_e, i, &mut wk.d, &mut wk.e);
    if !finite(&wk.d, &wk.e) {
        return (0, n as i32 + 1);
    }
    // ?stebz reads E(1 : n − 1) only, but its array must exist.
    let zero = <T as Scalar>::zero();
    wk.e.push(zero);
    let (code, vl, vu, il, iu) = match p.range {
        Range::All => (b'A', zero, zero, 1, n as c_int),
        Range::Value(vl, vu) => (b'V', vl, vu, 1, n as c_int),
        Range::Index(il, iu) => (b'I', zero, zero, il as c_int, iu as c_int),
    };
    wk.w.resize(n, zero);
    wk.work.resize(4 * n, zero);
    wk.iblock.resize(n, 0);
    wk.isplit.resize(n, 0);
    wk.iwork.resize(3 * n, 0);
    let (m, linfo) = T::stebz(code, n as c_int, vl, vu, il, iu, p.abstol, wk.d.as_ptr(), wk.e.as_ptr(), wk.w.as_mut_ptr(), wk.iblock.as_mut_ptr(), wk.isplit.as_mut_ptr(), wk.work.as_mut_ptr(), wk.iwork.as_mut_ptr());
    debug_assert!(linfo >= 0, "?stebz refused validated arguments (info = {linfo})");
    let m = m.max(0) as usize;
    // Not converged: LAPACK flags them with a negative block number (its info 1 and 3); not
    // found (its info 2 and 4): fewer than iu − il + 1.
    let unconverged = wk.iblock[..m].iter().filter(|&&b| b < 0).count();
    let missing = match p.range {
        Range::Index(il, iu) => (iu + 1 - il).saturating_sub(m),
        _ => 0,
    };
    std::ptr::copy_nonoverlapping(wk.w.as_ptr(), p.w.add(i * p.stride_w), m);
    (m as i64, (unconverged + missing) as i32)
}

/// Every matrix of a batch by `?stebz`, rayon over the matrices.
pub fn stebz<T: RealLapack>(p: &Stebz<T>) -> Result<()> {
    single_threaded_blas();
    (0..p.batch).into_par_iter().with_min_len(per_task(p.n)).for_each_init(Work::default, |wk, i| {
        // SAFETY: a validated call on host memory; task i writes m[i], info[i] and w_i only
        // (distinct: checked stride).
        unsafe {
            let (m, info) = one(p, i, wk);
            *p.m.add(i) = m;
            *p.info.add(i) = info;
        }
    });
    Ok(())
}

/// The squared off-diagonal with `?stebz`'s splits (0 where |d_k·d_{k+1}|·ulp² + safmin >
/// e_k²) and pivmin = safmin·max(1, max e²), as LAPACK forms them; None when T is not finite.
pub fn sturm_prep<T: RealLapack>(d: &[T], e: &[T]) -> Option<(Vec<T>, T)> {
    if !finite(d, e) {
        return None;
    }
    let ulp = T::from(T::EPS).unwrap();
    let safmin = T::min_positive_value();
    let mut pivmin = <T as Scalar>::one();
    let e2 = (0..e.len())
        .map(|k| {
            let t = e[k] * e[k];
            if Float::abs(d[k + 1] * d[k]) * (ulp * ulp) + safmin > t {
                <T as Scalar>::zero()
            } else {
                pivmin = pivmin.max(t);
                t
            }
        })
        .collect();
    Some((e2, pivmin * safmin))
}

/// Count(μ) of `?laebz`: the negative pivots of T − μI, |q| < pivmin taken as −pivmin; −1 at
/// a NaN shift.
pub fn sturm_count<T: RealLapack>(d: &[T], e2: &[T], pivmin: T, mu: T) -> i64 {
    if mu.is_nan() {
        return -1;
    }
    let guard = |q: T| if Float::abs(q) < pivmin { -pivmin } else { q };
    let mut q = guard(d[0] - mu);
    let zero = <T as Scalar>::zero();
    let mut count = (q <= zero) as i64;
    for k in 1..d.len() {
        q = guard(d[k] - e2[k - 1] / q - mu);
        count += (q <= zero) as i64;
    }
    count
}

/// Counts of every matrix of a batch at every shift, rayon over the matrices.
pub fn stecount<T: RealLapack>(p: &Stecount<T>) -> Result<()> {
    (0..p.batch).into_par_iter().with_min_len(per_task(p.n)).for_each_init(|| (Vec::new(), Vec::new()), |(d, e), i| {
        // SAFETY: a validated call on host memory; task i writes counts i·nmu … (i + 1)·nmu − 1
        // only.
        unsafe {
            gather(p.n, p.d, p.stride_d, p.e, p.stride_e, i, d, e);
            let mu = std::slice::from_raw_parts(p.mu, p.nmu);
            let out = std::slice::from_raw_parts_mut(p.count.add(i * p.nmu), p.nmu);
            match sturm_prep(d, e) {
                Some((e2, pivmin)) => out.iter_mut().zip(mu).for_each(|(c, &x)| *c = sturm_count(d, &e2, pivmin, x)),
                None => out.fill(-1),
            }
        }
    });
    Ok(())
}
