//! Jacobi eigen and singular value decompositions on every backend: every class of the spec
//! (random, clustered and repeated values, rank-deficient, zero, identity) at orders 1 … 129
//! around the warp boundaries, tall and wide shapes, both triangles, against LAPACK `zheevd` /
//! `zgesvd` in double (value ratio max|λ − λ_ref| / (n·ε·‖A‖) < 30), residuals ‖A − Z·Λ·Zᴴ‖
//! and ‖A − U·Σ·Vᴴ‖ and orthogonality (< 30); graded matrices, where the relative test keeps
//! every value to high relative accuracy and LAPACK's QR-based `?syevd` / `?gesvd` in the same
//! precision lose the small ones (both measured: the test shows the difference); NaN and Inf
//! (info 2, no hang, only their matrix); the sweep limit (info 1), unsorted output, sweep
//! counts against the CPU backend's (the oracle for them); device arrays; argument checks.
//! Every call pads its matrices (NaN padding and gaps, and the triangle not read) and demands
//! them back unchanged.

use crate::common::{c_position, sizes_per_path, under_sanitizer, SMEM_OPTIN};
use numgpu::jacobi::cuda::{gesvdj_plan, syevj_plan, warp_path, warp_segment, Plan};
use numgpu::jacobi::{gesvdj_batched, gesvdj_batched_slices, numgpu_jacobi_params, syevj_batched, syevj_batched_slices};
use numgpu::testing::gen::{nan, POISON};
use numgpu::testing::jacobi::{decomposition_residual, eig_ref, eig_relative_spd, general, graded, graded_spd, hermitian, orthogonality, relative_error, svd_ref, svd_relative, value_ratio, Class, QrBased, CLASSES};
use numgpu::testing::layout::Layout;
use numgpu::testing::norm::{c64s, norm1_matrix, same};
use numgpu::testing::tol::RATIO;
use numgpu::{Complex64, Handle, Scalar, Status};
use num_traits::Float;

const VEC: i32 = 1;
const NOVEC: i32 = 0;

/// One matrix's results: values, vectors (compact; for syevj Z, for gesvdj U then V), info,
/// sweeps, residual.
#[derive(Clone, Debug)]
struct Out {
    vals: Vec<f64>,
    u: Vec<Complex64>,
    v: Vec<Complex64>,
    info: i32,
    sweeps: i32,
    residual: f64,
}

fn re<T: Scalar>(x: T::Real) -> f64 {
    x.into()
}

/// syevj on `mats` (full Hermitian, n × n each) with padding: the triangle not read is NaN.
fn syevj_run<T: Scalar>(h: &mut Handle, jobz: i32, upper: bool, n: usize, mats: &[Vec<T>], params: Option<&numgpu_jacobi_params>) -> Vec<Out> {
    let batch = mats.len();
    let lay = Layout::padded(n, n, batch, 2, 3);
    let mut a = vec![nan::<T>(); lay.len()];
    for (i, m) in mats.iter().enumerate() {
        let stored: Vec<T> = (0..n * n).map(|e| if (upper && e % n <= e / n) || (!upper && e % n >= e / n) { m[e] } else { nan::<T>() }).collect();
        lay.put(&mut a, i, &stored);
    }
    let a0 = a.clone();
    let sw = n + 1;
    let mut w = vec![<T::Real as Float>::nan(); sw * batch];
    let (mut info, mut sweeps, mut res) = (vec![POISON; batch], vec![POISON; batch], vec![<T::Real as Float>::nan(); batch]);
    let what = format!("{}syevj n={n} batch {batch} jobz {jobz} upper {upper}", T::LETTER);
    syevj_batched_slices(h, jobz, upper as i32, n as i64, &mut a, lay.ld as i64, lay.stride as i64, &mut w, sw as i64, params, &mut info, &mut sweeps, &mut res, batch as i64).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(lay.outside_unchanged(&a, &a0), "{what}: padding or gaps written");
    assert!((0..batch).all(|i| w[i * sw + n].is_nan()), "{what}: w gap written");
    (0..batch)
        .map(|i| {
            let z = if jobz == VEC { c64s(&lay.get(&a, i)) } else { Vec::new() };
            if jobz == NOVEC {
                assert!(lay.get(&a, i).iter().zip(&lay.get(&a0, i)).all(|(x, y)| same(*x, *y)), "{what}: A written without vectors");
            }
            Out { vals: w[i * sw..i * sw + n].iter().map(|&x| re::<T>(x)).collect(), u: z, v: Vec::new(), info: info[i], sweeps: sweeps[i], residual: re::<T>(res[i]) }
        })
        .collect()
}

/// gesvdj on `mats` (m × n each) with padding.
fn gesvdj_run<T: Scalar>(h: &mut Handle, jobu: i32, jobv: i32, m: usize, n: usize, mats: &[Vec<T>], params: Option<&numgpu_jacobi_params>) -> Vec<Out> {
    let (batch, k) = (mats.len(), m.min(n));
    let la = Layout::padded(m, n, batch, 1, 2);
    let mut a = vec![nan::<T>(); la.len()];
    mats.iter().enumerate().for_each(|(i, x)| la.put(&mut a, i, x));
    let a0 = a.clone();
    let (lu, lv) = (Layout::padded(m, k, batch, 3, 1), Layout::padded(n, k, batch, 1, 4));
    let (mut u, mut v) = (vec![nan::<T>(); if jobu == VEC { lu.len() } else { 0 }], vec![nan::<T>(); if jobv == VEC { lv.len() } else { 0 }]);
    let (u0, v0) = (u.clone(), v.clone());
    let ss = k + 2;
    let mut s = vec![<T::Real as Float>::nan(); ss * batch];
    let (mut info, mut sweeps, mut res) = (vec![POISON; batch], vec![POISON; batch], vec![<T::Real as Float>::nan(); batch]);
    let what = format!("{}gesvdj {m}x{n} batch {batch} jobu {jobu} jobv {jobv}", T::LETTER);
    gesvdj_batched_slices(h, jobu, jobv, m as i64, n as i64, &a, la.ld as i64, la.stride as i64, &mut s, ss as i64, &mut u, lu.ld as i64, lu.stride as i64, &mut v, lv.ld as i64, lv.stride as i64, params, &mut info, &mut sweeps, &mut res, batch as i64)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(a.iter().zip(&a0).all(|(x, y)| same(*x, *y)), "{what}: A written");
    assert!(lu.outside_unchanged(&u, &u0) && lv.outside_unchanged(&v, &v0), "{what}: padding of U or V written");
    assert!((0..batch).all(|i| s[i * ss + k].is_nan() && s[i * ss + k + 1].is_nan()), "{what}: S gap written");
    (0..batch)
        .map(|i| Out {
            vals: s[i * ss..i * ss + k].iter().map(|&x| re::<T>(x)).collect(),
            u: if jobu == VEC { c64s(&lu.get(&u, i)) } else { Vec::new() },
            v: if jobv == VEC { c64s(&lv.get(&v, i)) } else { Vec::new() },
            info: info[i],
            sweeps: sweeps[i],
            residual: re::<T>(res[i]),
        })
        .collect()
}

/// The checks of one converged eigen-decomposition of the full matrix `a`.
fn check_eig<T: Scalar>(what: &str, n: usize, a: &[T], o: &Out) {
    let ac = c64s(a);
    let eps = T::EPS;
    assert!(o.info == 0 && (1..=100).contains(&o.sweeps) && o.residual <= eps, "{what}: info {} sweeps {} residual {:e}", o.info, o.sweeps, o.residual);
    assert!(o.vals.windows(2).all(|w| w[0] <= w[1]), "{what}: eigenvalues not ascending: {:?}", o.vals);
    let r = value_ratio(&o.vals, &eig_ref(n, &ac), n, norm1_matrix(&ac, n, n), eps);
    assert!(r < RATIO, "{what}: eigenvalue ratio {r:.3e} >= {RATIO} against zheevd");
    if !o.u.is_empty() {
        let orth = orthogonality(&o.u, n, n, n, eps);
        let res = decomposition_residual(&ac, n, n, &o.u, &o.vals, &o.u, n, eps);
        assert!(orth < RATIO && res < RATIO, "{what}: orthogonality {orth:.3e}, residual ‖A − ZΛZᴴ‖ ratio {res:.3e}");
    }
}

/// The checks of one converged SVD of the m × n matrix `a`.
fn check_svd<T: Scalar>(what: &str, m: usize, n: usize, a: &[T], o: &Out) {
    let (ac, k, eps, dim) = (c64s(a), m.min(n), T::EPS, m.max(n));
    let tol = eps * (dim as f64).sqrt();
    assert!(o.info == 0 && (1..=100).contains(&o.sweeps) && o.residual <= tol * (1.0 + 1e-6), "{what}: info {} sweeps {} residual {:e}", o.info, o.sweeps, o.residual);
    assert!(o.vals.windows(2).all(|w| w[0] >= w[1]) && o.vals.iter().all(|&s| s >= 0.0), "{what}: singular values not descending: {:?}", o.vals);
    let r = value_ratio(&o.vals, &svd_ref(m, n, &ac), dim, norm1_matrix(&ac, m, n), eps);
    assert!(r < RATIO, "{what}: singular value ratio {r:.3e} >= {RATIO} against zgesvd");
    if !o.u.is_empty() {
        let orth = orthogonality(&o.u, m, k, dim, eps);
        assert!(orth < RATIO, "{what}: U orthogonality {orth:.3e}");
    }
    if !o.v.is_empty() {
        let orth = orthogonality(&o.v, n, k, dim, eps);
        assert!(orth < RATIO, "{what}: V orthogonality {orth:.3e}");
    }
    if !o.u.is_empty() && !o.v.is_empty() {
        let res = decomposition_residual(&ac, m, n, &o.u, &o.vals, &o.v, dim, eps);
        assert!(res < RATIO, "{what}: residual ‖A − UΣVᴴ‖ ratio {res:.3e}");
    }
}

/// Orders around the warp boundaries (and the block team's sizes).
const ORDERS: [usize; 16] = [1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129];

/// A plan's kernel path (its sizes aside).
fn path(p: Plan) -> (bool, usize, usize, bool, bool) {
    (p.warp, p.teams, p.threads, p.first_sh, p.second_sh)
}

fn syevj_classes_for<T: Scalar>(h: &mut Handle) {
    for (t, n) in sizes_per_path(&ORDERS, |n| path(syevj_plan::<T>(n, true, SMEM_OPTIN))).into_iter().enumerate() {
        let classes: &[Class] = if n <= 33 { &CLASSES } else { &[Class::Random, Class::Clustered] };
        for (c, &class) in classes.iter().enumerate() {
            let mats: Vec<Vec<T>> = (0..2).map(|i| hermitian::<T>(class, n, 100 * t as u64 + 10 * c as u64 + i)).collect();
            let upper = (t + c) % 2 == 1;
            let out = syevj_run::<T>(h, VEC, upper, n, &mats, None);
            let vals = syevj_run::<T>(h, NOVEC, upper, n, &mats, None);
            for (i, (o, ov)) in out.iter().zip(&vals).enumerate() {
                let what = format!("{}syevj {class:?} n={n} matrix {i} upper {upper}", T::LETTER);
                check_eig::<T>(&what, n, &mats[i], o);
                assert!(o.vals.iter().zip(&ov.vals).all(|(x, y)| x.to_bits() == y.to_bits()) && o.sweeps == ov.sweeps, "{what}: values differ without vectors");
            }
        }
    }
}

/// Shapes of gesvdj: square, tall and wide, around the warp boundaries.
const SHAPES: [(usize, usize); 17] = [(1, 1), (1, 5), (5, 1), (2, 2), (3, 3), (8, 8), (16, 16), (17, 17), (32, 32), (33, 33), (40, 7), (7, 40), (64, 64), (65, 65), (129, 33), (33, 129), (300, 4)];

fn gesvdj_classes_for<T: Scalar>(h: &mut Handle) {
    for (t, (m, n)) in sizes_per_path(&SHAPES, |(m, n)| (m < n, path(gesvdj_plan::<T>(m, n, true, true, SMEM_OPTIN)))).into_iter().enumerate() {
        let classes: &[Class] = if m.max(n) <= 40 { &CLASSES } else { &[Class::Random, Class::RankDeficient] };
        for (c, &class) in classes.iter().enumerate() {
            let mats: Vec<Vec<T>> = (0..2).map(|i| general::<T>(class, m, n, 100 * t as u64 + 10 * c as u64 + i)).collect();
            let out = gesvdj_run::<T>(h, VEC, VEC, m, n, &mats, None);
            let vals = gesvdj_run::<T>(h, NOVEC, NOVEC, m, n, &mats, None);
            let left = gesvdj_run::<T>(h, VEC, NOVEC, m, n, &mats, None);
            for (i, o) in out.iter().enumerate() {
                let what = format!("{}gesvdj {class:?} {m}x{n} matrix {i}", T::LETTER);
                check_svd::<T>(&what, m, n, &mats[i], o);
                assert!(o.vals.iter().zip(&vals[i].vals).all(|(x, y)| x.to_bits() == y.to_bits()), "{what}: values differ without vectors");
                assert!(o.u.iter().zip(&left[i].u).all(|(x, y)| x == y) && left[i].v.is_empty(), "{what}: U differs without V");
            }
        }
    }
}

/// Every order of the register-resident warp kernels and the first beyond (1 … 33), in
/// batches of 19 that mix the classes, so that the matrices sharing a warp (up to 16 of
/// order ≤ 2) stop at different sweeps and a warp's last segments are empty: each matrix
/// against LAPACK, values and sweeps the same bits with and without vectors, sweep counts
/// within one of the CPU backend's; with max_sweeps 2, the matrices that need more stop with
/// info 1 while those beside them converge.
fn syevj_warp_orders_for<T: Scalar>(h: &mut Handle) {
    let mut cpu = Handle::cpu();
    let orders: Vec<usize> = (1..=33).collect();
    for n in sizes_per_path(&orders, |n| warp_path::<T>(n, n).map(warp_segment)) {
        let mats: Vec<Vec<T>> = (0..19).map(|i| hermitian::<T>(CLASSES[i % CLASSES.len()], n, 3000 + 100 * n as u64 + i as u64)).collect();
        let upper = n % 2 == 1;
        let out = syevj_run::<T>(h, VEC, upper, n, &mats, None);
        let vals = syevj_run::<T>(h, NOVEC, upper, n, &mats, None);
        let oracle = syevj_run::<T>(&mut cpu, NOVEC, upper, n, &mats, None);
        for (i, o) in out.iter().enumerate() {
            let what = format!("{}syevj {:?} n={n} matrix {i} of 19 upper {upper}", T::LETTER, CLASSES[i % CLASSES.len()]);
            check_eig::<T>(&what, n, &mats[i], o);
            assert!(o.vals.iter().zip(&vals[i].vals).all(|(x, y)| x.to_bits() == y.to_bits()) && o.sweeps == vals[i].sweeps, "{what}: values differ without vectors");
            assert!((o.sweeps - oracle[i].sweeps).abs() <= 1, "{what}: sweeps {} vs the CPU backend's {}", o.sweeps, oracle[i].sweeps);
        }
        let two = numgpu_jacobi_params { max_sweeps: 2, ..Default::default() };
        let capped = syevj_run::<T>(h, VEC, upper, n, &mats, Some(&two));
        for (i, (c, o)) in capped.iter().zip(&out).enumerate() {
            let want = if o.sweeps <= 2 { (0, o.sweeps) } else { (1, 2) };
            assert_eq!((c.info, c.sweeps), want, "{}syevj n={n} matrix {i} max_sweeps 2 (unlimited: {} sweeps)", T::LETTER, o.sweeps);
            if o.sweeps <= 2 {
                assert!(c.vals.iter().zip(&o.vals).all(|(x, y)| x.to_bits() == y.to_bits()), "{}syevj n={n} matrix {i}: max_sweeps 2 changed a matrix that converged in {}", T::LETTER, o.sweeps);
            }
        }
    }
}

/// gesvdj on the warp kernels: every square order 1 … 33 (33: the general kernel beside
/// them), tall and wide shapes at the lane-segment widths' edges (max(m, n) up to 32, and 33),
/// batches of 7 mixing the classes (rank-deficient and zero matrices complete U or V beside
/// matrices that do not): against LAPACK, values the same bits with and without vectors and U
/// the same without V, sweeps within one of the CPU backend's (but rank-deficient ones).
fn gesvdj_warp_shapes_for<T: Scalar>(h: &mut Handle) {
    let mut cpu = Handle::cpu();
    let mut shapes: Vec<(usize, usize)> = (1..=33).map(|k| (k, k)).collect();
    for (m, n) in [(2, 1), (5, 3), (9, 4), (16, 7), (17, 9), (32, 1), (32, 17), (31, 20), (32, 31), (33, 5)] {
        shapes.extend([(m, n), (n, m)]);
    }
    for (m, n) in sizes_per_path(&shapes, |(m, n)| (m < n, warp_path::<T>(m.min(n), m.max(n)).map(warp_segment))) {
        let mats: Vec<Vec<T>> = (0..7).map(|i| general::<T>(CLASSES[i % CLASSES.len()], m, n, 4000 + 100 * (m * 40 + n) as u64 + i as u64)).collect();
        let out = gesvdj_run::<T>(h, VEC, VEC, m, n, &mats, None);
        let vals = gesvdj_run::<T>(h, NOVEC, NOVEC, m, n, &mats, None);
        let left = gesvdj_run::<T>(h, VEC, NOVEC, m, n, &mats, None);
        let oracle = gesvdj_run::<T>(&mut cpu, NOVEC, NOVEC, m, n, &mats, None);
        for (i, o) in out.iter().enumerate() {
            let what = format!("{}gesvdj {:?} {m}x{n} matrix {i} of 7", T::LETTER, CLASSES[i % CLASSES.len()]);
            check_svd::<T>(&what, m, n, &mats[i], o);
            assert!(o.vals.iter().zip(&vals[i].vals).all(|(x, y)| x.to_bits() == y.to_bits()) && o.sweeps == vals[i].sweeps, "{what}: values differ without vectors");
            assert!(o.u.iter().zip(&left[i].u).all(|(x, y)| x == y) && left[i].v.is_empty(), "{what}: U differs without V");
            // A rank-deficient matrix's last sweeps rotate columns of rounding noise, whose
            // count follows the rounding (the H100 ran dgesvdj 31×20 in 14 sweeps, the CPU in 16).
            if CLASSES[i % CLASSES.len()] != Class::RankDeficient {
                assert!((o.sweeps - oracle[i].sweeps).abs() <= 1, "{what}: sweeps {} vs the CPU backend's {}", o.sweeps, oracle[i].sweeps);
            }
        }
    }
}

/// Graded positive definite matrices: Jacobi's eigenvalues to a small relative error, every
/// one, while `?syevd` (Householder tridiagonalisation and QR/divide and conquer, accurate
/// to ε·‖A‖) loses the small ones; both measured against `dpotrf` + `dgesvj` in double.
fn syevj_graded_for<T: QrBased>(h: &mut Handle) {
    let range = if T::EPS < 1e-10 { 1e-14 } else { 1e-5 };
    for n in [16usize, 33] {
        let mats: Vec<Vec<T>> = (0..2).map(|i| graded_spd::<T>(n, range, 40 + i)).collect();
        let out = syevj_run::<T>(h, VEC, false, n, &mats, None);
        for (i, o) in out.iter().enumerate() {
            let what = format!("{}syevj graded n={n} matrix {i}", T::LETTER);
            let a64: Vec<f64> = mats[i].iter().map(|x| x.to_c64().re).collect();
            let exact = eig_relative_spd(n, &a64);
            let ours = relative_error(&o.vals, &exact);
            let lapack: Vec<f64> = T::syevd(n, &mats[i]).iter().map(|x| x.to_c64().re).collect();
            let theirs = relative_error(&lapack, &exact);
            assert!(o.info == 0 && ours < RATIO * n as f64 * T::EPS, "{what}: relative error {ours:.3e} (info {}), values {:?} vs {exact:?}", o.info, o.vals);
            assert!(theirs > 1e-2, "{what}: {}syevd kept relative accuracy ({theirs:.3e}): the matrix is not graded enough to tell", T::LETTER);
            eprintln!("{what}: relative error of the eigenvalues: Jacobi {ours:.2e}, {}syevd {theirs:.2e}", T::LETTER);
        }
    }
}

/// Graded m × n matrices B·D: every singular value to a small relative error, against
/// `dgesvj`; `?gesvd` loses the small ones.
fn gesvdj_graded_for<T: QrBased>(h: &mut Handle) {
    let range = if T::EPS < 1e-10 { 1e-30 } else { 1e-15 };
    for (m, n) in [(16usize, 16usize), (40, 20), (20, 40)] {
        let mats: Vec<Vec<T>> = (0..2).map(|i| if m >= n { graded::<T>(m, n, range, 60 + i) } else { transpose(&graded::<T>(n, m, range, 60 + i), n, m) }).collect();
        let out = gesvdj_run::<T>(h, VEC, VEC, m, n, &mats, None);
        for (i, o) in out.iter().enumerate() {
            let what = format!("{}gesvdj graded {m}x{n} matrix {i}", T::LETTER);
            let a64: Vec<f64> = mats[i].iter().map(|x| x.to_c64().re).collect();
            let exact = if m >= n { svd_relative(m, n, &a64) } else { svd_relative(n, m, &transpose(&a64, m, n)) };
            let ours = relative_error(&o.vals, &exact);
            let lapack: Vec<f64> = T::gesvd(m, n, &mats[i]).iter().map(|x| x.to_c64().re).collect();
            let theirs = relative_error(&lapack, &exact);
            assert!(o.info == 0 && ours < RATIO * m.max(n) as f64 * T::EPS, "{what}: relative error {ours:.3e} (info {})", o.info);
            assert!(theirs > 1e-2, "{what}: {}gesvd kept relative accuracy ({theirs:.3e}): the matrix is not graded enough to tell", T::LETTER);
            eprintln!("{what}: relative error of the singular values: Jacobi {ours:.2e}, {}gesvd {theirs:.2e}", T::LETTER);
        }
    }
}

fn transpose<T: Copy>(a: &[T], rows: usize, cols: usize) -> Vec<T> {
    (0..rows * cols).map(|e| a[e / cols + (e % cols) * rows]).collect()
}

/// NaN and Inf: info 2 and NaN outputs for that matrix only, the others as alone; no hang.
fn nonfinite_for<T: Scalar>(h: &mut Handle) {
    for (n, bad) in [(5usize, nan::<T>()), (40, T::from_real(<T::Real as Float>::infinity()))] {
        let mut mats: Vec<Vec<T>> = (0..3).map(|i| hermitian::<T>(Class::Random, n, 500 + i)).collect();
        mats[1][n + 2] = bad;
        mats[1][2 * n + 1] = bad.conj();
        let out = syevj_run::<T>(h, VEC, false, n, &mats, None);
        let what = format!("{}syevj n={n} with {bad:?}", T::LETTER);
        assert!(out[1].info == 2 && out[1].sweeps == 0 && out[1].residual.is_nan() && out[1].vals.iter().all(|x| x.is_nan()) && out[1].u.iter().all(|x| x.re.is_nan()), "{what}: {:?}", out[1]);
        check_eig::<T>(&what, n, &mats[0], &out[0]);
        check_eig::<T>(&what, n, &mats[2], &out[2]);
        let mut g: Vec<Vec<T>> = (0..3).map(|i| general::<T>(Class::Random, n + 3, n, 600 + i)).collect();
        g[2][7] = bad;
        let out = gesvdj_run::<T>(h, VEC, VEC, n + 3, n, &g, None);
        let what = format!("{}gesvdj {}x{n} with {bad:?}", T::LETTER, n + 3);
        assert!(out[2].info == 2 && out[2].residual.is_nan() && out[2].vals.iter().all(|x| x.is_nan()) && out[2].u.iter().chain(&out[2].v).all(|x| x.re.is_nan()), "{what}: {:?}", out[2]);
        check_svd::<T>(&what, n + 3, n, &g[0], &out[0]);
    }
}

/// The sweep limit gives info 1 with the last iterate; unsorted output is a permutation of
/// the sorted one; the CPU backend's sweep counts (the oracle for them) agree within one.
fn params_for<T: Scalar>(h: &mut Handle) {
    let n = 24;
    let mats: Vec<Vec<T>> = (0..3).map(|i| hermitian::<T>(Class::Random, n, 700 + i)).collect();
    let one = numgpu_jacobi_params { max_sweeps: 1, ..Default::default() };
    let out = syevj_run::<T>(h, VEC, true, n, &mats, Some(&one));
    for o in &out {
        assert!(o.info == 1 && o.sweeps == 1 && o.residual > T::EPS, "{}syevj max_sweeps 1: {:?}", T::LETTER, (o.info, o.sweeps, o.residual));
        let orth = orthogonality(&o.u, n, n, n, T::EPS);
        assert!(orth < RATIO, "{}syevj max_sweeps 1: vectors not orthogonal ({orth:.3e})", T::LETTER);
    }
    let unsorted = numgpu_jacobi_params { unsorted: 1, ..Default::default() };
    let sorted = syevj_run::<T>(h, VEC, true, n, &mats, None);
    let raw = syevj_run::<T>(h, VEC, true, n, &mats, Some(&unsorted));
    for (i, (s, r)) in sorted.iter().zip(&raw).enumerate() {
        let mut v = r.vals.clone();
        v.sort_by(f64::total_cmp);
        assert_eq!(v, s.vals, "{}syevj unsorted: not a permutation", T::LETTER);
        let res = decomposition_residual(&c64s(&mats[i]), n, n, &r.u, &r.vals, &r.u, n, T::EPS);
        assert!(res < RATIO, "{}syevj unsorted: vectors not in the values' order ({res:.3e})", T::LETTER);
    }
    let loose = numgpu_jacobi_params { tol: 1e-3, ..Default::default() };
    let l = syevj_run::<T>(h, NOVEC, false, n, &mats, Some(&loose));
    assert!(l.iter().zip(&sorted).all(|(a, b)| a.info == 0 && a.sweeps <= b.sweeps && a.residual <= 1e-3), "{}syevj tol 1e-3", T::LETTER);
    let mut cpu = Handle::cpu();
    let g: Vec<Vec<T>> = (0..3).map(|i| general::<T>(Class::Random, 50, 20, 710 + i)).collect();
    for (x, y) in syevj_run::<T>(h, NOVEC, false, n, &mats, None).iter().zip(&syevj_run::<T>(&mut cpu, NOVEC, false, n, &mats, None)) {
        assert!((x.sweeps - y.sweeps).abs() <= 1, "{}syevj sweeps {} vs the CPU backend's {}", T::LETTER, x.sweeps, y.sweeps);
    }
    for (x, y) in gesvdj_run::<T>(h, NOVEC, NOVEC, 50, 20, &g, None).iter().zip(&gesvdj_run::<T>(&mut cpu, NOVEC, NOVEC, 50, 20, &g, None)) {
        assert!((x.sweeps - y.sweeps).abs() <= 1, "{}gesvdj sweeps {} vs the CPU backend's {}", T::LETTER, x.sweeps, y.sweeps);
    }
}

/// Larger orders: the block teams with the working matrices in global memory (under a
/// sanitizer, the smallest such order of T).
fn large_for<T: Scalar>(h: &mut Handle) {
    let n = match h.backend() {
        numgpu::Backend::Cuda if under_sanitizer() => (1..).find(|&n| !syevj_plan::<T>(n, true, SMEM_OPTIN).first_sh).unwrap(),
        numgpu::Backend::Cuda => 300,
        _ => 150,
    };
    let mats = vec![hermitian::<T>(Class::Random, n, 800)];
    check_eig::<T>(&format!("{}syevj n={n}", T::LETTER), n, &mats[0], &syevj_run::<T>(h, VEC, false, n, &mats, None)[0]);
    let g = vec![general::<T>(Class::Random, n + 20, n, 801)];
    check_svd::<T>(&format!("{}gesvdj {}x{n}", T::LETTER, n + 20), n + 20, n, &g[0], &gesvdj_run::<T>(h, VEC, VEC, n + 20, n, &g, None)[0]);
}

/// Empty work touches nothing.
fn empty_for<T: Scalar>(h: &mut Handle) {
    let mut a = vec![nan::<T>(); 4];
    let (mut w, mut info, mut sweeps, mut res) = (vec![<T::Real as Float>::nan(); 2], [POISON; 2], [POISON; 2], [<T::Real as Float>::nan(); 2]);
    syevj_batched_slices(h, VEC, 0, 0, &mut a, 1, 1, &mut w, 1, None, &mut info, &mut sweeps, &mut res, 2).unwrap();
    syevj_batched_slices(h, VEC, 0, 2, &mut a, 2, 4, &mut w, 2, None, &mut info, &mut sweeps, &mut res, 0).unwrap();
    gesvdj_batched_slices(h, VEC, VEC, 0, 3, &a, 1, 0, &mut w, 1, &mut [], 1, 0, &mut [], 3, 0, None, &mut info, &mut sweeps, &mut res, 2).unwrap();
    assert!(a.iter().all(|x| same(*x, nan::<T>())) && info == [POISON; 2] && sweeps == [POISON; 2] && w.iter().all(|x| x.is_nan()), "{}: empty work wrote", T::LETTER);
}

/// Arrays from `h.malloc` (device memory on CUDA): the same results as host arrays.
fn device_arrays_for<T: Scalar>(h: &mut Handle) {
    let (m, n, batch) = (20usize, 12usize, 3usize);
    let mats: Vec<Vec<T>> = (0..batch).map(|i| general::<T>(Class::Random, m, n, 900 + i as u64)).collect();
    let host = gesvdj_run::<T>(h, VEC, VEC, m, n, &mats, None);
    let a: Vec<T> = mats.concat();
    let (size, rsize) = (std::mem::size_of::<T>(), std::mem::size_of::<T::Real>());
    unsafe {
        let up = |h: &mut Handle, bytes: usize, src: *const u8| -> *mut u8 {
            let p = h.malloc(bytes).unwrap() as *mut u8;
            h.memcpy(p as _, src as _, bytes).unwrap();
            p
        };
        let pa = up(h, a.len() * size, a.as_ptr() as _) as *const T;
        let zeros = vec![T::zero(); m * n * batch];
        let pu = up(h, m * n * batch * size, zeros.as_ptr() as _) as *mut T;
        let pv = up(h, n * n * batch * size, zeros.as_ptr() as _) as *mut T;
        let ps = up(h, n * batch * rsize, zeros.as_ptr() as _) as *mut T::Real;
        let pi = up(h, 4 * batch, zeros.as_ptr() as _) as *mut i32;
        let pw = up(h, 4 * batch, zeros.as_ptr() as _) as *mut i32;
        let pr = up(h, rsize * batch, zeros.as_ptr() as _) as *mut T::Real;
        gesvdj_batched::<T>(h, VEC, VEC, m as i64, n as i64, pa, m as i64, (m * n) as i64, ps, n as i64, pu, m as i64, (m * n) as i64, pv, n as i64, (n * n) as i64, std::ptr::null(), pi, pw, pr, batch as i64).unwrap();
        let mut s = vec![<T::Real as Float>::nan(); n * batch];
        let mut u = vec![T::zero(); m * n * batch];
        let mut info = vec![0i32; batch];
        h.memcpy(s.as_mut_ptr() as _, ps as _, s.len() * rsize).unwrap();
        h.memcpy(u.as_mut_ptr() as _, pu as _, u.len() * size).unwrap();
        h.memcpy(info.as_mut_ptr() as _, pi as _, 4 * batch).unwrap();
        for i in 0..batch {
            let si: Vec<f64> = s[i * n..(i + 1) * n].iter().map(|&x| re::<T>(x)).collect();
            assert!(info[i] == 0 && si == host[i].vals && c64s(&u[i * m * n..(i + 1) * m * n]) == host[i].u, "{}gesvdj device arrays, matrix {i}", T::LETTER);
        }
        // syevj on a device copy of the Gram matrices' shape: A overwritten in place.
        let herm: Vec<Vec<T>> = (0..batch).map(|i| hermitian::<T>(Class::Random, n, 950 + i as u64)).collect();
        let hh = syevj_run::<T>(h, VEC, false, n, &herm, None);
        let flat: Vec<T> = herm.concat();
        let pz = up(h, flat.len() * size, flat.as_ptr() as _) as *mut T;
        syevj_batched::<T>(h, VEC, 0, n as i64, pz, n as i64, (n * n) as i64, ps, n as i64, std::ptr::null(), pi, pw, pr, batch as i64).unwrap();
        let mut z = vec![T::zero(); flat.len()];
        h.memcpy(z.as_mut_ptr() as _, pz as _, z.len() * size).unwrap();
        h.memcpy(s.as_mut_ptr() as _, ps as _, s.len() * rsize).unwrap();
        for i in 0..batch {
            let wi: Vec<f64> = s[i * n..(i + 1) * n].iter().map(|&x| re::<T>(x)).collect();
            assert!(wi == hh[i].vals && c64s(&z[i * n * n..(i + 1) * n * n]) == hh[i].u, "{}syevj device arrays, matrix {i}", T::LETTER);
        }
        for p in [pa as *mut u8, pu as _, pv as _, ps as _, pi as _, pw as _, pr as _, pz as _] {
            h.free(p as _).unwrap();
        }
    }
}

/// Every argument check names its argument (as the 1-based positions the C forms report) and
/// writes nothing.
fn argument_checks_for<T: Scalar>(h: &mut Handle) {
    const BAD: Status = Status::NUMGPU_INVALID_VALUE;
    let n = 3usize;
    let mat = hermitian::<T>(Class::Random, n, 990);
    let a2: Vec<T> = mat.iter().chain(&mat).copied().collect();
    // syevj (h=1, jobz=2, uplo=3, n=4, A=5, lda=6, strideA=7, w=8, strideW=9, params=10,
    // info=11, sweeps=12, residual=13, batch=14); two matrices 9 apart.
    let mut call = |jobz: i32, uplo: i32, n: i64, lda: i64, sa: i64, sw: i64, params: Option<&numgpu_jacobi_params>, batch: i64, cut: [usize; 5]| {
        let mut a = a2[cut[0]..].to_vec();
        let a0 = a.clone();
        let (mut w, mut info, mut sweeps, mut res) = (vec![<T::Real as Float>::nan(); 6 - cut[1]], vec![POISON; 2 - cut[2]], vec![POISON; 2 - cut[3]], vec![<T::Real as Float>::nan(); 2 - cut[4]]);
        let err = syevj_batched_slices(h, jobz, uplo, n, &mut a, lda, sa, &mut w, sw, params, &mut info, &mut sweeps, &mut res, batch).expect_err("invalid call succeeded");
        assert!(a.iter().zip(&a0).all(|(x, y)| same(*x, *y)) && w.iter().all(|x| x.is_nan()) && info.iter().chain(&sweeps).all(|&v| v == POISON), "invalid syevj call wrote: {err:?}");
        (err.status, c_position(&err, "numgpu_ssyevj_batched"))
    };
    let ok = [0usize; 5];
    assert_eq!(call(2, 0, 3, 3, 9, 3, None, 2, ok), (BAD, 2));
    assert_eq!(call(VEC, 2, 3, 3, 9, 3, None, 2, ok), (BAD, 3));
    assert_eq!(call(VEC, 0, -1, 3, 9, 3, None, 2, ok), (BAD, 4));
    assert_eq!(call(VEC, 0, 3, 3, 9, 3, None, 2, [1, 0, 0, 0, 0]), (BAD, 5));
    assert_eq!(call(VEC, 0, 3, 2, 9, 3, None, 2, ok), (BAD, 6));
    assert_eq!(call(VEC, 0, 3, 3, 8, 3, None, 2, ok), (BAD, 7));
    assert_eq!(call(VEC, 0, 3, 3, 0, 3, None, 2, ok), (BAD, 7));
    assert_eq!(call(VEC, 0, 3, 3, 9, 3, None, 2, [0, 1, 0, 0, 0]), (BAD, 8));
    assert_eq!(call(VEC, 0, 3, 3, 9, 2, None, 2, ok), (BAD, 9));
    for p in [numgpu_jacobi_params { tol: -1.0, ..Default::default() }, numgpu_jacobi_params { tol: f64::NAN, ..Default::default() }, numgpu_jacobi_params { max_sweeps: -1, ..Default::default() }, numgpu_jacobi_params { unsorted: 2, ..Default::default() }] {
        assert_eq!(call(VEC, 0, 3, 3, 9, 3, Some(&p), 2, ok), (BAD, 10), "{p:?}");
    }
    assert_eq!(call(VEC, 0, 3, 3, 9, 3, None, 2, [0, 0, 1, 0, 0]), (BAD, 11));
    assert_eq!(call(VEC, 0, 3, 3, 9, 3, None, 2, [0, 0, 0, 1, 0]), (BAD, 12));
    assert_eq!(call(VEC, 0, 3, 3, 9, 3, None, 2, [0, 0, 0, 0, 1]), (BAD, 13));
    assert_eq!(call(VEC, 0, 3, 3, 9, 3, None, -1, ok), (BAD, 14));
    // gesvdj (h=1, jobu=2, jobv=3, m=4, n=5, A=6, lda=7, strideA=8, S=9, strideS=10, U=11,
    // ldu=12, strideU=13, V=14, ldv=15, strideV=16, params=17, info=18, sweeps=19,
    // residual=20, batch=21); two 3 × 3 matrices.
    let mut g = |ju: i32, jv: i32, m: i64, lda: i64, sa: i64, ss: i64, ldu: i64, su: i64, ldv: i64, sv: i64, batch: i64, cut: [usize; 3]| {
        let (mut s, mut u, mut v) = (vec![<T::Real as Float>::nan(); 6], vec![nan::<T>(); 18 - cut[1]], vec![nan::<T>(); 18 - cut[2]]);
        let (mut info, mut sweeps, mut res) = ([POISON; 2], [POISON; 2], [<T::Real as Float>::nan(); 2]);
        let err = gesvdj_batched_slices(h, ju, jv, m, 3, &a2[cut[0]..], lda, sa, &mut s, ss, &mut u, ldu, su, &mut v, ldv, sv, None, &mut info, &mut sweeps, &mut res, batch).expect_err("invalid call succeeded");
        assert!(s.iter().all(|x| x.is_nan()) && u.iter().chain(&v).all(|x| same(*x, nan::<T>())) && info == [POISON; 2], "invalid gesvdj call wrote: {err:?}");
        (err.status, c_position(&err, "numgpu_sgesvdj_batched"))
    };
    let ok = [0usize; 3];
    assert_eq!(g(-1, VEC, 3, 3, 9, 3, 3, 9, 3, 9, 2, ok), (BAD, 2));
    assert_eq!(g(VEC, 3, 3, 3, 9, 3, 3, 9, 3, 9, 2, ok), (BAD, 3));
    assert_eq!(g(VEC, VEC, -3, 3, 9, 3, 3, 9, 3, 9, 2, ok), (BAD, 4));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 3, 3, 9, 3, 9, 2, [1, 0, 0]), (BAD, 6));
    assert_eq!(g(VEC, VEC, 3, 2, 9, 3, 3, 9, 3, 9, 2, ok), (BAD, 7));
    assert_eq!(g(VEC, VEC, 3, 3, 5, 3, 3, 9, 3, 9, 2, ok), (BAD, 8));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 2, 3, 9, 3, 9, 2, ok), (BAD, 10));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 3, 3, 9, 3, 9, 2, [0, 1, 0]), (BAD, 11));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 3, 2, 9, 3, 9, 2, ok), (BAD, 12));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 3, 3, 0, 3, 9, 2, ok), (BAD, 13));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 3, 3, 9, 3, 9, 2, [0, 0, 1]), (BAD, 14));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 3, 3, 9, 1, 9, 2, ok), (BAD, 15));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 3, 3, 9, 3, 8, 2, ok), (BAD, 16));
    assert_eq!(g(VEC, VEC, 3, 3, 9, 3, 3, 9, 3, 9, -2, ok), (BAD, 21));
    // Raw pointers: NULL arrays.
    let null = std::ptr::null_mut::<T>();
    let (mut s, mut info, mut sweeps, mut res) = ([<T::Real as Float>::nan(); 6], [POISON; 2], [POISON; 2], [<T::Real as Float>::nan(); 2]);
    let mut u = vec![nan::<T>(); 18];
    let e = unsafe { gesvdj_batched::<T>(h, VEC, VEC, 3, 3, a2.as_ptr(), 3, 9, s.as_mut_ptr(), 3, u.as_mut_ptr(), 3, 9, null, 3, 9, std::ptr::null(), info.as_mut_ptr(), sweeps.as_mut_ptr(), res.as_mut_ptr(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgesvdj_batched")), (BAD, 14));
    let e = unsafe { gesvdj_batched::<T>(h, VEC, NOVEC, 3, 3, a2.as_ptr(), 3, 9, s.as_mut_ptr(), 3, u.as_mut_ptr(), 3, 9, null, 3, 9, std::ptr::null(), info.as_mut_ptr(), std::ptr::null_mut(), res.as_mut_ptr(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgesvdj_batched")), (BAD, 19));
    assert!(u.iter().all(|x| same(*x, nan::<T>())) && info == [POISON; 2] && sweeps == [POISON; 2], "invalid gesvdj call wrote");
}

/// Through the C ABI: a NULL handle is named, and each entry point passes its arguments on in
/// order (the same bits as the Rust API).
#[test]
fn jacobi_c_abi_checks() {
    use numgpu::ffi::capi::numgpu_last_error_arg;
    use numgpu::jacobi::capi::*;
    let n = 5;
    let a = hermitian::<f64>(Class::Random, n, 991);
    let (mut z, mut w, mut info, mut sweeps, mut res) = (a.clone(), [0.0; 5], [POISON], [POISON], [0.0]);
    let st = unsafe { numgpu_dsyevj_batched(std::ptr::null_mut(), VEC, 0, 5, z.as_mut_ptr(), 5, 25, w.as_mut_ptr(), 5, std::ptr::null(), info.as_mut_ptr(), sweeps.as_mut_ptr(), res.as_mut_ptr(), 1) };
    assert_eq!((st, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 1));
    let mut h = Handle::cpu();
    let st = unsafe { numgpu_dsyevj_batched(&mut h, VEC, 0, 5, z.as_mut_ptr(), 5, 25, w.as_mut_ptr(), 5, std::ptr::null(), info.as_mut_ptr(), sweeps.as_mut_ptr(), res.as_mut_ptr(), 1) };
    let want = syevj_run::<f64>(&mut h, VEC, false, n, std::slice::from_ref(&a), None);
    assert!(st == Status::NUMGPU_SUCCESS && w.to_vec() == want[0].vals && c64s(&z) == want[0].u && info[0] == 0 && sweeps[0] == want[0].sweeps, "numgpu_dsyevj_batched");
    let g = general::<f32>(Class::Random, 4, 6, 992);
    let (mut s, mut u, mut v, mut rs) = ([0f32; 4], [0f32; 16], [0f32; 24], [0f32]);
    let st = unsafe { numgpu_sgesvdj_batched(&mut h, VEC, VEC, 4, 6, g.as_ptr(), 4, 24, s.as_mut_ptr(), 4, u.as_mut_ptr(), 4, 16, v.as_mut_ptr(), 6, 24, std::ptr::null(), info.as_mut_ptr(), sweeps.as_mut_ptr(), rs.as_mut_ptr(), 1) };
    let want = gesvdj_run::<f32>(&mut h, VEC, VEC, 4, 6, std::slice::from_ref(&g), None);
    assert!(st == Status::NUMGPU_SUCCESS && s.iter().map(|&x| x as f64).collect::<Vec<_>>() == want[0].vals && c64s(&u) == want[0].u && c64s(&v) == want[0].v, "numgpu_sgesvdj_batched");
}

crate::all_precisions! {
    syevj_classes => syevj_classes_for;
    gesvdj_classes => gesvdj_classes_for;
    syevj_warp_orders => syevj_warp_orders_for;
    gesvdj_warp_shapes => gesvdj_warp_shapes_for;
    nonfinite => nonfinite_for;
    params => params_for;
    large => large_for;
    empty => empty_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
}

crate::real_precisions! {
    syevj_graded => syevj_graded_for;
    gesvdj_graded => gesvdj_graded_for;
}

crate::on_every_backend! {
    syevj_every_class_and_order_1_to_129 => super::syevj_classes;
    gesvdj_every_class_square_tall_wide => super::gesvdj_classes;
    syevj_warp_kernels_every_order_1_to_33 => super::syevj_warp_orders;
    gesvdj_warp_kernels_every_order_square_tall_wide => super::gesvdj_warp_shapes;
    syevj_graded_relative_accuracy_where_syevd_loses_it => super::syevj_graded;
    gesvdj_graded_relative_accuracy_where_gesvd_loses_it => super::gesvdj_graded;
    jacobi_nan_inf_give_info_and_never_hang => super::nonfinite;
    jacobi_sweep_limit_unsorted_tol_and_cpu_sweeps => super::params;
    jacobi_large_orders_in_global_memory => super::large;
    jacobi_empty_work_touches_nothing => super::empty;
    jacobi_device_arrays => super::device_arrays;
    jacobi_argument_checks => super::argument_checks;
}
