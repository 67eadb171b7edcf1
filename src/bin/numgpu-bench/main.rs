//! numgpu-bench: numgpu's routines against their peers, accuracy and speed in one run
//! (DESIGN §5; after MAGMA's testers). Built with `--features bench`, which alone links the
//! peers (cuBLAS, cuSPARSE and cuSOLVER through cudarc) and the oracle the results are checked against
//! (`numgpu::testing`). Each routine is a [`bench::Bench`] in its own file (gemm, getrf,
//! geqrf, gtsv, spmv, rkc, sshopm, stebz, jacobi, potrf, expm, life, mttkrp, tensor); for each
//! of its cases it gives rows of numgpu's time and rates, % of the roofline measured in the
//! same run (`roofline`), each peer's time and the ratio, and the checks; `report` writes
//! `<out>/<report>-<device>-<date>` .json, .md and .svg. `gpu` is the device plumbing, `prec`
//! the peers' calls per precision, `python` the runner of the Python peers (expm's and
//! tensor's scripts). The exit status is the number of failed rows.

mod bench;
mod gemm;
mod geqrf;
mod getrf;
mod gpu;
mod gtsv;
mod potrf;
mod prec;
mod python;
mod report;
mod rkc;
mod roofline;
mod spmv;
mod sshopm;
mod stebz;
mod jacobi;
mod expm;
mod life;
mod mttkrp;
mod tensor;

use bench::{Bench, Ctx};
use clap::Parser;
use gpu::Res;
use indicatif::{ProgressBar, ProgressStyle};
use numgpu::{BackendChoice, Handle};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit status when the bench cannot run at all (no CUDA device, no cuBLAS or cuSPARSE, a CUDA
/// error outside a row, files not written) and for a bad command line; 101 stays Rust's panic.
const EXIT_FATAL: u8 = 110;
const EXIT_USAGE: u8 = 111;
/// Failed rows beyond this are still reported as this (exit statuses are 8-bit).
const MAX_FAILURES_STATUS: usize = 100;

#[derive(Parser, Debug)]
#[command(
    name = "numgpu-bench",
    version,
    about = "numgpu's routines against cuBLAS, cuSPARSE, cuSOLVER and OpenBLAS/LAPACK: time, GFLOP/s, GB/s, % of the measured roofline, ratio, error",
    after_help = "Needs an NVIDIA GPU with its driver, cuBLAS (libcublas.so.13), NVRTC (libnvrtc.so.13) and, for gtsv and spmv, cuSPARSE (libcusparse.so.12); the toolkit's lib64 is searched when they are not on LD_LIBRARY_PATH.\n\nThe gtsv sweep on its own: --routine gtsv; its batched forms take their n from --sizes, the single system its orders from --single-sizes, and --max-secs bounds the time spent timing a slow kernel.\n\nThe spmv sweep on its own: --routine spmv; --nnz sizes its generated matrices, --matrices picks some, the Matrix Market files are read from $NUMGPU_MATRICES (else tests/matrices of the source tree, a copy of shared/matrices).\n\nThe rkc sweep on its own: --routine rkc; --systems (system counts), --problems, --cpu-all-max and --cpu-one-max (the CPU peers' system caps).\n\nThe stebz sweep on its own: --routine stebz (needs cuSOLVER, libcusolver.so.12); its batches take their n from --sizes and their size from --stebz-batch, the single matrix its orders from --stebz-orders, and --dense-bytes bounds the dense route's matrices.\n\nThe jacobi sweep on its own: --routine jacobi (needs cuSOLVER); the issue's shapes, their batches divided by --jacobi-shrink.\n\nThe potrf sweep on its own: --routine potrf (needs cuSOLVER, libcusolver.so.12); its n from --sizes, its batches sized to --potrf-bytes of input.\n\nThe expm sweep on its own: --routine expm; --expm-orders (the expm_eig orders M), --expm-branches (its branch lengths), --expm-sizes (the general orders n); its torch peer runs python3 with torch when present.\n\nThe tensor sweep on its own: --routine tensor; --sizes (N of the N×N×N tensors), --tensor-ranks; its GPU peers (the explicit-unfold baseline, TensorLy) run python3 with torch, and tensorly where it imports.\n\nExit status: the number of rows that failed their accuracy or reproducibility check or could not run (at most 100); 110 when the bench could not run at all (no CUDA device, no cuBLAS, ...); 111 for a bad command line; 101 is a panic (a bug)."
)]
pub struct Cli {
    /// Routines to run, comma-separated: gemm, getrf (batched LU with complete pivoting), geqrf (batched QR by Givens rotations), gtsv (tridiagonal solvers), spmv (sparse matrix-vector products), rkc (many independent ODE systems), sshopm (tensor eigenpairs; --sizes are its orders m), stebz (tridiagonal eigenvalues by bisection; --sizes are its batched orders), jacobi (batched Jacobi eigen and singular value decompositions), potrf (batched Cholesky), expm (batched matrix exponentials: expm_eig against the cuBLAS gemmBatched route, expm against torch.linalg.matrix_exp), life (LiFE connectome products and SBBNNLS; --life-sets, --life-iters), mttkrp (MTTKRP of N×N×N tensors, every mode, against the one cuBLAS GEMM each reduces to; --sizes are N, --mttkrp-ranks), tensor (CP-ALS, TT-SVD, TR-SVD and HT of N×N×N tensors against the CPU backend, the explicit-unfold + cuBLAS/cuSOLVER baseline and TensorLy on PyTorch; --sizes are N, --tensor-ranks), or all.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    routine: Vec<String>,
    /// Matrix sizes n (square; gtsv: the order of the batched systems), comma-separated, for every routine run [default: gemm 4,8,16,32,64,128,256, getrf and geqrf 4,8,16,32,64,128, gtsv 64,128,256,512,1024; --quick: 4,32,128, gtsv 64,256,1024].
    #[arg(long, value_delimiter = ',')]
    pub sizes: Option<Vec<usize>>,
    /// Precisions, comma-separated, of s, d, c, z [default: all four; gtsv, spmv and sshopm s, d; rkc d only].
    #[arg(long, value_delimiter = ',')]
    precisions: Option<Vec<char>>,
    /// gtsv, rkc: seconds the timed calls of one measurement may take; fewer than --reps calls (at least one) are timed where one call is slower [default: 2; --quick: 0.5].
    #[arg(long)]
    max_secs: Option<f64>,
    /// Timed calls per measurement, median reported [default: 20; --quick: 5].
    #[arg(long)]
    reps: Option<usize>,
    /// Folder for the .json, .md and .svg results.
    #[arg(long, default_value = "docs/bench")]
    out: PathBuf,
    /// A smoke run: fewer sizes, small batches, few repetitions.
    #[arg(long)]
    pub quick: bool,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    device: i32,
    #[command(flatten)]
    pub gemm: gemm::Args,
    #[command(flatten)]
    pub lu: getrf::Args,
    #[command(flatten)]
    pub gtsv: gtsv::Args,
    #[command(flatten)]
    pub spmv: spmv::Args,
    #[command(flatten)]
    pub rkc: rkc::Args,
    #[command(flatten)]
    pub sshopm: sshopm::Args,
    #[command(flatten)]
    pub stebz: stebz::Args,
    #[command(flatten)]
    pub jacobi: jacobi::Args,
    #[command(flatten)]
    pub potrf: potrf::Args,
    #[command(flatten)]
    pub expm: expm::Args,
    #[command(flatten)]
    pub life: life::Args,
    #[command(flatten)]
    pub mttkrp: mttkrp::Args,
    #[command(flatten)]
    pub tensor: tensor::Args,
}

impl Cli {
    /// --sizes, else `full` or `quick`.
    pub fn sizes_or(&self, full: &[usize], quick: &[usize]) -> Vec<usize> {
        self.sizes.clone().unwrap_or_else(|| if self.quick { quick } else { full }.to_vec())
    }

    /// `v`, else `full` or `quick`.
    pub fn or<T>(&self, v: Option<T>, full: T, quick: T) -> T {
        v.unwrap_or(if self.quick { quick } else { full })
    }

    pub fn max_secs(&self) -> f64 {
        self.or(self.max_secs, 2.0, 0.5)
    }
}

/// Every routine the bench knows, in the order `all` runs them, each from its options.
fn benches(cli: &Cli) -> Res<Vec<Box<dyn Bench>>> {
    Ok(vec![
        Box::new(gemm::Gemm::new(cli)?),
        Box::new(getrf::Getrf::new(cli)?),
        Box::new(geqrf::Geqrf::new(cli)?),
        Box::new(gtsv::Gtsv::new(cli)?),
        Box::new(spmv::Spmv::new(cli)?),
        Box::new(rkc::Rkc::new(cli)?),
        Box::new(sshopm::Sshopm::new(cli)?),
        Box::new(stebz::Stebz::new(cli)?),
        Box::new(jacobi::Jacobi::new(cli)?),
        Box::new(potrf::Potrf::new(cli)?),
        Box::new(expm::Expm::new(cli)?),
        Box::new(life::Life::new(cli)?),
        Box::new(mttkrp::Mttkrp::new(cli)?),
        Box::new(tensor::Tensor::new(cli)?),
    ])
}

/// A line on stderr, `numgpu-bench: ` first; a closed stderr is not an error worth a panic.
pub fn note(msg: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "numgpu-bench: {msg}");
}

/// The run's settings: the routines asked for, in that order, with their precisions, and the
/// common options.
struct Settings {
    runs: Vec<(Box<dyn Bench>, Vec<char>)>,
    reps: usize,
    out: PathBuf,
    quick: bool,
    device: i32,
}

fn settings(cli: Cli) -> Res<Settings> {
    if let Some(n) = cli.sizes.iter().flatten().find(|n| **n == 0 || **n > 8192) {
        return Err(format!("--sizes: {n} is outside 1..=8192"));
    }
    if let Some(p) = cli.precisions.iter().flatten().find(|p| !"sdcz".contains(**p)) {
        return Err(format!("--precisions: {p:?} is not one of s, d, c, z"));
    }
    if !(1e-3..=3600.0).contains(&cli.max_secs()) {
        return Err(format!("--max-secs {}: must be between 0.001 and 3600", cli.max_secs()));
    }
    let reps = cli.or(cli.reps, 20, 5);
    if reps == 0 {
        return Err("--reps must be at least 1".into());
    }
    if reps < 20 && !cli.quick {
        note(format!("note: --reps {reps} is below the 20 runs DESIGN §5 asks for published numbers"));
    }
    let all = benches(&cli)?;
    let names: Vec<&str> = all.iter().map(|b| b.about().name).collect();
    let mut order: Vec<usize> = Vec::new();
    for r in cli.routine.iter().map(|r| r.trim()) {
        let hit: Vec<usize> = (0..names.len()).filter(|&i| r == "all" || names[i] == r).collect();
        if hit.is_empty() {
            return Err(format!("--routine {r}: unknown; known: {} (or all)", names.join(", ")));
        }
        hit.into_iter().for_each(|i| if !order.contains(&i) { order.push(i) });
    }
    let mut runs = Vec::new();
    for (i, b) in all.into_iter().enumerate().filter(|(i, _)| order.contains(i)) {
        let a = b.about();
        let asked = cli.precisions.clone().unwrap_or_else(|| a.default.to_vec());
        let run: Vec<char> = asked.iter().copied().filter(|p| a.precisions.contains(p)).collect();
        if run.len() < asked.len() {
            note(format!("{}: only precisions {} are measured; the others are skipped", a.name, a.precisions.iter().map(char::to_string).collect::<Vec<_>>().join(", ")));
        }
        runs.push((order.iter().position(|&o| o == i).unwrap_or(0), (b, run)));
    }
    runs.sort_by_key(|r| r.0);
    Ok(Settings { runs: runs.into_iter().map(|r| r.1).collect(), reps, out: cli.out, quick: cli.quick, device: cli.device })
}

/// Why there is no CUDA device to bench on, if there is none.
fn cuda_missing(device: i32) -> Option<String> {
    if let Err(e) = numgpu::cuda::driver::driver() {
        return Some(e.msg);
    }
    let n = numgpu::cuda::device_count();
    if n == 0 {
        return Some("the CUDA driver loaded but sees no device".into());
    }
    (device < 0 || device >= n).then(|| format!("--device {device}: {n} CUDA device(s) visible"))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { 0 });
        }
    };
    let s = match settings(cli) {
        Ok(s) => s,
        Err(e) => {
            note(e);
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match run(s) {
        Ok(failures) => ExitCode::from(failures.min(MAX_FAILURES_STATUS) as u8),
        Err(e) => {
            note(e);
            ExitCode::from(EXIT_FATAL)
        }
    }
}

fn run(s: Settings) -> Res<usize> {
    let preloaded = gpu::preload_toolkit_libs();
    if let Some(why) = cuda_missing(s.device) {
        return Err(format!(
            "no CUDA device: {why}.\nnumgpu-bench times numgpu's CUDA kernels against cuBLAS and needs an NVIDIA GPU; without one, `make demo` (the tour) runs every routine on the CPU backend"
        ));
    }
    let lib_missing = |lib: &str| format!("{lib} was not found: put the CUDA toolkit's lib64 on LD_LIBRARY_PATH or set CUDA_HOME");
    if !gpu::cublas_present() {
        return Err(lib_missing("cuBLAS (libcublas.so.13)"));
    }
    let nvrtc = gpu::ng(numgpu::cuda::module::nvrtc_version()).map_err(|e| format!("{e} (or set CUDA_HOME)"))?;
    let g = gpu::Gpu::open(s.device)?;
    let mut h = gpu::ng(Handle::new(BackendChoice::Cuda, s.device))?;
    gpu::ng(h.set_stream(g.stream.cu_stream() as *mut std::ffi::c_void))?;
    let cublas = gpu::Cublas::new(&g)?;
    // cuSPARSE only where a routine compares with it.
    let cusparse = if s.runs.iter().any(|r| r.0.about().cusparse) {
        if !gpu::cusparse_present() {
            return Err(lib_missing("cuSPARSE (libcusparse.so.12)"));
        }
        Some(gpu::Cusparse::new(&g)?)
    } else {
        None
    };
    let meta = report::Meta {
        device: g.dev.name.clone(),
        arch: g.dev.arch_name(),
        sm_count: g.dev.sm_count,
        l2_bytes: g.l2_bytes,
        memory_bytes: g.total_mem,
        date: report::today(),
        numgpu_version: env!("CARGO_PKG_VERSION").into(),
        cuda_driver: g.driver_version.clone(),
        nvrtc: format!("{}.{}", nvrtc.0, nvrtc.1),
        cublas: cublas.version.clone(),
        cusparse: cusparse.as_ref().map(|c| c.version.clone()),
        host_threads: rayon::current_num_threads(),
        reps: s.reps,
        warmup: 2,
        quick: s.quick,
        preloaded,
    };
    let sparse = meta.cusparse.as_ref().map_or(String::new(), |v| format!(", cuSPARSE {v}"));
    note(format!("{} ({}, {} SMs, {:.1} GiB), CUDA driver {}, NVRTC {}, cuBLAS {}{sparse}", meta.device, meta.arch, meta.sm_count, meta.memory_bytes as f64 / 2f64.powi(30), meta.cuda_driver, meta.nvrtc, meta.cublas));
    meta.preloaded.iter().for_each(|p| note(format!("loaded {p}")));
    let roof = roofline::Roofline::measure(&g, 1 << 30, s.quick)?;
    let peaks: Vec<String> = roof.fma_peak_gflops.iter().map(|(p, v)| format!("{p} {:.0}", v.as_f64().unwrap_or(f64::NAN))).collect();
    note(format!("roofline: bandwidth {:.0} GB/s, FMA peak (GFLOP/s) {}", roof.bandwidth_gbs, peaks.join(", ")));

    std::fs::create_dir_all(&s.out).map_err(|e| format!("creating {}: {e}", s.out.display()))?;
    // At most 70 GB of the device, and never more than is free now less 2 GB of headroom.
    let budget = (70e9f64).min(g.free_mem() as f64 - 2e9).max(0.0);
    let mut ctx = Ctx { gpu: &g, h: &mut h, cublas: &cublas, cusparse: cusparse.as_ref(), roof: &roof, budget, reps: s.reps, warmup: meta.warmup };
    let mut failures = 0;
    for (mut b, precisions) in s.runs {
        let rows = sweep(b.as_mut(), &mut ctx, &precisions);
        failures += report::write(&s.out, b.as_ref(), &meta, &roof, &rows)?;
    }
    Ok(failures)
}

/// Every case of `b` with a progress bar, and a line per row where the bar is hidden (no
/// terminal: logs) or the row failed.
fn sweep(b: &mut dyn Bench, ctx: &mut Ctx, precisions: &[char]) -> Vec<report::Row> {
    let cases = b.cases(precisions);
    let style = ProgressStyle::with_template("{spinner} {prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed})").expect("a valid template").progress_chars("=> ");
    let pb = ProgressBar::new(cases.len() as u64).with_style(style).with_prefix(b.about().name);
    let mut rows = Vec::new();
    for case in &cases {
        pb.set_message(case.label.clone());
        for row in b.measure(ctx, case) {
            let line = if row.ok() {
                let shown: Vec<String> = b.about().columns.iter().filter(|c| b.about().log.contains(&c.1)).map(|c| format!("{} {}", c.0, report::cell(row.value(c.1), c.2))).collect();
                format!("{} {}: ok, {}", b.about().name, row.label, shown.join(", "))
            } else {
                format!("FAIL {} {}: {}", b.about().name, row.label, row.notes())
            };
            if pb.is_hidden() {
                note(line);
            } else if !row.ok() {
                pb.println(line);
            }
            rows.push(row);
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    rows
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// The command line `args` (after the program name).
    pub fn cli(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("numgpu-bench").chain(args.iter().copied())).unwrap()
    }

    /// Routines and precisions as asked, and the common options' checks.
    #[test]
    fn common_settings() {
        let s = settings(cli(&["--routine", "spmv,gemm", "--precisions", "z,d"])).unwrap();
        let runs: Vec<(&str, &[char])> = s.runs.iter().map(|(b, p)| (b.about().name, p.as_slice())).collect();
        assert_eq!(runs, [("spmv", &['d'][..]), ("gemm", &['z', 'd'])]);
        let s = settings(cli(&[])).unwrap();
        let runs: Vec<(&str, &[char])> = s.runs.iter().map(|(b, p)| (b.about().name, p.as_slice())).collect();
        assert_eq!(runs, [("gemm", &['s', 'd', 'c', 'z'][..]), ("getrf", &['s', 'd', 'c', 'z']), ("geqrf", &['s', 'd', 'c', 'z']), ("gtsv", &['s', 'd']), ("spmv", &['s', 'd']), ("rkc", &['d']), ("sshopm", &['s', 'd']), ("stebz", &['s', 'd']), ("jacobi", &['s', 'd']), ("potrf", &['s', 'd', 'c', 'z']), ("expm", &['s', 'd']), ("life", &['d']), ("mttkrp", &['s', 'd']), ("tensor", &['s', 'd'])]);
        assert_eq!((s.reps, settings(cli(&["--quick"])).unwrap().reps), (20, 5));
        for bad in [&["--routine", "lu"][..], &["--sizes", "0"], &["--precisions", "q"], &["--reps", "0"], &["--max-secs", "0"]] {
            assert!(settings(cli(bad)).is_err(), "{bad:?} accepted");
        }
        assert!(Cli::try_parse_from(["numgpu-bench", "--forms", "banded"]).is_err());
    }

    /// Every routine's report (JSON, page, plot) is written from made-up rows, one that passed
    /// and one that failed, each column's key set (no GPU needed).
    #[test]
    fn reports_render() {
        let meta = report::Meta { device: "NVIDIA H100 80GB HBM3".into(), date: "2026-11-22".into(), ..Default::default() };
        let roof = roofline::Roofline { copy_bytes: 1 << 30, bandwidth_gbs: 3000.0, fma_peak_gflops: [("s".to_string(), 6e4.into())].into_iter().collect() };
        let out = std::env::temp_dir().join(format!("numgpu-bench-test-{}", std::process::id()));
        std::fs::create_dir_all(&out).unwrap();
        for b in benches(&cli(&[])).unwrap() {
            let mut ok = report::Row::new("made up");
            for (i, c) in b.about().columns.iter().enumerate() {
                ok.set(c.1, if matches!(c.2, report::Fmt::Text) { serde_json::json!(["single", "s", "suite"][i % 3]) } else { serde_json::json!(1.0 + i as f64) });
            }
            let mut bad = ok.clone();
            bad.fail("a failure");
            assert_eq!(report::write(&out, b.as_ref(), &meta, &roof, &[ok, bad]).unwrap(), 1);
            let md = std::fs::read_to_string(report::path(&out, b.about().report, &meta, "md")).unwrap();
            assert!(md.contains(b.about().description) && md.contains("- FAIL made up: a failure"), "{md}");
            let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(report::path(&out, b.about().report, &meta, "json")).unwrap()).unwrap();
            assert_eq!((&json["routine"], &json["failures"], &json["rows"][1]["ok"]), (&serde_json::json!(b.about().report), &serde_json::json!(1), &serde_json::json!(false)));
            assert!(std::fs::read_to_string(report::path(&out, b.about().report, &meta, "svg")).unwrap().contains("<svg"));
        }
        assert_eq!(report::path(std::path::Path::new("docs/bench"), "getrf_fullpivot", &meta, "md"), PathBuf::from("docs/bench/getrf_fullpivot-H100-2026-11-22.md"));
        std::fs::remove_dir_all(&out).unwrap();
    }
}
