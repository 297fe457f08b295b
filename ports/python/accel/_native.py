"""The package's shared library (compiled by setup.py from accel.h, the sim port and
src/accel_py.c) and the ctypes signatures of src/accel_py.c's functions: the only C the Python
side calls. Every function returns an accel_status.

ctypes rather than cffi: it is in the standard library, so the package needs nothing at build or
run time but a C compiler and numpy (cffi's API mode would need python3-cffi to build, its ABI
mode at run time), and the C interface is flat on purpose (fixed-width integers, pointers, one
struct of them), which ctypes describes exactly. The library includes no Python.h: setuptools
builds it as an extension only to compile and place it inside the package."""
import ctypes
import glob
import importlib.machinery
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _find():
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(_HERE, "_accel" + suffix)
        if os.path.exists(path):
            return path
    found = glob.glob(os.path.join(_HERE, "_accel*.so"))
    if found:
        return found[0]
    raise ImportError("accel.tflite: the package's compiled library (accel/_accel*.so) is missing: "
                      "install the package (python3 -m pip install --no-build-isolation "
                      "./ports/python) rather than importing it from the checkout")


lib = ctypes.CDLL(_find())


class Tensor(ctypes.Structure):
    """accel_py_tensor of src/accel_py.c"""
    _fields_ = [("type", ctypes.c_int32), ("ndims", ctypes.c_int32), ("dims", ctypes.c_int32 * 8),
                ("elements", ctypes.c_uint64), ("bytes", ctypes.c_uint64),
                ("n_scales", ctypes.c_uint32), ("scale_bits", ctypes.c_uint32),
                ("zero_point", ctypes.c_int32), ("quantized_dimension", ctypes.c_int32),
                ("is_variable", ctypes.c_int32), ("is_constant", ctypes.c_int32),
                ("name_off", ctypes.c_uint64), ("name_len", ctypes.c_uint64),
                ("data_off", ctypes.c_uint64)]


P = ctypes.c_void_p
U32, I32, U64, I64 = ctypes.c_uint32, ctypes.c_int32, ctypes.c_uint64, ctypes.c_int64
PU32, PI32, PU64, PI64 = (ctypes.POINTER(t) for t in (U32, I32, U64, I64))


def _sig(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


version = _sig("accel_py_version", ctypes.c_char_p)
sizes = _sig("accel_py_sizes", ctypes.c_int, PU64)
status_str = _sig("accel_py_status_str", ctypes.c_char_p, ctypes.c_int)
op_name = _sig("accel_py_op_name", ctypes.c_char_p, I32)
open_ = _sig("accel_py_open", ctypes.c_int, P, P, U64, PU32)
tensor_info = _sig("accel_py_tensor_info", ctypes.c_int, P, U32, ctypes.POINTER(Tensor))
tensor_scales = _sig("accel_py_tensor_scales", ctypes.c_int, P, U32, U32, PU32, PI32)
op_info = _sig("accel_py_op_info", ctypes.c_int, P, U32, PI32)
op_tensors = _sig("accel_py_op_tensors", ctypes.c_int, P, U32, PI32)
graph_tensor = _sig("accel_py_graph_tensor", ctypes.c_int, P, ctypes.c_int, U32, PU32)
op_custom = _sig("accel_py_op_custom", ctypes.c_int, P, U32, PU64, PU64)
check = _sig("accel_py_check", ctypes.c_int, P, PI64)
plan_scratch_size = _sig("accel_py_plan_scratch_size", ctypes.c_int, P, PU64)
plan = _sig("accel_py_plan", ctypes.c_int, P, P, U64, PU64)
init = _sig("accel_py_init", ctypes.c_int, P, P, P, U64, PI64)
set_input = _sig("accel_py_set_input", ctypes.c_int, P, U32, P, U64)
invoke = _sig("accel_py_invoke", ctypes.c_int, P, P, P, U64, PI64, U64, PI64)
layers_kept = _sig("accel_py_layers_kept", ctypes.c_int, P, PU64)
tensor_where = _sig("accel_py_tensor_where", ctypes.c_int, P, U32, PU64)
runs_code = _sig("accel_py_runs_code", ctypes.c_int, I32)
custom_kept = _sig("accel_py_custom_kept", ctypes.c_int, ctypes.c_char_p)
reset = _sig("accel_py_reset", ctypes.c_int, P)
custom_feed = _sig("accel_py_custom_feed", ctypes.c_int, P, P, P, U64)
feed_rewind = _sig("accel_py_feed_rewind", ctypes.c_int, P)
