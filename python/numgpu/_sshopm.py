"""Tensor eigenpairs by SS-HOPM, and the compressed symmetric tensors it takes."""

from collections import namedtuple
from math import comb

import numpy as np

from . import _lib
from ._arrays import I32, REALS
from ._core import Ctx, enum_value

SshopmResult = namedtuple("SshopmResult", "lam X iters flags")
SshopmUniqueResult = namedtuple("SshopmUniqueResult", "count lam X mult pair_type")

_NAMES = {np.dtype(np.float32): "s", np.dtype(np.float64): "ds"}


def unique_entries(m, n):
    """U = C(m + n - 1, m): the entries of a compressed symmetric tensor of order m, dimension n."""
    return comb(m + n - 1, m)


def _dimension(m, u):
    n = 1
    while unique_entries(m, n) < u:
        n += 1
    if unique_entries(m, n) != u:
        raise ValueError(f"numgpu.sshopm: {u} entries is no C(m + n - 1, m) for m = {m}")
    return n


def sym_pack(dense):
    """The C(m+n-1, m) unique entries of a dense order-m tensor of shape (n,)*m (its
    symmetric part: each the mean of the entries it stands for), host memory
    (numgpu_?sym_pack). float32 stays float32; anything else becomes float64."""
    a = np.asarray(dense)
    a = np.ascontiguousarray(a, np.float32 if a.dtype == np.float32 else np.float64)
    m, n = a.ndim, (a.shape[0] if a.ndim else 0)
    if a.shape != (n,) * m:
        raise ValueError(f"numgpu.sym_pack: dense must be of shape (n,)*m, not {a.shape}")
    out = np.empty(unique_entries(m, n), a.dtype)
    _lib.call(f"numgpu_{'s' if a.dtype == np.float32 else 'd'}sym_pack", m=m, n=n, dense=a.ctypes.data,
              packed=out.ctypes.data)
    return out


def sym_unpack(packed, m):
    """The dense symmetric tensor (n,)*m of C(m+n-1, m) unique entries (numgpu_?sym_unpack)."""
    a = np.asarray(packed)
    a = np.ascontiguousarray(a, np.float32 if a.dtype == np.float32 else np.float64)
    n = _dimension(m, a.size)
    out = np.empty((n,) * m, a.dtype)
    _lib.call(f"numgpu_{'s' if a.dtype == np.float32 else 'd'}sym_unpack", m=m, n=n, packed=a.ctypes.data,
              dense=out.ctypes.data)
    return out


def _tensors(ctx, m):
    dt = ctx.dtype("A", "X0", allowed=REALS)
    a = ctx.vec("A", dt)
    n = _dimension(m, a.n)
    nt = a.batch if a.batch is not None else 1
    return dt, a, n, nt


def _starts(ctx, dt, n, nt, nstarts):
    """X0 and its stride: (nstarts, n) shared by every tensor, or (ntensors, nstarts, n)."""
    if not ctx.is_given("X0"):
        if nstarts is None:
            raise ValueError("numgpu.sshopm: give X0 or nstarts (random starts from the handle's seed)")
        return None, 0, nstarts
    x0 = ctx.flat("X0", dt)
    if x0.ndim == 2 and x0.shape[1] == n:
        return x0, 0, x0.shape[0]
    if x0.ndim == 3 and x0.shape[0] == nt and x0.shape[2] == n:
        return x0, x0.shape[1] * n, x0.shape[1]
    raise ValueError(f"numgpu.sshopm: X0 must be (nstarts, {n}) or ({nt}, nstarts, {n}), not {x0.shape}")


def _common(dt, m, mode, shift, alpha, tol, maxit):
    # The default stopping test: λ to 1e-6 (float32) or 1e-12 (float64), x then to about √tol.
    tol = (1e-6 if dt == np.float32 else 1e-12) if tol is None else tol
    return dict(m=m, mode=enum_value("numgpu_sshopm_mode", mode, "mode"),
                shift_kind=enum_value("numgpu_sshopm_shift", shift, "shift"), alpha=alpha, tol=tol, maxit=maxit)


def sshopm(A, m, *, X0=None, nstarts=None, mode="convex", shift="safe", alpha=0.0, tol=None, maxit=1000,
           handle=None):
    """Eigenpairs A·x^(m-1) = λ·x, ‖x‖ = 1 of real symmetric tensors by the shifted symmetric
    higher-order power method, from many starts (numgpu_sshopm / numgpu_dsshopm).

    A: the compressed tensor(s), (U,) or (ntensors, U), U = C(m+n-1, m) unique entries in
    lexicographic index order (`sym_pack` makes them). X0: starts (nstarts, n) shared by every
    tensor or (ntensors, nstarts, n); or None with `nstarts`: drawn from the handle's seed.
    mode: "convex" (local maxima) or "concave"; shift: "fixed" (alpha), "safe" or "adaptive";
    tol: the stopping test on λ (default 1e-6 for float32, 1e-12 for float64).
    Returns SshopmResult(lam, X, iters, flags), shapes (ntensors, nstarts[, n]) (no tensor
    axis for a single A); flags 0 converged, 1 maxit, 2 underflow, 3 non-finite.
    """
    ctx = Ctx(handle, A=A, X0=X0)
    dt, a, n, nt = _tensors(ctx, m)
    x0, sx0, ns = _starts(ctx, dt, n, nt, nstarts)
    lam, x = ctx.out("lambda", (nt, ns), dt), ctx.out("X", (nt, ns, n), dt)
    iters, flags = ctx.out("iters", (nt, ns), I32), ctx.out("flags", (nt, ns), I32)
    ctx.run(f"numgpu_{_NAMES[dt]}shopm", n=n, ntensors=nt, A=a.view, strideA=a.bstride if a.batch else a.n,
            nstarts=ns, X0=x0, strideX0=sx0, **_common(dt, m, mode, shift, alpha, tol, maxit),
            **{"lambda": lam}, X=x, iters=iters, flags=flags)
    one = a.batch is None
    return SshopmResult(*(v.obj[0] if one else v.obj for v in (lam, x, iters, flags)))


def sshopm_unique(A, m, *, X0=None, nstarts=None, mode="convex", shift="safe", alpha=0.0, tol=None, maxit=1000,
                  merge_tol=None, kmax=8, handle=None):
    """The distinct eigenpairs of each tensor: `sshopm`, then the converged starts merged
    (|Δλ| <= merge_tol·max(1, |λ|) and x within merge_tol, ±x for even m) into at most kmax
    pairs per tensor, most-reached first, stored by decreasing λ (numgpu_?sshopm_unique);
    merge_tol defaults to 1e-2 (float32) or 1e-4 (float64).
    Returns SshopmUniqueResult(count, lam, X, mult, pair_type): lam (ntensors, kmax) NaN past
    count, X (ntensors, kmax, n), mult the starts per pair, pair_type 1 local max, -1 local
    min, 0 other."""
    ctx = Ctx(handle, A=A, X0=X0)
    dt, a, n, nt = _tensors(ctx, m)
    x0, sx0, ns = _starts(ctx, dt, n, nt, nstarts)
    count = ctx.out("count", (nt,), I32)
    lam, x = ctx.out("lambda", (nt, kmax), dt), ctx.out("X", (nt, kmax, n), dt)
    mult, ptype = ctx.out("mult", (nt, kmax), I32), ctx.out("pair_type", (nt, kmax), I32)
    ctx.run(f"numgpu_{_NAMES[dt]}shopm_unique", n=n, ntensors=nt, A=a.view, strideA=a.bstride if a.batch else a.n,
            nstarts=ns, X0=x0, strideX0=sx0, **_common(dt, m, mode, shift, alpha, tol, maxit), merge_tol=(1e-2 if dt == np.float32 else 1e-4) if merge_tol is None else merge_tol,
            kmax=kmax, count=count, **{"lambda": lam}, X=x, mult=mult, pair_type=ptype)
    one = a.batch is None
    return SshopmUniqueResult(*(v.obj[0] if one else v.obj for v in (count, lam, x, mult, ptype)))


def sym_apply(A, x, m, p, *, handle=None):
    """y_t = A_t·x_t^m (p = 0), A_t·x_t^(m-1) (p = 1, n values) or A_t·x_t^(m-2) (p = 2, the
    n x n matrix) for compressed symmetric tensors (numgpu_?sym_apply). A: (U,) or
    (ntensors, U); x: (n,) shared or (ntensors, n). Returns (ntensors,) + (n,)*p."""
    ctx = Ctx(handle, A=A, x=x)
    dt, a, n, nt = _tensors(ctx, m)
    xv = ctx.vec("x", dt)
    if xv.n != n:
        raise ValueError(f"numgpu.sym_apply: x must have n = {n} entries, not {xv.n}")
    y = ctx.out("y", (nt,) + (n,) * p, dt)
    ctx.run(f"numgpu_{'s' if dt == np.float32 else 'd'}sym_apply", m=m, n=n, p=p, ntensors=nt, A=a.view,
            strideA=a.bstride if a.batch else a.n, x=xv.view, strideX=xv.bstride if xv.batch else 0, y=y,
            strideY=n ** p)
    return y.obj[0] if a.batch is None else y.obj


__all__ = ["sshopm", "sshopm_unique", "sym_pack", "sym_unpack", "sym_apply", "unique_entries", "SshopmResult",
           "SshopmUniqueResult"]
