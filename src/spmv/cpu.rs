//! CPU backend: rows in parallel (rayon) for op N, each row summed in CSR order with one
//! rounding per multiply-add; a sequential scatter for op T and C (deterministic, as the
//! order of the adds into each y entry is fixed); CMRS strips in parallel, each replaying the
//! CUDA kernel's order (per-lane accumulators, then the M copies added in order).

use super::cmrs::{CmrsMatrix, CmrsScalar, Layout, Store, ITEM_CHUNKS, MAX_HEIGHT, MAX_LANES, PAD, WARP};
use super::{structure_error, CsrRef, Csrmv};
use crate::core::error::Result;
use crate::core::{Op, Scalar};
use rayon::prelude::*;

/// `alpha·sum + beta·y`, y not read when beta = 0; the CUDA kernels combine the same way.
pub fn combine<T: Scalar>(alpha: T, sum: T, beta: T, y: T) -> T {
    let t = alpha * sum;
    if beta.is_zero() {
        t
    } else {
        T::fma(beta, y, t)
    }
}

/// `y := beta·y` (0 when beta = 0, y not read; nothing when beta = 1).
pub fn scale<T: Scalar>(y: &mut [T], beta: T) {
    if beta.is_zero() {
        y.par_iter_mut().with_min_len(4096).for_each(|v| *v = T::zero());
    } else if beta != T::one() {
        y.par_iter_mut().with_min_len(4096).for_each(|v| *v = beta * *v);
    }
}

pub fn csrmv<T: Scalar>(c: &Csrmv<T>) -> Result<()> {
    let (xlen, ylen) = c.lens();
    // SAFETY: validated in mod.rs: y covers op(A)'s rows, host memory.
    let y = unsafe { std::slice::from_raw_parts_mut(c.y, ylen) };
    if c.alpha.is_zero() {
        scale(y, c.beta);
        return Ok(());
    }
    // SAFETY: the structure and x are host memory of the validated extents.
    let (rp, ci, val, x) = unsafe {
        if let Some(code) = c.a.first_bad() {
            return Err(structure_error(code));
        }
        let (rp, ci) = c.a.structure();
        let val = if c.a.nnz == 0 { &[][..] } else { std::slice::from_raw_parts(c.a.val, c.a.nnz) };
        (rp, ci, val, std::slice::from_raw_parts(c.x, xlen))
    };
    let base = c.a.base;
    let range = |i: usize| (rp[i] - base) as usize..(rp[i + 1] - base) as usize;
    if c.trans == Op::N {
        y.par_iter_mut().enumerate().with_min_len(1024).for_each(|(i, yi)| {
            let sum = range(i).fold(T::zero(), |s, k| T::fma(val[k], x[(ci[k] - base) as usize], s));
            *yi = combine(c.alpha, sum, c.beta, *yi);
        });
    } else {
        // y := beta·y, then every entry's product added into its column's y, row by row:
        // the order the CUDA scatter cannot promise, but the same formula (a rounded product
        // added).
        scale(y, c.beta);
        let conj = c.trans == Op::C;
        for (i, &xi) in x.iter().enumerate() {
            let ax = c.alpha * xi;
            for k in range(i) {
                let a = if conj { val[k].conj() } else { val[k] };
                let j = (ci[k] - base) as usize;
                y[j] = y[j] + a * ax;
            }
        }
    }
    Ok(())
}

/// Builds a CMRS matrix in host memory.
pub fn cmrs_create<T: CmrsScalar>(a: &CsrRef<T>, height: usize, lanes: Option<usize>) -> Result<CmrsMatrix> {
    // SAFETY: validated in mod.rs: host memory of the given extents.
    let (layout, values) = unsafe {
        if let Some(code) = a.first_bad() {
            return Err(structure_error(code));
        }
        let (rp, ci) = a.structure();
        let layout = Layout::build(rp, ci, a.base, height, lanes);
        let val = if a.nnz == 0 { &[][..] } else { std::slice::from_raw_parts(a.val, a.nnz) };
        let values = layout.gather(val);
        (layout, values)
    };
    Ok(CmrsMatrix { m: a.m, n: a.n, nnz: a.nnz, letter: T::LETTER, layout, store: Store::Host(T::wrap(values)) })
}

pub fn cmrs_update_values<T: CmrsScalar>(a: &mut CmrsMatrix, val: &[T]) {
    a.store = Store::Host(T::wrap(a.layout.gather(val)));
}

/// The host values of a CPU CMRS matrix of element type T (checked by the caller).
fn host_values<T: CmrsScalar>(a: &CmrsMatrix) -> &[T] {
    match &a.store {
        Store::Host(v) => T::values(v).expect("precision checked by the caller"),
        Store::Cuda(_) => unreachable!("backend checked by the caller"),
    }
}

/// `y := alpha·A·x + beta·y` for a CPU CMRS matrix (x of n elements, not read when alpha =
/// 0; y of m), in the kernel's order: per work item, slot `(lane % M)·height + r`
/// accumulates its products with one rounding per multiply-add, then row r's sum is the M
/// copies added in order; a strip of several items adds its items' sums in order.
pub fn cmrsmv<T: CmrsScalar>(alpha: T, a: &CmrsMatrix, x: &[T], beta: T, y: &mut [T]) {
    if alpha.is_zero() {
        scale(y, beta);
        return;
    }
    let val = host_values::<T>(a);
    let l = &a.layout;
    let (h, lanes) = (l.height, l.lanes);
    // The row sums of the stored elements lo..hi (one item).
    let item = |lo: usize, hi: usize| -> [T; MAX_HEIGHT] {
        let mut acc = [T::zero(); MAX_LANES * MAX_HEIGHT];
        // lo is a multiple of 32, so element j of the item is lane j % 32.
        for (j, (&w, &v)) in l.packed[lo..hi].iter().zip(&val[lo..hi]).enumerate() {
            if w != PAD {
                let slot = (j % WARP % lanes) * h + (w & 15) as usize;
                acc[slot] = T::fma(v, x[(w >> 4) as usize], acc[slot]);
            }
        }
        std::array::from_fn(|r| if r < h { (1..lanes).fold(acc[r], |z, k| z + acc[k * h + r]) } else { T::zero() })
    };
    y.par_chunks_mut(h).enumerate().with_min_len(64).for_each(|(s, ys)| {
        let (lo, hi) = (l.strip_ptr[s] as usize, l.strip_ptr[s + 1] as usize);
        let step = ITEM_CHUNKS * WARP;
        let mut sums = item(lo, hi.min(lo + step));
        for start in (lo + step..hi).step_by(step) {
            let part = item(start, hi.min(start + step));
            for (z, p) in sums.iter_mut().zip(part) {
                *z = *z + p;
            }
        }
        for (yr, &z) in ys.iter_mut().zip(&sums) {
            *yr = combine(alpha, z, beta, *yr);
        }
    });
}
