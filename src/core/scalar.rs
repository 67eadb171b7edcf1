//! The four element types every routine is generic over.

use num_complex::{Complex32, Complex64};
use std::fmt::Debug;

/// `float _Complex` as it crosses the C ABI: `{re, im}`, layout-compatible with C99
/// `float _Complex` and Fortran `complex(c_float_complex)`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(non_camel_case_types)]
pub struct numgpu_complex_float {
    pub re: f32,
    pub im: f32,
}

/// `double _Complex` as it crosses the C ABI: `{re, im}`.
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
    + std::ops::Mul<Output = Self>
    + 'static
{
    /// The real type underneath (f32 or f64).
    type Real: Copy + Into<f64> + Debug;
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
    /// (re, im) as f64, for references and norms.
    fn to_c64(self) -> Complex64;
    fn from_c64(v: Complex64) -> Self;
}

impl Scalar for f32 {
    type Real = f32;
    type Abi = f32;
    const LETTER: char = 's';
    const SUFFIX: &'static str = "f32";
    const CUDA_TYPE: &'static str = "float";
    const IS_COMPLEX: bool = false;
    const EPS: f64 = f32::EPSILON as f64;
    fn from_abi(v: f32) -> Self {
        v
    }
    fn one() -> Self {
        1.0
    }
    fn conj(self) -> Self {
        self
    }
    fn to_c64(self) -> Complex64 {
        Complex64::new(self as f64, 0.0)
    }
    fn from_c64(v: Complex64) -> Self {
        v.re as f32
    }
}

impl Scalar for f64 {
    type Real = f64;
    type Abi = f64;
    const LETTER: char = 'd';
    const SUFFIX: &'static str = "f64";
    const CUDA_TYPE: &'static str = "double";
    const IS_COMPLEX: bool = false;
    const EPS: f64 = f64::EPSILON;
    fn from_abi(v: f64) -> Self {
        v
    }
    fn one() -> Self {
        1.0
    }
    fn conj(self) -> Self {
        self
    }
    fn to_c64(self) -> Complex64 {
        Complex64::new(self, 0.0)
    }
    fn from_c64(v: Complex64) -> Self {
        v.re
    }
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
    fn one() -> Self {
        Complex32::new(1.0, 0.0)
    }
    fn conj(self) -> Self {
        Complex32::conj(&self)
    }
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
    fn one() -> Self {
        Complex64::new(1.0, 0.0)
    }
    fn conj(self) -> Self {
        Complex64::conj(&self)
    }
    fn to_c64(self) -> Complex64 {
        self
    }
    fn from_c64(v: Complex64) -> Self {
        v
    }
}
