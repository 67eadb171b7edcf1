/* test_gemm: numgpu_?gemm_batched and numgpu_?gemm_batched_strided as a C user replacing a
 * loop of cblas_?gemm calls sees them.
 *
 *  - the argument checks of both forms (four precisions): one bad value per argument gives
 *    NUMGPU_INVALID_VALUE, numgpu_last_error_arg() names the argument (1-based, LAPACK's
 *    -info), the message names it too, and C is bitwise untouched; a size beyond 32 bits
 *    arrives whole (int64_t); alpha = 0 / k = 0 accept NULL A and B; m, n or batch = 0 succeed
 *    with NULL arrays;
 *  - the drop-in comparison: every op pair (N, T, C), complex scalars, beta = 0 over NaN in C,
 *    a batch of 3 with padded leading dimensions and gaps between the matrices (the pointer
 *    arrays point at A and C in reverse order), against cblas_?gemm per matrix:
 *    ||C - Cref||_F / ((k + 2) eps ||Cref||_F) < 30; the padding and gaps of C and all of A
 *    and B bitwise unchanged;
 * on the AUTO handle (CUDA on a GPU host) with host arrays and with numgpu_malloc memory (device
 * pointers there, pointer arrays included) and on a CPU handle.
 *
 * Prints "test_gemm: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include "numgpu_test.h"

enum form { FORM_ARRAY, FORM_STRIDED };

/* numgpu_?gemm_batched (FORM_ARRAY: A, B, C are arrays of matrix pointers) or
 * numgpu_?gemm_batched_strided (A, B, C the first matrices, sA, sB, sC elements apart), with
 * the scalars as double complex. */
typedef numgpu_status (*gemm_fn)(numgpu_handle *h, int form, int32_t ta, int32_t tb, int64_t m, int64_t n,
                                 int64_t k, dcx alpha, const void *A, int64_t lda, int64_t sA, const void *B,
                                 int64_t ldb, int64_t sB, dcx beta, void *C, int64_t ldc, int64_t sC, int64_t batch);

#define GEMM(P, T, SCALAR)                                                                                        \
    static numgpu_status P##_gemm(numgpu_handle *h, int form, int32_t ta, int32_t tb, int64_t m, int64_t n,      \
                                  int64_t k, dcx alpha, const void *A, int64_t lda, int64_t sA, const void *B,   \
                                  int64_t ldb, int64_t sB, dcx beta, void *C, int64_t ldc, int64_t sC,           \
                                  int64_t batch)                                                                 \
    {                                                                                                             \
        if (form == FORM_ARRAY)                                                                                   \
            return numgpu_##P##gemm_batched(h, ta, tb, m, n, k, SCALAR(alpha), (const T *const *)A, lda,          \
                                            (const T *const *)B, ldb, SCALAR(beta), (T *const *)C, ldc, batch);   \
        return numgpu_##P##gemm_batched_strided(h, ta, tb, m, n, k, SCALAR(alpha), (const T *)A, lda, sA,         \
                                                (const T *)B, ldb, sB, SCALAR(beta), (T *)C, ldc, sC, batch);     \
    }
#define REAL_F(x) ((float)creal(x))
#define REAL_D(x) (creal(x))
#define CPLX_F(x) ((numgpu_complex_float){(float)creal(x), (float)cimag(x)})
#define CPLX_D(x) ((numgpu_complex_double){creal(x), cimag(x)})
GEMM(s, float, REAL_F)
GEMM(d, double, REAL_D)
GEMM(c, numgpu_complex_float, CPLX_F)
GEMM(z, numgpu_complex_double, CPLX_D)
static const gemm_fn GEMMS[4] = {s_gemm, d_gemm, c_gemm, z_gemm};

static const char OPC[3] = {'N', 'T', 'C'};

/* ---- argument checks ------------------------------------------------------------------ */

/* All arguments of one call; the pointer form builds its pointer arrays from A, B, C and
 * the strides (matrix i at X + i * sX). */
typedef struct {
    numgpu_handle *h;
    int32_t ta, tb;
    int64_t m, n, k;
    dcx alpha;
    void *A;
    int64_t lda, sA;
    void *B;
    int64_t ldb, sB;
    dcx beta;
    void *C;
    int64_t ldc, sC;
    int64_t batch;
    char null_entry; /* pointer form: 'A', 'B' or 'C' gets a NULL entry at index 1 */
} gargs;

enum field { F_NONE, F_H, F_TA, F_TB, F_M, F_N, F_K, F_ALPHA, F_A, F_LDA, F_SA, F_B, F_LDB, F_SB, F_C,
             F_LDC, F_SC, F_BATCH, F_ENTRY };

static void set_field(gargs *g, enum field f, int64_t v)
{
    switch (f) {
    case F_NONE: break;
    case F_H: g->h = NULL; break;
    case F_TA: g->ta = (int32_t)v; break;
    case F_TB: g->tb = (int32_t)v; break;
    case F_M: g->m = v; break;
    case F_N: g->n = v; break;
    case F_K: g->k = v; break;
    case F_ALPHA: g->alpha = (double)v; break;
    case F_A: g->A = NULL; break;
    case F_LDA: g->lda = v; break;
    case F_SA: g->sA = v; break;
    case F_B: g->B = NULL; break;
    case F_LDB: g->ldb = v; break;
    case F_SB: g->sB = v; break;
    case F_C: g->C = NULL; break;
    case F_LDC: g->ldc = v; break;
    case F_SC: g->sC = v; break;
    case F_BATCH: g->batch = v; break;
    case F_ENTRY: g->null_entry = (char)v; break;
    }
}

static numgpu_status call(const prec_t *p, int form, const gargs *g)
{
    void *Ap[4], *Bp[4], *Cp[4];
    int64_t i;
    if (form == FORM_STRIDED)
        return GEMMS[p - PRECS](g->h, form, g->ta, g->tb, g->m, g->n, g->k, g->alpha, g->A, g->lda, g->sA, g->B,
                                g->ldb, g->sB, g->beta, g->C, g->ldc, g->sC, g->batch);
    for (i = 0; i < 4; i++) {
        Ap[i] = g->A ? eptr(p, g->A, (size_t)(i * g->sA)) : NULL;
        Bp[i] = g->B ? eptr(p, g->B, (size_t)(i * g->sB)) : NULL;
        Cp[i] = g->C ? eptr(p, g->C, (size_t)(i * g->sC)) : NULL;
    }
    if (g->null_entry == 'A') Ap[1] = NULL;
    if (g->null_entry == 'B') Bp[1] = NULL;
    if (g->null_entry == 'C') Cp[1] = NULL;
    return GEMMS[p - PRECS](g->h, form, g->ta, g->tb, g->m, g->n, g->k, g->alpha, g->A ? Ap : NULL, g->lda, 0,
                            g->B ? Bp : NULL, g->ldb, 0, g->beta, g->C ? Cp : NULL, g->ldc, 0, g->batch);
}

/* One bad call: up to two fields changed from the valid base call, the expected argument
 * position in the pointer form and in the strided form (0: not applicable to that form), and
 * text the message must contain. */
typedef struct {
    enum field f1;
    int64_t v1;
    enum field f2;
    int64_t v2;
    int pos_array, pos_strided;
    const char *needle;
} bad_case;

/* Base call: m = 4, n = 5, k = 3, ops N, N, lda = 4, ldb = 3, ldc = 4, batch = 2. */
static const bad_case BAD[] = {
    {F_H, 0, F_NONE, 0, 1, 1, "(h) must not be NULL"},
    {F_TA, 3, F_NONE, 0, 2, 2, "(transa = 3)"},
    {F_TA, -1, F_NONE, 0, 2, 2, "(transa = -1)"},
    {F_TB, 7, F_NONE, 0, 3, 3, "(transb = 7)"},
    {F_M, -1, F_NONE, 0, 4, 4, "(m = -1)"},
    {F_N, -1, F_NONE, 0, 5, 5, "(n = -1)"},
    {F_K, -1, F_NONE, 0, 6, 6, "(k = -1)"},
    {F_LDA, 3, F_NONE, 0, 9, 9, "(lda = 3) must be >= max(1, m) = 4"},
    {F_LDA, 0, F_M, 0, 9, 9, "(lda = 0) must be >= max(1, m) = 1"},
    {F_TA, NUMGPU_OP_T, F_LDA, 2, 9, 9, "(lda = 2) must be >= max(1, k) = 3"},
    {F_SA, 11, F_NONE, 0, 0, 10, "(strideA = 11)"},
    {F_SA, -1, F_NONE, 0, 0, 10, "(strideA = -1)"},
    {F_LDB, 2, F_NONE, 0, 11, 12, "(ldb = 2) must be >= max(1, k) = 3"},
    {F_TB, NUMGPU_OP_C, F_LDB, 4, 11, 12, "(ldb = 4) must be >= max(1, n) = 5"},
    {F_SB, 14, F_NONE, 0, 0, 13, "(strideB = 14)"},
    {F_LDC, 3, F_NONE, 0, 14, 16, "(ldc = 3) must be >= max(1, m) = 4"},
    {F_SC, 19, F_NONE, 0, 0, 17, "(strideC = 19)"},
    {F_SC, 0, F_NONE, 0, 0, 17, "(strideC = 0)"},
    {F_BATCH, -1, F_NONE, 0, 15, 18, "(batch = -1)"},
    {F_A, 0, F_NONE, 0, 8, 8, "(A) must not be NULL"},
    {F_B, 0, F_NONE, 0, 10, 11, "(B) must not be NULL"},
    {F_C, 0, F_NONE, 0, 13, 15, "(C) must not be NULL"},
    {F_C, 0, F_ALPHA, 0, 13, 15, "(C) must not be NULL"},
    {F_ENTRY, 'A', F_NONE, 0, 8, 0, "(A[1]) must not be NULL"},
    {F_ENTRY, 'B', F_NONE, 0, 10, 0, "(B[1]) must not be NULL"},
    {F_ENTRY, 'C', F_NONE, 0, 13, 0, "(C[1]) must not be NULL"},
    /* 2^32 + 4 - 2^33: 4 if it were cut to 32 bits. */
    {F_M, INT64_C(-4294967292), F_NONE, 0, 4, 4, "(m = -4294967292)"},
};

/* Valid calls that must succeed although some arrays are NULL, because they are not read. */
static const bad_case GOOD[] = {
    {F_ALPHA, 0, F_A, 0, 0, 0, "alpha = 0, A = NULL"},
    {F_ALPHA, 0, F_B, 0, 0, 0, "alpha = 0, B = NULL"},
    {F_K, 0, F_A, 0, 0, 0, "k = 0, A = NULL"},
    {F_K, 0, F_B, 0, 0, 0, "k = 0, B = NULL"},
    {F_M, 0, F_C, 0, 0, 0, "m = 0, C = NULL"},
    {F_N, 0, F_C, 0, 0, 0, "n = 0, C = NULL"},
    {F_BATCH, 0, F_C, 0, 0, 0, "batch = 0, C = NULL"},
    {F_BATCH, 1, F_SC, 0, 0, 0, "batch = 1, strideC = 0 (strides only checked when batch > 1)"},
    {F_SA, 0, F_SB, 0, 0, 0, "strideA = strideB = 0"},
};

static void argument_checks(numgpu_handle *h, const char *hname)
{
    enum { LEN = 64 };
    int pi, form;
    size_t i;
    for (pi = 0; pi < 4; pi++)
        for (form = FORM_ARRAY; form <= FORM_STRIDED; form++) {
            const prec_t *p = &PRECS[pi];
            void *A = new_buffer(p, LEN, 1, 0), *B = new_buffer(p, LEN, 1, 0);
            void *C = new_buffer(p, LEN, 1, 0), *C0 = xdup(C, LEN * p->size);
            char fname[64];
            gargs base = {NULL, NUMGPU_OP_N, NUMGPU_OP_N, 4, 5, 3, 1.0 + 0.5 * I, NULL, 4, 12, NULL, 3, 15,
                          0.5, NULL, 4, 20, 2, 0};
            base.h = h, base.A = A, base.B = B, base.C = C;
            snprintf(fname, sizeof fname, "numgpu_%sgemm_batched%s", p->letter, form ? "_strided" : "");
            for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
                const bad_case *b = &BAD[i];
                int pos = form ? b->pos_strided : b->pos_array;
                gargs g = base;
                char what[32];
                numgpu_status st;
                if (pos == 0)
                    continue;
                set_field(&g, b->f1, b->v1);
                set_field(&g, b->f2, b->v2);
                st = call(p, form, &g);
                snprintf(what, sizeof what, "bad case %lu", (unsigned long)i);
                expect_invalid(st, fname, pos, b->needle, memcmp(C, C0, LEN * p->size) == 0, hname, what);
            }
            for (i = 0; i < sizeof GOOD / sizeof GOOD[0]; i++) {
                gargs g = base;
                set_field(&g, GOOD[i].f1, GOOD[i].v1);
                set_field(&g, GOOD[i].f2, GOOD[i].v2);
                expect_status(call(p, form, &g), NUMGPU_SUCCESS, fname, 0, "", 1, hname, GOOD[i].needle);
            }
            {
                /* m = n = k = 0 and batch = 0 with every array NULL. */
                gargs g = base;
                g.A = g.B = g.C = NULL, g.m = g.n = g.k = 0, g.lda = g.ldb = g.ldc = 1;
                expect_status(call(p, form, &g), NUMGPU_SUCCESS, fname, 0, "", 1, hname,
                              "m = n = k = 0 with NULL arrays");
                g.m = 4, g.n = 5, g.k = 3, g.lda = 4, g.ldb = 3, g.ldc = 4, g.batch = 0;
                expect_status(call(p, form, &g), NUMGPU_SUCCESS, fname, 0, "", 1, hname, "batch = 0 with NULL arrays");
            }
            free(A);
            free(B);
            free(C);
            free(C0);
        }
}

/* ---- the drop-in comparison ----------------------------------------------------------- */

typedef struct {
    int64_t m, n, k;
    dcx alpha, beta;
} gemm_case;

/* Shapes and scalars, one per op pair (real precisions use the real parts). */
static const gemm_case CASES[9] = {
    {1, 1, 1, 1.0, 0.0},             /* C = op(A) op(B); C holds NaN before the call */
    {9, 13, 17, 0.5 - 1.5 * I, 0.25 + 2.0 * I},
    {33, 32, 5, 0.0, -2.0 + 0.5 * I}, /* alpha = 0: C = beta C */
    {17, 4, 33, 2.0 + 1.0 * I, 0.0},
    {4, 5, 0, -1.0, 1.0},            /* k = 0: C = beta C */
    {1, 40, 2, 1.0, 1.0},
    {33, 1, 64, -1.0 + 0.5 * I, 0.5},
    {8, 8, 8, 0.0, 0.0},             /* C = 0 exactly, NaN in C must not survive */
    {31, 32, 33, 1.0, -1.0},
};

static size_t max1(size_t x)
{
    return x > 1 ? x : 1;
}

/* One batch of 3 products against cblas_?gemm per matrix. */
static void drop_in(const where_t *w, const prec_t *p, int form, int32_t ta, int32_t tb, const gemm_case *c)
{
    enum { NB = 3, GAP = 1 };
    const size_t m = (size_t)c->m, n = (size_t)c->n, k = (size_t)c->k;
    const size_t ar = ta == NUMGPU_OP_N ? m : k, ac = ta == NUMGPU_OP_N ? k : m;
    const size_t br = tb == NUMGPU_OP_N ? k : n, bc = tb == NUMGPU_OP_N ? n : k;
    const size_t lda = max1(ar) + GAP, ldb = max1(br) + GAP, ldc = max1(m) + GAP;
    const size_t sa = lda * ac + GAP, sb = ldb * bc + GAP, sc = ldc * n + GAP;
    const int beta0 = c->beta == 0.0;
    /* NaN outside the matrices of A and B (never read), and inside C when beta = 0. */
    void *A = new_matrices(p, NB, lda, sa, ar, ac, 1, 0, CNAN), *B = new_matrices(p, NB, ldb, sb, br, bc, 1, 0, CNAN);
    void *C = new_matrices(p, NB, ldc, sc, m, n, !beta0, CNAN, 777.0);
    void *A0 = xdup(A, NB * sa * p->size), *B0 = xdup(B, NB * sb * p->size), *C0 = xdup(C, NB * sc * p->size);
    void *Cref = xdup(C, NB * sc * p->size);
    void *Ap[NB], *Bp[NB], *Cp[NB];
    stage_t st = stage_for(w);
    char what[200];
    double worst = 0.0;
    numgpu_status s;
    size_t i, e;

    /* Product i reads A slot ia(i), B slot i and writes C slot ia(i): the pointer arrays point
     * at A and C in reverse order. */
    for (i = 0; i < NB; i++) {
        size_t ia = form == FORM_ARRAY ? NB - 1 - i : i;
        if (beta0)
            for (e = 0; e < ldc * n; e++)
                cset(p, Cref, ia * sc + e, e % ldc < m ? 0.0 : 777.0);
        if (m > 0 && n > 0)
            p->gemm(ta, tb, (int)m, (int)n, (int)k, c->alpha, eptr(p, A, ia * sa), (int)lda, eptr(p, B, i * sb),
                    (int)ldb, c->beta, eptr(p, Cref, ia * sc), (int)ldc);
    }
    {
        void *dA = put(&st, A, NB * sa * p->size), *dB = put(&st, B, NB * sb * p->size);
        void *dC = put(&st, C, NB * sc * p->size);
        for (i = 0; i < NB; i++) {
            Ap[i] = eptr(p, dA, (NB - 1 - i) * sa);
            Bp[i] = eptr(p, dB, i * sb);
            Cp[i] = eptr(p, dC, (NB - 1 - i) * sc);
        }
        if (form == FORM_ARRAY)
            s = GEMMS[p - PRECS](w->h, form, ta, tb, c->m, c->n, c->k, c->alpha, put(&st, Ap, sizeof Ap), (int64_t)lda,
                                 0, put(&st, Bp, sizeof Bp), (int64_t)ldb, 0, c->beta, put(&st, Cp, sizeof Cp),
                                 (int64_t)ldc, 0, NB);
        else
            s = GEMMS[p - PRECS](w->h, form, ta, tb, c->m, c->n, c->k, c->alpha, dA, (int64_t)lda, (int64_t)sa, dB,
                                 (int64_t)ldb, (int64_t)sb, c->beta, dC, (int64_t)ldc, (int64_t)sc, NB);
    }
    snprintf(what, sizeof what, "numgpu_%sgemm_batched%s op=(%c,%c) m=%lld n=%lld k=%lld alpha=%g%+gi beta=%g%+gi",
             p->letter, form ? "_strided" : "", OPC[ta], OPC[tb], (long long)c->m, (long long)c->n, (long long)c->k,
             creal(c->alpha), cimag(c->alpha), creal(c->beta), cimag(c->beta));
    if (call_ok(s, back(&st), w->name, what)) {
        for (i = 0; i < NB; i++) {
            double q = diff_ratio(p, eptr(p, C, i * sc), ldc, eptr(p, Cref, i * sc), ldc, m, n, (double)k + 2.0);
            if (!(q <= worst))
                worst = q;
        }
        check(worst < TOL, "%s: %s: ||C - Cref||_F / ((k + 2) eps ||Cref||_F) = %.3g", w->name, what, worst);
        check(outside_same(C, C0, p->size, NB * sc, ldc, sc, m, n) &&
                  memcmp(A, A0, NB * sa * p->size) == 0 && memcmp(B, B0, NB * sb * p->size) == 0,
              "%s: %s: C written outside its matrices, or A or B modified", w->name, what);
    }
    free(A);
    free(B);
    free(C);
    free(A0);
    free(B0);
    free(C0);
    free(Cref);
}

static void drop_ins(const where_t *w)
{
    int pi, form, ta, tb;
    for (pi = 0; pi < 4; pi++)
        for (form = FORM_ARRAY; form <= FORM_STRIDED; form++)
            for (ta = 0; ta < 3; ta++)
                for (tb = 0; tb < 3; tb++)
                    drop_in(w, &PRECS[pi], form, ta, tb, &CASES[ta * 3 + tb]);
}

int main(void)
{
    return run_program("test_gemm", argument_checks, drop_ins);
}
