//! The examples of docs/multi-gpu.md: examples/c/multi_gpu.c (one process, a handle and a
//! thread per device) and examples/c/mpi_batch.c (MPI ranks, each on its node-local device),
//! built against the fresh library as the C tests are (c_abi.rs: where the library and the
//! programs are, NUMGPU_PREBUILT_TESTS), and run on small batches with uneven splits. Each
//! program checks its split runs bitwise against its one-device (one-rank) run and the
//! results against the mathematics, and ends with "`name`: N passed, 0 failed".
//!
//! - multi_gpu on CPU handles (two, and three with unequal shares): the splitting and the
//!   gathering are the same code as on GPUs; on a GPU host also on CUDA (every device, or
//!   two handles on device 0 when there is one).
//! - mpi_batch under `mpirun -np 2` on the CPU backend, and on a GPU host on CUDA (one rank
//!   per device). $MPICC (default mpicc) and $MPIRUN (default mpirun) pick the MPI; with
//!   Open MPI's wrapper the program is compiled by $CC with the wrapper's flags, as the other
//!   C programs are.

use super::c_abi::{bin_dir, compile, link_args, prebuilt, run_checked, tool};
use super::common::handle;
use numgpu::BackendChoice;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// C99 and every warning an error, as the C tests; optimised, since the GPU host times them.
const CFLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-pthread", "-O2", "-g"];

/// Odd batch sizes, so that no split is even.
const TINY: &[&str] = &["--gemm-batch", "37", "--getrf-batch", "53", "--rkc-systems", "11"];
/// On a GPU: more problems than one thread block takes, still seconds.
const SMALL: &[&str] = &["--gemm-batch", "3001", "--getrf-batch", "5003", "--rkc-systems", "2001"];

/// Seconds after which a run is stopped (an MPI job that hangs must fail, not stall the suite).
const LIMIT_S: &str = "600";

/// The MPI wrapper's compiler and flags: Open MPI's wrapper tells them (`--showme:compile`,
/// `--showme:link`), and then $CC compiles; any other wrapper compiles itself.
fn mpi_compiler() -> (String, Vec<OsString>, Vec<OsString>) {
    let mpicc = tool("MPICC", "mpicc");
    let flags = |what: &str| {
        let out = Command::new(&mpicc).arg(format!("--showme:{what}")).output().ok().filter(|o| o.status.success())?;
        Some(String::from_utf8_lossy(&out.stdout).split_whitespace().map(OsString::from).collect::<Vec<_>>())
    };
    match (flags("compile"), flags("link")) {
        (Some(c), Some(l)) => (tool("CC", "cc"), c, l),
        _ => (mpicc, vec![], vec![]),
    }
}

/// examples/c/`name`.c with batches.c, built once per process into the bin dir (unless
/// prebuilt); the executable's path.
fn program(name: &str) -> PathBuf {
    static BUILT: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let mut built = BUILT.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = built.get(name) {
        return p.clone();
    }
    let exe = bin_dir().join(name);
    if !prebuilt() {
        let (cc, compile_flags, link_flags) = if name == "mpi_batch" { mpi_compiler() } else { (tool("CC", "cc"), vec![], vec![]) };
        let mut args: Vec<OsString> = CFLAGS.iter().map(OsString::from).collect();
        args.extend(compile_flags);
        args.extend(["-I", "include", "-I", "examples/c"].map(OsString::from));
        args.extend([format!("examples/c/{name}.c"), "examples/c/batches.c".into(), "-o".into()].map(OsString::from));
        args.push(exe.clone().into());
        args.extend(link_args());
        args.extend(link_flags);
        args.extend(["-lm", "-ldl"].map(OsString::from));
        compile(&cc, &args, &format!("examples/c/{name}.c"));
    }
    built.insert(name.to_string(), exe.clone());
    exe
}

/// Runs `argv` under `timeout` (exit status 124: the LIMIT_S limit) and asserts success and
/// the summary line "`name`: N passed, 0 failed" with N > 0.
fn run(name: &str, argv: &[OsString], env: &[(&str, &str)]) {
    let mut cmd = Command::new("timeout");
    cmd.args(["-k", "10", LIMIT_S]).args(argv).envs(env.iter().copied()).stdin(Stdio::null());
    run_checked(cmd, name);
}

fn args(exe: PathBuf, backend: &str, extra: &[&str]) -> Vec<OsString> {
    let mut a = vec![exe.into_os_string(), "--backend".into(), backend.into()];
    a.extend(extra.iter().map(OsString::from));
    a
}

/// Whether the CUDA variants run here (else they print SKIPPED, or fail with
/// NUMGPU_REQUIRE_CUDA=1).
fn cuda() -> bool {
    handle(BackendChoice::Cuda).is_some()
}

/// `mpirun -np 2` of mpi_batch. The environment lets Open MPI run as root (CI and the GPU
/// host), start two ranks on fewer cores (4.x and 5.x names), and copy through shared-memory
/// buffers where a container forbids one process to read another's memory (vader's CMA).
fn mpirun(backend: &str, extra: &[&str]) {
    let mpirun = std::env::var("MPIRUN").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpirun".into());
    let mut argv: Vec<OsString> = vec![mpirun.into(), "-np".into(), "2".into()];
    argv.extend(args(program("mpi_batch"), backend, extra));
    let env = [
        ("OMPI_ALLOW_RUN_AS_ROOT", "1"),
        ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
        ("OMPI_MCA_rmaps_base_oversubscribe", "1"),
        ("PRTE_MCA_rmaps_default_mapping_policy", ":oversubscribe"),
        ("OMPI_MCA_btl_vader_single_copy_mechanism", "none"),
    ];
    run("mpi_batch", &argv, &env);
}

#[test]
fn multi_gpu_cpu_two_handles() {
    run("multi_gpu", &args(program("multi_gpu"), "cpu", TINY), &[]);
}

/// Three handles with shares 1 : 2 : 3: slices of unequal lengths, gathered in order.
#[test]
fn multi_gpu_cpu_three_handles_unequal_shares() {
    let extra: Vec<&str> = ["--devices", "3", "--weights", "1,2,3"].iter().chain(TINY).copied().collect();
    run("multi_gpu", &args(program("multi_gpu"), "cpu", &extra), &[]);
}

/// Every device (two handles on device 0 when there is one).
#[test]
fn multi_gpu_cuda() {
    if cuda() {
        run("multi_gpu", &args(program("multi_gpu"), "cuda", SMALL), &[]);
    }
}

#[test]
fn mpi_batch_cpu_two_ranks() {
    mpirun("cpu", TINY);
}

/// One rank per device (both on device 0 when there is one).
#[test]
fn mpi_batch_cuda_two_ranks() {
    if cuda() {
        mpirun("cuda", SMALL);
    }
}
