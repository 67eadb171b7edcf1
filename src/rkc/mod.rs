//! Many independent ODE systems `y' = f(t, y; p_i)`, `y(t0) = y_i`, integrated from t0 to tend
//! each with its own parameters p_i: the Runge–Kutta–Chebyshev method of Sommeijer, Shampine
//! and Verwer's `rkc.f` (1997) for moderately stiff problems, and the Cash–Karp 5(4) pair
//! (RKCK, Press et al.'s tableau) for non-stiff ones (Niemeyer & Sung, ch. 8 of the book).
//!
//! RKC, s stages, from y_n with F0 = f(t_n, y_n): w0 = 1 + 2/(13s²), T_j the Chebyshev
//! polynomials at w0, w1 = T′_s(w0)/T″_s(w0), b_j = T″_j/T′_j² (j ≥ 2), b0 = b1 = b2;
//!
//! ```text
//! Y0 = y_n;  Y1 = Y0 + μ̃1·h·F0
//! Yj = (1 − μj − νj)·Y0 + μj·Y(j−1) + νj·Y(j−2) + μ̃j·h·F(j−1) + γ̃j·h·F0,   j = 2..s
//! y_{n+1} = Ys
//! ```
//!
//! s = 1 + ⌊√(1 + 1.54·h·σ)⌋ with σ the spectral radius of ∂f/∂y (the problem's own bound,
//! or rkc.f's nonlinear power method every 25 accepted steps and after a rejection, or once
//! for a constant Jacobian), at most `max_stages` (rkc.f: nint(√(rtol/(10ε))), ≥ 2). Error
//! estimate Δ = 0.8·(y_n − y_{n+1}) + 0.4·h·(F_n + F_{n+1}); err = RMS of Δ_i / w_i with
//! w_i = atol_i + rtol·max(|y_n,i|, |y_{n+1},i|); a step is accepted when err ≤ 1 (NaN is a
//! rejection). Initial step, step-size control (factor in [0.1, 10], 0.8 safety, the
//! second-order controller from the second accepted step) and hmin = 10ε·max(|t|, |t + h|)
//! exactly as rkc.f; the last step lands on tend exactly. RKCK uses the same weights with
//! Press et al.'s controller (0.9·err^(−1/5), at most 5×; 0.9·err^(−1/4), at least 0.1× on a
//! rejection) and the same initial step.
//!
//! Where numgpu goes beyond rkc.f: a stage-limited step below hmin stops with status 1
//! (rkc.f would keep taking steps that do not advance t); a non-finite error estimate is a
//! rejection with the step cut by 10, and stops with status 4 once the step is below hmin;
//! `max_steps` bounds the steps (accepted and rejected) of one call.
//!
//! Per system: `status` 0 reached tend; 1 step below hmin; 2 max_steps exceeded; 3 the power
//! method did not converge in 50 iterations; 4 non-finite state, right-hand side or spectral
//! radius; 5 a zero error weight (atol_i = 0 with y_i = 0: rkc.f's invalid tolerances). On a
//! status other than 0, Y holds the solution at the last accepted time. `stats`
//! ([`numgpu_rkc_stat`], 7 per system): RHS evaluations (σ's excluded), steps, accepted,
//! rejected, RHS evaluations of the power method, most stages used, and the backend that
//! integrated the system.
//!
//! On the CPU backend the host callback integrates every system, rayon over them; on CUDA a
//! thread per system runs the ODE's CUDA source, or, for an ODE that has only a host callback,
//! the CPU integrator runs on the host's cores (`host.rs`; device arrays are copied there and
//! back). The stats' last entry names the backend that ran.
//!
//! `state` (per system, [`state_len`]`(neq)` doubles: the next step size, the previous step,
//! the previous error, σ, accepted steps since σ was estimated, accepted steps so far, and
//! the power method's vector) makes a warm restart: an all-zero state is a cold start, and
//! each call leaves the state to continue from.

pub mod capi;
pub mod cpu;
pub mod cuda;
pub mod host;
pub mod problems;

use crate::core::check::{check_array, check_ld, check_len, check_span, nonneg, not_null};
use crate::core::error::{mention, Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::{common_space, ArgPtr};
use std::ffi::{c_char, c_void, CStr};

pub use problems::Problem;

/// Doubles of warm-restart state per system of `neq` equations: 6 + neq.
pub fn state_len(neq: usize) -> usize {
    neq + 6
}

/// The entries of `numgpu_rkc_integrate`'s `stats`, per system, as an `int32_t` at the ABI:
/// system i's entry k is `stats[i·NUMGPU_RKC_NSTATS + k]`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_rkc_stat {
    /// Right-hand side evaluations, those of the power method excluded.
    NUMGPU_RKC_STAT_RHS = 0,
    /// Steps, accepted and rejected.
    NUMGPU_RKC_STAT_STEPS = 1,
    /// Accepted steps.
    NUMGPU_RKC_STAT_ACCEPTED = 2,
    /// Rejected steps.
    NUMGPU_RKC_STAT_REJECTED = 3,
    /// Right-hand side evaluations of the power method (the spectral-radius estimate).
    NUMGPU_RKC_STAT_SPCRAD_RHS = 4,
    /// Most stages a step used (6 for RKCK).
    NUMGPU_RKC_STAT_STAGES = 5,
    /// Where the system was integrated: `NUMGPU_BACKEND_CUDA` (a GPU thread, the ODE's CUDA
    /// source) or `NUMGPU_BACKEND_CPU` (the host's cores, the ODE's host callback: on the CPU
    /// backend, and on a CUDA handle for an ODE that has no CUDA source).
    NUMGPU_RKC_STAT_BACKEND = 6,
    /// The number of entries per system.
    NUMGPU_RKC_NSTATS = 7,
}

/// Entries of `stats` per system.
pub const fn stats_len() -> usize {
    numgpu_rkc_stat::NUMGPU_RKC_NSTATS as usize
}

/// The integration method, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_rkc_method {
    /// Runge–Kutta–Chebyshev (rkc.f), for moderately stiff problems. The default.
    NUMGPU_RKC_METHOD_RKC = 0,
    /// Cash–Karp 5(4) (Press et al.), for non-stiff problems.
    NUMGPU_RKC_METHOD_RKCK = 1,
}

/// How RKC obtains the spectral radius σ of the Jacobian, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_rkc_spectral {
    /// The problem's spectral-radius function for the backend when it has one (every step),
    /// else the power method. The default.
    NUMGPU_RKC_SPECTRAL_AUTO = 0,
    /// rkc.f's nonlinear power method, every 25 accepted steps and after a rejection.
    NUMGPU_RKC_SPECTRAL_ESTIMATE = 1,
    /// The problem's spectral-radius function (a bound, e.g. Gershgorin's), every step;
    /// `NOT_SUPPORTED` when the problem has none for the backend.
    NUMGPU_RKC_SPECTRAL_USER = 2,
    /// The Jacobian is constant: σ once (the problem's function, else the power method), kept
    /// across steps and warm restarts.
    NUMGPU_RKC_SPECTRAL_CONSTANT = 3,
}

/// Layout of the states `Y` and parameters `P`, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_ode_layout {
    /// System i's values contiguous: `Y[j + i·ldy]` (a Fortran `Y(NEQ, NSYS)`).
    NUMGPU_LAYOUT_SYSTEM_MAJOR = 0,
    /// Equation j of all systems contiguous: `Y[i + j·ldy]` (a Fortran `Y(NSYS, NEQ)`;
    /// coalesced on the GPU).
    NUMGPU_LAYOUT_EQUATION_MAJOR = 1,
}

/// A `numgpu_ode_layout` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_ode_layout`.
pub type OdeLayoutArg = i32;

/// The built-in problems of `numgpu_ode_builtin`, as an `int32_t` at the ABI.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_ode_problem {
    /// 1-D heat equation y_t = D·y_xx on (0, 1), zero Dirichlet boundaries, `size` interior
    /// points (neq = size >= 1); one parameter, D. Has a spectral-radius bound.
    NUMGPU_ODE_HEAT = 0,
    /// 1-D Brusselator reaction–diffusion (Hairer–Wanner), `size`/2 grid points, y = (u1, v1,
    /// u2, v2, …) (neq = size, even, >= 2); parameters A, B, α; boundaries u = A, v = B/A.
    /// Has a Gershgorin spectral-radius bound.
    NUMGPU_ODE_BRUSSELATOR = 1,
    /// Lorenz (neq = 3; size 0 or 3); parameters σ, R, b.
    NUMGPU_ODE_LORENZ = 2,
    /// PLEI, the Pleiades (Hairer–Wanner test set): 7 bodies in the plane, neq = 28 (size 0
    /// or 28), no parameters; non-stiff (RKCK).
    NUMGPU_ODE_PLEI = 3,
}

/// A `numgpu_ode_problem` value as a C parameter takes it: an `int32_t`, validated (a Rust enum taken
/// from C would be undefined behaviour when out of range). The header names it `numgpu_ode_problem`.
pub type OdeProblemArg = i32;

/// Host right-hand side of `numgpu_ode_create`: writes `dydt` (neq values) = f(t, y; p) for one
/// system, `p` its npar parameters (contiguous), `user` the pointer given at creation. Called
/// from several threads at once (it must be reentrant).
#[allow(non_camel_case_types)]
pub type numgpu_ode_rhs = Option<unsafe extern "C" fn(t: f64, y: *const f64, p: *const f64, dydt: *mut f64, neq: i64, user: *mut c_void)>;

/// Host spectral-radius bound of `numgpu_ode_create`: returns σ >= the spectral radius of
/// ∂f/∂y at (t, y; p). Reentrant, as the right-hand side.
#[allow(non_camel_case_types)]
pub type numgpu_ode_spcrad = Option<unsafe extern "C" fn(t: f64, y: *const f64, p: *const f64, neq: i64, user: *mut c_void) -> f64>;

/// Options of `numgpu_rkc_integrate`; NULL means every default. Set `size` to
/// `sizeof(numgpu_rkc_options)` (or fill it with `numgpu_rkc_options_default`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(non_camel_case_types)]
pub struct numgpu_rkc_options {
    /// `sizeof(numgpu_rkc_options)` as the caller compiled it (for ABI growth).
    pub size: usize,
    /// `NUMGPU_RKC_METHOD_RKC` (default) or `NUMGPU_RKC_METHOD_RKCK`.
    pub method: i32,
    /// A `numgpu_rkc_spectral` value (default AUTO).
    pub spectral: i32,
    /// Initial step size, > 0; 0: rkc.f's estimate (one extra RHS evaluation). Ignored on a
    /// warm restart.
    pub h0: f64,
    /// Largest step size, > 0; 0: |tend − t0|.
    pub hmax: f64,
    /// Most steps (accepted and rejected) per system and call, >= 1; 0: 100000.
    pub max_steps: i64,
    /// Most RKC stages, >= 2; 0: rkc.f's nint(√(rtol/(10ε))) (at least 2).
    pub max_stages: i64,
}

impl Default for numgpu_rkc_options {
    fn default() -> Self {
        numgpu_rkc_options {
            size: std::mem::size_of::<numgpu_rkc_options>(),
            method: numgpu_rkc_method::NUMGPU_RKC_METHOD_RKC as i32,
            spectral: numgpu_rkc_spectral::NUMGPU_RKC_SPECTRAL_AUTO as i32,
            h0: 0.0,
            hmax: 0.0,
            max_steps: 0,
            max_stages: 0,
        }
    }
}

/// See [`numgpu_rkc_method`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Rkc,
    Rkck,
}

/// See [`numgpu_rkc_spectral`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spectral {
    Auto,
    Estimate,
    User,
    Constant,
}

/// See [`numgpu_ode_layout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    SystemMajor,
    EquationMajor,
}

impl Layout {
    /// Validates a layout value from C (the parameter `layout`).
    pub fn from_i32(v: i32) -> Result<Layout> {
        match v {
            0 => Ok(Layout::SystemMajor),
            1 => Ok(Layout::EquationMajor),
            _ => Err(Error::arg("layout", format!("(layout = {v}) must be NUMGPU_LAYOUT_SYSTEM_MAJOR (0) or NUMGPU_LAYOUT_EQUATION_MAJOR (1)"))),
        }
    }

    /// Element steps (between equations, between systems) for leading dimension `ld`.
    pub fn steps(self, ld: usize) -> (usize, usize) {
        match self {
            Layout::SystemMajor => (1, ld),
            Layout::EquationMajor => (ld, 1),
        }
    }
}

/// Validated options with the defaults resolved, except those that depend on the interval
/// (hmax) or the backend (the spectral source).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub method: Method,
    pub spectral: Spectral,
    /// 0: estimate.
    pub h0: f64,
    /// 0: |tend − t0|.
    pub hmax: f64,
    pub max_steps: u64,
    /// 0: rkc.f's bound from rtol.
    pub max_stages: usize,
}

/// Default most steps per system and call.
const DEFAULT_MAX_STEPS: u64 = 100_000;

impl Options {
    /// Validates the C options (the parameter `opts`; NULL: defaults).
    pub fn from_c(o: Option<&numgpu_rkc_options>) -> Result<Options> {
        let d = numgpu_rkc_options::default();
        let o = o.unwrap_or(&d);
        let bad = |field: &str, value: &dyn std::fmt::Display, rule: &str| Error::arg("opts", format!("(opts->{field} = {value}) {rule}"));
        if o.size != d.size {
            return Err(bad("size", &o.size, &format!("must be sizeof(numgpu_rkc_options) = {}", d.size)));
        }
        let method = match o.method {
            0 => Method::Rkc,
            1 => Method::Rkck,
            v => return Err(bad("method", &v, "must be NUMGPU_RKC_METHOD_RKC (0) or NUMGPU_RKC_METHOD_RKCK (1)")),
        };
        let spectral = match o.spectral {
            0 => Spectral::Auto,
            1 => Spectral::Estimate,
            2 => Spectral::User,
            3 => Spectral::Constant,
            v => return Err(bad("spectral", &v, "must be a numgpu_rkc_spectral value (0 to 3)")),
        };
        if !(o.h0.is_finite() && o.h0 >= 0.0) {
            return Err(bad("h0", &o.h0, "must be finite and >= 0"));
        }
        if !(o.hmax.is_finite() && o.hmax >= 0.0) {
            return Err(bad("hmax", &o.hmax, "must be finite and >= 0"));
        }
        if o.max_steps < 0 {
            return Err(bad("max_steps", &o.max_steps, "must be >= 0"));
        }
        if o.max_stages < 0 || o.max_stages == 1 || o.max_stages > i32::MAX as i64 {
            return Err(bad("max_stages", &o.max_stages, "must be 0 or in [2, 2^31 − 1]"));
        }
        Ok(Options {
            method,
            spectral,
            h0: o.h0,
            hmax: o.hmax,
            max_steps: if o.max_steps == 0 { DEFAULT_MAX_STEPS } else { o.max_steps as u64 },
            max_stages: o.max_stages as usize,
        })
    }
}

impl Default for Options {
    fn default() -> Self {
        Options::from_c(None).expect("the defaults are valid")
    }
}

/// The settings one backend integrates with: the options with every default resolved and the
/// spectral-radius source chosen for the backend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub method: Method,
    pub rtol: f64,
    /// 0: rkc.f's initial step.
    pub h0: f64,
    /// 0: |tend − t0|.
    pub hmax: f64,
    pub max_steps: u64,
    /// Most RKC stages.
    pub mmax: usize,
    /// σ from the problem's function (else the power method).
    pub user_sigma: bool,
    /// σ once: a constant Jacobian.
    pub constant: bool,
}

impl Settings {
    /// Resolves `o` for a backend on which the problem has a spectral-radius function or not
    /// (`missing` says which one is missing, for `NOT_SUPPORTED`).
    pub fn new(o: &Options, rtol: f64, has_spcrad: bool, missing: &str) -> Result<Settings> {
        let user_sigma = match o.spectral {
            Spectral::Auto | Spectral::Constant => has_spcrad,
            Spectral::Estimate => false,
            Spectral::User if o.method == Method::Rkc && !has_spcrad => {
                return Err(Error::not_supported(format!("spectral radius NUMGPU_RKC_SPECTRAL_USER: {missing}")));
            }
            Spectral::User => has_spcrad,
        };
        let mmax = if o.max_stages > 0 { o.max_stages } else { ((rtol / (10.0 * f64::EPSILON)).sqrt().round() as usize).max(2) };
        Ok(Settings {
            method: o.method,
            rtol,
            h0: o.h0,
            hmax: o.hmax,
            max_steps: o.max_steps,
            mmax,
            user_sigma,
            constant: o.spectral == Spectral::Constant,
        })
    }
}

/// A reentrant host callback and its user pointer.
#[derive(Clone, Copy, Debug)]
pub struct Callbacks {
    pub rhs: unsafe extern "C" fn(f64, *const f64, *const f64, *mut f64, i64, *mut c_void),
    pub spcrad: Option<unsafe extern "C" fn(f64, *const f64, *const f64, i64, *mut c_void) -> f64>,
    pub user: *mut c_void,
}

// SAFETY: the callbacks are documented reentrant, and the user pointer is theirs to share.
unsafe impl Send for Callbacks {}
unsafe impl Sync for Callbacks {}

/// The right-hand side on the host: a user callback or a built-in problem.
#[derive(Clone, Copy, Debug)]
pub enum Host {
    None,
    Callback(Callbacks),
    Builtin(Problem),
}

/// An ODE system (`numgpu_ode` in C): its size, its right-hand side as CUDA source (for the
/// CUDA backend) and on the host (for the CPU backend). Create with `numgpu_ode_create` or
/// `numgpu_ode_builtin`, release with `numgpu_ode_destroy`. Usable with any handle and from
/// several threads at once.
#[derive(Debug)]
pub struct Ode {
    pub(crate) neq: usize,
    pub(crate) npar: usize,
    /// The CUDA source of `numgpu_rhs` (and maybe `numgpu_spcrad`), if any.
    pub(crate) source: Option<String>,
    /// Whether the source defines `numgpu_spcrad`.
    pub(crate) device_spcrad: bool,
    pub(crate) host: Host,
}

impl Ode {
    /// Equations per system.
    pub fn neq(&self) -> usize {
        self.neq
    }
    /// Parameters per system.
    pub fn npar(&self) -> usize {
        self.npar
    }

    /// An ODE from a CUDA source and/or a host callback. On a CUDA handle the source is compiled now, so a source that
    /// does not compile is `COMPILE_FAILED` with NVRTC's log.
    pub fn create(h: &mut Handle, neq: i64, npar: i64, source: Option<&str>, host: Option<Callbacks>) -> Result<Ode> {
        if neq < 1 {
            return Err(Error::arg("neq", format!("(neq = {neq}) must be >= 1")));
        }
        let neq = neq as usize;
        let npar = nonneg(npar, "npar")?;
        if neq > MAX_NEQ {
            return Err(Error::not_supported(format!("neq = {neq} exceeds {MAX_NEQ}, the most equations a system may have (its stages live in one GPU thread)")));
        }
        if npar > MAX_NEQ {
            return Err(Error::not_supported(format!("npar = {npar} exceeds {MAX_NEQ}")));
        }
        if source.is_none() && host.is_none() {
            return Err(Error::arg("cuda_source", format!("(cuda_source) and {} (host_rhs) must not both be NULL", mention("host_rhs"))));
        }
        let ode = Ode {
            neq,
            npar,
            source: source.map(str::to_string),
            device_spcrad: source.is_some_and(|s| s.contains("numgpu_spcrad")),
            host: host.map_or(Host::None, Host::Callback),
        };
        ode.prepare(h)?;
        Ok(ode)
    }

    /// A built-in problem; on a CUDA handle its kernel is compiled now.
    pub fn builtin(h: &mut Handle, problem: Problem, size: i64) -> Result<Ode> {
        let neq = problem.neq(size)?;
        let ode = Ode {
            neq,
            npar: problem.npar(),
            source: Some(problem.cuda_source()),
            device_spcrad: problem.has_spcrad(),
            host: Host::Builtin(problem),
        };
        ode.prepare(h)?;
        Ok(ode)
    }

    /// Compiles the RKC kernel of a CUDA handle (RKCK compiles on first use).
    fn prepare(&self, h: &mut Handle) -> Result<()> {
        match (&h.state, &self.source) {
            (State::Cuda(ch), Some(_)) => cuda::module(ch, self, Method::Rkc).map(|_| ()),
            _ => Ok(()),
        }
    }
}

/// Most equations (and parameters) per system: each GPU thread keeps about ten vectors of
/// neq doubles in local memory, which the driver reserves for every thread that can be
/// resident (80 KiB per thread at this bound).
const MAX_NEQ: usize = 1024;

/// A C string argument as text, or `INVALID_VALUE` naming it when it is not UTF-8.
///
/// # Safety
/// A non-NULL `s` is NUL-terminated.
pub unsafe fn c_text<'a>(s: *const c_char, name: &'static str) -> Result<Option<&'a str>> {
    if s.is_null() {
        return Ok(None);
    }
    CStr::from_ptr(s).to_str().map(Some).map_err(|_| Error::arg(name, format!("({name}) must be UTF-8 text")))
}

/// One validated call of [`rkc_integrate`] (nsys >= 1).
#[derive(Clone, Copy, Debug)]
pub struct Integrate<'a> {
    pub ode: &'a Ode,
    pub nsys: usize,
    pub t0: f64,
    pub tend: f64,
    /// The states, in/out.
    pub y: *mut f64,
    pub ldy: usize,
    pub layout: Layout,
    /// The parameters (NULL when npar = 0), in, in `layout` with leading dimension `ldp`.
    pub p: *const f64,
    pub ldp: usize,
    pub rtol: f64,
    /// 1 or neq entries, in.
    pub atol: *const f64,
    pub natol: usize,
    pub opts: Options,
    /// `state_len(neq)` per system, in/out; NULL: cold start, nothing saved.
    pub state: *mut f64,
    /// nsys entries, out.
    pub status: *mut i32,
    /// [`stats_len`] per system, out; may be NULL.
    pub stats: *mut i64,
}

// SAFETY: the call only carries the caller's pointers; each backend writes system i's Y,
// state, status and stats from one thread, and different systems' values do not overlap
// (checked leading dimensions); P and atol are only read.
unsafe impl Send for Integrate<'_> {}
unsafe impl Sync for Integrate<'_> {}

/// Integrates `nsys` independent systems of `ode` from t0 to tend (see the module docs).
/// nsys = 0 touches nothing; t0 =
/// tend writes status 0 and zero counts (the stats name the backend) and leaves Y and state
/// unchanged.
///
/// # Safety
/// Every pointer is NULL or valid for the extents the sizes describe, all in host memory or
/// all in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn rkc_integrate(
    h: &mut Handle,
    ode: &Ode,
    nsys: i64,
    natol: i64,
    t0: f64,
    tend: f64,
    y: *mut f64,
    ldy: i64,
    layout: Layout,
    p: *const f64,
    ldp: i64,
    rtol: f64,
    atol: *const f64,
    opts: Options,
    state: *mut f64,
    status: *mut i32,
    stats: *mut i64,
) -> Result<()> {
    let nsysu = nonneg(nsys, "nsys")?;
    if !t0.is_finite() {
        return Err(Error::arg("t0", format!("(t0 = {t0}) must be finite")));
    }
    if !tend.is_finite() {
        return Err(Error::arg("tend", format!("(tend = {tend}) must be finite")));
    }
    let (neq, npar) = (ode.neq, ode.npar);
    let rows = |l: Layout, per: usize| if l == Layout::SystemMajor { (per, if per == 0 { "0" } else { "neq" }) } else { (nsysu, "nsys") };
    let (yneed, yname) = rows(layout, neq);
    let ldyu = check_ld(ldy, yneed, "ldy", yname)?;
    let (pneed, pname) = if layout == Layout::SystemMajor { (npar, "npar") } else { (nsysu, "nsys") };
    let ldpu = if npar == 0 { ldp.max(1) as usize } else { check_ld(ldp, pneed, "ldp", pname)? };
    if !(rtol.is_finite() && (0.0..=0.1).contains(&rtol)) {
        return Err(Error::arg("rtol", format!("(rtol = {rtol}) must be in [0, 0.1]")));
    }
    if natol != 1 && natol != neq as i64 {
        return Err(Error::arg("natol", format!("(natol = {natol}) must be 1 or neq = {neq}")));
    }
    if nsysu == 0 {
        return Ok(());
    }
    not_null(y, "Y")?;
    if npar > 0 && p.is_null() {
        return Err(Error::arg("P", "(P) must not be NULL when npar > 0"));
    }
    not_null(atol, "atol")?;
    not_null(status, "status")?;
    // Every byte offset of Y, P, atol, state, status and stats fits the address space.
    check_layout_span(layout, neq, ldyu, nsysu, "Y")?;
    check_layout_span(layout, npar, ldpu, nsysu, "P")?;
    check_array::<f64>(natol as usize, "atol")?;
    check_span::<f64>(state_len(neq), state_len(neq), nsysu, "state")?;
    check_array::<i32>(nsysu, "status")?;
    check_span::<i64>(stats_len(), stats_len(), nsysu, "stats")?;
    let space = common_space(
        h,
        &[
            (y as *const c_void, "Y") as ArgPtr,
            (p as *const c_void, "P"),
            (atol as *const c_void, "atol"),
            (state as *const c_void, "state"),
            (status as *const c_void, "status"),
            (stats as *const c_void, "stats"),
        ],
    )?;
    if space == crate::core::memory::Space::Host {
        // atol's values are checked where they can be read (device arrays are the caller's).
        for k in 0..natol as usize {
            let a = *atol.add(k);
            if !(a.is_finite() && a >= 0.0) {
                return Err(Error::arg("atol", format!("(atol[{k}] = {a}) must be finite and >= 0")));
            }
        }
    }
    let c = Integrate {
        ode,
        nsys: nsysu,
        t0,
        tend,
        y,
        ldy: ldyu,
        layout,
        p,
        ldp: ldpu,
        rtol,
        atol,
        natol: natol as usize,
        opts,
        state,
        status,
        stats,
    };
    match &mut h.state {
        State::Cpu => cpu::integrate(&c),
        // An ODE without CUDA source runs its host callback on the host's cores (host.rs).
        State::Cuda(ch) if ode.source.is_none() && !matches!(ode.host, Host::None) => host::integrate(ch, &c, space),
        State::Cuda(ch) => cuda::integrate(ch, &c, space),
    }
}

/// The extent of a `layout` array `name` of `nsys` systems of `per` values each, leading
/// dimension `ld`, in bytes of f64: `NOT_SUPPORTED` naming it when beyond the address space.
fn check_layout_span(layout: Layout, per: usize, ld: usize, nsys: usize, name: &'static str) -> Result<()> {
    match layout {
        Layout::SystemMajor => check_span::<f64>(per, ld, nsys, name),
        Layout::EquationMajor => check_span::<f64>(nsys, ld, per, name),
    }
    .map(|_| ())
}

/// Elements a `layout` array of `nsys` systems of `per` values needs with leading dimension
/// `ld` (0 when empty).
pub fn needed(layout: Layout, ld: i64, per: usize, nsys: i64) -> usize {
    if ld <= 0 || per == 0 || nsys <= 0 {
        return 0;
    }
    let (ld, n) = (ld as usize, nsys as usize);
    match layout {
        Layout::SystemMajor => (n - 1) * ld + per,
        Layout::EquationMajor => (per - 1) * ld + n,
    }
}

/// Safe [`rkc_integrate`] on host slices (each checked to cover its extent; argument numbers
/// as `numgpu_rkc_integrate`). `p` may be empty when npar = 0; `state` and `stats` are
/// optional.
#[allow(clippy::too_many_arguments)]
pub fn rkc_integrate_slices(
    h: &mut Handle,
    ode: &Ode,
    nsys: i64,
    t0: f64,
    tend: f64,
    y: &mut [f64],
    ldy: i64,
    layout: Layout,
    p: &[f64],
    ldp: i64,
    rtol: f64,
    atol: &[f64],
    opts: Options,
    state: Option<&mut [f64]>,
    status: &mut [i32],
    stats: Option<&mut [i64]>,
) -> Result<()> {
    let n = nsys.max(0) as usize;
    check_len(y.len(), needed(layout, ldy, ode.neq, nsys), "Y")?;
    check_len(p.len(), needed(layout, ldp, ode.npar, nsys), "P")?;
    check_len(status.len(), n, "status")?;
    let state = match state {
        Some(s) => {
            check_len(s.len(), n * state_len(ode.neq), "state")?;
            s.as_mut_ptr()
        }
        None => std::ptr::null_mut(),
    };
    let stats = match stats {
        Some(s) => {
            check_len(s.len(), n * stats_len(), "stats")?;
            s.as_mut_ptr()
        }
        None => std::ptr::null_mut(),
    };
    let pp = if p.is_empty() { std::ptr::null() } else { p.as_ptr() };
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { rkc_integrate(h, ode, nsys, atol.len() as i64, t0, tend, y.as_mut_ptr(), ldy, layout, pp, ldp, rtol, atol.as_ptr(), opts, state, status.as_mut_ptr(), stats) }
}
