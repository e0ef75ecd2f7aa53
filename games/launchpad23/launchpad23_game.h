// The static description of Launchpad 23 for the registry.
#pragma once

#include "encoders/launchpad23/launchpad23_encoder.h"
#include "envs/core/game.h"
#include "envs/launchpad23/launchpad23.h"
#include "envs/launchpad23/launchpad23_bot.h"

namespace rocketgym::launchpad23 {

struct Game {
  using Config = launchpad23::Config;
  using State = launchpad23::State;
  using Encoder = launchpad23::Encoder;
  static constexpr bool kHiddenInformation = true;

  static GameInfo info() {
    GameInfo i;
    i.id = "launchpad23";
    i.name = "Launchpad 23";
    i.description = "Dice and pyramids: move parts around a 3x3 launch complex to build a balanced rocket";
    i.min_players = 2;
    i.max_players = kMaxPlayers;
    i.num_actions = kNumActions;
    i.max_decisions = kMaxDecisions;
    i.version = 1;
    return i;
  }
  static Config load_config(const ConfigNode& root) { return launchpad23::load_config(root); }
  static Action heuristic_action(const State& s, Rng& rng) { return launchpad23::heuristic_action(s, rng); }
  // The search's leaf value when its playouts stop early (mcts rollout_depth).
  static void estimate_returns(const State& s, float* out) { launchpad23::estimate_returns(s, out); }
  // Training-only shaping (ppo.shaping): minus the moves the seat's pad still
  // needs, the measure the heuristic bot plays by.
  static float shaping_potential(const State& s, int seat) {
    return -static_cast<float>(rocket_distance(s, s.board(), seat));
  }
};

}  // namespace rocketgym::launchpad23
