#!/usr/bin/env bash
# Line and branch coverage of the C++ code by the whole test command: builds an
# instrumented tree (gcc --coverage, -O0) in build-cov/, runs the C++ tests
# (ctest) and the Python tests (pytest, on that tree's module), and writes
#
#   build-cov/coverage/summary.md    one row per folder (envs/core, envs/<id>,
#                                    encoders/<id>, games, models, training/*,
#                                    python/src): lines and branches covered
#   build-cov/coverage/index.html    the same per file, each file line by line
#
# with Debian's gcovr (scripts/setup.sh installs it). docs/coverage.md records
# the table and what is not covered.
#
#   scripts/coverage.sh              build everything (LibTorch training, models,
#                                    CLI, both Python modules), run every test,
#                                    report; hours of a shared 2-core machine
#   scripts/coverage.sh engines      only what needs no LibTorch: the engine,
#                                    encoder and search tests (ctest without
#                                    training and distributed) and the Python
#                                    tests of the rocketgym module (not those of
#                                    the trained agents, the tools or the docs);
#                                    a fraction of the build and run time
#   scripts/coverage.sh training     only what reaches training/, models/ and
#                                    python/src/: builds the LibTorch targets
#                                    (training library, CLI, both Python
#                                    modules, the training, serve, distributed
#                                    and search tests), runs those C++ tests,
#                                    every Python test and the browser table's
#                                    (tests/browser), and reports those
#                                    three folders (not the engines: the
#                                    engine suites, the longest part of `all`,
#                                    do not run)
#   scripts/coverage.sh fuzz         what the fuzzers reach: builds each fuzz
#                                    target of tests/fuzz with a plain driver
#                                    (tests/fuzz/replay_main.cpp, no libFuzzer)
#                                    into build-cov/fuzz-replay/, runs each on
#                                    its corpus (FUZZ_CORPUS, default
#                                    build-fuzz/corpus/<target>/ as grown by
#                                    scripts/fuzz.sh; the target's generated
#                                    seeds where there is none) and its
#                                    tests/fuzz/regressions/, and reports into
#                                    build-cov/coverage-fuzz/ (same files, plus
#                                    replayed.md: the inputs per target)
#   scripts/coverage.sh report       the report again from the counts already
#                                    there (into build-cov/coverage/)
#
# Each mode starts from zero counts: the tests' and the fuzzers' counts are
# never mixed (run `fuzz` after the test modes' report is written).
# COVERAGE_JOBS (default: nproc) sets the parallelism of the build and of
# ctest (gcov merges the counts of tests that run at once), COVERAGE_NICE
# (default 10) the niceness of both.
#
# Branches: gcovr's --exclude-throw-branches and --exclude-unreachable-branches,
# so the exception-unwinding edges gcc adds to every call that may throw do not
# count as branches of the code (they are no decision of ours).
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-cov
failed=()
mode="${1:-all}"
case "$mode" in
all | engines | training | fuzz | report) ;;
*)
  echo "usage: scripts/coverage.sh [all|engines|training|fuzz|report]" >&2
  exit 2
  ;;
esac
niced=(nice -n "${COVERAGE_NICE:-10}")
jobs="${COVERAGE_JOBS:-$(nproc)}"

configure() {
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS="--coverage -O0" -DCMAKE_EXE_LINKER_FLAGS=--coverage \
    -DCMAKE_SHARED_LINKER_FLAGS=--coverage -DCMAKE_MODULE_LINKER_FLAGS=--coverage \
    -DROCKETGYM_BUILD_PYTHON=ON -DROCKETGYM_BUILD_TRAINING=ON -DROCKETGYM_FUZZ_REPLAY=ON \
    -DPython_EXECUTABLE=/usr/bin/python3 -DPYBIND11_FINDPYTHON=ON >/dev/null
}

build_targets() {
  "${niced[@]}" cmake --build "$build" -j "$jobs" --target "$@"
}

# The tests, on counts from this run only. A failing test still leaves its
# counts: they are reported, then the script fails.
run_tests() {
  if [ "$mode" = engines ]; then
    local targets=(test_core test_alloc test_search _rocketgym)
    for id in $(ls games); do targets+=("test_$id"); done
    build_targets "${targets[@]}"
    ctest_args=(-E '^(training|distributed|serve)$')
    pytest_args=(--ignore=tests/python/test_agents.py --ignore=tests/python/test_tools.py
      --ignore=tests/python/test_docs.py)
  elif [ "$mode" = training ]; then
    build_targets rocketgym_training rocketgym _rocketgym _agents test_training test_serve \
      test_distributed test_search
    ctest_args=(-R '^(training|serve|distributed|search)$')
    pytest_args=()
  else
    build_targets all
    ctest_args=()
    pytest_args=()
  fi
  find "$build" -name '*.gcda' -delete
  echo "== C++ tests (instrumented)"
  (cd "$build" && "${niced[@]}" ctest -j "$jobs" --output-on-failure "${ctest_args[@]}") || failed+=(ctest)
  echo "== Python tests (instrumented module)"
  ROCKETGYM_BUILD_DIR="$PWD/$build" "${niced[@]}" /usr/bin/python3 -m pytest -q tests/python \
    "${pytest_args[@]}" || failed+=(pytest)
  # `rocketgym serve` over HTTP (training/cli/serve_command.cpp): every server
  # these tests start is stopped by a signal and exits normally, so its counts
  # are written. The page's tests (headless Chromium) skip where it is missing.
  if [ "$mode" != engines ]; then
    echo "== browser table tests (instrumented rocketgym serve)"
    ROCKETGYM_BUILD_DIR="$PWD/$build" "${niced[@]}" /usr/bin/python3 -m pytest -q tests/browser ||
      failed+=(pytest-browser)
  fi
}

# Every fuzz target replays its corpus and its saved reproducers once.
replay_fuzz_corpora() {
  local targets
  targets=$(cmake --build "$build" --target help | sed -n 's/^\.\.\. fuzz_//p' | sort)
  build_targets $(printf 'fuzz_%s ' $targets)
  find "$build" -name '*.gcda' -delete
  local corpora="${FUZZ_CORPUS:-build-fuzz/corpus}" out="$build/coverage-fuzz"
  mkdir -p "$out"
  {
    echo "| target | corpus | inputs | saved reproducers |"
    echo "|---|---|---:|---:|"
  } >"$out/replayed.md"
  for t in $targets; do
    local bin="$build/fuzz-replay/$t" corpus="$corpora/$t" regressions="tests/fuzz/regressions/$t"
    local inputs=("$corpus") from="$corpus" saved=0
    # <game>_actions_fast reads the same inputs as <game>_actions (as in
    # scripts/fuzz.sh): that corpus where it has none of its own.
    if [ "$t" != "${t%_actions_fast}" ] && [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
      corpus="$corpora/${t%_fast}" inputs=("$corpora/${t%_fast}") from="$corpora/${t%_fast}"
    fi
    if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus")" ]; then
      corpus="$build/fuzz-seeds/$t"
      rm -rf "$corpus" && mkdir -p "$corpus"
      ROCKETGYM_FUZZ_WRITE_SEEDS="$corpus" "$bin"
      inputs=("$corpus")
      from="generated seeds"
    fi
    if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
      inputs+=("$regressions")
      saved=$(ls "$regressions" | wc -l)
    fi
    echo "== $t: replaying $(ls "$corpus" | wc -l) inputs ($from) and $saved reproducers"
    "${niced[@]}" "$bin" "${inputs[@]}" 2>"$out/$t.log" >/dev/null || {
      tail -20 "$out/$t.log"
      failed+=("$t")
    }
    echo "| $t | $from | $(ls "$corpus" | wc -l) | $saved |" >>"$out/replayed.md"
  done
}

# The report of the counts now in $build, into the folder $1, of the source
# folders given after it (gcovr filters).
report() {
  local out="$1"
  shift
  local filters=()
  for folder in "$@"; do filters+=(--filter "$folder"); done
  mkdir -p "$out"
  rm -f "$out"/part-*.json
  # gcov finds a source by the path it was compiled with, relative to the folder
  # the compiler ran in (ccache's CCACHE_BASEDIR makes the paths relative): each
  # folder that holds a CMakeFiles/ is one such folder (build-cov, its python/,
  # training/, tests/, tests/fuzz/), read on its own, then all are merged.
  local parts=() objects dir part
  for objects in $(find "$build" -name CMakeFiles -type d -prune | sort); do
    dir=$(dirname "$objects")
    [ -n "$(find "$objects" -name '*.gcda' -print -quit)" ] || continue
    part="$out/part-$(echo "$dir" | tr '/' '_').json"
    gcovr --root . --object-directory "$dir" "${filters[@]}" \
      --exclude-throw-branches --exclude-unreachable-branches --json "$part" "$objects"
    parts+=(--add-tracefile "$part")
  done
  gcovr --root . "${filters[@]}" "${parts[@]}" \
    --json-summary "$out/summary.json" --json-summary-pretty \
    --html-details "$out/index.html" --html-title "rocketgym coverage"
  /usr/bin/python3 scripts/coverage_table.py "$out/summary.json" >"$out/summary.md"
  cat "$out/summary.md"
  echo "coverage: $out/summary.md, $out/index.html"
}

# The project's own sources (not the tests, not generated files).
everything=(envs/ encoders/ games/ models/ training/ python/src/)
case "$mode" in
report) report "$build/coverage" "${everything[@]}" ;;
fuzz)
  configure
  replay_fuzz_corpora
  report "$build/coverage-fuzz" "${everything[@]}"
  ;;
training)
  configure
  run_tests
  report "$build/coverage" models/ training/ python/src/
  ;;
*)
  configure
  run_tests
  report "$build/coverage" "${everything[@]}"
  ;;
esac
if [ ${#failed[@]} -gt 0 ]; then
  echo "coverage: FAILED: ${failed[*]} (the report counts what ran)"
  exit 1
fi
