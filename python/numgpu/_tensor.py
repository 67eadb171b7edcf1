"""Dense tensor kernels of CP decompositions: the Khatri-Rao product and MTTKRP."""

import ctypes

import numpy as np

from ._arrays import REALS
from ._core import Ctx

_P = {np.dtype(np.float32): "s", np.dtype(np.float64): "d"}


def khatri_rao(A, B, *, handle=None):
    """C = A ⊙ B, the column-wise Kronecker product (numgpu_?khatri_rao): A (m, r), B (n, r),
    C (m·n, r) with C[j + i·n, k] = A[i, k]·B[j, k] (B's row index fastest, Kolda and Bader)."""
    ctx = Ctx(handle, A=A, B=B)
    dt = ctx.dtype("A", "B", allowed=REALS)
    a, b = ctx.mat("A", dt), ctx.mat("B", dt)
    if a.batch is not None or b.batch is not None or a.cols != b.cols:
        raise ValueError(f"numgpu.khatri_rao: A and B must be matrices with one column count, not {a.view.shape} and {b.view.shape}")
    c = ctx.out_mat("C", None, a.rows * b.rows, a.cols, dt)
    ctx.run(f"numgpu_{_P[dt]}khatri_rao", m=a.rows, n=b.rows, r=a.cols, A=a.view, lda=a.ld, B=b.view, ldb=b.ld,
            C=c.view, ldc=c.ld)
    return c.view.obj


def mttkrp(X, U, mode, *, handle=None):
    """M = X_(mode)·(⊙ of the other factors, last mode first): the MTTKRP of a dense tensor X of
    order d >= 3, M[i, r] = Σ X[i_0, …, i_{d-1}]·Π_{k≠mode} U[k][i_k, r] over i_mode = i
    (numgpu_?mttkrp). X: C- or Fortran-contiguous, never copied when on a device (a C-ordered
    X is the Fortran-ordered tensor of the reversed dimensions, so the call reverses the
    modes); U: d factors (dims[k], rank), U[mode] may be None; mode: 0-based. Returns M,
    (dims[mode], rank)."""
    d = len(U)
    if not -d <= mode < d:
        raise ValueError(f"numgpu.mttkrp: mode {mode} is out of range for {d} factors")
    mode %= d
    arrays = {f"U{k}": u for k, u in enumerate(U) if k != mode}
    ctx = Ctx(handle, X=X, **arrays)
    dt = ctx.dtype("X", *arrays, allowed=REALS)
    x = ctx.v["X"]
    if x.ndim != d:
        raise ValueError(f"numgpu.mttkrp: X has {x.ndim} dimensions but {d} factors were given")
    dims = list(x.shape)
    fortran = all(st == c for st, c, n in zip(x.strides, np.cumprod([1] + dims[:-1]), dims) if n > 1)
    if not fortran:
        xv = ctx.flat("X", dt)  # C-contiguous (a host X of another layout is copied to one)
        order = list(reversed(range(d)))
    else:
        if not ctx._check_dtype("X", x, dt, False):
            xv = ctx.flat("X", dt)  # a host X of another dtype, copied C-contiguous
            order = list(reversed(range(d)))
        else:
            xv, order = x, list(range(d))
    rank = None
    factors = {}
    for k in range(d):
        if k == mode:
            continue
        u = ctx.mat(f"U{k}", dt)
        if u.batch is not None or u.rows != dims[k] or (rank is not None and u.cols != rank):
            raise ValueError(f"numgpu.mttkrp: U[{k}] must be ({dims[k]}, rank), not {u.view.shape}")
        rank, factors[k] = u.cols, u
    rank = 0 if rank is None else rank
    m = ctx.out_mat("M", None, dims[mode], rank, dt)
    c_dims = (ctypes.c_int64 * d)(*(dims[k] for k in order))
    c_u = (ctypes.c_void_p * d)(*(factors[k].view.ptr if k in factors else None for k in order))
    c_ldu = (ctypes.c_int64 * d)(*(factors[k].ld if k in factors else 1 for k in order))
    ctx.run(f"numgpu_{_P[dt]}mttkrp", ndim=d, dims=c_dims, X=xv, mode=order.index(mode), rank=rank, U=c_u,
            ldu=c_ldu, M=m.view, ldm=m.ld)
    return m.view.obj


__all__ = ["khatri_rao", "mttkrp"]
