/* numgpu_{s,d,c,z}expm_eig_batched and numgpu_{s,d,c,z}expm_batched as a user replacing a
 * LAPACK/CBLAS loop would call them: E·diag(exp(lambda t_i))·Einv for a shared generator and
 * many t_i, with Einv from LAPACKE_?gesv, against cblas_?gemm of the scaled columns
 * (ratio < 30 in units of m eps); exp of rotation generators (cos, sin) and diagonals in a
 * strided batch with padding, one NaN matrix (info 1, its neighbours exact); the argument
 * checks name their argument and write nothing. Host arrays and numgpu_malloc memory. */
#include "numgpu_test.h"
#include <lapacke.h>

enum { M = 5, NB = 7, N = 4, NX = 3, LD = N + 1, STRIDE = LD * N + 2 };

typedef numgpu_status (*eig_fn)(numgpu_handle *h, int64_t m, const void *E, int64_t lde, int64_t sE, const void *l,
                                int64_t sl, const void *Ei, int64_t ldei, int64_t sEi, const void *t, void *P,
                                int64_t ldp, int64_t sP, int64_t batch);
typedef numgpu_status (*expm_fn)(numgpu_handle *h, int64_t m, const void *A, int64_t lda, int64_t sA, void *E,
                                 int64_t lde, int64_t sE, int32_t *info, int64_t batch);
typedef int (*gesv_fn)(int n, void *A, void *B);

#define FNS(P, T, R, LT)                                                                                          \
    static numgpu_status P##_eig(numgpu_handle *h, int64_t m, const void *E, int64_t lde, int64_t sE,           \
                                 const void *l, int64_t sl, const void *Ei, int64_t ldei, int64_t sEi,          \
                                 const void *t, void *Pm, int64_t ldp, int64_t sP, int64_t batch)               \
    {                                                                                                           \
        return numgpu_##P##expm_eig_batched(h, m, (const T *)E, lde, sE, (const T *)l, sl, (const T *)Ei, ldei,  \
                                            sEi, (const R *)t, (T *)Pm, ldp, sP, batch);                        \
    }                                                                                                           \
    static numgpu_status P##_expm(numgpu_handle *h, int64_t m, const void *A, int64_t lda, int64_t sA, void *E, \
                                  int64_t lde, int64_t sE, int32_t *info, int64_t batch)                        \
    {                                                                                                           \
        return numgpu_##P##expm_batched(h, m, (const T *)A, lda, sA, (T *)E, lde, sE, info, batch);             \
    }                                                                                                           \
    static int P##_gesv(int n, void *A, void *B)                                                                \
    {                                                                                                           \
        lapack_int ipiv[M];                                                                                     \
        return (int)LAPACKE_##P##gesv(LAPACK_COL_MAJOR, n, n, (LT *)A, n, ipiv, (LT *)B, n);                  \
    }
FNS(s, float, float, float)
FNS(d, double, double, double)
FNS(c, numgpu_complex_float, float, lapack_complex_float)
FNS(z, numgpu_complex_double, double, lapack_complex_double)

static const eig_fn EIG[4] = {s_eig, d_eig, c_eig, z_eig};
static const expm_fn EXPM[4] = {s_expm, d_expm, c_expm, z_expm};
static const gesv_fn GESV[4] = {s_gesv, d_gesv, c_gesv, z_gesv};

/* E = I + 0.3 R, Einv by LAPACKE_?gesv, lambda in [-2, 0] (+ i [-1, 1] for complex), t_i = 0.3 i:
 * the numgpu call against cblas_?gemm of E·diag(exp(lambda t_i)) with Einv. */
static void run_eig(const where_t *w, int pi)
{
    const prec_t *p = &PRECS[pi];
    size_t es = p->size, i, k, r;
    void *E = xmalloc(M * M * es), *Ei = xmalloc(M * M * es), *lam = xmalloc(M * es), *t = xmalloc(NB * p->rsize);
    void *P = xmalloc(NB * M * M * es), *F = xmalloc(M * M * es), *ref = xmalloc(M * M * es);
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    char what[64];
    for (k = 0; k < M * M; k++) {
        cset(p, E, k, 0.3 * rnd_elem() + (k % (M + 1) == 0 ? 1.0 : 0.0));
        cset(p, Ei, k, k % (M + 1) == 0 ? 1.0 : 0.0);
    }
    memcpy(F, E, M * M * es);
    check(GESV[pi](M, F, Ei) == 0, "LAPACKE_%sgesv failed", p->letter);
    for (k = 0; k < M; k++)
        cset(p, lam, k, -1.0 + rnd() + (p->cplx ? rnd() * I : 0.0));
    for (i = 0; i < NB; i++)
        rset(p, t, i, 0.3 * (double)i);
    memset(P, 0xff, NB * M * M * es);
    snprintf(what, sizeof what, "numgpu_%sexpm_eig_batched", p->letter);
    s = EIG[pi](w->h, M, put(&st, E, M * M * es), M, 0, put(&st, lam, M * es), 0, put(&st, Ei, M * M * es), M, 0,
                put(&st, t, NB * p->rsize), put(&st, P, NB * M * M * es), M, M * M, NB);
    fail = back(&st);
    if (call_ok(s, fail, w->name, what))
        for (i = 0; i < NB; i++) {
            double ratio;
            for (k = 0; k < M; k++) {
                dcx d = cexp(cget(p, lam, k) * rget(p, t, i));
                for (r = 0; r < M; r++)
                    cset(p, F, r + k * M, cget(p, E, r + k * M) * d);
            }
            p->gemm(NUMGPU_OP_N, NUMGPU_OP_N, M, M, M, 1.0, F, M, Ei, M, 0.0, ref, M);
            ratio = diff_ratio(p, eptr(p, P, i * M * M), M, ref, M, M, M, M);
            check(ratio < TOL, "%s: %s problem %lu: ratio %.3g >= %g", w->name, what, (unsigned long)i, ratio, TOL);
        }
    free(E);
    free(Ei);
    free(lam);
    free(t);
    free(P);
    free(F);
    free(ref);
}

/* A batch of NX: a rotation generator (two 2 x 2 blocks, exp = cos/sin), a NaN matrix and a
 * diagonal, with padding rows and gaps that must stay untouched. */
static void run_expm(const where_t *w, int pi)
{
    const prec_t *p = &PRECS[pi];
    size_t es = p->size, k, i;
    void *A = new_matrices(p, NX, LD, STRIDE, N, N, 0, 0.0, CNAN), *E = new_matrices(p, NX, LD, STRIDE, N, N, 0, CNAN, CNAN);
    void *E0 = xdup(E, NX * STRIDE * es), *want = new_matrices(p, NX, LD, STRIDE, N, N, 0, 0.0, CNAN);
    int32_t info[NX] = {-7, -7, -7};
    double th[2] = {0.7, 2.5}, dg[N] = {-1.5, 0.25, 2.0, -0.5};
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    char what[64];
    for (k = 0; k < 2; k++) {
        size_t a = 2 * k, b = 2 * k + 1;
        cset(p, A, b + a * LD, th[k]);
        cset(p, A, a + b * LD, -th[k]);
        cset(p, want, a + a * LD, cos(th[k]));
        cset(p, want, b + b * LD, cos(th[k]));
        cset(p, want, b + a * LD, sin(th[k]));
        cset(p, want, a + b * LD, -sin(th[k]));
    }
    cset(p, A, STRIDE + 5, NAN);
    for (k = 0; k < N; k++) {
        cset(p, A, 2 * STRIDE + k * (LD + 1), dg[k]);
        cset(p, want, 2 * STRIDE + k * (LD + 1), exp(dg[k]));
    }
    snprintf(what, sizeof what, "numgpu_%sexpm_batched", p->letter);
    s = EXPM[pi](w->h, N, put(&st, A, NX * STRIDE * es), LD, STRIDE, put(&st, E, NX * STRIDE * es), LD, STRIDE,
                 put(&st, info, sizeof info), NX);
    fail = back(&st);
    if (call_ok(s, fail, w->name, what)) {
        check(info[0] == 0 && info[1] == 1 && info[2] == 0, "%s: %s: info %d %d %d, want 0 1 0", w->name, what,
              (int)info[0], (int)info[1], (int)info[2]);
        for (i = 0; i < NX; i += 2) {
            double ratio = diff_ratio(p, eptr(p, E, i * STRIDE), LD, eptr(p, want, i * STRIDE), LD, N, N, 4.0 * N);
            check(ratio < TOL, "%s: %s matrix %lu: ratio %.3g >= %g", w->name, what, (unsigned long)i, ratio, TOL);
        }
        check(creal(cget(p, E, STRIDE)) != creal(cget(p, E, STRIDE)), "%s: %s: the NaN matrix's E is not NaN", w->name,
              what);
        check(outside_same(E, E0, es, NX * STRIDE, LD, STRIDE, N, N), "%s: %s wrote outside its matrices", w->name,
              what);
    }
    free(A);
    free(E);
    free(E0);
    free(want);
}

static void drop_ins(const where_t *w)
{
    int pi;
    for (pi = 0; pi < 4; pi++) {
        run_eig(w, pi);
        run_expm(w, pi);
    }
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    double E[8] = {1, 0, 0, 1, 1, 0, 0, 1}, l[4] = {0, -1, 0, -1}, t[2] = {0, 1}, P[8], A[8] = {0};
    int32_t info[2] = {-7, -7};
    const char *f = "numgpu_dexpm_eig_batched", *g = "numgpu_dexpm_batched";
    memset(P, 0x5a, sizeof P);
#define UNTOUCHED (P[0] == P[7] && info[0] == -7 && info[1] == -7)
    expect_invalid(numgpu_dexpm_eig_batched(h, -1, E, 2, 4, l, 2, E, 2, 4, t, P, 2, 4, 2), f, 2, "m", UNTOUCHED,
                   hname, "m < 0");
    expect_invalid(numgpu_dexpm_eig_batched(h, 2, E, 1, 4, l, 2, E, 2, 4, t, P, 2, 4, 2), f, 4, "lde", UNTOUCHED,
                   hname, "lde < m");
    expect_invalid(numgpu_dexpm_eig_batched(h, 2, E, 2, 4, l, 1, E, 2, 4, t, P, 2, 4, 2), f, 7, "strideL", UNTOUCHED,
                   hname, "strideL < m");
    expect_invalid(numgpu_dexpm_eig_batched(h, 2, E, 2, 4, l, 2, E, 2, 4, NULL, P, 2, 4, 2), f, 11, "t", UNTOUCHED,
                   hname, "NULL t");
    expect_invalid(numgpu_dexpm_eig_batched(h, 2, E, 2, 4, l, 2, E, 2, 4, t, P, 2, 0, 2), f, 14, "strideP",
                   UNTOUCHED, hname, "strideP 0 for an output");
    expect_invalid(numgpu_dexpm_batched(h, 2, A, 2, 4, P, 2, 4, NULL, 2), g, 9, "info", UNTOUCHED, hname,
                   "NULL info");
    expect_invalid(numgpu_dexpm_batched(h, 2, A, 2, 4, A, 2, 4, info, 2), g, 6, "E", UNTOUCHED, hname, "E is A");
    expect_invalid(numgpu_dexpm_batched(h, 2, A, 2, 4, P, 2, 4, info, -1), g, 10, "batch", UNTOUCHED, hname,
                   "batch < 0");
#undef UNTOUCHED
}

int main(void)
{
    return run_program("test_expm", argument_checks, drop_ins);
}
