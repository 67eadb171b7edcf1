//! CUDA backend of the Jacobi family: launches `kernels/jacobi.cu` through the staging
//! engine. Orders ≤ 32 (gesvdj: max(m, n) ≤ 32; complex double: order ≤ 20) run the
//! register-resident warp kernels, compiled for the exact order (`-DNG_N`, `-DNG_M`): a
//! segment of lanes per matrix, several matrices per warp when they are small, each lane a
//! row of the working matrices in registers ([`warp_path`]). Larger orders run the general
//! kernels: a team of threads per matrix, a warp (up to four per block) for orders ≤ 32, else
//! a block of 256 or 512 threads. The team's working matrices (A and the accumulated
//! rotations; gesvdj's W and Q) are in its shared memory while they fit the device's opt-in
//! limit (227 KiB on the H100), else in per-matrix global scratch (`Operand::scratch`,
//! proportional to the data): every order up to the family's limit runs, one block per matrix,
//! at global-memory speed beyond the shared-memory sizes (no blocked two-level variant yet).

use super::{Gesvdj, Opts, Syevj};
use crate::core::batch::Batch;
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::module::Module;
use crate::cuda::staging::{Dir, Operand, Stage, View};
use crate::cuda::CudaHandle;
use std::mem::size_of;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../kernels/jacobi.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// The defines and entry point of a kernel: `syevj` or `gesvdj`.
pub fn specialise<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)], format!("jacobi_{kind}_{}", T::SUFFIX))
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
    gesvdj_plan::<T>(m, n, want_x, want_q, ch.dev.max_smem_optin).scratch.max(1)
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
    fn warp_paths_by_shape() {
        let seg = |order, rows| warp_path::<f32>(order, rows).map(warp_segment);
        assert_eq!((seg(1, 1), seg(2, 2), seg(3, 3), seg(7, 7), seg(5, 17), seg(32, 32), seg(5, 33)), (Some(2), Some(2), Some(4), Some(8), Some(32), Some(32), None));
        assert!(warp_path::<num_complex::Complex64>(20, 32).is_some() && warp_path::<num_complex::Complex64>(21, 21).is_none() && warp_path::<f64>(32, 32).is_some());
        // 16 matrices of order ≤ 2 per warp, four warps a block.
        assert_eq!(warp_grid(WarpShape { order: 1, rows: 2 }, 65), (2, 128));
        assert_eq!(warp_grid(WarpShape { order: 32, rows: 32 }, 9), (3, 128));
    }
}
