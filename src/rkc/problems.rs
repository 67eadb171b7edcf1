//! The built-in problems of `numgpu_ode_builtin`, on the host (here) and as CUDA source
//! (`kernels/rkc_problems.cu`, the same formulas in the same order), with their usual initial
//! values and parameters (the tests' reference solutions are in `testing::ode`).

use super::cpu::Rhs;
use crate::core::error::{Error, Result};

/// A built-in problem (see `numgpu_ode_problem`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    Heat,
    Brusselator,
    Lorenz,
    Plei,
}

const SOURCE: &str = include_str!("../../kernels/rkc_problems.cu");

/// PLEI's initial values at t = 0.
const PLEI_INITIAL: [f64; 28] = [
    3.0, 3.0, -1.0, -3.0, 2.0, -2.0, 2.0, 3.0, -3.0, 2.0, 0.0, 0.0, -4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.75, -1.5, 0.0, 0.0, 0.0, -1.25, 1.0, 0.0, 0.0,
];

impl Problem {
    /// Validates a problem value from C (the parameter `which`).
    pub fn from_i32(v: i32) -> Result<Problem> {
        match v {
            0 => Ok(Problem::Heat),
            1 => Ok(Problem::Brusselator),
            2 => Ok(Problem::Lorenz),
            3 => Ok(Problem::Plei),
            _ => Err(Error::arg("which", format!("(which = {v}) must be a numgpu_ode_problem value (0 to 3)"))),
        }
    }

    /// The equations of the problem of `size` (the parameter `size`): heat size >= 1,
    /// Brusselator even size >= 2, Lorenz 0 or 3, PLEI 0 or 28.
    pub fn neq(self, size: i64) -> Result<usize> {
        let ok = match self {
            Problem::Heat => (1..=1024).contains(&size),
            Problem::Brusselator => (2..=1024).contains(&size) && size % 2 == 0,
            Problem::Lorenz => size == 0 || size == 3,
            Problem::Plei => size == 0 || size == 28,
        };
        if !ok {
            let want = match self {
                Problem::Heat => "in [1, 1024] for the heat equation",
                Problem::Brusselator => "even and in [2, 1024] for the Brusselator",
                Problem::Lorenz => "0 or 3 for Lorenz",
                Problem::Plei => "0 or 28 for PLEI",
            };
            return Err(Error::arg("size", format!("(size = {size}) must be {want}")));
        }
        Ok(match self {
            Problem::Lorenz => 3,
            Problem::Plei => 28,
            _ => size as usize,
        })
    }

    /// Parameters per system.
    pub fn npar(self) -> usize {
        match self {
            Problem::Heat => 1,
            Problem::Brusselator | Problem::Lorenz => 3,
            Problem::Plei => 0,
        }
    }

    /// The usual parameters: heat D = 1; Brusselator A = 1, B = 3, α = 1/50; Lorenz σ = 10,
    /// R = 28, b = 8/3.
    pub fn default_params(self) -> Vec<f64> {
        match self {
            Problem::Heat => vec![1.0],
            Problem::Brusselator => vec![1.0, 3.0, 0.02],
            Problem::Lorenz => vec![10.0, 28.0, 8.0 / 3.0],
            Problem::Plei => vec![],
        }
    }

    /// The usual initial values: heat sin(πx); Brusselator u = 1 + sin(2πx), v = 3; Lorenz
    /// (10, 10, 10); PLEI the test set's.
    pub fn initial(self, neq: usize) -> Vec<f64> {
        use std::f64::consts::PI;
        match self {
            Problem::Heat => (1..=neq).map(|k| (PI * k as f64 / (neq + 1) as f64).sin()).collect(),
            Problem::Brusselator => {
                let n = neq / 2;
                (0..neq).map(|j| if j % 2 == 0 { 1.0 + (2.0 * PI * (j / 2 + 1) as f64 / (n + 1) as f64).sin() } else { 3.0 }).collect()
            }
            Problem::Lorenz => vec![10.0; 3],
            Problem::Plei => PLEI_INITIAL.to_vec(),
        }
    }

    /// Whether the problem has a spectral-radius bound (heat and the Brusselator).
    pub fn has_spcrad(self) -> bool {
        matches!(self, Problem::Heat | Problem::Brusselator)
    }

    /// The CUDA source defining `numgpu_rhs` (and `numgpu_spcrad` where there is one).
    pub fn cuda_source(self) -> String {
        format!("#define NG_PROBLEM {}\n{SOURCE}", self as i32)
    }
}

impl Rhs for Problem {
    fn f(&self, _t: f64, y: &[f64], p: &[f64], f: &mut [f64]) {
        let n = y.len();
        match self {
            Problem::Heat => {
                let c = p[0] * ((n + 1) * (n + 1)) as f64;
                for k in 0..n {
                    let l = if k > 0 { y[k - 1] } else { 0.0 };
                    let r = if k + 1 < n { y[k + 1] } else { 0.0 };
                    f[k] = c * (l - 2.0 * y[k] + r);
                }
            }
            Problem::Brusselator => {
                let (a, b, alpha) = (p[0], p[1], p[2]);
                let g = n / 2;
                let c = alpha * ((g + 1) * (g + 1)) as f64;
                for k in 0..g {
                    let (u, v) = (y[2 * k], y[2 * k + 1]);
                    let (ul, vl) = if k > 0 { (y[2 * k - 2], y[2 * k - 1]) } else { (a, b / a) };
                    let (ur, vr) = if k + 1 < g { (y[2 * k + 2], y[2 * k + 3]) } else { (a, b / a) };
                    let uuv = u * u * v;
                    f[2 * k] = a + uuv - (b + 1.0) * u + c * (ul - 2.0 * u + ur);
                    f[2 * k + 1] = b * u - uuv + c * (vl - 2.0 * v + vr);
                }
            }
            Problem::Lorenz => {
                f[0] = p[0] * (y[1] - y[0]);
                f[1] = p[1] * y[0] - y[1] - y[0] * y[2];
                f[2] = y[0] * y[1] - p[2] * y[2];
            }
            Problem::Plei => {
                for i in 0..7 {
                    let (mut sx, mut sy) = (0.0, 0.0);
                    for j in 0..7 {
                        if j != i {
                            let (dx, dy) = (y[j] - y[i], y[j + 7] - y[i + 7]);
                            let r = dx * dx + dy * dy;
                            let r32 = r * r.sqrt();
                            sx += (j + 1) as f64 * dx / r32;
                            sy += (j + 1) as f64 * dy / r32;
                        }
                    }
                    f[i + 14] = sx;
                    f[i + 21] = sy;
                }
                f[..14].copy_from_slice(&y[14..28]);
            }
        }
    }

    fn spcrad(&self, _t: f64, y: &[f64], p: &[f64]) -> Option<f64> {
        let n = y.len();
        match self {
            Problem::Heat => Some(4.0 * p[0] * ((n + 1) * (n + 1)) as f64),
            Problem::Brusselator => {
                // Gershgorin: the largest row sum of |J| around the diagonal.
                let b = p[1];
                let g = n / 2;
                let c = p[2] * ((g + 1) * (g + 1)) as f64;
                let mut s: f64 = 0.0;
                for k in 0..g {
                    let (u, v) = (y[2 * k], y[2 * k + 1]);
                    let ru = (2.0 * u * v - (b + 1.0) - 2.0 * c).abs() + 2.0 * c + u * u;
                    let rv = (u * u + 2.0 * c).abs() + (b - 2.0 * u * v).abs() + 2.0 * c;
                    s = s.max(ru).max(rv);
                }
                Some(s)
            }
            Problem::Lorenz | Problem::Plei => None,
        }
    }
}
