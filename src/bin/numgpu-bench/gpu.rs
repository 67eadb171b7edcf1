//! GPU plumbing of the bench, on cudarc's safe layer where it has what the bench needs
//! (context, stream, events, buffers, the cuBLAS handle): the toolkit's libraries, the device
//! and the one stream everything is timed on, raw-address copies (numgpu's and the peers'
//! entry points take raw device addresses), a cuSPARSE handle (cudarc has no safe cuSPARSE
//! layer) and a cuSOLVER dense handle with its parameters.

use cudarc::cublas::{sys as cb, CudaBlas};
use cudarc::cusolver::{safe::DnHandle, sys as csv};
use cudarc::cusparse::sys as cs;
use cudarc::driver::sys as cu;
use cudarc::driver::{result, CudaSlice, CudaStream, DevicePtr};
use numgpu::cuda::driver::Device;
use std::sync::Arc;

/// The bench's error: a message for the row or the run it ends.
pub type Res<T> = std::result::Result<T, String>;

/// Turns an error of numgpu, cudarc or a CUDA library into the bench's, naming the call.
pub fn ok<T, E: std::fmt::Debug>(r: Result<T, E>, what: &str) -> Res<T> {
    r.map_err(|e| format!("{what}: {e:?}"))
}

/// Turns a numgpu error into the bench's (its message says what failed).
pub fn ng<T>(r: numgpu::Result<T>) -> Res<T> {
    r.map_err(|e| e.msg)
}

/// When cuBLAS, cuSPARSE or NVRTC cannot be found by name (the toolkit's lib64 is not on the
/// loader path), loads them by absolute path from the usual toolkit folders; the loader then
/// answers cudarc's later `dlopen("libcublas.so.13")` with the copy already loaded (it
/// matches the soname). Returns the paths it loaded, for the report.
pub fn preload_toolkit_libs() -> Vec<String> {
    let mut roots: Vec<std::path::PathBuf> = ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"].iter().filter_map(std::env::var_os).filter(|v| !v.is_empty()).map(Into::into).collect();
    roots.extend(["/usr/local/cuda", "/usr/local/cuda-13.0", "/usr/local/cuda-13", "/opt/cuda"].map(Into::into));
    let dirs: Vec<_> = roots.iter().flat_map(|r| [r.join("lib64"), r.join("targets/x86_64-linux/lib"), r.join("lib")]).collect();
    // Each entry: the names one library may have, the first found wins; dependencies first.
    // CUDA 13's cuSPARSE is libcusparse.so.12 (its own major version), linked to nvJitLink.
    let mut wanted: Vec<&[&str]> = Vec::new();
    if !numgpu::cuda::module::nvrtc_available() {
        wanted.extend([&["libnvrtc-builtins.so.13"][..], &["libnvrtc.so.13"]]);
    }
    if !cublas_present() {
        wanted.extend([&["libcublasLt.so.13"][..], &["libcublas.so.13"]]);
    }
    if !cusparse_present() {
        wanted.extend([&["libnvJitLink.so.13"][..], &["libcusparse.so.12", "libcusparse.so.13"]]);
    }
    // CUDA 13's cuSOLVER is libcusolver.so.12, linked to cuBLAS, cuSPARSE and nvJitLink (above).
    if !cusolver_present() {
        wanted.push(&["libcusolver.so.12", "libcusolver.so.13"]);
    }
    let mut loaded = Vec::new();
    for names in wanted {
        let found = dirs.iter().flat_map(|d| names.iter().map(move |n| (d, n))).find_map(|(dir, name)| {
            let mut files: Vec<_> = std::fs::read_dir(dir).ok()?.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            files.sort();
            // The exact name first, else a versioned one (libnvrtc-builtins.so.13.0).
            let named = |p: &&std::path::PathBuf, exact: bool| p.file_name().and_then(|f| f.to_str()).is_some_and(|f| if exact { f == *name } else { f.starts_with(&format!("{name}.")) });
            let path = files.iter().find(|p| named(p, true)).or_else(|| files.iter().find(|p| named(p, false)))?;
            let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).ok()?;
            // SAFETY: loading a shared library by path; it stays loaded for the process.
            let handle = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
            (!handle.is_null()).then(|| path.to_string_lossy().into_owned())
        });
        loaded.extend(found);
    }
    loaded
}

/// Whether libcublas and libcusparse can be loaded.
pub fn cublas_present() -> bool {
    // SAFETY: probing for the library has no preconditions.
    unsafe { cb::is_culib_present() }
}

pub fn cusparse_present() -> bool {
    // SAFETY: probing for the library has no preconditions.
    unsafe { cs::is_culib_present() }
}

pub fn cusolver_present() -> bool {
    // SAFETY: probing for the library has no preconditions.
    unsafe { csv::is_culib_present() }
}

/// A device allocation and its address, freed when dropped (ordered after the stream's work).
pub struct DevBuf {
    _mem: CudaSlice<u8>,
    pub ptr: u64,
}

/// The device (numgpu's: its primary context and module cache), its properties and the
/// stream every timed call runs on.
pub struct Gpu {
    pub dev: Arc<Device>,
    pub stream: Arc<CudaStream>,
    pub l2_bytes: usize,
    pub total_mem: usize,
    pub max_threads_per_sm: i32,
    /// major.minor of the driver's CUDA version.
    pub driver_version: String,
}

impl Gpu {
    /// Opens device `ordinal` through numgpu (whose context leaves the ordering to its users:
    /// the bench synchronises before it reads results) and creates the bench's stream.
    pub fn open(ordinal: i32) -> Res<Gpu> {
        let dev = ng(numgpu::cuda::driver::device(ordinal))?;
        let (stream, mut ver) = (ok(dev.ctx.new_stream(), "cuStreamCreate")?, 0);
        let attr = |a| ok(dev.ctx.attribute(a), "cuDeviceGetAttribute");
        use cu::CUdevice_attribute as A;
        // SAFETY: writes one int.
        ok(unsafe { cu::cuDriverGetVersion(&mut ver) }.result(), "cuDriverGetVersion")?;
        Ok(Gpu {
            l2_bytes: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as usize,
            max_threads_per_sm: attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
            total_mem: ok(dev.ctx.total_mem(), "cuDeviceTotalMem")?,
            driver_version: format!("{}.{}", ver / 1000, (ver % 1000) / 10),
            dev,
            stream,
        })
    }

    /// Waits for the stream and reports an asynchronous failure.
    pub fn sync(&self) -> Res<()> {
        ok(self.stream.synchronize(), "cuStreamSynchronize")
    }

    /// Free device memory now, in bytes.
    pub fn free_mem(&self) -> usize {
        self.dev.ctx.mem_get_info().map_or(0, |(free, _)| free)
    }

    pub fn alloc(&self, bytes: usize) -> Res<DevBuf> {
        let mem = self.stream.alloc_zeros::<u8>(bytes.max(1)).map_err(|e| format!("allocating {:.2} GB of device memory: {e:?}", bytes as f64 / 1e9))?;
        let ptr = mem.device_ptr(&self.stream).0;
        Ok(DevBuf { _mem: mem, ptr })
    }

    /// Copies `src` to device address `dst` on the stream; returns when done.
    pub fn htod<T>(&self, dst: u64, src: &[T]) -> Res<()> {
        // SAFETY: the caller's buffer at `dst` holds at least `src`'s bytes; `src` outlives
        // the copy (the stream is synchronised before returning).
        ok(unsafe { result::memcpy_htod_async(dst, src, self.stream.cu_stream()) }, "cuMemcpyHtoDAsync")?;
        self.sync()
    }

    /// Copies device memory at `src` into `dst` on the stream; returns when done.
    pub fn dtoh<T>(&self, dst: &mut [T], src: u64) -> Res<()> {
        // SAFETY: the device buffer at `src` holds at least `dst`'s bytes; as for `htod`.
        ok(unsafe { result::memcpy_dtoh_async(dst, src, self.stream.cu_stream()) }, "cuMemcpyDtoHAsync")?;
        self.sync()
    }

    /// Enqueues a copy of `bytes` from device address `src` to `dst` on the stream.
    pub fn copy_async(&self, dst: u64, src: u64, bytes: usize) -> Res<()> {
        // SAFETY: the caller's buffers at `src` and `dst` hold at least `bytes`.
        ok(unsafe { result::memcpy_dtod_async(dst, src, bytes, self.stream.cu_stream()) }, "cuMemcpyDtoDAsync")
    }

    /// Enqueues setting `bytes` bytes at `dst` to `byte` (0xFF: NaN in float outputs and −1 in
    /// integer ones, so that an entry a call leaves unwritten shows).
    pub fn memset_async(&self, dst: u64, byte: u8, bytes: usize) -> Res<()> {
        // SAFETY: the caller's buffer at `dst` holds at least `bytes`.
        ok(unsafe { result::memset_d8_async(dst, byte, bytes, self.stream.cu_stream()) }, "cuMemsetD8Async")
    }

    /// Times `call(j)` on the stream between two CUDA events for j in warmup..warmup + reps,
    /// after the untimed calls 0..warmup; `setup(j)` is enqueued before call j's start event
    /// (untimed: restoring inputs). Everything is enqueued back to back and read after one
    /// synchronisation, so the host's launch overhead stays hidden when a call takes longer on
    /// the GPU than to enqueue. Returns the milliseconds of each timed call.
    pub fn time(&self, warmup: usize, reps: usize, mut setup: impl FnMut(usize) -> Res<()>, mut call: impl FnMut(usize) -> Res<()>) -> Res<Vec<f64>> {
        for j in 0..warmup {
            setup(j)?;
            call(j)?;
        }
        // The events exist before the first call: nothing but the call between two records.
        let event = || ok(self.dev.ctx.new_event(Some(cu::CUevent_flags::CU_EVENT_DEFAULT)), "cuEventCreate");
        let events = (0..reps).map(|_| Ok((event()?, event()?))).collect::<Res<Vec<_>>>()?;
        for (j, (start, end)) in (warmup..).zip(&events) {
            setup(j)?;
            ok(start.record(&self.stream), "cuEventRecord")?;
            call(j)?;
            ok(end.record(&self.stream), "cuEventRecord")?;
        }
        self.sync()?;
        events.iter().map(|(a, b)| ok(a.elapsed_ms(b), "cuEventElapsedTime").map(f64::from)).collect()
    }

    /// The median milliseconds of `reps` calls of `call(set)` rotating through `sets` input
    /// sets, each call on fresh inputs: before call j, `restore` puts back the set call j − 1
    /// used (untimed), and after the last call its set, so all sets are fresh afterwards.
    pub fn time_fresh(&self, warmup: usize, reps: usize, sets: usize, restore: impl Fn(usize) -> Res<()>, mut call: impl FnMut(usize) -> Res<()>) -> Res<f64> {
        let ms = self.time(warmup, reps, |j| if j > 0 { restore((j - 1) % sets) } else { Ok(()) }, |j| call(j % sets))?;
        restore((warmup + reps - 1) % sets)?;
        Ok(median(&ms))
    }
}

/// Median of a non-empty sample.
pub fn median(v: &[f64]) -> f64 {
    let (mut s, m) = (v.to_vec(), v.len() / 2);
    s.sort_by(|a, b| a.total_cmp(b));
    if s.len() % 2 == 1 {
        s[m]
    } else {
        0.5 * (s[m - 1] + s[m])
    }
}

/// A cuBLAS handle on the bench's stream, in the default math mode (no TF32), and its version.
pub struct Cublas {
    blas: CudaBlas,
    pub version: String,
}

impl Cublas {
    pub fn new(gpu: &Gpu) -> Res<Cublas> {
        let blas = ok(CudaBlas::new(gpu.stream.clone()), "cublasCreate")?;
        let mut v = 0;
        // SAFETY: the handle is live; the version is written to a local.
        unsafe {
            ok(cb::cublasSetMathMode(*blas.handle(), cb::cublasMath_t::CUBLAS_DEFAULT_MATH).result(), "cublasSetMathMode")?;
            ok(cb::cublasGetVersion_v2(*blas.handle(), &mut v).result(), "cublasGetVersion")?;
        }
        Ok(Cublas { blas, version: format!("{}.{}.{}", v / 10000, (v / 100) % 100, v % 100) })
    }

    pub fn h(&self) -> cb::cublasHandle_t {
        *self.blas.handle()
    }
}

/// A cuSPARSE handle on the bench's stream, and its version.
pub struct Cusparse {
    pub h: cs::cusparseHandle_t,
    pub version: String,
}

impl Cusparse {
    pub fn new(gpu: &Gpu) -> Res<Cusparse> {
        ng(gpu.dev.bind())?;
        let mut sp = Cusparse { h: ok(cudarc::cusparse::result::create(), "cusparseCreate")?, version: String::new() };
        let mut v = 0;
        // SAFETY: the handle is live (destroyed by Drop even when this fails); the stream
        // belongs to the current context; the version is written to a local.
        unsafe {
            ok(cs::cusparseSetStream(sp.h, gpu.stream.cu_stream() as cs::cudaStream_t).result(), "cusparseSetStream")?;
            ok(cs::cusparseGetVersion(sp.h, &mut v).result(), "cusparseGetVersion")?;
        }
        sp.version = format!("{}.{}.{}", v / 1000, (v / 100) % 10, v % 100);
        Ok(sp)
    }
}

impl Drop for Cusparse {
    fn drop(&mut self) {
        // SAFETY: created in `new`; no call is in flight once the stream was synchronised.
        let _ = unsafe { cudarc::cusparse::result::destroy(self.h) };
    }
}

/// A cuSOLVER dense handle on the bench's stream, default parameters for its 64-bit API, and
/// its version.
pub struct Cusolver {
    pub h: DnHandle,
    pub params: csv::cusolverDnParams_t,
    pub version: String,
}

impl Cusolver {
    pub fn new(gpu: &Gpu) -> Res<Cusolver> {
        ng(gpu.dev.bind())?;
        let h = ok(DnHandle::new(gpu.stream.clone()), "cusolverDnCreate")?;
        let params = ok(cudarc::cusolver::result::dn_create_params(), "cusolverDnCreateParams")?;
        let mut v = 0;
        // SAFETY: writes one int.
        ok(unsafe { csv::cusolverGetVersion(&mut v) }.result(), "cusolverGetVersion")?;
        Ok(Cusolver { h, params, version: format!("{}.{}.{}", v / 1000, (v / 100) % 10, v % 100) })
    }
}

impl Drop for Cusolver {
    fn drop(&mut self) {
        // SAFETY: created in `new`; no call is in flight once the stream was synchronised.
        let _ = unsafe { cudarc::cusolver::result::dn_destroy_params(self.params) };
    }
}
