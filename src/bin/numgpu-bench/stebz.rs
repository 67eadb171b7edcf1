//! stebz: numgpu's tridiagonal eigenvalues by bisection (`stebz_batched`, device arrays) on
//! the spec's workloads, random matrices of the oracle (`numgpu::testing::tridiag_eig`, d and
//! e uniform in [−1, 1]): batches of every eigenvalue of 10^4 matrices of order n = 64 … 512,
//! and one matrix of order 10^4 … 10^6, every eigenvalue and an index window of 100 in the
//! middle of the spectrum. Peers in the same run: LAPACK `?stebz` on the host (numgpu's CPU
//! backend, which is `?stebz` per matrix under rayon; for one matrix, index windows over the
//! cores) on all cores and on one, and the dense route a GPU user takes today: the tridiagonal
//! stored dense through cuSOLVER (`XsyevBatched` for a batch, and `Xsyevd` looped over it as
//! `torch.linalg.eigvalsh` does for n > 32; `Xsyevdx` for one matrix,
//! eigenvalues only). Checks by the oracle against LAPACK `?stebz` in the same precision.

use crate::bench::{below, bits, dispatch, finish, host_times, sample, secs, sets, About, Bench, Case, Ctx, HostTimes};
use crate::gpu::{median, ng, ok, Cusolver, DevBuf, Gpu, Res};
use crate::prec::Eig;
use crate::report::{series_lines, Fmt, Meta, Panel, Row, Scale, Style};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::stebz::{numgpu_stebz_range as R, stebz_batched, stebz_batched_slices};
use numgpu::testing::norm::nan_max;
use numgpu::testing::tol;
use numgpu::testing::tridiag_eig::{self as te, Class, Tri};
use numgpu::{Handle, Scalar};
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::mem::size_of;

#[derive(clap::Args, Debug)]
#[group(id = "stebz")]
pub struct Args {
    /// stebz: matrices per batched call [default: 10000; --quick: 1000].
    #[arg(long)]
    stebz_batch: Option<usize>,
    /// stebz: orders of the single matrix, comma-separated [default: 10000,100000,1000000; --quick: 10000,100000].
    #[arg(long, value_delimiter = ',')]
    stebz_orders: Option<Vec<usize>>,
    /// stebz: device bytes the dense route's matrices may take per call: a batch is timed on as many matrices as fit and scaled to the whole batch; a single matrix larger than this has no dense row [default: 2e9; --quick: 2e8].
    #[arg(long)]
    dense_bytes: Option<f64>,
}

/// The eigenvalues of the index window of the single-matrix rows.
const WINDOW: usize = 100;

/// The forms and ranges of the cases, as `Case::kind` numbers them.
const KINDS: [(&str, &str); 3] = [("batched", "all"), ("single", "all"), ("single", "index")];

pub struct Stebz {
    sizes: Vec<usize>,
    orders: Vec<usize>,
    batch: usize,
    dense_bytes: f64,
    max_secs: f64,
    secs_all: f64,
    secs_one: f64,
    cpu_reps: usize,
    solver: Option<Cusolver>,
}

impl Stebz {
    pub fn new(cli: &Cli) -> Res<Stebz> {
        let a = &cli.stebz;
        let batch = cli.or(a.stebz_batch, 10_000, 1_000);
        if !(1..=1 << 24).contains(&batch) {
            return Err(format!("--stebz-batch {batch}: must be between 1 and 2^24"));
        }
        let orders = a.stebz_orders.clone().unwrap_or_else(|| if cli.quick { vec![10_000, 100_000] } else { vec![10_000, 100_000, 1_000_000] });
        if let Some(n) = orders.iter().find(|&&n| !(WINDOW..=1 << 28).contains(&n)) {
            return Err(format!("--stebz-orders: {n} is outside {WINDOW}..=2^28"));
        }
        let dense_bytes = cli.or(a.dense_bytes, 2e9, 2e8);
        if !(1e3..=1e11).contains(&dense_bytes) {
            return Err(format!("--dense-bytes {dense_bytes:e}: must be between 1e3 and 1e11"));
        }
        let (secs_all, secs_one, cpu_reps) = (cli.or(None, 1.0, 0.1), cli.or(None, 0.3, 0.05), cli.or(None, 3, 1));
        Ok(Stebz { sizes: cli.sizes_or(&[64, 128, 256, 512], &[64, 256]), orders, batch, dense_bytes, max_secs: cli.max_secs(), secs_all, secs_one, cpu_reps, solver: None })
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "stebz", report: "stebz", tolerance: tol::RATIO, precisions: &['s', 'd'], default: &['s', 'd'], cusparse: false,
    description: "Eigenvalues of random symmetric tridiagonal matrices by bisection (LAPACK ?stebz semantics): numgpu_?stebz_batched on device arrays (a batch, every eigenvalue; one large matrix, every eigenvalue and an index window of 100) against LAPACK ?stebz on the host over all cores and on one core, and the dense GPU route, the tridiagonal stored dense through cuSOLVER (cusolverDnXsyevBatched for a batch, cusolverDnXsyevdx for one matrix; eigenvalues only), and for a batch cusolverDnXsyevd looped over its matrices (the route torch.linalg.eigvalsh takes for n > 32), on the same stream.",
    columns: &[("form", "form", Fmt::Text), ("range", "range", Fmt::Text), ("prec", "precision", Fmt::Text), ("n", "n", Fmt::Fix(0)), ("batch", "batch", Fmt::Fix(0)),
        ("ours ms", "ours_ms", Fmt::Ms), ("matrices/s", "matrices_per_s", Fmt::Rate), ("eigenvalues/s", "ours_eigs", Fmt::Exp(2)), ("LAPACK all ms", "lapack_all_ms", Fmt::Ms),
        ("×LAPACK all", "ratio_lapack_all", Fmt::Rate), ("LAPACK 1-core ms", "lapack_one_ms", Fmt::Ms), ("×LAPACK 1-core", "ratio_lapack_one", Fmt::Rate),
        ("dense route", "dense", Fmt::Text), ("dense ms", "dense_ms", Fmt::Ms), ("×dense", "ratio_dense", Fmt::Rate), ("looped ms", "looped_ms", Fmt::Ms), ("×looped", "ratio_looped", Fmt::Rate), ("error ratio", "error_ratio", Fmt::Fix(2)),
        ("checked", "checked", Fmt::Fix(0))],
    log: &["ours_ms", "ratio_lapack_all", "ratio_dense", "ratio_looped"],
};

impl Bench for Stebz {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        let case = |kind: usize, p: char, n: usize| Case { precision: p, n, kind, label: format!("{} {} {p} n = {n}", KINDS[kind].0, KINDS[kind].1) };
        let batched = precisions.iter().flat_map(|&p| self.sizes.iter().map(move |&n| case(0, p, n)));
        let single = (1..3).flat_map(|k| precisions.iter().flat_map(move |&p| self.orders.iter().map(move |&n| case(k, p, n))));
        batched.chain(single).collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut row = Row::new(&case.label);
        let r = dispatch!(case.precision, [f32, f64], body(self, ctx, case, &mut row));
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        let version = self.solver.as_ref().map_or("—".into(), |s| s.version.clone());
        format!(
            "- method: random matrices (d and e uniform in [-1, 1], the oracle's `Class::Random`), d and e n apart, in device memory; `batched` rows: {} matrices of order n, every eigenvalue; `single` rows: one matrix of order n, every eigenvalue (`all`) or the {WINDOW} of index n/2 − 49 … n/2 + 50 (`index`); default abstol (LAPACK's); numgpu's inputs rotated among `sets` copies when they would fit in L2 (they are only read); {} warm-up calls, then the median of up to {} calls (fewer where they would take more than {} s), between CUDA events on one stream shared with cuSOLVER {version}\n\
             - peers: LAPACK `?stebz` (OpenBLAS's, single-threaded) through numgpu's CPU backend, host clock, over all {} threads (rayon over the matrices; for one matrix, index windows spread over the spectrum, one per thread) and on one core, a few runs on part of the work (the first matrices, or windows of the spectrum) scaled to the whole call by the time per matrix or per eigenvalue; the dense route: the tridiagonal stored as a dense symmetric matrix (lower triangle), cuSOLVER `cusolverDnXsyevBatched` (a batch; timed on as many matrices as fit in {:.1} GB, scaled to the whole batch) or `cusolverDnXsyevdx` (one matrix, range ALL or I; none where the dense matrix exceeds {:.1} GB), eigenvalues only, each call on a fresh copy restored before its start event (untimed); the looped route: `cusolverDnXsyevd` once per matrix (what `torch.linalg.eigvalsh` of a batch of n > 32 does), timed on the first {} matrices and scaled; the dense matrices' upload is not counted\n\
             - matrices/s and eigenvalues/s of numgpu; ×LAPACK all, ×LAPACK 1-core, ×dense and ×looped = t_peer / t_numgpu for the whole call (> 1: numgpu faster)\n\
             - checks by the oracle (`numgpu::testing::tridiag_eig`): m = the range's size and info = 0 for every matrix (poisoned before the call), two calls on the same inputs bitwise equal; the eigenvalues of `checked` matrices spread over the batch (all of them), or of windows spread over the single matrix's range (every eigenvalue of the index window), against LAPACK `?stebz` in the same precision: error ratio max|w − w_LAPACK| / max(abstol, ulp·‖T‖₁) < {}; the dense route's eigenvalues against the same, in units of n·ulp·‖T‖₁ (its own error grows with n), < {} (a check of the bench), and its info = 0\n",
            self.batch,
            meta.warmup,
            meta.reps,
            self.max_secs,
            meta.host_threads,
            self.dense_bytes / 1e9,
            self.dense_bytes / 1e9,
            LOOPED,
            tol::RATIO,
            tol::RATIO
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, _: &Roofline) -> Vec<Panel> {
        let what = [("ours_eigs", "numgpu", Style::Solid), ("lapack_all_eigs", "LAPACK ?stebz, all cores", Style::Dashed), ("dense_eigs", "dense route (cuSOLVER)", Style::Dashed)];
        let panel = |form: &str, x: Scale, series: fn(&Row) -> String| {
            let rows: Vec<Row> = rows.iter().filter(|r| r.text("form") == form).cloned().collect();
            let title = format!("numgpu stebz ({form}) vs LAPACK ?stebz and the dense GPU route: {} ({})", meta.device, meta.date);
            let x_desc = if form == "batched" { "n, order of each matrix (log2 scale)" } else { "n, order of the matrix (log10 scale)" };
            Panel { title, x: (x_desc.into(), x), y: ("eigenvalues/s (log10 scale)".into(), Scale::Log10), names: vec![], level: None, lines: series_lines(&rows, series, "n", &what) }
        };
        vec![panel("batched", Scale::Log2, |r| r.text("precision")), panel("single", Scale::Log10, |r| format!("{} {}", r.text("precision"), r.text("range")))]
    }
    fn extra(&self, _: &[Row]) -> Map<String, Value> {
        Map::from_iter([("batch".to_string(), self.batch.into()), ("cusolver".to_string(), self.solver.as_ref().map(|s| s.version.clone()).into())])
    }
}

/// Median milliseconds of `call(j)`, `setup(j)` enqueued before each (untimed): a probe call,
/// then as many of `reps` calls after a warm-up as take about `max_secs` (only the probe where
/// one call takes longer); and the number of calls it is the median of.
pub fn timed(gpu: &Gpu, warmup: usize, reps: usize, max_secs: f64, mut setup: impl FnMut(usize) -> Res<()>, mut call: impl FnMut(usize) -> Res<()>) -> Res<(f64, usize)> {
    let probe = median(&gpu.time(0, 1, &mut setup, &mut call)?);
    let k = ((max_secs * 1e3 / probe.max(1e-6)) as usize).clamp(1, reps);
    if k == 1 {
        return Ok((probe, 1));
    }
    Ok((median(&gpu.time(warmup, k, setup, call)?), k))
}

/// `count` windows of about `len` consecutive eigenvalue indices (1-based, inclusive) spread
/// evenly over lo … hi, together `total` = min(count·len, hi − lo + 1) indices.
fn windows(lo: usize, hi: usize, count: usize, len: usize) -> Vec<(usize, usize)> {
    let span = hi + 1 - lo;
    let (count, total) = (count.clamp(1, span), (count * len).min(span));
    (0..count).map(|j| (lo + j * span / count, total * j / count, total * (j + 1) / count)).filter(|w| w.2 > w.1).map(|(start, a, b)| (start, start + b - a - 1)).collect()
}

/// The dense symmetric form (column-major, both triangles) of `mats`, one after the other.
fn dense<T: Eig>(mats: &[Tri]) -> Vec<T> {
    let n = mats[0].n();
    let mut a = vec![<T as Scalar>::zero(); n * n * mats.len()];
    a.par_chunks_mut(n * n).zip(mats).for_each(|(a, m)| {
        let (d, e) = m.as_t::<T>();
        for k in 0..n {
            a[k * n + k] = d[k];
            if k + 1 < n {
                (a[k * n + k + 1], a[(k + 1) * n + k]) = (e[k], e[k]);
            }
        }
    });
    a
}

/// LAPACK `?stebz` over `windows` of one matrix's indices, in parallel: the eigenvalues, in
/// the windows' order, and whether every call had info = 0.
fn lapack_windows<T: Eig>(mat: &Tri, windows: &[(usize, usize)]) -> (Vec<f64>, bool) {
    let per: Vec<(Vec<T>, i32)> = windows.par_iter().map(|&(il, iu)| te::stebz::<T>(mat, b'I', <T as Scalar>::zero(), <T as Scalar>::zero(), il, iu, <T as Scalar>::zero())).collect();
    (per.iter().flat_map(|(w, _)| w.iter().map(|x| x.to_f64().unwrap_or(f64::NAN))).collect(), per.iter().all(|p| p.1 == 0))
}

fn body<T: Eig>(s: &mut Stebz, ctx: &mut Ctx, case: &Case, row: &mut Row) -> Res<()> {
    numgpu::lapack::single_threaded_blas();
    let (gpu, n, (form, range)) = (ctx.gpu, case.n, KINDS[case.kind]);
    let (batch, (il, iu)) = (if form == "batched" { s.batch } else { 1 }, if range == "index" { (n / 2 - 49, n / 2 + 50) } else { (1, n) });
    let (code, want, elem) = (if range == "index" { R::NUMGPU_STEBZ_INDEX } else { R::NUMGPU_STEBZ_ALL } as i32, iu + 1 - il, size_of::<T>());
    [("form", form), ("range", range), ("precision", &T::LETTER.to_string())].into_iter().for_each(|(k, v)| row.set(k, v));
    [("n", n), ("batch", batch), ("m", want)].into_iter().for_each(|(k, v)| row.set(k, v));
    let seed = ((T::LETTER as u64) << 32) ^ ((n as u64) << 4) ^ case.kind as u64 ^ 0x7374_6562_7a00;
    let mats: Vec<Tri> = (0..batch as u64).into_par_iter().map(|i| Tri::new::<T>(Class::Random, n, seed ^ (i << 40))).collect();
    let (d, e) = te::strided::<T>(&mats, <T as Scalar>::zero());
    let bytes = n * batch * elem;
    let nsets = sets(2.0 * bytes as f64, gpu.l2_bytes as f64, false);
    if (nsets * 2 + 1) as f64 * bytes as f64 > ctx.budget {
        return Err(format!("skipped: the matrices and their copies exceed the device memory budget of {:.1} GB", ctx.budget / 1e9));
    }
    row.set("sets", nsets);
    let inputs = (0..nsets).map(|_| Ok([gpu.alloc(bytes)?, gpu.alloc(bytes)?])).collect::<Res<Vec<[DevBuf; 2]>>>()?;
    for [db, eb] in &inputs {
        gpu.htod(db.ptr, &d)?;
        gpu.htod(eb.ptr, &e)?;
    }
    let (mb, wb, ib) = (gpu.alloc(8 * batch)?, gpu.alloc(bytes)?, gpu.alloc(4 * batch)?);
    let (nl, bl) = (n as i64, batch as i64);
    let zero = <T as Scalar>::zero();
    // SAFETY: set j's d and e hold n·batch elements (e's last of each unused), m, w and info
    // batch, n·batch and batch entries, on the handle's device and stream.
    let ours = |h: &mut Handle, j: usize| {
        let [db, eb] = &inputs[j % nsets];
        ng(unsafe { stebz_batched::<T>(h, code, nl, zero, zero, il as i64, iu as i64, zero, db.ptr as _, nl, eb.ptr as _, nl, mb.ptr as _, wb.ptr as _, nl, ib.ptr as _, bl) })
    };

    // Two calls on the same inputs, outputs poisoned before each.
    let run = |h: &mut Handle| -> Res<(Vec<i64>, Vec<T>, Vec<i32>)> {
        [(mb.ptr, 8 * batch), (wb.ptr, bytes), (ib.ptr, 4 * batch)].into_iter().try_for_each(|(p, b)| gpu.memset_async(p, 0xff, b))?;
        ours(h, 0)?;
        let (mut m, mut w, mut info) = (vec![0i64; batch], vec![<T as Scalar>::zero(); n * batch], vec![0i32; batch]);
        gpu.dtoh(&mut m, mb.ptr)?;
        gpu.dtoh(&mut w, wb.ptr)?;
        gpu.dtoh(&mut info, ib.ptr)?;
        Ok((m, w, info))
    };
    let (m, w, info) = run(ctx.h)?;
    let again = run(ctx.h)?;
    let same = again.0 == m && bits(&again.1) == bits(&w) && again.2 == info;
    let (m_bad, info_bad) = (m.iter().filter(|&&x| x != want as i64).count(), info.iter().filter(|&&x| x != 0).count());
    row.set("reproducible", same);
    row.check(same, || "two calls on the same inputs differ bitwise".into());
    row.check(m_bad == 0 && info_bad == 0, || format!("m ≠ {want} on {m_bad} and info ≠ 0 on {info_bad} of {batch} matrices"));

    // Against LAPACK: whole spectra of a sample of the batch, or windows of the single matrix.
    let picks = if batch > 1 { sample(4e7, n, batch) } else { vec![0] };
    let wins = if batch > 1 { vec![(1, n)] } else if range == "index" { windows(il, iu, 10, 10) } else { windows(1, n, 32, 2) };
    let lapack: Vec<(Vec<f64>, bool)> = picks.iter().map(|&i| lapack_windows::<T>(&mats[i], &wins)).collect();
    let ratio = picks.iter().zip(&lapack).fold(0.0, |r, (&i, l)| nan_max(r, te::ratio::<T>(&mats[i], &at(&w, n, il, &wins, i), &l.0, 0.0, 1.0)));
    row.set("checked", picks.len());
    row.set("error_ratio", ratio);
    row.check(below(Some(ratio), tol::RATIO), || format!("error ratio {ratio:.3e} against LAPACK ?stebz >= {}", tol::RATIO));
    row.check(lapack.iter().all(|l| l.1), || "bench check: LAPACK ?stebz reported info ≠ 0".into());

    let (t, k) = timed(gpu, ctx.warmup, ctx.reps, s.max_secs, |_| Ok(()), |j| ours(ctx.h, j))?;
    row.set("reps", k);
    row.set("ours_ms", t);
    row.set("matrices_per_s", batch as f64 / (t * 1e-3));
    row.set("ours_eigs", (want * batch) as f64 / (t * 1e-3));
    drop(inputs);

    // LAPACK on the host: the first matrices of the batch, or windows of the single matrix's
    // range (one per thread), scaled to the whole call.
    let mut cpu = Handle::cpu();
    let (mut mo, mut wo, mut io) = (vec![0i64; batch], vec![<T as Scalar>::zero(); n * batch], vec![0i32; batch]);
    let HostTimes { one_ms, all_ms, .. } = if batch > 1 {
        host_times(batch, (4e6 / (n * n) as f64).ceil() as usize, s.secs_one, s.secs_all, s.cpu_reps, |k| {
            let (kn, mut r) = (k * n, Ok(()));
            let t = secs(|| r = stebz_batched_slices(&mut cpu, code, nl, zero, zero, 1, nl, zero, &d[..kn], nl, &e[..kn], nl, &mut mo[..k], &mut wo[..kn], nl, &mut io[..k], k as i64));
            ng(r).map(|_| t)
        })?
    } else {
        host_times(want, 1, s.secs_one, s.secs_all, s.cpu_reps, |k| {
            let (threads, mut r) = (rayon::current_num_threads(), Ok(()));
            let wins = windows(il, iu, threads, k.div_ceil(threads));
            let one = |&(a, b): &(usize, usize)| stebz_batched_slices(&mut Handle::cpu(), R::NUMGPU_STEBZ_INDEX as i32, nl, zero, zero, a as i64, b as i64, zero, &d, nl, &e, nl, &mut [0], &mut vec![zero; n], nl, &mut [0], 1);
            let t = secs(|| r = wins.par_iter().try_for_each(one));
            ng(r).map(|_| t)
        })?
    };
    for (who, ms) in [("lapack_all", all_ms), ("lapack_one", one_ms)] {
        row.set(&format!("{who}_ms"), ms);
        row.set(&format!("ratio_{who}"), ms / t);
    }
    row.set("lapack_all_eigs", (want * batch) as f64 / (all_ms * 1e-3));
    dense_route::<T>(s, ctx, row, &mats, (il, iu), (&picks, &wins, &lapack), t)
}

/// The eigenvalues of matrix i in `windows` (1-based indices) from w, n per matrix, whose
/// first entry is eigenvalue `first`.
fn at<T: Eig>(w: &[T], n: usize, first: usize, windows: &[(usize, usize)], i: usize) -> Vec<f64> {
    windows.iter().flat_map(|&(a, b)| w[i * n + a - first..i * n + b + 1 - first].iter().map(|x| x.to_f64().unwrap_or(f64::NAN))).collect()
}

/// LAPACK's eigenvalues of the checked matrices (`picks`) in `windows`, as `body` found them.
type Checked<'a> = (&'a [usize], &'a [(usize, usize)], &'a [(Vec<f64>, bool)]);

/// The dense route on as many of `mats` as fit in `dense_bytes` (none for a single matrix
/// that does not fit), checked against LAPACK's eigenvalues of the checked matrices it covers;
/// its time scaled to the whole batch, into the row with its ratio to ours (`t` ms).
fn dense_route<T: Eig>(s: &mut Stebz, ctx: &mut Ctx, row: &mut Row, mats: &[Tri], (il, iu): (usize, usize), (picks, wins, lapack): Checked, t: f64) -> Res<()> {
    let (gpu, n, batch, elem) = (ctx.gpu, mats[0].n(), mats.len(), size_of::<T>());
    let fit = ((s.dense_bytes / (n * n * elem) as f64) as usize).min(batch);
    let (name, index) = if batch > 1 { ("cusolverDnXsyevBatched", None) } else { ("cusolverDnXsyevdx", (iu + 1 - il < n).then_some((il as i64, iu as i64))) };
    row.set("dense", name);
    if fit == 0 || 3.0 * (fit * n * n * elem) as f64 > ctx.budget {
        row.note(format!("no dense route: the dense matrix takes {:.1} GB", (n * n * elem) as f64 / 1e9));
        return Ok(());
    }
    if s.solver.is_none() {
        if !crate::gpu::cusolver_present() {
            return Err("cuSOLVER (libcusolver.so.12) was not found: put the CUDA toolkit's lib64 on LD_LIBRARY_PATH or set CUDA_HOME".into());
        }
        s.solver = Some(Cusolver::new(gpu)?);
    }
    let sv = s.solver.as_ref().expect("created above");
    let (a, e2) = (dense::<T>(&mats[..fit]), n * n * fit * elem);
    let (pristine, work, wb, ib) = (gpu.alloc(e2)?, gpu.alloc(e2)?, gpu.alloc(n * fit * elem)?, gpu.alloc(4 * fit)?);
    gpu.htod(pristine.ptr, &a)?;
    drop(a);
    let (nl, mut sizes, mut meig) = (n as i64, (0usize, 0usize), 0i64);
    // SAFETY (both): `fit` packed n×n matrices at work, n·fit eigenvalues at wb, fit infos at
    // ib, the workspaces the size query asked for, on the solver's stream (the bench's).
    let status = unsafe { if index.is_none() && batch > 1 { T::syev_batched(sv.h.cu(), sv.params, nl, work.ptr, wb.ptr, ib.ptr, fit as i64, None, &mut sizes) } else { T::syevdx(sv.h.cu(), sv.params, nl, index, work.ptr, wb.ptr, &mut meig, ib.ptr, None, &mut sizes) } };
    ok(status.result(), &format!("{name}_bufferSize"))?;
    let (dbuf, mut hbuf) = (gpu.alloc(sizes.0)?, vec![0u8; sizes.1.max(1)]);
    // Returns the number of eigenvalues `Xsyevdx` found (0 for the batch).
    let mut call = |_: usize| -> Res<i64> {
        let (buf, mut meig) = (Some((dbuf.ptr, &mut hbuf[..])), 0i64);
        // SAFETY: as for the size query, with its workspaces.
        let status = unsafe { if batch > 1 { T::syev_batched(sv.h.cu(), sv.params, nl, work.ptr, wb.ptr, ib.ptr, fit as i64, buf, &mut sizes) } else { T::syevdx(sv.h.cu(), sv.params, nl, index, work.ptr, wb.ptr, &mut meig, ib.ptr, buf, &mut sizes) } };
        ok(status.result(), name).map(|_| meig)
    };
    let restore = |_: usize| gpu.copy_async(work.ptr, pristine.ptr, e2);
    restore(0)?;
    let meig = call(0)?;
    let (mut wd, mut infos) = (vec![<T as Scalar>::zero(); n * fit], vec![0i32; fit]);
    gpu.dtoh(&mut wd, wb.ptr)?;
    gpu.dtoh(&mut infos, ib.ptr)?;
    // Its eigenvalues of the checked matrices it covers, against LAPACK's, in units of
    // n·ulp·‖T‖ (a dense solver's error grows with n).
    let ratio = picks.iter().zip(lapack).filter(|(&i, _)| i < fit).fold(0.0, |r, (&i, l)| nan_max(r, te::ratio::<T>(&mats[i], &at(&wd, n, il, wins, i), &l.0, 0.0, n as f64)));
    row.set("dense_error_ratio", ratio);
    row.check(below(Some(ratio), tol::RATIO), || format!("bench check: {name}'s error ratio {ratio:.3e} (units of n·ulp·‖T‖) against LAPACK ?stebz >= {}", tol::RATIO));
    row.check(infos.iter().all(|&x| x == 0) && (batch > 1 || meig == (iu + 1 - il) as i64), || format!("bench check: {name} reported info ≠ 0 or {meig} eigenvalues"));
    let (ms, _) = timed(gpu, 1, ctx.reps, s.max_secs, restore, |j| call(j).map(|_| ()))?;
    let ms = ms * batch as f64 / fit as f64;
    row.set("dense_batch", fit);
    row.set("dense_ms", ms);
    row.set("ratio_dense", ms / t);
    row.set("dense_eigs", ((iu + 1 - il) * batch) as f64 / (ms * 1e-3));
    if fit < batch {
        row.note(format!("dense route timed on {fit} of {batch} matrices ({:.1} GB dense), scaled", (fit * n * n * elem) as f64 / 1e9));
    }
    if batch > 1 {
        looped_route::<T>(sv, gpu, ctx.reps, s.max_secs, row, (n, fit.min(LOOPED), batch), (&work, &pristine, &wb, &ib), t)?;
    }
    Ok(())
}

/// Matrices per timed call of the looped dense route (its time is scaled to the batch).
const LOOPED: usize = 64;

/// The route PyTorch's `eigvalsh` of a batch of n > 32 takes (the one the issue measured):
/// `cusolverDnXsyevd` once per matrix, timed on the first `looped` matrices at `work` (restored
/// from `pristine` before each call, untimed), scaled to the batch; its info checked.
#[allow(clippy::too_many_arguments)]
fn looped_route<T: Eig>(sv: &Cusolver, gpu: &Gpu, reps: usize, max_secs: f64, row: &mut Row, (n, looped, batch): (usize, usize, usize), (work, pristine, wb, ib): (&DevBuf, &DevBuf, &DevBuf, &DevBuf), t: f64) -> Res<()> {
    let (nl, elem, mut sizes) = (n as i64, size_of::<T>(), (0usize, 0usize));
    // SAFETY (both): matrix j of `looped` packed n×n matrices at work, its n eigenvalues at
    // wb, its info at ib, the workspaces the size query asked for, on the bench's stream.
    ok(unsafe { T::syevd(sv.h.cu(), sv.params, nl, work.ptr, wb.ptr, ib.ptr, None, &mut sizes) }.result(), "cusolverDnXsyevd_bufferSize")?;
    let (dbuf, mut hbuf) = (gpu.alloc(sizes.0)?, vec![0u8; sizes.1.max(1)]);
    let mut call = |_: usize| -> Res<()> {
        for j in 0..looped {
            let (a, w, info) = (work.ptr + (j * n * n * elem) as u64, wb.ptr + (j * n * elem) as u64, ib.ptr + 4 * j as u64);
            ok(unsafe { T::syevd(sv.h.cu(), sv.params, nl, a, w, info, Some((dbuf.ptr, &mut hbuf[..])), &mut sizes) }.result(), "cusolverDnXsyevd")?;
        }
        Ok(())
    };
    let restore = |_: usize| gpu.copy_async(work.ptr, pristine.ptr, looped * n * n * elem);
    let (ms, _) = timed(gpu, 1, reps, max_secs, restore, &mut call)?;
    let mut infos = vec![0i32; looped];
    gpu.dtoh(&mut infos, ib.ptr)?;
    row.check(infos.iter().all(|&x| x == 0), || "bench check: cusolverDnXsyevd reported info ≠ 0".to_string());
    let ms = ms * batch as f64 / looped as f64;
    row.set("looped_ms", ms);
    row.set("ratio_looped", ms / t);
    row.note(format!("looped dense route (cusolverDnXsyevd per matrix) timed on {looped} of {batch} matrices, scaled"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The windows of indices, the dense form and the host layout agree with the oracle's
    /// matrices; the options' defaults and checks.
    #[test]
    fn windows_layout_and_settings() {
        assert_eq!(windows(1, 10, 2, 2), [(1, 2), (6, 7)]);
        assert_eq!(windows(51, 150, 10, 10).iter().map(|w| w.1 + 1 - w.0).sum::<usize>(), 100);
        assert_eq!(windows(1, 3, 8, 4), [(1, 1), (2, 2), (3, 3)]);
        let mats: Vec<Tri> = (0..3).map(|i| Tri::new::<f64>(Class::Random, 5, 9 + i)).collect();
        let (d, e) = te::strided::<f64>(&mats, 0.0);
        let a = dense::<f64>(&mats);
        let m1 = &mats[1];
        assert_eq!((d[5], e[6], a[25 + 1], a[25 + 5], a[25 + 11], a[25 + 6]), (m1.d[0], m1.e[1], m1.e[0], m1.e[0], m1.e[1], m1.d[1]));
        // LAPACK's windows of the whole spectrum are its eigenvalues, and `at` picks them.
        let wins = windows(1, 5, 2, 2);
        let (l, ok) = lapack_windows::<f64>(&mats[2], &wins);
        let all: Vec<f64> = te::stebz::<f64>(&mats[2], b'A', 0.0, 0.0, 1, 5, 0.0).0;
        assert!(ok && te::ratio::<f64>(&mats[2], &at(&[all.clone(), all.clone()].concat(), 5, 1, &wins, 1), &l, 0.0, 1.0) < 1.0);
        let b = Stebz::new(&crate::tests::cli(&["--routine", "stebz"])).unwrap();
        assert_eq!((b.sizes.as_slice(), b.orders.as_slice(), b.batch, b.cases(&['s', 'd']).len()), (&[64, 128, 256, 512][..], &[10_000, 100_000, 1_000_000][..], 10_000, 20));
        assert_eq!(Stebz::new(&crate::tests::cli(&["--quick"])).unwrap().cases(&['d']).len(), 6);
        assert!(Stebz::new(&crate::tests::cli(&["--stebz-orders", "10"])).is_err() && Stebz::new(&crate::tests::cli(&["--stebz-batch", "0"])).is_err());
    }
}
