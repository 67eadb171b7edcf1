#!/usr/bin/env bash
# Builds, in release mode, everything a GPU host needs to run numgpu's tests, tour and bench
# without Rust, and packs it into .gpu-bundle/ (git-ignored) with run.sh (scripts/gpu-run.sh):
#
#   .gpu-bundle/run.sh             the steps to run there (see scripts/gpu-run.sh)
#   .gpu-bundle/bin/numgpu-unit    the library's unit-test binary
#   .gpu-bundle/bin/integration    the integration-test binary (tests/integration/main.rs)
#   .gpu-bundle/bin/tour           examples/tour/ (the numgpu-tour binary)
#   .gpu-bundle/bin/numgpu-bench   the benchmarks (feature bench)
#   .gpu-bundle/bin/ctests.tar.xz  the C and Fortran test executables (packed), built by the c_abi,
#                                  fortran, multi_gpu and examples test modules (NUMGPU_TEST_BIN_DIR),
#                                  run there with NUMGPU_PREBUILT_TESTS=1; multi_gpu and mpi_batch
#                                  (examples/c/) also by run.sh's multigpu step
#   .gpu-bundle/lib/               libnumgpu.so, libnumgpu.so.0 -> libnumgpu.so
#   .gpu-bundle/lib/syslibs.tar.xz the system libraries they need beyond glibc (OpenBLAS,
#                                  LAPACK(E), libgfortran, ...), unpacked by run.sh
#   .gpu-bundle/include/           numgpu.h (and numgpu.f90 when it exists)
#   .gpu-bundle/mpi-kit/           Open MPI for the host (scripts/mpi-kit.sh: .debs, unpacked there by
#                                  run.sh into a private prefix) for bin/ctests' mpi_batch
#   .gpu-bundle/python.tar.xz      the Python module and its tests (python/numgpu, python/tests,
#                                  docs/python.md) and pytest (pure Python, site/), for run.sh's
#                                  python step
#   .gpu-bundle/MANIFEST           what was built, from which commit, where
#   .gpu-bundle/ctests-cpu.log     the C/Fortran tests' run here on the CPU
#
# Kernels are embedded in the binaries. Everything is stripped; the bundle must stay under
# BUNDLE_MAX_MIB (default 60) MiB, since it travels with the working tree (64 MiB in all).
# The C/Fortran tests and the CPU side of the suite run here once, as a check of the build.
#
# Usage: scripts/gpu-bundle.sh          then, on the GPU host, from the repo root:
#        .gpu-bundle/run.sh [test] [memcheck] [racecheck] [tour] [bench] [multigpu]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
B="$ROOT/.gpu-bundle"
MAX_MIB="${BUNDLE_MAX_MIB:-60}"
T0=$SECONDS

say() { printf '\n== gpu-bundle: %s\n' "$*"; }

scripts/deps.sh
nvrtc="$(scripts/deps.sh --nvrtc-dir)"
export LD_LIBRARY_PATH="${nvrtc:+$nvrtc:}${LD_LIBRARY_PATH:-}"

rm -rf "$B"
mkdir -p "$B/bin/ctests" "$B/lib" "$B/include"

say "library (release)"
cargo build --release --lib
install -m 755 target/release/libnumgpu.so "$B/lib/libnumgpu.so"
ln -s libnumgpu.so "$B/lib/libnumgpu.so.0"

say "test binaries (cargo test --release --no-run)"
json="$(mktemp)"
trap 'rm -f "$json"' EXIT
cargo test --release --no-run --message-format=json-render-diagnostics >"$json"
# The executables of the lib's unit tests and of the integration binary, from cargo's messages.
python3 - "$json" >"$json.paths" <<'EOF'
import json, sys
unit = integ = None
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") != "compiler-artifact" or not m.get("executable") or not m["profile"]["test"]:
        continue
    kinds, name = m["target"]["kind"], m["target"]["name"]
    if any(k in ("lib", "rlib", "cdylib", "staticlib") for k in kinds):
        unit = m["executable"]
    elif kinds == ["test"] and name == "integration":
        integ = m["executable"]
print(unit or "")
print(integ or "")
EOF
{ read -r unit_bin; read -r integ_bin; } <"$json.paths"
rm -f "$json.paths"
[[ -n "$unit_bin" && -n "$integ_bin" ]] || { echo "gpu-bundle: cargo reported no unit-test or integration executable" >&2; exit 1; }
install -m 755 "$unit_bin" "$B/bin/numgpu-unit"
install -m 755 "$integ_bin" "$B/bin/integration"

say "C and Fortran test executables (built and run here on the CPU)"
# c_abi and fortran compile c-tests/*.c and fortran-tests/*.f90, examples the README's and docs/'
# example programs, against target/release/libnumgpu.so into NUMGPU_TEST_BIN_DIR. A module that does not exist yet just matches no test. A test that
# fails here on the CPU is reported but does not stop the bundle (BUNDLE_STRICT=1 makes it):
# the GPU run shows it again; a program that did not compile is simply missing there.
ctests_ok=1
NUMGPU_TEST_BIN_DIR="$B/bin/ctests" NUMGPU_REQUIRE_NVRTC=1 \
    cargo test --release --test integration -- c_abi fortran multi_gpu examples 2>&1 | tee "$B/ctests-cpu.log" || ctests_ok=0
n_ctests=$(find "$B/bin/ctests" -type f -perm -u+x | wc -l)
echo "gpu-bundle: $n_ctests C/Fortran test executables in bin/ctests"
if [[ $ctests_ok == 0 ]]; then
    echo "gpu-bundle: WARNING: C/Fortran tests failed here on the CPU (log: .gpu-bundle/ctests-cpu.log)" >&2
    [[ "${BUNDLE_STRICT:-0}" == 1 ]] && exit 1
fi

say "Open MPI kit (scripts/mpi-kit.sh), checked with bin/ctests/mpi_batch"
# mpi_batch was built above by this machine's Open MPI; the kit carries the same version's
# runtime. Checked here as run.sh uses it there: unpacked into a private prefix, mpirun -np 2
# with the system's Open MPI out of the way.
scripts/mpi-kit.sh download
if [[ -x "$B/bin/ctests/mpi_batch" ]]; then
    LD_LIBRARY_PATH="$B/lib:$LD_LIBRARY_PATH" scripts/mpi-kit.sh check "$B/bin/ctests/mpi_batch" --backend cpu \
        --gemm-batch 37 --getrf-batch 53 --rkc-systems 11 2>&1 | tee "$B/mpi-kit-check.log"
fi
cp -r .mpi-kit "$B/mpi-kit"

# The tour and the bench are wanted but not vital: one that does not exist or does not build
# is left out with a warning (BUNDLE_STRICT=1 makes that fatal); run.sh then says it is missing.
warnings=()
optional_failed() {
    warnings+=("$1")
    echo "gpu-bundle: WARNING: $1" >&2
    if [[ "${BUNDLE_STRICT:-0}" == 1 ]]; then exit 1; fi
}
[[ $ctests_ok == 0 ]] && warnings+=("C/Fortran tests failed on the CPU (ctests-cpu.log)")

tour=0
if [[ -f examples/tour/main.rs ]]; then
    say "tour (release)"
    if cargo build --release --features testing --bin numgpu-tour; then
        install -m 755 target/release/numgpu-tour "$B/bin/tour"
        tour=1
    else
        optional_failed "the tour did not build: not in the bundle"
    fi
else
    optional_failed "examples/tour/main.rs does not exist: no tour in the bundle"
fi

# Last: the bench feature builds the library again with other features (cuBLAS and cuSPARSE bindings);
# everything above was taken from the plain build first.
bench=0
say "numgpu-bench (release, --features bench)"
if cargo build --release --features bench --bin numgpu-bench; then
    install -m 755 target/release/numgpu-bench "$B/bin/numgpu-bench"
    bench=1
else
    optional_failed "numgpu-bench did not build: not in the bundle"
fi

install -m 644 include/numgpu.h "$B/include/"
[[ -f include/numgpu.f90 ]] && install -m 644 include/numgpu.f90 "$B/include/"
install -m 755 scripts/gpu-run.sh "$B/run.sh"

# ---- the Python module: python/numgpu and python/tests, and pytest (the GPU host has torch and
# CuPy but maybe no pytest, and no network), packed; run.sh's python step unpacks them.
say "Python module and pytest"
pyb="$(mktemp -d)"
cp -r python/numgpu python/tests "$pyb/"
mkdir -p "$pyb/docs" && cp docs/python.md "$pyb/docs/"  # its Python blocks are tests too
find "$pyb" -name __pycache__ -prune -exec rm -rf {} +
if python3 -m pip install -q --disable-pip-version-check --target "$pyb/site" pytest >"$pyb.log" 2>&1; then
    tar -C "$pyb" -cf - . | xz -T0 -6 >"$B/python.tar.xz"
else
    tar -C "$pyb" -cf - numgpu tests docs | xz -T0 -6 >"$B/python.tar.xz"
    optional_failed "pip could not fetch pytest ($(tail -n 1 "$pyb.log")): the python step needs the host's own"
fi
rm -rf "$pyb" "$pyb.log"
# The Matrix Market files the spmv tests read (tests/matrices), beside the binaries, whose
# built-in path is this checkout's; run.sh points NUMGPU_MATRICES at them.
mkdir -p "$B/matrices"
install -m 644 tests/matrices/*.mtx "$B/matrices/"

say "strip"
find "$B/bin" -type f -perm -u+x -exec strip {} +
strip --strip-unneeded "$B/lib/libnumgpu.so"

say "system libraries"
# Every shared library the bundled programs load that is not part of glibc or gcc's runtime,
# as the loader here resolves it, under its SONAME, in one xz tarball (OpenBLAS alone is
# 35 MiB; 7 MiB packed).
sys="$(mktemp -d)"
trap 'rm -f "$json"; rm -rf "$sys"' EXIT
base_re='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libutil|libresolv|libgcc_s|libstdc\+\+|libnumgpu)\.so'
# (Not mpi_batch: its MPI libraries come with the kit, which keeps the host's own base libraries.)
mapfile -t objs < <(find "$B/bin" "$B/lib" -type f -perm -u+x ! -name mpi_batch)
LD_LIBRARY_PATH="$B/lib:${LD_LIBRARY_PATH:-}" ldd "${objs[@]}" 2>/dev/null \
    | awk '$2 == "=>" { print $1, $3 }' | sort -u | while read -r name path; do
    if [[ "$path" == "not" ]]; then echo "gpu-bundle: a bundled program needs $name, which is not found here" >&2; exit 1; fi
    [[ "$name" =~ $base_re ]] && continue
    cp -L "$path" "$sys/$name"
done
ls -la "$sys"
tar -C "$sys" -cf - . | xz -T0 -6 >"$B/lib/syslibs.tar.xz"

say "C and Fortran test executables"
# Each Fortran test links the whole generated module (about 1 MiB apiece): packed together
# they take a fifth of that. run.sh unpacks them.
tar -C "$B/bin" -cf - ctests | xz -T0 -6 >"$B/bin/ctests.tar.xz"
rm -rf "$B/bin/ctests"

commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
dirty="$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l)"
{
    echo "numgpu GPU bundle"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
    echo "commit: $commit$([[ $dirty -gt 0 ]] && echo " + $dirty modified tracked files")"
    echo "build_root: $ROOT"
    echo "tour: $tour, bench: $bench"
    echo "mpi kit: $(sed -n 2p "$B/mpi-kit/MANIFEST")"
    echo "ctests: $n_ctests"
    echo "warnings: ${#warnings[@]}"
    for w in "${warnings[@]}"; do echo "  $w"; done
    echo "system libraries: $(ls "$sys" | tr '\n' ' ')"
    echo
    (cd "$B" && find . -type f -o -type l | sort | xargs ls -la)
} >"$B/MANIFEST"
# run.sh reads the build root to give the tests the path they were built with (CARGO_MANIFEST_DIR).
echo "$ROOT" >"$B/build_root"

size_kib=$(du -sk "$B" | cut -f1)
say "bundle: $B"
(cd "$B" && du -ah . | sort -k2)
awk -v k="$size_kib" -v s=$((SECONDS - T0)) -v m="$MAX_MIB" 'BEGIN { printf "gpu-bundle: %d KiB (%.1f MiB) in %d s, limit %d MiB\n", k, k / 1024, s, m }'
if (( size_kib > MAX_MIB * 1024 )); then
    echo "gpu-bundle: FAILED: the bundle is larger than $MAX_MIB MiB" >&2
    exit 1
fi
# The device tool carries the bundle with the working tree (tracked files and untracked ones git
# does not ignore): 64 MiB in all.
tree_bytes=$( (git ls-files -z; git ls-files -z --others --exclude-standard) | xargs -0 du -cb 2>/dev/null | tail -n 1 | cut -f1)
carry_mib=$(( (size_kib * 1024 + ${tree_bytes:-0}) / 1048576 ))
if (( carry_mib >= 64 )); then
    warnings+=("the bundle and the working tree come to about $carry_mib MiB, over the device tool's 64 MiB: remove what the call does not use first (run.sh multigpu, and test with TEST_FILTER=multi_gpu, use neither bin/numgpu-bench, bin/tour nor matrices/)")
fi
for w in "${warnings[@]}"; do echo "gpu-bundle: WARNING: $w"; done
echo "gpu-bundle: ok. On the GPU host, from the repo root: .gpu-bundle/run.sh  (device tool: carry [\".gpu-bundle\"])"
