/* Many nodes with numgpu through MPI (docs/multi-gpu.md).
 *
 * Each rank creates a handle on its node-local GPU: the rank within its node comes from
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), the device is that rank modulo the node's device
 * count (the CPU backend where there is no GPU). Rank 0 holds the batch; MPI_Scatterv hands
 * each rank a contiguous slice, each rank computes its slice, MPI_Gatherv brings the results
 * back into rank 0's arrays, and rank 0 checks them bitwise against a one-rank computation of
 * the whole batch (each problem is computed the same way wherever it runs) and against the
 * mathematics on a sample.
 *
 * The routines are those of examples/c/multi_gpu.c: numgpu_dgemm_batched_strided (n = 32),
 * numgpu_dgetrf_fullpivot_batched_strided (n = 16) and numgpu_rkc_integrate (Brusselator
 * systems), each on one rank and split over all of them, from host arrays (each rank's slice
 * staged by numgpu) and from device arrays (each rank copies its slice to its GPU after the
 * scatter and back before the gather: the scatter and gather columns include those copies).
 * --bench takes sizes that fill a GPU, repeats, prints a table and appends JSON lines to --log.
 *
 * Build: mpicc -std=c99 -O2 mpi_batch.c batches.c -lnumgpu -lm -ldl
 * Run:   mpirun -np 2 ./mpi_batch [--bench] ...   (--help lists the options) */
#define _POSIX_C_SOURCE 200809L
#include "batches.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* This rank's view of one run: the slices of every rank over `parts` ranks, its own slice's
 * host and device arrays. */
typedef struct {
    int rank, size, parts;
    numgpu_handle *h;
    numgpu_ode *ode;
    const batch *b;
    int counts[BATCH_MAX_PARTS], displs[BATCH_MAX_PARTS]; /* in problems, for MPI_Scatterv/Gatherv */
    int64_t count;                                        /* this rank's problems (0 beyond `parts`) */
    batch_views all;                                      /* rank 0: the whole batch */
    batch_views mine;                                     /* this rank's slice in host memory */
    batch_views dev;                                      /* and in device memory */
} slice;

/* Prints this rank's numgpu error and returns 1 (0 on success). */
static int failed(const slice *s, numgpu_status st, const char *what)
{
    char e[512];
    if (st == NUMGPU_SUCCESS) return 0;
    numgpu_last_error(e, sizeof e);
    fprintf(stderr, "mpi_batch: rank %d: %s: %s: %s\n", s->rank, what, numgpu_status_string(st), e);
    return 1;
}

/* MPI_Scatterv of the inputs (shared arrays broadcast) or MPI_Gatherv of the outputs, each
 * array as records of one problem's bytes; rank 0's own slice stays in place. */
static void exchange(const slice *s, int gather)
{
    if (s->parts == 1) return; /* rank 0 holds everything already */
    for (int k = 0; k < s->b->narrays; k++) {
        const batch_array *a = &s->b->arr[k];
        if (gather ? !a->out : !a->in) continue;
        if (!a->per) {
            MPI_Bcast(s->mine.p[k], (int)a->shared, MPI_BYTE, 0, MPI_COMM_WORLD);
            continue;
        }
        MPI_Datatype rec;
        MPI_Type_contiguous((int)a->per, MPI_BYTE, &rec);
        MPI_Type_commit(&rec);
        void *here = s->rank == 0 ? MPI_IN_PLACE : s->mine.p[k];
        if (gather) MPI_Gatherv(here, (int)s->count, rec, s->all.p[k], s->counts, s->displs, rec, 0, MPI_COMM_WORLD);
        else MPI_Scatterv(s->all.p[k], s->counts, s->displs, rec, here, (int)s->count, rec, 0, MPI_COMM_WORLD);
        MPI_Type_free(&rec);
    }
}

enum { SCATTER, COMPUTE, GATHER };

/* One phase on every rank, between barriers: the seconds on rank 0, or -1 when a rank failed. */
static double phase(slice *s, int which, int device_arrays)
{
    int bad = 0, any = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = batch_now();
    if (which == SCATTER) {
        exchange(s, 0);
        if (device_arrays && s->count) bad = failed(s, batch_device_copy(s->h, s->b, s->dev, s->mine, s->count, BATCH_INPUTS), "copy to the device");
    } else if (which == COMPUTE) {
        bad = failed(s, batch_compute(s->h, s->ode, s->b, device_arrays ? s->dev : s->mine, s->count), batch_routine_name(s->b->routine));
    } else {
        if (device_arrays && s->count) bad = failed(s, batch_device_copy(s->h, s->b, s->mine, s->dev, s->count, BATCH_OUTPUTS), "copy from the device");
        exchange(s, 1);
    }
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); /* also the closing barrier */
    return any ? -1 : batch_now() - t0;
}

/* A run over the first `parts` ranks on host or device arrays: the median seconds of each
 * phase (on rank 0) over o->reps runs after o->warmup; rank 0's in-out arrays restored from
 * `pristine` and outputs poisoned before each run (not timed). 0, or -1 on every rank when one
 * failed. */
static int run(const batch_options *o, slice *s, int parts, int device_arrays, batch_views pristine, batch_row *row)
{
    int64_t first[BATCH_MAX_PARTS], count[BATCH_MAX_PARTS];
    double ts[1000], tc[1000], tg[1000];
    int bad = 0, any = 0;
    batch_split(s->b->count, parts, NULL, first, count);
    for (int k = 0; k < s->size; k++) {
        s->counts[k] = k < parts ? (int)count[k] : 0;
        s->displs[k] = k < parts ? (int)first[k] : 0;
    }
    s->parts = parts;
    s->count = s->rank < parts ? count[s->rank] : 0;
    memset(&s->dev, 0, sizeof s->dev);
    if (device_arrays) bad = failed(s, batch_device_alloc(s->h, s->b, s->count, &s->dev), "device memory");
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (int rep = 0; !any && rep < o->warmup + o->reps; rep++) {
        double t[3] = {0, 0, 0};
        if (s->rank == 0) batch_host_copy(s->b, s->all, pristine, s->b->count, BATCH_INOUT);
        batch_poison(s->b, s->rank == 0 ? s->all : s->mine, s->rank == 0 ? s->b->count : s->count);
        for (int p = SCATTER; p <= GATHER && !any; p++) any = (t[p] = phase(s, p, device_arrays)) < 0;
        if (rep >= o->warmup) {
            ts[rep - o->warmup] = t[0];
            tc[rep - o->warmup] = t[1];
            tg[rep - o->warmup] = t[2];
        }
    }
    batch_device_free(s->h, s->b, &s->dev);
    if (any) return -1;
    row->scatter = batch_median(ts, o->reps);
    row->compute = batch_median(tc, o->reps);
    row->gather = batch_median(tg, o->reps);
    return 0;
}

/* The four runs of one routine (one rank and all, host and device arrays), checked on rank 0;
 * rows appended there. Returns the number of failed checks (on rank 0). */
static int measure(const batch_options *o, int routine, slice *s, batch_row *rows, int *nrows, int *passed)
{
    batch b;
    batch_views pristine, ref;
    int64_t first[BATCH_MAX_PARTS], count[BATCH_MAX_PARTS];
    int failures = 0, bad = 0, any = 0;
    if (batch_init(&b, routine, o->n[routine], o->count[routine]) || b.count > INT_MAX) {
        if (s->rank == 0) fprintf(stderr, "mpi_batch: %s: order %lld or %lld problems not allowed\n", batch_routine_name(routine), (long long)b.n, (long long)b.count);
        return 1;
    }
    s->b = &b;
    /* Rank 0 holds the batch (its first slice in place), the others their largest slice. */
    batch_split(b.count, s->size, NULL, first, count);
    memset(&pristine, 0, sizeof pristine);
    memset(&ref, 0, sizeof ref);
    if (s->rank == 0) {
        bad = batch_host_alloc(&b, b.count, &s->all) || batch_host_alloc(&b, b.count, &pristine) || batch_host_alloc(&b, b.count, &ref);
        s->mine = s->all;
    } else {
        bad = batch_host_alloc(&b, count[s->rank], &s->mine);
    }
    if (bad) fprintf(stderr, "mpi_batch: rank %d: out of host memory for %s\n", s->rank, batch_routine_name(routine));
    if (!bad && s->rank == 0) {
        batch_fill(&b, pristine, 0, b.count);
        batch_host_copy(&b, s->all, pristine, b.count, BATCH_INPUTS);
    }
    if (!bad) bad = failed(s, batch_ode(s->h, &b, &s->ode), "the Brusselator");
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    /* The one-rank host-array run first: the reference of the others. */
    const int runs[4][2] = {{1, 0}, {1, 1}, {s->size, 0}, {s->size, 1}}; /* ranks, device arrays */
    for (int k = 0; k < 4 && !any; k++) {
        batch_row r = {routine, b.n, b.count, batch_total_bytes(&b, b.count), runs[k][1] ? "device" : "host", runs[k][0], 0, 0, 0, 0};
        if (run(o, s, runs[k][0], runs[k][1], pristine, &r)) {
            failures += 2;
            continue;
        }
        if (s->rank) continue;
        int wrong = batch_check(&b, k == 0, pristine, s->all, ref, &r, "mpi_batch", "rank");
        *passed += 2 - wrong;
        failures += wrong;
        rows[(*nrows)++] = r;
    }
    numgpu_ode_destroy(s->ode);
    s->ode = NULL;
    if (s->rank == 0) {
        batch_host_free(&b, &s->all);
        batch_host_free(&b, &pristine);
        batch_host_free(&b, &ref);
    } else {
        batch_host_free(&b, &s->mine);
    }
    memset(&s->mine, 0, sizeof s->mine);
    return failures + any;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    slice s;
    memset(&s, 0, sizeof s);
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.size);
    batch_options o;
    int r = batch_parse(argc, argv, "mpi_batch", 1, &o);
    if (r || s.size > BATCH_MAX_PARTS) {
        if (!r && s.rank == 0) fprintf(stderr, "mpi_batch: at most %d ranks\n", BATCH_MAX_PARTS);
        MPI_Finalize();
        return r > 0 ? 0 : 2;
    }

    /* The rank within this node picks the node's device. */
    MPI_Comm node;
    int local, bad = 0, any = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, s.rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    char name[256];
    int ncuda = batch_cuda_devices(name, sizeof name);
    int backend = o.backend == NUMGPU_BACKEND_AUTO ? (ncuda > 0 ? NUMGPU_BACKEND_CUDA : NUMGPU_BACKEND_CPU) : o.backend;
    int device = backend == NUMGPU_BACKEND_CUDA && ncuda > 0 ? local % ncuda : 0;
    if (backend == NUMGPU_BACKEND_CUDA && ncuda == 0) {
        fprintf(stderr, "mpi_batch: rank %d: --backend cuda, and the CUDA driver sees no device\n", s.rank);
        bad = 1;
    } else {
        bad = failed(&s, numgpu_create_with(&s.h, backend, device), "numgpu_create_with");
    }
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        numgpu_destroy(s.h);
        MPI_Finalize();
        return 1;
    }
    if (backend == NUMGPU_BACKEND_CPU) snprintf(name, sizeof name, "CPU");
    int where[2] = {local, device}, all[2 * BATCH_MAX_PARTS];
    MPI_Gather(where, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (s.rank == 0) {
        printf("mpi_batch: %d ranks, %s backend (%d CUDA devices seen by rank 0%s%s); rank: node-local rank, device:", s.size,
               backend == NUMGPU_BACKEND_CUDA ? "CUDA" : "CPU", ncuda, ncuda ? ", device 0: " : "", ncuda ? name : "");
        for (int k = 0; k < s.size; k++) printf(" %d: %d, %d;", k, all[2 * k], all[2 * k + 1]);
        printf("\n");
    }

    batch_row rows[4 * BATCH_ROUTINES];
    int nrows = 0, passed = 0, failures = 0;
    for (int routine = 0; routine < BATCH_ROUTINES; routine++)
        if (o.want[routine]) failures += measure(&o, routine, &s, rows, &nrows, &passed);
    if (s.rank == 0) {
        batch_table(stdout, "ranks", rows, nrows);
        if (o.log && batch_log(o.log, "mpi_batch", backend == NUMGPU_BACKEND_CUDA ? "cuda" : "cpu", name, rows, nrows)) {
            fprintf(stderr, "mpi_batch: cannot write %s\n", o.log);
            failures++;
        }
        printf("mpi_batch: %d passed, %d failed\n", passed, failures);
    }
    MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
    numgpu_destroy(s.h);
    MPI_Finalize();
    return failures ? 1 : 0;
}
