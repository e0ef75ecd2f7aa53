// The description of this game's tensors for its documentation
// (envs/core/describe.h): the observation's feature blocks, written in
// encoders/launch_pad/launch_pad_layout.cpp, and the action id ranges, written in
// envs/launch_pad/launch_pad_action_ranges.cpp, each from the constants the code uses.
// CMake finds this header and puts the game into rocketgym describe.
#pragma once

#include <vector>

#include "envs/core/describe.h"

namespace rocketgym::launch_pad {

std::vector<FeatureBlock> observation_layout(int num_players);
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::launch_pad
