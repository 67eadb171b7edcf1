//! GPU plumbing of the bench: finding the toolkit's libraries, the device, the one stream
//! everything is timed on, CUDA events, device buffers, checked copies and the cuBLAS and
//! cuSPARSE handles.

use cudarc::cublas::sys as cb;
use cudarc::cusparse::sys as cs;
use cudarc::driver::sys as cu;
use numgpu::cuda::driver::{check, Device};
use std::ffi::c_void;
use std::sync::Arc;

/// The bench's error: a message for the row or the run it ends.
pub type Res<T> = std::result::Result<T, String>;

/// Turns a numgpu error into the bench's.
pub fn ng<T>(r: numgpu::Result<T>) -> Res<T> {
    r.map_err(|e| e.msg)
}

/// Folders where a CUDA 13 toolkit keeps its libraries, most specific first.
fn toolkit_lib_dirs() -> Vec<std::path::PathBuf> {
    let mut roots: Vec<std::path::PathBuf> = ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"].iter().filter_map(std::env::var_os).filter(|v| !v.is_empty()).map(Into::into).collect();
    roots.extend(["/usr/local/cuda", "/usr/local/cuda-13.0", "/usr/local/cuda-13", "/opt/cuda"].map(Into::into));
    let mut dirs = Vec::new();
    for r in roots {
        dirs.push(r.join("lib64"));
        dirs.push(r.join("targets/x86_64-linux/lib"));
        dirs.push(r.join("lib"));
    }
    dirs
}

/// When cuBLAS, cuSPARSE or NVRTC cannot be found by name (the toolkit's lib64 is not on the
/// loader path), loads them by absolute path from the usual toolkit folders. The loader then
/// answers cudarc's later `dlopen("libcublas.so.13")` with the copy already loaded (it
/// matches the soname). Returns the paths it loaded, for the report.
pub fn preload_toolkit_libs() -> Vec<String> {
    // SAFETY: probing for a library has no preconditions.
    let need_blas = !unsafe { cb::is_culib_present() };
    // SAFETY: as above.
    let need_sparse = !unsafe { cs::is_culib_present() };
    let need_nvrtc = !numgpu::cuda::module::nvrtc_available();
    // Each entry: the names one library may have, the first found wins. Dependencies first.
    let mut wanted: Vec<&[&str]> = Vec::new();
    if need_nvrtc {
        wanted.extend([&["libnvrtc-builtins.so.13"][..], &["libnvrtc.so.13"]]);
    }
    if need_blas {
        wanted.extend([&["libcublasLt.so.13"][..], &["libcublas.so.13"]]);
    }
    if need_sparse {
        // CUDA 13's cuSPARSE is libcusparse.so.12 (its own major version), linked to nvJitLink.
        wanted.extend([&["libnvJitLink.so.13"][..], &["libcusparse.so.12", "libcusparse.so.13"]]);
    }
    let mut loaded = Vec::new();
    for names in wanted {
        'dirs: for (dir, name) in toolkit_lib_dirs().iter().flat_map(|d| names.iter().map(move |n| (d, n))) {
            let Ok(entries) = std::fs::read_dir(dir) else { continue };
            let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            files.sort();
            // Exact name first, else a versioned one (libnvrtc-builtins.so.13.0).
            let hit = files.iter().find(|p| p.file_name().is_some_and(|f| f == *name)).or_else(|| {
                files.iter().find(|p| p.file_name().and_then(|f| f.to_str()).is_some_and(|f| f.starts_with(&format!("{name}."))))
            });
            if let Some(path) = hit {
                let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).unwrap();
                // SAFETY: loading a shared library by path; it stays loaded for the process.
                if !unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) }.is_null() {
                    loaded.push(path.to_string_lossy().into_owned());
                    break 'dirs;
                }
            }
        }
    }
    loaded
}

/// Whether libcublas can be loaded (after `preload_toolkit_libs`).
pub fn cublas_present() -> bool {
    // SAFETY: probing for the library has no preconditions.
    unsafe { cb::is_culib_present() }
}

/// A device allocation, freed on drop (after the stream is idle: see `Gpu::sync`).
pub struct DevBuf {
    pub ptr: u64,
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        if self.ptr != 0 {
            // SAFETY: allocated by Gpu::alloc; the owner synchronised before dropping it.
            unsafe { cu::cuMemFree_v2(self.ptr) };
        }
    }
}

/// The device, its properties and the stream every timed call runs on.
pub struct Gpu {
    pub dev: Arc<Device>,
    pub stream: cu::CUstream,
    pub l2_bytes: usize,
    pub total_mem: usize,
    pub max_threads_per_sm: i32,
    /// (major, minor) of the driver's CUDA version.
    pub driver_version: (i32, i32),
}

fn attr(dev: i32, a: cu::CUdevice_attribute) -> Res<i32> {
    let mut v = 0;
    // SAFETY: plain query on a valid ordinal; the out-pointer is a local.
    ng(check(unsafe { cu::cuDeviceGetAttribute(&mut v, a, dev) }, "cuDeviceGetAttribute"))?;
    Ok(v)
}

impl Gpu {
    /// Opens device `ordinal` through numgpu (its primary context, made current here) and
    /// creates the bench's stream.
    pub fn open(ordinal: i32) -> Res<Gpu> {
        let dev = ng(numgpu::cuda::driver::device(ordinal))?;
        ng(dev.bind())?;
        let mut cudev: cu::CUdevice = 0;
        let mut total = 0usize;
        let mut ver = 0;
        let mut stream: cu::CUstream = std::ptr::null_mut();
        // SAFETY: driver queries with local out-pointers; the context is current.
        unsafe {
            ng(check(cu::cuDeviceGet(&mut cudev, ordinal), "cuDeviceGet"))?;
            ng(check(cu::cuDeviceTotalMem_v2(&mut total, cudev), "cuDeviceTotalMem"))?;
            ng(check(cu::cuDriverGetVersion(&mut ver), "cuDriverGetVersion"))?;
            // A blocking stream: ordered with the legacy default stream the plain copies use.
            ng(check(cu::cuStreamCreate(&mut stream, 0), "cuStreamCreate"))?;
        }
        use cu::CUdevice_attribute as A;
        Ok(Gpu {
            l2_bytes: attr(cudev, A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as usize,
            max_threads_per_sm: attr(cudev, A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
            total_mem: total,
            driver_version: (ver / 1000, (ver % 1000) / 10),
            dev,
            stream,
        })
    }

    /// Waits for the stream and reports an asynchronous failure.
    pub fn sync(&self) -> Res<()> {
        // SAFETY: our stream.
        ng(check(unsafe { cu::cuStreamSynchronize(self.stream) }, "cuStreamSynchronize"))
    }

    /// Free device memory now, in bytes.
    pub fn free_mem(&self) -> usize {
        let (mut free, mut total) = (0usize, 0usize);
        // SAFETY: writes two sizes; the context is current.
        unsafe { cu::cuMemGetInfo_v2(&mut free, &mut total) };
        free
    }

    pub fn alloc(&self, bytes: usize) -> Res<DevBuf> {
        let mut p: cu::CUdeviceptr = 0;
        // SAFETY: out-pointer is a local.
        ng(check(unsafe { cu::cuMemAlloc_v2(&mut p, bytes.max(1)) }, "cuMemAlloc"))
            .map_err(|e| format!("allocating {:.2} GB of device memory: {e}", bytes as f64 / 1e9))?;
        Ok(DevBuf { ptr: p })
    }

    /// Copies `src` to device address `dst` once the stream is idle; returns when done.
    pub fn htod<T: Copy>(&self, dst: u64, src: &[T]) -> Res<()> {
        self.sync()?;
        // SAFETY: the caller's buffer at `dst` holds at least `src`'s bytes.
        ng(check(unsafe { cu::cuMemcpyHtoD_v2(dst, src.as_ptr() as *const c_void, std::mem::size_of_val(src)) }, "cuMemcpyHtoD"))
    }

    /// Copies device memory at `src` into `dst` once the stream is idle; returns when done.
    pub fn dtoh<T: Copy>(&self, dst: &mut [T], src: u64) -> Res<()> {
        self.sync()?;
        // SAFETY: the device buffer at `src` holds at least `dst`'s bytes.
        ng(check(unsafe { cu::cuMemcpyDtoH_v2(dst.as_mut_ptr() as *mut c_void, src, std::mem::size_of_val(dst)) }, "cuMemcpyDtoH"))
    }

    /// Enqueues a copy of `bytes` from device address `src` to `dst` on the stream.
    pub fn copy_async(&self, dst: u64, src: u64, bytes: usize) -> Res<()> {
        // SAFETY: the caller's buffers at `src` and `dst` hold at least `bytes`.
        ng(check(unsafe { cu::cuMemcpyDtoDAsync_v2(dst, src, bytes, self.stream) }, "cuMemcpyDtoDAsync"))
    }

    /// Enqueues setting `bytes` bytes at device address `dst` to `byte` on the stream (0xFF
    /// fills float outputs with NaN, so that an element a call leaves unwritten shows).
    pub fn memset_async(&self, dst: u64, byte: u8, bytes: usize) -> Res<()> {
        // SAFETY: the caller's buffer at `dst` holds at least `bytes`.
        ng(check(unsafe { cu::cuMemsetD8Async(dst, byte, bytes, self.stream) }, "cuMemsetD8Async"))
    }

    /// Times `call(i)` for i in 0..reps on the stream, each between two CUDA events, after
    /// `warmup` untimed calls; returns the milliseconds of each timed call. All calls are
    /// enqueued back to back and read after one synchronisation, so the host's launch
    /// overhead stays hidden when a call takes longer on the GPU than to enqueue.
    pub fn time(&self, warmup: usize, reps: usize, mut call: impl FnMut(usize) -> Res<()>) -> Res<Vec<f64>> {
        self.time_setup(warmup, reps, |_| Ok(()), |j| call(if j < warmup { j } else { j - warmup }))
    }

    /// As `time`, for calls that need their inputs restored (in-place factorisations):
    /// `setup(j)` is enqueued before call j's start event, so it is not timed; j counts the
    /// warm-up and the timed calls together (0..warmup + reps), for `setup` and `call` alike.
    pub fn time_setup(&self, warmup: usize, reps: usize, mut setup: impl FnMut(usize) -> Res<()>, mut call: impl FnMut(usize) -> Res<()>) -> Res<Vec<f64>> {
        for j in 0..warmup {
            setup(j)?;
            call(j)?;
        }
        let mut events = Vec::with_capacity(2 * reps);
        let result = (|| {
            for _ in 0..2 * reps {
                let mut e: cu::CUevent = std::ptr::null_mut();
                // SAFETY: out-pointer is a local; destroyed below.
                ng(check(unsafe { cu::cuEventCreate(&mut e, 0) }, "cuEventCreate"))?;
                events.push(e);
            }
            for i in 0..reps {
                setup(warmup + i)?;
                // SAFETY: events and stream are live.
                ng(check(unsafe { cu::cuEventRecord(events[2 * i], self.stream) }, "cuEventRecord"))?;
                call(warmup + i)?;
                ng(check(unsafe { cu::cuEventRecord(events[2 * i + 1], self.stream) }, "cuEventRecord"))?;
            }
            self.sync()?;
            let mut ms = Vec::with_capacity(reps);
            for i in 0..reps {
                let mut t = 0f32;
                // SAFETY: both events completed (the stream was synchronised).
                ng(check(unsafe { cu::cuEventElapsedTime_v2(&mut t, events[2 * i], events[2 * i + 1]) }, "cuEventElapsedTime"))?;
                ms.push(t as f64);
            }
            Ok(ms)
        })();
        for e in events {
            // SAFETY: created above, no longer used.
            unsafe { cu::cuEventDestroy_v2(e) };
        }
        result
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        let _ = self.sync();
        // SAFETY: our stream; nothing is enqueued on it any more.
        unsafe { cu::cuStreamDestroy_v2(self.stream) };
    }
}

/// Median of a non-empty sample.
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        0.5 * (s[m - 1] + s[m])
    }
}

pub fn cublas_check(s: cb::cublasStatus_t, what: &str) -> Res<()> {
    if s == cb::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(format!("{what}: {s:?}"))
    }
}

/// Whether libcusparse can be loaded (after `preload_toolkit_libs`).
pub fn cusparse_present() -> bool {
    // SAFETY: probing for the library has no preconditions.
    unsafe { cs::is_culib_present() }
}

pub fn cusparse_check(s: cs::cusparseStatus_t, what: &str) -> Res<()> {
    if s == cs::cusparseStatus_t::CUSPARSE_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(format!("{what}: {s:?}"))
    }
}

/// A cuSPARSE handle on the bench's stream.
pub struct Cusparse {
    pub h: cs::cusparseHandle_t,
    /// cuSPARSE's version as major.minor.patch.
    pub version: String,
}

impl Cusparse {
    pub fn new(gpu: &Gpu) -> Res<Cusparse> {
        ng(gpu.dev.bind())?;
        let mut h: cs::cusparseHandle_t = std::ptr::null_mut();
        let mut v = 0;
        // SAFETY: plain cuSPARSE set-up calls with local out-pointers; the device's primary
        // context is current, which the runtime under cuSPARSE adopts.
        unsafe {
            cusparse_check(cs::cusparseCreate(&mut h), "cusparseCreate")?;
            let setup = (|| {
                cusparse_check(cs::cusparseSetStream(h, gpu.stream as cs::cudaStream_t), "cusparseSetStream")?;
                cusparse_check(cs::cusparseGetVersion(h, &mut v), "cusparseGetVersion")
            })();
            if let Err(e) = setup {
                cs::cusparseDestroy(h);
                return Err(e);
            }
        }
        Ok(Cusparse { h, version: format!("{}.{}.{}", v / 1000, (v / 100) % 10, v % 100) })
    }
}

impl Drop for Cusparse {
    fn drop(&mut self) {
        // SAFETY: created in new; no call is in flight once the stream was synchronised.
        unsafe { cs::cusparseDestroy(self.h) };
    }
}

/// A cuBLAS handle on the bench's stream, in the default math mode (no TF32).
pub struct Cublas {
    pub h: cb::cublasHandle_t,
    /// cuBLAS's version as major.minor.patch.
    pub version: String,
}

impl Cublas {
    pub fn new(gpu: &Gpu) -> Res<Cublas> {
        ng(gpu.dev.bind())?;
        let mut h: cb::cublasHandle_t = std::ptr::null_mut();
        let mut v = 0;
        // SAFETY: plain cuBLAS set-up calls with local out-pointers; the device's primary
        // context is current, which the runtime under cuBLAS adopts.
        unsafe {
            cublas_check(cb::cublasCreate_v2(&mut h), "cublasCreate")?;
            let setup = (|| {
                cublas_check(cb::cublasSetStream_v2(h, gpu.stream as cb::cudaStream_t), "cublasSetStream")?;
                cublas_check(cb::cublasSetMathMode(h, cb::cublasMath_t::CUBLAS_DEFAULT_MATH), "cublasSetMathMode")?;
                cublas_check(cb::cublasGetVersion_v2(h, &mut v), "cublasGetVersion")
            })();
            if let Err(e) = setup {
                cb::cublasDestroy_v2(h);
                return Err(e);
            }
        }
        Ok(Cublas { h, version: format!("{}.{}.{}", v / 10000, (v / 100) % 100, v % 100) })
    }
}

impl Drop for Cublas {
    fn drop(&mut self) {
        // SAFETY: created in new; no call is in flight once the stream was synchronised.
        unsafe { cb::cublasDestroy_v2(self.h) };
    }
}
