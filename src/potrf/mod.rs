//! Batched Cholesky factorisation and solves of Hermitian positive definite matrices, LAPACK
//! `?potrf` / `?potrs` / `?posv` semantics:
//!
//! `A_i = L_i·L_iᴴ` (uplo lower, L overwriting the lower triangle) or `A_i = U_iᴴ·U_i` (uplo
//! upper, U overwriting the upper triangle). Only the triangle `uplo` names is read or
//! written; the other one is never touched (it may hold anything, NaN included). For
//! complex types the imaginary parts of the diagonal are not read, and the factor's
//! diagonal is real (written with a zero imaginary part).
//!
//! `info` per matrix: 0, or k > 0 when the leading minor of order k is not positive
//! definite: the pivot of step k (the diagonal entry of the Schur complement, before its
//! square root) is ≤ 0 or NaN, as LAPACK tests it, or +Inf (where LAPACK would go on with
//! an infinite factor). The factorisation stops there: columns 1 … k−1 of L (rows of U)
//! hold the factor, entry (k, k) holds the pivot that failed (+Inf and NaN are their own
//! square roots, so LAPACK's factor agrees), and the rest of the triangle holds
//! intermediate values (LAPACK does not specify them either). So a NaN or an Inf anywhere
//! in the triangle gives info > 0, and no input hangs either backend.
//!
//! `potrs` solves with the factors, `posv` factors and solves, leaving B_i unchanged where
//! `info[i] > 0`.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::batch::{array_of, Batch};
use crate::core::check::{check_ld, check_len, check_operand, check_span, needed, nonneg, not_null, space_of};
use crate::core::error::Result;
use crate::core::handle::{Handle, State};
use crate::core::memory::ArgPtr;
use crate::core::Uplo;
use crate::lapack::Blas;

/// One validated batched factorisation.
#[derive(Clone, Copy, Debug)]
pub struct Potrf<T> {
    pub uplo: Uplo,
    pub n: usize,
    pub a: Batch<*mut T>,
    pub lda: usize,
    pub info: *mut i32,
    pub batch: usize,
}

/// One validated batched solve with the factors. `skip`: when non-NULL, matrix i is left
/// alone where `skip[i] != 0` (posv's matrices that are not positive definite).
#[derive(Clone, Copy, Debug)]
pub struct Potrs<T> {
    pub uplo: Uplo,
    pub n: usize,
    pub nrhs: usize,
    pub a: Batch<*const T>,
    pub lda: usize,
    pub b: Batch<*mut T>,
    pub ldb: usize,
    pub skip: *const i32,
    pub batch: usize,
}

// SAFETY: these only carry the caller's pointers; the backends touch matrix i's data from
// one thread (CPU) or one block/warp (CUDA), and distinct matrices are the caller's promise
// (checked where cheap to see).
unsafe impl<T: Send> Send for Potrf<T> {}
unsafe impl<T: Sync> Sync for Potrf<T> {}
unsafe impl<T: Send> Send for Potrs<T> {}
unsafe impl<T: Sync> Sync for Potrs<T> {}

/// The `info` array: non-NULL, `batch` entries.
fn check_info(info: *const i32, batch: usize) -> Result<()> {
    not_null(info, "info")?;
    check_span::<i32>(1, 1, batch, "info").map(|_| ())
}

/// Batched Cholesky factorisation; see the module docs.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes describe, all in host memory or
/// all in device memory of the handle's device.
pub unsafe fn potrf<T: Blas>(h: &mut Handle, uplo: Uplo, n: i64, a: Batch<*mut T>, lda: i64, info: *mut i32, batch: i64) -> Result<()> {
    let nu = nonneg(n, "n")?;
    let ldau = check_ld(lda, nu, "lda", "n")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(());
    }
    check_operand::<T, _>(&a, ldau, nu, batchu, "A", "strideA", "lda", false)?;
    check_info(info, batchu)?;
    let f = Potrf { uplo, n: nu, a, lda: ldau, info, batch: batchu };
    let args: [ArgPtr; 2] = [(a.raw(), "A"), (info as _, "info")];
    let space = space_of(h, &args, &[(array_of(&a), "A")], &["A", "info"], batchu)?;
    match &mut h.state {
        State::Cpu => cpu::potrf(&f),
        State::Cuda(ch) => cuda::potrf(ch, &f, space),
    }
}

/// Validates a solve; `factors_a`: A is factored in place first (posv), so the batch may not
/// share one matrix (strideA 0).
#[allow(clippy::too_many_arguments)]
unsafe fn check_potrs<T: Blas>(factors_a: bool, uplo: Uplo, n: i64, nrhs: i64, a: Batch<*const T>, lda: i64, b: Batch<*mut T>, ldb: i64, batch: i64) -> Result<Option<Potrs<T>>> {
    let nu = nonneg(n, "n")?;
    let nrhsu = nonneg(nrhs, "nrhs")?;
    let ldau = check_ld(lda, nu, "lda", "n")?;
    let ldbu = check_ld(ldb, nu, "ldb", "n")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(None);
    }
    check_operand::<T, _>(&a, ldau, nu, batchu, "A", "strideA", "lda", !factors_a)?;
    if nrhsu > 0 {
        check_operand::<T, _>(&b, ldbu, nrhsu, batchu, "B", "strideB", "ldb", false)?;
    }
    Ok(Some(Potrs { uplo, n: nu, nrhs: nrhsu, a, lda: ldau, b, ldb: ldbu, skip: std::ptr::null(), batch: batchu }))
}

/// Solves `A_i·X_i = B_i` with the factors of [`potrf`] (X overwrites B): for uplo lower
/// `L·y = b`, then `Lᴴ·x = y`; for upper `Uᴴ·y = b`, then `U·x = y`. The factors are used
/// as given (no check of the diagonal, as LAPACK `?potrs`).
///
/// # Safety
/// As [`potrf`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn potrs<T: Blas>(h: &mut Handle, uplo: Uplo, n: i64, nrhs: i64, a: Batch<*const T>, lda: i64, b: Batch<*mut T>, ldb: i64, batch: i64) -> Result<()> {
    let Some(g) = check_potrs(false, uplo, n, nrhs, a, lda, b, ldb, batch)? else { return Ok(()) };
    if g.nrhs == 0 {
        return Ok(());
    }
    let args: [ArgPtr; 2] = [(a.raw(), "A"), (b.raw(), "B")];
    let space = space_of(h, &args, &[(array_of(&a), "A"), (array_of(&b), "B")], &["B"], g.batch)?;
    match &mut h.state {
        State::Cpu => cpu::potrs(&g),
        State::Cuda(ch) => cuda::potrs(ch, &g, space),
    }
}

/// Factors each A_i ([`potrf`]) and solves `A_i·X_i = B_i` ([`potrs`]), X overwriting B.
/// Where `info[i] > 0`, B_i is left unchanged. nrhs = 0 only factors.
///
/// # Safety
/// As [`potrf`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn posv<T: Blas>(h: &mut Handle, uplo: Uplo, n: i64, nrhs: i64, a: Batch<*mut T>, lda: i64, b: Batch<*mut T>, ldb: i64, info: *mut i32, batch: i64) -> Result<()> {
    let ac = match a {
        Batch::Strided { ptr, stride } => Batch::Strided { ptr: ptr as *const T, stride },
        Batch::Array(p) => Batch::Array(p as *const *const T),
    };
    let Some(mut g) = check_potrs(true, uplo, n, nrhs, ac, lda, b, ldb, batch)? else { return Ok(()) };
    check_info(info, g.batch)?;
    let f = Potrf { uplo, n: g.n, a, lda: g.lda, info, batch: g.batch };
    g.skip = info;
    let mut args: Vec<ArgPtr> = vec![(a.raw(), "A"), (info as _, "info")];
    let mut arrays = vec![(array_of(&a), "A")];
    if g.nrhs > 0 {
        args.push((b.raw(), "B"));
        arrays.push((array_of(&b), "B"));
    }
    let space = space_of(h, &args, &arrays, &["A", "B", "info"], g.batch)?;
    match &mut h.state {
        State::Cpu => cpu::posv(&f, &g),
        State::Cuda(ch) => cuda::posv(ch, &f, &g, space),
    }
}

/// Safe strided [`potrf`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn potrf_strided<T: Blas>(h: &mut Handle, uplo: Uplo, n: i64, a: &mut [T], lda: i64, stride_a: i64, info: &mut [i32], batch: i64) -> Result<()> {
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { potrf(h, uplo, n, Batch::Strided { ptr: a.as_mut_ptr(), stride: stride_a }, lda, info.as_mut_ptr(), batch) }
}

/// Safe strided [`potrs`] on host slices.
#[allow(clippy::too_many_arguments)]
pub fn potrs_strided<T: Blas>(h: &mut Handle, uplo: Uplo, n: i64, nrhs: i64, a: &[T], lda: i64, stride_a: i64, b: &mut [T], ldb: i64, stride_b: i64, batch: i64) -> Result<()> {
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(b.len(), needed(ldb, nrhs, stride_b, batch), "B")?;
    // SAFETY: as above.
    unsafe { potrs(h, uplo, n, nrhs, Batch::Strided { ptr: a.as_ptr(), stride: stride_a }, lda, Batch::Strided { ptr: b.as_mut_ptr(), stride: stride_b }, ldb, batch) }
}

/// Safe strided [`posv`] on host slices.
#[allow(clippy::too_many_arguments)]
pub fn posv_strided<T: Blas>(h: &mut Handle, uplo: Uplo, n: i64, nrhs: i64, a: &mut [T], lda: i64, stride_a: i64, b: &mut [T], ldb: i64, stride_b: i64, info: &mut [i32], batch: i64) -> Result<()> {
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(b.len(), needed(ldb, nrhs, stride_b, batch), "B")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: as above.
    unsafe { posv(h, uplo, n, nrhs, Batch::Strided { ptr: a.as_mut_ptr(), stride: stride_a }, lda, Batch::Strided { ptr: b.as_mut_ptr(), stride: stride_b }, ldb, info.as_mut_ptr(), batch) }
}
