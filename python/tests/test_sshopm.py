"""SS-HOPM and the compressed symmetric tensors, against dense NumPy contractions."""

import itertools

import numpy as np
import pytest
from conftest import REALS

import numgpu


def _symmetric(rng, m, n):
    t = rng.standard_normal((n,) * m)
    perms = list(itertools.permutations(range(m)))
    return sum(np.transpose(t, p) for p in perms) / len(perms)


def _apply(t, x, times):
    for _ in range(times):
        t = t @ x
    return t


def test_pack_unpack_round_trip(rng):
    t = _symmetric(rng, 3, 4)
    p = numgpu.sym_pack(t)
    assert p.shape == (numgpu.unique_entries(3, 4),) == (20,)
    np.testing.assert_allclose(numgpu.sym_unpack(p, 3), t, rtol=1e-14, atol=1e-14)
    # entries in lexicographic order of i1 <= i2 <= i3: 000, 001, 002, 003, 011, ...
    np.testing.assert_allclose([p[0], p[4]], [t[0, 0, 0], t[0, 1, 1]], rtol=1e-14)


@pytest.mark.parametrize("dtype", REALS)
@pytest.mark.parametrize("mode", ["convex", "concave"])
def test_sshopm_finds_eigenpairs(handle, rng, dtype, mode):
    m, n, nt, ns = 4, 3, 2, 6
    ts = [_symmetric(rng, m, n) for _ in range(nt)]
    A = np.stack([numgpu.sym_pack(t) for t in ts]).astype(dtype)
    X0 = rng.standard_normal((ns, n)).astype(dtype)
    r = numgpu.sshopm(A, m, X0=X0, mode=mode, handle=handle)
    assert r.lam.shape == (nt, ns) and r.X.shape == (nt, ns, n)
    np.testing.assert_array_equal(r.flags, 0)
    tol = 1e-2 if dtype == np.float32 else 1e-5
    for t in range(nt):
        for s in range(ns):
            x = r.X[t, s].astype(np.float64)
            assert abs(np.linalg.norm(x) - 1) < tol
            np.testing.assert_allclose(_apply(ts[t], x, m - 1), r.lam[t, s] * x, atol=tol * 10)
    assert_same = numgpu.sshopm(A[0], m, X0=X0, mode=mode, handle=handle)
    np.testing.assert_array_equal(assert_same.lam, r.lam[0])


def test_sshopm_random_starts_follow_the_seed(handle, rng):
    A = numgpu.sym_pack(_symmetric(rng, 3, 3))
    handle.set_seed(7)
    a = numgpu.sshopm(A, 3, nstarts=5, handle=handle)
    handle.set_seed(7)
    b = numgpu.sshopm(A, 3, nstarts=5, handle=handle)
    np.testing.assert_array_equal(a.X, b.X)


def test_sshopm_unique_and_sym_apply(handle, rng):
    m, n = 4, 3
    t = _symmetric(rng, m, n)
    A = numgpu.sym_pack(t)
    u = numgpu.sshopm_unique(A, m, nstarts=32, kmax=6, handle=handle)
    assert 1 <= u.count <= 6
    lam = u.lam[: u.count]
    assert np.all(np.diff(lam) <= 0)  # decreasing
    assert np.isnan(u.lam[u.count:]).all() and (u.mult[u.count:] == 0).all()
    assert set(np.unique(u.pair_type)) <= {-1, 0, 1}
    x = rng.standard_normal(n)
    np.testing.assert_allclose(numgpu.sym_apply(A, x, m, 0, handle=handle), _apply(t, x, m), rtol=1e-12)
    np.testing.assert_allclose(numgpu.sym_apply(A, x, m, 1, handle=handle), _apply(t, x, m - 1), rtol=1e-12)
    np.testing.assert_allclose(numgpu.sym_apply(A, x, m, 2, handle=handle), _apply(t, x, m - 2), rtol=1e-12)
