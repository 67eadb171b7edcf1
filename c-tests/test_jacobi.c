/* numgpu_{s,d}syevj_batched, numgpu_{c,z}heevj_batched and numgpu_{s,d,c,z}gesvdj_batched as
 * drop-ins for LAPACKE_?syevd / ?heevd and LAPACKE_?gesvd: batches of random matrices (lower
 * and upper triangles; tall, square and wide shapes) against LAPACKE per matrix, values within
 * 30·max(m, n)·eps·||A||_F, the vectors orthonormal (||Q^H Q - I||_F / (max(m, n) eps) < 30)
 * and the decomposition's residual ||A - Z diag(w) Z^H|| (||A - U diag(s) V^H||) < 30 in
 * LAPACK's units; params (NULL and a zero-initialised struct are the same defaults; the sweep
 * limit gives info 1); and the argument checks name their argument and write nothing. Host
 * arrays and numgpu_malloc memory. */
#include "numgpu_test.h"
#include <lapacke.h>

enum { NB = 3, N = 37 };

/* Elements after LAPACKE's input matrix: OpenBLAS's zgemv kernel (zgesvd's bidiagonalisation)
 * reads past the end of the matrix, which an unlucky allocation under ASan turns into a SEGV. */
enum { SLACK = 64 };

typedef numgpu_status (*syevj_fn)(numgpu_handle *h, int32_t jobz, int32_t uplo, int64_t n, void *A, int64_t lda,
                                  int64_t sa, void *w, int64_t sw, const numgpu_jacobi_params *p, int32_t *info,
                                  int32_t *sweeps, void *res, int64_t batch);
typedef numgpu_status (*gesvdj_fn)(numgpu_handle *h, int32_t jobu, int32_t jobv, int64_t m, int64_t n, const void *A,
                                   int64_t lda, int64_t sa, void *S, int64_t ss, void *U, int64_t ldu, int64_t su,
                                   void *V, int64_t ldv, int64_t sv, const numgpu_jacobi_params *p, int32_t *info,
                                   int32_t *sweeps, void *res, int64_t batch);

typedef struct {
    const prec_t *p;
    syevj_fn syevj;
    gesvdj_fn gesvdj;
    int (*eig_ref)(int n, void *a, void *w);                 /* LAPACKE_?syevd / ?heevd, JOBZ = 'N', lower */
    int (*svd_ref)(int m, int n, void *a, void *s, void *sb); /* LAPACKE_?gesvd, no vectors */
} jac_t;

#define JAC_FNS(P, EV, T, R)                                                                                         \
    static numgpu_status P##_syevj(numgpu_handle *h, int32_t jobz, int32_t uplo, int64_t n, void *A, int64_t lda,   \
                                   int64_t sa, void *w, int64_t sw, const numgpu_jacobi_params *p, int32_t *info,   \
                                   int32_t *sweeps, void *res, int64_t batch)                                       \
    {                                                                                                               \
        return numgpu_##P##EV##j_batched(h, jobz, uplo, n, (T *)A, lda, sa, (R *)w, sw, p, info, sweeps, (R *)res,  \
                                         batch);                                                                    \
    }                                                                                                               \
    static numgpu_status P##_gesvdj(numgpu_handle *h, int32_t jobu, int32_t jobv, int64_t m, int64_t n,             \
                                    const void *A, int64_t lda, int64_t sa, void *S, int64_t ss, void *U,          \
                                    int64_t ldu, int64_t su, void *V, int64_t ldv, int64_t sv,                      \
                                    const numgpu_jacobi_params *p, int32_t *info, int32_t *sweeps, void *res,      \
                                    int64_t batch)                                                                  \
    {                                                                                                               \
        return numgpu_##P##gesvdj_batched(h, jobu, jobv, m, n, (const T *)A, lda, sa, (R *)S, ss, (T *)U, ldu, su,  \
                                          (T *)V, ldv, sv, p, info, sweeps, (R *)res, batch);                       \
    }
JAC_FNS(s, syev, float, float)
JAC_FNS(d, syev, double, double)
JAC_FNS(c, heev, numgpu_complex_float, float)
JAC_FNS(z, heev, numgpu_complex_double, double)

static int s_eig(int n, void *a, void *w) { return (int)LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w); }
static int d_eig(int n, void *a, void *w) { return (int)LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w); }
static int c_eig(int n, void *a, void *w) { return (int)LAPACKE_cheevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w); }
static int z_eig(int n, void *a, void *w) { return (int)LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w); }
static int s_svd(int m, int n, void *a, void *s, void *sb)
{
    return (int)LAPACKE_sgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, a, m, s, NULL, 1, NULL, 1, sb);
}
static int d_svd(int m, int n, void *a, void *s, void *sb)
{
    return (int)LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, a, m, s, NULL, 1, NULL, 1, sb);
}
static int c_svd(int m, int n, void *a, void *s, void *sb)
{
    return (int)LAPACKE_cgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, a, m, s, NULL, 1, NULL, 1, sb);
}
static int z_svd(int m, int n, void *a, void *s, void *sb)
{
    return (int)LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, a, m, s, NULL, 1, NULL, 1, sb);
}

static const jac_t JACS[4] = {{&PRECS[0], s_syevj, s_gesvdj, s_eig, s_svd},
                              {&PRECS[1], d_syevj, d_gesvdj, d_eig, d_svd},
                              {&PRECS[2], c_syevj, c_gesvdj, c_eig, c_svd},
                              {&PRECS[3], z_syevj, z_gesvdj, z_eig, z_svd}};

/* ||Q^H Q - I||_F / (dim eps) of the rows x cols Q (leading dimension rows). */
static double orth_ratio(const prec_t *p, const void *Q, size_t rows, size_t cols, size_t dim)
{
    void *g = new_buffer(p, cols * cols, 0, 0.0), *eye = new_buffer(p, cols * cols, 0, 0.0);
    size_t j;
    double r;
    for (j = 0; j < cols; j++)
        cset(p, eye, j + j * cols, 1.0);
    p->gemm(NUMGPU_OP_C, NUMGPU_OP_N, (int)cols, (int)cols, (int)rows, 1.0, Q, (int)rows, Q, (int)rows, 0.0, g,
            (int)cols);
    r = ratio_of(fro_diff(p, g, cols, eye, cols, cols, cols), (double)dim * p->eps);
    free(g);
    free(eye);
    return r;
}

/* ||A - U diag(s) V^H||_F / (dim eps ||A||_F); U m x k, V n x k, s of the real type. */
static double decomposition_ratio(const prec_t *p, const void *A, size_t m, size_t n, const void *U, const void *s,
                                  const void *V, size_t k, size_t dim)
{
    void *us = new_buffer(p, m * k, 0, 0.0), *prod = new_buffer(p, m * n, 0, 0.0);
    size_t i, j;
    double r;
    for (j = 0; j < k; j++)
        for (i = 0; i < m; i++)
            cset(p, us, i + j * m, cget(p, U, i + j * m) * rget(p, s, j));
    p->gemm(NUMGPU_OP_N, NUMGPU_OP_C, (int)m, (int)n, (int)k, 1.0, us, (int)m, V, (int)n, 0.0, prod, (int)m);
    r = ratio_of(fro_diff(p, prod, m, A, m, m, n), (double)dim * p->eps * fro_diff(p, A, m, NULL, 0, m, n));
    free(us);
    free(prod);
    return r;
}

/* NB random Hermitian matrices of order N (the other triangle NaN), uplo lower or upper. */
static void run_syevj(const where_t *w, const jac_t *g, int32_t uplo)
{
    const prec_t *p = g->p;
    size_t es = p->size, rs = p->rsize, i, r, c;
    void *full = xmalloc(NB * N * N * es), *a = xmalloc(NB * N * N * es), *wv = xmalloc(NB * N * rs),
         *ref = xmalloc(N * rs), *res = xmalloc(NB * rs), *copy = xmalloc((N * N + SLACK) * es);
    int32_t info[NB], sweeps[NB];
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    char what[96];
    for (i = 0; i < NB; i++)
        for (c = 0; c < N; c++)
            for (r = c; r < N; r++) {
                dcx v = r == c ? creal(rnd_elem()) : rnd_elem();
                cset(p, full, i * N * N + r + c * N, v);
                cset(p, full, i * N * N + c + r * N, conj(v));
            }
    for (i = 0; i < NB * N * N; i++) {
        size_t e = i % (N * N), rr = e % N, cc = e / N;
        cset(p, a, i, (uplo == NUMGPU_UPLO_LOWER ? rr >= cc : rr <= cc) ? cget(p, full, i) : CNAN);
    }
    snprintf(what, sizeof what, "numgpu_%s%sj_batched uplo %d", p->letter, p->cplx ? "heev" : "syev", (int)uplo);
    s = g->syevj(w->h, NUMGPU_JACOBI_VEC, uplo, N, put(&st, a, NB * N * N * es), N, N * N, put(&st, wv, NB * N * rs), N,
                 NULL, put(&st, info, sizeof info), put(&st, sweeps, sizeof sweeps), put(&st, res, NB * rs), NB);
    fail = back(&st);
    if (call_ok(s, fail, w->name, what))
        for (i = 0; i < NB; i++) {
            double worst = 0, nrm = fro_diff(p, eptr(p, full, i * N * N), N, NULL, 0, N, N);
            memcpy(copy, eptr(p, full, i * N * N), N * N * es);
            check(g->eig_ref(N, copy, ref) == 0, "LAPACKE eigen solver failed");
            for (r = 0; r < N; r++)
                worst = fmax(worst, fabs(rget(p, (char *)wv + i * N * rs, r) - rget(p, ref, r)));
            check(info[i] == 0 && sweeps[i] > 0 && rget(p, res, i) <= p->eps, "%s: %s matrix %lu: info %d sweeps %d residual %g",
                  w->name, what, (unsigned long)i, (int)info[i], (int)sweeps[i], rget(p, res, i));
            check(worst <= TOL * N * p->eps * nrm, "%s: %s matrix %lu: |w - LAPACKE| = %.3e", w->name, what,
                  (unsigned long)i, worst);
            check(orth_ratio(p, eptr(p, a, i * N * N), N, N, N) < TOL, "%s: %s matrix %lu: Z not orthonormal", w->name,
                  what, (unsigned long)i);
            check(decomposition_ratio(p, eptr(p, full, i * N * N), N, N, eptr(p, a, i * N * N), (char *)wv + i * N * rs,
                                      eptr(p, a, i * N * N), N, N) < TOL,
                  "%s: %s matrix %lu: ||A - Z diag(w) Z^H|| too large", w->name, what, (unsigned long)i);
        }
    free(full);
    free(a);
    free(wv);
    free(ref);
    free(res);
    free(copy);
}

/* NB random m x n matrices, U and V, against LAPACKE_?gesvd. */
static void run_gesvdj(const where_t *w, const jac_t *g, size_t m, size_t n)
{
    const prec_t *p = g->p;
    size_t es = p->size, rs = p->rsize, k = m < n ? m : n, dim = m > n ? m : n, i, j;
    void *a = new_matrices(p, NB, m, m * n, m, n, 1, 0.0, 0.0), *u = xmalloc(NB * m * k * es),
         *v = xmalloc(NB * n * k * es), *sv = xmalloc(NB * k * rs), *ref = xmalloc(k * rs), *sb = xmalloc(k * rs + 1),
         *res = xmalloc(NB * rs), *copy = xmalloc((m * n + SLACK) * es), *a0 = xdup(a, NB * m * n * es);
    int32_t info[NB], sweeps[NB];
    numgpu_jacobi_params zero;
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    char what[96];
    memset(&zero, 0, sizeof zero);
    snprintf(what, sizeof what, "numgpu_%sgesvdj_batched %lux%lu", p->letter, (unsigned long)m, (unsigned long)n);
    s = g->gesvdj(w->h, NUMGPU_JACOBI_VEC, NUMGPU_JACOBI_VEC, m, n, put(&st, a, NB * m * n * es), m, m * n,
                  put(&st, sv, NB * k * rs), k, put(&st, u, NB * m * k * es), m, m * k, put(&st, v, NB * n * k * es), n,
                  n * k, &zero, put(&st, info, sizeof info), put(&st, sweeps, sizeof sweeps), put(&st, res, NB * rs), NB);
    fail = back(&st);
    if (call_ok(s, fail, w->name, what)) {
        check(memcmp(a, a0, NB * m * n * es) == 0, "%s: %s wrote A", w->name, what);
        for (i = 0; i < NB; i++) {
            double worst = 0, nrm = fro_diff(p, eptr(p, a, i * m * n), m, NULL, 0, m, n);
            memcpy(copy, eptr(p, a, i * m * n), m * n * es);
            check(g->svd_ref((int)m, (int)n, copy, ref, sb) == 0, "LAPACKE_?gesvd failed");
            for (j = 0; j < k; j++)
                worst = fmax(worst, fabs(rget(p, (char *)sv + i * k * rs, j) - rget(p, ref, j)));
            check(info[i] == 0, "%s: %s matrix %lu: info %d", w->name, what, (unsigned long)i, (int)info[i]);
            check(worst <= TOL * dim * p->eps * nrm, "%s: %s matrix %lu: |s - LAPACKE| = %.3e", w->name, what,
                  (unsigned long)i, worst);
            check(orth_ratio(p, eptr(p, u, i * m * k), m, k, dim) < TOL && orth_ratio(p, eptr(p, v, i * n * k), n, k, dim) < TOL,
                  "%s: %s matrix %lu: U or V not orthonormal", w->name, what, (unsigned long)i);
            check(decomposition_ratio(p, eptr(p, a, i * m * n), m, n, eptr(p, u, i * m * k), (char *)sv + i * k * rs,
                                      eptr(p, v, i * n * k), k, dim) < TOL,
                  "%s: %s matrix %lu: ||A - U diag(s) V^H|| too large", w->name, what, (unsigned long)i);
        }
    }
    free(a);
    free(u);
    free(v);
    free(sv);
    free(ref);
    free(sb);
    free(res);
    free(copy);
    free(a0);
}

/* One sweep allowed: info 1 (not converged) on a random matrix, sweeps 1. */
static void run_limit(const where_t *w)
{
    double a[16], wv[4], res[1];
    int32_t info[1] = {-7}, sweeps[1] = {-7};
    numgpu_jacobi_params one;
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    size_t i;
    memset(&one, 0, sizeof one);
    one.max_sweeps = 1;
    for (i = 0; i < 16; i++)
        a[i] = 1.0 / (double)(1 + i % 4 + i / 4); /* Hilbert 4 x 4 */
    s = numgpu_dsyevj_batched(w->h, NUMGPU_JACOBI_NOVEC, NUMGPU_UPLO_LOWER, 4, put(&st, a, sizeof a), 4, 16,
                              put(&st, wv, sizeof wv), 4, &one, put(&st, info, sizeof info), put(&st, sweeps, sizeof sweeps),
                              put(&st, res, sizeof res), 1);
    fail = back(&st);
    if (call_ok(s, fail, w->name, "numgpu_dsyevj_batched max_sweeps 1"))
        check(info[0] == 1 && sweeps[0] == 1 && res[0] > DBL_EPSILON, "%s: max_sweeps 1: info %d sweeps %d residual %g",
              w->name, (int)info[0], (int)sweeps[0], res[0]);
}

static void drop_ins(const where_t *w)
{
    int pi;
    for (pi = 0; pi < 4; pi++) {
        run_syevj(w, &JACS[pi], NUMGPU_UPLO_LOWER);
        run_syevj(w, &JACS[pi], NUMGPU_UPLO_UPPER);
        run_gesvdj(w, &JACS[pi], 29, 17);
        run_gesvdj(w, &JACS[pi], 17, 29);
        run_gesvdj(w, &JACS[pi], 40, 40);
    }
    run_limit(w);
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    double a[8] = {2, 1, 1, 2, 2, 1, 1, 2}, wv[4], s[4], u[8], v[8], res[2] = {-7, -7};
    int32_t info[2] = {-7, -7}, sweeps[2] = {-7, -7};
    numgpu_jacobi_params bad;
    const char *f = "numgpu_dsyevj_batched", *g = "numgpu_dgesvdj_batched";
    memset(&bad, 0, sizeof bad);
    bad.tol = -1;
#define UNTOUCHED (info[0] == -7 && info[1] == -7 && sweeps[0] == -7 && res[0] == -7)
    expect_invalid(numgpu_dsyevj_batched(h, 2, 0, 2, a, 2, 4, wv, 2, NULL, info, sweeps, res, 2), f, 2, "jobz",
                   UNTOUCHED, hname, "jobz 2");
    expect_invalid(numgpu_dsyevj_batched(h, 1, 5, 2, a, 2, 4, wv, 2, NULL, info, sweeps, res, 2), f, 3, "uplo",
                   UNTOUCHED, hname, "uplo 5");
    expect_invalid(numgpu_dsyevj_batched(h, 1, 0, 2, a, 1, 4, wv, 2, NULL, info, sweeps, res, 2), f, 6, "lda",
                   UNTOUCHED, hname, "lda < n");
    expect_invalid(numgpu_dsyevj_batched(h, 1, 0, 2, a, 2, 4, wv, 2, &bad, info, sweeps, res, 2), f, 10, "tol",
                   UNTOUCHED, hname, "tol < 0");
    expect_invalid(numgpu_dsyevj_batched(h, 1, 0, 2, a, 2, 4, wv, 2, NULL, info, NULL, res, 2), f, 12, "sweeps",
                   UNTOUCHED, hname, "NULL sweeps");
    expect_invalid(numgpu_dgesvdj_batched(h, 1, 1, 2, 2, a, 2, 4, s, 2, NULL, 2, 4, v, 2, 4, NULL, info, sweeps, res, 2),
                   g, 11, "U", UNTOUCHED, hname, "NULL U");
    expect_invalid(numgpu_dgesvdj_batched(h, 1, 1, 2, 2, a, 2, 4, s, 2, u, 2, 4, v, 2, 3, NULL, info, sweeps, res, 2),
                   g, 16, "strideV", UNTOUCHED, hname, "strideV < ldv k");
#undef UNTOUCHED
}

int main(void)
{
    return run_program("test_jacobi", argument_checks, drop_ins);
}
