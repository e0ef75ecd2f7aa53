#!/usr/bin/env bash
# Runs every test on a fresh machine: installs dependencies, checks that every
# C++ file is clang-formatted (scripts/format.sh --check), builds, runs the
# C++ tests (ctest), the Python tests (pytest), the environment and
# encoder tests again under AddressSanitizer + UndefinedBehaviorSanitizer,
# every fuzz target briefly (scripts/fuzz.sh), then builds the docs site
# (scripts/docs.sh --check: the generated game pages must match the code).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's wall time, listed at the end, also when a step fails: CI gives
# the whole command 90 minutes, and this list says where they went.
step_times=()
step() {  # step NAME: ends the step before (if any), starts NAME ("" only ends)
  if [ -n "${step_name:-}" ]; then
    step_times+=("$(printf '%6d s  %s' $((SECONDS - step_start)) "$step_name")")
  fi
  step_name="$1"
  step_start=$SECONDS
  if [ -n "$1" ]; then echo "== $1"; fi
}
trap 'status=$?; step ""; echo "== seconds per step (exit status $status, $SECONDS s in all)";
  printf "%s\n" "${step_times[@]}"' EXIT

step "install (scripts/setup.sh)"
scripts/setup.sh

step "C++ style (clang-format)"
scripts/format.sh --check

step "build (scripts/build.sh)"
scripts/build.sh

step "C++ tests"
# -j: the tests are separate processes, one per core at a time.
(cd build && ctest --output-on-failure -j "$(nproc)")

step "Python tests"
# Gymnasium's and PettingZoo's sources, where there are (docs/python.md, "Official checkers"): the
# checker and registration tests run with them and are skipped, saying so, without.
FARAMA="${ROCKETGYM_FARAMA:-$HOME/farama}"
[ -d "$FARAMA/Gymnasium" ] || FARAMA=""
ROCKETGYM_FARAMA="$FARAMA" ROCKETGYM_BUILD_DIR="$PWD/build" /usr/bin/python3 -m pytest -q -rs tests/python

step "browser table (rocketgym serve: its JSON API, then the page in headless Chromium)"
ROCKETGYM_BUILD_DIR="$PWD/build" /usr/bin/python3 -m pytest -q -rs tests/browser

step "environment tests under ASan + UBSan"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCKETGYM_SANITIZE=ON \
  -DROCKETGYM_BUILD_TRAINING=OFF -DROCKETGYM_BUILD_CLI=OFF -DROCKETGYM_BUILD_PYTHON=OFF
cmake --build build-asan -j "$(nproc)"
# Fewer random playouts: the sanitizers make each one several times slower.
(cd build-asan && ROCKETGYM_CONFORMANCE_GAMES=25 ctest --output-on-failure -j "$(nproc)")

step "fuzz targets (clang + libFuzzer + ASan + UBSan), a few seconds each"
# Replays tests/fuzz/regressions/ first; longer runs: scripts/fuzz.sh TARGET SECONDS.
# A fixed libFuzzer seed: the same inputs on every run of the test command.
FUZZ_FLAGS="-seed=1 ${FUZZ_FLAGS:-}" scripts/fuzz.sh all 4

step "docs site (MkDocs --strict)"
scripts/docs.sh --check
