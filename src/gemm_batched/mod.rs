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

use crate::core::error::{checked_mul, nonneg, Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::batch::{check_extent, check_host_array, check_ld, check_stride};
pub use crate::core::batch::{Batch, RawPtr};
use crate::core::memory::{common_space, ArgPtr};
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

/// 1-based C positions of gemm's arguments, which differ between the two forms.
struct Pos {
    m: i32,
    lda: i32,
    sa: i32,
    b: i32,
    ldb: i32,
    sb: i32,
    c: i32,
    ldc: i32,
    sc: i32,
    batch: i32,
}

const POS_ARRAY: Pos = Pos { m: 4, lda: 9, sa: 0, b: 10, ldb: 11, sb: 0, c: 13, ldc: 14, sc: 0, batch: 15 };
const POS_STRIDED: Pos = Pos { m: 4, lda: 9, sa: 10, b: 11, ldb: 12, sb: 13, c: 15, ldc: 16, sc: 17, batch: 18 };

/// `C_i = alpha·op(A_i)·op(B_i) + beta·C_i` for the batch; see the module docs.
///
/// Argument checks follow the C signature's order and name its 1-based positions; an invalid
/// call writes nothing. Host arrays on the CUDA backend are staged through the handle's
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
    let strided = matches!(c, Batch::Strided { .. });
    let p = if strided { &POS_STRIDED } else { &POS_ARRAY };
    let (mu, nu, ku) = (nonneg(m, p.m, "m")?, nonneg(n, p.m + 1, "n")?, nonneg(k, p.m + 2, "k")?);
    let (ar, ac) = ta.stored(mu, ku);
    let (br, bc) = tb.stored(ku, nu);
    let ldau = check_ld(lda, ar, p.lda, "lda", if ta.is_trans() { "k" } else { "m" })?;
    // Strides matter only for batch > 1; batch itself is checked in its turn, last.
    let batch_hint = batch.max(0) as usize;
    if let Batch::Strided { stride, .. } = a {
        check_stride(stride, checked_mul(ldau, ac, "lda·cols(A)")?, true, batch_hint, p.sa, "strideA", "lda·(columns of A)")?;
    }
    let ldbu = check_ld(ldb, br, p.ldb, "ldb", if tb.is_trans() { "n" } else { "k" })?;
    if let Batch::Strided { stride, .. } = b {
        check_stride(stride, checked_mul(ldbu, bc, "ldb·cols(B)")?, true, batch_hint, p.sb, "strideB", "ldb·(columns of B)")?;
    }
    let ldcu = check_ld(ldc, mu, p.ldc, "ldc", "m")?;
    if let Batch::Strided { stride, .. } = c {
        check_stride(stride, checked_mul(ldcu, nu, "ldc·n")?, false, batch_hint, p.sc, "strideC", "ldc·n")?;
    }
    let batchu = nonneg(batch, p.batch, "batch")?;
    let g = Gemm { ta, tb, m: mu, n: nu, k: ku, alpha, a, lda: ldau, b, ldb: ldbu, beta, c, ldc: ldcu, batch: batchu };
    if g.nothing_to_do() {
        return Ok(());
    }
    let reads_ab = g.reads_ab();
    if reads_ab && a.raw().is_null() {
        return Err(Error::arg(8, "(A) must not be NULL"));
    }
    if reads_ab && b.raw().is_null() {
        return Err(Error::arg(p.b, "(B) must not be NULL"));
    }
    if c.raw().is_null() {
        return Err(Error::arg(p.c, "(C) must not be NULL"));
    }
    check_extents(&g)?;
    let mut args: Vec<ArgPtr> = Vec::with_capacity(3);
    if reads_ab {
        args.push((a.raw(), 8, "A"));
        args.push((b.raw(), p.b, "B"));
    }
    args.push((c.raw(), p.c, "C"));
    let space = common_space(h, &args)?;
    if space == crate::core::memory::Space::Host {
        check_host_arrays(&g, p)?;
    }
    match &mut h.state {
        State::Cpu => cpu::gemm(&g),
        State::Cuda(ch) => cuda::gemm(ch, &g, space),
    }
}

/// Every element offset the call may touch must fit in `isize`.
fn check_extents<T: Scalar>(g: &Gemm<T>) -> Result<()> {
    check_extent::<T>(g.lda, g.ta.stored(g.m, g.k).1, g.a.stride(), g.batch)?;
    check_extent::<T>(g.ldb, g.tb.stored(g.k, g.n).1, g.b.stride(), g.batch)?;
    check_extent::<T>(g.ldc, g.n, g.c.stride(), g.batch)
}

/// Host pointer arrays: no NULL entry among the matrices that will be read or written, and
/// the matrices in host memory too.
unsafe fn check_host_arrays<T: Scalar>(g: &Gemm<T>, p: &Pos) -> Result<()> {
    if g.reads_ab() {
        if let Batch::Array(arr) = g.a {
            check_host_array(arr, g.batch, 8, "A")?;
        }
        if let Batch::Array(arr) = g.b {
            check_host_array(arr, g.batch, p.b, "B")?;
        }
    }
    if let Batch::Array(arr) = g.c {
        check_host_array(arr as *const *const T, g.batch, p.c, "C")?;
    }
    Ok(())
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
    let need = |ld: i64, cols: i64, stride: i64| -> usize {
        if ld <= 0 || cols <= 0 || batch <= 0 {
            return 0;
        }
        ((batch - 1).max(0) as usize).saturating_mul(stride.max(0) as usize).saturating_add((ld as usize).saturating_mul(cols as usize))
    };
    let (acols, bcols) = (if ta.is_trans() { m } else { k }, if tb.is_trans() { k } else { n });
    for (len, want, arg, name) in [(a.len(), need(lda, acols, stride_a), 8, "A"), (b.len(), need(ldb, bcols, stride_b), 11, "B"), (c.len(), need(ldc, n, stride_c), 15, "C")] {
        if m >= 0 && n >= 0 && k >= 0 && len < want {
            return Err(Error::arg(arg, format!("({name}) has {len} elements but the sizes need {want}")));
        }
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
