"""Handles, and the context of one high-level call: its arrays as views in one memory space,
its handle, its stream, the dtype, the outputs it makes, the C call by name."""

import ctypes
import threading
from collections import namedtuple

import numpy as np

from . import _arrays as arr
from . import _lib



class CObject:
    """A C object numgpu made (a handle, a plan, a matrix, an ODE): `ptr` its address, released
    once by `close()` (the class's _DESTROY = (C function, parameter name)), by a `with`
    block, or when collected."""

    _DESTROY = None
    ptr = None

    def _live(self):
        if self.ptr is None:
            raise ValueError(f"{type(self).__module__.split('.')[0]}.{type(self).__name__}: it is closed")
        return self.ptr

    def close(self):
        """Releases the C object (after its pending work); a second close does nothing."""
        if self.ptr is not None:
            p, self.ptr = self.ptr, None
            fname, param = self._DESTROY
            _lib.call(fname, **{param: p})

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        # Not released here: the collector may run in the middle of another call (see
        # _lib.defer_destroy); the next call releases it.
        if self.ptr is not None:
            p, self.ptr = self.ptr, None
            _lib.defer_destroy(self._DESTROY[0], p)


class Handle(CObject):
    """A numgpu handle: a backend ("auto", "cpu" or "cuda") and, on CUDA, a device, a stream
    and a workspace (numgpu_create_with). Use it from one thread at a time; close it with
    `close()` or a `with` block (it is also closed when collected).

    "auto" is CUDA when a usable device exists, else the CPU; the environment variable
    NUMGPU_BACKEND=cpu|cuda overrides it. Every function takes ``handle=``; without one it
    uses `default_handle()` for host arrays and a CUDA handle of the arrays' device for
    device arrays.
    """

    _DESTROY = ("numgpu_destroy", "h")

    def __init__(self, backend="auto", device=0):
        backends = _short_names("numgpu_backend")  # {"auto": 0, "cpu": 1, "cuda": 2}, from the header
        if backend not in backends:
            raise ValueError(f"numgpu.Handle: backend must be one of {', '.join(backends)}, not {backend!r}")
        p = ctypes.c_void_p()
        _lib.call("numgpu_create_with", h=ctypes.byref(p), backend=backends[backend], device=int(device))
        self.ptr = p.value
        self.device = int(device)
        self._stream = 0       # the stream set on the library handle now
        self.stream = 0        # the stream host-array calls use (set_stream)
        b = ctypes.c_int32()
        _lib.call("numgpu_get_backend", h=self.ptr, backend=ctypes.byref(b))
        self.backend_name = _lib.call("numgpu_backend_name", backend=b.value).decode()

    def set_stream(self, stream):
        """The CUDA stream (a cudaStream_t as an int, 0 for the legacy default) of later calls
        on host arrays; calls on device arrays run on the caller's current stream."""
        self.stream = int(stream or 0)

    def current_stream(self):
        """The stream the library handle enqueues device-array calls on now
        (numgpu_get_stream): the last call's, as an int (0: the default stream)."""
        p = ctypes.c_void_p()
        _lib.call("numgpu_get_stream", h=self._live(), stream=ctypes.byref(p))
        return p.value or 0

    def _use_stream(self, stream):
        if stream != self._stream:
            _lib.call("numgpu_set_stream", h=self._live(), cuda_stream=stream or None)
            self._stream = stream

    def set_seed(self, seed):
        """Seed of the handle's reproducible random draws (sshopm's starts when X0 is None)."""
        _lib.call("numgpu_set_seed", h=self._live(), seed=int(seed))

    def set_math_mode(self, mode):
        """Single-precision GEMM's arithmetic on CUDA (numgpu_set_math_mode): "default" (exact
        FP32), "3xtf32" (FP32 accuracy on the TF32 tensor cores) or "tf32" (10-bit mantissas);
        double precision and the CPU backend are exact in every mode. The bounds are in the
        header's numgpu_math_mode."""
        modes = _short_names("numgpu_math_mode")  # {"default": 0, "3xtf32": 1, "tf32": 2}
        if mode not in modes:
            raise ValueError(f"numgpu.Handle.set_math_mode: mode must be one of {', '.join(modes)}, not {mode!r}")
        _lib.call("numgpu_set_math_mode", h=self._live(), mode=modes[mode])

    def math_mode(self):
        """The handle's math mode (numgpu_get_math_mode), as set_math_mode names it."""
        m = ctypes.c_int32()
        _lib.call("numgpu_get_math_mode", h=self._live(), mode=ctypes.byref(m))
        return {v: k for k, v in _short_names("numgpu_math_mode").items()}[m.value]

    def synchronize(self):
        """Waits for the work enqueued through the handle (numgpu_synchronize); raises an
        asynchronous failure of an earlier call."""
        _lib.call("numgpu_synchronize", h=self._live())

    def __repr__(self):
        state = "closed" if self.ptr is None else f"{self.backend_name}, device {self.device}"
        return f"numgpu.Handle({state})"


_default = threading.local()


def default_handle(device=None):
    """This thread's default handle: for host arrays (device None) a handle on backend "auto"
    (NUMGPU_BACKEND decides), for arrays of CUDA device k a CUDA handle on device k. Made on
    first use, one per thread (a handle serves one thread at a time)."""
    handles = getattr(_default, "handles", None)
    if handles is None:
        handles = _default.handles = {}
    h = handles.get(device)
    if h is None or h.ptr is None:
        h = handles[device] = Handle("auto", 0) if device is None else Handle("cuda", device)
    return h


def set_default_handle(handle, device=None):
    """Makes `handle` this thread's default for host arrays (device None) or for arrays of
    CUDA device `device`."""
    default_handle(device)  # makes the table
    _default.handles[device] = handle


def _p(ptr):
    return ctypes.c_void_p(ptr).value


Mat = namedtuple("Mat", "view batch rows cols ld bstride")
Mat.__doc__ = """A matrix argument: its view, its batch (None for a single matrix), its order,
leading dimension and batch stride, in elements."""

Vec = namedtuple("Vec", "view batch n bstride")


def _bad_layout(name, what, device):
    hint = (" (for a C-ordered torch tensor, pass A.mT.contiguous().mT; for CuPy, "
            "cupy.asfortranarray per matrix)") if device is not None else ""
    return ValueError(f"numgpu: {name} must be {what}{hint}")


class Ctx:
    """One call: `Ctx(handle, A=A, B=B)` views every array given (None is left out), checks
    they share one memory space and picks the handle, the stream and where outputs go."""

    def __init__(self, handle, **arrays):
        self.v = {k: arr.view(x, k) for k, x in arrays.items() if x is not None}
        spaces = {}
        for k, v in self.v.items():
            spaces.setdefault(v.device, k)
        if len(spaces) > 1:
            desc = ", ".join(f"{k}: {'host' if d is None else f'cuda:{d}'}" for d, k in spaces.items())
            raise ValueError(f"numgpu: the arrays of one call must all be host memory or all on one device ({desc})")
        self.device = next(iter(spaces), None)
        first = self._first = next(iter(self.v.values()), None)
        self._ns = None
        self.handle = handle if handle is not None else default_handle(self.device)
        self.stream = arr.current_stream(first) if self.device is not None else self.handle.stream
        self.host_copies = []

    @property
    def ns(self):
        """Where this call's outputs are made: the library of its first array."""
        if self._ns is None:
            self._ns = arr.namespace(self._first) if self._first is not None else arr._Numpy()
            if self._ns is None:
                raise TypeError(f"numgpu: cannot make outputs next to a {type(self._first.obj).__name__}: "
                                "install CuPy or PyTorch, or pass the output arrays")
        return self._ns

    # ---- dtypes ----

    def dtype(self, *names, allowed=arr.FLOATS):
        """The element type of a call from its arrays `names`: host arrays promote as NumPy
        does (integers to float64); device arrays must all have one allowed dtype."""
        vs = [(k, self.v[k]) for k in names if k in self.v]
        if not vs:
            return allowed[1] if len(allowed) > 1 else allowed[0]
        if self.device is None:
            dt = np.result_type(*(v.dtype for _, v in vs))
            if dt.kind in "biu":
                dt = np.dtype(np.float64)
            elif dt == np.float16:
                dt = np.dtype(np.float32)
            if dt not in allowed:
                ok = ", ".join(str(a) for a in allowed)
                raise TypeError(f"numgpu: {'/'.join(k for k, _ in vs)} of dtype {dt}: this routine takes {ok}")
            return dt
        k0, v0 = vs[0]
        for k, v in vs:
            if v.dtype not in allowed:
                raise TypeError(f"numgpu: {k} has dtype {v.dtype}; this routine takes {', '.join(str(a) for a in allowed)}")
            if v.dtype != v0.dtype:
                raise TypeError(f"numgpu: {k} has dtype {v.dtype} but {k0} has {v0.dtype}; device arrays are never converted")
        return v0.dtype

    # ---- arguments ----

    def _host_input(self, name, dtype, fix):
        """A host copy of input `name` as `dtype`, laid out by `fix` (an ndarray function)."""
        v = self.v[name]
        a = np.asarray(arr._host(v.obj), dtype=dtype)
        a = fix(a)
        self.host_copies.append(a)
        self.v[name] = nv = arr.view(a, name)
        return nv

    def _check_dtype(self, name, v, dtype, write):
        if v.dtype == dtype:
            return True
        if v.device is not None or write:
            what = "device arrays are never converted" if v.device is not None else "it is written in place"
            raise TypeError(f"numgpu: {name} has dtype {v.dtype}, {dtype} expected ({what})")
        return False

    def mat(self, name, dtype, write=False):
        """Matrix argument `name` (rows, cols) or (batch, rows, cols), column-major within
        each matrix; a host input of another dtype or layout is copied to one."""
        v = self.v[name]
        if v.ndim not in (2, 3):
            raise ValueError(f"numgpu: {name} must be a matrix (rows, cols) or a batch (batch, rows, cols), not of shape {v.shape}")
        ok = self._check_dtype(name, v, dtype, write) and self._colmajor(v)
        if not ok:
            if v.device is not None or write:
                raise _bad_layout(name, "column-major within each matrix (unit stride down a column, "
                                  f"non-negative strides), not strides {v.strides}", v.device)
            v = self._host_input(name, dtype, lambda a: np.ascontiguousarray(a.swapaxes(-1, -2)).swapaxes(-1, -2))
        r, c = v.shape[-2:]
        ld = max(v.strides[-1] if c > 1 and v.size else r, 1)
        if v.ndim == 2:
            return Mat(v, None, r, c, ld, ld * c)
        return Mat(v, v.shape[0], r, c, ld, v.strides[0] if v.size else ld * c)

    @staticmethod
    def _colmajor(v):
        if v.size == 0:
            return True  # nothing is read or written: any strides will do
        r, c = v.shape[-2:]
        sr, sc = v.strides[-2:]
        if any(s < 0 for s in v.strides):
            return False
        if r > 1 and sr != 1:
            return False
        return c <= 1 or sc >= max(r, 1)

    def vec(self, name, dtype, write=False):
        """Vector argument `name`: (n,) or a batch (batch, n), unit stride along n."""
        v = self.v[name]
        if v.ndim not in (1, 2):
            raise ValueError(f"numgpu: {name} must be a vector (n,) or a batch (batch, n), not of shape {v.shape}")
        n = v.shape[-1]
        good = v.size == 0 or (all(s >= 0 for s in v.strides) and (n <= 1 or v.strides[-1] == 1))
        if not (self._check_dtype(name, v, dtype, write) and good):
            if v.device is not None or write:
                raise _bad_layout(name, f"unit-stride along its last axis, not strides {v.strides}", v.device)
            v = self._host_input(name, dtype, np.ascontiguousarray)
        if v.ndim == 2:
            return Vec(v, v.shape[0], n, v.strides[0] if v.size else n)
        return Vec(v, None, n, n)

    def flat(self, name, dtype, write=False, size=None):
        """Array argument `name` read as one C-contiguous run of elements (pivots, info, a
        tensor); `size`, when given, is the number of elements required."""
        v = self.v[name]
        contiguous = v.size == 0 or all(st == c for st, c, n in zip(v.strides, arr._c_strides(v.shape), v.shape) if n > 1)
        if not (self._check_dtype(name, v, dtype, write) and contiguous):
            if v.device is not None or write:
                raise _bad_layout(name, f"C-contiguous, not strides {v.strides}", v.device)
            v = self._host_input(name, dtype, np.ascontiguousarray)
        if size is not None and v.size != size:
            raise ValueError(f"numgpu: {name} has {v.size} elements, {size} expected (shape {v.shape})")
        return v

    def is_given(self, name):
        return name in self.v

    # ---- outputs ----

    def out_mat(self, name, batch, rows, cols, dtype):
        """A new matrix output (column-major in each matrix), registered as `name`."""
        shape = (rows, cols) if batch is None else (batch, rows, cols)
        self.v[name] = arr.view(self.ns.colmajor(shape, dtype), name)
        return self.mat(name, dtype, write=True)

    def out(self, name, shape, dtype, fill=None):
        """A new C-contiguous output, filled with `fill` when given."""
        obj = self.ns.empty(shape, dtype) if fill is None else self.ns.full(shape, fill, dtype)
        self.v[name] = v = arr.view(obj, name)
        return v

    def copy_of(self, name, src_name, dtype, kind="mat"):
        """A new output `name` holding a copy of input `src_name` (for routines that overwrite
        their input when the caller keeps it), made in the input's library on its device; any
        layout of the input will do (the copy is laid out right), a device input must have
        the call's dtype."""
        v = self.v[src_name]
        if kind == "mat" and v.ndim not in (2, 3):
            raise ValueError(f"numgpu: {src_name} must be a matrix (rows, cols) or a batch (batch, rows, cols), not of shape {v.shape}")
        if v.device is not None:
            self._check_dtype(src_name, v, dtype, False)
        obj = self.ns.colmajor(v.shape, dtype) if kind == "mat" else self.ns.empty(v.shape, dtype)
        self.ns.assign(obj, v.obj)
        self.v[name] = arr.view(obj, name)
        return self.mat(name, dtype, write=True) if kind == "mat" else self.vec(name, dtype, write=True)

    # ---- the call ----

    def run(self, fname, **args):
        """Calls `fname` by parameter name on this call's handle and stream."""
        h = self.handle
        h._use_stream(self.stream if self.device is not None else h.stream)
        return _lib.call(fname, h=h._live(), **args)


def batch_of(*items):
    """The batch of a call from its matrix/vector arguments (None entries skipped): the common
    batch of the batched ones (a batch of 1 broadcasts), and whether any was batched."""
    sizes = [(it.view, it.batch) for it in items if it is not None and it.batch is not None]
    if not sizes:
        return 1, False
    b = max(s for _, s in sizes)
    for v, s in sizes:
        if s not in (1, b):
            raise ValueError(f"numgpu: batch sizes {sorted({s for _, s in sizes})} do not broadcast")
    return b, True


def bstride(item, batch):
    """The batch stride to pass for `item` in a call of `batch` problems: 0 broadcasts a single
    matrix (or a batch of one) over the batch."""
    if item.batch in (None, 1):
        return 0 if batch > 1 else (item.ld * item.cols if isinstance(item, Mat) else item.n)
    return item.bstride


def squeeze(obj, batched):
    """The output as the caller gave the inputs: without its batch axis when none had one."""
    return obj if batched else obj[0]


def _short_names(enum_name):
    """The enumerators of an enum without their common prefix, lower case:
    numgpu_gtsv_pivoting -> {"diag_pivot": 0, "nopivot": 1}."""
    from . import _signatures as sig
    names = [n for n, _ in sig.ENUMS[enum_name]]
    prefix = names[0]
    for n in names[1:]:
        while not n.startswith(prefix):
            prefix = prefix[:-1]
    prefix = prefix[: prefix.rfind("_") + 1]
    return {n[len(prefix):].lower(): v for n, v in sig.ENUMS[enum_name]}


def enum_value(enum_name, value, what):
    """An enum argument given as its short name ("lower", "T"; any case), an int or an enum
    member; the names come from the header."""
    if isinstance(value, str):
        names = _short_names(enum_name)
        if value.lower() not in names:
            raise ValueError(f"numgpu: {what} must be one of {', '.join(map(repr, names))}, not {value!r}")
        return names[value.lower()]
    return int(value)
