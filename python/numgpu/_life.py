"""LiFE (Linear Fascicle Evaluation): a plan of the sparse tensor Φ, the products y = M·w
(DSC) and w = Mᵀ·y (WC), and the non-negative fit by SBBNNLS; double precision."""

import ctypes
from collections import namedtuple

import numpy as np

from . import _lib
from ._arrays import I32
from ._core import CObject, Ctx, default_handle

F64 = np.dtype(np.float64)
NNLSResult = namedtuple("NNLSResult", "w iters objective")


class LifePlan(CObject):
    """Φ (natoms x nvoxels x nfibers, nnz COO entries) laid out once on a handle's backend
    (numgpu_life_plan_create): M = Φ ×₁ D is the (ntheta·nvoxels) x nfibers matrix of the
    products. atoms, voxels, fibers: int32 indices (index_base 0 or 1); values: float64. The
    input arrays may be freed afterwards. `LifePlan.from_subs` takes MATLAB's sptensor subs.
    Close it with `close()` or a `with` block.
    """

    _DESTROY = ("numgpu_life_plan_destroy", "p")

    def __init__(self, ntheta, natoms, nvoxels, nfibers, atoms, voxels, fibers, values, *, index_base=0,
                 handle=None):
        ctx = Ctx(handle, values=values, atoms=atoms, voxels=voxels, fibers=fibers)
        vals = ctx.flat("values", F64)
        idx = {k: ctx.flat(k, I32, size=vals.size) for k in ("atoms", "voxels", "fibers")}
        self._create(ctx, "numgpu_life_plan_create", ntheta, natoms, nvoxels, nfibers, vals.size, values=vals,
                     index_base=index_base, **idx)

    @classmethod
    def from_subs(cls, ntheta, natoms, nvoxels, nfibers, subs, values, *, handle=None):
        """A plan from LiFE's `fe.life.M.Phi`: subs (nnz x 3, 1-based (atom, voxel, fibre),
        float64, column-major as MATLAB stores it: pass Phi.subs as read) and values
        (numgpu_life_plan_create_subs)."""
        self = cls.__new__(cls)
        ctx = Ctx(handle, values=values, subs=subs)
        vals = ctx.flat("values", F64)
        s = ctx.v["subs"]
        if s.ndim == 2 and s.shape == (vals.size, 3) and s.strides[0] == 1 and s.strides[1] == max(vals.size, 1):
            sv = s  # column-major nnz x 3: the C layout as it is
        else:
            sv = ctx.flat("subs", F64, size=3 * vals.size) if s.ndim == 1 else None
            if sv is None:
                if s.device is not None:
                    raise ValueError("numgpu.LifePlan.from_subs: device subs must be (nnz, 3) column-major or (3·nnz,)")
                ctx._host_input("subs", F64, lambda a: np.asfortranarray(a).reshape(-1, order="F"))
                sv = ctx.flat("subs", F64, size=3 * vals.size)
        self._create(ctx, "numgpu_life_plan_create_subs", ntheta, natoms, nvoxels, nfibers, vals.size, subs=sv,
                     values=vals)
        return self

    def _create(self, ctx, fname, ntheta, natoms, nvoxels, nfibers, nnz, **arrays):
        p = ctypes.c_void_p()
        ctx.run(fname, ntheta=ntheta, natoms=natoms, nvoxels=nvoxels, nfibers=nfibers, nnz=nnz, p=ctypes.byref(p),
                **arrays)
        self.ptr, self.handle = p.value, ctx.handle
        self.ntheta, self.natoms, self.nvoxels, self.nfibers, self.nnz = ntheta, natoms, nvoxels, nfibers, nnz

    def _ctx(self, handle, **arrays):
        ctx = Ctx(handle or (self.handle if self.handle.ptr is not None else default_handle()), **arrays)
        if ctx.device is not None and ctx.handle is self.handle and self.handle.backend_name == "cpu":
            raise ValueError("numgpu.LifePlan: device arrays need a plan made on a CUDA handle")
        return ctx

    def mw(self, D, w, Y=None, *, beta=0.0, handle=None):
        """DSC, the signal prediction: Y := beta·Y + M·w (numgpu_dlife_mw). D: the dictionary
        (ntheta, natoms); w: (nfibers,); Y: None for a new (ntheta, nvoxels) array, else updated
        in place. Returns Y."""
        ctx = self._ctx(handle, D=D, w=w, Y=Y)
        d, wv = ctx.mat("D", F64), ctx.flat("w", F64, size=self.nfibers)
        if Y is None:
            y, beta = ctx.out_mat("Y", None, self.ntheta, self.nvoxels, F64), 0.0
        else:
            y = ctx.mat("Y", F64, write=True)
        ctx.run("numgpu_dlife_mw", p=self._live(), D=d.view, ldd=d.ld, w=wv, beta=beta, Y=y.view, ldy=y.ld)
        return y.view.obj

    def mty(self, D, Y, w=None, *, beta=0.0, handle=None):
        """WC, the weight gradient product: w := beta·w + Mᵀ·Y (numgpu_dlife_mty). Returns w."""
        ctx = self._ctx(handle, D=D, Y=Y, w=w)
        d, y = ctx.mat("D", F64), ctx.mat("Y", F64)
        if w is None:
            wv, beta = ctx.out("w", (self.nfibers,), F64), 0.0
        else:
            wv = ctx.flat("w", F64, write=True, size=self.nfibers)
        ctx.run("numgpu_dlife_mty", p=self._live(), D=d.view, ldd=d.ld, Y=y.view, ldy=y.ld, beta=beta, w=wv)
        return wv.obj

    def sbbnnls(self, D, b, w=None, *, max_iters=500, tol=0.0, handle=None):
        """Fits min ½‖M·w − b‖² subject to w >= 0 by SBBNNLS (numgpu_dlife_sbbnnls). b: the
        demeaned signal (ntheta, nvoxels); w: None (start from zeros) or the start, updated in
        place. Returns NNLSResult(w, iters, objective)."""
        ctx = self._ctx(handle, D=D, b=b, w=w)
        d, bv = ctx.mat("D", F64), ctx.mat("b", F64)
        wv = ctx.out("w", (self.nfibers,), F64, fill=0.0) if w is None else ctx.flat("w", F64, write=True,
                                                                                    size=self.nfibers)
        iters, obj = ctypes.c_int32(), ctypes.c_double()
        ctx.run("numgpu_dlife_sbbnnls", p=self._live(), D=d.view, ldd=d.ld, b=bv.view, ldb=bv.ld, w=wv,
                max_iters=max_iters, tol=tol, iters=ctypes.byref(iters), objective=ctypes.byref(obj))
        return NNLSResult(wv.obj, iters.value, obj.value)

    def info(self):
        """(ntheta, natoms, nvoxels, nfibers, nnz) as the library holds them."""
        vals = [ctypes.c_int64() for _ in range(5)]
        names = ("ntheta", "natoms", "nvoxels", "nfibers", "nnz")
        _lib.call("numgpu_life_plan_info", p=self._live(), **{k: ctypes.byref(v) for k, v in zip(names, vals)})
        return tuple(v.value for v in vals)


__all__ = ["LifePlan", "NNLSResult"]
