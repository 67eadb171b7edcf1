/* test_gtsv: numgpu's tridiagonal solvers as a C user replacing LAPACKE ?gtsv calls sees them
 * (with the difference that numgpu leaves the diagonals unchanged), for s, d, c, z, in their
 * three forms: numgpu_?gtsv_spike (one system), numgpu_?gtsv_batched_strided and
 * numgpu_?gtsv_batched_interleaved.
 *
 *  - the argument checks of each form (NULL handle, negative sizes, NULL arrays, ldb < n,
 *    strides, pivoting out of range): NUMGPU_INVALID_VALUE, the argument's position in
 *    numgpu_last_error_arg() and the message, nothing written; n = 0, nrhs = 0 and batch = 0
 *    succeed and touch nothing; n = 1 with NULL dl and du solves;
 *  - the drop-in comparison with LAPACKE ?gtsv on copies, (n, nrhs) in {(1, 1), (2, 3),
 *    (33, 2)}, three systems (diagonally dominant, then uniform random or singular (a zero
 *    column) with diagonal pivoting, or dominant without pivoting, then dominant):
 *      spike: the middle system, B with two padding rows (NaN);
 *      strided: the three, the diagonals n + 1 apart, the B_i ldb nrhs + 1 apart, gaps NaN;
 *      interleaved: the three (first right-hand side), element k of system i at k 3 + i, dl's
 *        row 0 and du's row n - 1 NaN (not referenced);
 *    per system: info equal to LAPACK's on a CPU handle (which is LAPACK ?gtsv), elsewhere
 *    > 0 exactly where LAPACK's is; where info > 0, B bitwise unchanged; else X bitwise
 *    LAPACK's on a CPU handle, and everywhere ||B - T X||_F / (n eps ||T||_F ||X||_F) < 30;
 *    the diagonals, their gaps and B's padding bitwise unchanged;
 * on the AUTO handle (CUDA on a GPU host) with host arrays and with numgpu_malloc memory (device
 * pointers there) and on a CPU handle.
 *
 * Prints "test_gtsv: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include "numgpu_test.h"
#include <lapacke.h>

/* ---- precision-neutral views of the family ----------------------------------------- */

typedef struct {
    const prec_t *p;
    numgpu_status (*spike)(numgpu_handle *h, int32_t piv, int64_t n, int64_t nrhs, const void *dl, const void *d,
                           const void *du, void *B, int64_t ldb, int32_t *info);
    numgpu_status (*strided)(numgpu_handle *h, int32_t piv, int64_t n, int64_t nrhs, const void *dl, const void *d,
                             const void *du, int64_t sdiag, void *B, int64_t ldb, int64_t sB, int32_t *info,
                             int64_t batch);
    numgpu_status (*inter)(numgpu_handle *h, int32_t piv, int64_t n, const void *dl, const void *d, const void *du,
                           void *B, int32_t *info, int64_t batch);
    int (*ref)(int n, int nrhs, void *dl, void *d, void *du, void *b, int ldb); /* LAPACKE_?gtsv */
} gt_t;

#define GT_PRECISION(P, T, LT)                                                                                    \
    static numgpu_status P##_spike(numgpu_handle *h, int32_t piv, int64_t n, int64_t nrhs, const void *dl,       \
                                   const void *d, const void *du, void *B, int64_t ldb, int32_t *info)           \
    {                                                                                                             \
        return numgpu_##P##gtsv_spike(h, piv, n, nrhs, (const T *)dl, (const T *)d, (const T *)du, (T *)B, ldb,  \
                                      info);                                                                      \
    }                                                                                                             \
    static numgpu_status P##_strided(numgpu_handle *h, int32_t piv, int64_t n, int64_t nrhs, const void *dl,     \
                                     const void *d, const void *du, int64_t sdiag, void *B, int64_t ldb,         \
                                     int64_t sB, int32_t *info, int64_t batch)                                   \
    {                                                                                                             \
        return numgpu_##P##gtsv_batched_strided(h, piv, n, nrhs, (const T *)dl, (const T *)d, (const T *)du,     \
                                                sdiag, (T *)B, ldb, sB, info, batch);                             \
    }                                                                                                             \
    static numgpu_status P##_inter(numgpu_handle *h, int32_t piv, int64_t n, const void *dl, const void *d,      \
                                   const void *du, void *B, int32_t *info, int64_t batch)                        \
    {                                                                                                             \
        return numgpu_##P##gtsv_batched_interleaved(h, piv, n, (const T *)dl, (const T *)d, (const T *)du,       \
                                                    (T *)B, info, batch);                                         \
    }                                                                                                             \
    static int P##_ref(int n, int nrhs, void *dl, void *d, void *du, void *b, int ldb)                           \
    {                                                                                                             \
        return (int)LAPACKE_##P##gtsv(LAPACK_COL_MAJOR, n, nrhs, (LT *)dl, (LT *)d, (LT *)du, (LT *)b, ldb);      \
    }

GT_PRECISION(s, float, float)
GT_PRECISION(d, double, double)
GT_PRECISION(c, numgpu_complex_float, lapack_complex_float)
GT_PRECISION(z, numgpu_complex_double, lapack_complex_double)

static const gt_t GTS[4] = {
    {&PRECS[0], s_spike, s_strided, s_inter, s_ref},
    {&PRECS[1], d_spike, d_strided, d_inter, d_ref},
    {&PRECS[2], c_spike, c_strided, c_inter, c_ref},
    {&PRECS[3], z_spike, z_strided, z_inter, z_ref},
};

/* ---- argument checks ------------------------------------------------------------------ */

static void error_checks(numgpu_handle *h, const char *hname, const gt_t *g)
{
    enum { N = 4, NRHS = 2, LDB = 4, SD = 4, SB = 8, NSYS = 2 };
    const prec_t *p = g->p;
    const size_t es = p->size;
    void *dl = new_buffer(p, NSYS * SD, 0, 1.0), *d = new_buffer(p, NSYS * SD, 0, 4.0);
    void *du = new_buffer(p, NSYS * SD, 0, 1.0), *B = new_buffer(p, NSYS * SB, 0, 2.0 + 1.0 * I);
    void *B0 = xdup(B, NSYS * SB * es);
    int32_t info[NSYS] = {-7, -7}, info0[NSYS] = {-7, -7};
    const int32_t DP = NUMGPU_GTSV_DIAG_PIVOT;
    char fn[96];
    numgpu_status s;

#define SAME (memcmp(B, B0, NSYS * SB * es) == 0 && memcmp(info, info0, sizeof info) == 0)

    snprintf(fn, sizeof fn, "numgpu_%sgtsv_spike", p->letter);
    s = g->spike(NULL, DP, N, NRHS, dl, d, du, B, LDB, info);
    expect_invalid(s, fn, 1, "(h)", SAME, hname, "NULL handle");
    s = g->spike(h, DP, -1, NRHS, dl, d, du, B, LDB, info);
    expect_invalid(s, fn, 3, "(n = -1) must be >= 0", SAME, hname, "n < 0");
    s = g->spike(h, DP, N, -2, dl, d, du, B, LDB, info);
    expect_invalid(s, fn, 4, "(nrhs = -2) must be >= 0", SAME, hname, "nrhs < 0");
    s = g->spike(h, DP, N, NRHS, NULL, d, du, B, LDB, info);
    expect_invalid(s, fn, 5, "(dl) must not be NULL", SAME, hname, "NULL dl");
    s = g->spike(h, DP, N, NRHS, dl, NULL, du, B, LDB, info);
    expect_invalid(s, fn, 6, "(d) must not be NULL", SAME, hname, "NULL d");
    s = g->spike(h, DP, N, NRHS, dl, d, NULL, B, LDB, info);
    expect_invalid(s, fn, 7, "(du) must not be NULL", SAME, hname, "NULL du");
    s = g->spike(h, DP, N, NRHS, dl, d, du, NULL, LDB, info);
    expect_invalid(s, fn, 8, "(B) must not be NULL", SAME, hname, "NULL B");
    s = g->spike(h, DP, N, NRHS, dl, d, du, B, N - 1, info);
    expect_invalid(s, fn, 9, "(ldb = 3) must be >= max(1, n) = 4", SAME, hname, "ldb < n");
    s = g->spike(h, DP, N, NRHS, dl, d, du, B, LDB, NULL);
    expect_invalid(s, fn, 10, "(info) must not be NULL", SAME, hname, "NULL info");
    s = g->spike(h, 2, N, NRHS, dl, d, du, B, LDB, info);
    expect_invalid(s, fn, 2, "(pivoting = 2)", SAME, hname, "pivoting = 2");
    s = g->spike(h, DP, 0, NRHS, NULL, NULL, NULL, NULL, 1, NULL);
    expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "n = 0");
    s = g->spike(h, DP, N, 0, dl, d, du, B, LDB, info);
    expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "nrhs = 0");

    snprintf(fn, sizeof fn, "numgpu_%sgtsv_batched_strided", p->letter);
    s = g->strided(h, DP, -1, NRHS, dl, d, du, SD, B, LDB, SB, info, NSYS);
    expect_invalid(s, fn, 3, "(n = -1)", SAME, hname, "n < 0");
    s = g->strided(h, DP, N, NRHS, NULL, d, du, SD, B, LDB, SB, info, NSYS);
    expect_invalid(s, fn, 5, "(dl) must not be NULL", SAME, hname, "NULL dl");
    s = g->strided(h, DP, N, NRHS, dl, d, du, N - 1, B, LDB, SB, info, NSYS);
    expect_invalid(s, fn, 8, "(stride_diag = 3) must be 0 or >= n = 4", SAME, hname, "stride_diag < n");
    s = g->strided(h, DP, N, NRHS, dl, d, du, SD, NULL, LDB, SB, info, NSYS);
    expect_invalid(s, fn, 9, "(B) must not be NULL", SAME, hname, "NULL B");
    s = g->strided(h, DP, N, NRHS, dl, d, du, SD, B, N - 1, SB, info, NSYS);
    expect_invalid(s, fn, 10, "(ldb = 3)", SAME, hname, "ldb < n");
    s = g->strided(h, DP, N, NRHS, dl, d, du, SD, B, LDB, SB - 1, info, NSYS);
    expect_invalid(s, fn, 11, "(strideB = 7)", SAME, hname, "strideB < ldb * nrhs");
    s = g->strided(h, DP, N, NRHS, dl, d, du, SD, B, LDB, SB, NULL, NSYS);
    expect_invalid(s, fn, 12, "(info) must not be NULL", SAME, hname, "NULL info");
    s = g->strided(h, DP, N, NRHS, dl, d, du, SD, B, LDB, SB, info, -1);
    expect_invalid(s, fn, 13, "(batch = -1) must be >= 0", SAME, hname, "batch < 0");
    s = g->strided(h, -1, N, NRHS, dl, d, du, SD, B, LDB, SB, info, NSYS);
    expect_invalid(s, fn, 2, "(pivoting = -1)", SAME, hname, "pivoting = -1");
    s = g->strided(h, DP, N, NRHS, dl, d, du, SD, B, LDB, SB, info, 0);
    expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "batch = 0");

    snprintf(fn, sizeof fn, "numgpu_%sgtsv_batched_interleaved", p->letter);
    s = g->inter(h, DP, -3, dl, d, du, B, info, NSYS);
    expect_invalid(s, fn, 3, "(n = -3)", SAME, hname, "n < 0");
    s = g->inter(h, DP, N, dl, d, NULL, B, info, NSYS);
    expect_invalid(s, fn, 6, "(du) must not be NULL", SAME, hname, "NULL du");
    s = g->inter(h, DP, N, dl, d, du, NULL, info, NSYS);
    expect_invalid(s, fn, 7, "(B) must not be NULL", SAME, hname, "NULL B");
    s = g->inter(h, DP, N, dl, d, du, B, NULL, NSYS);
    expect_invalid(s, fn, 8, "(info) must not be NULL", SAME, hname, "NULL info");
    s = g->inter(h, DP, N, dl, d, du, B, info, -2);
    expect_invalid(s, fn, 9, "(batch = -2)", SAME, hname, "batch < 0");
    s = g->inter(h, 9, N, dl, d, du, B, info, NSYS);
    expect_invalid(s, fn, 2, "(pivoting = 9)", SAME, hname, "pivoting = 9");
    s = g->inter(h, DP, 0, NULL, NULL, NULL, NULL, NULL, NSYS);
    expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "n = 0");
#undef SAME

    /* n = 1: dl and du are not referenced, NULL is fine; x = b / d. */
    s = g->spike(h, DP, 1, 1, NULL, d, NULL, B, 1, info);
    check(s == NUMGPU_SUCCESS && info[0] == 0 && cget(p, B, 0) == (2.0 + (p->cplx ? 1.0 : 0.0) * I) / 4.0,
          "%s handle: numgpu_%sgtsv_spike n = 1 with NULL dl, du: status %d (%s), info %d", hname, p->letter, (int)s,
          last_error(), (int)info[0]);

    free(dl);
    free(d);
    free(du);
    free(B);
    free(B0);
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    int pi;
    for (pi = 0; pi < 4; pi++)
        error_checks(h, hname, &GTS[pi]);
}

/* ---- the drop-in comparison with LAPACKE ?gtsv ---------------------------------------- */

enum { NB = 3 };
enum gclass { G_DOMINANT, G_UNIFORM, G_SINGULAR };
static const char *const CLASS_NAME[] = {"dominant", "uniform", "singular"};

/* One system in precision p: the diagonals (n entries each; dl[n - 1] and du[n - 1] unused),
 * B (n x nrhs, compact) and T as a dense n x n matrix. */
typedef struct {
    size_t n, nrhs;
    void *dl, *d, *du, *b, *T;
} sys_t;

static sys_t make_system(const prec_t *p, enum gclass cls, size_t n, size_t nrhs)
{
    sys_t s;
    size_t k, j = n / 2;
    s.n = n, s.nrhs = nrhs;
    s.dl = new_buffer(p, n, 1, 0), s.d = new_buffer(p, n, 1, 0), s.du = new_buffer(p, n, 1, 0);
    s.b = new_buffer(p, n * nrhs, 1, 0);
    if (cls != G_UNIFORM) /* |d(k)| > |dl| + |du| */
        for (k = 0; k < n; k++)
            cset(p, s.d, k, cget(p, s.d, k) + (creal(cget(p, s.d, k)) >= 0.0 ? 5.0 : -5.0));
    if (cls == G_SINGULAR) { /* column n/2 zero */
        cset(p, s.d, j, 0.0);
        if (j > 0)
            cset(p, s.du, j - 1, 0.0);
        cset(p, s.dl, j, 0.0);
    }
    s.T = new_buffer(p, n * n, 0, 0.0);
    for (k = 0; k < n; k++) {
        cset(p, s.T, k + k * n, cget(p, s.d, k));
        if (k + 1 < n) {
            cset(p, s.T, k + 1 + k * n, cget(p, s.dl, k));
            cset(p, s.T, k + (k + 1) * n, cget(p, s.du, k));
        }
    }
    return s;
}

static void free_system(sys_t *s)
{
    free(s->dl);
    free(s->d);
    free(s->du);
    free(s->b);
    free(s->T);
}

/* Checks one system's outcome against LAPACKE ?gtsv on copies: element (k, c) of its B after
 * the call at out[off + k step + c ld], info its info. */
static void check_system(const where_t *w, const char *what, const gt_t *g, const sys_t *s, const void *out,
                         size_t off, size_t step, size_t ld, int32_t info)
{
    const prec_t *p = g->p;
    const size_t n = s->n, nrhs = s->nrhs, es = p->size;
    void *rdl = xdup(s->dl, n * es), *rd = xdup(s->d, n * es), *rdu = xdup(s->du, n * es);
    void *rb = xdup(s->b, n * nrhs * es), *x = xmalloc(n * nrhs * es);
    int ref_info;
    size_t k, c;
    for (c = 0; c < nrhs; c++)
        for (k = 0; k < n; k++)
            memcpy(eptr(p, x, k + c * n), eptr(p, out, off + k * step + c * ld), es);
    ref_info = g->ref((int)n, (int)nrhs, rdl, rd, rdu, rb, (int)n);
    if (w->cpu)
        check(info == ref_info, "%s: %s: info %d, LAPACKE_%sgtsv's %d", w->name, what, (int)info, p->letter, ref_info);
    else
        check((info > 0) == (ref_info > 0), "%s: %s: info %d, LAPACKE_%sgtsv's %d", w->name, what, (int)info,
              p->letter, ref_info);
    if (ref_info > 0) {
        check(info >= 1 && (size_t)info <= n && memcmp(x, s->b, n * nrhs * es) == 0,
              "%s: %s: singular (LAPACK info %d): info %d, or B written", w->name, what, ref_info, (int)info);
    } else {
        double q = residual(p, NUMGPU_OP_N, s->T, n, x, n, s->b, n, n, nrhs, n);
        if (w->cpu)
            check(memcmp(x, rb, n * nrhs * es) == 0, "%s: %s: X differs from LAPACKE_%sgtsv's bitwise", w->name,
                  what, p->letter);
        check(q < TOL, "%s: %s: ||B - T X||_F / (n eps ||T||_F ||X||_F) = %.3g", w->name, what, q);
    }
    free(rdl);
    free(rd);
    free(rdu);
    free(rb);
    free(x);
}

/* numgpu_?gtsv_spike on sys[1], B with two padding rows. */
static void run_spike(const where_t *w, const gt_t *g, const sys_t *sys, int32_t piv, const char *what)
{
    const prec_t *p = g->p;
    const sys_t *y = &sys[1];
    const size_t n = y->n, nrhs = y->nrhs, m = n - 1, ldb = n + 2, es = p->size;
    void *dl = xdup(y->dl, n * es), *d = xdup(y->d, n * es), *du = xdup(y->du, n * es);
    void *B = new_matrices(p, 1, ldb, ldb * nrhs, n, nrhs, 0, 0, CNAN), *B0;
    stage_t st = stage_for(w);
    int32_t info = -7;
    numgpu_status s;
    size_t e;
    for (e = 0; e < n * nrhs; e++)
        memcpy(eptr(p, B, e % n + e / n * ldb), eptr(p, y->b, e), es);
    B0 = xdup(B, ldb * nrhs * es);
    /* n = 1: dl and du have no entries; NULL (not a host pointer among device ones). */
    s = g->spike(w->h, piv, (int64_t)n, (int64_t)nrhs, m ? put(&st, dl, m * es) : NULL,
                 put(&st, d, n * es), m ? put(&st, du, m * es) : NULL, put(&st, B, ldb * nrhs * es),
                 (int64_t)ldb, put(&st, &info, sizeof info));
    if (call_ok(s, back(&st), w->name, what)) {
        check(outside_same(B, B0, es, ldb * nrhs, ldb, ldb * nrhs, n, nrhs) && memcmp(dl, y->dl, n * es) == 0 &&
                  memcmp(d, y->d, n * es) == 0 && memcmp(du, y->du, n * es) == 0,
              "%s: %s: the diagonals or the padding of B were written", w->name, what);
        check_system(w, what, g, y, B, 0, 1, ldb, info);
    }
    free(dl);
    free(d);
    free(du);
    free(B);
    free(B0);
}

/* numgpu_?gtsv_batched_strided on the NB systems: diagonals n + 1 apart, B_i ldb nrhs + 1
 * apart, gaps NaN. */
static void run_strided(const where_t *w, const gt_t *g, const sys_t *sys, int32_t piv, const char *what)
{
    const prec_t *p = g->p;
    const size_t n = sys[0].n, nrhs = sys[0].nrhs, m = n - 1, sd = n + 1, ldb = n + 1, sb = ldb * nrhs + 1;
    const size_t es = p->size;
    void *dl = new_buffer(p, NB * sd, 0, CNAN), *d = new_buffer(p, NB * sd, 0, CNAN);
    void *du = new_buffer(p, NB * sd, 0, CNAN), *B = new_buffer(p, NB * sb, 0, CNAN), *dl0, *d0, *du0, *B0;
    int32_t info[NB] = {-7, -7, -7};
    stage_t st = stage_for(w);
    numgpu_status s;
    size_t i, e;
    for (i = 0; i < NB; i++) {
        memcpy(eptr(p, dl, i * sd), sys[i].dl, m * es);
        memcpy(eptr(p, d, i * sd), sys[i].d, n * es);
        memcpy(eptr(p, du, i * sd), sys[i].du, m * es);
        for (e = 0; e < n * nrhs; e++)
            memcpy(eptr(p, B, i * sb + e % n + e / n * ldb), eptr(p, sys[i].b, e), es);
    }
    dl0 = xdup(dl, NB * sd * es), d0 = xdup(d, NB * sd * es), du0 = xdup(du, NB * sd * es);
    B0 = xdup(B, NB * sb * es);
    s = g->strided(w->h, piv, (int64_t)n, (int64_t)nrhs, put(&st, dl, NB * sd * es),
                   put(&st, d, NB * sd * es), put(&st, du, NB * sd * es), (int64_t)sd, put(&st, B, NB * sb * es), (int64_t)ldb,
                   (int64_t)sb, put(&st, info, sizeof info), NB);
    if (call_ok(s, back(&st), w->name, what)) {
        check(outside_same(B, B0, es, NB * sb, ldb, sb, n, nrhs) && memcmp(dl, dl0, NB * sd * es) == 0 &&
                  memcmp(d, d0, NB * sd * es) == 0 && memcmp(du, du0, NB * sd * es) == 0,
              "%s: %s: the diagonals, their gaps or the padding of B were written", w->name, what);
        for (i = 0; i < NB; i++)
            check_system(w, what, g, &sys[i], B, i * sb, 1, ldb, info[i]);
    }
    free(dl);
    free(d);
    free(du);
    free(B);
    free(dl0);
    free(d0);
    free(du0);
    free(B0);
}

/* numgpu_?gtsv_batched_interleaved on the NB systems' first right-hand sides: entry k of
 * system i at k NB + i; LAPACK's diagonals, as the other forms: dl and du hold (n - 1) NB
 * entries, d and B n NB. */
static void run_interleaved(const where_t *w, const gt_t *g, const sys_t *sys, int32_t piv, const char *what)
{
    const prec_t *p = g->p;
    const size_t n = sys[0].n, es = p->size, bytes = n * NB * es, obytes = (n - 1) * NB * es;
    void *dl = new_buffer(p, (n - 1) * NB, 0, CNAN), *d = new_buffer(p, n * NB, 0, CNAN);
    void *du = new_buffer(p, (n - 1) * NB, 0, CNAN), *B = new_buffer(p, n * NB, 0, CNAN), *dl0, *d0, *du0;
    int32_t info[NB] = {-7, -7, -7};
    stage_t st = stage_for(w);
    numgpu_status s;
    size_t i, k;
    for (i = 0; i < NB; i++)
        for (k = 0; k < n; k++) {
            memcpy(eptr(p, d, k * NB + i), eptr(p, sys[i].d, k), es);
            memcpy(eptr(p, B, k * NB + i), eptr(p, sys[i].b, k), es);
            if (k + 1 < n) {
                memcpy(eptr(p, dl, k * NB + i), eptr(p, sys[i].dl, k), es);
                memcpy(eptr(p, du, k * NB + i), eptr(p, sys[i].du, k), es);
            }
        }
    dl0 = xdup(dl, obytes), d0 = xdup(d, bytes), du0 = xdup(du, obytes);
    /* n = 1: dl and du have no entries; NULL, as for the spike form. */
    s = g->inter(w->h, piv, (int64_t)n, obytes ? put(&st, dl, obytes) : NULL, put(&st, d, bytes),
                 obytes ? put(&st, du, obytes) : NULL, put(&st, B, bytes), put(&st, info, sizeof info), NB);
    if (call_ok(s, back(&st), w->name, what)) {
        check(memcmp(dl, dl0, obytes) == 0 && memcmp(d, d0, bytes) == 0 && memcmp(du, du0, obytes) == 0,
              "%s: %s: the diagonals were written", w->name, what);
        for (i = 0; i < NB; i++) {
            sys_t first = sys[i];
            first.nrhs = 1;
            check_system(w, what, g, &first, B, i, NB, 0, info[i]);
        }
    }
    free(dl);
    free(d);
    free(du);
    free(B);
    free(dl0);
    free(d0);
    free(du0);
}

static void drop_in(const where_t *w, const gt_t *g, int32_t piv, enum gclass cls, size_t n, size_t nrhs)
{
    sys_t sys[NB];
    char what[3][160];
    const char *form[3] = {"spike", "batched_strided", "batched_interleaved"};
    size_t i;
    for (i = 0; i < NB; i++)
        sys[i] = make_system(g->p, i == 1 ? cls : G_DOMINANT, n, nrhs);
    for (i = 0; i < 3; i++)
        snprintf(what[i], sizeof what[i], "numgpu_%sgtsv_%s %s n=%lu nrhs=%lu pivoting=%d", g->p->letter, form[i],
                 CLASS_NAME[cls], (unsigned long)n, (unsigned long)(i == 2 ? 1 : nrhs), (int)piv);
    run_spike(w, g, sys, piv, what[0]);
    run_strided(w, g, sys, piv, what[1]);
    run_interleaved(w, g, sys, piv, what[2]);
    for (i = 0; i < NB; i++)
        free_system(&sys[i]);
}

static void drop_ins(const where_t *w)
{
    static const size_t SIZES[][2] = {{1, 1}, {2, 3}, {33, 2}};
    int pi;
    size_t si;
    for (pi = 0; pi < 4; pi++)
        for (si = 0; si < sizeof SIZES / sizeof SIZES[0]; si++) {
            size_t n = SIZES[si][0], nrhs = SIZES[si][1];
            drop_in(w, &GTS[pi], NUMGPU_GTSV_DIAG_PIVOT, G_UNIFORM, n, nrhs);
            drop_in(w, &GTS[pi], NUMGPU_GTSV_DIAG_PIVOT, G_SINGULAR, n, nrhs);
            drop_in(w, &GTS[pi], NUMGPU_GTSV_NOPIVOT, G_DOMINANT, n, nrhs);
        }
}

int main(void)
{
    return run_program("test_gtsv", argument_checks, drop_ins);
}
