//! Batched general matrix multiply, BLAS `?gemm` per matrix:
//!
//! `C_i = alpha · op(A_i) · op(B_i) + beta · C_i`,  i = 0 … batch−1,
//!
//! with op(A_i) `m × k`, op(B_i) `k × n`, C_i `m × n`, all column-major. BLAS semantics:
//! `beta == 0` does not read C; `alpha == 0` or `k == 0` does not read A or B and gives
//! `C = beta·C`; `m`, `n` or `batch` 0 is no work.
//!
//! The matrices come as pointer arrays (`A[i]`) or strided (`A + i·strideA`, stride 0 = the
//! same matrix for the whole batch). The checks below run once, before any backend.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::batch::array_of;
pub use crate::core::batch::{Batch, RawPtr};
use crate::core::check::{check_extent, check_ld, check_len, check_stride, needed, nonneg, not_null, space_of};
use crate::core::error::{checked_mul, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::ArgPtr;
use crate::core::{Op, Scalar};
use crate::lapack::Blas;

/// One validated batched GEMM. Sizes are checked and non-negative.
#[derive(Clone, Copy, Debug)]
pub struct Gemm<T> {
    pub ta: Op,
    pub tb: Op,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: T,
    pub a: Batch<*const T>,
    pub lda: usize,
    pub b: Batch<*const T>,
    pub ldb: usize,
    pub beta: T,
    pub c: Batch<*mut T>,
    pub ldc: usize,
    pub batch: usize,
}

// SAFETY: a Gemm only carries the caller's pointers; the backends write each C_i from one
// thread, and distinct C matrices are the caller's promise (checked for strided C).
unsafe impl<T: Send> Send for Gemm<T> {}
unsafe impl<T: Sync> Sync for Gemm<T> {}

impl<T: Scalar> Gemm<T> {
    /// Whether A and B are read at all.
    pub fn reads_ab(&self) -> bool {
        self.k > 0 && !self.alpha.is_zero()
    }
    /// Whether the call has no work (m, n or batch 0).
    pub fn nothing_to_do(&self) -> bool {
        self.m == 0 || self.n == 0 || self.batch == 0
    }
}

/// `C_i = alpha·op(A_i)·op(B_i) + beta·C_i` for the batch; see the module docs.
///
/// Argument checks follow the C signature's order and name the argument they reject; an
/// invalid call writes nothing. Host arrays on the CUDA backend are staged through the handle's
/// workspace and the call returns when C is back; device arrays are enqueued on the handle's
/// stream and the call returns at once.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes, leading dimensions and strides
/// describe, in host memory or device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_batched<T: Blas>(
    h: &mut Handle,
    ta: Op,
    tb: Op,
    m: i64,
    n: i64,
    k: i64,
    alpha: T,
    a: Batch<*const T>,
    lda: i64,
    b: Batch<*const T>,
    ldb: i64,
    beta: T,
    c: Batch<*mut T>,
    ldc: i64,
    batch: i64,
) -> Result<()> {
    let (mu, nu, ku) = (nonneg(m, "m")?, nonneg(n, "n")?, nonneg(k, "k")?);
    let (ar, ac) = ta.stored(mu, ku);
    let (br, bc) = tb.stored(ku, nu);
    let ldau = check_ld(lda, ar, "lda", if ta.is_trans() { "k" } else { "m" })?;
    // Strides matter only for batch > 1; batch itself is checked in its turn, last.
    let batch_hint = batch.max(0) as usize;
    if let Batch::Strided { stride, .. } = a {
        check_stride(stride, checked_mul(ldau, ac, "lda·cols(A)")?, true, batch_hint, "strideA", "lda·(columns of A)")?;
    }
    let ldbu = check_ld(ldb, br, "ldb", if tb.is_trans() { "n" } else { "k" })?;
    if let Batch::Strided { stride, .. } = b {
        check_stride(stride, checked_mul(ldbu, bc, "ldb·cols(B)")?, true, batch_hint, "strideB", "ldb·(columns of B)")?;
    }
    let ldcu = check_ld(ldc, mu, "ldc", "m")?;
    if let Batch::Strided { stride, .. } = c {
        check_stride(stride, checked_mul(ldcu, nu, "ldc·n")?, false, batch_hint, "strideC", "ldc·n")?;
    }
    let batchu = nonneg(batch, "batch")?;
    let g = Gemm { ta, tb, m: mu, n: nu, k: ku, alpha, a, lda: ldau, b, ldb: ldbu, beta, c, ldc: ldcu, batch: batchu };
    if g.nothing_to_do() {
        return Ok(());
    }
    let reads_ab = g.reads_ab();
    if reads_ab {
        not_null(a.raw(), "A")?;
        not_null(b.raw(), "B")?;
    }
    not_null(c.raw(), "C")?;
    check_extents(&g)?;
    let mut args: Vec<ArgPtr> = Vec::with_capacity(3);
    let mut arrays = Vec::with_capacity(3);
    if reads_ab {
        args.extend([(a.raw(), "A"), (b.raw(), "B")]);
        arrays.extend([(array_of(&a), "A"), (array_of(&b), "B")]);
    }
    args.push((c.raw(), "C"));
    arrays.push((array_of(&c), "C"));
    let space = space_of(h, &args, &arrays, &["C"], g.batch)?;
    let mode = h.math_mode();
    match &mut h.state {
        // Exact FP32 in every mode: within every mode's bound.
        State::Cpu => cpu::gemm(&g),
        State::Cuda(ch) => cuda::gemm(ch, &g, space, mode),
    }
}

/// Every element offset the call may touch must fit in `isize`.
fn check_extents<T: Scalar>(g: &Gemm<T>) -> Result<()> {
    check_extent::<T>(g.lda, g.ta.stored(g.m, g.k).1, g.a.stride(), g.batch, "A")?;
    check_extent::<T>(g.ldb, g.tb.stored(g.k, g.n).1, g.b.stride(), g.batch, "B")?;
    check_extent::<T>(g.ldc, g.n, g.c.stride(), g.batch, "C")
}

/// Safe wrapper for host slices in the strided form: checks that each slice covers the
/// extent its sizes describe (`INVALID_VALUE` naming it otherwise) and calls
/// [`gemm_batched`].
#[allow(clippy::too_many_arguments)]
pub fn gemm_batched_strided<T: Blas>(
    h: &mut Handle,
    ta: Op,
    tb: Op,
    m: i64,
    n: i64,
    k: i64,
    alpha: T,
    a: &[T],
    lda: i64,
    stride_a: i64,
    b: &[T],
    ldb: i64,
    stride_b: i64,
    beta: T,
    c: &mut [T],
    ldc: i64,
    stride_c: i64,
    batch: i64,
) -> Result<()> {
    let (acols, bcols) = (if ta.is_trans() { m } else { k }, if tb.is_trans() { k } else { n });
    if m >= 0 && n >= 0 && k >= 0 {
        check_len(a.len(), needed(lda, acols, stride_a, batch), "A")?;
        check_len(b.len(), needed(ldb, bcols, stride_b, batch), "B")?;
        check_len(c.len(), needed(ldc, n, stride_c, batch), "C")?;
    }
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe {
        gemm_batched(
            h,
            ta,
            tb,
            m,
            n,
            k,
            alpha,
            Batch::Strided { ptr: a.as_ptr(), stride: stride_a },
            lda,
            Batch::Strided { ptr: b.as_ptr(), stride: stride_b },
            ldb,
            beta,
            Batch::Strided { ptr: c.as_mut_ptr(), stride: stride_c },
            ldc,
            batch,
        )
    }
}
