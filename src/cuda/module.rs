//! Run-time compilation of `kernels/*.cu` with NVRTC to a cubin for the device's exact
//! architecture, and the module caches: in memory per device, on disk across processes.

use crate::core::error::{Error, Result, Status};
use cudarc::driver::safe::CudaFunction;
use cudarc::nvrtc::sys as nv;
use cudarc::nvrtc::Ptx;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::ffi::{c_char, CStr, CString};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use super::driver::{failed, Device};

/// Device-side helpers shared by every family, seen by kernels as `#include "common.cuh"`.
pub const COMMON_CUH: &str = include_str!("../../kernels/common.cuh");

/// A loaded module's one entry point (the module stays loaded while the function lives).
pub struct Module {
    pub func: CudaFunction,
}

type Slot = Arc<OnceLock<std::result::Result<Arc<Module>, Error>>>;

/// What identifies a module's source: the address of an embedded `kernels/*.cu` (compared
/// without reading the text), or the text itself for a source assembled at run time (a
/// user's right-hand side with its integrator).
#[derive(Clone, PartialEq, Eq, Hash)]
enum SourceKey {
    Embedded(usize),
    Runtime(String),
}

/// Compiled modules of one device, keyed by source, options and entry point (one source and
/// one set of defines may hold several kernels: each is its own slot, its cubin shared
/// through the disk cache). Each slot is filled once, even when threads race for it.
#[derive(Default)]
pub struct ModuleCache {
    slots: Mutex<HashMap<ModuleKey, Slot>>,
}

/// A module's source, its defines and its entry point.
type ModuleKey = (SourceKey, Vec<String>, String);

impl ModuleCache {
    /// The module for `source` compiled with `defines` (`NAME=VALUE`), whose entry point is
    /// `entry`; compiled (or read from the disk cache) on first use.
    pub fn get(&self, dev: &Device, source: &'static str, defines: &[String], entry: &str) -> Result<Arc<Module>> {
        self.get_keyed(SourceKey::Embedded(source.as_ptr() as usize), dev, source, defines, entry)
    }

    /// As [`ModuleCache::get`] for a source assembled at run time, keyed by its text. A
    /// source that does not compile is `COMPILE_FAILED` with the log, and stays so (the
    /// failure is cached like a module).
    pub fn get_runtime(&self, dev: &Device, source: &str, defines: &[String], entry: &str) -> Result<Arc<Module>> {
        self.get_keyed(SourceKey::Runtime(source.to_string()), dev, source, defines, entry)
    }

    fn get_keyed(&self, key: SourceKey, dev: &Device, source: &str, defines: &[String], entry: &str) -> Result<Arc<Module>> {
        let slot = {
            let mut map = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            map.entry((key, defines.to_vec(), entry.to_string())).or_default().clone()
        };
        slot.get_or_init(|| load(dev, source, defines, entry).map(Arc::new)).clone()
    }
}

fn load(dev: &Device, source: &str, defines: &[String], entry: &str) -> Result<Module> {
    let opts = nvrtc_options(&dev.arch_name(), defines);
    let cubin = cached_cubin(source, &opts)?;
    let module = dev.ctx.load_module(Ptx::from_binary(cubin)).map_err(|e| failed(e, "cuModuleLoadData"))?;
    let func = module.load_function(entry).map_err(|e| failed(e, &format!("cuModuleGetFunction({entry})")))?;
    Ok(Module { func })
}

/// The NVRTC options numgpu compiles with: C++17, the exact arch, no fast-math, the
/// specialisation defines. One function so the flags are unit-tested without a GPU.
pub fn nvrtc_options(arch: &str, defines: &[String]) -> Vec<String> {
    let mut o = vec![format!("--gpu-architecture={arch}"), "-std=c++17".to_string()];
    o.extend(defines.iter().map(|d| format!("-D{d}")));
    o
}

/// Whether libnvrtc can be loaded. A library found stays loaded (RTLD_NODELETE): cudarc's own
/// probe unloads it again, losing what its static initialisers allocated (LeakSanitizer then
/// reports a leak in an unknown module), and cudarc loads it anyway for the first compile.
pub fn nvrtc_available() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    *PRESENT.get_or_init(|| {
        cudarc::get_lib_name_candidates("nvrtc").into_iter().any(|name| {
            let Ok(c) = CString::new(name) else { return false };
            // SAFETY: dlopen of a NUL-terminated name; the handle is kept for the process.
            !unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_NODELETE) }.is_null()
        })
    })
}

/// NVRTC's (major, minor) version.
pub fn nvrtc_version() -> Result<(i32, i32)> {
    if !nvrtc_available() {
        return Err(Error::unavailable("NVRTC (libnvrtc.so) was not found: set LD_LIBRARY_PATH to the CUDA toolkit's lib64"));
    }
    let (mut a, mut b) = (0, 0);
    // SAFETY: writes two ints.
    nvrtc_check(unsafe { nv::nvrtcVersion(&mut a, &mut b) }, "nvrtcVersion")?;
    Ok((a, b))
}

fn nvrtc_check(r: nv::nvrtcResult, what: &str) -> Result<()> {
    if r == nv::nvrtcResult::NVRTC_SUCCESS {
        Ok(())
    } else {
        Err(Error::new(Status::NUMGPU_COMPILE_FAILED, format!("{what} failed: {r:?}")))
    }
}

/// Compiles `source` (which may `#include "common.cuh"`) with `opts` to a cubin.
/// Returns the cubin and the compiler log; a failed compile is `COMPILE_FAILED` with the log.
pub fn compile(source: &str, opts: &[String]) -> Result<(Vec<u8>, String)> {
    nvrtc_version()?;
    let src = CString::new(source).map_err(|_| Error::internal("kernel source has a NUL"))?;
    let hdr = CString::new(COMMON_CUH).map_err(|_| Error::internal("common.cuh has a NUL"))?;
    let hdr_name = c"common.cuh";
    let copts: Vec<CString> = opts.iter().map(|o| CString::new(o.as_str()).expect("options have no NUL")).collect();
    let popts: Vec<*const c_char> = copts.iter().map(|c| c.as_ptr()).collect();
    let mut prog: nv::nvrtcProgram = std::ptr::null_mut();
    // SAFETY: all strings are NUL-terminated and outlive the program; the program is
    // destroyed on every path below.
    unsafe {
        nvrtc_check(
            nv::nvrtcCreateProgram(&mut prog, src.as_ptr(), c"numgpu.cu".as_ptr(), 1, &hdr.as_ptr(), &hdr_name.as_ptr()),
            "nvrtcCreateProgram",
        )?;
        let r = nv::nvrtcCompileProgram(prog, popts.len() as i32, popts.as_ptr());
        let log = program_log(prog);
        let out = if r != nv::nvrtcResult::NVRTC_SUCCESS {
            Err(Error::new(Status::NUMGPU_COMPILE_FAILED, format!("NVRTC failed ({r:?}) with options {opts:?}:\n{log}")))
        } else {
            let mut size = 0usize;
            nvrtc_check(nv::nvrtcGetCUBINSize(prog, &mut size), "nvrtcGetCUBINSize").and_then(|_| {
                let mut cubin = vec![0u8; size];
                nvrtc_check(nv::nvrtcGetCUBIN(prog, cubin.as_mut_ptr() as *mut c_char), "nvrtcGetCUBIN")?;
                Ok((cubin, log))
            })
        };
        nv::nvrtcDestroyProgram(&mut prog);
        out
    }
}

unsafe fn program_log(prog: nv::nvrtcProgram) -> String {
    let mut size = 0usize;
    if nv::nvrtcGetProgramLogSize(prog, &mut size) != nv::nvrtcResult::NVRTC_SUCCESS || size == 0 {
        return String::new();
    }
    let mut buf = vec![0 as c_char; size];
    if nv::nvrtcGetProgramLog(prog, buf.as_mut_ptr()) != nv::nvrtcResult::NVRTC_SUCCESS {
        return String::new();
    }
    CStr::from_ptr(buf.as_ptr()).to_string_lossy().trim_end().to_string()
}

/// The on-disk cache folder: `$NUMGPU_CACHE_DIR`, else `$XDG_CACHE_HOME/numgpu`, else
/// `~/.cache/numgpu`; `None` when `NUMGPU_CACHE_DIR` is set to the empty string.
pub fn cache_dir() -> Option<PathBuf> {
    match std::env::var_os("NUMGPU_CACHE_DIR") {
        Some(d) if d.is_empty() => None,
        Some(d) => Some(PathBuf::from(d)),
        None => std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(|d| PathBuf::from(d).join("numgpu"))
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/numgpu"))),
    }
}

/// The cubin for `source` and `opts`, from the disk cache when a sound entry exists, else
/// compiled and written there atomically. An entry is `sha256(cubin) ++ cubin`, so a
/// truncated or corrupt file is detected and rebuilt.
fn cached_cubin(source: &str, opts: &[String]) -> Result<Vec<u8>> {
    let version = nvrtc_version()?;
    let mut h = Sha256::new();
    for part in [COMMON_CUH, source].into_iter().chain(opts.iter().map(String::as_str)) {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.update(format!("nvrtc {}.{}", version.0, version.1).as_bytes());
    let key: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let path = cache_dir().map(|d| d.join(format!("{key}.cubin")));
    if let Some(cubin) = path.as_ref().and_then(read_entry) {
        return Ok(cubin);
    }
    let (cubin, _log) = compile(source, opts)?;
    if let Some(p) = path {
        write_entry(&p, &cubin);
    }
    Ok(cubin)
}

fn read_entry(path: &PathBuf) -> Option<Vec<u8>> {
    let data = std::fs::read(path).ok()?;
    if data.len() < 32 {
        return None;
    }
    let (sum, cubin) = data.split_at(32);
    (Sha256::digest(cubin).as_slice() == sum).then(|| cubin.to_vec())
}

/// Best effort: a cache that cannot be written only costs a compile next time.
fn write_entry(path: &PathBuf, cubin: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = dir.join(format!(".{}.{}.tmp", std::process::id(), path.file_name().unwrap().to_string_lossy()));
    let mut data = Sha256::digest(cubin).to_vec();
    data.extend_from_slice(cubin);
    if std::fs::write(&tmp, &data).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_name_the_exact_arch_and_no_fast_math() {
        let o = nvrtc_options("sm_90", &["NG_M=4".into()]);
        assert_eq!(o, vec!["--gpu-architecture=sm_90", "-std=c++17", "-DNG_M=4"]);
        assert!(!o.iter().any(|s| s.contains("fast-math")));
    }

    #[test]
    fn corrupt_cache_entry_is_rejected() {
        let dir = std::env::temp_dir().join(format!("numgpu-cache-test-{}", std::process::id()));
        let p = dir.join("x.cubin");
        write_entry(&p, b"cubin bytes");
        assert_eq!(read_entry(&p).as_deref(), Some(&b"cubin bytes"[..]));
        let mut data = std::fs::read(&p).unwrap();
        *data.last_mut().unwrap() ^= 1;
        std::fs::write(&p, data).unwrap();
        assert_eq!(read_entry(&p), None);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
