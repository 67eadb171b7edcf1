//! life: numgpu's LiFE products and SBBNNLS (`numgpu::life`, double, device arrays) on
//! synthetic connectomes of the seed's sizes (`numgpu::testing::life`: Nθ = 96, the voxels,
//! fibres and Φ bytes of the seed's Table 9 rows), against the CPU backend on all host cores
//! and the seed's published GPU-opt times (a 2080 Ti). Each case gives three rows: DSC
//! (y = M·w), WC (w = Mᵀ·y) and 500 SBBNNLS iterations.

use crate::bench::{finish, secs, About, Bench, Case, Ctx};
use crate::gpu::{median, ng, DevBuf, Res};
use crate::report::{Fmt, Meta, Panel, Row};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::life::{self, mty_host, mw_host, plan_from_coo, sbbnnls_host};
use numgpu::testing::life::{connectome, dictionary, signal, Shape, SEED_ATOMS, SEED_BYTES_PER_ENTRY};
use numgpu::testing::tol;
use numgpu::Handle;
use std::mem::size_of;

#[derive(clap::Args, Debug)]
#[group(id = "life")]
pub struct Args {
    /// life: the seed's data sets to run, comma-separated indices into its Table 9 rows (0: DET 50,000 fibres, 0.51 GB; 1: DET 500,000 fibres, 1.97 GB; 2: iFOD1 500,000 fibres, 3.36 GB, the largest) [default: 0,1,2; --quick: 0].
    #[arg(long, value_delimiter = ',')]
    life_sets: Option<Vec<usize>>,
    /// life: SBBNNLS iterations of the timed solve [default: 500; --quick: 50].
    #[arg(long)]
    life_iters: Option<i32>,
}

/// One of the seed's data sets (Table 9): tractography, fibres, voxels, Φ bytes in its
/// storage, and its GPU-opt minutes for 500 SBBNNLS iterations on a 2080 Ti.
struct DataSet {
    name: &'static str,
    fibres: usize,
    voxels: usize,
    phi_bytes: f64,
    gpu_opt_min: f64,
}

const SETS: [DataSet; 3] = [
    DataSet { name: "DET", fibres: 50_000, voxels: 151_414, phi_bytes: 510.0e6, gpu_opt_min: 0.146 },
    DataSet { name: "DET", fibres: 500_000, voxels: 175_351, phi_bytes: 1.970e9, gpu_opt_min: 0.829 },
    DataSet { name: "iFOD1", fibres: 500_000, voxels: 255_309, phi_bytes: 3.362e9, gpu_opt_min: 2.155 },
];

/// The products of a case's rows, as `Row` "product" names them.
const PRODUCTS: [&str; 3] = ["DSC", "WC", "SBBNNLS"];

/// SBBNNLS iterations the CPU backend runs (its time scaled to the timed solve's).
const CPU_ITERS: i64 = 4;

pub struct Life {
    sets: Vec<usize>,
    iters: i32,
}

impl Life {
    pub fn new(cli: &Cli) -> Res<Life> {
        let a = &cli.life;
        let sets = a.life_sets.clone().unwrap_or_else(|| if cli.quick { vec![0] } else { vec![0, 1, 2] });
        if let Some(s) = sets.iter().find(|&&s| s >= SETS.len()) {
            return Err(format!("--life-sets: {s} is not one of 0 … {}", SETS.len() - 1));
        }
        let iters = cli.or(a.life_iters, 500, 50);
        if !(1..=100_000).contains(&iters) {
            return Err(format!("--life-iters {iters}: must be between 1 and 100000"));
        }
        Ok(Life { sets, iters })
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "life", report: "life", tolerance: tol::RATIO, precisions: &['d'], default: &['d'], cusparse: false,
    description: "LiFE connectome evaluation (sparse Tucker products of M = Φ ×₁ D and the SBBNNLS solver): numgpu_dlife_mw (DSC), numgpu_dlife_mty (WC) and 500 iterations of numgpu_dlife_sbbnnls on device arrays, on synthetic connectomes of the seed's sizes, against numgpu's CPU backend on all host cores and the seed's published GPU-opt times (RTX 2080 Ti).",
    columns: &[("data set", "set", Fmt::Text), ("product", "product", Fmt::Text), ("voxels", "voxels", Fmt::Fix(0)), ("fibres", "fibres", Fmt::Fix(0)), ("nnz", "nnz", Fmt::Exp(2)),
        ("ours ms", "ours_ms", Fmt::Ms), ("GB/s", "ours_gbs", Fmt::Fix(0)), ("% roofline", "pct_roofline", Fmt::Fix(1)), ("GFLOP/s", "ours_gflops", Fmt::Fix(0)),
        ("CPU all ms", "cpu_all_ms", Fmt::Ms), ("×CPU all", "ratio_cpu_all", Fmt::Rate), ("seed GPU-opt ms", "seed_ms", Fmt::Ms), ("×seed GPU-opt", "ratio_seed", Fmt::Rate),
        ("error ratio", "error_ratio", Fmt::Fix(2))],
    log: &["ours_ms", "pct_roofline", "ratio_cpu_all", "ratio_seed"],
};

impl Bench for Life {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        let p = precisions.first().copied().unwrap_or('d');
        self.sets.iter().map(|&k| Case { precision: p, n: SETS[k].fibres, kind: k, label: format!("{} {} fibres", SETS[k].name, SETS[k].fibres) }).collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut rows: Vec<Row> = PRODUCTS.iter().map(|p| Row::new(format!("{} {p}", case.label))).collect();
        let r = body(self, ctx, &SETS[case.kind], &mut rows);
        match r {
            Ok(()) => rows.into_iter().map(|row| finish(ctx, row, Ok(()))).collect(),
            Err(e) => rows.into_iter().map(|row| finish(ctx, row, Err(e.clone()))).collect(),
        }
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: synthetic connectomes of the oracle (`numgpu::testing::life::connectome`): Nθ = 96, {SEED_ATOMS} atoms, the voxels and fibres of the seed's Table 9 rows, nnz = Φ bytes / {SEED_BYTES_PER_ENTRY} (the seed's storage: MATLAB's sparse tensor, three double subscripts and a double value per entry); each fibre walks through voxels with a small stride and a slowly drifting atom, values 1; a random dictionary in [0, 1); D, w, Y and b in device memory; {} warm-up calls, then the median of up to {} calls (one for SBBNNLS) between CUDA events\n\
             - rows: DSC (y = M·w, w random), WC (w = Mᵀ·y, y random), and {} SBBNNLS iterations from w = 0 (tol 0: every iteration runs; two DSC and 1.5 WC per iteration on average, plus three small reads of sums of squares)\n\
             - GB/s and % roofline: the bytes any product must move at least (Φ's entries, 16 bytes each, the group pointers, w and Y once, D once) over the time, against the measured copy bandwidth; numgpu's WC moves about 36 bytes per entry (its terms are written, then gathered by fibre), which caps its % at about 16/36 of the copy bandwidth; both products also read Nθ·8 bytes of D per entry from L1/L2 (D stays in L2), which may bound them instead; GFLOP/s at 2·Nθ flops per entry\n\
             - peers: numgpu's CPU backend (Rust under rayon) on all {} host threads, host clock, the products once each and {CPU_ITERS} SBBNNLS iterations scaled to the timed count; the seed's GPU-opt minutes for 500 iterations on an RTX 2080 Ti (Table 9; its DS1 figure, 0.855 min, is for a data set whose sizes it does not give), scaled to the timed count, for the SBBNNLS rows only\n\
             - checks: both products against the CPU backend on the whole output, max|Δ| / (ulp·max(|M||w|)) (resp. (|M|ᵀ|y|)) < {}; two calls bitwise equal; SBBNNLS: w ≥ 0, the objective below its start, and after {CPU_ITERS} iterations within 1e-6 (relative) of the CPU backend's\n",
            meta.warmup,
            meta.reps,
            self.iters,
            meta.host_threads,
            tol::RATIO
        )
    }
    fn plot(&self, _rows: &[Row], _meta: &Meta, _: &Roofline) -> Vec<Panel> {
        Vec::new()
    }
}

/// Device memory holding `x`.
fn upload(ctx: &Ctx, x: &[f64]) -> Res<DevBuf> {
    let b = ctx.gpu.alloc(std::mem::size_of_val(x).max(8))?;
    ctx.gpu.htod(b.ptr, x)?;
    Ok(b)
}

/// Median milliseconds of `reps` calls of `call` after `warmup`, between CUDA events.
fn timed(ctx: &mut Ctx, reps: usize, mut call: impl FnMut(&mut Handle) -> Res<()>) -> Res<f64> {
    let (gpu, warmup) = (ctx.gpu, ctx.warmup);
    let h = &mut *ctx.h;
    Ok(median(&gpu.time(warmup, reps, |_| Ok(()), |_| call(h))?))
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0f64, |s, (x, y)| s.max((x - y).abs()))
}

fn max_abs(x: &[f64]) -> f64 {
    x.iter().fold(0.0f64, |s, v| s.max(v.abs()))
}

fn body(s: &Life, ctx: &mut Ctx, set: &DataSet, rows: &mut [Row]) -> Res<()> {
    let shape = Shape::seed(set.fibres, set.voxels, set.phi_bytes);
    let (nt, nv, nf) = (shape.ntheta, shape.nvoxels, shape.nfibers);
    let coo = connectome(&shape, 0x11fe ^ set.fibres as u64, 0);
    let nnz = coo.nnz();
    let plan_bytes = 2.0 * nnz as f64 * 16.0;
    if plan_bytes + (3 * nt * nv * 8) as f64 > ctx.budget {
        return Err(format!("skipped: the plan ({:.1} GB) and the signals exceed the device memory budget of {:.1} GB", plan_bytes / 1e9, ctx.budget / 1e9));
    }
    let p = ng(plan_from_coo(ctx.h, &coo))?;
    let mut cpu = Handle::cpu();
    let pc = ng(plan_from_coo(&mut cpu, &coo))?;
    drop(coo);
    let d = dictionary(nt, SEED_ATOMS, nt, 0x11ff);
    let w = signal(nf, 1, nf, 0x1200);
    let y = signal(nt, nv, nt, 0x1201);
    for (row, product) in rows.iter_mut().zip(PRODUCTS) {
        row.set("set", format!("{} {} fibres", set.name, set.fibres));
        row.set("product", product);
        row.set("voxels", nv);
        row.set("fibres", nf);
        row.set("nnz", nnz);
    }
    let (db, wb, yb, ob, gb) = (upload(ctx, &d)?, upload(ctx, &w)?, upload(ctx, &y)?, ctx.gpu.alloc(nt * nv * 8)?, ctx.gpu.alloc(nf * 8)?);
    let (ntl, flops) = (nt as i64, 2.0 * (nt * nnz) as f64);
    let ptrs = |b: &DevBuf| b.ptr as *mut f64;
    // SAFETY (both): the buffers hold D (nt × atoms), w (nf), y and out (nt × nv), g (nf) on
    // the handle's device; the plan is the handle's.
    let dsc = |h: &mut Handle| ng(unsafe { life::mw(h, &p, ptrs(&db), ntl, ptrs(&wb), 0.0, ptrs(&ob), ntl) });
    let wc = |h: &mut Handle| ng(unsafe { life::mty(h, &p, ptrs(&db), ntl, ptrs(&yb), ntl, 0.0, ptrs(&gb)) });
    let bytes_dsc = (nnz * 16 + (nv + 1) * 8 + nf * 8 + nt * nv * 8 + nt * SEED_ATOMS * 8) as f64;
    let bytes_wc = (nnz * 16 + (nf + 1) * 8 + nf * 8 + nt * nv * 8 + nt * SEED_ATOMS * 8) as f64;

    // DSC: checked against the CPU backend, twice bitwise equal, timed.
    let fetch = |ctx: &Ctx, b: &DevBuf, len: usize| -> Res<Vec<f64>> {
        let mut v = vec![0.0; len];
        ctx.gpu.dtoh(&mut v, b.ptr)?;
        Ok(v)
    };
    dsc(ctx.h)?;
    let ours = fetch(ctx, &ob, nt * nv)?;
    dsc(ctx.h)?;
    let again = fetch(ctx, &ob, nt * nv)?;
    let mut want = vec![0.0; nt * nv];
    let cpu_ms = secs(|| mw_host(&mut cpu, &pc, &d, ntl, &w, 0.0, &mut want, ntl).expect("the CPU backend's DSC")) * 1e3;
    let (dabs, wabs): (Vec<f64>, Vec<f64>) = (d.iter().map(|x| x.abs()).collect(), w.iter().map(|x| x.abs()).collect());
    let mut scale = vec![0.0; nt * nv];
    ng(mw_host(&mut cpu, &pc, &dabs, ntl, &wabs, 0.0, &mut scale, ntl))?;
    let ratio = max_diff(&ours, &want) / (f64::EPSILON * max_abs(&scale));
    let reps = ctx.reps;
    let t = timed(ctx, reps, dsc)?;
    product_row(ctx, &mut rows[0], t, bytes_dsc, flops, cpu_ms, ratio, ours == again);

    // WC.
    wc(ctx.h)?;
    let ours = fetch(ctx, &gb, nf)?;
    wc(ctx.h)?;
    let again = fetch(ctx, &gb, nf)?;
    let mut want = vec![0.0; nf];
    let cpu_ms = secs(|| mty_host(&mut cpu, &pc, &d, ntl, &y, ntl, 0.0, &mut want).expect("the CPU backend's WC")) * 1e3;
    let yabs: Vec<f64> = y.iter().map(|x| x.abs()).collect();
    let mut scale = vec![0.0; nf];
    ng(mty_host(&mut cpu, &pc, &dabs, ntl, &yabs, ntl, 0.0, &mut scale))?;
    let ratio = max_diff(&ours, &want) / (f64::EPSILON * max_abs(&scale));
    let t = timed(ctx, reps, wc)?;
    product_row(ctx, &mut rows[1], t, bytes_wc, flops, cpu_ms, ratio, ours == again);

    // SBBNNLS from w = 0 on b = y: CPU_ITERS iterations against the CPU backend's, then the
    // timed solve.
    let solve = |h: &mut Handle, iters: i64| -> Res<life::Solved> {
        ctx_zero(h, &gb, nf)?;
        // SAFETY: as above; gb holds the nf weights, yb the signal b.
        ng(unsafe { life::sbbnnls(h, &p, ptrs(&db), ntl, ptrs(&yb), ntl, ptrs(&gb), iters, 0.0) })
    };
    let short = solve(ctx.h, CPU_ITERS)?;
    let mut wc_ = vec![0.0; nf];
    let mut short_cpu = None;
    let cpu_ms = secs(|| short_cpu = Some(sbbnnls_host(&mut cpu, &pc, &d, ntl, &y, ntl, &mut wc_, CPU_ITERS, 0.0))) * 1e3 * s.iters as f64 / CPU_ITERS as f64;
    let short_cpu = ng(short_cpu.expect("ran"))?;
    let f0 = 0.5 * y.iter().map(|v| v * v).sum::<f64>();
    let row = &mut rows[2];
    let rel = (short.objective - short_cpu.objective).abs() / short_cpu.objective.abs().max(f64::MIN_POSITIVE);
    row.check(rel < 1e-6, || format!("after {CPU_ITERS} iterations the objective {} differs from the CPU backend's {} by {rel:.2e} (relative)", short.objective, short_cpu.objective));
    let mut out = None;
    let t = secs(|| out = Some(solve(ctx.h, s.iters as i64).and_then(|o| ctx.gpu.sync().map(|_| o)))) * 1e3;
    let out = out.expect("ran")?;
    let wfinal = fetch(ctx, &gb, nf)?;
    row.check(wfinal.iter().all(|&x| x >= 0.0) && out.objective < f0, || format!("w has a negative entry or the objective {} is not below its start {f0}", out.objective));
    row.set("iters", out.iters);
    row.set("objective", out.objective);
    row.set("ours_ms", t);
    row.set("ours_gflops", flops * 3.5 * out.iters as f64 / (t * 1e6));
    row.set("cpu_all_ms", cpu_ms);
    row.set("ratio_cpu_all", cpu_ms / t);
    let seed_ms = set.gpu_opt_min * 60e3 * s.iters as f64 / 500.0;
    row.set("seed_ms", seed_ms);
    row.set("ratio_seed", seed_ms / t);
    row.set("error_ratio", rel);
    row.note(format!("{} nonzero weights of {nf} at the end; host clock around the whole call (it reads three sums back per iteration)", wfinal.iter().filter(|&&x| x > 0.0).count()));
    Ok(())
}

/// Zeros nf weights at `b` (the solve's start).
fn ctx_zero(h: &mut Handle, b: &DevBuf, nf: usize) -> Res<()> {
    let zeros = vec![0.0f64; nf];
    // SAFETY: b holds nf doubles of the handle's device.
    ng(unsafe { h.memcpy(b.ptr as _, zeros.as_ptr() as _, nf * size_of::<f64>()) })
}

/// A product's row: time, rates against the roofline, the CPU backend, its checks.
#[allow(clippy::too_many_arguments)]
fn product_row(ctx: &Ctx, row: &mut Row, ms: f64, bytes: f64, flops: f64, cpu_ms: f64, ratio: f64, same: bool) {
    row.set("ours_ms", ms);
    row.set("ours_gbs", bytes / (ms * 1e6));
    row.set("pct_roofline", 100.0 * bytes / (ms * 1e6) / ctx.roof.bandwidth_gbs);
    row.set("ours_gflops", flops / (ms * 1e6));
    row.set("cpu_all_ms", cpu_ms);
    row.set("ratio_cpu_all", cpu_ms / ms);
    row.set("error_ratio", ratio);
    row.set("reproducible", same);
    row.check(same, || "two calls on the same inputs differ bitwise".into());
    row.check(ratio < tol::RATIO, || format!("error ratio {ratio:.3e} against the CPU backend >= {}", tol::RATIO));
}
