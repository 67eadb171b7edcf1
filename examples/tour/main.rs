//! The tour (`make demo`): every entry point of numgpu once, on realistic sizes, on the best
//! backend this machine has (CUDA when a usable device exists, else the CPU backend;
//! `NUMGPU_BACKEND=cpu|cuda` chooses), each result checked and timed.
//!
//! Each row is checked against the CPU backend on the same inputs (the whole batch, err/cpu)
//! and against a reference in double precision (err/ref; a sample of the batch where the
//! reference is costly), each as a scaled error of the oracle (`numgpu::testing`) that must
//! stay below 30; ≠cpu counts the problems whose discrete outcome (pivots, info, status, a
//! count) differs from the CPU backend's or from the expected one. One module per family
//! holds its rows and says what they check.
//!
//! Times are host-clock times of one call after a warm-up call (which compiles the kernel on
//! CUDA), host arrays in and out: a tour, not a benchmark (see numgpu-bench). Exits non-zero
//! when any check fails.

/// `pub fn rows(h, rows)` of a family: `$all::<T>(h, rows)` for the four precisions.
macro_rules! rows_in_every_precision {
    ($all:ident) => {
        /// The family's rows in the four precisions, appended to `rows`.
        pub fn rows(h: &mut numgpu::Handle, rows: &mut crate::Rows) {
            $all::<f32>(h, rows);
            $all::<f64>(h, rows);
            $all::<numgpu::Complex32>(h, rows);
            $all::<numgpu::Complex64>(h, rows);
        }
    };
}

mod expm;
mod gemm;
mod geqrf;
mod getrf;
mod gtsv;
mod potrf;
mod life;
mod rkc;
mod spmv;
mod sshopm;
mod stebz;
mod jacobi;
mod tensor;

use numgpu::testing::tol::RATIO;
use numgpu::{Backend, BackendChoice, Handle, Op, Scalar};
use std::process::ExitCode;
use std::time::Instant;

/// Problems of a batch the costly references check.
pub const SAMPLE: usize = 8;

/// One row of the table.
#[derive(Clone, Debug, Default)]
pub struct Row {
    pub routine: String,
    pub size: String,
    pub batch: usize,
    pub secs: f64,
    /// Real flops of the call (the rate column divides them by the time).
    pub flops: f64,
    pub err_cpu: f64,
    pub err_ref: f64,
    /// Problems whose discrete outcome differs from the CPU backend's or the expected one
    /// (near-ties left out); None where the routine has none.
    pub differ: Option<usize>,
    /// Matrices whose pivots differ from the CPU backend's at a near-tie (not a failure).
    pub near: usize,
    /// What the row shows besides its checks.
    pub note: String,
}

impl Row {
    fn ok(&self) -> bool {
        self.err_cpu < RATIO && self.err_ref < RATIO && self.differ.unwrap_or(0) == 0
    }
}

/// The rows of a run, a call that failed as its message.
pub type Rows = Vec<Result<Row, String>>;

/// The two forms of each batched entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Strided,
    /// Pointer arrays, matrix i of the call being matrix batch − 1 − i of the arrays: the
    /// pointers, not the layout, say where each matrix is.
    PointerArray,
}

/// Runs `call` on fresh inputs from `input`: on `h` untimed when it is CUDA (the warm-up
/// compiles the kernel), on `h` timed (the synchronisation that ends it included), and on the
/// CPU backend; returns (ours, seconds, the CPU backend's).
pub fn measure<S>(h: &mut Handle, input: impl Fn() -> S, call: impl Fn(&mut Handle, &mut S) -> numgpu::Result<()>) -> Result<(S, f64, S), String> {
    let run = |h: &mut Handle| -> numgpu::Result<(S, f64)> {
        let mut s = input();
        let t = Instant::now();
        call(h, &mut s)?;
        h.synchronize()?;
        Ok((s, t.elapsed().as_secs_f64()))
    };
    if h.backend() == Backend::Cuda {
        run(h).map_err(|e| e.msg)?;
    }
    let (ours, secs) = run(h).map_err(|e| e.msg)?;
    let (cpu, _) = run(&mut Handle::cpu()).map_err(|e| e.msg)?;
    Ok((ours, secs, cpu))
}

/// [`SAMPLE`] problems of a batch, evenly spread.
pub fn sample(batch: usize) -> impl Iterator<Item = usize> {
    (0..SAMPLE.min(batch)).map(move |j| j * (batch - 1) / (SAMPLE.min(batch) - 1).max(1))
}

/// The letter of an op, as the rows name it.
pub fn op_char(o: Op) -> char {
    match o {
        Op::N => 'N',
        Op::T => 'T',
        Op::C => 'C',
    }
}

/// Real flops of a count of real operations in precision T (complex: ×4).
pub fn cflops<T: Scalar>(real: f64) -> f64 {
    real * if T::IS_COMPLEX { 4.0 } else { 1.0 }
}

/// A seed per precision and family, so that each row draws its own inputs.
pub fn seed_of<T: Scalar>(family: u64) -> u64 {
    (T::LETTER as u64) << 24 | family << 20
}

/// The handle's backend as numgpu names it ("cpu", "cuda"), through the C API a C program uses
/// for it (`numgpu_get_backend`, `numgpu_backend_name`).
fn backend_name(h: &Handle) -> &'static str {
    let mut code = -1;
    // SAFETY: a live handle and an out-pointer to a local; the name is a static string.
    unsafe {
        numgpu::ffi::capi::numgpu_get_backend(h, &mut code);
        std::ffi::CStr::from_ptr(numgpu::ffi::capi::numgpu_backend_name(code)).to_str().unwrap_or("?")
    }
}

/// The stream the handle enqueues on (`numgpu_get_stream`): the default one unless set.
fn stream_of(h: &Handle) -> &'static str {
    let mut stream = std::ptr::null_mut();
    // SAFETY: as in backend_name.
    unsafe { numgpu::ffi::capi::numgpu_get_stream(h, &mut stream) };
    if stream.is_null() {
        "the default stream"
    } else {
        "a stream of the caller's"
    }
}

/// Says which backend runs, and why the CPU one when it is.
fn describe(h: &Handle) {
    match h.backend() {
        Backend::Cuda => match numgpu::cuda::driver::device(0) {
            Ok(d) => println!("backend: {}, device 0: {} ({}, {} SMs), {}", backend_name(h), d.name, d.arch_name(), d.sm_count, stream_of(h)),
            Err(_) => println!("backend: {}, {}", backend_name(h), stream_of(h)),
        },
        Backend::Cpu => {
            let why = match numgpu::cuda::driver::driver() {
                _ if std::env::var("NUMGPU_BACKEND").is_ok_and(|v| v.eq_ignore_ascii_case("cpu")) => "NUMGPU_BACKEND=cpu".to_string(),
                Err(e) => e.msg,
                Ok(()) => "no CUDA device is visible".to_string(),
            };
            println!("backend: {} (OpenBLAS, {} threads) — CUDA not used: {why}", backend_name(h), rayon::current_num_threads());
        }
    }
}

/// Prints the table; returns the number of failed rows.
fn print(rows: &Rows, backend: &str) -> usize {
    println!("{:<34} {:<7} {:<14} {:>7} {:>10} {:>9} {:>9} {:>9} {:>6}  check", "routine", "backend", "size", "batch", "time ms", "GFLOP/s", "err/cpu", "err/ref", "≠cpu");
    let mut failed = 0;
    for r in rows {
        match r {
            Ok(r) => {
                failed += usize::from(!r.ok());
                let differ = r.differ.map_or("-".to_string(), |d| if r.near > 0 { format!("{d}+{}~", r.near) } else { d.to_string() });
                let note = if r.note.is_empty() { String::new() } else { format!("  ({})", r.note) };
                println!(
                    "{:<34} {:<7} {:<14} {:>7} {:>10.3} {:>9.1} {:>9.3} {:>9.3} {:>6}  {}{note}",
                    r.routine,
                    backend,
                    r.size,
                    r.batch,
                    r.secs * 1e3,
                    r.flops / r.secs / 1e9,
                    r.err_cpu,
                    r.err_ref,
                    differ,
                    if r.ok() { "ok" } else { "FAIL" }
                );
            }
            Err(e) => {
                failed += 1;
                println!("FAIL: call failed: {e}");
            }
        }
    }
    failed
}

fn main() -> ExitCode {
    let mut h = match Handle::new(BackendChoice::Auto, 0) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("tour: cannot create a handle: {}", e.msg);
            return ExitCode::FAILURE;
        }
    };
    let backend = backend_name(&h);
    println!("numgpu {} tour", env!("CARGO_PKG_VERSION"));
    describe(&h);
    println!("checks: scaled error vs the CPU backend (whole batch) and vs a double-precision reference, each < {RATIO}:");
    for legend in [gemm::LEGEND, getrf::LEGEND, geqrf::LEGEND, gtsv::LEGEND, sshopm::LEGEND, stebz::LEGEND, jacobi::LEGEND, potrf::LEGEND, expm::LEGEND, rkc::LEGEND, spmv::LEGEND, life::LEGEND, tensor::LEGEND] {
        println!("  {legend}");
    }
    println!("times: one call, host clock, host arrays in and out (on CUDA after a warm-up call, which compiles the kernel)\n");

    let mut rows = Rows::new();
    gemm::rows(&mut h, &mut rows);
    getrf::rows(&mut h, &mut rows);
    geqrf::rows(&mut h, &mut rows);
    gtsv::rows(&mut h, &mut rows);
    sshopm::rows(&mut h, &mut rows);
    stebz::rows(&mut h, &mut rows);
    jacobi::rows(&mut h, &mut rows);
    potrf::rows(&mut h, &mut rows);
    expm::rows(&mut h, &mut rows);
    rkc::rows(&mut h, &mut rows);
    spmv::rows(&mut h, &mut rows);
    life::rows(&mut h, &mut rows);
    tensor::rows(&mut h, &mut rows);

    let failed = print(&rows, backend);
    println!();
    if failed == 0 {
        println!("all {} checks passed", rows.len());
        ExitCode::SUCCESS
    } else {
        println!("{failed} of {} checks FAILED", rows.len());
        ExitCode::FAILURE
    }
}
