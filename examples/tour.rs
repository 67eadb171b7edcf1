//! The tour (`make demo`): every entry point of numgpu once, on realistic sizes, on the best
//! backend this machine has (CUDA when a usable device exists, else the CPU backend;
//! `NUMGPU_BACKEND=cpu|cuda` chooses), each result checked and timed.
//!
//! Checks: against the CPU backend on the same inputs (the whole batch), and against a plain
//! triple loop in double precision on a sample of the batch, both as the scaled error
//! max_i ‖C_i − Cref_i‖_F / ((|α|·k·‖A_i‖_F·‖B_i‖_F + |β|·‖C0_i‖_F)·ε), which must stay below
//! 30. Times are host-clock times of one call after a warm-up call (which compiles the
//! kernel on CUDA), host arrays in and out: a tour, not a benchmark (see numgpu-bench).
//! Exits non-zero when any check fails.

use numgpu::gemm_batched::{gemm_batched, gemm_batched_strided, Batch};
use numgpu::lapack::Blas;
use numgpu::{Backend, BackendChoice, Complex32, Complex64, Handle, Op, Scalar};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::Instant;

/// Largest scaled error a check accepts.
const TOL: f64 = 30.0;
/// Matrices of the batch the double-precision triple loop checks.
const SAMPLE: usize = 8;

struct Row {
    routine: String,
    backend: &'static str,
    size: String,
    batch: usize,
    secs: f64,
    flops: f64,
    err_cpu: f64,
    err_ref: f64,
}

impl Row {
    fn ok(&self) -> bool {
        self.err_cpu < TOL && self.err_ref < TOL
    }
}

/// The two forms of each batched entry point.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Strided,
    PointerArray,
}

fn random<T: Scalar>(rng: &mut ChaCha8Rng, len: usize) -> Vec<T> {
    (0..len).map(|_| T::from_c64(Complex64::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))).collect()
}

fn fro<T: Scalar>(x: &[T]) -> f64 {
    x.iter().map(|v| v.to_c64().norm_sqr()).sum::<f64>().sqrt()
}

fn fro_diff<T: Scalar>(x: &[T], y: &[T]) -> f64 {
    x.iter().zip(y).map(|(a, b)| (a.to_c64() - b.to_c64()).norm_sqr()).sum::<f64>().sqrt()
}

/// op(X)(i, j) of the n×n column-major matrix `x`, in double precision.
fn op_at<T: Scalar>(x: &[T], n: usize, op: Op, i: usize, j: usize) -> Complex64 {
    match op {
        Op::N => x[i + j * n].to_c64(),
        Op::T => x[j + i * n].to_c64(),
        Op::C => x[j + i * n].to_c64().conj(),
    }
}

/// One form of `?gemm_batched` for one precision: batch × (n×n) · (n×n), ops (ta, tb),
/// C = alpha·op(A)·op(B) + beta·C.
#[allow(clippy::too_many_arguments)]
fn gemm_case<T: Blas>(h: &mut Handle, backend: &'static str, form: Form, ta: Op, tb: Op, n: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let e = n * n;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let a: Vec<T> = random(&mut rng, batch * e);
    let b: Vec<T> = random(&mut rng, batch * e);
    let c0: Vec<T> = random(&mut rng, batch * e);
    // alpha = 1 (or 1 − i/2 for complex types), beta = 0.5: C is read.
    let alpha = T::from_c64(Complex64::new(1.0, -0.5));
    let beta = T::from_c64(Complex64::new(0.5, 0.0));
    let (ni, si) = (n as i64, e as i64);
    let call = |h: &mut Handle, c: &mut [T]| -> numgpu::Result<()> {
        match form {
            Form::Strided => gemm_batched_strided(h, ta, tb, ni, ni, ni, alpha, &a, ni, si, &b, ni, si, beta, c, ni, si, batch as i64),
            Form::PointerArray => {
                // Matrix i of the call is matrix batch−1−i of the arrays: the pointers, not
                // the layout, say where each matrix is.
                let pa: Vec<*const T> = (0..batch).rev().map(|i| a[i * e..].as_ptr()).collect();
                let pb: Vec<*const T> = (0..batch).rev().map(|i| b[i * e..].as_ptr()).collect();
                let base = c.as_mut_ptr();
                // SAFETY: each pointer is to a distinct n×n matrix inside a, b or c.
                let pc: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { base.add(i * e) }).collect();
                // SAFETY: the arrays hold `batch` pointers to n×n matrices (ld = n) in host memory.
                unsafe { gemm_batched(h, ta, tb, ni, ni, ni, alpha, Batch::Array(pa.as_ptr()), ni, Batch::Array(pb.as_ptr()), ni, beta, Batch::Array(pc.as_ptr()), ni, batch as i64) }
            }
        }
    };
    let fail = |e: numgpu::Error| e.msg;

    // Warm-up (compiles the kernel on CUDA), then one timed call from C0.
    let mut c = c0.clone();
    if h.backend() == Backend::Cuda {
        call(h, &mut c).map_err(fail)?;
        c.copy_from_slice(&c0);
    }
    let t = Instant::now();
    call(h, &mut c).map_err(fail)?;
    h.synchronize().map_err(fail)?;
    let secs = t.elapsed().as_secs_f64();

    // The CPU backend on the same inputs, always in the strided form.
    let mut cref = c0.clone();
    gemm_batched_strided(&mut Handle::cpu(), ta, tb, ni, ni, ni, alpha, &a, ni, si, &b, ni, si, beta, &mut cref, ni, si, batch as i64).map_err(fail)?;

    let (al, be) = (alpha.to_c64().norm(), beta.to_c64().norm());
    let scaled = |i: usize, diff: f64| {
        let s = i * e..(i + 1) * e;
        diff / ((al * n as f64 * fro(&a[s.clone()]) * fro(&b[s.clone()]) + be * fro(&c0[s])) * T::EPS)
    };
    let mut err_cpu = 0f64;
    for i in 0..batch {
        let s = i * e..(i + 1) * e;
        err_cpu = nan_max(err_cpu, scaled(i, fro_diff(&c[s.clone()], &cref[s])));
    }
    // A plain triple loop in double precision on a sample of the batch.
    let mut err_ref = 0f64;
    for i in (0..SAMPLE).map(|j| j * (batch - 1) / (SAMPLE - 1).max(1)) {
        let (ai, bi, ci, c0i) = (&a[i * e..(i + 1) * e], &b[i * e..(i + 1) * e], &c[i * e..(i + 1) * e], &c0[i * e..(i + 1) * e]);
        let mut d = 0f64;
        for col in 0..n {
            for row in 0..n {
                let mut acc = Complex64::new(0.0, 0.0);
                for l in 0..n {
                    acc += op_at(ai, n, ta, row, l) * op_at(bi, n, tb, l, col);
                }
                let want = alpha.to_c64() * acc + beta.to_c64() * c0i[row + col * n].to_c64();
                d += (ci[row + col * n].to_c64() - want).norm_sqr();
            }
        }
        err_ref = nan_max(err_ref, scaled(i, d.sqrt()));
    }

    let op = |o: Op| match o {
        Op::N => 'N',
        Op::T => 'T',
        Op::C => 'C',
    };
    let name = match form {
        Form::Strided => "gemm_batched_strided",
        Form::PointerArray => "gemm_batched",
    };
    Ok(Row {
        routine: format!("{}{name} {}{}", T::LETTER, op(ta), op(tb)),
        backend,
        size: format!("{n}x{n}x{n}"),
        batch,
        secs,
        flops: batch as f64 * (n * n * n) as f64 * if T::IS_COMPLEX { 8.0 } else { 2.0 },
        err_cpu,
        err_ref,
    })
}

fn nan_max(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.max(y)
    }
}

/// Every gemm_batched case of one precision: three size classes, both forms (the
/// pointer-array form with transposed operands).
fn gemm_all<T: Blas>(h: &mut Handle, backend: &'static str, rows: &mut Vec<Result<Row, String>>) {
    for (n, batch) in [(8, 10_000), (32, 2_000), (128, 200)] {
        let seed = (T::LETTER as u64) << 16 | n as u64;
        rows.push(gemm_case::<T>(h, backend, Form::Strided, Op::N, Op::N, n, batch, seed));
        rows.push(gemm_case::<T>(h, backend, Form::PointerArray, Op::T, Op::C, n, batch, seed + 1));
    }
}

fn main() -> ExitCode {
    let mut h = match Handle::new(BackendChoice::Auto, 0) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("tour: cannot create a handle: {}", e.msg);
            return ExitCode::FAILURE;
        }
    };
    let backend = match h.backend() {
        Backend::Cuda => "cuda",
        Backend::Cpu => "cpu",
    };
    println!("numgpu {} tour", env!("CARGO_PKG_VERSION"));
    match h.backend() {
        Backend::Cuda => match numgpu::cuda::driver::device(0) {
            Ok(d) => println!("backend: CUDA, device 0: {} ({}, {} SMs)", d.name, d.arch_name(), d.sm_count),
            Err(_) => println!("backend: CUDA"),
        },
        Backend::Cpu => {
            let why = match numgpu::cuda::driver::driver() {
                _ if std::env::var("NUMGPU_BACKEND").is_ok_and(|v| v.eq_ignore_ascii_case("cpu")) => "NUMGPU_BACKEND=cpu".to_string(),
                Err(e) => e.msg,
                Ok(()) => "no CUDA device is visible".to_string(),
            };
            println!("backend: CPU (OpenBLAS, {} threads) — CUDA not used: {why}", rayon::current_num_threads());
        }
    }
    println!("checks: scaled error vs the CPU backend (whole batch) and vs a double-precision triple loop ({SAMPLE} matrices), each < {TOL}");
    println!("times: one call, host clock, host arrays in and out (on CUDA after a warm-up call, which compiles the kernel)\n");

    let mut rows = Vec::new();
    gemm_all::<f32>(&mut h, backend, &mut rows);
    gemm_all::<f64>(&mut h, backend, &mut rows);
    gemm_all::<Complex32>(&mut h, backend, &mut rows);
    gemm_all::<Complex64>(&mut h, backend, &mut rows);

    println!(
        "{:<28} {:<7} {:<12} {:>7} {:>10} {:>9} {:>9} {:>9}  check",
        "routine", "backend", "size", "batch", "time ms", "GFLOP/s", "err/cpu", "err/ref"
    );
    let mut failed = 0;
    for r in &rows {
        match r {
            Ok(r) => {
                if !r.ok() {
                    failed += 1;
                }
                println!(
                    "{:<28} {:<7} {:<12} {:>7} {:>10.3} {:>9.1} {:>9.3} {:>9.3}  {}",
                    r.routine,
                    r.backend,
                    r.size,
                    r.batch,
                    r.secs * 1e3,
                    r.flops / r.secs / 1e9,
                    r.err_cpu,
                    r.err_ref,
                    if r.ok() { "ok" } else { "FAIL" }
                );
            }
            Err(e) => {
                failed += 1;
                println!("FAIL: call failed: {e}");
            }
        }
    }
    println!();
    if failed == 0 {
        println!("all {} checks passed", rows.len());
        ExitCode::SUCCESS
    } else {
        println!("{failed} of {} checks FAILED", rows.len());
        ExitCode::FAILURE
    }
}
