//! expm: numgpu's batched matrix exponentials on device arrays. `eig` rows: P_i =
//! E·diag(exp(λt_i))·E⁻¹ of one reversible rate model (the oracle's `rate_model`, shared E, λ,
//! E⁻¹) for many branch lengths, M = 4, 20, 61, 64, against the chapter's cuBLAS route (two
//! `gemmBatched` calls: E·D_i, then ·E⁻¹, with D_i = diag(exp(λt_i)) formed beforehand and not
//! timed) on the same stream, and the bandwidth roofline (P written, t read). `general` rows:
//! exp(A_i) of random matrices (entries uniform, unit variance per row) against
//! `torch.linalg.matrix_exp` on the same sizes, run by `expm_torch.py` in a Python subprocess
//! (skipped, with a note, where python3 or torch is absent). Checks by the oracle
//! (`numgpu::testing::expm`).

use crate::bench::{below, bits, dispatch, fetch, finish, sample, About, Bench, Case, Ctx};
use crate::gpu::{median, ng, ok, DevBuf, Res};
use crate::prec::Prec;
use crate::python;
use crate::report::{series_lines, Fmt, Meta, Panel, Row, Scale, Style};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::expm::{expm_batched, expm_eig_batched};
use numgpu::testing::expm::{eig_ratio, eig_reference, expm_ratio, expm_reference, norm1, rate_model};
use numgpu::testing::gen::fill_random;
use numgpu::testing::norm::nan_max;
use numgpu::testing::tol;
use numgpu::{Complex32, Complex64, Scalar};
use std::mem::size_of;

#[derive(clap::Args, Debug)]
#[group(id = "expm")]
pub struct Args {
    /// expm: branch lengths per expm_eig call [default: 1000000; --quick: 100000]; fewer where the cuBLAS route's three batches would exceed the memory budget.
    #[arg(long)]
    expm_branches: Option<usize>,
    /// expm: orders M of the expm_eig rows, comma-separated [default: 4,20,61,64].
    #[arg(long, value_delimiter = ',')]
    expm_orders: Option<Vec<usize>>,
    /// expm: orders n of the general rows, comma-separated [default: 8,16,32,64]; batches 10^5 (n <= 16), 2·10^4 (n <= 32), 5000 (n <= 64), 500 beyond.
    #[arg(long, value_delimiter = ',')]
    expm_sizes: Option<Vec<usize>>,
}

/// The Python peer, run by [`python::run`].
const TORCH_SCRIPT: &str = include_str!("expm_torch.py");

pub struct Expm {
    branches: usize,
    orders: Vec<usize>,
    sizes: Vec<usize>,
    quick: bool,
}

impl Expm {
    pub fn new(cli: &Cli) -> Res<Expm> {
        let a = &cli.expm;
        let branches = cli.or(a.expm_branches, 1_000_000, 100_000);
        if !(1..=1 << 28).contains(&branches) {
            return Err(format!("--expm-branches {branches}: must be between 1 and 2^28"));
        }
        let orders = a.expm_orders.clone().unwrap_or_else(|| vec![4, 20, 61, 64]);
        let sizes = a.expm_sizes.clone().unwrap_or_else(|| vec![8, 16, 32, 64]);
        if let Some(n) = orders.iter().chain(&sizes).find(|&&n| !(1..=4096).contains(&n)) {
            return Err(format!("--expm-orders / --expm-sizes: {n} is outside 1..=4096"));
        }
        Ok(Expm { branches, orders, sizes, quick: cli.quick })
    }

    /// The batch of the general rows of order n.
    fn batch(&self, n: usize) -> usize {
        let b = match n {
            0..=16 => 100_000,
            17..=32 => 20_000,
            33..=64 => 5_000,
            _ => 500,
        };
        if self.quick {
            (b / 10).max(1)
        } else {
            b
        }
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "expm", report: "expm", tolerance: tol::RATIO, precisions: &['s', 'd', 'c', 'z'], default: &['s', 'd'], cusparse: false,
    description: "Batched matrix exponentials on device arrays: numgpu_?expm_eig_batched (P_i = E·diag(exp(λ t_i))·E⁻¹, one reversible rate model shared by the batch, many branch lengths) against the cuBLAS route of Lopez & Horton (two cublas?gemmBatched calls, E·D_i then ·E⁻¹) and the bandwidth roofline; numgpu_?expm_batched (Padé scaling and squaring) on random matrices against torch.linalg.matrix_exp on the same GPU (Python subprocess).",
    columns: &[("form", "form", Fmt::Text), ("prec", "precision", Fmt::Text), ("n", "n", Fmt::Fix(0)), ("batch", "batch", Fmt::Fix(0)), ("ours ms", "ours_ms", Fmt::Ms),
        ("GB/s", "ours_gbs", Fmt::Fix(0)), ("% roof", "roof_pct", Fmt::Pct(0)), ("cuBLAS ms", "cublas_ms", Fmt::Ms), ("×cuBLAS", "ratio_cublas", Fmt::Fix(2)),
        ("torch ms", "torch_ms", Fmt::Ms), ("×torch", "ratio_torch", Fmt::Fix(2)), ("error ratio", "error_ratio", Fmt::Fix(2)), ("checked", "checked", Fmt::Fix(0))],
    log: &["ours_ms", "ratio_cublas", "ratio_torch", "roof_pct"],
};

impl Bench for Expm {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        let case = |kind: usize, p: char, n: usize| Case { precision: p, n, kind, label: format!("{} {p} n = {n}", ["eig", "general"][kind]) };
        let eig = precisions.iter().flat_map(|&p| self.orders.iter().map(move |&n| case(0, p, n)));
        let gen = precisions.iter().flat_map(|&p| self.sizes.iter().map(move |&n| case(1, p, n)));
        eig.chain(gen).collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut row = Row::new(&case.label);
        let r = match case.kind {
            0 => dispatch!(case.precision, [f32, f64, Complex32, Complex64], eig_body(self, ctx, case.n, &mut row)),
            _ => dispatch!(case.precision, [f32, f64, Complex32, Complex64], general_body(self, ctx, case.n, &mut row)),
        };
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: device arrays; {} warm-up calls, then the median of {} calls between CUDA events on one stream shared with cuBLAS (default math mode: no TF32)\n\
             - `eig` rows: one reversible (GTR) rate model of order M (the oracle's `rate_model`: E, λ, E⁻¹ from its symmetrised form), shared by the batch (stride 0), {} branch lengths t_i in (0, 2] (fewer where the cuBLAS route's E·D_i, D_i and P batches exceed the memory budget: the row's batch); GB/s counts P written and t read (M²·elem + real per problem); % roof = GB/s over the measured copy bandwidth; the cuBLAS route: D_i = diag(exp(λt_i)) as dense M × M matrices formed before the timing (not timed), then cublas?gemmBatched(E, D_i) → F_i and cublas?gemmBatched(F_i, E⁻¹) → P_i, pointer arrays in device memory (E's and E⁻¹'s entries all the same matrix), both calls timed; ×cuBLAS = t_cuBLAS / t_numgpu (> 1: numgpu faster)\n\
             - `general` rows: random n × n matrices, entries uniform in [−1, 1) (both parts for complex) times √(3/n), packed; torch.linalg.matrix_exp on matrices of the same distribution (its own generator) in `expm_torch.py`, run with python3 in a subprocess, timed between CUDA events in the same way (its own warm-up and repetitions); ×torch = t_torch / t_numgpu\n\
             - checks by the oracle (`numgpu::testing::expm`): `eig`: max elementwise |P − P'| / ((M + 4)·ε·|E|·|D|·|E⁻¹|) against E·D·E⁻¹ in double and against the cuBLAS route's P (with |D| <= I), on `checked` problems spread over the batch; `general`: ‖E − E'‖₁ / (‖E'‖₁·ε·(n + ‖A‖₁)) against Higham's Padé 13 in double on `checked` matrices, info = 0 for all; both < {}; two calls on the same inputs bitwise equal\n",
            meta.warmup,
            meta.reps,
            self.branches,
            tol::RATIO
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, _: &Roofline) -> Vec<Panel> {
        let eig: Vec<Row> = rows.iter().filter(|r| r.text("form") == "eig").cloned().collect();
        let gen: Vec<Row> = rows.iter().filter(|r| r.text("form") == "general").cloned().collect();
        let lines = series_lines(&eig, |r| r.text("precision"), "n", &[("ours_ms", "numgpu", Style::Solid), ("cublas_ms", "cuBLAS gemmBatched route", Style::Dashed)]);
        let glines = series_lines(&gen, |r| r.text("precision"), "n", &[("ours_ms", "numgpu", Style::Solid), ("torch_ms", "torch.linalg.matrix_exp", Style::Dashed)]);
        vec![
            Panel { title: format!("numgpu expm_eig vs the cuBLAS route: {} ({})", meta.device, meta.date), x: ("order M".into(), Scale::Lin), y: ("ms".into(), Scale::Log10), names: vec![], level: None, lines },
            Panel { title: format!("numgpu expm vs torch.linalg.matrix_exp: {} ({})", meta.device, meta.date), x: ("order n".into(), Scale::Lin), y: ("ms".into(), Scale::Log10), names: vec![], level: None, lines: glines },
        ]
    }
}

fn t<T: Scalar>(x: f64) -> T {
    T::from_c64(Complex64::new(x, 0.0))
}

fn c64<T: Scalar>(v: &[T]) -> Vec<Complex64> {
    v.iter().map(|x| x.to_c64()).collect()
}

fn eig_body<T: Prec>(x: &Expm, ctx: &mut Ctx, m: usize, row: &mut Row) -> Res<()> {
    let (gpu, sz, mm) = (ctx.gpu, size_of::<T>(), m * m);
    let rsz = size_of::<T::Real>();
    // The cuBLAS route holds D_i, F_i and P_i (3 M² per problem, five pointer arrays) and
    // numgpu's P (one more).
    let per = (4 * mm * sz + rsz + 40) as f64;
    let batch = x.branches.min((ctx.budget / per) as usize).clamp(1, i32::MAX as usize);
    row.set("form", "eig");
    row.set("precision", T::LETTER.to_string());
    [("n", m), ("batch", batch)].into_iter().for_each(|(k, v)| row.set(k, v));
    if batch < x.branches {
        row.note(format!("{batch} branch lengths of {} (the cuBLAS route's batches fit the memory budget)", x.branches));
    }
    let q = rate_model(m, 2026 + m as u64);
    let (e, l, ei): (Vec<T>, Vec<T>, Vec<T>) = (q.e.iter().map(|&v| t(v)).collect(), q.lambda.iter().map(|&v| t(v)).collect(), q.einv.iter().map(|&v| t(v)).collect());
    let times: Vec<T::Real> = (0..batch).map(|i| t::<T>(2.0 * ((i as u64 * 7919) % batch as u64 + 1) as f64 / batch as f64).re()).collect();
    let buf = |bytes: usize| gpu.alloc(bytes);
    let (de, dl, dei, dt, dp) = (buf(mm * sz)?, buf(m * sz)?, buf(mm * sz)?, buf(batch * rsz)?, buf(batch * mm * sz)?);
    gpu.htod(de.ptr, &e)?;
    gpu.htod(dl.ptr, &l)?;
    gpu.htod(dei.ptr, &ei)?;
    gpu.htod(dt.ptr, &times)?;
    let ours = |h: &mut numgpu::Handle| -> Res<()> {
        let (ml, bl) = (m as i64, batch as i64);
        // SAFETY: E, λ, E⁻¹ (shared), t (batch) and P (batch packed M × M) are device buffers
        // of the handle's device.
        ng(unsafe { expm_eig_batched::<T>(h, ml, de.ptr as _, ml, 0, dl.ptr as _, 0, dei.ptr as _, ml, 0, dt.ptr as _, dp.ptr as _, ml, (m * m) as i64, bl) })
    };
    // The cuBLAS route: D_i on the host (untimed), pointer arrays.
    let (dd, df, dq) = (buf(batch * mm * sz)?, buf(batch * mm * sz)?, buf(batch * mm * sz)?);
    // D_i uploaded in chunks (the whole batch of them may not fit in host memory twice).
    for first in (0..batch).step_by(1 << 16) {
        let count = (batch - first).min(1 << 16);
        let mut d = vec![T::zero(); count * mm];
        for (j, &ti) in times[first..first + count].iter().enumerate() {
            for k in 0..m {
                d[j * mm + k * (m + 1)] = T::from_c64((l[k].to_c64() * ti.into()).exp());
            }
        }
        gpu.htod(dd.ptr + (first * mm * sz) as u64, &d)?;
    }
    let ptrs = |base: u64, step: usize| -> Vec<u64> { (0..batch as u64).map(|i| base + i * step as u64).collect() };
    let arrays: Vec<DevBuf> = (0..5).map(|_| buf(batch * 8)).collect::<Res<_>>()?;
    for (a, v) in arrays.iter().zip([ptrs(de.ptr, 0), ptrs(dd.ptr, mm * sz), ptrs(df.ptr, mm * sz), ptrs(dei.ptr, 0), ptrs(dq.ptr, mm * sz)]) {
        gpu.htod(a.ptr, &v)?;
    }
    let (one, zero, cublas, mi, bi) = (T::one(), T::zero(), ctx.cublas.h(), m as i32, batch as i32);
    let route = || -> Res<()> {
        // SAFETY: the pointer arrays name batch M × M matrices of the buffers above.
        unsafe {
            ok(T::gemm_array(cublas, mi, &one, arrays[0].ptr, arrays[1].ptr, &zero, arrays[2].ptr, bi).result(), "cublasXgemmBatched E·D")?;
            ok(T::gemm_array(cublas, mi, &one, arrays[2].ptr, arrays[3].ptr, &zero, arrays[4].ptr, bi).result(), "cublasXgemmBatched ·E⁻¹")
        }
    };
    // Checks on a sample: ours twice (bitwise), against the double reference and the cuBLAS
    // route.
    let picks = sample(5e7, m, batch);
    ours(ctx.h)?;
    let p: Vec<T> = fetch(gpu, dp.ptr, mm, batch, &picks)?;
    gpu.memset_async(dp.ptr, 0xff, batch * mm * sz)?;
    ours(ctx.h)?;
    let p2: Vec<T> = fetch(gpu, dp.ptr, mm, batch, &picks)?;
    row.set("reproducible", bits(&p) == bits(&p2));
    route()?;
    let pc: Vec<T> = fetch(gpu, dq.ptr, mm, batch, &picks)?;
    let (ce, cl, cei) = (c64(&e), c64(&l), c64(&ei));
    let (_, bound0) = eig_reference(&ce, &cl, &cei, 0.0, m);
    let (mut worst, mut worst_cublas) = (0f64, 0f64);
    for (j, &i) in picks.iter().enumerate() {
        let got = c64(&p[j * mm..(j + 1) * mm]);
        let (reference, bound) = eig_reference(&ce, &cl, &cei, times[i].into(), m);
        worst = nan_max(worst, eig_ratio(&got, &reference, &bound, m, T::EPS));
        worst_cublas = nan_max(worst_cublas, eig_ratio(&got, &c64(&pc[j * mm..(j + 1) * mm]), &bound0, m, T::EPS));
    }
    row.set("error_ratio", worst);
    row.set("error_ratio_cublas", worst_cublas);
    row.set("checked", picks.len());
    row.check(below(Some(worst), tol::RATIO), || format!("error ratio {worst:.3e} >= {}", tol::RATIO));
    row.check(below(Some(worst_cublas), tol::RATIO), || format!("against the cuBLAS route: error ratio {worst_cublas:.3e} >= {}", tol::RATIO));
    row.check(bits(&p) == bits(&p2), || "two calls on the same inputs differ bitwise".into());
    let t_ours = median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |_| ours(ctx.h))?);
    let t_cublas = median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |_| route())?);
    let bytes = (batch * (mm * sz + rsz)) as f64;
    row.set("bytes", bytes);
    row.set("ours_ms", t_ours);
    row.set("ours_gbs", bytes / (t_ours * 1e6));
    row.set("roof_pct", 100.0 * bytes / (t_ours * 1e6) / ctx.roof.bandwidth_gbs);
    row.set("cublas_ms", t_cublas);
    row.set("ratio_cublas", t_cublas / t_ours);
    Ok(())
}

/// torch.linalg.matrix_exp's median milliseconds on `batch` n × n matrices of T, or why not.
fn torch_ms<T: Scalar>(n: usize, batch: usize, warmup: usize, reps: usize) -> Result<(f64, String), String> {
    let dtype = match T::LETTER {
        's' => "float32",
        'd' => "float64",
        'c' => "complex64",
        _ => "complex128",
    };
    let args = [n.to_string(), batch.to_string(), dtype.to_string(), warmup.max(1).to_string(), reps.to_string(), "7".to_string()];
    let v = python::run("expm_torch.py", TORCH_SCRIPT, &args)?;
    match v["ms"].as_f64() {
        Some(ms) => Ok((ms, format!("torch {}", v["torch"].as_str().unwrap_or("?")))),
        None => Err(format!("expm_torch.py said: {v}")),
    }
}

fn general_body<T: Prec>(x: &Expm, ctx: &mut Ctx, n: usize, row: &mut Row) -> Res<()> {
    let (gpu, sz, nn, batch) = (ctx.gpu, size_of::<T>(), n * n, x.batch(n));
    row.set("form", "general");
    row.set("precision", T::LETTER.to_string());
    [("n", n), ("batch", batch)].into_iter().for_each(|(k, v)| row.set(k, v));
    let mut a = vec![T::zero(); batch * nn];
    fill_random(&mut a, ((T::LETTER as u64) << 32) ^ n as u64);
    let s = (3.0 / n as f64).sqrt();
    a.iter_mut().for_each(|v| *v = v.scale(t::<T>(s).re()));
    let (da, de, di) = (gpu.alloc(batch * nn * sz)?, gpu.alloc(batch * nn * sz)?, gpu.alloc(batch * 4)?);
    gpu.htod(da.ptr, &a)?;
    let ours = |h: &mut numgpu::Handle| -> Res<()> {
        let (nl, sl) = (n as i64, nn as i64);
        // SAFETY: A and E hold batch packed n × n matrices, info batch entries, all device
        // memory of the handle's device.
        ng(unsafe { expm_batched::<T>(h, nl, da.ptr as _, nl, sl, de.ptr as _, nl, sl, di.ptr as _, batch as i64) })
    };
    ours(ctx.h)?;
    let (mut e, mut info) = (vec![T::zero(); batch * nn], vec![0i32; batch]);
    gpu.dtoh(&mut e, de.ptr)?;
    gpu.dtoh(&mut info, di.ptr)?;
    gpu.memset_async(de.ptr, 0xff, batch * nn * sz)?;
    ours(ctx.h)?;
    let mut e2 = vec![T::zero(); batch * nn];
    gpu.dtoh(&mut e2, de.ptr)?;
    let picks = sample(2e7, n, batch);
    let mut worst = 0f64;
    for &i in &picks {
        let ai = c64(&a[i * nn..(i + 1) * nn]);
        worst = nan_max(worst, expm_ratio(&c64(&e[i * nn..(i + 1) * nn]), &expm_reference(&ai, n), norm1(&ai, n), n, T::EPS));
    }
    let bad = info.iter().filter(|&&v| v != 0).count();
    row.set("error_ratio", worst);
    row.set("checked", picks.len());
    row.set("reproducible", bits(&e) == bits(&e2));
    row.check(below(Some(worst), tol::RATIO), || format!("error ratio {worst:.3e} >= {}", tol::RATIO));
    row.check(bad == 0, || format!("{bad} matrices with info != 0"));
    row.check(bits(&e) == bits(&e2), || "two calls on the same inputs differ bitwise".into());
    drop((a, e, e2));
    let t_ours = median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |_| ours(ctx.h))?);
    let bytes = (2 * batch * nn * sz) as f64;
    row.set("ours_ms", t_ours);
    row.set("ours_gbs", bytes / (t_ours * 1e6));
    row.set("roof_pct", 100.0 * bytes / (t_ours * 1e6) / ctx.roof.bandwidth_gbs);
    match torch_ms::<T>(n, batch, ctx.warmup, ctx.reps) {
        Ok((ms, version)) => {
            row.set("torch_ms", ms);
            row.set("ratio_torch", ms / t_ours);
            row.set("torch", version);
        }
        Err(why) => row.note(python::skipped("torch", &why)),
    }
    Ok(())
}
