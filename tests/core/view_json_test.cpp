// The browser's view (AnyState::view_json, issue 32): a JSON document for every
// game, every seat, every position; the full board only for kFullBoard. The
// no-leak check (a resample for the viewer leaves its view unchanged) is part
// of the conformance suite (tests/common/conformance.cpp); these tests show
// that the check has something to catch: the full board does change.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "envs/core/game.h"
#include "envs/core/rng.h"

using namespace rocketgym;

namespace {

Action random_legal(const AnyState& s, Rng& rng) {
  const auto legal = s.legal_actions();
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

}  // namespace

TEST_CASE("view_json is a document for every seat; the full board holds what a resample changes", "[view]") {
  for (const auto& id : Registry::instance().ids()) {
    auto game = load_game(id);
    for (int players = 2; players <= 3; ++players) {
      INFO(id << " with " << players << " players");
      Rng rng(17);
      auto s = game->new_state(players, 42);
      bool full_board_changed = false;
      int moves = 0;
      while (!s->is_terminal()) {
        for (int v = 0; v < players; ++v) {
          const auto doc = nlohmann::json::parse(s->view_json(v));
          REQUIRE(doc.at("game") == id);
          REQUIRE(doc.at("viewer") == v);
          REQUIRE(doc.at("your_turn") == (s->current_player() == v));
          REQUIRE(doc.at("board").is_object());
          REQUIRE_FALSE(doc.contains("current_player"));
        }
        // A few resamples: one may draw the same hidden cards (a setup choice of three sizes).
        for (int k = 0; k < 8 && !full_board_changed; ++k) {
          auto world = s->clone();
          world->redeterminize(moves % players, rng.next());
          full_board_changed = world->view_json(kFullBoard) != s->view_json(kFullBoard);
        }
        s->apply(random_legal(*s, rng));
        ++moves;
      }
      const auto end = nlohmann::json::parse(s->view_json(kFullBoard));
      REQUIRE(end.at("terminal") == true);
      REQUIRE(end.at("scores").size() == static_cast<std::size_t>(players));
      REQUIRE(end.at("returns").size() == static_cast<std::size_t>(players));
      REQUIRE(end.at("current_player") == -1);
      // Every game hides something that its full board shows.
      REQUIRE(full_board_changed);
    }
  }
}

TEST_CASE("view_json refuses a viewer who is not a seat", "[view]") {
  auto s = load_game("last_blast")->new_state(2, 1);
  REQUIRE_THROWS_WITH(s->view_json(2), Catch::Contains("viewer 2 out of range"));
  REQUIRE_THROWS_WITH(s->view_json(-2), Catch::Contains("viewer -2 out of range"));
}

TEST_CASE("view_json shows a seat its own hand and only the size of another's", "[view]") {
  SECTION("Launch Pad") {
    auto s = load_game("launch_pad")->new_state(2, 3);
    const auto seat0 = nlohmann::json::parse(s->view_json(0)).at("board").at("players");
    REQUIRE(seat0.at(0).contains("hand"));
    REQUIRE_FALSE(seat0.at(1).contains("hand"));
    REQUIRE(seat0.at(1).at("hand_size").get<int>() > 0);
    const auto full = nlohmann::json::parse(s->view_json(kFullBoard)).at("board").at("players");
    REQUIRE(full.at(1).contains("hand"));
  }
  SECTION("Rocket Squad") {
    auto s = load_game("rocket_squad")->new_state(3, 3);
    const auto seat1 = nlohmann::json::parse(s->view_json(1)).at("board").at("players");
    REQUIRE(seat1.at(1).at("hand").size() == seat1.at(1).at("hand_size").get<std::size_t>());
    REQUIRE_FALSE(seat1.at(0).contains("hand"));
    REQUIRE(seat1.at(0).at("known_in_hand").empty());
  }
  SECTION("Lift Off") {
    auto s = load_game("lift_off")->new_state(2, 3);
    const auto seat0 = nlohmann::json::parse(s->view_json(0)).at("board").at("players");
    const auto& other = seat0.at(1).at("objectives");
    REQUIRE(other.at("cards").empty());
    REQUIRE(other.at("unknown").get<int>() > 0);
    REQUIRE(seat0.at(0).at("objectives").at("unknown") == 0);
  }
}
