//! Hierarchical Tucker decomposition of a third-order tensor (the seed's Algorithm 2: the tree
//! {1,2,3} → {1,2}, {3}; {1,2} → {1}, {2}), and its reconstruction:
//!
//! ```text
//! U_k  = the r_k leading left singular vectors of X_(k), k = 1, 2, 3        (n_k × r_k)
//! U_4  = the r_4 leading left singular vectors of X_(12) = X_(3)ᵀ           (n_1·n_2 × r_4)
//! B_2  = U_4 (as n_1 × n_2 × r_4) ×_1 U_1ᵀ ×_2 U_2ᵀ                           (r_1 × r_2 × r_4)
//! B_1  = U_4ᵀ·X_(12)·U_3                                                      (r_4 × r_3)
//! X̂_(12) = (U_2 ⊗ U_1)·B_2(12)·B_1·U_3ᵀ,   B_2(12) the r_1·r_2 × r_4 matrix of B_2
//! ```
//!
//! The singular vectors are eigenvectors of the Gram matrices X_(k)·X_(k)ᵀ (n_k × n_k, the seed's
//! H_t), formed without unfolding X (`engine::gram_of_mode`; the three eigenproblems one batch
//! when the dimensions are equal, as the seed batches them). U_4 would need the
//! (n_1·n_2)² Gram matrix of X_(12); it is instead X_(12)·V·D⁻¹ with V the leading r_4
//! eigenvectors of X_(3)·X_(3)ᵀ and D the norms of the columns of X_(12)·V (so a zero singular
//! value gives a zero column). The Gram route loses singular values below about √ε·σ_max: in
//! exact arithmetic X̂ is X projected on the three subspaces, whose error is at most the root of
//! the sum of the discarded squared singular values of the three unfoldings; computed, the
//! subspaces of singular values below √ε·σ_max carry O(√ε)·‖X‖ errors. A NaN or an Inf in X
//! gives every output NaN.

use super::engine::{at, gram_of_mode, prod, shape, Engine, Layout, Mat, Real};
use super::{host_param, tensor_dims, whole_tensor};
use crate::core::check::{check_len, check_span, not_null, space_of};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::ArgPtr;

/// One validated call of [`ht`]: dims n_1, n_2, n_3 and ranks r_1 … r_4 within them.
#[derive(Clone, Copy, Debug)]
pub struct Ht<T> {
    pub dims: [usize; 3],
    pub ranks: [usize; 4],
    pub x: *const T,
    /// U_1, U_2, U_3, B_1, B_2, out (compact).
    pub out: [*mut T; 5],
}

/// One validated call of [`ht_reconstruct`] (every dimension ≥ 1).
#[derive(Clone, Copy, Debug)]
pub struct HtReconstruct<T> {
    pub dims: [usize; 3],
    pub ranks: [usize; 4],
    /// U_1, U_2, U_3, B_1, B_2.
    pub parts: [*const T; 5],
    pub x: *mut T,
}

// SAFETY: these carry the caller's pointers; the backends read the inputs and write the
// outputs, checked distinct from them.
unsafe impl<T: Send> Send for Ht<T> {}
unsafe impl<T: Sync> Sync for Ht<T> {}
unsafe impl<T: Send> Send for HtReconstruct<T> {}
unsafe impl<T: Sync> Sync for HtReconstruct<T> {}

/// The extents (elements) of U_1, U_2, U_3, B_1 and B_2.
pub fn extents(dims: &[usize; 3], r: &[usize; 4]) -> Result<[usize; 5]> {
    Ok([prod(&[dims[0], r[0]], "U1")?, prod(&[dims[1], r[1]], "U2")?, prod(&[dims[2], r[2]], "U3")?, prod(&[r[3], r[2]], "B1")?, prod(&[r[0], r[1], r[3]], "B2")?])
}

/// Where the working memory of [`run`] goes (offsets in elements of T).
#[derive(Clone, Copy, Debug)]
pub struct HtWork {
    grams: [usize; 3],
    vals: [usize; 3],
    vecs: [usize; 3],
    /// U_4 (n_1·n_2 × r_4) and its column norms.
    u4: usize,
    norms: usize,
    /// U_4ᵀ·X_(12) (r_4 × n_3) and U_1ᵀ·U_4 (r_1 × n_2·r_4).
    p: usize,
    t1: usize,
    scratch: usize,
    pub total: usize,
}

impl HtWork {
    /// The layout for `p` on engine `e`: `NOT_SUPPORTED` naming dims when a Gram matrix exceeds
    /// the engine's eigensolver.
    pub fn new<T: Real, E: Engine<T>>(p: &Ht<T>, e: &E) -> Result<HtWork> {
        if let Some((k, n)) = p.dims.iter().enumerate().find(|(_, &n)| n > e.max_eig()) {
            return Err(Error::unsupported_arg("dims", format!("(dims[{k}] = {n}) exceeds {}, this backend's eigensolver limit", e.max_eig())));
        }
        let ([n1, n2, n3], [r1, _, _, r4]) = (p.dims, p.ranks);
        let n12 = prod(&[n1, n2], "n1·n2")?;
        let mut l = Layout::default();
        // Each kind in one region, matrix k right after matrix k − 1: equal orders make one
        // strided batch.
        let (sq, lin) = (p.dims.map(|n| n.saturating_mul(n)), p.dims);
        let total = |v: [usize; 3]| v.iter().fold(0usize, |a, &b| a.saturating_add(b));
        let (g0, v0, w0) = (l.take(total(sq))?, l.take(total(sq))?, l.take(total(lin))?);
        let grams = [g0, g0 + sq[0], g0 + sq[0] + sq[1]];
        let vecs = [v0, v0 + sq[0], v0 + sq[0] + sq[1]];
        let vals = [w0, w0 + lin[0], w0 + lin[0] + lin[1]];
        let u4 = l.take(prod(&[n12, r4], "U4")?)?;
        let norms = l.take(r4)?;
        let pp = l.take(prod(&[r4, n3], "U4ᵀ·X")?)?;
        let t1 = l.take(prod(&[r1, n2, r4], "U1ᵀ·U4")?)?;
        let p_c = super::Contraction { trans: true, tb: false, m: r4, n: n3, k: n12, lda: n12, a_step: 1, slices: 1, a_slice: 0, b_slice: 0, ldb: n12 };
        let mut scratch = e.contract_scratch(&p_c).max(e.eig_scratch(*p.dims.iter().max().unwrap_or(&1), 3));
        for k in 0..3 {
            scratch = scratch.max(e.contract_scratch(&gram_of_mode(&p.dims, k)));
        }
        let scratch = l.take(scratch)?;
        Ok(HtWork { grams, vals, vecs, u4, norms, p: pp, t1, scratch, total: l.total() })
    }
}

/// HT of X at `x` into the outputs `out` (U_1, U_2, U_3, B_1, B_2, compact), working memory at
/// `work` (laid out by `w`).
///
/// # Safety
/// X and the outputs hold their extents in the engine's memory; `work` `w.total` elements.
pub unsafe fn run<T: Real, E: Engine<T>>(e: &mut E, p: &Ht<T>, x: u64, out: &[u64; 5], w: &HtWork, work: u64) -> Result<()> {
    let ([n1, n2, n3], [r1, r2, r3, r4]) = (p.dims, p.ranks);
    let n12 = n1 * n2;
    let off = |o: usize| at::<T>(work, o);
    let scratch = off(w.scratch);
    for (k, &n) in p.dims.iter().enumerate() {
        e.contract(&gram_of_mode(&p.dims, k), x, x, Mat::new(off(w.grams[k]), n), scratch)?;
    }
    if n1 == n2 && n2 == n3 {
        e.eig(n1, 3, off(w.grams[0]), off(w.vals[0]), off(w.vecs[0]), scratch)?;
    } else {
        for k in 0..3 {
            e.eig(p.dims[k], 1, off(w.grams[k]), off(w.vals[k]), off(w.vecs[k]), scratch)?;
        }
    }
    for (k, &o) in out.iter().take(3).enumerate() {
        let len = p.dims[k] * p.ranks[k];
        e.copy(len, 1, Mat::new(off(w.vecs[k]), len), Mat::new(o, len))?;
    }
    let (u4, norms, pp, t1) = (off(w.u4), off(w.norms), off(w.p), off(w.t1));
    e.gemm(&shape(false, false, n12, r4, n3, false), Mat::new(x, n12), Mat::new(off(w.vecs[2]), n3), Mat::new(u4, n12), 1)?;
    e.normalize(n12, r4, Mat::new(u4, n12), norms)?;
    let pc = super::Contraction { trans: true, tb: false, m: r4, n: n3, k: n12, lda: n12, a_step: 1, slices: 1, a_slice: 0, b_slice: 0, ldb: n12 };
    e.contract(&pc, u4, x, Mat::new(pp, r4), scratch)?;
    e.gemm(&shape(false, false, r4, r3, n3, false), Mat::new(pp, r4), Mat::new(out[2], n3), Mat::new(out[3], r4), 1)?;
    e.gemm(&shape(true, false, r1, n2 * r4, n1, false), Mat::new(out[0], n1), Mat::new(u4, n1), Mat::new(t1, r1), 1)?;
    e.gemm(&shape(false, false, r1, r2, n2, false), Mat::new(t1, r1).stride(r1 * n2), Mat::new(out[1], n2), Mat::new(out[4], r1).stride(r1 * r2), r4)
}

/// Where the working memory of [`reconstruct`] goes: B_1·U_3ᵀ, B_2(12)·that, and U_1·that.
#[derive(Clone, Copy, Debug)]
pub struct HtRecWork {
    y: usize,
    z: usize,
    w1: usize,
    pub total: usize,
}

impl HtRecWork {
    pub fn new<T>(p: &HtReconstruct<T>) -> Result<HtRecWork> {
        let ([n1, _, n3], [r1, r2, _, r4]) = (p.dims, p.ranks);
        let mut l = Layout::default();
        let y = l.take(prod(&[r4, n3], "B1·U3ᵀ")?)?;
        let z = l.take(prod(&[r1, r2, n3], "B2·B1·U3ᵀ")?)?;
        let w1 = l.take(prod(&[n1, r2, n3], "U1·B2·B1·U3ᵀ")?)?;
        Ok(HtRecWork { y, z, w1, total: l.total() })
    }
}

/// X̂ from U_1, U_2, U_3, B_1, B_2 at `parts`: Y = B_1·U_3ᵀ, Z = B_2(12)·Y (r_1 × r_2 × n_3),
/// W = U_1·Z (n_1 × r_2 × n_3), and each frontal slice X(:, :, k) = W(:, :, k)·U_2ᵀ (a batch of
/// n_3 GEMMs): no permuted copy.
///
/// # Safety
/// The arrays hold their extents in the engine's memory; `work` `w.total` elements.
pub unsafe fn reconstruct<T: Real, E: Engine<T>>(e: &mut E, p: &HtReconstruct<T>, parts: &[u64; 5], x: u64, w: &HtRecWork, work: u64) -> Result<()> {
    let ([n1, n2, n3], [r1, r2, r3, r4]) = (p.dims, p.ranks);
    let (y, z, w1) = (at::<T>(work, w.y), at::<T>(work, w.z), at::<T>(work, w.w1));
    e.gemm(&shape(false, true, r4, n3, r3, false), Mat::new(parts[3], r4), Mat::new(parts[2], n3), Mat::new(y, r4), 1)?;
    e.gemm(&shape(false, false, r1 * r2, n3, r4, false), Mat::new(parts[4], r1 * r2), Mat::new(y, r4), Mat::new(z, r1 * r2), 1)?;
    e.gemm(&shape(false, false, n1, r2 * n3, r1, false), Mat::new(parts[0], n1), Mat::new(z, r1), Mat::new(w1, n1), 1)?;
    e.gemm(&shape(false, true, n1, n2, r2, false), Mat::new(w1, n1).stride(n1 * r2), Mat::new(parts[1], n2), Mat::new(x, n1).stride(n1 * n2), n3)
}

/// The three dimensions (host memory) and the four ranks (host memory, each ≥ 1; `within`:
/// r_k ≤ n_k and r_4 ≤ min(n_1·n_2, n_3)).
///
/// # Safety
/// `dims` NULL or valid for 3 reads, `ranks` for 4.
unsafe fn sizes<T>(dims: *const i64, ranks: *const i64, decomposition: bool) -> Result<([usize; 3], [usize; 4])> {
    let d = if decomposition { whole_tensor::<T>(3, dims)? } else { tensor_dims::<T>(3, dims)? };
    not_null(ranks, "ranks")?;
    host_param(ranks as _, "ranks", "the array of ranks")?;
    let given = std::slice::from_raw_parts(ranks, 4);
    let limit = [d[0], d[1], d[2], (d[0].saturating_mul(d[1])).min(d[2])];
    let names = ["n1", "n2", "n3", "min(n1·n2, n3)"];
    let mut r = [0usize; 4];
    for k in 0..4 {
        if given[k] < 1 || (decomposition && given[k] as u64 > limit[k] as u64) {
            let within = if decomposition { format!(" and <= {} = {}", names[k], limit[k]) } else { String::new() };
            return Err(Error::arg("ranks", format!("(ranks[{k}] = {}) must be >= 1{within}", given[k])));
        }
        r[k] = usize::try_from(given[k]).unwrap_or(usize::MAX);
    }
    Ok(([d[0], d[1], d[2]], r))
}

/// The HT decomposition of X (see the module docs): U1 (n_1 × r_1), U2, U3 (n_k × r_k), B1
/// (r_4 × r_3) and B2 (r_1 × r_2 × r_4), compact.
///
/// # Safety
/// `dims` valid for 3 reads and `ranks` for 4 (host memory); X and the outputs NULL or valid
/// for their extents, all host or all device memory.
#[allow(clippy::too_many_arguments)]
pub unsafe fn ht<T: Real>(h: &mut Handle, dims: *const i64, x: *const T, ranks: *const i64, u1: *mut T, u2: *mut T, u3: *mut T, b1: *mut T, b2: *mut T) -> Result<()> {
    let (d, r) = sizes::<T>(dims, ranks, true)?;
    not_null(x, "X")?;
    let ext = extents(&d, &r)?;
    let names = ["U1", "U2", "U3", "B1", "B2"];
    let out = [u1, u2, u3, b1, b2];
    for k in 0..5 {
        not_null(out[k], names[k])?;
        check_span::<T>(ext[k], 1, 1, names[k])?;
    }
    let args: [ArgPtr; 6] = [(x as _, "X"), (u1 as _, "U1"), (u2 as _, "U2"), (u3 as _, "U3"), (b1 as _, "B1"), (b2 as _, "B2")];
    let space = space_of(h, &args, &[], &names, 1)?;
    let p = Ht { dims: d, ranks: r, x, out };
    match &mut h.state {
        State::Cpu => super::cpu::ht(&p),
        State::Cuda(ch) => super::cuda::ht(ch, &p, space),
    }
}

/// X̂ from an HT decomposition (see [`reconstruct`]); ranks ≥ 1, any sizes. A zero dimension
/// touches nothing.
///
/// # Safety
/// As [`ht`], the parts read and X written.
#[allow(clippy::too_many_arguments)]
pub unsafe fn ht_reconstruct<T: Real>(h: &mut Handle, dims: *const i64, ranks: *const i64, u1: *const T, u2: *const T, u3: *const T, b1: *const T, b2: *const T, x: *mut T) -> Result<()> {
    let (d, r) = sizes::<T>(dims, ranks, false)?;
    let ext = extents(&d, &r)?;
    let names = ["U1", "U2", "U3", "B1", "B2"];
    let parts = [u1, u2, u3, b1, b2];
    if d.iter().product::<usize>() == 0 {
        return Ok(());
    }
    for k in 0..5 {
        not_null(parts[k], names[k])?;
        check_span::<T>(ext[k], 1, 1, names[k])?;
    }
    not_null(x, "X")?;
    let args: [ArgPtr; 6] = [(u1 as _, "U1"), (u2 as _, "U2"), (u3 as _, "U3"), (b1 as _, "B1"), (b2 as _, "B2"), (x as _, "X")];
    let space = space_of(h, &args, &[], &["X"], 1)?;
    let p = HtReconstruct { dims: d, ranks: r, parts, x };
    match &mut h.state {
        State::Cpu => super::cpu::ht_reconstruct(&p),
        State::Cuda(ch) => super::cuda::ht_reconstruct(ch, &p, space),
    }
}

/// The lengths the safe wrappers check: X, and the five parts against their extents.
fn check_parts(dims: &[i64; 3], ranks: &[i64; 4], x: usize, parts: [usize; 5]) -> Result<()> {
    if dims.iter().chain(ranks).all(|&v| v >= 0) {
        let (d, r) = (dims.map(|v| v as usize), ranks.map(|v| v as usize));
        check_len(x, d.iter().fold(1usize, |a, &b| a.saturating_mul(b)), "X")?;
        let ext = extents(&d, &r)?;
        for (k, name) in ["U1", "U2", "U3", "B1", "B2"].into_iter().enumerate() {
            check_len(parts[k], ext[k], name)?;
        }
    }
    Ok(())
}

/// Safe [`ht`] on host slices: `out` = [U1, U2, U3, B1, B2].
pub fn ht_slices<T: Real>(h: &mut Handle, dims: &[i64; 3], x: &[T], ranks: &[i64; 4], out: [&mut [T]; 5]) -> Result<()> {
    check_parts(dims, ranks, x.len(), [out[0].len(), out[1].len(), out[2].len(), out[3].len(), out[4].len()])?;
    let [u1, u2, u3, b1, b2] = out;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { ht(h, dims.as_ptr(), x.as_ptr(), ranks.as_ptr(), u1.as_mut_ptr(), u2.as_mut_ptr(), u3.as_mut_ptr(), b1.as_mut_ptr(), b2.as_mut_ptr()) }
}

/// Safe [`ht_reconstruct`] on host slices: `parts` = [U1, U2, U3, B1, B2].
pub fn ht_reconstruct_slices<T: Real>(h: &mut Handle, dims: &[i64; 3], ranks: &[i64; 4], parts: [&[T]; 5], x: &mut [T]) -> Result<()> {
    check_parts(dims, ranks, x.len(), parts.map(|p| p.len()))?;
    // SAFETY: as in `ht_slices`.
    unsafe { ht_reconstruct(h, dims.as_ptr(), ranks.as_ptr(), parts[0].as_ptr(), parts[1].as_ptr(), parts[2].as_ptr(), parts[3].as_ptr(), parts[4].as_ptr(), x.as_mut_ptr()) }
}
