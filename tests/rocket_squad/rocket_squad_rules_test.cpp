// Rocket Squad: set-up, boosters, boxes, launches, Crew, the end of the game and scoring.
// Every test builds a position (by hand or from a seed), acts, and checks the outcome.
#include "tests/rocket_squad/rocket_squad_test_util.h"

using namespace rs_test;

TEST_CASE("deck: 100 cards as the rulings list them", "[rocket_squad][setup]") {
  const Config& c = default_config();
  REQUIRE(c.deck_size == 100);
  const int blue[] = {2, 3, 4, 5}, green[] = {3, 4, 5, 6}, yellow[] = {6, 7, 8, 9}, red[] = {7, 8, 9, 10};
  for (int i = 0; i < 4; ++i) {
    REQUIRE(c.deck[booster_card(BLUE, blue[i])] == 4);
    REQUIRE(c.deck[booster_card(GREEN, green[i])] == 4);
    REQUIRE(c.deck[booster_card(YELLOW, yellow[i])] == 4);
    REQUIRE(c.deck[booster_card(RED, red[i])] == 4);
  }
  for (int v = 4; v <= 6; ++v) REQUIRE(c.deck[booster_card(WILD, v)] == 2);
  const int specials[kNumSpecials] = {3, 3, 3, 3, 3, 2, 2, 2, 2, 3, 2, 2};  // Dad .. Water Balloons
  for (int t = 0; t < kNumSpecials; ++t) REQUIRE(c.deck[t] == specials[t]);
  REQUIRE(card_colour(kDad) == CardColour::kOrange);
  REQUIRE(card_colour(kWaterBalloons) == CardColour::kOrange);
  REQUIRE(card_colour(kMom) == CardColour::kPurple);
  REQUIRE(card_colour(kGrandma) == CardColour::kPurple);
  REQUIRE(card_colour(kDuctTape) == CardColour::kGrey);
  REQUIRE(card_colour(kCrew) == CardColour::kGrey);
}

TEST_CASE("set-up: shuffle, deal 4 cards each, seat 0 starts", "[rocket_squad][setup]") {
  for (int n = 2; n <= 4; ++n) {
    State s(default_config(), n, 42);
    REQUIRE(s.current_player() == 0);
    REQUIRE(s.phase() == Phase::kTurn);
    for (int p = 0; p < n; ++p) REQUIRE(s.hand(p).count == 4);
    REQUIRE(s.draw_pile().count == 100 - 4 * n);
    REQUIRE(s.discard_pile().count == 0);
    REQUIRE_NOTHROW(s.check_invariants());
  }
  REQUIRE(State(default_config(), 2, 1).to_json() != State(default_config(), 2, 2).to_json());
}

TEST_CASE("boosters: a coloured booster only at its own location, a wild one anywhere",
          "[rocket_squad][booster]") {
  State s = position(R"({"hands":[{"cards":["green_4","wild_5"]},{"cards":[]}]})");
  REQUIRE(s.is_legal(place(GREEN, 4, GREEN)));
  REQUIRE_FALSE(s.is_legal(place(GREEN, 4, BLUE)));
  for (int loc = 0; loc < 4; ++loc) REQUIRE(s.is_legal(place(WILD, 5, loc)));
  REQUIRE_FALSE(s.is_legal(place(RED, 7, RED)));  // not in hand
  s.apply(place(WILD, 5, RED));
  REQUIRE(s.rocket(0, RED).booster == booster_card(WILD, 5));
  REQUIRE(s.rocket(0, RED).need() == 5);
  REQUIRE(s.hand(0).count == 1);
  REQUIRE(s.current_player() == 0);  // placing several boosters in one turn is allowed
  s.apply(place(GREEN, 4, GREEN));
  REQUIRE(s.rocket(0, GREEN).has_booster());
}

TEST_CASE("boosters: replacing one is legal only without boxes; the old one is discarded",
          "[rocket_squad][booster]") {
  State s = position(R"({"hands":[{"cards":["blue_5","wild_4"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2"},"green":{"booster":"green_3","boxes":1}},{}]})");
  REQUIRE(s.is_legal(place(BLUE, 5, BLUE)));
  REQUIRE(s.is_legal(place(WILD, 4, BLUE)));
  REQUIRE_FALSE(s.is_legal(place(WILD, 4, GREEN)));  // a box is on the green booster
  s.apply(place(BLUE, 5, BLUE));
  REQUIRE(s.rocket(0, BLUE).booster == booster_card(BLUE, 5));
  REQUIRE(discard_count(s, booster_card(BLUE, 2)) == 1);
  // A launched rocket is complete: no replacement.
  State t = position(R"({"hands":[{"cards":["blue_5"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","launched":true}},{}]})");
  REQUIRE_FALSE(t.is_legal(place(BLUE, 5, BLUE)));
}

TEST_CASE("boxes: any card face down on an own booster, never beyond its number", "[rocket_squad][box]") {
  State s = position(R"({"hands":[{"cards":["dad","red_9","crew","wild_6"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_3","boxes":1},"green":{"booster":"green_3","boxes":3},
                  "red":{"booster":"red_7","boxes":2,"joker":true}},{}]})");
  REQUIRE(s.is_legal(build("dad", BLUE)));          // a Character card
  REQUIRE(s.is_legal(build("red_9", BLUE)));        // a booster of another colour
  REQUIRE(s.is_legal(build("crew", BLUE)));         // an Item card
  REQUIRE_FALSE(s.is_legal(build("dad", GREEN)));   // 3 of 3 boxes already
  REQUIRE_FALSE(s.is_legal(build("dad", YELLOW)));  // no booster
  REQUIRE_FALSE(s.is_legal(build("dad", RED)));     // a Joker sits on it
  s.apply(build("red_9", BLUE));
  REQUIRE(s.rocket(0, BLUE).num_boxes == 2);
  REQUIRE(s.rocket(0, BLUE).boxes[1] == booster_card(RED, 9));
  REQUIRE(s.hand(0).count == 3);
}

TEST_CASE("launch: complete rocket and all four locations filled -> launch at once",
          "[rocket_squad][launch]") {
  State s = position(R"({"hands":[{"cards":["jack","dad"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_3","boxes":2},"green":{"booster":"green_3"},
                  "yellow":{"booster":"yellow_6"},"red":{"booster":"red_7","launched":true}},{}]})");
  const int discards = s.discard_pile().count;
  s.apply(build("jack", BLUE));
  const Rocket& r = s.rocket(0, BLUE);
  REQUIRE(r.launched);
  REQUIRE(r.num_boxes == 0);
  REQUIRE(s.discard_pile().count == discards + 3);  // the boxes go to the discard pile face up
  REQUIRE(s.score(0) == 3 + 7);                     // a launched rocket still fills its location
  REQUIRE(s.current_player() == 0);
  REQUIRE_FALSE(s.is_legal(build("dad", BLUE)));  // nothing more is built on it
}

TEST_CASE("launch: waits for the fourth booster, which launches every complete rocket",
          "[rocket_squad][launch]") {
  State s = position(R"({"hands":[{"cards":["red_8"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":2},"green":{"booster":"green_3","boxes":3},
                  "yellow":{"booster":"yellow_6","boxes":1}},{}]})");
  REQUIRE_FALSE(s.rocket(0, BLUE).launched);  // complete, but the red location is empty
  s.apply(place(RED, 8, RED));
  REQUIRE(s.rocket(0, BLUE).launched);
  REQUIRE(s.rocket(0, GREEN).launched);
  REQUIRE_FALSE(s.rocket(0, YELLOW).launched);
  REQUIRE(s.score(0) == 5);
}

TEST_CASE("launch: a rocket launches during another player's turn", "[rocket_squad][launch][ace]") {
  // Player 0 knocks the boxes off player 1's yellow rocket with Ace; the box passed to
  // player 1 completes their blue rocket, which launches during player 0's turn.
  State s = position(R"({"hands":[{"cards":["ace"]},{"cards":["dad"]}],
      "rockets":[{},{"blue":{"booster":"blue_3","boxes":2},"green":{"booster":"green_3"},
                     "yellow":{"booster":"yellow_6","boxes":1},"red":{"booster":"red_7"}}]})");
  s.apply(ace(1, YELLOW, CLOCKWISE));
  // Player 0 has no rocket: skipped. Player 1 has four free rockets: asked where to build.
  REQUIRE(s.phase() == Phase::kAcePass);
  REQUIRE(s.current_player() == 1);
  s.apply(ace_build(BLUE));
  REQUIRE(s.rocket(1, BLUE).launched);
  REQUIRE(s.score(1) == 3);
  REQUIRE(s.current_player() == 0);
  REQUIRE(s.turn_player() == 0);
}

TEST_CASE("Crew: the owner decides at launch; attached it adds 2 points", "[rocket_squad][crew]") {
  const std::string doc = R"({"hands":[{"cards":["dad","crew","crew"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_3","boxes":2},"green":{"booster":"green_3"},
                  "yellow":{"booster":"yellow_6"},"red":{"booster":"red_7"}},{}]})";
  State s = position(doc);
  s.apply(build("dad", BLUE));
  REQUIRE(s.phase() == Phase::kCrew);
  REQUIRE(legal(s) == std::vector<Action>{action::kCrewAttach, action::kCrewDecline});
  s.apply(action::kCrewAttach);
  REQUIRE(s.rocket(0, BLUE).launched);
  REQUIRE(s.rocket(0, BLUE).crew);
  REQUIRE(s.hand_count(0, kCrew) == 1);  // at most one Crew per rocket
  REQUIRE(s.score(0) == 5);
  REQUIRE(s.phase() == Phase::kTurn);

  State d = position(doc);
  d.apply(build("dad", BLUE));
  d.apply(action::kCrewDecline);
  REQUIRE(d.rocket(0, BLUE).launched);
  REQUIRE_FALSE(d.rocket(0, BLUE).crew);
  REQUIRE(d.hand_count(0, kCrew) == 2);
  REQUIRE(d.score(0) == 3);
}

TEST_CASE("Crew: a launch out of turn asks its owner, who becomes the current player",
          "[rocket_squad][crew]") {
  State s = position(R"({"hands":[{"cards":["ace"]},{"cards":["crew"]}],
      "rockets":[{},{"blue":{"booster":"blue_3","boxes":2},"green":{"booster":"green_3"},
                     "yellow":{"booster":"yellow_6","boxes":1},"red":{"booster":"red_7"}}]})");
  s.apply(ace(1, YELLOW, CLOCKWISE));
  s.apply(ace_build(BLUE));
  REQUIRE(s.phase() == Phase::kCrew);
  REQUIRE(s.current_player() == 1);
  s.apply(action::kCrewAttach);
  REQUIRE(s.score(1) == 5);
  REQUIRE(s.current_player() == 0);
}

TEST_CASE("Crew: cannot be played as a card, only as a box or at a launch", "[rocket_squad][crew]") {
  State s = position(R"({"hands":[{"cards":["crew"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_3"}},{}]})");
  REQUIRE(legal(s) == std::vector<Action>{action::kEndTurn, build("crew", BLUE)});
}

TEST_CASE("end: four launches trigger one final turn for every other player", "[rocket_squad][end]") {
  State s = position(R"({"players":3,"hands":[{"cards":["dad","jack"]},{"cards":["uncle"]},{"cards":["mom"]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":1},"green":{"booster":"green_3","launched":true},
                  "yellow":{"booster":"yellow_6","launched":true},"red":{"booster":"red_7","launched":true}},{},{}]})");
  s.apply(build("dad", BLUE));
  REQUIRE(s.end_triggered());
  REQUIRE(s.trigger_seat() == 0);
  REQUIRE(s.owes_final_turn(1));
  REQUIRE(s.owes_final_turn(2));
  REQUIRE_FALSE(s.owes_final_turn(0));
  s.apply(action::kEndTurn);
  REQUIRE(s.hand(0).count == 0);  // discard the hand, draw nothing
  REQUIRE(s.turn_player() == 1);
  REQUIRE(s.in_final_turn());
  s.apply(action::kEndTurn);
  REQUIRE(s.hand(1).count == 0);
  REQUIRE(s.turn_player() == 2);
  s.apply(action::kEndTurn);
  REQUIRE(s.is_terminal());
  REQUIRE_FALSE(s.is_truncated());
  REQUIRE(s.current_player() == -1);
  REQUIRE(legal(s).empty());
}

TEST_CASE("end: triggered out of turn, the running turn ends normally and its player plays last",
          "[rocket_squad][end]") {
  // Player 1 completes all four rockets on player 0's turn (a box passed by Ace).
  State s = position(R"({"players":3,"hands":[{"cards":["ace"]},{"cards":[]},{"cards":[]}],
      "rockets":[{},{"blue":{"booster":"blue_2","boxes":1},"green":{"booster":"green_3","launched":true},
                     "yellow":{"booster":"yellow_6","launched":true},"red":{"booster":"red_7","launched":true}},
                 {"red":{"booster":"red_7","boxes":2}}]})");
  s.apply(ace(2, RED, COUNTER_CLOCKWISE));
  // Counter-clockwise from player 0: player 0 (no rocket), player 2 (red rocket: builds), then
  // player 1 (only the blue rocket is free: builds and launches).
  REQUIRE(s.rocket(1, BLUE).launched);
  REQUIRE(s.rocket(2, RED).num_boxes == 1);
  REQUIRE(s.end_triggered());
  REQUIRE(s.trigger_seat() == 1);
  s.apply(action::kEndTurn);
  REQUIRE(s.hand(0).count == 4);  // player 0's turn was not a final turn: draw up
  REQUIRE(s.turn_player() == 2);  // player 1 triggered the end: no further turn
  s.apply(action::kEndTurn);
  REQUIRE(s.turn_player() == 0);  // player 0's final turn comes last
  s.apply(action::kEndTurn);
  REQUIRE(s.hand(0).count == 0);
  REQUIRE(s.is_terminal());
}

TEST_CASE("scoring: launched boosters plus 2 per Crew; incomplete rockets score nothing",
          "[rocket_squad][score]") {
  State s = position(R"({"phase":"game_over","hands":[{"cards":[]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5","launched":true,"crew":true},"red":{"booster":"red_10","boxes":9}},
                 {"yellow":{"booster":"yellow_8","launched":true}}]})");
  int scores[2];
  s.scores(scores);
  REQUIRE(scores[0] == 7);
  REQUIRE(scores[1] == 8);
  float r[2];
  s.returns(r);
  REQUIRE(r[0] == -1.0f);
  REQUIRE(r[1] == 1.0f);
}

TEST_CASE("scoring: a tie goes to the tallest launched rocket, then is shared", "[rocket_squad][score]") {
  State s = position(R"({"players":3,"phase":"game_over","hands":[{"cards":[]},{"cards":[]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","launched":true},"red":{"booster":"red_8","launched":true}},
                 {"blue":{"booster":"blue_5","launched":true},"green":{"booster":"green_5","launched":true}},
                 {"yellow":{"booster":"yellow_6","launched":true},"green":{"booster":"green_4","launched":true}}]})");
  // All score 10; player 0's red rocket (8 boxes) is the tallest, then player 2 (6), player 1 (5).
  float r[3];
  s.returns(r);
  REQUIRE(r[0] == 1.0f);
  REQUIRE(r[2] == 0.0f);
  REQUIRE(r[1] == -1.0f);
  State t = position(R"({"phase":"game_over","hands":[{"cards":[]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5","launched":true}},{"green":{"booster":"green_5","launched":true}}]})");
  float q[2];
  t.returns(q);
  REQUIRE(q[0] == 0.0f);
  REQUIRE(q[1] == 0.0f);
}

TEST_CASE("turn end: draw back up to 4 cards", "[rocket_squad][turn]") {
  State s = position(R"({"hands":[{"cards":["dad"]},{"cards":["jack"]}],"draw_top":["mom","crew","ace"]})");
  s.apply(action::kEndTurn);
  REQUIRE(s.hand(0).count == 4);
  REQUIRE(s.hand_count(0, kMom) == 1);
  REQUIRE(s.hand_count(0, kCrew) == 1);
  REQUIRE(s.hand_count(0, kAce) == 1);
  REQUIRE(s.turn_player() == 1);
}

TEST_CASE("deck exhaustion: the discards are shuffled into a new draw pile", "[rocket_squad][deck]") {
  const State base = position(R"({"hands":[{"cards":["dad"]},{"cards":["jack"]}]})");
  Json doc = base.to_json();
  doc["discard_pile"] = doc["draw_pile"];
  doc["draw_pile"] = Json::array();
  doc["draw_known_by"] = Json::array();
  doc["draw_counted_by"] = Json::array();
  reset_deck(doc);
  State s = State::from_json(doc, default_config());
  s.apply(action::kEndTurn);
  REQUIRE(s.hand(0).count == 4);
  REQUIRE(s.discard_pile().count == 0);
  REQUIRE(s.draw_pile().count == 98 - 3);
}

namespace {
// 16 cards: two of each blue booster and eight wild 12s (tiny decks make edge cases easy).
const Config& tiny_config() {
  static const Config c = load_config(ConfigNode::parse(R"(
boosters:
  blue: {values: [2, 3, 4, 5], copies: 2}
  wild: {values: [12], copies: 8}
characters: {}
max_turns: 3
)",
                                                        "tiny.yaml"));
  return c;
}
}  // namespace

TEST_CASE("deck exhaustion: with no discards either, drawing stops", "[rocket_squad][deck]") {
  State s = position(R"({"first_turn_done":[false,false],"hands":[{"cards":["blue_2"]},{"cards":[]}],
      "rockets":[{},{"red":{"booster":"wild_12","boxes":12},"green":{"booster":"wild_12","boxes":1}}]})",
                     tiny_config());
  REQUIRE(s.draw_pile().count == 0);
  s.apply(action::kEndTurn);
  REQUIRE(s.hand(0).count == 1);
  REQUIRE(s.turn_player() == 1);
}

TEST_CASE("length cap: max_turns ends the game as truncated, returns 0, scores as they stand",
          "[rocket_squad][truncation]") {
  State s(tiny_config(), 2, 9);
  for (int turn = 0; turn < 3; ++turn) {
    REQUIRE_FALSE(s.is_terminal());
    s.apply(action::kEndTurn);
  }
  REQUIRE(s.is_terminal());
  REQUIRE(s.is_truncated());
  float r[2];
  s.returns(r);
  REQUIRE(r[0] == 0.0f);
  REQUIRE(r[1] == 0.0f);
}

TEST_CASE("first turn: an unplayable hand may be redrawn once", "[rocket_squad][redraw]") {
  // Only cards that need a target or a rocket: nothing can be played.
  State s = position(R"({"first_turn_done":[false,false],"turn_start":true,
      "hands":[{"cards":["dad","crew","mom","grandma"]},{"cards":["joker"]}],
      "draw_top":["blue_3","uncle","jack","red_7"]})");
  REQUIRE(legal(s) == std::vector<Action>{action::kEndTurn, action::kRedraw});
  s.apply(action::kRedraw);
  REQUIRE(s.hand(0).count == 4);
  REQUIRE(s.hand_count(0, booster_card(BLUE, 3)) == 1);
  REQUIRE(s.hand_count(0, kUncle) == 1);
  REQUIRE(discard_count(s, kDad) == 1);
  REQUIRE(s.current_player() == 0);  // and the turn goes on
  REQUIRE_FALSE(s.is_legal(action::kRedraw));
}

TEST_CASE("first turn: no redraw when a card is playable, or after the first turn",
          "[rocket_squad][redraw]") {
  State playable = position(R"({"first_turn_done":[false,false],
      "hands":[{"cards":["dad","crew","mom","blue_3"]},{"cards":[]}]})");
  REQUIRE_FALSE(playable.is_legal(action::kRedraw));
  State later = position(R"({"hands":[{"cards":["dad","crew","mom","grandma"]},{"cards":[]}]})");
  REQUIRE_FALSE(later.is_legal(action::kRedraw));
}

TEST_CASE("first turn: no redraw once cards were played, even with an empty or unplayable hand (ruling 10)",
          "[rocket_squad][redraw]") {
  // Four boosters placed: the hand is empty, but the turn did not start unplayable.
  State emptied = position(R"({"first_turn_done":[false,false],"turn_start":true,
      "hands":[{"cards":["blue_2","green_3","yellow_6","red_7"]},{"cards":[]}]})");
  REQUIRE_FALSE(emptied.is_legal(action::kRedraw));
  for (Action a :
       {place(BLUE, 2, BLUE), place(GREEN, 3, GREEN), place(YELLOW, 6, YELLOW), place(RED, 7, RED)})
    emptied.apply(a);
  REQUIRE(emptied.hand(0).count == 0);
  REQUIRE_FALSE(emptied.is_legal(action::kRedraw));
  REQUIRE(legal(emptied) == std::vector<Action>{action::kEndTurn});
  // A lone Crew left after a booster and two boxes: nothing playable, still no redraw.
  State lone_crew = position(R"({"first_turn_done":[false,false],"turn_start":true,
      "hands":[{"cards":["blue_2","jack","jack","crew"]},{"cards":["dad"]}]})");
  for (Action a : {place(BLUE, 2, BLUE), build("jack", BLUE), build("jack", BLUE)}) lone_crew.apply(a);
  REQUIRE(lone_crew.hand(0).count == 1);
  REQUIRE(legal(lone_crew) == std::vector<Action>{action::kEndTurn});
}

TEST_CASE("first turn: the redraw comes with the start of the turn, in a played game too",
          "[rocket_squad][redraw]") {
  // Seeded games: the redraw is legal exactly when the first turn starts with nothing playable.
  int offered = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    State s(default_config(), 2, seed);
    Rng rng(seed);
    while (!s.is_terminal() && s.turn_number() <= 2) {
      const bool start = s.phase() == Phase::kTurn && s.turn_start();
      std::vector<Action> moves = legal(s);
      const bool redraw = std::find(moves.begin(), moves.end(), action::kRedraw) != moves.end();
      if (redraw) {
        ++offered;
        REQUIRE(start);
        REQUIRE(moves.size() == 2);  // end the turn or redraw: no card is playable
      }
      s.apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
    }
  }
  REQUIRE(offered > 0);
}

TEST_CASE("launch: boxes built by Dad, Uncle or Duct Tape launch a rocket they complete",
          "[rocket_squad][launch]") {
  const std::string rockets =
      R"("rockets":[{"blue":{"booster":"blue_2","boxes":1},"green":{"booster":"green_3"},
      "yellow":{"booster":"yellow_6","boxes":1},"red":{"booster":"red_7"}},{"red":{"booster":"red_7","boxes":1}}])";
  State by_dad = position(R"({"hands":[{"cards":["dad"]},{"cards":[]}],)" + rockets + "}");
  by_dad.apply(dad(1, RED, BLUE));
  REQUIRE(by_dad.rocket(0, BLUE).launched);
  State by_uncle = position(R"({"hands":[{"cards":["uncle"]},{"cards":[]}],)" + rockets + "}");
  by_uncle.apply(uncle(YELLOW, BLUE, 1));
  REQUIRE(by_uncle.rocket(0, BLUE).launched);
  State by_tape = position(R"({"hands":[{"cards":["duct_tape"]},{"cards":[]}],)" + rockets + "}");
  by_tape.apply(duct_tape(GREEN));
  REQUIRE_FALSE(by_tape.rocket(0, GREEN).launched);  // 2 of 3 boxes
  REQUIRE(by_tape.rocket(0, GREEN).num_boxes == 2);
}

TEST_CASE("Jackie and Jack: the new card may be played at once", "[rocket_squad][jackie]") {
  State s = position(R"({"hands":[{"cards":["jackie"]},{"cards":[]}],"draw_top":["blue_3","dad","jack"]})");
  s.apply(action::kPlayJackie);
  s.apply(jackie_keep(0));
  REQUIRE(s.current_player() == 0);
  REQUIRE(s.is_legal(place(BLUE, 3, BLUE)));
}

// The mask works the card conditions out per location and seat (card_plays_mask) instead of
// asking is_legal id by id: both must agree on every id, at every decision of random games
// with 2, 3 and 4 players, heuristic moves mixed in so that rockets grow and cards target them.
TEST_CASE("legal mask: every id as is_legal says, in random and heuristic games", "[rocket_squad][mask]") {
  std::vector<uint8_t> mask(action::kNumActions);
  int uncle = 0, balloons = 0, dad = 0;  // legal ids seen in the ranges built in loops
  for (int players = 2; players <= 4; ++players)
    for (uint64_t game = 0; game < 12; ++game) {
      State s(default_config(), players, 100 * players + game);
      Rng rng(game);
      for (int decision = 0; !s.is_terminal() && decision < 3000; ++decision) {
        s.legal_actions_mask(mask.data());
        for (Action a = 0; a < action::kNumActions; ++a) {
          if ((mask[static_cast<std::size_t>(a)] != 0) != s.is_legal(a))
            FAIL(players << " players, game " << game << ", decision " << decision << ": id " << a << " ("
                         << s.action_to_string(a) << ") is " << (s.is_legal(a) ? "" : "not ")
                         << "legal, the mask says " << int(mask[static_cast<std::size_t>(a)]));
          if (!mask[static_cast<std::size_t>(a)]) continue;
          uncle += a >= action::kPlayUncle && a < action::kPlayJackie;
          balloons += a >= action::kPlayBalloons && a < action::kBalloonsScare;
          dad += a >= action::kPlayDad && a < action::kPlayJack;
        }
        s.apply(decision % 2 ? Game::heuristic_action(s, rng)
                             : random_legal_action(mask.data(), action::kNumActions, rng));
      }
    }
  CHECK(uncle > 0);
  CHECK(balloons > 0);
  CHECK(dad > 0);
}

TEST_CASE("rulebook example: red launched, green stopped by a Joker; only yellow and blue take boxes",
          "[rocket_squad][launch][joker]") {
  // The rulebook's example building area: red launched, a Joker on green, yellow 5 boxes short,
  // blue 1 box short. "These two are the only rockets you can build on for now."
  State s = position(R"({"hands":[{"cards":["dad","jack"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_3","boxes":2},"green":{"booster":"green_4","boxes":1,"joker":true},
                  "yellow":{"booster":"yellow_9","boxes":4},"red":{"booster":"red_7","launched":true}},{}]})");
  REQUIRE(s.is_legal(build("dad", YELLOW)));
  REQUIRE(s.is_legal(build("dad", BLUE)));
  REQUIRE_FALSE(s.is_legal(build("dad", GREEN)));  // the Joker must be scared away first
  REQUIRE_FALSE(s.is_legal(build("dad", RED)));    // launched
  s.apply(build("dad", BLUE));                     // the last box: blue launches at once
  REQUIRE(s.rocket(0, BLUE).launched);
  REQUIRE(s.launched_count(0) == 2);
  REQUIRE(s.score(0) == 3 + 7);
  REQUIRE_FALSE(s.end_triggered());  // two rockets still to launch
}

TEST_CASE(
    "end: a final turn may still launch rockets; then the hand is discarded and the tie goes to the "
    "tallest rocket",
    "[rocket_squad][end][score]") {
  // Player 0 launches a fourth rocket (2 + 3 + 6 + 7 = 18, tallest 7). Player 1's final turn
  // launches red 10, for 10 + 2 + 6 = 18 too, with the taller rocket.
  State s = position(R"({"hands":[{"cards":["dad","uncle"]},{"cards":["jack","mom"]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":1},"green":{"booster":"green_3","launched":true},
                  "yellow":{"booster":"yellow_6","launched":true},"red":{"booster":"red_7","launched":true}},
                 {"blue":{"booster":"blue_2","launched":true},"green":{"booster":"green_6","launched":true},
                  "yellow":{"booster":"yellow_6"},"red":{"booster":"red_10","boxes":9}}]})");
  s.apply(build("dad", BLUE));
  REQUIRE(s.end_triggered());
  s.apply(action::kEndTurn);
  REQUIRE(s.turn_player() == 1);
  REQUIRE(s.in_final_turn());
  s.apply(build("jack", RED));
  REQUIRE(s.rocket(1, RED).launched);
  REQUIRE_FALSE(s.is_terminal());  // the final turn goes on until its player ends it
  s.apply(action::kEndTurn);
  REQUIRE(s.hand(1).count == 0);  // the rest of the hand is discarded, nothing drawn
  REQUIRE(s.is_terminal());
  int scores[2];
  s.scores(scores);
  REQUIRE(scores[0] == 18);
  REQUIRE(scores[1] == 18);
  float r[2];
  s.returns(r);
  REQUIRE(r[1] > r[0]);  // the tallest launched rocket: red 10 against red 7
}
