// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! Core entry points: status strings, last error, version, the handle and memory.

use crate::core::handle::BackendArg;
use crate::core::error::StatusArg;
use super::boundary::{boundary, deref, deref_mut, last_error};
use super::live::Live;
use crate::core::check::check_array;
use crate::core::error::{numgpu_status, Error};
use crate::core::handle::{numgpu_backend, Backend, BackendChoice, Handle};
use crate::core::math_mode::{MathMode, MathModeArg};
use std::ffi::{c_char, c_void, CStr};

/// A static, NUL-terminated description of a `numgpu_status` code ("NUMGPU_SUCCESS: ...");
/// unknown codes give "unknown numgpu status".
#[no_mangle]
pub extern "C" fn numgpu_status_string(s: StatusArg) -> *const c_char {
    // An int32_t, not the Rust enum: any value may come from C.
    let t: &'static CStr = match s {
        0 => c"NUMGPU_SUCCESS: the call succeeded",
        1 => c"NUMGPU_INVALID_VALUE: an argument was invalid (see numgpu_last_error)",
        2 => c"NUMGPU_NOT_SUPPORTED: the arguments are valid but not supported here",
        3 => c"NUMGPU_BACKEND_UNAVAILABLE: the requested backend is not available",
        4 => c"NUMGPU_ALLOC_FAILED: memory could not be allocated",
        5 => c"NUMGPU_EXECUTION_FAILED: a kernel or driver call failed",
        6 => c"NUMGPU_COMPILE_FAILED: run-time compilation of a kernel failed",
        7 => c"NUMGPU_INTERNAL_ERROR: an internal error occurred in numgpu",
        8 => c"NUMGPU_INSUFFICIENT_CAPACITY: a data-dependent output does not fit the capacity given (the size needed was written)",
        _ => c"unknown numgpu status",
    };
    t.as_ptr()
}

/// A static, NUL-terminated name of a `numgpu_backend` value, as `NUMGPU_BACKEND` spells the
/// backends: "cpu", "cuda", "auto"; unknown values give "unknown numgpu backend". For what a
/// handle runs on, pass the value `numgpu_get_backend` writes.
#[no_mangle]
pub extern "C" fn numgpu_backend_name(backend: BackendArg) -> *const c_char {
    // An int32_t, not the Rust enum: any value may come from C.
    let t: &'static CStr = match BackendChoice::from_i32(backend) {
        Ok(BackendChoice::Cpu) => c"cpu",
        Ok(BackendChoice::Cuda) => c"cuda",
        Ok(BackendChoice::Auto) => c"auto",
        Err(_) => c"unknown numgpu backend",
    };
    t.as_ptr()
}

/// Copies this thread's last error message into `buf` (at most `len - 1` bytes and a NUL;
/// nothing when `buf` is NULL or `len` is 0) and returns the message's full length in bytes,
/// without the NUL. The message is empty after a successful call. Example:
/// `numgpu_sgemm_batched: argument 9 (lda = 3) must be >= max(1, m) = 4`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_last_error(buf: *mut c_char, len: usize) -> usize {
    let (msg, _) = last_error();
    if !buf.is_null() && len > 0 {
        let n = msg.len().min(len - 1);
        std::ptr::copy_nonoverlapping(msg.as_ptr() as *const c_char, buf, n);
        *buf.add(n) = 0;
    }
    msg.len()
}

/// The 1-based position of the argument this thread's last failed call rejected (LAPACK's
/// `-info`), or 0 when the last call succeeded or its failure named no argument.
#[no_mangle]
pub extern "C" fn numgpu_last_error_arg() -> i32 {
    last_error().1
}

/// numgpu's version, "MAJOR.MINOR.PATCH", static and NUL-terminated; equals the header's
/// `NUMGPU_VERSION`.
#[no_mangle]
pub extern "C" fn numgpu_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// Creates a handle on backend AUTO and CUDA device 0: CUDA when a usable device exists, else
/// CPU; the environment variable `NUMGPU_BACKEND=cpu|cuda` overrides the choice.
///
/// - `h` [out]: receives the handle; written only on success.
///
/// Errors: `INVALID_VALUE` (h is NULL, or NUMGPU_BACKEND holds another value),
/// `BACKEND_UNAVAILABLE` (NUMGPU_BACKEND=cuda with no usable device).
#[no_mangle]
pub unsafe extern "C" fn numgpu_create(h: *mut *mut Handle) -> numgpu_status {
    boundary("numgpu_create", || create(h, BackendChoice::Auto, 0))
}

/// Creates a handle on a chosen backend and CUDA device.
///
/// - `h` [out]: receives the handle; written only on success.
/// - `backend` [in]: `NUMGPU_BACKEND_AUTO`, `NUMGPU_BACKEND_CPU` or `NUMGPU_BACKEND_CUDA`.
/// - `device` [in]: CUDA device ordinal, >= 0 (not used by the CPU backend).
///
/// Errors: `INVALID_VALUE` (h NULL, backend out of range, device < 0 or not present),
/// `BACKEND_UNAVAILABLE` (CUDA asked for and no driver or device).
#[no_mangle]
pub unsafe extern "C" fn numgpu_create_with(h: *mut *mut Handle, backend: BackendArg, device: i64) -> numgpu_status {
    boundary("numgpu_create_with", || {
        let choice = BackendChoice::from_i32(backend)?;
        // CUDA's ordinals are `int`s: a larger value names no device.
        let device = i32::try_from(device).map_err(|_| Error::arg("device", format!("(device = {device}) is not a CUDA device ordinal")))?;
        create(h, choice, device)
    })
}

/// The handles `numgpu_create` made that `numgpu_destroy` has not released.
static LIVE_HANDLES: Live = Live::new();

unsafe fn create(h: *mut *mut Handle, choice: BackendChoice, device: i32) -> crate::Result<()> {
    let out = deref_mut(h, "h")?;
    let handle = Box::into_raw(Box::new(Handle::new(choice, device)?));
    LIVE_HANDLES.insert(handle);
    *out = handle;
    Ok(())
}

/// Destroys a handle: waits for its work, frees its workspace. NULL is a no-op.
///
/// Errors: `EXECUTION_FAILED` when pending work had failed (the handle is released anyway);
/// `INVALID_VALUE` when h is not a live handle: destroyed already, or never returned by
/// `numgpu_create` (a handle destroyed twice is detected unless a later `numgpu_create`
/// returned the same address meanwhile).
#[no_mangle]
pub unsafe extern "C" fn numgpu_destroy(h: *mut Handle) -> numgpu_status {
    boundary("numgpu_destroy", || {
        if h.is_null() {
            return Ok(());
        }
        if !LIVE_HANDLES.remove(h) {
            return Err(Error::arg("h", "(h) is not a live handle: destroyed already, or not made by numgpu_create"));
        }
        let mut handle = Box::from_raw(h);
        handle.synchronize()
    })
}

/// Writes the handle's backend (`NUMGPU_BACKEND_CPU` or `NUMGPU_BACKEND_CUDA`) to `*backend`.
///
/// Errors: `INVALID_VALUE` when h or backend is NULL.
#[no_mangle]
pub unsafe extern "C" fn numgpu_get_backend(h: *const Handle, backend: *mut BackendArg) -> numgpu_status {
    boundary("numgpu_get_backend", || {
        let handle = deref(h, "h")?;
        let out = deref_mut(backend, "backend")?;
        *out = match handle.backend() {
            Backend::Cpu => numgpu_backend::NUMGPU_BACKEND_CPU,
            Backend::Cuda => numgpu_backend::NUMGPU_BACKEND_CUDA,
        } as i32;
        Ok(())
    })
}

/// Sets the CUDA stream (`cudaStream_t`, NULL for the default stream) on which later calls
/// with device arrays are enqueued. The CPU backend finishes each call before returning and
/// ignores the stream.
///
/// Errors: `INVALID_VALUE` when h is NULL.
#[no_mangle]
pub unsafe extern "C" fn numgpu_set_stream(h: *mut Handle, cuda_stream: *mut c_void) -> numgpu_status {
    boundary("numgpu_set_stream", || deref_mut(h, "h")?.set_stream(cuda_stream))
}

/// Writes to `*stream` the CUDA stream (`cudaStream_t`) on which the handle enqueues calls
/// with device arrays: the one `numgpu_set_stream` set, or NULL for the default stream (a new
/// handle's, and always on the CPU backend, which finishes each call before returning). The
/// stream stays the caller's (or the runtime's): never destroy it through this pointer.
///
/// Errors: `INVALID_VALUE` when h or stream is NULL.
#[no_mangle]
pub unsafe extern "C" fn numgpu_get_stream(h: *const Handle, stream: *mut *mut c_void) -> numgpu_status {
    boundary("numgpu_get_stream", || {
        let handle = deref(h, "h")?;
        *deref_mut(stream, "stream")? = handle.stream();
        Ok(())
    })
}

/// Sets the seed of the handle's reproducible random draws (0 until set): the random starting
/// vectors of `numgpu_sshopm` and its variants with `X0 = NULL`. The same seed and arguments
/// give the same starts on every backend and device.
///
/// Errors: `INVALID_VALUE` when h is NULL.
#[no_mangle]
pub unsafe extern "C" fn numgpu_set_seed(h: *mut Handle, seed: u64) -> numgpu_status {
    boundary("numgpu_set_seed", || {
        deref_mut(h, "h")?.set_seed(seed);
        Ok(())
    })
}

/// Sets the handle's math mode for later calls of single-precision real and complex batched
/// GEMM (`numgpu_sgemm_batched*`, `numgpu_cgemm_batched*`) on the CUDA backend:
/// `NUMGPU_MATH_DEFAULT` (exact FP32, a new handle's mode), `NUMGPU_MATH_3XTF32` (FP32
/// accuracy on the TF32 tensor cores) or `NUMGPU_MATH_TF32` (plain TF32). Each mode's
/// elementwise error bound is in the `numgpu_math_mode` documentation. No other routine or
/// precision reads it, and the CPU backend computes exact FP32 in every mode (within every
/// mode's bound). Work already enqueued keeps the mode it was enqueued with.
///
/// Errors: `INVALID_VALUE` when h is NULL or mode is not a `numgpu_math_mode` value (the
/// handle's mode is then unchanged).
#[no_mangle]
pub unsafe extern "C" fn numgpu_set_math_mode(h: *mut Handle, mode: MathModeArg) -> numgpu_status {
    boundary("numgpu_set_math_mode", || {
        let handle = deref_mut(h, "h")?;
        handle.set_math_mode(MathMode::from_i32(mode, "mode")?);
        Ok(())
    })
}

/// Writes the handle's math mode (`numgpu_set_math_mode`; `NUMGPU_MATH_DEFAULT` until set) to
/// `*mode`, host memory.
///
/// Errors: `INVALID_VALUE` when h or mode is NULL.
#[no_mangle]
pub unsafe extern "C" fn numgpu_get_math_mode(h: *const Handle, mode: *mut MathModeArg) -> numgpu_status {
    boundary("numgpu_get_math_mode", || {
        let handle = deref(h, "h")?;
        *deref_mut(mode, "mode")? = handle.math_mode().code();
        Ok(())
    })
}

/// Waits until all work enqueued through the handle has finished.
///
/// Errors: `INVALID_VALUE` (h NULL), `EXECUTION_FAILED` (an earlier asynchronous call failed
/// on the device).
#[no_mangle]
pub unsafe extern "C" fn numgpu_synchronize(h: *mut Handle) -> numgpu_status {
    boundary("numgpu_synchronize", || deref_mut(h, "h")?.synchronize())
}

/// Allocates `bytes` of the backend's memory: device memory on CUDA, 64-byte-aligned host
/// memory on CPU, so code written against device pointers runs on both backends. `bytes == 0`
/// gives NULL. Free with `numgpu_free` on a handle of the same backend and device.
///
/// - `ptr` [out]: receives the pointer; written only on success.
///
/// Errors: `INVALID_VALUE` (h or ptr NULL), `ALLOC_FAILED` (with the size in the message).
#[no_mangle]
pub unsafe extern "C" fn numgpu_malloc(h: *mut Handle, ptr: *mut *mut c_void, bytes: usize) -> numgpu_status {
    boundary("numgpu_malloc", || {
        let handle = deref_mut(h, "h")?;
        let out = deref_mut(ptr, "ptr")?;
        *out = handle.malloc(bytes)?;
        Ok(())
    })
}

/// Frees memory from `numgpu_malloc` (after the handle's pending work). NULL is a no-op.
///
/// Errors: `INVALID_VALUE` (h NULL), `EXECUTION_FAILED` (the driver refused the pointer).
#[no_mangle]
pub unsafe extern "C" fn numgpu_free(h: *mut Handle, ptr: *mut c_void) -> numgpu_status {
    boundary("numgpu_free", || deref_mut(h, "h")?.free(ptr))
}

/// Copies `bytes` from `src` to `dst`, each host memory or the backend's device memory, in
/// any combination, and returns when the copy is complete (ordered after the handle's pending
/// work). The ranges must not overlap, except on the CPU backend (memmove).
///
/// Errors: `INVALID_VALUE` (h, dst or src NULL with bytes > 0; device memory on the CPU
/// backend), `NOT_SUPPORTED` (bytes beyond the address space, > PTRDIFF_MAX),
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_memcpy(h: *mut Handle, dst: *mut c_void, src: *const c_void, bytes: usize) -> numgpu_status {
    boundary("numgpu_memcpy", || {
        let handle = deref_mut(h, "h")?;
        if bytes > 0 {
            if dst.is_null() {
                return Err(Error::arg("dst", "(dst) must not be NULL when bytes > 0"));
            }
            if src.is_null() {
                return Err(Error::arg("src", "(src) must not be NULL when bytes > 0"));
            }
        }
        check_array::<u8>(bytes, "bytes")?;
        handle.memcpy(dst, src, bytes)
    })
}
