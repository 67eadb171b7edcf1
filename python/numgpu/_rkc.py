"""Many small ODE systems at once: RKC (moderately stiff) or Cash-Karp (non-stiff), on a
built-in problem, a CUDA source (integrated on the GPU) or a Python right-hand side
(integrated on the host's cores, whatever the handle's backend)."""

import ctypes
import threading
from collections import namedtuple

import numpy as np

from . import _arrays as arr
from . import _lib
from . import _signatures as _sig
from ._arrays import I32, I64
from ._core import CObject, Ctx, default_handle, enum_value

RKCResult = namedtuple("RKCResult", "Y status stats")

# Counters per system of `stats` (NUMGPU_RKC_NSTATS, the last value of numgpu_rkc_stat).
_NSTATS = dict(_sig.ENUMS["numgpu_rkc_stat"])["NUMGPU_RKC_NSTATS"]

# (neq of a size, parameters): the built-in problems as include/numgpu.h documents them.
_BUILTIN = {
    "heat": (lambda size: size, 1),
    "brusselator": (lambda size: size, 3),
    "lorenz": (lambda size: 3, 3),
    "plei": (lambda size: 28, 0),
}


class ODE(CObject):
    """An ODE system y' = f(t, y; p) of `neq` equations and `npar` parameters per system
    (numgpu_ode_create): `rhs`, a Python function f(t, y, p, dydt) writing dydt (NumPy arrays
    over the C memory), called from several threads at once (it must be reentrant; it holds
    the GIL, so it serialises); optionally `spcrad(t, y, p)`, a bound on the Jacobian's
    spectral radius; and/or `cuda_source`, CUDA C++ defining
    `__device__ void numgpu_rhs(double t, const double *y, const double *p, double *dydt)`.
    On a CUDA handle an ODE with a CUDA source is integrated on the GPU, one with only a
    Python right-hand side on the host's cores (device arrays copied there and back). `ODE.builtin(name, size)` makes a built-in problem. Close it with
    `close()` or a `with` block; it must outlive the calls that use it.
    """

    _DESTROY = ("numgpu_ode_destroy", "ode")

    def __init__(self, neq, npar=0, *, rhs=None, spcrad=None, cuda_source=None, handle=None):
        self.neq, self.npar, self.error = int(neq), int(npar), None
        self._lock = threading.Lock()
        self._rhs = self._spcrad = None
        if rhs is not None:
            self._rhs = _lib.callback_type("numgpu_ode_rhs")(self._rhs_trampoline(rhs))
        if spcrad is not None:
            self._spcrad = _lib.callback_type("numgpu_ode_spcrad")(self._spcrad_trampoline(spcrad))
        p = ctypes.c_void_p()
        src = cuda_source.encode() if cuda_source is not None else None
        _lib.call("numgpu_ode_create", h=(handle or default_handle())._live(), neq=self.neq, npar=self.npar,
                  cuda_source=src, host_rhs=self._rhs or ctypes.cast(None, _lib.callback_type("numgpu_ode_rhs")),
                  host_spcrad=self._spcrad or ctypes.cast(None, _lib.callback_type("numgpu_ode_spcrad")),
                  user=None, ode=ctypes.byref(p))
        self.ptr = p.value

    @classmethod
    def builtin(cls, name, size=0, *, handle=None):
        """A built-in problem (numgpu_ode_builtin): "heat" (size interior points, 1 parameter
        D), "brusselator" (size equations, even; A, B, α), "lorenz" (3; σ, R, b), "plei" (28)."""
        if name not in _BUILTIN:
            raise ValueError(f"numgpu.ODE.builtin: name must be one of {', '.join(_BUILTIN)}, not {name!r}")
        self = cls.__new__(cls)
        neq, npar = _BUILTIN[name]
        self.neq, self.npar, self.error, self._rhs, self._spcrad = neq(size), npar, None, None, None
        self._lock = threading.Lock()
        p = ctypes.c_void_p()
        _lib.call("numgpu_ode_builtin", h=(handle or default_handle())._live(),
                  which=enum_value("numgpu_ode_problem", name, "name"), size=size, ode=ctypes.byref(p))
        self.ptr = p.value
        return self

    def _arrays(self, y, p):
        yv = np.ctypeslib.as_array(ctypes.cast(y, ctypes.POINTER(ctypes.c_double)), (self.neq,))
        yv.flags.writeable = False
        pv = np.ctypeslib.as_array(ctypes.cast(p, ctypes.POINTER(ctypes.c_double)), (self.npar,)) if self.npar else np.empty(0)
        return yv, pv

    def _fail(self, e):
        with self._lock:
            if self.error is None:
                self.error = e

    def _rhs_trampoline(self, f):
        def rhs(t, y, p, dydt, neq, user):
            out = np.ctypeslib.as_array(ctypes.cast(dydt, ctypes.POINTER(ctypes.c_double)), (neq,))
            try:
                f(t, *self._arrays(y, p), out)
            except BaseException as e:  # noqa: BLE001 (raised again after the call)
                self._fail(e)
                out[:] = np.nan  # the system stops with status 4
        return rhs

    def _spcrad_trampoline(self, f):
        def spcrad(t, y, p, neq, user):
            try:
                return float(f(t, *self._arrays(y, p)))
            except BaseException as e:  # noqa: BLE001
                self._fail(e)
                return float("nan")
        return spcrad

def _layout(ctx, name, width, prefer=0):
    """(view, layout, ld) of an (nsys, width) array: rows contiguous is system-major (0),
    columns contiguous equation-major (1, a transposed view of a (width, nsys) array); an
    array that is both (one row or one column) takes `prefer`."""
    v = ctx.v[name]
    if v.ndim != 2 or v.shape[1] != width:
        raise ValueError(f"numgpu.rkc_integrate: {name} must be (nsys, {width}), not of shape {v.shape}")
    nsys = v.shape[0]
    fits = {0: (width <= 1 or v.strides[1] == 1) and min(v.strides) >= 0,
            1: (nsys <= 1 or v.strides[0] == 1) and min(v.strides) >= 0}
    ld = {0: max(v.strides[0] if nsys > 1 else width, width, 1), 1: max(v.strides[1] if width > 1 else nsys, nsys, 1)}
    for layout in (prefer, 1 - prefer):
        if fits[layout]:
            return v, layout, ld[layout]
    return v, None, None


def rkc_integrate(ode, Y, t0, tend, *, P=None, rtol=1e-6, atol=1e-6, method="rkc", spectral="auto", h0=0.0,
                  hmax=0.0, max_steps=0, max_stages=0, state=None, stats=False, overwrite_y=False, handle=None):
    """Integrates nsys independent systems of `ode` from t0 to tend (numgpu_rkc_integrate).

    Y: (nsys, neq), y_i(t0) in row i; rows contiguous (system-major) or columns contiguous
    (equation-major, coalesced on the GPU: pass Yt.T of an (neq, nsys) array). P: (nsys,
    npar) parameters in the same layout (a host P is copied to it). atol: a scalar or neq
    values. method "rkc" or "rkck"; spectral "auto", "estimate", "user" or "constant"; h0,
    hmax, max_steps, max_stages as numgpu_rkc_options (0: defaults). state: None, or a
    (nsys, 6 + neq) float64 array for warm restarts (zeros for a cold start), updated.
    stats: also return the (nsys, NUMGPU_RKC_NSTATS) int64 counters, columns as the header's
    numgpu_rkc_stat (RHS evaluations, steps, accepted, rejected, power-method evaluations,
    stages, the backend that integrated the system). overwrite_y: integrate Y in place.
    Returns RKCResult(Y, status, stats): status 0 reached tend, 1 step too small, 2 max_steps,
    3 σ did not converge, 4 non-finite, 5 zero error weight. An exception raised by a Python
    right-hand side is raised again here (its systems stop with status 4).
    """
    ctx = Ctx(handle, Y=Y, P=P, state=state)
    f64 = np.dtype(np.float64)
    y, layout, ldy = _layout(ctx, "Y", ode.neq)
    nsys = y.shape[0]
    if overwrite_y:
        ctx._check_dtype("Y", y, f64, True)
        if layout is None:
            raise ValueError("numgpu.rkc_integrate: Y (overwrite_y) must have its rows or its columns contiguous")
    else:
        if y.device is not None:
            ctx._check_dtype("Y", y, f64, False)
        out = ctx.ns.empty((ode.neq, nsys), f64).T if layout == 1 else ctx.ns.empty((nsys, ode.neq), f64)
        ctx.ns.assign(out, y.obj)
        ctx.v["Y"] = arr.view(out, "Y")
        y, layout, ldy = _layout(ctx, "Y", ode.neq)
    p, ldp = None, 1
    if ode.npar:
        if P is None:
            raise ValueError(f"numgpu.rkc_integrate: the ODE has {ode.npar} parameters per system: P is required")
        p, play, ldp = _layout(ctx, "P", ode.npar, prefer=layout)
        if play != layout or p.shape[0] != nsys or not ctx._check_dtype("P", p, f64, False):
            if p.device is not None:
                raise ValueError("numgpu.rkc_integrate: P must be (nsys, npar) in Y's layout (rows or columns contiguous)")
            ctx._host_input("P", f64, np.asfortranarray if layout == 1 else np.ascontiguousarray)
            p, _, ldp = _layout(ctx, "P", ode.npar, prefer=layout)
    if not hasattr(atol, "shape") or isinstance(atol, np.ndarray):
        atol = ctx.ns.from_host(np.atleast_1d(np.asarray(atol, f64)))
    ctx.v["atol"] = arr.view(atol, "atol")
    av = ctx.flat("atol", f64)
    st = ctx.flat("state", f64, write=True, size=nsys * (6 + ode.neq)) if state is not None else None
    status = ctx.out("status", (nsys,), I32)
    counters = ctx.out("stats", (nsys, _NSTATS), I64) if stats else None
    opts = _lib.struct_type("numgpu_rkc_options")()
    _lib.call("numgpu_rkc_options_default", opts=ctypes.byref(opts))
    opts.method = enum_value("numgpu_rkc_method", method, "method")
    opts.spectral = enum_value("numgpu_rkc_spectral", spectral, "spectral")
    opts.h0, opts.hmax, opts.max_steps, opts.max_stages = h0, hmax, max_steps, max_stages
    ode.error = None
    ctx.run("numgpu_rkc_integrate", ode=ode._live(), nsys=nsys, t0=float(t0), tend=float(tend), Y=y, ldy=ldy,
            layout=layout, P=p, ldp=ldp, rtol=float(rtol), atol=av, natol=av.size, opts=ctypes.byref(opts),
            state=st, status=status, stats=counters)
    if ode.error is not None:
        raise ode.error
    return RKCResult(y.obj, status.obj, counters.obj if stats else None)


__all__ = ["ODE", "rkc_integrate", "RKCResult"]
