"""Sparse matrix-vector products: csrmv on CSR arrays, and CMRS matrices (built once,
multiplied many times)."""

import ctypes
import sys
from collections import namedtuple

from . import _lib
from ._arrays import I32, PREFIX, REALS
from ._core import CObject, Ctx, enum_value

CSR = namedtuple("CSR", "data indices indptr shape")
CSR.__doc__ = """A CSR matrix as scipy.sparse.csr_matrix((data, indices, indptr), shape) takes it:
values, int32 column indices, int32 row offsets (len m + 1), (m, n)."""


def as_csr(A):
    """The CSR parts of A: a `CSR`, a 4-tuple in its order, a scipy.sparse CSR matrix/array or
    a torch sparse CSR tensor (int32 indices)."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(A, torch.Tensor):
        if A.layout != torch.sparse_csr:
            raise TypeError("numgpu: a torch sparse matrix must have layout torch.sparse_csr")
        return CSR(A.values(), A.col_indices(), A.crow_indices(), tuple(A.shape))
    if hasattr(A, "indptr") and hasattr(A, "indices"):
        if getattr(A, "format", "csr") != "csr":
            raise TypeError(f"numgpu: a scipy sparse matrix must be CSR (A.tocsr()), not {A.format}")
        return CSR(A.data, A.indices, A.indptr, tuple(A.shape))
    return CSR(*A)


def csrmv(A, x, y=None, *, trans="N", alpha=1.0, beta=0.0, index_base=0, handle=None):
    """y := alpha·op(A)·x + beta·y for a CSR matrix A (numgpu_?csrmv).

    A: see `as_csr` (indices `index_base`-based, int32). trans: "N" (x has n entries, y m),
    "T" or "C" (Aᵀ / Aᴴ: x has m entries, y n; on CUDA a scatter with atomics, so not bitwise
    reproducible). y: None for a new vector (beta then not used), or updated in place and
    returned. Bad structure is an InvalidValueError naming row_ptr or col_ind (on device arrays
    at the next synchronize, unless NUMGPU_CHECK_INPUTS=1).
    """
    csr = as_csr(A)
    m, n = csr.shape
    ctx = Ctx(handle, x=x, val=csr.data, row_ptr=csr.indptr, col_ind=csr.indices, y=y)
    dt = ctx.dtype("val", "x", "y")
    op = enum_value("numgpu_op", trans, "trans")
    nx, ny = (n, m) if op == 0 else (m, n)
    val = ctx.flat("val", dt)
    rp, ci = ctx.flat("row_ptr", I32, size=m + 1), ctx.flat("col_ind", I32, size=val.size)
    xv = ctx.flat("x", dt, size=nx)
    if y is None:
        yv, beta = ctx.out("y", (ny,), dt), 0.0
    else:
        yv = ctx.flat("y", dt, write=True, size=ny)
    ctx.run(f"numgpu_{PREFIX[dt]}csrmv", trans=op, m=m, n=n, nnz=val.size, alpha=alpha, val=val, row_ptr=rp,
            col_ind=ci, index_base=index_base, x=xv, beta=beta, y=yv)
    return yv.obj


class CMRSMatrix(CObject):
    """A sparse matrix in Compressed Multi-Row Storage, built once from CSR on a handle's
    backend (numgpu_?cmrs_create; real float32/float64 only) and multiplied many times by
    `matvec` (numgpu_?cmrsmv, bitwise reproducible). height: rows per strip (0: 16); M: partial
    sums per row (0: chosen, else 2, 4 or 8). Close it with `close()` or a `with` block."""

    _DESTROY = ("numgpu_cmrs_destroy", "A")

    def __init__(self, A, *, height=0, M=0, index_base=0, handle=None):
        csr = as_csr(A)
        m, n = csr.shape
        ctx = Ctx(handle, val=csr.data, row_ptr=csr.indptr, col_ind=csr.indices)
        self.dtype = ctx.dtype("val", allowed=REALS)
        val = ctx.flat("val", self.dtype)
        rp, ci = ctx.flat("row_ptr", I32, size=m + 1), ctx.flat("col_ind", I32, size=val.size)
        p = ctypes.c_void_p()
        ctx.run(f"numgpu_{PREFIX[self.dtype]}cmrs_create", m=m, n=n, nnz=val.size, val=val, row_ptr=rp, col_ind=ci,
                index_base=index_base, height=height, M=M, A=ctypes.byref(p))
        self.ptr, self.shape, self.nnz, self.handle = p.value, (m, n), val.size, ctx.handle

    def matvec(self, x, y=None, *, alpha=1.0, beta=0.0, handle=None):
        """y := alpha·A·x + beta·y; y None for a new vector. The handle must be of the
        matrix's backend and device (default: the one it was built on)."""
        m, n = self.shape
        ctx = Ctx(handle or self.handle, x=x, y=y)
        xv = ctx.flat("x", self.dtype, size=n)
        if y is None:
            yv, beta = ctx.out("y", (m,), self.dtype), 0.0
        else:
            yv = ctx.flat("y", self.dtype, write=True, size=m)
        ctx.run(f"numgpu_{PREFIX[self.dtype]}cmrsmv", alpha=alpha, A=self._live(), x=xv, beta=beta, y=yv)
        return yv.obj

    def update_values(self, data, *, handle=None):
        """Replaces the values (nnz, in the order of the CSR arrays it was built from)."""
        ctx = Ctx(handle or self.handle, val=data)
        ctx.run(f"numgpu_{PREFIX[self.dtype]}cmrs_update_values", A=self._live(),
                val=ctx.flat("val", self.dtype, size=self.nnz))

    def info(self):
        """(height, M, padding_ratio): what the matrix chose when it was built."""
        hh, mm, pr = ctypes.c_int32(), ctypes.c_int32(), ctypes.c_double()
        _lib.call("numgpu_cmrs_info", A=self._live(), height=ctypes.byref(hh), M=ctypes.byref(mm),
                  padding_ratio=ctypes.byref(pr))
        return hh.value, mm.value, pr.value


__all__ = ["CSR", "as_csr", "csrmv", "CMRSMatrix"]
