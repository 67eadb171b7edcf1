"""LiFE plans and the tensor kernels against dense NumPy."""

import numpy as np
import pytest
from conftest import REALS, assert_close, life_problem

import numgpu


def test_life_products_and_fit(handle, rng):
    sizes, coo, D, M = life_problem(rng)
    w = rng.random(sizes[3])
    with numgpu.LifePlan(*sizes, *coo, handle=handle) as plan:
        assert plan.info() == sizes + (len(coo[3]),)
        Y = plan.mw(D, w)
        assert Y.shape == (sizes[0], sizes[2])
        assert_close(Y.reshape(-1, order="F"), M @ w, np.float64)
        assert_close(plan.mty(D, Y), M.T @ (M @ w), np.float64, scale=100)
        fit = plan.sbbnnls(D, Y, max_iters=500)
        assert (fit.w >= 0).all() and fit.iters > 0
        assert fit.objective <= 0.5 * np.sum((M @ np.zeros_like(w) - M @ w) ** 2)
        subs = np.stack([c + 1 for c in coo[:3]], axis=1).astype(np.float64)
        with numgpu.LifePlan.from_subs(*sizes, subs, coo[3], handle=handle) as plan2:
            np.testing.assert_array_equal(plan2.mw(D, w), Y)


def test_life_bad_index_names_its_array(handle, rng):
    sizes, (atoms, vox, fib, vals), _, _ = life_problem(rng)
    vox = vox.copy()
    vox[3] = sizes[2]
    with pytest.raises(numgpu.InvalidValueError) as e:
        numgpu.LifePlan(*sizes, atoms, vox, fib, vals, handle=handle)
    assert e.value.arg.name == "voxels"


@pytest.mark.parametrize("dtype", REALS)
def test_khatri_rao(handle, rng, dtype):
    A, B = rng.random((3, 4)).astype(dtype), rng.random((5, 4)).astype(dtype)
    C = numgpu.khatri_rao(A, B, handle=handle)
    np.testing.assert_array_equal(C, np.einsum("ir,jr->ijr", A, B).reshape(15, 4))


@pytest.mark.parametrize("dtype", REALS)
@pytest.mark.parametrize("order", ["C", "F"])
def test_mttkrp_every_mode(handle, rng, dtype, order):
    dims, rank = (3, 4, 2, 5), 3
    X = np.asarray(rng.random(dims), dtype=dtype, order=order)
    U = [rng.random((d, rank)).astype(dtype) for d in dims]
    letters = "abcd"
    for mode in range(4):
        others = [k for k in range(4) if k != mode]
        spec = f"{letters},{','.join(letters[k] + 'r' for k in others)}->{letters[mode]}r"
        ref = np.einsum(spec, X.astype(np.float64), *(U[k] for k in others))
        factors = [None if k == mode else U[k] for k in range(4)]
        assert_close(numgpu.mttkrp(X, factors, mode, handle=handle), ref, dtype, factor=1e3, scale=ref.max() * 10)
