#!/usr/bin/env bash
# Open MPI for a GPU host that has no MPI of its own, or not the one our programs were built
# with: the Open MPI runtime's Debian packages and the libraries they load that a minimal
# Debian/Ubuntu host may lack, downloaded here with apt-get into .mpi-kit/ (git-ignored, about
# 4 MiB), unpacked there into a private prefix with dpkg -x (never into /).
#
#   scripts/mpi-kit.sh [download] [--dir DIR]   here: the packages into DIR (default .mpi-kit),
#                                               with this script and a MANIFEST
#   mpi-kit.sh unpack PREFIX [--dir DIR]        there: unpack the kit into PREFIX and write
#                                               PREFIX/env.sh; `. PREFIX/env.sh` then puts the
#                                               kit's mpirun on PATH and its libraries on
#                                               LD_LIBRARY_PATH (OPAL_PREFIX, OPAL_SYSCONFDIR and
#                                               PMIX_* make the relocated install find itself)
#   scripts/mpi-kit.sh check PROGRAM [ARGS...]  here: unpack into a temporary prefix and run
#                                               `mpirun -np 2 PROGRAM ARGS` on the kit alone (the
#                                               system's Open MPI off PATH and, as root, hidden
#                                               in a private mount namespace)
#
# The MPI programs of the GPU bundle (examples/c/mpi_batch.c) are built here by this machine's
# Open MPI (`make deps`: openmpi-bin, libopenmpi-dev); `download` checks that the kit holds the
# same version, so the libmpi.so.40 the programs load there is the one they were linked with.
# The package names are Debian 12's (bookworm), the system of this machine and of CI.
#
# Left out: the fabric libraries (UCX, libfabric, PSM, verbs) and the Open MPI components
# that need them. On one host ranks talk through shared memory (btl vader), which needs none;
# `unpack` removes every component whose libraries the host cannot load.
set -euo pipefail

# The runtime (mpirun, libmpi and its components, help files and defaults) and what it loads.
PKGS=(openmpi-bin libopenmpi3 openmpi-common libpmix2 libmunge2 libhwloc15 libevent-core-2.1-7
      libevent-pthreads-2.1-7 libnuma1 libudev1 zlib1g)
# Of these, the libraries every Debian/Ubuntu system has: unpack keeps the kit's copy only where
# the host lacks the library, so the kit never shadows a newer one of the host's.
BASE_SONAMES=(libz.so.1 libudev.so.1)
MULTIARCH=x86_64-linux-gnu

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cmd=download
[[ $# -gt 0 && "$1" != -* ]] && { cmd="$1"; shift; }
die() { echo "mpi-kit: $*" >&2; exit 1; }

# The kit folder: --dir, else .mpi-kit of the checkout (this script in scripts/), else the
# folder this script sits in (the copy inside a kit).
kit_dir() {
    if [[ -n "${KIT:-}" ]]; then echo "$KIT"
    elif [[ -f "$here/../Cargo.toml" ]]; then echo "$(cd "$here/.." && pwd)/.mpi-kit"
    else echo "$here"; fi
}

# Unpacks one .deb into a prefix: dpkg-deb where it exists, else Python (a .deb is an ar
# archive whose data.tar.* member holds the files).
extract() {
    if command -v dpkg-deb >/dev/null 2>&1; then dpkg-deb -x "$1" "$2"; return; fi
    python3 - "$1" "$2" <<'EOF'
import io, sys, tarfile
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"!<arch>\n", "not a .deb"
i = 8
while i + 60 <= len(data):
    name, size = data[i:i + 16].decode().strip().rstrip("/"), int(data[i + 48:i + 58])
    if name.startswith("data.tar"):
        t = tarfile.open(fileobj=io.BytesIO(data[i + 60:i + 60 + size]))
        t.extractall(sys.argv[2], **({"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}))
        break
    i += 60 + size + (size & 1)
else:
    raise SystemExit("no data.tar member in " + sys.argv[1])
EOF
}

download() {
    local dir; dir="$(kit_dir)"
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found: the kit is made on a Debian 12 machine"
    local built; built="$(dpkg-query -W -f='${Version}' libopenmpi3 2>/dev/null || true)"
    [[ -n "$built" ]] || die "libopenmpi3 is not installed here: run \`make deps\` first (the programs are built with it)"
    rm -rf "$dir"
    mkdir -p "$dir/debs"
    # apt-get download writes into the current folder; as root it warns that _apt cannot
    # write there, which is harmless.
    (cd "$dir/debs" && apt-get download -qq "${PKGS[@]}" 2>&1 | grep -v "^W: Download is performed unsandboxed" >&2 || true)
    local p got
    for p in "${PKGS[@]}"; do
        compgen -G "$dir/debs/${p}_*.deb" >/dev/null || die "apt-get download did not fetch $p (apt-get update? network?)"
    done
    got="$(basename "$(compgen -G "$dir/debs/libopenmpi3_*.deb")" | cut -d_ -f2 | sed 's/%3a/:/')"
    [[ "$got" == "$built" ]] || die "the kit's libopenmpi3 is $got, the one the programs are built with is $built: upgrade one of them"
    install -m 755 "${BASH_SOURCE[0]}" "$dir/mpi-kit.sh"
    {
        echo "Open MPI kit for numgpu's GPU bundle (scripts/mpi-kit.sh)"
        echo "made: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME"), Open MPI $built (the programs' build)"
        (cd "$dir/debs" && ls -l ./*.deb | awk '{ print $5, $NF }')
    } >"$dir/MANIFEST"
    echo "mpi-kit: $dir: $(du -sh "$dir" | cut -f1) ($(ls "$dir/debs" | wc -l) packages, Open MPI $built)"
}

unpack() {
    local prefix="${1:?usage: mpi-kit.sh unpack PREFIX}" dir; dir="$(kit_dir)"
    [[ -d "$dir/debs" ]] || die "no kit in $dir (scripts/mpi-kit.sh download makes one)"
    mkdir -p "$prefix"
    prefix="$(cd "$prefix" && pwd)"
    [[ "$prefix" != / ]] || die "unpacking into / would overwrite the system's files: give a private prefix"
    local deb
    for deb in "$dir"/debs/*.deb; do extract "$deb" "$prefix"; done
    local lib="$prefix/usr/lib/$MULTIARCH" so libs out
    [[ -x "$prefix/usr/bin/orterun" ]] || die "$prefix/usr/bin/orterun missing after unpacking"
    ln -sfn orterun "$prefix/usr/bin/mpirun"
    ln -sfn orterun "$prefix/usr/bin/mpiexec"
    # The base libraries only where the host has none.
    for so in "${BASE_SONAMES[@]}"; do
        if ldconfig -p 2>/dev/null | grep -q "^[[:space:]]*$so "; then rm -f "$prefix/lib/$MULTIARCH/$so"* "$lib/$so"*; fi
    done
    libs="$lib:$prefix/lib/$MULTIARCH:$lib/openmpi/lib:$lib/pmix2/lib"
    # Components that cannot load here (their fabric libraries are not in the kit) would each
    # print a warning at start: set them aside.
    local removed=()
    if command -v ldd >/dev/null 2>&1; then
        mkdir -p "$prefix/unloadable"
        for so in "$lib"/openmpi/lib/openmpi3/*.so "$lib"/pmix2/lib/pmix/*.so; do
            if ! out="$(LD_LIBRARY_PATH="$libs" ldd "$so" 2>&1)" || grep -q "not found" <<<"$out"; then
                mv "$so" "$prefix/unloadable/"
                removed+=("$(basename "$so" .so)")
            fi
        done
    fi
    cat >"$prefix/env.sh" <<EOF
# Open MPI from numgpu's kit, unpacked in $prefix (scripts/mpi-kit.sh). Source it.
export OPAL_PREFIX="$prefix/usr"
export OPAL_SYSCONFDIR="$prefix/etc/openmpi"
export PMIX_PREFIX="$lib/pmix2" PMIX_PKGLIBDIR="$lib/pmix2/lib/pmix" PMIX_PKGDATADIR="$lib/pmix2/share/pmix"
export PATH="$prefix/usr/bin\${PATH:+:\$PATH}"
export LD_LIBRARY_PATH="$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
# mpirun as root (the GPU host runs everything as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
EOF
    if ! command -v ldd >/dev/null 2>&1; then
        echo "export OMPI_MCA_mca_base_component_show_load_errors=0  # no ldd to find the unloadable components" >>"$prefix/env.sh"
    fi
    echo "mpi-kit: unpacked into $prefix; set aside (libraries missing here): ${removed[*]:-none}; source $prefix/env.sh"
}

# Runs PROGRAM under the kit's mpirun with 2 ranks, in a private mount namespace that hides
# the system's Open MPI where that is possible (root and unshare), else with it only off PATH.
check() {
    [[ $# -ge 1 && -x "$1" ]] || die "usage: scripts/mpi-kit.sh check PROGRAM [ARGS...] (an MPI program)"
    tmp="$(mktemp -d /tmp/mpi-kit-check.XXXXXX)"
    trap 'rm -rf "$tmp"' EXIT
    unpack "$tmp/prefix" >/dev/null
    local program; program="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
    shift
    # The system's Open MPI files: hidden under /dev/null in the namespace.
    local pkg f
    for pkg in openmpi-bin libopenmpi3 openmpi-common libpmix2; do
        dpkg -L "$pkg" 2>/dev/null || true
    done | while read -r f; do if [[ -f "$f" && ! -L "$f" ]]; then echo "$f"; fi; done >"$tmp/hide"
    cat >"$tmp/run.sh" <<EOF
set -euo pipefail
if [[ "\${1:-}" == hide ]]; then
    while read -r f; do mount --bind /dev/null "\$f"; done <"$tmp/hide"
    echo "mpi-kit check: the system's Open MPI hidden ($(wc -l <"$tmp/hide") files)"
fi
# PATH without the system's Open MPI: a folder of links to every other command on it.
mkdir -p "$tmp/bin"
IFS=: read -ra dirs <<<"\$PATH"
for d in "\${dirs[@]}"; do
    for f in "\$d"/*; do
        n="\${f##*/}"
        case "\$n" in mpi*|orte*|ompi*|opal*|osh*|shmem*) continue ;; esac
        [[ -x "\$f" && ! -e "$tmp/bin/\$n" ]] && ln -s "\$f" "$tmp/bin/\$n"
    done
done
export PATH="$tmp/bin"
. "$tmp/prefix/env.sh"
echo "mpi-kit check: mpirun is \$(command -v mpirun); ompi_info: \$(ompi_info --path pkglibdir | sed 's/^ *//')"
ldd "$program" | grep -E 'libmpi|libopen-(rte|pal)|libpmix|libhwloc' | sed 's/^[[:space:]]*/mpi-kit check: /'
if ldd "$program" | grep -E 'libmpi\.so' | grep -vq "$tmp/prefix"; then echo "mpi-kit check: libmpi is not the kit's" >&2; exit 1; fi
mpirun -np 2 --bind-to none "$program" $(printf '%q ' "$@")
EOF
    if [[ $(id -u) -eq 0 ]] && command -v unshare >/dev/null 2>&1 && unshare -m --propagation private true 2>/dev/null; then
        unshare -m --propagation private bash "$tmp/run.sh" hide
    else
        echo "mpi-kit check: not root or no unshare: the system's Open MPI is only taken off PATH"
        bash "$tmp/run.sh"
    fi
}

# --dir DIR anywhere for download and unpack; for check only before PROGRAM (what follows is
# the program's).
rest=()
while [[ $# -gt 0 ]]; do
    if [[ "$1" == --dir && $# -ge 2 ]]; then KIT="$2"; shift 2; continue; fi
    [[ $cmd == check ]] && break
    rest+=("$1"); shift
done
set -- "${rest[@]}" "$@"
case "$cmd" in
    download) download ;;
    unpack) unpack "$@" ;;
    check) check "$@" ;;
    -h|--help|help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
    *) die "unknown command $cmd (download, unpack, check)" ;;
esac
