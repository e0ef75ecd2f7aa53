// Launch Pad Action and Specialty cards: each effect, each protection and each
// "cannot be played" condition (Card Reference, rulings 10-18).
#include <catch2/catch.hpp>

#include "tests/launch_pad/launch_pad_position.h"

using namespace launch_pad_test;

TEST_CASE("Abort Mission: the rocket with its Components and Bonus cards goes to the discard pile") {
  State s = position(2, R"({"hands": [{"abort_mission": 1}], "zones": [{}, {"rockets": [
      {"slot": 3, "kind": "intrepid", "zone": "launch", "bonuses": ["oxygen"]}]}]})");
  s.apply(act::abort_mission(1, 3));
  REQUIRE_FALSE(rocket_at(s, 1, 3).exists());
  // Several kinds of cards: the player chooses their order, from the top down
  // (rulebook: the player chooses the order), while two kinds or more are left.
  REQUIRE(s.step() == Step::kChooseTop);
  REQUIRE(s.current_player() == 0);
  REQUIRE(s.is_legal(act::put_on_top(kOxygen)));
  REQUIRE_FALSE(s.is_legal(act::put_on_top(kAstronaut)));
  for (const int card : {kMetal, kOxygen, kIntrepid, kMetal}) {
    REQUIRE(s.step() == Step::kChooseTop);
    s.apply(act::put_on_top(card));
  }
  REQUIRE(s.step() == Step::kPlay);  // only Fuel was left: both copies went below
  const int pile[] = {kAbortMission, kFuel, kFuel, kMetal, kIntrepid, kOxygen, kMetal};
  REQUIRE(s.discard_pile_size() == 7);
  for (int i = 0; i < 7; ++i) REQUIRE(s.discard_pile_card(i) == pile[i]);
}

TEST_CASE(
    "Abort Mission: not against Maximum Security, nor an opponent's Security System; own rockets allowed") {
  State s = position(2, R"({"hands": [{"abort_mission": 1}], "zones": [
      {"specialties": ["security_system"], "rockets": [{"slot": 0, "kind": "observer"}]},
      {"rockets": [{"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["maximum_security"]},
                   {"slot": 1, "kind": "observer", "zone": "launch"}]}]})");
  REQUIRE_FALSE(s.is_legal(act::abort_mission(1, 0)));
  REQUIRE(s.is_legal(act::abort_mission(1, 1)));
  REQUIRE(s.is_legal(act::abort_mission(0, 0)));  // own Security System does not stop its owner
  State own = position(2, R"({"hands": [{"abort_mission": 1}], "zones": [
      {"rockets": [{"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["maximum_security"]}]}]})");
  REQUIRE_FALSE(own.is_legal(act::abort_mission(0, 0)));  // Maximum Security protects from everybody
  State t = position(2, R"({"hands": [{"abort_mission": 1}], "zones": [{},
      {"specialties": ["security_system"], "rockets": [{"slot": 0, "kind": "observer", "zone": "launch"}]}]})");
  REQUIRE_FALSE(t.is_legal(act::abort_mission(1, 0)));
  REQUIRE_FALSE(t.is_legal(act::abort_mission(1, 5)));  // no rocket: cannot be played
}

TEST_CASE(
    "Big Red Button (ruling 17): any Launch Pad card in play to the Launch Pad area; the last starts the "
    "Countdown") {
  State s = position(
      3,
      R"({"hands": [{"big_red_button": 1}], "launch_pad_area": 3, "zones": [{}, {}, {"launch_pads": [1, 0, 0]}]})");
  REQUIRE(s.is_legal(act::big_red_button(2, kConstructionZone)));
  REQUIRE_FALSE(s.is_legal(act::big_red_button(1, kConstructionZone)));
  s.apply(act::big_red_button(2, kConstructionZone));
  REQUIRE(s.launch_pads_in_area() == 4);
  REQUIRE(s.countdown());
  REQUIRE(s.final_turns_left() == 3);
  State none = position(2, R"({"hands": [{"big_red_button": 1}]})");
  for (int o = 0; o < 2; ++o)
    for (int z = 0; z < kNumZones; ++z) REQUIRE_FALSE(none.is_legal(act::big_red_button(o, z)));
}

TEST_CASE("Budget Cuts: steal an opponent's Specialty card into the hand; none in play, no play") {
  State s =
      position(3, R"({"hands": [{"budget_cuts": 1}], "zones": [{}, {"specialties": ["warehouse"]}, {}]})");
  REQUIRE_FALSE(s.is_legal(act::budget_cuts(2)));
  s.apply(act::budget_cuts(1));
  REQUIRE(hand(s, 0, kWarehouse) == 1);
  REQUIRE(s.area(1).num_specialties() == 0);
  // The stolen card may be played (it takes effect at once).
  s.apply(act::play_specialty(kWarehouse));
  REQUIRE(s.hand_limit(0) == 8);
}

TEST_CASE("Budget Cuts (ruling 22): steals from an opponent only, never the player's own Specialty card") {
  // The player's own Specialty card is the only one in play: Budget Cuts cannot be played at all.
  for (const char* variant : {"", "variants: {super_powers: true}\n"}) {
    const Config config = load(variant);
    State s =
        position(config, 3,
                 R"({"hands": [{"budget_cuts": 1, "metal": 1}], "zones": [{"specialties": ["overtime"]}]})");
    std::vector<uint8_t> mask(act::kNumActions);
    s.legal_actions_mask(mask.data());
    for (int a = act::kBudgetCuts; a < act::kFastTrack; ++a) REQUIRE(mask[static_cast<std::size_t>(a)] == 0);
    // With an opponent's Specialty card in play, that one is the target; the player's own stays.
    State t = position(
        config, 3,
        R"({"hands": [{"budget_cuts": 1}], "zones": [{"specialties": ["overtime"]}, {}, {"specialties": ["warehouse"]}]})");
    REQUIRE_FALSE(t.is_legal(act::budget_cuts(1)));
    t.apply(act::budget_cuts(2));
    REQUIRE(hand(t, 0, kWarehouse) == 1);
    REQUIRE(t.area(0).has_specialty(kOvertime));
    REQUIRE(hand(t, 0, kOvertime) == 0);
  }
}

TEST_CASE(
    "Fast Track: own complete rocket from Construction or Quality Control straight to the Launch Zone") {
  State s = position(2, R"({"hands": [{"fast_track": 1}], "zones": [{"rockets": [
      {"slot": 0, "kind": "galactic"}, {"slot": 1, "kind": "observer", "fuel": 0},
      {"slot": 2, "kind": "observer", "zone": "launch"}]},
      {"rockets": [{"slot": 0, "kind": "observer"}]}]})");
  REQUIRE(s.is_legal(act::fast_track(0)));        // no expert needed
  REQUIRE_FALSE(s.is_legal(act::fast_track(1)));  // incomplete
  REQUIRE_FALSE(s.is_legal(act::fast_track(2)));  // already there
  s.apply(act::fast_track(0));
  REQUIRE(rocket_at(s, 0, 0).zone == kLaunchZone);
}

TEST_CASE(
    "Fast Track from Quality Control: the Quality Certificate goes along and scores in the Launch Zone") {
  State s =
      position(2, R"({"hands": [{"fast_track": 1}], "zones": [{"experts": {"launch": "mission_controller"},
      "rockets": [{"slot": 0, "kind": "galactic", "zone": "quality_control", "bonuses": ["quality_certificate"]}]}]})");
  REQUIRE(s.score(0) == 0);  // in Quality Control: neither the rocket nor its certificate scores
  s.apply(act::fast_track(0));
  REQUIRE(rocket_at(s, 0, 0).zone == kLaunchZone);
  REQUIRE(rocket_at(s, 0, 0).has_bonus(kQualityCertificate));
  REQUIRE(s.score(0) == 12 + 3);
}

TEST_CASE("Parts Supplier: three more cards from the draw pile, whatever the hand size") {
  State s = position(2, R"({"hands": [{"parts_supplier": 1, "metal": 5}], "discard_pile": ["engineer"],
      "draw_top": ["oxygen", "fuel", "thief"]})");
  s.apply(act::kPartsSupplier);
  REQUIRE(s.area(0).hand_size == 8);
  REQUIRE(hand(s, 0, kOxygen) == 1);
  REQUIRE(hand(s, 0, kThief) == 1);
  REQUIRE(hand(s, 0, kEngineer) == 0);
  REQUIRE(s.discard_top() == kPartsSupplier);
  s.apply(act::kStopPlaying);
  REQUIRE_FALSE(s.is_legal(act::kEndTurn));  // retain no more than the hand limit
}

TEST_CASE("Parts Supplier: a Launch Pad card drawn is placed at once and replaced") {
  State s = position(
      2, R"({"hands": [{"parts_supplier": 1}], "draw_top": ["oxygen", "launch_pad", "fuel", "thief"]})");
  s.apply(act::kPartsSupplier);
  REQUIRE(s.area(0).launch_pads[kConstructionZone] == 1);
  REQUIRE(s.area(0).hand_size == 3);  // the Launch Pad card does not count: a fourth card replaces it
  REQUIRE(hand(s, 0, kThief) == 1);
  // Short game: straight to the Launch Pad area; the last one starts the Countdown.
  const Config short_game = load("variants: {short_game: true}\n");
  State t = position(
      short_game, 2,
      R"({"hands": [{"parts_supplier": 1}], "launch_pad_area": 3, "draw_top": ["launch_pad", "fuel"]})");
  t.apply(act::kPartsSupplier);
  REQUIRE(t.launch_pads_in_area() == 4);
  REQUIRE(t.countdown());
  REQUIRE(t.area(0).hand_size == 3);
}

TEST_CASE(
    "Quality Check: a Launch Zone rocket back to Quality Control, Bonus cards discarded; Quality Certificate "
    "protects") {
  State s = position(
      2, R"({"hands": [{"quality_check": 1}], "zones": [{}, {"specialties": ["security_system"], "rockets": [
      {"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["astronaut", "maximum_security"]},
      {"slot": 1, "kind": "observer", "zone": "launch", "bonuses": ["quality_certificate"]},
      {"slot": 2, "kind": "observer", "zone": "quality_control"}]}]})");
  REQUIRE_FALSE(s.is_legal(act::quality_check(1, 1)));
  REQUIRE_FALSE(s.is_legal(act::quality_check(1, 2)));  // not in the Launch Zone
  REQUIRE(s.is_legal(act::quality_check(1, 0)));        // Maximum Security and Security System do not protect
  s.apply(act::quality_check(1, 0));
  REQUIRE(s.step() == Step::kChooseTop);
  s.apply(act::put_on_top(kAstronaut));
  REQUIRE(rocket_at(s, 1, 0).zone == kQualityControlZone);
  REQUIRE(rocket_at(s, 1, 0).bonuses == 0);
  REQUIRE(s.discard_top() == kAstronaut);
  REQUIRE(s.discard_count(kMaximumSecurity) == 1);
  // "One of any player's Rockets": the player's own too.
  State own = position(2, R"({"hands": [{"quality_check": 1}], "zones": [{"rockets": [
      {"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["oxygen"]}]}]})");
  own.apply(act::quality_check(0, 0));
  REQUIRE(rocket_at(own, 0, 0).zone == kQualityControlZone);
  REQUIRE(own.discard_top() == kOxygen);
}

TEST_CASE(
    "Recruitment (ruling 11): an opponent's expert into the hand; Employee Contract protects; never one's "
    "own") {
  State s =
      position(3, R"({"hands": [{"recruitment": 1}], "zones": [{"experts": {"construction": "engineer"}},
      {"experts": {"launch": "jack_of_all_trades"}}, {"experts": {"launch": "mission_controller"}, "specialties": ["employee_contract"]}]})");
  REQUIRE_FALSE(s.is_legal(act::recruitment(2, kLaunchZone)));
  REQUIRE_FALSE(s.is_legal(act::recruitment(1, kConstructionZone)));
  s.apply(act::recruitment(1, kLaunchZone));
  REQUIRE(hand(s, 0, kJackOfAllTrades) == 1);
  REQUIRE(s.area(1).expert[kLaunchZone] == -1);
  REQUIRE(s.score(1) == -10);  // no Mission Controller any more
  // A Jack of All Trades recruited may fill any zone of its new owner.
  s.apply(act::play_expert(kJackOfAllTrades, kLaunchZone));
  REQUIRE(s.area(0).expert[kLaunchZone] == kJackOfAllTrades);
  REQUIRE(s.score(0) == 0);
}

TEST_CASE(
    "Recycle Bin (ruling 16): the top ten discards into the draw pile, the Recycle Bin on top; needs a "
    "discard") {
  State s = position(
      2,
      R"({"hands": [{"recycle_bin": 1, "engineer": 1}], "discard_pile": ["thief", "metal", "metal", "metal",
      "metal", "metal", "metal", "fuel", "fuel", "fuel", "fuel", "oxygen"]})");
  const int draw = s.draw_pile_size();
  s.apply(act::kRecycleBin);
  REQUIRE(s.discard_pile_size() == 3);
  REQUIRE(s.discard_pile_card(0) == kThief);
  REQUIRE(s.discard_pile_card(1) == kMetal);
  REQUIRE(s.discard_top() == kRecycleBin);
  REQUIRE(s.draw_pile_size() == draw + 10);
  State few = position(2, R"({"hands": [{"recycle_bin": 1}], "discard_pile": ["oxygen"]})");
  few.apply(act::kRecycleBin);
  REQUIRE(few.discard_pile_size() == 1);
  State empty = position(2, R"({"hands": [{"recycle_bin": 1}]})");
  REQUIRE_FALSE(empty.is_legal(act::kRecycleBin));
}

TEST_CASE(
    "Sabotage (ruling 12): steal a Component, the rocket returns to Construction and loses its Bonus cards") {
  State s = position(2, R"({"hands": [{"sabotage": 1}], "zones": [{}, {"rockets": [
      {"slot": 0, "kind": "explorer", "zone": "launch", "bonuses": ["astronaut"]},
      {"slot": 1, "kind": "observer", "metal": 0, "fuel": 0}]}]})");
  REQUIRE_FALSE(s.is_legal(act::sabotage(1, 1, kMetal)));  // nothing to steal
  s.apply(act::sabotage(1, 0, kFuel));
  REQUIRE(hand(s, 0, kFuel) == 1);
  const Rocket& r = rocket_at(s, 1, 0);
  REQUIRE(r.zone == kConstructionZone);
  REQUIRE(r.fuel == 1);
  REQUIRE(r.bonuses == 0);
  REQUIRE(s.discard_top() == kAstronaut);  // a single kind of card: no order to choose
  REQUIRE(s.step() == Step::kPlay);
}

TEST_CASE("Sabotage on a complete rocket in the Construction Zone: it stays there, incomplete, and waits") {
  State s = position(2, R"({"hands": [{"sabotage": 1}, {"metal": 6}], "zones": [{},
      {"experts": {"construction": "engineer"}, "rockets": [{"slot": 0, "kind": "observer"}]}]})");
  s.apply(act::sabotage(1, 0, kMetal));
  REQUIRE(rocket_at(s, 1, 0).zone == kConstructionZone);
  REQUIRE_FALSE(s.rocket_complete(rocket_at(s, 1, 0)));
  REQUIRE(s.discard_top() == kSabotage);  // nothing else discarded
  REQUIRE(s.step() == Step::kPlay);
  // The owner's next turn: not complete at its start, so it cannot advance.
  s.apply(act::kStopPlaying);
  s.apply(act::kDiscard + kMetal);
  s.apply(act::kEndTurn);
  REQUIRE(s.turn_player() == 1);
  REQUIRE(s.step() != Step::kAdvance);
}

TEST_CASE("Sabotage and Vacuum: Maximum Security protects; Security System only against opponents") {
  const char* board = R"({"hands": [{"sabotage": 1, "vacuum": 1}], "zones": [
      {"specialties": ["security_system"], "rockets": [{"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["oxygen"]}]},
      {"rockets": [{"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["oxygen", "maximum_security"]},
                   {"slot": 1, "kind": "observer", "zone": "launch", "bonuses": ["oxygen"]}]}]})";
  State s = position(2, board);
  REQUIRE_FALSE(s.is_legal(act::sabotage(1, 0, kMetal)));
  REQUIRE_FALSE(s.is_legal(act::vacuum(1, 0)));
  REQUIRE(s.is_legal(act::sabotage(1, 1, kMetal)));
  REQUIRE(s.is_legal(act::vacuum(1, 1)));
  REQUIRE(s.is_legal(act::sabotage(0, 0, kMetal)));  // own rocket despite own Security System
  REQUIRE(s.is_legal(act::vacuum(0, 0)));
  State t = position(2, R"({"hands": [{}, {"sabotage": 1, "vacuum": 1}], "turn": 1, "zones": [
      {"specialties": ["security_system"], "rockets": [{"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["oxygen"]}]}]})");
  REQUIRE_FALSE(t.is_legal(act::sabotage(1, 0, kMetal)));
  REQUIRE_FALSE(t.is_legal(act::vacuum(1, 0)));
}

TEST_CASE(
    "Salvage (ruling 16): any card type from the discard pile into the hand, then the Salvage is discarded") {
  State s = position(2, R"({"hands": [{"salvage": 1}], "discard_pile": ["engineer", "metal", "oxygen"]})");
  REQUIRE_FALSE(s.is_legal(act::salvage(kFuel)));
  REQUIRE_FALSE(s.is_legal(act::salvage(kSalvage)));  // not itself
  s.apply(act::salvage(kMetal));
  REQUIRE(hand(s, 0, kMetal) == 1);
  REQUIRE(s.discard_pile_size() == 3);
  REQUIRE(s.discard_pile_card(0) == kEngineer);
  REQUIRE(s.discard_pile_card(1) == kOxygen);
  REQUIRE(s.discard_top() == kSalvage);
  State empty = position(2, R"({"hands": [{"salvage": 1}]})");
  for (int t = 0; t < kNumCardTypes; ++t) REQUIRE_FALSE(empty.is_legal(act::salvage(t)));
}

TEST_CASE("Salvage (ruling 16): another Salvage in the discard pile may be retrieved") {
  State s = position(2, R"({"hands": [{"salvage": 1}], "discard_pile": ["salvage", "metal"]})");
  REQUIRE(s.is_legal(act::salvage(kSalvage)));
  s.apply(act::salvage(kSalvage));
  REQUIRE(hand(s, 0, kSalvage) == 1);
  REQUIRE(s.discard_pile_size() == 2);
  REQUIRE(s.discard_top() == kSalvage);  // the one just played
}

TEST_CASE("Surplus (ruling 15): every player with cards discards one, clockwise from its player") {
  State s = position(
      4, R"({"turn": 1, "hands": [{"metal": 1}, {"surplus": 1, "fuel": 2}, {}, {"oxygen": 1, "thief": 1}]})");
  s.apply(act::kSurplus);
  REQUIRE(s.step() == Step::kSurplus);
  REQUIRE(s.current_player() == 1);
  REQUIRE_FALSE(s.is_legal(act::surplus_discard(kMetal)));
  s.apply(act::surplus_discard(kFuel));
  REQUIRE(s.current_player() == 3);  // seat 2 has no card
  s.apply(act::surplus_discard(kThief));
  REQUIRE(s.current_player() == 0);
  s.apply(act::surplus_discard(kMetal));
  REQUIRE(s.step() == Step::kChooseTop);  // three kinds of cards: the Surplus player orders them
  REQUIRE(s.current_player() == 1);
  s.apply(act::put_on_top(kMetal));
  REQUIRE(s.step() == Step::kChooseTop);  // Fuel and Thief left: which goes right below the Metal
  REQUIRE(s.current_player() == 1);
  s.apply(act::put_on_top(kThief));
  REQUIRE(s.step() == Step::kPlay);
  REQUIRE(s.current_player() == 1);
  REQUIRE(s.area(3).hand_size == 1);
  REQUIRE(s.discard_pile_size() == 4);
  // The Action card first, its discards on top in the chosen order.
  REQUIRE(s.discard_pile_card(0) == kSurplus);
  REQUIRE(s.discard_pile_card(1) == kFuel);
  REQUIRE(s.discard_pile_card(2) == kThief);
  REQUIRE(s.discard_top() == kMetal);
}

TEST_CASE(
    "Surplus (issue 14): its player orders the discards; the top one is what the next player may take") {
  // "If an Action card results in the discarding of one or more players' cards, the player who
  // played the Action card may choose the order in which the cards are placed on the discard pile."
  for (const int top : {kMetal, kOxygen}) {
    State s = position(2, R"({"hands": [{"surplus": 1, "metal": 2}, {"oxygen": 1, "fuel": 4}]})");
    s.apply(act::kSurplus);
    s.apply(act::surplus_discard(kMetal));   // player 0
    s.apply(act::surplus_discard(kOxygen));  // player 1
    REQUIRE(s.step() == Step::kChooseTop);
    REQUIRE(s.current_player() == 0);  // the Surplus player, not the last to discard
    REQUIRE(s.staged_count(kMetal) == 1);
    REQUIRE(s.staged_count(kOxygen) == 1);
    REQUIRE(s.is_legal(act::put_on_top(kMetal)));
    REQUIRE(s.is_legal(act::put_on_top(kOxygen)));
    REQUIRE_FALSE(s.is_legal(act::put_on_top(kFuel)));
    s.apply(act::put_on_top(top));
    REQUIRE(s.discard_top() == top);
    REQUIRE(s.discard_pile_size() == 3);
    REQUIRE(s.discard_pile_card(0) == kSurplus);
    // Player 1 draws in step 3 and may take that card.
    s.apply(act::kStopPlaying);
    s.apply(act::kEndTurn);
    REQUIRE(s.turn_player() == 1);
    REQUIRE(s.step() == Step::kDrawChoice);
    const int before = hand(s, 1, top);
    s.apply(act::kTakeDiscardTop);
    REQUIRE(hand(s, 1, top) == before + 1);
  }
}

TEST_CASE("Surplus: one kind of card discarded needs no order; the Surplus player's turn goes on") {
  State s = position(3, R"({"hands": [{"surplus": 1, "metal": 1}, {"metal": 2}, {}]})");
  s.apply(act::kSurplus);
  s.apply(act::surplus_discard(kMetal));
  s.apply(act::surplus_discard(kMetal));  // player 2 has no card: skipped
  REQUIRE(s.step() == Step::kPlay);
  REQUIRE(s.discard_top() == kMetal);
  REQUIRE(s.discard_pile_size() == 3);
  // Player 0's hand is empty now: step 5 draws back to the limit.
  REQUIRE(s.redraw_used());
  REQUIRE(s.area(0).hand_size == 6);
}

TEST_CASE("Surplus cannot be played when nobody would have a card to discard") {
  State s = position(2, R"({"hands": [{"surplus": 1}, {}]})");
  REQUIRE_FALSE(s.is_legal(act::kSurplus));
  State t = position(2, R"({"hands": [{"surplus": 1}, {"metal": 1}]})");
  REQUIRE(t.is_legal(act::kSurplus));
}

TEST_CASE("Thief (ruling 14): two random cards from one opponent, or one from each of two") {
  State s = position(3, R"({"hands": [{"thief": 1}, {"metal": 1}, {"fuel": 2}]})");
  REQUIRE_FALSE(s.is_legal(act::thief_one(1)));  // needs two cards
  REQUIRE(s.is_legal(act::thief_one(2)));
  REQUIRE(s.is_legal(act::thief_two(0)));        // +1 and +2
  REQUIRE_FALSE(s.is_legal(act::thief_two(1)));  // no seat +3 at a table of three
  State one = s;
  one.apply(act::thief_one(2));
  REQUIRE(hand(one, 0, kFuel) == 2);
  REQUIRE(one.area(2).hand_size == 0);
  s.apply(act::thief_two(0));
  REQUIRE(hand(s, 0, kMetal) == 1);
  REQUIRE(hand(s, 0, kFuel) == 1);
  State two = position(2, R"({"hands": [{"thief": 1}, {"metal": 5}]})");
  for (int k = 0; k < 3; ++k) REQUIRE_FALSE(two.is_legal(act::thief_two(k)));
}

TEST_CASE("Thief takes cards at random (a chance outcome from the state's generator)") {
  int metal_first = 0;
  for (int seed = 0; seed < 200; ++seed) {
    Json doc = complete_document(standard(), 2,
                                 R"({"hands": [{"thief": 1}, {"metal": 1, "fuel": 1, "oxygen": 2}]})");
    doc["rng"] = rng_to_json(Rng(static_cast<uint64_t>(seed)));
    State s = State::from_json(doc, standard());
    s.apply(act::thief_one(1));
    REQUIRE(s.area(0).hand_size == 2);
    metal_first += hand(s, 0, kMetal);
  }
  REQUIRE(metal_first > 60);  // each card is taken in about half the games
  REQUIRE(metal_first < 140);
}

TEST_CASE("Vacuum: steal the Oxygen; the Astronaut stays") {
  State s = position(2, R"({"hands": [{"vacuum": 1}], "zones": [{}, {"rockets": [
      {"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["astronaut", "oxygen"]},
      {"slot": 1, "kind": "observer", "zone": "launch", "bonuses": ["astronaut"]}]}]})");
  REQUIRE_FALSE(s.is_legal(act::vacuum(1, 1)));
  s.apply(act::vacuum(1, 0));
  REQUIRE(hand(s, 0, kOxygen) == 1);
  REQUIRE(rocket_at(s, 1, 0).has_bonus(kAstronaut));
  REQUIRE_FALSE(rocket_at(s, 1, 0).has_bonus(kOxygen));
  // An Astronaut without Oxygen loses four points (and no Mission Controller: -10).
  REQUIRE(s.score(1) == -10 + (6 - 4) + (6 - 4));
}

TEST_CASE("Employee Contract protects every expert from Recruitment") {
  State s =
      position(2, R"({"hands": [{"recruitment": 1}], "zones": [{}, {"specialties": ["employee_contract"],
      "experts": {"construction": "engineer", "quality_control": "inspector", "launch": "mission_controller"}}]})");
  for (int z = 0; z < kNumZones; ++z) REQUIRE_FALSE(s.is_legal(act::recruitment(1, z)));
}

TEST_CASE("stolen and retrieved cards go to the hand and follow the turn (ruling 10)") {
  State s = position(
      2, R"({"hands": [{"sabotage": 1}], "zones": [{"rockets": [{"slot": 0, "kind": "observer", "metal": 0}]},
      {"rockets": [{"slot": 0, "kind": "observer", "zone": "quality_control"}]}]})");
  s.apply(act::sabotage(1, 0, kMetal));
  REQUIRE(s.is_legal(act::play_metal(0)));
  s.apply(act::play_metal(0));
  REQUIRE(s.rocket_complete(rocket_at(s, 0, 0)));
}

TEST_CASE("an action card that cannot be carried out cannot be played") {
  State s = position(
      2, R"({"hands": [{"abort_mission": 1, "quality_check": 1, "sabotage": 1, "vacuum": 1, "budget_cuts": 1,
      "recruitment": 1, "fast_track": 1, "big_red_button": 1, "salvage": 1, "recycle_bin": 1}, {}]})");
  std::vector<uint8_t> mask(act::kNumActions);
  s.legal_actions_mask(mask.data());
  for (int a = act::kAbortMission; a < act::kOfferCard; ++a) {
    INFO(s.action_to_string(a));
    if (a == act::kPartsSupplier) continue;
    REQUIRE(mask[static_cast<std::size_t>(a)] == 0);
  }
}

TEST_CASE("rocket slots are stable (ruling 3): other rockets keep their slot, a new rocket fills the gap") {
  State s = position(2, R"({"hands": [{"abort_mission": 1, "observer": 1}], "zones": [{"rockets": [
      {"slot": 0, "kind": "observer", "metal": 0, "fuel": 0}, {"slot": 1, "kind": "galactic"}]}]})");
  s.apply(act::abort_mission(0, 0));
  REQUIRE(s.step() == Step::kPlay);  // a lone rocket card: nothing to order
  REQUIRE(s.discard_top() == kObserver);
  REQUIRE_FALSE(rocket_at(s, 0, 0).exists());
  REQUIRE(rocket_at(s, 0, 1).kind == kGalactic);
  s.apply(act::play_rocket(kObserver));
  REQUIRE(rocket_at(s, 0, 0).kind == kObserver);
}
