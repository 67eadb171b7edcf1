"""The GPU suite: every family on PyTorch CUDA tensors, called on a NON-DEFAULT stream (the
handle must run there: each test checks it), results against torch's own routines where
torch has them, else against residuals or NumPy on the host. Skipped, with the reason, where
torch or a CUDA device is missing; NUMGPU_REQUIRE_CUDA=1 turns the skip into a failure."""

import os

import numpy as np
import pytest

import numgpu
from conftest import LORENZ_CUDA, life_problem

_REQUIRE = os.environ.get("NUMGPU_REQUIRE_CUDA") == "1"
try:
    import torch
except ImportError:
    if _REQUIRE:
        raise
    pytest.skip("SKIPPED: PyTorch is not installed (the GPU suite needs torch CUDA tensors)", allow_module_level=True)
if not torch.cuda.is_available():
    if _REQUIRE:
        raise RuntimeError("NUMGPU_REQUIRE_CUDA=1 but torch sees no CUDA device")
    pytest.skip("SKIPPED: torch sees no CUDA device (the GPU suite needs one)", allow_module_level=True)

DEV = torch.device("cuda", 0)
F64 = torch.float64


@pytest.fixture
def stream():
    """A fresh non-default stream, current for the test; synchronised at the end so that an
    asynchronous failure fails the test that caused it."""
    s = torch.cuda.Stream(device=DEV)
    assert s.cuda_stream != torch.cuda.default_stream(DEV).cuda_stream
    with torch.cuda.stream(s):
        yield s
        numgpu.default_handle(0).synchronize()
    s.synchronize()


def ran_on(s):
    """The default CUDA handle of device 0 last ran on stream s."""
    h = numgpu.default_handle(0)
    assert h.backend_name == "cuda"
    assert h.current_stream() == s.cuda_stream, "numgpu did not run on the caller's current stream"


def colmajor(t):
    """The same values laid out column-major in each matrix (torch's .mT of a contiguous copy)."""
    return t.mT.contiguous().mT


def randn(*shape, dtype=F64):
    return torch.randn(*shape, dtype=dtype, device=DEV)


def close(a, b, rtol=1e-9, atol=1e-9):
    torch.testing.assert_close(a, b, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64, torch.complex128])
def test_gemm_batched_against_bmm(stream, dtype):
    A, B = colmajor(randn(6, 5, 4, dtype=dtype)), colmajor(randn(6, 4, 3, dtype=dtype))
    C = numgpu.gemm_batched(A, B)
    ran_on(stream)
    assert C.is_cuda and C.dtype == dtype and C.shape == (6, 5, 3)
    tol = 1e-4 if dtype in (torch.float32, torch.complex64) else 1e-10
    close(C, torch.bmm(A, B), rtol=tol, atol=tol)
    # A C-ordered tensor At (batch, k, m) is, seen through .mT, a column-major (batch, m, k):
    # op = T on that view multiplies by At itself, without a copy.
    At = randn(6, 4, 5, dtype=dtype)
    B2 = colmajor(randn(6, 5, 3, dtype=dtype))
    close(numgpu.gemm_batched(At.mT, B2, transa="T"), torch.bmm(At, B2), rtol=tol, atol=tol)


def test_device_arrays_are_never_copied_or_converted(stream):
    A = randn(3, 4, 4)
    with pytest.raises(ValueError, match="A must be column-major.*mT"):
        numgpu.gemm_batched(A, A)
    with pytest.raises(TypeError, match="never converted"):
        numgpu.gemm_batched(colmajor(A), colmajor(A).float())
    C = colmajor(randn(3, 4, 4))
    ptr = C.data_ptr()
    out = numgpu.gemm_batched(colmajor(A), colmajor(A), C, beta=0.0)
    assert out is C and C.data_ptr() == ptr
    with pytest.raises(ValueError, match="host memory or all on one device"):
        numgpu.gemm_batched(colmajor(A), np.ones((3, 4, 4)))


def test_lu_solve_against_torch(stream):
    A, B = colmajor(randn(5, 8, 8)), colmajor(randn(5, 8, 2))
    X, info = numgpu.gesv(A, B)
    ran_on(stream)
    assert (info == 0).all()
    close(X, torch.linalg.solve(A, B), rtol=1e-8, atol=1e-8)
    lu = numgpu.getrf(A)
    Xs = numgpu.getrs(lu.LU, lu.ipiv, lu.jpiv, B, trans="T")
    LU, piv = torch.linalg.lu_factor(A)
    close(Xs, torch.linalg.lu_solve(LU, piv, B, adjoint=True), rtol=1e-8, atol=1e-8)


def test_givens_qr_against_torch(stream):
    A, B = colmajor(randn(4, 9, 5)), colmajor(randn(4, 9, 2))
    qr, cs = numgpu.geqrf(A)
    Q = numgpu.orgqr(qr, cs)
    ran_on(stream)
    close(Q @ torch.triu(qr[:, :5, :]), A, rtol=1e-10, atol=1e-10)
    X, info = numgpu.gels(A, B)
    assert (info == 0).all()
    close(X, torch.linalg.pinv(A) @ B, rtol=1e-8, atol=1e-8)


def test_cholesky_against_torch(stream):
    M = randn(6, 7, 7)
    A = colmajor(M @ M.mT + 7 * torch.eye(7, dtype=F64, device=DEV))
    L, info = numgpu.potrf(A)
    ran_on(stream)
    assert (info == 0).all()
    close(torch.tril(L), torch.linalg.cholesky(A))
    B = colmajor(randn(6, 7, 3))
    close(numgpu.potrs(L, B), torch.cholesky_solve(B, torch.tril(L)), rtol=1e-9, atol=1e-9)
    X, info = numgpu.posv(A, B)
    close(X, torch.linalg.solve(A, B), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
def test_jacobi_against_torch(stream, dtype):
    M = randn(4, 9, 9, dtype=dtype)
    A = colmajor((M + M.mH) / 2)
    r = numgpu.syevj(A)
    ran_on(stream)
    assert (r.info == 0).all()
    close(r.w, torch.linalg.eigvalsh(A))
    close(A @ r.Z, r.Z * r.w[:, None, :].to(dtype), rtol=1e-9, atol=1e-9)
    G = colmajor(randn(4, 9, 6, dtype=dtype))
    s = numgpu.gesvdj(G)
    close(s.S, torch.linalg.svdvals(G))
    close((s.U * s.S[:, None, :].to(dtype)) @ s.V.mH, G, rtol=1e-9, atol=1e-9)


def test_expm_against_matrix_exp(stream):
    A = colmajor(0.3 * randn(5, 6, 6))
    E, info = numgpu.expm(A)
    ran_on(stream)
    assert (info == 0).all()
    close(E, torch.linalg.matrix_exp(A), rtol=1e-10, atol=1e-10)
    S = randn(6, 6)
    w, V = torch.linalg.eigh(S + S.T)
    t = torch.linspace(0, 0.2, 7, dtype=F64, device=DEV)
    P = numgpu.expm_eig(colmajor(V), w, colmajor(V.T), t)
    close(P, torch.linalg.matrix_exp((S + S.T)[None] * t[:, None, None]), rtol=1e-9, atol=1e-9)


def test_gtsv_against_dense_solve(stream):
    b, n = 8, 40
    d, dl, du = randn(b, n) + 4, randn(b, n - 1), randn(b, n - 1)
    T = torch.diag_embed(d) + torch.diag_embed(dl, -1) + torch.diag_embed(du, 1)
    B = colmajor(randn(b, n, 2))
    # dl and du share d's batch stride: views of one (batch, 3, n) buffer.
    buf = torch.zeros(b, 3, n, dtype=F64, device=DEV)
    buf[:, 0], buf[:, 1, : n - 1], buf[:, 2, : n - 1] = d, dl, du
    X, info = numgpu.gtsv(buf[:, 1, : n - 1], buf[:, 0], buf[:, 2, : n - 1], B)
    ran_on(stream)
    assert (info == 0).all()
    close(X, torch.linalg.solve(T, B), rtol=1e-9, atol=1e-9)
    x, info = numgpu.gtsv(dl[0].contiguous(), d[0].contiguous(), du[0].contiguous(), B[0, :, 0].contiguous())
    close(x, torch.linalg.solve(T[0], B[0, :, 0]), rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError, match="one batch stride"):
        numgpu.gtsv(dl, d, du, B)  # separate tensors: strides n - 1 and n
    # The interleaved layout: one column per system, element k of system i at [k, i].
    rhs = randn(n, b)
    Xi, info = numgpu.gtsv_interleaved(dl.T.contiguous(), d.T.contiguous(), du.T.contiguous(), rhs)
    assert (info == 0).all()
    close(Xi.T, torch.linalg.solve(T, rhs.T.unsqueeze(-1)).squeeze(-1), rtol=1e-9, atol=1e-9)


def test_stebz_against_eigvalsh(stream):
    d, e = randn(5, 30), randn(5, 29)
    r = numgpu.stebz(d, e)
    ran_on(stream)
    assert (r.info == 0).all() and (r.m == 30).all()
    T = torch.diag_embed(d) + torch.diag_embed(e, -1) + torch.diag_embed(e, 1)
    close(r.w, torch.linalg.eigvalsh(T))
    counts = numgpu.stecount(d, e, torch.tensor([0.0], dtype=F64, device=DEV))
    assert torch.equal(counts[:, 0], (torch.linalg.eigvalsh(T) < 0).sum(1))


def test_csrmv_and_cmrs_against_torch_sparse(stream):
    D = randn(60, 45) * (torch.rand(60, 45, device=DEV) < 0.2)
    S = D.to_sparse_csr()
    S = torch.sparse_csr_tensor(S.crow_indices().int(), S.col_indices().int(), S.values(), S.shape)
    x = randn(45)
    y = numgpu.csrmv(S, x)
    ran_on(stream)
    close(y, D @ x)
    v = randn(60)
    close(numgpu.csrmv(S, v, trans="T"), D.T @ v)
    with numgpu.CMRSMatrix(S, handle=numgpu.default_handle(0)) as A:
        close(A.matvec(x), D @ x)
        ran_on(stream)


def test_sshopm_residual_on_device(stream):
    m, n = 4, 3
    rng = np.random.default_rng(1)
    t = rng.standard_normal((n,) * m)
    import itertools
    t = sum(np.transpose(t, p) for p in itertools.permutations(range(m))) / 24
    A = torch.as_tensor(numgpu.sym_pack(t), device=DEV)
    X0 = randn(10, n)
    r = numgpu.sshopm(A, m, X0=X0)
    ran_on(stream)
    assert (r.flags == 0).all()
    T = torch.as_tensor(t, device=DEV)
    Ax = torch.einsum("ijkl,sj,sk,sl->si", T, r.X, r.X, r.X)
    close(Ax, r.lam[:, None] * r.X, rtol=1e-4, atol=1e-4)
    host = numgpu.sshopm(numgpu.sym_pack(t), m, X0=X0.cpu().numpy(), handle=numgpu.Handle("cpu"))
    np.testing.assert_allclose(r.lam.cpu().numpy(), host.lam, rtol=1e-10)


def test_rkc_heat_equation_on_device(stream):
    n, nsys = 16, 64
    ode = numgpu.ODE.builtin("heat", n, handle=numgpu.default_handle(0))
    x = torch.arange(1, n + 1, dtype=F64, device=DEV) / (n + 1)
    Y0 = torch.sin(torch.pi * x).repeat(nsys, 1)
    Yeq = Y0.T.contiguous().T  # equation-major: coalesced on the GPU
    P = torch.ones(nsys, 1, dtype=F64, device=DEV)
    r = numgpu.rkc_integrate(ode, Yeq, 0.0, 0.05, P=P, rtol=1e-8, atol=1e-10)
    ran_on(stream)
    assert (r.status == 0).all()
    lam = -4 * (n + 1) ** 2 * np.sin(np.pi / (2 * (n + 1))) ** 2
    close(r.Y, Y0 * np.exp(lam * 0.05), rtol=1e-5, atol=1e-6)
    ode.close()


def test_rkc_cuda_source_matches_the_builtin(stream):
    h = numgpu.default_handle(0)
    Y0 = torch.tensor([[1.0, 1.0, 1.0], [0.5, 0.0, 2.0]], dtype=F64, device=DEV)
    P = torch.tensor([[10.0, 28.0, 8.0 / 3.0]] * 2, dtype=F64, device=DEV)
    with numgpu.ODE(3, 3, cuda_source=LORENZ_CUDA, handle=h) as mine, numgpu.ODE.builtin("lorenz", handle=h) as built:
        a = numgpu.rkc_integrate(built, Y0, 0.0, 0.5, P=P, method="rkck", rtol=1e-9, atol=1e-12)
        b = numgpu.rkc_integrate(mine, Y0, 0.0, 0.5, P=P, method="rkck", rtol=1e-9, atol=1e-12)
        ran_on(stream)
        assert (a.status == 0).all() and (b.status == 0).all()
        close(a.Y, b.Y, rtol=1e-8, atol=1e-8)


def test_life_against_dense_products(stream):
    sizes, (atoms, vox, fib, vals), D, M = life_problem(np.random.default_rng(2), 8, 6, 20, 10, 120)
    ntheta, natoms, nvox, nfib = sizes
    on = lambda a: torch.as_tensor(a, device=DEV)  # noqa: E731
    with numgpu.LifePlan(ntheta, natoms, nvox, nfib, on(atoms), on(vox), on(fib), on(vals),
                         handle=numgpu.default_handle(0)) as plan:
        w = randn(nfib).abs()
        Dd = colmajor(on(D))
        Y = plan.mw(Dd, w)
        ran_on(stream)
        close(Y.T.reshape(-1), on(M) @ w)
        close(plan.mty(Dd, Y), on(M).T @ (on(M) @ w))
        fit = plan.sbbnnls(Dd, Y, max_iters=300)
        assert (fit.w >= 0).all()


def test_tensor_kernels_against_einsum(stream):
    X = randn(5, 6, 7)  # C-ordered: the call reverses the modes, no copy
    U = [colmajor(randn(k, 4)) for k in (5, 6, 7)]
    M = numgpu.mttkrp(X, U, 1)
    ran_on(stream)
    close(M, torch.einsum("ijk,ir,kr->jr", X, U[0], U[2]))
    C = numgpu.khatri_rao(U[0], U[1])
    close(C, torch.einsum("ir,jr->ijr", U[0], U[1]).reshape(30, 4))


def test_host_arrays_on_a_cuda_handle_are_staged(stream):
    rng = np.random.default_rng(3)
    with numgpu.Handle("cuda") as h:
        A, B = rng.standard_normal((4, 5, 6)), rng.standard_normal((4, 6, 2))
        np.testing.assert_allclose(numgpu.gemm_batched(A, B, handle=h), A @ B, rtol=1e-12, atol=1e-12)


def test_dlpack_only_objects(stream):
    class OnlyDLPack:
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    torch.cuda.synchronize()
    A = colmajor(0.2 * randn(3, 5, 5))
    torch.cuda.synchronize()
    E, info = numgpu.expm(OnlyDLPack(A))
    torch.cuda.synchronize()
    close(torch.as_tensor(E, device=DEV), torch.linalg.matrix_exp(A), rtol=1e-10, atol=1e-10)


def test_cupy_on_its_current_stream():
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        A = cupy.asfortranarray(cupy.random.standard_normal((5, 5)))
        B = cupy.asfortranarray(cupy.random.standard_normal((5, 3)))
        C = numgpu.gemm_batched(A, B)
        assert numgpu.default_handle(0).current_stream() == s.ptr
        assert isinstance(C, cupy.ndarray)
        cupy.testing.assert_allclose(C, A @ B, rtol=1e-10, atol=1e-10)
    s.synchronize()
