/* test_gtsv: numgpu's tridiagonal solvers as a drop-in for LAPACKE ?gtsv calls (with the
 * difference that numgpu leaves the diagonals unchanged).
 *
 * For s, d, c, z, n in {1, 2, 3, 4, 31, 32, 33, 64, 1000}, nrhs in {1, 2, 5}, both pivoting
 * modes and these classes:
 *   dominant    |d(k)| > |dl| + |du| (uniform off-diagonals, diagonal uniform +- 5);
 *   uniform     dl, d, du uniform(-1, 1): not dominant, pivoting needed;
 *   zerodiag    uniform with every third diagonal entry exactly zero;
 *   singular    dominant with the column n/2 zero: LAPACK's info > 0;
 * (NUMGPU_GTSV_NOPIVOT gets the dominant class only, what it is for, except on a CPU handle,
 * which always pivots as LAPACK), every case solves the system three ways:
 *   numgpu_?gtsv_spike             ldb = n + 2, the padding rows NaN;
 *   numgpu_?gtsv_batched_strided   3 systems (the middle one of the class, the others
 *                                  dominant), the diagonals n + 1 apart, the B_i
 *                                  ldb * nrhs + 1 apart, the gaps NaN;
 *   numgpu_?gtsv_batched_interleaved  the same 3 systems (first right-hand side), element k
 *                                  of system i at k * 3 + i, dl's row 0 and du's row n - 1
 *                                  NaN (not referenced);
 * and checks, per system, against LAPACKE ?gtsv on copies in the same precision: info (equal
 * on a CPU handle, which is LAPACK ?gtsv; elsewhere > 0 exactly where LAPACK's is); where
 * info > 0, B bitwise unchanged; else the residual ratio ||b - T x||_1 / (||T||_1 ||x||_1 n
 * eps) < 30 and x against LAPACK's: ||x - xref||_1 / (||xref||_1 kappa_1 eps) < 30, kappa_1 =
 * ||T||_1 / rcond from LAPACKE_zgttrf + LAPACKE_zgtcon in double complex; on a CPU handle x
 * equals LAPACK's bitwise. The diagonals, their gaps and B's padding come back bitwise
 * unchanged.
 * Then the argument checks of each form (NULL handle, negative sizes, NULL arrays, ldb < n,
 * strides, pivoting out of range: NUMGPU_INVALID_VALUE, the argument's position in
 * numgpu_last_error_arg() and the message, nothing written); n = 0, nrhs = 0 and batch = 0
 * succeed and touch nothing; n = 1 with NULL dl and du solves.
 *
 * Every case runs on the handle numgpu_create picks (AUTO: CUDA on a GPU host) with host
 * arrays and with memory from numgpu_malloc (device memory on CUDA, where the calls are
 * asynchronous: numgpu_synchronize, then copy back); on a GPU host the host cases also run on
 * an explicit CPU handle. Without CUDA, numgpu_malloc is host memory and the same code path as
 * host arrays, so that sweep is cut to n in {1, 33}. NUMGPU_REQUIRE_CUDA=1 makes an AUTO
 * handle that is not CUDA a failure.
 *
 * Prints "test_gtsv: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include <complex.h>

#include "numgpu_test.h"
#include <lapacke.h>

#ifndef TOL
#define TOL 30.0 /* LAPACK's test threshold */
#endif

typedef double _Complex dcx;

/* ---- precision-neutral views of the family ----------------------------------------- */

typedef numgpu_status (*spike_fn)(numgpu_handle *h, int64_t n, int64_t nrhs, const void *dl, const void *d,
                                  const void *du, void *B, int64_t ldb, int32_t *info, int32_t piv);
typedef numgpu_status (*batch_fn)(numgpu_handle *h, int64_t n, int64_t nrhs, const void *dl, const void *d,
                                  const void *du, int64_t sdiag, void *B, int64_t ldb, int64_t sB, int32_t *info,
                                  int64_t batch, int32_t piv);
typedef numgpu_status (*inter_fn)(numgpu_handle *h, int64_t n, const void *dl, const void *d, const void *du, void *B,
                                  int32_t *info, int64_t batch, int32_t piv);
typedef int (*gtsv_ref_fn)(int n, int nrhs, void *dl, void *d, void *du, void *b, int ldb);

typedef struct {
    const prec_t *p;
    spike_fn spike;
    batch_fn strided;
    inter_fn inter;
    gtsv_ref_fn ref; /* LAPACKE_?gtsv, column-major */
} gt_t;

#define GT_PRECISION(P, T, LT)                                                                    \
    static numgpu_status P##_gt_spike(numgpu_handle *h, int64_t n, int64_t nrhs, const void *dl,    \
                                   const void *d, const void *du, void *B, int64_t ldb,           \
                                   int32_t *info, int32_t piv)                                   \
    {                                                                                             \
        return numgpu_##P##gtsv_spike(h, n, nrhs, (const T *)dl, (const T *)d, (const T *)du,    \
                                      (T *)B, ldb, info, piv);                                    \
    }                                                                                             \
    static numgpu_status P##_gt_strided(numgpu_handle *h, int64_t n, int64_t nrhs, const void *dl,  \
                                     const void *d, const void *du, int64_t sdiag, void *B,       \
                                     int64_t ldb, int64_t sB, int32_t *info, int64_t batch,       \
                                     int32_t piv)                                                \
    {                                                                                             \
        return numgpu_##P##gtsv_batched_strided(h, n, nrhs, (const T *)dl, (const T *)d,         \
                                                (const T *)du, sdiag, (T *)B, ldb, sB, info,      \
                                                batch, piv);                                      \
    }                                                                                             \
    static numgpu_status P##_gt_inter(numgpu_handle *h, int64_t n, const void *dl, const void *d,   \
                                   const void *du, void *B, int32_t *info, int64_t batch,        \
                                   int32_t piv)                                                  \
    {                                                                                             \
        return numgpu_##P##gtsv_batched_interleaved(h, n, (const T *)dl, (const T *)d,           \
                                                    (const T *)du, (T *)B, info, batch, piv);     \
    }                                                                                             \
    static int P##_gt_ref(int n, int nrhs, void *dl, void *d, void *du, void *b, int ldb)           \
    {                                                                                             \
        return (int)LAPACKE_##P##gtsv(LAPACK_COL_MAJOR, n, nrhs, (LT *)dl, (LT *)d, (LT *)du,    \
                                      (LT *)b, ldb);                                              \
    }

GT_PRECISION(s, float, float)
GT_PRECISION(d, double, double)
GT_PRECISION(c, numgpu_complex_float, lapack_complex_float)
GT_PRECISION(z, numgpu_complex_double, lapack_complex_double)

static const gt_t GTS[4] = {
    {&PRECS[0], s_gt_spike, s_gt_strided, s_gt_inter, s_gt_ref},
    {&PRECS[1], d_gt_spike, d_gt_strided, d_gt_inter, d_gt_ref},
    {&PRECS[2], c_gt_spike, c_gt_strided, c_gt_inter, c_gt_ref},
    {&PRECS[3], z_gt_spike, z_gt_strided, z_gt_inter, z_gt_ref},
};

/* ---- helpers --------------------------------------------------------------------------- */

enum space { SPACE_HOST, SPACE_MALLOC };
enum gclass { G_DOMINANT, G_UNIFORM, G_ZERODIAG, G_SINGULAR, G_COUNT };
static const char *const CLASS_NAME[G_COUNT] = {"dominant", "uniform", "zerodiag", "singular"};
static const size_t NS[] = {1, 2, 3, 4, 31, 32, 33, 64, 1000};
enum { NB = 3 }; /* systems of the batched forms */

static dcx get(const prec_t *p, const void *buf, size_t e)
{
    return elem(p, buf, e, 0) + (p->cplx ? elem(p, buf, e, 1) : 0.0) * I;
}

static void put_value(const prec_t *p, void *buf, size_t e, dcx z)
{
    set_value(p, buf, e, creal(z), cimag(z));
}

static int same_elem(const prec_t *p, const void *a, size_t ea, const void *b, size_t eb)
{
    return memcmp((const char *)a + ea * p->size, (const char *)b + eb * p->size, p->size) == 0;
}

/* z rounded to the precision (imaginary part dropped for real ones). */
static dcx rounded(const prec_t *p, dcx z)
{
    double re = creal(z), im = p->cplx ? cimag(z) : 0.0;
    if (!p->dbl) {
        re = (float)re;
        im = (float)im;
    }
    return re + im * I;
}

static dcx rnd_elem(const prec_t *p)
{
    double re = rnd();
    return rounded(p, re + rnd() * I);
}

/* A buffer of `count` elements, all NaN. */
static void *nan_buffer(const prec_t *p, size_t count)
{
    void *b = xmalloc(count * p->size);
    size_t e;
    for (e = 0; e < count; e++)
        set_value(p, b, e, NAN, NAN);
    return b;
}

/* One system in double complex (values representable in the precision). */
typedef struct {
    size_t n, nrhs;
    dcx *dl, *d, *du, *b; /* n - 1, n, n - 1, n * nrhs (compact) */
} sys_t;

static void make_system(const prec_t *p, enum gclass cls, size_t n, size_t nrhs, sys_t *s)
{
    size_t k, m = n - 1;
    s->n = n;
    s->nrhs = nrhs;
    s->dl = xmalloc((m ? m : 1) * sizeof *s->dl);
    s->du = xmalloc((m ? m : 1) * sizeof *s->du);
    s->d = xmalloc(n * sizeof *s->d);
    s->b = xmalloc(n * nrhs * sizeof *s->b);
    for (k = 0; k < m; k++) {
        s->dl[k] = rnd_elem(p);
        s->du[k] = rnd_elem(p);
    }
    for (k = 0; k < n; k++)
        s->d[k] = rnd_elem(p);
    for (k = 0; k < n * nrhs; k++)
        s->b[k] = rnd_elem(p);
    if (cls == G_DOMINANT || cls == G_SINGULAR)
        for (k = 0; k < n; k++)
            s->d[k] = rounded(p, s->d[k] + (creal(s->d[k]) >= 0.0 ? 5.0 : -5.0));
    if (cls == G_ZERODIAG)
        for (k = 1; k < n; k += 3)
            s->d[k] = 0.0;
    if (cls == G_SINGULAR) {
        size_t j = n / 2;
        s->d[j] = 0.0;
        if (j > 0)
            s->du[j - 1] = 0.0;
        if (j < m)
            s->dl[j] = 0.0;
    }
}

static void free_system(sys_t *s)
{
    free(s->dl);
    free(s->d);
    free(s->du);
    free(s->b);
}

/* ||T||_1 (largest column sum) and T x for a column x. */
static double tri_norm1(const sys_t *s)
{
    double worst = 0.0;
    size_t k;
    for (k = 0; k < s->n; k++) {
        double c = cabs(s->d[k]) + (k > 0 ? cabs(s->du[k - 1]) : 0.0) + (k + 1 < s->n ? cabs(s->dl[k]) : 0.0);
        if (c > worst)
            worst = c;
    }
    return worst;
}

static dcx tri_row(const sys_t *s, const dcx *x, size_t k)
{
    dcx v = s->d[k] * x[k];
    if (k > 0)
        v += s->dl[k - 1] * x[k - 1];
    if (k + 1 < s->n)
        v += s->du[k] * x[k + 1];
    return v;
}

/* kappa_1(T) = ||T||_1 / rcond, LAPACKE_zgttrf + LAPACKE_zgtcon (INFINITY when singular). */
static double kappa1(const sys_t *s)
{
    size_t n = s->n, m = n - 1;
    dcx *dl = xmalloc((m ? m : 1) * sizeof *dl), *d = xmalloc(n * sizeof *d), *du = xmalloc((m ? m : 1) * sizeof *du);
    dcx *du2 = xmalloc(n * sizeof *du2);
    lapack_int *ipiv = xmalloc(n * sizeof *ipiv);
    double anorm = tri_norm1(s), rcond = 0.0;
    lapack_int info;
    memcpy(dl, s->dl, m * sizeof *dl);
    memcpy(du, s->du, m * sizeof *du);
    memcpy(d, s->d, n * sizeof *d);
    info = LAPACKE_zgttrf((lapack_int)n, dl, d, du, du2, ipiv);
    if (info == 0)
        LAPACKE_zgtcon('1', (lapack_int)n, dl, d, du, du2, ipiv, anorm, &rcond);
    free(dl);
    free(d);
    free(du);
    free(du2);
    free(ipiv);
    return rcond > 0.0 ? anorm / rcond : INFINITY;
}

static double worst_res, worst_fwd;

static void worsen(double *worst, double q)
{
    if (!(q <= *worst))
        *worst = q;
}

/* Checks one system's outcome: element (r, c) of its B after the call at
 * out[off + r * step + c * ld], info its info; `exact`: a CPU handle (LAPACK's bits). */
static void check_system(const char *what, const prec_t *p, const gt_t *g, int exact, const sys_t *s, const void *out,
                         size_t off, size_t step, size_t ld, int32_t info)
{
    size_t n = s->n, nrhs = s->nrhs, m = n - 1, k, c;
    void *rdl = xmalloc((m ? m : 1) * p->size), *rd = xmalloc(n * p->size), *rdu = xmalloc((m ? m : 1) * p->size);
    void *rb = xmalloc(n * nrhs * p->size);
    int ref_info, unchanged = 1, same = 1;
    for (k = 0; k < m; k++) {
        put_value(p, rdl, k, s->dl[k]);
        put_value(p, rdu, k, s->du[k]);
    }
    for (k = 0; k < n; k++)
        put_value(p, rd, k, s->d[k]);
    for (k = 0; k < n * nrhs; k++)
        put_value(p, rb, k, s->b[k]);
    ref_info = g->ref((int)n, (int)nrhs, rdl, rd, rdu, rb, (int)n);
    if (exact)
        check(info == ref_info, "%s: info %d, LAPACKE_%sgtsv's %d", what, (int)info, p->letter, ref_info);
    else
        check((info > 0) == (ref_info > 0), "%s: info %d, LAPACKE_%sgtsv's %d", what, (int)info, p->letter, ref_info);
    for (c = 0; c < nrhs; c++)
        for (k = 0; k < n; k++) {
            size_t e = off + k * step + c * ld;
            if (get(p, out, e) != s->b[k + c * n])
                unchanged = 0;
            if (!same_elem(p, out, e, rb, k + c * n))
                same = 0;
        }
    if (ref_info > 0) {
        check(info >= 1 && (size_t)info <= n && unchanged, "%s: singular (LAPACK info %d): info %d, B %s", what, ref_info,
              (int)info, unchanged ? "unchanged" : "WRITTEN");
    } else {
        double tn = tri_norm1(s), kappa = kappa1(s);
        dcx *x = xmalloc(n * sizeof *x);
        if (exact)
            check(same, "%s: X differs from LAPACKE_%sgtsv's bitwise", what, p->letter);
        for (c = 0; c < nrhs; c++) {
            double rn = 0.0, xn = 0.0, dn = 0.0, refn = 0.0, r1, r2;
            for (k = 0; k < n; k++)
                x[k] = get(p, out, off + k * step + c * ld);
            for (k = 0; k < n; k++) {
                dcx xr = get(p, rb, k + c * n);
                rn += cabs(s->b[k + c * n] - tri_row(s, x, k));
                xn += cabs(x[k]);
                dn += cabs(x[k] - xr);
                refn += cabs(xr);
            }
            r1 = ratio_of(rn, tn * xn * (double)n * p->eps);
            r2 = ratio_of(dn, refn * kappa * p->eps);
            worsen(&worst_res, r1);
            worsen(&worst_fwd, r2);
            check(r1 < TOL, "%s, column %lu: residual ratio %.3g >= %g", what, (unsigned long)c, r1, TOL);
            check(r2 < TOL, "%s, column %lu: forward error ratio %.3g >= %g (kappa_1 %.3g)", what, (unsigned long)c, r2,
                  TOL, kappa);
        }
        free(x);
    }
    free(rdl);
    free(rd);
    free(rdu);
    free(rb);
}

static int same_buffers(const void *a, const void *b, size_t bytes)
{
    return memcmp(a, b, bytes) == 0;
}

/* ---- one case: the three forms --------------------------------------------------------- */

static void run_case(numgpu_handle *h, const char *hname, int exact, const gt_t *g, enum space sp, enum gclass cls,
                     size_t n, size_t nrhs, int32_t piv)
{
    const prec_t *p = g->p;
    const size_t es = p->size, m = n - 1;
    sys_t sys[NB];
    char what[256];
    stage_t st = {h, sp == SPACE_MALLOC, 0, {{NULL, NULL, 0}}};
    const char *fail;
    numgpu_status s;
    size_t i, k, e;

    for (i = 0; i < NB; i++)
        make_system(p, i == 1 ? cls : G_DOMINANT, n, nrhs, &sys[i]);

    /* One system (the middle one), B with two padding rows. */
    {
        const sys_t *y = &sys[1];
        size_t ldb = n + 2;
        void *dl = xmalloc((m ? m : 1) * es), *d = xmalloc(n * es), *du = xmalloc((m ? m : 1) * es);
        void *B = nan_buffer(p, ldb * nrhs), *B0, *dl0, *d0, *du0;
        int32_t info = -7;
        for (k = 0; k < m; k++) {
            put_value(p, dl, k, y->dl[k]);
            put_value(p, du, k, y->du[k]);
        }
        for (k = 0; k < n; k++)
            put_value(p, d, k, y->d[k]);
        for (e = 0; e < n * nrhs; e++)
            put_value(p, B, e % n + (e / n) * ldb, y->b[e]);
        B0 = xmalloc(ldb * nrhs * es);
        memcpy(B0, B, ldb * nrhs * es);
        dl0 = xmalloc((m ? m : 1) * es);
        d0 = xmalloc(n * es);
        du0 = xmalloc((m ? m : 1) * es);
        memcpy(dl0, dl, m * es);
        memcpy(d0, d, n * es);
        memcpy(du0, du, m * es);
        snprintf(what, sizeof what, "%s handle, %s: numgpu_%sgtsv_spike %s n=%lu nrhs=%lu pivoting=%d", hname,
                 sp == SPACE_HOST ? "host" : "numgpu_malloc", p->letter, CLASS_NAME[cls], (unsigned long)n,
                 (unsigned long)nrhs, (int)piv);
        {
            /* n = 1: dl and du have no entries; NULL (not a host pointer among device ones). */
            void *pdl = m ? put(&st, dl, m * es) : NULL, *pd = put(&st, d, n * es);
            void *pdu = m ? put(&st, du, m * es) : NULL;
            void *pB = put(&st, B, ldb * nrhs * es), *pinfo = put(&st, &info, sizeof info);
            s = g->spike(h, (int64_t)n, (int64_t)nrhs, pdl, pd, pdu, pB, (int64_t)ldb, pinfo, piv);
        }
        fail = back(&st);
        check(s == NUMGPU_SUCCESS && fail == NULL, "%s: status %d (%s) %s", what, (int)s, last_error(), fail ? fail : "");
        if (s == NUMGPU_SUCCESS) {
            int pad_ok = 1;
            for (e = 0; e < ldb * nrhs; e++)
                if (e % ldb >= n && !same_elem(p, B, e, B0, e))
                    pad_ok = 0;
            check(pad_ok && same_buffers(dl, dl0, m * es) && same_buffers(d, d0, n * es) && same_buffers(du, du0, m * es),
                  "%s: the diagonals or the padding of B were written", what);
            check_system(what, p, g, exact, y, B, 0, 1, ldb, info);
        }
        free(dl);
        free(d);
        free(du);
        free(B);
        free(B0);
        free(dl0);
        free(d0);
        free(du0);
    }

    /* Strided: diagonals n + 1 apart, B_i ldb * nrhs + 1 apart, gaps NaN. */
    {
        size_t sd = n + 1, ldb = n + 1, sb = ldb * nrhs + 1;
        void *dl = nan_buffer(p, NB * sd), *d = nan_buffer(p, NB * sd), *du = nan_buffer(p, NB * sd);
        void *B = nan_buffer(p, NB * sb), *dl0 = xmalloc(NB * sd * es), *d0 = xmalloc(NB * sd * es);
        void *du0 = xmalloc(NB * sd * es), *B0 = xmalloc(NB * sb * es);
        int32_t info[NB] = {-7, -7, -7};
        for (i = 0; i < NB; i++) {
            for (k = 0; k < m; k++) {
                put_value(p, dl, i * sd + k, sys[i].dl[k]);
                put_value(p, du, i * sd + k, sys[i].du[k]);
            }
            for (k = 0; k < n; k++)
                put_value(p, d, i * sd + k, sys[i].d[k]);
            for (e = 0; e < n * nrhs; e++)
                put_value(p, B, i * sb + e % n + (e / n) * ldb, sys[i].b[e]);
        }
        memcpy(dl0, dl, NB * sd * es);
        memcpy(d0, d, NB * sd * es);
        memcpy(du0, du, NB * sd * es);
        memcpy(B0, B, NB * sb * es);
        snprintf(what, sizeof what, "%s handle, %s: numgpu_%sgtsv_batched_strided %s n=%lu nrhs=%lu pivoting=%d",
                 hname, sp == SPACE_HOST ? "host" : "numgpu_malloc", p->letter, CLASS_NAME[cls], (unsigned long)n,
                 (unsigned long)nrhs, (int)piv);
        {
            void *pdl = put(&st, dl, NB * sd * es), *pd = put(&st, d, NB * sd * es);
            void *pdu = put(&st, du, NB * sd * es), *pB = put(&st, B, NB * sb * es);
            void *pinfo = put(&st, info, sizeof info);
            s = g->strided(h, (int64_t)n, (int64_t)nrhs, pdl, pd, pdu, (int64_t)sd, pB, (int64_t)ldb, (int64_t)sb, pinfo,
                           NB, piv);
        }
        fail = back(&st);
        check(s == NUMGPU_SUCCESS && fail == NULL, "%s: status %d (%s) %s", what, (int)s, last_error(), fail ? fail : "");
        if (s == NUMGPU_SUCCESS) {
            int pad_ok = 1;
            for (e = 0; e < NB * sb; e++)
                if ((e % sb >= ldb * nrhs || e % sb % ldb >= n) && !same_elem(p, B, e, B0, e))
                    pad_ok = 0;
            check(pad_ok && same_buffers(dl, dl0, NB * sd * es) && same_buffers(d, d0, NB * sd * es) &&
                      same_buffers(du, du0, NB * sd * es),
                  "%s: the diagonals, their gaps or the padding of B were written", what);
            for (i = 0; i < NB; i++) {
                char w[300];
                snprintf(w, sizeof w, "%s, system %lu", what, (unsigned long)i);
                check_system(w, p, g, exact, &sys[i], B, i * sb, 1, ldb, info[i]);
            }
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

    /* Interleaved: the first right-hand sides, element k of system i at k * NB + i. */
    {
        void *dl = nan_buffer(p, n * NB), *d = nan_buffer(p, n * NB), *du = nan_buffer(p, n * NB);
        void *B = nan_buffer(p, n * NB), *dl0 = xmalloc(n * NB * es), *d0 = xmalloc(n * NB * es);
        void *du0 = xmalloc(n * NB * es);
        int32_t info[NB] = {-7, -7, -7};
        for (i = 0; i < NB; i++) {
            for (k = 0; k < n; k++) {
                put_value(p, d, k * NB + i, sys[i].d[k]);
                put_value(p, B, k * NB + i, sys[i].b[k]);
                if (k + 1 < n) {
                    put_value(p, dl, (k + 1) * NB + i, sys[i].dl[k]);
                    put_value(p, du, k * NB + i, sys[i].du[k]);
                }
            }
            sys[i].nrhs = 1;
        }
        memcpy(dl0, dl, n * NB * es);
        memcpy(d0, d, n * NB * es);
        memcpy(du0, du, n * NB * es);
        snprintf(what, sizeof what, "%s handle, %s: numgpu_%sgtsv_batched_interleaved %s n=%lu pivoting=%d", hname,
                 sp == SPACE_HOST ? "host" : "numgpu_malloc", p->letter, CLASS_NAME[cls], (unsigned long)n, (int)piv);
        {
            void *pdl = put(&st, dl, n * NB * es), *pd = put(&st, d, n * NB * es);
            void *pdu = put(&st, du, n * NB * es), *pB = put(&st, B, n * NB * es);
            void *pinfo = put(&st, info, sizeof info);
            s = g->inter(h, (int64_t)n, pdl, pd, pdu, pB, pinfo, NB, piv);
        }
        fail = back(&st);
        check(s == NUMGPU_SUCCESS && fail == NULL, "%s: status %d (%s) %s", what, (int)s, last_error(), fail ? fail : "");
        if (s == NUMGPU_SUCCESS) {
            check(same_buffers(dl, dl0, n * NB * es) && same_buffers(d, d0, n * NB * es) &&
                      same_buffers(du, du0, n * NB * es),
                  "%s: the diagonals were written", what);
            for (i = 0; i < NB; i++) {
                char w[300];
                snprintf(w, sizeof w, "%s, system %lu", what, (unsigned long)i);
                check_system(w, p, g, exact, &sys[i], B, i, NB, 0, info[i]);
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

    for (i = 0; i < NB; i++)
        free_system(&sys[i]);
}

static void sweep(numgpu_handle *h, const char *hname, int cpu, enum space sp, int short_sweep)
{
    static const size_t NRHS[] = {1, 2, 5};
    int pi, cl, mode;
    size_t ni, ri;
    for (pi = 0; pi < 4; pi++)
        for (ni = 0; ni < sizeof NS / sizeof NS[0]; ni++) {
            if (short_sweep && NS[ni] != 1 && NS[ni] != 33)
                continue;
            for (cl = 0; cl < G_COUNT; cl++)
                for (mode = 0; mode < 2; mode++) {
                    int32_t piv = mode ? NUMGPU_GTSV_NOPIVOT : NUMGPU_GTSV_DIAG_PIVOT;
                    if (piv == NUMGPU_GTSV_NOPIVOT && cl != G_DOMINANT && !cpu)
                        continue;
                    for (ri = 0; ri < 3; ri++)
                        run_case(h, hname, cpu, &GTS[pi], sp, (enum gclass)cl, NS[ni], NRHS[ri], piv);
                }
        }
}

/* ---- argument checks ------------------------------------------------------------------ */

static void error_checks(numgpu_handle *h, const char *hname, const gt_t *g)
{
    enum { N = 4, NRHS = 2, LDB = 4, SD = 4, SB = 8, NSYS = 2 };
    const prec_t *p = g->p;
    const size_t es = p->size;
    void *dl = xmalloc(NSYS * SD * es), *d = xmalloc(NSYS * SD * es), *du = xmalloc(NSYS * SD * es);
    void *B = xmalloc(NSYS * SB * es), *B0 = xmalloc(NSYS * SB * es);
    int32_t info[NSYS] = {-7, -7}, info0[NSYS] = {-7, -7};
    const int32_t DP = NUMGPU_GTSV_DIAG_PIVOT;
    char fn[96];
    numgpu_status s;
    size_t k;

#define SAME (memcmp(B, B0, NSYS * SB * es) == 0 && memcmp(info, info0, sizeof info) == 0)

    for (k = 0; k < NSYS * SD; k++) {
        set_value(p, dl, k, 1.0, 0.0);
        set_value(p, d, k, 4.0, 0.0);
        set_value(p, du, k, 1.0, 0.0);
    }
    for (k = 0; k < NSYS * SB; k++)
        set_value(p, B, k, 2.0, 1.0);
    memcpy(B0, B, NSYS * SB * es);

    snprintf(fn, sizeof fn, "numgpu_%sgtsv_spike", p->letter);
    s = g->spike(NULL, N, NRHS, dl, d, du, B, LDB, info, DP);
    expect_invalid(s, fn, 1, "(h)", SAME, hname, "NULL handle");
    s = g->spike(h, -1, NRHS, dl, d, du, B, LDB, info, DP);
    expect_invalid(s, fn, 2, "(n = -1) must be >= 0", SAME, hname, "n < 0");
    s = g->spike(h, N, -2, dl, d, du, B, LDB, info, DP);
    expect_invalid(s, fn, 3, "(nrhs = -2) must be >= 0", SAME, hname, "nrhs < 0");
    s = g->spike(h, N, NRHS, NULL, d, du, B, LDB, info, DP);
    expect_invalid(s, fn, 4, "(dl) must not be NULL", SAME, hname, "NULL dl");
    s = g->spike(h, N, NRHS, dl, NULL, du, B, LDB, info, DP);
    expect_invalid(s, fn, 5, "(d) must not be NULL", SAME, hname, "NULL d");
    s = g->spike(h, N, NRHS, dl, d, NULL, B, LDB, info, DP);
    expect_invalid(s, fn, 6, "(du) must not be NULL", SAME, hname, "NULL du");
    s = g->spike(h, N, NRHS, dl, d, du, NULL, LDB, info, DP);
    expect_invalid(s, fn, 7, "(B) must not be NULL", SAME, hname, "NULL B");
    s = g->spike(h, N, NRHS, dl, d, du, B, N - 1, info, DP);
    expect_invalid(s, fn, 8, "(ldb = 3) must be >= max(1, n) = 4", SAME, hname, "ldb < n");
    s = g->spike(h, N, NRHS, dl, d, du, B, LDB, NULL, DP);
    expect_invalid(s, fn, 9, "(info) must not be NULL", SAME, hname, "NULL info");
    s = g->spike(h, N, NRHS, dl, d, du, B, LDB, info, 2);
    expect_invalid(s, fn, 10, "(pivoting = 2)", SAME, hname, "pivoting = 2");
    s = g->spike(h, 0, NRHS, NULL, NULL, NULL, NULL, 1, NULL, DP);
    check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with n = 0: status %d (%s)", hname, fn, (int)s, last_error());
    s = g->spike(h, N, 0, dl, d, du, B, LDB, info, DP);
    check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with nrhs = 0: status %d (%s), outputs %s", hname, fn, (int)s,
          last_error(), SAME ? "untouched" : "MODIFIED");

    snprintf(fn, sizeof fn, "numgpu_%sgtsv_batched_strided", p->letter);
    s = g->strided(h, -1, NRHS, dl, d, du, SD, B, LDB, SB, info, NSYS, DP);
    expect_invalid(s, fn, 2, "(n = -1)", SAME, hname, "n < 0");
    s = g->strided(h, N, NRHS, NULL, d, du, SD, B, LDB, SB, info, NSYS, DP);
    expect_invalid(s, fn, 4, "(dl) must not be NULL", SAME, hname, "NULL dl");
    s = g->strided(h, N, NRHS, dl, d, du, N - 1, B, LDB, SB, info, NSYS, DP);
    expect_invalid(s, fn, 7, "(stride_diag = 3) must be 0 or >= n = 4", SAME, hname, "stride_diag < n");
    s = g->strided(h, N, NRHS, dl, d, du, SD, NULL, LDB, SB, info, NSYS, DP);
    expect_invalid(s, fn, 8, "(B) must not be NULL", SAME, hname, "NULL B");
    s = g->strided(h, N, NRHS, dl, d, du, SD, B, N - 1, SB, info, NSYS, DP);
    expect_invalid(s, fn, 9, "(ldb = 3)", SAME, hname, "ldb < n");
    s = g->strided(h, N, NRHS, dl, d, du, SD, B, LDB, SB - 1, info, NSYS, DP);
    expect_invalid(s, fn, 10, "(strideB = 7)", SAME, hname, "strideB < ldb * nrhs");
    s = g->strided(h, N, NRHS, dl, d, du, SD, B, LDB, SB, NULL, NSYS, DP);
    expect_invalid(s, fn, 11, "(info) must not be NULL", SAME, hname, "NULL info");
    s = g->strided(h, N, NRHS, dl, d, du, SD, B, LDB, SB, info, -1, DP);
    expect_invalid(s, fn, 12, "(batch = -1) must be >= 0", SAME, hname, "batch < 0");
    s = g->strided(h, N, NRHS, dl, d, du, SD, B, LDB, SB, info, NSYS, -1);
    expect_invalid(s, fn, 13, "(pivoting = -1)", SAME, hname, "pivoting = -1");
    s = g->strided(h, N, NRHS, dl, d, du, SD, B, LDB, SB, info, 0, DP);
    check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with batch = 0: status %d (%s), outputs %s", hname, fn, (int)s,
          last_error(), SAME ? "untouched" : "MODIFIED");

    snprintf(fn, sizeof fn, "numgpu_%sgtsv_batched_interleaved", p->letter);
    s = g->inter(h, -3, dl, d, du, B, info, NSYS, DP);
    expect_invalid(s, fn, 2, "(n = -3)", SAME, hname, "n < 0");
    s = g->inter(h, N, dl, d, NULL, B, info, NSYS, DP);
    expect_invalid(s, fn, 5, "(du) must not be NULL", SAME, hname, "NULL du");
    s = g->inter(h, N, dl, d, du, NULL, info, NSYS, DP);
    expect_invalid(s, fn, 6, "(B) must not be NULL", SAME, hname, "NULL B");
    s = g->inter(h, N, dl, d, du, B, NULL, NSYS, DP);
    expect_invalid(s, fn, 7, "(info) must not be NULL", SAME, hname, "NULL info");
    s = g->inter(h, N, dl, d, du, B, info, -2, DP);
    expect_invalid(s, fn, 8, "(batch = -2)", SAME, hname, "batch < 0");
    s = g->inter(h, N, dl, d, du, B, info, NSYS, 9);
    expect_invalid(s, fn, 9, "(pivoting = 9)", SAME, hname, "pivoting = 9");
    s = g->inter(h, 0, NULL, NULL, NULL, NULL, NULL, NSYS, DP);
    check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with n = 0: status %d (%s)", hname, fn, (int)s, last_error());
#undef SAME

    /* n = 1: dl and du are not referenced, NULL is fine; x = b / d. */
    s = g->spike(h, 1, 1, NULL, d, NULL, B, 1, info, DP);
    check(s == NUMGPU_SUCCESS && info[0] == 0 && get(p, B, 0) == (2.0 + (p->cplx ? 1.0 : 0.0) * I) / 4.0,
          "%s handle: numgpu_%sgtsv_spike n = 1 with NULL dl, du: status %d (%s), info %d", hname, p->letter, (int)s,
          last_error(), (int)info[0]);

    free(dl);
    free(d);
    free(du);
    free(B);
    free(B0);
}

int main(void)
{
    numgpu_handle *autoh = NULL, *cpuh = NULL;
    int32_t be = -1;
    numgpu_status st;
    const char *aname;
    int pi;

    st = numgpu_create(&autoh);
    check(st == NUMGPU_SUCCESS, "numgpu_create: status %d (%s)", (int)st, last_error());
    if (autoh == NULL)
        return finish("test_gtsv");
    numgpu_get_backend(autoh, &be);
    aname = be == NUMGPU_BACKEND_CUDA ? "AUTO(CUDA)" : "AUTO(CPU)";
    printf("test_gtsv: numgpu %s, AUTO handle runs on %s\n", numgpu_version(), backend_name(be));
    if (env_is_1("NUMGPU_REQUIRE_CUDA"))
        check(be == NUMGPU_BACKEND_CUDA, "NUMGPU_REQUIRE_CUDA=1 but the AUTO handle runs on %s", backend_name(be));

    for (pi = 0; pi < 4; pi++)
        error_checks(autoh, aname, &GTS[pi]);
    sweep(autoh, aname, be == NUMGPU_BACKEND_CPU, SPACE_HOST, 0);
    sweep(autoh, aname, be == NUMGPU_BACKEND_CPU, SPACE_MALLOC, be != NUMGPU_BACKEND_CUDA);
    if (be == NUMGPU_BACKEND_CUDA) {
        printf("test_gtsv: CUDA device available: the numgpu_malloc cases ran on device pointers; "
               "running the host cases on a CPU handle too\n");
        st = numgpu_create_with(&cpuh, NUMGPU_BACKEND_CPU, 0);
        check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): status %d (%s)", (int)st, last_error());
        if (cpuh != NULL) {
            for (pi = 0; pi < 4; pi++)
                error_checks(cpuh, "CPU", &GTS[pi]);
            sweep(cpuh, "CPU", 1, SPACE_HOST, 0);
            st = numgpu_destroy(cpuh);
            check(st == NUMGPU_SUCCESS, "numgpu_destroy(CPU): status %d (%s)", (int)st, last_error());
        }
    } else {
        printf("test_gtsv: no CUDA here, so the numgpu_malloc cases ran on host memory, for n in {1, 33} only "
               "(device pointers are exercised on a GPU host)\n");
    }
    printf("test_gtsv: worst ratios (limit %g): residual %.3g, forward error %.3g\n", TOL, worst_res, worst_fwd);

    st = numgpu_destroy(autoh);
    check(st == NUMGPU_SUCCESS, "numgpu_destroy(AUTO): status %d (%s)", (int)st, last_error());
    return finish("test_gtsv");
}
