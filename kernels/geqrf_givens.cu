// Batched QR by Givens rotations on adjacent rows (the host side is src/geqrf_givens/cuda.rs).
//
// Kernels, specialised by NVRTC at run time through -D defines:
//   geqrf_<T>        NG_G threads per matrix (a power of two <= 32: NG_MPB matrices per block,
//                    synchronised per warp; or a whole block: NG_MPB = 1), m and n at run time.
//                    The matrix sits in shared memory (NG_SMEM >= 1) and its cosines too
//                    (NG_SMEM = 2), or they are worked on in place in global memory. Sameh–Kuck schedule: at step t every column j generates
//                    its rotation G(i, j), i = m - t + 2j, in parallel (one thread per j), then
//                    the threads apply the step's rotations column by column (one thread per
//                    column). The step's rotations touch disjoint row pairs, and the schedule
//                    has the serial order's dependency graph, so every rotation sees the same
//                    inputs as in the CPU backend's serial loop.
//   ormqr_<T>        a thread per vector of C (a column for side L, a row for side R): the
//                    rotations replayed in the order op(Q) needs.
//   orgqr_<T>        a block per matrix, in place as LAPACK xORG2R: for j = k-1 .. 0, the
//                    columns right of j take G(., j)^H (a thread per column), then column j is
//                    built from its own sines.
//   gels_solve_<T>   a thread per (problem, right-hand side) after geqrf: R's diagonal checked
//                    (an exact zero: info, and B untouched), B := Q^H B, back substitution.
// Rotation: LAPACK xLARTG with safe scaling (3.10, as revised), [c s; -conj(s) c][f; g] = [r; 0].
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

typedef NG_T T;
typedef typename ng_real_of<T>::type R;

template <typename X> struct ng_safe;
template <> struct ng_safe<float> {
    static constexpr float safmin = 0x1p-126f, safmax = 0x1p126f;
};
template <> struct ng_safe<double> {
    static constexpr double safmin = 0x1p-1022, safmax = 0x1p1022;
};

__device__ __forceinline__ R ng_sqrt(R x) { return sqrt(x); }
__device__ __forceinline__ R ng_rmax(R a, R b) { return ng_max(a, b); }
__device__ __forceinline__ R ng_rmin(R a, R b) { return a < b ? a : b; }

// xLARTG for real f, g: (c, s, r).
__device__ __forceinline__ void ng_lartg_real(R f, R g, R &c, R &s, R &r) {
    const R safmin = ng_safe<R>::safmin, safmax = ng_safe<R>::safmax;
    const R rtmin = ng_sqrt(safmin), rtmax = ng_sqrt(safmax / R(2));
    const R f1 = ng_abs(f), g1 = ng_abs(g);
    if (g == R(0)) {
        c = R(1); s = R(0); r = f;
    } else if (f == R(0)) {
        c = R(0); s = copysign(R(1), g); r = g1;
    } else if (f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax) {
        const R d = ng_sqrt(f * f + g * g);
        r = copysign(d, f);
        c = f1 / d;
        s = g / r;
    } else {
        const R u = ng_rmin(safmax, ng_rmax(safmin, ng_rmax(f1, g1)));
        const R fs = f / u, gs = g / u;
        const R d = ng_sqrt(fs * fs + gs * gs);
        const R rr = copysign(d, f);
        c = ng_abs(fs) / d;
        s = gs / rr;
        r = rr * u;
    }
}

typedef ng_complex<R> C;
__device__ __forceinline__ C ng_cdiv(C a, R d) { return C{a.re / d, a.im / d}; }
__device__ __forceinline__ C ng_cmul(C a, C b) { return C{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
__device__ __forceinline__ R ng_abssq(C a) { return a.re * a.re + a.im * a.im; }

// xLARTG for complex f, g (zlartg.f90's branches).
__device__ __forceinline__ void ng_lartg_complex(C f, C g, R &c, C &s, C &r) {
    const R safmin = ng_safe<R>::safmin, safmax = ng_safe<R>::safmax;
    const R rtmin = ng_sqrt(safmin);
    if (g.re == R(0) && g.im == R(0)) {
        c = R(1); s = C{R(0), R(0)}; r = f;
        return;
    }
    if (f.re == R(0) && f.im == R(0)) {
        c = R(0);
        R d;
        if (g.re == R(0)) {
            d = ng_abs(g.im);
        } else if (g.im == R(0)) {
            d = ng_abs(g.re);
        } else {
            const R g1 = ng_rmax(ng_abs(g.re), ng_abs(g.im));
            if (g1 > rtmin && g1 < ng_sqrt(safmax / R(2))) {
                d = ng_sqrt(ng_abssq(g));
            } else {
                const R u = ng_rmin(safmax, ng_rmax(safmin, g1));
                const C gs = ng_cdiv(g, u);
                const R dd = ng_sqrt(ng_abssq(gs));
                s = ng_cdiv(ng_conj(gs), dd);
                r = C{dd * u, R(0)};
                return;
            }
        }
        s = ng_cdiv(ng_conj(g), d);
        r = C{d, R(0)};
        return;
    }
    const R f1 = ng_rmax(ng_abs(f.re), ng_abs(f.im)), g1 = ng_rmax(ng_abs(g.re), ng_abs(g.im));
    const R rtmax = ng_sqrt(safmax / R(4));
    C fs, gs;
    R f2, h2, u = R(1), w = R(1);
    if (f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax) {
        fs = f; gs = g;
        f2 = ng_abssq(f);
        h2 = f2 + ng_abssq(g);
    } else {
        u = ng_rmin(safmax, ng_rmax(safmin, ng_rmax(f1, g1)));
        gs = ng_cdiv(g, u);
        const R g2 = ng_abssq(gs);
        if (f1 / u < rtmin) {
            const R v = ng_rmin(safmax, ng_rmax(safmin, f1));
            w = v / u;
            fs = ng_cdiv(f, v);
            f2 = ng_abssq(fs);
            h2 = f2 * (w * w) + g2;
        } else {
            fs = ng_cdiv(f, u);
            f2 = ng_abssq(fs);
            h2 = f2 + g2;
        }
    }
    C rr, ss;
    R cc;
    if (f2 >= h2 * safmin) {
        cc = ng_sqrt(f2 / h2);
        rr = ng_cdiv(fs, cc);
        if (f2 > rtmin && h2 < rtmax * R(2))
            ss = ng_cmul(ng_cdiv(fs, ng_sqrt(f2)), ng_cdiv(ng_conj(gs), ng_sqrt(h2)));
        else
            ss = ng_cmul(ng_conj(gs), ng_cdiv(rr, h2));
    } else {
        const R d = ng_sqrt(f2 * h2);
        cc = f2 / d;
        rr = cc >= safmin ? ng_cdiv(fs, cc) : C{fs.re * (h2 / d), fs.im * (h2 / d)};
        ss = ng_cmul(ng_cdiv(fs, ng_sqrt(f2)), ng_cdiv(ng_conj(gs), ng_sqrt(h2)));
    }
    c = cc * w;
    s = ss;
    r = C{rr.re * u, rr.im * u};
}

__device__ __forceinline__ void ng_lartg(R f, R g, R &c, R &s, R &r) { ng_lartg_real(f, g, c, s, r); }
__device__ __forceinline__ void ng_lartg(C f, C g, R &c, C &s, C &r) { ng_lartg_complex(f, g, c, s, r); }

// [x; y] := [c s; -conj(s) c] [x; y] (LAPACK xROT).
__device__ __forceinline__ R ng_scale(R c, R x) { return c * x; }
__device__ __forceinline__ C ng_scale(R c, C x) { return C{c * x.re, c * x.im}; }

__device__ __forceinline__ void ng_rot(T &x, T &y, R c, T s) {
    const T nx = ng_fma(s, y, ng_scale(c, x));
    y = ng_fma(ng_neg(ng_conj(s)), x, ng_scale(c, y));
    x = nx;
}

#if defined(NG_GEQRF)
constexpr int G = NG_G, MPB = NG_MPB;

// A warp's segments run the same steps, so a warp barrier (over the lanes the block has)
// serves them all; a block per matrix needs the block's.
__device__ __forceinline__ void ng_group_sync() {
    if (G <= 32) __syncwarp(G * MPB >= 32 ? 0xffffffffu : (1u << (G * MPB)) - 1u);
    else __syncthreads();
}

// Shared memory per matrix: the step's sines (n) and cosines (n, in T slots), then
// (NG_SMEM >= 1) the matrix and (NG_SMEM = 2) its cosines, with leading dimension ldm (odd:
// the lanes of a step, one per column, hit distinct banks). What sits in shared memory goes
// out coalesced at the end; cosines in global memory are written as they come.
extern "C" __global__ void __launch_bounds__(G * MPB) NG_CAT(geqrf_, NG_SUFFIX)(
    int m, int n, ng_batch<T> A, ng_i64 lda, ng_batch<R> CS, ng_i64 ldcs, ng_i64 batch, int ldm) {
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    const int seg = threadIdx.x / G, g = threadIdx.x % G;
    const ng_i64 per = (ng_i64)2 * n * sizeof(T) + (ng_i64)ldm * n * ((NG_SMEM >= 1 ? sizeof(T) : 0) + (NG_SMEM == 2 ? sizeof(R) : 0));
    T *ss = reinterpret_cast<T *>(ng_smem_raw + seg * per);
    R *sc = reinterpret_cast<R *>(ss + n);
    // Threads per column in the application phase (a block with more threads than columns
    // splits each column's rotations, which touch disjoint rows).
    const int P = max(1, G / n);
    // Rotations exist for j < min(n, m - 1); step t holds j in [t - m + 1, (t - 1) / 2], the
    // last one (j = jend - 1, i = jend) at t = m + jend - 2.
    const int jend = min(n, m - 1), tend = jend > 0 ? m + jend - 2 : 0;
    for (ng_i64 mat = (ng_i64)blockIdx.x * MPB + seg; mat - seg < batch; mat += (ng_i64)gridDim.x * MPB) {
        const bool has = mat < batch;
        T *a = has ? A.matrix(mat) : nullptr;
        R *cs = has ? CS.matrix(mat) : nullptr;
#if NG_SMEM >= 1
        T *M = ss + 2 * n;
        const ng_i64 ld = ldm;
        if (has)
            for (int j = 0; j < n; ++j)
                for (int i = g; i < m; i += G) M[i + j * ld] = a[i + j * lda];
        ng_group_sync();
#else
        T *M = a;
        const ng_i64 ld = lda;
#endif
#if NG_SMEM == 2
        R *MC = reinterpret_cast<R *>(M + (ng_i64)ldm * n);
        const ng_i64 ldc = ldm;
#else
        R *MC = cs;
        const ng_i64 ldc = ldcs;
#endif
        for (int t = 1; t <= tend; ++t) {
            const int jlo = max(0, t - m + 1), jhi = min(jend - 1, (t - 1) / 2);
            if (has)
                for (int j = jlo + g; j <= jhi; j += G) {
                    const int i = m - t + 2 * j;
                    R c;
                    T s, r;
                    ng_lartg(M[i - 1 + j * ld], M[i + j * ld], c, s, r);
                    M[i - 1 + j * ld] = r;
                    M[i + j * ld] = s;
                    MC[i + j * ldc] = c;
                    ss[j] = s;
                    sc[j] = c;
                }
            ng_group_sync();
            if (has)
                for (int w = g; w < (n - jlo - 1) * P; w += G) {
                    const int col = jlo + 1 + w / P, last = min(jhi, col - 1);
                    for (int j = jlo + w % P; j <= last; j += P) {
                        const int i = m - t + 2 * j;
                        T x = M[i - 1 + col * ld], y = M[i + col * ld];
                        ng_rot(x, y, sc[j], ss[j]);
                        M[i - 1 + col * ld] = x;
                        M[i + col * ld] = y;
                    }
                }
            ng_group_sync();
        }
#if NG_SMEM >= 1
        if (has)
            for (int j = 0; j < n; ++j)
                for (int i = g; i < m; i += G) {
                    a[i + j * lda] = M[i + j * ld];
#if NG_SMEM == 2
                    if (i > j) cs[i + j * ldcs] = MC[i + j * ldc];
#endif
                }
        ng_group_sync();
#endif
    }
}
#endif

#if defined(NG_ORMQR)
// Vector v of matrix mat, thread t = mat * nvec + v: side 0 (L) a column of C (stride 1),
// side 1 (R) a row (stride ldc). forward: the serial order (columns of the factorisation left
// to right, rows bottom up), else its reverse; the sine conjugated for side R and negated
// when not forward (cpu.rs's `apply`).
extern "C" __global__ void NG_CAT(ormqr_, NG_SUFFIX)(
    int side, int forward, ng_i64 m, ng_i64 n, ng_i64 k, ng_batch<const T> A, ng_i64 lda, ng_batch<const R> CS, ng_i64 ldcs,
    ng_batch<T> Cm, ng_i64 ldc, ng_i64 batch) {
    const ng_i64 nq = side == 0 ? m : n, nvec = side == 0 ? n : m;
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < batch * nvec; t += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 mat = t / nvec, v = t % nvec;
        const T *a = A.matrix(mat);
        const R *cs = CS.matrix(mat);
        const ng_i64 step = side == 0 ? 1 : ldc;
        T *x = Cm.matrix(mat) + (side == 0 ? v * ldc : v);
        for (ng_i64 jj = 0; jj < k; ++jj) {
            const ng_i64 j = forward ? jj : k - 1 - jj;
            for (ng_i64 ii = 0; ii < nq - 1 - j; ++ii) {
                const ng_i64 i = forward ? nq - 1 - ii : j + 1 + ii;
                T s = a[i + j * lda];
                if (side == 1) s = ng_conj(s);
                if (!forward) s = ng_neg(s);
                T xa = x[(i - 1) * step], ya = x[i * step];
                ng_rot(xa, ya, cs[i + j * ldcs], s);
                x[(i - 1) * step] = xa;
                x[i * step] = ya;
            }
        }
    }
}
#endif

#if defined(NG_ORGQR)
// A block per matrix, in place (cpu.rs's `form_q`).
extern "C" __global__ void NG_CAT(orgqr_, NG_SUFFIX)(
    int m, int n, int k, ng_batch<T> A, ng_i64 lda, ng_batch<const R> CS, ng_i64 ldcs, ng_i64 batch) {
    const T one = ng_from_real_t<T>::of(R(1)), zero = ng_zero<T>();
    for (ng_i64 mat = blockIdx.x; mat < batch; mat += gridDim.x) {
        T *a = A.matrix(mat);
        const R *cs = k > 0 ? CS.matrix(mat) : nullptr;
        for (int col = k + threadIdx.x; col < n; col += blockDim.x)
            for (int i = 0; i < m; ++i) a[i + col * lda] = i == col ? one : zero;
        __syncthreads();
        for (int j = k - 1; j >= 0; --j) {
            for (int col = j + 1 + threadIdx.x; col < n; col += blockDim.x)
                for (int i = j + 1; i < m; ++i) {
                    T x = a[i - 1 + col * lda], y = a[i + col * lda];
                    ng_rot(x, y, cs[i + j * ldcs], ng_neg(a[i + j * lda]));
                    a[i - 1 + col * lda] = x;
                    a[i + col * lda] = y;
                }
            __syncthreads();
            if (threadIdx.x == 0) {
                T v = one;
                for (int i = j + 1; i < m; ++i) {
                    T x = v, y = zero;
                    ng_rot(x, y, cs[i + j * ldcs], ng_neg(a[i + j * lda]));
                    a[i - 1 + j * lda] = x;
                    v = y;
                }
                a[m - 1 + j * lda] = v;
                for (int i = 0; i < j; ++i) a[i + j * lda] = zero;
            }
            __syncthreads();
        }
    }
}
#endif

#if defined(NG_GELS_SOLVE)
// Problem mat, right-hand side r, thread t = mat * nrhs + r, after geqrf put R and the sines
// in A and the cosines in CS: info from R's diagonal (the r = 0 thread writes it); B left
// alone when it is not 0, else B := Q^H B and X = R^-1 B(0:n).
extern "C" __global__ void NG_CAT(gels_solve_, NG_SUFFIX)(
    ng_i64 m, ng_i64 n, ng_i64 nrhs, ng_batch<const T> A, ng_i64 lda, ng_batch<const R> CS, ng_i64 ldcs, ng_batch<T> B,
    ng_i64 ldb, int *info, ng_i64 batch) {
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < batch * nrhs; t += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 mat = t / nrhs, r = t % nrhs;
        const T *a = A.matrix(mat);
        const R *cs = CS.matrix(mat);
        int zero = 0;
        for (ng_i64 j = 0; j < n && zero == 0; ++j)
            if (ng_is_zero(a[j + j * lda])) zero = (int)j + 1;
        if (r == 0) info[mat] = zero;
        if (zero != 0) continue;
        T *x = B.matrix(mat) + r * ldb;
        for (ng_i64 j = 0; j < n; ++j)
            for (ng_i64 i = m - 1; i > j; --i) {
                T xa = x[i - 1], ya = x[i];
                ng_rot(xa, ya, cs[i + j * ldcs], a[i + j * lda]);
                x[i - 1] = xa;
                x[i] = ya;
            }
        for (ng_i64 l = n - 1; l >= 0; --l) {
            const T xl = ng_div(x[l], a[l + l * lda]);
            x[l] = xl;
            for (ng_i64 i = 0; i < l; ++i) x[i] = ng_fma(ng_neg(a[i + l * lda]), xl, x[i]);
        }
    }
}
#endif
