//! CUDA backend: launches the kernels of `kernels/geqrf_givens.cu` (the factorisation with a
//! warp, or part of one, per matrix up to n = 32 and a block per matrix beyond, in shared
//! memory as far as the matrix and its cosines fit; a thread per vector for ormqr and gels' solve; a block per
//! matrix for orgqr), staging host arrays through the workspace in chunks.

use super::{Gels, Geqrf, Orgqr, Ormqr};
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::core::{Op, Scalar, Side};
use crate::cuda::params::{arg, grid, KBatch};
use crate::cuda::legacy::{chunk_len, download, pack, unpack, upload, Layout};
use crate::cuda::CudaHandle;
use num_traits::Zero;
use std::ffi::c_void;
use std::mem::size_of;

const SOURCE: &str = include_str!("../../kernels/geqrf_givens.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// Threads of a block of the replay kernels (ormqr, orgqr, gels' solve).
const BLOCK_THREADS: usize = 128;

/// Threads of the factorisation's block per matrix (n > 32): beyond one per column, the
/// spare threads share the columns' rotations.
const FACTOR_BLOCK_THREADS: usize = 256;

/// What the factorisation keeps in shared memory (the rest is worked on in global memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Staging {
    Global = 0,
    Matrix = 1,
    MatrixAndCosines = 2,
}

/// How a factorisation of `m × n` matrices runs: `g` threads per matrix (a power of two up
/// to 32, or a whole block), `mpb` matrices per block, and what sits in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub g: usize,
    pub mpb: usize,
    pub staging: Staging,
}

impl Plan {
    /// Dynamic shared memory per block, in bytes: per matrix, the step's sines and cosines,
    /// then the matrix and its cosines as staged, with an odd leading dimension.
    fn smem_bytes<T: Scalar>(&self, m: usize, n: usize) -> usize {
        let elem = match self.staging {
            Staging::Global => 0,
            Staging::Matrix => size_of::<T>(),
            Staging::MatrixAndCosines => size_of::<T>() + size_of::<T::Real>(),
        };
        self.mpb * (2 * n * size_of::<T>() + (m | 1) * n * elem)
    }
}

/// The first plan that fits `max_smem`: everything in shared memory with several matrices
/// per block, then one matrix per block, then the matrix alone, then nothing.
pub fn plan<T: Scalar>(m: usize, n: usize, max_smem: usize) -> Plan {
    let (g, mpb) = if n <= 32 {
        let g = n.next_power_of_two();
        (g, BLOCK_THREADS / g)
    } else {
        (FACTOR_BLOCK_THREADS, 1)
    };
    let candidates = [(mpb, Staging::MatrixAndCosines), (1, Staging::MatrixAndCosines), (mpb, Staging::Matrix), (1, Staging::Matrix)];
    candidates
        .iter()
        .map(|&(mpb, staging)| Plan { g, mpb, staging })
        .find(|p| p.smem_bytes::<T>(m, n) <= max_smem)
        .unwrap_or(Plan { g, mpb, staging: Staging::Global })
}

fn base_defines<T: Scalar>(kind: &str) -> Vec<String> {
    vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), format!("NG_{}=1", kind.to_uppercase())]
}

/// The defines and entry point of a factorisation plan.
pub fn specialise<T: Scalar>(p: Plan) -> (Vec<String>, String) {
    let mut d = base_defines::<T>("geqrf");
    d.extend([format!("NG_G={}", p.g), format!("NG_MPB={}", p.mpb), format!("NG_SMEM={}", p.staging as i32)]);
    (d, format!("geqrf_{}", T::SUFFIX))
}

/// The defines and entry point of the other kernels: `ormqr`, `orgqr`, `gels_solve`.
pub fn specialise_kernel<T: Scalar>(kind: &str) -> (Vec<String>, String) {
    (base_defines::<T>(kind), format!("{kind}_{}", T::SUFFIX))
}

/// `b` without its first `first` matrices.
fn advance<T>(b: KBatch, first: usize) -> KBatch {
    if b.array != 0 {
        KBatch { array: b.array + (first * size_of::<u64>()) as u64, ..b }
    } else {
        KBatch { base: b.base.wrapping_add((first as i64 * b.stride) as u64 * size_of::<T>() as u64), ..b }
    }
}

fn ptr<P: crate::core::batch::RawPtr>(p: P) -> u64 {
    p.addr() as u64
}

/// Enqueues the factorisation of a batch in device memory.
#[allow(clippy::too_many_arguments)]
fn launch_geqrf<T: Scalar>(ch: &CudaHandle, m: usize, n: usize, a: KBatch, lda: usize, cs: KBatch, ldcs: usize, batch: usize) -> Result<()> {
    let p = plan::<T>(m, n, ch.dev.max_smem_optin);
    let (defines, entry) = specialise::<T>(p);
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (mut m_, mut n_, mut a, mut lda, mut cs, mut ldcs, mut batch_, mut ldm) = (m as i32, n as i32, a, lda as i64, cs, ldcs as i64, batch as i64, (m | 1) as i32);
    let mut params = [arg(&mut m_), arg(&mut n_), arg(&mut a), arg(&mut lda), arg(&mut cs), arg(&mut ldcs), arg(&mut batch_), arg(&mut ldm)];
    // SAFETY: matches geqrf_<T>(int m, int n, ng_batch<T> A, ng_i64 lda, ng_batch<R> CS,
    // ng_i64 ldcs, ng_i64 batch, int ldm).
    unsafe { ch.launch_params(&module, grid(batch.div_ceil(p.mpb) as i64), (p.g * p.mpb) as u32, p.smem_bytes::<T>(m, n) as u32, &mut params) }
}

/// Enqueues `op(Q)·C` or `C·op(Q)` for a batch in device memory.
#[allow(clippy::too_many_arguments)]
fn launch_ormqr<T: Scalar>(ch: &CudaHandle, o: &Ormqr<T>, a: KBatch, cs: KBatch, c: KBatch, batch: usize) -> Result<()> {
    let (defines, entry) = specialise_kernel::<T>("ormqr");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let left = o.side == Side::Left;
    // The serial order for Qᴴ from the left and Q from the right, else its reverse.
    let forward = left == (o.trans != Op::N);
    let (mut side, mut fwd, mut m, mut n, mut k) = ((!left) as i32, forward as i32, o.m as i64, o.n as i64, o.k as i64);
    let (mut a, mut lda, mut cs, mut ldcs, mut c, mut ldc, mut batch_) = (a, o.lda as i64, cs, o.ldcs as i64, c, o.ldc as i64, batch as i64);
    let mut params = [arg(&mut side), arg(&mut fwd), arg(&mut m), arg(&mut n), arg(&mut k), arg(&mut a), arg(&mut lda), arg(&mut cs), arg(&mut ldcs), arg(&mut c), arg(&mut ldc), arg(&mut batch_)];
    let threads = batch * if left { o.n } else { o.m };
    // SAFETY: matches ormqr_<T>(int side, int forward, ng_i64 m, ng_i64 n, ng_i64 k,
    // ng_batch<const T> A, ng_i64 lda, ng_batch<const R> CS, ng_i64 ldcs, ng_batch<T> C,
    // ng_i64 ldc, ng_i64 batch).
    unsafe { ch.launch_params(&module, grid(threads.div_ceil(BLOCK_THREADS) as i64), BLOCK_THREADS as u32, 0, &mut params) }
}

/// Enqueues the generation of Q for a batch in device memory.
fn launch_orgqr<T: Scalar>(ch: &CudaHandle, o: &Orgqr<T>, a: KBatch, cs: KBatch, batch: usize) -> Result<()> {
    let (defines, entry) = specialise_kernel::<T>("orgqr");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (mut m, mut n, mut k, mut a, mut lda, mut cs, mut ldcs, mut batch_) = (o.m as i32, o.n as i32, o.k as i32, a, o.lda as i64, cs, o.ldcs as i64, batch as i64);
    let mut params = [arg(&mut m), arg(&mut n), arg(&mut k), arg(&mut a), arg(&mut lda), arg(&mut cs), arg(&mut ldcs), arg(&mut batch_)];
    // SAFETY: matches orgqr_<T>(int m, int n, int k, ng_batch<T> A, ng_i64 lda,
    // ng_batch<const R> CS, ng_i64 ldcs, ng_i64 batch).
    unsafe { ch.launch_params(&module, grid(batch as i64), BLOCK_THREADS as u32, 0, &mut params) }
}

/// Enqueues gels' solve (after the factorisation) for a batch in device memory.
#[allow(clippy::too_many_arguments)]
fn launch_gels_solve<T: Scalar>(ch: &CudaHandle, g: &Gels<T>, a: KBatch, lda: usize, cs: KBatch, ldcs: usize, b: KBatch, ldb: usize, info: u64, batch: usize) -> Result<()> {
    let (defines, entry) = specialise_kernel::<T>("gels_solve");
    let module = ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)?;
    let (mut m, mut n, mut nrhs, mut a, mut lda, mut cs, mut ldcs) = (g.m as i64, g.n as i64, g.nrhs as i64, a, lda as i64, cs, ldcs as i64);
    let (mut b, mut ldb, mut info, mut batch_) = (b, ldb as i64, info, batch as i64);
    let mut params = [arg(&mut m), arg(&mut n), arg(&mut nrhs), arg(&mut a), arg(&mut lda), arg(&mut cs), arg(&mut ldcs), arg(&mut b), arg(&mut ldb), arg(&mut info), arg(&mut batch_)];
    let threads = batch * g.nrhs;
    // SAFETY: matches gels_solve_<T>(ng_i64 m, ng_i64 n, ng_i64 nrhs, ng_batch<const T> A,
    // ng_i64 lda, ng_batch<const R> CS, ng_i64 ldcs, ng_batch<T> B, ng_i64 ldb, int *info,
    // ng_i64 batch).
    unsafe { ch.launch_params(&module, grid(threads.div_ceil(BLOCK_THREADS) as i64), BLOCK_THREADS as u32, 0, &mut params) }
}

/// Writes the strictly lower part of the compact `m × n` CS in `src` to `dst` (the rest of
/// the caller's CS is not ours to write).
///
/// # Safety
/// `dst` covers `m × n` with leading dimension `ld`.
unsafe fn unpack_lower<R: Copy>(src: &[R], m: usize, n: usize, dst: *mut R, ld: usize) {
    for j in 0..n.min(m) {
        let rows = m - j - 1;
        std::ptr::copy_nonoverlapping(src.as_ptr().add(j * m + j + 1), dst.add(j * ld + j + 1), rows);
    }
}

pub fn geqrf<T: Scalar>(ch: &mut CudaHandle, f: &Geqrf<T>, space: Space) -> Result<()> {
    ch.bind()?;
    if space == Space::Device {
        return launch_geqrf::<T>(ch, f.m, f.n, KBatch::of(&f.a), f.lda, KBatch::of(&f.cs), f.ldcs, f.batch);
    }
    let (m, n, mn) = (f.m, f.n, f.m * f.n);
    let chunk = chunk_len(mn * (size_of::<T>() + size_of::<T::Real>()), f.batch);
    let mut lay = Layout::default();
    let (oa, ocs) = (lay.take(chunk * mn * size_of::<T>()), lay.take(chunk * mn * size_of::<T::Real>()));
    let ws = ch.workspace(lay.bytes)?;
    let (da, dcs) = (ws + oa as u64, ws + ocs as u64);
    let mut host = vec![T::zero(); chunk * mn];
    let mut host_cs = vec![T::Real::zero(); chunk * mn];
    let mut first = 0;
    while first < f.batch {
        let cnt = chunk.min(f.batch - first);
        // SAFETY: the host matrices cover their validated extents; the device regions were
        // sized for `chunk` matrices; every copy back is synchronised.
        unsafe {
            upload(ch, &mut host, da, cnt, mn, |i, dst| pack(f.a.matrix(first + i), f.lda, m, n, dst))?;
            launch_geqrf::<T>(ch, m, n, KBatch::strided(da, mn), m, KBatch::strided(dcs, mn), m, cnt)?;
            download(ch, &mut host, da, cnt, mn, |i, src| unpack(src, m, n, f.a.matrix(first + i), f.lda))?;
            download(ch, &mut host_cs, dcs, cnt, mn, |i, src| unpack_lower(src, m, n, f.cs.matrix(first + i), f.ldcs))?;
        }
        first += cnt;
    }
    Ok(())
}

pub fn ormqr<T: Scalar>(ch: &mut CudaHandle, o: &Ormqr<T>, space: Space) -> Result<()> {
    ch.bind()?;
    if space == Space::Device {
        return launch_ormqr(ch, o, KBatch::of(&o.a), KBatch::of(&o.cs), KBatch::of(&o.c), o.batch);
    }
    let nq = if o.side == Side::Left { o.m } else { o.n };
    let (sq, sc) = (nq * o.k, o.m * o.n);
    let chunk = chunk_len(sq * (size_of::<T>() + size_of::<T::Real>()) + sc * size_of::<T>(), o.batch);
    let mut lay = Layout::default();
    let (oa, ocs, oc) = (lay.take(chunk * sq * size_of::<T>()), lay.take(chunk * sq * size_of::<T::Real>()), lay.take(chunk * sc * size_of::<T>()));
    let ws = ch.workspace(lay.bytes)?;
    let (da, dcs, dc) = (ws + oa as u64, ws + ocs as u64, ws + oc as u64);
    let mut host = vec![T::zero(); chunk * sq.max(sc)];
    let mut host_cs = vec![T::Real::zero(); chunk * sq];
    let staged = Ormqr { lda: nq, ldcs: nq, ldc: o.m, ..*o };
    let mut first = 0;
    while first < o.batch {
        let cnt = chunk.min(o.batch - first);
        // SAFETY: as in `geqrf`.
        unsafe {
            upload(ch, &mut host, da, cnt, sq, |i, dst| pack(o.a.matrix(first + i), o.lda, nq, o.k, dst))?;
            upload(ch, &mut host_cs, dcs, cnt, sq, |i, dst| pack(o.cs.matrix(first + i), o.ldcs, nq, o.k, dst))?;
            upload(ch, &mut host, dc, cnt, sc, |i, dst| pack(o.c.matrix(first + i), o.ldc, o.m, o.n, dst))?;
            launch_ormqr(ch, &staged, KBatch::strided(da, sq), KBatch::strided(dcs, sq), KBatch::strided(dc, sc), cnt)?;
            download(ch, &mut host, dc, cnt, sc, |i, src| unpack(src, o.m, o.n, o.c.matrix(first + i), o.ldc))?;
        }
        first += cnt;
    }
    Ok(())
}

pub fn orgqr<T: Scalar>(ch: &mut CudaHandle, o: &Orgqr<T>, space: Space) -> Result<()> {
    ch.bind()?;
    if space == Space::Device {
        let cs = if o.k > 0 { KBatch::of(&o.cs) } else { KBatch::strided(0, 0) };
        return launch_orgqr(ch, o, KBatch::of(&o.a), cs, o.batch);
    }
    let (sa, sq) = (o.m * o.n, o.m * o.k);
    let chunk = chunk_len(sa * size_of::<T>() + sq * size_of::<T::Real>(), o.batch);
    let mut lay = Layout::default();
    let (oa, ocs) = (lay.take(chunk * sa * size_of::<T>()), lay.take(chunk * sq * size_of::<T::Real>()));
    let ws = ch.workspace(lay.bytes)?;
    let (da, dcs) = (ws + oa as u64, ws + ocs as u64);
    let mut host = vec![T::zero(); chunk * sa];
    let mut host_cs = vec![T::Real::zero(); chunk * sq];
    let staged = Orgqr { lda: o.m, ldcs: o.m, ..*o };
    let mut first = 0;
    while first < o.batch {
        let cnt = chunk.min(o.batch - first);
        // SAFETY: as in `geqrf`; CS is read only when k > 0.
        unsafe {
            upload(ch, &mut host, da, cnt, sa, |i, dst| pack(o.a.matrix(first + i), o.lda, o.m, o.n, dst))?;
            upload(ch, &mut host_cs, dcs, cnt, sq, |i, dst| pack(o.cs.matrix(first + i), o.ldcs, o.m, o.k, dst))?;
            launch_orgqr(ch, &staged, KBatch::strided(da, sa), KBatch::strided(dcs, sq), cnt)?;
            download(ch, &mut host, da, cnt, sa, |i, src| unpack(src, o.m, o.n, o.a.matrix(first + i), o.lda))?;
        }
        first += cnt;
    }
    Ok(())
}

/// gels: the factorisation with its cosines in the workspace, then the solve, in chunks that
/// fit the workspace; host arrays go through it too (A, B, info).
pub fn gels<T: Scalar>(ch: &mut CudaHandle, g: &Gels<T>, space: Space) -> Result<()> {
    ch.bind()?;
    let host_side = space == Space::Host;
    let (m, n, mn, sb) = (g.m, g.n, g.m * g.n, g.m * g.nrhs);
    let staged_bytes = if host_side { mn * size_of::<T>() + sb * size_of::<T>() + 4 } else { 0 };
    let chunk = chunk_len(mn * size_of::<T::Real>() + staged_bytes, g.batch);
    let mut lay = Layout::default();
    let ocs = lay.take(chunk * mn * size_of::<T::Real>());
    let (oa, ob, oinfo) = if host_side { (lay.take(chunk * mn * size_of::<T>()), lay.take(chunk * sb * size_of::<T>()), lay.take(chunk * 4)) } else { (0, 0, 0) };
    let ws = ch.workspace(lay.bytes)?;
    let dcs = KBatch::strided(ws + ocs as u64, mn);
    let mut host = vec![T::zero(); if host_side { chunk * mn.max(sb) } else { 0 }];
    let mut first = 0;
    while first < g.batch {
        let cnt = chunk.min(g.batch - first);
        // SAFETY: as in `geqrf`; device arrays cover the validated batch, and `advance`
        // stays inside it.
        unsafe {
            if host_side {
                let (da, db, dinfo) = (ws + oa as u64, ws + ob as u64, ws + oinfo as u64);
                upload(ch, &mut host, da, cnt, mn, |i, dst| pack(g.a.matrix(first + i), g.lda, m, n, dst))?;
                upload(ch, &mut host, db, cnt, sb, |i, dst| pack(g.b.matrix(first + i), g.ldb, m, g.nrhs, dst))?;
                launch_geqrf::<T>(ch, m, n, KBatch::strided(da, mn), m, dcs, m, cnt)?;
                launch_gels_solve(ch, g, KBatch::strided(da, mn), m, dcs, m, KBatch::strided(db, sb), m, dinfo, cnt)?;
                download(ch, &mut host, da, cnt, mn, |i, src| unpack(src, m, n, g.a.matrix(first + i), g.lda))?;
                download(ch, &mut host, db, cnt, sb, |i, src| unpack(src, m, g.nrhs, g.b.matrix(first + i), g.ldb))?;
                ch.dtoh(g.info.add(first) as *mut c_void, dinfo, cnt * 4)?;
                ch.synchronize()?;
            } else {
                let (a, b) = (advance::<T>(KBatch::of(&g.a), first), advance::<T>(KBatch::of(&g.b), first));
                launch_geqrf::<T>(ch, m, n, a, g.lda, dcs, m, cnt)?;
                launch_gels_solve(ch, g, a, g.lda, dcs, m, b, g.ldb, ptr(g.info.add(first)), cnt)?;
            }
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
    fn plans_by_shape() {
        let big = 227 << 10;
        let plan_of = |g, mpb, staging| Plan { g, mpb, staging };
        assert_eq!(plan::<f32>(4, 4, big), plan_of(4, 32, Staging::MatrixAndCosines));
        assert_eq!(plan::<f64>(64, 32, big), plan_of(32, 4, Staging::MatrixAndCosines));
        assert_eq!(plan::<f32>(128, 128, big), plan_of(256, 1, Staging::MatrixAndCosines));
        assert_eq!(plan::<f64>(128, 128, big), plan_of(256, 1, Staging::Matrix));
        assert_eq!(plan::<Complex64>(128, 128, big), plan_of(256, 1, Staging::Global));
        assert_eq!(plan::<Complex64>(64, 32, 64 << 10), plan_of(32, 1, Staging::MatrixAndCosines));
        assert_eq!(specialise::<f32>(plan::<f32>(8, 8, big)).1, "geqrf_f32");
    }
}
