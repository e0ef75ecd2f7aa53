// The config a game is loaded with (load_game in game.h), for code that must
// record or compare it, e.g. a training checkpoint noting the rules it was
// trained under.
#pragma once

#include <string>

#include "envs/core/config.h"

namespace rocketgym {

// `config_file` if given, else the game's default config (as load_game finds
// it), with `overrides` (a mapping, or null) merged on top.
ConfigNode resolve_game_config(const std::string& id, const std::string& config_file,
                               const ConfigNode& overrides);

}  // namespace rocketgym
