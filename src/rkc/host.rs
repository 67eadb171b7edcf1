//! An ODE that has only a host right-hand side, on a CUDA handle: integrated on the host's
//! cores by the CPU backend's integrator (`cpu.rs`, rayon over the systems). `numgpu_create`
//! picks CUDA on every GPU machine, and a simulator's host callback (a Fortran `bind(C)`
//! right-hand side) is the natural form of its ODE, so the callback must work there too. Each
//! system's `NUMGPU_RKC_STAT_BACKEND` statistic says `NUMGPU_BACKEND_CPU`.
//!
//! Host arrays go to the integrator as they are. Device arrays are copied to the host after
//! the work the handle's stream already holds (Y, P, atol and state, each system's values
//! packed), integrated there, and Y, state, status and stats copied back, each value to its
//! place and nothing else (gaps between systems are not touched); the call returns when the
//! results are in place.

use super::{cpu, state_len, stats_len, Integrate, Layout};
use crate::core::error::Result;
use crate::core::memory::Space;
use crate::cuda::driver::check;
use crate::cuda::CudaHandle;
use cudarc::driver::sys as cu;
use std::ffi::c_void;
use std::mem::size_of;

/// Integrates the validated call `c` of an ODE without CUDA source on the host's cores; its
/// arrays are in `space` (host memory, or device memory of the handle's device).
pub fn integrate(ch: &mut CudaHandle, c: &Integrate, space: Space) -> Result<()> {
    if space == Space::Host {
        return cpu::integrate(c);
    }
    ch.bind()?;
    let (neq, npar, nsys) = (c.ode.neq, c.ode.npar, c.nsys);
    // SAFETY: the validated call's device arrays cover the extents its sizes describe; every
    // host buffer below is as large as the packed copy it receives, and lives until the
    // stream is synchronised.
    unsafe {
        let mut y = down_rows(ch, c.y, c.layout, c.ldy, neq, nsys)?;
        let p = if npar == 0 { Vec::new() } else { down_rows(ch, c.p, c.layout, c.ldp, npar, nsys)? };
        let atol = down(ch, c.atol, c.natol)?;
        let mut state = if c.state.is_null() { Vec::new() } else { down(ch, c.state, state_len(neq) * nsys)? };
        ch.synchronize()?;
        let mut status = vec![0i32; nsys];
        let mut stats = vec![0i64; if c.stats.is_null() { 0 } else { stats_len() * nsys }];
        let host = Integrate {
            y: y.as_mut_ptr(),
            ldy: packed_ld(c.layout, neq, nsys),
            p: if npar == 0 { std::ptr::null() } else { p.as_ptr() },
            ldp: packed_ld(c.layout, npar, nsys),
            atol: atol.as_ptr(),
            state: if c.state.is_null() { std::ptr::null_mut() } else { state.as_mut_ptr() },
            status: status.as_mut_ptr(),
            stats: if c.stats.is_null() { std::ptr::null_mut() } else { stats.as_mut_ptr() },
            ..*c
        };
        cpu::integrate(&host)?;
        copy_rows(ch, c.y as u64, c.ldy, y.as_mut_ptr(), rows(c.layout, neq, nsys), false)?;
        up(ch, c.state, &state)?;
        up(ch, c.status, &status)?;
        up(ch, c.stats, &stats)?;
        ch.synchronize()
    }
}

/// (rows, values per row) of a `layout` array of `per` values for each of `nsys` systems:
/// system-major, a row per system; equation-major, a row per equation.
fn rows(layout: Layout, per: usize, nsys: usize) -> (usize, usize) {
    match layout {
        Layout::SystemMajor => (nsys, per),
        Layout::EquationMajor => (per, nsys),
    }
}

/// The leading dimension of the packed host copy of such an array.
fn packed_ld(layout: Layout, per: usize, nsys: usize) -> usize {
    rows(layout, per, nsys).1.max(1)
}

/// The `layout` array at `p` (rows `ld` apart) into a packed host vector, enqueued on the
/// handle's stream.
///
/// # Safety
/// `p` is device memory holding the array; the vector is read after the stream is
/// synchronised.
unsafe fn down_rows<E: Copy + Default>(ch: &CudaHandle, p: *const E, layout: Layout, ld: usize, per: usize, nsys: usize) -> Result<Vec<E>> {
    let (n, width) = rows(layout, per, nsys);
    let mut v = vec![E::default(); n * width];
    copy_rows(ch, p as u64, ld, v.as_mut_ptr(), (n, width), true)?;
    Ok(v)
}

/// `len` contiguous values at `p` into a host vector, enqueued on the handle's stream.
///
/// # Safety
/// As [`down_rows`].
unsafe fn down<E: Copy + Default>(ch: &CudaHandle, p: *const E, len: usize) -> Result<Vec<E>> {
    let mut v = vec![E::default(); len];
    copy_rows(ch, p as u64, len, v.as_mut_ptr(), (1, len), true)?;
    Ok(v)
}

/// The host values `v` to the device array `p` (nothing when `p` is NULL or `v` empty),
/// enqueued on the handle's stream.
///
/// # Safety
/// A non-NULL `p` is device memory of `v.len()` values; `v` lives until the stream is
/// synchronised.
unsafe fn up<E>(ch: &CudaHandle, p: *mut E, v: &[E]) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    copy_rows(ch, p as u64, v.len(), v.as_ptr() as *mut E, (1, v.len()), false)
}

/// `rows.0` rows of `rows.1` values between device memory at `dev` (rows `ld` values apart)
/// and the packed host buffer `host`: to the host when `to_host`, else back. One copy on the
/// handle's stream, 2-D when the rows have gaps, so only the values themselves move.
///
/// # Safety
/// Both sides hold the rows; the host buffer outlives the copy (the caller synchronises).
unsafe fn copy_rows<E>(ch: &CudaHandle, dev: u64, ld: usize, host: *mut E, (n, width): (usize, usize), to_host: bool) -> Result<()> {
    if n == 0 || width == 0 {
        return Ok(());
    }
    let e = size_of::<E>();
    if n == 1 || ld == width {
        // Contiguous: one linear copy (no pitch limit).
        let (dst, src) = if to_host { (host as u64, dev) } else { (dev, host as u64) };
        return check(cu::cuMemcpyAsync(dst, src, n * width * e, ch.cu_stream()), "cuMemcpyAsync");
    }
    let (device, host_side) = (cu::CUmemorytype::CU_MEMORYTYPE_DEVICE, cu::CUmemorytype::CU_MEMORYTYPE_HOST);
    let (src_type, dst_type) = if to_host { (device, host_side) } else { (host_side, device) };
    let (src_pitch, dst_pitch) = if to_host { (ld * e, width * e) } else { (width * e, ld * e) };
    let copy = cu::CUDA_MEMCPY2D {
        srcXInBytes: 0,
        srcY: 0,
        srcMemoryType: src_type,
        srcHost: host as *const c_void,
        srcDevice: dev,
        srcArray: std::ptr::null_mut(),
        srcPitch: src_pitch,
        dstXInBytes: 0,
        dstY: 0,
        dstMemoryType: dst_type,
        dstHost: host as *mut c_void,
        dstDevice: dev,
        dstArray: std::ptr::null_mut(),
        dstPitch: dst_pitch,
        WidthInBytes: width * e,
        Height: n,
    };
    check(cu::cuMemcpy2DAsync_v2(&copy, ch.cu_stream()), "cuMemcpy2DAsync")
}
