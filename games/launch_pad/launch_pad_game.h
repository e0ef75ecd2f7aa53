// The Launch Pad descriptor: what the registry needs (docs/ADDING_A_GAME.md).
#pragma once

#include "encoders/launch_pad/launch_pad_encoder.h"
#include "envs/core/game.h"
#include "envs/launch_pad/launch_pad.h"
#include "envs/launch_pad/launch_pad_bot.h"

namespace rocketgym::launch_pad {

struct Game {
  using Config = launch_pad::Config;
  using State = launch_pad::State;
  using Encoder = launch_pad::Encoder;
  static constexpr bool kHiddenInformation = true;

  static GameInfo info() {
    GameInfo g;
    g.id = "launch_pad";
    g.name = "Launch Pad";
    g.description =
        "Build rockets, advance them to the Launch Zone and sabotage rivals before the Launch Pad is built";
    g.min_players = 2;
    g.max_players = kMaxPlayers;
    g.num_actions = act::kNumActions;
    g.max_decisions = kMaxDecisions;
    g.version = 3;  // 2: one observation layout for 2-4 players (issue 31); 3: known cards
    return g;
  }
  static Config load_config(const ConfigNode& root) { return launch_pad::load_config(root); }
  static Action heuristic_action(const State& s, Rng& rng) { return launch_pad::heuristic_action(s, rng); }
};

}  // namespace rocketgym::launch_pad
