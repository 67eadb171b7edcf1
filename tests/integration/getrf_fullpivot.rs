//! getrf/getrs/gesv/gesc2 with complete pivoting on every backend, against LAPACK `?getc2`
//! and `?gesc2` called directly on the same matrices: identical pivots and info, LAPACK's
//! ratios ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) and ‖B − op(A)·X‖₁ / (‖A‖₁·‖X‖₁·n·ε) below 30.
//! Outputs are poisoned before each call, and the padding of A must come back unchanged.

use crate::common::{c_position, random, rng, same};
use numgpu::core::batch::Batch;
use numgpu::getrf_fullpivot::{gesc2_strided, gesv, gesv_strided, getrf, getrf_strided, getrs_strided, Mode};
use numgpu::lapack::Blas;
use numgpu::{Backend, Complex64, Handle, Op, Scalar, Status};
use rand::Rng;

const RATIO_LIMIT: f64 = 30.0;
const POISON: i32 = -7;

/// The kinds of matrices the spec asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Random,
    /// Condition number about 10^e (Householder · diag · Householder).
    Cond(i32),
    /// r × r random block at scattered rows and columns, zeros elsewhere: rank r exactly.
    Rank(usize),
    Zero,
    /// Integers in {−2 … 2} (complex: {0, ±1, ±i, ±1±i}), many ties.
    Ties,
    Wilkinson,
    /// Rows scaled by 10^±20 alternately.
    Scaled,
}

fn c<T: Scalar>(re: f64, im: f64) -> T {
    T::from_c64(Complex64::new(re, im))
}

/// One `n × n` matrix of `kind` into `a` (leading dimension `lda`).
fn fill<T: Scalar>(kind: Kind, n: usize, a: &mut [T], lda: usize, seed: u64) {
    let mut r = rng(seed);
    let set = |a: &mut [T], i: usize, j: usize, v: T| a[i + j * lda] = v;
    match kind {
        Kind::Random | Kind::Scaled => {
            let v = random::<T>(&mut r, n * n, 1.0);
            for j in 0..n {
                for i in 0..n {
                    let s = if kind == Kind::Scaled { if i % 2 == 0 { 1e20 } else { 1e-20 } } else { 1.0 };
                    set(a, i, j, T::from_c64(v[i + j * n].to_c64() * s));
                }
            }
        }
        Kind::Cond(e) => {
            let sigma: Vec<f64> = (0..n).map(|i| if n == 1 { 1.0 } else { 10f64.powf(-(e as f64) * i as f64 / (n - 1) as f64) }).collect();
            let (u, v) = (random::<T>(&mut r, n, 1.0), random::<T>(&mut r, n, 1.0));
            let house = |w: &[T], i: usize, j: usize| -> Complex64 {
                let nn: f64 = w.iter().map(|x| x.to_c64().norm_sqr()).sum();
                let d = if i == j { 1.0 } else { 0.0 };
                d - 2.0 * w[i].to_c64() * w[j].to_c64().conj() / nn
            };
            for j in 0..n {
                for i in 0..n {
                    let s: Complex64 = (0..n).map(|k| house(&u, i, k) * sigma[k] * house(&v, k, j)).sum();
                    set(a, i, j, T::from_c64(s));
                }
            }
        }
        Kind::Rank(rk) => {
            let rows: Vec<usize> = (0..n).filter(|i| (i * 7 + 3) % n < rk).collect();
            let cols: Vec<usize> = (0..n).filter(|j| (j * 5 + 1) % n < rk).collect();
            for j in 0..n {
                for i in 0..n {
                    let v = if rows.contains(&i) && cols.contains(&j) { T::from_c64(Complex64::new(r.gen_range(-1.0..1.0), if T::IS_COMPLEX { r.gen_range(-1.0..1.0) } else { 0.0 })) } else { T::zero() };
                    set(a, i, j, v);
                }
            }
        }
        Kind::Zero => (0..n).for_each(|j| (0..n).for_each(|i| set(a, i, j, T::zero()))),
        Kind::Ties => {
            // Tie-rich matrices whose elimination is exact in floating point, so that every
            // implementation (with or without fused multiply-adds) meets the same ties and
            // must break them the same way: D1·H·D2 with H block-diagonal Sylvester-Hadamard
            // blocks of at most 16 (larger ones are not exact), phased permutations, and
            // rank-one outer products of entries in {1, 2}·{±1, ±i}.
            let mut unit = || -> Complex64 {
                let k = r.gen_range(0..if T::IS_COMPLEX { 4 } else { 2 });
                [Complex64::new(1.0, 0.0), Complex64::new(-1.0, 0.0), Complex64::new(0.0, 1.0), Complex64::new(0.0, -1.0)][k]
            };
            let mut m = vec![Complex64::new(0.0, 0.0); n * n];
            match seed % 3 {
                0 => {
                    let (d1, d2): (Vec<Complex64>, Vec<Complex64>) = ((0..n).map(|_| unit()).collect(), (0..n).map(|_| unit()).collect());
                    let (mut off, mut rest) = (0, n);
                    while rest > 0 {
                        let b = 1usize << (usize::BITS - 1 - rest.min(16).leading_zeros());
                        for i in 0..b {
                            for j in 0..b {
                                let h = if (i & j).count_ones() % 2 == 0 { 1.0 } else { -1.0 };
                                m[off + i + (off + j) * n] = d1[off + i] * h * d2[off + j];
                            }
                        }
                        (off, rest) = (off + b, rest - b);
                    }
                }
                1 => {
                    let mut perm: Vec<usize> = (0..n).collect();
                    for i in (1..n).rev() {
                        perm.swap(i, (seed as usize * 31 + i * 17) % (i + 1));
                    }
                    for j in 0..n {
                        m[perm[j] + j * n] = unit();
                    }
                }
                _ => {
                    let mut v = || unit() * if (seed as usize + n) % 2 == 0 { 1.0 } else { 2.0 };
                    let (x, y): (Vec<Complex64>, Vec<Complex64>) = ((0..n).map(|_| v()).collect(), (0..n).map(|_| v()).collect());
                    for j in 0..n {
                        for i in 0..n {
                            m[i + j * n] = x[i] * y[j];
                        }
                    }
                }
            }
            for j in 0..n {
                for i in 0..n {
                    set(a, i, j, T::from_c64(m[i + j * n]));
                }
            }
        }
        Kind::Wilkinson => {
            for j in 0..n {
                for i in 0..n {
                    let v = if i == j || j == n - 1 { 1.0 } else if i > j { -1.0 } else { 0.0 };
                    set(a, i, j, c(v, 0.0));
                }
            }
        }
    }
}

/// A strided batch of matrices with padded leading dimension and a gap between matrices.
struct Lu<T> {
    n: usize,
    lda: usize,
    stride: usize,
    batch: usize,
    a: Vec<T>,
}

impl<T: Blas> Lu<T> {
    fn new(kind: Kind, n: usize, batch: usize, seed: u64) -> Self {
        let lda = n.max(1) + 2;
        let stride = lda * n + 3;
        let mut a = vec![c::<T>(f64::NAN, 0.0); stride * batch];
        for i in 0..batch {
            fill(kind, n, &mut a[i * stride..], lda, seed + i as u64);
        }
        Lu { n, lda, stride, batch, a }
    }
    fn matrix(&self, v: &[T], i: usize) -> Vec<T> {
        (0..self.n * self.n).map(|e| v[i * self.stride + e % self.n + (e / self.n) * self.lda]).collect()
    }
}

struct Factors<T> {
    a: Vec<T>,
    ipiv: Vec<i32>,
    jpiv: Vec<i32>,
    info: Vec<i32>,
}

fn factor<T: Blas>(h: &mut Handle, lu: &Lu<T>, mode: Mode) -> Factors<T> {
    let mut f = Factors { a: lu.a.clone(), ipiv: vec![POISON; lu.n * lu.batch], jpiv: vec![POISON; lu.n * lu.batch], info: vec![POISON; lu.batch] };
    getrf_strided(h, lu.n as i64, &mut f.a, lu.lda as i64, lu.stride as i64, &mut f.ipiv, &mut f.jpiv, &mut f.info, lu.batch as i64, mode)
        .unwrap_or_else(|e| panic!("{}getrf n={} batch={}: {e}", T::LETTER, lu.n, lu.batch));
    // Padding and gaps untouched.
    for (k, (x, y)) in f.a.iter().zip(&lu.a).enumerate() {
        let (i, r) = (k / lu.stride, k % lu.stride);
        if r >= lu.lda * lu.n || r % lu.lda >= lu.n {
            assert!(same(*x, *y), "{}getrf n={}: padding of matrix {i} written", T::LETTER, lu.n);
        }
    }
    f
}

/// LAPACK `?getc2` on matrix i: (factors compact, ipiv, jpiv, info).
fn lapack<T: Blas>(lu: &Lu<T>, i: usize) -> (Vec<T>, Vec<i32>, Vec<i32>, i32) {
    let n = lu.n;
    let mut a = lu.matrix(&lu.a, i);
    let (mut ip, mut jp) = (vec![0; n], vec![0; n]);
    let info = unsafe { T::getc2(n as i32, a.as_mut_ptr(), n.max(1) as i32, ip.as_mut_ptr(), jp.as_mut_ptr()) };
    (a, ip, jp, info)
}

fn norm1(a: &[Complex64], n: usize) -> f64 {
    (0..n).map(|j| (0..n).map(|i| a[i + j * n].norm()).sum::<f64>()).fold(0.0, f64::max)
}

/// ‖P·L·U·Q − A‖₁ / (n·‖A‖₁·ε) of matrix i's factors.
fn lu_ratio<T: Blas>(lu: &Lu<T>, f: &Factors<T>, i: usize) -> f64 {
    let n = lu.n;
    let m: Vec<Complex64> = lu.matrix(&f.a, i).iter().map(|x| x.to_c64()).collect();
    let mut prod = vec![Complex64::new(0.0, 0.0); n * n];
    for j in 0..n {
        for r in 0..n {
            let s: Complex64 = (0..=r.min(j)).map(|k| if k == r { Complex64::new(1.0, 0.0) } else { m[r + k * n] } * m[k + j * n]).sum();
            prod[r + j * n] = s;
        }
    }
    // Undo the interchanges: rows in reverse order of ipiv, columns in reverse of jpiv.
    for k in (0..n).rev() {
        let p = f.ipiv[i * n + k] as usize - 1;
        for j in 0..n {
            prod.swap(k + j * n, p + j * n);
        }
        let q = f.jpiv[i * n + k] as usize - 1;
        for r in 0..n {
            prod.swap(r + k * n, r + q * n);
        }
    }
    let a: Vec<Complex64> = lu.matrix(&lu.a, i).iter().map(|x| x.to_c64()).collect();
    let diff: Vec<Complex64> = prod.iter().zip(&a).map(|(p, q)| p - q).collect();
    let na = norm1(&a, n);
    if na == 0.0 {
        return norm1(&diff, n);
    }
    norm1(&diff, n) / (n as f64 * na * T::EPS)
}

/// Factor with `mode` and compare with LAPACK matrix by matrix; `lapack_pivots`: the pivots
/// and info must equal `?getc2`'s (GETC2 mode, or STRICT on matrices LAPACK never perturbs).
fn check_against_lapack<T: Blas>(h: &mut Handle, kind: Kind, n: usize, batch: usize, mode: Mode, seed: u64) {
    let lu = Lu::<T>::new(kind, n, batch, seed);
    let f = factor(h, &lu, mode);
    let what = |i: usize| format!("{}getrf {kind:?} n={n} batch={batch} mode={mode:?} matrix {i} (seed {})", T::LETTER, seed + i as u64);
    for i in 0..batch {
        let (_, ip, jp, info) = lapack(&lu, i);
        let strict_singular = mode == Mode::Strict && f.info[i] > 0;
        if !strict_singular {
            assert_eq!(&f.ipiv[i * n..(i + 1) * n], &ip[..], "{}: ipiv differs from LAPACK", what(i));
            assert_eq!(&f.jpiv[i * n..(i + 1) * n], &jp[..], "{}: jpiv differs from LAPACK", what(i));
            if mode == Mode::Getc2 {
                assert_eq!(f.info[i], info, "{}: info differs from LAPACK", what(i));
            }
            if info == 0 {
                let r = lu_ratio(&lu, &f, i);
                assert!(r < RATIO_LIMIT, "{}: ‖PLUQ − A‖ ratio {r:.2}", what(i));
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
        for kind in [Kind::Cond(2), Kind::Cond(8), Kind::Cond((1.0 / T::EPS).log10() as i32 - 1), Kind::Ties, Kind::Wilkinson, Kind::Scaled, Kind::Zero, Kind::Rank(n / 2)] {
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
                let at = (n / 2) + (n / 3) * lu.lda;
                lu.a[at] = c(bad, 0.0);
                let f = factor(h, &lu, mode);
                assert_eq!(f.info[0], 1, "{}getrf n={n} {bad} mode={mode:?}: info", T::LETTER);
                assert_eq!((f.ipiv[0], f.jpiv[0]), ((n / 2 + 1) as i32, (n / 3 + 1) as i32), "{}getrf n={n} {bad}: first pivot", T::LETTER);
                assert_eq!(f.info[1], 0, "{}getrf n={n}: the clean matrix of the batch", T::LETTER);
            }
        }
    }
}

/// Residual ratio of op(A)·X = B for every matrix and right-hand side.
fn solve_ratio<T: Blas>(a: &[T], n: usize, trans: Op, x: &[T], b: &[T], nrhs: usize) -> f64 {
    let at = |i: usize, j: usize| match trans {
        Op::N => a[i + j * n].to_c64(),
        Op::T => a[j + i * n].to_c64(),
        Op::C => a[j + i * n].to_c64().conj(),
    };
    let am: Vec<Complex64> = (0..n * n).map(|e| at(e % n, e / n)).collect();
    let mut worst: f64 = 0.0;
    for r in 0..nrhs {
        let xr = &x[r * n..(r + 1) * n];
        let res: f64 = (0..n).map(|i| (b[r * n + i].to_c64() - (0..n).map(|j| am[i + j * n] * xr[j].to_c64()).sum::<Complex64>()).norm()).sum();
        let nx: f64 = xr.iter().map(|v| v.to_c64().norm()).sum();
        worst = worst.max(res / (norm1(&am, n) * nx.max(f64::MIN_POSITIVE) * n as f64 * T::EPS));
    }
    worst
}

fn solves_for<T: Blas>(h: &mut Handle) {
    for &n in &[1usize, 3, 8, 31, 33, 100] {
        let (batch, nrhs) = (5usize, 3usize);
        let lu = Lu::<T>::new(Kind::Cond(3), n, batch, 500 + n as u64);
        let f = factor(h, &lu, Mode::Strict);
        let mut r = rng(600 + n as u64);
        let ldb = n + 1;
        let sb = ldb * nrhs;
        let b0 = random::<T>(&mut r, sb * batch, 1.0);
        for trans in [Op::N, Op::T, Op::C] {
            let mut x = b0.clone();
            getrs_strided(h, trans, n as i64, nrhs as i64, &f.a, lu.lda as i64, lu.stride as i64, &f.ipiv, &f.jpiv, &mut x, ldb as i64, sb as i64, batch as i64).unwrap();
            for i in 0..batch {
                let pick = |v: &[T]| -> Vec<T> { (0..n * nrhs).map(|e| v[i * sb + e % n + (e / n) * ldb]).collect() };
                let ratio = solve_ratio(&lu.matrix(&lu.a, i), n, trans, &pick(&x), &pick(&b0), nrhs);
                assert!(ratio < RATIO_LIMIT, "{}getrs {trans:?} n={n} matrix {i}: residual ratio {ratio:.2}", T::LETTER);
                // Padding rows of B untouched.
                for r in 0..nrhs {
                    assert!(same(x[i * sb + r * ldb + n], b0[i * sb + r * ldb + n]), "{}getrs: B padding written", T::LETTER);
                }
            }
        }
        // strideA 0: matrix 0's factors for the whole batch (pivots are still per matrix).
        let per = |p: &[i32]| -> Vec<i32> { p[..n].repeat(batch) };
        let mut x = b0.clone();
        getrs_strided(h, Op::N, n as i64, nrhs as i64, &f.a, lu.lda as i64, 0, &per(&f.ipiv), &per(&f.jpiv), &mut x, ldb as i64, sb as i64, batch as i64).unwrap();
        for i in 0..batch {
            let pick = |v: &[T]| -> Vec<T> { (0..n * nrhs).map(|e| v[i * sb + e % n + (e / n) * ldb]).collect() };
            let ratio = solve_ratio(&lu.matrix(&lu.a, 0), n, Op::N, &pick(&x), &pick(&b0), nrhs);
            assert!(ratio < RATIO_LIMIT, "{}getrs strideA 0 n={n} rhs {i}: residual ratio {ratio:.2}", T::LETTER);
        }
    }
}

/// gesv: factor + solve, and a singular matrix's B left unchanged; the pointer-array form
/// with scrambled matrices.
fn gesv_for<T: Blas>(h: &mut Handle) {
    for &n in &[2usize, 8, 32, 33, 64] {
        let (batch, nrhs) = (4usize, 2usize);
        let mut lu = Lu::<T>::new(Kind::Random, n, batch, 700 + n as u64);
        fill(Kind::Rank(n - 1), n, &mut lu.a[2 * lu.stride..], lu.lda, 9);
        let mut r = rng(800 + n as u64);
        let b0 = random::<T>(&mut r, n * nrhs * batch, 1.0);
        let (mut a, mut b) = (lu.a.clone(), b0.clone());
        let (mut ip, mut jp, mut info) = (vec![POISON; n * batch], vec![POISON; n * batch], vec![POISON; batch]);
        gesv_strided(h, n as i64, nrhs as i64, &mut a, lu.lda as i64, lu.stride as i64, &mut ip, &mut jp, &mut b, n as i64, (n * nrhs) as i64, &mut info, batch as i64).unwrap();
        assert_eq!(info, vec![0, 0, n as i32, 0], "{}gesv n={n}: info", T::LETTER);
        for i in 0..batch {
            let bi = &b[i * n * nrhs..(i + 1) * n * nrhs];
            let b0i = &b0[i * n * nrhs..(i + 1) * n * nrhs];
            if i == 2 {
                assert!(bi.iter().zip(b0i).all(|(p, q)| same(*p, *q)), "{}gesv n={n}: B of the singular matrix changed", T::LETTER);
            } else {
                let ratio = solve_ratio(&lu.matrix(&lu.a, i), n, Op::N, bi, b0i, nrhs);
                assert!(ratio < RATIO_LIMIT, "{}gesv n={n} matrix {i}: residual ratio {ratio:.2}", T::LETTER);
            }
        }
        // Pointer arrays, matrices visited in reverse: the same result.
        let (mut a2, mut b2) = (lu.a.clone(), b0.clone());
        let pa: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { a2.as_mut_ptr().add(i * lu.stride) }).collect();
        let pb: Vec<*mut T> = (0..batch).rev().map(|i| unsafe { b2.as_mut_ptr().add(i * n * nrhs) }).collect();
        let (mut ip2, mut jp2, mut info2) = (vec![POISON; n * batch], vec![POISON; n * batch], vec![POISON; batch]);
        unsafe { gesv(h, n as i64, nrhs as i64, Batch::Array(pa.as_ptr()), lu.lda as i64, ip2.as_mut_ptr(), jp2.as_mut_ptr(), Batch::Array(pb.as_ptr()), n as i64, info2.as_mut_ptr(), batch as i64) }.unwrap();
        info2.reverse();
        assert_eq!(info2, info);
        assert!(a2.iter().zip(&a).all(|(p, q)| same(*p, *q)) && b2.iter().zip(&b).all(|(p, q)| same(*p, *q)), "{}gesv n={n}: pointer-array form differs from strided", T::LETTER);
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
            gesc2_strided(h, n as i64, &f.a, lu.lda as i64, lu.stride as i64, &mut rhs, n as i64, &f.ipiv, &f.jpiv, &mut scale, batch as i64).unwrap();
            for i in 0..batch {
                let (la, ip, jp, _) = lapack(&lu, i);
                let mut x = rhs0[i * n..(i + 1) * n].to_vec();
                let s = unsafe { T::gesc2(n as i32, la.as_ptr(), n as i32, x.as_mut_ptr(), ip.as_ptr(), jp.as_ptr()) };
                let (s, got): (f64, f64) = (s.into(), scale[i].into());
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
    getrf_strided(h, 0, &mut a, 1, 1, &mut ip, &mut jp, &mut info, 2, Mode::Getc2).unwrap();
    getrf_strided(h, 2, &mut a, 2, 4, &mut ip, &mut jp, &mut info, 0, Mode::Getc2).unwrap();
    assert!(ip.iter().chain(&jp).chain(&info).all(|&v| v == POISON), "empty work wrote");
    let lu = Lu::<T>::new(Kind::Random, 2, 70_001, 1234);
    let f = factor(h, &lu, Mode::Getc2);
    for i in [0, 35_000, 70_000] {
        let (_, ip, jp, info) = lapack(&lu, i);
        assert_eq!((&f.ipiv[2 * i..2 * i + 2], &f.jpiv[2 * i..2 * i + 2], f.info[i]), (&ip[..], &jp[..], info), "{}getrf batch 70001: matrix {i}", T::LETTER);
    }
}

/// Bitwise the same outputs, call after call.
fn deterministic_for<T: Blas>(h: &mut Handle) {
    for n in [8usize, 32, 64] {
        let lu = Lu::<T>::new(Kind::Random, n, 7, 1500);
        let (x, y) = (factor(h, &lu, Mode::Getc2), factor(h, &lu, Mode::Getc2));
        assert!(x.a.iter().zip(&y.a).all(|(p, q)| same(*p, *q)) && x.ipiv == y.ipiv, "{}getrf n={n}: two calls differ", T::LETTER);
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
        getrf(h, n as i64, Batch::Strided { ptr: da, stride: lu.stride as i64 }, lu.lda as i64, dip, djp, dinfo, batch as i64, Mode::Getc2).unwrap();
        h.synchronize().unwrap();
        let mut ints = vec![0i32; 2 * n * batch + batch];
        h.memcpy(ints.as_mut_ptr() as _, idx as _, ints.len() * 4).unwrap();
        assert_eq!(&ints[..n * batch], &host.ipiv[..], "device-array ipiv");
        assert_eq!(&ints[n * batch..2 * n * batch], &host.jpiv[..], "device-array jpiv");
        // Pointer arrays in device memory.
        h.memcpy(da as _, lu.a.as_ptr() as _, lu.a.len() * size).unwrap();
        let ptrs: Vec<u64> = (0..batch).map(|i| da.add(i * lu.stride) as u64).collect();
        let dp = h.malloc(batch * 8).unwrap() as *mut *mut T;
        h.memcpy(dp as _, ptrs.as_ptr() as _, batch * 8).unwrap();
        getrf(h, n as i64, Batch::Array(dp as *const *mut T), lu.lda as i64, dip, djp, dinfo, batch as i64, Mode::Getc2).unwrap();
        h.synchronize().unwrap();
        let mut a = vec![T::zero(); lu.a.len()];
        h.memcpy(a.as_mut_ptr() as _, da as _, a.len() * size).unwrap();
        for i in 0..batch {
            let f = Factors { a: a.clone(), ipiv: host.ipiv.clone(), jpiv: host.jpiv.clone(), info: host.info.clone() };
            assert!(lu_ratio(&lu, &f, i) < RATIO_LIMIT, "device pointer-array factors of matrix {i}");
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
        let e = getrf_strided(h, nn, &mut a, lda, stride, &mut ip, &mut jp, &mut info, batch_, Mode::Getc2).unwrap_err();
        assert!(a.iter().zip(&lu.a).all(|(p, q)| same(*p, *q)) && ip.iter().chain(&jp).chain(&info).all(|&v| v == POISON), "invalid call wrote: {e:?}");
        (e.status, c_position(&e, "numgpu_sgetrf_batched_fullpivot_strided"))
    };
    let lda = lu.lda as i64;
    assert_eq!(run(-1, lda, lu.stride as i64, 2, 0), (Status::NUMGPU_INVALID_VALUE, 2));
    assert_eq!(run(3, 2, lu.stride as i64, 2, 0), (Status::NUMGPU_INVALID_VALUE, 4));
    assert_eq!(run(3, lda, 4, 2, 0), (Status::NUMGPU_INVALID_VALUE, 5));
    assert_eq!(run(3, lda, lu.stride as i64, -1, 0), (Status::NUMGPU_INVALID_VALUE, 9));
    assert_eq!(run(3, lda, lu.stride as i64, 2, 1), (Status::NUMGPU_INVALID_VALUE, 6));
    // NULL pivots and a bad mode through the C ABI.
    let mut a = lu.a.clone();
    let (mut ip, mut jp, mut info) = (vec![POISON; n * batch], vec![POISON; n * batch], vec![POISON; batch]);
    let e = unsafe { getrf(h, 3, Batch::Strided { ptr: a.as_mut_ptr(), stride: lu.stride as i64 }, lda, std::ptr::null_mut(), jp.as_mut_ptr(), info.as_mut_ptr(), 2, Mode::Getc2) }.unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgetrf_batched_fullpivot_strided")), (Status::NUMGPU_INVALID_VALUE, 6));
    let s = unsafe { numgpu::getrf_fullpivot::capi::numgpu_sgetrf_batched_fullpivot_strided(h, 3, std::ptr::null_mut(), 3, 9, ip.as_mut_ptr(), jp.as_mut_ptr(), info.as_mut_ptr(), 1, 2) };
    assert_eq!((s, numgpu::ffi::capi::numgpu_last_error_arg()), (Status::NUMGPU_INVALID_VALUE, 10));
    assert!(ip.iter().chain(&jp).chain(&info).all(|&v| v == POISON));
    // getrs: a pivot out of range on host arrays.
    let mut bad = vec![1i32; n * batch];
    bad[1] = 1; // entry k = 2 must be >= 2
    let mut b = vec![T::one(); n * batch];
    let e = getrs_strided(h, Op::N, 3, 1, &a, lda, lu.stride as i64, &bad, &bad, &mut b, 3, 3, 2).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgetrs_batched_fullpivot_strided")), (Status::NUMGPU_INVALID_VALUE, 8));
    assert!(b.iter().all(|v| *v == T::one()));
    // gesv factors A in place: its matrices may not be shared (strideA 0).
    let (mut ip, mut jp, mut info) = (vec![POISON; n * batch], vec![POISON; n * batch], vec![POISON; batch]);
    let e = gesv_strided(h, 3, 1, &mut a, lda, 0, &mut ip, &mut jp, &mut b, 3, 3, &mut info, 2).unwrap_err();
    assert_eq!((e.status, c_position(&e, "numgpu_sgesv_batched_fullpivot_strided")), (Status::NUMGPU_INVALID_VALUE, 6));
    assert!(b.iter().all(|v| *v == T::one()) && ip.iter().chain(&jp).chain(&info).all(|&v| v == POISON));
}

crate::all_precisions! {
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
/// factors within rounding.
#[test]
fn getrf_cuda_matches_cpu() {
    let Some(mut gpu) = crate::common::handle(numgpu::BackendChoice::Cuda) else { return };
    assert_eq!(gpu.backend(), Backend::Cuda);
    let mut cpu = Handle::cpu();
    for &n in &SIZES {
        for mode in [Mode::Getc2, Mode::Strict] {
            let lu = Lu::<Complex64>::new(Kind::Random, n, batch_for(n), 2000 + n as u64);
            let (x, y) = (factor(&mut gpu, &lu, mode), factor(&mut cpu, &lu, mode));
            assert_eq!((&x.ipiv, &x.jpiv, &x.info), (&y.ipiv, &y.jpiv, &y.info), "n={n} {mode:?}: pivots or info differ");
            let diff: f64 = x.a.iter().zip(&y.a).filter(|(p, _)| !p.re.is_nan()).map(|(p, q)| (p - q).norm()).fold(0.0, f64::max);
            assert!(diff <= 1e-10, "n={n} {mode:?}: factors differ by {diff:.3e}");
        }
    }
}
