/* test_sshopm: numgpu's tensor eigenpairs (SS-HOPM) from C, on Kofidis and Regalia's example
 * (m = 4, n = 3), whose local maxima have lambda = 0.8893220107, 0.8168813450, 0.3633060484
 * and local minima -0.0450921811, -0.5629171327, -1.0953516989.
 *
 * For float and double, on the AUTO handle (CUDA on a GPU host) with host arrays and with
 * numgpu_malloc memory (device memory on CUDA; then numgpu_synchronize and copy back), and on
 * a CPU handle:
 *   numgpu_?sshopm, 3 copies of the tensor (strideA = 15), 64 random starts (X0 = NULL, seed
 *   set), convex with SAFE, fixed (alpha = 2) and ADAPTIVE shifts and concave with SAFE: every
 *   start converges (NUMGPU_SSHOPM_CONVERGED), its (lambda, x) is an eigenpair
 *   (||A x^3 - lambda x|| small, the product computed here from the dense tensor of
 *   numgpu_dsym_unpack), and the distinct lambdas are exactly the three known maxima (minima);
 *   the same seed gives the same results bitwise, in host and device memory alike;
 *   numgpu_?sshopm_unique (host arrays): count 3, the known values by decreasing lambda, type
 *   NUMGPU_SSHOPM_LOCAL_MAX (maxima) or NUMGPU_SSHOPM_LOCAL_MIN (minima), multiplicities
 *   summing to the starts;
 *   numgpu_?sym_apply p = 0, 1, 2 against the dense tensor (host arrays);
 *   numgpu_?sym_pack(unpack(a)) = a;
 * and the argument checks (NULL handle, m < 2, strideA < U, mode and shift out of range, alpha
 * of the wrong sign, maxit < 1, NULL outputs: NUMGPU_INVALID_VALUE naming the argument,
 * nothing written); ntensors = 0 succeeds and touches nothing.
 *
 * Prints "test_sshopm: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include "numgpu_test.h"

static const double KR[15] = {0.2883,  -0.0031, 0.1973, -0.2485, -0.2939, 0.3847, 0.2972, 0.1862,
                              0.0919, -0.3619, 0.1241, -0.3420, 0.2127,  0.2727, -0.3054};
static const double KR_MAX[3] = {0.8893220107, 0.8168813450, 0.3633060484};
static const double KR_MIN[3] = {-0.0450921811, -0.5629171327, -1.0953516989};

enum { M = 4, N = 3, U = 15, NT = 3, NS = 64, KMAX = 5 };

static double dense[81];

/* y = A x^3 from the dense tensor (first index fastest). */
static void grad(const double *x, double *y)
{
    int i, j, k, l;
    for (i = 0; i < N; i++) {
        y[i] = 0.0;
        for (j = 0; j < N; j++)
            for (k = 0; k < N; k++)
                for (l = 0; l < N; l++)
                    y[i] += dense[i + N * (j + N * (k + N * l))] * x[j] * x[k] * x[l];
    }
}

/* One precision's view of the family: arrays as void *, scalars as double. */
typedef struct {
    const prec_t *p;  /* s or d */
    const char *name; /* the numgpu_?sshopm entry point */
    numgpu_status (*run)(numgpu_handle *, int64_t, const void *, int64_t, const void *, int64_t, int32_t, int32_t,
                         double, double, int32_t, void *, void *, int32_t *, int32_t *);
    numgpu_status (*unique)(numgpu_handle *, const void *, int32_t, int32_t, double, double, double, int32_t *,
                            void *, void *, int32_t *, int32_t *);
    numgpu_status (*apply)(numgpu_handle *, int32_t, const void *, const void *, void *);
    numgpu_status (*pack)(const void *, void *);
    numgpu_status (*unpack)(const void *, void *);
} fam_t;

#define FAM(P, R, T)                                                                                         \
    static numgpu_status P##_run(numgpu_handle *h, int64_t nt, const void *A, int64_t sA, const void *X0,   \
                                 int64_t sX0, int32_t mode, int32_t shift, double alpha, double tol,        \
                                 int32_t maxit, void *lam, void *X, int32_t *it, int32_t *fl)              \
    {                                                                                                       \
        return numgpu_##R(h, mode, shift, M, N, nt, NS, (const T *)A, sA, (const T *)X0, sX0,      \
                                  (T)alpha, (T)tol, maxit, (T *)lam, (T *)X, it, fl);                        \
    }                                                                                                       \
    static numgpu_status P##_unique(numgpu_handle *h, const void *A, int32_t mode, int32_t shift,          \
                                    double alpha, double tol, double mtol, int32_t *count, void *lam,      \
                                    void *X, int32_t *mult, int32_t *type)                                 \
    {                                                                                                       \
        return numgpu_##R##_unique(h, mode, shift, M, N, NT, NS, (const T *)A, U, NULL, 0, (T)alpha, \
                                         (T)tol, 20000, (T)mtol, KMAX, count, (T *)lam, (T *)X, mult,      \
                                         type);                                                             \
    }                                                                                                       \
    static numgpu_status P##_apply(numgpu_handle *h, int32_t p, const void *A, const void *x, void *y)      \
    {                                                                                                       \
        return numgpu_##P##sym_apply(h, M, N, p, 1, (const T *)A, U, (const T *)x, N, (T *)y, 9);          \
    }                                                                                                       \
    static numgpu_status P##_pack(const void *d, void *p) { return numgpu_##P##sym_pack(M, N, (const T *)d, (T *)p); } \
    static numgpu_status P##_unpack(const void *p, void *d) { return numgpu_##P##sym_unpack(M, N, (const T *)p, (T *)d); }

FAM(s, sshopm, float)
FAM(d, dsshopm, double)

static const fam_t FAMS[2] = {
    {&PRECS[0], "numgpu_sshopm", s_run, s_unique, s_apply, s_pack, s_unpack},
    {&PRECS[1], "numgpu_dsshopm", d_run, d_unique, d_apply, d_pack, d_unpack},
};

/* The results of NT x NS starts on `h`, in host or numgpu_malloc memory. */
static numgpu_status run_case(const where_t *w, const fam_t *f, const void *A, int32_t mode, int32_t shift,
                              double alpha, double tol, void *lam, void *X, int32_t *it, int32_t *fl)
{
    stage_t st = stage_for(w);
    numgpu_status s;
    const char *fail;
    size_t g = (size_t)NT * NS;
    s = f->run(w->h, NT, put(&st, (void *)A, NT * U * f->p->size), U, NULL, 0, mode, shift, alpha, tol, 20000,
               put(&st, lam, g * f->p->size), put(&st, X, g * N * f->p->size), put(&st, it, g * 4), put(&st, fl, g * 4));
    /* The staged input A comes back unchanged; copying it back is harmless. */
    fail = back(&st);
    check(fail == NULL, "%ssshopm: %s", f->p->letter, fail ? fail : "");
    return s;
}

static void known_values(const where_t *w, const fam_t *f)
{
    static const int32_t MODES[4] = {NUMGPU_SSHOPM_CONVEX, NUMGPU_SSHOPM_CONVEX, NUMGPU_SSHOPM_CONVEX, NUMGPU_SSHOPM_CONCAVE};
    static const int32_t SHIFTS[4] = {NUMGPU_SSHOPM_SAFE, NUMGPU_SSHOPM_FIXED, NUMGPU_SSHOPM_ADAPTIVE, NUMGPU_SSHOPM_SAFE};
    size_t g = (size_t)NT * NS, s;
    void *A = xmalloc(NT * U * f->p->size), *lam = xmalloc(g * f->p->size), *X = xmalloc(g * N * f->p->size);
    void *lam2 = xmalloc(g * f->p->size);
    int32_t *it = xmalloc(g * 4), *fl = xmalloc(g * 4);
    double tol = !f->p->dbl ? 1e-6 : 1e-12;
    double rtol = 10.0 * sqrt(tol) + 1e3 * f->p->eps;
    int c, k, t;
    for (t = 0; t < NT; t++)
        for (k = 0; k < U; k++)
            rset(f->p, A, (size_t)t * U + k, KR[k]);
    for (c = 0; c < 4; c++) {
        const double *want = MODES[c] == NUMGPU_SSHOPM_CONVEX ? KR_MAX : KR_MIN;
        int found[3] = {0, 0, 0}, wrong = 0, unconv = 0;
        double worst = 0.0;
        numgpu_status st;
        numgpu_set_seed(w->h, 42);
        st = run_case(w, f, A, MODES[c], SHIFTS[c], SHIFTS[c] == NUMGPU_SSHOPM_FIXED ? 2.0 : 0.0, tol, lam, X, it, fl);
        check(st == NUMGPU_SUCCESS, "%s: %ssshopm case %d: status %d (%s)", w->name, f->p->letter, c, (int)st, last_error());
        for (s = 0; s < g; s++) {
            double x[N], y[N], l = rget(f->p, lam, s), r = 0.0;
            int j, hit = -1;
            if (fl[s] != NUMGPU_SSHOPM_CONVERGED) {
                unconv++;
                continue;
            }
            for (j = 0; j < N; j++)
                x[j] = rget(f->p, X, s * N + j);
            grad(x, y);
            for (j = 0; j < N; j++)
                r += (y[j] - l * x[j]) * (y[j] - l * x[j]);
            worst = sqrt(r) > worst ? sqrt(r) : worst;
            for (j = 0; j < 3; j++)
                if (fabs(l - want[j]) < 1e-9 + 1e3 * f->p->eps + 10.0 * tol) /* 10 decimals known */
                    hit = j;
            if (hit < 0)
                wrong++;
            else
                found[hit] = 1;
        }
        check(unconv == 0 && wrong == 0 && found[0] && found[1] && found[2] && worst < rtol,
              "%s: %ssshopm case %d: %d not converged, %d unknown lambdas, found %d%d%d, worst residual %.3g (limit %.3g)",
              w->name, f->p->letter, c, unconv, wrong, found[0], found[1], found[2], worst, rtol);
        /* The same seed, the same results. */
        numgpu_set_seed(w->h, 42);
        run_case(w, f, A, MODES[c], SHIFTS[c], SHIFTS[c] == NUMGPU_SSHOPM_FIXED ? 2.0 : 0.0, tol, lam2, X, it, fl);
        check(memcmp(lam, lam2, g * f->p->size) == 0, "%s: %ssshopm case %d: two calls with one seed differ", w->name, f->p->letter, c);
    }
    /* sshopm_unique, host arrays. */
    for (c = 0; !w->dev && c < 2; c++) {
        int32_t count[NT], mult[NT * KMAX], type[NT * KMAX];
        void *ul = xmalloc(NT * KMAX * f->p->size), *ux = xmalloc(NT * KMAX * N * f->p->size);
        const double *want = c == 0 ? KR_MAX : KR_MIN;
        int32_t mode = c == 0 ? NUMGPU_SSHOPM_CONVEX : NUMGPU_SSHOPM_CONCAVE;
        int32_t want_type = c == 0 ? NUMGPU_SSHOPM_LOCAL_MAX : NUMGPU_SSHOPM_LOCAL_MIN;
        numgpu_status st = f->unique(w->h, A, mode, NUMGPU_SSHOPM_SAFE, 0.0, tol, !f->p->dbl ? 2e-2 : 1e-4, count, ul,
                                     ux, mult, type);
        check(st == NUMGPU_SUCCESS, "%s: %ssshopm_unique: status %d (%s)", w->name, f->p->letter, (int)st, last_error());
        for (t = 0; t < NT; t++) {
            int sum = 0, ok = count[t] == 3;
            for (k = 0; ok && k < 3; k++) {
                /* By decreasing lambda: the maxima in their order, the minima in theirs. */
                ok = fabs(rget(f->p, ul, (size_t)t * KMAX + k) - want[k]) < 1e-3 && type[t * KMAX + k] == want_type;
                sum += mult[t * KMAX + k];
            }
            check(ok && sum == NS && mult[t * KMAX + 3] == 0 && rget(f->p, ul, (size_t)t * KMAX + 3) != rget(f->p, ul, (size_t)t * KMAX + 3),
                  "%s: %ssshopm_unique mode %d tensor %d: count %d, lambda %g %g %g, types %d %d %d, multiplicities sum %d",
                  w->name, f->p->letter, (int)mode, t, count[t], rget(f->p, ul, (size_t)t * KMAX), rget(f->p, ul, (size_t)t * KMAX + 1),
                  rget(f->p, ul, (size_t)t * KMAX + 2), type[t * KMAX], type[t * KMAX + 1], type[t * KMAX + 2], sum);
        }
        free(ul);
        free(ux);
    }
    free(A);
    free(lam);
    free(lam2);
    free(X);
    free(it);
    free(fl);
}

static void apply_and_pack(numgpu_handle *h, const char *hname, const fam_t *f)
{
    void *A = xmalloc(U * f->p->size), *x = xmalloc(N * f->p->size), *y = xmalloc(9 * f->p->size);
    void *d = xmalloc(81 * f->p->size), *p2 = xmalloc(U * f->p->size);
    double xs[N] = {0.3, -0.7, 0.5}, g[N], f0 = 0.0, tol = 1e2 * f->p->eps;
    int j, k, p, ok;
    for (k = 0; k < U; k++)
        rset(f->p, A, k, KR[k]);
    for (j = 0; j < N; j++)
        rset(f->p, x, j, xs[j]);
    grad(xs, g);
    for (j = 0; j < N; j++)
        f0 += xs[j] * g[j];
    for (p = 0; p < 3; p++) {
        numgpu_status st = f->apply(h, p, A, x, y);
        check(st == NUMGPU_SUCCESS, "%s %ssym_apply p=%d: status %d (%s)", hname, f->p->letter, p, (int)st, last_error());
        ok = 1;
        if (p == 0)
            ok = fabs(rget(f->p, y, 0) - f0) < tol;
        else if (p == 1)
            for (j = 0; j < N; j++)
                ok = ok && fabs(rget(f->p, y, j) - g[j]) < tol;
        else
            for (j = 0; j < N; j++) {
                /* (A x^2) x = A x^3 */
                double s = 0.0;
                for (k = 0; k < N; k++)
                    s += rget(f->p, y, j + N * k) * xs[k];
                ok = ok && fabs(s - g[j]) < tol;
            }
        check(ok, "%s %ssym_apply p=%d against the dense tensor", hname, f->p->letter, p);
    }
    check(f->unpack(A, d) == NUMGPU_SUCCESS && f->pack(d, p2) == NUMGPU_SUCCESS && memcmp(A, p2, U * f->p->size) == 0,
          "%ssym_pack(sym_unpack(a)) != a", f->p->letter);
    free(A);
    free(x);
    free(y);
    free(d);
    free(p2);
}

static void error_checks(numgpu_handle *h, const char *hname, const fam_t *f)
{
    void *A = xmalloc(2 * U * f->p->size), *lam = xmalloc(2 * NS * f->p->size), *X = xmalloc(2 * NS * N * f->p->size);
    void *lam0 = xmalloc(2 * NS * f->p->size);
    int32_t it[2 * NS], fl[2 * NS];
    char fname[32];
    int k;
    for (k = 0; k < 2 * U; k++)
        rset(f->p, A, k, KR[k % U]);
    for (k = 0; k < 2 * NS; k++) {
        rset(f->p, lam, k, 7.0);
        it[k] = fl[k] = -7;
    }
    memcpy(lam0, lam, 2 * NS * f->p->size);
    snprintf(fname, sizeof fname, "%s", f->name);
#define UNTOUCHED (memcmp(lam, lam0, 2 * NS * f->p->size) == 0 && it[0] == -7 && fl[0] == -7)
    expect_invalid(f->run(NULL, 2, A, U, NULL, 0, 0, 1, 0.0, 1e-6, 10, lam, X, it, fl), fname, 1, "h", UNTOUCHED, hname, "NULL handle");
    expect_invalid(f->run(h, 2, A, U - 1, NULL, 0, 0, 1, 0.0, 1e-6, 10, lam, X, it, fl), fname, 9, "strideA", UNTOUCHED, hname, "strideA < U");
    expect_invalid(f->run(h, 2, NULL, U, NULL, 0, 0, 1, 0.0, 1e-6, 10, lam, X, it, fl), fname, 8, "A", UNTOUCHED, hname, "NULL A");
    expect_invalid(f->run(h, 2, A, U, NULL, 0, 2, 1, 0.0, 1e-6, 10, lam, X, it, fl), fname, 2, "mode", UNTOUCHED, hname, "mode 2");
    expect_invalid(f->run(h, 2, A, U, NULL, 0, 0, 5, 0.0, 1e-6, 10, lam, X, it, fl), fname, 3, "shift_kind", UNTOUCHED, hname, "shift 5");
    expect_invalid(f->run(h, 2, A, U, NULL, 0, 0, 0, -1.0, 1e-6, 10, lam, X, it, fl), fname, 12, "alpha", UNTOUCHED, hname, "convex alpha < 0");
    expect_invalid(f->run(h, 2, A, U, NULL, 0, 0, 1, 0.0, -1.0, 10, lam, X, it, fl), fname, 13, "tol", UNTOUCHED, hname, "tol < 0");
    expect_invalid(f->run(h, 2, A, U, NULL, 0, 0, 1, 0.0, 1e-6, 0, lam, X, it, fl), fname, 14, "maxit", UNTOUCHED, hname, "maxit 0");
    expect_invalid(f->run(h, 2, A, U, NULL, 0, 0, 1, 0.0, 1e-6, 10, lam, NULL, it, fl), fname, 16, "X", UNTOUCHED, hname, "NULL X");
    expect_invalid(f->run(h, 2, A, U, NULL, 0, 0, 1, 0.0, 1e-6, 10, lam, X, it, NULL), fname, 18, "flags", UNTOUCHED, hname, "NULL flags");
    check(f->run(h, 0, NULL, U, NULL, 0, 0, 1, 0.0, 1e-6, 10, NULL, NULL, NULL, NULL) == NUMGPU_SUCCESS, "%s %s: ntensors = 0 must succeed", hname, fname);
    snprintf(fname, sizeof fname, "numgpu_%ssym_pack", f->p->letter);
    expect_invalid(!f->p->dbl ? numgpu_ssym_pack(1, 3, (const float *)A, (float *)lam) : numgpu_dsym_pack(1, 3, (const double *)A, (double *)lam),
                   fname, 1, "m", UNTOUCHED, hname, "m = 1");
#undef UNTOUCHED
    free(A);
    free(lam);
    free(lam0);
    free(X);
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    int fi;
    for (fi = 0; fi < 2; fi++)
        error_checks(h, hname, &FAMS[fi]);
}

static void user_checks(const where_t *w)
{
    int fi;
    for (fi = 0; fi < 2; fi++) {
        known_values(w, &FAMS[fi]);
        if (!w->dev)
            apply_and_pack(w->h, w->name, &FAMS[fi]);
    }
}

int main(void)
{
    if (numgpu_dsym_unpack(M, N, KR, dense) != NUMGPU_SUCCESS) {
        printf("numgpu_dsym_unpack failed: %s\n", last_error());
        return EXIT_FAILURE;
    }
    return run_program("test_sshopm", argument_checks, user_checks);
}
