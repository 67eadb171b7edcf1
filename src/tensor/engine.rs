//! The operations the decompositions are written in, once for both backends.
//!
//! CP-ALS, TT-SVD, TR-SVD, HT and their reconstructions (`cp.rs`, `train.rs`, `ht.rs`) are
//! host-side sequences of a few primitives — products, sums of products (Gram matrices,
//! MTTKRP), a symmetric eigensolver, column scalings, small permutations — that [`Engine`]
//! names. The CPU backend implements them with OpenBLAS/LAPACK and Rust loops
//! (`cpu::CpuEngine`), the CUDA backend with the library's batched GEMM and Jacobi kernels and
//! the small kernels of `kernels/tensor.cu` (`cuda::CudaEngine`), on device views inside one
//! staged call. So both backends take the same steps, and the rank decisions, the stopping
//! test and the output layout are the same code.
//!
//! Memory is addressed by `u64`: a host address on the CPU backend, a device address on CUDA.
//! A routine's working memory is one region the backend provides (a vector on the CPU, the
//! handle's workspace on CUDA), carved by a [`Layout`] computed from the sizes before the call
//! runs.

use super::{Contraction, Factor, Mttkrp};
use crate::core::error::{Error, Result};
use crate::core::Op;
use crate::gemm_batched::cuda::Shape;
use crate::lapack::Blas;

/// The element types of the decompositions (f32, f64), with the LAPACK symmetric eigensolver
/// the CPU backend uses (`cpu.rs` implements it).
pub trait Real: Blas + Into<f64> + PartialOrd {
    /// `v` rounded to the type.
    fn of(v: f64) -> Self;
    /// `?syevd` with JOBZ = 'V', UPLO = 'L': eigenvalues of the symmetric n × n matrix at `a`
    /// (ascending, at `w`) and its eigenvectors overwriting it; returns `info` (its workspace
    /// allocated here).
    ///
    /// # Safety
    /// `a` holds n × n with leading dimension n, `w` n values, host memory.
    unsafe fn syevd(n: std::ffi::c_int, a: *mut Self, w: *mut Self) -> std::ffi::c_int;
}

/// A matrix (or a batch of them, `stride` elements apart) in the engine's memory: element
/// (i, j) of item q at `at + (q·stride + i + j·ld)·size_of::<T>()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mat {
    pub at: u64,
    pub ld: usize,
    pub stride: usize,
}

impl Mat {
    /// One matrix at `at` with leading dimension `ld` (≥ 1).
    pub fn new(at: u64, ld: usize) -> Mat {
        Mat { at, ld: ld.max(1), stride: 0 }
    }

    /// The same, items `stride` elements apart.
    pub fn stride(self, stride: usize) -> Mat {
        Mat { stride, ..self }
    }
}

/// `at` moved by `elems` elements of T.
pub fn at<T>(at: u64, elems: usize) -> u64 {
    at + (elems * std::mem::size_of::<T>()) as u64
}

/// The backends' primitives. Every method is unsafe: its addresses must be valid memory of the
/// backend (host or device) for the extents its sizes give, outputs not overlapping inputs
/// unless a method says so.
#[allow(clippy::missing_safety_doc, clippy::too_many_arguments)]
pub trait Engine<T: Blas> {
    /// The largest order [`Engine::eig`] takes (the CUDA Jacobi solver's 4096; unlimited on the
    /// CPU).
    fn max_eig(&self) -> usize;
    /// Scratch elements of T that [`Engine::eig`] needs for `count` matrices of order n.
    fn eig_scratch(&self, n: usize, count: usize) -> usize;
    /// Scratch elements of T that [`Engine::contract`] needs for `c`, and for any contraction of
    /// one slice whose M is at most c.m × c.n.
    fn contract_scratch(&self, c: &Contraction) -> usize;
    /// Scratch elements of T that [`Engine::mttkrp`] needs for `p`.
    fn mttkrp_scratch(&self, p: &Mttkrp<T>) -> usize;
    /// Scratch elements of T that [`Engine::khatri_rao`] needs for `nf` factors.
    fn kr_scratch(&self, nf: usize) -> usize;
    /// Scratch elements of T that [`Engine::dots`] needs for `cols` columns.
    fn dots_scratch(&self, cols: usize) -> usize;

    /// C_q = alpha·op(A_q)·op(B_q) + beta·C_q for q < count (BLAS semantics; beta = 0 does not
    /// read C).
    unsafe fn gemm(&mut self, s: &Shape<T>, a: Mat, b: Mat, c: Mat, count: usize) -> Result<()>;
    /// M = Σ_q op(A_q)·op(B_q) (see [`Contraction`]; A at `a`, B at `b`), the sum in an order
    /// fixed by the sizes; M = 0 for an empty sum.
    unsafe fn contract(&mut self, c: &Contraction, a: u64, b: u64, m: Mat, scratch: u64) -> Result<()>;
    /// The MTTKRP of `p` (its pointers are this engine's addresses).
    unsafe fn mttkrp(&mut self, p: &Mttkrp<T>, scratch: u64) -> Result<()>;
    /// The Khatri–Rao product of `f` (the fastest row index first), `rank` columns, into `out`.
    unsafe fn khatri_rao(&mut self, f: &[Factor<T>], rank: usize, out: Mat, scratch: u64) -> Result<()>;
    /// Eigenvalues (descending, at `w`, n per matrix) and eigenvectors (at `v`, n × n per
    /// matrix, leading dimension n) of `count` symmetric positive semidefinite n × n matrices
    /// (Gram matrices) at `g`, n² apart; each vector signed so that its entry of largest
    /// magnitude (the first of equal ones) is positive. A matrix with a NaN or an Inf gives NaN
    /// values and vectors. `g` may be overwritten.
    unsafe fn eig(&mut self, n: usize, count: usize, g: u64, w: u64, v: u64, scratch: u64) -> Result<()>;
    /// Σ_i A(i, c)·B(i, c) for each column c < cols, accumulated in double in a fixed order.
    unsafe fn dots(&mut self, rows: usize, cols: usize, a: Mat, b: Mat, scratch: u64) -> Result<Vec<f64>>;
    /// λ_c = ‖A(:, c)‖₂ into `lambda` (cols entries of T), and A(:, c) /= λ_c where λ_c > 0.
    unsafe fn normalize(&mut self, rows: usize, cols: usize, a: Mat, lambda: u64) -> Result<()>;
    /// A(:, c) *= s[c].
    unsafe fn scale_cols(&mut self, rows: usize, cols: usize, a: Mat, s: u64) -> Result<()>;
    /// B(c, i) = s[c]·A(i, c) for i < rows, c < cols.
    unsafe fn transpose_scale(&mut self, rows: usize, cols: usize, a: Mat, s: u64, b: Mat) -> Result<()>;
    /// V = the entrywise product of the `count` r × r matrices at `g` (r² apart) but number
    /// `skip` (≥ count: none skipped), multiplied in order.
    unsafe fn hadamard(&mut self, r: usize, count: usize, skip: usize, g: u64, v: u64) -> Result<()>;
    /// U = M·V⁻¹ for the symmetric r × r V at `v` (overwritten by its Cholesky factor), M and
    /// U `rows` × r: NaN in U when V is not numerically positive definite.
    unsafe fn spd_solve(&mut self, r: usize, v: u64, rows: usize, m: Mat, u: Mat) -> Result<()>;
    /// The d[0] × d[1] × d[2] array at `src` with its modes permuted: entry (i_0, i_1, i_2) goes
    /// to position (i_{p0}, i_{p1}, i_{p2}) of the d[p0] × d[p1] × d[p2] array at `dst`.
    unsafe fn permute3(&mut self, d: [usize; 3], p: [usize; 3], src: u64, dst: u64) -> Result<()>;
    /// B = A (rows × cols).
    unsafe fn copy(&mut self, rows: usize, cols: usize, a: Mat, b: Mat) -> Result<()>;
    /// A = v (rows × cols).
    unsafe fn fill(&mut self, rows: usize, cols: usize, a: Mat, v: T) -> Result<()>;
    /// Copies the host values `src` to `dst`.
    unsafe fn upload(&mut self, src: &[T], dst: u64) -> Result<()>;
    /// Copies `dst.len()` values at `src` to the host (waiting for the work before).
    unsafe fn download(&mut self, src: u64, dst: &mut [T]) -> Result<()>;
}

/// The working memory of one call: regions of elements of T, each aligned to 64 elements (256
/// bytes or more, as device loads like), with checked arithmetic.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    next: usize,
}

impl Layout {
    /// The offset (elements) of a new region of `len` elements.
    pub fn take(&mut self, len: usize) -> Result<usize> {
        let at = self.next.next_multiple_of(64);
        // Elements of up to 16 bytes: the region's bytes must fit an isize.
        self.next = at.checked_add(len).filter(|&n| n <= isize::MAX as usize / 16).ok_or_else(|| Error::not_supported("the working memory of the call exceeds the address space"))?;
        Ok(at)
    }

    /// Elements of the whole region.
    pub fn total(&self) -> usize {
        self.next.max(1)
    }
}

/// A product of sizes, or `NOT_SUPPORTED` naming what overflowed.
pub fn prod(v: &[usize], what: &str) -> Result<usize> {
    v.iter().try_fold(1usize, |a, &b| a.checked_mul(b)).ok_or_else(|| Error::not_supported(format!("{what} exceeds the address space")))
}

/// The contraction that forms the Gram matrix of the rows of the m × n matrix C (compact): C·Cᵀ
/// (m × m) when `rows`, else Cᵀ·C (n × n).
pub fn gram_of(m: usize, n: usize, rows: bool) -> Contraction {
    if rows {
        Contraction { trans: false, tb: true, m, n: m, k: n, lda: m, a_step: m, slices: 1, a_slice: 0, b_slice: 0, ldb: m }
    } else {
        Contraction { trans: true, tb: false, m: n, n, k: m, lda: m, a_step: 1, slices: 1, a_slice: 0, b_slice: 0, ldb: m }
    }
}

/// The contraction that forms the Gram matrix X_(n)·X_(n)ᵀ of the mode-`mode` unfolding of the
/// tensor `dims` without unfolding it (as MTTKRP reads X, with X in place of the Khatri–Rao
/// product): the first mode is one product of the buffer with its transpose, the last one of
/// its transpose with the buffer, a middle one a sum over the slices.
pub fn gram_of_mode(dims: &[usize], mode: usize) -> Contraction {
    let (l, i, q): (usize, usize, usize) = (dims[..mode].iter().product(), dims[mode], dims[mode + 1..].iter().product());
    if l == 1 {
        return gram_of(i, q, true);
    }
    if q == 1 {
        return gram_of(l, i, false);
    }
    Contraction { trans: true, tb: false, m: i, n: i, k: l, lda: l, a_step: 1, slices: q, a_slice: l * i, b_slice: l * i, ldb: l }
}

/// The shape of one product C = op(A)·op(B) (m × n, inner k), alpha = 1, beta 0 or 1.
pub fn shape<T: Blas>(ta: bool, tb: bool, m: usize, n: usize, k: usize, accumulate: bool) -> Shape<T> {
    let op = |t: bool| if t { Op::T } else { Op::N };
    Shape { ta: op(ta), tb: op(tb), m, n, k, alpha: T::one(), beta: if accumulate { T::one() } else { T::zero() } }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_align_and_count() {
        let mut l = Layout::default();
        assert_eq!(l.take(3).unwrap(), 0);
        assert_eq!(l.take(1).unwrap(), 64);
        assert_eq!(l.total(), 65);
        assert!(l.take(usize::MAX).is_err());
        assert_eq!(Layout::default().total(), 1);
    }

    #[test]
    fn mode_grams_read_the_buffer_in_place() {
        // 2 × 3 × 4: mode 0 is C·Cᵀ of the 2 × 12 buffer, mode 2 Cᵀ·C of the 6 × 4 buffer,
        // mode 1 a sum over the 4 slices of 2 × 3.
        assert_eq!(gram_of_mode(&[2, 3, 4], 0), gram_of(2, 12, true));
        assert_eq!(gram_of_mode(&[2, 3, 4], 2), gram_of(6, 4, false));
        let c = gram_of_mode(&[2, 3, 4], 1);
        assert_eq!((c.m, c.n, c.k, c.slices, c.a_slice, c.ldb), (3, 3, 2, 4, 6, 2));
        // A unit dimension before the mode makes it a first mode.
        assert_eq!(gram_of_mode(&[1, 3, 4], 1), gram_of(3, 4, true));
    }
}
