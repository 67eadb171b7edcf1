/* test_getrf: numgpu's batched LU with complete pivoting as a drop-in for a loop of LAPACK
 * ?getc2 / ?gesc2 calls.
 *
 * For s, d, c, z, both forms (pointer arrays, strided), n in {1, 2, 3, 7, 8, 16, 31, 32, 33, 64},
 * batches of 1, 3 and 37, padded leading dimensions and gaps between the matrices, and these
 * matrix classes:
 *   random   uniform(-1, 1) (real and imaginary parts);
 *   ties     D1·H·D2, H block-diagonal Hadamard blocks of order <= 16, D1, D2 random phases:
 *            all moduli tie and the elimination is exact, so pivots must equal LAPACK's;
 *   rankdef  rank r = n/2 or n-1: a random r x r block on random rows and columns, zero
 *            elsewhere (the trailing block becomes exactly zero after r steps);
 *   duprow   random with the last row a copy of the first (rank n-1; for real types the
 *            copy becomes an exactly zero row, so STRICT gives info = n);
 *   zero     the zero matrix;
 *   tiny     random times 1e-294 (double) or 1e-32 (float): every pivot is below LAPACK's
 *            smlnum, so GETC2 perturbs them all and ?gesc2 has to scale;
 * every case checks, against LAPACK's Fortran ?getc2_/?gesc2_ on the same matrices:
 *  - getrf, mode GETC2: ipiv, jpiv and info IDENTICAL to ?getc2; the factors equal to its
 *    factors within ||F - Fref||_F / (n eps ||Fref||_F) < 30; where info = 0 also
 *    ||P L U Q - A||_1 / (n ||A||_1 eps) < 30; padding and gaps bitwise unchanged;
 *  - gesc2 on ?getc2's factors and pivots: scale equal within 30 n eps (relative), and x equal
 *    to ?gesc2's x up to the rounding of the factored solve:
 *    ||L U Q^-1 (x - xref)||_inf / (||L||_inf ||U||_inf max(||x||, ||xref||) n eps) < 30;
 *  - getrs (trans N, T, C) with numgpu's factors, where info = 0: per right-hand side
 *    ||b - op(A) x||_1 / (||op(A)||_1 ||x||_1 n eps) < 30, the product by cblas_?gemm;
 *  - getrf, mode STRICT: info = rank + 1 for the singular classes (0 for random and tiny),
 *    the pivots after step info the identity, ||P L U Q - A||_1 / (n ||A||_1 eps) < 30 (exact
 *    also when stopped early), and for random matrices the same pivots as ?getc2;
 *  - gesv: the same info, ipiv and jpiv as getrf STRICT; where info > 0 that B is bitwise
 *    unchanged, elsewhere the residual above.
 * Then the argument checks: a mode out of range (-1, 2), NULL ipiv, lda < n, trans out of
 * range, host pivots out of range, a NULL info or scale: NUMGPU_INVALID_VALUE, the argument's
 * position in numgpu_last_error_arg() and the message, and nothing written; n = 0 and
 * batch = 0 succeed and touch nothing.
 *
 * Every case runs on the handle numgpu_create picks (AUTO: CUDA on a GPU host) with host
 * arrays and with memory from numgpu_malloc (device memory on CUDA, where the calls are
 * asynchronous: numgpu_synchronize, then copy back); on a GPU host also on an explicit CPU
 * handle. NUMGPU_REQUIRE_CUDA=1 makes an AUTO handle that is not CUDA a failure.
 *
 * Prints "test_getrf: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include <complex.h>

#include "numgpu_test.h"

#ifndef TOL
#define TOL 30.0 /* LAPACK's test threshold */
#endif

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

/* Pointer-array forms take a host array of `batch` matrix pointers (or NULL, passed on as
 * NULL); with dev != NULL it is copied to numgpu_malloc(dev) memory first (pointer arrays
 * live in the space of the matrices). */
typedef numgpu_status (*getrf_fn)(numgpu_handle *h, int64_t n, void *const *A, int64_t lda, int32_t *ipiv,
                                  int32_t *jpiv, int32_t *info, int64_t batch, int32_t mode, numgpu_handle *dev);
typedef numgpu_status (*getrf_s_fn)(numgpu_handle *h, int64_t n, void *A, int64_t lda, int64_t sA, int32_t *ipiv,
                                    int32_t *jpiv, int32_t *info, int64_t batch, int32_t mode);
typedef numgpu_status (*getrs_fn)(numgpu_handle *h, int32_t trans, int64_t n, int64_t nrhs, void *const *A,
                                  int64_t lda, const int32_t *ipiv, const int32_t *jpiv, void *const *B,
                                  int64_t ldb, int64_t batch, numgpu_handle *dev);
typedef numgpu_status (*getrs_s_fn)(numgpu_handle *h, int32_t trans, int64_t n, int64_t nrhs, const void *A,
                                    int64_t lda, int64_t sA, const int32_t *ipiv, const int32_t *jpiv, void *B,
                                    int64_t ldb, int64_t sB, int64_t batch);
typedef numgpu_status (*gesv_fn)(numgpu_handle *h, int64_t n, int64_t nrhs, void *const *A, int64_t lda,
                                 int32_t *ipiv, int32_t *jpiv, void *const *B, int64_t ldb, int32_t *info,
                                 int64_t batch, numgpu_handle *dev);
typedef numgpu_status (*gesv_s_fn)(numgpu_handle *h, int64_t n, int64_t nrhs, void *A, int64_t lda, int64_t sA,
                                   int32_t *ipiv, int32_t *jpiv, void *B, int64_t ldb, int64_t sB, int32_t *info,
                                   int64_t batch);
typedef numgpu_status (*gesc2_fn)(numgpu_handle *h, int64_t n, const void *A, int64_t lda, int64_t sA, void *rhs,
                                  int64_t sR, const int32_t *ipiv, const int32_t *jpiv, void *scale, int64_t batch);
typedef void (*getc2_fn)(int n, void *a, int lda, int *ipiv, int *jpiv, int *info);
typedef void (*gesc2r_fn)(int n, const void *a, int lda, void *rhs, const int *ipiv, const int *jpiv,
                          double *scale);

typedef struct {
    const prec_t *p; /* element size, kinds, eps, cblas_?gemm (numgpu_test.h) */
    size_t rsize;    /* bytes of the real type (scale) */
    getrf_fn getrf;
    getrf_s_fn getrf_s;
    getrs_fn getrs;
    getrs_s_fn getrs_s;
    gesv_fn gesv;
    gesv_s_fn gesv_s;
    gesc2_fn gesc2;
    getc2_fn getc2_ref;
    gesc2r_fn gesc2_ref;
} lu_t;

/* Copies a host array of void pointers into a fresh array of `PT` (a pointer type), and
 * with dev into numgpu_malloc(dev) memory; `out` is what to pass, `arr` what to free. */
#define PTR_ARRAY(PT, src, nb, dev, arr, out)                                                     \
    do {                                                                                          \
        size_t i_;                                                                                \
        arr = (src) ? xmalloc((nb) * sizeof *arr) : NULL;                                         \
        for (i_ = 0; arr && i_ < (nb); i_++)                                                      \
            arr[i_] = (src)[i_];                                                                  \
        out = (dev) ? stage_in((dev), arr, (nb) * sizeof *arr) : (void *)arr;                     \
    } while (0)

#define LU_PRECISION(P, T, R, LT)                                                                 \
    static numgpu_status P##_getrf(numgpu_handle *h, int64_t n, void *const *A, int64_t lda,     \
                                   int32_t *ipiv, int32_t *jpiv, int32_t *info, int64_t batch,   \
                                   int32_t mode, numgpu_handle *dev)                             \
    {                                                                                             \
        size_t nb = batch > 0 ? (size_t)batch : 0;                                                \
        T **a;                                                                                    \
        void *pa;                                                                                 \
        numgpu_status st;                                                                         \
        PTR_ARRAY(T *, A, nb, dev, a, pa);                                                        \
        st = numgpu_##P##getrf_batched_fullpivot(h, n, (T *const *)pa, lda, ipiv, jpiv, info,    \
                                                 batch, mode);                                    \
        if (dev)                                                                                  \
            numgpu_free(dev, pa);                                                                 \
        free(a);                                                                                  \
        return st;                                                                                \
    }                                                                                             \
    static numgpu_status P##_getrf_s(numgpu_handle *h, int64_t n, void *A, int64_t lda,          \
                                     int64_t sA, int32_t *ipiv, int32_t *jpiv, int32_t *info,    \
                                     int64_t batch, int32_t mode)                                \
    {                                                                                             \
        return numgpu_##P##getrf_batched_fullpivot_strided(h, n, (T *)A, lda, sA, ipiv, jpiv,    \
                                                           info, batch, mode);                    \
    }                                                                                             \
    static numgpu_status P##_getrs(numgpu_handle *h, int32_t trans, int64_t n, int64_t nrhs,     \
                                   void *const *A, int64_t lda, const int32_t *ipiv,             \
                                   const int32_t *jpiv, void *const *B, int64_t ldb,             \
                                   int64_t batch, numgpu_handle *dev)                            \
    {                                                                                             \
        size_t nb = batch > 0 ? (size_t)batch : 0;                                                \
        const T **a;                                                                              \
        T **b;                                                                                    \
        void *pa, *pb;                                                                            \
        numgpu_status st;                                                                         \
        PTR_ARRAY(const T *, A, nb, dev, a, pa);                                                  \
        PTR_ARRAY(T *, B, nb, dev, b, pb);                                                        \
        st = numgpu_##P##getrs_batched_fullpivot(h, trans, n, nrhs, (const T *const *)pa, lda,   \
                                                 ipiv, jpiv, (T *const *)pb, ldb, batch);         \
        if (dev) {                                                                                \
            numgpu_free(dev, pa);                                                                 \
            numgpu_free(dev, pb);                                                                 \
        }                                                                                         \
        free((void *)a);                                                                          \
        free(b);                                                                                  \
        return st;                                                                                \
    }                                                                                             \
    static numgpu_status P##_getrs_s(numgpu_handle *h, int32_t trans, int64_t n, int64_t nrhs,   \
                                     const void *A, int64_t lda, int64_t sA,                     \
                                     const int32_t *ipiv, const int32_t *jpiv, void *B,          \
                                     int64_t ldb, int64_t sB, int64_t batch)                     \
    {                                                                                             \
        return numgpu_##P##getrs_batched_fullpivot_strided(h, trans, n, nrhs, (const T *)A, lda, \
                                                           sA, ipiv, jpiv, (T *)B, ldb, sB,       \
                                                           batch);                                \
    }                                                                                             \
    static numgpu_status P##_gesv(numgpu_handle *h, int64_t n, int64_t nrhs, void *const *A,     \
                                  int64_t lda, int32_t *ipiv, int32_t *jpiv, void *const *B,     \
                                  int64_t ldb, int32_t *info, int64_t batch, numgpu_handle *dev) \
    {                                                                                             \
        size_t nb = batch > 0 ? (size_t)batch : 0;                                                \
        T **a, **b;                                                                               \
        void *pa, *pb;                                                                            \
        numgpu_status st;                                                                         \
        PTR_ARRAY(T *, A, nb, dev, a, pa);                                                        \
        PTR_ARRAY(T *, B, nb, dev, b, pb);                                                        \
        st = numgpu_##P##gesv_batched_fullpivot(h, n, nrhs, (T *const *)pa, lda, ipiv, jpiv,     \
                                                (T *const *)pb, ldb, info, batch);                \
        if (dev) {                                                                                \
            numgpu_free(dev, pa);                                                                 \
            numgpu_free(dev, pb);                                                                 \
        }                                                                                         \
        free(a);                                                                                  \
        free(b);                                                                                  \
        return st;                                                                                \
    }                                                                                             \
    static numgpu_status P##_gesv_s(numgpu_handle *h, int64_t n, int64_t nrhs, void *A,          \
                                    int64_t lda, int64_t sA, int32_t *ipiv, int32_t *jpiv,       \
                                    void *B, int64_t ldb, int64_t sB, int32_t *info,             \
                                    int64_t batch)                                               \
    {                                                                                             \
        return numgpu_##P##gesv_batched_fullpivot_strided(h, n, nrhs, (T *)A, lda, sA, ipiv,     \
                                                          jpiv, (T *)B, ldb, sB, info, batch);    \
    }                                                                                             \
    static numgpu_status P##_gesc2(numgpu_handle *h, int64_t n, const void *A, int64_t lda,      \
                                   int64_t sA, void *rhs, int64_t sR, const int32_t *ipiv,       \
                                   const int32_t *jpiv, void *scale, int64_t batch)              \
    {                                                                                             \
        return numgpu_##P##gesc2_batched_strided(h, n, (const T *)A, lda, sA, (T *)rhs, sR,      \
                                                 ipiv, jpiv, (R *)scale, batch);                  \
    }                                                                                             \
    static void P##_getc2_ref(int n, void *a, int lda, int *ipiv, int *jpiv, int *info)          \
    {                                                                                             \
        P##getc2_(&n, (LT *)a, &lda, ipiv, jpiv, info);                                           \
    }                                                                                             \
    static void P##_gesc2_ref(int n, const void *a, int lda, void *rhs, const int *ipiv,         \
                              const int *jpiv, double *scale)                                     \
    {                                                                                             \
        R s = (R)-1;                                                                              \
        P##gesc2_(&n, (const LT *)a, &lda, (LT *)rhs, ipiv, jpiv, &s);                            \
        *scale = (double)s;                                                                       \
    }

LU_PRECISION(s, float, float, float)
LU_PRECISION(d, double, double, double)
LU_PRECISION(c, numgpu_complex_float, float, float _Complex)
LU_PRECISION(z, numgpu_complex_double, double, double _Complex)

#define LU_ENTRY(P, I, R)                                                                         \
    {&PRECS[I], sizeof(R), P##_getrf, P##_getrf_s, P##_getrs, P##_getrs_s, P##_gesv,         \
     P##_gesv_s, P##_gesc2, P##_getc2_ref, P##_gesc2_ref}

static const lu_t LUS[4] = {LU_ENTRY(s, 0, float), LU_ENTRY(d, 1, double), LU_ENTRY(c, 2, float),
                      LU_ENTRY(z, 3, double)};

/* ---- helpers --------------------------------------------------------------------------- */

enum form { FORM_ARRAY, FORM_STRIDED };
enum space { SPACE_HOST, SPACE_MALLOC };
enum mclass { M_RANDOM, M_TIES, M_RANKDEF, M_DUPROW, M_ZERO, M_TINY, M_COUNT };
static const char *const CLASS_NAME[M_COUNT] = {"random", "ties", "rankdef", "duprow", "zero", "tiny"};
static const char OPC[3] = {'N', 'T', 'C'};

typedef double _Complex dcx;

/* Element e of a buffer as a double complex. */
static dcx get(const prec_t *p, const void *buf, size_t e)
{
    double re = elem(p, buf, e, 0), im = p->cplx ? elem(p, buf, e, 1) : 0.0;
    dcx z = re;
    if (im != 0.0)
        z += im * I;
    return z;
}

/* A matrix of a buffer (element `off`, leading dimension ld) as an n x m double complex array. */
static dcx *load(const prec_t *p, const void *buf, size_t off, size_t ld, size_t rows, size_t cols)
{
    dcx *out = xmalloc(rows * cols * sizeof *out);
    size_t i, j;
    for (j = 0; j < cols; j++)
        for (i = 0; i < rows; i++)
            out[i + j * rows] = get(p, buf, off + i + j * ld);
    return out;
}

static double norm1(const dcx *a, size_t rows, size_t cols)
{
    double best = 0.0;
    size_t i, j;
    for (j = 0; j < cols; j++) {
        double s = 0.0;
        for (i = 0; i < rows; i++)
            s += cabs(a[i + j * rows]);
        if (!(s <= best))
            best = s;
    }
    return best;
}

static double norm_inf(const dcx *a, size_t rows, size_t cols)
{
    double best = 0.0;
    size_t i, j;
    for (i = 0; i < rows; i++) {
        double s = 0.0;
        for (j = 0; j < cols; j++)
            s += cabs(a[i + j * rows]);
        if (!(s <= best))
            best = s;
    }
    return best;
}

/* Uniform integer in [lo, hi]. */
static int rnd_int(int lo, int hi)
{
    int k = lo + (int)floor((rnd() + 1.0) * 0.5 * (double)(hi - lo + 1));
    return k > hi ? hi : k;
}

/* Whether pivots are valid: entry k (0-based) in [k + 1, n]. */
static int pivots_valid(const int32_t *piv, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        if (piv[k] < (int32_t)(k + 1) || piv[k] > (int32_t)n)
            return 0;
    return 1;
}

/* Splits factors F (n x n, double complex) into the products L*U. */
static dcx *lu_product(const dcx *f, size_t n)
{
    dcx *m = xmalloc(n * n * sizeof *m);
    size_t i, j, k;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            size_t kmax = i < j ? i : j;
            dcx s = 0.0;
            for (k = 0; k < kmax; k++)
                s += f[i + k * n] * f[k + j * n];
            /* k = kmax: L(i, i) = 1 when i <= j, else U(j, j) times L(i, j). */
            s += i <= j ? f[i + j * n] : f[i + j * n] * f[j + j * n];
            m[i + j * n] = s;
        }
    return m;
}

/* ||P L U Q - A||_1 / (n ||A||_1 eps): A (n x n double complex) gets the interchanges
 * applied as ?getc2 applies them (step k: rows k, ipiv(k); columns k, jpiv(k)) and is
 * compared with L*U. Invalid pivots: INFINITY. */
static double lu_ratio(const prec_t *p, const dcx *a0, const dcx *f, const int32_t *ipiv, const int32_t *jpiv,
                       size_t n)
{
    dcx *ap, *m;
    size_t i, j, k;
    double r;
    if (!pivots_valid(ipiv, n) || !pivots_valid(jpiv, n))
        return INFINITY;
    ap = xmalloc(n * n * sizeof *ap);
    memcpy(ap, a0, n * n * sizeof *ap);
    for (k = 0; k < n; k++) {
        size_t pr = (size_t)ipiv[k] - 1, pc = (size_t)jpiv[k] - 1;
        for (j = 0; j < n; j++) {
            dcx t = ap[k + j * n];
            ap[k + j * n] = ap[pr + j * n];
            ap[pr + j * n] = t;
        }
        for (i = 0; i < n; i++) {
            dcx t = ap[i + k * n];
            ap[i + k * n] = ap[i + pc * n];
            ap[i + pc * n] = t;
        }
    }
    m = lu_product(f, n);
    for (i = 0; i < n * n; i++)
        m[i] -= ap[i];
    r = ratio_of(norm1(m, n, n), (double)n * norm1(a0, n, n) * p->eps);
    free(ap);
    free(m);
    return r;
}

/* ||F - Fref||_F / (n eps ||Fref||_F). */
static double factor_ratio(const prec_t *p, const dcx *f, const dcx *fref, size_t n)
{
    double d = 0.0, s = 0.0;
    size_t i;
    for (i = 0; i < n * n; i++) {
        double x = cabs(f[i] - fref[i]), y = cabs(fref[i]);
        d += x * x;
        s += y * y;
    }
    return ratio_of(sqrt(d), (double)n * p->eps * sqrt(s));
}

/* ---- the sweep ------------------------------------------------------------------------- */

typedef struct {
    const lu_t *lu;
    enum mclass cls;
    enum form form;
    enum space space;
    size_t n, nb, pad, nrhs;
} lu_case;

static void describe(const lu_case *c, const char *hname, const char *what, char *out, size_t len)
{
    snprintf(out, len, "%s handle, %s arrays, %s%s, %s n=%lu batch=%lu pad=%lu nrhs=%lu seed=%#llx: %s", hname,
             c->space == SPACE_HOST ? "host" : "numgpu_malloc", c->lu->p->letter,
             c->form == FORM_STRIDED ? " strided" : " pointer-array", CLASS_NAME[c->cls], (unsigned long)c->n,
             (unsigned long)c->nb, (unsigned long)c->pad, (unsigned long)c->nrhs,
             (unsigned long long)TEST_SEED, what);
}

/* Fills the n x n matrix at element `off` (leading dimension ld) with class cls; returns its
 * rank when the class knows it exactly (singular classes), else -1 (ties), n otherwise. */
static int generate(const prec_t *p, void *buf, size_t off, size_t ld, size_t n, enum mclass cls, size_t slot)
{
    size_t i, j, r = n;
    size_t *rp = NULL, *cp = NULL;
    double tiny = p->dbl ? 1e-294 : 1e-32;
    int rank = (int)n;

    if (cls == M_RANKDEF) {
        size_t k;
        r = slot % 2 == 0 ? n / 2 : n - 1;
        rp = xmalloc(n * sizeof *rp);
        cp = xmalloc(n * sizeof *cp);
        for (k = 0; k < n; k++)
            rp[k] = cp[k] = k;
        for (k = n; k-- > 1;) { /* Fisher-Yates: the first r of each are the non-zero lines */
            size_t a = (size_t)rnd_int(0, (int)k), b = (size_t)rnd_int(0, (int)k), t;
            t = rp[k], rp[k] = rp[a], rp[a] = t;
            t = cp[k], cp[k] = cp[b], cp[b] = t;
        }
        rank = (int)r;
    }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            set_value(p, buf, off + i + j * ld, 0.0, 0.0);
    switch (cls) {
    case M_ZERO:
        rank = 0;
        break;
    case M_RANKDEF:
        for (j = 0; j < r; j++)
            for (i = 0; i < r; i++) {
                double re = rnd();
                set_value(p, buf, off + rp[i] + cp[j] * ld, re, rnd());
            }
        break;
    case M_TIES: {
        /* D1·H·D2 with H block-diagonal Sylvester-Hadamard blocks of order <= 16 and D1, D2
         * random phases (±1; complex ±1, ±i): every element ties in modulus, and the
         * elimination is exact in floating point (larger Hadamard blocks are not), so any
         * implementation, with fused multiply-adds or without, meets the same ties and must
         * break them as LAPACK does. */
        size_t at = 0, rest = n;
        double *ph = xmalloc(4 * n * sizeof *ph + 1);
        for (i = 0; i < 2 * n; i++) {
            int k = rnd_int(0, p->cplx ? 3 : 1);
            ph[2 * i] = k == 0 ? 1.0 : k == 1 ? -1.0 : 0.0;
            ph[2 * i + 1] = k == 2 ? 1.0 : k == 3 ? -1.0 : 0.0;
        }
        while (rest > 0) {
            size_t b = 1;
            while (b * 2 <= rest && b * 2 <= 16)
                b *= 2;
            for (j = 0; j < b; j++)
                for (i = 0; i < b; i++) {
                    size_t bits = i & j, ones = 0;
                    double h, ar = ph[2 * (at + i)], ai = ph[2 * (at + i) + 1];
                    double br = ph[2 * (n + at + j)], bi = ph[2 * (n + at + j) + 1];
                    for (; bits; bits >>= 1)
                        ones += bits & 1u;
                    h = ones % 2 == 0 ? 1.0 : -1.0;
                    set_value(p, buf, off + at + i + (at + j) * ld, h * (ar * br - ai * bi), h * (ar * bi + ai * br));
                }
            at += b;
            rest -= b;
        }
        free(ph);
        break;
    }
    default: /* random, duprow, tiny */
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++) {
                double re = rnd(), im = rnd();
                if (cls == M_TINY)
                    re *= tiny, im *= tiny;
                set_value(p, buf, off + i + j * ld, re, im);
            }
        if (cls == M_DUPROW && n >= 2) {
            for (j = 0; j < n; j++)
                memcpy(elem_ptr(p, buf, off + n - 1 + j * ld), elem_ptr(p, buf, off + j * ld), p->size);
            /* Real: the multiplier of the copy is exactly 1 and its row becomes exactly zero, so
             * STRICT must stop at step n. Complex: x / x need not round to exactly 1 (LAPACK's
             * ?getc2 does not get an exact zero either), so the rank is not observable. */
            rank = p->cplx ? -1 : (int)n - 1;
        }
        break;
    }
    free(rp);
    free(cp);
    return rank;
}

/* info that STRICT mode must give for a matrix of rank `rank` (-1: unknown). */
static int strict_info(int rank, size_t n)
{
    if (rank < 0)
        return -1;
    return (size_t)rank == n ? 0 : rank + 1;
}

/* Per-rhs residual ratio max_j ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 n eps) of a solve:
 * A at element aoff of `a` (lda), B0 / X at element boff of b0 / x (ldb); product by CBLAS. */
static double residual(const prec_t *p, int32_t trans, const void *a, size_t aoff, size_t lda, const void *b0,
                       const void *x, size_t boff, size_t ldb, size_t n, size_t nrhs)
{
    const double minus1[2] = {-1.0, 0.0}, one[2] = {1.0, 0.0};
    void *r = xmalloc(n * nrhs * p->size);
    dcx *ad = load(p, a, aoff, lda, n, n), *rd, *xd;
    double an = trans == NUMGPU_OP_N ? norm1(ad, n, n) : norm_inf(ad, n, n), worst = 0.0;
    size_t j;
    for (j = 0; j < nrhs; j++)
        memcpy(elem_ptr(p, r, j * n), elem_ptr(p, (void *)b0, boff + j * ldb), n * p->size);
    p->ref(trans, NUMGPU_OP_N, (int)n, (int)nrhs, (int)n, minus1, elem_ptr(p, (void *)a, aoff), (int)lda,
           elem_ptr(p, (void *)x, boff), (int)ldb, one, r, (int)n);
    rd = load(p, r, 0, n, n, nrhs);
    xd = load(p, x, boff, ldb, n, nrhs);
    for (j = 0; j < nrhs; j++) {
        double q = ratio_of(norm1(rd + j * n, n, 1), an * norm1(xd + j * n, n, 1) * (double)n * p->eps);
        if (!(q <= worst))
            worst = q;
    }
    free(r);
    free(ad);
    free(rd);
    free(xd);
    return worst;
}

/* gesc2 agreement: ||L U Q^-1 (x - xref)||_inf / (||L||_inf ||U||_inf max(||x||, ||xref||) n eps)
 * with the factors f (n x n) and column interchanges jpiv. */
static double gesc2_ratio(const prec_t *p, const dcx *f, const int *jpiv, const dcx *x, const dcx *xref, size_t n)
{
    dcx *d = xmalloc(n * sizeof *d), *y = xmalloc(n * sizeof *y), *l = xmalloc(n * n * sizeof *l);
    dcx *u = xmalloc(n * n * sizeof *u);
    double xn = 0.0, r;
    size_t i, j, k;
    for (i = 0; i < n; i++) {
        d[i] = x[i] - xref[i];
        if (!(cabs(x[i]) <= xn))
            xn = cabs(x[i]);
        if (!(cabs(xref[i]) <= xn))
            xn = cabs(xref[i]);
    }
    for (k = 0; k < n; k++) { /* Q^-1: the column interchanges forwards */
        size_t q = (size_t)jpiv[k] - 1;
        dcx t = d[k];
        d[k] = d[q];
        d[q] = t;
    }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            l[i + j * n] = i == j ? 1.0 : i > j ? f[i + j * n] : 0.0;
            u[i + j * n] = i <= j ? f[i + j * n] : 0.0;
        }
    for (i = 0; i < n; i++) { /* y = U d, then L y */
        dcx s = 0.0;
        for (j = i; j < n; j++)
            s += u[i + j * n] * d[j];
        y[i] = s;
    }
    for (i = n; i-- > 0;) {
        dcx s = y[i];
        for (j = 0; j < i; j++)
            s += l[i + j * n] * y[j];
        d[i] = s;
    }
    r = ratio_of(norm_inf(d, n, 1), norm_inf(l, n, n) * norm_inf(u, n, n) * xn * (double)n * p->eps);
    free(d);
    free(y);
    free(l);
    free(u);
    return r;
}

static size_t slot_of(const lu_case *c, size_t i)
{
    return c->form == FORM_ARRAY ? c->nb - 1 - i : i;
}

/* Poisons an int32 array. */
static void poison(int32_t *x, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++)
        x[i] = -99;
}

static void run_case(numgpu_handle *h, const char *hname, const lu_case *c)
{
    const lu_t *lu = c->lu;
    const prec_t *p = lu->p;
    const size_t n = c->n, nb = c->nb, pad = c->pad, nrhs = c->nrhs;
    const size_t lda = n + pad, sa = lda * n + pad, lena = (nb - 1) * sa + lda * n;
    const size_t ldb = n + pad, sb = ldb * nrhs + pad, lenb = (nb - 1) * sb + ldb * nrhs;
    const size_t sr = n + pad, lenr = (nb - 1) * sr + n;
    const size_t abytes = lena * p->size, bbytes = lenb * p->size, rbytes = lenr * p->size;
    const size_t pbytes = n * nb * sizeof(int32_t), ibytes = nb * sizeof(int32_t);
    void *A0 = xmalloc(abytes), *Fref = xmalloc(abytes), *F = xmalloc(abytes), *S = xmalloc(abytes);
    void *G = xmalloc(abytes), *B0 = xmalloc(bbytes), *X = xmalloc(bbytes), *R0 = xmalloc(rbytes);
    void *Rx = xmalloc(rbytes), *Rref = xmalloc(rbytes), *scale = xmalloc(nb * lu->rsize);
    int *ipr = xmalloc(n * nb * sizeof *ipr), *jpr = xmalloc(n * nb * sizeof *jpr), *infor = xmalloc(nb * sizeof *infor);
    int32_t *ip = xmalloc(pbytes), *jp = xmalloc(pbytes), *info = xmalloc(ibytes);
    int32_t *ips = xmalloc(pbytes), *jps = xmalloc(pbytes), *infos = xmalloc(ibytes);
    int32_t *ipg = xmalloc(pbytes), *jpg = xmalloc(pbytes), *infog = xmalloc(ibytes);
    int32_t *ipr32 = xmalloc(pbytes), *jpr32 = xmalloc(pbytes);
    double *scaleref = xmalloc(nb * sizeof *scaleref);
    int *rank = xmalloc(nb * sizeof *rank);
    char *inside_a = xmalloc(lena), *inside_b = xmalloc(lenb);
    void **pa = xmalloc(nb * sizeof *pa), **pb = xmalloc(nb * sizeof *pb);
    stage_t st;
    char what[640], detail[400];
    const char *fail;
    numgpu_status s;
    size_t i, e, k;
    int32_t t;

    memset(&st, 0, sizeof st);
    st.h = h;
    st.dev = c->space == SPACE_MALLOC;

    /* Inputs: sentinels in padding and gaps. */
    for (e = 0; e < lena; e++)
        set_value(p, A0, e, 777.0, -777.0);
    for (e = 0; e < lenb; e++)
        set_value(p, B0, e, 555.0, -555.0);
    for (e = 0; e < lenr; e++)
        set_value(p, R0, e, 333.0, -333.0);
    memset(inside_a, 0, lena);
    memset(inside_b, 0, lenb);
    for (i = 0; i < nb; i++) {
        size_t j, r;
        rank[i] = generate(p, A0, i * sa, lda, n, c->cls, i);
        for (j = 0; j < n; j++)
            for (r = 0; r < n; r++)
                inside_a[i * sa + j * lda + r] = 1;
        for (j = 0; j < nrhs; j++)
            for (r = 0; r < n; r++) {
                double re = rnd();
                set_value(p, B0, i * sb + j * ldb + r, re, rnd());
                inside_b[i * sb + j * ldb + r] = 1;
            }
        for (r = 0; r < n; r++) {
            double re = rnd();
            set_value(p, R0, i * sr + r, re, rnd());
        }
    }

    /* LAPACK reference: ?getc2 per matrix (slot order), then ?gesc2 on its factors. */
    memcpy(Fref, A0, abytes);
    memcpy(Rref, R0, rbytes);
    for (i = 0; i < nb; i++) {
        lu->getc2_ref((int)n, elem_ptr(p, Fref, i * sa), (int)lda, ipr + i * n, jpr + i * n, &infor[i]);
        lu->gesc2_ref((int)n, elem_ptr(p, Fref, i * sa), (int)lda, elem_ptr(p, Rref, i * sr), ipr + i * n,
                      jpr + i * n, &scaleref[i]);
    }
    for (k = 0; k < n * nb; k++)
        ipr32[k] = ipr[k], jpr32[k] = jpr[k];

    /* ---- 1. getrf, mode GETC2, against ?getc2 ---- */
    {
        void *dA;
        int32_t *dip, *djp, *dinfo;
        double worst_f = 0.0, worst_lu = 0.0;
        memcpy(F, A0, abytes);
        poison(ip, n * nb);
        poison(jp, n * nb);
        poison(info, nb);
        dA = put(&st, F, abytes);
        dip = put(&st, ip, pbytes);
        djp = put(&st, jp, pbytes);
        dinfo = put(&st, info, ibytes);
        for (i = 0; i < nb; i++)
            pa[i] = elem_ptr(p, dA, slot_of(c, i) * sa);
        if (c->form == FORM_ARRAY)
            s = lu->getrf(h, (int64_t)n, pa, (int64_t)lda, dip, djp, dinfo, (int64_t)nb, NUMGPU_FULLPIVOT_GETC2,
                          st.dev ? h : NULL);
        else
            s = lu->getrf_s(h, (int64_t)n, dA, (int64_t)lda, (int64_t)sa, dip, djp, dinfo, (int64_t)nb,
                            NUMGPU_FULLPIVOT_GETC2);
        fail = NULL;
        detail[0] = '\0';
        if (s != NUMGPU_SUCCESS) {
            fail = "call failed";
            snprintf(detail, sizeof detail, "status %d: %.300s", (int)s, last_error());
        }
        {
            const char *b = back(&st);
            if (!fail && b)
                fail = b;
        }
        /* Complex duprow: x / x need not round to exactly 1, so the last trailing block is
         * rounding noise, and which noise element wins (and whether it is below SMIN) depends
         * on the implementation's rounding: only P·L·U·Q = A is meaningful there. */
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            const int noisy = c->cls == M_DUPROW && p->cplx;
            if (!noisy && info[i] != infor[sl]) {
                fail = "info differs from ?getc2";
                snprintf(detail, sizeof detail, "matrix %lu (slot %lu): info %d, ?getc2 %d", (unsigned long)i,
                         (unsigned long)sl, (int)info[i], infor[sl]);
            }
            for (k = 0; !noisy && !fail && k < n; k++)
                if (ip[i * n + k] != ipr[sl * n + k] || jp[i * n + k] != jpr[sl * n + k]) {
                    fail = "pivots differ from ?getc2";
                    snprintf(detail, sizeof detail,
                             "matrix %lu (slot %lu), step %lu: ipiv %d jpiv %d, ?getc2 ipiv %d jpiv %d",
                             (unsigned long)i, (unsigned long)sl, (unsigned long)k + 1, (int)ip[i * n + k],
                             (int)jp[i * n + k], ipr[sl * n + k], jpr[sl * n + k]);
                }
            if (!fail) {
                dcx *f = load(p, F, sl * sa, lda, n, n), *fr = load(p, Fref, sl * sa, lda, n, n);
                double q = factor_ratio(p, f, fr, n);
                if (!(q <= worst_f))
                    worst_f = q;
                if (!noisy && !(q <= TOL)) {
                    fail = "factors differ from ?getc2's";
                    snprintf(detail, sizeof detail, "matrix %lu: ||F - Fref||_F / (n eps ||Fref||_F) = %.3g",
                             (unsigned long)i, q);
                }
                if (!fail && info[i] == 0) {
                    dcx *a0 = load(p, A0, sl * sa, lda, n, n);
                    q = lu_ratio(p, a0, f, ip + i * n, jp + i * n, n);
                    if (!(q <= worst_lu))
                        worst_lu = q;
                    if (!(q <= TOL)) {
                        fail = "P L U Q != A";
                        snprintf(detail, sizeof detail, "matrix %lu: ||PLUQ - A||_1 / (n ||A||_1 eps) = %.3g",
                                 (unsigned long)i, q);
                    }
                    free(a0);
                }
                free(f);
                free(fr);
            }
        }
        for (e = 0; !fail && e < lena; e++)
            if (!inside_a[e] && memcmp(elem_ptr(p, F, e), elem_ptr(p, A0, e), p->size) != 0) {
                fail = "A modified outside its matrices (padding or gap)";
                snprintf(detail, sizeof detail, "element %lu", (unsigned long)e);
            }
        if (!fail)
            snprintf(detail, sizeof detail, "worst factor ratio %.3g, worst PLUQ ratio %.3g", worst_f, worst_lu);
        describe(c, hname, "getrf GETC2 vs ?getc2", what, sizeof what);
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
    }

    /* ---- 2. gesc2 on ?getc2's factors, against ?gesc2 ---- */
    {
        void *dF, *dR, *dsc;
        int32_t *dip, *djp;
        double worst = 0.0;
        memcpy(Rx, R0, rbytes);
        memset(scale, 0xFF, nb * lu->rsize);
        memcpy(S, Fref, abytes); /* must stay unchanged */
        dF = put(&st, S, abytes);
        dR = put(&st, Rx, rbytes);
        dip = put(&st, ipr32, pbytes);
        djp = put(&st, jpr32, pbytes);
        dsc = put(&st, scale, nb * lu->rsize);
        s = lu->gesc2(h, (int64_t)n, dF, (int64_t)lda, (int64_t)sa, dR, (int64_t)sr, dip, djp, dsc, (int64_t)nb);
        fail = NULL;
        detail[0] = '\0';
        if (s != NUMGPU_SUCCESS) {
            fail = "call failed";
            snprintf(detail, sizeof detail, "status %d: %.300s", (int)s, last_error());
        }
        {
            const char *b = back(&st);
            if (!fail && b)
                fail = b;
        }
        for (i = 0; !fail && i < nb; i++) {
            double sc = lu->rsize == sizeof(double) ? ((double *)scale)[i] : (double)((float *)scale)[i];
            dcx *f = load(p, Fref, i * sa, lda, n, n), *x = load(p, Rx, i * sr, 1, n, 1);
            dcx *xr = load(p, Rref, i * sr, 1, n, 1);
            double q;
            if (!(fabs(sc - scaleref[i]) <= TOL * (double)n * p->eps * scaleref[i])) {
                fail = "scale differs from ?gesc2's";
                snprintf(detail, sizeof detail, "matrix %lu: scale %.17g, ?gesc2 %.17g", (unsigned long)i, sc,
                         scaleref[i]);
            }
            q = gesc2_ratio(p, f, jpr + i * n, x, xr, n);
            if (!(q <= worst))
                worst = q;
            if (!fail && !(q <= TOL)) {
                fail = "x differs from ?gesc2's";
                snprintf(detail, sizeof detail, "matrix %lu: ||LUQ^-1 (x - xref)|| ratio %.3g (scale %g)",
                         (unsigned long)i, q, sc);
            }
            free(f);
            free(x);
            free(xr);
        }
        for (i = 0; !fail && i + 1 < nb; i++)
            for (e = n; e < sr; e++)
                if (memcmp(elem_ptr(p, Rx, i * sr + e), elem_ptr(p, R0, i * sr + e), p->size) != 0)
                    fail = "rhs modified between its vectors";
        if (!fail && memcmp(S, Fref, abytes) != 0)
            fail = "A modified by gesc2";
        if (!fail)
            snprintf(detail, sizeof detail, "worst x ratio %.3g", worst);
        describe(c, hname, "gesc2 vs ?gesc2", what, sizeof what);
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
    }

    /* ---- 3. getrs N, T, C with numgpu's factors, where info = 0 ---- */
    for (t = NUMGPU_OP_N; t <= NUMGPU_OP_C; t++) {
        void *dF, *dX;
        int32_t *dip, *djp;
        double worst = 0.0;
        size_t solved = 0;
        memcpy(X, B0, bbytes);
        memcpy(S, F, abytes);
        dF = put(&st, S, abytes);
        dX = put(&st, X, bbytes);
        dip = put(&st, ip, pbytes);
        djp = put(&st, jp, pbytes);
        for (i = 0; i < nb; i++) {
            pa[i] = elem_ptr(p, dF, slot_of(c, i) * sa);
            pb[i] = elem_ptr(p, dX, slot_of(c, i) * sb);
        }
        if (c->form == FORM_ARRAY)
            s = lu->getrs(h, t, (int64_t)n, (int64_t)nrhs, pa, (int64_t)lda, dip, djp, pb, (int64_t)ldb,
                          (int64_t)nb, st.dev ? h : NULL);
        else
            s = lu->getrs_s(h, t, (int64_t)n, (int64_t)nrhs, dF, (int64_t)lda, (int64_t)sa, dip, djp, dX,
                            (int64_t)ldb, (int64_t)sb, (int64_t)nb);
        fail = NULL;
        detail[0] = '\0';
        if (s != NUMGPU_SUCCESS) {
            fail = "call failed";
            snprintf(detail, sizeof detail, "status %d: %.300s", (int)s, last_error());
        }
        {
            const char *b = back(&st);
            if (!fail && b)
                fail = b;
        }
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            double q;
            if (info[i] != 0)
                continue; /* a perturbed factorisation solves the perturbed system */
            solved++;
            q = residual(p, t, A0, sl * sa, lda, B0, X, sl * sb, ldb, n, nrhs);
            if (!(q <= worst))
                worst = q;
            if (!(q <= TOL)) {
                fail = "residual too large";
                snprintf(detail, sizeof detail, "matrix %lu: ||b - op(A) x||_1 / (||op(A)||_1 ||x||_1 n eps) = %.3g",
                         (unsigned long)i, q);
            }
        }
        for (e = 0; !fail && e < lenb; e++)
            if (!inside_b[e] && memcmp(elem_ptr(p, X, e), elem_ptr(p, B0, e), p->size) != 0)
                fail = "B modified outside its matrices (padding or gap)";
        if (!fail && memcmp(S, F, abytes) != 0)
            fail = "the factors were modified by getrs";
        if (!fail)
            snprintf(detail, sizeof detail, "%lu of %lu matrices checked, worst residual %.3g",
                     (unsigned long)solved, (unsigned long)nb, worst);
        {
            char w[32];
            snprintf(w, sizeof w, "getrs trans %c", OPC[t]);
            describe(c, hname, w, what, sizeof what);
        }
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
    }

    /* ---- 4. getrf, mode STRICT ---- */
    {
        void *dA;
        int32_t *dip, *djp, *dinfo;
        double worst = 0.0;
        memcpy(S, A0, abytes);
        poison(ips, n * nb);
        poison(jps, n * nb);
        poison(infos, nb);
        dA = put(&st, S, abytes);
        dip = put(&st, ips, pbytes);
        djp = put(&st, jps, pbytes);
        dinfo = put(&st, infos, ibytes);
        for (i = 0; i < nb; i++)
            pa[i] = elem_ptr(p, dA, slot_of(c, i) * sa);
        if (c->form == FORM_ARRAY)
            s = lu->getrf(h, (int64_t)n, pa, (int64_t)lda, dip, djp, dinfo, (int64_t)nb, NUMGPU_FULLPIVOT_STRICT,
                          st.dev ? h : NULL);
        else
            s = lu->getrf_s(h, (int64_t)n, dA, (int64_t)lda, (int64_t)sa, dip, djp, dinfo, (int64_t)nb,
                            NUMGPU_FULLPIVOT_STRICT);
        fail = NULL;
        detail[0] = '\0';
        if (s != NUMGPU_SUCCESS) {
            fail = "call failed";
            snprintf(detail, sizeof detail, "status %d: %.300s", (int)s, last_error());
        }
        {
            const char *b = back(&st);
            if (!fail && b)
                fail = b;
        }
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            int want = strict_info(rank[sl], n);
            dcx *a0, *f;
            double q;
            if (want >= 0 && infos[i] != want) {
                fail = "wrong info";
                snprintf(detail, sizeof detail, "matrix %lu (slot %lu, rank %d): info %d, want %d", (unsigned long)i,
                         (unsigned long)sl, rank[sl], (int)infos[i], want);
                break;
            }
            if (infos[i] < 0 || infos[i] > (int32_t)n) {
                fail = "info out of range";
                snprintf(detail, sizeof detail, "matrix %lu: info %d", (unsigned long)i, (int)infos[i]);
                break;
            }
            for (k = infos[i] > 0 ? (size_t)infos[i] - 1 : n; !fail && k < n; k++)
                if (ips[i * n + k] != (int32_t)(k + 1) || jps[i * n + k] != (int32_t)(k + 1)) {
                    fail = "pivots after a zero trailing block are not the identity";
                    snprintf(detail, sizeof detail, "matrix %lu, info %d, step %lu: ipiv %d jpiv %d",
                             (unsigned long)i, (int)infos[i], (unsigned long)k + 1, (int)ips[i * n + k],
                             (int)jps[i * n + k]);
                }
            if (!fail && c->cls == M_RANDOM)
                for (k = 0; !fail && k < n; k++)
                    if (ips[i * n + k] != ipr[sl * n + k] || jps[i * n + k] != jpr[sl * n + k]) {
                        fail = "pivots of a random matrix differ from ?getc2's";
                        snprintf(detail, sizeof detail, "matrix %lu, step %lu: ipiv %d jpiv %d, ?getc2 %d %d",
                                 (unsigned long)i, (unsigned long)k + 1, (int)ips[i * n + k], (int)jps[i * n + k],
                                 ipr[sl * n + k], jpr[sl * n + k]);
                    }
            if (fail)
                break;
            a0 = load(p, A0, sl * sa, lda, n, n);
            f = load(p, S, sl * sa, lda, n, n);
            q = lu_ratio(p, a0, f, ips + i * n, jps + i * n, n);
            if (!(q <= worst))
                worst = q;
            if (!(q <= TOL)) {
                fail = "P L U Q != A";
                snprintf(detail, sizeof detail, "matrix %lu (info %d): ||PLUQ - A||_1 / (n ||A||_1 eps) = %.3g",
                         (unsigned long)i, (int)infos[i], q);
            }
            free(a0);
            free(f);
        }
        for (e = 0; !fail && e < lena; e++)
            if (!inside_a[e] && memcmp(elem_ptr(p, S, e), elem_ptr(p, A0, e), p->size) != 0)
                fail = "A modified outside its matrices (padding or gap)";
        if (!fail)
            snprintf(detail, sizeof detail, "worst PLUQ ratio %.3g", worst);
        describe(c, hname, "getrf STRICT", what, sizeof what);
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
    }

    /* ---- 5. gesv (STRICT + solve) ---- */
    {
        void *dA, *dX;
        int32_t *dip, *djp, *dinfo;
        double worst = 0.0;
        size_t singular = 0;
        memcpy(G, A0, abytes);
        memcpy(X, B0, bbytes);
        poison(ipg, n * nb);
        poison(jpg, n * nb);
        poison(infog, nb);
        dA = put(&st, G, abytes);
        dip = put(&st, ipg, pbytes);
        djp = put(&st, jpg, pbytes);
        dX = put(&st, X, bbytes);
        dinfo = put(&st, infog, ibytes);
        for (i = 0; i < nb; i++) {
            pa[i] = elem_ptr(p, dA, slot_of(c, i) * sa);
            pb[i] = elem_ptr(p, dX, slot_of(c, i) * sb);
        }
        if (c->form == FORM_ARRAY)
            s = lu->gesv(h, (int64_t)n, (int64_t)nrhs, pa, (int64_t)lda, dip, djp, pb, (int64_t)ldb, dinfo,
                         (int64_t)nb, st.dev ? h : NULL);
        else
            s = lu->gesv_s(h, (int64_t)n, (int64_t)nrhs, dA, (int64_t)lda, (int64_t)sa, dip, djp, dX, (int64_t)ldb,
                           (int64_t)sb, dinfo, (int64_t)nb);
        fail = NULL;
        detail[0] = '\0';
        if (s != NUMGPU_SUCCESS) {
            fail = "call failed";
            snprintf(detail, sizeof detail, "status %d: %.300s", (int)s, last_error());
        }
        {
            const char *b = back(&st);
            if (!fail && b)
                fail = b;
        }
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            if (infog[i] != infos[i] || memcmp(ipg + i * n, ips + i * n, n * sizeof *ipg) != 0 ||
                memcmp(jpg + i * n, jps + i * n, n * sizeof *jpg) != 0) {
                fail = "info or pivots differ from getrf STRICT";
                snprintf(detail, sizeof detail, "matrix %lu: info %d, getrf STRICT %d", (unsigned long)i,
                         (int)infog[i], (int)infos[i]);
            } else if (infog[i] > 0) {
                size_t j;
                singular++;
                for (j = 0; !fail && j < nrhs; j++)
                    if (memcmp(elem_ptr(p, X, sl * sb + j * ldb), elem_ptr(p, B0, sl * sb + j * ldb),
                               n * p->size) != 0) {
                        fail = "B of a singular matrix was modified";
                        snprintf(detail, sizeof detail, "matrix %lu (info %d), column %lu", (unsigned long)i,
                                 (int)infog[i], (unsigned long)j);
                    }
            } else {
                double q = residual(p, NUMGPU_OP_N, A0, sl * sa, lda, B0, X, sl * sb, ldb, n, nrhs);
                if (!(q <= worst))
                    worst = q;
                if (!(q <= TOL)) {
                    fail = "residual too large";
                    snprintf(detail, sizeof detail, "matrix %lu: ||b - A x||_1 / (||A||_1 ||x||_1 n eps) = %.3g",
                             (unsigned long)i, q);
                }
            }
        }
        for (e = 0; !fail && e < lenb; e++)
            if (!inside_b[e] && memcmp(elem_ptr(p, X, e), elem_ptr(p, B0, e), p->size) != 0)
                fail = "B modified outside its matrices (padding or gap)";
        for (e = 0; !fail && e < lena; e++)
            if (!inside_a[e] && memcmp(elem_ptr(p, G, e), elem_ptr(p, A0, e), p->size) != 0)
                fail = "A modified outside its matrices (padding or gap)";
        if (!fail)
            snprintf(detail, sizeof detail, "%lu singular, worst residual %.3g", (unsigned long)singular, worst);
        describe(c, hname, "gesv", what, sizeof what);
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
    }

    free(A0);
    free(Fref);
    free(F);
    free(S);
    free(G);
    free(B0);
    free(X);
    free(R0);
    free(Rx);
    free(Rref);
    free(scale);
    free(ipr);
    free(jpr);
    free(infor);
    free(ip);
    free(jp);
    free(info);
    free(ips);
    free(jps);
    free(infos);
    free(ipg);
    free(jpg);
    free(infog);
    free(ipr32);
    free(jpr32);
    free(scaleref);
    free(rank);
    free(inside_a);
    free(inside_b);
    free(pa);
    free(pb);
}

static const size_t NS[] = {1, 2, 3, 7, 8, 16, 31, 32, 33, 64};
static const size_t BATCHES[] = {1, 3, 37};

static void sweep(numgpu_handle *h, const char *hname, enum space sp)
{
    static unsigned counter;
    int pi, cl, fo;
    size_t ni;
    for (pi = 0; pi < 4; pi++)
        for (cl = 0; cl < M_COUNT; cl++)
            for (ni = 0; ni < sizeof NS / sizeof NS[0]; ni++)
                for (fo = FORM_ARRAY; fo <= FORM_STRIDED; fo++) {
                    lu_case c;
                    c.lu = &LUS[pi];
                    c.cls = (enum mclass)cl;
                    c.form = (enum form)fo;
                    c.space = sp;
                    c.n = NS[ni];
                    c.nb = BATCHES[counter % 3];
                    c.pad = counter % 4 == 1 ? 2 : counter % 4 == 3 ? 1 : 0;
                    c.nrhs = 1 + (counter / 3) % 3;
                    counter++;
                    run_case(h, hname, &c);
                }
}

/* ---- argument checks ------------------------------------------------------------------ */

static void error_checks(numgpu_handle *h, const char *hname, const lu_t *lu)
{
    enum { N = 4, NB = 2, LDA = 4, SA = 16, NRHS = 2, LDB = 4, SB = 8 };
    const prec_t *p = lu->p;
    void *A = xmalloc(NB * SA * p->size), *A0 = xmalloc(NB * SA * p->size);
    void *B = xmalloc(NB * SB * p->size), *B0 = xmalloc(NB * SB * p->size);
    void *sc = xmalloc(NB * lu->rsize), *sc0 = xmalloc(NB * lu->rsize);
    int32_t ip[N * NB], jp[N * NB], info[NB], good[N * NB], bad[N * NB], bad_hi[N * NB];
    int32_t ip0[N * NB], jp0[N * NB], info0[NB];
    void *pa[NB], *pb[NB];
    char fn[96];
    int form, k;
    numgpu_status s;

#define SAME                                                                                      \
    (memcmp(A, A0, NB * SA * p->size) == 0 && memcmp(B, B0, NB * SB * p->size) == 0 &&            \
     memcmp(sc, sc0, NB * lu->rsize) == 0 && memcmp(ip, ip0, sizeof ip) == 0 &&                   \
     memcmp(jp, jp0, sizeof jp) == 0 && memcmp(info, info0, sizeof info) == 0)

    for (k = 0; k < NB * SA; k++) {
        double re = rnd();
        set_value(p, A, (size_t)k, re, rnd());
    }
    for (k = 0; k < NB * SB; k++) {
        double re = rnd();
        set_value(p, B, (size_t)k, re, rnd());
    }
    memset(sc, 0x5A, NB * lu->rsize);
    for (k = 0; k < N * NB; k++) {
        ip[k] = jp[k] = -99;
        good[k] = bad[k] = bad_hi[k] = k % N + 1;
    }
    bad[1] = 1;        /* entry k = 2 must be in [2, n] */
    bad_hi[N + 2] = 5; /* > n */
    info[0] = info[1] = -99;
    memcpy(A0, A, NB * SA * p->size);
    memcpy(B0, B, NB * SB * p->size);
    memcpy(sc0, sc, NB * lu->rsize);
    memcpy(ip0, ip, sizeof ip);
    memcpy(jp0, jp, sizeof jp);
    memcpy(info0, info, sizeof info);
    for (k = 0; k < NB; k++) {
        pa[k] = elem_ptr(p, A, (size_t)k * SA);
        pb[k] = elem_ptr(p, B, (size_t)k * SB);
    }

    for (form = 0; form < 2; form++) {
        const char *sfx = form ? "_strided" : "";
        const int o = form; /* the strided forms have strideA after lda */
        int32_t modes[2] = {2, -1};
        int m;

        snprintf(fn, sizeof fn, "numgpu_%sgetrf_batched_fullpivot%s", p->letter, sfx);
        for (m = 0; m < 2; m++) {
            char needle[32];
            snprintf(needle, sizeof needle, "(mode = %d)", (int)modes[m]);
            s = form ? lu->getrf_s(h, N, A, LDA, SA, ip, jp, info, NB, modes[m])
                     : lu->getrf(h, N, pa, LDA, ip, jp, info, NB, modes[m], NULL);
            expect_invalid(s, fn, 9 + o, needle, SAME, hname, "mode out of range");
        }
        s = form ? lu->getrf_s(h, N, A, LDA, SA, NULL, jp, info, NB, NUMGPU_FULLPIVOT_GETC2)
                 : lu->getrf(h, N, pa, LDA, NULL, jp, info, NB, NUMGPU_FULLPIVOT_GETC2, NULL);
        expect_invalid(s, fn, 5 + o, "ipiv", SAME, hname, "NULL ipiv");
        s = form ? lu->getrf_s(h, N, A, N - 1, SA, ip, jp, info, NB, NUMGPU_FULLPIVOT_STRICT)
                 : lu->getrf(h, N, pa, N - 1, ip, jp, info, NB, NUMGPU_FULLPIVOT_STRICT, NULL);
        expect_invalid(s, fn, 4, "(lda = 3)", SAME, hname, "lda < n");

        snprintf(fn, sizeof fn, "numgpu_%sgetrs_batched_fullpivot%s", p->letter, sfx);
        s = form ? lu->getrs_s(h, 3, N, NRHS, A, LDA, SA, good, good, B, LDB, SB, NB)
                 : lu->getrs(h, 3, N, NRHS, pa, LDA, good, good, pb, LDB, NB, NULL);
        expect_invalid(s, fn, 2, "trans", SAME, hname, "trans = 3");
        s = form ? lu->getrs_s(h, NUMGPU_OP_N, N, NRHS, A, LDA, SA, bad, good, B, LDB, SB, NB)
                 : lu->getrs(h, NUMGPU_OP_N, N, NRHS, pa, LDA, bad, good, pb, LDB, NB, NULL);
        expect_invalid(s, fn, 7 + o, "ipiv", SAME, hname, "host ipiv entry out of range");
        s = form ? lu->getrs_s(h, NUMGPU_OP_T, N, NRHS, A, LDA, SA, good, bad_hi, B, LDB, SB, NB)
                 : lu->getrs(h, NUMGPU_OP_T, N, NRHS, pa, LDA, good, bad_hi, pb, LDB, NB, NULL);
        expect_invalid(s, fn, 8 + o, "jpiv", SAME, hname, "host jpiv entry > n");

        snprintf(fn, sizeof fn, "numgpu_%sgesv_batched_fullpivot%s", p->letter, sfx);
        s = form ? lu->gesv_s(h, N, NRHS, A, N - 1, SA, ip, jp, B, LDB, SB, info, NB)
                 : lu->gesv(h, N, NRHS, pa, N - 1, ip, jp, pb, LDB, info, NB, NULL);
        expect_invalid(s, fn, 5, "(lda = 3)", SAME, hname, "lda < n");
        s = form ? lu->gesv_s(h, N, NRHS, A, LDA, SA, ip, jp, B, LDB, SB, NULL, NB)
                 : lu->gesv(h, N, NRHS, pa, LDA, ip, jp, pb, LDB, NULL, NB, NULL);
        expect_invalid(s, fn, 10 + 2 * o, "info", SAME, hname, "NULL info");

        /* n = 0 and batch = 0: success, nothing touched. */
        snprintf(fn, sizeof fn, "numgpu_%sgetrf_batched_fullpivot%s", p->letter, sfx);
        s = form ? lu->getrf_s(h, 0, A, 1, SA, ip, jp, info, NB, NUMGPU_FULLPIVOT_GETC2)
                 : lu->getrf(h, 0, pa, 1, ip, jp, info, NB, NUMGPU_FULLPIVOT_GETC2, NULL);
        check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with n = 0: status %d (%s), outputs %s", hname, fn, (int)s,
              last_error(), SAME ? "untouched" : "MODIFIED");
        s = form ? lu->getrf_s(h, N, A, LDA, SA, ip, jp, info, 0, NUMGPU_FULLPIVOT_STRICT)
                 : lu->getrf(h, N, pa, LDA, ip, jp, info, 0, NUMGPU_FULLPIVOT_STRICT, NULL);
        check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with batch = 0: status %d (%s), outputs %s", hname, fn,
              (int)s, last_error(), SAME ? "untouched" : "MODIFIED");
        snprintf(fn, sizeof fn, "numgpu_%sgesv_batched_fullpivot%s", p->letter, sfx);
        s = form ? lu->gesv_s(h, N, NRHS, A, LDA, SA, ip, jp, B, LDB, SB, info, 0)
                 : lu->gesv(h, N, NRHS, pa, LDA, ip, jp, pb, LDB, info, 0, NULL);
        check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with batch = 0: status %d (%s), outputs %s", hname, fn,
              (int)s, last_error(), SAME ? "untouched" : "MODIFIED");
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
        return finish("test_getrf");
    numgpu_get_backend(autoh, &be);
    aname = be == NUMGPU_BACKEND_CUDA ? "AUTO(CUDA)" : "AUTO(CPU)";
    printf("test_getrf: numgpu %s, AUTO handle runs on %s\n", numgpu_version(), backend_name(be));
    if (env_is_1("NUMGPU_REQUIRE_CUDA"))
        check(be == NUMGPU_BACKEND_CUDA, "NUMGPU_REQUIRE_CUDA=1 but the AUTO handle runs on %s", backend_name(be));

    for (pi = 0; pi < 4; pi++)
        error_checks(autoh, aname, &LUS[pi]);
    sweep(autoh, aname, SPACE_HOST);
    sweep(autoh, aname, SPACE_MALLOC);
    if (be == NUMGPU_BACKEND_CUDA) {
        printf("test_getrf: CUDA device available: the numgpu_malloc cases ran on device pointers; "
               "running the host cases on a CPU handle too\n");
        st = numgpu_create_with(&cpuh, NUMGPU_BACKEND_CPU, 0);
        check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): status %d (%s)", (int)st, last_error());
        if (cpuh != NULL) {
            for (pi = 0; pi < 4; pi++)
                error_checks(cpuh, "CPU", &LUS[pi]);
            sweep(cpuh, "CPU", SPACE_HOST);
            st = numgpu_destroy(cpuh);
            check(st == NUMGPU_SUCCESS, "numgpu_destroy(CPU): status %d (%s)", (int)st, last_error());
        }
    } else {
        printf("test_getrf: no CUDA here, so the numgpu_malloc cases ran on host memory "
               "(device pointers are exercised on a GPU host)\n");
    }

    st = numgpu_destroy(autoh);
    check(st == NUMGPU_SUCCESS, "numgpu_destroy(AUTO): status %d (%s)", (int)st, last_error());
    return finish("test_getrf");
}
