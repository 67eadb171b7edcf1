//! CUDA backend: picks the kernel of `kernels/getrf_fullpivot.cu` for n (up to 32 a group of
//! lanes per matrix, the power of two ≥ n, so that a warp holds 32 / w matrices; a block per
//! matrix beyond, in shared memory while it fits), describes each routine's operands to the
//! staging engine and launches on its views.

use super::{Gesc2, Getrf, Getrs};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::params::grid;
use crate::cuda::staging::{Chunk, Dir, Operand, Stage};
use crate::cuda::{CudaHandle, Device};

const SOURCE: &str = include_str!("../../kernels/getrf_fullpivot.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// Largest n of the block kernel: its packed (row, column) indices are `int`.
pub(crate) const MAX_N: usize = 46340;

/// Threads of one block-per-matrix block.
const BLOCK_THREADS: usize = 256;

/// How a factorisation of order n runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// `w` lanes per matrix (a power of two ≥ n), `mpb` matrices per block.
    Warp { w: usize, mpb: usize },
    /// A block per matrix, in shared memory (`smem`) or in place in global memory.
    Block { smem: bool },
}

/// The plan for order `n` on a device with `max_smem` bytes of opt-in shared memory per block.
pub fn plan<T: Scalar>(n: usize, max_smem: usize) -> Plan {
    if n <= 32 {
        let w = n.next_power_of_two().max(1);
        return Plan::Warp { w, mpb: (128 / w).max(1) };
    }
    Plan::Block { smem: block_smem::<T>(n) <= max_smem }
}

/// Dynamic shared memory of each plan, in bytes: the warp kernel's matrices (column stride
/// n + 1) and multiplier columns (stride n | 1).
fn warp_smem<T>(n: usize, mpb: usize) -> usize {
    mpb * (n * (n + 1) + (n | 1)) * std::mem::size_of::<T>()
}
fn block_smem<T>(n: usize) -> usize {
    (n | 1) * n * std::mem::size_of::<T>()
}

/// The defines and entry point of a plan; `kind` is `getrs` or `gesc2` for the solves.
pub fn specialise<T: Scalar>(n: usize, p: Plan) -> (Vec<String>, String) {
    let mut d = vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)];
    let entry = match p {
        Plan::Warp { w, mpb } => {
            d.extend(["NG_WARP=1".to_string(), format!("NG_N={n}"), format!("NG_W={w}"), format!("NG_MPB={mpb}"), format!("NG_MINB={}", warp_min_blocks::<T>(n))]);
            "getrf_warp"
        }
        Plan::Block { smem } => {
            d.extend(["NG_BLOCK=1".to_string(), format!("NG_NT={BLOCK_THREADS}"), format!("NG_SMEM={}", smem as i32)]);
            "getrf_block"
        }
    };
    (d, format!("{entry}_{}", T::SUFFIX))
}

/// The warp kernel's minimum of blocks per SM, 0 for none: complex double beyond 16 columns
/// needs 150–200 registers a lane, and ptxas's occupancy heuristic would cap some orders (19)
/// at 128 and spill; the others keep the heuristic, which holds their registers lower.
fn warp_min_blocks<T: Scalar>(n: usize) -> usize {
    usize::from(T::IS_COMPLEX && std::mem::size_of::<T>() == 16 && n > 16)
}

/// The defines and entry point of a solve kernel (`getrs` or `gesc2`).
pub fn specialise_solve<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), format!("NG_{}=1", kind.to_uppercase())], format!("{kind}_{}", T::SUFFIX))
}

fn check_n(n: usize) -> Result<()> {
    if n > MAX_N {
        return Err(Error::not_supported(format!("n = {n} exceeds the CUDA backend's limit of {MAX_N} for complete pivoting")));
    }
    Ok(())
}

/// Operand indices, the same in every routine's stage so that gesv's `info` is the skip
/// array of its solve: A, ipiv, jpiv, info (gesc2: scale; getrs: absent, no skip), B (gesc2:
/// rhs).
const A: usize = 0;
const IPIV: usize = 1;
const JPIV: usize = 2;
const INFO: usize = 3;
const B: usize = 4;

/// The operands of a factorisation: A in/out, ipiv, jpiv and info out (every entry of
/// them is written).
fn factorisation<T: Scalar>(space: Space, f: &Getrf<T>) -> Stage {
    Stage::new(space, f.batch)
        .op(Operand::matrix(Dir::InOut, &f.a, f.n, f.n, f.lda))
        .op(Operand::vector(Dir::Out, f.ipiv, f.n, f.n))
        .op(Operand::vector(Dir::Out, f.jpiv, f.n, f.n))
        .op(Operand::vector(Dir::Out, f.info, 1, 1))
}

/// The factorisation `f` on arrays in `space`.
pub fn getrf<T: Scalar>(ch: &mut CudaHandle, f: &Getrf<T>, space: Space) -> Result<()> {
    check_n(f.n)?;
    ch.bind()?;
    // SAFETY: the operands are the validated call's arrays in `space`; the kernel touches
    // the chunk's items only.
    unsafe { factorisation(space, f).run(ch, |ch, k| launch_getrf(ch, f, k)) }
}

/// The solve `g` with given factors, on arrays in `space`.
pub fn getrs<T: Scalar>(ch: &mut CudaHandle, g: &Getrs<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let stage = Stage::new(space, g.batch)
        .op(Operand::matrix(Dir::In, &g.a, g.n, g.n, g.lda))
        .op(Operand::vector(Dir::In, g.ipiv, g.n, g.n))
        .op(Operand::vector(Dir::In, g.jpiv, g.n, g.n))
        .op(Operand::absent())
        .op(Operand::matrix(Dir::InOut, &g.b, g.n, g.nrhs, g.ldb));
    // SAFETY: as in `getrf`.
    unsafe { stage.run(ch, |ch, k| launch_getrs(ch, g, k)) }
}

/// The factorisation `f`, then the solve `g` on its factors, skipping the matrices whose
/// info is not 0 (their B is in/out, so it comes back unchanged).
pub fn gesv<T: Scalar>(ch: &mut CudaHandle, f: &Getrf<T>, g: &Getrs<T>, space: Space) -> Result<()> {
    check_n(f.n)?;
    ch.bind()?;
    let b = match g.nrhs {
        0 => Operand::absent(),
        _ => Operand::matrix(Dir::InOut, &g.b, g.n, g.nrhs, g.ldb),
    };
    let stage = factorisation(space, f).op(b);
    // SAFETY: as in `getrf`.
    unsafe {
        stage.run(ch, |ch, k| {
            launch_getrf(ch, f, k)?;
            if g.nrhs == 0 {
                return Ok(());
            }
            launch_getrs(ch, g, k)
        })
    }
}

/// `?gesc2` (`g`) with given factors, on arrays in `space`.
pub fn gesc2<T: Scalar>(ch: &mut CudaHandle, g: &Gesc2<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let stage = Stage::new(space, g.batch)
        .op(Operand::matrix(Dir::In, &g.a, g.n, g.n, g.lda))
        .op(Operand::vector(Dir::In, g.ipiv, g.n, g.n))
        .op(Operand::vector(Dir::In, g.jpiv, g.n, g.n))
        .op(Operand::vector(Dir::Out, g.scale, 1, 1))
        .op(Operand::matrix(Dir::InOut, &g.rhs, g.n, 1, g.n));
    // SAFETY: as in `getrf`.
    unsafe { stage.run(ch, |ch, k| launch_gesc2(ch, g, k)) }
}

/// Enqueues the factorisation of the chunk's matrices (`f`'s order and mode).
fn launch_getrf<T: Scalar>(ch: &CudaHandle, f: &Getrf<T>, k: &Chunk) -> Result<()> {
    let dev: &Device = &ch.dev;
    let p = plan::<T>(f.n, dev.max_smem_optin);
    let (defines, entry) = specialise::<T>(f.n, p);
    let module = dev.modules.get(dev, SOURCE, &defines, &entry)?;
    let (n, a, lda, ipiv, jpiv, info) = (f.n as i32, k[A].kbatch(), k[A].ld as i64, k[IPIV].ptr(), k[JPIV].ptr(), k[INFO].ptr());
    let (batch, mode) = (k.count as i64, f.mode.code());
    // The block kernel takes n first; the warp kernel has it at compile time.
    let (l, blocks, threads, smem) = match p {
        Plan::Warp { w, mpb } => (ch.launch(&module), k.count.div_ceil(mpb), mpb * w, warp_smem::<T>(f.n, mpb)),
        Plan::Block { smem } => (ch.launch(&module).arg(&n), k.count, BLOCK_THREADS, if smem { block_smem::<T>(f.n) } else { 0 }),
    };
    // SAFETY: the arguments are those of the entry point `entry` names in
    // getrf_fullpivot.cu, on the validated views.
    unsafe { l.arg(&a).arg(&lda).arg(&ipiv).arg(&jpiv).arg(&info).arg(&batch).arg(&mode).run(grid(blocks as i64), threads as u32, smem as u32) }
}

/// Enqueues the solves of the chunk's matrices; the info operand, when present (gesv), is
/// the skip array.
fn launch_getrs<T: Scalar>(ch: &CudaHandle, g: &Getrs<T>, k: &Chunk) -> Result<()> {
    let (defines, entry) = specialise_solve::<T>("getrs");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (trans, n, nrhs, a, lda) = (g.trans.code(), g.n as i64, g.nrhs as i64, k[A].kbatch(), k[A].ld as i64);
    let (ipiv, jpiv, b, ldb, skip, batch) = (k[IPIV].ptr(), k[JPIV].ptr(), k[B].kbatch(), k[B].ld as i64, k[INFO].ptr(), k.count as i64);
    let threads = batch * nrhs;
    // SAFETY: the arguments are those of getrs_<T> in getrf_fullpivot.cu, on the validated
    // views.
    unsafe {
        ch.launch(&module)
            .arg(&trans)
            .arg(&n)
            .arg(&nrhs)
            .arg(&a)
            .arg(&lda)
            .arg(&ipiv)
            .arg(&jpiv)
            .arg(&b)
            .arg(&ldb)
            .arg(&skip)
            .arg(&batch)
            .run(grid((threads + 127) / 128), 128, 0)
    }
}

/// Enqueues `?gesc2` on the chunk's matrices.
fn launch_gesc2<T: Scalar>(ch: &CudaHandle, g: &Gesc2<T>, k: &Chunk) -> Result<()> {
    let (defines, entry) = specialise_solve::<T>("gesc2");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (n, a, lda, rhs, ipiv, jpiv) = (g.n as i64, k[A].kbatch(), k[A].ld as i64, k[B].kbatch(), k[IPIV].ptr(), k[JPIV].ptr());
    let (scale, batch) = (k[INFO].ptr(), k.count as i64);
    // SAFETY: the arguments are those of gesc2_<T> in getrf_fullpivot.cu, on the validated
    // views.
    unsafe { ch.launch(&module).arg(&n).arg(&a).arg(&lda).arg(&rhs).arg(&ipiv).arg(&jpiv).arg(&scale).arg(&batch).run(grid((batch + 127) / 128), 128, 0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64;

    #[test]
    fn plans_by_order() {
        assert_eq!(plan::<f32>(4, 227 << 10), Plan::Warp { w: 4, mpb: 32 });
        assert_eq!(plan::<f32>(32, 227 << 10), Plan::Warp { w: 32, mpb: 4 });
        assert_eq!(plan::<f64>(5, 227 << 10), Plan::Warp { w: 8, mpb: 16 });
        assert_eq!(plan::<f64>(128, 227 << 10), Plan::Block { smem: true });
        assert_eq!(plan::<Complex64>(128, 227 << 10), Plan::Block { smem: false });
        assert_eq!(specialise::<f32>(8, plan::<f32>(8, 0)).1, "getrf_warp_f32");
        // Register cap lifted for complex double beyond 16 columns only.
        let minb = |d: Vec<String>| d.into_iter().find(|x| x.starts_with("NG_MINB=")).unwrap();
        assert_eq!(minb(specialise::<Complex64>(19, plan::<Complex64>(19, 0)).0), "NG_MINB=1");
        assert_eq!(minb(specialise::<Complex64>(16, plan::<Complex64>(16, 0)).0), "NG_MINB=0");
        assert_eq!(minb(specialise::<f64>(32, plan::<f64>(32, 0)).0), "NG_MINB=0");
        // Matrices (column stride n + 1) and multiplier columns (stride n | 1).
        assert_eq!(warp_smem::<f64>(4, 32), 32 * (4 * 5 + 5) * 8);
        assert_eq!(warp_smem::<Complex64>(32, 4), 4 * (32 * 33 + 33) * 16);
    }
}
