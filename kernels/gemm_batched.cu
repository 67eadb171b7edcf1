// Batched GEMM, C_i = alpha * op(A_i) * op(B_i) + beta * C_i, column-major.
//
// Three kernels, one per size class, specialised by NVRTC at run time through -D defines
// (the host side, src/gemm_batched/cuda.rs, picks the class and the defines):
//   gemm_small_<T>  M, N, K <= 32 as compile-time constants. NB matrices per block; A and B
//                   stream through shared memory with coalesced flat loads, each thread keeps
//                   an RM x RN block of C in registers, and C is read and written in a
//                   coalesced flat pass through shared memory. Tiny matrices get many per
//                   block and one per thread, so loads stay wide and in flight.
//   gemm_tiled_<T>  any size: BM x BN tiles, BK deep, double-buffered shared memory with
//                   the next tile's loads in flight, an RM x RN register block per thread in
//                   groups of four; batch and tile on grid x.
//   gemm_scale_<T>  alpha == 0 or k == 0: C = beta * C (beta == 0: C = 0, C not read).
// Every thread computes its elements in the same order on every call: results are
// bitwise reproducible.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

// op = 0 (N), 1 (T), 2 (C: conjugate transpose)
template <typename T, int OP>
__device__ __forceinline__ T ng_op_value(T v) {
    return OP == 2 ? ng_conj(v) : v;
}

// One pass over the TOTAL elements of a block's chunk of an operand, `NT` threads wide:
// put(e, value) for each element index e. When `packed` is non-null the chunk is contiguous
// there, 16-byte aligned and a whole number of 16-byte vectors: the pass then moves 16 bytes
// per thread and load, which keeps enough bytes in flight for the memory system. Otherwise
// at(e) gives the element's address (nullptr: not part of the batch).
template <typename T, int TOTAL, int NT, typename At, typename Put>
__device__ __forceinline__ void ng_flat_load(const T *packed, int tid, At at, Put put) {
    constexpr int VEC = 16 / sizeof(T);
    if (packed) {
        const int4 *src = reinterpret_cast<const int4 *>(packed);
#pragma unroll 2
        for (int it = 0; it < (TOTAL / VEC + NT - 1) / NT; ++it) {
            const int v = it * NT + tid;
            if (v < TOTAL / VEC) {
                union { int4 raw; T t[VEC]; } u;
                u.raw = src[v];
#pragma unroll
                for (int q = 0; q < VEC; ++q) put(v * VEC + q, u.t[q]);
            }
        }
    } else {
#pragma unroll 4
        for (int it = 0; it < (TOTAL + NT - 1) / NT; ++it) {
            const int e = it * NT + tid;
            const T *p = e < TOTAL ? at(e) : nullptr;
            if (p) put(e, *p);
        }
    }
}

// Stages matrices first .. first+nmat-1 of an operand stored R x C (leading dimension ld)
// into shared memory with op applied: element (r, c) of matrix m goes to
// s[m*S + r*LS + c] when SWAP, else s[m*S + c*LS + r]. `packed`: the chunk may be read with
// 16-byte loads (see ng_flat_load).
template <typename T, int NB, int R, int C, int NT, int OP, bool SWAP, int S, int LS>
__device__ __forceinline__ void ng_stage_operand(ng_batch<const T> X, ng_i64 ld, bool packed, ng_i64 first, int nmat,
                                                 int tid, T *s) {
    ng_flat_load<T, NB * R * C, NT>(
        packed ? X.base + first * X.stride : nullptr, tid,
        [&](int e) -> const T * {
            const int m_ = e / (R * C), rem = e - m_ * (R * C), c = rem / R, r = rem - c * R;
            return m_ < nmat ? X.matrix(first + m_) + c * ld + r : nullptr;
        },
        [&](int e, T v) {
            const int m_ = e / (R * C), rem = e - m_ * (R * C), c = rem / R, r = rem - c * R;
            v = ng_op_value<T, OP>(v);
            if (SWAP) s[m_ * S + r * LS + c] = v; else s[m_ * S + c * LS + r] = v;
        });
}

// Bit i of `packed` (host-computed): operand i (A = 1, B = 2, C = 4) is strided with
// ld = rows, stride = rows * cols, 16-byte aligned, and NB matrices are whole 16-byte vectors.
template <typename T, int M, int N, int K, int TA, int TB, int NB, int TI, int TJ>
__device__ __forceinline__ void gemm_small(T alpha, ng_batch<const T> A, ng_i64 lda, ng_batch<const T> B, ng_i64 ldb,
                                           T beta, ng_batch<T> C, ng_i64 ldc, ng_i64 batch, int packed) {
    constexpr int RM = (M + TI - 1) / TI, RN = (N + TJ - 1) / TJ;
    constexpr int TPM = TI * TJ, NT = NB * TPM;
    constexpr int VEC = 16 / sizeof(T);
    // op(A) as [kk][i], op(B) as [kk][j], C as [j][i]; odd row lengths keep the transposing
    // shared-memory stores free of bank conflicts.
    constexpr int LSA = M | 1, LSB = N | 1, LSC = M | 1;
    constexpr int SA = K * LSA, SB = K * LSB, SC = N * LSC;
    constexpr int AR = TA ? K : M, AC = TA ? M : K;  // A as stored
    constexpr int BR = TB ? N : K, BC = TB ? K : N;  // B as stored
    extern __shared__ double2 ng_smem_raw[];
    T *sA = reinterpret_cast<T *>(ng_smem_raw);
    T *sB = sA + NB * SA;
    T *sC = sA;  // reuses A's and B's space once the products are in registers
    const int tid = threadIdx.x;
    const int mat = tid / TPM, loc = tid - mat * TPM;
    const int ti = loc % TI, tj = loc / TI;
    const bool beta_zero = ng_is_zero(beta);
    const ng_i64 nblocks = (batch + NB - 1) / NB;

    for (ng_i64 blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
        const ng_i64 first = blk * NB;
        const int nmat = (int)min((ng_i64)NB, batch - first);
        const bool whole = nmat == NB;

        // op(A) as [kk][i]: A(r, c) goes to row c, column r unless transposed.
        ng_stage_operand<T, NB, AR, AC, NT, TA, TA != 0, SA, LSA>(A, lda, (packed & 1) && whole, first, nmat, tid, sA);
        // op(B) as [kk][j]: B(r, c) goes to row r, column c unless transposed.
        ng_stage_operand<T, NB, BR, BC, NT, TB, TB == 0, SB, LSB>(B, ldb, (packed & 2) && whole, first, nmat, tid, sB);
        __syncthreads();

        T acc[RM][RN];
#pragma unroll
        for (int r = 0; r < RM; ++r)
#pragma unroll
            for (int c = 0; c < RN; ++c) acc[r][c] = ng_zero<T>();
        if (mat < nmat) {
            const T *a = sA + mat * SA;
            const T *b = sB + mat * SB;
#pragma unroll 8
            for (int kk = 0; kk < K; ++kk) {
                T av[RM], bv[RN];
#pragma unroll
                for (int r = 0; r < RM; ++r) av[r] = (ti + r * TI < M) ? a[kk * LSA + ti + r * TI] : ng_zero<T>();
#pragma unroll
                for (int c = 0; c < RN; ++c) bv[c] = (tj + c * TJ < N) ? b[kk * LSB + tj + c * TJ] : ng_zero<T>();
#pragma unroll
                for (int r = 0; r < RM; ++r)
#pragma unroll
                    for (int c = 0; c < RN; ++c) acc[r][c] = ng_fma(av[r], bv[c], acc[r][c]);
            }
        }
        __syncthreads();
        if (mat < nmat) {
#pragma unroll
            for (int r = 0; r < RM; ++r)
#pragma unroll
                for (int c = 0; c < RN; ++c)
                    if (ti + r * TI < M && tj + c * TJ < N)
                        sC[mat * SC + (tj + c * TJ) * LSC + ti + r * TI] = ng_mul(alpha, acc[r][c]);
        }
        __syncthreads();
        if ((packed & 4) && whole) {
            int4 *dst = reinterpret_cast<int4 *>(C.base + first * C.stride);
#pragma unroll 2
            for (int it = 0; it < (NB * M * N / VEC + NT - 1) / NT; ++it) {
                const int v = it * NT + tid;
                if (v < NB * M * N / VEC) {
                    union { int4 raw; T t[VEC]; } u;
                    if (!beta_zero) u.raw = dst[v];
#pragma unroll
                    for (int q = 0; q < VEC; ++q) {
                        const int e = v * VEC + q;
                        const int m_ = e / (M * N), rem = e - m_ * (M * N), j = rem / M, i = rem - j * M;
                        const T x = sC[m_ * SC + j * LSC + i];
                        u.t[q] = beta_zero ? x : ng_fma(beta, u.t[q], x);
                    }
                    dst[v] = u.raw;
                }
            }
        } else {
#pragma unroll 4
            for (int it = 0; it < (NB * M * N + NT - 1) / NT; ++it) {
                const int e = it * NT + tid;
                const int m_ = e / (M * N), rem = e - m_ * (M * N), j = rem / M, i = rem - j * M;
                if (e < NB * M * N && m_ < nmat) {
                    T *cp = C.matrix(first + m_) + j * ldc + i;
                    const T x = sC[m_ * SC + j * LSC + i];
                    *cp = beta_zero ? x : ng_fma(beta, *cp, x);
                }
            }
        }
        __syncthreads();  // sC is overwritten by the next block's loads
    }
}

// G consecutive elements of shared memory: one LDS.128 for four floats.
template <typename T, int G>
__device__ __forceinline__ void ng_ldg(const T *p, T *out) {
    if constexpr (G == 4 && sizeof(T) == 4) {
        const float4 v = *reinterpret_cast<const float4 *>(p);
        out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
    } else {
#pragma unroll
        for (int q = 0; q < G; ++q) out[q] = p[q];
    }
}

// Thread (ti, tj) owns rows ti*G + g*TI*G + {0..G-1} (g < RM/G) and likewise columns. For
// float, G = 4: each k step reads op(A) and op(B) from shared memory 16 bytes at a time; for
// wider types G = 1 (rows ti + g*TI), where groups would cause bank conflicts. Shared memory is double-buffered (one barrier per k step)
// and the next tile's global loads are in flight during the current tile's products.
template <typename T, int TA, int TB, int BM, int BN, int BK, int TI, int TJ>
__device__ __forceinline__ void gemm_tiled(ng_i64 M, ng_i64 N, ng_i64 K, T alpha, ng_batch<const T> A, ng_i64 lda,
                                           ng_batch<const T> B, ng_i64 ldb, T beta, ng_batch<T> C, ng_i64 ldc,
                                           ng_i64 batch) {
    constexpr int RM = BM / TI, RN = BN / TJ, NT = TI * TJ;
    constexpr int G = sizeof(T) == 4 ? 4 : 1;
    static_assert(RM % G == 0 && RN % G == 0, "register blocks are whole groups");
    constexpr int LA = (BM * BK + NT - 1) / NT, LB = (BN * BK + NT - 1) / NT;
    // Rows padded by 16 bytes: the transposing stores (op = N for B, T/C for A) then hit
    // distinct banks, and rows stay 16-byte aligned for the grouped loads.
    constexpr int PAD = 16 / sizeof(T) > 0 ? 16 / sizeof(T) : 1;
    __shared__ __align__(16) T sA[2][BK][BM + PAD];
    __shared__ __align__(16) T sB[2][BK][BN + PAD];
    const int tid = threadIdx.x, ti = tid % TI, tj = tid / TI;
    const ng_i64 tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const ng_i64 nblocks = tiles_m * tiles_n * batch;
    const bool beta_zero = ng_is_zero(beta);

    for (ng_i64 blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
        const ng_i64 mat = blk / (tiles_m * tiles_n), t = blk - mat * (tiles_m * tiles_n);
        const ng_i64 i0 = (t % tiles_m) * BM, j0 = (t / tiles_m) * BN;
        const T *a = A.matrix(mat);
        const T *b = B.matrix(mat);
        T pa[LA], pb[LB];
        // Tile k0 of op(A) (BM x BK) and op(B) (BK x BN) into registers, read along the stored
        // matrices' columns (coalesced); zero outside the matrices.
        auto load = [&](ng_i64 k0) {
#pragma unroll
            for (int l = 0; l < LA; ++l) {
                const int e = l * NT + tid;
                const int r = TA ? e % BK : e % BM, c = TA ? e / BK : e / BM;
                const ng_i64 i = i0 + (TA ? c : r), kk = k0 + (TA ? r : c);
                pa[l] = (e < BM * BK && i < M && kk < K) ? ng_op_value<T, TA>(TA ? a[i * lda + kk] : a[kk * lda + i]) : ng_zero<T>();
            }
#pragma unroll
            for (int l = 0; l < LB; ++l) {
                const int e = l * NT + tid;
                const int r = TB ? e % BN : e % BK, c = TB ? e / BN : e / BK;
                const ng_i64 j = j0 + (TB ? r : c), kk = k0 + (TB ? c : r);
                pb[l] = (e < BN * BK && j < N && kk < K) ? ng_op_value<T, TB>(TB ? b[kk * ldb + j] : b[j * ldb + kk]) : ng_zero<T>();
            }
        };
        auto store = [&](int buf) {
#pragma unroll
            for (int l = 0; l < LA; ++l) {
                const int e = l * NT + tid;
                const int r = TA ? e % BK : e % BM, c = TA ? e / BK : e / BM;
                if (e < BM * BK) sA[buf][TA ? r : c][TA ? c : r] = pa[l];
            }
#pragma unroll
            for (int l = 0; l < LB; ++l) {
                const int e = l * NT + tid;
                const int r = TB ? e % BN : e % BK, c = TB ? e / BN : e / BK;
                if (e < BN * BK) sB[buf][TB ? c : r][TB ? r : c] = pb[l];
            }
        };

        T acc[RM][RN];
#pragma unroll
        for (int r = 0; r < RM; ++r)
#pragma unroll
            for (int c = 0; c < RN; ++c) acc[r][c] = ng_zero<T>();
        load(0);
        store(0);
        __syncthreads();
        int buf = 0;
        for (ng_i64 k0 = 0; k0 < K; k0 += BK) {
            const bool more = k0 + BK < K;
            if (more) load(k0 + BK);
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                T av[RM], bv[RN];
#pragma unroll
                for (int g = 0; g < RM / G; ++g) ng_ldg<T, G>(&sA[buf][kk][ti * G + g * TI * G], &av[g * G]);
#pragma unroll
                for (int h = 0; h < RN / G; ++h) ng_ldg<T, G>(&sB[buf][kk][tj * G + h * TJ * G], &bv[h * G]);
#pragma unroll
                for (int r = 0; r < RM; ++r)
#pragma unroll
                    for (int c = 0; c < RN; ++c) acc[r][c] = ng_fma(av[r], bv[c], acc[r][c]);
            }
            if (more) store(buf ^ 1);
            __syncthreads();
            buf ^= 1;
        }
        T *cm = C.matrix(mat);
#pragma unroll
        for (int c = 0; c < RN; ++c) {
#pragma unroll
            for (int r = 0; r < RM; ++r) {
                const ng_i64 i = i0 + ti * G + (r / G) * TI * G + r % G, j = j0 + tj * G + (c / G) * TJ * G + c % G;
                if (i < M && j < N) {
                    T *cp = cm + j * ldc + i;
                    const T v = ng_mul(alpha, acc[r][c]);
                    *cp = beta_zero ? v : ng_fma(beta, *cp, v);
                }
            }
        }
    }
}

template <typename T>
__device__ __forceinline__ void gemm_scale(ng_i64 M, ng_i64 N, T beta, ng_batch<T> C, ng_i64 ldc, ng_i64 batch) {
    const ng_i64 total = M * N * batch;
    const bool beta_zero = ng_is_zero(beta);
    for (ng_i64 e = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 mat = e / (M * N), rem = e - mat * (M * N), j = rem / M, i = rem - j * M;
        T *cp = C.matrix(mat) + j * ldc + i;
        *cp = beta_zero ? ng_zero<T>() : ng_mul(beta, *cp);
    }
}

#if defined(NG_SMALL)
// NG_MINB blocks per SM caps registers (64 a thread) so that enough threads fit on an SM.
extern "C" __global__ void __launch_bounds__(NG_NB * NG_TI * NG_TJ, NG_MINB)
NG_CAT(gemm_small_, NG_SUFFIX)(NG_T alpha, ng_batch<const NG_T> A, ng_i64 lda, ng_batch<const NG_T> B, ng_i64 ldb,
                               NG_T beta, ng_batch<NG_T> C, ng_i64 ldc, ng_i64 batch, int packed) {
    gemm_small<NG_T, NG_M, NG_N, NG_K, NG_TA, NG_TB, NG_NB, NG_TI, NG_TJ>(alpha, A, lda, B, ldb, beta, C, ldc, batch, packed);
}
#elif defined(NG_TILED)
// NG_MINB blocks per SM (registers capped at 128) so one block's barriers do not idle the SM.
extern "C" __global__ void __launch_bounds__(NG_TI * NG_TJ, NG_MINB)
NG_CAT(gemm_tiled_, NG_SUFFIX)(ng_i64 M, ng_i64 N, ng_i64 K, NG_T alpha, ng_batch<const NG_T> A, ng_i64 lda,
                               ng_batch<const NG_T> B, ng_i64 ldb, NG_T beta, ng_batch<NG_T> C, ng_i64 ldc, ng_i64 batch) {
    gemm_tiled<NG_T, NG_TA, NG_TB, NG_BM, NG_BN, NG_BK, NG_TI, NG_TJ>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, batch);
}
#elif defined(NG_SCALE)
extern "C" __global__ void NG_CAT(gemm_scale_, NG_SUFFIX)(ng_i64 M, ng_i64 N, NG_T beta, ng_batch<NG_T> C, ng_i64 ldc,
                                                          ng_i64 batch) {
    gemm_scale<NG_T>(M, N, beta, C, ldc, batch);
}
#endif
