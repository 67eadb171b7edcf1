// Tridiagonal solvers (the host side is src/gtsv_spike/cuda.rs).
//
// Diagonals, LAPACK xGTSV's in every layout: row k holds d[k] and du[k] (column k + 1, for
// k < n - 1), and its sub-diagonal entry (column k - 1) is dl[k - 1]. The diagonals are never
// written.
//
// ng_gtsv_rows: one system by diagonal pivoting (Bunch-Kaufman-style choice of 1x1 and 2x2
// pivots, kappa = (sqrt(5) - 1) / 2; the book's ch. 2, Erway et al.) or, without pivoting, by
// the Thomas algorithm; the elimination goes into a workspace and the solution is written
// only once every pivot is known to be nonzero, so a singular system leaves x untouched.
// ng_seg_forward/backward below are the same elimination on rows in shared memory.
//
// Kernels:
//   gtsv_interleaved_<T>  a thread per system; entry k of system i at k * batch + i in
//                         every array (n - 1 rows in dl and du), so every access is coalesced.
//   gtsv_strided_<T>      a thread per (system, right-hand side), the system's diagonals
//                         contiguous at i * stride_diag; the workspace interleaved by thread.
//   gtsv_spike_reduce_<T>, gtsv_spike_recover_<T>
//                         one large system by SPIKE (below), NG_L rows per partition and
//                         NG_NT partitions per block.
//   gtsv_spike_tail_<T>   the last levels of that SPIKE solve (from order NG_L·(NG_NT - 1), its
//                         NG_NT as large as shared memory allows) in one block per
//                         right-hand side and one launch; same arithmetic, same bits.
//   gtsv_block_<T>        a block per system and right-hand side, in shared memory, SPIKE
//                         with one level of partitions (up to NG_NT·NG_L rows).
//   gtsv_il_reduce_<T>, gtsv_il_solve_<T>, gtsv_il_recover_<T>
//                         the interleaved batch by a thread per (system, partition): each
//                         partition's part of S, then S (or, failing, the whole system) by
//                         a thread per system, then the partitions again. With diagonal
//                         pivoting, only systems diagonally dominant by rows go by
//                         partitions (the block kernel's rule); the others are solved whole.
//   gtsv_small_<T>        a thread per small system (up to 68 rows), a block's systems
//                         staged through shared memory together.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

typedef NG_T T;
typedef typename ng_real_of<T>::type R;

// Rows the thread-per-system elimination (ng_gtsv_rows) reads ahead of their use: NG_D (a
// define, 4 or 8 by precision) rows' loads in flight per thread, where one row's load per step
// left such a thread waiting a memory latency on each row.
#if !defined(NG_D)
#error "NG_D (rows read ahead by ng_gtsv_rows) must be defined"
#endif

// Whether a row (sub-diagonal a, diagonal b, super-diagonal c) is diagonally dominant,
// |b| >= |a| + |c| (false for NaN): the rule by which gtsv_block and gtsv_il_reduce let a
// system in diagonal-pivoting mode go without pivots.
__device__ __forceinline__ bool ng_dominant_row(T a, T b, T c) { return ng_abs(b) >= ng_abs(a) + ng_abs(c); }

// Row r's raw entries as ng_gtsv_rows takes them: d, b, and (r < n - 1, else zero) du and the
// next row's sub-diagonal entry l (dl1[(r - 1)·s] is row r's, so l is dl1[r·s]); all zero for
// r >= n (never read: no access past the system).
struct ng_row {
    T d, b, c, l;
};

__device__ __forceinline__ ng_row ng_row_at(int r, int n, const T *dl1, const T *d, const T *du, const T *b, ng_i64 s) {
    const T zero = ng_zero<T>();
    ng_row w = {zero, zero, zero, zero};
    if (r < n) {
        const ng_i64 o = (ng_i64)r * s;
        w.d = d[o];
        w.b = b[o];
        if (r + 1 < n) {
            w.c = du[o];
            w.l = dl1[o];
        }
    }
    return w;
}

// Row k's entries of the workspace of ng_gtsv_rows (zero, K = 1 for k < 0: never read).
struct ng_pqk {
    T p, q;
    signed char k;
};

__device__ __forceinline__ ng_pqk ng_pqk_at(int k, const T *P, const T *Q, const signed char *K, ng_i64 sw) {
    ng_pqk w = {ng_zero<T>(), ng_zero<T>(), 1};
    if (k >= 0) {
        const ng_i64 o = (ng_i64)k * sw;
        w.p = P[o];
        w.q = Q[o];
        w.k = K[o];
    }
    return w;
}

// One system of order n, one row per step (so that threads of a warp solving interleaved
// systems always touch the same rows: coalesced): row k's sub-diagonal at dl1[(k - 1)·s]
// (dl1 points at row 1's), its diagonal, super-diagonal and right-hand side at d, du, b
// [k·s] (du's row n - 1 is never read). The elimination leaves x_k = P_k - Q_k·x_{k+K_k}
// (K = 2 on the first row of a 2x2 pivot block, else 1) in the workspace P, Q, K at k·sw;
// x (may alias b) is written at k·sx only when every pivot block was nonsingular. Returns 0,
// or k + 1 when the pivot block starting at row k is exactly singular.
//
// Both sweeps read NG_D rows ahead through a ring of registers (slot j of step k0 + j, the
// loops over j unrolled so that the ring stays in registers): the forward sweep's step k takes
// row k + 2 from its slot and loads row k + 2 + NG_D into it, the backward sweep's step k
// row k's P, Q, K and then row k - NG_D's. Only where the loads are issued changed: the
// arithmetic, its order and the values it sees are those of one row per step, so the bits are.
__device__ int ng_gtsv_rows(int n, const T *dl1, const T *d, const T *du, const T *b, ng_i64 s, T *P, T *Q, signed char *K, ng_i64 sw,
                            T *x, ng_i64 sx, bool pivot) {
    const R kappa = R(0.6180339887498948482);
    const T zero = ng_zero<T>(), one = ng_from_real_t<T>::of(R(1));
    ng_row ring[NG_D];
#pragma unroll
    for (int j = 0; j < NG_D; ++j) ring[j] = ng_row_at(j + 2, n, dl1, d, du, b, s);
    const ng_row r0 = ng_row_at(0, n, dl1, d, du, b, s), r1 = ng_row_at(1, n, dl1, d, du, b, s);
    // Raw entries: c_k of row k; row k + 1's a, b, c, f; row k + 2's a.
    T ck = r0.c, a1 = r0.l, b1 = r1.d, c1 = r1.c, f1 = r1.b, a2 = r1.l;
    T bk = r0.d, yk = r0.b, qs = zero, ps = zero;  // the modified row k; a finished 2x2's Q, P
    bool pending = false;
    for (int k0 = 0; k0 < n; k0 += NG_D) {
#pragma unroll
        for (int j = 0; j < NG_D; ++j) {
            const int k = k0 + j;
            if (k >= n) break;
            if (pending) {
                bk = ng_fma(ng_neg(a1), qs, b1);
                yk = ng_fma(ng_neg(a1), ps, f1);
                pending = false;
            } else {
                bool single = true;
                if (pivot && k + 1 < n) {
                    R sigma = ng_max(ng_max(ng_abs(ck), ng_abs(a1)), ng_abs(b1));
                    if (k + 2 < n) sigma = ng_max(sigma, ng_max(ng_abs(c1), ng_abs(a2)));
                    single = ng_abs(bk) * sigma >= kappa * ng_abs(ck) * ng_abs(a1);
                }
                if (single) {
                    if (ng_is_zero(bk)) return k + 1;
                    const T inv = ng_div(one, bk), q = ng_mul(ck, inv), p = ng_mul(yk, inv);
                    Q[k * sw] = q;
                    P[k * sw] = p;
                    K[k * sw] = 1;
                    bk = ng_fma(ng_neg(a1), q, b1);
                    yk = ng_fma(ng_neg(a1), p, f1);
                } else {
                    // 2x2 pivot [bk ck; a1 b1] on rows k, k + 1, coupled to row k + 2 by c1.
                    const T delta = ng_fma(bk, b1, ng_neg(ng_mul(a1, ck)));
                    if (ng_is_zero(delta)) return k + 1;
                    const T inv = ng_div(one, delta);
                    Q[k * sw] = ng_neg(ng_mul(ng_mul(ck, c1), inv));
                    P[k * sw] = ng_mul(ng_fma(b1, yk, ng_neg(ng_mul(ck, f1))), inv);
                    K[k * sw] = 2;
                    qs = ng_mul(ng_mul(bk, c1), inv);
                    ps = ng_mul(ng_fma(bk, f1, ng_neg(ng_mul(a1, yk))), inv);
                    Q[(k + 1) * sw] = qs;
                    P[(k + 1) * sw] = ps;
                    K[(k + 1) * sw] = 1;
                    pending = true;
                }
            }
            // Shift the window one row down: row k + 2 from the ring, whose slot then loads
            // row k + 2 + NG_D. (Past the last row, b1 and f1 keep their values, unused.)
            const ng_row next = ring[j];
            ring[j] = ng_row_at(k + 2 + NG_D, n, dl1, d, du, b, s);
            ck = c1;
            a1 = a2;
            if (k + 2 < n) {
                b1 = next.d;
                f1 = next.b;
                c1 = next.c;
            }
            a2 = next.l;
        }
    }
    ng_pqk back[NG_D];
#pragma unroll
    for (int j = 0; j < NG_D; ++j) back[j] = ng_pqk_at(n - 1 - j, P, Q, K, sw);
    T x1 = zero, x2 = zero;  // x_{k+1}, x_{k+2}
    for (int k0 = n - 1; k0 >= 0; k0 -= NG_D) {
#pragma unroll
        for (int j = 0; j < NG_D; ++j) {
            const int k = k0 - j;
            if (k < 0) break;
            const ng_pqk w = back[j];
            back[j] = ng_pqk_at(k - NG_D, P, Q, K, sw);
            const T xk = ng_fma(ng_neg(w.q), w.k == 2 ? x2 : x1, w.p);
            x[k * sx] = xk;
            x2 = x1;
            x1 = xk;
        }
    }
    return 0;
}

// A SPIKE solve's failure flag: 0 (cleared by the host) while every pivot block met was
// nonsingular; a failure at 1-based original row `row1` stores the largest complement, that
// is the smallest failing row's, whatever the order the blocks meet them in.
__device__ __forceinline__ void ng_spike_fail(unsigned long long *flag, ng_i64 row1) {
    atomicMax(flag, ~(unsigned long long)row1);
}

// Whether the solve has failed: volatile, as other blocks of a running kernel may set it.
__device__ __forceinline__ bool ng_spike_failed(const unsigned long long *flag) {
    return *(const volatile unsigned long long *)flag != 0ull;
}

#if defined(NG_INTERLEAVED)
// Systems first .. first + count - 1, thread i solving system first + i; the data's stride is
// batch, the workspace's (P, Q, K of ng_gtsv_rows, interleaved like the data) count.
extern "C" __global__ void NG_CAT(gtsv_interleaved_, NG_SUFFIX)(
    int n, const T *dl, const T *d, const T *du, T *B, int *info, ng_i64 batch, ng_i64 first, ng_i64 count, int pivot, T *P, T *Q,
    signed char *K) {
    for (ng_i64 i = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 o = first + i;
        info[o] = ng_gtsv_rows(n, dl + o, d + o, du + o, B + o, batch, P + i, Q + i, K + i, count, B + o, batch, pivot != 0);
    }
}
#endif

#if defined(NG_STRIDED)
// Thread t = i * nrhs + r: system i, right-hand side r. Every thread of a system meets the
// same pivots, so a singular system leaves all its right-hand sides untouched; r = 0 writes
// info. As the fallback of a SPIKE solve (spike: its failure flag, else NULL), it solves only
// when that solve failed, and otherwise only sets info to 0: the host need not wait for SPIKE.
extern "C" __global__ void NG_CAT(gtsv_strided_, NG_SUFFIX)(
    int n, ng_i64 nrhs, const T *dl, const T *d, const T *du, ng_i64 stride_diag, T *B, ng_i64 ldb, ng_i64 stride_b, int *info,
    ng_i64 batch, int pivot, T *P, T *Q, signed char *K, const unsigned long long *spike) {
    const ng_i64 threads = batch * nrhs;
    const bool solved = spike != nullptr && !ng_spike_failed(spike);
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < threads; t += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 i = t / nrhs, r = t % nrhs, o = i * stride_diag;
        if (solved) {
            if (r == 0) info[i] = 0;
            continue;
        }
        T *b = B + i * stride_b + r * ldb;
        const int res = ng_gtsv_rows(n, dl + o, d + o, du + o, b, 1, P + t, Q + t, K + t, threads, b, 1, pivot != 0);
        if (r == 0) info[i] = res;
    }
}
#endif

#if defined(NG_SPIKE_REDUCE) || defined(NG_SPIKE_RECOVER) || defined(NG_SPIKE_TAIL) || defined(NG_BLOCK) || defined(NG_SMALL) || \
    defined(NG_IL_REDUCE) || defined(NG_IL_SOLVE) || defined(NG_IL_RECOVER)
// One large system by SPIKE in substructured form. The rows split into partitions of NG_L
// (odd) rows; a partition's first row is its separator, the others its interior. Eliminating
// every interior (diagonal pivoting inside it) leaves a tridiagonal system in the separators
// alone, the Schur complement S, which is solved the same way, level by level, until one
// unknown is left; then each level's interiors are solved again with their separators known.
// Per level, the input is read twice (reduce, recover) and X written once; S is NG_L times
// smaller. A block stages NG_NT partitions' rows in shared memory, coalesced; each thread
// works on its partition there (NG_L odd: the threads' rows fall in distinct banks).
//
// The last levels, from the first whose order is at most NG_L·(NG_NT - 1) of
// gtsv_spike_tail's (larger than the other kernels': its NG_NT fills the device's shared
// memory), go in one launch: gtsv_spike_tail runs their reduce and recover parts in one
// block, barriers in place of kernel boundaries, so a system of order 2^16 takes three
// launches, not nine (and the fallback's).
//
// Failure: see ng_spike_fail; every kernel of the solve returns early once the flag is set,
// so a failed solve writes nothing to X.

#define NG_ROWS (NG_NT * NG_L)

// Interior rows 0 .. m-1 of a partition in shared memory: sub-diagonal a (a[0] couples to the
// separator, not used), diagonal b, super-diagonal c (c[m-1] couples to the next separator,
// not used: its solution term vanishes), right-hand side f. Eliminates in place so that
// x_i = f[i] - b[i]·x_{i+K[i]} (K = 2 for the first row of a 2x2 pivot block, else 1; x_m =
// x_{m+1} = 0). With U, also the right-hand sides e_0 (its p into a) and e_{m-1} (nonzero p
// on the last pivot block only: pz0 for row m-1, pz1 for row m-2). Returns -1, or the first
// row of an exactly singular pivot block.
template <bool U>
__device__ int ng_seg_forward(int m, T *a, T *b, const T *c, T *f, signed char *K, bool pivot, T &pz0, T &pz1) {
    const R kappa = R(0.6180339887498948482);
    const T one = ng_from_real_t<T>::of(R(1)), zero = ng_zero<T>();
    T bk = b[0], yk = f[0], yu = one, yz = m == 1 ? one : zero;
    for (int k = 0; k < m;) {
        const T ck = c[k];
        bool single = true;
        if (pivot && k + 1 < m) {
            const T a1 = a[k + 1], b1 = b[k + 1];
            R sigma = ng_max(ng_max(ng_abs(ck), ng_abs(a1)), ng_abs(b1));
            if (k + 2 < m) sigma = ng_max(sigma, ng_max(ng_abs(c[k + 1]), ng_abs(a[k + 2])));
            single = ng_abs(bk) * sigma >= kappa * ng_abs(ck) * ng_abs(a1);
        }
        if (single) {
            if (ng_is_zero(bk)) return k;
            const T inv = ng_div(one, bk);
            const T q = ng_mul(ck, inv), p = ng_mul(yk, inv), pu = ng_mul(yu, inv), pz = ng_mul(yz, inv);
            b[k] = q;
            f[k] = p;
            K[k] = 1;
            if (U) a[k] = pu;
            if (k == m - 1) {
                pz0 = pz;
                break;
            }
            const T a1 = ng_neg(a[k + 1]);
            bk = ng_fma(a1, q, b[k + 1]);
            yk = ng_fma(a1, p, f[k + 1]);
            yu = ng_mul(a1, pu);
            yz = ng_fma(a1, pz, k + 1 == m - 1 ? one : zero);
            k += 1;
        } else {
            // 2x2 pivot [bk ck; a1 b1] on rows k, k + 1, coupled to row k + 2 by c1.
            const T a1 = a[k + 1], b1 = b[k + 1], c1 = c[k + 1], y1 = f[k + 1], yz1 = k + 1 == m - 1 ? one : zero;
            const T delta = ng_fma(bk, b1, ng_neg(ng_mul(a1, ck)));
            if (ng_is_zero(delta)) return k;
            const T inv = ng_div(one, delta);
            // x_k = (b1·r_k - ck·r_{k+1})/delta, x_{k+1} = (bk·r_{k+1} - a1·r_k)/delta with
            // r_{k+1} = y1 - c1·x_{k+2}.
            const T q0 = ng_neg(ng_mul(ng_mul(ck, c1), inv)), q1 = ng_mul(ng_mul(bk, c1), inv);
            const T p0 = ng_mul(ng_fma(b1, yk, ng_neg(ng_mul(ck, y1))), inv), p1 = ng_mul(ng_fma(bk, y1, ng_neg(ng_mul(a1, yk))), inv);
            const T pu0 = ng_mul(ng_mul(b1, yu), inv), pu1 = ng_neg(ng_mul(ng_mul(a1, yu), inv));
            const T pz0v = ng_mul(ng_fma(b1, yz, ng_neg(ng_mul(ck, yz1))), inv), pz1v = ng_mul(ng_fma(bk, yz1, ng_neg(ng_mul(a1, yz))), inv);
            b[k] = q0;
            b[k + 1] = q1;
            f[k] = p0;
            f[k + 1] = p1;
            K[k] = 2;
            K[k + 1] = 1;
            if (U) {
                a[k] = pu0;
                a[k + 1] = pu1;
            }
            if (k + 2 >= m) {
                pz0 = pz1v;
                pz1 = pz0v;
                break;
            }
            const T a2 = ng_neg(a[k + 2]);
            bk = ng_fma(a2, q1, b[k + 2]);
            yk = ng_fma(a2, p1, f[k + 2]);
            yu = ng_mul(a2, pu1);
            yz = ng_fma(a2, pz1v, k + 2 == m - 1 ? one : zero);
            k += 2;
        }
    }
    return -1;
}

// The first and last entries of the interior's solutions g (right-hand side f), u (e_0) and
// z (e_{m-1}).
struct ng_ends {
    T g0, gm, u0, um, z0, zm;
};

// Back substitution after ng_seg_forward: x overwrites f; with U, also u and z (see there).
template <bool U>
__device__ ng_ends ng_seg_backward(int m, const T *a, const T *b, T *f, const signed char *K, T pz0, T pz1) {
    const T zero = ng_zero<T>();
    T g1 = zero, g2 = zero, u1 = zero, u2 = zero, z1 = zero, z2 = zero;  // x_{k+1}, x_{k+2}
    ng_ends e;
    for (int k = m - 1; k >= 0; --k) {
        const bool far = K[k] == 2;
        const T q = ng_neg(b[k]);
        const T g = ng_fma(q, far ? g2 : g1, f[k]);
        f[k] = g;
        g2 = g1;
        g1 = g;
        if (U) {
            const T u = ng_fma(q, far ? u2 : u1, a[k]);
            const T z = ng_fma(q, far ? z2 : z1, k == m - 1 ? pz0 : (k == m - 2 ? pz1 : zero));
            u2 = u1;
            u1 = u;
            z2 = z1;
            z1 = z;
            if (k == m - 1) {
                e.gm = g;
                e.um = u;
                e.zm = z;
            }
        }
    }
    e.g0 = g1;
    e.u0 = u1;
    e.z0 = z1;
    return e;
}

// A partition's contribution to the separators' system S: its separator's row of S without
// the previous partition's part (b, c, f), and the part it gives the next separator's row
// (bu, bz, bg: the next row's sub-diagonal entry a' makes those -a'·bu, -a'·bz, -a'·bg in
// its a, b, f). bad: the interior's failing row, or -1.
struct ng_part {
    T as, b, c, f, bu, bz, bg;
    int bad;
};

// Eliminates the interior (rows 1 .. m of the partition at a, b, c, f; m may be 0) and
// returns the partition's part of S (the rows are overwritten). Coupling entries that are exactly zero contribute exactly zero, whatever the values they
// multiply.
__device__ ng_part ng_partition_reduce(int m, T *a, T *b, T *c, T *f, signed char *K, bool pivot) {
    const T zero = ng_zero<T>();
    ng_part r = {a[0], b[0], zero, f[0], zero, zero, zero, -1};
    if (m == 0) return r;
    const T cs = c[0], af = a[1], cl = c[m];
    T pz0 = zero, pz1 = zero;
    r.bad = ng_seg_forward<true>(m, a + 1, b + 1, c + 1, f + 1, K + 1, pivot, pz0, pz1);
    if (r.bad >= 0) return r;
    const ng_ends e = ng_seg_backward<true>(m, a + 1, b + 1, f + 1, K + 1, pz0, pz1);
    if (!ng_is_zero(cs)) {
        const T ncs = ng_neg(cs);
        r.b = ng_fma(ncs, ng_mul(af, e.u0), r.b);
        r.c = ng_mul(ncs, ng_mul(cl, e.z0));
        r.f = ng_fma(ncs, e.g0, r.f);
    }
    r.bu = ng_mul(af, e.um);
    r.bz = ng_mul(cl, e.zm);
    r.bg = e.gm;
    return r;
}

// S's row from a partition's part and the previous partition's bottom values (pu, pz, pg).
__device__ void ng_s_row(const ng_part &q, T pu, T pz, T pg, T &sa, T &sb, T &sf) {
    sa = ng_zero<T>();
    sb = q.b;
    sf = q.f;
    if (ng_is_zero(q.as)) return;
    const T nas = ng_neg(q.as);
    sa = ng_mul(nas, pu);
    sb = ng_fma(nas, pz, sb);
    sf = ng_fma(nas, pg, sf);
}

// Solves the interior of the partition at a, b, c, f (m rows after the separator) once its
// separator's solution xk and the next one's, xk1, are known; writes x over f (xk included).
// Returns the failing row or -1 (the reduce met the same pivots, so -1 unless rounding
// differed).
__device__ int ng_partition_recover(int m, T *a, T *b, T *c, T *f, signed char *K, bool pivot, T xk, T xk1) {
    f[0] = xk;
    if (m == 0) return -1;
    if (!ng_is_zero(a[1])) f[1] = ng_fma(ng_neg(a[1]), xk, f[1]);
    if (!ng_is_zero(c[m])) f[m] = ng_fma(ng_neg(c[m]), xk1, f[m]);
    T pz0 = ng_zero<T>(), pz1 = pz0;
    const int bad = ng_seg_forward<false>(m, a + 1, b + 1, c + 1, f + 1, K + 1, pivot, pz0, pz1);
    if (bad < 0) ng_seg_backward<false>(m, a + 1, b + 1, f + 1, K + 1, pz0, pz1);
    return bad;
}

// Shared memory of a block: `rows` rows' a, b, c, f (T), three T per thread, then (`with_s`:
// the block kernel) S's a, b, c, f for NG_NT rows, then the pivot kinds of the rows (and of
// S's).
struct ng_spike_smem {
    T *a, *b, *c, *f, *x3, *sa, *sb, *sc, *sf;
    signed char *K, *SK;
    __device__ ng_spike_smem(int rows, bool with_s) {
        extern __shared__ __align__(16) unsigned char ng_smem_raw[];
        a = reinterpret_cast<T *>(ng_smem_raw);
        b = a + rows;
        c = b + rows;
        f = c + rows;
        x3 = f + rows;
        sa = x3 + 3 * NG_NT;
        sb = sa + NG_NT;
        sc = sb + NG_NT;
        sf = sc + NG_NT;
        K = reinterpret_cast<signed char *>(with_s ? sf + NG_NT : sa);
        SK = K + rows;
    }
};

// Stages rows row0 .. row0 + rows - 1 (those inside 0 .. N-1) of the system and of
// right-hand side F: row g's sub-diagonal is dl[g - 1] (LAPACK's layout).
__device__ void ng_spike_stage(const ng_spike_smem &s, int rows, ng_i64 N, ng_i64 row0, const T *dl, const T *d, const T *du, const T *F) {
    const T zero = ng_zero<T>();
    for (int l = threadIdx.x; l < rows; l += blockDim.x) {
        const ng_i64 g = row0 + l;
        if (g >= 0 && g < N) {
            s.a[l] = g > 0 ? dl[g - 1] : zero;
            s.b[l] = d[g];
            s.c[l] = g + 1 < N ? du[g] : zero;
            s.f[l] = F[g];
        }
    }
}

#if defined(NG_SPIKE_REDUCE) || defined(NG_SPIKE_TAIL)
// Reduce, the part of block bx (for one right-hand side): S (order p = ceil(N / NG_L)) from
// the system (order N) and right-hand side F. Block bx stages partitions bx·(NG_NT - 1) - 1
// onwards: its thread 0 only supplies the bottom values of the partition before its first
// (the halo). Writes S's rows k to sdl[k - 1], sd[k], sdu[k] (with `diagonals`) and sf[k]. A
// failure at interior row r of this level is original row (r·scale) (scale = NG_L^level).
// Every thread of the block calls it (it has barriers); returns false, having written
// nothing, when the solve has failed (false for every thread alike).
__device__ bool ng_spike_reduce_part(ng_i64 bx, ng_i64 N, const T *dl, const T *d, const T *du, const T *F, bool pivot, T *sdl, T *sd, T *sdu,
                                     bool diagonals, T *sf, unsigned long long *flag, ng_i64 scale) {
    // Also the barrier after the block's previous part (the tail kernel reuses shared memory).
    if (__syncthreads_or(ng_spike_failed(flag))) return false;
    const ng_spike_smem s(NG_ROWS, false);
    const int t = threadIdx.x;
    const ng_i64 p = (N + NG_L - 1) / NG_L, k = bx * (NG_NT - 1) - 1 + t, row = k * NG_L;
    ng_spike_stage(s, NG_ROWS, N, row - (ng_i64)t * NG_L, dl, d, du, F);
    __syncthreads();
    const T zero = ng_zero<T>();
    const bool active = k >= 0 && k < p;
    ng_part q = {zero, zero, zero, zero, zero, zero, zero, -1};
    if (active) {
        const int m = (int)min((ng_i64)NG_L, N - row) - 1, o = t * NG_L;
        q = ng_partition_reduce(m, s.a + o, s.b + o, s.c + o, s.f + o, s.K + o, pivot);
        if (q.bad >= 0) {
            ng_spike_fail(flag, (row + 1 + q.bad) * scale + 1);
            q.bu = q.bz = q.bg = zero;
        }
    }
    s.x3[t] = q.bu;
    s.x3[NG_NT + t] = q.bz;
    s.x3[2 * NG_NT + t] = q.bg;
    __syncthreads();
    if (active && t > 0) {
        T a, b, f;
        ng_s_row(q, s.x3[t - 1], s.x3[NG_NT + t - 1], s.x3[2 * NG_NT + t - 1], a, b, f);
        if (diagonals) {
            if (k > 0) sdl[k - 1] = a;
            sd[k] = b;
            if (k + 1 < p) sdu[k] = q.c;
        }
        sf[k] = f;
    }
    return true;
}
#endif

#if defined(NG_SPIKE_RECOVER) || defined(NG_SPIKE_TAIL)
// Recover, the part of block bx (for one right-hand side): with the separators' solution xs
// (S's), solves partitions bx·NG_NT onwards again and writes their solution over X (their
// right-hand side on entry). Every thread of the block calls it; returns false (every thread
// alike), having written nothing, when the solve has failed.
__device__ bool ng_spike_recover_part(ng_i64 bx, ng_i64 N, const T *dl, const T *d, const T *du, T *x, bool pivot, const T *xs,
                                      unsigned long long *flag) {
    // Also the barrier after the block's previous part (the tail kernel reuses shared memory).
    if (__syncthreads_or(ng_spike_failed(flag))) return false;
    const ng_spike_smem s(NG_ROWS, false);
    const int t = threadIdx.x;
    const ng_i64 p = (N + NG_L - 1) / NG_L, row0 = bx * NG_ROWS, k = bx * NG_NT + t, row = k * NG_L;
    ng_spike_stage(s, NG_ROWS, N, row0, dl, d, du, x);
    __syncthreads();
    bool bad = false;
    if (k < p) {
        const int m = (int)min((ng_i64)NG_L, N - row) - 1, o = t * NG_L;
        bad = ng_partition_recover(m, s.a + o, s.b + o, s.c + o, s.f + o, s.K + o, pivot, xs[k], k + 1 < p ? xs[k + 1] : ng_zero<T>()) >= 0;
    }
    // A failure here would be rounding's; it is reported and this block writes nothing.
    if (__syncthreads_or(bad)) {
        if (bad) ng_spike_fail(flag, row + 2);
        return false;
    }
    for (int l = t; l < NG_ROWS; l += NG_NT) {
        const ng_i64 g = row0 + l;
        if (g < N) x[g] = s.f[l];
    }
    return true;
}
#endif

#if defined(NG_SPIKE_REDUCE)
// Reduce (see ng_spike_reduce_part), right-hand side blockIdx.y (column ldf apart in F, ldsf
// in sf); S's diagonals from right-hand side 0's blocks only.
extern "C" __global__ void __launch_bounds__(NG_NT) NG_CAT(gtsv_spike_reduce_, NG_SUFFIX)(
    ng_i64 N, const T *dl, const T *d, const T *du, const T *F, ng_i64 ldf, int pivot, T *sdl, T *sd, T *sdu, T *sf, ng_i64 ldsf,
    unsigned long long *flag, ng_i64 scale) {
    const ng_i64 r = blockIdx.y;
    ng_spike_reduce_part(blockIdx.x, N, dl, d, du, F + r * ldf, pivot != 0, sdl, sd, sdu, r == 0, sf + r * ldsf, flag, scale);
}
#endif

#if defined(NG_SPIKE_RECOVER)
// Recover (see ng_spike_recover_part), right-hand side blockIdx.y: the separators' solution at
// xs + r·ldxs, the level's over X + r·ldx.
extern "C" __global__ void __launch_bounds__(NG_NT) NG_CAT(gtsv_spike_recover_, NG_SUFFIX)(
    ng_i64 N, const T *dl, const T *d, const T *du, T *X, ng_i64 ldx, int pivot, const T *xs, ng_i64 ldxs, unsigned long long *flag) {
    const ng_i64 r = blockIdx.y;
    ng_spike_recover_part(blockIdx.x, N, dl, d, du, X + r * ldx, pivot != 0, xs + r * ldxs, flag);
}
#endif

#if defined(NG_SPIKE_TAIL)
// Orders of the levels below a tail level: NG_L^6 > 2^24 rows, far above what one block
// stages (the host sends orders up to NG_L·NG_NT).
#define NG_TAIL_LEVELS 6

// The last levels of a SPIKE solve in one block per right-hand side (blockIdx.x = r), the
// reduce and recover parts of each level one after the other, with barriers where the
// multi-launch solve has kernel boundaries: the same arithmetic on the same values, so the
// same bits. Level 0 is the system given (order N, right-hand side F + r·ldf, its solution
// written there); the reduced levels below it live in W + r·ldw, each of order m as dl, d, du,
// f of m entries in turn (only this block touches them: no other block's writes are awaited).
extern "C" __global__ void __launch_bounds__(NG_NT) NG_CAT(gtsv_spike_tail_, NG_SUFFIX)(
    ng_i64 N, const T *dl, const T *d, const T *du, T *F, ng_i64 ldf, int pivot, T *W, ng_i64 ldw, unsigned long long *flag,
    ng_i64 scale) {
    const ng_i64 r = blockIdx.x;
    const bool piv = pivot != 0;
    // Level i's order and arrays (i = 0: the system given).
    ng_i64 ms[NG_TAIL_LEVELS + 1];
    const T *ldl[NG_TAIL_LEVELS + 1], *ld[NG_TAIL_LEVELS + 1], *ldu[NG_TAIL_LEVELS + 1];
    T *lf[NG_TAIL_LEVELS + 1];
    ms[0] = N, ldl[0] = dl, ld[0] = d, ldu[0] = du, lf[0] = F + r * ldf;
    T *w = W + r * ldw;
    int top = 0;
    for (; ms[top] > 1 && top < NG_TAIL_LEVELS; ++top, scale *= NG_L) {
        const ng_i64 m = (ms[top] + NG_L - 1) / NG_L;
        T *sdl = w, *sd = w + m, *sdu = w + 2 * m, *sf = w + 3 * m;
        w += 4 * m;
        for (ng_i64 bx = 0; bx * (NG_NT - 1) < m; ++bx)
            if (!ng_spike_reduce_part(bx, ms[top], ldl[top], ld[top], ldu[top], lf[top], piv, sdl, sd, sdu, true, sf, flag, scale)) return;
        ms[top + 1] = m, ldl[top + 1] = sdl, ld[top + 1] = sd, ldu[top + 1] = sdu, lf[top + 1] = sf;
    }
    // One unknown left (the host's orders guarantee it; were it not so, the fallback would
    // solve instead): thread 0 solves it.
    if (__syncthreads_or(ng_spike_failed(flag))) return;
    if (threadIdx.x == 0) {
        if (ms[top] > 1 || ng_is_zero(ld[top][0]))
            ng_spike_fail(flag, 1);
        else
            lf[top][0] = ng_div(lf[top][0], ld[top][0]);
    }
    for (int i = top - 1; i >= 0; --i)
        for (ng_i64 bx = 0; bx * NG_NT < ms[i + 1]; ++bx)
            if (!ng_spike_recover_part(bx, ms[i], ldl[i], ld[i], ldu[i], lf[i], piv, lf[i + 1], flag)) return;
}
#endif

#if defined(NG_IL_REDUCE) || defined(NG_IL_RECOVER)
// The partitioned interleaved batch (gtsv_il_reduce, gtsv_il_solve, gtsv_il_recover): a
// thread per (system, partition) where the batch has too few systems for a thread each.
// Block (x, y) of NG_NT threads: system x·32 + lane (lanes of a warp: consecutive systems,
// so every row they touch is one coalesced access), partition y·(NG_NT / 32) + warp. Each
// thread stages and works on its own partition's rows only (shared memory at t·NG_L, as the
// SPIKE kernels): no barrier. Returns false for a thread with no (system, partition).
__device__ bool ng_il_stage(const ng_spike_smem &s, int n, const T *dl, const T *d, const T *du, const T *B, ng_i64 batch, ng_i64 count,
                            ng_i64 &i, int &k, int &m) {
    const int t = threadIdx.x;
    i = (ng_i64)blockIdx.x * 32 + (t & 31);
    k = blockIdx.y * (NG_NT / 32) + (t >> 5);
    const int p = (n + NG_L - 1) / NG_L;
    if (i >= count || k >= p) return false;
    const int row = k * NG_L;
    m = min(NG_L, n - row) - 1;
    const T zero = ng_zero<T>();
    for (int l = 0; l <= m; ++l) {
        const ng_i64 g = row + l, o = t * NG_L + l;
        s.a[o] = g > 0 ? dl[(g - 1) * batch + i] : zero;
        s.b[o] = d[g * batch + i];
        s.c[o] = g + 1 < n ? du[g * batch + i] : zero;
        s.f[o] = B[g * batch + i];
    }
    return true;
}
#endif

// A partition's flag in gtsv_il_reduce's `bad` when it is not diagonally dominant by rows
// with diagonal pivoting: the system is solved whole (as its failing rows, >= 0, do).
#define NG_IL_WHOLE (-2)

#if defined(NG_IL_REDUCE)
// Reduce: partition k of system i (of `count`, entry g at g·batch + i) gives its ng_part, as
// 7 values at W[(j·p + k)·count + i] (j: as, b, c, f, bu, bz, bg), and at bad[k·count + i]
// -1, its failing interior row, or (diagonal pivoting) NG_IL_WHOLE when one of its rows is
// not diagonally dominant (|d| < |dl| + |du|, or NaN: gtsv_block's rule, row by row), W then
// left unwritten. Partitions never pivot across their separators, so on systems that need
// pivoting they would lose backward stability: those go whole in gtsv_il_solve.
extern "C" __global__ void __launch_bounds__(NG_NT) NG_CAT(gtsv_il_reduce_, NG_SUFFIX)(
    int n, const T *dl, const T *d, const T *du, const T *B, ng_i64 batch, ng_i64 count, int pivot, T *W, int *bad) {
    const ng_spike_smem s(NG_ROWS, false);
    ng_i64 i;
    int k, m;
    if (!ng_il_stage(s, n, dl, d, du, B, batch, count, i, k, m)) return;
    const int o = threadIdx.x * NG_L, p = (n + NG_L - 1) / NG_L;
    if (pivot != 0) {
        bool dominant = true;
        for (int l = 0; l <= m; ++l) dominant = dominant && ng_dominant_row(s.a[o + l], s.b[o + l], s.c[o + l]);
        if (!dominant) {
            bad[(ng_i64)k * count + i] = NG_IL_WHOLE;
            return;
        }
    }
    const ng_part q = ng_partition_reduce(m, s.a + o, s.b + o, s.c + o, s.f + o, s.K + o, pivot != 0);
    const T v[7] = {q.as, q.b, q.c, q.f, q.bu, q.bz, q.bg};
    for (int j = 0; j < 7; ++j) W[((ng_i64)j * p + k) * count + i] = v[j];
    bad[(ng_i64)k * count + i] = q.bad;
}
#endif

#if defined(NG_IL_SOLVE)
// A thread per system i of `count`: with every partition's part (gtsv_il_reduce's W and bad),
// assembles S (order p; its dl, d, du, f at W + 7·p·count, rows count apart) and solves it
// by ng_gtsv_rows (x over its f), in the P, Q, K of the whole-system solve. When a partition
// had an exactly singular pivot block or was not dominant (bad not -1), or S had an exactly
// singular pivot block, solves the whole system instead (as gtsv_interleaved: it decides
// info, and writes B only when nonsingular). state[i]: 0 when the partitions are left to
// gtsv_il_recover, 1 when this kernel settled the system.
extern "C" __global__ void NG_CAT(gtsv_il_solve_, NG_SUFFIX)(
    int n, const T *dl, const T *d, const T *du, T *B, int *info, ng_i64 batch, ng_i64 count, int pivot, T *P, T *Q, signed char *K,
    T *W, const int *bad, int *state) {
    const int p = (n + NG_L - 1) / NG_L;
    const T zero = ng_zero<T>();
    for (ng_i64 i = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (ng_i64)gridDim.x * blockDim.x) {
        bool whole = false;
        for (int k = 0; k < p; ++k) whole = whole || bad[(ng_i64)k * count + i] != -1;
        T *sdl = W + (ng_i64)7 * p * count, *sd = sdl + (ng_i64)p * count, *sdu = sd + (ng_i64)p * count, *sf = sdu + (ng_i64)p * count;
        if (!whole) {
            T pu = zero, pz = zero, pg = zero;  // the previous partition's bottom values
            for (int k = 0; k < p; ++k) {
                const auto at = [&](int j) { return W[((ng_i64)j * p + k) * count + i]; };
                const ng_part q = {at(0), at(1), at(2), at(3), at(4), at(5), at(6), -1};
                T a, b, f;
                ng_s_row(q, pu, pz, pg, a, b, f);
                if (k > 0) sdl[(ng_i64)(k - 1) * count + i] = a;
                sd[(ng_i64)k * count + i] = b;
                sdu[(ng_i64)k * count + i] = q.c;
                sf[(ng_i64)k * count + i] = f;
                pu = q.bu, pz = q.bz, pg = q.bg;
            }
            whole = ng_gtsv_rows(p, sdl + i, sd + i, sdu + i, sf + i, count, P + i, Q + i, K + i, count, sf + i, count, pivot != 0) != 0;
        }
        if (whole) info[i] = ng_gtsv_rows(n, dl + i, d + i, du + i, B + i, batch, P + i, Q + i, K + i, count, B + i, batch, pivot != 0);
        else info[i] = 0;
        state[i] = whole;
    }
}
#endif

#if defined(NG_IL_RECOVER)
// Recover: partition k of system i (state[i] = 0 only), with the separators' solution (S's f
// after gtsv_il_solve, at xs[k·count + i]), solved again and written over B.
extern "C" __global__ void __launch_bounds__(NG_NT) NG_CAT(gtsv_il_recover_, NG_SUFFIX)(
    int n, const T *dl, const T *d, const T *du, T *B, ng_i64 batch, ng_i64 count, int pivot, const T *xs, const int *state) {
    const ng_spike_smem s(NG_ROWS, false);
    const ng_i64 i0 = (ng_i64)blockIdx.x * 32 + (threadIdx.x & 31);
    if (i0 >= count || state[i0] != 0) return;
    ng_i64 i;
    int k, m;
    if (!ng_il_stage(s, n, dl, d, du, B, batch, count, i, k, m)) return;
    const int o = threadIdx.x * NG_L, p = (n + NG_L - 1) / NG_L;
    const T zero = ng_zero<T>();
    // The reduce met the same pivots (they do not depend on the right-hand side): no failure.
    ng_partition_recover(m, s.a + o, s.b + o, s.c + o, s.f + o, s.K + o, pivot != 0, xs[(ng_i64)k * count + i], k + 1 < p ? xs[(ng_i64)(k + 1) * count + i] : zero);
    for (int l = 0; l <= m; ++l) B[((ng_i64)k * NG_L + l) * batch + i] = s.f[o + l];
}
#endif

#if defined(NG_BLOCK)
// Block per system (strided batch, and one system of up to NG_NT·NG_L rows): system
// blockIdx.x, right-hand sides blockIdx.y, +gridDim.y, ... The system is read once into
// shared memory. Without pivoting or diagonally dominant by rows: its
// partitions (a thread each) give S (order p <= NG_NT), which thread 0 solves, then the
// interiors again with their separators known; otherwise, or when a pivot block of a partition or of S is exactly singular, thread 0
// solves the whole system by diagonal pivoting, which decides info. X is written only on
// success.
extern "C" __global__ void __launch_bounds__(NG_NT) NG_CAT(gtsv_block_, NG_SUFFIX)(
    int n, ng_i64 nrhs, const T *dl, const T *d, const T *du, ng_i64 stride_diag, T *B, ng_i64 ldb, ng_i64 stride_b, int *info,
    int pivot) {
    const int p = (n + NG_L - 1) / NG_L, rows = p * NG_L, t = threadIdx.x;
    const ng_spike_smem s(rows, true);
    const ng_i64 sys = blockIdx.x, o = sys * stride_diag;
    const T *dls = n > 1 ? dl + o : nullptr, *ds = d + o, *dus = n > 1 ? du + o : nullptr;
    const bool piv = pivot != 0;
    const T zero = ng_zero<T>();
    for (ng_i64 r = blockIdx.y; r < nrhs; r += gridDim.y) {
        T *x = B + sys * stride_b + r * ldb;
        ng_spike_stage(s, rows, n, 0, dls, ds, dus, x);
        bool dominant = true;
        for (int l = t; l < n; l += blockDim.x) dominant = dominant && ng_dominant_row(s.a[l], s.b[l], s.c[l]);
        // Partitions lose backward stability on systems that need pivoting (their separators
        // are never pivoted on): those go to the whole-system solver.
        bool failed = piv && !__syncthreads_and(dominant);
        __syncthreads();
        if (!failed) {
            ng_part q = {zero, zero, zero, zero, zero, zero, zero, -1};
            const int m = t < p ? min(NG_L, n - t * NG_L) - 1 : 0;
            if (t < p) q = ng_partition_reduce(m, s.a + t * NG_L, s.b + t * NG_L, s.c + t * NG_L, s.f + t * NG_L, s.K + t * NG_L, piv);
            s.x3[t] = q.bu;
            s.x3[NG_NT + t] = q.bz;
            s.x3[2 * NG_NT + t] = q.bg;
            failed = __syncthreads_or(q.bad >= 0);
            if (!failed && t < p) {
                const T z = ng_zero<T>();
                ng_s_row(q, t > 0 ? s.x3[t - 1] : z, t > 0 ? s.x3[NG_NT + t - 1] : z, t > 0 ? s.x3[2 * NG_NT + t - 1] : z, s.sa[t], s.sb[t], s.sf[t]);
                s.sc[t] = q.c;
            }
            __syncthreads();
            if (!failed && t == 0) {
                T pz0 = zero, pz1 = zero;
                failed = ng_seg_forward<false>(p, s.sa, s.sb, s.sc, s.sf, s.SK, piv, pz0, pz1) >= 0;
                if (!failed) ng_seg_backward<false>(p, s.sa, s.sb, s.sf, s.SK, pz0, pz1);
            }
            failed = __syncthreads_or(failed);
            // The reduce overwrote the rows: read them again (from L2, most likely) and solve
            // each interior with its separators known, as the recover kernel does.
            ng_spike_stage(s, rows, n, 0, dls, ds, dus, x);
            __syncthreads();
            if (!failed) {
                if (t < p) failed = ng_partition_recover(m, s.a + t * NG_L, s.b + t * NG_L, s.c + t * NG_L, s.f + t * NG_L, s.K + t * NG_L, piv, s.sf[t], t + 1 < p ? s.sf[t + 1] : zero) >= 0;
                // Rounding only: the reduce met the same pivots.
                if (__syncthreads_or(failed)) {
                    failed = true;
                    ng_spike_stage(s, rows, n, 0, dls, ds, dus, x);
                    __syncthreads();
                }
            }
        }
        int bad = -1;
        if (failed && t == 0) {
            T pz0 = zero, pz1 = zero;
            bad = ng_seg_forward<false>(n, s.a, s.b, s.c, s.f, s.K, piv, pz0, pz1);
            if (bad < 0) ng_seg_backward<false>(n, s.a, s.b, s.f, s.K, pz0, pz1);
        }
        if (t == 0) s.x3[0] = ng_from_real_t<T>::of(R(bad + 1));
        __syncthreads();
        const bool singular = !ng_is_zero(s.x3[0]);
        if (r == blockIdx.y && blockIdx.y == 0 && t == 0) info[sys] = bad + 1;
        if (!singular)
            for (int l = t; l < n; l += blockDim.x) x[l] = s.f[l];
        __syncthreads();
    }
}
#endif
#if defined(NG_SMALL)
// Small systems (up to 68 rows), `per` (<= blockDim.x <= NG_NT) per block, a thread each:
// systems blockIdx.x·per + threadIdx.x of `batch`, right-hand sides blockIdx.y, +gridDim.y,
// ... Their rows are staged through shared memory together by every thread of the block
// (coalesced when the systems are packed; shared memory bounds the systems an SM holds, so
// the threads beyond `per` are there to keep more loads in flight), each system's at an odd
// stride (the threads' rows fall in distinct banks); each of the first `per` threads solves
// its system by diagonal pivoting (or Thomas) there. X is written only where info = 0.
extern "C" __global__ void __launch_bounds__(NG_NT) NG_CAT(gtsv_small_, NG_SUFFIX)(
    int n, ng_i64 nrhs, const T *dl, const T *d, const T *du, ng_i64 stride_diag, T *B, ng_i64 ldb, ng_i64 stride_b, int *info,
    ng_i64 batch, int pivot, int per) {
    const int ld = n | 1, t = threadIdx.x, nt = blockDim.x;
    extern __shared__ __align__(16) unsigned char ng_smem_raw[];
    T *a = reinterpret_cast<T *>(ng_smem_raw), *b = a + per * ld, *c = b + per * ld, *f = c + per * ld;
    signed char *K = reinterpret_cast<signed char *>(f + per * ld);
    __shared__ int bad[NG_NT];
    const ng_i64 sys0 = (ng_i64)blockIdx.x * per;
    const int count = (int)min((ng_i64)per, batch - sys0);
    const T zero = ng_zero<T>();
    for (ng_i64 r = blockIdx.y; r < nrhs; r += gridDim.y) {
        for (int l = t; l < count * n; l += nt) {
            const int j = l / n, k = l % n, o = j * ld + k;
            const ng_i64 sd = (sys0 + j) * stride_diag;
            a[o] = k > 0 ? dl[sd + k - 1] : zero;
            b[o] = d[sd + k];
            c[o] = k + 1 < n ? du[sd + k] : zero;
            f[o] = B[(sys0 + j) * stride_b + r * ldb + k];
        }
        __syncthreads();
        if (t < count) {
            T pz0 = zero, pz1 = zero;
            const int o = t * ld;
            bad[t] = ng_seg_forward<false>(n, a + o, b + o, c + o, f + o, K + o, pivot != 0, pz0, pz1);
            if (bad[t] < 0) ng_seg_backward<false>(n, a + o, b + o, f + o, K + o, pz0, pz1);
            if (r == blockIdx.y && blockIdx.y == 0) info[sys0 + t] = bad[t] + 1;
        }
        __syncthreads();
        for (int l = t; l < count * n; l += nt) {
            const int j = l / n, k = l % n;
            if (bad[j] < 0) B[(sys0 + j) * stride_b + r * ldb + k] = f[j * ld + k];
        }
        __syncthreads();
    }
}
#endif
#endif
