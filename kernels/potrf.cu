// Batched Cholesky factorisation (LAPACK xPOTRF semantics) and the solves (xPOTRS).
//
// Kernels, specialised by NVRTC at run time through -D defines (the host side is
// src/potrf/cuda.rs):
//   potrf_warp_<T>   n <= 32 (NG_N, compile time): NG_W lanes per matrix (a power of two
//                    >= n), NG_MPB matrices per block. The block loads its matrices' triangles
//                    into shared memory with coalesced reads, then lane i holds row i of L in
//                    registers; step k broadcasts the pivot by a shuffle and column k through
//                    shared memory, and every lane updates its row (right-looking).
//   potrf_block_<T>  any n: one block per matrix, right-looking, a warp per trailing column;
//                    L's columns in shared memory as a packed lower triangle, but for the
//                    first `split` columns, left in place in global memory when the whole
//                    triangle does not fit (the least-updated ones).
//   potrs_<T>        a thread per (matrix, right-hand side): the two triangular solves.
// Both uplo values run the same algorithm on L: for uplo upper, L(i, j) = conj(U(j, i)).
// The failure test of step k is LAPACK's (pivot <= 0 or NaN) plus +Inf; the kernels stop
// there with the pivot in (k, k). Everything is computed in a fixed order: results are
// bitwise reproducible.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

typedef NG_T T;
typedef typename ng_real_of<T>::type R;

__device__ __forceinline__ float ng_re(float a) { return a; }
__device__ __forceinline__ double ng_re(double a) { return a; }
template <typename X>
__device__ __forceinline__ X ng_re(ng_complex<X> a) { return a.re; }

// x·r for a real r.
__device__ __forceinline__ float ng_scale(float a, float r) { return a * r; }
__device__ __forceinline__ double ng_scale(double a, double r) { return a * r; }
template <typename X>
__device__ __forceinline__ ng_complex<X> ng_scale(ng_complex<X> a, X r) { return ng_complex<X>{a.re * r, a.im * r}; }

// Whether a pivot ends the factorisation: <= 0 or NaN (LAPACK's test), or +Inf.
__device__ __forceinline__ bool ng_fails(R d) { return !(d > R(0)) || d == ng_inf<R>(); }

// Whether element (i, j) belongs to the triangle uplo names (0 lower, 1 upper).
__device__ __forceinline__ bool ng_in_triangle(int uplo, int i, int j) { return uplo == 0 ? i >= j : i <= j; }

#if defined(NG_WARP)
constexpr int N = NG_N, W = NG_W, MPB = NG_MPB, LS = N + 1;

// Shared memory: MPB matrices (column stride LS), then MPB columns of N.
extern "C" __global__ void __launch_bounds__(MPB * W) NG_CAT(potrf_warp_, NG_SUFFIX)(
    int uplo, ng_batch<T> A, ng_i64 lda, int *info, ng_i64 batch) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    T *s = reinterpret_cast<T *>(ng_smem_raw);
    const int tid = threadIdx.x, seg = tid / W, lane = tid % W;
    T *mine = s + seg * N * LS;
    T *col = s + MPB * N * LS + seg * N;
    for (ng_i64 first = (ng_i64)blockIdx.x * MPB; first < batch; first += (ng_i64)gridDim.x * MPB) {
        const int nmat = (int)min((ng_i64)MPB, batch - first);
        for (int e = tid; e < nmat * N * N; e += MPB * W) {
            const int m = e / (N * N), r = e % (N * N), i = r % N, j = r / N;
            if (ng_in_triangle(uplo, i, j)) s[m * N * LS + j * LS + i] = A.matrix(first + m)[i + j * lda];
        }
        __syncthreads();
        const bool has = seg < nmat && lane < N;
        // Row `lane` of L; entries right of the diagonal are never read.
        T a[N];
#pragma unroll
        for (int j = 0; j < N; ++j) {
            if (!has || j > lane) a[j] = ng_zero<T>();
            else a[j] = uplo == 0 ? mine[j * LS + lane] : ng_conj(mine[lane * LS + j]);
        }
        int inf = 0;
        bool done = !has;
#pragma unroll
        for (int k = 0; k < N; ++k) {
            // Every lane of the warp shuffles and synchronises, whatever its segment decided.
            const R d = ng_shfl(ng_re(a[k]), k, W);
            if (!done && ng_fails(d)) {
                done = true;
                inf = k + 1;
                if (lane == k) a[k] = ng_from_real_t<T>::of(d);
            }
            if (!done) {
                const R r = sqrt(d);
                if (lane == k) a[k] = ng_from_real_t<T>::of(r);
                else if (lane > k) a[k] = ng_scale(a[k], R(1) / r);
                col[lane] = a[k];
            }
            __syncwarp();
            if (!done && lane > k) {
                // L(lane, j) -= L(lane, k)·conj(L(j, k)) for k < j <= lane; the entries past the
                // diagonal take the same (unread) update, which keeps the loop unpredicated.
#pragma unroll
                for (int j = k + 1; j < N; ++j) a[j] = ng_fma(ng_neg(a[k]), ng_conj(col[j]), a[j]);
            }
            __syncwarp();
        }
        if (has) {
#pragma unroll
            for (int j = 0; j < N; ++j) {
                if (j > lane) continue;
                if (uplo == 0) mine[j * LS + lane] = a[j];
                else mine[lane * LS + j] = ng_conj(a[j]);
            }
            if (lane == 0) info[first + seg] = inf;
        }
        __syncthreads();
        for (int e = tid; e < nmat * N * N; e += MPB * W) {
            const int m = e / (N * N), r = e % (N * N), i = r % N, j = r / N;
            if (ng_in_triangle(uplo, i, j)) A.matrix(first + m)[i + j * lda] = s[m * N * LS + j * LS + i];
        }
        __syncthreads();
    }
}
#endif

#if defined(NG_BLOCK)
constexpr int NT = NG_NT, NW = NT / 32;

// L of one matrix: columns j >= split in shared memory as the packed lower triangle of order
// n − split (column-major), the first `split` columns in place in the caller's matrix
// (uplo upper: L(i, j) = conj(A(j, i))). The leading columns are the ones to leave in global
// memory: column j is updated only by the j steps before it.
struct ng_lower {
    T *s;
    T *m;
    ng_i64 ld;
    int n, split, uplo;
    // The shared-memory index of L(0, j) (a column base: L(i, j) is at base + i), j >= split.
    __device__ __forceinline__ int base(int j) const {
        const int c = j - split;
        return c * (n - split) - (c * (c - 1)) / 2 - j;
    }
    __device__ __forceinline__ T get(int i, int j) const {
        if (j >= split) return s[base(j) + i];
        return uplo == 0 ? m[i + j * ld] : ng_conj(m[j + i * ld]);
    }
    __device__ __forceinline__ void put(int i, int j, T v) const {
        if (j >= split) s[base(j) + i] = v;
        else if (uplo == 0) m[i + j * ld] = v;
        else m[j + i * ld] = ng_conj(v);
    }
};

// Right-looking Cholesky of the n × n L; returns info (the same in every thread).
__device__ int ng_factor(const ng_lower &L, int n) {
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    for (int k = 0; k < n; ++k) {
        const R d = ng_re(L.get(k, k));
        if (ng_fails(d)) {
            // Every thread reads d before thread 0 writes the failed pivot back; every thread
            // read the same d after the last barrier, so the branch is uniform.
            __syncthreads();
            if (tid == 0) L.put(k, k, ng_from_real_t<T>::of(d));
            return k + 1;
        }
        const R r = sqrt(d), rinv = R(1) / r;
        for (int i = k + 1 + tid; i < n; i += NT) L.put(i, k, ng_scale(L.get(i, k), rinv));
        __syncthreads();
        // (k, k) is read by no one after the barrier above until the next step.
        if (tid == 0) L.put(k, k, ng_from_real_t<T>::of(r));
        // A warp per trailing column j, lanes down its rows: L(i, j) −= L(i, k)·conj(L(j, k)).
        for (int j = k + 1 + warp; j < n; j += NW) {
            const T ljk = ng_conj(L.get(j, k));
            if (k >= L.split) {
                // Both columns in shared memory (and so column j): the common case.
                const int bj = L.base(j), bk = L.base(k);
                for (int i = j + lane; i < n; i += 32) L.s[bj + i] = ng_fma(ng_neg(L.s[bk + i]), ljk, L.s[bj + i]);
            } else {
                for (int i = j + lane; i < n; i += 32) L.put(i, j, ng_fma(ng_neg(L.get(i, k)), ljk, L.get(i, j)));
            }
        }
        __syncthreads();
    }
    return 0;
}

// One block per matrix (grid-stride); dynamic shared memory: the packed triangle of order
// n − split.
extern "C" __global__ void __launch_bounds__(NT) NG_CAT(potrf_block_, NG_SUFFIX)(
    int uplo, int n, int split, ng_batch<T> A, ng_i64 lda, int *info, ng_i64 batch) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (ng_i64 b = blockIdx.x; b < batch; b += gridDim.x) {
        T *m = A.matrix(b);
        const ng_lower L{reinterpret_cast<T *>(ng_smem_raw), m, lda, n, split, uplo};
        // The triangle's elements of columns and rows >= split (those of L's shared columns),
        // coalesced: a warp per column of A, lanes down the rows.
        for (int j = split + warp; j < n; j += NW)
            for (int i = split + lane; i < n; i += 32)
                if (ng_in_triangle(uplo, i, j)) {
                    const T v = m[i + j * lda];
                    if (uplo == 0) L.put(i, j, v);
                    else L.put(j, i, ng_conj(v));
                }
        __syncthreads();
        const int k = ng_factor(L, n);
        if (threadIdx.x == 0) info[b] = k;
        __syncthreads();
        for (int j = split + warp; j < n; j += NW)
            for (int i = split + lane; i < n; i += 32)
                if (ng_in_triangle(uplo, i, j)) m[i + j * lda] = uplo == 0 ? L.get(i, j) : ng_conj(L.get(j, i));
        // The next matrix must not overwrite the shared triangle before every store is done.
        __syncthreads();
    }
}
#endif

#if defined(NG_POTRS)
// A thread per (matrix, right-hand side): L·y = b, then Lᴴ·x = y, in place in B.
extern "C" __global__ void NG_CAT(potrs_, NG_SUFFIX)(
    int uplo, ng_i64 n, ng_i64 nrhs, ng_batch<const T> A, ng_i64 lda, ng_batch<T> B, ng_i64 ldb, const int *skip, ng_i64 batch) {
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < batch * nrhs; t += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 i = t / nrhs, r = t % nrhs;
        if (skip && skip[i] != 0) continue;
        const T *m = A.matrix(i);
        T *x = B.matrix(i) + r * ldb;
        // L(p, q) for p >= q.
        auto l = [&](ng_i64 p, ng_i64 q) { return uplo == 0 ? m[p + q * lda] : ng_conj(m[q + p * lda]); };
        for (ng_i64 k = 0; k < n; ++k) {
            const T xk = ng_div(x[k], l(k, k));
            x[k] = xk;
            for (ng_i64 p = k + 1; p < n; ++p) x[p] = ng_fma(ng_neg(l(p, k)), xk, x[p]);
        }
        for (ng_i64 k = n - 1; k >= 0; --k) {
            T s = x[k];
            for (ng_i64 p = k + 1; p < n; ++p) s = ng_fma(ng_neg(ng_conj(l(p, k))), x[p], s);
            x[k] = ng_div(s, ng_conj(l(k, k)));
        }
    }
}
#endif
