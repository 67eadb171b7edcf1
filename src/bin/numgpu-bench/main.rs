//! numgpu-bench: numgpu's routines against their peers, accuracy and speed in one run
//! (DESIGN §5; after MAGMA's testers). Built with `--features bench`, which alone links the
//! peers (cuBLAS and cuSPARSE through cudarc's bindings).
//!
//! For each routine, precision and size it prints one row. gemm: batch, numgpu's time,
//! GFLOP/s, GB/s and % of the roofline measured in the same run, cuBLAS's time and the ratio,
//! the pointer-array ratio, OpenBLAS's rate on the host, and the error against cuBLAS. getrf
//! (`getrf_fullpivot`, complete pivoting): batch, numgpu's time, GB/s and % of the copy
//! bandwidth, cuBLAS `getrfBatched`'s (partial pivoting) time and the ratio, LAPACK `?getc2`'s
//! time over all host cores and on one core and the ratios, and the checks against LAPACK
//! (pivots, LU residual ratio). geqrf (`geqrf_givens`, QR by Givens rotations): the same
//! columns against cuBLAS `geqrfBatched` (Householder) and LAPACK `?geqrf`, and the checks
//! ‖A − Q·R‖, ‖I − Qᴴ·Q‖ and |R| against LAPACK's. gtsv (`gtsv_spike`, tridiagonal
//! solvers): one row per form (single system, strided batch, interleaved batch), size,
//! pivoting mode and class of inputs, with GB/s and % of the copy bandwidth, the cuSPARSE
//! peer's time and the ratio, LAPACK `?gtsv`'s and the ratio, and the backward error of every
//! system. spmv (`csrmv` and `cmrsmv`): one row per matrix of the spec's suite and of
//! shared/matrices and precision, with GB/s and % of the copy bandwidth of both products and
//! of cuSPARSE `cusparseSpMV` (default algorithm and CSR_ALG2), the ratios, and each result's
//! error against a reference; then the geometric means over the suite. rkc (`rkc_integrate`,
//! many independent ODE systems): one row per problem (the Brusselator at 32 and 64
//! equations, a user-written CUDA source) and system count, with systems/s and RHS
//! evaluations/s, the CPU backend's rates on all host cores and on one core (on at most
//! --cpu-all-max / --cpu-one-max systems) and the ratios, and the difference from the CPU's
//! solutions. The exit status is the number of failed rows. It writes
//! `<out>/<routine>-<device>-<date>` .json, .md and .svg (routine `gemm`, `getrf_fullpivot`,
//! `geqrf_givens`, `gtsv_spike`, `spmv`, `rkc`, `sshopm`: tensor eigenpairs against the CPU
//! backend on all host cores and on one core).
//!
//! Modules: `gpu` (libraries, device, stream, events, buffers, cuBLAS and cuSPARSE handles),
//! `prec` (the four precisions, their cuBLAS and cuSPARSE calls and LAPACK `?geqrf`),
//! `roofline` (bandwidth and FMA peak), `gemm`, `getrf`, `geqrf`, `gtsv`, `spmv` and `rkc`
//! (their rows), `report` (tables, JSON, SVG); `mtx` (Matrix Market files, shared with the
//! integration tests).

mod gemm;
mod geqrf;
mod getrf;
mod gpu;
#[path = "../../../tests/integration/mtx.rs"]
mod mtx;
mod gtsv;
mod prec;
mod report;
mod rkc;
mod roofline;
mod spmv;
mod sshopm;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use numgpu::{BackendChoice, Complex32, Complex64, Handle};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Routines the bench knows.
const ROUTINES: &[&str] = &["gemm", "getrf", "geqrf", "gtsv", "spmv", "rkc", "sshopm"];
/// Exit status when the bench cannot run at all (no CUDA device, no cuBLAS or cuSPARSE, a CUDA error
/// outside a row, files not written) and for a bad command line; 101 stays Rust's panic.
const EXIT_FATAL: u8 = 110;
const EXIT_USAGE: u8 = 111;
/// Failed rows beyond this are still reported as this (exit statuses are 8-bit).
const MAX_FAILURES_STATUS: usize = 100;

#[derive(Parser, Debug)]
#[command(
    name = "numgpu-bench",
    version,
    about = "numgpu's routines against cuBLAS, cuSPARSE and OpenBLAS/LAPACK: time, GFLOP/s, GB/s, % of the measured roofline, ratio, error",
    after_help = "Needs an NVIDIA GPU with its driver, cuBLAS (libcublas.so.13), NVRTC (libnvrtc.so.13) and, for gtsv and spmv, cuSPARSE (libcusparse.so.12); the toolkit's lib64 is searched when they are not on LD_LIBRARY_PATH.\n\nThe gtsv sweep on its own: --routine gtsv; its batched forms take their n from --sizes, the single system its orders from --single-sizes, and --max-secs bounds the time spent timing a slow kernel.\n\nThe spmv sweep on its own: --routine spmv; --nnz sizes its generated matrices, --matrices picks some, the Matrix Market files are read from $NUMGPU_MATRICES (else tests/matrices of the source tree, a copy of shared/matrices).\n\nThe rkc sweep on its own: --routine rkc; --systems (system counts), --problems, --cpu-all-max and --cpu-one-max (the CPU peers' system caps).\n\nExit status: the number of rows that failed their accuracy or reproducibility check or could not run (at most 100); 110 when the bench could not run at all (no CUDA device, no cuBLAS, ...); 111 for a bad command line; 101 is a panic (a bug)."
)]
struct Cli {
    /// Routines to run, comma-separated: gemm, getrf (batched LU with complete pivoting), geqrf (batched QR by Givens rotations), gtsv (tridiagonal solvers), spmv (sparse matrix-vector products), rkc (many independent ODE systems), sshopm (tensor eigenpairs; --sizes are its orders m), or all.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    routine: Vec<String>,
    /// Matrix sizes n (square; gtsv: the order of the batched systems), comma-separated, for every routine run [default: gemm 4,8,16,32,64,128,256, getrf and geqrf 4,8,16,32,64,128, gtsv 64,128,256,512,1024; --quick: 4,32,128, gtsv 64,256,1024].
    #[arg(long, value_delimiter = ',')]
    sizes: Option<Vec<usize>>,
    /// gtsv: orders of the single system, comma-separated [default: 65536,131072,…,33554432 (2^16 … 2^25); --quick: 65536,262144,1048576].
    #[arg(long, value_delimiter = ',')]
    single_sizes: Option<Vec<usize>>,
    /// gtsv: forms, comma-separated, of single, strided, interleaved [default: all three].
    #[arg(long, value_delimiter = ',')]
    forms: Option<Vec<String>>,
    /// gtsv: pivoting modes, comma-separated, of diag, nopivot [default: both].
    #[arg(long, value_delimiter = ',')]
    modes: Option<Vec<String>>,
    /// gtsv: classes of inputs, comma-separated, of dominant (random, strictly diagonally dominant: every mode and peer), random (needs pivoting: diag rows and pivoting peers only) [default: both].
    #[arg(long, value_delimiter = ',')]
    inputs: Option<Vec<String>>,
    /// gtsv: bytes one batched call moves (5·n·elem per system); the batch is sized from it [default: 268435456 (256 MiB); --quick: 33554432].
    #[arg(long)]
    batch_bytes: Option<f64>,
    /// gtsv: seconds the timed calls of one measurement may take; fewer than --reps calls (at least one) are timed where one call is slower [default: 2; --quick: 0.5].
    #[arg(long)]
    max_secs: Option<f64>,
    /// rkc: systems per call, comma-separated [default: 1000,10000,100000,1000000; --quick: 1000,10000,100000].
    #[arg(long, value_delimiter = ',')]
    systems: Option<Vec<usize>>,
    /// rkc: problems, comma-separated, of bruss32, bruss64 (the built-in Brusselator with 32 and 64 equations), user64 (a user-written CUDA source, a chain of 64 coupled phase oscillators) [default: all three].
    #[arg(long, value_delimiter = ',')]
    problems: Option<Vec<String>>,
    /// rkc: most systems the CPU backend integrates on all host cores (rates are compared) [default: 100000; --quick: 10000].
    #[arg(long)]
    cpu_all_max: Option<usize>,
    /// rkc: most systems the CPU backend integrates on one core [default: 10000; --quick: 1000].
    #[arg(long)]
    cpu_one_max: Option<usize>,
    /// sshopm: tensors per call [default: 1000000; --quick: 10000].
    #[arg(long)]
    tensors: Option<usize>,
    /// sshopm: random starts per tensor [default: 128].
    #[arg(long)]
    starts: Option<usize>,
    /// Precisions, comma-separated, of s, d, c, z [default: all four; gtsv, spmv and sshopm s, d; rkc d only].
    #[arg(long, value_delimiter = ',')]
    precisions: Option<Vec<char>>,
    /// spmv: entries of every generated matrix of the suite [default: the spec's sizes, 28672000 for the 7-point stencil (160³), 27000000 for the 27-point one (100³), 20000000 for the others; --quick: 2000000].
    #[arg(long)]
    nnz: Option<usize>,
    /// spmv: the matrices to run, comma-separated, by name: the suite's (stencil2d-5pt, stencil3d-7pt, stencil3d-27pt, fem-like, short-rows, power-law, dense-rows, each also with -perm) and the files of shared/matrices without .mtx [default: all].
    #[arg(long, value_delimiter = ',')]
    matrices: Option<Vec<String>>,
    /// gemm: bytes of A + B + C of one call; the batch is sized from it [default: 1e9; --quick: 6.4e7].
    #[arg(long)]
    target_bytes: Option<f64>,
    /// getrf, geqrf: matrices per call, fewer where device memory holds fewer [default: 100000; --quick: 10000].
    #[arg(long)]
    batch: Option<usize>,
    /// Timed calls per measurement, median reported [default: 20; --quick: 5].
    #[arg(long)]
    reps: Option<usize>,
    /// Folder for the .json, .md and .svg results.
    #[arg(long, default_value = "docs/bench")]
    out: PathBuf,
    /// A smoke run: fewer sizes, small batches, few repetitions.
    #[arg(long)]
    quick: bool,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    device: i32,
}

/// A line on stderr, `numgpu-bench: ` first; a closed stderr is not an error worth a panic.
fn note(msg: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "numgpu-bench: {msg}");
}

/// The run's settings once the defaults are resolved.
struct Settings {
    routines: Vec<&'static str>,
    /// The sizes asked for; None: each routine's default.
    sizes: Option<Vec<usize>>,
    /// The precisions asked for; None: each routine's default.
    precisions: Option<Vec<char>>,
    cfg: gemm::Config,
    /// The batched factorisations' settings (getrf and geqrf).
    getrf_cfg: getrf::Config,
    gtsv_cfg: gtsv::Config,
    sshopm_cfg: sshopm::Config,
    rkc_cfg: rkc::Config,
    /// rkc: the system counts.
    systems: Vec<usize>,
    /// gtsv: the single system's orders, and the forms run.
    single_sizes: Vec<usize>,
    forms: Vec<gtsv::Form>,
    spmv_cfg: spmv::Config,
    out: PathBuf,
    quick: bool,
    device: i32,
}

fn settings(cli: Cli) -> Result<Settings, String> {
    let q = cli.quick;
    let mut routines = Vec::new();
    for r in &cli.routine {
        match r.trim() {
            "all" => routines.extend_from_slice(ROUTINES),
            r => match ROUTINES.iter().find(|k| **k == r) {
                Some(k) => routines.push(*k),
                None => return Err(format!("--routine {r}: unknown; known: {} (or all)", ROUTINES.join(", "))),
            },
        }
    }
    routines.dedup();
    let sizes = cli.sizes;
    if let Some(n) = sizes.iter().flatten().find(|n| **n == 0 || **n > 8192) {
        return Err(format!("--sizes: {n} is outside 1..=8192"));
    }
    let precisions = cli.precisions;
    if let Some(p) = precisions.iter().flatten().find(|p| !"sdcz".contains(**p)) {
        return Err(format!("--precisions: {p:?} is not one of s, d, c, z"));
    }
    // cuSPARSE needs n >= 3; LAPACK and cuSPARSE take 32-bit sizes.
    let single_sizes = cli.single_sizes.unwrap_or_else(|| if q { vec![1 << 16, 1 << 18, 1 << 20] } else { (16..=25).map(|k| 1 << k).collect() });
    if let Some(n) = single_sizes.iter().find(|n| !(3..=1 << 30).contains(*n)) {
        return Err(format!("--single-sizes: {n} is outside 3..=2^30"));
    }
    let forms = gtsv::parse_list("--forms", cli.forms)?;
    let modes = gtsv::parse_list("--modes", cli.modes)?;
    let inputs = gtsv::parse_list("--inputs", cli.inputs)?;
    let batch_bytes = cli.batch_bytes.unwrap_or(if q { (32u64 << 20) as f64 } else { (256u64 << 20) as f64 });
    if !(1e3..=32e9).contains(&batch_bytes) {
        return Err(format!("--batch-bytes {batch_bytes:e}: must be between 1e3 and 3.2e10"));
    }
    let max_secs = cli.max_secs.unwrap_or(if q { 0.5 } else { 2.0 });
    if !(1e-3..=3600.0).contains(&max_secs) {
        return Err(format!("--max-secs {max_secs}: must be between 0.001 and 3600"));
    }
    // Enough for every class's generator; few enough for int32 offsets with CMRS's padding.
    if let Some(nnz) = cli.nnz.filter(|n| !(1000..=1 << 28).contains(n)) {
        return Err(format!("--nnz {nnz}: must be between 1000 and 2^28"));
    }
    let only = cli.matrices.unwrap_or_default().iter().map(|m| m.trim().to_string()).collect::<Vec<_>>();
    if !only.is_empty() {
        let mut known = spmv::suite_names();
        known.extend(mtx::shared_matrices().unwrap_or_default().iter().map(|f| spmv::file_name(f)));
        if let Some(m) = only.iter().find(|m| !known.contains(m)) {
            return Err(format!("--matrices {m}: unknown; known: {}", known.join(", ")));
        }
    }
    let target_bytes = cli.target_bytes.unwrap_or(if q { 64e6 } else { 1e9 });
    if !(1e3..=32e9).contains(&target_bytes) {
        return Err(format!("--target-bytes {target_bytes:e}: must be between 1e3 and 3.2e10"));
    }
    let tensors = cli.tensors.unwrap_or(if q { 10_000 } else { 1_000_000 });
    let starts = cli.starts.unwrap_or(128);
    if tensors == 0 || starts == 0 {
        return Err("--tensors and --starts must be at least 1".into());
    }
    let reps = cli.reps.unwrap_or(if q { 5 } else { 20 });
    if reps == 0 {
        return Err("--reps must be at least 1".into());
    }
    let batch = cli.batch.unwrap_or(if q { 10_000 } else { 100_000 });
    if !(1..=i32::MAX as usize).contains(&batch) {
        return Err(format!("--batch {batch}: must be between 1 and {}", i32::MAX));
    }
    let systems = cli.systems.unwrap_or_else(|| if q { vec![1000, 10_000, 100_000] } else { vec![1000, 10_000, 100_000, 1_000_000] });
    if let Some(n) = systems.iter().find(|n| !(1..=100_000_000).contains(*n)) {
        return Err(format!("--systems: {n} is outside 1..=10^8"));
    }
    let workloads = gtsv::parse_list("--problems", cli.problems)?;
    let cpu_all_max = cli.cpu_all_max.unwrap_or(if q { 10_000 } else { 100_000 }).max(1);
    let cpu_one_max = cli.cpu_one_max.unwrap_or(if q { 1000 } else { 10_000 }).max(1);
    if reps < 20 && !q {
        note(format!("note: --reps {reps} is below the 20 runs DESIGN §5 asks for published numbers"));
    }
    Ok(Settings {
        routines,
        sizes,
        precisions,
        cfg: gemm::Config {
            target_bytes,
            reps,
            warmup: 2,
            cpu_flops: if q { 2e8 } else { 2e9 },
            cpu_secs: if q { 0.02 } else { 0.1 },
            cpu_reps: if q { 1 } else { 3 },
            mem_budget: 0.0, // set once the device is known
            tol: 30.0,
        },
        getrf_cfg: getrf::Config {
            batch,
            reps,
            warmup: 2,
            cpu_secs_all: if q { 0.1 } else { 1.0 },
            cpu_secs_one: if q { 0.05 } else { 0.3 },
            cpu_reps: if q { 1 } else { 3 },
            mem_budget: 0.0, // set once the device is known
            tol: 30.0,
            check_work: if q { 1e7 } else { 5e7 },
        },
        gtsv_cfg: gtsv::Config {
            reps,
            batch_bytes,
            max_secs,
            cpu_secs: if q { 0.05 } else { 0.2 },
            cpu_reps: if q { 1 } else { 3 },
            mem_budget: 0.0, // set once the device is known
            tol: 30.0,
            modes,
            inputs,
        },
        sshopm_cfg: sshopm::Config {
            tensors,
            starts,
            reps,
            warmup: 2,
            cpu_secs_all: if q { 0.2 } else { 1.0 },
            cpu_secs_one: if q { 0.2 } else { 1.0 },
            cpu_reps: if q { 1 } else { 3 },
            mem_budget: 0.0, // set once the device is known
        },
        rkc_cfg: rkc::Config { reps, max_secs, cpu_all_max, cpu_one_max, cpu_reps: if q { 1 } else { 3 }, workloads },
        systems,
        single_sizes,
        forms,
        spmv_cfg: spmv::Config {
            reps,
            warmup: 2,
            nnz: cli.nnz,
            quick: q,
            only,
            mem_budget: 0.0, // set once the device is known
        },
        out: cli.out,
        quick: q,
        device: cli.device,
    })
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
    if device < 0 || device >= n {
        return Some(format!("--device {device}: {n} CUDA device(s) visible"));
    }
    None
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

fn run(mut s: Settings) -> Result<usize, String> {
    let preloaded = gpu::preload_toolkit_libs();
    if let Some(why) = cuda_missing(s.device) {
        return Err(format!(
            "no CUDA device: {why}.\nnumgpu-bench times numgpu's CUDA kernels against cuBLAS and needs an NVIDIA GPU; without one, `cargo run --release --example tour` runs every routine on the CPU backend"
        ));
    }
    if !gpu::cublas_present() {
        return Err("cuBLAS (libcublas.so.13) was not found: put the CUDA toolkit's lib64 on LD_LIBRARY_PATH or set CUDA_HOME".into());
    }
    let nvrtc = gpu::ng(numgpu::cuda::module::nvrtc_version()).map_err(|e| format!("{e} (or set CUDA_HOME)"))?;

    let g = gpu::Gpu::open(s.device)?;
    let mut h = gpu::ng(Handle::new(BackendChoice::Cuda, s.device))?;
    gpu::ng(h.set_stream(g.stream as *mut std::ffi::c_void))?;
    let cublas = gpu::Cublas::new(&g)?;
    // cuSPARSE only where a routine compares with it.
    let cusparse = if s.routines.contains(&"gtsv") || s.routines.contains(&"spmv") {
        if !gpu::cusparse_present() {
            return Err("cuSPARSE (libcusparse.so.12) was not found: put the CUDA toolkit's lib64 on LD_LIBRARY_PATH or set CUDA_HOME".into());
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
        cuda_driver: format!("{}.{}", g.driver_version.0, g.driver_version.1),
        nvrtc: format!("{}.{}", nvrtc.0, nvrtc.1),
        cublas: cublas.version.clone(),
        cusparse: cusparse.as_ref().map(|c| c.version.clone()),
        host_threads: rayon::current_num_threads(),
        target_bytes: s.cfg.target_bytes,
        reps: s.cfg.reps,
        warmup: s.cfg.warmup,
        quick: s.quick,
        preloaded,
    };
    note(format!(
        "{} ({}, {} SMs, {:.1} GiB), CUDA driver {}, NVRTC {}, cuBLAS {}{}",
        meta.device,
        meta.arch,
        meta.sm_count,
        meta.memory_bytes as f64 / (1u64 << 30) as f64,
        meta.cuda_driver,
        meta.nvrtc,
        meta.cublas,
        meta.cusparse.as_ref().map_or(String::new(), |v| format!(", cuSPARSE {v}"))
    ));
    for p in &meta.preloaded {
        note(format!("loaded {p}"));
    }

    // The roofline of this run.
    let roof = roofline::Roofline::measure(&g, 1 << 30, s.quick)?;
    let peaks: Vec<String> = roof.fma_peak_gflops.iter().map(|(p, v)| format!("{p} {v:.0}")).collect();
    note(format!("roofline: bandwidth {:.0} GB/s, FMA peak (GFLOP/s) {}", roof.bandwidth_gbs, peaks.join(", ")));

    // At most 70 GB of the device, and never more than is free now less 2 GB of headroom.
    s.cfg.mem_budget = (70e9f64).min(g.free_mem() as f64 - 2e9).max(0.0);
    s.getrf_cfg.mem_budget = s.cfg.mem_budget;
    s.sshopm_cfg.mem_budget = s.cfg.mem_budget;
    s.spmv_cfg.mem_budget = s.cfg.mem_budget;
    s.gtsv_cfg.mem_budget = s.cfg.mem_budget;

    std::fs::create_dir_all(&s.out).map_err(|e| format!("creating {}: {e}", s.out.display()))?;
    let mut failures = 0;
    for routine in &s.routines {
        let sizes = s.sizes.clone().unwrap_or_else(|| default_sizes(routine, s.quick));
        let precisions = s.precisions.clone().unwrap_or_else(|| default_precisions(routine));
        failures += match *routine {
            "gemm" => {
                let rows = sweep(routine, &precisions, &sizes, |p, n| match p {
                    's' => vec![gemm::run_row::<f32>(&g, &cublas, &mut h, &roof, &s.cfg, n)],
                    'd' => vec![gemm::run_row::<f64>(&g, &cublas, &mut h, &roof, &s.cfg, n)],
                    'c' => vec![gemm::run_row::<Complex32>(&g, &cublas, &mut h, &roof, &s.cfg, n)],
                    _ => vec![gemm::run_row::<Complex64>(&g, &cublas, &mut h, &roof, &s.cfg, n)],
                });
                let rep = report::Report {
                    routine: "gemm",
                    description: "Batched GEMM, square n, C_i = 1·A_i·B_i + 0.5·C_i, nonzero random data: numgpu_?gemm_batched_strided against cublas?gemmStridedBatched, and the pointer-array forms (numgpu_?gemm_batched, cublas?gemmBatched), on the same device buffers and stream.",
                    meta: &meta,
                    roofline: &roof,
                    tolerance: s.cfg.tol,
                    failures: rows.iter().filter(|r| !r.ok).count(),
                    batch: None,
                    rows: &rows,
                };
                write_report(&s.out, &rep, report::markdown, report::svg)?
            }
            "geqrf" => {
                let c = &s.getrf_cfg;
                let rows = sweep(routine, &precisions, &sizes, |p, n| match p {
                    's' => vec![geqrf::run_row::<f32>(&g, &cublas, &mut h, &roof, c, n)],
                    'd' => vec![geqrf::run_row::<f64>(&g, &cublas, &mut h, &roof, c, n)],
                    'c' => vec![geqrf::run_row::<Complex32>(&g, &cublas, &mut h, &roof, c, n)],
                    _ => vec![geqrf::run_row::<Complex64>(&g, &cublas, &mut h, &roof, c, n)],
                });
                let rep = report::Report {
                    routine: "geqrf_givens",
                    description: "Batched QR by Givens rotations (Sameh–Kuck order; R and the sines in A, the cosines in CS), square n, nonzero random data: numgpu_?geqrf_givens_batched_strided against cublas?geqrfBatched (Householder, pointer-array form) on the same device buffers and stream, and LAPACK ?geqrf on the host over all cores and on one core.",
                    meta: &meta,
                    roofline: &roof,
                    tolerance: c.tol,
                    failures: rows.iter().filter(|r| !r.ok).count(),
                    batch: Some(c.batch),
                    rows: &rows,
                };
                write_report(&s.out, &rep, report::markdown_geqrf, report::svg_geqrf)?
            }
            "gtsv" => {
                let (c, sp) = (&s.gtsv_cfg, cusparse.as_ref().expect("created above when gtsv runs"));
                let mut rows = Vec::new();
                for &form in &s.forms {
                    let sizes = if form == gtsv::Form::Single { &s.single_sizes } else { &sizes };
                    rows.extend(sweep(&format!("gtsv {}", gtsv::Named::name(form)), &precisions, sizes, |p, n| match p {
                        's' => gtsv::run_case::<f32>(&g, sp, &mut h, &roof, c, form, n),
                        'd' => gtsv::run_case::<f64>(&g, sp, &mut h, &roof, c, form, n),
                        'c' => gtsv::run_case::<Complex32>(&g, sp, &mut h, &roof, c, form, n),
                        _ => gtsv::run_case::<Complex64>(&g, sp, &mut h, &roof, c, form, n),
                    }));
                }
                let rep = report::Report {
                    routine: "gtsv_spike",
                    description: "Tridiagonal solvers, one right-hand side per system, random systems (strictly diagonally dominant, and for the diagonal-pivoting rows also ones that need pivoting): numgpu_?gtsv_spike (one system) against cusparse?gtsv2 (diagonal-pivoting rows) and cusparse?gtsv2_nopivot (no-pivot rows); numgpu_?gtsv_batched_strided against cusparse?gtsv2StridedBatch (which does not pivot); numgpu_?gtsv_batched_interleaved against the fastest of cusparse?gtsvInterleavedBatch's three algorithms; all on the same device buffers and stream; and LAPACK ?gtsv on the host (one core for one system, all cores over a batch).",
                    meta: &meta,
                    roofline: &roof,
                    tolerance: c.tol,
                    failures: rows.iter().filter(|r| !r.ok).count(),
                    batch: None,
                    rows: &rows,
                };
                write_report(&s.out, &rep, report::markdown_gtsv, report::svg_gtsv)?
            }
            "spmv" => {
                let sp = cusparse.as_ref().expect("created above when spmv runs");
                let ctx = spmv::Ctx { gpu: &g, sp, roof: &roof, cfg: &s.spmv_cfg };
                let rows = spmv_sweep(&ctx, &mut h, &precisions);
                let summary = spmv::summarise(&rows);
                let rep = report::Report {
                    routine: "spmv",
                    description: "Sparse matrix–vector products y = A·x (beta = 0) over the spec's suite (stencils, FEM-like, short random, power-law and dense-ish rows, natural and permuted order) and the files of shared/matrices: numgpu_?csrmv (op N) on the CSR arrays and numgpu_?cmrsmv on the CMRS matrix numgpu_?cmrs_create builds from them, against cusparseSpMV on the same CSR arrays, x and y (CUSPARSE_SPMV_ALG_DEFAULT, which is CSR_ALG1 for CSR, and CUSPARSE_SPMV_CSR_ALG2), on one stream.",
                    meta: &meta,
                    roofline: &roof,
                    tolerance: 1.0,
                    failures: rows.iter().filter(|r| !r.ok).count(),
                    batch: None,
                    rows: &rows,
                };
                let json = report::SpmvJson { report: &rep, summary: &summary };
                write_report_json(&s.out, &rep, &json, |r| report::markdown_spmv(r, &summary), report::svg_spmv)?
            }
            "sshopm" => {
                let c = &s.sshopm_cfg;
                let rows = sweep(routine, &precisions, &sizes, |p, m| match p {
                    's' => vec![sshopm::run_row::<f32>(&g, &mut h, &roof, c, m)],
                    'd' => vec![sshopm::run_row::<f64>(&g, &mut h, &roof, c, m)],
                    _ => Vec::new(),
                });
                let rep = report::Report {
                    routine: "sshopm",
                    description: "Tensor eigenpairs by SS-HOPM (numgpu_sshopm / numgpu_dsshopm): 10^6 diffusion-MRI-like symmetric tensors (n = 3, orders m) × 128 random starts to convergence, against numgpu's CPU backend in the same run on all host cores and on one core (on a subset of the tensors, per-tensor time scaled to the whole batch).",
                    meta: &meta,
                    roofline: &roof,
                    tolerance: 0.0,
                    failures: rows.iter().filter(|r| !r.ok).count(),
                    batch: Some(c.tensors),
                    rows: &rows,
                };
                write_report(&s.out, &rep, sshopm::markdown, sshopm::svg)?
            }
            "rkc" => {
                let c = &s.rkc_cfg;
                let mut rows = Vec::new();
                for &w in &c.workloads {
                    rows.extend(sweep(&format!("rkc {}", gtsv::Named::name(w)), &['d'], &s.systems, |_, n| vec![rkc::run_row(&g, &mut h, c, w, n)]));
                }
                let rep = report::Report {
                    routine: "rkc",
                    description: "Many independent ODE systems: numgpu_rkc_integrate (RKC, one GPU thread per system) on the built-in Brusselator (32 and 64 equations) and on a user-written CUDA source of similar cost (a chain of 64 coupled phase oscillators), against numgpu's CPU backend (the same integrator in Rust, rayon over the systems) on all host cores and on one core in the same run.",
                    meta: &meta,
                    roofline: &roof,
                    tolerance: 100.0,
                    failures: rows.iter().filter(|r| !r.ok).count(),
                    batch: None,
                    rows: &rows,
                };
                write_report(&s.out, &rep, report::markdown_rkc, report::svg_rkc)?
            }
            _ => {
                let c = &s.getrf_cfg;
                let rows = sweep(routine, &precisions, &sizes, |p, n| match p {
                    's' => vec![getrf::run_row::<f32>(&g, &cublas, &mut h, &roof, c, n)],
                    'd' => vec![getrf::run_row::<f64>(&g, &cublas, &mut h, &roof, c, n)],
                    'c' => vec![getrf::run_row::<Complex32>(&g, &cublas, &mut h, &roof, c, n)],
                    _ => vec![getrf::run_row::<Complex64>(&g, &cublas, &mut h, &roof, c, n)],
                });
                let rep = report::Report {
                    routine: "getrf_fullpivot",
                    description: "Batched LU with complete pivoting (LAPACK ?getc2 semantics), square n, nonzero random data: numgpu_?getrf_batched_fullpivot_strided (mode GETC2) against cublas?getrfBatched (partial pivoting, pointer-array form) on the same device buffers and stream, and LAPACK ?getc2 on the host over all cores and on one core.",
                    meta: &meta,
                    roofline: &roof,
                    tolerance: c.tol,
                    failures: rows.iter().filter(|r| !r.ok).count(),
                    batch: Some(c.batch),
                    rows: &rows,
                };
                write_report(&s.out, &rep, report::markdown_getrf, report::svg_getrf)?
            }
        };
    }
    Ok(failures)
}

/// Each routine's sizes when --sizes is not given (gtsv: the batched forms' orders).
fn default_sizes(routine: &str, quick: bool) -> Vec<usize> {
    match (routine, quick) {
        // sshopm: the orders m of the headline (n = 3).
        ("sshopm", _) => vec![4, 6],
        ("gtsv", true) => vec![64, 256, 1024],
        ("gtsv", false) => vec![64, 128, 256, 512, 1024],
        (_, true) => vec![4, 32, 128],
        ("getrf" | "geqrf", false) => vec![4, 8, 16, 32, 64, 128],
        _ => vec![4, 8, 16, 32, 64, 128, 256],
    }
}

/// Each routine's precisions when --precisions is not given.
fn default_precisions(routine: &str) -> Vec<char> {
    match routine {
        "gtsv" | "sshopm" => vec!['s', 'd'],
        "spmv" => vec!['s', 'd'],
        "rkc" => vec!['d'],
        _ => vec!['s', 'd', 'c', 'z'],
    }
}

/// A progress bar of `total` steps named `prefix`, in the bench's style.
fn progress_bar(prefix: &str, total: u64) -> ProgressBar {
    let pb = ProgressBar::new(total).with_style(ProgressStyle::with_template("{spinner} {prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed})").unwrap().progress_chars("=> "));
    pb.set_prefix(prefix.to_string());
    pb
}

/// The spmv sweep in `precisions` (its real ones: CMRS has no complex form) with a progress
/// bar and a line per row.
fn spmv_sweep(ctx: &spmv::Ctx, h: &mut Handle, precisions: &[char]) -> Vec<spmv::Row> {
    let real: Vec<char> = precisions.iter().copied().filter(|p| "sd".contains(*p)).collect();
    if real.len() < precisions.len() {
        note("spmv: only precisions s and d are measured (CMRS is real); the others are skipped");
    }
    if real.is_empty() {
        return Vec::new();
    }
    let files = mtx::shared_matrices().unwrap_or_default();
    let pb = progress_bar("spmv", spmv::planned(ctx.cfg, &files, real.len()) as u64);
    let rows = spmv::sweep(ctx, h, &real, |msg| pb.set_message(msg.to_string()), |r| {
        let line = if r.ok {
            let x = |v: Option<f64>| v.map_or("-".into(), |r| format!("{r:.2}"));
            let gbs = |m: &spmv::Measure| m.gbs.map_or("-".into(), |g| format!("{g:.0}"));
            format!(
                "spmv {} {}: ok, csrmv {} GB/s x{} default x{} ALG2, cmrsmv {} GB/s x{} default x{} ALG2",
                r.precision,
                r.matrix,
                gbs(&r.csrmv),
                x(r.csrmv_x_default),
                x(r.csrmv_x_alg2),
                gbs(&r.cmrsmv),
                x(r.cmrsmv_x_default),
                x(r.cmrsmv_x_alg2)
            )
        } else {
            format!("FAIL spmv {} {}: {}", r.precision, r.matrix, r.note)
        };
        // Without a terminal the bar is hidden: a line per row keeps logs readable.
        if pb.is_hidden() {
            note(line);
        } else if !r.ok {
            pb.println(line);
        }
        pb.inc(1);
    });
    pb.finish_and_clear();
    rows
}

/// What the sweep reads of a row, whatever the routine.
trait SweptRow {
    fn ok(&self) -> bool;
    fn note(&self) -> &str;
    fn ours_ms(&self) -> Option<f64>;
    /// t_peer / t_numgpu, and the peer's library.
    fn ratio_peer(&self) -> Option<f64>;
    fn peer(&self) -> &'static str;
    /// What tells the row apart from the others of its precision and n, if anything.
    fn tag(&self) -> String {
        String::new()
    }
}

/// `SweptRow` for a row type: its ratio field, the peer's library and, for rows that share a
/// precision and n, what tells them apart.
macro_rules! swept_row {
    ($t:ty, $ratio:ident, $peer:literal $(, $tag:expr)?) => {
        impl SweptRow for $t {
            fn ok(&self) -> bool {
                self.ok
            }
            fn note(&self) -> &str {
                &self.note
            }
            fn ours_ms(&self) -> Option<f64> {
                self.ours_ms
            }
            fn ratio_peer(&self) -> Option<f64> {
                self.$ratio
            }
            fn peer(&self) -> &'static str {
                $peer
            }
            $(fn tag(&self) -> String {
                ($tag)(self)
            })?
        }
    };
}
swept_row!(gemm::Row, ratio_cublas, "cuBLAS");
swept_row!(getrf::Row, ratio_cublas, "cuBLAS");
swept_row!(geqrf::Row, ratio_cublas, "cuBLAS");
swept_row!(gtsv::Row, ratio_cusparse, "cuSPARSE", |r: &gtsv::Row| format!(" {} {}", r.mode, r.inputs));
swept_row!(rkc::Row, ratio_all, "the CPU backend on all cores", |r: &rkc::Row| format!(" {}", r.problem));
swept_row!(sshopm::Row, ratio_cpu_all, "the CPU backend (all cores)");

/// The rows of each precision and size, `run(precision, n)` each, with a progress bar.
fn sweep<R: SweptRow>(routine: &str, precisions: &[char], sizes: &[usize], mut run: impl FnMut(char, usize) -> Vec<R>) -> Vec<R> {
    let total = (precisions.len() * sizes.len()) as u64;
    let pb = progress_bar(routine, total);
    let mut rows = Vec::new();
    for &p in precisions {
        for &n in sizes {
            pb.set_message(format!("{p} n = {n}"));
            for row in run(p, n) {
                let tag = row.tag();
                let line = if row.ok() {
                    format!(
                        "{routine} {p} n = {n}{tag}: ok, {} ms, x{} vs {}",
                        row.ours_ms().map_or("-".into(), |t| format!("{t:.4}")),
                        row.ratio_peer().map_or("-".into(), |r| format!("{r:.2}")),
                        row.peer()
                    )
                } else {
                    format!("FAIL {routine} {p} n = {n}{tag}: {}", row.note())
                };
                // Without a terminal the bar is hidden: a line per row keeps logs readable.
                if pb.is_hidden() {
                    note(line);
                } else if !row.ok() {
                    pb.println(line);
                }
                rows.push(row);
            }
            pb.inc(1);
        }
    }
    pb.finish_and_clear();
    rows
}

/// Writes the report's .json, .md and .svg under `out`, then the markdown on stdout;
/// returns its failed rows.
fn write_report<R: Serialize>(out: &Path, rep: &report::Report<R>, markdown: fn(&report::Report<R>) -> String, svg: fn(&Path, &report::Report<R>) -> Result<(), String>) -> Result<usize, String> {
    write_report_json(out, rep, rep, markdown, svg)
}

/// `write_report` with `json` as the JSON record (the report and what a routine adds to it).
fn write_report_json<R, J: Serialize>(out: &Path, rep: &report::Report<R>, json: &J, markdown: impl Fn(&report::Report<R>) -> String, svg: fn(&Path, &report::Report<R>) -> Result<(), String>) -> Result<usize, String> {
    let meta = rep.meta;
    // Files first, then stdout: a closed pipe on stdout loses no results.
    let md = markdown(rep);
    let json = serde_json::to_string_pretty(json).map_err(|e| e.to_string())?;
    let files = [report::path(out, rep.routine, meta, "json"), report::path(out, rep.routine, meta, "md"), report::path(out, rep.routine, meta, "svg")];
    std::fs::write(&files[0], json + "\n").map_err(|e| format!("writing {}: {e}", files[0].display()))?;
    std::fs::write(&files[1], &md).map_err(|e| format!("writing {}: {e}", files[1].display()))?;
    svg(&files[2], rep)?;
    for f in &files {
        note(format!("wrote {}", f.display()));
    }
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{md}");
    Ok(rep.failures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use numgpu::spmv::suite::Kind;
    use numgpu::gtsv_spike::Pivoting;

    fn parse(args: &[&str]) -> Result<Settings, String> {
        let cli = Cli::try_parse_from(std::iter::once("numgpu-bench").chain(args.iter().copied())).map_err(|e| e.to_string())?;
        settings(cli)
    }

    /// gtsv's defaults (sizes, precisions, forms, modes, batch bytes) and its options' checks.
    #[test]
    fn gtsv_settings() {
        let s = parse(&["--routine", "gtsv"]).unwrap();
        assert_eq!(s.routines, ["gtsv"]);
        assert_eq!(s.single_sizes, (16..=25).map(|k| 1usize << k).collect::<Vec<_>>());
        assert_eq!(default_sizes("gtsv", false), [64, 128, 256, 512, 1024]);
        assert_eq!(default_precisions("gtsv"), ['s', 'd']);
        assert_eq!(default_precisions("gemm"), ['s', 'd', 'c', 'z']);
        assert_eq!(s.forms, <gtsv::Form as gtsv::Named>::ALL);
        assert_eq!(s.gtsv_cfg.modes, [Pivoting::Diagonal, Pivoting::NoPivot]);
        assert_eq!(s.gtsv_cfg.inputs, <gtsv::Inputs as gtsv::Named>::ALL);
        assert_eq!((s.gtsv_cfg.batch_bytes, s.gtsv_cfg.max_secs, s.gtsv_cfg.reps), ((256u64 << 20) as f64, 2.0, 20));
        let q = parse(&["--routine", "gtsv", "--quick", "--forms", "interleaved", "--modes", "nopivot", "--precisions", "z"]).unwrap();
        assert_eq!((q.single_sizes.len(), q.forms.as_slice(), q.gtsv_cfg.modes.as_slice()), (3, &[gtsv::Form::Interleaved][..], &[Pivoting::NoPivot][..]));
        assert_eq!((q.precisions, q.gtsv_cfg.reps, default_sizes("gtsv", true)), (Some(vec!['z']), 5, vec![64, 256, 1024]));
        assert!(parse(&["--routine", "all"]).unwrap().routines.contains(&"gtsv"));
        for bad in [&["--forms", "banded"][..], &["--modes", "full"], &["--inputs", "dense"], &["--single-sizes", "2"], &["--max-secs", "0"], &["--batch-bytes", "10"]] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    /// spmv's defaults (precisions, sizes) and its options' checks.
    #[test]
    fn spmv_settings() {
        let s = parse(&["--routine", "spmv"]).unwrap();
        assert_eq!((s.routines.as_slice(), s.precisions), (&["spmv"][..], None));
        assert_eq!(default_precisions("spmv"), ['s', 'd']);
        assert_eq!(default_precisions("gemm"), ['s', 'd', 'c', 'z']);
        let c = &s.spmv_cfg;
        assert_eq!((c.nnz, c.quick, c.reps, c.only.len()), (None, false, 20, 0));
        assert_eq!((c.nnz_of(Kind::Stencil27), c.nnz_of(Kind::PowerLaw)), (27_000_000, 20_000_000));
        let q = parse(&["--routine", "spmv", "--quick", "--matrices", "short-rows, nos4", "--nnz", "5000"]).unwrap();
        assert_eq!((q.spmv_cfg.nnz, q.spmv_cfg.reps, q.spmv_cfg.only.clone()), (Some(5000), 5, vec!["short-rows".to_string(), "nos4".to_string()]));
        assert!(parse(&["--routine", "all"]).unwrap().routines.contains(&"spmv"));
        for bad in [&["--nnz", "10"][..], &["--nnz", "1000000000"], &["--matrices", "dense"]] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    /// sshopm's defaults (the orders 4 and 6, s and d, 10^6 tensors × 128 starts) and checks.
    #[test]
    fn sshopm_settings() {
        let s = parse(&["--routine", "sshopm"]).unwrap();
        assert_eq!(s.routines, ["sshopm"]);
        assert_eq!((default_sizes("sshopm", false), default_precisions("sshopm")), (vec![4, 6], vec!['s', 'd']));
        assert_eq!((s.sshopm_cfg.tensors, s.sshopm_cfg.starts, s.sshopm_cfg.reps), (1_000_000, 128, 20));
        let q = parse(&["--routine", "sshopm", "--quick", "--tensors", "500"]).unwrap();
        assert_eq!((q.sshopm_cfg.tensors, q.sshopm_cfg.starts), (500, 128));
        assert!(parse(&["--routine", "sshopm", "--starts", "0"]).is_err());
    }

    /// rkc's defaults (system counts, problems, CPU caps, precision) and its options' checks.
    #[test]
    fn rkc_settings() {
        let s = parse(&["--routine", "rkc"]).unwrap();
        assert_eq!(s.routines, ["rkc"]);
        assert_eq!(s.systems, [1000, 10_000, 100_000, 1_000_000]);
        assert_eq!(s.rkc_cfg.workloads, <rkc::Workload as gtsv::Named>::ALL);
        assert_eq!((s.rkc_cfg.cpu_all_max, s.rkc_cfg.cpu_one_max, s.rkc_cfg.reps), (100_000, 10_000, 20));
        assert_eq!(default_precisions("rkc"), ['d']);
        let q = parse(&["--routine", "rkc", "--quick", "--problems", "user64", "--systems", "5000", "--cpu-one-max", "7"]).unwrap();
        assert_eq!((q.systems.as_slice(), q.rkc_cfg.workloads.as_slice(), q.rkc_cfg.cpu_one_max), (&[5000][..], &[rkc::Workload::User64][..], 7));
        assert!(parse(&["--routine", "all"]).unwrap().routines.contains(&"rkc"));
        for bad in [&["--problems", "robertson"][..], &["--systems", "0"]] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
    }
}
