#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang into build-fuzz/ and runs them.
#
#   scripts/fuzz.sh                    every target for 5 s each
#   scripts/fuzz.sh TARGET [SECONDS]   one target (e.g. lift_off_position, config) for SECONDS (default 60)
#   scripts/fuzz.sh all SECONDS        every target for SECONDS each
#   scripts/fuzz.sh list               the target names
#   scripts/fuzz.sh plateau TARGET|all [QUIET] [MAX]
#                                      run each target until its coverage (libFuzzer's
#                                      cov:, the edges reached) has not grown for QUIET
#                                      seconds of the fuzzer's own CPU time (default
#                                      1800) or MAX wall-clock seconds have passed
#                                      (default: no limit); one row per target goes to
#                                      build-fuzz/plateau.md (executions, wall and CPU
#                                      seconds, cov, ft, corpus, when cov and ft last grew)
#   FUZZ_PREBUILT=1 scripts/fuzz.sh ...  build nothing: run the binaries already in
#                                      build-fuzz/fuzz/ (built elsewhere and copied here)
#   FUZZ_PREBUILT=DIR scripts/fuzz.sh ...  the same with the binaries in DIR (scripts/test.sh:
#                                      build-asan/fuzz, built with its sanitizer tests)
#   FUZZ_JOBS=N scripts/fuzz.sh all SECONDS  N targets at a time (default 1; scripts/test.sh:
#                                      one a core); a game's <game>_actions and
#                                      <game>_actions_fast stay one after the other
#   FUZZ_SANITIZE=0 scripts/fuzz.sh ...  the targets without ASan + UBSan, built in
#                                      build-fuzz-nosan/ (its logs and plateau.md there),
#                                      about three times faster: to grow the corpora in
#                                      build-fuzz/corpus/ before a plateau run of the
#                                      sanitized targets
#
# Before fuzzing, each target replays its saved reproducers in
# tests/fuzz/regressions/<target>/ (inputs that once found a bug): any crash
# there fails at once. Each target fuzzes in one process (no -jobs: the
# machine is shared) on its corpus build-fuzz/corpus/<target>/, which keeps
# growing from run to run; each run first writes the seeds its binary
# generates (ROCKETGYM_FUZZ_WRITE_SEEDS) into it. A target whose corpus is
# empty starts from its twin's too where that has one (<game>_actions and
# <game>_actions_fast read the same inputs).
# The position, config and checkpoint targets fuzz with a dictionary their
# binary writes (ROCKETGYM_FUZZ_WRITE_DICT) into build-fuzz/dict/<target>.dict.
# New crashes are saved in build-fuzz/crashes/<target>/; the script exits
# non-zero when a target finds one. Extra libFuzzer flags: FUZZ_FLAGS="-max_len=..."
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-fuzz
# Both builds fuzz the same corpora.
corpora=build-fuzz/corpus
case "${FUZZ_SANITIZE:-1}" in
  1) sanitize=ON ;;
  0) sanitize=OFF build=build-fuzz-nosan ;;
  *) echo "fuzz.sh: FUZZ_SANITIZE must be 1 (ASan + UBSan, the default) or 0, not '$FUZZ_SANITIZE'" >&2; exit 2 ;;
esac
plateau=0
if [ "${1:-}" = plateau ]; then
  plateau=1
  shift
  quiet="${2:-1800}"
  max_seconds="${3:-0}"
  set -- "${1:-all}" "$max_seconds"
fi
target="${1:-all}"
seconds="${2:-}"
[ "$target" = all ] && [ -z "$seconds" ] && seconds=5
[ -z "$seconds" ] && seconds=60

prebuilt="${FUZZ_PREBUILT:-0}"
binaries="$build/fuzz"
if [ "$prebuilt" != 0 ]; then
  # The binaries were built on another machine and copied here (e.g. to fuzz on
  # one with more cores), or by another tree: build nothing.
  [ "$prebuilt" = 1 ] || binaries="$prebuilt"
  [ -d "$binaries" ] || { echo "fuzz.sh: FUZZ_PREBUILT: no folder '$binaries'" >&2; exit 2; }
  prebuilt=1
  all_targets() { ls "$binaries" | sort; }
else
  # Two runs of this script at once (e.g. two plateau runs, one a core) build
  # one after the other: cmake and make are not safe to run twice on one folder.
  mkdir -p "$build"
  exec 9>"$build/.build-lock"
  flock 9
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DROCKETGYM_FUZZ=ON -DROCKETGYM_FUZZ_SANITIZE="$sanitize" \
    -DROCKETGYM_BUILD_TESTS=OFF -DROCKETGYM_BUILD_TRAINING=OFF \
    -DROCKETGYM_BUILD_CLI=OFF -DROCKETGYM_BUILD_PYTHON=OFF >/dev/null
  all_targets() {
    cmake --build "$build" --target help | sed -n 's/^\.\.\. fuzz_//p' | sort
  }
fi

if [ "$target" = list ]; then
  all_targets
  exit 0
fi
targets="$target"
[ "$target" = all ] && targets=$(all_targets)
if [ "$prebuilt" != 1 ]; then
  if [ "$target" = all ]; then
    cmake --build "$build" -j "$(nproc)"
  else
    cmake --build "$build" -j "$(nproc)" --target "fuzz_$target"
  fi
  flock -u 9
fi

# FUZZ_JOBS > 1: the targets run N at a time, each group of twins (<game>_actions, then
# <game>_actions_fast, which starts from its twin's corpus) in one job, each job this script
# again on one target at a time with the binaries built above. A job's output is printed
# whole when it ends.
jobs_wanted="${FUZZ_JOBS:-1}"
if ! [[ "$jobs_wanted" =~ ^[1-9][0-9]{0,2}$ ]]; then
  echo "fuzz.sh: FUZZ_JOBS must be a whole number from 1 to 999, not '$jobs_wanted'" >&2
  exit 2
fi
if [ "$jobs_wanted" -gt 1 ] && [ "$target" = all ] && [ "$plateau" = 0 ]; then
  groups=$(for t in $targets; do echo "${t%_fast}"; done | sort -u)
  mkdir -p "$build"
  failed=()
  pids=() names=()
  # Waits for one job to end; records it as failed when it did.
  reap() {
    local i pid
    while :; do
      for i in "${!pids[@]}"; do
        pid="${pids[$i]}"
        if ! kill -0 "$pid" 2>/dev/null; then
          wait "$pid" || failed+=("${names[$i]}")
          cat "$build/job-${names[$i]}.log"
          unset "pids[$i]" "names[$i]"
          return
        fi
      done
      wait -n 2>/dev/null || true
    done
  }
  for g in $groups; do
    [ "${#pids[@]}" -lt "$jobs_wanted" ] || reap
    members=$(for t in $targets; do if [ "${t%_fast}" = "$g" ]; then echo "$t"; fi; done)
    (
      rc=0
      for t in $members; do
        FUZZ_JOBS=1 FUZZ_PREBUILT="$binaries" scripts/fuzz.sh "$t" "$seconds" || rc=1
      done
      exit "$rc"
    ) >"$build/job-$g.log" 2>&1 &
    pids+=($!) names+=("$g")
  done
  while [ "${#pids[@]}" -gt 0 ]; do reap; done
  if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]} (inputs in $build/crashes/, logs in $build/*.log)"
    exit 1
  fi
  echo "fuzz: every target ran clean"
  exit 0
fi

source scripts/sanitizer_env.sh
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/tests/fuzz/lsan.supp}"
# The last "cov: N ft: M corp: C/S" status line of a libFuzzer log, as "N M C S".
last_status() {
  grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$1" | tail -1 |
    sed -E 's/cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)\/(.*)/\1 \2 \3 \4/'
}

# Runs one target (arguments: the libFuzzer command line) until cov has not
# grown for $quiet seconds of the fuzzer's own CPU time, polling its log every 5 s, then stops it with
# SIGINT (libFuzzer prints its final stats and exits), and appends its row to
# $build/plateau.md. Returns non-zero when the target itself failed (a crash).
run_to_plateau() {
  local log="$1"
  shift
  "$@" >"$log" 2>&1 &
  local pid=$! start=$SECONDS cov=0 ft=0 cov_at=0 ft_at=0 status stopped=0 cpu=0 c
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    # The quiet window counts the fuzzer's own CPU seconds, not the wall clock:
    # on a shared machine a fuzzer may get a few percent of a core, and thirty
    # minutes of wall clock would then be a minute or two of fuzzing.
    c=$(cpu_seconds "$pid") && [ -n "$c" ] && cpu=$c
    status=$(last_status "$log")
    if [ -n "$status" ]; then
      set -- $status
      [ "$1" -gt "$cov" ] && cov=$1 cov_at=$cpu
      [ "$2" -gt "$ft" ] && ft=$2 ft_at=$cpu
    fi
    if [ $((cpu - cov_at)) -ge "$quiet" ]; then
      stopped=1
      kill -INT "$pid" 2>/dev/null || true
      break
    fi
  done
  local rc=0
  wait "$pid" || rc=$?
  # 72: libFuzzer's exit code after SIGINT (-interrupted_exit_code).
  [ "$stopped" = 1 ] && [ "$rc" = 72 ] && rc=0
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  set -- $(last_status "$log")
  local why="cov flat for ${quiet} CPU s"
  [ "$stopped" = 1 ] || why="time limit"
  [ "$rc" = 0 ] || why="FAILED (exit $rc)"
  printf '| %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s |\n' "$t" "${runs:-?}" \
    "$((SECONDS - start))" "$cpu" "${1:-?}" "${2:-?}" "${3:-?}" "${4:-?}" "$cov_at" "$ft_at" "$why" |
    tee -a "$build/plateau.md"
  return "$rc"
}

# The CPU seconds (user + system) process $1 has used so far, from /proc.
cpu_seconds() {
  local ticks
  ticks=$(awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$ticks" ] && echo $((ticks / $(getconf CLK_TCK)))
}

# The table's header, written once: under a lock, as two plateau runs started
# at the same moment would otherwise both find the file empty and both write it.
if [ "$plateau" = 1 ]; then
  (
    flock 8
    [ -s "$build/plateau.md" ] || {
      echo "| target | executions | seconds | CPU seconds | cov | ft | corpus (size) | cov last grew at CPU s | ft last grew at CPU s | stop |"
      echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    } >"$build/plateau.md"
  ) 8>"$build/.plateau-lock"
fi

failed=()
for t in $targets; do
  bin="$binaries/$t"
  corpus="$corpora/$t"
  crashes="$build/crashes/$t"
  mkdir -p "$corpus" "$crashes"
  if [ -z "$(ls -A "$corpus")" ]; then
    twin=""
    case "$t" in
      *_actions_fast) twin="$corpora/${t%_fast}" ;;
      *_actions) twin="$corpora/${t}_fast" ;;
    esac
    if [ -n "$twin" ] && [ -n "$(ls -A "$twin" 2>/dev/null)" ]; then
      cp "$twin"/* "$corpus"/
    fi
  fi
  # The seeds go into a grown corpus too (the same names, rewritten), so that
  # seeds a changed harness adds reach the corpora kept from earlier runs.
  ROCKETGYM_FUZZ_WRITE_SEEDS="$corpus" "$bin"
  # A target whose input is text (a position, a config, a checkpoint's
  # metadata) writes its libFuzzer dictionary, the words of its format as the
  # code knows them; an actions target writes none. -runs=0: a binary built
  # before dictionaries existed ignores the variable and must not start fuzzing.
  dict="$build/dict/$t.dict"
  mkdir -p "$build/dict"
  rm -f "$dict"
  if ! ROCKETGYM_FUZZ_WRITE_DICT="$PWD/$dict" "$bin" -runs=0 >"$build/$t.dict.log" 2>&1; then
    tail -20 "$build/$t.dict.log"
    failed+=("$t (writing its dictionary)")
    continue
  fi
  dict_flag=()
  [ -s "$dict" ] && dict_flag=(-dict="$dict")
  regressions="tests/fuzz/regressions/$t"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    echo "== $t: replaying $(ls "$regressions" | wc -l) saved reproducers"
    "$bin" "$regressions"/* 2>"$build/$t.regressions.log" || {
      tail -40 "$build/$t.regressions.log"
      failed+=("$t (regression set)")
      continue
    }
  fi
  if [ "$plateau" = 1 ]; then
    echo "== $t: fuzzing until cov is flat for ${quiet}s (at most ${seconds}s; 0 = no limit)"
    run_to_plateau "$build/$t.log" "$bin" "$corpus" -max_total_time="$seconds" -timeout=20 \
      -rss_limit_mb=4096 -malloc_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$crashes/" "${dict_flag[@]}" ${FUZZ_FLAGS:-} || {
      tail -60 "$build/$t.log"
      failed+=("$t")
    }
    continue
  fi
  echo "== $t: fuzzing for ${seconds}s"
  # -timeout: one input running this long is a hang (an endless loop).
  # -rss_limit_mb / -malloc_limit_mb: a bounded loader never needs more.
  if "$bin" "$corpus" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=4096 -malloc_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "${dict_flag[@]}" ${FUZZ_FLAGS:-} >"$build/$t.log" 2>&1; then
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
