#!/usr/bin/env bash
# Strength against training time for one game: trains the game's PPO preset
# for MINUTES (default 30) with weights-only snapshots after 5, 10, 20 and 30
# minutes, then rates the snapshots against each other and the heuristic and
# random bots in one arena (200 games per pair, every seed in both seats).
#
#   scripts/rating_vs_compute.sh GAME [MINUTES] [THREADS]
#
# Writes runs/compute_<game>/ (the training run) and
# runs/compute_<game>_arena/ (table.txt, report.json...). Plot several games:
#   /usr/bin/python3 training/plot.py compute lift_off=runs/compute_lift_off_arena/report.json,... out.png
# On a machine shared with other jobs use THREADS=1 (the default).
set -euo pipefail
cd "$(dirname "$0")/.."
game="${1:?usage: scripts/rating_vs_compute.sh GAME [MINUTES] [THREADS]}"
minutes="${2:-30}"
threads="${3:-1}"
run="runs/compute_$game"
bin=build/rocketgym
[ -x "$bin" ] || scripts/build.sh

"$bin" train "configs/train/${game}_ppo.yaml" --run-dir "$run" --minutes "$minutes" --threads "$threads" \
  --set 'run.snapshot_minutes=[5, 10, 20, 30]'
agents=(--agent random --agent heuristic)
for snapshot in "$run"/checkpoints/minute_*.ckpt; do
  m=$(basename "$snapshot" .ckpt | sed 's/minute_0*\([0-9]\)/\1/')  # minute_005 -> 5, minute_000.5 -> 0.5
  agents+=(--agent "m$m=checkpoint:$snapshot")
done
"$bin" arena --game "$game" "${agents[@]}" --games 100 --threads "$threads" --quiet --no-plot \
  --output "${run}_arena"
