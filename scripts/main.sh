#!/usr/bin/env bash
# The main job on a fresh machine: install dependencies, build the command line, train a bot by
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
# The command line alone: the main job runs nothing else (the tests and the Python
# module are scripts/test.sh's; a later scripts/build.sh builds them in the same folder).
scripts/build.sh --target rocketgym

echo "== training $game for $minutes minutes (run folder runs/${game}_ppo; run again to resume)"
build/rocketgym train "configs/train/${game}_ppo.yaml" --minutes "$minutes"

# The arena config's agents (the trained bot, random, heuristic), plus the
# project's zoo bot for the game when there is one (models/zoo/<game>.ckpt),
# so the new bot is placed between random, the heuristic and the zoo.
agents=()
if [[ -f "models/zoo/${game}.ckpt" ]]; then
  mode=$(grep -m1 -oP '^\s*mode:\s*\K\w+' "configs/arena/${game}.yaml" || echo greedy)
  agents=(--agent "ppo=checkpoint:runs/${game}_ppo/checkpoints/latest.ckpt:${mode}" --agent random
          --agent heuristic --agent "zoo=zoo:${game}")
fi
echo "== arena: the trained bot against random and heuristic bots${agents:+ and the zoo bot}"
build/rocketgym arena "configs/arena/${game}.yaml" "${agents[@]}"
echo "Learning curve: runs/${game}_ppo/learning_curve.png; arena: runs/arena/${game}/"
