/* numgpu_{s,d}khatri_rao and numgpu_{s,d}mttkrp from C: the Khatri-Rao product entry by entry
 * (one rounded product each, so the same bits as the product written here); MTTKRP of a
 * 5 x 6 x 7 and a 3 x 4 x 2 x 5 tensor in every mode against what a CBLAS user writes
 * instead: the explicit mode unfolding, the Khatri-Rao product of the other factors in reverse
 * mode order, and cblas_?gemm, within 2 (k + d) eps |X_(n)| |K| (both sides round); factors
 * and M with padded leading dimensions whose padding must stay NaN. The factor pointer array,
 * dims and ldu are host arrays; the factors, X and M host arrays or numgpu_malloc memory. The
 * argument checks name their argument and write nothing. */
#include "numgpu_test.h"

enum { R = 4, MAXD = 4 };

typedef struct {
    const prec_t *p;
    numgpu_status (*kr)(numgpu_handle *h, int64_t m, int64_t n, int64_t r, const void *A, int64_t lda, const void *B,
                        int64_t ldb, void *C, int64_t ldc);
    numgpu_status (*mttkrp)(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X, int32_t mode,
                            int64_t rank, const void *const *U, const int64_t *ldu, void *M, int64_t ldm);
} ten_t;

#define TEN_FNS(P, T)                                                                                                \
    static numgpu_status P##_kr(numgpu_handle *h, int64_t m, int64_t n, int64_t r, const void *A, int64_t lda,      \
                                const void *B, int64_t ldb, void *C, int64_t ldc)                                   \
    {                                                                                                                \
        return numgpu_##P##khatri_rao(h, m, n, r, (const T *)A, lda, (const T *)B, ldb, (T *)C, ldc);                \
    }                                                                                                                \
    static numgpu_status P##_mttkrp(numgpu_handle *h, int32_t ndim, const int64_t *dims, const void *X,             \
                                    int32_t mode, int64_t rank, const void *const *U, const int64_t *ldu, void *M,   \
                                    int64_t ldm)                                                                     \
    {                                                                                                                \
        return numgpu_##P##mttkrp(h, ndim, dims, (const T *)X, mode, rank, (const T *const *)U, ldu, (T *)M, ldm);   \
    }
TEN_FNS(s, float)
TEN_FNS(d, double)

static const ten_t TENS[2] = {{&PRECS[0], s_kr, s_mttkrp}, {&PRECS[1], d_kr, d_mttkrp}};

static void run_khatri_rao(const where_t *w, const ten_t *t)
{
    const prec_t *p = t->p;
    enum { M = 5, N = 3 };
    size_t es = p->size, i, j, k, ldc = M * N + 1;
    void *A = new_matrices(p, 1, M + 1, (M + 1) * R, M, R, 1, 0, CNAN), *B = new_matrices(p, 1, N, N * R, N, R, 1, 0, CNAN);
    void *C = new_buffer(p, ldc * R, 0, CNAN);
    stage_t st = stage_for(w);
    numgpu_status s = t->kr(w->h, M, N, R, put(&st, A, (M + 1) * R * es), M + 1, put(&st, B, N * R * es), N,
                            put(&st, C, ldc * R * es), (int64_t)ldc);
    const char *fail = back(&st);
    int ok = 1;
    if (call_ok(s, fail, w->name, p->letter[0] == 's' ? "numgpu_skhatri_rao" : "numgpu_dkhatri_rao")) {
        for (k = 0; k < R; k++) {
            for (i = 0; i < M; i++)
                for (j = 0; j < N; j++) {
                    double want = rget(p, A, i + k * (M + 1)) * rget(p, B, j + k * N);
                    ok = ok && rget(p, C, j + i * N + k * ldc) == (p->dbl ? want : (double)(float)want);
                }
            ok = ok && isnan(rget(p, C, M * N + k * ldc));
        }
        check(ok, "%s: numgpu_%skhatri_rao: not the rounded products, or padding written", w->name, p->letter);
    }
    free(A);
    free(B);
    free(C);
}

/* The explicit mode-`mode` unfolding of X (dims[0..nd)) into Xn (dims[mode] x others). */
static void unfold(const prec_t *p, int nd, const int64_t *dims, const void *X, int mode, void *Xn)
{
    size_t numel = 1, e;
    int k;
    for (k = 0; k < nd; k++)
        numel *= (size_t)dims[k];
    for (e = 0; e < numel; e++) {
        size_t rest = e, col = 0, stride = 1, i = 0;
        for (k = 0; k < nd; k++) {
            size_t ik = rest % (size_t)dims[k];
            rest /= (size_t)dims[k];
            if (k == mode)
                i = ik;
            else {
                col += ik * stride;
                stride *= (size_t)dims[k];
            }
        }
        rset(p, Xn, i + col * (size_t)dims[mode], rget(p, X, e));
    }
}

/* K(j, r) = prod over k != mode of U_k(i_k, r), j = i_0 + dims[0] (i_1 + ...) over k != mode:
 * U_{d-1} (.) ... (.) U_0 without U_mode. `abs`: of |U_k|, in double. */
static double kr_entry(const prec_t *p, int nd, const int64_t *dims, void *const *U, const int64_t *ldu, int mode, size_t j,
                       int r, int abs)
{
    double v = 1;
    int k;
    for (k = 0; k < nd; k++) {
        size_t ik;
        if (k == mode)
            continue;
        ik = j % (size_t)dims[k];
        j /= (size_t)dims[k];
        v *= abs ? fabs(rget(p, U[k], ik + r * (size_t)ldu[k])) : rget(p, U[k], ik + r * (size_t)ldu[k]);
    }
    return v;
}

static void run_mttkrp(const where_t *w, const ten_t *t, int nd, const int64_t *dims)
{
    const prec_t *p = t->p;
    size_t es = p->size, numel = 1, others, e;
    int64_t ldu[MAXD];
    void *U[MAXD], *Ud[MAXD], *X, *Xn, *K, *ref, *M;
    int k, mode, r;
    for (k = 0; k < nd; k++) {
        numel *= (size_t)dims[k];
        ldu[k] = dims[k] + 1;
        U[k] = new_matrices(p, 1, (size_t)ldu[k], (size_t)ldu[k] * R, (size_t)dims[k], R, 1, 0, CNAN);
    }
    X = new_buffer(p, numel, 1, 0);
    Xn = xmalloc(numel * es);
    for (mode = 0; mode < nd; mode++) {
        size_t rows = (size_t)dims[mode], ldm = rows + 2;
        stage_t st = stage_for(w);
        numgpu_status s;
        const char *fail;
        int ok = 1;
        others = numel / rows;
        K = xmalloc(others * R * es);
        ref = xmalloc(rows * R * es);
        M = new_buffer(p, ldm * R, 0, CNAN);
        unfold(p, nd, dims, X, mode, Xn);
        for (r = 0; r < R; r++)
            for (e = 0; e < others; e++)
                rset(p, K, e + r * others, kr_entry(p, nd, dims, U, ldu, mode, e, r, 0));
        p->gemm(0, 0, (int)rows, R, (int)others, 1.0, Xn, (int)rows, K, (int)others, 0.0, ref, (int)rows);
        for (k = 0; k < nd; k++)
            Ud[k] = k == mode ? NULL : put(&st, U[k], (size_t)ldu[k] * R * es);
        s = t->mttkrp(w->h, nd, dims, put(&st, X, numel * es), mode, R, (const void *const *)Ud, ldu,
                      put(&st, M, ldm * R * es), (int64_t)ldm);
        fail = back(&st);
        if (call_ok(s, fail, w->name, "mttkrp")) {
            for (r = 0; r < R; r++) {
                size_t i;
                for (i = 0; i < rows; i++) {
                    double bound = 0;
                    for (e = 0; e < others; e++)
                        bound += fabs(rget(p, Xn, i + e * rows)) * kr_entry(p, nd, dims, U, ldu, mode, e, r, 1);
                    ok = ok && fabs(rget(p, M, i + r * ldm) - rget(p, ref, i + r * rows)) <= 2 * (others + nd) * p->eps * bound;
                }
                ok = ok && isnan(rget(p, M, rows + r * ldm)) && isnan(rget(p, M, rows + 1 + r * ldm));
            }
            check(ok, "%s: numgpu_%smttkrp order %d mode %d: not the unfold + Khatri-Rao + cblas_%sgemm product, or "
                      "padding written",
                  w->name, p->letter, nd, mode, p->letter);
        }
        free(K);
        free(ref);
        free(M);
    }
    for (k = 0; k < nd; k++)
        free(U[k]);
    free(X);
    free(Xn);
}

static void drop_ins(const where_t *w)
{
    static const int64_t d3[3] = {5, 6, 7}, d4[4] = {3, 4, 2, 5};
    int pi;
    for (pi = 0; pi < 2; pi++) {
        run_khatri_rao(w, &TENS[pi]);
        run_mttkrp(w, &TENS[pi], 3, d3);
        run_mttkrp(w, &TENS[pi], 4, d4);
    }
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    double X[24], u0[4], u1[6], u2[8], M[8], A[6], B[4], C[12];
    const double *U[3] = {u0, u1, u2};
    int64_t dims[3] = {2, 3, 4}, bad_dims[3] = {2, -3, 4}, ldu[3] = {2, 3, 4}, short_ldu[3] = {2, 2, 4};
    const char *f = "numgpu_dmttkrp", *k = "numgpu_dkhatri_rao";
    int i;
    for (i = 0; i < 24; i++)
        X[i] = i;
    for (i = 0; i < 8; i++)
        M[i] = -7;
    for (i = 0; i < 12; i++)
        C[i] = -7;
    memcpy(u0, X, sizeof u0);
    memcpy(u1, X, sizeof u1);
    memcpy(u2, X, sizeof u2);
    memcpy(A, X, sizeof A);
    memcpy(B, X, sizeof B);
#define UNTOUCHED (M[0] == -7 && M[7] == -7)
    expect_invalid(numgpu_dmttkrp(h, 2, dims, X, 0, 2, U, ldu, M, 2), f, 2, "ndim", UNTOUCHED, hname, "ndim 2");
    expect_invalid(numgpu_dmttkrp(h, 3, NULL, X, 0, 2, U, ldu, M, 2), f, 3, "dims", UNTOUCHED, hname, "NULL dims");
    expect_invalid(numgpu_dmttkrp(h, 3, bad_dims, X, 0, 2, U, ldu, M, 2), f, 3, "dims[1]", UNTOUCHED, hname, "dims[1] < 0");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, NULL, 0, 2, U, ldu, M, 2), f, 4, "X", UNTOUCHED, hname, "NULL X");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 3, 2, U, ldu, M, 2), f, 5, "mode", UNTOUCHED, hname, "mode 3");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, -1, U, ldu, M, 2), f, 6, "rank", UNTOUCHED, hname, "rank -1");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, 2, NULL, ldu, M, 2), f, 7, "U", UNTOUCHED, hname, "NULL U");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, 2, U, short_ldu, M, 2), f, 8, "ldu[1]", UNTOUCHED, hname, "ldu[1] < dims[1]");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, 2, U, ldu, NULL, 2), f, 9, "M", UNTOUCHED, hname, "NULL M");
    expect_invalid(numgpu_dmttkrp(h, 3, dims, X, 0, 2, U, ldu, M, 1), f, 10, "ldm", UNTOUCHED, hname, "ldm < dims[0]");
    expect_invalid(numgpu_dkhatri_rao(h, 3, 2, 2, A, 2, B, 2, C, 6), k, 6, "lda", C[0] == -7, hname, "lda < m");
    expect_invalid(numgpu_dkhatri_rao(h, 3, 2, 2, A, 3, B, 2, C, 5), k, 10, "ldc", C[0] == -7, hname, "ldc < m n");
#undef UNTOUCHED
}

int main(void)
{
    return run_program("test_tensor", argument_checks, drop_ins);
}
