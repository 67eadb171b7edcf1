//! CUDA backend of LiFE: the plan's layout copied to device memory once ([`upload`]), the
//! products and the SBBNNLS steps as kernels of `kernels/life.cu` through the staging engine
//! (D, w, Y and b as a batch of one: host arrays are staged, device arrays launched on). DSC
//! takes a warp per voxel (the seed's voxel partitioning on voxel-sorted Φ); WC computes each
//! entry's term with a warp per voxel (Y[:, v] read once per voxel rather than once per
//! entry), then sums each fibre's terms with a warp per fibre (each weight one warp's, so no
//! atomics); four warps per block. The terms take nnz doubles of the handle's workspace.
//! SBBNNLS keeps its vectors in the handle's workspace; its step lengths come from sums of
//! squares reduced over a fixed grid and added in order on the host (three small copies per
//! iteration).

use super::{iterate, Engine, Layout, LifePlan, Product, Solve, Solved};
use crate::core::batch::Batch;
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::cuda::driver::Device;
use crate::cuda::module::Module;
use crate::cuda::params::{grid, KScalar};
use crate::cuda::staging::{Dir, Operand, Stage};
use crate::cuda::CudaHandle;
use crate::spmv::cuda::alloc_copy;
use cudarc::driver::sys as cu;
use std::ffi::c_void;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../kernels/life.cu");

/// The source the kernels are compiled from (for the compile check).
pub fn source() -> &'static str {
    SOURCE
}

/// The kernels: `dsc`, `wc_part`, `wc_sum`, `project`, `step`, `sumsq`.
pub const KERNELS: [&str; 6] = ["dsc", "wc_part", "wc_sum", "project", "step", "sumsq"];

/// The defines and entry point of kernel `kind` (one of [`KERNELS`]), in double.
pub fn specialise(kind: &str) -> (Vec<String>, String) {
    (vec!["NG_T=double".to_string(), "NG_SUFFIX=f64".to_string()], format!("life_{kind}_f64"))
}

fn module(ch: &CudaHandle, kind: &str) -> Result<Arc<Module>> {
    let (defines, entry) = specialise(kind);
    ch.dev.modules.get(&ch.dev, SOURCE, &defines, &entry)
}

/// Warps per block of the products (`NG_WARPS`).
const WARPS: usize = 4;
/// Threads per block of the vector kernels (`NG_THREADS`).
const THREADS: usize = 256;
/// Blocks of `life_sumsq`: fixed, so a sum's order does not depend on the device.
const SUM_BLOCKS: usize = 256;
/// Resident blocks per SM the grid-stride vector kernels launch.
const BLOCKS_PER_SM: usize = 8;

/// A plan's layout in device memory, owned (freed on drop, after the device is idle).
pub struct LifeDevice {
    pub dev: Arc<Device>,
    pub vox_ptr: u64,
    pub dsc_atom: u64,
    pub dsc_fib: u64,
    pub dsc_val: u64,
    pub fib_ptr: u64,
    pub wc_perm: u64,
}

// SAFETY: plain device addresses of a context usable from any thread.
unsafe impl Send for LifeDevice {}
unsafe impl Sync for LifeDevice {}

impl Drop for LifeDevice {
    fn drop(&mut self) {
        if self.dev.bind().is_err() {
            return;
        }
        // SAFETY: the buffers came from `alloc_copy` and are not used once the device is idle.
        unsafe {
            cu::cuCtxSynchronize();
            for p in [self.vox_ptr, self.dsc_atom, self.dsc_fib, self.dsc_val, self.fib_ptr, self.wc_perm] {
                if p != 0 {
                    cu::cuMemFree_v2(p);
                }
            }
        }
    }
}

/// The layout copied to the handle's device.
pub fn upload(ch: &mut CudaHandle, l: &Layout) -> Result<LifeDevice> {
    ch.bind()?;
    // Filled one by one: on an error, drop frees what was allocated.
    let mut d = LifeDevice { dev: ch.dev.clone(), vox_ptr: 0, dsc_atom: 0, dsc_fib: 0, dsc_val: 0, fib_ptr: 0, wc_perm: 0 };
    d.vox_ptr = alloc_copy(ch, &l.vox_ptr)?;
    d.dsc_atom = alloc_copy(ch, &l.dsc_atom)?;
    d.dsc_fib = alloc_copy(ch, &l.dsc_fib)?;
    d.dsc_val = alloc_copy(ch, &l.dsc_val)?;
    d.fib_ptr = alloc_copy(ch, &l.fib_ptr)?;
    d.wc_perm = alloc_copy(ch, &l.wc_perm)?;
    Ok(d)
}

/// An `rows × cols` matrix (leading dimension ld) as a batch of one.
fn matrix(dir: Dir, p: *const f64, rows: usize, cols: usize, ld: usize) -> Operand {
    Operand::matrix(dir, &Batch::Strided { ptr: p, stride: 0 }, rows, cols, ld)
}

/// Enqueues DSC: Y := beta·Y + M·w − B (B = 0: none), on device addresses.
#[allow(clippy::too_many_arguments)]
fn dsc(ch: &CudaHandle, p: &LifePlan, dv: &LifeDevice, d: u64, ldd: usize, w: u64, beta: f64, b: u64, ldb: usize, y: u64, ldy: usize) -> Result<()> {
    let m = module(ch, "dsc")?;
    let (nvox, nt, ldd, ldb, ldy, beta) = (p.nvoxels as i64, p.ntheta as i32, ldd as i64, ldb as i64, ldy as i64, KScalar(beta));
    let l = ch.launch(&m).arg(&nvox).arg(&nt).arg(&dv.vox_ptr).arg(&dv.dsc_atom).arg(&dv.dsc_fib).arg(&dv.dsc_val).arg(&d).arg(&ldd);
    // SAFETY: the argument list of life_dsc_f64 in life.cu; a warp per voxel (nvox < 2^31, so
    // the grid fits), the layout built for these sizes, D, w, B and Y covering their extents.
    unsafe { l.arg(&w).arg(&beta).arg(&b).arg(&ldb).arg(&y).arg(&ldy).run(grid(p.nvoxels.div_ceil(WARPS) as i64), (32 * WARPS) as u32, 0) }
}

/// Enqueues WC: w := beta·w + Mᵀ·Y, on device addresses: the entries' terms into `part` (nnz
/// elements), then the sums by fibre.
#[allow(clippy::too_many_arguments)]
fn wc(ch: &CudaHandle, p: &LifePlan, dv: &LifeDevice, d: u64, ldd: usize, y: u64, ldy: usize, beta: f64, w: u64, part: u64) -> Result<()> {
    let m = module(ch, "wc_part")?;
    let (nvox, nt, ldd, ldy) = (p.nvoxels as i64, p.ntheta as i32, ldd as i64, ldy as i64);
    let l = ch.launch(&m).arg(&nvox).arg(&nt).arg(&dv.vox_ptr).arg(&dv.dsc_atom).arg(&dv.dsc_val).arg(&d).arg(&ldd).arg(&y).arg(&ldy).arg(&part);
    // SAFETY: the argument list of life_wc_part_f64 in life.cu; a warp per voxel (nvox < 2^31),
    // part holding the plan's nnz terms.
    unsafe { l.run(grid(p.nvoxels.div_ceil(WARPS) as i64), (32 * WARPS) as u32, 0)? };
    let m = module(ch, "wc_sum")?;
    let (nfib, beta) = (p.nfibers as i64, KScalar(beta));
    let l = ch.launch(&m).arg(&nfib).arg(&dv.fib_ptr).arg(&dv.wc_perm).arg(&part).arg(&beta).arg(&w);
    // SAFETY: the argument list of life_wc_sum_f64; a warp per fibre (nfib < 2^31), after the
    // terms on the same stream.
    unsafe { l.run(grid(p.nfibers.div_ceil(WARPS) as i64), (32 * WARPS) as u32, 0) }
}

/// Blocks of a grid-stride vector kernel over n elements.
fn vector_blocks(ch: &CudaHandle, n: usize) -> (u32, u32, u32) {
    grid(n.div_ceil(THREADS).min(ch.dev.sm_count.max(1) as usize * BLOCKS_PER_SM) as i64)
}

/// DSC through the staging engine (see [`super::mw`]).
///
/// # Safety
/// A validated call whose arrays are in `space`.
pub unsafe fn mw(ch: &mut CudaHandle, p: &LifePlan, dv: &LifeDevice, pr: &Product, space: Space) -> Result<()> {
    ch.bind()?;
    let w = if p.nnz > 0 { Operand::vector(Dir::In, pr.w as *const f64, 0, p.nfibers) } else { Operand::absent() };
    let ydir = if pr.beta == 0.0 { Dir::Out } else { Dir::InOut };
    let stage = Stage::new(space, 1).op(matrix(Dir::In, pr.d, p.ntheta, p.natoms, pr.ldd)).op(w).op(matrix(ydir, pr.y, p.ntheta, p.nvoxels, pr.ldy));
    stage.run(ch, |ch, k| dsc(ch, p, dv, k[0].ptr(), k[0].ld, k[1].ptr(), pr.beta, 0, 1, k[2].ptr(), k[2].ld))
}

/// WC through the staging engine (see [`super::mty`]).
///
/// # Safety
/// As [`mw`].
pub unsafe fn mty(ch: &mut CudaHandle, p: &LifePlan, dv: &LifeDevice, pr: &Product, space: Space) -> Result<()> {
    ch.bind()?;
    let wdir = if pr.beta == 0.0 { Dir::Out } else { Dir::InOut };
    let stage = Stage::new(space, 1)
        .op(matrix(Dir::In, pr.d, p.ntheta, p.natoms, pr.ldd))
        .op(matrix(Dir::In, pr.y, p.ntheta, p.nvoxels, pr.ldy))
        .op(Operand::vector(wdir, pr.w, 0, p.nfibers))
        .op(Operand::scratch_once::<f64>(p.nnz));
    stage.run(ch, |ch, k| wc(ch, p, dv, k[0].ptr(), k[0].ld, k[1].ptr(), k[1].ld, pr.beta, k[2].ptr(), k[3].ptr()))
}

/// SBBNNLS's vectors on the device (addresses in the staged call): D, b and w are the
/// caller's (or their staged copies), r and v are Nθ × Nv (leading dimension Nθ), g, g̃ and u
/// have Nf entries, `partial` SUM_BLOCKS sums, `part` WC's nnz terms.
struct Dev<'a> {
    ch: &'a CudaHandle,
    p: &'a LifePlan,
    dv: &'a LifeDevice,
    d: u64,
    ldd: usize,
    b: u64,
    ldb: usize,
    w: u64,
    r: u64,
    v: u64,
    g: u64,
    gt: u64,
    u: u64,
    partial: u64,
    part: u64,
}

impl Dev<'_> {
    fn signal_ld(&self) -> usize {
        self.p.ntheta.max(1)
    }

    /// Σ x² of n elements at x: fixed-grid partials, added in order here.
    fn sumsq(&self, x: u64, n: usize) -> Result<f64> {
        let m = module(self.ch, "sumsq")?;
        let n_ = n as i64;
        // SAFETY: the argument list of life_sumsq_f64; x holds n elements, partial SUM_BLOCKS.
        unsafe { self.ch.launch(&m).arg(&n_).arg(&x).arg(&self.partial).run((SUM_BLOCKS as u32, 1, 1), THREADS as u32, 0)? };
        let mut host = vec![0.0f64; SUM_BLOCKS];
        // SAFETY: `partial` holds SUM_BLOCKS doubles, written by the launch above on this
        // stream; the copy is complete after the synchronisation.
        unsafe {
            self.ch.dtoh(host.as_mut_ptr() as *mut c_void, self.partial, SUM_BLOCKS * size_of::<f64>())?;
        }
        self.ch.synchronize()?;
        Ok(host.iter().sum())
    }
}

impl Engine for Dev<'_> {
    fn residual(&mut self) -> Result<()> {
        dsc(self.ch, self.p, self.dv, self.d, self.ldd, self.w, 0.0, self.b, self.ldb, self.r, self.signal_ld())
    }
    fn gradient(&mut self) -> Result<f64> {
        wc(self.ch, self.p, self.dv, self.d, self.ldd, self.r, self.signal_ld(), 0.0, self.g, self.part)?;
        let m = module(self.ch, "project")?;
        let n = self.p.nfibers as i64;
        // SAFETY: the argument list of life_project_f64; w, g and gt hold Nf elements.
        unsafe { self.ch.launch(&m).arg(&n).arg(&self.w).arg(&self.g).arg(&self.gt).run(vector_blocks(self.ch, self.p.nfibers), THREADS as u32, 0)? };
        self.sumsq(self.gt, self.p.nfibers)
    }
    fn m_gt(&mut self) -> Result<f64> {
        dsc(self.ch, self.p, self.dv, self.d, self.ldd, self.gt, 0.0, 0, 1, self.v, self.signal_ld())?;
        self.sumsq(self.v, self.p.ntheta * self.p.nvoxels)
    }
    fn mt_v(&mut self) -> Result<f64> {
        wc(self.ch, self.p, self.dv, self.d, self.ldd, self.v, self.signal_ld(), 0.0, self.u, self.part)?;
        self.sumsq(self.u, self.p.nfibers)
    }
    fn step(&mut self, alpha: f64) -> Result<()> {
        let m = module(self.ch, "step")?;
        let (n, alpha) = (self.p.nfibers as i64, KScalar(alpha));
        // SAFETY: the argument list of life_step_f64; gt and w hold Nf elements.
        unsafe { self.ch.launch(&m).arg(&n).arg(&alpha).arg(&self.gt).arg(&self.w).run(vector_blocks(self.ch, self.p.nfibers), THREADS as u32, 0) }
    }
    fn residual_norm2(&mut self) -> Result<f64> {
        self.sumsq(self.r, self.p.ntheta * self.p.nvoxels)
    }
}

/// SBBNNLS through the staging engine (see [`super::sbbnnls`]): the whole iteration runs in
/// one staged call, its vectors in the call's scratch.
///
/// # Safety
/// As [`mw`].
pub unsafe fn sbbnnls(ch: &mut CudaHandle, p: &LifePlan, dv: &LifeDevice, s: &Solve, space: Space) -> Result<Solved> {
    ch.bind()?;
    let (nt, nv, nf) = (p.ntheta, p.nvoxels, p.nfibers);
    let stage = Stage::new(space, 1)
        .op(matrix(Dir::In, s.d, nt, p.natoms, s.ldd))
        .op(matrix(Dir::In, s.b, nt, nv, s.ldb))
        .op(Operand::vector(Dir::InOut, s.w, 0, nf))
        .op(Operand::scratch_once::<f64>(nt * nv))
        .op(Operand::scratch_once::<f64>(nt * nv))
        .op(Operand::scratch_once::<f64>(nf))
        .op(Operand::scratch_once::<f64>(nf))
        .op(Operand::scratch_once::<f64>(nf))
        .op(Operand::scratch_once::<f64>(SUM_BLOCKS))
        .op(Operand::scratch_once::<f64>(p.nnz));
    let mut out = None;
    stage.run(ch, |ch, k| {
        let mut e = Dev { ch, p, dv, d: k[0].ptr(), ldd: k[0].ld, b: k[1].ptr(), ldb: k[1].ld, w: k[2].ptr(), r: k[3].ptr(), v: k[4].ptr(), g: k[5].ptr(), gt: k[6].ptr(), u: k[7].ptr(), partial: k[8].ptr(), part: k[9].ptr() };
        // g̃ is read by the first step (alpha = 0) only through `alpha != 0`: not at all.
        out = Some(iterate(&mut e, s)?);
        Ok(())
    })?;
    Ok(out.expect("a batch of one runs its closure once"))
}
