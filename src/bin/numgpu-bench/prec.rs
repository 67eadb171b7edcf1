//! The four precisions as the peers see them: numgpu's element type, its cuBLAS routines (raw
//! calls through cudarc's bindings: gemm, getrf, geqrf), its cuSPARSE tridiagonal solvers
//! (gtsv2, gtsv2_nopivot, gtsv2StridedBatch, gtsvInterleavedBatch) and value type, and LAPACK
//! `?geqrf` with a caller's workspace; for the real precisions ([`Eig`]) cuSOLVER's dense
//! symmetric eigensolvers (`Xsyev`) and LAPACK's `?stebz` (numgpu's `RealLapack`); cuSOLVER's
//! batched Cholesky (`potrfBatched`, [`Chol`]). numgpu's
//! complex types are {re, im}, laid out as cuComplex / cuDoubleComplex. Every call takes raw device addresses; the caller vouches
//! (SAFETY) that they hold what the call reads and writes.

use cudarc::cublas::sys as cb;
use cudarc::cusolver::sys as csv;
use cudarc::cusparse::sys as cs;
use numgpu::lapack::{Blas, RealLapack};
use numgpu::{Complex32, Complex64};
use std::ffi::c_void;

/// One precision's peer routines; `dl`, `d`, `du` of cuSPARSE are n entries per system
/// (dl's first and du's last zero), the `*_buffer` calls return their workspace's bytes.
#[allow(clippy::too_many_arguments, clippy::missing_safety_doc)]
pub trait Prec: Blas {
    /// cuSPARSE's name of the type.
    const VALUE_TYPE: cs::cudaDataType;
    /// `cublas<t>gemmStridedBatched`, C_i = alpha·A_i·B_i + beta·C_i, square n, packed.
    unsafe fn gemm_strided(h: cb::cublasHandle_t, n: i32, alpha: &Self, a: u64, b: u64, beta: &Self, c: u64, batch: i32) -> cb::cublasStatus_t;
    /// `cublas<t>gemmBatched` with device pointer arrays.
    unsafe fn gemm_array(h: cb::cublasHandle_t, n: i32, alpha: &Self, pa: u64, pb: u64, beta: &Self, pc: u64, batch: i32) -> cb::cublasStatus_t;
    /// `cublas<t>getrfBatched` (partial pivoting) of the n×n matrices the pointer array names.
    unsafe fn getrf_batched(h: cb::cublasHandle_t, n: i32, pa: u64, piv: u64, info: u64, batch: i32) -> cb::cublasStatus_t;
    /// `cublas<t>geqrfBatched` (Householder) of the n×n matrices `pa` names, tau vectors
    /// `ptau`; `info` is the argument check's result, not a per-matrix status.
    unsafe fn geqrf_batched(h: cb::cublasHandle_t, n: i32, pa: u64, ptau: u64, info: &mut i32, batch: i32) -> cb::cublasStatus_t;
    /// LAPACK `?geqrf` of the n×n matrix at `a` with the caller's workspace (reused across
    /// matrices, where `Blas::geqrf` allocates per call); returns `info`.
    unsafe fn lapack_geqrf(n: i32, a: *mut Self, tau: *mut Self, work: &mut [Self]) -> i32;
    /// The optimal workspace length of `lapack_geqrf` (LAPACK's query, lwork = −1).
    fn geqrf_lwork(n: i32) -> usize;
    /// `cusparse<t>gtsv2` (`pivot`) or `gtsv2_nopivot` on one system of order m, one
    /// right-hand side: the workspace size (`buf` None) or the solve.
    unsafe fn gtsv2(h: cs::cusparseHandle_t, pivot: bool, m: i32, dl: u64, d: u64, du: u64, b: u64, buf: Option<u64>, bytes: &mut usize) -> cs::cusparseStatus_t;
    /// `cusparse<t>gtsv2StridedBatch` (no pivoting), system i at `i·m`: size or solve.
    unsafe fn gtsv_strided(h: cs::cusparseHandle_t, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, buf: Option<u64>, bytes: &mut usize) -> cs::cusparseStatus_t;
    /// `cusparse<t>gtsvInterleavedBatch` with algorithm `algo` (0 Thomas, 1 LU, 2 QR), entry
    /// k of system i at `k·batch + i`: size or solve (which overwrites dl, d, du too).
    unsafe fn gtsv_interleaved(h: cs::cusparseHandle_t, algo: i32, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, buf: Option<u64>, bytes: &mut usize) -> cs::cusparseStatus_t;
}

macro_rules! prec {
    ($t:ty, $ct:ty, $st:ty, $vt:ident, [$gs:ident, $ga:ident, $getrf:ident, $geqrf:ident, $lgeqrf:ident], [$g2:ident, $g2n:ident, $g2b:ident, $g2nb:ident, $sb:ident, $sbb:ident, $ib:ident, $ibb:ident]) => {
        #[allow(clippy::too_many_arguments)]
        impl Prec for $t {
            const VALUE_TYPE: cs::cudaDataType = cs::cudaDataType::$vt;
            unsafe fn gemm_strided(h: cb::cublasHandle_t, n: i32, alpha: &Self, a: u64, b: u64, beta: &Self, c: u64, batch: i32) -> cb::cublasStatus_t {
                use cb::cublasOperation_t::CUBLAS_OP_N as N;
                let (al, be, s) = (alpha as *const $t as *const $ct, beta as *const $t as *const $ct, n as i64 * n as i64);
                cb::$gs(h, N, N, n, n, n, al, a as *const $ct, n, s, b as *const $ct, n, s, be, c as *mut $ct, n, s, batch)
            }
            unsafe fn gemm_array(h: cb::cublasHandle_t, n: i32, alpha: &Self, pa: u64, pb: u64, beta: &Self, pc: u64, batch: i32) -> cb::cublasStatus_t {
                use cb::cublasOperation_t::CUBLAS_OP_N as N;
                let (al, be) = (alpha as *const $t as *const $ct, beta as *const $t as *const $ct);
                cb::$ga(h, N, N, n, n, n, al, pa as *const *const $ct, n, pb as *const *const $ct, n, be, pc as *const *mut $ct, n, batch)
            }
            unsafe fn getrf_batched(h: cb::cublasHandle_t, n: i32, pa: u64, piv: u64, info: u64, batch: i32) -> cb::cublasStatus_t {
                cb::$getrf(h, n, pa as *const *mut $ct, n, piv as *mut i32, info as *mut i32, batch)
            }
            unsafe fn geqrf_batched(h: cb::cublasHandle_t, n: i32, pa: u64, ptau: u64, info: &mut i32, batch: i32) -> cb::cublasStatus_t {
                cb::$geqrf(h, n, n, pa as *const *mut $ct, n, ptau as *const *mut $ct, info, batch)
            }
            unsafe fn lapack_geqrf(n: i32, a: *mut Self, tau: *mut Self, work: &mut [Self]) -> i32 {
                let (lwork, mut info) = (work.len() as i32, 0);
                lapack_sys::$lgeqrf(&n, &n, a as _, &n, tau as _, work.as_mut_ptr() as _, &lwork, &mut info);
                info
            }
            fn geqrf_lwork(n: i32) -> usize {
                let (mut size, mut info, mut a, mut tau) = (<$t>::default(), 0, <$t>::default(), <$t>::default());
                // SAFETY: a workspace query (lwork = −1) reads no matrix and writes work[0].
                unsafe { lapack_sys::$lgeqrf(&n, &n, &mut a as *mut $t as _, &n.max(1), &mut tau as *mut $t as _, &mut size as *mut $t as _, &-1, &mut info) };
                (numgpu::Scalar::to_c64(size).re as usize).max(n.max(1) as usize)
            }
            unsafe fn gtsv2(h: cs::cusparseHandle_t, pivot: bool, m: i32, dl: u64, d: u64, du: u64, b: u64, buf: Option<u64>, bytes: &mut usize) -> cs::cusparseStatus_t {
                let (dl, d, du) = (dl as *const $st, d as *const $st, du as *const $st);
                match (buf, pivot) {
                    (None, true) => cs::$g2b(h, m, 1, dl, d, du, b as *const $st, m, bytes),
                    (None, false) => cs::$g2nb(h, m, 1, dl, d, du, b as *const $st, m, bytes),
                    (Some(w), true) => cs::$g2(h, m, 1, dl, d, du, b as *mut $st, m, w as *mut c_void),
                    (Some(w), false) => cs::$g2n(h, m, 1, dl, d, du, b as *mut $st, m, w as *mut c_void),
                }
            }
            unsafe fn gtsv_strided(h: cs::cusparseHandle_t, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, buf: Option<u64>, bytes: &mut usize) -> cs::cusparseStatus_t {
                let (dl, d, du) = (dl as *const $st, d as *const $st, du as *const $st);
                match buf {
                    None => cs::$sbb(h, m, dl, d, du, x as *const $st, batch, m, bytes),
                    Some(w) => cs::$sb(h, m, dl, d, du, x as *mut $st, batch, m, w as *mut c_void),
                }
            }
            unsafe fn gtsv_interleaved(h: cs::cusparseHandle_t, algo: i32, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, buf: Option<u64>, bytes: &mut usize) -> cs::cusparseStatus_t {
                match buf {
                    None => cs::$ibb(h, algo, m, dl as *const $st, d as *const $st, du as *const $st, x as *const $st, batch, bytes),
                    Some(w) => cs::$ib(h, algo, m, dl as *mut $st, d as *mut $st, du as *mut $st, x as *mut $st, batch, w as *mut c_void),
                }
            }
        }
    };
}

#[rustfmt::skip]
mod stamps {
    use super::*;
    prec!(f32, f32, f32, CUDA_R_32F, [cublasSgemmStridedBatched, cublasSgemmBatched, cublasSgetrfBatched, cublasSgeqrfBatched, sgeqrf_],
        [cusparseSgtsv2, cusparseSgtsv2_nopivot, cusparseSgtsv2_bufferSizeExt, cusparseSgtsv2_nopivot_bufferSizeExt, cusparseSgtsv2StridedBatch, cusparseSgtsv2StridedBatch_bufferSizeExt, cusparseSgtsvInterleavedBatch, cusparseSgtsvInterleavedBatch_bufferSizeExt]);
    prec!(f64, f64, f64, CUDA_R_64F, [cublasDgemmStridedBatched, cublasDgemmBatched, cublasDgetrfBatched, cublasDgeqrfBatched, dgeqrf_],
        [cusparseDgtsv2, cusparseDgtsv2_nopivot, cusparseDgtsv2_bufferSizeExt, cusparseDgtsv2_nopivot_bufferSizeExt, cusparseDgtsv2StridedBatch, cusparseDgtsv2StridedBatch_bufferSizeExt, cusparseDgtsvInterleavedBatch, cusparseDgtsvInterleavedBatch_bufferSizeExt]);
    prec!(Complex32, cb::cuComplex, cs::cuComplex, CUDA_C_32F, [cublasCgemmStridedBatched, cublasCgemmBatched, cublasCgetrfBatched, cublasCgeqrfBatched, cgeqrf_],
        [cusparseCgtsv2, cusparseCgtsv2_nopivot, cusparseCgtsv2_bufferSizeExt, cusparseCgtsv2_nopivot_bufferSizeExt, cusparseCgtsv2StridedBatch, cusparseCgtsv2StridedBatch_bufferSizeExt, cusparseCgtsvInterleavedBatch, cusparseCgtsvInterleavedBatch_bufferSizeExt]);
    prec!(Complex64, cb::cuDoubleComplex, cs::cuDoubleComplex, CUDA_C_64F, [cublasZgemmStridedBatched, cublasZgemmBatched, cublasZgetrfBatched, cublasZgeqrfBatched, zgeqrf_],
        [cusparseZgtsv2, cusparseZgtsv2_nopivot, cusparseZgtsv2_bufferSizeExt, cusparseZgtsv2_nopivot_bufferSizeExt, cusparseZgtsv2StridedBatch, cusparseZgtsv2StridedBatch_bufferSizeExt, cusparseZgtsvInterleavedBatch, cusparseZgtsvInterleavedBatch_bufferSizeExt]);
}

/// A real precision as cuSOLVER's 64-bit dense eigensolvers see it (eigenvalues only, the
/// lower triangle of column-major n×n matrices, lda = n): with `buf` None the workspace's
/// (device, host) bytes into `bytes`, else the call with that device buffer and host buffer.
#[allow(clippy::too_many_arguments, clippy::missing_safety_doc)]
pub trait Eig: Prec + RealLapack {
    const SOLVER_TYPE: csv::cudaDataType;
    /// `cusolverDnXsyevBatched` of `batch` packed matrices at `a` (overwritten), eigenvalues
    /// ascending at `w` (n per matrix), `info` one int per matrix.
    unsafe fn syev_batched(h: csv::cusolverDnHandle_t, p: csv::cusolverDnParams_t, n: i64, a: u64, w: u64, info: u64, batch: i64, buf: Option<(u64, &mut [u8])>, bytes: &mut (usize, usize)) -> csv::cusolverStatus_t {
        let (mode, lower, t) = (csv::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR, csv::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER, Self::SOLVER_TYPE);
        match buf {
            None => csv::cusolverDnXsyevBatched_bufferSize(h, p, mode, lower, n, t, a as _, n, t, w as _, t, &mut bytes.0, &mut bytes.1, batch),
            Some((dev, host)) => csv::cusolverDnXsyevBatched(h, p, mode, lower, n, t, a as _, n, t, w as _, t, dev as _, bytes.0, host.as_mut_ptr() as _, bytes.1, info as _, batch),
        }
    }
    /// `cusolverDnXsyevd` of the matrix at `a` (overwritten): every eigenvalue, ascending at
    /// `w`, `info` one int.
    unsafe fn syevd(h: csv::cusolverDnHandle_t, p: csv::cusolverDnParams_t, n: i64, a: u64, w: u64, info: u64, buf: Option<(u64, &mut [u8])>, bytes: &mut (usize, usize)) -> csv::cusolverStatus_t {
        let (mode, lower, t) = (csv::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR, csv::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER, Self::SOLVER_TYPE);
        match buf {
            None => csv::cusolverDnXsyevd_bufferSize(h, p, mode, lower, n, t, a as _, n, t, w as _, t, &mut bytes.0, &mut bytes.1),
            Some((dev, host)) => csv::cusolverDnXsyevd(h, p, mode, lower, n, t, a as _, n, t, w as _, t, dev as _, bytes.0, host.as_mut_ptr() as _, bytes.1, info as _),
        }
    }
    /// `cusolverDnXsyevdx` of the matrix at `a` (overwritten): every eigenvalue (`index`
    /// None) or those of index il … iu (1-based), ascending at `w`, their number in `meig`,
    /// `info` one int.
    unsafe fn syevdx(h: csv::cusolverDnHandle_t, p: csv::cusolverDnParams_t, n: i64, index: Option<(i64, i64)>, a: u64, w: u64, meig: &mut i64, info: u64, buf: Option<(u64, &mut [u8])>, bytes: &mut (usize, usize)) -> csv::cusolverStatus_t {
        use csv::cusolverEigRange_t::{CUSOLVER_EIG_RANGE_ALL as ALL, CUSOLVER_EIG_RANGE_I as I};
        let (mode, lower, t) = (csv::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR, csv::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER, Self::SOLVER_TYPE);
        let (range, (il, iu)) = index.map_or((ALL, (1, n)), |w| (I, w));
        // vl and vu are not referenced for these ranges, but must point at a T.
        let (mut vl, mut vu): (Self, Self) = (num_traits::Zero::zero(), num_traits::Zero::zero());
        let (vl, vu) = (&mut vl as *mut Self as _, &mut vu as *mut Self as _);
        match buf {
            None => csv::cusolverDnXsyevdx_bufferSize(h, p, mode, range, lower, n, t, a as _, n, vl, vu, il, iu, meig, t, w as _, t, &mut bytes.0, &mut bytes.1),
            Some((dev, host)) => csv::cusolverDnXsyevdx(h, p, mode, range, lower, n, t, a as _, n, vl, vu, il, iu, meig, t, w as _, t, dev as _, bytes.0, host.as_mut_ptr() as _, bytes.1, info as _),
        }
    }
}

impl Eig for f32 {
    const SOLVER_TYPE: csv::cudaDataType = csv::cudaDataType::CUDA_R_32F;
}

impl Eig for f64 {
    const SOLVER_TYPE: csv::cudaDataType = csv::cudaDataType::CUDA_R_64F;
}

/// A precision as cuSOLVER's batched Cholesky sees it.
#[allow(clippy::missing_safety_doc)]
pub trait Chol: Prec {
    /// `cusolverDn<t>potrfBatched`, lower triangle, of the n×n matrices (lda = n) the device
    /// pointer array `pa` names; one info per matrix at `info`.
    unsafe fn potrf_batched(h: csv::cusolverDnHandle_t, n: i32, pa: u64, info: u64, batch: i32) -> csv::cusolverStatus_t;
}

macro_rules! chol {
    ($t:ty, $ct:ty, $f:ident) => {
        impl Chol for $t {
            unsafe fn potrf_batched(h: csv::cusolverDnHandle_t, n: i32, pa: u64, info: u64, batch: i32) -> csv::cusolverStatus_t {
                csv::$f(h, csv::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER, n, pa as *mut *mut $ct, n, info as *mut i32, batch)
            }
        }
    };
}
chol!(f32, f32, cusolverDnSpotrfBatched);
chol!(f64, f64, cusolverDnDpotrfBatched);
chol!(Complex32, csv::cuComplex, cusolverDnCpotrfBatched);
chol!(Complex64, csv::cuDoubleComplex, cusolverDnZpotrfBatched);

/// A real precision as cuBLAS's plain GEMM sees it (the MTTKRP bench's peer: the one GEMM each
/// mode reduces to).
#[allow(clippy::missing_safety_doc, clippy::too_many_arguments)]
pub trait Plain: Prec {
    /// `cublas<t>gemm`: C = op(A)·B (alpha 1, beta 0), op(A) m × k (`trans`: A stored k × m),
    /// B k × n, C m × n, column-major with the given leading dimensions.
    unsafe fn plain_gemm(h: cb::cublasHandle_t, trans: bool, m: i32, n: i32, k: i32, a: u64, lda: i32, b: u64, ldb: i32, c: u64, ldc: i32) -> cb::cublasStatus_t;
}

macro_rules! plain {
    ($t:ty, $f:ident) => {
        impl Plain for $t {
            unsafe fn plain_gemm(h: cb::cublasHandle_t, trans: bool, m: i32, n: i32, k: i32, a: u64, lda: i32, b: u64, ldb: i32, c: u64, ldc: i32) -> cb::cublasStatus_t {
                use cb::cublasOperation_t::{CUBLAS_OP_N as N, CUBLAS_OP_T as T};
                let (one, zero): ($t, $t) = (1.0, 0.0);
                cb::$f(h, if trans { T } else { N }, N, m, n, k, &one, a as *const $t, lda, b as *const $t, ldb, &zero, c as *mut $t, ldc)
            }
        }
    };
}
plain!(f32, cublasSgemm_v2);
plain!(f64, cublasDgemm_v2);
