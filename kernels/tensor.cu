// Dense tensors: the Khatri-Rao product, the skinny contraction of MTTKRP (M = sum of op(A_q) B_q
// with at most 64 columns; wider ones are gemm_batched.cu's kernels) and the reduction of its
// partial products (the host side is src/tensor/cuda.rs), and the small steps of the
// decompositions (CP-ALS, TT-SVD, TR-SVD, HT; src/tensor/engine.rs says what each computes, the
// CPU backend's loops are the same arithmetic).
//
// Kernels (T = NG_T, real):
//   tensor_kr_<T>      K(j, r) = U_0(i_0, r) * U_1(i_1, r) * ... (multiplied in that order),
//                      j = i_0 + dim_0 * (i_1 + dim_1 * (...)): the Khatri-Rao product of the
//                      factors in reverse order, U_{nf-1} (.) ... (.) U_0. The factors come as a
//                      table in device memory, three 64-bit words each (address, leading
//                      dimension, rows), so any number of them; a grid-stride loop over the
//                      rows x rank entries, rows fastest (coalesced writes).
//   tensor_skinny_<n|t><NC>_<T>  (NC = 8, 16, 32, 64) the partial products of a contraction
//                      M (m x n, n <= NC) = sum over slices q and sum indices t of
//                      op(A)(i, t) * B(t, c) (src/tensor/mod.rs `Contraction`, op(B) = B):
//                      op(A)(i, t) at A[q*a_slice + i + t*lda] (n: op = N) or
//                      A[q*a_slice + t + i*lda] (t: op = T), B(t, c) at B[q*b_slice + t + c*ldb]
//                      or, with 0 < nf <= NG_KR_MAX factors in `table` (by value, as tensor_kr's
//                      table), B(t, c) = K(j, c), j = q*b_slice + t, formed on the fly in
//                      tensor_kr's order (the MTTKRP: K is not stored).
//                      Block (x, y): rows x*BM .. x*BM + BM - 1 (BM = 4096 / NC) of piece y,
//                      which is slices (y / per)*spp .. + spp - 1 and sum indices
//                      (y % per)*len .. + len - 1 of each (fewer at the ends; none: zeros); it
//                      writes P + y*pp (leading dimension ldp). Each stage copies KC =
//                      min(NC, 32) sum indices of the A tile (BM x KC) and of B (KC x NC) into
//                      shared memory, zero outside the matrices, with loads coalesced along
//                      whichever index is contiguous; the next stage's loads are in flight
//                      (registers) while the threads multiply this one, each thread a 4 x 4
//                      tile of accumulators. Every entry is summed in one fixed order.
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

// Threads per block of tensor_skinny.
#define NG_SK_THREADS 256

// The tile sizes of tensor_skinny<NC>: BM rows of M, KC sum indices a stage, the shared rows'
// lengths (padded by 4: 16-byte aligned rows, and the sum-fastest copies free of bank
// conflicts), the staged elements of A and of B per thread.
template <int NC> struct NgSkinny {
    enum {
        BM = 4096 / NC,
        KC = NC < 32 ? NC : 32,
        CT = NC / 4,
        LA = BM + 4,
        LB = NC + 4,
        PA = KC * BM / NG_SK_THREADS,
        PB = (KC * NC + NG_SK_THREADS - 1) / NG_SK_THREADS
    };
};

// v = p[0 .. 3] (p 16-byte aligned shared memory).
__device__ __forceinline__ void ng_ld4(const float *p, float (&v)[4]) {
    const float4 t = *reinterpret_cast<const float4 *>(p);
    v[0] = t.x;
    v[1] = t.y;
    v[2] = t.z;
    v[3] = t.w;
}
__device__ __forceinline__ void ng_ld4(const double *p, double (&v)[4]) {
    const double2 t0 = *reinterpret_cast<const double2 *>(p), t1 = *reinterpret_cast<const double2 *>(p + 2);
    v[0] = t0.x;
    v[1] = t0.y;
    v[2] = t1.x;
    v[3] = t1.y;
}

// The elements of a stage that thread `tid` copies, u < (KC * W) / NG_SK_THREADS of them: sum
// index kk0 + u * dk and column c0 + u * dc (W columns, a multiple of 4). `along`: the source is
// contiguous along the sum, so a warp takes 8 consecutive sum indices of 4 columns (whole
// 32-byte sectors; with rows padded by 4, distinct banks when stored); else the column is
// fastest. KC divides 64 and W * KC is a multiple of 256 or W * KC < 256 (then only the threads
// with c0 < W copy, one element each).
template <int KC, int W, bool ALONG> struct NgSkMap {
    int kk0, c0;
    enum { DK = ALONG ? 0 : (W >= NG_SK_THREADS ? 1 : NG_SK_THREADS / W), DC = ALONG ? NG_SK_THREADS / KC : (W >= NG_SK_THREADS ? NG_SK_THREADS : 0), RB = W >= NG_SK_THREADS ? W / NG_SK_THREADS : 1 };
    __device__ __forceinline__ NgSkMap(int tid) {
        if (ALONG) {
            kk0 = (tid >> 2) % KC;
            c0 = (tid & 3) + 4 * (tid / (4 * KC));
        } else {
            kk0 = W >= NG_SK_THREADS ? 0 : tid / W;
            c0 = W >= NG_SK_THREADS ? tid : tid % W;
        }
    }
    // Element u: (kk, c).
    __device__ __forceinline__ int kk(int u) const { return ALONG ? kk0 : kk0 + (W >= NG_SK_THREADS ? u / RB : u * DK); }
    __device__ __forceinline__ int c(int u) const { return ALONG ? c0 + u * DC : c0 + (W >= NG_SK_THREADS ? (u % RB) * NG_SK_THREADS : 0); }
};

// a / b and a % b of non-negative values, in 32 bits when both fit (the usual case: far
// cheaper than the 64-bit division).
__device__ __forceinline__ void ng_divmod(ng_i64 a, ng_i64 b, ng_i64 &q, ng_i64 &r) {
    if (((a | b) >> 31) == 0) {
        const unsigned q32 = unsigned(a) / unsigned(b);
        q = q32;
        r = a - ng_i64(q32) * b;
    } else {
        q = a / b;
        r = a - q * b;
    }
}

// Most factors whose table tensor_skinny takes by value (NG_KR_MAX * 3 64-bit words of
// parameters: address, leading dimension, rows, the fastest row index first).
#define NG_KR_MAX 16
struct NgKrTable {
    long long w[3 * NG_KR_MAX];
};

template <int NC, bool TRANS>
__device__ __forceinline__ void ng_skinny(ng_i64 m, ng_i64 n, ng_i64 k, ng_i64 slices, const T *__restrict__ A, ng_i64 lda, ng_i64 a_slice, const T *__restrict__ B, ng_i64 ldb, ng_i64 b_slice, ng_i64 spp, ng_i64 per, ng_i64 len, T *__restrict__ P, ng_i64 ldp, ng_i64 pp, int nf, const NgKrTable &table) {
    typedef NgSkinny<NC> S;
    __shared__ __align__(16) T sa[S::KC * S::LA];
    __shared__ __align__(16) T sb[S::KC * S::LB];
    const int tid = threadIdx.x, tc = tid % S::CT, ti = tid / S::CT;
    const NgSkMap<S::KC, S::BM, TRANS> ma(tid);
    const NgSkMap<S::KC, NC, true> mb(tid);
    const ng_i64 i0 = ng_i64(blockIdx.x) * S::BM, piece = blockIdx.y;
    const ng_i64 group = piece / per, stretch = piece - group * per;
    const ng_i64 q0 = group * spp, q1 = min(slices, q0 + spp);
    const ng_i64 kb = stretch * len, ke = min(k, kb + len);
    const ng_i64 per_slice = ke > kb ? (ke - kb + S::KC - 1) / S::KC : 0;
    const ng_i64 stages = q1 > q0 ? (q1 - q0) * per_slice : 0;
    // Element u of the A tile is at a_at + u * a_du (sum index kk(u), row c(u)); of B at
    // b_at + u * b_du (column c(u)).
    const ng_i64 a_du = TRANS ? ng_i64(ma.DC) * lda : (S::BM >= NG_SK_THREADS ? 0 : ng_i64(ma.DK) * lda);
    const ng_i64 b_du = ng_i64(mb.DC) * ldb;
    T va[S::PA], vb[S::PB];
    T acc[4][4];
#pragma unroll
    for (int x = 0; x < 4; ++x)
#pragma unroll
        for (int y = 0; y < 4; ++y) acc[x][y] = T(0);
    // Loads stage s (slice q0 + s / per_slice, sum indices k0 .. k0 + KC - 1) into va, vb.
    auto load = [&](ng_i64 s) {
        const ng_i64 qs = s / per_slice, k0 = kb + (s - qs * per_slice) * S::KC;
        const int kv = int(min(ng_i64(S::KC), ke - k0));
        const ng_i64 q = q0 + qs, ta = k0 + ma.kk0, ra = i0 + ma.c0;
        const T *a_at = A + q * a_slice + (TRANS ? ta + ra * lda : ra + ta * lda);
        const T *b_at = B + q * b_slice + (k0 + mb.kk0) + mb.c0 * ldb;
#pragma unroll
        for (int u = 0; u < S::PA; ++u) {
            // Rows past the BM >= 256 thread rows step by 256 within one sum index.
            const T *p = a_at + u * a_du + (!TRANS && S::BM >= NG_SK_THREADS ? ng_i64(ma.c(u) - ma.c0) + ng_i64(ma.kk(u) - ma.kk0) * lda : 0);
            va[u] = i0 + ma.c(u) < m && ma.kk(u) < kv ? *p : T(0);
        }
        if (nf == 0) {
#pragma unroll
            for (int u = 0; u < S::PB; ++u) vb[u] = mb.c(u) < n && mb.kk(u) < kv ? b_at[u * b_du] : T(0);
            return;
        }
        // B's row j = q*b_slice + k0 + kk0 (the same for all of this thread's elements) as the
        // Khatri-Rao product of the table's factors, multiplied in tensor_kr's order.
        ng_i64 rest = q * b_slice + k0 + mb.kk0;
#pragma unroll 1
        for (int f = 0; f < nf; ++f) {
            const T *uf = reinterpret_cast<const T *>(table.w[3 * f]);
            const ng_i64 ld = table.w[3 * f + 1];
            ng_i64 next, i;
            ng_divmod(rest, table.w[3 * f + 2], next, i);
            rest = next;
#pragma unroll
            for (int u = 0; u < S::PB; ++u) {
                const T x = mb.c(u) < n && mb.kk0 < kv ? uf[i + mb.c(u) * ld] : T(0);
                vb[u] = f == 0 ? x : vb[u] * x;
            }
        }
    };
    if (stages > 0) load(0);
    for (ng_i64 s = 0; s < stages; ++s) {
        __syncthreads();
#pragma unroll
        for (int u = 0; u < S::PA; ++u) sa[ma.kk(u) * S::LA + ma.c(u)] = va[u];
#pragma unroll
        for (int u = 0; u < S::PB; ++u)
            if (mb.c(u) < NC) sb[mb.kk(u) * S::LB + mb.c(u)] = vb[u];
        __syncthreads();
        if (s + 1 < stages) load(s + 1);
#pragma unroll
        for (int kk = 0; kk < S::KC; ++kk) {
            T av[4], bv[4];
            ng_ld4(sa + kk * S::LA + 4 * ti, av);
            ng_ld4(sb + kk * S::LB + 4 * tc, bv);
#pragma unroll
            for (int x = 0; x < 4; ++x)
#pragma unroll
                for (int y = 0; y < 4; ++y) acc[x][y] += av[x] * bv[y];
        }
    }
    T *out = P + piece * pp;
#pragma unroll
    for (int x = 0; x < 4; ++x) {
        const ng_i64 row = i0 + 4 * ti + x;
#pragma unroll
        for (int y = 0; y < 4; ++y) {
            const int c = 4 * tc + y;
            if (row < m && c < n) out[row + c * ldp] = acc[x][y];
        }
    }
}

#define NG_SKINNY(NAME, NC, TRANS)                                                                                                                                                                    \
    extern "C" __global__ void __launch_bounds__(NG_SK_THREADS, 2) NG_KERNEL(NAME)(ng_i64 m, ng_i64 n, ng_i64 k, ng_i64 slices, const T *A, ng_i64 lda, ng_i64 a_slice, const T *B, ng_i64 ldb, ng_i64 b_slice, ng_i64 spp, ng_i64 per, ng_i64 len, T *P, ng_i64 ldp, ng_i64 pp, int nf, NgKrTable table) { \
        ng_skinny<NC, TRANS>(m, n, k, slices, A, lda, a_slice, B, ldb, b_slice, spp, per, len, P, ldp, pp, nf, table);                                                                                            \
    }
NG_SKINNY(tensor_skinny_n8, 8, false)
NG_SKINNY(tensor_skinny_n16, 16, false)
NG_SKINNY(tensor_skinny_n32, 32, false)
NG_SKINNY(tensor_skinny_n64, 64, false)
NG_SKINNY(tensor_skinny_t8, 8, true)
NG_SKINNY(tensor_skinny_t16, 16, true)
NG_SKINNY(tensor_skinny_t32, 32, true)
NG_SKINNY(tensor_skinny_t64, 64, true)

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
