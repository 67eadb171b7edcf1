// Device-side helpers shared by every numgpu kernel: the complex type, scalar arithmetic
// that is the same text for real and complex types, and 64-bit index helpers.
// Compiled by NVRTC (no host headers): keep it self-contained.
#pragma once

typedef long long ng_i64;

template <typename R>
struct ng_complex {
    R re, im;
};

template <typename T> struct ng_real_of { typedef T type; };
template <typename R> struct ng_real_of<ng_complex<R>> { typedef R type; };

__device__ __forceinline__ float ng_zero_of(float) { return 0.0f; }
__device__ __forceinline__ double ng_zero_of(double) { return 0.0; }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_zero_of(ng_complex<R>) { return ng_complex<R>{R(0), R(0)}; }

template <typename T> __device__ __forceinline__ T ng_zero() { return ng_zero_of(T()); }

// c + a*b with one rounding per real multiply-add (fma), the same order on every call.
__device__ __forceinline__ float ng_fma(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double ng_fma(double a, double b, double c) { return fma(a, b, c); }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_fma(ng_complex<R> a, ng_complex<R> b, ng_complex<R> c) {
    ng_complex<R> r;
    r.re = fma(a.re, b.re, fma(-a.im, b.im, c.re));
    r.im = fma(a.re, b.im, fma(a.im, b.re, c.im));
    return r;
}

__device__ __forceinline__ float ng_mul(float a, float b) { return a * b; }
__device__ __forceinline__ double ng_mul(double a, double b) { return a * b; }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_mul(ng_complex<R> a, ng_complex<R> b) {
    return ng_complex<R>{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

__device__ __forceinline__ float ng_conj(float a) { return a; }
__device__ __forceinline__ double ng_conj(double a) { return a; }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_conj(ng_complex<R> a) { return ng_complex<R>{a.re, -a.im}; }

__device__ __forceinline__ bool ng_is_zero(float a) { return a == 0.0f; }
__device__ __forceinline__ bool ng_is_zero(double a) { return a == 0.0; }
template <typename R>
__device__ __forceinline__ bool ng_is_zero(ng_complex<R> a) { return a.re == R(0) && a.im == R(0); }

// Matrix `i` of a batch given either as base + i*stride or as a pointer array.
template <typename T>
struct ng_batch {
    T *base;
    ng_i64 stride;
    T *const *array;  // non-null: pointer-array form
    __device__ __forceinline__ T *matrix(ng_i64 i) const {
        return array ? array[i] : base + i * stride;
    }
};

// Negation, absolute value (complex: the modulus, as Fortran ABS), finiteness, division
// (complex: Smith's algorithm, no overflow of |b|^2; the CPU backend divides the same way),
// the real part's +Inf and max, a complex from a real, and shuffles of any element type.
__device__ __forceinline__ float ng_neg(float a) { return -a; }
__device__ __forceinline__ double ng_neg(double a) { return -a; }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_neg(ng_complex<R> a) { return ng_complex<R>{-a.re, -a.im}; }

__device__ __forceinline__ float ng_abs(float a) { return fabsf(a); }
__device__ __forceinline__ double ng_abs(double a) { return fabs(a); }
__device__ __forceinline__ float ng_abs(ng_complex<float> a) { return hypotf(a.re, a.im); }
__device__ __forceinline__ double ng_abs(ng_complex<double> a) { return hypot(a.re, a.im); }

__device__ __forceinline__ bool ng_isfinite(float a) { return isfinite(a); }
__device__ __forceinline__ bool ng_isfinite(double a) { return isfinite(a); }
template <typename R>
__device__ __forceinline__ bool ng_isfinite(ng_complex<R> a) { return ng_isfinite(a.re) && ng_isfinite(a.im); }

__device__ __forceinline__ float ng_div(float a, float b) { return a / b; }
__device__ __forceinline__ double ng_div(double a, double b) { return a / b; }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_div(ng_complex<R> a, ng_complex<R> b) {
    if (ng_abs(b.re) >= ng_abs(b.im)) {
        const R r = b.im / b.re, d = fma(b.im, r, b.re);
        return ng_complex<R>{fma(a.im, r, a.re) / d, fma(-a.re, r, a.im) / d};
    }
    const R r = b.re / b.im, d = fma(b.re, r, b.im);
    return ng_complex<R>{fma(a.re, r, a.im) / d, fma(a.im, r, -a.re) / d};
}

template <typename R> __device__ __forceinline__ R ng_inf();
template <> __device__ __forceinline__ float ng_inf<float>() { return __int_as_float(0x7f800000); }
template <> __device__ __forceinline__ double ng_inf<double>() { return __longlong_as_double(0x7ff0000000000000LL); }

__device__ __forceinline__ float ng_max(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double ng_max(double a, double b) { return fmax(a, b); }

template <typename T> struct ng_from_real_t {
    __device__ static T of(T r) { return r; }
};
template <typename R> struct ng_from_real_t<ng_complex<R>> {
    __device__ static ng_complex<R> of(R r) { return ng_complex<R>{r, R(0)}; }
};

__device__ __forceinline__ float ng_shfl(float v, int src, int width) { return __shfl_sync(0xffffffffu, v, src, width); }
__device__ __forceinline__ double ng_shfl(double v, int src, int width) { return __shfl_sync(0xffffffffu, v, src, width); }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_shfl(ng_complex<R> v, int src, int width) {
    return ng_complex<R>{ng_shfl(v.re, src, width), ng_shfl(v.im, src, width)};
}
