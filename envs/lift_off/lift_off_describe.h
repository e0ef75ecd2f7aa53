// The description of this game's tensors for its documentation
// (envs/core/describe.h): the observation's feature blocks, written in
// encoders/lift_off/lift_off_layout.cpp, and the action id ranges, written in
// envs/lift_off/lift_off_action_ranges.cpp, each from the constants the code uses.
// CMake finds this header and puts the game into rocketgym describe.
#pragma once

#include <vector>

#include "envs/core/describe.h"

namespace rocketgym::lift_off {

std::vector<FeatureBlock> observation_layout(int num_players);
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::lift_off
