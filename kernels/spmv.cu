// Sparse matrix-vector products (the host side is src/spmv/cuda.rs).
//
// Kernels, one per compilation, chosen by -D NG_<KIND>=1, element type NG_T:
//   csrmv_n_<T>    y := alpha*A*x + beta*y, CSR. A block of 256 threads per `rows` rows; the
//                  products of rows that fit a tile of 2048 entries staged in shared memory
//                  by coalesced loads, then summed a row per group of lanes; a row longer
//                  than 1024 entries summed by the whole block (the row-split path). Fixed
//                  orders throughout: bitwise reproducible.
//   csr_plan_<T>   y := alpha*op(A)*x + beta*y with a plan (src/spmv/plan.rs): a block of 256
//                  threads per work unit of the plan's partition (rows + entries about equal
//                  per unit): the unit's rows summed by groups of g lanes (the unit's `lanes`, 1
//                  to 32, each lane a strided fma chain, then a shuffle tree), or one
//                  row at a time by the whole block; a piece of a split long row writes its
//                  block sum to `part`. op T/C (NG_PERM=1): the plan's transposed structure,
//                  values read through its permutation (NG_CONJ conjugates). No atomics: the
//                  order is the plan's, and the CPU backend replays it (bitwise equal).
//   csr_stream_<T> the plan's other kernel (chosen per matrix: mean row length up to 512):
//                  a block of 256 threads per unit of up to 256 rows whose entries fit a tile
//                  of 2048; the tile's pointers, columns, values and x loaded at once (the
//                  unit's range is in its descriptor, nothing waits for row_ptr), the products
//                  fma(a, x, 0) staged in shared memory, each row's added from zero by g lanes
//                  (256 / rows, a power of two, at most 32) and a shuffle tree; longer rows
//                  and pieces as csr_plan_<T>. Same ops, descriptors and CPU twin contract.
//   csr_plan_fixup_<T> a thread per split row: its pieces' sums added in piece order.
//   csr_check_<T>  the validation pass of NUMGPU_CHECK_INPUTS=1: reads only row_ptr and
//                  col_ind and writes nothing but the check word.
//   csrmv_t_<T>    y += alpha*op(A)^T*x for op T (NG_CONJ=0) or C (NG_CONJ=1): NG_V lanes per
//                  row scatter a_ij*(alpha*x_i) into y_j with atomicAdd (not reproducible in the
//                  last bits: the order of the adds varies).
//   scale_<T>      y := beta*y (beta_zero: y := 0, y not read), a thread per entry.
//   cmrsmv_<T>     CMRS (the book's Listing 6.7, fixed): a warp per work item (a strip of NG_H
//                  rows, or part of a long one), NG_M
//                  copies of the NG_H row sums in shared memory (slot (lane % NG_M)*NG_H + r;
//                  the packing keeps a chunk's slots distinct), __syncwarp between chunks (the
//                  listing's lockstep volatile buffer is a race since Volta), the copies added
//                  in order by NG_H lanes, one coalesced write. Padding words are skipped.
//   cmrs_fixup_<T> the rows of strips cut into several items: their items' sums added in order.
//   cmrs_gather_<T> stored values from CSR values: out[k] = src[k] < 0 ? 0 : val[src[k]].
//
// Bad structure: a kernel that meets a bad row pointer pair or column index skips it and
// lowers the check word to (kind << 48) | position with atomicMin (kind 0: row, 1: entry), so
// the word names the first bad entry whatever the schedule.
#include "common.cuh"

#define NG_CAT2(a, b) a##b
#define NG_CAT(a, b) NG_CAT2(a, b)

typedef NG_T T;
typedef unsigned long long ng_u64;

#define NG_FULL 0xffffffffu
#define NG_BLOCK 128

__device__ __forceinline__ void ng_report(ng_u64 *flag, ng_u64 kind, ng_i64 at) {
    atomicMin(flag, (kind << 48) | (ng_u64)at);
}

// a*b with every product rounded on its own (__fmul_rn/__dmul_rn are never fused into an fma),
// as the CPU backend computes it: NVRTC contracts a*b - c*d otherwise.
__device__ __forceinline__ float ng_mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double ng_mul_rn(double a, double b) { return __dmul_rn(a, b); }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_mul_rn(ng_complex<R> a, ng_complex<R> b) {
    return ng_complex<R>{ng_mul_rn(a.re, b.re) - ng_mul_rn(a.im, b.im), ng_mul_rn(a.re, b.im) + ng_mul_rn(a.im, b.re)};
}

// y := alpha*sum + beta*y, y not read when beta_zero; the CPU backend combines the same way.
__device__ __forceinline__ T ng_combine(T alpha, T sum, T beta, const T *y, int beta_zero) {
    const T t = ng_mul_rn(alpha, sum);
    return beta_zero ? t : ng_fma(beta, *y, t);
}

__device__ __forceinline__ float ng_add(float a, float b) { return a + b; }
__device__ __forceinline__ double ng_add(double a, double b) { return a + b; }
template <typename R>
__device__ __forceinline__ ng_complex<R> ng_add(ng_complex<R> a, ng_complex<R> b) { return ng_complex<R>{a.re + b.re, a.im + b.im}; }

#if defined(NG_CSRMV_N) || defined(NG_CSR_CHECK) || defined(NG_CSRMV_T)

// Whether a row's pointer pair, relative to the base, is valid: 0 <= s <= e <= nnz.
__device__ __forceinline__ bool ng_row_ok(ng_i64 s, ng_i64 e, ng_i64 nnz) { return s >= 0 && s <= e && e <= nnz; }

// Column of entry k relative to the base, or -1 (reported) when out of range.
__device__ __forceinline__ ng_i64 ng_col(const int *__restrict__ col_ind, ng_i64 k, int base, ng_i64 n, ng_u64 *flag) {
    const ng_i64 c = (ng_i64)col_ind[k] - base;
    if (c < 0 || c >= n) {
        ng_report(flag, 1, k);
        return -1;
    }
    return c;
}

#endif  // NG_CSRMV_N || NG_CSR_CHECK || NG_CSRMV_T

#if defined(NG_CSR_CHECK)

// The validation pass of NUMGPU_CHECK_INPUTS=1: a thread per row checks its pointer pair,
// then the columns of a valid row; it writes nothing but the check word.
extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(csr_check_, NG_SUFFIX)(ng_i64 m, ng_i64 n, ng_i64 nnz, const int *__restrict__ row_ptr,
                                                                                    const int *__restrict__ col_ind, int base, ng_u64 *flag) {
    for (ng_i64 row = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; row < m; row += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 s = (ng_i64)row_ptr[row] - base, e = (ng_i64)row_ptr[row + 1] - base;
        if (!ng_row_ok(s, e, nnz)) {
            ng_report(flag, 0, row);
            continue;
        }
        for (ng_i64 k = s; k < e; k++) ng_col(col_ind, k, base, n, flag);
    }
}

#endif  // NG_CSR_CHECK

#if defined(NG_CSRMV_N) || defined(NG_CSR_PLAN) || defined(NG_CSR_STREAM)

// Threads per block (csrmv_n: and the most rows a block takes).
#define NG_CSR_BLOCK 256

// Sum over the w lanes of each w-lane group (w a power of two, at most 32): lane 0 of the
// group ends with the total of a fixed tree. Every lane of the warp must call it.
__device__ __forceinline__ T ng_group_sum(T v, int w) {
    for (int off = w / 2; off > 0; off /= 2) v = ng_add(v, ng_shfl(v, (threadIdx.x & 31) % w + off, w));
    return v;
}

// The block's total of v, on every thread, in a fixed order. Every thread must call it.
__device__ __forceinline__ T ng_block_total(T v, T *red) {
    v = ng_group_sum(v, 32);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    T t = red[0];
#pragma unroll
    for (int w = 1; w < NG_CSR_BLOCK / 32; w++) t = ng_add(t, red[w]);
    __syncthreads();
    return t;
}

#endif  // NG_CSRMV_N || NG_CSR_PLAN || NG_CSR_STREAM

#if defined(NG_CSRMV_N)

#define NG_PER 8
#define NG_TILE (NG_CSR_BLOCK * NG_PER)

// Products of entries k, k + step, ... < e summed in order with fma; bad columns skipped.
__device__ __forceinline__ T ng_part(ng_i64 k, ng_i64 e, int step, const T *__restrict__ val, const int *__restrict__ col_ind, int base, ng_i64 n,
                                     const T *__restrict__ x, ng_u64 *flag) {
    T sum = ng_zero<T>();
#pragma unroll 4
    for (; k < e; k += step) {
        const ng_i64 c = ng_col(col_ind, k, base, n, flag);
        if (c >= 0) sum = ng_fma(val[k], x[c], sum);
    }
    return sum;
}

// A block takes `rows` consecutive rows (a power of two, at most NG_CSR_BLOCK), their
// pointers in shared memory. When every pair is valid, it walks them in tiles: the rows
// whose entries fit NG_TILE together have their products staged in shared memory by
// coalesced, independent loads, then summed a row per group of g lanes (g from the tile's
// row count); a row longer than NG_TILE / 2 is summed by the whole block from global
// memory instead (the row-split path: one long row does not serialise a few lanes). A
// block with a bad pair reports it and falls back to a warp per valid row. Fixed orders
// throughout: bitwise reproducible.
extern "C" __global__ void __launch_bounds__(NG_CSR_BLOCK) NG_CAT(csrmv_n_, NG_SUFFIX)(ng_i64 m, ng_i64 n, ng_i64 nnz, T alpha, const T *__restrict__ val,
                                                                                      const int *__restrict__ row_ptr, const int *__restrict__ col_ind,
                                                                                      int base, const T *__restrict__ x, T beta, T *__restrict__ y,
                                                                                      int beta_zero, ng_u64 *flag, int rows) {
    __shared__ ng_i64 rp[NG_CSR_BLOCK + 1];
    __shared__ T prod[NG_TILE];
    __shared__ T red[NG_CSR_BLOCK / 32];
    const int tid = threadIdx.x, lane = tid & 31;
    const ng_i64 r0 = (ng_i64)blockIdx.x * rows;
    const int nr = (int)min((ng_i64)rows, m - r0);
    for (int i = tid; i <= nr; i += NG_CSR_BLOCK) rp[i] = (ng_i64)row_ptr[r0 + i] - base;
    __syncthreads();
    const bool bad = tid < nr && !ng_row_ok(rp[tid], rp[tid + 1], nnz);
    if (bad) ng_report(flag, 0, r0 + tid);
    if (__syncthreads_or(bad)) {
        for (int i = tid >> 5; i < nr; i += NG_CSR_BLOCK / 32) {
            if (!ng_row_ok(rp[i], rp[i + 1], nnz)) continue;
            const T sum = ng_group_sum(ng_part(rp[i] + lane, rp[i + 1], 32, val, col_ind, base, n, x, flag), 32);
            if (lane == 0) y[r0 + i] = ng_combine(alpha, sum, beta, y + r0 + i, beta_zero);
        }
        return;
    }
    // Every test below reads shared memory only, so the loop is uniform over the block.
    for (int rs = 0; rs < nr;) {
        const ng_i64 ks = rp[rs];
        if (rp[rs + 1] - ks > NG_TILE / 2) {
            const T sum = ng_block_total(ng_part(ks + tid, rp[rs + 1], NG_CSR_BLOCK, val, col_ind, base, n, x, flag), red);
            if (tid == 0) y[r0 + rs] = ng_combine(alpha, sum, beta, y + r0 + rs, beta_zero);
            rs++;
            continue;
        }
        // The pointers are monotone, so the rows that fit are a prefix of those left.
        const int re = rs + __syncthreads_count(tid >= rs && tid < nr && rp[tid + 1] - ks <= NG_TILE);
        const int len = (int)(rp[re] - ks);
        // Columns fit 32 bits: they come from int32 indices.
        int c[NG_PER];
#pragma unroll
        for (int j = 0; j < NG_PER; j++) {
            const int k = tid + j * NG_CSR_BLOCK;
            c[j] = k < len ? (int)ng_col(col_ind, ks + k, base, n, flag) : -1;
        }
#pragma unroll
        for (int j = 0; j < NG_PER; j++) {
            const int k = tid + j * NG_CSR_BLOCK;
            if (k < len) prod[k] = c[j] >= 0 ? ng_mul(val[ks + k], x[c[j]]) : ng_zero<T>();
        }
        __syncthreads();
        int g = 32;
        while (g * (re - rs) > NG_CSR_BLOCK) g /= 2;
        const int row = rs + tid / g, gl = tid % g;
        T sum = ng_zero<T>();
        if (row < re)
            for (int k = (int)(rp[row] - ks) + gl; k < (int)(rp[row + 1] - ks); k += g) sum = ng_add(sum, prod[k]);
        sum = ng_group_sum(sum, g);
        if (row < re && gl == 0) y[r0 + row] = ng_combine(alpha, sum, beta, y + r0 + row, beta_zero);
        rs = re;
        // The next tile overwrites the products just summed.
        __syncthreads();
    }
}

#endif  // NG_CSRMV_N

#if defined(NG_CSR_PLAN) || defined(NG_CSR_STREAM)

// The `lanes` of a unit summed one row at a time by the whole block (NG_PLAN_BLOCK in
// src/spmv/plan.rs), and the i64 fields of one unit descriptor.
#define NG_PLAN_BLOCK 256
#define NG_PLAN_FIELDS 6

// Value of entry k of op(A): through the transpose's permutation for op T/C (NG_PERM),
// conjugated for op C (NG_CONJ).
__device__ __forceinline__ T ng_plan_val(const T *__restrict__ val, const int *__restrict__ perm, ng_i64 k) {
#if NG_PERM
    T a = val[perm[k]];
#else
    T a = val[k];
#endif
#if NG_CONJ
    a = ng_conj(a);
#endif
    return a;
}

// Entries k, k + step, ... < e of the plan's structure: the products added in order with
// fma (value first, as the CPU twin). The structure was validated when the plan was built.
__device__ __forceinline__ T ng_plan_part(ng_i64 k, ng_i64 e, int step, const T *__restrict__ val, const int *__restrict__ col_ind,
                                          const int *__restrict__ perm, const T *__restrict__ x) {
    T sum = ng_zero<T>();
#pragma unroll 4
    for (; k < e; k += step) sum = ng_fma(ng_plan_val(val, perm, k), x[col_ind[k]], sum);
    return sum;
}

// A unit of lanes NG_PLAN_BLOCK: rows r_lo..r_hi each summed by the whole block, or (p >= 0)
// the piece k_lo..k_hi of a split row, its block sum written to part[p]. Every thread of the
// block must call it (ng_block_total has barriers).
__device__ __forceinline__ void ng_plan_block_rows(ng_i64 r_lo, ng_i64 r_hi, ng_i64 k_lo, ng_i64 k_hi, ng_i64 p, const int *__restrict__ row_ptr,
                                                   const int *__restrict__ col_ind, const int *__restrict__ perm, const T *__restrict__ val,
                                                   const T *__restrict__ x, T alpha, T beta, T *__restrict__ y, int beta_zero, T *__restrict__ part,
                                                   T *red) {
    for (ng_i64 r = r_lo; r < r_hi; r++) {
        const ng_i64 s = p >= 0 ? k_lo : (ng_i64)row_ptr[r], e = p >= 0 ? k_hi : (ng_i64)row_ptr[r + 1];
        const T sum = ng_block_total(ng_plan_part(s + threadIdx.x, e, NG_CSR_BLOCK, val, col_ind, perm, x), red);
        if (threadIdx.x == 0) {
            if (p >= 0)
                part[p] = sum;
            else
                y[r] = ng_combine(alpha, sum, beta, y + r, beta_zero);
        }
    }
}

#endif  // NG_CSR_PLAN || NG_CSR_STREAM

#if defined(NG_CSR_PLAN)

// Passes of a unit of several rows one thread takes at a time.
#define NG_PLAN_ROWS 4

// A block per unit (a grid-stride loop over units). Unit u's descriptor desc[6u..6u+6):
// first row, end row, entry range (pieces only), lanes g (1..32, or NG_PLAN_BLOCK), and its
// partial's index (a piece of a split row) or -1. Every branch below depends on the unit
// only, so each __syncthreads (in ng_block_total) and each shuffle is reached by the whole
// block or warp.
extern "C" __global__ void __launch_bounds__(NG_CSR_BLOCK) NG_CAT(csr_plan_, NG_SUFFIX)(ng_i64 units, const ng_i64 *__restrict__ desc,
                                                                                       const int *__restrict__ row_ptr, const int *__restrict__ col_ind,
                                                                                       const int *__restrict__ perm, const T *__restrict__ val,
                                                                                       const T *__restrict__ x, T alpha, T beta, T *__restrict__ y,
                                                                                       int beta_zero, T *__restrict__ part) {
    __shared__ T red[NG_CSR_BLOCK / 32];
    const int tid = threadIdx.x;
    for (ng_i64 u = blockIdx.x; u < units; u += gridDim.x) {
        const ng_i64 *d = desc + u * NG_PLAN_FIELDS;
        const ng_i64 r_lo = d[0], r_hi = d[1];
        const int g = (int)d[4];
        if (g == NG_PLAN_BLOCK) {
            ng_plan_block_rows(r_lo, r_hi, d[2], d[3], d[5], row_ptr, col_ind, perm, val, x, alpha, beta, y, beta_zero, part, red);
        } else {
            const int q = tid / g, gl = tid % g, per = NG_CSR_BLOCK / g;
            // NG_PLAN_ROWS passes at a time: a thread's rows r0 + j*per + q have their chains
            // interleaved, so that up to NG_PLAN_ROWS independent loads of col_ind, val and x
            // are in flight per thread; each row's products are still added in its own order.
            // r0 is the same on every thread: each iteration is uniform over the block.
            for (ng_i64 r0 = r_lo; r0 < r_hi; r0 += (ng_i64)NG_PLAN_ROWS * per) {
                ng_i64 k[NG_PLAN_ROWS], e[NG_PLAN_ROWS];
                T sum[NG_PLAN_ROWS];
#pragma unroll
                for (int j = 0; j < NG_PLAN_ROWS; j++) {
                    const ng_i64 r = r0 + (ng_i64)j * per + q;
                    const bool ok = r < r_hi;
                    k[j] = ok ? (ng_i64)row_ptr[r] + gl : 0;
                    e[j] = ok ? (ng_i64)row_ptr[r + 1] : 0;
                    sum[j] = ng_zero<T>();
                }
                for (bool more = true; more;) {
                    more = false;
#pragma unroll
                    for (int j = 0; j < NG_PLAN_ROWS; j++) {
                        if (k[j] < e[j]) {
                            sum[j] = ng_fma(ng_plan_val(val, perm, k[j]), x[col_ind[k[j]]], sum[j]);
                            k[j] += g;
                            more |= k[j] < e[j];
                        }
                    }
                }
#pragma unroll
                for (int j = 0; j < NG_PLAN_ROWS; j++) {
                    const ng_i64 r = r0 + (ng_i64)j * per + q;
                    const T total = ng_group_sum(sum[j], g);
                    if (r < r_hi && gl == 0) y[r] = ng_combine(alpha, total, beta, y + r, beta_zero);
                }
            }
        }
    }
}

#endif  // NG_CSR_PLAN

#if defined(NG_CSR_STREAM)

// Entries of a stream unit's tile (STREAM_TILE in src/spmv/plan.rs), and per thread.
#define NG_STREAM_TILE 2048
#define NG_STREAM_PER (NG_STREAM_TILE / NG_CSR_BLOCK)

// The plan's stream kernel: a block per unit (a grid-stride loop over units), descriptors as
// csr_plan_<T>'s. A unit of g < NG_PLAN_BLOCK lanes holds rows r_lo..r_hi (at most
// NG_CSR_BLOCK) whose entries k_lo..k_hi fit a tile: every load of the tile (the rows'
// pointers, columns, values; then x) depends only on the descriptor, so all are in flight at
// once, coalesced; the products fma(value, x, 0) go to shared memory, then each row's are
// added to zero in order by lane l of its g (entries l, l + g, ...) and a shuffle tree. Units
// of NG_PLAN_BLOCK lanes (a row longer than a tile, a piece of a split row) are summed as in
// csr_plan_<T>. Every branch depends on the unit only: the barriers are reached by the block.
extern "C" __global__ void __launch_bounds__(NG_CSR_BLOCK) NG_CAT(csr_stream_, NG_SUFFIX)(ng_i64 units, const ng_i64 *__restrict__ desc,
                                                                                         const int *__restrict__ row_ptr, const int *__restrict__ col_ind,
                                                                                         const int *__restrict__ perm, const T *__restrict__ val,
                                                                                         const T *__restrict__ x, T alpha, T beta, T *__restrict__ y,
                                                                                         int beta_zero, T *__restrict__ part) {
    __shared__ T prod[NG_STREAM_TILE];
    // The unit's row pointers relative to k_lo: rs[0] = 0, rs[nr] = the tile's length.
    __shared__ int rs[NG_CSR_BLOCK + 1];
    __shared__ T red[NG_CSR_BLOCK / 32];
    const int tid = threadIdx.x;
    for (ng_i64 u = blockIdx.x; u < units; u += gridDim.x) {
        const ng_i64 *d = desc + u * NG_PLAN_FIELDS;
        const ng_i64 r_lo = d[0], r_hi = d[1], k_lo = d[2], k_hi = d[3];
        const int g = (int)d[4];
        if (g == NG_PLAN_BLOCK) {
            ng_plan_block_rows(r_lo, r_hi, k_lo, k_hi, d[5], row_ptr, col_ind, perm, val, x, alpha, beta, y, beta_zero, part, red);
            continue;
        }
        // nr <= NG_CSR_BLOCK rows, len <= NG_STREAM_TILE entries (the plan's bounds).
        const int nr = (int)(r_hi - r_lo), len = (int)(k_hi - k_lo);
        const int rp = tid < nr ? row_ptr[r_lo + 1 + tid] : 0;
        // A unit of empty rows has no entry to read (k_lo may be nnz).
        if (len > 0) {
            // Unpredicated loads (entries past the tile re-read its last one, whose line is
            // loaded anyway), so that all of a thread's loads issue back to back.
            int c[NG_STREAM_PER];
            T v[NG_STREAM_PER];
#pragma unroll
            for (int j = 0; j < NG_STREAM_PER; j++) {
                const ng_i64 k = k_lo + min(tid + j * NG_CSR_BLOCK, len - 1);
                c[j] = col_ind[k];
                v[j] = ng_plan_val(val, perm, k);
            }
            T xv[NG_STREAM_PER];
#pragma unroll
            for (int j = 0; j < NG_STREAM_PER; j++) xv[j] = x[c[j]];
#pragma unroll
            for (int j = 0; j < NG_STREAM_PER; j++) {
                const int k = tid + j * NG_CSR_BLOCK;
                if (k < len) prod[k] = ng_fma(v[j], xv[j], ng_zero<T>());
            }
        }
        if (tid < nr) rs[tid + 1] = rp - (int)k_lo;
        if (tid == 0) rs[0] = 0;
        __syncthreads();
        // g lanes per row, g * nr <= NG_CSR_BLOCK: row tid / g, entries lane, lane + g, ...
        const int row = tid / g, gl = tid % g;
        T sum = ng_zero<T>();
        if (row < nr)
            for (int k = rs[row] + gl; k < rs[row + 1]; k += g) sum = ng_add(sum, prod[k]);
        sum = ng_group_sum(sum, g);
        if (row < nr && gl == 0) y[r_lo + row] = ng_combine(alpha, sum, beta, y + r_lo + row, beta_zero);
        // The next unit overwrites prod and rs.
        __syncthreads();
    }
}

#endif  // NG_CSR_STREAM

#if defined(NG_CSR_PLAN_FIXUP)

// A thread per split row: its pieces' sums (parts split_part[j] .. split_part[j + 1]) added in
// order, then y written.
extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(csr_plan_fixup_, NG_SUFFIX)(ng_i64 splits, const ng_i64 *__restrict__ split_row,
                                                                                         const ng_i64 *__restrict__ split_part, const T *__restrict__ part,
                                                                                         T alpha, T beta, T *__restrict__ y, int beta_zero) {
    for (ng_i64 j = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; j < splits; j += (ng_i64)gridDim.x * blockDim.x) {
        T z = part[split_part[j]];
        for (ng_i64 p = split_part[j] + 1; p < split_part[j + 1]; p++) z = ng_add(z, part[p]);
        const ng_i64 row = split_row[j];
        y[row] = ng_combine(alpha, z, beta, y + row, beta_zero);
    }
}

#endif  // NG_CSR_PLAN_FIXUP

#if defined(NG_CSRMV_T)

__device__ __forceinline__ void ng_atomic_add(float *p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void ng_atomic_add(double *p, double v) { atomicAdd(p, v); }
template <typename R>
__device__ __forceinline__ void ng_atomic_add(ng_complex<R> *p, ng_complex<R> v) {
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
}

extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(csrmv_t_, NG_SUFFIX)(ng_i64 m, ng_i64 n, ng_i64 nnz, T alpha, const T *__restrict__ val,
                                                                                  const int *__restrict__ row_ptr, const int *__restrict__ col_ind,
                                                                                  int base, const T *__restrict__ x, T *y, ng_u64 *flag) {
    const ng_i64 g = ((ng_i64)blockIdx.x * blockDim.x + threadIdx.x) / NG_V;
    const ng_i64 groups = ((ng_i64)gridDim.x * blockDim.x) / NG_V;
    const int vl = threadIdx.x % NG_V;
    for (ng_i64 row = g; row < m; row += groups) {
        const ng_i64 s = (ng_i64)row_ptr[row] - base, e = (ng_i64)row_ptr[row + 1] - base;
        if (!ng_row_ok(s, e, nnz)) {
            if (vl == 0) ng_report(flag, 0, row);
            continue;
        }
        const T ax = ng_mul(alpha, x[row]);
        for (ng_i64 k = s + vl; k < e; k += NG_V) {
            const ng_i64 c = ng_col(col_ind, k, base, n, flag);
            if (c < 0) continue;
#if NG_CONJ
            const T a = ng_conj(val[k]);
#else
            const T a = val[k];
#endif
            ng_atomic_add(y + c, ng_mul(a, ax));
        }
    }
}

#endif  // NG_CSRMV_T

#if defined(NG_SCALE)

extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(scale_, NG_SUFFIX)(ng_i64 len, T beta, T *y, int beta_zero) {
    for (ng_i64 i = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; i < len; i += (ng_i64)gridDim.x * blockDim.x)
        y[i] = beta_zero ? ng_zero<T>() : ng_mul(beta, y[i]);
}

#endif  // NG_SCALE

#if defined(NG_CMRSMV)

#define NG_PAD 0xffffffffu

// A warp per work item (src/spmv/cmrs.rs): an item that is its strip's only one writes the
// strip's rows of y; the items of a longer strip write their row sums to `part` instead, for
// cmrs_fixup_<T> to add.
extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(cmrsmv_, NG_SUFFIX)(ng_i64 m, ng_i64 items, const ng_i64 *__restrict__ item_ptr,
                                                                                 const int *__restrict__ item_strip, const int *__restrict__ item_part,
                                                                                 const unsigned *__restrict__ packed, const T *__restrict__ val,
                                                                                 const T *__restrict__ x, T alpha, T beta, T *__restrict__ y,
                                                                                 int beta_zero, T *__restrict__ part) {
    // NG_M copies of the strip's NG_H row sums per warp.
    __shared__ T acc_all[(NG_BLOCK / 32) * NG_M * NG_H];
    T *acc = acc_all + (threadIdx.x >> 5) * (NG_M * NG_H);
    const int lane = threadIdx.x & 31;
    const ng_i64 warp = ((ng_i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const ng_i64 nwarps = ((ng_i64)gridDim.x * blockDim.x) >> 5;
    for (ng_i64 item = warp; item < items; item += nwarps) {
        for (int i = lane; i < NG_M * NG_H; i += 32) acc[i] = ng_zero<T>();
        __syncwarp();
        const ng_i64 s = item_ptr[item], e = item_ptr[item + 1];
        // Read now, so that their latency overlaps the chunks' rather than following it.
        const int p = item_part[item];
        const ng_i64 row = (ng_i64)item_strip[item] * NG_H + lane;
        // (e - s) is a multiple of 32: every lane runs the same iterations, so __syncwarp
        // is reached by all.
        for (ng_i64 j = s + lane; j < e; j += 32) {
            const unsigned w = packed[j];
            if (w != NG_PAD) {
                T *slot = acc + (lane % NG_M) * NG_H + (w & 15u);
                *slot = ng_fma(val[j], x[w >> 4], *slot);
            }
            // The next chunk may hit this chunk's slots from other lanes.
            __syncwarp();
        }
        if (lane < NG_H) {
            T z = acc[lane];
#pragma unroll
            for (int k = 1; k < NG_M; k++) z = ng_add(z, acc[k * NG_H + lane]);
            if (p >= 0)
                part[(ng_i64)p * NG_H + lane] = z;
            else if (row < m)
                y[row] = ng_combine(alpha, z, beta, y + row, beta_zero);
        }
        // The next item clears the slots these lanes just read.
        __syncwarp();
    }
}

#endif  // NG_CMRSMV

#if defined(NG_CMRS_FIXUP)

// A thread per row of a split strip: its items' sums added in item order, then y written.
extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(cmrs_fixup_, NG_SUFFIX)(ng_i64 m, ng_i64 splits, const int *__restrict__ split_strip,
                                                                                     const int *__restrict__ split_part, const T *__restrict__ part,
                                                                                     T alpha, T beta, T *__restrict__ y, int beta_zero) {
    for (ng_i64 t = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; t < splits * NG_H; t += (ng_i64)gridDim.x * blockDim.x) {
        const ng_i64 j = t / NG_H;
        const int r = (int)(t % NG_H);
        const ng_i64 row = (ng_i64)split_strip[j] * NG_H + r;
        if (row >= m) continue;
        T z = part[(ng_i64)split_part[j] * NG_H + r];
        for (ng_i64 p = split_part[j] + 1; p < split_part[j + 1]; p++) z = ng_add(z, part[p * NG_H + r]);
        y[row] = ng_combine(alpha, z, beta, y + row, beta_zero);
    }
}

#endif  // NG_CMRS_FIXUP

#if defined(NG_CMRS_GATHER)

extern "C" __global__ void __launch_bounds__(NG_BLOCK) NG_CAT(cmrs_gather_, NG_SUFFIX)(ng_i64 len, const int *__restrict__ src, const T *__restrict__ val,
                                                                                      T *__restrict__ out) {
    for (ng_i64 k = (ng_i64)blockIdx.x * blockDim.x + threadIdx.x; k < len; k += (ng_i64)gridDim.x * blockDim.x) {
        const int from = src[k];
        out[k] = from < 0 ? ng_zero<T>() : val[from];
    }
}

#endif  // NG_CMRS_GATHER
