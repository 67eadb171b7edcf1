"""numgpu from Python: batched GPU numerical routines (CUDA, or the CPU backend) on NumPy
arrays and on PyTorch, CuPy or any CUDA-array-interface / DLPack device arrays, without
copies, on the caller's current stream. docs/python.md is the guide.

Each family has a NumPy-like function (`gemm_batched`, `getrf`/`getrs`/`gesv`, `geqrf`/`gels`,
`gtsv`, `csrmv`, `sshopm`, `rkc_integrate`, `stebz`, `potrf`/`potrs`/`posv`,
`syevj`/`heevj`/`gesvdj`, `expm`/`expm_eig`, `LifePlan`, `khatri_rao`/`mttkrp`); failures raise
`numgpu.Error`. The low level (`numgpu.lib.call`) calls any entry point of include/numgpu.h
by parameter name.
"""

from . import _lib as lib
from ._lib import (AllocFailedError, Arg, BackendUnavailableError, CompileFailedError, Error,
                   ExecutionFailedError, InternalError, InvalidValueError, NotSupportedError, Status)
from ._signatures import VERSION as __version__
from ._core import Handle, default_handle, set_default_handle
from . import _banded, _dense, _life, _rkc, _sparse, _sshopm, _tensor
from ._banded import *  # noqa: F401,F403
from ._dense import *  # noqa: F401,F403
from ._life import *  # noqa: F401,F403
from ._rkc import *  # noqa: F401,F403
from ._sparse import *  # noqa: F401,F403
from ._sshopm import *  # noqa: F401,F403
from ._tensor import *  # noqa: F401,F403

library_version = lib.version()
library_path = lib.LIBRARY_PATH

__all__ = ["lib", "Error", "Status", "Arg", "InvalidValueError", "NotSupportedError", "BackendUnavailableError",
           "AllocFailedError", "ExecutionFailedError", "CompileFailedError", "InternalError", "Handle",
           "default_handle", "set_default_handle", "library_version", "library_path"]
for _m in (_banded, _dense, _life, _rkc, _sparse, _sshopm, _tensor):
    __all__ += _m.__all__
del _m
