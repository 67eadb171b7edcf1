//! Sparse matrix–vector products (the book's ch. 6, Koza et al.):
//!
//! - [`csrmv`]: `y := alpha·op(A)·x + beta·y`, A `m × n` in CSR (`row_ptr` of m + 1 offsets,
//!   `col_ind` and `val` of nnz entries, 0- or 1-based), op N, T or C, as BLAS `?gemv` would
//!   with a sparse A: beta = 0 does not read y, alpha = 0 reads neither A nor x, m or n = 0
//!   (and alpha = 0 with beta = 1) is a quick return. Empty rows, unsorted and duplicate
//!   column indices are valid (duplicates add up).
//! - [`CmrsMatrix`]: the same A converted once ([`cmrs_create`]) to CMRS, Compressed
//!   Multi-Row Storage (see [`cmrs`]), then multiplied many times ([`cmrsmv`], op N), its
//!   values replaceable for the same pattern ([`cmrs_update_values`]).
//! - [`CsrPlan`]: A's structure and op validated, analysed and partitioned once
//!   ([`csr_plan_create`], see [`plan`]), then multiplied with any values ([`csrmv_plan`]):
//!   balanced work units, long rows split with a fixed-order fix-up, op T/C through a
//!   transposed copy (no atomics); the CPU backend replays the order (bitwise equal).
//!
//! Bad structures are never read out of bounds. A row pointer pair is valid when
//! `index_base <= row_ptr[i] <= row_ptr[i+1] <= nnz + index_base`, a column index when it is
//! in `[index_base, n + index_base)`. The first bad entry (the lowest bad row, else the
//! lowest bad entry of `col_ind`) is reported as `INVALID_VALUE` naming it. The CPU backend
//! and host arrays on the CUDA backend validate before writing anything; device arrays on
//! the CUDA backend are checked by the product's kernel itself (it skips bad entries) and
//! reported by the next synchronisation, or before anything is written when
//! `NUMGPU_CHECK_INPUTS=1`. `cmrs_create` always validates.

pub mod capi;
pub mod cmrs;
pub mod cpu;
pub mod cuda;
pub mod plan;

pub use cmrs::{CmrsMatrix, CmrsScalar};
pub use plan::{csr_plan_create, csr_plan_of, csrmv_plan, csrmv_plan_host, CsrPlan};

use crate::core::check::{check_array, nonneg, not_null};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::index_base::check_index_base;
use crate::core::memory::{common_space, ArgPtr};
use crate::core::{Op, Scalar};
use rayon::prelude::*;

/// A sparse matrix in CSR, owned: what the tests, the tour and the bench build, read from
/// Matrix Market files or generate (`testing::sparse`), and what the safe wrappers take.
#[derive(Clone, Debug, PartialEq)]
pub struct Csr<T> {
    pub m: usize,
    pub n: usize,
    /// m + 1 offsets into `col_ind`/`val`, plus `base`.
    pub row_ptr: Vec<i32>,
    /// Column of each entry, plus `base`.
    pub col_ind: Vec<i32>,
    pub val: Vec<T>,
    /// 0 or 1.
    pub base: i32,
}

impl<T: Copy> Csr<T> {
    /// The CSR matrix (0-based) of `m × n` triplets `(row, col, value)`, 0-based; entries keep
    /// their order within a row (duplicates stay separate entries).
    pub fn from_triplets(m: usize, n: usize, triplets: &[(usize, usize, T)]) -> Csr<T> {
        // A stable sort by row keeps each row's entries in their given order.
        let mut order: Vec<usize> = (0..triplets.len()).collect();
        order.sort_by_key(|&k| triplets[k].0);
        let mut row_ptr = vec![0i32; m + 1];
        for &(r, _, _) in triplets {
            row_ptr[r + 1] += 1;
        }
        for i in 0..m {
            row_ptr[i + 1] += row_ptr[i];
        }
        let col_ind = order.iter().map(|&k| triplets[k].1 as i32).collect();
        let val = order.iter().map(|&k| triplets[k].2).collect();
        Csr { m, n, row_ptr, col_ind, val, base: 0 }
    }

    pub fn nnz(&self) -> usize {
        self.col_ind.len()
    }

    /// The same matrix with `base` added to every offset and index (0 → 1-based).
    pub fn with_base(&self, base: i32) -> Csr<T> {
        let shift = base - self.base;
        Csr {
            row_ptr: self.row_ptr.iter().map(|p| p + shift).collect(),
            col_ind: self.col_ind.iter().map(|c| c + shift).collect(),
            base,
            ..self.clone()
        }
    }

    /// The same matrix with its values mapped by `f`.
    pub fn map<U>(&self, f: impl Fn(T) -> U) -> Csr<U> {
        Csr { m: self.m, n: self.n, row_ptr: self.row_ptr.clone(), col_ind: self.col_ind.clone(), val: self.val.iter().map(|&v| f(v)).collect(), base: self.base }
    }

    /// Row i's entry range in `col_ind`/`val`.
    pub fn row(&self, i: usize) -> std::ops::Range<usize> {
        (self.row_ptr[i] - self.base) as usize..(self.row_ptr[i + 1] - self.base) as usize
    }
}

/// The kinds of bad structure entries, in the order the first one is named: a bad row
/// pointer pair before any bad column index.
pub(crate) const BAD_ROW_PTR: u64 = 0;
pub(crate) const BAD_COL_IND: u64 = 1;
/// Bits of a bad-entry code that hold the entry's position.
const AT_BITS: u32 = 48;

/// The code of a bad entry: its kind above [`AT_BITS`], its position below, so that the
/// smallest code is the first bad entry (the kernels take an `atomicMin` of it).
pub fn bad_code(kind: u64, at: u64) -> u64 {
    (kind << AT_BITS) | at
}

/// The `INVALID_VALUE` a bad-entry code stands for, naming `row_ptr` or `col_ind`.
pub fn structure_error(code: u64) -> Error {
    let at = code & ((1u64 << AT_BITS) - 1);
    if code >> AT_BITS == BAD_ROW_PTR {
        Error::arg(
            "row_ptr",
            format!("(row_ptr) is not a CSR row pointer at row {at}: index_base <= row_ptr[{at}] <= row_ptr[{}] <= nnz + index_base must hold", at + 1),
        )
    } else {
        Error::arg("col_ind", format!("(col_ind[{at}]) is out of range: column indices must be in [index_base, n + index_base)"))
    }
}

/// A validated CSR operand as the caller passed it: sizes and raw pointers.
#[derive(Clone, Copy, Debug)]
pub struct CsrRef<T> {
    pub m: usize,
    pub n: usize,
    pub nnz: usize,
    pub val: *const T,
    pub row_ptr: *const i32,
    pub col_ind: *const i32,
    pub base: i32,
}

impl<T> CsrRef<T> {
    /// The row pointers and column indices as slices.
    ///
    /// # Safety
    /// The pointers are host memory covering m + 1 and nnz entries (NULL allowed for nnz = 0).
    pub unsafe fn structure(&self) -> (&[i32], &[i32]) {
        let cols = if self.nnz == 0 { &[][..] } else { std::slice::from_raw_parts(self.col_ind, self.nnz) };
        (std::slice::from_raw_parts(self.row_ptr, self.m + 1), cols)
    }

    /// The first bad entry of the structure (host memory), as a code; `None` when valid.
    ///
    /// # Safety
    /// As [`Self::structure`].
    pub unsafe fn first_bad(&self) -> Option<u64> {
        let (rp, ci) = self.structure();
        first_bad(rp, ci, self.n, self.nnz, self.base)
    }
}

/// The first bad entry of a CSR structure, as a code: the lowest row whose pointer pair is
/// bad, else the lowest bad column index (every entry is read once the rows are valid).
pub fn first_bad(row_ptr: &[i32], col_ind: &[i32], n: usize, nnz: usize, base: i32) -> Option<u64> {
    let m = row_ptr.len() - 1;
    let (b, nnz) = (base as i64, nnz as i64);
    let bad_row = (0..m).into_par_iter().with_min_len(4096).find_first(|&i| {
        let (s, e) = (row_ptr[i] as i64 - b, row_ptr[i + 1] as i64 - b);
        !(0 <= s && s <= e && e <= nnz)
    });
    if let Some(i) = bad_row {
        return Some(bad_code(BAD_ROW_PTR, i as u64));
    }
    let (s, e) = ((row_ptr[0] as i64 - b) as usize, (row_ptr[m] as i64 - b) as usize);
    let n = n as i64;
    (s..e).into_par_iter().with_min_len(4096).find_first(|&k| !(0..n).contains(&(col_ind[k] as i64 - b))).map(|k| bad_code(BAD_COL_IND, k as u64))
}

/// One validated product `y := alpha·op(A)·x + beta·y`.
#[derive(Clone, Copy, Debug)]
pub struct Csrmv<T: Scalar> {
    pub trans: Op,
    pub a: CsrRef<T>,
    pub alpha: T,
    /// `op(A)`'s columns: n for op N, else m; not read when alpha = 0.
    pub x: *const T,
    pub beta: T,
    /// `op(A)`'s rows: m for op N, else n; read unless beta = 0.
    pub y: *mut T,
}

impl<T: Scalar> Csrmv<T> {
    /// (length of x, length of y).
    pub fn lens(&self) -> (usize, usize) {
        let (r, c) = if self.trans == Op::N { (self.a.m, self.a.n) } else { (self.a.n, self.a.m) };
        (c, r)
    }
}

// SAFETY: only the caller's pointers; the backends write each y entry from one thread (CPU)
// or through atomics (CUDA scatter).
unsafe impl<T: Scalar> Send for Csrmv<T> {}
unsafe impl<T: Scalar> Sync for Csrmv<T> {}

/// nnz fits the int32 offsets of `row_ptr` with the base added.
fn check_nnz(nnz: i64, base: i32) -> Result<usize> {
    let u = nonneg(nnz, "nnz")?;
    if nnz + base as i64 > i32::MAX as i64 {
        return Err(Error::arg("nnz", format!("(nnz = {nnz}) must be <= 2^31 - 1 - index_base: row_ptr holds int32 offsets")));
    }
    Ok(u)
}

/// The CSR operand's checks: sizes, base, pointers (NULL only where not read), extents.
#[allow(clippy::too_many_arguments)]
fn check_csr<T>(m: i64, n: i64, nnz: i64, val: *const T, row_ptr: *const i32, col_ind: *const i32, index_base: i32, read: bool) -> Result<CsrRef<T>> {
    let mu = nonneg(m, "m")?;
    let nu = nonneg(n, "n")?;
    let base = check_index_base(index_base)?;
    let nnzu = check_nnz(nnz, base)?;
    if read {
        not_null(row_ptr, "row_ptr")?;
        if nnzu > 0 {
            not_null(val, "val")?;
            not_null(col_ind, "col_ind")?;
        }
        // m <= i64::MAX, so m + 1 fits usize.
        check_array::<i32>(mu + 1, "row_ptr")?;
        check_array::<T>(nnzu, "val")?;
    }
    Ok(CsrRef { m: mu, n: nu, nnz: nnzu, val, row_ptr, col_ind, base })
}

/// Sparse `y := alpha·op(A)·x + beta·y` with A in CSR; see the module docs.
///
/// # Safety
/// Every pointer is NULL (where allowed) or valid for the extent the sizes give it, all in
/// host memory or all in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn csrmv<T: Scalar>(
    h: &mut Handle,
    trans: Op,
    m: i64,
    n: i64,
    nnz: i64,
    alpha: T,
    val: *const T,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: i32,
    x: *const T,
    beta: T,
    y: *mut T,
) -> Result<()> {
    let reads_a = !alpha.is_zero();
    // Arrays are checked only where they are read: not on a quick return.
    let a = check_csr(m, n, nnz, val, row_ptr, col_ind, index_base, reads_a && m > 0 && n > 0)?;
    if a.m == 0 || a.n == 0 || (!reads_a && beta == T::one()) {
        return Ok(());
    }
    let c = Csrmv { trans, a, alpha, x, beta, y };
    let (xlen, ylen) = c.lens();
    if reads_a {
        not_null(x, "x")?;
        check_array::<T>(xlen, "x")?;
    }
    not_null(y, "y")?;
    check_array::<T>(ylen, "y")?;
    let mut args: Vec<ArgPtr> = vec![(y as _, "y")];
    if reads_a {
        args.extend([(val as _, "val"), (row_ptr as _, "row_ptr"), (col_ind as _, "col_ind"), (x as _, "x")]);
    }
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => cpu::csrmv(&c),
        State::Cuda(ch) => cuda::csrmv(ch, &c, space),
    }
}

/// Safe [`csrmv`] on host data: `a` with `x` of op(A)'s columns and `y` of its rows (each
/// checked).
pub fn csrmv_csr<T: Scalar>(h: &mut Handle, trans: Op, alpha: T, a: &Csr<T>, x: &[T], beta: T, y: &mut [T]) -> Result<()> {
    if a.row_ptr.len() != a.m + 1 {
        return Err(Error::arg("row_ptr", format!("(row_ptr) has {} entries but m + 1 = {}", a.row_ptr.len(), a.m + 1)));
    }
    if a.val.len() != a.col_ind.len() {
        return Err(Error::arg("val", format!("(val) has {} entries but col_ind has {}", a.val.len(), a.col_ind.len())));
    }
    let (xlen, ylen) = if trans == Op::N { (a.n, a.m) } else { (a.m, a.n) };
    crate::core::check::check_len(x.len(), xlen, "x")?;
    crate::core::check::check_len(y.len(), ylen, "y")?;
    // SAFETY: the slices cover what the sizes reach.
    unsafe { csrmv(h, trans, a.m as i64, a.n as i64, a.nnz() as i64, alpha, a.val.as_ptr(), a.row_ptr.as_ptr(), a.col_ind.as_ptr(), a.base, x.as_ptr(), beta, y.as_mut_ptr()) }
}

/// Converts A (CSR, as [`csrmv`] takes it) to a CMRS matrix on the handle's backend; see
/// [`cmrs`]. `height` rows per strip (0 → 16, else 1..=16) and `lanes` = M (0 → the one of
/// 2, 4, 8 with the least padding, else one of them). Always validates the structure.
///
/// # Safety
/// As [`csrmv`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn cmrs_create<T: CmrsScalar>(
    h: &mut Handle,
    m: i64,
    n: i64,
    nnz: i64,
    val: *const T,
    row_ptr: *const i32,
    col_ind: *const i32,
    index_base: i32,
    height: i64,
    lanes: i64,
) -> Result<CmrsMatrix> {
    let a = check_csr(m, n, nnz, val, row_ptr, col_ind, index_base, true)?;
    if a.n >= cmrs::MAX_COLS {
        return Err(Error::unsupported_arg("n", format!("(n = {}) must be < 2^28: CMRS packs a column index and a 4-bit row-in-strip into 32 bits", a.n)));
    }
    let height = match height {
        0 => cmrs::MAX_HEIGHT,
        1..=16 => height as usize,
        _ => return Err(Error::arg("height", format!("(height = {height}) must be 0 (16) or in 1..=16"))),
    };
    let lanes = match lanes {
        0 => None,
        2 | 4 | 8 => Some(lanes as usize),
        _ => return Err(Error::arg("M", format!("(M = {lanes}) must be 0 (chosen), 2, 4 or 8"))),
    };
    let args: [ArgPtr; 3] = [(val as _, "val"), (row_ptr as _, "row_ptr"), (col_ind as _, "col_ind")];
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => cpu::cmrs_create(&a, height, lanes),
        State::Cuda(ch) => cuda::cmrs_create(ch, &a, height, lanes, space),
    }
}

/// The error when `a` does not belong to the handle's backend and device, or holds the
/// other precision.
fn check_owner<T: CmrsScalar>(h: &Handle, a: &CmrsMatrix, routine: &str) -> Result<()> {
    if a.letter() != T::LETTER {
        return Err(Error::arg("A", format!("(A) holds {} values: use numgpu_{}{routine}", if a.letter() == 's' { "float" } else { "double" }, a.letter())));
    }
    check_device(h, a.device(), "A")
}

/// The error naming `what` when an object living on `device` (`None`: the CPU backend) is
/// used with a handle of another backend or device.
fn check_device(h: &Handle, device: Option<i32>, what: &'static str) -> Result<()> {
    let here = match &h.state {
        State::Cpu => None,
        State::Cuda(ch) => Some(ch.dev.ordinal),
    };
    if here != device {
        let name = |d: Option<i32>| d.map_or("the CPU backend".to_string(), |d| format!("CUDA device {d}"));
        return Err(Error::arg(what, format!("({what}) lives on {} but the handle runs on {}", name(device), name(here))));
    }
    Ok(())
}

/// Replaces the values of `a` by `val` (nnz entries, in the order of the CSR `a` was created
/// from; host or device memory of the handle's device).
///
/// # Safety
/// `val` is valid for nnz reads.
pub unsafe fn cmrs_update_values<T: CmrsScalar>(h: &mut Handle, a: &mut CmrsMatrix, val: *const T) -> Result<()> {
    check_owner::<T>(h, a, "cmrs_update_values")?;
    if a.nnz() == 0 {
        return Ok(());
    }
    not_null(val, "val")?;
    let space = common_space(h, &[(val as _, "val")])?;
    match &mut h.state {
        State::Cpu => {
            cpu::cmrs_update_values(a, std::slice::from_raw_parts(val, a.nnz()));
            Ok(())
        }
        State::Cuda(ch) => cuda::cmrs_update_values(ch, a, val, space),
    }
}

/// `y := alpha·A·x + beta·y` with a CMRS A (`m × n`): x of n, y of m entries, BLAS
/// conventions as [`csrmv`].
///
/// # Safety
/// x and y are valid for n and m elements, both host memory or both device memory of the
/// handle's device.
pub unsafe fn cmrsmv<T: CmrsScalar>(h: &mut Handle, alpha: T, a: &CmrsMatrix, x: *const T, beta: T, y: *mut T) -> Result<()> {
    check_owner::<T>(h, a, "cmrsmv")?;
    let reads_a = !alpha.is_zero();
    if a.m() == 0 || a.n() == 0 || (!reads_a && beta == T::one()) {
        return Ok(());
    }
    let mut args: Vec<ArgPtr> = vec![(y as _, "y")];
    if reads_a {
        not_null(x, "x")?;
        args.push((x as _, "x"));
    }
    not_null(y, "y")?;
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => {
            let x = if reads_a { std::slice::from_raw_parts(x, a.n()) } else { &[][..] };
            cpu::cmrsmv(alpha, a, x, beta, std::slice::from_raw_parts_mut(y, a.m()));
            Ok(())
        }
        State::Cuda(ch) => cuda::cmrsmv(ch, alpha, a, x, beta, y, space),
    }
}

/// Safe [`cmrs_create`] from an owned CSR matrix.
pub fn cmrs_from_csr<T: CmrsScalar>(h: &mut Handle, a: &Csr<T>, height: i64, lanes: i64) -> Result<CmrsMatrix> {
    if a.row_ptr.len() != a.m + 1 || a.val.len() != a.col_ind.len() {
        return Err(Error::arg("row_ptr", "(row_ptr) must have m + 1 entries and val as many as col_ind"));
    }
    // SAFETY: the vectors cover what the sizes reach.
    unsafe { cmrs_create(h, a.m as i64, a.n as i64, a.nnz() as i64, a.val.as_ptr(), a.row_ptr.as_ptr(), a.col_ind.as_ptr(), a.base, height, lanes) }
}

/// Safe [`cmrsmv`] on host vectors (x of n, y of m entries, checked).
pub fn cmrsmv_host<T: CmrsScalar>(h: &mut Handle, alpha: T, a: &CmrsMatrix, x: &[T], beta: T, y: &mut [T]) -> Result<()> {
    crate::core::check::check_len(x.len(), a.n(), "x")?;
    crate::core::check::check_len(y.len(), a.m(), "y")?;
    // SAFETY: the slices cover n and m elements.
    unsafe { cmrsmv(h, alpha, a, x.as_ptr(), beta, y.as_mut_ptr()) }
}

/// Safe [`cmrs_update_values`] from host values (nnz of them, checked).
pub fn cmrs_update_host<T: CmrsScalar>(h: &mut Handle, a: &mut CmrsMatrix, val: &[T]) -> Result<()> {
    crate::core::check::check_len(val.len(), a.nnz(), "val")?;
    // SAFETY: the slice covers nnz elements.
    unsafe { cmrs_update_values(h, a, val.as_ptr()) }
}
