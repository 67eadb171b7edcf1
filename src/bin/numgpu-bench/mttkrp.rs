//! mttkrp: numgpu's MTTKRP (`numgpu_?mttkrp`, device arrays) of N × N × N tensors with rank-R
//! factors, in every mode, against the one plain GEMM each mode reduces to, cuBLAS `?gemm` of
//! (N × N²)·(N² × R) on the same device buffers and stream with the Khatri–Rao product given:
//! mode 0 on X as stored (op N), mode 2 on X as stored with op T (lda = N²), mode 1 the same
//! shape with op N on X's buffer (the GEMM an explicitly unfolded X_(2) would take, without the
//! unfolding). numgpu's time includes forming its Khatri–Rao product. Checked on sampled rows
//! against the oracle's MTTKRP from the definition (`numgpu::testing::tensor::mttkrp_rows`).

use crate::bench::{below, bits, dispatch, finish, rates, sets, About, Bench, Case, Ctx};
use crate::gpu::{median, ng, ok, DevBuf, Res};
use crate::prec::Plain;
use crate::report::{series_lines, Fmt, Meta, Panel, Row, Scale, Style};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::tensor::mttkrp;
use numgpu::testing::gen::filled;
use numgpu::testing::tensor as oracle;
use serde_json::{Map, Value};

#[derive(clap::Args, Debug)]
#[group(id = "mttkrp")]
pub struct Args {
    /// mttkrp: the ranks R, comma-separated; --sizes are the tensors' N [default: 16,32; sizes 100,200,300,400,500; --quick: 16; 100,200].
    #[arg(long, value_delimiter = ',')]
    mttkrp_ranks: Option<Vec<usize>>,
}

pub struct Mttkrp {
    sizes: Vec<usize>,
    ranks: Vec<usize>,
}

impl Mttkrp {
    pub fn new(cli: &Cli) -> Res<Mttkrp> {
        let ranks = cli.mttkrp.mttkrp_ranks.clone().unwrap_or_else(|| if cli.quick { vec![16] } else { vec![16, 32] });
        if let Some(r) = ranks.iter().find(|&&r| r == 0 || r > 4096) {
            return Err(format!("--mttkrp-ranks: {r} is outside 1..=4096"));
        }
        Ok(Mttkrp { sizes: cli.sizes_or(&[100, 200, 300, 400, 500], &[100, 200]), ranks })
    }
}

/// Rows of M the check recomputes per mode.
const SAMPLED: usize = 8;

#[rustfmt::skip]
const ABOUT: About = About {
    name: "mttkrp", report: "mttkrp", tolerance: 1.0, precisions: &['s', 'd'], default: &['s', 'd'], cusparse: false,
    description: "MTTKRP of N×N×N tensors (random entries) with rank-R factors, every mode, device arrays: numgpu_?mttkrp (no unfolded copy of X; its Khatri–Rao product included) against cublas?gemm of the (N × N²)·(N² × R) product each mode reduces to (Khatri–Rao product given), on the same device buffers and stream.",
    columns: &[("prec", "precision", Fmt::Text), ("N", "n", Fmt::Fix(0)), ("R", "rank", Fmt::Fix(0)), ("mode", "mode", Fmt::Fix(0)), ("ours ms", "ours_ms", Fmt::Ms),
        ("GFLOP/s", "ours_gflops", Fmt::Rate), ("GB/s", "ours_gbs", Fmt::Fix(0)), ("% roof", "roof_pct", Fmt::Pct(0)), ("GEMM ms", "cublas_ms", Fmt::Ms),
        ("GEMM GFLOP/s", "cublas_gflops", Fmt::Rate), ("ours/GEMM", "ratio_gemm", Fmt::Fix(2)), ("bound ratio", "bound_ratio", Fmt::Exp(1))],
    log: &["ours_ms", "ratio_gemm"],
};

impl Bench for Mttkrp {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        let ranks = &self.ranks;
        precisions
            .iter()
            .flat_map(|&p| self.sizes.iter().flat_map(move |&n| ranks.iter().enumerate().map(move |(k, &r)| Case { precision: p, n, kind: k, label: format!("{p} N = {n} R = {r}") })))
            .collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut rows: Vec<Row> = (0..3).map(|m| Row::new(format!("{} mode {m}", case.label))).collect();
        let r = dispatch!(case.precision, [f32, f64], body(self, ctx, case, &mut rows));
        rows.into_iter().map(|row| finish(ctx, row, r.clone())).collect()
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: X N×N×N column-major with random entries in [−1, 1), factors N×R, M N×R, all in device memory (ld = N); numgpu_?mttkrp in each mode (0-based; numgpu forms the Khatri–Rao product of the other two factors in its workspace and never unfolds X: mode 0 one GEMM on X, mode 2 one GEMM on Xᵀ, mode 1 a batch of GEMMs over the N slices and a reduction); the peer is cuBLAS `?gemm` (default math mode: no TF32) of the (N × N²)·(N² × R) product the mode reduces to, with the Khatri–Rao product given: op N on X for modes 0 and 1, op T (lda = N²) for mode 2; inputs rotated among `sets` copies of X when one fits in 3× L2; {} warm-up calls, then the median of {} calls each, between CUDA events on one stream\n\
             - GFLOP/s counts 2·N³·R; GB/s counts X and M once, (N³ + N·R)·elem; % roof = GFLOP/s / min(bandwidth · flops/byte, FMA peak); ours/GEMM = t_numgpu / t_cuBLAS (the issue's target: ≤ 1.2)\n\
             - check by the oracle (`numgpu::testing::tensor::mttkrp_rows`, the MTTKRP from its definition in double, X read in place) on {SAMPLED} rows of M spread over the mode: bound ratio = max |M − M_ref| / ((N² + 3)·ε·|X_(n)|·|K|) < 1 (the worst-case bound); a row fails above it, when two calls on the same inputs differ bitwise, or when a call fails\n",
            meta.warmup, meta.reps
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, _roof: &Roofline) -> Vec<Panel> {
        let series = |r: &Row| format!("{} R={} mode {}", r.text("precision"), r.text("rank"), r.text("mode"));
        let lines = series_lines(rows, series, "n", &[("ratio_gemm", "numgpu / cuBLAS GEMM", Style::Solid)]);
        let title = format!("numgpu mttkrp: time over the one cuBLAS GEMM it reduces to: {} ({})", meta.device, meta.date);
        vec![Panel { title, x: ("N (N×N×N tensors)".into(), Scale::Lin), y: ("t_numgpu / t_cuBLAS GEMM".into(), Scale::Lin), names: vec![], level: Some((1.2, "target 1.2".into())), lines }]
    }
    fn extra(&self, _: &[Row]) -> Map<String, Value> {
        Map::from_iter([("ranks".to_string(), Value::from(self.ranks.clone()))])
    }
}

fn body<T: Plain>(b: &Mttkrp, ctx: &mut Ctx, case: &Case, rows: &mut [Row]) -> Res<()> {
    let (gpu, n, r, size) = (ctx.gpu, case.n, b.ranks[case.kind], std::mem::size_of::<T>());
    let (numel, k) = (n * n * n, n * n);
    let nsets = sets((numel * size) as f64, gpu.l2_bytes as f64, false);
    // X's sets, the factors, both Ms, cuBLAS's K, numgpu's workspace (its K and partials).
    let need = ((nsets * numel + 5 * n * r + 2 * k * r + (1 << 24)) * size) as f64;
    if need > ctx.budget {
        return Err(format!("skipped: needs {:.1} GB of device memory, the budget is {:.1} GB", need / 1e9, ctx.budget / 1e9));
    }
    let seed = ((T::LETTER as u64) << 32) ^ ((n as u64) << 8) ^ r as u64;
    let x: Vec<T> = filled(numel, seed);
    let u: Vec<Vec<T>> = (0..3).map(|m| filled(n * r, seed ^ (0xf0 + m as u64))).collect();
    let uv: Vec<Vec<f64>> = u.iter().map(|f| f.iter().map(|v| v.to_c64().re).collect()).collect();
    let xs = (0..nsets).map(|_| gpu.alloc(numel * size)).collect::<Res<Vec<DevBuf>>>()?;
    for s in &xs {
        gpu.htod(s.ptr, &x)?;
    }
    let us = u.iter().map(|f| gpu.alloc(n * r * size).and_then(|d| gpu.htod(d.ptr, f).map(|_| d))).collect::<Res<Vec<DevBuf>>>()?;
    let (m, mp, kb) = (gpu.alloc(n * r * size)?, gpu.alloc(n * r * size)?, gpu.alloc(k * r * size)?);
    let (flops, bytes) = (2.0 * (numel * r) as f64, ((numel + n * r) * size) as f64);
    let roof = (ctx.roof.bandwidth_gbs * flops / bytes).min(ctx.roof.peak(T::LETTER));
    let (dims, ldu) = ([n as i64; 3], [n as i64; 3]);
    let ptrs: Vec<*const T> = us.iter().map(|d| d.ptr as *const T).collect();
    for (mode, row) in rows.iter_mut().enumerate() {
        row.set("precision", T::LETTER.to_string());
        [("n", n), ("rank", r), ("mode", mode), ("sets", nsets)].into_iter().for_each(|(key, v)| row.set(key, v));
        [("flops", flops), ("bytes", bytes), ("roof_gflops", roof)].into_iter().for_each(|(key, v)| row.set(key, v));
        let kv: Vec<T> = oracle::khatri_rao_others(&[n; 3], &uv, mode, r).iter().map(|&v| T::from_c64(numgpu::Complex64::new(v, 0.0))).collect();
        gpu.htod(kb.ptr, &kv)?;
        // SAFETY: X's set, the factors and M are device buffers of the sizes above on the
        // handle's device and stream; dims, ptrs and ldu are host arrays of 3.
        let ours = |h: &mut numgpu::Handle, j: usize| ng(unsafe { mttkrp::<T>(h, 3, dims.as_ptr(), xs[j].ptr as *const T, mode as i32, r as i64, ptrs.as_ptr(), ldu.as_ptr(), m.ptr as *mut T, n as i64) });
        let (trans, lda) = (mode == 2, if mode == 2 { k } else { n });
        // SAFETY: X (N³), K (N²·R) and M (N·R) are device buffers on cuBLAS's stream.
        let peer = |j: usize| ok(unsafe { T::plain_gemm(ctx.cublas.h(), trans, n as i32, r as i32, k as i32, xs[j].ptr, lda as i32, kb.ptr, k as i32, mp.ptr, n as i32) }.result(), "cublas?gemm");
        let fetch = |h: &mut numgpu::Handle| -> Res<Vec<T>> {
            ours(h, 0)?;
            let mut out = vec![T::zero(); n * r];
            gpu.dtoh(&mut out, m.ptr).map(|_| out)
        };
        let (first, again) = (fetch(ctx.h)?, fetch(ctx.h)?);
        let sampled: Vec<usize> = (0..SAMPLED.min(n)).map(|j| j * (n - 1) / (SAMPLED.min(n) - 1).max(1)).collect();
        let (want, bound) = oracle::mttkrp_rows(&[n; 3], &x, mode, r, &uv, &sampled);
        let got: Vec<f64> = (0..sampled.len() * r).map(|e| first[sampled[e % sampled.len()] + (e / sampled.len()) * n].to_c64().re).collect();
        let ratio = oracle::bound_ratio(&got, &want, &bound, k, 3, T::EPS);
        row.set("bound_ratio", ratio);
        row.set("reproducible", bits(&first) == bits(&again));
        row.check(below(Some(ratio), 1.0), || format!("bound ratio {ratio:.3e} >= 1"));
        row.check(bits(&first) == bits(&again), || "two calls on the same inputs differ bitwise".into());
        let t_ours = median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |j| ours(ctx.h, j % nsets))?);
        let t_peer = median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |j| peer(j % nsets))?);
        rates(row, "ours", t_ours, bytes, Some(flops));
        row.set("roof_pct", 100.0 * flops / (t_ours * 1e6) / roof);
        rates(row, "cublas", t_peer, bytes, Some(flops));
        row.set("ratio_gemm", t_ours / t_peer);
    }
    Ok(())
}
