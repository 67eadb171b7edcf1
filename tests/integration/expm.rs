//! Batched matrix exponentials on every backend, all four precisions.
//!
//! expm_eig: reversible rate models of orders 1, 4, 20, 33, 61, 64 against E·diag(exp(λt))·E⁻¹
//! in double (elementwise, in units of the product's rounding bound), rows of P(t) summing to
//! 1, P(0) = I, P(t + s) = P(t)·P(s); complex generators (complex λ); shared (stride 0) and
//! per-problem E, λ, E⁻¹ with padded leading dimensions and gaps that must stay untouched; the
//! odd orders 61, 63, 65 also against the CPU backend.
//! expm: exact exponentials (diagonal, nilpotent, rotation generators, Jordan blocks), random
//! matrices of orders 1 … 65 against Higham's Padé 13 in double, every order 1 … 33 (CUDA's
//! warp and sub-warp path and its edge) against Padé 13 and the CPU backend, the same matrix
//! bitwise the same wherever it runs in a batch of many blocks (the last part full), every
//! Padé degree taken, a Padé denominator whose LU swaps rows, norms that force 8 or more
//! squarings, rate matrices Q·t whose exp has rows summing to 1, exp(A(t + s)) =
//! exp(At)·exp(As), A = 0 gives I exactly; NaN/Inf (info 1) and overflow (info 3) touch only
//! their matrix, at orders 5, 16, 32 and 33. Empty work touches nothing; every invalid argument
//! is named and writes nothing.

use crate::common::c_position;
use numgpu::expm::{choose, degrees, expm_batched, expm_batched_slices, expm_eig_batched, expm_eig_batched_slices, is_double, pade_coefficients, scaling_from_norm, INFO_NONFINITE, INFO_OVERFLOW};
use numgpu::lapack::Blas;
use numgpu::testing::expm::{complex_model, diagonal, eig_ratio, eig_reference, expm_ratio, expm_reference, identity, jordan, mul, nilpotent, norm1, rate_model, rotations, squarings, Exact};
use numgpu::testing::gen::{c, nan, random, rng, POISON};
use numgpu::testing::layout::Layout;
use numgpu::testing::norm::same;
use numgpu::testing::tol::RATIO;
use numgpu::{Complex64, Handle, Scalar, Status};

fn to_t<T: Scalar>(v: &[Complex64]) -> Vec<T> {
    v.iter().map(|&x| T::from_c64(x)).collect()
}

fn c64<T: Scalar>(v: &[T]) -> Vec<Complex64> {
    v.iter().map(|x| x.to_c64()).collect()
}

fn real<T: Scalar>(x: f64) -> T::Real {
    T::from_c64(Complex64::new(x, 0.0)).re()
}

/// One expm_eig model as the routine takes it (T-rounded) and in double from those bits.
struct Model<T> {
    m: usize,
    e: Vec<T>,
    lambda: Vec<T>,
    einv: Vec<T>,
}

impl<T: Scalar> Model<T> {
    fn rate(m: usize, seed: u64) -> Self {
        let q = rate_model(m, seed);
        let cv = |v: &[f64]| v.iter().map(|&x| c::<T>(x, 0.0)).collect::<Vec<T>>();
        Model { m, e: cv(&q.e), lambda: cv(&q.lambda), einv: cv(&q.einv) }
    }
    fn complex(m: usize, seed: u64) -> Self {
        let (e, l, ei) = complex_model(m, seed);
        Model { m, e: to_t(&e), lambda: to_t(&l), einv: to_t(&ei) }
    }
    /// The double-precision reference of P(t) from the T-rounded inputs, and its bound.
    fn reference(&self, t: f64) -> (Vec<Complex64>, Vec<f64>) {
        eig_reference(&c64(&self.e), &c64(&self.lambda), &c64(&self.einv), T::Real::into(real::<T>(t)), self.m)
    }
}

/// Runs expm_eig on `models` (one, shared with stride 0, when `models.len() == 1`) for the
/// times `ts`: E, E⁻¹ with 2 rows of padding and gaps, λ with gaps, P with 1 row of padding
/// and gaps, poisoned; checks that the padding of P is untouched and every P_i written.
fn run_eig<T: Blas>(h: &mut Handle, models: &[Model<T>], ts: &[f64]) -> Vec<Vec<Complex64>> {
    let (m, batch, shared) = (models[0].m, ts.len(), models.len() == 1);
    let count = if shared { 1 } else { batch };
    let inl = Layout::padded(m, m, count, 2, 3);
    let outl = Layout::padded(m, m, batch, 1, 2);
    let (mut e, mut ei) = (vec![nan::<T>(); inl.len()], vec![nan::<T>(); inl.len()]);
    let sl = m + 1;
    let mut l = vec![nan::<T>(); sl * count];
    for (i, md) in models.iter().enumerate() {
        inl.put(&mut e, i, &md.e);
        inl.put(&mut ei, i, &md.einv);
        l[i * sl..i * sl + m].copy_from_slice(&md.lambda);
    }
    let t: Vec<T::Real> = ts.iter().map(|&x| real::<T>(x)).collect();
    let mut p = vec![nan::<T>(); outl.len()];
    let before = p.clone();
    let (se, sll) = if shared { (0, 0) } else { (inl.stride as i64, sl as i64) };
    let what = format!("{}expm_eig m={m} batch {batch} shared {shared}", T::LETTER);
    expm_eig_batched_slices(h, m as i64, &e, inl.ld as i64, se, &l, sll, &ei, inl.ld as i64, se, &t, &mut p, outl.ld as i64, outl.stride as i64, batch as i64)
        .unwrap_or_else(|err| panic!("{what}: {err}"));
    h.synchronize().unwrap();
    assert!(outl.outside_unchanged(&p, &before), "{what}: P written outside its matrices");
    (0..batch).map(|i| c64(&outl.get(&p, i))).collect()
}

/// Rate models against the double reference; rows sum to 1, P(0) = I, P(t + s) = P(t)·P(s).
fn eig_rate_models_for<T: Blas>(h: &mut Handle) {
    let eps = T::EPS;
    for m in [1, 4, 20, 33, 61, 64] {
        let md = Model::<T>::rate(m, 100 + m as u64);
        // t and s, t + s, and 0, in a batch of odd size.
        let ts = [0.0, 0.05, 0.3, 0.35, 1.0, 2.5, 0.7, 1.7, 2.4, 10.0, 0.01];
        let ps = run_eig(h, std::slice::from_ref(&md), &ts);
        for (i, (&t, p)) in ts.iter().zip(&ps).enumerate() {
            let (reference, bound) = md.reference(t);
            let r = eig_ratio(p, &reference, &bound, m, eps);
            assert!(r < RATIO, "{}expm_eig rate model m={m}, t={t} (problem {i}): ratio {r} >= {RATIO}", T::LETTER);
            for row in 0..m {
                let s: f64 = (0..m).map(|col| p[row + col * m].re).sum();
                let tol = 4.0 * (m as f64 + 4.0) * eps * (0..m).map(|col| bound[row + col * m]).sum::<f64>();
                assert!((s - 1.0).abs() <= tol, "{}expm_eig m={m} t={t}: row {row} of P sums to {s} (tolerance {tol:e})", T::LETTER);
            }
        }
        let id = identity(m);
        let (_, b0) = md.reference(0.0);
        assert!(eig_ratio(&ps[0], &id, &b0, m, eps) < RATIO, "{}expm_eig m={m}: P(0) is not I", T::LETTER);
        // P(0.3)·P(0.05) = P(0.35) (problems 2, 1, 3), to the products' rounding.
        let prod = mul(&ps[2], &ps[1], m);
        let r = expm_ratio(&prod, &ps[3], 0.35, m, eps * (m as f64 + 4.0));
        assert!(r < RATIO, "{}expm_eig m={m}: P(0.3)·P(0.05) vs P(0.35): ratio {r}", T::LETTER);
    }
}

/// Per-problem models (strided E, λ, E⁻¹), real rate models and complex generators.
fn eig_per_problem_for<T: Blas>(h: &mut Handle) {
    for m in [3, 20, 61] {
        let models: Vec<Model<T>> = (0..7).map(|i| if T::IS_COMPLEX && i % 2 == 1 { Model::complex(m, 300 + i) } else { Model::rate(m, 200 + i) }).collect();
        let ts: Vec<f64> = (0..7).map(|i| 0.2 * i as f64).collect();
        let ps = run_eig(h, &models, &ts);
        for (i, p) in ps.iter().enumerate() {
            let (reference, bound) = models[i].reference(ts[i]);
            let r = eig_ratio(p, &reference, &bound, m, T::EPS);
            assert!(r < RATIO, "{}expm_eig per-problem m={m}, problem {i}: ratio {r} >= {RATIO}", T::LETTER);
        }
    }
}

/// A large batch of branch lengths (more problems than one grid's groups) with a shared model.
fn eig_many_times_for<T: Blas>(h: &mut Handle) {
    let m = 4;
    let md = Model::<T>::rate(m, 77);
    let ts: Vec<f64> = (0..20001).map(|i| (i % 97) as f64 * 0.031).collect();
    let ps = run_eig(h, std::slice::from_ref(&md), &ts);
    for i in (0..ts.len()).step_by(997).chain([ts.len() - 1]) {
        let (reference, bound) = md.reference(ts[i]);
        let r = eig_ratio(&ps[i], &reference, &bound, m, T::EPS);
        assert!(r < RATIO, "{}expm_eig m=4 problem {i} of {}: ratio {r}", T::LETTER, ts.len());
    }
}

/// Odd orders with several column blocks (rows padded to whole warps on CUDA): a shared
/// model and per-problem models, against the double reference and against the CPU backend.
fn eig_odd_orders_for<T: Blas>(h: &mut Handle) {
    let cpu = &mut Handle::cpu();
    for m in [61, 63, 65] {
        let shared = [Model::<T>::rate(m, 500 + m as u64)];
        let per: Vec<Model<T>> = (0..3).map(|i| Model::<T>::rate(m, 600 + i)).collect();
        for models in [&shared[..], &per[..]] {
            // An odd batch: the last group of a block is partial.
            let ts: Vec<f64> = (0..if models.len() == 1 { 9 } else { 3 }).map(|i| 0.15 + 0.4 * i as f64).collect();
            let (got, host) = (run_eig(h, models, &ts), run_eig(cpu, models, &ts));
            for (i, (p, q)) in got.iter().zip(&host).enumerate() {
                let (reference, bound) = models[i % models.len()].reference(ts[i]);
                let (r, rc) = (eig_ratio(p, &reference, &bound, m, T::EPS), eig_ratio(p, q, &bound, m, T::EPS));
                assert!(r < RATIO && rc < RATIO, "{}expm_eig m={m} ({} models), problem {i}: ratio {r}, against the CPU backend {rc}", T::LETTER, models.len());
            }
        }
    }
}

/// Runs expm on the matrices `mats` (compact, order n), with padded A and E and gaps; checks
/// A unchanged, E's padding untouched, info written. Returns (E_i, info_i).
fn run_expm<T: Blas>(h: &mut Handle, n: usize, mats: &[Vec<T>]) -> Vec<(Vec<Complex64>, i32)> {
    let batch = mats.len();
    let (al, el) = (Layout::padded(n, n, batch, 1, 2), Layout::padded(n, n, batch, 2, 1));
    let mut a = vec![nan::<T>(); al.len()];
    for (i, x) in mats.iter().enumerate() {
        al.put(&mut a, i, x);
    }
    let a0 = a.clone();
    let mut e = vec![nan::<T>(); el.len()];
    let e0 = e.clone();
    let mut info = vec![POISON; batch];
    let what = format!("{}expm n={n} batch {batch}", T::LETTER);
    expm_batched_slices(h, n as i64, &a, al.ld as i64, al.stride as i64, &mut e, el.ld as i64, el.stride as i64, &mut info, batch as i64).unwrap_or_else(|err| panic!("{what}: {err}"));
    h.synchronize().unwrap();
    assert!(a.iter().zip(&a0).all(|(x, y)| same(*x, *y)), "{what}: A written");
    assert!(el.outside_unchanged(&e, &e0), "{what}: E written outside its matrices");
    assert!(info.iter().all(|&x| x != POISON), "{what}: info not written: {info:?}");
    (0..batch).map(|i| (c64(&el.get(&e, i)), info[i])).collect()
}

/// The exact cases, each in a batch with its copies scaled (so a group of a block mixes
/// degrees and squarings).
fn exact_cases_for<T: Blas>(h: &mut Handle) {
    let cases: Vec<Exact> = vec![
        diagonal(1, 2.0, 1),
        diagonal(7, 5.0, 2),
        diagonal(33, 20.0, 3),
        nilpotent(2, 3.0, 4),
        nilpotent(8, 1.0, 5),
        nilpotent(16, 0.5, 6),
        rotations(2, 1.0),
        rotations(9, 3.0),
        rotations(32, 100.0),
        jordan(3, 0.5),
        jordan(6, -1.0),
        jordan(12, 0.25),
    ];
    for x in &cases {
        let got = run_expm::<T>(h, x.n, &[to_t(&x.a), to_t(&x.a)]);
        let an = norm1(&x.a, x.n);
        for (i, (e, info)) in got.iter().enumerate() {
            let r = expm_ratio(e, &x.exp, an, x.n, T::EPS);
            assert!(*info == 0 && r < RATIO, "{}expm {} (copy {i}): info {info}, ratio {r} >= {RATIO}", T::LETTER, x.name);
        }
    }
}

/// A random n × n matrix of 1-norm `s`: uniform entries for s <= 2; for larger norms a
/// random skew-symmetric (or skew-Hermitian) matrix of norm s plus a random part of norm 1, so
/// that exp(A) neither overflows nor underflows and its condition stays near ‖A‖.
fn random_of_norm<T: Scalar>(seed: u64, n: usize, s: f64) -> Vec<T> {
    let r = &mut rng(seed);
    let scaled = |v: Vec<T>, to: f64| -> Vec<Complex64> {
        let v = c64(&v);
        let nrm = norm1(&v, n);
        if nrm == 0.0 {
            // A 1 × 1 real skew matrix is 0.
            return v;
        }
        v.iter().map(|x| x * (to / nrm)).collect()
    };
    if s <= 2.0 {
        return to_t(&scaled(random(r, n * n, 1.0), s));
    }
    let b = c64(&random::<T>(r, n * n, 1.0));
    let skew: Vec<T> = to_t(&(0..n * n).map(|e| b[e] - b[e / n + (e % n) * n].conj()).collect::<Vec<_>>());
    let (k, p) = (scaled(skew, s), scaled(random(r, n * n, 1.0), 1.0));
    to_t(&k.iter().zip(&p).map(|(x, y)| x + y).collect::<Vec<_>>())
}

/// Random matrices of many orders and norms (0.01 … 1000) against Padé 13 in double.
fn random_against_pade13_for<T: Blas>(h: &mut Handle) {
    for n in [1, 2, 3, 5, 8, 13, 16, 31, 32, 33, 47, 64, 65] {
        let scales = [0.01, 0.3, 2.0, 30.0, 1000.0];
        let mats: Vec<Vec<T>> = scales.iter().enumerate().map(|(i, &s)| random_of_norm::<T>(4242 + (n * 10 + i) as u64, n, s)).collect();
        let got = run_expm(h, n, &mats);
        for (i, (e, info)) in got.iter().enumerate() {
            let a = c64(&mats[i]);
            let reference = expm_reference(&a, n);
            let ratio = expm_ratio(e, &reference, norm1(&a, n), n, T::EPS);
            assert!(*info == 0 && ratio < RATIO, "{}expm random n={n} ‖A‖ = {}: info {info}, ratio {ratio} >= {RATIO}", T::LETTER, scales[i]);
        }
    }
}

/// Every order 1 … 33 (the CUDA warp path's lane groups of 1, 2, 4, 8, 16 and 32 lanes, and
/// 33, the block path) on seven matrices of norms 0.01 … 1000 (different degrees and
/// squarings side by side in one warp, the warp's last groups idle): against Padé 13 in double
/// and against the CPU backend.
fn every_small_order_for<T: Blas>(h: &mut Handle) {
    let cpu = &mut Handle::cpu();
    let scales = [0.01, 0.2, 1.0, 2.0, 6.0, 30.0, 1000.0];
    let orders: Vec<usize> = (1..=33).collect();
    // Under a sanitizer: the first and last order of each lane-group size.
    for n in crate::common::sizes_per_path(&orders, |n| numgpu::expm::cuda::pade_plan::<T>(n, 227 << 10).tpm) {
        let mats: Vec<Vec<T>> = scales.iter().enumerate().map(|(i, &s)| random_of_norm::<T>(7100 + (n * 10 + i) as u64, n, s)).collect();
        // Every degree of the precision is taken (by the library's rule on the host) from n = 2
        // (a 1 × 1 matrix's powers are exact: its degrees follow |a| alone).
        if n > 1 {
            let mut taken: Vec<u32> = mats.iter().map(|a| degree_and_squarings(&c64(a), n, is_double::<T>()).0).collect();
            taken.sort_unstable();
            taken.dedup();
            let all: Vec<u32> = degrees(is_double::<T>()).iter().map(|d| d.0).collect();
            assert_eq!(taken, all, "{}expm n={n}: the norms do not reach every Padé degree", T::LETTER);
        }
        let (got, host) = (run_expm(h, n, &mats), run_expm(cpu, n, &mats));
        for (i, ((e, info), (eh, _))) in got.iter().zip(&host).enumerate() {
            let a = c64(&mats[i]);
            let an = norm1(&a, n);
            let (r, rc) = (expm_ratio(e, &expm_reference(&a, n), an, n, T::EPS), expm_ratio(e, eh, an, n, T::EPS));
            assert!(*info == 0 && r < RATIO && rc < RATIO, "{}expm n={n} ‖A‖ = {}: info {info}, ratio {r}, against the CPU backend {rc}", T::LETTER, scales[i]);
        }
    }
}

/// A batch of many blocks (orders 5 and 16: sub-warps; 32: a warp), the last one part full:
/// the same matrix at every 7th place gives bitwise the same exp(A) wherever it runs, and the
/// others match Padé 13.
fn many_matrices_bitwise_for<T: Blas>(h: &mut Handle) {
    for n in [5, 16, 32] {
        // Not a multiple of the matrices per block (a power of two): the last block part full.
        let batch = if n == 32 { 151 } else { 701 };
        let same_a = random_of_norm::<T>(9000 + n as u64, n, 3.0);
        let mats: Vec<Vec<T>> = (0..batch).map(|i| if i % 7 == 3 { same_a.clone() } else { random_of_norm::<T>(9100 + (n * 1000 + i) as u64, n, 0.1 + (i % 11) as f64) }).collect();
        let got = run_expm(h, n, &mats);
        let bits = |v: &[Complex64]| v.iter().map(|x| (x.re.to_bits(), x.im.to_bits())).collect::<Vec<_>>();
        let first = bits(&got[3].0);
        for (i, (e, info)) in got.iter().enumerate() {
            assert_eq!(*info, 0, "{}expm n={n} matrix {i} of {batch}: info", T::LETTER);
            if i % 7 == 3 {
                assert!(bits(e) == first, "{}expm n={n}: matrix {i} differs bitwise from matrix 3 (the same A)", T::LETTER);
            } else if i % 37 == 0 || i + 1 == batch {
                let a = c64(&mats[i]);
                let r = expm_ratio(e, &expm_reference(&a, n), norm1(&a, n), n, T::EPS);
                assert!(r < RATIO, "{}expm n={n} matrix {i} of {batch}: ratio {r}", T::LETTER);
            }
        }
    }
}

/// Norms that force many squarings: rotations with θ = 2000 (s ≥ 8) and a rate matrix times
/// 500, whose exp has rows summing to 1 and is the stationary distribution in every row.
fn many_squarings_for<T: Blas>(h: &mut Handle) {
    let double = T::EPS < 1e-10;
    let x = rotations(10, 2000.0);
    let s = squarings(&x.a, x.n, double);
    assert!(s >= 8, "rotations θ = 2000 take {s} squarings");
    let got = run_expm::<T>(h, x.n, &[to_t(&x.a)]);
    let r = expm_ratio(&got[0].0, &x.exp, norm1(&x.a, x.n), x.n, T::EPS);
    assert!(got[0].1 == 0 && r < RATIO, "{}expm {} ({s} squarings): info {}, ratio {r}", T::LETTER, x.name, got[0].1);
    for (m, t) in [(4, 0.3), (20, 500.0), (61, 40.0)] {
        let q = rate_model(m, 900 + m as u64);
        let qt: Vec<Complex64> = q.q.iter().map(|&v| Complex64::new(v * t, 0.0)).collect();
        let got = run_expm::<T>(h, m, &[to_t(&qt)]);
        let (e, info) = &got[0];
        let reference = expm_reference(&c64(&to_t::<T>(&qt)), m);
        let ratio = expm_ratio(e, &reference, norm1(&qt, m), m, T::EPS);
        assert!(*info == 0 && ratio < RATIO, "{}expm rate matrix m={m} t={t}: info {info}, ratio {ratio}", T::LETTER);
        for row in 0..m {
            let sum: f64 = (0..m).map(|col| e[row + col * m].re).sum();
            let tol = 4.0 * T::EPS * (m as f64 + norm1(&qt, m));
            assert!((sum - 1.0).abs() <= tol, "{}expm rate matrix m={m} t={t}: row {row} sums to {sum}", T::LETTER);
        }
    }
}

/// The library's degree and squarings for A (`expm::choose` on the norms of A's powers in
/// double precision, Higham 2005's rule from ‖A‖₁ when they overflow).
fn degree_and_squarings(a: &[Complex64], n: usize, double: bool) -> (u32, i32) {
    let a2 = mul(a, a, n);
    let a4 = mul(&a2, &a2, n);
    let a6 = mul(&a4, &a2, n);
    choose(norm1(&a2, n), norm1(&a4, n), norm1(&a6, n), double).unwrap_or_else(|| scaling_from_norm(norm1(a, n), double))
}

/// The steps of LU with partial pivoting (the first largest modulus) of the Padé denominator
/// q_k(2^{−s}A) = Σ b_j·(−2^{−s}A)^j, formed in double, that take a pivot row below the
/// diagonal: where the kernels' row swaps are exercised.
fn denominator_swaps(a: &[Complex64], n: usize, double: bool) -> usize {
    let (k, s) = degree_and_squarings(a, n, double);
    let b = pade_coefficients(k);
    let minus: Vec<Complex64> = a.iter().map(|&x| -x * 2f64.powi(-s)).collect();
    let id = identity(n);
    // Horner: q ← q·(−2^{−s}A) + b_j·I from q = b_k·I.
    let mut q: Vec<Complex64> = id.iter().map(|&x| x * b[k as usize]).collect();
    for j in (0..k as usize).rev() {
        q = mul(&q, &minus, n).iter().zip(&id).map(|(&x, &i)| x + i * b[j]).collect();
    }
    let mut swaps = 0;
    for kk in 0..n {
        let p = (kk..n).fold(kk, |p, r| if q[r + kk * n].norm() > q[p + kk * n].norm() { r } else { p });
        if q[p + kk * n].norm() == 0.0 {
            break;
        }
        if p != kk {
            swaps += 1;
            for c in 0..n {
                q.swap(kk + c * n, p + c * n);
            }
        }
        for r in kk + 1..n {
            let l = q[r + kk * n] / q[kk + kk * n];
            for c in kk..n {
                let u = q[kk + c * n];
                q[r + c * n] -= l * u;
            }
        }
    }
    swaps
}

/// Rotation generators of angles up to 3 (no scaling; the Padé denominator's columns lean
/// off the diagonal, so the LU swaps rows: checked on the host) at the orders of every lane
/// group and the block path: against the exact rotations and the CPU backend, with a copy
/// scaled down (no swaps) beside each in the batch.
fn pivoting_for<T: Blas>(h: &mut Handle) {
    let cpu = &mut Handle::cpu();
    for n in [2, 3, 4, 8, 9, 16, 17, 31, 32, 33] {
        let (x, calm) = (rotations(n, 3.0), rotations(n, 0.1));
        let swaps = denominator_swaps(&x.a, n, is_double::<T>());
        assert!(swaps > 0, "{}expm n={n}: the rotations' Padé denominator takes no row swap", T::LETTER);
        let mats = [to_t::<T>(&x.a), to_t::<T>(&calm.a), to_t::<T>(&x.a)];
        let (got, host) = (run_expm(h, n, &mats), run_expm(cpu, n, &mats));
        for (i, ((e, info), (eh, _))) in got.iter().zip(&host).enumerate() {
            let want = if i == 1 { &calm } else { &x };
            let an = norm1(&want.a, n);
            let (r, rc) = (expm_ratio(e, &want.exp, an, n, T::EPS), expm_ratio(e, eh, an, n, T::EPS));
            assert!(*info == 0 && r < RATIO && rc < RATIO, "{}expm {} ({swaps} swaps), matrix {i}: info {info}, ratio {r}, against the CPU backend {rc}", T::LETTER, want.name);
        }
    }
}

/// exp(A(t + s)) = exp(At)·exp(As), and exp(0) = I exactly.
fn semigroup_and_zero_for<T: Blas>(h: &mut Handle) {
    let n = 12;
    let mut r = rng(55);
    let a: Vec<T> = random(&mut r, n * n, 0.4);
    let scaled = |f: f64| -> Vec<T> { a.iter().map(|&x| x.scale(real::<T>(f))).collect() };
    let got = run_expm(h, n, &[scaled(0.75), scaled(1.25), scaled(2.0), vec![T::zero(); n * n]]);
    let prod = mul(&got[0].0, &got[1].0, n);
    let an = norm1(&c64(&scaled(2.0)), n);
    let ratio = expm_ratio(&prod, &got[2].0, an, n, T::EPS);
    assert!(ratio < RATIO, "{}expm: exp(0.75A)·exp(1.25A) vs exp(2A): ratio {ratio}", T::LETTER);
    assert!(got[3].0 == identity(n) && got[3].1 == 0, "{}expm: exp(0) is not exactly I", T::LETTER);
}

/// NaN and Inf give info 1 and a NaN E_i; e^1000 overflows (info 3); the other matrices of the
/// batch are computed as alone.
fn nonfinite_for<T: Blas>(h: &mut Handle) {
    // A sub-warp, half a warp and a warp per matrix on CUDA, and the block path.
    for n in [5, 16, 32, 33] {
        nonfinite_order::<T>(h, n);
    }
}

fn nonfinite_order<T: Blas>(h: &mut Handle, n: usize) {
    let x = jordan(n, 0.5);
    let good = to_t::<T>(&x.a);
    let mut with_nan = good.clone();
    with_nan[7] = nan::<T>();
    let mut with_inf = good.clone();
    with_inf[0] = c::<T>(f64::INFINITY, 0.0);
    // diag(1000, 999.9, …): e^1000 overflows in both precisions.
    let huge: Vec<T> = (0..n * n).map(|e| if e % (n + 1) == 0 { c::<T>(1000.0 - e as f64 / 60.0, 0.0) } else { T::zero() }).collect();
    let got = run_expm(h, n, &[good.clone(), with_nan, huge, with_inf, good]);
    assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), vec![0, INFO_NONFINITE, INFO_OVERFLOW, INFO_NONFINITE, 0], "{}expm n={n} info", T::LETTER);
    assert!(got[1].0.iter().chain(&got[3].0).all(|v| v.re.is_nan()), "{}expm n={n}: a non-finite input's E is not NaN", T::LETTER);
    assert!(got[2].0.iter().any(|v| !v.re.is_finite()), "{}expm n={n}: the overflowing matrix's E is finite", T::LETTER);
    for i in [0, 4] {
        let r = expm_ratio(&got[i].0, &x.exp, norm1(&x.a, n), n, T::EPS);
        assert!(r < RATIO, "{}expm n={n}: matrix {i} beside non-finite ones: ratio {r}", T::LETTER);
    }
}

/// m = 0 and batch = 0 succeed and touch nothing (NULL arrays allowed).
fn empty_for<T: Blas>(h: &mut Handle) {
    let null = std::ptr::null::<T>();
    let (mut p, mut info) = ([nan::<T>(); 4], [POISON; 2]);
    let t = [real::<T>(1.0); 2];
    unsafe {
        expm_eig_batched::<T>(h, 0, null, 1, 0, null, 0, null, 1, 0, t.as_ptr(), p.as_mut_ptr(), 1, 1, 2).unwrap();
        expm_eig_batched::<T>(h, 2, null, 2, 4, null, 2, null, 2, 4, std::ptr::null(), p.as_mut_ptr(), 2, 4, 0).unwrap();
        expm_batched::<T>(h, 0, null, 1, 1, p.as_mut_ptr(), 1, 1, info.as_mut_ptr(), 2).unwrap();
        expm_batched::<T>(h, 2, null, 2, 4, std::ptr::null_mut(), 2, 4, std::ptr::null_mut(), 0).unwrap();
    }
    h.synchronize().unwrap();
    assert!(p.iter().all(|x| same(*x, nan::<T>())) && info == [POISON; 2], "{}: empty work wrote", T::LETTER);
}

/// Device arrays (numgpu_malloc: host memory on the CPU backend): the same results as host
/// arrays.
fn device_arrays_for<T: Blas>(h: &mut Handle) {
    let m = 6;
    let md = Model::<T>::rate(m, 31);
    let ts = [0.5, 1.5, 0.0];
    let want = run_eig(h, std::slice::from_ref(&md), &ts);
    let sz = std::mem::size_of::<T>();
    let (pe, pl, pei, pt, pp) = (h.malloc(m * m * sz).unwrap(), h.malloc(m * sz).unwrap(), h.malloc(m * m * sz).unwrap(), h.malloc(3 * sz).unwrap(), h.malloc(3 * m * m * sz).unwrap());
    let t: Vec<T::Real> = ts.iter().map(|&x| real::<T>(x)).collect();
    let mut p = vec![nan::<T>(); 3 * m * m];
    unsafe {
        h.memcpy(pe, md.e.as_ptr() as _, m * m * sz).unwrap();
        h.memcpy(pl, md.lambda.as_ptr() as _, m * sz).unwrap();
        h.memcpy(pei, md.einv.as_ptr() as _, m * m * sz).unwrap();
        h.memcpy(pt, t.as_ptr() as _, 3 * std::mem::size_of::<T::Real>()).unwrap();
        expm_eig_batched::<T>(h, m as i64, pe as _, m as i64, 0, pl as _, 0, pei as _, m as i64, 0, pt as _, pp as _, m as i64, (m * m) as i64, 3).unwrap();
        h.memcpy(p.as_mut_ptr() as _, pp, 3 * m * m * sz).unwrap();
    }
    h.synchronize().unwrap();
    for i in 0..3 {
        let (reference, bound) = md.reference(ts[i]);
        let r = eig_ratio(&c64(&p[i * m * m..(i + 1) * m * m]), &reference, &bound, m, T::EPS);
        assert!(r < RATIO && eig_ratio(&want[i], &reference, &bound, m, T::EPS) < RATIO, "{}expm_eig device arrays, problem {i}: ratio {r}", T::LETTER);
    }
    // expm on the same device memory: exp(Q·0.5) from pe as A (E's storage reused), into pp.
    let q = rate_model(m, 31);
    let qt: Vec<T> = q.q.iter().map(|&v| c::<T>(v * 0.5, 0.0)).collect();
    let pinfo = h.malloc(4).unwrap();
    let mut info = [POISON];
    unsafe {
        h.memcpy(pe, qt.as_ptr() as _, m * m * sz).unwrap();
        expm_batched::<T>(h, m as i64, pe as _, m as i64, 0, pp as _, m as i64, (m * m) as i64, pinfo as _, 1).unwrap();
        h.memcpy(p.as_mut_ptr() as _, pp, m * m * sz).unwrap();
        h.memcpy(info.as_mut_ptr() as _, pinfo, 4).unwrap();
    }
    h.synchronize().unwrap();
    let reference = expm_reference(&c64(&qt), m);
    let r = expm_ratio(&c64(&p[..m * m]), &reference, norm1(&c64(&qt), m), m, T::EPS);
    assert!(info[0] == 0 && r < RATIO, "{}expm device arrays: info {}, ratio {r}", T::LETTER, info[0]);
    for ptr in [pe, pl, pei, pt, pp, pinfo] {
        // SAFETY: numgpu_malloc'd above, no work in flight after the synchronize.
        unsafe { h.free(ptr).unwrap() };
    }
}

/// Every argument check names its argument (the positions the C forms report) and writes
/// nothing.
fn argument_checks_for<T: Blas>(h: &mut Handle) {
    const BAD: Status = Status::NUMGPU_INVALID_VALUE;
    let md = Model::<T>::rate(3, 5);
    let (e2, l2): (Vec<T>, Vec<T>) = (md.e.iter().chain(&md.e).copied().collect(), md.lambda.iter().chain(&md.lambda).copied().collect());
    let ei2: Vec<T> = md.einv.iter().chain(&md.einv).copied().collect();
    let t = [real::<T>(0.5); 2];
    // (h=1, m=2, E=3, lde=4, strideE=5, lambda=6, strideL=7, Einv=8, ldei=9, strideEinv=10,
    // t=11, P=12, ldp=13, strideP=14, batch=15): two problems, everything 9 (3) apart.
    let mut p = vec![nan::<T>(); 18];
    let mut eig = |m: i64, lde: i64, se: i64, sl: i64, ldei: i64, sei: i64, ldp: i64, sp: i64, batch: i64, cut: [usize; 5]| {
        let r = expm_eig_batched_slices(h, m, &e2[cut[0]..], lde, se, &l2[cut[1]..], sl, &ei2[cut[2]..], ldei, sei, &t[cut[3]..], &mut p[cut[4]..], ldp, sp, batch);
        let err = r.expect_err("invalid call succeeded");
        (err.status, c_position(&err, "numgpu_sexpm_eig_batched"))
    };
    let ok = [0usize; 5];
    assert_eq!(eig(-1, 3, 9, 3, 3, 9, 3, 9, 2, ok), (BAD, 2));
    assert_eq!(eig(3, 3, 9, 3, 3, 9, 3, 9, 2, [1, 0, 0, 0, 0]), (BAD, 3));
    assert_eq!(eig(3, 2, 9, 3, 3, 9, 3, 9, 2, ok), (BAD, 4));
    assert_eq!(eig(3, 3, 8, 3, 3, 9, 3, 9, 2, ok), (BAD, 5));
    assert_eq!(eig(3, 3, 9, 3, 3, 9, 3, 9, 2, [0, 1, 0, 0, 0]), (BAD, 6));
    assert_eq!(eig(3, 3, 9, 2, 3, 9, 3, 9, 2, ok), (BAD, 7));
    assert_eq!(eig(3, 3, 9, 3, 3, 9, 3, 9, 2, [0, 0, 1, 0, 0]), (BAD, 8));
    assert_eq!(eig(3, 3, 9, 3, 0, 9, 3, 9, 2, ok), (BAD, 9));
    assert_eq!(eig(3, 3, 9, 3, 3, -1, 3, 9, 2, ok), (BAD, 10));
    assert_eq!(eig(3, 3, 9, 3, 3, 9, 3, 9, 2, [0, 0, 0, 1, 0]), (BAD, 11));
    assert_eq!(eig(3, 3, 9, 3, 3, 9, 3, 9, 2, [0, 0, 0, 0, 1]), (BAD, 12));
    assert_eq!(eig(3, 3, 9, 3, 3, 9, 2, 9, 2, ok), (BAD, 13));
    assert_eq!(eig(3, 3, 9, 3, 3, 9, 3, 0, 2, ok), (BAD, 14));
    assert_eq!(eig(3, 3, 9, 3, 3, 9, 3, 9, -1, ok), (BAD, 15));
    assert!(p.iter().all(|x| same(*x, nan::<T>())), "invalid expm_eig call wrote");
    let null = std::ptr::null::<T>();
    let raw = |h: &mut Handle, e: *const T, l: *const T, ei: *const T, tt: *const T::Real, pp: *mut T| unsafe { expm_eig_batched::<T>(h, 3, e, 3, 9, l, 3, ei, 3, 9, tt, pp, 3, 9, 2) };
    let pp = p.as_mut_ptr();
    for (args, pos) in [
        ((null, l2.as_ptr(), ei2.as_ptr(), t.as_ptr(), pp), 3),
        ((e2.as_ptr(), null, ei2.as_ptr(), t.as_ptr(), pp), 6),
        ((e2.as_ptr(), l2.as_ptr(), null, t.as_ptr(), pp), 8),
        ((e2.as_ptr(), l2.as_ptr(), ei2.as_ptr(), std::ptr::null(), pp), 11),
        ((e2.as_ptr(), l2.as_ptr(), ei2.as_ptr(), t.as_ptr(), std::ptr::null_mut()), 12),
        // P the same array as E: an output must not alias an input.
        ((pp as *const T, l2.as_ptr(), ei2.as_ptr(), t.as_ptr(), pp), 12),
    ] {
        let err = raw(h, args.0, args.1, args.2, args.3, args.4).unwrap_err();
        assert_eq!((err.status, c_position(&err, "numgpu_sexpm_eig_batched")), (BAD, pos), "{err}");
    }
    assert!(p.iter().all(|x| same(*x, nan::<T>())), "invalid expm_eig call wrote");
    // expm (h=1, m=2, A=3, lda=4, strideA=5, E=6, lde=7, strideE=8, info=9, batch=10).
    let (mut e, mut info) = (vec![nan::<T>(); 18], vec![POISON; 2]);
    let mut ex = |m: i64, lda: i64, sa: i64, lde: i64, se: i64, batch: i64, cut: [usize; 3]| {
        let r = expm_batched_slices(h, m, &e2[cut[0]..], lda, sa, &mut e[cut[1]..], lde, se, &mut info[cut[2]..], batch);
        let err = r.expect_err("invalid call succeeded");
        (err.status, c_position(&err, "numgpu_sexpm_batched"))
    };
    assert_eq!(ex(-1, 3, 9, 3, 9, 2, [0; 3]), (BAD, 2));
    assert_eq!(ex(3, 3, 9, 3, 9, 2, [1, 0, 0]), (BAD, 3));
    assert_eq!(ex(3, 2, 9, 3, 9, 2, [0; 3]), (BAD, 4));
    assert_eq!(ex(3, 3, 5, 3, 9, 2, [0; 3]), (BAD, 5));
    assert_eq!(ex(3, 3, 9, 3, 9, 2, [0, 1, 0]), (BAD, 6));
    assert_eq!(ex(3, 3, 9, 1, 9, 2, [0; 3]), (BAD, 7));
    assert_eq!(ex(3, 3, 9, 3, 0, 2, [0; 3]), (BAD, 8));
    assert_eq!(ex(3, 3, 9, 3, 9, 2, [0, 0, 1]), (BAD, 9));
    assert_eq!(ex(3, 3, 9, 3, 9, -2, [0; 3]), (BAD, 10));
    let pe = e.as_mut_ptr();
    let err = unsafe { expm_batched::<T>(h, 3, pe, 3, 9, pe, 3, 9, info.as_mut_ptr(), 2) }.unwrap_err();
    assert_eq!((err.status, c_position(&err, "numgpu_sexpm_batched")), (BAD, 6), "E aliasing A: {err}");
    let err = unsafe { expm_batched::<T>(h, 3, e2.as_ptr(), 3, 9, pe, 3, 9, std::ptr::null_mut(), 2) }.unwrap_err();
    assert_eq!((err.status, c_position(&err, "numgpu_sexpm_batched")), (BAD, 9));
    assert!(e.iter().all(|x| same(*x, nan::<T>())) && info == [POISON; 2], "invalid expm call wrote");
}

/// Through the C ABI: a NULL handle is named, and each precision's entry points pass their
/// arguments on in order.
#[test]
fn expm_c_abi_checks() {
    use numgpu::expm::capi::*;
    use numgpu::ffi::capi::numgpu_last_error_arg;
    let md = Model::<f64>::rate(4, 12);
    let (mut p, t) = ([f64::NAN; 32], [0.0f64, 1.0]);
    let st = unsafe { numgpu_dexpm_eig_batched(std::ptr::null_mut(), 4, md.e.as_ptr(), 4, 0, md.lambda.as_ptr(), 0, md.einv.as_ptr(), 4, 0, t.as_ptr(), p.as_mut_ptr(), 4, 16, 2) };
    assert_eq!((st, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 1));
    let mut h = Handle::cpu();
    let st = unsafe { numgpu_dexpm_eig_batched(&mut h, 4, md.e.as_ptr(), 4, 0, md.lambda.as_ptr(), 0, md.einv.as_ptr(), 4, 0, t.as_ptr(), p.as_mut_ptr(), 4, 16, 2) };
    let (reference, bound) = md.reference(1.0);
    assert!(st == Status::NUMGPU_SUCCESS && eig_ratio(&c64(&p[16..]), &reference, &bound, 4, f64::EPSILON) < RATIO, "numgpu_dexpm_eig_batched");
    let x = rotations(4, 1.0);
    let a: Vec<numgpu::core::scalar::numgpu_complex_float> = x.a.iter().map(|v| numgpu::core::scalar::numgpu_complex_float { re: v.re as f32, im: v.im as f32 }).collect();
    let mut e = [numgpu::core::scalar::numgpu_complex_float::default(); 16];
    let mut info = [POISON];
    let st = unsafe { numgpu_cexpm_batched(&mut h, 4, a.as_ptr(), 4, 16, e.as_mut_ptr(), 4, 16, info.as_mut_ptr(), 1) };
    let got: Vec<Complex64> = e.iter().map(|v| Complex64::new(v.re as f64, v.im as f64)).collect();
    assert!(st == Status::NUMGPU_SUCCESS && info[0] == 0 && expm_ratio(&got, &x.exp, 2.0, 4, f32::EPSILON as f64) < RATIO, "numgpu_cexpm_batched");
}

crate::all_precisions! {
    eig_rate_models => eig_rate_models_for;
    eig_per_problem => eig_per_problem_for;
    eig_many_times => eig_many_times_for;
    eig_odd_orders => eig_odd_orders_for;
    exact_cases => exact_cases_for;
    random_against_pade13 => random_against_pade13_for;
    every_small_order => every_small_order_for;
    many_matrices_bitwise => many_matrices_bitwise_for;
    many_squarings => many_squarings_for;
    pivoting => pivoting_for;
    semigroup_and_zero => semigroup_and_zero_for;
    nonfinite => nonfinite_for;
    empty => empty_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
}

crate::on_every_backend! {
    expm_eig_rate_models_rows_sum_to_one_p0_is_i_semigroup => super::eig_rate_models;
    expm_eig_per_problem_real_and_complex_models => super::eig_per_problem;
    expm_eig_many_branch_lengths_shared_model => super::eig_many_times;
    expm_eig_odd_orders_61_63_65_against_reference_and_cpu => super::eig_odd_orders;
    expm_exact_diagonal_nilpotent_rotation_jordan => super::exact_cases;
    expm_random_orders_and_norms_against_pade13 => super::random_against_pade13;
    expm_every_order_1_to_33_against_pade13_and_cpu => super::every_small_order;
    expm_many_matrices_same_input_bitwise_same_output => super::many_matrices_bitwise;
    expm_many_squarings_and_rate_matrices => super::many_squarings;
    expm_pade_denominator_with_row_swaps_against_exact_and_cpu => super::pivoting;
    expm_semigroup_and_exp_of_zero_is_identity => super::semigroup_and_zero;
    expm_nan_inf_and_overflow_give_info_per_matrix => super::nonfinite;
    expm_empty_work_touches_nothing => super::empty;
    expm_device_arrays => super::device_arrays;
    expm_argument_checks => super::argument_checks;
}
