#!/usr/bin/env bash
# `make test`: the whole test suite (unit tests, the integration binary with the header check,
# the kernel compile check, every family on every backend, the C and Fortran tests, doc tests,
# the bench's own unit tests: --features bench)
# with NVRTC required, then a summary that says which tests were skipped and why.
#
#   scripts/test.sh [CARGO TEST ARGS...]      e.g. scripts/test.sh --test integration gemm
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
[[ $rc -ne 0 ]] && echo "FAILED: cargo test exited with $rc (full log: $log)"
# One plain closing line: tests that only skipped count as skipped, not passed.
echo "total: $((passed - nskipped)) passed, $failed failed, $((ignored + nskipped)) skipped"
exit "$rc"
