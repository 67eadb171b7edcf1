//! The CBLAS/LAPACK/OpenBLAS symbols the CPU backend calls, and a trait that picks the
//! precision's routine. Linked through openblas-src (system OpenBLAS) and lapack-src.

use crate::core::scalar::Scalar;
use num_complex::{Complex32, Complex64};
use std::ffi::{c_int, c_void};

pub(crate) const CBLAS_COL_MAJOR: c_int = 102;
pub(crate) const CBLAS_NO_TRANS: c_int = 111;
pub(crate) const CBLAS_TRANS: c_int = 112;
pub(crate) const CBLAS_CONJ_TRANS: c_int = 113;

extern "C" {
    pub fn cblas_sgemm(o: c_int, ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f32, a: *const f32, lda: c_int, b: *const f32, ldb: c_int, beta: f32, c: *mut f32, ldc: c_int);
    pub fn cblas_dgemm(o: c_int, ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f64, a: *const f64, lda: c_int, b: *const f64, ldb: c_int, beta: f64, c: *mut f64, ldc: c_int);
    pub fn cblas_cgemm(o: c_int, ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const c_void, a: *const c_void, lda: c_int, b: *const c_void, ldb: c_int, beta: *const c_void, c: *mut c_void, ldc: c_int);
    pub fn cblas_zgemm(o: c_int, ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const c_void, a: *const c_void, lda: c_int, b: *const c_void, ldb: c_int, beta: *const c_void, c: *mut c_void, ldc: c_int);
    pub fn openblas_set_num_threads(n: c_int);

    // LAPACK's auxiliary complete-pivoting LU (Fortran symbols: LAPACKE has no wrapper).
    pub fn sgetc2_(n: *const c_int, a: *mut f32, lda: *const c_int, ipiv: *mut c_int, jpiv: *mut c_int, info: *mut c_int);
    pub fn dgetc2_(n: *const c_int, a: *mut f64, lda: *const c_int, ipiv: *mut c_int, jpiv: *mut c_int, info: *mut c_int);
    pub fn cgetc2_(n: *const c_int, a: *mut c_void, lda: *const c_int, ipiv: *mut c_int, jpiv: *mut c_int, info: *mut c_int);
    pub fn zgetc2_(n: *const c_int, a: *mut c_void, lda: *const c_int, ipiv: *mut c_int, jpiv: *mut c_int, info: *mut c_int);
    pub fn sgesc2_(n: *const c_int, a: *const f32, lda: *const c_int, rhs: *mut f32, ipiv: *const c_int, jpiv: *const c_int, scale: *mut f32);
    pub fn dgesc2_(n: *const c_int, a: *const f64, lda: *const c_int, rhs: *mut f64, ipiv: *const c_int, jpiv: *const c_int, scale: *mut f64);
    pub fn cgesc2_(n: *const c_int, a: *const c_void, lda: *const c_int, rhs: *mut c_void, ipiv: *const c_int, jpiv: *const c_int, scale: *mut f32);
    pub fn zgesc2_(n: *const c_int, a: *const c_void, lda: *const c_int, rhs: *mut c_void, ipiv: *const c_int, jpiv: *const c_int, scale: *mut f64);
}

/// BLAS and LAPACK routines of one precision.
pub trait Blas: Scalar {
    /// `cblas_?gemm`, column-major; ops are CBLAS codes; sizes fit `c_int` (checked by caller).
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int);
    /// `?getc2`: LU with complete pivoting of the `n × n` matrix at `a`; returns `info`.
    unsafe fn getc2(n: c_int, a: *mut Self, lda: c_int, ipiv: *mut c_int, jpiv: *mut c_int) -> c_int;
    /// `?gesc2`: solves with `?getc2`'s factors, one right-hand side; returns `scale`.
    unsafe fn gesc2(n: c_int, a: *const Self, lda: c_int, rhs: *mut Self, ipiv: *const c_int, jpiv: *const c_int) -> Self::Real;
}

macro_rules! lapack_getc2 {
    ($getc2:ident, $gesc2:ident) => {
        unsafe fn getc2(n: c_int, a: *mut Self, lda: c_int, ipiv: *mut c_int, jpiv: *mut c_int) -> c_int {
            let mut info = 0;
            $getc2(&n, a as _, &lda, ipiv, jpiv, &mut info);
            info
        }
        unsafe fn gesc2(n: c_int, a: *const Self, lda: c_int, rhs: *mut Self, ipiv: *const c_int, jpiv: *const c_int) -> Self::Real {
            let mut scale = Default::default();
            $gesc2(&n, a as _, &lda, rhs as _, ipiv, jpiv, &mut scale);
            scale
        }
    };
}

impl Blas for f32 {
    lapack_getc2!(sgetc2_, sgesc2_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f32, a: *const f32, lda: c_int, b: *const f32, ldb: c_int, beta: f32, c: *mut f32, ldc: c_int) {
        cblas_sgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
impl Blas for f64 {
    lapack_getc2!(dgetc2_, dgesc2_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f64, a: *const f64, lda: c_int, b: *const f64, ldb: c_int, beta: f64, c: *mut f64, ldc: c_int) {
        cblas_dgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
impl Blas for Complex32 {
    lapack_getc2!(cgetc2_, cgesc2_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int) {
        cblas_cgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, &alpha as *const _ as _, a as _, lda, b as _, ldb, &beta as *const _ as _, c as _, ldc)
    }
}
impl Blas for Complex64 {
    lapack_getc2!(zgetc2_, zgesc2_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int) {
        cblas_zgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, &alpha as *const _ as _, a as _, lda, b as _, ldb, &beta as *const _ as _, c as _, ldc)
    }
}

/// Puts OpenBLAS in single-threaded mode, once per process. The CPU backend parallelises
/// with rayon itself (over the batch, and over column blocks of one large product), so the
/// cores are never oversubscribed, and no call changes OpenBLAS's global thread count while
/// another runs: the per-element summation order, and so the result, does not depend on
/// what else the process is doing.
pub fn single_threaded_blas() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: a plain setter of OpenBLAS's global thread count, called before any of our BLAS
    // calls.
    ONCE.call_once(|| unsafe { openblas_set_num_threads(1) });
}
