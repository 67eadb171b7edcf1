//! CUDA backend of the tridiagonal solvers: launches the kernels of `kernels/gtsv_spike.cu`
//! (diagonal pivoting or Thomas: a thread per system for the interleaved batch, or for a
//! batch too small to fill the GPU a thread per partition (with diagonal pivoting, for the
//! systems diagonally dominant by rows; the others whole); for the
//! strided batch a thread per system in shared memory up to BLOCK_SEQ rows, a block per system
//! and right-hand side in shared memory up to SPIKE_MIN rows, else a thread per system and
//! right-hand side) through the staging engine; one large system by SPIKE (`spike`, see the
//! kernel file: a reduce and a recover launch per level above the tail, the tail's levels in
//! one launch), with the whole-system solver as the fallback when a partition is singular,
//! enqueued after it and deciding on the device whether to run, so the host never waits.

use super::{Gtsv, GtsvInterleaved, GtsvStrided, Pivoting};
use crate::core::batch::Batch;
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::handle::Launch;
use crate::cuda::module::Module;
use crate::cuda::params::grid;
use crate::cuda::staging::{Chunk, Dir, Operand, Stage};
use crate::cuda::CudaHandle;
use std::mem::size_of;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../kernels/gtsv_spike.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

const THREADS: usize = 128;

/// The defines and entry point of a kernel: `interleaved`, `strided`, `small`, `block`,
/// `spike_reduce`, `spike_recover`, `il_reduce`, `il_solve` or `il_recover` (SPIKE_NT
/// partitions per block).
pub fn specialise<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    specialise_nt::<T>(kind, SPIKE_NT)
}

/// As [`specialise`] with `nt` partitions (threads) per block: `spike_tail` takes one of
/// [`TAIL_NT`].
pub fn specialise_nt<T: Scalar>(kind: &str, nt: usize) -> (Vec<String>, String) {
    let defines = vec![
        format!("NG_T={}", T::CUDA_TYPE),
        format!("NG_SUFFIX={}", T::SUFFIX),
        format!("NG_{}=1", kind.to_uppercase()),
        format!("NG_L={SPIKE_L}"),
        format!("NG_NT={nt}"),
        format!("NG_D={}", read_ahead::<T>()),
    ];
    (defines, format!("gtsv_{kind}_{}", T::SUFFIX))
}

/// Rows the thread-per-system elimination reads ahead of their use (the kernels' NG_D): 8,
/// or 4 for z, whose rows take four times a single-precision row's registers.
fn read_ahead<T>() -> usize {
    if size_of::<T>() <= 8 {
        8
    } else {
        4
    }
}

/// Every specialisation the backend may launch for T (defines, entry point): for the kernel
/// compile check.
pub fn kernel_cases<T: Scalar>() -> Vec<(Vec<String>, String)> {
    let fixed = ["interleaved", "strided", "small", "block", "spike_reduce", "spike_recover", "il_reduce", "il_solve", "il_recover"].map(specialise::<T>);
    fixed.into_iter().chain(TAIL_NT.map(|nt| specialise_nt::<T>("spike_tail", nt))).collect()
}

fn module<T: Scalar>(ch: &CudaHandle, kind: &str) -> Result<Arc<Module>> {
    module_nt::<T>(ch, kind, SPIKE_NT)
}

fn module_nt<T: Scalar>(ch: &CudaHandle, kind: &str, nt: usize) -> Result<Arc<Module>> {
    let (defines, entry) = specialise_nt::<T>(kind, nt);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// The kernels' `pivot` argument.
fn pivot_code(p: Pivoting) -> i32 {
    (p == Pivoting::Diagonal) as i32
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

/// Largest grid y: right-hand sides beyond it are looped over in the block kernel.
const GRID_Y: usize = 65535;

/// Small systems per block of the small-system kernel, a thread each.
const SMALL_PER_BLOCK: usize = 16;

/// Threads per block of the small-system kernel, all staging rows (<= SPIKE_NT): shared memory
/// holds few systems per SM (96 of order 64 in double precision on an H100), and one loading
/// thread per system kept too few loads in flight for the memory's bandwidth.
const SMALL_THREADS: usize = 128;

/// The elimination workspace of ng_gtsv_rows for `threads` solving threads per system: P and
/// Q (n each per thread) and n pivot kinds per thread, interleaved by thread.
fn elimination<T>(stage: Stage, n: usize, threads: usize) -> Stage {
    stage.op(Operand::scratch::<T>(n * threads)).op(Operand::scratch::<T>(n * threads)).op(Operand::scratch::<i8>(n * threads))
}

/// A strided batch's sub- or super-diagonals (n − 1 per system), each staged in a slot of n
/// so that staged systems are as far apart as their d; absent when n = 1 (not referenced, and
/// possibly NULL).
fn off_diagonal<T>(p: *const T, stride: usize, n: usize) -> Operand {
    if n == 1 {
        return Operand::absent();
    }
    Operand::vector(Dir::In, p, stride, n - 1).slot(n)
}

/// The strided batch's operands, in the order [`launch_strided`] reads them: dl, d, du, B,
/// info, and P, Q, K for the kernel of a thread per system and right-hand side (empty for the
/// small and block kernels, which need none).
fn strided_stage<T: Scalar>(g: &GtsvStrided<T>, space: Space) -> Stage {
    let (n, sd) = (g.n, g.stride_diag);
    let threads = if by_block(n) { 0 } else { g.nrhs };
    let b = Batch::Strided { ptr: g.b, stride: g.stride_b as i64 };
    // The block kernel has a block per system in grid x.
    let stage = Stage::new(space, g.batch)
        .max_chunk(i32::MAX as usize)
        .op(off_diagonal(g.dl, sd, n))
        .op(Operand::vector(Dir::In, g.d, sd, n))
        .op(off_diagonal(g.du, sd, n))
        .op(Operand::matrix(Dir::InOut, &b, n, g.nrhs, g.ldb))
        .op(Operand::vector(Dir::Out, g.info, 1, 1));
    elimination::<T>(stage, n, threads)
}

/// The arguments every strided kernel begins with, from a chunk's views: n, nrhs, dl, d, du,
/// stride_diag, B, ldb, stride_b, info.
struct StridedArgs {
    n: i32,
    nrhs: i64,
    dl: u64,
    d: u64,
    du: u64,
    stride_diag: i64,
    b: u64,
    ldb: i64,
    stride_b: i64,
    info: u64,
}

impl StridedArgs {
    fn of<T>(g: &GtsvStrided<T>, k: &Chunk) -> StridedArgs {
        // One stride for the three diagonals: the caller's, or the staged slots of n.
        debug_assert!(k[0].ptr() == 0 || k[0].stride == k[1].stride);
        let (dl, d, du, b) = (&k[0], &k[1], &k[2], &k[3]);
        let (n, nrhs, info) = (g.n as i32, g.nrhs as i64, k[4].ptr());
        StridedArgs { n, nrhs, dl: dl.ptr(), d: d.ptr(), du: du.ptr(), stride_diag: d.stride as i64, b: b.ptr(), ldb: b.ld as i64, stride_b: b.stride as i64, info }
    }

    fn push<'a>(&'a self, l: Launch<'a>) -> Launch<'a> {
        let diagonals = l.arg(&self.n).arg(&self.nrhs).arg(&self.dl).arg(&self.d).arg(&self.du).arg(&self.stride_diag);
        diagonals.arg(&self.b).arg(&self.ldb).arg(&self.stride_b).arg(&self.info)
    }
}

/// Enqueues the solve of the chunk's systems of a strided batch, on [`strided_stage`]'s
/// views: the small kernel up to BLOCK_SEQ rows, the block kernel up to SPIKE_MIN, else a
/// thread per system and right-hand side. `spike`: 0, or (above SPIKE_MIN) the failure flag
/// of a SPIKE solve of the same system enqueued before, which this launch falls back from
/// (it solves only if that one failed, else sets info to 0).
fn launch_strided<T: Scalar>(ch: &CudaHandle, g: &GtsvStrided<T>, k: &Chunk, spike: u64) -> Result<()> {
    debug_assert!(spike == 0 || !by_block(g.n), "only the thread-per-system kernel reads SPIKE's flag");
    let a = StridedArgs::of(g, k);
    let (batch, pivot, rhs) = (k.count as i64, pivot_code(g.pivoting), g.nrhs.min(GRID_Y) as u32);
    if g.n <= BLOCK_SEQ {
        let module = module::<T>(ch, "small")?;
        let smem = SMALL_PER_BLOCK * (g.n | 1) * (4 * size_of::<T>() + 1);
        let per = SMALL_PER_BLOCK as i32;
        // SAFETY: the argument list of gtsv_small_<T> in gtsv_spike.cu, on the chunk's views;
        // n <= BLOCK_SEQ, SMALL_PER_BLOCK systems per block of SMALL_THREADS (<= SPIKE_NT)
        // threads, their rows in shared memory.
        return unsafe { a.push(ch.launch(&module)).arg(&batch).arg(&pivot).arg(&per).run((k.count.div_ceil(SMALL_PER_BLOCK) as u32, rhs, 1), SMALL_THREADS as u32, smem as u32) };
    }
    if by_block(g.n) {
        let module = module::<T>(ch, "block")?;
        let p = g.n.div_ceil(SPIKE_L);
        // SAFETY: the argument list of gtsv_block_<T> in gtsv_spike.cu, on the chunk's views
        // (a block per system: count <= i32::MAX); n <= SPIKE_MIN, so p <= SPIKE_NT partitions
        // fit the block.
        return unsafe { a.push(ch.launch(&module)).arg(&pivot).run((k.count as u32, rhs, 1), (32 * p.div_ceil(32)) as u32, spike_smem::<T>(p * SPIKE_L, SPIKE_NT, true)) };
    }
    let module = module::<T>(ch, "strided")?;
    let (p, q, kinds) = (k[5].ptr(), k[6].ptr(), k[7].ptr());
    let threads = k.count * g.nrhs;
    // SAFETY: the argument list of gtsv_strided_<T> in gtsv_spike.cu, on the chunk's views;
    // P, Q and K hold n per thread; `spike` is NULL or a SPIKE solve's flag.
    unsafe { a.push(ch.launch(&module)).arg(&batch).arg(&pivot).arg(&p).arg(&q).arg(&kinds).arg(&spike).run(grid(threads.div_ceil(THREADS) as i64), THREADS as u32, 0) }
}

/// A strided batch (see [`GtsvStrided`]), its arrays in `space`.
pub fn gtsv_strided<T: Scalar>(ch: &mut CudaHandle, g: &GtsvStrided<T>, space: Space) -> Result<()> {
    ch.bind()?;
    // SAFETY: the operands are the validated call's arrays in `space`; the kernels touch the
    // chunk's systems only.
    unsafe { strided_stage(g, space).run(ch, |ch, k| launch_strided(ch, g, k, 0)) }
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

/// Dynamic shared memory of a SPIKE block of `nt` threads (the kernel's NG_NT) staging `rows`
/// rows: their a, b, c, f and pivot kinds, three values per thread, and (`with_s`: the block
/// kernel, NG_NT = SPIKE_NT) S's a, b, c, f and pivot kinds. Without S, a double-precision
/// block of SPIKE_NT partitions fits three times in an SM.
fn spike_smem<T>(rows: usize, nt: usize, with_s: bool) -> u32 {
    let s = if with_s { 4 * SPIKE_NT * size_of::<T>() + SPIKE_NT } else { 0 };
    ((4 * rows + 3 * nt) * size_of::<T>() + rows + s) as u32
}

/// A tridiagonal system in device memory: dl (n − 1), d, du (n − 1), and right-hand sides f
/// with leading dimension ld (as the kernels take them).
#[derive(Clone, Copy)]
struct Level {
    n: i64,
    dl: u64,
    d: u64,
    du: u64,
    f: u64,
    ld: i64,
}

impl Level {
    /// The arguments the reduce and recover kernels begin with: N, dl, d, du, the right-hand
    /// sides, their leading dimension, and `pivot`.
    fn push<'a>(&'a self, l: Launch<'a>, pivot: &'a i32) -> Launch<'a> {
        l.arg(&self.n).arg(&self.dl).arg(&self.d).arg(&self.du).arg(&self.f).arg(&self.ld).arg(pivot)
    }
}

/// Index of the first SPIKE operand, after [`strided_stage`]'s.
const SPIKE_OPS: usize = 8;

/// The block sizes (partitions per block) `gtsv_spike_tail` is compiled for, largest first:
/// a launch takes the largest whose shared memory the device grants one block.
pub const TAIL_NT: [usize; 3] = [512, 256, 128];

/// Partitions per block of `gtsv_spike_tail` for T on `ch`'s device: the largest of
/// [`TAIL_NT`] whose rows fit its shared memory, else SPIKE_NT, which the level kernels need
/// anyway (73 KiB in double precision, 144 KiB in complex double).
fn tail_nt<T>(ch: &CudaHandle) -> usize {
    TAIL_NT.into_iter().find(|&nt| spike_smem::<T>(SPIKE_L * nt, nt, false) as usize <= ch.dev.max_smem_optin).unwrap_or(SPIKE_NT)
}

/// SPIKE's plan for one system: the orders of its levels ([`spike_levels`]) and the first
/// level that `gtsv_spike_tail` solves with all below it in one launch: the first whose order
/// is at most SPIKE_L·(nt − 1), so that its reduce is one block's work (nt − 1 partitions and
/// the halo). The levels above it take a reduce and a recover launch each.
struct SpikePlan {
    sizes: Vec<usize>,
    tail: usize,
    nt: usize,
}

impl SpikePlan {
    fn new(n: usize, nt: usize) -> SpikePlan {
        let sizes = spike_levels(n);
        let tail = sizes.iter().position(|&m| m <= SPIKE_L * (nt - 1)).unwrap_or(sizes.len() - 1);
        SpikePlan { sizes, tail, nt }
    }

    /// Elements of the tail kernel's workspace per right-hand side: the levels below the tail
    /// level, each its dl, d, du and f of m entries (as gtsv_spike_tail lays them out).
    fn tail_work(&self) -> usize {
        self.sizes[self.tail + 1..].iter().map(|&m| 4 * m).sum()
    }
}

/// SPIKE's workspace, after the strided solve's operands (its fallback): the dl, d, du and
/// right-hand sides of each reduced level down to the tail level, the tail kernel's
/// workspace, then the failure flag.
fn spike_stage<T>(stage: Stage, plan: &SpikePlan, nrhs: usize) -> Stage {
    let levels = plan.sizes[1..=plan.tail].iter().fold(stage, |s, &m| {
        let diagonals = s.op(Operand::scratch_once::<T>(m - 1)).op(Operand::scratch_once::<T>(m)).op(Operand::scratch_once::<T>(m - 1));
        diagonals.op(Operand::scratch_once::<T>(m * nrhs))
    });
    levels.op(Operand::scratch_once::<T>((plan.tail_work() * nrhs).max(1))).op(Operand::scratch_once::<u64>(1))
}

/// Reduce: `next` (its diagonals and right-hand sides) from `lv`; `scale` maps `lv`'s rows to
/// the original system's.
fn spike_reduce<T: Scalar>(ch: &CudaHandle, lv: Level, next: Level, nrhs: usize, pivot: i32, flag: u64, scale: usize) -> Result<()> {
    let module = module::<T>(ch, "spike_reduce")?;
    let (blocks, scale) = ((next.n as usize).div_ceil(SPIKE_NT - 1) as u32, scale as i64);
    let smem = spike_smem::<T>(SPIKE_L * SPIKE_NT, SPIKE_NT, false);
    // SAFETY: the argument list of gtsv_spike_reduce_<T> in gtsv_spike.cu; `next` holds order
    // ceil(n / SPIKE_L).
    unsafe { lv.push(ch.launch(&module), &pivot).arg(&next.dl).arg(&next.d).arg(&next.du).arg(&next.f).arg(&next.ld).arg(&flag).arg(&scale).run((blocks, nrhs as u32, 1), SPIKE_NT as u32, smem) }
}

/// The tail: `lv` and every level below it solved in one launch, a block of `nt` threads per
/// right-hand side; `lv`'s solution over its right-hand sides. `work` holds `ldw` elements
/// per right-hand side ([`SpikePlan::tail_work`]); `scale` maps `lv`'s rows to the original
/// system's.
#[allow(clippy::too_many_arguments)]
fn spike_tail<T: Scalar>(ch: &CudaHandle, lv: Level, nt: usize, nrhs: usize, pivot: i32, work: u64, ldw: usize, flag: u64, scale: usize) -> Result<()> {
    let module = module_nt::<T>(ch, "spike_tail", nt)?;
    let (ldw, scale) = (ldw as i64, scale as i64);
    let smem = spike_smem::<T>(SPIKE_L * nt, nt, false);
    // SAFETY: the argument list of gtsv_spike_tail_<T> in gtsv_spike.cu, compiled with
    // NG_NT = nt (the block size); its shared memory fits the device (tail_nt); `work` holds
    // ldw per right-hand side, grid x = nrhs <= GRID_Y.
    unsafe { lv.push(ch.launch(&module), &pivot).arg(&work).arg(&ldw).arg(&flag).arg(&scale).run((nrhs as u32, 1, 1), nt as u32, smem) }
}

/// Recover: `lv`'s solution over its right-hand sides, from `next`'s (the separators').
fn spike_recover<T: Scalar>(ch: &CudaHandle, lv: Level, next: Level, nrhs: usize, pivot: i32, flag: u64) -> Result<()> {
    let module = module::<T>(ch, "spike_recover")?;
    let blocks = (next.n as usize).div_ceil(SPIKE_NT) as u32;
    let smem = spike_smem::<T>(SPIKE_L * SPIKE_NT, SPIKE_NT, false);
    // SAFETY: the argument list of gtsv_spike_recover_<T> in gtsv_spike.cu.
    unsafe { lv.push(ch.launch(&module), &pivot).arg(&next.f).arg(&next.ld).arg(&flag).run((blocks, nrhs as u32, 1), SPIKE_NT as u32, smem) }
}

/// One system by SPIKE (n > SPIKE_MIN) on [`spike_stage`]'s views, enqueued without waiting:
/// the levels above the tail level a reduce launch each, the tail in one launch, their
/// recovers; then the whole-system solver on the same views, which solves only when a pivot
/// block of a partition or of a reduced system was exactly singular (SPIKE having then
/// written nothing) and otherwise sets info to 0. 2 + 2·tail launches and a memset.
fn spike<T: Scalar>(ch: &CudaHandle, g: &Gtsv<T>, s: &GtsvStrided<T>, plan: &SpikePlan, k: &Chunk) -> Result<()> {
    let level = |n: usize, o: usize, ld: usize| Level { n: n as i64, dl: k[o].ptr(), d: k[o + 1].ptr(), du: k[o + 2].ptr(), f: k[o + 3].ptr(), ld: ld as i64 };
    let top = level(g.n, 0, k[3].ld);
    let reduced = plan.sizes[1..=plan.tail].iter().enumerate().map(|(i, &m)| level(m, SPIKE_OPS + 4 * i, m));
    let levels: Vec<Level> = std::iter::once(top).chain(reduced).collect();
    let after = SPIKE_OPS + 4 * plan.tail;
    let (work, flag, nrhs, pivot) = (k[after].ptr(), k[after + 1].ptr(), g.nrhs, pivot_code(g.pivoting));
    // SAFETY: the flag's view holds a u64 (0: no failure).
    unsafe { ch.zero(flag, size_of::<u64>())? };
    let mut scale = 1;
    for w in levels.windows(2) {
        spike_reduce::<T>(ch, w[0], w[1], nrhs, pivot, flag, scale)?;
        scale *= SPIKE_L;
    }
    spike_tail::<T>(ch, levels[plan.tail], plan.nt, nrhs, pivot, work, plan.tail_work(), flag, scale)?;
    for w in levels.windows(2).rev() {
        spike_recover::<T>(ch, w[0], w[1], nrhs, pivot, flag)?;
    }
    launch_strided(ch, s, k, flag)
}

/// One system: SPIKE above SPIKE_MIN rows, the block kernel below; when SPIKE meets an exactly
/// singular pivot block (the system, or a partition of it, is singular), one thread per
/// right-hand side solves the whole system by diagonal pivoting on the same staged arrays,
/// which decides info.
pub fn gtsv<T: Scalar>(ch: &mut CudaHandle, g: &Gtsv<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let s = GtsvStrided { n: g.n, nrhs: g.nrhs, dl: g.dl, d: g.d, du: g.du, stride_diag: 0, b: g.b, ldb: g.ldb, stride_b: 0, info: g.info, batch: 1, pivoting: g.pivoting };
    let stage = strided_stage(&s, space);
    // SPIKE's grids span the right-hand sides (in y; the tail's in x); beyond GRID_Y, a
    // thread per right-hand side has parallelism enough.
    if g.n <= SPIKE_MIN || g.nrhs > GRID_Y {
        // SAFETY: the operands are the validated call's arrays in `space`; the kernels touch
        // the system only.
        return unsafe { stage.run(ch, |ch, k| launch_strided(ch, &s, k, 0)) };
    }
    let plan = SpikePlan::new(g.n, tail_nt::<T>(ch));
    // SAFETY: as above; SPIKE's levels, tail workspace and flag are the scratch the stage
    // gives it.
    unsafe { spike_stage::<T>(stage, &plan, g.nrhs).run(ch, |ch, k| spike(ch, g, &s, &plan, k)) }
}

/// An interleaved batch's array: n rows of `batch` elements, item i at column i.
fn interleaved<T>(dir: Dir, p: *const T, n: usize, batch: usize) -> Operand {
    Operand::vector(dir, p, 1, n).row_step(batch).interleaved()
}

/// Whether a batch of `batch` interleaved systems of order n goes a thread per (system,
/// partition of SPIKE_L rows) instead of a thread per system: above BLOCK_SEQ rows, and when
/// the batch has too few systems to fill the GPU with a thread each (fewer than 4 × SMs ×
/// 256); the partitions fit grid y. In both modes: with diagonal pivoting, gtsv_il_reduce
/// sends each system that is not diagonally dominant by rows to the whole-system solve (the
/// partitions never pivot across their separators, so on systems that need pivoting their
/// backward error would be bounded by the partitions' conditioning), as the strided batch's
/// block kernel does.
fn il_partitioned(n: usize, batch: usize, sms: usize) -> bool {
    n > BLOCK_SEQ && batch < 4 * sms * 256 && il_parts(n).div_ceil(SPIKE_NT / 32) <= GRID_Y
}

/// Partitions of one system in the partitioned interleaved kernels.
fn il_parts(n: usize) -> usize {
    n.div_ceil(SPIKE_L)
}

/// Enqueues the solve of the chunk's systems of an interleaved batch: the views start at the
/// chunk's first system, so the kernel's `first` is 0 and its `batch` the views' row step.
/// `partitioned`: see [`il_partitioned`].
fn launch_interleaved<T: Scalar>(ch: &CudaHandle, g: &GtsvInterleaved<T>, k: &Chunk, partitioned: bool) -> Result<()> {
    if partitioned {
        return launch_il_partitioned(ch, g, k);
    }
    let module = module::<T>(ch, "interleaved")?;
    let (dl, d, du, b, info, p, q, kinds) = (k[0].ptr(), k[1].ptr(), k[2].ptr(), k[3].ptr(), k[4].ptr(), k[5].ptr(), k[6].ptr(), k[7].ptr());
    let (n, batch, first, count, pivot) = (g.n as i32, k[3].row_step as i64, 0i64, k.count as i64, pivot_code(g.pivoting));
    // SAFETY: the argument list of gtsv_interleaved_<T> in gtsv_spike.cu, on the chunk's
    // views (rows `batch` apart from the chunk's first system); P, Q and K hold n per system.
    unsafe {
        let system = ch.launch(&module).arg(&n).arg(&dl).arg(&d).arg(&du).arg(&b).arg(&info);
        system.arg(&batch).arg(&first).arg(&count).arg(&pivot).arg(&p).arg(&q).arg(&kinds).run(grid(k.count.div_ceil(THREADS) as i64), THREADS as u32, 0)
    }
}

/// The partitioned interleaved solve of a chunk (see `il_partitioned`): gtsv_il_reduce (a
/// thread per system and partition), gtsv_il_solve (a thread per system: the separators'
/// system, or the whole system when a pivot block was exactly singular), gtsv_il_recover (a
/// thread per system and partition), on the views of [`gtsv_interleaved`]'s stage: its
/// operands 8 (parts and S: 11 per partition) and 9 (pivot failures per partition, then the
/// systems' states).
fn launch_il_partitioned<T: Scalar>(ch: &CudaHandle, g: &GtsvInterleaved<T>, k: &Chunk) -> Result<()> {
    let (dl, d, du, b, info, p, q, kinds, w, bad) = (k[0].ptr(), k[1].ptr(), k[2].ptr(), k[3].ptr(), k[4].ptr(), k[5].ptr(), k[6].ptr(), k[7].ptr(), k[8].ptr(), k[9].ptr());
    let parts = il_parts(g.n);
    let (state, xs) = (bad + (parts * k.count * size_of::<i32>()) as u64, w + (10 * parts * k.count * size_of::<T>()) as u64);
    let (n, batch, count, pivot) = (g.n as i32, k[3].row_step as i64, k.count as i64, pivot_code(g.pivoting));
    let blocks = (k.count.div_ceil(32) as u32, parts.div_ceil(SPIKE_NT / 32) as u32, 1);
    let smem = spike_smem::<T>(SPIKE_L * SPIKE_NT, SPIKE_NT, false);
    let reduce = module::<T>(ch, "il_reduce")?;
    let solve = module::<T>(ch, "il_solve")?;
    let recover = module::<T>(ch, "il_recover")?;
    // SAFETY: the argument lists of gtsv_il_reduce_<T>, gtsv_il_solve_<T> and
    // gtsv_il_recover_<T> in gtsv_spike.cu, on the chunk's views (rows `batch` apart from its
    // first system); W holds 11 values per partition and system, bad one i32 per partition and
    // system and state one per system (S's f, the separators' solution, is the last of W's 11
    // blocks of parts·count: xs); P, Q and K hold n per system. Grid x: count/32
    // < 2^31 (count <= batch < 4·SMs·256); grid y <= GRID_Y (il_partitioned).
    unsafe {
        let system = ch.launch(&reduce).arg(&n).arg(&dl).arg(&d).arg(&du).arg(&b);
        system.arg(&batch).arg(&count).arg(&pivot).arg(&w).arg(&bad).run(blocks, SPIKE_NT as u32, smem)?;
        let system = ch.launch(&solve).arg(&n).arg(&dl).arg(&d).arg(&du).arg(&b).arg(&info).arg(&batch).arg(&count).arg(&pivot);
        system.arg(&p).arg(&q).arg(&kinds).arg(&w).arg(&bad).arg(&state).run(grid(k.count.div_ceil(THREADS) as i64), THREADS as u32, 0)?;
        let system = ch.launch(&recover).arg(&n).arg(&dl).arg(&d).arg(&du).arg(&b);
        system.arg(&batch).arg(&count).arg(&pivot).arg(&xs).arg(&state).run(blocks, SPIKE_NT as u32, smem)
    }
}

/// An interleaved batch (see [`GtsvInterleaved`]), its arrays in `space`.
pub fn gtsv_interleaved<T: Scalar>(ch: &mut CudaHandle, g: &GtsvInterleaved<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let (n, batch) = (g.n, g.batch);
    // dl and du hold n − 1 rows: at n = 1, nothing (possibly NULL or empty).
    let off = |p| if n > 1 { interleaved(Dir::In, p, n - 1, batch) } else { Operand::absent() };
    let stage = Stage::new(space, batch)
        .op(off(g.dl))
        .op(interleaved(Dir::In, g.d, n, batch))
        .op(off(g.du))
        .op(interleaved(Dir::InOut, g.b, n, batch))
        .op(Operand::vector(Dir::Out, g.info, 1, 1));
    let stage = elimination::<T>(stage, n, 1);
    // Decided once for the call (its chunks may hold fewer systems), with the scratch of the
    // partitioned kernels.
    let partitioned = il_partitioned(n, batch, ch.dev.sm_count.max(1) as usize);
    let stage = match partitioned {
        true => stage.op(Operand::scratch::<T>(11 * il_parts(n))).op(Operand::scratch::<i32>(il_parts(n) + 1)),
        false => stage.op(Operand::absent()).op(Operand::absent()),
    };
    // SAFETY: the operands are the validated call's arrays in `space`; the kernels touch the
    // chunk's systems only.
    unsafe { stage.run(ch, |ch, k| launch_interleaved(ch, g, k, partitioned)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tail starts at the first level of at most SPIKE_L·(nt − 1) rows (2^16 with nt = 256:
    /// level 1, 3856 rows), its workspace holds the levels below it, and no tail order leaves
    /// more levels below than gtsv_spike_tail's NG_TAIL_LEVELS (6).
    #[test]
    fn spike_plan_puts_the_tail_at_the_first_small_level() {
        let plan = SpikePlan::new(1 << 16, 256);
        assert_eq!((plan.sizes.as_slice(), plan.tail), ([65536, 3856, 227, 14, 1].as_slice(), 1));
        assert_eq!(plan.tail_work(), 4 * (227 + 14 + 1));
        assert_eq!(SpikePlan::new(SPIKE_MIN + 1, 256).tail, 0);
        assert_eq!(SpikePlan::new(SPIKE_L * 255 + 1, 256).tail, 1);
        assert_eq!(SpikePlan::new((1 << 21) + 1, 512).tail, 2);
        for nt in TAIL_NT {
            assert!(spike_levels(SPIKE_L * (nt - 1)).len() - 1 <= 6, "nt = {nt}");
        }
    }

    /// The interleaved batch goes a thread per partition above BLOCK_SEQ rows, below 4 × SMs
    /// × 256 systems (H100: 132 SMs), in both modes (the kernels choose per system).
    #[test]
    fn interleaved_partitions_only_small_batches() {
        assert!(il_partitioned(1024, 6554, 132));
        assert!(il_partitioned(BLOCK_SEQ + 1, 1, 132));
        assert!(!il_partitioned(BLOCK_SEQ, 1, 132));
        assert!(!il_partitioned(1024, 4 * 132 * 256, 132));
    }
}
