"""Tridiagonal families: gtsv (SPIKE for one large system, batches strided or interleaved)
and stebz/stecount (eigenvalues of symmetric tridiagonal matrices by bisection)."""

from collections import namedtuple

import numpy as np

from . import _arrays as arr
from ._arrays import I32, I64, PREFIX, REALS
from ._core import Ctx, batch_of, bstride, enum_value, squeeze
from ._dense import SolveResult, _columns, _inout, _result


def _diagonals(ctx, dt, batch):
    """dl, d, du as vectors with one stride between systems (the C routine takes one
    stride_diag): host diagonals of different strides are packed into one buffer, device ones
    must already share it."""
    dl, d, du = ctx.vec("dl", dt), ctx.vec("d", dt), ctx.vec("du", dt)
    n = d.n
    for name, v in (("dl", dl), ("du", du)):
        if v.n != max(n - 1, 0):
            raise ValueError(f"numgpu.gtsv: {name} must have n - 1 = {max(n - 1, 0)} entries per system, not {v.n}")
    strides = {bstride(v, batch) for v in (dl, d, du)}
    if len(strides) == 1 or batch == 1:
        return dl, d, du, strides.pop() if len(strides) == 1 else 0
    if d.view.device is not None:
        raise ValueError("numgpu.gtsv: dl, d and du must have one batch stride (the C routine's stride_diag), e.g. "
                         "d = T[:, 0, :], dl = T[:, 1, :n-1], du = T[:, 2, :n-1] of one (batch, 3, n) array")
    buf = np.zeros((batch, 3 * n), dt)
    for k, v in enumerate((d, dl, du)):
        buf[:, k * n: k * n + v.n] = np.broadcast_to(np.asarray(arr._host(v.view.obj)).reshape(-1, v.n), (batch, v.n))
    ctx.host_copies.append(buf)
    for k, name in enumerate(("d", "dl", "du")):
        ctx.v[name] = arr.view(buf[:, k * n: k * n + (n if k == 0 else max(n - 1, 0))], name)
    return ctx.vec("dl", dt), ctx.vec("d", dt), ctx.vec("du", dt), 3 * n


def gtsv(dl, d, du, B, *, pivoting="diag_pivot", overwrite_b=False, handle=None):
    """Solves tridiagonal systems T·X = B, as LAPACK ?gtsv with the diagonals left unchanged.

    One system (d of shape (n,), B (n,) or (n, nrhs)) runs numgpu_?gtsv_spike (SPIKE on CUDA,
    for large n); a batch (d (batch, n), dl and du (batch, n-1), B (batch, n, nrhs) or a single
    T for a batch of B) runs numgpu_?gtsv_batched_strided. pivoting: "diag_pivot" (stable) or
    "nopivot" (diagonally dominant T; CUDA only, the CPU always pivots). Returns
    SolveResult(X, info): info > 0 where a pivot was exactly zero (X_i = B_i unchanged).
    """
    B, vector = _columns(B)
    ctx = Ctx(handle, d=d, dl=dl, du=du, B=B)
    dt = ctx.dtype("dl", "d", "du", "B")
    b = _inout(ctx, "X", "B", dt, overwrite_b)
    piv = enum_value("numgpu_gtsv_pivoting", pivoting, "pivoting")
    batch, batched = batch_of(ctx.vec("d", dt), ctx.vec("dl", dt), ctx.vec("du", dt), b)
    dlv, dv, duv, sdiag = _diagonals(ctx, dt, batch)
    if b.rows != dv.n:
        raise ValueError(f"numgpu.gtsv: B has {b.rows} rows, T is {dv.n} x {dv.n}")
    info = ctx.out("info", (batch,), I32)
    if not batched:
        ctx.run(f"numgpu_{PREFIX[dt]}gtsv_spike", n=dv.n, nrhs=b.cols, dl=dlv.view, d=dv.view, du=duv.view,
                B=b.view, ldb=b.ld, info=info, pivoting=piv)
    else:
        ctx.run(f"numgpu_{PREFIX[dt]}gtsv_batched_strided", n=dv.n, nrhs=b.cols, dl=dlv.view, d=dv.view,
                du=duv.view, stride_diag=sdiag, B=b.view, ldb=b.ld, strideB=bstride(b, batch), info=info,
                batch=batch, pivoting=piv)
    return SolveResult(_result(ctx, "B" if overwrite_b else "X", vector), squeeze(info.obj, batched))


def gtsv_interleaved(dl, d, du, B, *, pivoting="diag_pivot", overwrite_b=False, handle=None):
    """Solves a batch of tridiagonal systems with one right-hand side each in the interleaved
    layout of ADI codes (numgpu_?gtsv_batched_interleaved): every array is C-contiguous with
    one column per system, element k of system i at [k, i]: d and B (n, batch), dl and du
    (n - 1, batch), LAPACK's diagonals (T_i(k+1, k) = dl[k, i], T_i(k, k+1) = du[k, i]).
    cuSPARSE's gtsvInterleavedBatch arrays, padded to n rows, go in as dl[1:] and du[:-1]
    (contiguous row slices: no copy). Returns SolveResult(X, info), X of shape (n, batch)."""
    ctx = Ctx(handle, d=d, dl=dl, du=du, B=B)
    dt = ctx.dtype("dl", "d", "du", "B")
    dv = ctx.flat("d", dt)
    if dv.ndim != 2:
        raise ValueError(f"numgpu.gtsv_interleaved: d must be (n, batch), not of shape {dv.shape}")
    n, batch = dv.shape
    off = max(n - 1, 0) * batch
    dlv, duv = ctx.flat("dl", dt, size=off), ctx.flat("du", dt, size=off)
    if overwrite_b:
        b = ctx.flat("B", dt, write=True, size=n * batch)
    else:
        ctx.flat("B", dt, size=n * batch)
        b = ctx.copy_of("X", "B", dt, kind="vec").view
    info = ctx.out("info", (batch,), I32)
    ctx.run(f"numgpu_{PREFIX[dt]}gtsv_batched_interleaved", n=n, dl=dlv, d=dv, du=duv, B=b, info=info, batch=batch,
            pivoting=enum_value("numgpu_gtsv_pivoting", pivoting, "pivoting"))
    return SolveResult(b.obj, info.obj)


# ---- stebz / stecount ---------------------------------------------------------------------------

StebzResult = namedtuple("StebzResult", "w m info")

_SELECT = {"a": "all", "all": "all", "v": "value", "value": "value", "i": "index", "index": "index"}


def _tridiagonal(ctx, dt):
    d, e = ctx.vec("d", dt), ctx.vec("e", dt)
    if e.n != max(d.n - 1, 0):
        raise ValueError(f"numgpu: e must have n - 1 = {max(d.n - 1, 0)} entries per matrix, not {e.n}")
    return d, e


def stebz(d, e, *, select="a", select_range=None, tol=0.0, handle=None):
    """Eigenvalues of symmetric tridiagonal matrices by bisection, as LAPACK ?stebz with
    ORDER = 'E' (numgpu_?stebz_batched); arguments as scipy.linalg.eigvalsh_tridiagonal.

    d: (n,) or (batch, n) diagonals; e: (n-1,) or (batch, n-1) off-diagonals (a single one
    is shared). select: "a" (all), "v" (those in the half-open interval (lo, hi] of
    select_range) or "i" (the lo-th through hi-th smallest, 0-based, inclusive). tol: absolute
    tolerance (<= 0: LAPACK's default). Returns StebzResult(w, m, info): w (batch, n)
    ascending, entries m[i]..n-1 NaN; m (int64) the number found; info 0, k eigenvalues not
    converged, or n + 1 for a non-finite T_i.
    """
    ctx = Ctx(handle, d=d, e=e)
    dt = ctx.dtype("d", "e", allowed=REALS)
    dv, ev = _tridiagonal(ctx, dt)
    n = dv.n
    batch, batched = batch_of(dv, ev)
    kind = _SELECT.get(str(select).lower())
    if kind is None:
        raise ValueError(f"numgpu.stebz: select must be 'a', 'v' or 'i', not {select!r}")
    vl = vu = 0.0
    il, iu = (1, 0) if n == 0 else (1, n)
    if kind != "all":
        if select_range is None:
            raise ValueError(f"numgpu.stebz: select={select!r} needs select_range")
        lo, hi = select_range
        if kind == "value":
            vl, vu = float(lo), float(hi)
        else:
            il, iu = int(lo) + 1, int(hi) + 1
    w = ctx.out("w", (batch, n), dt, fill=float("nan"))
    m, info = ctx.out("m", (batch,), I64), ctx.out("info", (batch,), I32)
    ctx.run(f"numgpu_{PREFIX[dt]}stebz_batched", range=enum_value("numgpu_stebz_range", kind, "select"), n=n,
            vl=vl, vu=vu, il=il, iu=iu, abstol=float(tol), d=dv.view, strideD=bstride(dv, batch), e=ev.view,
            strideE=bstride(ev, batch), m=m, w=w, strideW=n, info=info, batch=batch)
    return StebzResult(squeeze(w.obj, batched), squeeze(m.obj, batched), squeeze(info.obj, batched))


def stecount(d, e, mu, *, handle=None):
    """Sturm counts: the number of eigenvalues of each symmetric tridiagonal T_i below each
    shift mu[j] (numgpu_?stecount_batched). d, e as for `stebz`; mu: (nmu,). Returns int64
    counts of shape (batch, nmu) ((nmu,) for one matrix); -1 where T_i or mu[j] is not finite."""
    ctx = Ctx(handle, d=d, e=e, mu=mu)
    dt = ctx.dtype("d", "e", "mu", allowed=REALS)
    dv, ev = _tridiagonal(ctx, dt)
    muv = ctx.flat("mu", dt)
    batch, batched = batch_of(dv, ev)
    count = ctx.out("count", (batch, muv.size), I64)
    ctx.run(f"numgpu_{PREFIX[dt]}stecount_batched", n=dv.n, d=dv.view, strideD=bstride(dv, batch), e=ev.view,
            strideE=bstride(ev, batch), nmu=muv.size, mu=muv, count=count, batch=batch)
    return squeeze(count.obj, batched)


__all__ = ["gtsv", "gtsv_interleaved", "stebz", "stecount", "StebzResult"]
