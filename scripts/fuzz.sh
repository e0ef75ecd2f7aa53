#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang into build-fuzz/ and runs them.
#
#   scripts/fuzz.sh                    every target for 5 s each
#   scripts/fuzz.sh TARGET [SECONDS]   one target (e.g. lift_off_position, config) for SECONDS (default 60)
#   scripts/fuzz.sh all SECONDS        every target for SECONDS each
#   scripts/fuzz.sh list               the target names
#
# Before fuzzing, each target replays its saved reproducers in
# tests/fuzz/regressions/<target>/ (inputs that once found a bug): any crash
# there fails at once. Each target fuzzes in one process (no -jobs: the
# machine is shared) from a seed
# corpus its binary generates (ROCKETGYM_FUZZ_WRITE_SEEDS) into
# build-fuzz/corpus/<target>/, which keeps growing from run to run.
# New crashes are saved in build-fuzz/crashes/<target>/; the script exits
# non-zero when a target finds one. Extra libFuzzer flags: FUZZ_FLAGS="-max_len=..."
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-fuzz
target="${1:-all}"
seconds="${2:-}"
[ "$target" = all ] && [ -z "$seconds" ] && seconds=5
[ -z "$seconds" ] && seconds=60

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DROCKETGYM_FUZZ=ON -DROCKETGYM_BUILD_TESTS=OFF -DROCKETGYM_BUILD_TRAINING=OFF \
  -DROCKETGYM_BUILD_CLI=OFF -DROCKETGYM_BUILD_PYTHON=OFF >/dev/null

all_targets() {
  cmake --build "$build" --target help | sed -n 's/^\.\.\. fuzz_//p' | sort
}

if [ "$target" = list ]; then
  all_targets
  exit 0
fi
if [ "$target" = all ]; then
  targets=$(all_targets)
  cmake --build "$build" -j "$(nproc)"
else
  targets="$target"
  cmake --build "$build" -j "$(nproc)" --target "fuzz_$target"
fi

# max_malloc_fill_size=0: no pattern fill of each new allocation (a third of
# the run time of the game targets, and no help to ASan's checks).
# quarantine_size_mb=32 (default 256): freed memory is reused sooner, so
# fewer fresh pages are faulted in; the game targets run ~1.5x faster and a
# use after free is still caught within 32 MB of later allocations.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:max_malloc_fill_size=0:quarantine_size_mb=32:malloc_context_size=8}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/tests/fuzz/lsan.supp}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
for t in $targets; do
  bin="$build/fuzz/$t"
  corpus="$build/corpus/$t"
  crashes="$build/crashes/$t"
  mkdir -p "$corpus" "$crashes"
  if [ -z "$(ls -A "$corpus")" ]; then
    ROCKETGYM_FUZZ_WRITE_SEEDS="$corpus" "$bin"
  fi
  regressions="tests/fuzz/regressions/$t"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    echo "== $t: replaying $(ls "$regressions" | wc -l) saved reproducers"
    "$bin" "$regressions"/* 2>"$build/$t.regressions.log" || {
      tail -40 "$build/$t.regressions.log"
      failed+=("$t (regression set)")
      continue
    }
  fi
  echo "== $t: fuzzing for ${seconds}s"
  # -timeout: one input running this long is a hang (an endless loop).
  # -rss_limit_mb / -malloc_limit_mb: a bounded loader never needs more.
  if "$bin" "$corpus" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=4096 -malloc_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" ${FUZZ_FLAGS:-} >"$build/$t.log" 2>&1; then
    grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec' "$build/$t.log" |
      tr '\n' ' ' | sed 's/stat:://g; s/$/\n/'
  else
    tail -60 "$build/$t.log"
    failed+=("$t")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in $build/crashes/, logs in $build/*.log)"
  exit 1
fi
echo "fuzz: every target ran clean"
