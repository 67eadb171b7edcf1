//! Batched Jacobi eigen and singular value decompositions: cyclic two-sided Jacobi for
//! Hermitian eigenproblems ([`syevj_batched`]) and one-sided (Hestenes) Jacobi for the SVD
//! ([`gesvdj_batched`]), with round-robin ordering: each sweep is N − 1 steps of N/2
//! disjoint pairs (p, q) (N = n rounded up to even; the circle method, position 0 fixed), the
//! rotations of a step all formed from the matrix before the step, then applied.
//!
//! Convergence is the relative test of Demmel and Veselić, which is what gives Jacobi its
//! high relative accuracy on graded matrices: a pair is rotated only when
//!
//! ```text
//! syevj:   |a_pq| > tol·√|a_pp|·√|a_qq|
//! gesvdj:  |a_pᴴa_q| > tol·‖a_p‖·‖a_q‖      (a_p: column p of the iterate)
//! ```
//!
//! and a matrix has converged after a sweep that rotated nothing. Its residual is the largest
//! ratio |a_pq|/(√|a_pp|·√|a_qq|) (one-sided: |a_pᴴa_q|/(‖a_p‖·‖a_q‖)) that sweep saw: at most
//! tol when info = 0. Per matrix, `info` is 0 (converged), 1 (still rotating after max_sweeps
//! sweeps: the outputs are the last iterate's, the vectors still unitary to rounding) or 2 (a
//! NaN or an Inf in the input, or arising on the way: values and vectors are NaN).
//!
//! The CPU backend runs the same algorithm (the same ordering, formulas and tests) in Rust
//! under rayon; the CUDA backend's is `cuda.rs`. Both backends take the same rotations in
//! exact arithmetic; in floating point the order of the sums (gesvdj's dot products) and fma
//! contraction differ, so sweep counts agree in all but borderline cases and are not promised
//! equal. gesvdj rotates the columns of A (m ≥ n) or of Aᴴ (m < n): the wider side's vectors
//! are the normalised columns, the other side's the accumulated rotations.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::check::{check_len, check_ld, check_span, check_stride, needed, nonneg, not_null};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::{common_space, ArgPtr};
use crate::core::{Scalar, Uplo};
use num_traits::{Float, NumCast};

/// Whether a Jacobi routine computes vectors, as an `int32_t` at the ABI (`jobz`, `jobu`,
/// `jobv`).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_jacobi_job {
    /// Values only (LAPACK JOBZ = 'N').
    NUMGPU_JACOBI_NOVEC = 0,
    /// Values and vectors (JOBZ = 'V'; for gesvdj the economy-size U or V).
    NUMGPU_JACOBI_VEC = 1,
}

/// A `numgpu_jacobi_job` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_jacobi_job`.
pub type JacobiJobArg = i32;

/// Parameters of the Jacobi routines. A zero-initialised struct (`numgpu_jacobi_params p =
/// {0};`) asks for every default, as a NULL pointer does.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(non_camel_case_types)]
pub struct numgpu_jacobi_params {
    /// Relative threshold of a rotation (see the routines); 0 selects the default: ε of the
    /// precision (its unit roundoff times 2) for syevj/heevj, √m·ε for gesvdj (LAPACK
    /// `?gesvj`'s: the computed cosine of two orthogonal columns is only that small). Finite,
    /// >= 0.
    pub tol: f64,
    /// Most sweeps per matrix; 0 selects the default, 100. >= 0.
    pub max_sweeps: i32,
    /// 0: values sorted (eigenvalues ascending, singular values descending, vectors in the
    /// same order); 1: in the order the iteration leaves them.
    pub unsorted: i32,
}

/// Default sweep limit.
pub const MAX_SWEEPS: u32 = 100;

/// Validated parameters in the element's real type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opts<R> {
    pub tol: R,
    pub max_sweeps: u32,
    pub sort: bool,
}

impl<R: Float> Opts<R> {
    /// From the C struct (NULL: defaults); `rows` is the length of the vectors whose cosines
    /// gesvdj tests (1 for syevj).
    ///
    /// # Safety
    /// `p` is NULL or valid for one read.
    pub unsafe fn from_c(p: *const numgpu_jacobi_params, eps: f64, rows: usize) -> Result<Opts<R>> {
        let p = if p.is_null() { numgpu_jacobi_params::default() } else { *p };
        if !(p.tol.is_finite() && p.tol >= 0.0) {
            return Err(Error::arg("params", format!("(params->tol = {:e}) must be finite and >= 0", p.tol)));
        }
        if p.max_sweeps < 0 {
            return Err(Error::arg("params", format!("(params->max_sweeps = {}) must be >= 0", p.max_sweeps)));
        }
        if !(0..=1).contains(&p.unsorted) {
            return Err(Error::arg("params", format!("(params->unsorted = {}) must be 0 or 1", p.unsorted)));
        }
        let tol = if p.tol == 0.0 { eps * (rows.max(1) as f64).sqrt() } else { p.tol };
        let max_sweeps = if p.max_sweeps == 0 { MAX_SWEEPS } else { p.max_sweeps as u32 };
        Ok(Opts { tol: <R as NumCast>::from(tol).unwrap_or_else(R::max_value), max_sweeps, sort: p.unsorted == 0 })
    }
}

/// A job flag from C, passed as the C parameter `name`.
fn job(v: i32, name: &'static str) -> Result<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Error::arg(name, format!("({name} = {v}) must be NUMGPU_JACOBI_NOVEC (0) or NUMGPU_JACOBI_VEC (1)"))),
    }
}

/// One validated call of [`syevj_batched`] (n, batch ≥ 1): matrix i at `a + i·stride_a`.
#[derive(Clone, Copy, Debug)]
pub struct Syevj<T: Scalar> {
    pub n: usize,
    /// Eigenvectors overwrite A.
    pub vectors: bool,
    /// The upper triangle is stored (else the lower).
    pub upper: bool,
    pub a: *mut T,
    pub lda: usize,
    pub stride_a: usize,
    /// n eigenvalues per matrix, `stride_w` apart.
    pub w: *mut T::Real,
    pub stride_w: usize,
    pub opts: Opts<T::Real>,
    /// `batch` entries each, out.
    pub info: *mut i32,
    pub sweeps: *mut i32,
    pub residual: *mut T::Real,
    pub batch: usize,
}

/// One validated call of [`gesvdj_batched`] (m, n, batch ≥ 1); k = min(m, n).
#[derive(Clone, Copy, Debug)]
pub struct Gesvdj<T: Scalar> {
    pub m: usize,
    pub n: usize,
    pub a: *const T,
    pub lda: usize,
    pub stride_a: usize,
    /// k singular values per matrix.
    pub s: *mut T::Real,
    pub stride_s: usize,
    /// m × k left vectors per matrix, or NULL (not wanted).
    pub u: *mut T,
    pub ldu: usize,
    pub stride_u: usize,
    /// n × k right vectors per matrix, or NULL.
    pub v: *mut T,
    pub ldv: usize,
    pub stride_v: usize,
    pub opts: Opts<T::Real>,
    pub info: *mut i32,
    pub sweeps: *mut i32,
    pub residual: *mut T::Real,
    pub batch: usize,
}

// SAFETY: these carry the caller's pointers; the backends write matrix i's outputs from one
// task or thread team, and the outputs of different matrices do not overlap (checked
// strides); inputs are only read.
unsafe impl<T: Scalar> Send for Syevj<T> {}
unsafe impl<T: Scalar> Sync for Syevj<T> {}
unsafe impl<T: Scalar> Send for Gesvdj<T> {}
unsafe impl<T: Scalar> Sync for Gesvdj<T> {}

/// The orders the kernels' 32-bit indices and the per-team shared arrays hold.
const MAX_ORDER: usize = 4096;

fn fits(k: usize, name: &str) -> Result<()> {
    if k > MAX_ORDER {
        return Err(Error::not_supported(format!("{name} = {k} exceeds {MAX_ORDER}, the largest order the Jacobi routines take")));
    }
    Ok(())
}

/// The per-matrix outputs info, sweeps and residual: not NULL, `batch` entries.
fn check_stats<R>(info: *mut i32, sweeps: *mut i32, residual: *mut R, batch: usize) -> Result<()> {
    not_null(info, "info")?;
    check_span::<i32>(1, 1, batch, "info")?;
    not_null(sweeps, "sweeps")?;
    check_span::<i32>(1, 1, batch, "sweeps")?;
    not_null(residual, "residual")?;
    check_span::<R>(1, 1, batch, "residual").map(|_| ())
}

/// A matrix operand: not NULL, leading dimension, stride, extent.
#[allow(clippy::too_many_arguments)]
fn check_matrix<E>(p: *const E, rows: usize, cols: usize, ld: i64, stride: i64, zero_ok: bool, batch: usize, names: (&'static str, &'static str, &'static str), rows_name: &str) -> Result<usize> {
    not_null(p, names.0)?;
    let ld = check_ld(ld, rows, names.1, rows_name)?;
    let one = check_span::<E>(rows, ld, cols, names.0)?;
    check_stride(stride, ld.saturating_mul(cols), zero_ok, batch, names.2, &format!("{}·{cols}", names.1))?;
    check_span::<E>(one, stride as usize, batch, names.0)?;
    Ok(ld)
}

/// Eigenvalues (and eigenvectors) of each Hermitian matrix of a strided batch by cyclic
/// Jacobi (see the module docs). n = 0 or batch = 0 touches nothing.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes and strides describe, all in host
/// memory or all in device memory of the handle's device; `params` is NULL or valid for one
/// read (host memory).
#[allow(clippy::too_many_arguments)]
pub unsafe fn syevj_batched<T: Scalar>(
    h: &mut Handle,
    jobz: i32,
    uplo: i32,
    n: i64,
    a: *mut T,
    lda: i64,
    stride_a: i64,
    w: *mut T::Real,
    stride_w: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut T::Real,
    batch: i64,
) -> Result<()> {
    let vectors = job(jobz, "jobz")?;
    let upper = Uplo::from_i32(uplo, "uplo")? == Uplo::Upper;
    let nu = nonneg(n, "n")?;
    let opts = Opts::from_c(params, T::EPS, 1)?;
    let batchu = nonneg(batch, "batch")?;
    if nu == 0 || batchu == 0 {
        return Ok(());
    }
    let lda = check_matrix(a, nu, nu, lda, stride_a, false, batchu, ("A", "lda", "strideA"), "n")?;
    not_null(w, "w")?;
    check_stride(stride_w, nu, false, batchu, "strideW", "n")?;
    check_span::<T::Real>(nu, stride_w as usize, batchu, "w")?;
    check_stats(info, sweeps, residual, batchu)?;
    fits(nu, "n")?;
    let p = Syevj { n: nu, vectors, upper, a, lda, stride_a: stride_a as usize, w, stride_w: stride_w as usize, opts, info, sweeps, residual, batch: batchu };
    let args: [ArgPtr; 5] = [(a as _, "A"), (w as _, "w"), (info as _, "info"), (sweeps as _, "sweeps"), (residual as _, "residual")];
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => cpu::syevj(&p),
        State::Cuda(ch) => cuda::syevj(ch, &p, space),
    }
}

/// Singular values (and vectors) of each m × n matrix of a strided batch by one-sided Jacobi
/// (see the module docs): A_i = U_i·diag(s_i)·V_iᴴ, economy size (U_i m × k, V_i n × k,
/// k = min(m, n)). A is only read. m, n or batch = 0 touches nothing.
///
/// # Safety
/// As [`syevj_batched`]; U (V) is not referenced, and may be NULL, when jobu (jobv) is
/// NOVEC.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gesvdj_batched<T: Scalar>(
    h: &mut Handle,
    jobu: i32,
    jobv: i32,
    m: i64,
    n: i64,
    a: *const T,
    lda: i64,
    stride_a: i64,
    s: *mut T::Real,
    stride_s: i64,
    u: *mut T,
    ldu: i64,
    stride_u: i64,
    v: *mut T,
    ldv: i64,
    stride_v: i64,
    params: *const numgpu_jacobi_params,
    info: *mut i32,
    sweeps: *mut i32,
    residual: *mut T::Real,
    batch: i64,
) -> Result<()> {
    let (want_u, want_v) = (job(jobu, "jobu")?, job(jobv, "jobv")?);
    let mu = nonneg(m, "m")?;
    let nu = nonneg(n, "n")?;
    let opts = Opts::from_c(params, T::EPS, mu.max(nu))?;
    let batchu = nonneg(batch, "batch")?;
    if mu == 0 || nu == 0 || batchu == 0 {
        return Ok(());
    }
    let k = mu.min(nu);
    let lda = check_matrix(a, mu, nu, lda, stride_a, true, batchu, ("A", "lda", "strideA"), "m")?;
    not_null(s, "S")?;
    check_stride(stride_s, k, false, batchu, "strideS", "min(m, n)")?;
    check_span::<T::Real>(k, stride_s as usize, batchu, "S")?;
    let ldu = if want_u { check_matrix(u, mu, k, ldu, stride_u, false, batchu, ("U", "ldu", "strideU"), "m")? } else { 0 };
    let ldv = if want_v { check_matrix(v, nu, k, ldv, stride_v, false, batchu, ("V", "ldv", "strideV"), "n")? } else { 0 };
    check_stats(info, sweeps, residual, batchu)?;
    fits(k, "min(m, n)")?;
    if mu.max(nu) > i32::MAX as usize {
        return Err(Error::not_supported(format!("max(m, n) = {} exceeds 2^31 - 1", mu.max(nu))));
    }
    let (u, v) = (if want_u { u } else { std::ptr::null_mut() }, if want_v { v } else { std::ptr::null_mut() });
    let p = Gesvdj {
        m: mu,
        n: nu,
        a,
        lda,
        stride_a: stride_a as usize,
        s,
        stride_s: stride_s as usize,
        u,
        ldu,
        stride_u: stride_u as usize,
        v,
        ldv,
        stride_v: stride_v as usize,
        opts,
        info,
        sweeps,
        residual,
        batch: batchu,
    };
    let args: [ArgPtr; 7] = [(a as _, "A"), (s as _, "S"), (u as _, "U"), (v as _, "V"), (info as _, "info"), (sweeps as _, "sweeps"), (residual as _, "residual")];
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => cpu::gesvdj(&p),
        State::Cuda(ch) => cuda::gesvdj(ch, &p, space),
    }
}

/// Safe [`syevj_batched`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn syevj_batched_slices<T: Scalar>(
    h: &mut Handle,
    jobz: i32,
    uplo: i32,
    n: i64,
    a: &mut [T],
    lda: i64,
    stride_a: i64,
    w: &mut [T::Real],
    stride_w: i64,
    params: Option<&numgpu_jacobi_params>,
    info: &mut [i32],
    sweeps: &mut [i32],
    residual: &mut [T::Real],
    batch: i64,
) -> Result<()> {
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(w.len(), needed(n, 1, stride_w, batch), "w")?;
    let b = batch.max(0) as usize;
    check_len(info.len(), b, "info")?;
    check_len(sweeps.len(), b, "sweeps")?;
    check_len(residual.len(), b, "residual")?;
    let params = params.map_or(std::ptr::null(), |p| p as *const _);
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { syevj_batched(h, jobz, uplo, n, a.as_mut_ptr(), lda, stride_a, w.as_mut_ptr(), stride_w, params, info.as_mut_ptr(), sweeps.as_mut_ptr(), residual.as_mut_ptr(), batch) }
}

/// Safe [`gesvdj_batched`] on host slices (each checked to cover its extent; U or V may be
/// empty when not wanted).
#[allow(clippy::too_many_arguments)]
pub fn gesvdj_batched_slices<T: Scalar>(
    h: &mut Handle,
    jobu: i32,
    jobv: i32,
    m: i64,
    n: i64,
    a: &[T],
    lda: i64,
    stride_a: i64,
    s: &mut [T::Real],
    stride_s: i64,
    u: &mut [T],
    ldu: i64,
    stride_u: i64,
    v: &mut [T],
    ldv: i64,
    stride_v: i64,
    params: Option<&numgpu_jacobi_params>,
    info: &mut [i32],
    sweeps: &mut [i32],
    residual: &mut [T::Real],
    batch: i64,
) -> Result<()> {
    let k = m.min(n);
    check_len(a.len(), needed(lda, n, stride_a, batch), "A")?;
    check_len(s.len(), needed(k, 1, stride_s, batch), "S")?;
    if jobu == 1 {
        check_len(u.len(), needed(ldu, k, stride_u, batch), "U")?;
    }
    if jobv == 1 {
        check_len(v.len(), needed(ldv, k, stride_v, batch), "V")?;
    }
    let b = batch.max(0) as usize;
    check_len(info.len(), b, "info")?;
    check_len(sweeps.len(), b, "sweeps")?;
    check_len(residual.len(), b, "residual")?;
    let params = params.map_or(std::ptr::null(), |p| p as *const _);
    let (up, vp) = (if u.is_empty() { std::ptr::null_mut() } else { u.as_mut_ptr() }, if v.is_empty() { std::ptr::null_mut() } else { v.as_mut_ptr() });
    // SAFETY: as above.
    unsafe { gesvdj_batched(h, jobu, jobv, m, n, a.as_ptr(), lda, stride_a, s.as_mut_ptr(), stride_s, up, ldu, stride_u, vp, ldv, stride_v, params, info.as_mut_ptr(), sweeps.as_mut_ptr(), residual.as_mut_ptr(), batch) }
}
