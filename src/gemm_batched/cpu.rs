//! CPU backend: `cblas_?gemm` per matrix. Small matrices: rayon over the batch with
//! OpenBLAS single-threaded; large ones: one multi-threaded OpenBLAS call at a time.

use super::Gemm;
use crate::core::error::{Error, Result};
use crate::core::Op;
use crate::lapack::{with_blas_threads, Blas, CBLAS_CONJ_TRANS, CBLAS_NO_TRANS, CBLAS_TRANS};
use rayon::prelude::*;
use std::ffi::c_int;

/// Below this many multiply-adds per matrix, parallelism over the batch beats OpenBLAS's own.
const SMALL_MNK: usize = 96 * 96 * 96;

pub fn gemm<T: Blas>(g: &Gemm<T>) -> Result<()> {
    for (v, name) in [(g.m, "m"), (g.n, "n"), (g.k, "k"), (g.lda, "lda"), (g.ldb, "ldb"), (g.ldc, "ldc")] {
        if v > c_int::MAX as usize {
            return Err(Error::not_supported(format!("{name} = {v} exceeds the CPU backend's BLAS integer range")));
        }
    }
    let work = g.m * g.n * g.k.max(1);
    if work < SMALL_MNK && g.batch > 1 {
        with_blas_threads(1, || (0..g.batch).into_par_iter().for_each(|i| unsafe { one(g, i) }));
    } else {
        with_blas_threads(rayon::current_num_threads(), || (0..g.batch).for_each(|i| unsafe { one(g, i) }));
    }
    Ok(())
}

fn cblas_op(op: Op) -> c_int {
    match op {
        Op::N => CBLAS_NO_TRANS,
        Op::T => CBLAS_TRANS,
        Op::C => CBLAS_CONJ_TRANS,
    }
}

/// Matrix `i` of the batch. `alpha == 0` or `k == 0` only scales C (A, B unread), and
/// `beta == 0` then sets C to zero without reading it, as reference BLAS does.
unsafe fn one<T: Blas>(g: &Gemm<T>, i: usize) {
    let c = g.c.matrix(i);
    if !g.reads_ab() {
        for j in 0..g.n {
            for r in 0..g.m {
                let p = c.add(j * g.ldc + r);
                *p = if g.beta.is_zero() { T::zero() } else { g.beta * *p };
            }
        }
        return;
    }
    if g.beta.is_zero() {
        // OpenBLAS honours beta = 0 too; zeroing first makes NaN in C harmless everywhere.
        for j in 0..g.n {
            std::ptr::write_bytes(c.add(j * g.ldc), 0, g.m);
        }
    }
    T::gemm(
        cblas_op(g.ta),
        cblas_op(g.tb),
        g.m as c_int,
        g.n as c_int,
        g.k as c_int,
        g.alpha,
        g.a.matrix(i),
        g.lda as c_int,
        g.b.matrix(i),
        g.ldb as c_int,
        g.beta,
        c,
        g.ldc as c_int,
    );
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::core::Handle;

    /// Tier (a): a tiny exact case.
    #[test]
    fn two_by_two_exact() {
        let mut h = Handle::cpu();
        let a = [1.0f64, 3.0, 2.0, 4.0]; // [[1, 2], [3, 4]]
        let b = [5.0f64, 7.0, 6.0, 8.0]; // [[5, 6], [7, 8]]
        let mut c = [1.0f64; 4];
        gemm_batched_strided(&mut h, Op::N, Op::N, 2, 2, 2, 1.0, &a, 2, 4, &b, 2, 4, 10.0, &mut c, 2, 4, 1).unwrap();
        assert_eq!(c, [29.0, 53.0, 32.0, 60.0]);
    }
}
