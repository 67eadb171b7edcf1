//! The CUDA side of a handle: its device, its stream, its workspace, typed launches and
//! copies.

use crate::core::error::{Error, Result};
use cudarc::driver::safe::{CudaStream, DeviceRepr, LaunchArgs, LaunchConfig, PushKernelArg};
use cudarc::driver::sys as cu;
use std::cell::Cell;
use std::ffi::c_void;
use std::sync::Arc;

use super::driver::{check, device, failed, sync_check, Device};
use super::module::Module;
use super::staging::Buffers;

pub struct CudaHandle {
    pub dev: Arc<Device>,
    /// The stream work is enqueued on: the legacy default stream unless the user set one (a
    /// borrowed `cudaStream_t`), so that work the user enqueued on the default stream is
    /// ordered with ours, as with cuBLAS.
    pub stream: Arc<CudaStream>,
    workspace: cu::CUdeviceptr,
    workspace_bytes: usize,
    /// Pinned host memory and events of the staging engine, grown on demand.
    pub(crate) buffers: Option<Buffers>,
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

// SAFETY: a handle is used by one thread at a time (documented); the raw device pointers
// are plain handles valid in any thread.
unsafe impl Send for CudaHandle {}

impl CudaHandle {
    pub fn new(ordinal: i32) -> Result<Self> {
        let dev = device(ordinal)?;
        dev.bind()?;
        let stream = dev.ctx.default_stream();
        Ok(CudaHandle { dev, stream, workspace: 0, workspace_bytes: 0, buffers: None, check_word: 0, armed: Cell::new(None) })
    }

    /// Makes the device's context current; called at the start of every CUDA entry point.
    pub fn bind(&self) -> Result<()> {
        self.dev.bind()
    }

    /// Enqueues later work on the user's `cudaStream_t` (NULL: the legacy default stream).
    pub fn set_stream(&mut self, stream: *mut c_void) {
        self.stream = if stream.is_null() {
            self.dev.ctx.default_stream()
        } else {
            // SAFETY: the user promises a stream of this device's primary context that
            // outlives its use through the handle (as with cublasSetStream); it is borrowed,
            // never destroyed by us.
            unsafe { self.dev.ctx.wrap_borrowed_stream(stream as cu::CUstream) }
        };
    }

    /// The raw stream, for the driver calls cudarc has no safe form of.
    pub fn cu_stream(&self) -> cu::CUstream {
        self.stream.cu_stream()
    }

    /// Waits for the handle's stream and reports any asynchronous failure, including bad
    /// input entries that kernels of an asynchronous call found (see [`Self::arm_check`]).
    pub fn synchronize(&self) -> Result<()> {
        self.bind()?;
        self.stream.synchronize().map_err(|e| failed(e, "cuStreamSynchronize"))?;
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
                if let Err(e) = check(cu::cuMemsetD32Async(p, u32::MAX, 2, self.cu_stream()), "cuMemsetD32Async") {
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
            self.dtoh(&mut code as *mut u64 as *mut c_void, self.check_word, 8)?;
            self.stream.synchronize().map_err(|e| failed(e, "cuStreamSynchronize"))?;
            if code != CHECK_CLEAN {
                check(cu::cuMemsetD32Async(self.check_word, u32::MAX, 2, self.cu_stream()), "cuMemsetD32Async")?;
            }
        }
        Ok((code != CHECK_CLEAN).then_some(code))
    }

    /// At least `bytes` of device memory owned by the handle, valid until the next call.
    /// Grows on demand; on failure it is `ALLOC_FAILED` with the size, and the handle stays
    /// usable (its workspace is empty).
    ///
    /// Raw memory rather than a cudarc slice: a cudarc allocation is freed on the stream it
    /// was allocated on, and the user may change (and destroy) the handle's stream between
    /// calls.
    pub fn workspace(&mut self, bytes: usize) -> Result<cu::CUdeviceptr> {
        if bytes <= self.workspace_bytes {
            return Ok(self.workspace);
        }
        self.release_workspace()?;
        let mut p: cu::CUdeviceptr = 0;
        // SAFETY: out-pointer is a local.
        let r = unsafe { cu::cuMemAlloc_v2(&mut p, bytes) };
        check(r, "cuMemAlloc").map_err(|e| Error::new(e.status, format!("could not allocate {bytes} bytes of device workspace ({})", e.msg)))?;
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

    /// A launch of `kernel` on the handle's stream; add its arguments in the kernel's order
    /// with [`Launch::arg`], then [`Launch::run`].
    pub fn launch<'a>(&'a self, kernel: &'a Module) -> Launch<'a> {
        Launch { ch: self, kernel, args: self.stream.launch_builder(&kernel.func) }
    }

    /// Enqueues a host-to-device copy of `bytes` from `src`.
    ///
    /// # Safety
    /// `dst` holds `bytes` of device memory; `src` is valid for `bytes` reads until the
    /// stream reaches the copy (pageable memory is copied before this returns).
    pub unsafe fn htod(&self, dst: cu::CUdeviceptr, src: *const c_void, bytes: usize) -> Result<()> {
        check(cu::cuMemcpyHtoDAsync_v2(dst, src, bytes, self.cu_stream()), "cuMemcpyHtoDAsync")
    }

    /// Enqueues a device-to-host copy; the data is there after `synchronize` (at once for
    /// pageable memory).
    ///
    /// # Safety
    /// `src` holds `bytes` of device memory; `dst` is valid for `bytes` writes until then.
    pub unsafe fn dtoh(&self, dst: *mut c_void, src: cu::CUdeviceptr, bytes: usize) -> Result<()> {
        check(cu::cuMemcpyDtoHAsync_v2(dst, src, bytes, self.cu_stream()), "cuMemcpyDtoHAsync")
    }

    /// Enqueues the clearing of `bytes` of device memory at `dst` to zero (scratch that a
    /// kernel expects cleared, such as a work counter).
    ///
    /// # Safety
    /// `dst` holds `bytes` of device memory that no other work uses meanwhile.
    pub unsafe fn zero(&self, dst: cu::CUdeviceptr, bytes: usize) -> Result<()> {
        check(cu::cuMemsetD8Async(dst, 0, bytes, self.cu_stream()), "cuMemsetD8Async")
    }

    /// `bytes` of device memory for the user (`numgpu_malloc`): raw, because its owner is the
    /// C program, which frees it through `numgpu_free`, on any stream.
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
        check(cu::cuMemcpyAsync(dst as cu::CUdeviceptr, src as cu::CUdeviceptr, bytes, self.cu_stream()), "cuMemcpyAsync")?;
        self.synchronize()
    }
}

impl Drop for CudaHandle {
    fn drop(&mut self) {
        let _ = self.bind().and_then(|_| self.release_workspace());
        if self.check_word != 0 {
            // SAFETY: allocated by check_word(); no work uses it once the stream is drained.
            unsafe {
                cu::cuStreamSynchronize(self.cu_stream());
                cu::cuMemFree_v2(self.check_word);
            }
        }
    }
}

/// One kernel launch being assembled: cudarc's typed builder, plus what every numgpu launch
/// needs (the shared-memory opt-in above 48 KiB, checked errors, `NUMGPU_SYNC_CHECK`).
pub struct Launch<'a> {
    ch: &'a CudaHandle,
    kernel: &'a Module,
    args: LaunchArgs<'a>,
}

impl<'a> Launch<'a> {
    /// The next kernel argument, by value as the kernel declares it (`long long`, `T`,
    /// `ng_batch<T>`, a device address as `u64`, ...).
    pub fn arg<A: DeviceRepr>(mut self, a: &'a A) -> Self {
        self.args.arg(a);
        self
    }

    /// Enqueues the launch: `grid` blocks of `block` threads with `smem` bytes of dynamic
    /// shared memory.
    ///
    /// # Safety
    /// The arguments match the kernel's parameters in number, order and type, and every
    /// device address among them is valid for what the kernel touches.
    pub unsafe fn run(mut self, grid: (u32, u32, u32), block: u32, smem: u32) -> Result<()> {
        if smem > 48 * 1024 {
            // The most the function can take, not this launch's amount: a kernel is shared by
            // every thread's handles, and a smaller limit set for another launch between this
            // one's setting and launching would fail it (CUDA_ERROR_INVALID_VALUE).
            let func = &self.kernel.func;
            let fixed = func.shared_size_bytes().map_err(|e| failed(e, "cuFuncGetAttribute"))?;
            let limit = (self.ch.dev.max_smem_optin as i32 - fixed).max(smem as i32);
            func.set_attribute(cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, limit)
                .map_err(|e| failed(e, "cuFuncSetAttribute"))?;
        }
        let cfg = LaunchConfig { grid_dim: grid, block_dim: (block, 1, 1), shared_mem_bytes: smem };
        self.args.launch(cfg).map_err(|e| failed(e, "cuLaunchKernel"))?;
        if sync_check() {
            self.ch.synchronize()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_clears_exactly_its_range() {
        let mut ch = match CudaHandle::new(0) {
            Ok(ch) => ch,
            Err(e) if std::env::var("NUMGPU_REQUIRE_CUDA").as_deref() != Ok("1") => return eprintln!("SKIPPED CUDA test: {}", e.msg),
            Err(e) => panic!("no CUDA handle: {e}"),
        };
        let ws = ch.workspace(16).unwrap();
        let mut v = [u32::MAX; 4];
        // SAFETY: 16 bytes of workspace; `v` is copied before the synchronisation returns.
        unsafe {
            ch.htod(ws, v.as_ptr() as *const c_void, 16).unwrap();
            ch.zero(ws + 4, 8).unwrap();
            ch.dtoh(v.as_mut_ptr() as *mut c_void, ws, 16).unwrap();
        }
        ch.synchronize().unwrap();
        assert_eq!(v, [u32::MAX, 0, 0, u32::MAX]);
    }
}
