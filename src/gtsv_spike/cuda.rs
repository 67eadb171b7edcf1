//! CUDA backend of the tridiagonal solvers: launches the kernels of `kernels/gtsv_spike.cu`
//! (diagonal pivoting or Thomas: a thread per system for the interleaved batch; for the
//! strided batch a thread per system in shared memory up to BLOCK_SEQ rows, a block per system
//! and right-hand side in shared memory up to SPIKE_MIN rows, else a thread per system and
//! right-hand side), in chunks whose elimination workspace fits the handle's workspace,
//! staging host arrays through it; one large system by SPIKE (`spike`, see the kernel file),
//! with the whole-system solver as the fallback when a partition is singular.

use super::{Gtsv, GtsvInterleaved, GtsvStrided, Pivoting};
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::params::{arg, grid};
use crate::cuda::legacy::{chunk_len, pack, unpack, Layout};
use crate::cuda::CudaHandle;
use std::ffi::c_void;
use std::mem::size_of;

const SOURCE: &str = include_str!("../../kernels/gtsv_spike.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

const THREADS: usize = 128;

/// The defines and entry point of a kernel: `interleaved`, `strided`, `small`, `block`,
/// `spike_reduce`, `spike_top` or `spike_recover`.
pub fn specialise<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    let defines = vec![
        format!("NG_T={}", T::CUDA_TYPE),
        format!("NG_SUFFIX={}", T::SUFFIX),
        format!("NG_{}=1", kind.to_uppercase()),
        format!("NG_L={SPIKE_L}"),
        format!("NG_NT={SPIKE_NT}"),
    ];
    (defines, format!("gtsv_{kind}_{}", T::SUFFIX))
}

/// Whether systems of order n go a block per system (`gtsv_block`), all in shared memory;
/// above, a thread per system and right-hand side with its elimination in the workspace.
fn by_block(n: usize) -> bool {
    n <= SPIKE_MIN
}

/// Orders up to which a thread solves each system (the small-system kernel, several systems
/// per block) rather than a block: small systems gain nothing from partitions, and would lose
/// stability to their fixed boundaries.
const BLOCK_SEQ: usize = 4 * SPIKE_L;

/// Bytes of elimination workspace per solving thread: ng_gtsv_rows's P and Q, n each, and
/// n pivot kinds.
fn ws_per_thread<T>(n: usize) -> usize {
    n * (2 * size_of::<T>() + 1)
}

/// Workspace bytes per system and right-hand side of a strided batch, and for `threads` of
/// them: none for the block kernel.
fn strided_ws_per_thread<T>(n: usize) -> usize {
    if by_block(n) {
        0
    } else {
        ws_per_thread::<T>(n)
    }
}

fn strided_ws_bytes<T>(n: usize, threads: usize) -> usize {
    if by_block(n) {
        0
    } else {
        ws_bytes::<T>(n, threads)
    }
}

/// The three workspace arrays for `threads` solving threads, from `base`.
fn ws_arrays<T>(base: u64, n: usize, threads: usize) -> (u64, u64, u64) {
    let mut lay = Layout::default();
    let (p, q, kind) = (lay.take(n * threads * size_of::<T>()), lay.take(n * threads * size_of::<T>()), lay.take(n * threads));
    (base + p as u64, base + q as u64, base + kind as u64)
}

fn ws_bytes<T>(n: usize, threads: usize) -> usize {
    let mut lay = Layout::default();
    lay.take(n * threads * size_of::<T>());
    lay.take(n * threads * size_of::<T>());
    lay.take(n * threads);
    lay.bytes
}

/// Device arrays of a strided batch, from system `first` on.
#[derive(Clone, Copy)]
struct StridedArgs {
    dl: u64,
    d: u64,
    du: u64,
    b: u64,
    info: u64,
}

/// Largest grid y: right-hand sides beyond it are looped over in the block kernel.
const GRID_Y: usize = 65535;

#[allow(clippy::too_many_arguments)]
fn launch_block<T: Scalar>(ch: &CudaHandle, g: &GtsvStrided<T>, a: StridedArgs, stride_diag: usize, ldb: usize, stride_b: usize, count: usize) -> Result<()> {
    let (defines, entry) = specialise::<T>("block");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let p = g.n.div_ceil(SPIKE_L);
    let (mut n, mut nrhs, mut dl, mut d, mut du, mut sd) = (g.n as i32, g.nrhs as i64, a.dl, a.d, a.du, stride_diag as i64);
    let (mut b, mut ldb, mut sb, mut info, mut pivot) = (a.b, ldb as i64, stride_b as i64, a.info, (g.pivoting == Pivoting::Diagonal) as i32);
    let mut params = [arg(&mut n), arg(&mut nrhs), arg(&mut dl), arg(&mut d), arg(&mut du), arg(&mut sd), arg(&mut b), arg(&mut ldb), arg(&mut sb), arg(&mut info), arg(&mut pivot)];
    let grid = (count as u32, g.nrhs.min(GRID_Y) as u32, 1);
    // SAFETY: matches gtsv_block_<T>(int n, ng_i64 nrhs, const T *dl, const T *d, const T *du,
    // ng_i64 stride_diag, T *B, ng_i64 ldb, ng_i64 stride_b, int *info, int pivot);
    // n <= SPIKE_MIN, so p <= SPIKE_NT partitions fit the block.
    unsafe { ch.launch_params(&module, grid, (32 * p.div_ceil(32)) as u32, spike_smem::<T>(p * SPIKE_L, true), &mut params) }
}

/// Small systems per block of the small-system kernel, a thread each.
const SMALL_PER_BLOCK: usize = 32;

#[allow(clippy::too_many_arguments)]
fn launch_small<T: Scalar>(ch: &CudaHandle, g: &GtsvStrided<T>, a: StridedArgs, stride_diag: usize, ldb: usize, stride_b: usize, count: usize) -> Result<()> {
    let (defines, entry) = specialise::<T>("small");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (mut n, mut nrhs, mut dl, mut d, mut du, mut sd) = (g.n as i32, g.nrhs as i64, a.dl, a.d, a.du, stride_diag as i64);
    let (mut b, mut ldb, mut sb, mut info, mut batch, mut pivot) = (a.b, ldb as i64, stride_b as i64, a.info, count as i64, (g.pivoting == Pivoting::Diagonal) as i32);
    let mut params = [arg(&mut n), arg(&mut nrhs), arg(&mut dl), arg(&mut d), arg(&mut du), arg(&mut sd), arg(&mut b), arg(&mut ldb), arg(&mut sb), arg(&mut info), arg(&mut batch), arg(&mut pivot)];
    let grid = (count.div_ceil(SMALL_PER_BLOCK) as u32, g.nrhs.min(GRID_Y) as u32, 1);
    let smem = SMALL_PER_BLOCK * (g.n | 1) * (4 * size_of::<T>() + 1);
    // SAFETY: matches gtsv_small_<T>(int n, ng_i64 nrhs, const T *dl, const T *d, const T *du,
    // ng_i64 stride_diag, T *B, ng_i64 ldb, ng_i64 stride_b, int *info, ng_i64 batch,
    // int pivot); n <= BLOCK_SEQ, a block of SMALL_PER_BLOCK (<= SPIKE_NT)
    // threads and their systems' rows in shared memory.
    unsafe { ch.launch_params(&module, grid, SMALL_PER_BLOCK as u32, smem as u32, &mut params) }
}

#[allow(clippy::too_many_arguments)]
fn launch_strided<T: Scalar>(ch: &CudaHandle, g: &GtsvStrided<T>, a: StridedArgs, stride_diag: usize, ldb: usize, stride_b: usize, count: usize, ws: u64) -> Result<()> {
    if g.n <= BLOCK_SEQ {
        return launch_small(ch, g, a, stride_diag, ldb, stride_b, count);
    }
    if by_block(g.n) {
        return launch_block(ch, g, a, stride_diag, ldb, stride_b, count);
    }
    let (defines, entry) = specialise::<T>("strided");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let threads = count * g.nrhs;
    let (mut p, mut q, mut kind) = ws_arrays::<T>(ws, g.n, threads);
    let (mut n, mut nrhs, mut dl, mut d, mut du, mut sd) = (g.n as i32, g.nrhs as i64, a.dl, a.d, a.du, stride_diag as i64);
    let (mut b, mut ldb, mut sb, mut info, mut batch, mut pivot) = (a.b, ldb as i64, stride_b as i64, a.info, count as i64, (g.pivoting == Pivoting::Diagonal) as i32);
    let mut params = [arg(&mut n), arg(&mut nrhs), arg(&mut dl), arg(&mut d), arg(&mut du), arg(&mut sd), arg(&mut b), arg(&mut ldb), arg(&mut sb), arg(&mut info), arg(&mut batch), arg(&mut pivot), arg(&mut p), arg(&mut q), arg(&mut kind)];
    // SAFETY: matches gtsv_strided_<T>(int n, ng_i64 nrhs, const T *dl, const T *d, const T *du,
    // ng_i64 stride_diag, T *B, ng_i64 ldb, ng_i64 stride_b, int *info, ng_i64 batch, int pivot,
    // T *P, T *Q, signed char *K); the workspace holds `threads` threads' arrays.
    unsafe { ch.launch_params(&module, grid(threads.div_ceil(THREADS) as i64), THREADS as u32, 0, &mut params) }
}

/// The strided batch in device memory, in chunks of systems whose workspace fits.
fn strided_on_device<T: Scalar>(ch: &mut CudaHandle, g: &GtsvStrided<T>) -> Result<()> {
    let chunk = chunk_len(g.nrhs * strided_ws_per_thread::<T>(g.n), g.batch).min(i32::MAX as usize);
    let ws = ch.workspace(strided_ws_bytes::<T>(g.n, chunk * g.nrhs))?;
    let elem = size_of::<T>() as u64;
    let mut first = 0;
    while first < g.batch {
        let count = chunk.min(g.batch - first);
        let od = (first * g.stride_diag) as u64 * elem;
        let a = StridedArgs {
            dl: (g.dl as u64).wrapping_add(od),
            d: g.d as u64 + od,
            du: (g.du as u64).wrapping_add(od),
            b: g.b as u64 + (first * g.stride_b) as u64 * elem,
            info: g.info as u64 + (first * 4) as u64,
        };
        launch_strided(ch, g, a, g.stride_diag, g.ldb, g.stride_b, count, ws)?;
        first += count;
    }
    Ok(())
}

/// Copies `count` systems' first `len` elements (stride `stride` between systems; 0: one
/// shared copy) from host `src` to device `dst`, each in a slot of n elements (dl and du
/// have n - 1: the last slot entry is padding the kernel never reads).
///
/// # Safety
/// `src` covers the systems' elements; `dst` holds `count·n` elements.
#[allow(clippy::too_many_arguments)]
unsafe fn upload_systems<T: Scalar>(ch: &CudaHandle, host: &mut Vec<T>, dst: u64, src: *const T, stride: usize, len: usize, n: usize, count: usize) -> Result<()> {
    if src.is_null() || len == 0 {
        return Ok(());
    }
    let copies = if stride == 0 { 1 } else { count };
    ch.synchronize()?;
    host.clear();
    for i in 0..copies {
        host.extend_from_slice(std::slice::from_raw_parts(src.add(i * stride), len));
        host.resize((i + 1) * n, T::zero());
    }
    ch.htod(dst, host.as_ptr() as *const c_void, host.len() * size_of::<T>())?;
    ch.synchronize()
}

/// The strided batch on host arrays: chunks of systems through the workspace (diagonals, B,
/// info and the elimination workspace), solved, B and info copied back.
fn strided_on_host<T: Scalar>(ch: &mut CudaHandle, g: &GtsvStrided<T>) -> Result<()> {
    let (n, nrhs, elem) = (g.n, g.nrhs, size_of::<T>());
    let per = 3 * n * elem + n * nrhs * elem + 4 + nrhs * strided_ws_per_thread::<T>(n);
    let chunk = chunk_len(per, g.batch);
    let mut lay = Layout::default();
    let (odl, od, odu) = (lay.take(chunk * n * elem), lay.take(chunk * n * elem), lay.take(chunk * n * elem));
    let (ob, oinfo, ows) = (lay.take(chunk * n * nrhs * elem), lay.take(chunk * 4), lay.take(strided_ws_bytes::<T>(n, chunk * nrhs)));
    let ws = ch.workspace(lay.bytes)?;
    let mut host: Vec<T> = Vec::new();
    let mut first = 0;
    while first < g.batch {
        let count = chunk.min(g.batch - first);
        let o = first * g.stride_diag;
        // SAFETY: the host arrays cover the validated batch; the device regions were sized for
        // `chunk` systems; every copy back is synchronised.
        unsafe {
            upload_systems(ch, &mut host, ws + odl as u64, g.dl.wrapping_add(o), g.stride_diag, n - 1, n, count)?;
            upload_systems(ch, &mut host, ws + od as u64, g.d.add(o), g.stride_diag, n, n, count)?;
            upload_systems(ch, &mut host, ws + odu as u64, g.du.wrapping_add(o), g.stride_diag, n - 1, n, count)?;
            // B: each system's n × nrhs block, compact with leading dimension n.
            ch.synchronize()?;
            host.clear();
            for i in 0..count {
                for r in 0..nrhs {
                    host.extend_from_slice(std::slice::from_raw_parts(g.b.add((first + i) * g.stride_b + r * g.ldb), n));
                }
            }
            ch.htod(ws + ob as u64, host.as_ptr() as *const c_void, host.len() * elem)?;
            ch.synchronize()?;
            let a = StridedArgs { dl: ws + odl as u64, d: ws + od as u64, du: ws + odu as u64, b: ws + ob as u64, info: ws + oinfo as u64 };
            let stride = if g.stride_diag == 0 { 0 } else { n };
            launch_strided(ch, g, a, stride, n, n * nrhs, count, ws + ows as u64)?;
            ch.synchronize()?;
            host.resize(count * n * nrhs, T::zero());
            ch.dtoh(host.as_mut_ptr() as *mut c_void, ws + ob as u64, count * n * nrhs * elem)?;
            ch.dtoh(g.info.add(first) as *mut c_void, ws + oinfo as u64, count * 4)?;
            ch.synchronize()?;
            for i in 0..count {
                for r in 0..nrhs {
                    let src = &host[(i * nrhs + r) * n..(i * nrhs + r + 1) * n];
                    std::ptr::copy_nonoverlapping(src.as_ptr(), g.b.add((first + i) * g.stride_b + r * g.ldb), n);
                }
            }
        }
        first += count;
    }
    Ok(())
}

pub fn gtsv_strided<T: Scalar>(ch: &mut CudaHandle, g: &GtsvStrided<T>, space: Space) -> Result<()> {
    ch.bind()?;
    match space {
        Space::Device => strided_on_device(ch, g),
        Space::Host => strided_on_host(ch, g),
    }
}

/// Rows per SPIKE partition: odd, so that a partition's interior has even order (tridiagonal
/// matrices with a vanishing diagonal are singular in odd orders) and the threads' rows fall
/// in distinct shared-memory banks.
pub(crate) const SPIKE_L: usize = 17;

/// Partitions (threads) per SPIKE block.
pub(crate) const SPIKE_NT: usize = 128;

/// Largest order solved by one thread per right-hand side (diagonal pivoting over the whole
/// system) instead of SPIKE: below one block's worth of partitions, SPIKE gains nothing and its
/// fixed partition boundaries would cost stability.
pub(crate) const SPIKE_MIN: usize = SPIKE_L * SPIKE_NT;

/// The orders of SPIKE's levels: n, then each level's Schur complement in the separators
/// (one per partition), down to 1.
pub fn spike_levels(n: usize) -> Vec<usize> {
    let mut sizes = vec![n];
    while let Some(&m) = sizes.last().filter(|&&m| m > 1) {
        sizes.push(m.div_ceil(SPIKE_L));
    }
    sizes
}

/// Dynamic shared memory of a SPIKE block staging `rows` rows: their a, b, c, f and pivot
/// kinds, three values per thread, and (`with_s`: the block kernel) S's a, b, c, f and pivot
/// kinds. Without S, a double-precision block of SPIKE_NT partitions fits three times in an
/// SM.
fn spike_smem<T>(rows: usize, with_s: bool) -> u32 {
    let s = if with_s { 4 * SPIKE_NT * size_of::<T>() + SPIKE_NT } else { 0 };
    ((4 * rows + 3 * SPIKE_NT) * size_of::<T>() + rows + s) as u32
}

/// A tridiagonal system in device memory: dl (n − 1), d, du (n − 1), and right-hand sides f
/// with leading dimension ld.
#[derive(Clone, Copy)]
struct Level {
    n: usize,
    dl: u64,
    d: u64,
    du: u64,
    f: u64,
    ld: usize,
}

fn spike_module<T: Scalar>(ch: &CudaHandle, step: &str) -> Result<std::sync::Arc<crate::cuda::module::Module>> {
    let (defines, entry) = specialise::<T>(&format!("spike_{step}"));
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// Reduce: `next` (its diagonals and right-hand sides) from `lv`; `scale` maps `lv`'s rows to
/// the original system's.
fn spike_reduce<T: Scalar>(ch: &CudaHandle, lv: Level, next: Level, nrhs: usize, pivot: i32, flag: u64, scale: usize) -> Result<()> {
    let module = spike_module::<T>(ch, "reduce")?;
    let (mut n, mut dl, mut d, mut du, mut f, mut ld, mut pivot) = (lv.n as i64, lv.dl, lv.d, lv.du, lv.f, lv.ld as i64, pivot);
    let (mut sdl, mut sd, mut sdu, mut sf, mut lds, mut flag, mut scale) = (next.dl, next.d, next.du, next.f, next.ld as i64, flag, scale as i64);
    let mut params = [arg(&mut n), arg(&mut dl), arg(&mut d), arg(&mut du), arg(&mut f), arg(&mut ld), arg(&mut pivot), arg(&mut sdl), arg(&mut sd), arg(&mut sdu), arg(&mut sf), arg(&mut lds), arg(&mut flag), arg(&mut scale)];
    let blocks = next.n.div_ceil(SPIKE_NT - 1) as u32;
    // SAFETY: matches gtsv_spike_reduce_<T>(ng_i64 N, const T *dl, const T *d, const T *du,
    // const T *F, ng_i64 ldf, int pivot, T *sdl, T *sd, T *sdu, T *sf, ng_i64 ldsf,
    // unsigned long long *flag, ng_i64 scale); `next` holds order ceil(n / SPIKE_L).
    unsafe { ch.launch_params(&module, (blocks, nrhs as u32, 1), SPIKE_NT as u32, spike_smem::<T>(SPIKE_L * SPIKE_NT, false), &mut params) }
}

/// The last level's single unknown, in place.
fn spike_top<T: Scalar>(ch: &CudaHandle, lv: Level, nrhs: usize, flag: u64) -> Result<()> {
    let module = spike_module::<T>(ch, "top")?;
    let (mut d, mut f, mut nrhs_, mut ld, mut flag) = (lv.d, lv.f, nrhs as i64, lv.ld as i64, flag);
    let mut params = [arg(&mut d), arg(&mut f), arg(&mut nrhs_), arg(&mut ld), arg(&mut flag)];
    // SAFETY: matches gtsv_spike_top_<T>(const T *d, T *f, ng_i64 nrhs, ng_i64 ldf,
    // unsigned long long *flag) on an order-1 level.
    unsafe { ch.launch_params(&module, grid(nrhs.div_ceil(THREADS) as i64), THREADS as u32, 0, &mut params) }
}

/// Recover: `lv`'s solution over its right-hand sides, from `next`'s (the separators').
fn spike_recover<T: Scalar>(ch: &CudaHandle, lv: Level, next: Level, nrhs: usize, pivot: i32, flag: u64) -> Result<()> {
    let module = spike_module::<T>(ch, "recover")?;
    let (mut n, mut dl, mut d, mut du, mut x, mut ld, mut pivot) = (lv.n as i64, lv.dl, lv.d, lv.du, lv.f, lv.ld as i64, pivot);
    let (mut xs, mut lds, mut flag) = (next.f, next.ld as i64, flag);
    let mut params = [arg(&mut n), arg(&mut dl), arg(&mut d), arg(&mut du), arg(&mut x), arg(&mut ld), arg(&mut pivot), arg(&mut xs), arg(&mut lds), arg(&mut flag)];
    let blocks = next.n.div_ceil(SPIKE_NT) as u32;
    // SAFETY: matches gtsv_spike_recover_<T>(ng_i64 N, const T *dl, const T *d, const T *du,
    // T *X, ng_i64 ldx, int pivot, const T *xs, ng_i64 ldxs, unsigned long long *flag).
    unsafe { ch.launch_params(&module, (blocks, nrhs as u32, 1), SPIKE_NT as u32, spike_smem::<T>(SPIKE_L * SPIKE_NT, false), &mut params) }
}

/// One system by SPIKE (n > SPIKE_MIN). Returns false, having written nothing, when a pivot
/// block of a partition or of a reduced system was exactly singular.
fn spike<T: Scalar>(ch: &mut CudaHandle, g: &Gtsv<T>, space: Space) -> Result<bool> {
    let (n, nrhs, elem) = (g.n, g.nrhs, size_of::<T>());
    let sizes = spike_levels(n);
    let mut lay = Layout::default();
    let staged = (space == Space::Host).then(|| [lay.take((n - 1) * elem), lay.take(n * elem), lay.take((n - 1) * elem), lay.take(n * nrhs * elem)]);
    let offs: Vec<[usize; 4]> = sizes[1..].iter().map(|&m| [lay.take((m - 1) * elem), lay.take(m * elem), lay.take((m - 1) * elem), lay.take(m * nrhs * elem)]).collect();
    let oflag = lay.take(size_of::<u64>());
    let ws = ch.workspace(lay.bytes)?;
    let at = |o: usize| ws + o as u64;
    let top = match staged {
        None => Level { n, dl: g.dl as u64, d: g.d as u64, du: g.du as u64, f: g.b as u64, ld: g.ldb },
        Some(o) => {
            let mut host = vec![T::zero(); n * nrhs];
            // SAFETY: the validated host arrays hold n − 1, n, n − 1 and ldb·(nrhs − 1) + n
            // elements; the regions were sized for them; pageable copies complete on return.
            unsafe {
                ch.htod(at(o[0]), g.dl as *const c_void, (n - 1) * elem)?;
                ch.htod(at(o[1]), g.d as *const c_void, n * elem)?;
                ch.htod(at(o[2]), g.du as *const c_void, (n - 1) * elem)?;
                pack(g.b, g.ldb, n, nrhs, &mut host);
                ch.htod(at(o[3]), host.as_ptr() as *const c_void, n * nrhs * elem)?;
            }
            Level { n, dl: at(o[0]), d: at(o[1]), du: at(o[2]), f: at(o[3]), ld: n }
        }
    };
    let mut levels = vec![top];
    levels.extend(sizes[1..].iter().zip(&offs).map(|(&m, o)| Level { n: m, dl: at(o[0]), d: at(o[1]), du: at(o[2]), f: at(o[3]), ld: m }));
    let (flag, pivot) = (at(oflag), (g.pivoting == Pivoting::Diagonal) as i32);
    let mut status = u64::MAX;
    // SAFETY: the flag's region holds a u64; pageable copies complete on return.
    unsafe { ch.htod(flag, &status as *const u64 as *const c_void, size_of::<u64>())? };
    let mut scale = 1;
    for w in levels.windows(2) {
        spike_reduce::<T>(ch, w[0], w[1], nrhs, pivot, flag, scale)?;
        scale *= SPIKE_L;
    }
    spike_top::<T>(ch, levels[levels.len() - 1], nrhs, flag)?;
    for w in levels.windows(2).rev() {
        spike_recover::<T>(ch, w[0], w[1], nrhs, pivot, flag)?;
    }
    // SAFETY: reads the flag back into a local, synchronised before use.
    unsafe { ch.dtoh(&mut status as *mut u64 as *mut c_void, flag, size_of::<u64>())? };
    ch.synchronize()?;
    if status != u64::MAX {
        return Ok(false);
    }
    let zero = 0i32;
    // SAFETY: info is one entry in the call's space; on the host, B is written from the
    // staged solution (n × nrhs, compact), synchronised.
    unsafe {
        match space {
            Space::Device => ch.htod(g.info as u64, &zero as *const i32 as *const c_void, size_of::<i32>())?,
            Space::Host => {
                let mut host = vec![T::zero(); n * nrhs];
                ch.dtoh(host.as_mut_ptr() as *mut c_void, top.f, n * nrhs * elem)?;
                ch.synchronize()?;
                unpack(&host, n, nrhs, g.b, g.ldb);
                *g.info = 0;
            }
        }
    }
    Ok(true)
}

/// One system: SPIKE above SPIKE_MIN rows, the block kernel below; when SPIKE meets an exactly
/// singular pivot block (the system, or a partition of it, is singular), one thread per
/// right-hand side solves the whole system by diagonal pivoting, which decides info.
pub fn gtsv<T: Scalar>(ch: &mut CudaHandle, g: &Gtsv<T>, space: Space) -> Result<()> {
    ch.bind()?;
    // SPIKE's grid spans the right-hand sides in y; beyond its limit, a thread per right-hand
    // side has parallelism enough.
    if g.n > SPIKE_MIN && g.nrhs <= GRID_Y && spike(ch, g, space)? {
        return Ok(());
    }
    let s = GtsvStrided { n: g.n, nrhs: g.nrhs, dl: g.dl, d: g.d, du: g.du, stride_diag: 0, b: g.b, ldb: g.ldb, stride_b: 0, info: g.info, batch: 1, pivoting: g.pivoting };
    gtsv_strided(ch, &s, space)
}

#[allow(clippy::too_many_arguments)]
fn launch_interleaved<T: Scalar>(ch: &CudaHandle, g: &GtsvInterleaved<T>, dl: u64, d: u64, du: u64, b: u64, info: u64, stride: usize, first: usize, count: usize, ws: u64) -> Result<()> {
    let (defines, entry) = specialise::<T>("interleaved");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (mut p, mut q, mut kind) = ws_arrays::<T>(ws, g.n, count);
    let (mut n, mut dl, mut d, mut du, mut b, mut info) = (g.n as i32, dl, d, du, b, info);
    let (mut batch, mut first, mut count_, mut pivot) = (stride as i64, first as i64, count as i64, (g.pivoting == Pivoting::Diagonal) as i32);
    let mut params = [arg(&mut n), arg(&mut dl), arg(&mut d), arg(&mut du), arg(&mut b), arg(&mut info), arg(&mut batch), arg(&mut first), arg(&mut count_), arg(&mut pivot), arg(&mut p), arg(&mut q), arg(&mut kind)];
    // SAFETY: matches gtsv_interleaved_<T>(int n, const T *dl, const T *d, const T *du, T *B,
    // int *info, ng_i64 batch, ng_i64 first, ng_i64 count, int pivot, T *P, T *Q,
    // signed char *K); the workspace holds `count` threads' arrays.
    unsafe { ch.launch_params(&module, grid(count.div_ceil(THREADS) as i64), THREADS as u32, 0, &mut params) }
}

/// Copies the `count` systems from `first` of an interleaved host array (n rows of `batch`)
/// into `host`, as an interleaved array of `count` systems.
///
/// # Safety
/// `src` holds `n·batch` elements.
unsafe fn gather<T: Copy>(host: &mut Vec<T>, src: *const T, n: usize, batch: usize, first: usize, count: usize) {
    host.clear();
    for k in 0..n {
        host.extend_from_slice(std::slice::from_raw_parts(src.add(k * batch + first), count));
    }
}

pub fn gtsv_interleaved<T: Scalar>(ch: &mut CudaHandle, g: &GtsvInterleaved<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let (n, elem) = (g.n, size_of::<T>());
    if space == Space::Device {
        let chunk = chunk_len(ws_per_thread::<T>(n), g.batch);
        let ws = ch.workspace(ws_bytes::<T>(n, chunk))?;
        let mut first = 0;
        while first < g.batch {
            let count = chunk.min(g.batch - first);
            launch_interleaved(ch, g, g.dl as u64, g.d as u64, g.du as u64, g.b as u64, g.info as u64, g.batch, first, count, ws)?;
            first += count;
        }
        return Ok(());
    }
    let chunk = chunk_len(4 * n * elem + 4 + ws_per_thread::<T>(n), g.batch);
    let mut lay = Layout::default();
    let offs: Vec<usize> = (0..4).map(|_| lay.take(chunk * n * elem)).collect();
    let (oinfo, ows) = (lay.take(chunk * 4), lay.take(ws_bytes::<T>(n, chunk)));
    let ws = ch.workspace(lay.bytes)?;
    let mut host: Vec<T> = Vec::new();
    let mut first = 0;
    while first < g.batch {
        let count = chunk.min(g.batch - first);
        // SAFETY: the host arrays hold n·batch elements (dl and du padded); the device regions
        // were sized for `chunk` systems; every copy back is synchronised.
        unsafe {
            for (src, &off) in [g.dl, g.d, g.du, g.b as *const T].iter().zip(&offs) {
                if src.is_null() {
                    continue;
                }
                ch.synchronize()?;
                gather(&mut host, *src, n, g.batch, first, count);
                ch.htod(ws + off as u64, host.as_ptr() as *const c_void, host.len() * elem)?;
            }
            ch.synchronize()?;
            let at = |i: usize| ws + offs[i] as u64;
            launch_interleaved(ch, g, at(0), at(1), at(2), at(3), ws + oinfo as u64, count, 0, count, ws + ows as u64)?;
            host.resize(n * count, T::zero());
            ch.dtoh(host.as_mut_ptr() as *mut c_void, at(3), n * count * elem)?;
            ch.dtoh(g.info.add(first) as *mut c_void, ws + oinfo as u64, count * 4)?;
            ch.synchronize()?;
            for k in 0..n {
                std::ptr::copy_nonoverlapping(host.as_ptr().add(k * count), g.b.add(k * g.batch + first), count);
            }
        }
        first += count;
    }
    Ok(())
}
