// A rule-based Rocket Squad player: scores every legal action with simple priorities
// (fill the booster area, build on the rocket closest to launch, attack the opponent
// closest to launching, keep blocks and Crew for later) and plays the best one.
#pragma once

#include "envs/core/game.h"
#include "envs/core/rng.h"
#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {

Action heuristic_action(const State& state, Rng& rng);

}  // namespace rocketgym::rocket_squad
