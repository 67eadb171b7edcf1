// Batched Cholesky factorisation (LAPACK xPOTRF semantics) and the solves (xPOTRS).
//
// Kernels, specialised by NVRTC at run time through -D defines (the host side is
// src/potrf/cuda.rs):
//   potrf_warp_<T>   n <= 64 (NG_N, compile time; the host takes it to 32): NG_W lanes per
//                    matrix (a power of two >= NG_H), NG_MPB matrices per block. Lane i reads
//                    row i of L (for i < NG_H) and, folded (NG_H = ceil(n / 2), from
//                    n = 25), row n − 1 − i from global memory into registers; step k
//                    broadcasts the pivot by a shuffle and column k through shared memory,
//                    and every lane updates its rows (right-looking); lane i writes its rows
//                    back.
//   potrf_panel_<T>  32 < n <= 256 where the triangle's NG_G·(NG_G + 1)/2 tiles of 16 × 16
//                    fit the shared memory (H100: single 256, double and complex single 224,
//                    complex double 160): one block per matrix, blocked right-looking, a panel
//                    of 16 columns factored by one warp, three barriers a panel (see below).
//   potrf_reg_<T>    where those tiles do not fit, 32 < n <= 180 (single, double, complex
//                    single) or 128 (complex double): one block per matrix, the lower
//                    triangle's NG_TM × NG_TM tiles one to a thread in registers,
//                    right-looking, each step's column broadcast through shared memory.
//   potrf_tile_<T>   beyond those, n <= 256 (NG_TR = ceil(n / 32)): one block per matrix,
//                    left-looking in panels of 32 columns with register-tiled updates (see
//                    below).
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
// Rows 0 … H − 1 of L ("low" rows) go one to a lane; with H < N (folded, H = ⌈N / 2⌉) lane p
// also holds the "high" row N − 1 − p, which are rows H … N − 1: half the lanes hold the
// matrix, so a warp factors two matrices at once, and the lanes' update work is balanced
// (a low row is short where its high row is long). Register arrays need compile-time
// indices, so the low rows take H entries and the high rows N.
constexpr int N = NG_N, H = NG_H, W = NG_W, MPB = NG_MPB;
constexpr bool FOLD = H < N;
constexpr int NHI = FOLD ? N : 1;
// At least 4 blocks an SM (row registers beyond 128 cost more in occupancy than they save)
// with a row a lane, and folded up to n = 32 with at most 384 bytes of rows (ptxas: double
// and complex single n = 32 fit 128 registers without spills). Else 2, up to 255 registers:
// double n = 64 and complex double n = 32 take 238–254 without spills, single n = 64 154–190
// (capped at 128, it spilled).
constexpr int MINB = !FOLD || (N <= 32 && (H + N) * (int)sizeof(T) <= 384) ? 4 : 2;

// A compile-time index clamped into an array of `len`: for the branches of an unrolled
// step that another value of k takes.
__device__ constexpr int ng_clamp(int i, int len) { return i < len ? i : len - 1; }

// Shared memory: MPB columns of N (the step's column of L, broadcast to the segment).
extern "C" __global__ void __launch_bounds__(MPB * W, MINB) NG_CAT(potrf_warp_, NG_SUFFIX)(
    int uplo, ng_batch<T> A, ng_i64 lda, int *info, ng_i64 batch) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    const int tid = threadIdx.x, seg = tid / W, lane = tid % W, hrow = N - 1 - lane;
    T *col = reinterpret_cast<T *>(ng_smem_raw) + seg * N;
    for (ng_i64 first = (ng_i64)blockIdx.x * MPB; first < batch; first += (ng_i64)gridDim.x * MPB) {
        const bool has = first + seg < batch && lane < H;
        // The high row: H … N − 1 (for odd N the middle row is the last lane's low row).
        const bool has_hi = FOLD && has && hrow >= H;
        // Rows `lane` (and `hrow`) of L straight from global memory into registers (no
        // staging: the index arithmetic of a staged copy, not the memory, bounded this
        // kernel). Lower: column j's entries are consecutive across the lanes (the high rows
        // descending); upper: L(i, j) = conj(A(j, i)), one column per lane, whose sectors the
        // later j reuse from L1. Entries right of the diagonal are never read.
        T *m = has ? A.matrix(first + seg) : nullptr;
        // A stride the compiler cannot see through (an empty asm): it would otherwise hoist
        // the N offsets of the loads out of this loop and keep them live across the steps
        // (f32 n = 16: 112 registers, not 50; double n = 25 and 32 spilled).
        ng_i64 ld = lda;
        asm volatile("" : "+l"(ld));
        T a[H], b[NHI];
#pragma unroll
        for (int j = 0; j < H; ++j) {
            if (!has || j > lane) a[j] = ng_zero<T>();
            else a[j] = uplo == 0 ? m[lane + j * ld] : ng_conj(m[j + lane * ld]);
        }
#pragma unroll
        for (int j = 0; j < NHI; ++j) {
            if (!has_hi || j > hrow) b[j] = ng_zero<T>();
            else b[j] = uplo == 0 ? m[hrow + j * ld] : ng_conj(m[j + hrow * ld]);
        }
        int inf = 0;
        bool done = !has;
#pragma unroll
        for (int k = 0; k < N; ++k) {
            // Row k is lane k's low row, or lane N − 1 − k's high row.
            const bool low = k < H;
            const int kl = ng_clamp(k, H), kh = ng_clamp(k, NHI);
            // Every lane of the warp shuffles and synchronises, whatever its segment decided.
            const R d = ng_shfl(ng_re(low ? a[kl] : b[kh]), low ? k : N - 1 - k, W);
            if (!done && ng_fails(d)) {
                done = true;
                inf = k + 1;
                if (low && lane == k) a[kl] = ng_from_real_t<T>::of(d);
                if (!low && hrow == k) b[kh] = ng_from_real_t<T>::of(d);
            }
            if (!done) {
                const R r = sqrt(d);
                // Column k: L(k, k) = r, L(i, k) = A(i, k) / r below it, published for the
                // update (rows above k publish values no one reads).
                if (low) {
                    if (lane == k) a[kl] = ng_from_real_t<T>::of(r);
                    else if (lane > k) a[kl] = ng_scale(a[kl], R(1) / r);
                    col[lane] = a[kl];
                }
                if (has_hi) {
                    if (hrow == k) b[kh] = ng_from_real_t<T>::of(r);
                    else if (hrow > k) b[kh] = ng_scale(b[kh], R(1) / r);
                    col[hrow] = b[kh];
                }
            }
            __syncwarp();
            // L(i, j) -= L(i, k)·conj(L(j, k)) for k < j <= i, for each row i > k of the lane:
            // one load of L(j, k) for both rows (two loads would keep H more values live). The
            // entries past the diagonal take the same (unread) update, which keeps the loop
            // unpredicated; while k < H every high row is below row k.
            const bool lo_upd = !done && low && lane > k, hi_upd = !done && has_hi && hrow > k;
            if (lo_upd || hi_upd) {
#pragma unroll
                for (int j = k + 1; j < N; ++j) {
                    const T c = ng_conj(col[j]);
                    if (j < H && lo_upd) a[ng_clamp(j, H)] = ng_fma(ng_neg(a[kl]), c, a[ng_clamp(j, H)]);
                    if (hi_upd) b[ng_clamp(j, NHI)] = ng_fma(ng_neg(b[kh]), c, b[ng_clamp(j, NHI)]);
                }
            }
            __syncwarp();
        }
        if (has) {
            // Again, so that the stores do not reuse the loads' addresses, kept live.
            asm volatile("" : "+l"(m), "+l"(ld));
#pragma unroll
            for (int j = 0; j < H; ++j) {
                if (j > lane) continue;
                if (uplo == 0) m[lane + j * ld] = a[j];
                else m[j + lane * ld] = ng_conj(a[j]);
            }
            if (has_hi) {
#pragma unroll
                for (int j = 0; j < NHI; ++j) {
                    if (j > hrow) continue;
                    if (uplo == 0) m[hrow + j * ld] = b[j];
                    else m[j + hrow * ld] = ng_conj(b[j]);
                }
            }
            if (lane == 0) info[first + seg] = inf;
        }
    }
}
#endif

#if defined(NG_REG)
// Right-looking Cholesky with the whole lower triangle in registers: the triangle's TM × TM
// tiles (G = ceil(n / TM) to a side, tile rows tr >= tile columns tc) go one to a thread,
// numbered down the tile columns (the warps of the leading columns, the first to finish, go
// idle together); the threads past the last tile hold none but keep the barriers. Step k:
// the owners of column k publish it (before its scaling) in a shared buffer, one barrier,
// then every thread reads the pivot, and each tile with columns beyond k applies the
// rank-one update to them, reading TM row and TM column values once for TM² multiply-adds.
// Two buffers alternate, so one barrier a step orders both the writes and the reads of the
// step before. Each thread computes the pivot's square root itself: the same operations on
// the same value, so every thread scales by the same bits.
constexpr int TM = NG_TM, NT = NG_NT;

// Dynamic shared memory: the two column buffers of G·TM entries each (zeroed once: the rows
// past n are never written).
extern "C" __global__ void __launch_bounds__(NT) NG_CAT(potrf_reg_, NG_SUFFIX)(
    int uplo, int n, ng_batch<T> A, ng_i64 lda, int *info, ng_i64 batch) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    T *col = reinterpret_cast<T *>(ng_smem_raw);
    const int g = (n + TM - 1) / TM, len = g * TM;
    // This thread's tile: the t-th of the triangle's tiles, column by column.
    int t = threadIdx.x, tc = 0;
    while (tc < g && t >= g - tc) {
        t -= g - tc;
        ++tc;
    }
    const bool has = tc < g;
    for (int e = threadIdx.x; e < 2 * len; e += NT) col[e] = ng_zero<T>();
    __syncthreads();
    for (ng_i64 b = blockIdx.x; b < batch; b += gridDim.x) {
        T *m = A.matrix(b);
        // Values the compiler cannot see through: it would otherwise hoist the TM² offsets
        // and bounds tests of the loads and stores out of this loop and keep them live
        // across the steps.
        int r0 = (tc + t) * TM, c0 = tc * TM;
        ng_i64 ld = lda;
        asm volatile("" : "+r"(r0), "+r"(c0), "+l"(ld));
        // The tile's entries on or below the diagonal; the others (above it, past n) are zero
        // and take updates that are never written back.
        T a[TM][TM];
#pragma unroll
        for (int p = 0; p < TM; ++p)
#pragma unroll
            for (int q = 0; q < TM; ++q) {
                const int i = r0 + p, j = c0 + q;
                a[p][q] = has && i < n && i >= j ? (uplo == 0 ? m[i + j * ld] : ng_conj(m[j + i * ld])) : ng_zero<T>();
            }
        int inf = 0;
        // Not unrolled: each copy of the step would hold its own tile live.
#pragma unroll 1
        for (int k = 0; k < n; ++k) {
            T *cb = col + (k & 1) * len;
            // Column k is final but for its scaling: its owners publish rows k … of it.
            const bool owner = has && c0 <= k && k < c0 + TM;
            if (owner) {
#pragma unroll
                for (int q = 0; q < TM; ++q)
                    if (c0 + q == k) {
#pragma unroll
                        for (int p = 0; p < TM; ++p)
                            if (r0 + p >= k && r0 + p < n) cb[r0 + p] = a[p][q];
                    }
            }
            __syncthreads();
            // The same value in every thread after the barrier: a uniform exit.
            const R d = ng_re(cb[k]);
            if (ng_fails(d)) {
                inf = k + 1;
                if (owner && r0 == c0) {
#pragma unroll
                    for (int q = 0; q < TM; ++q)
                        if (c0 + q == k) a[q][q] = ng_from_real_t<T>::of(d);
                }
                break;
            }
            if (!has || c0 + TM <= k) continue;
            const R r = sqrt(d), rinv = R(1) / r;
            if (owner) {
                // L(k, k) = r and L(i, k) = A(i, k) / r below it.
#pragma unroll
                for (int q = 0; q < TM; ++q)
                    if (c0 + q == k) {
#pragma unroll
                        for (int p = 0; p < TM; ++p) {
                            if (r0 + p == k) a[p][q] = ng_from_real_t<T>::of(r);
                            else if (r0 + p > k) a[p][q] = ng_scale(a[p][q], rinv);
                        }
                    }
            }
            if (c0 + TM - 1 > k) {
                // L(i, j) −= L(i, k)·conj(L(j, k)) for the tile's columns j > k.
                T lr[TM], lc[TM];
#pragma unroll
                for (int p = 0; p < TM; ++p) lr[p] = ng_neg(ng_scale(cb[r0 + p], rinv));
#pragma unroll
                for (int q = 0; q < TM; ++q) lc[q] = ng_conj(ng_scale(cb[c0 + q], rinv));
#pragma unroll
                for (int q = 0; q < TM; ++q)
                    if (c0 + q > k) {
#pragma unroll
                        for (int p = 0; p < TM; ++p) a[p][q] = ng_fma(lr[p], lc[q], a[p][q]);
                    }
            }
        }
        if (has) {
            // Again: the loads' TM² addresses must not stay live across the steps for these.
            asm volatile("" : "+l"(m), "+l"(ld), "+r"(r0), "+r"(c0));
#pragma unroll
            for (int p = 0; p < TM; ++p)
#pragma unroll
                for (int q = 0; q < TM; ++q) {
                    const int i = r0 + p, j = c0 + q;
                    if (i < n && i >= j) {
                        if (uplo == 0) m[i + j * ld] = a[p][q];
                        else m[j + i * ld] = ng_conj(a[p][q]);
                    }
                }
        }
        if (threadIdx.x == 0) info[b] = inf;
        // The next matrix's first step writes a buffer this one's last step may still read.
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

#if defined(NG_TILE)
// Left-looking blocked Cholesky for n <= 256 beyond the register tiles: one block of 256
// threads per matrix, panels of NB = 32 columns, each in four phases:
//   (1) P = the panel's rows j0 … n − 1 of A minus L(j0:n, 0:j0)·L(j0:j0+jb, 0:j0)ᴴ: chunks of
//       KC columns of L staged in shared memory, each thread a register tile of NG_TR rows
//       (r = tr + 32·i) × 4 columns (c = tc + 8·q), written to the panel in shared memory;
//   (2) warp 0 factors the diagonal block in registers, lane i holding row i (as potrf_warp);
//   (3) a thread per row below solves its row against the diagonal block's L11ᴴ;
//   (4) the panel goes back to A, which phase (1) of the later panels reads.
// The arithmetic of the trailing updates is register-tiled (the right-looking block kernel
// streams the whole trailing triangle through shared memory at every step).
constexpr int NT = 256, NB = 32, KC = 16, TR = NG_TR, TC = NB / 8;

// L(i, j) of the matrix m (uplo upper: conj(A(j, i))).
__device__ __forceinline__ T ng_get(const T *m, ng_i64 ld, int uplo, int i, int j) {
    return uplo == 0 ? m[i + j * ld] : ng_conj(m[j + i * ld]);
}
__device__ __forceinline__ void ng_put(T *m, ng_i64 ld, int uplo, int i, int j, T v) {
    if (uplo == 0) m[i + j * ld] = v;
    else m[j + i * ld] = ng_conj(v);
}

// Dynamic shared memory: the panel P (NB columns of stride n), the chunk C (KC columns of
// stride n), the step's column of L11 (NB), and the info flag.
extern "C" __global__ void __launch_bounds__(NT) NG_CAT(potrf_tile_, NG_SUFFIX)(
    int uplo, int n, ng_batch<T> A, ng_i64 lda, int *info, ng_i64 batch) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    T *P = reinterpret_cast<T *>(ng_smem_raw);
    T *C = P + NB * n;
    T *col = C + KC * n;
    int *flag = reinterpret_cast<int *>(col + NB);
    const int tid = threadIdx.x, lane = tid % 32, tc = tid % 8, tr = tid / 8;
    for (ng_i64 b = blockIdx.x; b < batch; b += gridDim.x) {
        T *m = A.matrix(b);
        int inf = 0;
        for (int j0 = 0; j0 < n && inf == 0; j0 += NB) {
            const int jb = min(NB, n - j0), pr = n - j0;
            // (1) The panel's entries on or below the diagonal, minus the earlier columns' products.
            T acc[TR][TC];
#pragma unroll
            for (int i = 0; i < TR; ++i)
#pragma unroll
                for (int q = 0; q < TC; ++q) {
                    const int r = tr + 32 * i, c = tc + 8 * q;
                    acc[i][q] = r < pr && c < jb && r >= c ? ng_get(m, lda, uplo, j0 + r, j0 + c) : ng_zero<T>();
                }
            for (int k0 = 0; k0 < j0; k0 += KC) {
                const int kc = min(KC, j0 - k0);
                // C(r, k) = L(j0 + r, k0 + k), a warp down each column's rows.
                for (int k = tid / 32; k < kc; k += NT / 32)
                    for (int r = lane; r < pr; r += 32) C[k * n + r] = ng_get(m, lda, uplo, j0 + r, k0 + k);
                __syncthreads();
                for (int k = 0; k < kc; ++k) {
                    T lc[TC];
#pragma unroll
                    for (int q = 0; q < TC; ++q) lc[q] = ng_neg(ng_conj(C[k * n + min(tc + 8 * q, pr - 1)]));
#pragma unroll
                    for (int i = 0; i < TR; ++i) {
                        const T lr = C[k * n + min(tr + 32 * i, pr - 1)];
#pragma unroll
                        for (int q = 0; q < TC; ++q) acc[i][q] = ng_fma(lr, lc[q], acc[i][q]);
                    }
                }
                __syncthreads();
            }
#pragma unroll
            for (int i = 0; i < TR; ++i)
#pragma unroll
                for (int q = 0; q < TC; ++q) {
                    const int r = tr + 32 * i, c = tc + 8 * q;
                    if (r < pr && c < jb && r >= c) P[c * n + r] = acc[i][q];
                }
            __syncthreads();
            // (2) Warp 0: the diagonal block, lane i holding row i of L11.
            if (tid < 32) {
                const bool has = lane < jb;
                T a[NB];
#pragma unroll
                for (int j = 0; j < NB; ++j) a[j] = has && j <= lane ? P[j * n + lane] : ng_zero<T>();
                int fail = 0;
#pragma unroll
                for (int k = 0; k < NB; ++k) {
                    // Uniform over the warp: jb, and fail (every lane tests the same pivot).
                    if (k < jb && fail == 0) {
                        const R d = ng_shfl(ng_re(a[k]), k, 32);
                        if (ng_fails(d)) {
                            fail = j0 + k + 1;
                            if (lane == k) a[k] = ng_from_real_t<T>::of(d);
                        } else {
                            const R r = sqrt(d);
                            if (lane == k) a[k] = ng_from_real_t<T>::of(r);
                            else if (lane > k) a[k] = ng_scale(a[k], R(1) / r);
                            col[lane] = a[k];
                            __syncwarp();
                            if (lane > k) {
#pragma unroll
                                for (int j = k + 1; j < NB; ++j) a[j] = ng_fma(ng_neg(a[k]), ng_conj(col[j]), a[j]);
                            }
                            __syncwarp();
                        }
                    }
                }
#pragma unroll
                for (int j = 0; j < NB; ++j)
                    if (has && j <= lane) P[j * n + lane] = a[j];
                if (lane == 0) *flag = fail;
            }
            __syncthreads();
            inf = *flag;
            // (3) Rows below the diagonal block: x·L11ᴴ = p for each row p of the panel.
            const int r = jb + tid;
            if (inf == 0 && r < pr) {
                T x[NB];
#pragma unroll
                for (int j = 0; j < NB; ++j) x[j] = j < jb ? P[j * n + r] : ng_zero<T>();
#pragma unroll
                for (int j = 0; j < NB; ++j) {
                    if (j < jb) {
                        x[j] = ng_scale(x[j], R(1) / ng_re(P[j * n + j]));
#pragma unroll
                        for (int i = j + 1; i < NB; ++i) x[i] = ng_fma(ng_neg(x[j]), ng_conj(P[j * n + i]), x[i]);
                    }
                }
#pragma unroll
                for (int j = 0; j < NB; ++j)
                    if (j < jb) ng_put(m, lda, uplo, j0 + r, j0 + j, x[j]);
            }
            // (4) The diagonal block (its rows below a failed pivot as far as they got).
            for (int e = tid; e < jb * jb; e += NT) {
                const int i = e % jb, j = e / jb;
                if (i >= j) ng_put(m, lda, uplo, j0 + i, j0 + j, P[j * n + i]);
            }
            // Phase (1) of the next panel reads these columns of A; the next matrix reuses P.
            __syncthreads();
        }
        if (tid == 0) info[b] = inf;
    }
}
#endif

#if defined(NG_PANEL)
// Blocked right-looking Cholesky with the whole lower triangle in shared memory, one block per
// matrix: the triangle as G(G + 1)/2 tiles of NB × NB (column-major, tile (ii, jj) for
// jj <= ii stored column after column of tiles), padded past n with the identity (padded
// pivots are 1 and padded rows of L stay 0, so no step tests n). Panel kk (a tile column):
//   (1) one warp factors the diagonal tile, lane i holding row i, column k broadcast through
//       the tile itself (one __syncwarp a step, no block barrier), and publishes 1 / L(k, k);
//   (2) a thread per row below solves it against the diagonal tile: x·L11ᴴ = a;
//   (3) the trailing tiles take the rank-NB update, 16 threads to a tile, 4 × 4 entries each
//       from NB-long columns of the panel in shared memory.
// Three block barriers a panel (not one a column); several blocks an SM hide one another's
// serial steps. A failed pivot (found in (1) only) ends the factorisation for the whole
// block at the barrier after (1): the tiles left of the panel and the diagonal tile's rows
// above the pivot are final, the rest intermediate.
constexpr int NT = NG_NT, G = NG_G, NB = 16, TT = G * (G + 1) / 2, TE = NB * NB;
// Elements staged per thread at once on the way in (their loads all in flight).
constexpr int STAGE = 8;

// The first element of tile (ii, jj), jj <= ii.
__device__ __forceinline__ int ng_tile(int ii, int jj) { return (jj * G - jj * (jj - 1) / 2 + ii - jj) * TE; }

// Slot e of the triangle (tile e / TE, entry e % TE) as (row, column) of L and its offset in
// shared memory. The entries of a tile go down its columns for uplo lower and along its rows
// for upper, so that consecutive threads read consecutive elements of A.
struct ng_slot {
    int i, j, off;
};
__device__ __forceinline__ ng_slot ng_slot_of(int e, int uplo, const unsigned short *tab) {
    const int t = e / TE, w = e % TE, ii = tab[t] & 0xff, jj = tab[t] >> 8;
    const int r = uplo == 0 ? w % NB : w / NB, c = uplo == 0 ? w / NB : w % NB;
    return ng_slot{ii * NB + r, jj * NB + c, t * TE + c * NB + r};
}

// Dynamic shared memory: the TT tiles, 1 / L(k, k) of the panel (NB reals, 128 bytes
// reserved), the failure flag, and the tiles' (row, column) indices (TT shorts).
extern "C" __global__ void __launch_bounds__(NT, NG_MINB) NG_CAT(potrf_panel_, NG_SUFFIX)(
    int uplo, int n, ng_batch<T> A, ng_i64 lda, int *info, ng_i64 batch) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    T *S = reinterpret_cast<T *>(ng_smem_raw);
    R *dinv = reinterpret_cast<R *>(ng_smem_raw + TT * TE * sizeof(T));
    int *flag = reinterpret_cast<int *>(ng_smem_raw + TT * TE * sizeof(T) + 128);
    unsigned short *tab = reinterpret_cast<unsigned short *>(flag + 1);
    const int tid = threadIdx.x, lane = tid % 32;
    for (int t = tid; t < TT; t += NT) {
        int ii = t, jj = 0;
        while (ii >= G - jj) {
            ii -= G - jj;
            ++jj;
        }
        tab[t] = (unsigned short)((ii + jj) | (jj << 8));
    }
    __syncthreads();
    for (ng_i64 b = blockIdx.x; b < batch; b += gridDim.x) {
        T *m = A.matrix(b);
        // The triangle into the tiles: L(i, j) for i >= j within n, the identity past it, 0
        // above the diagonal (never read from A). Loads first, then stores, so that STAGE loads
        // are in flight (a store to shared memory between them would order them).
        for (int e0 = 0; e0 < TT * TE; e0 += NT * STAGE) {
            T v[STAGE];
#pragma unroll
            for (int u = 0; u < STAGE; ++u) {
                const int e = e0 + u * NT + tid;
                v[u] = ng_zero<T>();
                if (e < TT * TE) {
                    const ng_slot s = ng_slot_of(e, uplo, tab);
                    if (s.i < n && s.i >= s.j) v[u] = uplo == 0 ? m[s.i + s.j * lda] : ng_conj(m[s.j + s.i * lda]);
                    else if (s.i == s.j) v[u] = ng_from_real_t<T>::of(R(1));
                }
            }
#pragma unroll
            for (int u = 0; u < STAGE; ++u) {
                const int e = e0 + u * NT + tid;
                if (e < TT * TE) S[ng_slot_of(e, uplo, tab).off] = v[u];
            }
        }
        __syncthreads();
        int inf = 0;
        for (int kk = 0; kk < G; ++kk) {
            T *D = S + ng_tile(kk, kk);
            // (1) The diagonal tile. Lane i's entries right of its diagonal are never read
            // (nor written back): they take the same updates, keeping the loop unpredicated.
            if (tid < 32) {
                T a[NB];
#pragma unroll
                for (int j = 0; j < NB; ++j) a[j] = lane < NB && j <= lane ? D[j * NB + lane] : ng_zero<T>();
                int fail = 0;
#pragma unroll
                for (int k = 0; k < NB; ++k) {
                    // Uniform over the warp: every lane tests the same pivot.
                    if (fail == 0) {
                        const R d = ng_shfl(ng_re(a[k]), k, 32);
                        if (ng_fails(d)) {
                            fail = kk * NB + k + 1;
                            if (lane == k) D[k * NB + k] = ng_from_real_t<T>::of(d);
                        } else {
                            const R r = sqrt(d), rinv = R(1) / r;
                            if (lane == k) a[k] = ng_from_real_t<T>::of(r);
                            else if (lane > k) a[k] = ng_scale(a[k], rinv);
                            // Column k is final: into the tile, where the lanes read it.
                            if (lane >= k && lane < NB) D[k * NB + lane] = a[k];
                            if (lane == 0) dinv[k] = rinv;
                            __syncwarp();
                            if (lane > k && lane < NB) {
#pragma unroll
                                for (int j = k + 1; j < NB; ++j) a[j] = ng_fma(ng_neg(a[k]), ng_conj(D[k * NB + j]), a[j]);
                            }
                        }
                    }
                }
                if (lane == 0) *flag = fail;
            }
            __syncthreads();
            // The same value in every thread: a uniform exit (flag is next written after two
            // more barriers).
            inf = *flag;
            if (inf != 0 || kk + 1 == G) break;
            // (2) The panel's rows below the diagonal tile (its tiles are consecutive):
            // x·L11ᴴ = a, forward, x_j = (a_j − Σ_{i<j} x_i·conj(L11(j, i))) / L11(j, j).
            T *P = D + TE;
            const int m1 = G - kk - 1;
            for (int row = tid; row < m1 * NB; row += NT) {
                T *X = P + (row / NB) * TE + row % NB;
                T x[NB];
#pragma unroll
                for (int j = 0; j < NB; ++j) x[j] = X[j * NB];
#pragma unroll
                for (int j = 0; j < NB; ++j) {
                    x[j] = ng_scale(x[j], dinv[j]);
#pragma unroll
                    for (int i = j + 1; i < NB; ++i) x[i] = ng_fma(ng_neg(x[j]), ng_conj(D[j * NB + i]), x[i]);
                }
#pragma unroll
                for (int j = 0; j < NB; ++j) X[j * NB] = x[j];
            }
            __syncthreads();
            // (3) Tile (kk + 1 + iq, kk + 1 + jq) −= P_iq·P_jqᴴ for jq <= iq < m1: 16 threads a
            // tile, thread (tr, tc) the rows tr + 4p and columns tc + 4q (the 16 threads read 4
            // distinct addresses of each column, the others broadcast).
            for (int u = tid; u < m1 * (m1 + 1) / 2 * 16; u += NT) {
                int iq = u / 16, jq = 0;
                while (iq >= m1 - jq) {
                    iq -= m1 - jq;
                    ++jq;
                }
                iq += jq;
                T *C = S + ng_tile(kk + 1 + iq, kk + 1 + jq);
                const T *Li = P + iq * TE, *Lj = P + jq * TE;
                const int tr = u % 4, tc = (u / 4) % 4;
                T acc[4][4];
#pragma unroll
                for (int p = 0; p < 4; ++p)
#pragma unroll
                    for (int q = 0; q < 4; ++q) acc[p][q] = C[(tc + 4 * q) * NB + tr + 4 * p];
#pragma unroll
                for (int k = 0; k < NB; ++k) {
                    T lr[4], lc[4];
#pragma unroll
                    for (int p = 0; p < 4; ++p) lr[p] = ng_neg(Li[k * NB + tr + 4 * p]);
#pragma unroll
                    for (int q = 0; q < 4; ++q) lc[q] = ng_conj(Lj[k * NB + tc + 4 * q]);
#pragma unroll
                    for (int p = 0; p < 4; ++p)
#pragma unroll
                        for (int q = 0; q < 4; ++q) acc[p][q] = ng_fma(lr[p], lc[q], acc[p][q]);
                }
#pragma unroll
                for (int p = 0; p < 4; ++p)
#pragma unroll
                    for (int q = 0; q < 4; ++q) C[(tc + 4 * q) * NB + tr + 4 * p] = acc[p][q];
            }
            __syncthreads();
        }
        // Every tile write is behind a barrier here (the last one after (1) or (3)).
        for (int e = tid; e < TT * TE; e += NT) {
            const ng_slot s = ng_slot_of(e, uplo, tab);
            if (s.i < n && s.i >= s.j) {
                if (uplo == 0) m[s.i + s.j * lda] = S[s.off];
                else m[s.j + s.i * lda] = ng_conj(S[s.off]);
            }
        }
        if (tid == 0) info[b] = inf;
        // The next matrix's tiles overwrite these.
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
