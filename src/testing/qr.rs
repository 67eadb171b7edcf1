//! QR by Givens rotations (geqrf_givens: geqrf, ormqr/unmqr, orgqr/ungqr, gels): Q rebuilt in
//! double precision from the stored rotations, LAPACK's ratios ‖a_j − Q·r_j‖₂ / (m·‖a_j‖₂·ε)
//! (columnwise, so that it also holds for columns scaled by 10^±20; it bounds
//! ‖A − Q·R‖ / (m·‖A‖·ε)) and ‖I − Qᴴ·Q‖₁ / (m·ε), R against another R (LAPACK `?geqrf`'s, or
//! another backend's) up to the unit diagonal that may tell them apart, op(Q)·C and C·op(Q)
//! with an explicit Q, and least squares' optimality ratio.

use super::dense::zgemm;
use super::norm::{c64s, nan_max, norm2, ratio};
use crate::lapack::Blas;
use crate::{Complex64, Op, Scalar, Side};

/// The first `cols` columns of the unitary Q (m × m) of the rotations stored in the first k
/// columns of one matrix's factors (`f` the sines below the diagonal, `cs` the cosines, both
/// m × k, leading dimensions `ldf` and `ldcs`), in double precision. G(i, j) acts on rows
/// (i − 1, i) as `[c s; −conj(s) c]`, applied column by column, each from the bottom row up,
/// so Q = G(1)ᴴ·G(2)ᴴ ⋯ G(N)ᴴ: I with the Gᴴ applied in reverse order.
pub fn givens_q<T: Scalar>(f: &[T], ldf: usize, cs: &[T::Real], ldcs: usize, m: usize, k: usize, cols: usize) -> Vec<Complex64> {
    let mut q: Vec<Complex64> = (0..m * cols).map(|e| Complex64::new(if e % m == e / m { 1.0 } else { 0.0 }, 0.0)).collect();
    for j in (0..k).rev() {
        for i in j + 1..m {
            let (c, s): (f64, Complex64) = (cs[i + j * ldcs].into(), f[i + j * ldf].to_c64());
            for col in 0..cols {
                let (x, y) = (q[i - 1 + col * m], q[i + col * m]);
                q[i - 1 + col * m] = c * x - s * y;
                q[i + col * m] = s.conj() * x + c * y;
            }
        }
    }
    q
}

/// The upper triangle of the `m × n` factors `f` (compact): R, `n × n`.
fn upper(f: &[Complex64], m: usize, n: usize) -> Vec<Complex64> {
    (0..n * n).map(|e| if e % n <= e / n { f[e % n + (e / n) * m] } else { Complex64::new(0.0, 0.0) }).collect()
}

/// max_j ‖a_j − Q·r_j‖₂ / (m·‖a_j‖₂·ε): `a` the input, `f` the factors (R in the upper
/// triangle), `q` the first n columns of Q, all compact `m × n`. A zero column must have a
/// zero residual.
pub fn residual_ratio<T: Scalar>(a: &[Complex64], f: &[Complex64], q: &[Complex64], m: usize, n: usize) -> f64 {
    let qr = zgemm(q, &upper(f, m, n), m, n, n, false);
    (0..n)
        .map(|j| {
            let s = j * m..(j + 1) * m;
            let res: Vec<Complex64> = a[s.clone()].iter().zip(&qr[s.clone()]).map(|(x, y)| x - y).collect();
            ratio(norm2(&res), m as f64 * norm2(&a[s]) * T::EPS)
        })
        .fold(0.0, nan_max)
}

/// ‖I − Qᴴ·Q‖₁ / (m·ε) of the compact `m × cols` matrix q.
pub fn orthogonality_ratio<T: Scalar>(q: &[Complex64], m: usize, cols: usize) -> f64 {
    let g = zgemm(q, q, cols, cols, m, true);
    let col = |j: usize| -> f64 { (0..cols).map(|i| (g[i + j * cols] - if i == j { 1.0 } else { 0.0 }).norm()).sum() };
    (0..cols).map(col).fold(0.0, nan_max) / (m as f64 * T::EPS)
}

/// LAPACK `?geqrf` on a copy of the compact `m × n` matrix `a`: its factors (R in the upper
/// triangle), or None when it reports an error.
pub fn lapack_geqrf<T: Blas>(a: &[T], m: usize, n: usize) -> Option<Vec<T>> {
    let mut l = a[..m * n].to_vec();
    let mut tau = vec![T::zero(); n];
    // SAFETY: l holds m×n elements (lda = m), tau n.
    let info = unsafe { T::geqrf(m as i32, n as i32, l.as_mut_ptr(), m.max(1) as i32, tau.as_mut_ptr()) };
    (info == 0).then_some(l)
}

/// The comparison of one R with another of the same matrix: the unit diagonal D with
/// R = D·R_ref (dᵢ from the diagonals: 1 where either is zero), and the sensitivity
/// κ̂ = max / min of |R_ref(j, j)| / ‖a_j‖₂ (at least 1).
pub struct RCompare {
    /// D's diagonal, n entries of modulus 1.
    pub d: Vec<Complex64>,
    /// κ̂, the sensitivity that scales the ratios.
    pub kappa: f64,
    /// ‖a_j‖₂ of the input's columns.
    pub norms: Vec<f64>,
}

impl RCompare {
    /// `a` the input, `r` and `r_ref` two factorisations of it (R in the upper triangle), all
    /// compact `m × n`.
    pub fn new(a: &[Complex64], r: &[Complex64], r_ref: &[Complex64], m: usize, n: usize) -> RCompare {
        let norms: Vec<f64> = (0..n).map(|j| norm2(&a[j * m..(j + 1) * m])).collect();
        let diag: Vec<f64> = (0..n).map(|j| r_ref[j + j * m].norm() / norms[j]).collect();
        let kappa = (diag.iter().cloned().fold(0.0, f64::max) / diag.iter().cloned().fold(f64::INFINITY, f64::min)).max(1.0);
        let d = (0..n)
            .map(|j| {
                let (o, l) = (r[j + j * m], r_ref[j + j * m]);
                if o.norm() == 0.0 || l.norm() == 0.0 {
                    Complex64::new(1.0, 0.0)
                } else {
                    (o / o.norm()) / (l / l.norm())
                }
            })
            .collect();
        RCompare { d, kappa, norms }
    }

    /// max over i <= j of |R(i, j) − dᵢ·R_ref(i, j)| / (m·κ̂·‖a_j‖₂·ε).
    pub fn r_ratio<T: Scalar>(&self, r: &[Complex64], r_ref: &[Complex64], m: usize) -> f64 {
        let n = self.norms.len();
        (0..n)
            .flat_map(|j| (0..=j).map(move |i| (i, j)))
            .map(|(i, j)| ratio((r[i + j * m] - self.d[i] * r_ref[i + j * m]).norm(), m as f64 * self.kappa * self.norms[j] * T::EPS))
            .fold(0.0, nan_max)
    }

    /// max |Q(i, j) − Q_ref(i, j)·conj(d_j)| / (m·κ̂·ε) of the first n columns of the two Q
    /// (compact `m × n`): Q·D is Q_ref when R = D·R_ref.
    pub fn q_ratio<T: Scalar>(&self, q: &[Complex64], q_ref: &[Complex64], m: usize) -> f64 {
        let unit = m as f64 * self.kappa * T::EPS;
        (0..q.len()).map(|e| (q[e] - q_ref[e] * self.d[e / m].conj()).norm() / unit).fold(0.0, nan_max)
    }
}

/// `op(Q)·C` (`side` Left) or `C·op(Q)` (Right) in double precision with the explicit `q` of
/// order `nq`; C is `m × n`, compact.
pub fn apply_q(q: &[Complex64], nq: usize, side: Side, trans: Op, c: &[Complex64], m: usize, n: usize) -> Vec<Complex64> {
    let adjoint = trans != Op::N;
    match side {
        Side::Left => zgemm(q, c, m, n, nq, adjoint),
        // C·op(Q) = (op(Q)ᴴ·Cᴴ)ᴴ.
        Side::Right => {
            let ch: Vec<Complex64> = (0..m * n).map(|e| c[e / n + (e % n) * m].conj()).collect();
            let t = zgemm(q, &ch, n, m, nq, !adjoint);
            (0..m * n).map(|e| t[e / m + (e % m) * n].conj()).collect()
        }
    }
}

/// ‖C − want‖_F / (m·‖C₀‖_F·ε): a product with a Q of order m (op(Q)·C₀ or C₀·op(Q), compact)
/// against what it should be ([`apply_q`], or another backend's).
pub fn apply_ratio<T: Scalar>(c: &[Complex64], want: &[Complex64], c0: &[Complex64], m: usize) -> f64 {
    let d: Vec<Complex64> = c.iter().zip(want).map(|(x, y)| x - y).collect();
    ratio(norm2(&d), m as f64 * norm2(c0) * T::EPS)
}

/// A·x for the compact `m × n` matrix `a`.
fn times(a: &[Complex64], m: usize, x: &[Complex64]) -> Vec<Complex64> {
    (0..m).map(|r| x.iter().enumerate().map(|(j, xj)| a[r + j * m] * xj).sum()).collect()
}

/// ‖Aᴴ·(b − A·x)‖₂ / (m·‖A‖_F·(‖A‖_F·‖x‖₂ + 2‖b‖₂)·ε): the optimality of the least-squares
/// solution x (n) of the compact `m × n` matrix `a` and right-hand side b (m), QR's backward
/// error bound.
pub fn gels_ratio<T: Scalar>(a: &[Complex64], m: usize, n: usize, x: &[Complex64], b: &[Complex64]) -> f64 {
    let na = norm2(a);
    let r: Vec<Complex64> = times(a, m, x).iter().zip(b).map(|(p, q)| q - p).collect();
    let g: Vec<Complex64> = (0..n).map(|j| (0..m).map(|i| a[i + j * m].conj() * r[i]).sum()).collect();
    norm2(&g) / (m as f64 * na * (na * norm2(x) + 2.0 * norm2(b)) * T::EPS)
}

/// ‖A·(x − x_other)‖₂ / (m·‖A‖_F·‖x‖₂·ε): how far apart two least-squares solutions are, in
/// the residual they give.
pub fn gels_distance<T: Scalar>(a: &[Complex64], m: usize, x: &[T], x_other: &[T]) -> f64 {
    let d: Vec<Complex64> = x.iter().zip(x_other).map(|(p, q)| p.to_c64() - q.to_c64()).collect();
    norm2(&times(a, m, &d)) / (m as f64 * norm2(a) * norm2(&c64s(x)) * T::EPS)
}

/// For column `j` of an `m`-row input (`col`) whose factorisation's sines are `f` (compact
/// m × n) and cosines `cs(r, j)`: the column after the rotations of columns 0..j (replayed
/// in double), and of it ‖v(r..m)‖₂ for every r, the norm the rotation G(r + 1, j) folds into
/// its r. A rotation is the direction of that short vector, so its rounding errors scale
/// as ε·‖a_j‖ / ρ(r, j).
pub fn folded_norms(col: &[Complex64], j: usize, f: &[Complex64], cs: &dyn Fn(usize, usize) -> f64) -> Vec<f64> {
    let m = col.len();
    let mut v = col.to_vec();
    for jj in 0..j {
        for r in (jj + 1..m).rev() {
            let (c, s) = (cs(r, jj), f[r + jj * m]);
            let (x, y) = (v[r - 1], v[r]);
            v[r - 1] = s * y + x * c;
            v[r] = y * c - s.conj() * x;
        }
    }
    let mut rho = vec![0.0; m];
    let mut acc = 0.0;
    for r in (0..m).rev() {
        acc += v[r].norm_sqr();
        rho[r] = acc.sqrt();
    }
    rho
}
