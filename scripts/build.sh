#!/usr/bin/env bash
# Configures and builds rocketgym (Release, with the Python module) into build/.
# Usage: scripts/build.sh [extra cmake options]
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DROCKETGYM_BUILD_PYTHON=ON -DROCKETGYM_BUILD_TRAINING=ON \
  -DROCKETGYM_BUILD_TESTS=ON -DROCKETGYM_BUILD_CLI=ON \
  -DPython_EXECUTABLE=/usr/bin/python3 -DPYBIND11_FINDPYTHON=ON "$@"
cmake --build build -j "$(nproc)"
