/* numgpu_{s,d,c,z}potrf_batched, potrs_batched, posv_batched (both forms) as a drop-in for a
 * loop of LAPACKE_?potrf / ?posv calls: batches of NB Hermitian positive definite matrices
 * A = M·Mᴴ + n·I (the middle one indefinite at k = n/2 + 1: A(k, k) = −1), n in {1, 8, 33,
 * 100}, uplo lower and upper, padded leading dimensions, gaps, and NaN in the triangle the call
 * must not read. Against LAPACKE per matrix: info identical; the factor's triangle (for
 * info = k its leading (k − 1) × (k − 1) block, all a blocked LAPACK finishes) within
 * ||F − Fref||_F / (n eps ||Fref||_F)
 * < 30; posv's and potrs's X with a backward error ||B − A X||_F / (n eps ||A||_F ||X||_F)
 * < 30, B bitwise unchanged where info > 0; potrs with strideA 0 (one factor for the batch);
 * the other triangle, padding and gaps bitwise unchanged. The argument checks name their
 * argument and write nothing. Host arrays and numgpu_malloc memory; pointer arrays in reverse.
 */
#include "numgpu_test.h"
#include <lapacke.h>

enum { NB = 3, NRHS = 2 };
enum form { FORM_ARRAY, FORM_STRIDED };

typedef struct {
    const prec_t *p;
    numgpu_status (*potrf)(numgpu_handle *h, int form, int32_t uplo, int64_t n, void *A, int64_t lda, int64_t sA,
                           int32_t *info, int64_t batch);
    numgpu_status (*potrs)(numgpu_handle *h, int form, int32_t uplo, int64_t n, int64_t nrhs, const void *A,
                           int64_t lda, int64_t sA, void *B, int64_t ldb, int64_t sB, int64_t batch);
    numgpu_status (*posv)(numgpu_handle *h, int form, int32_t uplo, int64_t n, int64_t nrhs, void *A, int64_t lda,
                          int64_t sA, void *B, int64_t ldb, int64_t sB, int32_t *info, int64_t batch);
    int (*potrf_ref)(char uplo, int n, void *a);
    int (*posv_ref)(char uplo, int n, int nrhs, void *a, void *b);
} chol_t;

/* FORM_ARRAY: A and B are arrays of matrix pointers (strides ignored); FORM_STRIDED: the
 * first matrices, sA and sB elements apart. LAPACKE in column-major order, lda = n. */
#define CHOL_PRECISION(P, T, LT)                                                                                   \
    static numgpu_status P##_potrf(numgpu_handle *h, int form, int32_t uplo, int64_t n, void *A, int64_t lda,     \
                                   int64_t sA, int32_t *info, int64_t batch)                                      \
    {                                                                                                              \
        if (form == FORM_ARRAY)                                                                                    \
            return numgpu_##P##potrf_batched(h, uplo, n, (T *const *)A, lda, info, batch);                        \
        return numgpu_##P##potrf_batched_strided(h, uplo, n, (T *)A, lda, sA, info, batch);                       \
    }                                                                                                              \
    static numgpu_status P##_potrs(numgpu_handle *h, int form, int32_t uplo, int64_t n, int64_t nrhs,             \
                                   const void *A, int64_t lda, int64_t sA, void *B, int64_t ldb, int64_t sB,      \
                                   int64_t batch)                                                                 \
    {                                                                                                              \
        if (form == FORM_ARRAY)                                                                                    \
            return numgpu_##P##potrs_batched(h, uplo, n, nrhs, (const T *const *)A, lda, (T *const *)B, ldb,      \
                                             batch);                                                               \
        return numgpu_##P##potrs_batched_strided(h, uplo, n, nrhs, (const T *)A, lda, sA, (T *)B, ldb, sB, batch); \
    }                                                                                                              \
    static numgpu_status P##_posv(numgpu_handle *h, int form, int32_t uplo, int64_t n, int64_t nrhs, void *A,     \
                                  int64_t lda, int64_t sA, void *B, int64_t ldb, int64_t sB, int32_t *info,       \
                                  int64_t batch)                                                                  \
    {                                                                                                              \
        if (form == FORM_ARRAY)                                                                                    \
            return numgpu_##P##posv_batched(h, uplo, n, nrhs, (T *const *)A, lda, (T *const *)B, ldb, info,       \
                                            batch);                                                                \
        return numgpu_##P##posv_batched_strided(h, uplo, n, nrhs, (T *)A, lda, sA, (T *)B, ldb, sB, info, batch); \
    }                                                                                                              \
    static int P##_potrf_ref(char uplo, int n, void *a)                                                           \
    {                                                                                                              \
        return (int)LAPACKE_##P##potrf(LAPACK_COL_MAJOR, uplo, n, (LT *)a, n);                                    \
    }                                                                                                              \
    static int P##_posv_ref(char uplo, int n, int nrhs, void *a, void *b)                                         \
    {                                                                                                              \
        return (int)LAPACKE_##P##posv(LAPACK_COL_MAJOR, uplo, n, nrhs, (LT *)a, n, (LT *)b, n);                  \
    }

CHOL_PRECISION(s, float, float)
CHOL_PRECISION(d, double, double)
CHOL_PRECISION(c, numgpu_complex_float, lapack_complex_float)
CHOL_PRECISION(z, numgpu_complex_double, lapack_complex_double)

#define CHOL_ENTRY(P, I) {&PRECS[I], P##_potrf, P##_potrs, P##_posv, P##_potrf_ref, P##_posv_ref}
static const chol_t CHOLS[4] = {CHOL_ENTRY(s, 0), CHOL_ENTRY(d, 1), CHOL_ENTRY(c, 2), CHOL_ENTRY(z, 3)};

/* Whether (i, j) lies in the triangle uplo names. */
static int in_tri(int32_t uplo, size_t i, size_t j)
{
    return uplo == NUMGPU_UPLO_LOWER ? i >= j : i <= j;
}

/* One case: NB compact full matrices (the middle one indefinite), their strided copy with
 * NaN outside the triangle, and right-hand sides. */
typedef struct {
    const chol_t *c;
    const where_t *w;
    int32_t uplo;
    char ul;
    size_t n, lda, sa, ldb, sb;
    void *full; /* NB compact n x n */
    void *A0;   /* strided, NaN outside the triangle */
    void *B0;   /* strided right-hand sides */
    int k;      /* the middle matrix's indefinite order */
} case_t;

static case_t make_case(const where_t *w, const chol_t *c, int32_t uplo, size_t n)
{
    const prec_t *p = c->p;
    case_t k;
    size_t i, r, j;
    void *M = xmalloc(n * n * p->size + 1);
    memset(&k, 0, sizeof k);
    k.c = c;
    k.w = w;
    k.uplo = uplo;
    k.ul = uplo == NUMGPU_UPLO_LOWER ? 'L' : 'U';
    k.n = n;
    k.lda = n + 2;
    k.sa = k.lda * n + 3;
    k.ldb = n + 1;
    k.sb = k.ldb * NRHS + 2;
    k.k = (int)(n / 2 + 1);
    k.full = xmalloc(NB * n * n * p->size + 1);
    for (i = 0; i < NB; i++) {
        void *Ai = eptr(p, k.full, i * n * n);
        for (r = 0; r < n * n; r++)
            cset(p, M, r, rnd_elem());
        p->gemm(NUMGPU_OP_N, NUMGPU_OP_C, (int)n, (int)n, (int)n, 1.0, M, (int)n, M, (int)n, 0.0, Ai, (int)n);
        for (r = 0; r < n; r++)
            cset(p, Ai, r * (n + 1), creal(cget(p, Ai, r * (n + 1))) + (double)n);
        if (i == 1)
            cset(p, Ai, (size_t)(k.k - 1) * (n + 1), -1.0);
    }
    k.A0 = new_matrices(p, NB, k.lda, k.sa, n, n, 0, CNAN, CNAN);
    for (i = 0; i < NB; i++)
        for (j = 0; j < n; j++)
            for (r = 0; r < n; r++)
                if (in_tri(uplo, r, j))
                    cset(p, k.A0, i * k.sa + r + j * k.lda, cget(p, k.full, i * n * n + r + j * n));
    k.B0 = new_matrices(p, NB, k.ldb, k.sb, n, NRHS, 1, 0, CNAN);
    free(M);
    return k;
}

static void free_case(case_t *k)
{
    free(k->full);
    free(k->A0);
    free(k->B0);
}

/* The factor's triangle of matrix i (strided, leading dimension ld) restricted to its leading
 * `cols` × `cols` block, compact with zeros elsewhere. */
static void *factor_part(const case_t *k, const void *F, size_t ld, size_t cols)
{
    const prec_t *p = k->c->p;
    size_t n = k->n, r, j;
    void *out = new_buffer(p, n * n, 0, 0);
    for (j = 0; j < n; j++)
        for (r = 0; r < n; r++)
            if (in_tri(k->uplo, r, j) && r < cols && j < cols)
                cset(p, out, r + j * n, cget(p, F, r + j * ld));
    return out;
}

/* The matrices' elements outside the triangle (and padding, gaps) bitwise unchanged. */
static int others_same(const case_t *k, const void *now)
{
    const prec_t *p = k->c->p;
    size_t i, r, j;
    for (i = 0; i < NB; i++)
        for (j = 0; j < k->n; j++)
            for (r = 0; r < k->n; r++) {
                size_t e = i * k->sa + r + j * k->lda;
                if (!in_tri(k->uplo, r, j) && memcmp(eptr(p, now, e), eptr(p, k->A0, e), p->size) != 0)
                    return 0;
            }
    return outside_same(now, k->A0, p->size, NB * k->sa, k->lda, k->sa, k->n, k->n);
}

/* The A (or B) argument: the strided base, or a pointer array to the matrices in reverse
 * order (staged when the matrices are). */
static void *batch_arg(stage_t *st, int form, void *base, const prec_t *p, size_t stride, void **ptrs)
{
    int i;
    if (form == FORM_STRIDED)
        return base;
    for (i = 0; i < NB; i++)
        ptrs[i] = eptr(p, base, (size_t)(NB - 1 - i) * stride);
    return put(st, ptrs, NB * sizeof(void *));
}

/* Matrix index the call's position `i` refers to. */
static size_t matrix_of(int form, size_t i)
{
    return form == FORM_ARRAY ? NB - 1 - i : i;
}

static void run_potrf(const case_t *k, int form)
{
    const prec_t *p = k->c->p;
    size_t n = k->n, abytes = NB * k->sa * p->size, i;
    void *F = xdup(k->A0, abytes), *pa[NB];
    int32_t info[NB] = {-7, -7, -7};
    stage_t st = stage_for(k->w);
    const char *fail;
    char what[96];
    numgpu_status s;
    snprintf(what, sizeof what, "numgpu_%spotrf_batched%s uplo %c n=%lu", p->letter, form ? "_strided" : "", k->ul,
             (unsigned long)n);
    s = k->c->potrf(k->w->h, form, k->uplo, (int64_t)n, batch_arg(&st, form, put(&st, F, abytes), p, k->sa, pa),
                    (int64_t)k->lda, (int64_t)k->sa, put(&st, info, sizeof info), NB);
    fail = back(&st);
    if (call_ok(s, fail, k->w->name, what)) {
        check(others_same(k, F), "%s: %s: the other triangle, padding or gaps written", k->w->name, what);
        for (i = 0; i < NB; i++) {
            size_t m = matrix_of(form, i);
            void *ref = xdup(eptr(p, k->full, m * n * n), n * n * p->size);
            int rinfo = k->c->potrf_ref(k->ul, (int)n, ref);
            size_t cols = rinfo > 0 ? (size_t)rinfo - 1 : n;
            void *got = factor_part(k, eptr(p, F, m * k->sa), k->lda, cols), *want = factor_part(k, ref, n, cols);
            double r = diff_ratio(p, got, n, want, n, n, n, (double)n);
            check(info[i] == rinfo, "%s: %s matrix %lu: info %d, LAPACKE_%spotrf's %d", k->w->name, what,
                  (unsigned long)m, (int)info[i], p->letter, rinfo);
            check(r < TOL, "%s: %s matrix %lu: factor (leading %lu columns) differs from LAPACKE's: ratio %.2f",
                  k->w->name, what, (unsigned long)m, (unsigned long)cols, r);
            free(ref);
            free(got);
            free(want);
        }
    }
    free(F);
}

static void run_posv(const case_t *k, int form)
{
    const prec_t *p = k->c->p;
    size_t n = k->n, abytes = NB * k->sa * p->size, bbytes = NB * k->sb * p->size, i;
    void *F = xdup(k->A0, abytes), *X = xdup(k->B0, bbytes), *pa[NB], *pb[NB], *dF, *dX;
    int32_t info[NB] = {-7, -7, -7};
    stage_t st = stage_for(k->w);
    const char *fail;
    char what[96];
    numgpu_status s;
    snprintf(what, sizeof what, "numgpu_%sposv_batched%s uplo %c n=%lu", p->letter, form ? "_strided" : "", k->ul,
             (unsigned long)n);
    dF = put(&st, F, abytes);
    dX = put(&st, X, bbytes);
    s = k->c->posv(k->w->h, form, k->uplo, (int64_t)n, NRHS, batch_arg(&st, form, dF, p, k->sa, pa), (int64_t)k->lda,
                   (int64_t)k->sa, batch_arg(&st, form, dX, p, k->sb, pb), (int64_t)k->ldb, (int64_t)k->sb,
                   put(&st, info, sizeof info), NB);
    fail = back(&st);
    if (call_ok(s, fail, k->w->name, what))
        for (i = 0; i < NB; i++) {
            size_t m = matrix_of(form, i), r;
            void *ra = xdup(eptr(p, k->full, m * n * n), n * n * p->size), *rb = xmalloc(n * NRHS * p->size + 1);
            int rinfo;
            for (r = 0; r < NRHS; r++)
                memcpy(eptr(p, rb, r * n), eptr(p, k->B0, m * k->sb + r * k->ldb), n * p->size);
            rinfo = k->c->posv_ref(k->ul, (int)n, NRHS, ra, rb);
            check(info[i] == rinfo, "%s: %s matrix %lu: info %d, LAPACKE_%sposv's %d", k->w->name, what,
                  (unsigned long)m, (int)info[i], p->letter, rinfo);
            if (rinfo > 0) {
                check(memcmp(eptr(p, X, m * k->sb), eptr(p, k->B0, m * k->sb), k->sb * p->size) == 0,
                      "%s: %s matrix %lu: B changed where info > 0", k->w->name, what, (unsigned long)m);
            } else {
                double res = residual(p, NUMGPU_OP_N, eptr(p, k->full, m * n * n), n, eptr(p, X, m * k->sb), k->ldb,
                                      eptr(p, k->B0, m * k->sb), k->ldb, n, NRHS, n);
                check(res < TOL, "%s: %s matrix %lu: backward error %.2f", k->w->name, what, (unsigned long)m, res);
            }
            free(ra);
            free(rb);
        }
    free(F);
    free(X);
}

/* potrs with strideA 0: matrix 0's LAPACKE factor for every right-hand side block. */
static void run_potrs_shared(const case_t *k)
{
    const prec_t *p = k->c->p;
    size_t n = k->n, bbytes = NB * k->sb * p->size, i;
    void *ref = xdup(k->full, n * n * p->size), *X = xdup(k->B0, bbytes);
    stage_t st = stage_for(k->w);
    const char *fail;
    char what[96];
    numgpu_status s;
    snprintf(what, sizeof what, "numgpu_%spotrs_batched_strided strideA 0 uplo %c n=%lu", p->letter, k->ul,
             (unsigned long)n);
    k->c->potrf_ref(k->ul, (int)n, ref);
    s = k->c->potrs(k->w->h, FORM_STRIDED, k->uplo, (int64_t)n, NRHS, put(&st, ref, n * n * p->size), (int64_t)n, 0,
                    put(&st, X, bbytes), (int64_t)k->ldb, (int64_t)k->sb, NB);
    fail = back(&st);
    if (call_ok(s, fail, k->w->name, what)) {
        check(outside_same(X, k->B0, p->size, NB * k->sb, k->ldb, k->sb, n, NRHS), "%s: %s: B padding written",
              k->w->name, what);
        for (i = 0; i < NB; i++) {
            double res = residual(p, NUMGPU_OP_N, k->full, n, eptr(p, X, i * k->sb), k->ldb, eptr(p, k->B0, i * k->sb),
                                  k->ldb, n, NRHS, n);
            check(res < TOL, "%s: %s block %lu: backward error %.2f", k->w->name, what, (unsigned long)i, res);
        }
    }
    free(ref);
    free(X);
}

static void drop_ins(const where_t *w)
{
    static const size_t sizes[] = {1, 8, 33, 100};
    int pi, u, form;
    size_t si;
    for (pi = 0; pi < 4; pi++)
        for (u = 0; u < 2; u++)
            for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                case_t k = make_case(w, &CHOLS[pi], u ? NUMGPU_UPLO_UPPER : NUMGPU_UPLO_LOWER, sizes[si]);
                for (form = 0; form < 2; form++) {
                    run_potrf(&k, form);
                    run_posv(&k, form);
                }
                run_potrs_shared(&k);
                free_case(&k);
            }
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    double A[2 * 9] = {4, 1, 0, 1, 4, 1, 0, 1, 4, 4, 1, 0, 1, 4, 1, 0, 1, 4}, A0[18], B[6] = {1, 2, 3, 4, 5, 6}, B0[6];
    double *pa[2] = {A, A}, *pb[2] = {B, B + 3};
    int32_t info[2] = {-7, -7};
    const char *f = "numgpu_dpotrf_batched", *fs = "numgpu_dpotrf_batched_strided", *r = "numgpu_dpotrs_batched",
               *v = "numgpu_dposv_batched_strided";
    memcpy(A0, A, sizeof A);
    memcpy(B0, B, sizeof B);
#define UNTOUCHED (memcmp(A, A0, sizeof A) == 0 && memcmp(B, B0, sizeof B) == 0 && info[0] == -7 && info[1] == -7)
    expect_invalid(numgpu_dpotrf_batched_strided(h, 2, 3, A, 3, 9, info, 2), fs, 2, "uplo", UNTOUCHED, hname,
                   "uplo 2");
    expect_invalid(numgpu_dpotrf_batched_strided(h, NUMGPU_UPLO_LOWER, 3, A, 2, 9, info, 2), fs, 5, "lda", UNTOUCHED,
                   hname, "lda < n");
    expect_invalid(numgpu_dpotrf_batched_strided(h, NUMGPU_UPLO_UPPER, 3, A, 3, 9, NULL, 2), fs, 7, "info",
                   UNTOUCHED, hname, "NULL info");
    expect_invalid(numgpu_dpotrf_batched(h, NUMGPU_UPLO_LOWER, 3, pa, 3, info, 2), f, 4, "A", UNTOUCHED, hname,
                   "a pointer array repeating a matrix");
    expect_invalid(numgpu_dpotrs_batched(h, NUMGPU_UPLO_LOWER, 3, 1, (const double *const *)pa, 3, pb, 2, 2), r, 8,
                   "ldb", UNTOUCHED, hname, "ldb < n");
    expect_invalid(numgpu_dposv_batched_strided(h, NUMGPU_UPLO_LOWER, 3, 1, A, 3, 0, B, 3, 3, info, 2), v, 7,
                   "strideA", UNTOUCHED, hname, "posv strideA 0");
#undef UNTOUCHED
    expect_status(numgpu_dpotrf_batched_strided(h, NUMGPU_UPLO_LOWER, 0, A, 1, 0, info, 2), NUMGPU_SUCCESS, fs, 0, "",
                  info[0] == -7 && info[1] == -7, hname, "n = 0 touches nothing");
}

int main(void)
{
    return run_program("test_potrf", argument_checks, drop_ins);
}
