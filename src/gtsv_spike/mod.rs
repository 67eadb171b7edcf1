//! Tridiagonal solvers with LAPACK `?gtsv`'s roles: for each system, `T·X = B` with T the
//! `n × n` tridiagonal matrix
//!
//! ```text
//!     [ d(1)  du(1)                         ]
//!     [ dl(1) d(2)   du(2)                  ]
//! T = [       dl(2)  d(3)   ⋱               ]
//!     [              ⋱      ⋱      du(n−1)  ]
//!     [                     dl(n−1) d(n)    ]
//! ```
//!
//! given as LAPACK takes it: sub-diagonal `dl` (n − 1 entries, T(k+1, k) = dl(k)), diagonal
//! `d` (n) and super-diagonal `du` (n − 1, T(k, k+1) = du(k)); B (`n × nrhs`) is overwritten
//! by X. Unlike LAPACK, the diagonals are inputs only and are never written.
//!
//! Three forms:
//! - [`gtsv_spike`]: one (large) system;
//! - [`gtsv_batched_strided`]: system i's diagonals at `dl + i·stride_diag`,
//!   `d + i·stride_diag`, `du + i·stride_diag` (stride 0: one matrix for the whole batch), B_i
//!   at `B + i·strideB`;
//! - [`gtsv_batched_interleaved`]: one right-hand side per system, and entry k (0-based) of
//!   system i at index `k·batch + i` of every array (one system per GPU thread, coalesced):
//!   d and b hold n rows of `batch` entries, dl and du n − 1 rows, T(k+1, k) being dl's row k
//!   and T(k, k+1) du's row k (k = 0 … n−2), LAPACK's diagonals as in the other forms.
//!   cuSPARSE's `gtsvInterleavedBatch` pads dl and du to n rows (its dl's row 0 and du's row
//!   n − 1 are zero): its arrays are `dl + batch` and `du` here.
//!
//! `info` per system: 0, or i > 0 when a pivot was exactly zero: the system is singular (on
//! CUDA, a singular SPIKE partition of a nonsingular system sends it to the whole-system
//! solver, which decides); that system's B is then left unchanged. On the CPU backend i is
//! LAPACK `?gtsv`'s (U(i, i) exactly zero). Non-finite input is not an error: `info` reports
//! only exactly zero pivots (a NaN pivot is not zero), and a NaN or Inf propagates into that
//! system's X (LAPACK's pivot comparison is false for NaN, so it takes the row interchange and
//! carries the NaN on); the other systems of a batch are solved as without it.
//!
//! [`Pivoting`] selects the CUDA algorithm: diagonal pivoting (1×1 and 2×2 pivots chosen as
//! Bunch–Kaufman / Erway et al.), stable for non-dominant and indefinite systems; or no
//! pivoting (1×1 pivots only: the Thomas algorithm), for diagonally dominant systems. On CUDA:
//! - one system above 2176 rows: SPIKE, partitions of 17 rows eliminated in parallel (with
//!   the mode's pivoting inside each), then the separators' system, recursively; the levels
//!   from the first of at most a few thousand rows down are solved in one launch (one block per
//!   right-hand side), so a system of order 2^16 takes four launches (the fallback's check
//!   included), not nine and a wait for the host. When a pivot block of a
//!   partition is exactly singular, the whole system is solved by diagonal pivoting (or Thomas)
//!   on one thread per right-hand side, which decides info. A partition
//!   never pivots across its separator, so for systems that need pivoting the backward error
//!   is bounded by the partitions' conditioning, not LAPACK's: as for cuSPARSE `gtsv2`;
//! - the strided batch, and one system up to 2176 rows: up to 68 rows a thread per system,
//!   in shared memory; above, a block per system in shared memory, SPIKE with one level of
//!   partitions when there is no pivoting or the system is diagonally dominant by rows, else
//!   the whole system by diagonal pivoting;
//! - the interleaved batch: a thread per system, the whole system; above 68 rows and when the
//!   batch has fewer than 4 × SMs × 256 systems, a thread per partition of 17 rows instead
//!   (then the separators' system and, when a pivot block of a partition or of that system is
//!   exactly singular, the whole system on the system's thread). With diagonal pivoting only
//!   the systems diagonally dominant by rows (|d(k)| ≥ |dl(k−1)| + |du(k)| on every row, as
//!   the strided batch's block kernel decides) go by partitions; the others are solved whole
//!   on the system's thread, as partitions would lose stability on them.
//!
//! The CPU backend solves with LAPACK `?gtsv` (partial pivoting) in both modes, so NOPIVOT
//! there still solves systems that need pivoting.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::batch::Batch;
use crate::core::check::{check_array, check_extent, check_span, check_ld, check_len, check_operand, check_stride, needed, nonneg, not_null};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::{common_space, ArgPtr};
use crate::lapack::Blas;

/// The algorithm of the CUDA backend, as an `int32_t` at the ABI. The CPU backend always
/// solves with LAPACK `?gtsv`'s partial pivoting, whatever the mode.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_gtsv_pivoting {
    /// Diagonal pivoting (1×1 and 2×2 pivots): stable for non-dominant and indefinite systems.
    /// The default.
    NUMGPU_GTSV_DIAG_PIVOT = 0,
    /// No pivoting (1×1 pivots only): for diagonally dominant systems only.
    NUMGPU_GTSV_NOPIVOT = 1,
}

/// A `numgpu_gtsv_pivoting` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_gtsv_pivoting`.
pub type GtsvPivotingArg = i32;

/// See [`numgpu_gtsv_pivoting`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pivoting {
    /// Diagonal pivoting with 1×1 and 2×2 pivots.
    Diagonal,
    /// No pivoting.
    NoPivot,
}

impl Pivoting {
    /// Validates a pivoting value from C (the parameter `pivoting`).
    pub fn from_i32(v: i32) -> Result<Pivoting> {
        match v {
            0 => Ok(Pivoting::Diagonal),
            1 => Ok(Pivoting::NoPivot),
            _ => Err(Error::arg("pivoting", format!("(pivoting = {v}) must be NUMGPU_GTSV_DIAG_PIVOT (0) or NUMGPU_GTSV_NOPIVOT (1)"))),
        }
    }
}

/// One validated single-system solve (n >= 1, nrhs >= 1).
#[derive(Clone, Copy, Debug)]
pub struct Gtsv<T> {
    /// Order of T.
    pub n: usize,
    /// Columns of B.
    pub nrhs: usize,
    /// Sub-diagonal, n − 1 entries, in; NULL possible when n = 1 (not referenced).
    pub dl: *const T,
    /// Diagonal, n entries, in.
    pub d: *const T,
    /// Super-diagonal, n − 1 entries, in; NULL possible when n = 1 (not referenced).
    pub du: *const T,
    /// B, `n × nrhs`, in/out: X when info = 0, else unchanged.
    pub b: *mut T,
    /// Leading dimension of B, >= n.
    pub ldb: usize,
    /// One entry, out.
    pub info: *mut i32,
    /// The CUDA algorithm.
    pub pivoting: Pivoting,
}

/// One validated strided batch (n, nrhs, batch >= 1): system i's diagonals at
/// `dl/d/du + i·stride_diag`, B_i at `b + i·stride_b`.
#[derive(Clone, Copy, Debug)]
pub struct GtsvStrided<T> {
    /// Order of every T_i.
    pub n: usize,
    /// Columns of every B_i.
    pub nrhs: usize,
    /// Sub-diagonals, n − 1 entries each, in; NULL possible when n = 1 (not referenced).
    pub dl: *const T,
    /// Diagonals, n entries each, in.
    pub d: *const T,
    /// Super-diagonals, n − 1 entries each, in; NULL possible when n = 1 (not referenced).
    pub du: *const T,
    /// Elements between systems' diagonals: 0 (one matrix for all) or >= n.
    pub stride_diag: usize,
    /// B_i, `n × nrhs` each, in/out.
    pub b: *mut T,
    /// Leading dimension of every B_i, >= n.
    pub ldb: usize,
    /// Elements between the B_i, >= ldb·nrhs when batch > 1.
    pub stride_b: usize,
    /// `batch` entries, out.
    pub info: *mut i32,
    /// Number of systems.
    pub batch: usize,
    /// The CUDA algorithm.
    pub pivoting: Pivoting,
}

/// One validated interleaved batch (n, batch >= 1): entry k of system i at `k·batch + i` of
/// dl, d, du and b (d and b: n rows of `batch` entries; dl and du: n − 1 rows).
#[derive(Clone, Copy, Debug)]
pub struct GtsvInterleaved<T> {
    /// Order of every T_i.
    pub n: usize,
    /// Sub-diagonals (row k: T(k+1, k), k = 0 … n−2), in; NULL possible when n = 1.
    pub dl: *const T,
    /// Diagonals, in.
    pub d: *const T,
    /// Super-diagonals (row k: T(k, k+1), k = 0 … n−2), in; NULL possible when n = 1.
    pub du: *const T,
    /// The right-hand sides, in/out: x_i when info[i] = 0, else unchanged.
    pub b: *mut T,
    /// `batch` entries, out.
    pub info: *mut i32,
    /// Number of systems.
    pub batch: usize,
    /// The CUDA algorithm.
    pub pivoting: Pivoting,
}

// SAFETY: these only carry the caller's pointers; the backends write system i's B and info
// from one thread (CPU) or one thread/warp/block (CUDA), and the B_i of a strided batch do not
// overlap (checked); the diagonals are only read.
unsafe impl<T: Send> Send for Gtsv<T> {}
unsafe impl<T: Sync> Sync for Gtsv<T> {}
unsafe impl<T: Send> Send for GtsvStrided<T> {}
unsafe impl<T: Sync> Sync for GtsvStrided<T> {}
unsafe impl<T: Send> Send for GtsvInterleaved<T> {}
unsafe impl<T: Sync> Sync for GtsvInterleaved<T> {}

/// dl, d, du not NULL, except dl and du when n = 1 (then they hold no referenced entry).
fn check_diagonals<T>(dl: *const T, d: *const T, du: *const T, n: usize) -> Result<()> {
    for (p, name) in [(dl, "dl"), (d, "d"), (du, "du")] {
        if p.is_null() && (n > 1 || name == "d") {
            let when = if name == "d" { "" } else { " when n > 1" };
            return Err(Error::arg(name, format!("({name}) must not be NULL{when}")));
        }
    }
    Ok(())
}

/// The `count` entries of info: not NULL.
fn check_info(info: *const i32, count: usize) -> Result<()> {
    not_null(info, "info")?;
    check_array::<i32>(count, "info")
}

/// The arrays of a call.
fn args<T>(dl: *const T, d: *const T, du: *const T, b: *const T, info: *const i32) -> [ArgPtr; 5] {
    [(dl as _, "dl"), (d as _, "d"), (du as _, "du"), (b as _, "B"), (info as _, "info")]
}

/// Solves `T·X = B` for one tridiagonal system (see the module docs); X overwrites B unless
/// `*info > 0`. n = 0 or nrhs = 0
/// touches nothing (info included).
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes describe, all in host memory or all
/// in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gtsv_spike<T: Blas>(h: &mut Handle, pivoting: Pivoting, n: i64, nrhs: i64, dl: *const T, d: *const T, du: *const T, b: *mut T, ldb: i64, info: *mut i32) -> Result<()> {
    let nu = nonneg(n, "n")?;
    let nrhsu = nonneg(nrhs, "nrhs")?;
    let ldbu = check_ld(ldb, nu, "ldb", "n")?;
    if nu == 0 || nrhsu == 0 {
        return Ok(());
    }
    check_diagonals(dl, d, du, nu)?;
    check_array::<T>(nu, "d")?;
    not_null(b, "B")?;
    check_extent::<T>(ldbu, nrhsu, 0, 1, "B")?;
    check_info(info, 1)?;
    let g = Gtsv {
        n: nu,
        nrhs: nrhsu,
        dl,
        d,
        du,
        b,
        ldb: ldbu,
        info,
        pivoting,
    };
    let space = common_space(h, &args(dl, d, du, b, info))?;
    match &mut h.state {
        State::Cpu => cpu::gtsv(&g),
        State::Cuda(ch) => cuda::gtsv(ch, &g, space),
    }
}

/// Solves `T_i·X_i = B_i` for a strided batch of tridiagonal systems (see the module docs);
/// X_i overwrites B_i unless `info[i] > 0`. n, nrhs or batch = 0 touches nothing.
///
/// # Safety
/// As [`gtsv_spike`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn gtsv_batched_strided<T: Blas>(
    h: &mut Handle,
    pivoting: Pivoting,
    n: i64,
    nrhs: i64,
    dl: *const T,
    d: *const T,
    du: *const T,
    stride_diag: i64,
    b: *mut T,
    ldb: i64,
    stride_b: i64,
    info: *mut i32,
    batch: i64,
) -> Result<()> {
    let nu = nonneg(n, "n")?;
    let nrhsu = nonneg(nrhs, "nrhs")?;
    let ldbu = check_ld(ldb, nu, "ldb", "n")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || nrhsu == 0 || batchu == 0 {
        return Ok(());
    }
    check_diagonals(dl, d, du, nu)?;
    check_stride(stride_diag, nu, true, batchu, "stride_diag", "n")?;
    check_extent::<T>(nu, 1, stride_diag, batchu, "d")?;
    check_operand::<T, _>(&Batch::Strided { ptr: b, stride: stride_b }, ldbu, nrhsu, batchu, "B", "strideB", "ldb", false)?;
    check_info(info, batchu)?;
    let g = GtsvStrided {
        n: nu,
        nrhs: nrhsu,
        dl,
        d,
        du,
        stride_diag: stride_diag as usize,
        b,
        ldb: ldbu,
        stride_b: stride_b as usize,
        info,
        batch: batchu,
        pivoting,
    };
    let space = common_space(h, &args(dl, d, du, b, info))?;
    match &mut h.state {
        State::Cpu => cpu::gtsv_strided(&g),
        State::Cuda(ch) => cuda::gtsv_strided(ch, &g, space),
    }
}

/// Solves `T_i·x_i = b_i` for an interleaved batch of tridiagonal systems, one right-hand side
/// each (see the module docs for the layout); x_i overwrites b_i unless `info[i] > 0`. n = 0 or batch = 0
/// touches nothing.
///
/// # Safety
/// As [`gtsv_spike`]; d and b hold `n·batch` elements, dl and du `(n − 1)·batch` (and may be
/// NULL when n = 1).
#[allow(clippy::too_many_arguments)]
pub unsafe fn gtsv_batched_interleaved<T: Blas>(h: &mut Handle, pivoting: Pivoting, n: i64, dl: *const T, d: *const T, du: *const T, b: *mut T, info: *mut i32, batch: i64) -> Result<()> {
    let nu = nonneg(n, "n")?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(());
    }
    check_diagonals(dl, d, du, nu)?;
    not_null(b, "B")?;
    // d and B hold n·batch elements (dl and du fewer).
    check_span::<T>(batchu, batchu, nu, "B")?;
    check_info(info, batchu)?;
    let g = GtsvInterleaved {
        n: nu,
        dl,
        d,
        du,
        b,
        info,
        batch: batchu,
        pivoting,
    };
    let space = common_space(h, &args(dl, d, du, b, info))?;
    match &mut h.state {
        State::Cpu => cpu::gtsv_interleaved(&g),
        State::Cuda(ch) => cuda::gtsv_interleaved(ch, &g, space),
    }
}

/// Entries of dl or du that a system of order n has: n − 1 (0 for n <= 1).
fn off_len(n: i64) -> i64 {
    (n - 1).max(0)
}

/// Safe [`gtsv_spike`] on host slices (each checked to cover its extent). dl and du may be empty when n = 1.
#[allow(clippy::too_many_arguments)]
pub fn gtsv_spike_slices<T: Blas>(h: &mut Handle, pivoting: Pivoting, n: i64, nrhs: i64, dl: &[T], d: &[T], du: &[T], b: &mut [T], ldb: i64, info: &mut i32) -> Result<()> {
    check_len(dl.len(), needed(off_len(n), 1, 0, 1), "dl")?;
    check_len(d.len(), needed(n, 1, 0, 1), "d")?;
    check_len(du.len(), needed(off_len(n), 1, 0, 1), "du")?;
    check_len(b.len(), needed(ldb, nrhs, 0, 1), "B")?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { gtsv_spike(h, pivoting, n, nrhs, dl.as_ptr(), d.as_ptr(), du.as_ptr(), b.as_mut_ptr(), ldb, info) }
}

/// Safe [`gtsv_batched_strided`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn gtsv_batched_strided_slices<T: Blas>(
    h: &mut Handle,
    pivoting: Pivoting,
    n: i64,
    nrhs: i64,
    dl: &[T],
    d: &[T],
    du: &[T],
    stride_diag: i64,
    b: &mut [T],
    ldb: i64,
    stride_b: i64,
    info: &mut [i32],
    batch: i64,
) -> Result<()> {
    check_len(dl.len(), needed(off_len(n), 1, stride_diag, batch), "dl")?;
    check_len(d.len(), needed(n, 1, stride_diag, batch), "d")?;
    check_len(du.len(), needed(off_len(n), 1, stride_diag, batch), "du")?;
    check_len(b.len(), needed(ldb, nrhs, stride_b, batch), "B")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: as above.
    unsafe {
        gtsv_batched_strided(
            h,
            pivoting,
            n,
            nrhs,
            dl.as_ptr(),
            d.as_ptr(),
            du.as_ptr(),
            stride_diag,
            b.as_mut_ptr(),
            ldb,
            stride_b,
            info.as_mut_ptr(),
            batch,
        )
    }
}

/// Safe [`gtsv_batched_interleaved`] on host slices (each checked to cover its extent:
/// `n·batch` elements for d and b, `(n − 1)·batch` for dl and du).
#[allow(clippy::too_many_arguments)]
pub fn gtsv_batched_interleaved_slices<T: Blas>(h: &mut Handle, pivoting: Pivoting, n: i64, dl: &[T], d: &[T], du: &[T], b: &mut [T], info: &mut [i32], batch: i64) -> Result<()> {
    let offs = needed(off_len(n), batch, 0, 1);
    check_len(dl.len(), offs, "dl")?;
    check_len(d.len(), needed(n, batch, 0, 1), "d")?;
    check_len(du.len(), offs, "du")?;
    check_len(b.len(), needed(n, batch, 0, 1), "B")?;
    check_len(info.len(), batch.max(0) as usize, "info")?;
    // SAFETY: as above.
    unsafe { gtsv_batched_interleaved(h, pivoting, n, dl.as_ptr(), d.as_ptr(), du.as_ptr(), b.as_mut_ptr(), info.as_mut_ptr(), batch) }
}
