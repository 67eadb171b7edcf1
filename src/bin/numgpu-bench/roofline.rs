//! The roofline of this run, measured on the device the bench times: memory bandwidth from a
//! large device-to-device copy, and the FMA peak of each precision from
//! `kernels/bench_roofline.cu` (compiled by NVRTC through numgpu's module cache).

use crate::gpu::{median, ng, Gpu, Res};
use crate::prec::Prec;
use cudarc::driver::sys as cu;
use numgpu::cuda::driver::check;
use numgpu::{Complex32, Complex64};
use serde::Serialize;
use std::ffi::c_void;

const SOURCE: &str = include_str!("../../../kernels/bench_roofline.cu");
/// NG_CHAINS and NG_UNROLL of the kernel.
const CHAINS: usize = 8;
const UNROLL: usize = 16;
const BLOCK: u32 = 256;

#[derive(Clone, Debug, Serialize)]
pub struct Roofline {
    /// Bytes of one copy (each is read once and written once).
    pub copy_bytes: usize,
    /// 2·copy_bytes / time of the copy, GB/s (1e9 bytes).
    pub bandwidth_gbs: f64,
    /// FMA peak in GFLOP/s (real flops) for s, d, c, z, in that order.
    #[serde(serialize_with = "as_map")]
    pub fma_peak_gflops: Vec<(char, f64)>,
}

/// `[(s, x), ...]` as the JSON object `{"s": x, ...}`, in its order.
fn as_map<S: serde::Serializer>(v: &[(char, f64)], ser: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = ser.serialize_map(Some(v.len()))?;
    for (k, x) in v {
        m.serialize_entry(k, x)?;
    }
    m.end()
}

impl Roofline {
    pub fn peak(&self, letter: char) -> f64 {
        self.fma_peak_gflops.iter().find(|p| p.0 == letter).map(|p| p.1).unwrap_or(f64::NAN)
    }

    /// Measures both: `copy_bytes` per copy, `quick` for shorter kernel runs.
    pub fn measure(gpu: &Gpu, copy_bytes: usize, quick: bool) -> Res<Roofline> {
        let bandwidth_gbs = bandwidth(gpu, copy_bytes)?;
        let target_ms = if quick { 5.0 } else { 20.0 };
        let fma_peak_gflops = vec![
            ('s', fma_peak::<f32>(gpu, target_ms)?),
            ('d', fma_peak::<f64>(gpu, target_ms)?),
            ('c', fma_peak::<Complex32>(gpu, target_ms)?),
            ('z', fma_peak::<Complex64>(gpu, target_ms)?),
        ];
        Ok(Roofline { copy_bytes, bandwidth_gbs, fma_peak_gflops })
    }
}

/// GB/s of `cuMemcpyDtoDAsync` of `bytes`, counting the bytes read and written: median of
/// 10 copies after 2 warm-ups.
fn bandwidth(gpu: &Gpu, bytes: usize) -> Res<f64> {
    let src = gpu.alloc(bytes)?;
    let dst = gpu.alloc(bytes)?;
    // SAFETY: src holds `bytes` (a multiple of 4 is asked for below); 1.0f as the pattern.
    ng(check(unsafe { cu::cuMemsetD32_v2(src.ptr, 0x3f80_0000, bytes / 4) }, "cuMemsetD32"))?;
    let ms = gpu.time(2, 10, |_| {
        // SAFETY: both buffers hold `bytes`.
        ng(check(unsafe { cu::cuMemcpyDtoDAsync_v2(dst.ptr, src.ptr, bytes, gpu.stream) }, "cuMemcpyDtoDAsync"))
    })?;
    gpu.sync()?;
    Ok(2.0 * bytes as f64 / (median(&ms) * 1e6))
}

fn arg<X>(x: &mut X) -> *mut c_void {
    x as *mut X as *mut c_void
}

/// GFLOP/s of `fma_peak_<suffix>` with the device full (max threads per SM on every SM),
/// run long enough to take about `target_ms`: median of 5 runs.
fn fma_peak<T: Prec>(gpu: &Gpu, target_ms: f64) -> Res<f64> {
    let real = if std::mem::size_of::<T::R>() == 4 { "float" } else { "double" };
    let defines = vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), format!("NG_R={real}")];
    let entry = format!("fma_peak_{}", T::SUFFIX);
    let module = ng(gpu.dev.modules.get(&gpu.dev, SOURCE, &defines, &entry))?;
    let blocks = gpu.dev.sm_count as u32 * (gpu.max_threads_per_sm as u32 / BLOCK).max(1);
    let threads = blocks as usize * BLOCK as usize;
    let out = gpu.alloc(threads * CHAINS * std::mem::size_of::<T>())?;
    let launch = |iters: i64| -> Res<()> {
        let (mut mr, mut mi, mut ar, mut ai) = (T::real(0.999), T::real(1e-3), T::real(1e-3), T::real(1e-3));
        let (mut it, mut o) = (iters, out.ptr);
        // fma_peak_<T>(NG_R mul_re, NG_R mul_im, NG_R add_re, NG_R add_im, ng_i64 iters, NG_T *out)
        let mut params = [arg(&mut mr), arg(&mut mi), arg(&mut ar), arg(&mut ai), arg(&mut it), arg(&mut o)];
        // SAFETY: the parameters match the kernel's signature above in order and type; `out`
        // holds threads·CHAINS elements.
        ng(check(
            unsafe { cu::cuLaunchKernel(module.func.cu_function(), blocks, 1, 1, BLOCK, 1, 1, 0, gpu.stream, params.as_mut_ptr(), std::ptr::null_mut()) },
            "cuLaunchKernel(fma_peak)",
        ))
    };
    // Calibrate the iteration count on a short run, then measure.
    let mut iters: i64 = 64;
    let t = median(&gpu.time(1, 1, |_| launch(iters))?);
    iters = ((iters as f64 * target_ms / t.max(1e-3)).ceil() as i64).clamp(1, 1 << 24);
    let ms = median(&gpu.time(1, 5, |_| launch(iters))?);
    let flops = threads as f64 * iters as f64 * (UNROLL * CHAINS) as f64 * T::FLOPS_PER_FMA;
    gpu.sync()?;
    Ok(flops / (ms * 1e6))
}

#[cfg(test)]
mod tests {
    use super::*;
    use numgpu::cuda::module::{compile, nvrtc_available, nvrtc_options};

    fn defines<T: Prec>() -> (Vec<String>, String) {
        let real = if std::mem::size_of::<T::R>() == 4 { "float" } else { "double" };
        (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), format!("NG_R={real}")], format!("fma_peak_{}", T::SUFFIX))
    }

    /// The probe kernel compiles for sm_80 and sm_90 in every precision, without spills
    /// (skipped, and says so, without libnvrtc).
    #[test]
    fn roofline_kernel_compiles() {
        if !nvrtc_available() {
            eprintln!("SKIPPED roofline kernel compile check: libnvrtc not found");
            return;
        }
        for (d, entry) in [defines::<f32>(), defines::<f64>(), defines::<Complex32>(), defines::<Complex64>()] {
            for arch in ["sm_80", "sm_90"] {
                let mut o = nvrtc_options(arch, &d);
                o.push("--ptxas-options=-v".into());
                let (cubin, log) = compile(SOURCE, &o).unwrap_or_else(|e| panic!("{entry} {arch}: {e}"));
                assert!(!cubin.is_empty());
                assert!(log.contains(&entry), "{entry} missing from the ptxas report:\n{log}");
                assert!(!log.lines().any(|l| l.contains("spill stores") && !l.contains(" 0 bytes spill stores")), "{entry} {arch} spills:\n{log}");
            }
        }
    }
}
