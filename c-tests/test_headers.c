/* test_headers: numgpu.h in a translation unit that a LAPACK user already has, which includes
 * the system's <complex.h>, <cblas.h> and <lapacke.h>: the headers must compile together
 * (with -std=c99 -Wall -Wextra -Werror -pedantic), and C99 complex arrays must go through
 * numgpu unchanged, because numgpu_complex_float/double are layout-compatible with
 * float/double _Complex.
 *
 * Prints "test_headers: N passed, M failed"; the exit status is non-zero on any failure.
 */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>

#include <cblas.h>
#include <lapacke.h>

#include "numgpu.h"

/* C99 has no static_assert: a negative array size fails the compilation instead. */
#define STATIC_CHECK(name, cond) typedef char name[(cond) ? 1 : -1]
STATIC_CHECK(complex_float_size, sizeof(numgpu_complex_float) == sizeof(float _Complex));
STATIC_CHECK(complex_double_size, sizeof(numgpu_complex_double) == sizeof(double _Complex));
STATIC_CHECK(complex_float_lapacke, sizeof(numgpu_complex_float) == sizeof(lapack_complex_float));
STATIC_CHECK(status_is_int32, sizeof(numgpu_status) == sizeof(int32_t));

int main(void)
{
    /* C = alpha A B with C99 complex arrays, against cblas_zgemm on the same arrays. */
    double _Complex a[4] = {1.0 + 2.0 * I, -0.5 + 0.25 * I, 3.0 - 1.0 * I, 0.5 * I};
    double _Complex b[4] = {2.0 - 1.0 * I, 1.0, -1.0 + 1.0 * I, 0.25 - 2.0 * I};
    double _Complex c[4], ref[4], alpha = 0.5 - 1.5 * I, beta = 0.0;
    numgpu_complex_double na = {creal(alpha), cimag(alpha)}, nb = {0.0, 0.0};
    numgpu_handle *h = NULL;
    int passed = 0, failed = 0, i;
    numgpu_status st;

    if (numgpu_create_with(&h, NUMGPU_BACKEND_CPU, 0) != NUMGPU_SUCCESS) {
        printf("test_headers: 0 passed, 1 failed (no CPU handle)\n");
        return EXIT_FAILURE;
    }
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, 2, 2, 2, &alpha, a, 2, b, 2, &beta, ref, 2);
    st = numgpu_zgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_C, 2, 2, 2, na, (const numgpu_complex_double *)a,
                                      2, 4, (const numgpu_complex_double *)b, 2, 4, nb,
                                      (numgpu_complex_double *)c, 2, 4, 1);
    if (st == NUMGPU_SUCCESS)
        passed++;
    else
        failed++, printf("FAIL: numgpu_zgemm_batched_strided on double _Complex arrays: status %d\n", (int)st);
    for (i = 0; st == NUMGPU_SUCCESS && i < 4; i++) {
        if (cabs(c[i] - ref[i]) <= 1e-14 * 8.0)
            passed++;
        else
            failed++, printf("FAIL: element %d: numgpu %g%+gi, cblas %g%+gi\n", i, creal(c[i]), cimag(c[i]),
                             creal(ref[i]), cimag(ref[i]));
    }
    numgpu_destroy(h);
    printf("test_headers: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
