/* numgpu_life_plan_create, numgpu_dlife_mw, numgpu_dlife_mty, numgpu_dlife_sbbnnls and
 * numgpu_life_plan_destroy from C: a small 1-based connectome (an empty voxel and an empty
 * fibre, a repeated entry) against plain loops over the COO; SBBNNLS satisfies the KKT
 * conditions of its NNLS problem (w >= 0, gradient >= 0 where w = 0 and about 0 where w > 0)
 * and reports its objective; a malformed COO and bad arguments are INVALID_VALUE naming their
 * argument and write nothing; the plan's life cycle (NULL and double destroy). Host arrays
 * and numgpu_malloc memory. */
#include "numgpu_test.h"

enum { NT = 6, NA = 3, NV = 5, NF = 4, NNZ = 9, LDD = 7, LDY = 8 };

/* 1-based entries: voxel 4 and fibre 3 have none; (1, 2, 1) twice. */
static const int32_t ATOMS[NNZ] = {1, 2, 3, 1, 1, 3, 2, 2, 1};
static const int32_t VOXELS[NNZ] = {1, 2, 3, 5, 2, 1, 3, 5, 2};
static const int32_t FIBERS[NNZ] = {1, 1, 2, 4, 1, 4, 2, 2, 4};
static const double VALUES[NNZ] = {1.0, 0.5, 2.0, 1.0, 1.0, 1.5, 1.0, 0.25, 1.0};

static double D[LDD * NA];

/* y[t + v·LDY] = Σ values·w[f]·D[t, a] over the COO. */
static void ref_mw(const double *w, double *y)
{
    int k, t;
    for (k = 0; k < LDY * NV; k++)
        y[k] = 0;
    for (k = 0; k < NNZ; k++)
        for (t = 0; t < NT; t++)
            y[t + (VOXELS[k] - 1) * LDY] += VALUES[k] * w[FIBERS[k] - 1] * D[t + (ATOMS[k] - 1) * LDD];
}

/* g[f] = Σ values·<D[:, a], y[:, v]> over the COO. */
static void ref_mty(const double *y, double *g)
{
    int k, t;
    for (k = 0; k < NF; k++)
        g[k] = 0;
    for (k = 0; k < NNZ; k++)
        for (t = 0; t < NT; t++)
            g[FIBERS[k] - 1] += VALUES[k] * D[t + (ATOMS[k] - 1) * LDD] * y[t + (VOXELS[k] - 1) * LDY];
}

static double maxdiff(const double *a, const double *b, int n, int ld, int rows)
{
    double s = 0;
    int i;
    for (i = 0; i < n; i++)
        if (i % ld < rows)
            s = fmax(s, fabs(a[i] - b[i]));
    return s;
}

static void products(const where_t *where)
{
    numgpu_life_plan *p = NULL;
    int32_t at[NNZ], vx[NNZ], fb[NNZ];
    double vals[NNZ], w[NF], y[LDY * NV], yref[LDY * NV], g[NF], gref[NF], b[LDY * NV], x[NF], r[LDY * NV], obj = -1, worst = 0;
    int32_t iters = -1;
    int k;
    stage_t st = stage_for(where);
    numgpu_status s;
    const char *fail;
    /* Copies: back() copies every staged buffer back into its host array. */
    memcpy(at, ATOMS, sizeof at);
    memcpy(vx, VOXELS, sizeof vx);
    memcpy(fb, FIBERS, sizeof fb);
    memcpy(vals, VALUES, sizeof vals);
    for (k = 0; k < LDD * NA; k++)
        D[k] = k % LDD < NT ? rnd() + 0.5 : NAN;
    for (k = 0; k < NF; k++)
        w[k] = rnd();
    for (k = 0; k < LDY * NV; k++)
        b[k] = k % LDY < NT ? rnd() : NAN;
    s = numgpu_life_plan_create(where->h, NT, NA, NV, NF, NNZ, put(&st, at, sizeof at), put(&st, vx, sizeof vx),
                                put(&st, fb, sizeof fb), NUMGPU_INDEX_BASE_ONE, put(&st, vals, sizeof vals), &p);
    fail = back(&st);
    if (!call_ok(s, fail, where->name, "numgpu_life_plan_create"))
        return;
    s = numgpu_dlife_mw(where->h, p, put(&st, D, sizeof D), LDD, put(&st, w, sizeof w), 0.0, put(&st, y, sizeof y), LDY);
    fail = back(&st);
    ref_mw(w, yref);
    if (call_ok(s, fail, where->name, "numgpu_dlife_mw"))
        check(maxdiff(y, yref, LDY * NV, LDY, NT) < 1e-13, "%s: numgpu_dlife_mw differs from the loop by %.3e", where->name,
              maxdiff(y, yref, LDY * NV, LDY, NT));
    s = numgpu_dlife_mty(where->h, p, put(&st, D, sizeof D), LDD, put(&st, b, sizeof b), LDY, 0.0, put(&st, g, sizeof g));
    fail = back(&st);
    ref_mty(b, gref);
    if (call_ok(s, fail, where->name, "numgpu_dlife_mty"))
        check(maxdiff(g, gref, NF, 1, 1) < 1e-13, "%s: numgpu_dlife_mty differs from the loop by %.3e", where->name,
              maxdiff(g, gref, NF, 1, 1));
    for (k = 0; k < NF; k++)
        x[k] = 0;
    s = numgpu_dlife_sbbnnls(where->h, p, put(&st, D, sizeof D), LDD, put(&st, b, sizeof b), LDY, put(&st, x, sizeof x),
                             500, 1e-13, &iters, &obj);
    fail = back(&st);
    if (call_ok(s, fail, where->name, "numgpu_dlife_sbbnnls")) {
        double f = 0, scale = 0;
        ref_mw(x, r);
        for (k = 0; k < LDY * NV; k++)
            if (k % LDY < NT) {
                r[k] -= b[k];
                f += 0.5 * r[k] * r[k];
            }
        ref_mty(r, g);
        ref_mty(b, gref);
        for (k = 0; k < NF; k++) {
            scale = fmax(scale, fabs(gref[k]));
            worst = fmax(worst, fmax(-x[k], x[k] > 0 ? fabs(g[k]) : -g[k]));
        }
        check(worst <= 1e-9 * scale, "%s: numgpu_dlife_sbbnnls: KKT residual %.3e (scale %.3e) after %d iterations",
              where->name, worst, scale, (int)iters);
        check(iters >= 1 && iters <= 500 && fabs(obj - f) <= 1e-12 * fmax(f, 1e-300),
              "%s: numgpu_dlife_sbbnnls: iters %d, objective %.17g vs %.17g", where->name, (int)iters, obj, f);
    }
    check(numgpu_life_plan_destroy(p) == NUMGPU_SUCCESS, "%s: numgpu_life_plan_destroy: %s", where->name, last_error());
}

static void argument_checks(numgpu_handle *h, const char *hname)
{
    int32_t bad[NNZ];
    double w[NF] = {1, 1, 1, 1}, y[LDY * NV];
    numgpu_life_plan *p = NULL, *q = (numgpu_life_plan *)(uintptr_t)0x40;
    const char *c = "numgpu_life_plan_create", *m = "numgpu_dlife_mw";
    int k;
    for (k = 0; k < LDY * NV; k++)
        y[k] = -7;
    memcpy(bad, FIBERS, sizeof bad);
    bad[4] = NF + 1;
    expect_invalid(numgpu_life_plan_create(h, NT, NA, NV, NF, NNZ, ATOMS, VOXELS, bad, 1, VALUES, &q), c, 9, "fibers[4]",
                   q == (numgpu_life_plan *)(uintptr_t)0x40, hname, "fibre index out of range");
    bad[4] = 0;
    expect_invalid(numgpu_life_plan_create(h, NT, NA, NV, NF, NNZ, ATOMS, VOXELS, bad, 1, VALUES, &q), c, 9, "fibers[4]",
                   q == (numgpu_life_plan *)(uintptr_t)0x40, hname, "fibre index 0 with base 1");
    expect_invalid(numgpu_life_plan_create(h, NT, NA, NV, NF, NNZ, ATOMS, VOXELS, FIBERS, 2, VALUES, &q), c, 10,
                   "index_base", q == (numgpu_life_plan *)(uintptr_t)0x40, hname, "index_base 2");
    expect_invalid(numgpu_life_plan_create(h, NT, NA, NV, NF, -1, ATOMS, VOXELS, FIBERS, 1, VALUES, &q), c, 6, "nnz",
                   q == (numgpu_life_plan *)(uintptr_t)0x40, hname, "nnz < 0");
    check(numgpu_life_plan_create(h, NT, NA, NV, NF, NNZ, ATOMS, VOXELS, FIBERS, 1, VALUES, &p) == NUMGPU_SUCCESS,
          "%s: numgpu_life_plan_create: %s", hname, last_error());
    for (k = 0; k < LDD * NA; k++)
        D[k] = 1;
    expect_invalid(numgpu_dlife_mw(h, p, D, NT - 1, w, 0.0, y, LDY), m, 4, "ldd", y[0] == -7, hname, "ldd < ntheta");
    expect_invalid(numgpu_dlife_mw(h, p, D, LDD, NULL, 0.0, y, LDY), m, 5, "w", y[0] == -7, hname, "NULL w");
    expect_invalid(numgpu_dlife_sbbnnls(h, p, D, LDD, y, LDY, w, -1, 0.0, NULL, NULL), "numgpu_dlife_sbbnnls", 8,
                   "max_iters", w[0] == 1, hname, "max_iters < 0");
    /* MATLAB's sparse-tensor layout: subs nnz x 3, column-major, 1-based. */
    {
        double subs[3 * NNZ];
        numgpu_life_plan *ps = NULL;
        for (k = 0; k < NNZ; k++) {
            subs[k] = ATOMS[k];
            subs[NNZ + k] = VOXELS[k];
            subs[2 * NNZ + k] = FIBERS[k];
        }
        check(numgpu_life_plan_create_subs(h, NT, NA, NV, NF, NNZ, subs, VALUES, &ps) == NUMGPU_SUCCESS &&
                  numgpu_life_plan_destroy(ps) == NUMGPU_SUCCESS,
              "%s: numgpu_life_plan_create_subs: %s", hname, last_error());
        subs[NNZ + 2] = 2.5;
        q = (numgpu_life_plan *)(uintptr_t)0x40;
        expect_invalid(numgpu_life_plan_create_subs(h, NT, NA, NV, NF, NNZ, subs, VALUES, &q),
                       "numgpu_life_plan_create_subs", 7, "subs[11]", q == (numgpu_life_plan *)(uintptr_t)0x40, hname,
                       "a fractional voxel subscript");
    }
    check(numgpu_life_plan_destroy(NULL) == NUMGPU_SUCCESS, "%s: numgpu_life_plan_destroy(NULL) is not a no-op", hname);
    check(numgpu_life_plan_destroy(p) == NUMGPU_SUCCESS, "%s: numgpu_life_plan_destroy: %s", hname, last_error());
    expect_invalid(numgpu_life_plan_destroy(p), "numgpu_life_plan_destroy", 1, "not a live plan", 1, hname,
                   "a second destroy");
}

int main(void)
{
    return run_program("test_life", argument_checks, products);
}
