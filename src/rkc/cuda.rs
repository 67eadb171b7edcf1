//! CUDA backend: `kernels/rkc.cu` compiled by NVRTC after the ODE's CUDA source, with NEQ and
//! NPAR as defines (a module per source, sizes and method, in the device's module cache), one
//! thread per system, persistent threads taking systems from a counter in the workspace.
//! The arrays go through the staging engine: device arrays to the kernel as they are (either
//! layout, any leading dimension), host arrays staged in chunks of systems in the caller's
//! layout (system-major compact, equation-major interleaved).

use super::{numgpu_rkc_stat, state_len, stats_len, Integrate, Layout, Method, Ode, Settings};
use crate::core::handle::numgpu_backend;
use crate::core::batch::RawPtr;
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::cuda::params::grid;
use crate::cuda::staging::{Chunk, Dir, Operand, Stage, View};
use crate::cuda::{CudaHandle, Module};
use cudarc::driver::safe::DeviceRepr;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../kernels/rkc.cu");

/// Threads per block: small blocks, so that blocks of systems that finish early free their
/// multiprocessor slots sooner.
const THREADS: usize = 64;

/// The program NVRTC compiles for an ODE source: the user's text (its own file name in the
/// log), then the integrator.
pub fn program(ode_source: &str) -> String {
    format!("#line 1 \"numgpu_rhs.cu\"\n{ode_source}\n#line 1 \"rkc.cu\"\n{SOURCE}")
}

/// The defines and entry point of the integrator for `neq` equations, `npar` parameters,
/// `method`, with or without the source's `numgpu_spcrad`.
pub fn specialise(neq: usize, npar: usize, method: Method, has_spcrad: bool) -> (Vec<String>, String) {
    let mut defines = vec![
        format!("NEQ={neq}"),
        format!("NPAR={npar}"),
        format!("NG_THREADS={THREADS}"),
        format!("NG_HAS_SPCRAD={}", has_spcrad as i32),
        format!("NG_NSTATS={}", stats_len()),
        format!("NG_STAT_BACKEND={}", numgpu_rkc_stat::NUMGPU_RKC_STAT_BACKEND as i32),
        format!("NG_BACKEND_CUDA={}", numgpu_backend::NUMGPU_BACKEND_CUDA as i32),
    ];
    let entry = match method {
        Method::Rkc => "rkc_integrate",
        Method::Rkck => {
            defines.push("NG_RKCK=1".into());
            "rkck_integrate"
        }
    };
    (defines, entry.to_string())
}

/// The compiled integrator of `ode` for `method` on the handle's device (compiled on first
/// use: `COMPILE_FAILED` with NVRTC's log when the source does not compile).
pub fn module(ch: &CudaHandle, ode: &Ode, method: Method) -> Result<Arc<Module>> {
    let src = ode.source.as_deref().ok_or_else(|| {
        Error::not_supported("the ODE has no CUDA source (cuda_source was NULL at numgpu_ode_create), which the CUDA backend needs")
    })?;
    let (defines, entry) = specialise(ode.neq, ode.npar, method, ode.device_spcrad);
    ch.dev.modules.get_runtime(&ch.dev, &program(src), &defines, &entry)
}

/// `ng_rkc_args` of kernels/rkc.cu (its array fields are `Arrays`, in order).
#[repr(C)]
#[derive(Clone, Copy)]
struct KArgs {
    t0: f64,
    tend: f64,
    rtol: f64,
    h0: f64,
    hmax: f64,
    arrays: Arrays,
    nsys: i64,
    ldy: i64,
    ldp: i64,
    max_steps: i64,
    mmax: i64,
    natol: i32,
    layout: i32,
    user_sigma: i32,
    constant: i32,
}

// SAFETY: repr(C) plain data, the layout of `ng_rkc_args`.
unsafe impl DeviceRepr for KArgs {}

/// Device arrays of a launch (0 for an absent state, stats or P).
#[repr(C)]
#[derive(Clone, Copy)]
struct Arrays {
    y: u64,
    p: u64,
    atol: u64,
    state: u64,
    status: u64,
    stats: u64,
    next: u64,
}

/// `len` values per system in `layout` with leading dimension `ld`; equation-major values
/// are staged interleaved, so that the kernel reads host and device arrays in one layout.
fn per_system<P: RawPtr<Elem = f64>>(dir: Dir, ptr: P, len: usize, ld: usize, layout: Layout) -> Operand {
    let (between_equations, between_systems) = layout.steps(ld);
    let o = Operand::vector(dir, ptr, between_systems, len).row_step(between_equations);
    match layout {
        Layout::SystemMajor => o,
        Layout::EquationMajor => o.interleaved(),
    }
}

/// The leading dimension of a [`per_system`] view in `layout`.
fn ld(v: &View, layout: Layout) -> i64 {
    match layout {
        Layout::SystemMajor => v.stride as i64,
        Layout::EquationMajor => v.row_step as i64,
    }
}

/// `o`, or an absent operand where the caller passed NULL.
fn unless_null<E>(ptr: *const E, o: Operand) -> Operand {
    if ptr.is_null() {
        Operand::absent()
    } else {
        o
    }
}

/// The CUDA backend of [`super::rkc_integrate`].
pub fn integrate(ch: &mut CudaHandle, c: &Integrate, space: Space) -> Result<()> {
    ch.bind()?;
    let s = Settings::new(&c.opts, c.rtol, c.ode.device_spcrad, "the ODE's CUDA source defines no numgpu_spcrad")?;
    let m = module(ch, c.ode, c.opts.method)?;
    let (neq, npar) = (c.ode.neq, c.ode.npar);
    let p = if npar == 0 { Operand::absent() } else { per_system(Dir::In, c.p, npar, c.ldp, c.layout) };
    // Operands in the order `launch` reads them.
    let stage = Stage::new(space, c.nsys)
        .op(per_system(Dir::InOut, c.y, neq, c.ldy, c.layout))
        .op(p)
        .op(Operand::vector(Dir::In, c.atol, 0, c.natol))
        .op(unless_null(c.state, Operand::vector(Dir::InOut, c.state, state_len(neq), state_len(neq))))
        .op(Operand::vector(Dir::Out, c.status, 1, 1))
        .op(unless_null(c.stats, Operand::vector(Dir::Out, c.stats, stats_len(), stats_len())))
        .op(Operand::scratch_once::<u64>(1));
    // SAFETY: the operands are the validated call's arrays in `space`; the kernel integrates
    // the chunk's systems only.
    unsafe { stage.run(ch, |ch, k| launch(ch, &m, c, &s, k)) }
}

/// Integrates the chunk's systems: clears the work counter, then one launch.
fn launch(ch: &CudaHandle, m: &Module, c: &Integrate, s: &Settings, k: &Chunk) -> Result<()> {
    let arrays = Arrays { y: k[0].ptr(), p: k[1].ptr(), atol: k[2].ptr(), state: k[3].ptr(), status: k[4].ptr(), stats: k[5].ptr(), next: k[6].ptr() };
    // SAFETY: `next` is the call's 8 bytes of scratch, used by this chunk's launch only.
    unsafe { ch.zero(arrays.next, 8)? };
    let args = KArgs {
        t0: c.t0,
        tend: c.tend,
        rtol: c.rtol,
        h0: s.h0,
        hmax: s.hmax,
        arrays,
        nsys: k.count as i64,
        ldy: ld(&k[0], c.layout),
        ldp: ld(&k[1], c.layout),
        max_steps: s.max_steps.min(i64::MAX as u64) as i64,
        mmax: s.mmax.min(i64::MAX as usize) as i64,
        natol: c.natol as i32,
        layout: c.layout as i32,
        user_sigma: s.user_sigma as i32,
        constant: s.constant as i32,
    };
    let blocks = k.count.div_ceil(THREADS).min(ch.dev.sm_count.max(1) as usize * 64);
    // SAFETY: `rkc_integrate` / `rkck_integrate` of rkc.cu on the chunk's views, with the
    // counter cleared above on the same stream.
    unsafe { ch.launch(m).arg(&args).run(grid(blocks as i64), THREADS as u32, 0) }
}
