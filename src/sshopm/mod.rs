//! Tensor eigenpairs by the shifted symmetric higher-order power method (SS-HOPM: Kolda and
//! Mayo; on GPUs Ballard, Kolda and Plantenga), for batches of real symmetric tensors
//! A ∈ R[m, n] stored compressed (the U = C(m+n−1, m) unique entries, see [`tables`]).
//!
//! An eigenpair: A·x^{m−1} = λ·x with ‖x‖ = 1, where (A·x^{m−1})_i = Σ a_{i i2…im}·x_{i2}···x_{im}
//! and λ = A·x^m = xᵀ·(A·x^{m−1}). From a unit start x0, each iteration
//!
//! ```text
//! x̂ = A·x^{m−1} + α·x          (convex mode, α ≥ 0: converges to local maxima of A·x^m on the sphere)
//! x̂ = −(A·x^{m−1} + α·x)       (concave mode, α ≤ 0: local minima)
//! x = x̂ / ‖x̂‖,   λ = A·x^m
//! ```
//!
//! until |λ_{k+1} − λ_k| ≤ tol (flag 0), `maxit` iterations (flag 1), ‖x̂‖ below the smallest
//! normal number (flag 2) or a non-finite value (flag 3). Shifts: FIXED α; SAFE α =
//! ±(m−1)·‖A‖_F, which guarantees convergence; ADAPTIVE, per iterate (the Tensor Toolbox's
//! `eig_sshopm`): α = max(0, τ/m − (m−1)·λ_min(A·x^{m−2})) convex, α = min(0, −τ/m −
//! (m−1)·λ_max(A·x^{m−2})) concave, τ = 1e-6.
//!
//! Entry points: [`sshopm`] (every start's λ, x, iterations and flag), [`sshopm_unique`] (per
//! tensor, the distinct eigenpairs found, their multiplicity and type), [`sym_apply`] (A·x^m,
//! A·x^{m−1} or A·x^{m−2}), [`sym_pack`] / [`sym_unpack`] (dense ↔ compressed).
//!
//! Starting vectors: given (normalised by the library; `strideX0 = 0` shares one set among
//! the tensors), or drawn: component i of start s of tensor t is uniform on [−1, 1] from a
//! counter-based generator (SplitMix64 of the handle's seed and the counter
//! ((t·nstarts + s)·n + i)), then the start is normalised: the same draws on every backend.

pub mod capi;
pub mod cpu;
pub mod cuda;
pub mod tables;

use crate::core::check::{check_array, check_extent, check_stride, fits_i32, nonneg, not_null};
use crate::core::error::{checked_mul, Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::{common_space, host_pointers, ArgPtr};
use crate::core::Scalar;
use num_traits::Float;
use std::sync::Arc;
pub use tables::{tables, Tables};

/// The real element types of the family (f32, f64).
pub trait Real: Scalar<Real = Self> + Float + std::iter::Sum {
    /// Bits of a uniform draw: the significand's (24, 53), so that it is exact.
    const DRAW_BITS: u32;
    /// A constant of the type (rounded).
    fn c(x: f64) -> Self;
    /// Neither NaN nor infinite (`Float::is_finite`; `Scalar` has one too).
    fn finite(self) -> bool {
        Float::is_finite(self)
    }
}
impl Real for f32 {
    const DRAW_BITS: u32 = 24;
    fn c(x: f64) -> Self {
        x as f32
    }
}
impl Real for f64 {
    const DRAW_BITS: u32 = 53;
    fn c(x: f64) -> Self {
        x
    }
}

/// SplitMix64's output for `counter` under `seed` (the kernels compute the same).
pub fn splitmix(seed: u64, counter: u64) -> u64 {
    let mut z = seed.wrapping_add(counter.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Component i of the random start g = t·nstarts + s (before normalisation): uniform on
/// [−1, 1), exact in T.
pub fn draw<T: Real>(seed: u64, g: u64, n: usize, i: usize) -> T {
    let z = splitmix(seed, g.wrapping_mul(n as u64).wrapping_add(i as u64));
    let u = T::c((z >> (64 - T::DRAW_BITS)) as f64) * T::c(2f64.powi(-(T::DRAW_BITS as i32)));
    u + u - T::c(1.0)
}

/// Flops of one iteration of the specialised kernel for (m, n) (FIXED or SAFE shift): the
/// monomials of degrees 2 … m − 1 (a multiply each), a multiply per gradient weight other
/// than 1, 2 per gradient term (a multiply-add), the shifted step (2n), the norm (2n), the
/// scaling (n plus a reciprocal square root) and λ (2n). What numgpu-bench and the tour count
/// for GFLOP/s.
pub fn iteration_flops(tab: &Tables) -> f64 {
    let mono = tab.nmono() - 1 - tab.n;
    let weights = tab.gw.iter().filter(|&&w| w != 1.0).count();
    (mono + weights + 2 * tab.ngrad * tab.n + 7 * tab.n + 1) as f64
}

/// τ of the adaptive shift.
pub(crate) const ADAPTIVE_TAU: f64 = 1e-6;

/// Which extrema the iteration seeks, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_sshopm_mode {
    /// Local maxima of A·x^m on the unit sphere (x̂ = A·x^{m−1} + α·x, α ≥ 0).
    NUMGPU_SSHOPM_CONVEX = 0,
    /// Local minima (x̂ = −(A·x^{m−1} + α·x), α ≤ 0).
    NUMGPU_SSHOPM_CONCAVE = 1,
}

/// A `numgpu_sshopm_mode` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_sshopm_mode`.
pub type SshopmModeArg = i32;

/// How the shift α is chosen, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_sshopm_shift {
    /// The caller's α (≥ 0 convex, ≤ 0 concave; 0 is the unshifted S-HOPM, which may not
    /// converge).
    NUMGPU_SSHOPM_FIXED = 0,
    /// α = (m−1)·‖A‖_F (convex) or −(m−1)·‖A‖_F (concave), per tensor: provably convergent.
    NUMGPU_SSHOPM_SAFE = 1,
    /// α chosen per iterate from the extreme eigenvalue of A·x^{m−2} (see the module docs).
    NUMGPU_SSHOPM_ADAPTIVE = 2,
}

/// A `numgpu_sshopm_shift` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_sshopm_shift`.
pub type SshopmShiftArg = i32;

/// See [`numgpu_sshopm_mode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Convex,
    Concave,
}

impl Mode {
    /// Validates a mode from C (the parameter `mode`).
    pub fn from_i32(v: i32) -> Result<Mode> {
        match v {
            0 => Ok(Mode::Convex),
            1 => Ok(Mode::Concave),
            _ => Err(Error::arg("mode", format!("(mode = {v}) must be NUMGPU_SSHOPM_CONVEX (0) or NUMGPU_SSHOPM_CONCAVE (1)"))),
        }
    }
}

/// See [`numgpu_sshopm_shift`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shift {
    Fixed,
    Safe,
    Adaptive,
}

impl Shift {
    /// Validates a shift kind from C (the parameter `shift_kind`).
    pub fn from_i32(v: i32) -> Result<Shift> {
        match v {
            0 => Ok(Shift::Fixed),
            1 => Ok(Shift::Safe),
            2 => Ok(Shift::Adaptive),
            _ => Err(Error::arg(
                "shift_kind",
                format!("(shift_kind = {v}) must be NUMGPU_SSHOPM_FIXED (0), NUMGPU_SSHOPM_SAFE (1) or NUMGPU_SSHOPM_ADAPTIVE (2)"),
            )),
        }
    }
}

/// The flag `numgpu_sshopm` writes for each (tensor, start), as an `int32_t`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_sshopm_flag {
    /// |λ_{k+1} − λ_k| <= tol within maxit iterations.
    NUMGPU_SSHOPM_CONVERGED = 0,
    /// maxit iterations without converging.
    NUMGPU_SSHOPM_MAXIT = 1,
    /// ‖x̂‖ fell below the smallest normal number (a zero tensor with α = 0, a zero start).
    NUMGPU_SSHOPM_UNDERFLOW = 2,
    /// A non-finite value (NaN or Inf in the tensor or the start).
    NUMGPU_SSHOPM_NONFINITE = 3,
}

/// The flags of [`numgpu_sshopm_flag`] as the `flags` array holds them.
pub const FLAG_CONVERGED: i32 = numgpu_sshopm_flag::NUMGPU_SSHOPM_CONVERGED as i32;
pub const FLAG_MAXIT: i32 = numgpu_sshopm_flag::NUMGPU_SSHOPM_MAXIT as i32;
pub const FLAG_UNDERFLOW: i32 = numgpu_sshopm_flag::NUMGPU_SSHOPM_UNDERFLOW as i32;
pub const FLAG_NONFINITE: i32 = numgpu_sshopm_flag::NUMGPU_SSHOPM_NONFINITE as i32;

/// Where the starting vectors come from.
#[derive(Clone, Copy, Debug)]
pub enum Starts<T> {
    /// Start s of tensor t at `x0 + t·stride + s·n` (stride 0: one set for all tensors).
    Given { x0: *const T, stride: usize },
    /// Drawn from the seed (see the module docs).
    Random { seed: u64 },
}

/// One validated call of the iteration (ntensors, nstarts >= 1).
#[derive(Clone, Debug)]
pub struct Problem<T> {
    pub tab: Arc<Tables>,
    pub ntensors: usize,
    /// Tensor t's U entries at `a + t·stride_a`.
    pub a: *const T,
    pub stride_a: usize,
    pub nstarts: usize,
    pub starts: Starts<T>,
    pub mode: Mode,
    pub shift: Shift,
    /// The fixed shift (FIXED only).
    pub alpha: T,
    pub tol: T,
    pub maxit: i32,
}

/// Outputs of [`sshopm`], per (tensor t, start s) at g = t·nstarts + s.
#[derive(Clone, Copy, Debug)]
pub struct Outputs<T> {
    /// λ at g.
    pub lambda: *mut T,
    /// x at g·n … g·n + n − 1.
    pub x: *mut T,
    pub iters: *mut i32,
    pub flags: *mut i32,
}

/// Outputs of [`sshopm_unique`], per tensor t and slot k < kmax at t·kmax + k.
#[derive(Clone, Copy, Debug)]
pub struct UniqueOutputs<T> {
    pub merge_tol: T,
    pub kmax: usize,
    /// Eigenpairs stored for tensor t, at t.
    pub count: *mut i32,
    pub lambda: *mut T,
    /// x at (t·kmax + k)·n.
    pub x: *mut T,
    /// Starts that converged to the pair.
    pub mult: *mut i32,
    /// 1 local maximum, −1 local minimum, 0 neither or undecided (see [`TYPE_MAX`]).
    pub kind: *mut i32,
}

/// The type `numgpu_sshopm_unique` writes for each eigenpair, as an `int32_t`: from the
/// projected Hessian Uᵀ((m−1)·A·x^{m−2} − λ·I)U (U an orthonormal basis of x^⊥).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_sshopm_pair_type {
    /// Negative definite: a local maximum of A·x^m on the sphere.
    NUMGPU_SSHOPM_LOCAL_MAX = 1,
    /// Positive definite: a local minimum.
    NUMGPU_SSHOPM_LOCAL_MIN = -1,
    /// Neither: a saddle point, or an eigenvalue within √ε·(1 + ‖H‖_F) of zero; also the
    /// slots after the stored pairs.
    NUMGPU_SSHOPM_OTHER = 0,
}

/// The types of [`numgpu_sshopm_pair_type`] as the `pair_type` array holds them.
pub const TYPE_MAX: i32 = numgpu_sshopm_pair_type::NUMGPU_SSHOPM_LOCAL_MAX as i32;
pub const TYPE_MIN: i32 = numgpu_sshopm_pair_type::NUMGPU_SSHOPM_LOCAL_MIN as i32;
pub const TYPE_OTHER: i32 = numgpu_sshopm_pair_type::NUMGPU_SSHOPM_OTHER as i32;

// SAFETY: these carry the caller's pointers; every backend writes output g (or tensor t's
// slots) from one thread, and the inputs are only read.
unsafe impl<T: Send> Send for Problem<T> {}
unsafe impl<T: Sync> Sync for Problem<T> {}
unsafe impl<T: Send> Send for Outputs<T> {}
unsafe impl<T: Sync> Sync for Outputs<T> {}
unsafe impl<T: Send> Send for UniqueOutputs<T> {}
unsafe impl<T: Sync> Sync for UniqueOutputs<T> {}

/// m ≥ 2 and n ≥ 1, and tables within the limits.
fn check_order(m: i64, n: i64) -> Result<(usize, usize)> {
    if m < 2 {
        return Err(Error::arg("m", format!("(m = {m}) must be >= 2")));
    }
    if n < 1 {
        return Err(Error::arg("n", format!("(n = {n}) must be >= 1")));
    }
    let (m, n) = (m as usize, n as usize);
    tables::check_size(m, n)?;
    Ok((m, n))
}

/// The arguments [`sshopm`] and [`sshopm_unique`] share, checked in order
/// (sizes and scalars first, then, unless the work is empty, the arrays). None when empty.
#[allow(clippy::too_many_arguments)]
unsafe fn problem<T: Real>(
    h: &Handle,
    mode: i32,
    shift: i32,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    a: *const T,
    stride_a: i64,
    x0: *const T,
    stride_x0: i64,
    alpha: T,
    tol: T,
    maxit: i64,
) -> Result<Option<Problem<T>>> {
    let mode = Mode::from_i32(mode)?;
    let shift = Shift::from_i32(shift)?;
    let (mu, nu) = check_order(m, n)?;
    let nt = nonneg(ntensors, "ntensors")?;
    let ns = nonneg(nstarts, "nstarts")?;
    let u = tables::unique_count(mu, nu) as usize;
    check_stride(stride_a, u, false, nt, "strideA", "U = C(m+n−1, m)")?;
    let per_tensor = checked_mul(nu, ns, "n·nstarts")?;
    if !x0.is_null() {
        check_stride(stride_x0, per_tensor, true, nt, "strideX0", "n·nstarts")?;
    }
    if shift == Shift::Fixed {
        let ok = alpha.finite() && if mode == Mode::Convex { alpha >= T::c(0.0) } else { alpha <= T::c(0.0) };
        if !ok {
            let want = if mode == Mode::Convex { ">= 0 (convex mode)" } else { "<= 0 (concave mode)" };
            return Err(Error::arg("alpha", format!("(alpha = {alpha:?}) must be finite and {want} with NUMGPU_SSHOPM_FIXED")));
        }
    }
    if !(tol >= T::c(0.0) && tol.finite()) {
        return Err(Error::arg("tol", format!("(tol = {tol:?}) must be finite and >= 0")));
    }
    if maxit < 1 {
        return Err(Error::arg("maxit", format!("(maxit = {maxit}) must be >= 1")));
    }
    // iters reports the count in an int32_t.
    let maxit = fits_i32(maxit, "maxit")?;
    if nt == 0 || ns == 0 {
        return Ok(None);
    }
    not_null(a, "A")?;
    check_extent::<T>(u, 1, stride_a, nt, "A")?;
    if !x0.is_null() {
        check_extent::<T>(per_tensor, 1, stride_x0, nt, "X0")?;
    }
    let starts = if x0.is_null() { Starts::Random { seed: h.seed() } } else { Starts::Given { x0, stride: stride_x0 as usize } };
    Ok(Some(Problem {
        tab: tables(mu, nu),
        ntensors: nt,
        a,
        stride_a: stride_a as usize,
        nstarts: ns,
        starts,
        mode,
        shift,
        alpha,
        tol,
        maxit,
    }))
}

/// `count` elements of an output array: not NULL, within the address space.
fn check_out<E>(p: *const E, count: usize, name: &'static str) -> Result<()> {
    not_null(p, name)?;
    check_array::<E>(count, name)
}

fn x0_arg<T>(p: &Problem<T>) -> ArgPtr {
    match p.starts {
        Starts::Given { x0, .. } => (x0 as _, "X0"),
        Starts::Random { .. } => (std::ptr::null(), "X0"),
    }
}

/// Runs SS-HOPM from every start on every tensor (see the module docs). ntensors = 0 or
/// nstarts = 0 touches nothing.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes describe, all in host memory or all
/// in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn sshopm<T: Real>(
    h: &mut Handle,
    mode: i32,
    shift: i32,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    a: *const T,
    stride_a: i64,
    x0: *const T,
    stride_x0: i64,
    alpha: T,
    tol: T,
    maxit: i64,
    out: Outputs<T>,
) -> Result<()> {
    let Some(p) = problem(h, mode, shift, m, n, ntensors, nstarts, a, stride_a, x0, stride_x0, alpha, tol, maxit)? else {
        return Ok(());
    };
    let total = checked_mul(p.ntensors, p.nstarts, "ntensors·nstarts")?;
    check_out(out.lambda, total, "lambda")?;
    check_out(out.x, checked_mul(total, p.tab.n, "n·ntensors·nstarts")?, "X")?;
    check_out(out.iters, total, "iters")?;
    check_out(out.flags, total, "flags")?;
    let args = [(a as _, "A"), x0_arg(&p), (out.lambda as _, "lambda"), (out.x as _, "X"), (out.iters as _, "iters"), (out.flags as _, "flags")];
    let space = common_space(h, &args)?;
    match &mut h.state {
        State::Cpu => cpu::sshopm(&p, &out),
        State::Cuda(ch) => cuda::sshopm(ch, &p, &out, space),
    }
}

/// Runs SS-HOPM as [`sshopm`] and keeps, per tensor, up to `kmax` distinct eigenpairs among the
/// converged starts (flag 0): two results are the same pair when |λ₁ − λ₂| ≤
/// merge_tol·max(1, |λ₁|) and ‖x₁ − x₂‖∞ ≤ merge_tol, or, for even m, ‖x₁ + x₂‖∞ ≤ merge_tol
/// (x and −x are one eigenvector then). A pair is the first start that reached it; when more
/// than kmax are found, those reached by the most starts are kept (ties: first found). Kept
/// pairs are stored by decreasing λ with their multiplicity (starts that reached them) and type
/// ([`TYPE_MAX`]); count[t] is how many were stored, and the slots after them get λ = NaN,
/// x = NaN, mult = 0, type = 0.
///
/// # Safety
/// As [`sshopm`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn sshopm_unique<T: Real>(
    h: &mut Handle,
    mode: i32,
    shift: i32,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    a: *const T,
    stride_a: i64,
    x0: *const T,
    stride_x0: i64,
    alpha: T,
    tol: T,
    maxit: i64,
    merge_tol: T,
    kmax: i64,
    count: *mut i32,
    lambda: *mut T,
    x: *mut T,
    mult: *mut i32,
    kind: *mut i32,
) -> Result<()> {
    let p = problem(h, mode, shift, m, n, ntensors, nstarts, a, stride_a, x0, stride_x0, alpha, tol, maxit)?;
    if !(merge_tol > T::c(0.0) && merge_tol.finite()) {
        return Err(Error::arg("merge_tol", format!("(merge_tol = {merge_tol:?}) must be finite and > 0")));
    }
    if kmax < 1 {
        return Err(Error::arg("kmax", format!("(kmax = {kmax}) must be >= 1")));
    }
    let Some(p) = p else { return Ok(()) };
    let k = kmax as usize;
    let slots = checked_mul(p.ntensors, k, "ntensors·kmax")?;
    check_out(count, p.ntensors, "count")?;
    check_out(lambda, slots, "lambda")?;
    check_out(x, checked_mul(slots, p.tab.n, "n·ntensors·kmax")?, "X")?;
    check_out(mult, slots, "mult")?;
    check_out(kind, slots, "pair_type")?;
    let args = [(a as _, "A"), x0_arg(&p), (count as _, "count"), (lambda as _, "lambda"), (x as _, "X"), (mult as _, "mult"), (kind as _, "pair_type")];
    let space = common_space(h, &args)?;
    let out = UniqueOutputs { merge_tol, kmax: k, count, lambda, x, mult, kind };
    match &mut h.state {
        State::Cpu => cpu::sshopm_unique(&p, &out),
        State::Cuda(ch) => cuda::sshopm_unique(ch, &p, &out, space),
    }
}

/// One validated `sym_apply` call (ntensors >= 1).
#[derive(Clone, Debug)]
pub struct Apply<T> {
    pub tab: Arc<Tables>,
    /// 0: A·x^m (1 value), 1: A·x^{m−1} (n), 2: A·x^{m−2} (n × n, column-major, symmetric).
    pub p: usize,
    pub ntensors: usize,
    pub a: *const T,
    pub stride_a: usize,
    /// x_t at `x + t·stride_x` (stride 0: one x for all).
    pub x: *const T,
    pub stride_x: usize,
    /// Output t at `y + t·stride_y`.
    pub y: *mut T,
    pub stride_y: usize,
}

// SAFETY: as Problem; output t is written by one thread.
unsafe impl<T: Send> Send for Apply<T> {}
unsafe impl<T: Sync> Sync for Apply<T> {}

impl<T> Apply<T> {
    /// Values of one output: 1, n or n².
    pub fn out_len(&self) -> usize {
        self.tab.n.pow(self.p as u32)
    }
}

/// y_t = A_t·x_t^m (p = 0), A_t·x_t^{m−1} (p = 1) or A_t·x_t^{m−2} (p = 2, the n × n matrix,
/// column-major) for every tensor, at any x (not normalised). ntensors = 0 touches nothing.
///
/// # Safety
/// As [`sshopm`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn sym_apply<T: Real>(h: &mut Handle, m: i64, n: i64, p: i64, ntensors: i64, a: *const T, stride_a: i64, x: *const T, stride_x: i64, y: *mut T, stride_y: i64) -> Result<()> {
    let (mu, nu) = check_order(m, n)?;
    if !(0..=2).contains(&p) {
        return Err(Error::arg("p", format!("(p = {p}) must be 0 (A·x^m), 1 (A·x^(m−1)) or 2 (A·x^(m−2))")));
    }
    let nt = nonneg(ntensors, "ntensors")?;
    let u = tables::unique_count(mu, nu) as usize;
    check_stride(stride_a, u, false, nt, "strideA", "U = C(m+n−1, m)")?;
    check_stride(stride_x, nu, true, nt, "strideX", "n")?;
    let out_len = nu.pow(p as u32);
    check_stride(stride_y, out_len, false, nt, "strideY", "n^p")?;
    if nt == 0 {
        return Ok(());
    }
    for (ptr, name) in [(a as *const u8, "A"), (x as _, "x"), (y as _, "y")] {
        not_null(ptr, name)?;
    }
    check_extent::<T>(u, 1, stride_a, nt, "A")?;
    check_extent::<T>(nu, 1, stride_x, nt, "x")?;
    check_extent::<T>(out_len, 1, stride_y, nt, "y")?;
    let ap = Apply { tab: tables(mu, nu), p: p as usize, ntensors: nt, a, stride_a: stride_a as usize, x, stride_x: stride_x as usize, y, stride_y: stride_y as usize };
    let space = common_space(h, &[(a as _, "A"), (x as _, "x"), (y as _, "y")])?;
    match &mut h.state {
        State::Cpu => cpu::sym_apply(&ap),
        State::Cuda(ch) => cuda::sym_apply(ch, &ap, space),
    }
}

/// Elements of a dense order-m tensor in dimension n, n^m, or `NOT_SUPPORTED`.
fn dense_len(m: usize, n: usize) -> Result<usize> {
    let len = (n as u128).checked_pow(m as u32).filter(|&l| l <= (isize::MAX as u128) / 8);
    len.map(|l| l as usize).ok_or_else(|| Error::not_supported(format!("a dense tensor of n^m = {n}^{m} elements exceeds the address space")))
}

/// The dense index of entry (i1, …, im): i1 + n·i2 + … + n^{m−1}·im (the first index fastest,
/// a Fortran array A(n, n, …, n)).
pub fn dense_index(idx: &[u16], n: usize) -> usize {
    idx.iter().rev().fold(0usize, |acc, &i| acc * n + i as usize)
}

/// Visits every dense position with its index tuple (first index fastest).
fn for_each_dense(m: usize, n: usize, mut f: impl FnMut(usize, &[u16])) {
    let mut idx = vec![0u16; m];
    let total = n.pow(m as u32);
    for pos in 0..total {
        f(pos, &idx);
        for i in idx.iter_mut() {
            *i += 1;
            if (*i as usize) < n {
                break;
            }
            *i = 0;
        }
    }
}

/// Packs a dense order-m tensor (n^m elements, first index fastest) into its U unique entries:
/// each the mean of the dense entries it stands for (the symmetric part's entry; for a
/// symmetric tensor, its own). Host memory only.
///
/// # Safety
/// `dense` holds n^m elements and `packed` U, in host memory.
pub unsafe fn sym_pack<T: Real>(m: i64, n: i64, dense: *const T, packed: *mut T) -> Result<()> {
    let (mu, nu) = check_order(m, n)?;
    let len = dense_len(mu, nu)?;
    not_null(dense, "dense")?;
    not_null(packed, "packed")?;
    host_pointers(&[(dense as _, "dense"), (packed as _, "packed")])?;
    let tab = tables(mu, nu);
    let d = std::slice::from_raw_parts(dense, len);
    // Per entry: the first dense value met, plus the mean of the others' differences from it
    // (in f64), so that a symmetric tensor packs exactly.
    let mut first = vec![f64::NAN; tab.u];
    let mut diff = vec![0f64; tab.u];
    let mut seen = vec![false; tab.u];
    for_each_dense(mu, nu, |pos, idx| {
        let (e, v) = (tab.entry(idx), d[pos].to_f64().unwrap_or(f64::NAN));
        if seen[e] {
            diff[e] += v - first[e];
        } else {
            (seen[e], first[e]) = (true, v);
        }
    });
    let out = std::slice::from_raw_parts_mut(packed, tab.u);
    for (e, o) in out.iter_mut().enumerate() {
        *o = T::c(first[e] + diff[e] / tab.mult[e]);
    }
    Ok(())
}

/// Unpacks the U unique entries into the dense symmetric tensor (n^m elements, first index
/// fastest). Host memory only.
///
/// # Safety
/// `packed` holds U elements and `dense` n^m, in host memory.
pub unsafe fn sym_unpack<T: Real>(m: i64, n: i64, packed: *const T, dense: *mut T) -> Result<()> {
    let (mu, nu) = check_order(m, n)?;
    let len = dense_len(mu, nu)?;
    not_null(packed, "packed")?;
    not_null(dense, "dense")?;
    host_pointers(&[(packed as _, "packed"), (dense as _, "dense")])?;
    let tab = tables(mu, nu);
    let pk = std::slice::from_raw_parts(packed, tab.u);
    let d = std::slice::from_raw_parts_mut(dense, len);
    for_each_dense(mu, nu, |pos, idx| d[pos] = pk[tab.entry(idx)]);
    Ok(())
}
