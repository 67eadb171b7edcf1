"""csrmv and CMRS matrices against NumPy's dense products."""

import numpy as np
import pytest
from conftest import DTYPES, REALS, assert_close, random

import numgpu


def _csr(dense, base=0):
    rows, cols = np.nonzero(dense)
    indptr = np.searchsorted(rows, np.arange(dense.shape[0] + 1)).astype(np.int32) + base
    return numgpu.CSR(dense[rows, cols], cols.astype(np.int32) + base, indptr, dense.shape)


def _sparse(rng, m, n, dtype):
    return random(rng, (m, n), dtype) * (rng.random((m, n)) < 0.3)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trans", ["N", "T", "C"])
def test_csrmv(handle, rng, dtype, trans):
    D = _sparse(rng, 40, 30, dtype)
    op = {"N": D, "T": D.T, "C": D.conj().T}[trans]
    x = random(rng, op.shape[1], dtype)
    y = random(rng, op.shape[0], dtype)
    assert_close(numgpu.csrmv(_csr(D), x, trans=trans, handle=handle), op @ x, dtype, factor=100)
    y0 = y.copy()
    out = numgpu.csrmv(_csr(D, base=1), x, y, alpha=2, beta=-1, index_base=1, trans=trans, handle=handle)
    assert out is y
    assert_close(y, 2 * op @ x - y0, dtype, factor=100)


def test_csrmv_bad_structure_names_col_ind(handle):
    A = numgpu.CSR(np.ones(2), np.array([0, 5], np.int32), np.array([0, 1, 2], np.int32), (2, 3))
    with pytest.raises(numgpu.InvalidValueError) as e:
        numgpu.csrmv(A, np.ones(3), handle=handle)
    assert e.value.arg.name == "col_ind"


@pytest.mark.parametrize("dtype", REALS)
def test_cmrs_matches_csr(handle, rng, dtype):
    D = _sparse(rng, 70, 50, dtype)
    x = random(rng, 50, dtype)
    with numgpu.CMRSMatrix(_csr(D), handle=handle) as A:
        height, M, padding = A.info()
        assert 1 <= height <= 16 and M in (2, 4, 8) and padding >= 0
        assert_close(A.matvec(x), D @ x, dtype, factor=100)
        A.update_values(2 * _csr(D).data)
        y = np.ones(70, dtype)
        assert_close(A.matvec(x, y, beta=1.0), 2 * D @ x + 1, dtype, factor=100)
    with pytest.raises(ValueError, match="closed"):
        A.matvec(x)
