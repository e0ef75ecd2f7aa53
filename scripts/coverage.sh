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
#   scripts/coverage.sh              build, run every test, report
#   scripts/coverage.sh engines      only what needs no LibTorch: the engine,
#                                    encoder and search tests (ctest without
#                                    training and distributed) and the Python
#                                    tests of the rocketgym module (not those of
#                                    the trained agents, the tools or the docs);
#                                    a fraction of the build and run time
#   scripts/coverage.sh report       the report again from the counts already there
#
# Branches: gcovr's --exclude-throw-branches and --exclude-unreachable-branches,
# so the exception-unwinding edges gcc adds to every call that may throw do not
# count as branches of the code (they are no decision of ours).
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-cov
out="$build/coverage"
failed=()

mode="${1:-all}"
if [ "$mode" != report ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS="--coverage -O0" -DCMAKE_EXE_LINKER_FLAGS=--coverage \
    -DCMAKE_SHARED_LINKER_FLAGS=--coverage -DCMAKE_MODULE_LINKER_FLAGS=--coverage \
    -DROCKETGYM_BUILD_PYTHON=ON -DROCKETGYM_BUILD_TRAINING=ON \
    -DPython_EXECUTABLE=/usr/bin/python3 -DPYBIND11_FINDPYTHON=ON >/dev/null
  if [ "$mode" = engines ]; then
    targets=(test_core test_alloc test_search _rocketgym)
    for id in $(ls games); do targets+=("test_$id"); done
    cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
    ctest_args=(-E '^(training|distributed)$')
    pytest_args=(--ignore=tests/python/test_agents.py --ignore=tests/python/test_tools.py
      --ignore=tests/python/test_docs.py)
  else
    cmake --build "$build" -j "$(nproc)"
    ctest_args=()
    pytest_args=()
  fi

  # Counts from this run only.
  find "$build" -name '*.gcda' -delete

  # A failing test still leaves its counts: report them, then fail.
  echo "== C++ tests (instrumented)"
  (cd "$build" && ctest --output-on-failure "${ctest_args[@]}") || failed+=(ctest)
  echo "== Python tests (instrumented module)"
  ROCKETGYM_BUILD_DIR="$PWD/$build" /usr/bin/python3 -m pytest -q tests/python "${pytest_args[@]}" || failed+=(pytest)
fi

mkdir -p "$out"
rm -f "$out"/part-*.json
# gcov finds a source by the path it was compiled with, relative to the folder
# the compiler ran in (ccache's CCACHE_BASEDIR makes the paths relative): each
# folder that holds a CMakeFiles/ is one such folder (build-cov, its python/,
# training/, tests/), read on its own, then all are merged.
filters=(--filter 'envs/' --filter 'encoders/' --filter 'games/' --filter 'models/'
  --filter 'training/' --filter 'python/src/')
parts=()
for objects in $(find "$build" -name CMakeFiles -type d -prune | sort); do
  dir=$(dirname "$objects")
  [ -n "$(find "$objects" -name '*.gcda' -print -quit)" ] || continue
  part="$out/part-$(echo "$dir" | tr '/' '_').json"
  # The project's own sources only (not the tests, not generated files).
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
if [ ${#failed[@]} -gt 0 ]; then
  echo "coverage: tests FAILED: ${failed[*]} (the report counts what ran)"
  exit 1
fi
