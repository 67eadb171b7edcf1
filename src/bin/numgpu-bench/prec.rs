//! The four precisions as the bench sees them: numgpu's element type, its cuBLAS routines
//! (raw calls through cudarc's bindings: gemm, getrf, geqrf), its cuSPARSE tridiagonal
//! solvers (`Tridiag`: gtsv2, gtsv2_nopivot, gtsv2StridedBatch, gtsvInterleavedBatch), LAPACK
//! `?geqrf` with a caller's workspace, and the real type of kernel arguments.

use cudarc::cublas::sys as cb;
use cudarc::cusparse::sys as cs;
use numgpu::lapack::Blas;
use numgpu::{Complex32, Complex64, Scalar};
use std::ffi::c_void;

/// An element type numgpu and cuBLAS both serve.
pub trait Prec: Blas {
    /// The real type under the element type, as kernels take it by value.
    type R: Copy;
    fn real(v: f64) -> Self::R;
    /// Flops of one multiply-add: 2 (real) or 8 (complex), as in 2mnk / 8mnk.
    const FLOPS_PER_FMA: f64 = if Self::IS_COMPLEX { 8.0 } else { 2.0 };

    /// `cublas<t>gemmStridedBatched`, C_i = alpha·A_i·B_i + beta·C_i, square n, packed
    /// (ld = n, stride = n²), device pointers, host scalars.
    ///
    /// # Safety
    /// `a`, `b`, `c` are device buffers of `batch` n×n matrices each.
    #[allow(clippy::too_many_arguments)]
    unsafe fn cublas_strided(h: cb::cublasHandle_t, n: i32, alpha: &Self, a: u64, stride: i64, b: u64, beta: &Self, c: u64, batch: i32) -> cb::cublasStatus_t;

    /// `cublas<t>gemmBatched` with device pointer arrays `pa`, `pb`, `pc` of `batch` entries.
    ///
    /// # Safety
    /// Each array holds `batch` device pointers to n×n matrices.
    #[allow(clippy::too_many_arguments)]
    unsafe fn cublas_array(h: cb::cublasHandle_t, n: i32, alpha: &Self, pa: u64, pb: u64, beta: &Self, pc: u64, batch: i32) -> cb::cublasStatus_t;

    /// `cublas<t>getrfBatched`: LU with partial pivoting, in place, of the n×n matrices the
    /// device pointer array `pa` names (leading dimension `lda`); pivots `piv` (n per
    /// matrix) and `info` (one per matrix) in device memory.
    ///
    /// # Safety
    /// `pa` holds `batch` device pointers to n×n matrices; `piv` has n·batch entries and
    /// `info` batch.
    unsafe fn cublas_getrf(h: cb::cublasHandle_t, n: i32, pa: u64, lda: i32, piv: u64, info: u64, batch: i32) -> cb::cublasStatus_t;

    /// `cublas<t>geqrfBatched`: Householder QR, in place, of the m×n matrices the device
    /// pointer array `pa` names (leading dimension `lda`), the scalar factors in the vectors
    /// the device pointer array `ptau` names (min(m, n) each). `info` is host memory: the
    /// argument check's result (0, or −i for a bad argument i), not a per-matrix status.
    ///
    /// # Safety
    /// `pa` and `ptau` hold `batch` device pointers to m×n matrices and to min(m, n) entries.
    #[allow(clippy::too_many_arguments)]
    unsafe fn cublas_geqrf(h: cb::cublasHandle_t, m: i32, n: i32, pa: u64, lda: i32, ptau: u64, info: &mut i32, batch: i32) -> cb::cublasStatus_t;

    /// LAPACK `?geqrf` on the m×n matrix at `a` with the caller's workspace `work` (at least
    /// `geqrf_lwork(m, n)` entries; the bench's timed runs allocate it once per thread, not
    /// once per matrix as `Blas::geqrf` does); returns `info`.
    ///
    /// # Safety
    /// `a` holds lda×n elements (lda >= m), `tau` min(m, n).
    unsafe fn lapack_geqrf(m: i32, n: i32, a: *mut Self, lda: i32, tau: *mut Self, work: &mut [Self]) -> i32;

    /// The optimal workspace length of `lapack_geqrf` for m×n (LAPACK's query, lwork = −1).
    fn geqrf_lwork(m: i32, n: i32) -> usize;
}

macro_rules! prec {
    ($t:ty, $ct:ty, $r:ty, $strided:ident, $array:ident, $getrf:ident, $geqrf:ident, $lgeqrf:ident) => {
        #[allow(clippy::too_many_arguments)]
        impl Prec for $t {
            type R = $r;
            fn real(v: f64) -> $r {
                v as $r
            }
            unsafe fn cublas_strided(h: cb::cublasHandle_t, n: i32, alpha: &Self, a: u64, stride: i64, b: u64, beta: &Self, c: u64, batch: i32) -> cb::cublasStatus_t {
                use cb::cublasOperation_t::CUBLAS_OP_N as N;
                // numgpu's complex types are {re, im}, laid out as cuComplex / cuDoubleComplex.
                cb::$strided(
                    h,
                    N,
                    N,
                    n,
                    n,
                    n,
                    alpha as *const $t as *const $ct,
                    a as *const $ct,
                    n,
                    stride,
                    b as *const $ct,
                    n,
                    stride,
                    beta as *const $t as *const $ct,
                    c as *mut $ct,
                    n,
                    stride,
                    batch,
                )
            }
            unsafe fn cublas_array(h: cb::cublasHandle_t, n: i32, alpha: &Self, pa: u64, pb: u64, beta: &Self, pc: u64, batch: i32) -> cb::cublasStatus_t {
                use cb::cublasOperation_t::CUBLAS_OP_N as N;
                cb::$array(
                    h,
                    N,
                    N,
                    n,
                    n,
                    n,
                    alpha as *const $t as *const $ct,
                    pa as *const *const $ct,
                    n,
                    pb as *const *const $ct,
                    n,
                    beta as *const $t as *const $ct,
                    pc as *const *mut $ct,
                    n,
                    batch,
                )
            }
            unsafe fn cublas_getrf(h: cb::cublasHandle_t, n: i32, pa: u64, lda: i32, piv: u64, info: u64, batch: i32) -> cb::cublasStatus_t {
                cb::$getrf(h, n, pa as *const *mut $ct, lda, piv as *mut i32, info as *mut i32, batch)
            }
            unsafe fn cublas_geqrf(h: cb::cublasHandle_t, m: i32, n: i32, pa: u64, lda: i32, ptau: u64, info: &mut i32, batch: i32) -> cb::cublasStatus_t {
                cb::$geqrf(h, m, n, pa as *const *mut $ct, lda, ptau as *const *mut $ct, info, batch)
            }
            unsafe fn lapack_geqrf(m: i32, n: i32, a: *mut Self, lda: i32, tau: *mut Self, work: &mut [Self]) -> i32 {
                let (lwork, mut info) = (work.len() as i32, 0);
                lapack_sys::$lgeqrf(&m, &n, a as _, &lda, tau as _, work.as_mut_ptr() as _, &lwork, &mut info);
                info
            }
            fn geqrf_lwork(m: i32, n: i32) -> usize {
                let (mut size, mut info, mut a, mut tau) = (<$t>::zero(), 0, <$t>::zero(), <$t>::zero());
                let lda = m.max(1);
                // SAFETY: a workspace query (lwork = −1) reads no matrix and writes work[0].
                unsafe { lapack_sys::$lgeqrf(&m, &n, &mut a as *mut $t as _, &lda, &mut tau as *mut $t as _, &mut size as *mut $t as _, &-1, &mut info) };
                (size.re() as usize).max(n.max(1) as usize)
            }
        }
    };
}

prec!(f32, f32, f32, cublasSgemmStridedBatched, cublasSgemmBatched, cublasSgetrfBatched, cublasSgeqrfBatched, sgeqrf_);
prec!(f64, f64, f64, cublasDgemmStridedBatched, cublasDgemmBatched, cublasDgetrfBatched, cublasDgeqrfBatched, dgeqrf_);
prec!(Complex32, cb::cuComplex, f32, cublasCgemmStridedBatched, cublasCgemmBatched, cublasCgetrfBatched, cublasCgeqrfBatched, cgeqrf_);
prec!(Complex64, cb::cuDoubleComplex, f64, cublasZgemmStridedBatched, cublasZgemmBatched, cublasZgetrfBatched, cublasZgeqrfBatched, zgeqrf_);

/// cuSPARSE's tridiagonal solvers of one precision (raw calls through cudarc's bindings),
/// on device arrays in cuSPARSE's layout: each system's dl and du hold n entries, dl's first
/// and du's last being zero (numgpu's dl starts one element later: see `gtsv.rs`). Each
/// `*_buffer` call writes the bytes of workspace its solver needs, which the bench allocates
/// once, outside the timed calls.
pub trait Tridiag: Prec {
    /// `cusparse<t>gtsv2_bufferSizeExt` (`pivot`) or `cusparse<t>gtsv2_nopivot_bufferSizeExt`.
    ///
    /// # Safety
    /// `dl`, `d`, `du` hold m device elements, `b` ldb·n.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gtsv2_buffer(h: cs::cusparseHandle_t, pivot: bool, m: i32, n: i32, dl: u64, d: u64, du: u64, b: u64, ldb: i32, bytes: &mut usize) -> cs::cusparseStatus_t;

    /// `cusparse<t>gtsv2` (`pivot`: partial pivoting) or `cusparse<t>gtsv2_nopivot`: one system
    /// of order m, n right-hand sides in B (overwritten by X), workspace `buf`.
    ///
    /// # Safety
    /// As `gtsv2_buffer`; `buf` holds the bytes it reported.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gtsv2(h: cs::cusparseHandle_t, pivot: bool, m: i32, n: i32, dl: u64, d: u64, du: u64, b: u64, ldb: i32, buf: u64) -> cs::cusparseStatus_t;

    /// `cusparse<t>gtsv2StridedBatch_bufferSizeExt`.
    ///
    /// # Safety
    /// `dl`, `d`, `du`, `x` hold `stride·batch` device elements.
    #[allow(clippy::too_many_arguments)]
    unsafe fn strided_buffer(h: cs::cusparseHandle_t, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, stride: i32, bytes: &mut usize) -> cs::cusparseStatus_t;

    /// `cusparse<t>gtsv2StridedBatch` (no pivoting): system i's arrays at `i·stride`, x
    /// overwritten by the solution.
    ///
    /// # Safety
    /// As `strided_buffer`; `buf` holds the bytes it reported.
    #[allow(clippy::too_many_arguments)]
    unsafe fn strided(h: cs::cusparseHandle_t, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, stride: i32, buf: u64) -> cs::cusparseStatus_t;

    /// `cusparse<t>gtsvInterleavedBatch_bufferSizeExt` for algorithm `algo` (0 Thomas, 1 LU
    /// with partial pivoting, 2 QR).
    ///
    /// # Safety
    /// `dl`, `d`, `du`, `x` hold `m·batch` device elements.
    #[allow(clippy::too_many_arguments)]
    unsafe fn interleaved_buffer(h: cs::cusparseHandle_t, algo: i32, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, bytes: &mut usize) -> cs::cusparseStatus_t;

    /// `cusparse<t>gtsvInterleavedBatch`: element k of system i at `k·batch + i`; overwrites
    /// x with the solution and dl, d, du with its factors.
    ///
    /// # Safety
    /// As `interleaved_buffer`; `buf` holds the bytes it reported.
    #[allow(clippy::too_many_arguments)]
    unsafe fn interleaved(h: cs::cusparseHandle_t, algo: i32, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, buf: u64) -> cs::cusparseStatus_t;
}

macro_rules! tridiag {
    ($t:ty, $ct:ty, $gtsv2:ident, $nopivot:ident, $gtsv2_buf:ident, $nopivot_buf:ident, $strided:ident, $strided_buf:ident, $inter:ident, $inter_buf:ident) => {
        #[allow(clippy::too_many_arguments)]
        impl Tridiag for $t {
            unsafe fn gtsv2_buffer(h: cs::cusparseHandle_t, pivot: bool, m: i32, n: i32, dl: u64, d: u64, du: u64, b: u64, ldb: i32, bytes: &mut usize) -> cs::cusparseStatus_t {
                let f = if pivot { cs::$gtsv2_buf } else { cs::$nopivot_buf };
                f(h, m, n, dl as *const $ct, d as *const $ct, du as *const $ct, b as *const $ct, ldb, bytes)
            }
            unsafe fn gtsv2(h: cs::cusparseHandle_t, pivot: bool, m: i32, n: i32, dl: u64, d: u64, du: u64, b: u64, ldb: i32, buf: u64) -> cs::cusparseStatus_t {
                let f = if pivot { cs::$gtsv2 } else { cs::$nopivot };
                f(h, m, n, dl as *const $ct, d as *const $ct, du as *const $ct, b as *mut $ct, ldb, buf as *mut c_void)
            }
            unsafe fn strided_buffer(h: cs::cusparseHandle_t, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, stride: i32, bytes: &mut usize) -> cs::cusparseStatus_t {
                cs::$strided_buf(h, m, dl as *const $ct, d as *const $ct, du as *const $ct, x as *const $ct, batch, stride, bytes)
            }
            unsafe fn strided(h: cs::cusparseHandle_t, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, stride: i32, buf: u64) -> cs::cusparseStatus_t {
                cs::$strided(h, m, dl as *const $ct, d as *const $ct, du as *const $ct, x as *mut $ct, batch, stride, buf as *mut c_void)
            }
            unsafe fn interleaved_buffer(h: cs::cusparseHandle_t, algo: i32, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, bytes: &mut usize) -> cs::cusparseStatus_t {
                cs::$inter_buf(h, algo, m, dl as *const $ct, d as *const $ct, du as *const $ct, x as *const $ct, batch, bytes)
            }
            unsafe fn interleaved(h: cs::cusparseHandle_t, algo: i32, m: i32, dl: u64, d: u64, du: u64, x: u64, batch: i32, buf: u64) -> cs::cusparseStatus_t {
                cs::$inter(h, algo, m, dl as *mut $ct, d as *mut $ct, du as *mut $ct, x as *mut $ct, batch, buf as *mut c_void)
            }
        }
    };
}

tridiag!(
    f32,
    f32,
    cusparseSgtsv2,
    cusparseSgtsv2_nopivot,
    cusparseSgtsv2_bufferSizeExt,
    cusparseSgtsv2_nopivot_bufferSizeExt,
    cusparseSgtsv2StridedBatch,
    cusparseSgtsv2StridedBatch_bufferSizeExt,
    cusparseSgtsvInterleavedBatch,
    cusparseSgtsvInterleavedBatch_bufferSizeExt
);
tridiag!(
    f64,
    f64,
    cusparseDgtsv2,
    cusparseDgtsv2_nopivot,
    cusparseDgtsv2_bufferSizeExt,
    cusparseDgtsv2_nopivot_bufferSizeExt,
    cusparseDgtsv2StridedBatch,
    cusparseDgtsv2StridedBatch_bufferSizeExt,
    cusparseDgtsvInterleavedBatch,
    cusparseDgtsvInterleavedBatch_bufferSizeExt
);
tridiag!(
    Complex32,
    cs::cuComplex,
    cusparseCgtsv2,
    cusparseCgtsv2_nopivot,
    cusparseCgtsv2_bufferSizeExt,
    cusparseCgtsv2_nopivot_bufferSizeExt,
    cusparseCgtsv2StridedBatch,
    cusparseCgtsv2StridedBatch_bufferSizeExt,
    cusparseCgtsvInterleavedBatch,
    cusparseCgtsvInterleavedBatch_bufferSizeExt
);
tridiag!(
    Complex64,
    cs::cuDoubleComplex,
    cusparseZgtsv2,
    cusparseZgtsv2_nopivot,
    cusparseZgtsv2_bufferSizeExt,
    cusparseZgtsv2_nopivot_bufferSizeExt,
    cusparseZgtsv2StridedBatch,
    cusparseZgtsv2StridedBatch_bufferSizeExt,
    cusparseZgtsvInterleavedBatch,
    cusparseZgtsvInterleavedBatch_bufferSizeExt
);

/// splitmix64: a counter-based generator, so chunks of an array fill in parallel and the
/// data depend only on the seed.
pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Uniform in [-1, 1), never exactly 0.
fn unit(x: u64) -> f64 {
    let u = (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * 2.0 - 1.0;
    if u == 0.0 {
        0.5
    } else {
        u
    }
}

/// Fills `v` with random entries (real and imaginary parts uniform in [-1, 1), never zero)
/// that depend only on `seed` and the index.
pub fn fill_random<T: Scalar>(v: &mut [T], seed: u64) {
    use rayon::prelude::*;
    const CHUNK: usize = 1 << 16;
    v.par_chunks_mut(CHUNK).enumerate().for_each(|(ci, chunk)| {
        let base = splitmix(seed ^ splitmix(ci as u64));
        for (j, x) in chunk.iter_mut().enumerate() {
            let r = splitmix(base.wrapping_add(2 * j as u64));
            let i = splitmix(base.wrapping_add(2 * j as u64 + 1));
            *x = T::from_c64(Complex64::new(unit(r), unit(i)));
        }
    });
}
