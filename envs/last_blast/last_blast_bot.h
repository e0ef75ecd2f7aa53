// A rule-of-thumb player for The Last Blast: drafts shields and boosts for the
// front and science for the back, flies the cheapest path, and sheds its
// least valuable end card.
#pragma once

#include "envs/core/rng.h"
#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {

// A legal action for the current player (the state must not be terminal).
Action heuristic_action(const State& s, Rng& rng);

}  // namespace rocketgym::last_blast
