//! gemm_batched's reference and error ratio: one product C = α·op(A)·op(B) + β·C₀ in double
//! precision, and BLAS's ratio ‖C − C_ref‖_F / ((k + 2)·(|α|·‖A‖_F·‖B‖_F + |β|·‖C₀‖_F)·ε),
//! which stays below a small constant ([`tol::GEMM_RATIO`](super::tol::GEMM_RATIO)) for a
//! correct product in any scaling.

use super::norm::{nan_max, ratio};
use crate::{Complex64, Op, Scalar};

/// One product of a batch, its operands in the caller's arrays (matrix at offset 0, with
/// leading dimensions). C₀ is not read when β = 0.
#[derive(Clone, Copy, Debug)]
pub struct Gemm<'a, T> {
    /// op(A).
    pub ta: Op,
    /// op(B).
    pub tb: Op,
    /// Rows of C and op(A).
    pub m: usize,
    /// Columns of C and op(B).
    pub n: usize,
    /// Columns of op(A), rows of op(B).
    pub k: usize,
    /// α.
    pub alpha: T,
    /// A as stored (`m × k`, or `k × m` under a transpose).
    pub a: &'a [T],
    /// A's leading dimension.
    pub lda: usize,
    /// B as stored (`k × n`, or `n × k` under a transpose).
    pub b: &'a [T],
    /// B's leading dimension.
    pub ldb: usize,
    /// β.
    pub beta: T,
    /// C before the call (`m × n`).
    pub c0: &'a [T],
    /// C's leading dimension.
    pub ldc: usize,
}

impl<T: Scalar> Gemm<'_, T> {
    /// op(X)(i, j) of a matrix stored with leading dimension `ld`.
    fn op_at(x: &[T], ld: usize, op: Op, i: usize, j: usize) -> Complex64 {
        match op {
            Op::N => x[i + j * ld].to_c64(),
            Op::T => x[j + i * ld].to_c64(),
            Op::C => x[j + i * ld].to_c64().conj(),
        }
    }

    /// C = α·op(A)·op(B) + β·C₀ in double precision, compact `m × n`.
    pub fn reference(&self) -> Vec<Complex64> {
        let (al, be) = (self.alpha.to_c64(), self.beta.to_c64());
        (0..self.m * self.n)
            .map(|e| {
                let (i, j) = (e % self.m, e / self.m);
                let s: Complex64 = (0..self.k).map(|l| Self::op_at(self.a, self.lda, self.ta, i, l) * Self::op_at(self.b, self.ldb, self.tb, l, j)).sum();
                if self.beta.is_zero() {
                    al * s
                } else {
                    al * s + be * self.c0[i + j * self.ldc].to_c64()
                }
            })
            .collect()
    }

    /// The denominator of the ratio: (k + 2)·(|α|·‖A‖_F·‖B‖_F + |β|·‖C₀‖_F)·ε, the norms over
    /// the stored operands.
    fn scale(&self) -> f64 {
        let fro = |x: &[T], rows: usize, cols: usize, ld: usize| (0..rows * cols).map(|e| x[e % rows + (e / rows) * ld].to_c64().norm_sqr()).sum::<f64>().sqrt();
        let ((ar, ac), (br, bc)) = (self.ta.stored(self.m, self.k), self.tb.stored(self.k, self.n));
        let nc = if self.beta.is_zero() { 0.0 } else { fro(self.c0, self.m, self.n, self.ldc) };
        (self.k as f64 + 2.0) * (self.alpha.to_c64().norm() * fro(self.a, ar, ac, self.lda) * fro(self.b, br, bc, self.ldb) + self.beta.to_c64().norm() * nc) * T::EPS
    }

    /// The error ratio of `c` (leading dimension `ldc`) against `want` (compact `m × n`: the
    /// [`reference`](Self::reference), or another backend's result); NaN when `c` has a NaN.
    pub fn ratio_to(&self, c: &[T], want: &[Complex64]) -> f64 {
        let diff: f64 = (0..self.m * self.n).map(|e| (c[e % self.m + (e / self.m) * self.ldc].to_c64() - want[e]).norm_sqr()).sum();
        ratio(diff.sqrt(), self.scale())
    }

    /// The error ratio of `c` against the reference.
    pub fn ratio(&self, c: &[T]) -> f64 {
        self.ratio_to(c, &self.reference())
    }

    /// The scale of the elementwise error bounds (the math modes', `numgpu_math_mode`):
    /// `|α|·(|op(A)|·|op(B)|)_ij + |β|·|C0_ij|`, moduli, compact `m × n`.
    pub fn abs_scale(&self) -> Vec<f64> {
        let (al, be) = (self.alpha.to_c64().norm(), self.beta.to_c64().norm());
        (0..self.m * self.n)
            .map(|e| {
                let (i, j) = (e % self.m, e / self.m);
                let s: f64 = (0..self.k).map(|l| Self::op_at(self.a, self.lda, self.ta, i, l).norm() * Self::op_at(self.b, self.ldb, self.tb, l, j).norm()).sum();
                let c0 = if self.beta.is_zero() { 0.0 } else { be * self.c0[i + j * self.ldc].to_c64().norm() };
                al * s + c0
            })
            .collect()
    }

    /// `c`'s elementwise errors against `want` (compact `m × n`, the reference) relative to
    /// `scale` (the [`abs_scale`](Self::abs_scale)): `|C − C_ref|_ij / scale_ij` (0/0 = 0,
    /// x/0 = ∞), as their largest value and their root mean square; NaN when `c` has a NaN.
    pub fn elementwise_to(&self, c: &[T], want: &[Complex64], scale: &[f64]) -> Elementwise {
        let errs: Vec<f64> = (0..self.m * self.n).map(|e| ratio((c[e % self.m + (e / self.m) * self.ldc].to_c64() - want[e]).norm(), scale[e])).collect();
        let count = errs.len().max(1) as f64;
        Elementwise { max: errs.iter().copied().fold(0.0, nan_max), rms: (errs.iter().map(|x| x * x).sum::<f64>() / count).sqrt() }
    }

    /// [`elementwise_to`](Self::elementwise_to) against the reference.
    pub fn elementwise(&self, c: &[T]) -> Elementwise {
        self.elementwise_to(c, &self.reference(), &self.abs_scale())
    }
}

/// Elementwise errors relative to `|α|·|op(A)|·|op(B)| + |β|·|C0|` (see
/// [`Gemm::elementwise_to`]): the unit of the math modes' bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elementwise {
    /// The largest; NaN when an element is NaN.
    pub max: f64,
    /// The root mean square.
    pub rms: f64,
}

impl Elementwise {
    /// The worse of two (the larger max and rms, NaN propagating): a batch's errors.
    pub fn worst(self, o: Elementwise) -> Elementwise {
        Elementwise { max: nan_max(self.max, o.max), rms: nan_max(self.rms, o.rms) }
    }
}
