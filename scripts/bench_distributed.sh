#!/usr/bin/env bash
# Training on several processes (torchrun) against one process, on this
# machine: a game's PPO preset as 1 process x 2 threads and as 2 processes x
# 1 thread, for the same wall-clock budget (MINUTES). Prints both rates
# (learner samples/s of PPO self-play), their ratio, and an arena of both bots
# against random play. The imitation warm start is skipped (IMITATION=0): on
# a busy 2-core machine it alone outlasts a short budget.
#
#   scripts/bench_distributed.sh                    # The Last Blast, 2 minutes each
#   MINUTES=10 GAME=rocket_squad BUILD=build scripts/bench_distributed.sh
#
# Measure on a quiet machine: other jobs on the 2 cores change the ratio.
# The load average is logged before each run.
set -euo pipefail
cd "$(dirname "$0")/.."
game="${GAME:-last_blast}"
minutes="${MINUTES:-2}"
imitation="${IMITATION:-0}"
build="${BUILD:-build}"
out="${OUT:-runs/bench_distributed/$game}"
port="${PORT:-29533}"
games="${GAMES:-200}"
config="configs/train/${game}_ppo.yaml"
rocketgym="$PWD/$build/rocketgym"

rm -rf "$out"
mkdir -p "$out"
train=(train "$config" --minutes "$minutes" --steps 1000000000 --set run.plot=false --set imitation.steps="$imitation")

echo "== 1 process x 2 threads (load: $(cut -d' ' -f1-3 /proc/loadavg))" | tee "$out/one.log"
"$rocketgym" "${train[@]}" --run-dir "$out/one" --threads 2 2>&1 | tee -a "$out/one.log"

echo "== 2 processes x 1 thread, torchrun (load: $(cut -d' ' -f1-3 /proc/loadavg))" | tee "$out/two.log"
# -r 1 -t 1: Debian 12's torchrun fails at start without them (Python 3.11).
torchrun -r 1 -t 1 --nproc_per_node=2 --master_addr=127.0.0.1 --master_port="$port" --no_python \
  "$rocketgym" "${train[@]}" --run-dir "$out/two" --threads 1 2>&1 | tee -a "$out/two.log"

rate() { grep -o '[0-9]* positions/s this session' "$1" | tail -1 | cut -d' ' -f1; }
one=$(rate "$out/one.log")
two=$(rate "$out/two.log")
echo "== samples/s: 1 process x 2 threads $one, 2 processes x 1 thread $two, ratio $(awk "BEGIN{printf \"%.2f\", $two/$one}")"

echo "== arena: both bots (greedy) against random play, $games seeds per pair, every seat"
"$rocketgym" arena --game "$game" --agent "one_process=checkpoint:$out/one/checkpoints/latest.ckpt" \
  --agent "two_processes=checkpoint:$out/two/checkpoints/latest.ckpt" --agent random \
  --games "$games" --threads 2 --no-plot --quiet --output "$out/arena"
