// SS-HOPM: tensor eigenpairs of symmetric tensors A in R[m, n] stored compressed (the host
// side is src/sshopm/cuda.rs; the mathematics and the tables are in src/sshopm/mod.rs and
// tables.rs).
//
// Every kernel is compiled for one (m, n) and element type: NG_M, NG_N and the tables' sizes
// are compile-time constants. With NG_CONST=1 (small m and n) the tables themselves are
// compile-time constants too (NG_PARENT, NG_VAR, ... lists generated on the host) and every
// loop over them is unrolled, so the tensor, the vector and the monomials live in registers and
// the coefficients and index patterns sit in the instruction stream: the paper's unrolled
// kernel, for every (m, n). With NG_CONST=0 the tables come from device memory and the loops
// stay loops (monomials recomputed along their parent chain, no per-thread table).
//
// (A x^{m-1})_j = sum_q gw[q] * x^{mono GF+q} * a[gidx[q*N + j]]; lambda = x . (A x^{m-1}), so
// the iteration's lambda shares every product with the next step.
//
// Kernels (one per module, chosen by NG_SSHOPM / NG_UNIQUE / NG_APPLY):
//   sshopm_<T>   a thread per (tensor, start): the iteration, its lambda, x, iterations, flag.
//   unique_<T>   a thread per tensor: merges the tensor's converged starts into distinct
//                eigenpairs, keeps kmax, types them from the projected Hessian.
//   apply_<T>    a thread per tensor: A x^m, A x^{m-1} or A x^{m-2}.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

typedef NG_T T;

constexpr int M = NG_M, N = NG_N, U = NG_U;
constexpr int NMONO = NG_NMONO, GF = NG_GF, NGRAD = NG_NGRAD, HF = NG_HF, NHESS = NG_NHESS;
constexpr int NPAIR = N * (N + 1) / 2;

// The tables: parent and variable of each monomial, the gradient's and the Hessian's weights
// and entry indices, the entries' multiplicities (see tables.rs).
struct ng_tabs {
    const int *parent, *var, *gidx, *hidx;
    const T *gw, *hw, *mult;
};

#if NG_CONST
static __device__ constexpr int c_parent[NMONO] = {NG_PARENT};
static __device__ constexpr int c_var[NMONO] = {NG_VAR};
static __device__ constexpr T c_gw[NGRAD] = {NG_GW};
static __device__ constexpr int c_gidx[NGRAD * N] = {NG_GIDX};
static __device__ constexpr T c_hw[NHESS] = {NG_HW};
static __device__ constexpr int c_hidx[NHESS * NPAIR] = {NG_HIDX};
static __device__ constexpr T c_mult[U] = {NG_MULT};
#define NG_UNROLL _Pragma("unroll")
#define TAB(name, k) c_##name[k]
#else
#define NG_UNROLL _Pragma("unroll 1")
#define TAB(name, k) tb.name[k]
#endif

// Jacobi rotations unrolled only where the matrix is a handful of registers.
#if NG_CONST && NG_N <= 4
#define NG_JUNROLL _Pragma("unroll")
#else
#define NG_JUNROLL _Pragma("unroll 1")
#endif

__device__ __forceinline__ float ng_min_normal(float) { return __int_as_float(0x00800000); }
__device__ __forceinline__ double ng_min_normal(double) { return __longlong_as_double(0x0010000000000000LL); }
__device__ __forceinline__ float ng_eps(float) { return __int_as_float(0x34000000); }              // 2^-23
__device__ __forceinline__ double ng_eps(double) { return __longlong_as_double(0x3CB0000000000000LL); } // 2^-52
__device__ __forceinline__ int ng_draw_bits(float) { return 24; }
__device__ __forceinline__ int ng_draw_bits(double) { return 53; }

// SplitMix64 of `counter` under `seed`, as sshopm::splitmix.
__device__ __forceinline__ unsigned long long ng_splitmix(unsigned long long seed, unsigned long long counter) {
    unsigned long long z = seed + (counter + 1ull) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Component i of random start g, uniform on [-1, 1) and exact in T, as sshopm::draw.
__device__ __forceinline__ T ng_draw(unsigned long long seed, unsigned long long g, int i) {
    const int bits = ng_draw_bits(T());
    const unsigned long long z = ng_splitmix(seed, g * (unsigned long long)N + (unsigned long long)i);
    const T u = T(z >> (64 - bits)) * T(1.0 / double(1ull << bits));
    return u + u - T(1);
}

#if NG_CONST
// Monomials of degrees 0 .. m-1 by the tree (v[0] = 1).
__device__ __forceinline__ void ng_monomials(const T *x, T *v) {
    v[0] = T(1);
    NG_UNROLL for (int k = 1; k < NMONO; ++k) v[k] = c_parent[k] == 0 ? x[c_var[k]] : v[c_parent[k]] * x[c_var[k]];
}
#else
// Monomial k along its parent chain, times w.
__device__ __forceinline__ T ng_mono(const ng_tabs &tb, const T *x, int k, T w) {
    for (; k > 0; k = tb.parent[k]) w *= x[tb.var[k]];
    return w;
}
#endif

// y = A x^{m-1}; `a` holds the tensor's U entries (registers or device memory).
__device__ __forceinline__ void ng_grad(const ng_tabs &tb, const T *a, const T *x, T *y) {
    NG_UNROLL for (int j = 0; j < N; ++j) y[j] = T(0);
#if NG_CONST
    T v[NMONO];
    ng_monomials(x, v);
    NG_UNROLL for (int q = 0; q < NGRAD; ++q) {
        // Weight 1 folds away; others are one multiply per monomial, shared by every j.
        const T t = c_gw[q] == T(1) ? v[GF + q] : c_gw[q] * v[GF + q];
        NG_UNROLL for (int j = 0; j < N; ++j) y[j] = fma(a[c_gidx[q * N + j]], t, y[j]);
    }
#else
    for (int q = 0; q < NGRAD; ++q) {
        const T t = ng_mono(tb, x, GF + q, tb.gw[q]);
        for (int j = 0; j < N; ++j) y[j] = fma(a[tb.gidx[q * N + j]], t, y[j]);
    }
#endif
}

// h = A x^{m-2}, N x N column-major, symmetric.
__device__ __forceinline__ void ng_hess(const ng_tabs &tb, const T *a, const T *x, T *h) {
    NG_UNROLL for (int k = 0; k < N * N; ++k) h[k] = T(0);
#if NG_CONST
    T v[NMONO];
    ng_monomials(x, v);
#endif
    NG_UNROLL for (int r = 0; r < NHESS; ++r) {
#if NG_CONST
        const T t = c_hw[r] * v[HF + r];
#else
        const T t = ng_mono(tb, x, HF + r, tb.hw[r]);
#endif
        int p = r * NPAIR;
        NG_UNROLL for (int j = 0; j < N; ++j) {
            NG_UNROLL for (int l = j; l < N; ++l) {
                h[j + l * N] = fma(a[TAB(hidx, p)], t, h[j + l * N]);
                ++p;
            }
        }
    }
    NG_UNROLL for (int j = 0; j < N; ++j) {
        NG_UNROLL for (int l = j + 1; l < N; ++l) h[l + j * N] = h[j + l * N];
    }
}

// The smallest and largest eigenvalues of the symmetric N x N h (destroyed): cyclic Jacobi
// until the off-diagonal part is below eps * ||h||_F, at most 50 sweeps (as cpu::sym_extremes).
__device__ void ng_sym_extremes(T *h, T &lo, T &hi) {
    const T eps = ng_eps(T());
    for (int sweep = 0; sweep < 50; ++sweep) {
        T off = T(0), all = T(0);
        NG_JUNROLL for (int q = 0; q < N; ++q) {
            NG_JUNROLL for (int p = 0; p < N; ++p) {
                const T e = h[p + q * N] * h[p + q * N];
                all += e;
                if (p != q) off += e;
            }
        }
        if (!(off > eps * eps * all)) break;
        NG_JUNROLL for (int p = 0; p < N; ++p) {
            NG_JUNROLL for (int q = p + 1; q < N; ++q) {
                const T apq = h[p + q * N];
                if (apq == T(0)) continue;
                const T theta = (h[q + q * N] - h[p + p * N]) / (apq + apq);
                const T t = copysign(T(1), theta) / (fabs(theta) + hypot(theta, T(1)));
                const T c = T(1) / hypot(t, T(1));
                const T s = t * c;
                NG_JUNROLL for (int k = 0; k < N; ++k) {
                    const T hp = h[k + p * N], hq = h[k + q * N];
                    h[k + p * N] = c * hp - s * hq;
                    h[k + q * N] = s * hp + c * hq;
                }
                NG_JUNROLL for (int k = 0; k < N; ++k) {
                    const T hp = h[p + k * N], hq = h[q + k * N];
                    h[p + k * N] = c * hp - s * hq;
                    h[q + k * N] = s * hp + c * hq;
                }
            }
        }
    }
    lo = h[0];
    hi = h[0];
    NG_JUNROLL for (int k = 1; k < N; ++k) {
        lo = fmin(lo, h[k + k * N]);
        hi = fmax(hi, h[k + k * N]);
    }
}

__device__ __forceinline__ T ng_dot(const T *x, const T *y) {
    T s = T(0);
    NG_UNROLL for (int j = 0; j < N; ++j) s = fma(x[j], y[j], s);
    return s;
}

// x = xh / ||xh||; returns -1, or the flag that stops the iteration (3 non-finite, 2 ||xh||_inf
// below the smallest normal number). Scaled by ||xh||_inf only when the plain sum of squares
// would lose range (as cpu::normalize).
__device__ __forceinline__ int ng_normalize(const T *xh, T *x) {
    T s2 = T(0);
    NG_UNROLL for (int j = 0; j < N; ++j) s2 = fma(xh[j], xh[j], s2);
    if (isnan(s2)) return 3;
    if (s2 >= ng_min_normal(T()) && isfinite(s2)) {
        // rsqrt (2 ulp in float, 1 in double): x only needs to be unit to working accuracy,
        // and a correctly rounded sqrt and division would cost a third of an m = 4 iteration.
        const T inv = rsqrt(s2);
        NG_UNROLL for (int j = 0; j < N; ++j) x[j] = xh[j] * inv;
        return -1;
    }
    T amax = T(0);
    NG_UNROLL for (int j = 0; j < N; ++j) amax = fmax(amax, fabs(xh[j]));
    if (!isfinite(amax)) return 3;
    if (amax < ng_min_normal(T())) return 2;
    s2 = T(0);
    NG_UNROLL for (int j = 0; j < N; ++j) s2 = fma(xh[j] / amax, xh[j] / amax, s2);
    const T inv = T(1) / sqrt(s2);
    NG_UNROLL for (int j = 0; j < N; ++j) x[j] = (xh[j] / amax) * inv;
    return -1;
}

// SAFE's alpha: (m-1) ||A||_F, negated in concave mode.
__device__ __forceinline__ T ng_safe_shift(const ng_tabs &tb, const T *a, int concave) {
    T f2 = T(0);
    NG_UNROLL for (int k = 0; k < U; ++k) f2 = fma(TAB(mult, k) * a[k], a[k], f2);
    const T s = T(M - 1) * sqrt(f2);
    return concave ? -s : s;
}

// ADAPTIVE's alpha at x.
__device__ T ng_adaptive_shift(const ng_tabs &tb, const T *a, const T *x, int concave) {
    T h[N * N], lo, hi;
    ng_hess(tb, a, x, h);
    ng_sym_extremes(h, lo, hi);
    const T tau = T(1e-6 / M);
    return concave ? fmin(T(0), -tau - T(M - 1) * hi) : fmax(T(0), tau - T(M - 1) * lo);
}

// The iteration from the unnormalised start in x (left holding the last iterate), as
// cpu::iterate: lambda, iterations and flag out.
__device__ __forceinline__ void ng_iterate(const ng_tabs &tb, const T *a, T safe, T *x, int concave, int shift, T alpha, T tol, int maxit,
                                           T &lam, int &iters, int &flag) {
    T y[N], xh[N];
    NG_UNROLL for (int j = 0; j < N; ++j) xh[j] = x[j];
    const int f0 = ng_normalize(xh, x);
    ng_grad(tb, a, x, y);
    lam = ng_dot(x, y);
    iters = 0;
    if (f0 >= 0) {
        flag = f0;
        return;
    }
    if (!isfinite(lam)) {
        flag = 3;
        return;
    }
    flag = 1;
    for (int it = 1; it <= maxit; ++it) {
        const T al = shift == 0 ? alpha : shift == 1 ? safe : ng_adaptive_shift(tb, a, x, concave);
        NG_UNROLL for (int j = 0; j < N; ++j) {
            const T e = fma(al, x[j], y[j]);
            xh[j] = concave ? -e : e;
        }
        iters = it;
        const int f = ng_normalize(xh, x);
        if (f >= 0) {
            flag = f;
            return;
        }
        ng_grad(tb, a, x, y);
        const T next = ng_dot(x, y);
        if (!isfinite(next)) {
            lam = next;
            flag = 3;
            return;
        }
        const bool done = fabs(next - lam) <= tol;
        lam = next;
        if (done) {
            flag = 0;
            return;
        }
    }
}

#if NG_CONST
#define NG_TABS_BUILD ng_tabs tb{}; (void)t_parent; (void)t_var; (void)t_gidx; (void)t_hidx; (void)t_gw; (void)t_hw; (void)t_mult;
#else
#define NG_TABS_BUILD const ng_tabs tb{t_parent, t_var, t_gidx, t_hidx, t_gw, t_hw, t_mult};
#endif
#define NG_TABS_PARAMS const int *t_parent, const int *t_var, const int *t_gidx, const int *t_hidx, const T *t_gw, const T *t_hw, const T *t_mult

#if NG_SSHOPM
// Start s of tensor t at X0 + t*strideX0 + s*N (X0 NULL: drawn for g0 + g, g0 the first
// (tensor, start) of this launch in the whole call); outputs at g = t*nstarts + s.
extern "C" __global__ void __launch_bounds__(NG_THREADS) NG_CAT(sshopm_, NG_SUFFIX)(
    ng_i64 ntensors, ng_i64 nstarts, const T *__restrict__ A, ng_i64 strideA, const T *__restrict__ X0, ng_i64 strideX0,
    unsigned long long seed, ng_i64 g0, int concave, int shift, T alpha, T tol, int maxit, T *__restrict__ lambda, T *__restrict__ X,
    int *__restrict__ iters, int *__restrict__ flags, NG_TABS_PARAMS) {
    NG_TABS_BUILD
    const ng_i64 total = ntensors * nstarts;
    for (ng_i64 g = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 t = g / nstarts, s = g - t * nstarts;
        const T *at = A + t * strideA;
#if NG_CONST
        // The tensor in registers: every access below has a constant index.
        T a[U];
        NG_UNROLL for (int k = 0; k < U; ++k) a[k] = __ldg(at + k);
#else
        const T *a = at;
#endif
        T x[N];
        if (X0 != nullptr) {
            NG_UNROLL for (int j = 0; j < N; ++j) x[j] = X0[t * strideX0 + s * N + j];
        } else {
            NG_UNROLL for (int j = 0; j < N; ++j) x[j] = ng_draw(seed, (unsigned long long)(g0 + g), j);
        }
        const T safe = shift == 1 ? ng_safe_shift(tb, a, concave) : T(0);
        T lam;
        int it, flag;
        ng_iterate(tb, a, safe, x, concave, shift, alpha, tol, maxit, lam, it, flag);
        lambda[g] = lam;
        NG_UNROLL for (int j = 0; j < N; ++j) X[g * N + j] = x[j];
        iters[g] = it;
        flags[g] = flag;
    }
}
#endif

#if NG_UNIQUE
// Whether two converged results are one eigenpair (as cpu::same_pair).
__device__ bool ng_same_pair(T tol, T la, const T *xa, T lb, const T *xb) {
    if (fabs(la - lb) > tol * fmax(fabs(la), T(1))) return false;
    T dp = T(0), dm = T(0);
    for (int j = 0; j < N; ++j) {
        dp = fmax(dp, fabs(xa[j] - xb[j]));
        dm = fmax(dm, fabs(xa[j] + xb[j]));
    }
    return dp <= tol || (M % 2 == 0 && dm <= tol);
}

// The pair's type from the projected Hessian (as cpu::pair_type): 1 max, -1 min, 0 neither.
__device__ int ng_pair_type(const ng_tabs &tb, const T *a, T lam, const T *x) {
    T hm[N * N], w[N * N], hx[N], lo, hi;
    ng_hess(tb, a, x, hm);
    T norm2 = T(0);
    for (int k = 0; k < N * N; ++k) {
        hm[k] *= T(M - 1);
        if (k % (N + 1) == 0) hm[k] -= lam;
        norm2 += hm[k] * hm[k];
    }
    T xhx = T(0);
    for (int i = 0; i < N; ++i) {
        T s = T(0);
        for (int k = 0; k < N; ++k) s += hm[i + k * N] * x[k];
        hx[i] = s;
        xhx += x[i] * s;
    }
    const T c = T(1) + sqrt(norm2);
    const T thr = sqrt(ng_eps(T())) * c;
    for (int pass = 0; pass < 2; ++pass) {
        const T sign = pass == 0 ? T(-1) : T(1);
        for (int j = 0; j < N; ++j)
            for (int i = 0; i < N; ++i) w[i + j * N] = hm[i + j * N] - x[i] * hx[j] - hx[i] * x[j] + (xhx + sign * c) * x[i] * x[j];
        ng_sym_extremes(w, lo, hi);
        if (pass == 0 && hi < -thr) return 1;
        if (pass == 1 && lo > thr) return -1;
    }
    return 0;
}

// Tensor t's nstarts results (lam, xs, fl at t*nstarts + s) merged into distinct pairs (rep,
// cnt: first start and starts of each, in order of discovery, in the workspace), the kmax
// with the most starts kept (sel) and stored by decreasing lambda (as cpu::clusters).
extern "C" __global__ void __launch_bounds__(NG_THREADS) NG_CAT(unique_, NG_SUFFIX)(
    ng_i64 ntensors, ng_i64 nstarts, const T *__restrict__ A, ng_i64 strideA, const T *__restrict__ lam, const T *__restrict__ xs,
    const int *__restrict__ fl, int *__restrict__ rep, int *__restrict__ cnt, int *__restrict__ sel, T merge_tol, int kmax,
    int *__restrict__ count, T *__restrict__ lambda, T *__restrict__ X, int *__restrict__ mult, int *__restrict__ type, NG_TABS_PARAMS) {
    NG_TABS_BUILD
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < ntensors; t += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 o = t * nstarts;
        int *r = rep + o, *c = cnt + o, *sl = sel + o;
        int found = 0;
        for (int s = 0; s < nstarts; ++s) {
            if (fl[o + s] != 0) continue;
            int k = 0;
            while (k < found && !ng_same_pair(merge_tol, lam[o + r[k]], xs + (o + r[k]) * N, lam[o + s], xs + (o + s) * N)) ++k;
            if (k < found) {
                ++c[k];
            } else {
                r[found] = s;
                c[found] = 1;
                ++found;
            }
        }
        // The kmax with the most starts (ties: first found), in that order...
        const int kept = found < kmax ? found : kmax;
        for (int i = 0; i < kept; ++i) {
            int best = -1;
            for (int k = 0; k < found; ++k)
                if (c[k] > 0 && (best < 0 || c[k] > c[best])) best = k;
            sl[i] = best;
            c[best] = -c[best];  // taken; its count restored below
        }
        // ... then by decreasing lambda, stably (insertion sort).
        for (int i = 1; i < kept; ++i) {
            const int key = sl[i];
            int j = i - 1;
            while (j >= 0 && lam[o + r[sl[j]]] < lam[o + r[key]]) {
                sl[j + 1] = sl[j];
                --j;
            }
            sl[j + 1] = key;
        }
        const T *at = A + t * strideA;
        count[t] = kept;
        for (int i = 0; i < kmax; ++i) {
            const ng_i64 q = t * kmax + i;
            if (i < kept) {
                const int s = r[sl[i]];
                const T l = lam[o + s];
                const T *x = xs + (o + s) * N;
                lambda[q] = l;
                for (int j = 0; j < N; ++j) X[q * N + j] = x[j];
                mult[q] = -c[sl[i]];
                type[q] = ng_pair_type(tb, at, l, x);
            } else {
                const T nan = T(0) / T(0);
                lambda[q] = nan;
                for (int j = 0; j < N; ++j) X[q * N + j] = nan;
                mult[q] = 0;
                type[q] = 0;
            }
        }
    }
}
#endif

#if NG_APPLY
// Output t at y + t*strideY: A x^m (p = 0), A x^{m-1} (1) or A x^{m-2} (2, N x N).
extern "C" __global__ void __launch_bounds__(NG_THREADS) NG_CAT(apply_, NG_SUFFIX)(
    ng_i64 ntensors, int p, const T *__restrict__ A, ng_i64 strideA, const T *__restrict__ x, ng_i64 strideX, T *__restrict__ y,
    ng_i64 strideY, NG_TABS_PARAMS) {
    NG_TABS_BUILD
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < ntensors; t += (ng_i64)gridDim.x * blockDim.x) {
        const T *a = A + t * strideA;
        T xv[N];
        NG_UNROLL for (int j = 0; j < N; ++j) xv[j] = x[t * strideX + j];
        T *yt = y + t * strideY;
        if (p == 2) {
            T h[N * N];
            ng_hess(tb, a, xv, h);
            NG_UNROLL for (int k = 0; k < N * N; ++k) yt[k] = h[k];
        } else {
            T g[N];
            ng_grad(tb, a, xv, g);
            if (p == 0) {
                yt[0] = ng_dot(xv, g);
            } else {
                NG_UNROLL for (int j = 0; j < N; ++j) yt[j] = g[j];
            }
        }
    }
}
#endif
