// Dense tensors: the Khatri-Rao product and the reduction of MTTKRP's partial products (the
// host side is src/tensor/cuda.rs; the products themselves are gemm_batched.cu's kernels).
//
// Kernels (T = NG_T, real):
//   tensor_kr_<T>      K(j, r) = U_0(i_0, r) * U_1(i_1, r) * ... (multiplied in that order),
//                      j = i_0 + dim_0 * (i_1 + dim_1 * (...)): the Khatri-Rao product of the
//                      factors in reverse order, U_{nf-1} (.) ... (.) U_0. The factors come as a
//                      table in device memory, three 64-bit words each (address, leading
//                      dimension, rows), so any number of them; a grid-stride loop over the
//                      rows x rank entries, rows fastest (coalesced writes).
//   tensor_reduce_<T>  M(i, r) = [M(i, r) +] sum over s < slots of P_s(i, r), in the order of s
//                      (deterministic, no atomics): P_s is m x n, compact, `sp` elements apart;
//                      slots = 0 gives M = 0. A thread per entry of M.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)
#define NG_KERNEL(name) NG_CAT(name, NG_CAT(_, NG_SUFFIX))

typedef NG_T T;

extern "C" __global__ void NG_KERNEL(tensor_kr)(int nf, const long long *table, ng_i64 rows, ng_i64 rank, T *K, ng_i64 ldk) {
    const ng_i64 total = rows * rank;
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < total; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 r = e / rows, j = e - r * rows;
        ng_i64 rest = j;
        T v = T(1);
        for (int f = 0; f < nf; ++f) {
            const T *u = reinterpret_cast<const T *>(__ldg(table + 3 * f));
            const ng_i64 ld = __ldg(table + 3 * f + 1), dim = __ldg(table + 3 * f + 2);
            const ng_i64 q = rest / dim, i = rest - q * dim;
            v = f == 0 ? u[i + r * ld] : v * u[i + r * ld];
            rest = q;
        }
        K[j + r * ldk] = v;
    }
}

extern "C" __global__ void NG_KERNEL(tensor_reduce)(ng_i64 m, ng_i64 n, ng_i64 slots, const T *P, ng_i64 sp, T *M, ng_i64 ldm, int accumulate) {
    const ng_i64 total = m * n;
    for (ng_i64 e = blockIdx.x * ng_i64(blockDim.x) + threadIdx.x; e < total; e += ng_i64(gridDim.x) * blockDim.x) {
        const ng_i64 r = e / m, i = e - r * m;
        T s = accumulate ? M[i + r * ldm] : T(0);
        for (ng_i64 k = 0; k < slots; ++k) s += P[k * sp + e];
        M[i + r * ldm] = s;
    }
}
