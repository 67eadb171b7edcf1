// Sparse matrix-vector products (the host side is src/spmv/cuda.rs).
//
// Kernels, one per compilation, chosen by -D NG_<KIND>=1, element type NG_T:
//   csrmv_n_<T>    y := alpha*A*x + beta*y, CSR. Persistent warps over rows; a warp takes
//                  32/NG_V rows at a time, NG_V lanes per row (NG_V from the mean row length,
//                  2..32), each lane summing a strided part of its row with fma, then a
//                  shuffle tree over the NG_V lanes. A row longer than NG_LONG entries is
//                  skipped by its NG_V lanes and summed afterwards by the whole warp (the
//                  row-split path: one long row does not serialise NG_V lanes). Fixed orders
//                  throughout: bitwise reproducible. NG_CHECK=1 compiles the same traversal as
//                  a validation pass that reads only row_ptr and col_ind and writes nothing
//                  but the check word.
//   csrmv_t_<T>    y += alpha*op(A)^T*x for op T (NG_CONJ=0) or C (NG_CONJ=1): NG_V lanes per
//                  row scatter a_ij*(alpha*x_i) into y_j with atomicAdd (not reproducible in the
//                  last bits: the order of the adds varies).
//   scale_<T>      y := beta*y (beta_zero: y := 0, y not read), a thread per entry.
//   cmrsmv_<T>     CMRS (the book's Listing 6.7, fixed): a warp per strip of NG_H rows, NG_M
//                  copies of the NG_H row sums in shared memory (slot (lane % NG_M)*NG_H + r;
//                  the packing keeps a chunk's slots distinct), __syncwarp between chunks (the
//                  listing's lockstep volatile buffer is a race since Volta), the copies added
//                  in order by NG_H lanes, one coalesced write. Padding words are skipped.
//   cmrs_gather_<T> stored values from CSR values: out[k] = src[k] < 0 ? 0 : val[src[k]].
//
// Bad structure: a kernel that meets a bad row pointer pair or column index skips it and
// lowers the check word to (kind << 48) | position with atomicMin (kind 0: row, 1: entry), so
// the word names the first bad entry whatever the schedule.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

typedef NG_T T;
typedef unsigned long long ng_u64;

#define NG_FULL 0xffffffffu
#define NG_BLOCK 128

__device__ __forceinline__ void ng_report(ng_u64 *flag, ng_u64 kind, ng_i64 at) {
    atomicMin(flag, (kind << 48) | (ng_u64)at);
}

// y := alpha*sum + beta*y, y not read when beta_zero; the CPU backend combines the same way.
__device__ __forceinline__ T ng_combine(T alpha, T sum, T beta, const T *y, int beta_zero) {
    const T t = ng_mul(alpha, sum);
    return beta_zero ? t : ng_fma(beta, *y, t);
}

__device__ __forceinline__ float ng_add(float a, float b) { return a + b; }
__device__ __forceinline__ double ng_add(double a, double b) { return a + b; }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_add(ng_complex<R> a, ng_complex<R> b) { return ng_complex<R>{a.re + b.re, a.im + b.im}; }

#if defined(NG_CSRMV_N) || defined(NG_CSR_CHECK)

#ifndef NG_CHECK
#define NG_CHECK 0
#endif

// Rows longer than this are summed by the whole warp.
#define NG_LONG (32 * NG_V)

// Row pointer pair of `row`, relative to the base; ok when 0 <= s <= e <= nnz.
__device__ __forceinline__ bool ng_row(const int *__restrict__ row_ptr, ng_i64 row, int base, ng_i64 nnz, ng_i64 &s, ng_i64 &e) {
    s = (ng_i64)row_ptr[row] - base;
    e = (ng_i64)row_ptr[row + 1] - base;
    return s >= 0 && s <= e && e <= nnz;
}

// Entries k, k + step, ... < e of a row: their products summed in order (NG_CHECK: their
// columns only validated); bad columns reported and skipped.
__device__ __forceinline__ T ng_part(ng_i64 k, ng_i64 e, int step, const T *__restrict__ val, const int *__restrict__ col_ind, int base, ng_i64 n,
                                     const T *__restrict__ x, ng_u64 *flag) {
    T sum = ng_zero<T>();
#pragma unroll 4
    for (; k < e; k += step) {
        const ng_i64 c = (ng_i64)col_ind[k] - base;
        if (c < 0 || c >= n) {
            ng_report(flag, 1, k);
            continue;
        }
#if !NG_CHECK
        sum = ng_fma(val[k], x[c], sum);
#endif
    }
    return sum;
}

// Sum over the w lanes of each w-lane group (w a power of two): the tree of lane 0 of the
// group, which ends with the total. Every lane of the warp must call it.
__device__ __forceinline__ T ng_group_sum(T v, int w) {
    for (int off = w / 2; off > 0; off /= 2) v = ng_add(v, ng_shfl(v, (threadIdx.x & 31) % w + off, w));
    return v;
}

#if NG_CHECK
#define NG_ENTRY NG_CAT(csr_check_, NG_SUFFIX)
#else
#define NG_ENTRY NG_CAT(csrmv_n_, NG_SUFFIX)
#endif

extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_ENTRY(ng_i64 m, ng_i64 n, ng_i64 nnz, T alpha, const T *__restrict__ val,
                                                                const int *__restrict__ row_ptr, const int *__restrict__ col_ind, int base,
                                                                const T *__restrict__ x, T beta, T *__restrict__ y, int beta_zero, ng_u64 *flag) {
    const int lane = threadIdx.x & 31, sub = lane / NG_V, vl = lane % NG_V;
    const ng_i64 warp = ((ng_i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const ng_i64 nwarps = ((ng_i64)gridDim.x * blockDim.x) >> 5;
    const int rows_per_warp = 32 / NG_V;
    // The loop bound is the same for every lane of the warp, so the shuffles below always
    // run with the whole warp.
    for (ng_i64 r0 = warp * rows_per_warp; r0 < m; r0 += nwarps * rows_per_warp) {
        const ng_i64 row = r0 + sub;
        ng_i64 s = 0, e = 0;
        bool ok = false;
        if (row < m) {
            ok = ng_row(row_ptr, row, base, nnz, s, e);
            if (!ok && vl == 0) ng_report(flag, 0, row);
        }
        const bool is_long = ok && e - s > NG_LONG;
        T sum = ng_zero<T>();
        if (ok && !is_long) sum = ng_part(s + vl, e, NG_V, val, col_ind, base, n, x, flag);
        sum = ng_group_sum(sum, NG_V);
        unsigned longs = __ballot_sync(NG_FULL, is_long && vl == 0);
        while (longs) {
            const int src = __ffs(longs) - 1;
            longs &= longs - 1;
            const ng_i64 ls = __shfl_sync(NG_FULL, s, src), le = __shfl_sync(NG_FULL, e, src);
            const T part = ng_group_sum(ng_part(ls + lane, le, 32, val, col_ind, base, n, x, flag), 32);
            if (lane == src) sum = part;
        }
#if !NG_CHECK
        if (ok && vl == 0) y[row] = ng_combine(alpha, sum, beta, y + row, beta_zero);
#endif
    }
}

#endif  // NG_CSRMV_N || NG_CSR_CHECK

#if defined(NG_CSRMV_T)

__device__ __forceinline__ void ng_atomic_add(float *p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void ng_atomic_add(double *p, double v) { atomicAdd(p, v); }
template <typename R>
__device__ __forceinline__ void ng_atomic_add(ng_complex<R> *p, ng_complex<R> v) {
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
}

extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(csrmv_t_, NG_SUFFIX)(ng_i64 m, ng_i64 n, ng_i64 nnz, T alpha, const T *__restrict__ val,
                                                                                  const int *__restrict__ row_ptr, const int *__restrict__ col_ind,
                                                                                  int base, const T *__restrict__ x, T *y, ng_u64 *flag) {
    const ng_i64 g = ((ng_i64)blockIdx.x * blockDim.x + threadIdx.x) / NG_V;
    const ng_i64 groups = ((ng_i64)gridDim.x * blockDim.x) / NG_V;
    const int vl = threadIdx.x % NG_V;
    for (ng_i64 row = g; row < m; row += groups) {
        const ng_i64 s = (ng_i64)row_ptr[row] - base, e = (ng_i64)row_ptr[row + 1] - base;
        if (!(s >= 0 && s <= e && e <= nnz)) {
            if (vl == 0) ng_report(flag, 0, row);
            continue;
        }
        const T ax = ng_mul(alpha, x[row]);
        for (ng_i64 k = s + vl; k < e; k += NG_V) {
            const ng_i64 c = (ng_i64)col_ind[k] - base;
            if (c < 0 || c >= n) {
                ng_report(flag, 1, k);
                continue;
            }
#if NG_CONJ
            const T a = ng_conj(val[k]);
#else
            const T a = val[k];
#endif
            ng_atomic_add(y + c, ng_mul(a, ax));
        }
    }
}

#endif  // NG_CSRMV_T

#if defined(NG_SCALE)

extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(scale_, NG_SUFFIX)(ng_i64 len, T beta, T *y, int beta_zero) {
    for (ng_i64 i = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; i < len; i += (ng_i64)gridDim.x * blockDim.x)
        y[i] = beta_zero ? ng_zero<T>() : ng_mul(beta, y[i]);
}

#endif  // NG_SCALE

#if defined(NG_CMRSMV)

#define NG_PAD 0xffffffffu

extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(cmrsmv_, NG_SUFFIX)(ng_i64 m, ng_i64 strips, const ng_i64 *__restrict__ strip_ptr,
                                                                                 const unsigned *__restrict__ packed, const T *__restrict__ val,
                                                                                 const T *__restrict__ x, T alpha, T beta, T *__restrict__ y,
                                                                                 int beta_zero) {
    // NG_M copies of the strip's NG_H row sums per warp.
    __shared__ T acc_all[(NG_BLOCK / 32) * NG_M * NG_H];
    T *acc = acc_all + (threadIdx.x >> 5) * (NG_M * NG_H);
    const int lane = threadIdx.x & 31;
    const ng_i64 warp = ((ng_i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const ng_i64 nwarps = ((ng_i64)gridDim.x * blockDim.x) >> 5;
    for (ng_i64 strip = warp; strip < strips; strip += nwarps) {
        for (int i = lane; i < NG_M * NG_H; i += 32) acc[i] = ng_zero<T>();
        __syncwarp();
        const ng_i64 s = strip_ptr[strip], e = strip_ptr[strip + 1];
        // (e - s) is a multiple of 32: every lane runs the same iterations, so __syncwarp
        // is reached by all.
        for (ng_i64 j = s + lane; j < e; j += 32) {
            const unsigned w = packed[j];
            if (w != NG_PAD) {
                T *slot = acc + (lane % NG_M) * NG_H + (w & 15u);
                *slot = ng_fma(val[j], x[w >> 4], *slot);
            }
            // The next chunk may hit this chunk's slots from other lanes.
            __syncwarp();
        }
        if (lane < NG_H) {
            const ng_i64 row = strip * NG_H + lane;
            if (row < m) {
                T z = acc[lane];
#pragma unroll
                for (int k = 1; k < NG_M; k++) z = ng_add(z, acc[k * NG_H + lane]);
                y[row] = ng_combine(alpha, z, beta, y + row, beta_zero);
            }
        }
        // The next strip clears the slots these lanes just read.
        __syncwarp();
    }
}

#endif  // NG_CMRSMV

#if defined(NG_CMRS_GATHER)

extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(cmrs_gather_, NG_SUFFIX)(ng_i64 len, const int *__restrict__ src, const T *__restrict__ val,
                                                                                      T *__restrict__ out) {
    for (ng_i64 k = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; k < len; k += (ng_i64)gridDim.x * blockDim.x) {
        const int from = src[k];
        out[k] = from < 0 ? ng_zero<T>() : val[from];
    }
}

#endif  // NG_CMRS_GATHER
