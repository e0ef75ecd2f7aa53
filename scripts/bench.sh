#!/usr/bin/env bash
# Measures every game's throughput with `rocketgym bench` and writes every
# figure as JSON, for scripts/bench_compare.sh to compare with bench/baseline.json.
#
#   scripts/bench.sh [OUT.json]          (default: $BUILD/bench.json)
#
# Per game, with 2 and 4 players (where the game allows them):
#   single      one state, random legal actions (steps/s)
#   single_obs  the same with the current player's observation encoded each step
#   vector_1    vector env of 256 envs writing observations + masks, 1 thread
#   vector_2    the same, 2 threads
#   async_2     async vector env of 256 envs in batches of 128 (recv, random actions, send), 2 threads
#   heuristic   the game's heuristic bot on every seat (decisions/s, its step included)
# Each figure is the fastest of REPEAT runs of STEPS steps (wall clock: on a
# shared machine the slower runs measure the other load). The file records the
# commit, date, machine and load average, so figures are compared only with
# figures from the same machine.
#
# Environment: BUILD (build folder holding rocketgym, default build), STEPS
# (default 200000), HEURISTIC_STEPS (default 50000), REPEAT (default 3),
# GAMES (default: every game `rocketgym list` shows), PLAYERS (default "2 4"),
# NOTE (free text stored in the metadata, e.g. "quiet machine").
# Never run this as a test: it measures time.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
CLI=$BUILD/rocketgym
OUT=${1:-$BUILD/bench.json}
STEPS=${STEPS:-200000}
HEURISTIC_STEPS=${HEURISTIC_STEPS:-50000}
REPEAT=${REPEAT:-3}
PLAYERS=${PLAYERS:-2 4}
NOTE=${NOTE:-}
PYTHON=${PYTHON:-/usr/bin/python3}

if [[ ! -x $CLI ]]; then
  echo "bench.sh: $CLI not found: build it first (cmake --build $BUILD --target rocketgym)" >&2
  exit 2
fi

list_json=$("$CLI" list --json)
GAMES=${GAMES:-$("$PYTHON" -c 'import json,sys; print(" ".join(g["id"] for g in json.load(sys.stdin)))' <<<"$list_json")}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for game in $GAMES; do
  range=$("$PYTHON" -c '
import json, sys
games = {g["id"]: g for g in json.load(sys.stdin)}
if sys.argv[1] not in games:
    sys.exit("bench.sh: unknown game " + sys.argv[1])
print(games[sys.argv[1]]["min_players"], games[sys.argv[1]]["max_players"])' "$game" <<<"$list_json")
  read -r lo hi <<<"$range"
  for players in $PLAYERS; do
    if ((players < lo || players > hi)); then continue; fi
    echo "== $game, $players players" >&2
    "$CLI" bench "$game" --players "$players" --steps "$STEPS" --repeat "$REPEAT" --json \
      --modes single,single_obs,vector_1,vector_2,async_2 >"$work/$game.$players.env.json"
    "$CLI" bench "$game" --players "$players" --steps "$HEURISTIC_STEPS" --repeat "$REPEAT" --json \
      --modes heuristic >"$work/$game.$players.bot.json"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain --untracked-files=no 2>/dev/null) ]]; then commit+="+dirty"; fi
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
machine="$(hostname) ($(nproc) cores, ${cpu:-unknown CPU})"

"$PYTHON" - "$work" "$OUT" "$commit" "$date" "$machine" "$load_before" "$load_after" "$NOTE" "$STEPS" \
  "$HEURISTIC_STEPS" "$REPEAT" <<'PY'
import glob, json, os, sys
work, out, commit, date, machine, load_before, load_after, note, steps, bot_steps, repeat = sys.argv[1:]
modes = {"single_steps_per_s": "single", "single_encoded_steps_per_s": "single_obs",
         "vector_1_thread_steps_per_s": "vector_1", "vector_2_threads_steps_per_s": "vector_2",
         "async_2_threads_steps_per_s": "async_2",
         "heuristic_decisions_per_s": "heuristic"}
figures = []
for path in sorted(glob.glob(os.path.join(work, "*.json"))):
    with open(path) as f:
        r = json.load(f)
    for key, mode in modes.items():
        if key in r:
            figures.append({"game": r["game"], "players": r["players"], "mode": mode,
                            "steps_per_s": round(r[key], 1), "commit": commit, "date": date,
                            "machine": machine})
order = list(modes.values())
figures.sort(key=lambda f: (f["game"], f["players"], order.index(f["mode"])))
doc = {"meta": {"commit": commit, "date": date, "machine": machine,
                "load_average_before": load_before, "load_average_after": load_after,
                "steps": int(steps), "heuristic_steps": int(bot_steps), "repeat": int(repeat),
                "envs": 256, "note": note},
       "figures": figures}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print(f"bench.sh: {len(figures)} figures written to {out}", file=sys.stderr)
PY
