#!/usr/bin/env bash
# Expert iteration's bot against the search it learned from (docs/training.md,
# "Expert iteration"). Each checkpoint plays in one seat under the search it
# was trained with, without its noise (a Gumbel root, priors from the network,
# leaf values from heuristic playouts); the untrained teacher
# `ismcts:200:heuristic:4` plays every other seat; every seat rotation, GAMES
# seeds from SEED (GAMES x PLAYERS games).
#
#   scripts/expert_vs_teacher.sh GAME PLAYERS SEED GAMES CHECKPOINT...
#
# Settings (environment): SIMULATIONS (200) and PLAYOUTS (4) of both searches,
# TEACHER_SIMULATIONS (SIMULATIONS; more for the match at equal CPU time per
# move), HEURISTIC_PRIOR (0: the network's priors alone) and PLAYOUT_WEIGHT
# (1: the playouts' values alone) of the expert's search, THREADS (1), OUT
# (runs/expert_vs_teacher: where the arenas go), ROCKETGYM_BUILD_DIR (build).
# Prints one line per checkpoint: its win share with its 95 % interval (the
# fair share is 1/PLAYERS) and its rating minus the teacher's (Plackett-Luce,
# Elo scale); each arena is kept in OUT/<game>_<players>p_<checkpoint name>/.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/expert_vs_teacher.sh GAME PLAYERS SEED GAMES CHECKPOINT..."
game="${1:?$usage}"
players="${2:?$usage}"
seed="${3:?$usage}"
games="${4:?$usage}"
shift 4
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
sims="${SIMULATIONS:-200}"
playouts="${PLAYOUTS:-4}"
teacher_sims="${TEACHER_SIMULATIONS:-$sims}"
prior="${HEURISTIC_PRIOR:-0}"
weight="${PLAYOUT_WEIGHT:-1}"
threads="${THREADS:-1}"
arenas="${OUT:-runs/expert_vs_teacher}"
bin="${ROCKETGYM_BUILD_DIR:-build}/rocketgym"
[ -x "$bin" ] || scripts/build.sh

printf '%-32s %-28s %s\n' checkpoint "win share [95 %]" "rating - teacher"
for checkpoint in "$@"; do
  [ -f "$checkpoint" ] || { echo "no checkpoint file '$checkpoint'" >&2; exit 2; }
  name=$(basename "$(dirname "$(dirname "$checkpoint")")")_$(basename "$checkpoint" .ckpt)
  out="$arenas/${game}_${players}p_${name}"
  rm -rf "$out"
  mkdir -p "$out"
  # The expert's search over a checkpoint has no command-line form: an arena config.
  cat > "$out/arena.yaml" <<EOF
game: {id: $game, players: $players}
agents:
  - name: expert
    kind: ismcts
    checkpoint: $checkpoint
    mcts: {simulations: $sims, root: gumbel, gumbel_scale: 0, rollout_policy: heuristic, rollouts: $playouts,
           heuristic_prior: $prior, playout_weight: $weight}
  - name: teacher
    kind: ismcts
    mcts: {simulations: $teacher_sims, rollout_policy: heuristic, heuristic_prior: 0.5, rollouts: $playouts}
games: $games
seed: $seed
threads: $threads
one_vs_each: expert
output: $out
plot: false
EOF
  "$bin" arena "$out/arena.yaml" --quiet > "$out/stdout.txt"
  /usr/bin/python3 - "$out/report.json" "$checkpoint" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
agents = {a["name"]: a for a in report["agents"]}
e, t = agents["expert"], agents["teacher"]
share = f'{100 * e["win_rate"]:.1f} % [{100 * e["win_rate_low"]:.1f}, {100 * e["win_rate_high"]:.1f}]'
print(f'{sys.argv[2]:<32} {share:<28} {e["rating"] - t["rating"]:+.0f}')
EOF
done
