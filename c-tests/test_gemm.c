/* test_gemm: numgpu's batched GEMM as a drop-in for a loop of cblas_?gemm calls.
 *
 * For s, d, c, z, both forms (pointer arrays, strided), all nine op pairs (N, T, C), sizes
 * around the kernels' size classes (1, 3, 4, 8, 17, 32, 33, 64 and rectangular m != n != k,
 * k = 0), alpha/beta including 0 and complex values, and batches of 3 and 37, every product
 * is compared with cblas_?gemm of the same precision:
 *
 *     ||C_i - Cref_i||_F / (eps (k |alpha| ||A_i||_F ||B_i||_F + |beta| ||C0_i||_F) + tiny) <= 10
 *
 * (both results carry rounding errors of that size; the bound scales with the problem).
 * Besides the numbers it checks what a BLAS user relies on: beta = 0 does not read C (C is
 * NaN before those calls), padding rows of every leading dimension and the gaps between the
 * matrices stay bitwise unchanged in C and are never read in A and B (they hold NaN), the
 * inputs are not modified, stride 0 (and one repeated pointer) shares A or B over the batch,
 * alpha = 0 or k = 0 accept NULL A and B, and batch, m or n = 0 touches nothing. Pointer
 * arrays point at the matrices in reverse order.
 *
 * Every case runs on the handle numgpu_create picks (AUTO: CUDA on a GPU host) and on an
 * explicit CPU handle, once with host arrays and once with memory from numgpu_malloc (device
 * memory on CUDA, where the call is asynchronous: numgpu_synchronize, then copy back).
 * NUMGPU_REQUIRE_CUDA=1 makes an AUTO handle that is not CUDA a failure.
 *
 * Prints "test_gemm: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include "numgpu_test.h"

#define TOL 10.0

enum form { FORM_ARRAY, FORM_STRIDED };
enum space { SPACE_HOST, SPACE_MALLOC };

typedef struct {
    const prec_t *p;
    enum form form;
    enum space space;
    int32_t ta, tb;
    int64_t m, n, k;
    double alpha[2], beta[2];
    int64_t pad;      /* extra rows in every leading dimension, extra elements between matrices */
    int64_t batch;
    int share_a;      /* one A for the whole batch: strideA = 0, or the same pointer repeated */
    int share_b;
    int null_ab;      /* pass NULL for A and B (only when they are not read) */
} gemm_case;

static const char OPC[3] = {'N', 'T', 'C'};

static void describe(const gemm_case *c, const char *handle, char *out, size_t len)
{
    snprintf(out, len,
             "%s handle, %s arrays: numgpu_%sgemm_batched%s op=(%c,%c) m=%lld n=%lld k=%lld "
             "alpha=(%g,%g) beta=(%g,%g) batch=%lld pad=%lld shareA=%d shareB=%d nullAB=%d seed=%#llx",
             handle, c->space == SPACE_HOST ? "host" : "numgpu_malloc", c->p->letter,
             c->form == FORM_STRIDED ? "_strided" : "", OPC[c->ta], OPC[c->tb], (long long)c->m,
             (long long)c->n, (long long)c->k, c->alpha[0], c->alpha[1], c->beta[0], c->beta[1],
             (long long)c->batch, (long long)c->pad, c->share_a, c->share_b, c->null_ab,
             (unsigned long long)TEST_SEED);
}

static int is_zero(const double *x)
{
    return x[0] == 0.0 && x[1] == 0.0;
}

/* Frobenius norm of x - y (of x when y is NULL) over the rows x cols matrix at element `off`
 * of the buffers, leading dimension ld. */
static double fro(const prec_t *p, const void *x, const void *y, size_t off, size_t ld, size_t rows,
                  size_t cols)
{
    double s = 0.0;
    size_t i, j;
    int q;
    for (j = 0; j < cols; j++)
        for (i = 0; i < rows; i++)
            for (q = 0; q <= p->cplx; q++) {
                size_t e = off + j * ld + i;
                double v = elem(p, x, e, q) - (y ? elem(p, y, e, q) : 0.0);
                s += v * v;
            }
    return sqrt(s);
}

/* Fills a buffer of `nmat` matrices (ld x cols, `stride` apart, `len` elements in all): `fill`
 * inside the rows x cols region of each, `outside` everywhere else. */
static void fill_matrices(const prec_t *p, void *buf, size_t len, size_t nmat, size_t stride, size_t ld,
                          size_t rows, size_t cols, int random_inside, double inside, double outside)
{
    size_t e, s, i, j;
    for (e = 0; e < len; e++)
        set_value(p, buf, e, outside, outside);
    for (s = 0; s < nmat; s++)
        for (j = 0; j < cols; j++)
            for (i = 0; i < rows; i++) {
                size_t at = s * stride + j * ld + i;
                if (random_inside) {
                    double re = rnd();
                    set_value(p, buf, at, re, rnd());
                } else {
                    set_value(p, buf, at, inside, inside);
                }
            }
}

static size_t max1(int64_t x)
{
    return x > 1 ? (size_t)x : 1;
}

/* Runs one case on handle h and counts one check. */
static void run_case(numgpu_handle *h, const char *hname, const gemm_case *c)
{
    const prec_t *p = c->p;
    const size_t m = (size_t)c->m, n = (size_t)c->n, k = (size_t)c->k, nb = (size_t)c->batch;
    const size_t pad = (size_t)c->pad;
    const size_t ar = c->ta == NUMGPU_OP_N ? m : k, ac = c->ta == NUMGPU_OP_N ? k : m;
    const size_t br = c->tb == NUMGPU_OP_N ? k : n, bc = c->tb == NUMGPU_OP_N ? n : k;
    const size_t lda = max1((int64_t)ar) + pad, ldb = max1((int64_t)br) + pad, ldc = max1(c->m) + pad;
    const size_t sa = lda * ac + pad, sb = ldb * bc + pad, sc = ldc * n + pad;
    const size_t na = c->share_a ? 1 : nb, nbm = c->share_b ? 1 : nb;
    const size_t lena = na ? (na - 1) * sa + lda * ac : 0, lenb = nbm ? (nbm - 1) * sb + ldb * bc : 0;
    const size_t lenc = nb ? (nb - 1) * sc + ldc * n : 0;
    const int beta0 = is_zero(c->beta);
    void *A = xmalloc(lena * p->size), *B = xmalloc(lenb * p->size), *C = xmalloc(lenc * p->size);
    void *A0 = xmalloc(lena * p->size), *B0 = xmalloc(lenb * p->size);
    void *C0 = xmalloc(lenc * p->size), *Cref = xmalloc(lenc * p->size);
    void **Ap = xmalloc(nb * sizeof *Ap), **Bp = xmalloc(nb * sizeof *Bp), **Cp = xmalloc(nb * sizeof *Cp);
    void *dA = A, *dB = B, *dC = C; /* the arrays handed to numgpu */
    char *inside = xmalloc(lenc);
    char what[512];
    const char *fail = NULL;
    char detail[256] = "";
    numgpu_status st;
    size_t i, e;

    /* NaN in A and B outside the matrices (never read); C: sentinel outside, NaN inside when
     * beta = 0 (never read either). */
    fill_matrices(p, A, lena, na, sa, lda, ar, ac, 1, 0.0, NAN);
    fill_matrices(p, B, lenb, nbm, sb, ldb, br, bc, 1, 0.0, NAN);
    fill_matrices(p, C, lenc, nb, sc, ldc, m, n, !beta0, NAN, 777.0);
    memcpy(A0, A, lena * p->size);
    memcpy(B0, B, lenb * p->size);
    memcpy(C0, C, lenc * p->size);
    memcpy(Cref, C, lenc * p->size);
    memset(inside, 0, lenc);

    /* Reference: product i reads A slot ia(i), B slot ib(i), writes C slot ic(i). The pointer
     * form points at the matrices in reverse order; the strided form uses slot i. */
    for (i = 0; i < nb; i++) {
        size_t ia = c->share_a ? 0 : c->form == FORM_ARRAY ? nb - 1 - i : i;
        size_t ib = c->share_b ? 0 : i;
        size_t ic = c->form == FORM_ARRAY ? nb - 1 - i : i;
        size_t r, col;
        for (col = 0; col < n; col++)
            for (r = 0; r < m; r++) {
                inside[ic * sc + col * ldc + r] = 1;
                if (beta0)
                    set_value(p, Cref, ic * sc + col * ldc + r, 0.0, 0.0);
            }
        if (m > 0 && n > 0)
            p->ref(c->ta, c->tb, (int)m, (int)n, (int)k, c->alpha, elem_ptr(p, A, ia * sa), (int)lda,
                   elem_ptr(p, B, ib * sb), (int)ldb, c->beta, elem_ptr(p, Cref, ic * sc), (int)ldc);
    }

    if (c->space == SPACE_MALLOC) {
        dA = stage_in(h, A, lena * p->size);
        dB = stage_in(h, B, lenb * p->size);
        dC = stage_in(h, C, lenc * p->size);
    }
    for (i = 0; i < nb; i++) {
        Ap[i] = elem_ptr(p, dA, (c->share_a ? 0 : nb - 1 - i) * sa);
        Bp[i] = elem_ptr(p, dB, (c->share_b ? 0 : i) * sb);
        Cp[i] = elem_ptr(p, dC, (nb - 1 - i) * sc);
    }
    if (c->form == FORM_ARRAY)
        st = p->batched(h, c->ta, c->tb, c->m, c->n, c->k, c->alpha, c->null_ab ? NULL : Ap, (int64_t)lda,
                        c->null_ab ? NULL : Bp, (int64_t)ldb, c->beta, Cp, (int64_t)ldc, c->batch,
                        c->space == SPACE_MALLOC ? h : NULL);
    else
        st = p->strided(h, c->ta, c->tb, c->m, c->n, c->k, c->alpha, c->null_ab ? NULL : dA, (int64_t)lda,
                        c->share_a ? 0 : (int64_t)sa, c->null_ab ? NULL : dB, (int64_t)ldb,
                        c->share_b ? 0 : (int64_t)sb, c->beta, dC, (int64_t)ldc, (int64_t)sc, c->batch);
    if (st != NUMGPU_SUCCESS) {
        fail = "call failed";
        snprintf(detail, sizeof detail, "status %d: %.200s", (int)st, last_error());
    }
    if (c->space == SPACE_MALLOC) {
        numgpu_status sy = numgpu_synchronize(h);
        if (!fail && sy != NUMGPU_SUCCESS) {
            fail = "numgpu_synchronize failed";
            snprintf(detail, sizeof detail, "status %d: %.200s", (int)sy, last_error());
        }
        if (lenc && numgpu_memcpy(h, C, dC, lenc * p->size) != NUMGPU_SUCCESS && !fail) {
            fail = "copy back failed";
            snprintf(detail, sizeof detail, "%.200s", last_error());
        }
        if (lena && numgpu_memcpy(h, A, dA, lena * p->size) != NUMGPU_SUCCESS && !fail)
            fail = "copy back of A failed";
        if (lenb && numgpu_memcpy(h, B, dB, lenb * p->size) != NUMGPU_SUCCESS && !fail)
            fail = "copy back of B failed";
        numgpu_free(h, dA);
        numgpu_free(h, dB);
        numgpu_free(h, dC);
    }

    for (i = 0; !fail && i < nb; i++) {
        size_t ia = c->share_a ? 0 : c->form == FORM_ARRAY ? nb - 1 - i : i;
        size_t ib = c->share_b ? 0 : i;
        size_t ic = c->form == FORM_ARRAY ? nb - 1 - i : i;
        double na_ = fro(p, A, NULL, ia * sa, lda, ar, ac), nb_ = fro(p, B, NULL, ib * sb, ldb, br, bc);
        double nc_ = beta0 ? 0.0 : fro(p, C0, NULL, ic * sc, ldc, m, n);
        double aa = hypot(c->alpha[0], p->cplx ? c->alpha[1] : 0.0);
        double bb = hypot(c->beta[0], p->cplx ? c->beta[1] : 0.0);
        double err = fro(p, C, Cref, ic * sc, ldc, m, n);
        double scale = p->eps * ((double)k * aa * na_ * nb_ + bb * nc_) + p->tiny;
        double ratio = err / scale;
        if (!(ratio <= TOL)) {
            fail = "wrong result";
            snprintf(detail, sizeof detail,
                     "product %lu: ||C - Cref||_F = %.3e, ratio %.3g > %g (scale %.3e)", (unsigned long)i,
                     err, ratio, TOL, scale);
        }
    }
    for (e = 0; !fail && e < lenc; e++)
        if (!inside[e] && memcmp(elem_ptr(p, C, e), elem_ptr(p, C0, e), p->size) != 0) {
            fail = "C modified outside its matrices (padding or gap)";
            snprintf(detail, sizeof detail, "element %lu of the C buffer: %g", (unsigned long)e,
                     elem(p, C, e, 0));
        }
    if (!fail && (memcmp(A, A0, lena * p->size) != 0 || memcmp(B, B0, lenb * p->size) != 0))
        fail = "A or B modified";

    describe(c, hname, what, sizeof what);
    check(fail == NULL, "%s: %s %s", what, fail ? fail : "", detail);

    free(A);
    free(B);
    free(C);
    free(A0);
    free(B0);
    free(C0);
    free(Cref);
    free(Ap);
    free(Bp);
    free(Cp);
    free(inside);
}

/* m, n or batch = 0: success, and a poisoned C is not touched (also with NULL arrays). */
static void check_empty(numgpu_handle *h, const char *hname, const prec_t *p)
{
    static const int64_t shapes[][4] = {{4, 5, 3, 0}, {0, 5, 3, 2}, {4, 0, 3, 2}, {0, 0, 0, 2}};
    const double one[2] = {1.0, 0.0};
    size_t s, len = 64;
    void *A = xmalloc(len * p->size), *B = xmalloc(len * p->size);
    void *C = xmalloc(len * p->size), *C0 = xmalloc(len * p->size);
    void *Ap[2], *Bp[2], *Cp[2];
    int f;
    memset(C, 0xA5, len * p->size);
    memcpy(C0, C, len * p->size);
    fill_matrices(p, A, len, 1, len, len, len, 1, 1, 0.0, 0.0);
    fill_matrices(p, B, len, 1, len, len, len, 1, 1, 0.0, 0.0);
    Ap[0] = A, Ap[1] = elem_ptr(p, A, 20);
    Bp[0] = B, Bp[1] = elem_ptr(p, B, 20);
    Cp[0] = C, Cp[1] = elem_ptr(p, C, 20);
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (f = 0; f < 4; f++) {
            int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2], nb = shapes[s][3];
            int nulls = f >= 2;
            numgpu_status st;
            if (f % 2 == 0)
                st = p->batched(h, NUMGPU_OP_N, NUMGPU_OP_N, m, n, k, one, nulls ? NULL : Ap, 4,
                                nulls ? NULL : Bp, 3, one, nulls ? NULL : Cp, 4, nb, NULL);
            else
                st = p->strided(h, NUMGPU_OP_N, NUMGPU_OP_N, m, n, k, one, nulls ? NULL : A, 4, 20,
                                nulls ? NULL : B, 3, 20, one, nulls ? NULL : C, 4, 20, nb);
            check(st == NUMGPU_SUCCESS && memcmp(C, C0, len * p->size) == 0,
                  "%s handle: numgpu_%sgemm_batched%s with m=%lld n=%lld batch=%lld%s: status %d (%s), "
                  "C %s",
                  hname, p->letter, f % 2 ? "_strided" : "", (long long)m, (long long)n, (long long)nb,
                  nulls ? " and NULL arrays" : "", (int)st, last_error(),
                  memcmp(C, C0, len * p->size) == 0 ? "untouched" : "MODIFIED");
        }
    free(A);
    free(B);
    free(C);
    free(C0);
}

/* alpha, beta (re, im); real precisions use the real parts. */
static const double SCALARS[][4] = {
    {1.0, 0.0, 0.0, 0.0},     /* C = op(A) op(B); C holds NaN before the call */
    {-1.0, 0.0, 1.0, 0.0},
    {0.5, -1.5, 0.25, 2.0},
    {0.0, 0.0, -2.0, 0.5},    /* alpha = 0: C = beta C */
    {2.0, 1.0, 0.0, 0.0},     /* beta = 0 again, complex alpha */
    {0.0, 0.0, 0.0, 0.0},     /* C = 0 exactly, NaN in C must not survive */
    {1.0, 0.0, 1.0, 0.0},
};
#define NSCALARS (sizeof SCALARS / sizeof SCALARS[0])

static const int64_t SHAPES[][3] = {
    {1, 1, 1},   {3, 3, 3},   {4, 4, 4},  {8, 8, 8},  {17, 17, 17}, {32, 32, 32}, {33, 33, 33},
    {64, 64, 64}, {5, 7, 3},  {17, 4, 33}, {33, 1, 64}, {1, 40, 2},  {9, 13, 31},  {4, 5, 0},
};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

static void set_scalars(gemm_case *c, const double *s)
{
    c->alpha[0] = s[0], c->alpha[1] = s[1], c->beta[0] = s[2], c->beta[1] = s[3];
}

static void run_all(numgpu_handle *h, const char *hname)
{
    static unsigned counter;
    int sp, pi, fo, ta, tb;
    size_t s;
    for (sp = SPACE_HOST; sp <= SPACE_MALLOC; sp++)
        for (pi = 0; pi < 4; pi++) {
            const prec_t *p = &PRECS[pi];
            check_empty(h, hname, p);
            for (fo = FORM_ARRAY; fo <= FORM_STRIDED; fo++) {
                gemm_case c;
                memset(&c, 0, sizeof c);
                c.p = p, c.form = (enum form)fo, c.space = (enum space)sp;

                /* The sweep: every op pair and shape; scalars and padding rotate. */
                for (ta = 0; ta < 3; ta++)
                    for (tb = 0; tb < 3; tb++)
                        for (s = 0; s < NSHAPES; s++) {
                            c.ta = ta, c.tb = tb;
                            c.m = SHAPES[s][0], c.n = SHAPES[s][1], c.k = SHAPES[s][2];
                            set_scalars(&c, SCALARS[counter % NSCALARS]);
                            c.pad = counter % 3 == 0 ? 2 : 0;
                            c.batch = 3;
                            counter++;
                            run_case(h, hname, &c);
                        }

                /* A batch of 37 (a multiple of no block size), m != n != k, complex scalars. */
                c.m = 9, c.n = 13, c.k = 17, c.batch = 37, c.pad = 1;
                set_scalars(&c, SCALARS[2]);
                c.ta = NUMGPU_OP_N, c.tb = NUMGPU_OP_N;
                run_case(h, hname, &c);
                c.ta = NUMGPU_OP_T, c.tb = NUMGPU_OP_C;
                run_case(h, hname, &c);
                /* Stride 0 for A; then for A and B (the same matrices for the whole batch). */
                c.ta = NUMGPU_OP_N, c.tb = NUMGPU_OP_T, c.share_a = 1;
                run_case(h, hname, &c);
                c.ta = NUMGPU_OP_C, c.tb = NUMGPU_OP_N, c.share_b = 1, c.m = 33, c.n = 32, c.k = 5;
                run_case(h, hname, &c);
                c.share_a = c.share_b = 0;
                /* alpha = 0 and k = 0 do not read A or B: NULL is accepted. */
                c.m = 7, c.n = 6, c.k = 5, c.batch = 4, c.null_ab = 1;
                set_scalars(&c, SCALARS[3]);
                run_case(h, hname, &c);
                c.k = 0;
                set_scalars(&c, SCALARS[4]);
                run_case(h, hname, &c);
                c.null_ab = 0;
            }
        }
}

int main(void)
{
    numgpu_handle *autoh = NULL, *cpuh = NULL;
    int32_t be = -1;
    numgpu_status st;

    st = numgpu_create(&autoh);
    check(st == NUMGPU_SUCCESS, "numgpu_create: status %d (%s)", (int)st, last_error());
    st = numgpu_create_with(&cpuh, NUMGPU_BACKEND_CPU, 0);
    check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): status %d (%s)", (int)st, last_error());
    if (autoh == NULL || cpuh == NULL)
        return finish("test_gemm");

    numgpu_get_backend(autoh, &be);
    printf("test_gemm: numgpu %s, AUTO handle runs on %s\n", numgpu_version(), backend_name(be));
    if (env_is_1("NUMGPU_REQUIRE_CUDA"))
        check(be == NUMGPU_BACKEND_CUDA, "NUMGPU_REQUIRE_CUDA=1 but the AUTO handle runs on %s",
              backend_name(be));
    if (be != NUMGPU_BACKEND_CUDA)
        printf("test_gemm: no CUDA here, so the numgpu_malloc cases ran on host memory "
               "(device pointers are exercised on a GPU host)\n");

    run_all(autoh, be == NUMGPU_BACKEND_CUDA ? "AUTO(CUDA)" : "AUTO(CPU)");
    run_all(cpuh, "CPU");

    st = numgpu_destroy(autoh);
    check(st == NUMGPU_SUCCESS, "numgpu_destroy(AUTO): status %d (%s)", (int)st, last_error());
    st = numgpu_destroy(cpuh);
    check(st == NUMGPU_SUCCESS, "numgpu_destroy(CPU): status %d (%s)", (int)st, last_error());
    return finish("test_gemm");
}
