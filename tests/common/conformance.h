// The generic conformance suite every registered game passes (see
// tests/core/conformance_test.cpp). Game test files may call it directly for
// more games or other configs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/knowledge.h"

namespace rocketgym::testing {

struct ConformanceOptions {
  int num_games = 100;       // seeded random playouts, each checked at every decision
  int deep_games = 20;       // of which this many also get the full checks below
  int deep_check_every = 3;  // full checks (round trips, no-leak, all actions) every k-th decision
  uint64_t seed = 20261121;
  std::string overrides;  // YAML merged onto the game's config
};

// How many random playouts a run of the suites plays: ROCKETGYM_CONFORMANCE_GAMES
// where that is set, else `otherwise`.
int playout_count(int otherwise);

// How many playouts of a run get the full checks: `wanted`, at most
// ROCKETGYM_CONFORMANCE_DEEP_GAMES where that is set (scripts/test.sh sets it for
// the sanitized tests, where the full checks' JSON documents cost most).
int full_check_games(int wanted);

// Runs every check; fails the current Catch2 test case with a message naming
// the game, seed and move on the first violation.
void run_conformance(const std::string& game_id, int num_players, const ConformanceOptions& options);

// What `viewer` sees of a state and knows of its cards: computed once, then
// compared with each resample of that state (check_resampled_world below),
// instead of once per resample.
struct ViewerSight {
  // with_view: the browser's view is compared too (the JSON document is most of the
  // check's cost under the sanitizers: the callers with a full-check budget say when).
  ViewerSight(const AnyState& s, int viewer, bool with_view = true);

  int viewer;
  std::vector<float> observation;
  std::string observation_text;
  std::optional<std::string> view;  // view_json, the browser's view (none: not compared)
  int current_player;
  std::vector<Action> legal;  // on the viewer's turn only
  CardPlaces truth;           // where every card is
  CardPlaces known;           // where the viewer knows cards are
};

// The checks every resample passes: `world` (s redeterminized for `viewer`)
// passes the invariants, shows `viewer` the same observation, text view,
// browser view (view_json), current player and (on its turn) legal actions as `s`, and keeps every card
// the knowledge model says `viewer` knows where it is.
void check_resampled_world(const ViewerSight& seen, const AnyState& world);
void check_resampled_world(const AnyState& s, const AnyState& world, int viewer);

// For a check that failed at `s` (called from a catch block, which then
// rethrows): adds the state's text to the failure. The loops render it only
// then, not at every move: at every move it cost more than a plain playout's
// checks (under the sanitizers most of all).
void report_state(const AnyState& s);

}  // namespace rocketgym::testing
