// The PPO self-play configuration (configs/train/<game>_ppo.yaml). Every key
// is optional except game.id; unknown keys are ConfigErrors naming the line.
// Blocks game, model, ppo, opponents, imitation, budget, run: their keys,
// ranges and docs are the tables of train_config.cpp and config_yaml.cpp
// (printed by `rocketgym describe --config-keys ppo`, in docs/training.md).
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

  // The config's blocks and keys: reading, the resolved YAML and the docs.
  static const ConfigSchema<TrainConfig>& schema();
  static TrainConfig from_yaml(const ConfigNode& root);
  std::string to_yaml() const;  // the fully resolved config, loadable by from_yaml
};

}  // namespace rocketgym::ppo
