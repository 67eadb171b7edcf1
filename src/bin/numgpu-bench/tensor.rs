//! tensor: numgpu's tensor decompositions of N × N × N tensors (s and d, device arrays, the CUDA
//! backend) against numgpu's CPU backend in the same run, on all host cores and the same
//! inputs: CP-ALS (`numgpu_?cp_als`) at rank R of a planted rank-R tensor plus noise, a fixed
//! number of iterations from a seeded random start; TT-SVD and TR-SVD (`numgpu_?tt_svd`,
//! `numgpu_?tr_svd`) at eps = 1e-3 of a planted train and ring plus noise; HT (`numgpu_?ht`) at
//! ranks (R, R, R, R) of a planted HT tensor plus noise. A case gives a row per decomposition,
//! each checked: CP's fit against the CPU backend's from the same start, TT's and TR's
//! reconstructions (`?tt_reconstruct`, `?tr_reconstruct`) within eps·‖X‖, HT's reconstruction
//! (`?ht_reconstruct`) against X and against the oracle's dense tensor of its parts, and a
//! second GPU call bitwise equal to the first. Where the CPU backend would take more than
//! its budget (3 s a call), it runs fewer CP iterations, or a smaller N for the
//! others, and its time is scaled; the row says so.
//!
//! The GPU peers (issue 19) are more columns of the same rows, on the same inputs (X written to
//! a temporary file), run by `tensor_torch.py` in one Python subprocess per case
//! ([`python::run`]) after numgpu's rows: the seed's explicit-unfold baseline in torch on CUDA
//! (an unfolded copy of X in every step, the MTTKRPs as cuBLAS matmuls with an explicit
//! Khatri–Rao product, the SVDs by torch.linalg / cuSOLVER; CP-ALS at the same rank and
//! iterations, TT-SVD and TR-SVD at the same eps, HT at the same ranks) and TensorLy with its
//! PyTorch backend (parafac, tensor_train and tensor_ring at numgpu's ranks), each skipped with
//! a note where torch, CUDA or tensorly is absent, or where a call is predicted to exceed its
//! budget. ×explicit = t_explicit / t_numgpu, ×TensorLy = t_TensorLy / t_numgpu.

use crate::bench::{bits, dispatch, finish, list, secs, About, Bench, Case, Ctx};
use crate::gpu::{median, ng, DevBuf, Gpu, Res};
use crate::python;
use crate::report::{series_lines, Fmt, Meta, Panel, Row, Scale, Style};
use crate::roofline::Roofline;
use crate::Cli;
use numgpu::tensor::cp::{cp_als, numgpu_cp_options};
use numgpu::tensor::engine::Real;
use numgpu::tensor::ht::{ht, ht_reconstruct};
use numgpu::tensor::train::{split, tr_reconstruct, tr_svd, tt_reconstruct, tt_svd};
use numgpu::testing::gen::filled;
use numgpu::testing::tensor as oracle;
use numgpu::{Handle, Status};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::mem::size_of;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
#[group(id = "tensor")]
pub struct Args {
    /// tensor: the ranks R, comma-separated (CP-ALS's rank, HT's ranks (R, R, R, R), the planted train's (1, R, R, 1) and ring's (a, b, b, a) with a·b = R), each at most the smallest N; --sizes are the tensors' N, run in ascending order [default: 16; sizes 100,200,300,500 and, in single precision only, 700,1000; --quick: 100,300].
    #[arg(long, value_delimiter = ',')]
    tensor_ranks: Option<Vec<usize>>,
    /// tensor: the decompositions to run, comma-separated: cp, tt, tr, ht [default: all four].
    #[arg(long, value_delimiter = ',')]
    tensor_routines: Option<Vec<Routine>>,
}

/// CP-ALS's iterations per call, and the seed of its random start.
const ITERS: i32 = 20;
const CP_SEED: u64 = 0x5eed;
/// TT-SVD's and TR-SVD's relative accuracy.
const EPS: f64 = 1e-3;
/// The noise added to every planted tensor, relative to its norm.
const NOISE: f64 = 1e-4;
/// The default sizes, the largest of them in single precision only (a double 1000³ tensor is
/// 8 GB, and the peers hold copies), and --quick's.
const SIZES: [usize; 6] = [100, 200, 300, 500, 700, 1000];
const DOUBLE_MAX: usize = 500;
const QUICK: [usize; 2] = [100, 300];
/// The Python peers, run by [`python::run`]; their names in the rows' keys and notes.
const PEER_SCRIPT: &str = include_str!("tensor_torch.py");
const PEERS: [(&str, &str); 2] = [("explicit", "the explicit-unfold baseline"), ("tensorly", "TensorLy")];
const BOTH: &str = "the explicit-unfold and TensorLy";
/// A peer's call predicted (from its last size) above this many seconds is skipped.
const PEER_CALL_MAX: f64 = 30.0;

/// The decompositions, a row each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Routine {
    Cp,
    Tt,
    Tr,
    Ht,
}

impl Routine {
    fn name(self) -> &'static str {
        ["CP-ALS", "TT-SVD", "TR-SVD", "HT"][self as usize]
    }

    /// Its name in the Python peers' tasks.
    fn key(self) -> &'static str {
        ["cp", "tt", "tr", "ht"][self as usize]
    }

    /// The CPU backend's work of one call (of one CP iteration) at N and rank r, in the units
    /// its seconds per unit are kept in: N³·R for a CP iteration (three MTTKRPs), N⁴ for the
    /// others (Gram matrices of X's N × N² unfoldings).
    fn work(self, n: usize, r: usize) -> f64 {
        let n = n as f64;
        if self == Routine::Cp {
            n.powi(3) * r as f64
        } else {
            n.powi(4)
        }
    }
}

pub struct Tensor {
    sizes: Vec<usize>,
    /// The largest N run in double precision (the defaults'), none with --sizes.
    double_max: Option<usize>,
    ranks: Vec<usize>,
    routines: Vec<Routine>,
    /// The seconds a CPU call may take before it is scaled, and its timed runs (fewer where
    /// they would exceed those seconds).
    cpu_secs: f64,
    cpu_reps: usize,
    /// The seconds the Python peers spend repeating one call.
    peer_secs: f64,
    /// Each side's ("cpu", or a peer of [`PEERS`]) seconds per unit of work
    /// ([`Routine::work`], per iteration for CP) in its last run of each precision and
    /// routine: what predicts the next size's.
    rate: HashMap<(&'static str, char, Routine), f64>,
    /// The case's inputs written for the Python peers, and why the peers cannot run at all
    /// (python3, torch or CUDA absent: learnt once).
    staged: Vec<Staged>,
    peers_off: Option<String>,
}

/// One row's task for the Python peers: its routine, the file holding X, the task's JSON.
struct Staged {
    k: Routine,
    path: PathBuf,
    task: Value,
}

impl Tensor {
    pub fn new(cli: &Cli) -> Res<Tensor> {
        let ranks = cli.tensor.tensor_ranks.clone().unwrap_or_else(|| vec![16]);
        if let Some(r) = ranks.iter().find(|&&r| r == 0 || r > 4096) {
            return Err(format!("--tensor-ranks: {r} is outside 1..=4096"));
        }
        let mut sizes = cli.sizes_or(&SIZES, &QUICK);
        sizes.sort_unstable();
        sizes.dedup();
        let double_max = cli.sizes.is_none().then_some(DOUBLE_MAX);
        let (cpu_secs, cpu_reps, peer_secs) = (cli.or(None, 3.0, 2.0), cli.or(None, 3, 1), cli.or(None, 3.0, 1.5));
        let routines = list(&cli.tensor.tensor_routines);
        Ok(Tensor { sizes, double_max, ranks, routines, cpu_secs, cpu_reps, peer_secs, rate: HashMap::new(), staged: Vec::new(), peers_off: None })
    }

    /// The N the CPU backend runs `k` on and the CP iterations it runs (of `iters`), so that
    /// a call stays within its budget as predicted from its last run of `k` in precision `p`
    /// (none yet: N and `iters`).
    fn cpu_plan(&self, p: char, k: Routine, n: usize, r: usize, iters: i32) -> (usize, i32) {
        self.rate.get(&("cpu", p, k)).map_or((n, iters), |&rate| plan(k, rate * k.work(n, r), self.cpu_secs, n, r, iters))
    }

    /// Records a run by `side` in precision `p` of `k` at N (`iters` CP iterations) that took
    /// `secs`.
    fn ran(&mut self, (side, p): (&'static str, char), k: Routine, (n, r, iters): (usize, usize, i32), secs: f64) {
        self.rate.insert((side, p, k), secs / (k.work(n, r) * iters.max(1) as f64));
    }

    /// The seconds `side`'s call of `k` at N (CP-ALS's [`ITERS`] iterations) is predicted to
    /// take from its last run (none before one).
    fn predict(&self, side: &'static str, p: char, k: Routine, n: usize, r: usize) -> Option<f64> {
        let iters = if k == Routine::Cp { ITERS as f64 } else { 1.0 };
        self.rate.get(&(side, p, k)).map(|rate| rate * k.work(n, r) * iters)
    }

    /// Writes X for the Python peers and keeps the row's task (`task`: the routine's own
    /// fields): the peers predicted within [`PEER_CALL_MAX`] are asked, the others noted (and
    /// all of them where X cannot be written: a peer never fails our row).
    fn stage<T: Real>(&mut self, k: Routine, x: &[T], n: usize, r: usize, mut task: Value, row: &mut Row) {
        if let Some(why) = &self.peers_off {
            return row.note(python::skipped(BOTH, why));
        }
        let mut peers = Vec::new();
        for (peer, label) in PEERS {
            match self.predict(peer, T::LETTER, k, n, r) {
                Some(secs) if secs > PEER_CALL_MAX => row.note(python::skipped(label, &format!("a call predicted at {secs:.0} s from its last size (limit {PEER_CALL_MAX} s)"))),
                _ => peers.push(peer),
            }
        }
        if peers.is_empty() {
            return;
        }
        let path = std::env::temp_dir().join(format!("numgpu-bench-{}-tensor-{}.bin", std::process::id(), k.key()));
        if let Err(why) = write_raw(&path, x) {
            let _ = std::fs::remove_file(&path);
            return row.note(python::skipped(BOTH, &why));
        }
        task["routine"] = k.key().into();
        task["x"] = path.to_string_lossy().into();
        task["peers"] = json!(peers);
        self.staged.push(Staged { k, path, task });
    }

    /// The position of routine k's row among a case's rows (one per selected routine, in
    /// `--tensor-routines` order).
    fn row_of(&self, k: Routine) -> usize {
        self.routines.iter().position(|&r| r == k).expect("a staged routine is a selected one")
    }

    /// Runs the Python peers on the case's staged inputs, one subprocess: their times and
    /// ratios, fits, errors and ranks in the rows, or a note why not.
    fn run_peers(&mut self, (warmup, reps): (usize, usize), case: &Case, r: usize, rows: &mut [Row]) {
        let staged = std::mem::take(&mut self.staged);
        if staged.is_empty() {
            return;
        }
        let dtype = if case.precision == 's' { "float32" } else { "float64" };
        let tasks: Vec<Value> = staged.iter().map(|s| s.task.clone()).collect();
        let job = json!({"dtype": dtype, "n": case.n, "warmup": warmup, "reps": reps, "budget_s": self.peer_secs, "seed": CP_SEED, "tasks": tasks});
        let out = python::run("tensor_torch.py", PEER_SCRIPT, &[job.to_string()]);
        staged.iter().for_each(|s| drop(std::fs::remove_file(&s.path)));
        let v = match out {
            Ok(v) => v,
            Err(why) => {
                if ["not runnable", "not importable", "no CUDA device"].iter().any(|w| why.contains(w)) {
                    self.peers_off = Some(why.clone());
                }
                for s in &staged {
                    rows[self.row_of(s.k)].note(python::skipped(BOTH, &why));
                }
                return;
            }
        };
        for (s, res) in staged.iter().zip(v["results"].as_array().into_iter().flatten()) {
            let row = &mut rows[self.row_of(s.k)];
            row.set("torch", v["torch"].clone());
            row.set("tensorly", v["tensorly"].clone());
            for (peer, label) in PEERS {
                let got = &res[peer];
                match (got["ms"].as_f64(), row.num("ours_ms")) {
                    (Some(ms), Some(ours)) => {
                        self.ran((peer, case.precision), s.k, (case.n, r, if s.k == Routine::Cp { ITERS } else { 1 }), ms / 1e3);
                        peer_columns(row, peer, label, ms, ours, got);
                    }
                    _ => {
                        if let Some(why) = got["skipped"].as_str() {
                            row.note(python::skipped(label, why));
                        }
                    }
                }
            }
        }
    }
}

/// A peer's time, its ratio to ours, its calls timed, and its own fit, error or ranks (noted
/// where its error exceeds eps, or its ranks differ from ours).
fn peer_columns(row: &mut Row, peer: &str, label: &str, ms: f64, ours: f64, got: &Value) {
    row.set(&format!("{peer}_ms"), ms);
    row.set(&format!("ratio_{peer}"), ms / ours);
    row.set(&format!("{peer}_calls"), got["calls"].clone());
    for key in ["fit", "error", "ranks"] {
        if !got[key].is_null() {
            row.set(&format!("{peer}_{key}"), got[key].clone());
        }
    }
    let ranks: Option<Vec<usize>> = got["ranks"].as_array().map(|a| a.iter().filter_map(Value::as_u64).map(|v| v as usize).collect());
    if let Some(ranks) = ranks.filter(|r| ranks_text(r) != row.text("ranks")) {
        row.note(format!("{label} found ranks {}", ranks_text(&ranks)));
    }
    if let Some(e) = got["error"].as_f64().filter(|&e| (e > EPS || e.is_nan()) && row.text("routine") != Routine::Ht.name()) {
        row.note(format!("{label}'s error {e:.2e} exceeds eps"));
    }
}

/// Writes `x` to `path` as its bytes (numgpu's layout, native byte order).
fn write_raw<T: Real>(path: &std::path::Path, x: &[T]) -> Res<()> {
    // SAFETY: T is f32 or f64 (plain data without padding); the slice covers x's bytes.
    let bytes = unsafe { std::slice::from_raw_parts(x.as_ptr() as *const u8, std::mem::size_of_val(x)) };
    std::fs::write(path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// `plan` for a call of `k` predicted at `secs` a unit (a CP iteration, else the call) at N:
/// within `budget` as it is; else CP-ALS runs fewer iterations on the same X (at least one),
/// the others a smaller N (work ∝ N⁴; at least R).
fn plan(k: Routine, secs: f64, budget: f64, n: usize, r: usize, iters: i32) -> (usize, i32) {
    let whole = if k == Routine::Cp { secs * iters as f64 } else { secs };
    if whole <= budget {
        return (n, iters);
    }
    if k == Routine::Cp {
        return (n, ((iters as f64 * budget / whole) as i32).clamp(1, iters));
    }
    (((n as f64 * (budget / whole).powf(0.25)) as usize).clamp(r.max(1), n), iters)
}

#[rustfmt::skip]
const ABOUT: About = About {
    name: "tensor", report: "tensor", tolerance: EPS, precisions: &['s', 'd'], default: &['s', 'd'], cusparse: false,
    description: "Tensor decompositions of N×N×N tensors, device arrays: numgpu_?cp_als (rank R, 20 iterations from a seeded random start, of a planted rank-R tensor), numgpu_?tt_svd and numgpu_?tr_svd (eps = 1e-3, of a planted train and ring) and numgpu_?ht (ranks (R, R, R, R), of a planted HT tensor), each plus noise, against numgpu's CPU backend (OpenBLAS and LAPACK under rayon) on all host cores, the seed's explicit-unfold baseline (torch on CUDA: unfolded copies, cuBLAS matmuls with an explicit Khatri–Rao product, cuSOLVER SVDs) and TensorLy on PyTorch/CUDA, in the same run on the same inputs.",
    columns: &[("prec", "precision", Fmt::Text), ("N", "n", Fmt::Fix(0)), ("R", "rank", Fmt::Fix(0)), ("routine", "routine", Fmt::Text), ("ranks", "ranks", Fmt::Text),
        ("iters", "iters", Fmt::Fix(0)), ("ours ms", "ours_ms", Fmt::Ms), ("ms/iter", "ours_ms_per_iter", Fmt::Ms), ("CPU ms", "cpu_ms", Fmt::Ms), ("CPU ms/iter", "cpu_ms_per_iter", Fmt::Ms),
        ("CPU on N", "cpu_n", Fmt::Fix(0)), ("×CPU", "ratio_cpu", Fmt::Rate), ("explicit ms", "explicit_ms", Fmt::Ms), ("×explicit", "ratio_explicit", Fmt::Rate),
        ("TensorLy ms", "tensorly_ms", Fmt::Ms), ("×TensorLy", "ratio_tensorly", Fmt::Rate), ("fit", "fit", Fmt::Fix(6)), ("check", "error", Fmt::Exp(2)), ("limit", "bound", Fmt::Exp(1))],
    log: &["ours_ms", "ratio_cpu", "ratio_explicit", "ratio_tensorly", "error"],
};

impl Bench for Tensor {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn cases(&self, precisions: &[char]) -> Vec<Case> {
        let (ranks, dmax) = (&self.ranks, self.double_max.unwrap_or(usize::MAX));
        let sizes = move |p: char| self.sizes.iter().copied().filter(move |&n| p == 's' || n <= dmax);
        precisions
            .iter()
            .flat_map(|&p| sizes(p).flat_map(move |n| ranks.iter().enumerate().map(move |(k, &r)| Case { precision: p, n, kind: k, label: format!("{p} N = {n} R = {r}") })))
            .collect()
    }
    fn measure(&mut self, ctx: &mut Ctx, case: &Case) -> Vec<Row> {
        let r = self.ranks[case.kind];
        let started = std::time::Instant::now();
        crate::note(format!("tensor {}: numgpu, its CPU backend, then the Python peers", case.label));
        let mut rows = Vec::new();
        for k in self.routines.clone() {
            let mut row = Row::new(format!("{} {}", case.label, k.name()));
            row.set("precision", case.precision.to_string());
            [("n", case.n), ("rank", r)].into_iter().for_each(|(key, v)| row.set(key, v));
            row.set("routine", k.name());
            let res = dispatch!(case.precision, [f32, f64], body(self, ctx, k, case.n, r, &mut row));
            rows.push(finish(ctx, row, res));
        }
        self.run_peers((ctx.warmup, ctx.reps), case, r, &mut rows);
        crate::note(format!("tensor {}: done in {:.1} s", case.label, started.elapsed().as_secs_f64()));
        rows
    }
    fn method(&self, meta: &Meta) -> String {
        format!(
            "- method: N×N×N tensors in device memory, each a planted one plus noise of norm {NOISE:e}·‖X₀‖ (uniform entries), built in double and rounded: CP-ALS's X₀ = Σ_r λ_r·a_r ∘ b_r ∘ c_r (factors uniform in [−1, 1), λ in [1, 2)); TT-SVD's a train of ranks (1, R, R, 1) and TR-SVD's a ring of ranks (a, b, b, a), a·b = R as even as R allows (TR-SVD's own split), random cores in [−1, 1); HT's the HT tensor of random parts of ranks (R, R, R, R). numgpu_?cp_als at rank R: {ITERS} iterations from the random start of seed {CP_SEED:#x} (the same on both backends), tol = the least positive double (tol 0 selects the default, 1e-6), so every iteration runs unless the fit repeats to the last bit; numgpu_?tt_svd and numgpu_?tr_svd at eps = {EPS:e}, no rank caps, the cores' room from a first call (the capacity protocol, untimed); numgpu_?ht at ranks (R, R, R, R). {} warm-up calls, then the median of {} calls between CUDA events (the calls wait for the device, so this is their wall time)\n\
             - peer: numgpu's CPU backend in the same run on the same inputs (OpenBLAS single-threaded per call under rayon, as the backend sets it, on all {} host threads; LAPACK ?syevd for the Gram matrices), host clock, the median of up to {} runs (no more once they have taken {} s); when a call is predicted (from the backend's time per unit of work at the smaller sizes: N³·R per CP iteration, N⁴ for the others) to exceed {} s, CP-ALS runs fewer iterations on the same X, its time per iteration scaled to ours, and the others run a planted tensor of a smaller N, their time scaled by (N / N_CPU)⁴ (the CPU on N column, and a note); ×CPU = t_CPU / t_numgpu\n\
             - GPU peers, on the same inputs (X written to a file and read by `tensor_torch.py`, one python3 subprocess per case after numgpu's rows), timed between CUDA events ({} warm-up call, then up to {} calls, fewer once they have taken {} s; a first call over half that is the one timed), skipped with a note where python3, torch, CUDA or tensorly is absent or a call is predicted (from the last size's time per unit of work) above {PEER_CALL_MAX} s: the seed's explicit-unfold baseline, torch on CUDA with X unfolded into a permute(…).contiguous() copy at every MTTKRP (modes 1 and 2; mode 0's unfolding is X itself in torch's row-major order, as in numgpu's column-major one), the MTTKRP a cuBLAS matmul of that copy with an explicit Khatri–Rao product, the normal equations by torch.linalg.pinv (cuSOLVER), CP-ALS at rank R for {ITERS} iterations from a seeded random start (its fit from the last MTTKRP, as numgpu's); TT-SVD and TR-SVD the classical sequential SVDs (torch.linalg.svd, cuSOLVER) of explicit reshapes at eps = {EPS:e} with numgpu's truncation (δ² = eps²·‖X‖²/(d − 1) a step) and split; HT the seed's Algorithm 2 by three SVDs of unfolded copies; TensorLy with its PyTorch backend: parafac (init='random', n_iter_max = {ITERS}, tol = 0, so it computes no error in its iterations where numgpu computes its fit in each), tensor_train and tensor_ring at the ranks numgpu found (TensorLy takes ranks, not eps), no HT; ×explicit = t_explicit / t_numgpu, ×TensorLy = t_TensorLy / t_numgpu; the JSON rows keep each peer's fit or reconstruction error and ranks, and a note says where they differ from numgpu's\n\
             - checks (check, limit): CP-ALS |fit − fit_CPU| (after the CPU's iterations) ≤ 10·√ε (the fit, a difference of nearly equal squares, resolves ‖X − X̂‖ to about √ε·‖X‖); TT-SVD and TR-SVD ‖X − X̂‖/‖X‖ ≤ eps with X̂ from numgpu_?tt_reconstruct / numgpu_?tr_reconstruct of the cores; HT ‖X − X̂‖/‖X‖ ≤ 3·noise + 1e3·ε with X̂ from numgpu_?ht_reconstruct, and X̂ against the oracle's dense tensor of the parts (double) ≤ 100·ε; every routine: a second call on the same inputs gives the same bits (ranks, cores, factors, parts, fit); a row fails when a check fails or a call fails\n",
            meta.warmup, meta.reps, meta.host_threads, self.cpu_reps, self.cpu_secs, self.cpu_secs, meta.warmup.max(1), meta.reps, self.peer_secs
        )
    }
    fn plot(&self, rows: &[Row], meta: &Meta, _: &Roofline) -> Vec<Panel> {
        let series = |r: &Row| format!("{} {} R={}", r.text("precision"), r.text("routine"), r.text("rank"));
        let what = [("ratio_cpu", "t_CPU / t_numgpu", Style::Solid), ("ratio_explicit", "t_explicit / t_numgpu", Style::Dashed), ("ratio_tensorly", "t_TensorLy / t_numgpu", Style::Marks)];
        let lines = series_lines(rows, series, "n", &what);
        let title = format!("numgpu tensor decompositions against the CPU backend, the explicit-unfold baseline and TensorLy: {} ({})", meta.device, meta.date);
        vec![Panel { title, x: ("N (N×N×N tensors)".into(), Scale::Lin), y: ("t_peer / t_numgpu (log10)".into(), Scale::Log10), names: vec![], level: Some((1.0, "parity".into())), lines }]
    }
    fn extra(&self, _: &[Row]) -> Map<String, Value> {
        let pairs: [(&str, Value); 7] = [("ranks", self.ranks.clone().into()), ("cp_iters", ITERS.into()), ("eps", EPS.into()), ("noise", NOISE.into()), ("cpu_budget_secs", self.cpu_secs.into()), ("peer_budget_secs", self.peer_secs.into()), ("peer_call_max_secs", PEER_CALL_MAX.into())];
        pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }
}

/// Where one side's arrays live: device memory of the bench's GPU (numgpu's CUDA backend) or
/// host memory (its CPU backend). numgpu's calls are the same for both.
#[derive(Clone, Copy)]
enum Mem<'a> {
    Device(&'a Gpu),
    Host,
}

/// An array of a [`Mem`] at `ptr`, valid while it lives.
struct Buf {
    ptr: u64,
    _dev: Option<DevBuf>,
    _host: Vec<u64>,
}

impl Mem<'_> {
    fn alloc(self, bytes: usize) -> Res<Buf> {
        Ok(match self {
            Mem::Device(g) => {
                let d = g.alloc(bytes)?;
                Buf { ptr: d.ptr, _dev: Some(d), _host: Vec::new() }
            }
            Mem::Host => {
                // Words: aligned for f32 and f64.
                let mut h = vec![0u64; bytes.div_ceil(8).max(1)];
                Buf { ptr: h.as_mut_ptr() as u64, _dev: None, _host: h }
            }
        })
    }

    /// A new array holding `v`.
    fn upload<T: Copy>(self, v: &[T]) -> Res<Buf> {
        let b = self.alloc(std::mem::size_of_val(v))?;
        match self {
            Mem::Device(g) => g.htod(b.ptr, v)?,
            // SAFETY: b holds v's bytes, aligned for T (at most 8-byte aligned).
            Mem::Host => unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), b.ptr as *mut T, v.len()) },
        }
        Ok(b)
    }

    /// The first `len` elements of `b`.
    fn download<T: Real>(self, b: &Buf, len: usize) -> Res<Vec<T>> {
        let mut v = vec![T::zero(); len];
        match self {
            Mem::Device(g) => g.dtoh(&mut v, b.ptr)?,
            // SAFETY: b holds at least `len` elements of T (the caller's sizes).
            Mem::Host => unsafe { std::ptr::copy_nonoverlapping(b.ptr as *const T, v.as_mut_ptr(), len) },
        }
        Ok(v)
    }
}

fn f64s<T: Real>(v: &[T]) -> Vec<f64> {
    v.iter().map(|&x| x.into()).collect()
}

/// The dims (and leading dimensions) of an N³ tensor, as numgpu takes them.
fn cube(n: usize) -> [i64; 3] {
    [n as i64; 3]
}

/// X₀ plus noise E with ‖E‖ = NOISE·‖X₀‖ (uniform entries from `seed`), rounded to T.
fn noisy<T: Real>(x0: &[f64], seed: u64) -> Vec<T> {
    let e = filled::<f64>(x0.len(), seed);
    let s = NOISE * oracle::fro(x0) / oracle::fro(&e);
    x0.iter().zip(&e).map(|(x, e)| T::of(x + s * e)).collect()
}

/// The seed of a row's planted tensor: the same in both precisions.
fn seed(n: usize, r: usize, k: Routine) -> u64 {
    0x7e50_0000_0000 ^ ((n as u64) << 20) ^ ((r as u64) << 4) ^ k as u64
}

/// CP-ALS's input: a planted rank-R tensor plus noise (factors uniform in [−1, 1), λ in [1, 2)).
fn planted_cp<T: Real>(n: usize, r: usize) -> Vec<T> {
    let s = seed(n, r, Routine::Cp);
    let u: Vec<Vec<f64>> = (0..3).map(|k| filled::<f64>(n * r, s + 1 + k)).collect();
    let lam: Vec<f64> = filled::<f64>(r, s + 4).iter().map(|v| 1.5 + 0.5 * v).collect();
    noisy(&oracle::cp_dense(&[n; 3], &u, &lam), s + 5)
}

/// The planted ranks of a train, (1, R, R, 1), and of a ring, (a, b, b, a) with a·b = R as
/// even as R allows: TR-SVD's own split of its first rank, so that it recovers that split.
fn planted_ranks(ring: bool, r: usize) -> [usize; 4] {
    if ring {
        let (a, b) = split(r, usize::MAX, usize::MAX);
        [a, b, b, a]
    } else {
        [1, r, r, 1]
    }
}

/// TT-SVD's (TR-SVD's) input: a planted train (ring) of random cores in [−1, 1) plus noise.
fn planted_train<T: Real>(n: usize, r: usize, ring: bool) -> Vec<T> {
    let (ranks, k) = (planted_ranks(ring, r), if ring { Routine::Tr } else { Routine::Tt });
    noisy(&oracle::ring_dense(&[n; 3], &ranks, &oracle::random_cores(&[n; 3], &ranks, seed(n, r, k))), seed(n, r, k) + 1)
}

/// numgpu_?tt_svd's and numgpu_?tr_svd's signature.
type Svd<T> = unsafe fn(&mut Handle, i32, *const i64, *const T, T, *const i64, *mut i64, *mut T, i64, *mut i64) -> numgpu::Result<()>;

/// The extents of HT's parts U1, U2, U3 (N × R), B1 (R × R) and B2 (R × R × R).
fn ht_extents(n: usize, r: usize) -> [usize; 5] {
    [n * r, n * r, n * r, r * r, r * r * r]
}

/// HT's input: the HT tensor of random parts (uniform in [−1, 1)) of ranks (R, R, R, R) plus
/// noise.
fn planted_ht<T: Real>(n: usize, r: usize) -> Vec<T> {
    let s = seed(n, r, Routine::Ht);
    let parts: Vec<Vec<f64>> = ht_extents(n, r).iter().zip(s + 1..).map(|(&len, k)| filled::<f64>(len, k)).collect();
    noisy(&oracle::ht_dense([n; 3], [r; 4], [&parts[0], &parts[1], &parts[2], &parts[3], &parts[4]]), s + 6)
}

/// The CP check's limit: 10·√ε (the fit resolves ‖X − X̂‖ to about √ε·‖X‖ only).
fn fit_tol<T: Real>() -> f64 {
    10.0 * T::EPS.sqrt()
}

/// HT's limit on ‖X − X̂‖/‖X‖ of a planted tensor plus noise: the discarded noise of three
/// projections, and the rounding of Gram matrices whose condition numbers are squares.
fn ht_bound<T: Real>() -> f64 {
    3.0 * NOISE + 1e3 * T::EPS
}

/// CP-ALS's arrays in one [`Mem`]: X, the factors (N × R each, ld N) and λ.
struct CpRun {
    n: usize,
    r: usize,
    x: Buf,
    u: Vec<Buf>,
    lambda: Buf,
}

impl CpRun {
    fn new<T: Real>(mem: Mem, x: &[T], n: usize, r: usize) -> Res<CpRun> {
        let u = (0..3).map(|_| mem.alloc(n * r * size_of::<T>())).collect::<Res<Vec<Buf>>>()?;
        Ok(CpRun { n, r, x: mem.upload(x)?, u, lambda: mem.alloc(r * size_of::<T>())? })
    }

    /// At most `iters` iterations from the seeded random start: (iterations done, fit).
    fn call<T: Real>(&self, h: &mut Handle, iters: i32) -> Res<(i32, f64)> {
        let (dims, ldu) = (cube(self.n), cube(self.n));
        let u: Vec<*mut T> = self.u.iter().map(|b| b.ptr as *mut T).collect();
        let opts = numgpu_cp_options { tol: f64::MIN_POSITIVE, max_iters: iters, init: 0, seed: CP_SEED, absorb: 0 };
        let (mut done, mut fit) = (0, T::zero());
        // SAFETY: X (N³), the factors (N × R) and λ (R) are arrays of one space, the handle's;
        // dims, u and ldu hold 3 entries, and opts, done and fit one, in host memory.
        ng(unsafe { cp_als::<T>(h, 3, dims.as_ptr(), self.x.ptr as *const T, self.r as i64, u.as_ptr(), ldu.as_ptr(), self.lambda.ptr as *mut T, &opts, &mut done, &mut fit) })?;
        Ok((done, fit.into()))
    }

    /// The factors and λ the last call left.
    fn outputs<T: Real>(&self, mem: Mem) -> Res<Vec<T>> {
        let mut v = Vec::new();
        for b in &self.u {
            v.extend(mem.download::<T>(b, self.n * self.r)?);
        }
        v.extend(mem.download::<T>(&self.lambda, self.r)?);
        Ok(v)
    }
}

/// CP-ALS of `x` on one side, twice: the arrays, (iterations, fit) and whether the second call
/// gave the same bits.
fn cp_side<T: Real>(mem: Mem, h: &mut Handle, x: &[T], n: usize, r: usize) -> Res<(CpRun, (i32, f64), bool)> {
    let run = CpRun::new(mem, x, n, r)?;
    let first = run.call::<T>(h, ITERS)?;
    let out = run.outputs::<T>(mem)?;
    let again = run.call::<T>(h, ITERS)?;
    let same = first.0 == again.0 && first.1.to_bits() == again.1.to_bits() && bits(&out) == bits(&run.outputs::<T>(mem)?);
    Ok((run, first, same))
}

/// TR-SVD's rank caps (max_ranks; entry 3 is not read): (R, R, R²), which the planted ring's
/// ranks stay below: its first split R, and its middle rank after the split's change of basis
/// at most a·R in exact arithmetic (a the split's first factor; rounding may add a few). Without caps numgpu sizes its working memory for
/// the largest ranks any input could have, N⁴ elements for the cores (130 GB in single
/// precision at N = 300); TT-SVD's worst case is N³, and it runs without.
fn ring_caps(r: usize) -> [i64; 4] {
    [r as i64, r as i64, (r * r) as i64, r as i64]
}

/// TT-SVD's or TR-SVD's arrays in one [`Mem`]: X, and room for the cores as a first call
/// asked.
struct TrainRun {
    ring: bool,
    r: usize,
    n: usize,
    x: Buf,
    cores: Buf,
    capacity: usize,
}

impl TrainRun {
    /// X uploaded, and the cores' room from a query (capacity 0), which decomposes X once.
    fn new<T: Real>(mem: Mem, h: &mut Handle, x: &[T], n: usize, r: usize, ring: bool) -> Res<TrainRun> {
        let (x, none) = (mem.upload(x)?, Buf { ptr: 0, _dev: None, _host: Vec::new() });
        let mut run = TrainRun { ring, r, n, x, cores: none, capacity: 0 };
        let need = match run.svd::<T>(h)? {
            Err(need) => need,
            Ok(_) => return Err("a query with capacity 0 succeeded".into()),
        };
        (run.cores, run.capacity) = (mem.alloc(need * size_of::<T>())?, need);
        Ok(run)
    }

    /// One call: the ranks r_0 … r_3, or the elements the cores need when the capacity is short.
    fn svd<T: Real>(&self, h: &mut Handle) -> Res<std::result::Result<Vec<usize>, usize>> {
        let dims = cube(self.n);
        let (mut ranks, mut offsets, caps) = ([0i64; 4], [0i64; 4], ring_caps(self.r));
        let (f, caps) = if self.ring { (tr_svd::<T> as Svd<T>, caps.as_ptr()) } else { (tt_svd::<T> as Svd<T>, std::ptr::null()) };
        // SAFETY: X (N³) and the cores (`capacity` elements; NULL when 0) are arrays of one
        // space, the handle's; dims holds 3 entries, caps (or NULL), ranks and offsets 4, in
        // host memory.
        match unsafe { f(h, 3, dims.as_ptr(), self.x.ptr as *const T, T::of(EPS), caps, ranks.as_mut_ptr(), self.cores.ptr as *mut T, self.capacity as i64, offsets.as_mut_ptr()) } {
            Ok(()) => Ok(Ok(ranks.iter().map(|&v| v as usize).collect())),
            Err(e) if e.status == Status::NUMGPU_INSUFFICIENT_CAPACITY => Ok(Err(offsets[3] as usize)),
            Err(e) => Err(e.msg),
        }
    }

    /// Decomposes X: the ranks.
    fn call<T: Real>(&self, h: &mut Handle) -> Res<Vec<usize>> {
        self.svd::<T>(h)?.map_err(|need| format!("the cores need {need} elements, the query said {}", self.capacity))
    }

    /// The cores of `ranks` the last call left.
    fn cores<T: Real>(&self, mem: Mem, ranks: &[usize]) -> Res<Vec<T>> {
        mem.download::<T>(&self.cores, oracle::core_offsets(&[self.n; 3], ranks)[3])
    }

    /// X̂ from the cores of `ranks` the last call left, by numgpu_?tt_reconstruct or
    /// numgpu_?tr_reconstruct.
    fn reconstruct<T: Real>(&self, mem: Mem, h: &mut Handle, ranks: &[usize]) -> Res<Vec<T>> {
        let (dims, numel, r) = (cube(self.n), self.n.pow(3), ranks.iter().map(|&v| v as i64).collect::<Vec<i64>>());
        let y = mem.alloc(numel * size_of::<T>())?;
        let f = if self.ring { tr_reconstruct::<T> } else { tt_reconstruct::<T> };
        // SAFETY: the cores (of these ranks) and Y (N³) are arrays of one space, the handle's;
        // dims holds 3 entries and r 4, in host memory.
        ng(unsafe { f(h, 3, dims.as_ptr(), r.as_ptr(), self.cores.ptr as *const T, y.ptr as *mut T) })?;
        mem.download::<T>(&y, numel)
    }
}

/// TT-SVD or TR-SVD of `x` on one side, twice, and the reconstruction: the arrays, the ranks,
/// whether the second call gave the same bits, and ‖X − X̂‖/‖X‖.
fn train_side<T: Real>(mem: Mem, h: &mut Handle, x: &[T], n: usize, r: usize, ring: bool) -> Res<(TrainRun, Vec<usize>, bool, f64)> {
    let run = TrainRun::new(mem, h, x, n, r, ring)?;
    let ranks = run.call::<T>(h)?;
    let cores = run.cores::<T>(mem, &ranks)?;
    let again = run.call::<T>(h)?;
    let same = again == ranks && bits(&cores) == bits(&run.cores::<T>(mem, &ranks)?);
    let err = oracle::rel_err(&f64s(&run.reconstruct::<T>(mem, h, &ranks)?), &f64s(x));
    Ok((run, ranks, same, err))
}

/// HT's arrays in one [`Mem`]: X and the parts U1, U2, U3, B1, B2.
struct HtRun {
    n: usize,
    r: usize,
    x: Buf,
    parts: Vec<Buf>,
}

impl HtRun {
    fn new<T: Real>(mem: Mem, x: &[T], n: usize, r: usize) -> Res<HtRun> {
        let parts = ht_extents(n, r).iter().map(|&len| mem.alloc(len * size_of::<T>())).collect::<Res<Vec<Buf>>>()?;
        Ok(HtRun { n, r, x: mem.upload(x)?, parts })
    }

    fn ptr<T>(&self, k: usize) -> *mut T {
        self.parts[k].ptr as *mut T
    }

    fn call<T: Real>(&self, h: &mut Handle) -> Res<()> {
        let (dims, ranks) = (cube(self.n), [self.r as i64; 4]);
        // SAFETY: X (N³) and the parts (`ht_extents`) are arrays of one space, the handle's;
        // dims holds 3 entries and ranks 4, in host memory.
        ng(unsafe { ht::<T>(h, dims.as_ptr(), self.x.ptr as *const T, ranks.as_ptr(), self.ptr(0), self.ptr(1), self.ptr(2), self.ptr(3), self.ptr(4)) })
    }

    /// The parts the last call left.
    fn parts<T: Real>(&self, mem: Mem) -> Res<Vec<Vec<T>>> {
        ht_extents(self.n, self.r).iter().zip(&self.parts).map(|(&len, b)| mem.download::<T>(b, len)).collect()
    }

    /// X̂ from the parts the last call left, by numgpu_?ht_reconstruct.
    fn reconstruct<T: Real>(&self, mem: Mem, h: &mut Handle) -> Res<Vec<T>> {
        let (dims, ranks, numel) = (cube(self.n), [self.r as i64; 4], self.n.pow(3));
        let y = mem.alloc(numel * size_of::<T>())?;
        // SAFETY: as in `call`, Y (N³) written.
        ng(unsafe { ht_reconstruct::<T>(h, dims.as_ptr(), ranks.as_ptr(), self.ptr(0), self.ptr(1), self.ptr(2), self.ptr(3), self.ptr(4), y.ptr as *mut T) })?;
        mem.download::<T>(&y, numel)
    }
}

/// HT of `x` on one side, twice, and the reconstruction: the arrays, whether the second call
/// gave the same bits, ‖X − X̂‖/‖X‖, and ‖X̂ − D‖/‖D‖ with D the oracle's dense tensor of the
/// parts (in double).
fn ht_side<T: Real>(mem: Mem, h: &mut Handle, x: &[T], n: usize, r: usize) -> Res<(HtRun, bool, f64, f64)> {
    let run = HtRun::new(mem, x, n, r)?;
    run.call::<T>(h)?;
    let parts = run.parts::<T>(mem)?;
    run.call::<T>(h)?;
    let same = parts.iter().zip(run.parts::<T>(mem)?).all(|(p, q)| bits(p) == bits(&q));
    let y = f64s(&run.reconstruct::<T>(mem, h)?);
    let pv: Vec<Vec<f64>> = parts.iter().map(|p| f64s(p)).collect();
    let dense = oracle::ht_dense([n; 3], [r; 4], [&pv[0], &pv[1], &pv[2], &pv[3], &pv[4]]);
    Ok((run, same, oracle::rel_err(&y, &f64s(x)), oracle::rel_err(&y, &dense)))
}

/// Median milliseconds of `call` on the handle between CUDA events, after the warm-up (the
/// decompositions wait for the device: their wall time).
fn gpu_ms(ctx: &mut Ctx, mut call: impl FnMut(&mut Handle) -> Res<()>) -> Res<f64> {
    let (gpu, h) = (ctx.gpu, &mut *ctx.h);
    Ok(median(&gpu.time(ctx.warmup, ctx.reps, |_| Ok(()), |_| call(h))?))
}

/// The median seconds (host clock) of up to `reps` runs of `f` (no more once they have taken
/// `budget` seconds), and the last run's result.
fn cpu_time<R>(reps: usize, budget: f64, mut f: impl FnMut() -> Res<R>) -> Res<(f64, R)> {
    let (mut times, mut last) = (Vec::new(), None);
    while times.len() < reps.max(1) && (times.is_empty() || times.iter().sum::<f64>() < budget) {
        let mut out = None;
        times.push(secs(|| out = Some(f())));
        last = Some(out.expect("ran")?);
    }
    Ok((median(&times), last.expect("at least one run")))
}

/// The ranks as the table shows them.
fn ranks_text(r: &[usize]) -> String {
    format!("({})", r.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))
}

/// The row's time and the CPU's, `cpu_ms` for the same work (scaled where the CPU ran less).
fn times(row: &mut Row, ours_ms: f64, cpu_ms: f64, cpu_n: usize) {
    row.set("ours_ms", ours_ms);
    row.set("cpu_ms", cpu_ms);
    row.set("cpu_n", cpu_n);
    row.set("ratio_cpu", cpu_ms / ours_ms);
}

/// The check's value and limit, and the second call's bits.
fn checked(row: &mut Row, error: f64, bound: f64, same: bool, what: &str) {
    row.set("error", error);
    row.set("bound", bound);
    row.set("reproducible", same);
    row.check(error <= bound, || format!("{what} {error:.3e} above {bound:.1e}"));
    row.check(same, || "two calls on the same inputs differ bitwise".into());
}

fn body<T: Real>(b: &mut Tensor, ctx: &mut Ctx, k: Routine, n: usize, r: usize, row: &mut Row) -> Res<()> {
    if r > n {
        return Err(format!("R = {r} exceeds N = {n}: every rank is at most N"));
    }
    // X, X̂, the working memory (two remainders, or K and the Gram matrices) and the outputs.
    let need = ((5 * n.pow(3) + 4 * n * n * r) * size_of::<T>() + (1 << 26)) as f64;
    if need > ctx.budget {
        return Err(format!("skipped: needs about {:.1} GB of device memory, the budget is {:.1} GB", need / 1e9, ctx.budget / 1e9));
    }
    match k {
        Routine::Cp => cp_row::<T>(b, ctx, n, r, row),
        Routine::Tt | Routine::Tr => train_row::<T>(b, ctx, k == Routine::Tr, n, r, row),
        Routine::Ht => ht_row::<T>(b, ctx, n, r, row),
    }
}

fn cp_row<T: Real>(b: &mut Tensor, ctx: &mut Ctx, n: usize, r: usize, row: &mut Row) -> Res<()> {
    let (x, dev, p) = (planted_cp::<T>(n, r), Mem::Device(ctx.gpu), T::LETTER);
    let (ours, (iters, fit), same) = cp_side(dev, ctx.h, &x, n, r)?;
    let t = gpu_ms(ctx, |h| ours.call::<T>(h, ITERS).map(drop))?;
    b.stage(Routine::Cp, &x, n, r, json!({"rank": r, "iters": ITERS}), row);
    // The CPU backend from the same start on the same X; its k iterations are compared with ours.
    let (_, k) = b.cpu_plan(p, Routine::Cp, n, r, ITERS);
    let (cpu, mut hc) = (CpRun::new(Mem::Host, &x, n, r)?, Handle::cpu());
    let (secs, (ci, cf)) = cpu_time(b.cpu_reps, b.cpu_secs, || cpu.call::<T>(&mut hc, k))?;
    b.ran(("cpu", p), Routine::Cp, (n, r, ci), secs);
    let (gi, gf) = if k == ITERS { (iters, fit) } else { ours.call::<T>(ctx.h, k)? };
    let per = 1e3 * secs / ci.max(1) as f64;
    row.set("iters", iters);
    row.set("fit", fit);
    row.set("ours_ms_per_iter", t / iters.max(1) as f64);
    row.set("cpu_ms_per_iter", per);
    row.set("cpu_iters", ci);
    row.set("cpu_fit", cf);
    times(row, t, per * iters as f64, n);
    if k < ITERS {
        row.note(format!("the CPU ran {k} of the {ITERS} iterations (the whole would exceed {} s); its time per iteration scaled to ours, the fits compared after {k}", b.cpu_secs));
    }
    if gi != ci {
        row.note(format!("iterations done: ours {gi}, the CPU's {ci} (a fit repeated to the last bit)"));
    }
    checked(row, (gf - cf).abs(), fit_tol::<T>(), same, "|fit − fit_CPU|");
    Ok(())
}

fn train_row<T: Real>(b: &mut Tensor, ctx: &mut Ctx, ring: bool, n: usize, r: usize, row: &mut Row) -> Res<()> {
    let (k, dev, p) = (if ring { Routine::Tr } else { Routine::Tt }, Mem::Device(ctx.gpu), T::LETTER);
    let x = planted_train::<T>(n, r, ring);
    let (ours, ranks, same, err) = train_side(dev, ctx.h, &x, n, r, ring)?;
    let t = gpu_ms(ctx, |h| ours.call::<T>(h).map(drop))?;
    b.stage(k, &x, n, r, json!({"eps": EPS, "ranks": ranks}), row);
    let (nc, _) = b.cpu_plan(p, k, n, r, 1);
    let xc = if nc == n { x } else { planted_train::<T>(nc, r, ring) };
    let mut hc = Handle::cpu();
    let cpu = TrainRun::new(Mem::Host, &mut hc, &xc, nc, r, ring)?;
    let (secs, cpu_ranks) = cpu_time(b.cpu_reps, b.cpu_secs, || cpu.call::<T>(&mut hc))?;
    b.ran(("cpu", p), k, (nc, r, 1), secs);
    row.set("ranks", ranks_text(&ranks));
    row.set("planted_ranks", ranks_text(&planted_ranks(ring, r)));
    row.set("cpu_ranks", ranks_text(&cpu_ranks));
    times(row, t, 1e3 * secs * k.work(n, r) / k.work(nc, r), nc);
    scaled_note(row, b.cpu_secs, n, nc);
    if nc == n && cpu_ranks != ranks {
        row.note(format!("the CPU backend found ranks {}", ranks_text(&cpu_ranks)));
    }
    checked(row, err, EPS, same, "‖X − X̂‖/‖X‖");
    Ok(())
}

fn ht_row<T: Real>(b: &mut Tensor, ctx: &mut Ctx, n: usize, r: usize, row: &mut Row) -> Res<()> {
    let (dev, p) = (Mem::Device(ctx.gpu), T::LETTER);
    let x = planted_ht::<T>(n, r);
    let (ours, same, err, dense) = ht_side(dev, ctx.h, &x, n, r)?;
    let t = gpu_ms(ctx, |h| ours.call::<T>(h))?;
    b.stage(Routine::Ht, &x, n, r, json!({"ranks": vec![r; 4]}), row);
    let (nc, _) = b.cpu_plan(p, Routine::Ht, n, r, 1);
    let xc = if nc == n { x } else { planted_ht::<T>(nc, r) };
    let (cpu, mut hc) = (HtRun::new(Mem::Host, &xc, nc, r)?, Handle::cpu());
    let (secs, ()) = cpu_time(b.cpu_reps, b.cpu_secs, || cpu.call::<T>(&mut hc))?;
    b.ran(("cpu", p), Routine::Ht, (nc, r, 1), secs);
    row.set("ranks", ranks_text(&[r; 4]));
    row.set("dense_error", dense);
    times(row, t, 1e3 * secs * Routine::Ht.work(n, r) / Routine::Ht.work(nc, r), nc);
    scaled_note(row, b.cpu_secs, n, nc);
    let limit = 100.0 * T::EPS;
    row.check(dense <= limit, || format!("numgpu_?ht_reconstruct differs from the dense tensor of the parts by {dense:.3e} (limit {limit:.1e})"));
    checked(row, err, ht_bound::<T>(), same, "‖X − X̂‖/‖X‖");
    Ok(())
}

/// Says so in the row when the CPU ran a smaller N than ours.
fn scaled_note(row: &mut Row, budget: f64, n: usize, nc: usize) {
    if nc < n {
        row.note(format!("the CPU ran a planted tensor of N = {nc} (N = {n} would exceed {budget} s a call), its time scaled by (N / {nc})⁴"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// The defaults, the sizes in ascending order, the options' checks, and the CPU's plan.
    #[test]
    fn settings_and_plan() {
        let t = Tensor::new(&crate::tests::cli(&["--routine", "tensor"])).unwrap();
        assert_eq!((t.sizes.as_slice(), t.ranks.as_slice(), t.cases(&['s', 'd']).len()), (&SIZES[..], &[16][..], 10));
        assert_eq!(t.cases(&['d']).last().map(|c| c.n), Some(DOUBLE_MAX));
        let q = Tensor::new(&crate::tests::cli(&["--quick"])).unwrap();
        assert_eq!((q.sizes.as_slice(), q.cases(&['s', 'd']).len()), (&QUICK[..], 4));
        let q = Tensor::new(&crate::tests::cli(&["--quick", "--sizes", "300,40,40", "--tensor-ranks", "4,8"])).unwrap();
        assert_eq!((q.sizes.as_slice(), q.cases(&['d']).len(), q.cases(&['d'])[1].label.as_str()), (&[40, 300][..], 4, "d N = 40 R = 8"));
        assert!(Tensor::new(&crate::tests::cli(&["--tensor-ranks", "0"])).is_err());
        // Within the budget as asked; CP over it: fewer iterations; the others: N scaled by the
        // fourth root, at least R.
        assert_eq!(plan(Routine::Cp, 1.0, 30.0, 300, 16, 20), (300, 20));
        assert_eq!(plan(Routine::Cp, 3.0, 30.0, 300, 16, 20), (300, 10));
        assert_eq!(plan(Routine::Cp, 100.0, 30.0, 300, 16, 20), (300, 1));
        assert_eq!(plan(Routine::Tt, 30.0, 30.0, 300, 16, 1), (300, 1));
        assert_eq!(plan(Routine::Tt, 480.0, 30.0, 400, 16, 1), (200, 1));
        assert_eq!(plan(Routine::Ht, 1e12, 30.0, 400, 16, 1), (16, 1));
        let mut t = t;
        // 0.03 s at N = 100 (a 3 s budget): 2.43 s at 300; at 1000 the N of 3 s, (1e10)^(1/4).
        assert_eq!(t.cpu_secs, 3.0);
        t.ran(("cpu", 's'), Routine::Tr, (100, 16, 1), 0.03);
        assert_eq!((t.cpu_plan('s', Routine::Tr, 300, 16, 1), t.cpu_plan('s', Routine::Tr, 1000, 16, 1), t.cpu_plan('d', Routine::Tr, 1000, 16, 1)), ((300, 1), (316, 1), (1000, 1)));
        // A peer's prediction: per unit of work (N⁴; N³·R per CP iteration), none before a run.
        t.ran(("explicit", 's'), Routine::Cp, (100, 16, ITERS), 0.2);
        assert_eq!((t.predict("explicit", 's', Routine::Cp, 200, 16), t.predict("cpu", 's', Routine::Tr, 200, 16), t.predict("tensorly", 's', Routine::Cp, 200, 16)), (Some(1.6), Some(0.48), None));
        assert_eq!((planted_ranks(false, 16), planted_ranks(true, 16), planted_ranks(true, 12)), ([1, 16, 16, 1], [4, 4, 4, 4], [3, 4, 4, 3]));
    }

    /// A peer's result in its row: time, ratio, its own values, and notes where its ranks
    /// differ from ours or its error exceeds eps.
    #[test]
    fn peer_columns_and_notes() {
        let mut row = Row::new("s N = 100 R = 16 TT-SVD");
        row.set("routine", Routine::Tt.name());
        row.set("ranks", ranks_text(&[1, 16, 16, 1]));
        peer_columns(&mut row, "explicit", "the explicit-unfold baseline", 10.0, 2.0, &json!({"ms": 10.0, "calls": 3, "ranks": [1, 16, 16, 1], "error": 1e-4}));
        assert_eq!((row.num("ratio_explicit"), row.num("explicit_calls"), row.num("explicit_error"), row.notes()), (Some(5.0), Some(3.0), Some(1e-4), String::new()));
        peer_columns(&mut row, "tensorly", "TensorLy", 4.0, 2.0, &json!({"ms": 4.0, "calls": 1, "ranks": [1, 16, 15, 1], "error": 2e-3}));
        assert_eq!(row.num("ratio_tensorly"), Some(2.0));
        assert_eq!(row.notes(), "TensorLy found ranks (1, 16, 15, 1); TensorLy's error 2.00e-3 exceeds eps");
    }

    /// The peers' plumbing where this machine has no torch (or no CUDA device): X written
    /// and removed again, the rows noted with why, and the peers off for later cases (no file
    /// written); with torch and CUDA, the peers' columns instead.
    #[test]
    fn peers_run_on_staged_inputs_or_say_why_not() {
        let mut t = Tensor::new(&crate::tests::cli(&["--routine", "tensor"])).unwrap();
        let case = Case { precision: 'd', n: 6, kind: 0, label: "d N = 6 R = 2".into() };
        let mut rows: Vec<Row> = Routine::value_variants().iter().map(|k| Row::new(k.name())).collect();
        rows.iter_mut().for_each(|row| row.set("ours_ms", 1.0));
        let x = planted_cp::<f64>(6, 2);
        t.stage(Routine::Cp, &x, 6, 2, json!({"rank": 2, "iters": 3}), &mut rows[0]);
        let path = t.staged[0].path.clone();
        assert_eq!(std::fs::read(&path).unwrap().len(), 6 * 6 * 6 * 8);
        t.run_peers((1, 2), &case, 2, &mut rows);
        assert!(!path.exists() && t.staged.is_empty());
        match &t.peers_off {
            Some(why) => {
                assert!(rows[0].notes().contains(why.as_str()) && rows[1].notes().is_empty(), "{}", rows[0].notes());
                t.stage(Routine::Tt, &x, 6, 2, json!({}), &mut rows[1]);
                assert!(t.staged.is_empty() && rows[1].notes().contains("peer skipped"));
            }
            None => assert!(rows[0].num("explicit_ms").is_some(), "{}", rows[0].notes()),
        }
    }

    /// The bench's inputs meet its own checks on the CPU backend, through the same code the GPU
    /// side runs (host arrays): at N = 40, R = 6 in both precisions, CP-ALS's fits from the same
    /// start within the single-precision limit of each other (a rounding difference far larger
    /// than two backends' summation orders make), TT and TR within eps (the train at its planted
    /// ranks in double), HT within its bounds; every second call the same bits.
    #[test]
    fn inputs_pass_their_checks_on_the_cpu_backend() {
        let (n, r, host) = (40, 6, Mem::Host);
        let mut h = Handle::cpu();
        let (_, (is, fs), ss) = cp_side::<f32>(host, &mut h, &planted_cp(n, r), n, r).unwrap();
        let (_, (id, fd), sd) = cp_side::<f64>(host, &mut h, &planted_cp(n, r), n, r).unwrap();
        assert!(ss && sd && is == ITERS && id == ITERS, "CP-ALS: iterations {is}, {id}, reproducible {ss}, {sd}");
        assert!((fs - fd).abs() <= fit_tol::<f32>() && fd > 0.99, "CP-ALS fits: s {fs}, d {fd}");
        fn each<T: Real>(h: &mut Handle, n: usize, r: usize) {
            for ring in [false, true] {
                let (_, ranks, same, err) = train_side(Mem::Host, h, &planted_train::<T>(n, r, ring), n, r, ring).unwrap();
                assert!(same && err <= EPS, "{} ring {ring}: ranks {ranks:?}, error {err:e}, reproducible {same}", T::LETTER);
                if T::LETTER == 'd' && !ring {
                    assert_eq!(ranks, planted_ranks(false, r), "dtt_svd's ranks");
                }
            }
            let (_, same, err, dense) = ht_side(Mem::Host, h, &planted_ht::<T>(n, r), n, r).unwrap();
            assert!(same && err <= ht_bound::<T>() && dense <= 100.0 * T::EPS, "{}ht: error {err:e}, against the dense tensor {dense:e}, reproducible {same}", T::LETTER);
        }
        each::<f32>(&mut h, n, r);
        each::<f64>(&mut h, n, r);
    }
}

