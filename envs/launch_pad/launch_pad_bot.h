// A rule-based Launch Pad player: it places experts, builds and advances its
// rockets, adds bonus cards, and spends attack cards on the leading opponent.
#pragma once

#include "envs/core/rng.h"
#include "envs/launch_pad/launch_pad.h"

namespace rocketgym::launch_pad {

Action heuristic_action(const State& state, Rng& rng);

}  // namespace rocketgym::launch_pad
