#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! `numgpu_{s,d}khatri_rao`, `numgpu_{s,d}mttkrp` and the decompositions (`cp_als`, `tt_svd`,
//! `tr_svd`, `ht` and their reconstructions): convert the C arguments and call the family's Rust
//! API.

use super::cp::{cp_als, cp_reconstruct, numgpu_cp_options};
use super::engine::Real;
use super::ht::{ht, ht_reconstruct};
use super::train::{tr_reconstruct, tr_svd, tt_reconstruct, tt_svd};
use super::{khatri_rao, mttkrp};
use crate::core::check::arg_i32;
use crate::core::error::numgpu_status;
use crate::core::Handle;
use crate::ffi::{boundary, deref_mut};
use crate::lapack::Blas;

#[allow(clippy::too_many_arguments)]
unsafe fn khatri_rao_form<T: Blas>(name: &str, h: *mut Handle, m: i64, n: i64, r: i64, A: *const T, lda: i64, B: *const T, ldb: i64, C: *mut T, ldc: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        khatri_rao(h, m, n, r, A, lda, B, ldb, C, ldc)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn mttkrp_form<T: Blas>(name: &str, h: *mut Handle, ndim: i64, dims: *const i64, X: *const T, mode: i64, rank: i64, U: *const *const T, ldu: *const i64, M: *mut T, ldm: i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        mttkrp(h, arg_i32(ndim, "ndim")?, dims, X, arg_i32(mode, "mode")?, rank, U, ldu, M, ldm)
    })
}

/// Computes the Khatri–Rao (column-wise Kronecker) product of two matrices of single-precision
/// numbers: C = A ⊙ B, C(j + i·n, k) = A(i, k)·B(j, k) for i < m, j < n, k < r (0-based,
/// column-major; Kolda and Bader's definition: B's row index is the fastest).
///
/// - `h` [in]: handle.
/// - `m` [in]: rows of A, >= 0.
/// - `n` [in]: rows of B, >= 0.
/// - `r` [in]: columns of A, B and C, >= 0.
/// - `A` [in]: m × r, leading dimension `lda` >= max(1, m).
/// - `B` [in]: n × r, leading dimension `ldb` >= max(1, n).
/// - `C` [out]: (m·n) × r, leading dimension `ldc` >= max(1, m·n); rows m·n … ldc − 1 are not
///   written. Must not overlap A or B.
///
/// m, n or r = 0 is success and touches nothing. All arrays are host memory, or all are device
/// memory of the handle's device (then the call is enqueued on the handle's stream and returns
/// at once). Each entry is one rounded product, so results are the same bits on every backend.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle or array, negative size,
/// leading dimension too small, device memory on the CPU backend, arrays in different spaces,
/// C the same array as A or B); nothing is written then. `NOT_SUPPORTED` (m·n or an extent
/// beyond the address space), `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_skhatri_rao(h: *mut Handle, m: i64, n: i64, r: i64, A: *const f32, lda: i64, B: *const f32, ldb: i64, C: *mut f32, ldc: i64) -> numgpu_status {
    khatri_rao_form::<f32>("numgpu_skhatri_rao", h, m, n, r, A, lda, B, ldb, C, ldc)
}

/// Computes the Khatri–Rao product of two matrices of double-precision numbers:
/// `numgpu_skhatri_rao` with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dkhatri_rao(h: *mut Handle, m: i64, n: i64, r: i64, A: *const f64, lda: i64, B: *const f64, ldb: i64, C: *mut f64, ldc: i64) -> numgpu_status {
    khatri_rao_form::<f64>("numgpu_dkhatri_rao", h, m, n, r, A, lda, B, ldb, C, ldc)
}

/// Computes the matricised tensor times Khatri–Rao product (MTTKRP) of a dense tensor of
/// single-precision numbers, the kernel of CP decompositions (Kolda and Bader):
///
/// M = X_(mode) · (U[d−1] ⊙ … ⊙ U[mode+1] ⊙ U[mode−1] ⊙ … ⊙ U[0]),  d = ndim,
///
/// that is M(i, r) = Σ X(i_0, …, i_{d−1})·Π_{k≠mode} U[k](i_k, r) over the indices with
/// i_mode = i. X is dims[0] × … × dims[d−1], column-major (entry (i_0, …, i_{d−1}) at
/// i_0 + dims[0]·(i_1 + dims[1]·(…))); X_(mode) is its mode unfolding, whose columns run
/// with the lowest remaining mode fastest, hence the reverse order of the Khatri–Rao product
/// (`numgpu_skhatri_rao`). X is never unfolded or permuted: for the first mode (or when every
/// dimension before `mode` is 1) the product is one GEMM on X as it is stored, for the last one
/// GEMM with X transposed (leading dimension dims[0]·…·dims[d−2]), for a middle mode a strided
/// batch of GEMMs over the slices of X and a reduction. On CUDA a rank of at most 64 runs as
/// one skinny product that reads X once and forms the Khatri–Rao rows of the other factors
/// as it goes (orders up to 17), partial sums added in a fixed order; otherwise, and on the
/// CPU backend, the Khatri–Rao product (∏_{k≠mode} dims[k] × rank elements) is formed once
/// in the backend's memory (the handle's device workspace on CUDA).
///
/// - `h` [in]: handle.
/// - `ndim` [in]: the order d of X, >= 3.
/// - `dims` [in]: d dimensions, each >= 0. Host memory.
/// - `X` [in]: the tensor, dims[0]·…·dims[d−1] elements; may be NULL when that is 0.
/// - `mode` [in]: the mode, 0-based: 0 <= mode < d (Kolda and Bader's mode mode + 1).
/// - `rank` [in]: columns of the factors and of M, >= 0.
/// - `U` [in]: d pointers (host memory), U[k] the factor of mode k: dims[k] × rank with leading
///   dimension ldu[k]. U[mode] is not referenced (may be NULL), nor is a U[k] with
///   dims[k] = 0.
/// - `ldu` [in]: d leading dimensions (host memory): ldu[k] >= max(1, dims[k]) for k ≠ mode;
///   ldu[mode] is not referenced.
/// - `M` [out]: dims[mode] × rank, leading dimension `ldm` >= max(1, dims[mode]); rows
///   dims[mode] … ldm − 1 are not written. Must not overlap X or a factor.
///
/// dims[mode] = 0 or rank = 0 is success and touches nothing; a zero among the other
/// dimensions gives M = 0 (an empty sum). NaN and Inf propagate as in GEMM. X, the factors and
/// M are all host memory, or all device memory of the handle's device (then the call is
/// enqueued on the handle's stream and returns at once; dims, U and ldu are read before it
/// returns). The sums run in a fixed order that depends on the sizes and the device only, so
/// results are bitwise reproducible on the same device; accuracy as a GEMM with inner
/// dimension ∏_{k≠mode} dims[k].
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, ndim < 3, NULL or device
/// dims, U or ldu, a negative dimension, mode out of range, negative rank, NULL X, U[k] or M
/// where referenced, ldu[k] or ldm too small, device memory on the CPU backend, arrays in
/// different spaces, M the same array as X or a factor); nothing is written then.
/// `NOT_SUPPORTED` (sizes or extents beyond the address space; on the CPU backend a size
/// beyond BLAS's 32-bit integers), `ALLOC_FAILED` (the Khatri–Rao product or the partial
/// products do not fit the device), `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_smttkrp(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f32, mode: i64, rank: i64, U: *const *const f32, ldu: *const i64, M: *mut f32, ldm: i64) -> numgpu_status {
    mttkrp_form::<f32>("numgpu_smttkrp", h, ndim, dims, X, mode, rank, U, ldu, M, ldm)
}

/// Computes the MTTKRP of a dense tensor of double-precision numbers: `numgpu_smttkrp` with
/// `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dmttkrp(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f64, mode: i64, rank: i64, U: *const *const f64, ldu: *const i64, M: *mut f64, ldm: i64) -> numgpu_status {
    mttkrp_form::<f64>("numgpu_dmttkrp", h, ndim, dims, X, mode, rank, U, ldu, M, ldm)
}

#[allow(clippy::too_many_arguments)]
unsafe fn cp_als_form<T: Real>(name: &str, h: *mut Handle, ndim: i64, dims: *const i64, X: *const T, rank: i64, U: *const *mut T, ldu: *const i64, lambda: *mut T, opts: *const numgpu_cp_options, fit: *mut T, iters: *mut i32) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        cp_als(h, arg_i32(ndim, "ndim")?, dims, X, rank, U, ldu, lambda, opts, iters, fit)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn cp_reconstruct_form<T: Real>(name: &str, h: *mut Handle, ndim: i64, dims: *const i64, rank: i64, U: *const *const T, ldu: *const i64, lambda: *const T, X: *mut T) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        cp_reconstruct(h, arg_i32(ndim, "ndim")?, dims, rank, U, ldu, lambda, X)
    })
}

/// `tt_svd` or `tr_svd`.
type TrainFn<T> = unsafe fn(&mut Handle, i32, *const i64, *const T, T, *const i64, *mut i64, *mut T, i64, *mut i64) -> crate::core::Result<()>;

#[allow(clippy::too_many_arguments)]
unsafe fn train_form<T: Real>(name: &str, f: TrainFn<T>, h: *mut Handle, ndim: i64, dims: *const i64, X: *const T, eps: T, max_ranks: *const i64, ranks: *mut i64, cores: *mut T, capacity: i64, offsets: *mut i64) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        f(h, arg_i32(ndim, "ndim")?, dims, X, eps, max_ranks, ranks, cores, capacity, offsets)
    })
}

/// `tt_reconstruct` or `tr_reconstruct`.
type ChainFn<T> = unsafe fn(&mut Handle, i32, *const i64, *const i64, *const T, *mut T) -> crate::core::Result<()>;

#[allow(clippy::too_many_arguments)]
unsafe fn chain_form<T: Real>(name: &str, f: ChainFn<T>, h: *mut Handle, ndim: i64, dims: *const i64, ranks: *const i64, cores: *const T, X: *mut T) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        f(h, arg_i32(ndim, "ndim")?, dims, ranks, cores, X)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn ht_form<T: Real>(name: &str, h: *mut Handle, dims: *const i64, X: *const T, ranks: *const i64, U1: *mut T, U2: *mut T, U3: *mut T, B1: *mut T, B2: *mut T) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        ht(h, dims, X, ranks, U1, U2, U3, B1, B2)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn ht_reconstruct_form<T: Real>(name: &str, h: *mut Handle, dims: *const i64, ranks: *const i64, U1: *const T, U2: *const T, U3: *const T, B1: *const T, B2: *const T, X: *mut T) -> numgpu_status {
    boundary(name, || {
        let h = deref_mut(h, "h")?;
        ht_reconstruct(h, dims, ranks, U1, U2, U3, B1, B2, X)
    })
}

/// Computes a rank-`rank` CP (CANDECOMP/PARAFAC) decomposition of a dense tensor of
/// single-precision numbers by alternating least squares (Kolda and Bader's CP-ALS, the seed's
/// Algorithm 1):
///
/// X ≈ Σ_r lambda[r] · U[0](:, r) ∘ U[1](:, r) ∘ … ∘ U[d−1](:, r),  d = ndim.
///
/// X is dims[0] × … × dims[d−1], column-major (as `numgpu_smttkrp`). Each iteration updates
/// U[0], …, U[d−1] in turn: U[n] = M·V⁻¹ with M the MTTKRP of mode n (`numgpu_smttkrp`'s
/// computation: X is never unfolded or permuted) and V the entrywise product of the rank × rank
/// Gram matrices U[k]ᵀ·U[k], k ≠ n (solved by a Cholesky factorisation), then its columns are
/// scaled to unit 2-norm, the norms going to lambda. After each iteration the fit
/// 1 − ‖X − X̂‖_F / ‖X‖_F is computed from the Gram matrices, lambda and the last MTTKRP (no
/// reconstruction of X̂: ‖X − X̂‖² = ‖X‖² + ‖X̂‖² − 2⟨X, X̂⟩, which resolves ‖X − X̂‖ to about
/// √ε·‖X‖ only, as in the Tensor Toolbox); the iteration stops when the fit changes by less
/// than opts->tol, or after opts->max_iters iterations.
///
/// - `h` [in]: handle.
/// - `ndim` [in]: the order d of X, >= 3.
/// - `dims` [in]: d dimensions, each >= 1. Host memory.
/// - `X` [in]: the tensor, dims[0]·…·dims[d−1] elements.
/// - `rank` [in]: the number of components, >= 1.
/// - `U` [in,out]: d pointers (host memory), U[k] the factor of mode k: dims[k] × rank with
///   leading dimension ldu[k]; the initial factors on entry when opts->init is
///   NUMGPU_CP_INIT_GIVEN (U[0]'s are not used: mode 0 is updated first), not read otherwise;
///   the result on exit (rows dims[k] … ldu[k] − 1 not written). Distinct arrays, none
///   overlapping X.
/// - `ldu` [in]: d leading dimensions (host memory), ldu[k] >= dims[k].
/// - `lambda` [out]: rank weights.
/// - `opts` [in]: `numgpu_cp_options` (host memory), or NULL for every default: tolerance
///   (1e-6), most iterations (100), random initial factors (uniform in [0, 1), from opts->seed;
///   the same factors on every backend), weights in lambda. Pass NUMGPU_CP_INIT_GIVEN to start
///   from U, absorb = 1 to get the weights multiplied into U[0] and lambda = 1.
/// - `fit` [out]: the last fit, 1 − ‖X − X̂‖/‖X‖ (1: exact). Host memory.
/// - `iters` [out]: the iterations done. Host memory.
///
/// Numerical outcomes (status SUCCESS): a NaN or an Inf in X or in the given factors, or a
/// Gram product V that is not numerically positive definite (a rank the data cannot support, a
/// zero column), gives *fit = NaN, lambda and every factor NaN, and *iters the iteration at
/// which it happened (0: X itself); X = 0 gives lambda = 0, zero factors, *fit = 1, *iters = 0.
/// The iteration is deterministic: the same inputs give the same bits on the same backend and
/// device; the backends agree to rounding (their sums run in different orders). On the CUDA
/// backend the call waits for the device, device arrays included (the stopping test reads the
/// fit each iteration); X, the factors and lambda are all host or all device memory.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, ndim < 3, NULL or device
/// dims, U, ldu, iters or fit, a dimension < 1, NULL X or lambda, rank < 1, a NULL factor,
/// ldu[k] < dims[k], a bad opts field, device memory on the CPU backend, arrays in different
/// spaces, a factor or lambda aliasing X or each other); nothing is written then.
/// `NOT_SUPPORTED` (sizes beyond the address space or the CPU backend's 32-bit BLAS
/// integers), `ALLOC_FAILED` (the working memory: the largest dims[k] × rank, d Gram matrices,
/// the MTTKRP's Khatri–Rao product of ∏ dims / dims[k] × rank, on CUDA only for ranks above
/// 64), `COMPILE_FAILED`,
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_scp_als(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f32, rank: i64, U: *const *mut f32, ldu: *const i64, lambda: *mut f32, opts: *const numgpu_cp_options, fit: *mut f32, iters: *mut i32) -> numgpu_status {
    cp_als_form::<f32>("numgpu_scp_als", h, ndim, dims, X, rank, U, ldu, lambda, opts, fit, iters)
}

/// Computes a CP decomposition of a dense tensor of double-precision numbers by alternating
/// least squares: `numgpu_scp_als` with `double` elements; the same arguments, semantics and
/// errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dcp_als(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f64, rank: i64, U: *const *mut f64, ldu: *const i64, lambda: *mut f64, opts: *const numgpu_cp_options, fit: *mut f64, iters: *mut i32) -> numgpu_status {
    cp_als_form::<f64>("numgpu_dcp_als", h, ndim, dims, X, rank, U, ldu, lambda, opts, fit, iters)
}

/// Forms the dense tensor of a CP decomposition of single-precision numbers (the inverse map of
/// `numgpu_scp_als`): X = Σ_r lambda[r] · U[0](:, r) ∘ … ∘ U[d−1](:, r), computed as
/// X_(0) = U[0]·diag(lambda)·(U[d−1] ⊙ … ⊙ U[1])ᵀ: the Khatri–Rao product of the other factors
/// (∏ dims / dims[0] × rank elements of working memory) and one GEMM.
///
/// - `h` [in]: handle.
/// - `ndim` [in]: the order d, >= 3.
/// - `dims` [in]: d dimensions, each >= 0. Host memory.
/// - `rank` [in]: the number of components, >= 0 (0: X = 0).
/// - `U` [in]: d pointers (host memory) to the factors, dims[k] × rank with leading dimension
///   ldu[k]; not referenced when rank = 0 (U and ldu may be NULL then).
/// - `ldu` [in]: d leading dimensions (host memory), ldu[k] >= max(1, dims[k]).
/// - `lambda` [in]: rank weights, or NULL for weights 1.
/// - `X` [out]: dims[0]·…·dims[d−1] elements. Must not overlap the inputs.
///
/// A zero dimension is success and touches nothing. Arrays all host or all device memory
/// (then the call is enqueued on the handle's stream and returns at once). Deterministic.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, ndim < 3, NULL or device
/// dims, U or ldu (rank > 0), a negative dimension or rank, a NULL factor, ldu[k] too small, NULL
/// X, device memory on the CPU backend, arrays in different spaces, X aliasing an input);
/// nothing is written then. `NOT_SUPPORTED`, `ALLOC_FAILED`, `COMPILE_FAILED`,
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_scp_reconstruct(h: *mut Handle, ndim: i64, dims: *const i64, rank: i64, U: *const *const f32, ldu: *const i64, lambda: *const f32, X: *mut f32) -> numgpu_status {
    cp_reconstruct_form::<f32>("numgpu_scp_reconstruct", h, ndim, dims, rank, U, ldu, lambda, X)
}

/// Forms the dense tensor of a CP decomposition of double-precision numbers:
/// `numgpu_scp_reconstruct` with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dcp_reconstruct(h: *mut Handle, ndim: i64, dims: *const i64, rank: i64, U: *const *const f64, ldu: *const i64, lambda: *const f64, X: *mut f64) -> numgpu_status {
    cp_reconstruct_form::<f64>("numgpu_dcp_reconstruct", h, ndim, dims, rank, U, ldu, lambda, X)
}

/// Computes the tensor-train (TT) decomposition of a dense tensor of single-precision numbers
/// by TT-SVD (Oseledets 2011; the seed's Algorithm 3, any order):
///
/// X(i_0, …, i_{d−1}) ≈ G_0(:, i_0, :)·G_1(:, i_1, :)·…·G_{d−1}(:, i_{d−1}, :),  ranks r_0 = r_d = 1,
///
/// core G_k r_k × dims[k] × r_{k+1}, column-major (entry (a, i, b) at a + r_k·(i + dims[k]·b)).
/// Step k splits the remainder, an (r_k·dims[k]) × (the rest) matrix (X itself at step 0, read
/// in place), by a truncated SVD; r_{k+1} is the smallest rank whose discarded squared singular
/// values sum to at most δ² = eps²·‖X‖²/(d − 1), so that ‖X − X̂‖_F <= eps·‖X‖_F, and at most
/// max_ranks[k + 1].
///
/// SVD route: the Gram matrix of each step's unfolding (C·Cᵀ or Cᵀ·C, whichever is smaller,
/// formed by GEMM without copying X) and its eigendecomposition, as the seed does: numgpu's
/// one-sided Jacobi (`numgpu_sgesvdj_batched`'s kernel) on the CUDA backend, LAPACK `?syevd` on
/// the CPU backend, eigenvectors signed alike (largest entry positive) so the backends agree
/// to rounding. Accuracy cost: forming a Gram matrix squares the condition number, so singular
/// values below about √ε·σ_max (ε = 2^-23 here) are not resolved: eps below about √(n·ε)
/// (n the Gram matrix's order) may keep or drop them wrongly, and the error bound then holds
/// up to O(√ε)·‖X‖. Prefer double precision for tight eps.
///
/// Capacity protocol (the ranks depend on the data): the cores go to `cores`, one after the
/// other, core k at offsets[k] and offsets[d] their total. When the total exceeds `capacity`,
/// the call writes offsets[d] = the elements needed, nothing else, and returns
/// `NUMGPU_INSUFFICIENT_CAPACITY`; call again with at least that capacity (capacity = 0 with
/// cores = NULL asks for the size; each call computes the decomposition).
///
/// - `h` [in]: handle.
/// - `ndim` [in]: the order d, >= 3.
/// - `dims` [in]: d dimensions, each >= 1. Host memory.
/// - `X` [in]: the tensor, dims[0]·…·dims[d−1] elements.
/// - `eps` [in]: the relative accuracy, finite, >= 0 (0: every rank the Gram route resolves).
/// - `max_ranks` [in]: NULL (no limit), or d + 1 limits (host memory): r_k <= max_ranks[k] for
///   k = 1 … d − 1, each >= 1 (entries 0 and d not referenced). A limit takes precedence over
///   eps (the error bound then no longer holds).
/// - `ranks` [out]: d + 1 ranks r_0 … r_d. Host memory.
/// - `cores` [out]: `capacity` elements; the cores in the first offsets[d]. May be NULL when
///   capacity = 0.
/// - `capacity` [in]: elements of cores, >= 0.
/// - `offsets` [out]: d + 1 offsets (host memory): core k at cores + offsets[k], offsets[d]
///   the total.
///
/// A NaN or an Inf in X (or Gram matrices that overflow) gives every rank 1 and every core entry
/// NaN (status SUCCESS when dims[0] + … + dims[d−1] elements fit). X and cores are both host or
/// both device memory; the call waits for the device (each step's ranks decide the next's
/// sizes). Deterministic. Working memory: two remainders of ∏ dims elements, the cores at
/// their largest, and a Gram matrix and its eigenvectors (host memory on the CPU backend, the
/// handle's workspace on CUDA).
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, ndim < 3, NULL or device
/// dims, ranks or offsets, a dimension < 1, NULL X, eps negative or not finite, a referenced
/// max_ranks entry < 1, capacity < 0, NULL cores with capacity > 0, device memory on the CPU
/// backend, X and cores in different spaces or the same array); nothing is written then.
/// `NUMGPU_INSUFFICIENT_CAPACITY` (see above). `NOT_SUPPORTED` (sizes beyond the address space
/// or the CPU backend's 32-bit BLAS integers; on CUDA a Gram matrix of order > 4096, the Jacobi
/// solver's limit: lower max_ranks), `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_stt_svd(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f32, eps: f32, max_ranks: *const i64, ranks: *mut i64, cores: *mut f32, capacity: i64, offsets: *mut i64) -> numgpu_status {
    train_form::<f32>("numgpu_stt_svd", tt_svd::<f32>, h, ndim, dims, X, eps, max_ranks, ranks, cores, capacity, offsets)
}

/// Computes the TT decomposition of a dense tensor of double-precision numbers by TT-SVD:
/// `numgpu_stt_svd` with `double` elements (ε = 2^-52); the same arguments, semantics and
/// errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dtt_svd(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f64, eps: f64, max_ranks: *const i64, ranks: *mut i64, cores: *mut f64, capacity: i64, offsets: *mut i64) -> numgpu_status {
    train_form::<f64>("numgpu_dtt_svd", tt_svd::<f64>, h, ndim, dims, X, eps, max_ranks, ranks, cores, capacity, offsets)
}

/// Computes the tensor-ring (TR) decomposition of a dense tensor of single-precision numbers by
/// TR-SVD (Zhao et al. 2016; the seed's Algorithm 4, any order):
///
/// X(i_0, …, i_{d−1}) ≈ trace(G_0(:, i_0, :)·G_1(:, i_1, :)·…·G_{d−1}(:, i_{d−1}, :)),  r_d = r_0,
///
/// with `numgpu_stt_svd`'s core layout, SVD route, accuracy, capacity protocol, arguments and
/// errors. Step 0 truncates the SVD of X_(0) (dims[0] × the rest) to a rank m, split as
/// m = r_0·r_1 with |r_0 − r_1| least (r_0 <= r_1; a prime m gives r_0 = 1, a train); core 0 is
/// the left singular vectors reshaped dims[0] × r_0 × r_1 and permuted to r_0 × dims[0] × r_1,
/// and the remainder, permuted to r_1 × (the rest) × r_0 by the product that forms it, goes
/// through TT-SVD's steps with the ring closed by r_d = r_0. Each of the d − 1 truncations uses
/// δ = eps·‖X‖/√(d − 1), so ‖X − X̂‖_F <= eps·‖X‖_F.
///
/// max_ranks: NULL, or d + 1 limits with entries 0 … d − 1 referenced (>= 1; r_0·r_1 <=
/// max_ranks[0]·max_ranks[1] and the split within both); ranks[d] = ranks[0] on return.
#[no_mangle]
pub unsafe extern "C" fn numgpu_str_svd(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f32, eps: f32, max_ranks: *const i64, ranks: *mut i64, cores: *mut f32, capacity: i64, offsets: *mut i64) -> numgpu_status {
    train_form::<f32>("numgpu_str_svd", tr_svd::<f32>, h, ndim, dims, X, eps, max_ranks, ranks, cores, capacity, offsets)
}

/// Computes the TR decomposition of a dense tensor of double-precision numbers by TR-SVD:
/// `numgpu_str_svd` with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dtr_svd(h: *mut Handle, ndim: i64, dims: *const i64, X: *const f64, eps: f64, max_ranks: *const i64, ranks: *mut i64, cores: *mut f64, capacity: i64, offsets: *mut i64) -> numgpu_status {
    train_form::<f64>("numgpu_dtr_svd", tr_svd::<f64>, h, ndim, dims, X, eps, max_ranks, ranks, cores, capacity, offsets)
}

/// Forms the dense tensor of a tensor train of single-precision numbers (the inverse map of
/// `numgpu_stt_svd`): X(i_0, …, i_{d−1}) = G_0(:, i_0, :)·…·G_{d−1}(:, i_{d−1}, :), as a chain of
/// GEMMs: the partial product of cores 0 … k, read as (dims[0]·…·dims[k]) × r_{k+1}, times core
/// k + 1 read as r_{k+1} × (dims[k+1]·r_{k+2}); the last product writes X.
///
/// - `h` [in]: handle.
/// - `ndim` [in]: the order d, >= 3.
/// - `dims` [in]: d dimensions, each >= 0. Host memory.
/// - `ranks` [in]: d + 1 ranks (host memory), each >= 1, ranks[0] = ranks[d] = 1.
/// - `cores` [in]: the cores one after the other (`numgpu_stt_svd`'s layout), Σ_k
///   ranks[k]·dims[k]·ranks[k+1] elements.
/// - `X` [out]: dims[0]·…·dims[d−1] elements. Must not overlap cores.
///
/// A zero dimension is success and touches nothing. Arrays both host or both device memory
/// (then the call is enqueued on the handle's stream and returns at once). Working memory: two
/// partial products, the largest (dims[0]·…·dims[k])·ranks[k+1] for k < d − 1. Deterministic.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, ndim < 3, NULL or device
/// dims or ranks, a negative dimension, a rank < 1 or ranks[0], ranks[d] not 1, NULL cores or X,
/// device memory on the CPU backend, arrays in different spaces, X the same array as cores);
/// nothing is written then. `NOT_SUPPORTED`, `ALLOC_FAILED`, `COMPILE_FAILED`,
/// `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_stt_reconstruct(h: *mut Handle, ndim: i64, dims: *const i64, ranks: *const i64, cores: *const f32, X: *mut f32) -> numgpu_status {
    chain_form::<f32>("numgpu_stt_reconstruct", tt_reconstruct::<f32>, h, ndim, dims, ranks, cores, X)
}

/// Forms the dense tensor of a tensor train of double-precision numbers:
/// `numgpu_stt_reconstruct` with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dtt_reconstruct(h: *mut Handle, ndim: i64, dims: *const i64, ranks: *const i64, cores: *const f64, X: *mut f64) -> numgpu_status {
    chain_form::<f64>("numgpu_dtt_reconstruct", tt_reconstruct::<f64>, h, ndim, dims, ranks, cores, X)
}

/// Forms the dense tensor of a tensor ring of single-precision numbers (the inverse map of
/// `numgpu_str_svd`): X(i_0, …, i_{d−1}) = trace(G_0(:, i_0, :)·…·G_{d−1}(:, i_{d−1}, :)), as
/// ranks[0] chains of GEMMs (`numgpu_stt_reconstruct`'s), the a-th from slice a of core 0 (core 0
/// permuted to dims[0] × r_1 × r_0 once) to slice a of core d − 1, each adding into X in the
/// order of a. `numgpu_stt_reconstruct`'s arguments, semantics and errors, except that ranks[0]
/// may be any >= 1 and ranks[d] must equal ranks[0].
#[no_mangle]
pub unsafe extern "C" fn numgpu_str_reconstruct(h: *mut Handle, ndim: i64, dims: *const i64, ranks: *const i64, cores: *const f32, X: *mut f32) -> numgpu_status {
    chain_form::<f32>("numgpu_str_reconstruct", tr_reconstruct::<f32>, h, ndim, dims, ranks, cores, X)
}

/// Forms the dense tensor of a tensor ring of double-precision numbers:
/// `numgpu_str_reconstruct` with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dtr_reconstruct(h: *mut Handle, ndim: i64, dims: *const i64, ranks: *const i64, cores: *const f64, X: *mut f64) -> numgpu_status {
    chain_form::<f64>("numgpu_dtr_reconstruct", tr_reconstruct::<f64>, h, ndim, dims, ranks, cores, X)
}

/// Computes the hierarchical Tucker (HT) decomposition of a third-order tensor of
/// single-precision numbers (the seed's Algorithm 2; the tree {1,2,3} → {1,2}, {3}, and {1,2} →
/// {1}, {2}):
///
/// U1, U2, U3: the leading r_1, r_2, r_3 left singular vectors of the unfoldings X_(1), X_(2),
/// X_(3); U4 (internal): the leading r_4 left singular vectors of X_(12) = X_(3)ᵀ;
/// B2 = U4 (as n_1 × n_2 × r_4) ×_1 U1ᵀ ×_2 U2ᵀ (r_1 × r_2 × r_4); B1 = U4ᵀ·X_(12)·U3 (r_4 × r_3);
/// so that X̂_(12) = (U2 ⊗ U1)·B2_(12)·B1·U3ᵀ (`numgpu_sht_reconstruct`).
///
/// SVD route: the three Gram matrices X_(k)·X_(k)ᵀ (the seed's H_t, formed by GEMM without
/// unfolding X: mode 2 as a sum over the frontal slices) and their eigenvectors, one batch of
/// three when n_1 = n_2 = n_3 (numgpu's one-sided Jacobi on CUDA, LAPACK `?syevd` on the CPU,
/// vectors signed alike); U4 = X_(12)·V·D⁻¹ with V the leading r_4 eigenvectors of X_(3)'s Gram
/// matrix and D the norms of the columns of X_(12)·V (the (n_1·n_2)² Gram matrix of X_(12) is
/// never formed; a zero singular value gives a zero column). Accuracy cost: singular values
/// below about √ε·σ_max (ε = 2^-23 here) are not resolved, and their subspaces carry
/// O(√ε)·‖X‖ errors; with ranks at most the numerical ranks, ‖X − X̂‖_F is at most the root
/// of the sum of the discarded squared singular values of the three unfoldings.
///
/// - `h` [in]: handle.
/// - `dims` [in]: n_1, n_2, n_3, each >= 1. Host memory.
/// - `X` [in]: the n_1 × n_2 × n_3 tensor, column-major.
/// - `ranks` [in]: r_1, r_2, r_3, r_4 (host memory): 1 <= r_k <= n_k (k = 1, 2, 3),
///   1 <= r_4 <= min(n_1·n_2, n_3).
/// - `U1` [out]: n_1 × r_1. `U2` [out]: n_2 × r_2. `U3` [out]: n_3 × r_3. Orthonormal columns.
/// - `B1` [out]: r_4 × r_3. `B2` [out]: r_1 × r_2 × r_4. All compact, column-major, distinct,
///   none overlapping X.
///
/// A NaN or an Inf in X gives every output NaN (status SUCCESS). Arrays all host or all device
/// memory (then the call is enqueued on the handle's stream and returns at once).
/// Deterministic.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, NULL or device dims or
/// ranks, a dimension < 1, a rank out of its range, NULL X or output, device memory on the CPU
/// backend, arrays in different spaces, outputs aliasing X or each other); nothing is written
/// then. `NOT_SUPPORTED` (sizes beyond the address space; on CUDA a dimension > 4096, the
/// Jacobi solver's limit), `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sht(h: *mut Handle, dims: *const i64, X: *const f32, ranks: *const i64, U1: *mut f32, U2: *mut f32, U3: *mut f32, B1: *mut f32, B2: *mut f32) -> numgpu_status {
    ht_form::<f32>("numgpu_sht", h, dims, X, ranks, U1, U2, U3, B1, B2)
}

/// Computes the HT decomposition of a third-order tensor of double-precision numbers:
/// `numgpu_sht` with `double` elements (ε = 2^-52); the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dht(h: *mut Handle, dims: *const i64, X: *const f64, ranks: *const i64, U1: *mut f64, U2: *mut f64, U3: *mut f64, B1: *mut f64, B2: *mut f64) -> numgpu_status {
    ht_form::<f64>("numgpu_dht", h, dims, X, ranks, U1, U2, U3, B1, B2)
}

/// Forms the dense tensor of an HT decomposition of single-precision numbers (the inverse map
/// of `numgpu_sht`): X_(12) = (U2 ⊗ U1)·B2_(12)·B1·U3ᵀ, as Y = B1·U3ᵀ, Z = B2_(12)·Y,
/// W = U1·Z (n_1 × r_2 × n_3) and each frontal slice X(:, :, k) = W(:, :, k)·U2ᵀ (a batch of n_3
/// GEMMs): four products, no permuted copy.
///
/// - `h` [in]: handle.
/// - `dims` [in]: n_1, n_2, n_3, each >= 0. Host memory.
/// - `ranks` [in]: r_1 … r_4, each >= 1. Host memory.
/// - `U1`, `U2`, `U3`, `B1`, `B2` [in]: as `numgpu_sht` writes them.
/// - `X` [out]: n_1 × n_2 × n_3. Must not overlap the inputs.
///
/// A zero dimension is success and touches nothing. Arrays all host or all device memory
/// (then the call is enqueued on the handle's stream and returns at once). Working memory:
/// r_4·n_3 + r_1·r_2·n_3 + n_1·r_2·n_3 elements. Deterministic.
///
/// Errors: `INVALID_VALUE` naming the first bad argument (NULL handle, NULL or device dims or
/// ranks, a negative dimension, a rank < 1, a NULL array, device memory on the CPU backend,
/// arrays in different spaces, X aliasing an input); nothing is written then.
/// `NOT_SUPPORTED`, `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_sht_reconstruct(h: *mut Handle, dims: *const i64, ranks: *const i64, U1: *const f32, U2: *const f32, U3: *const f32, B1: *const f32, B2: *const f32, X: *mut f32) -> numgpu_status {
    ht_reconstruct_form::<f32>("numgpu_sht_reconstruct", h, dims, ranks, U1, U2, U3, B1, B2, X)
}

/// Forms the dense tensor of an HT decomposition of double-precision numbers:
/// `numgpu_sht_reconstruct` with `double` elements; the same arguments, semantics and errors.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dht_reconstruct(h: *mut Handle, dims: *const i64, ranks: *const i64, U1: *const f64, U2: *const f64, U3: *const f64, B1: *const f64, B2: *const f64, X: *mut f64) -> numgpu_status {
    ht_reconstruct_form::<f64>("numgpu_dht_reconstruct", h, dims, ranks, U1, U2, U3, B1, B2, X)
}
