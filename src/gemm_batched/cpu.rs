//! CPU backend: single-threaded `cblas_?gemm` on blocks of columns of each C, with rayon over
//! the batch and the column blocks: many small matrices run one per task, a few large ones
//! are split so every core has work. Each element is summed in the same order whatever the
//! split, so results do not depend on the thread count.

use super::Gemm;
use crate::core::error::{Error, Result};
use crate::core::Op;
use crate::lapack::{single_threaded_blas, Blas, CBLAS_CONJ_TRANS, CBLAS_NO_TRANS, CBLAS_TRANS};
use rayon::prelude::*;
use std::ffi::c_int;

/// Columns of C per task: whole matrices when the batch alone fills the cores, else blocks
/// of at least 16 columns so that every core gets work.
fn columns_per_task(n: usize, batch: usize, threads: usize) -> usize {
    if batch >= threads {
        return n.max(1);
    }
    let splits = (2 * threads).div_ceil(batch);
    n.div_ceil(splits).max(16).min(n.max(1))
}

pub fn gemm<T: Blas>(g: &Gemm<T>) -> Result<()> {
    for (v, name) in [(g.m, "m"), (g.n, "n"), (g.k, "k"), (g.lda, "lda"), (g.ldb, "ldb"), (g.ldc, "ldc")] {
        if v > c_int::MAX as usize {
            return Err(Error::not_supported(format!("{name} = {v} exceeds the CPU backend's BLAS integer range")));
        }
    }
    single_threaded_blas();
    let cols = columns_per_task(g.n, g.batch, rayon::current_num_threads());
    let blocks = g.n.div_ceil(cols);
    // Each task at least ~64K multiply-adds, so rayon's scheduling stays small next to the work.
    let per_task = (65536 / (g.m * g.k.max(1) * cols).max(1)).max(1);
    (0..g.batch * blocks).into_par_iter().with_min_len(per_task).for_each(|t| {
        let j0 = (t % blocks) * cols;
        // SAFETY: validated call; task t writes columns j0.. of C_(t / blocks) only.
        unsafe { one(g, t / blocks, j0, cols.min(g.n - j0)) }
    });
    Ok(())
}

fn cblas_op(op: Op) -> c_int {
    match op {
        Op::N => CBLAS_NO_TRANS,
        Op::T => CBLAS_TRANS,
        Op::C => CBLAS_CONJ_TRANS,
    }
}

/// Columns `j0 .. j0 + nc` of C for matrix `i` of the batch. `alpha == 0` or `k == 0` only
/// scales C (A, B unread), and `beta == 0` sets C to zero without reading it, as reference
/// BLAS does.
unsafe fn one<T: Blas>(g: &Gemm<T>, i: usize, j0: usize, nc: usize) {
    let c = g.c.matrix(i).add(j0 * g.ldc);
    if !g.reads_ab() {
        for j in 0..nc {
            for r in 0..g.m {
                let p = c.add(j * g.ldc + r);
                *p = if g.beta.is_zero() { T::zero() } else { g.beta * *p };
            }
        }
        return;
    }
    // Columns j0.. of op(B): column j0 of B (N) or row j0 of B (T, C).
    let b = g.b.matrix(i).add(if g.tb == Op::N { j0 * g.ldb } else { j0 });
    if g.beta.is_zero() {
        // OpenBLAS honours beta = 0 too; zeroing first makes NaN in C harmless everywhere.
        for j in 0..nc {
            std::ptr::write_bytes(c.add(j * g.ldc), 0, g.m);
        }
    }
    T::gemm(
        cblas_op(g.ta),
        cblas_op(g.tb),
        g.m as c_int,
        nc as c_int,
        g.k as c_int,
        g.alpha,
        g.a.matrix(i),
        g.lda as c_int,
        b,
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
