"""The low level: the generated table, binding, calls by name, errors, handles."""

import ctypes

import numpy as np
import pytest

import numgpu
from numgpu import _lib, _signatures as sig


def test_every_function_of_the_header_binds():
    for name in sig.FUNCTIONS:
        f = _lib.function(name)
        assert len(f.argtypes) == len(sig.FUNCTIONS[name][1]), name


def test_version_is_the_header_s_and_the_library_s():
    assert numgpu.__version__ == sig.VERSION == numgpu.library_version


def test_enums_come_from_the_header():
    assert numgpu.Status.SUCCESS == 0 and numgpu.Status.INVALID_VALUE == 1
    assert dict(sig.ENUMS["numgpu_backend"])["NUMGPU_BACKEND_CUDA"] == 2


def test_structs_come_from_the_header():
    opts = _lib.struct_type("numgpu_rkc_options")()
    _lib.call("numgpu_rkc_options_default", opts=ctypes.byref(opts))
    assert opts.size == ctypes.sizeof(opts)
    assert [f for f, _ in opts._fields_][:3] == ["size", "method", "spectral"]


def test_call_by_name_orders_the_arguments(handle):
    # The arguments in reverse order of the C signature: the table puts them right.
    A = np.asfortranarray([[1.0, 2.0], [3.0, 4.0]])
    C = np.zeros((2, 2), order="F")
    args = dict(h=handle.ptr, transa=0, transb=0, m=2, n=2, k=2, alpha=1.0, A=A.ctypes.data, lda=2, strideA=0,
                B=A.ctypes.data, ldb=2, strideB=0, beta=0.0, C=C.ctypes.data, ldc=2, strideC=0, batch=1)
    _lib.call("numgpu_dgemm_batched_strided", **dict(reversed(list(args.items()))))
    np.testing.assert_array_equal(C, A @ A)


def test_call_by_name_refuses_unknown_and_missing_names(handle):
    with pytest.raises(TypeError, match="no parameter bogus"):
        _lib.call("numgpu_synchronize", h=handle.ptr, bogus=1)
    with pytest.raises(TypeError, match="missing argument h"):
        _lib.call("numgpu_synchronize")


def test_error_carries_status_argument_and_message(handle):
    with pytest.raises(numgpu.InvalidValueError) as e:
        _lib.call("numgpu_dgemm_batched_strided", h=handle.ptr, transa=0, transb=0, m=4, n=4, k=4, alpha=1.0,
                  A=None, lda=3, strideA=0, B=None, ldb=4, strideB=0, beta=0.0, C=None, ldc=4, strideC=0,
                  batch=1)
    err = e.value
    assert isinstance(err, numgpu.Error) and isinstance(err, ValueError)
    assert err.status is numgpu.Status.INVALID_VALUE
    assert err.arg == (9, "lda") and err.arg.name == "lda"
    assert "lda" in err.message and err.function == "numgpu_dgemm_batched_strided"


def test_an_invalid_enum_names_its_argument():
    with pytest.raises(numgpu.InvalidValueError) as e:
        _lib.call("numgpu_create_with", h=ctypes.byref(ctypes.c_void_p()), backend=7, device=0)
    assert e.value.arg.name == "backend"


def test_handle_reports_its_backend_and_closes(handle):
    import os
    assert handle.backend_name == os.environ.get("NUMGPU_TEST_BACKEND", "cpu")
    handle.synchronize()
    with numgpu.Handle("cpu") as h:
        assert "cpu" in repr(h)
    h.close()  # a second close does nothing
    with pytest.raises(ValueError, match="closed"):
        h.synchronize()
    with pytest.raises(ValueError, match="backend"):
        numgpu.Handle("tpu")


def test_default_handle_is_per_thread():
    import threading
    mine = numgpu.default_handle()
    other = []
    t = threading.Thread(target=lambda: other.append(numgpu.default_handle()))
    t.start()
    t.join()
    assert other[0] is not mine and numgpu.default_handle() is mine


def test_library_search_order_is_reported(monkeypatch):
    monkeypatch.setenv("NUMGPU_LIBRARY", "/nonexistent/libnumgpu.so")
    with pytest.raises(ImportError, match="NUMGPU_LIBRARY: /nonexistent"):
        _lib._load()


def test_collected_objects_are_released_by_the_next_call_not_the_collector(handle):
    import gc
    h = numgpu.Handle("cpu")
    ptr = h.ptr
    del h
    gc.collect()
    assert ("numgpu_destroy", ptr) in _lib._deferred  # nothing called from the collector
    # The next call releases it first, so its own error survives intact.
    with pytest.raises(numgpu.InvalidValueError) as e:
        numgpu.stebz(np.ones(4), np.ones(3), select="i", select_range=(2, 7), handle=handle)
    assert e.value.arg.name == "iu" and e.value.message
    assert ("numgpu_destroy", ptr) not in _lib._deferred


def test_math_mode_set_get_and_single_gemm_within_its_bound(handle, rng):
    assert handle.math_mode() == "default"
    A = rng.standard_normal((4, 48, 40)).astype(np.float32)
    B = rng.standard_normal((4, 40, 36)).astype(np.float32)
    exact = np.matmul(A.astype(np.float64), B.astype(np.float64))
    scale = np.matmul(np.abs(A).astype(np.float64), np.abs(B).astype(np.float64))
    # the header's elementwise bounds (numgpu_math_mode) at k = 40, u = 2^-24,
    # g(j, v) = j·v / (1 − j·v); the CPU backend is exact FP32 in every mode
    k, u = 40, 2.0**-24
    g = lambda j, v: j * v / (1 - j * v)
    bounds = {"3xtf32": 3 * 2.0**-22 * (1 + 2.0**-10) + g(3 * k + 6, 2 * u), "tf32": 2.0**-10 * (1 + 2.0**-12) + g(k + 6, 2 * u), "default": g(k + 2, u)}
    for mode, bound in bounds.items():
        handle.set_math_mode(mode)
        assert handle.math_mode() == mode
        C = numgpu.gemm_batched(A, B, handle=handle)
        assert np.all(np.abs(C - exact) <= bound * scale), mode
    with pytest.raises(ValueError, match="mode"):
        handle.set_math_mode("fp16")
    with pytest.raises(numgpu.InvalidValueError) as e:
        _lib.call("numgpu_set_math_mode", h=handle.ptr, mode=9)
    assert e.value.arg.name == "mode" and handle.math_mode() == "default"
