// The PPO self-play configuration (configs/train/<game>_ppo.yaml). Every key
// is optional except game.id; unknown keys are ConfigErrors naming the line.
//
//   game:       {id, players, config, overrides}       (training/game_setup.h)
//   model:      {kind: auto|mlp|conv, hidden, blocks, channels}
//   ppo:
//     envs: 64               # games stepped together
//     steps_per_update: 4096 # learner decisions per PPO update (finished episodes only)
//     epochs: 4              # passes over each batch
//     minibatch: 1024
//     learning_rate: 3.0e-4
//     gamma: 1.0             # discount per decision of the same seat
//     gae_lambda: 0.95
//     clip: 0.2              # PPO ratio clip
//     value_coef: 0.5
//     entropy_coef: 0.01
//     max_grad_norm: 0.5
//     shaping: 0.0           # weight of the game's potential-based shaping reward (training only;
//                            # 0 = off; the game must define shaping_potential, see gae.h)
//   opponents:               # who sits at the other seats, drawn per episode
//     self_play: 0.6         # weight: the current policy plays every seat
//     pool: 0.2              # weight: one learner seat, earlier snapshots at the others
//     random: 0.1            # weight: ... uniformly random legal moves
//     heuristic: 0.1         # weight: ... the game's heuristic bot
//     pool_size: 8           # snapshots kept
//     snapshot_every: 5      # updates between snapshots
//   imitation:               # warm start before PPO (fresh runs only)
//     steps: 0               # decisions of heuristic-vs-heuristic play to imitate (0 = none)
//     learning_rate: 1.0e-3
//   budget:
//     steps: 5000000         # learner decisions in total (across resumes)
//     minutes: 15            # wall-clock limit of this invocation (0 = none)
//   run:
//     dir: runs/<game>_ppo   # config.yaml, metrics.csv, checkpoints/, learning_curve.png
//     seed: 1
//     threads: 2             # LibTorch intra-op threads and env threads
//     device: cpu            # cpu | cuda
//     checkpoint_every: 5    # updates
//     eval_every: 10         # updates between greedy evaluations vs random and heuristic
//     eval_games: 200        # games per evaluation and opponent
//     snapshot_minutes: []   # also keep checkpoints/minute_<m>.ckpt after m minutes of training
//                            # (fractions too: minute_000.25.ckpt)
//     plot: true             # learning_curve.png (needs /usr/bin/python3 with matplotlib)
//     ranks: 1               # written by the trainer: processes in the run (torchrun); not read
//
// Under torchrun, ppo.envs, ppo.steps_per_update and imitation.steps are the
// job's totals, split evenly over the ranks; run.threads is per process.
#pragma once

#include <cstdint>
#include <string>

#include "envs/core/config.h"
#include "models/policy_value_net.h"
#include "training/config_yaml.h"
#include "training/game_setup.h"

namespace rocketgym::ppo {

struct TrainConfig : RunSettings {
  GameSetup game;
  NetConfig net;
  // ppo
  int envs = 64;
  int steps_per_update = 4096;
  int epochs = 4;
  int minibatch = 1024;
  double learning_rate = 3e-4;
  double gamma = 1.0;
  double gae_lambda = 0.95;
  double clip = 0.2;
  double value_coef = 0.5;
  double entropy_coef = 0.01;
  double max_grad_norm = 0.5;
  // Potential-based reward shaping (gae.h): decisions also earn
  // shaping * (phi(next) - phi(now)) from the game's shaping_potential. It
  // leaves the best policy unchanged and gives PPO a signal in games whose
  // early episodes end in draws (Launchpad 23 at the turn limit).
  double shaping = 0.0;
  // opponents
  double self_play = 0.6, pool = 0.2, random = 0.1, heuristic = 0.1;
  int pool_size = 8;
  int snapshot_every = 5;
  // imitation warm start: the policy learns the heuristic bot's moves and the
  // value head the outcomes of its games. In games where random play almost
  // never finishes (Launchpad 23), self-play from a uniform policy sees only
  // draws and learns nothing; this gives PPO a policy that wins games.
  int64_t imitation_steps = 0;
  double imitation_learning_rate = 1e-3;
  // budget
  int64_t total_steps = 5'000'000;
  double minutes = 15.0;

  static TrainConfig from_yaml(const ConfigNode& root);
  std::string to_yaml() const;  // the fully resolved config, loadable by from_yaml
};

}  // namespace rocketgym::ppo
