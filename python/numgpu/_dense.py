"""Dense batched families: gemm_batched, LU with complete pivoting, Givens QR, Cholesky,
Jacobi eigenvalues and SVD, matrix exponentials. Every matrix argument is (rows, cols) or
(batch, rows, cols), column-major within each matrix (see _arrays); a single matrix next to a
batch is broadcast (stride 0) where the C routine allows it."""

import ctypes
from collections import namedtuple

import numpy as np

from . import _arrays as arr
from . import _lib
from ._arrays import I32, PREFIX, real_of
from ._core import Ctx, batch_of, bstride, enum_value, squeeze


def _square(m, name):
    if m.rows != m.cols:
        raise ValueError(f"numgpu: {name} must be square, not {m.rows} x {m.cols}")
    return m.rows


def _columns(B):
    """A right-hand side given as a vector (n,) viewed as one column (n, 1), and whether it was."""
    if not hasattr(B, "shape"):
        B = np.asarray(B)
    return (B[:, None], True) if len(B.shape) == 1 else (B, False)


def _result(ctx, name, was_vector=False):
    obj = ctx.v[name].obj
    return obj[..., 0] if was_vector else obj


def _solve_setup(handle, A, B, factor, overwrite_a, overwrite_b):
    """The common start of a batched solve that overwrites A (with `factor`) and B: the call,
    its dtype, A and B (vectors as columns), the batch, and whether B was a vector."""
    B, vector = _columns(B)
    ctx = Ctx(handle, A=A, B=B)
    dt = ctx.dtype("A", "B")
    a = _inout(ctx, factor, "A", dt, overwrite_a)
    b = _inout(ctx, "X", "B", dt, overwrite_b)
    batch, batched = batch_of(a, b)
    return ctx, dt, a, b, batch, batched, vector


def _inout(ctx, name, src, dtype, overwrite):
    """The matrix a routine overwrites: `src` itself (overwrite=True, laid out right), else a
    new copy `name` of it."""
    return ctx.mat(src, dtype, write=True) if overwrite else ctx.copy_of(name, src, dtype)


# ---- gemm_batched ------------------------------------------------------------------------------


def gemm_batched(A, B, C=None, *, transa="N", transb="N", alpha=1.0, beta=0.0, handle=None):
    """C_i = alpha·op(A_i)·op(B_i) + beta·C_i for each matrix of a batch (numgpu_?gemm_batched_strided).

    A, B: (m, k) / (k, n) matrices or (batch, ., .) batches (after op); a single matrix is
    shared by the whole batch. transa, transb: "N", "T" or "C" (conjugate transpose).
    C: None for a new array (then beta is not used), or the output, updated in place
    (column-major in each matrix, the inputs' dtype) and returned.
    Returns C, (m, n) or (batch, m, n). Device arrays run on the caller's current stream.
    """
    ctx = Ctx(handle, A=A, B=B, C=C)
    dt = ctx.dtype("A", "B", "C")
    a, b = ctx.mat("A", dt), ctx.mat("B", dt)
    ta, tb = enum_value("numgpu_op", transa, "transa"), enum_value("numgpu_op", transb, "transb")
    m, k = (a.rows, a.cols) if ta == 0 else (a.cols, a.rows)
    kb, n = (b.rows, b.cols) if tb == 0 else (b.cols, b.rows)
    if k != kb:
        raise ValueError(f"numgpu.gemm_batched: op(A) is {m} x {k} but op(B) is {kb} x {n}")
    batch, batched = batch_of(a, b)
    if C is None:
        c, beta = ctx.out_mat("C", batch if batched else None, m, n, dt), 0.0
    else:
        c = ctx.mat("C", dt, write=True)
        if (c.rows, c.cols) != (m, n):
            raise ValueError(f"numgpu.gemm_batched: C is {c.rows} x {c.cols}, op(A)·op(B) is {m} x {n}")
        batch, _ = batch_of(a, b, c)
    ctx.run(f"numgpu_{PREFIX[dt]}gemm_batched_strided", transa=ta, transb=tb, m=m, n=n, k=k, alpha=alpha,
            A=a.view, lda=a.ld, strideA=bstride(a, batch), B=b.view, ldb=b.ld, strideB=bstride(b, batch),
            beta=beta, C=c.view, ldc=c.ld, strideC=bstride(c, batch), batch=batch)
    return c.view.obj


# ---- LU with complete pivoting --------------------------------------------------------------------

LUResult = namedtuple("LUResult", "LU ipiv jpiv info")


def getrf(A, *, mode="getc2", overwrite_a=False, handle=None):
    """P·A_i·Q = L·U with complete pivoting, as LAPACK ?getc2, for each matrix of a batch
    (numgpu_?getrf_fullpivot_batched_strided).

    A: (n, n) or (batch, n, n). mode: "getc2" (LAPACK's small-pivot perturbation) or
    "strict". overwrite_a: factor A in place (it must then be column-major, of a float dtype)
    instead of a copy.
    Returns LUResult(LU, ipiv, jpiv, info): L (unit) and U in LU; ipiv, jpiv (int32,
    (batch, n)) the 1-based row and column interchanges; info (int32, (batch,)) 0 or the step
    of a small/zero/non-finite pivot (see the header). The batch axis is dropped for a single A.
    """
    ctx = Ctx(handle, A=A)
    dt = ctx.dtype("A")
    a = _inout(ctx, "LU", "A", dt, overwrite_a)
    n = _square(a, "A")
    batch = a.batch or 1
    ipiv, jpiv = ctx.out("ipiv", (batch, n), I32), ctx.out("jpiv", (batch, n), I32)
    info = ctx.out("info", (batch,), I32)
    ctx.run(f"numgpu_{PREFIX[dt]}getrf_fullpivot_batched_strided", n=n, A=a.view, lda=a.ld,
            strideA=bstride(a, batch), ipiv=ipiv, jpiv=jpiv, info=info, batch=batch,
            mode=enum_value("numgpu_fullpivot_mode", mode, "mode"))
    b = a.batch is not None
    return LUResult(a.view.obj, squeeze(ipiv.obj, b), squeeze(jpiv.obj, b), squeeze(info.obj, b))


def getrs(LU, ipiv, jpiv, B, *, trans="N", overwrite_b=False, handle=None):
    """Solves op(A_i)·X_i = B_i with the factors of `getrf` (numgpu_?getrs_fullpivot_batched_strided).

    LU, ipiv, jpiv: as getrf returned them (one factorisation may serve a batch of B).
    B: (n,), (n, nrhs) or (batch, n, nrhs). trans: "N", "T" or "C". overwrite_b: solve in
    place. Returns X, shaped as B.
    """
    B, vector = _columns(B)
    ctx = Ctx(handle, LU=LU, ipiv=ipiv, jpiv=jpiv, B=B)
    dt = ctx.dtype("LU", "B")
    a = ctx.mat("LU", dt)
    b = _inout(ctx, "X", "B", dt, overwrite_b)
    n = _square(a, "LU")
    batch, _ = batch_of(a, b)
    if a.batch not in (None, 1, batch):
        raise ValueError(f"numgpu.getrs: LU's batch {a.batch} and B's {batch} differ")
    ip, jp = _pivots(ctx, "ipiv", n, batch), _pivots(ctx, "jpiv", n, batch)
    ctx.run(f"numgpu_{PREFIX[dt]}getrs_fullpivot_batched_strided", trans=enum_value("numgpu_op", trans, "trans"),
            n=n, nrhs=b.cols, A=a.view, lda=a.ld, strideA=bstride(a, batch), ipiv=ip, jpiv=jp,
            B=b.view, ldb=b.ld, strideB=bstride(b, batch), batch=batch)
    return _result(ctx, "B" if overwrite_b else "X", vector)


def _pivots(ctx, name, n, batch):
    """Interchanges for `batch` solves: n·batch entries, as the C routine reads them; host
    pivots of one factorisation shared by a batch of B are repeated for it."""
    v = ctx.v[name]
    if v.device is None and v.size == n and batch > 1:
        ctx.v[name] = arr.view(np.tile(np.asarray(arr._host(v.obj), dtype=I32).reshape(-1), batch), name)
    return ctx.flat(name, I32, size=n * batch)


SolveResult = namedtuple("SolveResult", "X info")


def gesv(A, B, *, overwrite_a=False, overwrite_b=False, handle=None):
    """Solves A_i·X_i = B_i by LU with complete pivoting (strict mode)
    (numgpu_?gesv_fullpivot_batched_strided).

    A: (n, n) or (batch, n, n); B: (n,), (n, nrhs) or (batch, n, nrhs). Returns
    SolveResult(X, info): X shaped as B; info (int32) > 0 where A_i is exactly singular or
    not finite (that X_i is B_i unchanged). overwrite_a/overwrite_b: work in place.
    """
    ctx, dt, a, b, batch, batched, vector = _solve_setup(handle, A, B, "LU", overwrite_a, overwrite_b)
    n = _square(a, "A")
    if a.batch not in (None, batch):
        raise ValueError("numgpu.gesv: A must have B's batch (each A_i is factored)")
    ipiv, jpiv = ctx.out("ipiv", (batch, n), I32), ctx.out("jpiv", (batch, n), I32)
    info = ctx.out("info", (batch,), I32)
    ctx.run(f"numgpu_{PREFIX[dt]}gesv_fullpivot_batched_strided", n=n, nrhs=b.cols, A=a.view, lda=a.ld,
            strideA=bstride(a, batch), ipiv=ipiv, jpiv=jpiv, B=b.view, ldb=b.ld, strideB=bstride(b, batch),
            info=info, batch=batch)
    return SolveResult(_result(ctx, "B" if overwrite_b else "X", vector), squeeze(info.obj, batched))


# ---- Givens QR ----------------------------------------------------------------------------------

QRResult = namedtuple("QRResult", "QR CS")


def geqrf(A, *, overwrite_a=False, handle=None):
    """A_i = Q·R by Givens rotations (numgpu_?geqrf_givens_batched_strided), m >= n.

    Returns QRResult(QR, CS): R in QR's upper triangle and the rotations' sines below it; CS
    (real, shaped as A) the cosines below the diagonal (the rest not written). Keep both for
    `orgqr` and `ormqr`.
    """
    ctx = Ctx(handle, A=A)
    dt = ctx.dtype("A")
    a = _inout(ctx, "QR", "A", dt, overwrite_a)
    batch = a.batch or 1
    cs = ctx.out_mat("CS", a.batch, a.rows, a.cols, real_of(dt))
    ctx.run(f"numgpu_{PREFIX[dt]}geqrf_givens_batched_strided", m=a.rows, n=a.cols, A=a.view, lda=a.ld,
            strideA=bstride(a, batch), CS=cs.view, ldcs=cs.ld, strideCS=bstride(cs, batch), batch=batch)
    return QRResult(a.view.obj, cs.view.obj)


def _q_name(dt, what):
    return f"numgpu_{PREFIX[dt]}{'un' if dt.kind == 'c' else 'or'}{what}_givens_batched_strided"


def orgqr(QR, CS, *, k=None, overwrite_a=False, handle=None):
    """The first n columns of the Q of `geqrf` (m x n, n = QR's columns), made of the rotations
    of its first k columns (default n) (numgpu_?orgqr/ungqr_givens_batched_strided)."""
    ctx = Ctx(handle, QR=QR, CS=CS)
    dt = ctx.dtype("QR")
    a = _inout(ctx, "Q", "QR", dt, overwrite_a)
    cs = ctx.mat("CS", real_of(dt))
    batch, _ = batch_of(a, cs)
    ctx.run(_q_name(dt, "gqr"), m=a.rows, n=a.cols, k=a.cols if k is None else k, A=a.view, lda=a.ld,
            strideA=bstride(a, batch), CS=cs.view, ldcs=cs.ld, strideCS=bstride(cs, batch), batch=batch)
    return a.view.obj


def ormqr(QR, CS, C, *, side="left", trans="N", k=None, overwrite_c=False, handle=None):
    """op(Q)·C_i (side "left") or C_i·op(Q) ("right") with the Q of `geqrf`, without forming
    Q (numgpu_?ormqr/unmqr_givens_batched_strided). trans: "N", "T" (real) or "C" (complex);
    k: the factorisation's columns that make Q (default: all of QR's)."""
    ctx = Ctx(handle, QR=QR, CS=CS, C=C)
    dt = ctx.dtype("QR", "C")
    a, cs = ctx.mat("QR", dt), ctx.mat("CS", real_of(dt))
    c = _inout(ctx, "out", "C", dt, overwrite_c)
    batch, _ = batch_of(a, cs, c)
    ctx.run(_q_name(dt, "mqr"), side=enum_value("numgpu_side", side, "side"), trans=enum_value("numgpu_op", trans, "trans"),
            m=c.rows, n=c.cols, k=a.cols if k is None else k, A=a.view, lda=a.ld, strideA=bstride(a, batch),
            CS=cs.view, ldcs=cs.ld, strideCS=bstride(cs, batch), C=c.view, ldc=c.ld, strideC=bstride(c, batch),
            batch=batch)
    return c.view.obj


def gels(A, B, *, overwrite_a=False, overwrite_b=False, handle=None):
    """Least squares min ‖A_i·X − B_i‖₂ by Givens QR, m >= n, full rank
    (numgpu_?gels_givens_batched_strided).

    A: (m, n) or (batch, m, n); B: (m,), (m, nrhs) or (batch, m, nrhs). Returns
    SolveResult(X, info): X the first n rows of the solved B (a view of it); info > 0 where
    R(j, j) is exactly zero (B_i then unchanged). With overwrite_b, B's rows n..m-1 hold the
    residual's coordinates.
    """
    ctx, dt, a, b, batch, batched, vector = _solve_setup(handle, A, B, "QR", overwrite_a, overwrite_b)
    info = ctx.out("info", (batch,), I32)
    ctx.run(f"numgpu_{PREFIX[dt]}gels_givens_batched_strided", m=a.rows, n=a.cols, nrhs=b.cols, A=a.view,
            lda=a.ld, strideA=bstride(a, batch), B=b.view, ldb=b.ld, strideB=bstride(b, batch), info=info,
            batch=batch)
    x = _result(ctx, "B" if overwrite_b else "X", vector)
    return SolveResult(x[..., : a.cols] if vector else x[..., : a.cols, :], squeeze(info.obj, batched))


# ---- Cholesky -----------------------------------------------------------------------------------

FactorResult = namedtuple("FactorResult", "factor info")


def _uplo(lower):
    return 0 if lower else 1  # NUMGPU_UPLO_LOWER, NUMGPU_UPLO_UPPER


def potrf(A, *, lower=True, overwrite_a=False, handle=None):
    """A_i = L·Lᴴ (lower) or Uᴴ·U (upper), as LAPACK ?potrf (numgpu_?potrf_batched_strided).

    Only the triangle `lower` names is read and written; the other holds what A had there.
    Returns FactorResult(factor, info): info > 0 where the leading minor of that order is not
    positive definite.
    """
    ctx = Ctx(handle, A=A)
    dt = ctx.dtype("A")
    a = _inout(ctx, "L", "A", dt, overwrite_a)
    n = _square(a, "A")
    batch = a.batch or 1
    info = ctx.out("info", (batch,), I32)
    ctx.run(f"numgpu_{PREFIX[dt]}potrf_batched_strided", uplo=_uplo(lower), n=n, A=a.view, lda=a.ld,
            strideA=bstride(a, batch), info=info, batch=batch)
    return FactorResult(a.view.obj, squeeze(info.obj, a.batch is not None))


def potrs(L, B, *, lower=True, overwrite_b=False, handle=None):
    """Solves A_i·X = B_i with the Cholesky factor of `potrf` (numgpu_?potrs_batched_strided);
    one factor may serve a batch of B. Returns X, shaped as B."""
    B, vector = _columns(B)
    ctx = Ctx(handle, L=L, B=B)
    dt = ctx.dtype("L", "B")
    a = ctx.mat("L", dt)
    b = _inout(ctx, "X", "B", dt, overwrite_b)
    batch, _ = batch_of(a, b)
    ctx.run(f"numgpu_{PREFIX[dt]}potrs_batched_strided", uplo=_uplo(lower), n=_square(a, "L"), nrhs=b.cols,
            A=a.view, lda=a.ld, strideA=bstride(a, batch), B=b.view, ldb=b.ld, strideB=bstride(b, batch),
            batch=batch)
    return _result(ctx, "B" if overwrite_b else "X", vector)


def posv(A, B, *, lower=True, overwrite_a=False, overwrite_b=False, handle=None):
    """Solves A_i·X_i = B_i for Hermitian positive definite A_i by Cholesky
    (numgpu_?posv_batched_strided). Returns SolveResult(X, info); X_i is B_i unchanged where
    info > 0."""
    ctx, dt, a, b, batch, batched, vector = _solve_setup(handle, A, B, "L", overwrite_a, overwrite_b)
    if a.batch not in (None, batch):
        raise ValueError("numgpu.posv: A must have B's batch (each A_i is factored)")
    info = ctx.out("info", (batch,), I32)
    ctx.run(f"numgpu_{PREFIX[dt]}posv_batched_strided", uplo=_uplo(lower), n=_square(a, "A"), nrhs=b.cols,
            A=a.view, lda=a.ld, strideA=bstride(a, batch), B=b.view, ldb=b.ld, strideB=bstride(b, batch),
            info=info, batch=batch)
    return SolveResult(_result(ctx, "B" if overwrite_b else "X", vector), squeeze(info.obj, batched))


# ---- Jacobi ---------------------------------------------------------------------------------------

EighResult = namedtuple("EighResult", "w Z info sweeps residual")
SVDResult = namedtuple("SVDResult", "S U V info sweeps residual")


def _jacobi_params(tol, max_sweeps, sort):
    return ctypes.byref(_lib.struct_type("numgpu_jacobi_params")(float(tol), int(max_sweeps), 0 if sort else 1))


def _jacobi_outputs(ctx, batch, dt):
    """info, sweeps and residual of a Jacobi call: one entry per matrix."""
    return ctx.out("info", (batch,), I32), ctx.out("sweeps", (batch,), I32), ctx.out("residual", (batch,), real_of(dt))


def syevj(A, *, vectors=True, lower=True, tol=0.0, max_sweeps=0, sort=True, overwrite_a=False, handle=None):
    """Eigenvalues (and vectors) of real symmetric or complex Hermitian matrices by cyclic
    Jacobi (numgpu_?syevj_batched / ?heevj_batched); only the triangle `lower` names is read.

    tol (0: the precision's ε), max_sweeps (0: 100), sort (ascending; False: as the iteration
    leaves them). vectors=False computes values only (A is then not written, nor copied).
    Returns EighResult(w, Z, info, sweeps, residual): w (real, (batch, n)), Z the eigenvectors
    in columns (None without vectors), info 0 converged / 1 not after max_sweeps / 2
    non-finite; sweeps; residual the last sweep's largest scaled off-diagonal entry.
    """
    ctx = Ctx(handle, A=A)
    dt = ctx.dtype("A")
    a = _inout(ctx, "Z", "A", dt, overwrite_a) if vectors else ctx.mat("A", dt)
    n = _square(a, "A")
    batch = a.batch or 1
    w = ctx.out("w", (batch, n), real_of(dt))
    info, sweeps, residual = _jacobi_outputs(ctx, batch, dt)
    name = f"numgpu_{PREFIX[dt]}{'heevj' if dt.kind == 'c' else 'syevj'}_batched"
    ctx.run(name, jobz=int(bool(vectors)), uplo=_uplo(lower), n=n, A=a.view, lda=a.ld, strideA=bstride(a, batch),
            w=w, strideW=n, params=_jacobi_params(tol, max_sweeps, sort), info=info, sweeps=sweeps,
            residual=residual, batch=batch)
    b = a.batch is not None
    return EighResult(squeeze(w.obj, b), a.view.obj if vectors else None, squeeze(info.obj, b),
                      squeeze(sweeps.obj, b), squeeze(residual.obj, b))


heevj = syevj


def gesvdj(A, *, compute_uv=True, tol=0.0, max_sweeps=0, sort=True, handle=None):
    """Economy SVD A_i = U·diag(S)·Vᴴ by one-sided Jacobi (numgpu_?gesvdj_batched); A is only
    read. Returns SVDResult(S, U, V, info, sweeps, residual): S (real, (batch, k),
    k = min(m, n)), U (m x k) and V (n x k, V itself, not Vᴴ) or None without compute_uv."""
    ctx = Ctx(handle, A=A)
    dt = ctx.dtype("A")
    a = ctx.mat("A", dt)
    m, n = a.rows, a.cols
    k = min(m, n)
    batch = a.batch or 1
    s = ctx.out("S", (batch, k), real_of(dt))
    u = ctx.out_mat("U", batch, m, k, dt) if compute_uv else None
    v = ctx.out_mat("V", batch, n, k, dt) if compute_uv else None
    info, sweeps, residual = _jacobi_outputs(ctx, batch, dt)
    uv = {"U": None, "ldu": 1, "strideU": 0, "V": None, "ldv": 1, "strideV": 0}
    if compute_uv:
        uv = {"U": u.view, "ldu": u.ld, "strideU": u.bstride, "V": v.view, "ldv": v.ld, "strideV": v.bstride}
    ctx.run(f"numgpu_{PREFIX[dt]}gesvdj_batched", jobu=int(bool(compute_uv)), jobv=int(bool(compute_uv)), m=m, n=n,
            A=a.view, lda=a.ld, strideA=bstride(a, batch), S=s, strideS=k,
            params=_jacobi_params(tol, max_sweeps, sort), info=info, sweeps=sweeps, residual=residual,
            batch=batch, **uv)
    b = a.batch is not None
    return SVDResult(squeeze(s.obj, b), squeeze(u.view.obj, b) if compute_uv else None,
                     squeeze(v.view.obj, b) if compute_uv else None, squeeze(info.obj, b),
                     squeeze(sweeps.obj, b), squeeze(residual.obj, b))


# ---- matrix exponentials ----------------------------------------------------------------------------

ExpmResult = namedtuple("ExpmResult", "E info")


def expm(A, *, handle=None):
    """exp(A_i) by scaling and squaring with Padé approximants (numgpu_?expm_batched).
    Returns ExpmResult(E, info): info 1 (non-finite A_i), 2 (singular Padé denominator) or 3
    (overflow) mark the problems whose E_i is not exp(A_i)."""
    ctx = Ctx(handle, A=A)
    dt = ctx.dtype("A")
    a = ctx.mat("A", dt)
    m = _square(a, "A")
    batch = a.batch or 1
    e = ctx.out_mat("E", batch, m, m, dt)
    info = ctx.out("info", (batch,), I32)
    ctx.run(f"numgpu_{PREFIX[dt]}expm_batched", m=m, A=a.view, lda=a.ld, strideA=bstride(a, batch),
            E=e.view, lde=e.ld, strideE=e.bstride, info=info, batch=batch)
    b = a.batch is not None
    return ExpmResult(squeeze(e.view.obj, b), squeeze(info.obj, b))


def expm_eig(E, lam, Einv, t, *, handle=None):
    """P_i = E·diag(exp(lam·t_i))·Einv for many times t_i: the transition matrices of a
    diagonalised generator (numgpu_?expm_eig_batched). E, Einv: (m, m) or (batch, m, m); lam:
    (m,) or (batch, m) (a single one is shared); t: (batch,) real. Complex E for complex
    eigenvalues. Returns P, (batch, m, m)."""
    ctx = Ctx(handle, E=E, lam=lam, Einv=Einv, t=t)
    dt = ctx.dtype("E", "lam", "Einv")
    e, ei, lv = ctx.mat("E", dt), ctx.mat("Einv", dt), ctx.vec("lam", dt)
    tv = ctx.flat("t", real_of(dt))
    m = _square(e, "E")
    batch = tv.size
    for item in (e, ei, lv):
        if item.batch not in (None, 1, batch):
            raise ValueError(f"numgpu.expm_eig: a batch of {item.batch} next to {batch} times")
    p = ctx.out_mat("P", batch, m, m, dt)
    ctx.run(f"numgpu_{PREFIX[dt]}expm_eig_batched", m=m, E=e.view, lde=e.ld, strideE=bstride(e, batch),
            **{"lambda": lv.view}, strideL=bstride(lv, batch), Einv=ei.view, ldei=ei.ld,
            strideEinv=bstride(ei, batch), t=tv, P=p.view, ldp=p.ld, strideP=p.bstride, batch=batch)
    return p.view.obj


__all__ = ["gemm_batched", "getrf", "getrs", "gesv", "geqrf", "orgqr", "ormqr", "gels", "potrf", "potrs",
           "posv", "syevj", "heevj", "gesvdj", "expm", "expm_eig", "LUResult", "SolveResult", "QRResult",
           "FactorResult", "EighResult", "SVDResult", "ExpmResult"]
