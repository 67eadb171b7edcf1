#!/usr/bin/env bash
# Builds the gemm_small comparison harness (README.md): a kernel per line of variants.txt (name,
# src, type, WORDS, THREADS, ST, PC, CAP, N) and per row of the harness (n = 16, 24, 31, 32 op
# N/N and n = 32 op T/N; the rows whose n the line's N lists, or all) as
# gemm_small_<name>_<type>_<n><op>, from kernels/gemm_batched.cu (src this) or from the
# baseline's (src base: BASE's kernels/gemm_batched.cu and common.cuh, by git into build/base),
# with the library's rules for the rest: ti × tj threads a matrix, the fewest whose share of C
# fits WORDS 4-byte registers (plan_in); NB = THREADS / (ti·tj) matrices a block, halved while
# the shared memory passes 48 KB (ST = 0, as the library) or 96 KB; NG_MINB = 65536 / (threads
# · CAP). ptxas's register and spill lines printed. Run from anywhere (nvcc, CUDA 12+, sm_90).
#   BASE=<commit> (default 5ca5c1c, main with the kernel before issue 23's second round: its
#   kernels/gemm_batched.cu is main's at the time this was written; BASE=main after a merge
#   compares against the merged kernel itself).
#   --base: only extract the baseline into build/base, for a machine without the repository's
#   .git (carry docs/bench/gemm-small-tune/build there).
set -e
cd "$(dirname "$0")"
ROOT=../../..
OUT=build
BASE=${BASE:-5ca5c1c}
mkdir -p $OUT/base
if git -C $ROOT rev-parse -q --verify "$BASE^{commit}" > /dev/null 2>&1; then
  for f in gemm_batched.cu common.cuh; do git -C $ROOT show "$BASE:kernels/$f" > $OUT/base/$f; done
elif [ ! -s $OUT/base/gemm_batched.cu ]; then
  echo "no commit $BASE here and no build/base: run build.sh --base where the repository is, carry build/" >&2
  exit 1
fi
[ "$1" = --base ] && exit 0
ctype() { case $1 in float) echo float;; double) echo double;; cfloat) echo "ng_complex<float>";; cdouble) echo "ng_complex<double>";; esac; }
csize() { case $1 in float) echo 4;; double|cfloat) echo 8;; cdouble) echo 16;; esac; }
# smem n nb st pc size: the kernel's dynamic shared memory (src/gemm_batched/cuda.rs small_smem).
smem() {
  local n=$1 nb=$2 st=$3 pc=$4 size=$5 vec=$((16 / $5 > 0 ? 16 / $5 : 1))
  local r=$(( (nb * n * n + vec - 1) / vec * vec ))
  echo $(( (st * (2 + pc) * r + nb * 2 * n * (n | 1)) * size ))
}
# shape n words threads st pc cap size: sets ti tj nb minb (square n × n × n).
shape() {
  local n=$1 per=$(( $2 / ($7 / 4) > 1 ? $2 / ($7 / 4) : 1 ))
  ti=1; tj=1
  while [ $(( (n + ti - 1) / ti * ((n + tj - 1) / tj) )) -gt $per ]; do
    if [ $(( (n + ti - 1) / ti )) -ge $(( (n + tj - 1) / tj )) ]; then ti=$((ti * 2)); else tj=$((tj * 2)); fi
  done
  nb=$(( $3 / (ti * tj) > 1 ? $3 / (ti * tj) : 1 ))
  local limit=$(( $4 == 0 ? 49152 : 98304 ))
  while [ $nb -gt 1 ] && [ $(smem $n $nb $4 $5 $7) -gt $limit ]; do nb=$((nb / 2)); done
  minb=$(( 65536 / (nb * ti * tj * $6) > 1 ? 65536 / (nb * ti * tj * $6) : 1 ))
}
ROWS="16:0 24:0 31:0 32:0 32:1"
: > $OUT/variants.inc
while read -r name src t words threads st pc cap ns; do
  [ -z "$name" ] && continue
  size=$(csize $t)
  if [ $src = base ]; then dir=$OUT/base; else dir=$ROOT/kernels; fi
  for row in $ROWS; do
    n=${row%:*}; ta=${row#*:}
    [ "$ns" = all ] || [[ ",$ns," == *",$n,"* ]] || continue
    shape $n $words $threads $st $pc $cap $size
    e=${name}_${t}_${n}$([ $ta = 1 ] && echo t || echo n)
    echo "V($t, $name, $e, $([ $src = base ] && echo 1 || echo 0), $n, $ta, $nb, $ti, $tj, $st, $pc, $minb, $(smem $n $nb $st $pc $size))" >> $OUT/variants.inc
    ( nvcc -O3 -arch=sm_90 -std=c++17 -I$dir -c -x cu $dir/gemm_batched.cu -o $OUT/$e.o \
        "-DNG_T=$(ctype $t)" -DNG_SUFFIX=$e -DNG_SMALL=1 -DNG_M=$n -DNG_N=$n -DNG_K=$n -DNG_TA=$ta -DNG_TB=0 \
        -DNG_NB=$nb -DNG_TI=$ti -DNG_TJ=$tj -DNG_MINB=$minb -DNG_ST=$st -DNG_PC=$pc -Xptxas -v 2>&1 \
        | grep -E 'error|registers|spill' | sed "s/^/$e (nb $nb, $ti x $tj): /" ) &
    # At most 16 compilations at once.
    while [ $(jobs -rp | wc -l) -ge 16 ]; do wait -n; done
  done
done < variants.txt
nvcc -O3 -arch=sm_90 -std=c++17 -I$OUT -c harness.cu -o $OUT/harness.o &
wait
objs=$(sed -E 's/^V\([a-z]+, [a-z0-9]+, ([a-z0-9_]+),.*/'$OUT'\/\1.o/' $OUT/variants.inc)
nvcc -arch=sm_90 $OUT/harness.o $objs -lcublas -o harness
