/* What examples/c/multi_gpu.c and examples/c/mpi_batch.c share: the three batched routines of
 * issue 26 (numgpu_dgemm_batched_strided, numgpu_dgetrf_fullpivot_batched_strided and
 * numgpu_rkc_integrate on Brusselator systems), described as arrays of per-problem records so
 * that a contiguous slice of problems is a contiguous range of every array; splitting a batch
 * by shares; device slices; checks; options; the table and the log of the bench mode.
 *
 * Nothing here spreads work: the two programs do that, with threads and with MPI. */
#ifndef NUMGPU_EXAMPLES_BATCHES_H
#define NUMGPU_EXAMPLES_BATCHES_H

#include <numgpu.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { BATCH_GEMM, BATCH_GETRF, BATCH_RKC, BATCH_ROUTINES };

#define BATCH_MAX_ARRAYS 4
#define BATCH_MAX_PARTS 64

/* One array of a batch: `per` bytes per problem, or 0 for an array every problem shares
 * (`shared` bytes then); whether the routine reads it and whether it writes it. */
typedef struct {
    const char *name;
    size_t per, shared;
    int in, out;
} batch_array;

/* Where the arrays of a batch (or of a slice of it) are: host or device pointers. */
typedef struct {
    void *p[BATCH_MAX_ARRAYS];
} batch_views;

/* A batch of `count` problems of one routine of order (or equations) `n`. */
typedef struct {
    int routine;
    int64_t n, count;
    int narrays;
    batch_array arr[BATCH_MAX_ARRAYS];
} batch;

/* Which arrays a copy moves: the inputs (read by the call), the outputs (written by it), or
 * those that are both (what a repeated call must restore). */
enum { BATCH_INPUTS = 1, BATCH_OUTPUTS = 2, BATCH_INOUT = 3 };

const char *batch_routine_name(int routine);
/* The description of `count` problems of `routine` at order `n`; 0, or -1 when n is not
 * allowed (the Brusselator needs an even n in [2, 1024]). */
int batch_init(batch *b, int routine, int64_t n, int64_t count);
/* Bytes of array k for `count` problems. */
size_t batch_bytes(const batch *b, int k, int64_t count);
/* Bytes of every array for `count` problems. */
size_t batch_total_bytes(const batch *b, int64_t count);
/* Host arrays for `count` problems of b (malloc); 0 or -1 (then nothing is left allocated). */
int batch_host_alloc(const batch *b, int64_t count, batch_views *v);
void batch_host_free(const batch *b, batch_views *v);
/* The views of problem `first` onwards (shared arrays stay where they are). */
batch_views batch_at(const batch *b, batch_views v, int64_t first);
/* The inputs of problems first .. first + count - 1 (deterministic in the problem's index,
 * so that any split of the batch holds the same problems); outputs poisoned (all bytes 0xFF). */
void batch_fill(const batch *b, batch_views v, int64_t first, int64_t count);
/* Sets the bytes of the arrays that are outputs only to 0xFF (NaN as doubles, -1 as int32):
 * a result that is not written fails the comparison. */
void batch_poison(const batch *b, batch_views v, int64_t count);
/* Host-to-host copy of the arrays of `which` (BATCH_INPUTS, BATCH_OUTPUTS, BATCH_INOUT). */
void batch_host_copy(const batch *b, batch_views dst, batch_views src, int64_t count, int which);

/* Computes `count` problems at the views v (all host, or all device memory of h) on h, and
 * waits for them. `ode`: the Brusselator of h (batch_ode), NULL for the other routines. */
numgpu_status batch_compute(numgpu_handle *h, numgpu_ode *ode, const batch *b, batch_views v, int64_t count);
/* The ODE of the rkc routine on h (its kernel compiled now, on h's device), else NULL. */
numgpu_status batch_ode(numgpu_handle *h, const batch *b, numgpu_ode **ode);

/* Device memory of h for `count` problems of b (numgpu_malloc); numgpu_free'd by
 * batch_device_free. */
numgpu_status batch_device_alloc(numgpu_handle *h, const batch *b, int64_t count, batch_views *dev);
void batch_device_free(numgpu_handle *h, const batch *b, batch_views *dev);
/* numgpu_memcpy of the arrays of `which` for `count` problems, host to device or back. */
numgpu_status batch_device_copy(numgpu_handle *h, const batch *b, batch_views dst, batch_views src, int64_t count, int which);

/* Problems whose outputs differ bitwise between x and y; the first one in *first. */
int64_t batch_differences(const batch *b, batch_views x, batch_views y, int64_t count, int64_t *first);
/* Checks results against the mathematics on a sample of problems (the product by a loop; P·L·U·Q
 * against A; every ODE status 0 and y finite and moved); inputs from batch_fill. Returns 0, or
 * -1 with the reason in why. */
int batch_verify(const batch *b, batch_views in, batch_views out, int64_t count, char *why, size_t len);

typedef struct batch_row batch_row;
/* The checks of one run whose outputs are in `out`: bitwise against `ref`, the outputs of the
 * one-device (one-rank) run, and batch_verify against the inputs in `pristine`. The reference
 * run itself (`reference` = 1) copies its outputs into ref. Sets row->identical, prints what
 * failed ("program: routine on 2 devices, host arrays: ...", `unit` naming a device or a
 * rank) and returns the number of failed checks, 0 to 2 (of 2). */
int batch_check(const batch *b, int reference, batch_views pristine, batch_views out, batch_views ref, batch_row *row, const char *program,
                const char *unit);

/* Contiguous slices of `total` problems in proportion to `weights` (NULL: equal shares):
 * slice k is first[k] .. first[k] + count[k] - 1. */
void batch_split(int64_t total, int parts, const double *weights, int64_t *first, int64_t *count);

/* Seconds on a monotonic clock. */
double batch_now(void);
double batch_median(double *x, int n);

/* CUDA devices the driver sees (libcuda.so.1 opened at run time: no CUDA needed to build or
 * run on a machine without a GPU), 0 without a driver; the name of device 0 in name. */
int batch_cuda_devices(char *name, size_t len);

/* Options of both programs. */
typedef struct {
    int bench;              /* --bench: the sizes that fill a GPU, warm-up and repetitions, the table and the log */
    int backend;            /* NUMGPU_BACKEND_AUTO (CUDA if a device is seen), _CPU or _CUDA */
    int parts;              /* multi_gpu: handles to split over (0: the devices, at least 2) */
    int reps, warmup;
    int want[BATCH_ROUTINES];
    int64_t n[BATCH_ROUTINES], count[BATCH_ROUTINES];
    double weights[BATCH_MAX_PARTS];
    int nweights;
    const char *log;
} batch_options;

/* Parses argv into o (defaults first: the check mode's sizes, or with --bench the bench's);
 * 0, 1 after printing the help, -1 after printing what is wrong. */
int batch_parse(int argc, char **argv, const char *program, int mpi, batch_options *o);

/* One measured configuration: `parts` devices (or ranks) on `arrays` ("host" or "device");
 * seconds of the scatter, the compute and the gather (host arrays: the compute only, staging
 * included), medians over the repetitions. */
struct batch_row {
    int routine;
    int64_t n, count;
    size_t bytes;
    const char *arrays;
    int parts;
    double scatter, compute, gather;
    int identical;          /* outputs bitwise equal to the one-device host-array run */
};

double batch_row_total(const batch_row *r);
/* Prints the table of rows (speed-up of each row against the row of the same routine and
 * arrays on one part, and the share of the total that the scatter and gather take). */
void batch_table(FILE *f, const char *parts_name, const batch_row *rows, int nrows);
/* Appends the rows to the log as JSON lines, each with `program`, `backend` and `device`. */
int batch_log(const char *path, const char *program, const char *backend, const char *device, const batch_row *rows, int nrows);

#endif
