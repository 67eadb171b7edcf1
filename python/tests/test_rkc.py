"""rkc_integrate on built-in problems and on Python right-hand sides."""

import numpy as np
import pytest

import numgpu
from conftest import LORENZ_CUDA, lorenz


def _heat_exact(n, t, D=1.0):
    # y0 = sin(πx) on the grid is an eigenvector of the discrete Laplacian.
    x = np.arange(1, n + 1) / (n + 1)
    lam = -4 * D * (n + 1) ** 2 * np.sin(np.pi / (2 * (n + 1))) ** 2
    return np.sin(np.pi * x) * np.exp(lam * t)


@pytest.mark.parametrize("layout", ["system", "equation"])
def test_heat_equation_against_its_exact_solution(handle, layout):
    n, nsys = 20, 3
    ode = numgpu.ODE.builtin("heat", n, handle=handle)
    Y0 = np.tile(_heat_exact(n, 0.0), (nsys, 1))
    if layout == "equation":
        Y0 = np.asfortranarray(Y0)  # columns contiguous: Y[i, j] with i the fastest
    P = np.array([[1.0], [0.5], [2.0]])
    r = numgpu.rkc_integrate(ode, Y0, 0.0, 0.1, P=P, rtol=1e-8, atol=1e-10, stats=True, handle=handle)
    np.testing.assert_array_equal(r.status, 0)
    for i, D in enumerate(P[:, 0]):
        np.testing.assert_allclose(r.Y[i], _heat_exact(n, 0.1, D), atol=1e-6)
    assert r.stats.shape == (nsys, 7) and (r.stats[:, 2] > 0).all()
    # the last counter: the backend that integrated each system
    assert (r.stats[:, 6] == dict(numgpu.lib.sig.ENUMS["numgpu_backend"])[f"NUMGPU_BACKEND_{handle.backend_name.upper()}"]).all()
    np.testing.assert_array_equal(Y0, np.tile(_heat_exact(n, 0.0), (nsys, 1)))  # input kept
    ode.close()


def test_python_rhs_matches_the_builtin_and_warm_restarts(handle):
    Y0 = np.array([[1.0, 1.0, 1.0], [0.5, 0.0, 2.0]])
    P = np.tile([10.0, 28.0, 8.0 / 3.0], (2, 1))
    opts = dict(method="rkck", rtol=1e-9, atol=1e-12, handle=handle)
    with numgpu.ODE.builtin("lorenz", handle=handle) as built, numgpu.ODE(3, 3, rhs=lorenz, handle=handle) as mine:
        a = numgpu.rkc_integrate(built, Y0, 0.0, 0.5, P=P, **opts)
        b = numgpu.rkc_integrate(mine, Y0, 0.0, 0.5, P=P, **opts)
        if handle.backend_name == "cpu":
            np.testing.assert_array_equal(a.Y, b.Y)  # the same steps on the same arithmetic
        else:  # the built-in on the GPU, the Python rhs on the host's cores: rounding apart
            np.testing.assert_allclose(b.Y, a.Y, rtol=1e-12, atol=1e-12)
        # Two halves with a warm-restart state give the whole interval.
        state = np.zeros((2, 6 + 3))
        Y = Y0.copy()
        numgpu.rkc_integrate(mine, Y, 0.0, 0.25, P=P, state=state, overwrite_y=True, **opts)
        numgpu.rkc_integrate(mine, Y, 0.25, 0.5, P=P, state=state, overwrite_y=True, **opts)
        np.testing.assert_allclose(Y, a.Y, rtol=1e-5)


def test_an_ode_with_cuda_source_and_python_rhs(handle):
    # The source crosses as a C string; the CPU backend runs the Python right-hand side, CUDA
    # the source: either way the Lorenz system's solution.
    Y0 = np.array([[1.0, 1.0, 1.0], [0.5, 0.0, 2.0]])
    P = np.tile([10.0, 28.0, 8.0 / 3.0], (2, 1))
    opts = dict(method="rkck", rtol=1e-9, atol=1e-12, handle=handle)
    with numgpu.ODE.builtin("lorenz", handle=handle) as built, \
            numgpu.ODE(3, 3, rhs=lorenz, cuda_source=LORENZ_CUDA, handle=handle) as mine:
        a = numgpu.rkc_integrate(built, Y0, 0.0, 0.5, P=P, **opts)
        b = numgpu.rkc_integrate(mine, Y0, 0.0, 0.5, P=P, **opts)
        np.testing.assert_array_equal(b.status, 0)
        np.testing.assert_allclose(b.Y, a.Y, rtol=1e-8, atol=1e-8)


def test_an_exception_in_the_rhs_is_raised_again(handle):
    def broken(t, y, p, dydt):
        raise RuntimeError("rhs failed")

    with numgpu.ODE(2, rhs=broken, handle=handle) as ode:
        with pytest.raises(RuntimeError, match="rhs failed"):
            numgpu.rkc_integrate(ode, np.ones((2, 2)), 0.0, 1.0, handle=handle)


def test_bad_arguments(handle):
    with numgpu.ODE.builtin("heat", 4, handle=handle) as ode:
        with pytest.raises(ValueError, match="P is required"):
            numgpu.rkc_integrate(ode, np.ones((2, 4)), 0.0, 1.0, handle=handle)
        with pytest.raises(numgpu.InvalidValueError) as e:
            numgpu.rkc_integrate(ode, np.ones((2, 4)), 0.0, 1.0, P=np.ones((2, 1)), rtol=0.5, handle=handle)
        assert e.value.arg is not None and e.value.arg.name == "rtol", repr((e.value.status, e.value.arg, e.value.message))
    with pytest.raises(numgpu.InvalidValueError) as e:
        numgpu.ODE.builtin("brusselator", 3, handle=handle)
    assert e.value.arg.name == "size"
