#!/usr/bin/env bash
# `make test`: the whole test suite (unit tests, the integration binary with the header check,
# the kernel compile check, every family on every backend, the C and Fortran tests, doc tests,
# the bench's own unit tests: --features bench)
# with NVRTC required; then, without arguments, the Python module's pytest suite (python/tests) on
# the CPU backend against the library cargo built and the mpi4py example (where mpi4py and
# mpirun exist); then a summary that says which tests were skipped and why.
#
#   scripts/test.sh [CARGO TEST ARGS...]      e.g. scripts/test.sh --test integration gemm
#                                            (with arguments: the cargo tests they select only)
#
# Environment: TEST_PROFILE=debug|release (default debug), and everything cargo reads.
# The full output goes to target/test.log.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

profile="${TEST_PROFILE:-debug}"
case "$profile" in
    debug) pflag=() ;;
    release) pflag=(--release) ;;
    *) echo "test.sh: TEST_PROFILE must be debug or release, not $profile" >&2; exit 2 ;;
esac

nvrtc="$(scripts/deps.sh --nvrtc-dir)"
if [[ -z "$nvrtc" ]]; then
    echo "test.sh: libnvrtc.so.13 not found; run \`make deps\`" >&2
    exit 1
fi
export LD_LIBRARY_PATH="$nvrtc${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export NUMGPU_REQUIRE_NVRTC=1

mkdir -p target
log=target/test.log
start=$SECONDS

# target/<profile>/libnumgpu.so (and .a) for the C and Fortran tests, which link against it.
cargo build --lib "${pflag[@]}"

set +e
# --show-output: keep what passing tests print (their SKIPPED lines) for the summary.
cargo test --no-fail-fast --features bench "${pflag[@]}" "$@" -- --show-output 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

# ---- the Python module (python/): its pytest suite and the mpi4py example ----------------------
# On the CPU backend, against the library just built; their lines go to the same log and their
# counts to the summary (py_passed, py_failed, py_skipped).
py_passed=0 py_failed=0 py_skipped=0
if [[ $# -eq 0 ]]; then
    pydeps="$(scripts/deps.sh --pydeps-dir)"
    export NUMGPU_LIBRARY="$PWD/target/$profile/libnumgpu.so" NUMGPU_BACKEND=cpu
    export PYTHONPATH="$PWD/python${pydeps:+:$pydeps}${PYTHONPATH:+:$PYTHONPATH}"
    echo "==================== python/tests (pytest, CPU backend) ====================" | tee -a "$log"
    set +e
    python3 -m pytest -q -rs -p no:cacheprovider python/tests 2>&1 | tee "$log.py" | tee -a "$log"
    pyrc=${PIPESTATUS[0]}
    set -e
    # pytest's closing line: "3 failed, 120 passed, 1 skipped in 2.1s"
    count() { grep -Eo "[0-9]+ $1" "$log.py" | tail -n 1 | cut -d' ' -f1; }
    py_passed=$(( $(count passed || echo 0) + 0 ))
    py_failed=$(( $(count failed || echo 0) + $(count 'errors?' || echo 0) ))
    py_skipped=$(( $(count skipped || echo 0) + 0 ))
    if [[ $pyrc -ne 0 ]]; then
        rc=1
        [[ $py_failed -eq 0 ]] && py_failed=1  # a suite that did not run counts as a failure
    fi
    # The mpi4py example (examples/python/mpi_batch.py): two ranks, a few seconds, when mpi4py and
    # mpirun are there (make deps installs neither); else it is reported as skipped.
    echo "==================== examples/python/mpi_batch.py (mpirun -np 2) ====================" | tee -a "$log"
    if command -v mpirun >/dev/null 2>&1 && python3 -c 'import mpi4py' >/dev/null 2>&1; then
        if timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 python3 examples/python/mpi_batch.py \
            --batch 257 --n 24 2>&1 | tee -a "$log"; then
            py_passed=$((py_passed + 1))
        else
            py_failed=$((py_failed + 1)); rc=1
        fi
    else
        echo "SKIPPED: the mpi4py example (mpi4py or mpirun not installed)" | tee -a "$log"
        py_skipped=$((py_skipped + 1))
    fi
fi

# Sum libtest's result lines: "test result: ok. 12 passed; 0 failed; 1 ignored; ..."
read -r passed failed ignored < <(awk '
    /^test result:/ {
        for (i = 1; i <= NF; i++) {
            if ($(i+1) ~ /^passed;?/) p += $i
            if ($(i+1) ~ /^failed;?/) f += $i
            if ($(i+1) ~ /^ignored;?/) g += $i
        }
    }
    END { print p+0, f+0, g+0 }' "$log")

# Tests that passed by skipping: their captured output ("---- name stdout ----") says SKIPPED.
skipped_tests="$(awk '
    /^---- .* stdout ----$/ { name = $2; next }
    /SKIPPED/ && name != "" { print name }' "$log" | sort -u)"
nskipped=0
[[ -n "$skipped_tests" ]] && nskipped=$(wc -l <<<"$skipped_tests")

echo
echo "==================== numgpu test summary ($profile, $((SECONDS - start)) s) ===================="
if grep -q SKIPPED "$log"; then
    echo "Skipped (reasons as the tests printed them):"
    grep -o 'SKIPPED.*' "$log" | sed -E 's/[[:space:]]+$//' | sort | uniq -c | sed 's/^/  /'
    if [[ -n "$skipped_tests" ]]; then
        echo "Tests that skipped all or part of their work:"
        sed 's/^/  /' <<<"$skipped_tests"
    fi
fi
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "GPU: $(nvidia-smi -L | head -n 1)"
else
    echo "NOTE: no NVIDIA GPU on this machine: the CUDA backend tests were SKIPPED, only the CPU"
    echo "      backend and the NVRTC kernel compile check ran. On a GPU host run the bundle:"
    echo "      scripts/gpu-bundle.sh here, then .gpu-bundle/run.sh there."
fi
[[ $rc -ne 0 ]] && echo "FAILED: cargo test or the Python suite failed (exit $rc; full log: $log)"
# One plain closing line: tests that only skipped count as skipped, not passed.
echo "python: $py_passed passed, $py_failed failed, $py_skipped skipped (python/tests and the mpi4py example)"
echo "total: $((passed - nskipped + py_passed)) passed, $((failed + py_failed)) failed, $((ignored + nskipped + py_skipped)) skipped"
exit "$rc"
