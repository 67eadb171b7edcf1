/* numgpu_{s,d}khatri_rao and numgpu_{s,d}mttkrp from C: the Khatri-Rao product entry by entry
 * (one rounded product each, so the same bits as the product written here); MTTKRP of a
 * 5 x 6 x 7 and a 3 x 4 x 2 x 5 tensor in every mode against what a CBLAS user writes
 * instead: the explicit mode unfolding, the Khatri-Rao product of the other factors in reverse
 * mode order, and cblas_?gemm, within 2 (k + d) eps |X_(n)| |K| (both sides round); factors
 * and M with padded leading dimensions whose padding must stay NaN. The factor pointer array,
 * dims and ldu are host arrays; the factors, X and M host arrays or numgpu_malloc memory. The
 * argument checks name their argument and write nothing.
 *
 * The decompositions (the same places):
 * - numgpu_?cp_als on a planted rank-2 5 x 6 x 4 tensor (options struct, seeded start): fit
 *   near 1, and numgpu_?cp_reconstruct of its factors and lambda equal to X within 1 - fit;
 * - numgpu_?tt_svd and numgpu_?tr_svd of a random 5 x 6 x 7 tensor with eps = 0.3 through the
 *   capacity protocol (a query with capacity 0 and NULL cores: NUMGPU_INSUFFICIENT_CAPACITY
 *   naming capacity, offsets[3] the size; then the call), reconstructed within eps ||X||; the
 *   train's first rank the one a LAPACK user gets from dgesvd_'s singular values of X_(1) and
 *   the truncation rule;
 * - numgpu_?ht of a random 5 x 6 x 7 tensor at ranks (2, 3, 3, 3): U1 spans the leading left
 *   singular vectors of X_(1) from dgesvd_ (|U1^T U_ref| has a unit diagonal), and
 *   numgpu_?ht_reconstruct equals the HT formula summed here. */
#include "numgpu_test.h"

enum { R = 4, MAXD = 4 };

/* LAPACK's SVD (OpenBLAS carries it), with gfortran's hidden lengths of JOBU and JOBVT. */
void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a, const int *lda, double *s,
             double *u, const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork, int *info,
             size_t jobu_len, size_t jobvt_len);

typedef numgpu_status (*train_fn)(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X, double eps,
                                  const int64_t *max_ranks, int64_t *ranks, void *cores, int64_t capacity,
                                  int64_t *offsets);
typedef numgpu_status (*chain_fn)(numgpu_handle *h, int32_t ndim, const int64_t *dims, const int64_t *ranks,
                                  const void *cores, void *X);

typedef struct {
    const prec_t *p;
    numgpu_status (*kr)(numgpu_handle *h, int64_t m, int64_t n, int64_t r, const void *A, int64_t lda, const void *B,
                        int64_t ldb, void *C, int64_t ldc);
    numgpu_status (*mttkrp)(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X, int32_t mode,
                            int64_t rank, const void *const *U, const int64_t *ldu, void *M, int64_t ldm);
    numgpu_status (*cp_als)(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X, int64_t rank,
                            void *const *U, const int64_t *ldu, void *lambda, const numgpu_cp_options *opts,
                            double *fit, int32_t *iters);
    numgpu_status (*cp_rec)(numgpu_handle *h, int32_t ndim, const int64_t *dims, int64_t rank, const void *const *U,
                            const int64_t *ldu, const void *lambda, void *X);
    train_fn tt, tr;
    chain_fn tt_rec, tr_rec;
    numgpu_status (*ht)(numgpu_handle *h, const int64_t *dims, const void *X, const int64_t *ranks, void *U1,
                        void *U2, void *U3, void *B1, void *B2);
    numgpu_status (*ht_rec)(numgpu_handle *h, const int64_t *dims, const int64_t *ranks, const void *U1,
                            const void *U2, const void *U3, const void *B1, const void *B2, void *X);
} ten_t;

#define TEN_FNS(P, T)                                                                                                \
    static numgpu_status P##_kr(numgpu_handle *h, int64_t m, int64_t n, int64_t r, const void *A, int64_t lda,      \
                                const void *B, int64_t ldb, void *C, int64_t ldc)                                   \
    {                                                                                                                \
        return numgpu_##P##khatri_rao(h, m, n, r, (const T *)A, lda, (const T *)B, ldb, (T *)C, ldc);                \
    }                                                                                                                \
    static numgpu_status P##_mttkrp(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X,             \
                                    int32_t mode, int64_t rank, const void *const *U, const int64_t *ldu, void *M,   \
                                    int64_t ldm)                                                                     \
    {                                                                                                                \
        return numgpu_##P##mttkrp(h, ndim, dims, (const T *)X, mode, rank, (const T *const *)U, ldu, (T *)M, ldm);   \
    }                                                                                                                \
    static numgpu_status P##_cp_als(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X, int64_t rank, \
                                    void *const *U, const int64_t *ldu, void *lambda, const numgpu_cp_options *o,    \
                                    double *fit, int32_t *iters)                                                     \
    {                                                                                                                \
        T f = 0;                                                                                                     \
        numgpu_status s = numgpu_##P##cp_als(h, ndim, dims, (const T *)X, rank, (T *const *)U, ldu, (T *)lambda, o,  \
                                             &f, iters);                                                             \
        *fit = f;                                                                                                    \
        return s;                                                                                                    \
    }                                                                                                                \
    static numgpu_status P##_cp_rec(numgpu_handle *h, int32_t ndim, const int64_t *dims, int64_t rank,               \
                                    const void *const *U, const int64_t *ldu, const void *lambda, void *X)           \
    {                                                                                                                \
        return numgpu_##P##cp_reconstruct(h, ndim, dims, rank, (const T *const *)U, ldu, (const T *)lambda, (T *)X); \
    }                                                                                                                \
    static numgpu_status P##_tt(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X, double eps,      \
                                const int64_t *mr, int64_t *ranks, void *cores, int64_t cap, int64_t *offsets)       \
    {                                                                                                                \
        return numgpu_##P##tt_svd(h, ndim, dims, (const T *)X, (T)eps, mr, ranks, (T *)cores, cap, offsets);         \
    }                                                                                                                \
    static numgpu_status P##_tr(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X, double eps,      \
                                const int64_t *mr, int64_t *ranks, void *cores, int64_t cap, int64_t *offsets)       \
    {                                                                                                                \
        return numgpu_##P##tr_svd(h, ndim, dims, (const T *)X, (T)eps, mr, ranks, (T *)cores, cap, offsets);         \
    }                                                                                                                \
    static numgpu_status P##_tt_rec(numgpu_handle *h, int32_t ndim, const int64_t *dims, const int64_t *ranks,       \
                                    const void *cores, void *X)                                                      \
    {                                                                                                                \
        return numgpu_##P##tt_reconstruct(h, ndim, dims, ranks, (const T *)cores, (T *)X);                           \
    }                                                                                                                \
    static numgpu_status P##_tr_rec(numgpu_handle *h, int32_t ndim, const int64_t *dims, const int64_t *ranks,       \
                                    const void *cores, void *X)                                                      \
    {                                                                                                                \
        return numgpu_##P##tr_reconstruct(h, ndim, dims, ranks, (const T *)cores, (T *)X);                           \
    }                                                                                                                \
    static numgpu_status P##_ht(numgpu_handle *h, const int64_t *dims, const void *X, const int64_t *ranks, void *U1, \
                                void *U2, void *U3, void *B1, void *B2)                                              \
    {                                                                                                                \
        return numgpu_##P##ht(h, dims, (const T *)X, ranks, (T *)U1, (T *)U2, (T *)U3, (T *)B1, (T *)B2);            \
    }                                                                                                                \
    static numgpu_status P##_ht_rec(numgpu_handle *h, const int64_t *dims, const int64_t *ranks, const void *U1,     \
                                    const void *U2, const void *U3, const void *B1, const void *B2, void *X)         \
    {                                                                                                                \
        return numgpu_##P##ht_reconstruct(h, dims, ranks, (const T *)U1, (const T *)U2, (const T *)U3,               \
                                          (const T *)B1, (const T *)B2, (T *)X);                                     \
    }
TEN_FNS(s, float)
TEN_FNS(d, double)

static const ten_t TENS[2] = {
    {&PRECS[0], s_kr, s_mttkrp, s_cp_als, s_cp_rec, s_tt, s_tr, s_tt_rec, s_tr_rec, s_ht, s_ht_rec},
    {&PRECS[1], d_kr, d_mttkrp, d_cp_als, d_cp_rec, d_tt, d_tr, d_tt_rec, d_tr_rec, d_ht, d_ht_rec}};

static void run_khatri_rao(const where_t *w, const ten_t *t)
{
    const prec_t *p = t->p;
    enum { M = 5, N = 3 };
    size_t es = p->size, i, j, k, ldc = M * N + 1;
    void *A = new_matrices(p, 1, M + 1, (M + 1) * R, M, R, 1, 0, CNAN), *B = new_matrices(p, 1, N, N * R, N, R, 1, 0, CNAN);
    void *C = new_buffer(p, ldc * R, 0, CNAN);
    stage_t st = stage_for(w);
    numgpu_status s = t->kr(w->h, M, N, R, put(&st, A, (M + 1) * R * es), M + 1, put(&st, B, N * R * es), N,
                            put(&st, C, ldc * R * es), (int64_t)ldc);
    const char *fail = back(&st);
    int ok = 1;
    if (call_ok(s, fail, w->name, p->letter[0] == 's' ? "numgpu_skhatri_rao" : "numgpu_dkhatri_rao")) {
        for (k = 0; k < R; k++) {
            for (i = 0; i < M; i++)
                for (j = 0; j < N; j++) {
                    double want = rget(p, A, i + k * (M + 1)) * rget(p, B, j + k * N);
                    ok = ok && rget(p, C, j + i * N + k * ldc) == (p->dbl ? want : (double)(float)want);
                }
            ok = ok && isnan(rget(p, C, M * N + k * ldc));
        }
        check(ok, "%s: numgpu_%skhatri_rao: not the rounded products, or padding written", w->name, p->letter);
    }
    free(A);
    free(B);
    free(C);
}

/* The explicit mode-`mode` unfolding of X (dims[0..nd)) into Xn (dims[mode] x others). */
static void unfold(const prec_t *p, int nd, const int64_t *dims, const void *X, int mode, void *Xn)
{
    size_t numel = 1, e;
    int k;
    for (k = 0; k < nd; k++)
        numel *= (size_t)dims[k];
    for (e = 0; e < numel; e++) {
        size_t rest = e, col = 0, stride = 1, i = 0;
        for (k = 0; k < nd; k++) {
            size_t ik = rest % (size_t)dims[k];
            rest /= (size_t)dims[k];
            if (k == mode)
                i = ik;
            else {
                col += ik * stride;
                stride *= (size_t)dims[k];
            }
        }
        rset(p, Xn, i + col * (size_t)dims[mode], rget(p, X, e));
    }
}

/* K(j, r) = prod over k != mode of U_k(i_k, r), j = i_0 + dims[0] (i_1 + ...) over k != mode:
 * U_{d-1} (.) ... (.) U_0 without U_mode. `abs`: of |U_k|, in double. */
static double kr_entry(const prec_t *p, int nd, const int64_t *dims, void *const *U, const int64_t *ldu, int mode, size_t j,
                       int r, int abs)
{
    double v = 1;
    int k;
    for (k = 0; k < nd; k++) {
        size_t ik;
        if (k == mode)
            continue;
        ik = j % (size_t)dims[k];
        j /= (size_t)dims[k];
        v *= abs ? fabs(rget(p, U[k], ik + r * (size_t)ldu[k])) : rget(p, U[k], ik + r * (size_t)ldu[k]);
    }
    return v;
}

static void run_mttkrp(const where_t *w, const ten_t *t, int nd, const int64_t *dims)
{
    const prec_t *p = t->p;
    size_t es = p->size, numel = 1, others, e;
    int64_t ldu[MAXD];
    void *U[MAXD], *Ud[MAXD], *X, *Xn, *K, *ref, *M;
    int k, mode, r;
    for (k = 0; k < nd; k++) {
        numel *= (size_t)dims[k];
        ldu[k] = dims[k] + 1;
        U[k] = new_matrices(p, 1, (size_t)ldu[k], (size_t)ldu[k] * R, (size_t)dims[k], R, 1, 0, CNAN);
    }
    X = new_buffer(p, numel, 1, 0);
    Xn = xmalloc(numel * es);
    for (mode = 0; mode < nd; mode++) {
        size_t rows = (size_t)dims[mode], ldm = rows + 2;
        stage_t st = stage_for(w);
        numgpu_status s;
        const char *fail;
        int ok = 1;
        others = numel / rows;
        K = xmalloc(others * R * es);
        ref = xmalloc(rows * R * es);
        M = new_buffer(p, ldm * R, 0, CNAN);
        unfold(p, nd, dims, X, mode, Xn);
        for (r = 0; r < R; r++)
            for (e = 0; e < others; e++)
                rset(p, K, e + r * others, kr_entry(p, nd, dims, U, ldu, mode, e, r, 0));
        p->gemm(0, 0, (int)rows, R, (int)others, 1.0, Xn, (int)rows, K, (int)others, 0.0, ref, (int)rows);
        for (k = 0; k < nd; k++)
            Ud[k] = k == mode ? NULL : put(&st, U[k], (size_t)ldu[k] * R * es);
        s = t->mttkrp(w->h, nd, dims, put(&st, X, numel * es), mode, R, (const void *const *)Ud, ldu,
                      put(&st, M, ldm * R * es), (int64_t)ldm);
        fail = back(&st);
        if (call_ok(s, fail, w->name, "mttkrp")) {
            for (r = 0; r < R; r++) {
                size_t i;
                for (i = 0; i < rows; i++) {
                    double bound = 0;
                    for (e = 0; e < others; e++)
                        bound += fabs(rget(p, Xn, i + e * rows)) * kr_entry(p, nd, dims, U, ldu, mode, e, r, 1);
                    ok = ok && fabs(rget(p, M, i + r * ldm) - rget(p, ref, i + r * rows)) <= 2 * (others + nd) * p->eps * bound;
                }
                ok = ok && isnan(rget(p, M, rows + r * ldm)) && isnan(rget(p, M, rows + 1 + r * ldm));
            }
            check(ok, "%s: numgpu_%smttkrp order %d mode %d: not the unfold + Khatri-Rao + cblas_%sgemm product, or "
                      "padding written",
                  w->name, p->letter, nd, mode, p->letter);
        }
        free(K);
        free(ref);
        free(M);
    }
    for (k = 0; k < nd; k++)
        free(U[k]);
    free(X);
    free(Xn);
}

/* ||A - B||_F / ||B||_F of n elements (A of the precision, B double). */
static double rel_diff(const prec_t *p, const void *A, const double *B, size_t n)
{
    double num = 0, den = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        num += (rget(p, A, i) - B[i]) * (rget(p, A, i) - B[i]);
        den += B[i] * B[i];
    }
    return sqrt(num) / sqrt(den);
}

/* CP-ALS of a planted rank-2 tensor, then its reconstruction. */
static void run_cp(const where_t *w, const ten_t *t)
{
    enum { N1 = 5, N2 = 6, N3 = 4, RK = 2 };
    const prec_t *p = t->p;
    static const int64_t dims[3] = {N1, N2, N3}, ldu[3] = {N1, N2, N3};
    size_t es = p->size, n = N1 * N2 * N3, i, j, k, r;
    double fac[3][N3 * RK + N2 * RK + N1 * RK], *xd = xmalloc(n * sizeof(double)), fit = -1;
    void *X = new_buffer(p, n, 0, 0), *U[3], *Ud[3], *lambda = new_buffer(p, RK, 0, CNAN), *Xr = new_buffer(p, n, 0, CNAN);
    int64_t dim3[3] = {N1, N2, N3};
    numgpu_cp_options o;
    int32_t iters = -7;
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    memset(&o, 0, sizeof o);
    o.tol = p->dbl ? 1e-12 : 1e-8;
    o.max_iters = 1000;
    o.init = NUMGPU_CP_INIT_RANDOM;
    o.seed = 11;
    for (k = 0; k < 3; k++) {
        for (i = 0; i < (size_t)dim3[k] * RK; i++)
            fac[k][i] = rnd();
        U[k] = new_buffer(p, (size_t)dim3[k] * RK, 0, CNAN);
    }
    for (k = 0; k < N3; k++)
        for (j = 0; j < N2; j++)
            for (i = 0; i < N1; i++) {
                double v = 0;
                for (r = 0; r < RK; r++)
                    v += fac[0][i + r * N1] * fac[1][j + r * N2] * fac[2][k + r * N3];
                rset(p, X, i + N1 * (j + N2 * k), v);
                xd[i + N1 * (j + N2 * k)] = rget(p, X, i + N1 * (j + N2 * k));
            }
    for (k = 0; k < 3; k++)
        Ud[k] = put(&st, U[k], (size_t)dim3[k] * RK * es);
    s = t->cp_als(w->h, 3, dims, put(&st, X, n * es), RK, Ud, ldu, put(&st, lambda, RK * es), &o, &fit, &iters);
    fail = back(&st);
    if (!call_ok(s, fail, w->name, "cp_als"))
        goto done;
    check(fit >= 1 - (p->dbl ? 1e-7 : 2e-3) && iters >= 1, "%s: numgpu_%scp_als of a planted rank-2 tensor: fit %g after %d iterations",
          w->name, p->letter, fit, (int)iters);
    for (k = 0; k < 3; k++)
        Ud[k] = put(&st, U[k], (size_t)dim3[k] * RK * es);
    s = t->cp_rec(w->h, 3, dims, RK, (const void *const *)Ud, ldu, put(&st, lambda, RK * es), put(&st, Xr, n * es));
    fail = back(&st);
    if (call_ok(s, fail, w->name, "cp_reconstruct"))
        check(fabs(rel_diff(p, Xr, xd, n) - (1 - fit)) <= 10 * sqrt(p->eps), "%s: numgpu_%scp_reconstruct: error %g, 1 - fit %g",
              w->name, p->letter, rel_diff(p, Xr, xd, n), 1 - fit);
done:
    for (k = 0; k < 3; k++)
        free(U[k]);
    free(X);
    free(Xr);
    free(xd);
    free(lambda);
}

/* The rank TT-SVD's first step keeps: the singular values of X_(1) (N1 x JK) from LAPACK's
 * dgesvd_, the smallest r whose discarded squares sum to <= (eps ||X||)^2 / (d - 1). */
static int64_t lapack_first_rank(const double *xd, int m, int n, double eps, int d)
{
    double *a = xdup(xd, (size_t)m * n * sizeof(double)), s[64], dummy[1], work[1024], tail = 0, total = 0, delta2;
    int one = 1, lwork = 1024, info = 0, r;
    dgesvd_("N", "N", &m, &n, a, &m, s, dummy, &one, dummy, &one, work, &lwork, &info, 1, 1);
    free(a);
    for (r = 0; r < m && r < n; r++)
        total += s[r] * s[r];
    delta2 = eps * eps * total / (d - 1);
    for (r = (m < n ? m : n); r > 1 && tail + s[r - 1] * s[r - 1] <= delta2; r--)
        tail += s[r - 1] * s[r - 1];
    return info == 0 ? r : -1;
}

/* TT-SVD or TR-SVD of a random tensor with the capacity protocol, then its reconstruction. */
static void run_train(const where_t *w, const ten_t *t, int ring)
{
    enum { N1 = 5, N2 = 6, N3 = 7 };
    const prec_t *p = t->p;
    static const int64_t dims[3] = {N1, N2, N3};
    size_t es = p->size, n = N1 * N2 * N3, i;
    void *X = new_buffer(p, n, 1, 0), *Xr = new_buffer(p, n, 0, CNAN), *cores;
    double *xd = xmalloc(n * sizeof(double)), eps = 0.3;
    int64_t ranks[4] = {-7, -7, -7, -7}, offsets[4] = {-7, -7, -7, -7}, need;
    const char *name = ring ? "tr_svd" : "tt_svd";
    int arg;
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    for (i = 0; i < n; i++)
        xd[i] = rget(p, X, i);
    s = (ring ? t->tr : t->tt)(w->h, 3, dims, put(&st, X, n * es), eps, NULL, ranks, NULL, 0, offsets);
    arg = numgpu_last_error_arg(); /* before back(), whose calls succeed and clear it */
    fail = back(&st);
    need = offsets[3];
    check(s == NUMGPU_INSUFFICIENT_CAPACITY && fail == NULL && arg == 9 && need > 0 && ranks[0] == -7 && offsets[0] == -7,
          "%s: numgpu_%s%s query: status %d naming argument %d, offsets[3] = %lld", w->name, p->letter, name, (int)s, arg,
          (long long)need);
    if (need <= 0)
        goto done;
    cores = new_buffer(p, (size_t)need, 0, CNAN);
    s = (ring ? t->tr : t->tt)(w->h, 3, dims, put(&st, X, n * es), eps, NULL, ranks, put(&st, cores, (size_t)need * es),
                               need, offsets);
    fail = back(&st);
    if (call_ok(s, fail, w->name, name)) {
        if (!ring)
            check(ranks[1] == lapack_first_rank(xd, N1, N2 * N3, eps, 3), "%s: numgpu_%stt_svd's first rank %lld, LAPACK's rule %lld",
                  w->name, p->letter, (long long)ranks[1], (long long)lapack_first_rank(xd, N1, N2 * N3, eps, 3));
        s = (ring ? t->tr_rec : t->tt_rec)(w->h, 3, dims, ranks, put(&st, cores, (size_t)need * es), put(&st, Xr, n * es));
        fail = back(&st);
        if (call_ok(s, fail, w->name, ring ? "tr_reconstruct" : "tt_reconstruct"))
            check(rel_diff(p, Xr, xd, n) <= eps + (p->dbl ? 1e-10 : 3e-3), "%s: numgpu_%s%s: error %g > eps %g (ranks %lld %lld %lld %lld)",
                  w->name, p->letter, name, rel_diff(p, Xr, xd, n), eps, (long long)ranks[0], (long long)ranks[1],
                  (long long)ranks[2], (long long)ranks[3]);
    }
    free(cores);
done:
    free(X);
    free(Xr);
    free(xd);
}

/* HT of a random tensor: U1 against LAPACK's left singular vectors of X_(1), the
 * reconstruction against the HT formula. */
static void run_ht(const where_t *w, const ten_t *t)
{
    enum { N1 = 5, N2 = 6, N3 = 7, R1 = 2, R2 = 3, R3 = 3, R4 = 3 };
    const prec_t *p = t->p;
    static const int64_t dims[3] = {N1, N2, N3}, ranks[4] = {R1, R2, R3, R4};
    size_t es = p->size, n = N1 * N2 * N3, i, j, k, a, b, c, q;
    void *X = new_buffer(p, n, 1, 0), *Xr = new_buffer(p, n, 0, CNAN), *P[5];
    size_t ext[5] = {N1 * R1, N2 * R2, N3 * R3, R4 * R3, R1 * R2 * R4};
    double *xd = xmalloc(n * sizeof(double)), *want = xmalloc(n * sizeof(double)), s[N1], u[N1 * N1], vt[1], work[1024];
    int m = N1, cols = N2 * N3, one = 1, lwork = 1024, info = 0, ok = 1;
    stage_t st = stage_for(w);
    numgpu_status sc;
    const char *fail;
    for (i = 0; i < n; i++)
        xd[i] = rget(p, X, i);
    for (k = 0; k < 5; k++)
        P[k] = new_buffer(p, ext[k], 0, CNAN);
    sc = t->ht(w->h, dims, put(&st, X, n * es), ranks, put(&st, P[0], ext[0] * es), put(&st, P[1], ext[1] * es),
               put(&st, P[2], ext[2] * es), put(&st, P[3], ext[3] * es), put(&st, P[4], ext[4] * es));
    fail = back(&st);
    if (!call_ok(sc, fail, w->name, "ht"))
        goto done;
    {
        double *a0 = xdup(xd, n * sizeof(double));
        dgesvd_("S", "N", &m, &cols, a0, &m, s, u, &m, vt, &one, work, &lwork, &info, 1, 1);
        free(a0);
    }
    for (c = 0; c < R1 && info == 0; c++) {
        double dot = 0;
        for (i = 0; i < N1; i++)
            dot += rget(p, P[0], i + c * N1) * u[i + c * N1];
        ok = ok && fabs(fabs(dot) - 1) <= (p->dbl ? 1e-8 : 1e-3);
    }
    check(info == 0 && ok, "%s: numgpu_%sht: U1 is not dgesvd_'s leading left singular vectors of X_(1)", w->name, p->letter);
    /* X(i, j, k) = sum U1(i, a) U2(j, b) B2(a, b, q) B1(q, c) U3(k, c). */
    for (k = 0; k < N3; k++)
        for (j = 0; j < N2; j++)
            for (i = 0; i < N1; i++) {
                double v = 0;
                for (a = 0; a < R1; a++)
                    for (b = 0; b < R2; b++)
                        for (q = 0; q < R4; q++)
                            for (c = 0; c < R3; c++)
                                v += rget(p, P[0], i + a * N1) * rget(p, P[1], j + b * N2) *
                                     rget(p, P[4], a + R1 * (b + R2 * q)) * rget(p, P[3], q + c * R4) *
                                     rget(p, P[2], k + c * N3);
                want[i + N1 * (j + N2 * k)] = v;
            }
    sc = t->ht_rec(w->h, dims, ranks, put(&st, P[0], ext[0] * es), put(&st, P[1], ext[1] * es), put(&st, P[2], ext[2] * es),
                   put(&st, P[3], ext[3] * es), put(&st, P[4], ext[4] * es), put(&st, Xr, n * es));
    fail = back(&st);
    if (call_ok(sc, fail, w->name, "ht_reconstruct"))
        check(rel_diff(p, Xr, want, n) <= 100 * p->eps, "%s: numgpu_%sht_reconstruct: %g from the HT formula", w->name,
              p->letter, rel_diff(p, Xr, want, n));
done:
    for (k = 0; k < 5; k++)
        free(P[k]);
    free(X);
    free(Xr);
    free(xd);
    free(want);
}

static void drop_ins(const where_t *w)
{
    static const int64_t d3[3] = {5, 6, 7}, d4[4] = {3, 4, 2, 5};
    int pi;
    for (pi = 0; pi < 2; pi++) {
        run_khatri_rao(w, &TENS[pi]);
        run_mttkrp(w, &TENS[pi], 3, d3);
        run_mttkrp(w, &TENS[pi], 4, d4);
        run_cp(w, &TENS[pi]);
        run_train(w, &TENS[pi], 0);
        run_train(w, &TENS[pi], 1);
        run_ht(w, &TENS[pi]);
    }
}

/* The decompositions' argument checks on a 2 x 3 x 4 tensor: each names its argument and writes
 * nothing; the capacity protocol's status names capacity and writes offsets[3] only. */
static void decomposition_checks(numgpu_handle *h, const char *hname)
{
    double X[24], u0[4], u1[6], u2[8], lambda[2] = {-7, -7}, fit = -7, cores[24], B[24];
    double *U[3] = {u0, u1, u2};
    int64_t dims[3] = {2, 3, 4}, ldu[3] = {2, 3, 4}, ranks[4] = {-7, -7, -7, -7}, offsets[4] = {-7, -7, -7, -7};
    int64_t bad_ranks[4] = {3, 1, 1, 1}, tt_ranks[4] = {2, 1, 1, 1};
    int32_t iters = -7;
    numgpu_cp_options o;
    numgpu_status s;
    int i;
    memset(&o, 0, sizeof o);
    for (i = 0; i < 24; i++) {
        X[i] = i + 1;
        cores[i] = -7;
        B[i] = -7;
    }
    for (i = 0; i < 4; i++)
        u0[i] = -7;
#define CP_UNTOUCHED (u0[0] == -7 && lambda[0] == -7 && iters == -7 && fit == -7)
    expect_invalid(numgpu_dcp_als(h, 3, dims, X, 0, U, ldu, lambda, &o, &fit, &iters), "numgpu_dcp_als", 5, "rank",
                   CP_UNTOUCHED, hname, "rank 0");
    o.max_iters = -1;
    expect_invalid(numgpu_dcp_als(h, 3, dims, X, 2, U, ldu, lambda, &o, &fit, &iters), "numgpu_dcp_als", 9, "max_iters",
                   CP_UNTOUCHED, hname, "opts->max_iters -1");
    o.max_iters = 0;
    expect_invalid(numgpu_dcp_als(h, 3, dims, X, 2, U, ldu, lambda, &o, &fit, NULL), "numgpu_dcp_als", 11, "iters",
                   CP_UNTOUCHED, hname, "NULL iters");
#undef CP_UNTOUCHED
#define TT_UNTOUCHED (ranks[0] == -7 && offsets[0] == -7 && offsets[3] == -7 && cores[0] == -7)
    expect_invalid(numgpu_dtt_svd(h, 3, dims, X, -1, NULL, ranks, cores, 24, offsets), "numgpu_dtt_svd", 5, "eps",
                   TT_UNTOUCHED, hname, "eps -1");
    expect_invalid(numgpu_dtr_svd(h, 3, dims, X, 0.1, NULL, ranks, cores, -1, offsets), "numgpu_dtr_svd", 9, "capacity",
                   TT_UNTOUCHED, hname, "capacity -1");
    /* The untouched test after the call (an argument's evaluation order is unspecified). */
    s = numgpu_dtt_svd(h, 3, dims, X, 0.0, NULL, ranks, cores, 1, offsets);
    expect_status(s, NUMGPU_INSUFFICIENT_CAPACITY, "numgpu_dtt_svd", 9, "capacity",
                  ranks[0] == -7 && offsets[0] == -7 && offsets[3] > 1 && cores[0] == -7, hname, "capacity 1");
#undef TT_UNTOUCHED
    expect_invalid(numgpu_dtt_reconstruct(h, 3, dims, tt_ranks, cores, B), "numgpu_dtt_reconstruct", 4, "ranks",
                   B[0] == -7, hname, "a train with ranks[0] = 2");
    expect_invalid(numgpu_dht(h, dims, X, bad_ranks, B, B + 4, B + 8, B + 12, B + 16), "numgpu_dht", 4, "ranks",
                   B[0] == -7 && B[23] == -7, hname, "ranks[0] > dims[0]");
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    double X[24], u0[4], u1[6], u2[8], M[8], A[6], B[4], C[12];
    const double *U[3] = {u0, u1, u2};
    int64_t dims[3] = {2, 3, 4}, bad_dims[3] = {2, -3, 4}, ldu[3] = {2, 3, 4}, short_ldu[3] = {2, 2, 4};
    const char *f = "numgpu_dmttkrp", *k = "numgpu_dkhatri_rao";
    int i;
    for (i = 0; i < 24; i++)
        X[i] = i;
    for (i = 0; i < 8; i++)
        M[i] = -7;
    for (i = 0; i < 12; i++)
        C[i] = -7;
    memcpy(u0, X, sizeof u0);
    memcpy(u1, X, sizeof u1);
    memcpy(u2, X, sizeof u2);
    memcpy(A, X, sizeof A);
    memcpy(B, X, sizeof B);
#define UNTOUCHED (M[0] == -7 && M[7] == -7)
    expect_invalid(numgpu_dmttkrp(h, 2, dims, X, 0, 2, U, ldu, M, 2), f, 2, "ndim", UNTOUCHED, hname, "ndim 2");
    expect_invalid(numgpu_dmttkrp(h, 3, NULL, X, 0, 2, U, ldu, M, 2), f, 3, "dims", UNTOUCHED, hname, "NULL dims");
    expect_invalid(numgpu_dmttkrp(h, 3, bad_dims, X, 0, 2, U, ldu, M, 2), f, 3, "dims[1]", UNTOUCHED, hname, "dims[1] < 0");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, NULL, 0, 2, U, ldu, M, 2), f, 4, "X", UNTOUCHED, hname, "NULL X");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 3, 2, U, ldu, M, 2), f, 5, "mode", UNTOUCHED, hname, "mode 3");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, -1, U, ldu, M, 2), f, 6, "rank", UNTOUCHED, hname, "rank -1");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, 2, NULL, ldu, M, 2), f, 7, "U", UNTOUCHED, hname, "NULL U");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, 2, U, short_ldu, M, 2), f, 8, "ldu[1]", UNTOUCHED, hname, "ldu[1] < dims[1]");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, 2, U, ldu, NULL, 2), f, 9, "M", UNTOUCHED, hname, "NULL M");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, 2, U, ldu, M, 1), f, 10, "ldm", UNTOUCHED, hname, "ldm < dims[0]");
    expect_invalid(numgpu_dkhatri_rao(h, 3, 2, 2, A, 2, B, 2, C, 6), k, 6, "lda", C[0] == -7, hname, "lda < m");
    expect_invalid(numgpu_dkhatri_rao(h, 3, 2, 2, A, 3, B, 2, C, 5), k, 10, "ldc", C[0] == -7, hname, "ldc < m n");
#undef UNTOUCHED
    decomposition_checks(h, hname);
}

int main(void)
{
    return run_program("test_tensor", argument_checks, drop_ins);
}
