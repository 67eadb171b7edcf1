//! The index tables of symmetric tensors of order m in dimension n, computed once per (m, n)
//! and shared by both backends (the CUDA kernels receive them as compile-time constants or as
//! device arrays).
//!
//! Unique entries are the nondecreasing index tuples i1 ≤ … ≤ im in lexicographic order; the
//! monomials x^k of degrees 0 … m − 1 are numbered degree by degree, each degree's in the same
//! order (monomial 0 is the constant 1), each one the product of its parent (the tuple
//! without its last index) and one variable. Then, with (m; k) = m!/(k1!···kn!):
//!
//! ```text
//! (A·x^{m−1})_j  = Σ_{μ of degree m−1} (m−1; μ)·a(μ + e_j)·x^μ
//! (A·x^{m−2})_jl = Σ_{ν of degree m−2} (m−2; ν)·a(ν + e_j + e_l)·x^ν
//! A·x^m          = xᵀ·(A·x^{m−1})
//! ```
//!
//! which needs no division by a component of x (one may be zero).

use crate::core::error::{Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Largest order supported.
pub(crate) const MAX_M: usize = 32;
/// Largest number of gradient terms (monomials of degree m − 1 times n) supported: the
/// tables stay a few tens of MB.
pub(crate) const MAX_TERMS: u128 = 1 << 22;

/// The tables of one (m, n).
#[derive(Debug)]
pub struct Tables {
    pub m: usize,
    pub n: usize,
    /// Unique entries, C(m + n − 1, m).
    pub u: usize,
    /// Parent of each monomial (0 for degree 1: the constant), monomial 0 included.
    pub parent: Vec<u32>,
    /// The variable each monomial multiplies its parent by (unused for monomial 0).
    pub var: Vec<u16>,
    /// First monomial of degree m − 1 and their count.
    pub grad_first: usize,
    pub ngrad: usize,
    /// (m − 1; μ) per monomial of degree m − 1.
    pub gw: Vec<f64>,
    /// Entry index of μ + e_j, `ngrad × n` (μ-major).
    pub gidx: Vec<u32>,
    /// First monomial of degree m − 2 and their count.
    pub hess_first: usize,
    pub nhess: usize,
    /// (m − 2; ν) per monomial of degree m − 2.
    pub hw: Vec<f64>,
    /// Entry index of ν + e_j + e_l for the pairs j ≤ l (row by row: (0,0), (0,1), …,
    /// (1,1), …), `nhess × n(n+1)/2`.
    pub hidx: Vec<u32>,
    /// (m; k): how often each unique entry appears in the full tensor.
    pub mult: Vec<f64>,
}

/// C(a, b), saturating.
pub fn binom(a: usize, b: usize) -> u128 {
    if b > a {
        return 0;
    }
    let b = b.min(a - b);
    let mut r: u128 = 1;
    for i in 0..b {
        r = r.saturating_mul((a - i) as u128) / (i + 1) as u128;
    }
    r
}

/// Number of unique entries of an order-m tensor in dimension n, C(m + n − 1, m).
pub fn unique_count(m: usize, n: usize) -> u128 {
    binom(m + n - 1, m)
}

/// `NOT_SUPPORTED` when the tables of (m, n) are beyond the limits (m ≥ 2 and n ≥ 1 checked
/// by the caller).
pub fn check_size(m: usize, n: usize) -> Result<()> {
    if m > MAX_M {
        return Err(Error::not_supported(format!("order m = {m} is above the largest supported, {MAX_M}")));
    }
    let terms = binom(m + n - 2, m - 1).saturating_mul(n as u128);
    if terms > MAX_TERMS || n > u16::MAX as usize {
        return Err(Error::not_supported(format!(
            "m = {m}, n = {n}: A·x^(m−1) has {terms} terms, above the supported {MAX_TERMS} (C(m+n−2, m−1)·n)"
        )));
    }
    Ok(())
}

/// Rank of the nondecreasing tuple `t` among those of its length over 0..n, in lexicographic
/// order.
fn rank(t: &[u16], n: usize) -> usize {
    let d = t.len();
    let mut r = 0u128;
    let mut lo = 0usize;
    for (p, &tp) in t.iter().enumerate() {
        let rest = d - p - 1;
        for v in lo..tp as usize {
            // Tuples of length `rest` over v..n.
            r += binom(n - v + rest - 1, rest);
        }
        lo = tp as usize;
    }
    r as usize
}

/// All nondecreasing tuples of length d over 0..n, in lexicographic order.
fn tuples(d: usize, n: usize) -> Vec<Vec<u16>> {
    let mut out = Vec::new();
    if d == 0 {
        out.push(Vec::new());
        return out;
    }
    let mut t = vec![0u16; d];
    loop {
        out.push(t.clone());
        // The last position that can still grow; the ones after it restart from its value.
        let Some(p) = (0..d).rev().find(|&p| (t[p] as usize) < n - 1) else { break };
        t[p] += 1;
        for q in p + 1..d {
            t[q] = t[p];
        }
    }
    out
}

/// (d; k) for the tuple's counts, as a product of binomials (exact below 2^53).
fn multinomial(t: &[u16]) -> f64 {
    let mut r = 1.0f64;
    let mut seen = 0usize;
    let mut i = 0;
    while i < t.len() {
        let mut c = 1;
        while i + c < t.len() && t[i + c] == t[i] {
            c += 1;
        }
        seen += c;
        r *= binom(seen, c) as f64;
        i += c;
    }
    r
}

/// `t` with `extra` merged in, sorted.
fn with(t: &[u16], extra: &[u16]) -> Vec<u16> {
    let mut v: Vec<u16> = t.iter().chain(extra).copied().collect();
    v.sort_unstable();
    v
}

impl Tables {
    fn build(m: usize, n: usize) -> Tables {
        let mut parent = vec![0u32];
        let mut var = vec![0u16];
        let mut first = vec![0usize];
        let mut deg_tuples = vec![vec![Vec::new()]];
        for d in 1..m {
            first.push(parent.len());
            let ts = tuples(d, n);
            for t in &ts {
                parent.push((first[d - 1] + rank(&t[..d - 1], n)) as u32);
                var.push(t[d - 1]);
            }
            deg_tuples.push(ts);
        }
        let (gd, hd) = (m - 1, m - 2);
        let mut gw = Vec::new();
        let mut gidx = Vec::new();
        for mu in &deg_tuples[gd] {
            gw.push(multinomial(mu));
            gidx.extend((0..n as u16).map(|j| rank(&with(mu, &[j]), n) as u32));
        }
        let mut hw = Vec::new();
        let mut hidx = Vec::new();
        for nu in &deg_tuples[hd] {
            hw.push(multinomial(nu));
            for j in 0..n as u16 {
                hidx.extend((j..n as u16).map(|l| rank(&with(nu, &[j, l]), n) as u32));
            }
        }
        let mult = tuples(m, n).iter().map(|t| multinomial(t)).collect::<Vec<_>>();
        Tables {
            m,
            n,
            u: mult.len(),
            grad_first: first[gd],
            ngrad: deg_tuples[gd].len(),
            hess_first: first[hd],
            nhess: deg_tuples[hd].len(),
            parent,
            var,
            gw,
            gidx,
            hw,
            hidx,
            mult,
        }
    }

    /// Monomials of degrees 0 … m − 1.
    pub fn nmono(&self) -> usize {
        self.parent.len()
    }

    /// Pairs j ≤ l of the Hessian, n(n+1)/2.
    pub fn npair(&self) -> usize {
        self.n * (self.n + 1) / 2
    }

    /// Index of the unique entry holding a(i1, …, im) (any order of the indices).
    pub fn entry(&self, idx: &[u16]) -> usize {
        rank(&with(idx, &[]), self.n)
    }
}

/// The tables of (m, n), built on first use (check [`check_size`] first).
pub fn tables(m: usize, n: usize) -> Arc<Tables> {
    type Cache = Mutex<HashMap<(usize, usize), Arc<Tables>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(t) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&(m, n)) {
        return t.clone();
    }
    // Built outside the lock: a race builds the same tables twice, harmlessly.
    let t = Arc::new(Tables::build(m, n));
    cache.lock().unwrap_or_else(|e| e.into_inner()).entry((m, n)).or_insert(t).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's order for m = 4, n = 3 (1111, 1112, …, 3333) and its multiplicities.
    #[test]
    fn order_and_multiplicities_m4_n3() {
        let t = tables(4, 3);
        assert_eq!(t.u, 15);
        let ts = tuples(4, 3);
        let names: Vec<String> = ts.iter().map(|t| t.iter().map(|i| (b'1' + *i as u8) as char).collect()).collect();
        assert_eq!(names, ["1111", "1112", "1113", "1122", "1123", "1133", "1222", "1223", "1233", "1333", "2222", "2223", "2233", "2333", "3333"]);
        assert_eq!(t.mult, [1.0, 4.0, 4.0, 6.0, 12.0, 6.0, 4.0, 12.0, 12.0, 4.0, 1.0, 4.0, 6.0, 4.0, 1.0]);
        for (k, tu) in ts.iter().enumerate() {
            assert_eq!(rank(tu, 3), k);
        }
        // Degrees 0..3: 1 + 3 + 6 + 10 monomials; 10 gradient monomials, 6 Hessian ones.
        assert_eq!((t.nmono(), t.ngrad, t.grad_first, t.nhess, t.hess_first), (20, 10, 10, 6, 4));
        // Figure 6.1 of the paper: y1's coefficients 1, 3, 3, 3, 6, 3, 1, 3, 3, 1 on entries
        // 0..9.
        let y1: Vec<(f64, u32)> = (0..10).map(|q| (t.gw[q], t.gidx[q * 3])).collect();
        assert_eq!(y1, [(1.0, 0), (3.0, 1), (3.0, 2), (3.0, 3), (6.0, 4), (3.0, 5), (1.0, 6), (3.0, 7), (3.0, 8), (1.0, 9)]);
    }

    /// Every (m, n) of a grid: the counts are the binomials, the multiplicities sum to n^m, and
    /// the parents reproduce each monomial.
    #[test]
    fn counts_and_parents() {
        for m in 2..=7 {
            for n in 1..=5 {
                let t = tables(m, n);
                assert_eq!(t.u as u128, unique_count(m, n));
                assert_eq!(t.ngrad as u128, binom(m + n - 2, m - 1));
                assert_eq!(t.nhess as u128, binom(m + n - 3, m - 2));
                assert_eq!(t.mult.iter().sum::<f64>(), (n as f64).powi(m as i32));
                let total_g: f64 = t.gw.iter().sum();
                assert_eq!(total_g, (n as f64).powi(m as i32 - 1));
                assert!(t.parent.iter().enumerate().skip(1).all(|(k, &p)| (p as usize) < k));
            }
        }
        assert!(check_size(12, 9).is_ok() && check_size(7, 16).is_ok() && check_size(12, 16).is_err() && check_size(33, 1).is_err());
    }
}
