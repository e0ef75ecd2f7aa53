"""Builds the `rocketgym` package: the pure-Python sources in python/rocketgym/, the pybind11 module
`rocketgym._rocketgym` and, where LibTorch is installed, the agents module `rocketgym._agents` with
the zoo bots (models/zoo/*.ckpt and *.yaml, installed as rocketgym/zoo/), all compiled by the project's own
CMake build (metadata lives in pyproject.toml).

    /usr/bin/python3 -m pip install --no-build-isolation --no-index .

The CMake build folder is the project's one build folder, build/ (scripts/build.sh's): when it is
already configured, pip builds the Python targets there with its settings (no recompiling of what is
built); otherwise pip configures it (Release, Python on, the tests and the CLI off; scripts/build.sh
turns them back on).

Environment knobs:
    ROCKETGYM_CMAKE_BUILD_DIR   CMake build folder to (re)use (default: build)
    ROCKETGYM_PIP_AGENTS        auto (default: the agents when LibTorch is found), 1 (required), 0 (no agents)
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
# setuptools' scratch files go under build/setuptools (ignored by git), beside CMake's.
SCRATCH = os.path.join(ROOT, "build", "setuptools")
WITHOUT_AGENTS = ("rocketgym.load_agent (the agents module) needs LibTorch (Debian: libtorch-dev) and the "
                  "training library; this install has every env but no agents")


class CMakeExtension(Extension):
    """An extension built by CMake rather than by setuptools' compiler calls."""

    def __init__(self, name: str):
        super().__init__(name, sources=[])


def cache_value(build_dir: str, key: str) -> str:
    """A CMakeCache.txt entry ("" when absent)."""
    with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.split("=", 1)[1].strip()
    return ""


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        output_dir = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        build_dir = os.path.abspath(os.environ.get("ROCKETGYM_CMAKE_BUILD_DIR", os.path.join(ROOT, "build")))
        agents = os.environ.get("ROCKETGYM_PIP_AGENTS", "auto")
        if agents not in ("auto", "0", "1"):
            raise RuntimeError(f"ROCKETGYM_PIP_AGENTS must be auto, 0 or 1, not {agents!r}")
        self.configure(build_dir, agents)
        with_agents = cache_value(build_dir, "ROCKETGYM_BUILD_TRAINING").upper() in ("ON", "1", "TRUE")
        if agents == "1" and not with_agents:
            raise RuntimeError(f"ROCKETGYM_PIP_AGENTS=1 but {build_dir} is configured without the training library")
        targets = ["_rocketgym"] + (["_agents"] if with_agents and agents != "0" else [])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.check_call(["cmake", "--build", build_dir, "--target", *targets, "-j", jobs])
        # CMake writes the modules to <build>/python/rocketgym/; the wheel wants them here.
        os.makedirs(output_dir, exist_ok=True)
        for target in targets:
            built = glob.glob(os.path.join(build_dir, "python", "rocketgym", f"{target}*.so"))
            if len(built) != 1:
                raise RuntimeError(f"expected one {target} module in {build_dir}/python/rocketgym, found {built}")
            shutil.copy2(built[0], os.path.join(output_dir, os.path.basename(built[0])))
        if "_agents" in targets:
            # The zoo bots, found by rocketgym/__init__.py through ROCKETGYM_ZOO_DIR.
            zoo = os.path.join(output_dir, "zoo")
            os.makedirs(zoo, exist_ok=True)
            for pattern in ("*.ckpt", "*.yaml"):  # networks, and manifests of searches over no network
                for bot in glob.glob(os.path.join(ROOT, "models", "zoo", pattern)):
                    shutil.copy2(bot, zoo)
        else:
            print("rocketgym: " + WITHOUT_AGENTS, file=sys.stderr)

    def configure(self, build_dir: str, agents: str) -> None:
        python = ["-DROCKETGYM_BUILD_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}", "-DPYBIND11_FINDPYTHON=ON"]
        extra = shlex.split(os.environ.get("ROCKETGYM_CMAKE_ARGS", ""))
        if os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):  # reuse it, with its settings
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir, *python, *extra])
            return
        fresh = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", *python,
                 "-DROCKETGYM_BUILD_TESTS=OFF", "-DROCKETGYM_BUILD_CLI=OFF"]
        if agents != "0":
            if subprocess.call(fresh + ["-DROCKETGYM_BUILD_TRAINING=ON", *extra]) == 0:
                return
            if agents == "1":
                raise RuntimeError("configuring with the training library failed (see above): " + WITHOUT_AGENTS)
            print("rocketgym: configuring with the training library failed (see above); " + WITHOUT_AGENTS,
                  file=sys.stderr)
            # A failed configure leaves a cache that says TRAINING=ON: start again from nothing.
            shutil.rmtree(os.path.join(build_dir, "CMakeFiles"), ignore_errors=True)
            if os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
                os.remove(os.path.join(build_dir, "CMakeCache.txt"))
        subprocess.check_call(fresh + ["-DROCKETGYM_BUILD_TRAINING=OFF", *extra])


os.makedirs(SCRATCH, exist_ok=True)
setup(
    ext_modules=[CMakeExtension("rocketgym._rocketgym")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": SCRATCH}, "egg_info": {"egg_base": SCRATCH}},
    zip_safe=False,
)
