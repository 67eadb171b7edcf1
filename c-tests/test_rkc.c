/* C drop-in test of numgpu_rkc_integrate with a user-written right-hand side, given both as
 * CUDA source text (compiled by numgpu with NVRTC, used on CUDA handles) and as a host
 * callback (used on CPU handles):
 *
 *   y' = A·(y − g(t)) + g'(t),  g = (sin t, cos t),  A = diag(p0, p1) per system,
 *   exact y(t) = g(t) + e^{A t}·(y0 − g(0)).
 *
 * Every case runs on the handle numgpu_create picks (AUTO: CUDA on a GPU host) and, when that
 * is CUDA, on a CPU handle too, whose results the CUDA ones must match within the tolerances:
 * - RKC and RKCK, both layouts, reach the exact solution within 100 tolerances (norm-wise);
 * - the user's spectral radius (NUMGPU_RKC_SPECTRAL_USER: numgpu_spcrad in the source, the host
 *   callback on the CPU) replaces the power method;
 * - a warm restart through `state` in two halves matches one call;
 * - arrays from numgpu_malloc (device memory on CUDA) give bitwise the host-array results;
 * - a source that does not compile is NUMGPU_COMPILE_FAILED with NVRTC's log (CUDA handles);
 * - an ODE with only the host callback integrates on every handle, on the host's cores
 *   (NUMGPU_RKC_STAT_BACKEND says NUMGPU_BACKEND_CPU);
 * - bad arguments are NUMGPU_INVALID_VALUE naming the argument, outputs untouched.
 */
#include "numgpu_test.h"

#define NEQ 2
#define NPAR 2
#define NSYS 50
#define TEND 2.0
#define ACC 100.0

static const char *RHS_SOURCE =
    "__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {\n"
    "    f[0] = p[0] * (y[0] - sin(t)) + cos(t);\n"
    "    f[1] = p[1] * (y[1] - cos(t)) - sin(t);\n"
    "}\n"
    "__device__ double numgpu_spcrad(double t, const double *y, const double *p) {\n"
    "    return fmax(fabs(p[0]), fabs(p[1]));\n"
    "}\n";

/* The same right-hand side for the CPU backend; `user` counts calls (atomically: systems run
 * in parallel), to see that numgpu calls it. */
static void host_rhs(double t, const double *y, const double *p, double *f, int64_t neq, void *user)
{
    (void)neq;
    f[0] = p[0] * (y[0] - sin(t)) + cos(t);
    f[1] = p[1] * (y[1] - cos(t)) - sin(t);
    __atomic_fetch_add((long *)user, 1L, __ATOMIC_RELAXED);
}

/* |λ|max of the diagonal A: its spectral radius. */
static double host_spcrad(double t, const double *y, const double *p, int64_t neq, void *user)
{
    (void)t;
    (void)y;
    (void)neq;
    (void)user;
    return fmax(fabs(p[0]), fabs(p[1]));
}

static long calls;

static void inputs(double *y0, double *p)
{
    int i;
    for (i = 0; i < NSYS; i++) {
        p[NPAR * i] = -pow(1000.0, (double)i / (NSYS - 1));
        p[NPAR * i + 1] = -0.5 - i;
        y0[NEQ * i] = 1.0 + 0.01 * i;
        y0[NEQ * i + 1] = -0.5;
    }
}

/* ‖y − exact‖∞ / (atol + rtol‖exact‖∞) of system i (system-major y). */
static double sys_err(const double *y, const double *y0, const double *p, int i, double rtol, double atol)
{
    double ex[2], e = 0.0, n = 0.0;
    int j;
    ex[0] = sin(TEND) + (y0[NEQ * i] - 0.0) * exp(p[NPAR * i] * TEND);
    ex[1] = cos(TEND) + (y0[NEQ * i + 1] - 1.0) * exp(p[NPAR * i + 1] * TEND);
    for (j = 0; j < NEQ; j++) {
        e = fmax(e, fabs(y[NEQ * i + j] - ex[j]));
        n = fmax(n, fabs(ex[j]));
    }
    return e / (atol + rtol * n);
}

/* Integrates with `method` in `layout` and checks against the exact solution; returns the
 * system-major result in `out`. */
static void exact_case(numgpu_handle *h, const char *hname, numgpu_ode *ode, int32_t method, int32_t layout, int32_t spectral,
                       double *out)
{
    double y0[NEQ * NSYS], p[NPAR * NSYS], y[NEQ * NSYS], pl[NPAR * NSYS], atol = 1e-8, rtol = 1e-6, worst = 0.0;
    int32_t status[NSYS];
    int64_t stats[NUMGPU_RKC_NSTATS * NSYS];
    numgpu_rkc_options o;
    numgpu_status st;
    int i, j, bad = 0;
    inputs(y0, p);
    for (i = 0; i < NSYS; i++)
        for (j = 0; j < NEQ; j++) {
            /* equation-major: Y[i + j·NSYS]; system-major: Y[j + i·NEQ] */
            y[layout == NUMGPU_LAYOUT_SYSTEM_MAJOR ? j + i * NEQ : i + j * NSYS] = y0[j + i * NEQ];
            pl[layout == NUMGPU_LAYOUT_SYSTEM_MAJOR ? j + i * NPAR : i + j * NSYS] = p[j + i * NPAR];
        }
    numgpu_rkc_options_default(&o);
    o.method = method;
    o.spectral = spectral;
    for (i = 0; i < NSYS; i++)
        status[i] = -7;
    st = numgpu_rkc_integrate(h, ode, NSYS, 1, 0.0, TEND, y, layout == NUMGPU_LAYOUT_SYSTEM_MAJOR ? NEQ : NSYS, layout,
                              pl, layout == NUMGPU_LAYOUT_SYSTEM_MAJOR ? NPAR : NSYS, rtol, &atol, &o, NULL, status, stats);
    check(st == NUMGPU_SUCCESS, "%s method %d layout %d: status %d (%s)", hname, method, layout, (int)st, last_error());
    for (i = 0; i < NSYS; i++)
        for (j = 0; j < NEQ; j++)
            out[j + i * NEQ] = y[layout == NUMGPU_LAYOUT_SYSTEM_MAJOR ? j + i * NEQ : i + j * NSYS];
    for (i = 0; i < NSYS; i++) {
        double e = sys_err(out, y0, p, i, rtol, atol);
        worst = fmax(worst, e);
        const int64_t *s = stats + NUMGPU_RKC_NSTATS * i;
        bad += status[i] != 0 || !(e < ACC) || s[NUMGPU_RKC_STAT_STEPS] != s[NUMGPU_RKC_STAT_ACCEPTED] + s[NUMGPU_RKC_STAT_REJECTED];
        if (spectral == NUMGPU_RKC_SPECTRAL_USER)
            bad += s[NUMGPU_RKC_STAT_SPCRAD_RHS] != 0;
    }
    check(bad == 0, "%s method %d layout %d spectral %d: %d systems wrong (worst error %.3g tolerances)", hname, method, layout,
          spectral, bad, worst);
}

/* Two halves with a warm restart against one call (RKC). */
static void warm_case(numgpu_handle *h, const char *hname, numgpu_ode *ode)
{
    double y0[NEQ * NSYS], p[NPAR * NSYS], one[NEQ * NSYS], two[NEQ * NSYS], state[(6 + NEQ) * NSYS], atol = 1e-8, rtol = 1e-6;
    int32_t status[NSYS];
    numgpu_status st;
    int i, bad = 0;
    inputs(y0, p);
    memcpy(one, y0, sizeof one);
    memcpy(two, y0, sizeof two);
    memset(state, 0, sizeof state);
    st = numgpu_rkc_integrate(h, ode, NSYS, 1, 0.0, TEND, one, NEQ, NUMGPU_LAYOUT_SYSTEM_MAJOR, p, NPAR, rtol, &atol, NULL, NULL,
                              status, NULL);
    check(st == NUMGPU_SUCCESS, "%s warm: one call %d (%s)", hname, (int)st, last_error());
    st = numgpu_rkc_integrate(h, ode, NSYS, 1, 0.0, TEND / 2, two, NEQ, NUMGPU_LAYOUT_SYSTEM_MAJOR, p, NPAR, rtol, &atol, NULL,
                              state, status, NULL);
    check(st == NUMGPU_SUCCESS && state[0] > 0.0, "%s warm: first half %d (%s)", hname, (int)st, last_error());
    st = numgpu_rkc_integrate(h, ode, NSYS, 1, TEND / 2, TEND, two, NEQ, NUMGPU_LAYOUT_SYSTEM_MAJOR, p, NPAR, rtol, &atol, NULL,
                              state, status, NULL);
    check(st == NUMGPU_SUCCESS, "%s warm: second half %d (%s)", hname, (int)st, last_error());
    for (i = 0; i < NSYS; i++)
        bad += status[i] != 0 || !(fabs(one[2 * i] - two[2 * i]) < ACC * (atol + rtol)) || !(sys_err(two, y0, p, i, rtol, atol) < ACC);
    check(bad == 0, "%s warm restart: %d systems differ from one call", hname, bad);
}

/* numgpu_malloc arrays against host arrays, bitwise. */
static void malloc_case(numgpu_handle *h, const char *hname, numgpu_ode *ode)
{
    double y0[NEQ * NSYS], p[NPAR * NSYS], yh[NEQ * NSYS], yd[NEQ * NSYS], atol = 1e-8;
    int32_t sh[NSYS], sd[NSYS];
    double *dy = NULL, *dp = NULL, *da = NULL;
    int32_t *ds = NULL;
    numgpu_status st;
    inputs(y0, p);
    memcpy(yh, y0, sizeof yh);
    st = numgpu_rkc_integrate(h, ode, NSYS, 1, 0.0, TEND, yh, NEQ, NUMGPU_LAYOUT_SYSTEM_MAJOR, p, NPAR, 1e-6, &atol, NULL, NULL, sh,
                              NULL);
    check(st == NUMGPU_SUCCESS, "%s malloc: host call %d (%s)", hname, (int)st, last_error());
    st = numgpu_malloc(h, (void **)&dy, sizeof y0);
    st |= numgpu_malloc(h, (void **)&dp, sizeof p);
    st |= numgpu_malloc(h, (void **)&da, sizeof atol);
    st |= numgpu_malloc(h, (void **)&ds, sizeof sd);
    check(st == NUMGPU_SUCCESS, "%s malloc: numgpu_malloc (%s)", hname, last_error());
    if (st != NUMGPU_SUCCESS)
        return;
    numgpu_memcpy(h, dy, y0, sizeof y0);
    numgpu_memcpy(h, dp, p, sizeof p);
    numgpu_memcpy(h, da, &atol, sizeof atol);
    st = numgpu_rkc_integrate(h, ode, NSYS, 1, 0.0, TEND, dy, NEQ, NUMGPU_LAYOUT_SYSTEM_MAJOR, dp, NPAR, 1e-6, da, NULL, NULL, ds,
                              NULL);
    check(st == NUMGPU_SUCCESS, "%s malloc: device call %d (%s)", hname, (int)st, last_error());
    st = numgpu_synchronize(h);
    check(st == NUMGPU_SUCCESS, "%s malloc: synchronize %d (%s)", hname, (int)st, last_error());
    numgpu_memcpy(h, yd, dy, sizeof yd);
    numgpu_memcpy(h, sd, ds, sizeof sd);
    check(memcmp(yd, yh, sizeof yd) == 0 && memcmp(sd, sh, sizeof sd) == 0, "%s malloc: results differ from host arrays", hname);
    numgpu_free(h, dy);
    numgpu_free(h, dp);
    numgpu_free(h, da);
    numgpu_free(h, ds);
}

/* One bad argument per call: INVALID_VALUE, the argument named, Y and status untouched. */
static void error_cases(numgpu_handle *h, const char *hname, numgpu_ode *ode)
{
    double y[NEQ * 2] = {1, 2, 3, 4}, p[NPAR * 2] = {-1, -1, -1, -1}, atol = 1e-8, atol2[3] = {1e-8, 1e-8, 1e-8};
    int32_t status[2] = {-7, -7};
    numgpu_rkc_options o;
    numgpu_status st;
    numgpu_ode *none = NULL;
    struct {
        int arg;
        numgpu_status st;
    } r[8];
    int k, n = 0;
    numgpu_rkc_options_default(&o);
    o.size = 8;
#define CALL(ODE, NSYS_, LDY, LAYOUT, RTOL, ATOL, NATOL, OPTS, STATUS)                                                         \
    st = numgpu_rkc_integrate(h, ODE, NSYS_, NATOL, 0.0, 1.0, y, LDY, LAYOUT, p, NPAR, RTOL, ATOL, OPTS, NULL, STATUS, NULL);   \
    r[n].arg = numgpu_last_error_arg();                                                                                         \
    r[n++].st = st
    CALL(NULL, 2, NEQ, 0, 1e-6, &atol, 1, NULL, status);
    CALL(ode, -1, NEQ, 0, 1e-6, &atol, 1, NULL, status);
    CALL(ode, 2, 1, 0, 1e-6, &atol, 1, NULL, status);
    CALL(ode, 2, NEQ, 5, 1e-6, &atol, 1, NULL, status);
    CALL(ode, 2, NEQ, 0, 0.2, &atol, 1, NULL, status);
    CALL(ode, 2, NEQ, 0, 1e-6, atol2, 3, NULL, status);
    CALL(ode, 2, NEQ, 0, 1e-6, &atol, 1, &o, status);
    CALL(ode, 2, NEQ, 0, 1e-6, &atol, 1, NULL, NULL);
#undef CALL
    {
        const int want[8] = {2, 3, 8, 9, 12, 4, 14, 16};
        for (k = 0; k < n; k++)
            check(r[k].st == NUMGPU_INVALID_VALUE && r[k].arg == want[k], "%s bad argument %d: status %d, argument %d", hname, want[k],
                  (int)r[k].st, r[k].arg);
    }
    check(y[0] == 1 && y[3] == 4 && status[0] == -7 && status[1] == -7, "%s: an invalid call wrote its outputs", hname);
    st = numgpu_ode_create(h, 0, 0, RHS_SOURCE, NULL, NULL, NULL, &none);
    check(st == NUMGPU_INVALID_VALUE && numgpu_last_error_arg() == 2 && none == NULL, "%s: numgpu_ode_create(neq = 0): %d", hname,
          (int)st);
    st = numgpu_ode_builtin(h, 9, 0, &none);
    check(st == NUMGPU_INVALID_VALUE && numgpu_last_error_arg() == 2 && none == NULL, "%s: numgpu_ode_builtin(which = 9): %d",
          hname, (int)st);
    check(numgpu_ode_destroy(NULL) == NUMGPU_SUCCESS, "numgpu_ode_destroy(NULL)");
}

/* A source that does not compile: COMPILE_FAILED on CUDA with the log naming the user's line. */
static void bad_source(numgpu_handle *h, const char *hname, int is_cuda)
{
    numgpu_ode *ode = NULL;
    numgpu_status st = numgpu_ode_create(h, 1, 0,
                                         "__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {\n"
                                         "    f[0] = not_declared;\n}\n",
                                         NULL, NULL, NULL, &ode);
    if (is_cuda) {
        check(st == NUMGPU_COMPILE_FAILED && ode == NULL && strstr(last_error(), "numgpu_rhs.cu(2)") != NULL &&
                  strstr(last_error(), "not_declared") != NULL,
              "%s bad source: status %d, log: %s", hname, (int)st, last_error());
    } else {
        /* The CPU backend compiles nothing; the CUDA form is only checked on a GPU. */
        check(st == NUMGPU_SUCCESS, "%s bad source on the CPU: status %d (%s)", hname, (int)st, last_error());
    }
    numgpu_ode_destroy(ode);
}

/* An ODE made with only the host callback (a Fortran simulator's bind(C) right-hand side) runs
 * on every handle, a CUDA one included, on the host's cores, which its statistics say
 * (issue 25). */
static void callback_only(numgpu_handle *h, const char *hname)
{
    double y0[NEQ * NSYS], p[NPAR * NSYS], y[NEQ * NSYS], atol = 1e-8, rtol = 1e-6;
    int32_t status[NSYS];
    int64_t stats[NUMGPU_RKC_NSTATS * NSYS];
    numgpu_ode *ode = NULL;
    long before = calls;
    int i, bad = 0;
    numgpu_status st = numgpu_ode_create(h, NEQ, NPAR, NULL, host_rhs, NULL, &calls, &ode);
    check(st == NUMGPU_SUCCESS && ode != NULL, "%s callback-only numgpu_ode_create: %d (%s)", hname, (int)st, last_error());
    if (ode == NULL)
        return;
    inputs(y0, p);
    memcpy(y, y0, sizeof y);
    st = numgpu_rkc_integrate(h, ode, NSYS, 1, 0.0, TEND, y, NEQ, NUMGPU_LAYOUT_SYSTEM_MAJOR, p, NPAR, rtol, &atol, NULL,
                              NULL, status, stats);
    check(st == NUMGPU_SUCCESS && calls > before, "%s: an ODE with only a host callback: status %d (%s)", hname, (int)st,
          last_error());
    for (i = 0; st == NUMGPU_SUCCESS && i < NSYS; i++)
        bad += status[i] != 0 || !(sys_err(y, y0, p, i, rtol, atol) < ACC) ||
               stats[NUMGPU_RKC_NSTATS * i + NUMGPU_RKC_STAT_BACKEND] != NUMGPU_BACKEND_CPU;
    check(bad == 0, "%s: callback-only ODE: %d systems wrong, or not integrated on the host's cores", hname, bad);
    numgpu_ode_destroy(ode);
}

static void run_all(numgpu_handle *h, const char *hname, int is_cuda, double *rkc_out)
{
    numgpu_ode *ode = NULL;
    double out[NEQ * NSYS];
    numgpu_status st = numgpu_ode_create(h, NEQ, NPAR, RHS_SOURCE, host_rhs, host_spcrad, &calls, &ode);
    long before = calls;
    int layout, method;
    check(st == NUMGPU_SUCCESS && ode != NULL, "%s numgpu_ode_create: %d (%s)", hname, (int)st, last_error());
    if (ode == NULL)
        return;
    for (method = 0; method < 2; method++)
        for (layout = 0; layout < 2; layout++)
            exact_case(h, hname, ode, method, layout, NUMGPU_RKC_SPECTRAL_ESTIMATE, method == 0 && layout == 0 ? rkc_out : out);
    exact_case(h, hname, ode, NUMGPU_RKC_METHOD_RKC, NUMGPU_LAYOUT_SYSTEM_MAJOR, NUMGPU_RKC_SPECTRAL_USER, out);
    /* The host callback serves the CPU backend only. */
    check(is_cuda ? calls == before : calls > before, "%s: host callback called %ld times", hname, calls - before);
    warm_case(h, hname, ode);
    malloc_case(h, hname, ode);
    error_cases(h, hname, ode);
    bad_source(h, hname, is_cuda);
    callback_only(h, hname);
    check(numgpu_ode_destroy(ode) == NUMGPU_SUCCESS, "%s numgpu_ode_destroy", hname);
}

int main(void)
{
    numgpu_handle *autoh = NULL, *cpuh = NULL;
    int32_t be = -1;
    double yauto[NEQ * NSYS], ycpu[NEQ * NSYS];
    numgpu_status st;
    autoh = auto_handle("test_rkc", &be);
    if (autoh == NULL)
        return finish("test_rkc");
    run_all(autoh, be == NUMGPU_BACKEND_CUDA ? "AUTO(CUDA)" : "AUTO(CPU)", be == NUMGPU_BACKEND_CUDA, yauto);
    if (be == NUMGPU_BACKEND_CUDA) {
        int i, bad = 0;
        st = numgpu_create_with(&cpuh, NUMGPU_BACKEND_CPU, 0);
        check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): %d (%s)", (int)st, last_error());
        if (cpuh != NULL) {
            run_all(cpuh, "CPU", 0, ycpu);
            for (i = 0; i < NEQ * NSYS; i++)
                bad += !(fabs(yauto[i] - ycpu[i]) < ACC * (1e-8 + 1e-6 * fabs(ycpu[i])));
            check(bad == 0, "CUDA against CPU: %d values differ by more than %g tolerances", bad, ACC);
            numgpu_destroy(cpuh);
        }
    } else {
        printf("test_rkc: no CUDA here: the CUDA source is compiled and checked on a GPU host\n");
    }
    check(numgpu_destroy(autoh) == NUMGPU_SUCCESS, "numgpu_destroy");
    return finish("test_rkc");
}
