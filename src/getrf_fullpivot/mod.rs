//! Batched LU with complete (full) pivoting, LAPACK `?getc2`/`?gesc2` semantics:
//!
//! `A_i = P_i · L_i · U_i · Q_i`, L unit lower and U upper stored in place of A_i, with row
//! interchanges `ipiv` and column interchanges `jpiv` (1-based, `n` per matrix, contiguous:
//! matrix i's are at `ipiv + i·n`). Step k takes the element of largest absolute value
//! (complex: modulus) of the trailing block; ties go to the one LAPACK's scan keeps (the
//! largest row index, then the largest column index). NaN and ±Inf rank above every finite
//! value, so a non-finite pivot appears at the first step whose trailing block holds one.
//!
//! `info` per matrix, in this order of precedence:
//! - `k` when the pivot of step k is not finite (the first such step; the factors are
//!   non-finite);
//! - mode GETC2: `k`, the last step whose pivot was below `SMIN = max(ε·max|A|, smlnum)`
//!   and was replaced by SMIN (as `?getc2`; n = 1 compares with smlnum);
//! - mode STRICT: `k` when the trailing block of step k is exactly zero (rank k−1): the
//!   remaining pivots are the identity and the factors stay as computed so far;
//! - 0 otherwise.
//!
//! `getrs` solves with the factors, `gesv` factors (STRICT) and solves, `gesc2` is
//! `?gesc2` (one right-hand side, with its overflow-avoiding scale) for each matrix.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::batch::{array_of, Batch};
use crate::core::check::{check_array, check_extent, check_span, check_ld, check_len, check_operand, check_stride, needed, nonneg, not_null, space_of};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::{common_space, ArgPtr, Space};
use crate::core::{Op, Scalar};
use crate::lapack::Blas;

/// How `getrf_fullpivot_batched` treats small and zero pivots, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_fullpivot_mode {
    /// Exactly LAPACK `?getc2`: a pivot below SMIN is replaced by SMIN and the
    /// factorisation goes on; `info` = the last such step.
    NUMGPU_FULLPIVOT_GETC2 = 0,
    /// No perturbation: a trailing block that is exactly zero at step k stops the
    /// factorisation with `info = k`.
    NUMGPU_FULLPIVOT_STRICT = 1,
}

/// A `numgpu_fullpivot_mode` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_fullpivot_mode`.
pub type FullpivotModeArg = i32;

/// See [`numgpu_fullpivot_mode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Getc2,
    Strict,
}

impl Mode {
    /// Validates a mode value from C (the parameter `mode`).
    pub fn from_i32(v: i32) -> Result<Mode> {
        match v {
            0 => Ok(Mode::Getc2),
            1 => Ok(Mode::Strict),
            _ => Err(Error::arg("mode", format!("(mode = {v}) must be NUMGPU_FULLPIVOT_GETC2 (0) or NUMGPU_FULLPIVOT_STRICT (1)"))),
        }
    }
    pub fn code(self) -> i32 {
        match self {
            Mode::Getc2 => 0,
            Mode::Strict => 1,
        }
    }
}

/// One validated batched factorisation.
#[derive(Clone, Copy, Debug)]
pub struct Getrf<T> {
    pub n: usize,
    pub a: Batch<*mut T>,
    pub lda: usize,
    pub ipiv: *mut i32,
    pub jpiv: *mut i32,
    pub info: *mut i32,
    pub batch: usize,
    pub mode: Mode,
}

/// One validated batched solve with the factors. `skip`: when non-NULL, matrix i is left
/// alone where `skip[i] != 0` (gesv's singular matrices).
#[derive(Clone, Copy, Debug)]
pub struct Getrs<T> {
    pub trans: Op,
    pub n: usize,
    pub nrhs: usize,
    pub a: Batch<*const T>,
    pub lda: usize,
    pub ipiv: *const i32,
    pub jpiv: *const i32,
    pub b: Batch<*mut T>,
    pub ldb: usize,
    pub skip: *const i32,
    pub batch: usize,
}

/// One validated batched `?gesc2`.
#[derive(Clone, Copy, Debug)]
pub struct Gesc2<T: Scalar> {
    pub n: usize,
    pub a: Batch<*const T>,
    pub lda: usize,
    pub rhs: Batch<*mut T>,
    pub ipiv: *const i32,
    pub jpiv: *const i32,
    pub scale: *mut T::Real,
    pub batch: usize,
}

// SAFETY: these only carry the caller's pointers; the backends touch matrix i's data from
// one thread (CPU) or one block/warp (CUDA), and distinct matrices are the caller's promise
// (checked for strided outputs).
unsafe impl<T: Send> Send for Getrf<T> {}
unsafe impl<T: Sync> Sync for Getrf<T> {}
unsafe impl<T: Send> Send for Getrs<T> {}
unsafe impl<T: Sync> Sync for Getrs<T> {}
unsafe impl<T: Scalar> Send for Gesc2<T> {}
unsafe impl<T: Scalar> Sync for Gesc2<T> {}

/// A pivot or info array: non-NULL, `per` entries for each of `batch` problems.
fn check_index_array(p: *const i32, per: usize, batch: usize, name: &'static str) -> Result<()> {
    not_null(p, name)?;
    check_span::<i32>(per, per, batch, name).map(|_| ())
}

/// Host-side check of user pivots for `getrs`/`gesc2` on host arrays: entry k of matrix i
/// in [k, n] (1-based), as `?getc2` produces them. (Device pivots are not read on the host:
/// the kernels treat an out-of-range entry as no interchange and never access outside the
/// matrix.)
unsafe fn check_pivots(p: *const i32, n: usize, batch: usize, name: &'static str) -> Result<()> {
    for i in 0..batch {
        for k in 0..n {
            let v = *p.add(i * n + k);
            if v < (k + 1) as i32 || v as i64 > n as i64 {
                return Err(Error::arg(name, format!("({name}[{}] = {v}, matrix {i}) must be in [{}, {n}], as getrf_fullpivot_batched writes it", i * n + k, k + 1)));
            }
        }
    }
    Ok(())
}

/// Batched LU with complete pivoting; see the module docs.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes describe, all in host memory or
/// all in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn getrf<T: Blas>(h: &mut Handle, mode: Mode, n: i64, a: Batch<*mut T>, lda: i64, ipiv: *mut i32, jpiv: *mut i32, info: *mut i32, batch: i64) -> Result<()> {
    let nu = nonneg(n, "n")?;
    let ldau = check_ld(lda, nu, "lda", "n")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(());
    }
    check_operand::<T, _>(&a, ldau, nu, batchu, "A", "strideA", "lda", false)?;
    check_index_array(ipiv, nu, batchu, "ipiv")?;
    check_index_array(jpiv, nu, batchu, "jpiv")?;
    check_index_array(info, 1, batchu, "info")?;
    let f = Getrf { n: nu, a, lda: ldau, ipiv, jpiv, info, batch: batchu, mode };
    let args: [ArgPtr; 4] = [(a.raw(), "A"), (ipiv as _, "ipiv"), (jpiv as _, "jpiv"), (info as _, "info")];
    let space = space_of(h, &args, &[(array_of(&a), "A")], &["A"], batchu)?;
    match &mut h.state {
        State::Cpu => cpu::getrf(&f),
        State::Cuda(ch) => cuda::getrf(ch, &f, space),
    }
}

/// Validates a solve; `factors_a`: A is factored in place first (gesv), so the batch may not
/// share one matrix (strideA 0).
#[allow(clippy::too_many_arguments)]
unsafe fn check_getrs<T: Scalar>(
    factors_a: bool,
    trans: Op,
    n: i64,
    nrhs: i64,
    a: Batch<*const T>,
    lda: i64,
    ipiv: *const i32,
    jpiv: *const i32,
    b: Batch<*mut T>,
    ldb: i64,
    batch: i64,
) -> Result<Option<Getrs<T>>> {
    let nu = nonneg(n, "n")?;
    let nrhsu = nonneg(nrhs, "nrhs")?;
    let ldau = check_ld(lda, nu, "lda", "n")?;
    let ldbu = check_ld(ldb, nu, "ldb", "n")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(None);
    }
    check_operand::<T, _>(&a, ldau, nu, batchu, "A", "strideA", "lda", !factors_a)?;
    check_index_array(ipiv, nu, batchu, "ipiv")?;
    check_index_array(jpiv, nu, batchu, "jpiv")?;
    if nrhsu > 0 {
        check_operand::<T, _>(&b, ldbu, nrhsu, batchu, "B", "strideB", "ldb", false)?;
    }
    Ok(Some(Getrs { trans, n: nu, nrhs: nrhsu, a, lda: ldau, ipiv, jpiv, b, ldb: ldbu, skip: std::ptr::null(), batch: batchu }))
}

/// Solves `op(A_i)·X_i = B_i` with the factors of [`getrf`] (X overwrites B): trans N is
/// `laswp(ipiv)`, unit-L solve, U solve, reverse `laswp(jpiv)`; T and C the transposed chain.
///
/// # Safety
/// As [`getrf`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn getrs<T: Blas>(h: &mut Handle, trans: Op, n: i64, nrhs: i64, a: Batch<*const T>, lda: i64, ipiv: *const i32, jpiv: *const i32, b: Batch<*mut T>, ldb: i64, batch: i64) -> Result<()> {
    let Some(g) = check_getrs(false, trans, n, nrhs, a, lda, ipiv, jpiv, b, ldb, batch)? else { return Ok(()) };
    if g.nrhs == 0 {
        return Ok(());
    }
    let args: [ArgPtr; 4] = [(a.raw(), "A"), (ipiv as _, "ipiv"), (jpiv as _, "jpiv"), (b.raw(), "B")];
    let space = space_of(h, &args, &[(array_of(&a), "A"), (array_of(&b), "B")], &["B"], g.batch)?;
    if space == Space::Host {
        check_pivots(ipiv, g.n, g.batch, "ipiv")?;
        check_pivots(jpiv, g.n, g.batch, "jpiv")?;
    }
    match &mut h.state {
        State::Cpu => cpu::getrs(&g),
        State::Cuda(ch) => cuda::getrs(ch, &g, space),
    }
}

/// Factors each A_i (mode STRICT) and solves `A_i·X_i = B_i` (X overwrites B). Where
/// `info[i] > 0` (exactly singular, or a non-finite pivot), B_i is left unchanged. nrhs = 0
/// only factors.
///
/// # Safety
/// As [`getrf`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn gesv<T: Blas>(h: &mut Handle, n: i64, nrhs: i64, a: Batch<*mut T>, lda: i64, ipiv: *mut i32, jpiv: *mut i32, b: Batch<*mut T>, ldb: i64, info: *mut i32, batch: i64) -> Result<()> {
    let ac = match a {
        Batch::Strided { ptr, stride } => Batch::Strided { ptr: ptr as *const T, stride },
        Batch::Array(p) => Batch::Array(p as *const *const T),
    };
    let Some(mut g) = check_getrs(true, Op::N, n, nrhs, ac, lda, ipiv, jpiv, b, ldb, batch)? else { return Ok(()) };
    check_index_array(info, 1, g.batch, "info")?;
    let f = Getrf { n: g.n, a, lda: g.lda, ipiv, jpiv, info, batch: g.batch, mode: Mode::Strict };
    g.skip = info;
    let mut args: Vec<ArgPtr> = vec![(a.raw(), "A"), (ipiv as _, "ipiv"), (jpiv as _, "jpiv"), (info as _, "info")];
    let mut arrays = vec![(array_of(&a), "A")];
    if g.nrhs > 0 {
        args.push((b.raw(), "B"));
        arrays.push((array_of(&b), "B"));
    }
    let space = space_of(h, &args, &arrays, &["A", "B"], g.batch)?;
    match &mut h.state {
        State::Cpu => {
            cpu::getrf(&f)?;
            if g.nrhs > 0 {
                cpu::getrs(&g)?;
            }
            Ok(())
        }
        State::Cuda(ch) => cuda::gesv(ch, &f, &g, space),
    }
}

/// `?gesc2` for each matrix: solves `A_i·x_i = scale_i·rhs_i` with the factors of
/// [`getrf`] (x overwrites rhs), scaling to avoid overflow as LAPACK does.
///
/// # Safety
/// As [`getrf`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn gesc2<T: Blas>(
    h: &mut Handle,
    n: i64,
    a: *const T,
    lda: i64,
    stride_a: i64,
    rhs: *mut T,
    stride_rhs: i64,
    ipiv: *const i32,
    jpiv: *const i32,
    scale: *mut T::Real,
    batch: i64,
) -> Result<()> {
    let nu = nonneg(n, "n")?;
    let ldau = check_ld(lda, nu, "lda", "n")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(());
    }
    let ab = Batch::Strided { ptr: a, stride: stride_a };
    check_operand::<T, _>(&ab, ldau, nu, batchu, "A", "strideA", "lda", true)?;
    not_null(rhs, "rhs")?;
    check_stride(stride_rhs, nu, false, batchu, "strideRhs", "n")?;
    check_extent::<T>(nu, 1, stride_rhs, batchu, "rhs")?;
    check_index_array(ipiv, nu, batchu, "ipiv")?;
    check_index_array(jpiv, nu, batchu, "jpiv")?;
    not_null(scale, "scale")?;
    check_array::<T::Real>(batchu, "scale")?;
    let g = Gesc2 { n: nu, a: ab, lda: ldau, rhs: Batch::Strided { ptr: rhs, stride: stride_rhs }, ipiv, jpiv, scale, batch: batchu };
    let args: [ArgPtr; 5] = [(a as _, "A"), (rhs as _, "rhs"), (ipiv as _, "ipiv"), (jpiv as _, "jpiv"), (scale as _, "scale")];
    let space = common_space(h, &args)?;
    if space == Space::Host {
        check_pivots(ipiv, nu, batchu, "ipiv")?;
        check_pivots(jpiv, nu, batchu, "jpiv")?;
    }
    match &mut h.state {
        State::Cpu => cpu::gesc2(&g),
        State::Cuda(ch) => cuda::gesc2(ch, &g, space),
    }
}

/// Safe strided [`getrf`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn getrf_strided<T: Blas>(h: &mut Handle, mode: Mode, n: i64, a: &mut [T], lda: i64, stride_a: i64, ipiv: &mut [i32], jpiv: &mut [i32], info: &mut [i32], batch: i64) -> Result<()> {
    let nb = n.max(0).saturating_mul(batch.max(0)) as usize;
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(ipiv.len(), nb, "ipiv")?;
    check_len(jpiv.len(), nb, "jpiv")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { getrf(h, mode, n, Batch::Strided { ptr: a.as_mut_ptr(), stride: stride_a }, lda, ipiv.as_mut_ptr(), jpiv.as_mut_ptr(), info.as_mut_ptr(), batch) }
}

/// Safe strided [`getrs`] on host slices.
#[allow(clippy::too_many_arguments)]
pub fn getrs_strided<T: Blas>(h: &mut Handle, trans: Op, n: i64, nrhs: i64, a: &[T], lda: i64, stride_a: i64, ipiv: &[i32], jpiv: &[i32], b: &mut [T], ldb: i64, stride_b: i64, batch: i64) -> Result<()> {
    let nb = n.max(0).saturating_mul(batch.max(0)) as usize;
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(ipiv.len(), nb, "ipiv")?;
    check_len(jpiv.len(), nb, "jpiv")?;
    check_len(b.len(), needed(ldb, nrhs, stride_b, batch), "B")?;
    // SAFETY: as above.
    unsafe { getrs(h, trans, n, nrhs, Batch::Strided { ptr: a.as_ptr(), stride: stride_a }, lda, ipiv.as_ptr(), jpiv.as_ptr(), Batch::Strided { ptr: b.as_mut_ptr(), stride: stride_b }, ldb, batch) }
}

/// Safe strided [`gesv`] on host slices.
#[allow(clippy::too_many_arguments)]
pub fn gesv_strided<T: Blas>(h: &mut Handle, n: i64, nrhs: i64, a: &mut [T], lda: i64, stride_a: i64, ipiv: &mut [i32], jpiv: &mut [i32], b: &mut [T], ldb: i64, stride_b: i64, info: &mut [i32], batch: i64) -> Result<()> {
    let nb = n.max(0).saturating_mul(batch.max(0)) as usize;
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(ipiv.len(), nb, "ipiv")?;
    check_len(jpiv.len(), nb, "jpiv")?;
    check_len(b.len(), needed(ldb, nrhs, stride_b, batch), "B")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: as above.
    unsafe {
        gesv(
            h,
            n,
            nrhs,
            Batch::Strided { ptr: a.as_mut_ptr(), stride: stride_a },
            lda,
            ipiv.as_mut_ptr(),
            jpiv.as_mut_ptr(),
            Batch::Strided { ptr: b.as_mut_ptr(), stride: stride_b },
            ldb,
            info.as_mut_ptr(),
            batch,
        )
    }
}

/// Safe [`gesc2`] on host slices.
#[allow(clippy::too_many_arguments)]
pub fn gesc2_strided<T: Blas>(h: &mut Handle, n: i64, a: &[T], lda: i64, stride_a: i64, rhs: &mut [T], stride_rhs: i64, ipiv: &[i32], jpiv: &[i32], scale: &mut [T::Real], batch: i64) -> Result<()> {
    let nb = n.max(0).saturating_mul(batch.max(0)) as usize;
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(rhs.len(), needed(n, 1, stride_rhs, batch), "rhs")?;
    check_len(ipiv.len(), nb, "ipiv")?;
    check_len(jpiv.len(), nb, "jpiv")?;
    check_len(scale.len(), batch.max(0) as usize, "scale")?;
    // SAFETY: as above.
    unsafe { gesc2(h, n, a.as_ptr(), lda, stride_a, rhs.as_mut_ptr(), stride_rhs, ipiv.as_ptr(), jpiv.as_ptr(), scale.as_mut_ptr(), batch) }
}

