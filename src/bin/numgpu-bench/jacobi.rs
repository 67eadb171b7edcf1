//! jacobi: numgpu's batched Jacobi eigen and singular value decompositions (`syevj_batched`,
//! `gesvdj_batched`, vectors wanted, device arrays) on the shapes, random matrices of
//! the oracle (`numgpu::testing::jacobi`): eigh at n = 8 and 16 × 10^5, 32 × 2·10^4, 64 × 5000,
//! 128 × 1000, 256 × 200; svd at n = 8 × 10^5, 32 × 2·10^4, 64 × 5000 (square). Peers in the
//! same run: cuSOLVER's batched Jacobi (`syevjBatched`, `gesvdjBatched`: n ≤ 32 only), cuSOLVER's
//! dense solvers (`syevd`, `gesvd`) looped over the batch, and LAPACK `?syevd` / `?gesvd` on
//! the host over all cores (values only: a lower bound of its time with vectors). Checks by the
//! oracle against LAPACK `zheevd` / `zgesvd` in double, and the vectors' orthogonality.

use crate::bench::{below, dispatch, finish, host_times, sample, secs, About, Bench, Case, Ctx, HostTimes};
use crate::gpu::{median, ng, ok, Cusolver, DevBuf, Res};
use crate::stebz::timed;
use crate::prec::Eig;
use crate::report::{series_lines, Fmt, Meta, Panel, Row, Scale, Style};
use crate::roofline::Roofline;
use crate::Cli;
use cudarc::cusolver::sys as csv;
use numgpu::jacobi::{gesvdj_batched, syevj_batched};
use numgpu::testing::jacobi::{self as tj, Class, QrBased};
use numgpu::testing::norm::{c64s, nan_max, norm1_matrix};
use numgpu::testing::tol;
use numgpu::{Handle, Scalar};
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::ffi::c_int;
use std::mem::size_of;

#[derive(clap::Args, Debug)]
#[group(id = "jacobi")]
pub struct Args {
    /// jacobi: divide every batch of the shapes by this [default: 1; --quick: 10].
    #[arg(long)]
    jacobi_shrink: Option<usize>,
}

/// The decompositions, as `Case::kind` numbers them.
const KINDS: [&str; 2] = ["eigh", "svd"];

/// The shapes: (kind, n, batch).
const SHAPES: [(usize, usize, usize); 9] = [(0, 8, 100_000), (0, 16, 100_000), (0, 32, 20_000), (0, 64, 5_000), (0, 128, 1_000), (0, 256, 200), (1, 8, 100_000), (1, 32, 20_000), (1, 64, 5_000)];

/// cuSOLVER's batched Jacobi takes orders up to this.
const CUSOLVER_BATCHED_MAX: usize = 32;

pub struct Jacobi {
    shrink: usize,
    max_secs: f64,
    secs_all: f64,
    cpu_reps: usize,
    solver: Option<Cusolver>,
}

impl Jacobi {
    pub fn new(cli: &Cli) -> Res<Jacobi> {
        let shrink = cli.or(cli.jacobi.jacobi_shrink, 1, 10);
        if !(1..=1000).contains(&shrink) {
            return Err(format!("--jacobi-shrink {shrink}: must be between 1 and 1000"));
        }
        Ok(Jacobi { shrink, max_secs: cli.max_secs(), secs_all: cli.or(None, 1.0, 0.1), cpu_reps: cli.or(None, 3, 1), solver: None })
    }

    fn batch(&self, kind: usize, n: usize) -> usize {
        SHAPES.iter().find(|s| s.0 == kind && s.1 == n).map_or(1, |s| (s.2 / self.shrink).max(1))
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "jacobi", report: "jacobi", tolerance: tol::RATIO, precisions: &['s', 'd'], default: &['s', 'd'], cusparse: false,
    description: "Batched Jacobi eigen and singular value decompositions of random matrices, vectors wanted: numgpu_?syevj_batched and numgpu_?gesvdj_batched on device arrays against cuSOLVER's batched Jacobi (syevjBatched, gesvdjBatched; n <= 32), cuSOLVER's dense syevd / gesvd looped over the batch, and LAPACK ?syevd / ?gesvd on the host over all cores (values only), on the issue's shapes.",
    columns: &[("kind", "kind", Fmt::Text), ("prec", "precision", Fmt::Text), ("n", "n", Fmt::Fix(0)), ("batch", "batch", Fmt::Fix(0)),
        ("ours ms", "ours_ms", Fmt::Ms), ("matrices/s", "matrices_per_s", Fmt::Rate), ("sweeps", "sweeps", Fmt::Fix(1)),
        ("cuSOLVER batched ms", "batched_ms", Fmt::Ms), ("×batched", "ratio_batched", Fmt::Rate),
        ("cuSOLVER looped ms", "looped_ms", Fmt::Ms), ("×looped", "ratio_looped", Fmt::Rate),
        ("LAPACK all ms", "lapack_all_ms", Fmt::Ms), ("×LAPACK all", "ratio_lapack_all", Fmt::Rate),
        ("error ratio", "error_ratio", Fmt::Fix(2)), ("orth ratio", "orth_ratio", Fmt::Fix(2)), ("checked", "checked", Fmt::Fix(0))],
    log: &["ours_ms", "ratio_batched", "ratio_looped"],
};

impl Bench for Jacobi {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        SHAPES.iter().flat_map(|&(kind, n, _)| precisions.iter().map(move |&p| Case { precision: p, n, kind, label: format!("{} {p} n = {n}", KINDS[kind]) })).collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let mut row = Row::new(&case.label);
        let r = dispatch!(case.precision, [f32, f64], body(self, ctx, case, &mut row));
        vec![finish(ctx, row, r)]
    }
    fn method(&self, meta: &Meta) -> String {
        let version = self.solver.as_ref().map_or("—".into(), |s| s.version.clone());
        format!(
            "- method: random matrices of the oracle (`Class::Random`: eigh A + Aᵀ, svd entries uniform in [-1, 1]), packed n × n, in device memory; batches of the issue's shapes divided by {}; vectors wanted (eigh: jobz = VEC, overwriting A, restored before each call, untimed; svd: U and V, economy); default tolerances (numgpu: ε, √n·ε; cuSOLVER: its defaults); {} warm-up calls, then the median of up to {} calls (fewer where they would take more than {} s), between CUDA events on one stream shared with cuSOLVER {version}\n\
             - peers: cuSOLVER `cusolverDn?syevjBatched` / `?gesvdjBatched` (n <= 32 only; its workspace asked first, and skipped with a note when it exceeds the device budget); cuSOLVER `cusolverDn?syevd` (vectors) / `?gesvd` (jobu = jobvt = 'S') called once per matrix on as many matrices as take about {} s, scaled to the batch; LAPACK `?syevd` / `?gesvd` (OpenBLAS, single-threaded each) over all {} host threads, values only, a few runs on the first matrices scaled to the batch\n\
             - ×peer = t_peer / t_numgpu for the whole batch (> 1: numgpu faster); sweeps: numgpu's mean per matrix\n\
             - checks by the oracle (`numgpu::testing::jacobi`): info = 0 for every matrix; the values of `checked` matrices spread over the batch against LAPACK `zheevd` / `zgesvd` in double: max|λ − λ_ref| / (n·ε·‖A‖₁) < {}; the vectors of the first checked matrices: ‖QᴴQ − I‖₁ / (n·ε) < {}\n",
            self.shrink,
            meta.warmup,
            meta.reps,
            self.max_secs,
            self.max_secs,
            meta.host_threads,
            tol::RATIO,
            tol::RATIO
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, _: &Roofline) -> Vec<Panel> {
        let what = [("matrices_per_s", "numgpu", Style::Solid), ("batched_per_s", "cuSOLVER batched Jacobi", Style::Dashed), ("looped_per_s", "cuSOLVER dense, looped", Style::Dashed)];
        let panel = |kind: &'static str| {
            let rows: Vec<Row> = rows.iter().filter(|r| r.text("kind") == kind).cloned().collect();
            let title = format!("numgpu jacobi ({kind}) vs cuSOLVER: {} ({})", meta.device, meta.date);
            Panel { title, x: ("n, order of each matrix (log2 scale)".into(), Scale::Log2), y: ("matrices/s (log10 scale)".into(), Scale::Log10), names: vec![], level: None, lines: series_lines(&rows, |r| r.text("precision"), "n", &what) }
        };
        vec![panel("eigh"), panel("svd")]
    }
    fn extra(&self, _: &[Row]) -> Map<String, Value> {
        Map::from_iter([("shrink".to_string(), self.shrink.into()), ("cusolver".to_string(), self.solver.as_ref().map(|s| s.version.clone()).into())])
    }
}

/// cuSOLVER's legacy dense and batched Jacobi routines of one real precision.
trait Jac: Eig + QrBased {
    /// `?syevjBatched` (lower, vectors) workspace elements, or the call with `work`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn syevj_batched(h: csv::cusolverDnHandle_t, n: c_int, a: u64, w: u64, work: Option<(u64, c_int)>, info: u64, p: csv::syevjInfo_t, batch: c_int, lwork: &mut c_int) -> csv::cusolverStatus_t;
    /// `?gesvdjBatched` (vectors) workspace elements, or the call.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gesvdj_batched(h: csv::cusolverDnHandle_t, n: c_int, a: u64, s: u64, u: u64, v: u64, work: Option<(u64, c_int)>, info: u64, p: csv::gesvdjInfo_t, batch: c_int, lwork: &mut c_int) -> csv::cusolverStatus_t;
    /// `?syevd` (lower, vectors) of one matrix.
    unsafe fn dn_syevd(h: csv::cusolverDnHandle_t, n: c_int, a: u64, w: u64, work: Option<(u64, c_int)>, info: u64, lwork: &mut c_int) -> csv::cusolverStatus_t;
    /// `?gesvd` (jobu = jobvt = 'S') of one n × n matrix.
    #[allow(clippy::too_many_arguments)]
    unsafe fn dn_gesvd(h: csv::cusolverDnHandle_t, n: c_int, a: u64, s: u64, u: u64, vt: u64, work: Option<(u64, c_int)>, info: u64, lwork: &mut c_int) -> csv::cusolverStatus_t;
}

macro_rules! jac {
    ($t:ty, $sj:ident, $sjb:ident, $gj:ident, $gjb:ident, $sd:ident, $sdb:ident, $gs:ident, $gsb:ident) => {
        impl Jac for $t {
            unsafe fn syevj_batched(h: csv::cusolverDnHandle_t, n: c_int, a: u64, w: u64, work: Option<(u64, c_int)>, info: u64, p: csv::syevjInfo_t, batch: c_int, lwork: &mut c_int) -> csv::cusolverStatus_t {
                let (mode, lower) = (csv::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR, csv::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER);
                match work {
                    None => csv::$sjb(h, mode, lower, n, a as _, n, w as _, lwork, p, batch),
                    Some((wk, lw)) => csv::$sj(h, mode, lower, n, a as _, n, w as _, wk as _, lw, info as _, p, batch),
                }
            }
            unsafe fn gesvdj_batched(h: csv::cusolverDnHandle_t, n: c_int, a: u64, s: u64, u: u64, v: u64, work: Option<(u64, c_int)>, info: u64, p: csv::gesvdjInfo_t, batch: c_int, lwork: &mut c_int) -> csv::cusolverStatus_t {
                let mode = csv::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR;
                match work {
                    None => csv::$gjb(h, mode, n, n, a as _, n, s as _, u as _, n, v as _, n, lwork, p, batch),
                    Some((wk, lw)) => csv::$gj(h, mode, n, n, a as _, n, s as _, u as _, n, v as _, n, wk as _, lw, info as _, p, batch),
                }
            }
            unsafe fn dn_syevd(h: csv::cusolverDnHandle_t, n: c_int, a: u64, w: u64, work: Option<(u64, c_int)>, info: u64, lwork: &mut c_int) -> csv::cusolverStatus_t {
                let (mode, lower) = (csv::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR, csv::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER);
                match work {
                    None => csv::$sdb(h, mode, lower, n, a as _, n, w as _, lwork),
                    Some((wk, lw)) => csv::$sd(h, mode, lower, n, a as _, n, w as _, wk as _, lw, info as _),
                }
            }
            unsafe fn dn_gesvd(h: csv::cusolverDnHandle_t, n: c_int, a: u64, s: u64, u: u64, vt: u64, work: Option<(u64, c_int)>, info: u64, lwork: &mut c_int) -> csv::cusolverStatus_t {
                let job = b'S' as std::ffi::c_schar;
                match work {
                    None => csv::$gsb(h, n, n, lwork),
                    Some((wk, lw)) => csv::$gs(h, job, job, n, n, a as _, n, s as _, u as _, n, vt as _, n, wk as _, lw, std::ptr::null_mut(), info as _),
                }
            }
        }
    };
}
jac!(f32, cusolverDnSsyevjBatched, cusolverDnSsyevjBatched_bufferSize, cusolverDnSgesvdjBatched, cusolverDnSgesvdjBatched_bufferSize, cusolverDnSsyevd, cusolverDnSsyevd_bufferSize, cusolverDnSgesvd, cusolverDnSgesvd_bufferSize);
jac!(f64, cusolverDnDsyevjBatched, cusolverDnDsyevjBatched_bufferSize, cusolverDnDgesvdjBatched, cusolverDnDgesvdjBatched_bufferSize, cusolverDnDsyevd, cusolverDnDsyevd_bufferSize, cusolverDnDgesvd, cusolverDnDgesvd_bufferSize);

fn body<T: Jac>(s: &mut Jacobi, ctx: &mut Ctx, case: &Case, row: &mut Row) -> Res<()> {
    numgpu::lapack::single_threaded_blas();
    let (gpu, n, kind) = (ctx.gpu, case.n, KINDS[case.kind]);
    let (batch, eigh, elem) = (s.batch(case.kind, n), case.kind == 0, size_of::<T>());
    [("kind", kind), ("precision", &T::LETTER.to_string())].into_iter().for_each(|(k, v)| row.set(k, v));
    [("n", n), ("batch", batch)].into_iter().for_each(|(k, v)| row.set(k, v));
    let seed = ((T::LETTER as u64) << 32) ^ ((n as u64) << 4) ^ case.kind as u64 ^ 0x6a61_636f_6269;
    let mats: Vec<Vec<T>> = (0..batch as u64).into_par_iter().map(|i| if eigh { tj::hermitian::<T>(Class::Random, n, seed ^ (i << 24)) } else { tj::general::<T>(Class::Random, n, n, seed ^ (i << 24)) }).collect();
    let a: Vec<T> = mats.concat();
    let bytes = n * n * batch * elem;
    if 5.0 * bytes as f64 > ctx.budget {
        return Err(format!("skipped: the matrices, their vectors and copies exceed the device memory budget of {:.1} GB", ctx.budget / 1e9));
    }
    let (pristine, work, vb) = (gpu.alloc(bytes)?, gpu.alloc(bytes)?, gpu.alloc(if eigh { 1 } else { bytes })?);
    gpu.htod(pristine.ptr, &a)?;
    let (wb, ib, sb, rb) = (gpu.alloc(n * batch * elem)?, gpu.alloc(4 * batch)?, gpu.alloc(4 * batch)?, gpu.alloc(batch * elem)?);
    let (nl, bl, nn) = (n as i64, batch as i64, (n * n) as i64);
    let restore = |_: usize| if eigh { gpu.copy_async(work.ptr, pristine.ptr, bytes) } else { Ok(()) };
    // SAFETY: n·n·batch elements at pristine (read), work (A overwritten by Z, or U) and vb
    // (V), n·batch at wb, batch entries at ib, sb and rb, on the handle's device and stream.
    let ours = |h: &mut Handle| unsafe {
        ng(if eigh {
            syevj_batched::<T>(h, 1, 0, nl, work.ptr as _, nl, nn, wb.ptr as _, nl, std::ptr::null(), ib.ptr as _, sb.ptr as _, rb.ptr as _, bl)
        } else {
            gesvdj_batched::<T>(h, 1, 1, nl, nl, pristine.ptr as _, nl, nn, wb.ptr as _, nl, work.ptr as _, nl, nn, vb.ptr as _, nl, nn, std::ptr::null(), ib.ptr as _, sb.ptr as _, rb.ptr as _, bl)
        })
    };
    restore(0)?;
    ours(ctx.h)?;
    let (mut w, mut info, mut sweeps) = (vec![<T as Scalar>::zero(); n * batch], vec![0i32; batch], vec![0i32; batch]);
    gpu.dtoh(&mut w, wb.ptr)?;
    gpu.dtoh(&mut info, ib.ptr)?;
    gpu.dtoh(&mut sweeps, sb.ptr)?;
    let bad = info.iter().filter(|&&x| x != 0).count();
    row.check(bad == 0, || format!("info ≠ 0 on {bad} of {batch} matrices"));
    row.set("sweeps", sweeps.iter().map(|&x| x as f64).sum::<f64>() / batch as f64);
    let picks = sample(2e7, n, batch);
    let vals = |i: usize| -> Vec<f64> { w[i * n..(i + 1) * n].iter().map(|x| x.to_c64().re).collect() };
    let ratio = picks.iter().fold(0.0, |r, &i| {
        let ac = c64s(&mats[i]);
        let want = if eigh { tj::eig_ref(n, &ac) } else { tj::svd_ref(n, n, &ac) };
        nan_max(r, tj::value_ratio(&vals(i), &want, n, norm1_matrix(&ac, n, n), T::EPS))
    });
    let mut q = vec![<T as Scalar>::zero(); n * n * 4.min(batch)];
    gpu.dtoh(&mut q, work.ptr)?;
    let orth = q.chunks(n * n).fold(0.0, |r, z| nan_max(r, tj::orthogonality(&c64s(z), n, n, n, T::EPS)));
    row.set("checked", picks.len());
    row.set("error_ratio", ratio);
    row.set("orth_ratio", orth);
    row.check(below(Some(ratio), tol::RATIO), || format!("error ratio {ratio:.3e} against LAPACK >= {}", tol::RATIO));
    row.check(below(Some(orth), tol::RATIO), || format!("orthogonality ratio {orth:.3e} >= {}", tol::RATIO));

    let (t, k) = timed(gpu, ctx.warmup, ctx.reps, s.max_secs, restore, |_| ours(ctx.h))?;
    row.set("reps", k);
    row.set("ours_ms", t);
    row.set("matrices_per_s", batch as f64 / (t * 1e-3));

    if s.solver.is_none() {
        if !crate::gpu::cusolver_present() {
            return Err("cuSOLVER (libcusolver.so.12) was not found: put the CUDA toolkit's lib64 on LD_LIBRARY_PATH or set CUDA_HOME".into());
        }
        s.solver = Some(Cusolver::new(gpu)?);
    }
    let sv = s.solver.as_ref().expect("created above").h.cu();
    let bufs = Bufs { pristine: &pristine, work: &work, v: &vb, w: &wb, info: &ib };
    if n <= CUSOLVER_BATCHED_MAX {
        if let Err(e) = batched_peer::<T>(ctx, s.max_secs, sv, eigh, n, batch, &bufs, row, t) {
            row.note(format!("cuSOLVER batched Jacobi: {e}"));
        }
    }
    if let Err(e) = looped_peer::<T>(ctx, s.max_secs, sv, eigh, n, batch, &bufs, row, t) {
        row.note(format!("cuSOLVER looped: {e}"));
    }

    // LAPACK on the host, values only, over all cores.
    let HostTimes { all_ms, .. } = host_times(batch, (2e6 / (n * n * n) as f64).ceil() as usize, 0.05, s.secs_all, s.cpu_reps, |k| {
        Ok(secs(|| {
            mats[..k].par_iter().for_each(|m| {
                std::hint::black_box(if eigh { <T as QrBased>::syevd(n, m) } else { <T as QrBased>::gesvd(n, n, m) });
            })
        }))
    })?;
    row.set("lapack_all_ms", all_ms);
    row.set("ratio_lapack_all", all_ms / t);
    Ok(())
}

/// The device buffers the peers reuse: the inputs, a working copy, V, values, infos.
struct Bufs<'a> {
    pristine: &'a DevBuf,
    work: &'a DevBuf,
    v: &'a DevBuf,
    w: &'a DevBuf,
    info: &'a DevBuf,
}

/// cuSOLVER `?syevjBatched` / `?gesvdjBatched` on the whole batch, when its workspace fits.
#[allow(clippy::too_many_arguments)]
fn batched_peer<T: Jac>(ctx: &Ctx, max_secs: f64, sv: csv::cusolverDnHandle_t, eigh: bool, n: usize, batch: usize, b: &Bufs, row: &mut Row, t: f64) -> Res<()> {
    let (gpu, elem, bytes) = (ctx.gpu, size_of::<T>(), n * n * batch * size_of::<T>());
    let (ni, bi, mut lwork) = (n as c_int, batch as c_int, 0 as c_int);
    let mut sj: csv::syevjInfo_t = std::ptr::null_mut();
    let mut gj: csv::gesvdjInfo_t = std::ptr::null_mut();
    // SAFETY: the info objects are created here and destroyed below; the calls take the bench's
    // buffers (n·n·batch elements each, n·batch values, batch infos) on the solver's stream.
    unsafe {
        ok(if eigh { csv::cusolverDnCreateSyevjInfo(&mut sj) } else { csv::cusolverDnCreateGesvdjInfo(&mut gj) }.result(), "create Jacobi info")?;
        let r = (|| -> Res<()> {
            let query = if eigh { T::syevj_batched(sv, ni, b.work.ptr, b.w.ptr, None, b.info.ptr, sj, bi, &mut lwork) } else { T::gesvdj_batched(sv, ni, b.work.ptr, b.w.ptr, b.v.ptr, b.v.ptr, None, b.info.ptr, gj, bi, &mut lwork) };
            ok(query.result(), "bufferSize")?;
            let wbytes = lwork.max(1) as usize * elem;
            if (wbytes + 4 * bytes) as f64 > ctx.budget {
                return Err(format!("asks for {:.1} GB of workspace", wbytes as f64 / 1e9));
            }
            let wk = gpu.alloc(wbytes)?;
            // gesvdjBatched overwrites A: it works on a copy, restored before each call (untimed);
            // U (n × n) to a buffer of its own.
            let u = gpu.alloc(if eigh { 1 } else { bytes })?;
            let a = gpu.alloc(if eigh { 1 } else { bytes })?;
            let setup = |_: usize| if eigh { gpu.copy_async(b.work.ptr, b.pristine.ptr, bytes) } else { gpu.copy_async(a.ptr, b.pristine.ptr, bytes) };
            let call = |_: usize| {
                let mut lw = lwork;
                let st = if eigh { T::syevj_batched(sv, ni, b.work.ptr, b.w.ptr, Some((wk.ptr, lwork)), b.info.ptr, sj, bi, &mut lw) } else { T::gesvdj_batched(sv, ni, a.ptr, b.w.ptr, u.ptr, b.v.ptr, Some((wk.ptr, lwork)), b.info.ptr, gj, bi, &mut lw) };
                ok(st.result(), if eigh { "syevjBatched" } else { "gesvdjBatched" })
            };
            let (ms, _) = timed(gpu, 1, ctx.reps, max_secs, setup, call)?;
            let mut infos = vec![0i32; batch];
            gpu.dtoh(&mut infos, b.info.ptr)?;
            let bad = infos.iter().filter(|&&x| x != 0).count();
            if bad > 0 {
                row.note(format!("cuSOLVER batched Jacobi: info ≠ 0 on {bad} of {batch} matrices"));
            }
            row.set("batched_ms", ms);
            row.set("ratio_batched", ms / t);
            row.set("batched_per_s", batch as f64 / (ms * 1e-3));
            Ok(())
        })();
        let _ = if eigh { csv::cusolverDnDestroySyevjInfo(sj) } else { csv::cusolverDnDestroyGesvdjInfo(gj) };
        r
    }
}

/// cuSOLVER `?syevd` / `?gesvd` called once per matrix on as many matrices as take about
/// `max_secs`, scaled to the batch.
#[allow(clippy::too_many_arguments)]
fn looped_peer<T: Jac>(ctx: &Ctx, max_secs: f64, sv: csv::cusolverDnHandle_t, eigh: bool, n: usize, batch: usize, b: &Bufs, row: &mut Row, t: f64) -> Res<()> {
    let (gpu, elem) = (ctx.gpu, size_of::<T>());
    let (ni, mut lwork, one) = (n as c_int, 0 as c_int, n * n * elem);
    // SAFETY: one n × n matrix at a time of the bench's buffers, on the solver's stream.
    unsafe {
        let q = if eigh { T::dn_syevd(sv, ni, b.work.ptr, b.w.ptr, None, b.info.ptr, &mut lwork) } else { T::dn_gesvd(sv, ni, b.work.ptr, b.w.ptr, b.v.ptr, b.v.ptr, None, b.info.ptr, &mut lwork) };
        ok(q.result(), "bufferSize")?;
        let wk = gpu.alloc(lwork.max(1) as usize * elem)?;
        let vt = gpu.alloc(one)?;
        let run = |k: usize| -> Res<()> {
            gpu.copy_async(b.work.ptr, b.pristine.ptr, k * one)?;
            for i in 0..k {
                let (a, w, info) = (b.work.ptr + (i * one) as u64, b.w.ptr + (i * n * elem) as u64, b.info.ptr + 4 * i as u64);
                let mut lw = lwork;
                let st = if eigh { T::dn_syevd(sv, ni, a, w, Some((wk.ptr, lwork)), info, &mut lw) } else { T::dn_gesvd(sv, ni, a, w, b.v.ptr + (i * one) as u64, vt.ptr, Some((wk.ptr, lwork)), info, &mut lw) };
                ok(st.result(), if eigh { "syevd" } else { "gesvd" })?;
            }
            Ok(())
        };
        // The copies are timed too: a device-to-device copy of the batch is far below the
        // solvers' time.
        let probe = median(&gpu.time(0, 1, |_| Ok(()), |_| run(1))?);
        let k = ((max_secs * 1e3 / probe.max(1e-6)) as usize).clamp(1, batch);
        let ms = median(&gpu.time(0, 1, |_| Ok(()), |_| run(k))?) * batch as f64 / k as f64;
        row.set("looped_ms", ms);
        row.set("ratio_looped", ms / t);
        row.set("looped_per_s", batch as f64 / (ms * 1e-3));
        if k < batch {
            row.note(format!("cuSOLVER looped timed on {k} of {batch} matrices, scaled"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shapes and their shrinking; the options' checks.
    #[test]
    fn shapes_and_settings() {
        let b = Jacobi::new(&crate::tests::cli(&["--routine", "jacobi"])).unwrap();
        assert_eq!((b.batch(0, 8), b.batch(1, 64), b.cases(&['s', 'd']).len()), (100_000, 5_000, 18));
        let q = Jacobi::new(&crate::tests::cli(&["--quick"])).unwrap();
        assert_eq!((q.batch(0, 256), q.batch(1, 8)), (20, 10_000));
        assert!(Jacobi::new(&crate::tests::cli(&["--jacobi-shrink", "0"])).is_err());
    }
}
