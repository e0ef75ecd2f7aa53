// The description of this game's tensors for its documentation
// (envs/core/describe.h): the observation's feature blocks, written in
// encoders/last_blast/last_blast_layout.cpp, and the action id ranges, written in
// envs/last_blast/last_blast_action_ranges.cpp, each from the constants the code uses.
// CMake finds this header and puts the game into rocketgym describe.
#pragma once

#include <vector>

#include "envs/core/describe.h"

namespace rocketgym::last_blast {

std::vector<FeatureBlock> observation_layout(int num_players);
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::last_blast
