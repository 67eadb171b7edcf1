//! LiFE connectomes (the `life` family): synthetic Φ tensors with the seed's shapes, random
//! dictionaries, the dense M they define, the products and the NNLS references on it.
//!
//! A synthetic fibre walks through voxels with a small stride (streamlines are spatially
//! coherent, so a fibre's voxels are near each other in a scan order) and takes, in each, an
//! atom that drifts slowly along the fibre (its orientation changes little from voxel to
//! voxel); values are 1 (LiFE's binary Φ). Entries come out fibre by fibre, as tractography
//! writes them.

use super::gen::{splitmix, SplitMix};
use crate::life::Coo;
use rayon::prelude::*;

/// The sizes of a synthetic connectome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Diffusion directions Nθ.
    pub ntheta: usize,
    /// Dictionary atoms Na.
    pub natoms: usize,
    /// Voxels Nv.
    pub nvoxels: usize,
    /// Fibres Nf.
    pub nfibers: usize,
    /// Mean voxels a fibre crosses (its entries; each fibre takes 1 to twice this many).
    pub per_fibre: usize,
}

/// Bytes per Φ entry in the seed's sizes: MATLAB's sparse tensor, three double subscripts and
/// a double value.
pub const SEED_BYTES_PER_ENTRY: usize = 32;

/// Dictionary atoms of the synthetic connectomes of the seed's sizes (ENCODE's dictionaries
/// are a few thousand orientations; D then stays in the GPU's L2).
pub const SEED_ATOMS: usize = 4000;

impl Shape {
    /// A connectome with `nfibers` fibres over `nvoxels` voxels whose Φ takes `phi_bytes` in
    /// the seed's storage ([`SEED_BYTES_PER_ENTRY`]), Nθ = 96.
    pub fn seed(nfibers: usize, nvoxels: usize, phi_bytes: f64) -> Shape {
        let nnz = phi_bytes / SEED_BYTES_PER_ENTRY as f64;
        Shape { ntheta: 96, natoms: SEED_ATOMS, nvoxels, nfibers, per_fibre: (nnz / nfibers as f64).round().max(1.0) as usize }
    }
}

/// Fibre f's entries (0-based atom, voxel, fibre).
fn fibre(s: &Shape, seed: u64, f: usize, out: &mut Vec<(i32, i32, i32)>) {
    let mut r = SplitMix::new(splitmix(seed ^ (f as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)));
    let len = 1 + r.below(2 * s.per_fibre.max(1));
    let stride = 1 + r.below(8);
    let mut v = r.below(s.nvoxels);
    let mut a = r.below(s.natoms);
    for _ in 0..len {
        out.push((a as i32, v as i32, f as i32));
        v = (v + stride + r.below(3)) % s.nvoxels;
        if r.below(4) == 0 {
            a = (a + 1 + r.below(3)) % s.natoms;
        }
    }
}

/// A synthetic connectome of shape `s` (every mode non-empty), indices of base `base`.
pub fn connectome(s: &Shape, seed: u64, base: i32) -> Coo {
    assert!(s.natoms > 0 && s.nvoxels > 0, "a fibre needs atoms and voxels: {s:?}");
    let chunks: Vec<Vec<(i32, i32, i32)>> = (0..s.nfibers)
        .into_par_iter()
        .chunks(4096)
        .map(|fs| {
            let mut out = Vec::new();
            fs.into_iter().for_each(|f| fibre(s, seed, f, &mut out));
            out
        })
        .collect();
    let nnz = chunks.iter().map(Vec::len).sum();
    let mut c = Coo { ntheta: s.ntheta, natoms: s.natoms, nvoxels: s.nvoxels, nfibers: s.nfibers, atoms: Vec::with_capacity(nnz), voxels: Vec::with_capacity(nnz), fibers: Vec::with_capacity(nnz), values: vec![1.0; nnz], base };
    for (a, v, f) in chunks.into_iter().flatten() {
        c.atoms.push(a + base);
        c.voxels.push(v + base);
        c.fibers.push(f + base);
    }
    c
}

/// A dictionary of Nθ × Na entries with leading dimension `ldd` (padding NaN, which no
/// routine may read): entries in [0, 1) (diffusion signals are positive).
pub fn dictionary(ntheta: usize, natoms: usize, ldd: usize, seed: u64) -> Vec<f64> {
    let mut r = SplitMix::new(seed);
    let mut d = vec![f64::NAN; ldd * natoms];
    for a in 0..natoms {
        for t in 0..ntheta {
            d[t + a * ldd] = r.unit();
        }
    }
    d
}

/// `rows × cols` random entries in [−1, 1) with leading dimension `ld` (padding NaN).
pub fn signal(rows: usize, cols: usize, ld: usize, seed: u64) -> Vec<f64> {
    let mut r = SplitMix::new(seed);
    let mut y = vec![f64::NAN; ld * cols];
    for c in 0..cols {
        for t in 0..rows {
            y[t + c * ld] = r.signed();
        }
    }
    y
}

/// The dense M = Φ ×₁ D, (Nθ·Nv) × Nf column-major (row θ + v·Nθ), of a small COO.
pub fn dense_m(c: &Coo, d: &[f64], ldd: usize) -> Vec<f64> {
    let rows = c.ntheta * c.nvoxels;
    let mut m = vec![0.0; rows * c.nfibers];
    for k in 0..c.nnz() {
        let (a, v, f) = ((c.atoms[k] - c.base) as usize, (c.voxels[k] - c.base) as usize, (c.fibers[k] - c.base) as usize);
        for t in 0..c.ntheta {
            m[t + v * c.ntheta + f * rows] += c.values[k] * d[t + a * ldd];
        }
    }
    m
}

/// M·w for a dense M of `rows` rows.
pub fn dense_mv(m: &[f64], rows: usize, w: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; rows];
    for (f, &wf) in w.iter().enumerate() {
        y.iter_mut().zip(&m[f * rows..(f + 1) * rows]).for_each(|(yi, &mi)| *yi += mi * wf);
    }
    y
}

/// Mᵀ·y for a dense M of `rows` rows and `cols` columns (rows may be 0).
pub fn dense_mtv(m: &[f64], rows: usize, cols: usize, y: &[f64]) -> Vec<f64> {
    (0..cols).map(|f| m[f * rows..(f + 1) * rows].iter().zip(y).map(|(a, b)| a * b).sum()).collect()
}

/// ½‖M·w − b‖² for a dense M (b compact, `rows` entries).
pub fn objective(m: &[f64], rows: usize, b: &[f64], w: &[f64]) -> f64 {
    0.5 * dense_mv(m, rows, w).iter().zip(b).map(|(y, b)| (y - b) * (y - b)).sum::<f64>()
}

/// The NNLS reference: plain projected gradient w := max(w − g/L, 0) from w = 0 with L ≥
/// ‖MᵀM‖₂ (a power iteration's estimate, doubled), `iters` iterations; monotone, converging
/// to the minimiser.
pub fn projected_gradient(m: &[f64], rows: usize, b: &[f64], iters: usize) -> Vec<f64> {
    let nf = m.len() / rows.max(1);
    let mut x = vec![1.0; nf];
    let mut l = 0.0;
    for _ in 0..50 {
        let y = dense_mtv(m, rows, nf, &dense_mv(m, rows, &x));
        l = y.iter().map(|v| v * v).sum::<f64>().sqrt();
        if l == 0.0 {
            break;
        }
        x = y.iter().map(|v| v / l).collect();
    }
    let step = 1.0 / (2.0 * l).max(f64::MIN_POSITIVE);
    let mut w = vec![0.0; nf];
    for _ in 0..iters {
        let r: Vec<f64> = dense_mv(m, rows, &w).iter().zip(b).map(|(y, b)| y - b).collect();
        let g = dense_mtv(m, rows, nf, &r);
        w.iter_mut().zip(&g).for_each(|(w, g)| *w = (*w - step * g).max(0.0));
    }
    w
}

/// The KKT residual of an NNLS solution, relative to ‖Mᵀb‖∞: the largest of −w_f, |g_f|
/// where w_f > 0 and −g_f where w_f = 0 (g = Mᵀ(M·w − b)).
pub fn kkt(m: &[f64], rows: usize, b: &[f64], w: &[f64]) -> f64 {
    let r: Vec<f64> = dense_mv(m, rows, w).iter().zip(b).map(|(y, b)| y - b).collect();
    let nf = w.len();
    let g = dense_mtv(m, rows, nf, &r);
    let scale = dense_mtv(m, rows, nf, b).iter().fold(0.0f64, |s, v| s.max(v.abs())).max(f64::MIN_POSITIVE);
    let worst = w.iter().zip(&g).fold(0.0f64, |s, (&w, &g)| s.max(-w).max(if w > 0.0 { g.abs() } else { -g }));
    worst / scale
}

/// A compact copy (leading dimension `rows`) of a matrix with leading dimension `ld`.
pub fn compact(x: &[f64], rows: usize, cols: usize, ld: usize) -> Vec<f64> {
    (0..cols).flat_map(|c| x[c * ld..c * ld + rows].iter().copied()).collect()
}
