/* Several GPUs in one process with numgpu (docs/multi-gpu.md).
 *
 * The problems of a batch are independent, so a batch spreads over devices without any new
 * engine: one numgpu handle per device, each used by its own thread (a handle is used by one
 * thread at a time; threads with their own handles run concurrently), the batch split into
 * contiguous slices by the devices' shares, each slice computed on its device, the results
 * gathered into the caller's arrays.
 *
 *   - host arrays: each thread passes its slice of the caller's arrays; numgpu stages it
 *     through its device and writes the results in place (the gather is free);
 *   - device arrays: each device holds its slice in its own memory (numgpu_malloc on its
 *     handle): scatter (numgpu_memcpy in), compute, gather (numgpu_memcpy out).
 *
 * For numgpu_dgemm_batched_strided (n = 32), numgpu_dgetrf_fullpivot_batched_strided (n = 16)
 * and numgpu_rkc_integrate (Brusselator systems), each batch runs on one device and split
 * over all of them, from host arrays and from device arrays; every result is compared
 * bitwise with the one-device run (each problem is computed the same way wherever it runs)
 * and checked against the mathematics on a sample. --bench takes sizes that fill a GPU,
 * repeats, prints a table and appends JSON lines to --log.
 *
 * Without a GPU it runs on CPU handles (two of them by default: the split and the gather are
 * the same code), on one GPU with two handles on device 0.
 *
 * Build: cc -std=c99 -O2 -pthread multi_gpu.c batches.c -lnumgpu -lm -ldl
 * Run:   ./multi_gpu [--bench] [--devices N] ...   (--help lists the options) */
#define _POSIX_C_SOURCE 200809L
#include "batches.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One device's share of a batch, and the thread that computes it. */
typedef struct {
    numgpu_handle *h; /* this device's handle, used by this worker's thread only */
    numgpu_ode *ode;  /* the Brusselator, for rkc */
    const batch *b;
    int64_t first, count; /* the slice: problems first .. first + count - 1 */
    batch_views host;     /* the caller's arrays at the slice */
    batch_views dev;      /* the slice in this device's memory (device-array runs) */
    int phase;
    double t0, t1;
    numgpu_status status;
    char error[512]; /* numgpu_last_error is per thread: read it in the worker's */
} worker;

enum { HOST_COMPUTE, SCATTER, DEVICE_COMPUTE, GATHER };

static void *work(void *arg)
{
    worker *w = arg;
    w->t0 = batch_now();
    switch (w->phase) {
    case HOST_COMPUTE: w->status = batch_compute(w->h, w->ode, w->b, w->host, w->count); break;
    case SCATTER: w->status = batch_device_copy(w->h, w->b, w->dev, w->host, w->count, BATCH_INPUTS); break;
    case DEVICE_COMPUTE: w->status = batch_compute(w->h, w->ode, w->b, w->dev, w->count); break;
    case GATHER: w->status = batch_device_copy(w->h, w->b, w->host, w->dev, w->count, BATCH_OUTPUTS); break;
    }
    w->t1 = batch_now();
    if (w->status != NUMGPU_SUCCESS) numgpu_last_error(w->error, sizeof w->error);
    return NULL;
}

/* One phase on every worker at once, a thread each; seconds from the first start to the last
 * end, or -1 after printing the first failure. */
static double run_phase(worker *w, int nw, int phase)
{
    pthread_t t[BATCH_MAX_PARTS];
    double t0 = 0, t1 = 0;
    int failed = 0;
    for (int k = 0; k < nw; k++) {
        w[k].phase = phase;
        if (pthread_create(&t[k], NULL, work, &w[k])) {
            fprintf(stderr, "multi_gpu: pthread_create failed\n");
            for (int j = 0; j < k; j++) pthread_join(t[j], NULL);
            return -1;
        }
    }
    for (int k = 0; k < nw; k++) {
        pthread_join(t[k], NULL);
        if (w[k].status != NUMGPU_SUCCESS && !failed++)
            fprintf(stderr, "multi_gpu: device %d: %s: %s\n", k, numgpu_status_string(w[k].status), w[k].error);
        t0 = k == 0 || w[k].t0 < t0 ? w[k].t0 : t0;
        t1 = k == 0 || w[k].t1 > t1 ? w[k].t1 : t1;
    }
    return failed ? -1 : t1 - t0;
}

/* A run of the batch `data` over the first `nw` handles, on host or device arrays: the median
 * seconds of each phase over o->reps runs after o->warmup. The in-out arrays are restored from
 * `pristine` and the outputs poisoned before every run (not timed). 0, or -1 after a failure. */
static int run(const batch_options *o, const batch *b, numgpu_handle **h, numgpu_ode **ode, int nw, int device_arrays, batch_views data,
               batch_views pristine, batch_row *row)
{
    worker w[BATCH_MAX_PARTS];
    int64_t first[BATCH_MAX_PARTS], count[BATCH_MAX_PARTS];
    double ts[1000], tc[1000], tg[1000];
    int ok = 0, made = 0;
    batch_split(b->count, nw, nw > 1 && o->nweights ? o->weights : NULL, first, count);
    memset(w, 0, sizeof w);
    for (int k = 0; k < nw; k++) {
        w[k].h = h[k];
        w[k].ode = ode[k];
        w[k].b = b;
        w[k].first = first[k];
        w[k].count = count[k];
        w[k].host = batch_at(b, data, first[k]);
        if (device_arrays && batch_device_alloc(h[k], b, count[k], &w[k].dev) != NUMGPU_SUCCESS) {
            char e[512];
            numgpu_last_error(e, sizeof e);
            fprintf(stderr, "multi_gpu: device memory for %lld problems on handle %d: %s\n", (long long)count[k], k, e);
            goto done;
        }
        made = k + 1;
    }
    for (int rep = 0; rep < o->warmup + o->reps; rep++) {
        double s = 0, c = 0, g = 0;
        batch_host_copy(b, data, pristine, b->count, BATCH_INOUT);
        batch_poison(b, data, b->count);
        if (!device_arrays) c = run_phase(w, nw, HOST_COMPUTE);
        else if ((s = run_phase(w, nw, SCATTER)) >= 0 && (c = run_phase(w, nw, DEVICE_COMPUTE)) >= 0) g = run_phase(w, nw, GATHER);
        if (s < 0 || c < 0 || g < 0) goto done;
        if (rep >= o->warmup) {
            ts[rep - o->warmup] = s;
            tc[rep - o->warmup] = c;
            tg[rep - o->warmup] = g;
        }
    }
    row->scatter = batch_median(ts, o->reps);
    row->compute = batch_median(tc, o->reps);
    row->gather = batch_median(tg, o->reps);
    ok = 1;
done:
    for (int k = 0; k < made; k++) batch_device_free(h[k], b, &w[k].dev);
    return ok ? 0 : -1;
}

/* The four runs of one routine (one device and all, host and device arrays), checked; the rows
 * appended to rows. Returns the number of failed checks. */
static int measure(const batch_options *o, int routine, numgpu_handle **h, int parts, batch_row *rows, int *nrows, int *passed)
{
    batch b;
    batch_views data, pristine, ref;
    numgpu_ode *ode[BATCH_MAX_PARTS] = {NULL};
    int failed = 0;
    if (batch_init(&b, routine, o->n[routine], o->count[routine])) {
        fprintf(stderr, "multi_gpu: %s: order %lld not allowed\n", batch_routine_name(routine), (long long)o->n[routine]);
        return 1;
    }
    if (batch_host_alloc(&b, b.count, &data) || batch_host_alloc(&b, b.count, &pristine) || batch_host_alloc(&b, b.count, &ref)) {
        fprintf(stderr, "multi_gpu: %s: out of host memory for 3 x %zu bytes\n", batch_routine_name(routine), batch_total_bytes(&b, b.count));
        exit(1);
    }
    batch_fill(&b, pristine, 0, b.count);
    batch_host_copy(&b, data, pristine, b.count, BATCH_INPUTS);
    for (int k = 0; k < parts; k++) {
        if (batch_ode(h[k], &b, &ode[k]) != NUMGPU_SUCCESS) {
            char e[512];
            numgpu_last_error(e, sizeof e);
            fprintf(stderr, "multi_gpu: the Brusselator on handle %d: %s\n", k, e);
            failed = 1;
            goto done;
        }
    }
    /* The one-device host-array run first: the reference of the others. */
    const int runs[4][2] = {{1, 0}, {1, 1}, {parts, 0}, {parts, 1}}; /* devices, device arrays */
    for (int k = 0; k < 4; k++) {
        batch_row r = {routine, b.n, b.count, batch_total_bytes(&b, b.count), runs[k][1] ? "device" : "host", runs[k][0], 0, 0, 0, 0};
        if (run(o, &b, h, ode, runs[k][0], runs[k][1], data, pristine, &r)) {
            failed += 2;
            continue;
        }
        int wrong = batch_check(&b, k == 0, pristine, data, ref, &r, "multi_gpu", "device");
        *passed += 2 - wrong;
        failed += wrong;
        rows[(*nrows)++] = r;
    }
done:
    for (int k = 0; k < parts; k++) numgpu_ode_destroy(ode[k]);
    batch_host_free(&b, &data);
    batch_host_free(&b, &pristine);
    batch_host_free(&b, &ref);
    return failed;
}

int main(int argc, char **argv)
{
    batch_options o;
    int r = batch_parse(argc, argv, "multi_gpu", 0, &o);
    if (r) return r < 0 ? 2 : 0;
    char name[256];
    int ncuda = batch_cuda_devices(name, sizeof name);
    int backend = o.backend == NUMGPU_BACKEND_AUTO ? (ncuda > 0 ? NUMGPU_BACKEND_CUDA : NUMGPU_BACKEND_CPU) : o.backend;
    if (backend == NUMGPU_BACKEND_CUDA && ncuda == 0) {
        fprintf(stderr, "multi_gpu: --backend cuda, and the CUDA driver sees no device\n");
        return 1;
    }
    if (backend == NUMGPU_BACKEND_CPU) snprintf(name, sizeof name, "CPU");
    /* At least two handles, so the split and the gather run even on one device. */
    int parts = o.parts ? o.parts : backend == NUMGPU_BACKEND_CUDA && ncuda > 2 ? ncuda : 2;
    if (o.nweights && o.nweights != parts) {
        fprintf(stderr, "multi_gpu: --weights gives %d shares for %d devices\n", o.nweights, parts);
        return 2;
    }
    numgpu_handle *h[BATCH_MAX_PARTS] = {NULL};
    for (int k = 0; k < parts; k++) {
        int device = backend == NUMGPU_BACKEND_CUDA ? k % ncuda : 0;
        if (numgpu_create_with(&h[k], backend, device) != NUMGPU_SUCCESS) {
            char e[512];
            numgpu_last_error(e, sizeof e);
            fprintf(stderr, "multi_gpu: handle %d on device %d: %s\n", k, device, e);
            return 1;
        }
    }
    printf("multi_gpu: %s backend, %d handles (%d CUDA devices seen%s%s)\n", backend == NUMGPU_BACKEND_CUDA ? "CUDA" : "CPU", parts, ncuda,
           ncuda ? ", device 0: " : "", ncuda ? name : "");
    batch_row rows[4 * BATCH_ROUTINES];
    int nrows = 0, passed = 0, failed = 0;
    for (int routine = 0; routine < BATCH_ROUTINES; routine++)
        if (o.want[routine]) failed += measure(&o, routine, h, parts, rows, &nrows, &passed);
    batch_table(stdout, "devices", rows, nrows);
    const char *bname = backend == NUMGPU_BACKEND_CUDA ? "cuda" : "cpu";
    if (o.log && batch_log(o.log, "multi_gpu", bname, name, rows, nrows)) {
        fprintf(stderr, "multi_gpu: cannot write %s\n", o.log);
        failed++;
    }
    for (int k = 0; k < parts; k++) numgpu_destroy(h[k]);
    printf("multi_gpu: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
