#![allow(non_snake_case)]
// The C entry points: each one's doc comment (its header text) states what its pointers must
// cover, which is its safety contract.
#![allow(clippy::missing_safety_doc)]
//! `numgpu_life_plan_create`, `numgpu_life_plan_create_subs`, `numgpu_dlife_mw`, `numgpu_dlife_mty`, `numgpu_dlife_sbbnnls`,
//! `numgpu_life_plan_info`, `numgpu_life_plan_destroy`: convert the C arguments and call the family's Rust API.

use crate::core::index_base::IndexBaseArg;
use super::{mty, mw, plan_create, plan_create_subs, sbbnnls, LifePlan};
use crate::core::error::{numgpu_status, Error};
use crate::core::memory::common_space;
use crate::core::Handle;
use crate::ffi::live::Live;
use crate::ffi::{boundary, deref, deref_mut};
use std::ffi::c_void;

/// The plans `numgpu_life_plan_create` made that `numgpu_life_plan_destroy` has not released:
/// a destroyed plan passed to a product is refused.
static LIVE_PLANS: Live = Live::new();

/// `&*p` for a live plan: `INVALID_VALUE` naming `p` when NULL or not live.
unsafe fn live<'a>(p: *const LifePlan) -> crate::Result<&'a LifePlan> {
    if !p.is_null() && !LIVE_PLANS.contains(p) {
        return Err(Error::arg("p", "(p) is not a live plan: destroyed already, or not made by numgpu_life_plan_create"));
    }
    deref(p, "p")
}

/// Builds a LiFE plan: the sparse tensor Φ (atoms × voxels × fibres) of the Linear Fascicle
/// Evaluation model, given as `nnz` COO entries (atoms[k], voxels[k], fibers[k], values[k]),
/// validated and laid out once for the products `numgpu_dlife_mw` (DSC, y = M·w) and
/// `numgpu_dlife_mty` (WC, w = Mᵀ·y) and for `numgpu_dlife_sbbnnls`, where M = Φ ×₁ D is
/// the (ntheta·nvoxels) × nfibers matrix whose column f holds, in the ntheta rows of voxel v,
/// Σ values[k]·D[:, atoms[k]] over the entries with voxels[k] = v and fibers[k] = f. Repeated
/// (atom, voxel, fibre) entries add up. The plan's data lives on the handle's backend (host
/// memory, or memory of the handle's CUDA device; 24 bytes per entry: the entries sorted by
/// voxel, and the places of each fibre's entries) and is independent of the input arrays,
/// which may be freed after the call. Real LiFE data (ENCODE's `fe.life.M.Phi`, a MATLAB sparse
/// tensor) goes in as MATLAB stores it through `numgpu_life_plan_create_subs`.
///
/// - `h` [in]: handle.
/// - `ntheta` [in]: number of diffusion directions Nθ (rows of the dictionary D), >= 0.
/// - `natoms` [in]: number of dictionary atoms Na (columns of D), >= 0.
/// - `nvoxels` [in]: number of voxels Nv, >= 0.
/// - `nfibers` [in]: number of fibres (fascicles) Nf, the length of w, >= 0.
/// - `nnz` [in]: number of entries of Φ, >= 0.
/// - `atoms`, `voxels`, `fibers` [in]: nnz indices each, in [index_base, n − 1 + index_base]
///   for their mode's size n. Any order; entries of one voxel (fibre) are summed in the order
///   given.
/// - `index_base` [in]: the indices' base, `NUMGPU_INDEX_BASE_ZERO` or
///   `NUMGPU_INDEX_BASE_ONE`.
/// - `values` [in]: nnz finite values (1 for LiFE's binary Φ; S0(v) may be folded in).
/// - `p` [out]: receives the plan, written only on success; release with
///   `numgpu_life_plan_destroy`.
///
/// The arrays are host memory, or all device memory of the handle's device (copied to the
/// host for validation and sorting). The call returns when the plan is ready.
///
/// Errors: `INVALID_VALUE` naming the argument (NULL handle or p, a negative size, index_base
/// not 0 or 1, a NULL array when nnz > 0, an index out of range (the message gives the
/// first: its array, position and value), a value that is NaN or infinite, arrays in
/// different spaces or device memory on the CPU backend); nothing is written then.
/// `NOT_SUPPORTED` (a size above 2^31 − 1), `ALLOC_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_life_plan_create(
    h: *mut Handle,
    ntheta: i64,
    natoms: i64,
    nvoxels: i64,
    nfibers: i64,
    nnz: i64,
    atoms: *const i32,
    voxels: *const i32,
    fibers: *const i32,
    index_base: IndexBaseArg,
    values: *const f64,
    p: *mut *mut LifePlan,
) -> numgpu_status {
    boundary("numgpu_life_plan_create", || {
        let h = deref_mut(h, "h")?;
        let out = deref_mut(p, "p")?;
        let plan = Box::into_raw(Box::new(plan_create(h, ntheta, natoms, nvoxels, nfibers, nnz, atoms, voxels, fibers, index_base, values)?));
        LIVE_PLANS.insert(plan);
        *out = plan;
        Ok(())
    })
}

/// Builds a LiFE plan from Φ as LiFE stores it: ENCODE's `fe.life.M.Phi` is a MATLAB sparse
/// tensor (Tensor Toolbox `sptensor`) of size natoms × nvoxels × nfibers whose `subs` is an nnz
/// × 3 array of doubles, column-major, with 1-based (atom, voxel, fibre) subscripts, and whose
/// `vals` holds the nnz values; both can be written from MATLAB as raw doubles (`fwrite(fid,
/// Phi.subs, 'double')`) and passed here as they are. The dictionary is `fe.life.M.DictSig`
/// (ntheta × natoms, the `D` of the products) and the demeaned signal of voxel v is column v of
/// `b`. Otherwise as `numgpu_life_plan_create` with index_base = 1.
///
/// - `h`, `ntheta`, `natoms`, `nvoxels`, `nfibers`, `nnz` [in]: as for
///   `numgpu_life_plan_create`.
/// - `subs` [in]: 3·nnz doubles: subs[k] the atom, subs[nnz + k] the voxel and subs[2·nnz + k]
///   the fibre of entry k, each an integer in [1, its mode's size].
/// - `values` [in]: nnz finite values.
/// - `p` [out]: receives the plan, written only on success.
///
/// Errors: as `numgpu_life_plan_create`; a subscript that is not an integer in range is
/// `INVALID_VALUE` naming `subs` (the message gives its position, value and mode).
#[no_mangle]
pub unsafe extern "C" fn numgpu_life_plan_create_subs(
    h: *mut Handle,
    ntheta: i64,
    natoms: i64,
    nvoxels: i64,
    nfibers: i64,
    nnz: i64,
    subs: *const f64,
    values: *const f64,
    p: *mut *mut LifePlan,
) -> numgpu_status {
    boundary("numgpu_life_plan_create_subs", || {
        let h = deref_mut(h, "h")?;
        let out = deref_mut(p, "p")?;
        let plan = Box::into_raw(Box::new(plan_create_subs(h, ntheta, natoms, nvoxels, nfibers, nnz, subs, values)?));
        LIVE_PLANS.insert(plan);
        *out = plan;
        Ok(())
    })
}

/// DSC, the LiFE signal prediction: Y := beta·Y + M·w, with M = Φ ×₁ D of the plan (see
/// `numgpu_life_plan_create`): for every entry k of Φ, Y[:, voxels[k]] += values[k]·
/// w[fibers[k]]·D[:, atoms[k]]. On CUDA a warp per voxel; entries whose w is 0 are skipped.
///
/// - `h` [in]: handle of the plan's backend and device.
/// - `p` [in]: the plan.
/// - `D` [in]: the dictionary, ntheta × natoms, column-major.
/// - `ldd` [in]: leading dimension of D, >= max(1, ntheta).
/// - `w` [in]: nfibers weights (not read when nnz = 0).
/// - `beta` [in]: scale of Y's old contents; 0 does not read Y (NaN there does not
///   propagate).
/// - `Y` [in,out]: ntheta × nvoxels, column-major (column v: voxel v's signal); rows ntheta …
///   ldy − 1 are not touched.
/// - `ldy` [in]: leading dimension of Y, >= max(1, ntheta).
///
/// D, w and Y are all host memory, or all device memory of the handle's device (then the call
/// is enqueued on the handle's stream and returns at once). Results are bitwise reproducible
/// on the same device and backend (no atomics: each column of Y is summed by one warp or
/// task in the plan's order). ntheta = 0 or nvoxels = 0 is success and touches nothing.
///
/// Errors: `INVALID_VALUE` naming the argument (NULL h, p, D, w or Y; p not a live plan or
/// made on another backend or device; ldd or ldy too small; arrays in different spaces, or
/// device memory on the CPU backend); nothing is written then. `NOT_SUPPORTED` (extents
/// beyond the address space), `ALLOC_FAILED`, `COMPILE_FAILED`, `EXECUTION_FAILED`.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dlife_mw(h: *mut Handle, p: *const LifePlan, D: *const f64, ldd: i64, w: *const f64, beta: f64, Y: *mut f64, ldy: i64) -> numgpu_status {
    boundary("numgpu_dlife_mw", || {
        let h = deref_mut(h, "h")?;
        mw(h, live(p)?, D, ldd, w, beta, Y, ldy)
    })
}

/// WC, the LiFE weight gradient product: w := beta·w + Mᵀ·Y (see `numgpu_dlife_mw`): for
/// every entry k of Φ, w[fibers[k]] += values[k]·⟨D[:, atoms[k]], Y[:, voxels[k]]⟩: each
/// entry's term computed voxel by voxel (Y's columns read once), then each fibre's terms
/// summed in a fixed order (on CUDA a warp per voxel, then a warp per fibre). Takes nnz
/// doubles of temporary memory (the handle's workspace on CUDA).
///
/// - `h`, `p`, `D`, `ldd` [in]: as for `numgpu_dlife_mw`.
/// - `Y` [in]: ntheta × nvoxels, column-major.
/// - `ldy` [in]: leading dimension of Y, >= max(1, ntheta).
/// - `beta` [in]: scale of w's old contents; 0 does not read w.
/// - `w` [in,out]: nfibers entries.
///
/// Spaces, reproducibility and errors as `numgpu_dlife_mw`; nfibers = 0 is success and
/// touches nothing.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dlife_mty(h: *mut Handle, p: *const LifePlan, D: *const f64, ldd: i64, Y: *const f64, ldy: i64, beta: f64, w: *mut f64) -> numgpu_status {
    boundary("numgpu_dlife_mty", || {
        let h = deref_mut(h, "h")?;
        mty(h, live(p)?, D, ldd, Y, ldy, beta, w)
    })
}

/// Fits the LiFE weights: min ½‖M·w − b‖² subject to w >= 0, by SBBNNLS (the subspace
/// Barzilai–Borwein projected gradient of Kim, Sra and Dhillon, as LiFE runs it): with g =
/// Mᵀ(M·w − b) and g̃ its projection (g̃_f = 0 where w_f = 0 and g_f > 0), each iteration sets
/// w := max(w − α·g̃, 0), α = ‖g̃‖²/‖M·g̃‖² at even iterations (counting from 0) and
/// ‖M·g̃‖²/‖MᵀM·g̃‖² at odd ones: two DSC and one or two WC products per iteration.
///
/// - `h`, `p`, `D`, `ldd` [in]: as for `numgpu_dlife_mw`.
/// - `b` [in]: the demeaned diffusion signal, ntheta × nvoxels, column-major.
/// - `ldb` [in]: leading dimension of b, >= max(1, ntheta).
/// - `w` [in,out]: nfibers entries: the start (projected onto w >= 0 first; zeros are a
///   common start), then the solution.
/// - `max_iters` [in]: most iterations, >= 0 (LiFE runs 500).
/// - `tol` [in]: stop before an iteration when ‖g̃‖₂ <= tol·‖g̃₀‖₂ (g̃₀: at the projected
///   start); 0 runs max_iters iterations unless g̃ becomes exactly 0. Finite, >= 0.
/// - `iters` [out]: may be NULL: the iterations done (host memory or memory of the handle's
///   device, whatever the arrays' space).
/// - `objective` [out]: may be NULL: ½‖M·w − b‖² at the returned w (host or device memory,
///   as iters).
///
/// The iteration also stops when the step length is not finite and positive (rounding on a
/// problem solved to working precision). D, b and w are all host memory, or all device memory
/// of the handle's device; the call returns when done (it reads three sums of squares back
/// per iteration). Results are bitwise reproducible on the same device and backend.
///
/// Errors: as `numgpu_dlife_mw` (naming b and ldb for the signal), plus `INVALID_VALUE` for a
/// negative max_iters or a tol that is negative or not finite, and `NOT_SUPPORTED` for
/// max_iters above 2^31 − 1 (iters is an int32_t); w, iters and objective are not written
/// then.
#[no_mangle]
pub unsafe extern "C" fn numgpu_dlife_sbbnnls(
    h: *mut Handle,
    p: *const LifePlan,
    D: *const f64,
    ldd: i64,
    b: *const f64,
    ldb: i64,
    w: *mut f64,
    max_iters: i64,
    tol: f64,
    iters: *mut i32,
    objective: *mut f64,
) -> numgpu_status {
    boundary("numgpu_dlife_sbbnnls", || {
        let h = deref_mut(h, "h")?;
        // Each in host memory or memory of the handle's device, independently of the arrays.
        common_space(h, &[(iters as _, "iters")])?;
        common_space(h, &[(objective as _, "objective")])?;
        let done = sbbnnls(h, live(p)?, D, ldd, b, ldb, w, max_iters, tol)?;
        if !iters.is_null() {
            let i = done.iters as i32;
            h.memcpy(iters as *mut c_void, &i as *const i32 as *const c_void, size_of::<i32>())?;
        }
        if !objective.is_null() {
            h.memcpy(objective as *mut c_void, &done.objective as *const f64 as *const c_void, size_of::<f64>())?;
        }
        Ok(())
    })
}

/// Writes a LiFE plan's sizes: each output may be NULL (not written), all host memory.
///
/// - `p` [in]: the plan.
/// - `ntheta`, `natoms`, `nvoxels`, `nfibers`, `nnz` [out]: the sizes it was created with.
///
/// Errors: `INVALID_VALUE` when p is NULL or not a live plan.
#[no_mangle]
pub unsafe extern "C" fn numgpu_life_plan_info(p: *const LifePlan, ntheta: *mut i64, natoms: *mut i64, nvoxels: *mut i64, nfibers: *mut i64, nnz: *mut i64) -> numgpu_status {
    boundary("numgpu_life_plan_info", || {
        let plan = live(p)?;
        let outs: [(*mut i64, &'static str); 5] = [(ntheta, "ntheta"), (natoms, "natoms"), (nvoxels, "nvoxels"), (nfibers, "nfibers"), (nnz, "nnz")];
        crate::core::memory::host_pointers(&outs.map(|(o, name)| (o as *const c_void, name)))?;
        let sizes = [plan.ntheta, plan.natoms, plan.nvoxels, plan.nfibers, plan.nnz];
        for ((o, _), v) in outs.into_iter().zip(sizes) {
            if let Some(o) = o.as_mut() {
                *o = v as i64;
            }
        }
        Ok(())
    })
}

/// Releases a LiFE plan and its memory (on CUDA after waiting for the device, so work still
/// using it finishes first). NULL is a no-op.
///
/// - `p` [in]: a plan from `numgpu_life_plan_create`, not used afterwards.
///
/// Errors: `INVALID_VALUE` when p is not a live plan: destroyed already, or never returned by
/// `numgpu_life_plan_create` (a plan destroyed twice is detected unless a later create
/// returned the same address meanwhile).
#[no_mangle]
pub unsafe extern "C" fn numgpu_life_plan_destroy(p: *mut LifePlan) -> numgpu_status {
    boundary("numgpu_life_plan_destroy", || {
        if p.is_null() {
            return Ok(());
        }
        if !LIVE_PLANS.remove(p) {
            return Err(Error::arg("p", "(p) is not a live plan: destroyed already, or not made by numgpu_life_plan_create"));
        }
        drop(Box::from_raw(p));
        Ok(())
    })
}
