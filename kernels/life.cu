// LiFE: the sparse Tucker products of M = Phi x1 D and the vector steps of SBBNNLS (the host
// side is src/life/cuda.rs). D is ntheta x natoms (column-major, ldd), Y ntheta x nvox (ldy).
//
// Kernels (T = NG_T):
//   life_dsc_<T>     Y := beta*Y + M*w - B: a warp per voxel (NG_WARPS per block) over the
//                    voxel's entries in the plan's order (by atom within a voxel); the lanes
//                    load 32 entries at once (coefficient phi*w[f] and atom), then take them
//                    one by one from the shuffles, adding the coefficients of a run of one
//                    atom, and each run's D[:, a] into NG_K directions per lane in registers
//                    (a tile of 32*NG_K directions per pass). Runs whose coefficient is 0 are
//                    skipped (w is sparse once SBBNNLS has run a while). B may be NULL.
//   life_wc_part_<T> WC's terms part[j] = phi_j*<D[:, a_j], Y[:, v]>: a warp per voxel, Y[:, v]
//                    in registers (NG_K directions per lane and pass), each run of one atom's
//                    dot product over the lanes reduced by a butterfly; the lane of an entry keeps
//                    its sum and the warp writes 32 terms at once (passes beyond the first add
//                    to them). Y is read once per voxel, not once per entry.
//   life_wc_sum_<T>  w := beta*w + M^T*Y: a warp per fibre sums its terms (perm: their places),
//                    each lane a strided part, then a butterfly.
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

// acc[k] += c*D[t, a] for this lane's directions t = t0 + lane + 32k of the pass.
__device__ __forceinline__ void life_axpy(T (&acc)[NG_K], T c, const T *__restrict__ d, int t0, int lane, int ntheta)
{
#pragma unroll
    for (int k = 0; k < NG_K; k++) {
        const int t = t0 + lane + 32 * k;
        if (t < ntheta) {
            acc[k] = fma(c, d[t], acc[k]);
        }
    }
}

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
        // The entries of one atom are adjacent (the plan's order): their coefficients are
        // added, then D[:, a] is read once for the run. Runs of coefficient 0 are skipped.
        T coef = T(0);
        int run = -1;
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
                if (aq != run) {
                    if (coef != T(0)) {
                        life_axpy(acc, coef, D + (ng_i64)run * ldd, t0, lane, ntheta);
                    }
                    run = aq;
                    coef = T(0);
                }
                coef += cq;
            }
        }
        if (coef != T(0)) {
            life_axpy(acc, coef, D + (ng_i64)run * ldd, t0, lane, ntheta);
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

extern "C" __global__ void __launch_bounds__(32 * NG_WARPS) NG_KERNEL(life_wc_part)(
    ng_i64 nvox, int ntheta, const ng_i64 *__restrict__ vox_ptr, const int *__restrict__ atom, const T *__restrict__ val,
    const T *__restrict__ D, ng_i64 ldd, const T *__restrict__ Y, ng_i64 ldy, T *__restrict__ part)
{
    const ng_i64 v = (ng_i64)blockIdx.x * NG_WARPS + threadIdx.x / 32;
    if (v >= nvox) {
        return;  // whole warps: the shuffles below see full warps
    }
    const int lane = threadIdx.x & 31;
    const ng_i64 s = vox_ptr[v], e = vox_ptr[v + 1];
    const T *y = Y + v * ldy;
    if (ntheta == 0) {
        // No directions: every term is an empty sum (the passes below would not write it).
        for (ng_i64 j = s + lane; j < e; j += 32) {
            part[j] = T(0);
        }
        return;
    }
    for (int t0 = 0; t0 < ntheta; t0 += 32 * NG_K) {
        // This pass's directions of Y[:, v], read once for all the voxel's entries.
        T yr[NG_K];
#pragma unroll
        for (int k = 0; k < NG_K; k++) {
            const int t = t0 + lane + 32 * k;
            yr[k] = t < ntheta ? y[t] : T(0);
        }
        // The current run's atom and its dot product with this pass's directions.
        int prev = -1;
        T p = T(0);
        for (ng_i64 j0 = s; j0 < e; j0 += 32) {
            const ng_i64 j = j0 + lane;
            int a = 0;
            if (j < e) {
                a = atom[j];
            }
            const int cnt = (int)min((ng_i64)32, e - j0);
            T mine = T(0);
            for (int q = 0; q < cnt; q++) {
                const int aq = __shfl_sync(NG_FULL, a, q);
                // One dot product per run of entries of the same atom (adjacent in the plan).
                if (aq != prev) {
                    const T *d = D + (ng_i64)aq * ldd;
                    p = T(0);
#pragma unroll
                    for (int k = 0; k < NG_K; k++) {
                        const int t = t0 + lane + 32 * k;
                        if (t < ntheta) {
                            p = fma(d[t], yr[k], p);
                        }
                    }
                    // A butterfly: every lane ends with the same sum, in a fixed order.
#pragma unroll
                    for (int o = 16; o > 0; o >>= 1) {
                        p += __shfl_xor_sync(NG_FULL, p, o);
                    }
                    prev = aq;
                }
                if (lane == q) {
                    mine = p;
                }
            }
            if (j < e) {
                part[j] = (t0 == 0 ? T(0) : part[j]) + val[j] * mine;
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(32 * NG_WARPS) NG_KERNEL(life_wc_sum)(
    ng_i64 nfib, const ng_i64 *__restrict__ fib_ptr, const ng_i64 *__restrict__ perm, const T *__restrict__ part, T beta,
    T *__restrict__ w)
{
    const ng_i64 f = (ng_i64)blockIdx.x * NG_WARPS + threadIdx.x / 32;
    if (f >= nfib) {
        return;  // whole warps
    }
    const int lane = threadIdx.x & 31;
    T acc = T(0);
    for (ng_i64 i = fib_ptr[f] + lane; i < fib_ptr[f + 1]; i += 32) {
        acc += part[perm[i]];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        acc += __shfl_xor_sync(NG_FULL, acc, o);
    }
    if (lane == 0) {
        w[f] = beta == T(0) ? acc : beta * w[f] + acc;
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
