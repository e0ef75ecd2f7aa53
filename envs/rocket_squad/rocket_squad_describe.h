// The description of this game's tensors for its documentation
// (envs/core/describe.h): the observation's feature blocks, written in
// encoders/rocket_squad/rocket_squad_layout.cpp, and the action id ranges, written in
// envs/rocket_squad/rocket_squad_action_ranges.cpp, each from the constants the code uses.
// CMake finds this header and puts the game into rocketgym describe.
#pragma once

#include <vector>

#include "envs/core/describe.h"

namespace rocketgym::rocket_squad {

std::vector<FeatureBlock> observation_layout(int num_players);
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::rocket_squad
