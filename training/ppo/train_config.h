// The PPO self-play configuration (configs/train/<game>_ppo.yaml). Every key
// is optional except game.id; unknown keys are ConfigErrors naming the line.
// Blocks game, model, ppo, opponents, imitation, budget, run: their keys,
// ranges and docs are the tables of train_config.cpp and config_yaml.cpp
// (printed by `rocketgym describe --config-keys ppo`, in docs/training.md).
// The opponents besides self-play and the snapshot pool are agent specs
// (training/players/player_spec.h) with weights, opponents.agents:
//   opponents: {self_play: 0.6, pool: 0.2, agents: {heuristic: 0.1, "zoo:launch_pad": 0.1}}
//
// Under torchrun, ppo.envs, ppo.steps_per_update and imitation.steps are the
// job's totals, split evenly over the ranks; run.threads is per process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "models/policy_value_net.h"
#include "training/config_yaml.h"
#include "training/game_setup.h"
#include "training/players/player_spec.h"

namespace rocketgym::ppo {

// The most an opponents: weight may be (self_play, pool, each agent's).
inline constexpr double kMaxOpponentWeight = 1e6;
// The pool's name: its key in opponents: and its win rate's column in
// metrics.csv (train_win_vs_pool), which no agent may take.
inline constexpr const char* kPoolName = "pool";

// An agent the learner plays against (opponents.agents): any agent spec, as
// written (its name empty when none was given), its weight, and where the
// config gave it ("file:line: opponents.agents.SPEC"; empty when it was not
// read from a file), for the errors found when it is resolved at start.
struct OpponentAgent {
  players::PlayerSpec spec;
  double weight = 0.0;
  std::string where;

  // Its name as given, else its kind's default name (zoo:launch_pad): what
  // metrics.csv's train_win_vs_<name> column and the progress line call it.
  std::string name() const;
};

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
  // opponents: one learner seat and the others taken by an earlier snapshot
  // (pool) or by one of the agents, or the learner at every seat (self_play),
  // drawn per episode by weight.
  double self_play = 0.6, pool = 0.2;
  std::vector<OpponentAgent> agents = default_agents();  // random and heuristic, 0.1 each
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

  static std::vector<OpponentAgent> default_agents();
  // The config's blocks and keys: reading, the resolved YAML and the docs.
  static const ConfigSchema<TrainConfig>& schema();
  static TrainConfig from_yaml(const ConfigNode& root);
  std::string to_yaml() const;  // the fully resolved config, loadable by from_yaml
};

}  // namespace rocketgym::ppo
