//! The tour (`make demo`): every entry point of numgpu once, on realistic sizes, on the best
//! backend this machine has (CUDA when a usable device exists, else the CPU backend;
//! `NUMGPU_BACKEND=cpu|cuda` chooses), each result checked and timed.
//!
//! Checks: against the CPU backend on the same inputs (the whole batch), and against a plain
//! loop in double precision, each as a scaled error which must stay below 30:
//! - gemm: max_i ‖C_i − Cref_i‖_F / ((|α|·k·‖A_i‖_F·‖B_i‖_F + |β|·‖C0_i‖_F)·ε), against the
//!   CPU backend and against a triple loop on a sample of the batch;
//! - getrf with complete pivoting (both modes): ipiv, jpiv and info identical to the CPU
//!   backend's (which is LAPACK `?getc2` in mode GETC2) for every matrix, except near-ties
//!   (at the first differing step, our pivot within 4nε, relative, of the CPU's in the CPU's
//!   trailing block: rounding — FMA, the complex modulus — breaks those either way), which
//!   are counted apart; the factors' difference ‖F_i − Fcpu_i‖₁ / (n·‖A_i‖₁·ε) where the
//!   pivots agree; LAPACK's ratio ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) in double on a sample;
//! - getrs, gesv, gesc2: the residual ratio ‖s·b − op(A)·x‖₁ / (‖op(A)‖₁·‖x‖₁·n·ε) of every
//!   right-hand side (s: gesc2's scale, else 1), and the same measure of the difference from
//!   the CPU backend's solution, ‖op(A)·(x − xcpu)‖₁ / (‖op(A)‖₁·‖x‖₁·n·ε); gesv's pivots
//!   and info, and gesc2's scale, identical to the CPU backend's.
//!
//! Times are host-clock times of one call after a warm-up call (which compiles the kernel on
//! CUDA), host arrays in and out: a tour, not a benchmark (see numgpu-bench). Exits non-zero
//! when any check fails.

use numgpu::gemm_batched::{gemm_batched, gemm_batched_strided, Batch};
use numgpu::getrf_fullpivot::{gesc2_strided, gesv_strided, getrf_strided, getrs_strided, pivot_gap, Mode};
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
    /// Matrices whose pivots and info (getrf, gesv) or scale (gesc2) differ from the CPU
    /// backend's, near-ties left out; None where the routine has none.
    differ: Option<usize>,
    /// Matrices whose pivots differ from the CPU backend's at a near-tie (not a failure).
    near: usize,
}

impl Row {
    fn ok(&self) -> bool {
        self.err_cpu < TOL && self.err_ref < TOL && self.differ.unwrap_or(0) == 0
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
        differ: None,
        near: 0,
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

/// LU flops of one n×n matrix: 2n³/3, complex 8n³/3 (real flops).
fn lu_flops<T: Scalar>(n: usize) -> f64 {
    2.0 * (n * n * n) as f64 / 3.0 * if T::IS_COMPLEX { 4.0 } else { 1.0 }
}

/// Flops of one solve with the factors, one right-hand side: 2n², complex 8n².
fn solve_flops<T: Scalar>(n: usize) -> f64 {
    2.0 * (n * n) as f64 * if T::IS_COMPLEX { 4.0 } else { 1.0 }
}

fn c64s<T: Scalar>(x: &[T]) -> Vec<Complex64> {
    x.iter().map(|v| v.to_c64()).collect()
}

fn norm1v(x: &[Complex64]) -> f64 {
    x.iter().map(|v| v.norm()).sum()
}

/// ‖M‖₁ (largest column sum) of the n×n column-major matrix `m`.
fn norm1(m: &[Complex64], n: usize) -> f64 {
    (0..n).map(|j| norm1v(&m[j * n..(j + 1) * n])).fold(0.0, f64::max)
}

/// op(A) of the n×n matrix `a`, in double precision.
fn op_matrix<T: Scalar>(a: &[T], n: usize, op: Op) -> Vec<Complex64> {
    (0..n * n).map(|e| op_at(a, n, op, e % n, e / n)).collect()
}

/// m·x for the n×n matrix m.
fn matvec(m: &[Complex64], n: usize, x: &[Complex64]) -> Vec<Complex64> {
    let mut y = vec![Complex64::new(0.0, 0.0); n];
    for (j, xj) in x.iter().enumerate() {
        for (i, yi) in y.iter_mut().enumerate() {
            *yi += m[i + j * n] * xj;
        }
    }
    y
}

/// ‖op(A)·x − rhs‖₁ / (‖op(A)‖₁·‖xn‖₁·n·ε) for `m` = op(A) and its norm `nm`; `xn` is the
/// solution that scales the measure (x itself, or the solution x − xcpu is measured for).
fn solve_ratio<T: Scalar>(m: &[Complex64], nm: f64, n: usize, x: &[Complex64], rhs: &[Complex64], xn: &[Complex64]) -> f64 {
    let r: Vec<Complex64> = matvec(m, n, x).iter().zip(rhs).map(|(p, q)| p - q).collect();
    let d = norm1v(&r);
    let scale = nm * norm1v(xn) * n as f64 * T::EPS;
    if scale > 0.0 {
        d / scale
    } else if d == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// LAPACK's ratio ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) of one matrix's factors `f`, in double.
fn lu_ratio<T: Scalar>(a: &[T], f: &[T], ipiv: &[i32], jpiv: &[i32], n: usize) -> f64 {
    let m = c64s(f);
    let mut prod = vec![Complex64::new(0.0, 0.0); n * n];
    for j in 0..n {
        for r in 0..n {
            // (L·U)(r, j) with L's unit diagonal.
            let mut s = if r <= j { m[r + j * n] } else { Complex64::new(0.0, 0.0) };
            for k in 0..r.min(j + 1) {
                s += m[r + k * n] * m[k + j * n];
            }
            prod[r + j * n] = s;
        }
    }
    // Undo the interchanges in reverse: step k swapped rows k, ipiv(k) and columns k, jpiv(k).
    for k in (0..n).rev() {
        let (p, q) = ((ipiv[k] as usize).wrapping_sub(1), (jpiv[k] as usize).wrapping_sub(1));
        if p >= n || q >= n {
            return f64::INFINITY;
        }
        for j in 0..n {
            prod.swap(k + j * n, p + j * n);
        }
        for r in 0..n {
            prod.swap(r + k * n, r + q * n);
        }
    }
    let a = c64s(a);
    let diff: Vec<Complex64> = prod.iter().zip(&a).map(|(p, q)| p - q).collect();
    let na = norm1(&a, n);
    if na == 0.0 {
        norm1(&diff, n)
    } else {
        norm1(&diff, n) / (n as f64 * na * T::EPS)
    }
}

/// Evenly spread matrices of a batch, for the O(n³) checks.
fn sample(batch: usize) -> impl Iterator<Item = usize> {
    (0..SAMPLE.min(batch)).map(move |j| j * (batch - 1) / (SAMPLE.min(batch) - 1).max(1))
}

/// Factors of a batch: matrices in place, pivots, info.
struct Factors<T> {
    f: Vec<T>,
    ipiv: Vec<i32>,
    jpiv: Vec<i32>,
    info: Vec<i32>,
}

impl<T: Scalar> Factors<T> {
    /// Whether matrix i's pivots in `self` and `o` agree.
    fn same_pivots(&self, o: &Factors<T>, n: usize, i: usize) -> bool {
        let s = i * n..(i + 1) * n;
        self.ipiv[s.clone()] == o.ipiv[s.clone()] && self.jpiv[s.clone()] == o.jpiv[s]
    }

    /// Compared with the reference `o`: (matrices whose pivots or info differ, near-ties
    /// left out; matrices whose pivots differ at a near-tie).
    fn differ(&self, o: &Factors<T>, n: usize) -> (usize, usize) {
        let (mut hard, mut near) = (0, 0);
        for i in 0..self.info.len() {
            let s = i * n..(i + 1) * n;
            let gap = pivot_gap(&o.f[i * n * n..(i + 1) * n * n], &o.ipiv[s.clone()], &o.jpiv[s.clone()], &self.ipiv[s.clone()], &self.jpiv[s], n);
            match gap {
                Some((_, g)) if g <= 4.0 * n as f64 * T::EPS => near += 1,
                Some(_) => hard += 1,
                None if self.info[i] != o.info[i] => hard += 1,
                None => {}
            }
        }
        (hard, near)
    }
}

/// `getrf_strided` on a copy of `a` (batch of packed n×n matrices); the call's seconds.
fn factor<T: Blas>(h: &mut Handle, a: &[T], n: usize, batch: usize, mode: Mode) -> Result<(Factors<T>, f64), String> {
    let mut r = Factors { f: a.to_vec(), ipiv: vec![0; n * batch], jpiv: vec![0; n * batch], info: vec![0; batch] };
    let ni = n as i64;
    let t = Instant::now();
    getrf_strided(h, ni, &mut r.f, ni, ni * ni, &mut r.ipiv, &mut r.jpiv, &mut r.info, batch as i64, mode).map_err(|e| e.msg)?;
    h.synchronize().map_err(|e| e.msg)?;
    Ok((r, t.elapsed().as_secs_f64()))
}

/// `?getrf_batched_fullpivot_strided` in `mode`, against the CPU backend (LAPACK `?getc2` in
/// mode GETC2): returns the row and the factors, which the solves below reuse.
fn getrf_case<T: Blas>(h: &mut Handle, backend: &'static str, mode: Mode, n: usize, batch: usize, a: &[T]) -> Result<(Row, Factors<T>), String> {
    if h.backend() == Backend::Cuda {
        factor(h, a, n, batch, mode)?; // warm-up: compiles the kernel
    }
    let (ours, secs) = factor(h, a, n, batch, mode)?;
    let (cpu, _) = factor(&mut Handle::cpu(), a, n, batch, mode)?;
    let e = n * n;
    let mut err_cpu = 0f64;
    for i in (0..batch).filter(|&i| ours.same_pivots(&cpu, n, i)) {
        let s = i * e..(i + 1) * e;
        let d: Vec<Complex64> = ours.f[s.clone()].iter().zip(&cpu.f[s.clone()]).map(|(x, y)| x.to_c64() - y.to_c64()).collect();
        let na = norm1(&c64s(&a[s]), n);
        err_cpu = nan_max(err_cpu, norm1(&d, n) / (n as f64 * na * T::EPS));
    }
    let mut err_ref = 0f64;
    for i in sample(batch).filter(|&i| ours.info[i] == 0) {
        let s = i * e..(i + 1) * e;
        err_ref = nan_max(err_ref, lu_ratio(&a[s.clone()], &ours.f[s], &ours.ipiv[i * n..(i + 1) * n], &ours.jpiv[i * n..(i + 1) * n], n));
    }
    let (differ, near) = ours.differ(&cpu, n);
    let row = Row {
        routine: format!("{}getrf_fullpivot_strided {}", T::LETTER, if mode == Mode::Getc2 { "GETC2" } else { "STRICT" }),
        backend,
        size: format!("{n}x{n}"),
        batch,
        secs,
        flops: batch as f64 * lu_flops::<T>(n),
        err_cpu,
        err_ref,
        differ: Some(differ),
        near,
    };
    Ok((row, ours))
}

/// The residual and CPU-difference ratios of solutions `x` (and the CPU backend's `xc`) of
/// op(A_i)·x = s_i·b for `nrhs` right-hand sides per matrix (columns n apart); `skip(i)`
/// leaves matrix i out.
#[allow(clippy::too_many_arguments)]
fn solve_errors<T: Scalar>(a: &[T], n: usize, trans: Op, b: &[T], x: &[T], xc: &[T], nrhs: usize, scale: impl Fn(usize) -> f64, skip: impl Fn(usize) -> bool) -> (f64, f64) {
    let (e, batch) = (n * n, a.len() / (n * n));
    let (mut err_cpu, mut err_ref) = (0f64, 0f64);
    for i in (0..batch).filter(|&i| !skip(i)) {
        let m = op_matrix(&a[i * e..(i + 1) * e], n, trans);
        let nm = norm1(&m, n);
        for r in 0..nrhs {
            let s = (i * nrhs + r) * n..(i * nrhs + r + 1) * n;
            let xs = c64s(&x[s.clone()]);
            let rhs: Vec<Complex64> = b[s.clone()].iter().map(|v| v.to_c64() * scale(i)).collect();
            err_ref = nan_max(err_ref, solve_ratio::<T>(&m, nm, n, &xs, &rhs, &xs));
            let d: Vec<Complex64> = x[s.clone()].iter().zip(&xc[s]).map(|(p, q)| p.to_c64() - q.to_c64()).collect();
            err_cpu = nan_max(err_cpu, solve_ratio::<T>(&m, nm, n, &d, &vec![Complex64::new(0.0, 0.0); n], &xs));
        }
    }
    (err_cpu, err_ref)
}

/// `?getrs_batched_fullpivot_strided` with the factors `lu` of `a`, nrhs right-hand sides.
#[allow(clippy::too_many_arguments)]
fn getrs_case<T: Blas>(h: &mut Handle, backend: &'static str, trans: Op, n: usize, batch: usize, a: &[T], lu: &Factors<T>, seed: u64) -> Result<Row, String> {
    let nrhs = 2;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let b: Vec<T> = random(&mut rng, batch * n * nrhs);
    let (ni, sb) = (n as i64, (n * nrhs) as i64);
    let call = |h: &mut Handle, x: &mut [T]| -> numgpu::Result<()> {
        getrs_strided(h, trans, ni, nrhs as i64, &lu.f, ni, ni * ni, &lu.ipiv, &lu.jpiv, x, ni, sb, batch as i64)?;
        h.synchronize()
    };
    let fail = |e: numgpu::Error| e.msg;
    if h.backend() == Backend::Cuda {
        call(h, &mut b.clone()).map_err(fail)?;
    }
    let mut x = b.clone();
    let t = Instant::now();
    call(h, &mut x).map_err(fail)?;
    let secs = t.elapsed().as_secs_f64();
    let mut xc = b.clone();
    call(&mut Handle::cpu(), &mut xc).map_err(fail)?;
    let (err_cpu, err_ref) = solve_errors(a, n, trans, &b, &x, &xc, nrhs, |_| 1.0, |i| lu.info[i] != 0);
    let op = match trans {
        Op::N => 'N',
        Op::T => 'T',
        Op::C => 'C',
    };
    Ok(Row {
        routine: format!("{}getrs_fullpivot_strided {op}", T::LETTER),
        backend,
        size: format!("{n}x{n}, {nrhs} rhs"),
        batch,
        secs,
        flops: (batch * nrhs) as f64 * solve_flops::<T>(n),
        err_cpu,
        err_ref,
        differ: None,
        near: 0,
    })
}

/// `?gesv_batched_fullpivot_strided`: factor (STRICT) and solve, nrhs right-hand sides.
fn gesv_case<T: Blas>(h: &mut Handle, backend: &'static str, n: usize, batch: usize, a: &[T], seed: u64) -> Result<Row, String> {
    let nrhs = 2;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let b: Vec<T> = random(&mut rng, batch * n * nrhs);
    let (ni, sb) = (n as i64, (n * nrhs) as i64);
    let call = |h: &mut Handle| -> numgpu::Result<(Factors<T>, Vec<T>, f64)> {
        let mut f = Factors { f: a.to_vec(), ipiv: vec![0; n * batch], jpiv: vec![0; n * batch], info: vec![0; batch] };
        let mut x = b.clone();
        let t = Instant::now();
        gesv_strided(h, ni, nrhs as i64, &mut f.f, ni, ni * ni, &mut f.ipiv, &mut f.jpiv, &mut x, ni, sb, &mut f.info, batch as i64)?;
        h.synchronize()?;
        Ok((f, x, t.elapsed().as_secs_f64()))
    };
    let fail = |e: numgpu::Error| e.msg;
    if h.backend() == Backend::Cuda {
        call(h).map_err(fail)?;
    }
    let (f, x, secs) = call(h).map_err(fail)?;
    let (fc, xc, _) = call(&mut Handle::cpu()).map_err(fail)?;
    let (err_cpu, err_ref) = solve_errors(a, n, Op::N, &b, &x, &xc, nrhs, |_| 1.0, |i| f.info[i] != 0);
    let (differ, near) = f.differ(&fc, n);
    Ok(Row {
        routine: format!("{}gesv_fullpivot_strided", T::LETTER),
        backend,
        size: format!("{n}x{n}, {nrhs} rhs"),
        batch,
        secs,
        flops: batch as f64 * (lu_flops::<T>(n) + nrhs as f64 * solve_flops::<T>(n)),
        err_cpu,
        err_ref,
        differ: Some(differ),
        near,
    })
}

/// `?gesc2_batched_strided` with the factors `lu` of `a` (mode GETC2), one right-hand side,
/// against the CPU backend (LAPACK `?gesc2`): solution and scale.
fn gesc2_case<T: Blas>(h: &mut Handle, backend: &'static str, n: usize, batch: usize, a: &[T], lu: &Factors<T>, seed: u64) -> Result<Row, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let b: Vec<T> = random(&mut rng, batch * n);
    let ni = n as i64;
    let call = |h: &mut Handle| -> numgpu::Result<(Vec<T>, Vec<T::Real>, f64)> {
        let mut x = b.clone();
        let mut scale = vec![T::Real::default(); batch];
        let t = Instant::now();
        gesc2_strided(h, ni, &lu.f, ni, ni * ni, &mut x, ni, &lu.ipiv, &lu.jpiv, &mut scale, batch as i64)?;
        h.synchronize()?;
        Ok((x, scale, t.elapsed().as_secs_f64()))
    };
    let fail = |e: numgpu::Error| e.msg;
    if h.backend() == Backend::Cuda {
        call(h).map_err(fail)?;
    }
    let (x, scale, secs) = call(h).map_err(fail)?;
    let (xc, scalec, _) = call(&mut Handle::cpu()).map_err(fail)?;
    let (err_cpu, err_ref) = solve_errors(a, n, Op::N, &b, &x, &xc, 1, |i| scale[i].into(), |i| lu.info[i] != 0);
    Ok(Row {
        routine: format!("{}gesc2_batched_strided", T::LETTER),
        backend,
        size: format!("{n}x{n}, 1 rhs"),
        batch,
        secs,
        flops: batch as f64 * solve_flops::<T>(n),
        err_cpu,
        err_ref,
        differ: Some(scale.iter().zip(&scalec).filter(|(p, q)| p != q).count()),
        near: 0,
    })
}

/// Every getrf_fullpivot case of one precision: two size classes; getrf in both modes, and
/// getrs (N and T or C), gesc2 on the GETC2 factors; gesv.
fn fullpivot_all<T: Blas>(h: &mut Handle, backend: &'static str, rows: &mut Vec<Result<Row, String>>) {
    for (n, batch) in [(16, 10_000), (100, 1_000)] {
        let seed = (T::LETTER as u64) << 24 | 0x10_0000 | n as u64;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let a: Vec<T> = random(&mut rng, batch * n * n);
        match getrf_case::<T>(h, backend, Mode::Getc2, n, batch, &a) {
            Ok((row, lu)) => {
                rows.push(Ok(row));
                rows.push(getrs_case::<T>(h, backend, Op::N, n, batch, &a, &lu, seed + 1));
                let t = if T::IS_COMPLEX { Op::C } else { Op::T };
                rows.push(getrs_case::<T>(h, backend, t, n, batch, &a, &lu, seed + 2));
                rows.push(gesc2_case::<T>(h, backend, n, batch, &a, &lu, seed + 3));
            }
            Err(e) => rows.push(Err(e)),
        }
        rows.push(getrf_case::<T>(h, backend, Mode::Strict, n, batch, &a).map(|r| r.0));
        rows.push(gesv_case::<T>(h, backend, n, batch, &a, seed + 4));
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
    println!("checks: scaled error vs the CPU backend (whole batch) and vs a double-precision reference, each < {TOL}:");
    println!("  gemm: ‖ΔC‖ vs the CPU backend, and vs a triple loop ({SAMPLE} matrices)");
    println!("  getrf_fullpivot: factors vs the CPU backend ‖ΔF‖₁/(n‖A‖₁ε), and ‖PLUQ − A‖₁/(n‖A‖₁ε) ({SAMPLE} matrices); ≠cpu: matrices whose pivots or info differ from the CPU backend's (LAPACK ?getc2 in mode GETC2), must be 0; +k~: k near-ties besides (pivot within 4nε of the CPU's, relative: rounding), not failures");
    println!("  getrs, gesv, gesc2: ‖op(A)(x − x_cpu)‖₁ and ‖s·b − op(A)x‖₁ over ‖op(A)‖₁‖x‖₁nε (every rhs); ≠cpu: gesv's pivots or info, gesc2's scale, must be 0");
    println!("times: one call, host clock, host arrays in and out (on CUDA after a warm-up call, which compiles the kernel)\n");

    let mut rows = Vec::new();
    gemm_all::<f32>(&mut h, backend, &mut rows);
    gemm_all::<f64>(&mut h, backend, &mut rows);
    gemm_all::<Complex32>(&mut h, backend, &mut rows);
    gemm_all::<Complex64>(&mut h, backend, &mut rows);
    fullpivot_all::<f32>(&mut h, backend, &mut rows);
    fullpivot_all::<f64>(&mut h, backend, &mut rows);
    fullpivot_all::<Complex32>(&mut h, backend, &mut rows);
    fullpivot_all::<Complex64>(&mut h, backend, &mut rows);

    println!(
        "{:<32} {:<7} {:<14} {:>7} {:>10} {:>9} {:>9} {:>9} {:>6}  check",
        "routine", "backend", "size", "batch", "time ms", "GFLOP/s", "err/cpu", "err/ref", "≠cpu"
    );
    let mut failed = 0;
    for r in &rows {
        match r {
            Ok(r) => {
                if !r.ok() {
                    failed += 1;
                }
                println!(
                    "{:<32} {:<7} {:<14} {:>7} {:>10.3} {:>9.1} {:>9.3} {:>9.3} {:>6}  {}",
                    r.routine,
                    r.backend,
                    r.size,
                    r.batch,
                    r.secs * 1e3,
                    r.flops / r.secs / 1e9,
                    r.err_cpu,
                    r.err_ref,
                    r.differ.map_or("-".to_string(), |d| if r.near > 0 { format!("{d}+{}~", r.near) } else { d.to_string() }),
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
