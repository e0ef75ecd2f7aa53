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
# The tests run side by side (ctest -j, pytest -n, the sanitized build in the background), so a
# test's OpenMP threads often wait for a sibling that has no core. By default they spin while they
# wait, taking the core from the thread they wait for: a 2-thread vector env then steps 30-40 times
# slower beside another busy process (docs/building.md). Passive waiting sleeps instead. The
# tests check results, never speed; the benchmarks (scripts/bench.sh) keep the default.
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"

if [ "${1:-}" = --game ]; then
  game="${2:-}"
  if [ $# -ne 2 ] || [ ! -f "games/$game/${game}_game.h" ]; then
    echo "scripts/test.sh: --game needs one game id, one of: $(ls games | tr '\n' ' ')" >&2
    exit 2
  fi
  scripts/build.sh  # incremental: the edited files, then every target relinked against them
  (cd build && ctest --output-on-failure -j "$jobs" -R "^(${game}|${game}_variants|conformance_${game})\$")
  # The Python tests whose name holds the game's id: those parametrized over the games, for this one.
  ROCKETGYM_BUILD_DIR="$PWD/build" /usr/bin/python3 -m pytest -q -n "$jobs" --dist loadgroup tests/python -k "$game"
  exit 0
elif [ $# -gt 0 ]; then
  echo "scripts/test.sh: unknown argument '$1' (expected nothing or --game ID)" >&2
  exit 2
fi

# Each step's wall time, listed at the end, also when a step fails: CI gives
# the whole command 90 minutes, and this list says where they went.
# Beside the wall seconds, the CPU seconds (user + system) of the step's processes: their
# ratio says how well the step keeps the cores busy.
step_times=()
cpu_seconds() {  # this shell's finished children's user + system CPU seconds (cutime + cstime)
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%d", ($14 + $15) / hz }' "/proc/$$/stat"
}
step() {  # step NAME: ends the step before (if any), starts NAME ("" only ends)
  local cpu
  cpu=$(cpu_seconds)
  if [ -n "${step_name:-}" ]; then
    step_times+=("$(printf '%6d s %7d CPU s  %s' $((SECONDS - step_start)) $((cpu - step_cpu)) "$step_name")")
  fi
  step_name="$1"
  step_start=$SECONDS
  step_cpu=$cpu
  if [ -n "$1" ]; then echo "== $1"; fi
}
# On exit (also when a step fails): the background build, if still running, is stopped
# (it has its own process group), then the list of steps.
asan_build=""
trap 'status=$?; [ -z "$asan_build" ] || kill -- "-$asan_build" 2>/dev/null || true; step "";
  echo "== seconds per step (exit status $status, $SECONDS s in all)"; printf "%s\n" "${step_times[@]}"' EXIT

step "install (scripts/setup.sh)"
scripts/setup.sh

step "C++ style (clang-format)"
scripts/format.sh --check

step "build (scripts/build.sh)"
scripts/build.sh

# The sanitized tree (the engine with ASan + UBSan and the fuzzers' coverage instrumentation,
# linked into its tests and into the libFuzzer targets) builds in the background at the lowest
# priority while the tests of the tree above run: it takes only the CPU they leave idle (a test
# waiting on a browser, the last test of a ctest -j run), then all of it once they end. Its
# output goes to build-asan/build.log, shown if it fails; its CPU seconds count in the step that
# waits for it. clang: about twice as fast as GCC to compile with the sanitizers
# (docs/building.md).
asan_generator=(-G Ninja)
[ -f build-asan/CMakeCache.txt ] && asan_generator=()  # a folder configured earlier keeps its generator
mkdir -p build-asan
# setsid: its own process group, stopped as one. A new session is also a new scheduler group
# where the kernel groups by session (autogroup, Debian's default), and nice acts only inside a
# group: the group itself is set to nice 19 (/proc/self/autogroup), else the build would take
# half the CPU from the tests.
setsid nice -n 19 bash -c '{ echo 19 >/proc/self/autogroup; } 2>/dev/null || true
  cmake -S . -B build-asan "$@" -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCKETGYM_SANITIZE=ON -DROCKETGYM_FUZZ=ON \
  -DROCKETGYM_BUILD_TRAINING=OFF -DROCKETGYM_BUILD_CLI=OFF -DROCKETGYM_BUILD_PYTHON=OFF &&
  cmake --build build-asan -j "$(nproc)"' asan-build "${asan_generator[@]}" >build-asan/build.log 2>&1 &
asan_build=$!

step "C++ tests"
# -j: the tests are separate processes, one per core at a time.
(cd build && ctest --output-on-failure -j "$jobs")

step "Python tests"
# Gymnasium's and PettingZoo's sources, where there are (docs/python.md, "Official checkers"): the
# checker and registration tests run with them and are skipped, saying so, without.
# -n: pytest-xdist spreads the tests over one worker process per core; --dist loadgroup keeps the
# tests that share state in one xdist_group on one worker, in order (tests/python/test_docs.py).
FARAMA="${ROCKETGYM_FARAMA:-$HOME/farama}"
[ -d "$FARAMA/Gymnasium" ] || FARAMA=""
ROCKETGYM_FARAMA="$FARAMA" ROCKETGYM_BUILD_DIR="$PWD/build" /usr/bin/python3 -m pytest -q -rs -n "$jobs" --dist loadgroup tests/python

step "browser table (rocketgym serve: its JSON API, then the page in headless Chromium)"
ROCKETGYM_BUILD_DIR="$PWD/build" /usr/bin/python3 -m pytest -q -rs -n "$jobs" --dist loadgroup tests/browser

step "environment tests under ASan + UBSan (clang; waits for the build started above)"
status=0
wait "$asan_build" || status=$?
asan_build=""
if [ "$status" != 0 ]; then
  tail -60 build-asan/build.log
  echo "scripts/test.sh: the sanitized build failed (exit status $status; whole log: build-asan/build.log)" >&2
  exit 1
fi
# Fewer random playouts, and the full checks (every legal action applied, JSON round trips,
# browser views; the resampled worlds' views too) in 2 of each run's: the sanitizers make each
# check several times slower, its JSON documents most, and the release tree above ran them in
# full (docs/building.md). The sanitizers' run-time options are the fuzz targets'
# (scripts/sanitizer_env.sh).
(source scripts/sanitizer_env.sh && cd build-asan &&
  ROCKETGYM_CONFORMANCE_GAMES=25 ROCKETGYM_CONFORMANCE_DEEP_GAMES=2 ctest --output-on-failure -j "$jobs")

step "fuzz targets (libFuzzer + ASan + UBSan), a few seconds each"
# Replays tests/fuzz/regressions/ first; longer runs: scripts/fuzz.sh TARGET SECONDS.
# A fixed libFuzzer seed: the same inputs on every run of the test command; one target a core.
FUZZ_JOBS="$jobs" FUZZ_PREBUILT=build-asan/fuzz FUZZ_FLAGS="-seed=1 ${FUZZ_FLAGS:-}" scripts/fuzz.sh all 4

step "docs site (MkDocs --strict)"
scripts/docs.sh --check
