// The pieces of a run's resolved config.yaml that PPO and search-based
// training write alike: the game and model blocks, and the file's text.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "models/policy_value_net.h"
#include "training/game_setup.h"

namespace rocketgym {

void write_game_and_model(YAML::Node& root, const GameSetup& game, const NetConfig& net);

// The YAML text of `root` under the header every resolved config carries.
std::string resolved_config_text(const YAML::Node& root);

}  // namespace rocketgym
