//! The four element types every routine is generic over.

use num_complex::{Complex32, Complex64};
use std::fmt::Debug;

// The two complex structs are the header's default complex types. Their cfg is never set in
// Rust: cbindgen turns it into `#if !defined(numgpu_complex_float)` (cbindgen.toml's
// [defines]), so that a C or C++ program that defines the macro `numgpu_complex_float`
// (`numgpu_complex_double`) to its own layout-compatible type before including numgpu.h, as
// LAPACKE's `lapack_complex_float`, gets the functions declared with that type instead.

/// `float _Complex` as it crosses the C ABI: `{re, im}`, layout-compatible with C99
/// `float _Complex`, C++ `std::complex<float>` and Fortran `complex(c_float_complex)`. To
/// pass your own complex type instead, define the macro `numgpu_complex_float` to it before
/// including numgpu.h (as LAPACKE's `lapack_complex_float`), e.g.
/// `#define numgpu_complex_float float _Complex` in C99 or
/// `#define numgpu_complex_float std::complex<float>` in C++ (after `#include <complex>`).
#[cfg(not(numgpu_user_complex_float))]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(non_camel_case_types)]
pub struct numgpu_complex_float {
    pub re: f32,
    pub im: f32,
}

/// `double _Complex` as it crosses the C ABI: `{re, im}`. Define the macro
/// `numgpu_complex_double` before including numgpu.h to use your own layout-compatible type
/// instead (C99 `double _Complex`, C++ `std::complex<double>`), as `numgpu_complex_float`.
#[cfg(not(numgpu_user_complex_double))]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(non_camel_case_types)]
pub struct numgpu_complex_double {
    pub re: f64,
    pub im: f64,
}

/// Element type of a routine: f32, f64, Complex32 or Complex64.
pub trait Scalar:
    Copy
    + Send
    + Sync
    + Debug
    + PartialEq
    + Default
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Neg<Output = Self>
    + 'static
{
    /// The real type underneath (f32 or f64).
    type Real: num_traits::Float + Into<f64> + Debug + Send + Sync + Default;
    /// The type this scalar has at the C ABI (by value).
    type Abi: Copy;
    /// LAPACK precision letter: s, d, c, z.
    const LETTER: char;
    /// Suffix of kernel names and the CUDA type the `.cu` templates instantiate.
    const SUFFIX: &'static str;
    const CUDA_TYPE: &'static str;
    const IS_COMPLEX: bool;
    /// Machine epsilon of the real type (LAPACK's `?lamch('E')` times 2: the spacing at 1).
    const EPS: f64;
    fn from_abi(v: Self::Abi) -> Self;
    fn zero() -> Self {
        Self::default()
    }
    fn one() -> Self;
    fn is_zero(&self) -> bool {
        *self == Self::zero()
    }
    fn conj(self) -> Self;
    /// |x|: the absolute value, or the modulus of a complex number (Fortran `ABS`).
    fn abs(self) -> Self::Real;
    /// |re| + |im| (BLAS `cabs1`; |x| for real types).
    fn abs1(self) -> Self::Real;
    fn from_real(r: Self::Real) -> Self;
    /// `self · r` for a real `r`.
    fn scale(self, r: Self::Real) -> Self;
    fn is_finite(self) -> bool;
    /// `a·b + c` with one rounding per real multiply-add, as the kernels compute it.
    fn fma(a: Self, b: Self, c: Self) -> Self;
    /// `self / d`; complex by Smith's algorithm (no overflow of |d|², as gfortran and the
    /// kernels divide).
    fn quot(self, d: Self) -> Self;
    /// The real part (the value itself for real types).
    fn re(self) -> Self::Real;
    /// The imaginary part (0 for real types).
    fn im(self) -> Self::Real;
    /// `re + i·im` in the element's own precision (real types drop `im`), for algorithms
    /// that work on the parts, such as the safe-scaling `?lartg`.
    fn from_parts(re: Self::Real, im: Self::Real) -> Self;
    /// (re, im) as f64, for references and norms.
    fn to_c64(self) -> Complex64;
    fn from_c64(v: Complex64) -> Self;
}

/// The `Scalar` impl of a real type: its own real part, no conjugation.
macro_rules! real_scalar {
    ($t:ty, $letter:expr, $suffix:expr, $cuda:expr) => {
        impl Scalar for $t {
            type Real = $t;
            type Abi = $t;
            const LETTER: char = $letter;
            const SUFFIX: &'static str = $suffix;
            const CUDA_TYPE: &'static str = $cuda;
            const IS_COMPLEX: bool = false;
            const EPS: f64 = <$t>::EPSILON as f64;
            fn from_abi(v: $t) -> Self {
                v
            }
            fn one() -> Self {
                1.0
            }
            fn conj(self) -> Self {
                self
            }
            fn abs(self) -> Self {
                num_traits::Float::abs(self)
            }
            fn abs1(self) -> Self {
                num_traits::Float::abs(self)
            }
            fn from_real(r: Self) -> Self {
                r
            }
            fn scale(self, r: Self) -> Self {
                self * r
            }
            fn is_finite(self) -> bool {
                num_traits::Float::is_finite(self)
            }
            fn fma(a: Self, b: Self, c: Self) -> Self {
                a.mul_add(b, c)
            }
            fn quot(self, d: Self) -> Self {
                self / d
            }
            fn re(self) -> Self {
                self
            }
            fn im(self) -> Self {
                0.0
            }
            fn from_parts(re: Self, _im: Self) -> Self {
                re
            }
            fn to_c64(self) -> Complex64 {
                Complex64::new(self as f64, 0.0)
            }
            fn from_c64(v: Complex64) -> Self {
                v.re as $t
            }
        }
    };
}

real_scalar!(f32, 's', "f32", "float");
real_scalar!(f64, 'd', "f64", "double");

/// The methods both complex types share (their real type is the only difference).
macro_rules! complex_scalar_methods {
    () => {
        fn one() -> Self {
            Self::new(1.0, 0.0)
        }
        fn conj(self) -> Self {
            num_complex::Complex::conj(&self)
        }
        fn abs(self) -> Self::Real {
            self.norm()
        }
        fn abs1(self) -> Self::Real {
            self.re.abs() + self.im.abs()
        }
        fn from_real(r: Self::Real) -> Self {
            Self::new(r, 0.0)
        }
        fn scale(self, r: Self::Real) -> Self {
            Self::new(self.re * r, self.im * r)
        }
        fn is_finite(self) -> bool {
            self.re.is_finite() && self.im.is_finite()
        }
        fn fma(a: Self, b: Self, c: Self) -> Self {
            Self::new(a.re.mul_add(b.re, (-a.im).mul_add(b.im, c.re)), a.re.mul_add(b.im, a.im.mul_add(b.re, c.im)))
        }
        fn re(self) -> Self::Real {
            self.re
        }
        fn im(self) -> Self::Real {
            self.im
        }
        fn from_parts(re: Self::Real, im: Self::Real) -> Self {
            Self::new(re, im)
        }
        fn quot(self, d: Self) -> Self {
            if d.re.abs() >= d.im.abs() {
                let r = d.im / d.re;
                let den = d.im.mul_add(r, d.re);
                Self::new(self.im.mul_add(r, self.re) / den, (-self.re).mul_add(r, self.im) / den)
            } else {
                let r = d.re / d.im;
                let den = d.re.mul_add(r, d.im);
                Self::new(self.re.mul_add(r, self.im) / den, self.im.mul_add(r, -self.re) / den)
            }
        }
    };
}

impl Scalar for Complex32 {
    type Real = f32;
    type Abi = numgpu_complex_float;
    const LETTER: char = 'c';
    const SUFFIX: &'static str = "c32";
    const CUDA_TYPE: &'static str = "ng_complex<float>";
    const IS_COMPLEX: bool = true;
    const EPS: f64 = f32::EPSILON as f64;
    fn from_abi(v: numgpu_complex_float) -> Self {
        Complex32::new(v.re, v.im)
    }
    complex_scalar_methods!();
    fn to_c64(self) -> Complex64 {
        Complex64::new(self.re as f64, self.im as f64)
    }
    fn from_c64(v: Complex64) -> Self {
        Complex32::new(v.re as f32, v.im as f32)
    }
}

impl Scalar for Complex64 {
    type Real = f64;
    type Abi = numgpu_complex_double;
    const LETTER: char = 'z';
    const SUFFIX: &'static str = "c64";
    const CUDA_TYPE: &'static str = "ng_complex<double>";
    const IS_COMPLEX: bool = true;
    const EPS: f64 = f64::EPSILON;
    fn from_abi(v: numgpu_complex_double) -> Self {
        Complex64::new(v.re, v.im)
    }
    complex_scalar_methods!();
    fn to_c64(self) -> Complex64 {
        self
    }
    fn from_c64(v: Complex64) -> Self {
        v
    }
}
