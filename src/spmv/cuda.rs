//! CUDA backend: launches the kernels of `kernels/spmv.cu`. csrmv op N: a block per
//! `rows_per_block` rows, products staged in shared memory a tile at a time, long rows by the
//! whole block; op T and C: y scaled, then an atomic scatter with `lanes_per_row` lanes per
//! row. CMRS: a warp per work item, then a fix-up of the strips cut into several. A CSR plan:
//! a block per unit of its partition, with the stream or the vector kernel its analysis
//! picked, then a fix-up of its split rows. The arrays
//! go through the staging engine as a batch of one: host arrays are staged (and validated on
//! the host first); device arrays are launched on directly, and the kernels report bad
//! structure through the handle's check word (see `CudaHandle::arm_check`), or a validation
//! pass runs first when `NUMGPU_CHECK_INPUTS=1`.

use super::cmrs::{CmrsMatrix, CmrsScalar, Layout as Packing, Store};
use super::plan::{floor_pow2, CsrPlan, Partition, PlanKernel, PlanStore, Structure};
use super::{structure_error, CsrRef, Csrmv};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::{Op, Scalar};
use crate::core::batch::RawPtr;
use crate::cuda::driver::Device;
use crate::cuda::params::{grid, KScalar};
use crate::cuda::staging::{Chunk, Dir, Operand, Stage};
use crate::cuda::{CudaHandle, Module};
use cudarc::driver::sys as cu;
use std::ffi::c_void;
use std::mem::size_of;
use std::sync::{Arc, OnceLock};

const SOURCE: &str = include_str!("../../kernels/spmv.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// Threads per block of every kernel (`NG_BLOCK` in the source).
const BLOCK: usize = 128;
/// Resident blocks per SM the persistent kernels launch (2048 threads / BLOCK).
const BLOCKS_PER_SM: usize = 16;

/// Threads per block of csrmv op N (`NG_CSR_BLOCK`), and the most rows a block takes.
const CSR_BLOCK: usize = 256;
/// Entries of one tile of csrmv op N (`NG_TILE`).
const TILE: usize = 2048;

/// Rows per block of csrmv op N: a tile's worth at the mean row length (a power of two from
/// 1 to 256), fewer when the matrix would otherwise give fewer than 4 blocks per SM.
pub fn rows_per_block(m: usize, nnz: usize, sms: usize) -> usize {
    let mean = nnz.div_ceil(m.max(1)).max(1);
    floor_pow2(TILE / mean).min(CSR_BLOCK).min(floor_pow2(m / (4 * sms.max(1))))
}

/// Lanes per row of the op T scatter for a mean row length of nnz / m: the smallest power of two from 2 to 32
/// that covers it (CUSP's rule).
pub fn lanes_per_row(m: usize, nnz: usize) -> usize {
    nnz.div_ceil(m.max(1)).next_power_of_two().clamp(2, 32)
}

/// A kernel of `kernels/spmv.cu` and its compile-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// csrmv op N.
    CsrN,
    /// The structure validation pass of `NUMGPU_CHECK_INPUTS=1`.
    Check,
    /// The op T (or C: `conj`) scatter with `v` lanes per row.
    CsrT { v: usize, conj: bool },
    /// y := beta·y.
    Scale,
    /// CMRS with `height` rows per strip and M = `lanes`.
    Cmrs { height: usize, lanes: usize },
    /// The fix-up of CMRS strips cut into several items, `height` rows per strip.
    CmrsFixup { height: usize },
    /// CMRS values from CSR values.
    Gather,
    /// The plan's product; `perm`: values through the transpose's permutation (op T/C),
    /// `conj`: conjugated (op C).
    Plan { perm: bool, conj: bool },
    /// The plan's stream kernel (tiles staged in shared memory); `perm`, `conj` as `Plan`.
    Stream { perm: bool, conj: bool },
    /// The plan's fix-up of split rows.
    PlanFixup,
}

/// The defines and entry point of `k` for element type T.
pub fn specialise<T: Scalar>(k: Kernel) -> (Vec<String>, String) {
    let mut d = vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)];
    let kind = match k {
        Kernel::CsrN => {
            d.push("NG_CSRMV_N=1".into());
            "csrmv_n"
        }
        Kernel::Check => {
            d.push("NG_CSR_CHECK=1".into());
            "csr_check"
        }
        Kernel::CsrT { v, conj } => {
            d.extend(["NG_CSRMV_T=1".into(), format!("NG_V={v}"), format!("NG_CONJ={}", conj as i32)]);
            "csrmv_t"
        }
        Kernel::Scale => {
            d.push("NG_SCALE=1".into());
            "scale"
        }
        Kernel::Cmrs { height, lanes } => {
            d.extend(["NG_CMRSMV=1".into(), format!("NG_H={height}"), format!("NG_M={lanes}")]);
            "cmrsmv"
        }
        Kernel::CmrsFixup { height } => {
            d.extend(["NG_CMRS_FIXUP=1".into(), format!("NG_H={height}")]);
            "cmrs_fixup"
        }
        Kernel::Gather => {
            d.push("NG_CMRS_GATHER=1".into());
            "cmrs_gather"
        }
        Kernel::Plan { perm, conj } => {
            d.extend(["NG_CSR_PLAN=1".into(), format!("NG_PERM={}", perm as i32), format!("NG_CONJ={}", conj as i32)]);
            "csr_plan"
        }
        Kernel::Stream { perm, conj } => {
            d.extend(["NG_CSR_STREAM=1".into(), format!("NG_PERM={}", perm as i32), format!("NG_CONJ={}", conj as i32)]);
            "csr_stream"
        }
        Kernel::PlanFixup => {
            d.push("NG_CSR_PLAN_FIXUP=1".into());
            "csr_plan_fixup"
        }
    };
    (d, format!("{kind}_{}", T::SUFFIX))
}

/// A grid of persistent blocks for `threads` threads of work: no more blocks than the
/// device holds at once (the kernels loop over the rest).
fn blocks(ch: &CudaHandle, threads: usize) -> (u32, u32, u32) {
    let most = ch.dev.sm_count.max(1) as usize * BLOCKS_PER_SM;
    grid(threads.div_ceil(BLOCK).min(most) as i64)
}

/// The module of `k` for element type T.
fn module<T: Scalar>(ch: &CudaHandle, k: Kernel) -> Result<Arc<Module>> {
    let (defines, entry) = specialise::<T>(k);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// Whether `NUMGPU_CHECK_INPUTS=1`: validate device-array structures before the product.
fn check_inputs() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("NUMGPU_CHECK_INPUTS").map(|v| v == "1").unwrap_or(false))
}

/// The device addresses of one csrmv.
#[derive(Clone, Copy)]
struct Dev {
    val: u64,
    row_ptr: u64,
    col_ind: u64,
    x: u64,
    y: u64,
}

impl Dev {
    /// The views of a staged csrmv, in [`csrmv`]'s operand order.
    fn of(k: &Chunk) -> Dev {
        Dev { val: k[0].ptr(), row_ptr: k[1].ptr(), col_ind: k[2].ptr(), x: k[3].ptr(), y: k[4].ptr() }
    }
}

/// Enqueues `y := beta·y` for `len` entries.
fn launch_scale<T: Scalar>(ch: &CudaHandle, len: usize, beta: T, y: u64) -> Result<()> {
    let module = module::<T>(ch, Kernel::Scale)?;
    let (n, b, zero) = (len as i64, KScalar(beta), beta.is_zero() as i32);
    // SAFETY: `scale_<T>` of spmv.cu; y holds len entries.
    unsafe { ch.launch(&module).arg(&n).arg(&b).arg(&y).arg(&zero).run(blocks(ch, len), BLOCK as u32, 0) }
}

/// Enqueues csrmv op N over A's rows.
fn launch_csr_n<T: Scalar>(ch: &CudaHandle, c: &Csrmv<T>, d: Dev, flag: u64) -> Result<()> {
    let a = &c.a;
    let module = module::<T>(ch, Kernel::CsrN)?;
    let rows = rows_per_block(a.m, a.nnz, ch.dev.sm_count as usize);
    let (m, n, nnz, rows_) = (a.m as i64, a.n as i64, a.nnz as i64, rows as i32);
    let (alpha, beta, zero) = (KScalar(c.alpha), KScalar(c.beta), c.beta.is_zero() as i32);
    let l = ch.launch(&module).arg(&m).arg(&n).arg(&nnz).arg(&alpha).arg(&d.val).arg(&d.row_ptr).arg(&d.col_ind).arg(&a.base).arg(&d.x);
    // SAFETY: `csrmv_n_<T>` of spmv.cu; the arrays cover the validated extents.
    unsafe { l.arg(&beta).arg(&d.y).arg(&zero).arg(&flag).arg(&rows_).run(grid(a.m.div_ceil(rows) as i64), CSR_BLOCK as u32, 0) }
}

/// Enqueues the validation pass over A's structure.
fn launch_check<T: Scalar>(ch: &CudaHandle, a: &CsrRef<T>, d: Dev, flag: u64) -> Result<()> {
    let module = module::<T>(ch, Kernel::Check)?;
    let (m, n, nnz) = (a.m as i64, a.n as i64, a.nnz as i64);
    // SAFETY: `csr_check_<T>` of spmv.cu; it reads only the validated extents.
    unsafe { ch.launch(&module).arg(&m).arg(&n).arg(&nnz).arg(&d.row_ptr).arg(&d.col_ind).arg(&a.base).arg(&flag).run(blocks(ch, a.m), BLOCK as u32, 0) }
}

/// Enqueues the op T (or C) scatter over A's rows.
fn launch_csr_t<T: Scalar>(ch: &CudaHandle, c: &Csrmv<T>, d: Dev, flag: u64) -> Result<()> {
    let a = &c.a;
    let v = lanes_per_row(a.m, a.nnz);
    let module = module::<T>(ch, Kernel::CsrT { v, conj: c.trans == Op::C })?;
    let (m, n, nnz, alpha) = (a.m as i64, a.n as i64, a.nnz as i64, KScalar(c.alpha));
    let l = ch.launch(&module).arg(&m).arg(&n).arg(&nnz).arg(&alpha).arg(&d.val).arg(&d.row_ptr).arg(&d.col_ind).arg(&a.base).arg(&d.x);
    // SAFETY: `csrmv_t_<T>` of spmv.cu; the arrays cover the validated extents.
    unsafe { l.arg(&d.y).arg(&flag).run(blocks(ch, a.m * v), BLOCK as u32, 0) }
}

/// Enqueues the whole product on device addresses.
fn run<T: Scalar>(ch: &CudaHandle, c: &Csrmv<T>, d: Dev, flag: u64) -> Result<()> {
    let (_, ylen) = c.lens();
    if c.alpha.is_zero() {
        return launch_scale(ch, ylen, c.beta, d.y);
    }
    match c.trans {
        Op::N => launch_csr_n(ch, c, d, flag),
        Op::T | Op::C => {
            if c.beta != T::one() {
                launch_scale(ch, ylen, c.beta, d.y)?;
            }
            launch_csr_t(ch, c, d, flag)
        }
    }
}

/// The C name of csrmv for T, for reports of bad structure found after the call returned.
fn csrmv_name<T: Scalar>() -> &'static str {
    match T::LETTER {
        's' => "numgpu_scsrmv",
        'd' => "numgpu_dcsrmv",
        'c' => "numgpu_ccsrmv",
        _ => "numgpu_zcsrmv",
    }
}

fn decode_csrmv(code: u64) -> Error {
    structure_error(code)
}

/// One array of `len` elements as a batch of one.
fn whole<P: RawPtr>(dir: Dir, p: P, len: usize) -> Operand {
    Operand::vector(dir, p, len, len)
}

/// y's direction: written whole when beta = 0 (every kernel path then stores every entry).
fn y_dir<T: Scalar>(beta: T) -> Dir {
    if beta.is_zero() {
        Dir::Out
    } else {
        Dir::InOut
    }
}

pub fn csrmv<T: Scalar>(ch: &mut CudaHandle, c: &Csrmv<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let reads_a = !c.alpha.is_zero();
    let (xlen, ylen) = c.lens();
    let flag = ch.check_word()?;
    let device = space == Space::Device;
    // Host arrays: validated here, so the kernels meet no bad entry and nothing is written
    // on an invalid call.
    if !device && reads_a {
        // SAFETY: host memory of the validated extents.
        if let Some(code) = unsafe { c.a.first_bad() } {
            return Err(structure_error(code));
        }
    }
    let a = &c.a;
    let stage = Stage::new(space, 1);
    // val, row_ptr, col_ind, x (none read when alpha = 0), y.
    let stage = match reads_a {
        true => stage.op(whole(Dir::In, a.val, a.nnz)).op(whole(Dir::In, a.row_ptr, a.m + 1)).op(whole(Dir::In, a.col_ind, a.nnz)).op(whole(Dir::In, c.x, xlen)),
        false => (0..4).fold(stage, |s, _| s.op(Operand::absent())),
    };
    let stage = stage.op(whole(y_dir(c.beta), c.y, ylen));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernels read A's
    // entries within the extents its (validated or checked) structure gives.
    unsafe {
        stage.run(ch, |ch, k| {
            let d = Dev::of(k);
            if device && reads_a && check_inputs() {
                launch_check(ch, a, d, flag)?;
                if let Some(code) = ch.take_check()? {
                    return Err(structure_error(code));
                }
            }
            run(ch, c, d, flag)
        })?
    };
    if device && reads_a {
        ch.arm_check(csrmv_name::<T>(), decode_csrmv);
    }
    Ok(())
}

/// A CMRS matrix's arrays in device memory, owned (freed on drop, after the device is idle).
pub struct CmrsDevice {
    pub dev: Arc<Device>,
    pub packed: u64,
    pub val: u64,
    pub src: u64,
    pub item_ptr: u64,
    pub item_strip: u64,
    pub item_part: u64,
    pub split_strip: u64,
    pub split_part: u64,
}

// SAFETY: plain device addresses of a context usable from any thread.
unsafe impl Send for CmrsDevice {}
unsafe impl Sync for CmrsDevice {}

impl Drop for CmrsDevice {
    fn drop(&mut self) {
        free_all(&self.dev, &[self.packed, self.val, self.src, self.item_ptr, self.item_strip, self.item_part, self.split_strip, self.split_part]);
    }
}

/// Frees device buffers from [`alloc_copy`] (0: none) once the device is idle, so that work
/// still using them finishes first; a failure is ignored (nothing can be done in a drop).
fn free_all(dev: &Device, ptrs: &[u64]) {
    if dev.bind().is_err() {
        return;
    }
    // SAFETY: the buffers came from `alloc_copy` and are not used once the device is idle.
    unsafe {
        cu::cuCtxSynchronize();
        for &p in ptrs.iter().filter(|&&p| p != 0) {
            cu::cuMemFree_v2(p);
        }
    }
}

/// New device memory holding `data` (0 for no data); the copy is finished on return.
pub(crate) fn alloc_copy<E>(ch: &CudaHandle, data: &[E]) -> Result<u64> {
    if data.is_empty() {
        return Ok(0);
    }
    let p = ch.malloc(std::mem::size_of_val(data))? as u64;
    // SAFETY: p holds the bytes of `data`; the copy finishes before `data` may go.
    let copied = unsafe { ch.memcpy(p as *mut c_void, data.as_ptr() as *const c_void, std::mem::size_of_val(data)) };
    if let Err(e) = copied {
        // SAFETY: just allocated, not used by any work.
        unsafe { cu::cuMemFree_v2(p) };
        return Err(e);
    }
    Ok(p)
}

/// `len` elements at `p` (host or device memory) as a host vector.
///
/// # Safety
/// `p` is valid for `len` reads in its space.
pub(crate) unsafe fn to_host<E: Copy + Default>(ch: &CudaHandle, p: *const E, len: usize, space: Space) -> Result<Vec<E>> {
    if len == 0 {
        return Ok(Vec::new());
    }
    if space == Space::Host {
        return Ok(std::slice::from_raw_parts(p, len).to_vec());
    }
    let mut v = vec![E::default(); len];
    ch.memcpy(v.as_mut_ptr() as *mut c_void, p as *const c_void, len * size_of::<E>())?;
    Ok(v)
}

pub fn cmrs_create<T: CmrsScalar>(ch: &mut CudaHandle, a: &CsrRef<T>, height: usize, lanes: Option<usize>, space: Space) -> Result<CmrsMatrix> {
    ch.bind()?;
    // SAFETY: the arrays cover the validated extents in `space`.
    let (rp, ci, val) = unsafe { (to_host(ch, a.row_ptr, a.m + 1, space)?, to_host(ch, a.col_ind, a.nnz, space)?, to_host(ch, a.val, a.nnz, space)?) };
    if let Some(code) = super::first_bad(&rp, &ci, a.n, a.nnz, a.base) {
        return Err(structure_error(code));
    }
    let layout = Packing::build(&rp, &ci, a.base, height, lanes);
    let values = layout.gather(&val);
    // Filled one by one: on an error, drop frees what was allocated.
    let mut d = CmrsDevice { dev: ch.dev.clone(), packed: 0, val: 0, src: 0, item_ptr: 0, item_strip: 0, item_part: 0, split_strip: 0, split_part: 0 };
    d.packed = alloc_copy(ch, &layout.packed)?;
    d.val = alloc_copy(ch, &values)?;
    d.src = alloc_copy(ch, &layout.src)?;
    d.item_ptr = alloc_copy(ch, &layout.item_ptr)?;
    d.item_strip = alloc_copy(ch, &layout.item_strip)?;
    d.item_part = alloc_copy(ch, &layout.item_part)?;
    d.split_strip = alloc_copy(ch, &layout.split_strip)?;
    d.split_part = alloc_copy(ch, &layout.split_part)?;
    Ok(CmrsMatrix { m: a.m, n: a.n, nnz: a.nnz, letter: T::LETTER, layout, store: Store::Cuda(d) })
}

fn device_of(a: &CmrsMatrix) -> &CmrsDevice {
    match &a.store {
        Store::Cuda(d) => d,
        Store::Host(_) => unreachable!("backend checked by the caller"),
    }
}

/// New values for a CUDA CMRS matrix, from host values (gathered here) or device values
/// (gathered by a kernel).
///
/// # Safety
/// `val` is valid for nnz reads in `space`.
pub unsafe fn cmrs_update_values<T: CmrsScalar>(ch: &mut CudaHandle, a: &mut CmrsMatrix, val: *const T, space: Space) -> Result<()> {
    ch.bind()?;
    let d = device_of(a);
    let stored = a.layout.packed.len();
    if space == Space::Host {
        let values = a.layout.gather(std::slice::from_raw_parts(val, a.nnz));
        // d.val holds `stored` elements; memcpy returns when the copy is done.
        return ch.memcpy(d.val as *mut c_void, values.as_ptr() as *const c_void, stored * size_of::<T>());
    }
    let module = module::<T>(ch, Kernel::Gather)?;
    let (len, from) = (stored as i64, val as u64);
    // `cmrs_gather_<T>` of spmv.cu: src and out hold `stored` elements, every src entry
    // indexes val's nnz.
    ch.launch(&module).arg(&len).arg(&d.src).arg(&from).arg(&d.val).run(blocks(ch, stored), BLOCK as u32, 0)
}

/// Enqueues the CMRS product on device x and y, the split strips' partials at `part`
/// (`parts · height` elements).
fn launch_cmrs<T: CmrsScalar>(ch: &CudaHandle, alpha: T, a: &CmrsMatrix, x: u64, beta: T, y: u64, part: u64) -> Result<()> {
    if alpha.is_zero() {
        return launch_scale(ch, a.m, beta, y);
    }
    let d = device_of(a);
    let l: &Packing = &a.layout;
    let items = l.item_strip.len();
    let product = module::<T>(ch, Kernel::Cmrs { height: l.height, lanes: l.lanes })?;
    let (m, items_) = (a.m as i64, items as i64);
    let (alpha, beta, zero) = (KScalar(alpha), KScalar(beta), beta.is_zero() as i32);
    let run = ch.launch(&product).arg(&m).arg(&items_).arg(&d.item_ptr).arg(&d.item_strip).arg(&d.item_part).arg(&d.packed).arg(&d.val).arg(&x);
    // SAFETY: `cmrsmv_<T>` of spmv.cu; the arrays were built for these sizes, x holds n and
    // y m elements, part the partials.
    unsafe { run.arg(&alpha).arg(&beta).arg(&y).arg(&zero).arg(&part).run(blocks(ch, items * 32), BLOCK as u32, 0)? };
    let splits = l.split_strip.len();
    if splits == 0 {
        return Ok(());
    }
    let fixup = module::<T>(ch, Kernel::CmrsFixup { height: l.height })?;
    let splits_ = splits as i64;
    let run = ch.launch(&fixup).arg(&m).arg(&splits_).arg(&d.split_strip).arg(&d.split_part).arg(&part).arg(&alpha).arg(&beta).arg(&y).arg(&zero);
    // SAFETY: `cmrs_fixup_<T>` of spmv.cu, after the product kernel on the same stream wrote
    // the partials.
    unsafe { run.run(blocks(ch, splits * l.height), BLOCK as u32, 0) }
}

/// `y := alpha·A·x + beta·y` for a CUDA CMRS matrix, through the staging engine (x and y a
/// batch of one); the partial sums of long strips in its scratch.
///
/// # Safety
/// x (not read when alpha = 0) and y are valid for n and m elements in `space`.
#[allow(clippy::too_many_arguments)]
pub unsafe fn cmrsmv<T: CmrsScalar>(ch: &mut CudaHandle, alpha: T, a: &CmrsMatrix, x: *const T, beta: T, y: *mut T, space: Space) -> Result<()> {
    ch.bind()?;
    let x = if alpha.is_zero() { Operand::absent() } else { whole(Dir::In, x, a.n) };
    let parts = a.layout.parts() * a.layout.height;
    let stage = Stage::new(space, 1).op(x).op(whole(y_dir(beta), y, a.m)).op(Operand::scratch_once::<T>(parts));
    stage.run(ch, |ch, k| launch_cmrs(ch, alpha, a, k[0].ptr(), beta, k[1].ptr(), k[2].ptr()))
}

/// A CSR plan's arrays in device memory, owned (freed on drop, after the device is idle).
pub struct PlanDevice {
    pub dev: Arc<Device>,
    pub row_ptr: u64,
    pub col_ind: u64,
    /// 0 for op N.
    pub perm: u64,
    /// The units' descriptors (`FIELDS` i64 each).
    pub desc: u64,
    pub split_row: u64,
    pub split_part: u64,
    /// Bytes of the buffers above.
    pub bytes: usize,
}

// SAFETY: plain device addresses of a context usable from any thread.
unsafe impl Send for PlanDevice {}
unsafe impl Sync for PlanDevice {}

impl Drop for PlanDevice {
    fn drop(&mut self) {
        free_all(&self.dev, &[self.row_ptr, self.col_ind, self.perm, self.desc, self.split_row, self.split_part]);
    }
}

/// The plan's structure and partition copied to the handle's device.
pub fn plan_upload(ch: &mut CudaHandle, s: &Structure, p: &Partition) -> Result<PlanDevice> {
    ch.bind()?;
    let (desc, split_row, split_part) = (p.descriptors(), to_i64(&p.split_row), to_i64(&p.split_part));
    let bytes = s.bytes() + 8 * (desc.len() + split_row.len() + split_part.len());
    // Filled one by one: on an error, drop frees what was allocated.
    let mut d = PlanDevice { dev: ch.dev.clone(), row_ptr: 0, col_ind: 0, perm: 0, desc: 0, split_row: 0, split_part: 0, bytes };
    d.row_ptr = alloc_copy(ch, &s.row_ptr)?;
    d.col_ind = alloc_copy(ch, &s.col_ind)?;
    d.perm = alloc_copy(ch, &s.perm)?;
    d.desc = alloc_copy(ch, &desc)?;
    d.split_row = alloc_copy(ch, &split_row)?;
    d.split_part = alloc_copy(ch, &split_part)?;
    Ok(d)
}

fn to_i64(v: &[usize]) -> Vec<i64> {
    v.iter().map(|&e| e as i64).collect()
}

fn plan_device(plan: &CsrPlan) -> &PlanDevice {
    match &plan.store {
        PlanStore::Cuda(d) => d,
        PlanStore::Host(_) => unreachable!("backend checked by the caller"),
    }
}

/// Enqueues the plan's product (alpha ≠ 0) on device val, x and y, the split rows'
/// partials at `part`.
#[allow(clippy::too_many_arguments)]
fn launch_plan<T: Scalar>(ch: &CudaHandle, plan: &CsrPlan, alpha: T, val: u64, x: u64, beta: T, y: u64, part: u64) -> Result<()> {
    let d = plan_device(plan);
    let units = plan.partition.units.len();
    if units == 0 {
        return Ok(());
    }
    let (perm, conj) = (plan.trans != Op::N, plan.trans == Op::C);
    let product = module::<T>(
        ch,
        match plan.partition.kernel {
            PlanKernel::Stream => Kernel::Stream { perm, conj },
            PlanKernel::Vector => Kernel::Plan { perm, conj },
        },
    )?;
    let units_ = units as i64;
    let (alpha, beta, zero) = (KScalar(alpha), KScalar(beta), beta.is_zero() as i32);
    let l = ch.launch(&product).arg(&units_).arg(&d.desc).arg(&d.row_ptr).arg(&d.col_ind).arg(&d.perm).arg(&val).arg(&x);
    // SAFETY: `csr_plan_<T>` or `csr_stream_<T>` of spmv.cu (the same arguments; a stream
    // unit within the kernel's tile and row bounds); the plan's arrays were built for its structure (every
    // entry, column and permutation index validated), val holds nnz, x op(A)'s columns and y
    // its rows, part the partials.
    unsafe { l.arg(&alpha).arg(&beta).arg(&y).arg(&zero).arg(&part).run(grid(units as i64), CSR_BLOCK as u32, 0)? };
    let splits = plan.partition.split_row.len();
    if splits == 0 {
        return Ok(());
    }
    let fixup = module::<T>(ch, Kernel::PlanFixup)?;
    let splits_ = splits as i64;
    let l = ch.launch(&fixup).arg(&splits_).arg(&d.split_row).arg(&d.split_part).arg(&part).arg(&alpha).arg(&beta).arg(&y).arg(&zero);
    // SAFETY: `csr_plan_fixup_<T>` of spmv.cu, after the product on the same stream wrote the
    // partials.
    unsafe { l.run(blocks(ch, splits), BLOCK as u32, 0) }
}

/// `y := alpha·op(A)·x + beta·y` with a CUDA plan, through the staging engine (val, x, y a
/// batch of one); the partials in its scratch.
///
/// # Safety
/// val (nnz), x and y (op(A)'s columns and rows) are valid in `space`; val and x are not read
/// when alpha = 0.
#[allow(clippy::too_many_arguments)]
pub unsafe fn csrmv_plan<T: Scalar>(ch: &mut CudaHandle, plan: &CsrPlan, alpha: T, val: *const T, x: *const T, beta: T, y: *mut T, space: Space) -> Result<()> {
    ch.bind()?;
    let (xlen, ylen) = plan.lens();
    let (val, x) = match alpha.is_zero() {
        true => (Operand::absent(), Operand::absent()),
        false => (whole(Dir::In, val, plan.nnz), whole(Dir::In, x, xlen)),
    };
    let parts = plan.partition.parts();
    let stage = Stage::new(space, 1).op(val).op(x).op(whole(y_dir(beta), y, ylen)).op(Operand::scratch_once::<T>(parts));
    stage.run(ch, |ch, k| {
        if alpha.is_zero() {
            return launch_scale(ch, ylen, beta, k[2].ptr());
        }
        launch_plan(ch, plan, alpha, k[0].ptr(), k[1].ptr(), beta, k[2].ptr(), k[3].ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_per_block_follow_the_mean_row_length() {
        assert_eq!(rows_per_block(4_000_000, 20_000_000, 132), 256);
        assert_eq!(rows_per_block(1_000_000, 26_500_000, 132), 64);
        assert_eq!(rows_per_block(333_333, 20_000_000, 132), 32);
        assert_eq!(rows_per_block(500, 1_000_000, 132), 1);
        assert_eq!(rows_per_block(10_000, 50_000, 132), 16);
        assert_eq!(rows_per_block(0, 0, 132), 1);
    }

    #[test]
    fn lanes_follow_the_mean_row_length() {
        assert_eq!(lanes_per_row(100, 0), 2);
        assert_eq!(lanes_per_row(100, 500), 8);
        assert_eq!(lanes_per_row(100, 700), 8);
        assert_eq!(lanes_per_row(100, 2700), 32);
        assert_eq!(specialise::<f32>(Kernel::CsrN).1, "csrmv_n_f32");
        assert_eq!(specialise::<f64>(Kernel::Cmrs { height: 16, lanes: 8 }).1, "cmrsmv_f64");
    }

    #[test]
    fn bad_entry_codes_name_rows_before_entries() {
        let row = super::super::bad_code(super::super::BAD_ROW_PTR, 7);
        let entry = super::super::bad_code(super::super::BAD_COL_IND, 0);
        assert!(row < entry);
        assert_eq!(decode_csrmv(row).arg, Some("row_ptr"));
        assert_eq!(decode_csrmv(entry).arg, Some("col_ind"));
    }
}
