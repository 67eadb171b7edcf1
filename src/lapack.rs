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
}

/// BLAS routines of one precision.
pub trait Blas: Scalar {
    /// `cblas_?gemm`, column-major; ops are CBLAS codes; sizes fit `c_int` (checked by caller).
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int);
}

impl Blas for f32 {
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f32, a: *const f32, lda: c_int, b: *const f32, ldb: c_int, beta: f32, c: *mut f32, ldc: c_int) {
        cblas_sgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
impl Blas for f64 {
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f64, a: *const f64, lda: c_int, b: *const f64, ldb: c_int, beta: f64, c: *mut f64, ldc: c_int) {
        cblas_dgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
impl Blas for Complex32 {
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int) {
        cblas_cgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, &alpha as *const _ as _, a as _, lda, b as _, ldb, &beta as *const _ as _, c as _, ldc)
    }
}
impl Blas for Complex64 {
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
