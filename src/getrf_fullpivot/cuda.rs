//! CUDA backend: picks the kernel of `kernels/getrf_fullpivot.cu` for n (a warp per matrix
//! up to 32, a block per matrix beyond, in shared memory while it fits), stages host arrays
//! through the workspace, launches.

use super::{Gesc2, Getrf, Getrs};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::core::Scalar;
use crate::cuda::params::{arg, grid, KBatch};
use crate::cuda::legacy::{chunk_len, download, pack, unpack, upload, Layout};
use crate::cuda::{CudaHandle, Device};
use std::ffi::c_void;

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

pub fn plan<T: Scalar>(n: usize, max_smem: usize) -> Plan {
    if n <= 32 {
        let w = n.next_power_of_two().max(1);
        return Plan::Warp { w, mpb: (128 / w).max(1) };
    }
    Plan::Block { smem: block_smem::<T>(n) <= max_smem }
}

/// Dynamic shared memory of each plan, in bytes.
fn warp_smem<T>(n: usize, mpb: usize) -> usize {
    mpb * n * (n + 2) * std::mem::size_of::<T>()
}
fn block_smem<T>(n: usize) -> usize {
    (n | 1) * n * std::mem::size_of::<T>()
}

/// The defines and entry point of a plan; `kind` is `getrs` or `gesc2` for the solves.
pub fn specialise<T: Scalar>(n: usize, p: Plan) -> (Vec<String>, String) {
    let mut d = vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX)];
    let entry = match p {
        Plan::Warp { w, mpb } => {
            d.extend(["NG_WARP=1".to_string(), format!("NG_N={n}"), format!("NG_W={w}"), format!("NG_MPB={mpb}")]);
            "getrf_warp"
        }
        Plan::Block { smem } => {
            d.extend(["NG_BLOCK=1".to_string(), format!("NG_NT={BLOCK_THREADS}"), format!("NG_SMEM={}", smem as i32)]);
            "getrf_block"
        }
    };
    (d, format!("{entry}_{}", T::SUFFIX))
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

/// Enqueues the factorisation of a batch in device memory.
#[allow(clippy::too_many_arguments)]
fn launch_getrf<T: Scalar>(ch: &CudaHandle, n: usize, a: KBatch, lda: usize, ipiv: u64, jpiv: u64, info: u64, batch: usize, mode: i32) -> Result<()> {
    let dev: &Device = &ch.dev;
    let p = plan::<T>(n, dev.max_smem_optin);
    let (defines, entry) = specialise::<T>(n, p);
    let module = dev.modules.get(dev, SOURCE, &defines, &entry)?;
    let (mut a, mut lda, mut ipiv, mut jpiv, mut info, mut batch_, mut mode) = (a, lda as i64, ipiv, jpiv, info, batch as i64, mode);
    // SAFETY: the parameter lists match getrf_warp_<T>(ng_batch<T> A, ng_i64 lda, int *ipiv,
    // int *jpiv, int *info, ng_i64 batch, int mode) and getrf_block_<T>(int n, ...same).
    unsafe {
        match p {
            Plan::Warp { w, mpb } => {
                let mut params = [arg(&mut a), arg(&mut lda), arg(&mut ipiv), arg(&mut jpiv), arg(&mut info), arg(&mut batch_), arg(&mut mode)];
                let blocks = batch.div_ceil(mpb) as i64;
                ch.launch_params(&module, grid(blocks), (mpb * w) as u32, warp_smem::<T>(n, mpb) as u32, &mut params)
            }
            Plan::Block { smem } => {
                let mut n32 = n as i32;
                let mut params = [arg(&mut n32), arg(&mut a), arg(&mut lda), arg(&mut ipiv), arg(&mut jpiv), arg(&mut info), arg(&mut batch_), arg(&mut mode)];
                let bytes = if smem { block_smem::<T>(n) } else { 0 };
                ch.launch_params(&module, grid(batch as i64), BLOCK_THREADS as u32, bytes as u32, &mut params)
            }
        }
    }
}

/// Enqueues the solves of a batch in device memory.
#[allow(clippy::too_many_arguments)]
fn launch_getrs<T: Scalar>(ch: &CudaHandle, g: &Getrs<T>, a: KBatch, lda: usize, ipiv: u64, jpiv: u64, b: KBatch, ldb: usize, skip: u64, batch: usize) -> Result<()> {
    let (defines, entry) = specialise_solve::<T>("getrs");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (mut trans, mut n, mut nrhs, mut a, mut lda, mut ipiv, mut jpiv) = (g.trans.code(), g.n as i64, g.nrhs as i64, a, lda as i64, ipiv, jpiv);
    let (mut b, mut ldb, mut skip, mut batch_) = (b, ldb as i64, skip, batch as i64);
    let mut params = [arg(&mut trans), arg(&mut n), arg(&mut nrhs), arg(&mut a), arg(&mut lda), arg(&mut ipiv), arg(&mut jpiv), arg(&mut b), arg(&mut ldb), arg(&mut skip), arg(&mut batch_)];
    let threads = (batch * g.nrhs) as i64;
    // SAFETY: matches getrs_<T>(int trans, ng_i64 n, ng_i64 nrhs, ng_batch<const T> A,
    // ng_i64 lda, const int *ipiv, const int *jpiv, ng_batch<T> B, ng_i64 ldb, const int *skip,
    // ng_i64 batch).
    unsafe { ch.launch_params(&module, grid((threads + 127) / 128), 128, 0, &mut params) }
}

fn ptr<P: crate::core::batch::RawPtr>(p: P) -> u64 {
    p.addr() as u64
}

pub fn getrf<T: Scalar>(ch: &mut CudaHandle, f: &Getrf<T>, space: Space) -> Result<()> {
    check_n(f.n)?;
    ch.bind()?;
    match space {
        Space::Device => launch_getrf::<T>(ch, f.n, KBatch::of(&f.a), f.lda, ptr(f.ipiv), ptr(f.jpiv), ptr(f.info), f.batch, f.mode.code()),
        Space::Host => staged(ch, Some(f), None, f.n, f.batch),
    }
}

pub fn getrs<T: Scalar>(ch: &mut CudaHandle, g: &Getrs<T>, space: Space) -> Result<()> {
    ch.bind()?;
    match space {
        Space::Device => launch_getrs(ch, g, KBatch::of(&g.a), g.lda, ptr(g.ipiv), ptr(g.jpiv), KBatch::of(&g.b), g.ldb, ptr(g.skip), g.batch),
        Space::Host => staged(ch, None, Some(g), g.n, g.batch),
    }
}

pub fn gesv<T: Scalar>(ch: &mut CudaHandle, f: &Getrf<T>, g: &Getrs<T>, space: Space) -> Result<()> {
    check_n(f.n)?;
    ch.bind()?;
    match space {
        Space::Device => {
            launch_getrf::<T>(ch, f.n, KBatch::of(&f.a), f.lda, ptr(f.ipiv), ptr(f.jpiv), ptr(f.info), f.batch, f.mode.code())?;
            if g.nrhs == 0 {
                return Ok(());
            }
            launch_getrs(ch, g, KBatch::of(&g.a), g.lda, ptr(g.ipiv), ptr(g.jpiv), KBatch::of(&g.b), g.ldb, ptr(f.info), g.batch)
        }
        Space::Host => staged(ch, Some(f), (g.nrhs > 0).then_some(g), f.n, f.batch),
    }
}

/// Host arrays: chunks of the batch go through the workspace (A compact, then B, ipiv,
/// jpiv, info), the factorisation `f` and/or the solve `g` run on them (gesv: both, the solve
/// skipping matrices whose info is non-zero), and the outputs come back.
fn staged<T: Scalar>(ch: &mut CudaHandle, f: Option<&Getrf<T>>, g: Option<&Getrs<T>>, n: usize, batch: usize) -> Result<()> {
    let nrhs = g.map_or(0, |g| g.nrhs);
    let (sa, sb, size) = (n * n, n * nrhs, std::mem::size_of::<T>());
    let chunk = chunk_len((sa + sb) * size + (2 * n + 1) * 4, batch);
    let mut lay = Layout::default();
    let (oa, ob) = (lay.take(chunk * sa * size), lay.take(chunk * sb * size));
    let (oi, oj, oinfo) = (lay.take(chunk * n * 4), lay.take(chunk * n * 4), lay.take(chunk * 4));
    let ws = ch.workspace(lay.bytes)?;
    let (da, db, dip, djp, dinfo) = (ws + oa as u64, ws + ob as u64, ws + oi as u64, ws + oj as u64, ws + oinfo as u64);
    let mut host = vec![T::zero(); chunk * sa.max(sb)];
    let mut first = 0;
    while first < batch {
        let cnt = chunk.min(batch - first);
        // SAFETY: host matrices and index arrays cover their validated extents; the device
        // regions were sized above for `chunk` matrices; every copy back is synchronised.
        unsafe {
            let a_of = |i: usize| match (f, g) {
                (Some(f), _) => f.a.matrix(first + i) as *const T,
                (None, Some(g)) => g.a.matrix(first + i),
                _ => unreachable!(),
            };
            let lda = f.map_or_else(|| g.map_or(n, |g| g.lda), |f| f.lda);
            upload(ch, &mut host, da, cnt, sa, |i, dst| pack(a_of(i), lda, n, n, dst))?;
            if let Some(g) = g {
                upload(ch, &mut host, db, cnt, sb, |i, dst| pack(g.b.matrix(first + i), g.ldb, n, nrhs, dst))?;
            }
            let dev_a = KBatch::strided(da, sa);
            if let Some(f) = f {
                launch_getrf::<T>(ch, n, dev_a, n, dip, djp, dinfo, cnt, f.mode.code())?;
                download(ch, &mut host, da, cnt, sa, |i, src| unpack(src, n, n, f.a.matrix(first + i), f.lda))?;
                ch.dtoh(f.ipiv.add(first * n) as *mut c_void, dip, cnt * n * 4)?;
                ch.dtoh(f.jpiv.add(first * n) as *mut c_void, djp, cnt * n * 4)?;
                ch.dtoh(f.info.add(first) as *mut c_void, dinfo, cnt * 4)?;
                ch.synchronize()?;
            } else if let Some(g) = g {
                ch.htod(dip, g.ipiv.add(first * n) as *const c_void, cnt * n * 4)?;
                ch.htod(djp, g.jpiv.add(first * n) as *const c_void, cnt * n * 4)?;
            }
            if let Some(g) = g {
                let skip = if f.is_some() { dinfo } else { 0 };
                launch_getrs(ch, g, dev_a, n, dip, djp, KBatch::strided(db, sb), n, skip, cnt)?;
                download(ch, &mut host, db, cnt, sb, |i, src| unpack(src, n, nrhs, g.b.matrix(first + i), g.ldb))?;
            }
        }
        first += cnt;
    }
    Ok(())
}

pub fn gesc2<T: Scalar>(ch: &mut CudaHandle, g: &Gesc2<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let (defines, entry) = specialise_solve::<T>("gesc2");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let run = |ch: &CudaHandle, a: KBatch, lda: usize, rhs: KBatch, ipiv: u64, jpiv: u64, scale: u64, batch: usize| -> Result<()> {
        let (mut n, mut a, mut lda, mut rhs, mut ipiv, mut jpiv, mut scale, mut batch_) = (g.n as i64, a, lda as i64, rhs, ipiv, jpiv, scale, batch as i64);
        let mut params = [arg(&mut n), arg(&mut a), arg(&mut lda), arg(&mut rhs), arg(&mut ipiv), arg(&mut jpiv), arg(&mut scale), arg(&mut batch_)];
        // SAFETY: matches gesc2_<T>(ng_i64 n, ng_batch<const T> A, ng_i64 lda, ng_batch<T> RHS,
        // const int *ipiv, const int *jpiv, R *scale, ng_i64 batch).
        unsafe { ch.launch_params(&module, grid((batch as i64 + 127) / 128), 128, 0, &mut params) }
    };
    if space == Space::Device {
        return run(ch, KBatch::of(&g.a), g.lda, KBatch::of(&g.rhs), ptr(g.ipiv), ptr(g.jpiv), ptr(g.scale), g.batch);
    }
    let (n, sa, size, rsize) = (g.n, g.n * g.n, std::mem::size_of::<T>(), std::mem::size_of::<T::Real>());
    let chunk = chunk_len((sa + n) * size + 2 * n * 4 + rsize, g.batch);
    let mut lay = Layout::default();
    let (oa, or, oi, oj, os) = (lay.take(chunk * sa * size), lay.take(chunk * n * size), lay.take(chunk * n * 4), lay.take(chunk * n * 4), lay.take(chunk * rsize));
    let ws = ch.workspace(lay.bytes)?;
    let mut host = vec![T::zero(); chunk * sa];
    let mut first = 0;
    while first < g.batch {
        let cnt = chunk.min(g.batch - first);
        // SAFETY: as in `staged`.
        unsafe {
            upload(ch, &mut host, ws + oa as u64, cnt, sa, |i, dst| pack(g.a.matrix(first + i), g.lda, n, n, dst))?;
            upload(ch, &mut host, ws + or as u64, cnt, n, |i, dst| pack(g.rhs.matrix(first + i), n, n, 1, dst))?;
            ch.htod(ws + oi as u64, g.ipiv.add(first * n) as *const c_void, cnt * n * 4)?;
            ch.htod(ws + oj as u64, g.jpiv.add(first * n) as *const c_void, cnt * n * 4)?;
            run(ch, KBatch::strided(ws + oa as u64, sa), n, KBatch::strided(ws + or as u64, n), ws + oi as u64, ws + oj as u64, ws + os as u64, cnt)?;
            ch.dtoh(g.scale.add(first) as *mut c_void, ws + os as u64, cnt * rsize)?;
            download(ch, &mut host, ws + or as u64, cnt, n, |i, src| unpack(src, n, 1, g.rhs.matrix(first + i), n))?;
        }
        first += cnt;
    }
    Ok(())
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
    }
}
