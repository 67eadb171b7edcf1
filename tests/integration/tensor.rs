//! Dense tensors on every backend: the Khatri–Rao product bit for bit against the double
//! product rounded once; MTTKRP for every mode of 3rd-, 4th- and 5th-order tensors from
//! 1 × 1 × 1 to 60³ (and the shapes that take every path: one GEMM, split-K with and without a
//! remainder, slices, slices in several groups, unit dimensions before or after the mode; on
//! CUDA the skinny kernel of each width for ranks 1 to 64, its stretches, slice groups and empty
//! last stretch, and rank 65 on the GEMMs)
//! against the explicit unfold + Khatri–Rao + GEMM in double, within the componentwise bound
//! (k + d)·ε·|X_(n)|·|K|. Factors and M have padded leading dimensions whose NaN padding must
//! come back unchanged, M is poisoned with NaN, X and the factors must be unchanged; zero
//! dimensions and rank 0; device arrays; results reproducible bit for bit; every argument
//! check names its C position and writes nothing.
//!
//! The decompositions (issue 19): the reconstructions against the oracle's dense tensors from
//! the definitions; CP-ALS recovering planted rank-R tensors of orders 3, 4 and 5 (fit → 1),
//! and the same fit, iteration for iteration, as a reference ALS written plainly below (explicit
//! unfold + Khatri–Rao + normal equations, its fit from the dense residual) from the same
//! start; TT-SVD and TR-SVD within eps·‖X‖ on random tensors and recovering planted ranks
//! exactly; HT recovering planted ranks, checked through its dense reconstruction; the capacity
//! protocol; NaN, zero dimensions and rank 0; device arrays; 1 × 1 × 1 to 300³; the CUDA backend
//! against the CPU backend on the same inputs.

use crate::common::{c_position, sizes_per_path, under_sanitizer};
use numgpu::lapack::Blas;
use numgpu::tensor::cp::{cp_als, cp_als_slices, cp_reconstruct, cp_reconstruct_slices, numgpu_cp_options};
use numgpu::tensor::engine::Real;
use numgpu::tensor::ht::{ht, ht_reconstruct, ht_reconstruct_slices, ht_slices};
use numgpu::tensor::train::{tr_reconstruct_slices, tr_svd, tr_svd_slices, tt_reconstruct, tt_reconstruct_slices, tt_svd, tt_svd_slices};
use numgpu::tensor::{khatri_rao, khatri_rao_slices, mttkrp, mttkrp_slices};
use numgpu::testing::gen::{filled, nan};
use numgpu::testing::norm::{same, unchanged};
use numgpu::testing::tensor as oracle;
use numgpu::{Handle, Scalar, Status};

fn f64s<T: Scalar>(v: &[T]) -> Vec<f64> {
    v.iter().map(|x| x.to_c64().re).collect()
}

/// A `rows × cols` matrix of random entries stored with leading dimension `ld`, padding NaN;
/// and its entries compact, in double.
fn padded<T: Scalar>(rows: usize, cols: usize, ld: usize, seed: u64) -> (Vec<T>, Vec<f64>) {
    let vals: Vec<T> = filled(rows * cols, seed);
    let mut a = vec![nan::<T>(); (ld * cols).max(1)];
    for j in 0..cols {
        a[j * ld..j * ld + rows].copy_from_slice(&vals[j * rows..(j + 1) * rows]);
    }
    (a, f64s(&vals))
}

/// Whether the padding rows `rows .. ld` of every column of `a` still hold NaN.
fn padding_kept<T: Scalar>(a: &[T], rows: usize, ld: usize) -> bool {
    a.chunks(ld).all(|col| col[rows.min(col.len())..].iter().all(|x| same(*x, nan::<T>())))
}

fn khatri_rao_for<T: Blas>(h: &mut Handle) {
    for (m, n, r) in [(1, 1, 1), (2, 3, 4), (7, 5, 3), (33, 31, 17), (64, 65, 2), (1, 100, 5)] {
        let (lda, ldb, ldc) = (m + 2, n + 1, m * n + 3);
        let (a, av) = padded::<T>(m, r, lda, 11 + m as u64);
        let (b, bv) = padded::<T>(n, r, ldb, 12 + n as u64);
        let mut c = vec![nan::<T>(); ldc * r];
        let (a0, b0) = (a.clone(), b.clone());
        let what = format!("{}khatri_rao m={m} n={n} r={r}", T::LETTER);
        khatri_rao_slices(h, m as i64, n as i64, r as i64, &a, lda as i64, &b, ldb as i64, &mut c, ldc as i64).unwrap_or_else(|e| panic!("{what}: {e}"));
        h.synchronize().unwrap();
        let want = oracle::khatri_rao(&av, m, &bv, n, r);
        for (e, w) in want.iter().enumerate() {
            let (row, k) = (e % (m * n), e / (m * n));
            // One product of two T's is exact in double: rounded once, it is T's product.
            let got = c[row + k * ldc];
            assert!(same(got, T::from_c64(numgpu::Complex64::new(*w, 0.0))), "{what}: C({row}, {k}) = {got:?}, want {w}");
        }
        assert!(padding_kept(&c, m * n, ldc) && unchanged(&a, &a0) && unchanged(&b, &b0), "{what}: padding or inputs written");
    }
}

/// Runs MTTKRP on `dims` for `mode` with `rank` on host slices: factors with leading dimension
/// dims[k] + (k % 3), M with dims[mode] + 2, all padded with NaN, M poisoned. Checks the
/// error ratio, the padding and that the inputs are unchanged; returns M.
fn check_mode<T: Blas>(h: &mut Handle, dims: &[usize], mode: usize, rank: usize, seed: u64) -> Vec<T> {
    let x: Vec<T> = filled(dims.iter().product(), seed);
    let ldu: Vec<usize> = dims.iter().enumerate().map(|(k, &d)| d + k % 3).collect();
    let (u, uv): (Vec<Vec<T>>, Vec<Vec<f64>>) = (0..dims.len()).map(|k| padded::<T>(dims[k], rank, ldu[k].max(1), seed + 100 + k as u64)).unzip();
    let ldm = dims[mode] + 2;
    let mut m = vec![nan::<T>(); ldm * rank];
    let (x0, u0) = (x.clone(), u.clone());
    let slices: Vec<&[T]> = u.iter().map(|v| v.as_slice()).collect();
    let (dims_i, ldu_i): (Vec<i64>, Vec<i64>) = (dims.iter().map(|&d| d as i64).collect(), ldu.iter().map(|&d| d.max(1) as i64).collect());
    let what = format!("{}mttkrp dims {dims:?} mode {mode} rank {rank}", T::LETTER);
    mttkrp_slices(h, &dims_i, &x, mode as i32, rank as i64, &slices, &ldu_i, &mut m, ldm as i64).unwrap_or_else(|e| panic!("{what}: {e}"));
    h.synchronize().unwrap();
    let (want, bound) = oracle::mttkrp(dims, &f64s(&x), mode, rank, &uv);
    let ratio = oracle::mttkrp_ratio(&f64s(&m), ldm, &want, &bound, dims, mode, T::EPS);
    assert!(ratio < 1.0, "{what}: error ratio {ratio} (bound (k + d)·ε·|X_(n)|·|K|)");
    assert!(padding_kept(&m, dims[mode], ldm), "{what}: M's padding written");
    assert!(unchanged(&x, &x0) && u.iter().zip(&u0).all(|(a, b)| unchanged(a, b)), "{what}: X or a factor written");
    m
}

/// Every mode of tensors of order 3, 4 and 5, and the shapes of every path.
fn every_mode_for<T: Blas>(h: &mut Handle) {
    let cases: &[(&[usize], usize)] = &[
        (&[1, 1, 1], 1),
        (&[2, 3, 4], 3),
        (&[5, 1, 7], 2),
        (&[1, 7, 5], 4),
        (&[17, 9, 13], 16),
        (&[5, 31, 37], 3),
        (&[60, 60, 60], 16),
        (&[3, 4, 5, 6], 5),
        (&[1, 7, 1, 5], 2),
        (&[12, 10, 8, 9], 8),
        (&[2, 3, 4, 5, 6], 3),
        (&[3, 1, 4, 1, 5], 2),
        (&[6, 5, 4, 7, 3], 7),
    ];
    for (seed, &(dims, rank)) in cases.iter().enumerate() {
        for mode in 0..dims.len() {
            check_mode::<T>(h, dims, mode, rank, 1000 * seed as u64);
        }
    }
}

/// Large middle-mode products whose partial products take several groups on CUDA, and the
/// same call twice gives the same bits.
fn groups_and_reproducible_for<T: Blas>(h: &mut Handle) {
    let dims = [2, 1000, 300];
    let first = check_mode::<T>(h, &dims, 1, 64, 77);
    let again = check_mode::<T>(h, &dims, 1, 64, 77);
    assert!(unchanged(&first, &again), "{}mttkrp is not reproducible", T::LETTER);
}

/// The edges of CUDA's skinny contraction (run on every backend): ranks 1, 9, 17, 33 and 64
/// (its kernels of 8, 16, 32 and 64 columns, partly or wholly filled) and 65 (the GEMM path),
/// every mode of 1 × 1 × 1, of a 3rd-order tensor whose sums are cut into stretches (first and
/// last modes) or grouped slices (the middle one), and of 4th- and 5th-order tensors; a last
/// mode whose sum of 132 000 is cut (on 132 SMs) into more stretches than it fills, so the last
/// piece is empty; orders 17 and 18 (16 other factors, the most the kernel forms K's rows from,
/// and 17: the GEMM path); the same bits twice.
fn skinny_edges_for<T: Blas>(h: &mut Handle) {
    let shapes: &[&[usize]] = if under_sanitizer() { &[&[1, 1, 1], &[40, 50, 60]] } else { &[&[1, 1, 1], &[40, 50, 60], &[6, 5, 4, 7], &[3, 4, 2, 5, 3]] };
    // Under a sanitizer one rank per kernel width, and the GEMM path.
    let ranks: &[usize] = if under_sanitizer() { &[1, 9, 17, 33, 65] } else { &[1, 9, 17, 33, 64, 65] };
    for (seed, &rank) in ranks.iter().enumerate() {
        for dims in shapes {
            for mode in 0..dims.len() {
                check_mode::<T>(h, dims, mode, rank, 500 + seed as u64);
            }
        }
    }
    check_mode::<T>(h, &[330, 400, 2], 2, 8, 91);
    for order in [17, 18] {
        let mut dims = vec![1; order];
        (dims[0], dims[5], dims[order - 1]) = (3, 2, 4);
        for mode in [0, 5, 9, order - 1] {
            check_mode::<T>(h, &dims, mode, 5, 93 + mode as u64);
        }
    }
    let first = check_mode::<T>(h, &[40, 50, 60], 0, 33, 92);
    let again = check_mode::<T>(h, &[40, 50, 60], 0, 33, 92);
    assert!(unchanged(&first, &again), "{}mttkrp split into stretches is not reproducible", T::LETTER);
}

/// dims[mode] = 0 or rank 0 write nothing; a zero elsewhere gives M = 0 (padding kept).
fn empty_for<T: Blas>(h: &mut Handle) {
    let x: Vec<T> = filled(30, 4);
    let u: Vec<T> = filled(8, 5);
    let factors: [&[T]; 3] = [&u, &[], &u];
    let run = |h: &mut Handle, dims: [i64; 3], mode: i32, rank: i64| {
        let mut m = vec![nan::<T>(); 8];
        mttkrp_slices(h, &dims, &x, mode, rank, &factors, &[4, 1, 4], &mut m, 4).unwrap_or_else(|e| panic!("{}mttkrp dims {dims:?} mode {mode} rank {rank}: {e}", T::LETTER));
        h.synchronize().unwrap();
        m
    };
    assert!(run(h, [3, 0, 2], 1, 2).iter().all(|v| same(*v, nan::<T>())), "{}mttkrp dims[mode] = 0 wrote", T::LETTER);
    assert!(run(h, [3, 5, 2], 0, 0).iter().all(|v| same(*v, nan::<T>())), "{}mttkrp rank 0 wrote", T::LETTER);
    let m = run(h, [3, 0, 2], 0, 2);
    let zero = <T as Scalar>::zero();
    assert!(m[..3].iter().chain(&m[4..7]).all(|v| same(*v, zero)) && same(m[3], nan::<T>()) && same(m[7], nan::<T>()), "{}mttkrp with an empty sum: {m:?}", T::LETTER);
    let mut c = vec![nan::<T>(); 4];
    khatri_rao_slices(h, 0, 3, 2, &[], 1, &u, 4, &mut c, 1).unwrap();
    khatri_rao_slices(h, 2, 2, 0, &u, 2, &u, 2, &mut c, 4).unwrap();
    h.synchronize().unwrap();
    assert!(c.iter().all(|v| same(*v, nan::<T>())), "{}khatri_rao of empty sizes wrote", T::LETTER);
}

/// Arrays from `h.malloc` (device memory on CUDA): the same bits as host arrays.
fn device_arrays_for<T: Blas>(h: &mut Handle) {
    let size = std::mem::size_of::<T>();
    let up = |h: &mut Handle, v: &[T]| -> *mut T {
        let p = h.malloc(std::mem::size_of_val(v)).unwrap() as *mut T;
        // SAFETY: p holds v.len() elements.
        unsafe { h.memcpy(p as _, v.as_ptr() as _, std::mem::size_of_val(v)).unwrap() };
        p
    };
    let down = |h: &mut Handle, p: *const T, len: usize| -> Vec<T> {
        let mut v = vec![<T as Scalar>::zero(); len];
        // SAFETY: p holds len elements.
        unsafe { h.memcpy(v.as_mut_ptr() as _, p as _, len * size).unwrap() };
        v
    };
    for (dims, rank) in [([9usize, 40, 33], 5usize), ([300, 2, 3], 4)] {
        for mode in 0..3 {
            let host = check_mode::<T>(h, &dims, mode, rank, 31);
            // The inputs check_mode built from seed 31, again.
            let x: Vec<T> = filled(dims.iter().product(), 31);
            let ldu: Vec<i64> = dims.iter().enumerate().map(|(k, &d)| (d + k % 3) as i64).collect();
            let us: Vec<Vec<T>> = (0..3).map(|k| padded::<T>(dims[k], rank, ldu[k] as usize, 131 + k as u64).0).collect();
            let ldm = dims[mode] + 2;
            let (px, pm) = (up(h, &x), up(h, &vec![nan::<T>(); ldm * rank]));
            let pu: Vec<*const T> = us.iter().map(|u| up(h, u) as *const T).collect();
            let dims_i: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
            // SAFETY: device arrays of the extents the sizes give; dims, pu and ldu host arrays.
            unsafe { mttkrp::<T>(h, 3, dims_i.as_ptr(), px, mode as i32, rank as i64, pu.as_ptr(), ldu.as_ptr(), pm, ldm as i64) }.unwrap();
            let dev = down(h, pm, ldm * rank);
            assert!(unchanged(&dev, &host), "{}mttkrp device arrays dims {dims:?} mode {mode}: not the host result", T::LETTER);
            for p in pu.iter().map(|&p| p as *mut T).chain([px, pm]) {
                // SAFETY: from h.malloc, not used again.
                unsafe { h.free(p as _).unwrap() };
            }
        }
    }
    let (a, b) = (padded::<T>(5, 3, 6, 1).0, padded::<T>(4, 3, 4, 2).0);
    let (pa, pb, pc) = (up(h, &a), up(h, &b), up(h, &[nan::<T>(); 21 * 3]));
    // SAFETY: device arrays of the extents the sizes give.
    unsafe { khatri_rao::<T>(h, 5, 4, 3, pa, 6, pb, 4, pc, 21) }.unwrap();
    let mut c = vec![nan::<T>(); 21 * 3];
    khatri_rao_slices(h, 5, 4, 3, &a, 6, &b, 4, &mut c, 21).unwrap();
    assert!(unchanged(&down(h, pc, 63), &c), "{}khatri_rao device arrays", T::LETTER);
    for p in [pa, pb, pc] {
        // SAFETY: from h.malloc, not used again.
        unsafe { h.free(p as _).unwrap() };
    }
}

/// Every argument check names its argument (as the 1-based positions the C forms report) and
/// writes nothing.
fn argument_checks_for<T: Blas>(h: &mut Handle) {
    const BAD: Status = Status::NUMGPU_INVALID_VALUE;
    // mttkrp (h=1, ndim=2, dims=3, X=4, mode=5, rank=6, U=7, ldu=8, M=9, ldm=10) on 2 × 3 × 4.
    let x: Vec<T> = filled(24, 1);
    let u: Vec<Vec<T>> = [2, 3, 4].iter().map(|&d| filled(d * 2, d as u64)).collect();
    let mut m = vec![nan::<T>(); 8];
    let null = std::ptr::null::<T>();
    let mut call = |ndim: i32, dims: &[i64], x: *const T, mode: i32, rank: i64, u: &[*const T], ldu: &[i64], m: *mut T, ldm: i64| {
        let err = unsafe { mttkrp::<T>(h, ndim, if dims.is_empty() { std::ptr::null() } else { dims.as_ptr() }, x, mode, rank, if u.is_empty() { std::ptr::null() } else { u.as_ptr() }, if ldu.is_empty() { std::ptr::null() } else { ldu.as_ptr() }, m, ldm) }.expect_err("invalid call succeeded");
        (err.status, c_position(&err, "numgpu_smttkrp"))
    };
    let (dims, ldu, up): ([i64; 3], [i64; 3], Vec<*const T>) = ([2, 3, 4], [2, 3, 4], u.iter().map(|v| v.as_ptr()).collect());
    let (xp, mp) = (x.as_ptr(), m.as_mut_ptr());
    assert_eq!(call(2, &dims, xp, 0, 2, &up, &ldu, mp, 2), (BAD, 2));
    assert_eq!(call(3, &[], xp, 0, 2, &up, &ldu, mp, 2), (BAD, 3));
    assert_eq!(call(3, &[2, -3, 4], xp, 0, 2, &up, &ldu, mp, 2), (BAD, 3));
    assert_eq!(call(3, &dims, null, 0, 2, &up, &ldu, mp, 2), (BAD, 4));
    assert_eq!(call(3, &dims, xp, 3, 2, &up, &ldu, mp, 2), (BAD, 5));
    assert_eq!(call(3, &dims, xp, -1, 2, &up, &ldu, mp, 2), (BAD, 5));
    assert_eq!(call(3, &dims, xp, 0, -2, &up, &ldu, mp, 2), (BAD, 6));
    assert_eq!(call(3, &dims, xp, 0, 2, &[], &ldu, mp, 2), (BAD, 7));
    assert_eq!(call(3, &dims, xp, 0, 2, &[up[0], up[1], null], &ldu, mp, 2), (BAD, 7));
    assert_eq!(call(3, &dims, xp, 0, 2, &up, &[], mp, 2), (BAD, 8));
    assert_eq!(call(3, &dims, xp, 0, 2, &up, &[2, 2, 4], mp, 2), (BAD, 8));
    assert_eq!(call(3, &dims, xp, 0, 2, &up, &ldu, std::ptr::null_mut(), 2), (BAD, 9));
    assert_eq!(call(3, &dims, xp, 0, 2, &up, &ldu, mp, 1), (BAD, 10));
    assert_eq!(call(3, &dims, xp, 0, 2, &up, &ldu, xp as *mut T, 2), (BAD, 9));
    // U[mode] and ldu[mode] are not referenced.
    let mut ok = vec![nan::<T>(); 8];
    unsafe { mttkrp::<T>(h, 3, dims.as_ptr(), xp, 1, 2, [up[0], null, up[2]].as_ptr(), [2, 0, 4].as_ptr(), ok.as_mut_ptr(), 3) }.unwrap();
    h.synchronize().unwrap();
    assert!(m.iter().all(|v| same(*v, nan::<T>())), "an invalid mttkrp call wrote M");
    // khatri_rao (h=1, m=2, n=3, r=4, A=5, lda=6, B=7, ldb=8, C=9, ldc=10).
    let (a, b) = (filled::<T>(6, 1), filled::<T>(4, 2));
    let mut c = vec![nan::<T>(); 18];
    let mut kr = |m: i64, n: i64, r: i64, a: *const T, lda: i64, b: *const T, ldb: i64, c: *mut T, ldc: i64| {
        let err = unsafe { khatri_rao::<T>(h, m, n, r, a, lda, b, ldb, c, ldc) }.expect_err("invalid call succeeded");
        (err.status, c_position(&err, "numgpu_skhatri_rao"))
    };
    let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
    assert_eq!(kr(-1, 2, 2, ap, 3, bp, 2, cp, 6), (BAD, 2));
    assert_eq!(kr(3, -2, 2, ap, 3, bp, 2, cp, 6), (BAD, 3));
    assert_eq!(kr(3, 2, -1, ap, 3, bp, 2, cp, 6), (BAD, 4));
    assert_eq!(kr(3, 2, 2, null, 3, bp, 2, cp, 6), (BAD, 5));
    assert_eq!(kr(3, 2, 2, ap, 2, bp, 2, cp, 6), (BAD, 6));
    assert_eq!(kr(3, 2, 2, ap, 3, null, 2, cp, 6), (BAD, 7));
    assert_eq!(kr(3, 2, 2, ap, 3, bp, 1, cp, 6), (BAD, 8));
    assert_eq!(kr(3, 2, 2, ap, 3, bp, 2, std::ptr::null_mut(), 6), (BAD, 9));
    assert_eq!(kr(3, 2, 2, ap, 3, bp, 2, cp, 5), (BAD, 10));
    assert_eq!(kr(3, 2, 2, ap, 3, bp, 2, ap as *mut T, 6), (BAD, 9));
    assert!(c.iter().all(|v| same(*v, nan::<T>())), "an invalid khatri_rao call wrote C");
}

/// Through the C ABI: a NULL handle is named, and each entry point passes its arguments on in
/// order (the same bits as the Rust API).
#[test]
fn tensor_c_abi_checks() {
    use numgpu::ffi::capi::numgpu_last_error_arg;
    use numgpu::tensor::capi::*;
    let dims = [3i64, 4, 5];
    let x: Vec<f64> = filled(60, 3);
    let u: Vec<Vec<f64>> = dims.iter().map(|&d| filled(d as usize * 2, d as u64)).collect();
    let up: Vec<*const f64> = u.iter().map(|v| v.as_ptr()).collect();
    let mut m = [f64::NAN; 8];
    let st = unsafe { numgpu_dmttkrp(std::ptr::null_mut(), 3, dims.as_ptr(), x.as_ptr(), 1, 2, up.as_ptr(), dims.as_ptr(), m.as_mut_ptr(), 4) };
    assert_eq!((st, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 1));
    let mut h = Handle::cpu();
    let st = unsafe { numgpu_dmttkrp(&mut h, 3, dims.as_ptr(), x.as_ptr(), 1, 2, up.as_ptr(), dims.as_ptr(), m.as_mut_ptr(), 4) };
    let uv: Vec<Vec<f64>> = u.clone();
    let (want, bound) = oracle::mttkrp(&[3, 4, 5], &x, 1, 2, &uv);
    assert!(st == Status::NUMGPU_SUCCESS && oracle::mttkrp_ratio(&m, 4, &want, &bound, &[3, 4, 5], 1, f64::EPSILON) < 1.0, "numgpu_dmttkrp: {m:?}");
    let xs: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let us: Vec<Vec<f32>> = u.iter().map(|v| v.iter().map(|&a| a as f32).collect()).collect();
    let usp: Vec<*const f32> = us.iter().map(|v| v.as_ptr()).collect();
    let mut ms = [f32::NAN; 10];
    let st = unsafe { numgpu_smttkrp(&mut h, 3, dims.as_ptr(), xs.as_ptr(), 2, 2, usp.as_ptr(), dims.as_ptr(), ms.as_mut_ptr(), 5) };
    let (want, bound) = oracle::mttkrp(&[3, 4, 5], &f64s(&xs), 2, 2, &us.iter().map(|v| f64s(v)).collect::<Vec<_>>());
    assert!(st == Status::NUMGPU_SUCCESS && oracle::mttkrp_ratio(&f64s(&ms), 5, &want, &bound, &[3, 4, 5], 2, f32::EPSILON as f64) < 1.0, "numgpu_smttkrp: {ms:?}");
    let (a, b) = ([1.0f64, 2.0, 3.0, 4.0], [5.0f64, 6.0]);
    let mut c = [0.0f64; 4];
    let st = unsafe { numgpu_dkhatri_rao(&mut h, 2, 1, 2, a.as_ptr(), 2, b.as_ptr(), 1, c.as_mut_ptr(), 2) };
    assert!(st == Status::NUMGPU_SUCCESS && c == [5.0, 10.0, 18.0, 24.0], "numgpu_dkhatri_rao: {c:?}");
    let mut cs = [0.0f32; 4];
    let st = unsafe { numgpu_skhatri_rao(&mut h, 1, 2, 2, [2.0f32, 3.0].as_ptr(), 1, [1.0f32, 2.0, 3.0, 4.0].as_ptr(), 2, cs.as_mut_ptr(), 2) };
    assert!(st == Status::NUMGPU_SUCCESS && cs == [2.0, 4.0, 9.0, 12.0], "numgpu_skhatri_rao: {cs:?}");
}

// ---- the decompositions --------------------------------------------------------------------

/// Values rounded to T.
fn ts<T: Scalar>(v: &[f64]) -> Vec<T> {
    v.iter().map(|&x| T::from_c64(numgpu::Complex64::new(x, 0.0))).collect()
}

fn i64s(v: &[usize]) -> Vec<i64> {
    v.iter().map(|&x| x as i64).collect()
}

/// A tolerance that scales with the precision: `d` in double, `s` in single.
fn tol<T: Scalar>(d: f64, s: f64) -> f64 {
    if T::EPS < 1e-10 {
        d
    } else {
        s
    }
}

/// A compact random factor of `rows × rank` stored with leading dimension `ld`, padding NaN;
/// and its entries compact, in double.
fn factor<T: Scalar>(rows: usize, rank: usize, ld: usize, seed: u64) -> (Vec<T>, Vec<f64>) {
    padded::<T>(rows, rank, ld.max(1), seed)
}

/// The CP reconstruction against the oracle's dense tensor, padded factors, λ or none, rank 0.
fn cp_reconstruct_for<T: Real>(h: &mut Handle) {
    let cases: &[(&[usize], usize)] = &[(&[1, 1, 1], 1), (&[2, 3, 4], 3), (&[5, 1, 7], 2), (&[3, 4, 5, 6], 4), (&[2, 3, 2, 3, 2], 2), (&[7, 6, 5], 0), (&[33, 17, 9], 5)];
    for (seed, &(dims, rank)) in cases.iter().enumerate() {
        let seed = 500 + 10 * seed as u64;
        let ld: Vec<usize> = dims.iter().enumerate().map(|(k, &d)| d + k % 2).collect();
        let (u, uv): (Vec<Vec<T>>, Vec<Vec<f64>>) = (0..dims.len()).map(|k| factor::<T>(dims[k], rank, ld[k], seed + k as u64)).unzip();
        let lam: Vec<T> = filled(rank, seed + 9);
        for weighted in [true, false] {
            let numel: usize = dims.iter().product();
            let mut x = vec![nan::<T>(); numel];
            let slices: Vec<&[T]> = u.iter().map(|v| v.as_slice()).collect();
            let what = format!("{}cp_reconstruct dims {dims:?} rank {rank} weighted {weighted}", T::LETTER);
            cp_reconstruct_slices(h, &i64s(dims), rank as i64, &slices, &i64s(&ld), weighted.then_some(lam.as_slice()), &mut x).unwrap_or_else(|e| panic!("{what}: {e}"));
            h.synchronize().unwrap();
            let lv = if weighted { f64s(&lam) } else { vec![1.0; rank] };
            let want = oracle::cp_dense(dims, &uv, &lv);
            let err = oracle::rel_err(&f64s(&x), &want);
            let bound = if rank == 0 { 0.0 } else { 4.0 * (rank + dims.len()) as f64 * T::EPS };
            assert!(err <= bound, "{what}: relative error {err:e} > {bound:e}");
        }
    }
    // A zero dimension touches nothing.
    let mut x = vec![nan::<T>(); 4];
    let u: Vec<T> = filled(8, 1);
    cp_reconstruct_slices(h, &[2, 0, 2], 2, &[&u, &[], &u], &[2, 1, 2], None, &mut x).unwrap();
    h.synchronize().unwrap();
    assert!(x.iter().all(|v| same(*v, nan::<T>())), "{}cp_reconstruct with a zero dimension wrote", T::LETTER);
}

/// Tensor trains and rings from random cores against the oracle's contraction.
fn tt_tr_reconstruct_for<T: Real>(h: &mut Handle) {
    let cases: &[(&[usize], &[usize])] = &[
        (&[1, 1, 1], &[1, 1, 1, 1]),
        (&[4, 5, 6], &[1, 2, 3, 1]),
        (&[3, 4, 2, 5], &[1, 3, 2, 4, 1]),
        (&[3, 2, 4, 2, 3], &[1, 2, 3, 2, 2, 1]),
        (&[4, 5, 6], &[2, 3, 2, 2]),
        (&[3, 4, 2, 5], &[3, 2, 2, 4, 3]),
        (&[2, 3, 2, 3, 2], &[2, 2, 3, 2, 2, 2]),
        (&[30, 20, 25], &[4, 5, 6, 4]),
    ];
    for (seed, &(dims, ranks)) in cases.iter().enumerate() {
        let cores_v = oracle::random_cores(dims, ranks, 700 + seed as u64);
        let cores: Vec<T> = ts(&cores_v);
        let want = oracle::ring_dense(dims, ranks, &f64s(&cores));
        let mut x = vec![nan::<T>(); want.len()];
        let ring = ranks[0] > 1;
        let what = format!("{}t{}_reconstruct dims {dims:?} ranks {ranks:?}", T::LETTER, if ring { 'r' } else { 't' });
        let r = if ring { tr_reconstruct_slices(h, &i64s(dims), &i64s(ranks), &cores, &mut x) } else { tt_reconstruct_slices(h, &i64s(dims), &i64s(ranks), &cores, &mut x) };
        r.unwrap_or_else(|e| panic!("{what}: {e}"));
        h.synchronize().unwrap();
        let err = oracle::rel_err(&f64s(&x), &want);
        let bound = 4.0 * (dims.len() * ranks.iter().max().unwrap() * ranks[0]) as f64 * T::EPS * 10.0;
        assert!(err <= bound, "{what}: relative error {err:e} > {bound:e}");
        if !ring {
            // A train is a ring of r_0 = 1: the same bits through tr_reconstruct.
            let mut y = vec![nan::<T>(); want.len()];
            tr_reconstruct_slices(h, &i64s(dims), &i64s(ranks), &cores, &mut y).unwrap();
            h.synchronize().unwrap();
            assert!(unchanged(&x, &y), "{what}: tr_reconstruct of a train differs");
        }
    }
}

/// HT parts from random values against the oracle's dense tensor.
fn ht_reconstruct_for<T: Real>(h: &mut Handle) {
    for (seed, (dims, ranks)) in [([1, 1, 1], [1, 1, 1, 1]), ([5, 6, 7], [2, 3, 3, 4]), ([8, 8, 8], [3, 3, 3, 3]), ([20, 3, 11], [4, 2, 5, 6])].into_iter().enumerate() {
        let ext = [dims[0] * ranks[0], dims[1] * ranks[1], dims[2] * ranks[2], ranks[3] * ranks[2], ranks[0] * ranks[1] * ranks[3]];
        let parts: Vec<Vec<T>> = (0..5).map(|k| filled(ext[k], 900 + 10 * seed as u64 + k as u64)).collect();
        let pv: Vec<Vec<f64>> = parts.iter().map(|p| f64s(p)).collect();
        let want = oracle::ht_dense(dims, ranks, [&pv[0], &pv[1], &pv[2], &pv[3], &pv[4]]);
        let mut x = vec![nan::<T>(); want.len()];
        let what = format!("{}ht_reconstruct dims {dims:?} ranks {ranks:?}", T::LETTER);
        ht_reconstruct_slices(h, &i64s(&dims).try_into().unwrap(), &i64s(&ranks).try_into().unwrap(), [&parts[0], &parts[1], &parts[2], &parts[3], &parts[4]], &mut x).unwrap_or_else(|e| panic!("{what}: {e}"));
        h.synchronize().unwrap();
        let err = oracle::rel_err(&f64s(&x), &want);
        assert!(err <= 400.0 * T::EPS, "{what}: relative error {err:e}");
    }
}

/// The reference ALS, written plainly: for each mode, M = X_(n)·(⊙_{k≠n} U_k) by the explicit
/// unfolding and Khatri–Rao product, V = ∗_{k≠n} U_kᵀU_k, U_n = M·V⁻¹ by a Cholesky
/// factorisation of V, then unit columns and their norms in λ; after each iteration the fit
/// 1 − ‖X − X̂‖/‖X‖ from the dense X̂. Returns the fits, the factors and λ.
fn reference_als(dims: &[usize], x: &[f64], rank: usize, mut u: Vec<Vec<f64>>, iters: usize) -> (Vec<f64>, Vec<Vec<f64>>, Vec<f64>) {
    let (d, r) = (dims.len(), rank);
    let mut lam = vec![1.0; r];
    let mut fits = Vec::new();
    for _ in 0..iters {
        for n in 0..d {
            let (m, _) = oracle::mttkrp(dims, x, n, r, &u);
            let mut v = vec![1.0; r * r];
            for k in (0..d).filter(|&k| k != n) {
                let g = oracle::dgemm(&u[k], &u[k], r, r, dims[k], true);
                v.iter_mut().zip(&g).for_each(|(a, b)| *a *= b);
            }
            // V = L·Lᵀ, then each row of M: forward and back substitution.
            let mut l = vec![0.0; r * r];
            for j in 0..r {
                let s = v[j + j * r] - (0..j).map(|k| l[j + k * r] * l[j + k * r]).sum::<f64>();
                l[j + j * r] = s.sqrt();
                for i in j + 1..r {
                    l[i + j * r] = (v[i + j * r] - (0..j).map(|k| l[i + k * r] * l[j + k * r]).sum::<f64>()) / l[j + j * r];
                }
            }
            let rows = dims[n];
            let mut un = vec![0.0; rows * r];
            for i in 0..rows {
                let mut y = vec![0.0; r];
                for c in 0..r {
                    y[c] = (m[i + c * rows] - (0..c).map(|j| l[c + j * r] * y[j]).sum::<f64>()) / l[c + c * r];
                }
                for c in (0..r).rev() {
                    y[c] = (y[c] - (c + 1..r).map(|j| l[j + c * r] * y[j]).sum::<f64>()) / l[c + c * r];
                }
                (0..r).for_each(|c| un[i + c * rows] = y[c]);
            }
            for c in 0..r {
                lam[c] = un[c * rows..(c + 1) * rows].iter().map(|v| v * v).sum::<f64>().sqrt();
                un[c * rows..(c + 1) * rows].iter_mut().for_each(|v| *v /= lam[c]);
            }
            u[n] = un;
        }
        fits.push(1.0 - oracle::rel_err(&oracle::cp_dense(dims, &u, &lam), x));
    }
    (fits, u, lam)
}

/// Runs CP-ALS on `x` (dims) with `rank`, padded factors (NaN), `opts`; returns (iters, fit,
/// factors compact in double, λ in double), checking the padding and that X is unchanged.
fn run_cp<T: Real>(h: &mut Handle, dims: &[usize], x: &[T], rank: usize, init: Option<&[Vec<f64>]>, opts: &numgpu_cp_options) -> (i32, f64, Vec<Vec<f64>>, Vec<f64>) {
    let ld: Vec<usize> = dims.iter().enumerate().map(|(k, &d)| d + (k + 1) % 2).collect();
    let mut u: Vec<Vec<T>> = (0..dims.len())
        .map(|k| {
            let mut f = vec![nan::<T>(); ld[k] * rank];
            if let Some(init) = init {
                (0..dims[k] * rank).for_each(|e| f[e % dims[k] + (e / dims[k]) * ld[k]] = ts::<T>(&[init[k][e]])[0]);
            }
            f
        })
        .collect();
    let mut lam = vec![nan::<T>(); rank];
    let x0 = x.to_vec();
    let what = format!("{}cp_als dims {dims:?} rank {rank}", T::LETTER);
    let mut slices: Vec<&mut [T]> = u.iter_mut().map(|v| v.as_mut_slice()).collect();
    let (iters, fit) = cp_als_slices(h, &i64s(dims), x, rank as i64, &mut slices, &i64s(&ld), &mut lam, Some(opts)).unwrap_or_else(|e| panic!("{what}: {e}"));
    h.synchronize().unwrap();
    assert!(unchanged(x, &x0), "{what}: X written");
    assert!(u.iter().enumerate().all(|(k, f)| padding_kept(f, dims[k], ld[k])), "{what}: a factor's padding written");
    let uv: Vec<Vec<f64>> = u.iter().enumerate().map(|(k, f)| (0..dims[k] * rank).map(|e| f[e % dims[k] + (e / dims[k]) * ld[k]].to_c64().re).collect()).collect();
    (iters, fit.into(), uv, f64s(&lam))
}

/// A planted rank-`rank` tensor: random factors (uniform in [−1, 1)), weights in [1, 2).
fn planted_cp(dims: &[usize], rank: usize, seed: u64) -> (Vec<f64>, Vec<Vec<f64>>, Vec<f64>) {
    let u: Vec<Vec<f64>> = dims.iter().enumerate().map(|(k, &d)| filled::<f64>(d * rank, seed + k as u64)).collect();
    let lam: Vec<f64> = filled::<f64>(rank, seed + 99).iter().map(|v| 1.5 + 0.5 * v).collect();
    (oracle::cp_dense(dims, &u, &lam), u, lam)
}

/// CP-ALS recovers planted rank-R tensors of orders 3, 4 and 5 from a random start (fit → 1),
/// with unit columns, positive weights and the reconstruction within 1 − fit of X; on CUDA the
/// CPU backend's run from the same start agrees.
fn cp_als_planted_for<T: Real>(h: &mut Handle) {
    let all: &[(&[usize], usize)] = &[(&[1, 1, 1], 1), (&[8, 9, 10], 3), (&[5, 6, 4, 7], 2), (&[4, 3, 5, 3, 4], 2), (&[12, 2, 9], 2)];
    // Under a sanitizer the first and the last (every case runs the same kernels).
    for (seed, (dims, rank)) in sizes_per_path(&all.iter().copied().enumerate().collect::<Vec<_>>(), |_| 0) {
        let (xv, _, _) = planted_cp(dims, rank, 40 + 10 * seed as u64);
        let x: Vec<T> = ts(&xv);
        let opts = numgpu_cp_options { tol: tol::<T>(1e-13, 1e-9), max_iters: 1000, seed: 7 + seed as u64, ..Default::default() };
        let (iters, fit, u, lam) = run_cp(h, dims, &x, rank, None, &opts);
        let what = format!("{}cp_als planted dims {dims:?} rank {rank}", T::LETTER);
        let floor = tol::<T>(1e-7, 2e-3);
        assert!(fit >= 1.0 - floor && fit <= 1.0 + 1e-12, "{what}: fit {fit} after {iters} iterations");
        assert!(lam.iter().all(|&l| l > 0.0), "{what}: λ {lam:?}");
        for (k, f) in u.iter().enumerate() {
            assert!((0..rank).all(|c| (f[c * dims[k]..(c + 1) * dims[k]].iter().map(|v| v * v).sum::<f64>().sqrt() - 1.0).abs() < 10.0 * T::EPS * dims[k] as f64), "{what}: factor {k} columns not unit");
        }
        let err = oracle::rel_err(&oracle::cp_dense(dims, &u, &lam), &f64s(&x));
        // The fit comes from Gram matrices: ‖X − X̂‖² = ‖X‖² + ‖X̂‖² − 2⟨X, X̂⟩ resolves the error
        // to about √ε·‖X‖ only.
        assert!((err - (1.0 - fit)).abs() <= 10.0 * T::EPS.sqrt(), "{what}: the reconstruction's error {err:e} is not 1 − fit = {:e}", 1.0 - fit);
        if h.backend() == numgpu::Backend::Cuda {
            let (ci, cf, _, _) = run_cp(&mut Handle::cpu(), dims, &x, rank, None, &opts);
            assert!((cf - fit).abs() <= floor, "{what}: CUDA fit {fit} after {iters}, CPU {cf} after {ci}");
        }
    }
}

/// From the same start, CP-ALS takes the reference ALS's steps: the same fit after each of 1, 2
/// and 10 iterations (tolerance 0 would mean the default: a tiny one runs every iteration), on
/// random tensors of orders 3 and 4, and the same factors; with the first two modes' shared
/// partial product (the dimension tree) and without it (n_2·…·n_{d−1} < rank: [6, 5, 2]).
fn cp_als_matches_reference_for<T: Real>(h: &mut Handle) {
    let cases: &[(&[usize], usize)] = &[(&[6, 5, 4], 3), (&[4, 3, 5, 2], 2), (&[7, 1, 6], 2), (&[6, 5, 2], 3)];
    for (seed, &(dims, rank)) in cases.iter().enumerate() {
        let x: Vec<T> = filled(dims.iter().product(), 300 + seed as u64);
        let start: Vec<Vec<f64>> = dims.iter().enumerate().map(|(k, &d)| f64s(&filled::<T>(d * rank, 310 + 10 * seed as u64 + k as u64))).collect();
        let (fits, ru, rl) = reference_als(dims, &f64s(&x), rank, start.clone(), 10);
        // Under a sanitizer the first two iterations (each a few dozen launches there).
        let steps: &[usize] = if under_sanitizer() { &[1, 2] } else { &[1, 2, 10] };
        for &n in steps {
            let opts = numgpu_cp_options { tol: 1e-300, max_iters: n as i32, init: 1, ..Default::default() };
            let (iters, fit, u, lam) = run_cp(h, dims, &x, rank, Some(&start), &opts);
            let what = format!("{}cp_als dims {dims:?} rank {rank} after {n} iterations", T::LETTER);
            assert_eq!(iters, n as i32, "{what}: iterations");
            assert!((fit - fits[n - 1]).abs() <= tol::<T>(1e-10, 2e-4), "{what}: fit {fit}, the reference's {}", fits[n - 1]);
            if n == 10 {
                let err = oracle::rel_err(&oracle::cp_dense(dims, &u, &lam), &oracle::cp_dense(dims, &ru, &rl));
                assert!(err <= tol::<T>(1e-8, 1e-2), "{what}: the decomposition differs from the reference's by {err:e}");
            }
        }
    }
}

/// CP-ALS's special outcomes: NaN in X (fit NaN, NaN factors, λ; 0 iterations), X = 0 (fit 1,
/// λ = 0, zero factors), the weights absorbed into U[0] (λ = 1, the same tensor), and the same
/// bits twice.
fn cp_als_outcomes_for<T: Real>(h: &mut Handle) {
    let dims = [4, 3, 5];
    let (xv, _, _) = planted_cp(&dims, 2, 77);
    let mut x: Vec<T> = ts(&xv);
    let opts = numgpu_cp_options { max_iters: 30, ..Default::default() };
    let (i1, f1, u1, l1) = run_cp(h, &dims, &x, 2, None, &opts);
    let (i2, f2, u2, l2) = run_cp(h, &dims, &x, 2, None, &opts);
    assert!(i1 == i2 && f1.to_bits() == f2.to_bits() && u1 == u2 && l1 == l2, "{}cp_als is not reproducible", T::LETTER);
    let absorbed = numgpu_cp_options { absorb: 1, ..opts };
    let (_, fa, ua, la) = run_cp(h, &dims, &x, 2, None, &absorbed);
    assert!(la.iter().all(|&l| l == 1.0) && fa.to_bits() == f1.to_bits(), "{}cp_als absorb: λ {la:?}, fit {fa} vs {f1}", T::LETTER);
    let err = oracle::rel_err(&oracle::cp_dense(&dims, &ua, &la), &oracle::cp_dense(&dims, &u1, &l1));
    assert!(err <= 10.0 * T::EPS, "{}cp_als absorb: a different tensor ({err:e})", T::LETTER);
    x[7] = nan::<T>();
    let (i, f, u, l) = run_cp(h, &dims, &x, 2, None, &opts);
    assert!(i == 0 && f.is_nan() && l.iter().all(|v| v.is_nan()) && u.iter().flatten().all(|v| v.is_nan()), "{}cp_als with NaN in X: iters {i}, fit {f}", T::LETTER);
    let zero = vec![<T as Scalar>::zero(); 60];
    let (i, f, u, l) = run_cp(h, &dims, &zero, 2, None, &opts);
    assert!(i == 0 && f == 1.0 && l.iter().all(|&v| v == 0.0) && u.iter().flatten().all(|&v| v == 0.0), "{}cp_als of X = 0: iters {i}, fit {f}, λ {l:?}", T::LETTER);
}

/// The decomposition `tt` (train) or `tr` (ring) of `x` on host slices with the exact capacity
/// found by a query call: (ranks, cores), checking the protocol on the way.
fn decompose<T: Real>(h: &mut Handle, ring: bool, dims: &[usize], x: &[T], eps: f64, max_ranks: Option<&[i64]>) -> (Vec<usize>, Vec<T>) {
    let d = dims.len();
    let f = if ring { tr_svd_slices::<T> } else { tt_svd_slices::<T> };
    let what = format!("{}t{}_svd dims {dims:?} eps {eps:e}", T::LETTER, if ring { 'r' } else { 't' });
    let eps_t = ts::<T>(&[eps])[0];
    let (mut ranks, mut offsets) = (vec![-7i64; d + 1], vec![-7i64; d + 1]);
    let e = f(h, &i64s(dims), x, eps_t, max_ranks, &mut ranks, &mut [], &mut offsets).expect_err(&format!("{what}: a query with capacity 0 succeeded"));
    assert_eq!((e.status, e.arg), (Status::NUMGPU_INSUFFICIENT_CAPACITY, Some("capacity")), "{what}: {e}");
    let need = offsets[d];
    assert!(need > 0 && ranks.iter().all(|&r| r == -7) && offsets[..d].iter().all(|&o| o == -7), "{what}: the query wrote more than offsets[d]: {ranks:?} {offsets:?}");
    // Not enough by one: the same answer, and the cores untouched.
    let mut short = vec![nan::<T>(); need as usize - 1];
    let e = f(h, &i64s(dims), x, eps_t, max_ranks, &mut ranks, &mut short, &mut offsets).expect_err("a short capacity succeeded");
    assert!(e.status == Status::NUMGPU_INSUFFICIENT_CAPACITY && offsets[d] == need && short.iter().all(|v| same(*v, nan::<T>())), "{what}: capacity need − 1");
    let mut cores = vec![nan::<T>(); need as usize + 3];
    f(h, &i64s(dims), x, eps_t, max_ranks, &mut ranks, &mut cores, &mut offsets).unwrap_or_else(|e| panic!("{what}: {e}"));
    h.synchronize().unwrap();
    let r: Vec<usize> = ranks.iter().map(|&v| v as usize).collect();
    let o = oracle::core_offsets(dims, &r);
    assert!(offsets.iter().zip(&o).all(|(&a, &b)| a as usize == b) && offsets[d] == need, "{what}: offsets {offsets:?} for ranks {ranks:?}");
    assert!(cores[need as usize..].iter().all(|v| same(*v, nan::<T>())), "{what}: cores written beyond offsets[d]");
    assert!(ring && r[d] == r[0] || !ring && r[0] == 1 && r[d] == 1, "{what}: boundary ranks {r:?}");
    cores.truncate(need as usize);
    (r, cores)
}

/// TT-SVD and TR-SVD of random tensors of orders 3, 4 and 5: ‖X − X̂‖ ≤ eps·‖X‖ (the reconstruction
/// from the oracle), ranks within max_ranks; eps = 0 keeps X to rounding.
fn train_eps_bound_for<T: Real>(h: &mut Handle) {
    let shapes: &[&[usize]] = &[&[6, 7, 8], &[4, 5, 3, 6], &[3, 4, 3, 4, 3], &[1, 1, 1], &[2, 9, 1, 3]];
    // Under a sanitizer the first and the last shape.
    for (seed, dims) in sizes_per_path(&shapes.iter().copied().enumerate().collect::<Vec<_>>(), |_| 0) {
        let x: Vec<T> = filled(dims.iter().product(), 1100 + seed as u64);
        let xv = f64s(&x);
        for ring in [false, true] {
            for eps in [0.6, 0.3, 0.1, 0.0] {
                let (r, cores) = decompose(h, ring, dims, &x, eps, None);
                let err = oracle::rel_err(&oracle::ring_dense(dims, &r, &f64s(&cores)), &xv);
                let slack = tol::<T>(1e-10, 3e-3);
                assert!(err <= eps + slack, "{}t{}_svd dims {dims:?} eps {eps}: error {err:e}, ranks {r:?}", T::LETTER, if ring { 'r' } else { 't' });
            }
            // Rank limits bind.
            let mut caps = vec![2i64; dims.len() + 1];
            caps[0] = 1;
            let (r, _) = decompose(h, ring, dims, &x, 0.0, Some(&caps));
            assert!(r.iter().all(|&v| v <= 2), "{}: ranks {r:?} beyond max_ranks 2", T::LETTER);
        }
    }
}

/// Planted trains and rings of known ranks, orders 3, 4 and 5: X is recovered to rounding, a
/// train's ranks are the planted ones, and a ring's first split r_0·r_1 is the planted one (the
/// rank of X_(0)); its later ranks depend on the basis that split chose (TR-SVD is not
/// rank-optimal, Zhao et al.), so only their bounds hold. On CUDA, the CPU backend finds the
/// same.
fn train_planted_for<T: Real>(h: &mut Handle) {
    let cases: &[(&[usize], &[usize])] = &[
        (&[6, 7, 8], &[1, 2, 3, 1]),
        (&[5, 6, 4, 7], &[1, 3, 2, 3, 1]),
        (&[4, 5, 4, 5, 4], &[1, 2, 3, 3, 2, 1]),
        (&[6, 7, 8], &[2, 3, 2, 2]),
        (&[5, 6, 5, 6], &[2, 2, 3, 2, 2]),
        (&[7, 4, 5, 4, 5], &[2, 3, 2, 2, 3, 2]),
        (&[1, 1, 1], &[1, 1, 1, 1]),
    ];
    // Under a sanitizer the first and last of each run of trains or rings.
    for (seed, (dims, ranks)) in sizes_per_path(&cases.iter().copied().enumerate().collect::<Vec<_>>(), |(_, (_, r))| r[0] > 1) {
        let xv = oracle::ring_dense(dims, ranks, &oracle::random_cores(dims, ranks, 1300 + seed as u64));
        let x: Vec<T> = ts(&xv);
        let ring = ranks[0] > 1;
        let eps = tol::<T>(1e-7, 1e-2);
        let (r, cores) = decompose(h, ring, dims, &x, eps, None);
        let what = format!("{}t{}_svd planted dims {dims:?} ranks {ranks:?}", T::LETTER, if ring { 'r' } else { 't' });
        if ring {
            let bound = (2..dims.len()).all(|k| r[k] <= r[k - 1] * dims[k - 1]);
            assert!(r[0] * r[1] == ranks[0] * ranks[1] && r[0] <= r[1] && bound, "{what}: ranks {r:?}");
        } else {
            assert_eq!(r, ranks, "{what}: ranks");
        }
        // A train at its ranks is exact to rounding; a ring's inflated later ranks may be
        // truncated within eps.
        let bound = if ring { eps + tol::<T>(1e-12, 1e-4) } else { tol::<T>(1e-12, 1e-4) };
        let err = oracle::rel_err(&oracle::ring_dense(dims, &r, &f64s(&cores)), &f64s(&x));
        assert!(err <= bound, "{what}: error {err:e}, ranks {r:?}");
        // The library's reconstruction of its own cores.
        let mut y = vec![nan::<T>(); x.len()];
        let rec = if ring { tr_reconstruct_slices::<T> } else { tt_reconstruct_slices::<T> };
        rec(h, &i64s(dims), &i64s(&r), &cores, &mut y).unwrap();
        h.synchronize().unwrap();
        assert!(oracle::rel_err(&f64s(&y), &f64s(&x)) <= bound, "{what}: its reconstruction");
        if h.backend() == numgpu::Backend::Cuda {
            let (cr, cc) = decompose(&mut Handle::cpu(), ring, dims, &x, eps, None);
            let diff = oracle::rel_err(&f64s(&cores), &f64s(&cc));
            assert!(cr == r && diff <= tol::<T>(1e-10, 1e-3), "{what}: CUDA and CPU differ: ranks {r:?} vs {cr:?}, cores by {diff:e}");
        }
    }
}

/// A planted HT tensor: random parts of `ranks` (r_3 = r_4, so that X_(3) has rank r_4).
fn planted_ht(dims: [usize; 3], ranks: [usize; 4], seed: u64) -> Vec<f64> {
    let ext = [dims[0] * ranks[0], dims[1] * ranks[1], dims[2] * ranks[2], ranks[3] * ranks[2], ranks[0] * ranks[1] * ranks[3]];
    let parts: Vec<Vec<f64>> = (0..5).map(|k| filled::<f64>(ext[k], seed + k as u64)).collect();
    oracle::ht_dense(dims, ranks, [&parts[0], &parts[1], &parts[2], &parts[3], &parts[4]])
}

/// Runs HT on host slices (outputs poisoned): the five parts.
fn run_ht<T: Real>(h: &mut Handle, dims: [usize; 3], x: &[T], ranks: [usize; 4]) -> Vec<Vec<T>> {
    let ext = [dims[0] * ranks[0], dims[1] * ranks[1], dims[2] * ranks[2], ranks[3] * ranks[2], ranks[0] * ranks[1] * ranks[3]];
    let mut out: Vec<Vec<T>> = ext.iter().map(|&n| vec![nan::<T>(); n]).collect();
    let [a, b, c, d, e] = &mut out[..] else { unreachable!() };
    ht_slices(h, &i64s(&dims).try_into().unwrap(), x, &i64s(&ranks).try_into().unwrap(), [a, b, c, d, e]).unwrap_or_else(|e| panic!("{}ht dims {dims:?} ranks {ranks:?}: {e}", T::LETTER));
    h.synchronize().unwrap();
    out
}

/// HT of planted tensors: orthonormal U's, the dense reconstruction (the library's and the
/// oracle's of the same parts) equal to X; of a random tensor, the dense reconstruction of the
/// parts agrees with the library's; NaN in X gives NaN parts; on CUDA the CPU backend agrees.
fn ht_planted_for<T: Real>(h: &mut Handle) {
    let cases = [([5, 6, 7], [2, 3, 3, 3]), ([6, 6, 6], [3, 2, 4, 4]), ([1, 1, 1], [1, 1, 1, 1]), ([12, 4, 9], [3, 3, 2, 2])];
    // Under a sanitizer the first and last of each run of separate eigenproblems or one batch.
    for (seed, (dims, ranks)) in sizes_per_path(&cases.into_iter().enumerate().collect::<Vec<_>>(), |(_, (d, _))| d[0] == d[1] && d[1] == d[2]) {
        let x: Vec<T> = ts(&planted_ht(dims, ranks, 1500 + 10 * seed as u64));
        let what = format!("{}ht planted dims {dims:?} ranks {ranks:?}", T::LETTER);
        let out = run_ht(h, dims, &x, ranks);
        let pv: Vec<Vec<f64>> = out.iter().map(|p| f64s(p)).collect();
        for k in 0..3 {
            let o = oracle::orthonormality(&pv[k], dims[k], ranks[k]);
            assert!(o <= 50.0 * T::EPS * dims[k] as f64, "{what}: U{} not orthonormal ({o:e})", k + 1);
        }
        let dense = oracle::ht_dense(dims, ranks, [&pv[0], &pv[1], &pv[2], &pv[3], &pv[4]]);
        let err = oracle::rel_err(&dense, &f64s(&x));
        assert!(err <= tol::<T>(1e-10, 2e-3), "{what}: error {err:e}");
        let mut y = vec![nan::<T>(); x.len()];
        let parts: [&[T]; 5] = [&out[0], &out[1], &out[2], &out[3], &out[4]];
        ht_reconstruct_slices(h, &i64s(&dims).try_into().unwrap(), &i64s(&ranks).try_into().unwrap(), parts, &mut y).unwrap();
        h.synchronize().unwrap();
        assert!(oracle::rel_err(&f64s(&y), &dense) <= 100.0 * T::EPS, "{what}: ht_reconstruct differs from the dense reconstruction");
        if h.backend() == numgpu::Backend::Cuda {
            let cpu = run_ht(&mut Handle::cpu(), dims, &x, ranks);
            let d = (0..5).map(|k| oracle::rel_err(&pv[k], &f64s(&cpu[k]))).fold(0.0, f64::max);
            assert!(d <= tol::<T>(1e-9, 1e-2), "{what}: CUDA and CPU parts differ by {d:e}");
        }
    }
    // Truncated: a random tensor at lower ranks; the parts reconstruct as the library says.
    let dims = [7, 5, 6];
    let x: Vec<T> = filled(210, 1600);
    let out = run_ht(h, dims, &x, [3, 2, 3, 3]);
    let pv: Vec<Vec<f64>> = out.iter().map(|p| f64s(p)).collect();
    let dense = oracle::ht_dense(dims, [3, 2, 3, 3], [&pv[0], &pv[1], &pv[2], &pv[3], &pv[4]]);
    assert!(oracle::rel_err(&dense, &f64s(&x)) < 1.0, "{}ht truncated: no approximation", T::LETTER);
    let mut bad = x.clone();
    bad[3] = nan::<T>();
    let out = run_ht(h, dims, &bad, [3, 2, 3, 3]);
    assert!(out.iter().flatten().all(|v| v.to_c64().re.is_nan()), "{}ht with NaN in X: not every part NaN", T::LETTER);
}

/// NaN in X: every rank 1, every core NaN; a zero dimension in a reconstruction touches nothing.
fn train_outcomes_for<T: Real>(h: &mut Handle) {
    let dims = [3, 4, 5];
    let mut x: Vec<T> = filled(60, 17);
    x[11] = nan::<T>();
    for ring in [false, true] {
        let (r, cores) = decompose(h, ring, &dims, &x, 0.1, None);
        assert!(r.iter().all(|&v| v == 1) && cores.len() == 12 && cores.iter().all(|v| v.to_c64().re.is_nan()), "{}: NaN in X gave ranks {r:?}", T::LETTER);
    }
    let mut y = vec![nan::<T>(); 4];
    tt_reconstruct_slices::<T>(h, &[2, 0, 2], &[1, 1, 1, 1], &filled::<T>(4, 1), &mut y).unwrap();
    h.synchronize().unwrap();
    assert!(y.iter().all(|v| same(*v, nan::<T>())), "{}tt_reconstruct with a zero dimension wrote", T::LETTER);
}

/// Device arrays (h.malloc: device memory on CUDA) give the bits of host arrays.
fn decompositions_on_device_for<T: Real>(h: &mut Handle) {
    let size = std::mem::size_of::<T>();
    let up = |h: &mut Handle, v: &[T]| -> *mut T {
        let p = h.malloc(std::mem::size_of_val(v).max(1)).unwrap() as *mut T;
        // SAFETY: p holds v.len() elements.
        unsafe { h.memcpy(p as _, v.as_ptr() as _, std::mem::size_of_val(v)).unwrap() };
        p
    };
    let down = |h: &mut Handle, p: *const T, len: usize| -> Vec<T> {
        let mut v = vec![<T as Scalar>::zero(); len];
        // SAFETY: p holds len elements.
        unsafe { h.memcpy(v.as_mut_ptr() as _, p as _, len * size).unwrap() };
        v
    };
    let dims = [5usize, 6, 7];
    let di = i64s(&dims);
    let (xv, _, _) = planted_cp(&dims, 2, 5);
    let x: Vec<T> = ts(&xv);
    let px = up(h, &x);
    // CP-ALS, 5 iterations from the seeded random start.
    let opts = numgpu_cp_options { max_iters: 5, tol: 1e-300, ..Default::default() };
    let (hi, hf, hu, hl) = run_cp(h, &dims, &x, 2, None, &opts);
    let pu: Vec<*mut T> = dims.iter().map(|&d| up(h, &vec![nan::<T>(); d * 2])).collect();
    let pl = up(h, &[nan::<T>(); 2]);
    let (mut iters, mut fit) = (0, <T as Scalar>::zero());
    // SAFETY: device arrays of the extents the sizes give; dims, pu, ldu, iters and fit host.
    unsafe { cp_als::<T>(h, 3, di.as_ptr(), px, 2, pu.as_ptr(), di.as_ptr(), pl, &opts, &mut iters, &mut fit) }.unwrap();
    let du: Vec<Vec<f64>> = pu.iter().zip(&dims).map(|(&p, &d)| f64s(&down(h, p, d * 2))).collect();
    let fit: f64 = fit.into();
    assert!(iters == hi && fit.to_bits() == hf.to_bits() && du == hu && f64s(&down(h, pl, 2)) == hl, "{}cp_als on device arrays: not the host result", T::LETTER);
    // CP reconstruction of those factors.
    let pxr = up(h, &[nan::<T>(); 210]);
    let cu: Vec<*const T> = pu.iter().map(|&p| p as *const T).collect();
    // SAFETY: as above.
    unsafe { cp_reconstruct::<T>(h, 3, di.as_ptr(), 2, cu.as_ptr(), di.as_ptr(), pl, pxr) }.unwrap();
    let hu_t: Vec<Vec<T>> = hu.iter().map(|f| ts(f)).collect();
    let mut hx = vec![nan::<T>(); 210];
    cp_reconstruct_slices(h, &di, 2, &hu_t.iter().map(|f| f.as_slice()).collect::<Vec<_>>(), &di, Some(&ts::<T>(&hl)), &mut hx).unwrap();
    assert!(unchanged(&down(h, pxr, 210), &hx), "{}cp_reconstruct on device arrays", T::LETTER);
    // TT-SVD and TR-SVD with the protocol, and their reconstructions.
    for ring in [false, true] {
        let (r, hc) = decompose(h, ring, &dims, &x, 1e-3, None);
        let pc = up(h, &vec![nan::<T>(); hc.len()]);
        let (mut ranks, mut offs) = ([0i64; 4], [0i64; 4]);
        let eps = ts::<T>(&[1e-3])[0];
        let f = if ring { tr_svd::<T> } else { tt_svd::<T> };
        // SAFETY: as above; capacity = the cores' length.
        unsafe { f(h, 3, di.as_ptr(), px, eps, std::ptr::null(), ranks.as_mut_ptr(), pc, hc.len() as i64, offs.as_mut_ptr()) }.unwrap();
        assert!(ranks.iter().zip(&r).all(|(&a, &b)| a as usize == b) && unchanged(&down(h, pc, hc.len()), &hc), "{}t{}_svd on device arrays", T::LETTER, if ring { 'r' } else { 't' });
        let py = up(h, &[nan::<T>(); 210]);
        let rec = if ring { numgpu::tensor::train::tr_reconstruct::<T> } else { tt_reconstruct::<T> };
        // SAFETY: as above.
        unsafe { rec(h, 3, di.as_ptr(), ranks.as_ptr(), pc, py) }.unwrap();
        let mut hy = vec![nan::<T>(); 210];
        let hrec = if ring { tr_reconstruct_slices::<T> } else { tt_reconstruct_slices::<T> };
        hrec(h, &di, &ranks, &hc, &mut hy).unwrap();
        assert!(unchanged(&down(h, py, 210), &hy), "{}t{}_reconstruct on device arrays", T::LETTER, if ring { 'r' } else { 't' });
        for p in [pc, py] {
            // SAFETY: from h.malloc, not used again.
            unsafe { h.free(p as _).unwrap() };
        }
    }
    // HT and its reconstruction.
    let ranks = [2usize, 2, 2, 2];
    let host = run_ht(h, dims, &x, ranks);
    let pp: Vec<*mut T> = host.iter().map(|p| up(h, &vec![nan::<T>(); p.len()])).collect();
    let ri = i64s(&ranks);
    // SAFETY: as above.
    unsafe { ht::<T>(h, di.as_ptr(), px, ri.as_ptr(), pp[0], pp[1], pp[2], pp[3], pp[4]) }.unwrap();
    assert!((0..5).all(|k| unchanged(&down(h, pp[k], host[k].len()), &host[k])), "{}ht on device arrays", T::LETTER);
    // SAFETY: as above.
    unsafe { ht_reconstruct::<T>(h, di.as_ptr(), ri.as_ptr(), pp[0], pp[1], pp[2], pp[3], pp[4], pxr) }.unwrap();
    let mut hx = vec![nan::<T>(); 210];
    ht_reconstruct_slices(h, &[5, 6, 7], &[2, 2, 2, 2], [&host[0], &host[1], &host[2], &host[3], &host[4]], &mut hx).unwrap();
    assert!(unchanged(&down(h, pxr, 210), &hx), "{}ht_reconstruct on device arrays", T::LETTER);
    for p in pu.into_iter().chain(pp).chain([px, pl, pxr]) {
        // SAFETY: from h.malloc, not used again.
        unsafe { h.free(p as _).unwrap() };
    }
}

/// Every argument check of the decompositions names its C position and writes nothing.
fn decomposition_checks_for<T: Real>(h: &mut Handle) {
    const BAD: Status = Status::NUMGPU_INVALID_VALUE;
    let dims = [2i64, 3, 4];
    let x: Vec<T> = filled(24, 3);
    let (xp, null) = (x.as_ptr(), std::ptr::null::<T>());
    // cp_als (h=1, ndim=2, dims=3, X=4, rank=5, U=6, ldu=7, lambda=8, opts=9, iters=10, fit=11).
    let mut u: Vec<Vec<T>> = dims.iter().map(|&d| vec![nan::<T>(); d as usize * 2]).collect();
    let mut lam = vec![nan::<T>(); 2];
    let (mut iters, mut fit) = (-7, nan::<T>());
    let up: Vec<*mut T> = u.iter_mut().map(|v| v.as_mut_ptr()).collect();
    let lp = lam.as_mut_ptr();
    let ok = numgpu_cp_options::default();
    let mut cp = |ndim: i32, dims: &[i64], x: *const T, rank: i64, u: &[*mut T], ldu: &[i64], lambda: *mut T, opts: &numgpu_cp_options, iters: *mut i32, fit: *mut T| {
        let p = |v: &[i64]| if v.is_empty() { std::ptr::null() } else { v.as_ptr() };
        let e = unsafe { cp_als::<T>(h, ndim, p(dims), x, rank, if u.is_empty() { std::ptr::null() } else { u.as_ptr() }, p(ldu), lambda, opts, iters, fit) }.expect_err("invalid cp_als succeeded");
        (e.status, c_position(&e, "numgpu_scp_als"))
    };
    let (ip, fp) = (&mut iters as *mut i32, &mut fit as *mut T);
    assert_eq!(cp(2, &dims, xp, 2, &up, &dims, lp, &ok, ip, fp), (BAD, 2));
    assert_eq!(cp(3, &[2, 0, 4], xp, 2, &up, &dims, lp, &ok, ip, fp), (BAD, 3));
    assert_eq!(cp(3, &dims, null, 2, &up, &dims, lp, &ok, ip, fp), (BAD, 4));
    assert_eq!(cp(3, &dims, xp, 0, &up, &dims, lp, &ok, ip, fp), (BAD, 5));
    assert_eq!(cp(3, &dims, xp, 2, &[up[0], std::ptr::null_mut(), up[2]], &dims, lp, &ok, ip, fp), (BAD, 6));
    assert_eq!(cp(3, &dims, xp, 2, &[up[0], up[0], up[2]], &dims, lp, &ok, ip, fp), (BAD, 6));
    assert_eq!(cp(3, &dims, xp, 2, &up, &[2, 2, 4], lp, &ok, ip, fp), (BAD, 7));
    assert_eq!(cp(3, &dims, xp, 2, &up, &dims, std::ptr::null_mut(), &ok, ip, fp), (BAD, 8));
    for bad in [numgpu_cp_options { tol: -1.0, ..ok }, numgpu_cp_options { tol: f64::NAN, ..ok }, numgpu_cp_options { max_iters: -1, ..ok }, numgpu_cp_options { init: 2, ..ok }, numgpu_cp_options { absorb: 5, ..ok }] {
        assert_eq!(cp(3, &dims, xp, 2, &up, &dims, lp, &bad, ip, fp), (BAD, 9), "{bad:?}");
    }
    assert_eq!(cp(3, &dims, xp, 2, &up, &dims, lp, &ok, std::ptr::null_mut(), fp), (BAD, 11));
    assert_eq!(cp(3, &dims, xp, 2, &up, &dims, lp, &ok, ip, std::ptr::null_mut()), (BAD, 10));
    assert_eq!(cp(3, &dims, xp, 2, &[up[0], xp as *mut T, up[2]], &dims, lp, &ok, ip, fp), (BAD, 6));
    assert!(iters == -7 && same(fit, nan::<T>()) && u.iter().flatten().chain(&lam).all(|v| same(*v, nan::<T>())), "an invalid cp_als call wrote");
    // tt_svd / tr_svd (h=1, ndim=2, dims=3, X=4, eps=5, max_ranks=6, ranks=7, cores=8,
    // capacity=9, offsets=10).
    let mut cores = vec![nan::<T>(); 40];
    let (mut ranks, mut offs) = ([-7i64; 4], [-7i64; 4]);
    let (rp, op, cp_) = (ranks.as_mut_ptr(), offs.as_mut_ptr(), cores.as_mut_ptr());
    for (ring, name) in [(false, "numgpu_stt_svd"), (true, "numgpu_str_svd")] {
        let f = if ring { tr_svd::<T> } else { tt_svd::<T> };
        let mut call = |ndim: i32, dims: *const i64, x: *const T, eps: f64, mr: *const i64, rp: *mut i64, c: *mut T, cap: i64, op: *mut i64| {
            let e = unsafe { f(h, ndim, dims, x, ts::<T>(&[eps])[0], mr, rp, c, cap, op) }.expect_err("invalid call succeeded");
            (e.status, c_position(&e, name))
        };
        let (dp, none) = (dims.as_ptr(), std::ptr::null::<i64>());
        assert_eq!(call(2, dp, xp, 0.1, none, rp, cp_, 40, op), (BAD, 2));
        assert_eq!(call(3, [2i64, 3, 0].as_ptr(), xp, 0.1, none, rp, cp_, 40, op), (BAD, 3));
        assert_eq!(call(3, dp, null, 0.1, none, rp, cp_, 40, op), (BAD, 4));
        assert_eq!(call(3, dp, xp, -0.1, none, rp, cp_, 40, op), (BAD, 5));
        assert_eq!(call(3, dp, xp, f64::NAN, none, rp, cp_, 40, op), (BAD, 5));
        assert_eq!(call(3, dp, xp, f64::INFINITY, none, rp, cp_, 40, op), (BAD, 5));
        assert_eq!(call(3, dp, xp, 0.1, [1i64, 0, 2, 1].as_ptr(), rp, cp_, 40, op), (BAD, 6));
        assert_eq!(call(3, dp, xp, 0.1, none, std::ptr::null_mut(), cp_, 40, op), (BAD, 7));
        assert_eq!(call(3, dp, xp, 0.1, none, rp, std::ptr::null_mut(), 40, op), (BAD, 8));
        assert_eq!(call(3, dp, xp, 0.1, none, rp, xp as *mut T, 40, op), (BAD, 8));
        assert_eq!(call(3, dp, xp, 0.1, none, rp, cp_, -1, op), (BAD, 9));
        assert_eq!(call(3, dp, xp, 0.1, none, rp, cp_, 40, std::ptr::null_mut()), (BAD, 10));
        // max_ranks[0] is not referenced by a train, but is by a ring.
        let r = unsafe { f(h, 3, dp, xp, ts::<T>(&[0.1])[0], [0i64, 2, 2, 0].as_ptr(), rp, cp_, 0, op) };
        assert_eq!(r.map_err(|e| e.status).err(), Some(if ring { BAD } else { Status::NUMGPU_INSUFFICIENT_CAPACITY }), "{name}: max_ranks[0] = 0");
        offs[3] = -7;
    }
    assert!(ranks.iter().chain(&offs).all(|&v| v == -7) && cores.iter().all(|v| same(*v, nan::<T>())), "an invalid tt_svd/tr_svd call wrote");
    // The reconstructions: ranks (position 4) below 1, a train's ends, a ring's closure.
    let c: Vec<T> = filled(100, 4);
    let mut y = vec![nan::<T>(); 24];
    for (rk, ring, name) in [([1i64, 0, 2, 1], false, "numgpu_stt_reconstruct"), ([2i64, 2, 2, 2], false, "numgpu_stt_reconstruct"), ([2i64, 2, 2, 1], true, "numgpu_str_reconstruct")] {
        let f = if ring { numgpu::tensor::train::tr_reconstruct::<T> } else { tt_reconstruct::<T> };
        let e = unsafe { f(h, 3, dims.as_ptr(), rk.as_ptr(), c.as_ptr(), y.as_mut_ptr()) }.expect_err("invalid ranks accepted");
        assert_eq!((e.status, c_position(&e, name)), (BAD, 4), "{name} ranks {rk:?}");
    }
    assert!(y.iter().all(|v| same(*v, nan::<T>())), "an invalid reconstruction wrote X");
    // ht (h=1, dims=2, X=3, ranks=4, U1=5, U2=6, U3=7, B1=8, B2=9).
    let mut o: Vec<Vec<T>> = (0..5).map(|_| vec![nan::<T>(); 24]).collect();
    let op5: Vec<*mut T> = o.iter_mut().map(|v| v.as_mut_ptr()).collect();
    let mut hcall = |dims: &[i64], x: *const T, ranks: &[i64], out: &[*mut T]| {
        let e = unsafe { ht::<T>(h, dims.as_ptr(), x, ranks.as_ptr(), out[0], out[1], out[2], out[3], out[4]) }.expect_err("invalid ht succeeded");
        (e.status, c_position(&e, "numgpu_sht"))
    };
    assert_eq!(hcall(&[2, 0, 4], xp, &[1, 1, 1, 1], &op5), (BAD, 2));
    assert_eq!(hcall(&dims, null, &[1, 1, 1, 1], &op5), (BAD, 3));
    assert_eq!(hcall(&dims, xp, &[3, 1, 1, 1], &op5), (BAD, 4));
    assert_eq!(hcall(&dims, xp, &[1, 1, 1, 5], &op5), (BAD, 4));
    assert_eq!(hcall(&dims, xp, &[1, 0, 1, 1], &op5), (BAD, 4));
    for k in 0..5 {
        let mut bad = op5.clone();
        bad[k] = std::ptr::null_mut();
        assert_eq!(hcall(&dims, xp, &[1, 1, 1, 1], &bad), (BAD, 5 + k as i32));
    }
    assert_eq!(hcall(&dims, xp, &[1, 1, 1, 1], &[op5[0], op5[0], op5[2], op5[3], op5[4]]), (BAD, 6));
    assert!(o.iter().flatten().all(|v| same(*v, nan::<T>())), "an invalid ht call wrote");
}

/// The sizes the issue names at the top: 300³, single precision (a TT-SVD of a planted train and
/// a CP-ALS of a planted rank-2 tensor); skipped under a sanitizer.
#[test]
fn decompositions_of_300_cubed() {
    if under_sanitizer() || !crate::common::precision_wanted('s') {
        return;
    }
    let mut handles = vec![Handle::cpu()];
    handles.extend(crate::common::handle(numgpu::BackendChoice::Cuda));
    let dims = [300usize, 300, 300];
    let ranks = [1usize, 2, 3, 1];
    let x: Vec<f32> = ts(&oracle::ring_dense(&dims, &ranks, &oracle::random_cores(&dims, &ranks, 3000)));
    let (cpv, _, _) = planted_cp(&dims, 2, 3100);
    let xc: Vec<f32> = ts(&cpv);
    for h in &mut handles {
        let (r, cores) = decompose(h, false, &dims, &x, 1e-2, None);
        assert_eq!(r, ranks, "stt_svd 300³ on {:?}", h.backend());
        let err = oracle::rel_err(&oracle::ring_dense(&dims, &r, &f64s(&cores)), &f64s(&x));
        assert!(err <= 1e-4, "stt_svd 300³ on {:?}: error {err:e}", h.backend());
        let opts = numgpu_cp_options { tol: 1e-7, max_iters: 40, seed: 3, ..Default::default() };
        let (iters, fit, _, _) = run_cp(h, &dims, &xc, 2, None, &opts);
        assert!(fit >= 0.999, "scp_als 300³ on {:?}: fit {fit} after {iters} iterations", h.backend());
    }
}

crate::real_precisions! {
    khatri_rao_exact => khatri_rao_for;
    every_mode => every_mode_for;
    groups_and_reproducible => groups_and_reproducible_for;
    skinny_edges => skinny_edges_for;
    empty => empty_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
    cp_reconstruct_checked => cp_reconstruct_for;
    tt_tr_reconstruct_checked => tt_tr_reconstruct_for;
    ht_reconstruct_checked => ht_reconstruct_for;
    cp_als_planted => cp_als_planted_for;
    cp_als_reference => cp_als_matches_reference_for;
    cp_als_outcomes => cp_als_outcomes_for;
    train_eps_bound => train_eps_bound_for;
    train_planted => train_planted_for;
    train_outcomes => train_outcomes_for;
    ht_planted => ht_planted_for;
    decompositions_on_device => decompositions_on_device_for;
    decomposition_checks => decomposition_checks_for;
}

crate::on_every_backend! {
    khatri_rao_is_the_rounded_product => super::khatri_rao_exact;
    mttkrp_every_mode_of_orders_3_4_5 => super::every_mode;
    mttkrp_many_slices_and_reproducible => super::groups_and_reproducible;
    mttkrp_ranks_1_to_65_orders_3_4_5_and_empty_stretches => super::skinny_edges;
    mttkrp_empty_work_and_empty_sums => super::empty;
    tensor_device_arrays => super::device_arrays;
    tensor_argument_checks => super::argument_checks;
    cp_reconstruct_matches_the_dense_definition => super::cp_reconstruct_checked;
    tt_and_tr_reconstruct_match_the_trace_of_products => super::tt_tr_reconstruct_checked;
    ht_reconstruct_matches_the_dense_definition => super::ht_reconstruct_checked;
    cp_als_recovers_planted_ranks_of_orders_3_4_5 => super::cp_als_planted;
    cp_als_takes_the_reference_als_steps => super::cp_als_reference;
    cp_als_nan_zero_absorb_and_reproducible => super::cp_als_outcomes;
    tt_and_tr_svd_stay_within_eps => super::train_eps_bound;
    tt_and_tr_svd_recover_planted_ranks_of_orders_3_4_5 => super::train_planted;
    tt_and_tr_svd_nan_and_empty_reconstruction => super::train_outcomes;
    ht_recovers_planted_ranks_through_its_dense_reconstruction => super::ht_planted;
    decompositions_on_device_arrays => super::decompositions_on_device;
    decomposition_argument_checks => super::decomposition_checks;
}
