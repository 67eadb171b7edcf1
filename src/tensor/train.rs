//! Tensor-train (TT-SVD, Oseledets 2011; the seed's Algorithm 3 for any order) and tensor-ring
//! (TR-SVD, Zhao et al. 2016; the seed's Algorithm 4) decompositions, and their
//! reconstructions:
//!
//! ```text
//! TT:  X(i_0, …, i_{d−1}) = G_0(:, i_0, :)·G_1(:, i_1, :)·…·G_{d−1}(:, i_{d−1}, :)    r_0 = r_d = 1
//! TR:  X(i_0, …, i_{d−1}) = trace(G_0(:, i_0, :)·…·G_{d−1}(:, i_{d−1}, :))          r_d = r_0
//! ```
//!
//! Core k is r_k × dims[k] × r_{k+1}, column-major (entry (a, i, b) at a + r_k·(i + dims[k]·b)),
//! the cores one after the other.
//!
//! TT-SVD: at step k the remainder C, an (r_k·dims[k]) × (the rest) matrix (X itself at step 0,
//! read in place; a reshape is free in column-major order), is split by a truncated SVD
//! C ≈ U·(Uᵀ·C): U (its leading left singular vectors) is core k, Uᵀ·C the next remainder, and
//! the last remainder is the last core. Rank r_{k+1} is the smallest whose discarded squared
//! singular values sum to at most δ² = eps²·‖X‖²/(d − 1) (Oseledets' per-step bound, so that
//! ‖X − X̂‖ ≤ eps·‖X‖), at most max_ranks[k + 1].
//!
//! TR-SVD: step 0 splits X_(0) the same way with rank m = r_0·r_1 (the factorisation of m with
//! |r_0 − r_1| least, r_0 ≤ r_1), core 0 is U reshaped n_0 × r_0 × r_1 and permuted to
//! r_0 × n_0 × r_1, and the remainder Uᵀ·C, r_0 × r_1 × (the rest), becomes r_1 × (the rest) × r_0
//! — written so by the product itself, one GEMM per a < r_0 — and goes through TT-SVD's steps,
//! the ring closed by r_d = r_0. The same δ per step: d − 1 truncations, so the same bound.
//!
//! The SVDs are Gram-matrix eigendecompositions, as in the seed: of C·Cᵀ when C has no more
//! rows than columns (U its eigenvectors, Uᵀ·C one GEMM), else of Cᵀ·C (V its eigenvectors;
//! U = C·V·D⁻¹ with D the norms of the columns of C·V, and the next remainder D·Vᵀ, so that
//! U·(D·Vᵀ) = C·V·Vᵀ exactly). Forming a Gram matrix squares the condition number: singular
//! values below about √ε·σ_max (ε the precision's) are not resolved, so eps below about
//! √(n·ε) (n the Gram matrix's order) may keep or drop them wrongly, and the error bound
//! holds up to O(√ε)·‖X‖ there.

use super::engine::{at, gram_of, prod, shape, Engine, Layout, Mat, Real};
use super::{host_out_array, tensor_dims, whole_tensor};
use crate::core::check::{check_len, check_span, nonneg, not_null, space_of};
use crate::core::error::{Error, Result, Status};
use crate::core::handle::{Handle, State};
use crate::core::memory::ArgPtr;

/// One validated call of [`tt_svd`] or [`tr_svd`].
#[derive(Clone, Debug)]
pub struct Train<T> {
    pub dims: Vec<usize>,
    pub x: *const T,
    pub eps: f64,
    /// Per rank index 0 … d: the most it may be (usize::MAX: no cap).
    pub caps: Vec<usize>,
    pub ring: bool,
    pub capacity: usize,
    /// `capacity` elements, out (NULL when capacity = 0).
    pub cores: *mut T,
}

/// One validated call of [`tt_reconstruct`] or [`tr_reconstruct`] (every dimension ≥ 1).
#[derive(Clone, Debug)]
pub struct Chain<T> {
    pub dims: Vec<usize>,
    /// r_0 … r_d (r_d = r_0).
    pub ranks: Vec<usize>,
    pub cores: *const T,
    pub x: *mut T,
}

// SAFETY: these carry the caller's pointers; the backends read X (the cores) and write the
// outputs, checked distinct from the inputs.
unsafe impl<T: Send> Send for Train<T> {}
unsafe impl<T: Sync> Sync for Train<T> {}
unsafe impl<T: Send> Send for Chain<T> {}
unsafe impl<T: Sync> Sync for Chain<T> {}

/// What a decomposition found: the ranks r_0 … r_d and the cores' total length (in the working
/// memory until the caller's capacity is known to hold them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainOut {
    pub ranks: Vec<usize>,
    pub total: usize,
}

/// The offsets of the cores of `ranks` over `dims`, and their total (d + 1 entries).
pub fn offsets(dims: &[usize], ranks: &[usize]) -> Vec<usize> {
    let mut o = vec![0];
    for (k, &n) in dims.iter().enumerate() {
        o.push(o[k] + ranks[k] * n * ranks[k + 1]);
    }
    o
}

/// Where the working memory of a decomposition goes (offsets in elements of T).
#[derive(Clone, Copy, Debug)]
pub struct TrainWork {
    /// Two remainders (∏ dims each).
    rem: [usize; 2],
    /// A Gram matrix, its eigenvectors and values, the column norms of the tall case.
    gram: usize,
    vecs: usize,
    vals: usize,
    norms: usize,
    /// The cores, as long as they can be.
    pub cores: usize,
    scratch: usize,
    pub total: usize,
}

/// The ranks, Gram orders and core lengths no input of these sizes can exceed.
struct Bounds {
    gram: usize,
    cores: usize,
}

/// The largest ranks the steps can choose (without eps), and what they imply.
fn bounds(dims: &[usize], caps: &[usize], ring: bool) -> Result<Bounds> {
    let d = dims.len();
    let numel = prod(dims, "the product of the dimensions")?;
    let (mut gram, mut cores) = (0usize, 0usize);
    let mut add = |v: &[usize]| -> Result<()> { cores = cores.checked_add(prod(v, "the cores")?).ok_or_else(|| Error::not_supported("the cores exceed the address space"))? ; Ok(()) };
    // Step 0: m rows (dims[0]) and the rest; TR's trailing r_0 rides with the columns after.
    let (rest0, m0) = (numel / dims[0], dims[0]);
    gram = gram.max(m0.min(rest0));
    let (mut r, trail) = if ring {
        let m = m0.min(rest0).min(caps[0].saturating_mul(caps[1]));
        add(&[dims[0], m])?;
        (m.min(caps[1]), m.min(caps[0]))
    } else {
        let r1 = m0.min(rest0).min(caps[1]);
        add(&[dims[0], r1])?;
        (r1, 1)
    };
    let mut rest = rest0;
    for (k, &n) in dims.iter().enumerate().take(d - 1).skip(1) {
        rest /= n;
        let m = r.saturating_mul(n);
        let cols = rest.saturating_mul(trail);
        gram = gram.max(m.min(cols));
        let next = m.min(cols).min(caps[k + 1]);
        add(&[r, n, next])?;
        r = next;
    }
    add(&[r, dims[d - 1], trail])?;
    Ok(Bounds { gram, cores })
}

impl TrainWork {
    /// The layout for `p` on engine `e`.
    pub fn new<T: Real, E: Engine<T>>(p: &Train<T>, e: &E) -> Result<TrainWork> {
        let numel = prod(&p.dims, "the product of the dimensions")?;
        let b = bounds(&p.dims, &p.caps, p.ring)?;
        // A larger Gram matrix is refused when it comes (NOT_SUPPORTED): no room for it.
        let gram_max = b.gram.min(e.max_eig());
        let g2 = prod(&[gram_max, gram_max], "a Gram matrix")?;
        let mut l = Layout::default();
        let rem = [l.take(numel)?, l.take(numel)?];
        let (gram, vecs, vals, norms) = (l.take(g2)?, l.take(g2)?, l.take(gram_max)?, l.take(gram_max)?);
        let cores = l.take(b.cores)?;
        let scratch = l.take(e.eig_scratch(gram_max, 1).max(e.contract_scratch(&gram_of(gram_max, gram_max, true))))?;
        Ok(TrainWork { rem, gram, vecs, vals, norms, cores, scratch, total: l.total() })
    }
}

/// The smallest rank r ≥ 1 whose discarded eigenvalues (squared singular values, descending,
/// negative ones counted as 0) sum to at most `delta2`, and at most `cap`.
pub fn truncate(w: &[f64], delta2: f64, cap: usize) -> usize {
    let (mut r, mut tail) = (w.len(), 0.0);
    while r > 1 && tail + w[r - 1].max(0.0) <= delta2 {
        tail += w[r - 1].max(0.0);
        r -= 1;
    }
    r.min(cap).max(1)
}

/// TR-SVD's split of the first rank: the largest m' ≤ m with a factorisation r_0·r_1 = m',
/// r_0 ≤ cap0, r_1 ≤ cap1, and of those the one with |r_0 − r_1| least (r_0 the smaller when
/// both orders fit).
pub fn split(m: usize, cap0: usize, cap1: usize) -> (usize, usize) {
    for mm in (1..=m).rev() {
        let best = (1..=mm).filter(|&a| mm % a == 0 && a <= cap0 && mm / a <= cap1).min_by_key(|&a| (a.abs_diff(mm / a), a));
        if let Some(a) = best {
            return (a, mm / a);
        }
    }
    (1, 1)
}

/// Runs the decomposition on X at `x` with the working memory at `work` (laid out by `w`): the
/// ranks, and the cores at `work + w.cores`. NaN or Inf in X (or Gram matrices that overflow)
/// give every rank 1 and every core entry NaN.
///
/// # Safety
/// X holds ∏ dims elements of the engine's memory; `work` holds `w.total` elements.
pub unsafe fn run<T: Real, E: Engine<T>>(e: &mut E, p: &Train<T>, x: u64, w: &TrainWork, work: u64) -> Result<TrainOut> {
    let d = p.dims.len();
    let off = |o: usize| at::<T>(work, o);
    let (rem, gram, vecs, vals, norms, cores, scratch) = ([off(w.rem[0]), off(w.rem[1])], off(w.gram), off(w.vecs), off(w.vals), off(w.norms), off(w.cores), off(w.scratch));
    let mut ranks = vec![1usize; d + 1];
    let (mut cur, mut ping, mut rank, mut trail, mut len) = (x, 0, 1usize, 1usize, 0usize);
    let mut rest: usize = p.dims.iter().product();
    let mut delta2 = 0.0;
    for k in 0..d - 1 {
        rest /= p.dims[k];
        let (m, n) = (rank * p.dims[k], rest * trail);
        let g = m.min(n);
        if g > e.max_eig() {
            return Err(Error::unsupported_arg("dims", format!("(dims) step {k} splits a {m} × {n} unfolding: its Gram matrix of order {g} exceeds {}, this backend's eigensolver limit (lower max_ranks)", e.max_eig())));
        }
        e.contract(&gram_of(m, n, m <= n), cur, cur, Mat::new(gram, g), scratch)?;
        e.eig(g, 1, gram, vals, vecs, scratch)?;
        let mut host = vec![T::zero(); g];
        e.download(vals, &mut host)?;
        let wv: Vec<f64> = host.iter().map(|&v| v.into()).collect();
        if !wv.iter().all(|v| v.is_finite()) {
            return nan_cores(e, p, cores);
        }
        if k == 0 {
            delta2 = p.eps * p.eps * wv.iter().map(|v| v.max(0.0)).sum::<f64>() / (d - 1) as f64;
        }
        let first_ring = p.ring && k == 0;
        let cap = if first_ring { p.caps[0].saturating_mul(p.caps[1]) } else { p.caps[k + 1] };
        let mut r = truncate(&wv, delta2, cap);
        let (r0, r1) = if first_ring { split(r, p.caps[0], p.caps[1]) } else { (1, r) };
        r = r0 * r1;
        let (core, next, other) = (at::<T>(cores, len), rem[ping], rem[1 - ping]);
        if m <= n {
            // U = the leading eigenvectors of C·Cᵀ (m × r, leading dimension g = m).
            if first_ring {
                e.permute3([m, r0, r1], [1, 0, 2], vecs, core)?;
                // Item a: rows a, a + r0, … of Uᵀ·C, written as r1 × n slice a of the next.
                e.gemm(&shape(true, false, r1, n, m, false), Mat::new(vecs, r0 * m).stride(m), Mat::new(cur, m), Mat::new(next, r1).stride(r1 * n), r0)?;
            } else {
                e.copy(m * r, 1, Mat::new(vecs, m * r), Mat::new(core, m * r))?;
                e.gemm(&shape(true, false, r, n, m, false), Mat::new(vecs, g), Mat::new(cur, m), Mat::new(next, r), 1)?;
            }
        } else {
            // V = the leading eigenvectors of Cᵀ·C (n × r); U = C·V·D⁻¹, the next D·Vᵀ.
            let u = if first_ring { other } else { core };
            e.gemm(&shape(false, false, m, r, n, false), Mat::new(cur, m), Mat::new(vecs, g), Mat::new(u, m), 1)?;
            e.normalize(m, r, Mat::new(u, m), norms)?;
            if first_ring {
                e.permute3([m, r0, r1], [1, 0, 2], u, core)?;
                e.transpose_scale(n, r, Mat::new(vecs, g), norms, Mat::new(other, r))?;
                e.permute3([r0, r1, n], [1, 2, 0], other, next)?;
            } else {
                e.transpose_scale(n, r, Mat::new(vecs, g), norms, Mat::new(next, r))?;
            }
        }
        len += m * r;
        if first_ring {
            (ranks[0], ranks[1], ranks[d], trail) = (r0, r1, r0, r0);
            rank = r1;
        } else {
            ranks[k + 1] = r;
            rank = r;
        }
        cur = next;
        ping = 1 - ping;
    }
    let last = rank * p.dims[d - 1] * trail;
    e.copy(last, 1, Mat::new(cur, last), Mat::new(at::<T>(cores, len), last))?;
    Ok(TrainOut { ranks, total: len + last })
}

/// Every rank 1 and every core entry NaN (the outcome of NaN or Inf in X).
///
/// # Safety
/// As [`run`].
unsafe fn nan_cores<T: Real, E: Engine<T>>(e: &mut E, p: &Train<T>, cores: u64) -> Result<TrainOut> {
    let total = p.dims.iter().sum();
    e.fill(total, 1, Mat::new(cores, total), T::of(f64::NAN))?;
    Ok(TrainOut { ranks: vec![1; p.dims.len() + 1], total })
}

/// Where the working memory of a reconstruction goes: two partial products, and TR's first
/// core permuted to dims[0] × r_1 × r_0.
#[derive(Clone, Copy, Debug)]
pub struct ChainWork {
    t: [usize; 2],
    first: usize,
    pub total: usize,
}

impl ChainWork {
    pub fn new<T>(p: &Chain<T>) -> Result<ChainWork> {
        let (d, r) = (p.dims.len(), &p.ranks);
        let (mut rows, mut big) = (p.dims[0], 0usize);
        for k in 1..d - 1 {
            rows = prod(&[rows, p.dims[k]], "a partial product")?;
            big = big.max(prod(&[rows, r[k + 1]], "a partial product")?);
        }
        let mut l = Layout::default();
        let t = [l.take(big)?, l.take(big)?];
        let first = l.take(if r[0] > 1 { prod(&[r[0], p.dims[0], r[1]], "the first core")? } else { 0 })?;
        Ok(ChainWork { t, first, total: l.total() })
    }
}

/// X from the cores at `cores` (see the module docs): for each a < r_0 (one pass for a
/// train), slice a of core 0 (dims[0] × r_1) times cores 1 … d − 2, each one GEMM on the
/// partial product read as (∏ dims so far) × r_k, and the last GEMM with slice a of core d − 1
/// (r_{d−1} × dims[d−1]) adds into X: the trace of the ring, in a fixed order.
///
/// # Safety
/// The cores and X hold their extents in the engine's memory; `work` `w.total` elements.
pub unsafe fn reconstruct<T: Real, E: Engine<T>>(e: &mut E, p: &Chain<T>, cores: u64, x: u64, w: &ChainWork, work: u64) -> Result<()> {
    let (d, r) = (p.dims.len(), &p.ranks);
    let o = offsets(&p.dims, r);
    let core = |k: usize| at::<T>(cores, o[k]);
    let (t, first) = ([at::<T>(work, w.t[0]), at::<T>(work, w.t[1])], at::<T>(work, w.first));
    if r[0] > 1 {
        e.permute3([r[0], p.dims[0], r[1]], [1, 2, 0], core(0), first)?;
    }
    for a in 0..r[0] {
        let (mut cur, mut rows) = (if r[0] > 1 { at::<T>(first, a * p.dims[0] * r[1]) } else { core(0) }, p.dims[0]);
        for k in 1..d - 1 {
            let next = t[k % 2];
            e.gemm(&shape(false, false, rows, p.dims[k] * r[k + 1], r[k], false), Mat::new(cur, rows), Mat::new(core(k), r[k]), Mat::new(next, rows), 1)?;
            (cur, rows) = (next, rows * p.dims[k]);
        }
        let last = at::<T>(core(d - 1), a * r[d - 1] * p.dims[d - 1]);
        e.gemm(&shape(false, false, rows, p.dims[d - 1], r[d - 1], a > 0), Mat::new(cur, rows), Mat::new(last, r[d - 1]), Mat::new(x, rows), 1)?;
    }
    Ok(())
}

/// The checks and the call of [`tt_svd`] and [`tr_svd`].
///
/// # Safety
/// As [`tt_svd`].
#[allow(clippy::too_many_arguments)]
unsafe fn svd<T: Real>(h: &mut Handle, ring: bool, ndim: i32, dims: *const i64, x: *const T, eps: T, max_ranks: *const i64, ranks: *mut i64, cores: *mut T, capacity: i64, offsets_out: *mut i64) -> Result<()> {
    let dims = whole_tensor::<T>(ndim, dims)?;
    let d = dims.len();
    not_null(x, "X")?;
    let eps: f64 = eps.into();
    if !(eps.is_finite() && eps >= 0.0) {
        return Err(Error::arg("eps", format!("(eps = {eps:e}) must be finite and >= 0")));
    }
    let mut caps = vec![usize::MAX; d + 1];
    if !max_ranks.is_null() {
        super::host_param(max_ranks as _, "max_ranks", "the array of rank limits")?;
        let given = std::slice::from_raw_parts(max_ranks, d + 1);
        for k in if ring { 0..d } else { 1..d } {
            if given[k] < 1 {
                return Err(Error::arg("max_ranks", format!("(max_ranks[{k}] = {}) must be >= 1", given[k])));
            }
            caps[k] = given[k].try_into().unwrap_or(usize::MAX);
        }
    }
    host_out_array(ranks, d + 1, "ranks")?;
    let capacity = nonneg(capacity, "capacity")?;
    if capacity > 0 {
        not_null(cores, "cores")?;
        check_span::<T>(capacity, 1, 1, "cores")?;
    }
    host_out_array(offsets_out, d + 1, "offsets")?;
    let args: [ArgPtr; 2] = [(x as _, "X"), (cores as _, "cores")];
    let space = space_of(h, &args, &[], &["cores"], 1)?;
    let p = Train { dims, x, eps, caps, ring, capacity, cores };
    let out = match &mut h.state {
        State::Cpu => super::cpu::train(&p)?,
        State::Cuda(ch) => super::cuda::train(ch, &p, space)?,
    };
    if out.total > capacity {
        *offsets_out.add(d) = out.total as i64;
        return Err(Error { status: Status::NUMGPU_INSUFFICIENT_CAPACITY, arg: Some("capacity"), msg: format!("(capacity = {capacity}) cannot hold the cores, which need {} elements (written to offsets[ndim]); nothing else was written", out.total) });
    }
    for (k, o) in offsets(&p.dims, &out.ranks).into_iter().enumerate() {
        *ranks.add(k) = out.ranks[k] as i64;
        *offsets_out.add(k) = o as i64;
    }
    Ok(())
}

/// TT-SVD of X (see the module docs): ranks r_0 … r_d (r_0 = r_d = 1) to `ranks`, the cores one
/// after the other to `cores`, where core k starts at offsets[k] (offsets[d] the total); when
/// the cores need more than `capacity` elements, only offsets[d] (that need) is written and
/// the error is `INSUFFICIENT_CAPACITY`. The call waits for the device (the ranks decide the
/// sizes of the later steps).
///
/// # Safety
/// `dims` valid for ndim reads, `max_ranks` NULL or valid for ndim + 1 reads, `ranks` and
/// `offsets` for ndim + 1 writes (host memory); X and `cores` NULL or valid for their extents
/// (∏ dims and `capacity`), both host or both device memory.
#[allow(clippy::too_many_arguments)]
pub unsafe fn tt_svd<T: Real>(h: &mut Handle, ndim: i32, dims: *const i64, x: *const T, eps: T, max_ranks: *const i64, ranks: *mut i64, cores: *mut T, capacity: i64, offsets: *mut i64) -> Result<()> {
    svd(h, false, ndim, dims, x, eps, max_ranks, ranks, cores, capacity, offsets)
}

/// TR-SVD of X (see the module docs), with [`tt_svd`]'s arguments and protocol; r_d = r_0.
///
/// # Safety
/// As [`tt_svd`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn tr_svd<T: Real>(h: &mut Handle, ndim: i32, dims: *const i64, x: *const T, eps: T, max_ranks: *const i64, ranks: *mut i64, cores: *mut T, capacity: i64, offsets: *mut i64) -> Result<()> {
    svd(h, true, ndim, dims, x, eps, max_ranks, ranks, cores, capacity, offsets)
}

/// The checks and the call of [`tt_reconstruct`] and [`tr_reconstruct`].
///
/// # Safety
/// As [`tt_reconstruct`].
unsafe fn chain<T: Real>(h: &mut Handle, ring: bool, ndim: i32, dims: *const i64, ranks: *const i64, cores: *const T, x: *mut T) -> Result<()> {
    let dims = tensor_dims::<T>(ndim, dims)?;
    let d = dims.len();
    not_null(ranks, "ranks")?;
    super::host_param(ranks as _, "ranks", "the array of ranks")?;
    let given = std::slice::from_raw_parts(ranks, d + 1);
    let mut r = Vec::with_capacity(d + 1);
    for (k, &v) in given.iter().enumerate() {
        if v < 1 {
            return Err(Error::arg("ranks", format!("(ranks[{k}] = {v}) must be >= 1")));
        }
        r.push(usize::try_from(v).unwrap_or(usize::MAX));
    }
    if !ring && (r[0] != 1 || r[d] != 1) {
        return Err(Error::arg("ranks", format!("(ranks[0] = {}, ranks[ndim] = {}) must both be 1 for a tensor train", r[0], r[d])));
    }
    if ring && r[d] != r[0] {
        return Err(Error::arg("ranks", format!("(ranks[ndim] = {}) must equal ranks[0] = {}: the ring closes", r[d], r[0])));
    }
    let mut total = 0usize;
    for k in 0..d {
        let core = prod(&[r[k], dims[k], r[k + 1]], "the cores").map_err(|e| Error::unsupported_arg("ranks", format!("(ranks) {}", e.msg)))?;
        total = total.checked_add(core).ok_or_else(|| Error::unsupported_arg("ranks", "(ranks) make the cores exceed the address space"))?;
    }
    if dims.iter().product::<usize>() == 0 {
        return Ok(());
    }
    not_null(cores, "cores")?;
    check_span::<T>(total, 1, 1, "cores")?;
    not_null(x, "X")?;
    let args: [ArgPtr; 2] = [(cores as _, "cores"), (x as _, "X")];
    let space = space_of(h, &args, &[], &["X"], 1)?;
    let p = Chain { dims, ranks: r, cores, x };
    match &mut h.state {
        State::Cpu => super::cpu::chain(&p),
        State::Cuda(ch) => super::cuda::chain(ch, &p, space),
    }
}

/// X from the cores of a tensor train (ranks r_0 = r_d = 1; the layout [`tt_svd`] writes). A
/// zero dimension touches nothing.
///
/// # Safety
/// `dims` valid for ndim reads and `ranks` for ndim + 1 (host memory); the cores and X NULL or
/// valid for their extents, both host or both device memory.
pub unsafe fn tt_reconstruct<T: Real>(h: &mut Handle, ndim: i32, dims: *const i64, ranks: *const i64, cores: *const T, x: *mut T) -> Result<()> {
    chain(h, false, ndim, dims, ranks, cores, x)
}

/// X from the cores of a tensor ring (r_d = r_0; the layout [`tr_svd`] writes).
///
/// # Safety
/// As [`tt_reconstruct`].
pub unsafe fn tr_reconstruct<T: Real>(h: &mut Handle, ndim: i32, dims: *const i64, ranks: *const i64, cores: *const T, x: *mut T) -> Result<()> {
    chain(h, true, ndim, dims, ranks, cores, x)
}

/// ∏ dims when every dimension is >= 0 (else 0: the checks report the bad one).
fn numel_of(dims: &[i64]) -> usize {
    if dims.iter().any(|&d| d < 0) {
        return 0;
    }
    dims.iter().fold(1usize, |a, &d| a.saturating_mul(d as usize))
}

/// The checks of the safe decomposition wrappers.
fn svd_slices(dims: &[i64], x: usize, max_ranks: Option<&[i64]>, ranks: usize, offsets: usize) -> Result<()> {
    check_len(x, numel_of(dims), "X")?;
    if let Some(m) = max_ranks {
        check_len(m.len(), dims.len() + 1, "max_ranks")?;
    }
    check_len(ranks, dims.len() + 1, "ranks")?;
    check_len(offsets, dims.len() + 1, "offsets")
}

/// Safe [`tt_svd`] on host slices: the capacity is `cores.len()`.
#[allow(clippy::too_many_arguments)]
pub fn tt_svd_slices<T: Real>(h: &mut Handle, dims: &[i64], x: &[T], eps: T, max_ranks: Option<&[i64]>, ranks: &mut [i64], cores: &mut [T], offsets: &mut [i64]) -> Result<()> {
    svd_slices(dims, x.len(), max_ranks, ranks.len(), offsets.len())?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { tt_svd(h, dims.len().min(i32::MAX as usize) as i32, dims.as_ptr(), x.as_ptr(), eps, max_ranks.map_or(std::ptr::null(), |m| m.as_ptr()), ranks.as_mut_ptr(), cores.as_mut_ptr(), cores.len() as i64, offsets.as_mut_ptr()) }
}

/// Safe [`tr_svd`] on host slices: the capacity is `cores.len()`.
#[allow(clippy::too_many_arguments)]
pub fn tr_svd_slices<T: Real>(h: &mut Handle, dims: &[i64], x: &[T], eps: T, max_ranks: Option<&[i64]>, ranks: &mut [i64], cores: &mut [T], offsets: &mut [i64]) -> Result<()> {
    svd_slices(dims, x.len(), max_ranks, ranks.len(), offsets.len())?;
    // SAFETY: as in `tt_svd_slices`.
    unsafe { tr_svd(h, dims.len().min(i32::MAX as usize) as i32, dims.as_ptr(), x.as_ptr(), eps, max_ranks.map_or(std::ptr::null(), |m| m.as_ptr()), ranks.as_mut_ptr(), cores.as_mut_ptr(), cores.len() as i64, offsets.as_mut_ptr()) }
}

/// The checks of the safe reconstruction wrappers.
fn chain_slices(dims: &[i64], ranks: &[i64], cores: usize, x: usize) -> Result<()> {
    check_len(ranks.len(), dims.len() + 1, "ranks")?;
    check_len(x, numel_of(dims), "X")?;
    if dims.iter().chain(ranks).all(|&v| v >= 0) {
        let need = (0..dims.len()).fold(0usize, |a, k| a.saturating_add((ranks[k] as usize).saturating_mul(dims[k] as usize).saturating_mul(ranks[k + 1] as usize)));
        check_len(cores, need, "cores")?;
    }
    Ok(())
}

/// Safe [`tt_reconstruct`] on host slices.
pub fn tt_reconstruct_slices<T: Real>(h: &mut Handle, dims: &[i64], ranks: &[i64], cores: &[T], x: &mut [T]) -> Result<()> {
    chain_slices(dims, ranks, cores.len(), x.len())?;
    // SAFETY: as in `tt_svd_slices`.
    unsafe { tt_reconstruct(h, dims.len().min(i32::MAX as usize) as i32, dims.as_ptr(), ranks.as_ptr(), cores.as_ptr(), x.as_mut_ptr()) }
}

/// Safe [`tr_reconstruct`] on host slices.
pub fn tr_reconstruct_slices<T: Real>(h: &mut Handle, dims: &[i64], ranks: &[i64], cores: &[T], x: &mut [T]) -> Result<()> {
    chain_slices(dims, ranks, cores.len(), x.len())?;
    // SAFETY: as in `tt_svd_slices`.
    unsafe { tr_reconstruct(h, dims.len().min(i32::MAX as usize) as i32, dims.as_ptr(), ranks.as_ptr(), cores.as_ptr(), x.as_mut_ptr()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_keeps_the_smallest_rank_within_delta() {
        let w = [9.0, 4.0, 1.0, 0.25];
        assert_eq!(truncate(&w, 0.0, usize::MAX), 4);
        assert_eq!(truncate(&w, 0.25, usize::MAX), 3);
        assert_eq!(truncate(&w, 1.3, usize::MAX), 2);
        assert_eq!(truncate(&w, 100.0, usize::MAX), 1);
        assert_eq!(truncate(&w, 0.0, 2), 2);
        assert_eq!(truncate(&[0.0, -1e-20], 0.0, usize::MAX), 1);
    }

    #[test]
    fn ring_splits_are_balanced_within_caps() {
        assert_eq!(split(6, usize::MAX, usize::MAX), (2, 3));
        assert_eq!(split(9, usize::MAX, usize::MAX), (3, 3));
        assert_eq!(split(7, usize::MAX, usize::MAX), (1, 7));
        assert_eq!(split(12, 2, usize::MAX), (2, 6));
        assert_eq!(split(12, usize::MAX, 3), (4, 3));
        assert_eq!(split(7, 2, 2), (2, 2));
        assert_eq!(split(1, 1, 1), (1, 1));
    }

    #[test]
    fn bounds_cover_every_choice() {
        // 4 × 5 × 6: TT ranks at most (1, 4, 6, 1): cores 16 + 120 + 36.
        let b = bounds(&[4, 5, 6], &[usize::MAX; 4], false).unwrap();
        assert_eq!((b.gram, b.cores), (6, 4 * 4 + 4 * 5 * 6 + 6 * 6));
        assert_eq!(offsets(&[4, 5, 6], &[1, 2, 3, 1]), vec![0, 8, 38, 56]);
    }
}
