//! The reference of the sparse products, shared by the spmv tests and the tour (`#[path]`):
//! `alpha·op(A)·x + beta·y0` in f64 arithmetic, and each entry's tolerance, the spec's per-row
//! bound `(len_i + 4)·ε·(|alpha|·(|A|·|x|)_i + |beta·y0_i|)` (len_i: the entries summed into
//! y_i; magnitudes in `|re| + |im|`, times 2 for complex arithmetic).

use numgpu::spmv::Csr;
use numgpu::{Complex64, Op, Scalar};

/// |re| + |im|: the magnitude the tolerance is in.
pub fn abs1(z: Complex64) -> f64 {
    z.re.abs() + z.im.abs()
}

/// `alpha·op(A)·x + beta·y0` in f64 and each entry's tolerance (see the module docs).
pub fn reference<T: Scalar>(trans: Op, alpha: T, a: &Csr<T>, x: &[T], beta: T, y0: &[T]) -> (Vec<Complex64>, Vec<f64>) {
    let ylen = if trans == Op::N { a.m } else { a.n };
    let (mut s, mut mag, mut len) = (vec![Complex64::new(0.0, 0.0); ylen], vec![0.0; ylen], vec![0usize; ylen]);
    for i in 0..a.m {
        for k in a.row(i) {
            let j = (a.col_ind[k] - a.base) as usize;
            let v = a.val[k].to_c64();
            let (v, xi, out) = match trans {
                Op::N => (v, x[j].to_c64(), i),
                Op::T => (v, x[i].to_c64(), j),
                Op::C => (v.conj(), x[i].to_c64(), j),
            };
            s[out] += v * xi;
            mag[out] += abs1(v) * abs1(xi);
            len[out] += 1;
        }
    }
    let (al, be) = (alpha.to_c64(), beta.to_c64());
    let factor = if T::IS_COMPLEX { 2.0 } else { 1.0 };
    let want = (0..ylen).map(|i| if beta.is_zero() { al * s[i] } else { al * s[i] + be * y0[i].to_c64() }).collect();
    let tol = (0..ylen)
        .map(|i| {
            let yb = if beta.is_zero() { 0.0 } else { abs1(be) * abs1(y0[i].to_c64()) };
            factor * (len[i] + 4) as f64 * T::EPS * (abs1(al) * mag[i] + yb)
        })
        .collect();
    (want, tol)
}
