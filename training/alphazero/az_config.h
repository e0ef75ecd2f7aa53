// The search-based self-play configuration (configs/train/<game>_az.yaml).
// Every key is optional except game.id; unknown keys are ConfigErrors naming
// the line.
//
//   algorithm: alphazero
//   game:       {id, players, config, overrides}        (training/game_setup.h)
//   model:      {kind: auto|mlp|conv, hidden, blocks, channels}
//   search:                  # training/mcts/mcts.h Options, for self-play
//     simulations: 32        # per decision
//     root: gumbel           # gumbel (default here) | puct
//     gumbel_considered: 16  # root moves drawn for Sequential Halving
//     c_puct: 1.5            # below the root
//     c_visit: 50            # sigma(q) = (c_visit + max N) * c_scale * q
//     c_scale: 0.1
//     heuristic_prior: 0     # share of each leaf's prior on the heuristic bot's move
//     playout_weight: 0      # share of each leaf's value from rollout_policy playouts
//     prior_temperature: 1   # priors proportional to p^(1/T) of the network's policy
//   selfplay:
//     games: 128             # self-play games in flight; their leaves share one network batch
//     greedy_after: 0        # decisions of a game after which the root stops adding Gumbel
//                            # noise and plays its best move (0 = noise throughout; only
//                            # with root: gumbel and gumbel_scale > 0, else refused)
//     samples_per_iteration: 2048  # new positions between training phases
//     full_search_share: 1.0 # playout cap randomization (Wu 2019, KataGo): this share of
//                            # decisions gets the full search and becomes a training position;
//     fast_simulations: 8    # the others get this many simulations and are only played
//                            # (more games per minute, so outcomes arrive sooner; set only
//                            # with full_search_share < 1, at most search.simulations)
//   replay:
//     capacity: 100000       # positions kept (oldest dropped first)
//     min_samples: 4096      # positions before the first training phase
//   train:
//     batch: 256
//     learning_rate: 1.0e-3
//     weight_decay: 1.0e-4
//     value_coef: 1.0
//     max_grad_norm: 1.0
//     replay_ratio: 4        # times each new position is trained on, on average
//   imitation:               # warm start (fresh runs only): heuristic-bot games
//     steps: 0               # decisions to imitate (0 = none)
//     epochs: 2              # passes over them
//   budget:
//     steps: 10000000        # self-play positions recorded, in total (across resumes)
//     minutes: 30            # wall-clock limit of this invocation (0 = none)
//   run:
//     dir: runs/<game>_az
//     seed: 1
//     threads: 2             # LibTorch intra-op threads and search threads
//     device: cpu            # cpu | cuda
//     checkpoint_every: 5    # iterations
//     eval_every: 10         # iterations between evaluations (raw network, greedy) vs random and heuristic
//     eval_games: 200
//     snapshot_minutes: []   # also keep checkpoints/minute_<m>.ckpt after m minutes of this run
//                            # (fractions too: minute_000.25.ckpt)
//     plot: true
//     ranks: 1               # written by the trainer: processes in the run (torchrun); not read
//
// Under torchrun, selfplay.games, selfplay.samples_per_iteration,
// replay.capacity, replay.min_samples, train.batch and imitation.steps are the
// job's totals, split evenly over the ranks (each rank plays its own games
// into its own replay buffer); run.threads is per process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "models/policy_value_net.h"
#include "training/config_yaml.h"
#include "training/game_setup.h"
#include "training/mcts/mcts.h"

namespace rocketgym::alphazero {

struct AzConfig : RunSettings {
  GameSetup game;
  NetConfig net;
  mcts::Options search;
  // self-play
  int games = 128;
  int greedy_after = 0;
  int samples_per_iteration = 2048;
  double full_search_share = 1.0;
  int fast_simulations = 8;
  // replay
  int capacity = 100'000;
  int min_samples = 4096;
  // train
  int batch = 256;
  double learning_rate = 1e-3;
  double weight_decay = 1e-4;
  double value_coef = 1.0;
  double max_grad_norm = 1.0;
  double replay_ratio = 4.0;
  // imitation warm start
  int64_t imitation_steps = 0;
  int imitation_epochs = 2;
  // budget
  int64_t total_steps = 10'000'000;
  double minutes = 30.0;
  // Gradient steps per iteration: each new position is seen replay_ratio times.
  int train_steps_per_iteration() const;

  static AzConfig from_yaml(const ConfigNode& root);
  std::string to_yaml() const;  // the fully resolved config, loadable by from_yaml
};

// The `algorithm:` of a training config: "ppo" (default) or "alphazero".
std::string training_algorithm(const ConfigNode& root);

}  // namespace rocketgym::alphazero
