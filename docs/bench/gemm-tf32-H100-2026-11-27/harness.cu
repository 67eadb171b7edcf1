// Scratch harness: times gemm_tf32 (3xTF32) variants against cuBLAS FP32 strided batched.
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
typedef long long ng_i64;
template <typename T> struct ng_batch { T *base; ng_i64 stride; T *const *array; };
struct cc { float re, im; };
#define DECL(T, name) extern "C" __global__ void name(ng_i64, ng_i64, ng_i64, T, ng_batch<const T>, ng_i64, ng_batch<const T>, ng_i64, T, ng_batch<T>, ng_i64, ng_i64);
DECL(float, gemm_tf32_sA) DECL(float, gemm_tf32_sB) DECL(float, gemm_tf32_sC) DECL(float, gemm_tf32_sD) DECL(float, gemm_tf32_sE) DECL(float, gemm_tf32_sF) DECL(float, gemm_tf32_sG) DECL(float, gemm_tf32_sH) DECL(cc, gemm_tf32_cA) DECL(cc, gemm_tf32_cB) DECL(cc, gemm_tf32_cC) DECL(cc, gemm_tf32_cD)
template <typename T> using K = void (*)(ng_i64, ng_i64, ng_i64, T, ng_batch<const T>, ng_i64, ng_batch<const T>, ng_i64, T, ng_batch<T>, ng_i64, ng_i64);
template <typename T> struct V { const char *name; K<T> k; int threads, bm, bn, smem; };
template <typename T> T one();
template <> float one<float>() { return 1.0f; }
template <> cc one<cc>() { return {1.0f, 0.0f}; }
template <typename T>
void run(cublasHandle_t h, std::vector<V<T>> vs) {
  const int W = sizeof(T) / 4;
  int ns[] = {64, 128, 256};
  for (int n : ns) {
    size_t per = (size_t)n * n; size_t batch = (size_t)(1e9 / (3 * per * sizeof(T)));
    T *A, *B, *C, *R; cudaMalloc(&A, per * batch * sizeof(T)); cudaMalloc(&B, per * batch * sizeof(T)); cudaMalloc(&C, per * batch * sizeof(T)); cudaMalloc(&R, per * batch * sizeof(T));
    std::vector<float> hA(per * batch * W); srand(n); for (auto &x : hA) x = rand() / (float)RAND_MAX - 0.5f;
    cudaMemcpy(A, hA.data(), per * batch * sizeof(T), cudaMemcpyHostToDevice); for (auto &x : hA) x = rand() / (float)RAND_MAX - 0.5f; cudaMemcpy(B, hA.data(), per * batch * sizeof(T), cudaMemcpyHostToDevice);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](auto f) { f(); cudaDeviceSynchronize(); std::vector<float> t; for (int r = 0; r < 7; ++r) { cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);} std::sort(t.begin(), t.end()); return t[3]; };
    float tc;
    if constexpr (sizeof(T) == 4) { float o = 1, z = 0; tc = time([&] { cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &o, (float*)A, n, per, (float*)B, n, per, &z, (float*)R, n, per, batch); }); }
    else { cuComplex o = make_cuComplex(1, 0), z = make_cuComplex(0, 0); tc = time([&] { cublasCgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &o, (cuComplex*)A, n, per, (cuComplex*)B, n, per, &z, (cuComplex*)R, n, per, batch); }); }
    std::vector<float> hr(per * 4 * W), hc(per * 4 * W);
    cudaMemcpy(hr.data(), R, per * 4 * sizeof(T), cudaMemcpyDeviceToHost);
    for (auto &v : vs) {
      ng_i64 tiles = ((n + v.bm - 1) / v.bm) * ((n + v.bn - 1) / v.bn) * (ng_i64)batch;
      int grid = (int)std::min<ng_i64>(tiles, 2147483647);
      ng_batch<const T> a{A, (ng_i64)per, nullptr}, b{B, (ng_i64)per, nullptr}; ng_batch<T> c{C, (ng_i64)per, nullptr};
      cudaMemset(C, 0, per * batch * sizeof(T));
      cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, v.smem);
      T zero{};
      float t = time([&] { v.k<<<grid, v.threads, v.smem>>>(n, n, n, one<T>(), a, n, b, n, zero, c, n, batch); });
      cudaError_t err = cudaGetLastError();
      cudaMemcpy(hc.data(), C, per * 4 * sizeof(T), cudaMemcpyDeviceToHost);
      double md = 0, mr = 0; for (size_t i = 0; i < hr.size(); ++i) { md = std::max(md, (double)std::fabs(hc[i] - hr[i])); mr = std::max(mr, (double)std::fabs(hr[i])); }
      double tf = 2.0 * W * W * n * n * (double)n * batch / (t * 1e-3) / 1e12;
      printf("n=%4d batch=%7zu %-36s %8.3f ms  cuBLAS %8.3f ms  ratio %.2f  %.1f TF/s  maxdiff %.2e (|R| %.2e) %s\n", n, batch, v.name, t, tc, tc / t, tf, md, mr, cudaGetErrorString(err));
    }
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(R);
  }
}
int main() {
  cublasHandle_t h; cublasCreate(&h);
  run<float>(h, {{"sA wr32 wc32 2x2 bk16 st3 minb3", gemm_tf32_sA, 128, 64, 64, 29184}, {"sB wr64 wc32 2x2 bk16 st3 minb2", gemm_tf32_sB, 128, 128, 64, 41472}, {"sC wr32 wc64 2x2 bk16 st3 minb2", gemm_tf32_sC, 128, 64, 128, 44544}, {"sD wr64 wc64 2x2 bk16 st3 minb1", gemm_tf32_sD, 128, 128, 128, 56832}, {"sE wr32 wc32 2x2 bk32 st3 minb2", gemm_tf32_sE, 128, 64, 64, 55296}, {"sF wr64 wc32 2x2 bk32 st3 minb2", gemm_tf32_sF, 128, 128, 64, 79872}, {"sG wr64 wc32 2x4 bk16 st3 minb1", gemm_tf32_sG, 256, 128, 128, 56832}, {"sH wr64 wc64 2x2 bk32 st2 minb1", gemm_tf32_sH, 128, 128, 128, 71680}});
  run<cc>(h, {{"cA wr32 wc16 2x2 bk16 st3 minb3", gemm_tf32_cA, 128, 64, 32, 41472}, {"cB wr32 wc32 2x2 bk16 st3 minb2", gemm_tf32_cB, 128, 64, 64, 56832}, {"cC wr64 wc16 2x2 bk16 st3 minb2", gemm_tf32_cC, 128, 128, 32, 66048}, {"cD wr32 wc16 2x2 bk32 st3 minb2", gemm_tf32_cD, 128, 64, 32, 79872}});
}
