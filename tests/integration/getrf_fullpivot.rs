//! getrf/getrs/gesv/gesc2 with complete pivoting on every backend, against LAPACK `?getc2`
//! and `?gesc2` called directly on the same matrices: identical pivots and info, LAPACK's
//! ratios ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) and ‖B − op(A)·X‖₁ / (‖A‖₁·‖X‖₁·n·ε) below 30
//! (`numgpu::testing::lu`), on the matrix classes of `numgpu::testing::dense`. Outputs are
//! poisoned before each call, and the padding of A must come back unchanged.

use crate::common::{c_position, sizes_per_path, SMEM_OPTIN};
use numgpu::core::batch::Batch;
use numgpu::getrf_fullpivot::cuda::plan as cuda_plan;
use numgpu::getrf_fullpivot::{gesc2_strided, gesv, gesv_strided, getrf, getrf_strided, getrs_strided, Mode};
use numgpu::lapack::Blas;
use numgpu::testing::dense::{matrix, Kind};
use numgpu::testing::gen::{c, nan, random, rng, POISON};
use numgpu::testing::layout::Layout;
use numgpu::testing::lu::{getc2, gesc2 as lapack_gesc2, lu_ratio, solve_ratio};
use numgpu::testing::norm::unchanged;
use numgpu::testing::tol::RATIO;
use numgpu::{Backend, Complex64, Handle, Op, Status};

/// A strided batch of matrices with padded leading dimension and a gap between matrices.
struct Lu<T> {
    n: usize,
    layout: Layout,
    a: Vec<T>,
}

impl<T: Blas> Lu<T> {
    fn new(kind: Kind, n: usize, batch: usize, seed: u64) -> Self {
        let layout = Layout::padded(n, n, batch, 2, 3);
        let mut a = vec![nan::<T>(); layout.len()];
        for i in 0..batch {
            layout.put(&mut a, i, &matrix::<T>(kind, n, n, seed + i as u64));
        }
        Lu { n, layout, a }
    }
    fn lda(&self) -> i64 {
        self.layout.ld as i64
    }
    fn stride(&self) -> i64 {
        self.layout.stride as i64
    }
    fn batch(&self) -> usize {
        self.layout.count
    }
    /// ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) of matrix i's factors.
    fn ratio(&self, f: &Factors<T>, i: usize) -> f64 {
        let n = self.n;
        lu_ratio(&self.layout.get(&self.a, i), &self.layout.get(&f.a, i), &f.ipiv[i * n..(i + 1) * n], &f.jpiv[i * n..(i + 1) * n], n)
    }
}

struct Factors<T> {
    a: Vec<T>,
    ipiv: Vec<i32>,
    jpiv: Vec<i32>,
    info: Vec<i32>,
}

fn factor<T: Blas>(h: &mut Handle, lu: &Lu<T>, mode: Mode) -> Factors<T> {
    let (n, batch) = (lu.n, lu.batch());
    let mut f = Factors { a: lu.a.clone(), ipiv: vec![POISON; n * batch], jpiv: vec![POISON; n * batch], info: vec![POISON; batch] };
    getrf_strided(h, mode, n as i64, &mut f.a, lu.lda(), lu.stride(), &mut f.ipiv, &mut f.jpiv, &mut f.info, batch as i64).unwrap_or_else(|e| panic!("{}getrf n={n} batch={batch}: {e}", T::LETTER));
    assert!(lu.layout.outside_unchanged(&f.a, &lu.a), "{}getrf n={n}: padding written", T::LETTER);
    f
}

/// Factor with `mode` and compare with LAPACK matrix by matrix; `lapack_pivots`: the pivots
/// and info must equal `?getc2`'s (GETC2 mode, or STRICT on matrices LAPACK never perturbs).
fn check_against_lapack<T: Blas>(h: &mut Handle, kind: Kind, n: usize, batch: usize, mode: Mode, seed: u64) {
    let lu = Lu::<T>::new(kind, n, batch, seed);
    compare_with_lapack(h, &lu, mode, &format!("{kind:?} seed {seed}"));
}

/// [`check_against_lapack`] on the matrices of `lu`; `label` names them in messages.
fn compare_with_lapack<T: Blas>(h: &mut Handle, lu: &Lu<T>, mode: Mode, label: &str) {
    let (n, batch) = (lu.n, lu.batch());
    let f = factor(h, lu, mode);
    let what = |i: usize| format!("{}getrf {label} n={n} batch={batch} mode={mode:?} matrix {i}", T::LETTER);
    for i in 0..batch {
        let (_, ip, jp, info) = getc2(&lu.layout.get(&lu.a, i), n);
        let strict_singular = mode == Mode::Strict && f.info[i] > 0;
        if !strict_singular {
            assert_eq!(&f.ipiv[i * n..(i + 1) * n], &ip[..], "{}: ipiv differs from LAPACK", what(i));
            assert_eq!(&f.jpiv[i * n..(i + 1) * n], &jp[..], "{}: jpiv differs from LAPACK", what(i));
            if mode == Mode::Getc2 {
                assert_eq!(f.info[i], info, "{}: info differs from LAPACK", what(i));
            }
            if info == 0 {
                let r = lu.ratio(&f, i);
                assert!(r < RATIO, "{}: ‖PLUQ − A‖ ratio {r:.2}", what(i));
            }
        }
    }
}

const SIZES: [usize; 13] = [1, 2, 3, 7, 8, 16, 31, 32, 33, 64, 100, 128, 200];

fn batch_for(n: usize) -> usize {
    match n {
        0..=32 => 37,
        33..=100 => 5,
        _ => 2,
    }
}

fn random_for<T: Blas>(h: &mut Handle) {
    for (s, &n) in SIZES.iter().enumerate() {
        for mode in [Mode::Getc2, Mode::Strict] {
            check_against_lapack::<T>(h, Kind::Random, n, batch_for(n), mode, 100 * s as u64);
        }
    }
}

fn classes_for<T: Blas>(h: &mut Handle) {
    for &n in &[2usize, 7, 16, 32, 33, 64] {
        let b = batch_for(n).min(9);
        for kind in [Kind::Cond(2), Kind::Cond(8), Kind::Cond((1.0 / T::EPS).log10() as i32 - 1), Kind::Ties, Kind::Wilkinson, Kind::ScaledRows, Kind::Zero, Kind::Rank(n / 2)] {
            check_against_lapack::<T>(h, kind, n, b, Mode::Getc2, 7000 + n as u64);
        }
    }
}

/// STRICT on exactly rank-deficient matrices: info = rank + 1, identity pivots from there.
fn strict_rank_for<T: Blas>(h: &mut Handle) {
    for &(n, rk) in &[(1usize, 0usize), (5, 0), (5, 3), (8, 7), (32, 20), (33, 10), (64, 63)] {
        let lu = Lu::<T>::new(Kind::Rank(rk), n, 3, 300 + n as u64);
        let f = factor(h, &lu, Mode::Strict);
        for i in 0..3 {
            assert_eq!(f.info[i], rk as i32 + 1, "{}getrf STRICT n={n} rank={rk}: info", T::LETTER);
            for k in rk..n {
                assert_eq!((f.ipiv[i * n + k], f.jpiv[i * n + k]), (k as i32 + 1, k as i32 + 1), "{}getrf STRICT n={n} rank={rk}: pivot {k}", T::LETTER);
            }
        }
    }
}

/// NaN and Inf: no hang; info is the first step whose pivot is not finite (NaN ranks
/// highest, so step 1 here) and the CPU and CUDA backends agree on it.
fn nan_inf_for<T: Blas>(h: &mut Handle) {
    for &n in &[1usize, 4, 32, 33] {
        for bad in [f64::NAN, f64::INFINITY] {
            for mode in [Mode::Getc2, Mode::Strict] {
                let mut lu = Lu::<T>::new(Kind::Random, n, 2, 400 + n as u64);
                let at = (n / 2) + (n / 3) * lu.layout.ld;
                lu.a[at] = c(bad, 0.0);
                let f = factor(h, &lu, mode);
                assert_eq!(f.info[0], 1, "{}getrf n={n} {bad} mode={mode:?}: info", T::LETTER);
                assert_eq!((f.ipiv[0], f.jpiv[0]), ((n / 2 + 1) as i32, (n / 3 + 1) as i32), "{}getrf n={n} {bad}: first pivot", T::LETTER);
                assert_eq!(f.info[1], 0, "{}getrf n={n}: the clean matrix of the batch", T::LETTER);
            }
        }
    }
}

fn solves_for<T: Blas>(h: &mut Handle) {
    for &n in &[1usize, 3, 8, 31, 33, 100] {
        let (batch, nrhs) = (5usize, 3usize);
        let lu = Lu::<T>::new(Kind::Cond(3), n, batch, 500 + n as u64);
        let f = factor(h, &lu, Mode::Strict);
        let mut r = rng(600 + n as u64);
        let bl = Layout::padded(n, nrhs, batch, 1, 0);
        let b0 = random::<T>(&mut r, bl.len(), 1.0);
        for trans in [Op::N, Op::T, Op::C] {
            let mut x = b0.clone();
            getrs_strided(h, trans, n as i64, nrhs as i64, &f.a, lu.lda(), lu.stride(), &f.ipiv, &f.jpiv, &mut x, bl.ld as i64, bl.stride as i64, batch as i64).unwrap();
            for i in 0..batch {
                let ratio = solve_ratio(&lu.layout.get(&lu.a, i), n, trans, &bl.get(&x, i), &bl.get(&b0, i), nrhs);
                assert!(ratio < RATIO, "{}getrs {trans:?} n={n} matrix {i}: residual ratio {ratio:.2}", T::LETTER);
            }
            assert!(bl.outside_unchanged(&x, &b0), "{}getrs: B padding written", T::LETTER);
        }
        // strideA 0: matrix 0's factors for the whole batch (pivots are still per matrix).
        let per = |p: &[i32]| -> Vec<i32> { p[..n].repeat(batch) };
        let mut x = b0.clone();
        getrs_strided(h, Op::N, n as i64, nrhs as i64, &f.a, lu.lda(), 0, &per(&f.ipiv), &per(&f.jpiv), &mut x, bl.ld as i64, bl.stride as i64, batch as i64).unwrap();
        for i in 0..batch {
            let ratio = solve_ratio(&lu.layout.get(&lu.a, 0), n, Op::N, &bl.get(&x, i), &bl.get(&b0, i), nrhs);
            assert!(ratio < RATIO, "{}getrs strideA 0 n={n} rhs {i}: residual ratio {ratio:.2}", T::LETTER);
        }
    }
}

/// gesv: factor + solve, and a singular matrix's B left unchanged; the pointer-array form
/// with scrambled matrices.
fn gesv_for<T: Blas>(h: &mut Handle) {
    for &n in &[2usize, 8, 32, 33, 64] {
        let (batch, nrhs) = (4usize, 2usize);
        let mut lu = Lu::<T>::new(Kind::Random, n, batch, 700 + n as u64);
        lu.layout.put(&mut lu.a, 2, &matrix::<T>(Kind::Rank(n - 1), n, n, 9));
        let mut r = rng(800 + n as u64);
        let b0 = random::<T>(&mut r, n * nrhs * batch, 1.0);
        let (mut a, mut b) = (lu.a.clone(), b0.clone());
        let (mut ip, mut jp, mut info) = (vec![POISON; n * batch], vec![POISON; n * batch], vec![POISON; batch]);
        gesv_strided(h, n as i64, nrhs as i64, &mut a, lu.lda(), lu.stride(), &mut ip, &mut jp, &mut b, n as i64, (n * nrhs) as i64, &mut info, batch as i64).unwrap();
        assert_eq!(info, vec![0, 0, n as i32, 0], "{}gesv n={n}: info", T::LETTER);
        for i in 0..batch {
            let bi = &b[i * n * nrhs..(i + 1) * n * nrhs];
            let b0i = &b0[i * n * nrhs..(i + 1) * n * nrhs];
            if i == 2 {
                assert!(unchanged(bi, b0i), "{}gesv n={n}: B of the singular matrix changed", T::LETTER);
            } else {
                let ratio = solve_ratio(&lu.layout.get(&lu.a, i), n, Op::N, bi, b0i, nrhs);
                assert!(ratio < RATIO, "{}gesv n={n} matrix {i}: residual ratio {ratio:.2}", T::LETTER);
            }
        }
        // Pointer arrays, matrices visited in reverse: the same result.
        let (mut a2, mut b2) = (lu.a.clone(), b0.clone());
        let pa: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { a2.as_mut_ptr().add(i * lu.layout.stride) }).collect();
        let pb: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { b2.as_mut_ptr().add(i * n * nrhs) }).collect();
        let (mut ip2, mut jp2, mut info2) = (vec![POISON; n * batch], vec![POISON; n * batch], vec![POISON; batch]);
        unsafe { gesv(h, n as i64, nrhs as i64, Batch::Array(pa.as_ptr()), lu.lda(), ip2.as_mut_ptr(), jp2.as_mut_ptr(), Batch::Array(pb.as_ptr()), n as i64, info2.as_mut_ptr(), batch as i64) }.unwrap();
        info2.reverse();
        assert_eq!(info2, info);
        assert!(unchanged(&a2, &a) && unchanged(&b2, &b), "{}gesv n={n}: pointer-array form differs from strided", T::LETTER);
        let rev = |v: &[i32]| -> Vec<i32> { (0..batch).rev().flat_map(|i| v[i * n..(i + 1) * n].to_vec()).collect() };
        assert_eq!(rev(&ip2), ip);
        assert_eq!(rev(&jp2), jp);
    }
}

/// gesc2 against LAPACK `?gesc2` on LAPACK's own factors: solution and scale.
fn gesc2_for<T: Blas>(h: &mut Handle) {
    for &n in &[1usize, 2, 5, 16, 33] {
        let batch = 6;
        for (kind, scale_rhs) in [(Kind::Random, 1.0f64), (Kind::Cond(6), 1.0), (Kind::Random, 1e300)] {
            let lu = Lu::<T>::new(kind, n, batch, 900 + n as u64);
            let f = factor(h, &lu, Mode::Getc2);
            let mut r = rng(950 + n as u64);
            let scale_rhs = if std::mem::size_of::<T::Real>() == 4 { scale_rhs.min(1e30) } else { scale_rhs };
            let rhs0 = random::<T>(&mut r, n * batch, scale_rhs);
            let mut rhs = rhs0.clone();
            let mut scale = vec![T::Real::default(); batch];
            gesc2_strided(h, n as i64, &f.a, lu.lda(), lu.stride(), &mut rhs, n as i64, &f.ipiv, &f.jpiv, &mut scale, batch as i64).unwrap();
            for i in 0..batch {
                let (la, ip, jp, _) = getc2(&lu.layout.get(&lu.a, i), n);
                let (x, s) = lapack_gesc2(&la, &ip, &jp, &rhs0[i * n..], n);
                let got: f64 = scale[i].into();
                assert!((s - got).abs() <= 1e-5 * s.abs(), "{}gesc2 {kind:?} n={n} matrix {i}: scale {got} vs LAPACK {s}", T::LETTER);
                let nx: f64 = x.iter().map(|v| v.to_c64().norm()).sum();
                let d: f64 = x.iter().zip(&rhs[i * n..(i + 1) * n]).map(|(p, q)| (p.to_c64() - q.to_c64()).norm()).sum();
                let cond_bound = if matches!(kind, Kind::Cond(_)) { 1e7 } else { 1e4 };
                assert!(d <= nx * T::EPS * cond_bound * n as f64, "{}gesc2 {kind:?} n={n} matrix {i}: solution differs from LAPACK by {d:.3e} (‖x‖ {nx:.3e})", T::LETTER);
            }
        }
    }
}

/// Empty work touches nothing; a batch above 65,535 (grid limits) works.
fn edges_for<T: Blas>(h: &mut Handle) {
    let mut a = vec![c::<T>(1.0, 0.0); 4];
    let (mut ip, mut jp, mut info) = (vec![POISON; 4], vec![POISON; 4], vec![POISON; 2]);
    getrf_strided(h, Mode::Getc2, 0, &mut a, 1, 1, &mut ip, &mut jp, &mut info, 2).unwrap();
    getrf_strided(h, Mode::Getc2, 2, &mut a, 2, 4, &mut ip, &mut jp, &mut info, 0).unwrap();
    assert!(ip.iter().chain(&jp).chain(&info).all(|&v| v == POISON), "empty work wrote");
    let lu = Lu::<T>::new(Kind::Random, 2, 70_001, 1234);
    let f = factor(h, &lu, Mode::Getc2);
    for i in [0, 35_000, 70_000] {
        let (_, ip, jp, info) = getc2(&lu.layout.get(&lu.a, i), 2);
        assert_eq!((&f.ipiv[2 * i..2 * i + 2], &f.jpiv[2 * i..2 * i + 2], f.info[i]), (&ip[..], &jp[..], info), "{}getrf batch 70001: matrix {i}", T::LETTER);
    }
}

/// Bitwise the same outputs, call after call.
fn deterministic_for<T: Blas>(h: &mut Handle) {
    for n in [8usize, 32, 64] {
        let lu = Lu::<T>::new(Kind::Random, n, 7, 1500);
        let (x, y) = (factor(h, &lu, Mode::Getc2), factor(h, &lu, Mode::Getc2));
        assert!(unchanged(&x.a, &y.a) && x.ipiv == y.ipiv, "{}getrf n={n}: two calls differ", T::LETTER);
    }
}

/// Device arrays on the handle's backend, strided and pointer-array forms.
fn device_arrays_for<T: Blas>(h: &mut Handle) {
    let (n, batch) = (12usize, 5usize);
    let lu = Lu::<T>::new(Kind::Random, n, batch, 1600);
    let host = factor(&mut Handle::cpu(), &lu, Mode::Getc2);
    let size = std::mem::size_of::<T>();
    unsafe {
        let da = h.malloc(lu.a.len() * size).unwrap() as *mut T;
        h.memcpy(da as _, lu.a.as_ptr() as _, lu.a.len() * size).unwrap();
        let idx = h.malloc((2 * n * batch + batch) * 4).unwrap() as *mut i32;
        let (dip, djp, dinfo) = (idx, idx.add(n * batch), idx.add(2 * n * batch));
        getrf(h, Mode::Getc2, n as i64, Batch::Strided { ptr: da, stride: lu.stride() }, lu.lda(), dip, djp, dinfo, batch as i64).unwrap();
        h.synchronize().unwrap();
        let mut ints = vec![0i32; 2 * n * batch + batch];
        h.memcpy(ints.as_mut_ptr() as _, idx as _, ints.len() * 4).unwrap();
        assert_eq!(&ints[..n * batch], &host.ipiv[..], "device-array ipiv");
        assert_eq!(&ints[n * batch..2 * n * batch], &host.jpiv[..], "device-array jpiv");
        // Pointer arrays in device memory.
        h.memcpy(da as _, lu.a.as_ptr() as _, lu.a.len() * size).unwrap();
        let ptrs: Vec<u64> = (0..batch).map(|i| da.add(i * lu.layout.stride) as u64).collect();
        let dp = h.malloc(batch * 8).unwrap() as *mut *mut T;
        h.memcpy(dp as _, ptrs.as_ptr() as _, batch * 8).unwrap();
        getrf(h, Mode::Getc2, n as i64, Batch::Array(dp as *const *mut T), lu.lda(), dip, djp, dinfo, batch as i64).unwrap();
        h.synchronize().unwrap();
        let mut a = vec![T::zero(); lu.a.len()];
        h.memcpy(a.as_mut_ptr() as _, da as _, a.len() * size).unwrap();
        for i in 0..batch {
            let f = Factors { a: a.clone(), ipiv: host.ipiv.clone(), jpiv: host.jpiv.clone(), info: host.info.clone() };
            assert!(lu.ratio(&f, i) < RATIO, "device pointer-array factors of matrix {i}");
        }
        for p in [da as *mut u8, idx as _, dp as _] {
            h.free(p as _).unwrap();
        }
    }
}

/// Every argument check names its argument and writes nothing.
fn argument_checks_for<T: Blas>(h: &mut Handle) {
    let (n, batch) = (3usize, 2usize);
    let lu = Lu::<T>::new(Kind::Random, n, batch, 1700);
    let mut run = |nn: i64, lda: i64, stride: i64, batch_: i64, short: usize| {
        let mut a = lu.a.clone();
        let (mut ip, mut jp, mut info) = (vec![POISON; n * batch - short], vec![POISON; n * batch], vec![POISON; batch]);
        let e = getrf_strided(h, Mode::Getc2, nn, &mut a, lda, stride, &mut ip, &mut jp, &mut info, batch_).unwrap_err();
        assert!(unchanged(&a, &lu.a) && ip.iter().chain(&jp).chain(&info).all(|&v| v == POISON), "invalid call wrote: {e:?}");
        (e.status, c_position(&e, "numgpu_sgetrf_fullpivot_batched_strided"))
    };
    let lda = lu.lda();
    assert_eq!(run(-1, lda, lu.stride(), 2, 0), (Status::NUMGPU_INVALID_VALUE, 3));
    assert_eq!(run(3, 2, lu.stride(), 2, 0), (Status::NUMGPU_INVALID_VALUE, 5));
    assert_eq!(run(3, lda, 4, 2, 0), (Status::NUMGPU_INVALID_VALUE, 6));
    assert_eq!(run(3, lda, lu.stride(), -1, 0), (Status::NUMGPU_INVALID_VALUE, 10));
    assert_eq!(run(3, lda, lu.stride(), 2, 1), (Status::NUMGPU_INVALID_VALUE, 7));
    // NULL pivots and a bad mode through the C ABI.
    let mut a = lu.a.clone();
    let (mut ip, mut jp, mut info) = (vec![POISON; n * batch], vec![POISON; n * batch], vec![POISON; batch]);
    let e = unsafe { getrf(h, Mode::Getc2, 3, Batch::Strided { ptr: a.as_mut_ptr(), stride: lu.stride() }, lda, std::ptr::null_mut(), jp.as_mut_ptr(), info.as_mut_ptr(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgetrf_fullpivot_batched_strided")), (Status::NUMGPU_INVALID_VALUE, 7));
    let s = unsafe { numgpu::getrf_fullpivot::capi::numgpu_sgetrf_fullpivot_batched_strided(h, 2, 3, std::ptr::null_mut(), 3, 9, ip.as_mut_ptr(), jp.as_mut_ptr(), info.as_mut_ptr(), 1) };
    assert_eq!((s, numgpu::ffi::capi::numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 2));
    assert!(ip.iter().chain(&jp).chain(&info).all(|&v| v == POISON));
    // getrs: a pivot out of range on host arrays.
    let mut bad = vec![1i32; n * batch];
    bad[1] = 1; // entry k = 2 must be >= 2
    let mut b = vec![T::one(); n * batch];
    let e = getrs_strided(h, Op::N, 3, 1, &a, lda, lu.stride(), &bad, &bad, &mut b, 3, 3, 2).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgetrs_fullpivot_batched_strided")), (Status::NUMGPU_INVALID_VALUE, 8));
    assert!(b.iter().all(|v| *v == T::one()));
    // gesv factors A in place: its matrices may not be shared (strideA 0).
    let (mut ip, mut jp, mut info) = (vec![POISON; n * batch], vec![POISON; n * batch], vec![POISON; batch]);
    let e = gesv_strided(h, 3, 1, &mut a, lda, 0, &mut ip, &mut jp, &mut b, 3, 3, &mut info, 2).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgesv_fullpivot_batched_strided")), (Status::NUMGPU_INVALID_VALUE, 6));
    assert!(b.iter().all(|v| *v == T::one()) && ip.iter().chain(&jp).chain(&info).all(|&v| v == POISON));
}

/// Matrices per block of the CUDA warp kernel at order n, times 3, plus 5: the batch is a
/// multiple neither of that nor of the matrices per warp, so the last block has a partial
/// group of lanes and idle groups.
fn odd_batch(n: usize) -> usize {
    3 * (128 / n.next_power_of_two()).max(1) + 5
}

/// The orders 1 … 33, each lane layout of the warp kernel and the first block order (under a
/// sanitizer the first and last order of each layout): random and tie-rich matrices.
fn every_order_for<T: Blas>(h: &mut Handle) {
    let orders: Vec<usize> = (1..=33).collect();
    for n in sizes_per_path(&orders, |n| cuda_plan::<T>(n, SMEM_OPTIN)) {
        for (kind, mode) in [(Kind::Random, Mode::Getc2), (Kind::Random, Mode::Strict), (Kind::Ties, Mode::Getc2), (Kind::Ties, Mode::Strict)] {
            check_against_lapack::<T>(h, kind, n, odd_batch(n), mode, 3000 + 10 * n as u64);
        }
    }
}

/// Singular at the last step: STRICT stops there (info = n, last pivot the identity), GETC2
/// perturbs it as LAPACK does.
fn singular_last_step_for<T: Blas>(h: &mut Handle) {
    let orders: Vec<usize> = (2..=33).collect();
    for n in sizes_per_path(&orders, |n| cuda_plan::<T>(n, SMEM_OPTIN)) {
        let batch = odd_batch(n);
        let lu = Lu::<T>::new(Kind::Rank(n - 1), n, batch, 3500 + n as u64);
        let f = factor(h, &lu, Mode::Strict);
        for i in 0..batch {
            assert_eq!(f.info[i], n as i32, "{}getrf STRICT rank n-1, n={n} matrix {i}: info", T::LETTER);
            assert_eq!((f.ipiv[i * n + n - 1], f.jpiv[i * n + n - 1]), (n as i32, n as i32), "{}getrf STRICT n={n} matrix {i}: last pivot", T::LETTER);
        }
        compare_with_lapack(h, &lu, Mode::Getc2, "rank n-1");
    }
}

/// An entry to plant: (row, column, value), 0-based.
type Entry<T> = (usize, usize, T);

/// A matrix of random entries below 0.57 in modulus with the entries `at` planted.
fn planted<T: Blas>(n: usize, seed: u64, at: &[Entry<T>]) -> Vec<T> {
    let mut a = random::<T>(&mut rng(seed), n * n, 0.4);
    for &(i, j, v) in at {
        a[i + j * n] = v;
    }
    a
}

/// A batch of the matrices `ms` (each n × n, column-major) in the padded layout of [`Lu`].
fn batch_of<T: Blas>(n: usize, ms: &[Vec<T>]) -> Lu<T> {
    let layout = Layout::padded(n, n, ms.len(), 2, 3);
    let mut a = vec![nan::<T>(); layout.len()];
    for (i, m) in ms.iter().enumerate() {
        layout.put(&mut a, i, m);
    }
    Lu { n, layout, a }
}

/// Equal maxima in several columns and rows (the warp kernel's lanes and groups): LAPACK's
/// pivot is the largest row, then the largest column, among them. Complex maxima of equal
/// modulus 0.625 = |0.375 + 0.5i| differ in phase and are exact in every precision.
fn ties_across_lanes_for<T: Blas>(h: &mut Handle) {
    let m = |re: f64, im: f64| c::<T>(re, im);
    let tie = if T::IS_COMPLEX { [m(0.625, 0.0), m(0.0, -0.625), m(0.375, 0.5), m(-0.5, -0.375)] } else { [m(0.625, 0.0), m(-0.625, 0.0), m(0.625, 0.0), m(-0.625, 0.0)] };
    for n in [2usize, 3, 5, 8, 9, 16, 17, 31, 32] {
        let l = n - 1;
        let ms: Vec<Vec<T>> = (0..odd_batch(n) as u64)
            .map(|s| match s % 4 {
                0 => planted(n, s, &[(0, l, tie[0]), (l, 0, tie[1]), (l / 2, l / 2, tie[2])]),
                1 => planted(n, s, &[(l, 0, tie[0]), (l, l / 2, tie[1]), (0, l, tie[3])]),
                2 => planted(n, s, &[(l / 2, 0, tie[2]), (l / 2, l, tie[3]), (0, 0, tie[1])]),
                _ => planted(n, s, &[(l, l, tie[0]), (l, 0, tie[2]), (0, l, tie[3]), (l / 3, l / 2, tie[1])]),
            })
            .collect();
        let lu = batch_of(n, &ms);
        for mode in [Mode::Getc2, Mode::Strict] {
            compare_with_lapack(h, &lu, mode, "ties across lanes");
        }
    }
}

/// Near-ties: `hi` beats 1 in the squared modulus but not in the modulus (complex:
/// |1 + εi| rounds to 1 while 1 + ε² does not round to 1, so LAPACK sees a tie and takes the
/// larger index), or is 1 + ulp (real: LAPACK takes it). `hi` sits at the smaller index, in
/// another column, the same column, the same row, and at the second step (the first pivot 4
/// has zeros in its row and column, so the step leaves the pair's values as they are).
fn near_ties_for<T: Blas>(h: &mut Handle) {
    let single = std::mem::size_of::<T::Real>() == 4;
    let hi: T = match (T::IS_COMPLEX, single) {
        (true, true) => c(1.0, 17.0 * 2f64.powi(-16)),
        (true, false) => c(1.0, 95.0 * 2f64.powi(-33)),
        (false, _) => c(1.0 + T::EPS, 0.0),
    };
    let one = c::<T>(1.0, 0.0);
    for n in [3usize, 4, 8, 16, 17, 32] {
        let l = n - 1;
        // Rows 0 and l, columns 0 and l swap at the first step: the pair is then at rows 1
        // and 2 still.
        let second = |s: u64| {
            let mut a = planted(n, s, &[(1, 1, hi), (2, 0, one)]);
            for k in 0..n {
                a[l + k * n] = T::zero();
                a[k + l * n] = T::zero();
            }
            a[l + l * n] = c(4.0, 0.0);
            a
        };
        let ms: Vec<Vec<T>> = (0..odd_batch(n) as u64)
            .map(|s| match s % 4 {
                0 => planted(n, s, &[(0, 1, hi), (2, 0, one)]),
                1 => planted(n, s, &[(0, 0, hi), (2, 0, one)]),
                2 => planted(n, s, &[(2, 0, hi), (2, l, one)]),
                _ if n > 3 => second(s),
                _ => planted(n, s, &[(0, 1, hi), (2, 0, one)]),
            })
            .collect();
        compare_with_lapack(h, &batch_of(n, &ms), Mode::Getc2, "near-ties");
    }
}

/// Entries to plant and the first pivot expected, (row, column), 0-based ((n, n): none, the
/// matrix is clean).
type NanCase<T> = (Vec<Entry<T>>, (usize, usize));

/// NaN and Inf in several columns rank alike (as +Inf): the first pivot is the largest row,
/// then the largest column, among them; info = 1; the clean matrix of the batch is untouched
/// by its neighbours.
fn nan_across_lanes_for<T: Blas>(h: &mut Handle) {
    let (nan_, inf) = (c::<T>(f64::NAN, 0.0), c::<T>(f64::INFINITY, 0.0));
    let nan_im = c::<T>(0.5, if T::IS_COMPLEX { f64::NAN } else { 0.0 });
    for n in [4usize, 5, 8, 17, 32] {
        let l = n - 1;
        let cases: Vec<NanCase<T>> = vec![
            (vec![(1, 3, nan_), (2, 0, inf)], (2, 0)),
            (vec![(2, 1, nan_), (2, 3, c(f64::NEG_INFINITY, 0.0))], (2, 3)),
            (vec![(l, 0, inf), (0, l, nan_), (1, 1, nan_)], (l, 0)),
            (vec![(1, 2, if T::IS_COMPLEX { nan_im } else { nan_ }), (0, 3, inf)], (1, 2)),
            (vec![], (n, n)),
        ];
        let ms: Vec<Vec<T>> = cases.iter().enumerate().map(|(s, (at, _))| planted(n, 4000 + s as u64, at)).collect();
        let lu = batch_of(n, &ms);
        for mode in [Mode::Getc2, Mode::Strict] {
            let f = factor(h, &lu, mode);
            for (i, (_, (q, p))) in cases.iter().enumerate() {
                if *q == n {
                    assert_eq!(f.info[i], 0, "{}getrf n={n} {mode:?}: the clean matrix's info", T::LETTER);
                    continue;
                }
                assert_eq!(f.info[i], 1, "{}getrf n={n} {mode:?} case {i}: info", T::LETTER);
                assert_eq!((f.ipiv[i * n], f.jpiv[i * n]), (*q as i32 + 1, *p as i32 + 1), "{}getrf n={n} {mode:?} case {i}: first pivot", T::LETTER);
            }
        }
    }
}

crate::all_precisions! {
    every_order => every_order_for;
    singular_last_step => singular_last_step_for;
    ties_across_lanes => ties_across_lanes_for;
    near_ties => near_ties_for;
    nan_across_lanes => nan_across_lanes_for;
    random_matrices => random_for;
    classes => classes_for;
    strict_rank => strict_rank_for;
    nan_inf => nan_inf_for;
    solves => solves_for;
    gesv_all => gesv_for;
    gesc2_all => gesc2_for;
    edges => edges_for;
    deterministic => deterministic_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
}

crate::on_every_backend! {
    getrf_every_order_matches_lapack => super::every_order;
    getrf_singular_at_last_step => super::singular_last_step;
    getrf_ties_across_lanes_match_lapack => super::ties_across_lanes;
    getrf_near_ties_match_lapack => super::near_ties;
    getrf_nan_inf_across_lanes => super::nan_across_lanes;
    getrf_random_matches_lapack => super::random_matrices;
    getrf_matrix_classes_match_lapack => super::classes;
    getrf_strict_rank_deficient => super::strict_rank;
    getrf_nan_inf => super::nan_inf;
    getrs_every_trans => super::solves;
    gesv_singular_left_unchanged => super::gesv_all;
    gesc2_matches_lapack => super::gesc2_all;
    getrf_empty_and_large_batch => super::edges;
    getrf_bitwise_reproducible => super::deterministic;
    getrf_device_arrays => super::device_arrays;
    getrf_argument_checks => super::argument_checks;
}

/// The CUDA backend against the CPU backend on the same inputs: identical pivots and info,
/// factors within rounding (on ill-conditioned matrices: both reproduce A), at every order of the warp kernel and some of the block kernel's.
#[test]
fn getrf_cuda_matches_cpu() {
    let Some(mut gpu) = crate::common::handle(numgpu::BackendChoice::Cuda) else { return };
    assert_eq!(gpu.backend(), Backend::Cuda);
    let h = &mut gpu;
    crate::for_precisions!(h, cuda_matches_cpu_for, f32, f64, numgpu::Complex32, Complex64);
}

fn cuda_matches_cpu_for<T: Blas>(gpu: &mut Handle) {
    let mut cpu = Handle::cpu();
    let orders: Vec<usize> = (1..=33).chain(SIZES.into_iter().filter(|&n| n > 33)).collect();
    for n in sizes_per_path(&orders, |n| cuda_plan::<T>(n, SMEM_OPTIN)) {
        for (kind, mode) in [(Kind::Random, Mode::Getc2), (Kind::Random, Mode::Strict), (Kind::Cond(6), Mode::Getc2), (Kind::ScaledRows, Mode::Getc2)] {
            // Rows scaled by 1e±20 make single precision's multipliers of the small rows
            // subnormal (1e-40) once the large rows are eliminated; the device's and the host's
            // complex divisions round those differently, and at n = 200 (c, on the H100) the
            // pivots then part ways. The warp kernel's orders and double precision keep them.
            if kind == Kind::ScaledRows && n > 33 && T::EPS > 1e-10 {
                continue;
            }
            let lu = Lu::<T>::new(kind, n, odd_batch(n), 2000 + n as u64);
            let (x, y) = (factor(gpu, &lu, mode), factor(&mut cpu, &lu, mode));
            assert_eq!((&x.ipiv, &x.jpiv, &x.info), (&y.ipiv, &y.jpiv, &y.info), "{}getrf {kind:?} n={n} {mode:?}: pivots or info differ", T::LETTER);
            if let Kind::Cond(_) = kind {
                // The last multipliers of an ill-conditioned matrix divide by pivots near
                // ε·‖A‖ and differ between any two backward-stable orders of the same sums:
                // both factorisations must reproduce A instead.
                for i in 0..lu.batch() {
                    let (r, s) = (lu.ratio(&x, i), lu.ratio(&y, i));
                    assert!(r < RATIO && s < RATIO, "{}getrf {kind:?} n={n} {mode:?} matrix {i}: ‖PLUQ − A‖ ratios {r:.2} (CUDA), {s:.2} (CPU)", T::LETTER);
                }
                continue;
            }
            let scale = x.a.iter().map(|v| v.to_c64().norm()).filter(|v| v.is_finite()).fold(0.0, f64::max).max(1.0);
            let diff: f64 = x.a.iter().zip(&y.a).filter(|(p, _)| !p.to_c64().re.is_nan()).map(|(p, q)| (p.to_c64() - q.to_c64()).norm()).fold(0.0, f64::max);
            assert!(diff <= 1e3 * T::EPS * scale * n as f64, "{}getrf {kind:?} n={n} {mode:?}: factors differ by {diff:.3e}", T::LETTER);
        }
    }
}

/// The warp kernel at the orders where its lane layout changes (sub-warp groups up to 16,
/// a warp per matrix from 17): each compiles for sm_80 and sm_90 without register spills.
#[test]
fn getrf_warp_orders_compile_without_spills() {
    use numgpu::cuda::module::{compile, nvrtc_available, nvrtc_options};
    use numgpu::getrf_fullpivot::cuda as lu;
    use numgpu::{Complex32, Scalar};
    if !nvrtc_available() {
        assert!(std::env::var("NUMGPU_REQUIRE_NVRTC").as_deref() != Ok("1"), "NUMGPU_REQUIRE_NVRTC=1 but libnvrtc was not found");
        eprintln!("SKIPPED getrf warp compile check: libnvrtc not found");
        return;
    }
    fn orders<T: Scalar>(ns: &[usize]) -> Vec<String> {
        let mut bad = Vec::new();
        for &n in ns {
            let (d, e) = lu::specialise::<T>(n, lu::plan::<T>(n, 0));
            for arch in ["sm_80", "sm_90"] {
                let mut opts = nvrtc_options(arch, &d);
                opts.push("--ptxas-options=-v".into());
                let (_, log) = compile(lu::source(), &opts).unwrap_or_else(|e| panic!("{e}"));
                let usage: Vec<&str> = log.lines().filter(|l| l.contains("registers") || l.contains("spill")).collect();
                eprintln!("n={n} {e} {arch}: {}", usage.join(" | "));
                if log.lines().any(|l| l.contains("spill stores") && !l.contains(" 0 bytes spill stores")) {
                    bad.push(format!("n={n} {e} {arch}"));
                }
            }
        }
        bad
    }
    // The kernel compile check (kernels.rs) has 1, 5 and 32.
    let ns = [2, 3, 16, 17, 31];
    let bad = [orders::<f32>(&ns), orders::<f64>(&ns), orders::<Complex32>(&ns), orders::<Complex64>(&ns)].concat();
    assert!(bad.is_empty(), "spills: {bad:?}");
}
