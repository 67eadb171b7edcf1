#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! `numgpu_ode_create`, `numgpu_ode_builtin`, `numgpu_ode_destroy`,
//! `numgpu_rkc_options_default` and `numgpu_rkc_integrate`: convert the C arguments and call
//! the family's Rust API.

use super::{OdeLayoutArg, OdeProblemArg};
use super::{c_text, numgpu_ode_rhs, numgpu_ode_spcrad, numgpu_rkc_options, rkc_integrate, Callbacks, Layout, Ode, Options, Problem};
use crate::core::error::numgpu_status;
use crate::core::Handle;
use crate::ffi::{boundary, deref, deref_mut};
use std::ffi::{c_char, c_void};

/// Creates an ODE system `y' = f(t, y; p)` of `neq` equations and `npar` parameters per
/// system, for `numgpu_rkc_integrate`, from a CUDA source (integrated on the GPU) and/or a
/// host callback (integrated on the host's cores: the CPU backend's form, and the CUDA
/// backend's for an ODE without source).
///
/// - `h` [in]: handle. On a CUDA handle the source is compiled now (NVRTC, for the handle's
///   device; cached in memory and on disk), so that a source that does not compile fails
///   here; on a CPU handle it is compiled when first used on a CUDA handle.
/// - `neq` [in]: equations per system, in [1, 1024].
/// - `npar` [in]: parameters per system, in [0, 1024].
/// - `cuda_source` [in]: NUL-terminated CUDA C++ source defining
///   `__device__ void numgpu_rhs(double t, const double *y, const double *p, double *dydt)`
///   (y: neq values, p: npar values, dydt: neq values to write) and, optionally,
///   `__device__ double numgpu_spcrad(double t, const double *y, const double *p)`, a bound
///   on the spectral radius of ∂f/∂y (a source that mentions `numgpu_spcrad` must define
///   it). `NEQ` and `NPAR` are defined as compile-time constants for it; `common.cuh`'s
///   helpers and CUDA's math functions are available. Copied; NULL: none (a CUDA handle then
///   integrates the host callback on the host's cores).
/// - `host_rhs` [in]: the right-hand side on the host, called for one system at a time with
///   its p (npar contiguous values) and `user`, from several threads at once: it must be
///   reentrant. NULL: none (the CPU backend then returns `NOT_SUPPORTED`).
/// - `host_spcrad` [in]: optional host bound on the spectral radius (NULL: none).
/// - `user` [in]: passed to the host callbacks as is; must stay valid while the ODE is used.
/// - `ode` [out]: receives the ODE, written only on success; release with
///   `numgpu_ode_destroy`. An ODE may be used with any handle and by several threads at once.
///
/// Errors: `INVALID_VALUE` (h or ode NULL, neq < 1, npar < 0, both cuda_source and host_rhs
/// NULL, a source that is not UTF-8), `NOT_SUPPORTED` (neq or npar above 1024),
/// `COMPILE_FAILED` (NVRTC's log in `numgpu_last_error`), `BACKEND_UNAVAILABLE` (no NVRTC),
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_ode_create(
    h: *mut Handle,
    neq: i64,
    npar: i64,
    cuda_source: *const c_char,
    host_rhs: numgpu_ode_rhs,
    host_spcrad: numgpu_ode_spcrad,
    user: *mut c_void,
    ode: *mut *mut Ode,
) -> numgpu_status {
    boundary("numgpu_ode_create", || {
        let h = deref_mut(h, "h")?;
        let out = deref_mut(ode, "ode")?;
        let source = c_text(cuda_source, "cuda_source")?;
        let host = host_rhs.map(|rhs| Callbacks { rhs, spcrad: host_spcrad, user });
        *out = Box::into_raw(Box::new(Ode::create(h, neq, npar, source, host)?));
        Ok(())
    })
}

/// Creates one of numgpu's built-in ODE systems (both backends), for tests and trying the
/// integrator out.
///
/// - `h` [in]: handle (on CUDA the problem's kernel is compiled now).
/// - `which` [in]: `NUMGPU_ODE_HEAT` (heat equation, `size` interior points, one parameter
///   D), `NUMGPU_ODE_BRUSSELATOR` (Brusselator reaction–diffusion, `size` equations = 2 ×
///   grid points, parameters A, B, α), `NUMGPU_ODE_LORENZ` (3 equations, parameters σ, R, b)
///   or `NUMGPU_ODE_PLEI` (the Pleiades, 28 equations, no parameters); heat and Brusselator
///   come with a spectral-radius bound.
/// - `size` [in]: heat in [1, 1024]; Brusselator even, in [2, 1024]; Lorenz 0 or 3; PLEI 0
///   or 28.
/// - `ode` [out]: receives the ODE, written only on success; release with
///   `numgpu_ode_destroy`.
///
/// Errors: `INVALID_VALUE` (h or ode NULL, which out of range, size not allowed),
/// `COMPILE_FAILED`, `BACKEND_UNAVAILABLE`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_ode_builtin(h: *mut Handle, which: OdeProblemArg, size: i64, ode: *mut *mut Ode) -> numgpu_status {
    boundary("numgpu_ode_builtin", || {
        let h = deref_mut(h, "h")?;
        let problem = Problem::from_i32(which)?;
        let out = deref_mut(ode, "ode")?;
        *out = Box::into_raw(Box::new(Ode::builtin(h, problem, size)?));
        Ok(())
    })
}

/// Destroys an ODE from `numgpu_ode_create` or `numgpu_ode_builtin`. NULL is a no-op. No call
/// may be using it. Compiled kernels stay in the device's cache.
#[no_mangle]
pub unsafe extern "C" fn numgpu_ode_destroy(ode: *mut Ode) -> numgpu_status {
    boundary("numgpu_ode_destroy", || {
        if !ode.is_null() {
            drop(Box::from_raw(ode));
        }
        Ok(())
    })
}

/// Fills `*opts` with the defaults of `numgpu_rkc_integrate` (as opts = NULL): size =
/// sizeof(numgpu_rkc_options), method RKC, spectral AUTO, h0 = hmax = max_steps = max_stages
/// = 0 (rkc.f's initial step, |tend − t0|, 100000 steps, rkc.f's stage bound).
///
/// Errors: `INVALID_VALUE` when opts is NULL.
#[no_mangle]
pub unsafe extern "C" fn numgpu_rkc_options_default(opts: *mut numgpu_rkc_options) -> numgpu_status {
    boundary("numgpu_rkc_options_default", || {
        *deref_mut(opts, "opts")? = numgpu_rkc_options::default();
        Ok(())
    })
}

/// Integrates `nsys` independent systems of `ode`, y' = f(t, y; p_i), from t0 to tend (either
/// direction), each with its own initial state y_i and parameters p_i: RKC (rkc.f, Sommeijer,
/// Shampine & Verwer 1997) for moderately stiff problems, or Cash–Karp 5(4) (RKCK) for
/// non-stiff ones; error control per system with weights atol_j + rtol·|y_j| (RMS norm). On
/// CUDA one thread integrates one system (the ODE's CUDA source); on the CPU the host
/// callback, rayon over the systems. An ODE with only a host callback (a Fortran `bind(C)`
/// right-hand side, say) integrates on a CUDA handle too, on the host's cores with the CPU
/// backend's integrator and results: host arrays as they are; device arrays are copied to
/// the host after the work already on the handle's stream and their outputs back (each value
/// to its place: gaps between systems untouched), and the call returns when they are in
/// place. `NUMGPU_RKC_STAT_BACKEND` says which ran.
///
/// - `h` [in]: handle.
/// - `ode` [in]: the system (`numgpu_ode_create`, `numgpu_ode_builtin`).
/// - `nsys` [in]: number of systems, >= 0.
/// - `natol` [in]: the number of values in atol: 1 (one value for every equation) or neq.
/// - `t0`, `tend` [in]: the interval, finite; t0 = tend leaves Y and state unchanged.
/// - `Y` [in,out]: the states: on entry y_i(t0), on exit y_i(tend) where status[i] = 0, else
///   the solution at the last accepted time.
/// - `ldy` [in]: system-major: >= max(1, neq); equation-major: >= max(1, nsys).
/// - `layout` [in]: `NUMGPU_LAYOUT_SYSTEM_MAJOR` (y_i(j) = Y[j + i·ldy], a Fortran
///   Y(NEQ, NSYS)) or `NUMGPU_LAYOUT_EQUATION_MAJOR` (Y[i + j·ldy], a Fortran Y(NSYS, NEQ);
///   coalesced on the GPU); P uses the same layout.
/// - `P` [in]: the parameters, p_i(k) = P[k + i·ldp] or P[i + k·ldp]; may be NULL when
///   npar = 0.
/// - `ldp` [in]: as ldy with npar for neq; not referenced when npar = 0.
/// - `rtol` [in]: relative tolerance, in [0, 0.1] (rkc.f advises >= 10ε).
/// - `atol` [in]: absolute tolerances, `natol` values, finite and >= 0 (on device memory
///   they are the caller's to check).
/// - `opts` [in]: options, or NULL for the defaults (see `numgpu_rkc_options`).
/// - `state` [in,out]: optional warm-restart state, (6 + neq) doubles per system (system i's
///   at state + i·(6 + neq)): all zeros for a cold start; each call leaves it to continue
///   from (the next step size, the last step, the last error, σ, steps since σ, accepted
///   steps, the power method's vector). NULL: a cold start, nothing saved.
/// - `status` [out]: nsys entries: 0 reached tend; 1 step size below hmin; 2 max_steps
///   exceeded; 3 the spectral radius did not converge (power method); 4 a non-finite state,
///   right-hand side or spectral radius; 5 a zero error weight (atol_j = 0 where y_j = 0).
/// - `stats` [out]: optional, `NUMGPU_RKC_NSTATS` (7) per system, entry k of system i at
///   `stats[i·NUMGPU_RKC_NSTATS + k]` (`numgpu_rkc_stat`): RHS evaluations (those of the
///   power method excluded), steps, accepted steps, rejected steps, RHS evaluations of the
///   power method, most stages used (6 for RKCK), and the backend that integrated the system
///   (`NUMGPU_BACKEND_CUDA` or `NUMGPU_BACKEND_CPU`). NULL: not written.
///
/// One system's trouble goes to its status; the others are integrated as without it. nsys =
/// 0 is success and touches nothing. All arrays are host memory, or all device memory of the
/// handle's device (then the call is enqueued on the handle's stream and returns at once,
/// except for a host-callback ODE on CUDA, above). Results are bitwise reproducible on the
/// same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL h or ode, negative nsys,
/// non-finite t0 or tend, ldy or ldp too small, bad layout, rtol outside [0, 0.1], natol not
/// 1 or neq, atol negative or not finite, a bad field of opts, NULL Y, P (npar > 0), atol or
/// status, device memory on the CPU backend, arrays in different spaces); nothing is written
/// then. `NOT_SUPPORTED` (on the CPU backend, an ODE without host callback; the ODE's form
/// that runs lacks its spectral-radius function for `NUMGPU_RKC_SPECTRAL_USER`; extents beyond
/// the address space), `COMPILE_FAILED`, `ALLOC_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_rkc_integrate(
    h: *mut Handle,
    ode: *const Ode,
    nsys: i64,
    natol: i64,
    t0: f64,
    tend: f64,
    Y: *mut f64,
    ldy: i64,
    layout: OdeLayoutArg,
    P: *const f64,
    ldp: i64,
    rtol: f64,
    atol: *const f64,
    opts: *const numgpu_rkc_options,
    state: *mut f64,
    status: *mut i32,
    stats: *mut i64,
) -> numgpu_status {
    boundary("numgpu_rkc_integrate", || {
        let h = deref_mut(h, "h")?;
        let ode = deref(ode, "ode")?;
        let layout = Layout::from_i32(layout)?;
        let opts = Options::from_c(opts.as_ref())?;
        rkc_integrate(h, ode, nsys, natol, t0, tend, Y, ldy, layout, P, ldp, rtol, atol, opts, state, status, stats)
    })
}
