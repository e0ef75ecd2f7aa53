// A rule-based Lift Off player: upgrade the lab and buy the techs the missions
// on Earth need, keep the missions it can launch soon, launch whenever it can
// with the most valuable load, and keep enough money for the next launch.
#pragma once

#include "envs/core/game.h"
#include "envs/core/rng.h"
#include "envs/lift_off/lift_off.h"

namespace rocketgym::lift_off {

Action heuristic_action(const State& s, Rng& rng);

}  // namespace rocketgym::lift_off
