// The static description of Lift Off for the registry (docs/ADDING_A_GAME.md).
#pragma once

#include "encoders/lift_off/lift_off_encoder.h"
#include "envs/core/game.h"
#include "envs/lift_off/lift_off.h"
#include "envs/lift_off/lift_off_bot.h"
#include "envs/lift_off/lift_off_config.h"

namespace rocketgym::lift_off {

struct Game {
  using Config = lift_off::Config;
  using State = lift_off::State;
  using Encoder = lift_off::Encoder;
  static constexpr bool kHiddenInformation = true;

  static GameInfo info() {
    GameInfo i;
    i.id = "lift_off";
    i.name = "Lift Off";
    i.description =
        "Engine building in two phases: draft specialists, upgrade rockets and labs, launch missions";
    i.min_players = 2;
    i.max_players = kMaxPlayers;
    i.num_actions = actions::kNumActions;
    // Per player and round at most ~70 decisions (2 drafts, 2 plays with
    // sub-steps, a draw with keeps, 3 launches with loads and banners), so
    // 4 players x 8 rounds stay far below this bound; the game never truncates.
    i.max_decisions = 6000;
    i.version = 1;
    return i;
  }
  static Config load_config(const ConfigNode& root) { return lift_off::load_config(root); }
  static Action heuristic_action(const State& s, Rng& rng) { return lift_off::heuristic_action(s, rng); }
};

}  // namespace rocketgym::lift_off
