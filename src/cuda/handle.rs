//! The CUDA side of a handle: its device, its stream, its workspace, checked launches and
//! copies.

use crate::core::error::{Error, Result};
use cudarc::driver::sys as cu;
use std::cell::Cell;
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
    /// A device word kernels report bad input entries to (an `atomicMin` of a code; all ones
    /// when clean), allocated on first use; see [`CudaHandle::check_word`].
    check_word: cu::CUdeviceptr,
    /// The routine whose asynchronous calls may have written `check_word` since the last
    /// synchronisation, and how to turn its code into an error.
    armed: Cell<Option<Deferred>>,
}

/// A routine that may have reported bad input to the check word, and how to turn its code
/// into an error.
type Deferred = (&'static str, fn(u64) -> Error);

/// The value of a clean check word.
pub(crate) const CHECK_CLEAN: u64 = u64::MAX;

// SAFETY: a handle is used by one thread at a time (documented); the raw stream and device
// pointer are plain handles valid in any thread.
unsafe impl Send for CudaHandle {}

impl CudaHandle {
    pub fn new(ordinal: i32) -> Result<Self> {
        let dev = device(ordinal)?;
        dev.bind()?;
        Ok(CudaHandle { dev, stream: std::ptr::null_mut(), workspace: 0, workspace_bytes: 0, check_word: 0, armed: Cell::new(None) })
    }

    /// Makes the device's context current; called at the start of every CUDA entry point.
    pub fn bind(&self) -> Result<()> {
        self.dev.bind()
    }

    pub fn set_stream(&mut self, stream: *mut c_void) {
        self.stream = stream as cu::CUstream;
    }

    /// Waits for the handle's stream and reports any asynchronous failure, including bad
    /// input entries that kernels of an asynchronous call found (see [`Self::arm_check`]).
    pub fn synchronize(&self) -> Result<()> {
        self.bind()?;
        // SAFETY: the stream is the default stream or one the user gave us.
        check(unsafe { cu::cuStreamSynchronize(self.stream) }, "cuStreamSynchronize")?;
        if let Some((routine, decode)) = self.armed.take() {
            if let Some(code) = self.take_check()? {
                let e = decode(code);
                let (what, _) = crate::ffi::boundary::as_raised_by(routine, &e);
                return Err(Error::new(e.status, format!("an earlier call of {routine} on this handle (on device arrays) found bad input: {what}")));
            }
        }
        Ok(())
    }

    /// The handle's check word: device memory of one `unsigned long long` that kernels lower
    /// with `atomicMin` to a code naming the first bad input entry they met, and that holds
    /// [`CHECK_CLEAN`] otherwise. Allocated (and cleared on the stream) on first use.
    pub fn check_word(&mut self) -> Result<cu::CUdeviceptr> {
        if self.check_word == 0 {
            let mut p: cu::CUdeviceptr = 0;
            // SAFETY: out-pointer is a local; the memset covers the 8 bytes just allocated.
            unsafe {
                check(cu::cuMemAlloc_v2(&mut p, 8), "cuMemAlloc")?;
                if let Err(e) = check(cu::cuMemsetD32Async(p, u32::MAX, 2, self.stream), "cuMemsetD32Async") {
                    cu::cuMemFree_v2(p);
                    return Err(e);
                }
            }
            self.check_word = p;
        }
        Ok(self.check_word)
    }

    /// Records that an asynchronous call of `routine` may have written the check word, so
    /// that the next [`Self::synchronize`] reads it and reports a code as `decode` says. The
    /// first routine armed since the last synchronisation names the report.
    pub fn arm_check(&self, routine: &'static str, decode: fn(u64) -> Error) {
        if self.armed.get().is_none() {
            self.armed.set(Some((routine, decode)));
        }
    }

    /// Waits for the stream, reads the check word and clears it: the code kernels reported,
    /// if any. Disarms a pending report (the caller now owns the code).
    pub fn take_check(&self) -> Result<Option<u64>> {
        self.armed.set(None);
        if self.check_word == 0 {
            return Ok(None);
        }
        let mut code = CHECK_CLEAN;
        // SAFETY: the word is 8 bytes of device memory we own; `code` is a local written
        // before the synchronisation returns.
        unsafe {
            check(cu::cuMemcpyDtoHAsync_v2(&mut code as *mut u64 as *mut c_void, self.check_word, 8, self.stream), "cuMemcpyDtoHAsync")?;
            check(cu::cuStreamSynchronize(self.stream), "cuStreamSynchronize")?;
            if code != CHECK_CLEAN {
                check(cu::cuMemsetD32Async(self.check_word, u32::MAX, 2, self.stream), "cuMemsetD32Async")?;
            }
        }
        Ok((code != CHECK_CLEAN).then_some(code))
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
        if self.check_word != 0 {
            // SAFETY: allocated by check_word(); no work uses it once the stream is drained.
            unsafe {
                cu::cuStreamSynchronize(self.stream);
                cu::cuMemFree_v2(self.check_word);
            }
        }
    }
}
