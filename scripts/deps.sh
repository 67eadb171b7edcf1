#!/usr/bin/env bash
# Checks what numgpu needs to build and test, and installs what is missing when it can.
#
#   scripts/deps.sh            check; install what is missing (root + apt-get, pip), else print
#                              the exact command to run and exit 1
#   scripts/deps.sh --check    check only: print what is missing, exit 1 if anything is
#   scripts/deps.sh --cmake    also require cmake (make install-check)
#   scripts/deps.sh --nvrtc-dir   print the folder holding libnvrtc.so.13 (empty if none), exit 0
#   scripts/deps.sh --pydeps-dir  print the folder to put on PYTHONPATH for numpy and pytest
#                              (empty when the interpreter has them itself), exit 0
#
# Needs: a C compiler (cc), gfortran, pkg-config, OpenBLAS with cblas.h, LAPACKE (lapacke.h),
# Open MPI (mpicc and mpirun: `make test` runs examples/c/mpi_batch.c with mpirun -np 2), and
# libnvrtc.so.13 for the kernel compile check: from a CUDA toolkit if one is installed, else
# from PyPI's nvidia-cuda-nvrtc wheel. When everything is there it runs no package
# manager at all (a few compiler probes, well under a second).
# NUMGPU_NVRTC_DIR, if set, names the folder with libnvrtc.so.13 and skips the search.
# The Python module's test suite (python/tests) needs numpy and pytest, from PyPI like the
# NVRTC wheel.
set -euo pipefail

NVRTC_WHEEL="nvidia-cuda-nvrtc==13.0.88"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Fallback install location when pip may not write to the interpreter's site-packages
# (PEP 668 "externally managed" Pythons); inside target/ so it is git-ignored.
NVRTC_LOCAL="$ROOT/target/nvrtc"
PYTHON="${PYTHON:-python3}"
# The Python suite's packages (numpy, pytest), and where they go when pip may not write to the
# interpreter's site-packages.
PY_PACKAGES=(numpy pytest)
PYDEPS_LOCAL="$ROOT/target/pydeps"

mode=install
want_cmake=0
for a in "$@"; do
    case "$a" in
        --check) mode=check ;;
        --cmake) want_cmake=1 ;;
        --nvrtc-dir) mode=nvrtc-dir ;;
        --pydeps-dir) mode=pydeps-dir ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "deps.sh: unknown argument $a" >&2; exit 2 ;;
    esac
done

# Prints the first folder that holds libnvrtc.so.13, or nothing.
nvrtc_dir() {
    local d
    if [[ -n "${NUMGPU_NVRTC_DIR:-}" && -e "${NUMGPU_NVRTC_DIR}/libnvrtc.so.13" ]]; then
        echo "$NUMGPU_NVRTC_DIR"; return
    fi
    # The pip wheel, in the interpreter's site-packages (the documented place).
    if command -v "$PYTHON" >/dev/null 2>&1; then
        d="$("$PYTHON" - <<'EOF' 2>/dev/null || true
import os
try:
    import nvidia
except Exception:
    raise SystemExit(0)
for p in list(nvidia.__path__):
    d = os.path.join(p, "cu13", "lib")
    if os.path.exists(os.path.join(d, "libnvrtc.so.13")):
        print(d)
        break
EOF
)"
        if [[ -n "$d" ]]; then echo "$d"; return; fi
    fi
    # Our own fallback install, then a CUDA toolkit.
    for d in "$NVRTC_LOCAL/nvidia/cu13/lib" /usr/local/cuda/lib64 /usr/local/cuda-13*/lib64 \
             /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13*/targets/x86_64-linux/lib; do
        if [[ -e "$d/libnvrtc.so.13" ]]; then echo "$d"; return; fi
    done
    # Anywhere the dynamic loader already looks.
    d="$(ldconfig -p 2>/dev/null | awk '/libnvrtc\.so\.13 /{print $NF; exit}')"
    if [[ -n "$d" ]]; then dirname "$d"; fi
}

if [[ $mode == nvrtc-dir ]]; then
    nvrtc_dir
    exit 0
fi

# ---- the Python suite's packages: numpy and pytest --------------------------------------------
py_has() { command -v "$PYTHON" >/dev/null 2>&1 && PYTHONPATH="$1${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" -c 'import numpy, pytest' >/dev/null 2>&1; }
# Prints "" when the interpreter has them, target/pydeps when they are there, else fails.
pydeps_dir() {
    if py_has ""; then return 0; fi
    if [[ -d "$PYDEPS_LOCAL" ]] && py_has "$PYDEPS_LOCAL"; then echo "$PYDEPS_LOCAL"; return 0; fi
    return 1
}
if [[ $mode == pydeps-dir ]]; then
    pydeps_dir || true
    exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Each probe appends the Debian package that provides what it misses.
missing_pkgs=()
missing_what=()
miss() { missing_pkgs+=("$1"); missing_what+=("$2"); }

have_cc=1
if ! command -v cc >/dev/null 2>&1; then
    miss gcc "C compiler (cc)"; have_cc=0
fi
command -v gfortran >/dev/null 2>&1 || miss gfortran "Fortran compiler (gfortran)"
command -v pkg-config >/dev/null 2>&1 || miss pkg-config "pkg-config"
[[ $want_cmake == 1 ]] && { command -v cmake >/dev/null 2>&1 || miss cmake "cmake"; }

if [[ $have_cc == 1 ]]; then
    # Header and link probes: what a C test of ours does, in miniature.
    printf '#include <cblas.h>\nint main(void){double a=1,b=2,c=0;cblas_dgemm(CblasColMajor,CblasNoTrans,CblasNoTrans,1,1,1,1.0,&a,1,&b,1,0.0,&c,1);return c!=2;}\n' >"$tmp/blas.c"
    if ! cc "$tmp/blas.c" -o "$tmp/blas" -lopenblas >"$tmp/blas.log" 2>&1; then
        miss libopenblas-dev "OpenBLAS with cblas.h (libopenblas)"
    fi
    printf '#include <lapacke.h>\nint main(void){double a=4;lapack_int p;return LAPACKE_dgetrf(LAPACK_COL_MAJOR,1,1,&a,1,&p);}\n' >"$tmp/lapacke.c"
    if ! cc "$tmp/lapacke.c" -o "$tmp/lapacke" -llapacke -lopenblas >"$tmp/lapacke.log" 2>&1; then
        miss liblapacke-dev "LAPACKE (lapacke.h, liblapacke)"
    fi
    # Open MPI: a program built by mpicc, and mpirun to start it (examples/c/mpi_batch.c).
    printf '#include <mpi.h>\nint main(int c,char**v){int r;MPI_Init(&c,&v);MPI_Comm_rank(MPI_COMM_WORLD,&r);MPI_Finalize();return r;}\n' >"$tmp/mpi.c"
    if ! command -v mpicc >/dev/null 2>&1 || ! mpicc "$tmp/mpi.c" -o "$tmp/mpi" >"$tmp/mpi.log" 2>&1; then
        miss libopenmpi-dev "Open MPI's compiler wrapper and headers (mpicc, mpi.h)"
    fi
    command -v mpirun >/dev/null 2>&1 || miss openmpi-bin "Open MPI's launcher (mpirun)"
elif [[ -n "$(command -v dpkg-query || true)" ]]; then
    # No compiler to probe with: ask dpkg instead.
    for p in libopenblas-dev liblapacke-dev libopenmpi-dev openmpi-bin; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || miss "$p" "$p"
    done
else
    miss libopenblas-dev "OpenBLAS with cblas.h (libopenblas)"
    miss liblapacke-dev "LAPACKE (lapacke.h, liblapacke)"
    miss libopenmpi-dev "Open MPI (mpicc, mpi.h)"
    miss openmpi-bin "Open MPI's launcher (mpirun)"
fi

nvrtc="$(nvrtc_dir)"
need_nvrtc=0
[[ -z "$nvrtc" ]] && need_nvrtc=1
need_py=0
pydeps_dir >/dev/null || need_py=1

if [[ ${#missing_pkgs[@]} -eq 0 && $need_nvrtc == 0 && $need_py == 0 ]]; then
    echo "deps: ok (cc, gfortran, pkg-config, OpenBLAS, LAPACKE, Open MPI$([[ $want_cmake == 1 ]] && echo ", cmake"); libnvrtc in $nvrtc; numpy, pytest)"
    exit 0
fi

for w in "${missing_what[@]}"; do echo "deps: missing $w" >&2; done
[[ $need_nvrtc == 1 ]] && echo "deps: missing libnvrtc.so.13 (for the kernel compile check): PyPI $NVRTC_WHEEL" >&2
[[ $need_py == 1 ]] && echo "deps: missing numpy or pytest (for the Python module's tests): PyPI ${PY_PACKAGES[*]}" >&2

apt_cmd="apt-get install -y --no-install-recommends ${missing_pkgs[*]}"
pip_cmd="$PYTHON -m pip install $NVRTC_WHEEL"
py_cmd="$PYTHON -m pip install ${PY_PACKAGES[*]}"

sudo_="sudo "
[[ $(id -u) -eq 0 ]] && sudo_=""

if [[ $mode == check ]]; then
    [[ ${#missing_pkgs[@]} -gt 0 ]] && echo "deps: run: ${sudo_}apt-get update && ${sudo_}$apt_cmd" >&2
    [[ $need_nvrtc == 1 ]] && echo "deps: run: $pip_cmd" >&2
    [[ $need_py == 1 ]] && echo "deps: run: $py_cmd" >&2
    exit 1
fi

if [[ ${#missing_pkgs[@]} -gt 0 ]]; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "deps: installing ${missing_pkgs[*]} with apt-get" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # shellcheck disable=SC2086
        apt-get install -y -qq --no-install-recommends ${missing_pkgs[*]} >/dev/null
    else
        if command -v apt-get >/dev/null 2>&1; then
            echo "deps: not root, so not installing. Run:" >&2
            echo "    sudo apt-get update && sudo $apt_cmd" >&2
        else
            echo "deps: no apt-get here. Install the equivalents of these Debian packages: ${missing_pkgs[*]}" >&2
        fi
        [[ $need_nvrtc == 1 ]] && echo "    $pip_cmd" >&2
        [[ $need_py == 1 ]] && echo "    $py_cmd" >&2
        exit 1
    fi
fi

# pip_install WHAT LOCAL_DIR PACKAGE...: installs with pip into $PYTHON's site-packages or, where
# pip may not write there (e.g. an externally managed system Python), into LOCAL_DIR (inside
# target/, git-ignored; --nvrtc-dir and --pydeps-dir find it there).
pip_install() {
    local what="$1" local_dir="$2"; shift 2
    local cmd="$PYTHON -m pip install $*"
    if ! command -v "$PYTHON" >/dev/null 2>&1; then
        echo "deps: no $PYTHON to install $what with; install Python 3 and pip, then run: $cmd" >&2
        exit 1
    fi
    echo "deps: installing $what with pip" >&2
    export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
    if ! "$PYTHON" -m pip install -q "$@" 2>"$tmp/pip.log"; then
        echo "deps: pip could not install into $PYTHON's site-packages ($(tail -n 1 "$tmp/pip.log")); installing into $local_dir" >&2
        "$PYTHON" -m pip install -q --target "$local_dir" "$@" || {
            echo "deps: pip failed; run: $cmd" >&2; exit 1; }
    fi
}

if [[ $need_nvrtc == 1 ]]; then
    pip_install "$NVRTC_WHEEL" "$NVRTC_LOCAL" "$NVRTC_WHEEL"
fi
if [[ $need_py == 1 ]]; then
    pip_install "${PY_PACKAGES[*]}" "$PYDEPS_LOCAL" "${PY_PACKAGES[@]}"
fi

# Check again: what was installed must now be found.
exec "$0" --check $([[ $want_cmake == 1 ]] && echo --cmake)
