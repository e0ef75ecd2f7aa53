#!/usr/bin/env bash
# The main job on a fresh machine: install dependencies, build, train a bot by
# PPO self-play for a few minutes, then pit it against random and heuristic
# bots in the arena (table on stdout, plots and CSV/JSON under runs/).
#
#   scripts/main.sh                      # The Last Blast, 5 minutes of training
#   GAME=rocket_squad MINUTES=10 scripts/main.sh
set -euo pipefail
cd "$(dirname "$0")/.."
game="${GAME:-last_blast}"
minutes="${MINUTES:-5}"

scripts/setup.sh
scripts/build.sh

echo "== training $game for $minutes minutes (run folder runs/${game}_ppo; run again to resume)"
build/rocketgym train "configs/train/${game}_ppo.yaml" --minutes "$minutes"

echo "== arena: the trained bot against random and heuristic bots"
build/rocketgym arena "configs/arena/${game}.yaml"
echo "Learning curve: runs/${game}_ppo/learning_curve.png; arena: runs/arena/${game}/"
