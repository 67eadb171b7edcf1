//! gtsv: numgpu's tridiagonal solvers (`gtsv_spike`: one system, a strided batch, an
//! interleaved batch; diagonal pivoting or none) against cuSPARSE's on the same device arrays
//! and stream (`gtsv2`, `gtsv2_nopivot`, `gtsv2StridedBatch`, the fastest algorithm of
//! `gtsvInterleavedBatch`), and LAPACK `?gtsv` on the host; the oracle's systems
//! (`numgpu::testing::tridiag`: `dominant`, and `random`, which needs pivoting) and backward
//! error. One set of arrays in cuSPARSE's layout serves both libraries: each system's dl and
//! du hold n entries, dl's first and du's last zero; numgpu's dl (LAPACK's n − 1 entries, in
//! every form) starts one row further: one element in the single and strided forms, `batch`
//! in the interleaved one (the mapping numgpu.h gives cuSPARSE users). The report's method
//! notes (`method`) say how each method is checked and timed.

use crate::bench::{below, bits, dispatch, list, rates, sets, About, Bench, Case, Ctx};
use crate::gpu::{median, ng, ok, DevBuf, Gpu, Res};
use crate::prec::Prec;
use crate::report::{cell, gbs_panel, Fmt, Meta, Panel, Row, Style};
use crate::roofline::Roofline;
use crate::Cli;
use clap::ValueEnum;
use cudarc::cusparse::sys::cusparseHandle_t;
use numgpu::gtsv_spike::{gtsv_batched_interleaved, gtsv_batched_strided, gtsv_spike, Pivoting};
use numgpu::testing::norm::nan_max;
use numgpu::testing::tridiag::{backward_error, Kind, Sys};
use numgpu::testing::tol;
use numgpu::{Complex32, Complex64, Handle, Scalar};
use rayon::prelude::*;
use std::mem::size_of;

#[derive(clap::Args, Debug)]
#[group(id = "gtsv")]
pub struct Args {
    /// gtsv: orders of the single system, comma-separated [default: 65536,131072,…,33554432 (2^16 … 2^25); --quick: 65536,262144,1048576].
    #[arg(long, value_delimiter = ',')]
    single_sizes: Option<Vec<usize>>,
    /// gtsv: forms, comma-separated [default: all three].
    #[arg(long, value_delimiter = ',')]
    forms: Option<Vec<Form>>,
    /// gtsv: pivoting modes, comma-separated [default: both].
    #[arg(long, value_delimiter = ',')]
    modes: Option<Vec<Mode>>,
    /// gtsv: classes of inputs, comma-separated: dominant (random, strictly diagonally dominant: every mode and peer), random (needs pivoting: diag rows and pivoting peers only) [default: both].
    #[arg(long, value_delimiter = ',')]
    inputs: Option<Vec<Inputs>>,
    /// gtsv: bytes one batched call moves (5·n·elem per system); the batch is sized from it [default: 268435456 (256 MiB); --quick: 33554432].
    #[arg(long)]
    batch_bytes: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Form {
    Single,
    Strided,
    Interleaved,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    Diag,
    Nopivot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Inputs {
    Dominant,
    Random,
}

/// The name clap gives a value.
fn name<V: ValueEnum>(v: V) -> String {
    v.to_possible_value().map_or(String::new(), |p| p.get_name().to_string())
}

pub struct Gtsv {
    sizes: Vec<usize>,
    single_sizes: Vec<usize>,
    forms: Vec<Form>,
    modes: Vec<Mode>,
    inputs: Vec<Inputs>,
    batch_bytes: f64,
    max_secs: f64,
    /// LAPACK: at most `cpu_reps` runs, fewer once they have taken `cpu_secs`; the median.
    cpu_secs: f64,
    cpu_reps: usize,
}

impl Gtsv {
    pub fn new(cli: &Cli) -> Res<Gtsv> {
        let a = &cli.gtsv;
        // cuSPARSE needs n >= 3; LAPACK and cuSPARSE take 32-bit sizes.
        let single_sizes = a.single_sizes.clone().unwrap_or_else(|| if cli.quick { vec![1 << 16, 1 << 18, 1 << 20] } else { (16..=25).map(|k| 1 << k).collect() });
        if let Some(n) = single_sizes.iter().find(|n| !(3..=1 << 30).contains(*n)) {
            return Err(format!("--single-sizes: {n} is outside 3..=2^30"));
        }
        let batch_bytes = cli.or(a.batch_bytes, (256u64 << 20) as f64, (32u64 << 20) as f64);
        if !(1e3..=32e9).contains(&batch_bytes) {
            return Err(format!("--batch-bytes {batch_bytes:e}: must be between 1e3 and 3.2e10"));
        }
        let sizes = cli.sizes_or(&[64, 128, 256, 512, 1024], &[64, 256, 1024]);
        let (forms, modes, inputs, max_secs) = (list(&a.forms), list(&a.modes), list(&a.inputs), cli.max_secs());
        Ok(Gtsv { sizes, single_sizes, forms, modes, inputs, batch_bytes, max_secs, cpu_secs: cli.or(None, 0.2, 0.05), cpu_reps: cli.or(None, 3, 1) })
    }
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "gtsv", report: "gtsv_spike", tolerance: tol::RATIO, precisions: &['s', 'd', 'c', 'z'], default: &['s', 'd'], cusparse: true,
    description: "Tridiagonal solvers, one right-hand side per system, random systems (strictly diagonally dominant, and for the diagonal-pivoting rows also ones that need pivoting): numgpu_?gtsv_spike (one system) against cusparse?gtsv2 (diagonal-pivoting rows) and cusparse?gtsv2_nopivot (no-pivot rows); numgpu_?gtsv_batched_strided against cusparse?gtsv2StridedBatch (which does not pivot); numgpu_?gtsv_batched_interleaved against the fastest of cusparse?gtsvInterleavedBatch's three algorithms; all on the same device buffers and stream; and LAPACK ?gtsv on the host (one core for one system, all cores over a batch).",
    columns: &[("form", "form", Fmt::Text), ("mode", "mode", Fmt::Text), ("inputs", "inputs", Fmt::Text), ("prec", "precision", Fmt::Text), ("n", "n", Fmt::Fix(0)),
        ("batch", "batch", Fmt::Fix(0)), ("ours ms", "ours_ms", Fmt::Ms), ("GB/s", "ours_gbs", Fmt::Fix(0)), ("% roof", "roof_pct", Fmt::Pct(0)), ("cuSPARSE", "cusparse", Fmt::Text),
        ("cuSPARSE ms", "cusparse_ms", Fmt::Ms), ("cuSPARSE GB/s", "cusparse_gbs", Fmt::Fix(0)), ("×cuSPARSE", "ratio_cusparse", Fmt::Fix(2)), ("LAPACK ms", "lapack_ms", Fmt::Ms),
        ("LAPACK GB/s", "lapack_gbs", Fmt::Rate), ("×LAPACK", "ratio_lapack", Fmt::Rate), ("backward error", "backward_error", Fmt::Fix(2)),
        ("cuSPARSE backward error", "cusparse_backward_error", Fmt::Fix(2))],
    log: &["ours_ms", "ratio_cusparse"],
};

impl Bench for Gtsv {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        let forms = Form::value_variants().iter().enumerate().filter(|f| self.forms.contains(f.1));
        let sizes = |f: Form| if f == Form::Single { &self.single_sizes } else { &self.sizes };
        let each = |k: usize, f: Form, p: char| sizes(f).iter().map(move |&n| Case { precision: p, n, kind: k, label: format!("{} {p} n = {n}", name(f)) });
        forms.flat_map(|(k, &f)| precisions.iter().flat_map(move |&p| each(k, f, p))).collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let (form, this) = (Form::value_variants()[case.kind], &*self);
        this.inputs.iter().flat_map(|&inputs| dispatch!(case.precision, [f32, f64, Complex32, Complex64], class(this, ctx, form, inputs, case.n))).collect()
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: one right-hand side per system; `single` one system of order n; `strided` and `interleaved` a batch of systems of order n, as many as make one call move at least {:.0} MiB, the same batch in both layouts; device memory, one set of arrays in cuSPARSE's layout serving both libraries (numgpu's dl starts one row into cuSPARSE's zero-padded one: one element, or `batch` in the interleaved layout); every call solves fresh inputs (a device copy of the pristine arrays restores the set the previous call used, enqueued before the next call's start event, so untimed), rotated among `sets` copies so a restored set leaves L2 before its next use; per method, two calls for the check (the warm-up), then the median of {} calls (fewer where one call takes long: see the notes), each between CUDA events on one stream shared by numgpu and cuSPARSE, whose workspace (`bufferSizeExt`) is allocated before; LAPACK `?gtsv` (OpenBLAS's LAPACK) on the host, host clock, on copies made before the clock starts, one system on one core (it cannot be split), a batch over all {} threads (rayon, single-threaded BLAS; the interleaved batch in the strided layout, the only one LAPACK reads)\n\
             - peers: `single` diag rows against `gtsv2` (partial pivoting), nopivot rows against `gtsv2_nopivot`; `strided` rows against `gtsv2StridedBatch`, which does not pivot (cuSPARSE has no pivoting strided batch: none for the `random` inputs); `interleaved` rows against the fastest of `gtsvInterleavedBatch`'s algorithms (0 Thomas, no pivoting, not run on the `random` inputs; 1 LU with partial pivoting; 2 QR) that solved the systems, named in the column, all in the table below; `gtsvInterleavedBatch` overwrites the diagonals too, which are restored with B\n\
             - GB/s count 5·n·elem per system, as the spec does (dl, d, du and b read, x written), for every library alike; % roof = numgpu's GB/s / the copy bandwidth; ×cuSPARSE = t_cuSPARSE / t_numgpu and ×LAPACK = t_LAPACK / t_numgpu (> 1: numgpu faster)\n\
             - inputs, the oracle's classes (`numgpu::testing::tridiag`, one seed per system): `dominant`, off-diagonals with parts uniform in [-1, 1) and the diagonal's real part moved away from 0 by 5 (strictly dominant by rows and columns), on which the pivoting and the non-pivoting solvers are all stable: every mode and peer; `random`, every entry with parts uniform in [-1, 1), which needs pivoting (and 2×2 pivots in numgpu's diagonal pivoting): the diag rows and the pivoting peers only; checks, in double precision over every system of the call: the oracle's backward error max ‖b − T·x‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε) < {} (no factor n: a tridiagonal solve's backward error does not grow with n), info = 0 for every system (info poisoned before the call), two calls on the same inputs bitwise equal; a row also fails when a call fails, or when its cuSPARSE routine's backward error fails the same bound on dominant inputs (a check of the bench)\n",
            self.batch_bytes / (1u64 << 20) as f64,
            meta.reps,
            meta.host_threads,
            tol::RATIO
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, roof: &Roofline) -> Vec<Panel> {
        let forms = Form::value_variants().iter().filter(|f| rows.iter().any(|r| r.text("form") == name(**f)));
        forms
            .map(|&form| {
                let rows: Vec<Row> = rows.iter().filter(|r| r.text("form") == name(form)).cloned().collect();
                let peer = ["cuSPARSE gtsv2 (diag) / gtsv2_nopivot (nopivot)", "cuSPARSE gtsv2StridedBatch", "cuSPARSE gtsvInterleavedBatch, fastest algorithm"][form as usize];
                let title = format!("numgpu gtsv_spike ({} {}) vs {peer}: {} ({})", name(form), if form == Form::Single { "system" } else { "batch" }, meta.device, meta.date);
                let series = |r: &Row| if r.text("inputs") == "dominant" { format!("{} {}", r.text("precision"), r.text("mode")) } else { format!("{} {} {}", r.text("precision"), r.text("mode"), r.text("inputs")) };
                let mut p = gbs_panel(title, "GB/s, 5·n·elem per system / time", &rows, series, ("cusparse_gbs", "cuSPARSE"), roof.bandwidth_gbs);
                p.x.0 = "n, order of each system (log2 scale)".into();
                // A peer both modes share is drawn once.
                let mut seen: Vec<Vec<(f64, f64)>> = Vec::new();
                p.lines.retain(|l| l.style != Style::Dashed || (!seen.contains(&l.pts) && (seen.push(l.pts.clone()), true).1));
                p
            })
            .collect()
    }
    fn tables(&self, rows: &[Row]) -> String {
        // The algorithms' times are the same in every mode's row of a class, precision and n.
        let mut seen = Vec::new();
        let mut s = String::new();
        for r in rows.iter().filter(|r| r.value("cusparse_algo_ms").is_some()) {
            let key = (r.text("inputs"), r.text("precision"), r.text("n"));
            if !seen.contains(&key) {
                let t: Vec<String> = (0..3).map(|a| cell(r.value(&format!("cusparse_algo_ms.{a}")), Fmt::Ms)).collect();
                s += &format!("| {} | {} | {} | {} | {} | {} |\n", key.0, key.1, key.2, r.text("batch"), t.join(" | "), r.text("cusparse"));
                seen.push(key);
            }
        }
        if s.is_empty() {
            return s;
        }
        format!("cuSPARSE `gtsvInterleavedBatch` by algorithm (ms; — where it failed, or was not run: Thomas on inputs that need pivoting):\n\n| inputs | prec | n | batch | 0 Thomas | 1 LU | 2 QR | fastest that solved |\n|---|---|--:|--:|--:|--:|--:|---|\n{s}\n")
    }
}

/// What is measured: numgpu in a mode, or a cuSPARSE routine.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Method {
    Ours(Mode),
    /// `gtsv2` (pivot) or `gtsv2_nopivot`.
    Gtsv2(bool),
    StridedBatch,
    /// `gtsvInterleavedBatch` with algorithm 0, 1 or 2.
    Interleaved(i32),
}

impl Method {
    fn name(self) -> String {
        match self {
            Method::Ours(m) => format!("numgpu {}", name(m)),
            Method::Gtsv2(pivot) => if pivot { "gtsv2" } else { "gtsv2_nopivot" }.into(),
            Method::StridedBatch => "gtsv2StridedBatch".into(),
            Method::Interleaved(a) => format!("gtsvInterleavedBatch {}", ["Thomas", "LU", "QR"][a as usize]),
        }
    }
}

/// The peers a form is measured against, for the modes asked (those that solve the class).
fn peers(form: Form, modes: &[Mode], inputs: Inputs) -> Vec<Method> {
    let pivoting_only = inputs == Inputs::Random;
    match form {
        Form::Single => modes.iter().map(|&m| Method::Gtsv2(m == Mode::Diag)).collect(),
        Form::Strided if pivoting_only => vec![],
        Form::Strided => vec![Method::StridedBatch],
        Form::Interleaved => (pivoting_only as i32..3).map(Method::Interleaved).collect(),
    }
}

/// The row's peer: `gtsv2` or `gtsv2_nopivot` by mode; the strided batch's where the class has
/// one; the interleaved form's fastest algorithm that solved the systems.
fn peer_of(form: Form, mode: Mode, inputs: Inputs, fastest: Option<Method>) -> Option<Method> {
    match form {
        Form::Single => Some(Method::Gtsv2(mode == Mode::Diag)),
        Form::Strided => (inputs == Inputs::Dominant).then_some(Method::StridedBatch),
        Form::Interleaved => fastest,
    }
}

/// One method's outcome: the median time and the calls it is of, the check's backward error,
/// and for numgpu the systems with info ≠ 0 and whether two calls agreed bitwise.
struct Measured {
    ms: f64,
    reps: usize,
    error: f64,
    info_nonzero: Option<usize>,
    reproducible: Option<bool>,
}

/// Systems per call and input sets for order n: one system for the single form, else enough
/// to move `batch_bytes` per call, within cuSPARSE's 32-bit sizes; sets rotated out of L2
/// within three quarters of the memory budget (the rest for cuSPARSE's workspace). Batch 0:
/// even one set does not fit.
fn sizing(form: Form, n: usize, elem: usize, batch_bytes: f64, budget: f64, l2: f64) -> (usize, usize) {
    let mut batch = if form == Form::Single { 1 } else { ((batch_bytes / (5 * n * elem) as f64).ceil() as usize).clamp(1, i32::MAX as usize / n) };
    let set = |batch: usize| (batch * (4 * n * elem + 4)) as f64;
    let (need, budget) = (|batch: usize, sets: usize| (sets + 1) as f64 * set(batch), 0.75 * budget);
    if need(batch, 2) > budget {
        batch = if form == Form::Single { 0 } else { (budget / need(1, 2)) as usize };
    }
    let mut nsets = sets(set(batch), l2, true);
    while nsets > 2 && need(batch, nsets) > budget {
        nsets -= 1;
    }
    (batch, nsets)
}

/// `v` (`batch` systems of n entries, one after the other) interleaved: entry k of system i
/// at `k·batch + i`; `back` undoes it.
fn interleave<T: Copy + Send + Sync>(v: &[T], n: usize, batch: usize, back: bool) -> Vec<T> {
    let mut out = v.to_vec();
    if back {
        out.par_chunks_mut(n).enumerate().for_each(|(i, sys)| sys.iter_mut().enumerate().for_each(|(k, x)| *x = v[k * batch + i]));
    } else {
        out.par_chunks_mut(batch).enumerate().for_each(|(k, row)| row.iter_mut().enumerate().for_each(|(i, x)| *x = v[i * n + k]));
    }
    out
}

/// The oracle's systems as T, one after the other in cuSPARSE's layout: dl, d, du, b.
fn host<T: Scalar>(sys: &[Sys], n: usize) -> [Vec<T>; 4] {
    let mut out = [(); 4].map(|_| vec![T::zero(); n * sys.len()]);
    let t = |z: &Complex64| T::from_c64(*z);
    let [dl, d, du, b] = &mut out;
    (dl.par_chunks_mut(n), d.par_chunks_mut(n), du.par_chunks_mut(n), b.par_chunks_mut(n)).into_par_iter().zip(sys).for_each(|((dl, d, du, b), s)| {
        (1..n).for_each(|k| (dl[k], du[k - 1]) = (t(&s.dl[k - 1]), t(&s.du[k - 1])));
        (0..n).for_each(|k| (d[k], b[k]) = (t(&s.d[k]), t(&s.b[k])));
    });
    out
}

/// The oracle's worst backward error over the systems of `x` (one after the other).
fn worst_error<T: Scalar>(sys: &[Sys], x: &[T]) -> f64 {
    sys.par_iter().zip(x.par_chunks(sys[0].n)).map(|(s, x)| backward_error::<T>(s, 0, x, None)).reduce(|| 0.0, nan_max)
}

/// LAPACK `?gtsv` on the systems `w` (dl, d, du, b; overwritten) over rayon's threads (one
/// system: one core); the seconds and the systems with info ≠ 0.
fn lapack_run<T: Prec>(w: &mut [Vec<T>; 4], n: usize) -> (f64, usize) {
    let [dl, d, du, b] = w;
    numgpu::lapack::single_threaded_blas();
    let mut bad = 0;
    let systems = dl.par_chunks_mut(n).zip(d.par_chunks_mut(n)).zip(du.par_chunks_mut(n).zip(b.par_chunks_mut(n))).with_min_len((8192 / n).max(1));
    // SAFETY: one system: dl from T(2, 1) (the padded row 0 skipped), d, du and b with n
    // entries each (LAPACK reads n − 1 of dl and du).
    let t = crate::bench::secs(|| bad = systems.map(|((dl, d), (du, b))| (unsafe { T::gtsv(n as i32, 1, dl[1..].as_mut_ptr(), d.as_mut_ptr(), du.as_mut_ptr(), b.as_mut_ptr(), n as i32) } != 0) as usize).sum());
    (t, bad)
}

/// One class of a case on the device: the systems, the pristine arrays and the sets the timed
/// calls rotate through (dl, d, du, b, info each), cuSPARSE's workspace.
struct Dev<'a> {
    gpu: &'a Gpu,
    sp: cusparseHandle_t,
    form: Form,
    n: usize,
    sys: &'a [Sys],
    pristine: Vec<DevBuf>,
    sets: Vec<Vec<DevBuf>>,
    buf: DevBuf,
    max_secs: f64,
    reps: usize,
}

impl Dev<'_> {
    /// Enqueues copies of the pristine arrays into set `j`.
    fn restore<T>(&self, j: usize) -> Res<()> {
        (0..4).try_for_each(|a| self.gpu.copy_async(self.sets[j][a].ptr, self.pristine[a].ptr, self.n * self.sys.len() * size_of::<T>()))
    }

    /// Calls method m on set j, or (`size`) asks for its workspace on the pristine arrays.
    fn call<T: Prec>(&self, h: &mut Handle, m: Method, j: usize, size: bool) -> Res<usize> {
        let (n, batch) = (self.n, self.sys.len());
        let p: Vec<u64> = if size { &self.pristine } else { &self.sets[j] }.iter().map(|b| b.ptr).collect();
        let (ni, bi, buf, mut bytes) = (n as i32, batch as i32, (!size).then_some(self.buf.ptr), 0);
        let (nl, lapack_dl, d, du, b, info) = (n as i64, (p[0] + size_of::<T>() as u64) as *const T, p[1] as *const T, p[2] as *const T, p[3] as *mut T, p[4] as *mut i32);
        let piv = |m: Mode| if m == Mode::Diag { Pivoting::Diagonal } else { Pivoting::NoPivot };
        // SAFETY: every array of the set holds n·batch elements on the handle's device, info
        // `batch` entries, the workspace the largest size a peer asked for.
        let status = unsafe {
            match m {
                Method::Ours(_) if size => return Ok(0),
                Method::Ours(md) => {
                    return ng(match self.form {
                        Form::Single => gtsv_spike::<T>(h, piv(md), nl, 1, lapack_dl, d, du, b, nl, info),
                        Form::Strided => gtsv_batched_strided::<T>(h, piv(md), nl, 1, lapack_dl, d, du, nl, b, nl, nl, info, batch as i64),
                        Form::Interleaved => gtsv_batched_interleaved::<T>(h, piv(md), nl, (p[0] + (batch * size_of::<T>()) as u64) as *const T, d, du, b, info, batch as i64),
                    })
                    .map(|_| 0)
                }
                Method::Gtsv2(pivot) => T::gtsv2(self.sp, pivot, ni, p[0], p[1], p[2], p[3], buf, &mut bytes),
                Method::StridedBatch => T::gtsv_strided(self.sp, ni, p[0], p[1], p[2], p[3], bi, buf, &mut bytes),
                Method::Interleaved(a) => T::gtsv_interleaved(self.sp, a, ni, p[0], p[1], p[2], p[3], bi, buf, &mut bytes),
            }
        };
        ok(status.result(), &format!("{}{}", m.name(), if size { "_bufferSizeExt" } else { "" })).map(|_| bytes)
    }

    /// Checks method m on set 0, then times it: a call on fresh inputs (info poisoned: 0xff
    /// bytes, −1), the oracle's backward error of every system, a second call timed alone
    /// (numgpu's X must equal the first's); then the median of `reps` calls on fresh inputs,
    /// fewer where they would take more than `max_secs` (one: the second call's time).
    fn measure<T: Prec>(&self, h: &mut Handle, m: Method) -> Res<Measured> {
        let (ours, batch, (x0, info)) = (matches!(m, Method::Ours(_)), self.sys.len(), (self.sets[0][3].ptr, self.sets[0][4].ptr));
        let fresh = || self.restore::<T>(0).and_then(|_| self.gpu.memset_async(info, 0xff, 4 * batch));
        let fetch_x = || -> Res<Vec<T>> {
            let mut x = vec![T::zero(); self.n * batch];
            self.gpu.dtoh(&mut x, x0)?;
            Ok(if self.form == Form::Interleaved { interleave(&x, self.n, batch, true) } else { x })
        };
        fresh()?;
        self.call::<T>(h, m, 0, false)?;
        let (x, mut infos) = (fetch_x()?, vec![0i32; batch]);
        self.gpu.dtoh(&mut infos, info)?;
        fresh()?;
        let probe = median(&self.gpu.time(0, 1, |_| Ok(()), |_| self.call::<T>(h, m, 0, false).map(|_| ()))?);
        let reproducible = if ours { Some(bits(&fetch_x()?) == bits(&x)) } else { None };
        self.restore::<T>(0)?;
        let reps = ((self.max_secs * 1e3 / probe.max(1e-6)) as usize).clamp(1, self.reps);
        let ms = if reps == 1 { probe } else { self.gpu.time_fresh(0, reps, self.sets.len(), |j| self.restore::<T>(j), |j| self.call::<T>(h, m, j, false).map(|_| ()))? };
        let info_nonzero = ours.then(|| infos.iter().filter(|&&v| v != 0).count());
        Ok(Measured { ms, reps, error: worst_error(self.sys, &x), info_nonzero, reproducible })
    }
}

/// The rows of one class of inputs of a case, a row per mode that solves the class. A failure
/// is recorded in the rows it concerns, never ends the sweep.
fn class<T: Prec>(g: &Gtsv, ctx: &mut Ctx, form: Form, inputs: Inputs, n: usize) -> Vec<Row> {
    let modes: Vec<Mode> = g.modes.iter().copied().filter(|&m| inputs == Inputs::Dominant || m == Mode::Diag).collect();
    let (batch, nsets) = sizing(form, n, size_of::<T>(), g.batch_bytes, ctx.budget, ctx.gpu.l2_bytes as f64);
    let mut rows: Vec<Row> = modes
        .iter()
        .map(|&m| {
            let mut r = Row::new(format!("{} {} {} {} n = {n}", name(form), name(m), name(inputs), T::LETTER));
            [("form", name(form)), ("mode", name(m)), ("inputs", name(inputs)), ("precision", T::LETTER.to_string())].into_iter().for_each(|(k, v)| r.set(k, v));
            [("n", n), ("batch", batch), ("sets", nsets)].into_iter().for_each(|(k, v)| r.set(k, v));
            r.set("bytes", (5 * n * batch * size_of::<T>()) as f64);
            r
        })
        .collect();
    let r = if batch == 0 { Err(format!("skipped: the system and its copies exceed the device memory budget of {:.1} GB", ctx.budget / 1e9)) } else { body::<T>(g, ctx, (form, inputs, n, batch, nsets), &modes, &mut rows) };
    // Whatever happened, leave the stream idle before the buffers are freed.
    if let Err(e) = r.and(ctx.gpu.sync()) {
        rows.iter_mut().for_each(|row| row.fail(e.clone()));
    }
    rows
}

fn body<T: Prec>(g: &Gtsv, ctx: &mut Ctx, (form, inputs, n, batch, nsets): (Form, Inputs, usize, usize, usize), modes: &[Mode], rows: &mut [Row]) -> Res<()> {
    let seed = ((T::LETTER as u64) << 32) ^ (n as u64) ^ ((form as u64) << 40) ^ ((inputs as u64) << 44) ^ 0x6774_7376_0000;
    let kind = if inputs == Inputs::Dominant { Kind::Dominant } else { Kind::Random };
    let sys: Vec<Sys> = (0..batch as u64).into_par_iter().map(|i| Sys::new::<T>(kind, n, 1, seed ^ (i << 1))).collect();
    let (arrays, bytes, gpu) = (host::<T>(&sys, n), n * batch * size_of::<T>(), ctx.gpu);
    let alloc = || -> Res<Vec<DevBuf>> { [bytes, bytes, bytes, bytes, 4 * batch].iter().map(|&b| gpu.alloc(b)).collect() };
    let pristine = alloc()?;
    for (buf, v) in pristine.iter().zip(&arrays) {
        gpu.htod(buf.ptr, &if form == Form::Interleaved { interleave(v, n, batch, false) } else { v.clone() })?;
    }
    let sets = (0..nsets).map(|_| alloc()).collect::<Res<Vec<_>>>()?;
    let mut dev = Dev { gpu, sp: ctx.cusparse().h, form, n, sys: &sys, pristine, sets, buf: gpu.alloc(0)?, max_secs: g.max_secs, reps: ctx.reps };
    (0..nsets).try_for_each(|j| dev.restore::<T>(j))?;
    let peers = peers(form, modes, inputs);
    let need = peers.iter().map(|&m| dev.call::<T>(ctx.h, m, 0, true)).collect::<Res<Vec<_>>>()?;
    dev.buf = gpu.alloc(need.into_iter().max().unwrap_or(0))?;

    // The peers, each once; what went wrong with one is noted in the rows that compare with it.
    let theirs: Vec<(Method, Res<Measured>)> = peers.iter().map(|&m| (m, dev.measure::<T>(ctx.h, m))).collect();
    let solved = |r: &Res<Measured>| r.as_ref().ok().filter(|x| below(Some(x.error), tol::RATIO)).map(|x| x.ms);
    let fastest = theirs.iter().filter_map(|(m, r)| solved(r).map(|t| (*m, t))).min_by(|a, b| a.1.total_cmp(&b.1)).map(|(m, _)| m);
    for (row, &mode) in rows.iter_mut().zip(modes) {
        let (peer, bytes) = (peer_of(form, mode, inputs, fastest), row.num("bytes").unwrap_or(f64::NAN));
        row.set("cusparse", peer.map_or(if form == Form::Interleaved { "gtsvInterleavedBatch".into() } else { "—".into() }, |m| m.name()));
        for (m, r) in theirs.iter().filter(|(m, _)| form == Form::Interleaved || Some(*m) == peer) {
            match r {
                Err(e) => row.fail(format!("cuSPARSE {}: {e}", m.name())),
                // On dominant inputs every peer must solve: else the bench is wrong. On inputs
                // that need pivoting, that is the peer's business, and it is only reported.
                Ok(x) if !below(Some(x.error), tol::RATIO) && inputs == Inputs::Dominant => row.fail(format!("bench check: cuSPARSE {}'s backward error {:.3e} >= {}", m.name(), x.error, tol::RATIO)),
                Ok(x) if !below(Some(x.error), tol::RATIO) => row.note(format!("cuSPARSE {}'s backward error {:.3e} >= {}: not compared", m.name(), x.error, tol::RATIO)),
                Ok(x) if Some(*m) == peer => {
                    rates(row, "cusparse", x.ms, bytes, None);
                    row.set("cusparse_backward_error", x.error);
                }
                Ok(_) => {}
            }
        }
        if form == Form::Interleaved {
            let algo = |a| theirs.iter().find(|(m, _)| *m == Method::Interleaved(a)).and_then(|(_, r)| r.as_ref().ok().map(|x| x.ms));
            row.set("cusparse_algo_ms", (0..3).map(algo).collect::<Vec<_>>());
        }
        let o = match dev.measure::<T>(ctx.h, Method::Ours(mode)) {
            Ok(o) => o,
            Err(e) => {
                row.fail(e);
                continue;
            }
        };
        row.set("reps", o.reps);
        rates(row, "ours", o.ms, bytes, None);
        row.set("roof_pct", 100.0 * bytes / (o.ms * 1e6) / ctx.roof.bandwidth_gbs);
        row.set("ratio_cusparse", row.num("cusparse_ms").map(|t| t / o.ms));
        row.set("backward_error", o.error);
        row.set("info_nonzero", o.info_nonzero);
        row.set("reproducible", o.reproducible);
        row.check(below(Some(o.error), tol::RATIO), || format!("backward error {:.3e} >= {}", o.error, tol::RATIO));
        row.check(o.info_nonzero == Some(0), || format!("info ≠ 0 on {} of {batch} nonsingular systems", o.info_nonzero.unwrap_or(0)));
        row.check(o.reproducible == Some(true), || "two calls on the same inputs differ bitwise".into());
        if o.reps < ctx.reps {
            row.note(format!("median of {} calls: one takes {:.1} ms", o.reps, o.ms));
        }
    }
    gpu.sync()?;
    drop(dev);

    // LAPACK on copies of the host systems, each copy made before the clock starts.
    let (mut times, mut bad) = (Vec::new(), 0);
    while times.is_empty() || times.len() < g.cpu_reps && times.iter().sum::<f64>() < g.cpu_secs {
        let (t, b) = lapack_run(&mut arrays.clone(), n);
        times.push(t);
        bad += b;
    }
    let lapack_ms = median(&times) * 1e3;
    for row in rows.iter_mut() {
        rates(row, "lapack", lapack_ms, row.num("bytes").unwrap_or(f64::NAN), None);
        row.set("ratio_lapack", row.num("ours_ms").map(|t| lapack_ms / t));
        row.check(bad == 0, || format!("bench check: LAPACK ?gtsv reported info ≠ 0 on {bad} system solves"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench's layout on the host: numgpu's call with its dl one row into cuSPARSE's
    /// solves the oracle's systems on the CPU backend in every form and the class's modes; the
    /// host LAPACK's batch equals one system at a time; the options' defaults and sizing.
    #[test]
    fn layout_and_settings() {
        for (n, batch, kind) in [(3usize, 1usize, Kind::Dominant), (64, 37, Kind::Random), (129, 5, Kind::Dominant)] {
            let sys: Vec<Sys> = (0..batch as u64).map(|i| Sys::new::<Complex64>(kind, n, 1, 7 + i)).collect();
            let arrays = host::<Complex64>(&sys, n);
            let modes: &[Pivoting] = if kind == Kind::Dominant { &[Pivoting::Diagonal, Pivoting::NoPivot] } else { &[Pivoting::Diagonal] };
            let forms = [Form::Single, Form::Strided, Form::Interleaved].into_iter().filter(|&f| f != Form::Single || batch == 1);
            for (form, &p) in forms.flat_map(|f| modes.iter().map(move |p| (f, p))) {
                let lay = |v: &Vec<Complex64>| if form == Form::Interleaved { interleave(v, n, batch, false) } else { v.clone() };
                let [dl, d, du, mut b] = [&arrays[0], &arrays[1], &arrays[2], &arrays[3]].map(lay);
                let (mut info, nl, bl, h) = (vec![-7; batch], n as i64, batch as i64, &mut Handle::cpu());
                // SAFETY: host arrays of n·batch elements and batch infos, a CPU handle.
                let r = unsafe {
                    match form {
                        Form::Single => gtsv_spike(h, p, nl, 1, dl[1..].as_ptr(), d.as_ptr(), du.as_ptr(), b.as_mut_ptr(), nl, info.as_mut_ptr()),
                        Form::Strided => gtsv_batched_strided(h, p, nl, 1, dl[1..].as_ptr(), d.as_ptr(), du.as_ptr(), nl, b.as_mut_ptr(), nl, nl, info.as_mut_ptr(), bl),
                        Form::Interleaved => gtsv_batched_interleaved(h, p, nl, dl[batch..].as_ptr(), d.as_ptr(), du.as_ptr(), b.as_mut_ptr(), info.as_mut_ptr(), bl),
                    }
                };
                assert!(r.is_ok() && info.iter().all(|&v| v == 0), "{form:?} n={n}: {r:?} info {info:?}");
                let x = if form == Form::Interleaved { interleave(&b, n, batch, true) } else { b };
                assert!(worst_error(&sys, &x) < tol::RATIO, "{form:?} {p:?} {kind:?} n={n}");
            }
            let (mut all, mut one) = (arrays.clone(), [0, 1, 2, 3].map(|a| arrays[a][..n].to_vec()));
            assert_eq!((lapack_run(&mut all, n).1, lapack_run(&mut one, n).1), (0, 0));
            assert_eq!(bits(&one[3]), bits(&all[3][..n]));
            assert!(worst_error(&sys, &all[3]) < tol::RATIO);
        }
        let g = Gtsv::new(&crate::tests::cli(&["--routine", "gtsv"])).unwrap();
        assert_eq!((g.single_sizes.len(), g.sizes.as_slice(), g.batch_bytes, g.max_secs), (10, &[64, 128, 256, 512, 1024][..], (256u64 << 20) as f64, 2.0));
        assert_eq!((g.forms.len(), g.modes.as_slice(), g.inputs.len(), g.cases(&['s', 'd']).len()), (3, &[Mode::Diag, Mode::Nopivot][..], 2, 40));
        let q = Gtsv::new(&crate::tests::cli(&["--quick", "--forms", "interleaved,interleaved", "--modes", "nopivot"])).unwrap();
        assert_eq!((q.single_sizes.len(), q.forms.as_slice(), q.modes.as_slice()), (3, &[Form::Interleaved][..], &[Mode::Nopivot][..]));
        assert!(Gtsv::new(&crate::tests::cli(&["--single-sizes", "2"])).is_err() && Gtsv::new(&crate::tests::cli(&["--batch-bytes", "10"])).is_err());
        let l2 = (50 << 20) as f64;
        assert_eq!(sizing(Form::Strided, 64, 4, g.batch_bytes, 70e9, l2), (209_716, 2));
        assert_eq!((sizing(Form::Single, 1 << 16, 4, g.batch_bytes, 70e9, l2), sizing(Form::Single, 1 << 20, 8, g.batch_bytes, 1e6, l2).0), ((1, 64), 0));
        assert_eq!(peers(Form::Interleaved, &[Mode::Diag], Inputs::Random), [Method::Interleaved(1), Method::Interleaved(2)]);
        assert!(peers(Form::Strided, &[Mode::Diag], Inputs::Random).is_empty());
        assert_eq!(peer_of(Form::Single, Mode::Nopivot, Inputs::Dominant, None), Some(Method::Gtsv2(false)));
    }
}
