// The search-based self-play configuration (configs/train/<game>_alphazero.yaml).
// Every key is optional except game.id; unknown keys are ConfigErrors naming
// the line. Blocks algorithm (alphazero), game, model, search (mcts::Options,
// self-play's defaults below), selfplay, replay, train, imitation, budget,
// run: their keys, ranges and docs are the tables of train_config.cpp,
// mcts/search_options.h and config_yaml.cpp (printed by `rocketgym describe
// --config-keys alphazero`, in docs/training.md).
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

// Self-play's search unless the config says otherwise: 32 simulations with
// the gumbel root.
inline mcts::Options self_play_search_defaults() {
  mcts::Options o;
  o.simulations = 32;
  o.root = mcts::RootSelection::kGumbel;
  return o;
}

struct TrainConfig : RunSettings {
  GameSetup game;
  NetConfig net;
  mcts::Options search = self_play_search_defaults();
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
  // gating: self-play plays the best network so far, which the network under
  // training replaces only by beating it in a match (gate_every 0: no gating)
  int gate_every = 0;
  int gate_games = 60;
  int gate_simulations = 0;
  double gate_margin = 1.1;
  // budget
  int64_t total_steps = 10'000'000;
  double minutes = 30.0;
  // Gradient steps per iteration: each new position is seen replay_ratio times.
  int train_steps_per_iteration() const;
  bool gating() const { return gate_every > 0; }
  // How a side of a gating match plays: self-play's search at
  // gate_simulations without its noise (the move with the best value), or
  // with gate_simulations 0 the raw network, greedy.
  mcts::Options gate_search() const;

  // The config's blocks and keys: reading, the resolved YAML and the docs.
  static const ConfigSchema<TrainConfig>& schema();
  static TrainConfig from_yaml(const ConfigNode& root);
  std::string to_yaml() const;  // the fully resolved config, loadable by from_yaml
};

// The `algorithm:` of a training config: "ppo" (default) or "alphazero".
std::string training_algorithm(const ConfigNode& root);

}  // namespace rocketgym::alphazero
