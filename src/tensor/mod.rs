//! Dense tensors in Kolda and Bader's conventions: the Khatri–Rao product and the MTTKRP
//! (matricised tensor times Khatri–Rao product), the kernels of CP decompositions.
//!
//! A tensor X of order d (d ≥ 3) and dimensions I_1 × … × I_d is stored column-major: entry
//! (i_1, …, i_d) (0-based) at i_1 + I_1·(i_2 + I_2·(i_3 + …)). Modes are 0-based at the C API
//! (`mode` = n − 1 for Kolda and Bader's mode n).
//!
//! ```text
//! Khatri–Rao:  (A ⊙ B)(j + i·J, r) = A(i, r)·B(j, r)         A I × R, B J × R, A ⊙ B IJ × R
//! MTTKRP:      M = X_(n) · (U_d ⊙ … ⊙ U_{n+1} ⊙ U_{n−1} ⊙ … ⊙ U_1)        M I_n × R
//! ```
//!
//! X_(n) is the mode-n unfolding (I_n × ∏_{k≠n} I_k, its columns ordered with the lowest
//! remaining mode fastest), so the Khatri–Rao product of the other factors is taken in reverse
//! mode order: its row index is that same column index, i_1 + I_1·(i_2 + …) over the modes
//! k ≠ n. The product K of the other factors is formed once (on CUDA for a rank of at most
//! 64 its rows are formed inside the contraction instead, K never stored); X is never unfolded
//! or permuted. With L = ∏_{k<n} I_k and Q = ∏_{k>n} I_k, X is an L × I_n × Q array and
//! (see [`Contraction`]):
//! - L = 1 (the first mode): X is the I_n × Q matrix X_(n) itself: M = X·K, one GEMM;
//! - Q = 1 (the last mode): X is the L × I_n matrix X_(n)ᵀ: M = Xᵀ·K, one GEMM with op = T on
//!   the buffer (lda = L: the seed's remark that X_(3) needs lda = IJ·… is wrong);
//! - otherwise, slice q of X (L × I_n, lda = L, L·I_n apart) against rows q·L … q·L + L − 1 of
//!   K: M = Σ_q X_qᵀ·K_q, a strided batch of GEMMs and a reduction (the seed's scheme).
//!
//! Both backends split a long sum into pieces whose partial products are added in a fixed
//! order (split-K when one product has too few output tiles to fill the machine), so results do
//! not depend on the thread count; the CPU backend's pieces are OpenBLAS `?gemm` calls under
//! rayon, the CUDA backend's a kernel for products of at most 64 columns (`tensor_skinny`: the
//! MTTKRP of rank ≤ 64 reads X once, every mode alike) or else the library's own batched GEMM
//! (`gemm_batched::cuda`); see `cuda.rs`.

pub mod capi;
pub mod cp;
pub mod cpu;
pub mod cuda;
pub mod engine;
pub mod ht;
pub mod train;

use crate::core::check::{check_ld, check_len, check_span, nonneg, not_null, space_of};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::memory::ArgPtr;
use crate::lapack::Blas;
use std::ffi::c_void;

/// One validated call of [`khatri_rao`] (m, n, r ≥ 1): C = A ⊙ B.
#[derive(Clone, Copy, Debug)]
pub struct KhatriRao<T> {
    pub m: usize,
    pub n: usize,
    pub r: usize,
    pub a: *const T,
    pub lda: usize,
    pub b: *const T,
    pub ldb: usize,
    pub c: *mut T,
    pub ldc: usize,
}

/// A factor of a Khatri–Rao product: `dim × rank` at `ptr` with leading dimension `ld`.
#[derive(Clone, Copy, Debug)]
pub struct Factor<T> {
    pub ptr: *const T,
    pub ld: usize,
    pub dim: usize,
}

/// One validated call of [`mttkrp`] (I_mode ≥ 1, rank ≥ 1).
#[derive(Clone, Debug)]
pub struct Mttkrp<T> {
    pub dims: Vec<usize>,
    pub mode: usize,
    pub rank: usize,
    /// ∏ dims elements (NULL possible when that is 0).
    pub x: *const T,
    /// The factors, one per mode (U[mode] not referenced).
    pub u: Vec<*const T>,
    pub ldu: Vec<usize>,
    /// dims[mode] × rank, leading dimension `ldm`, out.
    pub m: *mut T,
    pub ldm: usize,
}

// SAFETY: these carry the caller's pointers; the backends read A, B, X and the factors and
// write C or M (checked distinct from the inputs).
unsafe impl<T: Send> Send for KhatriRao<T> {}
unsafe impl<T: Sync> Sync for KhatriRao<T> {}
unsafe impl<T: Send> Send for Mttkrp<T> {}
unsafe impl<T: Sync> Sync for Mttkrp<T> {}
unsafe impl<T: Send> Send for Factor<T> {}
unsafe impl<T: Sync> Sync for Factor<T> {}

/// A sum of products M = Σ_q op(A_q)·op(B_q) over `slices` slices, in a fixed order: how
/// M = X_(n)·K reads X and K (see the module docs), and how the decompositions form their Gram
/// matrices (A = B = X or a factor). For slice q < `slices` and contraction index κ < k,
/// op(A)(i, κ) is A at `q·a_slice + κ·a_step + i·(lda or 1)` (op = N: element (i, κ) at
/// i + κ·lda; op = T: at κ + i·lda), and op(B)(κ, j) is B at `q·b_slice + κ + j·ldb` (op(B) =
/// B) or `q·b_slice + κ·ldb + j` (`tb`: op(B) = Bᵀ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contraction {
    /// op(A) = Aᵀ.
    pub trans: bool,
    /// op(B) = Bᵀ.
    pub tb: bool,
    /// Rows of M (I_n), columns of M (the rank), the length of one slice's sum.
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub lda: usize,
    /// Elements of X between consecutive κ: lda (op = N) or 1 (op = T).
    pub a_step: usize,
    pub slices: usize,
    pub a_slice: usize,
    pub b_slice: usize,
    pub ldb: usize,
}

impl Contraction {
    /// Elements of B between consecutive κ.
    pub fn b_step(&self) -> usize {
        if self.tb {
            self.ldb
        } else {
            1
        }
    }
}

impl<T> Mttkrp<T> {
    /// ∏_{k<mode} I_k, the mode's size and ∏_{k>mode} I_k.
    pub fn lnq(&self) -> (usize, usize, usize) {
        let left = self.dims[..self.mode].iter().product();
        let right = self.dims[self.mode + 1..].iter().product();
        (left, self.dims[self.mode], right)
    }

    /// Rows of K, ∏_{k≠mode} I_k (0: M = 0).
    pub fn others(&self) -> usize {
        let (l, _, q) = self.lnq();
        l * q
    }

    /// The factors of K, the lowest mode (the fastest row index) first.
    pub fn factors(&self) -> Vec<Factor<T>> {
        (0..self.dims.len()).filter(|&k| k != self.mode).map(|k| Factor { ptr: self.u[k], ld: self.ldu[k], dim: self.dims[k] }).collect()
    }

    /// How the product reads X and K.
    pub fn contraction(&self) -> Contraction {
        let (l, i, q) = self.lnq();
        let (rank, ldb) = (self.rank, l * q);
        if l == 1 {
            // X_(n) is the buffer: I_n × Q, column-major.
            return Contraction { trans: false, tb: false, m: i, n: rank, k: q, lda: i, a_step: i, slices: 1, a_slice: 0, b_slice: 0, ldb };
        }
        Contraction { trans: true, tb: false, m: i, n: rank, k: l, lda: l, a_step: 1, slices: q, a_slice: l * i, b_slice: l, ldb }
    }
}

/// An argument that must be host memory whatever the space of the data (a parameter array).
fn host_param(p: *const c_void, name: &'static str, what: &str) -> Result<()> {
    match crate::cuda::device_of(p) {
        Some(d) => Err(Error::arg(name, format!("({name}) is memory of CUDA device {d}, but {what} is host memory"))),
        None => Ok(()),
    }
}

/// C = A ⊙ B: the Khatri–Rao (column-wise Kronecker) product of A (m × r) and B (n × r),
/// C(j + i·n, k) = A(i, k)·B(j, k), C (m·n) × r. m, n or r = 0 touches nothing.
///
/// # Safety
/// Every pointer is NULL or valid for the extent its sizes and leading dimension describe,
/// all in host memory or all in device memory of the handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn khatri_rao<T: Blas>(h: &mut Handle, m: i64, n: i64, r: i64, a: *const T, lda: i64, b: *const T, ldb: i64, c: *mut T, ldc: i64) -> Result<()> {
    let (mu, nu, ru) = (nonneg(m, "m")?, nonneg(n, "n")?, nonneg(r, "r")?);
    let rows = mu.checked_mul(nu).ok_or_else(|| Error::unsupported_arg("n", format!("(n = {n}) times m = {m} rows of C exceed the address space")))?;
    let ldau = check_ld(lda, mu, "lda", "m")?;
    let ldbu = check_ld(ldb, nu, "ldb", "n")?;
    let ldcu = check_ld(ldc, rows, "ldc", "m·n")?;
    if rows == 0 || ru == 0 {
        return Ok(());
    }
    not_null(a, "A")?;
    check_span::<T>(mu, ldau, ru, "A")?;
    not_null(b, "B")?;
    check_span::<T>(nu, ldbu, ru, "B")?;
    not_null(c, "C")?;
    check_span::<T>(rows, ldcu, ru, "C")?;
    let args: [ArgPtr; 3] = [(a as _, "A"), (b as _, "B"), (c as _, "C")];
    let space = space_of(h, &args, &[], &["C"], 1)?;
    let p = KhatriRao { m: mu, n: nu, r: ru, a, lda: ldau, b, ldb: ldbu, c, ldc: ldcu };
    match &mut h.state {
        State::Cpu => cpu::khatri_rao(&p),
        State::Cuda(ch) => cuda::khatri_rao(ch, &p, space),
    }
}

/// The dimensions of an order-`ndim` tensor: ndim ≥ 3, dims not NULL (host memory), each ≥ 0,
/// their product within the address space.
///
/// # Safety
/// `dims` is NULL or valid for `ndim` reads.
unsafe fn tensor_dims<T>(ndim: i32, dims: *const i64) -> Result<Vec<usize>> {
    if ndim < 3 {
        return Err(Error::arg("ndim", format!("(ndim = {ndim}) must be >= 3")));
    }
    not_null(dims, "dims")?;
    host_param(dims as _, "dims", "the array of dimensions")?;
    let dims = std::slice::from_raw_parts(dims, ndim as usize);
    let dims = dims.iter().enumerate().map(|(k, &d)| usize::try_from(d).map_err(|_| Error::arg("dims", format!("(dims[{k}] = {d}) must be >= 0")))).collect::<Result<Vec<usize>>>()?;
    let mut numel = 1usize;
    for &d in &dims {
        numel = numel.checked_mul(d).ok_or_else(|| Error::unsupported_arg("dims", format!("(dims) describe more than 2^64 elements: {dims:?}")))?;
    }
    check_span::<T>(numel, 0, 1, "X")?;
    Ok(dims)
}

/// The dimensions of a tensor to decompose: as [`tensor_dims`], and none 0 (an empty tensor has
/// no decomposition).
///
/// # Safety
/// As [`tensor_dims`].
unsafe fn whole_tensor<T>(ndim: i32, dims: *const i64) -> Result<Vec<usize>> {
    let d = tensor_dims::<T>(ndim, dims)?;
    if let Some(k) = d.iter().position(|&n| n == 0) {
        return Err(Error::arg("dims", format!("(dims[{k}] = 0) must be >= 1: an empty tensor has no decomposition")));
    }
    Ok(d)
}

/// A host output of one element (a count, a fit): not NULL, host memory.
fn host_out<E>(p: *mut E, name: &'static str) -> Result<()> {
    host_out_array(p, 1, name)
}

/// A host array of `len` elements (ranks, offsets): not NULL, host memory, its extent within
/// the address space.
fn host_out_array<E>(p: *const E, len: usize, name: &'static str) -> Result<()> {
    not_null(p, name)?;
    host_param(p as _, name, &format!("the array {name}"))?;
    check_span::<E>(len, 1, 1, name).map(|_| ())
}

/// M = X_(mode)·(U_d ⊙ … ⊙ U_{mode+1} ⊙ U_{mode−1} ⊙ … ⊙ U_1), see the module docs. `dims`,
/// `u` (the array of factor pointers) and `ldu` are host arrays of `ndim` entries; X, the
/// factors and M are all host or all device memory. dims[mode] = 0 or rank = 0 touches
/// nothing; a zero among the other dimensions gives M = 0.
///
/// # Safety
/// `dims`, `u` and `ldu` are NULL or valid for `ndim` reads; X, each U[k] (k ≠ mode) and M
/// are NULL or valid for the extents the sizes and leading dimensions describe.
#[allow(clippy::too_many_arguments)]
pub unsafe fn mttkrp<T: Blas>(h: &mut Handle, ndim: i32, dims: *const i64, x: *const T, mode: i32, rank: i64, u: *const *const T, ldu: *const i64, m: *mut T, ldm: i64) -> Result<()> {
    let dims = tensor_dims::<T>(ndim, dims)?;
    if mode < 0 || mode >= ndim {
        return Err(Error::arg("mode", format!("(mode = {mode}) must be in [0, ndim - 1] = [0, {}]", ndim - 1)));
    }
    let (mode, ranku) = (mode as usize, nonneg(rank, "rank")?);
    if dims[mode] == 0 || ranku == 0 {
        return Ok(());
    }
    let numel: usize = dims.iter().product();
    if numel > 0 {
        not_null(x, "X")?;
    }
    let (uv, lduv) = factor_arrays(&dims, mode, ranku, u, ldu)?;
    not_null(m, "M")?;
    let ldmu = check_ld(ldm, dims[mode], "ldm", "dims[mode]")?;
    check_span::<T>(dims[mode], ldmu, ranku, "M")?;
    let p = Mttkrp { dims, mode, rank: ranku, x, u: uv, ldu: lduv, m, ldm: ldmu };
    // K, the product of the other factors, is formed in the backends' memory.
    check_span::<T>(p.others(), p.others(), ranku, "rank")?;
    let mut args: Vec<ArgPtr> = vec![(x as _, "X"), (m as _, "M")];
    args.extend(p.factors().iter().map(|f| (f.ptr as *const c_void, "U")));
    let space = space_of(h, &args, &[], &["M"], 1)?;
    match &mut h.state {
        State::Cpu => cpu::mttkrp(&p),
        State::Cuda(ch) => cuda::mttkrp(ch, &p, space),
    }
}

/// The factor pointers and leading dimensions of a call: U and ldu not NULL (host memory), and
/// for every mode k ≠ `mode`, U[k] not NULL (unless dims[k] = 0), ldu[k] ≥ max(1, dims[k]),
/// and its extent within the address space.
///
/// # Safety
/// `u` and `ldu` are NULL or valid for `dims.len()` reads.
unsafe fn factor_arrays<T>(dims: &[usize], mode: usize, rank: usize, u: *const *const T, ldu: *const i64) -> Result<(Vec<*const T>, Vec<usize>)> {
    not_null(u, "U")?;
    host_param(u as _, "U", "the array of factor pointers")?;
    not_null(ldu, "ldu")?;
    host_param(ldu as _, "ldu", "the array of leading dimensions")?;
    let (u, ldu) = (std::slice::from_raw_parts(u, dims.len()), std::slice::from_raw_parts(ldu, dims.len()));
    let mut lds = vec![0; dims.len()];
    for k in (0..dims.len()).filter(|&k| k != mode) {
        if dims[k] > 0 && u[k].is_null() {
            return Err(Error::arg("U", format!("(U[{k}]) must not be NULL")));
        }
        let need = dims[k].max(1);
        if ldu[k] < need as i64 {
            return Err(Error::arg("ldu", format!("(ldu[{k}] = {}) must be >= max(1, dims[{k}]) = {need}", ldu[k])));
        }
        lds[k] = ldu[k] as usize;
        check_span::<T>(dims[k], lds[k], rank, "U")?;
    }
    Ok((u.to_vec(), lds))
}

/// Safe [`khatri_rao`] on host slices (each checked to cover its extent).
#[allow(clippy::too_many_arguments)]
pub fn khatri_rao_slices<T: Blas>(h: &mut Handle, m: i64, n: i64, r: i64, a: &[T], lda: i64, b: &[T], ldb: i64, c: &mut [T], ldc: i64) -> Result<()> {
    check_len(a.len(), span(m, lda, r), "A")?;
    check_len(b.len(), span(n, ldb, r), "B")?;
    check_len(c.len(), span(m.max(0).saturating_mul(n.max(0)), ldc, r), "C")?;
    // SAFETY: the slices cover every offset the checked sizes reach.
    unsafe { khatri_rao(h, m, n, r, a.as_ptr(), lda, b.as_ptr(), ldb, c.as_mut_ptr(), ldc) }
}

/// Elements a `rows × cols` matrix with leading dimension `ld` spans: (cols − 1)·ld + rows
/// (0 when empty or invalid, which the checks report).
fn span(rows: i64, ld: i64, cols: i64) -> usize {
    if rows <= 0 || cols <= 0 || ld <= 0 {
        return 0;
    }
    ((cols - 1) as usize).saturating_mul(ld as usize).saturating_add(rows as usize)
}

/// Safe [`mttkrp`] on host slices: `u[k]` is factor k (`u[mode]` is not referenced and may be
/// empty), `ldu[k]` its leading dimension; each slice is checked to cover its extent.
#[allow(clippy::too_many_arguments)]
pub fn mttkrp_slices<T: Blas>(h: &mut Handle, dims: &[i64], x: &[T], mode: i32, rank: i64, u: &[&[T]], ldu: &[i64], m: &mut [T], ldm: i64) -> Result<()> {
    let ndim = dims.len();
    check_len(u.len(), ndim, "U")?;
    check_len(ldu.len(), ndim, "ldu")?;
    if dims.iter().all(|&d| d >= 0) {
        check_len(x.len(), dims.iter().map(|&d| d as usize).fold(1usize, |a, d| a.saturating_mul(d)), "X")?;
        for k in (0..ndim).filter(|&k| k as i32 != mode) {
            check_len(u[k].len(), span(dims[k], ldu[k], rank), "U")?;
        }
        if let Some(&dm) = usize::try_from(mode).ok().and_then(|k| dims.get(k)) {
            check_len(m.len(), span(dm, ldm, rank), "M")?;
        }
    }
    let ptrs: Vec<*const T> = u.iter().map(|s| s.as_ptr()).collect();
    // SAFETY: the slices cover every offset the checked sizes reach; dims, ptrs and ldu have
    // ndim entries.
    unsafe { mttkrp(h, ndim.min(i32::MAX as usize) as i32, dims.as_ptr(), x.as_ptr(), mode, rank, ptrs.as_ptr(), ldu.as_ptr(), m.as_mut_ptr(), ldm) }
}
