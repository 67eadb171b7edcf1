"""Errors name the argument: Python-level checks (TypeError/ValueError) before any call, the
library's (numgpu.Error with the C argument) after; and the array protocols' edges."""

import numpy as np
import pytest

import numgpu


class FakeDeviceArray:
    """A CUDA array interface without a device behind it: enough to reach the checks that
    run before any call (nothing here dereferences it)."""

    def __init__(self, shape, typestr="<f8", strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (0x10000, False),
                                         "version": 3, "strides": strides, "stream": None}


class HostDLPack:
    """An object that speaks only DLPack, over a NumPy array."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_mixed_memory_spaces_are_refused_naming_the_arrays(handle):
    with pytest.raises(ValueError, match="all be host memory or all on one device \\(A: host, B: cuda:0\\)"):
        numgpu.gemm_batched(np.ones((2, 2)), FakeDeviceArray((2, 2)), handle=handle)


def test_device_arrays_are_never_converted():
    A, B = FakeDeviceArray((2, 2), "<f4"), FakeDeviceArray((2, 2), "<f8")
    with pytest.raises(TypeError, match="B has dtype float64 but A has float32"):
        numgpu.gemm_batched(A, B, C=FakeDeviceArray((2, 2), "<f4"), handle=numgpu.Handle("cpu"))
    C_ordered = FakeDeviceArray((2, 3, 3))  # C-contiguous matrices: not column-major
    with pytest.raises(ValueError, match="A must be column-major.*mT"):
        numgpu.gemm_batched(C_ordered, C_ordered, C=C_ordered, handle=numgpu.Handle("cpu"))


def test_written_arrays_are_never_converted(handle):
    with pytest.raises(TypeError, match="A has dtype int64, float64 expected \\(it is written in place\\)"):
        numgpu.getrf(np.eye(3, dtype=np.int64), overwrite_a=True, handle=handle)
    y = np.zeros(3, np.float32)
    with pytest.raises(TypeError, match="y has dtype float32"):
        numgpu.csrmv(numgpu.CSR(np.ones(1), np.zeros(1, np.int32), np.array([0, 1, 1, 1], np.int32), (3, 3)),
                     np.ones(3), y, handle=handle)


def test_library_errors_name_the_c_argument(handle):
    with pytest.raises(numgpu.InvalidValueError) as e:  # a 2-D C for a batch of 3: stride 0 written
        numgpu.gemm_batched(np.ones((3, 2, 2)), np.ones((3, 2, 2)), np.zeros((2, 2), order="F"), handle=handle)
    assert e.value.arg.name == "strideC" and "strideC" in e.value.message
    with pytest.raises(numgpu.InvalidValueError) as e:
        numgpu.stebz(np.ones(4), np.ones(3), select="i", select_range=(2, 7), handle=handle)
    assert e.value.arg.name == "iu"
    with pytest.raises(numgpu.InvalidValueError) as e:
        numgpu.geqrf(np.ones((2, 3)), handle=handle)  # n > m
    assert e.value.arg.name == "n"
    with pytest.raises(numgpu.InvalidValueError) as e:
        numgpu.syevj(np.eye(3), tol=-1.0, handle=handle)
    assert e.value.arg.name == "params"


def test_python_checks_name_the_python_argument(handle):
    with pytest.raises(ValueError, match="A must be square"):
        numgpu.potrf(np.ones((3, 2)), handle=handle)
    with pytest.raises(ValueError, match="must be a matrix"):
        numgpu.expm(np.ones(3), handle=handle)
    with pytest.raises(ValueError, match="transa must be one of 'n', 't', 'c'"):
        numgpu.gemm_batched(np.ones((2, 2)), np.ones((2, 2)), transa="X", handle=handle)
    with pytest.raises(ValueError, match="batch sizes \\[2, 3\\] do not broadcast"):
        numgpu.gemm_batched(np.ones((2, 2, 2)), np.ones((3, 2, 2)), handle=handle)
    with pytest.raises(ValueError, match="dl must have n - 1 = 3 entries"):
        numgpu.gtsv(np.ones(4), np.ones(4), np.ones(3), np.ones(4), handle=handle)


def test_outputs_need_a_library_for_bare_device_arrays(handle):
    import importlib.util
    if importlib.util.find_spec("cupy") or importlib.util.find_spec("torch"):
        pytest.skip("CuPy or PyTorch is installed: outputs are made with it")
    with pytest.raises(TypeError, match="install CuPy or PyTorch"):
        numgpu.expm(FakeDeviceArray((2, 2), strides=(8, 16)), handle=handle)  # column-major


def test_dlpack_host_objects_are_read_without_copies(handle, rng):
    A = np.asfortranarray(rng.standard_normal((3, 3)))
    E, info = numgpu.expm(HostDLPack(A), handle=handle)
    E2, _ = numgpu.expm(A, handle=handle)
    np.testing.assert_array_equal(E, E2)


def test_the_empty_problem_is_success(handle):
    C = numgpu.gemm_batched(np.ones((0, 3)), np.ones((3, 2)), handle=handle)
    assert C.shape == (0, 2)
    X, info = numgpu.gesv(np.ones((0, 0, 0)), np.ones((0, 0, 1)), handle=handle)
    assert X.shape == (0, 0, 1) and info.shape == (0,)
