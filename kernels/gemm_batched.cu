// Batched GEMM, C_i = alpha * op(A_i) * op(B_i) + beta * C_i, column-major.
//
// Three kernels, one per size class, specialised by NVRTC at run time through -D defines
// (the host side, src/gemm_batched/cuda.rs, picks the class and the defines):
//   gemm_small_<T>  M, N, K <= 32 as compile-time constants. NB matrices per block and group,
//                   blocks looping over groups; A and B go to shared memory in coalesced
//                   passes (16-byte vectors between the 16-byte boundaries of a strided group's
//                   one run, else of each contiguous matrix, pointer arrays included),
//                   directly or (sm_80, complex double up to 16 x 16) through ST raw stages
//                   filled by cp.async, the next group's copies in flight while this one is computed;
//                   each thread keeps an RM x RN block of C in registers, and C is read and
//                   written in a coalesced flat pass through shared memory.
//   gemm_tiled_<T>  any size, for what no other class takes (m or n <= 32 with k > 32 or the
//                   other > 32, and every type before sm_80): BM x BN tiles, BK deep,
//                   double-buffered shared memory with the next tile's loads in flight, an
//                   RM x RN register block per thread in groups of four; batch and tile on
//                   grid x.
//   gemm_simt_<T>   float and complex float in exact FP32 (the default math mode), M and N > 32,
//                   sm_80 and later: BM x BN tiles, BK deep, in ST stages of shared memory
//                   filled by cp.async (16-byte copies where the host found the operand
//                   aligned), both operands [k][x] so that a thread's TM x TN register block
//                   reads 16 bytes of A and of B a load; FMA units only.
//   gemm_mma_f64    double, M and N > 32, sm_80 and later: the FP64 tensor cores
//                   (mma.sync m16n8k8 on sm_90, m8n8k4 before). 32 x 32 of C per warp, WM x WN warps per block, BK
//                   deep, ST stages of shared memory filled by cp.async ahead of the tile
//                   being multiplied.
//   gemm_tf32_<T>   float and complex float under the handle's TF32 math modes (3xTF32 or
//                   plain TF32), M and N > 32, sm_80 and later: mma.sync m16n8k8 TF32 with
//                   gemm_mma's warp tiling and cp.async pipeline.
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

// Every element of a register block set to zero.
template <typename T, int R, int C>
__device__ __forceinline__ void ng_zero_all(T (&a)[R][C]) {
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int c = 0; c < C; ++c) a[r][c] = ng_zero<T>();
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
        ng_zero_all(acc);
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

// The FP64 tensor cores. A warp owns a WR x (8·NJ) block of C, WR·NJ/4 accumulators per lane
// and per real plane: on sm_90 as WR/16 x NJ products of shape m16n8k8 (the shape Hopper runs
// at full rate), before as WR/8 x NJ of m8n8k4. NG_MMA_K is the k depth of one step. A complex
// product takes four real ones (re·re − im·im, re·im + im·re), conjugates by signs.
#if __CUDA_ARCH__ >= 900
#define NG_MMA_K 8
#else
#define NG_MMA_K 4
#endif

// Row and column, within the warp's block, of accumulator e of lane (g = lane/4, t = lane%4)
// in a block NJ tiles of 8 wide (the tiles row by row), for steps KS deep: m16n8k8 (KS 8; the
// TF32 kernel's too) or m8n8k4 (KS 4).
template <int NJ, int KS = NG_MMA_K>
__device__ __forceinline__ void ng_mma_acc_at(int e, int g, int t, int &row, int &col) {
    if constexpr (KS == 8) {
        const int tile = e / 4, q = e % 4;  // tile = mi·NJ + nj: rows 16·mi, columns 8·nj
        row = (tile / NJ) * 16 + g + (q >= 2 ? 8 : 0);
        col = (tile % NJ) * 8 + 2 * t + (q & 1);
    } else {
        const int tile = e / 2, q = e % 2;  // tile = r·NJ + c: rows 8·r, columns 8·c
        row = (tile / NJ) * 8 + g;
        col = (tile % NJ) * 8 + 2 * t + q;
    }
}

// d += a·b on one tile: sm_90 m16n8k8 (a 4, b 2, d 4 values a lane), else m8n8k4 (1, 1, 2).
__device__ __forceinline__ void ng_mma(double *d, const double *a, const double *b) {
#if __CUDA_ARCH__ >= 900
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#elif __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+d"(d[0]), "+d"(d[1])
                 : "d"(a[0]), "d"(b[0]));
#endif
}

// Values a lane holds per tile of A, of B, and of C (per real plane).
#if NG_MMA_K == 8
#define NG_MMA_FA 4
#define NG_MMA_FB 2
#define NG_MMA_FC 4
#define NG_MMA_ROWS 16
#else
#define NG_MMA_FA 1
#define NG_MMA_FB 1
#define NG_MMA_FC 2
#define NG_MMA_ROWS 8
#endif

// Fragment value v of the lane's share of A's tile mi (rows 16·mi or 8·mi) and B's tile nj,
// as (k, x) within a step KS deep (as ng_mma_acc_at; B's map is the same for both shapes).
template <int KS = NG_MMA_K>
__device__ __forceinline__ void ng_mma_a_at(int v, int mi, int g, int t, int &k, int &x) {
    if constexpr (KS == 8) {
        k = t + (v >= 2 ? 4 : 0);
        x = mi * 16 + g + (v & 1 ? 8 : 0);
    } else {
        k = t;
        x = mi * 8 + g;
    }
}
__device__ __forceinline__ void ng_mma_b_at(int v, int nj, int g, int t, int &k, int &x) {
    k = t + (v ? 4 : 0);
    x = nj * 8 + g;
}

// put(i, v, a(k, x)) for every fragment value v (of FA) of the lane's share of A's tiles
// mi0 + i (i < MI), in a step KS deep; ng_frags_b likewise for B's tiles (FB values each).
template <int KS, int MI, int FA, typename At, typename Put>
__device__ __forceinline__ void ng_frags_a(int g, int t, At a, Put put, int mi0 = 0) {
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int v = 0; v < FA; ++v) {
            int k, x;
            ng_mma_a_at<KS>(v, mi0 + i, g, t, k, x);
            put(i, v, a(k, x));
        }
}
template <int NJ, int FB, typename Bt, typename Put>
__device__ __forceinline__ void ng_frags_b(int g, int t, Bt b, Put put) {
#pragma unroll
    for (int nj = 0; nj < NJ; ++nj)
#pragma unroll
        for (int v = 0; v < FB; ++v) {
            int k, x;
            ng_mma_b_at(v, nj, g, t, k, x);
            put(nj, v, b(k, x));
        }
}

// acc (P planes of WR·NJ/4) += the warp's block of op(A)·op(B) over one step of NG_MMA_K, the
// operands' tiles read through a(k, i) and b(k, j) (i, j within the warp's block), which give
// double, or ng_complex<double> with the conjugation applied.
template <int WR, int NJ, typename At, typename Bt>
__device__ __forceinline__ void ng_mma_step(double (&acc)[WR * NJ / 4], int g, int t, At a, Bt b) {
    constexpr int MI = WR / NG_MMA_ROWS;
    double af[MI][NG_MMA_FA], bf[NJ][NG_MMA_FB];
    ng_frags_a<NG_MMA_K, MI, NG_MMA_FA>(g, t, a, [&](int mi, int v, double z) { af[mi][v] = z; });
    ng_frags_b<NJ, NG_MMA_FB>(g, t, b, [&](int nj, int v, double z) { bf[nj][v] = z; });
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int nj = 0; nj < NJ; ++nj) ng_mma(&acc[(mi * NJ + nj) * NG_MMA_FC], af[mi], bf[nj]);
}

template <int WR, int NJ, typename At, typename Bt>
__device__ __forceinline__ void ng_mma_step(double (&re)[WR * NJ / 4], double (&im)[WR * NJ / 4], int g, int t, At a, Bt b) {
    constexpr int MI = WR / NG_MMA_ROWS;
    double ar[MI][NG_MMA_FA], ai[MI][NG_MMA_FA], an[MI][NG_MMA_FA], br[NJ][NG_MMA_FB], bi[NJ][NG_MMA_FB];
    ng_frags_a<NG_MMA_K, MI, NG_MMA_FA>(g, t, a, [&](int mi, int v, ng_complex<double> z) {
        ar[mi][v] = z.re;
        ai[mi][v] = z.im;
        an[mi][v] = -z.im;
    });
    ng_frags_b<NJ, NG_MMA_FB>(g, t, b, [&](int nj, int v, ng_complex<double> z) {
        br[nj][v] = z.re;
        bi[nj][v] = z.im;
    });
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int nj = 0; nj < NJ; ++nj) {
            const int o = (mi * NJ + nj) * NG_MMA_FC;
            ng_mma(&re[o], ar[mi], br[nj]);
            ng_mma(&re[o], an[mi], bi[nj]);
            ng_mma(&im[o], ar[mi], bi[nj]);
            ng_mma(&im[o], ai[mi], br[nj]);
        }
}

// An 8-byte asynchronous copy from global to shared memory (sm_80): `src` is read when `in`,
// else the slot is zero-filled (src is then any valid address and is not read).
__device__ __forceinline__ void ng_cp_async8(double *dst, const double *src, bool in) {
#if __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(d), "l"(src), "r"(in ? 8 : 0) : "memory");
#endif
}

__device__ __forceinline__ void ng_cp_async_commit() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Waits until at most N of this thread's commit groups are in flight.
template <int N>
__device__ __forceinline__ void ng_cp_async_wait() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

// The k loop of the cp.async classes over `ktiles` tiles in ST stages of shared memory: tiles
// 0 … ST − 2 issued ahead; then for each tile kt, once it has landed for every thread and
// every thread is done with tile kt − 1 (a barrier), tile kt + ST − 1 is issued into the stage
// tile kt − 1 used, and body(stage of kt) multiplies tile kt meanwhile. issue(kt, stage) must
// commit one group whether or not tile kt exists. Ends with every copy landed and a barrier,
// so that the stages can be refilled for the next block's tiles.
template <int ST, typename I, typename Issue, typename Body>
__device__ __forceinline__ void ng_cp_async_pipeline(I ktiles, Issue issue, Body body) {
#pragma unroll
    for (int st = 0; st < ST - 1; ++st) issue(st, st);
    int cur = 0;  // the stage of tile kt
    for (I kt = 0; kt < ktiles; ++kt) {
        ng_cp_async_wait<ST - 2>();
        __syncthreads();
        issue(kt + ST - 1, cur == 0 ? ST - 1 : cur - 1);
        body(cur);
        cur = cur == ST - 1 ? 0 : cur + 1;
    }
    ng_cp_async_wait<0>();
    __syncthreads();
}

// Shared-memory slot (in elements of W doubles) of element (k, x) of an operand tile (x: A's
// row i or B's column j), BK deep and BX wide. An operand stored with x contiguous (A with op
// N, B with op T) is kept [k][x], else [x][k], so that both the coalesced stores from global
// memory and the fragment loads (lanes k = lane%4, x = lane/4; 8 bytes a lane for double, 16
// for complex) hit distinct banks: [k][x] rows are padded by 4 doubles (2 complex), [x][k]
// rows by 4 elements.
template <bool XFAST, int BK, int BX, int W>
__device__ __forceinline__ int ng_mma_slot(int k, int x) {
    return XFAST ? k * (BX + 4 / W) + x : x * (BK + 4) + k;
}

template <bool XFAST, int BK, int BX, int W>
__host__ __device__ constexpr int ng_mma_tile_elems() {
    return XFAST ? BK * (BX + 4 / W) : BX * (BK + 4);
}

// How one thread copies its share of an operand's BX-wide, BK-deep tiles (see gemm_mma) of
// elements of W doubles: its first element (k, x), the distance between its copies, and the
// operand's extent.
struct ng_tile_walk {
    int k, x;       // the first copy's element of the tile
    ng_i64 offset;  // its offset from the matrix at tile k0 = 0, in elements
    ng_i64 step;    // elements between consecutive copies
    ng_i64 kstep;   // elements between tile k0 and k0 + 1 (per unit of k0)
    ng_i64 x0, X;   // the tile's first x and the operand's extent in x

    template <bool XFAST, int BX, int BK, int NT>
    __device__ static ng_tile_walk make(int tid, ng_i64 ld, ng_i64 x0, ng_i64 X) {
        static_assert(NT % BX == 0 && NT % BK == 0, "copies on a fixed step");
        ng_tile_walk w;
        w.k = XFAST ? tid / BX : tid % BK;
        w.x = XFAST ? tid % BX : tid / BK;
        w.offset = XFAST ? w.k * ld + x0 + w.x : (x0 + w.x) * ld + w.k;
        w.step = XFAST ? (ng_i64)(NT / BX) * ld : (ng_i64)(NT / BK) * ld;
        w.kstep = XFAST ? ld : 1;
        w.x0 = x0;
        w.X = X;
        return w;
    }

    // Issues the L copies of tile k0 of matrix m (K deep) into the tile at s, 8 bytes at a
    // time (complex elements need only 8-byte alignment).
    template <bool XFAST, int BX, int BK, int NT, int L, int W>
    __device__ __forceinline__ void copy(const double *m, ng_i64 k0, ng_i64 K, double *s) const {
        const double *p = m + (offset + k0 * kstep) * W;
#pragma unroll
        for (int l = 0; l < L; ++l) {
            const int kl = XFAST ? k + l * (NT / BX) : k, xl = XFAST ? x : x + l * (NT / BK);
            const bool in = k0 + kl < K && x0 + xl < X;
            double *d = s + ng_mma_slot<XFAST, BK, BX, W>(kl, xl) * W;
#pragma unroll
            for (int w = 0; w < W; ++w) ng_cp_async8(d + w, in ? p + l * step * W + w : m, in);
        }
    }
};

// op(X)'s element as the product wants it: conjugated for op C.
template <int OP>
__device__ __forceinline__ double ng_mma_op(double v) { return v; }
template <int OP>
__device__ __forceinline__ ng_complex<double> ng_mma_op(ng_complex<double> v) { return OP == 2 ? ng_conj(v) : v; }

// T = double (W = 1 double an element, warps WR x 32 of C: NJ = 4) or ng_complex<double>
// (W = 2, two accumulator planes, warps WR x 16: NJ = 2, the same registers).
// C = alpha·acc + beta·C over one warp's block of the tensor-core kernels: acc holds P planes
// (real; complex re, im) of NACC accumulators, at(e, r, c) gives accumulator e's row and
// column within the block at (i0, j0). C's old values are loaded CH at a time before that
// chunk's stores: a load after a store through the same pointer would wait for it (possible
// aliasing).
template <typename T, int CH, typename R, int P, int NACC, typename At>
__device__ __forceinline__ void ng_tile_epilogue(T *cm, ng_i64 ldc, ng_i64 M, ng_i64 N, ng_i64 i0, ng_i64 j0, T alpha, T beta,
                                                 const R (&acc)[P][NACC], At at) {
    const bool beta_zero = ng_is_zero(beta);
#pragma unroll
    for (int e0 = 0; e0 < NACC; e0 += CH) {
        T old[CH];
#pragma unroll
        for (int q = 0; q < CH; ++q) {
            int r, c;
            at(e0 + q, r, c);
            const ng_i64 i = i0 + r, j = j0 + c;
            old[q] = !beta_zero && i < M && j < N ? cm[j * ldc + i] : ng_zero<T>();
        }
#pragma unroll
        for (int q = 0; q < CH; ++q) {
            const int e = e0 + q;
            int r, c;
            at(e, r, c);
            const ng_i64 i = i0 + r, j = j0 + c;
            if (i < M && j < N) {
                T x;
                if constexpr (P == 1) {
                    x = acc[0][e];
                } else {
                    x = ng_complex<R>{acc[0][e], acc[P - 1][e]};
                }
                const T v = ng_mul(alpha, x);
                cm[j * ldc + i] = beta_zero ? v : ng_fma(beta, old[q], v);
            }
        }
    }
}

template <typename T, int TA, int TB, int WR, int WM, int WN, int BK, int ST>
__device__ __forceinline__ void gemm_mma(ng_i64 M, ng_i64 N, ng_i64 K, T alpha, ng_batch<const T> A, ng_i64 lda,
                                         ng_batch<const T> B, ng_i64 ldb, T beta, ng_batch<T> C, ng_i64 ldc,
                                         ng_i64 batch) {
    constexpr int W = sizeof(T) / sizeof(double), P = W, NJ = 4 / W;
    constexpr int BM = WR * WM, BN = 8 * NJ * WN, NT = 32 * WM * WN, NACC = WR * NJ / 4;
    constexpr int LA = BM * BK / NT, LB = BN * BK / NT;
    static_assert(LA * NT == BM * BK && LB * NT == BN * BK && BK % 8 == 0 && ST >= 2, "whole tiles per thread");
    constexpr bool AX = TA == 0, BX = TB != 0;  // x-contiguous operands
    constexpr int SA = ng_mma_tile_elems<AX, BK, BM, W>() * W, SB = ng_mma_tile_elems<BX, BK, BN, W>() * W;
    // ST stages of A's and B's tiles, in doubles (src/gemm_batched/cuda.rs sizes it: mma_smem).
    extern __shared__ __align__(16) double ng_mma_smem[];
    double *const sA = ng_mma_smem, *const sB = ng_mma_smem + ST * SA;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int wi = (warp % WM) * WR, wj = (warp / WM) * 8 * NJ, fx = lane / 4, fk = lane % 4;
    const ng_i64 tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const ng_i64 nblocks = tiles_m * tiles_n * batch;
    const ng_i64 ktiles = (K + BK - 1) / BK;

    for (ng_i64 blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
        const ng_i64 mat = blk / (tiles_m * tiles_n), t = blk - mat * (tiles_m * tiles_n);
        const ng_i64 i0 = (t % tiles_m) * BM, j0 = (t / tiles_m) * BN;
        const double *a = reinterpret_cast<const double *>(A.matrix(mat));
        const double *b = reinterpret_cast<const double *>(B.matrix(mat));
        // Copy l of a thread takes element e = l·NT + tid of each tile, walked along the stored
        // matrix's columns (coalesced): an x-contiguous operand's (k, x) = (l·NT/BX + tid/BX,
        // tid % BX), another's (tid % BK, l·NT/BK + tid/BK). So each copy is a fixed step
        // from the thread's first, and the tiles advance by a fixed step along k.
        const ng_tile_walk wa = ng_tile_walk::make<AX, BM, BK, NT>(tid, lda, i0, M);
        const ng_tile_walk wb = ng_tile_walk::make<BX, BN, BK, NT>(tid, ldb, j0, N);
        // Copies tile kt of op(A) (BM x BK) and op(B) (BK x BN), when there is one, into
        // stage `st` asynchronously, zeros outside the matrices; one commit group either way.
        auto issue = [&](ng_i64 kt, int st) {
            if (kt < ktiles) {
                wa.template copy<AX, BM, BK, NT, LA, W>(a, kt * BK, K, sA + st * SA);
                wb.template copy<BX, BN, BK, NT, LB, W>(b, kt * BK, K, sB + st * SB);
            }
            ng_cp_async_commit();
        };

        double acc[P][NACC];
        ng_zero_all(acc);
        ng_cp_async_pipeline<ST>(ktiles, issue, [&](int cur) {
            const T *ta = reinterpret_cast<const T *>(sA + cur * SA), *tb = reinterpret_cast<const T *>(sB + cur * SB);
#pragma unroll
            for (int kk = 0; kk < BK; kk += NG_MMA_K) {
                auto at = [&](int k, int i) { return ng_mma_op<TA>(ta[ng_mma_slot<AX, BK, BM, W>(kk + k, wi + i)]); };
                auto bt = [&](int k, int j) { return ng_mma_op<TB>(tb[ng_mma_slot<BX, BK, BN, W>(kk + k, wj + j)]); };
                if constexpr (P == 1) {
                    ng_mma_step<WR, NJ>(acc[0], fx, fk, at, bt);
                } else {
                    ng_mma_step<WR, NJ>(acc[0], acc[P - 1], fx, fk, at, bt);
                }
            }
        });
        // Double's chunks are half the accumulators, to stay within the registers.
        ng_tile_epilogue<T, P == 1 ? NACC / 2 : NACC>(C.matrix(mat), ldc, M, N, i0 + wi, j0 + wj, alpha, beta, acc,
                                                      [&](int e, int &r, int &c) { ng_mma_acc_at<NJ>(e, fx, fk, r, c); });
    }
}

// ---------------------------------------------------------------------------------------------
// The TF32 tensor cores for float and complex float, behind the handle's math mode
// (numgpu_set_math_mode; src/core/math_mode.rs states the error bounds).
//
// MODE 1 (3xTF32): each operand value x is split as x = big + small + e with
// big = rna_tf32(x), small = rna_tf32(x − big) (x − big is exact in FP32, and |e| <= 2^-22·|x|),
// and a·b is taken as small_a·big_b + big_a·small_b + big_a·big_b: the dropped small_a·small_b
// is at most 2^-22·|a||b|. MODE 2 (TF32): big_a·big_b only. TF32 products are exact in FP32;
// the accumulation is FP32 on the tensor cores.
//
// One step is mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (sm_80 and sm_90 alike). Its
// fragments (PTX ISA, "Matrix Fragments for mma.m16n8k8", .tf32), lane = 4·g + t
// (g = lane/4, t = lane%4), as (row, column) of the tile:
//   A, 16 x 8 (i x k), 4 registers:  a0 (g, t)   a1 (g+8, t)   a2 (g, t+4)   a3 (g+8, t+4)
//   B,  8 x 8 (k x j), 2 registers:  b0 (t, g)   b1 (t+4, g)
//   C, 16 x 8 (i x j), 4 floats:     c0 (g, 2t)  c1 (g, 2t+1)  c2 (g+8, 2t)  c3 (g+8, 2t+1)
// (the FP64 m16n8k8 maps: ng_mma_a_at<8>, ng_mma_b_at, ng_mma_acc_at<NJ, 8>).

// x rounded to the nearest TF32 value (10-bit mantissa, ties away from zero), as the .b32
// register the mma reads (its low 13 bits zero).
__device__ __forceinline__ unsigned ng_tf32_rna(float x) {
    unsigned r = __float_as_uint(x);
#if __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
#endif
    return r;
}

// x's split into big and small (MODE 1; small is 0 for MODE 2). A negated value's split is
// the negated split (rna is symmetric): ng_tf32_neg.
template <int MODE>
__device__ __forceinline__ void ng_tf32_split(float x, unsigned &big, unsigned &small) {
    big = ng_tf32_rna(x);
    small = MODE == 1 ? ng_tf32_rna(x - __uint_as_float(big)) : 0u;
}

__device__ __forceinline__ unsigned ng_tf32_neg(unsigned v) { return v ^ 0x80000000u; }

// d += a·b on one m16n8k8 tile (fragments as above).
__device__ __forceinline__ void ng_mma_tf32(float *d, const unsigned *a, const unsigned *b) {
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

// d += a·b (NEG: d −= a·b) of split fragments ([0] big, [1] small): MODE 1 the small terms
// first, then big·big; MODE 2 big·big alone. NEG flips a's signs on the way (exact).
template <int MODE, bool NEG = false>
__device__ __forceinline__ void ng_mma_tf32_split(float *d, const unsigned (&a)[2][4], const unsigned (&b)[2][2]) {
    auto mma = [&](const unsigned *x, const unsigned *y) {
        if constexpr (NEG) {
            const unsigned nx[4] = {ng_tf32_neg(x[0]), ng_tf32_neg(x[1]), ng_tf32_neg(x[2]), ng_tf32_neg(x[3])};
            ng_mma_tf32(d, nx, y);
        } else {
            ng_mma_tf32(d, x, y);
        }
    };
    if (MODE == 1) {
        mma(a[1], b[0]);
        mma(a[0], b[1]);
    }
    mma(a[0], b[0]);
}

// acc (MI·NJ tiles of 4) += the warp's block of op(A)·op(B) over one k8 step; a(k, i) and
// b(k, j) give op(A)(i, k) and op(B)(k, j) as floats. B's fragments are split once, A's one
// tile at a time (registers).
template <int MODE, int MI, int NJ, typename At, typename Bt>
__device__ __forceinline__ void ng_tf32_step(float (&acc)[MI * NJ * 4], int g, int t, At a, Bt b) {
    unsigned bf[NJ][2][2];
    ng_frags_b<NJ, 2>(g, t, b, [&](int nj, int v, float z) { ng_tf32_split<MODE>(z, bf[nj][0][v], bf[nj][1][v]); });
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
        unsigned af[2][4];
        ng_frags_a<8, 1, 4>(g, t, a, [&](int, int v, float z) { ng_tf32_split<MODE>(z, af[0][v], af[1][v]); }, mi);
#pragma unroll
        for (int nj = 0; nj < NJ; ++nj) ng_mma_tf32_split<MODE>(&acc[(mi * NJ + nj) * 4], af, bf[nj]);
    }
}

// Complex: re += ar·br − ai·bi, im += ar·bi + ai·br, four real products; a and b give
// ng_complex<float> with op's conjugation applied.
template <int MODE, int MI, int NJ, typename At, typename Bt>
__device__ __forceinline__ void ng_tf32_step(float (&re)[MI * NJ * 4], float (&im)[MI * NJ * 4], int g, int t, At a, Bt b) {
    unsigned br[NJ][2][2], bi[NJ][2][2];
    ng_frags_b<NJ, 2>(g, t, b, [&](int nj, int v, ng_complex<float> z) {
        ng_tf32_split<MODE>(z.re, br[nj][0][v], br[nj][1][v]);
        ng_tf32_split<MODE>(z.im, bi[nj][0][v], bi[nj][1][v]);
    });
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
        unsigned ar[2][4], ai[2][4];
        ng_frags_a<8, 1, 4>(g, t, a, [&](int, int v, ng_complex<float> z) {
            ng_tf32_split<MODE>(z.re, ar[0][v], ar[1][v]);
            ng_tf32_split<MODE>(z.im, ai[0][v], ai[1][v]);
        }, mi);
#pragma unroll
        for (int nj = 0; nj < NJ; ++nj) {
            const int o = (mi * NJ + nj) * 4;
            ng_mma_tf32_split<MODE>(&re[o], ar, br[nj]);
            ng_mma_tf32_split<MODE, true>(&re[o], ai, bi[nj]);
            ng_mma_tf32_split<MODE>(&im[o], ar, bi[nj]);
            ng_mma_tf32_split<MODE>(&im[o], ai, br[nj]);
        }
    }
}

// A 4-byte asynchronous copy from global to shared memory (sm_80): `src` is read when `in`,
// else the slot is zero-filled (src is then any valid address and is not read). Complex float
// takes two: its arrays need only 4-byte alignment (C's), which wider copies would not accept.
__device__ __forceinline__ void ng_cp_async4(float *dst, const float *src, bool in) {
#if __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(d), "l"(src), "r"(in ? 4 : 0) : "memory");
#endif
}

// Shared-memory slot (in elements of E bytes) of element (k, x) of an operand tile, BK deep and
// BX wide: [k][x] for an x-contiguous operand (A with op N, B with op T), rows padded by 32
// bytes, else [x][k], rows padded by 4 elements. The fragment loads (lanes k = t, x = g) then
// hit distinct banks: 4-byte elements as t·(BX + 8) + g and g·(BK + 4) + t (mod 32), 8-byte
// ones within each half-warp as t·(BX + 4) + g and g·(BK + 4) + t (mod 16), for BX a multiple
// of 32 (16) and BK of 8 (the host side sizes it: Plan::mma_smem).
template <bool XFAST, int BK, int BX, int E>
__host__ __device__ constexpr int ng_tf32_slot(int k, int x) {
    return XFAST ? k * (BX + 32 / E) + x : x * (BK + 4) + k;
}

template <bool XFAST, int BK, int BX, int E>
__host__ __device__ constexpr int ng_tf32_tile_elems() {
    return XFAST ? BK * (BX + 32 / E) : BX * (BK + 4);
}

// Issues the L copies of walk w's share of tile k0 of matrix m (K deep) into the tile at s,
// one element (its W floats) a copy (see ng_tile_walk, which gemm_mma walks the same way).
template <bool XFAST, int BX, int BK, int NT, int L, typename T>
__device__ __forceinline__ void ng_tf32_copy(const ng_tile_walk &w, const T *m, ng_i64 k0, ng_i64 K, T *s) {
    constexpr int W = sizeof(T) / sizeof(float);
    const float *p = reinterpret_cast<const float *>(m + w.offset + k0 * w.kstep);
#pragma unroll
    for (int l = 0; l < L; ++l) {
        const int kl = XFAST ? w.k + l * (NT / BX) : w.k, xl = XFAST ? w.x : w.x + l * (NT / BK);
        const bool in = k0 + kl < K && w.x0 + xl < w.X;
        float *d = reinterpret_cast<float *>(s + ng_tf32_slot<XFAST, BK, BX, (int)sizeof(T)>(kl, xl));
#pragma unroll
        for (int q = 0; q < W; ++q) ng_cp_async4(d + q, in ? p + l * w.step * W + q : reinterpret_cast<const float *>(m), in);
    }
}

// T = float (P = 1 accumulator plane) or ng_complex<float> (P = 2: re, im). WM x WN warps, each
// owning WR x WC of C (MI = WR/16 by NJ = WC/8 tiles of m16n8k8), tiles BK deep in ST stages of
// shared memory filled by cp.async ahead of the tile being multiplied (as gemm_mma). 3xTF32
// accumulates each k tile from zero on the tensor cores, then adds it to the running sums with
// one FP32 round-to-nearest add (fixed order): the tensor cores' truncating accumulation then
// never runs over more than BK products of one element, and errors of different tiles do not
// pile up in one direction.
template <typename T, int MODE, int TA, int TB, int WR, int WC, int WM, int WN, int BK, int ST>
__device__ __forceinline__ void gemm_tf32(ng_i64 M, ng_i64 N, ng_i64 K, T alpha, ng_batch<const T> A, ng_i64 lda,
                                          ng_batch<const T> B, ng_i64 ldb, T beta, ng_batch<T> C, ng_i64 ldc,
                                          ng_i64 batch) {
    constexpr int P = sizeof(T) / sizeof(float), MI = WR / 16, NJ = WC / 8, NACC = MI * NJ * 4;
    constexpr int BM = WR * WM, BN = WC * WN, NT = 32 * WM * WN;
    constexpr int LA = BM * BK / NT, LB = BN * BK / NT;
    static_assert(MODE == 1 || MODE == 2, "3xTF32 (1) or TF32 (2)");
    static_assert(WR % 16 == 0 && WC % 8 == 0 && BK % 8 == 0 && ST >= 2, "whole m16n8k8 tiles and k steps");
    static_assert(LA * NT == BM * BK && LB * NT == BN * BK, "whole tiles per thread");
    constexpr bool AX = TA == 0, BX = TB != 0;  // x-contiguous operands
    constexpr int E = sizeof(T);
    constexpr int SA = ng_tf32_tile_elems<AX, BK, BM, E>(), SB = ng_tf32_tile_elems<BX, BK, BN, E>();
    // ST stages of A's and B's tiles, in elements (src/gemm_batched/cuda.rs sizes it: mma_smem).
    extern __shared__ float4 ng_tf32_smem[];
    T *const sA = reinterpret_cast<T *>(ng_tf32_smem), *const sB = sA + ST * SA;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int wi = (warp % WM) * WR, wj = (warp / WM) * WC, fg = lane / 4, ft = lane % 4;
    const ng_i64 tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const ng_i64 nblocks = tiles_m * tiles_n * batch;
    const ng_i64 ktiles = (K + BK - 1) / BK;

    for (ng_i64 blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
        const ng_i64 mat = blk / (tiles_m * tiles_n), t = blk - mat * (tiles_m * tiles_n);
        const ng_i64 i0 = (t % tiles_m) * BM, j0 = (t / tiles_m) * BN;
        const T *a = A.matrix(mat);
        const T *b = B.matrix(mat);
        const ng_tile_walk wa = ng_tile_walk::make<AX, BM, BK, NT>(tid, lda, i0, M);
        const ng_tile_walk wb = ng_tile_walk::make<BX, BN, BK, NT>(tid, ldb, j0, N);
        // Copies tile kt of op(A) (BM x BK) and op(B) (BK x BN), when there is one, into stage
        // `st` asynchronously, zeros outside the matrices; one commit group either way.
        auto issue = [&](ng_i64 kt, int st) {
            if (kt < ktiles) {
                ng_tf32_copy<AX, BM, BK, NT, LA>(wa, a, kt * BK, K, sA + st * SA);
                ng_tf32_copy<BX, BN, BK, NT, LB>(wb, b, kt * BK, K, sB + st * SB);
            }
            ng_cp_async_commit();
        };

        float acc[P][NACC];
        ng_zero_all(acc);
        ng_cp_async_pipeline<ST>(ktiles, issue, [&](int cur) {
            const T *ta = sA + cur * SA, *tb = sB + cur * SB;
            // d += the tile's products.
            auto multiply = [&](float (&d)[P][NACC]) {
#pragma unroll
                for (int kk = 0; kk < BK; kk += 8) {
                    auto at = [&](int k, int i) { return ng_op_value<T, TA>(ta[ng_tf32_slot<AX, BK, BM, E>(kk + k, wi + i)]); };
                    auto bt = [&](int k, int j) { return ng_op_value<T, TB>(tb[ng_tf32_slot<BX, BK, BN, E>(kk + k, wj + j)]); };
                    if constexpr (P == 1) {
                        ng_tf32_step<MODE, MI, NJ>(d[0], fg, ft, at, bt);
                    } else {
                        ng_tf32_step<MODE, MI, NJ>(d[0], d[P - 1], fg, ft, at, bt);
                    }
                }
            };
            if constexpr (MODE == 1) {
                float part[P][NACC];
                ng_zero_all(part);
                multiply(part);
#pragma unroll
                for (int p = 0; p < P; ++p)
#pragma unroll
                    for (int e = 0; e < NACC; ++e) acc[p][e] = __fadd_rn(acc[p][e], part[p][e]);
            } else {
                multiply(acc);  // plain TF32's 2^-10 dwarfs the accumulation's error
            }
        });
        ng_tile_epilogue<T, NACC>(C.matrix(mat), ldc, M, N, i0 + wi, j0 + wj, alpha, beta, acc,
                                  [&](int e, int &r, int &c) { ng_mma_acc_at<NJ, 8>(e, fg, ft, r, c); });
    }
}

// A 16-byte asynchronous copy from global to shared memory (sm_80): the first `bytes` (0 … 16)
// are read from `src`, the rest of the slot is zero-filled (bytes = 0: src is any valid address
// and is not read). Both addresses 16-byte aligned.
__device__ __forceinline__ void ng_cp_async16(void *dst, const void *src, int bytes) {
#if __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(bytes) : "memory");
#endif
}

// 16 bytes at p (16-byte aligned, shared or global memory) as 16 / sizeof(T) elements: one
// 128-bit load or store.
__device__ __forceinline__ void ng_ld16(const float *p, float (&out)[4]) {
    const float4 v = *reinterpret_cast<const float4 *>(p);
    out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
}
__device__ __forceinline__ void ng_ld16(const ng_complex<float> *p, ng_complex<float> (&out)[2]) {
    const float4 v = *reinterpret_cast<const float4 *>(p);
    out[0] = ng_complex<float>{v.x, v.y};
    out[1] = ng_complex<float>{v.z, v.w};
}
__device__ __forceinline__ void ng_st16(float *p, const float (&v)[4]) {
    *reinterpret_cast<float4 *>(p) = make_float4(v[0], v[1], v[2], v[3]);
}
__device__ __forceinline__ void ng_st16(ng_complex<float> *p, const ng_complex<float> (&v)[2]) {
    *reinterpret_cast<float4 *>(p) = make_float4(v[0].re, v[0].im, v[1].re, v[1].im);
}

// A thread's R elements of op(X) at one k of a gemm_simt tile: groups of G = 16 / sizeof(T)
// consecutive elements, STEP apart from p on, one 128-bit load a group, op applied.
template <typename T, int OP, int STEP, int R>
__device__ __forceinline__ void ng_simt_frag(const T *p, T (&out)[R]) {
    constexpr int G = 16 / sizeof(T);
#pragma unroll
    for (int g = 0; g < R / G; ++g) {
        T v[G];
        ng_ld16(p + g * STEP, v);
#pragma unroll
        for (int q = 0; q < G; ++q) out[g * G + q] = ng_op_value<T, OP>(v[q]);
    }
}

// One thread's share of the copies of gemm_simt's tiles of one operand, BK deep and BX wide
// from x0 (A's rows i, B's columns j; X the operand's extent) into shared tiles kept [k][x]
// with rows of LS elements, zeros outside the matrix, the tiles in order k0 = 0, BK, 2·BK, …
// XFAST: the operand is stored with x contiguous (A with op N, B with op T or C), else k
// contiguous. VEC (the host checked that the matrices, ld and the batch stride are 16-byte
// aligned): an x-contiguous operand moves 16 bytes a copy (the matrix's last rows or columns
// by a partial copy, zero filled), a k-contiguous complex one an element a copy; otherwise 4
// bytes a copy. Consecutive threads read consecutive addresses of a column; k-contiguous
// elements are transposed on their way into shared memory by the copies' addresses. A thread
// keeps its x (x-contiguous) or its k (k-contiguous) from tile to tile: it carries one pointer
// and its x-range bits, so that the k loop holds few registers beside the accumulators.
template <typename T, bool XFAST, bool VEC, int BX, int BK, int NT, int LS>
struct ng_simt_walk {
    static constexpr bool V16 = XFAST && VEC;
    static constexpr int E = V16 ? 16 / (int)sizeof(T) : 1;  // elements a copy
    static constexpr int L = BX * BK / (E * NT);            // copies a thread and tile
    static constexpr int XW = BX / E;                       // copies along a row (XFAST)
    static constexpr int KS = XFAST ? NT / XW : 0;          // k between a thread's copies (XFAST)
    static constexpr int XS = XFAST ? 0 : NT / BK;          // x between a thread's copies (else)
    static_assert(BX % E == 0 && L * E * NT == BX * BK && L <= 32, "whole copies, the same count per thread");
    static_assert(XFAST ? NT % XW == 0 : NT % BK == 0, "a thread keeps its x (its k) from tile to tile");
    const T *m;     // the matrix: the address of copies that read nothing
    const T *p;     // the thread's first copy in the next tile
    ng_i64 ld;
    int k, slot;    // the first copy's k within a tile and its slot
    unsigned in_x;  // V16: the bytes of each copy; else bit l: copy l's x inside the matrix

    __device__ __forceinline__ ng_simt_walk(const T *m_, ng_i64 ld_, ng_i64 x0, ng_i64 X, int tid) : m(m_), ld(ld_) {
        const int x = XFAST ? (tid % XW) * E : tid / BK;
        k = XFAST ? tid / XW : tid % BK;
        slot = k * LS + x;
        p = XFAST ? m + k * ld + x0 + x : m + (x0 + x) * ld + k;
        const ng_i64 left = X - (x0 + x);  // the thread's first x to the operand's end
        if (V16) {
            in_x = left <= 0 ? 0u : (unsigned)(left < E ? left : E) * (unsigned)sizeof(T);
        } else {
            in_x = 0;
#pragma unroll
            for (int l = 0; l < L; ++l) in_x |= (unsigned)((XFAST ? 0 : l * XS) < left) << l;
        }
    }

    // Issues the copies of the next tile into the tile at s; kleft: K − the tile's first k.
    __device__ __forceinline__ void copy(int kleft, T *s) {
        constexpr int W = sizeof(T) / sizeof(float);
#pragma unroll
        for (int l = 0; l < L; ++l) {
            const int kl = k + l * KS;
            const T *src = p + l * (XFAST ? KS : XS) * ld;
            T *dst = s + slot + (XFAST ? l * KS * LS : l * XS);
            if constexpr (V16) {
                const int bytes = kl < kleft ? (int)in_x : 0;
                ng_cp_async16(dst, bytes ? src : m, bytes);
            } else {
                const bool in = kl < kleft && (in_x >> l & 1u);
                if constexpr (VEC && W == 2) {
                    ng_cp_async8(reinterpret_cast<double *>(dst), reinterpret_cast<const double *>(in ? src : m), in);
                } else {
#pragma unroll
                    for (int q = 0; q < W; ++q)
                        ng_cp_async4(reinterpret_cast<float *>(dst) + q, reinterpret_cast<const float *>(in ? src : m) + q, in);
                }
            }
        }
        p += XFAST ? BK * ld : BK;
    }
};

// C = alpha·acc + beta·C for one thread of gemm_simt: acc[r][c] is C(i + (r/G)·TI·G + r%G,
// j + (c/G)·TJ·G + c%G), G = 16 / sizeof(T). Column by column, the column's old values read
// before its stores (a load after a store through the same pointer would wait for it); beta = 0
// reads nothing. VC (C, ldc and C's batch stride 16-byte aligned, host-checked): a group of G
// rows inside the matrix moves as one 128-bit access.
template <typename T, int TM, int TN, int TI, int TJ, bool VC>
__device__ __forceinline__ void gemm_simt_store(T *cm, ng_i64 ldc, ng_i64 M, ng_i64 N, ng_i64 i, ng_i64 j, T alpha, T beta,
                                                bool beta_zero, const T (&acc)[TM][TN]) {
    constexpr int G = 16 / sizeof(T);
#pragma unroll
    for (int c = 0; c < TN; ++c) {
        const ng_i64 jc = j + (c / G) * TJ * G + c % G;
        if (jc >= N) continue;
        T *col = cm + jc * ldc;
        T old[TM / G][G];
#pragma unroll
        for (int g = 0; g < TM / G; ++g) {
            const ng_i64 ig = i + g * TI * G;
            if (VC && !beta_zero && ig + G <= M) {
                ng_ld16(col + ig, old[g]);
            } else {
#pragma unroll
                for (int q = 0; q < G; ++q) old[g][q] = !beta_zero && ig + q < M ? col[ig + q] : ng_zero<T>();
            }
        }
#pragma unroll
        for (int g = 0; g < TM / G; ++g) {
            const ng_i64 ig = i + g * TI * G;
            T v[G];
#pragma unroll
            for (int q = 0; q < G; ++q) {
                const T x = ng_mul(alpha, acc[g * G + q][c]);
                v[q] = beta_zero ? x : ng_fma(beta, old[g][q], x);
            }
            if (VC && ig + G <= M) {
                ng_st16(col + ig, v);
            } else {
#pragma unroll
                for (int q = 0; q < G; ++q)
                    if (ig + q < M) col[ig + q] = v[q];
            }
        }
    }
}

// Float and complex float, exact FP32 (the default math mode), sm_80 and later. BM x BN of C a
// block, TM x TN a thread (NT = BM/TM · BN/TN threads), tiles BK deep in ST stages of shared
// memory filled by cp.async ahead of the tile being multiplied (as gemm_mma). Both operands are
// kept [k][x] (x: op(A)'s row, op(B)'s column) with rows padded by 16 bytes, so that a thread
// reads its G = 16 / sizeof(T) consecutive rows (columns) of one k with one LDS.128: thread
// (ti, tj) owns rows g·TI·G + ti·G + {0 … G−1} (g < TM/G) and columns h·TJ·G + tj·G + {0 … G−1},
// and a warp is 8 (TI < 8: TI) values of ti by the rest of tj, so that the A loads of a warp
// cover 128 contiguous bytes and the B loads are broadcasts: each k step is TM/G + TN/G
// conflict-free LDS.128 and TM·TN products (FFMA, four for complex) from registers, in the same
// order on every call. VEC bits (host-checked alignment of the matrices, leading dimensions and
// strides to 16 bytes): A (1) and B (2) copied 16 bytes at a time where they are x-contiguous,
// C (4) read and written 16 bytes at a time.
template <typename T, int TA, int TB, int BM, int BN, int BK, int TM, int TN, int ST, int VEC>
__device__ __forceinline__ void gemm_simt(ng_i64 M, ng_i64 N, ng_i64 K, T alpha, ng_batch<const T> A, ng_i64 lda,
                                          ng_batch<const T> B, ng_i64 ldb, T beta, ng_batch<T> C, ng_i64 ldc,
                                          ng_i64 batch) {
    constexpr int G = 16 / sizeof(T), TI = BM / TM, TJ = BN / TN, NT = TI * TJ;
    constexpr int WI = TI < 8 ? TI : 8, WJ = 32 / WI;  // a warp's threads along ti and tj
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or complex float");
    static_assert(TM % G == 0 && TN % G == 0 && TI * TM == BM && TJ * TN == BN, "whole groups of G");
    static_assert(NT % 32 == 0 && TI % WI == 0 && TJ % WJ == 0 && ST >= 2, "whole warps");
    constexpr bool AX = TA == 0, BX = TB != 0;  // x-contiguous operands
    constexpr int LSA = BM + G, LSB = BN + G, SA = BK * LSA, SB = BK * LSB;
    // ST stages of A's and B's tiles (src/gemm_batched/cuda.rs sizes it: Plan::smem).
    extern __shared__ float4 ng_simt_smem[];
    T *const sA = reinterpret_cast<T *>(ng_simt_smem), *const sB = sA + ST * SA;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int ti = (warp % (TI / WI)) * WI + lane % WI, tj = (warp / (TI / WI)) * WJ + lane / WI;
    const ng_i64 tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const ng_i64 nblocks = tiles_m * tiles_n * batch;
    // Tiles of k in an int: an operand with K ≥ 2^31 columns of at least 33 rows would not fit
    // in any GPU's memory.
    const int ktiles = (int)((K + BK - 1) / BK);
    const bool beta_zero = ng_is_zero(beta);

    for (ng_i64 blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
        const ng_i64 mat = blk / (tiles_m * tiles_n), t = blk - mat * (tiles_m * tiles_n);
        const ng_i64 i0 = (t % tiles_m) * BM, j0 = (t / tiles_m) * BN;
        ng_simt_walk<T, AX, (VEC & 1) != 0, BM, BK, NT, LSA> wa(A.matrix(mat), lda, i0, M, tid);
        ng_simt_walk<T, BX, (VEC & 2) != 0, BN, BK, NT, LSB> wb(B.matrix(mat), ldb, j0, N, tid);
        // Copies tile kt of op(A) and op(B) (tiles are issued in order), when there is one,
        // into stage `st` asynchronously; one commit group either way.
        auto issue = [&](int kt, int st) {
            if (kt < ktiles) {
                const ng_i64 kleft = K - (ng_i64)kt * BK;
                const int kl = kleft < BK ? (int)kleft : BK;
                wa.copy(kl, sA + st * SA);
                wb.copy(kl, sB + st * SB);
            }
            ng_cp_async_commit();
        };

        T acc[TM][TN];
        ng_zero_all(acc);
        ng_cp_async_pipeline<ST>(ktiles, issue, [&](int cur) {
            const T *ta = sA + cur * SA + ti * G, *tb = sB + cur * SB + tj * G;
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                T av[TM], bv[TN];
                ng_simt_frag<T, TA, TI * G>(ta + kk * LSA, av);
                ng_simt_frag<T, TB, TJ * G>(tb + kk * LSB, bv);
#pragma unroll
                for (int r = 0; r < TM; ++r)
#pragma unroll
                    for (int c = 0; c < TN; ++c) acc[r][c] = ng_fma(av[r], bv[c], acc[r][c]);
            }
        });
        gemm_simt_store<T, TM, TN, TI, TJ, (VEC & 4) != 0>(C.matrix(mat), ldc, M, N, i0 + ti * G, j0 + tj * G, alpha, beta,
                                                          beta_zero, acc);
    }
}

// ---- gemm_small: M, N, K <= 32 ------------------------------------------------------------
// A block takes NB matrices at a time (a group) and loops over groups (blockIdx.x, then every
// gridDim.x-th). Its A and B go into shared memory in the compute layout (op applied, [k][i]
// and [k][j]), either loaded there directly (ST = 0) or first copied as stored into raw stages
// by cp.async (ST = 1: one stage, the group's copies all in flight at once; ST = 2: two stages,
// the next group's copies in flight while this group is multiplied and written). With PC the
// raw stages hold C too (beta != 0), so that the read of C is in flight early as well.
// Loaded directly (ng_small_pass), an operand whose group is one aligned run (the strided form)
// moves 16 bytes a thread and access across the run with no per-access checks; a matrix of
// consecutive elements (ld = rows: pointer arrays) moves 16 bytes at a time where its address
// is aligned, decided once for the matrix; anything else goes element by element. The raw
// stages' copies (ng_small_walk) check each 16-byte unit's alignment as they go.

// 16 bytes at p (16-byte aligned) as double or complex double elements (float and complex
// float: ng_ld16 / ng_st16 above).
__device__ __forceinline__ void ng_ld16(const double *p, double (&out)[2]) {
    const double2 v = *reinterpret_cast<const double2 *>(p);
    out[0] = v.x; out[1] = v.y;
}
__device__ __forceinline__ void ng_ld16(const ng_complex<double> *p, ng_complex<double> (&out)[1]) {
    const double2 v = *reinterpret_cast<const double2 *>(p);
    out[0] = ng_complex<double>{v.x, v.y};
}
__device__ __forceinline__ void ng_st16(double *p, const double (&v)[2]) {
    *reinterpret_cast<double2 *>(p) = make_double2(v[0], v[1]);
}
__device__ __forceinline__ void ng_st16(ng_complex<double> *p, const ng_complex<double> (&v)[1]) {
    *reinterpret_cast<double2 *>(p) = make_double2(v[0].re, v[0].im);
}

// Elements of T in 16 bytes (complex double: one).
template <typename T>
struct ng_vec {
    static constexpr int n = sizeof(T) >= 16 ? 1 : 16 / (int)sizeof(T);
};

__device__ __forceinline__ bool ng_aligned16(const void *p) { return ((unsigned long long)p & 15) == 0; }
// p is aligned to a whole element (C's float _Complex may sit at 4 bytes), so that whole
// elements lie between it and the next 16-byte boundary.
template <typename T>
__device__ __forceinline__ bool ng_elem_aligned(const T *p) { return ((unsigned long long)p % sizeof(T)) == 0; }

// G consecutive elements at p (global or shared memory): one 16-byte access where they are 16
// bytes and p is 16-byte aligned, else element by element (an element is only as aligned as
// its real type: C's alignment of float _Complex is 4).
template <typename T, int G>
__device__ __forceinline__ void ng_small_ld(const T *p, T (&v)[G]) {
    if constexpr (G == ng_vec<T>::n) {
        if (ng_aligned16(p)) {
            ng_ld16(p, v);
            return;
        }
    }
#pragma unroll
    for (int q = 0; q < G; ++q) v[q] = p[q];
}
template <typename T, int G>
__device__ __forceinline__ void ng_small_st(T *p, const T (&v)[G]) {
    if constexpr (G == ng_vec<T>::n) {
        if (ng_aligned16(p)) {
            ng_st16(p, v);
            return;
        }
    }
#pragma unroll
    for (int q = 0; q < G; ++q) p[q] = v[q];
}

// One real part (4 or 8 bytes) copied asynchronously to shared memory.
__device__ __forceinline__ void ng_cp_async_part(float *d, const float *s) { ng_cp_async4(d, s, true); }
__device__ __forceinline__ void ng_cp_async_part(double *d, const double *s) { ng_cp_async8(d, s, true); }

// G consecutive elements from src (global) to dst (shared, 16-byte aligned when G elements are
// 16 bytes) by cp.async: one 16-byte copy where src is 16-byte aligned, else one copy per real
// part.
template <typename T, int G>
__device__ __forceinline__ void ng_small_cp(T *dst, const T *src) {
    if constexpr (G == ng_vec<T>::n) {
        if (ng_aligned16(src)) {
            ng_cp_async16(dst, src, 16);
            return;
        }
    }
    typedef typename ng_real_of<T>::type R;
    constexpr int W = (int)(G * sizeof(T) / sizeof(R));
#pragma unroll
    for (int w = 0; w < W; ++w) ng_cp_async_part(reinterpret_cast<R *>(dst) + w, reinterpret_cast<const R *>(src) + w);
}

// f.apply<G>(e, p) for each unit of G consecutive elements of a group's chunk of an operand
// stored R × C (leading dimension ld): matrices first … first + nmat − 1 of x, `NT` threads
// wide; e is the unit's first element in the chunk stored back to back (matrix, column, row),
// p its address.
template <typename T, int NB, int R, int C, int NT, int G, typename X, typename F>
__device__ __forceinline__ void ng_small_units(X x, ng_i64 ld, ng_i64 first, int nmat, int tid, F f) {
    constexpr int RC = R * C, NU = NB * RC / G;
#pragma unroll 2  // more spills at the register caps of the small class
    for (int it = 0; it < (NU + NT - 1) / NT; ++it) {
        const int u = it * NT + tid, e = u * G;
        const int m_ = e / RC, rem = e - m_ * RC, c = rem / R, r = rem - c * R;
        if (u < NU && m_ < nmat) f.template apply<G>(e, x.matrix(first + m_) + c * ld + r);
    }
}

// ng_small_units by the widest units `bits` allow: bit 1, the chunk of NB matrices is one
// contiguous run (strided, stride = R·C, ld = R) and whole: 16-byte vectors across matrices;
// bit 0, ld = R (a matrix's elements are consecutive) and a matrix is whole vectors: 16-byte
// vectors per matrix; else element by element. Alignment is checked per unit (ng_small_ld).
template <typename T, int NB, int R, int C, int NT, typename X, typename F>
__device__ __forceinline__ void ng_small_walk(X x, ng_i64 ld, int bits, ng_i64 first, int nmat, int tid, F f) {
    constexpr int VEC = ng_vec<T>::n;
    if constexpr (VEC > 1 && (NB * R * C) % VEC == 0) {
        if ((bits & 2) && nmat == NB) {
            ng_small_units<T, 1, NB * R * C, 1, NT, VEC>(x, NB * R * C, first, 1, tid, f);
            return;
        }
    }
    if constexpr (VEC > 1 && (R * C) % VEC == 0) {
        if (bits & 1) {
            ng_small_units<T, NB, R, C, NT, VEC>(x, ld, first, nmat, tid, f);
            return;
        }
    }
    ng_small_units<T, NB, R, C, NT, 1>(x, ld, first, nmat, tid, f);
}

// Element e of a group's chunk of an operand stored R × C, the chunk back to back (matrix,
// column, row), op applied, into the compute layout s: element (r, c) of matrix m goes to
// s[m*S + r*LS + c] when SWAP, else s[m*S + c*LS + r].
template <typename T, int R, int C, int OP, bool SWAP, int S, int LS>
__device__ __forceinline__ void ng_small_place(T *s, int e, T v) {
    const int m_ = e / (R * C), rem = e - m_ * (R * C), c = rem / R, r = rem - c * R;
    v = ng_op_value<T, OP>(v);
    if (SWAP) s[m_ * S + r * LS + c] = v; else s[m_ * S + c * LS + r] = v;
}

// Where element e of a group's C (M × N matrices back to back) is in the compute layout sC
// (rows LSC apart, matrices SC apart).
template <int M, int N, int SC, int LSC>
__device__ __forceinline__ int ng_small_c_at(int e) {
    const int m_ = e / (M * N), rem = e - m_ * (M * N), j = rem / M, i = rem - j * M;
    return m_ * SC + j * LSC + i;
}

// ng_small_walk's f for staging into the compute layout s: a unit read from p (global memory,
// or a raw stage) and op applied; element (r, c) of the chunk's matrix m of an operand stored
// R × C goes to s[m*S + r*LS + c] when SWAP, else s[m*S + c*LS + r].
template <typename T, int R, int C, int OP, bool SWAP, int S, int LS>
struct ng_small_put {
    T *s;
    template <int G>
    __device__ __forceinline__ void apply(int e, const T *p) const {
        T v[G];
        ng_small_ld<T, G>(p, v);
#pragma unroll
        for (int q = 0; q < G; ++q) ng_small_place<T, R, C, OP, SWAP, S, LS>(s, e + q, v[q]);
    }
};

// ng_small_walk's f for filling a raw stage: the chunk as stored, back to back, by cp.async
// (not committed).
template <typename T>
struct ng_small_to_raw {
    T *raw;
    template <int G>
    __device__ __forceinline__ void apply(int e, const T *p) const {
        ng_small_cp<T, G>(raw + e, p);
    }
};

// ng_small_walk's f for C: alpha·op(A)·op(B) from the compute layout sC (M × N matrices, rows
// LSC apart, SC apart) plus beta·C, C read from the raw stage rc (PC) or at p; beta = 0 does
// not read C. The same operations, in the same order, as every earlier version of the kernel.
template <typename T, int M, int N, int SC, int LSC, int PC>
struct ng_small_out {
    const T *sC, *rc;
    T beta;
    bool beta_zero;
    template <int G>
    __device__ __forceinline__ void apply(int e, T *p) const {
        T x[G];
#pragma unroll
        for (int q = 0; q < G; ++q) x[q] = sC[ng_small_c_at<M, N, SC, LSC>(e + q)];
        if (!beta_zero) {
            T c0[G];
            ng_small_ld<T, G>(PC ? rc + e : p, c0);
#pragma unroll
            for (int q = 0; q < G; ++q) x[q] = ng_fma(beta, c0[q], x[q]);
        }
        ng_small_st<T, G>(p, x);
    }
};

// One pass over the TOTAL elements of a block's chunk of an operand, `NT` threads wide: for
// each element index e, f(e, value), the value read only when `read` (else zero); WRITE: f's
// result is stored back in its place. When `run` is non-null the chunk is contiguous there and
// run is aligned to an element (ng_elem_aligned): the pass then moves 16 bytes per thread and
// access from the run's first 16-byte boundary to its last, which keeps enough bytes in flight
// for the memory system, and the at most 2·(VEC − 1) elements outside them one by one (odd
// orders, pointer arrays at any element offset). Otherwise at(e) gives the element's address
// (nullptr: not part of the batch).
template <typename T, int TOTAL, int NT, bool WRITE, typename At, typename F>
__device__ __forceinline__ void ng_flat_pass(const T *run, int tid, bool read, At at, F f) {
    constexpr int VEC = 16 / sizeof(T);
    if (run) {
        T *r = const_cast<T *>(run);
        // nv 16-byte vectors from element head on (the loop's bound is TOTAL's, so that the
        // whole, aligned run's copy is compiled with constants).
        auto vectors = [&](int head, int nv) {
            int4 *v16 = reinterpret_cast<int4 *>(r + head);
#pragma unroll(VEC == 1 ? 4 : 2)  // complex double: as many accesses in flight as element by element
            for (int it = 0; it < (TOTAL / VEC + NT - 1) / NT; ++it) {
                const int v = it * NT + tid;
                if (v < nv) {
                    union { int4 raw; T t[VEC]; } u;
                    if (read) u.raw = v16[v];
#pragma unroll
                    for (int q = 0; q < VEC; ++q) u.t[q] = f(head + v * VEC + q, u.t[q]);
                    if (WRITE) v16[v] = u.raw;
                }
            }
        };
        if (TOTAL % VEC == 0 && ng_aligned16(r)) {
            vectors(0, TOTAL / VEC);
            return;
        }
        // The elements before the first 16-byte boundary (head) and after the last one (from
        // tail on) one by one.
        const int head = min(TOTAL, (int)((16 - ((unsigned long long)r & 15)) & 15) / (int)sizeof(T));
        const int nv = (TOTAL - head) / VEC, tail = head + nv * VEC;
        vectors(head, nv);
        for (int x = tid; x < TOTAL - nv * VEC; x += NT) {
            const int e = x < head ? x : tail + x - head;
            const T y = f(e, read ? r[e] : ng_zero<T>());
            if (WRITE) r[e] = y;
        }
    } else {
#pragma unroll 4
        for (int it = 0; it < (TOTAL + NT - 1) / NT; ++it) {
            const int e = it * NT + tid;
            const T *p = e < TOTAL ? at(e) : nullptr;
            if (p) {
                const T x = f(e, read ? *p : ng_zero<T>());
                if (WRITE) *const_cast<T *>(p) = x;
            }
        }
    }
}

// ng_flat_pass (f, WRITE, read) over a group's chunk of an operand stored R × C (leading
// dimension ld): matrices first … first + nmat − 1 of x, NB · TPM threads; f sees each
// element's index in the chunk stored back to back (matrix, column, row). By the widest
// accesses the operand allows:
//   - `packed` (the chunk is one run: strided with ld = R and stride = R·C, the base aligned to
//     an element), 16-byte vectors across the whole run;
//   - else `runs` (ld = R: a matrix's elements are consecutive): matrix tid / TPM by its TPM
//     threads, 16-byte vectors where the matrix's address is aligned to an element (decided
//     once for the matrix, so that the branch is uniform across its threads: pointer arrays
//     may mix aligned and unaligned matrices), else its elements;
//   - else the chunk element by element.
template <typename T, int NB, int R, int C, int TPM, bool WRITE, typename X, typename F>
__device__ __forceinline__ void ng_small_pass(X x, ng_i64 ld, bool packed, bool runs, ng_i64 first, int nmat, int tid,
                                              bool read, F f) {
    constexpr int RC = R * C;
    typedef const T *P;
    if (packed) {
        ng_flat_pass<T, NB * RC, NB * TPM, WRITE>(x.base + first * x.stride, tid, read, [](int) -> P { return nullptr; }, f);
        return;
    }
    if (runs) {
        const int mat = tid / TPM;
        if (mat < nmat) {
            const P p = x.matrix(first + mat);
            ng_flat_pass<T, RC, TPM, WRITE>(ng_elem_aligned(p) ? p : nullptr, tid - mat * TPM, read,
                                            [&](int e) -> P { return p + e; },
                                            [&](int e, T v) { return f(mat * RC + e, v); });
        }
        return;
    }
    ng_flat_pass<T, NB * RC, NB * TPM, WRITE>(nullptr, tid, read, [&](int e) -> P {
        const int m_ = e / RC, rem = e - m_ * RC, c = rem / R, r = rem - c * R;
        return m_ < nmat ? x.matrix(first + m_) + c * ld + r : nullptr;
    }, f);
}

// Bits 2i and 2i + 1 of `contig` (host-computed) are operand i's (A = 0, B = 1, C = 2): bit 0,
// ld = rows; bit 1, also strided with stride = rows · cols. Alignment is checked here: once a
// call for a strided run, once a matrix for pointer arrays (direct loads), or per 16-byte unit
// (raw stages).
// Shared memory (dynamic, host-computed the same way): ST raw stages of A, B and (PC) C, each
// rounded to 16 bytes, then NB · max(K·(LSA + LSB), N·LSC) elements of compute layout.
template <typename T, int M, int N, int K, int TA, int TB, int NB, int TI, int TJ, int ST, int PC>
__device__ __forceinline__ void gemm_small(T alpha, ng_batch<const T> A, ng_i64 lda, ng_batch<const T> B, ng_i64 ldb,
                                           T beta, ng_batch<T> C, ng_i64 ldc, ng_i64 batch, int contig) {
    static_assert(ST >= 0 && ST <= 2 && (PC == 0 || ST > 0), "ST is 0, 1 or 2; C is staged only with raw stages");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    static_assert(ST == 0, "raw stages are filled by cp.async (sm_80 and later)");
#endif
    constexpr int RM = (M + TI - 1) / TI, RN = (N + TJ - 1) / TJ;
    constexpr int TPM = TI * TJ, NT = NB * TPM;
    constexpr int VEC = ng_vec<T>::n;
    // op(A) as [kk][i], op(B) as [kk][j], C as [j][i]; odd row lengths keep the transposing
    // shared-memory stores free of bank conflicts.
    constexpr int LSA = M | 1, LSB = N | 1, LSC = M | 1;
    constexpr int SA = K * LSA, SB = K * LSB, SC = N * LSC;
    constexpr int AR = TA ? K : M, AC = TA ? M : K;  // A as stored
    constexpr int BR = TB ? N : K, BC = TB ? K : N;  // B as stored
    // A raw stage: the group's A, B and (PC) C as stored, each rounded up to 16 bytes.
    constexpr int RA = (NB * M * K + VEC - 1) / VEC * VEC, RB = (NB * K * N + VEC - 1) / VEC * VEC;
    constexpr int RS = RA + RB + (PC ? (NB * M * N + VEC - 1) / VEC * VEC : 0);
    extern __shared__ double2 ng_smem_raw[];
    T *raw = reinterpret_cast<T *>(ng_smem_raw);
    T *sA = raw + ST * RS;
    T *sB = sA + NB * SA;
    T *sC = sA;  // reuses A's and B's space once the products are in registers
    const int tid = threadIdx.x;
    const int mat = tid / TPM, loc = tid - mat * TPM;
    const int ti = loc % TI, tj = loc / TI;
    const bool beta_zero = ng_is_zero(beta);
    const int ca = contig & 3, cb = (contig >> 2) & 3, cc = (contig >> 4) & 3;
    // A whole group of an operand is one run aligned to an element (ng_small_pass).
    auto packed = [&](int bits, const T *base) { return (bits & 2) && ng_elem_aligned(base); };
    const bool pa = packed(ca, A.base), pb = packed(cb, B.base), pc = packed(cc, C.base);
    const ng_i64 ngroups = (batch + NB - 1) / NB;
    const ng_small_put<T, AR, AC, TA, TA != 0, SA, LSA> putA{sA};
    const ng_small_put<T, BR, BC, TB, TB == 0, SB, LSB> putB{sB};
    auto count = [&](ng_i64 g) { return (int)min((ng_i64)NB, batch - g * NB); };
    // Group g's copies into stage st, one commit group (empty past the batch). C is not read
    // when beta = 0.
    auto issue = [&](ng_i64 g, int st) {
        if (g < ngroups) {
            T *dst = raw + st * RS;
            ng_small_walk<T, NB, AR, AC, NT>(A, lda, ca, g * NB, count(g), tid, ng_small_to_raw<T>{dst});
            ng_small_walk<T, NB, BR, BC, NT>(B, ldb, cb, g * NB, count(g), tid, ng_small_to_raw<T>{dst + RA});
            if constexpr (PC) {
                if (!beta_zero) ng_small_walk<T, NB, M, N, NT>(C, ldc, cc, g * NB, count(g), tid, ng_small_to_raw<T>{dst + RA + RB});
            }
        }
        ng_cp_async_commit();
    };

    if constexpr (ST == 2) issue(blockIdx.x, 0);
    int stage = 0;
    for (ng_i64 g = blockIdx.x; g < ngroups; g += gridDim.x) {
        const ng_i64 first = g * NB;
        const int nmat = count(g);
        const bool whole = nmat == NB;
        const T *stg = raw + stage * RS;
        if constexpr (ST == 0) {
            // op(A) as [kk][i]: A(r, c) goes to row c, column r unless transposed.
            ng_small_pass<T, NB, AR, AC, TPM, false>(A, lda, pa && whole, ca & 1, first, nmat, tid, true, [&](int e, T v) {
                ng_small_place<T, AR, AC, TA, TA != 0, SA, LSA>(sA, e, v);
                return v;
            });
            // op(B) as [kk][j]: B(r, c) goes to row r, column c unless transposed.
            ng_small_pass<T, NB, BR, BC, TPM, false>(B, ldb, pb && whole, cb & 1, first, nmat, tid, true, [&](int e, T v) {
                ng_small_place<T, BR, BC, TB, TB == 0, SB, LSB>(sB, e, v);
                return v;
            });
        } else {
            // Every thread is done with the previous group's sC and raw stage before they are
            // refilled: here (ST = 1), or (ST = 2) at the barrier after the wait.
            if constexpr (ST == 1) {
                __syncthreads();
                issue(g, 0);
            }
            ng_cp_async_wait<0>();  // this thread's copies of group g have landed
            __syncthreads();        // and every thread's
            if constexpr (ST == 2) issue(g + gridDim.x, stage ^ 1);
            // The raw stage seen as a strided batch of whole runs.
            ng_small_walk<T, NB, AR, AC, NT>(ng_batch<const T>{stg, AR * AC, nullptr}, AR, 3, 0, nmat, tid, putA);
            ng_small_walk<T, NB, BR, BC, NT>(ng_batch<const T>{stg + RA, BR * BC, nullptr}, BR, 3, 0, nmat, tid, putB);
        }
        __syncthreads();

        T acc[RM][RN];
        ng_zero_all(acc);
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
        // C = alpha·AB + beta·C, beta·C from global memory (direct; beta = 0 reads nothing) or
        // from the raw stage (PC). The same operations, in the same order, on every path.
        if constexpr (ST == 0) {
            ng_small_pass<T, NB, M, N, TPM, true>(C, ldc, pc && whole, cc & 1, first, nmat, tid, !beta_zero, [&](int e, T c0) {
                const T x = sC[ng_small_c_at<M, N, SC, LSC>(e)];
                return beta_zero ? x : ng_fma(beta, c0, x);
            });
            __syncthreads();  // sC is overwritten by the next group's loads
        } else {
            ng_small_walk<T, NB, M, N, NT>(C, ldc, cc, first, nmat, tid, ng_small_out<T, M, N, SC, LSC, PC>{sC, stg + RA + RB, beta, beta_zero});
            if constexpr (ST == 2) stage ^= 1;
        }
    }
    ng_cp_async_wait<0>();
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
// NG_MINB blocks per SM caps registers so that enough threads fit on an SM. NG_ST raw stages
// (0, 1, 2), NG_PC: C staged too (gemm_small).
extern "C" __global__ void __launch_bounds__(NG_NB * NG_TI * NG_TJ, NG_MINB)
NG_CAT(gemm_small_, NG_SUFFIX)(NG_T alpha, ng_batch<const NG_T> A, ng_i64 lda, ng_batch<const NG_T> B, ng_i64 ldb,
                               NG_T beta, ng_batch<NG_T> C, ng_i64 ldc, ng_i64 batch, int contig) {
    gemm_small<NG_T, NG_M, NG_N, NG_K, NG_TA, NG_TB, NG_NB, NG_TI, NG_TJ, NG_ST, NG_PC>(alpha, A, lda, B, ldb, beta, C, ldc,
                                                                                      batch, contig);
}
#elif defined(NG_TILED)
// NG_MINB blocks per SM (registers capped at 128) so one block's barriers do not idle the SM.
extern "C" __global__ void __launch_bounds__(NG_TI * NG_TJ, NG_MINB)
NG_CAT(gemm_tiled_, NG_SUFFIX)(ng_i64 M, ng_i64 N, ng_i64 K, NG_T alpha, ng_batch<const NG_T> A, ng_i64 lda,
                               ng_batch<const NG_T> B, ng_i64 ldb, NG_T beta, ng_batch<NG_T> C, ng_i64 ldc, ng_i64 batch) {
    gemm_tiled<NG_T, NG_TA, NG_TB, NG_BM, NG_BN, NG_BK, NG_TI, NG_TJ>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, batch);
}
#elif defined(NG_MMA)
// Double and complex double only (the host side picks it for no other type).
extern "C" __global__ void __launch_bounds__(32 * NG_WM * NG_WN, NG_MINB)
NG_CAT(gemm_mma_, NG_SUFFIX)(ng_i64 M, ng_i64 N, ng_i64 K, NG_T alpha, ng_batch<const NG_T> A, ng_i64 lda, ng_batch<const NG_T> B,
                             ng_i64 ldb, NG_T beta, ng_batch<NG_T> C, ng_i64 ldc, ng_i64 batch) {
    gemm_mma<NG_T, NG_TA, NG_TB, NG_WR, NG_WM, NG_WN, NG_BK, NG_ST>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, batch);
}
#elif defined(NG_TF32)
// Float and complex float under NUMGPU_MATH_3XTF32 (NG_TF32=1) or NUMGPU_MATH_TF32 (2), sm_80
// and later (the host side picks it for nothing else).
extern "C" __global__ void __launch_bounds__(32 * NG_WM * NG_WN, NG_MINB)
NG_CAT(gemm_tf32_, NG_SUFFIX)(ng_i64 M, ng_i64 N, ng_i64 K, NG_T alpha, ng_batch<const NG_T> A, ng_i64 lda, ng_batch<const NG_T> B,
                              ng_i64 ldb, NG_T beta, ng_batch<NG_T> C, ng_i64 ldc, ng_i64 batch) {
    gemm_tf32<NG_T, NG_TF32, NG_TA, NG_TB, NG_WR, NG_WC, NG_WM, NG_WN, NG_BK, NG_ST>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, batch);
}
#elif defined(NG_SIMT)
// Float and complex float in exact FP32, M and N > 32, sm_80 and later (the host side picks it
// for nothing else). NG_MINB blocks per SM caps registers at 64K / (NG_MINB · threads).
extern "C" __global__ void __launch_bounds__((NG_BM / NG_TM) * (NG_BN / NG_TN), NG_MINB)
NG_CAT(gemm_simt_, NG_SUFFIX)(ng_i64 M, ng_i64 N, ng_i64 K, NG_T alpha, ng_batch<const NG_T> A, ng_i64 lda, ng_batch<const NG_T> B,
                              ng_i64 ldb, NG_T beta, ng_batch<NG_T> C, ng_i64 ldc, ng_i64 batch) {
    gemm_simt<NG_T, NG_TA, NG_TB, NG_BM, NG_BN, NG_BK, NG_TM, NG_TN, NG_ST, NG_VEC>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, batch);
}
#elif defined(NG_SCALE)
extern "C" __global__ void NG_CAT(gemm_scale_, NG_SUFFIX)(ng_i64 M, ng_i64 N, NG_T beta, ng_batch<NG_T> C, ng_i64 ldc,
                                                          ng_i64 batch) {
    gemm_scale<NG_T>(M, N, beta, C, ldc, batch);
}
#endif
