// Launch Pad rules: set-up, the six turn steps, placement, scoring, Countdown.
// "Ruling N": the project's numbered rulings of the rulebook (envs/launch_pad/launch_pad.h).
#include <catch2/catch.hpp>

#include "tests/launch_pad/launch_pad_position.h"

using namespace launch_pad_test;

namespace {

// Ends the turn of the seat before `seat` so that `seat`'s turn begins (steps 1-3 run).
State start_turn(int players, int seat, const std::string& patch) {
  Json p = Json::parse(patch);
  p["turn"] = (seat + players - 1) % players;
  p["step"] = "discard";
  State s = position(players, p.dump());
  s.apply(act::kEndTurn);
  return s;
}

}  // namespace

// ---------------------------------------------------------------- cards and set-up

TEST_CASE("deck: the 140 cards of the Card Reference") {
  const Config& c = standard();
  REQUIRE(c.total_cards() == 140);
  auto sum = [&](int from, int to) {
    int n = 0;
    for (int t = from; t <= to; ++t) n += c.count[static_cast<std::size_t>(t)];
    return n;
  };
  REQUIRE(sum(kObserver, kGalactic) == 21);
  REQUIRE(c.count[kObserver] == 12);
  REQUIRE(c.count[kGalactic] == 2);
  REQUIRE(c.count[kMetal] == 28);
  REQUIRE(c.count[kFuel] == 30);
  REQUIRE(sum(kEngineer, kJackOfAllTrades) == 18);
  REQUIRE(sum(kAstronaut, kQualityCertificate) == 17);
  REQUIRE(c.count[kLaunchPad] == 4);
  REQUIRE(sum(kAbortMission, kVacuum) == 16);
  REQUIRE(sum(kEmployeeContract, kWarehouse) == 6);
  // "There are precisely enough Component cards included in the deck to complete all of the Rockets."
  int metal = 0, fuel = 0;
  for (int k = 0; k < kNumRocketKinds; ++k) {
    metal += c.count[static_cast<std::size_t>(k)] * c.rocket[static_cast<std::size_t>(k)].metal;
    fuel += c.count[static_cast<std::size_t>(k)] * c.rocket[static_cast<std::size_t>(k)].fuel;
  }
  REQUIRE(metal == 28);
  REQUIRE(fuel == 30);
  REQUIRE(c.rocket[kIntrepid].points == 10);
  REQUIRE(c.rocket[kExplorer].fuel == 2);
}

TEST_CASE("config: bad keys and values are errors naming file, line and key") {
  REQUIRE_THROWS_WITH(load("variants:\n  short_gam: true\n"), Catch::Contains("short_gam"));
  REQUIRE_THROWS_WITH(load("cards:\n  metal: 99\n"),
                      Catch::Contains("cards.metal") && Catch::Contains("out of range"));
  REQUIRE_THROWS_WITH(load("hand_limit: six\n"), Catch::Contains("hand_limit"));
  REQUIRE_THROWS_WITH(load("variants:\n  short_game: true\n  long_game: true\n"),
                      Catch::Contains("cannot both"));
  REQUIRE_THROWS_AS(load("rockets:\n  observer: {count: 12, metal: 1, fuel: 1, points: 6, colour: red}\n"),
                    ConfigError);
  REQUIRE_THROWS_WITH(load("reward: money\n"), Catch::Contains("reward"));
  REQUIRE_THROWS_WITH(load("cards:\n  launch_pad: 0\n"), Catch::Contains("launch_pad"));
}

TEST_CASE("set-up (ruling 2): six cards each, Launch Pad cards in the bottom half, seat 0 starts") {
  for (int players = 2; players <= 4; ++players) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      const State s(standard(), players, seed);
      const int remaining = 136 - 6 * players;
      REQUIRE(s.draw_pile_size() == remaining + 4);
      for (int seat = 0; seat < players; ++seat) {
        REQUIRE(s.area(seat).hand_size == 6);
        REQUIRE(hand(s, seat, kLaunchPad) == 0);
      }
      // Bottom half: floor(remaining / 2) cards, plus the four Launch Pad cards (index 0 is the bottom).
      for (int i = remaining / 2 + 4; i < s.draw_pile_size(); ++i) REQUIRE(s.draw_pile_card(i) != kLaunchPad);
      REQUIRE(s.launch_pads_in_draw_pile() == 4);
      REQUIRE(s.turn_player() == 0);
      REQUIRE(s.step() == Step::kPlay);  // nothing to advance, hand already full
      REQUIRE_NOTHROW(s.check_invariants());
    }
  }
}

// ---------------------------------------------------------------- step 1: Launch Pad cards

TEST_CASE("step 1 (ruling 4): Launch Pad cards advance one zone a turn, one per zone, without experts") {
  State s = start_turn(2, 1, R"({"hands": [{}, {"metal": 6}],
      "zones": [{}, {"launch_pads": [2, 1, 1]}]})");
  // Launch Zone -> Launch Pad area, Quality Control -> Launch, one of the two in Construction -> Quality
  // Control.
  REQUIRE(s.launch_pads_in_area() == 1);
  REQUIRE(s.area(1).launch_pads[kConstructionZone] == 1);
  REQUIRE(s.area(1).launch_pads[kQualityControlZone] == 1);
  REQUIRE(s.area(1).launch_pads[kLaunchZone] == 1);
  // Another player's Launch Pad cards do not move on this turn.
  State t = start_turn(2, 0, R"({"hands": [{"metal": 6}], "zones": [{}, {"launch_pads": [0, 0, 1]}]})");
  REQUIRE(t.area(1).launch_pads[kLaunchZone] == 1);
  REQUIRE(t.launch_pads_in_area() == 0);
}

// ---------------------------------------------------------------- step 2: advancing rockets

TEST_CASE("step 2 (ruling 5): a complete rocket with its zone's expert may advance, one per zone") {
  State s = start_turn(2, 0, R"({"hands": [{"metal": 6}],
      "zones": [{"experts": {"construction": "engineer", "quality_control": "jack_of_all_trades"},
                 "rockets": [{"slot": 0, "kind": "observer"}, {"slot": 1, "kind": "explorer"},
                             {"slot": 2, "kind": "intrepid", "zone": "quality_control"},
                             {"slot": 3, "kind": "galactic", "metal": 2}]}]})");
  REQUIRE(s.step() == Step::kAdvance);
  REQUIRE(s.is_legal(act::advance(0)));
  REQUIRE(s.is_legal(act::advance(1)));
  REQUIRE(s.is_legal(act::advance(2)));        // the Jack of All Trades inspects
  REQUIRE_FALSE(s.is_legal(act::advance(3)));  // incomplete
  s.apply(act::advance(0));
  REQUIRE(rocket_at(s, 0, 0).zone == kQualityControlZone);
  REQUIRE_FALSE(s.is_legal(act::advance(1)));  // the Construction Zone's one advance is used
  REQUIRE_FALSE(s.is_legal(act::advance(0)));  // never two zones in one step 2
  s.apply(act::advance(2));
  REQUIRE(rocket_at(s, 0, 2).zone == kLaunchZone);
  REQUIRE(s.step() == Step::kPlay);  // nothing left to advance: on to the draw (hand full) and play
}

TEST_CASE("step 2: no advance without the expert of the zone the rocket leaves; Overtime allows two") {
  State s = start_turn(2, 0, R"({"hands": [{"metal": 6}],
      "zones": [{"experts": {"launch": "mission_controller"},
                 "rockets": [{"slot": 0, "kind": "observer"}, {"slot": 1, "kind": "observer", "zone": "quality_control"}]}]})");
  REQUIRE(s.step() == Step::kPlay);  // step 2 skipped: no Engineer, no Inspector
  State t = start_turn(2, 0, R"({"hands": [{"metal": 6}],
      "zones": [{"experts": {"construction": "engineer"}, "specialties": ["overtime"],
                 "rockets": [{"slot": 0, "kind": "observer"}, {"slot": 1, "kind": "observer"}, {"slot": 2, "kind": "observer"}]}]})");
  t.apply(act::advance(0));
  REQUIRE(t.is_legal(act::advance(1)));
  t.apply(act::advance(1));
  REQUIRE(t.step() == Step::kPlay);  // the third may not: two per zone with Overtime
  REQUIRE(rocket_at(t, 0, 2).zone == kConstructionZone);
  // Overtime counts per zone: two from Quality Control as well, with its Inspector.
  State q = start_turn(2, 0, R"({"hands": [{"metal": 6}],
      "zones": [{"experts": {"quality_control": "inspector"}, "specialties": ["overtime"],
                 "rockets": [{"slot": 0, "kind": "observer", "zone": "quality_control"},
                             {"slot": 1, "kind": "observer", "zone": "quality_control"},
                             {"slot": 2, "kind": "observer", "zone": "quality_control"}]}]})");
  q.apply(act::advance(0));
  q.apply(act::advance(2));
  REQUIRE(q.step() == Step::kPlay);
  REQUIRE(rocket_at(q, 0, 1).zone == kQualityControlZone);
  REQUIRE(rocket_at(q, 0, 2).zone == kLaunchZone);
}

TEST_CASE("step 2: stopping early keeps the other rockets where they are") {
  State s = start_turn(2, 0, R"({"hands": [{"metal": 6}],
      "zones": [{"experts": {"construction": "engineer"}, "rockets": [{"slot": 0, "kind": "observer"}]}]})");
  REQUIRE(s.is_legal(act::kStopAdvancing));
  s.apply(act::kStopAdvancing);
  REQUIRE(rocket_at(s, 0, 0).zone == kConstructionZone);
  REQUIRE(s.step() == Step::kPlay);
}

TEST_CASE("step 2: eligibility is fixed at the start of the turn (a rocket completed in step 4 waits)") {
  State s = position(2, R"({"hands": [{"fuel": 1}], "zones": [{"experts": {"construction": "engineer"},
      "rockets": [{"slot": 0, "kind": "observer", "fuel": 0}]}]})");
  s.apply(act::play_fuel(0));
  REQUIRE(s.rocket_complete(rocket_at(s, 0, 0)));
  REQUIRE_FALSE(s.is_legal(act::advance(0)));  // not step 2 any more
  REQUIRE(s.step() == Step::kPlay);
}

// ---------------------------------------------------------------- step 3: drawing

TEST_CASE("step 3 (ruling 6): draw to the hand limit, optionally the discard pile's top card first") {
  State s = start_turn(2, 0, R"({"hands": [{"metal": 2}], "discard_pile": ["oxygen", "engineer"],
      "draw_top": ["fuel", "fuel", "fuel", "fuel", "salvage"]})");
  REQUIRE(s.step() == Step::kDrawChoice);
  State take = s;
  take.apply(act::kTakeDiscardTop);
  REQUIRE(hand(take, 0, kEngineer) == 1);  // the top card
  REQUIRE(hand(take, 0, kFuel) == 3);
  REQUIRE(take.area(0).hand_size == 6);
  REQUIRE(take.discard_pile_size() == 1);
  s.apply(act::kDrawFromPile);
  REQUIRE(hand(s, 0, kFuel) == 4);
  REQUIRE(hand(s, 0, kEngineer) == 0);
  REQUIRE(s.discard_pile_size() == 2);
}

TEST_CASE("step 3: with an empty discard pile or a full hand nothing is asked") {
  State s = start_turn(2, 0, R"({"hands": [{"metal": 4}], "draw_top": ["fuel", "fuel"]})");
  REQUIRE(s.step() == Step::kPlay);
  REQUIRE(hand(s, 0, kFuel) == 2);
  State t = start_turn(2, 0, R"({"hands": [{"metal": 6}], "discard_pile": ["oxygen"]})");
  REQUIRE(t.step() == Step::kPlay);
  REQUIRE(t.area(0).hand_size == 6);
}

TEST_CASE("step 3: a drawn Launch Pad card goes to the Construction Zone and is replaced") {
  State s = start_turn(2, 0, R"({"hands": [{"metal": 5}], "draw_top": ["launch_pad", "fuel"]})");
  REQUIRE(s.area(0).launch_pads[kConstructionZone] == 1);
  REQUIRE(s.area(0).hand_size == 6);
  REQUIRE(hand(s, 0, kFuel) == 1);
  // Placed after step 1, it first advances at its owner's next turn, not at the other player's.
  s.apply(act::kStopPlaying);
  s.apply(act::kEndTurn);
  REQUIRE(s.turn_player() == 1);
  REQUIRE(s.area(0).launch_pads[kConstructionZone] == 1);
  REQUIRE(s.area(0).launch_pads[kQualityControlZone] == 0);
}

// Every card not placed elsewhere moves from the draw pile to the discard pile
// (the Launch Pad cards go to player 1's Construction Zone).
static Json empty_draw_pile(Json doc) {
  Json discard = doc["discard_pile"];
  int pads = 0;
  for (const auto& c : doc["draw_pile"]) {
    if (c == "launch_pad")
      ++pads;
    else
      discard.push_back(c);
  }
  doc["zones"][1]["launch_pads"] = {pads, 0, 0};
  doc["draw_pile"] = Json::array();
  doc["launch_pad_region"] = 0;
  doc["discard_pile"] = discard;
  return doc;
}

TEST_CASE("step 3: an empty draw pile is replaced by the shuffled discard pile") {
  const Json doc = empty_draw_pile(
      complete_document(standard(), 2, R"({"turn": 1, "step": "discard", "hands": [{"metal": 3}]})"));
  State s = State::from_json(doc, standard());
  const int discards = s.discard_pile_size();
  s.apply(act::kEndTurn);
  REQUIRE(s.step() == Step::kDrawChoice);
  s.apply(act::kDrawFromPile);
  REQUIRE(s.area(0).hand_size == 6);
  REQUIRE(s.discard_pile_size() == 0);
  REQUIRE(s.draw_pile_size() == discards - 3);
}

TEST_CASE("step 3: with both piles empty drawing stops short") {
  // Four players and every card in play or in a hand (at most 8 each outside
  // the turn): player 1 has built every other rocket, everybody has three experts.
  Json rockets = Json::array();
  const std::pair<const char*, int> kinds[] = {
      {"observer", 11}, {"explorer", 4}, {"intrepid", 3}, {"galactic", 2}};
  for (const auto& [kind, count] : kinds)
    for (int k = 0; k < count; ++k) {
      const int slot = static_cast<int>(rockets.size());
      Json bonuses = Json::array();
      if (slot < 5) bonuses = {"astronaut", "oxygen"};
      if (slot < 3) bonuses.push_back("maximum_security");
      if (slot < 4) bonuses.push_back("quality_certificate");
      rockets.push_back({{"slot", slot},
                         {"kind", kind},
                         {"zone", slot < 5 ? "launch" : "construction"},
                         {"bonuses", bonuses}});
    }
  Json doc = Json::parse(R"({"hands": [{"metal": 1},
      {"abort_mission": 1, "big_red_button": 1, "budget_cuts": 2, "fast_track": 1, "parts_supplier": 2, "quality_check": 1},
      {"recruitment": 1, "recycle_bin": 1, "sabotage": 1, "salvage": 2, "surplus": 1, "thief": 1, "vacuum": 1},
      {"engineer": 1, "inspector": 1, "mission_controller": 1, "jack_of_all_trades": 3, "warehouse": 2}],
    "launch_pad_area": 1})");
  const char* specialty[] = {"employee_contract", "employee_contract", "overtime", "security_system"};
  for (int seat = 0; seat < 4; ++seat)
    doc["zones"][static_cast<std::size_t>(seat)] = {
        {"experts",
         {{"construction", "engineer"}, {"quality_control", "inspector"}, {"launch", "mission_controller"}}},
        {"specialties", {specialty[seat]}}};
  doc["zones"][0]["rockets"] = Json::parse(R"([{"slot": 0, "kind": "observer", "metal": 0}])");
  doc["zones"][1]["rockets"] = rockets;
  doc["zones"][1]["launch_pads"] = {1, 1, 1};
  State s = position(4, doc.dump());
  REQUIRE(s.draw_pile_size() == 0);
  REQUIRE(s.discard_pile_size() == 0);
  s.apply(act::play_metal(0));  // the hand is empty: step 5 draws, but there is nothing
  REQUIRE(s.area(0).hand_size == 0);
  REQUIRE(s.redraw_used());
  REQUIRE(s.step() == Step::kPlay);
}

// ---------------------------------------------------------------- step 4: placement

TEST_CASE("rockets are played in the Construction Zone, in the lowest free slot") {
  State s = position(2, R"({"hands": [{"galactic": 1, "observer": 1}],
      "zones": [{"rockets": [{"slot": 0, "kind": "observer"}, {"slot": 2, "kind": "explorer"}]}]})");
  s.apply(act::play_rocket(kGalactic));
  REQUIRE(rocket_at(s, 0, 1).kind == kGalactic);
  REQUIRE(rocket_at(s, 0, 1).zone == kConstructionZone);
  REQUIRE(rocket_at(s, 0, 1).metal == 0);
  s.apply(act::play_rocket(kObserver));
  REQUIRE(rocket_at(s, 0, 3).kind == kObserver);
}

TEST_CASE("Components (ruling 9): own incomplete rocket in the Construction Zone, never beyond its needs") {
  State s = position(2, R"({"hands": [{"metal": 3, "fuel": 3}],
      "zones": [{"rockets": [{"slot": 0, "kind": "explorer", "metal": 0, "fuel": 1},
                             {"slot": 1, "kind": "observer"},
                             {"slot": 2, "kind": "observer", "zone": "quality_control"}]},
                {"rockets": [{"slot": 0, "kind": "galactic", "metal": 0, "fuel": 0}]}]})");
  REQUIRE(s.is_legal(act::play_metal(0)));
  REQUIRE(s.is_legal(act::play_fuel(0)));
  REQUIRE_FALSE(s.is_legal(act::play_metal(1)));  // complete
  REQUIRE_FALSE(s.is_legal(act::play_fuel(2)));   // not in the Construction Zone
  REQUIRE_FALSE(s.is_legal(act::play_metal(5)));  // no rocket there
  s.apply(act::play_metal(0));
  REQUIRE_FALSE(s.is_legal(act::play_metal(0)));  // one Metal is all an Explorer needs
  s.apply(act::play_fuel(0));
  REQUIRE(s.rocket_complete(rocket_at(s, 0, 0)));
  REQUIRE_FALSE(s.is_legal(act::play_fuel(0)));
  REQUIRE_THROWS_AS(s.apply(act::play_fuel(0)), IllegalAction);
}

TEST_CASE("experts (ruling 9): one per zone, in their own zone, never replaced; a Jack names its zone") {
  State s = position(2, R"({"hands": [{"engineer": 2, "jack_of_all_trades": 1, "inspector": 1}],
      "zones": [{"experts": {"launch": "mission_controller"}}]})");
  REQUIRE(s.is_legal(act::play_expert(kEngineer)));
  REQUIRE_FALSE(s.is_legal(act::play_expert(kMissionController)));             // not in hand
  REQUIRE_FALSE(s.is_legal(act::play_expert(kJackOfAllTrades, kLaunchZone)));  // zone taken
  s.apply(act::play_expert(kEngineer));
  REQUIRE(s.area(0).expert[kConstructionZone] == kEngineer);
  REQUIRE_FALSE(s.is_legal(act::play_expert(kEngineer)));  // cannot be replaced
  s.apply(act::play_expert(kJackOfAllTrades, kQualityControlZone));
  REQUIRE(s.area(0).expert[kQualityControlZone] == kJackOfAllTrades);
  REQUIRE_FALSE(s.is_legal(act::play_expert(kInspector)));
}

TEST_CASE(
    "bonus cards (ruling 9): Quality Certificate in Quality Control, the others in the Launch Zone, one of "
    "each") {
  State s = position(
      2, R"({"hands": [{"quality_certificate": 2, "astronaut": 2, "oxygen": 1, "maximum_security": 1}],
      "zones": [{"rockets": [{"slot": 0, "kind": "observer", "zone": "construction"},
                             {"slot": 1, "kind": "observer", "zone": "quality_control"},
                             {"slot": 2, "kind": "observer", "zone": "launch", "bonuses": ["astronaut"]}]},
                {"rockets": [{"slot": 0, "kind": "observer", "zone": "quality_control"}]}]})");
  REQUIRE_FALSE(s.is_legal(act::play_bonus(kQualityCertificate, 0)));
  REQUIRE(s.is_legal(act::play_bonus(kQualityCertificate, 1)));
  REQUIRE_FALSE(s.is_legal(act::play_bonus(kQualityCertificate, 2)));  // only in Quality Control
  REQUIRE_FALSE(s.is_legal(act::play_bonus(kAstronaut, 1)));
  REQUIRE_FALSE(s.is_legal(act::play_bonus(kAstronaut, 2)));  // one Astronaut per rocket
  REQUIRE(s.is_legal(act::play_bonus(kOxygen, 2)));
  REQUIRE(s.is_legal(act::play_bonus(kMaximumSecurity, 2)));
  s.apply(act::play_bonus(kQualityCertificate, 1));
  REQUIRE(rocket_at(s, 0, 1).has_bonus(kQualityCertificate));
  REQUIRE_FALSE(s.is_legal(act::play_bonus(kQualityCertificate, 1)));
}

TEST_CASE("a Quality Certificate advances with its rocket to the Launch Zone") {
  State s =
      start_turn(2, 0, R"({"hands": [{"metal": 6}], "zones": [{"experts": {"quality_control": "inspector"},
      "rockets": [{"slot": 0, "kind": "observer", "zone": "quality_control", "bonuses": ["quality_certificate"]}]}]})");
  s.apply(act::advance(0));
  REQUIRE(rocket_at(s, 0, 0).zone == kLaunchZone);
  REQUIRE(rocket_at(s, 0, 0).has_bonus(kQualityCertificate));
}

TEST_CASE("Specialty cards (ruling 18): one in play, a new one discards the old") {
  State s = position(
      2, R"({"hands": [{"overtime": 1, "warehouse": 1}], "zones": [{"specialties": ["security_system"]}]})");
  s.apply(act::play_specialty(kOvertime));
  REQUIRE(s.area(0).has_specialty(kOvertime));
  REQUIRE_FALSE(s.area(0).has_specialty(kSecuritySystem));
  REQUIRE(s.discard_top() == kSecuritySystem);
  REQUIRE(s.area(0).num_specialties() == 1);
}

// ---------------------------------------------------------------- steps 5 and 6

TEST_CASE("step 5 (ruling 7): an empty hand draws back to the limit from the draw pile, once per turn") {
  State s = position(2, R"({"hands": [{"metal": 1}], "discard_pile": ["engineer"],
      "zones": [{"rockets": [{"slot": 0, "kind": "galactic", "metal": 0, "fuel": 0}]}],
      "draw_top": ["metal", "metal", "fuel", "fuel", "oxygen", "salvage"]})");
  s.apply(act::play_metal(0));
  REQUIRE(s.redraw_used());
  REQUIRE(s.area(0).hand_size == 6);
  REQUIRE(hand(s, 0, kMetal) == 2);
  REQUIRE(hand(s, 0, kSalvage) == 1);
  REQUIRE(hand(s, 0, kEngineer) == 0);  // never from the discard pile
}

TEST_CASE("step 5 happens only once: a second empty hand stays empty") {
  State s = position(2, R"({"redraw_used": true, "hands": [{"observer": 1}]})");
  s.apply(act::play_rocket(kObserver));
  REQUIRE(s.area(0).hand_size == 0);
  REQUIRE(s.step() == Step::kPlay);
}

TEST_CASE(
    "step 6 (ruling 8): discard freely, end the turn only within the hand limit; discarded actions do "
    "nothing") {
  State s = position(2, R"({"step": "discard", "hands": [{"metal": 6, "abort_mission": 1},
      {"metal": 1}], "zones": [{}, {"rockets": [{"slot": 0, "kind": "observer", "zone": "launch"}]}]})");
  REQUIRE_FALSE(s.is_legal(act::kEndTurn));
  REQUIRE_FALSE(s.is_legal(act::abort_mission(1, 0)));  // step 6 plays nothing
  s.apply(act::discard(kAbortMission));
  REQUIRE(s.discard_top() == kAbortMission);
  REQUIRE(rocket_at(s, 1, 0).exists());  // no action was taken
  REQUIRE(s.is_legal(act::kEndTurn));
  s.apply(act::kEndTurn);
  REQUIRE(s.turn_player() == 1);
}

TEST_CASE("Warehouse: hand limit 8 for drawing and for the end of the turn") {
  State s = start_turn(2, 0, R"({"hands": [{"metal": 2}], "zones": [{"specialties": ["warehouse"]}]})");
  REQUIRE(s.area(0).hand_size == 8);
  REQUIRE(s.hand_limit(0) == 8);
  s.apply(act::kStopPlaying);
  REQUIRE(s.is_legal(act::kEndTurn));
  // Playing a Warehouse draws nothing at once.
  State t = position(2, R"({"hands": [{"warehouse": 1, "metal": 3}]})");
  t.apply(act::play_specialty(kWarehouse));
  REQUIRE(t.area(0).hand_size == 3);
  REQUIRE(t.hand_limit(0) == 8);
  // Ruling 18: from the next draw on; step 5 is such a draw.
  State u = position(2, R"({"hands": [{"metal": 1}], "zones": [{"specialties": ["warehouse"],
      "rockets": [{"slot": 0, "kind": "galactic", "metal": 0, "fuel": 0}]}]})");
  u.apply(act::play_metal(0));
  REQUIRE(u.redraw_used());
  REQUIRE(u.area(0).hand_size == 8);
}

// ---------------------------------------------------------------- scoring

TEST_CASE("scoring table: rockets by zone, Astronauts, Quality Certificates, no Mission Controller") {
  State s = position(2, R"({"hands": [{"galactic": 1, "astronaut": 1}], "zones": [
      {"experts": {"launch": "jack_of_all_trades"},
       "rockets": [{"slot": 0, "kind": "galactic", "zone": "launch", "bonuses": ["astronaut", "oxygen", "quality_certificate"]},
                   {"slot": 1, "kind": "observer", "zone": "launch", "bonuses": ["astronaut"]},
                   {"slot": 2, "kind": "explorer", "zone": "quality_control", "bonuses": ["quality_certificate"]},
                   {"slot": 3, "kind": "intrepid", "zone": "construction", "metal": 0},
                   {"slot": 4, "kind": "observer", "zone": "launch", "bonuses": ["oxygen", "maximum_security"]}]},
      {"rockets": [{"slot": 0, "kind": "intrepid", "zone": "launch"}]}]})");
  // 12 + 4 + 3 | 6 - 4 | 0 + 0 | -10 | 6 + 0 + 0; a Jack of All Trades is the Mission Controller;
  // cards in hand score nothing.
  REQUIRE(s.score(0) == 12 + 4 + 3 + 6 - 4 + 0 - 10 + 6);
  REQUIRE(s.score(1) == 10 - 10);  // no Mission Controller
  REQUIRE(s.bonus_cards_in_play(0) == 7);
}

TEST_CASE("tie-break (ruling 21): equal points, more Bonus cards wins; equal both is shared") {
  State s = position(2, R"({"step": "game_over", "countdown": true, "launch_pad_area": 4, "zones": [
      {"experts": {"launch": "mission_controller"}, "rockets": [{"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["oxygen"]}]},
      {"experts": {"launch": "mission_controller"}, "rockets": [{"slot": 0, "kind": "observer", "zone": "launch"}]}]})");
  REQUIRE(s.is_terminal());
  float r[2];
  s.returns(r);
  REQUIRE(r[0] == 1.0f);
  REQUIRE(r[1] == -1.0f);
  State tie = position(2, R"({"step": "game_over", "countdown": true, "launch_pad_area": 4, "zones": [
      {"experts": {"launch": "mission_controller"}}, {"experts": {"launch": "mission_controller"}}]})");
  tie.returns(r);
  REQUIRE(r[0] == 0.0f);
  REQUIRE(r[1] == 0.0f);
}

// ---------------------------------------------------------------- the Countdown

TEST_CASE(
    "Countdown (ruling 19): the completing turn ends, every other player plays once, the completer last") {
  // Player 1 of 3 advances the fourth Launch Pad card in step 1.
  State s = start_turn(3, 1, R"({"launch_pad_area": 3, "hands": [{"metal": 6}, {"metal": 6}, {"metal": 6}],
      "zones": [{}, {"launch_pads": [0, 0, 1]}]})");
  REQUIRE(s.countdown());
  REQUIRE(s.turn_player() == 1);
  std::vector<int> order;
  while (!s.is_terminal()) {
    if (s.step() == Step::kPlay) s.apply(act::kStopPlaying);
    if (s.step() == Step::kDiscard) {
      order.push_back(s.turn_player());
      s.apply(act::kEndTurn);
    } else if (!s.is_terminal()) {
      s.apply(act::kDrawFromPile);
    }
  }
  REQUIRE(order == std::vector<int>{1, 2, 0, 1});
  REQUIRE(s.current_player() == -1);
}

TEST_CASE("the game is not over before the Launch Pad is complete") {
  State s = start_turn(2, 0, R"({"launch_pad_area": 2, "hands": [{"metal": 6}, {"metal": 6}],
      "zones": [{"launch_pads": [0, 0, 1]}]})");
  REQUIRE_FALSE(s.countdown());
  REQUIRE(s.launch_pads_in_area() == 3);
}

TEST_CASE("reward modes from the config: rank (default), win, score") {
  const char* end = R"({"step": "game_over", "countdown": true, "launch_pad_area": 4, "zones": [
      {"experts": {"launch": "mission_controller"}, "rockets": [{"slot": 0, "kind": "galactic", "zone": "launch"}]},
      {"experts": {"launch": "mission_controller"}, "rockets": [{"slot": 0, "kind": "observer", "zone": "launch"}]}, {}]})";
  float r[3];
  position(3, end).returns(r);
  REQUIRE(r[0] == 1.0f);  // 12 > 6 > -10
  REQUIRE(r[1] == 0.0f);
  REQUIRE(r[2] == -1.0f);
  const Config win = load("reward: win\n");
  position(win, 3, end).returns(r);
  REQUIRE(r[0] == 1.0f);
  REQUIRE(r[1] == -0.5f);
  const Config score = load("reward: score\n");
  position(score, 3, end).returns(r);
  REQUIRE(r[0] > r[1]);
  REQUIRE(r[1] > r[2]);
  REQUIRE(r[0] + r[1] + r[2] == Approx(0.0).margin(1e-6));
}
