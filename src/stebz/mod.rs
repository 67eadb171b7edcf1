//! Eigenvalues of symmetric tridiagonal matrices by bisection, with LAPACK `?stebz`'s
//! semantics, and the Sturm counts they rest on. T is n × n with diagonal d (n entries) and
//! off-diagonal e (n − 1 entries, T(k+1, k) = T(k, k+1) = e(k)).
//!
//! ```text
//! Count(μ) = #{negative pivots of T − μI = L·D·Lᵀ}:  q₁ = d₁ − μ,  q_k = (d_k − e²_{k−1}/q_{k−1}) − μ
//! ```
//!
//! with LAPACK's guard (|q| < pivmin → q = −pivmin, pivmin = safmin·max(1, max e²_k)), and T
//! split where e²_k < ulp²·|d_k·d_{k+1}| + safmin (e²_k taken as 0 there). Count(μ) is the
//! number of eigenvalues below μ; as in LAPACK, a pivot taken as −pivmin counts, so an
//! eigenvalue equal to μ (within rounding) is counted too.
//!
//! - [`stebz_batched`]: the eigenvalues of each matrix of a strided batch in a range: all,
//!   those in (vl, vu], or those of index il … iu (1-based, ascending), ascending in w_i, their
//!   number in m_i. Bisection from the Gershgorin interval (widened by 2.1·n·ulp·‖T‖ +
//!   4.2·pivmin) until an interval (a, b] is narrower than max(abstol, pivmin,
//!   2·ulp·max(|a|, |b|)); abstol ≤ 0 means LAPACK's default ulp·max(|gl|, |gu|). The
//!   eigenvalue is the midpoint.
//! - [`stecount_batched`]: Count(μ_j) of each matrix for a set of shifts.
//!
//! `info` per matrix: 0; k in 1 … n, k eigenvalues of the range not computed to the
//! tolerance (not converged, or, CPU backend, not resolved by LAPACK: its info 2 and 4); n + 1
//! when d or e holds a NaN or an Inf (or an e_k whose square overflows): then m = 0 and w is
//! not written. The counts of such a matrix, and at a NaN shift, are −1.
//!
//! CPU backend: LAPACK `?stebz` (ORDER = 'E') per matrix under rayon; the counts in Rust
//! exactly as LAPACK's `?laebz` forms them. CUDA backend: `cuda.rs`.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::check::{check_len, check_span, check_stride, needed, nonneg, not_null};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::{common_space, ArgPtr};
use crate::lapack::RealLapack;

/// The range of eigenvalues `stebz` computes, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_stebz_range {
    /// Every eigenvalue (LAPACK RANGE = 'A').
    NUMGPU_STEBZ_ALL = 0,
    /// The eigenvalues in the half-open interval (vl, vu] (RANGE = 'V').
    NUMGPU_STEBZ_VALUE = 1,
    /// The il-th through iu-th smallest eigenvalues, 1-based (RANGE = 'I').
    NUMGPU_STEBZ_INDEX = 2,
}

/// A `numgpu_stebz_range` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_stebz_range`.
pub type StebzRangeArg = i32;

/// A validated range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range<T> {
    All,
    /// (vl, vu], vl < vu.
    Value(T, T),
    /// Indices il … iu, 1 ≤ il ≤ iu ≤ n.
    Index(usize, usize),
}

impl<T: RealLapack> Range<T> {
    /// Validates the C arguments of a range (`range`, `vl`, `vu`, `il`, `iu`) for order n
    /// (LAPACK's checks: vl < vu; 1 ≤ il ≤ max(1, n), min(n, il) ≤ iu ≤ n).
    pub fn from_c(range: i32, n: usize, vl: T, vu: T, il: i64, iu: i64) -> Result<Range<T>> {
        match range {
            0 => Ok(Range::All),
            1 if vl < vu => Ok(Range::Value(vl, vu)),
            1 => Err(Error::arg("vu", format!("(vu = {vu:?}) must be > vl = {vl:?}"))),
            2 if il < 1 || il as u64 > n.max(1) as u64 => Err(Error::arg("il", format!("(il = {il}) must be in [1, max(1, n) = {}]", n.max(1)))),
            2 if iu < il.min(n as i64) || iu as u64 > n as u64 => Err(Error::arg("iu", format!("(iu = {iu}) must be in [min(n, il), n] = [{}, {n}]", il.min(n as i64)))),
            2 => Ok(Range::Index(il as usize, iu as usize)),
            _ => Err(Error::arg("range", format!("(range = {range}) must be NUMGPU_STEBZ_ALL (0), NUMGPU_STEBZ_VALUE (1) or NUMGPU_STEBZ_INDEX (2)"))),
        }
    }

    /// The eigenvalue indices (1-based) the range can hold: all for VALUE, whose number is
    /// known only from the counts.
    pub fn window(&self, n: usize) -> (usize, usize) {
        match *self {
            Range::Index(il, iu) => (il, iu),
            _ => (1, n),
        }
    }
}

/// One validated call of [`stebz_batched`] (n, batch ≥ 1).
#[derive(Clone, Copy, Debug)]
pub struct Stebz<T> {
    pub n: usize,
    pub range: Range<T>,
    /// As given: ≤ 0 selects the default.
    pub abstol: T,
    /// Diagonals, n entries each, `stride_d` apart (0: one matrix for the batch).
    pub d: *const T,
    pub stride_d: usize,
    /// Off-diagonals, n − 1 entries each; NULL possible when n = 1.
    pub e: *const T,
    pub stride_e: usize,
    /// `batch` entries, out.
    pub m: *mut i64,
    /// n entries per matrix, `stride_w` apart; the first m_i written.
    pub w: *mut T,
    pub stride_w: usize,
    /// `batch` entries, out.
    pub info: *mut i32,
    pub batch: usize,
}

/// One validated call of [`stecount_batched`] (n, nmu, batch ≥ 1).
#[derive(Clone, Copy, Debug)]
pub struct Stecount<T> {
    pub n: usize,
    pub d: *const T,
    pub stride_d: usize,
    pub e: *const T,
    pub stride_e: usize,
    /// The shifts, `nmu` entries, shared by the batch.
    pub nmu: usize,
    pub mu: *const T,
    /// `nmu·batch` entries, out: Count_i(μ_j) at `j + i·nmu`.
    pub count: *mut i64,
    pub batch: usize,
}

// SAFETY: these carry the caller's pointers; the backends write matrix i's m, w and info (or
// counts) from one task, block or thread group, and the outputs of different matrices do not
// overlap (checked strides); d, e and mu are only read.
unsafe impl<T: Send> Send for Stebz<T> {}
unsafe impl<T: Sync> Sync for Stebz<T> {}
unsafe impl<T: Send> Send for Stecount<T> {}
unsafe impl<T: Sync> Sync for Stecount<T> {}

/// The matrices of a call: d and e not NULL (e may be when n = 1), strides and extents.
fn check_matrices<T>(n: usize, d: *const T, stride_d: i64, e: *const T, stride_e: i64, batch: usize) -> Result<()> {
    not_null(d, "d")?;
    check_stride(stride_d, n, true, batch, "strideD", "n")?;
    check_span::<T>(n, stride_d as usize, batch, "d")?;
    if n > 1 {
        not_null(e, "e")?;
    }
    check_stride(stride_e, n - 1, true, batch, "strideE", "n - 1")?;
    check_span::<T>(n - 1, stride_e as usize, batch, "e").map(|_| ())
}

/// The orders the kernels' 32-bit counts and LAPACK's integers hold.
fn fits_counts(n: usize) -> Result<()> {
    if n > i32::MAX as usize {
        return Err(Error::not_supported(format!("n = {n} exceeds 2^31 - 1, the eigenvalue counts' range")));
    }
    Ok(())
}

/// Computes eigenvalues of each symmetric tridiagonal matrix of a strided batch by
/// bisection (see the module docs). n = 0 or batch = 0 touches nothing.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes and strides describe, all in host
/// memory or all in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn stebz_batched<T: RealLapack>(
    h: &mut Handle,
    range: i32,
    n: i64,
    vl: T,
    vu: T,
    il: i64,
    iu: i64,
    abstol: T,
    d: *const T,
    stride_d: i64,
    e: *const T,
    stride_e: i64,
    m: *mut i64,
    w: *mut T,
    stride_w: i64,
    info: *mut i32,
    batch: i64,
) -> Result<()> {
    let nu = nonneg(n, "n")?;
    let range = Range::from_c(range, nu, vl, vu, il, iu)?;
    if !num_traits::Float::is_finite(abstol) {
        return Err(Error::arg("abstol", format!("(abstol = {abstol:?}) must be finite")));
    }
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(());
    }
    check_matrices(nu, d, stride_d, e, stride_e, batchu)?;
    not_null(m, "m")?;
    check_span::<i64>(1, 1, batchu, "m")?;
    not_null(w, "w")?;
    check_stride(stride_w, nu, false, batchu, "strideW", "n")?;
    check_span::<T>(nu, stride_w as usize, batchu, "w")?;
    not_null(info, "info")?;
    check_span::<i32>(1, 1, batchu, "info")?;
    fits_counts(nu)?;
    let p = Stebz { n: nu, range, abstol, d, stride_d: stride_d as usize, e, stride_e: stride_e as usize, m, w, stride_w: stride_w as usize, info, batch: batchu };
    let args: [ArgPtr; 5] = [(d as _, "d"), (e as _, "e"), (m as _, "m"), (w as _, "w"), (info as _, "info")];
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => cpu::stebz(&p),
        State::Cuda(ch) => cuda::stebz(ch, &p, space),
    }
}

/// Counts, for each matrix of a strided batch and each shift μ_j, the eigenvalues below μ_j
/// (see the module docs): `count[j + i·nmu]`. n, nmu or batch = 0 touches nothing.
///
/// # Safety
/// As [`stebz_batched`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn stecount_batched<T: RealLapack>(h: &mut Handle, n: i64, nmu: i64, d: *const T, stride_d: i64, e: *const T, stride_e: i64, mu: *const T, count: *mut i64, batch: i64) -> Result<()> {
    let nu = nonneg(n, "n")?;
    let nmuu = nonneg(nmu, "nmu")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || nmuu == 0 || batchu == 0 {
        return Ok(());
    }
    check_matrices(nu, d, stride_d, e, stride_e, batchu)?;
    not_null(mu, "mu")?;
    check_span::<T>(nmuu, 0, 1, "mu")?;
    not_null(count, "count")?;
    check_span::<i64>(nmuu, nmuu, batchu, "count")?;
    fits_counts(nu)?;
    let p = Stecount { n: nu, d, stride_d: stride_d as usize, e, stride_e: stride_e as usize, nmu: nmuu, mu, count, batch: batchu };
    let args: [ArgPtr; 4] = [(d as _, "d"), (e as _, "e"), (mu as _, "mu"), (count as _, "count")];
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => cpu::stecount(&p),
        State::Cuda(ch) => cuda::stecount(ch, &p, space),
    }
}

/// Entries of e a matrix of order n has: n − 1 (0 for n ≤ 1).
fn off_len(n: i64) -> i64 {
    (n - 1).max(0)
}

/// Safe [`stebz_batched`] on host slices (each checked to cover its extent; e may be empty
/// when n = 1).
#[allow(clippy::too_many_arguments)]
pub fn stebz_batched_slices<T: RealLapack>(
    h: &mut Handle,
    range: i32,
    n: i64,
    vl: T,
    vu: T,
    il: i64,
    iu: i64,
    abstol: T,
    d: &[T],
    stride_d: i64,
    e: &[T],
    stride_e: i64,
    m: &mut [i64],
    w: &mut [T],
    stride_w: i64,
    info: &mut [i32],
    batch: i64,
) -> Result<()> {
    check_len(d.len(), needed(n, 1, stride_d, batch), "d")?;
    check_len(e.len(), needed(off_len(n), 1, stride_e, batch), "e")?;
    check_len(m.len(), batch.max(0) as usize, "m")?;
    check_len(w.len(), needed(n, 1, stride_w, batch), "w")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { stebz_batched(h, range, n, vl, vu, il, iu, abstol, d.as_ptr(), stride_d, e.as_ptr(), stride_e, m.as_mut_ptr(), w.as_mut_ptr(), stride_w, info.as_mut_ptr(), batch) }
}

/// Safe [`stecount_batched`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn stecount_batched_slices<T: RealLapack>(h: &mut Handle, n: i64, d: &[T], stride_d: i64, e: &[T], stride_e: i64, mu: &[T], count: &mut [i64], batch: i64) -> Result<()> {
    check_len(d.len(), needed(n, 1, stride_d, batch), "d")?;
    check_len(e.len(), needed(off_len(n), 1, stride_e, batch), "e")?;
    check_len(count.len(), needed(mu.len() as i64, batch, 0, 1), "count")?;
    // SAFETY: as above; mu has nmu = mu.len() entries.
    unsafe { stecount_batched(h, n, mu.len() as i64, d.as_ptr(), stride_d, e.as_ptr(), stride_e, mu.as_ptr(), count.as_mut_ptr(), batch) }
}
