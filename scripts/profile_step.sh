#!/usr/bin/env bash
# Where a step's time goes, in instructions (valgrind's callgrind): repeatable
# on a loaded machine, unlike wall-clock figures.
#
#   scripts/profile_step.sh GAME [MODE] [PLAYERS] [STEPS]
#
# MODE is a `rocketgym bench` mode: single_obs (default), single, vector_1 or
# heuristic. Counts only the measured loop (--toggle-collect), writes the
# profile to $BUILD/callgrind.GAME.PLAYERS.MODE.out (open it with
# callgrind_annotate or kcachegrind) and prints the parts of a step
# (scripts/callgrind_split.py). BUILD (default build-prof) should be a Release
# build with -g and without LibTorch, which valgrind loads slowly:
#   cmake -S . -B build-prof -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-g -DROCKETGYM_BUILD_TRAINING=OFF
#   cmake --build build-prof --target rocketgym
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 || $# -gt 4 ]]; then
  echo "usage: scripts/profile_step.sh GAME [MODE] [PLAYERS] [STEPS]" >&2
  exit 2
fi
GAME=$1
MODE=${2:-single_obs}
PLAYERS=${3:-2}
BUILD=${BUILD:-build-prof}
case $MODE in
  single | single_obs) loop=single_env_steps_per_second ;;
  vector_1) loop=vector_env_steps_per_second ;;
  heuristic) loop=heuristic_decisions_per_second ;;
  *)
    echo "profile_step.sh: MODE must be single, single_obs, vector_1 or heuristic, not '$MODE'" >&2
    exit 2
    ;;
esac
# The vector env runs whole batches of 256 envs; the bot is slower per decision.
default_steps=20000
[[ $MODE == vector_1 ]] && default_steps=51200
[[ $MODE == heuristic ]] && default_steps=5000
STEPS=${4:-$default_steps}
out=$BUILD/callgrind.$GAME.$PLAYERS.$MODE.out
valgrind --tool=callgrind --callgrind-out-file="$out" --log-file="$out.log" --toggle-collect="*${loop}*" \
  "$BUILD/rocketgym" bench "$GAME" --players "$PLAYERS" --steps "$STEPS" --modes "$MODE" >/dev/null
"${PYTHON:-/usr/bin/python3}" scripts/callgrind_split.py "$out" "$STEPS" "$GAME"
