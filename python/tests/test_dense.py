"""Dense families against NumPy: gemm_batched, LU with complete pivoting, Givens QR,
Cholesky, Jacobi, matrix exponentials."""

import numpy as np
import pytest
from conftest import DTYPES, REALS, assert_close, hermitian_pd, random

import numgpu

OPS = {"N": lambda a: a, "T": lambda a: a.swapaxes(-1, -2), "C": lambda a: a.conj().swapaxes(-1, -2)}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "N"), ("N", "C"), ("C", "T")])
def test_gemm_batched_matches_numpy(handle, rng, dtype, ta, tb):
    m, n, k, batch = 5, 3, 4, 7
    A = random(rng, (batch,) + ((m, k) if ta == "N" else (k, m)), dtype)
    B = random(rng, (batch,) + ((k, n) if tb == "N" else (n, k)), dtype)
    C = numgpu.gemm_batched(A, B, transa=ta, transb=tb, alpha=2, handle=handle)
    assert C.shape == (batch, m, n) and C.dtype == dtype
    assert_close(C, 2 * OPS[ta](A) @ OPS[tb](B), dtype, scale=2 * k * 9)


@pytest.mark.parametrize("dtype", REALS)
def test_gemm_batched_broadcasts_and_updates_c_in_place(handle, rng, dtype):
    A = random(rng, (4, 3), dtype)  # one A for the batch: stride 0
    B = random(rng, (6, 3, 2), dtype)
    C0 = random(rng, (6, 2, 4), dtype).transpose(0, 2, 1)  # (6, 4, 2), column-major in each matrix
    C = C0.copy(order="K")
    out = numgpu.gemm_batched(A, B, C, alpha=1.0, beta=-1.0, handle=handle)
    assert out is C
    assert_close(C, A @ B - C0, dtype, scale=30)


def test_gemm_batched_converts_host_inputs_of_any_layout(handle, rng):
    A = rng.standard_normal((3, 4, 5))  # C-ordered: copied to column-major
    B = np.arange(5 * 2).reshape(5, 2)  # integers: float64
    assert_close(numgpu.gemm_batched(A, B, handle=handle), A @ B, np.float64, scale=100)


def test_gemm_batched_mismatch_is_a_value_error(handle, rng):
    with pytest.raises(ValueError, match="op\\(A\\) is 2 x 3 but op\\(B\\) is 4 x 2"):
        numgpu.gemm_batched(np.ones((2, 3)), np.ones((4, 2)), handle=handle)


@pytest.mark.parametrize("dtype", DTYPES)
def test_getrf_getrs_gesv(handle, rng, dtype):
    n, batch = 6, 5
    A = random(rng, (batch, n, n), dtype)
    B = random(rng, (batch, n, 2), dtype)
    X, info = numgpu.gesv(A, B, handle=handle)
    np.testing.assert_array_equal(info, 0)
    assert_close(A @ X, B, dtype, factor=1e4)
    lu = numgpu.getrf(A, handle=handle)
    assert lu.ipiv.shape == (batch, n) and lu.info.shape == (batch,)
    # P·A·Q = L·U, rebuilt from the factors.
    for i in range(batch):
        L = np.tril(lu.LU[i], -1) + np.eye(n)
        U = np.triu(lu.LU[i])
        PA = A[i].copy()
        for k in range(n):
            PA[[k, lu.ipiv[i, k] - 1], :] = PA[[lu.ipiv[i, k] - 1, k], :]
        for k in range(n):
            PA[:, [k, lu.jpiv[i, k] - 1]] = PA[:, [lu.jpiv[i, k] - 1, k]]
        assert_close(L @ U, PA, dtype, factor=1e3)
    for trans in ("N", "T", "C"):
        Xs = numgpu.getrs(lu.LU, lu.ipiv, lu.jpiv, B, trans=trans, handle=handle)
        assert_close(OPS[trans](A) @ Xs, B, dtype, factor=1e4)


def test_gesv_reports_a_singular_matrix_in_info(handle, rng):
    A = rng.standard_normal((3, 4, 4))
    A[1] = 0.0
    b = rng.standard_normal(4)
    B = np.stack([b, b, b])[:, :, None]
    X, info = numgpu.gesv(A, B, handle=handle)
    assert info[1] > 0 and info[0] == 0 and info[2] == 0
    np.testing.assert_array_equal(X[1], B[1])  # left unchanged
    x, info1 = numgpu.gesv(A[0], b, handle=handle)  # a vector right-hand side
    assert x.shape == (4,) and info1 == 0
    assert_close(A[0] @ x, b, np.float64, factor=1e3)


def test_getrs_shares_one_factorisation_over_a_batch(handle, rng):
    A = rng.standard_normal((5, 5))
    B = rng.standard_normal((4, 5, 3))
    lu = numgpu.getrf(A, handle=handle)
    X = numgpu.getrs(lu.LU, lu.ipiv, lu.jpiv, B, handle=handle)
    assert_close(A @ X, B, np.float64, factor=1e3)


def test_overwrite_works_in_place_and_default_keeps_the_input(handle, rng):
    A = np.asfortranarray(rng.standard_normal((4, 4)))
    A0 = A.copy()
    LU = numgpu.getrf(A, handle=handle).LU
    np.testing.assert_array_equal(A, A0)
    LU2 = numgpu.getrf(A, overwrite_a=True, handle=handle).LU
    assert LU2 is A and np.array_equal(A, LU)
    with pytest.raises(ValueError, match="A must be column-major"):
        numgpu.getrf(np.ascontiguousarray(A0), overwrite_a=True, handle=handle)


@pytest.mark.parametrize("dtype", DTYPES)
def test_geqrf_orgqr_ormqr_gels(handle, rng, dtype):
    m, n, batch = 7, 4, 3
    A = random(rng, (batch, m, n), dtype)
    qr, cs = numgpu.geqrf(A, handle=handle)
    assert cs.dtype == np.dtype(dtype).type(0).real.dtype
    R = np.triu(qr[:, :n, :])
    Q = numgpu.orgqr(qr, cs, handle=handle)
    assert_close(Q @ R, A, dtype, factor=1e3)
    assert_close(Q.conj().swapaxes(1, 2) @ Q, np.broadcast_to(np.eye(n), (batch, n, n)), dtype, factor=1e3)
    C = random(rng, (batch, m, 2), dtype)
    QhC = numgpu.ormqr(qr, cs, C, trans="C" if np.dtype(dtype).kind == "c" else "T", handle=handle)
    Qfull = numgpu.orgqr(np.concatenate([qr, np.zeros((batch, m, m - n), dtype)], axis=2),
                         np.concatenate([cs, np.zeros((batch, m, m - n), cs.dtype)], axis=2), k=n, handle=handle)
    assert_close(QhC, Qfull.conj().swapaxes(1, 2) @ C, dtype, factor=1e3)
    B = random(rng, (batch, m, 2), dtype)
    X, info = numgpu.gels(A, B, handle=handle)
    np.testing.assert_array_equal(info, 0)
    for i in range(batch):
        ref = np.linalg.lstsq(A[i].astype(np.complex128), B[i].astype(np.complex128), rcond=None)[0]
        assert_close(X[i], ref, dtype, factor=1e4)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower", [True, False])
def test_potrf_potrs_posv(handle, rng, dtype, lower):
    n, batch = 6, 4
    A = hermitian_pd(rng, batch, n, dtype)
    F, info = numgpu.potrf(A, lower=lower, handle=handle)
    np.testing.assert_array_equal(info, 0)
    L = np.tril(F) if lower else np.triu(F).conj().swapaxes(1, 2)
    assert_close(L, np.linalg.cholesky(A.astype(np.complex128)), dtype, factor=1e3)
    B = random(rng, (batch, n, 3), dtype)
    assert_close(A @ numgpu.potrs(F, B, lower=lower, handle=handle), B, dtype, factor=1e4, scale=n * 20)
    X, info = numgpu.posv(A, B, lower=lower, handle=handle)
    np.testing.assert_array_equal(info, 0)
    assert_close(A @ X, B, dtype, factor=1e4, scale=n * 20)


def test_potrf_reports_the_order_of_a_non_positive_minor(handle):
    A = np.stack([np.eye(3), np.diag([1.0, -1.0, 1.0])])
    assert list(numgpu.potrf(A, handle=handle).info) == [0, 2]


@pytest.mark.parametrize("dtype", DTYPES)
def test_syevj_heevj(handle, rng, dtype):
    n, batch = 7, 3
    A = random(rng, (batch, n, n), dtype)
    A = (A + A.conj().swapaxes(1, 2)) / 2
    r = numgpu.heevj(A, handle=handle) if np.dtype(dtype).kind == "c" else numgpu.syevj(A, handle=handle)
    np.testing.assert_array_equal(r.info, 0)
    assert r.w.dtype == np.dtype(dtype).type(0).real.dtype
    assert_close(r.w, np.linalg.eigvalsh(A.astype(np.complex128)), dtype, factor=1e3)
    assert_close(A @ r.Z, r.Z * r.w[:, None, :], dtype, factor=1e3)
    values_only = numgpu.syevj(A, vectors=False, handle=handle)
    assert values_only.Z is None
    assert_close(values_only.w, r.w, dtype, factor=1e3)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 4), (3, 5)])
def test_gesvdj(handle, rng, dtype, shape):
    A = random(rng, (2,) + shape, dtype)
    r = numgpu.gesvdj(A, handle=handle)
    np.testing.assert_array_equal(r.info, 0)
    assert_close(r.S, np.linalg.svd(A.astype(np.complex128), compute_uv=False), dtype, factor=1e3)
    assert_close((r.U * r.S[:, None, :]) @ r.V.conj().swapaxes(1, 2), A, dtype, factor=1e3)
    assert numgpu.gesvdj(A[0], compute_uv=False, handle=handle).U is None


def _expm_reference(a):
    """exp(a) in complex128 by scaling and squaring with a long Taylor series."""
    a = a.astype(np.complex128)
    s = max(0, int(np.ceil(np.log2(max(np.abs(a).sum(axis=-2).max(), 1e-300)))) + 1)
    x = a / 2.0 ** s
    e, term = np.eye(a.shape[-1]) + 0j, np.eye(a.shape[-1]) + 0j
    for k in range(1, 30):
        term = term @ x / k
        e = e + term
    for _ in range(s):
        e = e @ e
    return e


@pytest.mark.parametrize("dtype", DTYPES)
def test_expm_and_expm_eig(handle, rng, dtype):
    A = random(rng, (4, 5, 5), dtype) * 0.5
    E, info = numgpu.expm(A, handle=handle)
    np.testing.assert_array_equal(info, 0)
    ref = np.stack([_expm_reference(a) for a in A])
    assert_close(E, ref, dtype, factor=1e3)
    # A symmetric generator Q = V·diag(w)·Vᵀ for many times t.
    S = rng.standard_normal((5, 5))
    w, V = np.linalg.eigh(S + S.T)
    t = np.linspace(0.0, 0.3, 6)
    rdt = np.dtype(dtype).type(0).real.dtype
    P = numgpu.expm_eig(V.astype(dtype), w.astype(dtype), V.T.astype(dtype), t.astype(rdt), handle=handle)
    ref = np.stack([_expm_reference((S + S.T) * ti) for ti in t])
    assert_close(P, ref, dtype, factor=1e3)


def test_expm_reports_non_finite_input(handle):
    A = np.zeros((2, 3, 3))
    A[1, 0, 0] = np.nan
    assert list(numgpu.expm(A, handle=handle).info) == [0, 1]
