//! Loading the CUDA driver, per-device state on the primary context, checked driver calls.
//!
//! Contexts, streams, modules, functions, launches, events and pinned memory go through
//! cudarc's safe layer; the raw `sys` layer stays where cudarc has no safe form for what we
//! need (docs/ARCHITECTURE.md lists those places and why).

use crate::core::error::{Error, Result};
use cudarc::driver::safe::CudaContext;
use cudarc::driver::{sys as cu, DriverError};
use std::collections::HashMap;
use std::ffi::{c_void, CStr};
use std::sync::{Arc, Mutex, OnceLock};

use super::module::ModuleCache;

/// Maps a driver result to the crate's error: out of memory is `ALLOC_FAILED`, the rest
/// `EXECUTION_FAILED`, both naming the call that failed.
pub fn check(r: cu::CUresult, what: &str) -> Result<()> {
    if r == cu::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let name = error_name(r);
    if r == cu::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        Err(Error::alloc(format!("{what}: {name}")))
    } else {
        Err(Error::exec(format!("{what}: {name}")))
    }
}

/// A failed cudarc call as the crate's error (as [`check`] maps it), naming the call.
pub fn failed(e: DriverError, what: &str) -> Error {
    check(e.0, what).expect_err("a DriverError is never success")
}

fn error_name(r: cu::CUresult) -> String {
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: cuGetErrorName writes a pointer to a static string or leaves it null.
    unsafe {
        if cu::cuGetErrorName(r, &mut p) == cu::CUresult::CUDA_SUCCESS && !p.is_null() {
            return CStr::from_ptr(p).to_string_lossy().into_owned();
        }
    }
    format!("CUresult {}", r as i32)
}

/// Whether the driver library loads and `cuInit` succeeds; the reason when not.
/// Decided once per process.
pub fn driver() -> Result<()> {
    static STATE: OnceLock<std::result::Result<(), String>> = OnceLock::new();
    STATE
        .get_or_init(|| {
            // SAFETY: probing for the library has no preconditions.
            if !unsafe { cu::is_culib_present() } {
                return Err("the CUDA driver library (libcuda.so) was not found".into());
            }
            // SAFETY: cuInit may be called any number of times.
            let r = unsafe { cu::cuInit(0) };
            check(r, "cuInit").map_err(|e| e.msg)
        })
        .clone()
        .map_err(Error::unavailable)
}

/// Number of CUDA devices, 0 when the driver is unusable.
pub fn device_count() -> i32 {
    if driver().is_err() {
        return 0;
    }
    let mut n = 0;
    // SAFETY: the driver is initialised.
    let r = unsafe { cu::cuDeviceGetCount(&mut n) };
    if r == cu::CUresult::CUDA_SUCCESS {
        n
    } else {
        0
    }
}

/// One device of the process: its primary context and what kernels need to know of it.
/// Shared by every handle on the device; never released (the primary context outlives
/// them all).
pub struct Device {
    pub ordinal: i32,
    /// The device's primary context (retained once), shared with the CUDA runtime, PyTorch
    /// and the user's code.
    pub ctx: Arc<CudaContext>,
    /// Compute capability, e.g. (9, 0).
    pub arch: (i32, i32),
    pub sm_count: i32,
    /// Largest dynamic shared memory one block may opt in to, in bytes.
    pub max_smem_optin: usize,
    pub name: String,
    pub modules: ModuleCache,
}

impl Device {
    /// Makes this device's primary context current on the calling thread.
    pub fn bind(&self) -> Result<()> {
        self.ctx.bind_to_thread().map_err(|e| failed(e, "cuCtxSetCurrent"))
    }

    /// `sm_XX` of this device.
    pub fn arch_name(&self) -> String {
        format!("sm_{}{}", self.arch.0, self.arch.1)
    }
}

/// The device `ordinal`, opened on first use (primary context retained once).
pub fn device(ordinal: i32) -> Result<Arc<Device>> {
    driver()?;
    static DEVICES: OnceLock<Mutex<HashMap<i32, Arc<Device>>>> = OnceLock::new();
    let mut map = DEVICES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = map.get(&ordinal) {
        return Ok(d.clone());
    }
    let count = device_count();
    if ordinal < 0 || ordinal >= count {
        return Err(Error::arg("device", format!("(device = {ordinal}) must be at least 0 and below {count}, the number of CUDA devices visible")));
    }
    let d = Arc::new(open(ordinal)?);
    map.insert(ordinal, d.clone());
    Ok(d)
}

fn open(ordinal: i32) -> Result<Device> {
    let ctx = CudaContext::new(ordinal as usize).map_err(|e| failed(e, "cuDevicePrimaryCtxRetain"))?;
    // Work is ordered on each handle's one stream (the user's or the default one), and the
    // memory kernels touch is the caller's or the handle's raw workspace: cudarc's per-slice
    // event tracking would only add events.
    // SAFETY: no cudarc allocation of this context is used from more than one stream.
    unsafe { ctx.disable_event_tracking() };
    let attr = |a: cu::CUdevice_attribute| ctx.attribute(a).map_err(|e| failed(e, "cuDeviceGetAttribute"));
    use cu::CUdevice_attribute as A;
    Ok(Device {
        ordinal,
        arch: ctx.compute_capability().map_err(|e| failed(e, "cuDeviceGetAttribute"))?,
        sm_count: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        max_smem_optin: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)? as usize,
        name: ctx.name().map_err(|e| failed(e, "cuDeviceGetName"))?,
        modules: ModuleCache::default(),
        ctx,
    })
}

/// Where a pointer lives, as the driver sees it: `None` for host memory it does not know
/// (plain `malloc`) or host memory it registered; `Some(ordinal)` for device or managed
/// memory.
pub fn device_of(ptr: *const c_void) -> Option<i32> {
    if ptr.is_null() || driver().is_err() {
        return None;
    }
    let mut mem_type: u32 = 0;
    let mut ordinal: i32 = -1;
    let mut attrs = [
        cu::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        cu::CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
    ];
    let mut data = [&mut mem_type as *mut u32 as *mut c_void, &mut ordinal as *mut i32 as *mut c_void];
    // SAFETY: each attribute writes a 4-byte value to its slot. Unlike cuPointerGetAttribute,
    // the plural form reports memory the driver does not know as type 0 with success, so
    // host pointers raise no API error (which compute-sanitizer would flag).
    let r = unsafe { cu::cuPointerGetAttributes(2, attrs.as_mut_ptr(), data.as_mut_ptr(), ptr as cu::CUdeviceptr) };
    let device = mem_type == cu::CUmemorytype::CU_MEMORYTYPE_DEVICE as u32 || mem_type == cu::CUmemorytype::CU_MEMORYTYPE_UNIFIED as u32;
    (r == cu::CUresult::CUDA_SUCCESS && device && ordinal >= 0).then_some(ordinal)
}

/// Whether `NUMGPU_SYNC_CHECK=1`: synchronise after every launch.
pub fn sync_check() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("NUMGPU_SYNC_CHECK").map(|v| v == "1").unwrap_or(false))
}
