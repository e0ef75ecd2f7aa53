#!/usr/bin/env bash
# Configures and builds rocketgym (Release, with the training library, the
# Python module and the tests) into build/ with Ninja.
# Usage: scripts/build.sh [--target T]... [extra cmake options]
#   --target T   build only T and what it needs (repeatable; default: everything).
#                scripts/main.sh builds `rocketgym` alone: the command line, the
#                one thing the main job runs (docs/building.md).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --target)
      [ $# -ge 2 ] || { echo "scripts/build.sh: --target needs a target name" >&2; exit 2; }
      targets+=(--target "$2")
      shift 2
      ;;
    *)
      options+=("$1")
      shift
      ;;
  esac
done
# Ninja for a new build folder; one configured earlier keeps its generator
# (CMake refuses to switch a folder from one to another).
generator=(-G Ninja)
[ -f build/CMakeCache.txt ] && generator=()
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DROCKETGYM_BUILD_PYTHON=ON \
  -DROCKETGYM_BUILD_TRAINING=ON -DROCKETGYM_BUILD_TESTS=ON -DROCKETGYM_BUILD_CLI=ON \
  -DPython_EXECUTABLE=/usr/bin/python3 -DPYBIND11_FINDPYTHON=ON "${options[@]}"
cmake --build build -j "$(nproc)" "${targets[@]}"
