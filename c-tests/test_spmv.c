/* test_spmv: numgpu's sparse matrix-vector products from C, against a straightforward
 * reference (LAPACK has no SpMV): y = alpha op(A) x + beta y summed in double (complex) per
 * row or column, with the per-entry tolerance (len + 4) eps (|alpha| (|A| |x|)_i + |beta y_i|)
 * (magnitudes |re| + |im|, twice that for complex types).
 *
 *  - numgpu_?csrmv (s, d, c, z): ops N, T, C; 0- and 1-based; random matrices with empty rows,
 *    duplicates and unsorted columns: 1 x 1, 17 x 33 and 64 x 3000 with a 2000-entry row;
 *    alpha, beta in {(1, 0), (0.5 - 0.25i, -1 + 0.5i), (0, 0.5)}; beta = 0 over NaN in y;
 *  - the CSR plan (s, d, c, z): numgpu_csr_plan_create for ops N, T, C, 0- and 1-based, on the
 *    same matrices and a 40 x 12000 one with a 10000-entry row (split across work units),
 *    numgpu_csr_plan_info, numgpu_?csrmv_plan with the same scalars and two value sets per
 *    plan, numgpu_csr_plan_destroy (and of NULL);
 *  - the CMRS object (s, d) on a 203 x 150 matrix, 0- and 1-based: numgpu_?cmrs_create with
 *    (height, M) = (0 (16), 0 (chosen)), (1, 2), (5, 8), numgpu_cmrs_info,
 *    numgpu_?cmrsmv against the same reference, numgpu_?cmrs_update_values,
 *    numgpu_cmrs_destroy (and of NULL);
 *  - argument checks: NULL handle, trans out of range, negative m, index_base 2, a column index
 *    out of range and a non-monotone row_ptr (host arrays: y untouched), height 17, M 3, NULL A,
 *    a single-precision matrix given to numgpu_dcmrsmv, a plan's hints 1, bad column, NULL
 *    output and NULL plan: NUMGPU_INVALID_VALUE naming the argument.
 *
 * On the AUTO handle (CUDA on a GPU host) with host arrays and with numgpu_malloc memory (device
 * pointers there) and on a CPU handle. Prints "test_spmv: N passed, M failed"; exits non-zero
 * on any failure.
 */
#include "numgpu_test.h"

/* numgpu_?csrmv with the scalars as dcx (real parts for s, d). */
typedef numgpu_status (*csrmv_fn)(numgpu_handle *h, int32_t op, int64_t m, int64_t n, int64_t nnz, dcx al,
                                  const void *val, const int32_t *rp, const int32_t *ci, int32_t base, const void *x,
                                  dcx be, void *y);

#define CSRMV(P, SCALAR)                                                                                          \
    static numgpu_status P##_csrmv(numgpu_handle *h, int32_t op, int64_t m, int64_t n, int64_t nnz, dcx al,      \
                                   const void *val, const int32_t *rp, const int32_t *ci, int32_t base,          \
                                   const void *x, dcx be, void *y)                                               \
    {                                                                                                             \
        return numgpu_##P##csrmv(h, op, m, n, nnz, SCALAR(al), val, rp, ci, base, x, SCALAR(be), y);             \
    }
#define REAL_F(x) ((float)creal(x))
#define REAL_D(x) (creal(x))
#define CPLX_F(x) ((numgpu_complex_float){(float)creal(x), (float)cimag(x)})
#define CPLX_D(x) ((numgpu_complex_double){creal(x), cimag(x)})
CSRMV(s, REAL_F)
CSRMV(d, REAL_D)
CSRMV(c, CPLX_F)
CSRMV(z, CPLX_D)
static const csrmv_fn CSRMV[4] = {s_csrmv, d_csrmv, c_csrmv, z_csrmv};

/* numgpu_?csrmv_plan with the scalars as dcx. */
typedef numgpu_status (*plan_fn)(numgpu_handle *h, const numgpu_csr_plan *plan, dcx al, const void *val, const void *x,
                                 dcx be, void *y);
#define CSRMV_PLAN(P, SCALAR)                                                                                     \
    static numgpu_status P##_csrmv_plan(numgpu_handle *h, const numgpu_csr_plan *plan, dcx al, const void *val,  \
                                        const void *x, dcx be, void *y)                                          \
    {                                                                                                             \
        return numgpu_##P##csrmv_plan(h, plan, SCALAR(al), val, x, SCALAR(be), y);                               \
    }
CSRMV_PLAN(s, REAL_F)
CSRMV_PLAN(d, REAL_D)
CSRMV_PLAN(c, CPLX_F)
CSRMV_PLAN(z, CPLX_D)
static const plan_fn CSRMV_PLAN[4] = {s_csrmv_plan, d_csrmv_plan, c_csrmv_plan, z_csrmv_plan};

static double mag(dcx v) { return fabs(creal(v)) + fabs(cimag(v)); }

/* A random CSR matrix: row i has len_of(i) entries at random columns (duplicates possible, in
 * random order), `base`-based; with long_row, row m / 2 has 2000 entries (long_row = 1) or
 * long_row entries. */
typedef struct {
    int64_t m, n, nnz;
    int32_t base;
    int32_t *rp, *ci;
} csr_t;

static csr_t make_csr(int64_t m, int64_t n, int32_t base, int long_row)
{
    csr_t a;
    int64_t i, k;
    a.m = m;
    a.n = n;
    a.base = base;
    a.rp = xmalloc((size_t)(m + 1) * sizeof *a.rp);
    a.rp[0] = base;
    for (i = 0; i < m; i++) {
        int64_t len = (i % 5 == 3) ? 0 : 1 + (int64_t)((rnd() + 1.0) * 4.0);
        if (long_row && i == m / 2) len = long_row > 1 ? long_row : 2000;
        a.rp[i + 1] = a.rp[i] + (int32_t)len;
    }
    a.nnz = a.rp[m] - base;
    a.ci = xmalloc((size_t)(a.nnz ? a.nnz : 1) * sizeof *a.ci);
    for (k = 0; k < a.nnz; k++) a.ci[k] = base + (int32_t)((rnd() + 1.0) * 0.5 * (double)n) % (int32_t)n;
    return a;
}

/* Compares y with alpha op(A) x + beta y0; counts one check. */
static void compare(const prec_t *p, const char *what, const char *hname, int32_t op, const csr_t *a, const void *val,
                    dcx al, const void *x, dcx be, const void *y0, const void *y)
{
    int64_t ylen = op == NUMGPU_OP_N ? a->m : a->n, i, k, bad = -1;
    dcx *s = xmalloc((size_t)ylen * sizeof *s);
    double *mg = xmalloc((size_t)ylen * sizeof *mg);
    int64_t *len = xmalloc((size_t)ylen * sizeof *len);
    for (i = 0; i < ylen; i++) {
        s[i] = 0;
        mg[i] = 0;
        len[i] = 0;
    }
    for (i = 0; i < a->m; i++) {
        for (k = a->rp[i] - a->base; k < a->rp[i + 1] - a->base; k++) {
            int64_t j = a->ci[k] - a->base, out = op == NUMGPU_OP_N ? i : j;
            dcx v = cget(p, val, (size_t)k), xv = cget(p, x, (size_t)(op == NUMGPU_OP_N ? j : i));
            if (op == NUMGPU_OP_C) v = conj(v);
            s[out] += v * xv;
            mg[out] += mag(v) * mag(xv);
            len[out]++;
        }
    }
    for (i = 0; i < ylen; i++) {
        dcx y0i = be == 0 ? 0 : cget(p, y0, (size_t)i);
        dcx want = al * s[i] + (be == 0 ? 0 : be * y0i);
        double tol = (p->cplx ? 2.0 : 1.0) * (double)(len[i] + 4) * p->eps * (mag(al) * mg[i] + mag(be) * mag(y0i));
        double err = mag(cget(p, y, (size_t)i) - want);
        if (!(err <= tol) && bad < 0) bad = i;
    }
    check(bad < 0, "%s: %s%s op %d %lldx%lld base %d: y[%lld] outside the tolerance", hname, p->letter, what,
          (int)op, (long long)a->m, (long long)a->n, (int)a->base, (long long)bad);
    free(s);
    free(mg);
    free(len);
}

static void csrmv_cases(const where_t *w, const prec_t *p)
{
    static const int64_t shapes[][3] = {{1, 1, 0}, {17, 33, 0}, {64, 3000, 1}};
    static const dcx ab[][2] = {{1.0, 0.0}, {0.5 - 0.25 * I, -1.0 + 0.5 * I}, {0.0, 0.5}};
    size_t si, ai;
    int32_t op, base;
    for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        for (base = 0; base <= 1; base++) {
            csr_t a = make_csr(shapes[si][0], shapes[si][1], base, (int)shapes[si][2]);
            void *val = new_buffer(p, (size_t)a.nnz, 1, 0);
            for (op = NUMGPU_OP_N; op <= NUMGPU_OP_C; op++) {
                int64_t xlen = op == NUMGPU_OP_N ? a.n : a.m, ylen = op == NUMGPU_OP_N ? a.m : a.n;
                for (ai = 0; ai < sizeof ab / sizeof ab[0]; ai++) {
                    dcx al = p->cplx ? ab[ai][0] : creal(ab[ai][0]), be = p->cplx ? ab[ai][1] : creal(ab[ai][1]);
                    /* y0 NaN when beta = 0: not read */
                    void *x = new_buffer(p, (size_t)xlen, 1, 0), *y0 = new_buffer(p, (size_t)ylen, be != 0.0, CNAN);
                    void *y = xdup(y0, (size_t)ylen * p->size);
                    stage_t st = stage_for(w);
                    numgpu_status s;
                    s = CSRMV[p - PRECS](w->h, op, a.m, a.n, a.nnz, al, put(&st, val, (size_t)a.nnz * p->size),
                                         put(&st, a.rp, (size_t)(a.m + 1) * 4), put(&st, a.ci, (size_t)a.nnz * 4),
                                         base, put(&st, x, (size_t)xlen * p->size), be,
                                         put(&st, y, (size_t)ylen * p->size));
                    if (call_ok(s, back(&st), w->name, "csrmv"))
                        compare(p, "csrmv", w->name, op, &a, val, al, x, be, y0, y);
                    free(x);
                    free(y0);
                    free(y);
                }
            }
            free(val);
            free(a.rp);
            free(a.ci);
        }
    }
}

/* The plan's life for each op and base: create, info (op N: the 10000-entry row split), two
 * value sets with each (alpha, beta), destroy. */
static void plan_cases(const where_t *w, const prec_t *p)
{
    static const int64_t shapes[][3] = {{1, 1, 0}, {17, 33, 0}, {64, 3000, 1}, {40, 12000, 10000}};
    static const dcx ab[][2] = {{1.0, 0.0}, {0.5 - 0.25 * I, -1.0 + 0.5 * I}, {0.0, 0.5}};
    size_t si, ai;
    int32_t op, base, v;
    for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        for (base = 0; base <= 1; base++) {
            csr_t a = make_csr(shapes[si][0], shapes[si][1], base, (int)shapes[si][2]);
            for (op = NUMGPU_OP_N; op <= NUMGPU_OP_C; op++) {
                int64_t xlen = op == NUMGPU_OP_N ? a.n : a.m, ylen = op == NUMGPU_OP_N ? a.m : a.n;
                int64_t units = -1, split = -1, bytes = -1;
                numgpu_csr_plan *plan = NULL;
                stage_t st = stage_for(w);
                numgpu_status s = numgpu_csr_plan_create(w->h, op, a.m, a.n, a.nnz, put(&st, a.rp, (size_t)(a.m + 1) * 4),
                                                         put(&st, a.ci, (size_t)a.nnz * 4), base, 0, &plan);
                if (!call_ok(s, back(&st), w->name, "csr_plan_create"))
                    continue;
                s = numgpu_csr_plan_info(plan, &units, &split, &bytes);
                check(s == NUMGPU_SUCCESS && units >= 1 && (op != NUMGPU_OP_N || split == (shapes[si][2] > 4096)) && bytes >= 4 * (a.m + a.nnz),
                      "%s: numgpu_csr_plan_info: units %lld, split rows %lld, bytes %lld", w->name, (long long)units,
                      (long long)split, (long long)bytes);
                for (v = 0; v < 2; v++) {
                    void *val = new_buffer(p, (size_t)a.nnz, 1, 0);
                    for (ai = 0; ai < sizeof ab / sizeof ab[0]; ai++) {
                        dcx al = p->cplx ? ab[ai][0] : creal(ab[ai][0]), be = p->cplx ? ab[ai][1] : creal(ab[ai][1]);
                        void *x = new_buffer(p, (size_t)xlen, 1, 0), *y0 = new_buffer(p, (size_t)ylen, be != 0.0, CNAN);
                        void *y = xdup(y0, (size_t)ylen * p->size);
                        stage_t sp = stage_for(w);
                        s = CSRMV_PLAN[p - PRECS](w->h, plan, al, put(&sp, val, (size_t)a.nnz * p->size),
                                                  put(&sp, x, (size_t)xlen * p->size), be, put(&sp, y, (size_t)ylen * p->size));
                        if (call_ok(s, back(&sp), w->name, "csrmv_plan"))
                            compare(p, "csrmv_plan", w->name, op, &a, val, al, x, be, y0, y);
                        free(x);
                        free(y0);
                        free(y);
                    }
                    free(val);
                }
                check(numgpu_csr_plan_destroy(plan) == NUMGPU_SUCCESS, "numgpu_csr_plan_destroy failed");
            }
            free(a.rp);
            free(a.ci);
        }
    }
    check(numgpu_csr_plan_destroy(NULL) == NUMGPU_SUCCESS, "numgpu_csr_plan_destroy(NULL) is not a no-op");
}

typedef numgpu_status (*create_fn)(numgpu_handle *, int64_t, int64_t, int64_t, const void *, const int32_t *,
                                   const int32_t *, numgpu_index_base, int64_t, int64_t, numgpu_cmrs_matrix **);
typedef numgpu_status (*cmrsmv_fn)(numgpu_handle *, double, const numgpu_cmrs_matrix *, const void *, double, void *);
typedef numgpu_status (*update_fn)(numgpu_handle *, numgpu_cmrs_matrix *, const void *);

static numgpu_status s_create(numgpu_handle *h, int64_t m, int64_t n, int64_t nnz, const void *v, const int32_t *rp,
                              const int32_t *ci, numgpu_index_base b, int64_t hh, int64_t mm, numgpu_cmrs_matrix **A)
{
    return numgpu_scmrs_create(h, m, n, nnz, v, rp, ci, b, hh, mm, A);
}
static numgpu_status d_create(numgpu_handle *h, int64_t m, int64_t n, int64_t nnz, const void *v, const int32_t *rp,
                              const int32_t *ci, numgpu_index_base b, int64_t hh, int64_t mm, numgpu_cmrs_matrix **A)
{
    return numgpu_dcmrs_create(h, m, n, nnz, v, rp, ci, b, hh, mm, A);
}
static numgpu_status s_cmrsmv(numgpu_handle *h, double al, const numgpu_cmrs_matrix *A, const void *x, double be, void *y)
{
    return numgpu_scmrsmv(h, (float)al, A, x, (float)be, y);
}
static numgpu_status d_cmrsmv(numgpu_handle *h, double al, const numgpu_cmrs_matrix *A, const void *x, double be, void *y)
{
    return numgpu_dcmrsmv(h, al, A, x, be, y);
}
static numgpu_status s_update(numgpu_handle *h, numgpu_cmrs_matrix *A, const void *v) { return numgpu_scmrs_update_values(h, A, v); }
static numgpu_status d_update(numgpu_handle *h, numgpu_cmrs_matrix *A, const void *v) { return numgpu_dcmrs_update_values(h, A, v); }

/* The CMRS object's life: create, info, multiply, update the values, multiply, destroy. */
static void cmrs_cases(const where_t *w, int pi)
{
    static const int32_t shapes[][2] = {{0, 0}, {1, 2}, {5, 8}}; /* height, M; 0: the default */
    const prec_t *p = &PRECS[pi];
    create_fn create = pi ? d_create : s_create;
    cmrsmv_fn mv = pi ? d_cmrsmv : s_cmrsmv;
    update_fn update = pi ? d_update : s_update;
    size_t si;
    int32_t base;
    for (base = 0; base <= 1; base++) {
        csr_t a = make_csr(203, 150, base, 0);
        void *val = new_buffer(p, (size_t)a.nnz, 1, 0), *val2 = new_buffer(p, (size_t)a.nnz, 1, 0);
        for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            const int32_t hgt = shapes[si][0], lanes = shapes[si][1];
            numgpu_cmrs_matrix *A = NULL;
            int64_t height = -1, M = -1;
            double pad = -1;
            void *x = new_buffer(p, (size_t)a.n, 1, 0), *y0 = new_buffer(p, (size_t)a.m, 1, 0);
            void *y = xmalloc((size_t)a.m * p->size);
            stage_t st = stage_for(w);
            numgpu_status s = create(w->h, a.m, a.n, a.nnz, put(&st, val, (size_t)a.nnz * p->size),
                                     put(&st, a.rp, (size_t)(a.m + 1) * 4), put(&st, a.ci, (size_t)a.nnz * 4), base,
                                     hgt, lanes, &A);
            if (call_ok(s, back(&st), w->name, "cmrs_create"))
                check(A != NULL, "%s: %scmrs_create succeeded without a matrix", w->name, p->letter);
            if (A != NULL) {
                s = numgpu_cmrs_info(A, &height, &M, &pad);
                check(s == NUMGPU_SUCCESS && height == (hgt ? hgt : 16) &&
                          (lanes ? M == lanes : (M == 2 || M == 4 || M == 8)) && pad >= 0,
                      "%s: numgpu_cmrs_info: height %d, M %d, padding %g", w->name, (int)height, (int)M, pad);
                memcpy(y, y0, (size_t)a.m * p->size);
                s = mv(w->h, -1.5, A, put(&st, x, (size_t)a.n * p->size), 0.25, put(&st, y, (size_t)a.m * p->size));
                if (call_ok(s, back(&st), w->name, "cmrsmv"))
                    compare(p, "cmrsmv", w->name, NUMGPU_OP_N, &a, val, -1.5, x, 0.25, y0, y);
                s = update(w->h, A, put(&st, val2, (size_t)a.nnz * p->size));
                call_ok(s, back(&st), w->name, "cmrs_update_values");
                memcpy(y, y0, (size_t)a.m * p->size);
                s = mv(w->h, 1.0, A, put(&st, x, (size_t)a.n * p->size), 0.0, put(&st, y, (size_t)a.m * p->size));
                if (call_ok(s, back(&st), w->name, "cmrsmv (updated)"))
                    compare(p, "cmrsmv (updated)", w->name, NUMGPU_OP_N, &a, val2, 1.0, x, 0.0, y0, y);
                s = numgpu_cmrs_destroy(A);
                check(s == NUMGPU_SUCCESS, "numgpu_cmrs_destroy: status %d", (int)s);
            }
            free(x);
            free(y0);
            free(y);
        }
        free(val);
        free(val2);
        free(a.rp);
        free(a.ci);
    }
    check(numgpu_cmrs_destroy(NULL) == NUMGPU_SUCCESS, "numgpu_cmrs_destroy(NULL) is not a no-op");
}

/* Whether y still equals y0 (n doubles). */
static int untouched(const double *y, const double *y0, int n)
{
    return memcmp(y, y0, (size_t)n * sizeof *y) == 0;
}

static void error_checks(numgpu_handle *h, const char *hname)
{
    int32_t rp[5] = {0, 2, 3, 3, 5}, ci[5] = {0, 3, 1, 2, 2}, bad_rp[5] = {0, 3, 2, 3, 5}, bad_ci[5] = {0, 3, 4, 2, 2};
    double val[5] = {1, 2, 3, 4, 5}, x[4] = {1, 1, 1, 1}, y0[4] = {7, 7, 7, 7}, y[4];
    float fval[5] = {1, 2, 3, 4, 5};
    numgpu_cmrs_matrix *A = NULL, *S = NULL;
    numgpu_status s;
#define RESET memcpy(y, y0, sizeof y)
    RESET;
    s = numgpu_dcsrmv(NULL, NUMGPU_OP_N, 4, 4, 5, 1.0, val, rp, ci, 0, x, 1.0, y);
    expect_invalid(s, "numgpu_dcsrmv", 1, "h", untouched(y, y0, 4), hname, "NULL handle");
    s = numgpu_dcsrmv(h, 3, 4, 4, 5, 1.0, val, rp, ci, 0, x, 1.0, y);
    expect_invalid(s, "numgpu_dcsrmv", 2, "trans", untouched(y, y0, 4), hname, "trans 3");
    s = numgpu_dcsrmv(h, NUMGPU_OP_N, -1, 4, 5, 1.0, val, rp, ci, 0, x, 1.0, y);
    expect_invalid(s, "numgpu_dcsrmv", 3, "m = -1", untouched(y, y0, 4), hname, "m < 0");
    s = numgpu_dcsrmv(h, NUMGPU_OP_N, 4, 4, 5, 1.0, val, rp, ci, 2, x, 1.0, y);
    expect_invalid(s, "numgpu_dcsrmv", 10, "index_base", untouched(y, y0, 4), hname, "index_base 2");
    s = numgpu_dcsrmv(h, NUMGPU_OP_N, 4, 4, 5, 1.0, val, rp, bad_ci, 0, x, 1.0, y);
    expect_invalid(s, "numgpu_dcsrmv", 9, "col_ind[2]", untouched(y, y0, 4), hname, "column 4 of 4");
    s = numgpu_dcsrmv(h, NUMGPU_OP_T, 4, 4, 5, 1.0, val, bad_rp, ci, 0, x, 1.0, y);
    expect_invalid(s, "numgpu_dcsrmv", 8, "row 1", untouched(y, y0, 4), hname, "non-monotone row_ptr");
    s = numgpu_dcsrmv(h, NUMGPU_OP_N, 4, 4, 5, 1.0, val, rp, ci, 0, NULL, 1.0, y);
    expect_invalid(s, "numgpu_dcsrmv", 11, "x", untouched(y, y0, 4), hname, "NULL x");
    s = numgpu_dcmrs_create(h, 4, 4, 5, val, rp, ci, 0, 17, 0, &A);
    expect_invalid(s, "numgpu_dcmrs_create", 9, "height", A == NULL, hname, "height 17");
    s = numgpu_dcmrs_create(h, 4, 4, 5, val, rp, ci, 0, 0, 3, &A);
    expect_invalid(s, "numgpu_dcmrs_create", 10, "M = 3", A == NULL, hname, "M 3");
    s = numgpu_dcmrs_create(h, 4, 4, 5, val, rp, bad_ci, 0, 0, 0, &A);
    expect_invalid(s, "numgpu_dcmrs_create", 7, "col_ind[2]", A == NULL, hname, "bad column");
    s = numgpu_dcmrs_create(h, 4, 4, 5, val, rp, ci, 0, 0, 0, NULL);
    expect_invalid(s, "numgpu_dcmrs_create", 11, "A", 1, hname, "NULL A");
    s = numgpu_dcmrsmv(h, 1.0, NULL, x, 1.0, y);
    expect_invalid(s, "numgpu_dcmrsmv", 3, "A", untouched(y, y0, 4), hname, "NULL A");
    s = numgpu_cmrs_info(NULL, NULL, NULL, NULL);
    expect_invalid(s, "numgpu_cmrs_info", 1, "A", 1, hname, "NULL A");
    s = numgpu_scmrs_create(h, 4, 4, 5, fval, rp, ci, 0, 0, 0, &S);
    check(s == NUMGPU_SUCCESS, "%s handle: numgpu_scmrs_create: status %d (%s)", hname, (int)s, last_error());
    s = numgpu_dcmrsmv(h, 1.0, S, x, 1.0, y);
    expect_invalid(s, "numgpu_dcmrsmv", 3, "numgpu_scmrsmv", untouched(y, y0, 4), hname, "float matrix, double product");
    numgpu_cmrs_destroy(S);
    {
        numgpu_csr_plan *P = NULL;
        s = numgpu_csr_plan_create(h, NUMGPU_OP_N, 4, 4, 5, rp, ci, 0, 1, &P);
        expect_invalid(s, "numgpu_csr_plan_create", 9, "hints", P == NULL, hname, "hints 1");
        s = numgpu_csr_plan_create(h, NUMGPU_OP_T, 4, 4, 5, rp, bad_ci, 0, 0, &P);
        expect_invalid(s, "numgpu_csr_plan_create", 7, "col_ind[2]", P == NULL, hname, "plan of a bad column");
        s = numgpu_csr_plan_create(h, NUMGPU_OP_N, 4, 4, 5, rp, ci, 0, 0, NULL);
        expect_invalid(s, "numgpu_csr_plan_create", 10, "plan", 1, hname, "NULL plan output");
        s = numgpu_dcsrmv_plan(h, NULL, 1.0, val, x, 1.0, y);
        expect_invalid(s, "numgpu_dcsrmv_plan", 2, "plan", untouched(y, y0, 4), hname, "NULL plan");
    }
#undef RESET
}

static void drop_ins(const where_t *w)
{
    int pi;
    for (pi = 0; pi < 4; pi++)
        csrmv_cases(w, &PRECS[pi]);
    for (pi = 0; pi < 4; pi++)
        plan_cases(w, &PRECS[pi]);
    for (pi = 0; pi < 2; pi++)
        cmrs_cases(w, pi);
}

int main(void)
{
    return run_program("test_spmv", error_checks, drop_ins);
}
