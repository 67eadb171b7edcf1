/* test_headers: numgpu.h in a translation unit that a LAPACK user already has, which includes
 * the system's <complex.h>, <cblas.h> and <lapacke.h> first: the headers must compile together
 * (with -std=c99 -Wall -Wextra -Werror -pedantic), and C99 complex arrays must go through
 * numgpu unchanged, because numgpu_complex_float/double are layout-compatible with
 * float/double _Complex (numgpu_test.h checks the layouts at compile time) and with LAPACKE's
 * complex types.
 *
 * Prints "test_headers: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include <complex.h>

#include <cblas.h>
#include <lapacke.h>

#include "numgpu_test.h"

STATIC_CHECK(complex_float_lapacke, sizeof(numgpu_complex_float) == sizeof(lapack_complex_float));
STATIC_CHECK(complex_double_lapacke, sizeof(numgpu_complex_double) == sizeof(lapack_complex_double));

int main(void)
{
    /* C = alpha A B^H with C99 complex arrays, against cblas_zgemm on the same arrays. */
    double _Complex a[4] = {1.0 + 2.0 * I, -0.5 + 0.25 * I, 3.0 - 1.0 * I, 0.5 * I};
    double _Complex b[4] = {2.0 - 1.0 * I, 1.0, -1.0 + 1.0 * I, 0.25 - 2.0 * I};
    double _Complex c[4], ref[4], alpha = 0.5 - 1.5 * I, beta = 0.0;
    numgpu_complex_double na = {creal(alpha), cimag(alpha)}, nb = {0.0, 0.0};
    numgpu_handle *h = NULL;
    numgpu_status st;
    int i;

    st = numgpu_create_with(&h, NUMGPU_BACKEND_CPU, 0);
    check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): status %d (%s)", (int)st, last_error());
    if (h == NULL)
        return finish("test_headers");
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, 2, 2, 2, &alpha, a, 2, b, 2, &beta, ref, 2);
    st = numgpu_zgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_C, 2, 2, 2, na, (const numgpu_complex_double *)a,
                                      2, 4, (const numgpu_complex_double *)b, 2, 4, nb,
                                      (numgpu_complex_double *)c, 2, 4, 1);
    check(st == NUMGPU_SUCCESS, "numgpu_zgemm_batched_strided on double _Complex arrays: status %d", (int)st);
    for (i = 0; st == NUMGPU_SUCCESS && i < 4; i++)
        check(cabs(c[i] - ref[i]) <= 1e-14 * 8.0, "element %d: numgpu %g%+gi, cblas %g%+gi", i, creal(c[i]),
              cimag(c[i]), creal(ref[i]), cimag(ref[i]));
    numgpu_destroy(h);
    return finish("test_headers");
}
