/* test_geqrf: numgpu's batched QR by Givens rotations as a C user replacing loops of LAPACKE
 * ?geqrf / ?orgqr (?ungqr) / ?ormqr (?unmqr) / ?gels calls sees it, for s, d, c, z and both
 * forms (pointer arrays, strided).
 *
 *  - the argument checks: side out of range, trans out of range, trans C for real and T for
 *    complex, n > m, k > nq, k > n, lda < m (and < nq), ldcs < m, ldb < m, a NULL info:
 *    NUMGPU_INVALID_VALUE, the argument's position in numgpu_last_error_arg() and the
 *    message, nothing written; n = 0, k = 0 and batch = 0 succeed and touch nothing;
 *  - the drop-in comparison, (m, n) in {(1, 1), (9, 8), (66, 33)}, a batch of 3 random
 *    matrices (the pointer arrays point at them in reverse order) with padded leading
 *    dimensions and gaps:
 *    geqrf: R equal to LAPACKE ?geqrf's up to a unit diagonal D (row i of ours is d_i times
 *      LAPACK's): ||R - D Rref||_F / (m eps ||A||_F) < 30; every stored rotation unitary,
 *      0 <= c <= 1 and |c^2 + |s|^2 - 1| <= 30 eps;
 *    orgqr (m, n, n): ||A - Q R||_F / (n eps ||Q||_F ||R||_F) < 30;
 *    ormqr, every side and trans, without forming Q: Q^H A = [R; 0], then Q [R; 0] = A;
 *      A^H Q = [R^H 0], then [R^H 0] Q^H = A^H, each within ||X - Xref||_F / (m eps ||Xref||_F)
 *      < 30;
 *    gels against LAPACKE ?gels on consistent systems B = A X0: info identical (0) and X
 *      within ||X - Xref||_F / (m eps ||Xref||_F) < 30;
 *    every call: padding, gaps and input-only arrays bitwise unchanged;
 * on the AUTO handle (CUDA on a GPU host) with host arrays and with numgpu_malloc memory (device
 * pointers there, pointer arrays included) and on a CPU handle.
 *
 * Prints "test_geqrf: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include "numgpu_test.h"
#include <lapacke.h>

/* ---- precision-neutral views of the family ----------------------------------------- */

enum form { FORM_ARRAY, FORM_STRIDED };

/* FORM_ARRAY: A, CS, C, B are arrays of matrix pointers (the strides are ignored);
 * FORM_STRIDED: the first matrices, with their strides in elements. */
typedef struct {
    const prec_t *p;
    const char *mqr;     /* "ormqr" or "unmqr" */
    const char *gqr;     /* "orgqr" or "ungqr" */
    int32_t adjoint;     /* NUMGPU_OP_T (real) or NUMGPU_OP_C (complex): Q^H */
    int32_t wrong_trans; /* the other one, which numgpu must refuse */
    numgpu_status (*geqrf)(numgpu_handle *h, int form, int64_t m, int64_t n, void *A, int64_t lda, int64_t sA,
                           void *CS, int64_t ldcs, int64_t sCS, int64_t batch);
    numgpu_status (*ormqr)(numgpu_handle *h, int form, int32_t side, int32_t trans, int64_t m, int64_t n, int64_t k,
                           const void *A, int64_t lda, int64_t sA, const void *CS, int64_t ldcs, int64_t sCS, void *C,
                           int64_t ldc, int64_t sC, int64_t batch);
    numgpu_status (*orgqr)(numgpu_handle *h, int form, int64_t m, int64_t n, int64_t k, void *A, int64_t lda,
                           int64_t sA, const void *CS, int64_t ldcs, int64_t sCS, int64_t batch);
    numgpu_status (*gels)(numgpu_handle *h, int form, int64_t m, int64_t n, int64_t nrhs, void *A, int64_t lda,
                          int64_t sA, void *B, int64_t ldb, int64_t sB, int32_t *info, int64_t batch);
    int (*ref_geqrf)(int m, int n, void *a, int lda);                        /* LAPACKE_?geqrf */
    int (*ref_gels)(int m, int n, int nrhs, void *a, int lda, void *b, int ldb); /* LAPACKE_?gels 'N' */
} qr_t;

#define QR_PRECISION(P, T, R, LT, OR)                                                                             \
    static numgpu_status P##_geqrf(numgpu_handle *h, int form, int64_t m, int64_t n, void *A, int64_t lda,       \
                                   int64_t sA, void *CS, int64_t ldcs, int64_t sCS, int64_t batch)               \
    {                                                                                                             \
        if (form == FORM_ARRAY)                                                                                   \
            return numgpu_##P##geqrf_givens_batched(h, m, n, (T *const *)A, lda, (R *const *)CS, ldcs, batch);    \
        return numgpu_##P##geqrf_givens_batched_strided(h, m, n, (T *)A, lda, sA, (R *)CS, ldcs, sCS, batch);     \
    }                                                                                                             \
    static numgpu_status P##_ormqr(numgpu_handle *h, int form, int32_t side, int32_t trans, int64_t m, int64_t n, \
                                   int64_t k, const void *A, int64_t lda, int64_t sA, const void *CS,            \
                                   int64_t ldcs, int64_t sCS, void *C, int64_t ldc, int64_t sC, int64_t batch)   \
    {                                                                                                             \
        if (form == FORM_ARRAY)                                                                                   \
            return numgpu_##P##OR##mqr_givens_batched(h, side, trans, m, n, k, (const T *const *)A, lda,          \
                                                      (const R *const *)CS, ldcs, (T *const *)C, ldc, batch);     \
        return numgpu_##P##OR##mqr_givens_batched_strided(h, side, trans, m, n, k, (const T *)A, lda, sA,         \
                                                          (const R *)CS, ldcs, sCS, (T *)C, ldc, sC, batch);      \
    }                                                                                                             \
    static numgpu_status P##_orgqr(numgpu_handle *h, int form, int64_t m, int64_t n, int64_t k, void *A,          \
                                   int64_t lda, int64_t sA, const void *CS, int64_t ldcs, int64_t sCS,           \
                                   int64_t batch)                                                                \
    {                                                                                                             \
        if (form == FORM_ARRAY)                                                                                   \
            return numgpu_##P##OR##gqr_givens_batched(h, m, n, k, (T *const *)A, lda, (const R *const *)CS, ldcs, \
                                                      batch);                                                     \
        return numgpu_##P##OR##gqr_givens_batched_strided(h, m, n, k, (T *)A, lda, sA, (const R *)CS, ldcs, sCS,  \
                                                          batch);                                                 \
    }                                                                                                             \
    static numgpu_status P##_gels(numgpu_handle *h, int form, int64_t m, int64_t n, int64_t nrhs, void *A,        \
                                  int64_t lda, int64_t sA, void *B, int64_t ldb, int64_t sB, int32_t *info,      \
                                  int64_t batch)                                                                 \
    {                                                                                                             \
        if (form == FORM_ARRAY)                                                                                   \
            return numgpu_##P##gels_givens_batched(h, m, n, nrhs, (T *const *)A, lda, (T *const *)B, ldb, info,   \
                                                   batch);                                                        \
        return numgpu_##P##gels_givens_batched_strided(h, m, n, nrhs, (T *)A, lda, sA, (T *)B, ldb, sB, info,     \
                                                       batch);                                                    \
    }                                                                                                             \
    static int P##_ref_geqrf(int m, int n, void *a, int lda)                                                     \
    {                                                                                                             \
        LT *tau = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *tau);                                                 \
        int info = (int)LAPACKE_##P##geqrf(LAPACK_COL_MAJOR, m, n, (LT *)a, lda, tau);                           \
        free(tau);                                                                                                \
        return info;                                                                                              \
    }                                                                                                             \
    static int P##_ref_gels(int m, int n, int nrhs, void *a, int lda, void *b, int ldb)                          \
    {                                                                                                             \
        return (int)LAPACKE_##P##gels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, (LT *)a, lda, (LT *)b, ldb);            \
    }

QR_PRECISION(s, float, float, float, or)
QR_PRECISION(d, double, double, double, or)
QR_PRECISION(c, numgpu_complex_float, float, lapack_complex_float, un)
QR_PRECISION(z, numgpu_complex_double, double, lapack_complex_double, un)

#define QR_ENTRY(P, I, MQR, GQR, ADJ, WRONG) \
    {&PRECS[I], MQR, GQR, ADJ, WRONG, P##_geqrf, P##_ormqr, P##_orgqr, P##_gels, P##_ref_geqrf, P##_ref_gels}

static const qr_t QRS[4] = {
    QR_ENTRY(s, 0, "ormqr", "orgqr", NUMGPU_OP_T, NUMGPU_OP_C),
    QR_ENTRY(d, 1, "ormqr", "orgqr", NUMGPU_OP_T, NUMGPU_OP_C),
    QR_ENTRY(c, 2, "unmqr", "ungqr", NUMGPU_OP_C, NUMGPU_OP_T),
    QR_ENTRY(z, 3, "unmqr", "ungqr", NUMGPU_OP_C, NUMGPU_OP_T),
};

/* ---- argument checks ------------------------------------------------------------------ */

static void error_checks(numgpu_handle *h, const char *hname, const qr_t *q)
{
    enum { M = 4, N = 3, NB = 2, LDA = 4, SA = 12, LDCS = 4, SCS = 12, LDC = 4, NC = 2, SC = 8, NRHS = 2, SB = 8 };
    const prec_t *p = q->p;
    const size_t es = p->size, rs = p->rsize;
    void *A = new_buffer(p, NB * SA, 1, 0), *A0 = xdup(A, NB * SA * es), *CS = xmalloc(NB * SCS * rs);
    void *CS0 = xmalloc(NB * SCS * rs), *C = new_buffer(p, NB * SC, 1, 0), *C0 = xdup(C, NB * SC * es);
    int32_t info[NB] = {-99, -99}, info0[NB] = {-99, -99};
    void *pa[NB], *pcs[NB], *pc[NB];
    char fn[96], needle[96];
    int form, k;
    numgpu_status s;

#define SAME                                                                                      \
    (memcmp(A, A0, NB * SA * es) == 0 && memcmp(CS, CS0, NB * SCS * rs) == 0 &&                   \
     memcmp(C, C0, NB * SC * es) == 0 && memcmp(info, info0, sizeof info) == 0)

    for (k = 0; k < NB * SCS; k++)
        rset(p, CS, (size_t)k, 0.5);
    memcpy(CS0, CS, NB * SCS * rs);
    for (k = 0; k < NB; k++) {
        pa[k] = eptr(p, A, (size_t)k * SA);
        pcs[k] = (char *)CS + (size_t)k * SCS * rs;
        pc[k] = eptr(p, C, (size_t)k * SC);
    }

    for (form = FORM_ARRAY; form <= FORM_STRIDED; form++) {
        const char *sfx = form ? "_strided" : "";
        const int o = form; /* the strided forms have a stride after each leading dimension */
        void *a = form ? A : (void *)pa, *cs = form ? CS : (void *)pcs, *c = form ? C : (void *)pc;

        /* geqrf: n > m, lda < m, ldcs < m. */
        snprintf(fn, sizeof fn, "numgpu_%sgeqrf_givens_batched%s", p->letter, sfx);
        s = q->geqrf(h, form, 2, N, a, LDA, SA, cs, LDCS, SCS, NB);
        expect_invalid(s, fn, 3, "(n = 3) must be <= m = 2", SAME, hname, "n > m");
        s = q->geqrf(h, form, M, N, a, M - 1, SA, cs, LDCS, SCS, NB);
        expect_invalid(s, fn, 5, "(lda = 3)", SAME, hname, "lda < m");
        s = q->geqrf(h, form, M, N, a, LDA, SA, cs, M - 1, SCS, NB);
        expect_invalid(s, fn, 7 + o, "(ldcs = 3)", SAME, hname, "ldcs < m");
        s = q->geqrf(h, form, 0, 0, a, 1, SA, cs, 1, SCS, NB);
        expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "m = n = 0");
        s = q->geqrf(h, form, M, N, a, LDA, SA, cs, LDCS, SCS, 0);
        expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "batch = 0");

        /* ormqr / unmqr: side, trans, k > nq, lda < nq. */
        snprintf(fn, sizeof fn, "numgpu_%s%s_givens_batched%s", p->letter, q->mqr, sfx);
#define ORMQR(SIDE, TRANS, MM, NN, KK, LDAA) \
    q->ormqr(h, form, SIDE, TRANS, MM, NN, KK, a, LDAA, SA, cs, LDCS, SCS, c, LDC, SC, NB)
        s = ORMQR(2, NUMGPU_OP_N, M, NC, N, LDA);
        expect_invalid(s, fn, 2, "(side = 2)", SAME, hname, "side = 2");
        s = ORMQR(-1, NUMGPU_OP_N, M, NC, N, LDA);
        expect_invalid(s, fn, 2, "(side = -1)", SAME, hname, "side = -1");
        s = ORMQR(NUMGPU_SIDE_LEFT, 3, M, NC, N, LDA);
        expect_invalid(s, fn, 3, "(trans = 3)", SAME, hname, "trans = 3");
        snprintf(needle, sizeof needle, "(trans = NUMGPU_OP_%s)", q->wrong_trans == NUMGPU_OP_C ? "C" : "T");
        s = ORMQR(NUMGPU_SIDE_LEFT, q->wrong_trans, M, NC, N, LDA);
        expect_invalid(s, fn, 3, needle, SAME, hname, p->cplx ? "trans T for complex" : "trans C for real");
        s = ORMQR(NUMGPU_SIDE_RIGHT, q->wrong_trans, NC, M, N, LDA);
        expect_invalid(s, fn, 3, needle, SAME, hname,
                       p->cplx ? "trans T for complex (right)" : "trans C for real (right)");
        s = ORMQR(NUMGPU_SIDE_LEFT, NUMGPU_OP_N, 2, NC, N, LDA);
        expect_invalid(s, fn, 6, "(k = 3) must be <= m = 2", SAME, hname, "k > nq = m");
        s = ORMQR(NUMGPU_SIDE_RIGHT, q->adjoint, NC, 2, N, LDA);
        expect_invalid(s, fn, 6, "(k = 3) must be <= n = 2", SAME, hname, "k > nq = n");
        s = ORMQR(NUMGPU_SIDE_LEFT, q->adjoint, M, NC, N, M - 1);
        expect_invalid(s, fn, 8, "(lda = 3)", SAME, hname, "lda < m");
        s = ORMQR(NUMGPU_SIDE_RIGHT, NUMGPU_OP_N, NC, M, N, M - 1);
        expect_invalid(s, fn, 8, "(lda = 3) must be >= max(1, n) = 4", SAME, hname, "lda < n (right)");
        s = ORMQR(NUMGPU_SIDE_LEFT, NUMGPU_OP_N, M, NC, 0, LDA);
        expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "k = 0");
#undef ORMQR

        /* orgqr / ungqr: n > m, k > n, lda < m. */
        snprintf(fn, sizeof fn, "numgpu_%s%s_givens_batched%s", p->letter, q->gqr, sfx);
        s = q->orgqr(h, form, 2, N, 2, a, LDA, SA, cs, LDCS, SCS, NB);
        expect_invalid(s, fn, 3, "(n = 3) must be <= m = 2", SAME, hname, "n > m");
        s = q->orgqr(h, form, M, 2, N, a, LDA, SA, cs, LDCS, SCS, NB);
        expect_invalid(s, fn, 4, "(k = 3) must be <= n = 2", SAME, hname, "k > n");
        s = q->orgqr(h, form, M, N, N, a, M - 1, SA, cs, LDCS, SCS, NB);
        expect_invalid(s, fn, 6, "(lda = 3)", SAME, hname, "lda < m");

        /* gels: n > m, lda < m, ldb < m, NULL info. */
        snprintf(fn, sizeof fn, "numgpu_%sgels_givens_batched%s", p->letter, sfx);
        s = q->gels(h, form, 2, N, NRHS, a, LDA, SA, c, LDC, SB, info, NB);
        expect_invalid(s, fn, 3, "(n = 3) must be <= m = 2", SAME, hname, "n > m");
        s = q->gels(h, form, M, N, NRHS, a, M - 1, SA, c, LDC, SB, info, NB);
        expect_invalid(s, fn, 6, "(lda = 3)", SAME, hname, "lda < m");
        s = q->gels(h, form, M, N, NRHS, a, LDA, SA, c, M - 1, SB, info, NB);
        expect_invalid(s, fn, 8 + o, "(ldb = 3)", SAME, hname, "ldb < m");
        s = q->gels(h, form, M, N, NRHS, a, LDA, SA, c, LDC, SB, NULL, NB);
        expect_invalid(s, fn, 9 + 2 * o, "info", SAME, hname, "NULL info");
        s = q->gels(h, form, M, N, NRHS, a, LDA, SA, c, LDC, SB, info, 0);
        expect_status(s, NUMGPU_SUCCESS, fn, 0, "", SAME, hname, "batch = 0");
    }
#undef SAME

    free(A);
    free(A0);
    free(CS);
    free(CS0);
    free(C);
    free(C0);
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    int pi;
    for (pi = 0; pi < 4; pi++)
        error_checks(h, hname, &QRS[pi]);
}

/* ---- the drop-in comparison ----------------------------------------------------------- */

enum { NB = 3, NRHS = 2 };

/* One batch of m x n matrices, the factors and LAPACK's. */
typedef struct {
    const where_t *w;
    const qr_t *q;
    int form;
    size_t m, n, lda, sa, ldcs, scs;
    void *A0;   /* input */
    void *F;    /* numgpu's factors */
    void *CS;   /* numgpu's cosines */
    void *RZ;   /* [R; 0] from F, laid out as A */
    char what[160];
} qr_case;

/* The matrix slot problem i uses: the pointer arrays point at the matrices in reverse order. */
static size_t slot(const qr_case *c, size_t i)
{
    return c->form == FORM_ARRAY ? NB - 1 - i : i;
}

/* The array to pass for the batch in `d` (staged, elements of `esize` bytes, `stride` apart):
 * itself (strided) or a pointer array to its matrices by slot (staged too). */
static void *batch_arg(stage_t *st, const qr_case *c, void *d, size_t stride, size_t esize, void **ptrs)
{
    size_t i;
    if (c->form == FORM_STRIDED)
        return d;
    for (i = 0; i < NB; i++)
        ptrs[i] = (char *)d + slot(c, i) * stride * esize;
    return put(st, ptrs, NB * sizeof *ptrs);
}

/* dst (ldd) = src^H, src rows x cols (lds). */
static void adjoint_of(const prec_t *p, const void *src, size_t lds, size_t rows, size_t cols, void *dst, size_t ldd)
{
    size_t i, j;
    for (j = 0; j < cols; j++)
        for (i = 0; i < rows; i++)
            cset(p, dst, j + i * ldd, conj(cget(p, src, i + j * lds)));
}

/* ||R - D Rref||_F / (m eps ||A||_F) for one matrix: R the upper triangle of F (ld lda), Rref
 * LAPACK's (compact m x n), D the unit diagonal between them (1 where a diagonal is 0). */
static double r_ratio(const qr_case *c, const void *A, const void *F, const void *Rref)
{
    const prec_t *p = c->q->p;
    double s = 0.0;
    size_t i, j;
    for (i = 0; i < c->n; i++) {
        dcx o = cget(p, F, i + i * c->lda), r = cget(p, Rref, i + i * c->m), d = 1.0;
        if (cabs(o) > 0.0 && cabs(r) > 0.0)
            d = (o / cabs(o)) / (r / cabs(r));
        for (j = i; j < c->n; j++) {
            double e = cabs(cget(p, F, i + j * c->lda) - d * cget(p, Rref, i + j * c->m));
            s += e * e;
        }
    }
    return ratio_of(sqrt(s), (double)c->m * p->eps * fro_diff(p, A, c->lda, NULL, 0, c->m, c->n));
}

/* geqrf: R against LAPACKE ?geqrf, the rotations unitary; fills F, CS and RZ. */
static int check_geqrf(qr_case *c)
{
    const prec_t *p = c->q->p;
    const size_t m = c->m, n = c->n, abytes = NB * c->sa * p->size, csbytes = NB * c->scs * p->rsize;
    void *Lr = xmalloc(m * n * p->size), *pa[NB], *pcs[NB], *dA, *dCS;
    stage_t st = stage_for(c->w);
    double worst = 0.0, worst_rot = 0.0;
    size_t i, j, r, e;
    numgpu_status s;
    int ok;
    memcpy(c->F, c->A0, abytes);
    for (e = 0; e < NB * c->scs; e++)
        rset(p, c->CS, e, NAN);
    dA = put(&st, c->F, abytes);
    dCS = put(&st, c->CS, csbytes);
    s = c->q->geqrf(c->w->h, c->form, (int64_t)m, (int64_t)n, batch_arg(&st, c, dA, c->sa, p->size, pa),
                    (int64_t)c->lda, (int64_t)c->sa, batch_arg(&st, c, dCS, c->scs, p->rsize, pcs), (int64_t)c->ldcs,
                    (int64_t)c->scs, NB);
    ok = call_ok(s, back(&st), c->w->name, "geqrf");
    for (i = 0; ok && i < NB; i++) {
        const void *a = eptr(p, c->A0, i * c->sa), *f = eptr(p, c->F, i * c->sa);
        double q;
        for (j = 0; j < n; j++) {
            memcpy(eptr(p, Lr, j * m), eptr(p, a, j * c->lda), m * p->size);
            for (r = j + 1; r < m; r++) { /* G(r, j): s in A, c in CS */
                double cc = rget(p, c->CS, i * c->scs + r + j * c->ldcs), sn = cabs(cget(p, f, r + j * c->lda));
                q = cc >= 0.0 && cc <= 1.0 ? fabs(cc * cc + sn * sn - 1.0) / p->eps : INFINITY;
                if (!(q <= worst_rot))
                    worst_rot = q;
            }
        }
        check(c->q->ref_geqrf((int)m, (int)n, Lr, (int)m) == 0, "LAPACKE_%sgeqrf failed", p->letter);
        q = r_ratio(c, a, f, Lr);
        if (!(q <= worst))
            worst = q;
    }
    if (ok)
        check(worst < TOL && worst_rot <= TOL && outside_same(c->F, c->A0, p->size, NB * c->sa, c->lda, c->sa, m, n),
              "%s: %s: geqrf: ||R - D Rref||_F / (m eps ||A||_F) = %.3g against LAPACKE ?geqrf, rotations' |c^2 + "
              "|s|^2 - 1| / eps = %.3g (c must be in [0, 1]), or padding written", c->w->name, c->what, worst,
              worst_rot);
    for (e = 0; e < NB * c->sa; e++) { /* [R; 0] */
        size_t rr = e % c->sa;
        cset(p, c->RZ, e, rr < c->lda * n && rr % c->lda < m && rr % c->lda > rr / c->lda ? 0.0 : cget(p, c->F, e));
    }
    free(Lr);
    return ok;
}

/* orgqr (m, n, n): A = Q R. */
static void check_orgqr(const qr_case *c)
{
    const prec_t *p = c->q->p;
    const size_t abytes = NB * c->sa * p->size;
    void *Q = xdup(c->F, abytes), *CS = xdup(c->CS, NB * c->scs * p->rsize), *pa[NB], *pcs[NB], *dQ, *dCS;
    stage_t st = stage_for(c->w);
    double worst = 0.0;
    numgpu_status s;
    size_t i;
    dQ = put(&st, Q, abytes);
    dCS = put(&st, CS, NB * c->scs * p->rsize);
    s = c->q->orgqr(c->w->h, c->form, (int64_t)c->m, (int64_t)c->n, (int64_t)c->n,
                    batch_arg(&st, c, dQ, c->sa, p->size, pa), (int64_t)c->lda, (int64_t)c->sa,
                    batch_arg(&st, c, dCS, c->scs, p->rsize, pcs), (int64_t)c->ldcs, (int64_t)c->scs, NB);
    if (call_ok(s, back(&st), c->w->name, c->q->gqr)) {
        for (i = 0; i < NB; i++) {
            double q = residual(p, NUMGPU_OP_N, eptr(p, Q, i * c->sa), c->lda, eptr(p, c->RZ, i * c->sa), c->lda,
                                eptr(p, c->A0, i * c->sa), c->lda, c->m, c->n, c->n);
            if (!(q <= worst))
                worst = q;
        }
        check(worst < TOL && outside_same(Q, c->F, p->size, NB * c->sa, c->lda, c->sa, c->m, c->n) &&
                  memcmp(CS, c->CS, NB * c->scs * p->rsize) == 0,
              "%s: %s: %s: ||A - Q R||_F / (n eps ||Q||_F ||R||_F) = %.3g, or padding or CS written", c->w->name,
              c->what, c->q->gqr, worst);
    }
    free(Q);
    free(CS);
}

/* One ormqr on C (rows x cols matrices, ldc, sc apart), checked against `want` (same layout). */
static void ormqr_step(const qr_case *c, int32_t side, int32_t trans, void *C, size_t rows, size_t cols, size_t ldc,
                       size_t sc, const void *want)
{
    const prec_t *p = c->q->p;
    const size_t abytes = NB * c->sa * p->size, csbytes = NB * c->scs * p->rsize, cbytes = NB * sc * p->size;
    void *G = xdup(c->F, abytes), *CS = xdup(c->CS, csbytes), *C0 = xdup(C, cbytes), *pa[NB], *pcs[NB], *pc[NB];
    void *dG, *dCS, *dC;
    stage_t st = stage_for(c->w);
    double worst = 0.0;
    numgpu_status s;
    size_t i;
    dG = put(&st, G, abytes);
    dCS = put(&st, CS, csbytes);
    dC = put(&st, C, cbytes);
    s = c->q->ormqr(c->w->h, c->form, side, trans, (int64_t)rows, (int64_t)cols, (int64_t)c->n,
                    batch_arg(&st, c, dG, c->sa, p->size, pa), (int64_t)c->lda, (int64_t)c->sa,
                    batch_arg(&st, c, dCS, c->scs, p->rsize, pcs), (int64_t)c->ldcs, (int64_t)c->scs,
                    batch_arg(&st, c, dC, sc, p->size, pc), (int64_t)ldc, (int64_t)sc, NB);
    if (call_ok(s, back(&st), c->w->name, c->q->mqr)) {
        for (i = 0; i < NB; i++) {
            double q = diff_ratio(p, eptr(p, C, i * sc), ldc, eptr(p, want, i * sc), ldc, rows, cols, (double)c->m);
            if (!(q <= worst))
                worst = q;
        }
        check(worst < TOL && outside_same(C, C0, p->size, NB * sc, ldc, sc, rows, cols) &&
                  memcmp(G, c->F, abytes) == 0 && memcmp(CS, c->CS, csbytes) == 0,
              "%s: %s: %s side %s trans %d: ||C - Cref||_F / (m eps ||Cref||_F) = %.3g, or padding, A or CS written",
              c->w->name, c->what, c->q->mqr, side == NUMGPU_SIDE_LEFT ? "L" : "R", (int)trans, worst);
    }
    free(G);
    free(CS);
    free(C0);
}

/* ormqr on every side and trans through the identities Q^H A = [R; 0] and A^H Q = [R^H 0]. */
static void check_ormqr(const qr_case *c)
{
    const prec_t *p = c->q->p;
    const size_t m = c->m, n = c->n, ldd = n + 1, sd = ldd * m + 1;
    void *C = xdup(c->A0, NB * c->sa * p->size);
    void *D = new_buffer(p, NB * sd, 0, 444.0), *AH = new_buffer(p, NB * sd, 0, 444.0);
    void *RH = new_buffer(p, NB * sd, 0, 444.0);
    size_t i;
    for (i = 0; i < NB; i++) {
        adjoint_of(p, eptr(p, c->A0, i * c->sa), c->lda, m, n, eptr(p, AH, i * sd), ldd);
        adjoint_of(p, eptr(p, c->RZ, i * c->sa), c->lda, m, n, eptr(p, RH, i * sd), ldd);
    }
    memcpy(D, AH, NB * sd * p->size);
    ormqr_step(c, NUMGPU_SIDE_LEFT, c->q->adjoint, C, m, n, c->lda, c->sa, c->RZ);
    ormqr_step(c, NUMGPU_SIDE_LEFT, NUMGPU_OP_N, C, m, n, c->lda, c->sa, c->A0);
    ormqr_step(c, NUMGPU_SIDE_RIGHT, NUMGPU_OP_N, D, n, m, ldd, sd, RH);
    ormqr_step(c, NUMGPU_SIDE_RIGHT, c->q->adjoint, D, n, m, ldd, sd, AH);
    free(C);
    free(D);
    free(AH);
    free(RH);
}

/* gels against LAPACKE ?gels on B = A X0. */
static void check_gels(const qr_case *c)
{
    const prec_t *p = c->q->p;
    const size_t m = c->m, n = c->n, ldb = m + 1, sb = ldb * NRHS + 1, abytes = NB * c->sa * p->size;
    void *X0 = new_buffer(p, n * NRHS, 1, 0), *B0 = new_buffer(p, NB * sb, 0, 555.0);
    void *G = xdup(c->A0, abytes), *X, *La = xmalloc(m * n * p->size), *Lb = xmalloc(m * NRHS * p->size);
    void *pa[NB], *pb[NB], *dG, *dX;
    int32_t info[NB] = {-99, -99, -99};
    stage_t st = stage_for(c->w);
    double worst = 0.0;
    int same_info = 1;
    numgpu_status s;
    size_t i, j;
    for (i = 0; i < NB; i++)
        p->gemm(NUMGPU_OP_N, NUMGPU_OP_N, (int)m, NRHS, (int)n, 1.0, eptr(p, c->A0, i * c->sa), (int)c->lda, X0,
                (int)n, 0.0, eptr(p, B0, i * sb), (int)ldb);
    X = xdup(B0, NB * sb * p->size);
    dG = put(&st, G, abytes);
    dX = put(&st, X, NB * sb * p->size);
    s = c->q->gels(c->w->h, c->form, (int64_t)m, (int64_t)n, NRHS, batch_arg(&st, c, dG, c->sa, p->size, pa),
                   (int64_t)c->lda, (int64_t)c->sa, batch_arg(&st, c, dX, sb, p->size, pb), (int64_t)ldb, (int64_t)sb,
                   put(&st, info, sizeof info), NB);
    if (call_ok(s, back(&st), c->w->name, "gels")) {
        for (i = 0; i < NB; i++) {
            size_t sl = slot(c, i);
            double q;
            for (j = 0; j < n; j++)
                memcpy(eptr(p, La, j * m), eptr(p, c->A0, sl * c->sa + j * c->lda), m * p->size);
            for (j = 0; j < NRHS; j++)
                memcpy(eptr(p, Lb, j * m), eptr(p, B0, sl * sb + j * ldb), m * p->size);
            same_info = same_info && info[i] == c->q->ref_gels((int)m, (int)n, NRHS, La, (int)m, Lb, (int)m) &&
                        info[i] == 0;
            q = diff_ratio(p, eptr(p, X, sl * sb), ldb, Lb, m, n, NRHS, (double)m);
            if (!(q <= worst))
                worst = q;
        }
        check(same_info && worst < TOL && outside_same(X, B0, p->size, NB * sb, ldb, sb, m, NRHS) &&
                  outside_same(G, c->A0, p->size, NB * c->sa, c->lda, c->sa, m, n),
              "%s: %s: gels against LAPACKE ?gels: info %s, ||X - Xref||_F / (m eps ||Xref||_F) = %.3g, or padding "
              "written", c->w->name, c->what, same_info ? "0 as LAPACK's" : "DIFFERS", worst);
    }
    free(X0);
    free(B0);
    free(G);
    free(X);
    free(La);
    free(Lb);
}

static void drop_in(const where_t *w, const qr_t *q, int form, size_t m, size_t n)
{
    const prec_t *p = q->p;
    qr_case c;
    memset(&c, 0, sizeof c);
    c.w = w, c.q = q, c.form = form, c.m = m, c.n = n;
    c.lda = m + 1, c.sa = c.lda * n + 1, c.ldcs = m + 2, c.scs = c.ldcs * n + 1;
    c.A0 = new_matrices(p, NB, c.lda, c.sa, m, n, 1, 0, 777.0);
    c.F = xmalloc(NB * c.sa * p->size);
    c.RZ = xmalloc(NB * c.sa * p->size);
    c.CS = xmalloc(NB * c.scs * p->rsize);
    snprintf(c.what, sizeof c.what, "%s%s m=%lu n=%lu", p->letter, form ? " strided" : " pointer-array",
             (unsigned long)m, (unsigned long)n);
    if (check_geqrf(&c)) {
        check_orgqr(&c);
        check_ormqr(&c);
    }
    check_gels(&c);
    free(c.A0);
    free(c.F);
    free(c.RZ);
    free(c.CS);
}

static void drop_ins(const where_t *w)
{
    static const size_t SHAPES[][2] = {{1, 1}, {9, 8}, {66, 33}};
    int pi, form;
    size_t si;
    for (pi = 0; pi < 4; pi++)
        for (form = FORM_ARRAY; form <= FORM_STRIDED; form++)
            for (si = 0; si < sizeof SHAPES / sizeof SHAPES[0]; si++)
                drop_in(w, &QRS[pi], form, SHAPES[si][0], SHAPES[si][1]);
}

int main(void)
{
    return run_program("test_geqrf", argument_checks, drop_ins);
}
