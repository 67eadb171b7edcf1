// test_complex_cpp: numgpu.h from C++ with std::complex (issue 25): numgpu_complex_float and
// numgpu_complex_double defined as std::complex<float> and std::complex<double> before the
// include, as a LAPACKE user defines lapack_complex_double; complex scalars by value and
// arrays as they are, no cast; the enums as C++ types (numgpu_op, numgpu_backend). zgemm and
// cgemm against loops, on a CPU handle. Built with -std=c++17 -Wall -Wextra -Werror -pedantic.
//
// Prints "test_complex_cpp: N passed, M failed"; the exit status is non-zero on any failure.
#include <complex>
#define numgpu_complex_float std::complex<float>
#define numgpu_complex_double std::complex<double>
#include "numgpu.h"

#include <cmath>
#include <cstdio>

static int passed = 0, failed = 0;

static void check(bool ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        std::printf("FAIL: %s\n", what);
    }
}

// C = alpha op(A) B + beta C of n x n matrices, column-major, against a loop; the largest
// difference relative to the largest product.
template <typename T>
static double gemm_error(numgpu_status (*f)(numgpu_handle *, numgpu_op, numgpu_op, int64_t, int64_t, int64_t, T, const T *,
                                            int64_t, int64_t, const T *, int64_t, int64_t, T, T *, int64_t, int64_t,
                                            int64_t),
                         numgpu_handle *h, bool conj, numgpu_status *st)
{
    const int n = 3;
    T a[n * n], b[n * n], c[n * n], want[n * n];
    const T alpha(0.5, -1.5), beta(2.0, 0.25);
    for (int e = 0; e < n * n; e++) {
        a[e] = T(0.25 * e - 1, 0.5 - 0.125 * e);
        b[e] = T(1 - 0.5 * (e % 4), 0.375 * e);
        c[e] = want[e] = T(e % 3, -1);
    }
    double scale = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            T s(0, 0);
            for (int k = 0; k < n; k++)
                s += (conj ? std::conj(a[k + n * i]) : a[i + n * k]) * b[k + n * j];
            want[i + n * j] = alpha * s + beta * want[i + n * j];
            scale = std::fmax(scale, std::abs(want[i + n * j]));
        }
    *st = f(h, conj ? NUMGPU_OP_C : NUMGPU_OP_N, NUMGPU_OP_N, n, n, n, alpha, a, n, n * n, b, n, n * n, beta, c, n, n * n, 1);
    double worst = 0;
    for (int e = 0; e < n * n; e++)
        worst = std::fmax(worst, std::abs(c[e] - want[e]) / scale);
    return worst;
}

int main()
{
    numgpu_handle *h = nullptr;
    numgpu_backend backend = NUMGPU_BACKEND_CPU;
    check(numgpu_create_with(&h, backend, 0) == NUMGPU_SUCCESS, "numgpu_create_with(CPU)");
    if (h == nullptr)
        return 1;
    numgpu_status st = NUMGPU_INTERNAL_ERROR;
    double e = gemm_error<std::complex<double>>(numgpu_zgemm_batched_strided, h, false, &st);
    check(st == NUMGPU_SUCCESS && e <= 32 * 2.3e-16, "numgpu_zgemm_batched_strided with std::complex<double>");
    e = gemm_error<std::complex<float>>(numgpu_cgemm_batched_strided, h, true, &st);
    check(st == NUMGPU_SUCCESS && e <= 32 * 1.2e-7, "numgpu_cgemm_batched_strided (op C) with std::complex<float>");
    numgpu_backend got = NUMGPU_BACKEND_AUTO;
    check(numgpu_get_backend(h, &got) == NUMGPU_SUCCESS && got == NUMGPU_BACKEND_CPU, "numgpu_get_backend into a numgpu_backend");
    check(numgpu_destroy(h) == NUMGPU_SUCCESS, "numgpu_destroy");
    std::printf("test_complex_cpp: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
