//! Tensors. Symmetric tensors and their eigenpairs (sshopm): Kofidis and Regalia's example and
//! its known eigenvalues, random and orthogonally decomposable tensors (Σ w_k·v_k^{⊗m}), a
//! synthetic slice of diffusion-MRI fibres, the dense tensor of packed entries and the
//! eigen-residual ‖A·x^{m−1} − λ·x‖₂ computed from it in double precision, and the mean over
//! index permutations (an independent symmetrisation). Dense tensors in Kolda and Bader's
//! conventions (the tensor family): the Khatri–Rao product, the explicit mode-n unfolding and
//! the MTTKRP as unfold + Khatri–Rao + GEMM in double precision, with its componentwise error
//! bound.

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
    unsafe { sym_unpack(m as i64, n as i64, a.as_ptr(), d.as_mut_ptr()) }.expect("sym_unpack of a valid size");
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

/// The Khatri–Rao product A ⊙ B of compact A (m × r) and B (n × r): (A ⊙ B)(j + i·n, k) =
/// A(i, k)·B(j, k), compact (m·n) × r, in double precision.
pub fn khatri_rao(a: &[f64], m: usize, b: &[f64], n: usize, r: usize) -> Vec<f64> {
    (0..m * n * r).map(|e| (e % (m * n), e / (m * n))).map(|(row, k)| a[row / n + k * m] * b[row % n + k * n]).collect()
}

/// The mode-`mode` unfolding X_(n) of the column-major tensor `x` of dimensions `dims`,
/// copied explicitly: I_n × ∏_{k≠n} I_k, compact, its column index i_0 + I_0·(i_1 + …) over
/// the modes k ≠ n (Kolda and Bader).
pub fn unfold(dims: &[usize], x: &[f64], mode: usize) -> Vec<f64> {
    let rows = dims[mode];
    let mut out = vec![f64::NAN; x.len()];
    for (e, &v) in x.iter().enumerate() {
        let (mut rest, mut col, mut stride, mut i) = (e, 0, 1, 0);
        for (k, &d) in dims.iter().enumerate() {
            let ik = rest % d;
            rest /= d;
            if k == mode {
                i = ik;
            } else {
                col += ik * stride;
                stride *= d;
            }
        }
        out[i + col * rows] = v;
    }
    out
}

/// U_d ⊙ … ⊙ U_{n+1} ⊙ U_{n−1} ⊙ … ⊙ U_1 of the compact factors `u` (u[k] dims[k] × rank)
/// but the mode's, folded pairwise with [`khatri_rao`].
pub fn khatri_rao_others(dims: &[usize], u: &[Vec<f64>], mode: usize, rank: usize) -> Vec<f64> {
    let modes: Vec<usize> = (0..dims.len()).filter(|&k| k != mode).collect();
    khatri_rao_of(&modes, dims, u, rank)
}

/// The Khatri–Rao product of the factors of `modes` (ascending) in reverse order, the first
/// mode's row index fastest; one row of ones when `modes` is empty.
fn khatri_rao_of(modes: &[usize], dims: &[usize], u: &[Vec<f64>], rank: usize) -> Vec<f64> {
    let (mut acc, mut rows) = (vec![1.0; rank], 1);
    for &k in modes.iter().rev() {
        acc = khatri_rao(&acc, rows, &u[k], dims[k], rank);
        rows *= dims[k];
    }
    acc
}

/// Rows `rows` of the MTTKRP of `x` (any precision) and of its bound (as [`mttkrp`]), from the
/// definition with X read in place, M(i, r) = Σ_q K_>(q, r)·Σ_l X(l, i, q)·K_<(l, r) (K_< and
/// K_> the Khatri–Rao products of the modes below and above), in double, under rayon: the
/// check of tensors too large for [`mttkrp`]'s explicit unfolding. Both rows.len() × rank.
pub fn mttkrp_rows<T: crate::Scalar>(dims: &[usize], x: &[T], mode: usize, rank: usize, u: &[Vec<f64>], rows: &[usize]) -> (Vec<f64>, Vec<f64>) {
    use rayon::prelude::*;
    let (below, above): (Vec<usize>, Vec<usize>) = ((0..mode).collect(), (mode + 1..dims.len()).collect());
    let (kl, kq) = (khatri_rao_of(&below, dims, u, rank), khatri_rao_of(&above, dims, u, rank));
    let (l, q, i_n, s) = (kl.len() / rank, kq.len() / rank, dims[mode], rows.len());
    let out: Vec<(f64, f64)> = (0..s * rank)
        .into_par_iter()
        .map(|e| {
            let (i, r) = (rows[e % s], e / s);
            let (mut m, mut b) = (0.0, 0.0);
            for qq in 0..q {
                let (mut inner, mut inner_abs) = (0.0, 0.0);
                for ll in 0..l {
                    let t = x[ll + i * l + qq * l * i_n].to_c64().re * kl[ll + r * l];
                    inner += t;
                    inner_abs += t.abs();
                }
                m += inner * kq[qq + r * q];
                b += inner_abs * kq[qq + r * q].abs();
            }
            (m, b)
        })
        .collect();
    out.into_iter().unzip()
}

/// The MTTKRP M = X_(n)·(U_d ⊙ … ⊙ U_1 without U_n) as unfold + Khatri–Rao + GEMM in double
/// precision, and the same of |X| and |U_k| (the bound's |X_(n)|·|K|): both compact
/// dims[mode] × rank.
pub fn mttkrp(dims: &[usize], x: &[f64], mode: usize, rank: usize, u: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let abs = |v: &[f64]| v.iter().map(|a| a.abs()).collect::<Vec<f64>>();
    let (rows, cols) = (dims[mode], x.len() / dims[mode].max(1));
    let product = |x: &[f64], u: &[Vec<f64>]| {
        let (xn, k) = (unfold(dims, x, mode), khatri_rao_others(dims, u, mode, rank));
        let mut m = vec![0.0; rows * rank];
        for r in 0..rank {
            for j in 0..cols {
                let kj = k[j + r * cols];
                for i in 0..rows {
                    m[i + r * rows] += xn[i + j * rows] * kj;
                }
            }
        }
        m
    };
    let ua: Vec<Vec<f64>> = u.iter().map(|f| abs(f)).collect();
    (product(x, u), product(&abs(x), &ua))
}

/// The MTTKRP's error ratio: max over the entries of |M − M_ref| / ((k + d)·ε·(|X_(n)|·|K|)),
/// k = ∏_{k≠n} I_k the GEMM's inner dimension and d the order (the Khatri–Rao product's
/// roundings): below 1 for any correct computation in precision ε, NaN when M has one. `got`
/// is dims[mode] × rank with leading dimension `ldm`.
pub fn mttkrp_ratio(got: &[f64], ldm: usize, want: &[f64], bound: &[f64], dims: &[usize], mode: usize, eps: f64) -> f64 {
    let rows = dims[mode];
    let compact: Vec<f64> = (0..want.len()).map(|e| got[e % rows + (e / rows) * ldm]).collect();
    bound_ratio(&compact, want, bound, dims.iter().product::<usize>() / rows.max(1), dims.len(), eps)
}

/// [`mttkrp_ratio`] of entries taken one for one (`got`, `want` and `bound` alike, e.g. the
/// sampled rows of [`mttkrp_rows`]), for inner dimension k and order d.
pub fn bound_ratio(got: &[f64], want: &[f64], bound: &[f64], k: usize, d: usize, eps: f64) -> f64 {
    let scale = (k + d) as f64 * eps;
    (0..want.len()).map(|e| super::norm::ratio((got[e] - want[e]).abs(), scale * bound[e])).fold(0.0, super::norm::nan_max)
}
