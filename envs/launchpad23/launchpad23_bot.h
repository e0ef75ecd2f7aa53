// A rule-based Launchpad 23 player: greedy one-step lookahead on the number of
// moves each pad still needs, hurting the opponent closest to launching.
#pragma once

#include <array>

#include "envs/core/rng.h"
#include "envs/launchpad23/launchpad23.h"

namespace rocketgym::launchpad23 {

// Moves the pad of `seat` still needs to hold a complete rocket, estimated for
// the best size: distance of each missing colour's nearest piece plus one per
// piece that has to leave the pad.
int rocket_distance(const State& state, const Board& board, int seat);

// The same estimate for a rocket of each size (the minimum is rocket_distance),
// for every seat at once ([seat]; the seats past the player count are zero).
std::array<std::array<int, kSizes>, kMaxPlayers> rocket_distances_by_size(const State& state,
                                                                          const Board& board);

Action heuristic_action(const State& state, Rng& rng);

// The returns each seat can expect from this position (out[seat], on the
// returns' scale), for a search that stops its playouts early: each seat's
// chance of launching first is a softmax of minus its rocket_distance times
// a slope, plus a bonus for the seat to move that depends on how much of its
// turn is left. The slope and bonuses were fitted to the winners of heuristic
// bot games (docs/search.md, "Cut-off playouts"). 0 for every seat of a
// finished game.
void estimate_returns(const State& state, float* out);

}  // namespace rocketgym::launchpad23
