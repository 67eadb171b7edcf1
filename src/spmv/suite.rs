//! Generators of the SpMV benchmark suite (spec `spmv.md`, after Williams et al. and Bell &
//! Garland): stencils, FEM-like rows, short random rows, power-law rows (R-MAT) and dense-ish
//! rows, each in natural order or randomly permuted. Shared by the tests, the tour and
//! numgpu-bench. Deterministic for a seed; values are f64 (convert with [`Csr::map`]).

use super::Csr;

/// SplitMix64: a small, seedable generator, so the library needs no RNG dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [0, n).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f64 {
        2.0 * self.unit() - 1.0
    }
}

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
    pub const ALL: [Kind; 7] = [Kind::Stencil5, Kind::Stencil7, Kind::Stencil27, Kind::Fem, Kind::Short, Kind::PowerLaw, Kind::DenseRows];

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
fn random_rows(m: usize, n: usize, lo: usize, hi: usize, seed: u64, pick: impl Fn(usize, &mut Rng) -> usize) -> Csr<f64> {
    let mut r = Rng::new(seed);
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
    let mut r = Rng::new(seed);
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
    let mut r = Rng::new(seed);
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
