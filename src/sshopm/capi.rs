#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! `numgpu_{s,d}sshopm`, `numgpu_{s,d}sshopm_unique`, `numgpu_{s,d}sym_apply`,
//! `numgpu_{s,d}sym_pack` and `numgpu_{s,d}sym_unpack`: convert the C arguments and call the
//! family's Rust API.

use super::{SshopmModeArg, SshopmShiftArg};
use super::{sshopm, sshopm_unique, sym_apply, sym_pack, sym_unpack, Outputs, Real};
use crate::core::error::numgpu_status;
use crate::core::Handle;
use crate::ffi::{boundary, deref_mut};

#[allow(clippy::too_many_arguments)]
unsafe fn run<T: Real>(
    name: &str,
    h: *mut Handle,
    mode: i32,
    shift_kind: i32,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    A: *const T,
    strideA: i64,
    X0: *const T,
    strideX0: i64,
    alpha: T,
    tol: T,
    maxit: i64,
    out: Outputs<T>,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        sshopm(h, mode, shift_kind, m, n, ntensors, nstarts, A, strideA, X0, strideX0, alpha, tol, maxit, out)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn unique<T: Real>(
    name: &str,
    h: *mut Handle,
    mode: i32,
    shift_kind: i32,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    A: *const T,
    strideA: i64,
    X0: *const T,
    strideX0: i64,
    alpha: T,
    tol: T,
    maxit: i64,
    merge_tol: T,
    kmax: i64,
    count: *mut i32,
    lambda: *mut T,
    X: *mut T,
    mult: *mut i32,
    pair_type: *mut i32,
) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        sshopm_unique(h, mode, shift_kind, m, n, ntensors, nstarts, A, strideA, X0, strideX0, alpha, tol, maxit, merge_tol, kmax, count, lambda, X, mult, pair_type)
    })
}

/// Tensor eigenpairs of a batch of real symmetric tensors by the shifted symmetric higher-order
/// power method (SS-HOPM), single precision: from every starting vector, on every tensor, the
/// iteration x̂ = ±(A·x^{m−1} + α·x), x = x̂/‖x̂‖, λ = A·x^m (+ convex, − concave) until
/// |λ_{k+1} − λ_k| <= tol. Convex runs converge to local maxima of A·x^m on the unit sphere,
/// concave runs to local minima; each result is an eigenpair A·x^{m−1} = λ·x, ‖x‖ = 1.
///
/// Tensors are stored compressed: the U = C(m+n−1, m) unique entries a(i1, …, im),
/// i1 <= … <= im, in lexicographic order of their indices (m = 4, n = 3: 1111, 1112, 1113,
/// 1122, …, 3333); these are the tensor's entries, not polynomial coefficients
/// (`numgpu_ssym_pack` builds them from a dense tensor).
///
/// - `h` [in]: handle.
/// - `m` [in]: order, >= 2 (up to 32; C(m+n−2, m−1)·n <= 2^22).
/// - `n` [in]: dimension, >= 1 (on CUDA <= 32).
/// - `ntensors` [in]: number of tensors, >= 0.
/// - `A` [in]: tensor t's U entries at `A + t·strideA`.
/// - `strideA` [in]: >= U when ntensors > 1.
/// - `nstarts` [in]: starting vectors per tensor, >= 0.
/// - `X0` [in]: starting vectors (not necessarily unit: the library normalises them), start s
///   of tensor t at `X0 + t·strideX0 + s·n` (n values); or NULL: drawn, each component uniform
///   on [−1, 1) from the handle's seed (`numgpu_set_seed`) and the counter
///   ((t·nstarts + s)·n + i), then normalised, the same on every backend.
/// - `strideX0` [in]: 0 (one set of nstarts starts for every tensor, the paper's setup) or
///   >= n·nstarts; ignored when X0 is NULL.
/// - `mode` [in]: `NUMGPU_SSHOPM_CONVEX` (local maxima) or `NUMGPU_SSHOPM_CONCAVE` (minima).
/// - `shift_kind` [in]: `NUMGPU_SSHOPM_FIXED` (α = alpha), `NUMGPU_SSHOPM_SAFE` (α = ±(m−1)·‖A‖_F
///   per tensor: always converges) or `NUMGPU_SSHOPM_ADAPTIVE` (per iterate: convex α = max(0,
///   τ/m − (m−1)·λ_min(A·x^{m−2})), concave α = min(0, −τ/m − (m−1)·λ_max(A·x^{m−2})), τ = 1e-6).
/// - `alpha` [in]: the fixed shift: finite, >= 0 convex, <= 0 concave (0: plain S-HOPM, which
///   may not converge: flag 1); ignored by SAFE and ADAPTIVE.
/// - `tol` [in]: >= 0, the stopping test on λ.
/// - `maxit` [in]: >= 1, iterations at most.
/// - `lambda` [out]: ntensors·nstarts values, (tensor t, start s) at g = t·nstarts + s: λ of the
///   last iterate.
/// - `X` [out]: n·ntensors·nstarts values, the last iterate x of g at `X + g·n` (unit).
/// - `iters` [out]: ntensors·nstarts, the iterations g took.
/// - `flags` [out]: ntensors·nstarts `numgpu_sshopm_flag` values: `NUMGPU_SSHOPM_CONVERGED`
///   (0), `NUMGPU_SSHOPM_MAXIT` (1, maxit reached), `NUMGPU_SSHOPM_UNDERFLOW` (2, ‖x̂‖ below the
///   smallest normal number, e.g. a zero tensor with α = 0; also a zero start, with
///   iters = 0), `NUMGPU_SSHOPM_NONFINITE` (3, NaN or Inf in the tensor or the start); the
///   iteration stops at once and the last values are stored. Trouble in one (tensor, start) never affects the others.
///
/// ntensors = 0 or nstarts = 0 is success and touches nothing. All arrays are host memory, or
/// all are device memory of the handle's device (then the call is enqueued on the handle's
/// stream and returns at once). Results are bitwise reproducible on the same device.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or array, m < 2, n < 1,
/// negative counts, strides too small, mode or shift_kind out of range, alpha of the wrong
/// sign or not finite, tol < 0 or not finite, maxit < 1, device memory on the CPU backend,
/// arrays in different spaces); nothing is written then. `NOT_SUPPORTED` ((m, n) beyond the
/// limits above, extents beyond the address space), `ALLOC_FAILED`, `COMPILE_FAILED`,
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sshopm(
    h: *mut Handle,
    mode: SshopmModeArg,
    shift_kind: SshopmShiftArg,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    A: *const f32,
    strideA: i64,
    X0: *const f32,
    strideX0: i64,
    alpha: f32,
    tol: f32,
    maxit: i64,
    lambda: *mut f32,
    X: *mut f32,
    iters: *mut i32,
    flags: *mut i32,
) -> numgpu_status {
    let out = Outputs { lambda, x: X, iters, flags };
    run::<f32>("numgpu_sshopm", h, mode, shift_kind, m, n, ntensors, nstarts, A, strideA, X0, strideX0, alpha, tol, maxit, out)
}

/// Tensor eigenpairs by SS-HOPM in double precision: `numgpu_sshopm` with `double` elements;
/// the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dsshopm(
    h: *mut Handle,
    mode: SshopmModeArg,
    shift_kind: SshopmShiftArg,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    A: *const f64,
    strideA: i64,
    X0: *const f64,
    strideX0: i64,
    alpha: f64,
    tol: f64,
    maxit: i64,
    lambda: *mut f64,
    X: *mut f64,
    iters: *mut i32,
    flags: *mut i32,
) -> numgpu_status {
    let out = Outputs { lambda, x: X, iters, flags };
    run::<f64>("numgpu_dsshopm", h, mode, shift_kind, m, n, ntensors, nstarts, A, strideA, X0, strideX0, alpha, tol, maxit, out)
}

/// The distinct eigenpairs of each tensor of a batch, single precision: runs SS-HOPM as
/// `numgpu_sshopm` (arguments 1 to 14 the same) and, per tensor, merges the starts that
/// converged (flag 0) into distinct eigenpairs: two results are one pair when
/// |λ₁ − λ₂| <= merge_tol·max(1, |λ₁|) and max_i |x₁(i) − x₂(i)| <= merge_tol, or, for even m,
/// max_i |x₁(i) + x₂(i)| <= merge_tol (x and −x are the same eigenvector then). Each pair is
/// represented by the first start that reached it. Of the pairs found, the kmax reached by the
/// most starts are kept (ties: the first found), stored by decreasing λ.
///
/// - `merge_tol` [in]: finite, > 0 (about the accuracy tol gives x: e.g. 1e-2 with tol = 1e-6
///   in single precision).
/// - `kmax` [in]: >= 1, pairs stored per tensor.
/// - `count` [out]: ntensors values: pairs stored for tensor t (0 … kmax).
/// - `lambda` [out]: ntensors·kmax values, pair k of tensor t at t·kmax + k (NaN for k >=
///   count[t]).
/// - `X` [out]: n·ntensors·kmax values, its eigenvector at `X + (t·kmax + k)·n` (NaN for k >=
///   count[t]).
/// - `mult` [out]: ntensors·kmax, the starts that converged to the pair (0 for k >= count[t]).
/// - `pair_type` [out]: ntensors·kmax `numgpu_sshopm_pair_type` values:
///   `NUMGPU_SSHOPM_LOCAL_MAX` (1, a local maximum of A·x^m on the sphere),
///   `NUMGPU_SSHOPM_LOCAL_MIN` (−1, a local minimum), `NUMGPU_SSHOPM_OTHER` (0, neither: a
///   saddle point, or degenerate: the projected Hessian Uᵀ((m−1)·A·x^{m−2} − λ·I)U, U a basis
///   of x^⊥, has an eigenvalue within √ε·(1 + its norm) of zero); 0 for k >= count[t].
///
/// ntensors = 0 or nstarts = 0 is success and touches nothing. Spaces, reproducibility and
/// errors as `numgpu_sshopm`, plus `INVALID_VALUE` for merge_tol and kmax.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sshopm_unique(
    h: *mut Handle,
    mode: SshopmModeArg,
    shift_kind: SshopmShiftArg,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    A: *const f32,
    strideA: i64,
    X0: *const f32,
    strideX0: i64,
    alpha: f32,
    tol: f32,
    maxit: i64,
    merge_tol: f32,
    kmax: i64,
    count: *mut i32,
    lambda: *mut f32,
    X: *mut f32,
    mult: *mut i32,
    pair_type: *mut i32,
) -> numgpu_status {
    unique::<f32>("numgpu_sshopm_unique", h, mode, shift_kind, m, n, ntensors, nstarts, A, strideA, X0, strideX0, alpha, tol, maxit, merge_tol, kmax, count, lambda, X, mult, pair_type)
}

/// The distinct eigenpairs of each tensor, double precision: `numgpu_sshopm_unique` with
/// `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dsshopm_unique(
    h: *mut Handle,
    mode: SshopmModeArg,
    shift_kind: SshopmShiftArg,
    m: i64,
    n: i64,
    ntensors: i64,
    nstarts: i64,
    A: *const f64,
    strideA: i64,
    X0: *const f64,
    strideX0: i64,
    alpha: f64,
    tol: f64,
    maxit: i64,
    merge_tol: f64,
    kmax: i64,
    count: *mut i32,
    lambda: *mut f64,
    X: *mut f64,
    mult: *mut i32,
    pair_type: *mut i32,
) -> numgpu_status {
    unique::<f64>("numgpu_dsshopm_unique", h, mode, shift_kind, m, n, ntensors, nstarts, A, strideA, X0, strideX0, alpha, tol, maxit, merge_tol, kmax, count, lambda, X, mult, pair_type)
}

/// Applies each tensor of a batch of compressed symmetric tensors to a vector, single
/// precision: y_t = A_t·x_t^m (p = 0, one value), A_t·x_t^{m−1} (p = 1, n values) or
/// A_t·x_t^{m−2} (p = 2, the symmetric n × n matrix, column-major), at any x (not normalised).
///
/// - `h` [in]: handle. `m` [in]: >= 2. `n` [in]: >= 1 (limits as `numgpu_sshopm`).
/// - `p` [in]: 0, 1 or 2.
/// - `ntensors` [in]: >= 0.
/// - `A` [in]: tensor t's U = C(m+n−1, m) unique entries at `A + t·strideA` (as
///   `numgpu_sshopm`). `strideA` [in]: >= U when ntensors > 1.
/// - `x` [in]: x_t (n values) at `x + t·strideX`. `strideX` [in]: 0 (one x for all) or >= n.
/// - `y` [out]: output t (n^p values) at `y + t·strideY`. `strideY` [in]: >= n^p when
///   ntensors > 1.
///
/// ntensors = 0 is success and touches nothing. Spaces, reproducibility and errors as
/// `numgpu_sshopm` (`INVALID_VALUE` for p out of range too).
#[no_mangle]
pub unsafe extern "C" fn numgpu_ssym_apply(h: *mut Handle, m: i64, n: i64, p: i64, ntensors: i64, A: *const f32, strideA: i64, x: *const f32, strideX: i64, y: *mut f32, strideY: i64) -> numgpu_status {
    boundary("numgpu_ssym_apply", || sym_apply(deref_mut(h, "h")?, m, n, p, ntensors, A, strideA, x, strideX, y, strideY))
}

/// `numgpu_ssym_apply` in double precision; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dsym_apply(h: *mut Handle, m: i64, n: i64, p: i64, ntensors: i64, A: *const f64, strideA: i64, x: *const f64, strideX: i64, y: *mut f64, strideY: i64) -> numgpu_status {
    boundary("numgpu_dsym_apply", || sym_apply(deref_mut(h, "h")?, m, n, p, ntensors, A, strideA, x, strideX, y, strideY))
}

/// Packs a dense order-m tensor of dimension n into the U = C(m+n−1, m) unique entries that
/// `numgpu_sshopm` takes, single precision: each packed entry is the mean of the m!/(k1!···kn!)
/// dense entries it stands for (the entry of the tensor's symmetric part; for a symmetric
/// tensor, its own value). Host memory only; no handle.
///
/// - `m` [in]: >= 2. `n` [in]: >= 1 (limits as `numgpu_sshopm`).
/// - `dense` [in]: n^m values, entry (i1, …, im) (0-based) at i1 + n·i2 + … + n^{m−1}·im (the
///   first index fastest: a Fortran array `A(n, n, …, n)`).
/// - `packed` [out]: U values, in `numgpu_sshopm`'s order.
///
/// Errors: `INVALID_VALUE` (m < 2, n < 1, NULL arrays, device memory), `NOT_SUPPORTED` ((m, n)
/// beyond the limits, n^m beyond the address space).
#[no_mangle]
pub unsafe extern "C" fn numgpu_ssym_pack(m: i64, n: i64, dense: *const f32, packed: *mut f32) -> numgpu_status {
    boundary("numgpu_ssym_pack", || sym_pack(m, n, dense, packed))
}

/// `numgpu_ssym_pack` in double precision; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dsym_pack(m: i64, n: i64, dense: *const f64, packed: *mut f64) -> numgpu_status {
    boundary("numgpu_dsym_pack", || sym_pack(m, n, dense, packed))
}

/// Unpacks U = C(m+n−1, m) unique entries (`numgpu_sshopm`'s order) into the dense symmetric
/// tensor, single precision: every one of the n^m entries written. Host memory only; no
/// handle.
///
/// - `m` [in]: >= 2. `n` [in]: >= 1 (limits as `numgpu_sshopm`).
/// - `packed` [in]: U values.
/// - `dense` [out]: n^m values, laid out as in `numgpu_ssym_pack`.
///
/// Errors: as `numgpu_ssym_pack`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_ssym_unpack(m: i64, n: i64, packed: *const f32, dense: *mut f32) -> numgpu_status {
    boundary("numgpu_ssym_unpack", || sym_unpack(m, n, packed, dense))
}

/// `numgpu_ssym_unpack` in double precision; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dsym_unpack(m: i64, n: i64, packed: *const f64, dense: *mut f64) -> numgpu_status {
    boundary("numgpu_dsym_unpack", || sym_unpack(m, n, packed, dense))
}
