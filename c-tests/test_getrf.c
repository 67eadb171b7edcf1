/* test_getrf: numgpu's batched LU with complete pivoting as a C user replacing a loop of
 * LAPACK ?getc2 / ?gesc2 calls sees it: numgpu_?getrf_fullpivot_batched, ?getrs_..., ?gesv_...
 * (both forms) and numgpu_?gesc2_batched_strided, for s, d, c, z.
 *
 *  - the argument checks: a mode out of range (-1, 2), NULL ipiv, lda < n, trans out of range,
 *    host pivots out of range, a NULL info or scale: NUMGPU_INVALID_VALUE, the argument's
 *    position in numgpu_last_error_arg() and the message, nothing written; n = 0 and
 *    batch = 0 succeed and touch nothing;
 *  - the drop-in comparison with LAPACK's Fortran ?getc2_ / ?gesc2_ (OpenBLAS carries them),
 *    n in {1, 8, 33}, a batch of 3 (the pointer arrays point at the matrices in reverse order)
 *    with padded leading dimensions and gaps, the middle matrix random times 1e-294 (1e-32 in
 *    single precision), below LAPACK's smlnum, so that ?getc2 perturbs every pivot:
 *    getrf GETC2: ipiv, jpiv and info identical to ?getc2's, the factors within
 *      ||F - Fref||_F / (n eps ||Fref||_F) < 30;
 *    gesc2 on ?getc2's factors: scale within 30 n eps of ?gesc2's; x within
 *      ||x - xref||_F / (n eps ||xref||_F) < 30 of ?gesc2's for the perturbed factorisation, and
 *      with a backward error ||scale b - A x||_F / (n eps ||A||_F ||x||_F) < 30 for the others;
 *    getrs (N, T, C) on numgpu's factors and gesv: ||B - op(A) X||_F / (n eps ||A||_F ||X||_F) < 30
 *      where info = 0; getrf STRICT: info 0 and, for the random matrices, ?getc2's pivots;
 *      gesv: getrf STRICT's info and pivots;
 *    every call: padding, gaps and input-only arrays bitwise unchanged;
 * on the AUTO handle (CUDA on a GPU host) with host arrays and with numgpu_malloc memory (device
 * pointers there, pointer arrays included) and on a CPU handle.
 *
 * Prints "test_getrf: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include "numgpu_test.h"

/* ---- LAPACK, the reference (Fortran symbols of OpenBLAS's LAPACK) --------------------- */

void sgetc2_(const int *n, float *a, const int *lda, int *ipiv, int *jpiv, int *info);
void dgetc2_(const int *n, double *a, const int *lda, int *ipiv, int *jpiv, int *info);
void cgetc2_(const int *n, float _Complex *a, const int *lda, int *ipiv, int *jpiv, int *info);
void zgetc2_(const int *n, double _Complex *a, const int *lda, int *ipiv, int *jpiv, int *info);
void sgesc2_(const int *n, const float *a, const int *lda, float *rhs, const int *ipiv, const int *jpiv,
             float *scale);
void dgesc2_(const int *n, const double *a, const int *lda, double *rhs, const int *ipiv, const int *jpiv,
             double *scale);
void cgesc2_(const int *n, const float _Complex *a, const int *lda, float _Complex *rhs, const int *ipiv,
             const int *jpiv, float *scale);
void zgesc2_(const int *n, const double _Complex *a, const int *lda, double _Complex *rhs, const int *ipiv,
             const int *jpiv, double *scale);

/* ---- precision-neutral views of the family ----------------------------------------- */

enum form { FORM_ARRAY, FORM_STRIDED };

/* FORM_ARRAY: A and B are arrays of matrix pointers (the strides are ignored); FORM_STRIDED:
 * the first matrices, sA and sB elements apart. */
typedef struct {
    const prec_t *p;
    numgpu_status (*getrf)(numgpu_handle *h, int form, numgpu_fullpivot_mode mode, int64_t n, void *A, int64_t lda,
                           int64_t sA, int32_t *ipiv, int32_t *jpiv, int32_t *info, int64_t batch);
    numgpu_status (*getrs)(numgpu_handle *h, int form, int32_t trans, int64_t n, int64_t nrhs, const void *A,
                           int64_t lda, int64_t sA, const int32_t *ipiv, const int32_t *jpiv, void *B, int64_t ldb,
                           int64_t sB, int64_t batch);
    numgpu_status (*gesv)(numgpu_handle *h, int form, int64_t n, int64_t nrhs, void *A, int64_t lda, int64_t sA,
                          int32_t *ipiv, int32_t *jpiv, void *B, int64_t ldb, int64_t sB, int32_t *info,
                          int64_t batch);
    numgpu_status (*gesc2)(numgpu_handle *h, int64_t n, const void *A, int64_t lda, int64_t sA, void *rhs,
                           int64_t sR, const int32_t *ipiv, const int32_t *jpiv, void *scale, int64_t batch);
    void (*getc2_ref)(int n, void *a, int lda, int *ipiv, int *jpiv, int *info);
    double (*gesc2_ref)(int n, const void *a, int lda, void *rhs, const int *ipiv, const int *jpiv);
} lu_t;

#define LU_PRECISION(P, T, R, LT)                                                                                 \
    static numgpu_status P##_getrf(numgpu_handle *h, int form, numgpu_fullpivot_mode mode, int64_t n, void *A,   \
                                   int64_t lda, int64_t sA, int32_t *ipiv, int32_t *jpiv, int32_t *info,         \
                                   int64_t batch)                                                                \
    {                                                                                                             \
        if (form == FORM_ARRAY)                                                                                   \
            return numgpu_##P##getrf_fullpivot_batched(h, mode, n, (T *const *)A, lda, ipiv, jpiv, info, batch);  \
        return numgpu_##P##getrf_fullpivot_batched_strided(h, mode, n, (T *)A, lda, sA, ipiv, jpiv, info, batch); \
    }                                                                                                             \
    static numgpu_status P##_getrs(numgpu_handle *h, int form, int32_t trans, int64_t n, int64_t nrhs,           \
                                   const void *A, int64_t lda, int64_t sA, const int32_t *ipiv,                  \
                                   const int32_t *jpiv, void *B, int64_t ldb, int64_t sB, int64_t batch)         \
    {                                                                                                             \
        if (form == FORM_ARRAY)                                                                                   \
            return numgpu_##P##getrs_fullpivot_batched(h, trans, n, nrhs, (const T *const *)A, lda, ipiv, jpiv,   \
                                                       (T *const *)B, ldb, batch);                                \
        return numgpu_##P##getrs_fullpivot_batched_strided(h, trans, n, nrhs, (const T *)A, lda, sA, ipiv, jpiv,  \
                                                           (T *)B, ldb, sB, batch);                               \
    }                                                                                                             \
    static numgpu_status P##_gesv(numgpu_handle *h, int form, int64_t n, int64_t nrhs, void *A, int64_t lda,     \
                                  int64_t sA, int32_t *ipiv, int32_t *jpiv, void *B, int64_t ldb, int64_t sB,    \
                                  int32_t *info, int64_t batch)                                                  \
    {                                                                                                             \
        if (form == FORM_ARRAY)                                                                                   \
            return numgpu_##P##gesv_fullpivot_batched(h, n, nrhs, (T *const *)A, lda, ipiv, jpiv, (T *const *)B,  \
                                                      ldb, info, batch);                                          \
        return numgpu_##P##gesv_fullpivot_batched_strided(h, n, nrhs, (T *)A, lda, sA, ipiv, jpiv, (T *)B, ldb,   \
                                                          sB, info, batch);                                       \
    }                                                                                                             \
    static numgpu_status P##_gesc2(numgpu_handle *h, int64_t n, const void *A, int64_t lda, int64_t sA,          \
                                   void *rhs, int64_t sR, const int32_t *ipiv, const int32_t *jpiv, void *scale, \
                                   int64_t batch)                                                                \
    {                                                                                                             \
        return numgpu_##P##gesc2_batched_strided(h, n, (const T *)A, lda, sA, (T *)rhs, sR, ipiv, jpiv,           \
                                                 (R *)scale, batch);                                              \
    }                                                                                                             \
    static void P##_getc2_ref(int n, void *a, int lda, int *ipiv, int *jpiv, int *info)                          \
    {                                                                                                             \
        P##getc2_(&n, (LT *)a, &lda, ipiv, jpiv, info);                                                           \
    }                                                                                                             \
    static double P##_gesc2_ref(int n, const void *a, int lda, void *rhs, const int *ipiv, const int *jpiv)      \
    {                                                                                                             \
        R s = (R)-1;                                                                                              \
        P##gesc2_(&n, (const LT *)a, &lda, (LT *)rhs, ipiv, jpiv, &s);                                            \
        return (double)s;                                                                                         \
    }

LU_PRECISION(s, float, float, float)
LU_PRECISION(d, double, double, double)
LU_PRECISION(c, numgpu_complex_float, float, float _Complex)
LU_PRECISION(z, numgpu_complex_double, double, double _Complex)

#define LU_ENTRY(P, I) {&PRECS[I], P##_getrf, P##_getrs, P##_gesv, P##_gesc2, P##_getc2_ref, P##_gesc2_ref}
static const lu_t LUS[4] = {LU_ENTRY(s, 0), LU_ENTRY(d, 1), LU_ENTRY(c, 2), LU_ENTRY(z, 3)};

/* ---- argument checks ------------------------------------------------------------------ */

static void error_checks(numgpu_handle *h, const char *hname, const lu_t *lu)
{
    enum { N = 4, NB = 2, LDA = 4, SA = 16, NRHS = 2, LDB = 4, SB = 8 };
    const prec_t *p = lu->p;
    void *A = new_buffer(p, NB * SA, 1, 0), *A0 = xdup(A, NB * SA * p->size);
    void *B = new_buffer(p, NB * SB, 1, 0), *B0 = xdup(B, NB * SB * p->size);
    void *sc = xmalloc(NB * p->rsize), *sc0 = xmalloc(NB * p->rsize);
    int32_t ip[N * NB], jp[N * NB], info[NB], good[N * NB], bad[N * NB], bad_hi[N * NB];
    int32_t ip0[N * NB], jp0[N * NB], info0[NB];
    void *pa[NB], *pb[NB];
    char fn[96];
    int form, k;
    numgpu_status s;

#define SAME                                                                                      \
    (memcmp(A, A0, NB * SA * p->size) == 0 && memcmp(B, B0, NB * SB * p->size) == 0 &&            \
     memcmp(sc, sc0, NB * p->rsize) == 0 && memcmp(ip, ip0, sizeof ip) == 0 &&                    \
     memcmp(jp, jp0, sizeof jp) == 0 && memcmp(info, info0, sizeof info) == 0)

    memset(sc, 0x5A, NB * p->rsize);
    for (k = 0; k < N * NB; k++) {
        ip[k] = jp[k] = -99;
        good[k] = bad[k] = bad_hi[k] = k % N + 1;
    }
    bad[1] = 1;        /* entry k = 2 must be in [2, n] */
    bad_hi[N + 2] = 5; /* > n */
    info[0] = info[1] = -99;
    memcpy(sc0, sc, NB * p->rsize);
    memcpy(ip0, ip, sizeof ip);
    memcpy(jp0, jp, sizeof jp);
    memcpy(info0, info, sizeof info);
    for (k = 0; k < NB; k++) {
        pa[k] = eptr(p, A, (size_t)k * SA);
        pb[k] = eptr(p, B, (size_t)k * SB);
    }

    for (form = FORM_ARRAY; form <= FORM_STRIDED; form++) {
        const char *sfx = form ? "_strided" : "";
        const int o = form; /* the strided forms have strideA after lda */
        void *a = form ? A : (void *)pa, *b = form ? B : (void *)pb;
        int32_t modes[2] = {2, -1};
        int m;

        snprintf(fn, sizeof fn, "numgpu_%sgetrf_fullpivot_batched%s", p->letter, sfx);
        for (m = 0; m < 2; m++) {
            char needle[32];
            snprintf(needle, sizeof needle, "(mode = %d)", (int)modes[m]);
            s = lu->getrf(h, form, modes[m], N, a, LDA, SA, ip, jp, info, NB);
            expect_invalid(s, fn, 2, needle, SAME, hname, "mode out of range");
        }
        s = lu->getrf(h, form, NUMGPU_FULLPIVOT_GETC2, N, a, LDA, SA, NULL, jp, info, NB);
        expect_invalid(s, fn, 6 + o, "ipiv", SAME, hname, "NULL ipiv");
        s = lu->getrf(h, form, NUMGPU_FULLPIVOT_STRICT, N, a, N - 1, SA, ip, jp, info, NB);
        expect_invalid(s, fn, 5, "(lda = 3)", SAME, hname, "lda < n");

        snprintf(fn, sizeof fn, "numgpu_%sgetrs_fullpivot_batched%s", p->letter, sfx);
        s = lu->getrs(h, form, 3, N, NRHS, a, LDA, SA, good, good, b, LDB, SB, NB);
        expect_invalid(s, fn, 2, "trans", SAME, hname, "trans = 3");
        s = lu->getrs(h, form, NUMGPU_OP_N, N, NRHS, a, LDA, SA, bad, good, b, LDB, SB, NB);
        expect_invalid(s, fn, 7 + o, "ipiv", SAME, hname, "host ipiv entry out of range");
        s = lu->getrs(h, form, NUMGPU_OP_T, N, NRHS, a, LDA, SA, good, bad_hi, b, LDB, SB, NB);
        expect_invalid(s, fn, 8 + o, "jpiv", SAME, hname, "host jpiv entry > n");

        snprintf(fn, sizeof fn, "numgpu_%sgesv_fullpivot_batched%s", p->letter, sfx);
        s = lu->gesv(h, form, N, NRHS, a, N - 1, SA, ip, jp, b, LDB, SB, info, NB);
        expect_invalid(s, fn, 5, "(lda = 3)", SAME, hname, "lda < n");
        s = lu->gesv(h, form, N, NRHS, a, LDA, SA, ip, jp, b, LDB, SB, NULL, NB);
        expect_invalid(s, fn, 10 + 2 * o, "info", SAME, hname, "NULL info");

        /* n = 0 and batch = 0: success, nothing touched. */
        snprintf(fn, sizeof fn, "numgpu_%sgetrf_fullpivot_batched%s", p->letter, sfx);
        s = lu->getrf(h, form, NUMGPU_FULLPIVOT_GETC2, 0, a, 1, SA, ip, jp, info, NB);
        expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "n = 0");
        s = lu->getrf(h, form, NUMGPU_FULLPIVOT_STRICT, N, a, LDA, SA, ip, jp, info, 0);
        expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "batch = 0");
        snprintf(fn, sizeof fn, "numgpu_%sgesv_fullpivot_batched%s", p->letter, sfx);
        s = lu->gesv(h, form, N, NRHS, a, LDA, SA, ip, jp, b, LDB, SB, info, 0);
        expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "batch = 0");
    }

    snprintf(fn, sizeof fn, "numgpu_%sgesc2_batched_strided", p->letter);
    s = lu->gesc2(h, N, A, LDA, SA, B, N, good, good, NULL, NB);
    expect_invalid(s, fn, 10, "scale", SAME, hname, "NULL scale");
    s = lu->gesc2(h, N, A, LDA, SA, B, N, good, bad_hi, sc, NB);
    expect_invalid(s, fn, 9, "jpiv", SAME, hname, "host jpiv entry > n");
    s = lu->gesc2(h, N, A, N - 1, SA, B, N, good, good, sc, NB);
    expect_invalid(s, fn, 4, "(lda = 3)", SAME, hname, "lda < n");
#undef SAME

    free(A);
    free(A0);
    free(B);
    free(B0);
    free(sc);
    free(sc0);
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    int pi;
    for (pi = 0; pi < 4; pi++)
        error_checks(h, hname, &LUS[pi]);
}

/* ---- the drop-in comparison with ?getc2 / ?gesc2 --------------------------------------- */

enum { NB = 3, NRHS = 2, TINY = 1 /* the matrix below smlnum */ };

/* One batch: inputs, LAPACK's results, numgpu's. */
typedef struct {
    const where_t *w;
    const lu_t *lu;
    int form;
    size_t n, lda, sa, ldb, sb, sr;
    void *A0, *B0, *R0; /* inputs; R0: gesc2's right-hand sides, n + 1 apart */
    void *Fref;         /* ?getc2's factors */
    int *ipr, *jpr, infor[NB];
    void *F; /* numgpu's GETC2 factors */
    int32_t *ip, *jp, info[NB];
    int32_t *ips, *jps, infos[NB]; /* STRICT */
    char what[160];
} lu_case;

/* The matrix slot problem i uses: the pointer arrays point at the matrices in reverse order. */
static size_t slot(const lu_case *c, size_t i)
{
    return c->form == FORM_ARRAY ? NB - 1 - i : i;
}

/* The array to pass for the batch in `dA` (staged): itself (strided) or a pointer array to
 * its matrices, `stride` apart, by slot (staged too). */
static void *batch_arg(stage_t *st, const lu_case *c, void *dA, size_t stride, void **ptrs)
{
    size_t i;
    if (c->form == FORM_STRIDED)
        return dA;
    for (i = 0; i < NB; i++)
        ptrs[i] = eptr(c->lu->p, dA, slot(c, i) * stride);
    return put(st, ptrs, NB * sizeof *ptrs);
}

static void poison(int32_t *x, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++)
        x[i] = -99;
}

/* getrf in `mode` on a copy of A0 into F, pivots and info; whether it succeeded. */
static int factor(lu_case *c, int32_t mode, void *F, int32_t *ip, int32_t *jp, int32_t *info)
{
    const prec_t *p = c->lu->p;
    const size_t abytes = NB * c->sa * p->size, pbytes = NB * c->n * sizeof *ip;
    stage_t st = stage_for(c->w);
    void *ptrs[NB], *dA;
    numgpu_status s;
    memcpy(F, c->A0, abytes);
    poison(ip, NB * c->n);
    poison(jp, NB * c->n);
    poison(info, NB);
    dA = put(&st, F, abytes);
    s = c->lu->getrf(c->w->h, c->form, mode, (int64_t)c->n, batch_arg(&st, c, dA, c->sa, ptrs), (int64_t)c->lda,
                     (int64_t)c->sa, put(&st, ip, pbytes), put(&st, jp, pbytes), put(&st, info, sizeof c->info), NB);
    return call_ok(s, back(&st), c->w->name, mode == NUMGPU_FULLPIVOT_GETC2 ? "getrf GETC2" : "getrf STRICT") &&
           outside_same(F, c->A0, p->size, NB * c->sa, c->lda, c->sa, c->n, c->n);
}

/* Whether n pivots of numgpu's equal LAPACK's. */
static int same_pivots(const int32_t *x, const int *y, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        if (x[k] != y[k])
            return 0;
    return 1;
}

/* getrf GETC2 against ?getc2: pivots and info identical, the factors close. */
static void check_getrf(lu_case *c)
{
    const prec_t *p = c->lu->p;
    const size_t n = c->n;
    double worst = 0.0;
    int same = 1;
    size_t i;
    if (!factor(c, NUMGPU_FULLPIVOT_GETC2, c->F, c->ip, c->jp, c->info)) {
        check(0, "%s: %s: getrf GETC2 failed or wrote outside its matrices", c->w->name, c->what);
        return;
    }
    for (i = 0; i < NB; i++) {
        size_t sl = slot(c, i);
        double q = diff_ratio(p, eptr(p, c->F, sl * c->sa), c->lda, eptr(p, c->Fref, sl * c->sa), c->lda, n, n,
                              (double)n);
        same = same && c->info[i] == c->infor[sl] && same_pivots(c->ip + i * n, c->ipr + sl * n, n) &&
               same_pivots(c->jp + i * n, c->jpr + sl * n, n);
        if (!(q <= worst))
            worst = q;
    }
    check(same && worst < TOL, "%s: %s: getrf GETC2 against ?getc2: pivots and info %s, ||F - Fref||_F / (n eps "
          "||Fref||_F) = %.3g", c->w->name, c->what, same ? "identical" : "DIFFER", worst);
}

/* gesc2 on ?getc2's factors against ?gesc2. */
static void check_gesc2(lu_case *c)
{
    const prec_t *p = c->lu->p;
    const size_t n = c->n, rbytes = NB * c->sr * p->size, pbytes = NB * n * sizeof(int32_t);
    void *S = xdup(c->Fref, NB * c->sa * p->size), *X = xdup(c->R0, rbytes), *Xref = xdup(c->R0, rbytes);
    void *scale = xmalloc(NB * p->rsize), *b = xmalloc(n * p->size);
    int32_t *ip = xmalloc(pbytes), *jp = xmalloc(pbytes);
    double sref[NB], worst = 0.0, worst_scale = 0.0;
    stage_t st = stage_for(c->w);
    numgpu_status s;
    size_t i, k;
    for (k = 0; k < NB * n; k++)
        ip[k] = c->ipr[k], jp[k] = c->jpr[k];
    memset(scale, 0xFF, NB * p->rsize);
    for (i = 0; i < NB; i++)
        sref[i] = c->lu->gesc2_ref((int)n, eptr(p, c->Fref, i * c->sa), (int)c->lda, eptr(p, Xref, i * c->sr),
                                   c->ipr + i * n, c->jpr + i * n);
    s = c->lu->gesc2(c->w->h, (int64_t)n, put(&st, S, NB * c->sa * p->size), (int64_t)c->lda, (int64_t)c->sa,
                     put(&st, X, rbytes), (int64_t)c->sr, put(&st, ip, pbytes), put(&st, jp, pbytes),
                     put(&st, scale, NB * p->rsize), NB);
    if (call_ok(s, back(&st), c->w->name, "gesc2")) {
        for (i = 0; i < NB; i++) {
            double sc = rget(p, scale, i), q;
            if (c->infor[i] == 0) { /* scale b - A x, A the unperturbed input */
                for (k = 0; k < n; k++)
                    cset(p, b, k, sc * cget(p, c->R0, i * c->sr + k));
                q = residual(p, NUMGPU_OP_N, eptr(p, c->A0, i * c->sa), c->lda, eptr(p, X, i * c->sr), n, b, n,
                             n, 1, n);
            } else {
                q = diff_ratio(p, eptr(p, X, i * c->sr), n, eptr(p, Xref, i * c->sr), n, n, 1, (double)n);
            }
            if (!(q <= worst))
                worst = q;
            q = ratio_of(fabs(sc - sref[i]), (double)n * p->eps * sref[i]);
            if (!(q <= worst_scale))
                worst_scale = q;
        }
        check(worst < TOL && worst_scale < TOL &&
                  outside_same(X, c->R0, p->size, NB * c->sr, c->sr, c->sr, n, 1) &&
                  memcmp(S, c->Fref, NB * c->sa * p->size) == 0,
              "%s: %s: gesc2 against ?gesc2: x ratio %.3g, scale ratio %.3g, or a gap between the right-hand "
              "sides or A written", c->w->name, c->what, worst, worst_scale);
    }
    free(S);
    free(X);
    free(Xref);
    free(scale);
    free(b);
    free(ip);
    free(jp);
}

/* The worst residual of the solves in X (by slot) of matrices whose info is 0. */
static double worst_residual(const lu_case *c, int32_t trans, const void *X, const int32_t *info)
{
    const prec_t *p = c->lu->p;
    double worst = 0.0;
    size_t i;
    for (i = 0; i < NB; i++) {
        size_t sl = slot(c, i);
        double q;
        if (info[i] != 0) /* a perturbed factorisation solves the perturbed system */
            continue;
        q = residual(p, trans, eptr(p, c->A0, sl * c->sa), c->lda, eptr(p, X, sl * c->sb), c->ldb,
                     eptr(p, c->B0, sl * c->sb), c->ldb, c->n, NRHS, c->n);
        if (!(q <= worst))
            worst = q;
    }
    return worst;
}

/* getrs N, T, C with numgpu's GETC2 factors. */
static void check_getrs(lu_case *c)
{
    const prec_t *p = c->lu->p;
    const size_t abytes = NB * c->sa * p->size, bbytes = NB * c->sb * p->size, pbytes = NB * c->n * sizeof(int32_t);
    int32_t t;
    for (t = NUMGPU_OP_N; t <= NUMGPU_OP_C; t++) {
        void *S = xdup(c->F, abytes), *X = xdup(c->B0, bbytes), *pa[NB], *pb[NB], *dS, *dX;
        stage_t st = stage_for(c->w);
        numgpu_status s;
        dS = put(&st, S, abytes);
        dX = put(&st, X, bbytes);
        s = c->lu->getrs(c->w->h, c->form, t, (int64_t)c->n, NRHS, batch_arg(&st, c, dS, c->sa, pa), (int64_t)c->lda,
                         (int64_t)c->sa, put(&st, c->ip, pbytes), put(&st, c->jp, pbytes),
                         batch_arg(&st, c, dX, c->sb, pb), (int64_t)c->ldb, (int64_t)c->sb, NB);
        if (call_ok(s, back(&st), c->w->name, "getrs")) {
            double q = worst_residual(c, t, X, c->info);
            check(q < TOL && outside_same(X, c->B0, p->size, NB * c->sb, c->ldb, c->sb, c->n, NRHS) &&
                      memcmp(S, c->F, abytes) == 0,
                  "%s: %s: getrs trans %d: ||B - op(A) X||_F / (n eps ||A||_F ||X||_F) = %.3g, or B's padding or "
                  "the factors written", c->w->name, c->what, (int)t, q);
        }
        free(S);
        free(X);
    }
}

/* getrf STRICT: info 0 (every matrix has full rank), ?getc2's pivots for the random ones. */
static void check_strict(lu_case *c)
{
    void *S = xmalloc(NB * c->sa * c->lu->p->size);
    size_t i;
    int ok = factor(c, NUMGPU_FULLPIVOT_STRICT, S, c->ips, c->jps, c->infos);
    for (i = 0; ok && i < NB; i++) {
        size_t sl = slot(c, i);
        ok = c->infos[i] == 0 && (sl == TINY || (same_pivots(c->ips + i * c->n, c->ipr + sl * c->n, c->n) &&
                                                 same_pivots(c->jps + i * c->n, c->jpr + sl * c->n, c->n)));
    }
    check(ok, "%s: %s: getrf STRICT: failed, info not 0, or the pivots of a random matrix differ from ?getc2's",
          c->w->name, c->what);
    free(S);
}

/* gesv: getrf STRICT's info and pivots, and a small residual. */
static void check_gesv(lu_case *c)
{
    const prec_t *p = c->lu->p;
    const size_t n = c->n, abytes = NB * c->sa * p->size, bbytes = NB * c->sb * p->size, pbytes = NB * n * 4;
    void *G = xdup(c->A0, abytes), *X = xdup(c->B0, bbytes), *pa[NB], *pb[NB], *dG, *dX;
    int32_t *ip = xmalloc(pbytes), *jp = xmalloc(pbytes), info[NB];
    stage_t st = stage_for(c->w);
    numgpu_status s;
    poison(ip, NB * n);
    poison(jp, NB * n);
    poison(info, NB);
    dG = put(&st, G, abytes);
    dX = put(&st, X, bbytes);
    s = c->lu->gesv(c->w->h, c->form, (int64_t)n, NRHS, batch_arg(&st, c, dG, c->sa, pa), (int64_t)c->lda,
                    (int64_t)c->sa, put(&st, ip, pbytes), put(&st, jp, pbytes), batch_arg(&st, c, dX, c->sb, pb),
                    (int64_t)c->ldb, (int64_t)c->sb, put(&st, info, sizeof info), NB);
    if (call_ok(s, back(&st), c->w->name, "gesv")) {
        double q = worst_residual(c, NUMGPU_OP_N, X, info);
        check(memcmp(info, c->infos, sizeof info) == 0 && memcmp(ip, c->ips, pbytes) == 0 &&
                  memcmp(jp, c->jps, pbytes) == 0 && q < TOL &&
                  outside_same(X, c->B0, p->size, NB * c->sb, c->ldb, c->sb, n, NRHS) &&
                  outside_same(G, c->A0, p->size, NB * c->sa, c->lda, c->sa, n, n),
              "%s: %s: gesv: info or pivots differ from getrf STRICT's, residual %.3g, or padding written",
              c->w->name, c->what, q);
    }
    free(G);
    free(X);
    free(ip);
    free(jp);
}

static void drop_in(const where_t *w, const lu_t *lu, int form, size_t n)
{
    const prec_t *p = lu->p;
    const double tiny = p->dbl ? 1e-294 : 1e-32;
    lu_case c;
    size_t e;
    memset(&c, 0, sizeof c);
    c.w = w, c.lu = lu, c.form = form, c.n = n;
    c.lda = n + 1, c.sa = c.lda * n + 1, c.ldb = n + 1, c.sb = c.ldb * NRHS + 1, c.sr = n + 1;
    c.A0 = new_matrices(p, NB, c.lda, c.sa, n, n, 1, 0, 777.0);
    for (e = 0; e < c.lda * n; e++) /* the padding keeps its sentinel */
        if (e % c.lda < n)
            cset(p, c.A0, TINY * c.sa + e, cget(p, c.A0, TINY * c.sa + e) * tiny);
    c.B0 = new_matrices(p, NB, c.ldb, c.sb, n, NRHS, 1, 0, 555.0);
    c.R0 = new_matrices(p, NB, c.sr, c.sr, n, 1, 1, 0, 333.0);
    c.Fref = xdup(c.A0, NB * c.sa * p->size);
    c.F = xmalloc(NB * c.sa * p->size);
    c.ipr = xmalloc(NB * n * sizeof *c.ipr), c.jpr = xmalloc(NB * n * sizeof *c.jpr);
    c.ip = xmalloc(NB * n * 4), c.jp = xmalloc(NB * n * 4), c.ips = xmalloc(NB * n * 4), c.jps = xmalloc(NB * n * 4);
    for (e = 0; e < NB; e++)
        lu->getc2_ref((int)n, eptr(p, c.Fref, e * c.sa), (int)c.lda, c.ipr + e * n, c.jpr + e * n, &c.infor[e]);
    snprintf(c.what, sizeof c.what, "%s%s n=%lu", p->letter, form ? " strided" : " pointer-array", (unsigned long)n);

    check_getrf(&c);
    check_gesc2(&c);
    check_getrs(&c);
    check_strict(&c);
    check_gesv(&c);

    free(c.A0);
    free(c.B0);
    free(c.R0);
    free(c.Fref);
    free(c.F);
    free(c.ipr);
    free(c.jpr);
    free(c.ip);
    free(c.jp);
    free(c.ips);
    free(c.jps);
}

static void drop_ins(const where_t *w)
{
    static const size_t NS[] = {1, 8, 33};
    int pi, form;
    size_t ni;
    for (pi = 0; pi < 4; pi++)
        for (form = FORM_ARRAY; form <= FORM_STRIDED; form++)
            for (ni = 0; ni < sizeof NS / sizeof NS[0]; ni++)
                drop_in(w, &LUS[pi], form, NS[ni]);
}

int main(void)
{
    return run_program("test_getrf", argument_checks, drop_ins);
}
