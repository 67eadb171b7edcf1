/* numgpu_{s,d}stebz_batched and numgpu_{s,d}stecount_batched as a drop-in for LAPACKE_?stebz:
 * a batch of random tridiagonal matrices (one of them split, with a zero off-diagonal) in every
 * range kind against LAPACKE_?stebz per matrix: on the CPU backend w, m and info bit for bit;
 * on CUDA m exactly and w within 30·ulp·max|T| (bisection's tolerance plus its backward
 * error). The counts agree with LAPACKE's eigenvalues (shifts halfway between them), and the
 * argument checks name their argument and write nothing. Host arrays and numgpu_malloc memory.
 */
#include "numgpu_test.h"
#include <lapacke.h>

enum { NB = 5, N = 37 };

typedef struct {
    const prec_t *p;
    numgpu_status (*stebz)(numgpu_handle *h, int32_t range, int64_t n, double vl, double vu, int64_t il, int64_t iu,
                           const void *d, int64_t sd, const void *e, int64_t se, int64_t *m, void *w, int64_t sw,
                           int32_t *info, int64_t batch);
    numgpu_status (*stecount)(numgpu_handle *h, int64_t n, const void *d, int64_t sd, const void *e, int64_t se,
                              int64_t nmu, const void *mu, int64_t *count, int64_t batch);
    int (*ref)(char range, int n, double vl, double vu, int il, int iu, const void *d, const void *e, int *m, void *w);
} eig_t;

/* The precision's entry points with double range ends (abstol 0: LAPACK's default), and
 * LAPACKE_?stebz with ORDER = 'E'. */
#define EIG_FNS(P, T)                                                                                               \
    static numgpu_status P##_stebz(numgpu_handle *h, int32_t range, int64_t n, double vl, double vu, int64_t il,    \
                                   int64_t iu, const void *d, int64_t sd, const void *e, int64_t se, int64_t *m,    \
                                   void *w, int64_t sw, int32_t *info, int64_t batch)                               \
    {                                                                                                               \
        return numgpu_##P##stebz_batched(h, range, n, (T)vl, (T)vu, il, iu, (T)0, (const T *)d, sd, (const T *)e, \
                                         se, m, (T *)w, sw, info, batch);                                           \
    }                                                                                                               \
    static numgpu_status P##_stecount(numgpu_handle *h, int64_t n, const void *d, int64_t sd, const void *e,        \
                                      int64_t se, int64_t nmu, const void *mu, int64_t *count, int64_t batch)       \
    {                                                                                                               \
        return numgpu_##P##stecount_batched(h, n, nmu, (const T *)d, sd, (const T *)e, se, (const T *)mu, count,    \
                                            batch);                                                                 \
    }                                                                                                               \
    static int P##_ref(char range, int n, double vl, double vu, int il, int iu, const void *d, const void *e,       \
                       int *m, void *w)                                                                             \
    {                                                                                                               \
        lapack_int mm = 0, nsplit = 0, iblock[N], isplit[N];                                                        \
        int info = (int)LAPACKE_##P##stebz(range, 'E', n, (T)vl, (T)vu, il, iu, (T)0, (const T *)d, (const T *)e,  \
                                           &mm, &nsplit, (T *)w, iblock, isplit);                                   \
        *m = (int)mm;                                                                                               \
        return info;                                                                                                \
    }
EIG_FNS(s, float)
EIG_FNS(d, double)

static const eig_t EIGS[2] = {{&PRECS[0], s_stebz, s_stecount, s_ref}, {&PRECS[1], d_stebz, d_stecount, d_ref}};

/* NB random matrices, d N apart and e N apart (N − 1 used); matrix 1 split at row N/2. */
static void make(const prec_t *p, void *d, void *e)
{
    size_t i, k;
    for (i = 0; i < NB; i++)
        for (k = 0; k < N; k++) {
            rset(p, d, i * N + k, creal(rnd_elem()));
            rset(p, e, i * N + k, k + 1 < N && !(i == 1 && k == N / 2) ? creal(rnd_elem()) : 0.0);
        }
}

static double max_abs(const prec_t *p, const void *d, const void *e, size_t i)
{
    double s = 0;
    size_t k;
    for (k = 0; k < N; k++)
        s = fmax(s, fabs(rget(p, d, i * N + k)) + 2 * fabs(rget(p, e, i * N + k)));
    return s;
}

static void run_range(const where_t *w, const eig_t *g, char code, int32_t range, double vl, double vu, int il, int iu)
{
    const prec_t *p = g->p;
    size_t es = p->size, i, k;
    void *d = xmalloc(NB * N * es), *e = xmalloc(NB * N * es), *wv = xmalloc(NB * N * es), *ref = xmalloc(N * es);
    int64_t m[NB];
    int32_t info[NB];
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    char what[96];
    make(p, d, e);
    memset(wv, 0xff, NB * N * es);
    snprintf(what, sizeof what, "numgpu_%sstebz_batched range %c", p->letter, code);
    s = g->stebz(w->h, range, N, vl, vu, il, iu, put(&st, d, NB * N * es), N, put(&st, e, NB * N * es), N,
                 put(&st, m, sizeof m), put(&st, wv, NB * N * es), N, put(&st, info, sizeof info), NB);
    fail = back(&st);
    if (call_ok(s, fail, w->name, what))
        for (i = 0; i < NB; i++) {
            int rm = 0, rinfo = g->ref(code, N, vl, vu, il, iu, eptr(p, d, i * N), eptr(p, e, i * N), &rm, ref);
            double worst = 0, tol = 30 * p->eps * max_abs(p, d, e, i);
            for (k = 0; k < (size_t)rm && (int64_t)rm == m[i]; k++)
                worst = fmax(worst, fabs(rget(p, wv, i * N + k) - rget(p, ref, k)));
            check(info[i] == rinfo && m[i] == rm, "%s: %s matrix %lu: m %ld info %d, LAPACKE's %d and %d", w->name,
                  what, (unsigned long)i, (long)m[i], (int)info[i], rm, rinfo);
            if (w->cpu)
                check(memcmp(eptr(p, wv, i * N), ref, rm * es) == 0, "%s: %s matrix %lu: w differs from LAPACKE_%sstebz's",
                      w->name, what, (unsigned long)i, p->letter);
            else
                check(worst <= tol, "%s: %s matrix %lu: |w - LAPACKE| = %.3e > %.3e", w->name, what, (unsigned long)i,
                      worst, tol);
        }
    free(d);
    free(e);
    free(wv);
    free(ref);
}

/* Count at the midpoints of LAPACKE's eigenvalues of matrix 0: k at the k-th midpoint. */
static void run_counts(const where_t *w, const eig_t *g)
{
    const prec_t *p = g->p;
    size_t es = p->size, k;
    void *d = xmalloc(NB * N * es), *e = xmalloc(NB * N * es), *ref = xmalloc(N * es), *mu = xmalloc(N * es);
    int64_t count[NB * (N - 1)];
    int rm = 0;
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    make(p, d, e);
    g->ref('A', N, 0, 0, 1, N, d, e, &rm, ref);
    for (k = 0; k + 1 < N; k++)
        rset(p, mu, k, 0.5 * (rget(p, ref, k) + rget(p, ref, k + 1)));
    s = g->stecount(w->h, N, put(&st, d, NB * N * es), N, put(&st, e, NB * N * es), N, N - 1, put(&st, mu, N * es),
                    put(&st, count, sizeof count), NB);
    fail = back(&st);
    if (call_ok(s, fail, w->name, "stecount"))
        for (k = 0; k + 1 < N; k++)
            check(count[k] == (int64_t)k + 1, "%s: numgpu_%sstecount_batched: count at midpoint %lu is %ld", w->name,
                  p->letter, (unsigned long)k, (long)count[k]);
    free(d);
    free(e);
    free(ref);
    free(mu);
}

static void drop_ins(const where_t *w)
{
    int pi;
    for (pi = 0; pi < 2; pi++) {
        run_range(w, &EIGS[pi], 'A', NUMGPU_STEBZ_ALL, 0, 0, 1, N);
        run_range(w, &EIGS[pi], 'V', NUMGPU_STEBZ_VALUE, -0.3, 0.4, 1, N);
        run_range(w, &EIGS[pi], 'I', NUMGPU_STEBZ_INDEX, 0, 0, 3, N - 5);
        run_counts(w, &EIGS[pi]);
    }
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    double d[4] = {1, 2, 3, 4}, e[4] = {1, 1, 1, 0}, w[8], mu[2] = {0, 1};
    int64_t m[2] = {-7, -7}, count[4] = {-7, -7, -7, -7};
    int32_t info[2] = {-7, -7};
    const char *f = "numgpu_dstebz_batched", *c = "numgpu_dstecount_batched";
#define UNTOUCHED (m[0] == -7 && m[1] == -7 && info[0] == -7 && info[1] == -7)
    expect_invalid(numgpu_dstebz_batched(h, 7, 4, 0, 0, 1, 1, 0, d, 4, e, 4, m, w, 4, info, 1), f, 2, "range", UNTOUCHED,
                   hname, "range 7");
    expect_invalid(numgpu_dstebz_batched(h, NUMGPU_STEBZ_VALUE, 4, 1, 1, 1, 1, 0, d, 4, e, 4, m, w, 4, info, 1), f, 5,
                   "vu", UNTOUCHED, hname, "vl = vu");
    expect_invalid(numgpu_dstebz_batched(h, NUMGPU_STEBZ_INDEX, 4, 0, 0, 2, 5, 0, d, 4, e, 4, m, w, 4, info, 1), f, 7,
                   "iu", UNTOUCHED, hname, "iu > n");
    expect_invalid(numgpu_dstebz_batched(h, NUMGPU_STEBZ_ALL, 4, 0, 0, 1, 1, 0, NULL, 4, e, 4, m, w, 4, info, 1), f, 9,
                   "d", UNTOUCHED, hname, "NULL d");
    expect_invalid(numgpu_dstebz_batched(h, NUMGPU_STEBZ_ALL, 4, 0, 0, 1, 1, 0, d, 4, e, 4, m, w, 3, info, 2), f, 15,
                   "strideW", UNTOUCHED, hname, "strideW < n");
    expect_invalid(numgpu_dstebz_batched(h, NUMGPU_STEBZ_ALL, 4, 0, 0, 1, 1, 0, d, 4, e, 4, m, w, 4, NULL, 1), f, 16,
                   "info", UNTOUCHED, hname, "NULL info");
    expect_invalid(numgpu_dstecount_batched(h, 4, -1, d, 4, e, 4, mu, count, 1), c, 3, "nmu", count[0] == -7, hname,
                   "nmu < 0");
    expect_invalid(numgpu_dstecount_batched(h, 4, 2, d, 4, e, 4, mu, NULL, 1), c, 9, "count", count[0] == -7, hname,
                   "NULL count");
#undef UNTOUCHED
}

int main(void)
{
    return run_program("test_stebz", argument_checks, drop_ins);
}
