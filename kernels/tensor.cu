// Dense tensors: the Khatri-Rao product and the reduction of MTTKRP's partial products (the
// host side is src/tensor/cuda.rs; the products themselves are gemm_batched.cu's kernels), and
// the small steps of the decompositions (CP-ALS, TT-SVD, TR-SVD, HT; src/tensor/engine.rs says
// what each computes, the CPU backend's loops are the same arithmetic).
//
// Kernels (T = NG_T, real):
//   tensor_kr_<T>      K(j, r) = U_0(i_0, r) * U_1(i_1, r) * ... (multiplied in that order),
//                      j = i_0 + dim_0 * (i_1 + dim_1 * (...)): the Khatri-Rao product of the
//                      factors in reverse order, U_{nf-1} (.) ... (.) U_0. The factors come as a
//                      table in device memory, three 64-bit words each (address, leading
//                      dimension, rows), so any number of them; a grid-stride loop over the
//                      rows x rank entries, rows fastest (coalesced writes).
//   tensor_reduce_<T>  M(i, r) = [M(i, r) +] sum over s < slots of P_s(i, r), in the order of s
//                      (deterministic, no atomics): P_s is m x n, compact, `sp` elements apart;
//                      slots = 0 gives M = 0. A thread per entry of M.
//   tensor_dots_<T>    out[c * segs + s] = sum of A(i, c) * B(i, c) over the rows i of segment s
//                      of column c (segments of ceil(rows / segs) rows), in double: a block per
//                      (column, segment), summed in a fixed order (the host adds the segments).
//   tensor_normalize_<T>  lambda[c] = ||A(:, c)||_2 (the squares summed in double) and
//                      A(:, c) /= lambda[c] where it is > 0: a block per column.
//   tensor_scale_<T>   A(i, c) *= s[c].
//   tensor_tscale_<T>  B(c, i) = s[c] * A(i, c).
//   tensor_hadamard_<T>  V(e) = the product of G_k(e) over k < count, k != skip, in order.
//   tensor_potrf_<T>   the lower Cholesky factor of the r x r matrix V in place, one block,
//                      right-looking; a pivot that is not > 0 (or NaN) fills V with NaN.
//   tensor_solve_<T>   U(i, :) = M(i, :) * (L L^T)^-1 by the two triangular solves on the row,
//                      in place in U's row: a thread per row.
//   tensor_permute_<T> dst = src with the modes of the d0 x d1 x d2 array permuted (p0, p1, p2).
//   tensor_copy_<T>    B = A;   tensor_fill_<T>   A = v.
//   tensor_sign_<T>    each column of V times the sign of its entry of largest magnitude (the
//                      first of equal ones): a block per column.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)
#define NG_KERNEL(name) NG_CAT(name, NG_CAT(_, NG_SUFFIX))

typedef NG_T T;

extern "C" __global__ void NG_KERNEL(tensor_kr)(int nf, const long long *table, ng_i64 rows, ng_i64 rank, T *K, ng_i64 ldk) {
    const ng_i64 total = rows * rank;
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < total; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 r = e / rows, j = e - r * rows;
        ng_i64 rest = j;
        T v = T(1);
        for (int f = 0; f < nf; ++f) {
            const T *u = reinterpret_cast<const T *>(__ldg(table + 3 * f));
            const ng_i64 ld = __ldg(table + 3 * f + 1), dim = __ldg(table + 3 * f + 2);
            const ng_i64 q = rest / dim, i = rest - q * dim;
            v = f == 0 ? u[i + r * ld] : v * u[i + r * ld];
            rest = q;
        }
        K[j + r * ldk] = v;
    }
}

extern "C" __global__ void NG_KERNEL(tensor_reduce)(ng_i64 m, ng_i64 n, ng_i64 slots, const T *P, ng_i64 sp, T *M, ng_i64 ldm, int accumulate) {
    const ng_i64 total = m * n;
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < total; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 r = e / m, i = e - r * m;
        T s = accumulate ? M[i + r * ldm] : T(0);
        for (ng_i64 k = 0; k < slots; ++k) s += P[k * sp + e];
        M[i + r * ldm] = s;
    }
}

// Threads per block of the per-column kernels (dots, normalize, sign).
#define NG_COL_THREADS 256

__device__ __forceinline__ float ng_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double ng_sqrt(double x) { return sqrt(x); }
__device__ __forceinline__ T ng_nan() { return T(ng_inf<T>() - ng_inf<T>()); }

// The sum of v over the block in a fixed order, in every thread (sh: 32 doubles).
__device__ double ng_block_sum(double v, double *sh) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    double s = 0;
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w) s += sh[w];
    return s;
}

extern "C" __global__ void __launch_bounds__(NG_COL_THREADS) NG_KERNEL(tensor_dots)(ng_i64 rows, ng_i64 cols, ng_i64 segs, const T *A, ng_i64 lda, const T *B, ng_i64 ldb, double *out) {
    __shared__ double sh[32];
    const ng_i64 len = (rows + segs - 1) / segs;
    for (ng_i64 b = blockIdx.x; b < cols * segs; b += gridDim.x) {
        const ng_i64 c = b / segs, s = b - c * segs, end = min(rows, (s + 1) * len);
        double acc = 0;
        for (ng_i64 i = s * len + threadIdx.x; i < end; i += blockDim.x) acc += double(A[i + c * lda]) * double(B[i + c * ldb]);
        acc = ng_block_sum(acc, sh);
        if (threadIdx.x == 0) out[b] = acc;
    }
}

extern "C" __global__ void __launch_bounds__(NG_COL_THREADS) NG_KERNEL(tensor_normalize)(ng_i64 rows, ng_i64 cols, T *A, ng_i64 lda, T *lambda) {
    __shared__ double sh[32];
    for (ng_i64 c = blockIdx.x; c < cols; c += gridDim.x) {
        T *a = A + c * lda;
        double acc = 0;
        for (ng_i64 i = threadIdx.x; i < rows; i += blockDim.x) acc += double(a[i]) * double(a[i]);
        const T l = T(sqrt(ng_block_sum(acc, sh)));
        if (threadIdx.x == 0) lambda[c] = l;
        if (l > T(0))
            for (ng_i64 i = threadIdx.x; i < rows; i += blockDim.x) a[i] = a[i] / l;
    }
}

extern "C" __global__ void NG_KERNEL(tensor_scale)(ng_i64 rows, ng_i64 cols, T *A, ng_i64 lda, const T *s) {
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < rows * cols; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 c = e / rows, i = e - c * rows;
        A[i + c * lda] = A[i + c * lda] * s[c];
    }
}

extern "C" __global__ void NG_KERNEL(tensor_tscale)(ng_i64 rows, ng_i64 cols, const T *A, ng_i64 lda, const T *s, T *B, ng_i64 ldb) {
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < rows * cols; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 c = e / rows, i = e - c * rows;
        B[c + i * ldb] = s[c] * A[i + c * lda];
    }
}

extern "C" __global__ void NG_KERNEL(tensor_hadamard)(ng_i64 r, ng_i64 count, ng_i64 skip, const T *G, T *V) {
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < r * r; e += ng_i64(gridDim.x) * blockDim.x) {
        T p = T(1);
        for (ng_i64 k = 0; k < count; ++k)
            if (k != skip) p = p * G[k * r * r + e];
        V[e] = p;
    }
}

extern "C" __global__ void NG_KERNEL(tensor_potrf)(ng_i64 r, T *V) {
    __shared__ int bad;
    if (threadIdx.x == 0) bad = 0;
    __syncthreads();
    for (ng_i64 j = 0; j < r; ++j) {
        if (threadIdx.x == 0) {
            const T d = V[j + j * r];
            if (!(d > T(0))) bad = 1;
            else V[j + j * r] = ng_sqrt(d);
        }
        __syncthreads();
        if (bad) break;
        const T d = V[j + j * r];
        for (ng_i64 i = j + 1 + threadIdx.x; i < r; i += blockDim.x) V[i + j * r] = V[i + j * r] / d;
        __syncthreads();
        const ng_i64 m = r - j - 1;
        for (ng_i64 e = threadIdx.x; e < m * m; e += blockDim.x) {
            const ng_i64 i = j + 1 + e % m, k = j + 1 + e / m;
            if (i >= k) V[i + k * r] = V[i + k * r] - V[i + j * r] * V[k + j * r];
        }
        __syncthreads();
    }
    if (bad)
        for (ng_i64 e = threadIdx.x; e < r * r; e += blockDim.x) V[e] = ng_nan();
}

extern "C" __global__ void NG_KERNEL(tensor_solve)(ng_i64 r, ng_i64 rows, const T *L, const T *M, ng_i64 ldm, T *U, ng_i64 ldu) {
    for (ng_i64 i = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; i < rows; i += ng_i64(gridDim.x) * blockDim.x) {
        T *u = U + i;
        for (ng_i64 c = 0; c < r; ++c) u[c * ldu] = M[i + c * ldm];
        for (ng_i64 c = 0; c < r; ++c) {
            T y = u[c * ldu];
            for (ng_i64 j = 0; j < c; ++j) y = y - L[c + j * r] * u[j * ldu];
            u[c * ldu] = y / L[c + c * r];
        }
        for (ng_i64 c = r - 1; c >= 0; --c) {
            T x = u[c * ldu];
            for (ng_i64 j = c + 1; j < r; ++j) x = x - L[j + c * r] * u[j * ldu];
            u[c * ldu] = x / L[c + c * r];
        }
    }
}

extern "C" __global__ void NG_KERNEL(tensor_permute)(ng_i64 d0, ng_i64 d1, ng_i64 d2, int p0, int p1, int p2, const T *src, T *dst) {
    const ng_i64 d[3] = {d0, d1, d2};
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < d0 * d1 * d2; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 i[3] = {e % d0, (e / d0) % d1, e / (d0 * d1)};
        dst[i[p0] + d[p0] * (i[p1] + d[p1] * i[p2])] = src[e];
    }
}

extern "C" __global__ void NG_KERNEL(tensor_copy)(ng_i64 rows, ng_i64 cols, const T *A, ng_i64 lda, T *B, ng_i64 ldb) {
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < rows * cols; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 c = e / rows, i = e - c * rows;
        B[i + c * ldb] = A[i + c * lda];
    }
}

extern "C" __global__ void NG_KERNEL(tensor_fill)(ng_i64 rows, ng_i64 cols, T *A, ng_i64 lda, T v) {
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < rows * cols; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 c = e / rows, i = e - c * rows;
        A[i + c * lda] = v;
    }
}

// (|a|, ia) or (|b|, ib): the larger magnitude, the smaller index of equal ones.
__device__ __forceinline__ void ng_pick(T &a, ng_i64 &ia, T b, ng_i64 ib) {
    if (b > a || (b == a && ib < ia)) {
        a = b;
        ia = ib;
    }
}

extern "C" __global__ void __launch_bounds__(NG_COL_THREADS) NG_KERNEL(tensor_sign)(ng_i64 n, ng_i64 cols, T *V, ng_i64 ldv) {
    __shared__ T shv[32];
    __shared__ ng_i64 shi[32];
    for (ng_i64 c = blockIdx.x; c < cols; c += gridDim.x) {
        T *v = V + c * ldv;
        T best = T(-1);
        ng_i64 at = n;
        for (ng_i64 i = threadIdx.x; i < n; i += blockDim.x) ng_pick(best, at, ng_abs(v[i]), i);
        for (int o = 16; o > 0; o >>= 1) {
            const T ob = __shfl_xor_sync(0xffffffffu, best, o);
            const ng_i64 oi = __shfl_xor_sync(0xffffffffu, at, o);
            ng_pick(best, at, ob, oi);
        }
        __syncthreads();
        if ((threadIdx.x & 31) == 0) {
            shv[threadIdx.x >> 5] = best;
            shi[threadIdx.x >> 5] = at;
        }
        __syncthreads();
        best = shv[0];
        at = shi[0];
        for (int w = 1; w < (int)(blockDim.x >> 5); ++w) ng_pick(best, at, shv[w], shi[w]);
        // Every thread reads the sign before any writes its rows.
        const bool flip = at < n && v[at] < T(0);
        __syncthreads();
        if (flip)
            for (ng_i64 i = threadIdx.x; i < n; i += blockDim.x) v[i] = -v[i];
    }
}
