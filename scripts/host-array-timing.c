/* Host-array call times of numgpu's CUDA backend: the cost of staging (pack, copy in,
 * launch, copy out, unpack) on 10^5 small problems, for gemm, getrf and gtsv.
 *
 * Built against include/numgpu.h and run with any libnumgpu.so of the same ABI, so that one
 * run on a GPU host times two builds of the library (issue 15: before and after the staging
 * engine):
 *
 *   cc -O2 -Iinclude scripts/host-array-timing.c -o timing -L<lib dir> -lnumgpu
 *   LD_LIBRARY_PATH=<lib dir> ./timing <label>
 *
 * Prints one line per case: label, routine, sizes, median and best of 15 calls after 3
 * warm-up calls (ms), and the bytes a call moves each way over PCIe per second of median. */
#include "numgpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BATCH 100000
#define WARM 3
#define REPS 15

static const char *last_error(void) {
    static char buf[512];
    numgpu_last_error(buf, sizeof buf);
    return buf;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double *random_array(size_t len, double shift) {
    double *p = malloc(len * sizeof(double));
    for (size_t i = 0; i < len; ++i) p[i] = (double)rand() / RAND_MAX - 0.5 + shift;
    return p;
}

typedef numgpu_status (*call_fn)(void *ctx);

static void report(const char *label, const char *what, call_fn f, void *ctx, double bytes) {
    double t[REPS];
    for (int i = 0; i < WARM; ++i)
        if (f(ctx) != NUMGPU_SUCCESS) {
            printf("%s %s FAILED: %s\n", label, what, last_error());
            return;
        }
    for (int i = 0; i < REPS; ++i) {
        double t0 = now();
        f(ctx);
        t[i] = now() - t0;
    }
    qsort(t, REPS, sizeof(double), cmp);
    printf("%-8s %-34s median %8.2f ms  best %8.2f ms  %6.2f GB/s\n", label, what, 1e3 * t[REPS / 2], 1e3 * t[0], bytes / t[REPS / 2] / 1e9);
    fflush(stdout);
}

struct gemm { numgpu_handle *h; int64_t n; double *A, *B, *C; };
static numgpu_status run_gemm(void *p) {
    struct gemm *g = p;
    int64_t s = g->n * g->n;
    return numgpu_dgemm_batched_strided(g->h, NUMGPU_OP_N, NUMGPU_OP_N, g->n, g->n, g->n, 1.0, g->A, g->n, s, g->B, g->n, s, 0.5, g->C, g->n, s, BATCH);
}

struct getrf { numgpu_handle *h; int64_t n; double *A0, *A; int32_t *ipiv, *jpiv, *info; };
static numgpu_status run_getrf(void *p) {
    struct getrf *g = p;
    return numgpu_dgetrf_fullpivot_batched_strided(g->h, NUMGPU_FULLPIVOT_GETC2, g->n, g->A, g->n, g->n * g->n, g->ipiv, g->jpiv, g->info, BATCH);
}

struct gtsv { numgpu_handle *h; int64_t n; double *dl, *d, *du, *B; int32_t *info; };
static numgpu_status run_gtsv(void *p) {
    struct gtsv *g = p;
    return numgpu_dgtsv_batched_strided(g->h, NUMGPU_GTSV_DIAG_PIVOT, g->n, 1, g->dl, g->d, g->du, g->n, g->B, g->n, g->n, g->info, BATCH);
}

int main(int argc, char **argv) {
    const char *label = argc > 1 ? argv[1] : "numgpu";
    numgpu_handle *h;
    if (numgpu_create_with(&h, NUMGPU_BACKEND_CUDA, 0) != NUMGPU_SUCCESS) {
        printf("%s: no CUDA handle: %s\n", label, last_error());
        return 1;
    }
    char what[64];
    for (int64_t n = 4; n <= 16; n *= 2) {
        size_t len = (size_t)(n * n) * BATCH;
        struct gemm g = { h, n, random_array(len, 0), random_array(len, 0), random_array(len, 0) };
        snprintf(what, sizeof what, "dgemm NN %lldx%lldx%lld batch 1e5", (long long)n, (long long)n, (long long)n);
        report(label, what, run_gemm, &g, 3.0 * len * sizeof(double));
        free(g.A), free(g.B), free(g.C);
    }
    for (int64_t n = 4; n <= 16; n *= 2) {
        size_t len = (size_t)(n * n) * BATCH;
        /* Factors in place: each call refactors the previous call's factors, which are as
         * good a matrix to time as any (full pivoting never fails). */
        struct getrf g = { h, n, NULL, random_array(len, 0), malloc(n * BATCH * 4), malloc(n * BATCH * 4), malloc(BATCH * 4) };
        snprintf(what, sizeof what, "dgetrf fullpivot n %lld batch 1e5", (long long)n);
        report(label, what, run_getrf, &g, 2.0 * len * sizeof(double));
        free(g.A), free(g.ipiv), free(g.jpiv), free(g.info);
    }
    for (int64_t n = 16; n <= 64; n *= 4) {
        size_t len = (size_t)n * BATCH;
        struct gtsv g = { h, n, random_array(len, 0), random_array(len, 4.0), random_array(len, 0), random_array(len, 0), malloc(BATCH * 4) };
        snprintf(what, sizeof what, "dgtsv strided n %lld batch 1e5", (long long)n);
        report(label, what, run_gtsv, &g, 5.0 * len * sizeof(double));
        free(g.dl), free(g.d), free(g.du), free(g.B), free(g.info);
    }
    numgpu_destroy(h);
    return 0;
}
