//! Sparse matrices (spmv: csrmv and CMRS): the SpMV benchmark suite's generators (spec
//! `spmv.md`, after Williams et al. and Bell & Garland: stencils, FEM-like rows, short random
//! rows, power-law rows (R-MAT) and dense-ish rows, each in natural order or randomly
//! permuted; deterministic for a seed, values f64), the Matrix Market files of
//! shared/matrices (read by sprs, which expands symmetric and skew-symmetric storage), random
//! patterns and values, and the reference of the products: `alpha·op(A)·x + beta·y0`, its
//! sums as accurate as in twice double precision, with each entry's tolerance, the spec's
//! per-row bound `(len_i + 4)·ε·(|alpha|·(|A|·|x|)_i + |beta·y0_i|)` (len_i: the entries
//! summed into y_i; magnitudes in `|re| + |im|`, times 2 for complex arithmetic).

use super::gen::{random, rng, SplitMix};
use super::norm::{nan_max, ratio};
use crate::spmv::Csr;
use crate::{Complex64, Op, Scalar};
use rand::Rng;
use std::path::{Path, PathBuf};

/// Builds a CSR matrix row by row.
struct Rows {
    a: Csr<f64>,
}

impl Rows {
    fn new(m: usize, n: usize, nnz_hint: usize) -> Rows {
        let mut row_ptr = Vec::with_capacity(m + 1);
        row_ptr.push(0);
        Rows { a: Csr { m, n, row_ptr, col_ind: Vec::with_capacity(nnz_hint), val: Vec::with_capacity(nnz_hint), base: 0 } }
    }
    fn push(&mut self, col: usize, v: f64) {
        self.a.col_ind.push(col as i32);
        self.a.val.push(v);
    }
    fn end_row(&mut self) {
        self.a.row_ptr.push(self.a.col_ind.len() as i32);
    }
    fn done(self) -> Csr<f64> {
        assert_eq!(self.a.row_ptr.len(), self.a.m + 1);
        self.a
    }
}

/// The classes of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 2-D 5-point Laplacian on a k × k grid.
    Stencil5,
    /// 3-D 7-point Laplacian on a k³ grid.
    Stencil7,
    /// 3-D 27-point stencil on a k³ grid.
    Stencil27,
    /// FEM-like: rows of 54–66 entries (mean 60) in a band around the diagonal.
    Fem,
    /// Short random rows: 4–6 entries (mean 5) at uniformly random columns.
    Short,
    /// Power-law rows: an R-MAT graph (a, b, c, d) = (0.57, 0.19, 0.19, 0.05), 16 edges per row
    /// on average, duplicates kept as separate entries.
    PowerLaw,
    /// Dense-ish rows: 1500–2500 entries (mean 2000) at random columns of a matrix 16 times
    /// wider than tall.
    DenseRows,
}

impl Kind {
    /// Every class, in the suite's order.
    pub const ALL: [Kind; 7] = [Kind::Stencil5, Kind::Stencil7, Kind::Stencil27, Kind::Fem, Kind::Short, Kind::PowerLaw, Kind::DenseRows];

    /// The class's name in the suite (`stencil3d-7pt`, ...); `<name>-perm` for its permuted
    /// form.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Stencil5 => "stencil2d-5pt",
            Kind::Stencil7 => "stencil3d-7pt",
            Kind::Stencil27 => "stencil3d-27pt",
            Kind::Fem => "fem-like",
            Kind::Short => "short-rows",
            Kind::PowerLaw => "power-law",
            Kind::DenseRows => "dense-rows",
        }
    }
}

/// A Laplacian-like stencil on a `k^dim` grid: the neighbours within distance 1 in each axis
/// (`full`: the whole 3^dim cube, else only along the axes), value −1, the diagonal the count
/// of neighbours. Natural (lexicographic) order, columns ascending.
fn stencil(k: usize, dim: u32, full: bool) -> Csr<f64> {
    let m = k.pow(dim);
    let per = if full { 3usize.pow(dim) } else { 2 * dim as usize + 1 };
    let mut rows = Rows::new(m, m, m * per);
    let offsets: Vec<[i64; 3]> = (0..27)
        .map(|t| [t % 3 - 1, (t / 3) % 3 - 1, t / 9 - 1])
        .filter(|o| (dim == 3 || o[2] == 0) && (full || o.iter().filter(|&&d| d != 0).count() <= 1))
        .collect();
    // Sorted by the column they reach: z slowest, then y, then x.
    for i in 0..m {
        let c = [(i % k) as i64, ((i / k) % k) as i64, (i / (k * k)) as i64];
        let mut count = 0.0;
        let start = rows.a.col_ind.len();
        for o in &offsets {
            let p = [c[0] + o[0], c[1] + o[1], c[2] + o[2]];
            if p.iter().all(|&v| 0 <= v && v < k as i64) && *o != [0, 0, 0] {
                rows.push((p[0] + p[1] * k as i64 + p[2] * (k * k) as i64) as usize, -1.0);
                count += 1.0;
            } else if *o == [0, 0, 0] {
                rows.push(i, 0.0);
            }
        }
        let diag = start + rows.a.col_ind[start..].iter().position(|&j| j as usize == i).expect("the diagonal is pushed");
        rows.a.val[diag] = count;
        rows.end_row();
    }
    rows.done()
}

/// Rows of `lo..=hi` distinct random columns drawn from `pick(row, rng)`, sorted, values in
/// [-1, 1).
fn random_rows(m: usize, n: usize, lo: usize, hi: usize, seed: u64, pick: impl Fn(usize, &mut SplitMix) -> usize) -> Csr<f64> {
    let mut r = SplitMix::new(seed);
    let mut rows = Rows::new(m, n, m * (lo + hi) / 2);
    let mut cols = Vec::new();
    for i in 0..m {
        let len = (lo + r.below(hi - lo + 1)).min(n);
        cols.clear();
        while cols.len() < len {
            let c = pick(i, &mut r);
            if !cols.contains(&c) {
                cols.push(c);
            }
        }
        cols.sort_unstable();
        for &c in &cols {
            rows.push(c, r.signed());
        }
        rows.end_row();
    }
    rows.done()
}

/// An R-MAT graph with `2^scale` vertices and `edges` edges as a CSR matrix (entries of a
/// row in the order generated).
fn rmat(scale: u32, edges: usize, seed: u64) -> Csr<f64> {
    let n = 1usize << scale;
    let mut r = SplitMix::new(seed);
    let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(edges);
    for _ in 0..edges {
        let (mut i, mut j) = (0usize, 0usize);
        for _ in 0..scale {
            let p = r.unit();
            let (di, dj) = if p < 0.57 {
                (0, 0)
            } else if p < 0.76 {
                (0, 1)
            } else if p < 0.95 {
                (1, 0)
            } else {
                (1, 1)
            };
            i = 2 * i + di;
            j = 2 * j + dj;
        }
        pairs.push((i as u32, j as u32));
    }
    let mut row_ptr = vec![0i32; n + 1];
    for &(i, _) in &pairs {
        row_ptr[i as usize + 1] += 1;
    }
    for i in 0..n {
        row_ptr[i + 1] += row_ptr[i];
    }
    let mut next = row_ptr.clone();
    let mut col_ind = vec![0i32; edges];
    let mut val = vec![0.0; edges];
    for &(i, j) in &pairs {
        let k = next[i as usize] as usize;
        next[i as usize] += 1;
        col_ind[k] = j as i32;
        val[k] = r.signed();
    }
    Csr { m: n, n, row_ptr, col_ind, val, base: 0 }
}

/// A matrix of `kind` with about `nnz` entries, natural order.
pub fn generate(kind: Kind, nnz: usize, seed: u64) -> Csr<f64> {
    let root = |per: usize, dim: f64| ((nnz as f64 / per as f64).powf(1.0 / dim).round() as usize).max(2);
    match kind {
        Kind::Stencil5 => stencil(root(5, 2.0), 2, false),
        Kind::Stencil7 => stencil(root(7, 3.0), 3, false),
        Kind::Stencil27 => stencil(root(27, 3.0), 3, true),
        Kind::Fem => {
            let m = (nnz / 60).max(70);
            let band = 1000.min(m);
            random_rows(m, m, 54, 66, seed, move |i, r| (i + m - band / 2 + r.below(band)) % m)
        }
        Kind::Short => {
            let m = (nnz / 5).max(8);
            random_rows(m, m, 4, 6, seed, move |_, r| r.below(m))
        }
        Kind::PowerLaw => {
            let scale = ((nnz / 16).max(2) as f64).log2().round() as u32;
            rmat(scale, nnz, seed)
        }
        Kind::DenseRows => {
            let m = (nnz / 2000).max(1);
            let n = (16 * m).max(2500);
            random_rows(m, n, 1500, 2500, seed, move |_, r| r.below(n))
        }
    }
}

/// `P·A·Qᵀ` for random permutations P of the rows and Q of the columns (Q = P when A is
/// square: a symmetric renumbering), each row's columns sorted again.
pub fn permuted(a: &Csr<f64>, seed: u64) -> Csr<f64> {
    let mut r = SplitMix::new(seed);
    let mut shuffle = |n: usize| -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            p.swap(i, r.below(i + 1));
        }
        p
    };
    let p = shuffle(a.m);
    let q = if a.m == a.n { p.clone() } else { shuffle(a.n) };
    // Row p[i] of the result is row i of A.
    let mut from = vec![0usize; a.m];
    for (i, &pi) in p.iter().enumerate() {
        from[pi] = i;
    }
    let mut rows = Rows::new(a.m, a.n, a.nnz());
    let mut entries: Vec<(usize, f64)> = Vec::new();
    for &i in &from {
        entries.clear();
        entries.extend(a.row(i).map(|k| (q[(a.col_ind[k] - a.base) as usize], a.val[k])));
        entries.sort_by_key(|e| e.0);
        for &(c, v) in &entries {
            rows.push(c, v);
        }
        rows.end_row();
    }
    rows.done()
}

/// The whole suite at about `nnz` entries per matrix: every kind in natural and in permuted
/// order, named `<kind>` and `<kind>-perm`.
pub fn benchmark_suite(nnz: usize) -> Vec<(String, Csr<f64>)> {
    let mut out = Vec::new();
    for (s, kind) in Kind::ALL.into_iter().enumerate() {
        let a = generate(kind, nnz, 1000 + s as u64);
        let p = permuted(&a, 2000 + s as u64);
        out.push((kind.name().to_string(), a));
        out.push((format!("{}-perm", kind.name()), p));
    }
    out
}


/// The real matrix in `path`, 0-based CSR, each row's entries in file order.
pub fn read(path: &Path) -> Result<Csr<f64>, String> {
    let tri: sprs::TriMat<f64> = sprs::io::read_matrix_market(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (m, n) = tri.shape();
    let triplets: Vec<(usize, usize, f64)> = tri.triplet_iter().map(|(v, (r, c))| (r, c, *v)).collect();
    Ok(Csr::from_triplets(m, n, &triplets))
}

/// The `.mtx` files of `shared/matrices` (`$NUMGPU_MATRICES`, else the repository's copy in
/// `tests/matrices`), sorted by name, or why there are none.
pub fn shared_matrices() -> Result<Vec<PathBuf>, String> {
    let dir = std::env::var_os("NUMGPU_MATRICES").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/matrices"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e} (set NUMGPU_MATRICES to a folder of .mtx files)", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mtx"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{} holds no .mtx file", dir.display()));
    }
    Ok(files)
}

/// The file `<name>.mtx` of [`shared_matrices`].
pub fn shared_matrix(name: &str) -> Result<Csr<f64>, String> {
    let files = shared_matrices()?;
    let file = files.iter().find(|f| f.file_stem().is_some_and(|s| s == name)).ok_or_else(|| format!("{name}.mtx is not in the shared matrices"))?;
    read(file)
}

/// A random `m × n` pattern with row lengths `len(row)` (columns uniform, so in random order
/// and with duplicates possible), values 1.
pub fn pattern(m: usize, n: usize, seed: u64, len: impl Fn(usize) -> usize) -> Csr<f64> {
    let mut r = rng(seed);
    let mut t = Vec::new();
    for i in 0..m {
        for _ in 0..len(i) {
            t.push((i, r.gen_range(0..n), 1.0));
        }
    }
    Csr::from_triplets(m, n, &t)
}

/// `a`'s pattern with values of T: the f64 values themselves (imaginary part v/2 for complex
/// types, so that op C differs from op T).
pub fn cast<T: Scalar>(a: &Csr<f64>) -> Csr<T> {
    a.map(|v| T::from_c64(Complex64::new(v, if T::IS_COMPLEX { v / 2.0 } else { 0.0 })))
}

/// `a`'s pattern with random values in [-1, 1) (both parts).
pub fn revalue<T: Scalar>(a: &Csr<f64>, seed: u64) -> Csr<T> {
    Csr { val: random::<T>(&mut rng(seed), a.nnz(), 1.0), ..cast::<T>(a) }
}

/// |re| + |im|: the magnitude the tolerances are in.
pub fn abs1(z: Complex64) -> f64 {
    z.re.abs() + z.im.abs()
}

/// A sum of products as accurate as if computed in twice double precision (Ogita, Rump and
/// Oishi's Dot2: each product split exactly by a fused multiply-add, each sum by TwoSum).
#[derive(Clone, Copy, Default)]
struct Dot2 {
    sum: f64,
    err: f64,
}

impl Dot2 {
    fn add(&mut self, a: f64, b: f64) {
        let p = a * b;
        let pe = a.mul_add(b, -p);
        let s = self.sum + p;
        let z = s - self.sum;
        self.err += (self.sum - (s - z)) + (p - z) + pe;
        self.sum = s;
    }
    fn value(self) -> f64 {
        self.sum + self.err
    }
}

/// `alpha·op(A)·x + beta·y0` (y0 not read when beta = 0) and each entry's tolerance (see the
/// module docs).
pub fn reference<T: Scalar>(trans: Op, alpha: T, a: &Csr<T>, x: &[T], beta: T, y0: &[T]) -> (Vec<Complex64>, Vec<f64>) {
    let ylen = if trans == Op::N { a.m } else { a.n };
    let (mut re, mut im, mut mag, mut len) = (vec![Dot2::default(); ylen], vec![Dot2::default(); ylen], vec![0.0; ylen], vec![0usize; ylen]);
    for i in 0..a.m {
        for k in a.row(i) {
            let j = (a.col_ind[k] - a.base) as usize;
            let v = a.val[k].to_c64();
            let (v, xi, out) = match trans {
                Op::N => (v, x[j].to_c64(), i),
                Op::T => (v, x[i].to_c64(), j),
                Op::C => (v.conj(), x[i].to_c64(), j),
            };
            re[out].add(v.re, xi.re);
            re[out].add(-v.im, xi.im);
            im[out].add(v.re, xi.im);
            im[out].add(v.im, xi.re);
            mag[out] += abs1(v) * abs1(xi);
            len[out] += 1;
        }
    }
    let (al, be) = (alpha.to_c64(), beta.to_c64());
    let factor = if T::IS_COMPLEX { 2.0 } else { 1.0 };
    let want = (0..ylen)
        .map(|i| {
            let s = Complex64::new(re[i].value(), im[i].value());
            if beta.is_zero() {
                al * s
            } else {
                al * s + be * y0[i].to_c64()
            }
        })
        .collect();
    let tol = (0..ylen)
        .map(|i| {
            let yb = if beta.is_zero() { 0.0 } else { abs1(be) * abs1(y0[i].to_c64()) };
            factor * (len[i] + 4) as f64 * T::EPS * (abs1(al) * mag[i] + yb)
        })
        .collect();
    (want, tol)
}

/// The largest |got_i − want_i| / tol_i (in |re| + |im|): at most 1 for a correct product; NaN
/// when a got_i is NaN; a tolerance of 0 (a row of zero terms) admits only an exact 0.
pub fn error_ratio<T: Scalar>(got: &[T], want: &[Complex64], tol: &[f64]) -> f64 {
    got.iter().zip(want).zip(tol).map(|((g, w), t)| ratio(abs1(g.to_c64() - w), *t)).fold(0.0, nan_max)
}

/// Asserts that `got` is the product the arguments describe: within the tolerance where the
/// reference is finite, not finite where it is not; `what` names the call in the message.
#[allow(clippy::too_many_arguments)]
pub fn check<T: Scalar>(what: &str, trans: Op, alpha: T, a: &Csr<T>, x: &[T], beta: T, y0: &[T], got: &[T]) {
    let (want, tol) = reference(trans, alpha, a, x, beta, y0);
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let g = g.to_c64();
        if w.re.is_finite() && w.im.is_finite() {
            let err = abs1(g - w);
            assert!(err <= tol[i], "{what}: y[{i}] = {g}, want {w} (error {err:.3e} > tolerance {:.3e})", tol[i]);
        } else {
            assert!(!(g.re.is_finite() && g.im.is_finite()), "{what}: y[{i}] = {g} is finite, the reference {w} is not");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stencils_have_the_laplacian_row_sums_and_lengths() {
        let a = generate(Kind::Stencil7, 7 * 1000, 0);
        assert_eq!(a.m, 1000);
        let interior = 1 + 10 + 100;
        assert_eq!(a.row(interior).len(), 7);
        for i in 0..a.m {
            let s: f64 = a.row(i).map(|k| a.val[k]).sum();
            assert_eq!(s, 0.0, "row {i}");
        }
        assert_eq!(generate(Kind::Stencil27, 27 * 1000, 0).row(interior).len(), 27);
        assert_eq!(generate(Kind::Stencil5, 5 * 100, 0).nnz(), 5 * 100 - 4 * 10);
    }

    #[test]
    fn classes_have_their_row_lengths_and_permutation_keeps_entries() {
        for (kind, lo, hi) in [(Kind::Fem, 54, 66), (Kind::Short, 4, 6), (Kind::DenseRows, 1500, 2500)] {
            let a = generate(kind, 200_000, 3);
            assert!((0..a.m).all(|i| (lo..=hi).contains(&a.row(i).len())), "{kind:?}");
            let p = permuted(&a, 4);
            assert_eq!(p.nnz(), a.nnz());
            let mut s: Vec<f64> = a.val.clone();
            let mut t: Vec<f64> = p.val.clone();
            s.sort_by(f64::total_cmp);
            t.sort_by(f64::total_cmp);
            assert_eq!(s, t, "{kind:?}: permuted values differ");
        }
        let g = generate(Kind::PowerLaw, 1 << 16, 5);
        let longest = (0..g.m).map(|i| g.row(i).len()).max().unwrap();
        assert!(longest > 50 * g.nnz() / g.m, "R-MAT's longest row {longest} is not heavy-tailed");
    }
}
