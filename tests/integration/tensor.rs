//! Dense tensors on every backend: the Khatri–Rao product bit for bit against the double
//! product rounded once; MTTKRP for every mode of 3rd-, 4th- and 5th-order tensors from
//! 1 × 1 × 1 to 60³ (and the shapes that take every path: one GEMM, split-K with and without a
//! remainder, slices, slices in several groups, unit dimensions before or after the mode)
//! against the explicit unfold + Khatri–Rao + GEMM in double, within the componentwise bound
//! (k + d)·ε·|X_(n)|·|K|. Factors and M have padded leading dimensions whose NaN padding must
//! come back unchanged, M is poisoned with NaN, X and the factors must be unchanged; zero
//! dimensions and rank 0; device arrays; results reproducible bit for bit; every argument
//! check names its C position and writes nothing.

use crate::common::c_position;
use numgpu::lapack::Blas;
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

crate::real_precisions! {
    khatri_rao_exact => khatri_rao_for;
    every_mode => every_mode_for;
    groups_and_reproducible => groups_and_reproducible_for;
    empty => empty_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
}

crate::on_every_backend! {
    khatri_rao_is_the_rounded_product => super::khatri_rao_exact;
    mttkrp_every_mode_of_orders_3_4_5 => super::every_mode;
    mttkrp_many_slices_and_reproducible => super::groups_and_reproducible;
    mttkrp_empty_work_and_empty_sums => super::empty;
    tensor_device_arrays => super::device_arrays;
    tensor_argument_checks => super::argument_checks;
}
