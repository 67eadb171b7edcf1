//! A strided batch of matrices as the batched routines take it: `rows × cols` column-major
//! matrices with leading dimension `ld >= rows`, matrix i at `i·stride`. What lies between
//! (padding rows, gaps between matrices) belongs to no matrix: the checks fill it with NaN and
//! demand it back unchanged.

use super::norm::same;
use crate::Scalar;

/// The layout of one strided batch (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Rows of each matrix.
    pub rows: usize,
    /// Columns of each matrix.
    pub cols: usize,
    /// Leading dimension, >= rows.
    pub ld: usize,
    /// Elements from one matrix's start to the next's, >= ld·cols.
    pub stride: usize,
    /// Matrices.
    pub count: usize,
}

impl Layout {
    /// `count` matrices with `pad` rows of padding (ld = max(1, rows) + pad) and `gap`
    /// elements between one matrix's last column and the next matrix.
    pub fn padded(rows: usize, cols: usize, count: usize, pad: usize, gap: usize) -> Layout {
        let ld = rows.max(1) + pad;
        Layout { rows, cols, ld, stride: ld * cols + gap, count }
    }

    /// Elements of the whole array.
    pub fn len(&self) -> usize {
        self.stride * self.count
    }

    /// Whether the array holds no matrix.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether element `k` of the array belongs to a matrix.
    pub fn holds(&self, k: usize) -> bool {
        let r = k % self.stride;
        r < self.ld * self.cols && r % self.ld < self.rows
    }

    /// Matrix `i` of `v`, compact (leading dimension `rows`).
    pub fn get<T: Copy>(&self, v: &[T], i: usize) -> Vec<T> {
        (0..self.rows * self.cols).map(|e| v[i * self.stride + e % self.rows + (e / self.rows) * self.ld]).collect()
    }

    /// Writes the compact matrix `m` as matrix `i` of `v`.
    pub fn put<T: Copy>(&self, v: &mut [T], i: usize, m: &[T]) {
        for (e, &x) in m.iter().enumerate().take(self.rows * self.cols) {
            v[i * self.stride + e % self.rows + (e / self.rows) * self.ld] = x;
        }
    }

    /// Whether `after` equals `before` (NaN equal to NaN) everywhere outside the matrices.
    pub fn outside_unchanged<T: Scalar>(&self, after: &[T], before: &[T]) -> bool {
        after.len() == before.len() && (0..after.len()).filter(|&k| !self.holds(k)).all(|k| same(after[k], before[k]))
    }
}
