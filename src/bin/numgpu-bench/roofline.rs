//! The roofline of this run, measured on the device the bench times: memory bandwidth from a
//! large device-to-device copy, and the FMA peak of each precision from
//! `kernels/bench_roofline.cu` (compiled by NVRTC through numgpu's module cache).

use crate::gpu::{median, ng, ok, Gpu, Res};
use cudarc::driver::{DeviceRepr, LaunchConfig, PushKernelArg};
use numgpu::{Complex32, Complex64, Scalar};
use serde::Serialize;

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
    /// FMA peak in GFLOP/s (real flops) for s, d, c, z, in that order (a JSON object).
    pub fma_peak_gflops: serde_json::Map<String, serde_json::Value>,
}

impl Roofline {
    pub fn peak(&self, letter: char) -> f64 {
        self.fma_peak_gflops.get(&letter.to_string()).and_then(|v| v.as_f64()).unwrap_or(f64::NAN)
    }

    /// Measures both: `copy_bytes` per copy, `quick` for shorter kernel runs.
    pub fn measure(gpu: &Gpu, copy_bytes: usize, quick: bool) -> Res<Roofline> {
        let (src, dst) = (gpu.alloc(copy_bytes)?, gpu.alloc(copy_bytes)?);
        gpu.memset_async(src.ptr, 0x3f, copy_bytes)?;
        let ms = gpu.time(2, 10, |_| Ok(()), |_| gpu.copy_async(dst.ptr, src.ptr, copy_bytes))?;
        let bandwidth_gbs = 2.0 * copy_bytes as f64 / (median(&ms) * 1e6);
        let ms = if quick { 5.0 } else { 20.0 };
        let fma_peak_gflops = [('s', fma_peak::<f32>(gpu, ms)?), ('d', fma_peak::<f64>(gpu, ms)?), ('c', fma_peak::<Complex32>(gpu, ms)?), ('z', fma_peak::<Complex64>(gpu, ms)?)];
        Ok(Roofline { copy_bytes, bandwidth_gbs, fma_peak_gflops: fma_peak_gflops.into_iter().map(|(p, g)| (p.to_string(), g.into())).collect() })
    }
}

/// The kernel's defines and entry point for T.
fn kernel<T: Scalar>() -> (Vec<String>, String) {
    let real = if std::mem::size_of::<T::Real>() == 4 { "float" } else { "double" };
    (vec![format!("NG_T={}", T::CUDA_TYPE), format!("NG_SUFFIX={}", T::SUFFIX), format!("NG_R={real}")], format!("fma_peak_{}", T::SUFFIX))
}

/// GFLOP/s of `fma_peak_<suffix>` with the device full (max threads per SM on every SM),
/// run long enough to take about `target_ms`: median of 5 runs.
fn fma_peak<T: Scalar>(gpu: &Gpu, target_ms: f64) -> Res<f64>
where
    T::Real: DeviceRepr,
{
    let (defines, entry) = kernel::<T>();
    let module = ng(gpu.dev.modules.get(&gpu.dev, SOURCE, &defines, &entry))?;
    let blocks = gpu.dev.sm_count as u32 * (gpu.max_threads_per_sm as u32 / BLOCK).max(1);
    let threads = blocks as usize * BLOCK as usize;
    let out = gpu.alloc(threads * CHAINS * std::mem::size_of::<T>())?;
    let real = |v: f64| T::from_c64(Complex64::new(v, 0.0)).re();
    let (mr, mi, ar, ai) = (real(0.999), real(1e-3), real(1e-3), real(1e-3));
    let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK, 1, 1), shared_mem_bytes: 0 };
    let launch = |iters: i64| -> Res<()> {
        let mut l = gpu.stream.launch_builder(&module.func);
        // fma_peak_<T>(NG_R mul_re, NG_R mul_im, NG_R add_re, NG_R add_im, ng_i64 iters, NG_T *out)
        l.arg(&mr).arg(&mi).arg(&ar).arg(&ai).arg(&iters).arg(&out.ptr);
        // SAFETY: the arguments match the kernel's signature above in order and type; `out`
        // holds threads·CHAINS elements.
        ok(unsafe { l.launch(cfg) }, "cuLaunchKernel(fma_peak)").map(|_| ())
    };
    // Calibrate the iteration count on a short run, then measure.
    let t = median(&gpu.time(1, 1, |_| Ok(()), |_| launch(64))?);
    let iters = ((64.0 * target_ms / t.max(1e-3)).ceil() as i64).clamp(1, 1 << 24);
    let ms = median(&gpu.time(1, 5, |_| Ok(()), |_| launch(iters))?);
    let fma = if T::IS_COMPLEX { 8.0 } else { 2.0 };
    Ok(threads as f64 * iters as f64 * (UNROLL * CHAINS) as f64 * fma / (ms * 1e6))
}

#[cfg(test)]
mod tests {
    use super::*;
    use numgpu::cuda::module::{compile, nvrtc_available, nvrtc_options};

    /// The probe kernel compiles for sm_80 and sm_90 in every precision, without spills
    /// (skipped, and says so, without libnvrtc).
    #[test]
    fn roofline_kernel_compiles() {
        if !nvrtc_available() {
            eprintln!("SKIPPED roofline kernel compile check: libnvrtc not found");
            return;
        }
        for (d, entry) in [kernel::<f32>(), kernel::<f64>(), kernel::<Complex32>(), kernel::<Complex64>()] {
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
