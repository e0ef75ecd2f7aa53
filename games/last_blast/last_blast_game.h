// The registry's description of The Last Blast (see docs/ADDING_A_GAME.md).
#pragma once

#include "encoders/last_blast/last_blast_encoder.h"
#include "envs/core/game.h"
#include "envs/last_blast/last_blast.h"
#include "envs/last_blast/last_blast_bot.h"

namespace rocketgym::last_blast {

struct Game {
  using Config = last_blast::Config;
  using State = last_blast::State;
  using Encoder = last_blast::Encoder;
  static constexpr bool kHiddenInformation = true;
  static GameInfo info() { return game_info(); }
  static Config load_config(const ConfigNode& root) { return last_blast::load_config(root); }
  static Action heuristic_action(const State& s, Rng& rng) { return last_blast::heuristic_action(s, rng); }
};

}  // namespace rocketgym::last_blast
