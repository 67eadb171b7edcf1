// Batched Jacobi eigen and singular value decompositions (the host side is
// src/jacobi/cuda.rs; the semantics, shared with the CPU backend, are in src/jacobi/mod.rs).
//
// Kernels (T = NG_T, R its real type):
//   jacobi_syevj_<T>   two-sided cyclic Jacobi on a Hermitian matrix.
//   jacobi_gesvdj_<T>  one-sided (Hestenes) Jacobi on the columns of A (m >= n) or of Aᴴ.
//
// A "team" works on one matrix: a warp (several teams per block, synchronised by __syncwarp)
// for small matrices, or the whole block (__syncthreads). The team's working matrices live in
// its slice of dynamic shared memory when they fit (the host decides: flags *_sh), else in
// the per-matrix global scratch `work`. Each sweep is n − 1 round-robin steps (the circle
// method: position 0 fixed, the others rotating), each step n/2 disjoint pairs (p, q): the
// team forms every pair's rotation from the current matrix, then applies them all, which is
// the order the CPU backend follows. A rotation is skipped when the pair passes the relative
// (Demmel–Veselić) test; a matrix has converged after a sweep that rotated nothing.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)
#define NG_KERNEL(name) NG_CAT(name, NG_CAT(_, NG_SUFFIX))

typedef NG_T T;
typedef ng_real_of<T>::type R;

// Most threads of a block team (the host never launches more).
#define NG_MAX_THREADS 512

__device__ __forceinline__ float ng_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double ng_sqrt(double x) { return sqrt(x); }
__device__ __forceinline__ float ng_hypot1(float x) { return hypotf(1.0f, x); }
__device__ __forceinline__ double ng_hypot1(double x) { return hypot(1.0, x); }
__device__ __forceinline__ R ng_norm2(float a) { return a * a; }
__device__ __forceinline__ R ng_norm2(double a) { return a * a; }
template <typename Q>
__device__ __forceinline__ R ng_norm2(ng_complex<Q> a) { return a.re * a.re + a.im * a.im; }
__device__ __forceinline__ R ng_re(float a) { return a; }
__device__ __forceinline__ R ng_re(double a) { return a; }
template <typename Q>
__device__ __forceinline__ R ng_re(ng_complex<Q> a) { return a.re; }
__device__ __forceinline__ T ng_add(T a, T b) { return ng_fma(ng_from_real_t<T>::of(R(1)), a, b); }
__device__ __forceinline__ T ng_scale(T a, R r) { return ng_mul(a, ng_from_real_t<T>::of(r)); }
__device__ __forceinline__ R ng_nan() { return ng_inf<R>() - ng_inf<R>(); }

// The team of threads that works on one matrix.
struct Team {
    int lane, size;
    bool warp;
    R *red;  // 32 entries of shared memory for block reductions
    __device__ void sync() const {
        if (warp) __syncwarp();
        else __syncthreads();
    }
    // The maximum over the team (v >= 0, not NaN), the same value in every thread.
    __device__ R max(R v) const {
        for (int o = 16; o > 0; o >>= 1) v = ng_max(v, __shfl_xor_sync(0xffffffffu, v, o));
        if (warp) return v;
        __syncthreads();
        if ((lane & 31) == 0) red[lane >> 5] = v;
        __syncthreads();
        v = red[0];
        for (int i = 1; i < (size >> 5); ++i) v = ng_max(v, red[i]);
        return v;
    }
    // The sum over the team, in a fixed order.
    __device__ R sum(R v) const {
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        if (warp) return v;
        __syncthreads();
        if ((lane & 31) == 0) red[lane >> 5] = v;
        __syncthreads();
        v = red[0];
        for (int i = 1; i < (size >> 5); ++i) v += red[i];
        return v;
    }
};

// The team of this thread and its matrix index; `teams` warps per block, or the block.
__device__ Team ng_team(bool warp, R *red) {
    Team t;
    t.warp = warp;
    t.lane = warp ? (threadIdx.x & 31) : threadIdx.x;
    t.size = warp ? 32 : blockDim.x;
    t.red = red;
    return t;
}

// Pair j < N / 2 of step k < N − 1 of the round-robin ordering of N (even) players: p < q.
// Player x = (j − 1 + k) mod (N − 1) + 1 (x = 0 for j = 0), y = (N − 2 − j + k) mod (N − 1) + 1;
// both sums lie in [0, 2(N − 1)) for those j and k, so one conditional subtraction is the mod.
__device__ __forceinline__ void ng_pair(int j, int k, int N, int *p, int *q) {
    const int m = N - 1, u = j - 1 + k, v = N - 2 - j + k;
    const int x = j == 0 ? 0 : (u >= m ? u - m : u) + 1;
    const int y = (v >= m ? v - m : v) + 1;
    *p = min(x, y);
    *q = max(x, y);
}

// The rotation that diagonalises [[a, b], [conj(b), d]] (a, d real, g = |b| > 0): J =
// [[c, sp], [−conj(sp), c]], sp = s·b/|b|; the new diagonal is a − t·g, d + t·g.
__device__ __forceinline__ void ng_rotation(R a, R d, T b, R g, R *c, T *sp, R *t_out) {
    const R theta = (d - a) / (R(2) * g);
    const R t = (theta >= R(0) ? R(1) : R(-1)) / (ng_abs(theta) + ng_hypot1(theta));
    const R cc = R(1) / ng_sqrt(R(1) + t * t);
    *c = cc;
    *sp = ng_scale(b, t * cc / g);
    *t_out = t;
}

// Columns p and q of the matrix at x (rows rows, leading dimension ld) times J, for every
// rotating pair of the step: the team's items are (pair, row), rows fastest, so a warp's
// lanes take consecutive rows of one column (coalesced, no bank conflicts). Each thread walks
// its items by increments (no division per item) and fetches its pair's rotation when the
// pair changes.
__device__ void ng_apply_columns(const Team &tm, T *x, ng_i64 rows, ng_i64 ld, int P, int k, int N, const R *cs, const T *sp) {
    const ng_i64 di = tm.size % rows;
    const int dj = (int)(tm.size / rows);
    ng_i64 i = tm.lane % rows;
    int j = (int)(tm.lane / rows), at = -1;
    R c = R(-1);
    T s = ng_zero<T>(), *xp = x, *xq = x;
    while (j < P) {
        if (j != at) {
            at = j;
            c = cs[j];
            s = sp[j];
            int p, q;
            ng_pair(j, k, N, &p, &q);
            xp = x + p * ld;
            xq = x + q * ld;
        }
        if (c >= R(0)) {
            const T u = xp[i], v = xq[i];
            xp[i] = ng_add(ng_scale(u, c), ng_neg(ng_mul(v, ng_conj(s))));
            xq[i] = ng_add(ng_mul(u, s), ng_scale(v, c));
        }
        i += di;
        j += dj;
        if (i >= rows) {
            i -= rows;
            ++j;
        }
    }
}

// Rows p and q of the n × n matrix at a times Jᴴ, for every rotating pair of the step, and
// its 2 × 2 block (p, q) set exactly diagonal (dp, dq: the new diagonal entries): the items
// are (pair, column), pairs fastest, so a warp's lanes take different rows of one column (rows
// fastest would put all 32 lanes on one shared-memory bank), walked by increments. Only pair
// j's items touch rows p and q, so its block's entries are written once, exactly.
__device__ void ng_apply_rows(const Team &tm, T *a, int n, int P, int k, int N, const R *cs, const T *sp, const R *dp, const R *dq) {
    const int dj = tm.size % P, di = tm.size / P;
    int j = tm.lane % P, i = tm.lane / P;
    while (i < n) {
        const R c = cs[j];
        if (c >= R(0)) {
            int p, q;
            ng_pair(j, k, N, &p, &q);
            const T s = sp[j];
            T *xp = a + p + (ng_i64)i * n, *xq = a + q + (ng_i64)i * n;
            if (i == p) {
                *xp = ng_from_real_t<T>::of(dp[j]);
                *xq = ng_zero<T>();
            } else if (i == q) {
                *xp = ng_zero<T>();
                *xq = ng_from_real_t<T>::of(dq[j]);
            } else {
                const T u = *xp, v = *xq;
                *xp = ng_add(ng_scale(u, c), ng_neg(ng_mul(s, v)));
                *xq = ng_add(ng_mul(ng_conj(s), u), ng_scale(v, c));
            }
        }
        j += dj;
        i += di;
        if (j >= P) {
            j -= P;
            ++i;
        }
    }
}

// The NaN outputs of a matrix with a non-finite entry.
__device__ void ng_fill_nan(const Team &tm, T *x, ng_i64 rows, ng_i64 cols, ng_i64 ld) {
    const R nan = ng_nan();
    T v;
    v = ng_from_real_t<T>::of(nan);
    for (ng_i64 it = tm.lane; it < rows * cols; it += tm.size) x[it % rows + (it / rows) * ld] = v;
}

// The rank of value j among vals[0 .. n) (ascending, or descending when `desc`; ties by
// index): the position sorting gives it.
__device__ int ng_rank(const R *vals, int n, int j, bool desc) {
    const R v = vals[j];
    int r = 0;
    for (int i = 0; i < n; ++i) {
        const R u = vals[i];
        r += (desc ? u > v : u < v) || (u == v && i < j);
    }
    return r;
}

// Column r of x (rows rows, leading dimension ld) made a unit vector orthogonal to its other
// columns that are present: those before r, and those after r whose value s is nonzero
// (CGS2 from e_0, e_1, ... until one keeps more than half its norm). coef: cols entries.
__device__ __forceinline__ void ng_complete(const Team &tm, T *x, ng_i64 rows, int cols, ng_i64 ld, int r, const R *s, T *coef) {
    T *xr = x + r * ld;
    for (ng_i64 e = 0; e < rows; ++e) {
        for (ng_i64 i = tm.lane; i < rows; i += tm.size) xr[i] = ng_from_real_t<T>::of(i == e ? R(1) : R(0));
        tm.sync();
        for (int pass = 0; pass < 2; ++pass) {
            for (int c = tm.lane; c < cols; c += tm.size) {
                T d = ng_zero<T>();
                if (c != r && (c < r || s[c] != R(0)))
                    for (ng_i64 i = 0; i < rows; ++i) d = ng_fma(ng_conj(x[i + c * ld]), xr[i], d);
                coef[c] = d;
            }
            tm.sync();
            for (ng_i64 i = tm.lane; i < rows; i += tm.size) {
                T d = xr[i];
                for (int c = 0; c < cols; ++c) d = ng_fma(ng_neg(x[i + c * ld]), coef[c], d);
                xr[i] = d;
            }
            tm.sync();
        }
        R nrm = 0;
        for (ng_i64 i = tm.lane; i < rows; i += tm.size) nrm += ng_norm2(xr[i]);
        nrm = ng_sqrt(tm.sum(nrm));
        if (nrm > R(0.5)) {
            for (ng_i64 i = tm.lane; i < rows; i += tm.size) xr[i] = ng_scale(xr[i], R(1) / nrm);
            tm.sync();
            return;
        }
        tm.sync();
    }
}

#ifndef NG_N  // the general kernels (team per matrix, working matrices in memory)

// Shared memory per team, in elements: the layouts the host mirrors in cuda.rs.
//   syevj:  [a: n² T if a_sh][v: n² T if v_sh][sp: P T] [cs, dp, dq: P R each][vals, rk: n R each][red: 32 R]
//   gesvdj: [w: mm·nn T if w_sh][q: nn² T if q_sh][sp: P T] [cs: P R][vals, rk: nn R each][red: 32 R]
// each team's slice a multiple of 16 bytes.

extern "C" __global__ void __launch_bounds__(NG_MAX_THREADS) NG_KERNEL(jacobi_syevj)(
    int n, int vectors, int upper, T *a, ng_i64 lda, ng_i64 sa, R *w, ng_i64 sw, T *work, ng_i64 swork,
    int a_sh, int v_sh, double tol_in, int max_sweeps, int sort, int *info, int *sweeps, R *residual, ng_i64 batch,
    int warp_team, ng_i64 team_bytes) {
    extern __shared__ __align__(16) unsigned char ng_smem[];
    const R tol = R(tol_in);  // the host's tolerance, rounded to R as the CPU backend's
    const bool warp = warp_team != 0;
    const int team_id = warp ? threadIdx.x >> 5 : 0;
    const ng_i64 mat = warp ? (ng_i64)blockIdx.x * (blockDim.x >> 5) + team_id : blockIdx.x;
    if (mat >= batch) return;  // a whole warp team at once; a block team never
    const int N = n + (n & 1), P = N / 2;
    unsigned char *base = ng_smem + team_bytes * team_id;
    T *tp = (T *)base;
    T *wk = work + mat * swork;
    T *A = a_sh ? tp : wk;
    if (a_sh) tp += (ng_i64)n * n;
    else wk += (ng_i64)n * n;
    T *V = v_sh ? tp : wk;
    if (v_sh) tp += (ng_i64)n * n;
    T *sp = tp;
    R *cs = (R *)(sp + P), *dp = cs + P, *dq = dp + P, *vals = dq + P, *rk = vals + n;
    const Team tm = ng_team(warp, rk + n);
    T *am = a + mat * sa;

    // The Hermitian matrix from its stored triangle (the diagonal's imaginary part ignored).
    R bad = 0;
    for (ng_i64 it = tm.lane; it < (ng_i64)n * n; it += tm.size) {
        const ng_i64 i = it % n, j = it / n;
        const bool stored = upper ? i <= j : i >= j;
        T x = stored ? am[i + j * lda] : ng_conj(am[j + i * lda]);
        if (i == j) x = ng_from_real_t<T>::of(ng_re(x));
        if (!ng_isfinite(x)) bad = 1;
        A[i + j * n] = x;
        if (vectors) V[i + j * n] = ng_from_real_t<T>::of(i == j ? R(1) : R(0));
    }
    if (tm.max(bad) != R(0)) {
        for (int j = tm.lane; j < n; j += tm.size) w[mat * sw + j] = ng_nan();
        if (vectors) ng_fill_nan(tm, am, n, n, lda);
        if (tm.lane == 0) {
            info[mat] = 2;
            sweeps[mat] = 0;
            residual[mat] = ng_nan();
        }
        return;
    }
    tm.sync();

    int status = 0, sweep = 0;
    R resid = 0;
    for (;;) {
        ++sweep;
        R worst = 0, rotated = 0;
        for (int k = 0; k < N - 1; ++k) {
            for (int j = tm.lane; j < P; j += tm.size) {
                int p, q;
                ng_pair(j, k, N, &p, &q);
                cs[j] = R(-1);
                if (q >= n) continue;
                const R app = ng_re(A[p + p * n]), aqq = ng_re(A[q + q * n]);
                const T b = A[p + q * n];
                const R g = ng_abs(b), scale = ng_sqrt(ng_abs(app)) * ng_sqrt(ng_abs(aqq));
                const R ratio = g == R(0) ? R(0) : g / scale;
                if (!(ratio == ratio) || !(app == app) || !(aqq == aqq)) bad = 1;
                else worst = ng_max(worst, ratio);
                if (g <= tol * scale || !(ratio == ratio)) continue;
                R c, t;
                ng_rotation(app, aqq, b, g, &c, &sp[j], &t);
                cs[j] = c;
                dp[j] = app - t * g;
                dq[j] = aqq + t * g;
                rotated = 1;
            }
            tm.sync();
            ng_apply_columns(tm, A, n, n, P, k, N, cs, sp);
            if (vectors) ng_apply_columns(tm, V, n, n, P, k, N, cs, sp);
            tm.sync();
            ng_apply_rows(tm, A, n, P, k, N, cs, sp, dp, dq);
            tm.sync();
        }
        const R any = tm.max(rotated), worst_all = tm.max(worst);
        if (tm.max(bad) != R(0)) {
            status = 2;
            break;
        }
        resid = worst_all;
        if (any == R(0)) break;
        if (sweep >= max_sweeps) {
            status = 1;
            break;
        }
    }

    if (status == 2) {
        for (int j = tm.lane; j < n; j += tm.size) w[mat * sw + j] = ng_nan();
        if (vectors) ng_fill_nan(tm, am, n, n, lda);
        resid = ng_nan();
    } else {
        for (int j = tm.lane; j < n; j += tm.size) vals[j] = ng_re(A[j + j * n]);
        tm.sync();
        for (int j = tm.lane; j < n; j += tm.size) {
            rk[j] = R(sort ? ng_rank(vals, n, j, false) : j);
            w[mat * sw + (int)rk[j]] = vals[j];
        }
        tm.sync();
        if (vectors) {
            for (ng_i64 it = tm.lane; it < (ng_i64)n * n; it += tm.size) {
                const int j = (int)(it / n);
                const ng_i64 i = it - (ng_i64)j * n;
                am[i + (ng_i64)rk[j] * lda] = V[i + j * n];
            }
        }
    }
    if (tm.lane == 0) {
        info[mat] = status;
        sweeps[mat] = sweep;
        residual[mat] = resid;
    }
}

extern "C" __global__ void __launch_bounds__(NG_MAX_THREADS) NG_KERNEL(jacobi_gesvdj)(
    int m, int n, int jobu, int jobv, const T *a, ng_i64 lda, ng_i64 sa, R *s, ng_i64 ss, T *u, ng_i64 ldu,
    ng_i64 su, T *v, ng_i64 ldv, ng_i64 sv, T *work, ng_i64 swork, int w_sh, int q_sh, double tol_in, int max_sweeps,
    int sort, int *info, int *sweeps, R *residual, ng_i64 batch, int warp_team, ng_i64 team_bytes) {
    extern __shared__ __align__(16) unsigned char ng_smem[];
    const R tol = R(tol_in);  // the host's tolerance, rounded to R as the CPU backend's
    const bool warp = warp_team != 0;
    const int team_id = warp ? threadIdx.x >> 5 : 0;
    const ng_i64 mat = warp ? (ng_i64)blockIdx.x * (blockDim.x >> 5) + team_id : blockIdx.x;
    if (mat >= batch) return;
    // One-sided Jacobi on W = A (m >= n) or W = Aᴴ (m < n): mm × nn, nn = min(m, n).
    const bool wide = m < n;
    const int mm = wide ? n : m, nn = wide ? m : n;
    const int N = nn + (nn & 1), P = N / 2;
    // X receives W's normalised columns, Y the accumulated rotations Q.
    const bool want_x = wide ? jobv : jobu, want_q = wide ? jobu : jobv;
    T *X = wide ? v + mat * sv : u + mat * su, *Y = wide ? u + mat * su : v + mat * sv;
    const ng_i64 ldx = wide ? ldv : ldu, ldy = wide ? ldu : ldv;
    unsigned char *base = ng_smem + team_bytes * team_id;
    T *tp = (T *)base;
    T *wk = work + mat * swork;
    T *W = w_sh ? tp : wk;
    if (w_sh) tp += (ng_i64)mm * nn;
    else wk += (ng_i64)mm * nn;
    T *Q = q_sh ? tp : wk;
    if (q_sh) tp += want_q ? (ng_i64)nn * nn : 0;
    else wk += want_q ? (ng_i64)nn * nn : 0;
    T *coef = wk;
    T *sp = tp;
    R *cs = (R *)(sp + P), *vals = cs + P, *rk = vals + nn;
    const Team tm = ng_team(warp, rk + nn);
    const T *am = a + mat * sa;
    R *sm = s + mat * ss;

    R bad = 0;
    for (ng_i64 it = tm.lane; it < (ng_i64)mm * nn; it += tm.size) {
        const ng_i64 i = it % mm, j = it / mm;
        const T x = wide ? ng_conj(am[j + i * lda]) : am[i + j * lda];
        if (!ng_isfinite(x)) bad = 1;
        W[i + j * mm] = x;
    }
    if (want_q)
        for (ng_i64 it = tm.lane; it < (ng_i64)nn * nn; it += tm.size)
            Q[it] = ng_from_real_t<T>::of(it % nn == it / nn ? R(1) : R(0));
    int status = tm.max(bad) != R(0) ? 2 : 0, sweep = 0;
    R resid = 0;
    tm.sync();

    // Lanes per pair for the dot products: a power of two up to 32, so that a group is
    // inside one warp and the shuffles below stay in it.
    int g = 1;
    while (g < 32 && g * 2 * P <= tm.size) g *= 2;
    const int groups = tm.size / g, gid = tm.lane / g, gl = tm.lane % g;
    while (status == 0) {
        ++sweep;
        R worst = 0, rotated = 0;
        for (int k = 0; k < N - 1; ++k) {
            for (int b0 = 0; b0 < P; b0 += groups) {
                const int j = b0 + gid;
                int p = 0, q = 0;
                if (j < P) ng_pair(j, k, N, &p, &q);
                const bool act = j < P && q < nn;
                R al = 0, be = 0;
                T ga = ng_zero<T>();
                if (act)
                    for (ng_i64 r = gl; r < mm; r += g) {
                        const T x = W[r + p * (ng_i64)mm], y = W[r + q * (ng_i64)mm];
                        al += ng_norm2(x);
                        be += ng_norm2(y);
                        ga = ng_fma(ng_conj(x), y, ga);
                    }
                for (int o = g / 2; o > 0; o >>= 1) {
                    al += __shfl_xor_sync(0xffffffffu, al, o);
                    be += __shfl_xor_sync(0xffffffffu, be, o);
                    ga = ng_add(ga, ng_shfl(ga, (threadIdx.x & 31) ^ o, 32));
                }
                if (gl != 0 || j >= P) continue;
                cs[j] = R(-1);
                if (!act) continue;
                const R gg = ng_abs(ga), scale = ng_sqrt(al) * ng_sqrt(be);
                const R ratio = gg == R(0) ? R(0) : gg / scale;
                if (!(ratio == ratio) || !(al == al) || !(be == be)) bad = 1;
                else worst = ng_max(worst, ratio);
                if (gg <= tol * scale || !(ratio == ratio)) continue;
                R c, t;
                ng_rotation(al, be, ga, gg, &c, &sp[j], &t);
                cs[j] = c;
                rotated = 1;
            }
            tm.sync();
            ng_apply_columns(tm, W, mm, mm, P, k, N, cs, sp);
            if (want_q) ng_apply_columns(tm, Q, nn, nn, P, k, N, cs, sp);
            tm.sync();
        }
        const R any = tm.max(rotated), worst_all = tm.max(worst);
        if (tm.max(bad) != R(0)) {
            status = 2;
            break;
        }
        resid = worst_all;
        if (any == R(0)) break;
        if (sweep >= max_sweeps) status = 1;
    }

    if (status == 2) {
        for (int j = tm.lane; j < nn; j += tm.size) sm[j] = ng_nan();
        if (want_x) ng_fill_nan(tm, X, mm, nn, ldx);
        if (want_q) ng_fill_nan(tm, Y, nn, nn, ldy);
        resid = ng_nan();
    } else {
        // σ_j = ‖w_j‖: a group of lanes per column.
        for (int b0 = 0; b0 < nn; b0 += groups) {
            const int j = b0 + gid;
            R al = 0;
            if (j < nn)
                for (ng_i64 r = gl; r < mm; r += g) al += ng_norm2(W[r + j * (ng_i64)mm]);
            for (int o = g / 2; o > 0; o >>= 1) al += __shfl_xor_sync(0xffffffffu, al, o);
            if (gl == 0 && j < nn) vals[j] = ng_sqrt(al);
        }
        tm.sync();
        for (int j = tm.lane; j < nn; j += tm.size) {
            rk[j] = R(sort ? ng_rank(vals, nn, j, true) : j);
            sm[(int)rk[j]] = vals[j];
        }
        tm.sync();
        if (want_x)
            for (ng_i64 it = tm.lane; it < (ng_i64)mm * nn; it += tm.size) {
                const int j = (int)(it / mm);
                const ng_i64 i = it - (ng_i64)j * mm;
                const R sj = vals[j];
                X[i + (ng_i64)rk[j] * ldx] = sj > R(0) ? ng_scale(W[i + j * (ng_i64)mm], R(1) / sj) : ng_zero<T>();
            }
        if (want_q)
            for (ng_i64 it = tm.lane; it < (ng_i64)nn * nn; it += tm.size) {
                const int j = (int)(it / nn);
                const ng_i64 i = it - (ng_i64)j * nn;
                Y[i + (ng_i64)rk[j] * ldy] = Q[i + j * (ng_i64)nn];
            }
        tm.sync();
        // Zero singular values: their columns of X completed to an orthonormal set.
        if (want_x)
            for (int r = 0; r < nn; ++r)
                if (sm[r] == R(0)) ng_complete(tm, X, mm, nn, ldx, r, sm, coef);
    }
    if (tm.lane == 0) {
        info[mat] = status;
        sweeps[mat] = sweep;
        residual[mat] = resid;
    }
}

#else  // NG_N: the register-resident warp kernels
// Orders ≤ 32 (NG_N: the order rotated; NG_M: the rows, gesvdj's max(m, n)), compiled for
// the exact order. A segment of S lanes (S the power of two ≥ max(M, N), N = n rounded up
// to even) per matrix, 32 / S matrices per warp: lane r holds row r of the working matrix
// (syevj: A; gesvdj: W) and of the accumulated rotations in registers, lanes past the
// matrix zeros. Register slot c holds the column of the player at seat c of the round-robin
// circle (ng_player), so the pairs of every step are the same registers and a rolled loop
// over the steps indexes registers statically (a register array indexed at run time would
// be local memory): the column rotations are register-local; syevj's row rotations take the
// partner lane's row by shuffles; gesvdj's dot products are one reduce-scatter over the
// segment for all pairs of a step. The pairs,
// order, formulas, skip test and convergence rule are those of the general kernels and the
// CPU backend; a segment that has stopped rotates nothing while others of its warp go on.

constexpr int WN = NG_N, WM = NG_M;
constexpr int WNE = WN + (WN & 1), WP = WNE / 2;
__host__ __device__ constexpr int ng_pow2_at_least(int x) { return x <= 2 ? 2 : 2 * ng_pow2_at_least((x + 1) / 2); }
constexpr int WS = ng_pow2_at_least(WM > WNE ? WM : WNE), WH = WS / 2;
constexpr bool WCPLX = sizeof(T) == 2 * sizeof(R);
#define NG_WARPS 4
#define NG_FULL 0xffffffffu

__device__ __forceinline__ R ng_xor(R v, int o) { return __shfl_xor_sync(NG_FULL, v, o, WS); }
__device__ __forceinline__ R ng_im(float) { return 0; }
__device__ __forceinline__ R ng_im(double) { return 0; }
template <typename Q>
__device__ __forceinline__ R ng_im(ng_complex<Q> a) { return a.im; }
__device__ __forceinline__ void ng_set(float &z, R re, R) { z = re; }
__device__ __forceinline__ void ng_set(double &z, R re, R) { z = re; }
template <typename Q>
__device__ __forceinline__ void ng_set(ng_complex<Q> &z, R re, R im) { z.re = re; z.im = im; }

// Columns p and q (the registers u, v of one row) times J = [[c, sp], [−conj(sp), c]].
__device__ __forceinline__ void ng_rot(T &u, T &v, R c, T s) {
    const T x = u, y = v;
    u = ng_add(ng_scale(x, c), ng_neg(ng_mul(y, ng_conj(s))));
    v = ng_add(ng_mul(x, s), ng_scale(y, c));
}

// One level of a reduce-scatter: index i and i + O combined over lane bit O, the lane
// keeping the index whose bit O is its own (compacted to i), then the levels below. Template
// recursion so that every index is a compile-time constant.
template <int O, int K>
__device__ __forceinline__ void ng_rs_level(R (&v)[K], int r) {
    if constexpr (O >= 1) {
        const bool up = r & O;
#pragma unroll
        for (int i = 0; i < O; ++i) {
            const R keep = up ? v[i + O] : v[i], send = up ? v[i] : v[i + O];
            v[i] = keep + ng_xor(send, O);
        }
        ng_rs_level<O / 2>(v, r);
    }
}

// Reduce-scatter over the segment: v[i] (i < K, K a power of two ≤ WH) are this lane's parts
// of the sums of index i; returns the sum of index (lane & (K − 1)) over the lanes that differ
// from this one only in the bits below TOP (TOP = WS: the segment; a caller that has summed
// over the bits from K up already passes K). A fixed tree, so the sums are reproducible.
template <int K, int TOP>
__device__ __forceinline__ R ng_reduce_scatter(R (&v)[K], int r) {
    ng_rs_level<K / 2>(v, r);
    R t = v[0];
#pragma unroll
    for (int o = K; o < TOP; o <<= 1) t += ng_xor(t, o);
    return t;
}

// The segment's sums of 2·WH values, index j from parts(j, lo, hi) as lo and index j + WH as
// hi: lane r gets the sum of index r.
template <typename F>
__device__ __forceinline__ R ng_sum_scatter(F parts, int r) {
    R v[WH];
    const bool up = r & WH;
#pragma unroll
    for (int j = 0; j < WH; ++j) {
        R lo = 0, hi = 0;
        parts(j, lo, hi);
        v[j] = (up ? hi : lo) + ng_xor(up ? lo : hi, WH);
    }
    return ng_reduce_scatter<WH, WH>(v, r);
}

// The circle of the round-robin ordering: at step k seat 0 holds player 0 and seat s ≥ 1
// player (s − 1 + k) mod (N − 1) + 1; pair j is seats (j, N − 1 − j), p the smaller player
// (ng_pair's pairs). Slot c of a row register array holds the column of the player at seat c,
// so the pairs of every step are the same registers; after each step the columns move one
// seat (ng_next_seats), N − 1 steps bringing them back to their natural order.
__device__ __forceinline__ int ng_player(int s, int k) {
    if (s == 0) return 0;
    const int t = s - 1 + k;
    return (t >= WNE - 1 ? t - (WNE - 1) : t) + 1;
}
__device__ __forceinline__ int ng_seat(int r, int k) {
    if (r == 0) return 0;
    const int t = r - 1 - k;
    return (t < 0 ? t + (WNE - 1) : t) + 1;
}
// Seat s + 1's column to seat s (1 ≤ s ≤ N − 2), seat 1's to seat N − 1.
__device__ __forceinline__ void ng_next_seats(T (&x)[WNE]) {
    if (WNE <= 2) return;
    const T t = x[1];
#pragma unroll
    for (int c = 1; c < WNE - 1; ++c) x[c] = x[c + 1];
    x[WNE - 1] = t;
}

// The end of a sweep for a segment (every lane of the warp calls it): stops the segment
// when it rotated nothing, met a NaN or reached the sweep limit, as the general kernels do.
__device__ __forceinline__ void ng_end_sweep(unsigned segmask, bool rotated, bool bad, R worst, int sweep, int max_sweeps, bool &active, int &status, R &resid) {
    const bool any = (__ballot_sync(NG_FULL, rotated) & segmask) != 0;
    const bool anybad = (__ballot_sync(NG_FULL, bad) & segmask) != 0;
#pragma unroll
    for (int o = WS / 2; o >= 1; o >>= 1) worst = ng_max(worst, ng_xor(worst, o));
    if (!active) return;
    if (anybad) {
        status = 2;
        active = false;
        return;
    }
    resid = worst;
    if (!any) active = false;
    else if (sweep >= max_sweeps) {
        status = 1;
        active = false;
    }
}

// This lane's place: its row r in segment `seg` of the warp, whose matrices start at
// `first`; its matrix `mat` (past the batch when not `live`), its segment's ballot mask.
struct Seg {
    int r, seg;
    ng_i64 first, mat;
    bool live;
    unsigned mask;
};

__device__ __forceinline__ Seg ng_seg(ng_i64 batch) {
    Seg g;
    const int lane = threadIdx.x & 31;
    g.seg = lane / WS;
    g.r = lane % WS;
    g.first = ((ng_i64)blockIdx.x * NG_WARPS + (threadIdx.x >> 5)) * (32 / WS);
    g.mat = g.first + g.seg;
    g.live = g.mat < batch;
    g.mask = WS == 32 ? NG_FULL : ((1u << WS) - 1u) << (g.seg * WS);
    return g;
}

// The sweeps of a segment until it stops (status 2 at once when the input had a non-finite
// entry, `bad` in any of its lanes): step(k, active, rotated, bad, worst) is round-robin step
// k. The warp goes on while any of its segments is active; the others rotate nothing.
template <typename Step>
__device__ __forceinline__ void ng_sweeps(const Seg &g, bool bad, int max_sweeps, Step step, int &status, int &sweep, R &resid) {
    status = (__ballot_sync(NG_FULL, bad) & g.mask) ? 2 : 0;
    sweep = 0;
    resid = 0;
    bool active = g.live && status == 0;
    while (__any_sync(NG_FULL, active)) {
        if (active) ++sweep;
        bool rotated = false, nan = false;
        R worst = 0;
        for (int k = 0; k < WNE - 1; ++k) step(k, active, rotated, nan, worst);
        ng_end_sweep(g.mask, rotated, nan, worst, sweep, max_sweeps, active, status, resid);
    }
}

// The test and rotation of one pair (the general kernels' formulas): c = −1 when skipped.
__device__ __forceinline__ void ng_decide(R app, R aqq, T b, R tol, R &c, T &sp, R &t, bool &rotated, bool &bad, R &worst) {
    const R g = ng_abs(b), scale = ng_sqrt(ng_abs(app)) * ng_sqrt(ng_abs(aqq));
    const R ratio = g == R(0) ? R(0) : g / scale;
    if (!(ratio == ratio) || !(app == app) || !(aqq == aqq)) bad = true;
    else worst = ng_max(worst, ratio);
    if (g <= tol * scale || !(ratio == ratio)) return;
    ng_rotation(app, aqq, b, g, &c, &sp, &t);
    rotated = true;
}

// One round-robin step of two-sided Jacobi on the rows in x (this lane's row r of A, slots
// by seat; d its diagonal a_rr) and v (row r of the rotations, slots by seat): lane p of each
// pair (p, q) forms the rotation from a_pp, a_qq (shuffled) and a_pq; every lane rotates the
// slots of every pair (in seat orientation: sp, or −conj(sp) when q sits on the lower seat);
// lanes p and q exchange rows and rotate them; the 2 × 2 block is set exactly diagonal.
__device__ __forceinline__ void ng_syevj_step(int k, int r, bool active, bool vectors, R tol, T (&x)[WNE], T (&v)[WNE], R &d, bool &rotated, bool &bad, R &worst) {
    int s = r, ps = r, partner = r;  // lanes past N have no seat
    if (r < WNE) {
        s = ng_seat(r, k);
        ps = WNE - 1 - s;
        partner = ng_player(ps, k);
    }
    T b = ng_zero<T>();  // a_r,partner: the slot of the partner's seat
#pragma unroll
    for (int j = 0; j < WP; ++j) {
        if (s == j) b = x[WNE - 1 - j];
        else if (s == WNE - 1 - j) b = x[j];
    }
    const R dpart = __shfl_sync(NG_FULL, d, partner, WS);
    R c = R(-1), dp = 0, dq = 0;
    T sp = ng_zero<T>();
    if (active && r < partner && partner < WN) {
        R t = 0;
        ng_decide(d, dpart, b, tol, c, sp, t, rotated, bad, worst);
        const R g = ng_abs(b);
        dp = d - t * g;
        dq = dpart + t * g;
    }
    // Both lanes of a pair take lane p's rotation; the lane on the lower seat publishes it.
    const int pl = min(r, partner);
    const R co = __shfl_sync(NG_FULL, c, pl, WS), dqo = __shfl_sync(NG_FULL, dq, pl, WS);
    const T so = ng_shfl(sp, pl, WS);
    const bool mine = co >= R(0), is_p = r == pl;
    const T pub = (s < ps) == is_p ? so : ng_neg(ng_conj(so));
#pragma unroll
    for (int j = 0; j < WP; ++j) {
        const int src = ng_player(j, k);
        const R cj = __shfl_sync(NG_FULL, co, src, WS);
        const T sj = ng_shfl(pub, src, WS);
        if (cj < R(0)) continue;
        ng_rot(x[j], x[WNE - 1 - j], cj, sj);
        if (vectors) ng_rot(v[j], v[WNE - 1 - j], cj, sj);
    }
    // Rows p and q times Jᴴ: p' = c·p − sp·q, q' = conj(sp)·p + c·q.
    const T f = is_p ? ng_neg(so) : ng_conj(so);
#pragma unroll
    for (int i = 0; i < WNE; ++i) {
        const T o = ng_shfl(x[i], partner, WS);
        if (mine) x[i] = ng_add(ng_scale(x[i], co), ng_mul(f, o));
    }
    if (mine) {
        d = is_p ? dp : dqo;
#pragma unroll
        for (int j = 0; j < WP; ++j) {
            if (s != j && s != WNE - 1 - j) continue;
            x[j] = ng_from_real_t<T>::of(s == j ? d : R(0));
            x[WNE - 1 - j] = ng_from_real_t<T>::of(s == j ? R(0) : d);
        }
    }
    ng_next_seats(x);
    if (vectors) ng_next_seats(v);
}

extern "C" __global__ void __launch_bounds__(32 * NG_WARPS) NG_KERNEL(jacobi_syevj_warp)(
    int vectors, int upper, T *a, ng_i64 lda, ng_i64 sa, R *w, ng_i64 sw, double tol_in, int max_sweeps, int sort, int *info,
    int *sweeps, R *residual, ng_i64 batch) {
    const R tol = R(tol_in);
    const Seg g = ng_seg(batch);
    if (g.first >= batch) return;  // a whole warp: the others shuffle with all their lanes
    const int r = g.r;
    const ng_i64 mat = g.mat;
    const bool live = g.live, row = live && r < WN;
    T *am = a + (live ? mat : 0) * sa;

    // Row r of the Hermitian matrix from its stored triangle (the diagonal's imaginary part
    // ignored), the identity's row r.
    T x[WNE], v[WNE];
    R d = 0;
    bool bad = false;
#pragma unroll
    for (int c = 0; c < WNE; ++c) {
        T e = ng_zero<T>();
        if (row && c < WN) {
            const bool stored = upper ? r <= c : r >= c;
            e = stored ? am[r + c * lda] : ng_conj(am[c + r * lda]);
            if (c == r) e = ng_from_real_t<T>::of(ng_re(e));
            if (!ng_isfinite(e)) bad = true;
        }
        if (c == r) d = ng_re(e);
        x[c] = e;
        v[c] = ng_from_real_t<T>::of(c == r ? R(1) : R(0));
    }
    int status, sweep;
    R resid;
    ng_sweeps(
        g, bad, max_sweeps, [&](int k, bool active, bool &rotated, bool &nan, R &worst) { ng_syevj_step(k, r, active, vectors, tol, x, v, d, rotated, nan, worst); }, status,
        sweep, resid);

    // The eigenvalues' places (ascending, ties by index), every lane all of them.
    int rk = r;
    if (sort) {
        rk = 0;
#pragma unroll
        for (int c = 0; c < WN; ++c) {
            const R u = __shfl_sync(NG_FULL, d, c, WS);
            rk += u < d || (u == d && c < r);
        }
    }
    if (status == 2) {
        resid = ng_nan();
        if (row) {
            w[mat * sw + r] = ng_nan();
            if (vectors)
#pragma unroll
                for (int c = 0; c < WN; ++c) am[r + c * lda] = ng_from_real_t<T>::of(ng_nan());
        }
    } else if (row) {
        w[mat * sw + rk] = d;
    }
    if (vectors)
#pragma unroll
        for (int c = 0; c < WN; ++c) {
            const int to = __shfl_sync(NG_FULL, rk, c, WS);
            if (row && status != 2) am[r + (ng_i64)to * lda] = v[c];
        }
    if (live && r == 0) {
        info[mat] = status;
        sweeps[mat] = sweep;
        residual[mat] = resid;
    }
}

// One round-robin step of one-sided Jacobi on the rows in x (row r of W) and q (row r of the
// rotations Q), slots by seat: the three dot products of every pair by one reduce-scatter
// (the squared norms in one pass, the inner products in another), lane j deciding pair j (in
// the players' orientation: p the smaller), every lane rotating the slots of every pair.
__device__ __forceinline__ void ng_gesvdj_step(int k, int r, bool active, bool want_q, R tol, T (&x)[WNE], T (&q)[WNE], bool &rotated, bool &bad, R &worst) {
    const R lo_hi = ng_sum_scatter(
        [&](int j, R &lo, R &hi) {
            if (j < WP) {
                lo = ng_norm2(x[j]);
                hi = ng_norm2(x[WNE - 1 - j]);
            }
        },
        r);
    R gre, gim = 0;  // conj(w_lo)·w_hi of the seats
    if (WCPLX) {
        gre = ng_sum_scatter(
            [&](int j, R &lo, R &hi) {
                if (j < WP) {
                    const T z = ng_mul(ng_conj(x[j]), x[WNE - 1 - j]);
                    lo = ng_re(z);
                    hi = ng_im(z);
                }
            },
            r);
        gim = ng_xor(gre, WH);
    } else {
        R g[WH];
#pragma unroll
        for (int j = 0; j < WH; ++j) g[j] = j < WP ? ng_re(ng_mul(x[j], x[WNE - 1 - j])) : R(0);
        gre = ng_reduce_scatter<WH, WS>(g, r);
    }
    const R hi_lo = ng_xor(lo_hi, WH);
    R c = R(-1);
    T sp = ng_zero<T>();
    const int pj = ng_player(r < WP ? r : 0, k), qj = ng_player(WNE - 1 - (r < WP ? r : 0), k);
    const bool low_is_p = pj < qj;
    if (active && r < WP && max(pj, qj) < WN) {
        T ga;
        ng_set(ga, gre, low_is_p ? gim : -gim);
        R t;
        ng_decide(low_is_p ? lo_hi : hi_lo, low_is_p ? hi_lo : lo_hi, ga, tol, c, sp, t, rotated, bad, worst);
    }
    const T pub = low_is_p ? sp : ng_neg(ng_conj(sp));
#pragma unroll
    for (int j = 0; j < WP; ++j) {
        const R cj = __shfl_sync(NG_FULL, c, j, WS);
        const T sj = ng_shfl(pub, j, WS);
        if (cj < R(0)) continue;
        ng_rot(x[j], x[WNE - 1 - j], cj, sj);
        if (want_q) ng_rot(q[j], q[WNE - 1 - j], cj, sj);
    }
    ng_next_seats(x);
    if (want_q) ng_next_seats(q);
}

extern "C" __global__ void __launch_bounds__(32 * NG_WARPS) NG_KERNEL(jacobi_gesvdj_warp)(
    int m, int n, int jobu, int jobv, const T *a, ng_i64 lda, ng_i64 sa, R *s, ng_i64 ss, T *u, ng_i64 ldu, ng_i64 su, T *v,
    ng_i64 ldv, ng_i64 sv, double tol_in, int max_sweeps, int sort, int *info, int *sweeps, R *residual, ng_i64 batch) {
    __shared__ T coef_sh[NG_WARPS][32];
    const R tol = R(tol_in);
    const Seg g = ng_seg(batch);
    if (g.first >= batch) return;  // a whole warp
    const int r = g.r;
    const ng_i64 first = g.first, mat = g.mat;
    const bool live = g.live;
    // One-sided Jacobi on W = A (m >= n) or W = Aᴴ (m < n): WM × WN.
    const bool wide = m < n;
    const bool want_x = wide ? jobv : jobu, want_q = wide ? jobu : jobv;
    const ng_i64 ldx = wide ? ldv : ldu, ldy = wide ? ldu : ldv;
    const T *am = a + (live ? mat : 0) * sa;

    T x[WNE], q[WNE];
    bool bad = false;
#pragma unroll
    for (int c = 0; c < WNE; ++c) {
        T e = ng_zero<T>();
        if (live && r < WM && c < WN) {
            e = wide ? ng_conj(am[c + r * lda]) : am[r + c * lda];
            if (!ng_isfinite(e)) bad = true;
        }
        x[c] = e;
        q[c] = ng_from_real_t<T>::of(c == r ? R(1) : R(0));
    }
    int status, sweep;
    R resid;
    ng_sweeps(
        g, bad, max_sweeps, [&](int k, bool active, bool &rotated, bool &nan, R &worst) { ng_gesvdj_step(k, r, active, want_q, tol, x, q, rotated, nan, worst); }, status,
        sweep, resid);

    // σ_j = ‖w_j‖ in lane j; the places (descending, ties by index).
    const R sig = ng_sqrt(ng_sum_scatter(
        [&](int j, R &lo, R &hi) {
            if (j < WN) lo = ng_norm2(x[j]);
            if (j + WH < WN) hi = ng_norm2(x[j + WH]);
        },
        r));
    int rk = r;
    if (sort) {
        rk = 0;
#pragma unroll
        for (int c = 0; c < WN; ++c) {
            const R o = __shfl_sync(NG_FULL, sig, c, WS);
            rk += o > sig || (o == sig && c < r);
        }
    }
    R *sm = s + (live ? mat : 0) * ss;
    T *X = wide ? v + (live ? mat : 0) * sv : u + (live ? mat : 0) * su;
    T *Y = wide ? u + (live ? mat : 0) * su : v + (live ? mat : 0) * sv;
    if (status == 2) {
        resid = ng_nan();
        const T nan = ng_from_real_t<T>::of(ng_nan());
        if (live && r < WN) sm[r] = ng_nan();
#pragma unroll
        for (int c = 0; c < WN; ++c) {
            if (live && want_x && r < WM) X[r + c * ldx] = nan;
            if (live && want_q && r < WN) Y[r + c * ldy] = nan;
        }
    } else if (live && r < WN) {
        sm[rk] = sig;
    }
#pragma unroll
    for (int c = 0; c < WN; ++c) {
        const int to = __shfl_sync(NG_FULL, rk, c, WS);
        const R sc = __shfl_sync(NG_FULL, sig, c, WS);
        if (!live || status == 2) continue;
        if (want_x && r < WM) X[r + (ng_i64)to * ldx] = sc > R(0) ? ng_scale(x[c], R(1) / sc) : ng_zero<T>();
        if (want_q && r < WN) Y[r + (ng_i64)to * ldy] = q[c];
    }
    if (live && r == 0) {
        info[mat] = status;
        sweeps[mat] = sweep;
        residual[mat] = resid;
    }
    // Zero singular values: their columns of X completed to an orthonormal set, one matrix at
    // a time by the whole warp (rare; the general kernels' completion).
    if (!want_x) return;
    __syncwarp();
    const Team tm = ng_team(true, nullptr);
    for (int o = 0; o < 32 / WS; ++o) {
        const ng_i64 mg = first + o;
        const int st = __shfl_sync(NG_FULL, status, o * WS);
        if (mg >= batch || st == 2) continue;
        const R *sg = s + mg * ss;
        T *Xg = wide ? v + mg * sv : u + mg * su;
        for (int c = 0; c < WN; ++c)
            if (sg[c] == R(0)) ng_complete(tm, Xg, WM, WN, ldx, c, sg, coef_sh[threadIdx.x >> 5]);
    }
}
#endif
