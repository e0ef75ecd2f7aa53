// The documentation's tables of every game (envs/core/describe.h) agree with
// the code: the observation's feature blocks tile the encoder's output exactly
// for every player count, and the action id ranges tile the action ids and
// use the words action_to_string uses.
#include "envs/core/describe.h"

#include <catch2/catch.hpp>
#include <functional>
#include <numeric>

#include "envs/core/game.h"

using namespace rocketgym;

TEST_CASE("observation layouts tile the observation for every game and player count", "[describe]") {
  for (const auto& id : Registry::instance().ids()) {
    const auto game = load_game(id);
    for (int n = game->info().min_players; n <= game->info().max_players; ++n) {
      INFO(id << ", " << n << " players");
      const auto shape = game->observation_shape(n);
      const int size = std::accumulate(shape.begin(), shape.end(), 1, std::multiplies<int>());
      const auto blocks = observation_layout(id, n);
      REQUIRE_FALSE(blocks.empty());
      int next = 0;
      for (const auto& b : blocks) {
        INFO(b.name);
        CHECK(b.offset == next);  // contiguous: no gap, no overlap
        CHECK(b.size > 0);
        CHECK_FALSE(b.name.empty());
        CHECK_FALSE(b.meaning.empty());
        next = b.offset + b.size;
      }
      CHECK(next == size);
    }
  }
}

TEST_CASE("action ranges tile the action ids and agree with action_to_string", "[describe]") {
  for (const auto& id : Registry::instance().ids()) {
    const auto game = load_game(id);
    const auto state = game->new_state(game->info().min_players, 1);
    const auto ranges = action_ranges(id);
    REQUIRE_FALSE(ranges.empty());
    int next = 0;
    for (const auto& r : ranges) {
      INFO(id << ": ids " << r.first << ".." << r.first + r.count - 1 << " '" << r.says << "'");
      CHECK(r.first == next);  // every id in exactly one range
      CHECK(r.count > 0);
      CHECK_FALSE(r.meaning.empty());
      REQUIRE_FALSE(r.says.empty());
      for (Action a : {r.first, r.first + r.count / 2, r.first + r.count - 1}) {
        INFO("action " << a << ": " << state->action_to_string(a));
        CHECK(state->action_to_string(a).find(r.says) != std::string::npos);
      }
      next = r.first + r.count;
    }
    CHECK(next == game->info().num_actions);
  }
}

TEST_CASE("describe refuses an unknown game and a player count out of range", "[describe]") {
  CHECK_THROWS_AS(observation_layout("no_such_game", 2), Error);
  CHECK_THROWS_AS(action_ranges("no_such_game"), Error);
  CHECK_THROWS_AS(observation_layout("lift_off", 5), Error);
  CHECK_THROWS_AS(observation_layout("lift_off", 1), Error);
}

TEST_CASE("describe --markdown has every table", "[describe]") {
  for (const auto& id : Registry::instance().ids()) {
    INFO(id);
    const std::string md = describe_markdown(id);
    CHECK(md.find("## Actions") != std::string::npos);
    CHECK(md.find("## Observation") != std::string::npos);
    CHECK(md.find("## Config keys and defaults") != std::string::npos);
    CHECK(md.find("```yaml") != std::string::npos);
  }
}
