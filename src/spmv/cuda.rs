//! CUDA backend: launches the kernels of `kernels/spmv.cu`. csrmv op N: a block per
//! `rows_per_block` rows, products staged in shared memory a tile at a time, long rows by the
//! whole block; op T and C: y scaled, then an atomic scatter with `lanes_per_row` lanes per
//! row. CMRS: a warp per work item, then a fix-up of the strips cut into several. Host arrays
//! are staged through the handle's workspace (and validated on the host first); device arrays
//! are launched on directly, and the kernels report bad structure through the handle's check
//! word (see `CudaHandle::arm_check`), or a validation pass runs first when
//! `NUMGPU_CHECK_INPUTS=1`.

use super::cmrs::{CmrsMatrix, CmrsScalar, Layout as Packing, Store};
use super::{structure_error, CsrRef, Csrmv};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::{Op, Scalar};
use crate::cuda::driver::Device;
use crate::cuda::params::{arg, grid};
use crate::cuda::legacy::Layout;
use crate::cuda::CudaHandle;
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

/// The largest power of two not above `v` (1 for 0).
fn floor_pow2(v: usize) -> usize {
    1 << (usize::BITS - 1 - v.max(1).leading_zeros())
}

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
    };
    (d, format!("{kind}_{}", T::SUFFIX))
}

/// A grid of persistent blocks for `threads` threads of work: no more blocks than the
/// device holds at once (the kernels loop over the rest).
fn blocks(ch: &CudaHandle, threads: usize) -> (u32, u32, u32) {
    let most = ch.dev.sm_count.max(1) as usize * BLOCKS_PER_SM;
    grid(threads.div_ceil(BLOCK).min(most) as i64)
}

/// Launches `k` with `params` on `threads` threads of work, persistent blocks of BLOCK.
///
/// # Safety
/// `params` match the kernel's signature and every device address is valid for it.
unsafe fn launch<T: Scalar>(ch: &CudaHandle, k: Kernel, threads: usize, params: &mut [*mut c_void]) -> Result<()> {
    launch_on::<T>(ch, k, blocks(ch, threads), BLOCK, params)
}

/// Launches `k` with `params` on `grid` blocks of `block` threads.
///
/// # Safety
/// As [`launch`].
unsafe fn launch_on<T: Scalar>(ch: &CudaHandle, k: Kernel, grid: (u32, u32, u32), block: usize, params: &mut [*mut c_void]) -> Result<()> {
    let (defines, entry) = specialise::<T>(k);
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    ch.launch_params(&module, grid, block as u32, 0, params)
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

/// Enqueues `y := beta·y` for `len` entries.
fn launch_scale<T: Scalar>(ch: &CudaHandle, len: usize, beta: T, y: u64) -> Result<()> {
    let (mut len_, mut beta, mut y, mut zero) = (len as i64, beta, y, beta.is_zero() as i32);
    let mut params = [arg(&mut len_), arg(&mut beta), arg(&mut y), arg(&mut zero)];
    // SAFETY: matches scale_<T>(ng_i64 len, T beta, T *y, int beta_zero); y holds len.
    unsafe { launch::<T>(ch, Kernel::Scale, len, &mut params) }
}

/// Enqueues csrmv op N over A's rows.
fn launch_csr_n<T: Scalar>(ch: &CudaHandle, c: &Csrmv<T>, d: Dev, flag: u64) -> Result<()> {
    let a = &c.a;
    let rows = rows_per_block(a.m, a.nnz, ch.dev.sm_count as usize);
    let (mut m, mut n, mut nnz, mut alpha, mut val, mut rp, mut ci, mut base, mut x) = (a.m as i64, a.n as i64, a.nnz as i64, c.alpha, d.val, d.row_ptr, d.col_ind, a.base, d.x);
    let (mut beta, mut y, mut zero, mut flag, mut rows_) = (c.beta, d.y, c.beta.is_zero() as i32, flag, rows as i32);
    let mut params = [
        arg(&mut m),
        arg(&mut n),
        arg(&mut nnz),
        arg(&mut alpha),
        arg(&mut val),
        arg(&mut rp),
        arg(&mut ci),
        arg(&mut base),
        arg(&mut x),
        arg(&mut beta),
        arg(&mut y),
        arg(&mut zero),
        arg(&mut flag),
        arg(&mut rows_),
    ];
    // SAFETY: matches csrmv_n_<T>(ng_i64 m, ng_i64 n, ng_i64 nnz, T alpha, const T *val,
    // const int *row_ptr, const int *col_ind, int base, const T *x, T beta, T *y,
    // int beta_zero, ng_u64 *flag, int rows); the arrays cover the validated extents.
    unsafe { launch_on::<T>(ch, Kernel::CsrN, grid(a.m.div_ceil(rows) as i64), CSR_BLOCK, &mut params) }
}

/// Enqueues the validation pass over A's structure.
fn launch_check<T: Scalar>(ch: &CudaHandle, a: &CsrRef<T>, d: Dev, flag: u64) -> Result<()> {
    let (mut m, mut n, mut nnz, mut rp, mut ci, mut base, mut flag) = (a.m as i64, a.n as i64, a.nnz as i64, d.row_ptr, d.col_ind, a.base, flag);
    let mut params = [arg(&mut m), arg(&mut n), arg(&mut nnz), arg(&mut rp), arg(&mut ci), arg(&mut base), arg(&mut flag)];
    // SAFETY: matches csr_check_<T>(ng_i64 m, ng_i64 n, ng_i64 nnz, const int *row_ptr,
    // const int *col_ind, int base, ng_u64 *flag); it reads only the validated extents.
    unsafe { launch::<T>(ch, Kernel::Check, a.m, &mut params) }
}

/// Enqueues the op T (or C) scatter over A's rows.
fn launch_csr_t<T: Scalar>(ch: &CudaHandle, c: &Csrmv<T>, d: Dev, flag: u64) -> Result<()> {
    let a = &c.a;
    let v = lanes_per_row(a.m, a.nnz);
    let (mut m, mut n, mut nnz, mut alpha, mut val, mut rp, mut ci, mut base, mut x) = (a.m as i64, a.n as i64, a.nnz as i64, c.alpha, d.val, d.row_ptr, d.col_ind, a.base, d.x);
    let (mut y, mut flag) = (d.y, flag);
    let mut params = [arg(&mut m), arg(&mut n), arg(&mut nnz), arg(&mut alpha), arg(&mut val), arg(&mut rp), arg(&mut ci), arg(&mut base), arg(&mut x), arg(&mut y), arg(&mut flag)];
    // SAFETY: matches csrmv_t_<T>(ng_i64 m, ng_i64 n, ng_i64 nnz, T alpha, const T *val,
    // const int *row_ptr, const int *col_ind, int base, const T *x, T *y,
    // ng_u64 *flag); the arrays cover the validated extents.
    unsafe { launch::<T>(ch, Kernel::CsrT { v, conj: c.trans == Op::C }, a.m * v, &mut params) }
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

/// Copies `len` elements from host `src` to device `dst` (enqueued; pageable memory is read
/// before this returns).
///
/// # Safety
/// `src` is valid for `len` reads, `dst` for `len` writes.
unsafe fn put<E>(ch: &CudaHandle, dst: u64, src: *const E, len: usize) -> Result<()> {
    if len == 0 {
        return Ok(());
    }
    ch.htod(dst, src as *const c_void, len * size_of::<E>())
}

pub fn csrmv<T: Scalar>(ch: &mut CudaHandle, c: &Csrmv<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let reads_a = !c.alpha.is_zero();
    let (xlen, ylen) = c.lens();
    let flag = ch.check_word()?;
    if space == Space::Device {
        let d = Dev { val: c.a.val as u64, row_ptr: c.a.row_ptr as u64, col_ind: c.a.col_ind as u64, x: c.x as u64, y: c.y as u64 };
        if reads_a && check_inputs() {
            launch_check(ch, &c.a, d, flag)?;
            if let Some(code) = ch.take_check()? {
                return Err(structure_error(code));
            }
        }
        run(ch, c, d, flag)?;
        if reads_a {
            ch.arm_check(csrmv_name::<T>(), decode_csrmv);
        }
        return Ok(());
    }
    // Host arrays: validated here, so the kernels meet no bad entry and nothing is written
    // on an invalid call.
    if reads_a {
        // SAFETY: host memory of the validated extents.
        if let Some(code) = unsafe { c.a.first_bad() } {
            return Err(structure_error(code));
        }
    }
    let a = &c.a;
    let nnz = if reads_a { a.nnz } else { 0 };
    let rows = if reads_a { a.m + 1 } else { 0 };
    let mut lay = Layout::default();
    let (ov, orp, oci) = (lay.take(nnz * size_of::<T>()), lay.take(rows * 4), lay.take(nnz * 4));
    let (ox, oy) = (lay.take(if reads_a { xlen } else { 0 } * size_of::<T>()), lay.take(ylen * size_of::<T>()));
    let ws = ch.workspace(lay.bytes)?;
    let d = Dev { val: ws + ov as u64, row_ptr: ws + orp as u64, col_ind: ws + oci as u64, x: ws + ox as u64, y: ws + oy as u64 };
    // SAFETY: the host arrays cover the validated extents, the workspace regions were sized
    // for them, and y is copied back before the synchronisation returns.
    unsafe {
        put(ch, d.val, a.val, nnz)?;
        put(ch, d.row_ptr, a.row_ptr, rows)?;
        put(ch, d.col_ind, a.col_ind, nnz)?;
        if reads_a {
            put(ch, d.x, c.x, xlen)?;
        }
        if !c.beta.is_zero() {
            put(ch, d.y, c.y as *const T, ylen)?;
        }
        run(ch, c, d, flag)?;
        ch.dtoh(c.y as *mut c_void, d.y, ylen * size_of::<T>())?;
    }
    ch.synchronize()
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
        if self.dev.bind().is_err() {
            return;
        }
        // SAFETY: the buffers were allocated by `alloc_copy` and are not used once the device
        // is idle.
        unsafe {
            cu::cuCtxSynchronize();
            for p in [self.packed, self.val, self.src, self.item_ptr, self.item_strip, self.item_part, self.split_strip, self.split_part] {
                if p != 0 {
                    cu::cuMemFree_v2(p);
                }
            }
        }
    }
}

/// New device memory holding `data` (0 for no data); the copy is finished on return.
fn alloc_copy<E>(ch: &CudaHandle, data: &[E]) -> Result<u64> {
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
unsafe fn to_host<E: Copy + Default>(ch: &CudaHandle, p: *const E, len: usize, space: Space) -> Result<Vec<E>> {
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
    let (mut len, mut src, mut from, mut out) = (stored as i64, d.src, val as u64, d.val);
    let mut params = [arg(&mut len), arg(&mut src), arg(&mut from), arg(&mut out)];
    // Matches cmrs_gather_<T>(ng_i64 len, const int *src, const T *val, T *out): src and out
    // hold `stored` elements, every src entry indexes val's nnz.
    launch::<T>(ch, Kernel::Gather, stored, &mut params)
}

/// Bytes of the partial row sums of `a`'s split strips.
fn part_bytes<T>(a: &CmrsMatrix) -> usize {
    a.layout.parts() * a.layout.height * size_of::<T>()
}

/// Enqueues the CMRS product on device x and y, the split strips' partials at `part`
/// ([`part_bytes`]).
fn launch_cmrs<T: CmrsScalar>(ch: &CudaHandle, alpha: T, a: &CmrsMatrix, x: u64, beta: T, y: u64, part: u64) -> Result<()> {
    if alpha.is_zero() {
        return launch_scale(ch, a.m, beta, y);
    }
    let d = device_of(a);
    let l: &Packing = &a.layout;
    let kernel = |cmrs| if cmrs { Kernel::Cmrs { height: l.height, lanes: l.lanes } } else { Kernel::CmrsFixup { height: l.height } };
    let items = l.item_strip.len();
    let (mut m, mut items_, mut ip, mut is, mut ipart, mut packed, mut val, mut x) = (a.m as i64, items as i64, d.item_ptr, d.item_strip, d.item_part, d.packed, d.val, x);
    let (mut alpha, mut beta, mut y, mut zero, mut part) = (alpha, beta, y, beta.is_zero() as i32, part);
    let mut params = [arg(&mut m), arg(&mut items_), arg(&mut ip), arg(&mut is), arg(&mut ipart), arg(&mut packed), arg(&mut val), arg(&mut x), arg(&mut alpha), arg(&mut beta), arg(&mut y), arg(&mut zero), arg(&mut part)];
    // SAFETY: matches cmrsmv_<T>(ng_i64 m, ng_i64 items, const ng_i64 *item_ptr,
    // const int *item_strip, const int *item_part, const unsigned *packed, const T *val,
    // const T *x, T alpha, T beta, T *y, int beta_zero, T *part); the arrays were built for
    // these sizes, x holds n and y m elements, part the partials.
    unsafe { launch::<T>(ch, kernel(true), items * 32, &mut params)? };
    let splits = l.split_strip.len();
    if splits == 0 {
        return Ok(());
    }
    let (mut splits_, mut ss, mut sp) = (splits as i64, d.split_strip, d.split_part);
    let mut params = [arg(&mut m), arg(&mut splits_), arg(&mut ss), arg(&mut sp), arg(&mut part), arg(&mut alpha), arg(&mut beta), arg(&mut y), arg(&mut zero)];
    // SAFETY: matches cmrs_fixup_<T>(ng_i64 m, ng_i64 splits, const int *split_strip,
    // const int *split_part, const T *part, T alpha, T beta, T *y, int beta_zero), after the
    // product kernel on the same stream wrote the partials.
    unsafe { launch::<T>(ch, kernel(false), splits * l.height, &mut params) }
}

/// `y := alpha·A·x + beta·y` for a CUDA CMRS matrix: enqueued on device x and y, staged
/// through the workspace for host ones; the partial sums of long strips in the workspace.
///
/// # Safety
/// x (not read when alpha = 0) and y are valid for n and m elements in `space`.
#[allow(clippy::too_many_arguments)]
pub unsafe fn cmrsmv<T: CmrsScalar>(ch: &mut CudaHandle, alpha: T, a: &CmrsMatrix, x: *const T, beta: T, y: *mut T, space: Space) -> Result<()> {
    ch.bind()?;
    let device = space == Space::Device;
    let xlen = if alpha.is_zero() || device { 0 } else { a.n };
    let ylen = if device { 0 } else { a.m };
    let mut lay = Layout::default();
    let (ox, oy, op) = (lay.take(xlen * size_of::<T>()), lay.take(ylen * size_of::<T>()), lay.take(part_bytes::<T>(a)));
    let ws = if lay.bytes == 0 { 0 } else { ch.workspace(lay.bytes)? };
    let part = ws + op as u64;
    if device {
        return launch_cmrs(ch, alpha, a, x as u64, beta, y as u64, part);
    }
    let (dx, dy) = (ws + ox as u64, ws + oy as u64);
    // x and y cover n and m host elements; y is back before the synchronisation returns.
    put(ch, dx, x, xlen)?;
    if !beta.is_zero() {
        put(ch, dy, y as *const T, a.m)?;
    }
    launch_cmrs(ch, alpha, a, dx, beta, dy, part)?;
    ch.dtoh(y as *mut c_void, dy, a.m * size_of::<T>())?;
    ch.synchronize()
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
