//! Norms in double precision, the ratio of a test measure, NaN-propagating maxima, and the
//! "unchanged" comparisons of outputs that must not be written.

use crate::{Complex64, Scalar};

/// Every entry in double precision.
pub fn c64s<T: Scalar>(x: &[T]) -> Vec<Complex64> {
    x.iter().map(|v| v.to_c64()).collect()
}

/// ‖x‖₁ of a vector.
pub fn norm1(x: &[Complex64]) -> f64 {
    x.iter().map(|z| z.norm()).sum()
}

/// ‖x‖₂ of a vector (or the Frobenius norm of a matrix's entries).
pub fn norm2(x: &[Complex64]) -> f64 {
    x.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt()
}

/// ‖x‖∞ of a vector; NaN when an entry is NaN.
pub fn norm_inf(x: &[Complex64]) -> f64 {
    x.iter().map(|z| z.norm()).fold(0.0, nan_max)
}

/// ‖A‖₁ (the largest column sum) of the compact column-major `rows × cols` matrix `a`.
pub fn norm1_matrix(a: &[Complex64], rows: usize, cols: usize) -> f64 {
    (0..cols).map(|j| norm1(&a[j * rows..(j + 1) * rows])).fold(0.0, f64::max)
}

/// `num / den` of a test ratio, where den = 0 means "only 0 is exact" (0 for num = 0, else
/// +∞); NaN stays NaN.
pub fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        num / den
    } else if num == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// The larger of x and y, NaN when either is: the worst ratio of a batch, where one NaN must
/// fail the check.
pub fn nan_max(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.max(y)
    }
}

/// Bitwise equality, NaN equal to NaN (whatever its payload): for outputs that must come
/// back unchanged.
pub fn same<T: Scalar>(x: T, y: T) -> bool {
    let (a, b) = (x.to_c64(), y.to_c64());
    let eq = |p: f64, q: f64| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan());
    eq(a.re, b.re) && eq(a.im, b.im)
}

/// [`same`] for every entry, and the same length.
pub fn unchanged<T: Scalar>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(*x, *y))
}
