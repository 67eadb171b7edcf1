// Batched matrix exponentials (the host side is src/expm/cuda.rs; the mathematics is in
// src/expm/mod.rs).
//
// Kernels (T = NG_T, R its real type):
//   expm_eig_<T>   P_i = E_i·diag(exp(λ_i·t_i))·E_i⁻¹, the fused kernel of Lopez & Horton
//                  (ch. 3 of the book), with its listings' bugs fixed: the exponential of
//                  column k is d[k] (their Ds[tx][tz] took the thread's own index), the grid
//                  strides over groups of problems (gridDim, not blockDim), and problems past
//                  the batch are guarded. A block takes NG_G problems at a time: the G·M
//                  exponentials go to shared memory first, then thread (g, cb, r) forms row r,
//                  columns cb·CB … cb·CB + CB − 1 of P_g in registers (r < MR, rows padded to
//                  whole warps when there are several column blocks; r ≥ M idle),
//                      acc[j] += (E(r, k)·d[g][k])·E⁻¹(k, c0 + j),   k = 0 … M − 1,
//                  so consecutive threads write consecutive rows (coalesced) and E⁻¹'s row k is
//                  one broadcast. With NG_SHARED, E and E⁻¹ (stride 0) are staged once per
//                  block, E⁻¹ by rows; else each problem's are read from global memory.
//   expm_pade_<T>  exp(A_i) by scaling and squaring with Padé approximants, NG_G matrices per
//                  block of NG_G·NG_TPM threads, thread lt of matrix g taking elements
//                  lt, lt + TPM, … of every product. Seven m × m work matrices per matrix, in
//                  shared memory (NG_SMEM) or in the scratch the host gives (one per matrix).
//                  Every __syncthreads is reached by every thread: loops run to the block's
//                  largest count (squarings) and per-matrix choices only gate work. Orders
//                  n > 32 only (NG_PADE).
//   expm_pade_<T>  (NG_PADE_WARP) n ≤ 32: a warp or sub-warp per matrix, register tiles, no
//                  block barrier; the same arithmetic entry for entry (see its section).
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)
#define NG_KERNEL(name) NG_CAT(name, NG_CAT(_, NG_SUFFIX))

typedef NG_T T;
typedef ng_real_of<T>::type R;

// x·r for a real r.
__device__ __forceinline__ float ng_rmul(float x, float r) { return x * r; }
__device__ __forceinline__ double ng_rmul(double x, double r) { return x * r; }
template <typename Q>
__device__ __forceinline__ ng_complex<Q> ng_rmul(ng_complex<Q> x, Q r) { return ng_complex<Q>{x.re * r, x.im * r}; }

// exp(λ·t) (complex: e^{Re}·(cos Im, sin Im)).
__device__ __forceinline__ float ng_exp_t(float l, float t) { return expf(l * t); }
__device__ __forceinline__ double ng_exp_t(double l, double t) { return exp(l * t); }
__device__ __forceinline__ ng_complex<float> ng_exp_t(ng_complex<float> l, float t) {
    float s, c;
    const float er = expf(l.re * t);
    sincosf(l.im * t, &s, &c);
    return ng_complex<float>{er * c, er * s};
}
__device__ __forceinline__ ng_complex<double> ng_exp_t(ng_complex<double> l, double t) {
    double s, c;
    const double er = exp(l.re * t);
    sincos(l.im * t, &s, &c);
    return ng_complex<double>{er * c, er * s};
}

__device__ __forceinline__ T ng_add(T a, T b) { return ng_fma(ng_from_real_t<T>::of(R(1)), a, b); }

#if defined(NG_EIG)
// NG_M: order; NG_CB: columns per thread (a multiple of a 16-byte vector's elements),
// NG_NCB column blocks (NCB·CB >= M); NG_MR >= M rows per column block, a multiple of 32 when
// NCB > 1 so that a warp never spans two column blocks or problems (its E⁻¹ row loads stay one
// broadcast; rows M … MR − 1 idle); NG_G problems per group; NG_NT threads; NG_SHARED: E
// and E⁻¹ shared by the batch, staged in shared memory, E⁻¹'s rows NCB·CB apart and padded
// with zeros so that a thread's columns load as whole vectors, unguarded.
extern "C" __global__ void __launch_bounds__(NG_NT) NG_KERNEL(expm_eig)(const T *E, ng_i64 lde, ng_i64 sE, const T *lam, ng_i64 sL, const T *Ei, ng_i64 ldei,
                                                                        ng_i64 sEi, const R *t, T *P, ng_i64 ldp, ng_i64 sP, ng_i64 batch) {
    extern __shared__ __align__(16) unsigned char ng_smem[];
    const int M = NG_M;
#if NG_SHARED
    // E⁻¹ first: its rows (MP·sizeof(T) bytes, a multiple of 16) start 16-byte aligned.
    const int MP = NG_NCB * NG_CB;
    T *Eir = reinterpret_cast<T *>(ng_smem);  // E⁻¹ by rows: Eir[k·MP + c] = E⁻¹(k, c), 0 for c >= M
    T *Es = Eir + NG_M * MP;                   // E, column-major, ld M
    T *d = Es + NG_M * NG_M;                   // NG_G·NG_M exponentials
    for (int e = threadIdx.x; e < M * M; e += NG_NT) Es[e] = E[e % M + (e / M) * lde];
    for (int e = threadIdx.x; e < M * MP; e += NG_NT) {
        const int c = e % MP, k = e / MP;
        Eir[e] = c < M ? Ei[k + c * ldei] : ng_zero<T>();
    }
#else
    T *d = reinterpret_cast<T *>(ng_smem);  // NG_G·NG_M exponentials
#endif
    const ng_i64 groups = (batch + NG_G - 1) / NG_G;
    for (ng_i64 grp = blockIdx.x; grp < groups; grp += gridDim.x) {
        const ng_i64 i0 = grp * NG_G;
        __syncthreads();  // the previous group's reads of d (and the staging) are done
        for (int e = threadIdx.x; e < NG_G * M; e += NG_NT) {
            const int g = e / M, k = e % M;
            const ng_i64 i = i0 + g;
            if (i < batch) d[e] = ng_exp_t(lam[i * sL + k], t[i]);
        }
        __syncthreads();
        for (int w = threadIdx.x; w < NG_G * NG_MR * NG_NCB; w += NG_NT) {
            const int r = w % NG_MR, cb = (w / NG_MR) % NG_NCB, g = w / (NG_MR * NG_NCB);
            const ng_i64 i = i0 + g;
            if (i >= batch || r >= M) continue;
            const int c0 = cb * NG_CB;
            T acc[NG_CB];
#pragma unroll
            for (int j = 0; j < NG_CB; ++j) acc[j] = ng_zero<T>();
#if NG_SHARED
            const T *Er = Es + r;
#else
            const T *Er = E + i * sE + r;
            const T *Ec = Ei + i * sEi;
#endif
            const T *dg = d + g * M;
            for (int k = 0; k < M; ++k) {
#if NG_SHARED
                const T a = ng_mul(Er[k * M], dg[k]);
                const T *row = Eir + k * MP + c0;
#pragma unroll
                for (int j = 0; j < NG_CB; ++j) acc[j] = ng_fma(a, row[j], acc[j]);
#else
                const T a = ng_mul(Er[k * lde], dg[k]);
#pragma unroll
                for (int j = 0; j < NG_CB; ++j)
                    if (c0 + j < M) acc[j] = ng_fma(a, Ec[k + (c0 + j) * ldei], acc[j]);
#endif
            }
            T *Pc = P + i * sP + r;
#pragma unroll
            for (int j = 0; j < NG_CB; ++j)
                if (c0 + j < M) Pc[(c0 + j) * ldp] = acc[j];
        }
    }
}
#endif

#if defined(NG_PADE) || defined(NG_PADE_WARP)
// NG_DOUBLE: double-precision θ and degree 13 (else single precision's, degree 7 at most).
// 2^e·x for the real parts, exact unless it underflows.
__device__ __forceinline__ float ng_ldexp(float x, int e) { return ldexpf(x, e); }
__device__ __forceinline__ double ng_ldexp(double x, int e) { return ldexp(x, e); }
template <typename Q>
__device__ __forceinline__ ng_complex<Q> ng_ldexp(ng_complex<Q> x, int e) { return ng_complex<Q>{ng_ldexp(x.re, e), ng_ldexp(x.im, e)}; }

__device__ __forceinline__ double ng_absd(T x) { return (double)ng_abs(x); }

// The degree k and squarings s from the 1-norms of A², A⁴, A⁶ (expm::choose in
// src/expm/mod.rs); returns false when a norm is not finite.
__device__ bool expm_choose(double n2, double n4, double n6, int *k, int *s) {
    if (!(isfinite(n2) && isfinite(n4) && isfinite(n6))) return false;
    const double d4 = pow(n4, 0.25), d6 = pow(n6, 1.0 / 6.0);
    const double d8 = pow(fmin(n4 * n4, n2 * n6), 0.125), d10 = pow(n4 * n6, 0.1);
    const double eta1 = fmax(d4, d6), eta3 = fmax(d6, d8);
#if NG_DOUBLE
    const double th3 = 1.495585217958292e-2, th5 = 2.539398330063230e-1, th7 = 9.504178996162932e-1, thk = 5.371920351148152;
    const double eta = fmin(eta3, fmax(d8, d10));
    const int kmax = 13;
#else
    const double th3 = 4.258730016922831e-1, th5 = 1.880152677804762, th7 = 3.925724783138660, thk = th7;
    const double eta = eta3;
    const int kmax = 7;
#endif
    *s = 0;
    if (eta1 <= th3) { *k = 3; return true; }
    if (eta1 <= th5) { *k = 5; return true; }
    if (kmax == 13 && eta3 <= th7) { *k = 7; return true; }
    *k = kmax;
    if (eta > thk) *s = (int)ceil(log2(eta / thk));
    return true;
}

// Higham 2005's s from ‖A‖₁ (the powers overflowed).
__device__ int expm_scaling_from_norm(double n1) {
#if NG_DOUBLE
    const double thk = 5.371920351148152;
#else
    const double thk = 3.925724783138660;
#endif
    return n1 > thk ? (int)ceil(log2(n1 / thk)) : 0;
}

// The Padé coefficients b_j of the degrees 3, 5, 7, 13 (rows), j = 0 … 13 (0 beyond the
// degree).
__constant__ double expm_pade_b[4][14] = {
    {120.0, 60.0, 12.0, 1.0},
    {30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0},
    {17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0},
    {64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
     33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0},
};

__device__ __forceinline__ double expm_b(int k, int j) { return expm_pade_b[k == 3 ? 0 : k == 5 ? 1 : k == 7 ? 2 : 3][j]; }

// The scaling degree: k when the powers overflowed.
#if NG_DOUBLE
#define NG_KMAX 13
#else
#define NG_KMAX 7
#endif
#endif

#if defined(NG_PADE)
// NG_N: the order at compile time (0: the argument n); NG_G matrices per block, NG_TPM
// threads per matrix; NG_SMEM: work matrices in shared memory, else in `scratch`
// (7·n² elements per matrix of the chunk, sW apart).
#define NG_NT (NG_G * NG_TPM)
#define NG_WORK 7

// C ← X·Y for the n × n matrices of one matrix slot (ld n), when `on`; then the block's
// barrier.
__device__ __forceinline__ void expm_mm(T *C, const T *X, const T *Y, int n, int lt, bool on) {
    if (on) {
        const int nn = n * n;
        for (int e = lt; e < nn; e += NG_TPM) {
            const int r = e % n, c = e / n;
            T acc = ng_zero<T>();
            const T *y = Y + (ng_i64)c * n;
            for (int k = 0; k < n; ++k) acc = ng_fma(X[r + (ng_i64)k * n], y[k], acc);
            C[e] = acc;
        }
    }
    __syncthreads();
}

// dst[w] ← the 1-norms of the `count` matrices mats[0 … count − 1] of matrix slot g (NaN
// column sums count as +Inf), through red (NG_G·4·NG_TPM doubles); then the barrier.
__device__ void expm_norms(T *const *mats, int count, int n, int g, int lt, bool on, double *red, double *dst) {
    for (int w = 0; w < count; ++w) {
        double best = 0.0;
        if (on) {
            for (int c = lt; c < n; c += NG_TPM) {
                double s = 0.0;
                for (int r = 0; r < n; ++r) s += ng_absd(mats[w][r + (ng_i64)c * n]);
                best = isnan(s) ? ng_inf<double>() : fmax(best, s);
            }
        }
        red[(g * 4 + w) * NG_TPM + lt] = best;
    }
    __syncthreads();
    if (lt == 0 && on) {
        for (int w = 0; w < count; ++w) {
            double best = 0.0;
            for (int j = 0; j < NG_TPM; ++j) best = fmax(best, red[(g * 4 + w) * NG_TPM + j]);
            dst[g * 4 + w] = best;
        }
    }
    __syncthreads();
}

extern "C" __global__ void __launch_bounds__(NG_NT) NG_KERNEL(expm_pade)(ng_i64 n_arg, const T *A, ng_i64 lda, ng_i64 sA, T *Eo, ng_i64 lde, ng_i64 sE, int *info,
                                                                         T *scratch, ng_i64 sW, ng_i64 batch) {
#if NG_N > 0
    const int n = NG_N;
#else
    const int n = (int)n_arg;
#endif
    const int g = threadIdx.x / NG_TPM, lt = threadIdx.x % NG_TPM;
    const ng_i64 nn = (ng_i64)n * n;
    // All shared memory is dynamic (src/expm/cuda.rs, pade_smem, sizes it the same way): the
    // work matrices (NG_SMEM), then the reductions and the per-matrix state.
    extern __shared__ __align__(16) unsigned char ng_smem[];
    const ng_i64 wbytes = NG_SMEM ? ((ng_i64)NG_G * NG_WORK * nn * (ng_i64)sizeof(T) + 15) / 16 * 16 : 0;
    double *red = reinterpret_cast<double *>(ng_smem + wbytes);  // NG_G·4·NG_TPM
    double *norms = red + NG_G * 4 * NG_TPM;                      // NG_G·4
    int *flags = reinterpret_cast<int *>(norms + NG_G * 4);       // bit 0: non-finite input; 1: singular; 2: non-finite result
    int *kdeg = flags + NG_G, *sq = kdeg + NG_G, *refresh = sq + NG_G, *smaxp = refresh + NG_G;
    const ng_i64 blocks = (batch + NG_G - 1) / NG_G;
    for (ng_i64 blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
        const ng_i64 i = blk * NG_G + g;
        const bool act = i < batch;
#if NG_SMEM
        T *W = reinterpret_cast<T *>(ng_smem) + (ng_i64)g * NG_WORK * nn;
#else
        // The scratch is per matrix of the chunk: the chunk is the whole launch.
        T *W = scratch + (act ? i : 0) * sW;
#endif
        T *const a = W, *const a2 = W + nn, *const a4 = W + 2 * nn, *const a6 = W + 3 * nn;
        T *const b1 = W + 4 * nn, *const b2 = W + 5 * nn, *const b3 = W + 6 * nn;
        __syncthreads();  // the previous round's reads of the shared state are done
        if (lt == 0) flags[g] = 0;
        __syncthreads();
        if (act) {
            const T *Ai = A + i * sA;
            for (ng_i64 e = lt; e < nn; e += NG_TPM) {
                const T v = Ai[e % n + (e / n) * lda];
                a[e] = v;
                if (!ng_isfinite(v)) atomicOr(&flags[g], 1);
            }
        }
        __syncthreads();
        bool live = act && flags[g] == 0;
        expm_mm(a2, a, a, n, lt, live);
        expm_mm(a4, a2, a2, n, lt, live);
        expm_mm(a6, a4, a2, n, lt, live);
        {
            T *const mats[4] = {a, a2, a4, a6};
            expm_norms(mats, 4, n, g, lt, live, red, norms);
        }
        if (lt == 0) {
            int k = 3, s = 0, re = 0;
            if (live && !expm_choose(norms[g * 4 + 1], norms[g * 4 + 2], norms[g * 4 + 3], &k, &s)) {
                s = expm_scaling_from_norm(norms[g * 4]);
                k = NG_KMAX;
                re = 1;
            }
            kdeg[g] = k;
            sq[g] = live ? s : 0;
            refresh[g] = re;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            int m = 0;
            for (int j = 0; j < NG_G; ++j) m = max(m, sq[j]);
            *smaxp = m;
        }
        const int k = kdeg[g], s = sq[g];
        const bool re = live && refresh[g];
        // Scale: A by 2^{−s} and, when the powers are kept, A², A⁴, A⁶ by 4^{−s}, 16^{−s},
        // 64^{−s} (exact unless they underflow).
        if (live && s > 0) {
            for (ng_i64 e = lt; e < nn; e += NG_TPM) {
                a[e] = ng_ldexp(a[e], -s);
                if (!re) {
                    a2[e] = ng_ldexp(a2[e], -2 * s);
                    a4[e] = ng_ldexp(a4[e], -4 * s);
                    a6[e] = ng_ldexp(a6[e], -6 * s);
                }
            }
        }
        __syncthreads();
        // The powers overflowed: form them again from the scaled A.
        expm_mm(a2, a, a, n, lt, re);
        expm_mm(a4, a2, a2, n, lt, re);
        expm_mm(a6, a4, a2, n, lt, re);
        const R c0 = (R)expm_b(k, 0), c1 = (R)expm_b(k, 1), c2 = (R)expm_b(k, 2), c3 = (R)expm_b(k, 3), c4 = (R)expm_b(k, 4);
        const R c5 = (R)expm_b(k, 5), c6 = (R)expm_b(k, 6), c7 = (R)expm_b(k, 7);
        const bool k13 = live && k == 13;
        // Degree 13: b1 ← A⁶·(b13 A⁶ + b11 A⁴ + b9 A²) via b3, b2 ← … the even part.
        if (k13) {
            const R c8 = (R)expm_b(k, 8), c9 = (R)expm_b(k, 9), c10 = (R)expm_b(k, 10), c11 = (R)expm_b(k, 11), c12 = (R)expm_b(k, 12), c13 = (R)expm_b(k, 13);
            for (ng_i64 e = lt; e < nn; e += NG_TPM) {
                b1[e] = ng_add(ng_add(ng_rmul(a6[e], c13), ng_rmul(a4[e], c11)), ng_rmul(a2[e], c9));
                b2[e] = ng_add(ng_add(ng_rmul(a6[e], c12), ng_rmul(a4[e], c10)), ng_rmul(a2[e], c8));
            }
        }
        __syncthreads();
        expm_mm(b3, a6, b1, n, lt, k13);
        expm_mm(b1, a6, b2, n, lt, k13);
        // b2 ← Z (the odd part over A), b1 ← V.
        if (live) {
            for (ng_i64 e = lt; e < nn; e += NG_TPM) {
                const bool diag = e % (n + 1) == 0;
                T z = ng_add(ng_add(ng_rmul(a6[e], c7), ng_rmul(a4[e], c5)), ng_rmul(a2[e], c3));
                T v = ng_add(ng_add(ng_rmul(a6[e], c6), ng_rmul(a4[e], c4)), ng_rmul(a2[e], c2));
                if (diag) {
                    z = ng_add(z, ng_from_real_t<T>::of(c1));
                    v = ng_add(v, ng_from_real_t<T>::of(c0));
                }
                if (k13) {
                    z = ng_add(z, b3[e]);
                    v = ng_add(v, b1[e]);
                }
                b2[e] = z;
                b1[e] = v;
            }
        }
        __syncthreads();
        expm_mm(b3, a, b2, n, lt, live);  // U
        // a2 ← V + U (the right-hand sides), a4 ← V − U (the denominator).
        if (live) {
            for (ng_i64 e = lt; e < nn; e += NG_TPM) {
                const T u = b3[e], v = b1[e];
                a2[e] = ng_add(v, u);
                a4[e] = ng_add(v, ng_neg(u));
            }
        }
        __syncthreads();
        // LU with partial pivoting of a4 applied to a2 (LAPACK ?gesv's pivot: the first largest
        // |x|), one barrier per step: every thread finds the pivot row p itself (a scan of
        // column kk, which the step does not write), then a thread per column (a4's trailing
        // ones, all of a2's) swaps rows kk and p of it and eliminates below. The multipliers
        // are applied at once, never stored; U(kk, kk) goes to a6[kk] (A⁶ is not needed any
        // more) and column kk below row kk is left stale. Every thread sees the same pivots, so
        // a singular step stops the matrix's threads alike.
        bool lu_ok = live;
        for (int kk = 0; kk < n; ++kk) {
            if (lu_ok) {
                const T *qk_col = a4 + (ng_i64)kk * n;
                int p = kk;
                double best = -1.0;
                for (int r = kk; r < n; ++r) {
                    const double v = ng_absd(qk_col[r]);
                    if (v > best) best = v, p = r;
                }
                if (!(best > 0.0) || !isfinite(best)) {
                    lu_ok = false;
                    if (lt == 0) atomicOr(&flags[g], 2);
                } else {
                    const T pv = qk_col[p], qkk = qk_col[kk];
                    if (lt == 0) a6[kk] = pv;
                    const int qcols = n - kk - 1;
                    for (int cidx = lt; cidx < qcols + n; cidx += NG_TPM) {
                        T *col = cidx < qcols ? a4 + (ng_i64)(kk + 1 + cidx) * n : a2 + (ng_i64)(cidx - qcols) * n;
                        const T top = col[kk], prow = col[p];
                        col[kk] = prow;
                        for (int r = kk + 1; r < n; ++r) {
                            const T src = r == p ? top : col[r];
                            const T l = ng_div(r == p ? qkk : qk_col[r], pv);
                            col[r] = ng_fma(ng_neg(l), prow, src);
                        }
                    }
                }
            }
            __syncthreads();
        }
        // Back substitution with U (rows above the diagonal of a4, the diagonal in a6):
        // a2 ← U⁻¹·a2.
        for (int kk = n - 1; kk >= 0; --kk) {
            if (lu_ok) {
                const T pv = a6[kk];
                for (int c = lt; c < n; c += NG_TPM) a2[kk + (ng_i64)c * n] = ng_div(a2[kk + (ng_i64)c * n], pv);
            }
            __syncthreads();
            if (lu_ok) {
                for (ng_i64 e = lt; e < (ng_i64)kk * n; e += NG_TPM) {
                    const int r = (int)(e % kk), c = (int)(e / kk);
                    a2[r + (ng_i64)c * n] = ng_fma(ng_neg(a4[r + (ng_i64)kk * n]), a2[kk + (ng_i64)c * n], a2[r + (ng_i64)c * n]);
                }
            }
            __syncthreads();
        }
        // s squarings, ping-pong between a2 and a4.
        const bool solved = lu_ok;
        T *cur = a2, *oth = a4;
        const int smax = *smaxp;
        for (int q = 0; q < smax; ++q) {
            const bool on = solved && q < s;
            expm_mm(oth, cur, cur, n, lt, on);
            if (on) {
                T *tmp = cur;
                cur = oth;
                oth = tmp;
            }
        }
        if (act) {
            T *Ei = Eo + i * sE;
            const R nan = ng_inf<R>() - ng_inf<R>();
            const bool bad = !solved;
            for (ng_i64 e = lt; e < nn; e += NG_TPM) {
                const T v = bad ? ng_rmul(ng_from_real_t<T>::of(R(1)), nan) : cur[e];
                Ei[e % n + (e / n) * lde] = v;
                if (!bad && !ng_isfinite(v)) atomicOr(&flags[g], 4);
            }
        }
        __syncthreads();
        if (act && lt == 0) {
            const int f = flags[g];
            info[i] = (f & 1) ? 1 : (f & 2) ? 2 : (f & 4) ? 3 : 0;
        }
    }
}
#endif

#if defined(NG_PADE_WARP)
// Orders n ≤ 32: NG_L lanes of one warp per matrix (a power of two ≥ n: sub-warps for
// n ≤ 16), NG_GPB matrices per block, no block barrier at all: a matrix's lanes synchronise
// among themselves (__syncwarp and shuffles on their own mask), so matrices never wait for
// each other and every decision (degree, squarings, pivots, a singular step) is the same for
// all lanes of a matrix. Products: the lanes as an NG_LR × NG_LC grid, lane (lr, lc) holding
// in registers rows lr + LR·i (i < NG_TR) and columns lc + LC·j (j < NG_TC) of the product,
// each k reading TR entries of X's column k and TC of Y's row k from shared memory (indices
// past n clamped to n − 1: duplicates, never stored). Each entry is the same fma chain over
// k = 0 … n − 1 as expm_pade's, so the two paths agree bitwise. Five work matrices per matrix
// in shared memory, NG_LD = n or n + 1 (odd: the lanes' columns fall in distinct banks):
//   a: A (scaled); a2, a4, a6: its powers, then a2 ← Z, a4 ← V; w: the operand of degree 13's
//   products, then V − U (the LU factors in place); a6 ← V + U, the solution, squared in turn
//   with a (double buffering).
// Elementwise steps touch the lane's own tile entries only, so they need no barrier after a
// product's reads of other matrices.
#define NG_NT (NG_GPB * NG_L)
#define NG_MS (NG_N * NG_LD)
// A lane per row (the pivot search), lanes of one warp, the grid and the tile covering n.
static_assert(NG_N <= NG_L && NG_L <= 32 && (NG_L & (NG_L - 1)) == 0, "NG_L: a power of two, n <= NG_L <= 32");
static_assert(NG_LR * NG_LC == NG_L && NG_LR * NG_TR >= NG_N && NG_LC * NG_TC >= NG_N && NG_LD >= NG_N, "the lane grid and tile cover n");
static_assert(NG_TCP >= 1 && NG_TCP <= NG_TC, "NG_TCP: tile columns per pass");

// The lanes of this thread's matrix as a warp mask.
__device__ __forceinline__ unsigned expm_mask() {
    return (unsigned)((1ull << NG_L) - 1ull) << ((threadIdx.x & 31) & ~(NG_L - 1));
}

__device__ __forceinline__ int expm_shfl(int v, int src, unsigned mask) { return __shfl_sync(mask, v, src, NG_L); }
__device__ __forceinline__ float expm_shfl(float v, int src, unsigned mask) { return __shfl_sync(mask, v, src, NG_L); }
__device__ __forceinline__ double expm_shfl(double v, int src, unsigned mask) { return __shfl_sync(mask, v, src, NG_L); }
template <typename Q>
__device__ __forceinline__ ng_complex<Q> expm_shfl(ng_complex<Q> v, int src, unsigned mask) {
    return ng_complex<Q>{expm_shfl(v.re, src, mask), expm_shfl(v.im, src, mask)};
}
__device__ __forceinline__ int expm_xor(int v, int o, unsigned mask) { return __shfl_xor_sync(mask, v, o, NG_L); }
__device__ __forceinline__ double expm_xor(double v, int o, unsigned mask) { return __shfl_xor_sync(mask, v, o, NG_L); }

// The lane's tile: clamped row offsets and column offsets (times NG_LD), and which entries
// are its own (inside the matrix).
struct expm_tile_map {
    int ro[NG_TR], co[NG_TC];
    int r[NG_TR], c[NG_TC];
    __device__ __forceinline__ bool own(int i, int j) const { return r[i] < NG_N && c[j] < NG_N; }
    __device__ __forceinline__ int at(int i, int j) const { return r[i] + c[j] * NG_LD; }
};

// f(x, diag) on each of the lane's own entries (x its index, diag whether on the diagonal).
template <typename F>
__device__ __forceinline__ void expm_own_each(const expm_tile_map &m, F f) {
#pragma unroll
    for (int i = 0; i < NG_TR; ++i)
#pragma unroll
        for (int j = 0; j < NG_TC; ++j)
            if (m.own(i, j)) f(m.at(i, j), m.r[i] == m.c[j]);
}

// The product X·Y at the lane's tile, f(x, diag, value) on each own entry (x its index,
// diag whether on the diagonal). In passes of NG_TCP tile columns (fewer accumulators: complex
// types), each pass's columns the same block LC·j0 … LC·(j0 + TCP) − 1 for every lane (and the
// clamped column n − 1 in the last pass): with the barrier between a pass's reads and its f,
// f may write the entries of Y in the pass's columns, or any matrix other than X and Y.
template <typename F>
__device__ __forceinline__ void expm_tile_each(const T *X, const T *Y, const expm_tile_map &m, unsigned mask, F f) {
#pragma unroll
    for (int j0 = 0; j0 < NG_TC; j0 += NG_TCP) {
        T acc[NG_TR][NG_TCP];
#pragma unroll
        for (int i = 0; i < NG_TR; ++i)
#pragma unroll
            for (int j = 0; j < NG_TCP; ++j) acc[i][j] = ng_zero<T>();
#pragma unroll 2
        for (int k = 0; k < NG_N; ++k) {
            T x[NG_TR], y[NG_TCP];
#pragma unroll
            for (int i = 0; i < NG_TR; ++i) x[i] = X[m.ro[i] + k * NG_LD];
#pragma unroll
            for (int j = 0; j < NG_TCP; ++j) y[j] = j0 + j < NG_TC ? Y[m.co[j0 + j] + k] : ng_zero<T>();
#pragma unroll
            for (int i = 0; i < NG_TR; ++i)
#pragma unroll
                for (int j = 0; j < NG_TCP; ++j) acc[i][j] = ng_fma(x[i], y[j], acc[i][j]);
        }
        __syncwarp(mask);
#pragma unroll
        for (int i = 0; i < NG_TR; ++i)
#pragma unroll
            for (int j = 0; j < NG_TCP; ++j)
                if (j0 + j < NG_TC && m.own(i, j0 + j)) f(m.at(i, j0 + j), m.r[i] == m.c[j0 + j], acc[i][j]);
    }
}

// C ← X·Y (C distinct from X and Y), then the matrix's barrier.
__device__ __forceinline__ void expm_warp_mm(T *C, const T *X, const T *Y, const expm_tile_map &m, unsigned mask) {
    expm_tile_each(X, Y, m, mask, [&](int x, bool, T v) { C[x] = v; });
    __syncwarp(mask);
}

// The 1-norm of the matrix X (NaN column sums count as +Inf), the same sums in the same order
// as expm_norms; every lane of the matrix gets it.
__device__ __forceinline__ double expm_warp_norm(const T *X, int lt, unsigned mask) {
    double best = 0.0;
    for (int c = lt; c < NG_N; c += NG_L) {
        double s = 0.0;
        for (int r = 0; r < NG_N; ++r) s += ng_absd(X[r + c * NG_LD]);
        best = isnan(s) ? ng_inf<double>() : fmax(best, s);
    }
#pragma unroll
    for (int o = NG_L / 2; o > 0; o >>= 1) best = fmax(best, expm_xor(best, o, mask));
    return best;
}

// LU with partial pivoting of q applied to x (LAPACK ?gesv's pivot: the first largest |q|),
// then x ← U⁻¹·x: expm_pade's elimination, entry for entry. Step kk: lane r reads q(r, kk);
// the pivot row p and its value come by shuffles (ties to the smaller row, NaN never chosen:
// the scan's choice); lane r > kk replaces q(r, kk) by its multiplier (q(kk, kk) by the pivot,
// U's diagonal), then a lane per column (q's trailing ones, all of x's) swaps rows kk and p
// and eliminates below. Returns false (the same on every lane) at an exactly singular or
// non-finite pivot.
__device__ __forceinline__ bool expm_warp_solve(T *q, T *x, int lt, unsigned mask) {
    const int n = NG_N;
    for (int kk = 0; kk < n; ++kk) {
        const T qv = lt < n ? q[lt + kk * NG_LD] : ng_zero<T>();
        double mag = lt >= kk && lt < n ? ng_absd(qv) : -1.0;
        if (isnan(mag)) mag = -1.0;
        int p = lt;
#pragma unroll
        for (int o = NG_L / 2; o > 0; o >>= 1) {
            const double om = expm_xor(mag, o, mask);
            const int op = expm_xor(p, o, mask);
            if (om > mag || (om == mag && op < p)) mag = om, p = op;
        }
        if (!(mag > 0.0) || !isfinite(mag)) return false;
        const T pv = expm_shfl(qv, p, mask), qkk = expm_shfl(qv, kk, mask);
        if (lt > kk && lt < n) q[lt + kk * NG_LD] = ng_div(lt == p ? qkk : qv, pv);
        if (lt == kk) q[kk + kk * NG_LD] = pv;
        __syncwarp(mask);
        const int qcols = n - kk - 1;
        for (int cidx = lt; cidx < qcols + n; cidx += NG_L) {
            T *col = cidx < qcols ? q + (kk + 1 + cidx) * NG_LD : x + (cidx - qcols) * NG_LD;
            const T top = col[kk], prow = col[p];
            col[kk] = prow;
            for (int r = kk + 1; r < n; ++r) {
                const T src = r == p ? top : col[r];
                col[r] = ng_fma(ng_neg(q[r + kk * NG_LD]), prow, src);
            }
        }
        __syncwarp(mask);
    }
    // Back substitution, a lane per column of x (the columns are independent).
    for (int c = lt; c < n; c += NG_L) {
        T *xc = x + c * NG_LD;
        for (int kk = n - 1; kk >= 0; --kk) {
            const T xk = ng_div(xc[kk], q[kk + kk * NG_LD]);
            xc[kk] = xk;
            for (int r = 0; r < kk; ++r) xc[r] = ng_fma(ng_neg(q[r + kk * NG_LD]), xk, xc[r]);
        }
    }
    __syncwarp(mask);
    return true;
}

// exp(A) of one matrix into the lanes' shared work matrices; returns the matrix holding it,
// or nullptr when the Padé denominator is singular. The steps and their arithmetic are
// expm_pade's.
__device__ __forceinline__ T *expm_warp_one(T *a, T *a2, T *a4, T *a6, T *w, int lt, unsigned mask) {
    const int n = NG_N;
    expm_tile_map m;
    {
        const int lr = lt % NG_LR, lc = lt / NG_LR;
#pragma unroll
        for (int i = 0; i < NG_TR; ++i) m.r[i] = lr + NG_LR * i, m.ro[i] = min(m.r[i], n - 1);
#pragma unroll
        for (int j = 0; j < NG_TC; ++j) m.c[j] = lc + NG_LC * j, m.co[j] = min(m.c[j], n - 1) * NG_LD;
    }
    expm_warp_mm(a2, a, a, m, mask);
    expm_warp_mm(a4, a2, a2, m, mask);
    expm_warp_mm(a6, a4, a2, m, mask);
    int k, s;
    const bool re = !expm_choose(expm_warp_norm(a2, lt, mask), expm_warp_norm(a4, lt, mask), expm_warp_norm(a6, lt, mask), &k, &s);
    if (re) {
        s = expm_scaling_from_norm(expm_warp_norm(a, lt, mask));
        k = NG_KMAX;
    }
    __syncwarp(mask);  // every lane's reads for the norms are done before the scaling writes
    // Scale A by 2^{−s} and, when kept, A², A⁴, A⁶ by 4^{−s}, 16^{−s}, 64^{−s}.
    if (s > 0) {
        for (int e = lt; e < n * n; e += NG_L) {
            const int x = e % n + (e / n) * NG_LD;
            a[x] = ng_ldexp(a[x], -s);
            if (!re) {
                a2[x] = ng_ldexp(a2[x], -2 * s);
                a4[x] = ng_ldexp(a4[x], -4 * s);
                a6[x] = ng_ldexp(a6[x], -6 * s);
            }
        }
        __syncwarp(mask);
    }
    // The powers overflowed: form them again from the scaled A.
    if (re) {
        expm_warp_mm(a2, a, a, m, mask);
        expm_warp_mm(a4, a2, a2, m, mask);
        expm_warp_mm(a6, a4, a2, m, mask);
    }
    const R c0 = (R)expm_b(k, 0), c1 = (R)expm_b(k, 1), c2 = (R)expm_b(k, 2), c3 = (R)expm_b(k, 3), c4 = (R)expm_b(k, 4);
    const R c5 = (R)expm_b(k, 5), c6 = (R)expm_b(k, 6), c7 = (R)expm_b(k, 7);
    // Z (the odd part over A) into a2, V into a4, at the lane's own entries; degree 13 adds
    // A⁶·(b13 A⁶ + b11 A⁴ + b9 A²) to Z and A⁶·(b12 A⁶ + b10 A⁴ + b8 A²) to V.
    // Z's and V's terms up to A⁶ at entry x (b1 and b0 on the diagonal).
    auto zv = [&](int x, bool diag, T &z, T &v) {
        z = ng_add(ng_add(ng_rmul(a6[x], c7), ng_rmul(a4[x], c5)), ng_rmul(a2[x], c3));
        v = ng_add(ng_add(ng_rmul(a6[x], c6), ng_rmul(a4[x], c4)), ng_rmul(a2[x], c2));
        if (diag) {
            z = ng_add(z, ng_from_real_t<T>::of(c1));
            v = ng_add(v, ng_from_real_t<T>::of(c0));
        }
    };
    if (k == 13) {
        const R c8 = (R)expm_b(k, 8), c9 = (R)expm_b(k, 9), c10 = (R)expm_b(k, 10), c11 = (R)expm_b(k, 11), c12 = (R)expm_b(k, 12), c13 = (R)expm_b(k, 13);
        expm_own_each(m, [&](int x, bool) { w[x] = ng_add(ng_add(ng_rmul(a6[x], c13), ng_rmul(a4[x], c11)), ng_rmul(a2[x], c9)); });
        __syncwarp(mask);
        // w's entries of the pass's columns are read: the even operand replaces them.
        expm_tile_each(a6, w, m, mask, [&](int x, bool diag, T p) {
            T z, v;
            zv(x, diag, z, v);
            w[x] = ng_add(ng_add(ng_rmul(a6[x], c12), ng_rmul(a4[x], c10)), ng_rmul(a2[x], c8));
            a2[x] = ng_add(z, p);
            a4[x] = v;
        });
        __syncwarp(mask);
        expm_tile_each(a6, w, m, mask, [&](int x, bool, T p) { a4[x] = ng_add(a4[x], p); });
    } else {
        expm_own_each(m, [&](int x, bool diag) {
            T z, v;
            zv(x, diag, z, v);
            a2[x] = z;
            a4[x] = v;
        });
    }
    __syncwarp(mask);  // Z complete; degree 13: every lane's reads of a6 and w are done
    // U = A·Z; the right-hand sides V + U into a6, the denominator V − U into w.
    expm_tile_each(a, a2, m, mask, [&](int x, bool, T u) {
        const T v = a4[x];
        a6[x] = ng_add(v, u);
        w[x] = ng_add(v, ng_neg(u));
    });
    __syncwarp(mask);
    if (!expm_warp_solve(w, a6, lt, mask)) return nullptr;
    // s squarings, ping-pong between a6 and a (A is not needed any more).
    T *cur = a6, *oth = a;
    for (int q = 0; q < s; ++q) {
        expm_warp_mm(oth, cur, cur, m, mask);
        T *tmp = cur;
        cur = oth;
        oth = tmp;
    }
    return cur;
}

extern "C" __global__ void __launch_bounds__(NG_NT) NG_KERNEL(expm_pade)(ng_i64 n_arg, const T *A, ng_i64 lda, ng_i64 sA, T *Eo, ng_i64 lde, ng_i64 sE, int *info,
                                                                         T *scratch, ng_i64 sW, ng_i64 batch) {
    // n_arg, scratch and sW: the signature of the other expm_pade (the order is NG_N, the
    // work matrices in shared memory).
    const int n = NG_N;
    const int lt = threadIdx.x % NG_L;
    const unsigned mask = expm_mask();
    extern __shared__ __align__(16) unsigned char ng_smem[];
    T *const W = reinterpret_cast<T *>(ng_smem) + (threadIdx.x / NG_L) * (5 * NG_MS);
    T *const a = W, *const a2 = W + NG_MS, *const a4 = W + 2 * NG_MS, *const a6 = W + 3 * NG_MS, *const w = W + 4 * NG_MS;
    const ng_i64 step = (ng_i64)gridDim.x * NG_GPB;
    for (ng_i64 i = (ng_i64)blockIdx.x * NG_GPB + threadIdx.x / NG_L; i < batch; i += step) {
        __syncwarp(mask);  // the previous matrix's reads of the work matrices are done
        const T *Ai = A + i * sA;
        bool bad = false;
        for (int e = lt; e < n * n; e += NG_L) {
            const T v = Ai[e % n + (e / n) * lda];
            a[e % n + (e / n) * NG_LD] = v;
            bad = bad || !ng_isfinite(v);
        }
        const bool nonfinite = __any_sync(mask, bad);
        __syncwarp(mask);
        const T *X = nonfinite ? nullptr : expm_warp_one(a, a2, a4, a6, w, lt, mask);
        T *Ei = Eo + i * sE;
        const R nan = ng_inf<R>() - ng_inf<R>();
        bool over = false;
        for (int e = lt; e < n * n; e += NG_L) {
            const T v = X ? X[e % n + (e / n) * NG_LD] : ng_rmul(ng_from_real_t<T>::of(R(1)), nan);
            Ei[e % n + (e / n) * lde] = v;
            over = over || (X && !ng_isfinite(v));
        }
        over = __any_sync(mask, over);
        if (lt == 0) info[i] = nonfinite ? 1 : !X ? 2 : over ? 3 : 0;
    }
}
#endif
