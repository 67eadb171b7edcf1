/* Shared helpers of the C tests (c-tests/test_*.c), C99, written once:
 *  - compile-time checks of the ABI types a C user relies on;
 *  - pass/fail counting and the summary line ("<name>: N passed, M failed");
 *  - a seeded random generator (xorshift64*), so every run sees the same matrices;
 *  - one table entry per precision (s, d, c, z): element sizes, epsilon, element access
 *    (complex precisions as C99 float/double _Complex arrays) and cblas_?gemm;
 *  - Frobenius norms and the two ratios the tests use: a difference relative to a reference
 *    and a residual ||B - op(A) X|| relative to ||A|| ||X||, both in units of eps;
 *  - copies of host arrays into numgpu_malloc memory and back (device memory on CUDA);
 *  - the check of a rejected call (status, numgpu_last_error_arg position, message, outputs);
 *  - the places every family program runs in: the AUTO handle with host arrays and with
 *    numgpu_malloc memory, and a CPU handle with host arrays.
 */
#ifndef NUMGPU_TEST_H
#define NUMGPU_TEST_H

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numgpu.h"
#include <cblas.h>

/* ---- the ABI types --------------------------------------------------------------------- */

/* C99 has no static_assert: a negative array size fails the compilation instead. */
#define STATIC_CHECK(name, cond) typedef char name[(cond) ? 1 : -1]
/* numgpu's complex structs are C99's complex types: {re, im}, nothing else (the offsets are
 * not checked where a program replaced them by its own type with the override macros
 * numgpu_complex_float/double, as test_complex.c does). */
STATIC_CHECK(abi_complex_float_size, sizeof(numgpu_complex_float) == sizeof(float _Complex));
STATIC_CHECK(abi_complex_double_size, sizeof(numgpu_complex_double) == sizeof(double _Complex));
#ifndef numgpu_complex_float
STATIC_CHECK(abi_complex_float, offsetof(numgpu_complex_float, re) == 0 && offsetof(numgpu_complex_float, im) == sizeof(float));
#endif
#ifndef numgpu_complex_double
STATIC_CHECK(abi_complex_double, offsetof(numgpu_complex_double, re) == 0 && offsetof(numgpu_complex_double, im) == sizeof(double));
#endif
/* Every enum crosses the ABI as int32_t. */
STATIC_CHECK(abi_enums_int32, sizeof(numgpu_status) == 4 && sizeof(numgpu_backend) == 4 && sizeof(numgpu_op) == 4 &&
                                  sizeof(numgpu_side) == 4 && sizeof(numgpu_fullpivot_mode) == 4 &&
                                  sizeof(numgpu_gtsv_pivoting) == 4 && sizeof(numgpu_sshopm_mode) == 4 &&
                                  sizeof(numgpu_sshopm_shift) == 4 && sizeof(numgpu_sshopm_flag) == 4 &&
                                  sizeof(numgpu_sshopm_pair_type) == 4 && sizeof(numgpu_ode_layout) == 4 &&
                                  sizeof(numgpu_index_base) == 4 && sizeof(numgpu_rkc_stat) == 4 &&
                                  sizeof(numgpu_ode_problem) == 4 && sizeof(numgpu_rkc_method) == 4 &&
                                  sizeof(numgpu_rkc_spectral) == 4 && sizeof(numgpu_stebz_range) == 4);

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

/* A fresh copy of `bytes` of `src`. */
static inline void *xdup(const void *src, size_t bytes)
{
    return memcpy(xmalloc(bytes), src, bytes);
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

typedef double _Complex dcx;

/* cblas_?gemm, column-major, with the scalars as double complex (real parts for s, d). */
typedef void (*gemm_ref_fn)(int32_t ta, int32_t tb, int m, int n, int k, dcx alpha, const void *A, int lda,
                            const void *B, int ldb, dcx beta, void *C, int ldc);

typedef struct {
    const char *letter; /* "s", "d", "c", "z" */
    int dbl;            /* components are double (d, z), else float */
    int cplx;           /* complex: C99 float/double _Complex elements */
    size_t size;        /* bytes of one element */
    size_t rsize;       /* bytes of its real type */
    double eps;         /* machine epsilon of the precision */
    gemm_ref_fn gemm;   /* cblas_?gemm */
} prec_t;

static inline enum CBLAS_TRANSPOSE cblas_op(int32_t op)
{
    return op == NUMGPU_OP_N ? CblasNoTrans : op == NUMGPU_OP_T ? CblasTrans : CblasConjTrans;
}

static inline void s_gemm_ref(int32_t ta, int32_t tb, int m, int n, int k, dcx al, const void *A, int lda,
                              const void *B, int ldb, dcx be, void *C, int ldc)
{
    cblas_sgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, (float)creal(al), A, lda, B, ldb,
                (float)creal(be), C, ldc);
}

static inline void d_gemm_ref(int32_t ta, int32_t tb, int m, int n, int k, dcx al, const void *A, int lda,
                              const void *B, int ldb, dcx be, void *C, int ldc)
{
    cblas_dgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, creal(al), A, lda, B, ldb, creal(be), C, ldc);
}

static inline void c_gemm_ref(int32_t ta, int32_t tb, int m, int n, int k, dcx al, const void *A, int lda,
                              const void *B, int ldb, dcx be, void *C, int ldc)
{
    float _Complex a = (float _Complex)al, b = (float _Complex)be;
    cblas_cgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, &a, A, lda, B, ldb, &b, C, ldc);
}

static inline void z_gemm_ref(int32_t ta, int32_t tb, int m, int n, int k, dcx al, const void *A, int lda,
                              const void *B, int ldb, dcx be, void *C, int ldc)
{
    cblas_zgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, &al, A, lda, B, ldb, &be, C, ldc);
}

static const prec_t PRECS[4] = {
    {"s", 0, 0, sizeof(float), sizeof(float), FLT_EPSILON, s_gemm_ref},
    {"d", 1, 0, sizeof(double), sizeof(double), DBL_EPSILON, d_gemm_ref},
    {"c", 0, 1, sizeof(float _Complex), sizeof(float), FLT_EPSILON, c_gemm_ref},
    {"z", 1, 1, sizeof(double _Complex), sizeof(double), DBL_EPSILON, z_gemm_ref},
};

/* Element i of a buffer of precision p (imaginary part 0 for s, d). */
static inline dcx cget(const prec_t *p, const void *buf, size_t i)
{
    if (p->cplx)
        return p->dbl ? ((const double _Complex *)buf)[i] : ((const float _Complex *)buf)[i];
    return p->dbl ? ((const double *)buf)[i] : ((const float *)buf)[i];
}

/* Sets element i (rounded to the precision; the imaginary part dropped for s, d). */
static inline void cset(const prec_t *p, void *buf, size_t i, dcx v)
{
    if (p->cplx && p->dbl)
        ((double _Complex *)buf)[i] = v;
    else if (p->cplx)
        ((float _Complex *)buf)[i] = (float _Complex)v;
    else if (p->dbl)
        ((double *)buf)[i] = creal(v);
    else
        ((float *)buf)[i] = (float)creal(v);
}

/* Element i of an array of the precision's real type (CS, scale). */
static inline double rget(const prec_t *p, const void *buf, size_t i)
{
    return p->dbl ? ((const double *)buf)[i] : (double)((const float *)buf)[i];
}

static inline void rset(const prec_t *p, void *buf, size_t i, double v)
{
    if (p->dbl)
        ((double *)buf)[i] = v;
    else
        ((float *)buf)[i] = (float)v;
}

/* The address of element i, for pointer arrays and sub-matrices. */
static inline void *eptr(const prec_t *p, const void *buf, size_t i)
{
    return (char *)buf + i * p->size;
}

/* A random value, uniform in [-1, 1) in each part. */
static inline dcx rnd_elem(void)
{
    double re = rnd();
    return re + rnd() * I;
}

/* NaN in both parts, the value padding and unused entries start with. */
#define CNAN (NAN + NAN * I)

/* A buffer of `nmat` rows x cols matrices with leading dimension ld, `stride` apart: random
 * inside (or `inside` when random is 0), `outside` in the padding rows and the gaps. */
static inline void *new_matrices(const prec_t *p, size_t nmat, size_t ld, size_t stride, size_t rows, size_t cols,
                                 int random, dcx inside, dcx outside)
{
    size_t count = nmat * stride, e;
    void *b = xmalloc(count * p->size + 1);
    for (e = 0; e < count; e++) {
        size_t r = e % stride;
        cset(p, b, e, r < ld * cols && r % ld < rows ? (random ? rnd_elem() : inside) : outside);
    }
    return b;
}

/* A buffer of `count` elements, each random (random != 0) or `v`. */
static inline void *new_buffer(const prec_t *p, size_t count, int random, dcx v)
{
    return new_matrices(p, 1, count, count, count, 1, random, v, v);
}

/* ---- norms and ratios ---------------------------------------------------------------- */

/* LAPACK's test threshold, for every ratio below. */
#define TOL 30.0

/* ||X - Y||_F of rows x cols matrices (leading dimensions ldx, ldy); ||X||_F when Y is NULL.
 * Summed relative to the largest entry, so that entries near 1e+-300 neither overflow nor
 * underflow when squared. */
static inline double fro_diff(const prec_t *p, const void *X, size_t ldx, const void *Y, size_t ldy, size_t rows,
                              size_t cols)
{
    double big = 0.0, s = 0.0;
    size_t i, j;
    int pass;
    for (pass = 0; pass < 2; pass++)
        for (j = 0; j < cols; j++)
            for (i = 0; i < rows; i++) {
                double d = cabs(cget(p, X, i + j * ldx) - (Y ? cget(p, Y, i + j * ldy) : 0.0));
                if (pass == 0 && (d > big || d != d))
                    big = d; /* a NaN stays */
                else if (pass == 1 && big > 0.0)
                    s += (d / big) * (d / big);
            }
    return big > 0.0 && big < INFINITY ? big * sqrt(s) : big;
}

/* a / b for error ratios: 0 / 0 is 0, anything else over 0 is infinite. */
static inline double ratio_of(double a, double b)
{
    if (b > 0.0)
        return a / b;
    return a == 0.0 ? 0.0 : INFINITY;
}

/* ||X - R||_F / (scale eps ||R||_F): how far X is from the reference R, in units of eps
 * times `scale` (the problem size, as LAPACK's test ratios). */
static inline double diff_ratio(const prec_t *p, const void *X, size_t ldx, const void *R, size_t ldr, size_t rows,
                                size_t cols, double scale)
{
    return ratio_of(fro_diff(p, X, ldx, R, ldr, rows, cols), scale * p->eps * fro_diff(p, R, ldr, NULL, 0, rows, cols));
}

/* ||B - op(A) X||_F / (k eps ||A||_F ||X||_F), op(A) rows x k, X k x cols, the product by
 * cblas_?gemm: the backward error of a solve X of op(A) X = B (or of a factorisation,
 * A and X its factors and B the matrix). */
static inline double residual(const prec_t *p, int32_t op, const void *A, size_t lda, const void *X, size_t ldx,
                              const void *B, size_t ldb, size_t rows, size_t cols, size_t k)
{
    void *r = xmalloc(rows * cols * p->size + 1);
    size_t j;
    double res, na, nx;
    for (j = 0; j < cols; j++)
        memcpy(eptr(p, r, j * rows), eptr(p, B, j * ldb), rows * p->size);
    if (rows > 0 && cols > 0 && k > 0)
        p->gemm(op, NUMGPU_OP_N, (int)rows, (int)cols, (int)k, -1.0, A, (int)lda, X, (int)ldx, 1.0, r, (int)rows);
    res = fro_diff(p, r, rows, NULL, 0, rows, cols);
    na = op == NUMGPU_OP_N ? fro_diff(p, A, lda, NULL, 0, rows, k) : fro_diff(p, A, lda, NULL, 0, k, rows);
    nx = fro_diff(p, X, ldx, NULL, 0, k, cols);
    free(r);
    return ratio_of(res, (double)(k > 1 ? k : 1) * p->eps * na * nx);
}

/* Whether every element of a strided layout (`count` elements of `size` bytes, rows x cols
 * matrices with leading dimension ld, `stride` apart) that lies outside the matrices (padding
 * rows, gaps) is bitwise what it was in `before`. */
static inline int outside_same(const void *now, const void *before, size_t size, size_t count, size_t ld,
                               size_t stride, size_t rows, size_t cols)
{
    size_t e;
    for (e = 0; e < count; e++) {
        size_t r = e % stride;
        int inside = r < ld * cols && r % ld < rows;
        if (!inside && memcmp((const char *)now + e * size, (const char *)before + e * size, size) != 0)
            return 0;
    }
    return 1;
}

/* ---- where a program runs ---------------------------------------------------------- */

typedef struct {
    numgpu_handle *h;
    char name[64]; /* e.g. "AUTO(CUDA) handle, numgpu_malloc memory" */
    int dev;       /* the arrays go to numgpu_malloc memory (device memory on CUDA) */
    int cpu;       /* h runs on the CPU backend (LAPACK itself) */
} where_t;

/* ---- staging through numgpu_malloc -------------------------------------------------- */

/* Buffers handed to numgpu in one place: the host buffers themselves, or (dev) copies in
 * numgpu_malloc memory that back() copies into the host buffers and frees. */
typedef struct {
    numgpu_handle *h;
    int dev;
    int count;
    struct {
        void *host, *dev;
        size_t bytes;
    } s[16];
} stage_t;

static inline stage_t stage_for(const where_t *w)
{
    stage_t st;
    memset(&st, 0, sizeof st);
    st.h = w->h;
    st.dev = w->dev;
    return st;
}

/* The buffer to pass for `host` (a pointer array too, once it points into staged buffers):
 * itself, or a copy in numgpu_malloc memory. */
static inline void *put(stage_t *st, void *host, size_t bytes)
{
    void *d = NULL;
    if (!st->dev || host == NULL || bytes == 0)
        return host;
    if (st->count == (int)(sizeof st->s / sizeof st->s[0]) || numgpu_malloc(st->h, &d, bytes) != NUMGPU_SUCCESS ||
        numgpu_memcpy(st->h, d, host, bytes) != NUMGPU_SUCCESS) {
        fprintf(stderr, "put: cannot stage %lu bytes: %s\n", (unsigned long)bytes, last_error());
        exit(2);
    }
    st->s[st->count].host = host;
    st->s[st->count].dev = d;
    st->s[st->count].bytes = bytes;
    st->count++;
    return d;
}

/* Waits for the handle (on CUDA the calls on device memory are asynchronous), copies every
 * staged buffer back and frees the copies; returns NULL or what failed. */
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

/* Counts one call: status SUCCESS and the staged buffers back (`fail` from back()). */
static inline int call_ok(numgpu_status s, const char *fail, const char *where, const char *what)
{
    check(s == NUMGPU_SUCCESS && fail == NULL, "%s: %s: status %d (%s) %s", where, what, (int)s, last_error(),
          fail ? fail : "");
    return s == NUMGPU_SUCCESS && fail == NULL;
}

/* ---- rejected calls ------------------------------------------------------------------- */

/* Checks that a call returned `want` with numgpu_last_error_arg() = arg (0: none). For a
 * failure, the message starts with "<fname>: " and "argument <arg> " right after when arg > 0,
 * and contains `needle`; for a success, the message is empty. `untouched`: the outputs are
 * bitwise what they were before the call. */
static inline void expect_status(numgpu_status s, numgpu_status want, const char *fname, int arg, const char *needle,
                                 int untouched, const char *where, const char *what)
{
    const char *msg = last_error();
    char prefix[160];
    int got = numgpu_last_error_arg(), ok = s == want && got == arg && untouched;
    if (arg > 0)
        snprintf(prefix, sizeof prefix, "%s: argument %d ", fname, arg);
    else
        snprintf(prefix, sizeof prefix, "%s: ", fname);
    if (want != NUMGPU_SUCCESS)
        ok = ok && strncmp(msg, prefix, strlen(prefix)) == 0 && strstr(msg, needle) != NULL;
    else
        ok = ok && msg[0] == '\0';
    check(ok,
          "%s: %s (%s): want status %d naming argument %d (\"%s...\" with \"%s\") and outputs untouched; got "
          "status %d, argument %d, \"%s\", outputs %s",
          where, fname, what, (int)want, arg, want != NUMGPU_SUCCESS ? prefix : "", needle, (int)s, got, msg,
          untouched ? "untouched" : "MODIFIED");
}

/* A call that must fail with INVALID_VALUE naming argument `arg`, writing nothing. */
static inline void expect_invalid(numgpu_status s, const char *fname, int arg, const char *needle, int untouched,
                                  const char *where, const char *what)
{
    expect_status(s, NUMGPU_INVALID_VALUE, fname, arg, needle, untouched, where, what);
}

/* ---- the program ------------------------------------------------------------------------ */

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

/* A family program: `errors(h, hname)` (the argument checks) on the AUTO handle and, when
 * that is not the CPU, on a CPU handle; then `body(w)` in every place: the AUTO handle with
 * host arrays, the AUTO handle with numgpu_malloc memory (device pointers on CUDA), and a CPU
 * handle with host arrays when AUTO is not the CPU. Prints the summary line and returns the
 * exit status. */
static inline int run_program(const char *prog, void (*errors)(numgpu_handle *h, const char *hname),
                              void (*body)(const where_t *w))
{
    numgpu_handle *autoh, *cpuh = NULL;
    where_t w[3];
    int32_t be = -1;
    int nw = 0, i;
    char aname[16];
    numgpu_status st;

    autoh = auto_handle(prog, &be);
    if (autoh == NULL)
        return finish(prog);
    snprintf(aname, sizeof aname, "AUTO(%s)", backend_name(be));
    for (i = 0; i < 2; i++, nw++) {
        w[nw].h = autoh;
        w[nw].dev = i;
        w[nw].cpu = be == NUMGPU_BACKEND_CPU;
        snprintf(w[nw].name, sizeof w[nw].name, "%s handle, %s", aname, i ? "numgpu_malloc memory" : "host arrays");
    }
    if (be != NUMGPU_BACKEND_CPU) {
        st = numgpu_create_with(&cpuh, NUMGPU_BACKEND_CPU, 0);
        check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): status %d (%s)", (int)st, last_error());
        if (cpuh != NULL) {
            w[nw].h = cpuh;
            w[nw].dev = 0;
            w[nw].cpu = 1;
            snprintf(w[nw].name, sizeof w[nw].name, "CPU handle, host arrays");
            nw++;
        }
    } else {
        printf("%s: no CUDA here, so the numgpu_malloc cases ran on host memory (device pointers are exercised "
               "on a GPU host)\n", prog);
    }
    if (errors != NULL) {
        errors(autoh, aname);
        if (cpuh != NULL)
            errors(cpuh, "CPU");
    }
    for (i = 0; i < nw; i++)
        body(&w[i]);
    if (cpuh != NULL) {
        st = numgpu_destroy(cpuh);
        check(st == NUMGPU_SUCCESS, "numgpu_destroy(CPU): status %d (%s)", (int)st, last_error());
    }
    st = numgpu_destroy(autoh);
    check(st == NUMGPU_SUCCESS, "numgpu_destroy(AUTO): status %d (%s)", (int)st, last_error());
    return finish(prog);
}

#endif /* NUMGPU_TEST_H */
