// Rocket Squad: every Character and Item card, both options, and their target conditions.
#include "tests/rocket_squad/rocket_squad_test_util.h"

using namespace rs_test;

// ---------------------------------------------------------------------------------------------
// Dad
// ---------------------------------------------------------------------------------------------

TEST_CASE("Dad: takes the top box of an opponent's rocket and builds it on an own rocket",
          "[rocket_squad][dad]") {
  State s = position(R"({"hands":[{"cards":["dad"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":1}},{"red":{"booster":"red_7","boxes":["jack","uncle"]}}]})");
  s.apply(dad(1, RED, BLUE));
  REQUIRE(s.rocket(1, RED).num_boxes == 1);
  REQUIRE(s.rocket(0, BLUE).num_boxes == 2);
  REQUIRE(s.rocket(0, BLUE).boxes[1] == kUncle);  // the top box
  REQUIRE(discard_count(s, kDad) == 1);
  REQUIRE(s.hand(0).count == 0);
}

TEST_CASE("Dad: needs an opponent's rocket with a box and an own rocket with room", "[rocket_squad][dad]") {
  State s = position(R"({"hands":[{"cards":["dad"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":2},"green":{"booster":"green_3","boxes":1,"joker":true},
                  "red":{"booster":"red_7"}},
                 {"blue":{"booster":"blue_2"},"green":{"booster":"green_3","launched":true},
                  "red":{"booster":"red_7","boxes":1}}]})");
  REQUIRE(s.is_legal(dad(1, RED, RED)));
  REQUIRE_FALSE(s.is_legal(dad(1, BLUE, RED)));    // no box on the target
  REQUIRE_FALSE(s.is_legal(dad(1, GREEN, RED)));   // launched rockets cannot be targeted
  REQUIRE_FALSE(s.is_legal(dad(1, RED, BLUE)));    // own blue rocket is full
  REQUIRE_FALSE(s.is_legal(dad(1, RED, GREEN)));   // a Joker sits on own green rocket
  REQUIRE_FALSE(s.is_legal(dad(1, RED, YELLOW)));  // no own yellow booster
  State none = position(R"({"hands":[{"cards":["dad"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":2}},{"red":{"booster":"red_7","boxes":1}}]})");
  for (Action a = action::kPlayDad; a < action::kPlayJack; ++a) REQUIRE_FALSE(none.is_legal(a));
}

TEST_CASE("Dad: removing a box scares away the Joker on the target", "[rocket_squad][dad][joker]") {
  State s = position(R"({"hands":[{"cards":["dad"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5"}},{"red":{"booster":"red_7","boxes":2,"joker":true}}]})");
  s.apply(dad(1, RED, BLUE));
  REQUIRE_FALSE(s.rocket(1, RED).joker);
  REQUIRE(discard_count(s, kJoker) == 1);
}

// ---------------------------------------------------------------------------------------------
// Jack
// ---------------------------------------------------------------------------------------------

TEST_CASE("Jack: takes a card at random from an opponent with 3 or more cards", "[rocket_squad][jack]") {
  State s = position(R"({"hands":[{"cards":["jack"]},{"cards":["uncle","uncle","uncle"]}]})");
  REQUIRE(s.is_legal(jack(1)));
  s.apply(jack(1));
  REQUIRE(s.hand(0).count == 1);
  REQUIRE(s.hand_count(0, kUncle) == 1);
  REQUIRE(s.hand(1).count == 2);
  REQUIRE(s.hand(0).known_by[0] == 0b10);  // the victim knows where the card went
  REQUIRE(s.current_player() == 0);        // and the thief may play it at once
  State poor = position(R"({"hands":[{"cards":["jack"]},{"cards":["uncle","uncle"]}]})");
  REQUIRE_FALSE(poor.is_legal(jack(1)));
}

TEST_CASE("Jack: the card taken is random, drawn from the state's seeded chance", "[rocket_squad][jack]") {
  int got_mom = 0, got_dad = 0;  // Uncle: 1 card in 3
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Json doc = position(R"({"hands":[{"cards":["jack"]},{"cards":["uncle","dad","dad"]}]})").to_json();
    doc["rng"] = rng_to_json(Rng(seed));
    State s = State::from_json(doc, default_config());
    s.apply(jack(1));
    got_mom += s.hand_count(0, kUncle);
    got_dad += s.hand_count(0, kDad);
  }
  REQUIRE(got_mom + got_dad == 40);
  REQUIRE(got_mom > 3);
  REQUIRE(got_dad > got_mom);
}

// ---------------------------------------------------------------------------------------------
// Uncle
// ---------------------------------------------------------------------------------------------

TEST_CASE("Uncle: moves any number of boxes between own rockets, within the limit", "[rocket_squad][uncle]") {
  State s = position(R"({"hands":[{"cards":["uncle"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":3},"green":{"booster":"green_4","boxes":2},
                  "red":{"booster":"red_9","boxes":1,"joker":true}},{}]})");
  REQUIRE(s.is_legal(uncle(BLUE, GREEN, 1)));
  REQUIRE(s.is_legal(uncle(BLUE, GREEN, 2)));
  REQUIRE_FALSE(s.is_legal(uncle(BLUE, GREEN, 3)));  // green has room for 2
  REQUIRE_FALSE(s.is_legal(uncle(BLUE, BLUE, 1)));
  REQUIRE_FALSE(s.is_legal(uncle(GREEN, BLUE, 3)));   // only 2 boxes on green
  REQUIRE_FALSE(s.is_legal(uncle(BLUE, RED, 1)));     // cannot build on a Joker
  REQUIRE_FALSE(s.is_legal(uncle(BLUE, YELLOW, 1)));  // no booster
  REQUIRE(s.is_legal(uncle(RED, BLUE, 1)));           // taking boxes off scares the Joker
  s.apply(uncle(BLUE, GREEN, 2));
  REQUIRE(s.rocket(0, BLUE).num_boxes == 1);
  REQUIRE(s.rocket(0, GREEN).num_boxes == 4);
  REQUIRE(discard_count(s, kUncle) == 1);
}

TEST_CASE("Uncle: moving boxes off a Joker's rocket scares it away", "[rocket_squad][uncle][joker]") {
  State s = position(R"({"hands":[{"cards":["uncle"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5"},"red":{"booster":"red_9","boxes":2,"joker":true}},{}]})");
  s.apply(uncle(RED, BLUE, 1));
  REQUIRE_FALSE(s.rocket(0, RED).joker);
  REQUIRE(s.rocket(0, RED).num_boxes == 1);
  REQUIRE(discard_count(s, kJoker) == 1);
}

// ---------------------------------------------------------------------------------------------
// Jackie
// ---------------------------------------------------------------------------------------------

TEST_CASE("Jackie: look at the top 3, keep 1, the other 2 to the bottom in the chosen order",
          "[rocket_squad][jackie]") {
  const std::string doc =
      R"({"hands":[{"cards":["jackie"]},{"cards":[]}],"draw_top":["mom","dad","crew","ace"]})";
  State s = position(doc);
  s.apply(action::kPlayJackie);
  REQUIRE(s.phase() == Phase::kJackieKeep);
  REQUIRE(s.current_player() == 0);
  REQUIRE(s.jackie().count == 3);
  REQUIRE(s.jackie().cards[0] == kMom);
  REQUIRE(legal(s).size() == 6);
  s.apply(jackie_keep(1, 0));  // keep Dad; Mom to the very bottom, Crew above it
  REQUIRE(s.hand_count(0, kDad) == 1);
  REQUIRE(s.draw_pile().cards[0] == kMom);
  REQUIRE(s.draw_pile().cards[1] == kCrew);
  REQUIRE(s.draw_pile().known_by[0] == 0b01);  // Jackie's player remembers them
  REQUIRE(s.draw_pile().known_by[1] == 0b01);
  REQUIRE(s.draw_pile().cards[s.draw_pile().count - 1] == kAce);  // the new top
  REQUIRE(discard_count(s, kJackie) == 1);
  REQUIRE(s.phase() == Phase::kTurn);

  State t = position(doc);
  t.apply(action::kPlayJackie);
  t.apply(jackie_keep(0, 1));  // keep Mom; Crew to the very bottom, Dad above it
  REQUIRE(t.draw_pile().cards[0] == kCrew);
  REQUIRE(t.draw_pile().cards[1] == kDad);
}

TEST_CASE("Jackie: needs a card to look at; one card is simply kept", "[rocket_squad][jackie]") {
  // Tiny deck with no Jackie: give a custom deck with one Jackie and nearly every card in play.
  const Config c = load_config(ConfigNode::parse(R"(
boosters:
  wild: {values: [12], copies: 16}
characters: {jackie: 1}
)",
                                                 "jackie.yaml"));
  State s = position(R"({"hands":[{"cards":["jackie"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"wild_12","boxes":12}},{"red":{"booster":"wild_12","boxes":2}}],
      "draw_top":["wild_12"]})",
                     c);
  REQUIRE(s.draw_pile().count == 1);
  s.apply(action::kPlayJackie);
  REQUIRE(s.phase() == Phase::kTurn);
  REQUIRE(s.hand(0).count == 1);
  REQUIRE(s.hand_count(0, booster_card(WILD, 12)) == 1);
  // Now the draw pile is empty and the discard pile holds only the Jackie... which is gone.
  State empty = position(R"({"hands":[{"cards":["jackie","wild_12"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"wild_12","boxes":12}},{"red":{"booster":"wild_12","boxes":1}}]})",
                         c);
  REQUIRE(empty.draw_pile().count == 0);
  REQUIRE_FALSE(empty.is_legal(action::kPlayJackie));
}

TEST_CASE("Jackie: redeterminize keeps the bottom cards for Jackie's player only",
          "[rocket_squad][jackie][hidden]") {
  State s = position(R"({"hands":[{"cards":["jackie"]},{"cards":[]}],"draw_top":["mom","dad","crew"]})");
  s.apply(action::kPlayJackie);
  s.apply(jackie_keep(1, 0));
  bool other_moved = false;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    State mine = s;
    Rng rng(seed);
    mine.redeterminize(0, rng);
    REQUIRE(mine.draw_pile().cards[0] == kMom);
    REQUIRE(mine.draw_pile().cards[1] == kCrew);
    State theirs = s;
    Rng rng2(seed);
    theirs.redeterminize(1, rng2);
    other_moved = other_moved || theirs.draw_pile().cards[0] != kMom || theirs.draw_pile().cards[1] != kCrew;
  }
  REQUIRE(other_moved);
}

// ---------------------------------------------------------------------------------------------
// Joker
// ---------------------------------------------------------------------------------------------

TEST_CASE("Joker: sits on an opponent's rocket with a box; its owner cannot build there",
          "[rocket_squad][joker]") {
  State s = position(R"({"hands":[{"cards":["joker","joker"]},{"cards":["dad"]}],
      "rockets":[{},{"blue":{"booster":"blue_5","boxes":1},"green":{"booster":"green_4"}}]})");
  REQUIRE(s.is_legal(joker(1, BLUE)));
  REQUIRE_FALSE(s.is_legal(joker(1, GREEN)));  // not on an empty booster
  REQUIRE_FALSE(s.is_legal(joker(1, RED)));    // not on an empty location
  s.apply(joker(1, BLUE));
  REQUIRE(s.rocket(1, BLUE).joker);
  REQUIRE(discard_count(s, kJoker) == 0);     // it stays on the rocket
  REQUIRE_FALSE(s.is_legal(joker(1, BLUE)));  // one Joker per rocket
  s.apply(action::kEndTurn);
  REQUIRE(s.current_player() == 1);
  REQUIRE_FALSE(s.is_legal(build("dad", BLUE)));
  REQUIRE(s.is_legal(build("dad", GREEN)));
}

TEST_CASE("Joker: on a complete rocket it stops the launch until scared away",
          "[rocket_squad][joker][launch]") {
  State s = position(R"({"hands":[{"cards":["ace","green_3"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":2,"joker":true},"yellow":{"booster":"yellow_6"},
                  "red":{"booster":"red_7"}},{}]})");
  s.apply(place(GREEN, 3, GREEN));
  REQUIRE_FALSE(s.rocket(0, BLUE).launched);  // "stopped by a Joker"
  s.apply(ace_scare(BLUE));                   // Ace's second option
  REQUIRE(s.rocket(0, BLUE).launched);
  REQUIRE(discard_count(s, kJoker) == 1);
  REQUIRE(discard_count(s, kAce) == 1);
}

TEST_CASE("Joker: the variant joker_stops_launch: false lets a complete rocket launch",
          "[rocket_squad][joker][variant]") {
  const Config c = load_config(ConfigNode::parse(builtin_game_config("rocket_squad"), "x")
                                   .merged(ConfigNode::parse("variants: {joker_stops_launch: false}", "o")));
  State s = position(R"({"hands":[{"cards":["green_3"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":2,"joker":true},"yellow":{"booster":"yellow_6"},
                  "red":{"booster":"red_7"}},{}]})",
                     c);
  s.apply(place(GREEN, 3, GREEN));
  REQUIRE(s.rocket(0, BLUE).launched);
  REQUIRE_FALSE(s.rocket(0, BLUE).joker);
}

TEST_CASE("Joker: as a last resort the owner knocks the rocket over", "[rocket_squad][joker]") {
  State s = position(R"({"hands":[{"cards":["dad"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":3,"joker":true},"green":{"booster":"green_4","boxes":1}},{}]})");
  REQUIRE(s.is_legal(knock_over(BLUE)));
  REQUIRE_FALSE(s.is_legal(knock_over(GREEN)));  // no Joker there
  s.apply(knock_over(BLUE));
  REQUIRE(s.rocket(0, BLUE).num_boxes == 0);
  REQUIRE_FALSE(s.rocket(0, BLUE).joker);
  REQUIRE(s.rocket(0, BLUE).has_booster());
  REQUIRE(discard_count(s, kJoker) == 1);
  REQUIRE(s.discard_pile().count == 4);
  REQUIRE(s.is_legal(build("dad", BLUE)));  // building resumes
}

// ---------------------------------------------------------------------------------------------
// Ace
// ---------------------------------------------------------------------------------------------

TEST_CASE("Ace: passes the knocked-off boxes one at a time from the active player", "[rocket_squad][ace]") {
  // Clockwise from player 0: 0, 1, 2, 0, ... Player 0 has one free rocket (builds without
  // being asked), player 1 has none (skipped), player 2 two (asked).
  State s = position(R"({"players":3,"hands":[{"cards":["ace"]},{"cards":[]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_3","boxes":1}},
                 {"red":{"booster":"red_7","boxes":3}},
                 {"blue":{"booster":"blue_2","boxes":1},"green":{"booster":"green_5"}}]})");
  s.apply(ace(1, RED, CLOCKWISE));
  REQUIRE(s.rocket(0, BLUE).num_boxes == 2);  // first box: the active player
  // Second box: player 1's red rocket is now empty and free: a single choice, built at once.
  REQUIRE(s.rocket(1, RED).num_boxes == 1);
  REQUIRE(s.phase() == Phase::kAcePass);  // third box: player 2 chooses
  REQUIRE(s.current_player() == 2);
  REQUIRE(legal(s) == std::vector<Action>{ace_build(BLUE), ace_build(GREEN)});
  s.apply(ace_build(GREEN));
  REQUIRE(s.rocket(2, GREEN).num_boxes == 1);
  REQUIRE(s.phase() == Phase::kTurn);
  REQUIRE(s.ace().active == false);
  REQUIRE(discard_count(s, kAce) == 1);
}

TEST_CASE("Ace: counter-clockwise passing; full players are skipped", "[rocket_squad][ace]") {
  State s = position(R"({"players":3,"hands":[{"cards":["ace"]},{"cards":[]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":1}},
                 {"red":{"booster":"red_7","boxes":5,"joker":true}},
                 {"blue":{"booster":"blue_2","boxes":1}}]})");
  s.apply(ace(1, RED, COUNTER_CLOCKWISE));
  // Order 0, 2, 1, 0, 2, 1...: 0 fills blue (2/2), 2 fills blue (2/2), 1 takes one on red
  // (its only free rocket), then 0 and 2 are full, 1 takes another, ... all five end on red.
  REQUIRE(s.rocket(0, BLUE).num_boxes == 2);
  REQUIRE(s.rocket(2, BLUE).num_boxes == 2);
  REQUIRE(s.rocket(1, RED).num_boxes == 3);
  REQUIRE_FALSE(s.rocket(1, RED).joker);  // scared away
  REQUIRE(discard_count(s, kJoker) == 1);
  // The targeted player takes every box when nobody else has room, choosing each time
  // while they have two free rockets.
  State t = position(R"({"hands":[{"cards":["ace"]},{"cards":[]}],
      "rockets":[{},{"red":{"booster":"red_7","boxes":3},"blue":{"booster":"blue_2","boxes":1}}]})");
  t.apply(ace(1, RED, CLOCKWISE));
  // Player 0 has no rocket; player 1: red (7 free) and blue (1 free) -> asked.
  REQUIRE(t.current_player() == 1);
  t.apply(ace_build(BLUE));
  // Then player 1 keeps taking boxes on the red rocket alone (single choice).
  REQUIRE(t.rocket(1, RED).num_boxes == 2);
  REQUIRE(t.phase() == Phase::kTurn);
}

TEST_CASE("Ace: leftover boxes are discarded when no player has room", "[rocket_squad][ace]") {
  // The last passed box completed player 1's blue rocket, which launched; player 1 holds Crew,
  // so the pass is paused. Nobody has a free location now: the 2 boxes left are discarded.
  State s = position(R"({"phase":"crew","decider":1,"crew_location":"blue","end_triggered":true,
      "trigger_seat":1,"final_turn_owed":[true,false],"hands":[{"cards":[]},{"cards":["crew"]}],
      "rockets":[{},{"blue":{"booster":"blue_2","launched":true},"green":{"booster":"green_3","launched":true},
                     "yellow":{"booster":"yellow_6","launched":true},"red":{"booster":"red_7","launched":true}}],
      "ace":{"direction":1,"next_seat":0,"boxes":["dad","jack"]}})");
  const int discards = s.discard_pile().count;
  s.apply(action::kCrewDecline);
  REQUIRE(s.rocket(1, BLUE).launched);
  REQUIRE_FALSE(s.ace().active);
  REQUIRE(s.discard_pile().count == discards + 2);  // the 2 passed boxes
  REQUIRE(discard_count(s, kDad) == 1);
  REQUIRE(s.phase() == Phase::kTurn);
  REQUIRE(s.current_player() == 0);
}

// Ruling 5 asks a box of the rockets Dad, Joker and Water Balloons target, not of Ace's: the dog
// may knock the boxes off a rocket that has none, and then passes nothing.
TEST_CASE("Ace: targets an opponent's unlaunched rocket with or without boxes, not one beside a Friend",
          "[rocket_squad][ace]") {
  State s = position(R"({"hands":[{"cards":["ace"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_2","boxes":1}},
                 {"red":{"booster":"red_7"},"blue":{"booster":"blue_3","boxes":1,"friend":true},
                  "green":{"booster":"green_3","launched":true}}]})");
  std::vector<Action> legal_ace;
  for (Action a = action::kAceDog; a < action::kPlayFriend; ++a)
    if (s.is_legal(a)) legal_ace.push_back(a);
  REQUIRE(legal_ace == std::vector<Action>{ace(1, RED, CLOCKWISE), ace(1, RED, COUNTER_CLOCKWISE)});
  const int discards = s.discard_pile().count;
  s.apply(ace(1, RED, CLOCKWISE));
  REQUIRE_FALSE(s.ace().active);  // nothing to pass
  REQUIRE(s.rocket(1, RED).has_booster());
  REQUIRE(s.rocket(1, RED).num_boxes == 0);
  REQUIRE(s.discard_pile().count == discards + 1);  // the Ace itself
  REQUIRE(discard_count(s, kAce) == 1);
  REQUIRE(s.phase() == Phase::kTurn);
  REQUIRE(s.current_player() == 0);
}

// ---------------------------------------------------------------------------------------------
// Imaginary Friend
// ---------------------------------------------------------------------------------------------

TEST_CASE("Imaginary Friend: protects a rocket from Orange cards until its owner's next turn",
          "[rocket_squad][friend]") {
  State s =
      position(R"({"hands":[{"cards":["imaginary_friend"]},{"cards":["dad","joker","ace","water_balloons"]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":2},"red":{"booster":"red_7","boxes":1}},
                 {"green":{"booster":"green_6"}}]})");
  REQUIRE_FALSE(s.is_legal(imaginary_friend(GREEN)));  // needs an own booster
  s.apply(imaginary_friend(BLUE));
  REQUIRE(s.rocket(0, BLUE).friend_beside);
  s.apply(action::kEndTurn);
  REQUIRE(s.current_player() == 1);
  REQUIRE_FALSE(s.is_legal(dad(1, BLUE, GREEN)));
  REQUIRE(s.is_legal(dad(1, RED, GREEN)));
  REQUIRE_FALSE(s.is_legal(joker(1, BLUE)));
  REQUIRE_FALSE(s.is_legal(ace(1, BLUE, CLOCKWISE)));
  REQUIRE_FALSE(s.is_legal(balloons(BLUE)));
  REQUIRE(s.is_legal(balloons(RED)));
  s.apply(action::kEndTurn);
  REQUIRE(s.current_player() == 0);  // the start of the owner's next turn: discarded
  REQUIRE_FALSE(s.rocket(0, BLUE).friend_beside);
  REQUIRE(discard_count(s, kImaginaryFriend) == 1);
}

TEST_CASE("Imaginary Friend: does not stop Jack, which targets a player", "[rocket_squad][friend][jack]") {
  State s = position(R"({"hands":[{"cards":["jack"]},{"cards":["dad","dad","uncle"]}],
      "rockets":[{},{"blue":{"booster":"blue_5","boxes":1,"friend":true}}]})");
  REQUIRE(s.is_legal(jack(1)));
}

// ---------------------------------------------------------------------------------------------
// Duct Tape
// ---------------------------------------------------------------------------------------------

TEST_CASE("Duct Tape: builds the top 2 cards of the draw pile on one rocket with room for both",
          "[rocket_squad][duct_tape]") {
  State s = position(R"({"hands":[{"cards":["duct_tape"]},{"cards":[]}],"draw_top":["mom","crew"],
      "rockets":[{"blue":{"booster":"blue_5","boxes":3},"green":{"booster":"green_4","boxes":3}},{}]})");
  REQUIRE(s.is_legal(duct_tape(BLUE)));
  REQUIRE_FALSE(s.is_legal(duct_tape(GREEN)));  // room for one only
  REQUIRE_FALSE(s.is_legal(duct_tape(RED)));
  s.apply(duct_tape(BLUE));
  REQUIRE(s.rocket(0, BLUE).num_boxes == 5);
  REQUIRE(s.rocket(0, BLUE).boxes[3] == kMom);
  REQUIRE(s.rocket(0, BLUE).boxes[4] == kCrew);
  REQUIRE(discard_count(s, kDuctTape) == 1);
}

TEST_CASE("Duct Tape: needs 2 cards to draw", "[rocket_squad][duct_tape]") {
  const Config c = load_config(ConfigNode::parse(R"(
boosters:
  wild: {values: [12], copies: 16}
characters: {duct_tape: 1}
)",
                                                 "dt.yaml"));
  State s = position(R"({"hands":[{"cards":["duct_tape"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"wild_12","boxes":1}},{"red":{"booster":"wild_12","boxes":12}}],
      "draw_top":["wild_12"]})",
                     c);
  REQUIRE(s.draw_pile().count == 1);
  REQUIRE_FALSE(s.is_legal(duct_tape(BLUE)));
}

// ---------------------------------------------------------------------------------------------
// Water Balloons
// ---------------------------------------------------------------------------------------------

TEST_CASE("Water Balloons: one rocket of each opponent that has one loses a box",
          "[rocket_squad][balloons]") {
  State s =
      position(R"({"players":4,"hands":[{"cards":["water_balloons"]},{"cards":[]},{"cards":[]},{"cards":[]}],
      "rockets":[{},
                 {"blue":{"booster":"blue_5","boxes":2},"red":{"booster":"red_7","boxes":1,"joker":true}},
                 {"green":{"booster":"green_4"},"yellow":{"booster":"yellow_6","launched":true}},
                 {"yellow":{"booster":"yellow_8","boxes":4}}]})");
  // Player +2 has no rocket that can be targeted: it must be "none"; the others must be named.
  REQUIRE(s.is_legal(balloons(BLUE, -1, YELLOW)));
  REQUIRE(s.is_legal(balloons(RED, -1, YELLOW)));
  REQUIRE_FALSE(s.is_legal(balloons(BLUE, -1, -1)));          // player +3 must be targeted too
  REQUIRE_FALSE(s.is_legal(balloons(BLUE, GREEN, YELLOW)));   // an empty booster cannot be
  REQUIRE_FALSE(s.is_legal(balloons(BLUE, YELLOW, YELLOW)));  // nor a launched rocket
  REQUIRE_FALSE(s.is_legal(balloons(GREEN, -1, YELLOW)));
  s.apply(balloons(RED, -1, YELLOW));
  REQUIRE(s.rocket(1, RED).num_boxes == 0);
  REQUIRE_FALSE(s.rocket(1, RED).joker);  // removing a box scares the Joker away
  REQUIRE(s.rocket(3, YELLOW).num_boxes == 3);
  REQUIRE(s.rocket(1, BLUE).num_boxes == 2);
  REQUIRE(discard_count(s, kJoker) == 1);
  REQUIRE(discard_count(s, kWaterBalloons) == 1);
}

TEST_CASE("Water Balloons: needs at least one target; the scare option needs an own Joker",
          "[rocket_squad][balloons]") {
  State s = position(R"({"hands":[{"cards":["water_balloons"]},{"cards":[]}],
      "rockets":[{"red":{"booster":"red_7","boxes":2,"joker":true}},{"blue":{"booster":"blue_3"}}]})");
  REQUIRE(legal(s) == std::vector<Action>{action::kEndTurn, knock_over(RED), balloons_scare(RED)});
  s.apply(balloons_scare(RED));
  REQUIRE_FALSE(s.rocket(0, RED).joker);
  REQUIRE(s.rocket(0, RED).num_boxes == 2);
  REQUIRE(discard_count(s, kJoker) == 1);
  REQUIRE(discard_count(s, kWaterBalloons) == 1);
}
