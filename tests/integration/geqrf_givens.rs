//! geqrf/ormqr/orgqr/gels by Givens rotations on every backend, with LAPACK's ratios:
//! ‖a_j − Q·r_j‖₂ / (m·‖a_j‖₂·ε) for every column j (columnwise, so it also holds for
//! columns scaled by 10^±20, and it bounds the spec's ‖A − Q·R‖ / (m·‖A‖·ε)) and
//! ‖I − Qᴴ·Q‖₁ / (m·ε), both below 30, with Q from orgqr; R equal to LAPACK `?geqrf`'s up
//! to a unit diagonal; op(Q)·C and C·op(Q) against that explicit Q; gels against LAPACK
//! `?gels`; exact results where the rotations are exact (triangular input, zero columns,
//! 3-4-5 triangles). Outputs are poisoned: the padding of A, C and B and the entries of CS
//! that are not referenced must come back unchanged, and an invalid call writes nothing.

use crate::common::c_position;
use num_traits::Float;
use numgpu::core::batch::Batch;
use numgpu::geqrf_givens::{gels, gels_strided, geqrf, geqrf_strided, orgqr, orgqr_strided, ormqr, ormqr_strided};
use numgpu::lapack::Blas;
use numgpu::testing::dense::{matrix, Kind};
use numgpu::testing::gen::{c, nan, random, rng, POISON};
use numgpu::testing::layout::Layout;
use numgpu::testing::norm::{c64s, same, unchanged};
use numgpu::testing::qr::{apply_q, apply_ratio, folded_norms, gels_ratio, lapack_geqrf, orthogonality_ratio, residual_ratio, RCompare};
use numgpu::testing::tol::RATIO;
use numgpu::{Backend, Complex64, Handle, Op, Scalar, Side, Status};

/// A strided batch of `m × n` matrices with padded leading dimensions and gaps between
/// matrices (NaN there), and the layout of its CS.
struct Qr<T: Scalar> {
    kind: Kind,
    m: usize,
    n: usize,
    lda: usize,
    stride: usize,
    ldcs: usize,
    scs: usize,
    batch: usize,
    a: Vec<T>,
    seed: u64,
}

struct Factors<T: Scalar> {
    a: Vec<T>,
    cs: Vec<T::Real>,
}

impl<T: Blas> Qr<T> {
    fn new(kind: Kind, m: usize, n: usize, batch: usize, seed: u64) -> Self {
        let (lda, ldcs) = (m.max(1) + 2, m.max(1) + 1);
        let (stride, scs) = (lda * n + 3, ldcs * n + 2);
        let mut p = Qr { kind, m, n, lda, stride, ldcs, scs, batch, a: vec![nan::<T>(); stride * batch], seed };
        for i in 0..batch {
            p.layout(n, stride).put(&mut p.a, i, &matrix::<T>(kind, m, n, seed + i as u64));
        }
        p
    }
    /// The batch laid out as A, with `cols` columns and `stride` apart.
    fn layout(&self, cols: usize, stride: usize) -> Layout {
        Layout { rows: self.m, cols, ld: self.lda, stride, count: self.batch }
    }
    fn what(&self, i: usize) -> String {
        format!("{}geqrf_givens {:?} {}x{} batch={} matrix {i} (seed {})", T::LETTER, self.kind, self.m, self.n, self.batch, self.seed + i as u64)
    }
    /// Matrix i of `v` (laid out as A), `cols` columns, compact.
    fn matrix(&self, v: &[T], i: usize, cols: usize, stride: usize) -> Vec<T> {
        self.layout(cols, stride).get(v, i)
    }
    fn a_of(&self, v: &[T], i: usize) -> Vec<Complex64> {
        self.matrix(v, i, self.n, self.stride).iter().map(|x| x.to_c64()).collect()
    }
    /// The factorisation; checks that the padding of A and the entries of CS that are not
    /// referenced (i <= j, padding) come back unchanged.
    fn factor(&self, h: &mut Handle) -> Factors<T> {
        let mut f = Factors { a: self.a.clone(), cs: vec![T::Real::nan(); self.scs * self.batch] };
        geqrf_strided(h, self.m as i64, self.n as i64, &mut f.a, self.lda as i64, self.stride as i64, &mut f.cs, self.ldcs as i64, self.scs as i64, self.batch as i64)
            .unwrap_or_else(|e| panic!("{}: {e}", self.what(0)));
        assert!(self.layout(self.n, self.stride).outside_unchanged(&f.a, &self.a), "{}: padding of A written", self.what(0));
        for (k, x) in f.cs.iter().enumerate() {
            let r = k % self.scs;
            let (row, col) = (r % self.ldcs, r / self.ldcs);
            if col >= self.n || row >= self.m || row <= col {
                assert!(x.is_nan(), "{}: CS({row}, {col}) written (not referenced)", self.what(k / self.scs));
            }
        }
        f
    }
    /// The first `cols` (n <= cols <= m) columns of Q from orgqr with k = n, laid out as A
    /// with `cols` columns (stride `lda·cols + 3`); the columns beyond n start as NaN.
    fn q(&self, h: &mut Handle, f: &Factors<T>, cols: usize) -> (Vec<T>, usize) {
        let sq = self.lda * cols + 3;
        let mut q = vec![nan::<T>(); sq * self.batch];
        for i in 0..self.batch {
            q[i * sq..i * sq + self.lda * self.n].copy_from_slice(&f.a[i * self.stride..i * self.stride + self.lda * self.n]);
        }
        orgqr_strided(h, self.m as i64, cols as i64, self.n as i64, &mut q, self.lda as i64, sq as i64, &f.cs, self.ldcs as i64, self.scs as i64, self.batch as i64)
            .unwrap_or_else(|e| panic!("{}: orgqr: {e}", self.what(0)));
        (q, sq)
    }
}

/// R against LAPACK `?geqrf` on the same matrix, up to the unit diagonal that may tell them
/// apart, relative to each column's norm and the sensitivity of R (`RCompare`).
fn check_r_against_lapack<T: Blas>(p: &Qr<T>, f: &Factors<T>, i: usize) {
    let (m, n) = (p.m, p.n);
    let la = c64s(&lapack_geqrf(&p.matrix(&p.a, i, n, p.stride), m, n).expect("LAPACK geqrf"));
    let (a, ours) = (p.a_of(&p.a, i), p.a_of(&f.a, i));
    let r = RCompare::new(&a, &ours, &la, m, n).r_ratio::<T>(&ours, &la, m);
    assert!(r < RATIO, "{}: R differs from LAPACK's by a ratio of {r:.2} (up to a unit diagonal)", p.what(i));
}

/// Factor, form Q, and check the ratios (and R against LAPACK where `compare_r`).
fn check_factorisation<T: Blas>(h: &mut Handle, kind: Kind, m: usize, n: usize, batch: usize, seed: u64, compare_r: bool) {
    let p = Qr::<T>::new(kind, m, n, batch, seed);
    let f = p.factor(h);
    let (q, sq) = p.q(h, &f, n);
    for i in 0..batch {
        let (a, fa) = (p.a_of(&p.a, i), p.a_of(&f.a, i));
        let qi: Vec<Complex64> = p.matrix(&q, i, n, sq).iter().map(|x| x.to_c64()).collect();
        let res = residual_ratio::<T>(&a, &fa, &qi, m, n);
        assert!(res < RATIO, "{}: ‖a_j − Q·r_j‖ ratio {res:.2}", p.what(i));
        let orth = orthogonality_ratio::<T>(&qi, m, n);
        assert!(orth < RATIO, "{}: ‖I − QᴴQ‖ ratio {orth:.2}", p.what(i));
        if compare_r {
            check_r_against_lapack(&p, &f, i);
        }
    }
}

/// The shapes of the spec: n in {1, 2, 3, 8, 16, 31, 32, 33, 64, 128}, m = n, n + 1, 2n.
fn shapes() -> Vec<(usize, usize)> {
    [1usize, 2, 3, 8, 16, 31, 32, 33, 64, 128].iter().flat_map(|&n| [(n, n), (n + 1, n), (2 * n, n)]).collect()
}

fn batch_for(m: usize) -> usize {
    match m {
        0..=33 => 5,
        34..=66 => 2,
        _ => 1,
    }
}

fn random_for<T: Blas>(h: &mut Handle) {
    for (s, (m, n)) in shapes().into_iter().enumerate() {
        check_factorisation::<T>(h, Kind::Random, m, n, batch_for(m), 100 * s as u64, true);
    }
}

fn classes_for<T: Blas>(h: &mut Handle) {
    let high = (1.0 / T::EPS).log10() as i32 - 1;
    for (m, n) in [(3usize, 3usize), (17, 16), (66, 33)] {
        let batch = batch_for(m).min(3);
        for (kind, compare_r) in
            [(Kind::Cond(3), true), (Kind::Cond(high), false), (Kind::LowRank(n / 2), false), (Kind::ScaledColumns, true), (Kind::ZeroColumns, false), (Kind::Triangular, true), (Kind::Zero, false)]
        {
            check_factorisation::<T>(h, kind, m, n, batch, 7000 + m as u64, compare_r);
        }
    }
}

/// Where the rotations are exact, so are the results: triangular input is left as it is
/// (every rotation the identity: s = 0, c = 1); a zero column stays exactly zero in R with
/// identity rotations; 3-4-5 triangles give c = 0.6, s = 0.8, r = 5, bottom row first.
fn exact_for<T: Blas>(h: &mut Handle) {
    for kind in [Kind::Triangular, Kind::ZeroColumns, Kind::Zero] {
        let p = Qr::<T>::new(kind, 9, 7, 2, 40);
        let f = p.factor(h);
        for i in 0..p.batch {
            let (a, fa) = (p.a_of(&p.a, i), p.a_of(&f.a, i));
            for j in 0..p.n {
                let zero_col = a[j * p.m..(j + 1) * p.m].iter().all(|z| z.norm() == 0.0);
                if kind != Kind::Triangular && !zero_col {
                    continue;
                }
                for r in 0..p.m {
                    let got = fa[r + j * p.m];
                    if r > j {
                        let cs: f64 = f.cs[i * p.scs + r + j * p.ldcs].into();
                        assert!(got == Complex64::new(0.0, 0.0) && cs == 1.0, "{}: rotation ({r}, {j}) is not the identity: s = {got}, c = {cs}", p.what(i));
                    } else {
                        let want = if kind == Kind::Triangular { a[r + j * p.m] } else { Complex64::new(0.0, 0.0) };
                        assert!(got == want, "{}: R({r}, {j}) = {got}, want exactly {want}", p.what(i));
                    }
                }
            }
        }
    }
    // [0; 3; 4]: G(2, 0) on rows (1, 2) gives r = 5, c = 0.6, s = 0.8; then G(1, 0) on rows
    // (0, 1) meets f = 0: c = 0, s = 1, r = 5. [3; 4] alone: c = 0.6, s = 0.8, r = 5.
    for (m, col, want_a, want_c) in [(3usize, [0.0, 3.0, 4.0], [5.0, 1.0, 0.8], [0.0, 0.0, 0.6]), (2, [3.0, 4.0, 0.0], [5.0, 0.8, 0.0], [0.0, 0.6, 0.0])] {
        let mut a: Vec<T> = col[..m].iter().map(|&v| c(v, 0.0)).collect();
        let mut cs = vec![T::Real::nan(); m];
        geqrf_strided(h, m as i64, 1, &mut a, m as i64, m as i64, &mut cs, m as i64, m as i64, 1).unwrap();
        for r in 0..m {
            assert_eq!(a[r], c::<T>(want_a[r], 0.0), "{}geqrf_givens {m}x1 [{:?}]: A({r})", T::LETTER, &col[..m]);
            if r > 0 {
                assert_eq!(cs[r], c::<T>(want_c[r], 0.0).re(), "{}geqrf_givens {m}x1: CS({r})", T::LETTER);
            }
        }
    }
}

/// Every side and trans against the explicit Q of orgqr (order m, from the first k columns'
/// rotations, k = n and k = n − 1), on C with padded rows and gaps; also the full Q's
/// orthogonality, orgqr's first n columns equal to the full Q's, k = 0 giving I, and
/// factors shared by the batch (strides 0).
fn ormqr_for<T: Blas>(h: &mut Handle) {
    let adjoint = if T::IS_COMPLEX { Op::C } else { Op::T };
    for (s, &(m, n)) in [(1usize, 1usize), (2, 1), (5, 3), (8, 8), (17, 16), (33, 32), (40, 33)].iter().enumerate() {
        let batch = 3;
        let p = Qr::<T>::new(Kind::Random, m, n, batch, 3000 + s as u64);
        let f = p.factor(h);
        let (qn, sqn) = p.q(h, &f, n);
        for k in [n, n - 1] {
            // Q of order m from the first k columns: orgqr(m, m, k).
            let sq = p.lda * m + 3;
            let mut q = vec![nan::<T>(); sq * batch];
            for i in 0..batch {
                q[i * sq..i * sq + p.lda * n].copy_from_slice(&f.a[i * p.stride..i * p.stride + p.lda * n]);
            }
            orgqr_strided(h, m as i64, m as i64, k as i64, &mut q, p.lda as i64, sq as i64, &f.cs, p.ldcs as i64, p.scs as i64, batch as i64).unwrap();
            let qs: Vec<Vec<Complex64>> = (0..batch).map(|i| p.matrix(&q, i, m, sq).iter().map(|x| x.to_c64()).collect()).collect();
            for (i, qi) in qs.iter().enumerate() {
                let orth = orthogonality_ratio::<T>(qi, m, m);
                assert!(orth < RATIO, "{}: full Q (k = {k}): ‖I − QᴴQ‖ ratio {orth:.2}", p.what(i));
                if k == n {
                    let qni = p.matrix(&qn, i, n, sqn);
                    assert!(qni.iter().zip(&p.matrix(&q, i, n, sq)).all(|(x, y)| same(*x, *y)), "{}: orgqr(m, n) differs from the first n columns of orgqr(m, m)", p.what(i));
                }
            }
            for side in [Side::Left, Side::Right] {
                for trans in [Op::N, adjoint] {
                    // C is m × 3 (Left) or 3 × m (Right), ldc = rows + 1, a gap of 2.
                    let (cm, cn) = if side == Side::Left { (m, 3) } else { (3, m) };
                    let (ldc, sc) = (cm + 1, (cm + 1) * cn + 2);
                    let c0 = random::<T>(&mut rng(4000 + s as u64), sc * batch, 1.0);
                    let mut cc = c0.clone();
                    ormqr_strided(
                        h,
                        side,
                        trans,
                        cm as i64,
                        cn as i64,
                        k as i64,
                        &f.a,
                        p.lda as i64,
                        p.stride as i64,
                        &f.cs,
                        p.ldcs as i64,
                        p.scs as i64,
                        &mut cc,
                        ldc as i64,
                        sc as i64,
                        batch as i64,
                    )
                    .unwrap_or_else(|e| panic!("{}: ormqr {side:?} {trans:?} k={k}: {e}", p.what(0)));
                    for (i, qi) in qs.iter().enumerate() {
                        let pick = |v: &[T]| -> Vec<Complex64> { (0..cm * cn).map(|e| v[i * sc + e % cm + (e / cm) * ldc].to_c64()).collect() };
                        let ratio = apply_ratio::<T>(&pick(&cc), &apply_q(qi, m, side, trans, &pick(&c0), cm, cn), &pick(&c0), m);
                        assert!(ratio < RATIO, "{}: ormqr {side:?} {trans:?} k={k}: ‖C − op(Q)·C₀‖ ratio {ratio:.2}", p.what(i));
                        for j in 0..cn {
                            assert!(same(cc[i * sc + cm + j * ldc], c0[i * sc + cm + j * ldc]), "{}: ormqr wrote C's padding", p.what(i));
                        }
                    }
                }
            }
            // strideA = strideCS = 0: matrix 0's Q for every C.
            let sc = m * 2;
            let c0 = random::<T>(&mut rng(4100 + s as u64), sc * batch, 1.0);
            let mut cc = c0.clone();
            ormqr_strided(h, Side::Left, Op::N, m as i64, 2, k as i64, &f.a, p.lda as i64, 0, &f.cs, p.ldcs as i64, 0, &mut cc, m as i64, sc as i64, batch as i64).unwrap();
            for i in 0..batch {
                let pick = |v: &[T]| -> Vec<Complex64> { v[i * sc..(i + 1) * sc].iter().map(|x| x.to_c64()).collect() };
                let ratio = apply_ratio::<T>(&pick(&cc), &apply_q(&qs[0], m, Side::Left, Op::N, &pick(&c0), m, 2), &pick(&c0), m);
                assert!(ratio < RATIO, "{}: ormqr k={k} with shared factors, C {i}: ‖C − Q·C₀‖ ratio {ratio:.2}", p.what(0));
            }
        }
    }
    // k = 0: the identity, CS not referenced (NULL).
    let (m, n) = (4usize, 3usize);
    let mut a = vec![nan::<T>(); m * n];
    unsafe { orgqr(h, m as i64, n as i64, 0, Batch::Strided { ptr: a.as_mut_ptr(), stride: (m * n) as i64 }, m as i64, Batch::Strided { ptr: std::ptr::null(), stride: 0 }, m as i64, 1) }.unwrap();
    assert!((0..m * n).all(|e| a[e] == if e % m == e / m { T::one() } else { T::zero() }), "{}orgqr k = 0: not the identity", T::LETTER);
}

/// gels on κ = 10 matrices: optimality, X and the residual norms (rows n.. of B) against
/// LAPACK `?gels`; a zero column j (R(j, j) = 0 exactly) gives info = j + 1 with B unchanged
/// and A factored as geqrf factors it; the pointer-array form (scrambled order) equals the
/// strided one bitwise.
fn gels_for<T: Blas>(h: &mut Handle) {
    for (s, &(m, n)) in [(1usize, 1usize), (3, 2), (8, 8), (17, 16), (33, 32), (66, 33), (64, 64)].iter().enumerate() {
        let (batch, nrhs) = (4usize, 2usize);
        let mut p = Qr::<T>::new(Kind::Cond(1), m, n, batch, 5000 + s as u64);
        // Problem 2 has column n − 1 zero: info = n.
        for r in 0..m {
            p.a[2 * p.stride + r + (n - 1) * p.lda] = T::zero();
        }
        let (ldb, sb) = (m + 2, (m + 2) * nrhs + 1);
        let b0 = random::<T>(&mut rng(6000 + s as u64), sb * batch, 1.0);
        let (mut a, mut b, mut info) = (p.a.clone(), b0.clone(), vec![POISON; batch]);
        gels_strided(h, m as i64, n as i64, nrhs as i64, &mut a, p.lda as i64, p.stride as i64, &mut b, ldb as i64, sb as i64, &mut info, batch as i64)
            .unwrap_or_else(|e| panic!("{}: gels: {e}", p.what(0)));
        let expect: Vec<i32> = (0..batch).map(|i| if i == 2 { n as i32 } else { 0 }).collect();
        assert_eq!(info, expect, "{}gels {m}x{n}: info", T::LETTER);
        let f = p.factor(h);
        assert!(unchanged(&a, &f.a), "{}gels {m}x{n}: A differs from geqrf's factors", T::LETTER);
        for i in 0..batch {
            let pick = |v: &[T], r: usize| -> Vec<T> { (0..m).map(|e| v[i * sb + r * ldb + e]).collect() };
            if i == 2 {
                assert!(unchanged(&b[i * sb..(i + 1) * sb], &b0[i * sb..(i + 1) * sb]), "{}: gels changed B of a rank-deficient problem", p.what(i));
                continue;
            }
            let ai = p.a_of(&p.a, i);
            let mut la = p.matrix(&p.a, i, n, p.stride);
            let mut lb: Vec<T> = (0..nrhs).flat_map(|r| pick(&b0, r)).collect();
            assert_eq!(unsafe { T::gels(m as i32, n as i32, nrhs as i32, la.as_mut_ptr(), m as i32, lb.as_mut_ptr(), m as i32) }, 0);
            for r in 0..nrhs {
                let (got, b0r) = (pick(&b, r), pick(&b0, r));
                let x: Vec<Complex64> = got[..n].iter().map(|z| z.to_c64()).collect();
                let ratio = gels_ratio::<T>(&ai, m, n, &x, &b0r.iter().map(|z| z.to_c64()).collect::<Vec<_>>());
                assert!(ratio < RATIO, "{}: gels column {r}: optimality ratio {ratio:.2}", p.what(i));
                let lx = &lb[r * m..r * m + n];
                let nx: f64 = lx.iter().map(|z| z.to_c64().norm_sqr()).sum::<f64>().sqrt();
                let dx: f64 = x.iter().zip(lx).map(|(p, q)| (p - q.to_c64()).norm_sqr()).sum::<f64>().sqrt();
                // κ = 10: the least-squares solution moves by up to ~κ²·ε relatively.
                let tol = RATIO * m as f64 * T::EPS * 100.0 * nx;
                assert!(dx <= tol, "{}: gels column {r}: X differs from LAPACK's by {dx:.3e} > {tol:.3e}", p.what(i));
                let rn = |v: &[T]| -> f64 { v.iter().map(|z| z.to_c64().norm_sqr()).sum::<f64>().sqrt() };
                let (ours, theirs) = (rn(&got[n..]), rn(&lb[r * m + n..(r + 1) * m]));
                let nb = rn(&b0r);
                assert!((ours - theirs).abs() <= RATIO * m as f64 * T::EPS * nb, "{}: gels column {r}: residual norm {ours:.6e} vs LAPACK's {theirs:.6e}", p.what(i));
                assert!(same(b[i * sb + r * ldb + m], b0[i * sb + r * ldb + m]), "{}: gels wrote B's padding", p.what(i));
            }
        }
        // Pointer arrays, problems in reverse order: bitwise the same.
        let (mut a2, mut b2, mut info2) = (p.a.clone(), b0.clone(), vec![POISON; batch]);
        let pa: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { a2.as_mut_ptr().add(i * p.stride) }).collect();
        let pb: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { b2.as_mut_ptr().add(i * sb) }).collect();
        unsafe { gels(h, m as i64, n as i64, nrhs as i64, Batch::Array(pa.as_ptr()), p.lda as i64, Batch::Array(pb.as_ptr()), ldb as i64, info2.as_mut_ptr(), batch as i64) }.unwrap();
        info2.reverse();
        assert_eq!(info2, info);
        assert!(unchanged(&a2, &a) && unchanged(&b2, &b), "{}gels {m}x{n}: pointer-array form differs from strided", T::LETTER);
    }
    // An all-zero A: info = 1 (LAPACK's gels would return X = 0 instead).
    let p = Qr::<T>::new(Kind::Zero, 4, 3, 1, 1);
    let (mut a, mut b, mut info) = (p.a.clone(), vec![T::one(); 4], vec![POISON]);
    gels_strided(h, 4, 3, 1, &mut a, p.lda as i64, p.stride as i64, &mut b, 4, 4, &mut info, 1).unwrap();
    assert_eq!((info[0], b), (1, vec![T::one(); 4]), "{}gels zero matrix", T::LETTER);
}

/// NaN and Inf: no crash; the columns left of the bad one are factored exactly as without it
/// (rotations depend only on the columns up to their own), R(q, q) is not finite, and gels
/// gives info = 0 with a non-finite X.
fn nan_inf_for<T: Blas>(h: &mut Handle) {
    for &(m, n, row, col) in &[(1usize, 1usize, 0usize, 0usize), (4, 4, 2, 2), (9, 5, 7, 2), (9, 5, 0, 3), (33, 32, 20, 31), (40, 33, 39, 0)] {
        for bad in [f64::NAN, f64::INFINITY] {
            let clean = Qr::<T>::new(Kind::Random, m, n, 2, 400 + m as u64);
            let mut p = Qr::<T>::new(Kind::Random, m, n, 2, 400 + m as u64);
            p.a[row + col * p.lda] = c(bad, 0.0);
            let (f, g) = (p.factor(h), clean.factor(h));
            let what = format!("{}geqrf_givens {m}x{n} {bad} at ({row}, {col})", T::LETTER);
            for j in 0..col {
                for r in 0..m {
                    assert!(same(f.a[r + j * p.lda], g.a[r + j * p.lda]), "{what}: A({r}, {j}) left of the bad column changed");
                    assert!(r <= j || f.cs[r + j * p.ldcs] == g.cs[r + j * p.ldcs], "{what}: CS({r}, {j}) left of the bad column changed");
                }
            }
            assert!(!f.a[col + col * p.lda].is_finite(), "{what}: R({col}, {col}) = {:?} is finite", f.a[col + col * p.lda]);
            assert!(unchanged(&f.a[p.stride..], &g.a[p.stride..]), "{what}: the clean matrix of the batch changed");
            let (mut a, mut b, mut info) = (p.a.clone(), random::<T>(&mut rng(9), m * 2, 1.0), vec![POISON; 2]);
            gels_strided(h, m as i64, n as i64, 1, &mut a, p.lda as i64, p.stride as i64, &mut b, m as i64, m as i64, &mut info, 2).unwrap();
            assert_eq!(info, vec![0, 0], "{what}: gels info");
            // NaN reaches every X(j); an Inf may also meet only divisions (1 × 1: X = b/Inf = 0).
            if bad.is_nan() {
                assert!(b[..n].iter().all(|x| x.to_c64().is_nan()), "{what}: gels X = {:?} is not all NaN", &b[..n]);
            }
            assert!(b[m..m + n].iter().all(|x| x.is_finite()), "{what}: gels X of the clean problem is not finite");
        }
    }
}

/// Empty work touches nothing; a batch above 65,535 (grid limits) works.
fn edges_for<T: Blas>(h: &mut Handle) {
    let (mut a, mut cs, mut b, mut info) = (vec![c::<T>(2.0, 0.0); 8], vec![T::Real::nan(); 8], vec![c::<T>(3.0, 0.0); 8], vec![POISON; 2]);
    let a0 = a.clone();
    geqrf_strided(h, 0, 0, &mut a, 1, 1, &mut cs, 1, 1, 2).unwrap();
    geqrf_strided(h, 4, 0, &mut a, 4, 4, &mut cs, 4, 4, 2).unwrap();
    geqrf_strided(h, 2, 2, &mut a, 2, 4, &mut cs, 2, 4, 0).unwrap();
    orgqr_strided(h, 4, 0, 0, &mut a, 4, 4, &cs, 4, 4, 2).unwrap();
    orgqr_strided(h, 2, 2, 1, &mut a, 2, 4, &cs, 2, 4, 0).unwrap();
    for (m, n, k, batch) in [(0i64, 2i64, 0i64, 2i64), (2, 0, 2, 2), (2, 2, 0, 2), (2, 2, 2, 0)] {
        ormqr_strided(h, Side::Left, Op::N, m, n, k, &a0, 2, 4, &[T::Real::nan(); 8], 2, 4, &mut b, 2, 4, batch).unwrap();
    }
    for (m, n, nrhs, batch) in [(0i64, 0i64, 1i64, 2i64), (2, 0, 1, 2), (2, 2, 0, 2), (2, 2, 1, 0)] {
        gels_strided(h, m, n, nrhs, &mut a, 2, 4, &mut b, 2, 4, &mut info, batch).unwrap();
    }
    assert!(unchanged(&a, &a0) && cs.iter().all(|x| x.is_nan()), "empty work wrote A or CS");
    assert!(b.iter().all(|x| *x == c::<T>(3.0, 0.0)) && info.iter().all(|&v| v == POISON), "empty work wrote B, C or info");
    // 70,001 matrices: 7 distinct ones repeated, each factored as the CPU factors it alone.
    let few = Qr::<T>::new(Kind::Random, 3, 2, 7, 1234);
    let mut p = Qr::<T>::new(Kind::Random, 3, 2, 0, 1234);
    p.batch = 70_001;
    p.a = few.a.iter().cycle().take(few.a.len() * 10_001).cloned().collect();
    let (f, g) = (p.factor(h), few.factor(&mut Handle::cpu()));
    for i in 0..p.batch {
        let d: f64 = (0..p.stride).map(|e| (f.a[i * p.stride + e].to_c64() - g.a[(i % 7) * p.stride + e].to_c64()).norm()).filter(|x| !x.is_nan()).fold(0.0, f64::max);
        assert!(d <= 8.0 * T::EPS, "{}geqrf_givens batch 70001: matrix {i} differs from the CPU's by {d:.3e}", T::LETTER);
    }
}

/// Bitwise the same outputs, call after call; the pointer-array forms (matrices in reverse
/// order) equal the strided ones.
fn deterministic_for<T: Blas>(h: &mut Handle) {
    let adjoint = if T::IS_COMPLEX { Op::C } else { Op::T };
    for (m, n) in [(8usize, 8usize), (33, 32), (64, 33)] {
        let p = Qr::<T>::new(Kind::Random, m, n, 4, 1500);
        let (x, y) = (p.factor(h), p.factor(h));
        assert!(
            unchanged(&x.a, &y.a) && x.cs.iter().zip(&y.cs).all(|(u, v)| same(T::from_real(*u), T::from_real(*v))),
            "{}geqrf_givens {m}x{n}: two calls differ",
            T::LETTER
        );
        // Pointer arrays: geqrf, then ormqr (Left, adjoint) and orgqr on the results.
        let (mut a, mut cs) = (p.a.clone(), vec![T::Real::nan(); p.scs * p.batch]);
        let pa: Vec<*mut T> = (0..p.batch).rev().map(|i| unsafe { a.as_mut_ptr().add(i * p.stride) }).collect();
        let pcs: Vec<*mut T::Real> = (0..p.batch).rev().map(|i| unsafe { cs.as_mut_ptr().add(i * p.scs) }).collect();
        unsafe { geqrf(h, m as i64, n as i64, Batch::Array(pa.as_ptr()), p.lda as i64, Batch::Array(pcs.as_ptr()), p.ldcs as i64, p.batch as i64) }.unwrap();
        assert!(
            unchanged(&a, &x.a) && cs.iter().zip(&x.cs).all(|(u, v)| same(T::from_real(*u), T::from_real(*v))),
            "{}geqrf_givens {m}x{n}: pointer-array form differs",
            T::LETTER
        );
        let (ldc, sc) = (m, m * 2);
        let c0 = random::<T>(&mut rng(77), sc * p.batch, 1.0);
        let mut c1 = c0.clone();
        ormqr_strided(h, Side::Left, adjoint, m as i64, 2, n as i64, &x.a, p.lda as i64, p.stride as i64, &x.cs, p.ldcs as i64, p.scs as i64, &mut c1, ldc as i64, sc as i64, p.batch as i64).unwrap();
        let mut c2 = c0.clone();
        let pac: Vec<*const T> = pa.iter().map(|&q| q as *const T).collect();
        let pcsc: Vec<*const T::Real> = pcs.iter().map(|&q| q as *const T::Real).collect();
        let pc: Vec<*mut T> = (0..p.batch).rev().map(|i| unsafe { c2.as_mut_ptr().add(i * sc) }).collect();
        unsafe {
            ormqr(
                h,
                Side::Left,
                adjoint,
                m as i64,
                2,
                n as i64,
                Batch::Array(pac.as_ptr()),
                p.lda as i64,
                Batch::Array(pcsc.as_ptr()),
                p.ldcs as i64,
                Batch::Array(pc.as_ptr()),
                ldc as i64,
                p.batch as i64,
            )
        }
        .unwrap();
        assert!(unchanged(&c1, &c2), "{}ormqr_givens {m}x{n}: pointer-array form differs", T::LETTER);
        let (q1, _) = p.q(h, &x, n);
        unsafe { orgqr(h, m as i64, n as i64, n as i64, Batch::Array(pa.as_ptr()), p.lda as i64, Batch::Array(pcsc.as_ptr()), p.ldcs as i64, p.batch as i64) }.unwrap();
        for i in 0..p.batch {
            let sq = p.lda * n + 3;
            assert!((0..p.lda * n).all(|e| same(a[i * p.stride + e], q1[i * sq + e])), "{}orgqr_givens {m}x{n}: pointer-array form differs", T::LETTER);
        }
    }
}

/// Memory from the handle (device memory on CUDA), strided and with pointer arrays in that
/// memory: the same factors as host arrays.
fn device_arrays_for<T: Blas>(h: &mut Handle) {
    let p = Qr::<T>::new(Kind::Random, 13, 12, 5, 1600);
    let host = p.factor(&mut Handle::cpu());
    let (size, rsize) = (std::mem::size_of::<T>(), std::mem::size_of::<T::Real>());
    unsafe {
        let da = h.malloc(p.a.len() * size).unwrap() as *mut T;
        let dcs = h.malloc(host.cs.len() * rsize).unwrap() as *mut T::Real;
        for ptr_array in [false, true] {
            h.memcpy(da as _, p.a.as_ptr() as _, p.a.len() * size).unwrap();
            let (mut pa, mut pcs) = (std::ptr::null_mut(), std::ptr::null_mut());
            if ptr_array {
                let av: Vec<u64> = (0..p.batch).map(|i| da.add(i * p.stride) as u64).collect();
                let cv: Vec<u64> = (0..p.batch).map(|i| dcs.add(i * p.scs) as u64).collect();
                pa = h.malloc(p.batch * 8).unwrap() as *mut *mut T;
                pcs = h.malloc(p.batch * 8).unwrap() as *mut *mut T::Real;
                h.memcpy(pa as _, av.as_ptr() as _, p.batch * 8).unwrap();
                h.memcpy(pcs as _, cv.as_ptr() as _, p.batch * 8).unwrap();
                geqrf(h, p.m as i64, p.n as i64, Batch::Array(pa as *const *mut T), p.lda as i64, Batch::Array(pcs as *const *mut T::Real), p.ldcs as i64, p.batch as i64).unwrap();
            } else {
                geqrf(h, p.m as i64, p.n as i64, Batch::Strided { ptr: da, stride: p.stride as i64 }, p.lda as i64, Batch::Strided { ptr: dcs, stride: p.scs as i64 }, p.ldcs as i64, p.batch as i64)
                    .unwrap();
            }
            h.synchronize().unwrap();
            let mut a = vec![T::zero(); p.a.len()];
            h.memcpy(a.as_mut_ptr() as _, da as _, a.len() * size).unwrap();
            let d: f64 = a.iter().zip(&host.a).map(|(x, y)| (x.to_c64() - y.to_c64()).norm()).filter(|x| !x.is_nan()).fold(0.0, f64::max);
            assert!(d <= 64.0 * T::EPS, "{}geqrf_givens device arrays (pointer arrays: {ptr_array}): differ from the CPU's host result by {d:.3e}", T::LETTER);
            for q in [pa as *mut u8, pcs as _] {
                h.free(q as _).unwrap();
            }
        }
        h.free(da as _).unwrap();
        h.free(dcs as _).unwrap();
    }
}

/// `(status, argument)` of a call that must fail, after checking that it wrote nothing.
fn rejected<T: Scalar>(cfn: &str, r: numgpu::Result<()>, outputs: &[&[T]], before: &[&[T]], ints: &[i32]) -> (Status, i32) {
    let e = r.expect_err("invalid call succeeded");
    for (o, b) in outputs.iter().zip(before) {
        assert!(unchanged(o, b), "invalid call wrote an output: {e:?}");
    }
    assert!(ints.iter().all(|&v| v == POISON), "invalid call wrote info: {e:?}");
    (e.status, c_position(&e, cfn))
}

/// Every argument check names its argument (checked as the 1-based positions the C forms
/// report) and writes nothing.
fn argument_checks_for<T: Blas>(h: &mut Handle) {
    const BAD: Status = Status::NUMGPU_INVALID_VALUE;
    let p = Qr::<T>::new(Kind::Random, 4, 3, 2, 1700);
    let f = p.factor(h);
    let (lda, sa, ldcs, scs) = (p.lda as i64, p.stride as i64, p.ldcs as i64, p.scs as i64);
    let cs0 = vec![T::Real::nan(); p.scs * 2];
    let cs0_t: Vec<T> = cs0.iter().map(|&x| T::from_real(x)).collect();

    // geqrf_strided(h=1, m=2, n=3, A=4, lda=5, strideA=6, CS=7, ldcs=8, strideCS=9, batch=10)
    let mut geqrf_case = |m: i64, n: i64, lda: i64, sa: i64, ldcs: i64, scs: i64, batch: i64, short_cs: usize| {
        let (mut a, mut cs) = (p.a.clone(), cs0[short_cs..].to_vec());
        let r = geqrf_strided(h, m, n, &mut a, lda, sa, &mut cs, ldcs, scs, batch);
        let cs_t: Vec<T> = cs.iter().map(|&x| T::from_real(x)).collect();
        rejected("numgpu_sgeqrf_givens_batched_strided", r, &[&a, &cs_t], &[&p.a, &cs0_t[short_cs..]], &[])
    };
    assert_eq!(geqrf_case(-1, 3, lda, sa, ldcs, scs, 2, 0), (BAD, 2));
    assert_eq!(geqrf_case(4, -1, lda, sa, ldcs, scs, 2, 0), (BAD, 3));
    assert_eq!(geqrf_case(2, 3, lda, sa, ldcs, scs, 2, 0), (BAD, 3));
    assert_eq!(geqrf_case(4, 3, 3, sa, ldcs, scs, 2, 0), (BAD, 5));
    assert_eq!(geqrf_case(4, 3, lda, 10, ldcs, scs, 2, 0), (BAD, 6));
    assert_eq!(geqrf_case(4, 3, lda, sa, 3, scs, 2, 0), (BAD, 8));
    assert_eq!(geqrf_case(4, 3, lda, sa, ldcs, 5, 2, 0), (BAD, 9));
    assert_eq!(geqrf_case(4, 3, lda, sa, ldcs, scs, -1, 0), (BAD, 10));
    assert_eq!(geqrf_case(4, 3, lda, sa, ldcs, scs, 2, 3), (BAD, 7));
    let mut cs = cs0.clone();
    let e = unsafe { geqrf::<T>(h, 4, 3, Batch::Strided { ptr: std::ptr::null_mut(), stride: sa }, lda, Batch::Strided { ptr: cs.as_mut_ptr(), stride: scs }, ldcs, 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgeqrf_givens_batched_strided")), (BAD, 4));
    let mut a = p.a.clone();
    let e = unsafe { geqrf::<T>(h, 4, 3, Batch::Strided { ptr: a.as_mut_ptr(), stride: sa }, lda, Batch::Strided { ptr: std::ptr::null_mut(), stride: scs }, ldcs, 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgeqrf_givens_batched_strided")), (BAD, 7));
    // Pointer-array form (h=1, m=2, n=3, A=4, lda=5, CS=6, ldcs=7, batch=8): NULL entries.
    let pa: Vec<*mut T> = vec![a.as_mut_ptr(), std::ptr::null_mut()];
    let pcs: Vec<*mut T::Real> = vec![cs.as_mut_ptr(), unsafe { cs.as_mut_ptr().add(p.scs) }];
    let e = unsafe { geqrf(h, 4, 3, Batch::Array(pa.as_ptr()), lda, Batch::Array(pcs.as_ptr()), ldcs, 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgeqrf_givens_batched")), (BAD, 4));
    let pa: Vec<*mut T> = vec![a.as_mut_ptr(), unsafe { a.as_mut_ptr().add(p.stride) }];
    let pcs: Vec<*mut T::Real> = vec![std::ptr::null_mut(), cs.as_mut_ptr()];
    let e = unsafe { geqrf(h, 4, 3, Batch::Array(pa.as_ptr()), lda, Batch::Array(pcs.as_ptr()), ldcs, -1) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgeqrf_givens_batched")), (BAD, 8));
    let e = unsafe { geqrf(h, 4, 3, Batch::Array(pa.as_ptr()), lda, Batch::Array(pcs.as_ptr()), ldcs, 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgeqrf_givens_batched")), (BAD, 6));
    assert!(unchanged(&a, &p.a) && cs.iter().all(|x| x.is_nan()), "invalid geqrf wrote");

    // ormqr_strided(h=1, side=2, trans=3, m=4, n=5, k=6, A=7, lda=8, strideA=9, CS=10,
    // ldcs=11, strideCS=12, C=13, ldc=14, strideC=15, batch=16); C is 4 × 2, ldc 5.
    let adjoint = if T::IS_COMPLEX { Op::C } else { Op::T };
    let wrong = if T::IS_COMPLEX { Op::T } else { Op::C };
    let c0 = random::<T>(&mut rng(1), 10 * 2, 1.0);
    let mut ormqr_case = |side: Side, trans: Op, m: i64, n: i64, k: i64, lda: i64, sa: i64, ldcs: i64, scs: i64, ldc: i64, sc: i64, batch: i64| {
        let mut cc = c0.clone();
        let r = ormqr_strided(h, side, trans, m, n, k, &f.a, lda, sa, &f.cs, ldcs, scs, &mut cc, ldc, sc, batch);
        rejected("numgpu_sormqr_givens_batched_strided", r, &[&cc], &[&c0], &[])
    };
    let l = Side::Left;
    assert_eq!(ormqr_case(l, wrong, 4, 2, 3, lda, sa, ldcs, scs, 5, 10, 2), (BAD, 3));
    assert_eq!(ormqr_case(l, adjoint, -1, 2, 3, lda, sa, ldcs, scs, 5, 10, 2), (BAD, 4));
    assert_eq!(ormqr_case(l, adjoint, 4, -1, 3, lda, sa, ldcs, scs, 5, 10, 2), (BAD, 5));
    assert_eq!(ormqr_case(l, adjoint, 4, 2, -1, lda, sa, ldcs, scs, 5, 10, 2), (BAD, 6));
    assert_eq!(ormqr_case(l, adjoint, 2, 2, 3, lda, sa, ldcs, scs, 5, 10, 2), (BAD, 6));
    assert_eq!(ormqr_case(Side::Right, Op::N, 2, 2, 3, lda, sa, ldcs, scs, 5, 10, 2), (BAD, 6));
    assert_eq!(ormqr_case(l, adjoint, 4, 2, 3, 3, sa, ldcs, scs, 5, 10, 2), (BAD, 8));
    assert_eq!(ormqr_case(l, adjoint, 4, 2, 3, lda, 5, ldcs, scs, 5, 10, 2), (BAD, 9));
    assert_eq!(ormqr_case(l, adjoint, 4, 2, 3, lda, sa, 3, scs, 5, 10, 2), (BAD, 11));
    assert_eq!(ormqr_case(l, adjoint, 4, 2, 3, lda, sa, ldcs, -1, 5, 10, 2), (BAD, 12));
    assert_eq!(ormqr_case(l, adjoint, 4, 2, 3, lda, sa, ldcs, scs, 3, 10, 2), (BAD, 14));
    assert_eq!(ormqr_case(l, adjoint, 4, 2, 3, lda, sa, ldcs, scs, 5, 9, 2), (BAD, 15));
    assert_eq!(ormqr_case(l, adjoint, 4, 2, 3, lda, sa, ldcs, scs, 5, 10, -1), (BAD, 16));
    // Stride 0 for the read-only A and CS is one factorisation for the whole batch.
    let mut cc = c0.clone();
    ormqr_strided(h, l, adjoint, 4, 2, 3, &f.a, lda, 0, &f.cs, ldcs, 0, &mut cc, 5, 10, 2).unwrap();
    let mut cc = c0.clone();
    let e = unsafe {
        ormqr::<T>(
            h,
            l,
            Op::N,
            4,
            2,
            3,
            Batch::Strided { ptr: f.a.as_ptr(), stride: sa },
            lda,
            Batch::Strided { ptr: f.cs.as_ptr(), stride: scs },
            ldcs,
            Batch::Strided { ptr: std::ptr::null_mut(), stride: 10 },
            5,
            2,
        )
    }
    .unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sormqr_givens_batched_strided")), (BAD, 13));
    let e = unsafe {
        ormqr::<T>(
            h,
            l,
            Op::N,
            4,
            2,
            3,
            Batch::Strided { ptr: std::ptr::null(), stride: sa },
            lda,
            Batch::Strided { ptr: f.cs.as_ptr(), stride: scs },
            ldcs,
            Batch::Strided { ptr: cc.as_mut_ptr(), stride: 10 },
            5,
            2,
        )
    }
    .unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sormqr_givens_batched_strided")), (BAD, 7));
    let e = unsafe {
        ormqr::<T>(
            h,
            l,
            Op::N,
            4,
            2,
            3,
            Batch::Strided { ptr: f.a.as_ptr(), stride: sa },
            lda,
            Batch::Strided { ptr: std::ptr::null(), stride: scs },
            ldcs,
            Batch::Strided { ptr: cc.as_mut_ptr(), stride: 10 },
            5,
            2,
        )
    }
    .unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sormqr_givens_batched_strided")), (BAD, 10));
    // Pointer-array form: C = 11, batch = 13.
    let pa: Vec<*const T> = vec![f.a.as_ptr(); 2];
    let pcs: Vec<*const T::Real> = vec![f.cs.as_ptr(); 2];
    let pc: Vec<*mut T> = vec![cc.as_mut_ptr(), std::ptr::null_mut()];
    let e = unsafe { ormqr(h, l, Op::N, 4, 2, 3, Batch::Array(pa.as_ptr()), lda, Batch::Array(pcs.as_ptr()), ldcs, Batch::Array(pc.as_ptr()), 5, 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sormqr_givens_batched")), (BAD, 11));
    let e = unsafe { ormqr(h, l, Op::N, 4, 2, 3, Batch::Array(pa.as_ptr()), lda, Batch::Array(pcs.as_ptr()), ldcs, Batch::Array(pc.as_ptr()), 5, -2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sormqr_givens_batched")), (BAD, 13));
    assert!(unchanged(&cc, &c0), "invalid ormqr wrote C");

    // orgqr_strided(h=1, m=2, n=3, k=4, A=5, lda=6, strideA=7, CS=8, ldcs=9, strideCS=10,
    // batch=11)
    let mut orgqr_case = |m: i64, n: i64, k: i64, lda: i64, sa: i64, ldcs: i64, scs: i64, batch: i64| {
        let mut a = f.a.clone();
        let r = orgqr_strided(h, m, n, k, &mut a, lda, sa, &f.cs, ldcs, scs, batch);
        rejected("numgpu_sorgqr_givens_batched_strided", r, &[&a], &[&f.a], &[])
    };
    assert_eq!(orgqr_case(-1, 3, 3, lda, sa, ldcs, scs, 2), (BAD, 2));
    assert_eq!(orgqr_case(2, 3, 3, lda, sa, ldcs, scs, 2), (BAD, 3));
    assert_eq!(orgqr_case(4, 2, 3, lda, sa, ldcs, scs, 2), (BAD, 4));
    assert_eq!(orgqr_case(4, 3, -1, lda, sa, ldcs, scs, 2), (BAD, 4));
    assert_eq!(orgqr_case(4, 3, 3, 2, sa, ldcs, scs, 2), (BAD, 6));
    assert_eq!(orgqr_case(4, 3, 3, lda, 0, ldcs, scs, 2), (BAD, 7));
    assert_eq!(orgqr_case(4, 3, 3, lda, sa, 1, scs, 2), (BAD, 9));
    assert_eq!(orgqr_case(4, 3, 3, lda, sa, ldcs, 4, 2), (BAD, 10));
    assert_eq!(orgqr_case(4, 3, 3, lda, sa, ldcs, scs, -3), (BAD, 11));
    let mut a = f.a.clone();
    let e = unsafe { orgqr::<T>(h, 4, 3, 3, Batch::Strided { ptr: a.as_mut_ptr(), stride: sa }, lda, Batch::Strided { ptr: std::ptr::null(), stride: scs }, ldcs, 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sorgqr_givens_batched_strided")), (BAD, 8));
    let e = unsafe { orgqr::<T>(h, 4, 3, 3, Batch::Strided { ptr: std::ptr::null_mut(), stride: sa }, lda, Batch::Strided { ptr: f.cs.as_ptr(), stride: scs }, ldcs, 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sorgqr_givens_batched_strided")), (BAD, 5));
    let pa: Vec<*mut T> = vec![a.as_mut_ptr(), unsafe { a.as_mut_ptr().add(p.stride) }];
    let pcs: Vec<*const T::Real> = vec![f.cs.as_ptr(), std::ptr::null()];
    let e = unsafe { orgqr(h, 4, 3, 3, Batch::Array(pa.as_ptr()), lda, Batch::Array(pcs.as_ptr()), ldcs, 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sorgqr_givens_batched")), (BAD, 7));
    assert!(unchanged(&a, &f.a), "invalid orgqr wrote A");

    // gels_strided(h=1, m=2, n=3, nrhs=4, A=5, lda=6, strideA=7, B=8, ldb=9, strideB=10,
    // info=11, batch=12); B is 4 × 1, ldb 4.
    let b0 = random::<T>(&mut rng(2), 8, 1.0);
    let mut gels_case = |m: i64, n: i64, nrhs: i64, lda: i64, sa: i64, ldb: i64, sb: i64, batch: i64, info_len: usize| {
        let (mut a, mut b, mut info) = (p.a.clone(), b0.clone(), vec![POISON; info_len]);
        let r = gels_strided(h, m, n, nrhs, &mut a, lda, sa, &mut b, ldb, sb, &mut info, batch);
        rejected("numgpu_sgels_givens_batched_strided", r, &[&a, &b], &[&p.a, &b0], &info)
    };
    assert_eq!(gels_case(-1, 3, 1, lda, sa, 4, 4, 2, 2), (BAD, 2));
    assert_eq!(gels_case(2, 3, 1, lda, sa, 4, 4, 2, 2), (BAD, 3));
    assert_eq!(gels_case(4, 3, -1, lda, sa, 4, 4, 2, 2), (BAD, 4));
    assert_eq!(gels_case(4, 3, 1, 1, sa, 4, 4, 2, 2), (BAD, 6));
    assert_eq!(gels_case(4, 3, 1, lda, 3, 4, 4, 2, 2), (BAD, 7));
    assert_eq!(gels_case(4, 3, 1, lda, sa, 3, 4, 2, 2), (BAD, 9));
    assert_eq!(gels_case(4, 3, 1, lda, sa, 4, 3, 2, 2), (BAD, 10));
    assert_eq!(gels_case(4, 3, 1, lda, sa, 4, 4, 2, 1), (BAD, 11));
    assert_eq!(gels_case(4, 3, 1, lda, sa, 4, 4, -1, 2), (BAD, 12));
    let (mut a, mut b) = (p.a.clone(), b0.clone());
    let e = unsafe { gels::<T>(h, 4, 3, 1, Batch::Strided { ptr: a.as_mut_ptr(), stride: sa }, lda, Batch::Strided { ptr: b.as_mut_ptr(), stride: 4 }, 4, std::ptr::null_mut(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgels_givens_batched_strided")), (BAD, 11));
    let mut info = vec![POISON; 2];
    let e = unsafe { gels::<T>(h, 4, 3, 1, Batch::Strided { ptr: a.as_mut_ptr(), stride: sa }, lda, Batch::Strided { ptr: std::ptr::null_mut(), stride: 4 }, 4, info.as_mut_ptr(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgels_givens_batched_strided")), (BAD, 8));
    // Pointer-array form (A=5, lda=6, B=7, ldb=8, info=9, batch=10).
    let pa: Vec<*mut T> = vec![a.as_mut_ptr(), unsafe { a.as_mut_ptr().add(p.stride) }];
    let pb: Vec<*mut T> = vec![b.as_mut_ptr(), std::ptr::null_mut()];
    let e = unsafe { gels(h, 4, 3, 1, Batch::Array(pa.as_ptr()), lda, Batch::Array(pb.as_ptr()), 4, info.as_mut_ptr(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgels_givens_batched")), (BAD, 7));
    let e = unsafe { gels(h, 4, 3, 1, Batch::Array(pa.as_ptr()), lda, Batch::Array(pb.as_ptr()), 3, info.as_mut_ptr(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgels_givens_batched")), (BAD, 8));
    let pb: Vec<*mut T> = vec![b.as_mut_ptr(), unsafe { b.as_mut_ptr().add(4) }];
    let e = unsafe { gels(h, 4, 3, 1, Batch::Array(pa.as_ptr()), lda, Batch::Array(pb.as_ptr()), 4, std::ptr::null_mut(), 2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgels_givens_batched")), (BAD, 9));
    let e = unsafe { gels(h, 4, 3, 1, Batch::Array(pa.as_ptr()), lda, Batch::Array(pb.as_ptr()), 4, info.as_mut_ptr(), -2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgels_givens_batched")), (BAD, 10));
    assert!(unchanged(&a, &p.a) && unchanged(&b, &b0) && info.iter().all(|&v| v == POISON), "invalid gels wrote");
}

/// Through the C ABI: a NULL handle, side and trans out of range, each named.
#[test]
fn geqrf_givens_c_abi_checks() {
    use numgpu::ffi::capi::numgpu_last_error_arg;
    use numgpu::geqrf_givens::capi::*;
    let (mut a, mut cs, mut info) = (vec![1.0f64; 12], vec![f64::NAN; 12], vec![POISON; 1]);
    let s = unsafe { numgpu_dgeqrf_givens_batched_strided(std::ptr::null_mut(), 4, 3, a.as_mut_ptr(), 4, 12, cs.as_mut_ptr(), 4, 12, 1) };
    assert_eq!((s, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 1));
    let mut h = Handle::cpu();
    let mut c = vec![2.0f64; 8];
    let s = unsafe { numgpu_dormqr_givens_batched_strided(&mut h, 2, 0, 4, 2, 3, a.as_ptr(), 4, 12, cs.as_ptr(), 4, 12, c.as_mut_ptr(), 4, 8, 1) };
    assert_eq!((s, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 2));
    let s = unsafe { numgpu_zunmqr_givens_batched_strided(&mut h, 1, 3, 4, 2, 3, a.as_ptr() as _, 2, 6, cs.as_ptr(), 4, 12, c.as_mut_ptr() as _, 2, 4, 1) };
    assert_eq!((s, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 3));
    let s = unsafe { numgpu_sgels_givens_batched(&mut h, 4, 3, 1, std::ptr::null(), 4, std::ptr::null(), 4, info.as_mut_ptr(), 1) };
    assert_eq!((s, numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 5));
    assert!(a.iter().all(|&x| x == 1.0) && cs.iter().all(|x| x.is_nan()) && c.iter().all(|&x| x == 2.0) && info[0] == POISON, "invalid C calls wrote");
}

crate::all_precisions! {
    random_shapes => random_for;
    classes => classes_for;
    exact => exact_for;
    ormqr_all => ormqr_for;
    gels_all => gels_for;
    nan_inf => nan_inf_for;
    edges => edges_for;
    deterministic => deterministic_for;
    device_arrays => device_arrays_for;
    argument_checks => argument_checks_for;
}

crate::on_every_backend! {
    geqrf_givens_random_shapes => super::random_shapes;
    geqrf_givens_matrix_classes => super::classes;
    geqrf_givens_exact_rotations => super::exact;
    ormqr_givens_every_side_and_trans => super::ormqr_all;
    gels_givens_matches_lapack => super::gels_all;
    geqrf_givens_nan_inf => super::nan_inf;
    geqrf_givens_empty_and_large_batch => super::edges;
    geqrf_givens_bitwise_reproducible => super::deterministic;
    geqrf_givens_device_arrays => super::device_arrays;
    geqrf_givens_argument_checks => super::argument_checks;
}

/// The CUDA backend against the CPU backend on the same inputs, rotation for rotation: A
/// (R and the sines) and CS agree within rounding. R relative to each column's norm; s and c
/// of G(i, j) relative to ‖a_j‖ / ρ(i, j), ρ the norm of the rows the rotation folds into r
/// (of column j once the earlier columns' rotations reached it, replayed here in f64 from
/// the CPU's rotations): the rotation is the direction of that short vector, whose rounding
/// errors are of the order of ε‖a_j‖.
#[test]
fn geqrf_givens_cuda_matches_cpu() {
    let Some(mut gpu) = crate::common::handle(numgpu::BackendChoice::Cuda) else { return };
    assert_eq!(gpu.backend(), Backend::Cuda);
    let mut cpu = Handle::cpu();
    cuda_matches_cpu::<f32>(&mut gpu, &mut cpu);
    cuda_matches_cpu::<Complex64>(&mut gpu, &mut cpu);
}

fn cuda_matches_cpu<T: Blas>(gpu: &mut Handle, cpu: &mut Handle) {
    for (s, (m, n)) in shapes().into_iter().enumerate() {
        let p = Qr::<T>::new(Kind::Random, m, n, batch_for(m) + 2, 2000 + s as u64);
        let (x, y) = (p.factor(gpu), p.factor(cpu));
        gpu.synchronize().unwrap();
        let tol = 64.0 * m as f64 * T::EPS;
        for i in 0..p.batch {
            let (a, gx, gy) = (p.a_of(&p.a, i), p.a_of(&x.a, i), p.a_of(&y.a, i));
            let cpu_cs = |r: usize, j: usize| -> f64 { y.cs[i * p.scs + r + j * p.ldcs].into() };
            for j in 0..n {
                let na: f64 = (0..m).map(|r| a[r + j * m].norm_sqr()).sum::<f64>().sqrt();
                let rho = folded_norms(&a[j * m..(j + 1) * m], j, &gy, &cpu_cs);
                for r in 0..m {
                    let scale = if r <= j { na } else { na / rho[r - 1].max(f64::MIN_POSITIVE) };
                    let d = (gx[r + j * m] - gy[r + j * m]).norm();
                    assert!(d <= tol * scale, "{}: A({r}, {j}) CUDA {} vs CPU {} (tolerance {:.3e})", p.what(i), gx[r + j * m], gy[r + j * m], tol * scale);
                    if r > j {
                        let (u, v): (f64, f64) = (x.cs[i * p.scs + r + j * p.ldcs].into(), cpu_cs(r, j));
                        assert!((u - v).abs() <= tol * scale, "{}: CS({r}, {j}) CUDA {u} vs CPU {v}", p.what(i));
                    }
                }
            }
        }
    }
}
