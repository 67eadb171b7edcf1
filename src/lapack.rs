//! The CBLAS/LAPACK routines the CPU backend calls, and a trait that picks the precision's
//! routine. cblas-sys and lapack-sys declare them, but for the few in the extern block below;
//! openblas-src (system OpenBLAS) and lapack-src link them.

use crate::core::scalar::Scalar;
use cblas_sys::CBLAS_LAYOUT::CblasColMajor;
use cblas_sys::CBLAS_TRANSPOSE::{self, CblasConjTrans, CblasNoTrans, CblasTrans};
use cblas_sys::{cblas_cgemm, cblas_dgemm, cblas_sgemm, cblas_zgemm};
use lapack_sys::{cgeqrf_, dgels_, dgeqrf_, sgeqrf_, zgeqrf_};
use lapack_sys::{cgesv_, dgesv_, sgesv_, zgesv_};
use lapack_sys::{cgtsv_, dgtsv_, sgtsv_, zgtsv_};
use num_complex::{Complex32, Complex64};
use std::ffi::{c_char, c_int, c_void};

pub(crate) const CBLAS_NO_TRANS: c_int = CblasNoTrans as c_int;
pub(crate) const CBLAS_TRANS: c_int = CblasTrans as c_int;
pub(crate) const CBLAS_CONJ_TRANS: c_int = CblasConjTrans as c_int;

// The symbols cblas-sys and lapack-sys do not declare, or declare wrongly.
extern "C" {
    // OpenBLAS's extension, in neither crate.
    fn openblas_set_num_threads(n: c_int);

    // LAPACK auxiliaries that lapack-sys lacks (its source, LAPACKE's lapack.h, has none).
    fn sgetc2_(n: *const c_int, a: *mut f32, lda: *const c_int, ipiv: *mut c_int, jpiv: *mut c_int, info: *mut c_int);
    fn dgetc2_(n: *const c_int, a: *mut f64, lda: *const c_int, ipiv: *mut c_int, jpiv: *mut c_int, info: *mut c_int);
    fn cgetc2_(n: *const c_int, a: *mut c_void, lda: *const c_int, ipiv: *mut c_int, jpiv: *mut c_int, info: *mut c_int);
    fn zgetc2_(n: *const c_int, a: *mut c_void, lda: *const c_int, ipiv: *mut c_int, jpiv: *mut c_int, info: *mut c_int);
    fn sgesc2_(n: *const c_int, a: *const f32, lda: *const c_int, rhs: *mut f32, ipiv: *const c_int, jpiv: *const c_int, scale: *mut f32);
    fn dgesc2_(n: *const c_int, a: *const f64, lda: *const c_int, rhs: *mut f64, ipiv: *const c_int, jpiv: *const c_int, scale: *mut f64);
    fn cgesc2_(n: *const c_int, a: *const c_void, lda: *const c_int, rhs: *mut c_void, ipiv: *const c_int, jpiv: *const c_int, scale: *mut f32);
    fn zgesc2_(n: *const c_int, a: *const c_void, lda: *const c_int, rhs: *mut c_void, ipiv: *const c_int, jpiv: *const c_int, scale: *mut f64);
    fn slartg_(f: *const f32, g: *const f32, c: *mut f32, s: *mut f32, r: *mut f32);
    fn dlartg_(f: *const f64, g: *const f64, c: *mut f64, s: *mut f64, r: *mut f64);
    fn clartg_(f: *const c_void, g: *const c_void, c: *mut f32, s: *mut c_void, r: *mut c_void);
    fn zlartg_(f: *const c_void, g: *const c_void, c: *mut f64, s: *mut c_void, r: *mut c_void);

    // lapack-sys 0.15 omits gfortran's hidden length of TRANS (passed last) here; dgels_ has it.
    fn sgels_(trans: *const c_char, m: *const c_int, n: *const c_int, nrhs: *const c_int, a: *mut f32, lda: *const c_int, b: *mut f32, ldb: *const c_int, work: *mut f32, lwork: *const c_int, info: *mut c_int, trans_len: usize);
    fn cgels_(trans: *const c_char, m: *const c_int, n: *const c_int, nrhs: *const c_int, a: *mut c_void, lda: *const c_int, b: *mut c_void, ldb: *const c_int, work: *mut c_void, lwork: *const c_int, info: *mut c_int, trans_len: usize);
    fn zgels_(trans: *const c_char, m: *const c_int, n: *const c_int, nrhs: *const c_int, a: *mut c_void, lda: *const c_int, b: *mut c_void, ldb: *const c_int, work: *mut c_void, lwork: *const c_int, info: *mut c_int, trans_len: usize);

    // ?potrf, ?potrs, ?posv with gfortran's hidden length of UPLO, which lapack-sys omits.
    fn spotrf_(uplo: *const c_char, n: *const c_int, a: *mut f32, lda: *const c_int, info: *mut c_int, uplo_len: usize);
    fn dpotrf_(uplo: *const c_char, n: *const c_int, a: *mut f64, lda: *const c_int, info: *mut c_int, uplo_len: usize);
    fn cpotrf_(uplo: *const c_char, n: *const c_int, a: *mut c_void, lda: *const c_int, info: *mut c_int, uplo_len: usize);
    fn zpotrf_(uplo: *const c_char, n: *const c_int, a: *mut c_void, lda: *const c_int, info: *mut c_int, uplo_len: usize);
    fn spotrs_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *const f32, lda: *const c_int, b: *mut f32, ldb: *const c_int, info: *mut c_int, uplo_len: usize);
    fn dpotrs_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *const f64, lda: *const c_int, b: *mut f64, ldb: *const c_int, info: *mut c_int, uplo_len: usize);
    fn cpotrs_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *const c_void, lda: *const c_int, b: *mut c_void, ldb: *const c_int, info: *mut c_int, uplo_len: usize);
    fn zpotrs_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *const c_void, lda: *const c_int, b: *mut c_void, ldb: *const c_int, info: *mut c_int, uplo_len: usize);
    fn sposv_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *mut f32, lda: *const c_int, b: *mut f32, ldb: *const c_int, info: *mut c_int, uplo_len: usize);
    fn dposv_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *mut f64, lda: *const c_int, b: *mut f64, ldb: *const c_int, info: *mut c_int, uplo_len: usize);
    fn cposv_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *mut c_void, lda: *const c_int, b: *mut c_void, ldb: *const c_int, info: *mut c_int, uplo_len: usize);
    fn zposv_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *mut c_void, lda: *const c_int, b: *mut c_void, ldb: *const c_int, info: *mut c_int, uplo_len: usize);
    // ?stebz with gfortran's hidden lengths of RANGE and ORDER, which lapack-sys omits.
    fn sstebz_(range: *const c_char, order: *const c_char, n: *const c_int, vl: *const f32, vu: *const f32, il: *const c_int, iu: *const c_int, abstol: *const f32, d: *const f32, e: *const f32, m: *mut c_int, nsplit: *mut c_int, w: *mut f32, iblock: *mut c_int, isplit: *mut c_int, work: *mut f32, iwork: *mut c_int, info: *mut c_int, range_len: usize, order_len: usize);
    fn dstebz_(range: *const c_char, order: *const c_char, n: *const c_int, vl: *const f64, vu: *const f64, il: *const c_int, iu: *const c_int, abstol: *const f64, d: *const f64, e: *const f64, m: *mut c_int, nsplit: *mut c_int, w: *mut f64, iblock: *mut c_int, isplit: *mut c_int, work: *mut f64, iwork: *mut c_int, info: *mut c_int, range_len: usize, order_len: usize);
}

/// cblas-sys's enum for a CBLAS transpose code (`Blas::gemm` takes the code as a `c_int`).
fn transpose(code: c_int) -> CBLAS_TRANSPOSE {
    match code {
        CBLAS_NO_TRANS => CblasNoTrans,
        CBLAS_TRANS => CblasTrans,
        CBLAS_CONJ_TRANS => CblasConjTrans,
        _ => panic!("{code} is not a CBLAS transpose code"),
    }
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
    /// `?potrf`: Cholesky factorisation of the Hermitian positive definite `n × n` matrix at
    /// `a`, the triangle `uplo` (`b'L'`: A = L·Lᴴ, `b'U'`: A = Uᴴ·U) read and overwritten by
    /// the factor; returns `info` (k > 0: the leading minor of order k is not positive
    /// definite).
    unsafe fn potrf(uplo: u8, n: c_int, a: *mut Self, lda: c_int) -> c_int;
    /// `?potrs`: solves `A·X = B` with `?potrf`'s factor of triangle `uplo`; X overwrites the
    /// `n × nrhs` B; returns `info` (< 0 only for a bad argument).
    unsafe fn potrs(uplo: u8, n: c_int, nrhs: c_int, a: *const Self, lda: c_int, b: *mut Self, ldb: c_int) -> c_int;
    /// `?posv`: `?potrf` then `?potrs` (B unchanged when info > 0); returns `info`.
    unsafe fn posv(uplo: u8, n: c_int, nrhs: c_int, a: *mut Self, lda: c_int, b: *mut Self, ldb: c_int) -> c_int;
    /// `?gesv`: solves `A·X = B` by LU with partial pivoting (`ipiv`: n entries); X
    /// overwrites the `n × nrhs` B and the factors A when info = 0; returns `info` (i > 0:
    /// U(i, i) is exactly zero, B not solved).
    unsafe fn gesv(n: c_int, nrhs: c_int, a: *mut Self, lda: c_int, ipiv: *mut c_int, b: *mut Self, ldb: c_int) -> c_int;
}

/// The length a LAPACK workspace query (`lwork = -1`) returned in `work[0]`.
fn workspace_len<T: Scalar>(size: T) -> c_int {
    let len: f64 = size.re().into();
    (len as c_int).max(1)
}

macro_rules! lapack_routines {
    ($getc2:ident, $gesc2:ident, $geqrf:ident, $gels:ident, $lartg:ident, $gtsv:ident, $potrf:ident, $potrs:ident, $posv:ident, $gesv:ident) => {
        unsafe fn potrf(uplo: u8, n: c_int, a: *mut Self, lda: c_int) -> c_int {
            let (mut info, uplo) = (0, uplo as c_char);
            $potrf(&uplo, &n, a as _, &lda, &mut info, 1);
            info
        }
        unsafe fn potrs(uplo: u8, n: c_int, nrhs: c_int, a: *const Self, lda: c_int, b: *mut Self, ldb: c_int) -> c_int {
            let (mut info, uplo) = (0, uplo as c_char);
            $potrs(&uplo, &n, &nrhs, a as _, &lda, b as _, &ldb, &mut info, 1);
            info
        }
        unsafe fn posv(uplo: u8, n: c_int, nrhs: c_int, a: *mut Self, lda: c_int, b: *mut Self, ldb: c_int) -> c_int {
            let (mut info, uplo) = (0, uplo as c_char);
            $posv(&uplo, &n, &nrhs, a as _, &lda, b as _, &ldb, &mut info, 1);
            info
        }
        unsafe fn gesv(n: c_int, nrhs: c_int, a: *mut Self, lda: c_int, ipiv: *mut c_int, b: *mut Self, ldb: c_int) -> c_int {
            let mut info = 0;
            $gesv(&n, &nrhs, a as _, &lda, ipiv, b as _, &ldb, &mut info);
            info
        }
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
    lapack_routines!(sgetc2_, sgesc2_, sgeqrf_, sgels_, slartg_, sgtsv_, spotrf_, spotrs_, sposv_, sgesv_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f32, a: *const f32, lda: c_int, b: *const f32, ldb: c_int, beta: f32, c: *mut f32, ldc: c_int) {
        cblas_sgemm(CblasColMajor, transpose(ta), transpose(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
impl Blas for f64 {
    lapack_routines!(dgetc2_, dgesc2_, dgeqrf_, dgels_, dlartg_, dgtsv_, dpotrf_, dpotrs_, dposv_, dgesv_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: f64, a: *const f64, lda: c_int, b: *const f64, ldb: c_int, beta: f64, c: *mut f64, ldc: c_int) {
        cblas_dgemm(CblasColMajor, transpose(ta), transpose(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
impl Blas for Complex32 {
    lapack_routines!(cgetc2_, cgesc2_, cgeqrf_, cgels_, clartg_, cgtsv_, cpotrf_, cpotrs_, cposv_, cgesv_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int) {
        cblas_cgemm(CblasColMajor, transpose(ta), transpose(tb), m, n, k, &alpha as *const _ as _, a as _, lda, b as _, ldb, &beta as *const _ as _, c as _, ldc)
    }
}
impl Blas for Complex64 {
    lapack_routines!(zgetc2_, zgesc2_, zgeqrf_, zgels_, zlartg_, zgtsv_, zpotrf_, zpotrs_, zposv_, zgesv_);
    unsafe fn gemm(ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int, alpha: Self, a: *const Self, lda: c_int, b: *const Self, ldb: c_int, beta: Self, c: *mut Self, ldc: c_int) {
        cblas_zgemm(CblasColMajor, transpose(ta), transpose(tb), m, n, k, &alpha as *const _ as _, a as _, lda, b as _, ldb, &beta as *const _ as _, c as _, ldc)
    }
}

/// LAPACK's symmetric tridiagonal eigenvalue routines of one real precision.
///
/// # Safety
/// As [`Blas`].
#[allow(clippy::missing_safety_doc)]
pub trait RealLapack: Blas<Real = Self> + num_traits::Float {
    /// `?stebz` with ORDER = 'E': eigenvalues of the tridiagonal matrix with diagonal `d` (n)
    /// and off-diagonal `e` (n − 1) in the range `range` (b'A', b'V' or b'I'), ascending in
    /// `w` (n entries, used as workspace beyond m); `iblock` and `isplit` hold n each, `work`
    /// 4n and `iwork` 3n. Returns (m, info).
    #[allow(clippy::too_many_arguments)]
    unsafe fn stebz(range: u8, n: c_int, vl: Self, vu: Self, il: c_int, iu: c_int, abstol: Self, d: *const Self, e: *const Self, w: *mut Self, iblock: *mut c_int, isplit: *mut c_int, work: *mut Self, iwork: *mut c_int) -> (c_int, c_int);
    /// `?sterf`: every eigenvalue of the tridiagonal matrix (d, e), ascending in `d`; `e` is
    /// destroyed. Returns info.
    unsafe fn sterf(n: c_int, d: *mut Self, e: *mut Self) -> c_int;
}

macro_rules! real_lapack {
    ($t:ty, $stebz:ident, $sterf:ident) => {
        impl RealLapack for $t {
            unsafe fn stebz(range: u8, n: c_int, vl: $t, vu: $t, il: c_int, iu: c_int, abstol: $t, d: *const $t, e: *const $t, w: *mut $t, iblock: *mut c_int, isplit: *mut c_int, work: *mut $t, iwork: *mut c_int) -> (c_int, c_int) {
                let (range, order) = (range as c_char, b'E' as c_char);
                let (mut m, mut nsplit, mut info) = (0, 0, 0);
                $stebz(&range, &order, &n, &vl, &vu, &il, &iu, &abstol, d, e, &mut m, &mut nsplit, w, iblock, isplit, work, iwork, &mut info, 1, 1);
                (m, info)
            }
            unsafe fn sterf(n: c_int, d: *mut $t, e: *mut $t) -> c_int {
                let mut info = 0;
                lapack_sys::$sterf(&n, d, e, &mut info);
                info
            }
        }
    };
}

real_lapack!(f32, sstebz_, ssterf_);
real_lapack!(f64, dstebz_, dsterf_);

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gesv_solves_and_reports_an_exactly_singular_matrix() {
        // [[2, 1], [4, 3]]·X = [[4, 1], [10, 0]] (column-major): X = [[1, 1.5], [2, -2]].
        let (mut a, mut b, mut ipiv) = ([2.0f64, 4.0, 1.0, 3.0], [4.0f64, 10.0, 1.0, 0.0], [0; 2]);
        // SAFETY: 2 × 2 matrices and 2 pivots.
        let info = unsafe { f64::gesv(2, 2, a.as_mut_ptr(), 2, ipiv.as_mut_ptr(), b.as_mut_ptr(), 2) };
        assert_eq!((info, b), (0, [1.0, 2.0, 1.5, -2.0]));
        let (mut s, mut c, mut ip) = ([Complex32::new(1.0, 1.0), Complex32::new(2.0, 2.0), Complex32::new(1.0, 1.0), Complex32::new(2.0, 2.0)], [Complex32::new(1.0, 0.0); 2], [0; 2]);
        // SAFETY: as above, one right-hand side.
        let info = unsafe { Complex32::gesv(2, 1, s.as_mut_ptr(), 2, ip.as_mut_ptr(), c.as_mut_ptr(), 2) };
        assert_eq!(info, 2, "the second pivot of a rank-1 matrix is exactly zero");
    }
}
