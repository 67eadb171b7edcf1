//! CPU backend: the Khatri–Rao product in Rust under rayon (column blocks), MTTKRP as
//! single-threaded OpenBLAS `?gemm` calls on pieces of the contraction (slices of X, or
//! stretches of one long sum) under rayon, each piece group summed into its own buffer and the
//! buffers added in a fixed order, so the result does not depend on the thread count.

use super::{Contraction, Factor, KhatriRao, Mttkrp};
use crate::core::error::{Error, Result};
use crate::lapack::{single_threaded_blas, Blas, CBLAS_NO_TRANS, CBLAS_TRANS};
use rayon::prelude::*;
use std::ffi::c_int;

/// Rows of a Khatri–Rao product per rayon task.
const KR_ROWS: usize = 1 << 14;

/// Most piece groups (partial sums) of one MTTKRP, and the multiply-adds a group should have
/// at least.
const GROUPS: usize = 64;
const GROUP_WORK: usize = 1 << 20;

/// Shortest stretch of one sum a piece takes.
const MIN_PIECE: usize = 256;

/// Rows `j0 .. j0 + out.len()` of column r of the Khatri–Rao product of `f` (the fastest row
/// index first): out[j] = f[0](i_0, r)·f[1](i_1, r)·…, multiplied in that order.
///
/// # Safety
/// The factors are valid host memory for their dims × (r + 1) extents.
unsafe fn kr_rows<T: Blas>(f: &[Factor<T>], r: usize, j0: usize, out: &mut [T]) {
    // The multi-index of row j0, then counted up.
    let mut idx: Vec<usize> = Vec::with_capacity(f.len());
    let mut rest = j0;
    for g in f {
        idx.push(rest % g.dim);
        rest /= g.dim;
    }
    let cols: Vec<*const T> = f.iter().map(|g| g.ptr.add(r * g.ld)).collect();
    for o in out.iter_mut() {
        let mut v = *cols[0].add(idx[0]);
        for k in 1..f.len() {
            v = v * *cols[k].add(idx[k]);
        }
        *o = v;
        for k in 0..f.len() {
            idx[k] += 1;
            if idx[k] < f[k].dim {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// The Khatri–Rao product of `f` (every dim ≥ 1), `rank` columns, into `out` with leading
/// dimension `ld`.
///
/// # Safety
/// The factors are valid host memory; `out` holds (rank − 1)·ld + rows elements, rows = ∏ dims.
unsafe fn kr_into<T: Blas>(f: &[Factor<T>], rank: usize, out: *mut T, ld: usize) {
    let rows: usize = f.iter().map(|g| g.dim).product();
    let blocks = rows.div_ceil(KR_ROWS);
    let out = out as usize;
    (0..rank * blocks).into_par_iter().for_each(|t| {
        let (r, j0) = (t / blocks, (t % blocks) * KR_ROWS);
        let len = KR_ROWS.min(rows - j0);
        // SAFETY: task t writes rows j0 .. j0 + len of column r only.
        let col = std::slice::from_raw_parts_mut((out as *mut T).add(r * ld + j0), len);
        kr_rows(f, r, j0, col);
    });
}

pub fn khatri_rao<T: Blas>(p: &KhatriRao<T>) -> Result<()> {
    let f = [Factor { ptr: p.b, ld: p.ldb, dim: p.n }, Factor { ptr: p.a, ld: p.lda, dim: p.m }];
    // SAFETY: a validated call on host memory.
    unsafe { kr_into(&f, p.r, p.c, p.ldc) };
    Ok(())
}

/// A piece of the contraction: slice q, the stretch κ0 .. κ0 + len of its sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    q: usize,
    k0: usize,
    len: usize,
}

/// The pieces of `c`, in groups (consecutive in the order of the sum): whole slices when they
/// are many, else each slice's sum cut in stretches. Depends on the sizes only.
fn groups(c: &Contraction) -> Vec<Vec<Piece>> {
    let work = c.m * c.n * c.k * c.slices;
    let want = (work / GROUP_WORK).clamp(1, GROUPS);
    if c.slices >= want {
        let per = c.slices.div_ceil(want);
        return (0..c.slices).step_by(per).map(|q0| (q0..(q0 + per).min(c.slices)).map(|q| Piece { q, k0: 0, len: c.k }).collect()).collect();
    }
    let splits = want.div_ceil(c.slices).min(c.k.div_ceil(MIN_PIECE)).max(1);
    let len = c.k.div_ceil(splits);
    (0..c.slices).flat_map(|q| (0..c.k).step_by(len).map(move |k0| vec![Piece { q, k0, len: len.min(c.k - k0) }])).collect()
}

/// Every size one `?gemm` of `c` takes fits BLAS's integers.
fn fits_blas(c: &Contraction) -> Result<()> {
    for (v, name) in [(c.m, "dims[mode]"), (c.n, "rank"), (c.k, "the contraction length"), (c.lda, "the leading dimension of X"), (c.ldb, "the rows of the Khatri–Rao product")] {
        if v > c_int::MAX as usize {
            return Err(Error::not_supported(format!("{name} = {v} exceeds the CPU backend's BLAS integer range")));
        }
    }
    Ok(())
}

pub fn mttkrp<T: Blas>(p: &Mttkrp<T>) -> Result<()> {
    let (rows, c) = (p.others(), p.contraction());
    let mut sums: Vec<Vec<T>> = Vec::new();
    if rows > 0 {
        fits_blas(&c)?;
        single_threaded_blas();
        let mut k = vec![T::zero(); rows * p.rank];
        // SAFETY: a validated call on host memory; k holds rows × rank.
        unsafe { kr_into(&p.factors(), p.rank, k.as_mut_ptr(), rows) };
        let (x, k) = (p.x as usize, &k);
        sums = groups(&c)
            .par_iter()
            .map(|g| {
                let mut acc = vec![T::zero(); c.m * c.n];
                for (t, piece) in g.iter().enumerate() {
                    // SAFETY: the piece lies within X and K (validated sizes); acc is m × n.
                    unsafe { product(&c, x as *const T, k, piece, t > 0, &mut acc) };
                }
                acc
            })
            .collect();
    }
    // SAFETY: M is dims[mode] × rank with leading dimension ldm, host memory.
    unsafe {
        for r in 0..c.n {
            let col = std::slice::from_raw_parts_mut(p.m.add(r * p.ldm), c.m);
            for (i, v) in col.iter_mut().enumerate() {
                *v = sums.iter().fold(T::zero(), |s, acc| s + acc[i + r * c.m]);
            }
        }
    }
    Ok(())
}

/// acc (+)= op(A_piece)·K_piece, one `?gemm` (beta = 1 when `add`).
///
/// # Safety
/// X holds the validated tensor; `piece` is one of `groups(c)`.
unsafe fn product<T: Blas>(c: &Contraction, x: *const T, k: &[T], piece: &Piece, add: bool, acc: &mut [T]) {
    let a = x.add(piece.q * c.a_slice + piece.k0 * c.a_step);
    let b = k.as_ptr().add(piece.q * c.b_slice + piece.k0);
    let op = if c.trans { CBLAS_TRANS } else { CBLAS_NO_TRANS };
    let beta = if add { T::one() } else { T::zero() };
    T::gemm(op, CBLAS_NO_TRANS, c.m as c_int, c.n as c_int, piece.len as c_int, T::one(), a, c.lda as c_int, b, c.ldb as c_int, beta, acc.as_mut_ptr(), c.m as c_int);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contraction(m: usize, n: usize, k: usize, slices: usize) -> Contraction {
        Contraction { trans: true, m, n, k, lda: k, a_step: 1, slices, a_slice: k * m, b_slice: k, ldb: k * slices }
    }

    #[test]
    fn groups_cover_every_piece_once_in_order() {
        for c in [contraction(3, 2, 5, 7), contraction(500, 32, 250_000, 1), contraction(100, 16, 100, 100), contraction(1, 1, 1, 1)] {
            let flat: Vec<Piece> = groups(&c).into_iter().flatten().collect();
            let mut next = (0, 0);
            for p in &flat {
                assert_eq!((p.q, p.k0), next, "{c:?}: {flat:?}");
                next = if p.k0 + p.len == c.k { (p.q + 1, 0) } else { (p.q, p.k0 + p.len) };
            }
            assert_eq!(next, (c.slices, 0));
            assert!(groups(&c).len() <= GROUPS);
        }
        assert!(groups(&contraction(500, 32, 250_000, 1)).len() > 1, "a long sum is split");
    }
}
