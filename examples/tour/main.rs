//! The tour (`make demo`, the `numgpu-tour` binary): every entry point of numgpu once, on
//! realistic sizes, on the best backend this machine has (CUDA when a usable device exists,
//! else the CPU backend; `NUMGPU_BACKEND=cpu|cuda` chooses), each result checked and timed.
//! The families run in the README's order, each after a progress line and its legend; every
//! row is printed as soon as it is measured.
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
use std::io::Write;
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

/// The table of a run: each row is printed as a family pushes it (a call that failed, as its
/// message), so the table grows while the tour runs; the counts make the summary.
#[derive(Default)]
pub struct Rows {
    total: usize,
    failed: usize,
}

impl Rows {
    /// Prints one row (its note on a line of its own below it) and counts it.
    pub fn push(&mut self, row: Result<Row, String>) {
        self.total += 1;
        match row {
            Ok(r) => {
                self.failed += usize::from(!r.ok());
                let differ = r.differ.map_or("-".to_string(), |d| if r.near > 0 { format!("{d}+{}~", r.near) } else { d.to_string() });
                println!(
                    "  {:<ROUTINE_W$} {:<SIZE_W$} {:>7} {:>10.3} {:>9.1} {:>9.3} {:>9.3} {:>6}  {}",
                    r.routine,
                    r.size,
                    r.batch,
                    r.secs * 1e3,
                    r.flops / r.secs / 1e9,
                    r.err_cpu,
                    r.err_ref,
                    differ,
                    if r.ok() { "ok" } else { "FAIL" }
                );
                if !r.note.is_empty() {
                    print_wrapped(&format!("({})", r.note), "    ", "     ");
                }
            }
            Err(e) => {
                self.failed += 1;
                print_wrapped(&format!("FAIL: call failed: {e}"), "  ", "    ");
            }
        }
        // Rust's stdout is line-buffered; flush anyway so that a pipe sees the row at once.
        let _ = std::io::stdout().flush();
    }
}

impl Extend<Result<Row, String>> for Rows {
    fn extend<I: IntoIterator<Item = Result<Row, String>>>(&mut self, rows: I) {
        rows.into_iter().for_each(|r| self.push(r));
    }
}

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
            print_wrapped(&format!("backend: {} (OpenBLAS, {} threads); CUDA not used: {why}", backend_name(h), rayon::current_num_threads()), "", "  ");
        }
    }
}

/// One family of the tour: its name (as the README names it), its legend, its rows.
struct Family {
    name: &'static str,
    legend: &'static str,
    rows: fn(&mut Handle, &mut Rows),
}

/// A [`Family`] from its name and the module holding its `LEGEND` and `rows`.
macro_rules! family {
    ($name:literal, $module:ident) => {
        Family { name: $name, legend: $module::LEGEND, rows: $module::rows }
    };
}

/// The families in the README's order; the tour runs and prints them in this order.
const FAMILIES: [Family; 13] = [
    family!("gemm_batched", gemm),
    family!("getrf_fullpivot", getrf),
    family!("geqrf_givens", geqrf),
    family!("gtsv_spike", gtsv),
    family!("spmv", spmv),
    family!("sshopm", sshopm),
    family!("rkc", rkc),
    family!("stebz", stebz),
    family!("potrf", potrf),
    family!("jacobi", jacobi),
    family!("expm", expm),
    family!("life", life),
    family!("tensor", tensor),
];

/// The longest line of the tour's text (legends, notes), in characters.
const WIDTH: usize = 100;

/// `text` in lines of at most [`WIDTH`] characters broken at spaces, the first indented by
/// `first`, the others by `rest` (a word longer than a line stays whole). A `\n` in `text`
/// starts a new paragraph, indented as the first line.
fn wrap(text: &str, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.lines().map(str::trim).filter(|p| !p.is_empty()) {
        let mut line = first.to_string();
        let mut empty = true;
        for word in para.split_whitespace() {
            if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
                lines.push(std::mem::replace(&mut line, rest.to_string()));
                empty = true;
            }
            if !empty {
                line.push(' ');
            }
            line.push_str(word);
            empty = false;
        }
        lines.push(line);
    }
    lines
}

/// Prints `text` wrapped as [`wrap`] does.
fn print_wrapped(text: &str, first: &str, rest: &str) {
    for line in wrap(text, first, rest) {
        println!("{line}");
    }
}

/// Column widths of the table: every row the families make fits (the longest routine,
/// `dgtsv_batched_interleaved NOPIVOT`, has 33 characters; the longest size, life's
/// `96x20000, nnz=479887`, 20), so the columns line up although rows print as they come.
const ROUTINE_W: usize = 34;
const SIZE_W: usize = 20;

/// The table's column titles.
fn print_header() {
    println!("  {:<ROUTINE_W$} {:<SIZE_W$} {:>7} {:>10} {:>9} {:>9} {:>9} {:>6}  check", "routine", "size", "batch", "time ms", "GFLOP/s", "err/cpu", "err/ref", "≠cpu");
}

fn main() -> ExitCode {
    let start = Instant::now();
    let mut h = match Handle::new(BackendChoice::Auto, 0) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("tour: cannot create a handle: {}", e.msg);
            return ExitCode::FAILURE;
        }
    };
    println!("numgpu {} tour: every entry point once, on realistic sizes, checked and timed", env!("CARGO_PKG_VERSION"));
    describe(&h);
    print_wrapped(
        &format!(
            "checks: err/cpu and err/ref are scaled errors against the CPU backend (the whole batch) and against a \
             reference in double precision (a sample), each below {RATIO}; ≠cpu counts the problems whose discrete \
             outcome (pivots, info, status, a count) differs, which must be 0. Each family's legend says what it \
             measures."
        ),
        "",
        "  ",
    );
    print_wrapped("times: one call, host clock, host arrays in and out (on CUDA after a warm-up call, which compiles the kernel).", "", "  ");

    let mut rows = Rows::default();
    for (i, family) in FAMILIES.iter().enumerate() {
        println!("\n[{}/{}] {} ({:.0} s elapsed)", i + 1, FAMILIES.len(), family.name, start.elapsed().as_secs_f64());
        print_wrapped(family.legend, "  ", "    ");
        print_header();
        (family.rows)(&mut h, &mut rows);
    }

    let secs = start.elapsed().as_secs_f64();
    println!();
    if rows.failed == 0 {
        println!("all {} checks passed in {secs:.0} s", rows.total);
        ExitCode::SUCCESS
    } else {
        println!("{} of {} checks FAILED ({secs:.0} s)", rows.failed, rows.total);
        ExitCode::FAILURE
    }
}
