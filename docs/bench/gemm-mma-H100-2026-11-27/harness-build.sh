#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
K=../kernels/gemm_batched.cu
f() { nvcc -O3 -arch=sm_90 -std=c++17 -I../kernels -c -x cu $K -o $1.o "-DNG_T=$2" -DNG_SUFFIX=$1 -DNG_MMA=1 -DNG_TA=0 -DNG_TB=0 -DNG_WR=$3 -DNG_WM=$4 -DNG_WN=$5 -DNG_BK=16 -DNG_ST=3 -DNG_MINB=$6 -Xptxas -v 2>&1 | grep -E 'registers|spill' | sed "s/^/$1: /"; }
f dA 'double' 32 2 2 3 &
f dB 'double' 64 2 2 2 &
f dC 'double' 64 1 2 4 &
f zA 'ng_complex<double>' 32 2 2 2 &
f zB 'ng_complex<double>' 64 2 2 1 &
f zC 'ng_complex<double>' 64 1 2 2 &
nvcc -O3 -arch=sm_90 -std=c++17 -c gemm_mma_bench.cu -o main.o &
wait
nvcc -arch=sm_90 main.o dA.o dB.o dC.o zA.o zB.o zC.o -lcublas -o gemm_mma_bench
