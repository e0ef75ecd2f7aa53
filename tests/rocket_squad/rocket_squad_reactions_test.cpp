// Rocket Squad: the reaction chain of Mom and Grandma (ruling 4), blocks of blocks included.
#include "tests/rocket_squad/rocket_squad_test_util.h"

using namespace rs_test;

namespace {
// Player 0 has Dad (and maybe Grandma) and a blue rocket with room; player 1 has a red
// rocket with a box; `hands` sets the other hands.
State dad_position(const std::string& hand0, const std::string& hand1, const std::string& hand2 = "") {
  const bool three = !hand2.empty();
  std::string doc = std::string(R"({"players":)") + (three ? "3" : "2") + R"(,"hands":[{"cards":[)" + hand0 +
                    R"(]},{"cards":[)" + hand1 + "]}" + (three ? R"(,{"cards":[)" + hand2 + "]}" : "") +
                    R"(],"rockets":[{"blue":{"booster":"blue_5"}},{"red":{"booster":"red_7","boxes":2}})" +
                    (three ? ",{}" : "") + "]}";
  return position(doc);
}
}  // namespace

TEST_CASE("Mom: blocks an Orange card played against her holder", "[rocket_squad][reaction][mom]") {
  State s = dad_position(R"("dad")", R"("mom","uncle")");
  s.apply(dad(1, RED, BLUE));
  REQUIRE(s.phase() == Phase::kReaction);
  REQUIRE(s.current_player() == 1);  // an out-of-turn decision
  REQUIRE(legal(s) == std::vector<Action>{action::kNoBlock, action::kBlockMom});
  s.apply(action::kBlockMom);
  REQUIRE(s.rocket(1, RED).num_boxes == 2);  // Dad did not take effect
  REQUIRE(s.rocket(0, BLUE).num_boxes == 0);
  REQUIRE(discard_count(s, kDad) == 1);
  REQUIRE(discard_count(s, kMom) == 1);
  REQUIRE(s.hand(1).count == 1);  // no redraw after a reaction
  REQUIRE(s.current_player() == 0);
  REQUIRE(s.phase() == Phase::kTurn);
}

TEST_CASE("Mom: declining lets the card take effect", "[rocket_squad][reaction][mom]") {
  State s = dad_position(R"("dad")", R"("mom")");
  s.apply(dad(1, RED, BLUE));
  s.apply(action::kNoBlock);
  REQUIRE(s.rocket(1, RED).num_boxes == 1);
  REQUIRE(s.rocket(0, BLUE).num_boxes == 1);
  REQUIRE(s.hand_count(1, kMom) == 1);
}

TEST_CASE("Mom: not for Orange cards against somebody else", "[rocket_squad][reaction][mom]") {
  State s = dad_position(R"("dad")", R"("uncle")", R"("mom")");
  s.apply(dad(1, RED, BLUE));
  REQUIRE(s.phase() == Phase::kTurn);  // player 2 is never asked
  REQUIRE(s.rocket(0, BLUE).num_boxes == 1);
}

TEST_CASE("Mom: cannot block a Purple card", "[rocket_squad][reaction][mom]") {
  State s =
      position(R"({"hands":[{"cards":["jackie"]},{"cards":["mom"]}],"draw_top":["dad","jack","uncle"]})");
  s.apply(action::kPlayJackie);
  REQUIRE(s.phase() == Phase::kJackieKeep);
  REQUIRE(s.current_player() == 0);
}

TEST_CASE("Grandma: anybody may block an Orange card against another player",
          "[rocket_squad][reaction][grandma]") {
  State s = dad_position(R"("dad")", R"("uncle")", R"("grandma")");
  s.apply(dad(1, RED, BLUE));
  REQUIRE(s.current_player() == 2);
  REQUIRE(legal(s) == std::vector<Action>{action::kNoBlock, action::kBlockGrandma});
  s.apply(action::kBlockGrandma);
  REQUIRE(s.rocket(1, RED).num_boxes == 2);
  REQUIRE(discard_count(s, kGrandma) == 1);
  REQUIRE(s.hand(2).count == 0);
}

TEST_CASE("Grandma: blocks a Purple card", "[rocket_squad][reaction][grandma]") {
  State s = position(R"({"hands":[{"cards":["uncle"]},{"cards":["grandma"]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":2},"green":{"booster":"green_4"}},{}]})");
  s.apply(uncle(BLUE, GREEN, 2));
  REQUIRE(s.current_player() == 1);
  s.apply(action::kBlockGrandma);
  REQUIRE(s.rocket(0, BLUE).num_boxes == 2);
  REQUIRE(s.rocket(0, GREEN).num_boxes == 0);
  REQUIRE(discard_count(s, kUncle) == 1);
}

TEST_CASE("Grandma: blocks a Mom (two blocks: the card takes effect)", "[rocket_squad][reaction][chain]") {
  State s = dad_position(R"("dad","grandma")", R"("mom")");
  s.apply(dad(1, RED, BLUE));
  REQUIRE(s.current_player() == 1);
  s.apply(action::kBlockMom);
  // A new round of asking, clockwise from the blocker: player 0 may block the Mom.
  REQUIRE(s.phase() == Phase::kReaction);
  REQUIRE(s.current_player() == 0);
  REQUIRE(legal(s) == std::vector<Action>{action::kNoBlock, action::kBlockGrandma});
  s.apply(action::kBlockGrandma);
  REQUIRE(s.chain().active == false);
  REQUIRE(s.rocket(1, RED).num_boxes == 1);  // Dad took effect after all
  REQUIRE(s.rocket(0, BLUE).num_boxes == 1);
  REQUIRE(discard_count(s, kMom) == 1);
  REQUIRE(discard_count(s, kGrandma) == 1);
}

TEST_CASE("Grandma: blocks a Grandma (three blocks: the card is blocked)",
          "[rocket_squad][reaction][chain]") {
  State s = dad_position(R"("dad","grandma")", R"("mom","grandma")");
  s.apply(dad(1, RED, BLUE));
  s.apply(action::kBlockMom);      // player 1
  s.apply(action::kBlockGrandma);  // player 0 blocks the Mom
  REQUIRE(s.current_player() == 1);
  REQUIRE(legal(s) ==
          std::vector<Action>{action::kNoBlock, action::kBlockGrandma});  // Mom cannot block a block
  s.apply(action::kBlockGrandma);                                         // player 1 blocks the Grandma
  REQUIRE(s.phase() == Phase::kTurn);  // player 0 has no block left: the chain ends
  REQUIRE(s.rocket(1, RED).num_boxes == 2);
  REQUIRE(discard_count(s, kDad) == 1);
}

TEST_CASE("reactions: asked in clockwise order from the acting player", "[rocket_squad][reaction]") {
  State s = position(R"({"players":4,"hands":[{"cards":["jackie"]},{"cards":["dad"]},{"cards":["grandma"]},
      {"cards":["grandma"]}],"draw_top":["dad","jack","uncle"]})");
  s.apply(action::kPlayJackie);
  REQUIRE(s.current_player() == 2);  // player 1 cannot block and is not asked
  s.apply(action::kNoBlock);
  REQUIRE(s.current_player() == 3);
  s.apply(action::kNoBlock);
  REQUIRE(s.phase() == Phase::kJackieKeep);
  REQUIRE(s.current_player() == 0);
}

TEST_CASE("reactions: Grey cards cannot be blocked", "[rocket_squad][reaction]") {
  State s = position(R"({"hands":[{"cards":["duct_tape"]},{"cards":["grandma","mom"]}],
      "rockets":[{"blue":{"booster":"blue_5"}},{}]})");
  s.apply(duct_tape(BLUE));
  REQUIRE(s.phase() == Phase::kTurn);
  REQUIRE(s.rocket(0, BLUE).num_boxes == 2);
}

TEST_CASE("reactions: observations do not reveal who is asked", "[rocket_squad][reaction][hidden]") {
  // Same public position; only which opponent holds the Grandma differs.
  const auto make = [](const char* h1, const char* h2) {
    State s = dad_position(R"("dad")", h1, h2);
    s.apply(dad(1, RED, BLUE));
    return s;
  };
  const State a = make(R"("grandma")", R"("uncle")");
  const State b = make(R"("uncle")", R"("grandma")");
  REQUIRE(a.current_player() == 1);
  REQUIRE(b.current_player() == 2);
  const int size = Encoder::kSize;
  std::vector<float> ea(static_cast<std::size_t>(size)), eb(static_cast<std::size_t>(size));
  Encoder::encode(a, 0, ea.data());
  Encoder::encode(b, 0, eb.data());
  REQUIRE(ea == eb);
}

TEST_CASE("reactions: redeterminize keeps a block card for the player being asked",
          "[rocket_squad][reaction][hidden]") {
  State s = dad_position(R"("dad")", R"("mom","uncle","jack")");
  s.apply(dad(1, RED, BLUE));
  for (uint64_t seed = 0; seed < 20; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(0, rng);
    REQUIRE(r.current_player() == 1);
    REQUIRE(r.hand_count(1, kMom) >= 1);
    REQUIRE_NOTHROW(r.check_invariants());
  }
}

TEST_CASE("Mom: a target of Water Balloons may block it, for the whole card",
          "[rocket_squad][reaction][mom]") {
  // Ruling 4 decides a card by the parity of its chain: one block stops all of its effect.
  State s = position(R"({"players":3,"hands":[{"cards":["water_balloons"]},{"cards":[]},{"cards":["mom"]}],
      "rockets":[{},{"blue":{"booster":"blue_5","boxes":2}},{"red":{"booster":"red_7","boxes":2}}]})");
  s.apply(balloons(BLUE, RED));
  REQUIRE(s.current_player() == 2);
  s.apply(action::kBlockMom);
  REQUIRE(s.rocket(1, BLUE).num_boxes == 2);
  REQUIRE(s.rocket(2, RED).num_boxes == 2);
}

TEST_CASE("reactions: a hand-written chain must match its card and targets",
          "[rocket_squad][reaction][json]") {
  const std::string base = R"({"phase":"reaction","decider":1,"hands":[{"cards":[]},{"cards":["mom"]}],
      "rockets":[{"blue":{"booster":"blue_5"}},{"red":{"booster":"red_7","boxes":BOXES}}],
      "chain":{"card":"CARD","action":ACTION,"against":2}})";
  const auto doc = [&](const std::string& card, Action a, int boxes) {
    std::string text = base;
    text.replace(text.find("BOXES"), 5, std::to_string(boxes));
    text.replace(text.find("CARD"), 4, card);
    text.replace(text.find("ACTION"), 6, std::to_string(a));
    return text;
  };
  State s = position(doc("dad", dad(1, RED, BLUE), 1));
  REQUIRE(s.current_player() == 1);
  s.apply(action::kNoBlock);
  REQUIRE(s.rocket(0, BLUE).num_boxes == 1);
  REQUIRE_THROWS_AS(position(doc("joker", dad(1, RED, BLUE), 1)), SerializationError);  // not Joker's action
  REQUIRE_THROWS_AS(position(doc("dad", dad(1, RED, BLUE), 0)), SerializationError);    // no box to take
}

TEST_CASE("Mom: blocks Jack for its victim; no card changes hands", "[rocket_squad][reaction][mom][jack]") {
  State s = position(R"({"hands":[{"cards":["jack","dad"]},{"cards":["mom","uncle","jackie"]}]})");
  s.apply(jack(1));
  REQUIRE(s.current_player() == 1);
  s.apply(action::kBlockMom);
  REQUIRE(s.hand(0).count == 1);  // only Dad left: nothing was taken
  REQUIRE(s.hand(1).count == 2);  // Mom discarded, not redrawn
  REQUIRE(s.hand_count(1, kUncle) == 1);
  REQUIRE(s.hand_count(1, kJackie) == 1);
  REQUIRE(discard_count(s, kJack) == 1);
  REQUIRE(discard_count(s, kMom) == 1);
  REQUIRE(s.current_player() == 0);
}
