/* The batches, slices, checks and reports that examples/c/multi_gpu.c and
 * examples/c/mpi_batch.c share (see batches.h). */
#define _POSIX_C_SOURCE 200809L
#include "batches.h"

#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const NAMES[BATCH_ROUTINES] = {"dgemm", "dgetrf_fullpivot", "rkc_brusselator"};

const char *batch_routine_name(int routine)
{
    return routine >= 0 && routine < BATCH_ROUTINES ? NAMES[routine] : "?";
}

static void add(batch *b, const char *name, size_t per, size_t shared, int in, int out)
{
    batch_array a = {name, per, shared, in, out};
    b->arr[b->narrays++] = a;
}

int batch_init(batch *b, int routine, int64_t n, int64_t count)
{
    size_t d = sizeof(double), i = sizeof(int32_t);
    memset(b, 0, sizeof *b);
    b->routine = routine;
    b->n = n;
    b->count = count;
    if (n < 1 || n > 1024 || count < 0) return -1;
    size_t nn = (size_t)n * (size_t)n;
    switch (routine) {
    case BATCH_GEMM: /* C = A·B + 0.5·C, every matrix n × n */
        add(b, "A", nn * d, 0, 1, 0);
        add(b, "B", nn * d, 0, 1, 0);
        add(b, "C", nn * d, 0, 1, 1);
        return 0;
    case BATCH_GETRF: /* A = P·L·U·Q in place, pivots and info out */
        add(b, "A", nn * d, 0, 1, 1);
        add(b, "ipiv", (size_t)n * i, 0, 0, 1);
        add(b, "jpiv", (size_t)n * i, 0, 0, 1);
        add(b, "info", i, 0, 0, 1);
        return 0;
    case BATCH_RKC: /* y(0) -> y(1) in place; parameters A, B, alpha per system; one atol */
        if (n % 2) return -1;
        add(b, "Y", (size_t)n * d, 0, 1, 1);
        add(b, "P", 3 * d, 0, 1, 0);
        add(b, "atol", 0, d, 1, 0);
        add(b, "status", i, 0, 0, 1);
        return 0;
    }
    return -1;
}

size_t batch_bytes(const batch *b, int k, int64_t count)
{
    if (!b->arr[k].per) return b->arr[k].shared; /* an empty slice has it too (MPI_Bcast) */
    return count > 0 ? b->arr[k].per * (size_t)count : 0;
}

size_t batch_total_bytes(const batch *b, int64_t count)
{
    size_t s = 0;
    for (int k = 0; k < b->narrays; k++) s += batch_bytes(b, k, count);
    return s;
}

int batch_host_alloc(const batch *b, int64_t count, batch_views *v)
{
    memset(v, 0, sizeof *v);
    for (int k = 0; k < b->narrays; k++) {
        size_t bytes = batch_bytes(b, k, count);
        if (bytes && !(v->p[k] = malloc(bytes))) {
            batch_host_free(b, v);
            return -1;
        }
    }
    return 0;
}

void batch_host_free(const batch *b, batch_views *v)
{
    for (int k = 0; k < b->narrays; k++) {
        free(v->p[k]);
        v->p[k] = NULL;
    }
}

batch_views batch_at(const batch *b, batch_views v, int64_t first)
{
    batch_views s = v;
    for (int k = 0; k < b->narrays; k++)
        if (b->arr[k].per && v.p[k]) s.p[k] = (char *)v.p[k] + b->arr[k].per * (size_t)first;
    return s;
}

/* splitmix64: a problem's inputs depend on its index only. */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform in [-1, 1), element e of array `stream`. */
static double uniform(uint64_t stream, uint64_t e)
{
    return (double)(mix(mix(stream) ^ e) >> 11) * 0x1.0p-52 - 1.0;
}

void batch_fill(const batch *b, batch_views v, int64_t first, int64_t count)
{
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < b->narrays; k++) {
        const batch_array *a = &b->arr[k];
        if (!a->in || !v.p[k]) continue;
        double *x = v.p[k];
        if (!a->per) { /* rkc's atol */
            x[0] = 1e-6;
            continue;
        }
        size_t m = a->per / sizeof(double);
        for (int64_t i = 0; i < count; i++) {
            uint64_t g = (uint64_t)(first + i);
            double *p = x + m * (size_t)i;
            if (b->routine != BATCH_RKC) {
                for (size_t e = 0; e < m; e++) p[e] = uniform((uint64_t)k, g * m + e);
            } else if (k == 1) { /* P: Brusselator A = 1, B = 3, alpha ±25% of 1/50 */
                p[0] = 1.0;
                p[1] = 3.0;
                p[2] = 0.02 * (1.0 + 0.25 * uniform(7, g));
            } else { /* u = 1 + sin(2πx), v = 3 on the grid */
                for (size_t e = 0; e < m; e++) p[e] = e % 2 ? 3.0 : 1.0 + sin(2.0 * pi * (double)(e / 2 + 1) / (double)(m / 2 + 1));
            }
        }
    }
    batch_poison(b, v, count);
}

void batch_poison(const batch *b, batch_views v, int64_t count)
{
    for (int k = 0; k < b->narrays; k++)
        if (!b->arr[k].in && v.p[k]) memset(v.p[k], 0xFF, batch_bytes(b, k, count));
}

static int selected(const batch_array *a, int which)
{
    if (which == BATCH_INOUT) return a->in && a->out;
    return ((which & BATCH_INPUTS) && a->in) || ((which & BATCH_OUTPUTS) && a->out);
}

void batch_host_copy(const batch *b, batch_views dst, batch_views src, int64_t count, int which)
{
    for (int k = 0; k < b->narrays; k++)
        if (selected(&b->arr[k], which) && dst.p[k] != src.p[k]) memcpy(dst.p[k], src.p[k], batch_bytes(b, k, count));
}

numgpu_status batch_ode(numgpu_handle *h, const batch *b, numgpu_ode **ode)
{
    *ode = NULL;
    return b->routine == BATCH_RKC ? numgpu_ode_builtin(h, NUMGPU_ODE_BRUSSELATOR, b->n, ode) : NUMGPU_SUCCESS;
}

numgpu_status batch_compute(numgpu_handle *h, numgpu_ode *ode, const batch *b, batch_views v, int64_t count)
{
    int64_t n = b->n, nn = n * n;
    numgpu_status s = NUMGPU_SUCCESS;
    if (count == 0) return s; /* an empty slice: nothing to do, and its views may be NULL */
    switch (b->routine) {
    case BATCH_GEMM:
        s = numgpu_dgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_N, n, n, n, 1.0, v.p[0], n, nn, v.p[1], n, nn, 0.5, v.p[2], n, nn, count);
        break;
    case BATCH_GETRF:
        s = numgpu_dgetrf_fullpivot_batched_strided(h, NUMGPU_FULLPIVOT_GETC2, n, v.p[0], n, nn, v.p[1], v.p[2], v.p[3], count);
        break;
    case BATCH_RKC:
        s = numgpu_rkc_integrate(h, ode, count, 1, 0.0, 1.0, v.p[0], n, NUMGPU_LAYOUT_SYSTEM_MAJOR, v.p[1], 3, 1e-6, v.p[2], NULL, NULL, v.p[3], NULL);
        break;
    default:
        return NUMGPU_INVALID_VALUE;
    }
    /* Device arrays were enqueued on h's stream: wait, so that the time is the work's. */
    return s != NUMGPU_SUCCESS ? s : numgpu_synchronize(h);
}

numgpu_status batch_device_alloc(numgpu_handle *h, const batch *b, int64_t count, batch_views *dev)
{
    memset(dev, 0, sizeof *dev);
    for (int k = 0; k < b->narrays; k++) {
        numgpu_status s = numgpu_malloc(h, &dev->p[k], batch_bytes(b, k, count));
        if (s != NUMGPU_SUCCESS) {
            batch_device_free(h, b, dev);
            return s;
        }
    }
    return NUMGPU_SUCCESS;
}

void batch_device_free(numgpu_handle *h, const batch *b, batch_views *dev)
{
    for (int k = 0; k < b->narrays; k++) {
        numgpu_free(h, dev->p[k]);
        dev->p[k] = NULL;
    }
}

numgpu_status batch_device_copy(numgpu_handle *h, const batch *b, batch_views dst, batch_views src, int64_t count, int which)
{
    for (int k = 0; k < b->narrays; k++) {
        if (!selected(&b->arr[k], which)) continue;
        numgpu_status s = numgpu_memcpy(h, dst.p[k], src.p[k], batch_bytes(b, k, count));
        if (s != NUMGPU_SUCCESS) return s;
    }
    return NUMGPU_SUCCESS;
}

int64_t batch_differences(const batch *b, batch_views x, batch_views y, int64_t count, int64_t *first)
{
    int64_t bad = 0;
    *first = -1;
    for (int64_t i = 0; i < count; i++) {
        int differs = 0;
        for (int k = 0; k < b->narrays; k++) {
            const batch_array *a = &b->arr[k];
            if (a->out && memcmp((char *)x.p[k] + a->per * (size_t)i, (char *)y.p[k] + a->per * (size_t)i, a->per)) differs = 1;
        }
        if (differs && bad++ == 0) *first = i;
    }
    return bad;
}

/* C_i against A_i·B_i + 0.5·C0_i by a loop, elementwise within 2(n + 2)ε(|A||B| + 0.5|C0|). */
static int verify_gemm(int64_t n, const double *a, const double *b, const double *c0, const double *c, char *why, size_t len)
{
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0.5 * c0[i + j * n], bound = 0.5 * fabs(c0[i + j * n]);
            for (int64_t l = 0; l < n; l++) {
                s += a[i + l * n] * b[l + j * n];
                bound += fabs(a[i + l * n] * b[l + j * n]);
            }
            if (!(fabs(c[i + j * n] - s) <= 2.0 * (double)(n + 2) * DBL_EPSILON * bound)) {
                snprintf(why, len, "C(%lld,%lld) = %.17g, a loop gives %.17g", (long long)i, (long long)j, c[i + j * n], s);
                return -1;
            }
        }
    return 0;
}

/* P·L·U·Q rebuilt from the factors against A: max|A - PLUQ| <= 30·n·ε·max|A| (LAPACK's ratio). */
static int verify_getrf(int64_t n, const double *a, const double *lu, const int32_t *ipiv, const int32_t *jpiv, int32_t info, char *why, size_t len)
{
    double *m = malloc((size_t)(n * n) * sizeof *m), amax = 0, err = 0;
    if (!m) return snprintf(why, len, "out of memory"), -1;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t l = 0; l <= (i < j ? i : j); l++) s += (l == i ? 1.0 : lu[i + l * n]) * lu[l + j * n];
            m[i + j * n] = s;
        }
    int ok = info == 0;
    for (int64_t k = n - 2; k >= 0 && ok; k--) { /* A = P_1…P_(n-1)·LU·Q_(n-1)…Q_1 */
        int64_t r = ipiv[k] - 1, c = jpiv[k] - 1;
        ok = r >= k && r < n && c >= k && c < n;
        for (int64_t j = 0; ok && j < n; j++) {
            double t = m[k + j * n];
            m[k + j * n] = m[r + j * n];
            m[r + j * n] = t;
        }
        for (int64_t i = 0; ok && i < n; i++) {
            double t = m[i + k * n];
            m[i + k * n] = m[i + c * n];
            m[i + c * n] = t;
        }
    }
    for (int64_t e = 0; ok && e < n * n; e++) {
        amax = fmax(amax, fabs(a[e]));
        err = fmax(err, fabs(a[e] - m[e]));
    }
    free(m);
    if (ok && err <= 30.0 * (double)n * DBL_EPSILON * amax) return 0;
    if (ok) snprintf(why, len, "max|A - PLUQ| = %.3g, above 30·n·eps·max|A| = %.3g", err, 30.0 * (double)n * DBL_EPSILON * amax);
    else snprintf(why, len, "info = %d, or a pivot out of range", (int)info);
    return -1;
}

int batch_verify(const batch *b, batch_views in, batch_views out, int64_t count, char *why, size_t len)
{
    int64_t n = b->n, nn = n * n;
    char msg[200];
    if (b->routine == BATCH_RKC) { /* every system: status 0, y finite and moved from y(0) */
        const double *y0 = in.p[0], *y = out.p[0];
        const int32_t *status = out.p[3];
        for (int64_t i = 0; i < count; i++) {
            int moved = 0, finite = 1;
            for (int64_t e = i * n; e < (i + 1) * n; e++) {
                moved |= y[e] != y0[e];
                finite &= isfinite(y[e]) != 0;
            }
            if (status[i] != 0 || !moved || !finite) {
                snprintf(why, len, "system %lld: status %d, y %s", (long long)i, (int)status[i], !finite ? "not finite" : moved ? "moved" : "unchanged");
                return -1;
            }
        }
        return 0;
    }
    for (int s = 0; s < 8 && count > 0; s++) { /* the first, the last and six between */
        int64_t i = s * (count - 1) / 7, m = i * nn;
        int r = b->routine == BATCH_GEMM
                    ? verify_gemm(n, (double *)in.p[0] + m, (double *)in.p[1] + m, (double *)in.p[2] + m, (double *)out.p[2] + m, msg, sizeof msg)
                    : verify_getrf(n, (double *)in.p[0] + m, (double *)out.p[0] + m, (int32_t *)out.p[1] + i * n, (int32_t *)out.p[2] + i * n, ((int32_t *)out.p[3])[i], msg, sizeof msg);
        if (r) {
            snprintf(why, len, "problem %lld: %s", (long long)i, msg);
            return -1;
        }
    }
    return 0;
}

int batch_check(const batch *b, int reference, batch_views pristine, batch_views out, batch_views ref, batch_row *row, const char *program,
                const char *unit)
{
    char why[300] = "";
    int64_t diff = 0, at = -1;
    if (reference) batch_host_copy(b, ref, out, b->count, BATCH_OUTPUTS);
    else diff = batch_differences(b, out, ref, b->count, &at);
    row->identical = diff == 0;
    int wrong = batch_verify(b, pristine, out, b->count, why, sizeof why) != 0;
    const char *name = batch_routine_name(b->routine);
    if (wrong) fprintf(stderr, "%s: %s on %d %s(s), %s arrays: %s\n", program, name, row->parts, unit, row->arrays, why);
    if (diff)
        fprintf(stderr, "%s: %s on %d %s(s), %s arrays: %lld problems differ from the one-%s run, the first is %lld\n", program, name, row->parts, unit,
                row->arrays, (long long)diff, unit, (long long)at);
    return wrong + (diff != 0);
}

void batch_split(int64_t total, int parts, const double *weights, int64_t *first, int64_t *count)
{
    double sum = 0, cum = 0;
    for (int k = 0; k < parts; k++) sum += weights ? weights[k] : 1.0;
    int64_t start = 0;
    for (int k = 0; k < parts; k++) {
        cum += weights ? weights[k] : 1.0;
        int64_t end = k + 1 == parts ? total : (int64_t)((double)total * (cum / sum) + 0.5);
        if (end < start) end = start;
        if (end > total) end = total;
        first[k] = start;
        count[k] = end - start;
        start = end;
    }
}

double batch_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double batch_median(double *x, int n)
{
    if (n <= 0) return 0;
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

int batch_cuda_devices(char *name, size_t len)
{
    typedef int (*init_fn)(unsigned);
    typedef int (*count_fn)(int *);
    typedef int (*name_fn)(char *, int, int);
    init_fn init;
    count_fn count;
    name_fn dev_name;
    int n = 0;
    if (len) name[0] = 0;
    /* The driver, as numgpu itself finds it; never closed (numgpu keeps using it). */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    void *f[3] = {NULL, NULL, NULL};
    if (!lib || !(f[0] = dlsym(lib, "cuInit")) || !(f[1] = dlsym(lib, "cuDeviceGetCount")) || !(f[2] = dlsym(lib, "cuDeviceGetName"))) return 0;
    /* ISO C has no cast from an object pointer to a function pointer: copy the bits. */
    memcpy(&init, &f[0], sizeof init);
    memcpy(&count, &f[1], sizeof count);
    memcpy(&dev_name, &f[2], sizeof dev_name);
    if (init(0) != 0 || count(&n) != 0 || n < 0) return 0;
    if (n > 0 && len) dev_name(name, (int)len, 0); /* CUdevice of ordinal 0 is 0 */
    return n;
}

static int parse_list(const char *s, int64_t *out, int most)
{
    int k = 0;
    char *end;
    while (*s && k < most) {
        out[k++] = strtoll(s, &end, 10);
        if (end == s) return -1;
        s = *end == ',' ? end + 1 : end;
    }
    return *s ? -1 : k;
}

static void usage(FILE *f, const char *program, int mpi)
{
    const char *one = mpi ? "rank" : "device";
    fprintf(f,
            "usage: %s%s [--bench] [--backend auto|cpu|cuda] %s[--routines gemm,getrf,rkc]\n"
            "       [--gemm-n N] [--gemm-batch B] [--getrf-n N] [--getrf-batch B] [--rkc-neq N] [--rkc-systems S]\n"
            "       [--reps R] [--warmup W] [--log FILE]\n"
            "Computes each routine's batch on one %s and split over all, from host arrays and from device\n"
            "arrays, checks every result bitwise against the one-%s run and against the mathematics,\n"
            "and prints a table (--log FILE: JSON lines too). Defaults: the check's sizes (gemm n 32\n"
            "batch 1000, getrf n 16 batch 2000, rkc 32 equations 200 systems, 1 repetition), or with\n"
            "--bench sizes that fill a GPU (gemm batch 131072: 3.2 GB; getrf batch 1048576: 2.1 GB of matrices;\n"
            "10^6 systems; 5 repetitions after 1 warm-up). Backend auto: CUDA where the driver sees a device.\n",
            mpi ? "mpirun -np P " : "", program, mpi ? "" : "[--devices N] [--weights w1,w2,...] ", one, one);
    if (!mpi)
        fprintf(f, "--devices N: N handles, handle k on CUDA device k %% count (default: every device, at least 2);\n"
                   "--weights: the devices' shares of the batch (default: equal).\n");
}

int batch_parse(int argc, char **argv, const char *program, int mpi, batch_options *o)
{
    static const char *const sizes[] = {"--gemm-n", "--gemm-batch", "--getrf-n", "--getrf-batch", "--rkc-neq", "--rkc-systems"};
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) o->bench |= !strcmp(argv[i], "--bench");
    int64_t n[] = {32, 16, 32}, check[] = {1000, 2000, 200}, bench[] = {131072, 1048576, 1000000};
    for (int r = 0; r < BATCH_ROUTINES; r++) {
        o->want[r] = 1;
        o->n[r] = n[r];
        o->count[r] = o->bench ? bench[r] : check[r];
    }
    o->backend = NUMGPU_BACKEND_AUTO;
    o->reps = o->bench ? 5 : 1;
    o->warmup = o->bench ? 1 : 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t x[BATCH_MAX_PARTS];
        int k, size = -1;
        if (!strcmp(a, "--bench")) continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout, program, mpi);
            return 1;
        }
        for (k = 0; k < 6; k++)
            if (!strcmp(a, sizes[k])) size = k;
        if (!v) goto bad;
        i++;
        if (size >= 0) {
            if (parse_list(v, x, 1) != 1 || x[0] < 0) goto bad;
            if (size % 2) o->count[size / 2] = x[0];
            else o->n[size / 2] = x[0];
        } else if (!strcmp(a, "--backend")) {
            if (!strcmp(v, "auto")) o->backend = NUMGPU_BACKEND_AUTO;
            else if (!strcmp(v, "cpu")) o->backend = NUMGPU_BACKEND_CPU;
            else if (!strcmp(v, "cuda")) o->backend = NUMGPU_BACKEND_CUDA;
            else goto bad;
        } else if (!strcmp(a, "--devices") && !mpi) {
            if (parse_list(v, x, 1) != 1 || x[0] < 1 || x[0] > BATCH_MAX_PARTS) goto bad;
            o->parts = (int)x[0];
        } else if (!strcmp(a, "--weights") && !mpi) {
            char *end;
            for (o->nweights = 0; *v && o->nweights < BATCH_MAX_PARTS; v = *end == ',' ? end + 1 : end) {
                o->weights[o->nweights] = strtod(v, &end);
                if (end == v || !(o->weights[o->nweights++] > 0)) goto bad;
            }
            if (*v) goto bad;
        } else if (!strcmp(a, "--reps") || !strcmp(a, "--warmup")) {
            if (parse_list(v, x, 1) != 1 || x[0] < (a[2] == 'r') || x[0] > 1000) goto bad;
            *(a[2] == 'r' ? &o->reps : &o->warmup) = (int)x[0];
        } else if (!strcmp(a, "--routines")) {
            memset(o->want, 0, sizeof o->want);
            for (const char *s = v; *s;) {
                size_t l = strcspn(s, ",");
                if (!strncmp(s, "gemm", l) && l == 4) o->want[BATCH_GEMM] = 1;
                else if (!strncmp(s, "getrf", l) && l == 5) o->want[BATCH_GETRF] = 1;
                else if (!strncmp(s, "rkc", l) && l == 3) o->want[BATCH_RKC] = 1;
                else goto bad;
                s += l + (s[l] == ',');
            }
        } else if (!strcmp(a, "--log")) {
            o->log = v;
        } else {
            goto bad;
        }
        continue;
    bad:
        fprintf(stderr, "%s: bad option %s%s%s\n", program, a, v ? " " : "", v ? v : "");
        usage(stderr, program, mpi);
        return -1;
    }
    if (o->nweights && o->parts && o->nweights != o->parts) {
        fprintf(stderr, "%s: --weights gives %d shares for %d devices\n", program, o->nweights, o->parts);
        return -1;
    }
    return 0;
}

double batch_row_total(const batch_row *r)
{
    return r->scatter + r->compute + r->gather;
}

/* The row of the same routine and arrays on one part, if any. */
static const batch_row *baseline(const batch_row *r, const batch_row *rows, int nrows)
{
    for (int k = 0; k < nrows; k++)
        if (rows[k].routine == r->routine && rows[k].parts == 1 && !strcmp(rows[k].arrays, r->arrays)) return &rows[k];
    return NULL;
}

void batch_table(FILE *f, const char *parts_name, const batch_row *rows, int nrows)
{
    fprintf(f, "%-17s %5s %9s %7s %-6s %7s %10s %10s %10s %10s %8s %8s %9s\n", "routine", "n", "problems", "GB", "arrays", parts_name, "scatter ms",
            "compute ms", "gather ms", "total ms", "speed-up", "staging", "identical");
    for (int k = 0; k < nrows; k++) {
        const batch_row *r = &rows[k], *one = baseline(r, rows, nrows);
        double t = batch_row_total(r);
        fprintf(f, "%-17s %5lld %9lld %7.3f %-6s %7d %10.3f %10.3f %10.3f %10.3f %7.2fx %7.1f%% %9s\n", batch_routine_name(r->routine), (long long)r->n,
                (long long)r->count, (double)r->bytes / 1e9, r->arrays, r->parts, 1e3 * r->scatter, 1e3 * r->compute, 1e3 * r->gather, 1e3 * t,
                one && t > 0 ? batch_row_total(one) / t : 0.0, t > 0 ? 100.0 * (r->scatter + r->gather) / t : 0.0, r->identical ? "yes" : "NO");
    }
}

int batch_log(const char *path, const char *program, const char *backend, const char *device, const batch_row *rows, int nrows)
{
    FILE *f = fopen(path, "a");
    if (!f) return -1;
    for (int k = 0; k < nrows; k++) {
        const batch_row *r = &rows[k], *one = baseline(r, rows, nrows);
        double t = batch_row_total(r);
        fprintf(f,
                "{\"program\": \"%s\", \"backend\": \"%s\", \"device\": \"%s\", \"routine\": \"%s\", \"n\": %lld, \"problems\": %lld, \"bytes\": %zu, "
                "\"arrays\": \"%s\", \"parts\": %d, \"scatter_s\": %.6e, \"compute_s\": %.6e, \"gather_s\": %.6e, \"total_s\": %.6e, "
                "\"speedup\": %.4f, \"staging_share\": %.4f, \"identical\": %s}\n",
                program, backend, device, batch_routine_name(r->routine), (long long)r->n, (long long)r->count, r->bytes, r->arrays, r->parts, r->scatter,
                r->compute, r->gather, t, one && t > 0 ? batch_row_total(one) / t : 0.0, t > 0 ? (r->scatter + r->gather) / t : 0.0,
                r->identical ? "true" : "false");
    }
    return fclose(f) ? -1 : 0;
}
