//! The inputs of numgpu-bench's larger workloads, generators like the others here: a chain of
//! coupled phase oscillators written as a user would (CUDA source and host callbacks) and the
//! Brusselator's and the chain's inputs over many systems (rkc), and fibre tensors of a
//! diffusion-MRI-like volume (sshopm). Every value depends only on the sizes and the seed.

use crate::rkc::{Callbacks, Ode, Problem};
use crate::sshopm::{splitmix, Real};
use crate::Handle;
use rayon::prelude::*;
use std::ffi::c_void;

/// The chain: θ_k' = ω·(1 + k/100) + c·(sin(θ_{k+1} − θ_k) + sin(θ_{k−1} − θ_k)), c = κ·(NEQ
/// + 1)², free ends, parameters (ω, κ), with its Gershgorin bound 4c as `numgpu_spcrad`.
pub const CHAIN_CU: &str = r#"
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    const double c = p[1] * (double)((NEQ + 1) * (NEQ + 1));
    for (int k = 0; k < NEQ; ++k) {
        double s = 0.0;
        if (k > 0) s += sin(y[k - 1] - y[k]);
        if (k + 1 < NEQ) s += sin(y[k + 1] - y[k]);
        f[k] = p[0] * (1.0 + 0.01 * (double)k) + c * s;
    }
}
__device__ double numgpu_spcrad(double t, const double *y, const double *p) {
    return 4.0 * p[1] * (double)((NEQ + 1) * (NEQ + 1));
}
"#;

/// The chain's right-hand side on the host.
///
/// # Safety
/// `y` and `f` hold `neq` values, `p` 2.
pub unsafe extern "C" fn chain_rhs(_t: f64, y: *const f64, p: *const f64, f: *mut f64, neq: i64, _user: *mut c_void) {
    let n = neq as usize;
    let (y, p, f) = (std::slice::from_raw_parts(y, n), std::slice::from_raw_parts(p, 2), std::slice::from_raw_parts_mut(f, n));
    let c = p[1] * ((n + 1) * (n + 1)) as f64;
    for k in 0..n {
        let s = if k > 0 { (y[k - 1] - y[k]).sin() } else { 0.0 } + if k + 1 < n { (y[k + 1] - y[k]).sin() } else { 0.0 };
        f[k] = p[0] * (1.0 + 0.01 * k as f64) + c * s;
    }
}

/// The chain's spectral-radius bound on the host.
///
/// # Safety
/// `p` holds 2 values.
pub unsafe extern "C" fn chain_spcrad(_t: f64, _y: *const f64, p: *const f64, neq: i64, _user: *mut c_void) -> f64 {
    4.0 * *p.add(1) * ((neq + 1) * (neq + 1)) as f64
}

/// The chain of `neq` oscillators on `h`, in both forms.
pub fn chain(h: &mut Handle, neq: usize) -> crate::Result<Ode> {
    Ode::create(h, neq as i64, 2, Some(CHAIN_CU), Some(Callbacks { rhs: chain_rhs, spcrad: Some(chain_spcrad), user: std::ptr::null_mut() }))
}

/// Initial states and parameters of `nsys` systems, system after system: the Brusselator of
/// `neq` equations (`chain` false) with B swept over [2.5, 3.5], or the chain with ω and κ
/// swept over the systems and θ_k(0) = k/10 + i/nsys.
pub fn ode_inputs(chain: bool, neq: usize, nsys: usize) -> (Vec<f64>, Vec<f64>) {
    let f = |i: usize| i as f64 / nsys.max(2) as f64;
    if chain {
        return ((0..nsys).flat_map(|i| (0..neq).map(move |k| 0.1 * k as f64 + f(i))).collect(), (0..nsys).flat_map(|i| [1.0 + f(i), 0.005 * (1.0 + f(i))]).collect());
    }
    let y0 = Problem::Brusselator.initial(neq);
    ((0..nsys).flat_map(|_| y0.iter().copied()).collect(), (0..nsys).flat_map(|i| [1.0, 2.5 + f(i), 0.02]).collect())
}

/// `count` symmetric tensors of order m (n = 3), packed, of a diffusion-MRI-like volume: per
/// voxel one fibre or two (every other voxel), random directions and weights in [0.5, 1],
/// Σ w_k·v_k^{⊗m} plus uniform noise of 2% of the largest weight on every unique entry.
pub fn fibre_tensors<T: Real>(m: usize, count: usize, seed: u64) -> Vec<T> {
    let tuples = super::tensor::entry_tuples(m, 3);
    let u = tuples.len();
    let mut a = vec![T::c(0.0); count * u];
    a.par_chunks_mut(u).enumerate().for_each(|(t, out)| {
        // Uniform in [0, 1) from SplitMix64 of (seed, tensor, draw).
        let mut k = 0u64;
        let mut uni = || {
            k += 1;
            (splitmix(seed, (t as u64) << 20 | k) >> 11) as f64 / (1u64 << 53) as f64
        };
        let dirs: Vec<([f64; 3], f64)> = (0..1 + t % 2)
            .map(|_| {
                let (z, phi) = (2.0 * uni() - 1.0, std::f64::consts::TAU * uni());
                let s = (1.0 - z * z).sqrt();
                ([s * phi.cos(), s * phi.sin(), z], 0.5 + 0.5 * uni())
            })
            .collect();
        for (e, tu) in out.iter_mut().zip(&tuples) {
            let v: f64 = dirs.iter().map(|(d, w)| w * tu.iter().map(|&i| d[i as usize]).product::<f64>()).sum();
            *e = T::c(v + 0.02 * (2.0 * uni() - 1.0));
        }
    });
    a
}
