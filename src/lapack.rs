//! The CBLAS/LAPACK/OpenBLAS symbols the CPU backend calls, and a trait that picks the
//! precision's routine. Linked through openblas-src (system OpenBLAS) and lapack-src.

use crate::core::scalar::Scalar;
use num_complex::{Complex32, Complex64};
use std::ffi::{c_char, c_int, c_void};

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

    // Householder QR, least squares and plane rotations: the references of the Givens QR
    // tests (Fortran symbols; `?gels_` takes TRANS's hidden length last).
    pub fn sgeqrf_(m: *const c_int, n: *const c_int, a: *mut f32, lda: *const c_int, tau: *mut f32, work: *mut f32, lwork: *const c_int, info: *mut c_int);
    pub fn dgeqrf_(m: *const c_int, n: *const c_int, a: *mut f64, lda: *const c_int, tau: *mut f64, work: *mut f64, lwork: *const c_int, info: *mut c_int);
    pub fn cgeqrf_(m: *const c_int, n: *const c_int, a: *mut c_void, lda: *const c_int, tau: *mut c_void, work: *mut c_void, lwork: *const c_int, info: *mut c_int);
    pub fn zgeqrf_(m: *const c_int, n: *const c_int, a: *mut c_void, lda: *const c_int, tau: *mut c_void, work: *mut c_void, lwork: *const c_int, info: *mut c_int);
    pub fn sgels_(trans: *const c_char, m: *const c_int, n: *const c_int, nrhs: *const c_int, a: *mut f32, lda: *const c_int, b: *mut f32, ldb: *const c_int, work: *mut f32, lwork: *const c_int, info: *mut c_int, trans_len: usize);
    pub fn dgels_(trans: *const c_char, m: *const c_int, n: *const c_int, nrhs: *const c_int, a: *mut f64, lda: *const c_int, b: *mut f64, ldb: *const c_int, work: *mut f64, lwork: *const c_int, info: *mut c_int, trans_len: usize);
    pub fn cgels_(trans: *const c_char, m: *const c_int, n: *const c_int, nrhs: *const c_int, a: *mut c_void, lda: *const c_int, b: *mut c_void, ldb: *const c_int, work: *mut c_void, lwork: *const c_int, info: *mut c_int, trans_len: usize);
    pub fn zgels_(trans: *const c_char, m: *const c_int, n: *const c_int, nrhs: *const c_int, a: *mut c_void, lda: *const c_int, b: *mut c_void, ldb: *const c_int, work: *mut c_void, lwork: *const c_int, info: *mut c_int, trans_len: usize);
    pub fn slartg_(f: *const f32, g: *const f32, c: *mut f32, s: *mut f32, r: *mut f32);
    pub fn dlartg_(f: *const f64, g: *const f64, c: *mut f64, s: *mut f64, r: *mut f64);
    pub fn clartg_(f: *const c_void, g: *const c_void, c: *mut f32, s: *mut c_void, r: *mut c_void);
    pub fn zlartg_(f: *const c_void, g: *const c_void, c: *mut f64, s: *mut c_void, r: *mut c_void);

    // Tridiagonal solve by Gaussian elimination with partial pivoting: the CPU backend of the
    // gtsv_spike family (Fortran symbols; the diagonals are overwritten with the factors).
    pub fn sgtsv_(n: *const c_int, nrhs: *const c_int, dl: *mut f32, d: *mut f32, du: *mut f32, b: *mut f32, ldb: *const c_int, info: *mut c_int);
    pub fn dgtsv_(n: *const c_int, nrhs: *const c_int, dl: *mut f64, d: *mut f64, du: *mut f64, b: *mut f64, ldb: *const c_int, info: *mut c_int);
    pub fn cgtsv_(n: *const c_int, nrhs: *const c_int, dl: *mut c_void, d: *mut c_void, du: *mut c_void, b: *mut c_void, ldb: *const c_int, info: *mut c_int);
    pub fn zgtsv_(n: *const c_int, nrhs: *const c_int, dl: *mut c_void, d: *mut c_void, du: *mut c_void, b: *mut c_void, ldb: *const c_int, info: *mut c_int);
}

/// BLAS and LAPACK routines of one precision.
///
/// # Safety
/// Every `unsafe` method calls the library routine on the caller's pointers: each must be
/// valid for the extent its sizes and leading dimensions imply, as the routine's
/// documentation states, and the sizes must be valid for the routine.
#[allow(clippy::missing_safety_doc)]
pub trait Blas: Scalar {
    /// `cblas_?gemm`, column-major; ops are CBLAS codes; sizes fit `c_int` (checked by caller).
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int);
    /// `?getc2`: LU with complete pivoting of the `n × n` matrix at `a`; returns `info`.
    unsafe fn getc2(n: c_int, a: *mut Self, lda: c_int, ipiv: *mut c_int, jpiv: *mut c_int) -> c_int;
    /// `?gesc2`: solves with `?getc2`'s factors, one right-hand side; returns `scale`.
    unsafe fn gesc2(n: c_int, a: *const Self, lda: c_int, rhs: *mut Self, ipiv: *const c_int, jpiv: *const c_int) -> Self::Real;
    /// `?geqrf`: Householder QR of the `m × n` matrix at `a` (R above the diagonal, the
    /// reflectors below), `tau` of `min(m, n)`; returns `info`. Allocates its workspace.
    unsafe fn geqrf(m: c_int, n: c_int, a: *mut Self, lda: c_int, tau: *mut Self) -> c_int;
    /// `?gels` with TRANS = 'N': least squares `min ‖A·X − B‖` (m >= n), X in `B(1:n, :)`;
    /// returns `info`. Allocates its workspace.
    unsafe fn gels(m: c_int, n: c_int, nrhs: c_int, a: *mut Self, lda: c_int, b: *mut Self, ldb: c_int) -> c_int;
    /// `?lartg`: the plane rotation `(c, s, r)` with `[c s; −conj(s) c]·[f; g] = [r; 0]`.
    fn lartg(f: Self, g: Self) -> (Self::Real, Self, Self);
    /// `?gtsv`: solves `T·X = B` for the `n × n` tridiagonal T with sub-diagonal `dl` (n − 1
    /// entries), diagonal `d` (n) and super-diagonal `du` (n − 1) by Gaussian elimination with
    /// partial pivoting; X overwrites the `n × nrhs` B when info = 0. The three diagonals are
    /// overwritten (with U and the multipliers), and so is B, partly, when info > 0; returns
    /// `info` (i > 0: U(i, i) is exactly zero).
    unsafe fn gtsv(n: c_int, nrhs: c_int, dl: *mut Self, d: *mut Self, du: *mut Self, b: *mut Self, ldb: c_int) -> c_int;
}

/// The length a LAPACK workspace query (`lwork = -1`) returned in `work[0]`.
fn workspace_len<T: Scalar>(size: T) -> c_int {
    let len: f64 = size.re().into();
    (len as c_int).max(1)
}

macro_rules! lapack_routines {
    ($getc2:ident, $gesc2:ident, $geqrf:ident, $gels:ident, $lartg:ident, $gtsv:ident) => {
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
        unsafe fn geqrf(m: c_int, n: c_int, a: *mut Self, lda: c_int, tau: *mut Self) -> c_int {
            let (mut info, mut size) = (0, Self::zero());
            $geqrf(&m, &n, a as _, &lda, tau as _, &mut size as *mut Self as _, &-1, &mut info);
            let lwork = workspace_len(size);
            let mut work = vec![Self::zero(); lwork as usize];
            $geqrf(&m, &n, a as _, &lda, tau as _, work.as_mut_ptr() as _, &lwork, &mut info);
            info
        }
        unsafe fn gels(m: c_int, n: c_int, nrhs: c_int, a: *mut Self, lda: c_int, b: *mut Self, ldb: c_int) -> c_int {
            let (mut info, mut size, trans) = (0, Self::zero(), b'N' as c_char);
            $gels(&trans, &m, &n, &nrhs, a as _, &lda, b as _, &ldb, &mut size as *mut Self as _, &-1, &mut info, 1);
            let lwork = workspace_len(size);
            let mut work = vec![Self::zero(); lwork as usize];
            $gels(&trans, &m, &n, &nrhs, a as _, &lda, b as _, &ldb, work.as_mut_ptr() as _, &lwork, &mut info, 1);
            info
        }
        fn lartg(f: Self, g: Self) -> (Self::Real, Self, Self) {
            let (mut c, mut s, mut r) = (Default::default(), Self::zero(), Self::zero());
            // SAFETY: scalars by reference, as the Fortran interface takes them.
            unsafe { $lartg(&f as *const Self as _, &g as *const Self as _, &mut c, &mut s as *mut Self as _, &mut r as *mut Self as _) };
            (c, s, r)
        }
        unsafe fn gtsv(n: c_int, nrhs: c_int, dl: *mut Self, d: *mut Self, du: *mut Self, b: *mut Self, ldb: c_int) -> c_int {
            let mut info = 0;
            $gtsv(&n, &nrhs, dl as _, d as _, du as _, b as _, &ldb, &mut info);
            info
        }
    };
}

impl Blas for f32 {
    lapack_routines!(sgetc2_, sgesc2_, sgeqrf_, sgels_, slartg_, sgtsv_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f32, a: *const f32, lda: c_int, b: *const f32, ldb: c_int, beta: f32, c: *mut f32, ldc: c_int) {
        cblas_sgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
impl Blas for f64 {
    lapack_routines!(dgetc2_, dgesc2_, dgeqrf_, dgels_, dlartg_, dgtsv_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f64, a: *const f64, lda: c_int, b: *const f64, ldb: c_int, beta: f64, c: *mut f64, ldc: c_int) {
        cblas_dgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
impl Blas for Complex32 {
    lapack_routines!(cgetc2_, cgesc2_, cgeqrf_, cgels_, clartg_, cgtsv_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int) {
        cblas_cgemm(CBLAS_COL_MAJOR, ta, tb, m, n, k, &alpha as *const _ as _, a as _, lda, b as _, ldb, &beta as *const _ as _, c as _, ldc)
    }
}
impl Blas for Complex64 {
    lapack_routines!(zgetc2_, zgesc2_, zgeqrf_, zgels_, zlartg_, zgtsv_);
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
