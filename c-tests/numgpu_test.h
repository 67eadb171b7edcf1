/* Shared helpers of the C drop-in tests (c-tests/test_*.c), C99:
 *  - pass/fail counting and the summary line ("<name>: N passed, M failed");
 *  - a seeded random generator (xorshift64*), so every run sees the same matrices;
 *  - one table entry per precision (s, d, c, z) that puts numgpu's batched GEMM entry points
 *    and the CBLAS reference behind precision-neutral signatures (scalars as double[2],
 *    matrices as void *), so each test body is written once for the four precisions.
 */
#ifndef NUMGPU_TEST_H
#define NUMGPU_TEST_H

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numgpu.h"
#include <cblas.h>

/* ---- pass/fail counting ------------------------------------------------------------- */

static int t_passed, t_failed;

/* Counts one check; on failure prints "FAIL: <message>" (the first 40 failures in full). */
static inline void check(int ok, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        t_passed++;
        return;
    }
    if (++t_failed <= 40) {
        va_start(ap, fmt);
        fputs("FAIL: ", stdout);
        vprintf(fmt, ap);
        fputc('\n', stdout);
        va_end(ap);
    }
}

/* Prints the summary line and returns the process exit status. */
static inline int finish(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, t_passed, t_failed);
    fflush(stdout);
    return t_failed == 0 && t_passed > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Whether the environment variable `name` is "1". */
static inline int env_is_1(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && strcmp(v, "1") == 0;
}

/* malloc that never returns NULL (a test without memory cannot say anything useful). */
static inline void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "out of host memory (%lu bytes)\n", (unsigned long)bytes);
        exit(2);
    }
    return p;
}

/* This thread's numgpu_last_error text, in a static buffer. */
static inline const char *last_error(void)
{
    static char buf[1024];
    numgpu_last_error(buf, sizeof buf);
    return buf;
}

static inline const char *backend_name(int32_t b)
{
    return b == NUMGPU_BACKEND_CUDA ? "CUDA" : b == NUMGPU_BACKEND_CPU ? "CPU" : "AUTO";
}

/* ---- random numbers ----------------------------------------------------------------- */

#define TEST_SEED 0x6e756d677075ULL /* "numgpu" */
static uint64_t rng_state = TEST_SEED;

/* Uniform in [-1, 1). */
static inline double rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545F4914F6CDD1DULL) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* ---- precisions --------------------------------------------------------------------- */

/* Precision-neutral views of numgpu_?gemm_batched, numgpu_?gemm_batched_strided and
 * cblas_?gemm. Scalars are double[2] (re, im; im ignored by s and d). */
typedef numgpu_status (*batched_fn)(numgpu_handle *h, int32_t ta, int32_t tb, int64_t m, int64_t n,
                                    int64_t k, const double *alpha, void *const *A, int64_t lda,
                                    void *const *B, int64_t ldb, const double *beta, void *const *C,
                                    int64_t ldc, int64_t batch, numgpu_handle *dev);
typedef numgpu_status (*strided_fn)(numgpu_handle *h, int32_t ta, int32_t tb, int64_t m, int64_t n,
                                    int64_t k, const double *alpha, const void *A, int64_t lda,
                                    int64_t sA, const void *B, int64_t ldb, int64_t sB,
                                    const double *beta, void *C, int64_t ldc, int64_t sC,
                                    int64_t batch);
typedef void (*ref_fn)(int32_t ta, int32_t tb, int m, int n, int k, const double *alpha,
                       const void *A, int lda, const void *B, int ldb, const double *beta, void *C,
                       int ldc);

typedef struct {
    const char *letter; /* "s", "d", "c", "z" */
    size_t size;        /* bytes of one element */
    int dbl;            /* components are double (d, z), else float */
    int cplx;           /* two components per element */
    double eps;         /* machine epsilon of the precision */
    double tiny;        /* smallest normal number of the precision */
    /* numgpu_?gemm_batched. A, B, C are host arrays of `batch` matrix pointers (or NULL,
     * passed on as NULL). With dev != NULL the pointer arrays are copied to memory from
     * numgpu_malloc(dev) first: pointer arrays live in the same space as the matrices. */
    batched_fn batched;
    strided_fn strided; /* numgpu_?gemm_batched_strided */
    ref_fn ref;         /* cblas_?gemm, column-major */
} prec_t;

static inline enum CBLAS_TRANSPOSE cblas_op(int32_t op)
{
    return op == NUMGPU_OP_N ? CblasNoTrans : op == NUMGPU_OP_T ? CblasTrans : CblasConjTrans;
}

/* Copies `bytes` of host memory into fresh memory from numgpu_malloc(h) (NULL when bytes is
 * 0 or src is NULL); exits when the copy cannot be made, which no test expects. */
static inline void *stage_in(numgpu_handle *h, const void *src, size_t bytes)
{
    void *d = NULL;
    if (src == NULL || bytes == 0)
        return NULL;
    if (numgpu_malloc(h, &d, bytes) != NUMGPU_SUCCESS || numgpu_memcpy(h, d, src, bytes) != NUMGPU_SUCCESS) {
        fprintf(stderr, "stage_in: %s\n", last_error());
        exit(2);
    }
    return d;
}

/* Buffers handed to numgpu in one space: the host buffer itself, or (dev) a copy in
 * numgpu_malloc memory that back() copies into the host buffer and frees. */
typedef struct {
    numgpu_handle *h;
    int dev;
    int count;
    struct {
        void *host, *dev;
        size_t bytes;
    } s[8];
} stage_t;

/* The buffer to pass for `host`: itself, or its staged copy. */
static inline void *put(stage_t *st, void *host, size_t bytes)
{
    void *d;
    if (!st->dev || host == NULL || bytes == 0)
        return host;
    d = stage_in(st->h, host, bytes);
    st->s[st->count].host = host;
    st->s[st->count].dev = d;
    st->s[st->count].bytes = bytes;
    st->count++;
    return d;
}

/* Waits for the handle (device arrays: the calls were asynchronous), copies everything back
 * and frees the copies; returns NULL or what failed. */
static inline const char *back(stage_t *st)
{
    const char *fail = NULL;
    int k;
    if (!st->dev)
        return NULL;
    if (numgpu_synchronize(st->h) != NUMGPU_SUCCESS)
        fail = "numgpu_synchronize failed";
    for (k = 0; k < st->count; k++) {
        if (numgpu_memcpy(st->h, st->s[k].host, st->s[k].dev, st->s[k].bytes) != NUMGPU_SUCCESS && !fail)
            fail = "copy back failed";
        numgpu_free(st->h, st->s[k].dev);
    }
    st->count = 0;
    return fail;
}

/* Checks that a call failed with INVALID_VALUE naming argument `arg` (a message starting
 * "<fname>: argument <arg> " and containing `needle`) and, per `same`, wrote nothing. */
static inline void expect_invalid(numgpu_status s, const char *fname, int arg, const char *needle, int same,
                                  const char *hname, const char *what)
{
    const char *msg = last_error();
    char prefix[160];
    int got = numgpu_last_error_arg();
    snprintf(prefix, sizeof prefix, "%s: argument %d ", fname, arg);
    check(s == NUMGPU_INVALID_VALUE && got == arg && strncmp(msg, prefix, strlen(prefix)) == 0 &&
              strstr(msg, needle) != NULL && same,
          "%s handle: %s (%s): want INVALID_VALUE naming argument %d (\"%s...\" with \"%s\") and nothing "
          "written; got status %d, argument %d, \"%s\", outputs %s",
          hname, fname, what, arg, prefix, needle, (int)s, got, msg, same ? "untouched" : "MODIFIED");
}

/* The handle numgpu_create picks, its backend in *be, after printing "<name>: numgpu
 * <version>, AUTO handle runs on <backend>" and counting NUMGPU_REQUIRE_CUDA=1 with a CPU
 * handle as a failure; NULL when it cannot be created (a failure counted too). */
static inline numgpu_handle *auto_handle(const char *name, int32_t *be)
{
    numgpu_handle *h = NULL;
    numgpu_status st = numgpu_create(&h);
    check(st == NUMGPU_SUCCESS, "numgpu_create: status %d (%s)", (int)st, last_error());
    if (h == NULL)
        return NULL;
    numgpu_get_backend(h, be);
    printf("%s: numgpu %s, AUTO handle runs on %s\n", name, numgpu_version(), backend_name(*be));
    if (env_is_1("NUMGPU_REQUIRE_CUDA"))
        check(*be == NUMGPU_BACKEND_CUDA, "NUMGPU_REQUIRE_CUDA=1 but the AUTO handle runs on %s", backend_name(*be));
    return h;
}

/* a / b for error ratios: 0 / 0 is 0, anything else over 0 is infinite. */
static inline double ratio_of(double a, double b)
{
    if (b > 0.0)
        return a / b;
    return a == 0.0 ? 0.0 : INFINITY;
}

/* Stamps out the three wrappers of one precision. SCALAR(x) turns a double[2] into the
 * precision's scalar; REF_CALL calls cblas_?gemm with `al`, `be` prepared by REF_SCALARS. */
#define NUMGPU_TEST_PRECISION(P, T, SCALAR, REF_SCALARS, REF_CALL)                                \
    static numgpu_status P##_batched(numgpu_handle *h, int32_t ta, int32_t tb, int64_t m,        \
                                     int64_t n, int64_t k, const double *alpha, void *const *A,  \
                                     int64_t lda, void *const *B, int64_t ldb,                   \
                                     const double *beta, void *const *C, int64_t ldc,            \
                                     int64_t batch, numgpu_handle *dev)                          \
    {                                                                                             \
        size_t nb = batch > 0 ? (size_t)batch : 0, i;                                             \
        const T **a = A ? xmalloc(nb * sizeof *a) : NULL;                                         \
        const T **b = B ? xmalloc(nb * sizeof *b) : NULL;                                         \
        T **c = C ? xmalloc(nb * sizeof *c) : NULL;                                               \
        void *da = NULL, *db = NULL, *dc = NULL;                                                  \
        numgpu_status st;                                                                         \
        for (i = 0; i < nb; i++) {                                                                \
            if (a) a[i] = A[i];                                                                   \
            if (b) b[i] = B[i];                                                                   \
            if (c) c[i] = C[i];                                                                   \
        }                                                                                         \
        if (dev != NULL) {                                                                        \
            da = stage_in(dev, a, nb * sizeof *a);                                                \
            db = stage_in(dev, b, nb * sizeof *b);                                                \
            dc = stage_in(dev, c, nb * sizeof *c);                                                \
            st = numgpu_##P##gemm_batched(h, ta, tb, m, n, k, SCALAR(alpha), da, lda, db, ldb,   \
                                          SCALAR(beta), dc, ldc, batch);                          \
            numgpu_free(dev, da);                                                                 \
            numgpu_free(dev, db);                                                                 \
            numgpu_free(dev, dc);                                                                 \
        } else {                                                                                  \
            st = numgpu_##P##gemm_batched(h, ta, tb, m, n, k, SCALAR(alpha), a, lda, b, ldb,     \
                                          SCALAR(beta), c, ldc, batch);                           \
        }                                                                                         \
        free((void *)a);                                                                          \
        free((void *)b);                                                                          \
        free(c);                                                                                  \
        return st;                                                                                \
    }                                                                                             \
    static numgpu_status P##_strided(numgpu_handle *h, int32_t ta, int32_t tb, int64_t m,        \
                                     int64_t n, int64_t k, const double *alpha, const void *A,   \
                                     int64_t lda, int64_t sA, const void *B, int64_t ldb,        \
                                     int64_t sB, const double *beta, void *C, int64_t ldc,       \
                                     int64_t sC, int64_t batch)                                  \
    {                                                                                             \
        return numgpu_##P##gemm_batched_strided(h, ta, tb, m, n, k, SCALAR(alpha), A, lda, sA,   \
                                                B, ldb, sB, SCALAR(beta), C, ldc, sC, batch);     \
    }                                                                                             \
    static void P##_ref(int32_t ta, int32_t tb, int m, int n, int k, const double *alpha,        \
                        const void *A, int lda, const void *B, int ldb, const double *beta,       \
                        void *C, int ldc)                                                         \
    {                                                                                             \
        REF_SCALARS                                                                               \
        REF_CALL(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, al, A, lda, B, ldb, be, C,   \
                 ldc);                                                                            \
    }

#define REAL_SCALAR_S(x) ((float)(x)[0])
#define REAL_SCALAR_D(x) ((x)[0])
#define CPLX_SCALAR_C(x) ((numgpu_complex_float){(float)(x)[0], (float)(x)[1]})
#define CPLX_SCALAR_Z(x) ((numgpu_complex_double){(x)[0], (x)[1]})
#define REF_REAL_S float al = (float)alpha[0], be = (float)beta[0];
#define REF_REAL_D double al = alpha[0], be = beta[0];
#define REF_CPLX_C float al[2], be[2]; al[0] = (float)alpha[0]; al[1] = (float)alpha[1]; \
                   be[0] = (float)beta[0]; be[1] = (float)beta[1];
#define REF_CPLX_Z const double *al = alpha, *be = beta;

NUMGPU_TEST_PRECISION(s, float, REAL_SCALAR_S, REF_REAL_S, cblas_sgemm)
NUMGPU_TEST_PRECISION(d, double, REAL_SCALAR_D, REF_REAL_D, cblas_dgemm)
NUMGPU_TEST_PRECISION(c, numgpu_complex_float, CPLX_SCALAR_C, REF_CPLX_C, cblas_cgemm)
NUMGPU_TEST_PRECISION(z, numgpu_complex_double, CPLX_SCALAR_Z, REF_CPLX_Z, cblas_zgemm)

static const prec_t PRECS[4] = {
    {"s", sizeof(float), 0, 0, FLT_EPSILON, FLT_MIN, s_batched, s_strided, s_ref},
    {"d", sizeof(double), 1, 0, DBL_EPSILON, DBL_MIN, d_batched, d_strided, d_ref},
    {"c", 2 * sizeof(float), 0, 1, FLT_EPSILON, FLT_MIN, c_batched, c_strided, c_ref},
    {"z", 2 * sizeof(double), 1, 1, DBL_EPSILON, DBL_MIN, z_batched, z_strided, z_ref},
};

/* Component `comp` (0 = re, 1 = im) of element `i` of a buffer of precision p. */
static inline double elem(const prec_t *p, const void *buf, size_t i, int comp)
{
    size_t j = i * (p->cplx ? 2 : 1) + (size_t)comp;
    return p->dbl ? ((const double *)buf)[j] : (double)((const float *)buf)[j];
}

static inline void set_elem(const prec_t *p, void *buf, size_t i, int comp, double v)
{
    size_t j = i * (p->cplx ? 2 : 1) + (size_t)comp;
    if (p->dbl)
        ((double *)buf)[j] = v;
    else
        ((float *)buf)[j] = (float)v;
}

/* Sets element i to (re, im); im is dropped for real precisions. */
static inline void set_value(const prec_t *p, void *buf, size_t i, double re, double im)
{
    set_elem(p, buf, i, 0, re);
    if (p->cplx)
        set_elem(p, buf, i, 1, im);
}

/* Element i of a buffer as a pointer, for pointer arrays. */
static inline void *elem_ptr(const prec_t *p, void *buf, size_t i)
{
    return (char *)buf + i * p->size;
}

#endif /* NUMGPU_TEST_H */
