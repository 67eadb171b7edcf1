#!/usr/bin/env bash
# The Python half of `make install-check`: `pip install ./python` into a temporary virtual
# environment and `import numgpu` there against the library installed under PREFIX (found
# through pkg-config, as a user's would be), with a small checked call on a CPU handle.
#
#   python/install-check.sh PREFIX
#
# The environment sees the interpreter's own packages (numpy from `make deps`); the module is
# built with the interpreter's setuptools and wheel when it has them (no network then), else
# pip fetches them for an isolated build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
prefix="${1:?usage: python/install-check.sh PREFIX}"
PYTHON="${PYTHON:-python3}"
work="$(mktemp -d /tmp/numgpu-python-check.XXXXXX)"
trap 'rm -rf "$work"' EXIT
step() { echo; echo "== install-check (python): $*"; }

step "pip install ./python into a virtual environment"
"$PYTHON" -m venv --system-site-packages "$work/venv"
py="$work/venv/bin/python"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
build=(--no-build-isolation)
"$py" - 2>/dev/null <<'PYEOF' || build=()
import sys
import setuptools
v = tuple(int(x) for x in setuptools.__version__.split(".")[:2])
if v < (70, 1):  # bdist_wheel moved into setuptools in 70.1; before, the wheel package has it
    import wheel  # noqa: F401
sys.exit(v < (61, 0))
PYEOF
"$py" -m pip install -q "${build[@]}" ./python
rm -rf python/build python/numgpu.egg-info  # setuptools' leftovers in the tree

step "import numgpu against $prefix (through pkg-config)"
# From another folder, without NUMGPU_LIBRARY: the installed module finds the installed library.
cd "$work"
env -u NUMGPU_LIBRARY PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
    LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$py" - "$prefix" <<'PYEOF'
import os, sys
import numpy as np
import numgpu
prefix = os.path.realpath(sys.argv[1])
assert os.path.realpath(numgpu.library_path).startswith(prefix), f"loaded {numgpu.library_path}, not from {prefix}"
assert "site-packages" in numgpu.__file__, numgpu.__file__
assert numgpu.__version__ == numgpu.library_version, (numgpu.__version__, numgpu.library_version)
with numgpu.Handle("cpu") as h:
    A = np.array([[[1.0, 3.0], [2.0, 4.0]], [[2.0, 0.0], [0.0, 2.0]]])
    C = numgpu.gemm_batched(A, np.eye(2), handle=h)
    assert np.array_equal(C, A), C
    try:
        numgpu.gemm_batched(A, np.eye(3), handle=h)
    except ValueError as e:
        assert "op(B) is 3 x 3" in str(e)
    else:
        raise AssertionError("a shape mismatch was accepted")
print(f"import numgpu: {numgpu.__file__}; library {numgpu.library_path} {numgpu.library_version}: ok")
PYEOF
echo
echo "install-check (python): ok"
