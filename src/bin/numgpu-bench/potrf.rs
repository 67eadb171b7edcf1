//! potrf: numgpu's batched Cholesky factorisation (`potrf`, strided form, uplo lower) against
//! cuSOLVER `potrfBatched` (pointer-array form, lower) on the same device buffers and stream,
//! and LAPACK `?potrf` on the host over all cores and on one; batches of about 1 GB of input
//! per call (`--potrf-bytes`) for n = 8 … 256, GB/s of input reported beside the measured
//! bandwidth roofline. Info and factors checked against LAPACK by the oracle
//! (`numgpu::testing::spd`).

use crate::bench::{below, bits, dispatch, fetch, finish, grid, rates, sample, secs, About, Bench, Case, Ctx};
use crate::getrf::{Batched, Sets};
use crate::gpu::{ng, ok, Cusolver, DevBuf, Res};
use crate::prec::Chol;
use crate::report::{gbs_panel, Fmt, Meta, Panel, Row};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::core::batch::Batch;
use numgpu::potrf::potrf;
use numgpu::testing::{norm::nan_max, spd, tol};
use numgpu::{Complex32, Complex64, Handle, Uplo};
use rayon::prelude::*;
use serde_json::{Map, Value};

#[derive(clap::Args, Debug)]
#[group(id = "potrf")]
pub struct Args {
    /// potrf: bytes of input matrices per call; the batch is this over n²·elem, fewer where device memory holds fewer [default: 1e9; --quick: 1e8].
    #[arg(long)]
    potrf_bytes: Option<f64>,
}

pub struct Potrf {
    cfg: Batched,
    bytes: f64,
    solver: Option<Cusolver>,
}

impl Potrf {
    pub fn new(cli: &Cli) -> Res<Potrf> {
        let mut cfg = Batched::new(cli)?;
        cfg.sizes = cli.sizes_or(&[8, 16, 32, 64, 128, 256], &[8, 32, 128]);
        let bytes = cli.or(cli.potrf.potrf_bytes, 1e9, 1e8);
        if !(1e3..=1e11).contains(&bytes) {
            return Err(format!("--potrf-bytes {bytes:e}: must be between 1e3 and 1e11"));
        }
        Ok(Potrf { cfg, bytes, solver: None })
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "potrf", report: "potrf", tolerance: tol::RATIO, precisions: &['s', 'd', 'c', 'z'], default: &['s', 'd', 'c', 'z'], cusparse: false,
    description: "Batched Cholesky factorisation (LAPACK ?potrf semantics), uplo lower, Hermitian diagonally dominant random matrices: numgpu_?potrf_batched_strided against cusolverDn?potrfBatched (pointer-array form) on the same device buffers and stream, and LAPACK ?potrf on the host over all cores and on one core; batches of about 1 GB of input.",
    columns: &[("prec", "precision", Fmt::Text), ("n", "n", Fmt::Fix(0)), ("batch", "batch", Fmt::Fix(0)), ("ours ms", "ours_ms", Fmt::Ms), ("GB/s in", "ours_gbs", Fmt::Fix(0)),
        ("% roof", "roof_pct", Fmt::Pct(0)), ("cuSOLVER ms", "cusolver_ms", Fmt::Ms), ("cuSOLVER GB/s in", "cusolver_gbs", Fmt::Fix(0)), ("×cuSOLVER", "ratio_cusolver", Fmt::Fix(2)),
        ("LAPACK all ms", "lapack_all_ms", Fmt::Ms), ("×LAPACK all", "ratio_lapack_all", Fmt::Rate), ("LAPACK 1-core ms", "lapack_one_ms", Fmt::Ms),
        ("×LAPACK 1-core", "ratio_lapack_one", Fmt::Rate), ("checked", "checked", Fmt::Fix(0)), ("chol ratio", "chol_ratio", Fmt::Fix(2))],
    log: &["ours_gbs", "ratio_cusolver"],
};

impl Bench for Potrf {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        grid(precisions, &self.cfg.sizes, "n")
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut row = Row::new(&case.label);
        let r = dispatch!(case.precision, [f32, f64, Complex32, Complex64], body(self, ctx, case, &mut row));
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        let version = self.solver.as_ref().map_or("—".into(), |s| s.version.clone());
        format!(
            "- method: strided form, uplo lower, packed n×n matrices (lda = n) in device memory, Hermitian with random off-diagonal entries in [−1, 1) and 2n on the diagonal (`numgpu::testing::spd::dominant_batch`), as many as make {:.1} GB of input (less where device memory holds less: see the batch column); every call factors fresh inputs (a device copy of the pristine batch restores the set the previous call used, enqueued before the next call's start event, so untimed), rotated among `sets` copies so a restored set leaves L2 before its next use; {} warm-up calls, then the median of {} calls, each between CUDA events on one stream shared by numgpu and cuSOLVER {version}; LAPACK `?potrf` (OpenBLAS's, single-threaded) on the host, host clock, median of a few runs on the first matrices of the batch, over all {} threads (rayon) and on one core, scaled to the whole batch by the time per matrix\n\
             - GB/s in counts the input once, n²·elem per matrix (info not counted); % roof = the bytes a call must move (n² read, the n(n+1)/2 of the triangle written) / time / the copy bandwidth; ×cuSOLVER = t_cuSOLVER / t_numgpu (> 1: numgpu faster; cuSOLVER `potrfBatched` takes a device pointer array); ×LAPACK all / 1-core = t_LAPACK / t_numgpu for the whole batch\n\
             - checks by the oracle (`numgpu::testing::spd`) on `checked` matrices spread over the batch: info equal to LAPACK `?potrf`'s (0), chol ratio = max ‖L·Lᴴ − A‖₁ / (n·‖A‖₁·ε) < {}; a row also fails when two calls on the same inputs differ bitwise (info, sampled factors), when cuSOLVER reports info ≠ 0, or when a call fails\n",
            self.bytes / 1e9, meta.warmup, meta.reps, meta.host_threads, tol::RATIO
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, roof: &Roofline) -> Vec<Panel> {
        let title = format!("numgpu potrf vs cuSOLVER potrfBatched: {} ({})", meta.device, meta.date);
        vec![gbs_panel(title, "GB/s of input, n²·elem / time", rows, |r| r.text("precision"), ("cusolver_gbs", "cuSOLVER potrfBatched"), roof.bandwidth_gbs)]
    }
    fn extra(&self, _: &[Row]) -> Map<String, Value> {
        Map::from_iter([("bytes".to_string(), self.bytes.into()), ("cusolver".to_string(), self.solver.as_ref().map(|s| s.version.clone()).into())])
    }
}

/// LAPACK `?potrf` (lower) on each n×n matrix of `a`, over rayon's threads; info out.
fn potrf_all<T: Chol>(a: &mut [T], info: &mut [i32], n: usize) {
    let min = (65536 / (n * n * n / 3).max(1)).max(1);
    a.par_chunks_mut(n * n).zip(info.par_iter_mut()).with_min_len(min).for_each(|(m, info)| {
        // SAFETY: one n×n matrix, lda = n.
        *info = unsafe { T::potrf(b'L', n as i32, m.as_mut_ptr(), n as i32) }
    });
}

fn body<T: Chol>(s: &mut Potrf, ctx: &mut Ctx, case: &Case, row: &mut Row) -> Res<()> {
    let (gpu, n, size) = (ctx.gpu, case.n, std::mem::size_of::<T>());
    let e = n * n;
    s.cfg.batch = ((s.bytes / (e * size) as f64) as usize).clamp(1, i32::MAX as usize);
    // Per matrix and set besides A: info (ours), a pointer and info (cuSOLVER).
    let (batch, nsets) = s.cfg.start(ctx, case, e * size, 4 + 8 + 4, row)?;
    let input = (batch * e * size) as f64;
    row.set("bytes", input);
    if s.solver.is_none() {
        if !crate::gpu::cusolver_present() {
            return Err("cuSOLVER (libcusolver.so.12) was not found: put the CUDA toolkit's lib64 on LD_LIBRARY_PATH or set CUDA_HOME".into());
        }
        s.solver = Some(Cusolver::new(gpu)?);
    }
    let solver = s.solver.as_ref().expect("created above").h.cu();
    let seed = ((T::LETTER as u64) << 32) ^ (n as u64) ^ 0x706f_7472_6600;
    let a = spd::dominant_batch::<T>(n, batch, seed);
    let dev = Sets::new(gpu, &a, batch, nsets, &[batch * 4, batch * 8, batch * 4], &[(2, 0, e * size)])?;
    let nl = n as i64;
    // SAFETY (both): set j holds `batch` packed n×n matrices, their infos and pointers, on the
    // handle's device and stream.
    let ours = |h: &mut Handle, s: &[DevBuf]| ng(unsafe { potrf::<T>(h, Uplo::Lower, nl, Batch::Strided { ptr: s[0].ptr as *mut T, stride: e as i64 }, nl, s[1].ptr as _, batch as i64) });
    let peer = |s: &[DevBuf]| ok(unsafe { T::potrf_batched(solver, n as i32, s[2].ptr, s[3].ptr, batch as i32) }.result(), "cusolverDnXpotrfBatched");

    // Two calls from the same inputs, info poisoned before each, the sampled factors fetched.
    let (picks, s0) = (sample(s.cfg.check_work, n, batch), &dev.sets[0]);
    let get = |k: usize| -> Res<Vec<i32>> {
        let mut v = vec![0; batch];
        gpu.dtoh(&mut v, s0[k].ptr).map(|_| v)
    };
    let run = |h: &mut Handle| -> Res<(Vec<i32>, Vec<T>)> {
        dev.restore(gpu, 0)?;
        gpu.memset_async(s0[1].ptr, 0xff, batch * 4)?;
        ours(h, s0)?;
        Ok((get(1)?, fetch(gpu, s0[0].ptr, e, batch, &picks)?))
    };
    let (info, f) = run(ctx.h)?;
    let again = run(ctx.h)?;
    let same = again.0 == info && bits(&again.1) == bits(&f);
    dev.restore(gpu, 0)?;
    gpu.memset_async(s0[3].ptr, 0xff, batch * 4)?;
    peer(s0)?;
    let peer_bad = get(3)?.iter().filter(|&&x| x != 0).count();
    dev.restore(gpu, 0)?;

    // LAPACK ?potrf on the sample: info, and the Cholesky ratio of ours.
    let per: Vec<(bool, f64)> = picks
        .par_iter()
        .enumerate()
        .map(|(k, &i)| {
            let ai = &a[i * e..(i + 1) * e];
            let (_, linfo) = spd::potrf(ai, n, Uplo::Lower);
            (info[i] != linfo, if linfo == 0 { spd::chol_ratio(ai, &f[k * e..(k + 1) * e], n, Uplo::Lower) } else { 0.0 })
        })
        .collect();
    let info_differ = per.iter().filter(|x| x.0).count();
    let ratio = per.iter().fold(0.0, |w, x| nan_max(w, x.1));
    row.set("checked", picks.len());
    row.set("info_mismatches", info_differ);
    row.set("info_nonzero", info.iter().filter(|&&x| x != 0).count());
    row.set("chol_ratio", ratio);
    row.set("reproducible", same);
    row.check(info.iter().all(|&x| x == 0), || format!("info ≠ 0 on {} of {batch} positive definite matrices", info.iter().filter(|&&x| x != 0).count()));
    row.check(info_differ == 0, || format!("info differs from LAPACK ?potrf on {info_differ} of {} sampled matrices", picks.len()));
    row.check(below(Some(ratio), tol::RATIO), || format!("‖L·Lᴴ − A‖ ratio {ratio:.3e} >= {}", tol::RATIO));
    row.check(same, || "two calls on the same inputs differ bitwise".into());
    row.check(peer_bad == 0, || format!("bench check: cusolverDnXpotrfBatched reports info ≠ 0 on {peer_bad} of {batch} positive definite matrices"));

    // Timed: each call on fresh inputs.
    let t_peer = gpu.time_fresh(ctx.warmup, ctx.reps, nsets, |j| dev.restore(gpu, j), |j| peer(&dev.sets[j]))?;
    let t = gpu.time_fresh(ctx.warmup, ctx.reps, nsets, |j| dev.restore(gpu, j), |j| ours(ctx.h, &dev.sets[j]))?;
    let moved = input + (batch * n * (n + 1) / 2 * size) as f64;
    rates(row, "ours", t, input, None);
    row.set("roof_pct", 100.0 * moved / (t * 1e6) / ctx.roof.bandwidth_gbs);
    rates(row, "cusolver", t_peer, input, None);
    row.set("ratio_cusolver", t_peer / t);

    // LAPACK ?potrf on the first matrices of the batch, inputs copied outside the clock.
    let (mut w, mut winfo) = (Vec::new(), Vec::new());
    s.cfg.lapack(row, n, batch, input, t, |k| {
        w.clear();
        w.extend_from_slice(&a[..k * e]);
        winfo.resize(k, 0);
        Ok(secs(|| potrf_all(&mut w, &mut winfo, n)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host peer's parallel run gives LAPACK's factors; the options' defaults and checks.
    #[test]
    fn host_peer_and_settings() {
        numgpu::lapack::single_threaded_blas();
        for n in [1usize, 5, 33] {
            let (e, a) = (n * n, spd::dominant_batch::<Complex64>(n, 7, n as u64));
            let (mut f, mut info) = (a.clone(), vec![7; 7]);
            potrf_all(&mut f, &mut info, n);
            for i in 0..7 {
                let (lf, linfo) = spd::potrf(&a[i * e..(i + 1) * e], n, Uplo::Lower);
                assert_eq!((bits(&lf), linfo), (bits(&f[i * e..(i + 1) * e]), info[i]));
            }
        }
        let b = Potrf::new(&crate::tests::cli(&["--routine", "potrf"])).unwrap();
        assert_eq!((b.cfg.sizes.as_slice(), b.bytes, b.cases(&['s', 'z']).len()), (&[8, 16, 32, 64, 128, 256][..], 1e9, 12));
        assert!(Potrf::new(&crate::tests::cli(&["--potrf-bytes", "10"])).is_err());
    }
}
