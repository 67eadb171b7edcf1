// gemm_simt tuning harness (README.md): every variant of variants.txt against cuBLAS
// ?gemmStridedBatched (CUBLAS_DEFAULT_MATH: exact FP32) on the same ~1 GB strided batch,
// square n, C = A·B + 0.5·C, op N/N at n = 33 … 256 and T/N at 128. One line per (type, n, op,
// variant): median ms of 9 runs (CUDA events), cuBLAS's, the ratio t(cuBLAS) / t(variant),
// TFLOP/s, and the largest |C − C_cuBLAS| / max |C_cuBLAS| over the first 16 matrices, both
// computed once from the same C0.
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

typedef long long ng_i64;
template <typename T> struct ng_batch { T *base; ng_i64 stride; T *const *array; };
struct cc { float re, im; };  // ng_complex<float>'s layout
template <typename T>
using Kernel = void (*)(ng_i64, ng_i64, ng_i64, T, ng_batch<const T>, ng_i64, ng_batch<const T>, ng_i64, T, ng_batch<T>, ng_i64, ng_i64);
#define DECL(T, name) extern "C" __global__ void name(ng_i64, ng_i64, ng_i64, T, ng_batch<const T>, ng_i64, ng_batch<const T>, ng_i64, T, ng_batch<T>, ng_i64, ng_i64);
#define VS(name, ...) DECL(float, gemm_simt_##name) DECL(float, gemm_simt_##name##u) DECL(float, gemm_simt_##name##t)
#define VC(name, ...) DECL(cc, gemm_simt_##name) DECL(cc, gemm_simt_##name##u) DECL(cc, gemm_simt_##name##t)
#include "variants.inc"
#undef VS
#undef VC

template <typename T> struct Variant {
  const char *name;
  Kernel<T> nn, nu, tn;  // op(A) = A with 16-byte copies, with 4-byte ones; op(A) = Aᵀ; op(B) = B
  int bm, bn, bk, tm, tn_, st, minb;
  int threads() const { return (bm / tm) * (bn / tn_); }
  int smem() const { return st * bk * (bm + bn + 2 * 16 / (int)sizeof(T)) * (int)sizeof(T); }
};

static const std::vector<Variant<float>> FLOAT_VARIANTS = {
#define VS(name, bm, bn, bk, tm, tn, st, minb) {#name, gemm_simt_##name, gemm_simt_##name##u, gemm_simt_##name##t, bm, bn, bk, tm, tn, st, minb},
#define VC(...)
#include "variants.inc"
#undef VS
#undef VC
};
static const std::vector<Variant<cc>> COMPLEX_VARIANTS = {
#define VS(...)
#define VC(name, bm, bn, bk, tm, tn, st, minb) {#name, gemm_simt_##name, gemm_simt_##name##u, gemm_simt_##name##t, bm, bn, bk, tm, tn, st, minb},
#include "variants.inc"
#undef VS
#undef VC
};

// Uniform values in [-0.5, 0.5) from a hash of the index: the same inputs on every run.
__global__ void fill(float *p, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed;
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    p[i] = (x >> 8) * (1.0f / 16777216.0f) - 0.5f;
  }
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e)); exit(1); }
}

template <typename T> T scalar(float x);
template <> float scalar<float>(float x) { return x; }
template <> cc scalar<cc>(float x) { return {x, 0.0f}; }

static cublasStatus_t cublas_gemm(cublasHandle_t h, cublasOperation_t ta, int n, const float *A, const float *B, float *C, ng_i64 per, int batch) {
  const float one = 1.0f, half = 0.5f;
  return cublasSgemmStridedBatched(h, ta, CUBLAS_OP_N, n, n, n, &one, A, n, per, B, n, per, &half, C, n, per, batch);
}
static cublasStatus_t cublas_gemm(cublasHandle_t h, cublasOperation_t ta, int n, const cc *A, const cc *B, cc *C, ng_i64 per, int batch) {
  const cuComplex one = make_cuComplex(1, 0), half = make_cuComplex(0.5f, 0);
  return cublasCgemmStridedBatched(h, ta, CUBLAS_OP_N, n, n, n, &one, (const cuComplex *)A, n, per, (const cuComplex *)B, n, per, &half,
                                   (cuComplex *)C, n, per, batch);
}

// Median of 9 timed runs after one warm-up, in ms.
template <typename F> float time_ms(F f) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  f();
  cudaDeviceSynchronize();
  std::vector<float> t;
  for (int r = 0; r < 9; ++r) {
    cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
  }
  cudaEventDestroy(e0); cudaEventDestroy(e1);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <typename T>
void run(cublasHandle_t h, const std::vector<Variant<T>> &vs, const char *type) {
  const int W = sizeof(T) / sizeof(float);
  for (int n : {33, 64, 96, 128, 192, 256}) {
    for (int trans : {0, 1}) {
      if (trans && n != 128) continue;  // (T/N at 128: aligned)
      const ng_i64 per = (ng_i64)n * n;
      const int batch = (int)(1e9 / (3.0 * per * sizeof(T)));
      const size_t bytes = per * batch * sizeof(T), floats = bytes / sizeof(float);
      T *A, *B, *C, *C0, *R;
      for (T **p : {&A, &B, &C, &C0, &R}) check(cudaMalloc(p, bytes), "cudaMalloc");
      fill<<<1024, 256>>>((float *)A, floats, 1u + n);
      fill<<<1024, 256>>>((float *)B, floats, 7919u * n);
      fill<<<1024, 256>>>((float *)C0, floats, 104729u + n);
      check(cudaDeviceSynchronize(), "fill");
      const int nc = std::min(batch, 16);
      std::vector<float> ref(per * nc * W), got(per * nc * W);
      const cublasOperation_t ta = trans ? CUBLAS_OP_T : CUBLAS_OP_N;
      cudaMemcpy(R, C0, bytes, cudaMemcpyDeviceToDevice);
      if (cublas_gemm(h, ta, n, A, B, R, per, batch) != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "cuBLAS failed\n"); exit(1); }
      cudaMemcpy(ref.data(), R, ref.size() * sizeof(float), cudaMemcpyDeviceToHost);
      double rmax = 0;
      for (float x : ref) rmax = std::max(rmax, (double)std::fabs(x));
      const float tc = time_ms([&] { cublas_gemm(h, ta, n, A, B, R, per, batch); });
      const double flops = 2.0 * W * W * (double)per * n * batch;
      const char *op = trans ? "T/N" : "N/N";
      printf("%-5s n=%3d %s batch=%6d %-6s %8.3f ms                        %6.1f TF/s\n", type, n, op, batch, "cuBLAS", tc, flops / (tc * 1e9));
      for (const Variant<T> &v : vs) {
        // 16-byte copies only where the library would make them (cudaMalloc'd buffers, so
        // the columns' alignment decides): n·sizeof(T) a multiple of 16.
        const bool aligned = n * sizeof(T) % 16 == 0;
        const Kernel<T> k = trans ? v.tn : aligned ? v.nn : v.nu;
        const ng_i64 tiles = (ng_i64)((n + v.bm - 1) / v.bm) * ((n + v.bn - 1) / v.bn) * batch;
        const int grid = (int)std::min<ng_i64>(tiles, 2147483647);
        const ng_batch<const T> a{A, per, nullptr}, b{B, per, nullptr};
        const ng_batch<T> c{C, per, nullptr};
        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, v.smem());
        auto launch = [&] { k<<<grid, v.threads(), v.smem()>>>(n, n, n, scalar<T>(1), a, n, b, n, scalar<T>(0.5f), c, n, batch); };
        cudaMemcpy(C, C0, bytes, cudaMemcpyDeviceToDevice);
        launch();
        const cudaError_t err = cudaDeviceSynchronize();
        cudaMemcpy(got.data(), C, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
        double dmax = 0;
        for (size_t i = 0; i < got.size(); ++i) dmax = std::max(dmax, (double)std::fabs(got[i] - ref[i]));
        const float t = time_ms(launch);
        printf("%-5s n=%3d %s batch=%6d %-6s %8.3f ms  cuBLAS %8.3f ms  x%.3f  %6.1f TF/s  maxrel %.2e  %d thr %d B smem %s\n", type, n, op,
               batch, v.name, t, tc, tc / t, flops / (t * 1e9), dmax / rmax, v.threads(), v.smem(),
               err == cudaSuccess ? "" : cudaGetErrorString(err));
        fflush(stdout);
        if (err != cudaSuccess) exit(1);  // a sticky error: nothing after it would be measured
      }
      for (T *p : {A, B, C, C0, R}) cudaFree(p);
    }
  }
}

int main() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "cublasCreate failed\n"); return 1; }
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  run<float>(h, FLOAT_VARIANTS, "float");
  run<cc>(h, COMPLEX_VARIANTS, "cfloat");
  cublasDestroy(h);
  return 0;
}
