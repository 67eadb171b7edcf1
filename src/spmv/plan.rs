//! A CSR plan: the structure of A validated, analysed and laid out once
//! ([`csr_plan_create`]), then multiplied by any number of value sets ([`csrmv_plan`]), as
//! cuSPARSE's SpMV buffer or MKL's inspector-executor.
//!
//! The plan owns a copy of the structure, 0-based (the caller's arrays may be freed): for op N
//! A's row pointers and column indices; for op T and C the transposed structure (CSC: for
//! each column of A its entries by row, with the position of each entry in `val`), so that
//! `op(A)·x` is a row-wise product of that structure, with no atomics. Its analysis picks one
//! of two kernels from the mean row length ([`PlanKernel`], [`CsrPlan::kernel`]):
//!
//! The stream kernel (mean row length up to [`STREAM_MEAN`]): units of consecutive rows whose
//! entries fit a tile of [`STREAM_TILE`], at most [`STREAM_ROWS`] rows (CSR-stream, Greathouse
//! & Daga 2014, with the row blocks computed once), filled greedily so each does about the
//! same work. A unit's entry range is in its descriptor, so all of its loads are issued at
//! once; each product `fma(a, x, 0)` is staged in shared memory, then each row's products
//! are added to zero by `lanes` lanes (entries l, l + lanes, ...; `lanes` = [`BLOCK`] / rows,
//! a power of two, at most 32) and a shuffle tree. A row longer than a tile is a unit of its
//! own summed by the whole block, or split as below.
//!
//! The vector kernel (longer rows) cuts the rows of the structure into work units of about
//! [`UNIT_WORK`] rows + entries each (the balance of merge-path partitioning, Merrill &
//! Garland 2016, computed once on the host):
//! - a unit holds short rows or long ones (more than [`BLOCK_ROW`] entries), never both;
//! - its rows are summed by groups of `lanes` threads per row (the unit's mean row length
//!   rounded up to a power of two, 1 to 32): lane l adds the products of entries l,
//!   l + lanes, ... of the row in order with fma, then the lanes' sums are added by a tree
//!   (`ng_group_sum`); the kernel interleaves 4 rows per thread, which changes no row's order;
//! - or, for fewer than 8 long rows, a row at a time by the whole block of [`BLOCK`] threads
//!   (strided fma chains, then a warp tree and the 8 warps in order);
//! - a row of more than [`UNIT_WORK`] entries is split into equal pieces, a unit each (so
//!   one long row no longer holds one block while the others idle); each piece is summed as
//!   a block row into a partial, and a fix-up adds a row's partials in piece order.
//!
//! Every sum has this fixed order, on both backends: the CPU backend replays it (the
//! functions below), so the CUDA result is bitwise equal to the CPU backend's for every op.

use super::cpu::{combine, scale};
use super::{check_csr, first_bad, structure_error};
use crate::core::check::{check_array, fits_i32, not_null};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::{common_space, ArgPtr, Space};
use crate::core::{Op, Scalar};
use rayon::prelude::*;

/// Threads of a block of the plan's kernel (`NG_CSR_BLOCK` in kernels/spmv.cu).
pub(crate) const BLOCK: usize = 256;
/// The `lanes` of a unit summed one row at a time by the whole block (`NG_PLAN_BLOCK`).
pub(crate) const BLOCK_LANES: usize = BLOCK;
/// Rows + entries per work unit, at most (a row alone may have up to this many entries).
pub(crate) const UNIT_WORK: usize = 4096;
/// A unit of one row longer than this is summed by the whole block.
pub(crate) const BLOCK_ROW: usize = 64;
/// i64 fields of a unit descriptor (`NG_PLAN_FIELDS`).
pub(crate) const FIELDS: usize = 6;
/// Entries of a stream unit's tile, at most (`NG_STREAM_TILE`): a row longer than this is
/// never staged.
pub(crate) const STREAM_TILE: usize = 2048;
/// Rows of a stream unit, at most: one lane each at least.
pub(crate) const STREAM_ROWS: usize = BLOCK;
/// The stream kernel is chosen up to this mean row length; the vector kernel beyond.
pub(crate) const STREAM_MEAN: usize = STREAM_TILE / 4;

/// The kernel a plan's products run, chosen by [`Partition::build`] from the mean row length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlanKernel {
    /// `csr_stream_<T>`: a unit's entries (at most [`STREAM_TILE`], rows at most
    /// [`STREAM_ROWS`]) loaded with independent coalesced loads, their products staged in
    /// shared memory, then each row's products added by `lanes` lanes from zero in order and a
    /// shuffle tree; a row longer than a tile is summed by the whole block (or split).
    #[default]
    Stream,
    /// `csr_plan_<T>`: each lane a strided fma chain over its row's entries in global memory.
    Vector,
}

/// The hints `numgpu_csr_plan_create` knows (none yet: every bit is reserved).
pub(crate) const KNOWN_HINTS: i64 = 0;

/// One work unit: rows `rows`, summed with `lanes` lanes per row (or [`BLOCK_LANES`]); a
/// piece of a split row has one row, the entry range `entries` and its partial `part`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub row_lo: usize,
    pub row_hi: usize,
    pub k_lo: usize,
    pub k_hi: usize,
    pub lanes: usize,
    pub part: Option<usize>,
}

/// The analysis of a structure: its kernel, its units in row order and its split rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Partition {
    pub kernel: PlanKernel,
    pub units: Vec<Unit>,
    /// The rows split into pieces, ascending.
    pub split_row: Vec<usize>,
    /// split rows + 1 offsets: split row j's partials are `split_part[j]..split_part[j + 1]`
    /// (the pieces in entry order).
    pub split_part: Vec<usize>,
}

/// Lanes per row for a unit of `rows` rows and `entries` entries: the mean row length rounded
/// up to a power of two, 1 to 32; the whole block, a row at a time, for rows longer than
/// [`BLOCK_ROW`] on average when 32 lanes per row would leave warps of the block idle.
fn lanes_for(rows: usize, entries: usize) -> usize {
    let mean = entries.div_ceil(rows).max(1);
    if mean > BLOCK_ROW && rows * 32 < BLOCK {
        return BLOCK_LANES;
    }
    mean.next_power_of_two().min(32)
}

/// Whether a row of `len` entries is long: a unit holds long rows or short ones, not both,
/// so that one long row does not keep a group of lanes busy while the block's others idle.
fn long(len: usize) -> bool {
    len > BLOCK_ROW
}

/// Lanes per row of a stream unit of `rows` rows (1 to [`STREAM_ROWS`]): the block's threads
/// shared out, a power of two, at most a warp.
fn stream_lanes(rows: usize) -> usize {
    floor_pow2(BLOCK / rows.max(1)).min(32)
}

/// The largest power of two not above `v` (1 for 0).
pub(crate) fn floor_pow2(v: usize) -> usize {
    1 << (usize::BITS - 1 - v.max(1).leading_zeros())
}

impl Partition {
    /// The partition of the structure `rp` (0-based row pointers, monotone) for the kernel its
    /// mean row length picks: [`PlanKernel::Stream`] up to [`STREAM_MEAN`] entries a row,
    /// [`PlanKernel::Vector`] beyond.
    pub fn build(rp: &[usize]) -> Partition {
        let rows = rp.len() - 1;
        let entries = rp[rows] - rp[0];
        if rows > 0 && entries > STREAM_MEAN * rows {
            Partition::vector(rp)
        } else {
            Partition::stream(rp)
        }
    }

    /// The vector kernel's units: consecutive rows, all long or all short (see [`long`]),
    /// while rows + entries stay within [`UNIT_WORK`]; a row of more than [`UNIT_WORK`]
    /// entries split into equal pieces.
    pub fn vector(rp: &[usize]) -> Partition {
        let rows = rp.len() - 1;
        let len = |i: usize| rp[i + 1] - rp[i];
        let mut p = Partition { kernel: PlanKernel::Vector, split_part: vec![0], ..Default::default() };
        let mut i = 0;
        while i < rows {
            if len(i) > UNIT_WORK {
                p.split(i, rp[i], rp[i + 1]);
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < rows && len(j) <= UNIT_WORK && long(len(j)) == long(len(i)) && (j + 1 - i) + (rp[j + 1] - rp[i]) <= UNIT_WORK {
                j += 1;
            }
            p.units.push(Unit { row_lo: i, row_hi: j, k_lo: rp[i], k_hi: rp[j], lanes: lanes_for(j - i, rp[j] - rp[i]), part: None });
            i = j;
        }
        p
    }

    /// The stream kernel's units: consecutive rows while their entries fit one tile of
    /// [`STREAM_TILE`] and they are at most [`STREAM_ROWS`] (so every unit but the last of a
    /// run has a full tile or full rows: balanced by entries), with [`stream_lanes`] lanes per
    /// row; a row longer than a tile a unit of its own summed by the whole block, or split
    /// into equal pieces beyond [`UNIT_WORK`] entries.
    pub fn stream(rp: &[usize]) -> Partition {
        let rows = rp.len() - 1;
        let mut p = Partition { kernel: PlanKernel::Stream, split_part: vec![0], ..Default::default() };
        let mut i = 0;
        while i < rows {
            let len = rp[i + 1] - rp[i];
            if len > UNIT_WORK {
                p.split(i, rp[i], rp[i + 1]);
                i += 1;
                continue;
            }
            if len > STREAM_TILE {
                p.units.push(Unit { row_lo: i, row_hi: i + 1, k_lo: rp[i], k_hi: rp[i + 1], lanes: BLOCK_LANES, part: None });
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < rows && j - i < STREAM_ROWS && rp[j + 1] - rp[i] <= STREAM_TILE {
                j += 1;
            }
            p.units.push(Unit { row_lo: i, row_hi: j, k_lo: rp[i], k_hi: rp[j], lanes: stream_lanes(j - i), part: None });
            i = j;
        }
        p
    }

    /// Row `i` (entries `s..e`, more than [`UNIT_WORK`]) cut into pieces of equal length, at
    /// most [`UNIT_WORK`], a unit each; their partials numbered on.
    fn split(&mut self, i: usize, s: usize, e: usize) {
        let step = (e - s).div_ceil((e - s).div_ceil(UNIT_WORK));
        let mut next = *self.split_part.last().expect("starts with 0");
        for k in (s..e).step_by(step) {
            self.units.push(Unit { row_lo: i, row_hi: i + 1, k_lo: k, k_hi: (k + step).min(e), lanes: BLOCK_LANES, part: Some(next) });
            next += 1;
        }
        self.split_row.push(i);
        self.split_part.push(next);
    }

    /// Partials (pieces of split rows).
    pub fn parts(&self) -> usize {
        *self.split_part.last().unwrap_or(&0)
    }

    /// The units as the kernel reads them: [`FIELDS`] i64 each (first row, end row, entry
    /// range, lanes, partial or −1).
    pub fn descriptors(&self) -> Vec<i64> {
        self.units.iter().flat_map(|u| [u.row_lo as i64, u.row_hi as i64, u.k_lo as i64, u.k_hi as i64, u.lanes as i64, u.part.map_or(-1, |p| p as i64)]).collect()
    }
}

/// The structure a plan multiplies row by row (op(A)'s rows), 0-based, host memory.
#[derive(Clone, Debug, Default)]
pub struct Structure {
    /// op(A)'s rows + 1 offsets.
    pub row_ptr: Vec<i32>,
    /// op(A)'s column of each entry.
    pub col_ind: Vec<i32>,
    /// op T/C: the position in `val` of each entry; empty for op N (entry k is `val[k]`).
    pub perm: Vec<i32>,
}

impl Structure {
    /// A's own structure, 0-based (entries keep their positions in `val`).
    fn of_rows(rp: &[i32], ci: &[i32], base: i32) -> Structure {
        Structure { row_ptr: rp.iter().map(|p| p - base).collect(), col_ind: ci.iter().map(|c| c - base).collect(), perm: Vec::new() }
    }

    /// Aᵀ's structure (A `m × n`, validated): for each column of A its entries by row, each
    /// with its position in `val` (a stable counting sort).
    fn transposed(rp: &[i32], ci: &[i32], base: i32, n: usize) -> Structure {
        let m = rp.len() - 1;
        let range = |i: usize| (rp[i] - base) as usize..(rp[i + 1] - base) as usize;
        let mut col_ptr = vec![0i32; n + 1];
        for i in 0..m {
            for k in range(i) {
                col_ptr[(ci[k] - base) as usize + 1] += 1;
            }
        }
        for j in 0..n {
            col_ptr[j + 1] += col_ptr[j];
        }
        let entries = col_ptr[n] as usize;
        let (mut row_ind, mut perm) = (vec![0i32; entries], vec![0i32; entries]);
        let mut next: Vec<i32> = col_ptr[..n].to_vec();
        for i in 0..m {
            for k in range(i) {
                let c = (ci[k] - base) as usize;
                let at = next[c] as usize;
                (row_ind[at], perm[at]) = (i as i32, k as i32);
                next[c] += 1;
            }
        }
        Structure { row_ptr: col_ptr, col_ind: row_ind, perm }
    }

    /// Rows (op(A)'s).
    pub fn rows(&self) -> usize {
        self.row_ptr.len() - 1
    }

    /// The row pointers as offsets.
    fn offsets(&self) -> Vec<usize> {
        self.row_ptr.iter().map(|&p| p as usize).collect()
    }

    /// Bytes the structure takes.
    pub(crate) fn bytes(&self) -> usize {
        4 * (self.row_ptr.len() + self.col_ind.len() + self.perm.len())
    }
}

/// Where a plan's structure lives.
pub enum PlanStore {
    /// The CPU backend: the structure in host memory.
    Host(Structure),
    /// The CUDA backend: the structure and the partition on the device (no host copy).
    Cuda(super::cuda::PlanDevice),
}

/// A CSR plan (see the module docs): built by [`csr_plan_create`] for one op and one
/// structure, used by [`csrmv_plan`] with any value set, any precision and any handle of the
/// backend and device it was built on.
pub struct CsrPlan {
    pub(crate) trans: Op,
    pub(crate) m: usize,
    pub(crate) n: usize,
    pub(crate) nnz: usize,
    pub(crate) partition: Partition,
    pub(crate) store: PlanStore,
}

impl CsrPlan {
    pub fn trans(&self) -> Op {
        self.trans
    }
    pub fn m(&self) -> usize {
        self.m
    }
    pub fn n(&self) -> usize {
        self.n
    }
    pub fn nnz(&self) -> usize {
        self.nnz
    }
    /// Work units of the partition.
    pub fn units(&self) -> usize {
        self.partition.units.len()
    }
    /// The kernel its products run (chosen from the mean row length when it was built).
    pub fn kernel(&self) -> PlanKernel {
        self.partition.kernel
    }
    /// Rows split across several units.
    pub fn split_rows(&self) -> usize {
        self.partition.split_row.len()
    }
    /// The partition (for tests and the bench).
    pub fn partition(&self) -> &Partition {
        &self.partition
    }
    /// Bytes the plan holds: its partition on the host, and the structure (on CUDA, on the
    /// device with the partition).
    pub fn bytes(&self) -> usize {
        let partition = 8 * (FIELDS * self.partition.units.len() + self.partition.split_row.len() + self.partition.split_part.len());
        partition
            + match &self.store {
                PlanStore::Host(s) => s.bytes(),
                PlanStore::Cuda(d) => d.bytes,
            }
    }
    /// The CUDA device the plan lives on, `None` on the CPU backend.
    pub fn device(&self) -> Option<i32> {
        match &self.store {
            PlanStore::Host(_) => None,
            PlanStore::Cuda(d) => Some(d.dev.ordinal),
        }
    }
    /// (length of x, length of y).
    pub fn lens(&self) -> (usize, usize) {
        if self.trans == Op::N {
            (self.n, self.m)
        } else {
            (self.m, self.n)
        }
    }
}

/// The host copy of `len` elements at `p` in `space` (host, or the handle's device).
///
/// # Safety
/// `p` is valid for `len` reads in its space.
unsafe fn host_copy<E: Copy + Default>(h: &mut Handle, p: *const E, len: usize, space: Space) -> Result<Vec<E>> {
    match &mut h.state {
        State::Cpu => Ok(if len == 0 { Vec::new() } else { std::slice::from_raw_parts(p, len).to_vec() }),
        State::Cuda(ch) => {
            ch.bind()?;
            super::cuda::to_host(ch, p, len, space)
        }
    }
}

/// Builds a plan of `op(A)` for A `m × n` in CSR (as [`super::csrmv`] takes it, without
/// values): validates the structure (the first bad row or entry is `INVALID_VALUE` naming
/// row_ptr or col_ind), copies it (op T/C: transposed), partitions its rows, and on CUDA
/// uploads all of it to the handle's device. `hints` must be 0 (every bit is reserved).
///
/// # Safety
/// row_ptr covers m + 1 and col_ind nnz entries (NULL allowed for nnz = 0), both host memory
/// or both device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn csr_plan_create(h: &mut Handle, trans: Op, m: i64, n: i64, nnz: i64, row_ptr: *const i32, col_ind: *const i32, index_base: i32, hints: i64) -> Result<CsrPlan> {
    let a = check_csr::<u8>(m, n, nnz, std::ptr::null(), row_ptr, col_ind, index_base, false)?;
    // The plan's structure holds int32 indices: columns, and for op T/C the transpose's rows.
    fits_i32(a.n, "n")?;
    if trans != Op::N {
        fits_i32(a.m, "m")?;
    }
    not_null(row_ptr, "row_ptr")?;
    check_array::<i32>(a.m + 1, "row_ptr")?;
    if a.nnz > 0 {
        not_null(col_ind, "col_ind")?;
        check_array::<i32>(a.nnz, "col_ind")?;
    }
    if hints & !KNOWN_HINTS != 0 {
        return Err(Error::arg("hints", format!("(hints = {hints:#x}) must be 0: no hint bits are defined")));
    }
    let args: [ArgPtr; 2] = [(row_ptr as _, "row_ptr"), (col_ind as _, "col_ind")];
    let space = common_space(h, if a.nnz > 0 { &args } else { &args[..1] })?;
    let (rp, ci) = (host_copy(h, row_ptr, a.m + 1, space)?, host_copy(h, col_ind, a.nnz, space)?);
    if let Some(code) = first_bad(&rp, &ci, a.n, a.nnz, a.base) {
        return Err(structure_error(code));
    }
    let structure = match trans {
        Op::N => Structure::of_rows(&rp, &ci, a.base),
        Op::T | Op::C => Structure::transposed(&rp, &ci, a.base, a.n),
    };
    let partition = Partition::build(&structure.offsets());
    let store = match &mut h.state {
        State::Cpu => PlanStore::Host(structure),
        State::Cuda(ch) => PlanStore::Cuda(super::cuda::plan_upload(ch, &structure, &partition)?),
    };
    Ok(CsrPlan { trans, m: a.m, n: a.n, nnz: a.nnz, partition, store })
}

/// The error when `plan` was built on another backend or device than the handle's.
fn check_plan_owner(h: &Handle, plan: &CsrPlan) -> Result<()> {
    super::check_device(h, plan.device(), "plan")
}

/// `y := alpha·op(A)·x + beta·y` with the plan of A's structure and op; `val` holds A's nnz
/// values in the order of the CSR arrays the plan was built from. BLAS conventions as
/// [`super::csrmv`]: alpha = 0 reads neither val nor x, beta = 0 does not read y, m or n = 0
/// (and alpha = 0 with beta = 1) touches nothing.
///
/// # Safety
/// val, x and y are NULL (where not read) or valid for nnz, op(A)'s columns and rows, all
/// host memory or all device memory of the handle's device.
pub unsafe fn csrmv_plan<T: Scalar>(h: &mut Handle, plan: &CsrPlan, alpha: T, val: *const T, x: *const T, beta: T, y: *mut T) -> Result<()> {
    check_plan_owner(h, plan)?;
    let reads_a = !alpha.is_zero();
    if plan.m == 0 || plan.n == 0 || (!reads_a && beta == T::one()) {
        return Ok(());
    }
    let (xlen, ylen) = plan.lens();
    let mut args: Vec<ArgPtr> = vec![(y as _, "y")];
    if reads_a {
        if plan.nnz > 0 {
            not_null(val, "val")?;
            check_array::<T>(plan.nnz, "val")?;
            args.push((val as _, "val"));
        }
        not_null(x, "x")?;
        check_array::<T>(xlen, "x")?;
        args.push((x as _, "x"));
    }
    not_null(y, "y")?;
    check_array::<T>(ylen, "y")?;
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => {
            let y = std::slice::from_raw_parts_mut(y, ylen);
            if !reads_a {
                scale(y, beta);
                return Ok(());
            }
            let val = if plan.nnz == 0 { &[][..] } else { std::slice::from_raw_parts(val, plan.nnz) };
            product(plan, alpha, val, std::slice::from_raw_parts(x, xlen), beta, y);
            Ok(())
        }
        State::Cuda(ch) => super::cuda::csrmv_plan(ch, plan, alpha, val, x, beta, y, space),
    }
}

/// Safe [`csrmv_plan`] on host data (val of nnz, x and y of op(A)'s columns and rows, each
/// checked).
pub fn csrmv_plan_host<T: Scalar>(h: &mut Handle, plan: &CsrPlan, alpha: T, val: &[T], x: &[T], beta: T, y: &mut [T]) -> Result<()> {
    let (xlen, ylen) = plan.lens();
    crate::core::check::check_len(val.len(), plan.nnz, "val")?;
    crate::core::check::check_len(x.len(), xlen, "x")?;
    crate::core::check::check_len(y.len(), ylen, "y")?;
    // SAFETY: the slices cover what the plan's sizes reach.
    unsafe { csrmv_plan(h, plan, alpha, val.as_ptr(), x.as_ptr(), beta, y.as_mut_ptr()) }
}

/// Safe [`csr_plan_create`] from an owned CSR matrix (its values are not used).
pub fn csr_plan_of<T>(h: &mut Handle, trans: Op, a: &super::Csr<T>) -> Result<CsrPlan> {
    if a.row_ptr.len() != a.m + 1 {
        return Err(Error::arg("row_ptr", format!("(row_ptr) has {} entries but m + 1 = {}", a.row_ptr.len(), a.m + 1)));
    }
    // SAFETY: the vectors cover what the sizes reach.
    unsafe { csr_plan_create(h, trans, a.m as i64, a.n as i64, a.col_ind.len() as i64, a.row_ptr.as_ptr(), a.col_ind.as_ptr(), a.base, 0) }
}

/// The CPU twin of the plan's kernels: op(A)'s entry k, the products and sums in the
/// kernels' order.
struct Twin<'a, T> {
    s: &'a Structure,
    val: &'a [T],
    x: &'a [T],
    conj: bool,
}

impl<T: Scalar> Twin<'_, T> {
    /// Entries k, k + step, ... < e added in order with fma (`ng_plan_part`).
    fn chain(&self, mut k: usize, e: usize, step: usize) -> T {
        let mut sum = T::zero();
        while k < e {
            sum = T::fma(self.val(k), self.x[self.s.col_ind[k] as usize], sum);
            k += step;
        }
        sum
    }

    /// Lane 0's value after `ng_group_sum` over `v.len()` lanes (a power of two).
    fn tree(mut v: Vec<T>) -> T {
        let mut off = v.len() / 2;
        while off > 0 {
            for l in 0..off {
                v[l] = v[l] + v[l + off];
            }
            off /= 2;
        }
        v[0]
    }

    /// Entries s..e summed by a whole block (`ng_block_total` of the threads' chains).
    fn block(&self, s: usize, e: usize) -> T {
        let warps: Vec<T> = (0..BLOCK / 32).map(|w| Self::tree((0..32).map(|l| self.chain(s + 32 * w + l, e, BLOCK)).collect())).collect();
        warps[1..].iter().fold(warps[0], |t, &v| t + v)
    }

    /// Row r of a unit of `lanes` lanes per row, in `kernel`'s order.
    fn row(&self, r: usize, lanes: usize, kernel: PlanKernel) -> T {
        let (s, e) = (self.s.row_ptr[r] as usize, self.s.row_ptr[r + 1] as usize);
        match (lanes, kernel) {
            (BLOCK_LANES, _) => self.block(s, e),
            (_, PlanKernel::Vector) => Self::tree((0..lanes).map(|l| self.chain(s + l, e, lanes)).collect()),
            (_, PlanKernel::Stream) => Self::tree((0..lanes).map(|l| self.staged(s + l, e, lanes)).collect()),
        }
    }

    /// Entry k's value of op(A) (through the permutation, conjugated for op C).
    fn val(&self, k: usize) -> T {
        let v = if self.s.perm.is_empty() { self.val[k] } else { self.val[self.s.perm[k] as usize] };
        if self.conj {
            v.conj()
        } else {
            v
        }
    }

    /// The staged products of entries k, k + step, ... < e (each `fma(value, x, 0)`, as the
    /// stream kernel stages them) added in order to zero, as a lane of that kernel adds them
    /// from shared memory.
    fn staged(&self, mut k: usize, e: usize, step: usize) -> T {
        let mut sum = T::zero();
        while k < e {
            sum = sum + T::fma(self.val(k), self.x[self.s.col_ind[k] as usize], T::zero());
            k += step;
        }
        sum
    }
}

/// The plan's product on the CPU backend (alpha ≠ 0), each row in its kernel's order:
/// bitwise the CUDA result.
fn product<T: Scalar>(plan: &CsrPlan, alpha: T, val: &[T], x: &[T], beta: T, y: &mut [T]) {
    let PlanStore::Host(s) = &plan.store else { unreachable!("backend checked by the caller") };
    let twin = Twin { s, val, x, conj: plan.trans == Op::C };
    let p = &plan.partition;
    y.par_iter_mut().enumerate().with_min_len(256).for_each(|(r, yr)| {
        let at = p.units.partition_point(|u| u.row_hi <= r);
        let sum = match p.units[at].part {
            None => twin.row(r, p.units[at].lanes, p.kernel),
            Some(first) => {
                // The row's pieces are the units from `at` on, their sums added in order.
                let j = p.split_row.binary_search(&r).expect("a split row");
                let sums: Vec<T> = p.units[at..at + p.split_part[j + 1] - first].iter().map(|u| twin.block(u.k_lo, u.k_hi)).collect();
                sums[1..].iter().fold(sums[0], |z, &v| z + v)
            }
        };
        *yr = combine(alpha, sum, beta, *yr);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offsets(lens: &[usize]) -> Vec<usize> {
        std::iter::once(0).chain(lens.iter().scan(0, |s, &l| {
            *s += l;
            Some(*s)
        })).collect()
    }

    #[test]
    fn units_cover_every_row_once_within_the_work() {
        let lens: Vec<usize> = (0..5000).map(|i| [0, 3, 1, 70, 9000, 2, 4096, 4097][i % 8] * (i % 97 == 0) as usize + i % 5).collect();
        let rp = offsets(&lens);
        let p = Partition::vector(&rp);
        let mut next = 0;
        for u in &p.units {
            // A unit starts at the next row, or continues the split row before it.
            assert!(u.row_lo == next || (u.part.is_some() && u.row_lo + 1 == next), "{u:?} after row {next}");
            if u.part.is_none() {
                assert!(u.row_hi > u.row_lo && (u.row_hi - u.row_lo) + (rp[u.row_hi] - rp[u.row_lo]) <= UNIT_WORK.max(1 + rp[u.row_lo + 1] - rp[u.row_lo]));
                assert!(u.lanes == BLOCK_LANES || (u.lanes.is_power_of_two() && u.lanes <= 32));
            } else {
                assert!(u.k_hi - u.k_lo <= UNIT_WORK && u.k_hi > u.k_lo);
            }
            next = u.row_hi;
        }
        assert_eq!(next, lens.len());
        // Each split row's pieces are consecutive and tile its entries.
        for (j, &r) in p.split_row.iter().enumerate() {
            assert!(lens[r] > UNIT_WORK);
            let pieces: Vec<&Unit> = p.units.iter().filter(|u| u.part.is_some() && u.row_lo == r).collect();
            assert_eq!(pieces.len(), p.split_part[j + 1] - p.split_part[j]);
            assert_eq!(pieces[0].k_lo, rp[r]);
            assert_eq!(pieces.last().unwrap().k_hi, rp[r + 1]);
            assert!(pieces.windows(2).all(|w| w[0].k_hi == w[1].k_lo && w[0].part.unwrap() + 1 == w[1].part.unwrap()));
        }
        assert_eq!(p.descriptors().len(), FIELDS * p.units.len());
        // Rows up to the int32 limit: pieces of at most UNIT_WORK tile the row, one partial each.
        for len in [4097, 8193, 12289, 5_000_001, 16_777_217, i32::MAX as usize] {
            let p = Partition::build(&[0, len]);
            assert_eq!(p.split_part, vec![0, p.units.len()], "row of {len}");
            assert!(p.units.windows(2).all(|w| w[0].k_hi == w[1].k_lo) && p.units.iter().all(|u| u.k_hi - u.k_lo <= UNIT_WORK));
            assert_eq!((p.units[0].k_lo, p.units.last().unwrap().k_hi), (0, len));
        }
    }

    #[test]
    fn lanes_follow_the_units_mean_row_length() {
        assert_eq!(lanes_for(100, 0), 1);
        assert_eq!(lanes_for(100, 500), 8);
        assert_eq!(lanes_for(10, 3000), 32);
        assert_eq!(lanes_for(1, 64), 32);
        assert_eq!(lanes_for(1, 65), BLOCK_LANES);
        // Two rows of 2000 (dense rows): the block, a row at a time; 40 of 100: 32 lanes.
        assert_eq!((lanes_for(2, 4000), lanes_for(40, 4000)), (BLOCK_LANES, 32));
        // A long row among short ones gets a unit of its own.
        let p = Partition::vector(&offsets(&[3, 5, 2, 900, 4, 4]));
        assert_eq!(p.units.iter().map(|u| (u.row_lo, u.row_hi, u.lanes)).collect::<Vec<_>>(), vec![(0, 3, 4), (3, 4, BLOCK_LANES), (4, 6, 4)]);
        assert_eq!(Partition::build(&[0]), Partition { split_part: vec![0], ..Default::default() });
    }

    #[test]
    fn the_mean_row_length_picks_the_kernel() {
        assert_eq!(Partition::build(&offsets(&[5; 1000])).kernel, PlanKernel::Stream);
        assert_eq!(Partition::build(&offsets(&[STREAM_MEAN; 10])).kernel, PlanKernel::Stream);
        assert_eq!(Partition::build(&offsets(&[STREAM_MEAN + 1; 10])).kernel, PlanKernel::Vector);
        assert_eq!(Partition::build(&offsets(&[0; 10])).kernel, PlanKernel::Stream);
    }

    #[test]
    fn stream_units_fit_a_tile_and_the_block() {
        assert_eq!((stream_lanes(1), stream_lanes(8), stream_lanes(9), stream_lanes(100), stream_lanes(256)), (32, 32, 16, 2, 1));
        // Rows at and one past the tile, a row of several tiles, runs of short and empty rows.
        let lens: Vec<usize> = (0..3000).map(|i| match i % 700 {
            5 => STREAM_TILE,
            6 => STREAM_TILE + 1,
            7 => 3 * UNIT_WORK + 5,
            8 => UNIT_WORK,
            _ => (i % 7) * (i % 11 != 0) as usize,
        }).collect();
        let rp = offsets(&lens);
        let p = Partition::stream(&rp);
        assert_eq!(p.kernel, PlanKernel::Stream);
        let mut next = 0;
        for (n, u) in p.units.iter().enumerate() {
            assert!(u.row_lo == next || (u.part.is_some() && u.row_lo + 1 == next), "{u:?} after row {next}");
            let entries = rp[u.row_hi] - rp[u.row_lo];
            match (u.lanes, u.part) {
                (BLOCK_LANES, None) => assert!(u.row_hi == u.row_lo + 1 && entries > STREAM_TILE && entries <= UNIT_WORK, "{u:?}"),
                (BLOCK_LANES, Some(_)) => assert!(entries > UNIT_WORK && u.k_hi - u.k_lo <= UNIT_WORK, "{u:?}"),
                (g, None) => {
                    let rows = u.row_hi - u.row_lo;
                    assert!(rows <= STREAM_ROWS && entries <= STREAM_TILE && (u.k_lo, u.k_hi) == (rp[u.row_lo], rp[u.row_hi]), "{u:?}");
                    assert!(g == stream_lanes(rows) && g * rows <= BLOCK, "{u:?}");
                    // Greedy: the next row did not fit (or is long), unless the unit is full of rows.
                    if let Some(v) = p.units.get(n + 1).filter(|_| rows < STREAM_ROWS) {
                        assert!(v.part.is_some() || rp[u.row_hi + 1] - rp[u.row_lo] > STREAM_TILE, "{u:?} then {v:?}");
                    }
                }
                (_, Some(_)) => panic!("a piece of {} lanes: {u:?}", u.lanes),
            }
            next = u.row_hi;
        }
        assert_eq!(next, lens.len());
        assert!(p.units.iter().any(|u| u.lanes != BLOCK_LANES && u.k_hi - u.k_lo == STREAM_TILE && u.row_hi == u.row_lo + 1));
        assert_eq!(p.split_row, (0..3000).filter(|i| i % 700 == 7).collect::<Vec<_>>());
        // 257 rows of one entry: two units, 256 rows and 1.
        let p = Partition::stream(&offsets(&[1; 257]));
        assert_eq!(p.units.iter().map(|u| (u.row_lo, u.row_hi, u.lanes)).collect::<Vec<_>>(), vec![(0, 256, 1), (256, 257, 32)]);
    }

    #[test]
    fn the_transpose_lists_each_column_by_row_with_positions() {
        // [[a, 0, b], [0, 0, c]] 1-based, entries of row 0 unsorted (b before a).
        let s = Structure::transposed(&[1, 3, 4], &[3, 1, 3], 1, 3);
        assert_eq!(s.row_ptr, vec![0, 1, 1, 3]);
        assert_eq!(s.col_ind, vec![0, 0, 1]);
        assert_eq!(s.perm, vec![1, 0, 2]);
    }
}
