//! gemm: numgpu's batched GEMM, strided and pointer-array forms, against cuBLAS
//! `gemmStridedBatched` and `gemmBatched` on the same device buffers and stream, and OpenBLAS
//! (numgpu's CPU backend) on the host; numgpu's C checked against cuBLAS's by the oracle's
//! gemm ratio, matrix by matrix, in both forms, and numgpu's and cuBLAS's elementwise errors
//! against a double-precision reference side by side. `--math-mode` runs s and c in a TF32
//! mode of the handle (cuBLAS stays FP32).

use crate::bench::{below, bits, dispatch, finish, grid, rates, secs, sets, About, Bench, Case, Ctx};
use crate::gpu::{median, ng, ok, DevBuf, Res};
use crate::prec::Prec;
use crate::report::{gbs_panel, Fmt, Meta, Panel, Row};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::gemm_batched::{gemm_batched, gemm_batched_strided, Batch};
use numgpu::core::MathMode;
use numgpu::testing::gemm::{Elementwise, Gemm as Product};
use numgpu::testing::{gen::fill_random, norm, tol};
use numgpu::{Complex32, Complex64, Handle, Op, Scalar};
use rayon::prelude::*;
use serde_json::{Map, Value};

#[derive(clap::Args, Debug)]
#[group(id = "gemm")]
pub struct Args {
    /// gemm: bytes of A + B + C of one call; the batch is sized from it [default: 1e9; --quick: 6.4e7].
    #[arg(long)]
    target_bytes: Option<f64>,
    /// gemm: numgpu's math mode for s and c (numgpu_set_math_mode): default (exact FP32), 3xtf32 or tf32; d and z ignore it, cuBLAS stays FP32 [default: default].
    #[arg(long, value_parser = parse_mode)]
    math_mode: Option<MathMode>,
}

fn parse_mode(v: &str) -> Result<MathMode, String> {
    [MathMode::Default, MathMode::Tf32x3, MathMode::Tf32].into_iter().find(|m| m.name() == v).ok_or_else(|| format!("{v:?} is not one of default, 3xtf32, tf32"))
}

/// The sizes, the bytes of one call's inputs, and OpenBLAS's run: at most `cpu_flops` and
/// about `cpu_secs` per run, `cpu_reps` runs.
pub struct Gemm {
    sizes: Vec<usize>,
    target_bytes: f64,
    /// numgpu's math mode for s and c.
    mode: MathMode,
    cpu_flops: f64,
    cpu_secs: f64,
    cpu_reps: usize,
}

impl Gemm {
    pub fn new(cli: &Cli) -> Res<Gemm> {
        let target_bytes = cli.or(cli.gemm.target_bytes, 1e9, 64e6);
        if !(1e3..=32e9).contains(&target_bytes) {
            return Err(format!("--target-bytes {target_bytes:e}: must be between 1e3 and 3.2e10"));
        }
        let sizes = cli.sizes_or(&[4, 8, 16, 32, 64, 128, 256], &[4, 32, 128]);
        Ok(Gemm { sizes, target_bytes, mode: cli.gemm.math_mode.unwrap_or_default(), cpu_flops: cli.or(None, 2e9, 2e8), cpu_secs: cli.or(None, 0.1, 0.02), cpu_reps: cli.or(None, 3, 1) })
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "gemm", report: "gemm", tolerance: tol::GEMM_RATIO, precisions: &['s', 'd', 'c', 'z'], default: &['s', 'd', 'c', 'z'], cusparse: false,
    description: "Batched GEMM, square n, C_i = 1·A_i·B_i + 0.5·C_i, nonzero random data: numgpu_?gemm_batched_strided against cublas?gemmStridedBatched, and the pointer-array forms (numgpu_?gemm_batched, cublas?gemmBatched), on the same device buffers and stream.",
    columns: &[("prec", "precision", Fmt::Text), ("n", "n", Fmt::Fix(0)), ("batch", "batch", Fmt::Fix(0)), ("ours ms", "ours_ms", Fmt::Ms), ("GFLOP/s", "ours_gflops", Fmt::Rate),
        ("GB/s", "ours_gbs", Fmt::Fix(0)), ("% roof", "roof_pct", Fmt::Pct(0)), ("cuBLAS ms", "cublas_ms", Fmt::Ms), ("cuBLAS GB/s", "cublas_gbs", Fmt::Fix(0)),
        ("×cuBLAS", "ratio_cublas", Fmt::Fix(2)), ("×cuBLAS ptr", "ratio_cublas_array", Fmt::Fix(2)), ("OpenBLAS GFLOP/s", "openblas_gflops", Fmt::Rate),
        ("error", "rel_error", Fmt::Exp(1)), ("gemm ratio", "scaled_error", Fmt::Fix(2)), ("mode", "math_mode", Fmt::Text),
        ("max err/|A||B|", "elem_error", Fmt::Exp(1)), ("cuBLAS max err/|A||B|", "cublas_elem_error", Fmt::Exp(1))],
    log: &["ours_ms", "ratio_cublas"],
};

impl Bench for Gemm {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        grid(precisions, &self.sizes, "n")
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut row = Row::new(&case.label);
        // The math mode is single precision's alone; every row leaves the handle in the default.
        let mode = if matches!(case.precision, 's' | 'c') { self.mode } else { MathMode::Default };
        ctx.h.set_math_mode(mode);
        row.set("math_mode", mode.name());
        let r = dispatch!(case.precision, [f32, f64, Complex32, Complex64], body(self, ctx, case.n, mode, &mut row));
        ctx.h.set_math_mode(MathMode::Default);
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: C_i = 1·A_i·B_i + 0.5·C_i, square n, packed (ld = n, stride = n²), nonzero random data; batch sized so that A + B + C ≈ {:.2} GB; inputs rotated among `sets` copies when one fits in 3× L2; {} warm-up calls, then the median of {} calls, each between CUDA events on one stream shared by numgpu and cuBLAS; cuBLAS in its default math mode (FP32, no TF32), numgpu's s and c in math mode {} (`--math-mode`; d and z always default); OpenBLAS through numgpu's CPU backend on a smaller batch, host clock\n\
             - GB/s counts (A + B + 2·C)·elem per matrix (beta ≠ 0 reads C); GFLOP/s counts 2n³ (real) or 8n³ (complex) per matrix; % roof = GFLOP/s / min(bandwidth · flops/byte, FMA peak); ×cuBLAS = t_cuBLAS / t_numgpu (> 1: numgpu faster), strided forms; ×cuBLAS ptr the same for the pointer-array forms (`gemmBatched`)\n\
             - error = ‖C_numgpu − C_cuBLAS‖_F / ‖C_cuBLAS‖_F over the batch; gemm ratio = the oracle's (`numgpu::testing::gemm`), max over the matrices of ‖C_i − C_cuBLAS,i‖_F / ((n + 2)·(|α|·‖A_i‖_F·‖B_i‖_F + |β|·‖C0_i‖_F)·ε); a row fails when it reaches {} in either form (plain TF32: instead when its elementwise error passes the mode's bound), when two calls on the same inputs differ bitwise, or when a call fails\n\
             - max err/|A||B| = the largest |C − C_ref|_ij / (|α|·(|A|·|B|)_ij + |β|·|C0|_ij) over the first matrices of the batch (at most 64, about 2^25 multiply-adds of the reference), C_ref in double precision from the same inputs; for numgpu (strided form) and for cuBLAS (gemmStridedBatched) side by side; a row fails when numgpu's passes its math mode's bound (`numgpu_math_mode`)\n",
            self.mode.name(),
            self.target_bytes / 1e9,
            meta.warmup,
            meta.reps,
            tol::GEMM_RATIO
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, roof: &Roofline) -> Vec<Panel> {
        let title = format!("numgpu gemm vs cuBLAS: {} ({})", meta.device, meta.date);
        vec![gbs_panel(title, "GB/s, (A + B + 2C)·elem / time", rows, |r| r.text("precision"), ("cublas_gbs", "cuBLAS"), roof.bandwidth_gbs)]
    }
    fn extra(&self, _: &[Row]) -> Map<String, Value> {
        Map::from_iter([("target_bytes".to_string(), self.target_bytes.into()), ("math_mode".to_string(), self.mode.name().into())])
    }
}

/// The oracle's gemm ratio of `c` against the reference `r` (worst matrix) and the relative
/// Frobenius error over the batch, for C = alpha·A·B + beta·C0, packed n×n matrices.
#[allow(clippy::too_many_arguments)]
fn errors<T: Scalar>(c: &[T], r: &[T], a: &[T], b: &[T], c0: &[T], n: usize, alpha: T, beta: T) -> (f64, f64) {
    let e = n * n;
    let (worst, diff, refn) = (0..c.len() / e)
        .into_par_iter()
        .map(|i| {
            let s = i * e..(i + 1) * e;
            let g = Product { ta: Op::N, tb: Op::N, m: n, n, k: n, alpha, a: &a[s.clone()], lda: n, b: &b[s.clone()], ldb: n, beta, c0: &c0[s.clone()], ldc: n };
            let sq = |z: Complex64| z.norm_sqr();
            let diff = c[s.clone()].iter().zip(&r[s.clone()]).map(|(x, y)| sq(x.to_c64() - y.to_c64())).sum::<f64>();
            (g.ratio_to(&c[s.clone()], &norm::c64s(&r[s.clone()])), diff, r[s].iter().map(|y| sq(y.to_c64())).sum::<f64>())
        })
        .reduce(|| (0.0, 0.0, 0.0), |x, y| (norm::nan_max(x.0, y.0), x.1 + y.1, x.2 + y.2));
    (worst, norm::ratio(diff.sqrt(), refn.sqrt()))
}

/// The worst elementwise errors (the math modes' measure, [`Elementwise`]) of `c` over the
/// first `count` matrices, against the double-precision reference of C = alpha·A·B + beta·C0
/// (packed n×n matrices).
#[allow(clippy::too_many_arguments)]
fn elementwise<T: Scalar>(c: &[T], a: &[T], b: &[T], c0: &[T], n: usize, count: usize, alpha: T, beta: T) -> Elementwise {
    let e = n * n;
    (0..count)
        .into_par_iter()
        .map(|i| {
            let s = i * e..(i + 1) * e;
            Product { ta: Op::N, tb: Op::N, m: n, n, k: n, alpha, a: &a[s.clone()], lda: n, b: &b[s.clone()], ldb: n, beta, c0: &c0[s.clone()], ldc: n }.elementwise(&c[s])
        })
        .reduce(|| Elementwise { max: 0.0, rms: 0.0 }, Elementwise::worst)
}

fn body<T: Prec>(g: &Gemm, ctx: &mut Ctx, n: usize, mode: MathMode, row: &mut Row) -> Res<()> {
    let (gpu, size, e) = (ctx.gpu, std::mem::size_of::<T>(), n * n);
    let batch = ((g.target_bytes / (3 * e * size) as f64) as usize).clamp(1, i32::MAX as usize);
    let (len, flops, bytes) = (batch * e, batch as f64 * if T::IS_COMPLEX { 8.0 } else { 2.0 } * (e * n) as f64, (batch * 4 * e * size) as f64);
    let roof = (ctx.roof.bandwidth_gbs * flops / bytes).min(ctx.roof.peak(T::LETTER));
    let nsets = sets((3 * len * size) as f64, gpu.l2_bytes as f64, false);
    row.set("precision", T::LETTER.to_string());
    [("n", n), ("batch", batch), ("sets", nsets)].into_iter().for_each(|(k, v)| row.set(k, v));
    [("flops", flops), ("bytes", bytes), ("roof_gflops", roof)].into_iter().for_each(|(k, v)| row.set(k, v));
    row.set("roof_bound", if roof < ctx.roof.peak(T::LETTER) { "bandwidth" } else { "FMA" });
    let need = nsets as f64 * (3 * len * size + 3 * batch * 8) as f64;
    if need > ctx.budget {
        return Err(format!("skipped: needs {:.1} GB of device memory, the budget is {:.1} GB (lower --target-bytes)", need / 1e9, ctx.budget / 1e9));
    }
    let (alpha, beta, seed) = (T::one(), T::from_c64(Complex64::new(0.5, 0.0)), ((T::LETTER as u64) << 32) ^ n as u64);
    let [a, b, c0] = [0xa, 0xb, 0xc].map(|k| {
        let mut v = vec![T::zero(); len];
        fill_random(&mut v, seed ^ k);
        v
    });
    // Each set: A, B, C, and the pointer arrays to their matrices.
    let mut all: Vec<Vec<DevBuf>> = Vec::with_capacity(nsets);
    for _ in 0..nsets {
        let s = [len * size, len * size, len * size, batch * 8, batch * 8, batch * 8].iter().map(|&b| gpu.alloc(b)).collect::<Res<Vec<_>>>()?;
        for (k, host) in [&a, &b, &c0].into_iter().enumerate() {
            gpu.htod(s[k].ptr, host)?;
            gpu.htod(s[k + 3].ptr, &(0..batch as u64).map(|i| s[k].ptr + i * (e * size) as u64).collect::<Vec<_>>())?;
        }
        all.push(s);
    }
    let (nl, stride, cublas) = (n as i64, e as i64, ctx.cublas.h());
    // Method m on set s: numgpu strided (0) and pointer-array (1), cuBLAS gemmStridedBatched
    // (2) and gemmBatched (3).
    let call = |h: &mut Handle, m: usize, s: &[DevBuf]| -> Res<()> {
        let (st, ar) = (|k: usize| Batch::Strided { ptr: s[k].ptr as *mut T, stride }, |k: usize| Batch::Array(s[k].ptr as *const *mut T));
        let (ni, bi, bl) = (n as i32, batch as i32, batch as i64);
        // SAFETY: every set holds `batch` packed n×n matrices A, B, C and the pointer arrays
        // to them, on the handle's device and stream.
        unsafe {
            match m {
                0 => ng(gemm_batched::<T>(h, Op::N, Op::N, nl, nl, nl, alpha, Batch::Strided { ptr: s[0].ptr as *const T, stride }, nl, Batch::Strided { ptr: s[1].ptr as *const T, stride }, nl, beta, st(2), nl, bl)),
                1 => ng(gemm_batched::<T>(h, Op::N, Op::N, nl, nl, nl, alpha, Batch::Array(s[3].ptr as _), nl, Batch::Array(s[4].ptr as _), nl, beta, ar(5), nl, bl)),
                2 => ok(T::gemm_strided(cublas, ni, &alpha, s[0].ptr, s[1].ptr, &beta, s[2].ptr, bi).result(), "cublasXgemmStridedBatched"),
                _ => ok(T::gemm_array(cublas, ni, &alpha, s[3].ptr, s[4].ptr, &beta, s[5].ptr, bi).result(), "cublasXgemmBatched"),
            }
        }
    };
    // Accuracy on set 0, each call from C0: cuBLAS strided is the reference.
    let c_of = |h: &mut Handle, m: usize| -> Res<Vec<T>> {
        let mut c = vec![T::zero(); len];
        gpu.htod(all[0][2].ptr, &c0)?;
        call(h, m, &all[0])?;
        gpu.dtoh(&mut c, all[0][2].ptr).map(|_| c)
    };
    let want = c_of(ctx.h, 2)?;
    let check = |c: &[T]| errors(c, &want, &a, &b, &c0, n, alpha, beta);
    let (cb_ratio, (ratio, rel), first) = (check(&c_of(ctx.h, 3)?).0, check(&c_of(ctx.h, 0)?), c_of(ctx.h, 0)?);
    let (ratio_array, same, tol) = (check(&c_of(ctx.h, 1)?).0, bits(&first) == bits(&c_of(ctx.h, 0)?), tol::GEMM_RATIO);
    [("rel_error", rel), ("scaled_error", ratio), ("scaled_error_array", ratio_array)].into_iter().for_each(|(k, v)| row.set(k, v));
    row.set("reproducible", same);
    // Elementwise errors against double precision, ours and cuBLAS's on the same matrices.
    let nref = ((1usize << 25) / (n * n * n)).clamp(2, 64).min(batch);
    let (ours_e, cublas_e) = (elementwise(&first, &a, &b, &c0, n, nref, alpha, beta), elementwise(&want, &a, &b, &c0, n, nref, alpha, beta));
    [("elem_error", ours_e.max), ("elem_error_rms", ours_e.rms), ("cublas_elem_error", cublas_e.max), ("cublas_elem_error_rms", cublas_e.rms)].into_iter().for_each(|(k, v)| row.set(k, v));
    row.set("elem_matrices", nref);
    // The modes' bounds are single precision's (u = 2^-24); d and z keep the gemm ratio alone.
    let single = std::mem::size_of::<T>() / (1 + T::IS_COMPLEX as usize) == 4;
    let bound = if T::IS_COMPLEX { mode.complex_bound(n) } else { mode.bound(n) };
    if single {
        row.set("elem_bound", bound);
        row.check(ours_e.max <= bound, || format!("elementwise error {:.3e} above the {} bound {bound:.3e}", ours_e.max, mode.name()));
    }
    row.check(below(Some(cb_ratio), tol), || format!("bench check: cuBLAS gemmBatched disagrees with gemmStridedBatched (gemm ratio {cb_ratio:.3e})"));
    if mode != MathMode::Tf32 {
        row.check(below(Some(ratio), tol), || format!("gemm ratio {ratio:.3e} >= {tol}"));
        row.check(below(Some(ratio_array), tol), || format!("pointer-array form: gemm ratio {ratio_array:.3e} >= {tol}"));
    }
    row.check(same, || "two calls on the same inputs differ bitwise".into());
    gpu.htod(all[0][2].ptr, &c0)?;
    // Timing: C keeps being updated (C ← A·B + C/2 stays bounded); calls rotate the sets.
    let mut t = [0.0; 4];
    for m in [2, 0, 3, 1] {
        t[m] = median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |j| call(ctx.h, m, &all[j % nsets]))?);
    }
    rates(row, "ours", t[0], bytes, Some(flops));
    row.set("roof_pct", 100.0 * flops / (t[0] * 1e6) / roof);
    rates(row, "cublas", t[2], bytes, Some(flops));
    [("ratio_cublas", t[2] / t[0]), ("ours_array_ms", t[1]), ("cublas_array_ms", t[3]), ("ratio_cublas_array", t[3] / t[1])].into_iter().for_each(|(k, v)| row.set(k, v));

    // OpenBLAS through numgpu's CPU backend on the first matrices of the batch: a run of about
    // cpu_flops / 100 flops sizes the batch so that one run takes about cpu_secs.
    let per = flops / batch as f64;
    let (mut cpu, mut cc) = (Handle::cpu(), c0.clone());
    let mut run = |bc: usize| -> Res<f64> {
        let (k, mut r) = (bc * e, Ok(()));
        let t = secs(|| r = ng(gemm_batched_strided(&mut cpu, Op::N, Op::N, nl, nl, nl, alpha, &a[..k], nl, stride, &b[..k], nl, stride, beta, &mut cc[..k], nl, stride, bc as i64)));
        r.map(|_| t)
    };
    let probe = ((g.cpu_flops / 100.0 / per).ceil() as usize).clamp(1, batch);
    let bc = ((g.cpu_secs * probe as f64 / run(probe)?.max(1e-9)) as usize).min((g.cpu_flops / per).ceil() as usize).clamp(1, batch);
    let t_cpu = median(&(0..g.cpu_reps).map(|_| run(bc).map(|t| t * 1e3)).collect::<Res<Vec<f64>>>()?);
    row.set("openblas_batch", bc);
    row.set("openblas_ms", t_cpu);
    row.set("openblas_gflops", bc as f64 * per / (t_cpu * 1e6));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::cli;

    /// `--math-mode` takes the three modes' names (default: exact FP32) and refuses others.
    #[test]
    fn math_mode_option() {
        assert_eq!(Gemm::new(&cli(&["--routine", "gemm"])).unwrap().mode, MathMode::Default);
        for m in [MathMode::Default, MathMode::Tf32x3, MathMode::Tf32] {
            assert_eq!(Gemm::new(&cli(&["--math-mode", m.name()])).unwrap().mode, m);
        }
        for bad in ["3xTF32", "fp32", ""] {
            assert!(<crate::Cli as clap::Parser>::try_parse_from(["numgpu-bench", "--math-mode", bad]).is_err(), "{bad:?}");
        }
    }
}
