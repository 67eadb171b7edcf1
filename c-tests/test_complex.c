/* test_complex: numgpu.h with LAPACKE-style override macros for its complex types (issue 25).
 * This program defines numgpu_complex_float and numgpu_complex_double as C99's float _Complex
 * and double _Complex before including numgpu.h, as a LAPACKE user defines
 * lapack_complex_double, and passes C99 complex scalars by value and complex arrays as they
 * are, with no cast: cgemm and zgemm (scalars and arrays), zcsrmv (scalars by value on a
 * sparse product) and cgetrf/cgetrs (arrays only), against cblas and loops in C99 complex
 * arithmetic, on a CPU handle.
 *
 * Prints "test_complex: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include <complex.h>
#define numgpu_complex_float float _Complex
#define numgpu_complex_double double _Complex

#include "numgpu_test.h"

/* C = alpha A B + beta C of 2 x 2 matrices (column-major) through numgpu and cblas. */
static void gemm(numgpu_handle *h)
{
    double _Complex a[4] = {1.0 + 2.0 * I, -0.5 + 0.25 * I, 3.0 - 1.0 * I, 0.5 * I};
    double _Complex b[4] = {2.0 - 1.0 * I, 1.0, -1.0 + 1.0 * I, 0.25 - 2.0 * I};
    double _Complex c[4] = {1, I, -1, -I}, ref[4] = {1, I, -1, -I}, alpha = 0.5 - 1.5 * I, beta = 2.0 + 0.5 * I;
    float _Complex af[4], bf[4], cf[4], reff[4], alphaf = 0.5f - 1.5f * I, betaf = 2.0f + 0.5f * I;
    numgpu_status st;
    int i;
    for (i = 0; i < 4; i++) {
        af[i] = (float _Complex)a[i];
        bf[i] = (float _Complex)b[i];
        cf[i] = reff[i] = (float _Complex)c[i];
    }
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, &alpha, a, 2, b, 2, &beta, ref, 2);
    st = numgpu_zgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_N, 2, 2, 2, alpha, a, 2, 4, b, 2, 4, beta, c, 2, 4, 1);
    check(st == NUMGPU_SUCCESS, "numgpu_zgemm_batched_strided with double _Complex: status %d (%s)", (int)st, last_error());
    for (i = 0; st == NUMGPU_SUCCESS && i < 4; i++)
        check(c[i] == ref[i], "zgemm element %d: numgpu %g%+gi, cblas %g%+gi", i, creal(c[i]), cimag(c[i]), creal(ref[i]),
              cimag(ref[i]));
    cblas_cgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, 2, 2, 2, &alphaf, af, 2, bf, 2, &betaf, reff, 2);
    st = numgpu_cgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_C, 2, 2, 2, alphaf, af, 2, 4, bf, 2, 4, betaf, cf, 2, 4, 1);
    check(st == NUMGPU_SUCCESS, "numgpu_cgemm_batched_strided with float _Complex: status %d (%s)", (int)st, last_error());
    for (i = 0; st == NUMGPU_SUCCESS && i < 4; i++)
        check(cf[i] == reff[i], "cgemm element %d: numgpu %g%+gi, cblas %g%+gi", i, crealf(cf[i]), cimagf(cf[i]),
              crealf(reff[i]), cimagf(reff[i]));
}

/* y = alpha A x + beta y with a 3 x 3 CSR matrix, against the sums written out. */
static void csrmv(numgpu_handle *h)
{
    static const int32_t rp[4] = {0, 2, 3, 5}, ci[5] = {0, 2, 1, 0, 2};
    double _Complex val[5] = {1 + I, 2, -I, 0.5, 3 - 2 * I}, x[3] = {1, I, -1 + I}, y[3] = {1, 2, 3 * I};
    double _Complex alpha = 2 - I, beta = 0.5 * I, want[3];
    numgpu_status st;
    int i;
    want[0] = alpha * (val[0] * x[0] + val[1] * x[2]) + beta * y[0];
    want[1] = alpha * (val[2] * x[1]) + beta * y[1];
    want[2] = alpha * (val[3] * x[0] + val[4] * x[2]) + beta * y[2];
    st = numgpu_zcsrmv(h, NUMGPU_OP_N, 3, 3, 5, alpha, val, rp, ci, NUMGPU_INDEX_BASE_ZERO, x, beta, y);
    check(st == NUMGPU_SUCCESS, "numgpu_zcsrmv with double _Complex scalars: status %d (%s)", (int)st, last_error());
    for (i = 0; st == NUMGPU_SUCCESS && i < 3; i++)
        check(cabs(y[i] - want[i]) <= 1e-15 * 16, "zcsrmv row %d: %g%+gi, want %g%+gi", i, creal(y[i]), cimag(y[i]),
              creal(want[i]), cimag(want[i]));
}

/* A = P L U Q and A x = b on float _Complex arrays: the residual of the solve. */
static void getrf(numgpu_handle *h)
{
    float _Complex a[9] = {2 + I, 1, -I, 0.5f, 3 - I, 1, I, -1, 4}, lu[9], b[3] = {1, I, 2 - I}, x[3];
    int32_t ipiv[3], jpiv[3], info = -7;
    numgpu_status st;
    float worst = 0;
    int i, k;
    memcpy(lu, a, sizeof a);
    memcpy(x, b, sizeof b);
    st = numgpu_cgetrf_fullpivot_batched_strided(h, NUMGPU_FULLPIVOT_STRICT, 3, lu, 3, 9, ipiv, jpiv, &info, 1);
    check(st == NUMGPU_SUCCESS && info == 0, "numgpu_cgetrf_fullpivot_batched_strided on float _Complex: status %d, info %d",
          (int)st, (int)info);
    st = numgpu_cgetrs_fullpivot_batched_strided(h, NUMGPU_OP_N, 3, 1, lu, 3, 9, ipiv, jpiv, x, 3, 3, 1);
    check(st == NUMGPU_SUCCESS, "numgpu_cgetrs_fullpivot_batched_strided: status %d (%s)", (int)st, last_error());
    for (i = 0; i < 3; i++) {
        float _Complex r = b[i];
        for (k = 0; k < 3; k++)
            r -= a[i + 3 * k] * x[k];
        worst = fmaxf(worst, cabsf(r));
    }
    check(worst <= 30 * 3 * 1.2e-7f * 8, "cgetrf/cgetrs residual %g", worst);
}

int main(void)
{
    numgpu_handle *h = NULL;
    numgpu_status st = numgpu_create_with(&h, NUMGPU_BACKEND_CPU, 0);
    check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): status %d (%s)", (int)st, last_error());
    if (h == NULL)
        return finish("test_complex");
    gemm(h);
    csrmv(h);
    getrf(h);
    numgpu_destroy(h);
    return finish("test_complex");
}
