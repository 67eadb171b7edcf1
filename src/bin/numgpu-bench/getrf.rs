//! getrf: numgpu's batched LU with complete pivoting (`getrf_fullpivot`, strided form, mode
//! GETC2) against cuBLAS `getrfBatched` (partial pivoting: complete pivoting has no GPU peer)
//! on the same device buffers and stream, and LAPACK `?getc2` on the host over all cores and
//! on one; pivots, info and factors checked against LAPACK by the oracle. Also what geqrf's
//! sweep shares with it: [`Batched`] (settings, batch sizing, the host peer) and [`Sets`].

use crate::bench::{below, bits, dispatch, fetch, finish, grid, host_times, rates, sample, secs, sets, About, Bench, Case, Ctx, HostTimes};
use crate::gpu::{ng, ok, DevBuf, Gpu, Res};
use crate::prec::Prec;
use crate::report::{gbs_panel, Fmt, Meta, Panel, Row};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::core::batch::Batch;
use numgpu::getrf_fullpivot::{getrf, Mode};
use numgpu::testing::{gen::fill_random, lu, norm::nan_max, tol};
use numgpu::{Complex32, Complex64, Handle};
use rayon::prelude::*;
use serde_json::{Map, Value};

#[derive(clap::Args, Debug)]
#[group(id = "getrf")]
pub struct Args {
    /// getrf, geqrf: matrices per call, fewer where device memory holds fewer [default: 100000; --quick: 10000].
    #[arg(long)]
    batch: Option<usize>,
}

/// What the batched factorisations' sweeps share: sizes, the batch asked for, the host peer's
/// runs (about `secs_all` and `secs_one` seconds, `cpu_reps` of each) and the check's work (a
/// sample of max(64, check_work / n³) matrices).
pub struct Batched {
    pub sizes: Vec<usize>,
    pub batch: usize,
    secs_all: f64,
    secs_one: f64,
    cpu_reps: usize,
    pub check_work: f64,
}

impl Batched {
    pub fn new(cli: &Cli) -> Res<Batched> {
        let batch = cli.or(cli.lu.batch, 100_000, 10_000);
        if !(1..=i32::MAX as usize).contains(&batch) {
            return Err(format!("--batch {batch}: must be between 1 and {}", i32::MAX));
        }
        let sizes = cli.sizes_or(&[4, 8, 16, 32, 64, 128], &[4, 32, 128]);
        Ok(Batched { sizes, batch, secs_all: cli.or(None, 1.0, 0.1), secs_one: cli.or(None, 0.3, 0.05), cpu_reps: cli.or(None, 3, 1), check_work: cli.or(None, 5e7, 1e7) })
    }

    /// The row's first values, and the batch (capped by device memory; 0 when not even one
    /// matrix fits, an error) and input sets, for matrices of `a_per` bytes with `extra` more
    /// per set: the pristine copy and the sets within the budget.
    pub fn start(&self, ctx: &Ctx, case: &Case, a_per: usize, extra: usize, row: &mut Row) -> Res<(usize, usize)> {
        // LAPACK (the check's and the host peer's) runs single-threaded, rayon over matrices.
        numgpu::lapack::single_threaded_blas();
        let need = |batch: usize, sets: usize| ((sets + 1) * a_per + sets * extra) as f64 * batch as f64;
        let mut batch = self.batch;
        if need(batch, 2) > ctx.budget {
            batch = (ctx.budget / need(1, 2)) as usize;
        }
        let mut nsets = sets((batch * (a_per + extra)) as f64, ctx.gpu.l2_bytes as f64, true);
        while nsets > 2 && need(batch, nsets) > ctx.budget {
            nsets -= 1;
        }
        row.set("precision", case.precision.to_string());
        [("n", case.n), ("batch", batch), ("sets", nsets)].into_iter().for_each(|(k, v)| row.set(k, v));
        if batch == 0 {
            return Err(format!("skipped: one {0}×{0} matrix and its copies exceed the device memory budget of {1:.1} GB", case.n, ctx.budget / 1e9));
        }
        if batch < self.batch {
            row.note(format!("batch {batch} (of {}): device memory", self.batch));
        }
        Ok((batch, nsets))
    }

    /// The host peer on the first matrices of the batch (`run(count)`: seconds; a one-core
    /// probe of about 2·10^6 n³ work sizes the runs) into the row as `lapack_*`, with GB/s of
    /// `bytes` per batch and its ratios to `ours` ms.
    pub fn lapack(&self, row: &mut Row, n: usize, batch: usize, bytes: f64, ours: f64, run: impl FnMut(usize) -> Res<f64> + Send) -> Res<()> {
        let probe = (2e6 / (n * n * n) as f64).ceil() as usize;
        let HostTimes { one_items, one_ms, all_items, all_ms } = host_times(batch, probe, self.secs_one, self.secs_all, self.cpu_reps, run)?;
        row.set("lapack_all_batch", all_items);
        rates(row, "lapack_all", all_ms, bytes, None);
        row.set("ratio_lapack_all", all_ms / ours);
        row.set("lapack_one_batch", one_items);
        row.set("lapack_one_ms", one_ms);
        row.set("ratio_lapack_one", one_ms / ours);
        Ok(())
    }

    /// numgpu's and the peer's medians (each call on fresh inputs) and rates into the row.
    pub fn time(&self, ctx: &mut Ctx, dev: &Sets, row: &mut Row, peer: impl Fn(&[DevBuf]) -> Res<()>, ours: impl Fn(&mut Handle, &[DevBuf]) -> Res<()>) -> Res<f64> {
        let (gpu, n) = (ctx.gpu, dev.sets.len());
        let t_cb = gpu.time_fresh(ctx.warmup, ctx.reps, n, |j| dev.restore(gpu, j), |j| peer(&dev.sets[j]))?;
        let t = gpu.time_fresh(ctx.warmup, ctx.reps, n, |j| dev.restore(gpu, j), |j| ours(ctx.h, &dev.sets[j]))?;
        let (bytes, cb_bytes) = (row.num("bytes").unwrap_or(f64::NAN), row.num("cublas_bytes").or(row.num("bytes")).unwrap_or(f64::NAN));
        rates(row, "ours", t, bytes, None);
        row.set("roof_pct", 100.0 * bytes / (t * 1e6) / ctx.roof.bandwidth_gbs);
        rates(row, "cublas", t_cb, cb_bytes, None);
        row.set("ratio_cublas", t_cb / t);
        Ok(t)
    }

    pub fn extra(&self) -> Map<String, Value> {
        Map::from_iter([("batch".to_string(), self.batch.into())])
    }
}

/// The columns both factorisations start with, then `$more`.
#[rustfmt::skip]
macro_rules! factor_columns {
    ($($more:expr),*) => {
        &[("prec", "precision", Fmt::Text), ("n", "n", Fmt::Fix(0)), ("batch", "batch", Fmt::Fix(0)), ("ours ms", "ours_ms", Fmt::Ms), ("GB/s", "ours_gbs", Fmt::Fix(0)),
          ("% roof", "roof_pct", Fmt::Pct(0)), ("cuBLAS ms", "cublas_ms", Fmt::Ms), ("cuBLAS GB/s", "cublas_gbs", Fmt::Fix(0)), ("×cuBLAS", "ratio_cublas", Fmt::Fix(2)),
          ("LAPACK all ms", "lapack_all_ms", Fmt::Ms), ("×LAPACK all", "ratio_lapack_all", Fmt::Rate), ("LAPACK 1-core ms", "lapack_one_ms", Fmt::Ms),
          ("×LAPACK 1-core", "ratio_lapack_one", Fmt::Rate), ("checked", "checked", Fmt::Fix(0)), $($more),*]
    };
}
pub(crate) use factor_columns;

/// The device side of a batched factorisation: the pristine inputs, and the sets the timed
/// calls rotate through, each holding its copy of A first, then its other buffers.
pub struct Sets {
    pristine: DevBuf,
    pub sets: Vec<Vec<DevBuf>>,
    bytes: usize,
}

impl Sets {
    /// `a` as the pristine batch, and `nsets` sets of a copy of it and buffers of `extra`
    /// bytes; with `pointers` (buffer, of buffer, bytes per matrix): the pointer arrays.
    pub fn new<T>(gpu: &Gpu, a: &[T], batch: usize, nsets: usize, extra: &[usize], pointers: &[(usize, usize, usize)]) -> Res<Sets> {
        let bytes = std::mem::size_of_val(a);
        let s = Sets { pristine: gpu.alloc(bytes)?, sets: (0..nsets).map(|_| std::iter::once(bytes).chain(extra.iter().copied()).map(|b| gpu.alloc(b)).collect()).collect::<Res<_>>()?, bytes };
        gpu.htod(s.pristine.ptr, a)?;
        for (j, set) in s.sets.iter().enumerate() {
            s.restore(gpu, j)?;
            for &(dst, of, step) in pointers {
                gpu.htod(set[dst].ptr, &(0..batch as u64).map(|i| set[of].ptr + i * step as u64).collect::<Vec<_>>())?;
            }
        }
        Ok(s)
    }

    /// Enqueues the copy of the pristine batch into set j's A.
    pub fn restore(&self, gpu: &Gpu, j: usize) -> Res<()> {
        gpu.copy_async(self.sets[j][0].ptr, self.pristine.ptr, self.bytes)
    }
}

pub struct Getrf(pub Batched);

impl Getrf {
    pub fn new(cli: &Cli) -> Res<Getrf> {
        Ok(Getrf(Batched::new(cli)?))
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "getrf", report: "getrf_fullpivot", tolerance: tol::RATIO, precisions: &['s', 'd', 'c', 'z'], default: &['s', 'd', 'c', 'z'], cusparse: false,
    description: "Batched LU with complete pivoting (LAPACK ?getc2 semantics), square n, nonzero random data: numgpu_?getrf_fullpivot_batched_strided (mode GETC2) against cublas?getrfBatched (partial pivoting, pointer-array form) on the same device buffers and stream, and LAPACK ?getc2 on the host over all cores and on one core.",
    columns: factor_columns!(("pivots ≠", "pivot_mismatches", Fmt::Fix(0)), ("near-ties", "pivot_near_ties", Fmt::Fix(0)), ("LU ratio", "lu_ratio", Fmt::Fix(2))),
    log: &["ours_ms", "ratio_cublas"],
};

impl Bench for Getrf {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        grid(precisions, &self.0.sizes, "n")
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut row = Row::new(&case.label);
        let r = dispatch!(case.precision, [f32, f64, Complex32, Complex64], body(&self.0, ctx, case, &mut row));
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: strided form, mode GETC2, packed n×n matrices (lda = n) of nonzero random data in device memory, batch {} (less where device memory holds less: see the column); every call factors fresh inputs (a device copy of the pristine batch restores the set the previous call used, enqueued before the next call's start event, so untimed), rotated among `sets` copies so a restored set leaves L2 before its next use; {} warm-up calls, then the median of {} calls, each between CUDA events on one stream shared by numgpu and cuBLAS; LAPACK `?getc2` (OpenBLAS's LAPACK, single-threaded) on the host, host clock, median of a few runs on the first matrices of the batch, over all {} threads (rayon) and on one core, scaled to the whole batch by the time per matrix\n\
             - GB/s counts each matrix read and written once, 2·n²·elem per matrix (pivots and info not counted); % roof = GB/s / the copy bandwidth; ×cuBLAS = t_cuBLAS / t_numgpu (> 1: numgpu faster; cuBLAS `getrfBatched`, pointer-array form, pivots partially: no GPU library pivots completely); ×LAPACK all / 1-core = t_LAPACK / t_numgpu for the whole batch\n\
             - checks by the oracle (`numgpu::testing::lu`) on `checked` matrices spread over the batch (all of it for small n): ipiv, jpiv and info equal to LAPACK `?getc2`'s on the same matrix (`pivots ≠` counts the matrices that differ; `near-ties` those where at the first differing step our pivot is within 4nε, relative, of LAPACK's in LAPACK's own trailing block: rounding that either implementation may break either way — FMA, the complex modulus — which does not fail the row), LU ratio = max ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) < {}; a row also fails when two calls on the same inputs differ bitwise (pivots, info, sampled factors), when cuBLAS reports a singular random matrix, or when a call fails\n",
            self.0.batch, meta.warmup, meta.reps, meta.host_threads, tol::RATIO
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, roof: &Roofline) -> Vec<Panel> {
        let title = format!("numgpu getrf_fullpivot (complete pivoting) vs cuBLAS getrfBatched (partial): {} ({})", meta.device, meta.date);
        vec![gbs_panel(title, "GB/s, 2·n²·elem / time", rows, |r| r.text("precision"), ("cublas_gbs", "cuBLAS getrfBatched"), roof.bandwidth_gbs)]
    }
    fn extra(&self, _: &[Row]) -> Map<String, Value> {
        self.0.extra()
    }
}

/// LAPACK `?getc2` on each n×n matrix of `a`, over rayon's threads; pivots and info out.
fn getc2_all<T: Prec>(a: &mut [T], ip: &mut [i32], jp: &mut [i32], info: &mut [i32], n: usize) {
    let min = (65536 / (n * n * n / 3).max(1)).max(1);
    a.par_chunks_mut(n * n).zip(ip.par_chunks_mut(n)).zip(jp.par_chunks_mut(n)).zip(info.par_iter_mut()).with_min_len(min).for_each(|(((m, ip), jp), info)| {
        // SAFETY: one n×n matrix (lda = n) and its n pivots of each kind.
        *info = unsafe { T::getc2(n as i32, m.as_mut_ptr(), n as i32, ip.as_mut_ptr(), jp.as_mut_ptr()) }
    });
}

fn body<T: Prec>(cfg: &Batched, ctx: &mut Ctx, case: &Case, row: &mut Row) -> Res<()> {
    let (gpu, n, size) = (ctx.gpu, case.n, std::mem::size_of::<T>());
    let e = n * n;
    // Per matrix and set besides A: ipiv, jpiv, info (ours), a pointer, pivots and info (cuBLAS).
    let (batch, nsets) = cfg.start(ctx, case, e * size, 4 * (2 * n + 1) + 8 + 4 * (n + 1), row)?;
    row.set("bytes", (batch * 2 * e * size) as f64);
    let seed = ((T::LETTER as u64) << 32) ^ (n as u64) ^ 0x6765_7472_6600;
    let mut a = vec![T::zero(); batch * e];
    fill_random(&mut a, seed);
    let dev = Sets::new(gpu, &a, batch, nsets, &[batch * n * 4, batch * n * 4, batch * 4, batch * 8, batch * n * 4, batch * 4], &[(4, 0, e * size)])?;
    let (nl, cublas) = (n as i64, ctx.cublas.h());
    // SAFETY (both): set j holds `batch` packed n×n matrices, their pivots and infos, on the
    // handle's device and stream.
    let ours = |h: &mut Handle, s: &[DevBuf]| ng(unsafe { getrf::<T>(h, Mode::Getc2, nl, Batch::Strided { ptr: s[0].ptr as *mut T, stride: e as i64 }, nl, s[1].ptr as _, s[2].ptr as _, s[3].ptr as _, batch as i64) });
    let peer = |s: &[DevBuf]| ok(unsafe { T::getrf_batched(cublas, n as i32, s[4].ptr, s[5].ptr, s[6].ptr, batch as i32) }.result(), "cublasXgetrfBatched");

    // Two calls from the same inputs, pivots and info poisoned before each (an entry left
    // unwritten shows), the sampled factors fetched.
    let (picks, s0) = (sample(cfg.check_work, n, batch), &dev.sets[0]);
    let get = |k: usize, len: usize| -> Res<Vec<i32>> {
        let mut v = vec![0; len];
        gpu.dtoh(&mut v, s0[k].ptr).map(|_| v)
    };
    let run = |h: &mut Handle| -> Res<([Vec<i32>; 3], Vec<T>)> {
        dev.restore(gpu, 0)?;
        (1..4).try_for_each(|k| gpu.memset_async(s0[k].ptr, 0xff, if k == 3 { batch * 4 } else { batch * n * 4 }))?;
        ours(h, s0)?;
        Ok(([get(1, batch * n)?, get(2, batch * n)?, get(3, batch)?], fetch(gpu, s0[0].ptr, e, batch, &picks)?))
    };
    let ([ip, jp, info], f) = run(ctx.h)?;
    let again = run(ctx.h)?;
    let same = again.0[0] == ip && again.0[1] == jp && again.0[2] == info && bits(&again.1) == bits(&f);
    // cuBLAS on set 0 once: a random matrix has no exactly zero pivot.
    dev.restore(gpu, 0)?;
    peer(s0)?;
    let singular = get(6, batch)?.iter().filter(|&&x| x != 0).count();
    dev.restore(gpu, 0)?;

    // LAPACK ?getc2 on the sample, matrix by matrix: where the pivots differ (step, gap), info
    // differs, and the LU ratio of ours where LAPACK's info = 0.
    let per: Vec<_> = picks
        .par_iter()
        .enumerate()
        .map(|(k, &i)| {
            let (ai, oip, ojp) = (&a[i * e..(i + 1) * e], &ip[i * n..(i + 1) * n], &jp[i * n..(i + 1) * n]);
            let (lf, lip, ljp, linfo) = lu::getc2(ai, n);
            (lu::pivot_gap(&lf, &lip, &ljp, oip, ojp, n), info[i] != linfo, if linfo == 0 { lu::lu_ratio(ai, &f[k * e..(k + 1) * e], oip, ojp, n) } else { 0.0 })
        })
        .collect();
    let near = tol::near_tie(n, T::EPS);
    let tie = |g: &Option<(usize, f64)>| g.is_some_and(|(_, g)| g <= near);
    let (differ, ties, info_differ) = (per.iter().filter(|x| x.0.is_some()).count(), per.iter().filter(|x| tie(&x.0)).count(), per.iter().filter(|x| x.1).count());
    let ratio = per.iter().fold(0.0, |w, x| nan_max(w, x.2));
    // The first mismatch (a near-tie only when all are), for whoever reads the report.
    let first = per.iter().position(|x| x.0.is_some() && !tie(&x.0)).or_else(|| per.iter().position(|x| x.0.is_some()));
    let first = first.map_or(String::new(), |k| {
        let (step, gap) = per[k].0.unwrap_or_default();
        format!("first: matrix {} (seed {seed:#x}), step {}, |pivot| gap {gap:.2e} relative, 4nε = {near:.1e}", picks[k], step + 1)
    });
    [("checked", picks.len()), ("pivot_mismatches", differ), ("pivot_near_ties", ties), ("info_mismatches", info_differ)].into_iter().for_each(|(k, v)| row.set(k, v));
    row.set("info_nonzero", info.iter().filter(|&&x| x != 0).count());
    row.set("pivot_first_mismatch", first.clone());
    row.set("lu_ratio", ratio);
    row.set("reproducible", same);
    row.check(differ == ties, || format!("ipiv/jpiv differ from LAPACK ?getc2 on {} of {} sampled matrices beyond near-ties ({first})", differ - ties, picks.len()));
    row.check(info_differ == 0, || format!("info differs from LAPACK ?getc2 on {info_differ} of {} sampled matrices", picks.len()));
    row.check(below(Some(ratio), tol::RATIO), || format!("‖PLUQ − A‖ ratio {ratio:.3e} >= {}", tol::RATIO));
    row.check(same, || "two calls on the same inputs differ bitwise".into());
    row.check(singular == 0, || format!("bench check: cublasXgetrfBatched reports info ≠ 0 on {singular} of {batch} random matrices"));
    if ties > 0 {
        row.note(format!("{ties} of {} sampled matrices differ from LAPACK's pivots at a near-tie (within 4nε, relative: rounding, not the search; {first})", picks.len()));
    }
    let t = cfg.time(ctx, &dev, row, peer, ours)?;

    // LAPACK ?getc2 on the first matrices of the batch, inputs copied outside the clock.
    let (mut w, mut wip, mut wjp, mut winfo) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    cfg.lapack(row, n, batch, row.num("bytes").unwrap_or(f64::NAN), t, |k| {
        w.clear();
        w.extend_from_slice(&a[..k * e]);
        wip.resize(k * n, 0);
        wjp.resize(k * n, 0);
        winfo.resize(k, 0);
        Ok(secs(|| getc2_all(&mut w, &mut wip, &mut wjp, &mut winfo, n)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host peer's parallel run gives LAPACK's factors, matrix by matrix.
    #[test]
    fn host_peer_is_lapack() {
        numgpu::lapack::single_threaded_blas();
        for n in [1usize, 5, 33] {
            let (e, mut a) = (n * n, vec![Complex64::default(); 7 * n * n]);
            fill_random(&mut a, n as u64);
            let (mut f, mut ip, mut jp, mut info) = (a.clone(), vec![0; 7 * n], vec![0; 7 * n], vec![0; 7]);
            getc2_all(&mut f, &mut ip, &mut jp, &mut info, n);
            for i in 0..7 {
                let (lf, lip, ljp, linfo) = lu::getc2(&a[i * e..(i + 1) * e], n);
                assert_eq!((bits(&lf), &lip[..], &ljp[..], linfo), (bits(&f[i * e..(i + 1) * e]), &ip[i * n..(i + 1) * n], &jp[i * n..(i + 1) * n], info[i]));
            }
        }
    }
}
