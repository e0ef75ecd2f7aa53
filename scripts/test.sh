#!/usr/bin/env bash
# Runs every test on a fresh machine: installs dependencies, checks that every
# C++ file is clang-formatted (scripts/format.sh --check), builds, runs the
# C++ tests (ctest), the Python tests (pytest), the browser table's tests, the
# environment and encoder tests again under AddressSanitizer +
# UndefinedBehaviorSanitizer (clang), every fuzz target briefly
# (scripts/fuzz.sh), then builds the docs site (scripts/docs.sh --check: the
# generated game pages must match the code).
#
#   scripts/test.sh              everything (the README's test command; CI runs it)
#   scripts/test.sh --game ID    a developer's inner loop after editing game ID:
#                                rebuild what its tests need, then run its C++
#                                rule tests, its conformance suite and the Python
#                                tests that run on it (docs/building.md)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"

if [ "${1:-}" = --game ]; then
  game="${2:-}"
  if [ $# -ne 2 ] || [ ! -f "games/$game/${game}_game.h" ]; then
    echo "scripts/test.sh: --game needs one game id, one of: $(ls games | tr '\n' ' ')" >&2
    exit 2
  fi
  scripts/build.sh  # incremental: the edited files, then every target relinked against them
  (cd build && ctest --output-on-failure -j "$jobs" -R "^(${game}|conformance_${game})\$")
  # The Python tests whose name holds the game's id: those parametrized over the games, for this one.
  ROCKETGYM_BUILD_DIR="$PWD/build" /usr/bin/python3 -m pytest -q -n "$jobs" tests/python -k "$game"
  exit 0
elif [ $# -gt 0 ]; then
  echo "scripts/test.sh: unknown argument '$1' (expected nothing or --game ID)" >&2
  exit 2
fi

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
(cd build && ctest --output-on-failure -j "$jobs")

step "Python tests"
# Gymnasium's and PettingZoo's sources, where there are (docs/python.md, "Official checkers"): the
# checker and registration tests run with them and are skipped, saying so, without.
# -n: pytest-xdist spreads the tests over one worker process per core.
FARAMA="${ROCKETGYM_FARAMA:-$HOME/farama}"
[ -d "$FARAMA/Gymnasium" ] || FARAMA=""
ROCKETGYM_FARAMA="$FARAMA" ROCKETGYM_BUILD_DIR="$PWD/build" /usr/bin/python3 -m pytest -q -rs -n "$jobs" tests/python

step "browser table (rocketgym serve: its JSON API, then the page in headless Chromium)"
ROCKETGYM_BUILD_DIR="$PWD/build" /usr/bin/python3 -m pytest -q -rs -n "$jobs" tests/browser

step "environment tests under ASan + UBSan (clang)"
# clang: about twice as fast as GCC to compile with the sanitizers (docs/building.md).
asan_generator=(-G Ninja)
[ -f build-asan/CMakeCache.txt ] && asan_generator=()  # a folder configured earlier keeps its generator
cmake -S . -B build-asan "${asan_generator[@]}" -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCKETGYM_SANITIZE=ON \
  -DROCKETGYM_BUILD_TRAINING=OFF -DROCKETGYM_BUILD_CLI=OFF -DROCKETGYM_BUILD_PYTHON=OFF
cmake --build build-asan -j "$jobs"
# Fewer random playouts: the sanitizers make each one several times slower. The
# sanitizers' run-time options are the fuzz targets' (scripts/sanitizer_env.sh).
(source scripts/sanitizer_env.sh && cd build-asan &&
  ROCKETGYM_CONFORMANCE_GAMES=25 ctest --output-on-failure -j "$jobs")

step "fuzz targets (clang + libFuzzer + ASan + UBSan), a few seconds each"
# Replays tests/fuzz/regressions/ first; longer runs: scripts/fuzz.sh TARGET SECONDS.
# A fixed libFuzzer seed: the same inputs on every run of the test command.
FUZZ_FLAGS="-seed=1 ${FUZZ_FLAGS:-}" scripts/fuzz.sh all 4

step "docs site (MkDocs --strict)"
scripts/docs.sh --check
