#!/usr/bin/env bash
# Builds the gemm_simt tuning harness (README.md): kernels/gemm_batched.cu compiled once per
# line of variants.txt (name, type, BM, BN, BK, TM, TN, ST, MINB) three times: op N/N with
# 16-byte copies (NG_VEC=7) as gemm_simt_<name>, N/N with 4-byte ones (NG_VEC=0, what the
# library runs where n·sizeof(T) is not a multiple of 16) as gemm_simt_<name>u, and T/N
# (NG_VEC=7) as gemm_simt_<name>t; ptxas's register and spill lines printed. Run from anywhere
# (nvcc, CUDA 12+, sm_90).
set -e
cd "$(dirname "$0")"
ROOT=../../..
OUT=build
mkdir -p $OUT
# f name type bm bn bk tm tn st minb ta vec suffix
f() {
  local e=$1${12}
  nvcc -O3 -arch=sm_90 -std=c++17 -I$ROOT/kernels -c -x cu $ROOT/kernels/gemm_batched.cu -o $OUT/$e.o \
    "-DNG_T=$2" -DNG_SUFFIX=$e -DNG_SIMT=1 -DNG_TA=${10} -DNG_TB=0 -DNG_BM=$3 -DNG_BN=$4 -DNG_BK=$5 \
    -DNG_TM=$6 -DNG_TN=$7 -DNG_ST=$8 -DNG_MINB=$9 -DNG_VEC=${11} -Xptxas -v 2>&1 \
    | grep -E 'error|registers|spill' | sed "s/^/$e: /"
}
# The variant table the harness includes: one entry per line, its type's letter first.
{
  while read -r name t bm bn bk tm tn st minb; do
    [ -z "$name" ] && continue
    c=$([ "$t" = float ] && echo S || echo C)
    echo "V$c($name, $bm, $bn, $bk, $tm, $tn, $st, $minb)"
  done < variants.txt
} > $OUT/variants.inc
while read -r name t bm bn bk tm tn st minb; do
  [ -z "$name" ] && continue
  f "$name" "$t" "$bm" "$bn" "$bk" "$tm" "$tn" "$st" "$minb" 0 7 "" &
  f "$name" "$t" "$bm" "$bn" "$bk" "$tm" "$tn" "$st" "$minb" 0 0 u &
  f "$name" "$t" "$bm" "$bn" "$bk" "$tm" "$tn" "$st" "$minb" 1 7 t &
done < variants.txt
nvcc -O3 -arch=sm_90 -std=c++17 -I$OUT -c harness.cu -o $OUT/harness.o &
wait
objs=$(awk 'NF { print "'$OUT'/" $1 ".o '$OUT'/" $1 "u.o '$OUT'/" $1 "t.o" }' variants.txt)
nvcc -arch=sm_90 $OUT/harness.o $objs -lcublas -o harness
