//! CUDA backend of the Jacobi family: launches `kernels/jacobi.cu` through the staging
//! engine. Orders ≤ 32 (gesvdj: max(m, n) ≤ 32; complex double: order ≤ 20) run the
//! register-resident warp kernels, compiled for the exact order (`-DNG_N`, `-DNG_M`): a
//! segment of lanes per matrix, several matrices per warp when they are small, each lane a
//! row of the working matrices in registers ([`warp_path`]). Larger orders run the general
//! kernels: a team of threads per matrix, a warp (up to four per block) for orders ≤ 32, else
//! a block of 256 or 512 threads. The team's working matrices (A and the accumulated
//! rotations; gesvdj's W and Q) are in its shared memory while they fit the device's opt-in
//! limit (227 KiB on the H100), else in per-matrix global scratch (`Operand::scratch`,
//! proportional to the data). gesvdj with min(m, n) ≥ NB_MIN runs the blocked iteration (see
//! the module docs of `jacobi`) on `jacobi_gesvdj_blocked`, a block of 256 threads per block
//! pair problem, in one of two executions that give the same bits ([`Execution`]): a block
//! per matrix running the rounds in turn (W, and Q, in shared memory while they fit), or, for
//! batches smaller than the SM count, a launch per round with a block per (matrix, block
//! pair), so that one large matrix spreads over the SMs; that one reads a flag back once a
//! sweep (a stream synchronisation: not for stream capture).

use super::{block_count, blocked, Gesvdj, Opts, Syevj, INNER_SWEEPS, NB};
use crate::cuda::driver::failed;
use crate::core::batch::Batch;
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::module::Module;
use crate::cuda::staging::{Dir, Operand, Stage, View};
use crate::cuda::CudaHandle;
use std::mem::size_of;
use std::cell::Cell;
use std::ffi::c_void;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../kernels/jacobi.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// The defines and entry point of a kernel: `syevj`, `gesvdj` or `gesvdj_blocked` (one
/// source holds the three; NG_NB is the blocked iteration's block width).
pub fn specialise<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), format!("NG_NB={NB}")], format!("jacobi_{kind}_{}", T::SUFFIX))
}

fn module<T: Scalar>(ch: &CudaHandle, kind: &str) -> Result<Arc<Module>> {
    let (defines, entry) = specialise::<T>(kind);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// The register-resident warp kernels' shape: `order` columns rotated (syevj's n, gesvdj's
/// min(m, n)) and `rows` rows (syevj's n, gesvdj's max(m, n)), both compile-time constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpShape {
    pub order: usize,
    pub rows: usize,
}

/// Most rows of a warp kernel: a lane per row.
const WARP_ROWS: usize = 32;

/// The largest order the warp kernels keep in registers for T: two rows of `order` elements
/// per lane (the matrix's and the rotations'), within 255 registers without spilling (the
/// compile check's report): complex double stops at 20.
pub fn warp_max_order<T: Scalar>() -> usize {
    if size_of::<T>() > 8 {
        20
    } else {
        WARP_ROWS
    }
}

/// The warp-kernel shape of a call whose iteration rotates `order` columns of `rows` rows,
/// or None (the general kernels). Independent of the vectors wanted, so that values are the
/// same bits with and without them.
pub fn warp_path<T: Scalar>(order: usize, rows: usize) -> Option<WarpShape> {
    (rows <= WARP_ROWS && order <= warp_max_order::<T>()).then_some(WarpShape { order, rows })
}

/// Warps per block of the warp kernels (`NG_WARPS` in jacobi.cu).
const WARP_KERNEL_WARPS: usize = 4;

/// Lanes per matrix of a warp kernel: the power of two ≥ max(rows, order rounded up to even)
/// (jacobi.cu's WS).
pub fn warp_segment(w: WarpShape) -> usize {
    w.rows.max(w.order + (w.order & 1)).next_power_of_two().max(2)
}

/// The defines and entry point of a warp kernel: `syevj` or `gesvdj` at the shape `w`.
pub fn specialise_warp<T: Scalar>(kind: &str, w: WarpShape) -> (Vec<String>, String) {
    let (mut defines, _) = specialise::<T>(kind);
    defines.extend([format!("NG_N={}", w.order), format!("NG_M={}", w.rows)]);
    (defines, format!("jacobi_{kind}_warp_{}", T::SUFFIX))
}

fn warp_module<T: Scalar>(ch: &CudaHandle, kind: &str, w: WarpShape) -> Result<Arc<Module>> {
    let (defines, entry) = specialise_warp::<T>(kind, w);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// Grid and block of a warp kernel on `count` matrices.
fn warp_grid(w: WarpShape, count: usize) -> (u32, u32) {
    let per_block = WARP_KERNEL_WARPS * (32 / warp_segment(w));
    (count.div_ceil(per_block) as u32, (32 * WARP_KERNEL_WARPS) as u32)
}

/// Warp teams per block.
const WARP_TEAMS: usize = 4;

/// How a call runs: `teams` warp teams per block of `threads` (warp) or a block per matrix;
/// which working matrices are in shared memory; each team's shared bytes; the global scratch
/// per matrix, in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub warp: bool,
    pub teams: usize,
    pub threads: usize,
    /// The first working matrix (A; W) in shared memory.
    pub first_sh: bool,
    /// The second (the rotations) in shared memory.
    pub second_sh: bool,
    pub team_bytes: usize,
    pub scratch: usize,
}

/// The plan for matrices whose working matrices have `first` and `second` elements of T
/// (second 0 when not wanted), `pairs` pairs, `reals` further reals per team (besides the pair
/// arrays and the reduction scratch), `extra` scratch elements of T per matrix, and `order`
/// the number of columns rotated; `rows` the length of those columns.
#[allow(clippy::too_many_arguments)]
pub fn plan<T: Scalar>(order: usize, rows: usize, first: usize, second: usize, pair_reals: usize, reals: usize, extra: usize, smem_optin: usize) -> Plan {
    let pairs = (order + (order & 1)) / 2;
    let fixed = pairs * size_of::<T>() + (pairs * pair_reals + reals + 32) * size_of::<T::Real>();
    let bytes = |a: bool, b: bool| (fixed + (a as usize * first + b as usize * second) * size_of::<T>()).next_multiple_of(16);
    let warp = order <= 32 && rows <= 128;
    let (mut first_sh, mut second_sh) = (true, second > 0);
    for (a, b) in [(true, second > 0), (true, false), (false, false)] {
        (first_sh, second_sh) = (a, b);
        if bytes(a, b) <= smem_optin {
            break;
        }
    }
    let team_bytes = bytes(first_sh, second_sh);
    let (teams, threads) = if warp {
        let teams = (48 << 10) / team_bytes.max(1);
        let teams = teams.clamp(1, WARP_TEAMS);
        (teams, 32 * teams)
    } else {
        (1, if order <= 128 { 256 } else { 512 })
    };
    let scratch = (!first_sh as usize) * first + (second > 0 && !second_sh) as usize * second + extra;
    Plan { warp, teams, threads, first_sh, second_sh, team_bytes, scratch }
}

/// The plan of a syevj call of order n.
pub fn syevj_plan<T: Scalar>(n: usize, vectors: bool, smem_optin: usize) -> Plan {
    plan::<T>(n, n, n * n, if vectors { n * n } else { 0 }, 3, 2 * n, 0, smem_optin)
}

/// The plan of a gesvdj call of an m × n matrix.
pub fn gesvdj_plan<T: Scalar>(m: usize, n: usize, want_x: bool, want_q: bool, smem_optin: usize) -> Plan {
    let (mm, nn) = (m.max(n), m.min(n));
    plan::<T>(nn, mm, mm * nn, if want_q { nn * nn } else { 0 }, 1, 2 * nn, if want_x { nn } else { 0 }, smem_optin)
}

/// Blocks for `count` matrices.
fn blocks(pl: &Plan, count: usize) -> u32 {
    count.div_ceil(pl.teams) as u32
}

/// Eigen-decompositions of a batch (see [`Syevj`]), its arrays in `space`.
pub fn syevj<T: Scalar>(ch: &mut CudaHandle, p: &Syevj<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let n = p.n;
    let warp = warp_path::<T>(n, n);
    let pl = syevj_plan::<T>(n, p.vectors, ch.dev.max_smem_optin);
    let dir = if p.vectors { Dir::InOut } else { Dir::In };
    let scratch = if warp.is_some() { 1 } else { pl.scratch.max(1) };
    let stage = Stage::new(space, p.batch)
        .max_chunk(i32::MAX as usize)
        .op(Operand::matrix(dir, &Batch::Strided { ptr: p.a, stride: p.stride_a as i64 }, n, n, p.lda))
        .op(Operand::vector(Dir::Out, p.w, p.stride_w, n))
        .op(Operand::vector(Dir::Out, p.info, 1, 1))
        .op(Operand::vector(Dir::Out, p.sweeps, 1, 1))
        .op(Operand::vector(Dir::Out, p.residual, 1, 1))
        .op(Operand::scratch::<T>(scratch));
    let o = p.opts;
    // SAFETY: the operands are the validated call's arrays in `space`; the kernel touches the
    // chunk's matrices only.
    unsafe {
        stage.run(ch, |ch, k| {
            let (a, w, info, sweeps, res, work) = (&k[0], &k[1], &k[2], &k[3], &k[4], &k[5]);
            let (vec_, up, ap, lda, sa) = (p.vectors as i32, p.upper as i32, a.ptr(), a.ld as i64, a.stride as i64);
            let (wp, sw, tol, maxs, sort): (_, i64, f64, i32, i32) = (w.ptr(), w.stride as i64, o.tol.into(), o.max_sweeps.min(i32::MAX as u32) as i32, o.sort as i32);
            let (infop, sweepsp, resp, batch) = (info.ptr(), sweeps.ptr(), res.ptr(), k.count as i64);
            if let Some(ws) = warp {
                let module = warp_module::<T>(ch, "syevj", ws)?;
                let (grid, block) = warp_grid(ws, k.count);
                // SAFETY: the argument list of jacobi_syevj_warp_<T> in jacobi.cu, on the
                // chunk's views; static shared memory only.
                let l = ch.launch(&module).arg(&vec_).arg(&up).arg(&ap).arg(&lda).arg(&sa).arg(&wp).arg(&sw).arg(&tol).arg(&maxs).arg(&sort);
                return l.arg(&infop).arg(&sweepsp).arg(&resp).arg(&batch).run((grid, 1, 1), block, 0);
            }
            let module = module::<T>(ch, "syevj")?;
            let (n_, workp, swork) = (n as i32, work.ptr(), work.stride as i64);
            let (a_sh, v_sh, warp_team, team_bytes) = (pl.first_sh as i32, pl.second_sh as i32, pl.warp as i32, pl.team_bytes as i64);
            // SAFETY: the argument list of jacobi_syevj_<T> in jacobi.cu, on the chunk's
            // views; team_bytes·teams of dynamic shared memory, the layout it carves.
            let l = ch.launch(&module).arg(&n_).arg(&vec_).arg(&up).arg(&ap).arg(&lda).arg(&sa).arg(&wp).arg(&sw).arg(&workp).arg(&swork);
            let l = l.arg(&a_sh).arg(&v_sh).arg(&tol).arg(&maxs).arg(&sort).arg(&infop).arg(&sweepsp).arg(&resp).arg(&batch).arg(&warp_team).arg(&team_bytes);
            l.run((blocks(&pl, k.count), 1, 1), pl.threads as u32, (pl.team_bytes * pl.teams) as u32)
        })
    }
}

/// Singular value decompositions of a batch (see [`Gesvdj`]), its arrays in `space`.
pub fn gesvdj<T: Scalar>(ch: &mut CudaHandle, p: &Gesvdj<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let (m, n) = (p.m, p.n);
    let k_ = m.min(n);
    let (want_u, want_v) = (!p.u.is_null(), !p.v.is_null());
    let vectors = |on: bool, ptr: *mut T, stride: usize, rows: usize, ld: usize| {
        if on {
            Operand::matrix(Dir::Out, &Batch::Strided { ptr, stride: stride as i64 }, rows, k_, ld)
        } else {
            Operand::absent()
        }
    };
    let stage = Stage::new(space, p.batch)
        .max_chunk(i32::MAX as usize)
        .op(Operand::matrix(Dir::In, &Batch::Strided { ptr: p.a, stride: p.stride_a as i64 }, m, n, p.lda))
        .op(Operand::vector(Dir::Out, p.s, p.stride_s, k_))
        .op(vectors(want_u, p.u, p.stride_u, m, p.ldu))
        .op(vectors(want_v, p.v, p.stride_v, n, p.ldv))
        .op(Operand::vector(Dir::Out, p.info, 1, 1))
        .op(Operand::vector(Dir::Out, p.sweeps, 1, 1))
        .op(Operand::vector(Dir::Out, p.residual, 1, 1))
        .op(Operand::scratch::<T>(gesvdj_scratch::<T>(ch, m, n, want_u, want_v)));
    // SAFETY: as in `syevj`.
    unsafe {
        stage.run(ch, |ch, k| {
            let views = SvdViews { a: &k[0], s: &k[1], u: want_u.then_some(&k[2]), v: want_v.then_some(&k[3]), info: &k[4], sweeps: &k[5], residual: &k[6], work: &k[7] };
            enqueue_gesvdj::<T>(ch, m, n, &p.opts, &views, k.count)
        })
    }
}

/// The device views of a gesvdj launch on `count` matrices (strided views: `ptr()` and
/// `stride`, `ld` for the matrices): A m × n (read), S min(m, n) values, U m × k and V n × k
/// when wanted, info, sweeps and residual one entry each, and `work` of [`gesvdj_scratch`]
/// elements per matrix.
pub struct SvdViews<'a> {
    pub a: &'a View,
    pub s: &'a View,
    pub u: Option<&'a View>,
    pub v: Option<&'a View>,
    pub info: &'a View,
    pub sweeps: &'a View,
    pub residual: &'a View,
    pub work: &'a View,
}

/// Scratch elements of T per matrix that [`enqueue_gesvdj`] needs (at least 1).
pub fn gesvdj_scratch<T: Scalar>(ch: &CudaHandle, m: usize, n: usize, want_u: bool, want_v: bool) -> usize {
    if warp_path::<T>(m.min(n), m.max(n)).is_some() {
        return 1;
    }
    let (want_x, want_q) = if m < n { (want_v, want_u) } else { (want_u, want_v) };
    if blocked(m.min(n)) {
        return blocked_plan::<T>(m, n, want_x, want_q, ch.dev.max_smem_optin).scratch;
    }
    gesvdj_plan::<T>(m, n, want_x, want_q, ch.dev.max_smem_optin).scratch.max(1)
}

/// Threads of a block of the blocked kernel (`NG_BLK` in jacobi.cu).
const BLOCKED_THREADS: u32 = 256;

/// Rows of the blocked kernel's tiles (`BTR` in jacobi.cu).
const TILE_ROWS: usize = 32;

/// Bytes of a matrix's state at the start of its blocked scratch (jacobi.cu's `BlkState`,
/// padded), and the offset of its `live` flag.
const STATE_BYTES: usize = 48;
const LIVE_OFFSET: u64 = 20;

/// The phases of `jacobi_gesvdj_blocked` (`NG_BLK_*` in jacobi.cu).
const PHASE_ALL: i32 = 0;
const PHASE_LOAD: i32 = 1;
const PHASE_ROUND: i32 = 2;
const PHASE_END: i32 = 3;
const PHASE_FINISH: i32 = 4;

/// How a blocked gesvdj call (min(m, n) ≥ NB_MIN) runs on the device; both give the same
/// bits (the pairs of a round touch disjoint columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Execution {
    /// A block per matrix, running every round's pairs in turn (one launch): for batches
    /// that fill the device.
    PerMatrix,
    /// A launch per round with a block per (matrix, block pair), so that one large matrix
    /// uses many SMs; the host reads a flag back once a sweep (a stream synchronisation).
    Rounds,
}

/// The execution of a blocked call on `count` matrices on a device of `sm_count` SMs: rounds
/// while a block per matrix would leave SMs idle.
pub fn blocked_execution(count: usize, sm_count: usize) -> Execution {
    if count < sm_count {
        Execution::Rounds
    } else {
        Execution::PerMatrix
    }
}

thread_local! {
    static FORCED: Cell<Option<Execution>> = const { Cell::new(None) };
}

/// Runs `f` with this thread's blocked gesvdj calls in execution `e` instead of the one
/// [`blocked_execution`] picks (for tests: the executions must agree to the bit).
pub fn with_execution<F: FnOnce() -> O, O>(e: Execution, f: F) -> O {
    let before = FORCED.with(|c| c.replace(Some(e)));
    let out = f();
    FORCED.with(|c| c.set(before));
    out
}

/// Shared memory and scratch of the blocked kernel on an m × n matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockedPlan {
    /// Per-matrix execution: W (mm × nn) in shared memory; Q (nn × nn) too.
    pub w_sh: bool,
    pub q_sh: bool,
    /// Dynamic shared bytes of the per-matrix launch.
    pub all_bytes: usize,
    /// Of the load, round and end-of-sweep launches; of the finishing launch.
    pub round_bytes: usize,
    pub finish_bytes: usize,
    /// Elements of T of a matrix's state, before W in its scratch.
    pub state_elems: usize,
    /// Scratch elements of T per matrix: state, W, Q (when wanted), the completion's nn.
    pub scratch: usize,
}

/// The blocked kernel's plan (jacobi.cu's shared-memory layout of `jacobi_gesvdj_blocked`):
/// W and Q in shared memory for the per-matrix execution while they fit `smem_optin`; the
/// scratch holds them always, for the multi-block execution.
pub fn blocked_plan<T: Scalar>(m: usize, n: usize, want_x: bool, want_q: bool, smem_optin: usize) -> BlockedPlan {
    let (mm, nn) = (m.max(n), m.min(n));
    let (t, r, bw) = (size_of::<T>(), size_of::<T::Real>(), 2 * NB);
    let fixed = (2 * bw * bw + (TILE_ROWS + 1) * bw + NB) * t + (3 * NB + 32) * r;
    let finish = fixed + 2 * nn * r;
    let q = if want_q { nn * nn } else { 0 };
    let bytes = |w: bool, qs: bool| (finish + (w as usize * mm * nn + qs as usize * q) * t).next_multiple_of(16);
    let (w_sh, q_sh) = [(true, want_q), (true, false), (false, false)].into_iter().find(|&(w, qs)| bytes(w, qs) <= smem_optin).unwrap_or((false, false));
    let state_elems = STATE_BYTES.div_ceil(t);
    let scratch = state_elems + mm * nn + q + if want_x { nn } else { 0 };
    BlockedPlan { w_sh, q_sh, all_bytes: bytes(w_sh, q_sh), round_bytes: fixed.next_multiple_of(16), finish_bytes: finish.next_multiple_of(16), state_elems, scratch }
}

/// The arguments of `jacobi_gesvdj_blocked` but the phase, the round and the shared-memory
/// flags.
struct BlockedArgs {
    m: i32,
    n: i32,
    ju: i32,
    jv: i32,
    a: (u64, i64, i64),
    s: (u64, i64),
    u: (u64, i64, i64),
    v: (u64, i64, i64),
    work: (u64, i64, i64),
    tol: f64,
    inner: i32,
    max_sweeps: i32,
    sort: i32,
    stats: (u64, u64, u64),
    batch: i64,
}

impl BlockedArgs {
    /// Enqueues one launch.
    ///
    /// # Safety
    /// The views the arguments were taken from are valid for the launch (see
    /// [`enqueue_gesvdj`]).
    #[allow(clippy::too_many_arguments)]
    unsafe fn run(&self, ch: &CudaHandle, module: &Module, phase: i32, k: i32, sh: (i32, i32), grid: (u32, u32, u32), smem: usize) -> Result<()> {
        let (a, s, u, v, w) = (&self.a, &self.s, &self.u, &self.v, &self.work);
        let (infop, sweepsp, resp) = (&self.stats.0, &self.stats.1, &self.stats.2);
        // SAFETY: the argument list of jacobi_gesvdj_blocked_<T> in jacobi.cu; the caller's
        // views; `smem` bytes of its shared-memory layout.
        let l = ch.launch(module).arg(&phase).arg(&k).arg(&self.m).arg(&self.n).arg(&self.ju).arg(&self.jv).arg(&a.0).arg(&a.1).arg(&a.2).arg(&s.0).arg(&s.1);
        let l = l.arg(&u.0).arg(&u.1).arg(&u.2).arg(&v.0).arg(&v.1).arg(&v.2).arg(&w.0).arg(&w.1).arg(&w.2).arg(&sh.0).arg(&sh.1);
        let l = l.arg(&self.tol).arg(&self.inner).arg(&self.max_sweeps).arg(&self.sort).arg(infop).arg(sweepsp).arg(resp).arg(&self.batch);
        l.run(grid, BLOCKED_THREADS, smem as u32)
    }
}

/// The blocked iteration of [`enqueue_gesvdj`] (min(m, n) ≥ NB_MIN), in the execution
/// [`blocked_execution`] picks (or [`with_execution`] forces); U and V as views (a null one
/// when not wanted).
///
/// # Safety
/// As [`enqueue_gesvdj`].
unsafe fn enqueue_blocked<T: Scalar>(ch: &CudaHandle, m: usize, n: usize, o: &Opts<T::Real>, x: &SvdViews, count: usize, (u, v): (&View, &View)) -> Result<()> {
    let (want_u, want_v) = (x.u.is_some(), x.v.is_some());
    let (want_x, want_q) = if m < n { (want_v, want_u) } else { (want_u, want_v) };
    let pl = blocked_plan::<T>(m, n, want_x, want_q, ch.dev.max_smem_optin);
    let module = module::<T>(ch, "gesvdj_blocked")?;
    let args = BlockedArgs {
        m: m as i32,
        n: n as i32,
        ju: want_u as i32,
        jv: want_v as i32,
        a: (x.a.ptr(), x.a.ld as i64, x.a.stride as i64),
        s: (x.s.ptr(), x.s.stride as i64),
        u: (u.ptr(), u.ld as i64, u.stride as i64),
        v: (v.ptr(), v.ld as i64, v.stride as i64),
        work: (x.work.ptr(), x.work.stride as i64, pl.state_elems as i64),
        tol: o.tol.into(),
        inner: INNER_SWEEPS as i32,
        max_sweeps: o.max_sweeps.min(i32::MAX as u32) as i32,
        sort: o.sort as i32,
        stats: (x.info.ptr(), x.sweeps.ptr(), x.residual.ptr()),
        batch: count as i64,
    };
    let exec = FORCED.with(|c| c.get()).unwrap_or_else(|| blocked_execution(count, ch.dev.sm_count.max(1) as usize));
    let grid = (count as u32, 1, 1);
    if exec == Execution::PerMatrix {
        return args.run(ch, &module, PHASE_ALL, 0, (pl.w_sh as i32, pl.q_sh as i32), grid, pl.all_bytes);
    }
    let players = block_count(m.min(n)).1;
    args.run(ch, &module, PHASE_LOAD, 0, (0, 0), grid, pl.round_bytes)?;
    for _ in 0..args.max_sweeps {
        for k in 0..players - 1 {
            args.run(ch, &module, PHASE_ROUND, k as i32, (0, 0), (count as u32, (players / 2) as u32, 1), pl.round_bytes)?;
        }
        args.run(ch, &module, PHASE_END, 0, (0, 0), (1, 1, 1), pl.round_bytes)?;
        // Whether any matrix of the chunk goes on: the first matrix's state holds it.
        let mut live: i32 = 0;
        ch.dtoh(&mut live as *mut i32 as *mut c_void, x.work.ptr() + LIVE_OFFSET, 4)?;
        ch.stream.synchronize().map_err(|e| failed(e, "cuStreamSynchronize"))?;
        if live == 0 {
            break;
        }
    }
    args.run(ch, &module, PHASE_FINISH, 0, (0, 0), grid, pl.finish_bytes)
}

/// Enqueues the one-sided Jacobi SVD of `count` m × n matrices on device views, with the
/// family's semantics (see [`Gesvdj`]; m, n ≥ 1, min(m, n) ≤ 4096): the entry for other
/// families' staged calls (the tensor decompositions' Gram matrices), inside their
/// `Stage::run`.
///
/// # Safety
/// The views are valid device memory of the handle's device for `count` matrices of the
/// sizes above, outputs not overlapping each other or A.
pub unsafe fn enqueue_gesvdj<T: Scalar>(ch: &CudaHandle, m: usize, n: usize, o: &Opts<T::Real>, x: &SvdViews, count: usize) -> Result<()> {
    let (want_u, want_v) = (x.u.is_some(), x.v.is_some());
    let none = View { base: 0, stride: 0, array: 0, ld: 1, row_step: 1 };
    let (u, v) = (x.u.unwrap_or(&none), x.v.unwrap_or(&none));
    let (m_, n_, ju, jv) = (m as i32, n as i32, want_u as i32, want_v as i32);
    let (ap, lda, sa, sp, ss) = (x.a.ptr(), x.a.ld as i64, x.a.stride as i64, x.s.ptr(), x.s.stride as i64);
    let (up, ldu, su, vp, ldv, sv) = (u.ptr(), u.ld as i64, u.stride as i64, v.ptr(), v.ld as i64, v.stride as i64);
    let (tol, maxs, sort): (f64, i32, i32) = (o.tol.into(), o.max_sweeps.min(i32::MAX as u32) as i32, o.sort as i32);
    let (infop, sweepsp, resp, batch) = (x.info.ptr(), x.sweeps.ptr(), x.residual.ptr(), count as i64);
    if blocked(m.min(n)) {
        return enqueue_blocked::<T>(ch, m, n, o, x, count, (u, v));
    }
    if let Some(ws) = warp_path::<T>(m.min(n), m.max(n)) {
        let module = warp_module::<T>(ch, "gesvdj", ws)?;
        let (grid, block) = warp_grid(ws, count);
        // SAFETY: the argument list of jacobi_gesvdj_warp_<T> in jacobi.cu, on the caller's
        // views (U, V null when not wanted: not referenced); static shared memory only.
        let l = ch.launch(&module).arg(&m_).arg(&n_).arg(&ju).arg(&jv).arg(&ap).arg(&lda).arg(&sa).arg(&sp).arg(&ss);
        let l = l.arg(&up).arg(&ldu).arg(&su).arg(&vp).arg(&ldv).arg(&sv).arg(&tol).arg(&maxs).arg(&sort);
        return l.arg(&infop).arg(&sweepsp).arg(&resp).arg(&batch).run((grid, 1, 1), block, 0);
    }
    let (want_x, want_q) = if m < n { (want_v, want_u) } else { (want_u, want_v) };
    let pl = gesvdj_plan::<T>(m, n, want_x, want_q, ch.dev.max_smem_optin);
    let module = module::<T>(ch, "gesvdj")?;
    let (workp, swork, w_sh, q_sh) = (x.work.ptr(), x.work.stride as i64, pl.first_sh as i32, pl.second_sh as i32);
    let (warp, team_bytes) = (pl.warp as i32, pl.team_bytes as i64);
    // SAFETY: the argument list of jacobi_gesvdj_<T> in jacobi.cu, on the caller's views (U,
    // V null when not wanted: not referenced); its shared-memory layout.
    let l = ch.launch(&module).arg(&m_).arg(&n_).arg(&ju).arg(&jv).arg(&ap).arg(&lda).arg(&sa).arg(&sp).arg(&ss);
    let l = l.arg(&up).arg(&ldu).arg(&su).arg(&vp).arg(&ldv).arg(&sv).arg(&workp).arg(&swork).arg(&w_sh).arg(&q_sh);
    let l = l.arg(&tol).arg(&maxs).arg(&sort).arg(&infop).arg(&sweepsp).arg(&resp).arg(&batch).arg(&warp).arg(&team_bytes);
    l.run((blocks(&pl, count), 1, 1), pl.threads as u32, (pl.team_bytes * pl.teams) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_by_shape() {
        let big = 227 << 10;
        let p = syevj_plan::<f32>(8, true, big);
        assert!(p.warp && p.teams == WARP_TEAMS && p.first_sh && p.second_sh && p.scratch == 0, "{p:?}");
        let p = syevj_plan::<f64>(128, true, big);
        assert!(!p.warp && p.first_sh && !p.second_sh && p.scratch == 128 * 128 && p.threads == 256, "{p:?}");
        let p = syevj_plan::<num_complex::Complex64>(1024, true, big);
        assert!(!p.first_sh && !p.second_sh && p.scratch == 2 * 1024 * 1024 && p.threads == 512 && p.team_bytes <= big, "{p:?}");
        let p = gesvdj_plan::<f32>(1000, 8, true, true, big);
        assert!(!p.warp && p.first_sh && p.second_sh && p.scratch == 8, "{p:?}");
        assert_eq!(p.team_bytes % 16, 0);
    }

    #[test]
    fn blocked_plans_and_executions() {
        let big = 227 << 10;
        // d 128 × 128: W in shared memory, Q (another 128 KiB) not.
        let p = blocked_plan::<f64>(128, 128, true, true, big);
        assert!(p.w_sh && !p.q_sh && p.all_bytes <= big && p.state_elems == 6 && p.scratch == 6 + 2 * 128 * 128 + 128, "{p:?}");
        let p = blocked_plan::<num_complex::Complex64>(1024, 1024, false, true, big);
        assert!(!p.w_sh && !p.q_sh && p.finish_bytes <= big && p.round_bytes % 16 == 0 && p.scratch == 3 + 2 * 1024 * 1024, "{p:?}");
        // Without Q, f32 200 × 64: all of W in shared memory.
        let p = blocked_plan::<f32>(64, 200, true, false, big);
        assert!(p.w_sh && !p.q_sh && p.scratch == 12 + 200 * 64 + 64, "{p:?}");
        assert_eq!((blocked_execution(1, 132), blocked_execution(131, 132), blocked_execution(132, 132)), (Execution::Rounds, Execution::Rounds, Execution::PerMatrix));
        let forced = with_execution(Execution::PerMatrix, || FORCED.with(|c| c.get()));
        assert_eq!((forced, FORCED.with(|c| c.get())), (Some(Execution::PerMatrix), None));
    }

    #[test]
    fn warp_paths_by_shape() {
        let seg = |order, rows| warp_path::<f32>(order, rows).map(warp_segment);
        assert_eq!((seg(1, 1), seg(2, 2), seg(3, 3), seg(7, 7), seg(5, 17), seg(32, 32), seg(5, 33)), (Some(2), Some(2), Some(4), Some(8), Some(32), Some(32), None));
        assert!(warp_path::<num_complex::Complex64>(20, 32).is_some() && warp_path::<num_complex::Complex64>(21, 21).is_none() && warp_path::<f64>(32, 32).is_some());
        // 16 matrices of order ≤ 2 per warp, four warps a block.
        assert_eq!(warp_grid(WarpShape { order: 1, rows: 2 }, 65), (2, 128));
        assert_eq!(warp_grid(WarpShape { order: 32, rows: 32 }, 9), (3, 128));
    }
}
