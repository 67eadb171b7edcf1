//! CUDA backend: `kernels/rkc.cu` compiled by NVRTC after the ODE's CUDA source, with NEQ and
//! NPAR as defines (a module per source, sizes and method, in the device's module cache), one
//! thread per system, persistent threads taking systems from a counter in the workspace.
//! Device arrays go to the kernel as they are (either layout, any leading dimension); host
//! arrays are staged through the workspace in chunks of systems, each system's values
//! contiguous (system-major, leading dimension neq).

use super::{state_len, stats_len, Integrate, Method, Ode, Settings};
use crate::core::error::{Error, Result};
use crate::core::memory::Space;
use crate::cuda::params::{arg, grid};
use crate::cuda::legacy::{chunk_len, download, upload, Layout as Regions};
use crate::cuda::{CudaHandle, Module};
use std::ffi::c_void;
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
    let mut defines = vec![format!("NEQ={neq}"), format!("NPAR={npar}"), format!("NG_THREADS={THREADS}"), format!("NG_HAS_SPCRAD={}", has_spcrad as i32)];
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

#[allow(clippy::too_many_arguments)]
fn launch(ch: &CudaHandle, m: &Module, c: &Integrate, s: &Settings, a: Arrays, nsys: usize, ldy: usize, ldp: usize, layout: i32) -> Result<()> {
    // The counter starts at 0 (a pageable source is copied before the call returns).
    let zero = 0u64;
    // SAFETY: `next` is 8 bytes of the workspace.
    unsafe { ch.htod(a.next, &zero as *const u64 as *const c_void, 8)? };
    let mut k = KArgs {
        t0: c.t0,
        tend: c.tend,
        rtol: c.rtol,
        h0: s.h0,
        hmax: s.hmax,
        arrays: a,
        nsys: nsys as i64,
        ldy: ldy as i64,
        ldp: ldp as i64,
        max_steps: s.max_steps.min(i64::MAX as u64) as i64,
        mmax: s.mmax.min(i64::MAX as usize) as i64,
        natol: c.natol as i32,
        layout,
        user_sigma: s.user_sigma as i32,
        constant: s.constant as i32,
    };
    let blocks = nsys.div_ceil(THREADS).min(ch.dev.sm_count.max(1) as usize * 64);
    let mut params = [arg(&mut k)];
    // SAFETY: matches rkc_integrate / rkck_integrate(const ng_rkc_args a); the arrays cover
    // `nsys` systems with these leading dimensions, `next` is a zeroed counter.
    unsafe { ch.launch_params(m, grid(blocks as i64), THREADS as u32, 0, &mut params) }
}

/// The CUDA backend of [`super::rkc_integrate`].
pub fn integrate(ch: &mut CudaHandle, c: &Integrate, space: Space) -> Result<()> {
    ch.bind()?;
    let s = Settings::new(&c.opts, c.rtol, c.ode.device_spcrad, "the ODE's CUDA source defines no numgpu_spcrad")?;
    let m = module(ch, c.ode, c.opts.method)?;
    let layout = c.layout as i32;
    match space {
        Space::Device => {
            let next = ch.workspace(8)?;
            let a = Arrays {
                y: c.y as u64,
                p: c.p as u64,
                atol: c.atol as u64,
                state: c.state as u64,
                status: c.status as u64,
                stats: c.stats as u64,
                next,
            };
            launch(ch, &m, c, &s, a, c.nsys, c.ldy, c.ldp, layout)
        }
        Space::Host => on_host(ch, &m, c, &s),
    }
}

/// Host arrays: chunks of systems staged through the workspace, system-major and compact.
fn on_host(ch: &mut CudaHandle, m: &Module, c: &Integrate, s: &Settings) -> Result<()> {
    let (neq, npar) = (c.ode.neq, c.ode.npar);
    let sl = if c.state.is_null() { 0 } else { state_len(neq) };
    let sn = if c.stats.is_null() { 0 } else { stats_len() };
    let per = 8 * (neq + npar + sl + sn) + 4;
    let chunk = chunk_len(per, c.nsys);
    let mut reg = Regions::default();
    let r_next = reg.take(8);
    let r_atol = reg.take(8 * c.natol);
    let r_y = reg.take(8 * neq * chunk);
    let r_p = reg.take(8 * npar * chunk);
    let r_state = reg.take(8 * sl * chunk);
    let r_status = reg.take(4 * chunk);
    let r_stats = reg.take(8 * sn * chunk);
    let base = ch.workspace(reg.bytes)?;
    let at = |off: usize| base + off as u64;
    let (ye, ys) = c.layout.steps(c.ldy);
    let (pe, ps) = c.layout.steps(c.ldp);
    let mut hf: Vec<f64> = vec![0.0; chunk * neq.max(npar).max(sl).max(c.natol)];
    let mut hi: Vec<i64> = vec![0; chunk * sn];
    let mut h32: Vec<i32> = vec![0; chunk];
    // SAFETY: every region holds what is staged into it; the host pointers of a validated
    // call cover the systems' values.
    unsafe {
        upload(ch, &mut hf, at(r_atol), 1, c.natol, |_, d| d.copy_from_slice(std::slice::from_raw_parts(c.atol, c.natol)))?;
        let mut first = 0;
        while first < c.nsys {
            let count = chunk.min(c.nsys - first);
            upload(ch, &mut hf, at(r_y), count, neq, |i, d| (0..neq).for_each(|j| d[j] = *c.y.add(j * ye + (first + i) * ys)))?;
            upload(ch, &mut hf, at(r_p), count, npar, |i, d| (0..npar).for_each(|k| d[k] = *c.p.add(k * pe + (first + i) * ps)))?;
            upload(ch, &mut hf, at(r_state), count, sl, |i, d| d.copy_from_slice(std::slice::from_raw_parts(c.state.add((first + i) * sl), sl)))?;
            let a = Arrays {
                y: at(r_y),
                p: at(r_p),
                atol: at(r_atol),
                state: if sl > 0 { at(r_state) } else { 0 },
                status: at(r_status),
                stats: if sn > 0 { at(r_stats) } else { 0 },
                next: at(r_next),
            };
            launch(ch, m, c, s, a, count, neq, npar.max(1), 0)?;
            download(ch, &mut hf, at(r_y), count, neq, |i, v| (0..neq).for_each(|j| *c.y.add(j * ye + (first + i) * ys) = v[j]))?;
            download(ch, &mut hf, at(r_state), count, sl, |i, v| std::ptr::copy_nonoverlapping(v.as_ptr(), c.state.add((first + i) * sl), sl))?;
            download(ch, &mut h32, at(r_status), count, 1, |i, v| *c.status.add(first + i) = v[0])?;
            download(ch, &mut hi, at(r_stats), count, sn, |i, v| std::ptr::copy_nonoverlapping(v.as_ptr(), c.stats.add((first + i) * sn), sn))?;
            first += count;
        }
    }
    Ok(())
}

