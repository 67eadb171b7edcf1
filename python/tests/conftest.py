"""Shared fixtures of the numgpu Python suite: a CPU handle (the suite's default backend; the
GPU module makes its own), a seeded generator, dtypes and tolerances."""

import numpy as np
import pytest

import numgpu

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
REALS = [np.float32, np.float64]


@pytest.fixture(scope="session")
def handle():
    """The backend under test: NUMGPU_TEST_BACKEND (default cpu)."""
    import os
    with numgpu.Handle(os.environ.get("NUMGPU_TEST_BACKEND", "cpu")) as h:
        yield h


@pytest.fixture
def rng():
    return np.random.default_rng(20251127)


def random(rng, shape, dtype):
    """Standard normal entries of `dtype` (complex: both parts)."""
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def eps(dtype):
    return float(np.finfo(np.dtype(dtype)).eps)


def assert_close(got, want, dtype, factor=100.0, scale=None):
    """max |got - want| <= factor·ε(dtype)·scale, scale = max(1, max |want|) by default."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want)))) if scale is None and want.size else (scale or 1.0)
    err = float(np.max(np.abs(got - want))) if want.size else 0.0
    tol = factor * eps(dtype) * scale
    assert err <= tol, f"error {err:.3e} > tolerance {tol:.3e} ({np.dtype(dtype)})"


def hermitian_pd(rng, batch, n, dtype):
    a = random(rng, (batch, n, n), dtype)
    return (a @ a.conj().transpose(0, 2, 1) + n * np.eye(n)).astype(dtype)


def life_problem(rng, ntheta=6, natoms=5, nvox=7, nfib=4, nnz=30):
    """A random LiFE problem: sizes, the COO entries (atoms, voxels, fibres, values), the
    dictionary D and the dense M = Φ ×₁ D it stands for, (ntheta·nvox) x nfib."""
    atoms, vox, fib = (rng.integers(0, k, nnz).astype(np.int32) for k in (natoms, nvox, nfib))
    vals = rng.random(nnz)
    D = rng.random((ntheta, natoms))
    M = np.zeros((ntheta * nvox, nfib))
    for k in range(nnz):
        M[vox[k] * ntheta:(vox[k] + 1) * ntheta, fib[k]] += vals[k] * D[:, atoms[k]]
    return (ntheta, natoms, nvox, nfib), (atoms, vox, fib, vals), D, M


# The Lorenz system, the right-hand side of the ODE tests: as a Python function and as the CUDA
# source of numgpu_ode_create (the built-in NUMGPU_ODE_LORENZ computes the same).
def lorenz(t, y, p, dydt):
    dydt[0] = p[0] * (y[1] - y[0])
    dydt[1] = p[1] * y[0] - y[1] - y[0] * y[2]
    dydt[2] = y[0] * y[1] - p[2] * y[2]


LORENZ_CUDA = """
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *dydt)
{
    dydt[0] = p[0] * (y[1] - y[0]);
    dydt[1] = p[1] * y[0] - y[1] - y[0] * y[2];
    dydt[2] = y[0] * y[1] - p[2] * y[2];
}
"""
