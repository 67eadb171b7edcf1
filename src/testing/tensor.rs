//! Symmetric tensors and their eigenpairs (sshopm): Kofidis and Regalia's example and its
//! known eigenvalues, random and orthogonally decomposable tensors (Σ w_k·v_k^{⊗m}), a
//! synthetic slice of diffusion-MRI fibres, the dense tensor of packed entries and the
//! eigen-residual ‖A·x^{m−1} − λ·x‖₂ computed from it in double precision, and the mean over
//! index permutations (an independent symmetrisation).

use super::gen::{random, rng};
use crate::sshopm::{sym_unpack, tables};

/// Kofidis and Regalia's example (m = 4, n = 3), packed.
pub const KR: [f64; 15] = [0.2883, -0.0031, 0.1973, -0.2485, -0.2939, 0.3847, 0.2972, 0.1862, 0.0919, -0.3619, 0.1241, -0.3420, 0.2127, 0.2727, -0.3054];
/// Its local maxima's eigenvalues (10 decimals, as published).
pub const KR_MAX: [f64; 3] = [0.8893220107, 0.8168813450, 0.3633060484];
/// Its local minima's eigenvalues.
pub const KR_MIN: [f64; 3] = [-0.0450921811, -0.5629171327, -1.0953516989];

/// `u` packed entries uniform in [-1, 1).
pub fn random_tensor(u: usize, seed: u64) -> Vec<f64> {
    random::<f64>(&mut rng(seed), u, 1.0)
}

/// The dense tensor (n^m entries, first index fastest) of the packed entries `a`, by
/// `sym_unpack`.
pub fn dense(m: usize, n: usize, a: &[f64]) -> Vec<f64> {
    let mut d = vec![f64::NAN; n.pow(m as u32)];
    // SAFETY: a holds the U packed entries of (m, n), d n^m values, host memory.
    unsafe { sym_unpack(m as i32, n as i32, a.as_ptr(), d.as_mut_ptr()) }.expect("sym_unpack of a valid size");
    d
}

/// A·x^{m−1} from the dense tensor `d`, in double precision.
pub fn dense_grad(m: usize, n: usize, d: &[f64], x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for (pos, &v) in d.iter().enumerate() {
        let (i, mut rest, mut p) = (pos % n, pos / n, v);
        for _ in 1..m {
            p *= x[rest % n];
            rest /= n;
        }
        y[i] += p;
    }
    y
}

/// The eigen-residual ‖A·x^{m−1} − λ·x‖₂ at (λ, x) from the dense tensor `d`, and |‖x‖₂ − 1|.
pub fn eigen_residual(m: usize, n: usize, d: &[f64], lam: f64, x: &[f64]) -> (f64, f64) {
    let y = dense_grad(m, n, d, x);
    let r = y.iter().zip(x).map(|(a, b)| (a - lam * b).powi(2)).sum::<f64>().sqrt();
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    (r, (norm - 1.0).abs())
}

/// The distinct values of `v`, decreasing, merged within `tol`.
pub fn distinct(v: &[f64], tol: f64) -> Vec<f64> {
    let mut s: Vec<f64> = v.to_vec();
    s.sort_by(|a, b| b.total_cmp(a));
    let mut out: Vec<f64> = Vec::new();
    for x in s {
        if out.last().map_or(true, |l| (l - x).abs() > tol) {
            out.push(x);
        }
    }
    out
}

/// A random orthonormal basis of R^n (Gram–Schmidt on uniform vectors).
pub fn orthonormal(n: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut r = rng(seed);
    let mut basis: Vec<Vec<f64>> = Vec::new();
    while basis.len() < n {
        let mut v = random::<f64>(&mut r, n, 1.0);
        for b in &basis {
            let d: f64 = v.iter().zip(b).map(|(x, y)| x * y).sum();
            v.iter_mut().zip(b).for_each(|(x, y)| *x -= d * y);
        }
        let nrm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if nrm > 1e-3 {
            basis.push(v.iter().map(|x| x / nrm).collect());
        }
    }
    basis
}

/// The nondecreasing index tuples (i1 <= … <= im) of (m, n), in the packed order.
pub fn entry_tuples(m: usize, n: usize) -> Vec<Vec<u16>> {
    let tab = tables(m, n);
    let mut out = vec![Vec::new(); tab.u];
    let mut idx = vec![0u16; m];
    for _ in 0..n.pow(m as u32) {
        if idx.windows(2).all(|p| p[0] <= p[1]) {
            out[tab.entry(&idx)] = idx.clone();
        }
        for i in idx.iter_mut() {
            *i += 1;
            if (*i as usize) < n {
                break;
            }
            *i = 0;
        }
    }
    out
}

/// The packed entries of Σ_k w_k·v_k^{⊗m} (each v_k of n entries).
pub fn sum_of_powers(m: usize, n: usize, w: &[f64], v: &[Vec<f64>]) -> Vec<f64> {
    entry_tuples(m, n).iter().map(|idx| w.iter().zip(v).map(|(wk, vk)| wk * idx.iter().map(|&i| vk[i as usize]).product::<f64>()).sum()).collect()
}

/// The mean of the dense tensor `d` (n^m entries) over all permutations of its indices, by
/// sorting each position's indices: the symmetric tensor whose packed entries `sym_pack`
/// must give, computed independently of the library's tables.
pub fn symmetrised(m: usize, n: usize, d: &[f64]) -> Vec<f64> {
    let key = |pos: usize| {
        let mut idx: Vec<usize> = (0..m).map(|k| pos / n.pow(k as u32) % n).collect();
        idx.sort_unstable();
        idx
    };
    let mut sums: std::collections::HashMap<Vec<usize>, (f64, f64)> = Default::default();
    for (pos, v) in d.iter().enumerate() {
        let e = sums.entry(key(pos)).or_default();
        e.0 += v;
        e.1 += 1.0;
    }
    (0..d.len()).map(|pos| sums[&key(pos)].0 / sums[&key(pos)].1).collect()
}

/// The fibres of voxel (i, j) of a synthetic diffusion-MRI slice of side × side voxels: the
/// first turns in the x-y plane across the slice and tilts with j; the voxels of the right
/// half hold a second fibre at right angles to it.
pub fn fibres(side: usize, i: usize, j: usize) -> Vec<[f64; 3]> {
    let (phi, theta) = (std::f64::consts::PI * i as f64 / side as f64, 0.3 + 0.8 * j as f64 / side as f64);
    let v1 = [theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos()];
    if j < side / 2 {
        return vec![v1];
    }
    // A unit vector orthogonal to v1: v1 × z, normalised (v1 is never along z: θ >= 0.3).
    let c = [v1[1], -v1[0], 0.0];
    let nc = (c[0] * c[0] + c[1] * c[1]).sqrt();
    vec![v1, [c[0] / nc, c[1] / nc, 0.0]]
}

/// The angle between two axes (x and −x the same), degrees.
pub fn axis_angle(a: &[f64], b: &[f64]) -> f64 {
    let d: f64 = a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>().abs().min(1.0);
    d.acos().to_degrees()
}
