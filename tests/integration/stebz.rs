//! Tridiagonal eigenvalues by bisection on every backend: every class of the spec (tridiag(−1,
//! 2, −1), Clement, Wilkinson W⁺ with its near-equal pairs, e = 0, split, graded, random, the
//! 2 × 2 [[0, 1], [1, 0]]), orders 1, 2, 31, 32, 33, 1000 and 10^5, every range kind, against
//! the exact spectrum or LAPACK `dsterf` (error ratio max|w − λ| / max(abstol, ulp·‖T‖) < 30),
//! m exact; on the CPU backend, which is LAPACK `?stebz`, w, m and info equal `?stebz`'s bit
//! for bit. Counts exact against a double-double Sturm count at shifts away from the spectrum,
//! and the same bits on every backend. Every call poisons its outputs (w beyond m must stay
//! poisoned; m and info must be written), leaves d and e unchanged, and batches have odd
//! sizes, gaps and a shared matrix (stride 0). NaN and Inf give info = n + 1, m = 0, counts −1,
//! touching only their matrix. An invalid call writes nothing.

use crate::common::c_position;
use numgpu::lapack::RealLapack;
use numgpu::stebz::{numgpu_stebz_range as R, stebz_batched, stebz_batched_slices, stecount_batched, stecount_batched_slices};
use numgpu::testing::gen::{nan, POISON};
use numgpu::testing::norm::{same, unchanged};
use numgpu::testing::tol::RATIO;
use numgpu::testing::tridiag_eig::{count_dd, ratio, reference, reference_unit, shifts, stebz, strided, value_range, Class, Tri, CLASSES};
use numgpu::{Backend, Handle, Scalar, Status};

const ALL: i32 = R::NUMGPU_STEBZ_ALL as i32;
const VALUE: i32 = R::NUMGPU_STEBZ_VALUE as i32;
const INDEX: i32 = R::NUMGPU_STEBZ_INDEX as i32;

/// A range as the C API takes it: code, vl, vu, il, iu.
#[derive(Clone, Copy, Debug)]
struct Ask {
    code: i32,
    vl: f64,
    vu: f64,
    il: usize,
    iu: usize,
}

impl Ask {
    fn all() -> Ask {
        Ask { code: ALL, vl: 0.0, vu: 0.0, il: 0, iu: 0 }
    }
    fn index(il: usize, iu: usize) -> Ask {
        Ask { code: INDEX, vl: 0.0, vu: 0.0, il, iu }
    }
    fn value(vl: f64, vu: f64) -> Ask {
        Ask { code: VALUE, vl, vu, il: 0, iu: 0 }
    }
    fn lapack(&self) -> u8 {
        [b'A', b'V', b'I'][self.code as usize]
    }
}

fn t<T: Scalar>(x: f64) -> T {
    T::from_c64(numgpu::Complex64::new(x, 0.0))
}

/// Matrix i's outcome: its eigenvalues (the first m of w_i), m and info.
type Outcome = (Vec<f64>, i64, i32);

/// A strided batch of matrices of one order: d `n + 2` apart and e `n + 1` apart (gaps NaN),
/// or 0 apart (`shared`: every matrix is mats[0]); w `n + 3` apart, poisoned. Checks that d
/// and e are unchanged, that w beyond m_i is still poisoned and that m and info were written.
fn run<T: RealLapack>(h: &mut Handle, mats: &[Tri], ask: Ask, abstol: f64, shared: bool) -> Vec<Outcome> {
    let (n, batch) = (mats[0].n(), mats.len());
    let (sd, se, sw) = if shared { (0, 0, n + 3) } else { (n + 2, n + 1, n + 3) };
    let count = if shared { 1 } else { batch };
    let (mut d, mut e) = (vec![nan::<T>(); (sd.max(n)) * count], vec![nan::<T>(); (se.max(n)) * count]);
    for (i, m) in mats.iter().take(count).enumerate() {
        let (di, ei) = m.as_t::<T>();
        d[i * sd..i * sd + n].copy_from_slice(&di);
        e[i * se..i * se + n - 1].copy_from_slice(&ei);
    }
    let (d0, e0) = (d.clone(), e.clone());
    let mut w = vec![nan::<T>(); sw * batch];
    let (mut m, mut info) = (vec![-7i64; batch], vec![POISON; batch]);
    let what = format!("{}stebz {:?} n={n} {ask:?} batch {batch}", T::LETTER, mats[0].class);
    stebz_batched_slices(h, ask.code, n as i64, t::<T>(ask.vl), t::<T>(ask.vu), ask.il as i64, ask.iu as i64, t::<T>(abstol), &d, sd as i64, &e, se as i64, &mut m, &mut w, sw as i64, &mut info, batch as i64)
        .unwrap_or_else(|err| panic!("{what}: {err}"));
    h.synchronize().unwrap();
    assert!(unchanged(&d, &d0) && unchanged(&e, &e0), "{what}: d or e written");
    (0..batch)
        .map(|i| {
            assert!(m[i] >= 0 && m[i] as usize <= n && info[i] != POISON, "{what}, matrix {i}: m = {}, info = {} not written", m[i], info[i]);
            let wi = &w[i * sw..(i + 1) * sw];
            assert!(wi[m[i] as usize..].iter().all(|x| same(*x, nan::<T>())), "{what}, matrix {i}: w written beyond m = {}", m[i]);
            (wi[..m[i] as usize].iter().map(|x| x.to_c64().re).collect(), m[i], info[i])
        })
        .collect()
}

/// The reference eigenvalues of a range, and the range (VALUE: its ends in wide gaps).
fn expected(mat: &Tri, kind: i32) -> (Ask, Vec<f64>) {
    let r = reference(mat);
    let n = r.len();
    let (a, b) = (n / 3, (2 * n / 3).max(n / 3));
    match kind {
        ALL => (Ask::all(), r),
        INDEX => (Ask::index(a + 1, b + 1), r[a..=b].to_vec()),
        _ => {
            let (vl, vu, inside) = value_range(&r, a, b);
            (Ask::value(vl, vu), inside)
        }
    }
}

/// Checks one matrix's outcome against the reference, and on the CPU backend against
/// LAPACK `?stebz` in the same precision, bit for bit.
fn verify<T: RealLapack>(backend: Backend, what: &str, mat: &Tri, ask: Ask, abstol: f64, want: &[f64], got: &Outcome) {
    let (w, m, info) = got;
    assert_eq!(*info, 0, "{what}: info {info}");
    assert_eq!(*m as usize, want.len(), "{what}: m = {m}, expected {}", want.len());
    assert!(w.windows(2).all(|p| p[0] <= p[1]), "{what}: w not ascending: {w:?}");
    let r = ratio::<T>(mat, w, want, abstol, reference_unit::<T>(mat));
    assert!(r < RATIO, "{what} (seed {}): error ratio {r:.3e} >= {RATIO} against the reference\n w   = {:?}\n ref = {:?}", mat.seed, &w[..w.len().min(8)], &want[..want.len().min(8)]);
    let (lw, linfo) = stebz::<T>(mat, ask.lapack(), t(ask.vl), t(ask.vu), ask.il, ask.iu, t(abstol));
    assert_eq!(linfo, 0, "{what}: LAPACK's own info");
    let lw: Vec<f64> = lw.iter().map(|x| x.to_c64().re).collect();
    let r = ratio::<T>(mat, w, &lw, abstol, 1.0);
    assert!(r < RATIO, "{what} (seed {}): error ratio {r:.3e} >= {RATIO} against LAPACK {}stebz", mat.seed, T::LETTER);
    if backend == Backend::Cpu {
        assert!(lw.iter().zip(w).all(|(a, b)| a.to_bits() == b.to_bits()), "{what}: w differs from LAPACK {}stebz's", T::LETTER);
    }
}

/// Every class, order and range kind; batches of 1 and 3 (odd), the default and a user abstol.
fn classes_for<T: RealLapack>(h: &mut Handle) {
    let mut seed = 10;
    for n in [1, 2, 31, 32, 33, 1000] {
        for class in CLASSES {
            for kind in [ALL, VALUE, INDEX] {
                for abstol in [0.0, 1e3 * T::EPS] {
                    let batch = if n == 1000 { 1 } else { 3 };
                    let mats: Vec<Tri> = (0..batch).map(|_| { seed += 1; Tri::new::<T>(class, n, seed) }).collect();
                    let asks: Vec<(Ask, Vec<f64>)> = mats.iter().map(|m| expected(m, kind)).collect();
                    // One range for the batch: the first matrix's; the others' references follow.
                    let ask = asks[0].0;
                    let out = run::<T>(h, &mats, ask, abstol, false);
                    for (i, mat) in mats.iter().enumerate() {
                        let r = reference(mat);
                        let want: Vec<f64> = match kind {
                            VALUE => r.iter().copied().filter(|&x| x > ask.vl && x <= ask.vu).collect(),
                            _ => asks[i].1.clone(),
                        };
                        // A VALUE end that falls within the tolerance of an eigenvalue of another matrix
                        // may take it either way: only the first matrix's ends sit in wide gaps.
                        if kind == VALUE && i > 0 && r.iter().any(|&x| (x - ask.vl).abs().min((x - ask.vu).abs()) < 1e3 * T::EPS * mat.norm1().max(1.0)) {
                            continue;
                        }
                        verify::<T>(h.backend(), &format!("{}stebz {class:?} n={n} {ask:?} abstol {abstol:e} matrix {i}", T::LETTER), mat, ask, abstol, &want, &out[i]);
                    }
                }
            }
        }
    }
}

/// Wilkinson W21⁺'s pairs (7e-14 apart) are resolved in double precision; [[0, 1], [1, 0]].
fn special_for<T: RealLapack>(h: &mut Handle) {
    let w21 = Tri::new::<T>(Class::Wilkinson, 21, 1);
    let out = run::<T>(h, std::slice::from_ref(&w21), Ask::all(), 0.0, false);
    verify::<T>(h.backend(), "W21+", &w21, Ask::all(), 0.0, &reference(&w21), &out[0]);
    if T::EPS < 1e-10 {
        let w = &out[0].0;
        assert!(w[20] - w[19] > 1e-14 && w[20] - w[19] < 1e-12, "{}stebz W21+: top pair {} and {} not resolved", T::LETTER, w[19], w[20]);
    }
    let swap = Tri { class: Class::Random, seed: 0, d: vec![0.0, 0.0], e: vec![1.0] };
    for (ask, want) in [(Ask::all(), vec![-1.0, 1.0]), (Ask::index(2, 2), vec![1.0]), (Ask::value(-2.0, 0.5), vec![-1.0])] {
        let out = run::<T>(h, std::slice::from_ref(&swap), ask, 0.0, false);
        verify::<T>(h.backend(), &format!("[[0,1],[1,0]] {ask:?}"), &swap, ask, 0.0, &want, &out[0]);
    }
}

/// Odd batches (37) of mixed classes with every range kind; one matrix shared by the batch
/// (stride 0); the same call twice gives the same bits.
fn batches_for<T: RealLapack>(h: &mut Handle) {
    for (n, batch) in [(17, 37), (64, 37), (129, 5)] {
        let mats: Vec<Tri> = (0..batch).map(|i| Tri::new::<T>(CLASSES[i % CLASSES.len()], n, 200 + i as u64)).collect();
        let ask = Ask::index(2, n - 3);
        let out = run::<T>(h, &mats, ask, 0.0, false);
        for (i, mat) in mats.iter().enumerate() {
            verify::<T>(h.backend(), &format!("{}stebz batch n={n} matrix {i} {:?}", T::LETTER, mat.class), mat, ask, 0.0, &reference(mat)[1..n - 3], &out[i]);
        }
        let again = run::<T>(h, &mats, ask, 0.0, false);
        assert!(out.iter().zip(&again).all(|(a, b)| a.1 == b.1 && a.2 == b.2 && a.0.iter().zip(&b.0).all(|(x, y)| x.to_bits() == y.to_bits())), "{}stebz n={n}: not reproducible", T::LETTER);
        let shared = run::<T>(h, &mats, Ask::all(), 0.0, true);
        let want = reference(&mats[0]);
        for (i, o) in shared.iter().enumerate() {
            verify::<T>(h.backend(), &format!("{}stebz shared matrix, n={n}, item {i}", T::LETTER), &mats[0], Ask::all(), 0.0, &want, o);
        }
    }
}

/// One large matrix (n = 10^5, tridiag(−1, 2, −1), exact spectrum): an index window in the
/// middle and a narrow value range at the bottom.
fn large_for<T: RealLapack>(h: &mut Handle) {
    let n = 100_000;
    let mat = Tri::new::<T>(Class::Laplace, n, 0);
    let r = reference(&mat);
    let ask = Ask::index(n / 2, n / 2 + 40);
    let out = run::<T>(h, std::slice::from_ref(&mat), ask, 0.0, false);
    verify::<T>(h.backend(), &format!("{}stebz n=1e5 {ask:?}", T::LETTER), &mat, ask, 0.0, &r[n / 2 - 1..n / 2 + 40], &out[0]);
    let (vl, vu, want) = value_range(&r, 0, 30);
    let ask = Ask::value(vl, vu);
    let out = run::<T>(h, std::slice::from_ref(&mat), ask, 0.0, false);
    verify::<T>(h.backend(), &format!("{}stebz n=1e5 {ask:?}", T::LETTER), &mat, ask, 0.0, &want, &out[0]);
}

/// The counts of a batch at the shifts `mu` (count[j + i·nmu]), through the Rust API.
fn counts<T: RealLapack>(h: &mut Handle, mats: &[Tri], mu: &[f64]) -> Vec<i64> {
    let n = mats[0].n();
    let (d, e) = strided::<T>(mats, nan::<T>());
    let mu_t: Vec<T> = mu.iter().map(|&x| t::<T>(x)).collect();
    let mut count = vec![-7i64; mu.len() * mats.len()];
    stecount_batched_slices(h, n as i64, &d, n as i64, &e, n as i64, &mu_t, &mut count, mats.len() as i64).unwrap();
    h.synchronize().unwrap();
    count
}

/// Counts at shifts away from the spectrum equal the double-double count; at every shift,
/// the CPU backend's bits.
fn counts_for<T: RealLapack>(h: &mut Handle) {
    for n in [1, 2, 31, 32, 33, 200] {
        for class in CLASSES {
            let mats: Vec<Tri> = (0..3).map(|i| Tri::new::<T>(class, n, 400 + i)).collect();
            let r = reference(&mats[0]);
            // Away from the spectrum by more than the count's rounding and LAPACK's pivmin.
            let scale = mats[0].norm1();
            let pivmin = <T as num_traits::Float>::min_positive_value().to_c64().re * mats[0].e.iter().fold(1f64, |a, x| a.max(x * x));
            let mu = shifts(&r, 1e-3 * scale + 1e3 * pivmin, 100.0 * T::EPS * scale + 10.0 * pivmin);
            let got = counts::<T>(h, &mats, &mu);
            for (j, &x) in mu.iter().enumerate() {
                let want = count_dd(&mats[0], t::<T>(x).to_c64().re);
                assert_eq!(got[j], want, "{}stecount {class:?} n={n}: Count({x:e}) = {}, exact {want}", T::LETTER, got[j]);
            }
            let cpu = counts::<T>(&mut Handle::cpu(), &mats, &mu);
            assert_eq!(got, cpu, "{}stecount {class:?} n={n}: counts differ from the CPU backend's", T::LETTER);
            // A diagonal matrix at its own entries: the eigenvalue at μ counts (LAPACK's guard).
            if class == Class::Diagonal {
                let got = counts::<T>(h, &mats[..1], &mats[0].d);
                let want: Vec<i64> = mats[0].d.iter().map(|&x| count_dd(&mats[0], x)).collect();
                assert_eq!(got, want, "{}stecount diagonal n={n} at its entries", T::LETTER);
            }
        }
    }
}

/// NaN or Inf in d or e, or an e whose square overflows: info = n + 1, m = 0, w untouched,
/// counts −1; the other matrices as without it. A NaN shift counts −1, ±Inf count 0 and n.
fn nonfinite_for<T: RealLapack>(h: &mut Handle) {
    let n = 33;
    let clean: Vec<Tri> = (0..5).map(|i| Tri::new::<T>(Class::Random, n, 600 + i)).collect();
    // Finite, but its square overflows.
    let big = (<T as num_traits::Float>::max_value().to_c64().re.sqrt() * 4.0).min(<T as num_traits::Float>::max_value().to_c64().re);
    for (at, value) in [(0usize, f64::NAN), (1, f64::INFINITY), (2, f64::NEG_INFINITY), (3, big)] {
        let mut dirty = clean.clone();
        if at == 3 {
            dirty[2].e[n / 2] = value;
        } else if at == 0 {
            dirty[2].e[n / 3] = value;
        } else {
            dirty[2].d[n / 2] = value;
        }
        for kind in [ALL, VALUE, INDEX] {
            let ask = expected(&clean[0], kind).0;
            let base = run::<T>(h, &clean, ask, 0.0, false);
            let got = run::<T>(h, &dirty, ask, 0.0, false);
            let what = format!("{}stebz {ask:?} with {value:e} at {at}", T::LETTER);
            assert_eq!((got[2].1, got[2].2), (0, n as i32 + 1), "{what}: m, info");
            for i in [0, 1, 3, 4] {
                assert!(got[i].1 == base[i].1 && got[i].2 == base[i].2 && got[i].0.iter().zip(&base[i].0).all(|(a, b)| a.to_bits() == b.to_bits()), "{what}: matrix {i} changed");
            }
        }
        let c = counts::<T>(h, &dirty, &[0.0, 0.5]);
        assert!(c[4..6] == [-1, -1] && c[..4] == counts::<T>(h, &clean[..2], &[0.0, 0.5])[..], "{}stecount with {value:e}: {c:?}", T::LETTER);
    }
    let c = counts::<T>(h, &clean[..1], &[f64::NAN, f64::NEG_INFINITY, f64::INFINITY]);
    assert_eq!(c, [-1, 0, n as i64], "{}stecount at NaN, -Inf, +Inf", T::LETTER);
}

/// n = 0 and batch = 0 succeed and touch nothing, NULL arrays included; n = 1 does not read e.
fn empty_for<T: RealLapack>(h: &mut Handle) {
    let (null, z) = (std::ptr::null::<T>(), <T as Scalar>::zero());
    let (mut m, mut w, mut info, mut count) = ([-7i64; 2], [nan::<T>(); 2], [POISON; 2], [-7i64; 2]);
    let one = [t::<T>(3.0); 2];
    unsafe {
        stebz_batched::<T>(h, ALL, 0, z, z, 0, 0, z, null, 0, null, 0, std::ptr::null_mut(), std::ptr::null_mut(), 0, std::ptr::null_mut(), 2).unwrap();
        stebz_batched::<T>(h, INDEX, 0, z, z, 1, 0, z, null, 0, null, 0, std::ptr::null_mut(), std::ptr::null_mut(), 0, std::ptr::null_mut(), 2).unwrap();
        stebz_batched::<T>(h, ALL, 2, z, z, 0, 0, z, one.as_ptr(), 2, one.as_ptr(), 1, m.as_mut_ptr(), w.as_mut_ptr(), 2, info.as_mut_ptr(), 0).unwrap();
        stecount_batched::<T>(h, 0, 2, null, 0, null, 0, one.as_ptr(), count.as_mut_ptr(), 1).unwrap();
        stecount_batched::<T>(h, 2, 0, one.as_ptr(), 2, one.as_ptr(), 1, null, count.as_mut_ptr(), 1).unwrap();
    }
    h.synchronize().unwrap();
    assert!(m == [-7; 2] && count == [-7; 2] && info == [POISON; 2] && w.iter().all(|x| same(*x, nan::<T>())), "{}stebz: empty work wrote", T::LETTER);
    // n = 1, e NULL: the eigenvalue is d to within the tolerance; two matrices share d.
    unsafe {
        stebz_batched::<T>(h, ALL, 1, z, z, 0, 0, z, one.as_ptr(), 0, null, 0, m.as_mut_ptr(), w.as_mut_ptr(), 1, info.as_mut_ptr(), 2).unwrap();
        stecount_batched::<T>(h, 1, 2, one.as_ptr(), 1, null, 0, [t::<T>(2.0), t::<T>(4.0)].as_ptr(), count.as_mut_ptr(), 1).unwrap();
    }
    h.synchronize().unwrap();
    assert!(m == [1, 1] && info == [0, 0] && w.iter().all(|x| (x.to_c64().re - 3.0).abs() <= 8.0 * T::EPS) && count == [0, 1], "{}stebz n = 1: m {m:?} w {w:?} info {info:?} count {count:?}", T::LETTER);
}

/// Arrays from `h.malloc` (device memory on CUDA): the same results as host arrays.
fn device_arrays_for<T: RealLapack>(h: &mut Handle) {
    let n = 40usize;
    let mats: Vec<Tri> = (0..3).map(|i| Tri::new::<T>(Class::Random, n, 700 + i)).collect();
    let ask = Ask::index(3, 30);
    let host = run::<T>(h, &mats, Ask::index(3, 30), 0.0, false);
    let size = std::mem::size_of::<T>();
    let (mut d, mut e) = (Vec::new(), Vec::new());
    for m in &mats {
        let (di, ei) = m.as_t::<T>();
        d.extend(di);
        e.extend(ei);
    }
    unsafe {
        let up = |h: &mut Handle, bytes: usize, src: *const u8| -> *mut u8 {
            let p = h.malloc(bytes).unwrap() as *mut u8;
            h.memcpy(p as _, src as _, bytes).unwrap();
            p
        };
        let pd = up(h, d.len() * size, d.as_ptr() as _) as *const T;
        let pe = up(h, e.len() * size, e.as_ptr() as _) as *const T;
        let w0 = vec![nan::<T>(); 3 * n];
        let pw = up(h, w0.len() * size, w0.as_ptr() as _) as *mut T;
        let pm = up(h, 24, [-7i64; 3].as_ptr() as _) as *mut i64;
        let pi = up(h, 12, [POISON; 3].as_ptr() as _) as *mut i32;
        stebz_batched::<T>(h, ask.code, n as i64, <T as Scalar>::zero(), <T as Scalar>::zero(), 3, 30, <T as Scalar>::zero(), pd, n as i64, pe, n as i64 - 1, pm, pw, n as i64, pi, 3).unwrap();
        let (mut w, mut m, mut info) = (vec![<T as Scalar>::zero(); 3 * n], [0i64; 3], [0i32; 3]);
        h.memcpy(w.as_mut_ptr() as _, pw as _, w.len() * size).unwrap();
        h.memcpy(m.as_mut_ptr() as _, pm as _, 24).unwrap();
        h.memcpy(info.as_mut_ptr() as _, pi as _, 12).unwrap();
        for i in 0..3 {
            let wi: Vec<f64> = w[i * n..i * n + m[i] as usize].iter().map(|x| x.to_c64().re).collect();
            assert!(m[i] == host[i].1 && info[i] == host[i].2 && wi.iter().zip(&host[i].0).all(|(a, b)| a.to_bits() == b.to_bits()), "{}stebz device arrays, matrix {i}", T::LETTER);
            assert!(w[i * n + m[i] as usize..(i + 1) * n].iter().all(|x| same(*x, nan::<T>())), "{}stebz device arrays: w written beyond m", T::LETTER);
        }
        let mu: Vec<T> = [-1.0, 0.0, 0.5].iter().map(|&x| t::<T>(x)).collect();
        let pmu = up(h, 3 * size, mu.as_ptr() as _) as *const T;
        let pc = up(h, 72, [-7i64; 9].as_ptr() as _) as *mut i64;
        stecount_batched::<T>(h, n as i64, 3, pd, n as i64, pe, n as i64 - 1, pmu, pc, 3).unwrap();
        let mut c = [0i64; 9];
        h.memcpy(c.as_mut_ptr() as _, pc as _, 72).unwrap();
        assert_eq!(c.to_vec(), counts::<T>(h, &mats, &[-1.0, 0.0, 0.5]), "{}stecount device arrays", T::LETTER);
        for p in [pd as *mut u8, pe as _, pw as _, pm as _, pi as _, pmu as _, pc as _] {
            h.free(p as _).unwrap();
        }
    }
}

/// Every argument check names its argument (as the 1-based positions the C forms report) and
/// writes nothing.
fn argument_checks_for<T: RealLapack>(h: &mut Handle) {
    const BAD: Status = Status::NUMGPU_INVALID_VALUE;
    let (n, z, one) = (4usize, <T as Scalar>::zero(), <T as Scalar>::one());
    let mat = Tri::new::<T>(Class::Random, n, 800);
    let (d, e) = mat.as_t::<T>();
    let (d2, e2): (Vec<T>, Vec<T>) = (d.iter().chain(&d).copied().collect(), e.iter().chain([&z]).chain(&e).copied().collect());
    // (h=1, range=2, n=3, vl=4, vu=5, il=6, iu=7, abstol=8, d=9, strideD=10, e=11, strideE=12,
    // m=13, w=14, strideW=15, info=16, batch=17); two matrices, d 4 apart, e 4 apart, w 4 apart.
    let mut call = |range: i32, n: i64, vl: T, vu: T, il: i64, iu: i64, abstol: T, sd: i64, se: i64, sw: i64, batch: i64, cut: [usize; 5]| {
        let (mut m, mut w, mut info) = (vec![-7i64; 2 - cut[2]], vec![nan::<T>(); 8 - cut[3]], vec![POISON; 2 - cut[4]]);
        let r = stebz_batched_slices(h, range, n, vl, vu, il, iu, abstol, &d2[cut[0]..], sd, &e2[cut[1]..], se, &mut m, &mut w, sw, &mut info, batch);
        let err = r.expect_err("invalid call succeeded");
        assert!(m.iter().all(|&v| v == -7) && info.iter().all(|&v| v == POISON) && w.iter().all(|x| same(*x, nan::<T>())), "invalid stebz call wrote: {err:?}");
        (err.status, c_position(&err, "numgpu_sstebz_batched"))
    };
    let (n4, ok) = (n as i64, [0usize; 5]);
    assert_eq!(call(3, n4, z, z, 1, 1, z, 4, 4, 4, 2, ok), (BAD, 2));
    assert_eq!(call(ALL, -1, z, z, 1, 1, z, 4, 4, 4, 2, ok), (BAD, 3));
    assert_eq!(call(VALUE, n4, one, one, 1, 1, z, 4, 4, 4, 2, ok), (BAD, 5));
    assert_eq!(call(VALUE, n4, nan::<T>(), one, 1, 1, z, 4, 4, 4, 2, ok), (BAD, 5));
    assert_eq!(call(INDEX, n4, z, z, 0, 1, z, 4, 4, 4, 2, ok), (BAD, 6));
    assert_eq!(call(INDEX, n4, z, z, 5, 5, z, 4, 4, 4, 2, ok), (BAD, 6));
    assert_eq!(call(INDEX, n4, z, z, 2, 1, z, 4, 4, 4, 2, ok), (BAD, 7));
    assert_eq!(call(INDEX, n4, z, z, 2, 5, z, 4, 4, 4, 2, ok), (BAD, 7));
    assert_eq!(call(ALL, n4, z, z, 1, 1, nan::<T>(), 4, 4, 4, 2, ok), (BAD, 8));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 4, 4, 2, [1, 0, 0, 0, 0]), (BAD, 9));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 3, 4, 4, 2, ok), (BAD, 10));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 4, 4, 2, [0, 2, 0, 0, 0]), (BAD, 11));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 2, 4, 2, ok), (BAD, 12));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 4, 4, 2, [0, 0, 1, 0, 0]), (BAD, 13));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 4, 4, 2, [0, 0, 0, 1, 0]), (BAD, 14));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 4, 3, 2, ok), (BAD, 15));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 4, 0, 2, ok), (BAD, 15));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 4, 4, 2, [0, 0, 0, 0, 1]), (BAD, 16));
    assert_eq!(call(ALL, n4, z, z, 1, 1, z, 4, 4, 4, -1, ok), (BAD, 17));
    let null = std::ptr::null::<T>();
    let (mut m, mut w, mut info) = ([-7i64; 2], [nan::<T>(); 8], [POISON; 2]);
    let raw = |h: &mut Handle, d: *const T, e: *const T, m: *mut i64, w: *mut T, info: *mut i32| unsafe { stebz_batched::<T>(h, ALL, 4, z, z, 1, 1, z, d, 4, e, 4, m, w, 4, info, 2) };
    for (args, pos) in [
        ((null, e2.as_ptr(), m.as_mut_ptr(), w.as_mut_ptr(), info.as_mut_ptr()), 9),
        ((d2.as_ptr(), null, m.as_mut_ptr(), w.as_mut_ptr(), info.as_mut_ptr()), 11),
        ((d2.as_ptr(), e2.as_ptr(), std::ptr::null_mut(), w.as_mut_ptr(), info.as_mut_ptr()), 13),
        ((d2.as_ptr(), e2.as_ptr(), m.as_mut_ptr(), std::ptr::null_mut(), info.as_mut_ptr()), 14),
        ((d2.as_ptr(), e2.as_ptr(), m.as_mut_ptr(), w.as_mut_ptr(), std::ptr::null_mut()), 16),
    ] {
        let err = raw(h, args.0, args.1, args.2, args.3, args.4).unwrap_err();
        assert_eq!((err.status, c_position(&err, "numgpu_sstebz_batched")), (BAD, pos));
    }
    assert!(m == [-7; 2] && info == [POISON; 2] && w.iter().all(|x| same(*x, nan::<T>())), "invalid stebz call wrote");
    // stecount (h=1, n=2, nmu=3, d=4, strideD=5, e=6, strideE=7, mu=8, count=9, batch=10).
    let mu = [z, one];
    let mut cnt = [-7i64; 4];
    let mut count = |n: i64, sd: i64, se: i64, nmu: i64, d: *const T, e: *const T, mu: *const T, c: *mut i64, batch: i64| {
        let err = unsafe { stecount_batched::<T>(h, n, nmu, d, sd, e, se, mu, c, batch) }.unwrap_err();
        (err.status, c_position(&err, "numgpu_sstecount_batched"))
    };
    let (dp, ep, mp, cp) = (d2.as_ptr(), e2.as_ptr(), mu.as_ptr(), cnt.as_mut_ptr());
    assert_eq!(count(-1, 4, 4, 2, dp, ep, mp, cp, 2), (BAD, 2));
    assert_eq!(count(4, 4, 4, 2, null, ep, mp, cp, 2), (BAD, 4));
    assert_eq!(count(4, 3, 4, 2, dp, ep, mp, cp, 2), (BAD, 5));
    assert_eq!(count(4, 4, 4, 2, dp, null, mp, cp, 2), (BAD, 6));
    assert_eq!(count(4, 4, -1, 2, dp, ep, mp, cp, 2), (BAD, 7));
    assert_eq!(count(4, 4, 4, -2, dp, ep, mp, cp, 2), (BAD, 3));
    assert_eq!(count(4, 4, 4, 2, dp, ep, null, cp, 2), (BAD, 8));
    assert_eq!(count(4, 4, 4, 2, dp, ep, mp, std::ptr::null_mut(), 2), (BAD, 9));
    assert_eq!(count(4, 4, 4, 2, dp, ep, mp, cp, -1), (BAD, 10));
    assert_eq!(cnt, [-7; 4], "invalid stecount call wrote");
}

/// Through the C ABI: a NULL handle is named, and each entry point passes its arguments on in
/// order (the same bits as the Rust API).
#[test]
fn stebz_c_abi_checks() {
    use numgpu::ffi::capi::numgpu_last_error_arg;
    use numgpu::stebz::capi::*;
    let mat = Tri::new::<f64>(Class::Random, 6, 900);
    let (d, e) = mat.as_t::<f64>();
    let (mut m, mut w, mut info) = ([0i64], [f64::NAN; 6], [POISON]);
    let st = unsafe { numgpu_dstebz_batched(std::ptr::null_mut(), ALL, 6, 0.0, 0.0, 1, 1, 0.0, d.as_ptr(), 6, e.as_ptr(), 5, m.as_mut_ptr(), w.as_mut_ptr(), 6, info.as_mut_ptr(), 1) };
    assert_eq!((st, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 1));
    let mut h = Handle::cpu();
    let st = unsafe { numgpu_dstebz_batched(&mut h, INDEX, 6, 0.0, 0.0, 2, 4, 0.0, d.as_ptr(), 6, e.as_ptr(), 5, m.as_mut_ptr(), w.as_mut_ptr(), 6, info.as_mut_ptr(), 1) };
    let (lw, _) = stebz::<f64>(&mat, b'I', 0.0, 0.0, 2, 4, 0.0);
    assert!(st == Status::NUMGPU_SUCCESS && m[0] == 3 && info[0] == 0 && lw.iter().zip(&w).all(|(a, b)| a.to_bits() == b.to_bits()), "numgpu_dstebz_batched");
    let (mut ws, mut ms, mut infos) = ([f32::NAN; 6], [0i64], [POISON]);
    let (ds, es) = mat.as_t::<f32>();
    let st = unsafe { numgpu_sstebz_batched(&mut h, VALUE, 6, -0.5, 0.5, 0, 0, 0.0, ds.as_ptr(), 6, es.as_ptr(), 5, ms.as_mut_ptr(), ws.as_mut_ptr(), 6, infos.as_mut_ptr(), 1) };
    let (lw, _) = stebz::<f32>(&mat, b'V', -0.5, 0.5, 0, 0, 0.0);
    assert!(st == Status::NUMGPU_SUCCESS && ms[0] as usize == lw.len() && lw.iter().zip(&ws).all(|(a, b)| a.to_bits() == b.to_bits()), "numgpu_sstebz_batched");
    let mut c = [0i64; 2];
    let st = unsafe { numgpu_dstecount_batched(&mut h, 6, 2, d.as_ptr(), 6, e.as_ptr(), 5, [-0.1, 0.1].as_ptr(), c.as_mut_ptr(), 1) };
    assert!(st == Status::NUMGPU_SUCCESS && c == [count_dd(&mat, -0.1), count_dd(&mat, 0.1)], "numgpu_dstecount_batched: {c:?}");
    let mut c = [0i64; 1];
    let st = unsafe { numgpu_sstecount_batched(&mut h, 6, 1, ds.as_ptr(), 0, es.as_ptr(), 0, [0.0f32].as_ptr(), c.as_mut_ptr(), 1) };
    assert!(st == Status::NUMGPU_SUCCESS && c[0] == count_dd(&Tri { d: ds.iter().map(|&x| x as f64).collect(), e: es.iter().map(|&x| x as f64).collect(), ..mat.clone() }, 0.0), "numgpu_sstecount_batched");
}

crate::real_precisions! {
    classes => classes_for;
    special => special_for;
    batches => batches_for;
    large => large_for;
    counts_exact => counts_for;
    nonfinite => nonfinite_for;
    empty => empty_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
}

crate::on_every_backend! {
    stebz_every_class_order_and_range => super::classes;
    stebz_wilkinson_pairs_and_2x2 => super::special;
    stebz_odd_batches_shared_and_reproducible => super::batches;
    stebz_large_matrix_windows => super::large;
    stecount_exact_against_double_double => super::counts_exact;
    stebz_nan_inf_give_info_and_never_hang => super::nonfinite;
    stebz_empty_work_touches_nothing => super::empty;
    stebz_device_arrays => super::device_arrays;
    stebz_argument_checks => super::argument_checks;
}
