//! LiFE on every backend: both products against the dense M = Φ ×₁ D of small connectomes
//! (0- and 1-based, empty voxels and fibres, padded leading dimensions, beta 0 and not,
//! repeated entries, runs of one atom in a voxel longer than a warp, Nθ above one pass), the adjoint identity ⟨M·w, y⟩ = ⟨w, Mᵀ·y⟩ on a connectome of Nθ = 96,
//! bitwise reproducibility of both products and of SBBNNLS, device arrays, SBBNNLS against a
//! plain projected gradient and the KKT conditions, and malformed COO input (INVALID_VALUE
//! naming the array, nothing written). The C plan's life cycle (NULL, double destroy, a
//! destroyed plan) on the CPU.

use crate::common::c_position;
use numgpu::life::{capi, mty_host, mw_host, plan_from_coo, sbbnnls_host, Coo, LifePlan};
use numgpu::testing::life::{compact, connectome, dense_m, dense_mtv, dense_mv, dictionary, kkt, objective, projected_gradient, signal, Shape};
use numgpu::testing::norm::unchanged;
use numgpu::{Handle, Status};

/// The largest |a − b| over max |b|.
fn rel(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(0.0f64, |s, x| s.max(x.abs())).max(f64::MIN_POSITIVE);
    a.iter().zip(b).fold(0.0f64, |s, (x, y)| s.max((x - y).abs())) / scale
}

/// A small hand-made connectome: voxels 2 and 5 and fibres 3 and 6 empty, repeated entries,
/// unsorted, values not 1.
fn small(base: i32) -> Coo {
    let e: [(i32, i32, i32, f64); 14] = [
        (0, 0, 0, 1.0),
        (1, 1, 0, 0.5),
        (2, 3, 1, 2.0),
        (4, 4, 2, -1.0),
        (3, 6, 4, 1.0),
        (0, 0, 5, 1.0),
        (1, 7, 5, 3.0),
        (2, 1, 1, 1.0),
        (2, 1, 1, 1.0),
        (4, 6, 0, 0.25),
        (3, 3, 2, 1.5),
        (0, 7, 4, 1.0),
        (1, 4, 5, -0.5),
        (2, 0, 2, 1.0),
    ];
    Coo {
        ntheta: 7,
        natoms: 5,
        nvoxels: 8,
        nfibers: 7,
        atoms: e.iter().map(|x| x.0 + base).collect(),
        voxels: e.iter().map(|x| x.1 + base).collect(),
        fibers: e.iter().map(|x| x.2 + base).collect(),
        values: e.iter().map(|x| x.3).collect(),
        base,
    }
}

/// Both products of `c` (leading dimensions padded) against the dense M, beta 0 and 0.5;
/// padding rows untouched.
fn against_dense(h: &mut Handle, c: &Coo) {
    let (nt, nv, nf) = (c.ntheta, c.nvoxels, c.nfibers);
    let (ldd, ldy) = (nt + 3, nt + 2);
    let d = dictionary(nt, c.natoms, ldd, 11);
    let m = dense_m(c, &d, ldd);
    let rows = nt * nv;
    let p = plan_from_coo(h, c).unwrap_or_else(|e| panic!("plan of {nt}x{}x{nv}x{nf}, nnz {}: {e}", c.natoms, c.nnz()));
    let w: Vec<f64> = signal(nf, 1, nf, 12);
    let y0 = signal(nt, nv, ldy, 13);
    for beta in [0.0, 0.5] {
        let mut y = y0.clone();
        if beta == 0.0 {
            // beta = 0 must not read Y.
            (0..nv).for_each(|v| y[v * ldy..v * ldy + nt].fill(f64::NAN));
        }
        mw_host(h, &p, &d, ldd as i64, &w, beta, &mut y, ldy as i64).unwrap();
        let want: Vec<f64> = dense_mv(&m, rows, &w).iter().zip(compact(&y0, nt, nv, ldy)).map(|(a, y)| a + beta * y).collect();
        let err = rel(&compact(&y, nt, nv, ldy), &want);
        assert!(err < 1e-14, "DSC beta = {beta}, base {}: error {err:e} against the dense M", c.base);
        assert!((0..nv).all(|v| y[v * ldy + nt..(v + 1) * ldy].iter().all(|x| x.is_nan())), "DSC wrote Y's padding");
        let mut g = if beta == 0.0 { vec![f64::NAN; nf] } else { w.clone() };
        mty_host(h, &p, &d, ldd as i64, &y0, ldy as i64, beta, &mut g).unwrap();
        let want: Vec<f64> = dense_mtv(&m, rows, nf, &compact(&y0, nt, nv, ldy)).iter().zip(&w).map(|(a, w)| a + beta * w).collect();
        assert_eq!(want.len(), nf);
        let err = rel(&g, &want);
        assert!(err < 1e-14, "WC beta = {beta}, base {}: error {err:e} against the dense M", c.base);
    }
}

fn products_against_dense(h: &mut Handle) {
    against_dense(h, &small(0));
    against_dense(h, &small(1));
    let s = Shape { ntheta: 40, natoms: 9, nvoxels: 57, nfibers: 33, per_fibre: 9 };
    against_dense(h, &connectome(&s, 5, 1));
    // Voxels of about 45 entries over 3 atoms: runs of one atom longer than a warp's 32 and
    // across its groups.
    against_dense(h, &connectome(&Shape { ntheta: 33, natoms: 3, nvoxels: 4, nfibers: 60, per_fibre: 3 }, 7, 0));
    // Nθ above one pass of the kernels (128 directions), and no entries at all.
    against_dense(h, &connectome(&Shape { ntheta: 161, natoms: 4, nvoxels: 20, nfibers: 12, per_fibre: 4 }, 6, 0));
    against_dense(h, &Coo { ntheta: 5, natoms: 3, nvoxels: 4, nfibers: 2, atoms: vec![], voxels: vec![], fibers: vec![], values: vec![], base: 0 });
    // No directions: M has no rows, Mᵀ·Y = 0.
    against_dense(h, &Coo { ntheta: 0, ..small(1) });
}

/// ⟨M·w, y⟩ = ⟨w, Mᵀ·y⟩ on a connectome with the seed's Nθ.
fn adjoint_identity(h: &mut Handle) {
    let s = Shape { ntheta: 96, natoms: 60, nvoxels: 700, nfibers: 400, per_fibre: 30 };
    let c = connectome(&s, 21, 0);
    let p = plan_from_coo(h, &c).unwrap();
    let d = dictionary(96, 60, 96, 22);
    let w = signal(400, 1, 400, 23);
    let y = signal(96, 700, 96, 24);
    let mut mw = vec![0.0; 96 * 700];
    mw_host(h, &p, &d, 96, &w, 0.0, &mut mw, 96).unwrap();
    let mut mty = vec![0.0; 400];
    mty_host(h, &p, &d, 96, &y, 96, 0.0, &mut mty).unwrap();
    let lhs: f64 = mw.iter().zip(&y).map(|(a, b)| a * b).sum();
    let rhs: f64 = w.iter().zip(&mty).map(|(a, b)| a * b).sum();
    let scale: f64 = mw.iter().zip(&y).map(|(a, b)| (a * b).abs()).sum();
    assert!((lhs - rhs).abs() <= 1e-13 * scale, "adjoint identity: <Mw, y> = {lhs:e}, <w, M^T y> = {rhs:e} (scale {scale:e}), nnz {}", c.nnz());
}

/// Twice the same call, the same bits: both products and SBBNNLS.
fn reproducible(h: &mut Handle) {
    let s = Shape { ntheta: 96, natoms: 50, nvoxels: 900, nfibers: 500, per_fibre: 40 };
    let c = connectome(&s, 31, 0);
    let p = plan_from_coo(h, &c).unwrap();
    let d = dictionary(96, 50, 96, 32);
    let w = signal(500, 1, 500, 33);
    let y = signal(96, 900, 96, 34);
    let run = |h: &mut Handle| {
        let mut a = vec![0.0; 96 * 900];
        mw_host(h, &p, &d, 96, &w, 0.0, &mut a, 96).unwrap();
        let mut b = vec![0.0; 500];
        mty_host(h, &p, &d, 96, &y, 96, 0.0, &mut b).unwrap();
        let mut x = vec![0.0; 500];
        let out = sbbnnls_host(h, &p, &d, 96, &y, 96, &mut x, 30, 0.0).unwrap();
        (a, b, x, out.objective.to_bits())
    };
    let (a1, b1, x1, o1) = run(h);
    let (a2, b2, x2, o2) = run(h);
    assert!(unchanged(&a1, &a2), "DSC not bitwise reproducible");
    assert!(unchanged(&b1, &b2), "WC not bitwise reproducible");
    assert!(unchanged(&x1, &x2) && o1 == o2, "SBBNNLS not bitwise reproducible");
}

/// The raw API on arrays from `h.malloc` (device memory on CUDA): the same results as host
/// arrays, bit for bit.
fn device_arrays(h: &mut Handle) {
    let s = Shape { ntheta: 96, natoms: 30, nvoxels: 300, nfibers: 200, per_fibre: 20 };
    let c = connectome(&s, 41, 1);
    let p = plan_from_coo(h, &c).unwrap();
    let d = dictionary(96, 30, 100, 42);
    let w = signal(200, 1, 200, 43);
    let b = signal(96, 300, 97, 44);
    let mut y_host = vec![0.0; 97 * 300];
    mw_host(h, &p, &d, 100, &w, 0.0, &mut y_host, 97).unwrap();
    let mut g_host = vec![0.0; 200];
    mty_host(h, &p, &d, 100, &b, 97, 0.0, &mut g_host).unwrap();
    let mut x_host = vec![0.0; 200];
    let solved_host = sbbnnls_host(h, &p, &d, 100, &b, 97, &mut x_host, 20, 0.0).unwrap();
    let up = |h: &mut Handle, x: &[f64]| {
        let ptr = h.malloc(x.len() * 8).unwrap();
        // SAFETY: ptr holds x.len() doubles.
        unsafe { h.memcpy(ptr, x.as_ptr() as _, x.len() * 8).unwrap() };
        ptr as *mut f64
    };
    let down = |h: &mut Handle, ptr: *mut f64, len: usize| {
        let mut v = vec![0.0; len];
        // SAFETY: ptr holds len doubles.
        unsafe { h.memcpy(v.as_mut_ptr() as _, ptr as _, len * 8).unwrap() };
        v
    };
    let (dd, wd, bd) = (up(h, &d), up(h, &w), up(h, &b));
    let (yd, gd, xd) = (up(h, &vec![0.0; 97 * 300]), up(h, &[0.0; 200]), up(h, &[0.0; 200]));
    // SAFETY: every array was allocated with its extent above.
    let solved = unsafe {
        numgpu::life::mw(h, &p, dd, 100, wd, 0.0, yd, 97).unwrap();
        numgpu::life::mty(h, &p, dd, 100, bd, 97, 0.0, gd).unwrap();
        numgpu::life::sbbnnls(h, &p, dd, 100, bd, 97, xd, 20, 0.0).unwrap()
    };
    let (y, g, x) = (down(h, yd, 97 * 300), down(h, gd, 200), down(h, xd, 200));
    assert!(unchanged(&compact(&y, 96, 300, 97), &compact(&y_host, 96, 300, 97)), "DSC on device arrays differs from host arrays");
    assert!(unchanged(&g, &g_host), "WC on device arrays differs from host arrays");
    assert!(unchanged(&x, &x_host) && solved == solved_host, "SBBNNLS on device arrays differs: {solved:?} vs {solved_host:?}");
    for ptr in [dd, wd, bd, yd, gd, xd] {
        // SAFETY: from h.malloc above.
        unsafe { h.free(ptr as _).unwrap() };
    }
}

/// SBBNNLS on a small full-rank problem whose solution has active constraints: its
/// objective matches a long plain projected gradient's, and the KKT conditions hold.
fn sbbnnls_against_projected_gradient(h: &mut Handle) {
    let s = Shape { ntheta: 12, natoms: 8, nvoxels: 40, nfibers: 25, per_fibre: 8 };
    let c = connectome(&s, 51, 1);
    let d = dictionary(12, 8, 12, 52);
    let m = dense_m(&c, &d, 12);
    let rows = 12 * 40;
    // b = M·w_true + noise with w_true partly 0 and partly negative: the constraints bind.
    let w_true: Vec<f64> = signal(25, 1, 25, 53).iter().map(|x| if x.abs() < 0.3 { 0.0 } else { *x }).collect();
    let b: Vec<f64> = dense_mv(&m, rows, &w_true).iter().zip(signal(rows, 1, rows, 54)).map(|(y, n)| y + 0.1 * n).collect();
    let p = plan_from_coo(h, &c).unwrap();
    let mut w = vec![0.0; 25];
    let out = sbbnnls_host(h, &p, &d, 12, &b, 12, &mut w, 3000, 1e-12).unwrap();
    let reference = projected_gradient(&m, rows, &b, 20_000);
    let (f, f_ref) = (objective(&m, rows, &b, &w), objective(&m, rows, &b, &reference));
    assert!(w.iter().all(|&x| x >= 0.0), "w has a negative entry: {w:?}");
    assert!(w.iter().filter(|&&x| x == 0.0).count() > 0, "no active constraint: the test does not test the projection");
    assert!((out.objective - f).abs() <= 1e-12 * f.max(1e-300), "objective reported {} vs recomputed {f}", out.objective);
    assert!(f <= f_ref * (1.0 + 1e-10), "SBBNNLS objective {f} above the projected gradient's {f_ref} ({} iterations)", out.iters);
    let k = kkt(&m, rows, &b, &w);
    assert!(k < 1e-7, "KKT residual {k:e} after {} iterations", out.iters);
    assert!(out.iters < 3000, "did not reach tol = 1e-12 in 3000 iterations");
    // max_iters = 0: only the projection of the start, and its objective.
    let mut w0 = signal(25, 1, 25, 55);
    let out0 = sbbnnls_host(h, &p, &d, 12, &b, 12, &mut w0, 0, 0.0).unwrap();
    assert_eq!(out0.iters, 0);
    assert!(w0.iter().all(|&x| x >= 0.0));
    assert!((out0.objective - objective(&m, rows, &b, &w0)).abs() <= 1e-12 * out0.objective);
}

/// A way to spoil a good COO, and the array the error must name.
type Spoil = (Box<dyn Fn(&mut Coo)>, &'static str);

/// A malformed COO gets INVALID_VALUE naming its array (position in the C call) and makes no
/// plan; bad sizes and arguments of the products likewise, writing nothing.
fn malformed(h: &mut Handle) {
    let cases: Vec<Spoil> = vec![
        (Box::new(|c: &mut Coo| c.atoms[3] = c.natoms as i32 + c.base), "atoms"),
        (Box::new(|c: &mut Coo| c.voxels[5] = -1), "voxels"),
        (Box::new(|c: &mut Coo| c.fibers[0] = c.base - 1), "fibers"),
        (Box::new(|c: &mut Coo| c.values[7] = f64::NAN), "values"),
        (Box::new(|c: &mut Coo| c.values[2] = f64::INFINITY), "values"),
        (Box::new(|c: &mut Coo| c.base = 2), "index_base"),
        (Box::new(|c: &mut Coo| c.nvoxels = 0), "voxels"),
    ];
    for base in [0, 1] {
        for (spoil, name) in &cases {
            let mut c = small(base);
            spoil(&mut c);
            let e = plan_from_coo(h, &c).err().unwrap_or_else(|| panic!("{name} spoiled (base {base}) was accepted"));
            assert_eq!(e.status, Status::NUMGPU_INVALID_VALUE, "{name}: {e}");
            let want = ["atoms", "voxels", "fibers", "index_base", "values"].iter().position(|n| n == name).unwrap() as i32 + 7;
            assert_eq!(c_position(&e, "numgpu_life_plan_create"), want, "{name}: {e}");
        }
    }
    let c = small(0);
    let p = plan_from_coo(h, &c).unwrap();
    let d = dictionary(7, 5, 7, 61);
    let w = vec![1.0; 7];
    let mut y = vec![-3.0; 7 * 8];
    let e = mw_host(h, &p, &d, 6, &w, 0.0, &mut y, 7).unwrap_err();
    assert_eq!(c_position(&e, "numgpu_dlife_mw"), 4, "ldd too small: {e}");
    let e = mw_host(h, &p, &d, 7, &w, 0.0, &mut y, 6).unwrap_err();
    assert_eq!(c_position(&e, "numgpu_dlife_mw"), 8, "ldy too small: {e}");
    let mut x = vec![-3.0; 7];
    let e = sbbnnls_host(h, &p, &d, 7, &y.clone(), 7, &mut x, -1, 0.0).unwrap_err();
    assert_eq!(c_position(&e, "numgpu_dlife_sbbnnls"), 8, "max_iters < 0: {e}");
    let e = sbbnnls_host(h, &p, &d, 7, &y.clone(), 7, &mut x, 5, f64::NAN).unwrap_err();
    assert_eq!(c_position(&e, "numgpu_dlife_sbbnnls"), 9, "tol NaN: {e}");
    assert!(y.iter().chain(&x).all(|&v| v == -3.0), "a refused call wrote its output");
}

/// The plan through the C API on the CPU: create, NULL destroy, a bad COO leaves *p alone,
/// double destroy and a destroyed plan are INVALID_VALUE.
#[test]
fn life_plan_c_life_cycle() {
    let mut h: *mut Handle = std::ptr::null_mut();
    // SAFETY: C calls on valid pointers and the arrays of `small`.
    unsafe {
        assert_eq!(numgpu::ffi::capi::numgpu_create_with(&mut h, 1, 0), Status::NUMGPU_SUCCESS);
        let c = small(1);
        let mut p: *mut LifePlan = std::ptr::null_mut();
        let create = |p: *mut *mut LifePlan, fibers: &[i32]| capi::numgpu_life_plan_create(h, 7, 5, 8, 7, 14, c.atoms.as_ptr(), c.voxels.as_ptr(), fibers.as_ptr(), 1, c.values.as_ptr(), p);
        let mut bad = c.fibers.clone();
        bad[4] = 8;
        let sentinel = 0x10 as *mut LifePlan;
        let mut q = sentinel;
        assert_eq!(create(&mut q, &bad), Status::NUMGPU_INVALID_VALUE);
        assert_eq!(q, sentinel, "a refused create wrote *p");
        assert_eq!(create(&mut p, &c.fibers), Status::NUMGPU_SUCCESS);
        let d = dictionary(7, 5, 7, 71);
        let w = [1.0; 7];
        let mut y = vec![0.0; 56];
        assert_eq!(capi::numgpu_dlife_mw(h, p, d.as_ptr(), 7, w.as_ptr(), 0.0, y.as_mut_ptr(), 7), Status::NUMGPU_SUCCESS);
        assert_eq!(capi::numgpu_life_plan_destroy(std::ptr::null_mut()), Status::NUMGPU_SUCCESS);
        assert_eq!(capi::numgpu_life_plan_destroy(p), Status::NUMGPU_SUCCESS);
        assert_eq!(capi::numgpu_life_plan_destroy(p), Status::NUMGPU_INVALID_VALUE, "double destroy");
        assert_eq!(capi::numgpu_dlife_mw(h, p, d.as_ptr(), 7, w.as_ptr(), 0.0, y.as_mut_ptr(), 7), Status::NUMGPU_INVALID_VALUE, "a destroyed plan");
        let (mut iters, mut obj) = (-1i32, -1.0f64);
        assert_eq!(capi::numgpu_dlife_sbbnnls(h, std::ptr::null(), d.as_ptr(), 7, y.as_ptr(), 7, y.as_mut_ptr(), 1, 0.0, &mut iters, &mut obj), Status::NUMGPU_INVALID_VALUE);
        assert_eq!((iters, obj), (-1, -1.0), "a refused solve wrote iters or objective");
        assert_eq!(numgpu::ffi::capi::numgpu_destroy(h), Status::NUMGPU_SUCCESS);
    }
}

crate::on_every_backend! {
    life_products_against_dense_m => super::products_against_dense;
    life_adjoint_identity => super::adjoint_identity;
    life_bitwise_reproducible => super::reproducible;
    life_device_arrays => super::device_arrays;
    life_sbbnnls_against_projected_gradient_and_kkt => super::sbbnnls_against_projected_gradient;
    life_malformed_coo_and_arguments => super::malformed;
}

/// MATLAB's sparse-tensor layout (`numgpu_life_plan_create_subs`): the same plan as the COO
/// form (the products bit for bit), and a subscript that is 0, fractional or beyond its mode is
/// refused naming `subs`.
#[test]
fn life_plan_from_matlab_subs() {
    let mut h = Handle::cpu();
    let c = small(1);
    let nz = c.nnz();
    let subs: Vec<f64> = c.atoms.iter().chain(&c.voxels).chain(&c.fibers).map(|&x| x as f64).collect();
    // SAFETY: subs holds 3·nnz doubles, values nnz.
    let p = unsafe { numgpu::life::plan_create_subs(&mut h, 7, 5, 8, 7, nz as i64, subs.as_ptr(), c.values.as_ptr()) }.unwrap();
    let q = plan_from_coo(&mut h, &c).unwrap();
    let d = dictionary(7, 5, 7, 81);
    let w = signal(7, 1, 7, 82);
    let (mut y1, mut y2) = (vec![0.0; 56], vec![0.0; 56]);
    mw_host(&mut h, &p, &d, 7, &w, 0.0, &mut y1, 7).unwrap();
    mw_host(&mut h, &q, &d, 7, &w, 0.0, &mut y2, 7).unwrap();
    assert!(unchanged(&y1, &y2), "the subs plan differs from the COO plan");
    for (at, bad) in [(0, 0.0), (nz + 3, 1.5), (2 * nz + 4, 8.0)] {
        let mut s = subs.clone();
        s[at] = bad;
        // SAFETY: as above.
        let e = unsafe { numgpu::life::plan_create_subs(&mut h, 7, 5, 8, 7, nz as i64, s.as_ptr(), c.values.as_ptr()) }.err().expect("a bad subscript accepted");
        assert_eq!((e.status, c_position(&e, "numgpu_life_plan_create_subs")), (Status::NUMGPU_INVALID_VALUE, 7), "{e}");
        assert!(e.msg.contains(&format!("subs[{at}]")), "{e}");
    }
}
