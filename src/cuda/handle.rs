//! The CUDA side of a handle: its device, its stream, its workspace, checked launches and
//! copies.

use crate::core::error::{Error, Result};
use cudarc::driver::sys as cu;
use std::ffi::c_void;
use std::sync::Arc;

use super::driver::{check, device, sync_check, Device};
use super::module::Module;

pub struct CudaHandle {
    pub dev: Arc<Device>,
    /// The stream work is enqueued on: the legacy default stream (NULL) unless the user set
    /// one, so that work the user enqueued on the default stream is ordered with ours, as
    /// with cuBLAS.
    pub stream: cu::CUstream,
    workspace: cu::CUdeviceptr,
    workspace_bytes: usize,
}

// SAFETY: a handle is used by one thread at a time (documented); the raw stream and device
// pointer are plain handles valid in any thread.
unsafe impl Send for CudaHandle {}

impl CudaHandle {
    pub fn new(ordinal: i32) -> Result<Self> {
        let dev = device(ordinal)?;
        dev.bind()?;
        Ok(CudaHandle { dev, stream: std::ptr::null_mut(), workspace: 0, workspace_bytes: 0 })
    }

    /// Makes the device's context current; called at the start of every CUDA entry point.
    pub fn bind(&self) -> Result<()> {
        self.dev.bind()
    }

    pub fn set_stream(&mut self, stream: *mut c_void) {
        self.stream = stream as cu::CUstream;
    }

    /// Waits for the handle's stream and reports any asynchronous failure.
    pub fn synchronize(&self) -> Result<()> {
        self.bind()?;
        // SAFETY: the stream is the default stream or one the user gave us.
        check(unsafe { cu::cuStreamSynchronize(self.stream) }, "cuStreamSynchronize")
    }

    /// At least `bytes` of device memory owned by the handle, valid until the next call.
    /// Grows on demand; on failure it is `ALLOC_FAILED` with the size, and the handle stays
    /// usable (its workspace is empty).
    pub fn workspace(&mut self, bytes: usize) -> Result<cu::CUdeviceptr> {
        if bytes <= self.workspace_bytes {
            return Ok(self.workspace);
        }
        self.release_workspace()?;
        let mut p: cu::CUdeviceptr = 0;
        // SAFETY: out-pointer is a local.
        let r = unsafe { cu::cuMemAlloc_v2(&mut p, bytes) };
        check(r, "cuMemAlloc").map_err(|e| {
            Error::new(e.status, format!("could not allocate {bytes} bytes of device workspace ({})", e.msg))
        })?;
        self.workspace = p;
        self.workspace_bytes = bytes;
        Ok(p)
    }

    fn release_workspace(&mut self) -> Result<()> {
        if self.workspace != 0 {
            // Earlier work on the stream may still read the old workspace.
            self.synchronize()?;
            // SAFETY: allocated by workspace(); no work uses it after the synchronize.
            unsafe { cu::cuMemFree_v2(self.workspace) };
            self.workspace = 0;
            self.workspace_bytes = 0;
        }
        Ok(())
    }

    /// Launches `m.func` on the handle's stream.
    ///
    /// # Safety
    /// `params` are pointers to the kernel's arguments, in the kernel's order and with its
    /// types, and every device address among them is valid for what the kernel touches.
    pub unsafe fn launch(&self, m: &Module, grid: (u32, u32, u32), block: u32, smem: u32, params: &mut [*mut c_void]) -> Result<()> {
        if smem > 48 * 1024 {
            check(
                cu::cuFuncSetAttribute(m.func, cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem as i32),
                "cuFuncSetAttribute",
            )?;
        }
        let r = cu::cuLaunchKernel(m.func, grid.0, grid.1, grid.2, block, 1, 1, smem, self.stream, params.as_mut_ptr(), std::ptr::null_mut());
        check(r, "cuLaunchKernel")?;
        if sync_check() {
            self.synchronize()?;
        }
        Ok(())
    }

    /// Enqueues a host-to-device copy of `bytes` from `src`.
    ///
    /// # Safety
    /// `dst` holds `bytes` of device memory; `src` is valid for `bytes` reads until the
    /// stream reaches the copy (pageable memory is copied before this returns).
    pub unsafe fn htod(&self, dst: cu::CUdeviceptr, src: *const c_void, bytes: usize) -> Result<()> {
        check(cu::cuMemcpyHtoDAsync_v2(dst, src, bytes, self.stream), "cuMemcpyHtoDAsync")
    }

    /// Enqueues a device-to-host copy; the data is there after `synchronize`.
    ///
    /// # Safety
    /// `src` holds `bytes` of device memory; `dst` is valid for `bytes` writes until then.
    pub unsafe fn dtoh(&self, dst: *mut c_void, src: cu::CUdeviceptr, bytes: usize) -> Result<()> {
        check(cu::cuMemcpyDtoHAsync_v2(dst, src, bytes, self.stream), "cuMemcpyDtoHAsync")
    }

    pub fn malloc(&self, bytes: usize) -> Result<*mut c_void> {
        self.bind()?;
        if bytes == 0 {
            return Ok(std::ptr::null_mut());
        }
        let mut p: cu::CUdeviceptr = 0;
        // SAFETY: out-pointer is a local.
        check(unsafe { cu::cuMemAlloc_v2(&mut p, bytes) }, "cuMemAlloc")
            .map_err(|e| Error::new(e.status, format!("could not allocate {bytes} bytes of device memory ({})", e.msg)))?;
        Ok(p as *mut c_void)
    }

    /// Frees memory from `malloc`; waits for the handle's stream first, as cudaFree does.
    ///
    /// # Safety
    /// `p` came from this handle's `malloc` and is not used afterwards.
    pub unsafe fn free(&self, p: *mut c_void) -> Result<()> {
        self.synchronize()?;
        check(cu::cuMemFree_v2(p as cu::CUdeviceptr), "cuMemFree")
    }

    /// Copies `bytes` between any two of host and device memory (unified addressing), ordered
    /// on the handle's stream, and returns when it is done.
    ///
    /// # Safety
    /// `src` is valid for `bytes` reads and `dst` for `bytes` writes, in their memories.
    pub unsafe fn memcpy(&self, dst: *mut c_void, src: *const c_void, bytes: usize) -> Result<()> {
        self.bind()?;
        check(cu::cuMemcpyAsync(dst as cu::CUdeviceptr, src as cu::CUdeviceptr, bytes, self.stream), "cuMemcpyAsync")?;
        self.synchronize()
    }
}

impl Drop for CudaHandle {
    fn drop(&mut self) {
        let _ = self.bind().and_then(|_| self.release_workspace());
    }
}
