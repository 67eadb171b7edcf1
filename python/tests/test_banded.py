"""gtsv and stebz/stecount against NumPy."""

import numpy as np
import pytest
from conftest import DTYPES, REALS, assert_close, random

import numgpu


def _dense(dl, d, du):
    return np.diag(d) + np.diag(dl, -1) + np.diag(du, 1)


def _dominant(rng, shape, dtype):
    """dl, d, du of strictly diagonally dominant systems (|dl| + |du| <= 2.8 < 3.5 <= |d|),
    which every pivoting mode of every backend solves."""
    def off():
        z = random(rng, shape[:-1] + (shape[-1] - 1,), dtype)
        return (z / np.maximum(1.0, np.abs(z) / 1.4)).astype(dtype)  # modulus <= 1.4
    d = (4 + 0.5 * np.tanh(random(rng, shape, dtype).real)).astype(dtype)
    return off(), d, off()


@pytest.mark.parametrize("dtype", DTYPES)
def test_gtsv_one_large_system(handle, rng, dtype):
    n = 300
    dl, d, du = _dominant(rng, (n,), dtype)
    B = random(rng, (n, 3), dtype)
    X, info = numgpu.gtsv(dl, d, du, B, handle=handle)
    assert info == 0
    assert_close(_dense(dl, d, du) @ X, B, dtype, factor=1e3)
    x, _ = numgpu.gtsv(dl, d, du, B[:, 0], handle=handle)
    assert x.shape == (n,)
    assert_close(x, X[:, 0], dtype, factor=10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("pivoting", ["diag_pivot", "nopivot"])
def test_gtsv_batch(handle, rng, dtype, pivoting):
    batch, n = 9, 17
    dl, d, du = _dominant(rng, (batch, n), dtype)
    B = random(rng, (batch, n, 2), dtype)
    X, info = numgpu.gtsv(dl, d, du, B, pivoting=pivoting, handle=handle)
    np.testing.assert_array_equal(info, 0)
    for i in range(batch):
        assert_close(_dense(dl[i], d[i], du[i]) @ X[i], B[i], dtype, factor=1e3)


def test_gtsv_one_matrix_for_a_batch_of_right_hand_sides(handle, rng):
    n = 8
    d, dl, du = rng.random(n) + 3, rng.random(n - 1), rng.random(n - 1)
    B = rng.random((5, n, 1))
    X, info = numgpu.gtsv(dl, d, du, B, handle=handle)
    assert info.shape == (5,)
    assert_close(_dense(dl, d, du) @ X, B, np.float64, factor=1e3)


def test_gtsv_singular_system_goes_to_info(handle):
    d = np.array([[1.0, 1.0], [0.0, 0.0]])
    e = np.zeros((2, 1))
    B = np.ones((2, 2, 1))
    X, info = numgpu.gtsv(e, d, e, B, handle=handle)
    assert info[0] == 0 and info[1] > 0
    np.testing.assert_array_equal(X[1], B[1])


@pytest.mark.parametrize("dtype", REALS)
def test_gtsv_interleaved(handle, rng, dtype):
    n, batch = 6, 5
    d = (rng.random((n, batch)) + 3).astype(dtype)
    dl, du = (rng.random((n - 1, batch)).astype(dtype) for _ in range(2))
    b = rng.random((n, batch)).astype(dtype)
    X, info = numgpu.gtsv_interleaved(dl, d, du, b, handle=handle)
    np.testing.assert_array_equal(info, 0)
    for i in range(batch):
        assert_close(_dense(dl[:, i], d[:, i], du[:, i]) @ X[:, i], b[:, i], dtype, factor=1e3)
    # cuSPARSE's padded arrays (dl's first row and du's last unused): row slices, no copy.
    pad = np.zeros((1, batch), dtype)
    X2, _ = numgpu.gtsv_interleaved(np.vstack([pad, dl])[1:], d, np.vstack([du, pad])[:-1], b, handle=handle)
    np.testing.assert_array_equal(X2, X)


@pytest.mark.parametrize("dtype", REALS)
def test_stebz_every_selection(handle, rng, dtype):
    batch, n = 4, 12
    d, e = rng.standard_normal((batch, n)).astype(dtype), rng.standard_normal((batch, n - 1)).astype(dtype)
    ref = np.linalg.eigvalsh(np.stack([_dense(e[i], d[i], e[i]).astype(np.float64) for i in range(batch)]))
    r = numgpu.stebz(d, e, handle=handle)
    np.testing.assert_array_equal(r.m, n)
    assert_close(r.w, ref, dtype, factor=1e3)
    r = numgpu.stebz(d, e, select="i", select_range=(2, 4), handle=handle)
    np.testing.assert_array_equal(r.m, 3)
    assert_close(r.w[:, :3], ref[:, 2:5], dtype, factor=1e3)
    assert np.isnan(r.w[:, 3:]).all()
    r = numgpu.stebz(d, e, select="v", select_range=(-0.5, 0.5), handle=handle)
    np.testing.assert_array_equal(r.m, ((ref > -0.5) & (ref <= 0.5)).sum(axis=1))
    counts = numgpu.stecount(d, e, np.array([-np.inf, 0.0, np.inf], dtype), handle=handle)
    np.testing.assert_array_equal(counts, np.stack([np.zeros(batch), (ref < 0).sum(1), np.full(batch, n)], 1))
    with pytest.raises(TypeError, match="this routine takes"):
        numgpu.stebz(d.astype(np.complex64), e, handle=handle)
