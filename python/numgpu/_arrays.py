"""Arrays in, arrays out: NumPy arrays (host memory) and device arrays (PyTorch, CuPy, any
`__cuda_array_interface__` or DLPack object) seen as (address, shape, element strides,
dtype, device), without copying a device array; outputs made by the library of the inputs.

The matrix mapping (docs/python.md): a matrix argument is an array of shape (rows, cols) or a
batch (batch, rows, cols) whose element (i, j) is A[..., i, j], laid out column-major within
each matrix: unit stride down a column, the column stride is the leading dimension, the batch
stride is the C routine's stride (0 broadcasts one matrix over the batch). A Fortran-ordered
matrix, a C-ordered array's `.mT` / `.swapaxes(-1, -2)` view and a padded view all qualify.
Host inputs of another layout or dtype are copied to one that qualifies (as NumPy would);
device arrays and arrays the routine writes never are: they raise naming the argument.
"""

import ctypes
import sys

import numpy as np


FLOATS = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128))
REALS = FLOATS[:2]
I32 = np.dtype(np.int32)
I64 = np.dtype(np.int64)

# The precision letter of each element type, as in the C names.
PREFIX = {FLOATS[0]: "s", FLOATS[1]: "d", FLOATS[2]: "c", FLOATS[3]: "z"}


def real_of(dtype):
    """float32 for float32 and complex64, float64 for float64 and complex128."""
    return np.dtype(np.float32) if dtype in (FLOATS[0], FLOATS[2]) else np.dtype(np.float64)


# ---- one array, whatever its library -----------------------------------------------------------


class View:
    """An array as the C ABI sees it. `ptr` is the address of element [0, ..., 0]; `strides`
    are in elements; `device` is None for host memory, else the CUDA ordinal; `stream` is the
    stream a CUDA array interface names (None when it names none)."""

    __slots__ = ("obj", "ptr", "shape", "strides", "dtype", "device", "kind", "stream", "keep")

    def __init__(self, obj, ptr, shape, strides, dtype, device, kind, stream=None, keep=None):
        self.obj, self.ptr, self.shape, self.strides = obj, ptr, tuple(shape), tuple(strides)
        self.dtype, self.device, self.kind, self.stream, self.keep = np.dtype(dtype), device, kind, stream, keep

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))


def _elements(byte_strides, itemsize, name):
    if any(s % itemsize for s in byte_strides):
        raise ValueError(f"numgpu: {name}'s strides {tuple(byte_strides)} are not multiples of its element size {itemsize}")
    return tuple(s // itemsize for s in byte_strides)


def _c_strides(shape):
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def _torch_dtype(t):
    torch = sys.modules["torch"]
    table = {torch.float32: np.float32, torch.float64: np.float64, torch.complex64: np.complex64,
             torch.complex128: np.complex128, torch.int32: np.int32, torch.int64: np.int64}
    if t not in table:
        raise TypeError(f"numgpu: torch dtype {t} is not one numgpu takes")
    return np.dtype(table[t])


def _torch(x, name):
    if x.is_conj() or x.is_neg():
        raise ValueError(f"numgpu: {name} is a lazily conjugated or negated torch view; call .resolve_conj() / .resolve_neg() first")
    if x.layout != sys.modules["torch"].strided:
        raise TypeError(f"numgpu: {name} is a torch tensor of layout {x.layout}; numgpu takes strided (dense) tensors")
    device = x.device.index if x.is_cuda else None
    if x.device.type not in ("cpu", "cuda"):
        raise TypeError(f"numgpu: {name} is on torch device {x.device}; numgpu takes CPU or CUDA tensors")
    if device is None and x.is_cuda:
        device = sys.modules["torch"].cuda.current_device()
    return View(x, x.data_ptr(), x.shape, x.stride(), _torch_dtype(x.dtype), device, "torch")


def _numpy(x, name):
    return View(x, x.ctypes.data, x.shape, _elements(x.strides, x.itemsize, name), x.dtype, None, "numpy")


def _cupy(x, name):
    return View(x, x.data.ptr, x.shape, _elements(x.strides, x.itemsize, name), x.dtype, x.device.id, "cupy")


def _cai(x, name):
    cai = x.__cuda_array_interface__
    dtype = np.dtype(cai["typestr"])
    shape = tuple(cai["shape"])
    strides = cai.get("strides")
    strides = _c_strides(shape) if strides is None else _elements(strides, dtype.itemsize, name)
    device = 0
    if hasattr(x, "__dlpack_device__"):
        device = int(x.__dlpack_device__()[1])
    return View(x, int(cai["data"][0]), shape, strides, dtype, device, "cai", stream=cai.get("stream"))


# DLPack (dlpack.h): DLManagedTensor { DLTensor dl_tensor; void *manager_ctx; void (*deleter)(...) }.
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_DL_CUDA, _DL_CUDA_MANAGED = 2, 13
_DL_CODES = {0: "i", 1: "u", 2: "f", 5: "c"}


def _dlpack(x, name):
    dev_type, dev_id = x.__dlpack_device__()
    if dev_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        return _numpy(np.from_dlpack(x), name)
    # The legacy default stream (1): the call then runs there (see streams in docs/python.md).
    capsule = x.__dlpack__(stream=1)
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    t = _DLTensor.from_address(get(capsule, b"dltensor"))
    if t.dtype.lanes != 1 or t.dtype.code not in _DL_CODES:
        raise TypeError(f"numgpu: {name} has a DLPack dtype numgpu does not take")
    dtype = np.dtype(f"{_DL_CODES[t.dtype.code]}{t.dtype.bits // 8}")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = _c_strides(shape) if not t.strides else tuple(t.strides[i] for i in range(t.ndim))
    # The capsule stays unconsumed and alive with the view: its destructor calls the deleter.
    return View(x, (t.data or 0) + t.byte_offset, shape, strides, dtype, int(dev_id), "dlpack", stream=1, keep=capsule)


def view(x, name):
    """The View of any array numgpu takes; anything else goes through np.asarray."""
    torch, cupy = sys.modules.get("torch"), sys.modules.get("cupy")
    if torch is not None and isinstance(x, torch.Tensor):
        return _torch(x, name)
    if isinstance(x, np.ndarray):
        return _numpy(x, name)
    if cupy is not None and isinstance(x, cupy.ndarray):
        return _cupy(x, name)
    if hasattr(x, "__cuda_array_interface__"):
        return _cai(x, name)
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        return _dlpack(x, name)
    return _numpy(np.asarray(x), name)


# ---- making outputs in the inputs' library -------------------------------------------------------


class _Numpy:
    """Host outputs as NumPy arrays."""

    def empty(self, shape, dtype):
        return np.empty(shape, dtype)

    def full(self, shape, value, dtype):
        return np.full(shape, value, dtype)

    def colmajor(self, shape, dtype):
        """An array of `shape` (..., rows, cols), column-major within each matrix."""
        return np.empty(tuple(shape[:-2]) + (shape[-1], shape[-2]), dtype).swapaxes(-1, -2)

    def assign(self, dst, src):
        """dst[...] = src (a host array of any library; NumPy converts the dtype)."""
        dst[...] = _host(src)

    def from_host(self, a):
        """A NumPy array in this library, on its device."""
        return a


class _Torch:
    def __init__(self, device):
        self.torch = sys.modules["torch"]
        self.device = device

    def _dt(self, dtype):
        t = self.torch
        return {np.float32: t.float32, np.float64: t.float64, np.complex64: t.complex64,
                np.complex128: t.complex128, np.int32: t.int32, np.int64: t.int64}[np.dtype(dtype).type]

    def empty(self, shape, dtype):
        return self.torch.empty(tuple(shape), dtype=self._dt(dtype), device=self.device)

    def full(self, shape, value, dtype):
        return self.torch.full(tuple(shape), value, dtype=self._dt(dtype), device=self.device)

    def colmajor(self, shape, dtype):
        return self.empty(tuple(shape[:-2]) + (shape[-1], shape[-2]), dtype).transpose(-1, -2)

    def assign(self, dst, src):
        """dst[...] = src: a device copy on the current stream, or through NumPy on the host."""
        if dst.is_cuda:
            dst.copy_(src)
        else:
            dst.numpy()[...] = _host(src)

    def from_host(self, a):
        return self.torch.as_tensor(a, device=self.device)


class _Cupy:
    def __init__(self, device):
        self.cupy = sys.modules["cupy"]
        self.device = device

    def empty(self, shape, dtype):
        with self.cupy.cuda.Device(self.device):
            return self.cupy.empty(tuple(shape), dtype)

    def full(self, shape, value, dtype):
        with self.cupy.cuda.Device(self.device):
            return self.cupy.full(tuple(shape), value, dtype)

    def colmajor(self, shape, dtype):
        return self.empty(tuple(shape[:-2]) + (shape[-1], shape[-2]), dtype).swapaxes(-1, -2)

    def assign(self, dst, src):
        """dst[...] = src, a device copy on CuPy's current stream."""
        dst[...] = src

    def from_host(self, a):
        with self.cupy.cuda.Device(self.device):
            return self.cupy.asarray(a)


def namespace(v):
    """Where the outputs of a call whose first array is `v` are made."""
    if v.kind == "torch":
        return _Torch(v.obj.device)
    if v.device is None:
        return _Numpy()
    if v.kind == "cupy":
        return _Cupy(v.device)
    # A bare CUDA array interface or DLPack object: CuPy, else PyTorch, on its device.
    if "cupy" in sys.modules or _importable("cupy"):
        return _Cupy(v.device)
    if "torch" in sys.modules or _importable("torch"):
        return _Torch(sys.modules["torch"].device("cuda", v.device))
    return None


def _importable(mod):
    try:
        __import__(mod)
        return True
    except ImportError:
        return False


def current_stream(v):
    """The stream a call on device array `v` runs on: the caller's current stream of its
    library (torch, CuPy), the stream its CUDA array interface names, or the legacy default."""
    if v.kind == "torch":
        return int(sys.modules["torch"].cuda.current_stream(v.obj.device).cuda_stream)
    if v.kind == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(v.device):
            return int(cupy.cuda.get_current_stream().ptr)
    if v.stream in (None, 1):
        return 0  # no stream named, or the legacy default stream: NULL is the legacy default
    return int(v.stream)


def _host(x):
    """A host array of NumPy or PyTorch as a NumPy array (no copy)."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        return x.detach().numpy()
    return np.asarray(x)
