//! Transitional: the per-family staging helpers, until every family stages through
//! `staging::Stage` (removed with the last of them).

use super::CudaHandle;
use crate::core::error::Result;
use std::ffi::c_void;

/// Largest workspace a host-array call stages at once; larger batches go in chunks.
pub const STAGING_BYTES: usize = 256 << 20;

/// Matrices per chunk when each needs `per_item` bytes of workspace: at least 1, at most
/// `batch`.
pub fn chunk_len(per_item: usize, batch: usize) -> usize {
    (STAGING_BYTES / per_item.max(1)).clamp(1, batch.max(1))
}

/// Regions of one workspace, each aligned to 256 bytes.
#[derive(Default)]
pub struct Layout {
    pub bytes: usize,
}

impl Layout {
    /// Reserves `bytes` and returns the region's offset.
    pub fn take(&mut self, bytes: usize) -> usize {
        let at = self.bytes;
        self.bytes += bytes.div_ceil(256) * 256;
        at
    }
}

/// Packs `n` items of `s` elements each with `fill(i, dst)` into `host` and copies them to
/// `dst`. Synchronises first so `host` is free, and after, so the caller may refill it.
///
/// # Safety
/// `dst` holds `n·s` elements of `T`; `host` at least as many.
pub unsafe fn upload<T: Copy>(ch: &CudaHandle, host: &mut [T], dst: u64, n: usize, s: usize, fill: impl Fn(usize, &mut [T])) -> Result<()> {
    if s == 0 || n == 0 {
        return Ok(());
    }
    ch.synchronize()?;
    for i in 0..n {
        fill(i, &mut host[i * s..(i + 1) * s]);
    }
    ch.htod(dst, host.as_ptr() as *const c_void, n * s * std::mem::size_of::<T>())?;
    ch.synchronize()
}

/// Copies `n` items of `s` elements from `src` into `host` once the stream has produced
/// them, and hands each to `drain(i, items)`.
///
/// # Safety
/// `src` holds `n·s` elements of `T`; `host` at least as many.
pub unsafe fn download<T: Copy>(ch: &CudaHandle, host: &mut [T], src: u64, n: usize, s: usize, drain: impl Fn(usize, &[T])) -> Result<()> {
    if s == 0 || n == 0 {
        return Ok(());
    }
    ch.dtoh(host.as_mut_ptr() as *mut c_void, src, n * s * std::mem::size_of::<T>())?;
    ch.synchronize()?;
    for i in 0..n {
        drain(i, &host[i * s..(i + 1) * s]);
    }
    Ok(())
}

/// Copies the `rows × cols` matrix at `src` (leading dimension `ld`) into `dst`, compact.
///
/// # Safety
/// `src` is valid for the matrix's extent; `dst` holds `rows·cols` elements.
pub unsafe fn pack<T: Copy>(src: *const T, ld: usize, rows: usize, cols: usize, dst: &mut [T]) {
    for j in 0..cols {
        std::ptr::copy_nonoverlapping(src.add(j * ld), dst.as_mut_ptr().add(j * rows), rows);
    }
}

/// Copies the compact `rows × cols` matrix `src` to `dst` (leading dimension `ld`).
///
/// # Safety
/// `dst` is valid for writes of the matrix's extent.
pub unsafe fn unpack<T: Copy>(src: &[T], rows: usize, cols: usize, dst: *mut T, ld: usize) {
    for j in 0..cols {
        std::ptr::copy_nonoverlapping(src.as_ptr().add(j * rows), dst.add(j * ld), rows);
    }
}
