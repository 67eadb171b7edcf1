//! The gtsv sweep: numgpu's tridiagonal solvers (`gtsv_spike`) in their three forms and both
//! pivoting modes, against cuSPARSE on the same device buffers and stream, and against LAPACK
//! `?gtsv` on the host.
//!
//! Forms, each for one precision and one order n:
//! - single: one system (`gtsv_spike`), one right-hand side; peers `cusparse<t>gtsv2`
//!   (partial pivoting) for the diagonal-pivoting rows and `gtsv2_nopivot` for the no-pivot
//!   rows; LAPACK `?gtsv` on one core (one system cannot be split);
//! - strided: a batch of systems one after the other (`gtsv_batched_strided`, stride n, one
//!   right-hand side each), as many as make a call move `batch_bytes`; peer
//!   `gtsv2StridedBatch` (which does not pivot) for both modes; LAPACK over the batch (rayon);
//! - interleaved: the same batch interleaved (`gtsv_batched_interleaved`: element k of system
//!   i at `k·batch + i`); peer `gtsvInterleavedBatch` with each of its algorithms (0 Thomas, 1
//!   LU with partial pivoting, 2 QR), the fastest one is the row's peer; LAPACK over the batch
//!   in the strided layout (it cannot read another).
//!
//! One set of device arrays serves numgpu and cuSPARSE: cuSPARSE wants each system's dl and
//! du with n entries, dl's first and du's last zero; numgpu reads LAPACK's n − 1 entries, so
//! its dl starts one element further (for the interleaved form both take the padded rows).
//! GB/s count 5·n elements per system (dl, d, du and b read, x written), as the spec does.
//!
//! Two classes of inputs: `dominant`, random and strictly diagonally dominant (by rows and
//! columns), on which every solver, pivoting or not, is stable: every mode and every peer;
//! and `random`, random entries that need pivoting (and make the diagonal-pivoting solvers
//! take 2×2 pivots, which dominant inputs never do): the diagonal-pivoting rows only, against
//! the pivoting peers (`gtsv2`; `gtsvInterleavedBatch` LU and QR; the strided batch has none).
//!
//! Each method (ours in a mode, or a peer) is checked before it is timed: a call on fresh
//! inputs (info poisoned), its X fetched and its backward error measured against the inputs
//! in double precision, then a second call timed alone (numgpu's X must equal the first
//! bitwise); these two calls are the warm-up. Then the median of `reps` calls, each on fresh
//! inputs: B (and the diagonals, which `gtsvInterleavedBatch` overwrites) of the set the
//! previous call used is restored from a pristine copy before the next call's start event, so
//! untimed, and the sets rotate so that a restored set has left L2 before its next use.
//! Fewer calls are timed where one call takes so long that `reps` of them would exceed
//! `max_secs`; where one call alone does, the timed check call is the measurement.

use crate::getrf::{below, bits, nan_max, rotation_sets};
use crate::gpu::{cusparse_check, median, ng, Cusparse, DevBuf, Gpu, Res};
use crate::prec::{fill_random, Tridiag};
use crate::roofline::Roofline;
use numgpu::gtsv_spike::{gtsv_batched_interleaved, gtsv_batched_strided, gtsv_spike, Pivoting};
use numgpu::lapack::Blas;
use numgpu::{Handle, Scalar};
use rayon::prelude::*;
use serde::Serialize;
use std::mem::size_of;
use std::time::Instant;

/// A closed set of values that the command line and the rows name.
pub trait Named: Copy + PartialEq + 'static {
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
}

/// The values named by a comma-separated option (`opt`, for the message), duplicates
/// dropped; all of them when the option was not given.
pub fn parse_list<N: Named>(opt: &str, given: Option<Vec<String>>) -> Result<Vec<N>, String> {
    let Some(given) = given else { return Ok(N::ALL.to_vec()) };
    let mut out = Vec::new();
    for g in given {
        let v = N::ALL.iter().copied().find(|v| v.name() == g.trim());
        let known = || N::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ");
        let v = v.ok_or_else(|| format!("{opt} {g}: unknown; known: {}", known()))?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err(format!("{opt}: needs at least one value"));
    }
    Ok(out)
}

/// The three forms of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Single,
    Strided,
    Interleaved,
}

impl Named for Form {
    const ALL: &'static [Form] = &[Form::Single, Form::Strided, Form::Interleaved];
    fn name(self) -> &'static str {
        match self {
            Form::Single => "single",
            Form::Strided => "strided",
            Form::Interleaved => "interleaved",
        }
    }
}

/// The pivoting modes, named as in the rows and on the command line.
impl Named for Pivoting {
    const ALL: &'static [Pivoting] = &[Pivoting::Diagonal, Pivoting::NoPivot];
    fn name(self) -> &'static str {
        match self {
            Pivoting::Diagonal => "diag",
            Pivoting::NoPivot => "nopivot",
        }
    }
}

/// What every row shares.
pub struct Config {
    /// Timed calls per measurement (fewer where they would exceed `max_secs`).
    pub reps: usize,
    /// Bytes one batched call moves (5·n·elem per system); sizes the batch.
    pub batch_bytes: f64,
    /// About the longest the timed calls of one measurement may take, seconds.
    pub max_secs: f64,
    /// LAPACK: at most `cpu_reps` runs, fewer once they have taken `cpu_secs`; the median.
    pub cpu_secs: f64,
    pub cpu_reps: usize,
    /// Device memory the sweep may hold at once, bytes.
    pub mem_budget: f64,
    /// The largest backward error accepted, in units of ε.
    pub tol: f64,
    /// The modes measured, a row each.
    pub modes: Vec<Pivoting>,
    /// The classes of inputs (`random` with the diagonal-pivoting mode only).
    pub inputs: Vec<Inputs>,
}

/// The classes of inputs (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    Dominant,
    Random,
}

impl Named for Inputs {
    const ALL: &'static [Inputs] = &[Inputs::Dominant, Inputs::Random];
    fn name(self) -> &'static str {
        match self {
            Inputs::Dominant => "dominant",
            Inputs::Random => "random",
        }
    }
}

impl Inputs {
    /// The modes of `modes` that solve this class stably.
    fn modes(self, modes: &[Pivoting]) -> Vec<Pivoting> {
        modes.iter().copied().filter(|&m| self == Inputs::Dominant || m == Pivoting::Diagonal).collect()
    }
}

/// One row of the table: one form, precision, n and mode.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub form: &'static str,
    pub mode: &'static str,
    /// The class of inputs: dominant or random (see the module docs).
    pub inputs: &'static str,
    pub precision: char,
    pub n: usize,
    /// Systems per call (1 for the single form).
    pub batch: usize,
    /// Input sets the timed calls rotate through.
    pub sets: usize,
    /// Bytes of one call: 5·n·elem per system (dl, d, du, b read; x written).
    pub bytes: f64,
    /// Calls numgpu's median is of (`reps`, or fewer for slow calls).
    pub reps: usize,
    pub ours_ms: Option<f64>,
    pub ours_gbs: Option<f64>,
    /// GB/s / the copy bandwidth measured in the same run, %.
    pub roof_pct: Option<f64>,
    /// The cuSPARSE routine of the row (for the interleaved form the fastest algorithm); "—"
    /// where cuSPARSE has none for the class (a pivoting strided batch).
    pub cusparse: String,
    pub cusparse_ms: Option<f64>,
    pub cusparse_gbs: Option<f64>,
    /// t_cuSPARSE / t_numgpu (> 1: numgpu is faster).
    pub ratio_cusparse: Option<f64>,
    /// Interleaved form: `gtsvInterleavedBatch`'s time with algorithm 0 (Thomas), 1 (LU with
    /// partial pivoting) and 2 (QR); None where it failed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cusparse_algo_ms: Vec<Option<f64>>,
    /// LAPACK `?gtsv` on the host: one core for the single form, all cores over the batch.
    pub lapack_ms: Option<f64>,
    pub lapack_gbs: Option<f64>,
    /// t_LAPACK / t_numgpu.
    pub ratio_lapack: Option<f64>,
    /// max over the systems of ‖b − T·x‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε), numgpu's x.
    pub backward_error: Option<f64>,
    /// The same for the row's cuSPARSE routine (a check of the bench).
    pub cusparse_backward_error: Option<f64>,
    /// Systems whose info ≠ 0 (all are nonsingular).
    pub info_nonzero: Option<usize>,
    /// Two calls on the same inputs gave bitwise the same X.
    pub reproducible: Option<bool>,
    pub ok: bool,
    pub note: String,
    /// What the reader should know about the peers that does not fail the row (a peer that does
    /// not solve inputs which need pivoting to the bound); joins `note` at the end.
    #[serde(skip)]
    pub peer_note: String,
}

/// gtsvInterleavedBatch's algorithms, by number.
const ALGOS: [&str; 3] = ["Thomas", "LU", "QR"];

/// Systems of order n on the host, one after the other (system i's entries at i·n … i·n + n − 1),
/// in cuSPARSE's layout: row k of dl is T(k, k−1) (0 for k = 0), of du T(k, k+1) (0 for
/// k = n − 1).
#[derive(Clone)]
pub(crate) struct Systems<T> {
    pub n: usize,
    pub batch: usize,
    pub dl: Vec<T>,
    pub d: Vec<T>,
    pub du: Vec<T>,
    pub b: Vec<T>,
}

impl<T: Scalar> Systems<T> {
    /// Random systems that depend only on `seed`: every entry with real and imaginary parts
    /// uniform in [-1, 1) (never zero); for `Inputs::Dominant` the diagonal z·(1 + 4/|z|) for
    /// such a z, so |d(k)| > 4 > |dl| + |du| (< 2√2) in every row and column: strictly
    /// diagonally dominant.
    pub fn random(n: usize, batch: usize, inputs: Inputs, seed: u64) -> Systems<T> {
        let len = n * batch;
        let mut s = Systems { n, batch, dl: vec![T::zero(); len], d: vec![T::zero(); len], du: vec![T::zero(); len], b: vec![T::zero(); len] };
        fill_random(&mut s.dl, seed ^ 0x1);
        fill_random(&mut s.d, seed ^ 0x2);
        fill_random(&mut s.du, seed ^ 0x3);
        fill_random(&mut s.b, seed ^ 0x4);
        if inputs == Inputs::Dominant {
            s.d.par_iter_mut().for_each(|x| {
                let z = x.to_c64();
                *x = T::from_c64(z * (1.0 + 4.0 / z.norm()));
            });
        }
        s.dl.par_chunks_mut(n).for_each(|c| c[0] = T::zero());
        s.du.par_chunks_mut(n).for_each(|c| c[n - 1] = T::zero());
        s
    }
}

/// `v` (`batch` systems of n entries, one after the other) interleaved: entry k of system i at
/// `k·batch + i`.
pub(crate) fn interleave<T: Copy + Send + Sync>(v: &[T], n: usize, batch: usize) -> Vec<T> {
    let mut out = v.to_vec();
    out.par_chunks_mut(batch).enumerate().for_each(|(k, row)| row.iter_mut().enumerate().for_each(|(i, x)| *x = v[i * n + k]));
    out
}

/// The inverse of `interleave`.
pub(crate) fn deinterleave<T: Copy + Send + Sync>(v: &[T], n: usize, batch: usize) -> Vec<T> {
    let mut out = v.to_vec();
    out.par_chunks_mut(n).enumerate().for_each(|(i, sys)| sys.iter_mut().enumerate().for_each(|(k, x)| *x = v[k * batch + i]));
    out
}

/// `num / den`, where den = 0 means "only 0 is exact"; NaN stays NaN.
fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        num / den
    } else if num == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// The max over the systems of the normwise backward error of `x` (the systems' solutions,
/// laid out as `s`), ‖b − T·x‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε), in double precision; NaN when an x
/// is NaN. No factor n: a tridiagonal solve's backward error does not grow with n, and n·ε
/// reaches 4 in single precision at n = 2^25, where such a factor would let any answer pass.
pub(crate) fn backward_error<T: Scalar>(s: &Systems<T>, x: &[T]) -> f64 {
    // Rows are taken in blocks, so that one large system is measured in parallel too; a
    // block never spans two systems.
    const BLOCK: usize = 1 << 15;
    let n = s.n;
    let nb = n.div_ceil(BLOCK);
    let c = |v: &[T], g: usize| v[g].to_c64();
    let parts: Vec<[f64; 4]> = (0..s.batch * nb)
        .into_par_iter()
        .map(|j| {
            let (base, first) = ((j / nb) * n, (j % nb) * BLOCK);
            // ‖r‖∞, ‖T‖∞, ‖x‖∞, ‖b‖∞ over the block's rows.
            let mut m = [0f64; 4];
            for k in first..(first + BLOCK).min(n) {
                let g = base + k;
                let mut tx = c(&s.d, g) * c(x, g);
                if k > 0 {
                    tx += c(&s.dl, g) * c(x, g - 1);
                }
                if k + 1 < n {
                    tx += c(&s.du, g) * c(x, g + 1);
                }
                let row = c(&s.dl, g).norm() + c(&s.d, g).norm() + c(&s.du, g).norm();
                m = [nan_max(m[0], (c(&s.b, g) - tx).norm()), m[1].max(row), nan_max(m[2], c(x, g).norm()), m[3].max(c(&s.b, g).norm())];
            }
            m
        })
        .collect();
    parts
        .chunks(nb)
        .map(|p| {
            let m = p.iter().fold([0f64; 4], |a, q| [nan_max(a[0], q[0]), a[1].max(q[1]), nan_max(a[2], q[2]), a[3].max(q[3])]);
            ratio(m[0], (m[1] * m[2] + m[3]) * T::EPS)
        })
        .fold(0.0, nan_max)
}

/// LAPACK `?gtsv` on `w`, a copy of the systems (LAPACK overwrites them): one system on this
/// thread, a batch over rayon's threads; returns the seconds and the systems with info ≠ 0.
pub(crate) fn lapack_run<T: Blas>(w: &mut Systems<T>) -> (f64, usize) {
    let (n, ni) = (w.n, w.n as i32);
    let one = |dl: &mut [T], d: &mut [T], du: &mut [T], b: &mut [T]| -> usize {
        // SAFETY: one system: dl from T(2, 1) (the padded row 0 skipped), d, du and b with n
        // entries each (LAPACK reads n − 1 of dl and du).
        (unsafe { T::gtsv(ni, 1, dl[1..].as_mut_ptr(), d.as_mut_ptr(), du.as_mut_ptr(), b.as_mut_ptr(), ni) } != 0) as usize
    };
    let t = Instant::now();
    let bad = if w.batch == 1 {
        one(&mut w.dl, &mut w.d, &mut w.du, &mut w.b)
    } else {
        numgpu::lapack::single_threaded_blas();
        // About 64K flops (8n per system) per task.
        let min = (8192 / n).max(1);
        let sys = w.dl.par_chunks_mut(n).zip(w.d.par_chunks_mut(n)).zip(w.du.par_chunks_mut(n)).zip(w.b.par_chunks_mut(n));
        sys.with_min_len(min).map(|(((dl, d), du), b)| one(dl, d, du, b)).sum()
    };
    (t.elapsed().as_secs_f64(), bad)
}

/// Device addresses of one set's arrays, in cuSPARSE's layout; `info`: `batch` entries.
#[derive(Clone, Copy)]
pub(crate) struct Ptrs {
    pub dl: u64,
    pub d: u64,
    pub du: u64,
    pub b: u64,
    pub info: u64,
}

/// numgpu on the arrays at `p` (one system, or `batch` in the form's layout); its dl starts one
/// element after cuSPARSE's, except for the interleaved form, whose rows are padded alike.
///
/// # Safety
/// The arrays at `p` hold n·batch elements of T each (info `batch` entries), in memory of the
/// handle's backend.
pub(crate) unsafe fn ours<T: Blas>(h: &mut Handle, form: Form, n: usize, batch: usize, p: Ptrs, mode: Pivoting) -> Res<()> {
    let lapack_dl = (p.dl + size_of::<T>() as u64) as *const T;
    let (dl, d, du, b, info) = (p.dl as *const T, p.d as *const T, p.du as *const T, p.b as *mut T, p.info as *mut i32);
    let (nl, bl) = (n as i64, batch as i64);
    ng(match form {
        Form::Single => gtsv_spike::<T>(h, nl, 1, lapack_dl, d, du, b, nl, info, mode),
        Form::Strided => gtsv_batched_strided::<T>(h, nl, 1, lapack_dl, d, du, nl, b, nl, nl, info, bl, mode),
        Form::Interleaved => gtsv_batched_interleaved::<T>(h, nl, dl, d, du, b, info, bl, mode),
    })
}

/// What is measured: numgpu in a mode, or a cuSPARSE routine.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Method {
    Ours(Pivoting),
    /// `gtsv2` (pivot) or `gtsv2_nopivot`.
    Gtsv2(bool),
    StridedBatch,
    /// `gtsvInterleavedBatch` with algorithm 0, 1 or 2.
    Interleaved(i32),
}

impl Method {
    fn name(self) -> String {
        match self {
            Method::Ours(p) => format!("numgpu {}", p.name()),
            Method::Gtsv2(true) => "gtsv2".into(),
            Method::Gtsv2(false) => "gtsv2_nopivot".into(),
            Method::StridedBatch => "gtsv2StridedBatch".into(),
            Method::Interleaved(a) => format!("gtsvInterleavedBatch {}", ALGOS[a as usize]),
        }
    }
}

/// The peers a form is measured against, for the modes asked (those that solve the class).
fn peers(form: Form, modes: &[Pivoting], inputs: Inputs) -> Vec<Method> {
    let pivoting_only = inputs == Inputs::Random;
    match form {
        Form::Single => modes.iter().map(|&m| Method::Gtsv2(m == Pivoting::Diagonal)).collect(),
        Form::Strided if pivoting_only => vec![],
        Form::Strided => vec![Method::StridedBatch],
        Form::Interleaved => (pivoting_only as i32..3).map(Method::Interleaved).collect(),
    }
}

/// The row's peer: `gtsv2` or `gtsv2_nopivot` by mode; the strided batch's where the class has
/// one; the interleaved form's fastest algorithm that solved the systems, `fastest`.
fn peer_of(form: Form, mode: Pivoting, inputs: Inputs, fastest: Option<Method>) -> Option<Method> {
    match form {
        Form::Single => Some(Method::Gtsv2(mode == Pivoting::Diagonal)),
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

/// The device arrays of one input set.
struct Set {
    dl: DevBuf,
    d: DevBuf,
    du: DevBuf,
    b: DevBuf,
    info: DevBuf,
}

impl Set {
    fn ptrs(&self) -> Ptrs {
        Ptrs { dl: self.dl.ptr, d: self.d.ptr, du: self.du.ptr, b: self.b.ptr, info: self.info.ptr }
    }
}

/// Systems per call and input sets for order n: one system for the single form, else enough
/// to move `batch_bytes` per call, within cuSPARSE's 32-bit sizes; sets as getrf's, within
/// three quarters of the memory budget (the rest for cuSPARSE's workspace). Batch 0: even one
/// set does not fit.
fn sizing(form: Form, n: usize, elem: usize, cfg: &Config, l2: f64) -> (usize, usize) {
    let mut batch = if form == Form::Single { 1 } else { ((cfg.batch_bytes / (5 * n * elem) as f64).ceil() as usize).clamp(1, i32::MAX as usize / n) };
    let set_bytes = |batch: usize| (batch * (4 * n * elem + 4)) as f64;
    // The pristine copy plus `sets` working sets.
    let need = |batch: usize, sets: usize| (sets + 1) as f64 * set_bytes(batch);
    let budget = 0.75 * cfg.mem_budget;
    if need(batch, 2) > budget {
        batch = if form == Form::Single { 0 } else { (budget / need(1, 2)) as usize };
    }
    let mut sets = rotation_sets(set_bytes(batch), l2);
    while sets > 2 && need(batch, sets) > budget {
        sets -= 1;
    }
    (batch, sets)
}

/// One form, precision and n: a row per class of inputs and mode (see `Inputs::modes`). A
/// failure is recorded in the rows it concerns (`ok = false`, `note`), never ends the sweep.
pub fn run_case<T: Tridiag>(gpu: &Gpu, sp: &Cusparse, h: &mut Handle, roof: &Roofline, cfg: &Config, form: Form, n: usize) -> Vec<Row> {
    cfg.inputs.iter().flat_map(|&inputs| run_class::<T>(gpu, sp, h, roof, cfg, form, inputs, n)).collect()
}

/// `run_case`'s rows of one class of inputs.
#[allow(clippy::too_many_arguments)]
fn run_class<T: Tridiag>(gpu: &Gpu, sp: &Cusparse, h: &mut Handle, roof: &Roofline, cfg: &Config, form: Form, inputs: Inputs, n: usize) -> Vec<Row> {
    let elem = size_of::<T>();
    let modes = inputs.modes(&cfg.modes);
    if modes.is_empty() {
        return Vec::new();
    }
    let (batch, sets) = sizing(form, n, elem, cfg, gpu.l2_bytes as f64);
    let row = |m: Pivoting| Row { form: form.name(), mode: m.name(), inputs: inputs.name(), precision: T::LETTER, n, batch, sets, bytes: (5 * n * batch * elem) as f64, ..Default::default() };
    let mut rows: Vec<Row> = modes.iter().map(|&m| row(m)).collect();
    let r = if batch == 0 {
        Err(format!("skipped: the system and its copies exceed the device memory budget of {:.1} GB", cfg.mem_budget / 1e9))
    } else {
        case_body::<T>(gpu, sp, h, roof, cfg, form, inputs, &modes, &mut rows)
    };
    // Whatever happened, leave the stream idle before the buffers are freed.
    let s = gpu.sync();
    for row in &mut rows {
        match r.clone().and(s.clone()) {
            // numgpu's call failed: its error (first in the note) says it all.
            Ok(()) if row.ours_ms.is_none() => row.ok = false,
            Ok(()) => {
                let mut why = Vec::new();
                if !below(row.backward_error, cfg.tol) {
                    why.push(format!("backward error {:.3e} >= {}", row.backward_error.unwrap_or(f64::NAN), cfg.tol));
                }
                if row.info_nonzero != Some(0) {
                    why.push(format!("info ≠ 0 on {} of {} nonsingular systems", row.info_nonzero.map_or("?".into(), |k| k.to_string()), row.batch));
                }
                if row.reproducible != Some(true) {
                    why.push("two calls on the same inputs differ bitwise".into());
                }
                if !row.note.is_empty() {
                    why.push(std::mem::take(&mut row.note));
                }
                row.ok = why.is_empty();
                row.note = why.join("; ");
            }
            Err(e) => {
                row.ok = false;
                row.note = if row.note.is_empty() { e } else { format!("{e}; {}", row.note) };
            }
        }
        // What does not fail the row, but whoever reads it should know.
        let mut fyi = vec![std::mem::take(&mut row.peer_note)];
        if row.ok && row.reps < cfg.reps {
            fyi.push(format!("median of {} calls: one takes {:.1} ms", row.reps, row.ours_ms.unwrap_or(f64::NAN)));
        }
        row.note = std::iter::once(std::mem::take(&mut row.note)).chain(fyi).filter(|x| !x.is_empty()).collect::<Vec<_>>().join("; ");
    }
    rows
}

/// The state of one case: the host systems, the device sets and the peers' workspace.
struct Case<'a, T> {
    gpu: &'a Gpu,
    sp: &'a Cusparse,
    form: Form,
    host: &'a Systems<T>,
    pristine: Set,
    sets: Vec<Set>,
    /// cuSPARSE's workspace, the largest any peer of the case asked for.
    buf: DevBuf,
    max_secs: f64,
    reps: usize,
}

impl<T: Tridiag> Case<'_, T> {
    fn bytes(&self) -> usize {
        self.host.n * self.host.batch * size_of::<T>()
    }

    /// Enqueues copies of the pristine arrays into set `j`.
    fn restore(&self, j: usize) -> Res<()> {
        let (s, p, bytes) = (&self.sets[j], &self.pristine, self.bytes());
        for (dst, src) in [(&s.dl, &p.dl), (&s.d, &p.d), (&s.du, &p.du), (&s.b, &p.b)] {
            self.gpu.copy_async(dst.ptr, src.ptr, bytes)?;
        }
        Ok(())
    }

    fn call(&self, h: &mut Handle, m: Method, j: usize) -> Res<()> {
        let (n, batch, p) = (self.host.n, self.host.batch, self.sets[j].ptrs());
        let (ni, bi, sp) = (n as i32, batch as i32, self.sp.h);
        // SAFETY: every array of the set holds n·batch elements on the handle's device, info
        // `batch` entries, the workspace the largest size a peer asked for.
        unsafe {
            match m {
                Method::Ours(mode) => ours::<T>(h, self.form, n, batch, p, mode),
                Method::Gtsv2(pivot) => cusparse_check(T::gtsv2(sp, pivot, ni, 1, p.dl, p.d, p.du, p.b, ni, self.buf.ptr), &m.name()),
                Method::StridedBatch => cusparse_check(T::strided(sp, ni, p.dl, p.d, p.du, p.b, bi, ni, self.buf.ptr), &m.name()),
                Method::Interleaved(a) => cusparse_check(T::interleaved(sp, a, ni, p.dl, p.d, p.du, p.b, bi, self.buf.ptr), &m.name()),
            }
        }
    }

    /// The workspace bytes a peer asks for (none for numgpu).
    fn buffer_size(&self, m: Method) -> Res<usize> {
        let (ni, bi, sp, p) = (self.host.n as i32, self.host.batch as i32, self.sp.h, self.pristine.ptrs());
        let mut bytes = 0;
        // SAFETY: size queries on arrays of n·batch elements.
        let status = unsafe {
            match m {
                Method::Ours(_) => return Ok(0),
                Method::Gtsv2(pivot) => T::gtsv2_buffer(sp, pivot, ni, 1, p.dl, p.d, p.du, p.b, ni, &mut bytes),
                Method::StridedBatch => T::strided_buffer(sp, ni, p.dl, p.d, p.du, p.b, bi, ni, &mut bytes),
                Method::Interleaved(a) => T::interleaved_buffer(sp, a, ni, p.dl, p.d, p.du, p.b, bi, &mut bytes),
            }
        };
        cusparse_check(status, &format!("{}_bufferSizeExt", m.name()))?;
        Ok(bytes)
    }

    /// Set j's X, one system after the other.
    fn fetch_x(&self, j: usize) -> Res<Vec<T>> {
        let mut x = vec![T::zero(); self.host.n * self.host.batch];
        self.gpu.dtoh(&mut x, self.sets[j].b.ptr)?;
        Ok(if self.form == Form::Interleaved { deinterleave(&x, self.host.n, self.host.batch) } else { x })
    }

    /// Checks method m on set 0, then times it (see the module docs).
    fn measure(&self, h: &mut Handle, m: Method) -> Res<Measured> {
        let is_ours = matches!(m, Method::Ours(_));
        let batch = self.host.batch;
        // Info poisoned (0xff bytes: −1), so an entry left unwritten shows.
        let fresh = || -> Res<()> {
            self.restore(0)?;
            self.gpu.memset_async(self.sets[0].info.ptr, 0xff, 4 * batch)
        };
        fresh()?;
        self.call(h, m, 0)?;
        let x = self.fetch_x(0)?;
        let info_nonzero = if is_ours {
            let mut info = vec![0i32; batch];
            self.gpu.dtoh(&mut info, self.sets[0].info.ptr)?;
            Some(info.iter().filter(|&&v| v != 0).count())
        } else {
            None
        };
        let error = backward_error(self.host, &x);
        fresh()?;
        let probe = median(&self.gpu.time_setup(0, 1, |_| Ok(()), |_| self.call(h, m, 0))?);
        let reproducible = if is_ours { Some(bits(&self.fetch_x(0)?) == bits(&x)) } else { None };
        drop(x);
        self.restore(0)?;
        let reps = ((self.max_secs * 1e3 / probe.max(1e-6)) as usize).clamp(1, self.reps);
        if reps == 1 {
            // One call takes longer than the measurement may: the probe is the measurement.
            return Ok(Measured { ms: probe, reps, error, info_nonzero, reproducible });
        }
        let sets = self.sets.len();
        let before = |j: usize| if j > 0 { self.restore((j - 1) % sets) } else { Ok(()) };
        let ms = self.gpu.time_setup(0, reps, before, |j| self.call(h, m, j % sets))?;
        self.restore((reps - 1) % sets)?;
        Ok(Measured { ms: median(&ms), reps, error, info_nonzero, reproducible })
    }
}

/// `run_class`'s work: inputs, device sets, the peers, numgpu in each of `modes` (one row
/// each), LAPACK.
#[allow(clippy::too_many_arguments)]
fn case_body<T: Tridiag>(gpu: &Gpu, sp: &Cusparse, h: &mut Handle, roof: &Roofline, cfg: &Config, form: Form, inputs: Inputs, modes: &[Pivoting], rows: &mut [Row]) -> Res<()> {
    let (n, batch, nsets) = (rows[0].n, rows[0].batch, rows[0].sets);
    let seed = ((T::LETTER as u64) << 32) ^ (n as u64) ^ ((form as u64) << 40) ^ ((inputs as u64) << 44) ^ 0x6774_7376_0000;
    let host = Systems::<T>::random(n, batch, inputs, seed);
    let bytes = n * batch * size_of::<T>();
    let alloc_set = || -> Res<Set> { Ok(Set { dl: gpu.alloc(bytes)?, d: gpu.alloc(bytes)?, du: gpu.alloc(bytes)?, b: gpu.alloc(bytes)?, info: gpu.alloc(4 * batch)? }) };
    let pristine = alloc_set()?;
    for (dst, v) in [(&pristine.dl, &host.dl), (&pristine.d, &host.d), (&pristine.du, &host.du), (&pristine.b, &host.b)] {
        if form == Form::Interleaved {
            gpu.htod(dst.ptr, &interleave(v, n, batch))?;
        } else {
            gpu.htod(dst.ptr, v)?;
        }
    }
    let sets = (0..nsets).map(|_| alloc_set()).collect::<Res<Vec<Set>>>()?;
    let mut case = Case { gpu, sp, form, host: &host, pristine, sets, buf: DevBuf { ptr: 0 }, max_secs: cfg.max_secs, reps: cfg.reps };
    for j in 0..nsets {
        case.restore(j)?;
    }
    let peers = peers(form, modes, inputs);
    let mut need = 0;
    for &m in &peers {
        need = need.max(case.buffer_size(m)?);
    }
    case.buf = gpu.alloc(need)?;
    gpu.sync()?;

    // The peers, each once; what went wrong with one is noted in the rows that compare with it.
    let theirs: Vec<(Method, Res<Measured>)> = peers.iter().map(|&m| (m, case.measure(h, m))).collect();
    let solved = |r: &Res<Measured>| r.as_ref().ok().filter(|x| below(Some(x.error), cfg.tol)).map(|x| x.ms);
    // The interleaved rows' peer: the fastest algorithm that solved the systems.
    let fastest = theirs.iter().filter_map(|(m, r)| solved(r).map(|t| (*m, t))).min_by(|a, b| a.1.total_cmp(&b.1)).map(|(m, _)| m);
    for (row, &mode) in rows.iter_mut().zip(modes) {
        let peer = peer_of(form, mode, inputs, fastest);
        row.cusparse = match (peer, form) {
            (Some(m), _) => m.name(),
            (None, Form::Interleaved) => "gtsvInterleavedBatch".into(),
            (None, _) => "—".into(),
        };
        let mut notes = Vec::new();
        for (m, r) in theirs.iter().filter(|(m, _)| form == Form::Interleaved || Some(*m) == peer) {
            match r {
                Err(e) => notes.push(format!("cuSPARSE {}: {e}", m.name())),
                // On dominant inputs every peer must solve: else the bench is wrong. On inputs
                // that need pivoting, that is the peer's business, and it is only reported.
                Ok(x) if !below(Some(x.error), cfg.tol) && inputs == Inputs::Dominant => notes.push(format!("bench check: cuSPARSE {}'s backward error {:.3e} >= {}", m.name(), x.error, cfg.tol)),
                Ok(x) if !below(Some(x.error), cfg.tol) => row.peer_note = format!("cuSPARSE {}'s backward error {:.3e} >= {}: not compared", m.name(), x.error, cfg.tol),
                Ok(x) if Some(*m) == peer => {
                    row.cusparse_ms = Some(x.ms);
                    row.cusparse_gbs = Some(row.bytes / (x.ms * 1e6));
                    row.cusparse_backward_error = Some(x.error);
                }
                Ok(_) => {}
            }
        }
        if form == Form::Interleaved {
            row.cusparse_algo_ms = (0..3).map(|a| theirs.iter().find(|(m, _)| *m == Method::Interleaved(a)).and_then(|(_, r)| r.as_ref().ok().map(|x| x.ms))).collect();
        }
        match case.measure(h, Method::Ours(mode)) {
            Ok(o) => {
                row.reps = o.reps;
                row.ours_ms = Some(o.ms);
                row.ours_gbs = Some(row.bytes / (o.ms * 1e6));
                row.roof_pct = Some(100.0 * row.bytes / (o.ms * 1e6) / roof.bandwidth_gbs);
                row.ratio_cusparse = row.cusparse_ms.map(|t| t / o.ms);
                row.backward_error = Some(o.error);
                row.info_nonzero = o.info_nonzero;
                row.reproducible = o.reproducible;
            }
            Err(e) => notes.insert(0, e),
        }
        row.note = notes.join("; ");
    }
    gpu.sync()?;
    drop(case);

    // LAPACK on copies of the host systems, each copy made before the clock starts.
    let mut w = host.clone();
    let (mut times, mut bad) = (Vec::new(), 0);
    loop {
        let (t, b) = lapack_run(&mut w);
        times.push(t);
        bad += b;
        if times.len() >= cfg.cpu_reps.max(1) || times.iter().sum::<f64>() >= cfg.cpu_secs {
            break;
        }
        w = host.clone();
    }
    let lapack_ms = median(&times) * 1e3;
    for row in rows.iter_mut() {
        row.lapack_ms = Some(lapack_ms);
        row.lapack_gbs = Some(row.bytes / (lapack_ms * 1e6));
        row.ratio_lapack = row.ours_ms.map(|t| lapack_ms / t);
        if bad > 0 {
            let what = format!("bench check: LAPACK ?gtsv reported info ≠ 0 on {bad} system solves");
            row.note = if row.note.is_empty() { what } else { format!("{}; {what}", row.note) };
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use numgpu::{Complex32, Complex64};

    fn host_ptrs<T>(dl: &[T], d: &[T], du: &[T], b: &mut [T], info: &mut [i32]) -> Ptrs {
        Ptrs { dl: dl.as_ptr() as u64, d: d.as_ptr() as u64, du: du.as_ptr() as u64, b: b.as_mut_ptr() as u64, info: info.as_mut_ptr() as u64 }
    }

    /// The inputs, layouts and checks on the host: the dominant systems are dominant, and
    /// both classes have cuSPARSE's padding; numgpu's call on the bench's layout (its dl one
    /// element into cuSPARSE's) solves them on the CPU backend in every form and in the
    /// class's modes, with a small backward error that a perturbed or NaN solution does not
    /// have; LAPACK's batch over rayon equals one system at a time.
    fn check_helpers<T: Tridiag>(inputs: Inputs) {
        for (n, batch) in [(3usize, 1usize), (64, 37), (1000, 1), (129, 5)] {
            let s = Systems::<T>::random(n, batch, inputs, 7 + n as u64);
            for i in 0..batch {
                assert!(s.dl[i * n] == T::zero() && s.du[i * n + n - 1] == T::zero());
                for k in 0..n {
                    let g = i * n + k;
                    let off = s.dl[g].to_c64().norm() + s.du[g].to_c64().norm();
                    let dominant = s.d[g].to_c64().norm() > 4.0 && off < 2.0 * 2f64.sqrt();
                    assert!(dominant || inputs == Inputs::Random, "{} n={n} row {k}", T::LETTER);
                }
            }
            assert_eq!(deinterleave(&interleave(&s.b, n, batch), n, batch), s.b);
            let forms: &[Form] = if batch == 1 { &[Form::Single, Form::Strided, Form::Interleaved] } else { &[Form::Strided, Form::Interleaved] };
            for &form in forms {
                for mode in inputs.modes(&[Pivoting::Diagonal, Pivoting::NoPivot]) {
                    let lay = |v: &[T]| if form == Form::Interleaved { interleave(v, n, batch) } else { v.to_vec() };
                    let (dl, d, du, mut b) = (lay(&s.dl), lay(&s.d), lay(&s.du), lay(&s.b));
                    let mut info = vec![-7; batch];
                    let p = host_ptrs(&dl, &d, &du, &mut b, &mut info);
                    // SAFETY: host arrays of n·batch elements and batch infos, a CPU handle.
                    unsafe { ours::<T>(&mut Handle::cpu(), form, n, batch, p, mode) }.unwrap();
                    assert!(info.iter().all(|&v| v == 0), "{} {form:?} n={n}: info {info:?}", T::LETTER);
                    let x = if form == Form::Interleaved { deinterleave(&b, n, batch) } else { b };
                    let e = backward_error(&s, &x);
                    assert!(e < 30.0, "{} {form:?} {mode:?} n={n} batch={batch}: backward error {e}", T::LETTER);
                    let mut bad = x.clone();
                    // x(n/2) changed by 1e-2·(1 + ‖x‖∞) changes the residual of rows n/2 − 1 … n/2 + 1
                    // by that times T's entries of column n/2, far above ε·‖T‖∞·‖x‖∞.
                    let dx = 1e-2 * (1.0 + bad.iter().map(|v| v.to_c64().norm()).fold(0.0, f64::max));
                    bad[n / 2] = bad[n / 2] + T::from_c64(Complex64::new(dx, 0.0));
                    assert!(backward_error(&s, &bad) > 100.0, "{} n={n}: a perturbed x passes", T::LETTER);
                    bad[n / 2] = T::from_c64(Complex64::new(f64::NAN, 0.0));
                    assert!(!below(Some(backward_error(&s, &bad)), 30.0), "{} n={n}: a NaN x passes", T::LETTER);
                }
            }
            let mut all = s.clone();
            assert_eq!(lapack_run(&mut all).1, 0);
            for i in 0..batch {
                let r = i * n..(i + 1) * n;
                let mut one = Systems { n, batch: 1, dl: s.dl[r.clone()].to_vec(), d: s.d[r.clone()].to_vec(), du: s.du[r.clone()].to_vec(), b: s.b[r.clone()].to_vec() };
                assert_eq!(lapack_run(&mut one).1, 0);
                assert_eq!(bits(&one.b), bits(&all.b[r]), "{} n={n} system {i}", T::LETTER);
            }
            assert!(backward_error(&s, &all.b) < 30.0);
        }
    }

    #[test]
    fn gtsv_check_helpers() {
        for &inputs in Inputs::ALL {
            check_helpers::<f32>(inputs);
            check_helpers::<f64>(inputs);
            check_helpers::<Complex32>(inputs);
            check_helpers::<Complex64>(inputs);
        }
    }

    /// A backward error a hand computation confirms: T = tridiag(1, 4, 1) of order 3, b = T·1
    /// = (5, 6, 5), x = 1 except x(2) = 1 + δ: r = (−δ, −4δ, −δ), ‖r‖∞ = 4δ, ‖T‖∞ = 6,
    /// ‖x‖∞ = 1 + δ, ‖b‖∞ = 6.
    #[test]
    fn backward_error_by_hand() {
        let delta = 1e-10;
        let s = Systems { n: 3, batch: 1, dl: vec![0.0, 1.0, 1.0], d: vec![4.0; 3], du: vec![1.0, 1.0, 0.0], b: vec![5.0, 6.0, 5.0] };
        let e = backward_error(&s, &[1.0, 1.0 + delta, 1.0]);
        let want = 4.0 * delta / ((6.0 * (1.0 + delta) + 6.0) * f64::EPSILON);
        assert!((e - want).abs() < 1e-6 * want, "{e} vs {want}");
        assert_eq!(backward_error(&s, &[1.0, 1.0, 1.0]), 0.0);
    }

    #[test]
    fn sizing_moves_the_asked_bytes() {
        let cfg = Config { reps: 20, batch_bytes: 256.0 * (1 << 20) as f64, max_secs: 2.0, cpu_secs: 0.2, cpu_reps: 3, mem_budget: 70e9, tol: 30.0, modes: vec![Pivoting::Diagonal], inputs: vec![Inputs::Dominant] };
        let l2 = (50 << 20) as f64;
        let (batch, sets) = sizing(Form::Strided, 64, 4, &cfg, l2);
        assert_eq!((batch, sets), (209_716, 2));
        assert!((5 * 64 * batch * 4) as f64 >= cfg.batch_bytes);
        // A small single system rotates among many sets, a large one between two.
        assert_eq!(sizing(Form::Single, 1 << 16, 4, &cfg, l2), (1, 64));
        assert_eq!(sizing(Form::Single, 1 << 25, 8, &cfg, l2), (1, 2));
        let tight = Config { mem_budget: 1e6, ..cfg };
        assert_eq!(sizing(Form::Single, 1 << 20, 8, &tight, l2).0, 0);
        let (b, _) = sizing(Form::Interleaved, 1024, 8, &tight, l2);
        assert!(b > 0 && (3 * b * 4 * 1024 * 8) as f64 <= 0.75e6);
        let list = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(parse_list::<Form>("--forms", list(&["interleaved", " single", "interleaved"])), Ok(vec![Form::Interleaved, Form::Single]));
        assert_eq!(parse_list::<Pivoting>("--modes", None), Ok(vec![Pivoting::Diagonal, Pivoting::NoPivot]));
        assert_eq!(parse_list::<Inputs>("--inputs", list(&["dense"])), Err("--inputs dense: unknown; known: dominant, random".into()));
        assert!(parse_list::<Inputs>("--inputs", list(&[])).is_err());
        assert_eq!(Inputs::Random.modes(&[Pivoting::NoPivot, Pivoting::Diagonal]), [Pivoting::Diagonal]);
        assert_eq!(Inputs::Dominant.modes(&[Pivoting::NoPivot]), [Pivoting::NoPivot]);
        // The random class: pivoting peers only, none for the strided batch.
        let modes = [Pivoting::Diagonal];
        assert_eq!(peers(Form::Interleaved, &modes, Inputs::Random), [Method::Interleaved(1), Method::Interleaved(2)]);
        assert!(peers(Form::Strided, &modes, Inputs::Random).is_empty());
        assert_eq!(peer_of(Form::Strided, Pivoting::Diagonal, Inputs::Random, None), None);
        assert_eq!(peer_of(Form::Single, Pivoting::NoPivot, Inputs::Dominant, None), Some(Method::Gtsv2(false)));
    }
}
