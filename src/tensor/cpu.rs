//! CPU backend: the Khatri–Rao product in Rust under rayon (column blocks), MTTKRP as
//! single-threaded OpenBLAS `?gemm` calls on pieces of the contraction (slices of X, or
//! stretches of one long sum) under rayon, each piece group summed into its own buffer and the
//! buffers added in a fixed order, so the result does not depend on the thread count; and
//! [`CpuEngine`], the decompositions' primitives: OpenBLAS `?gemm` (one product cut in column
//! blocks under rayon), LAPACK `?syevd` (divide and conquer, what LAPACK users expect of a
//! symmetric eigensolver) for the Gram matrices, `?potrf`/`?potrs` for CP-ALS's small solves,
//! and Rust loops for the rest.

use super::cp::{self, CpAls, CpArrays, CpOutcome, CpRecWork, CpReconstruct, CpWork};
use super::engine::{Engine, Mat, Real};
use super::ht::{self, Ht, HtReconstruct, HtRecWork, HtWork};
use super::train::{self, Chain, ChainWork, Train, TrainOut, TrainWork};
use super::{Contraction, Factor, KhatriRao, Mttkrp};
use crate::core::error::{Error, Result};
use crate::gemm_batched::cuda::Shape;
use crate::lapack::{single_threaded_blas, Blas, CBLAS_NO_TRANS, CBLAS_TRANS};
use rayon::prelude::*;
use std::ffi::{c_char, c_int};

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
    fits_int(&[(c.m, "the rows of a product"), (c.n, "the columns of a product"), (c.k, "the length of a sum"), (c.lda, "a leading dimension"), (c.ldb, "a leading dimension")])
}

/// Every size fits BLAS's and LAPACK's 32-bit integers.
fn fits_int(sizes: &[(usize, &str)]) -> Result<()> {
    for &(v, name) in sizes {
        if v > c_int::MAX as usize {
            return Err(Error::not_supported(format!("{name} = {v} exceeds the CPU backend's BLAS integer range")));
        }
    }
    Ok(())
}

pub fn mttkrp<T: Blas>(p: &Mttkrp<T>) -> Result<()> {
    let (rows, c) = (p.others(), p.contraction());
    let mut k = Vec::new();
    if rows > 0 {
        fits_blas(&c)?;
        k = vec![T::zero(); rows * p.rank];
        // SAFETY: a validated call on host memory; k holds rows × rank.
        unsafe { kr_into(&p.factors(), p.rank, k.as_mut_ptr(), rows) };
    }
    // SAFETY: X and K hold the validated extents; M is dims[mode] × rank with ldm.
    unsafe { contract(&c, p.x, k.as_ptr(), p.m, p.ldm) }
}

/// M = Σ_q op(A_q)·op(B_q) (see [`Contraction`]) into M (c.m × c.n, leading dimension ldm):
/// single-threaded OpenBLAS `?gemm` calls on pieces under rayon, each piece group summed into
/// its own buffer and the buffers added in a fixed order. An empty sum gives M = 0.
///
/// # Safety
/// A and B hold the extents `c` reads; M is host memory of its extent, not overlapping them.
pub unsafe fn contract<T: Blas>(c: &Contraction, a: *const T, b: *const T, m: *mut T, ldm: usize) -> Result<()> {
    let mut sums: Vec<Vec<T>> = Vec::new();
    if c.k > 0 && c.slices > 0 {
        fits_blas(c)?;
        single_threaded_blas();
        let (a, b) = (a as usize, b as usize);
        sums = groups(c)
            .par_iter()
            .map(|g| {
                let mut acc = vec![T::zero(); c.m * c.n];
                for (t, piece) in g.iter().enumerate() {
                    // SAFETY: the piece lies within A and B (validated sizes); acc is m × n.
                    unsafe { product(c, a as *const T, b as *const T, piece, t > 0, &mut acc) };
                }
                acc
            })
            .collect();
    }
    for r in 0..c.n {
        let col = std::slice::from_raw_parts_mut(m.add(r * ldm), c.m);
        for (i, v) in col.iter_mut().enumerate() {
            *v = sums.iter().fold(T::zero(), |s, acc| s + acc[i + r * c.m]);
        }
    }
    Ok(())
}

/// acc (+)= op(A_piece)·op(B_piece), one `?gemm` (beta = 1 when `add`).
///
/// # Safety
/// A and B hold the extents `c` reads; `piece` is one of `groups(c)`.
unsafe fn product<T: Blas>(c: &Contraction, a: *const T, b: *const T, piece: &Piece, add: bool, acc: &mut [T]) {
    let a = a.add(piece.q * c.a_slice + piece.k0 * c.a_step);
    let b = b.add(piece.q * c.b_slice + piece.k0 * c.b_step());
    let op = |t: bool| if t { CBLAS_TRANS } else { CBLAS_NO_TRANS };
    let beta = if add { T::one() } else { T::zero() };
    T::gemm(op(c.trans), op(c.tb), c.m as c_int, c.n as c_int, piece.len as c_int, T::one(), a, c.lda as c_int, b, c.ldb as c_int, beta, acc.as_mut_ptr(), c.m as c_int);
}

/// LAPACK's `?syevd` with gfortran's hidden lengths of JOBZ and UPLO (lapack-sys omits them).
///
/// cbindgen:ignore
mod ext {
    use std::ffi::{c_char, c_int};
    extern "C" {
        #[allow(clippy::too_many_arguments)]
        pub fn ssyevd_(jobz: *const c_char, uplo: *const c_char, n: *const c_int, a: *mut f32, lda: *const c_int, w: *mut f32, work: *mut f32, lwork: *const c_int, iwork: *mut c_int, liwork: *const c_int, info: *mut c_int, jobz_len: usize, uplo_len: usize);
        #[allow(clippy::too_many_arguments)]
        pub fn dsyevd_(jobz: *const c_char, uplo: *const c_char, n: *const c_int, a: *mut f64, lda: *const c_int, w: *mut f64, work: *mut f64, lwork: *const c_int, iwork: *mut c_int, liwork: *const c_int, info: *mut c_int, jobz_len: usize, uplo_len: usize);
    }
}

macro_rules! real {
    ($t:ty, $syevd:ident) => {
        impl Real for $t {
            fn of(v: f64) -> Self {
                v as $t
            }
            unsafe fn syevd(n: c_int, a: *mut Self, w: *mut Self) -> c_int {
                let (jobz, uplo, mut info) = (b'V' as c_char, b'L' as c_char, 0);
                let (mut wq, mut iq, query) = (<$t>::default(), 0 as c_int, -1 as c_int);
                ext::$syevd(&jobz, &uplo, &n, a, &n, w, &mut wq, &query, &mut iq, &query, &mut info, 1, 1);
                if info != 0 {
                    return info;
                }
                let (lwork, liwork) = ((wq as c_int).max(1), iq.max(1));
                let (mut work, mut iwork) = (vec![<$t>::default(); lwork as usize], vec![0 as c_int; liwork as usize]);
                ext::$syevd(&jobz, &uplo, &n, a, &n, w, work.as_mut_ptr(), &lwork, iwork.as_mut_ptr(), &liwork, &mut info, 1, 1);
                info
            }
        }
    };
}
real!(f32, ssyevd_);
real!(f64, dsyevd_);

/// The decompositions' primitives on host memory (addresses are host pointers); see
/// [`Engine`].
pub struct CpuEngine;

/// Rows of a long column summed per rayon task (then the partial sums in order).
const DOT_ROWS: usize = 1 << 16;

/// The host pointer at `at`.
fn ptr<T>(at: u64) -> *mut T {
    at as usize as *mut T
}

/// The column blocks one product is cut into: by the sizes only, so the result does not
/// depend on the thread count (each column is one `?gemm`'s).
fn column_blocks(m: usize, n: usize, k: usize) -> usize {
    (m.saturating_mul(n).saturating_mul(k) >> 21).clamp(1, 64).min(n.div_ceil(64)).max(1)
}

impl<T: Real> Engine<T> for CpuEngine {
    fn max_eig(&self) -> usize {
        c_int::MAX as usize
    }
    fn eig_scratch(&self, _: usize, _: usize) -> usize {
        0
    }
    fn contract_scratch(&self, _: &Contraction) -> usize {
        0
    }
    fn mttkrp_scratch(&self, _: &Mttkrp<T>) -> usize {
        0
    }
    fn kr_scratch(&self, _: usize) -> usize {
        0
    }
    fn dots_scratch(&self, _: usize) -> usize {
        0
    }

    unsafe fn gemm(&mut self, s: &Shape<T>, a: Mat, b: Mat, c: Mat, count: usize) -> Result<()> {
        fits_int(&[(s.m, "the rows of a product"), (s.n, "the columns of a product"), (s.k, "the length of a sum"), (a.ld, "a leading dimension"), (b.ld, "a leading dimension"), (c.ld, "a leading dimension")])?;
        if s.m == 0 || s.n == 0 {
            return Ok(());
        }
        single_threaded_blas();
        let op = |t: bool| if t { CBLAS_TRANS } else { CBLAS_NO_TRANS };
        let (ta, tb) = (op(s.ta.is_trans()), op(s.tb.is_trans()));
        let blocks = if count == 1 { column_blocks(s.m, s.n, s.k) } else { 1 };
        let width = s.n.div_ceil(blocks);
        let b_col = if s.tb.is_trans() { 1 } else { b.ld };
        (0..count * blocks).into_par_iter().for_each(|t| {
            let (q, j0) = (t / blocks, (t % blocks) * width);
            let w = width.min(s.n - j0);
            // SAFETY: item q's columns j0 .. j0 + w of C, and the A and B they read.
            unsafe {
                let ap = ptr::<T>(a.at).add(q * a.stride);
                let bp = ptr::<T>(b.at).add(q * b.stride + j0 * b_col);
                let cp = ptr::<T>(c.at).add(q * c.stride + j0 * c.ld);
                T::gemm(ta, tb, s.m as c_int, w as c_int, s.k as c_int, s.alpha, ap, a.ld as c_int, bp, b.ld as c_int, s.beta, cp, c.ld as c_int);
            }
        });
        Ok(())
    }

    unsafe fn contract(&mut self, c: &Contraction, a: u64, b: u64, m: Mat, _: u64) -> Result<()> {
        contract(c, ptr::<T>(a), ptr::<T>(b), ptr::<T>(m.at), m.ld)
    }

    unsafe fn mttkrp(&mut self, p: &Mttkrp<T>, _: u64) -> Result<()> {
        mttkrp(p)
    }

    unsafe fn khatri_rao(&mut self, f: &[Factor<T>], rank: usize, out: Mat, _: u64) -> Result<()> {
        kr_into(f, rank, ptr::<T>(out.at), out.ld);
        Ok(())
    }

    unsafe fn eig(&mut self, n: usize, count: usize, g: u64, w: u64, v: u64, _: u64) -> Result<()> {
        fits_int(&[(n, "the order of a Gram matrix")])?;
        single_threaded_blas();
        let (g, w, v) = (g as usize, w as usize, v as usize);
        (0..count).into_par_iter().for_each(|q| {
            // SAFETY: matrix q's n × n at g and v, n values at w.
            unsafe { eig_one::<T>(n, ptr::<T>(g as u64).add(q * n * n), ptr::<T>(w as u64).add(q * n), ptr::<T>(v as u64).add(q * n * n)) }
        });
        Ok(())
    }

    unsafe fn dots(&mut self, rows: usize, cols: usize, a: Mat, b: Mat, _: u64) -> Result<Vec<f64>> {
        let (pa, pb) = (a.at as usize, b.at as usize);
        let pieces = rows.div_ceil(DOT_ROWS).max(1);
        let partial: Vec<f64> = (0..cols * pieces)
            .into_par_iter()
            .map(|t| {
                let (c, r0) = (t / pieces, (t % pieces) * DOT_ROWS);
                let len = DOT_ROWS.min(rows.saturating_sub(r0));
                // SAFETY: rows r0 .. r0 + len of column c of A and B.
                let (x, y) = unsafe { (std::slice::from_raw_parts(ptr::<T>(pa as u64).add(c * a.ld + r0), len), std::slice::from_raw_parts(ptr::<T>(pb as u64).add(c * b.ld + r0), len)) };
                x.iter().zip(y).fold(0.0, |s, (&p, &q)| s + p.into() * q.into())
            })
            .collect();
        Ok(partial.chunks(pieces).map(|c| c.iter().sum()).collect())
    }

    unsafe fn normalize(&mut self, rows: usize, cols: usize, a: Mat, lambda: u64) -> Result<()> {
        let dots = self_dots::<T>(rows, cols, a);
        for (c, d) in dots.into_iter().enumerate() {
            let l = T::of(d.sqrt());
            *ptr::<T>(lambda).add(c) = l;
            if l > T::zero() {
                for x in std::slice::from_raw_parts_mut(ptr::<T>(a.at).add(c * a.ld), rows) {
                    *x = *x / l;
                }
            }
        }
        Ok(())
    }

    unsafe fn scale_cols(&mut self, rows: usize, cols: usize, a: Mat, s: u64) -> Result<()> {
        for c in 0..cols {
            let f = *ptr::<T>(s).add(c);
            std::slice::from_raw_parts_mut(ptr::<T>(a.at).add(c * a.ld), rows).iter_mut().for_each(|x| *x = *x * f);
        }
        Ok(())
    }

    unsafe fn transpose_scale(&mut self, rows: usize, cols: usize, a: Mat, s: u64, b: Mat) -> Result<()> {
        for c in 0..cols {
            let f = *ptr::<T>(s).add(c);
            for i in 0..rows {
                *ptr::<T>(b.at).add(c + i * b.ld) = f * *ptr::<T>(a.at).add(i + c * a.ld);
            }
        }
        Ok(())
    }

    unsafe fn hadamard(&mut self, r: usize, count: usize, skip: usize, g: u64, v: u64) -> Result<()> {
        for e in 0..r * r {
            *ptr::<T>(v).add(e) = (0..count).filter(|&k| k != skip).fold(T::one(), |p, k| p * *ptr::<T>(g).add(k * r * r + e));
        }
        Ok(())
    }

    unsafe fn spd_solve(&mut self, r: usize, v: u64, rows: usize, m: Mat, u: Mat) -> Result<()> {
        fits_int(&[(r, "rank"), (rows, "a dimension")])?;
        let (ri, rowsi) = (r as c_int, rows as c_int);
        let mut bt = vec![T::zero(); r * rows];
        for i in 0..rows {
            for c in 0..r {
                bt[c + i * r] = *ptr::<T>(m.at).add(i + c * m.ld);
            }
        }
        let ok = T::potrf(b'L', ri, ptr::<T>(v), ri) == 0 && T::potrs(b'L', ri, rowsi, ptr::<T>(v), ri, bt.as_mut_ptr(), ri) == 0;
        let nan = T::of(f64::NAN);
        for i in 0..rows {
            for c in 0..r {
                *ptr::<T>(u.at).add(i + c * u.ld) = if ok { bt[c + i * r] } else { nan };
            }
        }
        Ok(())
    }

    unsafe fn permute3(&mut self, d: [usize; 3], p: [usize; 3], src: u64, dst: u64) -> Result<()> {
        let total = d[0] * d[1] * d[2];
        for e in 0..total {
            let i = [e % d[0], (e / d[0]) % d[1], e / (d[0] * d[1])];
            *ptr::<T>(dst).add(i[p[0]] + d[p[0]] * (i[p[1]] + d[p[1]] * i[p[2]])) = *ptr::<T>(src).add(e);
        }
        Ok(())
    }

    unsafe fn copy(&mut self, rows: usize, cols: usize, a: Mat, b: Mat) -> Result<()> {
        for c in 0..cols {
            std::ptr::copy(ptr::<T>(a.at).add(c * a.ld), ptr::<T>(b.at).add(c * b.ld), rows);
        }
        Ok(())
    }

    unsafe fn fill(&mut self, rows: usize, cols: usize, a: Mat, v: T) -> Result<()> {
        for c in 0..cols {
            std::slice::from_raw_parts_mut(ptr::<T>(a.at).add(c * a.ld), rows).fill(v);
        }
        Ok(())
    }

    unsafe fn upload(&mut self, src: &[T], dst: u64) -> Result<()> {
        std::ptr::copy_nonoverlapping(src.as_ptr(), ptr::<T>(dst), src.len());
        Ok(())
    }

    unsafe fn download(&mut self, src: u64, dst: &mut [T]) -> Result<()> {
        std::ptr::copy_nonoverlapping(ptr::<T>(src), dst.as_mut_ptr(), dst.len());
        Ok(())
    }
}

/// Σ_i A(i, c)² per column, in double, in order.
///
/// # Safety
/// A is host memory of its extent.
unsafe fn self_dots<T: Real>(rows: usize, cols: usize, a: Mat) -> Vec<f64> {
    (0..cols).map(|c| std::slice::from_raw_parts(ptr::<T>(a.at).add(c * a.ld), rows).iter().fold(0.0, |s, &x| s + x.into() * x.into())).collect()
}

/// One Gram matrix's eigenpairs by `?syevd`, descending and signed (see [`Engine::eig`]).
///
/// # Safety
/// `g` and `v` hold n × n, `w` n values, host memory.
unsafe fn eig_one<T: Real>(n: usize, g: *mut T, w: *mut T, v: *mut T) {
    let (g, w, v) = (std::slice::from_raw_parts_mut(g, n * n), std::slice::from_raw_parts_mut(w, n), std::slice::from_raw_parts_mut(v, n * n));
    let nan = T::of(f64::NAN);
    if !g.iter().all(|x| x.is_finite()) || T::syevd(n as c_int, g.as_mut_ptr(), w.as_mut_ptr()) != 0 {
        w.fill(nan);
        v.fill(nan);
        return;
    }
    // Ascending from LAPACK: the last column first.
    w.reverse();
    for j in 0..n {
        let col = &g[(n - 1 - j) * n..(n - j) * n];
        let big = col.iter().enumerate().fold(0, |b, (i, x)| if x.abs() > col[b].abs() { i } else { b });
        let sign = if col[big] < T::zero() { -T::one() } else { T::one() };
        v[j * n..(j + 1) * n].iter_mut().zip(col).for_each(|(o, &x)| *o = x * sign);
    }
}

/// Zeroed working memory of a call (pages untouched until used), freed on drop.
struct HostWork<T> {
    ptr: *mut T,
    layout: std::alloc::Layout,
}

impl<T> HostWork<T> {
    /// `len` elements, or `ALLOC_FAILED` with the size.
    fn new(len: usize) -> Result<HostWork<T>> {
        let layout = std::alloc::Layout::array::<T>(len.max(1)).map_err(|_| Error::alloc(format!("{len} elements of working memory exceed the address space")))?;
        // SAFETY: a layout of nonzero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
        if ptr.is_null() {
            return Err(Error::alloc(format!("could not allocate {} bytes of host working memory", layout.size())));
        }
        Ok(HostWork { ptr, layout })
    }

    /// The address of element `at`.
    fn at(&self, at: usize) -> u64 {
        // SAFETY: callers stay within the region they asked for.
        unsafe { self.ptr.add(at) as u64 }
    }
}

impl<T> Drop for HostWork<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr as *mut u8, self.layout) }
    }
}

/// A host array as the engine addresses it.
fn mat<T>(p: *const T, ld: usize) -> Mat {
    Mat::new(p as u64, ld)
}

/// CP-ALS of a validated call on host memory.
pub fn cp_als<T: Real>(p: &CpAls<T>) -> Result<CpOutcome> {
    let mut e = CpuEngine;
    let w = CpWork::new(p, &e, &p.ldu)?;
    let work = HostWork::<T>::new(w.total)?;
    let a = CpArrays { x: p.x as u64, u: p.u.iter().zip(&p.ldu).map(|(&u, &ld)| mat(u, ld)).collect(), lambda: p.lambda as u64 };
    // SAFETY: a validated call on host memory; the working memory of its layout.
    unsafe { cp::run(&mut e, p, &a, &w, work.at(0)) }
}

/// The tensor of a CP decomposition, on host memory.
pub fn cp_reconstruct<T: Real>(p: &CpReconstruct<T>) -> Result<()> {
    let mut e = CpuEngine;
    let w = CpRecWork::new(p, &e)?;
    let work = HostWork::<T>::new(w.total)?;
    let u: Vec<Mat> = p.u.iter().zip(&p.ldu).map(|(&u, &ld)| mat(u, ld)).collect();
    // SAFETY: as in `cp_als`.
    unsafe { cp::reconstruct(&mut e, p, &u, p.lambda as u64, p.x as u64, &w, work.at(0)) }
}

/// TT-SVD or TR-SVD of a validated call on host memory; the cores copied to the caller's
/// array when they fit its capacity.
pub fn train<T: Real>(p: &Train<T>) -> Result<TrainOut> {
    let mut e = CpuEngine;
    let w = TrainWork::new(p, &e)?;
    let work = HostWork::<T>::new(w.total)?;
    // SAFETY: as in `cp_als`; the cores fit the caller's `capacity` elements when copied.
    unsafe {
        let out = train::run(&mut e, p, p.x as u64, &w, work.at(0))?;
        if out.total <= p.capacity {
            std::ptr::copy_nonoverlapping(work.at(w.cores) as usize as *const T, p.cores, out.total);
        }
        Ok(out)
    }
}

/// The tensor of a TT or TR decomposition, on host memory.
pub fn chain<T: Real>(p: &Chain<T>) -> Result<()> {
    let w = ChainWork::new(p)?;
    let work = HostWork::<T>::new(w.total)?;
    // SAFETY: as in `cp_als`.
    unsafe { train::reconstruct(&mut CpuEngine, p, p.cores as u64, p.x as u64, &w, work.at(0)) }
}

/// HT of a validated call on host memory.
pub fn ht<T: Real>(p: &Ht<T>) -> Result<()> {
    let mut e = CpuEngine;
    let w = HtWork::new(p, &e)?;
    let work = HostWork::<T>::new(w.total)?;
    // SAFETY: as in `cp_als`.
    unsafe { ht::run(&mut e, p, p.x as u64, &p.out.map(|o| o as u64), &w, work.at(0)) }
}

/// The tensor of an HT decomposition, on host memory.
pub fn ht_reconstruct<T: Real>(p: &HtReconstruct<T>) -> Result<()> {
    let w = HtRecWork::new(p)?;
    let work = HostWork::<T>::new(w.total)?;
    // SAFETY: as in `cp_als`.
    unsafe { ht::reconstruct(&mut CpuEngine, p, &p.parts.map(|o| o as u64), p.x as u64, &w, work.at(0)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contraction(m: usize, n: usize, k: usize, slices: usize) -> Contraction {
        Contraction { trans: true, tb: false, m, n, k, lda: k, a_step: 1, slices, a_slice: k * m, b_slice: k, ldb: k * slices }
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
