// The static description of Rocket Squad, found by CMake (see docs/ADDING_A_GAME.md).
#pragma once

#include "encoders/rocket_squad/rocket_squad_encoder.h"
#include "envs/core/game.h"
#include "envs/rocket_squad/rocket_squad.h"
#include "envs/rocket_squad/rocket_squad_bot.h"

namespace rocketgym::rocket_squad {

struct Game {
  using Config = rocket_squad::Config;
  using State = rocket_squad::State;
  using Encoder = rocket_squad::Encoder;
  static constexpr bool kHiddenInformation = true;

  static GameInfo info() {
    GameInfo g;
    g.id = "rocket_squad";
    g.name = "Rocket Squad";
    g.description =
        "Build cardboard rockets of four colours and launch them, while family, pets and toys mess with them";
    g.min_players = 2;
    g.max_players = kMaxPlayers;
    g.num_actions = action::kNumActions;
    g.max_decisions = kMaxDecisions;
    g.version = 2;  // 2: one observation layout for 2-4 players (issue 31)
    return g;
  }
  static Config load_config(const ConfigNode& root) { return rocket_squad::load_config(root); }
  static Action heuristic_action(const State& s, Rng& rng) { return rocket_squad::heuristic_action(s, rng); }
};

}  // namespace rocketgym::rocket_squad
