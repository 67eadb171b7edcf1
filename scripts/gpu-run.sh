#!/usr/bin/env bash
# Runs numgpu's GPU checks from a bundle made by scripts/gpu-bundle.sh, on a host with an
# NVIDIA GPU and no Rust. Copied into the bundle as .gpu-bundle/run.sh; run it from the repo
# root (the working tree is there; the binaries need no source, but see BUILD ROOT below):
#
#   .gpu-bundle/run.sh [STEP...]       STEP: test memcheck racecheck tour bench python multigpu
#                                      (default: all but multigpu)
#
# Steps, in this order whatever the order given:
#   test       the unit-test binary, then the integration binary, NUMGPU_REQUIRE_CUDA=1
#              (the header test is skipped: it regenerates the header from src/ with cbindgen)
#   memcheck   compute-sanitizer --tool memcheck over the integration binary, with
#              NUMGPU_UNDER_SANITIZER=1 (the tests then take their sanitizer sizes)
#   racecheck  compute-sanitizer --tool racecheck over the integration binary, likewise
#   tour       examples/tour
#   bench      numgpu-bench --out $OUT/bench $BENCH_ARGS
#   python     the Python module's pytest suite (python.tar.xz) with NUMGPU_LIBRARY = the bundle's
#              library: the GPU module (torch CUDA tensors on a non-default stream) and the host
#              suite on a CPU handle, then the host suite again on a CUDA handle (staged arrays),
#              with the first python3 that imports torch (PYTHON overrides); log python.log
#   multigpu   examples/c's multi_gpu --bench (a handle and a thread per device) and
#              mpirun -np $MPI_NP mpi_batch --bench (a rank per device; MPI_NP default: the GPUs,
#              at least 2), on CUDA: the batch on one GPU and split over all, from host and
#              device arrays; tables in multigpu.log, JSON lines in multigpu.jsonl
#
# Output, under $OUT (default ./gpu-out), at most 8 files and 2 folders deep (the device tool
# returns no more): test.log, sanitizers.log, tour.log, bench.log, python.log, summary.txt and the bench's
# own files in bench/ (packed into bench.tar.gz if they would exceed the limits). A summary
# table (step, exit status, seconds) is printed at the end, with the tail of each failed
# step's log. Exits non-zero if any step failed.
#
# Environment (all optional):
#   OUT                   output folder (the device tool sets it)
#   NUMGPU_REQUIRE_CUDA   default 1; 0 runs the steps without a GPU (a smoke test of this script:
#                         the CUDA tests then skip instead of failing)
#   NUMGPU_REQUIRE_NVRTC  default: as NUMGPU_REQUIRE_CUDA
#   TEST_FILTER           libtest filters for the test step, space-separated (default: every test)
#   TEST_SKIP             space-separated --skip patterns for the test step (default "header::")
#   SANITIZER_FILTER      libtest filters for memcheck/racecheck, space-separated (default: every test)
#   SANITIZER_SKIP        their --skip patterns (default "header:: kernels:: _asan": not the header
#                         test, nor the NVRTC compile check, which runs no kernel, nor the
#                         C tests built with AddressSanitizer, which does not mix with it)
#   SANITIZER_ARGS        extra compute-sanitizer arguments (e.g. "--leak-check full")
#   SANITIZER_JOBS        > 1: one process per test, that many at a time (default 1: one
#                         process for all); SANITIZER_TEST_TIMEOUT stops each after so many s
#   SANITIZER_PRECISIONS  with SANITIZER_JOBS > 1: one process per test and precision listed
#                         ("s d c z"; NUMGPU_TEST_PRECISIONS selects it in the tests that
#                         loop over precisions), so that a long test's four precisions run side
#                         by side (default: one process per test, every precision)
#   TEST_THREADS          --test-threads for the test binaries (default: libtest's)
#   TOUR_ARGS, BENCH_ARGS extra arguments for the tour and numgpu-bench; BENCH_ARGS may hold
#                         several runs' arguments separated by '|' (one numgpu-bench each)
#   MULTIGPU_ARGS         extra arguments for multi_gpu and mpi_batch (e.g. smaller sizes:
#                         --gemm-batch 4096; --help lists them)
#   MPI_NP, MPIRUN_ARGS   ranks, and extra mpirun arguments, of the multigpu step
#   MPI_KIT               default 1: the bundle's Open MPI (mpi-kit/, unpacked into a temporary
#                         prefix) provides mpirun and libmpi; 0: the host's own
#   STEP_TIMEOUT          seconds after which a step is stopped (default 0: none)
#   NUMGPU_CACHE_DIR      NVRTC module cache (default: a fresh temporary folder)
#
# BUILD ROOT: the test binaries keep the absolute repo path they were built in
# (CARGO_MANIFEST_DIR) and read a few files relative to it. When that path does not exist on
# this host, run.sh links it to the repo root here (LINK_BUILD_ROOT=0 turns that off).
set -uo pipefail

BUNDLE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$BUNDLE")"
cd "$REPO"

ALL_STEPS=(test memcheck racecheck tour bench python multigpu)
declare -A want=()
if [[ $# -eq 0 ]]; then
    for s in test memcheck racecheck tour bench python; do want[$s]=1; done
else
    for s in "$@"; do
        case "$s" in
            test|memcheck|racecheck|tour|bench|python|multigpu) want[$s]=1 ;;
            -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
            *) echo "run.sh: unknown step '$s' (steps: ${ALL_STEPS[*]})" >&2; exit 2 ;;
        esac
    done
fi

OUT="${OUT:-$REPO/gpu-out}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

export NUMGPU_REQUIRE_CUDA="${NUMGPU_REQUIRE_CUDA:-1}"
export NUMGPU_REQUIRE_NVRTC="${NUMGPU_REQUIRE_NVRTC:-$NUMGPU_REQUIRE_CUDA}"
export NUMGPU_PREBUILT_TESTS=1
TMP="$(mktemp -d /tmp/numgpu-run.XXXXXX)"
# The C and Fortran test executables, packed by gpu-bundle.sh.
export NUMGPU_TEST_BIN_DIR="$TMP/ctests"
if [[ -f "$BUNDLE/bin/ctests.tar.xz" ]] && ! tar -C "$TMP" -xJf "$BUNDLE/bin/ctests.tar.xz" 2>/dev/null; then
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
        "$BUNDLE/bin/ctests.tar.xz" "$TMP" || echo "run.sh: could not unpack ctests.tar.xz" >&2
fi
export NUMGPU_CACHE_DIR="${NUMGPU_CACHE_DIR:-$TMP/cache}"
# The spmv tests' Matrix Market files, copied into the bundle by gpu-bundle.sh.
if [[ -d "$BUNDLE/matrices" ]]; then export NUMGPU_MATRICES="${NUMGPU_MATRICES:-$BUNDLE/matrices}"; fi
mkdir -p "$NUMGPU_CACHE_DIR"
export RUST_BACKTRACE="${RUST_BACKTRACE:-1}"

# ---- libraries -------------------------------------------------------------------------
# OpenBLAS, LAPACK(E), libgfortran as built against, from the bundle.
syslib="$TMP/syslib"
mkdir -p "$syslib"
if [[ -f "$BUNDLE/lib/syslibs.tar.xz" ]]; then
    if ! tar -C "$syslib" -xJf "$BUNDLE/lib/syslibs.tar.xz" 2>/dev/null; then
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
            "$BUNDLE/lib/syslibs.tar.xz" "$syslib" || echo "run.sh: could not unpack syslibs.tar.xz" >&2
    fi
fi

# libnvrtc.so.13, libcublas.so.13 and libcusparse.so.12 (CUDA 13's cuSPARSE; and what they
# load beside them), wherever the CUDA toolkit or pip's nvidia packages put them; the first
# folder that has each one wins.
cuda_dirs=()
add_dir() { local d; for d in "${cuda_dirs[@]}"; do [[ "$d" == "$1" ]] && return; done; cuda_dirs+=("$1"); }
candidates=()
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
         /usr/local/cuda-*/lib64 /usr/local/cuda-*/targets/x86_64-linux/lib; do
    [[ -d "$d" ]] && candidates+=("$d")
done
for py in python3 /opt/*/.venv/bin/python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 || continue
    while IFS= read -r d; do [[ -n "$d" ]] && candidates+=("$d"); done < <("$py" - 2>/dev/null <<'EOF'
import glob, os
try:
    import nvidia
except Exception:
    raise SystemExit(0)
for p in nvidia.__path__:
    for d in sorted(glob.glob(os.path.join(p, "*", "lib"))):
        print(d)
EOF
)
done
for lib in libnvrtc.so.13 libcublas.so.13 libcublasLt.so.13 libcusparse.so.12 libnvJitLink.so.13; do
    for d in "${candidates[@]}"; do
        if [[ -e "$d/$lib" ]]; then add_dir "$d"; break; fi
    done
done
cuda_path="$(IFS=:; echo "${cuda_dirs[*]}")"
export LD_LIBRARY_PATH="$BUNDLE/lib:$syslib${cuda_path:+:$cuda_path}:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# Open MPI from the bundle's kit (the version mpi_batch was built with), in a private prefix:
# its mpirun first on PATH, its libraries first on LD_LIBRARY_PATH.
mpi_note="mpirun: $(command -v mpirun || echo none) (the host's)"
if [[ "${MPI_KIT:-1}" == 1 && -x "$BUNDLE/mpi-kit/mpi-kit.sh" ]]; then
    if "$BUNDLE/mpi-kit/mpi-kit.sh" unpack "$TMP/mpi" >"$TMP/mpi-kit.log" 2>&1; then
        . "$TMP/mpi/env.sh"
        mpi_note="mpirun: $(command -v mpirun) (the bundle's kit: $(tail -n 1 "$TMP/mpi-kit.log"))"
    else
        mpi_note="mpirun: the bundle's kit did not unpack: $(tail -n 3 "$TMP/mpi-kit.log" | tr '\n' ' ')"
    fi
fi

# compute-sanitizer: on PATH, else in a toolkit.
SANITIZER="$(command -v compute-sanitizer 2>/dev/null || true)"
if [[ -z "$SANITIZER" ]]; then
    for f in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda*/bin/compute-sanitizer \
             /usr/local/cuda*/compute-sanitizer/compute-sanitizer; do
        [[ -x "$f" ]] && { SANITIZER="$f"; break; }
    done
fi

# ---- build root ------------------------------------------------------------------------
build_root="$(cat "$BUNDLE/build_root" 2>/dev/null || true)"
build_root_note="build root: ${build_root:-unknown}"
if [[ -n "$build_root" && "$build_root" != "$REPO" && "${LINK_BUILD_ROOT:-1}" == 1 ]]; then
    if [[ ! -e "$build_root" ]] && mkdir -p "$(dirname "$build_root")" 2>/dev/null && ln -s "$REPO" "$build_root" 2>/dev/null; then
        build_root_note="build root: $build_root -> $REPO (linked)"
    elif [[ "$(readlink -f "$build_root")" == "$(readlink -f "$REPO")" ]]; then
        build_root_note="build root: $build_root -> $REPO (already linked)"
    else
        build_root_note="build root: $build_root (exists here or cannot be linked: the tests read files from there)"
    fi
fi

# ---- steps -----------------------------------------------------------------------------
declare -A status=() secs=()
order=()

# run_step NAME LOG CMD...: runs CMD with its output appended to LOG, records status and time.
run_step() {
    local name="$1" log="$2"; shift 2
    local t0 rc
    order+=("$name")
    {
        echo
        echo "=================== $name: $* ==================="
        echo "started $(date -u +%H:%M:%S)"
    } >>"$log"
    echo "run.sh: $name ..."
    t0=$(date +%s.%N)
    # The step runs in its own process group (job control on while it starts), so a
    # STEP_TIMEOUT watchdog can stop the shell function and everything it started (timeout(1)
    # cannot run a shell function).
    local pid dog=""
    set -m
    "$@" >>"$log" 2>&1 </dev/null &
    pid=$!
    set +m
    if [[ "${STEP_TIMEOUT:-0}" != 0 ]]; then
        ( sleep "$STEP_TIMEOUT"; kill -TERM -- "-$pid"; sleep 30; kill -KILL -- "-$pid" ) >/dev/null 2>&1 &
        dog=$!
    fi
    wait "$pid"
    rc=$?
    if [[ -n "$dog" ]]; then
        kill "$dog" 2>/dev/null
        awk -v a="$t0" -v b="$(date +%s.%N)" -v t="$STEP_TIMEOUT" 'BEGIN { exit !(b - a >= t) }' && rc=124
    fi
    status[$name]=$rc
    secs[$name]=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "=================== $name: exit $rc after ${secs[$name]} s ===================" >>"$log"
    echo "run.sh: $name: exit $rc (${secs[$name]} s)"
    [[ $rc -eq 124 || $rc -eq 137 ]] && echo "run.sh: $name stopped by STEP_TIMEOUT=$STEP_TIMEOUT" | tee -a "$log"
    return 0
}

# The libtest arguments for a filter and a list of --skip patterns.
libtest_args() {
    local filter="$1" skips="$2" s
    local -a a=()
    for s in $filter; do a+=("$s"); done   # several filters, space-separated: libtest ORs them
    for s in $skips; do a+=(--skip "$s"); done
    [[ -n "${TEST_THREADS:-}" ]] && a+=(--test-threads "$TEST_THREADS")
    [[ ${#a[@]} -eq 0 ]] || printf '%s\n' "${a[@]}"
}

have_bin() { [[ -x "$BUNDLE/bin/$1" ]]; }
missing() { echo "run.sh: $1 is not in the bundle (${2:-rebuild it with scripts/gpu-bundle.sh})"; return 1; }

# Environment report at the top of the first log and on stdout.
{
    echo "numgpu GPU run, $(date -u +%Y-%m-%dT%H:%M:%SZ), host $(uname -n), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
    sed '/^$/q' "$BUNDLE/MANIFEST" 2>/dev/null
    echo "steps: ${!want[*]}"
    echo "NUMGPU_REQUIRE_CUDA=$NUMGPU_REQUIRE_CUDA NUMGPU_REQUIRE_NVRTC=$NUMGPU_REQUIRE_NVRTC NUMGPU_PREBUILT_TESTS=1"
    echo "NUMGPU_TEST_BIN_DIR=$NUMGPU_TEST_BIN_DIR NUMGPU_CACHE_DIR=$NUMGPU_CACHE_DIR"
    echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    echo "compute-sanitizer: ${SANITIZER:-not found}"
    echo "$build_root_note"
    echo "$mpi_note"
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi 2>&1 || true
    else
        echo "nvidia-smi: not found (no NVIDIA driver on this host)"
    fi
    echo "--- libraries the bundled programs cannot find (none is good):"
    for f in "$BUNDLE"/bin/* "$NUMGPU_TEST_BIN_DIR"/* "$BUNDLE"/lib/libnumgpu.so; do
        [[ -f "$f" && -x "$f" ]] || continue
        ldd "$f" 2>/dev/null | grep 'not found' | sed "s|^|$(basename "$f"): |"
    done
    echo "---"
} | tee "$OUT/test.log"

unit_args=(); mapfile -t unit_args < <(libtest_args "${TEST_FILTER:-}" "${TEST_SKIP-header::}")
san_args=(); mapfile -t san_args < <(libtest_args "${SANITIZER_FILTER:-}" "${SANITIZER_SKIP-header:: kernels:: _asan}")

step_test() {
    local rc=0
    have_bin integration || missing integration || return 1
    if have_bin numgpu-unit; then
        echo "--- unit tests"
        "$BUNDLE/bin/numgpu-unit" "${unit_args[@]}" --show-output || rc=1
    fi
    echo "--- integration tests"
    "$BUNDLE/bin/integration" "${unit_args[@]}" --show-output || rc=1
    return $rc
}

sanitize() {
    local tool="$1"
    [[ -n "$SANITIZER" ]] || { echo "run.sh: compute-sanitizer not found"; return 1; }
    have_bin integration || missing integration || return 1
    # The tests' sanitizer sizes (tests/integration/common.rs under_sanitizer, sizes_per_path).
    local -x NUMGPU_UNDER_SANITIZER=1
    if [[ "${SANITIZER_JOBS:-1}" -gt 1 ]]; then sanitize_each "$tool"; return; fi
    # shellcheck disable=SC2086
    "$SANITIZER" --tool "$tool" --error-exitcode 99 --print-limit 200 ${SANITIZER_ARGS:-} \
        "$BUNDLE/bin/integration" "${san_args[@]}"
}

# One process per test, SANITIZER_JOBS at a time, each stopped after SANITIZER_TEST_TIMEOUT
# seconds (default 0: never): one long test no longer holds back the verdict on the others,
# and each test's line says how it ended (rc 124: stopped by the timeout, nothing reported
# before the stop). The tests are those the filter and skips select (libtest's --list).
sanitize_each() {
    local tool="$1" dir="$TMP/san-$1" p
    mkdir -p "$dir"
    "$BUNDLE/bin/integration" "${san_args[@]}" --list 2>/dev/null | sed -n 's/: test$//p' >"$dir/names"
    # One line per process: the test, and the precision it runs ("-": every one).
    while read -r t; do
        for p in ${SANITIZER_PRECISIONS:--}; do echo "$t $p"; done
    done <"$dir/names" >"$dir/tests"
    echo "$tool: $(wc -l <"$dir/names") tests in $(wc -l <"$dir/tests") processes, ${SANITIZER_JOBS} at a time"
    export SANITIZER BUNDLE dir tool
    # shellcheck disable=SC2016
    xargs -P "$SANITIZER_JOBS" -L 1 bash -c '
        t="$1" p="$2" t0=$SECONDS; log="$dir/$(echo "$t.$p" | tr -c "A-Za-z0-9_\n" _).log"
        [[ "$p" == - ]] && unset NUMGPU_TEST_PRECISIONS || export NUMGPU_TEST_PRECISIONS="$p"
        timeout "${SANITIZER_TEST_TIMEOUT:-0}" "$SANITIZER" --tool "$tool" --error-exitcode 99 \
            --print-limit 200 ${SANITIZER_ARGS:-} "$BUNDLE/bin/integration" --exact "$t" >"$log" 2>&1
        rc=$?
        echo "$tool $t precisions $p rc=$rc $((SECONDS - t0))s $(grep -E "^========= (ERROR|RACECHECK) SUMMARY" "$log") $(grep -E "^test result" "$log")"
        [[ $rc -eq 0 ]] || tail -n 30 "$log" | sed "s|^|    $t ($p): |"
        exit $rc' _ <"$dir/tests"
}

step_tour() {
    have_bin tour || missing tour "examples/tour/main.rs did not exist when the bundle was built" || return 1
    # shellcheck disable=SC2086
    "$BUNDLE/bin/tour" ${TOUR_ARGS:-}
}

step_bench() {
    have_bin numgpu-bench || missing numgpu-bench || return 1
    local runs=() r rc=0
    IFS='|' read -ra runs <<<"${BENCH_ARGS:-}"
    [[ ${#runs[@]} -gt 0 ]] || runs=("")
    for r in "${runs[@]}"; do
        echo "--- numgpu-bench --out $OUT/bench $r"
        # shellcheck disable=SC2086
        "$BUNDLE/bin/numgpu-bench" --out "$OUT/bench" $r || rc=1
    done
    return $rc
}

# The Python module's suite. The interpreter: PYTHON, else the first python3 that has torch.
step_python() {
    local py="" cand pyroot="$TMP/python" rc=0
    [[ -f "$BUNDLE/python.tar.xz" ]] || missing python.tar.xz || return 1
    mkdir -p "$pyroot"
    tar -C "$pyroot" -xJf "$BUNDLE/python.tar.xz" 2>/dev/null || python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
        "$BUNDLE/python.tar.xz" "$pyroot" || { echo "run.sh: could not unpack python.tar.xz"; return 1; }
    for cand in ${PYTHON:-} python3 /opt/*/.venv/bin/python3 /usr/bin/python3; do
        command -v "$cand" >/dev/null 2>&1 || continue
        if [[ -n "${PYTHON:-}" ]] || "$cand" -c 'import torch' >/dev/null 2>&1; then py="$cand"; break; fi
    done
    [[ -n "$py" ]] || { echo "run.sh: no python3 with torch found (set PYTHON)"; return 1; }
    local path="$pyroot"
    "$py" -c 'import pytest' >/dev/null 2>&1 || path="$pyroot:$pyroot/site"
    echo "python: $py ($("$py" --version 2>&1)); torch $("$py" -c 'import torch; print(torch.__version__, torch.version.cuda)' 2>&1)"
    echo "--- the GPU module and the host suite on a CPU handle"
    NUMGPU_LIBRARY="$BUNDLE/lib/libnumgpu.so" PYTHONPATH="$path" "$py" -m pytest -v -rs -p no:cacheprovider \
        "$pyroot/tests" || rc=1
    echo "--- the host suite on a CUDA handle (host arrays staged through the GPU)"
    NUMGPU_LIBRARY="$BUNDLE/lib/libnumgpu.so" PYTHONPATH="$path" NUMGPU_TEST_BACKEND=cuda "$py" -m pytest -q -rs \
        -p no:cacheprovider "$pyroot/tests" --ignore "$pyroot/tests/test_gpu.py" || rc=1
    return $rc
}

# The examples of docs/multi-gpu.md, in bench mode. A quick run first: where a container
# forbids one process to read another's memory, Open MPI's shared-memory transport needs
# single_copy_mechanism=none, and the bench then runs with it.
step_multigpu() {
    local bin="$NUMGPU_TEST_BIN_DIR" rc=0 backend=auto ngpu np
    [[ -x "$bin/multi_gpu" && -x "$bin/mpi_batch" ]] || missing "examples/c's multi_gpu and mpi_batch" "not in bin/ctests.tar.xz" || return 1
    command -v mpirun >/dev/null || { echo "run.sh: no mpirun (no mpi-kit in the bundle, or MPI_KIT=0 on a host without MPI)"; return 1; }
    [[ "$NUMGPU_REQUIRE_CUDA" == 1 ]] && backend=cuda
    ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
    np="${MPI_NP:-$(( ngpu > 2 ? ngpu : 2 ))}"
    echo "--- multi_gpu --bench --backend $backend ${MULTIGPU_ARGS:-}"
    # shellcheck disable=SC2086
    "$bin/multi_gpu" --bench --backend "$backend" --log "$OUT/multigpu.jsonl" ${MULTIGPU_ARGS:-} || rc=1
    # shellcheck disable=SC2086
    local mpirun=(mpirun -np "$np" --bind-to none ${MPIRUN_ARGS:-})
    if ! "${mpirun[@]}" "$bin/mpi_batch" --backend "$backend" --routines gemm --gemm-batch 64; then
        echo "run.sh: mpirun failed; again with OMPI_MCA_btl_vader_single_copy_mechanism=none"
        export OMPI_MCA_btl_vader_single_copy_mechanism=none
        "${mpirun[@]}" "$bin/mpi_batch" --backend "$backend" --routines gemm --gemm-batch 64 || return 1
    fi
    echo "--- ${mpirun[*]} mpi_batch --bench --backend $backend ${MULTIGPU_ARGS:-}"
    # shellcheck disable=SC2086
    "${mpirun[@]}" "$bin/mpi_batch" --bench --backend "$backend" --log "$OUT/multigpu.jsonl" ${MULTIGPU_ARGS:-} || rc=1
    return $rc
}

[[ -n "${want[test]:-}" ]] && run_step test "$OUT/test.log" step_test
[[ -n "${want[memcheck]:-}" ]] && run_step memcheck "$OUT/sanitizers.log" sanitize memcheck
[[ -n "${want[racecheck]:-}" ]] && run_step racecheck "$OUT/sanitizers.log" sanitize racecheck
[[ -n "${want[tour]:-}" ]] && run_step tour "$OUT/tour.log" step_tour
[[ -n "${want[bench]:-}" ]] && run_step bench "$OUT/bench.log" step_bench
[[ -n "${want[python]:-}" ]] && run_step python "$OUT/python.log" step_python
[[ -n "${want[multigpu]:-}" ]] && run_step multigpu "$OUT/multigpu.log" step_multigpu

# ---- what comes back: at most 8 files, 2 folders deep ------------------------------------
count_files() { find "$OUT" -type f | wc -l; }
too_deep() { [[ -n "$(find "$OUT" -mindepth 4 -print -quit)" ]]; }
if [[ -d "$OUT/bench" ]] && { (( $(count_files) > 7 )) || too_deep; }; then   # 7: summary.txt to come
    tar -C "$OUT" -czf "$OUT/bench.tar.gz" bench && rm -rf "$OUT/bench"
    echo "run.sh: the bench's files were packed into bench.tar.gz (limit: 8 files, 2 folders deep)"
fi
if (( $(count_files) > 7 )); then
    (cd "$OUT" && find . -type f ! -name summary.txt ! -name logs.tar.gz -print0 | tar --null -czf logs.tar.gz -T - --remove-files)
    echo "run.sh: too many files under OUT: packed into logs.tar.gz"
fi

# ---- summary ---------------------------------------------------------------------------
failed=0
{
    echo
    echo "numgpu GPU run summary ($(date -u +%H:%M:%S)), OUT=$OUT"
    printf '%-10s %6s %9s\n' step exit seconds
    for s in "${order[@]}"; do
        printf '%-10s %6s %9s\n' "$s" "${status[$s]}" "${secs[$s]}"
        [[ ${status[$s]} -ne 0 ]] && failed=$((failed + 1))
    done
    if [[ -f "$OUT/test.log" ]]; then
        r="$(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed;/) p += $i; if ($(i+1) ~ /^failed;/) f += $i; if ($(i+1) ~ /^ignored;/) g += $i } }
                 END { if (p + f + g) printf "%d passed, %d failed, %d ignored", p, f, g }' "$OUT/test.log")"
        [[ -n "$r" ]] && echo "tests: $r; lines saying SKIPPED: $(grep -c SKIPPED "$OUT/test.log")"
    fi
    if [[ -f "$OUT/sanitizers.log" ]]; then
        echo "sanitizers: $(grep -E '^========= (ERROR SUMMARY|RACECHECK SUMMARY)' "$OUT/sanitizers.log" | sort | uniq -c | tr -s ' ' | paste -sd ';' -)"
    fi
    echo "files under OUT: $(cd "$OUT" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')summary.txt"
    echo "steps failed: $failed of ${#order[@]}"
} >"$TMP/summary"

# The tail of each failed step's log (once per log), then the table last, where it is seen first.
declare -A shown=()
for s in "${order[@]}"; do
    if [[ ${status[$s]} -ne 0 ]]; then
        case $s in test) f=test.log ;; memcheck|racecheck) f=sanitizers.log ;; *) f=$s.log ;; esac
        if [[ -f "$OUT/$f" && -z "${shown[$f]:-}" ]]; then
            shown[$f]=1
            echo
            echo "---------- $s failed: last 40 lines of $f ----------"
            tail -n 40 "$OUT/$f"
        fi
    fi
done
cat "$TMP/summary"
cp "$TMP/summary" "$OUT/summary.txt"
rm -rf "$TMP"
[[ $failed -eq 0 ]]
