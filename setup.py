"""Builds the `rocketgym` package: the pure-Python sources in python/rocketgym/
plus the pybind11 module `rocketgym._rocketgym`, compiled by the project's own
CMake build (metadata lives in pyproject.toml).

    /usr/bin/python3 -m pip install --no-build-isolation .

Environment knobs:
    ROCKETGYM_CMAKE_BUILD_DIR   CMake build folder to (re)use (default: build-python/pip)
    ROCKETGYM_CMAKE_ARGS        extra arguments for the CMake configure step
    CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default 2)
"""

import glob
import os
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
# setuptools' scratch files go under build-python/ (ignored by git), not build/.
SCRATCH = os.path.join(ROOT, "build-python", "setuptools")


class CMakeExtension(Extension):
    """An extension built by CMake rather than by setuptools' compiler calls."""

    def __init__(self, name: str):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        output_dir = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        build_dir = os.environ.get("ROCKETGYM_CMAKE_BUILD_DIR", os.path.join(ROOT, "build-python", "pip"))
        configure = [
            "cmake", "-S", ROOT, "-B", build_dir,
            "-DCMAKE_BUILD_TYPE=Release",
            "-DROCKETGYM_BUILD_PYTHON=ON",
            "-DROCKETGYM_BUILD_TESTS=OFF",
            "-DROCKETGYM_BUILD_CLI=OFF",
            "-DROCKETGYM_BUILD_TRAINING=OFF",
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DPYBIND11_FINDPYTHON=ON",
        ] + shlex.split(os.environ.get("ROCKETGYM_CMAKE_ARGS", ""))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.check_call(configure)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "_rocketgym", "-j", jobs])
        # CMake writes the module to <build>/python/rocketgym/; the wheel wants it here.
        built = glob.glob(os.path.join(build_dir, "python", "rocketgym", "_rocketgym*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _rocketgym module in {build_dir}/python/rocketgym, found {built}")
        os.makedirs(output_dir, exist_ok=True)
        shutil.copy2(built[0], self.get_ext_fullpath(ext.name))


os.makedirs(SCRATCH, exist_ok=True)
setup(
    ext_modules=[CMakeExtension("rocketgym._rocketgym")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": SCRATCH}, "egg_info": {"egg_base": SCRATCH}},
    zip_safe=False,
)
