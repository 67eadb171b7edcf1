// Scratch harness (not committed): times gemm_mma variants against cuBLAS strided batched.
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
struct zc { double re, im; };
#define DECL(T, name) extern "C" __global__ void name(ng_i64, ng_i64, ng_i64, T, ng_batch<const T>, ng_i64, ng_batch<const T>, ng_i64, T, ng_batch<T>, ng_i64, ng_i64);
DECL(double, gemm_mma_dA) DECL(double, gemm_mma_dB) DECL(double, gemm_mma_dC) DECL(zc, gemm_mma_zA) DECL(zc, gemm_mma_zB) DECL(zc, gemm_mma_zC)
template <typename T> using K = void (*)(ng_i64, ng_i64, ng_i64, T, ng_batch<const T>, ng_i64, ng_batch<const T>, ng_i64, T, ng_batch<T>, ng_i64, ng_i64);
template <typename T> struct V { const char *name; K<T> k; int threads, bm, bn, ta, smem; };
template <typename T> T one();
template <> double one<double>() { return 1.0; }
template <> zc one<zc>() { return {1.0, 0.0}; }
template <typename T>
void run(cublasHandle_t h, std::vector<V<T>> vs) {
  const int W = sizeof(T) / 8;
  int ns[] = {33, 64, 96, 128, 129, 192, 256, 257};
  for (int n : ns) {
    size_t per = (size_t)n * n; size_t batch = (size_t)(1e9 / (3 * per * sizeof(T)));
    T *A, *B, *C, *R; cudaMalloc(&A, per * batch * sizeof(T)); cudaMalloc(&B, per * batch * sizeof(T)); cudaMalloc(&C, per * batch * sizeof(T)); cudaMalloc(&R, per * batch * sizeof(T));
    std::vector<double> hA(per * batch * W); srand(n); for (auto &x : hA) x = rand() / (double)RAND_MAX - 0.5;
    cudaMemcpy(A, hA.data(), per * batch * sizeof(T), cudaMemcpyHostToDevice); for (auto &x : hA) x = rand() / (double)RAND_MAX - 0.5; cudaMemcpy(B, hA.data(), per * batch * sizeof(T), cudaMemcpyHostToDevice);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](auto f) { f(); cudaDeviceSynchronize(); std::vector<float> t; for (int r = 0; r < 7; ++r) { cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);} std::sort(t.begin(), t.end()); return t[3]; };
    for (int ta = 0; ta < 1; ta += 2) {
      cublasOperation_t op = ta == 0 ? CUBLAS_OP_N : ta == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
      float tc;
      if constexpr (sizeof(T) == 8) { double o = 1, z = 0; tc = time([&] { cublasDgemmStridedBatched(h, op, CUBLAS_OP_N, n, n, n, &o, (double*)A, n, per, (double*)B, n, per, &z, (double*)R, n, per, batch); }); }
      else { cuDoubleComplex o = make_cuDoubleComplex(1, 0), z = make_cuDoubleComplex(0, 0); tc = time([&] { cublasZgemmStridedBatched(h, op, CUBLAS_OP_N, n, n, n, &o, (cuDoubleComplex*)A, n, per, (cuDoubleComplex*)B, n, per, &z, (cuDoubleComplex*)R, n, per, batch); }); }
      std::vector<double> hr(per * 4 * W), hc(per * 4 * W);
      cudaMemcpy(hr.data(), R, per * 4 * sizeof(T), cudaMemcpyDeviceToHost);
      for (auto &v : vs) {
        if (v.ta != ta) continue;
        ng_i64 tiles = ((n + v.bm - 1) / v.bm) * ((n + v.bn - 1) / v.bn) * (ng_i64)batch;
        int grid = (int)std::min<ng_i64>(tiles, 2147483647);
        ng_batch<const T> a{A, (ng_i64)per, nullptr}, b{B, (ng_i64)per, nullptr}; ng_batch<T> c{C, (ng_i64)per, nullptr};
        cudaMemset(C, 0, per * batch * sizeof(T));
        cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, v.smem);
        T zero{}; 
        float t = time([&] { v.k<<<grid, v.threads, v.smem>>>(n, n, n, one<T>(), a, n, b, n, zero, c, n, batch); });
        cudaError_t err = cudaGetLastError();
        cudaMemcpy(hc.data(), C, per * 4 * sizeof(T), cudaMemcpyDeviceToHost);
        double md = 0, mr = 0; for (size_t i = 0; i < hr.size(); ++i) { md = std::max(md, std::fabs(hc[i] - hr[i])); mr = std::max(mr, std::fabs(hr[i])); }
        double tf = 2.0 * W * W * n * n * (double)n * batch / (t * 1e-3) / 1e12;
        printf("n=%4d batch=%7zu op=%d %-24s %8.3f ms  cuBLAS %8.3f ms  ratio %.2f  %.1f TF/s  maxdiff %.2e (|R| %.2e) %s\n", n, batch, ta, v.name, t, tc, tc / t, tf, md, mr, cudaGetErrorString(err));
      }
    }
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(R);
  }
}
int main() {
  cublasHandle_t h; cublasCreate(&h);
  run<double>(h, {{"dA wr32 2x2 minb3", gemm_mma_dA, 128, 64, 64, 0, 56832}, {"dB wr64 2x2 minb2", gemm_mma_dB, 128, 128, 64, 0, 81408}, {"dC wr64 1x2 minb4", gemm_mma_dC, 64, 64, 64, 0, 56832}});
  run<zc>(h, {{"zA wr32 2x2 minb2", gemm_mma_zA, 128, 64, 32, 0, 81408}, {"zB wr64 2x2 minb1", gemm_mma_zB, 128, 128, 32, 0, 130560}, {"zC wr64 1x2 minb2", gemm_mma_zC, 64, 64, 32, 0, 81408}});
}
