//! LiFE (Linear Fascicle Evaluation) connectome evaluation: the sparse Tucker products of
//! M = Φ ×₁ D and the SBBNNLS solver on top (Caiafa and Pestilli's ENCODE model; the GPU
//! mappings of the seed paper, `shared/specs/life.md`).
//!
//! Φ is a sparse Na × Nv × Nf tensor (atoms, voxels, fibres) given as COO entries
//! (a_k, v_k, f_k, φ_k); D is the Nθ × Na dictionary (column-major, leading dimension ldd).
//! M is the (Nθ·Nv) × Nf matrix whose column f holds, for each voxel v, Σ φ_k·D[:, a_k] over
//! the entries of (v, f). With Y an Nθ × Nv matrix (column v the signal of voxel v):
//!
//! ```text
//! DSC  Y := beta·Y + M·w        Y[:, v_k] += φ_k·w[f_k]·D[:, a_k]
//! WC   w := beta·w + Mᵀ·Y       w[f_k]    += φ_k·⟨D[:, a_k], Y[:, v_k]⟩
//! ```
//!
//! - [`LifePlan`]: Φ validated and laid out once for both products: the entries by voxel (DSC:
//!   a voxel's column of Y is one task's; WC: each entry's term is computed voxel by voxel,
//!   Y[:, v] read once), and each fibre's entries' places (WC then sums its terms, one task
//!   per weight). Every sum runs in a fixed order, so results are bitwise reproducible on a
//!   backend (no atomics).
//! - [`mw`], [`mty`]: the two products.
//! - [`sbbnnls`]: min ½‖M·w − b‖² subject to w ≥ 0 by the subspace Barzilai–Borwein
//!   projected gradient of Kim, Sra and Dhillon, as the seed's Algorithm 1 states it: with g
//!   = Mᵀ(M·w − b) and g̃ its projection (g̃_f = 0 where w_f = 0 and g_f > 0),
//!   w := max(w − α·g̃, 0), α = ‖g̃‖²/‖M·g̃‖² at even iterations (0-based) and
//!   ‖M·g̃‖²/‖MᵀM·g̃‖² at odd ones.
//!
//! CPU backend: `cpu.rs` (rayon over voxels and fibres). CUDA backend: `cuda.rs`. Both make
//! the same passes; within a sum the orders differ (CUDA spreads the directions over a warp's
//! lanes and fuses multiply-adds), so the backends agree to rounding, not bit for bit.

pub mod capi;
pub mod cpu;
pub mod cuda;

use crate::core::check::{check_extent, check_ld, check_len, fits_i32, needed, nonneg, not_null};
use crate::core::error::{Error, Result};
use crate::core::handle::{Handle, State};
use crate::core::index_base::check_index_base;
use crate::core::memory::{common_space, ArgPtr, Space};

/// A COO tensor Φ owned by the caller of the safe API: `nnz` entries (atoms[k], voxels[k],
/// fibers[k], values[k]) with indices of base `base` (0 or 1), and the sizes of its modes and
/// of the dictionary's Nθ.
#[derive(Clone, Debug, PartialEq)]
pub struct Coo {
    pub ntheta: usize,
    pub natoms: usize,
    pub nvoxels: usize,
    pub nfibers: usize,
    pub atoms: Vec<i32>,
    pub voxels: Vec<i32>,
    pub fibers: Vec<i32>,
    pub values: Vec<f64>,
    pub base: i32,
}

impl Coo {
    pub fn nnz(&self) -> usize {
        self.values.len()
    }
}

/// Φ laid out for both products (0-based, host memory): the entries by voxel, those of voxel v
/// at `vox_ptr[v] .. vox_ptr[v + 1]`, by atom within a voxel (then in the input's order), so
/// that the entries of one (voxel, atom) pair are adjacent: DSC adds their coefficients
/// φ·w[f] before it reads D[:, a] once for them, and WC computes ⟨D[:, a], Y[:, v]⟩ once for
/// them (it computes each entry's term φ·⟨D[:, a], Y[:, v]⟩ voxel by voxel, reading Y[:, v]
/// once). For WC's sums by fibre, the places of fibre f's entries in that order are
/// `wc_perm[fib_ptr[f] .. fib_ptr[f + 1]]`, in the input's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    pub ntheta: usize,
    pub natoms: usize,
    pub nvoxels: usize,
    pub nfibers: usize,
    pub vox_ptr: Vec<i64>,
    pub dsc_atom: Vec<i32>,
    pub dsc_fib: Vec<i32>,
    pub dsc_val: Vec<f64>,
    pub fib_ptr: Vec<i64>,
    pub wc_perm: Vec<i64>,
}

/// Group pointers of a stable counting sort of `keys` (0-based, < groups) and each entry's
/// place.
fn counting_sort(keys: &[i32], groups: usize) -> (Vec<i64>, Vec<usize>) {
    let mut ptr = vec![0i64; groups + 1];
    for &k in keys {
        ptr[k as usize + 1] += 1;
    }
    for g in 0..groups {
        ptr[g + 1] += ptr[g];
    }
    let mut next: Vec<i64> = ptr[..groups].to_vec();
    let place = keys
        .iter()
        .map(|&k| {
            let p = next[k as usize];
            next[k as usize] += 1;
            p as usize
        })
        .collect();
    (ptr, place)
}

/// `src` scattered to `place` (a permutation).
fn scatter<E: Copy + Default>(src: &[E], place: &[usize]) -> Vec<E> {
    let mut out = vec![E::default(); src.len()];
    for (&p, &x) in place.iter().zip(src) {
        out[p] = x;
    }
    out
}

impl Layout {
    /// The layout of validated 0-based entries.
    #[allow(clippy::too_many_arguments)]
    pub fn build(ntheta: usize, natoms: usize, nvoxels: usize, nfibers: usize, atoms: &[i32], voxels: &[i32], fibers: &[i32], values: &[f64]) -> Layout {
        // By atom, then (stably) by voxel: by (voxel, atom, input position).
        let (_, by_atom) = counting_sort(atoms, natoms);
        let (vox_ptr, by_vox_of_atom_order) = counting_sort(&scatter(voxels, &by_atom), nvoxels);
        let by_vox: Vec<usize> = by_atom.iter().map(|&p| by_vox_of_atom_order[p]).collect();
        let (fib_ptr, by_fib) = counting_sort(fibers, nfibers);
        let mut wc_perm = vec![0i64; by_fib.len()];
        for (&f, &v) in by_fib.iter().zip(&by_vox) {
            wc_perm[f] = v as i64;
        }
        Layout {
            ntheta,
            natoms,
            nvoxels,
            nfibers,
            vox_ptr,
            dsc_atom: scatter(atoms, &by_vox),
            dsc_fib: scatter(fibers, &by_vox),
            dsc_val: scatter(values, &by_vox),
            fib_ptr,
            wc_perm,
        }
    }

    pub fn nnz(&self) -> usize {
        self.dsc_val.len()
    }
}

/// The first bad entry of a COO (host copies): the array named and why; the indices are
/// shifted to 0-based in place when all are good.
fn validate(idx: [(&mut [i32], usize, &'static str); 3], values: &[f64], base: i32) -> Result<()> {
    for (a, n, name) in idx {
        for (k, x) in a.iter_mut().enumerate() {
            let z = *x as i64 - base as i64;
            if z < 0 || z >= n as i64 {
                let hi = n as i64 - 1 + base as i64;
                let range = if n == 0 { "empty: its mode has size 0".to_string() } else { format!("out of [{base}, {hi}]") };
                return Err(Error::arg(name, format!("({name}[{k}] = {x}) is {range} (index_base = {base})")));
            }
            *x = z as i32;
        }
    }
    if let Some(k) = values.iter().position(|v| !v.is_finite()) {
        return Err(Error::arg("values", format!("(values[{k}] = {}) must be finite", values[k])));
    }
    Ok(())
}

/// Where a plan's layout lives.
pub(crate) enum Store {
    Host(Layout),
    Cuda(cuda::LifeDevice),
}

/// An opaque LiFE plan (`numgpu_life_plan` in C): Φ validated and laid out for both products
/// by `numgpu_life_plan_create` on a handle's backend (its data lives there: host memory, or
/// memory of the handle's CUDA device), used by `numgpu_dlife_mw`, `numgpu_dlife_mty` and
/// `numgpu_dlife_sbbnnls` through any handle of that backend and device, released by
/// `numgpu_life_plan_destroy`.
pub struct LifePlan {
    pub(crate) ntheta: usize,
    pub(crate) natoms: usize,
    pub(crate) nvoxels: usize,
    pub(crate) nfibers: usize,
    pub(crate) nnz: usize,
    pub(crate) store: Store,
}

impl LifePlan {
    pub fn ntheta(&self) -> usize {
        self.ntheta
    }
    pub fn natoms(&self) -> usize {
        self.natoms
    }
    pub fn nvoxels(&self) -> usize {
        self.nvoxels
    }
    pub fn nfibers(&self) -> usize {
        self.nfibers
    }
    pub fn nnz(&self) -> usize {
        self.nnz
    }
    /// The CUDA device the data lives on, `None` on the CPU backend.
    pub fn device(&self) -> Option<i32> {
        match &self.store {
            Store::Host(_) => None,
            Store::Cuda(d) => Some(d.dev.ordinal),
        }
    }
}

/// `len` elements at `p` (in `space`: host memory, or device memory of the handle's device)
/// as a vector.
///
/// # Safety
/// `p` is valid for `len` reads in its space.
unsafe fn to_host<E: Copy + Default>(h: &mut Handle, p: *const E, len: usize, space: Space) -> Result<Vec<E>> {
    if len == 0 {
        return Ok(Vec::new());
    }
    if space == Space::Host {
        return Ok(std::slice::from_raw_parts(p, len).to_vec());
    }
    let mut v = vec![E::default(); len];
    h.memcpy(v.as_mut_ptr() as *mut std::ffi::c_void, p as *const std::ffi::c_void, len * size_of::<E>())?;
    Ok(v)
}

/// Builds a plan from Φ in COO form (see the module docs and `numgpu_life_plan_create`):
/// validates every entry (indices in range for `index_base`, values finite) and lays Φ out
/// for both products on the handle's backend. The arrays are host memory or device memory of
/// the handle's device and may be freed after the call.
///
/// # Safety
/// Each array is NULL or valid for `nnz` reads.
#[allow(clippy::too_many_arguments)]
pub unsafe fn plan_create(
    h: &mut Handle,
    ntheta: i64,
    natoms: i64,
    nvoxels: i64,
    nfibers: i64,
    nnz: i64,
    atoms: *const i32,
    voxels: *const i32,
    fibers: *const i32,
    index_base: i32,
    values: *const f64,
) -> Result<LifePlan> {
    let [nt, na, nv, nf, nz] = sizes(ntheta, natoms, nvoxels, nfibers, nnz)?;
    let index_base = check_index_base(index_base)?;
    let arrays: [ArgPtr; 4] = [(atoms as _, "atoms"), (voxels as _, "voxels"), (fibers as _, "fibers"), (values as _, "values")];
    if nz > 0 {
        for (p, name) in arrays {
            not_null(p, name)?;
        }
        crate::core::check::check_array::<f64>(nz, "values")?;
    }
    let space = common_space(h, &arrays)?;
    let (mut a, mut v, mut f) = (to_host(h, atoms, nz, space)?, to_host(h, voxels, nz, space)?, to_host(h, fibers, nz, space)?);
    let vals = to_host(h, values, nz, space)?;
    validate([(&mut a, na, "atoms"), (&mut v, nv, "voxels"), (&mut f, nf, "fibers")], &vals, index_base)?;
    build(h, [nt, na, nv, nf], &a, &v, &f, &vals)
}

/// The sizes of a plan (Nθ, Na, Nv, Nf, nnz), each >= 0 and the first four within the
/// kernels' 32-bit indices.
fn sizes(ntheta: i64, natoms: i64, nvoxels: i64, nfibers: i64, nnz: i64) -> Result<[usize; 5]> {
    let nt = nonneg(ntheta, "ntheta")?;
    let na = nonneg(natoms, "natoms")?;
    let nv = nonneg(nvoxels, "nvoxels")?;
    let nf = nonneg(nfibers, "nfibers")?;
    let nz = nonneg(nnz, "nnz")?;
    // The kernels index Nθ and the modes' sizes in 32 bits (the indices are int32).
    for (v, name) in [(nt, "ntheta"), (na, "natoms"), (nv, "nvoxels"), (nf, "nfibers")] {
        fits_i32(v, name)?;
    }
    Ok([nt, na, nv, nf, nz])
}

/// The plan of validated 0-based entries (host copies) on the handle's backend.
fn build(h: &mut Handle, [nt, na, nv, nf]: [usize; 4], a: &[i32], v: &[i32], f: &[i32], vals: &[f64]) -> Result<LifePlan> {
    let layout = Layout::build(nt, na, nv, nf, a, v, f, vals);
    let store = match &mut h.state {
        State::Cpu => Store::Host(layout),
        State::Cuda(ch) => Store::Cuda(cuda::upload(ch, &layout)?),
    };
    Ok(LifePlan { ntheta: nt, natoms: na, nvoxels: nv, nfibers: nf, nnz: vals.len(), store })
}

/// The three modes' names, as a subscript's message gives them.
const MODES: [&str; 3] = ["atom", "voxel", "fibre"];

/// Builds a plan from Φ as MATLAB's sparse tensor stores it (ENCODE's `fe.life.M.Phi`):
/// `subs`, nnz × 3 doubles, column-major (column 1 the atoms, 2 the voxels, 3 the fibres),
/// 1-based; `values`, nnz doubles. Each subscript must be an integer in [1, its mode's size].
/// Otherwise as [`plan_create`].
///
/// # Safety
/// `subs` is NULL or valid for 3·nnz reads, `values` for nnz.
#[allow(clippy::too_many_arguments)]
pub unsafe fn plan_create_subs(h: &mut Handle, ntheta: i64, natoms: i64, nvoxels: i64, nfibers: i64, nnz: i64, subs: *const f64, values: *const f64) -> Result<LifePlan> {
    let [nt, na, nv, nf, nz] = sizes(ntheta, natoms, nvoxels, nfibers, nnz)?;
    let arrays: [ArgPtr; 2] = [(subs as _, "subs"), (values as _, "values")];
    if nz > 0 {
        not_null(subs, "subs")?;
        not_null(values, "values")?;
        crate::core::check::check_span::<f64>(nz, nz, 3, "subs")?;
    }
    let space = common_space(h, &arrays)?;
    let (sub, vals) = (to_host(h, subs, 3 * nz, space)?, to_host(h, values, nz, space)?);
    let mut idx = [vec![0i32; nz], vec![0i32; nz], vec![0i32; nz]];
    for (c, (out, n)) in idx.iter_mut().zip([na, nv, nf]).enumerate() {
        for (k, (o, &x)) in out.iter_mut().zip(&sub[c * nz..(c + 1) * nz]).enumerate() {
            if !(x >= 1.0 && x <= n as f64 && x.fract() == 0.0) {
                return Err(Error::arg("subs", format!("(subs[{}] = {x}, the {} subscript of entry {k}) must be an integer in [1, {n}]", c * nz + k, MODES[c])));
            }
            *o = x as i32 - 1;
        }
    }
    let [mut a, mut v, mut f] = idx;
    validate([(&mut a, na, "subs"), (&mut v, nv, "subs"), (&mut f, nf, "subs")], &vals, 0)?;
    build(h, [nt, na, nv, nf], &a, &v, &f, &vals)
}

/// The error when `p` does not belong to the handle's backend and device.
fn check_owner(h: &Handle, p: &LifePlan) -> Result<()> {
    let here = match &h.state {
        State::Cpu => None,
        State::Cuda(ch) => Some(ch.dev.ordinal),
    };
    if here != p.device() {
        let name = |d: Option<i32>| d.map_or("the CPU backend".to_string(), |d| format!("CUDA device {d}"));
        return Err(Error::arg("p", format!("(p) lives on {} but the handle runs on {}", name(p.device()), name(here))));
    }
    Ok(())
}

/// D (Nθ × Na, leading dimension `ldd`): not NULL, ldd, extent.
fn check_dictionary(p: &LifePlan, d: *const f64, ldd: i64) -> Result<usize> {
    not_null(d, "D")?;
    let ldd = check_ld(ldd, p.ntheta, "ldd", "ntheta")?;
    check_extent::<f64>(ldd, p.natoms, 0, 1, "D")?;
    Ok(ldd)
}

/// An Nθ × Nv signal matrix (`Y` or `b`) with its leading dimension.
fn check_signal(p: &LifePlan, y: *const f64, ld: i64, name: &'static str, ld_name: &'static str) -> Result<usize> {
    not_null(y, name)?;
    let ld = check_ld(ld, p.ntheta, ld_name, "ntheta")?;
    check_extent::<f64>(ld, p.nvoxels, 0, 1, name)?;
    Ok(ld)
}

/// One validated product: D, the weights w (Nf) and the signal Y (Nθ × Nv).
#[derive(Clone, Copy, Debug)]
pub struct Product {
    pub d: *const f64,
    pub ldd: usize,
    pub w: *mut f64,
    pub y: *mut f64,
    pub ldy: usize,
    pub beta: f64,
}

/// DSC: Y := beta·Y + M·w (Y is Nθ × Nv with leading dimension ldy, w has Nf entries). beta =
/// 0 does not read Y (NaN there does not propagate). w is not read when Φ has no entries.
///
/// # Safety
/// D, w and Y are valid for their extents, all host memory or all device memory of the
/// handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn mw(h: &mut Handle, p: &LifePlan, d: *const f64, ldd: i64, w: *const f64, beta: f64, y: *mut f64, ldy: i64) -> Result<()> {
    check_owner(h, p)?;
    let ldd = check_dictionary(p, d, ldd)?;
    not_null(w, "w")?;
    let ldy = check_signal(p, y, ldy, "Y", "ldy")?;
    if p.ntheta == 0 || p.nvoxels == 0 {
        return Ok(());
    }
    let args: [ArgPtr; 3] = [(d as _, "D"), (w as _, "w"), (y as _, "Y")];
    let space = common_space(h, &args)?;
    let pr = Product { d, ldd, w: w as *mut f64, y, ldy, beta };
    match (&mut h.state, &p.store) {
        (State::Cpu, Store::Host(l)) => {
            cpu::mw(l, &pr);
            Ok(())
        }
        (State::Cuda(ch), Store::Cuda(dev)) => cuda::mw(ch, p, dev, &pr, space),
        _ => unreachable!("check_owner matched the plan to the handle"),
    }
}

/// WC: w := beta·w + Mᵀ·Y (see [`mw`] for the shapes). beta = 0 does not read w.
///
/// # Safety
/// As [`mw`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn mty(h: &mut Handle, p: &LifePlan, d: *const f64, ldd: i64, y: *const f64, ldy: i64, beta: f64, w: *mut f64) -> Result<()> {
    check_owner(h, p)?;
    let ldd = check_dictionary(p, d, ldd)?;
    let ldy = check_signal(p, y, ldy, "Y", "ldy")?;
    not_null(w, "w")?;
    if p.nfibers == 0 {
        return Ok(());
    }
    let args: [ArgPtr; 3] = [(d as _, "D"), (y as _, "Y"), (w as _, "w")];
    let space = common_space(h, &args)?;
    let pr = Product { d, ldd, w, y: y as *mut f64, ldy, beta };
    match (&mut h.state, &p.store) {
        (State::Cpu, Store::Host(l)) => {
            cpu::mty(l, &pr);
            Ok(())
        }
        (State::Cuda(ch), Store::Cuda(dev)) => cuda::mty(ch, p, dev, &pr, space),
        _ => unreachable!("check_owner matched the plan to the handle"),
    }
}

/// One validated SBBNNLS call: b (Nθ × Nv, leading dimension `ldb`), w in and out.
#[derive(Clone, Copy, Debug)]
pub struct Solve {
    pub d: *const f64,
    pub ldd: usize,
    pub b: *const f64,
    pub ldb: usize,
    pub w: *mut f64,
    pub max_iters: usize,
    pub tol: f64,
}

/// The outcome of [`sbbnnls`]: iterations done, ½‖M·w − b‖² at the returned w.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solved {
    pub iters: usize,
    pub objective: f64,
}

/// What the SBBNNLS iteration needs of a backend: the vectors are the solver's (w and its
/// scratch), the sums of squares are exact functions of their bits (fixed order).
pub(crate) trait Engine {
    /// r := M·w − b.
    fn residual(&mut self) -> Result<()>;
    /// g := Mᵀ·r; then g̃ (the projected gradient) and ‖g̃‖².
    fn gradient(&mut self) -> Result<f64>;
    /// v := M·g̃ and ‖v‖².
    fn m_gt(&mut self) -> Result<f64>;
    /// u := Mᵀ·v and ‖u‖².
    fn mt_v(&mut self) -> Result<f64>;
    /// w := max(w − alpha·g̃, 0).
    fn step(&mut self, alpha: f64) -> Result<()>;
    /// ‖r‖².
    fn residual_norm2(&mut self) -> Result<f64>;
}

/// The SBBNNLS iteration on a backend (see the module docs). w is projected on w ≥ 0 first
/// (step 0). Stops after `max_iters` updates, or before an update when ‖g̃‖ ≤ tol·‖g̃₀‖ (g̃₀:
/// the projected gradient at the projected start), or g̃ = 0, or the step is not finite and
/// positive (rounding on a converged problem).
pub(crate) fn iterate(e: &mut impl Engine, s: &Solve) -> Result<Solved> {
    e.step(0.0)?;
    let mut g0 = None;
    let mut iters = 0;
    while iters < s.max_iters {
        e.residual()?;
        let gg = e.gradient()?;
        let first = *g0.get_or_insert(gg);
        if gg == 0.0 || gg <= s.tol * s.tol * first {
            break;
        }
        let vv = e.m_gt()?;
        let alpha = if iters % 2 == 0 { gg / vv } else { vv / e.mt_v()? };
        if !(alpha.is_finite() && alpha > 0.0) {
            break;
        }
        e.step(alpha)?;
        iters += 1;
    }
    e.residual()?;
    Ok(Solved { iters, objective: 0.5 * e.residual_norm2()? })
}

/// SBBNNLS: min ½‖M·w − b‖² subject to w ≥ 0 (see the module docs and [`iterate`]), from the
/// start w (Nf entries, overwritten by the solution). `tol` ≥ 0 (0: run max_iters
/// iterations). The call returns when done.
///
/// # Safety
/// D, b and w are valid for their extents, all host memory or all device memory of the
/// handle's device.
#[allow(clippy::too_many_arguments)]
pub unsafe fn sbbnnls(h: &mut Handle, p: &LifePlan, d: *const f64, ldd: i64, b: *const f64, ldb: i64, w: *mut f64, max_iters: i64, tol: f64) -> Result<Solved> {
    check_owner(h, p)?;
    let ldd = check_dictionary(p, d, ldd)?;
    let ldb = check_signal(p, b, ldb, "b", "ldb")?;
    not_null(w, "w")?;
    let max_iters = nonneg(max_iters, "max_iters")?;
    // iters reports the count in an int32_t.
    fits_i32(max_iters, "max_iters")?;
    if !(tol >= 0.0 && tol.is_finite()) {
        return Err(Error::arg("tol", format!("(tol = {tol}) must be finite and >= 0")));
    }
    let args: [ArgPtr; 3] = [(d as _, "D"), (b as _, "b"), (w as _, "w")];
    let space = common_space(h, &args)?;
    let s = Solve { d, ldd, b, ldb, w, max_iters, tol };
    match (&mut h.state, &p.store) {
        (State::Cpu, Store::Host(l)) => cpu::sbbnnls(l, &s),
        (State::Cuda(ch), Store::Cuda(dev)) => cuda::sbbnnls(ch, p, dev, &s, space),
        _ => unreachable!("check_owner matched the plan to the handle"),
    }
}

/// Safe [`plan_create`] from an owned COO (its four arrays of equal length, checked).
pub fn plan_from_coo(h: &mut Handle, c: &Coo) -> Result<LifePlan> {
    let nz = c.nnz();
    for (len, name) in [(c.atoms.len(), "atoms"), (c.voxels.len(), "voxels"), (c.fibers.len(), "fibers")] {
        if len != nz {
            return Err(Error::arg(name, format!("({name}) has {len} entries but values has {nz}")));
        }
    }
    // SAFETY: the vectors hold nnz entries each.
    unsafe {
        plan_create(h, c.ntheta as i64, c.natoms as i64, c.nvoxels as i64, c.nfibers as i64, nz as i64, c.atoms.as_ptr(), c.voxels.as_ptr(), c.fibers.as_ptr(), c.base, c.values.as_ptr())
    }
}

/// Safe [`mw`] on host slices (D of ldd·Na, w of Nf, Y of ldy·Nv elements, checked).
#[allow(clippy::too_many_arguments)]
pub fn mw_host(h: &mut Handle, p: &LifePlan, d: &[f64], ldd: i64, w: &[f64], beta: f64, y: &mut [f64], ldy: i64) -> Result<()> {
    check_len(d.len(), needed(ldd, p.natoms as i64, 0, 1), "D")?;
    check_len(w.len(), p.nfibers, "w")?;
    check_len(y.len(), needed(ldy, p.nvoxels as i64, 0, 1), "Y")?;
    // SAFETY: the slices cover the extents the checked sizes reach.
    unsafe { mw(h, p, d.as_ptr(), ldd, w.as_ptr(), beta, y.as_mut_ptr(), ldy) }
}

/// Safe [`mty`] on host slices.
#[allow(clippy::too_many_arguments)]
pub fn mty_host(h: &mut Handle, p: &LifePlan, d: &[f64], ldd: i64, y: &[f64], ldy: i64, beta: f64, w: &mut [f64]) -> Result<()> {
    check_len(d.len(), needed(ldd, p.natoms as i64, 0, 1), "D")?;
    check_len(y.len(), needed(ldy, p.nvoxels as i64, 0, 1), "Y")?;
    check_len(w.len(), p.nfibers, "w")?;
    // SAFETY: as above.
    unsafe { mty(h, p, d.as_ptr(), ldd, y.as_ptr(), ldy, beta, w.as_mut_ptr()) }
}

/// Safe [`sbbnnls`] on host slices.
#[allow(clippy::too_many_arguments)]
pub fn sbbnnls_host(h: &mut Handle, p: &LifePlan, d: &[f64], ldd: i64, b: &[f64], ldb: i64, w: &mut [f64], max_iters: i64, tol: f64) -> Result<Solved> {
    check_len(d.len(), needed(ldd, p.natoms as i64, 0, 1), "D")?;
    check_len(b.len(), needed(ldb, p.nvoxels as i64, 0, 1), "b")?;
    check_len(w.len(), p.nfibers, "w")?;
    // SAFETY: as above.
    unsafe { sbbnnls(h, p, d.as_ptr(), ldd, b.as_ptr(), ldb, w.as_mut_ptr(), max_iters, tol) }
}
