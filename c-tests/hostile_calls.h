/* The hostile-input table of c-tests/test_hostile.c: every function of include/numgpu.h, its
 * parameters (name, kind, pointee type, pointer levels, const pointee) and a caller taking
 * its arguments as an array. Generated from the header by
 * tests/integration/header/hostile_table.rs (`make header`): do not edit. */
#ifndef NUMGPU_HOSTILE_CALLS_H
#define NUMGPU_HOSTILE_CALLS_H

#include "numgpu.h"

/* One argument or result of any type of the header. */
typedef union {
    int32_t i32;
    int64_t i64;
    uint64_t u64;
    size_t sz;
    float f32;
    double f64;
    numgpu_complex_float c32;
    numgpu_complex_double c64;
    void *p;
    numgpu_ode_rhs fn_numgpu_ode_rhs;
    numgpu_ode_spcrad fn_numgpu_ode_spcrad;
} hx_arg;

/* Parameter kinds: by value, a pointer (any level), a function pointer. */
enum { HX_I32, HX_I64, HX_U64, HX_SIZE, HX_F32, HX_F64, HX_C32, HX_C64, HX_PTR, HX_FN };

typedef struct {
    const char *name;
    int kind;
    const char *pointee; /* HX_PTR: the pointee's base type, typedefs resolved */
    int levels;          /* HX_PTR: levels of pointers */
    int konst;           /* HX_PTR: the base type is const (an input) */
} hx_param;

#define HX_MAX_PARAMS 21

typedef struct {
    const char *name;
    int status;   /* returns numgpu_status (in r->i32) */
    void (*call)(const hx_arg *a, hx_arg *r);
    int nparams;
    hx_param params[HX_MAX_PARAMS];
} hx_func;

static void hx_call_numgpu_sexpm_eig_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sexpm_eig_batched((numgpu_handle *)a[0].p, a[1].i64, (const float *)a[2].p, a[3].i64, a[4].i64, (const float *)a[5].p, a[6].i64, (const float *)a[7].p, a[8].i64, a[9].i64, (const float *)a[10].p, (float *)a[11].p, a[12].i64, a[13].i64, a[14].i64);
}

static void hx_call_numgpu_sexpm_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sexpm_batched((numgpu_handle *)a[0].p, a[1].i64, (const float *)a[2].p, a[3].i64, a[4].i64, (float *)a[5].p, a[6].i64, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_dexpm_eig_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dexpm_eig_batched((numgpu_handle *)a[0].p, a[1].i64, (const double *)a[2].p, a[3].i64, a[4].i64, (const double *)a[5].p, a[6].i64, (const double *)a[7].p, a[8].i64, a[9].i64, (const double *)a[10].p, (double *)a[11].p, a[12].i64, a[13].i64, a[14].i64);
}

static void hx_call_numgpu_dexpm_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dexpm_batched((numgpu_handle *)a[0].p, a[1].i64, (const double *)a[2].p, a[3].i64, a[4].i64, (double *)a[5].p, a[6].i64, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_cexpm_eig_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cexpm_eig_batched((numgpu_handle *)a[0].p, a[1].i64, (const numgpu_complex_float *)a[2].p, a[3].i64, a[4].i64, (const numgpu_complex_float *)a[5].p, a[6].i64, (const numgpu_complex_float *)a[7].p, a[8].i64, a[9].i64, (const float *)a[10].p, (numgpu_complex_float *)a[11].p, a[12].i64, a[13].i64, a[14].i64);
}

static void hx_call_numgpu_cexpm_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cexpm_batched((numgpu_handle *)a[0].p, a[1].i64, (const numgpu_complex_float *)a[2].p, a[3].i64, a[4].i64, (numgpu_complex_float *)a[5].p, a[6].i64, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_zexpm_eig_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zexpm_eig_batched((numgpu_handle *)a[0].p, a[1].i64, (const numgpu_complex_double *)a[2].p, a[3].i64, a[4].i64, (const numgpu_complex_double *)a[5].p, a[6].i64, (const numgpu_complex_double *)a[7].p, a[8].i64, a[9].i64, (const double *)a[10].p, (numgpu_complex_double *)a[11].p, a[12].i64, a[13].i64, a[14].i64);
}

static void hx_call_numgpu_zexpm_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zexpm_batched((numgpu_handle *)a[0].p, a[1].i64, (const numgpu_complex_double *)a[2].p, a[3].i64, a[4].i64, (numgpu_complex_double *)a[5].p, a[6].i64, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_status_string(const hx_arg *a, hx_arg *r)
{
    r->p = (void *)numgpu_status_string(a[0].i32);
}

static void hx_call_numgpu_backend_name(const hx_arg *a, hx_arg *r)
{
    r->p = (void *)numgpu_backend_name(a[0].i32);
}

static void hx_call_numgpu_last_error(const hx_arg *a, hx_arg *r)
{
    r->sz = numgpu_last_error((char *)a[0].p, a[1].sz);
}

static void hx_call_numgpu_last_error_arg(const hx_arg *a, hx_arg *r)
{
    (void)a;
    r->i32 = numgpu_last_error_arg();
}

static void hx_call_numgpu_version(const hx_arg *a, hx_arg *r)
{
    (void)a;
    r->p = (void *)numgpu_version();
}

static void hx_call_numgpu_create(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_create((numgpu_handle **)a[0].p);
}

static void hx_call_numgpu_create_with(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_create_with((numgpu_handle **)a[0].p, a[1].i32, a[2].i64);
}

static void hx_call_numgpu_destroy(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_destroy((numgpu_handle *)a[0].p);
}

static void hx_call_numgpu_get_backend(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_get_backend((const numgpu_handle *)a[0].p, (numgpu_backend *)a[1].p);
}

static void hx_call_numgpu_set_stream(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_set_stream((numgpu_handle *)a[0].p, (void *)a[1].p);
}

static void hx_call_numgpu_get_stream(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_get_stream((const numgpu_handle *)a[0].p, (void **)a[1].p);
}

static void hx_call_numgpu_set_seed(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_set_seed((numgpu_handle *)a[0].p, a[1].u64);
}

static void hx_call_numgpu_set_math_mode(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_set_math_mode((numgpu_handle *)a[0].p, a[1].i32);
}

static void hx_call_numgpu_get_math_mode(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_get_math_mode((const numgpu_handle *)a[0].p, (numgpu_math_mode *)a[1].p);
}

static void hx_call_numgpu_synchronize(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_synchronize((numgpu_handle *)a[0].p);
}

static void hx_call_numgpu_malloc(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_malloc((numgpu_handle *)a[0].p, (void **)a[1].p, a[2].sz);
}

static void hx_call_numgpu_free(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_free((numgpu_handle *)a[0].p, (void *)a[1].p);
}

static void hx_call_numgpu_memcpy(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_memcpy((numgpu_handle *)a[0].p, (void *)a[1].p, (const void *)a[2].p, a[3].sz);
}

static void hx_call_numgpu_sgemm_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgemm_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].f32, (const float *const *)a[7].p, a[8].i64, (const float *const *)a[9].p, a[10].i64, a[11].f32, (float *const *)a[12].p, a[13].i64, a[14].i64);
}

static void hx_call_numgpu_dgemm_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgemm_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].f64, (const double *const *)a[7].p, a[8].i64, (const double *const *)a[9].p, a[10].i64, a[11].f64, (double *const *)a[12].p, a[13].i64, a[14].i64);
}

static void hx_call_numgpu_cgemm_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgemm_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].c32, (const numgpu_complex_float *const *)a[7].p, a[8].i64, (const numgpu_complex_float *const *)a[9].p, a[10].i64, a[11].c32, (numgpu_complex_float *const *)a[12].p, a[13].i64, a[14].i64);
}

static void hx_call_numgpu_zgemm_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgemm_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].c64, (const numgpu_complex_double *const *)a[7].p, a[8].i64, (const numgpu_complex_double *const *)a[9].p, a[10].i64, a[11].c64, (numgpu_complex_double *const *)a[12].p, a[13].i64, a[14].i64);
}

static void hx_call_numgpu_sgemm_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgemm_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].f32, (const float *)a[7].p, a[8].i64, a[9].i64, (const float *)a[10].p, a[11].i64, a[12].i64, a[13].f32, (float *)a[14].p, a[15].i64, a[16].i64, a[17].i64);
}

static void hx_call_numgpu_dgemm_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgemm_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].f64, (const double *)a[7].p, a[8].i64, a[9].i64, (const double *)a[10].p, a[11].i64, a[12].i64, a[13].f64, (double *)a[14].p, a[15].i64, a[16].i64, a[17].i64);
}

static void hx_call_numgpu_cgemm_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgemm_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].c32, (const numgpu_complex_float *)a[7].p, a[8].i64, a[9].i64, (const numgpu_complex_float *)a[10].p, a[11].i64, a[12].i64, a[13].c32, (numgpu_complex_float *)a[14].p, a[15].i64, a[16].i64, a[17].i64);
}

static void hx_call_numgpu_zgemm_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgemm_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].c64, (const numgpu_complex_double *)a[7].p, a[8].i64, a[9].i64, (const numgpu_complex_double *)a[10].p, a[11].i64, a[12].i64, a[13].c64, (numgpu_complex_double *)a[14].p, a[15].i64, a[16].i64, a[17].i64);
}

static void hx_call_numgpu_sgeqrf_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgeqrf_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (float *const *)a[3].p, a[4].i64, (float *const *)a[5].p, a[6].i64, a[7].i64);
}

static void hx_call_numgpu_sgeqrf_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgeqrf_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (float *)a[3].p, a[4].i64, a[5].i64, (float *)a[6].p, a[7].i64, a[8].i64, a[9].i64);
}

static void hx_call_numgpu_sormqr_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sormqr_givens_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, (const float *const *)a[6].p, a[7].i64, (const float *const *)a[8].p, a[9].i64, (float *const *)a[10].p, a[11].i64, a[12].i64);
}

static void hx_call_numgpu_sormqr_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sormqr_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, (const float *)a[6].p, a[7].i64, a[8].i64, (const float *)a[9].p, a[10].i64, a[11].i64, (float *)a[12].p, a[13].i64, a[14].i64, a[15].i64);
}

static void hx_call_numgpu_sorgqr_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sorgqr_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (float *const *)a[4].p, a[5].i64, (const float *const *)a[6].p, a[7].i64, a[8].i64);
}

static void hx_call_numgpu_sorgqr_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sorgqr_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (float *)a[4].p, a[5].i64, a[6].i64, (const float *)a[7].p, a[8].i64, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_sgels_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgels_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (float *const *)a[4].p, a[5].i64, (float *const *)a[6].p, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_sgels_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgels_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (float *)a[4].p, a[5].i64, a[6].i64, (float *)a[7].p, a[8].i64, a[9].i64, (int32_t *)a[10].p, a[11].i64);
}

static void hx_call_numgpu_dgeqrf_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgeqrf_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (double *const *)a[3].p, a[4].i64, (double *const *)a[5].p, a[6].i64, a[7].i64);
}

static void hx_call_numgpu_dgeqrf_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgeqrf_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (double *)a[3].p, a[4].i64, a[5].i64, (double *)a[6].p, a[7].i64, a[8].i64, a[9].i64);
}

static void hx_call_numgpu_dormqr_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dormqr_givens_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, (const double *const *)a[6].p, a[7].i64, (const double *const *)a[8].p, a[9].i64, (double *const *)a[10].p, a[11].i64, a[12].i64);
}

static void hx_call_numgpu_dormqr_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dormqr_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, (const double *)a[6].p, a[7].i64, a[8].i64, (const double *)a[9].p, a[10].i64, a[11].i64, (double *)a[12].p, a[13].i64, a[14].i64, a[15].i64);
}

static void hx_call_numgpu_dorgqr_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dorgqr_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (double *const *)a[4].p, a[5].i64, (const double *const *)a[6].p, a[7].i64, a[8].i64);
}

static void hx_call_numgpu_dorgqr_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dorgqr_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (double *)a[4].p, a[5].i64, a[6].i64, (const double *)a[7].p, a[8].i64, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_dgels_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgels_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (double *const *)a[4].p, a[5].i64, (double *const *)a[6].p, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_dgels_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgels_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (double *)a[4].p, a[5].i64, a[6].i64, (double *)a[7].p, a[8].i64, a[9].i64, (int32_t *)a[10].p, a[11].i64);
}

static void hx_call_numgpu_cgeqrf_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgeqrf_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (numgpu_complex_float *const *)a[3].p, a[4].i64, (float *const *)a[5].p, a[6].i64, a[7].i64);
}

static void hx_call_numgpu_cgeqrf_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgeqrf_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (numgpu_complex_float *)a[3].p, a[4].i64, a[5].i64, (float *)a[6].p, a[7].i64, a[8].i64, a[9].i64);
}

static void hx_call_numgpu_cunmqr_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cunmqr_givens_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, (const numgpu_complex_float *const *)a[6].p, a[7].i64, (const float *const *)a[8].p, a[9].i64, (numgpu_complex_float *const *)a[10].p, a[11].i64, a[12].i64);
}

static void hx_call_numgpu_cunmqr_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cunmqr_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, (const numgpu_complex_float *)a[6].p, a[7].i64, a[8].i64, (const float *)a[9].p, a[10].i64, a[11].i64, (numgpu_complex_float *)a[12].p, a[13].i64, a[14].i64, a[15].i64);
}

static void hx_call_numgpu_cungqr_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cungqr_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (numgpu_complex_float *const *)a[4].p, a[5].i64, (const float *const *)a[6].p, a[7].i64, a[8].i64);
}

static void hx_call_numgpu_cungqr_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cungqr_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (numgpu_complex_float *)a[4].p, a[5].i64, a[6].i64, (const float *)a[7].p, a[8].i64, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_cgels_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgels_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (numgpu_complex_float *const *)a[4].p, a[5].i64, (numgpu_complex_float *const *)a[6].p, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_cgels_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgels_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (numgpu_complex_float *)a[4].p, a[5].i64, a[6].i64, (numgpu_complex_float *)a[7].p, a[8].i64, a[9].i64, (int32_t *)a[10].p, a[11].i64);
}

static void hx_call_numgpu_zgeqrf_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgeqrf_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (numgpu_complex_double *const *)a[3].p, a[4].i64, (double *const *)a[5].p, a[6].i64, a[7].i64);
}

static void hx_call_numgpu_zgeqrf_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgeqrf_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (numgpu_complex_double *)a[3].p, a[4].i64, a[5].i64, (double *)a[6].p, a[7].i64, a[8].i64, a[9].i64);
}

static void hx_call_numgpu_zunmqr_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zunmqr_givens_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, (const numgpu_complex_double *const *)a[6].p, a[7].i64, (const double *const *)a[8].p, a[9].i64, (numgpu_complex_double *const *)a[10].p, a[11].i64, a[12].i64);
}

static void hx_call_numgpu_zunmqr_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zunmqr_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, (const numgpu_complex_double *)a[6].p, a[7].i64, a[8].i64, (const double *)a[9].p, a[10].i64, a[11].i64, (numgpu_complex_double *)a[12].p, a[13].i64, a[14].i64, a[15].i64);
}

static void hx_call_numgpu_zungqr_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zungqr_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (numgpu_complex_double *const *)a[4].p, a[5].i64, (const double *const *)a[6].p, a[7].i64, a[8].i64);
}

static void hx_call_numgpu_zungqr_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zungqr_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (numgpu_complex_double *)a[4].p, a[5].i64, a[6].i64, (const double *)a[7].p, a[8].i64, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_zgels_givens_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgels_givens_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (numgpu_complex_double *const *)a[4].p, a[5].i64, (numgpu_complex_double *const *)a[6].p, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_zgels_givens_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgels_givens_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (numgpu_complex_double *)a[4].p, a[5].i64, a[6].i64, (numgpu_complex_double *)a[7].p, a[8].i64, a[9].i64, (int32_t *)a[10].p, a[11].i64);
}

static void hx_call_numgpu_sgetrf_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgetrf_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (float *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, (int32_t *)a[6].p, (int32_t *)a[7].p, a[8].i64);
}

static void hx_call_numgpu_sgetrf_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgetrf_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (float *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, (int32_t *)a[7].p, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_sgetrs_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgetrs_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const float *const *)a[4].p, a[5].i64, (const int32_t *)a[6].p, (const int32_t *)a[7].p, (float *const *)a[8].p, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_sgetrs_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgetrs_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const float *)a[4].p, a[5].i64, a[6].i64, (const int32_t *)a[7].p, (const int32_t *)a[8].p, (float *)a[9].p, a[10].i64, a[11].i64, a[12].i64);
}

static void hx_call_numgpu_sgesv_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgesv_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (float *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, (int32_t *)a[6].p, (float *const *)a[7].p, a[8].i64, (int32_t *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_sgesv_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgesv_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (float *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, (int32_t *)a[7].p, (float *)a[8].p, a[9].i64, a[10].i64, (int32_t *)a[11].p, a[12].i64);
}

static void hx_call_numgpu_sgesc2_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgesc2_batched_strided((numgpu_handle *)a[0].p, a[1].i64, (const float *)a[2].p, a[3].i64, a[4].i64, (float *)a[5].p, a[6].i64, (const int32_t *)a[7].p, (const int32_t *)a[8].p, (float *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_dgetrf_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgetrf_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (double *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, (int32_t *)a[6].p, (int32_t *)a[7].p, a[8].i64);
}

static void hx_call_numgpu_dgetrf_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgetrf_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (double *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, (int32_t *)a[7].p, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_dgetrs_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgetrs_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const double *const *)a[4].p, a[5].i64, (const int32_t *)a[6].p, (const int32_t *)a[7].p, (double *const *)a[8].p, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_dgetrs_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgetrs_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const double *)a[4].p, a[5].i64, a[6].i64, (const int32_t *)a[7].p, (const int32_t *)a[8].p, (double *)a[9].p, a[10].i64, a[11].i64, a[12].i64);
}

static void hx_call_numgpu_dgesv_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgesv_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (double *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, (int32_t *)a[6].p, (double *const *)a[7].p, a[8].i64, (int32_t *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_dgesv_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgesv_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (double *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, (int32_t *)a[7].p, (double *)a[8].p, a[9].i64, a[10].i64, (int32_t *)a[11].p, a[12].i64);
}

static void hx_call_numgpu_dgesc2_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgesc2_batched_strided((numgpu_handle *)a[0].p, a[1].i64, (const double *)a[2].p, a[3].i64, a[4].i64, (double *)a[5].p, a[6].i64, (const int32_t *)a[7].p, (const int32_t *)a[8].p, (double *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_cgetrf_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgetrf_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_complex_float *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, (int32_t *)a[6].p, (int32_t *)a[7].p, a[8].i64);
}

static void hx_call_numgpu_cgetrf_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgetrf_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_complex_float *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, (int32_t *)a[7].p, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_cgetrs_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgetrs_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_float *const *)a[4].p, a[5].i64, (const int32_t *)a[6].p, (const int32_t *)a[7].p, (numgpu_complex_float *const *)a[8].p, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_cgetrs_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgetrs_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_float *)a[4].p, a[5].i64, a[6].i64, (const int32_t *)a[7].p, (const int32_t *)a[8].p, (numgpu_complex_float *)a[9].p, a[10].i64, a[11].i64, a[12].i64);
}

static void hx_call_numgpu_cgesv_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgesv_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (numgpu_complex_float *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, (int32_t *)a[6].p, (numgpu_complex_float *const *)a[7].p, a[8].i64, (int32_t *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_cgesv_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgesv_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (numgpu_complex_float *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, (int32_t *)a[7].p, (numgpu_complex_float *)a[8].p, a[9].i64, a[10].i64, (int32_t *)a[11].p, a[12].i64);
}

static void hx_call_numgpu_cgesc2_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgesc2_batched_strided((numgpu_handle *)a[0].p, a[1].i64, (const numgpu_complex_float *)a[2].p, a[3].i64, a[4].i64, (numgpu_complex_float *)a[5].p, a[6].i64, (const int32_t *)a[7].p, (const int32_t *)a[8].p, (float *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_zgetrf_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgetrf_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_complex_double *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, (int32_t *)a[6].p, (int32_t *)a[7].p, a[8].i64);
}

static void hx_call_numgpu_zgetrf_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgetrf_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_complex_double *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, (int32_t *)a[7].p, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_zgetrs_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgetrs_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_double *const *)a[4].p, a[5].i64, (const int32_t *)a[6].p, (const int32_t *)a[7].p, (numgpu_complex_double *const *)a[8].p, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_zgetrs_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgetrs_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_double *)a[4].p, a[5].i64, a[6].i64, (const int32_t *)a[7].p, (const int32_t *)a[8].p, (numgpu_complex_double *)a[9].p, a[10].i64, a[11].i64, a[12].i64);
}

static void hx_call_numgpu_zgesv_fullpivot_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgesv_fullpivot_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (numgpu_complex_double *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, (int32_t *)a[6].p, (numgpu_complex_double *const *)a[7].p, a[8].i64, (int32_t *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_zgesv_fullpivot_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgesv_fullpivot_batched_strided((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (numgpu_complex_double *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, (int32_t *)a[7].p, (numgpu_complex_double *)a[8].p, a[9].i64, a[10].i64, (int32_t *)a[11].p, a[12].i64);
}

static void hx_call_numgpu_zgesc2_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgesc2_batched_strided((numgpu_handle *)a[0].p, a[1].i64, (const numgpu_complex_double *)a[2].p, a[3].i64, a[4].i64, (numgpu_complex_double *)a[5].p, a[6].i64, (const int32_t *)a[7].p, (const int32_t *)a[8].p, (double *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_sgtsv_spike(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgtsv_spike((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const float *)a[4].p, (const float *)a[5].p, (const float *)a[6].p, (float *)a[7].p, a[8].i64, (int32_t *)a[9].p);
}

static void hx_call_numgpu_sgtsv_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgtsv_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const float *)a[4].p, (const float *)a[5].p, (const float *)a[6].p, a[7].i64, (float *)a[8].p, a[9].i64, a[10].i64, (int32_t *)a[11].p, a[12].i64);
}

static void hx_call_numgpu_sgtsv_batched_interleaved(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgtsv_batched_interleaved((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (const float *)a[3].p, (const float *)a[4].p, (const float *)a[5].p, (float *)a[6].p, (int32_t *)a[7].p, a[8].i64);
}

static void hx_call_numgpu_dgtsv_spike(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgtsv_spike((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const double *)a[4].p, (const double *)a[5].p, (const double *)a[6].p, (double *)a[7].p, a[8].i64, (int32_t *)a[9].p);
}

static void hx_call_numgpu_dgtsv_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgtsv_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const double *)a[4].p, (const double *)a[5].p, (const double *)a[6].p, a[7].i64, (double *)a[8].p, a[9].i64, a[10].i64, (int32_t *)a[11].p, a[12].i64);
}

static void hx_call_numgpu_dgtsv_batched_interleaved(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgtsv_batched_interleaved((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (const double *)a[3].p, (const double *)a[4].p, (const double *)a[5].p, (double *)a[6].p, (int32_t *)a[7].p, a[8].i64);
}

static void hx_call_numgpu_cgtsv_spike(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgtsv_spike((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_float *)a[4].p, (const numgpu_complex_float *)a[5].p, (const numgpu_complex_float *)a[6].p, (numgpu_complex_float *)a[7].p, a[8].i64, (int32_t *)a[9].p);
}

static void hx_call_numgpu_cgtsv_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgtsv_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_float *)a[4].p, (const numgpu_complex_float *)a[5].p, (const numgpu_complex_float *)a[6].p, a[7].i64, (numgpu_complex_float *)a[8].p, a[9].i64, a[10].i64, (int32_t *)a[11].p, a[12].i64);
}

static void hx_call_numgpu_cgtsv_batched_interleaved(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgtsv_batched_interleaved((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (const numgpu_complex_float *)a[3].p, (const numgpu_complex_float *)a[4].p, (const numgpu_complex_float *)a[5].p, (numgpu_complex_float *)a[6].p, (int32_t *)a[7].p, a[8].i64);
}

static void hx_call_numgpu_zgtsv_spike(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgtsv_spike((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_double *)a[4].p, (const numgpu_complex_double *)a[5].p, (const numgpu_complex_double *)a[6].p, (numgpu_complex_double *)a[7].p, a[8].i64, (int32_t *)a[9].p);
}

static void hx_call_numgpu_zgtsv_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgtsv_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_double *)a[4].p, (const numgpu_complex_double *)a[5].p, (const numgpu_complex_double *)a[6].p, a[7].i64, (numgpu_complex_double *)a[8].p, a[9].i64, a[10].i64, (int32_t *)a[11].p, a[12].i64);
}

static void hx_call_numgpu_zgtsv_batched_interleaved(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgtsv_batched_interleaved((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (const numgpu_complex_double *)a[3].p, (const numgpu_complex_double *)a[4].p, (const numgpu_complex_double *)a[5].p, (numgpu_complex_double *)a[6].p, (int32_t *)a[7].p, a[8].i64);
}

static void hx_call_numgpu_ssyevj_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ssyevj_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, (float *)a[4].p, a[5].i64, a[6].i64, (float *)a[7].p, a[8].i64, (const numgpu_jacobi_params *)a[9].p, (int32_t *)a[10].p, (int32_t *)a[11].p, (float *)a[12].p, a[13].i64);
}

static void hx_call_numgpu_dsyevj_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dsyevj_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, (double *)a[4].p, a[5].i64, a[6].i64, (double *)a[7].p, a[8].i64, (const numgpu_jacobi_params *)a[9].p, (int32_t *)a[10].p, (int32_t *)a[11].p, (double *)a[12].p, a[13].i64);
}

static void hx_call_numgpu_cheevj_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cheevj_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, (numgpu_complex_float *)a[4].p, a[5].i64, a[6].i64, (float *)a[7].p, a[8].i64, (const numgpu_jacobi_params *)a[9].p, (int32_t *)a[10].p, (int32_t *)a[11].p, (float *)a[12].p, a[13].i64);
}

static void hx_call_numgpu_zheevj_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zheevj_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, (numgpu_complex_double *)a[4].p, a[5].i64, a[6].i64, (double *)a[7].p, a[8].i64, (const numgpu_jacobi_params *)a[9].p, (int32_t *)a[10].p, (int32_t *)a[11].p, (double *)a[12].p, a[13].i64);
}

static void hx_call_numgpu_sgesvdj_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sgesvdj_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, (const float *)a[5].p, a[6].i64, a[7].i64, (float *)a[8].p, a[9].i64, (float *)a[10].p, a[11].i64, a[12].i64, (float *)a[13].p, a[14].i64, a[15].i64, (const numgpu_jacobi_params *)a[16].p, (int32_t *)a[17].p, (int32_t *)a[18].p, (float *)a[19].p, a[20].i64);
}

static void hx_call_numgpu_dgesvdj_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dgesvdj_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, (const double *)a[5].p, a[6].i64, a[7].i64, (double *)a[8].p, a[9].i64, (double *)a[10].p, a[11].i64, a[12].i64, (double *)a[13].p, a[14].i64, a[15].i64, (const numgpu_jacobi_params *)a[16].p, (int32_t *)a[17].p, (int32_t *)a[18].p, (double *)a[19].p, a[20].i64);
}

static void hx_call_numgpu_cgesvdj_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cgesvdj_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, (const numgpu_complex_float *)a[5].p, a[6].i64, a[7].i64, (float *)a[8].p, a[9].i64, (numgpu_complex_float *)a[10].p, a[11].i64, a[12].i64, (numgpu_complex_float *)a[13].p, a[14].i64, a[15].i64, (const numgpu_jacobi_params *)a[16].p, (int32_t *)a[17].p, (int32_t *)a[18].p, (float *)a[19].p, a[20].i64);
}

static void hx_call_numgpu_zgesvdj_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zgesvdj_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, (const numgpu_complex_double *)a[5].p, a[6].i64, a[7].i64, (double *)a[8].p, a[9].i64, (numgpu_complex_double *)a[10].p, a[11].i64, a[12].i64, (numgpu_complex_double *)a[13].p, a[14].i64, a[15].i64, (const numgpu_jacobi_params *)a[16].p, (int32_t *)a[17].p, (int32_t *)a[18].p, (double *)a[19].p, a[20].i64);
}

static void hx_call_numgpu_spotrf_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_spotrf_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (float *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, a[6].i64);
}

static void hx_call_numgpu_spotrf_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_spotrf_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (float *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, a[7].i64);
}

static void hx_call_numgpu_spotrs_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_spotrs_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const float *const *)a[4].p, a[5].i64, (float *const *)a[6].p, a[7].i64, a[8].i64);
}

static void hx_call_numgpu_spotrs_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_spotrs_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const float *)a[4].p, a[5].i64, a[6].i64, (float *)a[7].p, a[8].i64, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_sposv_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sposv_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (float *const *)a[4].p, a[5].i64, (float *const *)a[6].p, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_sposv_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sposv_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (float *)a[4].p, a[5].i64, a[6].i64, (float *)a[7].p, a[8].i64, a[9].i64, (int32_t *)a[10].p, a[11].i64);
}

static void hx_call_numgpu_dpotrf_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dpotrf_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (double *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, a[6].i64);
}

static void hx_call_numgpu_dpotrf_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dpotrf_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (double *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, a[7].i64);
}

static void hx_call_numgpu_dpotrs_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dpotrs_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const double *const *)a[4].p, a[5].i64, (double *const *)a[6].p, a[7].i64, a[8].i64);
}

static void hx_call_numgpu_dpotrs_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dpotrs_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const double *)a[4].p, a[5].i64, a[6].i64, (double *)a[7].p, a[8].i64, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_dposv_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dposv_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (double *const *)a[4].p, a[5].i64, (double *const *)a[6].p, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_dposv_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dposv_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (double *)a[4].p, a[5].i64, a[6].i64, (double *)a[7].p, a[8].i64, a[9].i64, (int32_t *)a[10].p, a[11].i64);
}

static void hx_call_numgpu_cpotrf_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cpotrf_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_complex_float *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, a[6].i64);
}

static void hx_call_numgpu_cpotrf_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cpotrf_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_complex_float *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, a[7].i64);
}

static void hx_call_numgpu_cpotrs_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cpotrs_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_float *const *)a[4].p, a[5].i64, (numgpu_complex_float *const *)a[6].p, a[7].i64, a[8].i64);
}

static void hx_call_numgpu_cpotrs_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cpotrs_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_float *)a[4].p, a[5].i64, a[6].i64, (numgpu_complex_float *)a[7].p, a[8].i64, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_cposv_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cposv_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (numgpu_complex_float *const *)a[4].p, a[5].i64, (numgpu_complex_float *const *)a[6].p, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_cposv_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cposv_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (numgpu_complex_float *)a[4].p, a[5].i64, a[6].i64, (numgpu_complex_float *)a[7].p, a[8].i64, a[9].i64, (int32_t *)a[10].p, a[11].i64);
}

static void hx_call_numgpu_zpotrf_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zpotrf_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_complex_double *const *)a[3].p, a[4].i64, (int32_t *)a[5].p, a[6].i64);
}

static void hx_call_numgpu_zpotrf_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zpotrf_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_complex_double *)a[3].p, a[4].i64, a[5].i64, (int32_t *)a[6].p, a[7].i64);
}

static void hx_call_numgpu_zpotrs_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zpotrs_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_double *const *)a[4].p, a[5].i64, (numgpu_complex_double *const *)a[6].p, a[7].i64, a[8].i64);
}

static void hx_call_numgpu_zpotrs_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zpotrs_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (const numgpu_complex_double *)a[4].p, a[5].i64, a[6].i64, (numgpu_complex_double *)a[7].p, a[8].i64, a[9].i64, a[10].i64);
}

static void hx_call_numgpu_zposv_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zposv_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (numgpu_complex_double *const *)a[4].p, a[5].i64, (numgpu_complex_double *const *)a[6].p, a[7].i64, (int32_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_zposv_batched_strided(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zposv_batched_strided((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, (numgpu_complex_double *)a[4].p, a[5].i64, a[6].i64, (numgpu_complex_double *)a[7].p, a[8].i64, a[9].i64, (int32_t *)a[10].p, a[11].i64);
}

static void hx_call_numgpu_life_plan_create(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_life_plan_create((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, a[4].i64, a[5].i64, (const int32_t *)a[6].p, (const int32_t *)a[7].p, (const int32_t *)a[8].p, a[9].i32, (const double *)a[10].p, (numgpu_life_plan **)a[11].p);
}

static void hx_call_numgpu_life_plan_create_subs(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_life_plan_create_subs((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, a[4].i64, a[5].i64, (const double *)a[6].p, (const double *)a[7].p, (numgpu_life_plan **)a[8].p);
}

static void hx_call_numgpu_dlife_mw(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dlife_mw((numgpu_handle *)a[0].p, (const numgpu_life_plan *)a[1].p, (const double *)a[2].p, a[3].i64, (const double *)a[4].p, a[5].f64, (double *)a[6].p, a[7].i64);
}

static void hx_call_numgpu_dlife_mty(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dlife_mty((numgpu_handle *)a[0].p, (const numgpu_life_plan *)a[1].p, (const double *)a[2].p, a[3].i64, (const double *)a[4].p, a[5].i64, a[6].f64, (double *)a[7].p);
}

static void hx_call_numgpu_dlife_sbbnnls(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dlife_sbbnnls((numgpu_handle *)a[0].p, (const numgpu_life_plan *)a[1].p, (const double *)a[2].p, a[3].i64, (const double *)a[4].p, a[5].i64, (double *)a[6].p, a[7].i64, a[8].f64, (int32_t *)a[9].p, (double *)a[10].p);
}

static void hx_call_numgpu_life_plan_info(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_life_plan_info((const numgpu_life_plan *)a[0].p, (int64_t *)a[1].p, (int64_t *)a[2].p, (int64_t *)a[3].p, (int64_t *)a[4].p, (int64_t *)a[5].p);
}

static void hx_call_numgpu_life_plan_destroy(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_life_plan_destroy((numgpu_life_plan *)a[0].p);
}

static void hx_call_numgpu_ode_create(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ode_create((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (const char *)a[3].p, a[4].fn_numgpu_ode_rhs, a[5].fn_numgpu_ode_spcrad, (void *)a[6].p, (numgpu_ode **)a[7].p);
}

static void hx_call_numgpu_ode_builtin(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ode_builtin((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, (numgpu_ode **)a[3].p);
}

static void hx_call_numgpu_ode_destroy(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ode_destroy((numgpu_ode *)a[0].p);
}

static void hx_call_numgpu_rkc_options_default(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_rkc_options_default((numgpu_rkc_options *)a[0].p);
}

static void hx_call_numgpu_rkc_integrate(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_rkc_integrate((numgpu_handle *)a[0].p, (const numgpu_ode *)a[1].p, a[2].i64, a[3].i64, a[4].f64, a[5].f64, (double *)a[6].p, a[7].i64, a[8].i32, (const double *)a[9].p, a[10].i64, a[11].f64, (const double *)a[12].p, (const numgpu_rkc_options *)a[13].p, (double *)a[14].p, (int32_t *)a[15].p, (int64_t *)a[16].p);
}

static void hx_call_numgpu_scsrmv(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_scsrmv((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, a[4].i64, a[5].f32, (const float *)a[6].p, (const int32_t *)a[7].p, (const int32_t *)a[8].p, a[9].i32, (const float *)a[10].p, a[11].f32, (float *)a[12].p);
}

static void hx_call_numgpu_dcsrmv(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dcsrmv((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, a[4].i64, a[5].f64, (const double *)a[6].p, (const int32_t *)a[7].p, (const int32_t *)a[8].p, a[9].i32, (const double *)a[10].p, a[11].f64, (double *)a[12].p);
}

static void hx_call_numgpu_ccsrmv(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ccsrmv((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, a[4].i64, a[5].c32, (const numgpu_complex_float *)a[6].p, (const int32_t *)a[7].p, (const int32_t *)a[8].p, a[9].i32, (const numgpu_complex_float *)a[10].p, a[11].c32, (numgpu_complex_float *)a[12].p);
}

static void hx_call_numgpu_zcsrmv(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zcsrmv((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, a[4].i64, a[5].c64, (const numgpu_complex_double *)a[6].p, (const int32_t *)a[7].p, (const int32_t *)a[8].p, a[9].i32, (const numgpu_complex_double *)a[10].p, a[11].c64, (numgpu_complex_double *)a[12].p);
}

static void hx_call_numgpu_scmrs_create(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_scmrs_create((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (const float *)a[4].p, (const int32_t *)a[5].p, (const int32_t *)a[6].p, a[7].i32, a[8].i64, a[9].i64, (numgpu_cmrs_matrix **)a[10].p);
}

static void hx_call_numgpu_dcmrs_create(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dcmrs_create((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (const double *)a[4].p, (const int32_t *)a[5].p, (const int32_t *)a[6].p, a[7].i32, a[8].i64, a[9].i64, (numgpu_cmrs_matrix **)a[10].p);
}

static void hx_call_numgpu_scmrs_update_values(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_scmrs_update_values((numgpu_handle *)a[0].p, (numgpu_cmrs_matrix *)a[1].p, (const float *)a[2].p);
}

static void hx_call_numgpu_dcmrs_update_values(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dcmrs_update_values((numgpu_handle *)a[0].p, (numgpu_cmrs_matrix *)a[1].p, (const double *)a[2].p);
}

static void hx_call_numgpu_scmrsmv(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_scmrsmv((numgpu_handle *)a[0].p, a[1].f32, (const numgpu_cmrs_matrix *)a[2].p, (const float *)a[3].p, a[4].f32, (float *)a[5].p);
}

static void hx_call_numgpu_dcmrsmv(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dcmrsmv((numgpu_handle *)a[0].p, a[1].f64, (const numgpu_cmrs_matrix *)a[2].p, (const double *)a[3].p, a[4].f64, (double *)a[5].p);
}

static void hx_call_numgpu_cmrs_info(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cmrs_info((const numgpu_cmrs_matrix *)a[0].p, (int64_t *)a[1].p, (int64_t *)a[2].p, (double *)a[3].p);
}

static void hx_call_numgpu_cmrs_destroy(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_cmrs_destroy((numgpu_cmrs_matrix *)a[0].p);
}

static void hx_call_numgpu_csr_plan_create(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_csr_plan_create((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].i64, a[4].i64, (const int32_t *)a[5].p, (const int32_t *)a[6].p, a[7].i32, a[8].i64, (numgpu_csr_plan **)a[9].p);
}

static void hx_call_numgpu_scsrmv_plan(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_scsrmv_plan((numgpu_handle *)a[0].p, (const numgpu_csr_plan *)a[1].p, a[2].f32, (const float *)a[3].p, (const float *)a[4].p, a[5].f32, (float *)a[6].p);
}

static void hx_call_numgpu_dcsrmv_plan(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dcsrmv_plan((numgpu_handle *)a[0].p, (const numgpu_csr_plan *)a[1].p, a[2].f64, (const double *)a[3].p, (const double *)a[4].p, a[5].f64, (double *)a[6].p);
}

static void hx_call_numgpu_ccsrmv_plan(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ccsrmv_plan((numgpu_handle *)a[0].p, (const numgpu_csr_plan *)a[1].p, a[2].c32, (const numgpu_complex_float *)a[3].p, (const numgpu_complex_float *)a[4].p, a[5].c32, (numgpu_complex_float *)a[6].p);
}

static void hx_call_numgpu_zcsrmv_plan(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_zcsrmv_plan((numgpu_handle *)a[0].p, (const numgpu_csr_plan *)a[1].p, a[2].c64, (const numgpu_complex_double *)a[3].p, (const numgpu_complex_double *)a[4].p, a[5].c64, (numgpu_complex_double *)a[6].p);
}

static void hx_call_numgpu_csr_plan_info(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_csr_plan_info((const numgpu_csr_plan *)a[0].p, (int64_t *)a[1].p, (int64_t *)a[2].p, (int64_t *)a[3].p);
}

static void hx_call_numgpu_csr_plan_destroy(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_csr_plan_destroy((numgpu_csr_plan *)a[0].p);
}

static void hx_call_numgpu_sshopm(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sshopm((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].i64, (const float *)a[7].p, a[8].i64, (const float *)a[9].p, a[10].i64, a[11].f32, a[12].f32, a[13].i64, (float *)a[14].p, (float *)a[15].p, (int32_t *)a[16].p, (int32_t *)a[17].p);
}

static void hx_call_numgpu_dsshopm(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dsshopm((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].i64, (const double *)a[7].p, a[8].i64, (const double *)a[9].p, a[10].i64, a[11].f64, a[12].f64, a[13].i64, (double *)a[14].p, (double *)a[15].p, (int32_t *)a[16].p, (int32_t *)a[17].p);
}

static void hx_call_numgpu_sshopm_unique(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sshopm_unique((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].i64, (const float *)a[7].p, a[8].i64, (const float *)a[9].p, a[10].i64, a[11].f32, a[12].f32, a[13].i64, a[14].f32, a[15].i64, (int32_t *)a[16].p, (float *)a[17].p, (float *)a[18].p, (int32_t *)a[19].p, (int32_t *)a[20].p);
}

static void hx_call_numgpu_dsshopm_unique(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dsshopm_unique((numgpu_handle *)a[0].p, a[1].i32, a[2].i32, a[3].i64, a[4].i64, a[5].i64, a[6].i64, (const double *)a[7].p, a[8].i64, (const double *)a[9].p, a[10].i64, a[11].f64, a[12].f64, a[13].i64, a[14].f64, a[15].i64, (int32_t *)a[16].p, (double *)a[17].p, (double *)a[18].p, (int32_t *)a[19].p, (int32_t *)a[20].p);
}

static void hx_call_numgpu_ssym_apply(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ssym_apply((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, a[4].i64, (const float *)a[5].p, a[6].i64, (const float *)a[7].p, a[8].i64, (float *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_dsym_apply(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dsym_apply((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, a[4].i64, (const double *)a[5].p, a[6].i64, (const double *)a[7].p, a[8].i64, (double *)a[9].p, a[10].i64);
}

static void hx_call_numgpu_ssym_pack(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ssym_pack(a[0].i64, a[1].i64, (const float *)a[2].p, (float *)a[3].p);
}

static void hx_call_numgpu_dsym_pack(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dsym_pack(a[0].i64, a[1].i64, (const double *)a[2].p, (double *)a[3].p);
}

static void hx_call_numgpu_ssym_unpack(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_ssym_unpack(a[0].i64, a[1].i64, (const float *)a[2].p, (float *)a[3].p);
}

static void hx_call_numgpu_dsym_unpack(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dsym_unpack(a[0].i64, a[1].i64, (const double *)a[2].p, (double *)a[3].p);
}

static void hx_call_numgpu_sstebz_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sstebz_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].f32, a[4].f32, a[5].i64, a[6].i64, a[7].f32, (const float *)a[8].p, a[9].i64, (const float *)a[10].p, a[11].i64, (int64_t *)a[12].p, (float *)a[13].p, a[14].i64, (int32_t *)a[15].p, a[16].i64);
}

static void hx_call_numgpu_dstebz_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dstebz_batched((numgpu_handle *)a[0].p, a[1].i32, a[2].i64, a[3].f64, a[4].f64, a[5].i64, a[6].i64, a[7].f64, (const double *)a[8].p, a[9].i64, (const double *)a[10].p, a[11].i64, (int64_t *)a[12].p, (double *)a[13].p, a[14].i64, (int32_t *)a[15].p, a[16].i64);
}

static void hx_call_numgpu_sstecount_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sstecount_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (const float *)a[3].p, a[4].i64, (const float *)a[5].p, a[6].i64, (const float *)a[7].p, (int64_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_dstecount_batched(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dstecount_batched((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, (const double *)a[3].p, a[4].i64, (const double *)a[5].p, a[6].i64, (const double *)a[7].p, (int64_t *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_skhatri_rao(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_skhatri_rao((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (const float *)a[4].p, a[5].i64, (const float *)a[6].p, a[7].i64, (float *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_dkhatri_rao(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dkhatri_rao((numgpu_handle *)a[0].p, a[1].i64, a[2].i64, a[3].i64, (const double *)a[4].p, a[5].i64, (const double *)a[6].p, a[7].i64, (double *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_smttkrp(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_smttkrp((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const float *)a[3].p, a[4].i64, a[5].i64, (const float *const *)a[6].p, (const int64_t *)a[7].p, (float *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_dmttkrp(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dmttkrp((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const double *)a[3].p, a[4].i64, a[5].i64, (const double *const *)a[6].p, (const int64_t *)a[7].p, (double *)a[8].p, a[9].i64);
}

static void hx_call_numgpu_scp_als(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_scp_als((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const float *)a[3].p, a[4].i64, (float *const *)a[5].p, (const int64_t *)a[6].p, (float *)a[7].p, (const numgpu_cp_options *)a[8].p, (float *)a[9].p, (int32_t *)a[10].p);
}

static void hx_call_numgpu_dcp_als(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dcp_als((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const double *)a[3].p, a[4].i64, (double *const *)a[5].p, (const int64_t *)a[6].p, (double *)a[7].p, (const numgpu_cp_options *)a[8].p, (double *)a[9].p, (int32_t *)a[10].p);
}

static void hx_call_numgpu_scp_reconstruct(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_scp_reconstruct((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, a[3].i64, (const float *const *)a[4].p, (const int64_t *)a[5].p, (const float *)a[6].p, (float *)a[7].p);
}

static void hx_call_numgpu_dcp_reconstruct(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dcp_reconstruct((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, a[3].i64, (const double *const *)a[4].p, (const int64_t *)a[5].p, (const double *)a[6].p, (double *)a[7].p);
}

static void hx_call_numgpu_stt_svd(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_stt_svd((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const float *)a[3].p, a[4].f32, (const int64_t *)a[5].p, (int64_t *)a[6].p, (float *)a[7].p, a[8].i64, (int64_t *)a[9].p);
}

static void hx_call_numgpu_dtt_svd(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dtt_svd((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const double *)a[3].p, a[4].f64, (const int64_t *)a[5].p, (int64_t *)a[6].p, (double *)a[7].p, a[8].i64, (int64_t *)a[9].p);
}

static void hx_call_numgpu_str_svd(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_str_svd((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const float *)a[3].p, a[4].f32, (const int64_t *)a[5].p, (int64_t *)a[6].p, (float *)a[7].p, a[8].i64, (int64_t *)a[9].p);
}

static void hx_call_numgpu_dtr_svd(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dtr_svd((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const double *)a[3].p, a[4].f64, (const int64_t *)a[5].p, (int64_t *)a[6].p, (double *)a[7].p, a[8].i64, (int64_t *)a[9].p);
}

static void hx_call_numgpu_stt_reconstruct(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_stt_reconstruct((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const int64_t *)a[3].p, (const float *)a[4].p, (float *)a[5].p);
}

static void hx_call_numgpu_dtt_reconstruct(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dtt_reconstruct((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const int64_t *)a[3].p, (const double *)a[4].p, (double *)a[5].p);
}

static void hx_call_numgpu_str_reconstruct(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_str_reconstruct((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const int64_t *)a[3].p, (const float *)a[4].p, (float *)a[5].p);
}

static void hx_call_numgpu_dtr_reconstruct(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dtr_reconstruct((numgpu_handle *)a[0].p, a[1].i64, (const int64_t *)a[2].p, (const int64_t *)a[3].p, (const double *)a[4].p, (double *)a[5].p);
}

static void hx_call_numgpu_sht(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sht((numgpu_handle *)a[0].p, (const int64_t *)a[1].p, (const float *)a[2].p, (const int64_t *)a[3].p, (float *)a[4].p, (float *)a[5].p, (float *)a[6].p, (float *)a[7].p, (float *)a[8].p);
}

static void hx_call_numgpu_dht(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dht((numgpu_handle *)a[0].p, (const int64_t *)a[1].p, (const double *)a[2].p, (const int64_t *)a[3].p, (double *)a[4].p, (double *)a[5].p, (double *)a[6].p, (double *)a[7].p, (double *)a[8].p);
}

static void hx_call_numgpu_sht_reconstruct(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_sht_reconstruct((numgpu_handle *)a[0].p, (const int64_t *)a[1].p, (const int64_t *)a[2].p, (const float *)a[3].p, (const float *)a[4].p, (const float *)a[5].p, (const float *)a[6].p, (const float *)a[7].p, (float *)a[8].p);
}

static void hx_call_numgpu_dht_reconstruct(const hx_arg *a, hx_arg *r)
{
    r->i32 = numgpu_dht_reconstruct((numgpu_handle *)a[0].p, (const int64_t *)a[1].p, (const int64_t *)a[2].p, (const double *)a[3].p, (const double *)a[4].p, (const double *)a[5].p, (const double *)a[6].p, (const double *)a[7].p, (double *)a[8].p);
}

static const hx_func HX_FUNCS[] = {
    {"numgpu_sexpm_eig_batched", 1, hx_call_numgpu_sexpm_eig_batched, 15, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"E", HX_PTR, "float", 1, 1}, {"lde", HX_I64, "", 0, 0}, {"strideE", HX_I64, "", 0, 0}, {"lambda", HX_PTR, "float", 1, 1}, {"strideL", HX_I64, "", 0, 0}, {"Einv", HX_PTR, "float", 1, 1}, {"ldei", HX_I64, "", 0, 0}, {"strideEinv", HX_I64, "", 0, 0}, {"t", HX_PTR, "float", 1, 1}, {"P", HX_PTR, "float", 1, 0}, {"ldp", HX_I64, "", 0, 0}, {"strideP", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sexpm_batched", 1, hx_call_numgpu_sexpm_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"E", HX_PTR, "float", 1, 0}, {"lde", HX_I64, "", 0, 0}, {"strideE", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dexpm_eig_batched", 1, hx_call_numgpu_dexpm_eig_batched, 15, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"E", HX_PTR, "double", 1, 1}, {"lde", HX_I64, "", 0, 0}, {"strideE", HX_I64, "", 0, 0}, {"lambda", HX_PTR, "double", 1, 1}, {"strideL", HX_I64, "", 0, 0}, {"Einv", HX_PTR, "double", 1, 1}, {"ldei", HX_I64, "", 0, 0}, {"strideEinv", HX_I64, "", 0, 0}, {"t", HX_PTR, "double", 1, 1}, {"P", HX_PTR, "double", 1, 0}, {"ldp", HX_I64, "", 0, 0}, {"strideP", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dexpm_batched", 1, hx_call_numgpu_dexpm_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"E", HX_PTR, "double", 1, 0}, {"lde", HX_I64, "", 0, 0}, {"strideE", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cexpm_eig_batched", 1, hx_call_numgpu_cexpm_eig_batched, 15, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"E", HX_PTR, "numgpu_complex_float", 1, 1}, {"lde", HX_I64, "", 0, 0}, {"strideE", HX_I64, "", 0, 0}, {"lambda", HX_PTR, "numgpu_complex_float", 1, 1}, {"strideL", HX_I64, "", 0, 0}, {"Einv", HX_PTR, "numgpu_complex_float", 1, 1}, {"ldei", HX_I64, "", 0, 0}, {"strideEinv", HX_I64, "", 0, 0}, {"t", HX_PTR, "float", 1, 1}, {"P", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldp", HX_I64, "", 0, 0}, {"strideP", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cexpm_batched", 1, hx_call_numgpu_cexpm_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"E", HX_PTR, "numgpu_complex_float", 1, 0}, {"lde", HX_I64, "", 0, 0}, {"strideE", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zexpm_eig_batched", 1, hx_call_numgpu_zexpm_eig_batched, 15, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"E", HX_PTR, "numgpu_complex_double", 1, 1}, {"lde", HX_I64, "", 0, 0}, {"strideE", HX_I64, "", 0, 0}, {"lambda", HX_PTR, "numgpu_complex_double", 1, 1}, {"strideL", HX_I64, "", 0, 0}, {"Einv", HX_PTR, "numgpu_complex_double", 1, 1}, {"ldei", HX_I64, "", 0, 0}, {"strideEinv", HX_I64, "", 0, 0}, {"t", HX_PTR, "double", 1, 1}, {"P", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldp", HX_I64, "", 0, 0}, {"strideP", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zexpm_batched", 1, hx_call_numgpu_zexpm_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"E", HX_PTR, "numgpu_complex_double", 1, 0}, {"lde", HX_I64, "", 0, 0}, {"strideE", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_status_string", 0, hx_call_numgpu_status_string, 1, {{"s", HX_I32, "", 0, 0}}},
    {"numgpu_backend_name", 0, hx_call_numgpu_backend_name, 1, {{"backend", HX_I32, "", 0, 0}}},
    {"numgpu_last_error", 0, hx_call_numgpu_last_error, 2, {{"buf", HX_PTR, "char", 1, 0}, {"len", HX_SIZE, "", 0, 0}}},
    {"numgpu_last_error_arg", 0, hx_call_numgpu_last_error_arg, 0, {{NULL, 0, NULL, 0, 0}}},
    {"numgpu_version", 0, hx_call_numgpu_version, 0, {{NULL, 0, NULL, 0, 0}}},
    {"numgpu_create", 1, hx_call_numgpu_create, 1, {{"h", HX_PTR, "numgpu_handle", 2, 0}}},
    {"numgpu_create_with", 1, hx_call_numgpu_create_with, 3, {{"h", HX_PTR, "numgpu_handle", 2, 0}, {"backend", HX_I32, "", 0, 0}, {"device", HX_I64, "", 0, 0}}},
    {"numgpu_destroy", 1, hx_call_numgpu_destroy, 1, {{"h", HX_PTR, "numgpu_handle", 1, 0}}},
    {"numgpu_get_backend", 1, hx_call_numgpu_get_backend, 2, {{"h", HX_PTR, "numgpu_handle", 1, 1}, {"backend", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_set_stream", 1, hx_call_numgpu_set_stream, 2, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"cuda_stream", HX_PTR, "void", 1, 0}}},
    {"numgpu_get_stream", 1, hx_call_numgpu_get_stream, 2, {{"h", HX_PTR, "numgpu_handle", 1, 1}, {"stream", HX_PTR, "void", 2, 0}}},
    {"numgpu_set_seed", 1, hx_call_numgpu_set_seed, 2, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"seed", HX_U64, "", 0, 0}}},
    {"numgpu_set_math_mode", 1, hx_call_numgpu_set_math_mode, 2, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}}},
    {"numgpu_get_math_mode", 1, hx_call_numgpu_get_math_mode, 2, {{"h", HX_PTR, "numgpu_handle", 1, 1}, {"mode", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_synchronize", 1, hx_call_numgpu_synchronize, 1, {{"h", HX_PTR, "numgpu_handle", 1, 0}}},
    {"numgpu_malloc", 1, hx_call_numgpu_malloc, 3, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ptr", HX_PTR, "void", 2, 0}, {"bytes", HX_SIZE, "", 0, 0}}},
    {"numgpu_free", 1, hx_call_numgpu_free, 2, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ptr", HX_PTR, "void", 1, 0}}},
    {"numgpu_memcpy", 1, hx_call_numgpu_memcpy, 4, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"dst", HX_PTR, "void", 1, 0}, {"src", HX_PTR, "void", 1, 1}, {"bytes", HX_SIZE, "", 0, 0}}},
    {"numgpu_sgemm_batched", 1, hx_call_numgpu_sgemm_batched, 15, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"transa", HX_I32, "", 0, 0}, {"transb", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"alpha", HX_F32, "", 0, 0}, {"A", HX_PTR, "float", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 2, 1}, {"ldb", HX_I64, "", 0, 0}, {"beta", HX_F32, "", 0, 0}, {"C", HX_PTR, "float", 2, 0}, {"ldc", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgemm_batched", 1, hx_call_numgpu_dgemm_batched, 15, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"transa", HX_I32, "", 0, 0}, {"transb", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"alpha", HX_F64, "", 0, 0}, {"A", HX_PTR, "double", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 2, 1}, {"ldb", HX_I64, "", 0, 0}, {"beta", HX_F64, "", 0, 0}, {"C", HX_PTR, "double", 2, 0}, {"ldc", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgemm_batched", 1, hx_call_numgpu_cgemm_batched, 15, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"transa", HX_I32, "", 0, 0}, {"transb", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"alpha", HX_C32, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 2, 1}, {"ldb", HX_I64, "", 0, 0}, {"beta", HX_C32, "", 0, 0}, {"C", HX_PTR, "numgpu_complex_float", 2, 0}, {"ldc", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgemm_batched", 1, hx_call_numgpu_zgemm_batched, 15, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"transa", HX_I32, "", 0, 0}, {"transb", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"alpha", HX_C64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 2, 1}, {"ldb", HX_I64, "", 0, 0}, {"beta", HX_C64, "", 0, 0}, {"C", HX_PTR, "numgpu_complex_double", 2, 0}, {"ldc", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgemm_batched_strided", 1, hx_call_numgpu_sgemm_batched_strided, 18, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"transa", HX_I32, "", 0, 0}, {"transb", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"alpha", HX_F32, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 1, 1}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"beta", HX_F32, "", 0, 0}, {"C", HX_PTR, "float", 1, 0}, {"ldc", HX_I64, "", 0, 0}, {"strideC", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgemm_batched_strided", 1, hx_call_numgpu_dgemm_batched_strided, 18, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"transa", HX_I32, "", 0, 0}, {"transb", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"alpha", HX_F64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 1, 1}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"beta", HX_F64, "", 0, 0}, {"C", HX_PTR, "double", 1, 0}, {"ldc", HX_I64, "", 0, 0}, {"strideC", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgemm_batched_strided", 1, hx_call_numgpu_cgemm_batched_strided, 18, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"transa", HX_I32, "", 0, 0}, {"transb", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"alpha", HX_C32, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 1, 1}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"beta", HX_C32, "", 0, 0}, {"C", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldc", HX_I64, "", 0, 0}, {"strideC", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgemm_batched_strided", 1, hx_call_numgpu_zgemm_batched_strided, 18, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"transa", HX_I32, "", 0, 0}, {"transb", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"alpha", HX_C64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 1, 1}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"beta", HX_C64, "", 0, 0}, {"C", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldc", HX_I64, "", 0, 0}, {"strideC", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgeqrf_givens_batched", 1, hx_call_numgpu_sgeqrf_givens_batched, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 2, 0}, {"ldcs", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgeqrf_givens_batched_strided", 1, hx_call_numgpu_sgeqrf_givens_batched_strided, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 1, 0}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sormqr_givens_batched", 1, hx_call_numgpu_sormqr_givens_batched, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"side", HX_I32, "", 0, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 2, 1}, {"ldcs", HX_I64, "", 0, 0}, {"C", HX_PTR, "float", 2, 0}, {"ldc", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sormqr_givens_batched_strided", 1, hx_call_numgpu_sormqr_givens_batched_strided, 16, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"side", HX_I32, "", 0, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 1, 1}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"C", HX_PTR, "float", 1, 0}, {"ldc", HX_I64, "", 0, 0}, {"strideC", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sorgqr_givens_batched", 1, hx_call_numgpu_sorgqr_givens_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 2, 1}, {"ldcs", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sorgqr_givens_batched_strided", 1, hx_call_numgpu_sorgqr_givens_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 1, 1}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgels_givens_batched", 1, hx_call_numgpu_sgels_givens_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgels_givens_batched_strided", 1, hx_call_numgpu_sgels_givens_batched_strided, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgeqrf_givens_batched", 1, hx_call_numgpu_dgeqrf_givens_batched, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 2, 0}, {"ldcs", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgeqrf_givens_batched_strided", 1, hx_call_numgpu_dgeqrf_givens_batched_strided, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 1, 0}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dormqr_givens_batched", 1, hx_call_numgpu_dormqr_givens_batched, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"side", HX_I32, "", 0, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 2, 1}, {"ldcs", HX_I64, "", 0, 0}, {"C", HX_PTR, "double", 2, 0}, {"ldc", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dormqr_givens_batched_strided", 1, hx_call_numgpu_dormqr_givens_batched_strided, 16, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"side", HX_I32, "", 0, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 1, 1}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"C", HX_PTR, "double", 1, 0}, {"ldc", HX_I64, "", 0, 0}, {"strideC", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dorgqr_givens_batched", 1, hx_call_numgpu_dorgqr_givens_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 2, 1}, {"ldcs", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dorgqr_givens_batched_strided", 1, hx_call_numgpu_dorgqr_givens_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 1, 1}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgels_givens_batched", 1, hx_call_numgpu_dgels_givens_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgels_givens_batched_strided", 1, hx_call_numgpu_dgels_givens_batched_strided, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgeqrf_givens_batched", 1, hx_call_numgpu_cgeqrf_givens_batched, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 2, 0}, {"ldcs", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgeqrf_givens_batched_strided", 1, hx_call_numgpu_cgeqrf_givens_batched_strided, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 1, 0}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cunmqr_givens_batched", 1, hx_call_numgpu_cunmqr_givens_batched, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"side", HX_I32, "", 0, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 2, 1}, {"ldcs", HX_I64, "", 0, 0}, {"C", HX_PTR, "numgpu_complex_float", 2, 0}, {"ldc", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cunmqr_givens_batched_strided", 1, hx_call_numgpu_cunmqr_givens_batched_strided, 16, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"side", HX_I32, "", 0, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 1, 1}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"C", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldc", HX_I64, "", 0, 0}, {"strideC", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cungqr_givens_batched", 1, hx_call_numgpu_cungqr_givens_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 2, 1}, {"ldcs", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cungqr_givens_batched_strided", 1, hx_call_numgpu_cungqr_givens_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "float", 1, 1}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgels_givens_batched", 1, hx_call_numgpu_cgels_givens_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgels_givens_batched_strided", 1, hx_call_numgpu_cgels_givens_batched_strided, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgeqrf_givens_batched", 1, hx_call_numgpu_zgeqrf_givens_batched, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 2, 0}, {"ldcs", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgeqrf_givens_batched_strided", 1, hx_call_numgpu_zgeqrf_givens_batched_strided, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 1, 0}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zunmqr_givens_batched", 1, hx_call_numgpu_zunmqr_givens_batched, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"side", HX_I32, "", 0, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 2, 1}, {"ldcs", HX_I64, "", 0, 0}, {"C", HX_PTR, "numgpu_complex_double", 2, 0}, {"ldc", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zunmqr_givens_batched_strided", 1, hx_call_numgpu_zunmqr_givens_batched_strided, 16, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"side", HX_I32, "", 0, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 1, 1}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"C", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldc", HX_I64, "", 0, 0}, {"strideC", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zungqr_givens_batched", 1, hx_call_numgpu_zungqr_givens_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 2, 1}, {"ldcs", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zungqr_givens_batched_strided", 1, hx_call_numgpu_zungqr_givens_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"k", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"CS", HX_PTR, "double", 1, 1}, {"ldcs", HX_I64, "", 0, 0}, {"strideCS", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgels_givens_batched", 1, hx_call_numgpu_zgels_givens_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgels_givens_batched_strided", 1, hx_call_numgpu_zgels_givens_batched_strided, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgetrf_fullpivot_batched", 1, hx_call_numgpu_sgetrf_fullpivot_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgetrf_fullpivot_batched_strided", 1, hx_call_numgpu_sgetrf_fullpivot_batched_strided, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgetrs_fullpivot_batched", 1, hx_call_numgpu_sgetrs_fullpivot_batched, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"B", HX_PTR, "float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgetrs_fullpivot_batched_strided", 1, hx_call_numgpu_sgetrs_fullpivot_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"B", HX_PTR, "float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgesv_fullpivot_batched", 1, hx_call_numgpu_sgesv_fullpivot_batched, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"B", HX_PTR, "float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgesv_fullpivot_batched_strided", 1, hx_call_numgpu_sgesv_fullpivot_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"B", HX_PTR, "float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgesc2_batched_strided", 1, hx_call_numgpu_sgesc2_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"rhs", HX_PTR, "float", 1, 0}, {"strideRhs", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"scale", HX_PTR, "float", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgetrf_fullpivot_batched", 1, hx_call_numgpu_dgetrf_fullpivot_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgetrf_fullpivot_batched_strided", 1, hx_call_numgpu_dgetrf_fullpivot_batched_strided, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgetrs_fullpivot_batched", 1, hx_call_numgpu_dgetrs_fullpivot_batched, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"B", HX_PTR, "double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgetrs_fullpivot_batched_strided", 1, hx_call_numgpu_dgetrs_fullpivot_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"B", HX_PTR, "double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgesv_fullpivot_batched", 1, hx_call_numgpu_dgesv_fullpivot_batched, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"B", HX_PTR, "double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgesv_fullpivot_batched_strided", 1, hx_call_numgpu_dgesv_fullpivot_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"B", HX_PTR, "double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgesc2_batched_strided", 1, hx_call_numgpu_dgesc2_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"rhs", HX_PTR, "double", 1, 0}, {"strideRhs", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"scale", HX_PTR, "double", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgetrf_fullpivot_batched", 1, hx_call_numgpu_cgetrf_fullpivot_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgetrf_fullpivot_batched_strided", 1, hx_call_numgpu_cgetrf_fullpivot_batched_strided, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgetrs_fullpivot_batched", 1, hx_call_numgpu_cgetrs_fullpivot_batched, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"B", HX_PTR, "numgpu_complex_float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgetrs_fullpivot_batched_strided", 1, hx_call_numgpu_cgetrs_fullpivot_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"B", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgesv_fullpivot_batched", 1, hx_call_numgpu_cgesv_fullpivot_batched, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"B", HX_PTR, "numgpu_complex_float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgesv_fullpivot_batched_strided", 1, hx_call_numgpu_cgesv_fullpivot_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"B", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgesc2_batched_strided", 1, hx_call_numgpu_cgesc2_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"rhs", HX_PTR, "numgpu_complex_float", 1, 0}, {"strideRhs", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"scale", HX_PTR, "float", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgetrf_fullpivot_batched", 1, hx_call_numgpu_zgetrf_fullpivot_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgetrf_fullpivot_batched_strided", 1, hx_call_numgpu_zgetrf_fullpivot_batched_strided, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgetrs_fullpivot_batched", 1, hx_call_numgpu_zgetrs_fullpivot_batched, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"B", HX_PTR, "numgpu_complex_double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgetrs_fullpivot_batched_strided", 1, hx_call_numgpu_zgetrs_fullpivot_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"B", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgesv_fullpivot_batched", 1, hx_call_numgpu_zgesv_fullpivot_batched, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"B", HX_PTR, "numgpu_complex_double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgesv_fullpivot_batched_strided", 1, hx_call_numgpu_zgesv_fullpivot_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 0}, {"jpiv", HX_PTR, "int32_t", 1, 0}, {"B", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgesc2_batched_strided", 1, hx_call_numgpu_zgesc2_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"rhs", HX_PTR, "numgpu_complex_double", 1, 0}, {"strideRhs", HX_I64, "", 0, 0}, {"ipiv", HX_PTR, "int32_t", 1, 1}, {"jpiv", HX_PTR, "int32_t", 1, 1}, {"scale", HX_PTR, "double", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgtsv_spike", 1, hx_call_numgpu_sgtsv_spike, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"dl", HX_PTR, "float", 1, 1}, {"d", HX_PTR, "float", 1, 1}, {"du", HX_PTR, "float", 1, 1}, {"B", HX_PTR, "float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_sgtsv_batched_strided", 1, hx_call_numgpu_sgtsv_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"dl", HX_PTR, "float", 1, 1}, {"d", HX_PTR, "float", 1, 1}, {"du", HX_PTR, "float", 1, 1}, {"stride_diag", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgtsv_batched_interleaved", 1, hx_call_numgpu_sgtsv_batched_interleaved, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"dl", HX_PTR, "float", 1, 1}, {"d", HX_PTR, "float", 1, 1}, {"du", HX_PTR, "float", 1, 1}, {"B", HX_PTR, "float", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgtsv_spike", 1, hx_call_numgpu_dgtsv_spike, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"dl", HX_PTR, "double", 1, 1}, {"d", HX_PTR, "double", 1, 1}, {"du", HX_PTR, "double", 1, 1}, {"B", HX_PTR, "double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_dgtsv_batched_strided", 1, hx_call_numgpu_dgtsv_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"dl", HX_PTR, "double", 1, 1}, {"d", HX_PTR, "double", 1, 1}, {"du", HX_PTR, "double", 1, 1}, {"stride_diag", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgtsv_batched_interleaved", 1, hx_call_numgpu_dgtsv_batched_interleaved, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"dl", HX_PTR, "double", 1, 1}, {"d", HX_PTR, "double", 1, 1}, {"du", HX_PTR, "double", 1, 1}, {"B", HX_PTR, "double", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgtsv_spike", 1, hx_call_numgpu_cgtsv_spike, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"dl", HX_PTR, "numgpu_complex_float", 1, 1}, {"d", HX_PTR, "numgpu_complex_float", 1, 1}, {"du", HX_PTR, "numgpu_complex_float", 1, 1}, {"B", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_cgtsv_batched_strided", 1, hx_call_numgpu_cgtsv_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"dl", HX_PTR, "numgpu_complex_float", 1, 1}, {"d", HX_PTR, "numgpu_complex_float", 1, 1}, {"du", HX_PTR, "numgpu_complex_float", 1, 1}, {"stride_diag", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgtsv_batched_interleaved", 1, hx_call_numgpu_cgtsv_batched_interleaved, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"dl", HX_PTR, "numgpu_complex_float", 1, 1}, {"d", HX_PTR, "numgpu_complex_float", 1, 1}, {"du", HX_PTR, "numgpu_complex_float", 1, 1}, {"B", HX_PTR, "numgpu_complex_float", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgtsv_spike", 1, hx_call_numgpu_zgtsv_spike, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"dl", HX_PTR, "numgpu_complex_double", 1, 1}, {"d", HX_PTR, "numgpu_complex_double", 1, 1}, {"du", HX_PTR, "numgpu_complex_double", 1, 1}, {"B", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_zgtsv_batched_strided", 1, hx_call_numgpu_zgtsv_batched_strided, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"dl", HX_PTR, "numgpu_complex_double", 1, 1}, {"d", HX_PTR, "numgpu_complex_double", 1, 1}, {"du", HX_PTR, "numgpu_complex_double", 1, 1}, {"stride_diag", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgtsv_batched_interleaved", 1, hx_call_numgpu_zgtsv_batched_interleaved, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"pivoting", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"dl", HX_PTR, "numgpu_complex_double", 1, 1}, {"d", HX_PTR, "numgpu_complex_double", 1, 1}, {"du", HX_PTR, "numgpu_complex_double", 1, 1}, {"B", HX_PTR, "numgpu_complex_double", 1, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_ssyevj_batched", 1, hx_call_numgpu_ssyevj_batched, 14, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"jobz", HX_I32, "", 0, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"w", HX_PTR, "float", 1, 0}, {"strideW", HX_I64, "", 0, 0}, {"params", HX_PTR, "numgpu_jacobi_params", 1, 1}, {"info", HX_PTR, "int32_t", 1, 0}, {"sweeps", HX_PTR, "int32_t", 1, 0}, {"residual", HX_PTR, "float", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dsyevj_batched", 1, hx_call_numgpu_dsyevj_batched, 14, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"jobz", HX_I32, "", 0, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"w", HX_PTR, "double", 1, 0}, {"strideW", HX_I64, "", 0, 0}, {"params", HX_PTR, "numgpu_jacobi_params", 1, 1}, {"info", HX_PTR, "int32_t", 1, 0}, {"sweeps", HX_PTR, "int32_t", 1, 0}, {"residual", HX_PTR, "double", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cheevj_batched", 1, hx_call_numgpu_cheevj_batched, 14, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"jobz", HX_I32, "", 0, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"w", HX_PTR, "float", 1, 0}, {"strideW", HX_I64, "", 0, 0}, {"params", HX_PTR, "numgpu_jacobi_params", 1, 1}, {"info", HX_PTR, "int32_t", 1, 0}, {"sweeps", HX_PTR, "int32_t", 1, 0}, {"residual", HX_PTR, "float", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zheevj_batched", 1, hx_call_numgpu_zheevj_batched, 14, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"jobz", HX_I32, "", 0, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"w", HX_PTR, "double", 1, 0}, {"strideW", HX_I64, "", 0, 0}, {"params", HX_PTR, "numgpu_jacobi_params", 1, 1}, {"info", HX_PTR, "int32_t", 1, 0}, {"sweeps", HX_PTR, "int32_t", 1, 0}, {"residual", HX_PTR, "double", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sgesvdj_batched", 1, hx_call_numgpu_sgesvdj_batched, 21, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"jobu", HX_I32, "", 0, 0}, {"jobv", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"S", HX_PTR, "float", 1, 0}, {"strideS", HX_I64, "", 0, 0}, {"U", HX_PTR, "float", 1, 0}, {"ldu", HX_I64, "", 0, 0}, {"strideU", HX_I64, "", 0, 0}, {"V", HX_PTR, "float", 1, 0}, {"ldv", HX_I64, "", 0, 0}, {"strideV", HX_I64, "", 0, 0}, {"params", HX_PTR, "numgpu_jacobi_params", 1, 1}, {"info", HX_PTR, "int32_t", 1, 0}, {"sweeps", HX_PTR, "int32_t", 1, 0}, {"residual", HX_PTR, "float", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dgesvdj_batched", 1, hx_call_numgpu_dgesvdj_batched, 21, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"jobu", HX_I32, "", 0, 0}, {"jobv", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"S", HX_PTR, "double", 1, 0}, {"strideS", HX_I64, "", 0, 0}, {"U", HX_PTR, "double", 1, 0}, {"ldu", HX_I64, "", 0, 0}, {"strideU", HX_I64, "", 0, 0}, {"V", HX_PTR, "double", 1, 0}, {"ldv", HX_I64, "", 0, 0}, {"strideV", HX_I64, "", 0, 0}, {"params", HX_PTR, "numgpu_jacobi_params", 1, 1}, {"info", HX_PTR, "int32_t", 1, 0}, {"sweeps", HX_PTR, "int32_t", 1, 0}, {"residual", HX_PTR, "double", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cgesvdj_batched", 1, hx_call_numgpu_cgesvdj_batched, 21, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"jobu", HX_I32, "", 0, 0}, {"jobv", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"S", HX_PTR, "float", 1, 0}, {"strideS", HX_I64, "", 0, 0}, {"U", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldu", HX_I64, "", 0, 0}, {"strideU", HX_I64, "", 0, 0}, {"V", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldv", HX_I64, "", 0, 0}, {"strideV", HX_I64, "", 0, 0}, {"params", HX_PTR, "numgpu_jacobi_params", 1, 1}, {"info", HX_PTR, "int32_t", 1, 0}, {"sweeps", HX_PTR, "int32_t", 1, 0}, {"residual", HX_PTR, "float", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zgesvdj_batched", 1, hx_call_numgpu_zgesvdj_batched, 21, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"jobu", HX_I32, "", 0, 0}, {"jobv", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"S", HX_PTR, "double", 1, 0}, {"strideS", HX_I64, "", 0, 0}, {"U", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldu", HX_I64, "", 0, 0}, {"strideU", HX_I64, "", 0, 0}, {"V", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldv", HX_I64, "", 0, 0}, {"strideV", HX_I64, "", 0, 0}, {"params", HX_PTR, "numgpu_jacobi_params", 1, 1}, {"info", HX_PTR, "int32_t", 1, 0}, {"sweeps", HX_PTR, "int32_t", 1, 0}, {"residual", HX_PTR, "double", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_spotrf_batched", 1, hx_call_numgpu_spotrf_batched, 7, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_spotrf_batched_strided", 1, hx_call_numgpu_spotrf_batched_strided, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_spotrs_batched", 1, hx_call_numgpu_spotrs_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_spotrs_batched_strided", 1, hx_call_numgpu_spotrs_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sposv_batched", 1, hx_call_numgpu_sposv_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sposv_batched_strided", 1, hx_call_numgpu_sposv_batched_strided, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dpotrf_batched", 1, hx_call_numgpu_dpotrf_batched, 7, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dpotrf_batched_strided", 1, hx_call_numgpu_dpotrf_batched_strided, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dpotrs_batched", 1, hx_call_numgpu_dpotrs_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dpotrs_batched_strided", 1, hx_call_numgpu_dpotrs_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dposv_batched", 1, hx_call_numgpu_dposv_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dposv_batched_strided", 1, hx_call_numgpu_dposv_batched_strided, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cpotrf_batched", 1, hx_call_numgpu_cpotrf_batched, 7, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cpotrf_batched_strided", 1, hx_call_numgpu_cpotrf_batched_strided, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cpotrs_batched", 1, hx_call_numgpu_cpotrs_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cpotrs_batched_strided", 1, hx_call_numgpu_cpotrs_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cposv_batched", 1, hx_call_numgpu_cposv_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_cposv_batched_strided", 1, hx_call_numgpu_cposv_batched_strided, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_float", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_float", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zpotrf_batched", 1, hx_call_numgpu_zpotrf_batched, 7, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zpotrf_batched_strided", 1, hx_call_numgpu_zpotrf_batched_strided, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zpotrs_batched", 1, hx_call_numgpu_zpotrs_batched, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zpotrs_batched_strided", 1, hx_call_numgpu_zpotrs_batched_strided, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zposv_batched", 1, hx_call_numgpu_zposv_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 2, 0}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 2, 0}, {"ldb", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_zposv_batched_strided", 1, hx_call_numgpu_zposv_batched_strided, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"uplo", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nrhs", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_complex_double", 1, 0}, {"lda", HX_I64, "", 0, 0}, {"strideA", HX_I64, "", 0, 0}, {"B", HX_PTR, "numgpu_complex_double", 1, 0}, {"ldb", HX_I64, "", 0, 0}, {"strideB", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_life_plan_create", 1, hx_call_numgpu_life_plan_create, 12, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ntheta", HX_I64, "", 0, 0}, {"natoms", HX_I64, "", 0, 0}, {"nvoxels", HX_I64, "", 0, 0}, {"nfibers", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"atoms", HX_PTR, "int32_t", 1, 1}, {"voxels", HX_PTR, "int32_t", 1, 1}, {"fibers", HX_PTR, "int32_t", 1, 1}, {"index_base", HX_I32, "", 0, 0}, {"values", HX_PTR, "double", 1, 1}, {"p", HX_PTR, "numgpu_life_plan", 2, 0}}},
    {"numgpu_life_plan_create_subs", 1, hx_call_numgpu_life_plan_create_subs, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ntheta", HX_I64, "", 0, 0}, {"natoms", HX_I64, "", 0, 0}, {"nvoxels", HX_I64, "", 0, 0}, {"nfibers", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"subs", HX_PTR, "double", 1, 1}, {"values", HX_PTR, "double", 1, 1}, {"p", HX_PTR, "numgpu_life_plan", 2, 0}}},
    {"numgpu_dlife_mw", 1, hx_call_numgpu_dlife_mw, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"p", HX_PTR, "numgpu_life_plan", 1, 1}, {"D", HX_PTR, "double", 1, 1}, {"ldd", HX_I64, "", 0, 0}, {"w", HX_PTR, "double", 1, 1}, {"beta", HX_F64, "", 0, 0}, {"Y", HX_PTR, "double", 1, 0}, {"ldy", HX_I64, "", 0, 0}}},
    {"numgpu_dlife_mty", 1, hx_call_numgpu_dlife_mty, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"p", HX_PTR, "numgpu_life_plan", 1, 1}, {"D", HX_PTR, "double", 1, 1}, {"ldd", HX_I64, "", 0, 0}, {"Y", HX_PTR, "double", 1, 1}, {"ldy", HX_I64, "", 0, 0}, {"beta", HX_F64, "", 0, 0}, {"w", HX_PTR, "double", 1, 0}}},
    {"numgpu_dlife_sbbnnls", 1, hx_call_numgpu_dlife_sbbnnls, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"p", HX_PTR, "numgpu_life_plan", 1, 1}, {"D", HX_PTR, "double", 1, 1}, {"ldd", HX_I64, "", 0, 0}, {"b", HX_PTR, "double", 1, 1}, {"ldb", HX_I64, "", 0, 0}, {"w", HX_PTR, "double", 1, 0}, {"max_iters", HX_I64, "", 0, 0}, {"tol", HX_F64, "", 0, 0}, {"iters", HX_PTR, "int32_t", 1, 0}, {"objective", HX_PTR, "double", 1, 0}}},
    {"numgpu_life_plan_info", 1, hx_call_numgpu_life_plan_info, 6, {{"p", HX_PTR, "numgpu_life_plan", 1, 1}, {"ntheta", HX_PTR, "int64_t", 1, 0}, {"natoms", HX_PTR, "int64_t", 1, 0}, {"nvoxels", HX_PTR, "int64_t", 1, 0}, {"nfibers", HX_PTR, "int64_t", 1, 0}, {"nnz", HX_PTR, "int64_t", 1, 0}}},
    {"numgpu_life_plan_destroy", 1, hx_call_numgpu_life_plan_destroy, 1, {{"p", HX_PTR, "numgpu_life_plan", 1, 0}}},
    {"numgpu_ode_create", 1, hx_call_numgpu_ode_create, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"neq", HX_I64, "", 0, 0}, {"npar", HX_I64, "", 0, 0}, {"cuda_source", HX_PTR, "char", 1, 1}, {"host_rhs", HX_FN, "", 0, 0}, {"host_spcrad", HX_FN, "", 0, 0}, {"user", HX_PTR, "void", 1, 0}, {"ode", HX_PTR, "numgpu_ode", 2, 0}}},
    {"numgpu_ode_builtin", 1, hx_call_numgpu_ode_builtin, 4, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"which", HX_I32, "", 0, 0}, {"size", HX_I64, "", 0, 0}, {"ode", HX_PTR, "numgpu_ode", 2, 0}}},
    {"numgpu_ode_destroy", 1, hx_call_numgpu_ode_destroy, 1, {{"ode", HX_PTR, "numgpu_ode", 1, 0}}},
    {"numgpu_rkc_options_default", 1, hx_call_numgpu_rkc_options_default, 1, {{"opts", HX_PTR, "numgpu_rkc_options", 1, 0}}},
    {"numgpu_rkc_integrate", 1, hx_call_numgpu_rkc_integrate, 17, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ode", HX_PTR, "numgpu_ode", 1, 1}, {"nsys", HX_I64, "", 0, 0}, {"natol", HX_I64, "", 0, 0}, {"t0", HX_F64, "", 0, 0}, {"tend", HX_F64, "", 0, 0}, {"Y", HX_PTR, "double", 1, 0}, {"ldy", HX_I64, "", 0, 0}, {"layout", HX_I32, "", 0, 0}, {"P", HX_PTR, "double", 1, 1}, {"ldp", HX_I64, "", 0, 0}, {"rtol", HX_F64, "", 0, 0}, {"atol", HX_PTR, "double", 1, 1}, {"opts", HX_PTR, "numgpu_rkc_options", 1, 1}, {"state", HX_PTR, "double", 1, 0}, {"status", HX_PTR, "int32_t", 1, 0}, {"stats", HX_PTR, "int64_t", 1, 0}}},
    {"numgpu_scsrmv", 1, hx_call_numgpu_scsrmv, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"alpha", HX_F32, "", 0, 0}, {"val", HX_PTR, "float", 1, 1}, {"row_ptr", HX_PTR, "int32_t", 1, 1}, {"col_ind", HX_PTR, "int32_t", 1, 1}, {"index_base", HX_I32, "", 0, 0}, {"x", HX_PTR, "float", 1, 1}, {"beta", HX_F32, "", 0, 0}, {"y", HX_PTR, "float", 1, 0}}},
    {"numgpu_dcsrmv", 1, hx_call_numgpu_dcsrmv, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"alpha", HX_F64, "", 0, 0}, {"val", HX_PTR, "double", 1, 1}, {"row_ptr", HX_PTR, "int32_t", 1, 1}, {"col_ind", HX_PTR, "int32_t", 1, 1}, {"index_base", HX_I32, "", 0, 0}, {"x", HX_PTR, "double", 1, 1}, {"beta", HX_F64, "", 0, 0}, {"y", HX_PTR, "double", 1, 0}}},
    {"numgpu_ccsrmv", 1, hx_call_numgpu_ccsrmv, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"alpha", HX_C32, "", 0, 0}, {"val", HX_PTR, "numgpu_complex_float", 1, 1}, {"row_ptr", HX_PTR, "int32_t", 1, 1}, {"col_ind", HX_PTR, "int32_t", 1, 1}, {"index_base", HX_I32, "", 0, 0}, {"x", HX_PTR, "numgpu_complex_float", 1, 1}, {"beta", HX_C32, "", 0, 0}, {"y", HX_PTR, "numgpu_complex_float", 1, 0}}},
    {"numgpu_zcsrmv", 1, hx_call_numgpu_zcsrmv, 13, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"alpha", HX_C64, "", 0, 0}, {"val", HX_PTR, "numgpu_complex_double", 1, 1}, {"row_ptr", HX_PTR, "int32_t", 1, 1}, {"col_ind", HX_PTR, "int32_t", 1, 1}, {"index_base", HX_I32, "", 0, 0}, {"x", HX_PTR, "numgpu_complex_double", 1, 1}, {"beta", HX_C64, "", 0, 0}, {"y", HX_PTR, "numgpu_complex_double", 1, 0}}},
    {"numgpu_scmrs_create", 1, hx_call_numgpu_scmrs_create, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"val", HX_PTR, "float", 1, 1}, {"row_ptr", HX_PTR, "int32_t", 1, 1}, {"col_ind", HX_PTR, "int32_t", 1, 1}, {"index_base", HX_I32, "", 0, 0}, {"height", HX_I64, "", 0, 0}, {"M", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_cmrs_matrix", 2, 0}}},
    {"numgpu_dcmrs_create", 1, hx_call_numgpu_dcmrs_create, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"val", HX_PTR, "double", 1, 1}, {"row_ptr", HX_PTR, "int32_t", 1, 1}, {"col_ind", HX_PTR, "int32_t", 1, 1}, {"index_base", HX_I32, "", 0, 0}, {"height", HX_I64, "", 0, 0}, {"M", HX_I64, "", 0, 0}, {"A", HX_PTR, "numgpu_cmrs_matrix", 2, 0}}},
    {"numgpu_scmrs_update_values", 1, hx_call_numgpu_scmrs_update_values, 3, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"A", HX_PTR, "numgpu_cmrs_matrix", 1, 0}, {"val", HX_PTR, "float", 1, 1}}},
    {"numgpu_dcmrs_update_values", 1, hx_call_numgpu_dcmrs_update_values, 3, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"A", HX_PTR, "numgpu_cmrs_matrix", 1, 0}, {"val", HX_PTR, "double", 1, 1}}},
    {"numgpu_scmrsmv", 1, hx_call_numgpu_scmrsmv, 6, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"alpha", HX_F32, "", 0, 0}, {"A", HX_PTR, "numgpu_cmrs_matrix", 1, 1}, {"x", HX_PTR, "float", 1, 1}, {"beta", HX_F32, "", 0, 0}, {"y", HX_PTR, "float", 1, 0}}},
    {"numgpu_dcmrsmv", 1, hx_call_numgpu_dcmrsmv, 6, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"alpha", HX_F64, "", 0, 0}, {"A", HX_PTR, "numgpu_cmrs_matrix", 1, 1}, {"x", HX_PTR, "double", 1, 1}, {"beta", HX_F64, "", 0, 0}, {"y", HX_PTR, "double", 1, 0}}},
    {"numgpu_cmrs_info", 1, hx_call_numgpu_cmrs_info, 4, {{"A", HX_PTR, "numgpu_cmrs_matrix", 1, 1}, {"height", HX_PTR, "int64_t", 1, 0}, {"M", HX_PTR, "int64_t", 1, 0}, {"padding_ratio", HX_PTR, "double", 1, 0}}},
    {"numgpu_cmrs_destroy", 1, hx_call_numgpu_cmrs_destroy, 1, {{"A", HX_PTR, "numgpu_cmrs_matrix", 1, 0}}},
    {"numgpu_csr_plan_create", 1, hx_call_numgpu_csr_plan_create, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"trans", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"nnz", HX_I64, "", 0, 0}, {"row_ptr", HX_PTR, "int32_t", 1, 1}, {"col_ind", HX_PTR, "int32_t", 1, 1}, {"index_base", HX_I32, "", 0, 0}, {"hints", HX_I64, "", 0, 0}, {"plan", HX_PTR, "numgpu_csr_plan", 2, 0}}},
    {"numgpu_scsrmv_plan", 1, hx_call_numgpu_scsrmv_plan, 7, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"plan", HX_PTR, "numgpu_csr_plan", 1, 1}, {"alpha", HX_F32, "", 0, 0}, {"val", HX_PTR, "float", 1, 1}, {"x", HX_PTR, "float", 1, 1}, {"beta", HX_F32, "", 0, 0}, {"y", HX_PTR, "float", 1, 0}}},
    {"numgpu_dcsrmv_plan", 1, hx_call_numgpu_dcsrmv_plan, 7, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"plan", HX_PTR, "numgpu_csr_plan", 1, 1}, {"alpha", HX_F64, "", 0, 0}, {"val", HX_PTR, "double", 1, 1}, {"x", HX_PTR, "double", 1, 1}, {"beta", HX_F64, "", 0, 0}, {"y", HX_PTR, "double", 1, 0}}},
    {"numgpu_ccsrmv_plan", 1, hx_call_numgpu_ccsrmv_plan, 7, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"plan", HX_PTR, "numgpu_csr_plan", 1, 1}, {"alpha", HX_C32, "", 0, 0}, {"val", HX_PTR, "numgpu_complex_float", 1, 1}, {"x", HX_PTR, "numgpu_complex_float", 1, 1}, {"beta", HX_C32, "", 0, 0}, {"y", HX_PTR, "numgpu_complex_float", 1, 0}}},
    {"numgpu_zcsrmv_plan", 1, hx_call_numgpu_zcsrmv_plan, 7, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"plan", HX_PTR, "numgpu_csr_plan", 1, 1}, {"alpha", HX_C64, "", 0, 0}, {"val", HX_PTR, "numgpu_complex_double", 1, 1}, {"x", HX_PTR, "numgpu_complex_double", 1, 1}, {"beta", HX_C64, "", 0, 0}, {"y", HX_PTR, "numgpu_complex_double", 1, 0}}},
    {"numgpu_csr_plan_info", 1, hx_call_numgpu_csr_plan_info, 4, {{"plan", HX_PTR, "numgpu_csr_plan", 1, 1}, {"units", HX_PTR, "int64_t", 1, 0}, {"split_rows", HX_PTR, "int64_t", 1, 0}, {"bytes", HX_PTR, "int64_t", 1, 0}}},
    {"numgpu_csr_plan_destroy", 1, hx_call_numgpu_csr_plan_destroy, 1, {{"plan", HX_PTR, "numgpu_csr_plan", 1, 0}}},
    {"numgpu_sshopm", 1, hx_call_numgpu_sshopm, 18, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"shift_kind", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"ntensors", HX_I64, "", 0, 0}, {"nstarts", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"strideA", HX_I64, "", 0, 0}, {"X0", HX_PTR, "float", 1, 1}, {"strideX0", HX_I64, "", 0, 0}, {"alpha", HX_F32, "", 0, 0}, {"tol", HX_F32, "", 0, 0}, {"maxit", HX_I64, "", 0, 0}, {"lambda", HX_PTR, "float", 1, 0}, {"X", HX_PTR, "float", 1, 0}, {"iters", HX_PTR, "int32_t", 1, 0}, {"flags", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_dsshopm", 1, hx_call_numgpu_dsshopm, 18, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"shift_kind", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"ntensors", HX_I64, "", 0, 0}, {"nstarts", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"strideA", HX_I64, "", 0, 0}, {"X0", HX_PTR, "double", 1, 1}, {"strideX0", HX_I64, "", 0, 0}, {"alpha", HX_F64, "", 0, 0}, {"tol", HX_F64, "", 0, 0}, {"maxit", HX_I64, "", 0, 0}, {"lambda", HX_PTR, "double", 1, 0}, {"X", HX_PTR, "double", 1, 0}, {"iters", HX_PTR, "int32_t", 1, 0}, {"flags", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_sshopm_unique", 1, hx_call_numgpu_sshopm_unique, 21, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"shift_kind", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"ntensors", HX_I64, "", 0, 0}, {"nstarts", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"strideA", HX_I64, "", 0, 0}, {"X0", HX_PTR, "float", 1, 1}, {"strideX0", HX_I64, "", 0, 0}, {"alpha", HX_F32, "", 0, 0}, {"tol", HX_F32, "", 0, 0}, {"maxit", HX_I64, "", 0, 0}, {"merge_tol", HX_F32, "", 0, 0}, {"kmax", HX_I64, "", 0, 0}, {"count", HX_PTR, "int32_t", 1, 0}, {"lambda", HX_PTR, "float", 1, 0}, {"X", HX_PTR, "float", 1, 0}, {"mult", HX_PTR, "int32_t", 1, 0}, {"pair_type", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_dsshopm_unique", 1, hx_call_numgpu_dsshopm_unique, 21, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"mode", HX_I32, "", 0, 0}, {"shift_kind", HX_I32, "", 0, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"ntensors", HX_I64, "", 0, 0}, {"nstarts", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"strideA", HX_I64, "", 0, 0}, {"X0", HX_PTR, "double", 1, 1}, {"strideX0", HX_I64, "", 0, 0}, {"alpha", HX_F64, "", 0, 0}, {"tol", HX_F64, "", 0, 0}, {"maxit", HX_I64, "", 0, 0}, {"merge_tol", HX_F64, "", 0, 0}, {"kmax", HX_I64, "", 0, 0}, {"count", HX_PTR, "int32_t", 1, 0}, {"lambda", HX_PTR, "double", 1, 0}, {"X", HX_PTR, "double", 1, 0}, {"mult", HX_PTR, "int32_t", 1, 0}, {"pair_type", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_ssym_apply", 1, hx_call_numgpu_ssym_apply, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"p", HX_I64, "", 0, 0}, {"ntensors", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"strideA", HX_I64, "", 0, 0}, {"x", HX_PTR, "float", 1, 1}, {"strideX", HX_I64, "", 0, 0}, {"y", HX_PTR, "float", 1, 0}, {"strideY", HX_I64, "", 0, 0}}},
    {"numgpu_dsym_apply", 1, hx_call_numgpu_dsym_apply, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"p", HX_I64, "", 0, 0}, {"ntensors", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"strideA", HX_I64, "", 0, 0}, {"x", HX_PTR, "double", 1, 1}, {"strideX", HX_I64, "", 0, 0}, {"y", HX_PTR, "double", 1, 0}, {"strideY", HX_I64, "", 0, 0}}},
    {"numgpu_ssym_pack", 1, hx_call_numgpu_ssym_pack, 4, {{"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"dense", HX_PTR, "float", 1, 1}, {"packed", HX_PTR, "float", 1, 0}}},
    {"numgpu_dsym_pack", 1, hx_call_numgpu_dsym_pack, 4, {{"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"dense", HX_PTR, "double", 1, 1}, {"packed", HX_PTR, "double", 1, 0}}},
    {"numgpu_ssym_unpack", 1, hx_call_numgpu_ssym_unpack, 4, {{"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"packed", HX_PTR, "float", 1, 1}, {"dense", HX_PTR, "float", 1, 0}}},
    {"numgpu_dsym_unpack", 1, hx_call_numgpu_dsym_unpack, 4, {{"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"packed", HX_PTR, "double", 1, 1}, {"dense", HX_PTR, "double", 1, 0}}},
    {"numgpu_sstebz_batched", 1, hx_call_numgpu_sstebz_batched, 17, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"range", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"vl", HX_F32, "", 0, 0}, {"vu", HX_F32, "", 0, 0}, {"il", HX_I64, "", 0, 0}, {"iu", HX_I64, "", 0, 0}, {"abstol", HX_F32, "", 0, 0}, {"d", HX_PTR, "float", 1, 1}, {"strideD", HX_I64, "", 0, 0}, {"e", HX_PTR, "float", 1, 1}, {"strideE", HX_I64, "", 0, 0}, {"m", HX_PTR, "int64_t", 1, 0}, {"w", HX_PTR, "float", 1, 0}, {"strideW", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dstebz_batched", 1, hx_call_numgpu_dstebz_batched, 17, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"range", HX_I32, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"vl", HX_F64, "", 0, 0}, {"vu", HX_F64, "", 0, 0}, {"il", HX_I64, "", 0, 0}, {"iu", HX_I64, "", 0, 0}, {"abstol", HX_F64, "", 0, 0}, {"d", HX_PTR, "double", 1, 1}, {"strideD", HX_I64, "", 0, 0}, {"e", HX_PTR, "double", 1, 1}, {"strideE", HX_I64, "", 0, 0}, {"m", HX_PTR, "int64_t", 1, 0}, {"w", HX_PTR, "double", 1, 0}, {"strideW", HX_I64, "", 0, 0}, {"info", HX_PTR, "int32_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_sstecount_batched", 1, hx_call_numgpu_sstecount_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nmu", HX_I64, "", 0, 0}, {"d", HX_PTR, "float", 1, 1}, {"strideD", HX_I64, "", 0, 0}, {"e", HX_PTR, "float", 1, 1}, {"strideE", HX_I64, "", 0, 0}, {"mu", HX_PTR, "float", 1, 1}, {"count", HX_PTR, "int64_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_dstecount_batched", 1, hx_call_numgpu_dstecount_batched, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"n", HX_I64, "", 0, 0}, {"nmu", HX_I64, "", 0, 0}, {"d", HX_PTR, "double", 1, 1}, {"strideD", HX_I64, "", 0, 0}, {"e", HX_PTR, "double", 1, 1}, {"strideE", HX_I64, "", 0, 0}, {"mu", HX_PTR, "double", 1, 1}, {"count", HX_PTR, "int64_t", 1, 0}, {"batch", HX_I64, "", 0, 0}}},
    {"numgpu_skhatri_rao", 1, hx_call_numgpu_skhatri_rao, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"r", HX_I64, "", 0, 0}, {"A", HX_PTR, "float", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "float", 1, 1}, {"ldb", HX_I64, "", 0, 0}, {"C", HX_PTR, "float", 1, 0}, {"ldc", HX_I64, "", 0, 0}}},
    {"numgpu_dkhatri_rao", 1, hx_call_numgpu_dkhatri_rao, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"m", HX_I64, "", 0, 0}, {"n", HX_I64, "", 0, 0}, {"r", HX_I64, "", 0, 0}, {"A", HX_PTR, "double", 1, 1}, {"lda", HX_I64, "", 0, 0}, {"B", HX_PTR, "double", 1, 1}, {"ldb", HX_I64, "", 0, 0}, {"C", HX_PTR, "double", 1, 0}, {"ldc", HX_I64, "", 0, 0}}},
    {"numgpu_smttkrp", 1, hx_call_numgpu_smttkrp, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "float", 1, 1}, {"mode", HX_I64, "", 0, 0}, {"rank", HX_I64, "", 0, 0}, {"U", HX_PTR, "float", 2, 1}, {"ldu", HX_PTR, "int64_t", 1, 1}, {"M", HX_PTR, "float", 1, 0}, {"ldm", HX_I64, "", 0, 0}}},
    {"numgpu_dmttkrp", 1, hx_call_numgpu_dmttkrp, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "double", 1, 1}, {"mode", HX_I64, "", 0, 0}, {"rank", HX_I64, "", 0, 0}, {"U", HX_PTR, "double", 2, 1}, {"ldu", HX_PTR, "int64_t", 1, 1}, {"M", HX_PTR, "double", 1, 0}, {"ldm", HX_I64, "", 0, 0}}},
    {"numgpu_scp_als", 1, hx_call_numgpu_scp_als, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "float", 1, 1}, {"rank", HX_I64, "", 0, 0}, {"U", HX_PTR, "float", 2, 0}, {"ldu", HX_PTR, "int64_t", 1, 1}, {"lambda", HX_PTR, "float", 1, 0}, {"opts", HX_PTR, "numgpu_cp_options", 1, 1}, {"fit", HX_PTR, "float", 1, 0}, {"iters", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_dcp_als", 1, hx_call_numgpu_dcp_als, 11, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "double", 1, 1}, {"rank", HX_I64, "", 0, 0}, {"U", HX_PTR, "double", 2, 0}, {"ldu", HX_PTR, "int64_t", 1, 1}, {"lambda", HX_PTR, "double", 1, 0}, {"opts", HX_PTR, "numgpu_cp_options", 1, 1}, {"fit", HX_PTR, "double", 1, 0}, {"iters", HX_PTR, "int32_t", 1, 0}}},
    {"numgpu_scp_reconstruct", 1, hx_call_numgpu_scp_reconstruct, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"rank", HX_I64, "", 0, 0}, {"U", HX_PTR, "float", 2, 1}, {"ldu", HX_PTR, "int64_t", 1, 1}, {"lambda", HX_PTR, "float", 1, 1}, {"X", HX_PTR, "float", 1, 0}}},
    {"numgpu_dcp_reconstruct", 1, hx_call_numgpu_dcp_reconstruct, 8, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"rank", HX_I64, "", 0, 0}, {"U", HX_PTR, "double", 2, 1}, {"ldu", HX_PTR, "int64_t", 1, 1}, {"lambda", HX_PTR, "double", 1, 1}, {"X", HX_PTR, "double", 1, 0}}},
    {"numgpu_stt_svd", 1, hx_call_numgpu_stt_svd, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "float", 1, 1}, {"eps", HX_F32, "", 0, 0}, {"max_ranks", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 0}, {"cores", HX_PTR, "float", 1, 0}, {"capacity", HX_I64, "", 0, 0}, {"offsets", HX_PTR, "int64_t", 1, 0}}},
    {"numgpu_dtt_svd", 1, hx_call_numgpu_dtt_svd, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "double", 1, 1}, {"eps", HX_F64, "", 0, 0}, {"max_ranks", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 0}, {"cores", HX_PTR, "double", 1, 0}, {"capacity", HX_I64, "", 0, 0}, {"offsets", HX_PTR, "int64_t", 1, 0}}},
    {"numgpu_str_svd", 1, hx_call_numgpu_str_svd, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "float", 1, 1}, {"eps", HX_F32, "", 0, 0}, {"max_ranks", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 0}, {"cores", HX_PTR, "float", 1, 0}, {"capacity", HX_I64, "", 0, 0}, {"offsets", HX_PTR, "int64_t", 1, 0}}},
    {"numgpu_dtr_svd", 1, hx_call_numgpu_dtr_svd, 10, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "double", 1, 1}, {"eps", HX_F64, "", 0, 0}, {"max_ranks", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 0}, {"cores", HX_PTR, "double", 1, 0}, {"capacity", HX_I64, "", 0, 0}, {"offsets", HX_PTR, "int64_t", 1, 0}}},
    {"numgpu_stt_reconstruct", 1, hx_call_numgpu_stt_reconstruct, 6, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 1}, {"cores", HX_PTR, "float", 1, 1}, {"X", HX_PTR, "float", 1, 0}}},
    {"numgpu_dtt_reconstruct", 1, hx_call_numgpu_dtt_reconstruct, 6, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 1}, {"cores", HX_PTR, "double", 1, 1}, {"X", HX_PTR, "double", 1, 0}}},
    {"numgpu_str_reconstruct", 1, hx_call_numgpu_str_reconstruct, 6, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 1}, {"cores", HX_PTR, "float", 1, 1}, {"X", HX_PTR, "float", 1, 0}}},
    {"numgpu_dtr_reconstruct", 1, hx_call_numgpu_dtr_reconstruct, 6, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"ndim", HX_I64, "", 0, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 1}, {"cores", HX_PTR, "double", 1, 1}, {"X", HX_PTR, "double", 1, 0}}},
    {"numgpu_sht", 1, hx_call_numgpu_sht, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "float", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 1}, {"U1", HX_PTR, "float", 1, 0}, {"U2", HX_PTR, "float", 1, 0}, {"U3", HX_PTR, "float", 1, 0}, {"B1", HX_PTR, "float", 1, 0}, {"B2", HX_PTR, "float", 1, 0}}},
    {"numgpu_dht", 1, hx_call_numgpu_dht, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"X", HX_PTR, "double", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 1}, {"U1", HX_PTR, "double", 1, 0}, {"U2", HX_PTR, "double", 1, 0}, {"U3", HX_PTR, "double", 1, 0}, {"B1", HX_PTR, "double", 1, 0}, {"B2", HX_PTR, "double", 1, 0}}},
    {"numgpu_sht_reconstruct", 1, hx_call_numgpu_sht_reconstruct, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 1}, {"U1", HX_PTR, "float", 1, 1}, {"U2", HX_PTR, "float", 1, 1}, {"U3", HX_PTR, "float", 1, 1}, {"B1", HX_PTR, "float", 1, 1}, {"B2", HX_PTR, "float", 1, 1}, {"X", HX_PTR, "float", 1, 0}}},
    {"numgpu_dht_reconstruct", 1, hx_call_numgpu_dht_reconstruct, 9, {{"h", HX_PTR, "numgpu_handle", 1, 0}, {"dims", HX_PTR, "int64_t", 1, 1}, {"ranks", HX_PTR, "int64_t", 1, 1}, {"U1", HX_PTR, "double", 1, 1}, {"U2", HX_PTR, "double", 1, 1}, {"U3", HX_PTR, "double", 1, 1}, {"B1", HX_PTR, "double", 1, 1}, {"B2", HX_PTR, "double", 1, 1}, {"X", HX_PTR, "double", 1, 0}}},
};

#define HX_NFUNCS ((int)(sizeof HX_FUNCS / sizeof HX_FUNCS[0]))

#endif /* NUMGPU_HOSTILE_CALLS_H */
