// Batched LU with complete pivoting (LAPACK xGETC2 / xGESC2 semantics) and the solves.
//
// Kernels, specialised by NVRTC at run time through -D defines (the host side is
// src/getrf_fullpivot/cuda.rs):
//   getrf_warp_<T>   n <= 32 (NG_N, compile time): NG_W lanes per matrix (a power of two
//                    >= n; 32 / NG_W matrices per warp), a lane per column with the column in
//                    registers. Each lane keeps its column's maximum (row and key), recomputed
//                    in the same pass as the rank-1 update, so a step's search is one butterfly
//                    of shuffles on (key, row, column position, lane). Rows are swapped in
//                    registers (selects on the unrolled index); columns are swapped logically
//                    (each lane tracks its column's position), so no column moves until the
//                    final store. The pivot column goes through shared memory, where lane i
//                    divides entry i by the pivot, and every lane reads the multipliers back.
//                    Complex keys are the squared modulus, with the exact modulus searched on
//                    near-ties (see ng_near). Matrices come and go through shared memory,
//                    coalesced.
//   getrf_block_<T>  any n: one block per matrix, in shared memory when it fits (NG_SMEM=1,
//                    odd leading dimension), else in place in global memory; the argmax is a
//                    block reduction and the rank-1 update computes the next step's keys.
//   getrs_<T>        a thread per (matrix, right-hand side): laswp, triangular solves, laswp.
//   gesc2_<T>        a thread per matrix: xGESC2 step for step, with its scale.
// Pivot search: LAPACK scans rows outer, columns inner with >=, so among maximal elements the
// largest row index wins, then the largest column index; NaN ranks as +Inf, so a non-finite
// pivot shows at the first step whose trailing block holds one. Everything is computed in a
// fixed order: results are bitwise reproducible.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

typedef NG_T T;
typedef typename ng_real_of<T>::type R;

// LAPACK's eps = xLAMCH('P') and smlnum = xLAMCH('S') / eps.
template <typename X> struct ng_lamch;
template <> struct ng_lamch<float> {
    static constexpr float eps = 0x1p-23f, smlnum = 0x1p-103f;
};
template <> struct ng_lamch<double> {
    static constexpr double eps = 0x1p-52, smlnum = 0x1p-970;
};

__device__ __forceinline__ R ng_key(T x) {
    const R v = ng_abs(x);
    return v != v ? ng_inf<R>() : v;
}

// (v, idx) beats (bv, bidx): larger key, then larger packed (row, column) index.
template <typename I>
__device__ __forceinline__ bool ng_beats(R v, I idx, R bv, I bidx) {
    return v > bv || (v == bv && idx > bidx);
}

// What a step decides from its pivot, identically in every thread: info, the non-finite
// flag and, in GETC2 mode, the perturbed pivot. Returns the pivot to divide by.
__device__ __forceinline__ T ng_check_pivot(T piv, int k, int mode, R smin, int &info, bool &nonfinite, bool &perturbed) {
    perturbed = false;
    if (!ng_isfinite(piv)) {
        if (!nonfinite) info = k + 1;
        nonfinite = true;
    } else if (mode == 0 && ng_abs(piv) < smin) {
        if (!nonfinite) info = k + 1;
        piv = ng_from_real_t<T>::of(smin);
        perturbed = true;
    }
    return piv;
}

__device__ __forceinline__ R ng_smin(int n, R best) {
    return n == 1 ? ng_lamch<R>::smlnum : ng_max(ng_lamch<R>::eps * best, ng_lamch<R>::smlnum);
}

#if defined(NG_WARP)
constexpr int N = NG_N, W = NG_W, MPB = NG_MPB, LS = N + 1, LB = N | 1;
// NG_MINB = 1 (from the host, where ptxas's occupancy heuristic would cap the registers below
// what the kernel needs and spill): at least one block per SM, the registers free up to 255.
#if NG_MINB
#define NG_WARP_BOUNDS __launch_bounds__(MPB * W, NG_MINB)
#else
#define NG_WARP_BOUNDS __launch_bounds__(MPB * W)
#endif

// The key each lane tracks for its column. Real: |x| itself (NaN -> +Inf: fmin returns its
// other operand), so the search is exact. Complex: the squared modulus, no square root (NaN
// -> +Inf); it orders as the modulus except on near-ties, which ng_near_tie sends to the
// exact search on the modulus.
template <typename X> struct ng_track_key {
    static constexpr bool exact = true;
    __device__ static R of(X x) { return fmin(ng_abs(x), ng_inf<R>()); }
};
template <typename X> struct ng_track_key<ng_complex<X>> {
    static constexpr bool exact = false;
    __device__ static R of(ng_complex<X> z) { return fmin(fma(z.re, z.re, z.im * z.im), ng_inf<R>()); }
};
constexpr bool EXACT = ng_track_key<T>::exact;

// Near-tie margin and range of the squared-modulus key s = fl(re^2 + im^2). Why it is safe:
// with unit roundoff u, s = |z|^2 (1 + e), |e| <= 2u + u^2 while s* (the largest s) >= LO
// (underflow in a smaller s then costs < 2^-40 s*, and a finite s* means nothing overflowed).
// An element whose s is below THR = s*(1 - 2^-16) (float; 2^-45 double: 256u) has
// |z| < |z*|(1 - 125u), so its modulus as hypot computes it (a few ulps) is strictly below
// z*'s: z* is the unique maximum of the modulus, the element LAPACK's scan picks. When any
// other element reaches THR (or s* is out of range, Inf or NaN included), the step searches
// the modulus itself, exactly as LAPACK compares, ties included.
template <typename X> struct ng_near;
template <> struct ng_near<float> {
    static constexpr float below = 1.0f - 0x1p-16f, lo = 0x1p-100f;
};
template <> struct ng_near<double> {
    static constexpr double below = 1.0 - 0x1p-45, lo = 0x1p-960;
};

// Folds x (row i) into the column's running maximum (m1 at row i1, ties to the larger row as
// LAPACK's scan) and, for the inexact key, the runner-up m2 that ng_near_tie needs.
__device__ __forceinline__ void ng_track(T x, int i, R &m1, R &m2, int &i1) {
    const R v = ng_track_key<T>::of(x);
    if (!EXACT) m2 = fmax(m2, fmin(v, m1));
    if (v >= m1) { m1 = v; i1 = i; }
}

// The group's argmax of (key, packed index) by a butterfly; every lane of the warp calls it.
__device__ __forceinline__ void ng_group_argmax(R &best, int &idx) {
#pragma unroll
    for (int off = W / 2; off > 0; off >>= 1) {
        const R ov = __shfl_xor_sync(0xffffffffu, best, off, W);
        const int oi = __shfl_xor_sync(0xffffffffu, idx, off, W);
        if (ng_beats(ov, oi, best, idx)) { best = ov; idx = oi; }
    }
}

// Whether this lane sees a possible tie in the modulus with the winner s* (plane: the
// winner's lane), or s* outside the range where the squared key is safe.
__device__ __forceinline__ bool ng_near_tie(R best, int plane, int lane, bool trailing, R m1, R m2) {
    if (!(best >= ng_near<R>::lo && best < ng_inf<R>())) return true;
    const R thr = best * ng_near<R>::below;
    return trailing && ((lane != plane && m1 >= thr) || m2 >= thr);
}

// Staging between global and shared memory, element e of the block's matrices (matrix
// e / N^2, column-major in it; column stride LS in shared memory) by thread e mod (MPB W),
// coalesced where the matrices are contiguous. A full block loads in unrolled chunks, so
// that several of a thread's loads are in flight at once.
constexpr int NT = MPB * W, TOTAL = MPB * N * N, PER = (TOTAL + NT - 1) / NT;
// Loads in flight per thread: 32 bytes' worth for n <= 16, where the loads are much of the
// time; one beyond, where the factorisation is, and registers are worth more.
constexpr int CHUNK_MAX = N <= 16 ? 32 / (int)sizeof(T) : 1, CHUNK = PER < CHUNK_MAX ? PER : CHUNK_MAX;
__device__ __forceinline__ T *ng_global_at(const ng_batch<T> &A, ng_i64 lda, ng_i64 first, int e) {
    const int r = e % (N * N);
    return A.matrix(first + e / (N * N)) + r % N + (ng_i64)(r / N) * lda;
}
__device__ __forceinline__ int ng_shared_at(int e) {
    const int r = e % (N * N);
    return e / (N * N) * N * LS + r / N * LS + r % N;
}
__device__ __forceinline__ void ng_stage_in(T *s, const ng_batch<T> &A, ng_i64 lda, ng_i64 first, int nmat) {
    // Opaque to the compiler, so that the addresses are not hoisted out of the kernel's loop
    // over blocks of matrices, to live (PER registers and more) through the factorisation.
    int tid = threadIdx.x;
    asm volatile("" : "+r"(tid));
    if (nmat == MPB) {
#pragma unroll 1
        for (int t0 = 0; t0 < PER; t0 += CHUNK) {
            T v[CHUNK];
#pragma unroll
            for (int t = 0; t < CHUNK; ++t) {
                const int e = tid + (t0 + t) * NT;
                v[t] = t0 + t < PER && e < TOTAL ? *ng_global_at(A, lda, first, e) : ng_zero<T>();
            }
#pragma unroll
            for (int t = 0; t < CHUNK; ++t) {
                const int e = tid + (t0 + t) * NT;
                if (t0 + t < PER && e < TOTAL) s[ng_shared_at(e)] = v[t];
            }
        }
    } else {
        for (int e = tid; e < nmat * N * N; e += NT) s[ng_shared_at(e)] = *ng_global_at(A, lda, first, e);
    }
}
// Stores need no unrolling to overlap; a rolled loop also keeps the loads' addresses from
// living through the factorisation.
__device__ __forceinline__ void ng_stage_out(const T *s, const ng_batch<T> &A, ng_i64 lda, ng_i64 first, int nmat) {
#pragma unroll 1
    for (int e = threadIdx.x; e < nmat * N * N; e += NT) *ng_global_at(A, lda, first, e) = s[ng_shared_at(e)];
}

// Shared memory: MPB matrices (column stride LS), then MPB multiplier columns (stride LB,
// odd, so that the groups' broadcasts fall in different banks).
extern "C" __global__ void NG_WARP_BOUNDS NG_CAT(getrf_warp_, NG_SUFFIX)(
    ng_batch<T> A, ng_i64 lda, int *ipiv, int *jpiv, int *info, ng_i64 batch, int mode) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    T *s = reinterpret_cast<T *>(ng_smem_raw);
    T *lbuf = s + MPB * N * LS;
    const int tid = threadIdx.x, seg = tid / W, lane = tid % W;
    T *mine = s + seg * N * LS;
    T *lb = lbuf + seg * LB;
    for (ng_i64 first = (ng_i64)blockIdx.x * MPB; first < batch; first += (ng_i64)gridDim.x * MPB) {
        const int nmat = (int)min((ng_i64)MPB, batch - first);
        ng_stage_in(s, A, lda, first, nmat);
        __syncthreads();
        // A group past the batch's end (the last block's) only takes part in the shuffles.
        const bool has = seg < nmat && lane < N;
        T a[N];
#pragma unroll
        for (int i = 0; i < N; ++i) a[i] = has ? mine[lane * LS + i] : ng_zero<T>();
        int pos = lane, my_ip = lane + 1, my_jp = lane + 1, inf = 0;
        bool nonfinite = false, done = seg >= nmat;
        R smin = ng_lamch<R>::smlnum, m1 = R(-1), m2 = R(-1);
        int i1 = 0;
#pragma unroll
        for (int i = 0; i < N; ++i) ng_track(a[i], i, m1, m2, i1);
#pragma unroll
        for (int k = 0; k < N; ++k) {
            // The search: each trailing column's maximum is known (tracked by the last
            // update), so one butterfly on (key, row, column position, lane) finds the pivot.
            const bool trailing = has && pos >= k;
            R best = trailing ? m1 : R(-1);
            int idx = (i1 << 10) | (pos << 5) | lane;
            ng_group_argmax(best, idx);
            if (!EXACT) {
                const bool near = has && !done && ng_near_tie(best, idx & 31, lane, trailing, m1, m2);
                // Warp-uniform: every group searches the modulus, which picks the same element
                // where the squared key had no near-tie.
                if (__any_sync(0xffffffffu, near)) {
                    // Rare: a rolled loop over the trailing column, copied to the lane's own
                    // column of shared memory (free until the final store), keeps hypot's
                    // registers out of the unrolled kernel.
                    T *col = mine + lane * LS;
                    best = R(-1);
                    int ei = k;
                    if (trailing) {
#pragma unroll
                        for (int i = k; i < N; ++i) col[i] = a[i];
#pragma unroll 1
                        for (int i = k; i < N; ++i) {
                            const R v = ng_key(col[i]);
                            if (v >= best) { best = v; ei = i; }
                        }
                    }
                    idx = (ei << 10) | (pos << 5) | lane;
                    ng_group_argmax(best, idx);
                }
            }
            const int q = idx >> 10, p = (idx >> 5) & 31, plane = idx & 31;
            // The exact search ran wherever best may be 0, so best == 0 means a zero block.
            if (!done && mode == 1 && best == R(0)) {
                done = true;
                if (!nonfinite) inf = k + 1;
            }
            // Rows k and q swap in every column, a select on the unrolled row index; u picks
            // up a[q], the column's entry of the pivot row.
            const int qq = done ? k : q;
            T u = a[k];
#pragma unroll
            for (int i = k + 1; i < N; ++i) {
                const bool sw = i == qq;
                const T t = a[i];
                a[i] = sw ? a[k] : t;
                u = sw ? t : u;
            }
            a[k] = u;
            // Every lane of the warp shuffles, whatever its group decided.
            T piv = ng_shfl(u, plane, W);
            if (!done) {
                if (k == 0) smin = ng_smin(N, ng_key(piv));
                if (pos == k) pos = p;
                else if (pos == p) pos = k;
                if (lane == k) { my_ip = q + 1; my_jp = p + 1; }
                bool perturbed;
                piv = ng_check_pivot(piv, k, mode, smin, inf, nonfinite, perturbed);
                if (perturbed && lane == plane) a[k] = piv;
            }
            if (k + 1 < N) {
                // The pivot column goes through shared memory: lane i divides entry i (the
                // divisions in parallel), then every lane reads the multipliers back.
                if (!done && lane == plane) {
#pragma unroll
                    for (int i = k + 1; i < N; ++i) lb[i] = a[i];
                }
                __syncwarp();
                if (!done && lane > k && lane < N) lb[lane] = ng_div(lb[lane], piv);
                __syncwarp();
                // The rank-1 update, tracking each column's maximum for the next search.
                m1 = R(-1);
                m2 = R(-1);
                i1 = k + 1;
                if (!done && lane < N && pos >= k) {
                    if (pos == k) {
#pragma unroll
                        for (int i = k + 1; i < N; ++i) a[i] = lb[i];
                    } else {
                        const T uk = a[k];
#pragma unroll
                        for (int i = k + 1; i < N; ++i) {
                            a[i] = ng_fma(ng_neg(lb[i]), uk, a[i]);
                            ng_track(a[i], i, m1, m2, i1);
                        }
                    }
                }
                __syncwarp();
            }
        }
        __syncwarp();  // the exact search's reads of the lanes' columns are done
        if (has) {
#pragma unroll
            for (int i = 0; i < N; ++i) mine[pos * LS + i] = a[i];
            const ng_i64 at = (first + seg) * N + lane;
            ipiv[at] = my_ip;
            jpiv[at] = my_jp;
            if (lane == 0) info[first + seg] = inf;
        }
        __syncthreads();
        ng_stage_out(s, A, lda, first, nmat);
        __syncthreads();
    }
}
#endif

#if defined(NG_BLOCK)
constexpr int NT = NG_NT, NW = NT / 32;

// The block's argmax of (best, idx); every thread returns with the winner. Thread 0 also
// publishes the winning element's value (read before anything moves it) in *piv.
__device__ __forceinline__ void ng_block_argmax(R &best, int &idx, const T *M, ng_i64 ld, int n, R *rv, int *ri, T *piv) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const R ov = __shfl_xor_sync(0xffffffffu, best, off);
        const int oi = __shfl_xor_sync(0xffffffffu, idx, off);
        if (ng_beats(ov, oi, best, idx)) { best = ov; idx = oi; }
    }
    if (lane == 0) { rv[warp] = best; ri[warp] = idx; }
    __syncthreads();
    if (warp == 0) {
        best = lane < NW ? rv[lane] : R(-1);
        idx = lane < NW ? ri[lane] : -1;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            const R ov = __shfl_xor_sync(0xffffffffu, best, off);
            const int oi = __shfl_xor_sync(0xffffffffu, idx, off);
            if (ng_beats(ov, oi, best, idx)) { best = ov; idx = oi; }
        }
        if (lane == 0) {
            rv[NW] = best;
            ri[NW] = idx;
            *piv = M[idx / n + (ng_i64)(idx % n) * ld];
        }
    }
    __syncthreads();
    best = rv[NW];
    idx = ri[NW];
}

// n <= 46340 (the host checks), so packed indices i * n + j fit an int.
extern "C" __global__ void __launch_bounds__(NT) NG_CAT(getrf_block_, NG_SUFFIX)(
    int n, ng_batch<T> A, ng_i64 lda, int *ipiv, int *jpiv, int *info, ng_i64 batch, int mode) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    __shared__ R rv[NW + 1];
    __shared__ int ri[NW + 1];
    __shared__ T sh_piv;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    for (ng_i64 mat = blockIdx.x; mat < batch; mat += gridDim.x) {
        T *g = A.matrix(mat);
#if NG_SMEM
        const ng_i64 ld = n | 1;
        T *M = reinterpret_cast<T *>(ng_smem_raw);
        for (int j = warp; j < n; j += NW)
            for (int i = lane; i < n; i += 32) M[i + j * ld] = g[i + j * lda];
        __syncthreads();
#else
        const ng_i64 ld = lda;
        T *M = g;
#endif
        int *ip = ipiv + mat * n, *jp = jpiv + mat * n;
        R best = R(-1);
        int idx = -1;
        for (int j = warp; j < n; j += NW)
            for (int i = lane; i < n; i += 32) {
                const R v = ng_key(M[i + j * ld]);
                if (ng_beats(v, i * n + j, best, idx)) { best = v; idx = i * n + j; }
            }
        int inf = 0;
        bool nonfinite = false;
        R smin = ng_lamch<R>::smlnum;
        for (int k = 0; k < n; ++k) {
            ng_block_argmax(best, idx, M, ld, n, rv, ri, &sh_piv);
            if (k == 0) smin = ng_smin(n, best);
            if (mode == 1 && best == R(0)) {
                if (!nonfinite) inf = k + 1;
                for (int j = k + tid; j < n; j += NT) { ip[j] = j + 1; jp[j] = j + 1; }
                break;
            }
            const int q = idx / n, p = idx % n;
            if (q != k)
                for (int j = tid; j < n; j += NT) {
                    const T t = M[k + j * ld];
                    M[k + j * ld] = M[q + j * ld];
                    M[q + j * ld] = t;
                }
            __syncthreads();
            bool perturbed;
            const T piv = ng_check_pivot(sh_piv, k, mode, smin, inf, nonfinite, perturbed);
            if (tid == 0) { ip[k] = q + 1; jp[k] = p + 1; }
            for (int i = tid; i < n; i += NT) {
                T x = M[i + k * ld];
                if (p != k) {
                    const T y = M[i + p * ld];
                    M[i + p * ld] = x;
                    x = y;
                }
                M[i + k * ld] = i == k ? piv : i > k ? ng_div(x, piv) : x;
            }
            __syncthreads();
            best = R(-1);
            idx = -1;
            for (int j = k + 1 + warp; j < n; j += NW) {
                const T u = M[k + j * ld];
                for (int i = k + 1 + lane; i < n; i += 32) {
                    const T v = ng_fma(ng_neg(M[i + k * ld]), u, M[i + j * ld]);
                    M[i + j * ld] = v;
                    const R kv = ng_key(v);
                    if (ng_beats(kv, i * n + j, best, idx)) { best = kv; idx = i * n + j; }
                }
            }
        }
        if (tid == 0) info[mat] = inf;
#if NG_SMEM
        __syncthreads();
        for (int j = warp; j < n; j += NW)
            for (int i = lane; i < n; i += 32) g[i + j * lda] = M[i + j * ld];
#endif
        __syncthreads();
    }
}
#endif

#if defined(NG_GETRS)
// x[k] <-> x[piv[k] - 1]; an out-of-range pivot (not from getrf) is no interchange.
__device__ __forceinline__ void ng_swap_row(T *x, const int *piv, ng_i64 k, ng_i64 n, ng_i64 ldx) {
    const ng_i64 p = (ng_i64)piv[k] - 1;
    if (p >= 0 && p < n && p != k) {
        const T t = x[k * ldx];
        x[k * ldx] = x[p * ldx];
        x[p * ldx] = t;
    }
}

__device__ __forceinline__ T ng_opv(T v, int trans) { return trans == 2 ? ng_conj(v) : v; }

// op(A_i) X = B_i for right-hand side r of matrix i, thread t = i * nrhs + r; skip (gesv's
// info) non-null: matrices with skip[i] != 0 are left alone.
extern "C" __global__ void NG_CAT(getrs_, NG_SUFFIX)(
    int trans, ng_i64 n, ng_i64 nrhs, ng_batch<const T> A, ng_i64 lda, const int *ipiv, const int *jpiv,
    ng_batch<T> B, ng_i64 ldb, const int *skip, ng_i64 batch) {
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < batch * nrhs; t += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 i = t / nrhs, r = t % nrhs;
        if (skip && skip[i] != 0) continue;
        const T *a = A.matrix(i);
        T *x = B.matrix(i) + r * ldb;
        const int *ip = ipiv + i * n, *jp = jpiv + i * n;
        if (trans == 0) {
            for (ng_i64 k = 0; k < n; ++k) ng_swap_row(x, ip, k, n, 1);
            for (ng_i64 k = 0; k < n; ++k) {
                const T xk = x[k];
                for (ng_i64 m = k + 1; m < n; ++m) x[m] = ng_fma(ng_neg(a[m + k * lda]), xk, x[m]);
            }
            for (ng_i64 k = n - 1; k >= 0; --k) {
                const T xk = ng_div(x[k], a[k + k * lda]);
                x[k] = xk;
                for (ng_i64 m = 0; m < k; ++m) x[m] = ng_fma(ng_neg(a[m + k * lda]), xk, x[m]);
            }
            for (ng_i64 k = n - 1; k >= 0; --k) ng_swap_row(x, jp, k, n, 1);
        } else {
            for (ng_i64 k = 0; k < n; ++k) ng_swap_row(x, jp, k, n, 1);
            for (ng_i64 k = 0; k < n; ++k) {
                T s = x[k];
                for (ng_i64 m = 0; m < k; ++m) s = ng_fma(ng_neg(ng_opv(a[m + k * lda], trans)), x[m], s);
                x[k] = ng_div(s, ng_opv(a[k + k * lda], trans));
            }
            for (ng_i64 k = n - 1; k >= 0; --k) {
                T s = x[k];
                for (ng_i64 m = k + 1; m < n; ++m) s = ng_fma(ng_neg(ng_opv(a[m + k * lda], trans)), x[m], s);
                x[k] = s;
            }
            for (ng_i64 k = n - 1; k >= 0; --k) ng_swap_row(x, ip, k, n, 1);
        }
    }
}
#endif

#if defined(NG_GESC2)
__device__ __forceinline__ R ng_abs1(float a) { return fabsf(a); }
__device__ __forceinline__ R ng_abs1(double a) { return fabs(a); }
template <typename X>
__device__ __forceinline__ R ng_abs1(ng_complex<X> a) { return ng_abs(a.re) + ng_abs(a.im); }

__device__ __forceinline__ void ng_swap_at(T *x, const int *piv, ng_i64 k, ng_i64 n) {
    const ng_i64 p = (ng_i64)piv[k] - 1;
    if (p >= 0 && p < n && p != k) {
        const T t = x[k];
        x[k] = x[p];
        x[p] = t;
    }
}

// xGESC2 for matrix i, thread i: A_i x = scale_i * rhs_i, rhs overwritten by x.
extern "C" __global__ void NG_CAT(gesc2_, NG_SUFFIX)(
    ng_i64 n, ng_batch<const T> A, ng_i64 lda, ng_batch<T> RHS, const int *ipiv, const int *jpiv, R *scale,
    ng_i64 batch) {
    for (ng_i64 i = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; i < batch; i += (ng_i64)gridDim.x * blockDim.x) {
        const T *a = A.matrix(i);
        T *x = RHS.matrix(i);
        const int *ip = ipiv + i * n, *jp = jpiv + i * n;
        for (ng_i64 k = 0; k < n - 1; ++k) ng_swap_at(x, ip, k, n);
        for (ng_i64 c = 0; c < n - 1; ++c)
            for (ng_i64 j = c + 1; j < n; ++j) x[j] = ng_fma(ng_neg(a[j + c * lda]), x[c], x[j]);
        // IxAMAX: the first index of the largest |x| (complex: |re| + |im|).
        ng_i64 imax = 0;
        R xmax = ng_abs1(x[0]);
        for (ng_i64 j = 1; j < n; ++j)
            if (ng_abs1(x[j]) > xmax) { xmax = ng_abs1(x[j]); imax = j; }
        R sc = R(1);
        if (R(2) * ng_lamch<R>::smlnum * ng_abs(x[imax]) > ng_abs(a[(n - 1) + (n - 1) * lda])) {
            const R temp = (R(1) / R(2)) / ng_abs(x[imax]);
            for (ng_i64 j = 0; j < n; ++j) x[j] = ng_mul(x[j], ng_from_real_t<T>::of(temp));
            sc = temp;
        }
        for (ng_i64 r = n - 1; r >= 0; --r) {
            const T temp = ng_div(ng_from_real_t<T>::of(R(1)), a[r + r * lda]);
            T xr = ng_mul(x[r], temp);
            for (ng_i64 j = r + 1; j < n; ++j) xr = ng_fma(ng_neg(x[j]), ng_mul(a[r + j * lda], temp), xr);
            x[r] = xr;
        }
        for (ng_i64 k = n - 2; k >= 0; --k) ng_swap_at(x, jp, k, n);
        scale[i] = sc;
    }
}
#endif
