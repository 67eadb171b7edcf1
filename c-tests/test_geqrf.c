/* test_geqrf: numgpu's batched QR by Givens rotations as a drop-in for loops of LAPACKE
 * ?geqrf / ?orgqr (?ungqr) / ?ormqr (?unmqr) / ?gels calls.
 *
 * For s, d, c, z, n in {1, 2, 3, 8, 16, 31, 32, 33, 64} with m = n, n + 1, 2n, batches of 1 to
 * 3 (matrices in reverse order behind the pointer arrays), padded leading dimensions and gaps
 * between the matrices, the pointer-array and strided forms in turn, and these classes:
 *   random      uniform(-1, 1) (real and imaginary parts);
 *   zerocol     random with column j0 = n/2 exactly zero (n = 1: the zero matrix): R(j0, j0)
 *               is exactly zero, the rotations of column j0 are the identity;
 *   triangular  upper triangular (diagonal 2 + uniform(-1, 1)), zeros below: every rotation
 *               is the identity (s = 0, c = 1) and R is A exactly;
 *   scaled      random with columns scaled by 1e-20, 1, 1e20 in turn (float too: there the
 *               squares under- and overflow, so the rotations need LAPACK's safe scaling);
 * every case checks:
 *  - geqrf: status; R against LAPACKE ?geqrf's R up to a unit diagonal D (row i of ours is
 *    d_i times LAPACK's, |d_i| = 1 from the diagonals): max |R(i,j) - d_i Rref(i,j)| /
 *    (m eps ||a_j||) < 30 (columnwise, as QR is columnwise stable, so the scaled class is
 *    held to it too; no conditioning factor: every class here is well conditioned once its
 *    columns are normalised, and R may differ by up to kappa(A) eps otherwise); for zerocol
 *    only the rows above j0 (the rest of R is not unique) and column j0 exactly zero;
 *    triangular: R == A, s == 0, c == 1 exactly; every stored rotation has 0 <= c <= 1 and
 *    |c^2 + |s|^2 - 1| <= 30 eps; the entries of CS with i <= j, the padding and the gaps of A
 *    and CS bitwise unchanged (CS poisoned with NaN);
 *  - orgqr / ungqr (m, n, k = n): max_j ||a_j - Q r_j|| / (m eps ||a_j||) < 30 (Q R by
 *    cblas_?gemm; a zero column must come back exactly) and ||I - Q^H Q||_1 / (m eps) < 30;
 *  - orgqr / ungqr (m, m, k), k = n or ceil(n/2) in turn, on an m x m array whose columns
 *    beyond n are NaN: ||I - Q^H Q||_1 / (m eps) < 30; with k = n its first n columns equal the
 *    thin Q within 30 m eps;
 *  - ormqr / unmqr for side L and R, trans N and T (real) / C (complex), with the same k:
 *    ||C - op(Q) C0||_F (or C0 op(Q)) / (m eps ||C0||_F) < 30 against cblas_?gemm with that
 *    explicit Q; padding and gaps of C unchanged;
 *  - gels against LAPACKE ?gels: the same info (zerocol: info = j0 + 1 with B bitwise
 *    unchanged; LAPACK's ?gels answers the zero matrix with info = 0 and X = 0 instead, see
 *    below); else per column the optimality ratio ||A^H (b - A x)|| / (m eps ||A||_F
 *    (||A||_F ||x|| + ||b||)) < 30, the residual coordinates in rows n+1..m with the norm of
 *    b - A x (| ||B(n+1:m, j)|| - ||b - A x|| | / (m eps (||A||_F ||x|| + ||b||)) < 30), and
 *    for random matrices X against LAPACK's: ||x - xref|| / (m eps kappa_F (||x|| + ||b|| /
 *    ||A|| + kappa_F ||r|| / ||A||)) < 30, kappa_F = ||R||_F ||R^-1||_F of LAPACK's R (the
 *    least-squares perturbation bound); A holds R as after geqrf (within 30 m eps ||a_j||).
 * Then the argument checks: side out of range, trans out of range, trans C for real and T for
 * complex, n > m, k > nq, k > n, lda < m (and < nq), ldcs < m, ldb < m, a NULL info:
 * NUMGPU_INVALID_VALUE, the argument's position in numgpu_last_error_arg() and the message,
 * and nothing written; n = 0 and batch = 0 succeed and touch nothing.
 *
 * The zero matrix (zerocol with n = 1): numgpu follows its documented rule (info = 1 when
 * R(1,1) is exactly zero, B unchanged), while LAPACK's ?gels returns info = 0 and X = 0 for an
 * all-zero A; this program checks numgpu's rule there and compares info with LAPACK elsewhere.
 *
 * Every case runs on the handle numgpu_create picks (AUTO: CUDA on a GPU host) with host
 * arrays and with memory from numgpu_malloc (device memory on CUDA, where the calls are
 * asynchronous: numgpu_synchronize, then copy back); on a GPU host the host cases also run
 * on an explicit CPU handle. Without CUDA, numgpu_malloc is host memory and the same code
 * path as host arrays, so that sweep is cut to n in {1, 8, 33} to keep the run short. NUMGPU_REQUIRE_CUDA=1 makes an AUTO handle that is not CUDA a
 * failure.
 *
 * Prints "test_geqrf: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include <complex.h>

#include "numgpu_test.h"
#include <lapacke.h>

#ifndef TOL
#define TOL 30.0 /* LAPACK's test threshold */
#endif

/* ---- precision-neutral views of the family ----------------------------------------- */

/* Pointer-array forms take host arrays of `batch` matrix pointers; with dev != NULL they are
 * copied to numgpu_malloc(dev) memory first (pointer arrays live in the space of the
 * matrices). */
typedef numgpu_status (*geqrf_fn)(numgpu_handle *h, int64_t m, int64_t n, void *const *A, int64_t lda,
                                  void *const *CS, int64_t ldcs, int64_t batch, numgpu_handle *dev);
typedef numgpu_status (*geqrf_s_fn)(numgpu_handle *h, int64_t m, int64_t n, void *A, int64_t lda, int64_t sA,
                                    void *CS, int64_t ldcs, int64_t sCS, int64_t batch);
typedef numgpu_status (*ormqr_fn)(numgpu_handle *h, int32_t side, int32_t trans, int64_t m, int64_t n, int64_t k,
                                  void *const *A, int64_t lda, void *const *CS, int64_t ldcs, void *const *C,
                                  int64_t ldc, int64_t batch, numgpu_handle *dev);
typedef numgpu_status (*ormqr_s_fn)(numgpu_handle *h, int32_t side, int32_t trans, int64_t m, int64_t n, int64_t k,
                                    const void *A, int64_t lda, int64_t sA, const void *CS, int64_t ldcs,
                                    int64_t sCS, void *C, int64_t ldc, int64_t sC, int64_t batch);
typedef numgpu_status (*orgqr_fn)(numgpu_handle *h, int64_t m, int64_t n, int64_t k, void *const *A, int64_t lda,
                                  void *const *CS, int64_t ldcs, int64_t batch, numgpu_handle *dev);
typedef numgpu_status (*orgqr_s_fn)(numgpu_handle *h, int64_t m, int64_t n, int64_t k, void *A, int64_t lda,
                                    int64_t sA, const void *CS, int64_t ldcs, int64_t sCS, int64_t batch);
typedef numgpu_status (*gels_fn)(numgpu_handle *h, int64_t m, int64_t n, int64_t nrhs, void *const *A, int64_t lda,
                                 void *const *B, int64_t ldb, int32_t *info, int64_t batch, numgpu_handle *dev);
typedef numgpu_status (*gels_s_fn)(numgpu_handle *h, int64_t m, int64_t n, int64_t nrhs, void *A, int64_t lda,
                                   int64_t sA, void *B, int64_t ldb, int64_t sB, int32_t *info, int64_t batch);
typedef int (*ref_geqrf_fn)(int m, int n, void *a, int lda);
typedef int (*ref_gels_fn)(int m, int n, int nrhs, void *a, int lda, void *b, int ldb);
typedef int (*ref_trtri_fn)(int n, void *a, int lda);

typedef struct {
    const prec_t *p;     /* element size, kinds, eps, cblas_?gemm (numgpu_test.h) */
    size_t rsize;        /* bytes of the real type (CS) */
    const char *mqr;     /* "ormqr" or "unmqr" */
    const char *gqr;     /* "orgqr" or "ungqr" */
    int32_t adjoint;     /* NUMGPU_OP_T (real) or NUMGPU_OP_C (complex): Q^H */
    int32_t wrong_trans; /* the other one, which numgpu must refuse */
    geqrf_fn geqrf;
    geqrf_s_fn geqrf_s;
    ormqr_fn ormqr;
    ormqr_s_fn ormqr_s;
    orgqr_fn orgqr;
    orgqr_s_fn orgqr_s;
    gels_fn gels;
    gels_s_fn gels_s;
    ref_geqrf_fn ref_geqrf; /* LAPACKE_?geqrf */
    ref_gels_fn ref_gels;   /* LAPACKE_?gels, trans N */
    ref_trtri_fn ref_trtri; /* LAPACKE_?trtri, upper, non-unit */
} qr_t;

/* Copies a host array of void pointers into a fresh array of `PT` (a pointer type), and
 * with dev into numgpu_malloc(dev) memory; `out` is what to pass, `arr` what to free. */
#define PTR_ARRAY(PT, src, nb, dev, arr, out)                                                     \
    do {                                                                                          \
        size_t i_;                                                                                \
        arr = (src) ? xmalloc((nb) * sizeof *arr) : NULL;                                         \
        for (i_ = 0; arr && i_ < (nb); i_++)                                                      \
            arr[i_] = (PT)(src)[i_];                                                              \
        out = (dev) ? stage_in((dev), arr, (nb) * sizeof *arr) : (void *)arr;                     \
    } while (0)

#define FREE_PTR_ARRAY(dev, arr, out)                                                             \
    do {                                                                                          \
        if (dev)                                                                                  \
            numgpu_free(dev, out);                                                                \
        free((void *)arr);                                                                        \
    } while (0)

#define QR_PRECISION(P, T, R, LT, OR)                                                         \
    static numgpu_status P##_geqrf(numgpu_handle *h, int64_t m, int64_t n, void *const *A,       \
                                   int64_t lda, void *const *CS, int64_t ldcs, int64_t batch,     \
                                   numgpu_handle *dev)                                           \
    {                                                                                             \
        size_t nb = batch > 0 ? (size_t)batch : 0;                                                \
        T **a;                                                                                    \
        R **cs;                                                                                   \
        void *pa, *pcs;                                                                           \
        numgpu_status st;                                                                         \
        PTR_ARRAY(T *, A, nb, dev, a, pa);                                                        \
        PTR_ARRAY(R *, CS, nb, dev, cs, pcs);                                                     \
        st = numgpu_##P##geqrf_givens_batched(h, m, n, (T *const *)pa, lda, (R *const *)pcs,     \
                                              ldcs, batch);                                       \
        FREE_PTR_ARRAY(dev, a, pa);                                                               \
        FREE_PTR_ARRAY(dev, cs, pcs);                                                             \
        return st;                                                                                \
    }                                                                                             \
    static numgpu_status P##_geqrf_s(numgpu_handle *h, int64_t m, int64_t n, void *A,            \
                                     int64_t lda, int64_t sA, void *CS, int64_t ldcs,            \
                                     int64_t sCS, int64_t batch)                                 \
    {                                                                                             \
        return numgpu_##P##geqrf_givens_batched_strided(h, m, n, (T *)A, lda, sA, (R *)CS, ldcs, \
                                                        sCS, batch);                              \
    }                                                                                             \
    static numgpu_status P##_ormqr(numgpu_handle *h, int32_t side, int32_t trans, int64_t m,     \
                                   int64_t n, int64_t k, void *const *A, int64_t lda,            \
                                   void *const *CS, int64_t ldcs, void *const *C, int64_t ldc,   \
                                   int64_t batch, numgpu_handle *dev)                            \
    {                                                                                             \
        size_t nb = batch > 0 ? (size_t)batch : 0;                                                \
        const T **a;                                                                              \
        const R **cs;                                                                             \
        T **c;                                                                                    \
        void *pa, *pcs, *pc;                                                                      \
        numgpu_status st;                                                                         \
        PTR_ARRAY(const T *, A, nb, dev, a, pa);                                                  \
        PTR_ARRAY(const R *, CS, nb, dev, cs, pcs);                                               \
        PTR_ARRAY(T *, C, nb, dev, c, pc);                                                        \
        st = numgpu_##P##OR##mqr_givens_batched(h, side, trans, m, n, k, (const T *const *)pa,   \
                                                lda, (const R *const *)pcs, ldcs,                 \
                                                (T *const *)pc, ldc, batch);                      \
        FREE_PTR_ARRAY(dev, a, pa);                                                               \
        FREE_PTR_ARRAY(dev, cs, pcs);                                                             \
        FREE_PTR_ARRAY(dev, c, pc);                                                               \
        return st;                                                                                \
    }                                                                                             \
    static numgpu_status P##_ormqr_s(numgpu_handle *h, int32_t side, int32_t trans, int64_t m,   \
                                     int64_t n, int64_t k, const void *A, int64_t lda,           \
                                     int64_t sA, const void *CS, int64_t ldcs, int64_t sCS,      \
                                     void *C, int64_t ldc, int64_t sC, int64_t batch)            \
    {                                                                                             \
        return numgpu_##P##OR##mqr_givens_batched_strided(h, side, trans, m, n, k, (const T *)A, \
                                                          lda, sA, (const R *)CS, ldcs, sCS,      \
                                                          (T *)C, ldc, sC, batch);                \
    }                                                                                             \
    static numgpu_status P##_orgqr(numgpu_handle *h, int64_t m, int64_t n, int64_t k,            \
                                   void *const *A, int64_t lda, void *const *CS, int64_t ldcs,   \
                                   int64_t batch, numgpu_handle *dev)                            \
    {                                                                                             \
        size_t nb = batch > 0 ? (size_t)batch : 0;                                                \
        T **a;                                                                                    \
        const R **cs;                                                                             \
        void *pa, *pcs;                                                                           \
        numgpu_status st;                                                                         \
        PTR_ARRAY(T *, A, nb, dev, a, pa);                                                        \
        PTR_ARRAY(const R *, CS, nb, dev, cs, pcs);                                               \
        st = numgpu_##P##OR##gqr_givens_batched(h, m, n, k, (T *const *)pa, lda,                 \
                                                (const R *const *)pcs, ldcs, batch);              \
        FREE_PTR_ARRAY(dev, a, pa);                                                               \
        FREE_PTR_ARRAY(dev, cs, pcs);                                                             \
        return st;                                                                                \
    }                                                                                             \
    static numgpu_status P##_orgqr_s(numgpu_handle *h, int64_t m, int64_t n, int64_t k, void *A, \
                                     int64_t lda, int64_t sA, const void *CS, int64_t ldcs,      \
                                     int64_t sCS, int64_t batch)                                 \
    {                                                                                             \
        return numgpu_##P##OR##gqr_givens_batched_strided(h, m, n, k, (T *)A, lda, sA,           \
                                                          (const R *)CS, ldcs, sCS, batch);       \
    }                                                                                             \
    static numgpu_status P##_gels(numgpu_handle *h, int64_t m, int64_t n, int64_t nrhs,          \
                                  void *const *A, int64_t lda, void *const *B, int64_t ldb,      \
                                  int32_t *info, int64_t batch, numgpu_handle *dev)              \
    {                                                                                             \
        size_t nb = batch > 0 ? (size_t)batch : 0;                                                \
        T **a, **b;                                                                               \
        void *pa, *pb;                                                                            \
        numgpu_status st;                                                                         \
        PTR_ARRAY(T *, A, nb, dev, a, pa);                                                        \
        PTR_ARRAY(T *, B, nb, dev, b, pb);                                                        \
        st = numgpu_##P##gels_givens_batched(h, m, n, nrhs, (T *const *)pa, lda, (T *const *)pb, \
                                             ldb, info, batch);                                   \
        FREE_PTR_ARRAY(dev, a, pa);                                                               \
        FREE_PTR_ARRAY(dev, b, pb);                                                               \
        return st;                                                                                \
    }                                                                                             \
    static numgpu_status P##_gels_s(numgpu_handle *h, int64_t m, int64_t n, int64_t nrhs,        \
                                    void *A, int64_t lda, int64_t sA, void *B, int64_t ldb,      \
                                    int64_t sB, int32_t *info, int64_t batch)                    \
    {                                                                                             \
        return numgpu_##P##gels_givens_batched_strided(h, m, n, nrhs, (T *)A, lda, sA, (T *)B,   \
                                                       ldb, sB, info, batch);                     \
    }                                                                                             \
    static int P##_ref_geqrf(int m, int n, void *a, int lda)                                     \
    {                                                                                             \
        LT *tau = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *tau);                                 \
        int info = (int)LAPACKE_##P##geqrf(LAPACK_COL_MAJOR, m, n, (LT *)a, lda, tau);           \
        free(tau);                                                                                \
        return info;                                                                              \
    }                                                                                             \
    static int P##_ref_gels(int m, int n, int nrhs, void *a, int lda, void *b, int ldb)          \
    {                                                                                             \
        return (int)LAPACKE_##P##gels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, (LT *)a, lda, (LT *)b,  \
                                      ldb);                                                       \
    }                                                                                             \
    static int P##_ref_trtri(int n, void *a, int lda)                                            \
    {                                                                                             \
        return (int)LAPACKE_##P##trtri(LAPACK_COL_MAJOR, 'U', 'N', n, (LT *)a, lda);             \
    }

QR_PRECISION(s, float, float, float, or)
QR_PRECISION(d, double, double, double, or)
QR_PRECISION(c, numgpu_complex_float, float, lapack_complex_float, un)
QR_PRECISION(z, numgpu_complex_double, double, lapack_complex_double, un)

#define QR_ENTRY(P, I, R, MQR, GQR, ADJ, WRONG)                                                   \
    {&PRECS[I], sizeof(R), MQR, GQR, ADJ, WRONG, P##_geqrf, P##_geqrf_s, P##_ormqr, P##_ormqr_s, \
     P##_orgqr, P##_orgqr_s, P##_gels, P##_gels_s, P##_ref_geqrf, P##_ref_gels, P##_ref_trtri}

static const qr_t QRS[4] = {
    QR_ENTRY(s, 0, float, "ormqr", "orgqr", NUMGPU_OP_T, NUMGPU_OP_C),
    QR_ENTRY(d, 1, double, "ormqr", "orgqr", NUMGPU_OP_T, NUMGPU_OP_C),
    QR_ENTRY(c, 2, float, "unmqr", "ungqr", NUMGPU_OP_C, NUMGPU_OP_T),
    QR_ENTRY(z, 3, double, "unmqr", "ungqr", NUMGPU_OP_C, NUMGPU_OP_T),
};

/* ---- helpers --------------------------------------------------------------------------- */

enum form { FORM_ARRAY, FORM_STRIDED };
enum space { SPACE_HOST, SPACE_MALLOC };
enum mclass { M_RANDOM, M_ZEROCOL, M_TRIANGULAR, M_SCALED, M_COUNT };
static const char *const CLASS_NAME[M_COUNT] = {"random", "zerocol", "triangular", "scaled"};

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

/* Real element e of a CS buffer (float or double as the precision). */
static double rget(const prec_t *p, const void *buf, size_t e)
{
    return p->dbl ? ((const double *)buf)[e] : (double)((const float *)buf)[e];
}

static void rset(const prec_t *p, void *buf, size_t e, double v)
{
    if (p->dbl)
        ((double *)buf)[e] = v;
    else
        ((float *)buf)[e] = (float)v;
}

/* A matrix of a buffer (element `off`, leading dimension ld) as a rows x cols double complex
 * array. */
static dcx *load(const prec_t *p, const void *buf, size_t off, size_t ld, size_t rows, size_t cols)
{
    dcx *out = xmalloc(rows * cols * sizeof *out);
    size_t i, j;
    for (j = 0; j < cols; j++)
        for (i = 0; i < rows; i++)
            out[i + j * rows] = get(p, buf, off + i + j * ld);
    return out;
}

/* Copies a rows x cols matrix between buffers of one precision (elements of `size` bytes). */
static void copy_matrix(size_t size, void *dst, size_t doff, size_t ldd, const void *src, size_t soff, size_t lds,
                        size_t rows, size_t cols)
{
    size_t j;
    for (j = 0; j < cols; j++)
        memcpy((char *)dst + (doff + j * ldd) * size, (const char *)src + (soff + j * lds) * size, rows * size);
}

static double col_norm(const dcx *a, size_t rows)
{
    double s = 0.0;
    size_t i;
    for (i = 0; i < rows; i++)
        s += creal(a[i]) * creal(a[i]) + cimag(a[i]) * cimag(a[i]);
    return sqrt(s);
}

static double fro(const dcx *a, size_t count)
{
    return col_norm(a, count);
}

/* worst = max(worst, q), where a NaN q wins. */
static void worsen(double *worst, double q)
{
    if (!(q <= *worst))
        *worst = q;
}

/* Whether element e of a strided layout (leading dimension ld, stride, rows x cols per matrix)
 * lies inside a matrix. */
static int inside(size_t e, size_t ld, size_t stride, size_t rows, size_t cols)
{
    size_t r = e % stride;
    return r < ld * cols && r % ld < rows;
}

/* ---- one case -------------------------------------------------------------------------- */

typedef struct {
    const qr_t *q;
    enum mclass cls;
    enum form form;
    enum space space;
    size_t m, n, nb, pad, nrhs, kq, nc;
} qr_case;

/* The worst ratio of each kind over the whole run, printed at the end. */
enum { W_R, W_QR, W_ORTH, W_MQR, W_OPT, W_RES, W_X, W_COUNT };
static double worst_of[W_COUNT];
static const char *const WORST_NAME[W_COUNT] = {"R vs LAPACK", "A - QR", "I - Q^H Q", "ormqr", "gels optimality",
                                                "gels residual norm", "gels X vs LAPACK"};

static void describe(const qr_case *c, const char *hname, const char *what, char *out, size_t len)
{
    snprintf(out, len, "%s handle, %s arrays, %s%s, %s m=%lu n=%lu batch=%lu pad=%lu seed=%#llx: %s", hname,
             c->space == SPACE_HOST ? "host" : "numgpu_malloc", c->q->p->letter,
             c->form == FORM_STRIDED ? " strided" : " pointer-array", CLASS_NAME[c->cls], (unsigned long)c->m,
             (unsigned long)c->n, (unsigned long)c->nb, (unsigned long)c->pad, (unsigned long long)TEST_SEED, what);
}

static size_t slot_of(const qr_case *c, size_t i)
{
    return c->form == FORM_ARRAY ? c->nb - 1 - i : i;
}

/* The column of the zerocol class. */
static size_t zero_col(size_t n)
{
    return n / 2;
}

/* Fills the m x n matrix at element `off` (leading dimension ld) with class cls. */
static void generate(const prec_t *p, void *buf, size_t off, size_t ld, size_t m, size_t n, enum mclass cls)
{
    static const double scales[3] = {1e-20, 1.0, 1e20};
    size_t i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i < m; i++) {
            double re = rnd(), im = rnd();
            switch (cls) {
            case M_ZEROCOL:
                if (j == zero_col(n))
                    re = im = 0.0;
                break;
            case M_TRIANGULAR:
                if (i > j)
                    re = im = 0.0;
                else if (i == j)
                    re += 2.0;
                break;
            case M_SCALED:
                re *= scales[j % 3];
                im *= scales[j % 3];
                break;
            default:
                break;
            }
            set_value(p, buf, off + i + j * ld, re, im);
        }
}

/* Marks the elements of a strided layout that lie outside the matrices as they must stay:
 * returns the index of the first element that differs from `orig` outside the matrices, or
 * (size_t)-1. */
static size_t outside_changed(size_t size, const void *now, const void *orig, size_t len, size_t ld, size_t stride,
                              size_t rows, size_t cols)
{
    size_t e;
    for (e = 0; e < len; e++)
        if (!inside(e, ld, stride, rows, cols) &&
            memcmp((const char *)now + e * size, (const char *)orig + e * size, size) != 0)
            return e;
    return (size_t)-1;
}

/* ||I - Q^H Q||_1 / (m eps) for the rows x cols matrix at element off (leading dimension ld) of
 * a buffer, Q^H Q by cblas_?gemm. */
static double orth_ratio(const prec_t *p, const void *qbuf, size_t off, size_t ld, size_t rows, size_t cols)
{
    const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    void *g = xmalloc(cols * cols * p->size + 1);
    dcx *gd;
    double worst = 0.0;
    size_t i, j;
    if (cols == 0) {
        free(g);
        return 0.0;
    }
    p->ref(NUMGPU_OP_C, NUMGPU_OP_N, (int)cols, (int)cols, (int)rows, one, elem_ptr(p, (void *)qbuf, off), (int)ld,
           elem_ptr(p, (void *)qbuf, off), (int)ld, zero, g, (int)cols);
    gd = load(p, g, 0, cols, cols, cols);
    for (j = 0; j < cols; j++) {
        double s = 0.0;
        for (i = 0; i < cols; i++)
            s += cabs(gd[i + j * cols] - (i == j ? 1.0 : 0.0));
        worsen(&worst, s);
    }
    free(g);
    free(gd);
    return worst / ((double)rows * p->eps);
}

/* max_j ||a_j - Q r_j|| / (m eps ||a_j||): A0 and the factors F (R in its upper triangle) at
 * aoff (lda), the thin Q at qoff (ldq); Q R by cblas_?gemm in the working precision. */
static double qr_ratio(const prec_t *p, const void *A0, const void *F, size_t aoff, size_t lda, const void *Q,
                       size_t qoff, size_t ldq, size_t m, size_t n)
{
    const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    void *r = xmalloc(n * n * p->size), *qr = xmalloc(m * n * p->size);
    dcx *a, *qrd;
    double worst = 0.0;
    size_t i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            if (i <= j)
                memcpy(elem_ptr(p, r, i + j * n), elem_ptr(p, (void *)F, aoff + i + j * lda), p->size);
            else
                set_value(p, r, i + j * n, 0.0, 0.0);
        }
    p->ref(NUMGPU_OP_N, NUMGPU_OP_N, (int)m, (int)n, (int)n, one, elem_ptr(p, (void *)Q, qoff), (int)ldq, r, (int)n,
           zero, qr, (int)m);
    a = load(p, A0, aoff, lda, m, n);
    qrd = load(p, qr, 0, m, m, n);
    for (j = 0; j < n; j++) {
        double d = 0.0;
        for (i = 0; i < m; i++) {
            dcx x = a[i + j * m] - qrd[i + j * m];
            d += creal(x) * creal(x) + cimag(x) * cimag(x);
        }
        worsen(&worst, ratio_of(sqrt(d), (double)m * p->eps * col_norm(a + j * m, m)));
    }
    free(r);
    free(qr);
    free(a);
    free(qrd);
    return worst;
}

/* R (upper triangle of F at aoff, lda) against LAPACK's R (Lr, m x n compact), rows [0, rows):
 * max |R(i,j) - d_i Lr(i,j)| / (m eps ||a_j||), d_i the unit factor between the diagonals
 * (1 where either is zero). */
static double r_ratio(const prec_t *p, const void *A0, const void *F, size_t aoff, size_t lda, const void *Lr,
                      size_t m, size_t n, size_t rows)
{
    dcx *a = load(p, A0, aoff, lda, m, n), *f = load(p, F, aoff, lda, m, n), *l = load(p, Lr, 0, m, m, n);
    double worst = 0.0;
    size_t i, j;
    for (i = 0; i < rows; i++) {
        dcx o = f[i + i * m], r = l[i + i * m], d = 1.0;
        if (cabs(o) > 0.0 && cabs(r) > 0.0)
            d = (o / cabs(o)) / (r / cabs(r));
        for (j = i; j < n; j++)
            worsen(&worst, ratio_of(cabs(f[i + j * m] - d * l[i + j * m]), (double)m * p->eps * col_norm(a + j * m, m)));
    }
    free(a);
    free(f);
    free(l);
    return worst;
}

static void run_case(numgpu_handle *h, const char *hname, const qr_case *c)
{
    const qr_t *q = c->q;
    const prec_t *p = q->p;
    const size_t m = c->m, n = c->n, nb = c->nb, pad = c->pad, nrhs = c->nrhs, kq = c->kq, nc = c->nc;
    const size_t es = p->size, rs = q->rsize;
    /* A (factors), CS, the thin and the full Q, C (left: m x nc; right: nc x m), B. */
    const size_t lda = m + pad, sa = lda * n + pad, lena = sa * nb;
    const size_t ldcs = m + (pad + 1) % 3, scs = ldcs * n + 1, lencs = scs * nb;
    const size_t ldq = lda, sq = ldq * m + pad, lenq = sq * nb;
    const size_t ldcl = m + pad, scl = ldcl * nc + pad, lencl = scl * nb;
    const size_t ldcr = nc + pad, scr = ldcr * m + pad, lencr = scr * nb;
    const size_t ldb = m + pad, sb = ldb * nrhs + pad, lenb = sb * nb;
    void *A0 = xmalloc(lena * es), *F = xmalloc(lena * es), *CS0 = xmalloc(lencs * rs), *CS = xmalloc(lencs * rs);
    void *Qt = xmalloc(lena * es), *Qf0 = xmalloc(lenq * es), *Qf = xmalloc(lenq * es);
    void *C0 = xmalloc((lencl > lencr ? lencl : lencr) * es), *C = xmalloc((lencl > lencr ? lencl : lencr) * es);
    void *Cref = xmalloc((lencl > lencr ? lencl : lencr) * es);
    void *B0 = xmalloc(lenb * es), *X = xmalloc(lenb * es), *G = xmalloc(lena * es);
    void *Lr = xmalloc(m * n * es + 1), *La = xmalloc(m * n * es + 1), *Lb = xmalloc(m * nrhs * es + 1);
    int32_t *info = xmalloc(nb * sizeof *info);
    void **pa = xmalloc(nb * sizeof *pa), **pcs = xmalloc(nb * sizeof *pcs), **pc = xmalloc(nb * sizeof *pc);
    stage_t st;
    char what[640], detail[512];
    const char *fail;
    numgpu_status s;
    size_t i, e, j, r;
    const int zc = c->cls == M_ZEROCOL;
    const size_t j0 = zero_col(n);

    memset(&st, 0, sizeof st);
    st.h = h;
    st.dev = c->space == SPACE_MALLOC;

    /* Inputs: sentinels in padding and gaps, NaN in CS. */
    for (e = 0; e < lena; e++)
        set_value(p, A0, e, 777.0, -777.0);
    for (e = 0; e < lencs; e++)
        rset(p, CS0, e, NAN);
    for (e = 0; e < lenb; e++)
        set_value(p, B0, e, 555.0, -555.0);
    for (i = 0; i < nb; i++) {
        generate(p, A0, i * sa, lda, m, n, c->cls);
        for (j = 0; j < nrhs; j++)
            for (r = 0; r < m; r++) {
                double re = rnd();
                set_value(p, B0, i * sb + j * ldb + r, re, rnd());
            }
    }

    /* ---- 1. geqrf ---- */
    {
        void *dA, *dCS;
        double worst = 0.0;
        memcpy(F, A0, lena * es);
        memcpy(CS, CS0, lencs * rs);
        dA = put(&st, F, lena * es);
        dCS = put(&st, CS, lencs * rs);
        for (i = 0; i < nb; i++) {
            pa[i] = elem_ptr(p, dA, slot_of(c, i) * sa);
            pcs[i] = (char *)dCS + slot_of(c, i) * scs * rs;
        }
        if (c->form == FORM_ARRAY)
            s = q->geqrf(h, (int64_t)m, (int64_t)n, pa, (int64_t)lda, pcs, (int64_t)ldcs, (int64_t)nb,
                         st.dev ? h : NULL);
        else
            s = q->geqrf_s(h, (int64_t)m, (int64_t)n, dA, (int64_t)lda, (int64_t)sa, dCS, (int64_t)ldcs, (int64_t)scs,
                           (int64_t)nb);
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
        if (!fail && outside_changed(es, F, A0, lena, lda, sa, m, n) != (size_t)-1)
            fail = "A modified outside its matrices (padding or gap)";
        /* CS: written exactly below the diagonal. */
        for (e = 0; !fail && e < lencs; e++) {
            size_t rr = e % scs, row = rr % ldcs, col = rr / ldcs;
            int referenced = rr < ldcs * n && row < m && row > col;
            if (!referenced && memcmp((char *)CS + e * rs, (char *)CS0 + e * rs, rs) != 0) {
                fail = "CS written where it is not referenced (i <= j, padding or gap)";
                snprintf(detail, sizeof detail, "element %lu (row %lu, column %lu of its matrix)", (unsigned long)e,
                         (unsigned long)row, (unsigned long)col);
            }
        }
        /* Every rotation unitary, with c real in [0, 1]. */
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            for (j = 0; !fail && j < n; j++)
                for (r = j + 1; !fail && r < m; r++) {
                    double cc = rget(p, CS, sl * scs + r + j * ldcs);
                    dcx sn = get(p, F, sl * sa + r + j * lda);
                    double dev = fabs(cc * cc + creal(sn) * creal(sn) + cimag(sn) * cimag(sn) - 1.0);
                    if (!(cc >= 0.0 && cc <= 1.0 && dev <= TOL * p->eps)) {
                        fail = "a stored rotation is not unitary with 0 <= c <= 1";
                        snprintf(detail, sizeof detail, "matrix %lu, G(%lu, %lu): c = %g, s = %g%+gi", (unsigned long)i,
                                 (unsigned long)r, (unsigned long)j, cc, creal(sn), cimag(sn));
                    }
                }
        }
        /* Exact cases: triangular input and the zero column. */
        for (i = 0; !fail && (c->cls == M_TRIANGULAR || zc) && i < nb; i++) {
            size_t sl = slot_of(c, i);
            for (j = 0; !fail && j < n; j++) {
                if (zc && j != j0)
                    continue;
                for (r = 0; !fail && r < m; r++) {
                    dcx got = get(p, F, sl * sa + r + j * lda);
                    if (r > j) {
                        double cc = rget(p, CS, sl * scs + r + j * ldcs);
                        if (!(got == 0.0 && cc == 1.0)) {
                            fail = "rotation is not exactly the identity (s = 0, c = 1)";
                            snprintf(detail, sizeof detail, "matrix %lu, G(%lu, %lu): c = %g, s = %g%+gi",
                                     (unsigned long)i, (unsigned long)r, (unsigned long)j, cc, creal(got), cimag(got));
                        }
                    } else {
                        dcx want = zc ? 0.0 : get(p, A0, sl * sa + r + j * lda);
                        if (!(got == want)) {
                            fail = zc ? "R's zero column is not exactly zero" : "R differs from the triangular A";
                            snprintf(detail, sizeof detail, "matrix %lu, R(%lu, %lu) = %g%+gi, want %g%+gi",
                                     (unsigned long)i, (unsigned long)r, (unsigned long)j, creal(got), cimag(got),
                                     creal(want), cimag(want));
                        }
                    }
                }
            }
        }
        /* R against LAPACKE ?geqrf's. */
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            double q0;
            int li;
            copy_matrix(es, Lr, 0, m, A0, sl * sa, lda, m, n);
            li = q->ref_geqrf((int)m, (int)n, Lr, (int)m);
            if (li != 0) {
                fail = "LAPACKE ?geqrf failed";
                snprintf(detail, sizeof detail, "info %d", li);
                break;
            }
            q0 = r_ratio(p, A0, F, sl * sa, lda, Lr, m, n, zc ? j0 : n);
            worsen(&worst, q0);
            worsen(&worst_of[W_R], q0);
            if (!(q0 < TOL)) {
                fail = "R differs from LAPACK's beyond a unit diagonal";
                snprintf(detail, sizeof detail, "matrix %lu: ratio %.3g", (unsigned long)i, q0);
            }
        }
        if (!fail)
            snprintf(detail, sizeof detail, "worst R ratio %.3g", worst);
        describe(c, hname, "geqrf", what, sizeof what);
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
        if (fail) /* the rest needs the factors */
            goto done;
    }

    /* ---- 2. orgqr (m, n, n): the thin Q ---- */
    {
        void *dQ, *dCS;
        double wqr = 0.0, worth = 0.0;
        memcpy(Qt, F, lena * es);
        dQ = put(&st, Qt, lena * es);
        dCS = put(&st, CS, lencs * rs);
        for (i = 0; i < nb; i++) {
            pa[i] = elem_ptr(p, dQ, slot_of(c, i) * sa);
            pcs[i] = (char *)dCS + slot_of(c, i) * scs * rs;
        }
        if (c->form == FORM_ARRAY)
            s = q->orgqr(h, (int64_t)m, (int64_t)n, (int64_t)n, pa, (int64_t)lda, pcs, (int64_t)ldcs, (int64_t)nb,
                         st.dev ? h : NULL);
        else
            s = q->orgqr_s(h, (int64_t)m, (int64_t)n, (int64_t)n, dQ, (int64_t)lda, (int64_t)sa, dCS, (int64_t)ldcs,
                           (int64_t)scs, (int64_t)nb);
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
        if (!fail && outside_changed(es, Qt, F, lena, lda, sa, m, n) != (size_t)-1)
            fail = "A modified outside its matrices (padding or gap)";
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            double a1 = qr_ratio(p, A0, F, sl * sa, lda, Qt, sl * sa, lda, m, n);
            double a2 = orth_ratio(p, Qt, sl * sa, lda, m, n);
            worsen(&wqr, a1);
            worsen(&worth, a2);
            worsen(&worst_of[W_QR], a1);
            worsen(&worst_of[W_ORTH], a2);
            if (!(a1 < TOL && a2 < TOL)) {
                fail = "A != Q R or Q^H Q != I";
                snprintf(detail, sizeof detail, "matrix %lu: max_j ||a_j - Q r_j|| / (m eps ||a_j||) = %.3g, "
                         "||I - Q^H Q|| / (m eps) = %.3g", (unsigned long)i, a1, a2);
            }
        }
        if (!fail)
            snprintf(detail, sizeof detail, "worst A - QR ratio %.3g, orthogonality %.3g", wqr, worth);
        snprintf(detail + strlen(detail), sizeof detail - strlen(detail), " (%s, k = n)", q->gqr);
        describe(c, hname, "orgqr thin", what, sizeof what);
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
    }

    /* ---- 3. orgqr (m, m, kq): the full Q, columns beyond n NaN on entry ---- */
    {
        void *dQ, *dCS;
        double worth = 0.0, wthin = 0.0;
        for (e = 0; e < lenq; e++)
            set_value(p, Qf0, e, 999.0, -999.0);
        for (i = 0; i < nb; i++) {
            copy_matrix(es, Qf0, i * sq, ldq, F, i * sa, lda, m, n);
            for (j = n; j < m; j++)
                for (r = 0; r < m; r++)
                    set_value(p, Qf0, i * sq + r + j * ldq, NAN, NAN);
        }
        memcpy(Qf, Qf0, lenq * es);
        dQ = put(&st, Qf, lenq * es);
        dCS = put(&st, CS, lencs * rs);
        for (i = 0; i < nb; i++) {
            pa[i] = elem_ptr(p, dQ, slot_of(c, i) * sq);
            pcs[i] = (char *)dCS + slot_of(c, i) * scs * rs;
        }
        if (c->form == FORM_ARRAY)
            s = q->orgqr(h, (int64_t)m, (int64_t)m, (int64_t)kq, pa, (int64_t)ldq, pcs, (int64_t)ldcs, (int64_t)nb,
                         st.dev ? h : NULL);
        else
            s = q->orgqr_s(h, (int64_t)m, (int64_t)m, (int64_t)kq, dQ, (int64_t)ldq, (int64_t)sq, dCS, (int64_t)ldcs,
                           (int64_t)scs, (int64_t)nb);
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
        if (!fail && outside_changed(es, Qf, Qf0, lenq, ldq, sq, m, m) != (size_t)-1)
            fail = "A modified outside its matrices (padding or gap)";
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            double a2 = orth_ratio(p, Qf, sl * sq, ldq, m, m), a3 = 0.0;
            if (kq == n) {
                dcx *x = load(p, Qf, sl * sq, ldq, m, n), *y = load(p, Qt, sl * sa, lda, m, n);
                for (e = 0; e < m * n; e++)
                    x[e] -= y[e];
                a3 = ratio_of(fro(x, m * n), (double)m * p->eps * sqrt((double)n));
                free(x);
                free(y);
            }
            worsen(&worth, a2);
            worsen(&wthin, a3);
            worsen(&worst_of[W_ORTH], a2);
            if (!(a2 < TOL && a3 < TOL)) {
                fail = "full Q not unitary, or its first n columns differ from the thin Q";
                snprintf(detail, sizeof detail, "matrix %lu: ||I - Q^H Q|| / (m eps) = %.3g, thin ratio %.3g",
                         (unsigned long)i, a2, a3);
            }
        }
        if (!fail)
            snprintf(detail, sizeof detail, "worst orthogonality %.3g, against the thin Q %.3g", worth, wthin);
        snprintf(detail + strlen(detail), sizeof detail - strlen(detail), " (%s, n = m, k = %lu)", q->gqr,
                 (unsigned long)kq);
        describe(c, hname, "orgqr full", what, sizeof what);
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
    }

    /* ---- 4. ormqr / unmqr: every side and trans against the explicit Q ---- */
    {
        const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
        int sd, tr;
        for (sd = 0; sd < 2; sd++)
            for (tr = 0; tr < 2; tr++) {
                const int32_t side = sd ? NUMGPU_SIDE_RIGHT : NUMGPU_SIDE_LEFT, trans = tr ? q->adjoint : NUMGPU_OP_N;
                const size_t cm = sd ? nc : m, cn = sd ? m : nc, ldc = sd ? ldcr : ldcl, scc = sd ? scr : scl;
                const size_t lenc = sd ? lencr : lencl;
                void *dA, *dCS, *dC;
                double worst = 0.0;
                char name[64];
                for (e = 0; e < lenc; e++)
                    set_value(p, C0, e, 444.0, -444.0);
                for (i = 0; i < nb; i++)
                    for (j = 0; j < cn; j++)
                        for (r = 0; r < cm; r++) {
                            double re = rnd();
                            set_value(p, C0, i * scc + r + j * ldc, re, rnd());
                        }
                memcpy(C, C0, lenc * es);
                memcpy(G, F, lena * es);
                dA = put(&st, G, lena * es);
                dCS = put(&st, CS, lencs * rs);
                dC = put(&st, C, lenc * es);
                for (i = 0; i < nb; i++) {
                    pa[i] = elem_ptr(p, dA, slot_of(c, i) * sa);
                    pcs[i] = (char *)dCS + slot_of(c, i) * scs * rs;
                    pc[i] = elem_ptr(p, dC, slot_of(c, i) * scc);
                }
                if (c->form == FORM_ARRAY)
                    s = q->ormqr(h, side, trans, (int64_t)cm, (int64_t)cn, (int64_t)kq, pa, (int64_t)lda, pcs,
                                 (int64_t)ldcs, pc, (int64_t)ldc, (int64_t)nb, st.dev ? h : NULL);
                else
                    s = q->ormqr_s(h, side, trans, (int64_t)cm, (int64_t)cn, (int64_t)kq, dA, (int64_t)lda, (int64_t)sa,
                                   dCS, (int64_t)ldcs, (int64_t)scs, dC, (int64_t)ldc, (int64_t)scc, (int64_t)nb);
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
                if (!fail && memcmp(G, F, lena * es) != 0)
                    fail = "A (the factors, input only) was modified";
                if (!fail && outside_changed(es, C, C0, lenc, ldc, scc, cm, cn) != (size_t)-1)
                    fail = "C modified outside its matrices (padding or gap)";
                for (i = 0; !fail && i < nb; i++) {
                    size_t sl = slot_of(c, i);
                    dcx *x, *y;
                    double qq;
                    if (sd)
                        p->ref(NUMGPU_OP_N, trans, (int)cm, (int)cn, (int)m, one, elem_ptr(p, C0, sl * scc), (int)ldc,
                               elem_ptr(p, Qf, sl * sq), (int)ldq, zero, Cref, (int)cm);
                    else
                        p->ref(trans, NUMGPU_OP_N, (int)cm, (int)cn, (int)m, one, elem_ptr(p, Qf, sl * sq), (int)ldq,
                               elem_ptr(p, C0, sl * scc), (int)ldc, zero, Cref, (int)cm);
                    x = load(p, C, sl * scc, ldc, cm, cn);
                    y = load(p, Cref, 0, cm, cm, cn);
                    for (e = 0; e < cm * cn; e++)
                        x[e] -= y[e];
                    free(y);
                    y = load(p, C0, sl * scc, ldc, cm, cn);
                    qq = ratio_of(fro(x, cm * cn), (double)m * p->eps * fro(y, cm * cn));
                    free(x);
                    free(y);
                    worsen(&worst, qq);
                    worsen(&worst_of[W_MQR], qq);
                    if (!(qq < TOL)) {
                        fail = "op(Q) C or C op(Q) differs from the product with the explicit Q";
                        snprintf(detail, sizeof detail, "matrix %lu: ratio %.3g", (unsigned long)i, qq);
                    }
                }
                if (!fail)
                    snprintf(detail, sizeof detail, "worst ratio %.3g", worst);
                snprintf(name, sizeof name, "%s side %s trans %s k=%lu", q->mqr, sd ? "R" : "L",
                         tr ? (p->cplx ? "C" : "T") : "N", (unsigned long)kq);
                describe(c, hname, name, what, sizeof what);
                check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
            }
    }

    /* ---- 5. gels against LAPACKE ?gels ---- */
    {
        const double one[2] = {1.0, 0.0}, minus1[2] = {-1.0, 0.0}, zero[2] = {0.0, 0.0};
        void *dA, *dB;
        int32_t *dinfo;
        double wopt = 0.0, wres = 0.0, wx = 0.0, wr = 0.0;
        void *res = xmalloc(m * nrhs * es + 1), *ahr = xmalloc(n * nrhs * es + 1);
        for (i = 0; i < nb; i++)
            info[i] = -99;
        memcpy(G, A0, lena * es);
        memcpy(X, B0, lenb * es);
        dA = put(&st, G, lena * es);
        dB = put(&st, X, lenb * es);
        dinfo = put(&st, info, nb * sizeof *info);
        for (i = 0; i < nb; i++) {
            pa[i] = elem_ptr(p, dA, slot_of(c, i) * sa);
            pc[i] = elem_ptr(p, dB, slot_of(c, i) * sb);
        }
        if (c->form == FORM_ARRAY)
            s = q->gels(h, (int64_t)m, (int64_t)n, (int64_t)nrhs, pa, (int64_t)lda, pc, (int64_t)ldb, dinfo,
                        (int64_t)nb, st.dev ? h : NULL);
        else
            s = q->gels_s(h, (int64_t)m, (int64_t)n, (int64_t)nrhs, dA, (int64_t)lda, (int64_t)sa, dB, (int64_t)ldb,
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
        if (!fail && outside_changed(es, X, B0, lenb, ldb, sb, m, nrhs) != (size_t)-1)
            fail = "B modified outside its matrices (padding or gap)";
        if (!fail && outside_changed(es, G, A0, lena, lda, sa, m, n) != (size_t)-1)
            fail = "A modified outside its matrices (padding or gap)";
        for (i = 0; !fail && i < nb; i++) {
            size_t sl = slot_of(c, i);
            int want = zc ? (int)j0 + 1 : 0, linfo;
            dcx *fa, *ga, *a, *xd, *xr, *bd, *rd, *ard;
            double an, kappa;
            /* LAPACK on copies. */
            copy_matrix(es, La, 0, m, A0, sl * sa, lda, m, n);
            copy_matrix(es, Lb, 0, m, B0, sl * sb, ldb, m, nrhs);
            linfo = q->ref_gels((int)m, (int)n, (int)nrhs, La, (int)m, Lb, (int)m);
            if (info[i] != want || (linfo != want && !(zc && n == 1 && linfo == 0))) {
                fail = "info differs";
                snprintf(detail, sizeof detail, "matrix %lu: info %d, want %d; LAPACKE ?gels %d", (unsigned long)i,
                         (int)info[i], want, linfo);
                break;
            }
            /* A holds R as after geqrf. */
            fa = load(p, F, sl * sa, lda, m, n);
            ga = load(p, G, sl * sa, lda, m, n);
            a = load(p, A0, sl * sa, lda, m, n);
            for (j = 0; j < n; j++) {
                double d = 0.0;
                for (r = 0; r <= j; r++)
                    d += cabs(fa[r + j * m] - ga[r + j * m]) * cabs(fa[r + j * m] - ga[r + j * m]);
                worsen(&wr, ratio_of(sqrt(d), (double)m * p->eps * col_norm(a + j * m, m)));
            }
            free(fa);
            free(ga);
            if (!(wr < TOL)) {
                free(a);
                fail = "A after gels does not hold geqrf's R";
                snprintf(detail, sizeof detail, "matrix %lu: ratio %.3g", (unsigned long)i, wr);
                break;
            }
            if (want > 0) {
                free(a);
                if (memcmp(elem_ptr(p, X, sl * sb), elem_ptr(p, B0, sl * sb), ((nrhs - 1) * ldb + m) * es) != 0) {
                    fail = "B of a problem with a zero R(j, j) was modified";
                    snprintf(detail, sizeof detail, "matrix %lu (info %d)", (unsigned long)i, (int)info[i]);
                }
                continue;
            }
            /* res = B0 - A X (working precision), ahr = A^H res. */
            copy_matrix(es, res, 0, m, B0, sl * sb, ldb, m, nrhs);
            p->ref(NUMGPU_OP_N, NUMGPU_OP_N, (int)m, (int)nrhs, (int)n, minus1, elem_ptr(p, A0, sl * sa), (int)lda,
                   elem_ptr(p, X, sl * sb), (int)ldb, one, res, (int)m);
            p->ref(NUMGPU_OP_C, NUMGPU_OP_N, (int)n, (int)nrhs, (int)m, one, elem_ptr(p, A0, sl * sa), (int)lda, res,
                   (int)m, zero, ahr, (int)n);
            an = fro(a, m * n);
            xd = load(p, X, sl * sb, ldb, m, nrhs);
            xr = load(p, Lb, 0, m, m, nrhs);
            bd = load(p, B0, sl * sb, ldb, m, nrhs);
            rd = load(p, res, 0, m, m, nrhs);
            ard = load(p, ahr, 0, n, n, nrhs);
            kappa = -1.0;
            if (c->cls == M_RANDOM) { /* kappa_F = ||R||_F ||R^-1||_F of LAPACK's R */
                dcx *lrd, *inv;
                int ti;
                copy_matrix(es, Lr, 0, n, La, 0, m, n, n);
                lrd = load(p, Lr, 0, n, n, n);
                ti = q->ref_trtri((int)n, Lr, (int)n);
                inv = load(p, Lr, 0, n, n, n);
                if (ti != 0) {
                    fail = "LAPACKE ?trtri failed on LAPACK's R";
                    snprintf(detail, sizeof detail, "matrix %lu: info %d", (unsigned long)i, ti);
                } else {
                    double kf = 0.0, kr = 0.0;
                    for (j = 0; j < n; j++)
                        for (r = 0; r <= j; r++) {
                            kf += cabs(lrd[r + j * n]) * cabs(lrd[r + j * n]);
                            kr += cabs(inv[r + j * n]) * cabs(inv[r + j * n]);
                        }
                    kappa = sqrt(kf) * sqrt(kr);
                }
                free(lrd);
                free(inv);
            }
            for (j = 0; !fail && j < nrhs; j++) {
                double xn = col_norm(xd + j * m, n), bn = col_norm(bd + j * m, m), rn = col_norm(rd + j * m, m);
                double scale = (double)m * p->eps * (an * xn + bn);
                double opt = ratio_of(col_norm(ard + j * n, n), an * scale);
                double coords = m > n ? col_norm(xd + j * m + n, m - n) : 0.0;
                double rq = ratio_of(fabs(coords - rn), scale);
                worsen(&wopt, opt);
                worsen(&wres, rq);
                worsen(&worst_of[W_OPT], opt);
                worsen(&worst_of[W_RES], rq);
                if (!(opt < TOL && rq < TOL)) {
                    fail = "least-squares solution not optimal, or residual coordinates wrong";
                    snprintf(detail, sizeof detail, "matrix %lu, column %lu: optimality %.3g, residual norm %.3g",
                             (unsigned long)i, (unsigned long)j, opt, rq);
                }
                if (!fail && kappa >= 0.0) {
                    double d = 0.0, xq;
                    for (r = 0; r < n; r++)
                        d += cabs(xd[r + j * m] - xr[r + j * m]) * cabs(xd[r + j * m] - xr[r + j * m]);
                    xq = ratio_of(sqrt(d), (double)m * p->eps * kappa * (xn + bn / an + kappa * rn / an));
                    worsen(&wx, xq);
                    worsen(&worst_of[W_X], xq);
                    if (!(xq < TOL)) {
                        fail = "X differs from LAPACK's beyond the least-squares perturbation bound";
                        snprintf(detail, sizeof detail, "matrix %lu, column %lu: ratio %.3g (kappa_F %.3g)",
                                 (unsigned long)i, (unsigned long)j, xq, kappa);
                    }
                }
            }
            free(a);
            free(xd);
            free(xr);
            free(bd);
            free(rd);
            free(ard);
        }
        if (!fail)
            snprintf(detail, sizeof detail, "worst optimality %.3g, residual norm %.3g, X vs LAPACK %.3g, R %.3g", wopt,
                     wres, wx, wr);
        describe(c, hname, "gels", what, sizeof what);
        check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);
        free(res);
        free(ahr);
    }

done:
    free(A0);
    free(F);
    free(CS0);
    free(CS);
    free(Qt);
    free(Qf0);
    free(Qf);
    free(C0);
    free(C);
    free(Cref);
    free(B0);
    free(X);
    free(G);
    free(Lr);
    free(La);
    free(Lb);
    free(info);
    free(pa);
    free(pcs);
    free(pc);
}

static const size_t NS[] = {1, 2, 3, 8, 16, 31, 32, 33, 64};

/* All of NS, or (short) only n in {1, 8, 33}. */
static void sweep(numgpu_handle *h, const char *hname, enum space sp, int short_sweep)
{
    static unsigned counter;
    int pi, cl, mi;
    size_t ni;
    for (pi = 0; pi < 4; pi++)
        for (cl = 0; cl < M_COUNT; cl++)
            for (ni = 0; ni < sizeof NS / sizeof NS[0]; ni++)
                for (mi = 0; mi < 3; mi++) {
                    qr_case c;
                    size_t n = NS[ni];
                    if (short_sweep && n != 1 && n != 8 && n != 33)
                        continue;
                    c.q = &QRS[pi];
                    c.cls = (enum mclass)cl;
                    c.form = (enum form)(counter % 2);
                    c.space = sp;
                    c.n = n;
                    c.m = mi == 0 ? n : mi == 1 ? n + 1 : 2 * n;
                    c.nb = c.m >= 64 ? 1 + counter % 2 : 1 + counter % 3;
                    c.pad = counter % 4 == 1 ? 2 : counter % 4 == 3 ? 1 : 0;
                    c.nrhs = 1 + (counter / 2) % 3;
                    c.kq = (counter / 3) % 2 == 0 ? n : (n + 1) / 2;
                    c.nc = 1 + (counter / 5) % 3;
                    counter++;
                    run_case(h, hname, &c);
                }
}

/* ---- argument checks ------------------------------------------------------------------ */

static void error_checks(numgpu_handle *h, const char *hname, const qr_t *q)
{
    enum { M = 4, N = 3, NB = 2, LDA = 4, SA = 12, LDCS = 4, SCS = 12, LDC = 4, NC = 2, SC = 8, NRHS = 2, SB = 8 };
    const prec_t *p = q->p;
    const size_t es = p->size, rs = q->rsize;
    void *A = xmalloc(NB * SA * es), *A0 = xmalloc(NB * SA * es), *CS = xmalloc(NB * SCS * rs);
    void *CS0 = xmalloc(NB * SCS * rs), *C = xmalloc(NB * SC * es), *C0 = xmalloc(NB * SC * es);
    int32_t info[NB], info0[NB];
    void *pa[NB], *pcs[NB], *pc[NB];
    char fn[96], needle[96];
    int form, k;
    numgpu_status s;

#define SAME                                                                                      \
    (memcmp(A, A0, NB * SA * es) == 0 && memcmp(CS, CS0, NB * SCS * rs) == 0 &&                   \
     memcmp(C, C0, NB * SC * es) == 0 && memcmp(info, info0, sizeof info) == 0)

    for (k = 0; k < NB * SA; k++) {
        double re = rnd();
        set_value(p, A, (size_t)k, re, rnd());
    }
    for (k = 0; k < NB * SCS; k++)
        rset(p, CS, (size_t)k, 0.5);
    for (k = 0; k < NB * SC; k++) {
        double re = rnd();
        set_value(p, C, (size_t)k, re, rnd());
    }
    info[0] = info[1] = -99;
    memcpy(A0, A, NB * SA * es);
    memcpy(CS0, CS, NB * SCS * rs);
    memcpy(C0, C, NB * SC * es);
    memcpy(info0, info, sizeof info);
    for (k = 0; k < NB; k++) {
        pa[k] = elem_ptr(p, A, (size_t)k * SA);
        pcs[k] = (char *)CS + (size_t)k * SCS * rs;
        pc[k] = elem_ptr(p, C, (size_t)k * SC);
    }

    for (form = 0; form < 2; form++) {
        const char *sfx = form ? "_strided" : "";
        const int o = form; /* the strided forms have a stride after each leading dimension */

        /* geqrf: n > m, lda < m, ldcs < m. */
        snprintf(fn, sizeof fn, "numgpu_%sgeqrf_givens_batched%s", p->letter, sfx);
        s = form ? q->geqrf_s(h, 2, N, A, LDA, SA, CS, LDCS, SCS, NB) : q->geqrf(h, 2, N, pa, LDA, pcs, LDCS, NB, NULL);
        expect_invalid(s, fn, 3, "(n = 3) must be <= m = 2", SAME, hname, "n > m");
        s = form ? q->geqrf_s(h, M, N, A, M - 1, SA, CS, LDCS, SCS, NB)
                 : q->geqrf(h, M, N, pa, M - 1, pcs, LDCS, NB, NULL);
        expect_invalid(s, fn, 5, "(lda = 3)", SAME, hname, "lda < m");
        s = form ? q->geqrf_s(h, M, N, A, LDA, SA, CS, M - 1, SCS, NB) : q->geqrf(h, M, N, pa, LDA, pcs, M - 1, NB, NULL);
        expect_invalid(s, fn, 7 + o, "(ldcs = 3)", SAME, hname, "ldcs < m");
        s = form ? q->geqrf_s(h, 0, 0, A, 1, SA, CS, 1, SCS, NB) : q->geqrf(h, 0, 0, pa, 1, pcs, 1, NB, NULL);
        check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with m = n = 0: status %d (%s), outputs %s", hname, fn,
              (int)s, last_error(), SAME ? "untouched" : "MODIFIED");
        s = form ? q->geqrf_s(h, M, N, A, LDA, SA, CS, LDCS, SCS, 0) : q->geqrf(h, M, N, pa, LDA, pcs, LDCS, 0, NULL);
        check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with batch = 0: status %d (%s), outputs %s", hname, fn,
              (int)s, last_error(), SAME ? "untouched" : "MODIFIED");

        /* ormqr / unmqr: side, trans, k > nq, lda < nq. */
        snprintf(fn, sizeof fn, "numgpu_%s%s_givens_batched%s", p->letter, q->mqr, sfx);
#define ORMQR(SIDE, TRANS, MM, NN, KK, LDAA)                                                      \
    (form ? q->ormqr_s(h, SIDE, TRANS, MM, NN, KK, A, LDAA, SA, CS, LDCS, SCS, C, LDC, SC, NB)    \
          : q->ormqr(h, SIDE, TRANS, MM, NN, KK, pa, LDAA, pcs, LDCS, pc, LDC, NB, NULL))
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
        expect_invalid(s, fn, 3, needle, SAME, hname, p->cplx ? "trans T for complex (right)" : "trans C for real (right)");
        s = ORMQR(NUMGPU_SIDE_LEFT, NUMGPU_OP_N, 2, NC, N, LDA);
        expect_invalid(s, fn, 6, "(k = 3) must be <= m = 2", SAME, hname, "k > nq = m");
        s = ORMQR(NUMGPU_SIDE_RIGHT, q->adjoint, NC, 2, N, LDA);
        expect_invalid(s, fn, 6, "(k = 3) must be <= n = 2", SAME, hname, "k > nq = n");
        s = ORMQR(NUMGPU_SIDE_LEFT, q->adjoint, M, NC, N, M - 1);
        expect_invalid(s, fn, 8, "(lda = 3)", SAME, hname, "lda < m");
        s = ORMQR(NUMGPU_SIDE_RIGHT, NUMGPU_OP_N, NC, M, N, M - 1);
        expect_invalid(s, fn, 8, "(lda = 3) must be >= max(1, n) = 4", SAME, hname, "lda < n (right)");
        s = ORMQR(NUMGPU_SIDE_LEFT, NUMGPU_OP_N, M, NC, 0, LDA);
        check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with k = 0: status %d (%s), outputs %s", hname, fn, (int)s,
              last_error(), SAME ? "untouched" : "MODIFIED");
#undef ORMQR

        /* orgqr / ungqr: n > m, k > n, lda < m. */
        snprintf(fn, sizeof fn, "numgpu_%s%s_givens_batched%s", p->letter, q->gqr, sfx);
        s = form ? q->orgqr_s(h, 2, N, 2, A, LDA, SA, CS, LDCS, SCS, NB) : q->orgqr(h, 2, N, 2, pa, LDA, pcs, LDCS, NB, NULL);
        expect_invalid(s, fn, 3, "(n = 3) must be <= m = 2", SAME, hname, "n > m");
        s = form ? q->orgqr_s(h, M, 2, N, A, LDA, SA, CS, LDCS, SCS, NB) : q->orgqr(h, M, 2, N, pa, LDA, pcs, LDCS, NB, NULL);
        expect_invalid(s, fn, 4, "(k = 3) must be <= n = 2", SAME, hname, "k > n");
        s = form ? q->orgqr_s(h, M, N, N, A, M - 1, SA, CS, LDCS, SCS, NB)
                 : q->orgqr(h, M, N, N, pa, M - 1, pcs, LDCS, NB, NULL);
        expect_invalid(s, fn, 6, "(lda = 3)", SAME, hname, "lda < m");

        /* gels: n > m, lda < m, ldb < m, NULL info. */
        snprintf(fn, sizeof fn, "numgpu_%sgels_givens_batched%s", p->letter, sfx);
#define GELS(MM, NN, LDAA, LDBB, INFO)                                                            \
    (form ? q->gels_s(h, MM, NN, NRHS, A, LDAA, SA, C, LDBB, SB, INFO, NB)                        \
          : q->gels(h, MM, NN, NRHS, pa, LDAA, pc, LDBB, INFO, NB, NULL))
        s = GELS(2, N, LDA, LDC, info);
        expect_invalid(s, fn, 3, "(n = 3) must be <= m = 2", SAME, hname, "n > m");
        s = GELS(M, N, M - 1, LDC, info);
        expect_invalid(s, fn, 6, "(lda = 3)", SAME, hname, "lda < m");
        s = GELS(M, N, LDA, M - 1, info);
        expect_invalid(s, fn, 8 + o, "(ldb = 3)", SAME, hname, "ldb < m");
        s = GELS(M, N, LDA, LDC, NULL);
        expect_invalid(s, fn, 9 + 2 * o, "info", SAME, hname, "NULL info");
        s = form ? q->gels_s(h, M, N, NRHS, A, LDA, SA, C, LDC, SB, info, 0)
                 : q->gels(h, M, N, NRHS, pa, LDA, pc, LDC, info, 0, NULL);
        check(s == NUMGPU_SUCCESS && SAME, "%s handle: %s with batch = 0: status %d (%s), outputs %s", hname, fn,
              (int)s, last_error(), SAME ? "untouched" : "MODIFIED");
#undef GELS
    }
#undef SAME

    free(A);
    free(A0);
    free(CS);
    free(CS0);
    free(C);
    free(C0);
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
        return finish("test_geqrf");
    numgpu_get_backend(autoh, &be);
    aname = be == NUMGPU_BACKEND_CUDA ? "AUTO(CUDA)" : "AUTO(CPU)";
    printf("test_geqrf: numgpu %s, AUTO handle runs on %s\n", numgpu_version(), backend_name(be));
    if (env_is_1("NUMGPU_REQUIRE_CUDA"))
        check(be == NUMGPU_BACKEND_CUDA, "NUMGPU_REQUIRE_CUDA=1 but the AUTO handle runs on %s", backend_name(be));

    for (pi = 0; pi < 4; pi++)
        error_checks(autoh, aname, &QRS[pi]);
    sweep(autoh, aname, SPACE_HOST, 0);
    sweep(autoh, aname, SPACE_MALLOC, be != NUMGPU_BACKEND_CUDA);
    if (be == NUMGPU_BACKEND_CUDA) {
        printf("test_geqrf: CUDA device available: the numgpu_malloc cases ran on device pointers; "
               "running the host cases on a CPU handle too\n");
        st = numgpu_create_with(&cpuh, NUMGPU_BACKEND_CPU, 0);
        check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): status %d (%s)", (int)st, last_error());
        if (cpuh != NULL) {
            for (pi = 0; pi < 4; pi++)
                error_checks(cpuh, "CPU", &QRS[pi]);
            sweep(cpuh, "CPU", SPACE_HOST, 0);
            st = numgpu_destroy(cpuh);
            check(st == NUMGPU_SUCCESS, "numgpu_destroy(CPU): status %d (%s)", (int)st, last_error());
        }
    } else {
        printf("test_geqrf: no CUDA here, so the numgpu_malloc cases ran on host memory, for n in {1, 8, 33} "
               "only (device pointers are exercised on a GPU host)\n");
    }
    printf("test_geqrf: worst ratios (limit %g):", TOL);
    for (pi = 0; pi < W_COUNT; pi++)
        printf("%s %s %.3g", pi ? "," : "", WORST_NAME[pi], worst_of[pi]);
    printf("\n");

    st = numgpu_destroy(autoh);
    check(st == NUMGPU_SUCCESS, "numgpu_destroy(AUTO): status %d (%s)", (int)st, last_error());
    return finish("test_geqrf");
}
