"""Install the Python package `accel` from the checkout (offline, Debian 12's packages):

    python3 -m pip install --no-build-isolation ./ports/python

Compiles accel.h's implementation, the sim port and the package's C interface
(src/accel_py.c) once into one shared library inside the package (accel/_accel*.so), which
accel.tflite loads with ctypes: no path to set by hand. Needs a C compiler; numpy at run time.
The C comes from this checkout (the directory two levels up), so the package is built from
there, never from a copy of ports/python alone.
"""
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir))
if not os.path.exists(os.path.join(ROOT, "accel.h")):
    raise SystemExit("accel: no accel.h at %s: install from the accel checkout "
                     "(pip install ./ports/python at its root)" % ROOT)
PROTO = os.path.join(ROOT, "ports", "bridge", "accel_bridge.proto")


def version():
    # the one version: ACCEL_VERSION_STRING in accel.h
    with open(os.path.join(ROOT, "accel.h")) as f:
        for line in f:
            if line.startswith("#define ACCEL_VERSION_STRING"):
                return line.split('"')[1]
    raise SystemExit("accel: no ACCEL_VERSION_STRING in accel.h")


class BuildPy(build_py):
    """Ships the bridge's .proto (its one copy is ports/bridge's) beside accel.bridge."""

    def run(self):
        super().run()
        dst = os.path.join(self.build_lib, "accel", "bridge")
        os.makedirs(dst, exist_ok=True)
        shutil.copyfile(PROTO, os.path.join(dst, "accel_bridge.proto"))


# ACCEL_PY_SANITIZE=address,undefined (any -fsanitize= list): the library built with the
# sanitizers, every report fatal (for tests, which preload ASan's runtime), in a build directory
# of its own so that neither build reuses the other's objects
SANITIZE = os.environ.get("ACCEL_PY_SANITIZE", "")
san_flags = (["-fsanitize=" + SANITIZE, "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g"]
             if SANITIZE else [])

# The package binds the tflite section (and holds the sim port): the device sections, which it
# does not bind, are left out, which halves the compile.
lib = Extension(
    "accel._accel",
    sources=["src/accel_lib.c", "src/accel_py.c"],
    include_dirs=[ROOT, os.path.join(ROOT, "ports", "sim")],
    define_macros=[("ACCEL_NO_TSP1", None), ("ACCEL_NO_EDGETPU", None), ("ACCEL_NO_REFSI", None),
                   ("ACCEL_NO_ANE", None)],
    # rebuilt when any of them changes (the .c files here only include them)
    depends=[os.path.join(ROOT, "accel.h"), os.path.join(ROOT, "ports", "impl", "accel_impl.c"),
             os.path.join(ROOT, "ports", "sim", "accel_sim.c"), os.path.join(ROOT, "ports", "sim", "accel_sim.h")],
    extra_compile_args=["-std=c99", "-O1" if SANITIZE else "-O2"] + san_flags,
    extra_link_args=san_flags,
)

setup(
    name="accel",
    version=version(),
    description="accel.h from Python: the tflite reference runner (a tflite_runtime-style "
                "Interpreter) and the bridge client",
    license="MIT",
    packages=["accel", "accel.bridge", "accel_bridge"],
    # the old name of accel.bridge keeps its one copy where the checkout had it
    package_dir={"": ".", "accel_bridge": "../bridge/python/accel_bridge"},
    ext_modules=[lib],
    cmdclass={"build_py": BuildPy},
    options={"build": {"build_base": "build-" + SANITIZE.replace(",", "-") if SANITIZE else "build"}},
    python_requires=">=3.7",
    install_requires=[],  # numpy: Debian's python3-numpy (not fetched: the install is offline)
    zip_safe=False,
)
