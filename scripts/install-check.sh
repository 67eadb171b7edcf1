#!/usr/bin/env bash
# `make install-check`: installs numgpu into a temporary prefix (or $1) and checks that what
# was installed works for a user: a small C program built through pkg-config (shared and
# static), through CMake's find_package (numgpu::numgpu, numgpu::numgpu_static, the version
# check), and a Fortran program that `use`s the module, each run with a CPU handle.
# Needs cmake (make install-check installs it through scripts/deps.sh --cmake).
# The temporary prefix is removed afterwards; a prefix given as $1 is kept.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $# -gt 0 ]]; then
    prefix="$1"; keep_prefix=1
else
    prefix="$(mktemp -d /tmp/numgpu-prefix.XXXXXX)"; keep_prefix=0
fi
work="$(mktemp -d /tmp/numgpu-install-check.XXXXXX)"
trap 'rm -rf "$work"; [[ $keep_prefix == 1 ]] || rm -rf "$prefix"' EXIT
step() { echo; echo "== install-check: $*"; }

step "make install PREFIX=$prefix"
make --no-print-directory install PREFIX="$prefix"

version="$(awk -F'"' '/^\[/ { p = ($0 == "[package]") } p && /^version[ \t]*=/ { print $2; exit }' Cargo.toml)"
major="${version%%.*}"
lib="$prefix/lib"

step "installed files"
(cd "$prefix" && find . -type f -o -type l | sort | sed 's|^\./|  |')
[[ "$(readlink "$lib/libnumgpu.so")" == "libnumgpu.so.$major" ]]
[[ "$(readlink "$lib/libnumgpu.so.$major")" == "libnumgpu.so.$version" ]]
soname="$(readelf -d "$lib/libnumgpu.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
echo "SONAME: $soname"
[[ "$soname" == "libnumgpu.so.$major" ]] || { echo "SONAME is '$soname', expected libnumgpu.so.$major" >&2; exit 1; }

cat >"$work/hello.c" <<'EOF'
/* Two 2x2 double GEMMs in one strided batch on the CPU backend, checked exactly. */
#include <numgpu.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    numgpu_handle *h = NULL;
    numgpu_status s = numgpu_create_with(&h, NUMGPU_BACKEND_CPU, 0);
    if (s != NUMGPU_SUCCESS) { fprintf(stderr, "create: %s\n", numgpu_status_string(s)); return 1; }
    numgpu_backend backend = -1;
    void *stream = (void *)h;
    numgpu_get_backend(h, &backend);
    /* the CPU backend has no stream */
    if (numgpu_get_stream(h, &stream) != NUMGPU_SUCCESS || stream != NULL) { fprintf(stderr, "get_stream\n"); return 1; }
    /* column-major: A0 = [1 3; 2 4], A1 = 2*I; B = I for both (strideB = 0) */
    double A[8] = {1, 2, 3, 4, 2, 0, 0, 2}, B[4] = {1, 0, 0, 1}, C[8];
    for (int i = 0; i < 8; i++) C[i] = -1.0;
    s = numgpu_dgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_N, 2, 2, 2, 1.0, A, 2, 4, B, 2, 0,
                                     0.0, C, 2, 4, 2);
    if (s != NUMGPU_SUCCESS) {
        char msg[256];
        numgpu_last_error(msg, sizeof msg);
        fprintf(stderr, "dgemm_batched_strided: %s: %s\n", numgpu_status_string(s), msg);
        return 1;
    }
    if (memcmp(A, C, sizeof A) != 0) { fprintf(stderr, "wrong result\n"); return 1; }
    /* an invalid argument must be refused with its number */
    s = numgpu_dgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_N, 2, 2, 2, 1.0, A, 1, 4, B, 2, 0,
                                     0.0, C, 2, 4, 2);
    if (s != NUMGPU_INVALID_VALUE || numgpu_last_error_arg() != 9) {
        fprintf(stderr, "lda = 1 gave status %d, argument %d\n", (int)s, (int)numgpu_last_error_arg());
        return 1;
    }
    numgpu_destroy(h);
    printf("numgpu %s (header %s), backend %s: ok\n", numgpu_version(), NUMGPU_VERSION, numgpu_backend_name(backend));
    return strcmp(numgpu_version(), NUMGPU_VERSION) != 0;
}
EOF

export PKG_CONFIG_PATH="$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

step "pkg-config: $(pkg-config --modversion numgpu); cflags: $(pkg-config --cflags numgpu); libs: $(pkg-config --libs numgpu)"
[[ "$(pkg-config --modversion numgpu)" == "$version" ]]
# shellcheck disable=SC2046
cc -std=c99 -Wall -Werror "$work/hello.c" $(pkg-config --cflags --libs numgpu) -Wl,-rpath,"$lib" -o "$work/hello_pc"
readelf -d "$work/hello_pc" | grep -q "NEEDED.*\[libnumgpu.so.$major\]" || { echo "hello_pc does not need libnumgpu.so.$major" >&2; exit 1; }
"$work/hello_pc"

step "pkg-config --static, against libnumgpu.a: $(pkg-config --static --libs-only-l numgpu)"
# shellcheck disable=SC2046
cc -std=c99 "$work/hello.c" $(pkg-config --cflags numgpu) "$lib/libnumgpu.a" \
    $(pkg-config --static --libs-only-l numgpu | sed 's/-lnumgpu\b//') -o "$work/hello_static"
if readelf -d "$work/hello_static" | grep -q "NEEDED.*libnumgpu"; then echo "hello_static needs libnumgpu.so" >&2; exit 1; fi
"$work/hello_static"

step "CMake $(cmake --version | head -n 1 | awk '{print $3}'): find_package(numgpu ${version%.*} REQUIRED)"
mkdir -p "$work/cm"
cp "$work/hello.c" "$work/cm/"
cat >"$work/cm/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(numgpu_install_check C)
find_package(numgpu ${version%.*} REQUIRED)
message(STATUS "numgpu \${numgpu_VERSION} from \${numgpu_DIR}")
add_executable(hello_cmake hello.c)
target_link_libraries(hello_cmake PRIVATE numgpu::numgpu)
add_executable(hello_cmake_static hello.c)
target_link_libraries(hello_cmake_static PRIVATE numgpu::numgpu_static)
EOF
cmake -S "$work/cm" -B "$work/cm/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 \
    || { cat "$work/cmake.log"; exit 1; }
grep "numgpu $version from" "$work/cmake.log"
cmake --build "$work/cm/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/cm/build/hello_cmake"
"$work/cm/build/hello_cmake_static"

next_minor=$(( $(cut -d. -f2 <<<"$version") + 1 ))
step "CMake version check: find_package(numgpu $major.$next_minor) must be refused"
mkdir -p "$work/cm2"
cat >"$work/cm2/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(numgpu_version_check C)
find_package(numgpu $major.$next_minor QUIET)
if(numgpu_FOUND)
  message(FATAL_ERROR "numgpu $version accepted for a request of $major.$next_minor")
endif()
find_package(numgpu $version EXACT REQUIRED)
EOF
cmake -S "$work/cm2" -B "$work/cm2/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake2.log" 2>&1 \
    || { cat "$work/cmake2.log"; exit 1; }
echo "ok: $major.$next_minor refused, $version EXACT found"

if [[ -f "$prefix/include/numgpu.mod" ]]; then
    step "Fortran: use numgpu, through pkg-config numgpu-fortran"
    cat >"$work/hello.f90" <<'EOF'
program hello
    use numgpu ! alone: it re-exports the iso_c_binding kinds and types its interfaces use
    implicit none
    type(c_ptr) :: h = c_null_ptr
    if (numgpu_create_with(h, NUMGPU_BACKEND_CPU, 0_c_int64_t) /= NUMGPU_SUCCESS) then
        print '(a)', 'numgpu_create_with: ' // numgpu_last_error_string()
        stop 1
    end if
    if (numgpu_destroy(h) /= NUMGPU_SUCCESS) stop 1
    if (numgpu_version_string() /= NUMGPU_VERSION) stop 1
    print '(a)', 'use numgpu: numgpu ' // numgpu_version_string() // ', CPU handle: ok'
end program hello
EOF
    # shellcheck disable=SC2046
    gfortran "$work/hello.f90" $(pkg-config --cflags --libs numgpu-fortran) -Wl,-rpath,"$lib" -o "$work/hello_f"
    "$work/hello_f"
else
    step "Fortran: SKIPPED, no numgpu.mod installed (include/numgpu.f90 not in the tree yet)"
fi

echo
echo "install-check: ok (prefix $prefix)"
