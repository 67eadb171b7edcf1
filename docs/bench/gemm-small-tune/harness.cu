// gemm_small comparison harness (README.md): every variant of variants.txt (the baseline's
// kernel, this kernel as the plan runs it, ...) against cuBLAS on the same ~1 GB batch
// (A + B + C), square n, C = A·B + 0.5·C, strided (against ?gemmStridedBatched) and pointer
// arrays (device arrays of device pointers, against ?gemmBatched), op N/N at n = 16, 24, 31, 32
// and T/N at 32, CUBLAS_DEFAULT_MATH. One line per (type, n, op, form, variant): median ms of 9
// runs (CUDA events), GB/s counting A + B + 2·C (C read and written), the ratios
// t(cuBLAS) / t(variant) and t(base) / t(variant) (same form), maxrel = max |C − C_cuBLAS| /
// max |C_cuBLAS| and whether C is bitwise the baseline's, over the first 16 matrices, all from
// the same C0.
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef long long ng_i64;
template <typename T> struct ng_batch { T *base; ng_i64 stride; T *const *array; };
struct cf { float re, im; };   // ng_complex<float>'s layout
struct cd { double re, im; };  // ng_complex<double>'s layout
typedef float T_float;
typedef double T_double;
typedef cf T_cfloat;
typedef cd T_cdouble;
#define V(t, name, e, ...)                                                                                     \
  extern "C" __global__ void gemm_small_##e(T_##t, ng_batch<const T_##t>, ng_i64, ng_batch<const T_##t>, ng_i64, \
                                            T_##t, ng_batch<T_##t>, ng_i64, ng_i64, int);
#include "variants.inc"
#undef V

template <typename T>
using Kernel = void (*)(T, ng_batch<const T>, ng_i64, ng_batch<const T>, ng_i64, T, ng_batch<T>, ng_i64, ng_i64, int);

// One compiled kernel: its variant, row (n, op(A)) and the parameters build.sh gave it.
struct Variant {
  const char *type, *name;
  const void *kernel;
  int base, n, ta, nb, ti, tj, st, pc, minb, smem;
  int threads() const { return nb * ti * tj; }
};
static const Variant VARIANTS[] = {
#define V(t, name, e, base, n, ta, nb, ti, tj, st, pc, minb, smem) \
  {#t, #name, (const void *)gemm_small_##e, base, n, ta, nb, ti, tj, st, pc, minb, smem},
#include "variants.inc"
#undef V
};

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e)); exit(1); }
}

// Uniform values in [-0.5, 0.5) from a hash of the index: the same inputs on every run.
template <typename R>
__global__ void fill(R *p, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed;
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    p[i] = (R)((x >> 8) * (1.0 / 16777216.0) - 0.5);
  }
}

// Device pointer array: matrix i at base + i·per.
template <typename T>
__global__ void pointers(T **out, T *base, ng_i64 per, int batch) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < batch; i += gridDim.x * blockDim.x) out[i] = base + i * per;
}

// cuBLAS's strided and pointer-array GEMM of T (CT: cuBLAS's type), C = A·B + 0.5·C, square n.
template <typename T> struct Traits;
#define TRAITS(T, CT, RT, NAME, STRIDED, ARRAY, ONE, HALF)                                                              \
  template <> struct Traits<T> {                                                                                        \
    typedef RT R;                                                                                                       \
    static constexpr const char *name = NAME;                                                                           \
    static cublasStatus_t strided(cublasHandle_t h, cublasOperation_t ta, int n, const T *A, const T *B, T *C, ng_i64 per, \
                                  int batch) {                                                                          \
      const CT one = ONE, half = HALF;                                                                                  \
      return STRIDED(h, ta, CUBLAS_OP_N, n, n, n, &one, (const CT *)A, n, per, (const CT *)B, n, per, &half, (CT *)C, n, \
                     per, batch);                                                                                       \
    }                                                                                                                   \
    static cublasStatus_t array(cublasHandle_t h, cublasOperation_t ta, int n, T **A, T **B, T **C, int batch) {        \
      const CT one = ONE, half = HALF;                                                                                  \
      return ARRAY(h, ta, CUBLAS_OP_N, n, n, n, &one, (const CT *const *)A, n, (const CT *const *)B, n, &half,          \
                   (CT *const *)C, n, batch);                                                                           \
    }                                                                                                                   \
  };
TRAITS(float, float, float, "float", cublasSgemmStridedBatched, cublasSgemmBatched, 1.0f, 0.5f)
TRAITS(double, double, double, "double", cublasDgemmStridedBatched, cublasDgemmBatched, 1.0, 0.5)
TRAITS(cf, cuComplex, float, "cfloat", cublasCgemmStridedBatched, cublasCgemmBatched, (make_cuComplex(1, 0)),
       (make_cuComplex(0.5f, 0)))
TRAITS(cd, cuDoubleComplex, double, "cdouble", cublasZgemmStridedBatched, cublasZgemmBatched, (make_cuDoubleComplex(1, 0)),
       (make_cuDoubleComplex(0.5, 0)))
#undef TRAITS

// x as a T (complex: real part x, imaginary 0).
template <typename T> T scalar(double x) {
  typedef typename Traits<T>::R R;
  T s;
  memset(&s, 0, sizeof s);
  reinterpret_cast<R *>(&s)[0] = (R)x;
  return s;
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

// Blocks an SM holds as the library plans them (src/gemm_batched/cuda.rs small_resident: 228 KB
// of shared memory, 1 KB reserved a block, 2048 threads, 32 blocks).
static int resident(int threads, int smem) {
  return std::max(1, std::min({228 * 1024 / (smem + 1024), 2048 / threads, 32}));
}

// The largest |x − ref| over the first `count` reals, relative to max |ref|.
template <typename R>
double maxrel(const std::vector<R> &x, const std::vector<R> &ref) {
  double d = 0, r = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    d = std::max(d, (double)std::fabs((double)x[i] - (double)ref[i]));
    r = std::max(r, (double)std::fabs((double)ref[i]));
  }
  return d / r;
}

template <typename T>
void run(cublasHandle_t h, int sms) {
  typedef typename Traits<T>::R R;
  const int W = sizeof(T) / sizeof(R);
  const struct { int n, ta; } rows[] = {{16, 0}, {24, 0}, {31, 0}, {32, 0}, {32, 1}};
  for (const auto &row : rows) {
    const int n = row.n;
    const ng_i64 per = (ng_i64)n * n;
    const int batch = (int)(1e9 / (3.0 * per * sizeof(T)));
    const size_t bytes = per * batch * sizeof(T), reals = bytes / sizeof(R);
    T *A, *B, *C, *C0, *Rf;
    for (T **p : {&A, &B, &C, &C0, &Rf}) check(cudaMalloc(p, bytes), "cudaMalloc");
    T **pa, **pb, **pc, **pr;
    for (T ***p : {&pa, &pb, &pc, &pr}) check(cudaMalloc(p, batch * sizeof(T *)), "cudaMalloc");
    fill<<<1024, 256>>>((R *)A, reals, 1u + n);
    fill<<<1024, 256>>>((R *)B, reals, 7919u * n);
    fill<<<1024, 256>>>((R *)C0, reals, 104729u + n);
    pointers<<<256, 256>>>(pa, A, per, batch);
    pointers<<<256, 256>>>(pb, B, per, batch);
    pointers<<<256, 256>>>(pc, C, per, batch);
    pointers<<<256, 256>>>(pr, Rf, per, batch);
    check(cudaDeviceSynchronize(), "fill");
    const int nc = std::min(batch, 16);
    std::vector<R> ref(per * nc * W), got(per * nc * W);
    const cublasOperation_t ta = row.ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    cudaMemcpy(Rf, C0, bytes, cudaMemcpyDeviceToDevice);
    if (Traits<T>::strided(h, ta, n, A, B, Rf, per, batch) != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "cuBLAS failed\n"); exit(1); }
    cudaMemcpy(ref.data(), Rf, ref.size() * sizeof(R), cudaMemcpyDeviceToHost);
    const float tcs = time_ms([&] { Traits<T>::strided(h, ta, n, A, B, Rf, per, batch); });
    const float tca = time_ms([&] { Traits<T>::array(h, ta, n, pa, pb, pr, batch); });
    // The baseline's C and times per form (the first variant of the type with base set).
    std::vector<R> base_c[2];
    float base_t[2] = {0, 0};
    const double gb = 4.0 * bytes / 1e6;  // A + B + 2·C (bytes is one operand), in GB·ms/s
    const char *op = row.ta ? "T/N" : "N/N";
    printf("%-7s n=%2d %s batch=%7d cuBLAS  strided %7.3f ms %6.0f GB/s | ptr %7.3f ms %6.0f GB/s\n", Traits<T>::name, n, op, batch, tcs,
           gb / tcs, tca, gb / tca);
    for (const Variant &v : VARIANTS) {
      if (strcmp(v.type, Traits<T>::name) || v.n != n || v.ta != row.ta) continue;
      const Kernel<T> k = (Kernel<T>)v.kernel;
      const ng_i64 groups = (batch + v.nb - 1) / v.nb;
      // Staged variants loop over groups, one wave of blocks (as the library launches them).
      const int grid = (int)std::min<ng_i64>(v.st ? (ng_i64)sms * resident(v.threads(), v.smem) : groups, groups);
      int occ = 0;
      check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, v.smem), "cudaFuncSetAttribute");
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, v.threads(), v.smem);
      for (int form = 0; form < 2; ++form) {
        const ng_batch<const T> a{form ? nullptr : A, form ? 0 : per, form ? (T *const *)pa : nullptr};
        const ng_batch<const T> b{form ? nullptr : B, form ? 0 : per, form ? (T *const *)pb : nullptr};
        const ng_batch<T> c{form ? nullptr : C, form ? 0 : per, form ? (T *const *)pc : nullptr};
        // The last argument as each host side computes it. This kernel: bits 2i, 2i + 1 of
        // operand i, strided 3 (ld = n, stride = n²), pointer arrays 1 (ld = n). The baseline:
        // bit i, strided with NB matrices whole 16-byte vectors (cudaMalloc aligns the base).
        const int packed = !form && (v.nb * per * sizeof(T)) % 16 == 0 ? 7 : 0;
        const int arg = v.base ? packed : form ? 0x15 : 0x3f;
        auto launch = [&] { k<<<grid, v.threads(), v.smem>>>(scalar<T>(1), a, n, b, n, scalar<T>(0.5), c, n, batch, arg); };
        cudaMemcpy(C, C0, bytes, cudaMemcpyDeviceToDevice);
        launch();
        const cudaError_t err = cudaDeviceSynchronize();
        cudaMemcpy(got.data(), C, got.size() * sizeof(R), cudaMemcpyDeviceToHost);
        const float t = time_ms(launch);
        const float tc = form ? tca : tcs;
        if (v.base && base_c[form].empty()) { base_c[form] = got; base_t[form] = t; }
        const char *bits = v.base ? "base" : base_c[form].empty() ? "-" : !memcmp(got.data(), base_c[form].data(), got.size() * sizeof(R)) ? "same" : "DIFF";
        printf("%-7s n=%2d %s %-7s %-6s %7.3f ms %6.0f GB/s x%.3f vs base x%.3f  maxrel %.2e  bits %s  nb %d, %dx%d, st %d pc %d minb %d, %d thr, %d B, %d blocks/SM (occupancy API %d), grid %d %s\n",
               Traits<T>::name, n, op, form ? "ptr" : "strided", v.name, t, gb / t, tc / t, base_t[form] > 0 ? base_t[form] / t : 0.0,
               maxrel(got, ref), bits, v.nb, v.ti, v.tj, v.st, v.pc, v.minb, v.threads(), v.smem, v.st ? resident(v.threads(), v.smem) : 0,
               occ, grid, err == cudaSuccess ? "" : cudaGetErrorString(err));
        fflush(stdout);
        if (err != cudaSuccess) exit(1);  // a sticky error: nothing after it would be measured
      }
    }
    for (T *p : {A, B, C, C0, Rf}) cudaFree(p);
    for (T **p : {pa, pb, pc, pr}) cudaFree(p);
  }
}

int main() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "cublasCreate failed\n"); return 1; }
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  run<float>(h, sms);
  run<double>(h, sms);
  run<cf>(h, sms);
  run<cd>(h, sms);
  cublasDestroy(h);
  return 0;
}
