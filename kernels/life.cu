// LiFE: the sparse Tucker products of M = Phi x1 D and the vector steps of SBBNNLS (the host
// side is src/life/cuda.rs). D is ntheta x natoms (column-major, ldd), Y ntheta x nvox (ldy).
//
// Kernels (T = NG_T):
//   life_dsc_<T>     Y := beta*Y + M*w - B: a warp per voxel (NG_WARPS per block) over the
//                    voxel's entries in the plan's order; the lanes load 32 entries at once
//                    (coefficient phi*w[f] and atom), then take them one by one from the
//                    shuffles, each lane accumulating NG_K directions in registers (a tile of
//                    32*NG_K directions per pass). Entries whose coefficient is 0 are skipped
//                    (w is sparse once SBBNNLS has run a while). B may be NULL.
//   life_wc_<T>      w := beta*w + M^T*Y: a warp per fibre; each lane keeps a partial of
//                    sum phi*<D[:, a], Y[:, v]> over its directions, reduced by a butterfly at
//                    the end.
//   life_project_<T> gt := g where w > 0 or g < 0, else 0.
//   life_step_<T>    w := max(w - alpha*gt, 0) (gt not read when alpha = 0).
//   life_sumsq_<T>   partial sums of squares, one per block of a fixed grid (grid-stride), for
//                    the host to add in order.
//
// No atomics: each output element is written by one warp or thread, and every sum runs in an
// order fixed by the plan and the launch shape, so results are bitwise reproducible.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)
#define NG_KERNEL(name) NG_CAT(name, NG_CAT(_, NG_SUFFIX))

typedef NG_T T;

#define NG_FULL 0xffffffffu
// Warps per block of the products; the host side's WARPS.
#define NG_WARPS 4
// Directions per lane per pass of life_dsc.
#define NG_K 4
// Threads per block of the vector kernels; the host side's THREADS.
#define NG_THREADS 256

extern "C" __global__ void __launch_bounds__(32 * NG_WARPS) NG_KERNEL(life_dsc)(
    ng_i64 nvox, int ntheta, const ng_i64 *__restrict__ vox_ptr, const int *__restrict__ atom, const int *__restrict__ fib,
    const T *__restrict__ val, const T *__restrict__ D, ng_i64 ldd, const T *__restrict__ w, T beta, const T *__restrict__ B, ng_i64 ldb,
    T *__restrict__ Y, ng_i64 ldy)
{
    const ng_i64 v = (ng_i64)blockIdx.x * NG_WARPS + threadIdx.x / 32;
    if (v >= nvox) {
        return;  // whole warps: the shuffles below see full warps
    }
    const int lane = threadIdx.x & 31;
    const ng_i64 s = vox_ptr[v], e = vox_ptr[v + 1];
    for (int t0 = 0; t0 < ntheta; t0 += 32 * NG_K) {
        T acc[NG_K];
#pragma unroll
        for (int k = 0; k < NG_K; k++) {
            acc[k] = T(0);
        }
        for (ng_i64 j0 = s; j0 < e; j0 += 32) {
            const ng_i64 j = j0 + lane;
            T c = T(0);
            int a = 0;
            if (j < e) {
                c = val[j] * w[fib[j]];
                a = atom[j];
            }
            const int cnt = (int)min((ng_i64)32, e - j0);
            for (int q = 0; q < cnt; q++) {
                const T cq = __shfl_sync(NG_FULL, c, q);
                const int aq = __shfl_sync(NG_FULL, a, q);
                if (cq == T(0)) {
                    continue;
                }
                const T *d = D + (ng_i64)aq * ldd;
#pragma unroll
                for (int k = 0; k < NG_K; k++) {
                    const int t = t0 + lane + 32 * k;
                    if (t < ntheta) {
                        acc[k] = fma(cq, d[t], acc[k]);
                    }
                }
            }
        }
#pragma unroll
        for (int k = 0; k < NG_K; k++) {
            const int t = t0 + lane + 32 * k;
            if (t < ntheta) {
                T y = acc[k];
                if (B != nullptr) {
                    y -= B[t + v * ldb];
                }
                T *out = Y + t + v * ldy;
                *out = beta == T(0) ? y : beta * *out + y;
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(32 * NG_WARPS) NG_KERNEL(life_wc)(
    ng_i64 nfib, int ntheta, const ng_i64 *__restrict__ fib_ptr, const int *__restrict__ atom, const int *__restrict__ vox,
    const T *__restrict__ val, const T *__restrict__ D, ng_i64 ldd, const T *__restrict__ Y, ng_i64 ldy, T beta, T *__restrict__ w)
{
    const ng_i64 f = (ng_i64)blockIdx.x * NG_WARPS + threadIdx.x / 32;
    if (f >= nfib) {
        return;  // whole warps
    }
    const int lane = threadIdx.x & 31;
    const ng_i64 s = fib_ptr[f], e = fib_ptr[f + 1];
    T part = T(0);
    for (ng_i64 j0 = s; j0 < e; j0 += 32) {
        const ng_i64 j = j0 + lane;
        T c = T(0);
        int a = 0, vx = 0;
        if (j < e) {
            c = val[j];
            a = atom[j];
            vx = vox[j];
        }
        const int cnt = (int)min((ng_i64)32, e - j0);
        for (int q = 0; q < cnt; q++) {
            const T cq = __shfl_sync(NG_FULL, c, q);
            const int aq = __shfl_sync(NG_FULL, a, q);
            const int vq = __shfl_sync(NG_FULL, vx, q);
            if (cq == T(0)) {
                continue;
            }
            const T *d = D + (ng_i64)aq * ldd;
            const T *y = Y + (ng_i64)vq * ldy;
            T dot = T(0);
            for (int t = lane; t < ntheta; t += 32) {
                dot = fma(d[t], y[t], dot);
            }
            part = fma(cq, dot, part);
        }
    }
    // A butterfly: every lane adds the same pairs (addition commutes), in a fixed order.
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        part += __shfl_xor_sync(NG_FULL, part, o);
    }
    if (lane == 0) {
        w[f] = beta == T(0) ? part : beta * w[f] + part;
    }
}

extern "C" __global__ void NG_KERNEL(life_project)(ng_i64 n, const T *__restrict__ w, const T *__restrict__ g, T *__restrict__ gt)
{
    for (ng_i64 i = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ng_i64)gridDim.x * blockDim.x) {
        const T gi = g[i];
        gt[i] = (w[i] > T(0) || gi < T(0)) ? gi : T(0);
    }
}

extern "C" __global__ void NG_KERNEL(life_step)(ng_i64 n, T alpha, const T *__restrict__ gt, T *__restrict__ w)
{
    for (ng_i64 i = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ng_i64)gridDim.x * blockDim.x) {
        T x = w[i];
        if (alpha != T(0)) {
            x -= alpha * gt[i];
        }
        w[i] = x > T(0) ? x : T(0);
    }
}

extern "C" __global__ void __launch_bounds__(NG_THREADS) NG_KERNEL(life_sumsq)(ng_i64 n, const T *__restrict__ x, T *__restrict__ partial)
{
    __shared__ T s[NG_THREADS];
    T acc = T(0);
    for (ng_i64 i = (ng_i64)blockIdx.x * NG_THREADS + threadIdx.x; i < n; i += (ng_i64)gridDim.x * NG_THREADS) {
        acc = fma(x[i], x[i], acc);
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int h = NG_THREADS / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) {
            s[threadIdx.x] += s[threadIdx.x + h];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
    }
}
