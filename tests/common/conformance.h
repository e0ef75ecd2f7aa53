// The generic conformance suite every registered game passes (see
// tests/core/conformance_test.cpp). Game test files may call it directly for
// more games or other configs.
#pragma once

#include <cstdint>
#include <string>

namespace rocketgym {
class AnyState;
}

namespace rocketgym::testing {

struct ConformanceOptions {
  int num_games = 100;       // seeded random playouts, each checked at every decision
  int deep_games = 20;       // of which this many also get the full checks below
  int deep_check_every = 3;  // full checks (round trips, no-leak, all actions) every k-th decision
  uint64_t seed = 20261121;
  std::string overrides;  // YAML merged onto the game's config
};

// Runs every check; fails the current Catch2 test case with a message naming
// the game, seed and move on the first violation.
void run_conformance(const std::string& game_id, int num_players, const ConformanceOptions& options);

// The checks every resample passes: `world` (s redeterminized for `viewer`)
// passes the invariants, shows `viewer` the same observation, text view,
// browser view (view_json), current player and (on its turn) legal actions as `s`, and keeps every card
// the knowledge model says `viewer` knows where it is.
void check_resampled_world(const AnyState& s, const AnyState& world, int viewer);

}  // namespace rocketgym::testing
