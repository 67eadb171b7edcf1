//! The handle: which backend runs the calls made through it, and that backend's state.

use super::error::{Error, Result};
use super::math_mode::MathMode;
use crate::cuda::CudaHandle;
use std::ffi::c_void;

/// Backend selector of `numgpu_create_with` and `numgpu_get_backend`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_backend {
    /// CUDA when a usable device exists, else CPU; `NUMGPU_BACKEND=cpu|cuda` overrides it.
    NUMGPU_BACKEND_AUTO = 0,
    /// OpenBLAS/LAPACK and Rust on the host's cores.
    NUMGPU_BACKEND_CPU = 1,
    /// numgpu's CUDA kernels on an NVIDIA GPU.
    NUMGPU_BACKEND_CUDA = 2,
}

/// A `numgpu_backend` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_backend`.
pub type BackendArg = i32;

/// The backend a handle runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Cpu,
    Cuda,
}

/// What a caller asks for when creating a handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    Auto,
    Cpu,
    Cuda,
}

impl BackendChoice {
    /// Validates a backend value from C (the parameter `backend`).
    pub fn from_i32(v: i32) -> Result<Self> {
        match v {
            0 => Ok(BackendChoice::Auto),
            1 => Ok(BackendChoice::Cpu),
            2 => Ok(BackendChoice::Cuda),
            _ => Err(Error::arg("backend", format!("(backend = {v}) must be NUMGPU_BACKEND_AUTO (0), NUMGPU_BACKEND_CPU (1) or NUMGPU_BACKEND_CUDA (2)"))),
        }
    }
}

pub(crate) enum State {
    Cpu,
    Cuda(CudaHandle),
}

/// An opaque numgpu handle (`numgpu_handle` in C): a backend (CPU or CUDA), and on CUDA a
/// device, a stream and a workspace. Create with `numgpu_create` or `numgpu_create_with`,
/// release with `numgpu_destroy`. Use one handle from one thread at a time; threads with
/// their own handles run concurrently.
pub struct Handle {
    pub(crate) state: State,
    /// Seed of the library's reproducible random draws (the random starts of `sshopm`).
    seed: u64,
    /// What single-precision GEMM may compute with (the TF32 tensor cores).
    math_mode: MathMode,
}

impl Handle {
    /// A handle on `choice`'s backend and CUDA device `device` (ignored by the CPU backend,
    /// but it must be >= 0).
    pub fn new(choice: BackendChoice, device: i32) -> Result<Handle> {
        if device < 0 {
            return Err(Error::arg("device", format!("(device = {device}) must be >= 0")));
        }
        let choice = match choice {
            BackendChoice::Auto => env_choice()?,
            c => c,
        };
        let state = match choice {
            BackendChoice::Cpu => State::Cpu,
            BackendChoice::Cuda => State::Cuda(cuda_handle(device)?),
            BackendChoice::Auto => match cuda_handle(device) {
                Ok(h) => State::Cuda(h),
                Err(_) => State::Cpu,
            },
        };
        Ok(Handle { state, seed: 0, math_mode: MathMode::Default })
    }

    pub fn cpu() -> Handle {
        Handle { state: State::Cpu, seed: 0, math_mode: MathMode::Default }
    }

    pub fn backend(&self) -> Backend {
        match self.state {
            State::Cpu => Backend::Cpu,
            State::Cuda(_) => Backend::Cuda,
        }
    }

    /// Sets the seed of the library's reproducible random draws (0 when never set): the same
    /// seed and arguments give the same draws on every backend.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Sets the math mode of later single-precision GEMM calls (exact FP32 until set); the
    /// CPU backend keeps it but computes exact FP32 in every mode.
    pub fn set_math_mode(&mut self, mode: MathMode) {
        self.math_mode = mode;
    }

    pub fn math_mode(&self) -> MathMode {
        self.math_mode
    }

    /// Sets the CUDA stream (`cudaStream_t`; NULL is the default stream) later calls are
    /// enqueued on. The CPU backend completes every call before returning and ignores it.
    pub fn set_stream(&mut self, stream: *mut c_void) -> Result<()> {
        if let State::Cuda(c) = &mut self.state {
            c.set_stream(stream);
        }
        Ok(())
    }

    /// The `cudaStream_t` calls are enqueued on: NULL for the default stream, and on the CPU
    /// backend.
    pub fn stream(&self) -> *mut c_void {
        match &self.state {
            State::Cpu => std::ptr::null_mut(),
            State::Cuda(c) => c.cu_stream() as *mut c_void,
        }
    }

    /// Waits for all work enqueued through the handle and reports an asynchronous failure.
    pub fn synchronize(&mut self) -> Result<()> {
        match &self.state {
            State::Cpu => Ok(()),
            State::Cuda(c) => c.synchronize(),
        }
    }

    /// `bytes` of memory of the handle's backend: device memory on CUDA, host memory
    /// (64-byte aligned) on CPU. Zero bytes gives NULL.
    pub fn malloc(&mut self, bytes: usize) -> Result<*mut c_void> {
        match &self.state {
            State::Cuda(c) => c.malloc(bytes),
            State::Cpu => {
                if bytes == 0 {
                    return Ok(std::ptr::null_mut());
                }
                let mut p = std::ptr::null_mut();
                // SAFETY: posix_memalign writes the pointer on success.
                let r = unsafe { libc::posix_memalign(&mut p, 64, bytes) };
                if r != 0 {
                    return Err(Error::alloc(format!("could not allocate {bytes} bytes of host memory")));
                }
                Ok(p)
            }
        }
    }

    /// Frees memory from `malloc` on the same backend. NULL is a no-op.
    ///
    /// # Safety
    /// `p` is NULL or came from `malloc` of a handle of the same backend and device.
    pub unsafe fn free(&mut self, p: *mut c_void) -> Result<()> {
        if p.is_null() {
            return Ok(());
        }
        match &self.state {
            State::Cuda(c) => c.free(p),
            State::Cpu => {
                libc::free(p);
                Ok(())
            }
        }
    }

    /// Copies `bytes` from `src` to `dst` (host or the backend's device memory, in any
    /// combination) and returns when the copy is done.
    ///
    /// # Safety
    /// Both ranges are valid for `bytes` bytes.
    pub unsafe fn memcpy(&mut self, dst: *mut c_void, src: *const c_void, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        match &self.state {
            State::Cuda(c) => c.memcpy(dst, src, bytes),
            State::Cpu => {
                super::memory::host_pointers(&[(src, "src"), (dst, "dst")])?;
                std::ptr::copy(src as *const u8, dst as *mut u8, bytes);
                Ok(())
            }
        }
    }
}

fn cuda_handle(device: i32) -> Result<CudaHandle> {
    crate::cuda::driver::driver()?;
    let n = crate::cuda::device_count();
    if n == 0 {
        return Err(Error::unavailable("no CUDA device is visible"));
    }
    CudaHandle::new(device)
}

/// `NUMGPU_BACKEND=cpu|cuda` overrides AUTO; unset or empty keeps it.
fn env_choice() -> Result<BackendChoice> {
    match std::env::var("NUMGPU_BACKEND").as_deref().map(str::to_ascii_lowercase).as_deref() {
        Err(_) | Ok("") | Ok("auto") => Ok(BackendChoice::Auto),
        Ok("cpu") => Ok(BackendChoice::Cpu),
        Ok("cuda") => Ok(BackendChoice::Cuda),
        Ok(v) => Err(Error::invalid(format!("environment variable NUMGPU_BACKEND = {v:?} must be cpu, cuda or auto"))),
    }
}
