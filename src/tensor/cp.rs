//! CP decomposition by alternating least squares (the seed's Algorithm 1, Kolda and Bader's
//! CP-ALS), and its reconstruction:
//!
//! ```text
//! X ≈ X̂ = Σ_r λ_r · U_0(:, r) ∘ U_1(:, r) ∘ … ∘ U_{d−1}(:, r)
//! ```
//!
//! One iteration updates each factor in turn, the others fixed: with M = X_(n)·(⊙_{k≠n} U_k)
//! (MTTKRP, X never unfolded) and V = ∗_{k≠n} U_kᵀU_k (the Hadamard product of the R × R Gram
//! matrices), U_n = M·V⁻¹ by a Cholesky solve, then its columns are normalised to unit 2-norm
//! with the norms in λ.
//!
//! The first two modes share one pass over X (a dimension tree, as Phan et al. and the
//! Tensor Toolbox's CP-ALS do): both of their MTTKRPs use U_2 … U_{d−1} of the previous
//! iteration, so T = X_(01)·(U_{d−1} ⊙ … ⊙ U_2), the (n_0·n_1) × R partial product, is formed
//! once, and M_0(:, r) = T_r·U_1(:, r), M_1(:, r) = T_rᵀ·U_0(:, r) (U_0 already updated) with
//! T_r its column r read as n_0 × n_1. So an iteration reads X d − 1 times instead of d. Taken
//! for order ≥ 3 when T is no larger than X (n_2·…·n_{d−1} ≥ R); the sums are the same terms
//! as the plain MTTKRP's, grouped differently. After each iteration the fit is 1 − ‖X − X̂‖/‖X‖, from
//! ‖X − X̂‖² = ‖X‖² + λᵀ(∗_k U_kᵀU_k)λ − 2·Σ_r λ_r·Σ_i M(i, r)·U_{d−1}(i, r) (M of the last
//! mode), as the Tensor Toolbox computes it (so the fit resolves ‖X − X̂‖ to about √ε·‖X‖ only:
//! a difference of nearly equal squares); the iteration stops when the fit changes by less
//! than the tolerance, or after the most iterations allowed.
//!
//! Numerical trouble is not an argument error: a NaN or an Inf in X (or in the given initial
//! factors), or a V that is not numerically positive definite (a rank the data cannot support
//! with these factors, a zero column), gives fit = NaN with λ and every factor NaN, and the
//! iteration count at which it happened. X = 0 gives λ = 0, zero factors and fit = 1.

use super::engine::{prod, Engine, Layout, Mat, Real};
use super::{factor_arrays, host_out, span, tensor_dims, whole_tensor, Factor, Mttkrp};
use crate::core::check::{check_len, check_span, nonneg, not_null, space_of};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::ArgPtr;
use std::ffi::c_void;

/// How `numgpu_?cp_als` starts, as an `int32_t` in `numgpu_cp_options`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_cp_init {
    /// Random factors, uniform in [0, 1), drawn from `seed` (the same on every backend).
    NUMGPU_CP_INIT_RANDOM = 0,
    /// The factors the caller put in U.
    NUMGPU_CP_INIT_GIVEN = 1,
}

/// Options of `numgpu_?cp_als`. A zero-initialised struct (`numgpu_cp_options o = {0};`) asks for
/// every default, as a NULL pointer does.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(non_camel_case_types)]
pub struct numgpu_cp_options {
    /// Stop when the fit changes by less than this between two iterations; 0 selects the
    /// default, 1e-6. Finite, >= 0.
    pub tol: f64,
    /// Most iterations; 0 selects the default, 100. >= 0.
    pub max_iters: i32,
    /// NUMGPU_CP_INIT_RANDOM (0) or NUMGPU_CP_INIT_GIVEN (1).
    pub init: i32,
    /// Seed of the random initial factors (any value).
    pub seed: u64,
    /// 0: every factor's columns of unit 2-norm, the weights in lambda; 1: the weights
    /// multiplied into the columns of U[0], and lambda = 1.
    pub absorb: i32,
}

/// Default tolerance on the change of the fit.
pub const TOL: f64 = 1e-6;
/// Default most iterations.
pub const MAX_ITERS: u32 = 100;

/// Validated options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpOpts {
    pub tol: f64,
    pub max_iters: u32,
    pub given: bool,
    pub seed: u64,
    pub absorb: bool,
}

impl CpOpts {
    /// From the C struct (NULL: defaults).
    ///
    /// # Safety
    /// `o` is NULL or valid for one read.
    pub unsafe fn from_c(o: *const numgpu_cp_options) -> Result<CpOpts> {
        let o = if o.is_null() { numgpu_cp_options::default() } else { *o };
        let bad = |what: String| Err(Error::arg("opts", what));
        if !(o.tol.is_finite() && o.tol >= 0.0) {
            return bad(format!("(opts->tol = {:e}) must be finite and >= 0", o.tol));
        }
        if o.max_iters < 0 {
            return bad(format!("(opts->max_iters = {}) must be >= 0", o.max_iters));
        }
        if !(0..=1).contains(&o.init) {
            return bad(format!("(opts->init = {}) must be NUMGPU_CP_INIT_RANDOM (0) or NUMGPU_CP_INIT_GIVEN (1)", o.init));
        }
        if !(0..=1).contains(&o.absorb) {
            return bad(format!("(opts->absorb = {}) must be 0 or 1", o.absorb));
        }
        let tol = if o.tol == 0.0 { TOL } else { o.tol };
        let max_iters = if o.max_iters == 0 { MAX_ITERS } else { o.max_iters as u32 };
        Ok(CpOpts { tol, max_iters, given: o.init == 1, seed: o.seed, absorb: o.absorb == 1 })
    }
}

/// One validated call of [`cp_als`] (every dimension and the rank ≥ 1).
#[derive(Clone, Debug)]
pub struct CpAls<T> {
    pub dims: Vec<usize>,
    pub rank: usize,
    pub x: *const T,
    /// The factors, dims[k] × rank with leading dimension ldu[k], in (given) and out.
    pub u: Vec<*mut T>,
    pub ldu: Vec<usize>,
    /// rank weights, out.
    pub lambda: *mut T,
    pub opts: CpOpts,
}

/// One validated call of [`cp_reconstruct`] (every dimension ≥ 1).
#[derive(Clone, Debug)]
pub struct CpReconstruct<T> {
    pub dims: Vec<usize>,
    pub rank: usize,
    pub u: Vec<*const T>,
    pub ldu: Vec<usize>,
    /// rank weights, or NULL (all 1).
    pub lambda: *const T,
    /// ∏ dims elements, out.
    pub x: *mut T,
}

// SAFETY: these carry the caller's pointers; the backends read X (the factors) and write the
// outputs, checked distinct from the inputs.
unsafe impl<T: Send> Send for CpAls<T> {}
unsafe impl<T: Sync> Sync for CpAls<T> {}
unsafe impl<T: Send> Send for CpReconstruct<T> {}
unsafe impl<T: Sync> Sync for CpReconstruct<T> {}

/// How the iteration ended: iterations done and the last fit (NaN on breakdown).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpOutcome {
    pub iters: i32,
    pub fit: f64,
}

/// A call's arrays in the engine's memory: X, the factors, λ.
#[derive(Clone, Debug)]
pub struct CpArrays {
    pub x: u64,
    pub u: Vec<Mat>,
    pub lambda: u64,
}

/// Where the working memory of a CP-ALS call goes (offsets in elements of T).
#[derive(Clone, Copy, Debug)]
pub struct CpWork {
    /// The MTTKRP of a mode (the largest dimension × rank).
    m: usize,
    /// The d Gram matrices, rank² apart.
    grams: usize,
    /// Their Hadamard product.
    v: usize,
    /// The dimension tree's T, (n_0·n_1) × rank, when it is taken.
    tree: Option<usize>,
    scratch: usize,
    pub total: usize,
}

/// The MTTKRP of `mode` on the arrays `a`, into `m` (compact).
fn mttkrp_of<T>(p: &CpAls<T>, a: &CpArrays, mode: usize, m: u64) -> Mttkrp<T> {
    Mttkrp {
        dims: p.dims.clone(),
        mode,
        rank: p.rank,
        x: a.x as *const T,
        u: a.u.iter().map(|f| f.at as *const T).collect(),
        ldu: a.u.iter().map(|f| f.ld).collect(),
        m: m as *mut T,
        ldm: p.dims[mode],
    }
}

/// Whether the first two modes share one pass over X (see the module docs).
fn takes_tree<T>(p: &CpAls<T>) -> bool {
    p.dims.len() >= 3 && p.dims[2..].iter().product::<usize>() >= p.rank
}

/// The dimension tree's partial product T = X_(01)·(U_{d−1} ⊙ … ⊙ U_2) into `t` (compact): the
/// MTTKRP of mode 0 of X read as an (n_0·n_1) × n_2 × … × n_{d−1} tensor.
fn tree_of<T>(p: &CpAls<T>, a: &CpArrays, t: u64) -> Mttkrp<T> {
    // Mode 0's factor is not read; the merged mode drops U_1.
    let mut m = mttkrp_of(p, a, 0, t);
    m.dims.splice(0..2, [p.dims[0] * p.dims[1]]);
    m.u.remove(1);
    m.ldu.remove(1);
    m.ldm = m.dims[0];
    m
}

/// The contraction U_kᵀ·U_k (rank × rank) of factor k.
fn gram<T>(p: &CpAls<T>, k: usize, ld: usize) -> super::Contraction {
    super::Contraction { lda: ld, ldb: ld, ..super::engine::gram_of(p.dims[k], p.rank, false) }
}

impl CpWork {
    /// The layout for `p` on engine `e`, the factors' leading dimensions `ld`.
    pub fn new<T: Real, E: Engine<T>>(p: &CpAls<T>, e: &E, ld: &[usize]) -> Result<CpWork> {
        let r = p.rank;
        let big = *p.dims.iter().max().unwrap_or(&1);
        let r2 = prod(&[r, r], "rank²")?;
        let fake = CpArrays { x: 0, u: ld.iter().map(|&l| Mat::new(0, l)).collect(), lambda: 0 };
        let mut scratch = e.dots_scratch(r.max(1));
        for (k, &l) in ld.iter().enumerate() {
            scratch = scratch.max(e.mttkrp_scratch(&mttkrp_of(p, &fake, k, 0))).max(e.contract_scratch(&gram(p, k, l)));
        }
        let tree = takes_tree(p);
        if tree {
            scratch = scratch.max(e.mttkrp_scratch(&tree_of(p, &fake, 0)));
        }
        let mut l = Layout::default();
        let m = l.take(prod(&[big, r], "the largest dimension × rank")?)?;
        let grams = l.take(prod(&[p.dims.len(), r2], "ndim × rank²")?)?;
        let v = l.take(r2)?;
        let tree = if tree { Some(l.take(prod(&[p.dims[0], p.dims[1], r], "n_0 × n_1 × rank")?)?) } else { None };
        let scratch = l.take(scratch)?;
        Ok(CpWork { m, grams, v, tree, scratch, total: l.total() })
    }
}

/// Value (i, r) of the random initial factor k: uniform in [0, 1), from SplitMix64 of `seed`
/// and the entry's position among all factors (the same on every backend).
fn random_column<T: Real>(seed: u64, dims: &[usize], rank: usize, k: usize, r: usize) -> Vec<T> {
    let first: usize = dims[..k].iter().sum::<usize>() * rank + r * dims[k];
    (0..dims[k]).map(|i| T::of((crate::sshopm::splitmix(seed, (first + i) as u64) >> 11) as f64 * 2f64.powi(-53))).collect()
}

/// Runs CP-ALS on the arrays `a` with the working memory at `work` (laid out by `w`).
///
/// # Safety
/// The arrays hold the validated call's extents in the engine's memory; `work` holds
/// `w.total` elements.
pub unsafe fn run<T: Real, E: Engine<T>>(e: &mut E, p: &CpAls<T>, a: &CpArrays, w: &CpWork, work: u64) -> Result<CpOutcome> {
    let (d, r) = (p.dims.len(), p.rank);
    let off = |o: usize| super::engine::at::<T>(work, o);
    let (mbuf, grams, v, scratch) = (off(w.m), off(w.grams), off(w.v), off(w.scratch));
    let gram_at = |k: usize| super::engine::at::<T>(grams, k * r * r);
    let numel = p.dims.iter().product::<usize>();
    let norm2 = e.dots(numel, 1, Mat::new(a.x, numel), Mat::new(a.x, numel), scratch)?[0];
    if !norm2.is_finite() {
        return breakdown(e, p, a, 0);
    }
    if norm2 == 0.0 {
        for (k, f) in a.u.iter().enumerate() {
            e.fill(p.dims[k], r, *f, T::zero())?;
        }
        e.fill(r, 1, Mat::new(a.lambda, r), T::zero())?;
        absorb(e, p, a)?;
        return Ok(CpOutcome { iters: 0, fit: 1.0 });
    }
    if !p.opts.given {
        for (k, f) in a.u.iter().enumerate() {
            for c in 0..r {
                e.upload(&random_column::<T>(p.opts.seed, &p.dims, r, k, c), super::engine::at::<T>(f.at, c * f.ld))?;
            }
        }
    }
    for (k, f) in a.u.iter().enumerate().skip(1) {
        e.contract(&gram(p, k, f.ld), f.at, f.at, Mat::new(gram_at(k), r), scratch)?;
    }
    let (mut fit_old, mut host) = (0.0, vec![T::zero(); r * r + r]);
    for it in 1..=p.opts.max_iters {
        for n in 0..d {
            let f = a.u[n];
            match (w.tree, n) {
                (Some(t), 0 | 1) => tree_mttkrp(e, p, a, n, off(t), mbuf, scratch)?,
                _ => e.mttkrp(&mttkrp_of(p, a, n, mbuf), scratch)?,
            }
            e.hadamard(r, d, n, grams, v)?;
            e.spd_solve(r, v, p.dims[n], Mat::new(mbuf, p.dims[n]), f)?;
            e.normalize(p.dims[n], r, f, a.lambda)?;
            e.contract(&gram(p, n, f.ld), f.at, f.at, Mat::new(gram_at(n), r), scratch)?;
        }
        // The fit, from the Gram matrices, λ and the last mode's MTTKRP.
        e.hadamard(r, d, d, grams, v)?;
        e.download(v, &mut host[..r * r])?;
        e.download(a.lambda, &mut host[r * r..])?;
        let last = d - 1;
        let inner = e.dots(p.dims[last], r, Mat::new(mbuf, p.dims[last]), a.u[last], scratch)?;
        let (vv, lam): (Vec<f64>, Vec<f64>) = (host[..r * r].iter().map(|&x| x.into()).collect(), host[r * r..].iter().map(|&x| x.into()).collect());
        let norm_hat2: f64 = (0..r * r).map(|e| lam[e % r] * lam[e / r] * vv[e]).sum();
        let ip: f64 = lam.iter().zip(&inner).map(|(l, i)| l * i).sum();
        let fit = 1.0 - (norm2 + norm_hat2 - 2.0 * ip).max(0.0).sqrt() / norm2.sqrt();
        if !fit.is_finite() {
            return breakdown(e, p, a, it as i32);
        }
        if (fit - fit_old).abs() < p.opts.tol || it == p.opts.max_iters {
            absorb(e, p, a)?;
            return Ok(CpOutcome { iters: it as i32, fit });
        }
        fit_old = fit;
    }
    unreachable!("max_iters >= 1 iterations end in the loop")
}

/// The MTTKRP of mode `n` (0 or 1) into `m` from the dimension tree's T at `t`, formed here
/// for mode 0: column r of M_0 is T_r·U_1(:, r), of M_1 T_rᵀ·U_0(:, r), T_r the n_0 × n_1
/// matrix of T's column r.
///
/// # Safety
/// As [`run`]; `t` holds n_0·n_1·rank elements.
unsafe fn tree_mttkrp<T: Real, E: Engine<T>>(e: &mut E, p: &CpAls<T>, a: &CpArrays, n: usize, t: u64, m: u64, scratch: u64) -> Result<()> {
    let (n0, n1) = (p.dims[0], p.dims[1]);
    if n == 0 {
        e.mttkrp(&tree_of(p, a, t), scratch)?;
    }
    let other = a.u[1 - n];
    let s = super::engine::shape::<T>(n == 1, false, p.dims[n], 1, p.dims[1 - n], false);
    e.gemm(&s, Mat::new(t, n0).stride(n0 * n1), Mat::new(other.at, other.ld).stride(other.ld), Mat::new(m, p.dims[n]).stride(p.dims[n]), p.rank)
}

/// λ and every factor NaN, the fit NaN.
///
/// # Safety
/// As [`run`].
unsafe fn breakdown<T: Real, E: Engine<T>>(e: &mut E, p: &CpAls<T>, a: &CpArrays, iters: i32) -> Result<CpOutcome> {
    let nan = T::of(f64::NAN);
    for (k, f) in a.u.iter().enumerate() {
        e.fill(p.dims[k], p.rank, *f, nan)?;
    }
    e.fill(p.rank, 1, Mat::new(a.lambda, p.rank), nan)?;
    Ok(CpOutcome { iters, fit: f64::NAN })
}

/// With `absorb`: U_0(:, r) *= λ_r, then λ = 1.
///
/// # Safety
/// As [`run`].
unsafe fn absorb<T: Real, E: Engine<T>>(e: &mut E, p: &CpAls<T>, a: &CpArrays) -> Result<()> {
    if p.opts.absorb {
        e.scale_cols(p.dims[0], p.rank, a.u[0], a.lambda)?;
        e.fill(p.rank, 1, Mat::new(a.lambda, p.rank), T::one())?;
    }
    Ok(())
}

/// Where the working memory of a reconstruction goes: the Khatri–Rao product of the factors
/// of modes 1 … d − 1 (∏ dims / dims[0] × rank), and the scratch of its table.
#[derive(Clone, Copy, Debug)]
pub struct CpRecWork {
    k: usize,
    scratch: usize,
    pub total: usize,
}

impl CpRecWork {
    pub fn new<T: Real, E: Engine<T>>(p: &CpReconstruct<T>, e: &E) -> Result<CpRecWork> {
        let mut l = Layout::default();
        let k = l.take(prod(&[prod(&p.dims[1..], "the product of the dimensions")?, p.rank], "the Khatri–Rao product of the factors")?)?;
        let scratch = l.take(e.kr_scratch(p.dims.len() - 1))?;
        Ok(CpRecWork { k, scratch, total: l.total() })
    }
}

/// X = Σ_r λ_r·U_0(:, r) ∘ … ∘ U_{d−1}(:, r) as X_(0) = U_0·(diag(λ)·(U_{d−1} ⊙ … ⊙ U_1)ᵀ):
/// the Khatri–Rao product of the other factors, its columns scaled by λ, one GEMM (rank 0:
/// X = 0). `u` and `x` are the arrays in the engine's memory.
///
/// # Safety
/// As [`run`].
pub unsafe fn reconstruct<T: Real, E: Engine<T>>(e: &mut E, p: &CpReconstruct<T>, u: &[Mat], lambda: u64, x: u64, w: &CpRecWork, work: u64) -> Result<()> {
    let (k, scratch) = (super::engine::at::<T>(work, w.k), super::engine::at::<T>(work, w.scratch));
    let rows: usize = p.dims[1..].iter().product();
    if p.rank > 0 {
        let f: Vec<Factor<T>> = (1..p.dims.len()).map(|m| Factor { ptr: u[m].at as *const T, ld: u[m].ld, dim: p.dims[m] }).collect();
        e.khatri_rao(&f, p.rank, Mat::new(k, rows), scratch)?;
        if lambda != 0 {
            e.scale_cols(rows, p.rank, Mat::new(k, rows), lambda)?;
        }
    }
    let s = super::engine::shape::<T>(false, true, p.dims[0], rows, p.rank, false);
    let u0 = if p.rank > 0 { u[0] } else { Mat::new(k, p.dims[0]) };
    e.gemm(&s, u0, Mat::new(k, rows), Mat::new(x, p.dims[0]), 1)
}

/// CP-ALS of the tensor X (see the module docs): the factors U[k] (dims[k] × rank, leading
/// dimension ldu[k]) and the weights λ; the iterations done and the last fit go to the host
/// outputs `iters` and `fit`. On the CUDA backend the call waits for the device (the stopping
/// test reads the fit each iteration).
///
/// # Safety
/// `dims`, `u` and `ldu` are NULL or valid for `ndim` reads, `opts` NULL or valid for one read,
/// `iters` and `fit` NULL or valid for one write (host memory); X, the factors and λ NULL or
/// valid for their extents, all host or all device memory.
#[allow(clippy::too_many_arguments)]
pub unsafe fn cp_als<T: Real>(h: &mut Handle, ndim: i32, dims: *const i64, x: *const T, rank: i64, u: *const *mut T, ldu: *const i64, lambda: *mut T, opts: *const numgpu_cp_options, iters: *mut i32, fit: *mut T) -> Result<()> {
    let dims = whole_tensor::<T>(ndim, dims)?;
    not_null(x, "X")?;
    let r = nonneg(rank, "rank")?;
    if r == 0 {
        return Err(Error::arg("rank", "(rank = 0) must be >= 1"));
    }
    let (uv, lduv) = factor_arrays::<T>(&dims, dims.len(), r, u as *const *const T, ldu)?;
    not_null(lambda, "lambda")?;
    check_span::<T>(r, 1, 1, "lambda")?;
    let opts = CpOpts::from_c(opts)?;
    host_out(iters, "iters")?;
    host_out(fit, "fit")?;
    let mut args: Vec<ArgPtr> = vec![(x as _, "X"), (lambda as _, "lambda")];
    args.extend(uv.iter().map(|&f| (f as *const c_void, "U")));
    let space = space_of(h, &args, &[], &["U", "lambda"], 1)?;
    let p = CpAls { dims, rank: r, x, u: uv.iter().map(|&f| f as *mut T).collect(), ldu: lduv, lambda, opts };
    let out = match &mut h.state {
        State::Cpu => super::cpu::cp_als(&p)?,
        State::Cuda(ch) => super::cuda::cp_als(ch, &p, space)?,
    };
    *iters = out.iters;
    *fit = T::of(out.fit);
    Ok(())
}

/// X = Σ_r λ_r·U[0](:, r) ∘ … ∘ U[d−1](:, r) (λ NULL: all 1; rank 0: X = 0); see
/// [`reconstruct`]. A zero dimension touches nothing.
///
/// # Safety
/// As [`cp_als`]; U and ldu are not referenced when rank = 0.
#[allow(clippy::too_many_arguments)]
pub unsafe fn cp_reconstruct<T: Real>(h: &mut Handle, ndim: i32, dims: *const i64, rank: i64, u: *const *const T, ldu: *const i64, lambda: *const T, x: *mut T) -> Result<()> {
    let dims = tensor_dims::<T>(ndim, dims)?;
    let r = nonneg(rank, "rank")?;
    let (uv, lduv) = if r > 0 { factor_arrays::<T>(&dims, dims.len(), r, u, ldu)? } else { (vec![std::ptr::null(); dims.len()], vec![1; dims.len()]) };
    if !lambda.is_null() {
        check_span::<T>(r, 1, 1, "lambda")?;
    }
    let numel: usize = dims.iter().product();
    if numel == 0 {
        return Ok(());
    }
    not_null(x, "X")?;
    let mut args: Vec<ArgPtr> = vec![(x as _, "X"), (lambda as _, "lambda")];
    args.extend(uv.iter().map(|&f| (f as *const c_void, "U")));
    let space = space_of(h, &args, &[], &["X"], 1)?;
    let p = CpReconstruct { dims, rank: r, u: uv, ldu: lduv, lambda, x };
    match &mut h.state {
        State::Cpu => super::cpu::cp_reconstruct(&p),
        State::Cuda(ch) => super::cuda::cp_reconstruct(ch, &p, space),
    }
}

/// The lengths the safe wrappers check: X against ∏ dims, each factor against its extent.
fn check_slices(dims: &[i64], x: usize, rank: i64, u: &[usize], ldu: &[i64]) -> Result<()> {
    check_len(u.len(), dims.len(), "U")?;
    check_len(ldu.len(), dims.len(), "ldu")?;
    if dims.iter().all(|&d| d >= 0) {
        check_len(x, dims.iter().map(|&d| d as usize).fold(1usize, |a, d| a.saturating_mul(d)), "X")?;
        for k in 0..dims.len() {
            check_len(u[k], span(dims[k], ldu[k], rank), "U")?;
        }
    }
    Ok(())
}

/// Safe [`cp_als`] on host slices: `u[k]` the factor of mode k with leading dimension `ldu[k]`,
/// `opts` None for the defaults; returns the iterations done and the last fit.
#[allow(clippy::too_many_arguments)]
pub fn cp_als_slices<T: Real>(h: &mut Handle, dims: &[i64], x: &[T], rank: i64, u: &mut [&mut [T]], ldu: &[i64], lambda: &mut [T], opts: Option<&numgpu_cp_options>) -> Result<(i32, T)> {
    check_slices(dims, x.len(), rank, &u.iter().map(|f| f.len()).collect::<Vec<_>>(), ldu)?;
    check_len(lambda.len(), rank.max(0) as usize, "lambda")?;
    let ptrs: Vec<*mut T> = u.iter_mut().map(|f| f.as_mut_ptr()).collect();
    let (mut iters, mut fit) = (0, T::zero());
    let o = opts.map_or(std::ptr::null(), |o| o as *const _);
    // SAFETY: the slices cover every offset the checked sizes reach; dims, ptrs and ldu have
    // ndim entries.
    unsafe { cp_als(h, dims.len().min(i32::MAX as usize) as i32, dims.as_ptr(), x.as_ptr(), rank, ptrs.as_ptr(), ldu.as_ptr(), lambda.as_mut_ptr(), o, &mut iters, &mut fit)? };
    Ok((iters, fit))
}

/// Safe [`cp_reconstruct`] on host slices (`lambda` None: weights 1).
pub fn cp_reconstruct_slices<T: Real>(h: &mut Handle, dims: &[i64], rank: i64, u: &[&[T]], ldu: &[i64], lambda: Option<&[T]>, x: &mut [T]) -> Result<()> {
    check_slices(dims, x.len(), rank, &u.iter().map(|f| f.len()).collect::<Vec<_>>(), ldu)?;
    if let Some(l) = lambda {
        check_len(l.len(), rank.max(0) as usize, "lambda")?;
    }
    let ptrs: Vec<*const T> = u.iter().map(|f| f.as_ptr()).collect();
    // SAFETY: as in `cp_als_slices`.
    unsafe { cp_reconstruct(h, dims.len().min(i32::MAX as usize) as i32, dims.as_ptr(), rank, ptrs.as_ptr(), ldu.as_ptr(), lambda.map_or(std::ptr::null(), |l| l.as_ptr()), x.as_mut_ptr()) }
}
