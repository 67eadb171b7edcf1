/* The hostile-input suite (issue 16): every function of numgpu.h, from the generated table
 * hostile_calls.h, called with one bad argument at a time, to show that no input crashes the
 * process, that every rejection is reported as the header promises and writes nothing.
 *
 * For each function: a valid "base" call is built from the parameters' names and kinds (2 x 2
 * matrices, batch 2, leading dimensions 2, strides 4, valid enums, live objects), and must
 * succeed; then each parameter in turn takes each hostile value of its kind:
 *   - int64_t: -1, INT64_MIN, 2^61, 2^63 - 1 (rejected), and 2^31 in leading dimensions and
 *     strides on the CPU backend (served or rejected, never a crash: the arrays have 32 GiB of
 *     sparse, unreserved memory behind their guard page, so a call that honours 2^31 finds
 *     memory where it reads);
 *   - int32_t: -1, INT32_MIN, 7777 (rejected: bad enums and sizes), INT32_MAX;
 *   - size_t, uint64_t: SIZE_MAX, 2^63 (rejected);
 *   - float, double, complex: NaN, Inf;
 *   - pointers and function pointers: NULL (rejected, where the base call passes one);
 * except what MAY_SUCCEED and LIES below name. Checked on every call: the status is SUCCESS
 * (with an empty last error) or INVALID_VALUE, NOT_SUPPORTED or ALLOC_FAILED (never a crash,
 * never INTERNAL_ERROR), or INSUFFICIENT_CAPACITY for a function with a `capacity` (the tensor
 * decompositions, which then write the size needed to `offsets` only); a rejection has the
 * message "<function>: " and, when numgpu_last_error_arg() = k > 0, "argument k (<name of
 * parameter k>" with balanced parentheses; and every array and output of the call is bitwise
 * what it was.
 *
 * Arrays end at a guard page (mmap + PROT_NONE): a read one element past the extent of the
 * base call faults. Each array of the base call holds 8 elements (16 for rkc's state and stats): the
 * exact extent of the strided 2 x 2 operands of batch 2 with stride 4, and more than the base
 * call reads of the smaller arrays.
 *
 * Places: a CPU handle with host arrays, and where CUDA is available a CUDA handle with host
 * arrays and with device arrays (numgpu_malloc; pointer arrays in device memory too), for
 * compute-sanitizer. NUMGPU_HOSTILE_BACKEND=cpu or cuda runs one backend only;
 * NUMGPU_REQUIRE_CUDA=1 makes the absence of CUDA a failure. Then the regression checks of
 * issue 16 (its reproducers, aliasing, messages, a second numgpu_destroy). Prints its count of
 * hostile calls and "test_hostile: N passed, M failed". */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and MAP_NORESERVE under -std=c99 */
#include "numgpu_test.h"
#include "hostile_calls.h"

#include <ctype.h>
#include <sys/mman.h>
#include <unistd.h>

#define BATCH 2
#define ELEMS 8         /* elements of each array of a base call */
#define MAX_BUFS 64     /* arrays of one call: parameters and the matrices of pointer arrays */
#define TAIL ((size_t)1 << 35) /* sparse memory behind a guard page: 2^31 complex doubles */

/* ---- places ------------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    numgpu_handle *h;
    int32_t backend;
    int dev;  /* data arrays in numgpu_malloc memory (device memory on CUDA) */
    int big;  /* try 2^31 in leading dimensions and strides */
} place_t;

static long hostile_calls;

/* ---- arrays that end at a guard page ------------------------------------------------------ */

typedef struct {
    unsigned char *data; /* the page before the guard page */
    size_t page;
} region_t;

static region_t regions[MAX_BUFS];
static int have_tails;

/* One mapping: a data page, a PROT_NONE guard page, and (tail) sparse memory behind it. */
static int map_region(region_t *r, size_t page, size_t tail)
{
    unsigned char *m = mmap(NULL, 2 * page + tail, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                            -1, 0);
    if (m == MAP_FAILED)
        return 0;
    if (mprotect(m + page, page, PROT_NONE) != 0) {
        munmap(m, 2 * page + tail);
        return 0;
    }
    r->data = m;
    r->page = page;
    return 1;
}

/* Maps every region, with sparse tails when `tails` and the system grants them (else 2^31
 * runs are skipped, and said so). */
static void map_regions(int tails)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int i;
    have_tails = tails;
    for (i = 0; i < MAX_BUFS && have_tails; i++)
        have_tails = map_region(&regions[i], page, TAIL);
    for (i = have_tails ? MAX_BUFS : 0; i < MAX_BUFS; i++)
        if (!map_region(&regions[i], page, 0)) {
            fprintf(stderr, "test_hostile: mmap failed\n");
            exit(2);
        }
    if (tails && !have_tails)
        printf("SKIPPED (no 32 GiB unreserved mappings here): 2^31 in leading dimensions and strides\n");
}

/* ---- one call ------------------------------------------------------------------------------ */

typedef struct {
    void *at;             /* what the call gets: host address, or device address */
    unsigned char *want;  /* its bytes as the call received them */
    size_t bytes;
    int dev;
} buf_t;

typedef struct {
    const place_t *pl;
    const hx_func *f;
    hx_arg a[HX_MAX_PARAMS];
    buf_t bufs[MAX_BUFS];
    int nbufs;
    void *slots[HX_MAX_PARAMS]; /* T ** outputs: objects the call returns */
    numgpu_handle *own_h;       /* a fresh handle for numgpu_destroy */
    numgpu_ode *own_ode;        /* a fresh ODE for numgpu_ode_destroy */
    numgpu_cmrs_matrix *own_cmrs;
    numgpu_life_plan *own_plan; /* a fresh LiFE plan for every call that takes one */
    numgpu_csr_plan *own_csr_plan; /* a fresh CSR plan for every call that takes one */
    void *own_mem;              /* a fresh allocation for numgpu_free */
    double opts_struct[16];     /* a numgpu_rkc_options (aligned) */
    int offsets_buf;            /* the buffer of an `offsets` parameter, or -1 */
} call_t;

#define SLOT_SENTINEL ((void *)(uintptr_t)0x5a5a5a5a5a5a5a50ULL)

static int is_data(const char *t)
{
    return !strcmp(t, "float") || !strcmp(t, "double") || !strcmp(t, "numgpu_complex_float") ||
           !strcmp(t, "numgpu_complex_double") || !strcmp(t, "int32_t") || !strcmp(t, "int64_t");
}

static size_t size_of(const char *t)
{
    if (!strcmp(t, "float") || !strcmp(t, "int32_t"))
        return 4;
    if (!strcmp(t, "numgpu_complex_double"))
        return 16;
    return 8;
}

/* Whether the function's data arrays go to device memory in a device place: calls with a
 * handle, except those whose pointers are host results (the handle's settings). */
static int device_arrays(const call_t *c)
{
    return c->pl->dev && c->f->nparams > 0 && !strcmp(c->f->params[0].pointee, "numgpu_handle") &&
           strcmp(c->f->name, "numgpu_get_backend") != 0 && strcmp(c->f->name, "numgpu_get_math_mode") != 0;
}

/* The bytes of an array of `count` elements of `p` named `name` in a base call. */
static void fill(const hx_param *p, const char *name, unsigned char *b, size_t count)
{
    size_t i, es = size_of(p->pointee);
    for (i = 0; i < count; i++) {
        unsigned char *e = b + i * es;
        if (!strcmp(p->pointee, "int32_t")) {
            /* CSR of a 2 x 2 diagonal; LiFE's COO of 2 x 2 x 2 (its diagonal); pivots n = 2 (valid
             * at every step); outputs a sentinel. */
            int32_t v = !strcmp(name, "row_ptr") ? (int32_t)i
                        : (!strcmp(name, "col_ind") || !strcmp(name, "atoms") || !strcmp(name, "voxels") ||
                           !strcmp(name, "fibers")) ? (int32_t)(i % 2)
                        : (!strcmp(name, "ipiv") || !strcmp(name, "jpiv")) ? 2
                                                                              : 0x7a7a7a7a;
            memcpy(e, &v, 4);
        } else if (!strcmp(p->pointee, "int64_t")) {
            /* A tensor's dimensions and its factors' leading dimensions: 2; its ranks 1 (a rank-1
             * train, ring and HT of the 2 x 2 x 2 base tensor); outputs and rank limits a
             * sentinel (no limit). */
            int64_t v = !strcmp(name, "dims") || !strcmp(name, "ldu") ? 2 : !strcmp(name, "ranks") ? 1 : 0x7a7a7a7a7a7a7a7aLL;
            memcpy(e, &v, 8);
        } else {
            /* Values: 4 on gtsv's diagonal (dominant), 0 in rkc's state (a cold start), else 1. */
            double v = !strcmp(name, "state") ? 0.0 : !strcmp(name, "d") ? 4.0 : 1.0;
            float f = (float)v;
            if (!strcmp(p->pointee, "float") || !strcmp(p->pointee, "numgpu_complex_float")) {
                memcpy(e, &f, 4);
                if (es == 8)
                    memset(e + 4, 0, 4);
            } else {
                memcpy(e, &v, 8);
                if (es == 16)
                    memset(e + 8, 0, 8);
            }
        }
    }
}

/* A new array of `bytes` whose contents are `init`, ending at a guard page (host) or in
 * numgpu_malloc memory of exactly that size (device). */
static void *new_buf(call_t *c, const void *init, size_t bytes, int dev)
{
    buf_t *b;
    if (c->nbufs == MAX_BUFS) {
        fprintf(stderr, "test_hostile: more than %d arrays in one call\n", MAX_BUFS);
        exit(2);
    }
    b = &c->bufs[c->nbufs];
    b->bytes = bytes;
    b->dev = dev;
    b->want = xdup(init, bytes);
    if (dev) {
        if (numgpu_malloc(c->pl->h, &b->at, bytes) != NUMGPU_SUCCESS ||
            numgpu_memcpy(c->pl->h, b->at, init, bytes) != NUMGPU_SUCCESS) {
            fprintf(stderr, "test_hostile: cannot stage %lu bytes: %s\n", (unsigned long)bytes, last_error());
            exit(2);
        }
    } else {
        region_t *r = &regions[c->nbufs];
        b->at = r->data + r->page - bytes;
        memcpy(b->at, init, bytes);
    }
    c->nbufs++;
    return b->at;
}

/* A data array of parameter p: ELEMS elements (16 for rkc's state and stats). */
static void *data_array(call_t *c, const hx_param *p, int dev)
{
    size_t count = !strcmp(p->name, "state") || !strcmp(p->name, "stats") ? 16 : ELEMS, bytes = count * size_of(p->pointee);
    unsigned char tmp[16 * 16];
    fill(p, p->name, tmp, count);
    return new_buf(c, tmp, bytes, dev);
}

/* A pointer array of BATCH distinct matrices, in the matrices' space; the factors of MTTKRP and
 * CP (one per mode of the order-3 base tensor) in a host array whatever their space. */
static void *pointer_array(call_t *c, const hx_param *p, int dev)
{
    void *ptrs[3];
    int i, factors = strstr(c->f->name, "mttkrp") != NULL || strstr(c->f->name, "cp_") != NULL, n = factors ? 3 : BATCH;
    for (i = 0; i < n; i++)
        ptrs[i] = data_array(c, p, dev);
    return new_buf(c, ptrs, (size_t)n * sizeof ptrs[0], factors ? 0 : dev);
}

/* The right-hand side of the ODE of the base calls: y' = -p[0] y. */
static void decay(double t, const double *y, const double *p, double *dydt, int64_t neq, void *user)
{
    int64_t j;
    (void)t;
    (void)user;
    for (j = 0; j < neq; j++)
        dydt[j] = -p[0] * y[j];
}

/* A CMRS matrix of the base CSR (2 x 2 diagonal), of precision `letter`. */
static numgpu_cmrs_matrix *new_cmrs(numgpu_handle *h, char letter)
{
    static const int32_t rp[3] = {0, 1, 2}, ci[2] = {0, 1};
    static const float fv[2] = {1, 1};
    static const double dv[2] = {1, 1};
    numgpu_cmrs_matrix *m = NULL;
    numgpu_status st = letter == 's' ? numgpu_scmrs_create(h, 2, 2, 2, fv, rp, ci, NUMGPU_INDEX_BASE_ZERO, 0, 0, &m)
                                     : numgpu_dcmrs_create(h, 2, 2, 2, dv, rp, ci, NUMGPU_INDEX_BASE_ZERO, 0, 0, &m);
    if (st != NUMGPU_SUCCESS) {
        fprintf(stderr, "test_hostile: cannot create a CMRS matrix: %s\n", last_error());
        exit(2);
    }
    return m;
}

/* A CSR plan (op N) of the base CSR (2 x 2 diagonal). */
static numgpu_csr_plan *new_csr_plan(numgpu_handle *h)
{
    static const int32_t rp[3] = {0, 1, 2}, ci[2] = {0, 1};
    numgpu_csr_plan *p = NULL;
    if (numgpu_csr_plan_create(h, NUMGPU_OP_N, 2, 2, 2, rp, ci, NUMGPU_INDEX_BASE_ZERO, 0, &p) != NUMGPU_SUCCESS) {
        fprintf(stderr, "test_hostile: cannot create a CSR plan: %s\n", last_error());
        exit(2);
    }
    return p;
}

/* A LiFE plan of the base COO: 2 atoms, voxels and fibres, entries (0, 0, 0) and (1, 1, 1). */
static numgpu_life_plan *new_life_plan(numgpu_handle *h)
{
    static const int32_t idx[2] = {0, 1};
    static const double val[2] = {1, 1};
    numgpu_life_plan *p = NULL;
    if (numgpu_life_plan_create(h, 2, 2, 2, 2, 2, idx, idx, idx, NUMGPU_INDEX_BASE_ZERO, val, &p) != NUMGPU_SUCCESS) {
        fprintf(stderr, "test_hostile: cannot create a LiFE plan: %s\n", last_error());
        exit(2);
    }
    return p;
}

static numgpu_ode *new_ode(numgpu_handle *h)
{
    numgpu_ode *o = NULL;
    if (numgpu_ode_builtin(h, NUMGPU_ODE_HEAT, 2, &o) != NUMGPU_SUCCESS) {
        fprintf(stderr, "test_hostile: cannot create an ODE: %s\n", last_error());
        exit(2);
    }
    return o;
}

static numgpu_ode *shared_ode; /* the ODE of rkc_integrate's base calls, per place */

/* The base value of an int64_t parameter: sizes 2, leading dimensions 2 (the 4 rows of a
 * Khatri-Rao product of two 2 x 2 matrices), strides 4, a capacity of the ELEMS of the array
 * (the 6 elements of the rank-1 cores of the 2 x 2 x 2 base tensor fit); an order-3 tensor,
 * 5 iterations, device 0, and 0 for the choices where 0 is the default (CMRS's height and M,
 * sym_apply's p, a mode number, LiFE's iterations, a CSR plan's hints). */
static int64_t base_i64(const char *fn, const char *name)
{
    int tensor = strstr(fn, "sshopm") || strstr(fn, "sym_");
    if (!strncmp(name, "stride", 6) || (strstr(fn, "khatri_rao") && !strcmp(name, "ldc")))
        return 4;
    if (!strcmp(name, "capacity"))
        return ELEMS;
    if (!strcmp(name, "natol") || !strcmp(name, "npar"))
        return 1;
    if ((tensor && !strcmp(name, "m")) || !strcmp(name, "ndim"))
        return 3;
    if (!strcmp(name, "maxit"))
        return 5;
    if (!strcmp(name, "device") || !strcmp(name, "height") || !strcmp(name, "M") || !strcmp(name, "p") ||
        !strcmp(name, "mode") || !strcmp(name, "max_iters") || !strcmp(name, "hints"))
        return 0;
    return 2;
}

/* The base value of an int32_t parameter (an enum): the first value, the handle's backend,
 * vectors wanted. */
static int32_t base_i32(const call_t *c, const char *name)
{
    if (!strcmp(name, "backend"))
        return c->pl->backend;
    if (!strcmp(name, "jobz") || !strcmp(name, "jobu") || !strcmp(name, "jobv"))
        return 1; /* vectors: every array of the Jacobi routines referenced */
    return 0;
}

static double base_real(const char *name)
{
    if (!strcmp(name, "beta") || !strcmp(name, "t0"))
        return 0.0;
    if (!strcmp(name, "tend"))
        return 0.01;
    if (!strcmp(name, "rtol") || !strcmp(name, "tol") || !strcmp(name, "merge_tol"))
        return 1e-3;
    return 1.0;
}

/* Whether parameter `name` of `fn` is host memory whatever the data's space: a tensor's
 * dimensions, leading dimensions, ranks, rank limits and core offsets, and CP-ALS's iteration
 * count and fit. */
static int host_param(const char *fn, const char *name)
{
    static const char *const always[] = {"dims", "ldu", "ranks", "max_ranks", "offsets"};
    size_t k;
    for (k = 0; k < sizeof always / sizeof always[0]; k++)
        if (!strcmp(name, always[k]))
            return 1;
    return strstr(fn, "cp_als") && (!strcmp(name, "iters") || !strcmp(name, "fit"));
}

/* The base value of pointer parameter i. */
static void *base_ptr(call_t *c, int i)
{
    const hx_param *p = &c->f->params[i];
    const char *t = p->pointee, *fn = c->f->name;
    int dev = device_arrays(c) && !host_param(fn, p->name);
    if (is_data(t)) {
        if (!strcmp(p->name, "offsets"))
            c->offsets_buf = c->nbufs;
        return p->levels == 2 ? pointer_array(c, p, dev) : data_array(c, p, dev);
    }
    if (p->levels == 2) {
        c->slots[i] = SLOT_SENTINEL;
        return &c->slots[i];
    }
    if (!strcmp(t, "numgpu_handle")) {
        if (strcmp(fn, "numgpu_destroy") != 0)
            return c->pl->h;
        if (numgpu_create_with(&c->own_h, c->pl->backend, 0) != NUMGPU_SUCCESS)
            exit(2);
        return c->own_h;
    }
    if (!strcmp(t, "numgpu_ode"))
        return strcmp(fn, "numgpu_ode_destroy") ? shared_ode : (c->own_ode = new_ode(c->pl->h));
    if (!strcmp(t, "numgpu_cmrs_matrix"))
        return c->own_cmrs = new_cmrs(c->pl->h, fn[7] == 's' ? 's' : 'd');
    if (!strcmp(t, "numgpu_life_plan"))
        return c->own_plan = new_life_plan(c->pl->h);
    if (!strcmp(t, "numgpu_csr_plan"))
        return c->own_csr_plan = new_csr_plan(c->pl->h);
    if (!strcmp(t, "numgpu_rkc_options")) {
        numgpu_rkc_options_default((numgpu_rkc_options *)c->opts_struct);
        return new_buf(c, c->opts_struct, sizeof(numgpu_rkc_options), 0);
    }
    if (!strcmp(t, "char"))
        return p->konst ? NULL : new_buf(c, "sentinel", 8, 0); /* no CUDA source; last_error's buf */
    if (!strcmp(fn, "numgpu_free")) {
        if (numgpu_malloc(c->pl->h, &c->own_mem, 16) != NUMGPU_SUCCESS)
            exit(2);
        return c->own_mem;
    }
    if (!strcmp(fn, "numgpu_memcpy")) {
        unsigned char init[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        return new_buf(c, init, 16, c->pl->dev);
    }
    return NULL; /* a CUDA stream, a user pointer: none */
}

/* Builds the base call of f in place pl. */
static void build(call_t *c, const place_t *pl, const hx_func *f)
{
    int i;
    memset(c, 0, sizeof *c);
    c->pl = pl;
    c->f = f;
    c->offsets_buf = -1;
    for (i = 0; i < f->nparams; i++) {
        const hx_param *p = &f->params[i];
        switch (p->kind) {
        case HX_I32: c->a[i].i32 = base_i32(c, p->name); break;
        case HX_I64: c->a[i].i64 = base_i64(f->name, p->name); break;
        case HX_U64: c->a[i].u64 = 1; break;
        case HX_SIZE: c->a[i].sz = !strcmp(f->name, "numgpu_last_error") ? 8 : 16; break;
        case HX_F32: c->a[i].f32 = (float)base_real(p->name); break;
        case HX_F64: c->a[i].f64 = base_real(p->name); break;
        case HX_C32: c->a[i].c32.re = (float)base_real(p->name); c->a[i].c32.im = 0; break;
        case HX_C64: c->a[i].c64.re = base_real(p->name); c->a[i].c64.im = 0; break;
        case HX_PTR: c->a[i].p = base_ptr(c, i); break;
        case HX_FN:
            if (!strcmp(p->name, "host_rhs"))
                c->a[i].fn_numgpu_ode_rhs = decay;
            break;
        }
    }
}

/* Releases what the call made or left: returned objects (after success), the fresh objects
 * of destroy calls that were not consumed, the device arrays. */
static void release(call_t *c, numgpu_status st)
{
    int i;
    for (i = 0; i < c->f->nparams; i++) {
        void *o = c->slots[i];
        if (o == SLOT_SENTINEL || o == NULL || st != NUMGPU_SUCCESS)
            continue;
        if (!strcmp(c->f->params[i].pointee, "numgpu_handle"))
            numgpu_destroy(o);
        else if (!strcmp(c->f->params[i].pointee, "numgpu_ode"))
            numgpu_ode_destroy(o);
        else if (!strcmp(c->f->params[i].pointee, "numgpu_cmrs_matrix"))
            numgpu_cmrs_destroy(o);
        else if (!strcmp(c->f->params[i].pointee, "numgpu_life_plan"))
            numgpu_life_plan_destroy(o);
        else if (!strcmp(c->f->params[i].pointee, "numgpu_csr_plan"))
            numgpu_csr_plan_destroy(o);
        else
            numgpu_free(c->pl->h, o);
    }
    /* A destroy or free that succeeded on its base object consumed it. */
    if (c->own_h && !(st == NUMGPU_SUCCESS && c->a[0].p == c->own_h))
        numgpu_destroy(c->own_h);
    if (c->own_ode && !(st == NUMGPU_SUCCESS && !strcmp(c->f->name, "numgpu_ode_destroy") && c->a[0].p == c->own_ode))
        numgpu_ode_destroy(c->own_ode);
    if (c->own_cmrs && !(st == NUMGPU_SUCCESS && !strcmp(c->f->name, "numgpu_cmrs_destroy") && c->a[0].p == c->own_cmrs))
        numgpu_cmrs_destroy(c->own_cmrs);
    if (c->own_plan && !(st == NUMGPU_SUCCESS && !strcmp(c->f->name, "numgpu_life_plan_destroy") && c->a[0].p == c->own_plan))
        numgpu_life_plan_destroy(c->own_plan);
    if (c->own_csr_plan && !(st == NUMGPU_SUCCESS && !strcmp(c->f->name, "numgpu_csr_plan_destroy") && c->a[0].p == c->own_csr_plan))
        numgpu_csr_plan_destroy(c->own_csr_plan);
    if (c->own_mem && !(st == NUMGPU_SUCCESS && c->a[1].p == c->own_mem))
        numgpu_free(c->pl->h, c->own_mem);
    for (i = 0; i < c->nbufs; i++) {
        if (c->bufs[i].dev)
            numgpu_free(c->pl->h, c->bufs[i].at);
        free(c->bufs[i].want);
    }
}

/* Whether every array and returned-object slot of the call is as it was (but `offsets`, where
 * INSUFFICIENT_CAPACITY writes the size needed, when `st` is that). */
static int untouched(call_t *c, numgpu_status st)
{
    int i, same = 1;
    for (i = 0; i < c->nbufs && same; i++) {
        buf_t *b = &c->bufs[i];
        if (i == c->offsets_buf && st == NUMGPU_INSUFFICIENT_CAPACITY)
            continue;
        if (b->dev) {
            unsigned char *now = xmalloc(b->bytes);
            same = numgpu_memcpy(c->pl->h, now, b->at, b->bytes) == NUMGPU_SUCCESS && !memcmp(now, b->want, b->bytes);
            free(now);
        } else {
            same = !memcmp(b->at, b->want, b->bytes);
        }
    }
    for (i = 0; i < c->f->nparams && same; i++)
        same = c->f->params[i].kind != HX_PTR || c->f->params[i].levels != 2 || is_data(c->f->params[i].pointee) ||
               c->slots[i] == SLOT_SENTINEL;
    return same;
}

/* ---- hostile values ---------------------------------------------------------------------- */

/* (function, parameter) pairs whose hostile values may be served: NULL as a no-op or a
 * default, any seed or status code, a device ordinal the CPU backend ignores, more
 * iterations or eigenpair slots than needed, non-finite scalars (BLAS semantics), stebz's
 * index window, which range ALL (the base call's) ignores as LAPACK's ?stebz does. */
static const char *const MAY_SUCCEED[][2] = {
    {"numgpu_destroy", "h"},          {"numgpu_ode_destroy", "ode"},  {"numgpu_cmrs_destroy", "A"},
    {"numgpu_free", "ptr"},           {"numgpu_set_seed", "seed"},    {"numgpu_status_string", "s"},
    {"numgpu_last_error", "buf"},     {"numgpu_rkc_integrate", "state"}, {"numgpu_rkc_integrate", "stats"},
    {"numgpu_rkc_integrate", "opts"}, {"sshopm", "X0"},               {"sshopm", "maxit"},
    {"numgpu_cmrs_info", "height"},   {"numgpu_cmrs_info", "M"},      {"numgpu_cmrs_info", "padding_ratio"},
    {"stebz_batched", "il"},          {"stebz_batched", "iu"},
    {"numgpu_life_plan_destroy", "p"}, {"dlife_sbbnnls", "max_iters"}, {"dlife_sbbnnls", "iters"},
    {"dlife_sbbnnls", "objective"},    {"life_plan_info", "ntheta"},  {"life_plan_info", "natoms"},
    {"life_plan_info", "nvoxels"},     {"life_plan_info", "nfibers"}, {"life_plan_info", "nnz"},
    {"numgpu_csr_plan_destroy", "plan"}, {"csr_plan_info", "units"}, {"csr_plan_info", "split_rows"},
    {"csr_plan_info", "bytes"},
    {"cp_reconstruct", "lambda"},      {"tt_svd", "max_ranks"},       {"tr_svd", "max_ranks"},
};

/* Values that are lies about the caller's memory rather than bad arguments: a buffer length
 * beyond the buffer, more eigenpair slots than the outputs hold, a tensor order beyond its
 * dims, U and ldu arrays. Not tried. */
static const char *const LIES[][2] = {
    {"numgpu_last_error", "len"},
    {"sshopm_unique", "kmax"},
    {"mttkrp", "ndim"},
    {"cp_", "ndim"},
    {"tt_", "ndim"},
    {"tr_", "ndim"},
};

/* Whether (f, param) is in `table` (a function entry matches as a substring of the name). */
static int listed(const char *const (*table)[2], size_t n, const char *f, const char *param)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strstr(f, table[i][0]) && !strcmp(param, table[i][1]))
            return 1;
    return 0;
}

typedef struct {
    hx_arg v;
    const char *label;
    int must_reject;
    int big; /* 2^31 in a leading dimension or stride: tails needed, CPU only */
} hostile_t;

/* The hostile values of parameter p of f in place pl, into out; their count. */
static int hostile_values(const hx_func *f, const hx_param *p, const place_t *pl, hostile_t *out)
{
    int n = 0, may = listed(MAY_SUCCEED, sizeof MAY_SUCCEED / sizeof MAY_SUCCEED[0], f->name, p->name);
    int dimension = !strncmp(p->name, "ld", 2) || !strncmp(p->name, "stride", 6);
    /* The CPU backend takes any device ordinal. */
    if (!strcmp(p->name, "device") && pl->backend == NUMGPU_BACKEND_CPU)
        may = 1;
    if (listed(LIES, sizeof LIES / sizeof LIES[0], f->name, p->name))
        return 0;
#define ADD(member, value, text, must)                                                                      \
    do {                                                                                                    \
        memset(&out[n], 0, sizeof out[n]);                                                                  \
        out[n].v.member = value;                                                                            \
        out[n].label = text;                                                                                \
        out[n].must_reject = (must) && !may;                                                                \
        n++;                                                                                                \
    } while (0)
    switch (p->kind) {
    case HX_I64:
        ADD(i64, -1, "-1", 1);
        ADD(i64, INT64_MIN, "INT64_MIN", 1);
        ADD(i64, (int64_t)1 << 61, "2^61", 1);
        ADD(i64, INT64_MAX, "2^63-1", 1);
        if (dimension && pl->big && have_tails) {
            ADD(i64, (int64_t)1 << 31, "2^31", 0);
            out[n - 1].big = 1;
        }
        break;
    case HX_I32:
        ADD(i32, -1, "-1", 1);
        ADD(i32, INT32_MIN, "INT32_MIN", 1);
        ADD(i32, 7777, "7777", 1);
        ADD(i32, INT32_MAX, "INT32_MAX", 0);
        break;
    case HX_U64:
    case HX_SIZE:
        ADD(u64, UINT64_MAX, "UINT64_MAX", 1);
        ADD(u64, (uint64_t)1 << 63, "2^63", 1);
        break;
    case HX_F32:
        ADD(f32, NAN, "NaN", 0);
        ADD(f32, INFINITY, "Inf", 0);
        break;
    case HX_F64:
        ADD(f64, NAN, "NaN", 0);
        ADD(f64, INFINITY, "Inf", 0);
        break;
    case HX_C32:
        ADD(c32.re, NAN, "NaN", 0);
        break;
    case HX_C64:
        ADD(c64.re, NAN, "NaN", 0);
        break;
    case HX_PTR:
        ADD(p, NULL, "NULL", 1);
        break;
    case HX_FN:
        ADD(p, NULL, "NULL", 1); /* compared below through the base's own member */
        break;
    }
#undef ADD
    return n;
}

/* ---- the checks of one call ---------------------------------------------------------------- */

static int balanced(const char *s)
{
    int depth = 0;
    for (; *s && depth >= 0; s++)
        depth += (*s == '(') - (*s == ')');
    return depth == 0;
}

/* The rejection's report: "<f>: ", "argument k (<parameter k>" when k > 0, balanced, no
 * internal error; NULL when right, else what is wrong. */
static const char *report_problem(const hx_func *f, int arg, const char *msg)
{
    static char want[256];
    size_t len;
    if (strncmp(msg, f->name, strlen(f->name)) != 0 || strncmp(msg + strlen(f->name), ": ", 2) != 0)
        return "the message does not start with \"<function>: \"";
    if (strstr(msg, "internal"))
        return "the message reports an internal error";
    if (!balanced(msg))
        return "the message's parentheses are unbalanced";
    if (arg < 0 || arg > f->nparams)
        return "numgpu_last_error_arg() is not a parameter position";
    if (arg == 0)
        return NULL;
    snprintf(want, sizeof want, "%s: argument %d (%s", f->name, arg, f->params[arg - 1].name);
    len = strlen(want);
    if (strncmp(msg, want, len) != 0 || isalnum((unsigned char)msg[len]) || msg[len] == '_')
        return "the message does not name the parameter at numgpu_last_error_arg()";
    return NULL;
}

/* Whether f has a `capacity` (its INSUFFICIENT_CAPACITY is a rejection). */
static int has_capacity(const hx_func *f)
{
    int i;
    for (i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, "capacity"))
            return 1;
    return 0;
}

/* Calls f in place pl with parameter i set to v (i < 0: the base call); checks and counts. */
static void try_call(const place_t *pl, const hx_func *f, int i, const hostile_t *v)
{
    call_t *c = xmalloc(sizeof *c);
    hx_arg r;
    numgpu_status st;
    const char *msg, *problem = NULL;
    int arg;
    build(c, pl, f);
    if (i >= 0) {
        /* NULL where the base passes NULL is no hostile value. */
        if (f->params[i].kind == HX_PTR && v->v.p == NULL && c->a[i].p == NULL)
            goto skip;
        if (f->params[i].kind == HX_FN) {
            if (c->a[i].fn_numgpu_ode_rhs == NULL)
                goto skip;
            memset(&c->a[i], 0, sizeof c->a[i]);
        } else {
            c->a[i] = v->v;
        }
    }
    memset(&r, 0, sizeof r);
    f->call(c->a, &r);
    st = f->status ? (numgpu_status)r.i32 : NUMGPU_SUCCESS;
    if (f->status && st == NUMGPU_SUCCESS && pl->dev && numgpu_synchronize(pl->h) != NUMGPU_SUCCESS) {
        st = NUMGPU_EXECUTION_FAILED;
        problem = "numgpu_synchronize failed after a successful call";
    }
    msg = last_error();
    arg = numgpu_last_error_arg();
    hostile_calls += i >= 0;
    if (i < 0) {
        check(st == NUMGPU_SUCCESS, "%s: %s: the base call fails (status %d, \"%s\"): teach test_hostile.c a valid "
              "call of it", pl->name, f->name, (int)st, msg);
    } else if (!problem && f->status) {
        if (st == NUMGPU_SUCCESS)
            problem = v->must_reject ? "SUCCESS for a value that must be rejected"
                      : msg[0] != '\0' ? "SUCCESS with a last error left"
                                       : NULL;
        else if (st != NUMGPU_INVALID_VALUE && st != NUMGPU_NOT_SUPPORTED && st != NUMGPU_ALLOC_FAILED &&
                 !(st == NUMGPU_INSUFFICIENT_CAPACITY && has_capacity(f)))
            problem = "a status other than INVALID_VALUE, NOT_SUPPORTED or ALLOC_FAILED";
        else if (!(problem = report_problem(f, arg, msg)) && !untouched(c, st))
            problem = "an array or output was written by a rejected call";
    }
    if (i >= 0)
        check(problem == NULL, "%s: %s(%s = %s): %s (status %d, argument %d, \"%s\")", pl->name, f->name,
              f->params[i].name, v->label, problem ? problem : "", (int)st, arg, msg);
    release(c, st);
    free(c);
    return;
skip:
    /* Not called: the base call's arrays and objects are released unconsumed. */
    release(c, NUMGPU_INVALID_VALUE);
    free(c);
}

/* Every function, base call then each hostile value of each parameter, in place pl. */
static void sweep(const place_t *pl)
{
    hostile_t vals[8];
    int k, i, j, n;
    long before = hostile_calls;
    shared_ode = new_ode(pl->h);
    for (k = 0; k < HX_NFUNCS; k++) {
        const hx_func *f = &HX_FUNCS[k];
        try_call(pl, f, -1, NULL);
        for (i = 0; i < f->nparams; i++) {
            n = hostile_values(f, &f->params[i], pl, vals);
            for (j = 0; j < n; j++)
                try_call(pl, f, i, &vals[j]);
        }
    }
    numgpu_ode_destroy(shared_ode);
    printf("test_hostile: %s: %ld hostile calls over %d functions\n", pl->name, hostile_calls - before, HX_NFUNCS);
}

/* ---- the regressions of issue 16 --------------------------------------------------------- */

static void decay_p(double t, const double *y, const double *p, double *d, int64_t n, void *u)
{
    decay(t, y, p, d, n, u);
}

/* rkc_integrate's leading dimensions beyond the address space, in bytes: NOT_SUPPORTED, Y and
 * status untouched (issue 16's first reproducer, both layouts, ldy and ldp). */
static void issue16_rkc(numgpu_handle *h)
{
    static const struct {
        int64_t ldy, ldp;
        int32_t layout;
        int arg;
    } cases[] = {
        {(int64_t)1 << 61, 1, NUMGPU_LAYOUT_SYSTEM_MAJOR, 7},    {(int64_t)1 << 60, 1, NUMGPU_LAYOUT_SYSTEM_MAJOR, 7},
        {(int64_t)1 << 61, 4, NUMGPU_LAYOUT_EQUATION_MAJOR, 7},  {(int64_t)1 << 62, 4, NUMGPU_LAYOUT_EQUATION_MAJOR, 7},
        {3, (int64_t)1 << 61, NUMGPU_LAYOUT_SYSTEM_MAJOR, 10},   {3, (int64_t)1 << 60, NUMGPU_LAYOUT_SYSTEM_MAJOR, 10},
    };
    numgpu_ode *ode = NULL;
    size_t k;
    if (numgpu_ode_create(h, 3, 1, NULL, decay_p, NULL, NULL, &ode) != NUMGPU_SUCCESS) {
        check(0, "issue16: numgpu_ode_create: %s", last_error());
        return;
    }
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double Y[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, P[4] = {1, 1, 1, 1}, atol = 1e-8;
        int32_t st[4] = {-7, -7, -7, -7};
        numgpu_status s = numgpu_rkc_integrate(h, ode, 4, 1, 0, 1, Y, cases[k].ldy, cases[k].layout, P,
                                               cases[k].ldp, 1e-6, &atol, NULL, NULL, st, NULL);
        int same = Y[0] == 1 && Y[11] == 1 && st[0] == -7 && st[3] == -7;
        expect_status(s, NUMGPU_NOT_SUPPORTED, "numgpu_rkc_integrate", cases[k].arg, "beyond the address space", same,
                      "issue16", cases[k].arg == 7 ? "ldy beyond the address space" : "ldp beyond the address space");
    }
    numgpu_ode_destroy(ode);
}

/* Pointer arrays whose batch would need more than 2^64 bytes: NOT_SUPPORTED before a pointer
 * is read (issue 16's second reproducer; the arrays hold 2 pointers on the stack). gels finds
 * its info array (batch int32_t) beyond the address space first. */
static void issue16_batch(numgpu_handle *h)
{
    double a0[4] = {0}, a1[4] = {0}, b0[4] = {0}, b1[4] = {0}, c0[4] = {7}, c1[4] = {7};
    const double *Ap[2] = {a0, a1}, *Bp[2] = {b0, b1};
    double *Cp[2] = {c0, c1}, *Wp[2] = {a0, a1}, *CSp[2] = {b0, b1};
    int32_t info[2] = {-7, -7};
    int64_t huge = (int64_t)1 << 61;
    numgpu_status s;
    s = numgpu_dgemm_batched(h, 0, 0, 2, 2, 2, 1.0, Ap, 2, Bp, 2, 0.0, Cp, 2, huge);
    expect_status(s, NUMGPU_NOT_SUPPORTED,
                  "numgpu_dgemm_batched", 8, "beyond the address space", c0[0] == 7 && c1[0] == 7, "issue16",
                  "batch 2^61");
    s = numgpu_dgeqrf_givens_batched(h, 2, 2, Wp, 2, CSp, 2, huge);
    expect_status(s, NUMGPU_NOT_SUPPORTED,
                  "numgpu_dgeqrf_givens_batched", 4, "beyond the address space", a0[0] == 0 && b0[0] == 0, "issue16",
                  "batch 2^61");
    s = numgpu_dormqr_givens_batched(h, 0, 0, 2, 2, 2, Ap, 2, Bp, 2, Cp, 2, huge);
    expect_status(s, NUMGPU_NOT_SUPPORTED,
                  "numgpu_dormqr_givens_batched", 7, "beyond the address space", c0[0] == 7, "issue16", "batch 2^61");
    s = numgpu_dorgqr_givens_batched(h, 2, 2, 2, Wp, 2, Bp, 2, huge);
    expect_status(s, NUMGPU_NOT_SUPPORTED,
                  "numgpu_dorgqr_givens_batched", 5, "beyond the address space", a0[0] == 0, "issue16", "batch 2^61");
    s = numgpu_dgels_givens_batched(h, 2, 2, 2, Wp, 2, CSp, 2, info, huge);
    expect_status(s, NUMGPU_NOT_SUPPORTED,
                  "numgpu_dgels_givens_batched", 9, "beyond the address space", info[0] == -7, "issue16", "batch 2^61");
}

/* Aliased outputs on host arrays: a repeated C[i], C[i] = A[j], strided C = A. */
static void issue16_alias(numgpu_handle *h)
{
    double a0[4] = {1, 2, 3, 4}, a1[4] = {1, 2, 3, 4}, c0[4] = {7, 7, 7, 7};
    const double *Ap[2] = {a0, a1};
    double *Cdup[2] = {c0, c0}, *Calias[2] = {c0, (double *)a1};
    numgpu_status s;
    s = numgpu_dgemm_batched(h, 0, 0, 2, 2, 2, 1.0, Ap, 2, Ap, 2, 0.0, Cdup, 2, 2);
    expect_invalid(s, "numgpu_dgemm_batched",
                   13, "(C[1]) is the same matrix as argument 13 (C[0])", c0[0] == 7, "issue16", "C[0] = C[1]");
    s = numgpu_dgemm_batched(h, 0, 0, 2, 2, 2, 1.0, Ap, 2, Ap, 2, 0.0, Calias, 2, 2);
    expect_invalid(s, "numgpu_dgemm_batched",
                   13, "is also argument 8 (A[1])", c0[0] == 7 && a1[0] == 1, "issue16", "C[1] = A[1]");
    s = numgpu_dgemm_batched_strided(h, 0, 0, 2, 2, 2, 1.0, a0, 2, 0, a1, 2, 0, 0.0, a0, 2, 4, 1);
    expect_invalid(s,
                   "numgpu_dgemm_batched_strided", 15, "(C) is also argument 8 (A)", a0[0] == 1, "issue16", "C = A");
}

/* The message slips: neq < 1, a bad options field, a second destroy; and csrmv's entries
 * beyond row_ptr[m], which are never read. */
static void issue16_messages(numgpu_handle *h, int32_t backend)
{
    numgpu_ode *ode = (numgpu_ode *)SLOT_SENTINEL;
    numgpu_rkc_options o;
    numgpu_handle *h2 = NULL;
    double Y[3] = {1, 1, 1}, P[1] = {1}, atol = 1e-8, val[3] = {1, 1, 5}, x[2] = {1, 1}, y[2] = {0, 0};
    int32_t st[1] = {-7}, rp[3] = {0, 1, 2}, ci[3] = {0, 1, 99};
    numgpu_status s;
    s = numgpu_ode_create(h, -5, 1, NULL, decay_p, NULL, NULL, &ode);
    expect_invalid(s, "numgpu_ode_create", 2,
                   "(neq = -5) must be >= 1", ode == (numgpu_ode *)SLOT_SENTINEL, "issue16", "neq = -5");
    numgpu_ode_builtin(h, NUMGPU_ODE_HEAT, 3, &ode);
    numgpu_rkc_options_default(&o);
    o.method = 9;
    s = numgpu_rkc_integrate(h, ode, 1, 1, 0, 1, Y, 3, 0, P, 1, 1e-6, &atol, &o, NULL, st, NULL);
    expect_invalid(s,
                   "numgpu_rkc_integrate", 14, "(opts->method = 9) must be", st[0] == -7, "issue16", "opts->method = 9");
    check(balanced(last_error()), "issue16: options message \"%s\" has unbalanced parentheses", last_error());
    numgpu_ode_destroy(ode);
    check(numgpu_create_with(&h2, backend, 0) == NUMGPU_SUCCESS && numgpu_destroy(h2) == NUMGPU_SUCCESS,
          "issue16: create and destroy: %s", last_error());
    s = numgpu_destroy(h2);
    expect_invalid(s, "numgpu_destroy", 1, "not a live handle", 1, "issue16", "a second destroy");
    s = numgpu_dcsrmv(h, NUMGPU_OP_N, 2, 2, 3, 1.0, val, rp, ci, 0, x, 0.0, y);
    expect_status(s, NUMGPU_SUCCESS,
                  "numgpu_dcsrmv", 0, "", y[0] == 1 && y[1] == 1, "issue16", "col_ind beyond row_ptr[m] is not read");
}

/* ---- the program --------------------------------------------------------------------------- */

static numgpu_handle *handle_for(int32_t backend)
{
    numgpu_handle *h = NULL;
    return numgpu_create_with(&h, backend, 0) == NUMGPU_SUCCESS ? h : NULL;
}

int main(void)
{
    const char *only = getenv("NUMGPU_HOSTILE_BACKEND");
    int want_cpu = only == NULL || !strcmp(only, "cpu"), want_cuda = only == NULL || !strcmp(only, "cuda");
    numgpu_handle *cpu = handle_for(NUMGPU_BACKEND_CPU), *cuda = want_cuda ? handle_for(NUMGPU_BACKEND_CUDA) : NULL;
    place_t pl;
    printf("test_hostile: numgpu %s\n", numgpu_version());
    map_regions(want_cpu); /* only the CPU place tries 2^31 */
    if (cpu == NULL) {
        check(0, "numgpu_create_with(CPU): %s", last_error());
        return finish("test_hostile");
    }
    if (want_cpu) {
        pl.name = "CPU handle, host arrays";
        pl.h = cpu;
        pl.backend = NUMGPU_BACKEND_CPU;
        pl.dev = 0;
        pl.big = 1;
        sweep(&pl);
        issue16_rkc(cpu);
        issue16_batch(cpu);
        issue16_alias(cpu);
        issue16_messages(cpu, NUMGPU_BACKEND_CPU);
    }
    if (want_cuda && cuda == NULL) {
        printf("SKIPPED (no CUDA device): hostile inputs on the CUDA backend\n");
        check(!env_is_1("NUMGPU_REQUIRE_CUDA"), "NUMGPU_REQUIRE_CUDA=1 but no CUDA handle: %s", last_error());
    }
    if (cuda != NULL) {
        pl.h = cuda;
        pl.backend = NUMGPU_BACKEND_CUDA;
        pl.big = 0; /* 2^31 leading dimensions would stage or touch 32 GiB */
        pl.name = "CUDA handle, host arrays";
        pl.dev = 0;
        sweep(&pl);
        pl.name = "CUDA handle, device arrays";
        pl.dev = 1;
        sweep(&pl);
        issue16_batch(cuda);
        issue16_alias(cuda);
        issue16_messages(cuda, NUMGPU_BACKEND_CUDA);
        numgpu_destroy(cuda);
    }
    numgpu_destroy(cpu);
    printf("test_hostile: %ld hostile calls in all\n", hostile_calls);
    return finish("test_hostile");
}
