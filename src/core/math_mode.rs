//! The handle's math mode: whether single-precision GEMM may run on the TF32 tensor cores.

use super::error::{Error, Result};

/// How single-precision real and complex batched GEMM (`numgpu_sgemm_batched*`,
/// `numgpu_cgemm_batched*`) may compute on the CUDA backend, as an `int32_t` at the ABI. Set
/// per handle with `numgpu_set_math_mode`. No other routine, precision or backend reads it:
/// the CPU backend stays exact FP32, which is within every mode's bound.
///
/// Error bounds, elementwise, for `C = alpha·op(A)·op(B) + beta·C0` with `u = 2^-24` (FP32's
/// unit roundoff), `g(j, v) = j·v / (1 − j·v)`, and `|X|` the matrix of the elements' moduli:
///
/// `|C − C_computed| <= e·(|alpha|·|op(A)|·|op(B)| + |beta|·|C0|)`, where `e` is
///
/// - `NUMGPU_MATH_DEFAULT`: `g(k + 2, u)` (about `k·2^-24`);
/// - `NUMGPU_MATH_3XTF32`: `3·2^-22·(1 + 2^-10) + g(3k + 6, 2u)` (about `(24 + 6k)·2^-24`);
/// - `NUMGPU_MATH_TF32`: `2^-10·(1 + 2^-12) + g(k + 6, 2u)` (about `2^-10`).
///
/// For complex C, replace k by 2k + 2 and multiply `e` by √2. The bounds assume no underflow
/// or overflow (nonzero elements of A and B between 2^-100 and 2^100 in magnitude; an
/// infinite element may give NaN where FP32 gives ±Inf), and model the tensor cores' FP32
/// accumulation, which truncates, as an error of at most `2u` relative per product added; see
/// docs/gemm_batched.md for their derivation. Products of sizes the tensor cores do not pay
/// for (m, n and k all at most 32, or min(m, n) < 32), `numgpu_*` routines built on GEMM, and
/// GPUs before sm_80 stay exact FP32, which is within every mode's bound. Every mode is
/// bitwise reproducible.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum numgpu_math_mode {
    /// Exact FP32 arithmetic (the default of a new handle): one FP32 rounding per
    /// multiply-add, as cuBLAS with TF32 off.
    NUMGPU_MATH_DEFAULT = 0,
    /// The 3xTF32 split on the TF32 tensor cores: each element x = big + small, big =
    /// round-to-nearest-TF32(x), small = round-to-nearest-TF32(x − big); a·b is computed as
    /// small_a·big_b + big_a·small_b + big_a·big_b with FP32 accumulation. FP32's accuracy
    /// (bound above) at tensor-core speed.
    NUMGPU_MATH_3XTF32 = 1,
    /// Plain TF32: a·b as big_a·big_b (10-bit mantissas), FP32 accumulation; relative error per
    /// product about 2^-10. The fastest and least accurate mode.
    NUMGPU_MATH_TF32 = 2,
}

/// A `numgpu_math_mode` value as a C parameter takes it: an `int32_t`, validated (a Rust enum
/// taken from C would be undefined behaviour when out of range). The header names it
/// `numgpu_math_mode`.
pub type MathModeArg = i32;

/// The handle's math mode; see [`numgpu_math_mode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MathMode {
    /// Exact FP32.
    #[default]
    Default,
    /// 3xTF32: FP32 accuracy on the TF32 tensor cores.
    Tf32x3,
    /// Plain TF32.
    Tf32,
}

impl MathMode {
    /// Validates a math mode value from C, passed as the C parameter `name`.
    pub fn from_i32(v: i32, name: &'static str) -> Result<MathMode> {
        match v {
            0 => Ok(MathMode::Default),
            1 => Ok(MathMode::Tf32x3),
            2 => Ok(MathMode::Tf32),
            _ => Err(Error::arg(name, format!("({name} = {v}) must be NUMGPU_MATH_DEFAULT (0), NUMGPU_MATH_3XTF32 (1) or NUMGPU_MATH_TF32 (2)"))),
        }
    }

    /// 0, 1, 2 as the C enum numbers them.
    pub fn code(self) -> i32 {
        match self {
            MathMode::Default => 0,
            MathMode::Tf32x3 => 1,
            MathMode::Tf32 => 2,
        }
    }

    /// The mode's elementwise error bound factor `e` for a real product with inner dimension
    /// `k` (see [`numgpu_math_mode`]): `|C − Ĉ| <= e·(|alpha|·|op(A)|·|op(B)| + |beta|·|C0|)`.
    /// Complex products: `complex_bound`.
    pub fn bound(self, k: usize) -> f64 {
        let u = f64::powi(2.0, -24);
        let g = |j: usize, v: f64| j as f64 * v / (1.0 - j as f64 * v);
        match self {
            MathMode::Default => g(k + 2, u),
            MathMode::Tf32x3 => 3.0 * f64::powi(2.0, -22) * (1.0 + f64::powi(2.0, -10)) + g(3 * k + 6, 2.0 * u),
            MathMode::Tf32 => f64::powi(2.0, -10) * (1.0 + f64::powi(2.0, -12)) + g(k + 6, 2.0 * u),
        }
    }

    /// [`bound`](Self::bound) for a complex product: each real part is a real product of
    /// inner dimension 2k, the complex alpha·x and beta update take two roundings more, and
    /// the modulus adds √2.
    pub fn complex_bound(self, k: usize) -> f64 {
        std::f64::consts::SQRT_2 * self.bound(2 * k + 2)
    }

    /// The bench's and the tests' name of the mode: "default", "3xtf32", "tf32".
    pub fn name(self) -> &'static str {
        match self {
            MathMode::Default => "default",
            MathMode::Tf32x3 => "3xtf32",
            MathMode::Tf32 => "tf32",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_bad_values_name_the_argument() {
        for m in [MathMode::Default, MathMode::Tf32x3, MathMode::Tf32] {
            assert_eq!(MathMode::from_i32(m.code(), "mode").unwrap(), m);
        }
        for v in [-1, 3, i32::MAX] {
            assert_eq!(MathMode::from_i32(v, "mode").unwrap_err().arg, Some("mode"));
        }
        assert_eq!(MathMode::default(), MathMode::Default);
    }

    #[test]
    fn bounds_order_the_modes() {
        // 3xTF32's bound is within a small factor of FP32's (6k against k for large k); plain
        // TF32's 2^-10 is above both until the accumulation terms take over (k of thousands).
        for k in [1, 8, 100, 1000, 4096] {
            let (d, x3, t) = (MathMode::Default.bound(k), MathMode::Tf32x3.bound(k), MathMode::Tf32.bound(k));
            assert!(d < x3 && x3 <= 12.0 * d + 2e-6 && (k > 1000 || x3 < t), "k = {k}: {d:e} {x3:e} {t:e}");
        }
    }
}
