// Tridiagonal solvers (the host side is src/gtsv_spike/cuda.rs).
//
// Diagonals: row k holds d[k] and du[k] (column k + 1; du[n-1] is padding in the interleaved
// layout), and its sub-diagonal entry (column k - 1) is dl[k - 1] in LAPACK xGTSV's layout
// (strided) and dl[k] in the interleaved one (dl[0] padding). The diagonals are never
// written.
//
// ng_gtsv_dp: one system by diagonal pivoting (Bunch-Kaufman-style choice of 1x1 and 2x2
// pivots, kappa = (sqrt(5) - 1) / 2; the book's ch. 2, Erway et al.) or, without pivoting, by
// the Thomas algorithm; the elimination goes into a workspace and the solution is written
// only once every pivot is known to be nonzero, so a singular system leaves x untouched.
//
// Kernels:
//   gtsv_interleaved_<T>  a thread per system; element k of system i at k * batch + i in
//                         every array, so every access is coalesced.
//   gtsv_strided_<T>      a thread per (system, right-hand side), the system's diagonals
//                         contiguous at i * stride_diag; the workspace interleaved by thread.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

typedef NG_T T;
typedef typename ng_real_of<T>::type R;

// One system of order n: row k's sub-diagonal at dl1[(k - 1) * s] (dl1 points at row 1's),
// its diagonal, super-diagonal and right-hand side at d, du, b [k * s]; workspace bt, y (T) and kind at
// k * sw; x (may alias b) written at k * sx on success. Returns 0, or k + 1 when the pivot
// block starting at row k is exactly singular.
__device__ int ng_gtsv_dp(int n, const T *dl1, const T *d, const T *du, const T *b, ng_i64 s, T *bt, T *y, signed char *kind, ng_i64 sw,
                          T *x, ng_i64 sx, bool pivot) {
    const R kappa = R(0.6180339887498948482);
    T bk = d[0], yk = b[0];
    int k = 0;
    while (k < n) {
        if (k == n - 1) {
            if (ng_is_zero(bk)) return k + 1;
            bt[k * sw] = bk;
            y[k * sw] = yk;
            kind[k * sw] = 1;
            break;
        }
        const T ck = du[k * s], a1 = dl1[k * s], b1 = d[(k + 1) * s];
        bool one = true;
        if (pivot) {
            R sigma = ng_max(ng_max(ng_abs(ck), ng_abs(a1)), ng_abs(b1));
            if (k + 2 < n) sigma = ng_max(sigma, ng_max(ng_abs(du[(k + 1) * s]), ng_abs(dl1[(k + 1) * s])));
            one = ng_abs(bk) * sigma >= kappa * ng_abs(ck) * ng_abs(a1);
        }
        if (one) {
            if (ng_is_zero(bk)) return k + 1;
            bt[k * sw] = bk;
            y[k * sw] = yk;
            kind[k * sw] = 1;
            const T l = ng_div(a1, bk);
            bk = ng_fma(ng_neg(l), ck, b1);
            yk = ng_fma(ng_neg(l), yk, b[(k + 1) * s]);
            k += 1;
        } else {
            // 2x2 pivot [bk ck; a1 b1]: row k + 2 loses its coupling to column k + 1.
            const T delta = ng_fma(bk, b1, ng_neg(ng_mul(a1, ck)));
            if (ng_is_zero(delta)) return k + 1;
            const T y1 = b[(k + 1) * s];
            bt[k * sw] = bk;
            y[k * sw] = yk;
            kind[k * sw] = 2;
            bt[(k + 1) * sw] = delta;
            y[(k + 1) * sw] = y1;
            kind[(k + 1) * sw] = 0;
            if (k + 2 < n) {
                const T f = ng_div(dl1[(k + 1) * s], delta), c1 = du[(k + 1) * s];
                const T nb = ng_fma(ng_neg(f), ng_mul(bk, c1), d[(k + 2) * s]);
                const T ny = ng_fma(ng_neg(f), ng_fma(bk, y1, ng_neg(ng_mul(a1, yk))), b[(k + 2) * s]);
                bk = nb;
                yk = ny;
            }
            k += 2;
        }
    }
    T next = ng_zero<T>();
    for (k = n - 1; k >= 0;) {
        if (kind[k * sw] == 1) {
            T r = y[k * sw];
            if (k + 1 < n) r = ng_fma(ng_neg(du[k * s]), next, r);
            next = ng_div(r, bt[k * sw]);
            x[k * sx] = next;
            k -= 1;
        } else {
            // The second row of a 2x2 block (k - 1, k).
            const T delta = bt[k * sw], b0 = bt[(k - 1) * sw], c0 = du[(k - 1) * s], a1 = dl1[(k - 1) * s], b1 = d[k * s];
            const T r0 = y[(k - 1) * sw];
            T r1 = y[k * sw];
            if (k + 1 < n) r1 = ng_fma(ng_neg(du[k * s]), next, r1);
            const T x0 = ng_div(ng_fma(b1, r0, ng_neg(ng_mul(c0, r1))), delta);
            const T x1 = ng_div(ng_fma(b0, r1, ng_neg(ng_mul(a1, r0))), delta);
            x[(k - 1) * sx] = x0;
            x[k * sx] = x1;
            next = x0;
            k -= 2;
        }
    }
    return 0;
}

#if defined(NG_INTERLEAVED)
// Systems first .. first + count - 1, thread i solving system first + i; the data's stride is
// batch, the workspace's (bt, y, kind, interleaved like the data) count.
extern "C" __global__ void NG_CAT(gtsv_interleaved_, NG_SUFFIX)(
    int n, const T *dl, const T *d, const T *du, T *B, int *info, ng_i64 batch, ng_i64 first, ng_i64 count, int pivot, T *bt, T *y,
    signed char *kind) {
    for (ng_i64 i = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 o = first + i;
        info[o] = ng_gtsv_dp(n, dl + batch + o, d + o, du + o, B + o, batch, bt + i, y + i, kind + i, count, B + o, batch, pivot != 0);
    }
}
#endif

#if defined(NG_STRIDED)
// Thread t = i * nrhs + r: system i, right-hand side r. Every thread of a system meets the
// same pivots, so a singular system leaves all its right-hand sides untouched; r = 0 writes
// info.
extern "C" __global__ void NG_CAT(gtsv_strided_, NG_SUFFIX)(
    int n, ng_i64 nrhs, const T *dl, const T *d, const T *du, ng_i64 stride_diag, T *B, ng_i64 ldb, ng_i64 stride_b, int *info,
    ng_i64 batch, int pivot, T *bt, T *y, signed char *kind) {
    const ng_i64 threads = batch * nrhs;
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < threads; t += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 i = t / nrhs, r = t % nrhs, o = i * stride_diag;
        T *b = B + i * stride_b + r * ldb;
        const int res = ng_gtsv_dp(n, dl + o, d + o, du + o, b, 1, bt + t, y + t, kind + t, threads, b, 1, pivot != 0);
        if (r == 0) info[i] = res;
    }
}
#endif
