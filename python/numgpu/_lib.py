"""The low level: the shared library, bound through ctypes from the generated table
(_signatures.py, made from include/numgpu.h by `make header`), called by parameter name.

No C signature is typed here. `call("numgpu_dgemm_batched_strided", h=..., m=..., ...)`
orders the named arguments as the header declares them, converts each to its C type, and
raises `numgpu.Error` on a failed status; a parameter that moves in the header costs nothing.
"""

import ctypes
import ctypes.util
import enum
import os
import shutil
import subprocess
import threading
from collections import namedtuple
from pathlib import Path

from . import _signatures as sig

# ---- finding the library -------------------------------------------------------------------

_REPO = Path(__file__).resolve().parent.parent.parent


def _pkg_config_libdir():
    exe = shutil.which("pkg-config")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "--variable=libdir", "numgpu"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def _candidates():
    """(what was tried, a path or name for CDLL or None), in the documented order."""
    env = os.environ.get("NUMGPU_LIBRARY")
    yield "NUMGPU_LIBRARY", env or None
    libdir = _pkg_config_libdir()
    yield "pkg-config --variable=libdir numgpu", os.path.join(libdir, "libnumgpu.so") if libdir else None
    yield 'ctypes.util.find_library("numgpu")', ctypes.util.find_library("numgpu")
    for profile in ("release", "debug"):
        path = _REPO / "target" / profile / "libnumgpu.so"
        yield str(path), str(path) if path.exists() else None


def _load():
    tried = []
    for what, path in _candidates():
        if path is None:
            tried.append(f"{what}: not set or not found")
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{what}: {path}: {e}")
            if what == "NUMGPU_LIBRARY":
                # An explicit choice that fails is not silently replaced by another library.
                break
    raise ImportError("numgpu: cannot load libnumgpu.so. Tried:\n  " + "\n  ".join(tried)
                      + "\nSet NUMGPU_LIBRARY to its path, or install numgpu (make install).")


_dll, LIBRARY_PATH = _load()

# ---- C types from the table ------------------------------------------------------------------

_SCALARS = {
    "int32_t": ctypes.c_int32, "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64,
    "size_t": ctypes.c_size_t, "float": ctypes.c_float, "double": ctypes.c_double,
    "char": ctypes.c_char, "void": None,
}
_structs = {}
_callbacks = {}


def resolve(base):
    """A base type name with typedef aliases resolved (`numgpu_op` -> `int32_t`)."""
    while base in sig.ALIASES and sig.ALIASES[base][1] == 0:
        base = sig.ALIASES[base][0]
    return base


def struct_type(name):
    """The ctypes.Structure of a struct typedef of the header, made once from its fields."""
    if name not in _structs:
        fields = [(f, scalar_type(t)) for f, t in sig.STRUCTS[name]]
        _structs[name] = type(name, (ctypes.Structure,), {"_fields_": fields})
    return _structs[name]


def callback_type(name):
    """The ctypes CFUNCTYPE of a function-pointer typedef of the header."""
    if name not in _callbacks:
        ret, params = sig.CALLBACKS[name]
        _callbacks[name] = ctypes.CFUNCTYPE(scalar_type(ret), *(scalar_type(t) for _, t in params))
    return _callbacks[name]


def scalar_type(t):
    """The ctypes type of a table C type (base, levels, const)."""
    base, levels, _ = t
    base = resolve(base)
    if levels == 1 and base == "char":
        return ctypes.c_char_p
    if levels > 0:
        return ctypes.c_void_p
    if base in sig.STRUCTS:
        return struct_type(base)
    if base in sig.CALLBACKS:
        return callback_type(base)
    if base in _SCALARS:
        return _SCALARS[base]
    raise TypeError(f"numgpu: the C type {base} of the header has no ctypes counterpart")


def enum_of(base):
    """The enum a parameter's type names, when the header names it (None for a plain int)."""
    return base if base in sig.ENUMS else None


# ---- status and errors -------------------------------------------------------------------------

Status = enum.IntEnum("Status", [(n[len("NUMGPU_"):], v) for n, v in sig.ENUMS["numgpu_status"]])
Status.__doc__ = "numgpu_status: what an entry point returned."

Arg = namedtuple("Arg", "position name")
Arg.__doc__ = "The argument a failed call rejected: its 1-based C position and its name."


class Error(Exception):
    """A numgpu call failed.

    - ``status``: a `Status` (never SUCCESS);
    - ``arg``: `Arg(position, name)` of the argument rejected (position 1-based, as
      `numgpu_last_error_arg`; name from the header), or None when the failure names none;
    - ``message``: `numgpu_last_error`'s text, e.g.
      "numgpu_dgemm_batched_strided: argument 9 (lda = 3) must be >= max(1, m) = 4";
    - ``function``: the C entry point called.

    Subclasses per status (`InvalidValueError`, ...) let callers catch one kind.
    """

    def __init__(self, status, arg, message, function=None):
        super().__init__(status, arg, message)
        self.status = status
        self.arg = arg
        self.message = message
        self.function = function

    def __str__(self):
        where = f" (argument {self.arg.position}, {self.arg.name})" if self.arg else ""
        return f"{self.status.name}{where}: {self.message}"


class InvalidValueError(Error, ValueError):
    """NUMGPU_INVALID_VALUE: an argument was invalid; nothing was written."""


class NotSupportedError(Error):
    """NUMGPU_NOT_SUPPORTED: valid arguments this build, backend or index type cannot serve."""


class BackendUnavailableError(Error):
    """NUMGPU_BACKEND_UNAVAILABLE: no usable CUDA driver or device."""


class AllocFailedError(Error, MemoryError):
    """NUMGPU_ALLOC_FAILED: memory could not be allocated; the handle stays usable."""


class ExecutionFailedError(Error):
    """NUMGPU_EXECUTION_FAILED: a kernel or driver call failed while running."""


class CompileFailedError(Error):
    """NUMGPU_COMPILE_FAILED: NVRTC could not compile a kernel (the log is in the message)."""


class InternalError(Error):
    """NUMGPU_INTERNAL_ERROR: a bug in numgpu."""


_ERROR_CLASSES = {
    Status.INVALID_VALUE: InvalidValueError, Status.NOT_SUPPORTED: NotSupportedError,
    Status.BACKEND_UNAVAILABLE: BackendUnavailableError, Status.ALLOC_FAILED: AllocFailedError,
    Status.EXECUTION_FAILED: ExecutionFailedError, Status.COMPILE_FAILED: CompileFailedError,
    Status.INTERNAL_ERROR: InternalError,
}

# ---- binding and calling by name -----------------------------------------------------------------

_bound = {}
_bind_lock = threading.Lock()


def function(name):
    """The ctypes function of the header's `name`, argtypes and restype from the table."""
    f = _bound.get(name)
    if f is None:
        with _bind_lock:
            if name not in sig.FUNCTIONS:
                raise AttributeError(f"numgpu: {name} is not in include/numgpu.h")
            ret, params = sig.FUNCTIONS[name]
            try:
                f = getattr(_dll, name)
            except AttributeError:
                raise AttributeError(f"numgpu: {name} is in the header but not in {LIBRARY_PATH} "
                                     "(an older library?)") from None
            f.argtypes = [scalar_type(t) for _, t in params]
            f.restype = scalar_type(ret)
            _bound[name] = f
    return f


def params(name):
    """The parameters of a function: ((name, (base, levels, const)), ...)."""
    return sig.FUNCTIONS[name][1]


def last_error():
    """(message, 1-based argument position) of this thread's last failed call."""
    n = function("numgpu_last_error")(None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    function("numgpu_last_error")(buf, n + 1)
    return buf.value.decode("utf-8", "replace"), function("numgpu_last_error_arg")()


def check(name, status):
    """Raises the Error of a failed status of `name` (message and argument from the library)."""
    if status == 0:
        return
    message, position = last_error()
    ps = params(name)
    arg = Arg(position, ps[position - 1][0]) if 0 < position <= len(ps) else None
    try:
        st = Status(status)
    except ValueError:
        st = Status.INTERNAL_ERROR
    raise _ERROR_CLASSES.get(st, Error)(st, arg, message, name)


def _convert(value, t, pname, fname):
    """One Python argument as the ctypes value of the C type t."""
    base, levels, _ = t
    if levels > 0:
        if value is None:
            return None
        ptr = getattr(value, "ptr", value)  # an array view (numgpu._arrays.View) or a raw address
        if isinstance(ptr, (ctypes._Pointer, ctypes.c_void_p, ctypes.c_char_p)) or type(ptr).__name__ == "CArgObject":
            return ptr
        if isinstance(ptr, ctypes.Array) or isinstance(ptr, ctypes.Structure):
            return ctypes.cast(ctypes.pointer(ptr), ctypes.c_void_p)
        if isinstance(ptr, (bytes, bytearray)):  # a C string (an ODE's CUDA source)
            return ctypes.c_char_p(bytes(ptr))
        return ctypes.c_void_p(int(ptr))
    ct = scalar_type(t)
    base = resolve(base)
    if base in sig.STRUCTS and not isinstance(value, ct):
        fields = [f for f, _ in sig.STRUCTS[base]]
        if fields == ["re", "im"]:
            z = complex(value)
            return ct(z.real, z.imag)
        raise TypeError(f"{fname}: argument {pname} must be a {base}")
    if isinstance(value, enum.Enum):
        value = value.value
    return value


# C objects whose Python owner was collected: released at the start of the next call, never
# from the collector itself, which may run inside any call's error handling (a successful
# destroy there would clear this thread's last error before it is read) or on another thread.
_deferred = []


def defer_destroy(fname, ptr):
    """Queues the destroy function `fname` (one pointer parameter) of `ptr` for the next call on
    any thread (a list append is atomic)."""
    _deferred.append((fname, ptr))


def _flush_deferred():
    while _deferred:
        try:
            fname, ptr = _deferred.pop()
        except IndexError:
            return
        function(fname)(ptr)  # its status is not anyone's to report


def call(fname, **args):
    """Calls the entry point `fname` with its arguments by name; raises Error on failure.

    Pointers take None (NULL), an int address, a ctypes object or anything with a ``ptr``
    attribute (an array view); complex structs take Python numbers; enums take ints or enum
    members. A missing or unknown name is a TypeError naming it.
    """
    ps = params(fname)
    names = [n for n, _ in ps]
    unknown = set(args) - set(names)
    if unknown:
        raise TypeError(f"{fname} has no parameter {', '.join(sorted(unknown))} (parameters: {', '.join(names)})")
    missing = [n for n in names if n not in args]
    if missing:
        raise TypeError(f"{fname}: missing argument {', '.join(missing)}")
    values = [_convert(args[n], t, n, fname) for n, t in ps]
    if _deferred:
        _flush_deferred()
    result = function(fname)(*values)
    ret = sig.FUNCTIONS[fname][0]
    if ret[1] == 0 and ret[0] == "numgpu_status":
        check(fname, result)
    return result


def version():
    """The library's version string (numgpu_version)."""
    return function("numgpu_version")().decode()
