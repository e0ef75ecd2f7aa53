// Every registered game, every player count: the generic conformance suite.
// ROCKETGYM_CONFORMANCE_GAME=<id> limits the run to one game (ctest's
// conformance_<id>, tests/CMakeLists.txt);
// ROCKETGYM_CONFORMANCE_GAMES=<n> sets the number of playouts per count;
// ROCKETGYM_CONFORMANCE_DEEP_GAMES=<n>, how many of them at most get the full
// checks (tests/common/conformance.cpp).
#include "tests/common/conformance.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "envs/core/game.h"
#include "tests/common/world_consistency.h"

using namespace rocketgym;

namespace {

// The game ROCKETGYM_CONFORMANCE_GAME names, or nullptr for every game. A name
// that is not a registered game fails: a typo must not pass by testing nothing.
const char* only_game() {
  const char* only = std::getenv("ROCKETGYM_CONFORMANCE_GAME");
  if (only) REQUIRE_NOTHROW(Registry::instance().find(only));  // its message lists the games
  return only;
}

}  // namespace

TEST_CASE("every registered game passes the conformance suite", "[conformance]") {
  const char* only = only_game();
  testing::ConformanceOptions options;
  options.num_games = testing::playout_count(options.num_games);
  const auto ids = Registry::instance().ids();
  REQUIRE(!ids.empty());
  for (const auto& id : ids) {
    if (only && id != only) continue;
    const GameInfo& info = Registry::instance().find(id).info;
    for (int players = info.min_players; players <= info.max_players; ++players) {
      DYNAMIC_SECTION(id << " with " << players << " players") {
        testing::run_conformance(id, players, options);
      }
    }
  }
}

// Issue 29: every resampled world could have produced the viewer's history
// (tests/common/world_consistency.h), for every game and player count.
TEST_CASE("resampled worlds keep what the viewer has seen", "[conformance][worlds]") {
  const char* only = only_game();
  testing::WorldOptions options;
  options.num_games = testing::playout_count(options.num_games);
  for (const auto& id : Registry::instance().ids()) {
    if (only && id != only) continue;
    const GameInfo& info = Registry::instance().find(id).info;
    for (int players = info.min_players; players <= info.max_players; ++players) {
      DYNAMIC_SECTION(id << " with " << players << " players") {
        testing::run_world_consistency(id, players, options);
      }
    }
  }
}
