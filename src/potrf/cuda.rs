//! CUDA backend: picks the kernel of `kernels/potrf.cu` for n (lanes of a warp per matrix up
//! to 32, a row or two each, a block per matrix beyond: the triangle in shared-memory tiles,
//! blocked right-looking, while it fits (to 256 in single, 224 in double and complex single,
//! 160 in complex double on the H100), else in register tiles up to 128 or 180 by type,
//! left-looking panels up to 256, the packed triangle in shared memory beyond but for the
//! leading columns that do not fit), describes each routine's operands to the staging engine
//! and launches on its views.

use super::{Potrf, Potrs};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::params::grid;
use crate::cuda::staging::{Chunk, Dir, Operand, Stage};
use crate::cuda::{CudaHandle, Device};

const SOURCE: &str = include_str!("../../kernels/potrf.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// The largest order of the folded warp kernel. It runs to 64 (⌈n / 2⌉ lanes of one warp), but
/// at n = 64 the H100 measured it below the register tiles (s 345 against 397 GB/s, d 402
/// against 512, c 266 against 432; 2026-11-28), so it stops where it wins: n = 25 … 32, whose
/// two rows (⌈n / 2⌉ + n entries, at most 768 bytes in complex double) ptxas keeps in
/// registers without spills in every type.
const FOLD_MAX: usize = 32;

/// The order from which the warp kernel folds its rows (below, one row a lane: measured at
/// 1300–2000 GB/s on the H100 up to n = 16).
const FOLD_MIN: usize = 25;

/// Threads per block of the warp kernel (matrices of up to 32 lanes each).
const WARP_BLOCK_THREADS: usize = 128;

/// How a factorisation of order n runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Lane i of a matrix holds row i of L for i < `h`; `h` = n (one row a lane) or, folded,
    /// ⌈n / 2⌉ (lane i holds rows i and n − 1 − i); `w` lanes per matrix (a power of two
    /// ≥ `h`), `mpb` matrices per block.
    Warp { h: usize, w: usize, mpb: usize },
    /// 32 < n <= 256 where the triangle's `g`·(`g` + 1)/2 tiles of 16 × 16 (`g` = ⌈n / 16⌉)
    /// fit the shared memory: a block of `threads` per matrix, blocked right-looking in
    /// panels of 16 columns; `minb` blocks an SM asked of the compiler (its register cap).
    Panel { g: usize, threads: usize, minb: usize },
    /// 32 < n <= 180 (single, double, complex single) or 128 (complex double) where the
    /// panel kernel's tiles do not fit:
    /// a block per matrix, the lower triangle's `tm` × `tm` tiles one to a thread in
    /// registers, right-looking; `threads` covers the tiles, rounded up to whole warps.
    Reg { tm: usize, threads: usize },
    /// Beyond the register tiles, n <= 256: a block of 256 threads per matrix, left-looking in
    /// panels of 32 columns, each thread `tr` rows (⌈n / 32⌉) of the register-tiled updates.
    Tile { tr: usize },
    /// A block per matrix of `threads`, L's first `split` columns in place in global memory,
    /// the others in shared memory.
    Block { split: usize, threads: usize },
}

/// The plan for order `n` on a device with `max_smem` bytes of opt-in shared memory per block.
pub fn plan<T: Scalar>(n: usize, max_smem: usize) -> Plan {
    // The warp kernel keeps a row of L in registers, one a lane: up to 24 entries, at most
    // 384 bytes (complex double).
    if n < FOLD_MIN {
        return warp(n, n);
    }
    // Folded, two rows a lane: half the lanes, each step's square root and shuffles shared
    // by two matrices in a warp, and less of the update on entries right of the diagonal.
    if n <= FOLD_MAX {
        return warp(n.div_ceil(2), n);
    }
    // From 33: the triangle in shared memory while it fits, then in register tiles.
    if n <= PANEL_MAX && panel_smem::<T>(n.div_ceil(16)) <= max_smem {
        return panel::<T>(n.div_ceil(16), max_smem);
    }
    if n <= reg_max::<T>() {
        let tm = reg_tile::<T>(n);
        let g = n.div_ceil(tm);
        return Plan::Reg { tm, threads: (g * (g + 1) / 2).div_ceil(32) * 32 };
    }
    if n <= TILE_MAX && tile_smem::<T>(n) <= max_smem {
        return Plan::Tile { tr: n.div_ceil(32) };
    }
    // The fewest leading columns in global memory that let the rest fit.
    let kept = (0..=n).rev().find(|&m| block_smem::<T>(m) <= max_smem).unwrap_or(0);
    // More threads where few blocks fit an SM (a large triangle): they hide shared memory's
    // latency in the trailing updates.
    let threads = if n <= 160 { 512 } else { 1024 };
    Plan::Block { split: n - kept, threads }
}

/// The warp plan with `h` rows a lane for order n (h = n, or folded h = ⌈n / 2⌉).
fn warp(h: usize, n: usize) -> Plan {
    debug_assert!(h == n || h == n.div_ceil(2));
    let w = h.next_power_of_two().max(1);
    Plan::Warp { h, w, mpb: WARP_BLOCK_THREADS / w }
}

/// The largest order of the panel kernel (16 tiles of 16 to a side; the tile table's indices
/// are bytes).
const PANEL_MAX: usize = 256;

/// The panel kernel's plan for g tiles to a side: threads for every trailing tile of the
/// first panel at once (16 a tile, (g − 1)·g/2 tiles), in whole warps, 64 to 256; as many
/// blocks an SM as the shared memory holds (they hide one another's serial steps), but no
/// register cap below what ptxas takes without spills (sm_80 and sm_90, 2026-11-28: capped at
/// 80, double and complex single spilled 12–28 bytes; unbounded, double took 106–112 and
/// complex double 152–156).
fn panel<T>(g: usize, max_smem: usize) -> Plan {
    let threads = (16 * (g - 1) * g / 2).div_ceil(32).clamp(2, 8) * 32;
    let floor = match std::mem::size_of::<T>() {
        4 => 96,
        8 => 128,
        _ => 168,
    };
    let by_smem = max_smem / panel_smem::<T>(g);
    let minb = by_smem.min(65536 / (threads * floor)).min(2048 / threads).max(1);
    Plan::Panel { g, threads, minb }
}

/// The largest order of the tile kernel (its register tiles cover 8·32 rows).
const TILE_MAX: usize = 256;

/// The largest order of the register-tile kernel: its block holds the whole triangle in
/// registers. A block's warps spread over an SM's four quarters of 16 Ki registers each, so
/// w warps may take 512 / ⌈w / 4⌉ registers a thread: double and complex single 180 in
/// 6 × 6, 480 threads of 118 and 126 (ptxas sm_90); complex double 128 in 5 × 5, 352 threads
/// of 156. Single would fit n = 256 (9 × 9, 448 threads of 128), but one block an SM ran it
/// at 0.6× the tile kernel on an H100 (docs/bench/potrf-H100-2026-11-27), so single stops
/// at 180 too.
fn reg_max<T>() -> usize {
    match std::mem::size_of::<T>() {
        16 => 128,
        _ => 180,
    }
}

/// The register tile's side: 4 up to n = 64, beyond it 6 (double, complex single), 5 (complex
/// double) or for single 8 up to 128 and 9 beyond. Each step reads a tile's TM row and TM
/// column values from shared memory for TM² multiply-adds, so larger tiles load less per
/// multiply-add; smaller ones take fewer registers (ptxas sm_90, 4 × 4: 46 to 118 from single
/// to complex double; single 8 × 8 104, 9 × 9 128; 6 × 6 double 118, complex single 126; 5 × 5
/// complex double 156), so more blocks share an SM to hide each step's barrier and square
/// root (double n = 128: 2 blocks of 256 threads).
fn reg_tile<T>(n: usize) -> usize {
    match (n, std::mem::size_of::<T>()) {
        (0..=64, _) => 4,
        (0..=128, 4) => 8,
        (_, 4) => 9,
        (_, 16) => 5,
        _ => 6,
    }
}

/// Dynamic shared memory of each plan, in bytes: the warp kernel's columns (one per matrix);
/// the panel kernel's tiles of 16 × 16 and its few scalars; the register-tile kernel's two
/// column buffers of ⌈n / tm⌉·tm; the tile kernel's panel (32 columns), chunk (16 columns)
/// and column of order n, and its flag; the block kernel's packed lower triangle of order m.
fn warp_smem<T>(n: usize, mpb: usize) -> usize {
    mpb * n * std::mem::size_of::<T>()
}
fn panel_smem<T>(g: usize) -> usize {
    // The tiles, 128 bytes of reciprocal pivots, the flag, a short per tile.
    let tiles = g * (g + 1) / 2;
    (tiles * 256 * std::mem::size_of::<T>() + 128 + 4 + 2 * tiles).next_multiple_of(16)
}
fn reg_smem<T>(n: usize, tm: usize) -> usize {
    2 * n.div_ceil(tm) * tm * std::mem::size_of::<T>()
}
fn tile_smem<T>(n: usize) -> usize {
    ((32 + 16) * n + 32) * std::mem::size_of::<T>() + 16
}
fn block_smem<T>(m: usize) -> usize {
    m * (m + 1) / 2 * std::mem::size_of::<T>()
}

/// The defines and entry point of a factorisation plan.
pub fn specialise<T: Scalar>(n: usize, p: Plan) -> (Vec<String>, String) {
    let mut d = vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)];
    let entry = match p {
        Plan::Warp { h, w, mpb } => {
            d.extend(["NG_WARP=1".to_string(), format!("NG_N={n}"), format!("NG_H={h}"), format!("NG_W={w}"), format!("NG_MPB={mpb}")]);
            "potrf_warp"
        }
        Plan::Panel { g, threads, minb } => {
            d.extend(["NG_PANEL=1".to_string(), format!("NG_G={g}"), format!("NG_NT={threads}"), format!("NG_MINB={minb}")]);
            "potrf_panel"
        }
        Plan::Reg { tm, threads } => {
            d.extend(["NG_REG=1".to_string(), format!("NG_TM={tm}"), format!("NG_NT={threads}")]);
            "potrf_reg"
        }
        Plan::Tile { tr } => {
            d.extend(["NG_TILE=1".to_string(), format!("NG_TR={tr}")]);
            "potrf_tile"
        }
        Plan::Block { threads, .. } => {
            d.extend(["NG_BLOCK=1".to_string(), format!("NG_NT={threads}")]);
            "potrf_block"
        }
    };
    (d, format!("{entry}_{}", T::SUFFIX))
}

/// The defines and entry point of the solve kernel.
pub fn specialise_solve<T: Scalar>() -> (Vec<String>, String) {
    (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), "NG_POTRS=1".to_string()], format!("potrs_{}", T::SUFFIX))
}

/// The kernels index rows and columns with `int`.
fn check_n(n: usize) -> Result<()> {
    if n > i32::MAX as usize {
        return Err(Error::not_supported(format!("n = {n} exceeds the CUDA backend's limit of 2^31 − 1")));
    }
    Ok(())
}

/// Operand indices, the same in every routine's stage so that posv's `info` is the skip
/// array of its solve: A, info (potrs: absent, no skip), B.
const A: usize = 0;
const INFO: usize = 1;
const B: usize = 2;

/// The operands of a factorisation: A in/out (only its triangle changes), info out.
fn factorisation<T: Scalar>(space: Space, f: &Potrf<T>) -> Stage {
    Stage::new(space, f.batch).op(Operand::matrix(Dir::InOut, &f.a, f.n, f.n, f.lda)).op(Operand::vector(Dir::Out, f.info, 1, 1))
}

/// The factorisation `f` on arrays in `space`.
pub fn potrf<T: Scalar>(ch: &mut CudaHandle, f: &Potrf<T>, space: Space) -> Result<()> {
    check_n(f.n)?;
    ch.bind()?;
    // SAFETY: the operands are the validated call's arrays in `space`; the kernel touches
    // the chunk's items only.
    unsafe { factorisation(space, f).run(ch, |ch, k| launch_potrf(ch, f, k)) }
}

/// The solve `g` with given factors, on arrays in `space`.
pub fn potrs<T: Scalar>(ch: &mut CudaHandle, g: &Potrs<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let stage = Stage::new(space, g.batch)
        .op(Operand::matrix(Dir::In, &g.a, g.n, g.n, g.lda))
        .op(Operand::absent())
        .op(Operand::matrix(Dir::InOut, &g.b, g.n, g.nrhs, g.ldb));
    // SAFETY: as in `potrf`.
    unsafe { stage.run(ch, |ch, k| launch_potrs(ch, g, k)) }
}

/// The factorisation `f`, then the solve `g` on its factors, skipping the matrices whose
/// info is not 0 (their B is in/out, so it comes back unchanged).
pub fn posv<T: Scalar>(ch: &mut CudaHandle, f: &Potrf<T>, g: &Potrs<T>, space: Space) -> Result<()> {
    check_n(f.n)?;
    ch.bind()?;
    let b = match g.nrhs {
        0 => Operand::absent(),
        _ => Operand::matrix(Dir::InOut, &g.b, g.n, g.nrhs, g.ldb),
    };
    let stage = factorisation(space, f).op(b);
    // SAFETY: as in `potrf`.
    unsafe {
        stage.run(ch, |ch, k| {
            launch_potrf(ch, f, k)?;
            if g.nrhs == 0 {
                return Ok(());
            }
            launch_potrs(ch, g, k)
        })
    }
}

/// Enqueues the factorisation of the chunk's matrices.
fn launch_potrf<T: Scalar>(ch: &CudaHandle, f: &Potrf<T>, k: &Chunk) -> Result<()> {
    let dev: &Device = &ch.dev;
    let p = plan::<T>(f.n, dev.max_smem_optin);
    let (defines, entry) = specialise::<T>(f.n, p);
    let module = dev.modules.get(dev, SOURCE, &defines, &entry)?;
    let (uplo, n, a, lda, info, batch) = (f.uplo.code(), f.n as i32, k[A].kbatch(), k[A].ld as i64, k[INFO].ptr(), k.count as i64);
    // The block kernel takes n and split after uplo, the panel, register-tile and tile kernels
    // n; the warp kernel has n at compile time.
    let split = match p {
        Plan::Block { split, .. } => split as i32,
        _ => 0,
    };
    let (l, blocks, threads, smem) = match p {
        Plan::Warp { w, mpb, .. } => (ch.launch(&module).arg(&uplo), k.count.div_ceil(mpb), mpb * w, warp_smem::<T>(f.n, mpb)),
        Plan::Panel { g, threads, .. } => (ch.launch(&module).arg(&uplo).arg(&n), k.count, threads, panel_smem::<T>(g)),
        Plan::Reg { tm, threads } => (ch.launch(&module).arg(&uplo).arg(&n), k.count, threads, reg_smem::<T>(f.n, tm)),
        Plan::Tile { .. } => (ch.launch(&module).arg(&uplo).arg(&n), k.count, 256, tile_smem::<T>(f.n)),
        Plan::Block { threads, .. } => (ch.launch(&module).arg(&uplo).arg(&n).arg(&split), k.count, threads, block_smem::<T>(f.n - split as usize)),
    };
    // SAFETY: the arguments are those of the entry point `entry` names in potrf.cu, on the
    // validated views.
    unsafe { l.arg(&a).arg(&lda).arg(&info).arg(&batch).run(grid(blocks as i64), threads as u32, smem as u32) }
}

/// Enqueues the solves of the chunk's matrices; the info operand, when present (posv), is
/// the skip array.
fn launch_potrs<T: Scalar>(ch: &CudaHandle, g: &Potrs<T>, k: &Chunk) -> Result<()> {
    let (defines, entry) = specialise_solve::<T>();
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (uplo, n, nrhs, a, lda) = (g.uplo.code(), g.n as i64, g.nrhs as i64, k[A].kbatch(), k[A].ld as i64);
    let (b, ldb, skip, batch) = (k[B].kbatch(), k[B].ld as i64, k[INFO].ptr(), k.count as i64);
    let threads = batch * nrhs;
    // SAFETY: the arguments are those of potrs_<T> in potrf.cu, on the validated views.
    unsafe { ch.launch(&module).arg(&uplo).arg(&n).arg(&nrhs).arg(&a).arg(&lda).arg(&b).arg(&ldb).arg(&skip).arg(&batch).run(grid((threads + 127) / 128), 128, 0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64;

    #[test]
    fn plans_by_order() {
        assert_eq!(plan::<f32>(1, 227 << 10), Plan::Warp { h: 1, w: 1, mpb: 128 });
        assert_eq!(plan::<f32>(8, 227 << 10), Plan::Warp { h: 8, w: 8, mpb: 16 });
        assert_eq!(plan::<f64>(24, 227 << 10), Plan::Warp { h: 24, w: 32, mpb: 4 });
        assert_eq!(plan::<Complex64>(24, 227 << 10), Plan::Warp { h: 24, w: 32, mpb: 4 });
        // Folded from 25 to 32: ⌈n / 2⌉ lanes (complex double 25: 13 + 25 entries of 16 bytes
        // = 608; 32: 768).
        assert_eq!(plan::<f32>(25, 227 << 10), Plan::Warp { h: 13, w: 16, mpb: 8 });
        assert_eq!(plan::<f64>(32, 227 << 10), Plan::Warp { h: 16, w: 16, mpb: 8 });
        assert_eq!(plan::<Complex64>(25, 227 << 10), Plan::Warp { h: 13, w: 16, mpb: 8 });
        assert_eq!(plan::<Complex64>(32, 227 << 10), Plan::Warp { h: 16, w: 16, mpb: 8 });
        // From 33 the shared-memory tiles of 16 (g to a side), while they fit: 64 threads
        // for g = 3 (3 trailing tiles), 96 for 4, 160 for 5, 256 from 6; blocks an SM by the
        // shared memory (double g = 4: 10 tiles of 2 KiB), capped by 96, 128 or 168
        // registers a thread (double 96 threads: 65,536 / (96·128) = 5).
        assert_eq!(plan::<f64>(33, 227 << 10), Plan::Panel { g: 3, threads: 64, minb: 8 });
        assert_eq!(plan::<Complex64>(33, 227 << 10), Plan::Panel { g: 3, threads: 64, minb: 6 });
        assert_eq!(plan::<f64>(63, 227 << 10), Plan::Panel { g: 4, threads: 96, minb: 5 });
        assert_eq!(plan::<f32>(64, 227 << 10), Plan::Panel { g: 4, threads: 96, minb: 7 });
        assert_eq!(plan::<num_complex::Complex32>(64, 227 << 10), Plan::Panel { g: 4, threads: 96, minb: 5 });
        assert_eq!(plan::<Complex64>(64, 227 << 10), Plan::Panel { g: 4, threads: 96, minb: 4 });
        assert_eq!(plan::<f64>(65, 227 << 10), Plan::Panel { g: 5, threads: 160, minb: 3 });
        assert_eq!(plan::<f64>(128, 227 << 10), Plan::Panel { g: 8, threads: 256, minb: 2 });
        assert_eq!(plan::<f32>(128, 227 << 10), Plan::Panel { g: 8, threads: 256, minb: 2 });
        // Complex double n = 128: 36 tiles of 4 KiB, one block an SM.
        assert_eq!(plan::<Complex64>(128, 227 << 10), Plan::Panel { g: 8, threads: 256, minb: 1 });
        assert_eq!(plan::<Complex64>(129, 227 << 10), Plan::Panel { g: 9, threads: 256, minb: 1 });
        assert_eq!(plan::<f32>(180, 227 << 10), Plan::Panel { g: 12, threads: 256, minb: 2 });
        assert_eq!(plan::<f64>(181, 227 << 10), Plan::Panel { g: 12, threads: 256, minb: 1 });
        // The largest: single 256 (136 tiles of 1 KiB), double and complex single 224 (105 of
        // 2 KiB), complex double 160 (55 of 4 KiB); beyond them, the tile kernel.
        assert_eq!(plan::<f32>(256, 227 << 10), Plan::Panel { g: 16, threads: 256, minb: 1 });
        assert_eq!(plan::<f64>(224, 227 << 10), Plan::Panel { g: 14, threads: 256, minb: 1 });
        assert_eq!(plan::<f64>(225, 227 << 10), Plan::Tile { tr: 8 });
        assert_eq!(plan::<num_complex::Complex32>(225, 227 << 10), Plan::Tile { tr: 8 });
        assert_eq!(plan::<Complex64>(160, 227 << 10), Plan::Panel { g: 10, threads: 256, minb: 1 });
        assert_eq!(plan::<Complex64>(161, 227 << 10), Plan::Tile { tr: 6 });
        // Where the tiles do not fit (48 KiB), the register tiles: 4 × 4 to n = 64, then 6 × 6
        // (double 100: 17 a side, 153 tiles), 9 × 9 in single beyond 128 (180: 20 a side, 210
        // tiles), complex double 5 × 5 (128: 26 a side, 351 tiles).
        assert_eq!(plan::<f64>(64, 48 << 10), Plan::Panel { g: 4, threads: 96, minb: 2 });
        assert_eq!(plan::<f64>(100, 48 << 10), Plan::Reg { tm: 6, threads: 160 });
        assert_eq!(plan::<f32>(180, 48 << 10), Plan::Reg { tm: 9, threads: 224 });
        assert_eq!(plan::<Complex64>(128, 48 << 10), Plan::Reg { tm: 5, threads: 352 });
        assert_eq!(plan::<Complex64>(33, 16 << 10), Plan::Reg { tm: 4, threads: 64 });
        assert_eq!(plan::<f64>(238, 227 << 10), Plan::Tile { tr: 8 });
        assert_eq!(plan::<f32>(257, 227 << 10), Plan::Block { split: 0, threads: 1024 });
        // Complex double n = 256: (48·256 + 32)·16 + 16 = 197,136 bytes of shared memory.
        assert_eq!(plan::<Complex64>(256, 227 << 10), Plan::Tile { tr: 8 });
        // Beyond 256, the block kernel: the packed triangle of double n = 240 takes 240·241/2·8
        // = 231,360 bytes <= 227 KiB = 232,448, so 257 leaves 17 leading columns in place.
        assert_eq!(plan::<f64>(257, 227 << 10), Plan::Block { split: 17, threads: 1024 });
        assert_eq!(plan::<f32>(300, 227 << 10), Plan::Block { split: 0, threads: 1024 });
        assert_eq!(plan::<Complex64>(257, 227 << 10), Plan::Block { split: 88, threads: 1024 });
        assert_eq!(plan::<f64>(200, 0), Plan::Block { split: 200, threads: 1024 });
        assert_eq!(specialise::<f32>(8, plan::<f32>(8, 0)).1, "potrf_warp_f32");
    }
}
