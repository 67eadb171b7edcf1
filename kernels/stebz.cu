// Eigenvalues of symmetric tridiagonal matrices by bisection with Sturm counts, and the counts
// themselves (the host side is src/stebz/cuda.rs; the semantics are LAPACK xSTEBZ's).
//
// Kernels (T = NG_T):
//   stebz_prep_<T>    a block per matrix: e2 (e_k^2, 0 where xSTEBZ splits T), and the
//                     matrix's parameters: pivmin, the widened Gershgorin bounds gl and gu,
//                     the absolute and relative tolerances and a flag for non-finite input;
//                     m and info where they are known before any count.
//   stebz_bisect_<T>  G blocks per matrix, block g finding the eigenvalues of its slice of
//                     the index range (G = 1 for a batch of small matrices; the slices of one
//                     large matrix keep the whole GPU busy). Its intervals (a, b] with the
//                     counts (ca, cb] at their ends live in shared memory; each round splits
//                     every interval at K interior points (K = threads / intervals: bisection
//                     when there are many, multisection when there are few), counts at all
//                     points in parallel, and compacts the non-empty, unconverged pieces that
//                     hold eigenvalues of the slice into the other buffer (a block scan gives
//                     their places). A converged piece writes its midpoint to the eigenvalues
//                     whose indices its counts give, so w comes out ascending with no sort.
//   stebz_count_<T>   a thread per (matrix, shift): the count.
//
// Counts are clamped to be monotone in the shift along each interval (Demmel, Dhillon, Ren:
// rounding may make them otherwise), so every index of the slice lies in exactly one piece.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)
#define NG_KERNEL(name) NG_CAT(name, NG_CAT(_, NG_SUFFIX))

typedef NG_T T;

// Matrix parameters written by stebz_prep, per matrix.
#define P_PIVMIN 0
#define P_GL 1
#define P_GU 2
#define P_ATOL 3
#define P_RTOL 4
#define P_BAD 5
#define NG_PARAMS 6

#define NG_ALL 0
#define NG_VALUE 1
#define NG_INDEX 2

// A product never contracted into an fma, so that splits match the CPU backend's.
__device__ __forceinline__ float ng_mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double ng_mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float ng_min(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ double ng_min(double a, double b) { return fmin(a, b); }

// Count(x) of xLAEBZ: the negative pivots of T - xI, |q| < pivmin taken as -pivmin (no fma
// can form: the recurrence has no product).
__device__ int ng_sturm(const T *d, const T *e2, ng_i64 n, T x, T pivmin) {
    T q = d[0] - x;
    if (ng_abs(q) < pivmin) q = -pivmin;
    int c = q <= T(0);
    for (ng_i64 k = 1; k < n; ++k) {
        q = d[k] - e2[k - 1] / q - x;
        if (ng_abs(q) < pivmin) q = -pivmin;
        c += q <= T(0);
    }
    return c;
}

// Block reductions of one value per thread (blockDim.x a multiple of 32, at most 1024).
template <typename V, typename Op>
__device__ V ng_block_reduce(V v, Op op, V *scratch) {
    for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    __syncthreads();
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = scratch[0];
    for (int i = 1; i < warps; ++i) v = op(v, scratch[i]);
    return v;
}

struct ng_op_max { __device__ T operator()(T a, T b) const { return ng_max(a, b); } };
struct ng_op_min { __device__ T operator()(T a, T b) const { return ng_min(a, b); } };
struct ng_op_or { __device__ int operator()(int a, int b) const { return a | b; } };
struct ng_op_add { __device__ int operator()(int a, int b) const { return a + b; } };

// m and info (NULL for the counts) start as what is known before counting: for a non-finite matrix m = 0 and
// info = n + 1; else info = 0 and m the index range's size (VALUE: set by stebz_bisect).
extern "C" __global__ void NG_KERNEL(stebz_prep)(ng_i64 n, const T *d, ng_i64 sd, const T *e, ng_i64 se, T *e2, ng_i64 se2, T *par, ng_i64 spar,
                                                 T abstol, T ulp, T safmin, int range, ng_i64 wanted, long long *m, int *info) {
    __shared__ T rt[32];
    __shared__ int ri[32];
    const ng_i64 i = blockIdx.x;
    d += i * sd;
    e += i * se;
    e2 += i * se2;
    par += i * spar;
    T pmax = T(1), gl = ng_inf<T>(), gu = -ng_inf<T>();
    int bad = 0;
    for (ng_i64 k = threadIdx.x; k < n; k += blockDim.x) {
        const T dk = d[k];
        bad |= !ng_isfinite(dk);
        // |e| of the split matrix either side of row k (xSTEBZ's Gershgorin bounds).
        T left = T(0), right = T(0);
        if (k + 1 < n) {
            const T ek = e[k], t = ng_mul_rn(ek, ek);
            bad |= !ng_isfinite(t);
            const bool split = ng_mul_rn(ng_abs(ng_mul_rn(d[k + 1], dk)), ng_mul_rn(ulp, ulp)) + safmin > t;
            e2[k] = split ? T(0) : t;
            if (!split) {
                pmax = ng_max(pmax, t);
                right = ng_abs(ek);
            }
        } else {
            e2[k] = T(0);
        }
        if (k > 0) {
            const T ek = e[k - 1], t = ng_mul_rn(ek, ek);
            if (!(ng_mul_rn(ng_abs(ng_mul_rn(dk, d[k - 1])), ng_mul_rn(ulp, ulp)) + safmin > t)) left = ng_abs(ek);
        }
        gl = ng_min(gl, dk - left - right);
        gu = ng_max(gu, dk + left + right);
    }
    bad = ng_block_reduce(bad, ng_op_or(), ri);
    pmax = ng_block_reduce(pmax, ng_op_max(), rt);
    gl = ng_block_reduce(gl, ng_op_min(), rt);
    gu = ng_block_reduce(gu, ng_op_max(), rt);
    if (threadIdx.x != 0) return;
    const T pivmin = ng_mul_rn(pmax, safmin), fudge = T(2.1);
    const T tnorm = ng_max(ng_abs(gl), ng_abs(gu));
    const T widen = ng_mul_rn(ng_mul_rn(ng_mul_rn(fudge, tnorm), ulp), T(n)) + ng_mul_rn(ng_mul_rn(fudge, T(2)), pivmin);
    gl = gl - widen;
    gu = gu + widen;
    par[P_PIVMIN] = pivmin;
    par[P_GL] = gl;
    par[P_GU] = gu;
    par[P_ATOL] = abstol > T(0) ? abstol : ng_mul_rn(ulp, ng_max(ng_abs(gl), ng_abs(gu)));
    par[P_RTOL] = ng_mul_rn(T(2), ulp);
    par[P_BAD] = T(bad);
    if (m) m[i] = bad || range == NG_VALUE ? 0 : wanted;
    if (info) info[i] = bad ? int(n + 1) : 0;
}

// Point p (0-based) of the K interior points of (a, b].
__device__ __forceinline__ T ng_point(T a, T b, int p, int K) { return a + (b - a) * (T(p + 1) / T(K + 1)); }

// Exclusive scan of v[0 .. count) in place (every thread of the block calls it); returns the
// total. part holds blockDim.x ints.
__device__ int ng_block_scan(int *v, int count, int *part) {
    const int t = threadIdx.x, nt = blockDim.x;
    const int seg = (count + nt - 1) / nt, lo = min(count, t * seg), hi = min(count, lo + seg);
    int s = 0;
    for (int k = lo; k < hi; ++k) s += v[k];
    part[t] = s;
    __syncthreads();
    for (int o = 1; o < nt; o <<= 1) {
        const int add = t >= o ? part[t - o] : 0;
        __syncthreads();
        part[t] += add;
        __syncthreads();
    }
    int run = part[t] - s;
    const int total = part[nt - 1];
    for (int k = lo; k < hi; ++k) {
        const int c = v[k];
        v[k] = run;
        run += c;
    }
    __syncthreads();
    return total;
}

// One interval's K + 1 pieces, walked in order: piece s is (x_{s-1}, x_s] with the clamped,
// monotone counts (c_{s-1}, c_s] (x_{-1} = a, c_{-1} = ca; x_K = b, c_K = cb).
struct ng_walk {
    T a, b;
    int ca, cb, K;
    const int *cnt;  // the K raw counts at the interior points
    T x0, x1;
    int c0, c1, s;
    __device__ void start(T a_, T b_, int ca_, int cb_, int K_, const int *cnt_) {
        a = a_, b = b_, ca = ca_, cb = cb_, K = K_, cnt = cnt_;
        x1 = a;
        c1 = ca;
        s = -1;
    }
    // Advances to the next piece; false after the last.
    __device__ bool next() {
        if (++s > K) return false;
        x0 = x1;
        c0 = c1;
        x1 = s < K ? ng_point(a, b, s, K) : b;
        c1 = s < K ? min(max(cnt[s], c0), cb) : cb;
        return true;
    }
};

// The slice's indices k (1-based) in piece (c0, c1]: [max(c0 + 1, lo), min(c1, hi)].
__device__ __forceinline__ bool ng_overlaps(int c0, int c1, ng_i64 lo, ng_i64 hi) { return max(ng_i64(c0) + 1, lo) <= min(ng_i64(c1), hi); }

extern "C" __global__ void NG_KERNEL(stebz_bisect)(ng_i64 n, int range, T vl, T vu, ng_i64 first, ng_i64 last, ng_i64 G, ng_i64 cap, int stage,
                                                   const T *dg, ng_i64 sd, const T *e2g, ng_i64 se2, const T *par, ng_i64 spar, long long *m, T *w,
                                                   ng_i64 sw, int *info) {
    extern __shared__ __align__(16) unsigned char ng_smem[];
    __shared__ int s_ca, s_cb;
    const int nt = blockDim.x, t = threadIdx.x;
    const ng_i64 i = blockIdx.x / G, g = blockIdx.x % G;
    par += i * spar;
    if (par[P_BAD] != T(0)) return;
    if (n == 1) {
        // LAPACK's special case: the eigenvalue is d itself, not a bisection's approximation.
        if (g == 0 && threadIdx.x == 0) {
            const T d0 = dg[i * sd];
            const bool in = range != NG_VALUE || (vl < d0 && d0 <= vu);
            if (range == NG_VALUE) m[i] = in;
            if (in) w[i * sw] = d0;
        }
        return;
    }
    const T pivmin = par[P_PIVMIN], gl = par[P_GL], gu = par[P_GU], atol = par[P_ATOL], rtol = par[P_RTOL];
    // Shared memory: lo, hi (two buffers each), then the matrix when staged, then ca, cb (two
    // buffers each), the counts at the points, the pieces per interval and the scan's part.
    // Buffer b of lo, hi, ca, cb starts at b·cap.
    T *lo = (T *)ng_smem, *hi = lo + 2 * cap;
    T *tail = (T *)ng_smem + 4 * cap;
    const T *d = dg + i * sd, *e2 = e2g + i * se2;
    if (stage) {
        for (ng_i64 k = t; k < n; k += nt) {
            tail[k] = d[k];
            tail[n + k] = e2[k];
        }
        d = tail;
        e2 = tail + n;
        tail += 2 * n;
    }
    __syncthreads();
    int *ca = (int *)tail, *cb = ca + 2 * cap;
    int *cnt = (int *)tail + 4 * cap;
    const ng_i64 ncnt = cap > nt ? cap : nt;
    int *pieces = cnt + ncnt, *part = pieces + cap;

    // The slice of indices [slo, shi] and the starting interval.
    ng_i64 slo = first + g * cap, shi = min(last, slo + cap - 1), base = first;
    T a = gl, b = gu;
    if (range == NG_VALUE) {
        a = ng_max(vl, gl);
        b = ng_min(vu, gu);
        if (t == 0) s_ca = vl <= gl ? 0 : ng_sturm(d, e2, n, vl, pivmin);
        if (t == nt - 1) s_cb = vu >= gu ? int(n) : ng_sturm(d, e2, n, vu, pivmin);
    }
    __syncthreads();
    int c_a = 0, c_b = int(n);
    if (range == NG_VALUE) {
        c_a = s_ca;
        c_b = max(s_cb, c_a);
        if (g == 0 && t == 0) m[i] = a < b ? c_b - c_a : 0;
        if (!(a < b)) return;
        base = ng_i64(c_a) + 1;
        slo = max(slo, base);
        shi = min(shi, ng_i64(c_b));
    }
    if (slo > shi) return;
    w += i * sw;
    if (t == 0) {
        lo[0] = a;
        hi[0] = b;
        ca[0] = c_a;
        cb[0] = c_b;
    }
    // Rounds: each at least halves every interval, so this many reach the tolerance from the
    // starting width (LAPACK's ITMAX); pieces still open after it are reported in info.
    const T ratio = (b - a + pivmin) / ng_max(atol, pivmin);
    const int rounds = int(ng_min(ng_max(log2(ratio), T(0)), T(4000))) + 3;
    int A = 1, cur = 0, unconverged = 0;
    __syncthreads();
    for (int round = 0; A > 0; ++round) {
        const int K = max(1, nt / A);
        const bool last_round = round + 1 >= rounds;
        for (int p = t; p < A * K; p += nt) {
            const int j = p / K;
            cnt[p] = ng_sturm(d, e2, n, ng_point(lo[cur * cap + j], hi[cur * cap + j], p % K, K), pivmin);
        }
        __syncthreads();
        // Pass 1: emit converged pieces (and, in the last round, every piece); count the rest.
        const ng_i64 now = cur * cap, then = (1 - cur) * cap;
        for (int j = t; j < A; j += nt) {
            ng_walk wk;
            wk.start(lo[now + j], hi[now + j], ca[now + j], cb[now + j], K, cnt + j * K);
            int open = 0;
            while (wk.next()) {
                if (!ng_overlaps(wk.c0, wk.c1, slo, shi)) continue;
                const T width = wk.x1 - wk.x0, tol = ng_max(ng_max(atol, pivmin), rtol * ng_max(ng_abs(wk.x0), ng_abs(wk.x1)));
                const bool done = width < tol;
                if (!done && !last_round) {
                    ++open;
                    continue;
                }
                const T mid = (wk.x0 + wk.x1) * T(0.5);
                const ng_i64 k0 = max(ng_i64(wk.c0) + 1, slo), k1 = min(ng_i64(wk.c1), shi);
                for (ng_i64 k = k0; k <= k1; ++k) w[k - base] = mid;
                if (!done) unconverged += int(k1 - k0 + 1);
            }
            pieces[j] = open;
        }
        __syncthreads();
        const int next = ng_block_scan(pieces, A, part);
        // Pass 2: the open pieces into the other buffer, in order.
        for (int j = t; j < A; j += nt) {
            ng_walk wk;
            wk.start(lo[now + j], hi[now + j], ca[now + j], cb[now + j], K, cnt + j * K);
            int at = pieces[j];
            while (wk.next() && !last_round) {
                if (!ng_overlaps(wk.c0, wk.c1, slo, shi)) continue;
                const T width = wk.x1 - wk.x0, tol = ng_max(ng_max(atol, pivmin), rtol * ng_max(ng_abs(wk.x0), ng_abs(wk.x1)));
                if (width < tol) continue;
                lo[then + at] = wk.x0;
                hi[then + at] = wk.x1;
                ca[then + at] = wk.c0;
                cb[then + at] = wk.c1;
                ++at;
            }
        }
        __syncthreads();
        A = next;
        cur = 1 - cur;
    }
    unconverged = ng_block_reduce(unconverged, ng_op_add(), part);
    if (t == 0 && unconverged > 0) atomicAdd(info + i, unconverged);
}

// Puts each matrix's m eigenvalues in ascending order. Within one block's slice they are
// already; where several blocks share a matrix, their pieces may overlap by a tolerance, so two
// eigenvalues closer than it can come out swapped at a slice boundary. Insertion sort, a
// thread per matrix: linear in m plus the (few, local) inversions.
extern "C" __global__ void NG_KERNEL(stebz_order)(const long long *m, T *w, ng_i64 sw, const T *par, ng_i64 spar, ng_i64 batch) {
    const ng_i64 i = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x;
    if (i >= batch || par[i * spar + P_BAD] != T(0)) return;
    T *v = w + i * sw;
    const ng_i64 len = m[i];
    for (ng_i64 k = 1; k < len; ++k) {
        const T x = v[k];
        if (!(x < v[k - 1])) continue;
        ng_i64 j = k;
        do {
            v[j] = v[j - 1];
            --j;
        } while (j > 0 && x < v[j - 1]);
        v[j] = x;
    }
}

extern "C" __global__ void NG_KERNEL(stebz_count)(ng_i64 n, const T *d, ng_i64 sd, const T *e2, ng_i64 se2, const T *par, ng_i64 spar, ng_i64 nmu,
                                                  const T *mu, long long *count, ng_i64 scount, ng_i64 batch) {
    const ng_i64 total = batch * nmu;
    for (ng_i64 p = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; p < total; p += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 i = p / nmu, j = p % nmu;
        const T *pi = par + i * spar, x = mu[j];
        count[i * scount + j] = pi[P_BAD] != T(0) || x != x ? -1 : ng_sturm(d + i * sd, e2 + i * se2, n, x, pi[P_PIVMIN]);
    }
}
