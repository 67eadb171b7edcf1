//! CUDA backend of the bisection family: launches the kernels of `kernels/stebz.cu` through
//! the staging engine. `stebz_prep` forms each matrix's squared off-diagonal (with the
//! splits) and parameters in the workspace; `stebz_bisect` then runs G blocks per matrix, each
//! on a slice of at most `cap` eigenvalue indices with its intervals in shared memory: a block
//! per matrix for a batch of small ones, and for a few large matrices slices small enough that
//! the GPU has several blocks per SM (then `stebz_order` puts each matrix's eigenvalues in
//! order across its slices); `stebz_count` counts at the caller's shifts.

use super::{Range, Stebz, Stecount};
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::module::Module;
use crate::cuda::params::{grid, KScalar};
use crate::cuda::staging::{Chunk, Dir, Operand, Stage};
use crate::cuda::CudaHandle;
use crate::lapack::RealLapack;
use std::mem::size_of;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../kernels/stebz.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// The defines and entry point of a kernel: `prep`, `bisect` or `count`.
pub fn specialise<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)], format!("stebz_{kind}_{}", T::SUFFIX))
}

fn module<T: Scalar>(ch: &CudaHandle, kind: &str) -> Result<Arc<Module>> {
    let (defines, entry) = specialise::<T>(kind);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// Parameters per matrix that `stebz_prep` writes (the kernels' NG_PARAMS).
const PARAMS: usize = 6;

/// Threads of the prep and count kernels.
const THREADS: usize = 256;

/// Most eigenvalue indices one bisection block takes.
const CAP_MAX: usize = 1024;

/// Orders from which the bisection blocks have THREADS threads whatever their slice: each
/// count is long, so more points per interval (fewer rounds) pay.
const LONG: usize = 2048;

/// Matrices whose d and e² take at most this many bytes are staged in shared memory.
const STAGE_BYTES: usize = 48 << 10;

/// How `stebz_bisect` runs: `g` blocks per matrix of `threads` threads, each on a slice of at
/// most `cap` indices, the matrix in shared memory when `stage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub cap: usize,
    pub g: usize,
    pub threads: usize,
    pub stage: bool,
}

/// The plan for `batch` matrices of order n whose range spans `window` indices, on a device
/// of `sms` multiprocessors allowing `smem_optin` bytes of shared memory per block.
pub fn plan<T>(n: usize, window: usize, batch: usize, sms: usize, smem_optin: usize) -> Plan {
    let mut cap = window.clamp(1, CAP_MAX);
    // Few matrices: smaller slices, so that every SM gets blocks (four each).
    let want = 4 * sms.max(1);
    if batch < want {
        cap = cap.min(window.div_ceil(want.div_ceil(batch)).max(1));
    }
    let threads = if n >= LONG { THREADS } else { cap.next_multiple_of(32).clamp(32, THREADS) };
    let mut p = Plan { cap, g: window.div_ceil(cap).max(1), threads, stage: 2 * n * size_of::<T>() <= STAGE_BYTES };
    if bisect_smem::<T>(n, &p) > smem_optin {
        p.stage = false;
    }
    p
}

/// Dynamic shared memory of a bisection block (the layout `stebz_bisect` carves): lo and hi
/// in two buffers and the staged matrix; ca and cb in two buffers, the counts at the points,
/// the pieces per interval and the scan's partial sums.
pub fn bisect_smem<T>(n: usize, p: &Plan) -> usize {
    let reals = 4 * p.cap + if p.stage { 2 * n } else { 0 };
    let ints = 4 * p.cap + p.cap.max(p.threads) + p.cap + p.threads;
    reals * size_of::<T>() + ints * size_of::<i32>()
}

/// The kernels' range code.
fn range_code<T>(r: &Range<T>) -> i32 {
    match r {
        Range::All => 0,
        Range::Value(..) => 1,
        Range::Index(..) => 2,
    }
}

/// A batch's d (n entries per matrix) and e (n − 1; absent when n = 1, possibly NULL), then
/// the workspace of `stebz_prep`: e² (n per matrix) and the parameters.
fn matrices<T>(stage: Stage, n: usize, d: *const T, stride_d: usize, e: *const T, stride_e: usize) -> Stage {
    let e_op = if n > 1 { Operand::vector(Dir::In, e, stride_e, n - 1) } else { Operand::absent() };
    stage.op(Operand::vector(Dir::In, d, stride_d, n)).op(e_op).op(Operand::scratch::<T>(n)).op(Operand::scratch::<T>(PARAMS))
}

/// Enqueues `stebz_prep` on the chunk's matrices (operands 0 … 3 of [`matrices`]); `m` and
/// `info` are the views' addresses (0 for the counts, which have none) and `wanted` the
/// range's size where known.
#[allow(clippy::too_many_arguments)]
fn prep<T: RealLapack>(ch: &CudaHandle, n: usize, k: &Chunk, abstol: T, range: i32, wanted: usize, m: u64, info: u64) -> Result<()> {
    let module = module::<T>(ch, "prep")?;
    let (d, e, e2, par) = (&k[0], &k[1], &k[2], &k[3]);
    let (n_, sd, se, se2, spar) = (n as i64, d.stride as i64, e.stride as i64, e2.stride as i64, par.stride as i64);
    let (dp, ep, e2p, parp) = (d.ptr(), e.ptr(), e2.ptr(), par.ptr());
    let (abstol, ulp, safmin, wanted) = (KScalar(abstol), KScalar(T::from(T::EPS).unwrap()), KScalar(T::min_positive_value()), wanted as i64);
    // SAFETY: the argument list of stebz_prep_<T> in stebz.cu, on the chunk's views; a block
    // per matrix (count <= i32::MAX: the stage's max_chunk).
    unsafe {
        let l = ch.launch(&module).arg(&n_).arg(&dp).arg(&sd).arg(&ep).arg(&se).arg(&e2p).arg(&se2).arg(&parp).arg(&spar);
        l.arg(&abstol).arg(&ulp).arg(&safmin).arg(&range).arg(&wanted).arg(&m).arg(&info).run((k.count as u32, 1, 1), THREADS as u32, 0)
    }
}

/// Eigenvalues of a batch (see [`Stebz`]), its arrays in `space`.
pub fn stebz<T: RealLapack>(ch: &mut CudaHandle, p: &Stebz<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let n = p.n;
    let (first, last) = p.range.window(n);
    let pl = plan::<T>(n, last + 1 - first, p.batch, ch.dev.sm_count as usize, ch.dev.max_smem_optin);
    let stage = matrices(Stage::new(space, p.batch).max_chunk(i32::MAX as usize / pl.g), n, p.d, p.stride_d, p.e, p.stride_e)
        .op(Operand::vector(Dir::Out, p.m, 1, 1))
        // In and out: entries beyond m_i are the caller's and must come back unchanged.
        .op(Operand::vector(Dir::InOut, p.w, p.stride_w, n))
        .op(Operand::vector(Dir::Out, p.info, 1, 1));
    let (range, wanted) = (range_code(&p.range), if p.range == Range::All { n } else { last + 1 - first });
    let (vl, vu) = match p.range {
        Range::Value(vl, vu) => (vl, vu),
        _ => (<T as Scalar>::zero(), <T as Scalar>::zero()),
    };
    // SAFETY: the operands are the validated call's arrays in `space`; the kernels touch the
    // chunk's matrices only.
    unsafe {
        stage.run(ch, |ch, k| {
            let (m, w, info) = (&k[4], &k[5], &k[6]);
            prep::<T>(ch, n, k, p.abstol, range, wanted, m.ptr(), info.ptr())?;
            let module = module::<T>(ch, "bisect")?;
            let (n_, first, last, g, cap, staged) = (n as i64, first as i64, last as i64, pl.g as i64, pl.cap as i64, pl.stage as i32);
            let (d, e2, par) = (&k[0], &k[2], &k[3]);
            let (dp, sd, e2p, se2, parp, spar) = (d.ptr(), d.stride as i64, e2.ptr(), e2.stride as i64, par.ptr(), par.stride as i64);
            let (mp, wp, sw, infop, kvl, kvu) = (m.ptr(), w.ptr(), w.stride as i64, info.ptr(), KScalar(vl), KScalar(vu));
            let blocks = (k.count * pl.g) as u32;
            // SAFETY: the argument list of stebz_bisect_<T> in stebz.cu, on the chunk's views;
            // g blocks per matrix (count·g <= i32::MAX), bisect_smem's layout.
            let l = ch.launch(&module).arg(&n_).arg(&range).arg(&kvl).arg(&kvu).arg(&first).arg(&last).arg(&g).arg(&cap).arg(&staged);
            let l = l.arg(&dp).arg(&sd).arg(&e2p).arg(&se2).arg(&parp).arg(&spar).arg(&mp).arg(&wp).arg(&sw).arg(&infop);
            l.run((blocks, 1, 1), pl.threads as u32, bisect_smem::<T>(n, &pl) as u32)?;
            if pl.g > 1 {
                order::<T>(ch, k)?;
            }
            Ok(())
        })
    }
}

/// Enqueues `stebz_order` on the chunk's w (operands 3 to 5 of `stebz`): the slices of
/// several blocks per matrix may leave eigenvalues closer than the tolerance swapped.
fn order<T: RealLapack>(ch: &CudaHandle, k: &Chunk) -> Result<()> {
    let module = module::<T>(ch, "order")?;
    let (par, m, w) = (&k[3], &k[4], &k[5]);
    let (mp, wp, sw, parp, spar, batch) = (m.ptr(), w.ptr(), w.stride as i64, par.ptr(), par.stride as i64, k.count as i64);
    // SAFETY: the argument list of stebz_order_<T> in stebz.cu, on the chunk's views; a
    // thread per matrix.
    unsafe { ch.launch(&module).arg(&mp).arg(&wp).arg(&sw).arg(&parp).arg(&spar).arg(&batch).run(grid(k.count.div_ceil(128) as i64), 128, 0) }
}

/// Counts of a batch at its shifts (see [`Stecount`]), its arrays in `space`.
pub fn stecount<T: RealLapack>(ch: &mut CudaHandle, p: &Stecount<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let n = p.n;
    let stage = matrices(Stage::new(space, p.batch).max_chunk(i32::MAX as usize), n, p.d, p.stride_d, p.e, p.stride_e)
        .op(Operand::vector(Dir::In, p.mu, 0, p.nmu))
        .op(Operand::vector(Dir::Out, p.count, p.nmu, p.nmu));
    // SAFETY: as in `stebz`.
    unsafe {
        stage.run(ch, |ch, k| {
            prep::<T>(ch, n, k, <T as Scalar>::zero(), 0, n, 0, 0)?;
            let module = module::<T>(ch, "count")?;
            let (d, e2, par, mu, count) = (&k[0], &k[2], &k[3], &k[4], &k[5]);
            let (n_, dp, sd, e2p, se2, parp, spar) = (n as i64, d.ptr(), d.stride as i64, e2.ptr(), e2.stride as i64, par.ptr(), par.stride as i64);
            let (nmu, mup, cp, sc, batch) = (p.nmu as i64, mu.ptr(), count.ptr(), count.stride as i64, k.count as i64);
            let threads = (k.count * p.nmu).div_ceil(THREADS) as i64;
            // SAFETY: the argument list of stebz_count_<T> in stebz.cu, on the chunk's views
            // (a grid-stride loop over its count·nmu pairs).
            let l = ch.launch(&module).arg(&n_).arg(&dp).arg(&sd).arg(&e2p).arg(&se2).arg(&parp).arg(&spar);
            l.arg(&nmu).arg(&mup).arg(&cp).arg(&sc).arg(&batch).run(grid(threads), THREADS as u32, 0)
        })
    }
}
