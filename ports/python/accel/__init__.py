"""accel: accel.h from Python.

    accel.tflite   the reference runner: a tflite_runtime-style Interpreter (bit-exact with
                   TensorFlow Lite Micro's reference kernels), every layer's output, compare()
    accel.bridge   the host side of the bridge protocol (ports/bridge/PROTOCOL.md)

Submodules load on first use: `import accel.bridge` needs no compiled code, `import
accel.tflite` loads the library that installing compiled (the implementation, the sim port).
"""
try:  # the installed distribution's version, which setup.py took from accel.h
    from importlib.metadata import version as _version
    __version__ = _version("accel")
except Exception:  # a checkout on sys.path: not installed
    __version__ = None
__all__ = ["tflite", "bridge"]


def __getattr__(name):  # accel.tflite / accel.bridge without importing them by hand
    if name in __all__:
        import importlib
        return importlib.import_module("accel." + name)
    raise AttributeError("module 'accel' has no attribute %r" % name)
