//! potrf/potrs/posv on every backend, against LAPACK `?potrf` called directly on the same
//! matrices (`numgpu::testing::spd`): the same info, LAPACK's ratio ‖L·Lᴴ − A‖₁ / (n·‖A‖₁·ε)
//! and the residual ratio ‖B − A·X‖₁ / (‖A‖₁·‖X‖₁·n·ε) below 30, the known factor of
//! tridiag(−1, 2, −1), matrices indefinite at a chosen k (info = k, the first k − 1 columns
//! as LAPACK's). The triangle a call must not read is NaN, and it and the padding must come
//! back unchanged.

use crate::common::{c_position, sizes_per_path, under_sanitizer, SMEM_OPTIN};
use numgpu::core::batch::Batch;
use numgpu::lapack::Blas;
use numgpu::potrf::{posv, posv_strided, potrf, potrf_strided, potrs_strided};
use numgpu::testing::gen::{c, nan, random, rng, POISON};
use numgpu::testing::layout::Layout;
use numgpu::testing::lu::solve_ratio;
use numgpu::testing::norm::unchanged;
use numgpu::testing::spd::{chol_ratio, leading_gap, indefinite_at, lower_of, potrf as lapack_potrf, spd, tridiag_121, tridiag_121_factor};
use numgpu::testing::tol::RATIO;
use numgpu::{Backend, Complex64, Handle, Status, Uplo};

const UPLOS: [Uplo; 2] = [Uplo::Lower, Uplo::Upper];

/// A strided batch of Hermitian matrices (compact originals kept), with padded leading
/// dimension, a gap between matrices, and NaN in the triangle `uplo` does not name.
struct Spd<T> {
    n: usize,
    uplo: Uplo,
    layout: Layout,
    full: Vec<Vec<T>>,
    a: Vec<T>,
}

impl<T: Blas> Spd<T> {
    fn new(uplo: Uplo, full: Vec<Vec<T>>, n: usize) -> Self {
        let layout = Layout::padded(n, n, full.len(), 2, 3);
        let mut a = vec![nan::<T>(); layout.len()];
        for (i, m) in full.iter().enumerate() {
            let mut m = m.clone();
            for (e, x) in m.iter_mut().enumerate() {
                let (r, col) = (e % n, e / n);
                if (uplo == Uplo::Lower && r < col) || (uplo == Uplo::Upper && r > col) {
                    *x = nan();
                }
            }
            layout.put(&mut a, i, &m);
        }
        Spd { n, uplo, layout, full, a }
    }
    fn random(uplo: Uplo, n: usize, batch: usize, seed: u64) -> Self {
        Self::new(uplo, (0..batch).map(|i| spd::<T>(n, seed + i as u64)).collect(), n)
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
}

struct Factors<T> {
    a: Vec<T>,
    info: Vec<i32>,
}

fn factor<T: Blas>(h: &mut Handle, s: &Spd<T>) -> Factors<T> {
    let (n, batch, uplo) = (s.n, s.batch(), s.uplo);
    let mut f = Factors { a: s.a.clone(), info: vec![POISON; batch] };
    potrf_strided(h, uplo, n as i64, &mut f.a, s.lda(), s.stride(), &mut f.info, batch as i64).unwrap_or_else(|e| panic!("{}potrf {uplo:?} n={n} batch={batch}: {e}", T::LETTER));
    let other_unchanged = (0..batch).all(|i| {
        let (x, y) = (s.layout.get(&f.a, i), s.layout.get(&s.a, i));
        (0..n * n).filter(|e| if uplo == Uplo::Lower { e % n < e / n } else { e % n > e / n }).all(|e| x[e].to_c64().re.is_nan() && y[e].to_c64().re.is_nan())
    });
    assert!(s.layout.outside_unchanged(&f.a, &s.a) && other_unchanged, "{}potrf {uplo:?} n={n}: padding or the other triangle written", T::LETTER);
    f
}

/// Factor and compare with LAPACK matrix by matrix.
fn check_against_lapack<T: Blas>(h: &mut Handle, s: &Spd<T>, what: &str) {
    let (n, uplo) = (s.n, s.uplo);
    let f = factor(h, s);
    for i in 0..s.batch() {
        let (lf, linfo) = lapack_potrf(&s.full[i], n, uplo);
        let who = format!("{}potrf {what} {uplo:?} n={n} matrix {i}", T::LETTER);
        assert_eq!(f.info[i], linfo, "{who}: info differs from LAPACK");
        if linfo == 0 {
            let r = chol_ratio(&s.full[i], &s.layout.get(&f.a, i), n, uplo);
            let lr = chol_ratio(&s.full[i], &lf, n, uplo);
            assert!(r < RATIO, "{who}: ‖L·Lᴴ − A‖ ratio {r:.2} (LAPACK's {lr:.2})");
        }
    }
}

/// Around the warp kernel's 24/25 boundary (a row a lane, then two: odd and even orders), its
/// end at 32 where the shared-memory tiles of 16 take over (each order around a multiple of
/// 16: the last tile full or one row deep; the block's threads 64, 96, 160, then 256) up to
/// 160 (complex double), 224 (double, complex single) or 256 (single), the tile kernel's row
/// groups of 32 beyond them up to 256, and the block kernel beyond (leading columns in global
/// memory but for single).
const SIZES: [usize; 45] = [1, 2, 3, 5, 8, 16, 17, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 37, 48, 49, 63, 64, 65, 66, 95, 96, 97, 100, 127, 128, 129, 160, 161, 169, 179, 180, 181, 200, 224, 225, 255, 256, 257, 300];

/// `sizes`, or under a sanitizer the first and last of each kernel path of T.
fn per_path<T: Blas>(sizes: &[usize]) -> Vec<usize> {
    sizes_per_path(sizes, |n| match numgpu::potrf::cuda::plan::<T>(n, SMEM_OPTIN) {
        numgpu::potrf::cuda::Plan::Warp { h, w, .. } => (w, 1, h < n),
        // A block of 64 to 256 threads: (0, 2, whether 256).
        numgpu::potrf::cuda::Plan::Panel { threads, .. } => (0, 2, threads == 256),
        numgpu::potrf::cuda::Plan::Reg { tm, .. } => (tm, 0, true),
        numgpu::potrf::cuda::Plan::Tile { .. } => (0, 0, false),
        numgpu::potrf::cuda::Plan::Block { split, threads } => (0, threads, split > 0),
    })
}

fn batch_for(n: usize) -> usize {
    match n {
        0..=32 => 37,
        33..=128 => 5,
        _ => 2,
    }
}

fn random_for<T: Blas>(h: &mut Handle) {
    for (s, n) in per_path::<T>(&SIZES).into_iter().enumerate() {
        for uplo in UPLOS {
            check_against_lapack(h, &Spd::<T>::random(uplo, n, batch_for(n), 100 * s as u64), "random L·Lᴴ");
        }
    }
}

/// An order whose triangle is mostly in global memory on CUDA (double, n = 520: 280 leading
/// columns; 260 under a sanitizer), both uplo, one matrix indefinite at k = n − 120.
fn large_order(h: &mut Handle) {
    let n = if under_sanitizer() { 260 } else { 520 };
    for uplo in UPLOS {
        let s = Spd::<f64>::new(uplo, vec![spd::<f64>(n, 77), indefinite_at::<f64>(n, n - 120, 78)], n);
        check_against_lapack(h, &s, "large order");
        assert_eq!(factor(h, &s).info, vec![0, n as i32 - 120], "dpotrf n={n} {uplo:?}: info");
    }
}

/// tridiag(−1, 2, −1): the known factor, entry by entry; the zeros stay exactly zero.
fn tridiag_for<T: Blas>(h: &mut Handle) {
    for n in per_path::<T>(&[1, 2, 7, 32, 33, 100, 256]) {
        for uplo in UPLOS {
            let s = Spd::<T>::new(uplo, vec![tridiag_121::<T>(n); 3], n);
            let f = factor(h, &s);
            let exact = tridiag_121_factor(n);
            for i in 0..3 {
                assert_eq!(f.info[i], 0, "{}potrf tridiag {uplo:?} n={n}: info", T::LETTER);
                let l = lower_of(&s.layout.get(&f.a, i), n, uplo);
                for e in 0..n * n {
                    let (r, col) = (e % n, e / n);
                    if r < col {
                        continue;
                    }
                    let gap = (l[e] - Complex64::new(exact[e], 0.0)).norm();
                    if exact[e] == 0.0 {
                        assert_eq!(gap, 0.0, "{}potrf tridiag {uplo:?} n={n}: L({r}, {col}) = {} is not 0", T::LETTER, l[e]);
                    }
                    assert!(gap <= 8.0 * (r + 1) as f64 * T::EPS, "{}potrf tridiag {uplo:?} n={n}: L({r}, {col}) = {} vs {}", T::LETTER, l[e], exact[e]);
                }
            }
        }
    }
}

/// Indefinite at k: info = k, the leading (k − 1) × (k − 1) block as LAPACK's; the clean matrices of the
/// batch unaffected.
fn indefinite_for<T: Blas>(h: &mut Handle) {
    for &n in &[1usize, 4, 8, 32, 33, 64, 130] {
        indefinite_at_each::<T>(h, n, &[1, n.div_ceil(2), n]);
    }
}

/// Indefinite inside and at the edges of the CUDA kernels' tiles (the folded warp kernel's
/// low and high rows, register tiles of 4, 5, 6, 8 and 9 columns, panels of 32): the step
/// that fails is the first or last column of a tile, or one inside it, or the first or last
/// low row (n = 31: 16, 17; n = 63 and 64: 32, 33), for orders of each path.
fn indefinite_tile_edges_for<T: Blas>(h: &mut Handle) {
    for &n in &[29usize, 31, 63, 64, 65, 97, 128, 160, 200] {
        let ks: Vec<usize> = [4, 5, 6, 7, 8, 9, 10, 12, 13, 16, 17, 18, 19, 32, 33, 40, n - 1, n].into_iter().filter(|&k| k <= n).collect();
        indefinite_at_each::<T>(h, n, &ks);
    }
}

/// Indefinite at the panel kernel's edges (panels of 16 columns): the failing step the first
/// (k = 1, 17, 49, 113) or last (16, 48, 112) column of a panel or one inside (8, 100), the
/// last order (n − 1, n), for orders whose last tile is full, one row deep or one short.
fn indefinite_panel_edges_for<T: Blas>(h: &mut Handle) {
    for &n in &[95usize, 129, 160, 224, 256] {
        let ks: Vec<usize> = [1, 8, 16, 17, 48, 49, 100, 112, 113, n - 1, n].into_iter().filter(|&k| k <= n).collect();
        indefinite_at_each::<T>(h, n, &ks);
    }
}

/// One batch of order n, matrix i indefinite at ks[i] and a positive definite one last, both
/// uplo: info = k and the leading (k − 1) × (k − 1) block as LAPACK's; the clean matrix of the
/// batch unaffected.
fn indefinite_at_each<T: Blas>(h: &mut Handle, n: usize, ks: &[usize]) {
    for uplo in UPLOS {
        let mut full: Vec<Vec<T>> = ks.iter().map(|&k| indefinite_at::<T>(n, k, 200 + (n + k) as u64)).collect();
        full.push(spd::<T>(n, 300 + n as u64));
        let s = Spd::new(uplo, full, n);
        let f = factor(h, &s);
        for (i, &k) in ks.iter().enumerate() {
            let who = format!("{}potrf indefinite {uplo:?} n={n} k={k}", T::LETTER);
            assert_eq!(f.info[i], k as i32, "{who}: info");
            let (lf, linfo) = lapack_potrf(&s.full[i], n, uplo);
            assert_eq!(linfo, k as i32, "{who}: LAPACK's info");
            let gap = leading_gap(&lower_of(&s.layout.get(&f.a, i), n, uplo), &lower_of(&lf, n, uplo), n, k - 1);
            assert!(gap <= 30.0 * n as f64 * T::EPS, "{who}: the leading {0} × {0} block differs from LAPACK's by {gap:.3e}", k - 1);
        }
        assert_eq!(f.info[ks.len()], 0, "{}potrf {uplo:?} n={n}: the clean matrix of the batch", T::LETTER);
    }
}

/// A NaN or Inf at (r, c) of the triangle gives info = max(r, c) + 1 (the first pivot it
/// reaches); no hang.
fn nan_inf_for<T: Blas>(h: &mut Handle) {
    for &n in &[1usize, 4, 32, 33, 70, 129, 255] {
        for uplo in UPLOS {
            for bad in [f64::NAN, f64::INFINITY] {
                for (p, q) in [(n / 2, n / 2), (n - 1, n / 3)] {
                    let mut m = spd::<T>(n, 400 + n as u64);
                    m[p + q * n] = c(bad, 0.0);
                    m[q + p * n] = c(bad, 0.0);
                    let s = Spd::new(uplo, vec![m, spd::<T>(n, 401)], n);
                    let f = factor(h, &s);
                    assert_eq!(f.info, vec![p.max(q) as i32 + 1, 0], "{}potrf {uplo:?} n={n} {bad} at ({p}, {q}): info", T::LETTER);
                }
            }
        }
    }
}

/// potrs with the factors: residual ratios; strideA 0 (one factor for the whole batch).
fn solves_for<T: Blas>(h: &mut Handle) {
    for n in per_path::<T>(&[1, 3, 8, 31, 33, 100, 256]) {
        for uplo in UPLOS {
            let (batch, nrhs) = (4usize, 3usize);
            let s = Spd::<T>::random(uplo, n, batch, 500 + n as u64);
            let f = factor(h, &s);
            let bl = Layout::padded(n, nrhs, batch, 1, 2);
            let b0 = random::<T>(&mut rng(600 + n as u64), bl.len(), 1.0);
            let mut x = b0.clone();
            potrs_strided(h, uplo, n as i64, nrhs as i64, &f.a, s.lda(), s.stride(), &mut x, bl.ld as i64, bl.stride as i64, batch as i64).unwrap();
            assert!(bl.outside_unchanged(&x, &b0), "{}potrs: B padding written", T::LETTER);
            for i in 0..batch {
                let ratio = solve_ratio(&s.full[i], n, numgpu::Op::N, &bl.get(&x, i), &bl.get(&b0, i), nrhs);
                assert!(ratio < RATIO, "{}potrs {uplo:?} n={n} matrix {i}: residual ratio {ratio:.2}", T::LETTER);
            }
            let mut x = b0.clone();
            potrs_strided(h, uplo, n as i64, nrhs as i64, &f.a, s.lda(), 0, &mut x, bl.ld as i64, bl.stride as i64, batch as i64).unwrap();
            for i in 0..batch {
                let ratio = solve_ratio(&s.full[0], n, numgpu::Op::N, &bl.get(&x, i), &bl.get(&b0, i), nrhs);
                assert!(ratio < RATIO, "{}potrs strideA 0 {uplo:?} n={n} rhs {i}: residual ratio {ratio:.2}", T::LETTER);
            }
        }
    }
}

/// posv: factor + solve, B of the indefinite matrix unchanged; the pointer-array form with
/// the matrices in reverse gives the same result.
fn posv_for<T: Blas>(h: &mut Handle) {
    for n in per_path::<T>(&[2, 8, 32, 33, 64, 200]) {
        for uplo in UPLOS {
            let (batch, nrhs) = (4usize, 2usize);
            let mut full: Vec<Vec<T>> = (0..batch).map(|i| spd::<T>(n, 700 + (n + i) as u64)).collect();
            full[2] = indefinite_at::<T>(n, n / 2 + 1, 9);
            let s = Spd::new(uplo, full, n);
            let b0 = random::<T>(&mut rng(800 + n as u64), n * nrhs * batch, 1.0);
            let (mut a, mut b, mut info) = (s.a.clone(), b0.clone(), vec![POISON; batch]);
            posv_strided(h, uplo, n as i64, nrhs as i64, &mut a, s.lda(), s.stride(), &mut b, n as i64, (n * nrhs) as i64, &mut info, batch as i64).unwrap();
            assert_eq!(info, vec![0, 0, (n / 2 + 1) as i32, 0], "{}posv {uplo:?} n={n}: info", T::LETTER);
            for i in 0..batch {
                let (bi, b0i) = (&b[i * n * nrhs..(i + 1) * n * nrhs], &b0[i * n * nrhs..(i + 1) * n * nrhs]);
                if i == 2 {
                    assert!(unchanged(bi, b0i), "{}posv {uplo:?} n={n}: B of the indefinite matrix changed", T::LETTER);
                } else {
                    let ratio = solve_ratio(&s.full[i], n, numgpu::Op::N, bi, b0i, nrhs);
                    assert!(ratio < RATIO, "{}posv {uplo:?} n={n} matrix {i}: residual ratio {ratio:.2}", T::LETTER);
                }
            }
            let (mut a2, mut b2, mut info2) = (s.a.clone(), b0.clone(), vec![POISON; batch]);
            let pa: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { a2.as_mut_ptr().add(i * s.layout.stride) }).collect();
            let pb: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { b2.as_mut_ptr().add(i * n * nrhs) }).collect();
            unsafe { posv(h, uplo, n as i64, nrhs as i64, Batch::Array(pa.as_ptr()), s.lda(), Batch::Array(pb.as_ptr()), n as i64, info2.as_mut_ptr(), batch as i64) }.unwrap();
            info2.reverse();
            assert_eq!(info2, info);
            assert!(unchanged(&a2, &a) && unchanged(&b2, &b), "{}posv {uplo:?} n={n}: pointer-array form differs from strided", T::LETTER);
        }
    }
}

/// Empty work touches nothing; a batch above 65,535 (grid limits) works.
fn edges_for<T: Blas>(h: &mut Handle) {
    let mut a = vec![c::<T>(1.0, 0.0); 4];
    let mut info = vec![POISON; 2];
    potrf_strided(h, Uplo::Lower, 0, &mut a, 1, 1, &mut info, 2).unwrap();
    potrf_strided(h, Uplo::Upper, 2, &mut a, 2, 4, &mut info, 0).unwrap();
    assert!(info.iter().all(|&v| v == POISON), "empty work wrote");
    let (mut a, mut b) = (vec![c::<T>(2.0, 0.0), c(1.0, 0.0), c(1.0, 0.0), c(2.0, 0.0)], vec![c::<T>(1.0, 0.0); 2]);
    posv_strided(h, Uplo::Lower, 2, 0, &mut a, 2, 4, &mut b, 2, 0, &mut info, 1).unwrap();
    assert_eq!(info[0], 0, "posv nrhs = 0 factors");
    let s = Spd::<T>::new(Uplo::Lower, (0..70_001).map(|i| spd::<T>(2, i % 13)).collect(), 2);
    let f = factor(h, &s);
    for i in [0, 35_000, 70_000] {
        let r = chol_ratio(&s.full[i], &s.layout.get(&f.a, i), 2, Uplo::Lower);
        assert!(f.info[i] == 0 && r < RATIO, "{}potrf batch 70001: matrix {i}: info {} ratio {r}", T::LETTER, f.info[i]);
    }
}

/// Bitwise the same outputs, call after call.
fn deterministic_for<T: Blas>(h: &mut Handle) {
    for n in per_path::<T>(&[8, 32, 64, 256]) {
        let s = Spd::<T>::random(Uplo::Upper, n, 3, 1500);
        let (x, y) = (factor(h, &s), factor(h, &s));
        assert!(unchanged(&x.a, &y.a) && x.info == y.info, "{}potrf n={n}: two calls differ", T::LETTER);
    }
}

/// Device arrays on the handle's backend, strided and pointer-array forms.
fn device_arrays_for<T: Blas>(h: &mut Handle) {
    for n in [12usize, 40] {
        let batch = 5usize;
        let s = Spd::<T>::random(Uplo::Lower, n, batch, 1600);
        let host = factor(&mut Handle::cpu(), &s);
        let size = std::mem::size_of::<T>();
        unsafe {
            let da = h.malloc(s.a.len() * size).unwrap() as *mut T;
            h.memcpy(da as _, s.a.as_ptr() as _, s.a.len() * size).unwrap();
            let dinfo = h.malloc(batch * 4).unwrap() as *mut i32;
            potrf(h, Uplo::Lower, n as i64, Batch::Strided { ptr: da, stride: s.stride() }, s.lda(), dinfo, batch as i64).unwrap();
            h.synchronize().unwrap();
            let mut info = vec![POISON; batch];
            h.memcpy(info.as_mut_ptr() as _, dinfo as _, batch * 4).unwrap();
            assert_eq!(info, host.info, "device-array info");
            // Pointer arrays in device memory.
            h.memcpy(da as _, s.a.as_ptr() as _, s.a.len() * size).unwrap();
            let ptrs: Vec<u64> = (0..batch).map(|i| da.add(i * s.layout.stride) as u64).collect();
            let dp = h.malloc(batch * 8).unwrap() as *mut *mut T;
            h.memcpy(dp as _, ptrs.as_ptr() as _, batch * 8).unwrap();
            potrf(h, Uplo::Lower, n as i64, Batch::Array(dp as *const *mut T), s.lda(), dinfo, batch as i64).unwrap();
            h.synchronize().unwrap();
            let mut a = vec![T::zero(); s.a.len()];
            h.memcpy(a.as_mut_ptr() as _, da as _, a.len() * size).unwrap();
            for i in 0..batch {
                let r = chol_ratio(&s.full[i], &s.layout.get(&a, i), n, Uplo::Lower);
                assert!(r < RATIO, "device pointer-array factor of matrix {i}: ratio {r}");
            }
            assert!(s.layout.outside_unchanged(&a, &s.a), "device arrays: padding written");
            for p in [da as *mut u8, dinfo as _, dp as _] {
                h.free(p as _).unwrap();
            }
        }
    }
}

/// Every argument check names its argument and writes nothing.
fn argument_checks_for<T: Blas>(h: &mut Handle) {
    let (n, batch) = (3usize, 2usize);
    let s = Spd::<T>::random(Uplo::Lower, n, batch, 1700);
    let mut run = |nn: i64, lda: i64, stride: i64, batch_: i64, short: usize| {
        let mut a = s.a.clone();
        let mut info = vec![POISON; batch - short];
        let e = potrf_strided(h, Uplo::Lower, nn, &mut a, lda, stride, &mut info, batch_).unwrap_err();
        assert!(unchanged(&a, &s.a) && info.iter().all(|&v| v == POISON), "invalid call wrote: {e:?}");
        (e.status, c_position(&e, "numgpu_spotrf_batched_strided"))
    };
    let lda = s.lda();
    assert_eq!(run(-1, lda, s.stride(), 2, 0), (Status::NUMGPU_INVALID_VALUE, 3));
    assert_eq!(run(3, 2, s.stride(), 2, 0), (Status::NUMGPU_INVALID_VALUE, 5));
    assert_eq!(run(3, lda, 4, 2, 0), (Status::NUMGPU_INVALID_VALUE, 6));
    assert_eq!(run(3, lda, s.stride(), -1, 0), (Status::NUMGPU_INVALID_VALUE, 8));
    assert_eq!(run(3, lda, s.stride(), 2, 1), (Status::NUMGPU_INVALID_VALUE, 7));
    // A bad uplo and a NULL A through the C ABI.
    let mut info = vec![POISON; batch];
    let mut a = s.a.clone();
    let st = unsafe { numgpu::potrf::capi::numgpu_spotrf_batched_strided(h, 2, 3, std::ptr::null_mut(), 3, 9, info.as_mut_ptr(), 1) };
    assert_eq!((st, numgpu::ffi::capi::numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 2));
    let st = unsafe { numgpu::potrf::capi::numgpu_spotrf_batched_strided(h, 0, 3, std::ptr::null_mut(), 3, 9, info.as_mut_ptr(), 1) };
    assert_eq!((st, numgpu::ffi::capi::numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 4));
    assert!(info.iter().all(|&v| v == POISON));
    // A pointer array that repeats a matrix is rejected.
    let p = a.as_mut_ptr();
    let ptrs = [p, p];
    let e = unsafe { potrf(h, Uplo::Lower, 3, Batch::Array(ptrs.as_ptr()), lda, info.as_mut_ptr(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_spotrf_batched")), (Status::NUMGPU_INVALID_VALUE, 4));
    assert!(unchanged(&a, &s.a) && info.iter().all(|&v| v == POISON));
    // posv factors A in place: its matrices may not be shared (strideA 0); potrs checks ldb.
    let mut b = vec![T::one(); n * batch];
    let e = posv_strided(h, Uplo::Lower, 3, 1, &mut a, lda, 0, &mut b, 3, 3, &mut info, 2).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sposv_batched_strided")), (Status::NUMGPU_INVALID_VALUE, 7));
    let e = potrs_strided(h, Uplo::Lower, 3, 1, &a, lda, s.stride(), &mut b, 2, 3, 2).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_spotrs_batched_strided")), (Status::NUMGPU_INVALID_VALUE, 9));
    assert!(b.iter().all(|v| *v == T::one()) && info.iter().all(|&v| v == POISON));
}

crate::all_precisions! {
    random_matrices => random_for;
    tridiag => tridiag_for;
    indefinite => indefinite_for;
    indefinite_tile_edges => indefinite_tile_edges_for;
    indefinite_panel_edges => indefinite_panel_edges_for;
    nan_inf => nan_inf_for;
    solves => solves_for;
    posv_all => posv_for;
    edges => edges_for;
    deterministic => deterministic_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
}

crate::on_every_backend! {
    potrf_random_matches_lapack => super::random_matrices;
    potrf_large_order_matches_lapack => super::large_order;
    potrf_tridiag_known_factor => super::tridiag;
    potrf_indefinite_info_k => super::indefinite;
    potrf_indefinite_at_tile_edges => super::indefinite_tile_edges;
    potrf_indefinite_at_panel_edges => super::indefinite_panel_edges;
    potrf_nan_inf => super::nan_inf;
    potrs_solves_and_shared_factor => super::solves;
    posv_indefinite_left_unchanged => super::posv_all;
    potrf_empty_and_large_batch => super::edges;
    potrf_bitwise_reproducible => super::deterministic;
    potrf_device_arrays => super::device_arrays;
    potrf_argument_checks => super::argument_checks;
}

/// The CUDA backend against the CPU backend on the same inputs: the same info, factors
/// within rounding.
#[test]
fn potrf_cuda_matches_cpu() {
    let Some(mut gpu) = crate::common::handle(numgpu::BackendChoice::Cuda) else { return };
    assert_eq!(gpu.backend(), Backend::Cuda);
    let mut cpu = Handle::cpu();
    for &n in &SIZES {
        for uplo in UPLOS {
            let s = Spd::<Complex64>::random(uplo, n, batch_for(n), 2000 + n as u64);
            let (x, y) = (factor(&mut gpu, &s), factor(&mut cpu, &s));
            assert_eq!(x.info, y.info, "n={n} {uplo:?}: info differs");
            let diff: f64 = x.a.iter().zip(&y.a).filter(|(p, _)| !p.re.is_nan()).map(|(p, q)| (p - q).norm()).fold(0.0, f64::max);
            assert!(diff <= 1e-12, "n={n} {uplo:?}: factors differ by {diff:.3e}");
        }
    }
}
