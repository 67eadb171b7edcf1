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
//!   and info, and gesc2's scale, identical to the CPU backend's;
//! - geqrf_givens (tall m×n): geqrf's R and Q(:, 1:n) (rebuilt in double from the stored
//!   rotations) against the CPU backend's, up to the unit diagonal that may tell them apart,
//!   max |ΔR(i, j)| / (m·κ̂·‖a_j‖₂·ε) and |ΔQ| / (m·κ̂·ε), κ̂ = max / min |R(j, j)| / ‖a_j‖₂;
//!   on a sample ‖A − Q·R‖₁ / (m·‖A‖₁·ε) with Q rebuilt in double from the stored rotations and
//!   ||R| − |R_LAPACK|| / (m·κ̂·‖a_j‖₂·ε) against LAPACK `?geqrf` (R up to a unit diagonal);
//!   ormqr/unmqr (every side and trans) ‖ΔC‖_F / (m·‖C0‖_F·ε) against the CPU backend and
//!   against op(Q)·C0 in double; orgqr/ungqr max |ΔQ| / (m·ε) against the CPU backend, the
//!   rebuilt Q and ‖I − QᴴQ‖₁ / (m·ε); gels ‖A·(x − x_cpu)‖₂ / (m·‖A‖_F·‖x‖₂·ε) and the
//!   optimality ratio ‖Aᴴ(b − Ax)‖₂ / (m·‖A‖_F·(‖A‖_F·‖x‖₂ + 2‖b‖₂)·ε), info identical to the
//!   CPU backend's and the expected one (a zero column j gives info = j, B unchanged);
//! - gtsv_spike (one system, strided batch, interleaved batch; both pivoting modes, the
//!   diagonal-pivoting rows on random systems that need pivoting, the no-pivot rows on
//!   diagonally dominant ones): every right-hand side of every system, the backward error
//!   ‖b − T·x‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε) and the same measure of the difference from the CPU
//!   backend's solution (LAPACK `?gtsv`), ‖T·(x − x_cpu)‖∞ / ((‖T‖∞·‖x‖∞ + ‖b‖∞)·ε) (no factor
//!   n: a tridiagonal solve's backward error does not grow with n); info identical to the CPU
//!   backend's (0: every system is nonsingular);
//! - sshopm (tensor eigenpairs by SS-HOPM): Kofidis and Regalia's tensor ×1024, 128 shared
//!   random starts (the paper's setup): every start converges (≠cpu counts those that do
//!   not); err/ref = starts whose λ is not within 1e-4 of a known local maximum (one that
//!   stops near a saddle point, where λ moves by less than tol per step), per mille; err/cpu =
//!   starts that reach another maximum than on the CPU backend, per mille. A synthetic brain slice
//!   (64 × 64 voxels, m = 6, n = 3: one fibre, or two crossing at right angles, in directions
//!   that turn across the slice, weights 1 and 0.6): `sshopm_unique` per voxel from 32
//!   starts, the local maxima with λ above a fifth of the largest are the fibres found; ≠cpu
//!   counts the voxels with another number of fibres than they hold, err/ref = the largest
//!   angle between a fibre found and the true one in units of 0.1°, err/cpu the same against
//!   the CPU backend's fibres. `sym_apply` (A·x^{m−1} on every voxel) against the CPU
//!   backend, and `sym_pack(sym_unpack(a))` = a, in units of ε;
//! - rkc_integrate (the Brusselator at 32 and 64 equations and the heat equation with RKC, a
//!   Lorenz ensemble and PLEI with RKCK, a user-written CUDA source / host callback with RKC):
//!   per system ‖y − y_cpu‖∞ over 10·(atol + rtol·‖y‖∞) and ‖y − y_ref‖∞ over 100·(atol +
//!   rtol·‖y‖∞) (a global error: on PLEI's close encounters a few hundred local tolerances),
//!   y_ref from RKCK at 1e-12 on the CPU (on a sample) or PLEI's published values at t = 3;
//!   every status 0 and equal to the CPU backend's;
//! - csrmv (ops N, T and C, 0- and 1-based; a power-law graph and a matrix of
//!   shared/matrices) and the CMRS object (create with the default and with a given height
//!   and M, info, cmrsmv, update_values, destroy; short random rows and a matrix of
//!   shared/matrices): every entry of y against the CPU backend's and against a loop in
//!   double precision, |Δy_i| over the spec's per-entry tolerance unit (len_i + 4)·ε·(|α|·
//!   (|op(A)|·|x|)_i + |β|·|y0_i|) (|re| + |im|, times 2 for complex arithmetic; len_i the
//!   entries summed into y_i), which the tests hold below 1; CMRS's info (height, M, stored
//!   entries, padding ratio) as asked and identical to the CPU backend's.
//!
//! Times are host-clock times of one call after a warm-up call (which compiles the kernel on
//! CUDA), host arrays in and out: a tour, not a benchmark (see numgpu-bench). Exits non-zero
//! when any check fails.

use numgpu::gemm_batched::{gemm_batched, gemm_batched_strided, Batch};
use numgpu::geqrf_givens::{gels, gels_strided, geqrf as geqrf_givens, geqrf_strided, orgqr_strided, ormqr_strided};
use numgpu::getrf_fullpivot::{gesc2_strided, gesv_strided, getrf_strided, getrs_strided, lu_ratio, pivot_gap, Mode};
use numgpu::gtsv_spike::{gtsv_batched_interleaved_slices, gtsv_batched_strided_slices, gtsv_spike_slices, Pivoting};
use numgpu::lapack::Blas;
use numgpu::rkc::{rkc_integrate_slices, Callbacks, Layout, Method, Ode, Options, Problem};
use numgpu::spmv::suite::{generate, Kind};
use numgpu::spmv::{cmrs_from_csr, cmrs_update_host, cmrsmv_host, csrmv_csr, CmrsMatrix, CmrsScalar, Csr};
use numgpu::sshopm::{self as eig, Real};
use numgpu::{Backend, BackendChoice, Complex32, Complex64, Handle, Op, Scalar, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::Instant;

#[path = "../tests/integration/mtx.rs"]
mod mtx;
#[path = "../tests/integration/spmv_reference.rs"]
mod spmv_reference;
use spmv_reference::{abs1, reference};

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
    /// What the row shows besides its checks (gels: the info of its singular problems).
    note: String,
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

/// The letter of an op, as the rows name it.
fn op_char(o: Op) -> char {
    match o {
        Op::N => 'N',
        Op::T => 'T',
        Op::C => 'C',
    }
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

    let name = match form {
        Form::Strided => "gemm_batched_strided",
        Form::PointerArray => "gemm_batched",
    };
    Ok(Row {
        routine: format!("{}{name} {}{}", T::LETTER, op_char(ta), op_char(tb)),
        backend,
        size: format!("{n}x{n}x{n}"),
        batch,
        secs,
        flops: batch as f64 * (n * n * n) as f64 * if T::IS_COMPLEX { 8.0 } else { 2.0 },
        err_cpu,
        err_ref,
        differ: None,
        near: 0,
        note: String::new(),
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
    ratio(norm1v(&r), nm * norm1v(xn) * n as f64 * T::EPS)
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
        note: String::new(),
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
    Ok(Row {
        routine: format!("{}getrs_fullpivot_strided {}", T::LETTER, op_char(trans)),
        backend,
        size: format!("{n}x{n}, {nrhs} rhs"),
        batch,
        secs,
        flops: (batch * nrhs) as f64 * solve_flops::<T>(n),
        err_cpu,
        err_ref,
        differ: None,
        near: 0,
        note: String::new(),
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
        note: String::new(),
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
        note: String::new(),
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

/// Real flops of the Householder count LAPACK's testers use, complex ×4: the QR rows report
/// these equivalent rates (Givens rotations do about 1.5× as many).
fn cflops<T: Scalar>(real: f64) -> f64 {
    real * if T::IS_COMPLEX { 4.0 } else { 1.0 }
}

/// `?geqrf`'s count for m×n, m >= n: 2mn² − 2n³/3.
fn qr_flops<T: Scalar>(m: usize, n: usize) -> f64 {
    let (m, n) = (m as f64, n as f64);
    cflops::<T>(2.0 * m * n * n - 2.0 * n * n * n / 3.0)
}

/// Givens QR factors of a batch, packed m×n each: A (R and the sines) and CS (the cosines).
struct GivensQr<T: Scalar> {
    f: Vec<T>,
    cs: Vec<T::Real>,
}

/// `?geqrf_givens_batched_strided`, or the pointer-array form (matrix i of the call is matrix
/// batch−1−i of the arrays), on a copy of `a`; the call's seconds.
fn givens_factor<T: Blas>(h: &mut Handle, form: Form, a: &[T], m: usize, n: usize, batch: usize) -> Result<(GivensQr<T>, f64), String> {
    let e = m * n;
    let mut r = GivensQr { f: a.to_vec(), cs: vec![T::Real::default(); batch * e] };
    let (ml, nl) = (m as i64, n as i64);
    let t = Instant::now();
    match form {
        Form::Strided => geqrf_strided(h, ml, nl, &mut r.f, ml, e as i64, &mut r.cs, ml, e as i64, batch as i64),
        Form::PointerArray => {
            let (pf, pc) = (r.f.as_mut_ptr(), r.cs.as_mut_ptr());
            // SAFETY: distinct m×n matrices inside f and cs.
            let pa: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { pf.add(i * e) }).collect();
            let pcs: Vec<*mut T::Real> = (0..batch).rev().map(|i| unsafe { pc.add(i * e) }).collect();
            // SAFETY: the arrays hold `batch` pointers to m×n matrices (ld = m) in host memory.
            unsafe { geqrf_givens(h, ml, nl, Batch::Array(pa.as_ptr()), ml, Batch::Array(pcs.as_ptr()), ml, batch as i64) }
        }
    }
    .map_err(|e| e.msg)?;
    h.synchronize().map_err(|e| e.msg)?;
    Ok((r, t.elapsed().as_secs_f64()))
}

/// The first `cols` columns of the unitary Q (m×m) of the rotations stored in the first k
/// columns of one matrix's factors (`f`, `cs`: m×n, ld = m), rebuilt in double precision:
/// G(i, j) acts on rows (i−1, i) as `[c s; −conj(s) c]`, applied in the serial order (columns
/// left to right, each from the bottom row up), so Q = G(1)ᴴ·G(2)ᴴ ⋯ G(N)ᴴ is I with the Gᴴ
/// applied in reverse order.
fn givens_q<T: Scalar>(f: &[T], cs: &[T::Real], m: usize, k: usize, cols: usize) -> Vec<Complex64> {
    let mut q: Vec<Complex64> = (0..m * cols).map(|e| Complex64::new(if e % m == e / m { 1.0 } else { 0.0 }, 0.0)).collect();
    for j in (0..k).rev() {
        for i in j + 1..m {
            let (c, s): (f64, Complex64) = (cs[i + j * m].into(), f[i + j * m].to_c64());
            for col in 0..cols {
                let (x, y) = (q[i - 1 + col * m], q[i + col * m]);
                q[i - 1 + col * m] = c * x - s * y;
                q[i + col * m] = s.conj() * x + c * y;
            }
        }
    }
    q
}

/// The geqrf_givens checks of one matrix (`a` input, `f`/`cs` ours, `fc`/`csc` the CPU
/// backend's factors, m×n). Against the CPU backend: R and Q(:, 1:n) (rebuilt in double)
/// after removing the unit diagonal D that tells them apart (D = 1 unless a rounding flips
/// the sign of a nearly-zero rotation input), |R(i, j) − d_i·Rc(i, j)| / (m·κ̂·‖a_j‖₂·ε) and
/// |Q(i, j) − Qc(i, j)·conj(d_j)| / (m·κ̂·ε), κ̂ = max / min |Rc(j, j)| / ‖a_j‖₂ (the
/// sensitivity of R and Q: the individual sines and cosines are not compared, a rotation whose
/// inputs are both tiny has an ill-determined angle); against the references, when
/// `reference`: the max of ‖A − Q·R‖₁ / (m·‖A‖₁·ε) with Q rebuilt in double, and
/// ||R| − |R_LAPACK|| / (m·κ̂·‖a_j‖₂·ε) against LAPACK ?geqrf (κ̂ of LAPACK's R).
#[allow(clippy::too_many_arguments)]
fn givens_errors<T: Blas>(a: &[T], f: &[T], cs: &[T::Real], fc: &[T], csc: &[T::Real], m: usize, n: usize, reference: bool) -> (f64, f64) {
    let norms: Vec<f64> = (0..n).map(|j| fro(&a[j * m..(j + 1) * m])).collect();
    // max / min of |R(j, j)| / ‖a_j‖₂, at least 1.
    let kappa_of = |r: &[T]| {
        let diag: Vec<f64> = (0..n).map(|j| r[j + j * m].to_c64().norm() / norms[j]).collect();
        (diag.iter().cloned().fold(0.0, f64::max) / diag.iter().cloned().fold(f64::INFINITY, f64::min)).max(1.0)
    };
    let unit = m as f64 * kappa_of(fc) * T::EPS;
    let d: Vec<Complex64> = (0..n)
        .map(|j| {
            let (o, c) = (f[j + j * m].to_c64(), fc[j + j * m].to_c64());
            if o.norm() == 0.0 || c.norm() == 0.0 {
                Complex64::new(1.0, 0.0)
            } else {
                (o / o.norm()) / (c / c.norm())
            }
        })
        .collect();
    let mut err_cpu = 0f64;
    for j in 0..n {
        for i in 0..=j {
            err_cpu = nan_max(err_cpu, (f[i + j * m].to_c64() - d[i] * fc[i + j * m].to_c64()).norm() / (unit * norms[j]));
        }
    }
    let (q, qc) = (givens_q(f, cs, m, n, n), givens_q(fc, csc, m, n, n));
    for j in 0..n {
        for i in 0..m {
            err_cpu = nan_max(err_cpu, (q[i + j * m] - qc[i + j * m] * d[j].conj()).norm() / unit);
        }
    }
    if !reference {
        return (err_cpu, 0.0);
    }
    let ac = c64s(a);
    let mut diff = ac.clone();
    for j in 0..n {
        for k in 0..=j {
            let r = f[k + j * m].to_c64();
            for i in 0..m {
                diff[i + j * m] -= q[i + k * m] * r;
            }
        }
    }
    let norm1 = |x: &[Complex64]| (0..n).map(|j| norm1v(&x[j * m..(j + 1) * m])).fold(0.0, f64::max);
    let mut err_ref = norm1(&diff) / (m as f64 * norm1(&ac) * T::EPS);
    let mut l = a.to_vec();
    let mut tau = vec![T::zero(); n];
    // SAFETY: one m×n matrix (lda = m) and n entries of tau.
    if unsafe { T::geqrf(m as i32, n as i32, l.as_mut_ptr(), m as i32, tau.as_mut_ptr()) } != 0 {
        return (err_cpu, f64::INFINITY);
    }
    let kappa = kappa_of(&l);
    for j in 0..n {
        for i in 0..=j {
            let dr = (f[i + j * m].to_c64().norm() - l[i + j * m].to_c64().norm()).abs();
            err_ref = nan_max(err_ref, dr / (m as f64 * kappa * norms[j] * T::EPS));
        }
    }
    (err_cpu, err_ref)
}

/// `?geqrf_givens_batched[_strided]` against the CPU backend (the whole batch) and the
/// references (a sample); returns the row and the factors, which the rows below reuse.
fn givens_geqrf_case<T: Blas>(h: &mut Handle, backend: &'static str, form: Form, a: &[T], m: usize, n: usize, batch: usize) -> Result<(Row, GivensQr<T>), String> {
    if h.backend() == Backend::Cuda {
        givens_factor(h, form, a, m, n, batch)?; // warm-up: compiles the kernel
    }
    let (ours, secs) = givens_factor(h, form, a, m, n, batch)?;
    let (cpu, _) = givens_factor(&mut Handle::cpu(), Form::Strided, a, m, n, batch)?;
    let e = m * n;
    let (mut err_cpu, mut err_ref) = (0f64, 0f64);
    let sampled: Vec<usize> = sample(batch).collect();
    for i in 0..batch {
        let s = i * e..(i + 1) * e;
        let (c, r) = givens_errors(&a[s.clone()], &ours.f[s.clone()], &ours.cs[s.clone()], &cpu.f[s.clone()], &cpu.cs[s], m, n, sampled.contains(&i));
        (err_cpu, err_ref) = (nan_max(err_cpu, c), nan_max(err_ref, r));
    }
    let name = if form == Form::Strided { "geqrf_givens_batched_strided" } else { "geqrf_givens_batched" };
    let row = Row {
        routine: format!("{}{name}", T::LETTER),
        backend,
        size: format!("{m}x{n}"),
        batch,
        secs,
        flops: batch as f64 * qr_flops::<T>(m, n),
        err_cpu,
        err_ref,
        differ: None,
        near: 0,
        note: String::new(),
    };
    Ok((row, ours))
}

/// `?ormqr_givens_batched_strided` (real) / `?unmqr_…` (complex), one side and trans, with
/// the factors `qr` (m×n, k = n): C (m×nc for Left, nc×m for Right) against the CPU backend
/// and against op(Q) rebuilt in double times C0 (a sample).
#[allow(clippy::too_many_arguments)]
fn givens_ormqr_case<T: Blas>(h: &mut Handle, backend: &'static str, side: Side, trans: Op, qr: &GivensQr<T>, m: usize, n: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let nc = 8;
    let (cm, cn) = if side == Side::Left { (m, nc) } else { (nc, m) };
    let ec = cm * cn;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let c0: Vec<T> = random(&mut rng, batch * ec);
    let (ml, e) = (m as i64, (m * n) as i64);
    let call = |h: &mut Handle, c: &mut [T]| -> numgpu::Result<()> {
        ormqr_strided(h, side, trans, cm as i64, cn as i64, n as i64, &qr.f, ml, e, &qr.cs, ml, e, c, cm as i64, ec as i64, batch as i64)?;
        h.synchronize()
    };
    let fail = |e: numgpu::Error| e.msg;
    if h.backend() == Backend::Cuda {
        call(h, &mut c0.clone()).map_err(fail)?;
    }
    let mut c = c0.clone();
    let t = Instant::now();
    call(h, &mut c).map_err(fail)?;
    let secs = t.elapsed().as_secs_f64();
    let mut cc = c0.clone();
    call(&mut Handle::cpu(), &mut cc).map_err(fail)?;
    let scale = |i: usize| m as f64 * fro(&c0[i * ec..(i + 1) * ec]) * T::EPS;
    let mut err_cpu = 0f64;
    for i in 0..batch {
        let s = i * ec..(i + 1) * ec;
        err_cpu = nan_max(err_cpu, fro_diff(&c[s.clone()], &cc[s]) / scale(i));
    }
    let mut err_ref = 0f64;
    for i in sample(batch) {
        let q = givens_q(&qr.f[i * m * n..(i + 1) * m * n], &qr.cs[i * m * n..(i + 1) * m * n], m, n, m);
        // op(Q)(r, l) in double.
        let opq = |r: usize, l: usize| match trans {
            Op::N => q[r + l * m],
            Op::T => q[l + r * m],
            Op::C => q[l + r * m].conj(),
        };
        let (ci, c0i) = (&c[i * ec..(i + 1) * ec], c64s(&c0[i * ec..(i + 1) * ec]));
        let mut d = 0f64;
        for col in 0..cn {
            for row in 0..cm {
                let want: Complex64 = if side == Side::Left { (0..m).map(|l| opq(row, l) * c0i[l + col * cm]).sum() } else { (0..m).map(|l| c0i[row + l * cm] * opq(l, col)).sum() };
                d += (ci[row + col * cm].to_c64() - want).norm_sqr();
            }
        }
        err_ref = nan_max(err_ref, d.sqrt() / scale(i));
    }
    let (k, real) = (n as f64, (cm * cn) as f64);
    // LAPACK's ?ormqr count: 4·m·n·k − 2·(n for Left, m for Right)·k².
    let other = if side == Side::Left { cn } else { cm } as f64;
    let (routine, t) = if T::IS_COMPLEX { ("unmqr", 'C') } else { ("ormqr", 'T') };
    Ok(Row {
        routine: format!("{}{routine}_givens_batched_strided {}{}", T::LETTER, if side == Side::Left { 'L' } else { 'R' }, if trans == Op::N { 'N' } else { t }),
        backend,
        size: format!("{cm}x{cn}, k={n}"),
        batch,
        secs,
        flops: batch as f64 * cflops::<T>(4.0 * real * k - 2.0 * other * k * k),
        err_cpu,
        err_ref,
        differ: None,
        near: 0,
        note: String::new(),
    })
}

/// `?orgqr_givens_batched_strided` / `?ungqr_…`: the first n columns of Q from the factors
/// `qr` (k = n), against the CPU backend (max |ΔQ| / (m·ε)) and against Q rebuilt in double
/// and the orthogonality ‖I − QᴴQ‖₁ / (m·ε) (a sample).
fn givens_orgqr_case<T: Blas>(h: &mut Handle, backend: &'static str, qr: &GivensQr<T>, m: usize, n: usize, batch: usize) -> Result<Row, String> {
    let (ml, nl, e) = (m as i64, n as i64, m * n);
    let call = |h: &mut Handle| -> numgpu::Result<(Vec<T>, f64)> {
        let mut q = qr.f.clone();
        let t = Instant::now();
        orgqr_strided(h, ml, nl, nl, &mut q, ml, e as i64, &qr.cs, ml, e as i64, batch as i64)?;
        h.synchronize()?;
        Ok((q, t.elapsed().as_secs_f64()))
    };
    let fail = |e: numgpu::Error| e.msg;
    if h.backend() == Backend::Cuda {
        call(h).map_err(fail)?;
    }
    let (q, secs) = call(h).map_err(fail)?;
    let (qc, _) = call(&mut Handle::cpu()).map_err(fail)?;
    let unit = m as f64 * T::EPS;
    let err_cpu = q.iter().zip(&qc).map(|(x, y)| (x.to_c64() - y.to_c64()).norm() / unit).fold(0.0, nan_max);
    let mut err_ref = 0f64;
    for i in sample(batch) {
        let s = i * e..(i + 1) * e;
        let (qi, want) = (c64s(&q[s.clone()]), givens_q(&qr.f[s.clone()], &qr.cs[s], m, n, n));
        err_ref = qi.iter().zip(&want).map(|(x, y)| (x - y).norm() / unit).fold(err_ref, nan_max);
        for j in 0..n {
            let col: f64 = (0..n).map(|l| ((0..m).map(|r| qi[r + l * m].conj() * qi[r + j * m]).sum::<Complex64>() - if l == j { 1.0 } else { 0.0 }).norm()).sum();
            err_ref = nan_max(err_ref, col / unit);
        }
    }
    let (mf, nf) = (m as f64, n as f64);
    Ok(Row {
        routine: format!("{}{}_givens_batched_strided", T::LETTER, if T::IS_COMPLEX { "ungqr" } else { "orgqr" }),
        backend,
        size: format!("{m}x{n}, k={n}"),
        batch,
        secs,
        // LAPACK's ?orgqr count with k = n: 4mn² − 2(m + n)n² + 4n³/3.
        flops: batch as f64 * cflops::<T>(4.0 * mf * nf * nf - 2.0 * (mf + nf) * nf * nf + 4.0 * nf * nf * nf / 3.0),
        err_cpu,
        err_ref,
        differ: None,
        near: 0,
        note: String::new(),
    })
}

/// `?gels_givens_batched_strided`, or with `singular` the pointer-array form where every
/// fourth problem has column 3 exactly zero (info = 3, B left unchanged): min ‖A·x − b‖ for
/// nrhs right-hand sides. err/cpu: ‖A·(x − x_cpu)‖₂ / (m·‖A‖_F·‖x‖₂·ε); err/ref: LAPACK's
/// optimality ratio ‖Aᴴ·(b − A·x)‖₂ / (m·‖A‖_F·(‖A‖_F·‖x‖₂ + 2‖b‖₂)·ε), every right-hand
/// side of every full-rank problem; ≠cpu: problems whose info differs from the CPU backend's
/// or the expected one, or whose B changed although info ≠ 0.
#[allow(clippy::too_many_arguments)]
fn givens_gels_case<T: Blas>(h: &mut Handle, backend: &'static str, singular: bool, a0: &[T], m: usize, n: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let (nrhs, e, zero_col) = (2, m * n, 2);
    let mut a = a0.to_vec();
    let expect = |i: usize| if singular && i % 4 == 1 { zero_col as i32 + 1 } else { 0 };
    for i in (0..batch).filter(|&i| expect(i) != 0) {
        a[i * e + zero_col * m..i * e + (zero_col + 1) * m].fill(T::zero());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let eb = m * nrhs;
    let b: Vec<T> = random(&mut rng, batch * eb);
    let (ml, nl) = (m as i64, n as i64);
    let call = |h: &mut Handle, form: Form| -> numgpu::Result<(Vec<T>, Vec<i32>, f64)> {
        let (mut f, mut x, mut info) = (a.clone(), b.clone(), vec![-7; batch]);
        let t = Instant::now();
        match form {
            Form::Strided => gels_strided(h, ml, nl, nrhs as i64, &mut f, ml, e as i64, &mut x, ml, eb as i64, &mut info, batch as i64)?,
            Form::PointerArray => {
                // Matrix i of the call is problem batch−1−i of the arrays.
                let (pf, px) = (f.as_mut_ptr(), x.as_mut_ptr());
                // SAFETY: distinct matrices inside f and x.
                let pa: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { pf.add(i * e) }).collect();
                let pb: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { px.add(i * eb) }).collect();
                let mut rev = vec![-7; batch];
                // SAFETY: `batch` pointers to m×n and m×nrhs matrices (ld = m) in host memory.
                unsafe { gels(h, ml, nl, nrhs as i64, Batch::Array(pa.as_ptr()), ml, Batch::Array(pb.as_ptr()), ml, rev.as_mut_ptr(), batch as i64)? };
                rev.reverse();
                info = rev;
            }
        }
        h.synchronize()?;
        Ok((x, info, t.elapsed().as_secs_f64()))
    };
    let form = if singular { Form::PointerArray } else { Form::Strided };
    let fail = |e: numgpu::Error| e.msg;
    if h.backend() == Backend::Cuda {
        call(h, form).map_err(fail)?;
    }
    let (x, info, secs) = call(h, form).map_err(fail)?;
    let (xc, infoc, _) = call(&mut Handle::cpu(), Form::Strided).map_err(fail)?;
    let (mut err_cpu, mut err_ref, mut differ) = (0f64, 0f64, 0);
    for i in 0..batch {
        let sb = i * eb..(i + 1) * eb;
        if info[i] != infoc[i] || info[i] != expect(i) {
            differ += 1;
            continue;
        }
        if info[i] != 0 {
            differ += (x[sb.clone()] != b[sb]) as usize;
            continue;
        }
        let ai = c64s(&a[i * e..(i + 1) * e]);
        let na = fro(&a[i * e..(i + 1) * e]);
        let times_a = |v: &[Complex64]| -> Vec<Complex64> { (0..m).map(|r| (0..n).map(|j| ai[r + j * m] * v[j]).sum()).collect() };
        for r in 0..nrhs {
            let col = i * eb + r * m;
            let (xs, bs) = (c64s(&x[col..col + n]), c64s(&b[col..col + m]));
            let dx: Vec<Complex64> = x[col..col + n].iter().zip(&xc[col..col + n]).map(|(p, q)| p.to_c64() - q.to_c64()).collect();
            let nx = xs.iter().map(|v| v.norm_sqr()).sum::<f64>().sqrt();
            let nb = bs.iter().map(|v| v.norm_sqr()).sum::<f64>().sqrt();
            let dax = times_a(&dx).iter().map(|v| v.norm_sqr()).sum::<f64>().sqrt();
            err_cpu = nan_max(err_cpu, dax / (m as f64 * na * nx * T::EPS));
            let res: Vec<Complex64> = times_a(&xs).iter().zip(&bs).map(|(p, q)| q - p).collect();
            let g = (0..n).map(|j| (0..m).map(|l| ai[l + j * m].conj() * res[l]).sum::<Complex64>().norm_sqr()).sum::<f64>().sqrt();
            err_ref = nan_max(err_ref, g / (m as f64 * na * (na * nx + 2.0 * nb) * T::EPS));
        }
    }
    let zeros = info.iter().filter(|&&v| v != 0).count();
    let (mf, nf, rf) = (m as f64, n as f64, nrhs as f64);
    Ok(Row {
        routine: format!("{}gels_givens_batched{}", T::LETTER, if singular { "" } else { "_strided" }),
        backend,
        size: format!("{m}x{n}, {nrhs} rhs"),
        batch,
        secs,
        // geqrf + ?ormqr (Left, nrhs columns, k = n) + the triangular solve.
        flops: batch as f64 * (qr_flops::<T>(m, n) + cflops::<T>(4.0 * mf * rf * nf - 2.0 * rf * nf * nf + rf * nf * nf)),
        err_cpu,
        err_ref,
        differ: Some(differ),
        near: 0,
        note: if singular { format!("info = {} on {zeros} of {batch} (column {} zero; B unchanged)", zero_col + 1, zero_col + 1) } else { String::new() },
    })
}

/// Every geqrf_givens case of one precision on tall m×n matrices: geqrf in both forms; with
/// its factors ormqr/unmqr (side L and R, trans N and T or C) and orgqr/ungqr; gels full
/// rank (strided) and with singular problems (pointer arrays).
fn givens_all<T: Blas>(h: &mut Handle, backend: &'static str, rows: &mut Vec<Result<Row, String>>) {
    let (m, n, batch) = (40, 32, 500);
    let seed = (T::LETTER as u64) << 24 | 0x20_0000;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let a: Vec<T> = random(&mut rng, batch * m * n);
    match givens_geqrf_case::<T>(h, backend, Form::Strided, &a, m, n, batch) {
        Ok((row, qr)) => {
            rows.push(Ok(row));
            let t = if T::IS_COMPLEX { Op::C } else { Op::T };
            for (k, (side, trans)) in [(Side::Left, Op::N), (Side::Left, t), (Side::Right, Op::N), (Side::Right, t)].into_iter().enumerate() {
                rows.push(givens_ormqr_case::<T>(h, backend, side, trans, &qr, m, n, batch, seed + 1 + k as u64));
            }
            rows.push(givens_orgqr_case::<T>(h, backend, &qr, m, n, batch));
        }
        Err(e) => rows.push(Err(e)),
    }
    rows.push(givens_geqrf_case::<T>(h, backend, Form::PointerArray, &a, m, n, batch).map(|r| r.0));
    rows.push(givens_gels_case::<T>(h, backend, false, &a, m, n, batch, seed + 8));
    rows.push(givens_gels_case::<T>(h, backend, true, &a, m, n, batch, seed + 9));
}

/// The three forms of the tridiagonal solvers.
#[derive(Clone, Copy, PartialEq)]
enum TriForm {
    Single,
    Strided,
    Interleaved,
}

/// One tridiagonal system in LAPACK's layout (dl and du with n − 1 entries) and its
/// right-hand sides (n × nrhs, compact).
struct Tri<T> {
    dl: Vec<T>,
    d: Vec<T>,
    du: Vec<T>,
    b: Vec<T>,
}

impl<T: Scalar> Tri<T> {
    /// Entries uniform in [-1, 1) (both parts, complex); `dominant`: the diagonal pushed out to
    /// |d(k)| > 4, strictly diagonally dominant; else left so, which needs pivoting.
    fn random(rng: &mut ChaCha8Rng, n: usize, nrhs: usize, dominant: bool) -> Tri<T> {
        let (dl, du, mut d, b) = (random(rng, n - 1), random(rng, n - 1), random::<T>(rng, n), random(rng, n * nrhs));
        if dominant {
            for x in &mut d {
                let z = x.to_c64();
                *x = T::from_c64(if z.norm() > 0.0 { z * (1.0 + 4.0 / z.norm()) } else { Complex64::new(4.0, 0.0) });
            }
        }
        Tri { dl, d, du, b }
    }

    /// T·v in double precision.
    fn apply(&self, v: &[Complex64]) -> Vec<Complex64> {
        let n = self.d.len();
        (0..n)
            .map(|k| {
                let mut s = self.d[k].to_c64() * v[k];
                if k > 0 {
                    s += self.dl[k - 1].to_c64() * v[k - 1];
                }
                if k + 1 < n {
                    s += self.du[k].to_c64() * v[k + 1];
                }
                s
            })
            .collect()
    }

    /// ‖T‖∞ (largest row sum).
    fn norm_inf(&self) -> f64 {
        let n = self.d.len();
        let at = |v: &[T], k: usize| v.get(k).map_or(0.0, |x| x.to_c64().norm());
        (0..n).map(|k| self.d[k].to_c64().norm() + if k > 0 { at(&self.dl, k - 1) } else { 0.0 } + at(&self.du, k)).fold(0.0, f64::max)
    }
}

fn norm_inf(v: &[Complex64]) -> f64 {
    v.iter().map(|z| z.norm()).fold(0.0, nan_max)
}

/// (err/cpu, err/ref) of our solutions `x` and the CPU backend's `xc` (n × nrhs per system,
/// compact, one system after the other): the max over systems and right-hand sides of
/// ‖T·(x − xc)‖∞ and of ‖b − T·x‖∞, each over (‖T‖∞·‖x‖∞ + ‖b‖∞)·ε.
fn tri_errors<T: Scalar>(systems: &[Tri<T>], n: usize, nrhs: usize, x: &[T], xc: &[T]) -> (f64, f64) {
    let (mut err_cpu, mut err_ref) = (0f64, 0f64);
    for (i, s) in systems.iter().enumerate() {
        let nt = s.norm_inf();
        for r in 0..nrhs {
            let col = (i * nrhs + r) * n..(i * nrhs + r + 1) * n;
            let (xs, b) = (c64s(&x[col.clone()]), c64s(&s.b[r * n..(r + 1) * n]));
            let d: Vec<Complex64> = x[col.clone()].iter().zip(&xc[col]).map(|(p, q)| p.to_c64() - q.to_c64()).collect();
            let scale = (nt * norm_inf(&xs) + norm_inf(&b)) * T::EPS;
            let res: Vec<Complex64> = s.apply(&xs).iter().zip(&b).map(|(p, q)| q - p).collect();
            err_ref = nan_max(err_ref, norm_inf(&res) / scale);
            err_cpu = nan_max(err_cpu, norm_inf(&s.apply(&d)) / scale);
        }
    }
    (err_cpu, err_ref)
}

/// One form of `?gtsv_*` in one pivoting mode: `batch` systems of order n (one for the single
/// form) with nrhs right-hand sides (1 for the interleaved form), laid out as the form takes
/// them (the strided batch with gaps between the systems' diagonals and between the B_i, the
/// interleaved one with NaN in dl's first and du's last row, which are not referenced),
/// against the CPU backend (LAPACK `?gtsv`).
#[allow(clippy::too_many_arguments)]
fn gtsv_case<T: Blas>(h: &mut Handle, backend: &'static str, form: TriForm, mode: Pivoting, n: usize, nrhs: usize, batch: usize, seed: u64) -> Result<Row, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dominant = mode == Pivoting::NoPivot;
    let systems: Vec<Tri<T>> = (0..batch).map(|_| Tri::random(&mut rng, n, nrhs, dominant)).collect();
    let nan = T::from_c64(Complex64::new(f64::NAN, f64::NAN));
    let (nl, rl, bl) = (n as i64, nrhs as i64, batch as i64);
    // The call on the form's layout; returns X (n × nrhs per system, compact), info, seconds.
    let call = |h: &mut Handle| -> numgpu::Result<(Vec<T>, Vec<i32>, f64)> {
        let mut info = vec![-7; batch];
        let (x, secs) = match form {
            TriForm::Single => {
                let s = &systems[0];
                let mut b = s.b.clone();
                let t = Instant::now();
                gtsv_spike_slices(h, nl, rl, &s.dl, &s.d, &s.du, &mut b, nl, &mut info[0], mode)?;
                h.synchronize()?;
                (b, t.elapsed().as_secs_f64())
            }
            TriForm::Strided => {
                let (sd, sb) = (n + 3, n * nrhs + 5);
                let (mut dl, mut d, mut du, mut b) = (vec![nan; sd * batch], vec![nan; sd * batch], vec![nan; sd * batch], vec![nan; sb * batch]);
                for (i, s) in systems.iter().enumerate() {
                    dl[i * sd..i * sd + n - 1].copy_from_slice(&s.dl);
                    d[i * sd..i * sd + n].copy_from_slice(&s.d);
                    du[i * sd..i * sd + n - 1].copy_from_slice(&s.du);
                    b[i * sb..i * sb + n * nrhs].copy_from_slice(&s.b);
                }
                let t = Instant::now();
                gtsv_batched_strided_slices(h, nl, rl, &dl, &d, &du, sd as i64, &mut b, nl, sb as i64, &mut info, bl, mode)?;
                h.synchronize()?;
                let secs = t.elapsed().as_secs_f64();
                ((0..batch).flat_map(|i| b[i * sb..i * sb + n * nrhs].to_vec()).collect(), secs)
            }
            TriForm::Interleaved => {
                let (mut dl, mut d, mut du, mut b) = (vec![nan; n * batch], vec![nan; n * batch], vec![nan; n * batch], vec![nan; n * batch]);
                for (i, s) in systems.iter().enumerate() {
                    for k in 0..n {
                        let e = k * batch + i;
                        (d[e], b[e]) = (s.d[k], s.b[k]);
                        if k > 0 {
                            dl[e] = s.dl[k - 1];
                        }
                        if k + 1 < n {
                            du[e] = s.du[k];
                        }
                    }
                }
                let t = Instant::now();
                gtsv_batched_interleaved_slices(h, nl, &dl, &d, &du, &mut b, &mut info, bl, mode)?;
                h.synchronize()?;
                let secs = t.elapsed().as_secs_f64();
                ((0..batch).flat_map(|i| (0..n).map(move |k| k * batch + i)).map(|e| b[e]).collect(), secs)
            }
        };
        Ok((x, info, secs))
    };
    let fail = |e: numgpu::Error| e.msg;
    if h.backend() == Backend::Cuda {
        call(h).map_err(fail)?; // warm-up: compiles the kernel
    }
    let (x, info, secs) = call(h).map_err(fail)?;
    let (xc, infoc, _) = call(&mut Handle::cpu()).map_err(fail)?;
    let (err_cpu, err_ref) = tri_errors(&systems, n, nrhs, &x, &xc);
    let name = match form {
        TriForm::Single => "gtsv_spike",
        TriForm::Strided => "gtsv_batched_strided",
        TriForm::Interleaved => "gtsv_batched_interleaved",
    };
    Ok(Row {
        routine: format!("{}{name} {}", T::LETTER, if mode == Pivoting::Diagonal { "DIAG" } else { "NOPIVOT" }),
        backend,
        size: format!("n={n}, {nrhs} rhs"),
        batch,
        secs,
        // About 8n flops per system and right-hand side (elimination and substitution).
        flops: (batch * nrhs) as f64 * cflops::<T>(8.0 * n as f64),
        err_cpu,
        err_ref,
        differ: Some(info.iter().zip(&infoc).filter(|(p, q)| p != q || **p != 0).count()),
        near: 0,
        note: (if dominant { "diagonally dominant" } else { "random: needs pivoting" }).into(),
    })
}

/// Every gtsv_spike case of one precision: the three forms, both modes.
fn gtsv_all<T: Blas>(h: &mut Handle, backend: &'static str, rows: &mut Vec<Result<Row, String>>) {
    let seed = (T::LETTER as u64) << 24 | 0x30_0000;
    for (k, mode) in [Pivoting::Diagonal, Pivoting::NoPivot].into_iter().enumerate() {
        let s = seed + 4 * k as u64;
        rows.push(gtsv_case::<T>(h, backend, TriForm::Single, mode, 200_003, 2, 1, s));
        rows.push(gtsv_case::<T>(h, backend, TriForm::Strided, mode, 100, 2, 2_000, s + 1));
        rows.push(gtsv_case::<T>(h, backend, TriForm::Interleaved, mode, 64, 1, 10_000, s + 2));
    }
}

/// `a`'s pattern with values of T: real parts `a`'s own, for complex types imaginary parts
/// random in [-1, 1) (so that op C differs from op T).
fn sparse_values<T: Scalar>(a: &Csr<f64>, rng: &mut ChaCha8Rng) -> Csr<T> {
    let mut out = a.map(|v| T::from_c64(Complex64::new(v, 0.0)));
    if T::IS_COMPLEX {
        out.val.iter_mut().for_each(|v| *v = T::from_c64(Complex64::new(v.to_c64().re, rng.gen_range(-1.0..1.0))));
    }
    out
}

/// The largest |got_i − want_i| / unit_i (in |re| + |im|), for the tolerance units of
/// `spmv_reference::reference`.
fn sparse_error<T: Scalar>(got: &[T], want: &[Complex64], unit: &[f64]) -> f64 {
    got.iter().zip(want).zip(unit).map(|((g, w), u)| ratio(abs1(g.to_c64() - w), *u)).fold(0.0, nan_max)
}

/// `?csrmv` with op `trans` on `a` (0- or 1-based, as it is), alpha = 1 − i/2 (1 for real
/// types), beta = 1/2 (y read): against the CPU backend and the double-precision reference.
fn csrmv_case<T: Scalar>(h: &mut Handle, backend: &'static str, name: &str, trans: Op, a: &Csr<T>, seed: u64) -> Result<Row, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (xlen, ylen) = if trans == Op::N { (a.n, a.m) } else { (a.m, a.n) };
    let (x, y0): (Vec<T>, Vec<T>) = (random(&mut rng, xlen), random(&mut rng, ylen));
    let alpha = T::from_c64(Complex64::new(1.0, -0.5));
    let beta = T::from_c64(Complex64::new(0.5, 0.0));
    let call = |h: &mut Handle| -> Result<(Vec<T>, f64), String> {
        let mut y = y0.clone();
        let t = Instant::now();
        csrmv_csr(h, trans, alpha, a, &x, beta, &mut y).map_err(|e| e.msg)?;
        h.synchronize().map_err(|e| e.msg)?;
        Ok((y, t.elapsed().as_secs_f64()))
    };
    if h.backend() == Backend::Cuda {
        call(h)?; // warm-up: compiles the kernel
    }
    let (y, secs) = call(h)?;
    let (ycpu, _) = call(&mut Handle::cpu())?;
    let (want, unit) = reference(trans, alpha, a, &x, beta, &y0);
    Ok(Row {
        routine: format!("{}csrmv {} {name}", T::LETTER, op_char(trans)),
        backend,
        size: format!("{}x{}", a.m, a.n),
        batch: 1,
        secs,
        flops: cflops::<T>(2.0 * a.nnz() as f64),
        err_cpu: sparse_error(&y, &c64s(&ycpu), &unit),
        err_ref: sparse_error(&y, &want, &unit),
        differ: None,
        near: 0,
        note: format!("nnz {}, {}-based", a.nnz(), a.base),
    })
}

/// Every csrmv case of one precision: ops N, T and C on each matrix, the first 0-based, the
/// others 1-based.
fn csrmv_all<T: Scalar>(h: &mut Handle, backend: &'static str, mats: &[(&str, Csr<f64>)], rows: &mut Vec<Result<Row, String>>) {
    let seed = (T::LETTER as u64) << 24 | 0x40_0000;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for (k, (name, a)) in mats.iter().enumerate() {
        let a = sparse_values::<T>(a, &mut rng).with_base(k.min(1) as i32);
        for (j, trans) in [Op::N, Op::T, Op::C].into_iter().enumerate() {
            rows.push(csrmv_case::<T>(h, backend, name, trans, &a, seed + 1 + (3 * k + j) as u64));
        }
    }
}

/// The CMRS object of one real precision on `a64`, created with `height` and `lanes` (M; 0
/// for the defaults: 16, and the M of least padding) on the handle's backend and on the CPU
/// backend: a row for `cmrsmv` (its info as asked and as the CPU backend's), then one for
/// `update_values` with new values followed by `cmrsmv`; then the object is destroyed.
/// y = 1·A·x + 1/2·y0.
#[allow(clippy::too_many_arguments)]
fn cmrs_case<T: CmrsScalar>(h: &mut Handle, backend: &'static str, name: &str, a64: &Csr<f64>, height: i32, lanes: i32, seed: u64) -> Result<[Row; 2], String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut a = sparse_values::<T>(a64, &mut rng);
    let (x, y0): (Vec<T>, Vec<T>) = (random(&mut rng, a.n), random(&mut rng, a.m));
    let (alpha, beta) = (T::one(), T::from_c64(Complex64::new(0.5, 0.0)));
    let fail = |e: numgpu::Error| e.msg;
    let product = |h: &mut Handle, o: &CmrsMatrix| -> Result<(Vec<T>, f64), String> {
        let mut y = y0.clone();
        let t = Instant::now();
        cmrsmv_host(h, alpha, o, &x, beta, &mut y).map_err(fail)?;
        h.synchronize().map_err(fail)?;
        Ok((y, t.elapsed().as_secs_f64()))
    };
    let mut cpu = Handle::cpu();
    if h.backend() == Backend::Cuda {
        let warm = cmrs_from_csr(h, &a, height, lanes).map_err(fail)?;
        product(h, &warm)?; // warm-up: compiles the kernel
    }
    let t = Instant::now();
    let mut obj = cmrs_from_csr(h, &a, height, lanes).map_err(fail)?;
    h.synchronize().map_err(fail)?;
    let create = t.elapsed().as_secs_f64();
    let mut obj_cpu = cmrs_from_csr(&mut cpu, &a, height, lanes).map_err(fail)?;
    // numgpu_cmrs_info's answers, and the stored entries behind the padding ratio.
    let info = |o: &CmrsMatrix| (o.height(), o.lanes(), o.stored(), o.padding_ratio());
    let as_asked = (if height == 0 { obj.height() == 16 } else { obj.height() == height as usize }) && (if lanes == 0 { [2, 4, 8].contains(&obj.lanes()) } else { obj.lanes() == lanes as usize });
    let info_differs = usize::from(!as_asked) + usize::from(info(&obj) != info(&obj_cpu));
    let flops = 2.0 * a.nnz() as f64;
    let (y, secs) = product(h, &obj)?;
    let (ycpu, _) = product(&mut cpu, &obj_cpu)?;
    let (want, unit) = reference(Op::N, alpha, &a, &x, beta, &y0);
    let created = Row {
        routine: format!("{}cmrsmv {name}", T::LETTER),
        backend,
        size: format!("{}x{}", a.m, a.n),
        batch: 1,
        secs,
        flops,
        err_cpu: sparse_error(&y, &c64s(&ycpu), &unit),
        err_ref: sparse_error(&y, &want, &unit),
        differ: Some(info_differs),
        near: 0,
        note: format!("create {:.1} ms; height {}, M {}, padding {:.3}", create * 1e3, obj.height(), obj.lanes(), obj.padding_ratio()),
    };

    // New values for the same pattern, on both backends.
    a.val = random(&mut rng, a.nnz());
    let t = Instant::now();
    cmrs_update_host(h, &mut obj, &a.val).map_err(fail)?;
    h.synchronize().map_err(fail)?;
    let update = t.elapsed().as_secs_f64();
    cmrs_update_host(&mut cpu, &mut obj_cpu, &a.val).map_err(fail)?;
    let (y, secs) = product(h, &obj)?;
    let (ycpu, _) = product(&mut cpu, &obj_cpu)?;
    let (want, unit) = reference(Op::N, alpha, &a, &x, beta, &y0);
    let t = Instant::now();
    drop(obj);
    h.synchronize().map_err(fail)?;
    let destroy = t.elapsed().as_secs_f64();
    let updated = Row {
        routine: format!("{}cmrs_update_values {name}", T::LETTER),
        size: format!("{}x{}", a.m, a.n),
        secs: update + secs,
        err_cpu: sparse_error(&y, &c64s(&ycpu), &unit),
        err_ref: sparse_error(&y, &want, &unit),
        differ: None,
        note: format!("time: update_values {:.2} ms + cmrsmv {:.2} ms (checked); destroy {:.2} ms", update * 1e3, secs * 1e3, destroy * 1e3),
        ..created
    };
    Ok([created, updated])
}

/// The shared/matrices file `<name>.mtx`, read by sprs.
fn shared_matrix(name: &str) -> Result<Csr<f64>, String> {
    let files = mtx::shared_matrices()?;
    let file = files.iter().find(|f| f.file_stem().is_some_and(|s| s == name)).ok_or_else(|| format!("{name}.mtx is not in shared/matrices"))?;
    mtx::read(file)
}

/// Every spmv case: csrmv in each precision on a power-law graph (R-MAT, 2^20 entries, rows
/// from none to thousands) and on the 3-D anisotropic diffusion matrix of shared/matrices;
/// CMRS in each real precision on short random rows (mean 5, its target; default height
/// and M) and on the stiffness matrix bcsstk15 (rows of about 30; height 8, M 2).
fn spmv_all(h: &mut Handle, backend: &'static str, rows: &mut Vec<Result<Row, String>>) {
    let (diffusion, stiffness) = match (shared_matrix("anisotropic3d7816"), shared_matrix("bcsstk15")) {
        (Ok(p), Ok(q)) => (p, q),
        (Err(e), _) | (_, Err(e)) => return rows.push(Err(format!("spmv: {e}"))),
    };
    let csr = [("power-law", generate(Kind::PowerLaw, 1 << 20, 0x50)), ("anisotropic3d7816", diffusion)];
    csrmv_all::<f32>(h, backend, &csr, rows);
    csrmv_all::<f64>(h, backend, &csr, rows);
    csrmv_all::<Complex32>(h, backend, &csr, rows);
    csrmv_all::<Complex64>(h, backend, &csr, rows);
    let short = generate(Kind::Short, 1 << 20, 0x51);
    let mut cmrs = Vec::new();
    for (k, (name, a, height, lanes)) in [("short-rows", &short, 0, 0), ("bcsstk15", &stiffness, 8, 2)].into_iter().enumerate() {
        cmrs.push(cmrs_case::<f32>(h, backend, name, a, height, lanes, 0x60 + k as u64));
        cmrs.push(cmrs_case::<f64>(h, backend, name, a, height, lanes, 0x70 + k as u64));
    }
    for r in cmrs {
        match r {
            Ok(pair) => rows.extend(pair.map(Ok)),
            Err(e) => rows.push(Err(e)),
        }
    }
}

/// Diffusion with cubic decay on a chain, written by a user: u_k' = D(N+1)²(u_{k−1} − 2u_k +
/// u_{k+1}) − r·u_k³, u = 1 left of the chain and 0 right of it, p = (D, r): the tour's
/// user-source problem (CUDA source for the CUDA backend, the host function for the CPU one).
const DECAY_CU: &str = r#"
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    const double c = p[0] * (double)((NEQ + 1) * (NEQ + 1));
    for (int k = 0; k < NEQ; ++k) {
        const double l = k > 0 ? y[k - 1] : 1.0, r = k + 1 < NEQ ? y[k + 1] : 0.0;
        f[k] = c * (l - 2.0 * y[k] + r) - p[1] * y[k] * y[k] * y[k];
    }
}
"#;

unsafe extern "C" fn decay_rhs(_t: f64, y: *const f64, p: *const f64, f: *mut f64, neq: i64, _user: *mut std::ffi::c_void) {
    let n = neq as usize;
    let (y, p, f) = (std::slice::from_raw_parts(y, n), std::slice::from_raw_parts(p, 2), std::slice::from_raw_parts_mut(f, n));
    let c = p[0] * ((n + 1) * (n + 1)) as f64;
    for k in 0..n {
        let (l, r) = (if k > 0 { y[k - 1] } else { 1.0 }, if k + 1 < n { y[k + 1] } else { 0.0 });
        f[k] = c * (l - 2.0 * y[k] + r) - p[1] * y[k] * y[k] * y[k];
    }
}

/// The ODE problems of the tour.
#[derive(Clone, Copy, PartialEq)]
enum OdeCase {
    Builtin(Problem),
    /// Diffusion with cubic decay from a user source.
    Decay,
}

/// ‖y − r‖∞ / (atol + rtol·‖r‖∞) per system of `neq` values, the max over systems.
fn ode_err(y: &[f64], r: &[f64], neq: usize, rtol: f64, atol: f64) -> f64 {
    y.chunks(neq)
        .zip(r.chunks(neq))
        .map(|(a, b)| {
            let rn = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            a.iter().zip(b).map(|(p, q)| (p - q).abs()).fold(0.0, nan_max) / (atol + rtol * rn)
        })
        .fold(0.0, nan_max)
}

/// `numgpu_rkc_integrate` on `nsys` systems of one problem (parameters varied over the batch),
/// against the CPU backend (the whole batch) and a tight reference (RKCK at 1e-12 on the CPU,
/// or PLEI's published values at t = 3) on a sample: per system ‖Δy‖∞ / (atol + rtol·‖y‖∞),
/// divided by 10 against the CPU and by 100 against the reference (a global error, which on
/// PLEI's close encounters reaches a few hundred local tolerances).
#[allow(clippy::too_many_arguments)]
fn rkc_case(h: &mut Handle, backend: &'static str, case: OdeCase, size: usize, method: Method, nsys: usize, tend: f64, rtol: f64) -> Result<Row, String> {
    let fail = |e: numgpu::Error| e.msg;
    let ode_on = |h: &mut Handle| match case {
        OdeCase::Builtin(pb) => Ode::builtin(h, pb, size as i64),
        OdeCase::Decay => Ode::create(h, size as i64, 2, Some(DECAY_CU), Some(Callbacks { rhs: decay_rhs, spcrad: None, user: std::ptr::null_mut() })),
    };
    let ode = ode_on(h).map_err(fail)?;
    let (neq, npar) = (ode.neq(), ode.npar());
    let (y0, p): (Vec<f64>, Vec<f64>) = match case {
        OdeCase::Builtin(pb) => {
            let base = pb.default_params();
            // Vary the last parameter (D, α, b) by up to ±25% over the batch; Lorenz sweeps R.
            let p = (0..nsys)
                .flat_map(|i| {
                    let f = i as f64 / nsys.max(2) as f64;
                    let mut q = base.clone();
                    match pb {
                        Problem::Lorenz => q[1] = 0.1 + 49.9 * f,
                        _ if npar > 0 => q[npar - 1] *= 0.75 + 0.5 * f,
                        _ => {}
                    }
                    q
                })
                .collect();
            ((0..nsys).flat_map(|_| pb.initial(neq)).collect(), p)
        }
        OdeCase::Decay => ((0..nsys).flat_map(|_| (0..neq).map(|k| if k < neq / 4 { 1.0 } else { 0.0 })).collect(), (0..nsys).flat_map(|i| [0.1, 1.0 + 10.0 * i as f64 / nsys as f64]).collect()),
    };
    let atol = rtol;
    let opts = Options { method, ..Options::default() };
    let call = |h: &mut Handle, ode: &Ode, y: &mut [f64], stats: &mut [i64], o: Options, tol: f64| -> Result<Vec<i32>, String> {
        let mut status = vec![-1; nsys];
        rkc_integrate_slices(h, ode, nsys as i64, 0.0, tend, y, neq as i64, Layout::SystemMajor, &p, npar.max(1) as i64, tol, &[tol], o, None, &mut status, Some(stats)).map_err(fail)?;
        Ok(status)
    };
    let mut stats = vec![0i64; 6 * nsys];
    let mut y = y0.clone();
    call(h, &ode, &mut y, &mut stats, opts, rtol)?;
    let mut y = y0.clone();
    let t = Instant::now();
    let status = call(h, &ode, &mut y, &mut stats, opts, rtol)?;
    let secs = t.elapsed().as_secs_f64();
    let mut cpu = Handle::cpu();
    let ode_cpu = ode_on(&mut cpu).map_err(fail)?;
    let mut yc = y0.clone();
    let statusc = call(&mut cpu, &ode_cpu, &mut yc, &mut vec![0; 6 * nsys], opts, rtol)?;
    let err_cpu = ode_err(&y, &yc, neq, rtol, atol) / 10.0;
    let sample: Vec<usize> = sample(nsys).collect();
    let ys: Vec<f64> = sample.iter().flat_map(|&i| y[i * neq..(i + 1) * neq].to_vec()).collect();
    let err_ref = if case == OdeCase::Builtin(Problem::Plei) {
        let r = numgpu::rkc::problems::plei_reference();
        ode_err(&ys, &sample.iter().flat_map(|_| r).collect::<Vec<f64>>(), neq, rtol, atol) / 100.0
    } else {
        // The tight reference on the sample's systems.
        let mut yr: Vec<f64> = sample.iter().flat_map(|&i| y0[i * neq..(i + 1) * neq].to_vec()).collect();
        let pr: Vec<f64> = sample.iter().flat_map(|&i| p.get(i * npar..(i + 1) * npar).unwrap_or(&[]).to_vec()).collect();
        let mut st = vec![-1; sample.len()];
        rkc_integrate_slices(&mut cpu, &ode_cpu, sample.len() as i64, 0.0, tend, &mut yr, neq as i64, Layout::SystemMajor, &pr, npar.max(1) as i64, 1e-12, &[1e-12], Options { method: Method::Rkck, ..Options::default() }, None, &mut st, None).map_err(fail)?;
        ode_err(&ys, &yr, neq, rtol, atol) / 100.0
    };
    let evals: i64 = stats.chunks(6).map(|s| s[0] + s[4]).sum();
    let name = match case {
        OdeCase::Builtin(pb) => format!("{pb:?}"),
        OdeCase::Decay => "user source (cubic decay)".into(),
    };
    Ok(Row {
        routine: format!("rkc_integrate {}", if method == Method::Rkc { "RKC" } else { "RKCK" }),
        backend,
        size: format!("{name}, neq={neq}"),
        batch: nsys,
        secs,
        // The GFLOP/s column shows 10^6 RHS evaluations per second for the ODE rows.
        flops: evals as f64 * 1e3,
        err_cpu,
        err_ref,
        differ: Some(status.iter().zip(&statusc).filter(|(a, b)| a != b || **a != 0).count()),
        near: 0,
        note: format!("t in [0, {tend}], rtol = atol = {rtol:e}; {:.0} RHS evaluations per system", evals as f64 / nsys as f64),
    })
}

/// Every rkc_integrate case: the Brusselator at 32 and 64 equations and the heat equation
/// (RKC), a Lorenz ensemble and PLEI (RKCK), and a user-written source (RKC).
fn rkc_all(h: &mut Handle, backend: &'static str, rows: &mut Vec<Result<Row, String>>) {
    let many = if backend == "cuda" { 20_000 } else { 2_000 };
    rows.push(rkc_case(h, backend, OdeCase::Builtin(Problem::Brusselator), 32, Method::Rkc, many, 1.0, 1e-6));
    rows.push(rkc_case(h, backend, OdeCase::Builtin(Problem::Brusselator), 64, Method::Rkc, many / 2, 1.0, 1e-6));
    rows.push(rkc_case(h, backend, OdeCase::Builtin(Problem::Heat), 31, Method::Rkc, many, 0.1, 1e-6));
    rows.push(rkc_case(h, backend, OdeCase::Builtin(Problem::Lorenz), 3, Method::Rkck, 10 * many, 1.0, 1e-8));
    rows.push(rkc_case(h, backend, OdeCase::Builtin(Problem::Plei), 28, Method::Rkck, many / 4, 3.0, 1e-10));
    rows.push(rkc_case(h, backend, OdeCase::Decay, 32, Method::Rkc, many, 1.0, 1e-6));
}

/// Kofidis and Regalia's example (m = 4, n = 3) and its local maxima.
const KR: [f64; 15] = [0.2883, -0.0031, 0.1973, -0.2485, -0.2939, 0.3847, 0.2972, 0.1862, 0.0919, -0.3619, 0.1241, -0.3420, 0.2127, 0.2727, -0.3054];
const KR_MAX: [f64; 3] = [0.8893220107, 0.8168813450, 0.3633060484];

/// λ, iterations and flags of every start, and the seconds of the call.
type KrRun<T> = (Vec<T>, Vec<i32>, Vec<i32>, f64);
/// Per voxel: the local maxima's count, λ and x (kmax slots each), and the seconds.
type BrainRun<T> = (Vec<i32>, Vec<T>, Vec<T>, f64);

/// The paper's workload: K&R ×1024, 128 shared random starts, convex SAFE.
fn sshopm_kr_case<T: Real>(h: &mut Handle, backend: &'static str) -> Result<Row, String> {
    let (nt, ns, n) = (1024usize, 128usize, 3usize);
    let a: Vec<T> = (0..nt).flat_map(|_| KR.iter().map(|&v| T::c(v))).collect();
    let tol = if T::EPS < 1e-10 { 1e-12 } else { 1e-6 };
    let call = |h: &mut Handle| -> Result<KrRun<T>, String> {
        let g = nt * ns;
        let (mut lam, mut x, mut it, mut fl) = (vec![T::c(0.0); g], vec![T::c(0.0); g * n], vec![0i32; g], vec![0i32; g]);
        h.set_seed(1024);
        let out = eig::Outputs { lambda: lam.as_mut_ptr(), x: x.as_mut_ptr(), iters: it.as_mut_ptr(), flags: fl.as_mut_ptr() };
        let t0 = Instant::now();
        // SAFETY: host arrays of the sizes the call describes.
        unsafe { eig::sshopm::<T>(h, 4, 3, nt as i64, a.as_ptr(), 15, ns as i64, std::ptr::null(), 0, 0, 1, T::c(0.0), T::c(tol), 20_000, out) }.map_err(|e| e.msg)?;
        Ok((lam, it, fl, t0.elapsed().as_secs_f64()))
    };
    call(h)?;
    let (lam, it, fl, secs) = call(h)?;
    let (lc, _, _, _) = call(&mut Handle::cpu())?;
    let nearest = |l: f64| (0..3).min_by(|&i, &j| (KR_MAX[i] - l).abs().total_cmp(&(KR_MAX[j] - l).abs())).unwrap_or(0);
    // A start may stop near a saddle point, where λ moves by less than tol per step: counted,
    // not a failure below 3%.
    let (mut off, mut other) = (0usize, 0usize);
    for (g, &l) in lam.iter().enumerate() {
        let l = l.to_f64().unwrap_or(f64::NAN);
        let gap = (l - KR_MAX[nearest(l)]).abs();
        if gap.is_nan() || gap > 1e-4 {
            off += 1;
        }
        if nearest(l) != nearest(lc[g].to_f64().unwrap_or(f64::NAN)) {
            other += 1;
        }
    }
    let iters: f64 = it.iter().map(|&i| i as f64).sum();
    Ok(Row {
        routine: format!("{}sshopm K&R (paper)", T::LETTER),
        backend,
        size: "m=4 n=3 V=128".into(),
        batch: nt,
        secs,
        flops: iters * eig::iteration_flops(&eig::tables(4, 3)),
        err_cpu: other as f64 * 1000.0 / (nt * ns) as f64,
        err_ref: off as f64 * 1000.0 / (nt * ns) as f64,
        differ: Some(fl.iter().filter(|&&f| f != 0).count()),
        near: 0,
        note: format!("{:.0} iterations per start on average", iters / (nt * ns) as f64),
    })
}

/// The synthetic brain slice: side × side voxels; the fibres of voxel (i, j) and their count.
fn fibres(side: usize, i: usize, j: usize) -> Vec<[f64; 3]> {
    // The first fibre turns in the x-y plane across the slice and tilts with j; voxels of the
    // right half hold a second fibre at right angles to it.
    let (phi, theta) = (std::f64::consts::PI * i as f64 / side as f64, 0.3 + 0.8 * j as f64 / side as f64);
    let v1 = [theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos()];
    if j < side / 2 {
        return vec![v1];
    }
    // A unit vector orthogonal to v1: v1 × z, normalised (v1 is never along z: θ >= 0.3).
    let c = [v1[1], -v1[0], 0.0];
    let nc = (c[0] * c[0] + c[1] * c[1]).sqrt();
    vec![v1, [c[0] / nc, c[1] / nc, 0.0]]
}

/// Angle between two axes (x and −x the same), degrees.
fn axis_angle(a: &[f64], b: &[f64]) -> f64 {
    let d: f64 = a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>().abs().min(1.0);
    d.acos().to_degrees()
}

/// The fibres `sshopm_unique` found per voxel: the local maxima with λ above a fifth of the
/// voxel's largest.
fn found_fibres<T: Real>(count: &[i32], lam: &[T], x: &[T], kmax: usize) -> Vec<Vec<[f64; 3]>> {
    (0..count.len())
        .map(|t| {
            let top = lam[t * kmax].to_f64().unwrap_or(f64::NAN);
            (0..count[t] as usize)
                .filter(|&k| lam[t * kmax + k].to_f64().unwrap_or(f64::NAN) > 0.2 * top)
                .map(|k| std::array::from_fn(|i| x[(t * kmax + k) * 3 + i].to_f64().unwrap_or(f64::NAN)))
                .collect()
        })
        .collect()
}

/// The brain slice through `sshopm_unique` (convex, ADAPTIVE, 32 random starts per voxel).
fn sshopm_brain_case<T: Real>(h: &mut Handle, backend: &'static str) -> Result<Row, String> {
    let (side, m, ns, kmax) = (64usize, 6usize, 32usize, 8usize);
    let nt = side * side;
    let u = eig::tables(m, 3).u;
    let truth: Vec<Vec<[f64; 3]>> = (0..nt).map(|t| fibres(side, t % side, t / side)).collect();
    let weights = [1.0, 0.6];
    let mut a: Vec<T> = Vec::with_capacity(nt * u);
    for f in &truth {
        // Σ w_k v_k^{⊗6} as a dense tensor, packed by sym_pack.
        let mut dense = vec![T::c(0.0); 3usize.pow(m as u32)];
        for (pos, d) in dense.iter_mut().enumerate() {
            let v: f64 = f.iter().zip(weights).map(|(v, w)| w * (0..m).map(|k| v[pos / 3usize.pow(k as u32) % 3]).product::<f64>()).sum();
            *d = T::c(v);
        }
        let mut packed = vec![T::c(0.0); u];
        // SAFETY: dense holds 3^6 values and packed U, host memory.
        unsafe { eig::sym_pack::<T>(m as i32, 3, dense.as_ptr(), packed.as_mut_ptr()) }.map_err(|e| e.msg)?;
        a.extend(packed);
    }
    let tol = if T::EPS < 1e-10 { 1e-12 } else { 1e-6 };
    let call = |h: &mut Handle| -> Result<BrainRun<T>, String> {
        let (mut count, mut lam, mut x, mut mult, mut kind) = (vec![0i32; nt], vec![T::c(0.0); nt * kmax], vec![T::c(0.0); nt * kmax * 3], vec![0i32; nt * kmax], vec![0i32; nt * kmax]);
        h.set_seed(6);
        let t0 = Instant::now();
        // SAFETY: host arrays of the sizes the call describes.
        unsafe {
            eig::sshopm_unique::<T>(h, m as i32, 3, nt as i64, a.as_ptr(), u as i64, ns as i64, std::ptr::null(), 0, 0, 2, T::c(0.0), T::c(tol), 20_000, T::c(1e-2), kmax as i32, count.as_mut_ptr(), lam.as_mut_ptr(), x.as_mut_ptr(), mult.as_mut_ptr(), kind.as_mut_ptr())
        }
        .map_err(|e| e.msg)?;
        let secs = t0.elapsed().as_secs_f64();
        // Keep only the local maxima.
        for t in 0..nt {
            let keep: Vec<usize> = (0..count[t] as usize).filter(|&k| kind[t * kmax + k] == eig::TYPE_MAX).collect();
            // Slots only move down (slot <= k), so in place is safe.
            for (slot, &k) in keep.iter().enumerate() {
                let q = t * kmax;
                lam[q + slot] = lam[q + k];
                x.copy_within((q + k) * 3..(q + k + 1) * 3, (q + slot) * 3);
            }
            count[t] = keep.len() as i32;
        }
        Ok((count, lam, x, secs))
    };
    call(h)?;
    let (count, lam, x, secs) = call(h)?;
    let ours = found_fibres(&count, &lam, &x, kmax);
    let (cc, lc, xc, _) = call(&mut Handle::cpu())?;
    let theirs = found_fibres(&cc, &lc, &xc, kmax);
    let (mut wrong, mut err_ref, mut err_cpu, mut two) = (0usize, 0f64, 0f64, 0usize);
    for t in 0..nt {
        if ours[t].len() != truth[t].len() {
            wrong += 1;
            continue;
        }
        two += (truth[t].len() == 2) as usize;
        for f in &ours[t] {
            let best = truth[t].iter().map(|v| axis_angle(f, v)).fold(f64::INFINITY, f64::min);
            err_ref = nan_max(err_ref, best / 0.1);
            if theirs[t].len() == ours[t].len() {
                let bc = theirs[t].iter().map(|v| axis_angle(f, v)).fold(f64::INFINITY, f64::min);
                err_cpu = nan_max(err_cpu, bc / 0.1);
            }
        }
    }
    Ok(Row {
        routine: format!("{}sshopm_unique brain slice", T::LETTER),
        backend,
        size: "m=6 n=3 V=32".into(),
        batch: nt,
        secs,
        flops: 0.0,
        err_cpu,
        err_ref,
        differ: Some(wrong),
        near: 0,
        note: format!("{} one-fibre and {two} crossing voxels resolved", nt - wrong - two),
    })
}

/// `sym_apply` (A·x^5 on every brain-like voxel tensor) against the CPU backend, and the
/// pack/unpack round trip, in units of ε.
fn sym_case<T: Real>(h: &mut Handle, backend: &'static str) -> Result<Row, String> {
    let (m, n, nt) = (6usize, 3usize, 100_000usize);
    let u = eig::tables(m, n).u;
    let mut rng = ChaCha8Rng::seed_from_u64(66);
    let a: Vec<T> = (0..nt * u).map(|_| T::c(rng.gen_range(-1.0..1.0))).collect();
    let x: Vec<T> = (0..nt * n).map(|_| T::c(rng.gen_range(-1.0..1.0))).collect();
    let run = |h: &mut Handle| -> Result<(Vec<T>, f64), String> {
        let mut y = vec![T::c(0.0); nt * n];
        let t0 = Instant::now();
        // SAFETY: host arrays of the sizes the call describes.
        unsafe { eig::sym_apply::<T>(h, m as i32, n as i32, 1, nt as i64, a.as_ptr(), u as i64, x.as_ptr(), n as i64, y.as_mut_ptr(), n as i64) }.map_err(|e| e.msg)?;
        Ok((y, t0.elapsed().as_secs_f64()))
    };
    run(h)?;
    let (y, secs) = run(h)?;
    let (yc, _) = run(&mut Handle::cpu())?;
    // |Δy| over Σ|terms| bound: the multiplicities' sum (3^5 per component) times ε.
    let scale = 3f64.powi(m as i32 - 1) * T::EPS;
    let err_cpu = y.iter().zip(&yc).map(|(p, q)| (p.to_f64().unwrap_or(f64::NAN) - q.to_f64().unwrap_or(f64::NAN)).abs() / scale).fold(0.0, nan_max);
    let mut dense = vec![T::c(0.0); n.pow(m as u32)];
    let mut back = vec![T::c(0.0); u];
    // SAFETY: host arrays of n^m and U values.
    unsafe {
        eig::sym_unpack::<T>(m as i32, n as i32, a.as_ptr(), dense.as_mut_ptr()).map_err(|e| e.msg)?;
        eig::sym_pack::<T>(m as i32, n as i32, dense.as_ptr(), back.as_mut_ptr()).map_err(|e| e.msg)?;
    }
    let err_ref = back.iter().zip(&a).map(|(p, q)| (p.to_f64().unwrap_or(f64::NAN) - q.to_f64().unwrap_or(f64::NAN)).abs() / T::EPS).fold(0.0, nan_max);
    let t = eig::tables(m, n);
    Ok(Row {
        routine: format!("{}sym_apply + pack/unpack", T::LETTER),
        backend,
        size: "m=6 n=3 p=1".into(),
        batch: nt,
        secs,
        flops: nt as f64 * (t.nmono() + 2 * t.ngrad * n) as f64,
        err_cpu,
        err_ref,
        differ: None,
        near: 0,
        note: "err/ref: sym_pack(sym_unpack(a)) − a".into(),
    })
}

/// Every sshopm case of one precision.
fn sshopm_all<T: Real>(h: &mut Handle, backend: &'static str, rows: &mut Vec<Result<Row, String>>) {
    rows.push(sshopm_kr_case::<T>(h, backend));
    rows.push(sshopm_brain_case::<T>(h, backend));
    rows.push(sym_case::<T>(h, backend));
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
    println!("  geqrf_givens: R and Q(:, 1:n) vs the CPU backend's (up to a unit diagonal, over mκ̂ε), and ‖A − QR‖₁/(m‖A‖₁ε) (Q rebuilt in double) and |R| vs LAPACK ?geqrf ({SAMPLE} matrices); ormqr/unmqr, orgqr/ungqr: vs the CPU backend and Q rebuilt in double (+ ‖I − QᴴQ‖); gels: ‖A(x − x_cpu)‖ and ‖Aᴴ(b − Ax)‖ ratios; ≠cpu: problems whose info differs from the CPU backend's or the expected one, or whose B changed with info ≠ 0; GFLOP/s at LAPACK's Householder counts");
    println!("  gtsv_spike: ‖T(x − x_cpu)‖∞ and ‖b − Tx‖∞ over (‖T‖∞‖x‖∞ + ‖b‖∞)ε (every rhs of every system; the CPU backend is LAPACK ?gtsv); ≠cpu: systems whose info differs from the CPU backend's or is not 0, must be 0; GFLOP/s at 8n flops per system and rhs");
    println!("  sshopm: K&R ×1024 (128 starts): err/ref starts not within 1e-4 of a known maximum (per mille), err/cpu starts reaching another maximum than on the CPU backend (per mille), ≠cpu starts not converged; brain slice (sshopm_unique, 64×64 voxels of one or two fibres): ≠cpu voxels with a wrong fibre count, err/ref and err/cpu the largest fibre angle error (0.1° units) against the truth and the CPU backend; sym_apply vs the CPU backend and pack(unpack(a)) − a (ε units); GFLOP/s at the specialised kernel's flops per iteration");
    println!("  rkc_integrate: ‖y − y_cpu‖∞ and ‖y − y_ref‖∞ per system over 10·(atol + rtol‖y‖∞) and 100·(atol + rtol‖y‖∞) (global errors; the reference: RKCK at 1e-12 on the CPU, PLEI's published values at t = 3; {SAMPLE} systems); ≠cpu: systems whose status differs from the CPU backend's or is not 0; the GFLOP/s column is 10^6 RHS evaluations/s");
    println!("  csrmv, cmrsmv: |y − y_cpu| and |y − y_ref| of each entry over the spec's tolerance unit (len_i + 4)ε(|α|(|op(A)||x|)_i + |β||y0_i|) (the tests hold it below 1); ≠cpu (CMRS): info (height, M, stored entries, padding) other than asked or than the CPU backend's, must be 0; GFLOP/s at 2·nnz (8·nnz complex)");
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
    givens_all::<f32>(&mut h, backend, &mut rows);
    givens_all::<f64>(&mut h, backend, &mut rows);
    givens_all::<Complex32>(&mut h, backend, &mut rows);
    givens_all::<Complex64>(&mut h, backend, &mut rows);
    gtsv_all::<f32>(&mut h, backend, &mut rows);
    gtsv_all::<f64>(&mut h, backend, &mut rows);
    sshopm_all::<f32>(&mut h, backend, &mut rows);
    sshopm_all::<f64>(&mut h, backend, &mut rows);
    gtsv_all::<Complex32>(&mut h, backend, &mut rows);
    rkc_all(&mut h, backend, &mut rows);
    gtsv_all::<Complex64>(&mut h, backend, &mut rows);
    spmv_all(&mut h, backend, &mut rows);

    println!(
        "{:<34} {:<7} {:<14} {:>7} {:>10} {:>9} {:>9} {:>9} {:>6}  check",
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
                    "{:<34} {:<7} {:<14} {:>7} {:>10.3} {:>9.1} {:>9.3} {:>9.3} {:>6}  {}{}",
                    r.routine,
                    r.backend,
                    r.size,
                    r.batch,
                    r.secs * 1e3,
                    r.flops / r.secs / 1e9,
                    r.err_cpu,
                    r.err_ref,
                    r.differ.map_or("-".to_string(), |d| if r.near > 0 { format!("{d}+{}~", r.near) } else { d.to_string() }),
                    if r.ok() { "ok" } else { "FAIL" },
                    if r.note.is_empty() { String::new() } else { format!("  ({})", r.note) }
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
