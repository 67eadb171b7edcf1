// Roofline probe of numgpu-bench (not part of the library): the FMA peak of one precision,
// measured with independent fused multiply-add chains that stay in registers.
//
// Defines: NG_T (float, double, ng_complex<float>, ng_complex<double>), NG_SUFFIX (f32, f64,
// c32, c64), NG_R (the real type under NG_T). Entry point: fma_peak_<suffix>.
//
// Each thread runs NG_CHAINS independent chains acc = acc * mul + add, NG_UNROLL steps per
// loop iteration, `iters` iterations, then stores its accumulators so nothing is dead code.
// One step is one ng_fma: 1 FMA (2 flops) for real types, 4 real FMAs (8 flops) for complex,
// the same counting as a GEMM's 2mnk / 8mnk. |mul| < 1 keeps the values bounded.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

#define NG_CHAINS 8
#define NG_UNROLL 16

template <typename R>
__device__ __forceinline__ R bench_value(R re, R, R *) { return re; }
template <typename R>
__device__ __forceinline__ ng_complex<R> bench_value(R re, R im, ng_complex<R> *) { return ng_complex<R>{re, im}; }

extern "C" __global__ void __launch_bounds__(256)
NG_CAT(fma_peak_, NG_SUFFIX)(NG_R mul_re, NG_R mul_im, NG_R add_re, NG_R add_im, ng_i64 iters, NG_T *out) {
    const ng_i64 tid = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x;
    const NG_T mul = bench_value(mul_re, mul_im, (NG_T *)0);
    const NG_T add = bench_value(add_re, add_im, (NG_T *)0);
    NG_T acc[NG_CHAINS];
#pragma unroll
    for (int c = 0; c < NG_CHAINS; ++c) {
        // Distinct start values per thread and chain.
        acc[c] = bench_value(NG_R(tid % 1024) * NG_R(1e-3), NG_R(c) * NG_R(1e-2), (NG_T *)0);
    }
    for (ng_i64 i = 0; i < iters; ++i) {
#pragma unroll
        for (int u = 0; u < NG_UNROLL; ++u) {
#pragma unroll
            for (int c = 0; c < NG_CHAINS; ++c) {
                acc[c] = ng_fma(acc[c], mul, add);
            }
        }
    }
#pragma unroll
    for (int c = 0; c < NG_CHAINS; ++c) {
        out[tid * NG_CHAINS + c] = acc[c];
    }
}
