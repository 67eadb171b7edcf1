#!/usr/bin/env bash
# variants: name T WR WC WM WN BK ST MINB
cd "$(dirname "$0")"
K=../kernels/gemm_batched.cu
f() { nvcc -O3 -arch=sm_90 -std=c++17 -I../kernels -c -x cu $K -o $1.o "-DNG_T=$2" -DNG_SUFFIX=$1 -DNG_TF32=1 -DNG_TA=0 -DNG_TB=0 -DNG_WR=$3 -DNG_WC=$4 -DNG_WM=$5 -DNG_WN=$6 -DNG_BK=$7 -DNG_ST=$8 -DNG_MINB=$9 -Xptxas -v 2>&1 | grep -E 'registers|spill' | grep -v "0 bytes spill" | sed "s/^/$1: /"; }
while read -r name t wr wc wm wn bk st minb; do
  [ -z "$name" ] && continue
  f $name "$t" $wr $wc $wm $wn $bk $st $minb &
done < variants.txt
nvcc -O3 -arch=sm_90 -std=c++17 -c harness.cu -o main.o &
wait
nvcc -arch=sm_90 main.o $(awk '{print $1".o"}' variants.txt) -lcublas -o harness
