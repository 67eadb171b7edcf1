//! The staging engine: one path from a routine's operands to its launches, for host and
//! device arrays alike.
//!
//! A routine describes each operand once ([`Operand`]: element size, extent per item, where
//! the items are, in or out) and gives [`Stage::run`] a closure that enqueues its kernels for
//! one chunk of the batch on device addresses ([`Chunk`]'s views, in the operands' order).
//!
//! - Device arrays: views point into the caller's arrays (offset to the chunk's first item);
//!   only scratch and host-owned tables live in the handle's workspace, and the batch goes in
//!   chunks only when its scratch would not fit. Nothing synchronises.
//! - Host arrays: items are packed compact (leading dimension = rows) into pinned host
//!   memory, copied to the workspace, launched on, copied back and unpacked into the
//!   caller's arrays, all on the handle's stream. Two pinned buffers alternate, so the CPU
//!   packs chunk k + 1 and unpacks chunk k − 1 while the GPU works on chunk k; the call
//!   waits only for the events of its own copies, and returns once every output is in place.

use super::driver::failed;
use super::params::KBatch;
use super::CudaHandle;
use crate::core::batch::{Batch, RawPtr};
use crate::core::error::Result;
use crate::core::memory::Space;
use cudarc::driver::safe::{CudaEvent, PinnedHostSlice};
use cudarc::driver::sys as cu;
use rayon::prelude::*;
use std::ffi::c_void;

/// Staged bytes per chunk of a host-array call: large enough that copies run at full
/// bandwidth and launches are few, small enough that packing overlaps the GPU's work.
const CHUNK_BYTES: usize = 32 << 20;

/// Per-item scratch per chunk, for either space.
const SCRATCH_BYTES: usize = 256 << 20;

/// Chunks this large pack and unpack with every core.
const PARALLEL_BYTES: usize = 1 << 20;

/// What a routine does with an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Read by the kernels.
    In,
    /// Written by the kernels (every element of its [`Part`]).
    Out,
    /// Read and written.
    InOut,
    /// Device memory the kernels use as workspace: never copied.
    Scratch,
}

/// Which elements of an output go back to the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    All,
    /// Below the diagonal only (the rest of the caller's matrix is not the routine's).
    StrictLower,
}

/// Where an operand's items are.
#[derive(Clone, Copy, Debug)]
enum Items {
    /// Item i at `base + i·stride` elements; stride 0: one item for the whole batch.
    Strided { base: usize, stride: usize },
    /// Item i at `array[i]`.
    Array(usize),
    /// Host memory the library owns (tables), one item for the whole batch, in either space.
    Own(usize),
    /// Nothing: scratch, or an operand the call does not touch.
    None,
}

/// One operand of a staged call: items of `rows × cols` elements of `elem` bytes, element
/// (r, c) at `r·row_step + c·ld` from the item's start.
#[derive(Clone, Copy, Debug)]
pub struct Operand {
    elem: usize,
    dir: Dir,
    items: Items,
    rows: usize,
    cols: usize,
    ld: usize,
    row_step: usize,
    /// Staged items are interleaved (element (r, c) of item i at `(r + c·rows)·count + i`)
    /// rather than one after the other.
    interleaved: bool,
    part: Part,
    /// Elements per staged item (≥ rows·cols).
    slot: usize,
}

impl Operand {
    fn new(elem: usize, dir: Dir, items: Items, rows: usize, cols: usize, ld: usize) -> Operand {
        Operand { elem, dir, items, rows, cols, ld, row_step: 1, interleaved: false, part: Part::All, slot: rows * cols }
    }

    /// The `rows × cols` matrices of a batch with leading dimension `ld`.
    pub fn matrix<P: RawPtr>(dir: Dir, b: &Batch<P>, rows: usize, cols: usize, ld: usize) -> Operand {
        let items = match *b {
            Batch::Strided { ptr, stride } => Items::Strided { base: ptr.addr() as usize, stride: stride as usize },
            Batch::Array(p) => Items::Array(p as usize),
        };
        Operand::new(size_of::<P::Elem>(), dir, items, rows, cols, ld)
    }

    /// Vectors of `len` elements, item i at `ptr + i·stride` (stride 0: shared).
    pub fn vector<P: RawPtr>(dir: Dir, ptr: P, stride: usize, len: usize) -> Operand {
        Operand::new(size_of::<P::Elem>(), dir, Items::Strided { base: ptr.addr() as usize, stride }, len, 1, len.max(1))
    }

    /// `per_item` elements of device scratch for each item of a chunk.
    pub fn scratch<E>(per_item: usize) -> Operand {
        Operand::new(size_of::<E>(), Dir::Scratch, Items::None, per_item, 1, per_item.max(1))
    }

    /// `len` elements of device scratch for the whole call.
    pub fn scratch_once<E>(len: usize) -> Operand {
        Operand::new(size_of::<E>(), Dir::Scratch, Items::Own(0), len, 1, len.max(1))
    }

    /// Host data of the library (a table), copied to the workspace once, in either space.
    pub fn own<E>(data: &[E]) -> Operand {
        Operand::new(size_of::<E>(), Dir::In, Items::Own(data.as_ptr() as usize), data.len(), 1, data.len().max(1))
    }

    /// An operand the call does not touch (its view is null), keeping later indices stable.
    pub fn absent() -> Operand {
        Operand::new(1, Dir::In, Items::None, 0, 0, 1)
    }

    /// Rows `row_step` elements apart in the caller's memory (1 by default).
    pub fn row_step(mut self, row_step: usize) -> Operand {
        self.row_step = row_step;
        self
    }

    /// Staged interleaved: the layout of items whose elements are `batch` apart and items
    /// 1 apart (`Operand::vector(dir, ptr, 1, n).row_step(batch).interleaved()`).
    pub fn interleaved(mut self) -> Operand {
        self.interleaved = true;
        self
    }

    /// Only `part` of an output goes back to the caller.
    pub fn part(mut self, part: Part) -> Operand {
        self.part = part;
        self
    }

    /// Staged items `slot` elements apart (≥ rows·cols), for kernels that index by a larger
    /// extent (a diagonal of n − 1 in a slot of n).
    pub fn slot(mut self, slot: usize) -> Operand {
        self.slot = slot.max(self.rows * self.cols);
        self
    }

    /// One item for the whole batch.
    fn shared(&self) -> bool {
        matches!(self.items, Items::Strided { stride: 0, .. } | Items::Own(_))
    }

    /// Copied between host and device memory (in the host space).
    fn staged(&self) -> bool {
        self.dir != Dir::Scratch && !matches!(self.items, Items::None | Items::Own(_))
    }

    fn item_bytes(&self) -> usize {
        self.slot * self.elem
    }

    /// Address of item `i` in the caller's memory.
    ///
    /// # Safety
    /// `i` is an item of a validated call; pointer arrays are in host memory.
    unsafe fn item(&self, i: usize) -> usize {
        match self.items {
            Items::Strided { base, stride } => base.wrapping_add(i * stride * self.elem),
            Items::Array(p) => *(p as *const usize).add(i),
            Items::Own(p) => p,
            Items::None => 0,
        }
    }
}

/// An operand in device memory for one chunk: the form kernels take.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// The first item's address (0 for a pointer array or an absent operand).
    pub base: u64,
    /// Elements between items (0: shared).
    pub stride: usize,
    /// Device address of a pointer array of the chunk's items (0 if strided).
    pub array: u64,
    /// Elements between columns.
    pub ld: usize,
    /// Elements between rows.
    pub row_step: usize,
}

impl View {
    /// The `ng_batch<T>` of this operand.
    pub fn kbatch(&self) -> KBatch {
        KBatch { base: self.base, stride: self.stride as i64, array: self.array }
    }

    /// The first item's device address (strided operands).
    pub fn ptr(&self) -> u64 {
        debug_assert_eq!(self.array, 0, "a pointer array has no single address");
        self.base
    }
}

/// One chunk of a staged call: items `first..first + count` of the batch.
pub struct Chunk {
    pub first: usize,
    pub count: usize,
    views: Vec<View>,
}

impl std::ops::Index<usize> for Chunk {
    type Output = View;
    /// The view of operand `i`, in the order they were given.
    fn index(&self, i: usize) -> &View {
        &self.views[i]
    }
}

/// Pinned host memory and events of the staging engine, kept by a handle and grown on demand.
pub struct Buffers {
    pinned: [PinnedHostSlice<u8>; 2],
    /// The buffers' addresses, taken once (cudarc's accessor synchronises an event).
    addr: [usize; 2],
    done: [CudaEvent; 2],
}

impl Buffers {
    fn new(ch: &CudaHandle, bytes: usize) -> Result<Buffers> {
        let ctx = &ch.dev.ctx;
        // Not write-combined: outputs are read back from these buffers.
        // SAFETY: the memory is written (packed or copied into) before it is read.
        let alloc = || unsafe { ctx.alloc_pinned_with_flags::<u8>(bytes, 0) }.map_err(|e| failed(e, "cuMemHostAlloc"));
        let mut pinned = [alloc()?, alloc()?];
        let mut addr = [0; 2];
        for (a, p) in addr.iter_mut().zip(pinned.iter_mut()) {
            *a = p.as_mut_ptr().map_err(|e| failed(e, "cuEventSynchronize"))? as usize;
        }
        let event = || ctx.new_event(Some(cu::CUevent_flags::CU_EVENT_DISABLE_TIMING)).map_err(|e| failed(e, "cuEventCreate"));
        Ok(Buffers { pinned, addr, done: [event()?, event()?] })
    }

    fn bytes(&self) -> usize {
        self.pinned[0].len()
    }
}

fn align(bytes: usize) -> usize {
    bytes.div_ceil(256) * 256
}

/// A staged call being described: its space, batch and operands.
pub struct Stage {
    space: Space,
    batch: usize,
    max_chunk: usize,
    ops: Vec<Operand>,
}

/// Where each operand lives in the workspace (and, for staged ones, in a pinned buffer).
struct Plan {
    count: usize,
    /// Per operand: offset in the workspace (fixed region for shared, chunk region else).
    offset: Vec<usize>,
    /// Per operand: offset in a pinned buffer (staged per-item operands in host space).
    pinned: Vec<Option<usize>>,
    pinned_bytes: usize,
    workspace_bytes: usize,
}

impl Stage {
    /// A call on `batch` items whose arrays are in `space`.
    pub fn new(space: Space, batch: usize) -> Stage {
        Stage { space, batch, max_chunk: usize::MAX, ops: Vec::new() }
    }

    /// At most `n` items per chunk (kernels that count items in 32 bits).
    pub fn max_chunk(mut self, n: usize) -> Stage {
        self.max_chunk = n.max(1);
        self
    }

    /// The next operand; its view is `chunk[i]` for the i-th operand given.
    pub fn op(mut self, o: Operand) -> Stage {
        self.ops.push(o);
        self
    }

    fn host(&self) -> bool {
        self.space == Space::Host
    }

    /// Whether operand `o` gets a per-item region in the workspace.
    fn per_item(&self, o: &Operand) -> bool {
        !o.shared() && (o.dir == Dir::Scratch || (self.host() && o.staged()))
    }

    fn plan(&self) -> Plan {
        let per_item = |f: &dyn Fn(&Operand) -> bool| self.ops.iter().filter(|o| self.per_item(o) && f(o)).map(|o| o.item_bytes()).sum::<usize>();
        let staged = per_item(&|o| o.dir != Dir::Scratch);
        let scratch = per_item(&|o| o.dir == Dir::Scratch);
        let by = |budget: usize, bytes: usize| budget.checked_div(bytes).unwrap_or(usize::MAX);
        let count = by(CHUNK_BYTES, staged).min(by(SCRATCH_BYTES, scratch)).min(self.max_chunk).clamp(1, self.batch.max(1));
        let mut at = 0;
        let mut offset = Vec::with_capacity(self.ops.len());
        for o in &self.ops {
            offset.push(at);
            let needs = self.needs_fixed(o);
            at += if needs { align(o.item_bytes()) } else { 0 };
        }
        let mut pinned = Vec::with_capacity(self.ops.len());
        let mut pinned_bytes = 0;
        for (o, off) in self.ops.iter().zip(offset.iter_mut()) {
            if self.per_item(o) {
                *off = at;
                at += align(count * o.item_bytes());
            }
            if self.host() && self.per_item(o) && o.staged() {
                pinned.push(Some(pinned_bytes));
                pinned_bytes += align(count * o.item_bytes());
            } else {
                pinned.push(None);
            }
        }
        Plan { count, offset, pinned, pinned_bytes, workspace_bytes: at }
    }

    /// Whether `o` has one region for the whole call: shared items staged from the host,
    /// tables, and scratch for the whole call.
    fn needs_fixed(&self, o: &Operand) -> bool {
        match o.items {
            Items::Own(_) => true,
            Items::Strided { stride: 0, .. } => self.host() && o.staged(),
            _ => false,
        }
    }

    /// Runs the call: `launch(ch, chunk)` enqueues the kernels of one chunk on the views of
    /// the operands. Host arrays come back before this returns; device arrays are left to
    /// the stream.
    ///
    /// # Safety
    /// The operands describe memory of the validated call: every item's extent is readable
    /// (In, InOut) and writable (Out, InOut) in `space`, pointer arrays are in `space`, and
    /// `launch` touches only the views it is given, within their extents.
    pub unsafe fn run(self, ch: &mut CudaHandle, mut launch: impl FnMut(&CudaHandle, &Chunk) -> Result<()>) -> Result<()> {
        if self.batch == 0 {
            return Ok(());
        }
        let plan = self.plan();
        let ws = ch.workspace(plan.workspace_bytes)?;
        self.upload_fixed(ch, ws, &plan)?;
        let result = if self.host() { self.pipeline(ch, ws, &plan, &mut launch) } else { self.in_place(ch, ws, &plan, &mut launch) };
        if result.is_err() && self.host() {
            // Nothing may still be copying into buffers the caller or the handle reuses.
            let _ = ch.stream.synchronize();
        }
        result
    }

    /// Copies shared items (host space) and tables into their fixed regions.
    unsafe fn upload_fixed(&self, ch: &CudaHandle, ws: u64, plan: &Plan) -> Result<()> {
        for (o, &off) in self.ops.iter().zip(&plan.offset) {
            if !self.needs_fixed(o) || o.dir == Dir::Scratch || o.item_bytes() == 0 {
                continue;
            }
            let mut host = vec![0u8; o.item_bytes()];
            pack_item(o, o.item(0), host.as_mut_ptr() as usize);
            // Pageable memory: the copy has read `host` when this returns.
            ch.htod(ws + off as u64, host.as_ptr() as *const c_void, host.len())?;
        }
        Ok(())
    }

    /// The chunk's views: fixed regions, per-item regions of the workspace, or the caller's
    /// arrays (device space).
    fn views(&self, ws: u64, plan: &Plan, first: usize, count: usize) -> Chunk {
        let views = self.ops.iter().zip(&plan.offset).map(|(o, &off)| {
            let at = ws + off as u64;
            let compact = |stride| View { base: at, stride, array: 0, ld: if o.interleaved { o.rows * count } else { o.rows.max(1) }, row_step: if o.interleaved { count } else { 1 } };
            if self.needs_fixed(o) {
                return View { stride: 0, ..compact(0) };
            }
            if self.per_item(o) {
                return compact(if o.interleaved { 1 } else { o.slot });
            }
            match o.items {
                Items::Strided { base, stride } => View { base: (base as u64).wrapping_add((first * stride * o.elem) as u64), stride, array: 0, ld: o.ld, row_step: o.row_step },
                Items::Array(p) => View { base: 0, stride: 0, array: p as u64 + (first * 8) as u64, ld: o.ld, row_step: o.row_step },
                Items::Own(_) | Items::None => View { base: 0, stride: 0, array: 0, ld: o.ld, row_step: o.row_step },
            }
        });
        Chunk { first, count, views: views.collect() }
    }

    fn chunks(&self, plan: &Plan) -> impl Iterator<Item = (usize, usize)> + '_ {
        let count = plan.count;
        (0..self.batch).step_by(count).map(move |first| (first, count.min(self.batch - first)))
    }

    unsafe fn in_place(&self, ch: &CudaHandle, ws: u64, plan: &Plan, launch: &mut impl FnMut(&CudaHandle, &Chunk) -> Result<()>) -> Result<()> {
        for (first, count) in self.chunks(plan) {
            launch(ch, &self.views(ws, plan, first, count))?;
        }
        Ok(())
    }

    /// Host arrays: pack, copy in, launch, copy out, unpack, two chunks in flight.
    unsafe fn pipeline(&self, ch: &mut CudaHandle, ws: u64, plan: &Plan, launch: &mut impl FnMut(&CudaHandle, &Chunk) -> Result<()>) -> Result<()> {
        let buffers = match ch.buffers.take() {
            Some(b) if b.bytes() >= plan.pinned_bytes => b,
            old => {
                drop(old);
                Buffers::new(ch, plan.pinned_bytes.max(1))?
            }
        };
        let result = self.pipeline_with(ch, ws, plan, &buffers, launch);
        ch.buffers = Some(buffers);
        result
    }

    unsafe fn pipeline_with(&self, ch: &CudaHandle, ws: u64, plan: &Plan, buf: &Buffers, launch: &mut impl FnMut(&CudaHandle, &Chunk) -> Result<()>) -> Result<()> {
        let mut pending: Option<(usize, usize, usize)> = None;
        for (k, (first, count)) in self.chunks(plan).enumerate() {
            let slot = k % 2;
            let host = buf.addr[slot];
            self.each_pinned(plan, |o, off| if o.dir != Dir::Out { pack(o, first, count, host + off) });
            self.copies(plan, count, |o, off, bytes, dev| if o.dir != Dir::Out { ch.htod(dev, (host + off) as *const c_void, bytes) } else { Ok(()) }, ws)?;
            launch(ch, &self.views(ws, plan, first, count))?;
            self.copies(plan, count, |o, off, bytes, dev| if o.dir != Dir::In { ch.dtoh((host + off) as *mut c_void, dev, bytes) } else { Ok(()) }, ws)?;
            buf.done[slot].record(&ch.stream).map_err(|e| failed(e, "cuEventRecord"))?;
            if let Some(p) = pending.replace((slot, first, count)) {
                self.finish(buf, plan, p)?;
            }
        }
        match pending {
            Some(p) => self.finish(buf, plan, p),
            None => Ok(()),
        }
    }

    /// Waits for a chunk's copies back and unpacks its outputs.
    unsafe fn finish(&self, buf: &Buffers, plan: &Plan, (slot, first, count): (usize, usize, usize)) -> Result<()> {
        buf.done[slot].synchronize().map_err(|e| failed(e, "cuEventSynchronize"))?;
        let host = buf.addr[slot];
        self.each_pinned(plan, |o, off| if matches!(o.dir, Dir::Out | Dir::InOut) { unpack(o, first, count, host + off) });
        Ok(())
    }

    fn each_pinned(&self, plan: &Plan, mut f: impl FnMut(&Operand, usize)) {
        for (o, off) in self.ops.iter().zip(&plan.pinned) {
            if let Some(off) = *off {
                f(o, off);
            }
        }
    }

    /// `copy(operand, pinned offset, bytes, device address)` for each staged per-item operand.
    fn copies(&self, plan: &Plan, count: usize, mut copy: impl FnMut(&Operand, usize, usize, u64) -> Result<()>, ws: u64) -> Result<()> {
        for ((o, pin), &off) in self.ops.iter().zip(&plan.pinned).zip(&plan.offset) {
            if let Some(pin) = *pin {
                copy(o, pin, count * o.item_bytes(), ws + off as u64)?;
            }
        }
        Ok(())
    }
}

/// Runs `f(i)` for `i < count`, on every core when the chunk is large.
fn for_items(count: usize, bytes: usize, f: impl Fn(usize) + Sync + Send) {
    if bytes >= PARALLEL_BYTES && count > 1 {
        (0..count).into_par_iter().for_each(f);
    } else {
        (0..count).for_each(f);
    }
}

/// Copies `n` elements of `elem` bytes, `step` elements apart at `src`, to consecutive
/// elements at `dst` (or the reverse with `gather = false`).
///
/// # Safety
/// Both ranges are valid for the copy.
unsafe fn strided_copy(src: usize, step: usize, dst: usize, n: usize, elem: usize, gather: bool) {
    if n == 0 {
        return;
    }
    if step == 1 || n == 1 {
        let (s, d) = if gather { (src, dst) } else { (dst, src) };
        std::ptr::copy_nonoverlapping(s as *const u8, d as *mut u8, n * elem);
        return;
    }
    for r in 0..n {
        let (far, near) = (src + r * step * elem, dst + r * elem);
        let (s, d) = if gather { (far, near) } else { (near, far) };
        std::ptr::copy_nonoverlapping(s as *const u8, d as *mut u8, elem);
    }
}

/// Copies one item from the caller's layout at `src` to its compact form at `dst`.
///
/// # Safety
/// `src` covers the item's extent; `dst` holds `rows·cols` elements.
unsafe fn pack_item(o: &Operand, src: usize, dst: usize) {
    item_copy(o, src, dst, true, Part::All);
}

/// Copies one item between the caller's layout at `far` and its compact form at `near`:
/// gathering (`gather`) or scattering `part` of it back.
///
/// # Safety
/// As for [`pack_item`], in the copy's direction.
unsafe fn item_copy(o: &Operand, far: usize, near: usize, gather: bool, part: Part) {
    let e = o.elem;
    if o.row_step == 1 && (o.ld == o.rows || o.cols == 1) && part == Part::All {
        return strided_copy(far, 1, near, o.rows * o.cols, e, gather);
    }
    for c in 0..o.cols {
        let skip = if part == Part::StrictLower { (c + 1).min(o.rows) } else { 0 };
        strided_copy(far + (c * o.ld + skip * o.row_step) * e, o.row_step, near + (c * o.rows + skip) * e, o.rows - skip, e, gather);
    }
}

/// Whether a chunk's items form one run in the caller's memory equal to its compact form.
fn contiguous(o: &Operand) -> bool {
    let item = o.rows * o.cols;
    matches!(o.items, Items::Strided { stride, .. } if stride == item && item == o.slot) && o.row_step == 1 && (o.ld == o.rows || o.cols == 1) && !o.interleaved
}

/// Packs items `first..first + count` of `o` into `dst`.
///
/// # Safety
/// As [`Stage::run`]; `dst` holds the chunk's region of `o`.
unsafe fn pack(o: &Operand, first: usize, count: usize, dst: usize) {
    transfer(o, first, count, dst, true, Part::All);
}

/// Unpacks `part` of items `first..first + count` of `o` from `src` into the caller's arrays.
///
/// # Safety
/// As [`Stage::run`]; `src` holds the chunk's region of `o`.
unsafe fn unpack(o: &Operand, first: usize, count: usize, src: usize) {
    transfer(o, first, count, src, false, o.part);
}

unsafe fn transfer(o: &Operand, first: usize, count: usize, near: usize, gather: bool, part: Part) {
    let bytes = count * o.item_bytes();
    if bytes == 0 {
        return;
    }
    if contiguous(o) && part == Part::All {
        return strided_copy(o.item(first), 1, near, count * o.slot, o.elem, gather);
    }
    if o.interleaved {
        // Element (r, c) of the chunk's items: `count` consecutive items (stride 1).
        let base = o.item(first);
        return for_items(o.rows * o.cols, bytes, |rc| {
            let (r, c) = (rc % o.rows, rc / o.rows);
            let far = base + (r * o.row_step + c * o.ld) * o.elem;
            strided_copy(far, 1, near + rc * count * o.elem, count, o.elem, gather);
        });
    }
    for_items(count, bytes, |i| item_copy(o, o.item(first + i), near + i * o.item_bytes(), gather, part));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_of(space: Space, batch: usize, ops: &[Operand]) -> Plan {
        ops.iter().fold(Stage::new(space, batch), |s, &o| s.op(o)).plan()
    }

    #[test]
    fn shared_and_own_operands_get_one_region() {
        let a = [0f64; 16];
        let b = Batch::Strided { ptr: a.as_ptr(), stride: 0 };
        let c = Batch::Strided { ptr: a.as_ptr(), stride: 4 };
        let p = plan_of(Space::Host, 4, &[Operand::matrix(Dir::In, &b, 2, 2, 2), Operand::matrix(Dir::InOut, &c, 2, 2, 2), Operand::own(&[1u32, 2])]);
        assert_eq!(p.count, 4);
        assert_eq!(p.offset, vec![0, 512, 256]);
        assert_eq!(p.pinned, vec![None, Some(0), None]);
        let d = plan_of(Space::Device, 4, &[Operand::matrix(Dir::In, &b, 2, 2, 2), Operand::scratch::<f64>(3)]);
        assert_eq!((d.workspace_bytes, d.pinned_bytes), (256, 0));
    }

    #[test]
    fn chunks_fit_the_budgets() {
        let x = [0f32; 1];
        let big = Operand::vector(Dir::InOut, x.as_ptr(), 1 << 20, 1 << 20);
        assert_eq!(plan_of(Space::Host, 100, &[big]).count, CHUNK_BYTES >> 22);
        assert_eq!(plan_of(Space::Device, 100, &[big]).count, 100);
        assert_eq!(plan_of(Space::Device, 1000, &[Operand::scratch::<u8>(1 << 20)]).count, 256);
        assert_eq!(Stage::new(Space::Device, 10).max_chunk(3).op(Operand::scratch::<u8>(1)).plan().count, 3);
    }

    #[test]
    fn pack_and_unpack_round_trip_every_layout() {
        // Two 3 × 2 matrices with ld 4, stride 9: padding must survive, StrictLower only
        // writes (1,0), (2,0), (2,1).
        let src: Vec<f64> = (0..18).map(|v| v as f64).collect();
        let o = Operand::matrix(Dir::InOut, &Batch::Strided { ptr: src.as_ptr(), stride: 9 }, 3, 2, 4);
        let mut packed = vec![0f64; 12];
        unsafe { pack(&o, 0, 2, packed.as_mut_ptr() as usize) };
        assert_eq!(packed, [0., 1., 2., 4., 5., 6., 9., 10., 11., 13., 14., 15.]);
        let mut dst = vec![-1f64; 18];
        let back = Operand::matrix(Dir::Out, &Batch::Strided { ptr: dst.as_mut_ptr(), stride: 9 }, 3, 2, 4).part(Part::StrictLower);
        unsafe { unpack(&back, 0, 2, packed.as_ptr() as usize) };
        let lower: Vec<usize> = (0..18).filter(|&i| dst[i] != -1.0).collect();
        assert_eq!(lower, [1, 2, 6, 10, 11, 15]);
        assert!(lower.iter().all(|&i| dst[i] == src[i]));
        // Interleaved: 3 rows of 5 items, items 1..4 staged as rows of 3.
        let il: Vec<f32> = (0..15).map(|v| v as f32).collect();
        let o = Operand::vector(Dir::In, il.as_ptr(), 1, 3).row_step(5).interleaved();
        let mut packed = vec![0f32; 9];
        unsafe { pack(&o, 1, 3, packed.as_mut_ptr() as usize) };
        assert_eq!(packed, [1., 2., 3., 6., 7., 8., 11., 12., 13.]);
        // A contiguous run, and a pointer array.
        let run = Operand::vector(Dir::In, il.as_ptr(), 5, 5);
        let mut packed = vec![0f32; 10];
        unsafe { pack(&run, 1, 2, packed.as_mut_ptr() as usize) };
        assert_eq!(packed, il[5..15]);
        let ptrs = [il[10..].as_ptr(), il.as_ptr()];
        let arr = Operand::matrix(Dir::In, &Batch::Array(ptrs.as_ptr()), 2, 2, 3);
        let mut packed = vec![0f32; 8];
        unsafe { pack(&arr, 0, 2, packed.as_mut_ptr() as usize) };
        assert_eq!(packed, [10., 11., 13., 14., 0., 1., 3., 4.]);
    }
}
