// Launch Pad: the order of the cards an Action card discards (issue 29).
// Rulebook, Action Cards: "If an Action card results in the discarding of one
// or more players' cards, the player who played the Action card may choose the
// order in which the cards are placed on the discard pile." The player places
// every card, from the top down, while two kinds or more are left (cards of
// one type are interchangeable, ruling 1); the order below the top decides
// which cards Recycle Bin's top ten take back.
#include <catch2/catch.hpp>
#include <functional>
#include <vector>

#include "encoders/launch_pad/launch_pad_encoder.h"
#include "envs/launch_pad/launch_pad_bot.h"
#include "tests/launch_pad/launch_pad_position.h"

using namespace launch_pad_test;

namespace {

// Player 0 aborts player 1's Explorer (1 Metal, 2 Fuel) with an Astronaut,
// Oxygen and Quality Certificate: seven cards of six kinds wait for their order.
State abort_explorer() {
  State s = position(2, R"({"hands": [{"abort_mission": 1, "engineer": 1}], "zones": [{}, {"rockets": [
      {"slot": 2, "kind": "explorer", "zone": "launch",
       "bonuses": ["astronaut", "oxygen", "quality_certificate"]}]}]})");
  s.apply(act::abort_mission(1, 2));
  return s;
}

std::vector<int> discard_pile(const State& s) {
  std::vector<int> out;
  for (int i = 0; i < s.discard_pile_size(); ++i) out.push_back(s.discard_pile_card(i));
  return out;
}

int staged_total(const State& s) {
  int n = 0;
  for (int t = 0; t < kNumCardTypes; ++t) n += s.staged_count(t);
  return n;
}

}  // namespace

TEST_CASE("discard order (issue 29): the player places every card, from the top down") {
  State s = abort_explorer();
  const std::vector<int> order = {kOxygen, kFuel, kExplorer, kQualityCertificate, kMetal, kAstronaut};
  for (std::size_t i = 0; i < order.size(); ++i) {
    INFO("choice " << i);
    REQUIRE(s.step() == Step::kChooseTop);
    REQUIRE(s.current_player() == 0);
    REQUIRE(s.ordered_size() == static_cast<int>(i));
    REQUIRE(staged_total(s) == 7 - static_cast<int>(i));
    REQUIRE(discard_pile(s) == std::vector<int>{kAbortMission});  // nothing placed before the order is whole
    for (int t = 0; t < kNumCardTypes; ++t)
      REQUIRE(s.is_legal(act::put_on_top(t)) == (s.staged_count(t) > 0));
    s.apply(act::put_on_top(order[i]));
    if (s.step() == Step::kChooseTop) REQUIRE(s.ordered_card(static_cast<int>(i)) == order[i]);
  }
  // Only the second Fuel was left: it went below without a question.
  REQUIRE(s.step() == Step::kPlay);
  REQUIRE(s.ordered_size() == 0);
  REQUIRE(staged_total(s) == 0);
  REQUIRE(discard_pile(s) == std::vector<int>{kAbortMission, kFuel, kAstronaut, kMetal, kQualityCertificate,
                                              kExplorer, kFuel, kOxygen});
  s.check_invariants();
}

TEST_CASE("discard order: the question names the place; the views show the order chosen so far") {
  State s = abort_explorer();
  REQUIRE(s.action_to_string(act::put_on_top(kOxygen)) == "put Oxygen on top of the discard pile");
  s.apply(act::put_on_top(kOxygen));
  REQUIRE(s.action_to_string(act::put_on_top(kFuel)) ==
          "put Fuel next in the discard order, below the Oxygen");
  s.apply(act::put_on_top(kFuel));
  for (const std::string& view : {s.to_string(), s.observation_string(0), s.observation_string(1)}) {
    REQUIRE_THAT(view, Catch::Contains("Discard order chosen so far, top first: Oxygen, Fuel"));
    REQUIRE_THAT(view, Catch::Contains("To discard: Explorer, Metal, Fuel, Astronaut, Quality Certificate"));
  }
}

TEST_CASE("discard order: asked only while two kinds of cards or more are left") {
  // Two Metal and two Fuel: after one Metal, Metal and Fuel are left (asked again);
  // after the second Metal only Fuel is left (both copies go below).
  State s = position(2, R"({"hands": [{"abort_mission": 1, "engineer": 1}], "zones": [{}, {"rockets": [
      {"slot": 0, "kind": "intrepid", "zone": "quality_control"}]}]})");
  s.apply(act::abort_mission(1, 0));
  s.apply(act::put_on_top(kIntrepid));
  REQUIRE(s.step() == Step::kChooseTop);
  s.apply(act::put_on_top(kMetal));
  REQUIRE(s.step() == Step::kChooseTop);
  s.apply(act::put_on_top(kMetal));
  REQUIRE(s.step() == Step::kPlay);
  REQUIRE(discard_pile(s) == std::vector<int>{kAbortMission, kFuel, kFuel, kMetal, kMetal, kIntrepid});
  // One kind only: no question at all.
  State one = position(2, R"({"hands": [{"quality_check": 1, "engineer": 1}], "zones": [{}, {"rockets": [
      {"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["astronaut"]}]}]})");
  one.apply(act::quality_check(1, 0));
  REQUIRE(one.step() == Step::kPlay);
  REQUIRE(discard_pile(one) == std::vector<int>{kQualityCheck, kAstronaut});
}

TEST_CASE("discard order: below the top it decides which cards Recycle Bin takes back") {
  // Abort Mission discards a Galactic (3 Metal, 2 Fuel, Astronaut, Oxygen, Quality
  // Certificate): nine cards. Quality Check then puts three cards on top, so Recycle
  // Bin's top ten take only seven of the nine: the two placed lowest stay.
  const char* table =
      R"({"hands": [{"abort_mission": 1, "quality_check": 1, "recycle_bin": 1, "engineer": 1}],
      "zones": [{}, {"rockets": [
        {"slot": 0, "kind": "galactic", "zone": "launch", "bonuses": ["astronaut", "oxygen", "quality_certificate"]},
        {"slot": 1, "kind": "observer", "zone": "launch", "bonuses": ["astronaut", "oxygen"]}]}]})";
  struct Case {
    std::vector<int> order;  // top first; the last kind left goes below on its own
    std::vector<int> kept;   // the discard pile after Recycle Bin
  };
  const Case cases[] = {
      {{kMetal, kMetal, kMetal, kFuel, kFuel, kOxygen, kQualityCertificate, kAstronaut},
       {kAbortMission, kGalactic, kAstronaut, kRecycleBin}},
      {{kGalactic, kAstronaut, kOxygen, kQualityCertificate, kMetal, kMetal, kFuel, kFuel},
       {kAbortMission, kMetal, kFuel, kRecycleBin}},
  };
  for (const Case& c : cases) {
    State s = position(2, table);
    s.apply(act::abort_mission(1, 0));
    for (int card : c.order) {
      REQUIRE(s.step() == Step::kChooseTop);
      s.apply(act::put_on_top(card));
    }
    REQUIRE(s.step() == Step::kPlay);
    REQUIRE(s.discard_pile_size() == 10);
    s.apply(act::quality_check(1, 1));
    s.apply(act::put_on_top(kAstronaut));
    REQUIRE(s.discard_pile_size() == 13);
    const int draw_before = s.draw_pile_size();
    s.apply(act::kRecycleBin);
    REQUIRE(discard_pile(s) == c.kept);
    REQUIRE(s.draw_pile_size() == draw_before + 10);
  }
}

TEST_CASE("discard order: Surplus (ruling 15): its player places every discard") {
  State s = position(4, R"({"hands": [{"surplus": 1, "metal": 1, "engineer": 1}, {"oxygen": 1},
      {"thief": 1}, {"fuel": 1}]})");
  s.apply(act::kSurplus);
  s.apply(act::surplus_discard(kMetal));   // player 0
  s.apply(act::surplus_discard(kOxygen));  // player 1
  s.apply(act::surplus_discard(kThief));   // player 2
  s.apply(act::surplus_discard(kFuel));    // player 3
  for (const int card : {kThief, kMetal, kFuel}) {
    REQUIRE(s.step() == Step::kChooseTop);
    REQUIRE(s.current_player() == 0);  // the Surplus player, every time
    s.apply(act::put_on_top(card));
  }
  REQUIRE(s.step() == Step::kPlay);
  REQUIRE(discard_pile(s) == std::vector<int>{kSurplus, kOxygen, kFuel, kMetal, kThief});
  // Everybody discards the same kind: nothing to choose.
  State same = position(3, R"({"hands": [{"surplus": 1, "metal": 1, "engineer": 1}, {"metal": 1},
      {"metal": 2}]})");
  same.apply(act::kSurplus);
  for (int k = 0; k < 3; ++k) same.apply(act::surplus_discard(kMetal));
  REQUIRE(same.step() == Step::kPlay);
  REQUIRE(discard_pile(same) == std::vector<int>{kSurplus, kMetal, kMetal, kMetal});
}

TEST_CASE("discard order: the heuristic bot places every card, highest card type on top") {
  State s = abort_explorer();
  Rng rng(7);
  while (s.step() == Step::kChooseTop) s.apply(heuristic_action(s, rng));
  // Descending card type from the top: the Explorer and the Components lie deepest.
  REQUIRE(discard_pile(s) == std::vector<int>{kAbortMission, kExplorer, kMetal, kFuel, kFuel, kAstronaut,
                                              kOxygen, kQualityCertificate});
}

TEST_CASE("discard order: a copy of the state and its document carry the order chosen so far") {
  State s = abort_explorer();
  s.apply(act::put_on_top(kOxygen));
  s.apply(act::put_on_top(kFuel));
  const Json doc = s.to_json();
  REQUIRE(doc["discard_order"] == Json{"oxygen", "fuel"});
  REQUIRE(doc["staged"] ==
          Json{{"explorer", 1}, {"metal", 1}, {"fuel", 1}, {"astronaut", 1}, {"quality_certificate", 1}});
  State loaded = State::from_json(doc, standard());
  REQUIRE(loaded.to_json() == doc);
  REQUIRE(loaded.ordered_size() == 2);
  State copy = s;
  for (const int card : {kMetal, kExplorer, kFuel, kAstronaut}) {
    s.apply(act::put_on_top(card));
    loaded.apply(act::put_on_top(card));
  }
  REQUIRE(copy.ordered_size() == 2);  // the copy is untouched
  REQUIRE(loaded.to_json() == s.to_json());
  REQUIRE(discard_pile(s) == std::vector<int>{kAbortMission, kQualityCertificate, kAstronaut, kFuel,
                                              kExplorer, kMetal, kFuel, kOxygen});
  // A document without the key (older than it) has no card placed yet.
  Json old = abort_explorer().to_json();
  old.erase("discard_order");
  REQUIRE(State::from_json(old, standard()).to_json() == abort_explorer().to_json());
}

TEST_CASE("discard order: a document with an impossible order is refused, naming the field") {
  State s = abort_explorer();
  s.apply(act::put_on_top(kOxygen));
  const Json doc = s.to_json();
  auto refused = [&](const std::function<void(Json&)>& edit, const char* field, const char* reason) {
    Json d = doc;
    edit(d);
    INFO(d.dump());
    REQUIRE_THROWS_AS(State::from_json(d, standard()), rocketgym::Error);
    REQUIRE_THROWS_WITH(State::from_json(d, standard()), Catch::Contains(field) && Catch::Contains(reason));
  };
  refused([](Json& d) { d["discard_order"] = "oxygen"; }, "'discard_order'", "list");
  refused([](Json& d) { d["discard_order"] = {"oxygen", 3}; }, "'discard_order[1]'", "card name");
  refused([](Json& d) { d["discard_order"].push_back("unicorn"); }, "'discard_order[1]'", "unicorn");
  refused([](Json& d) { d["discard_order"].push_back("launch_pad"); }, "'discard_order[1]'",
          "never discarded");
  // A card both placed and still waiting, or placed twice: the deck does not add up.
  refused([](Json& d) { d["discard_order"].push_back("metal"); }, "card count of Metal", "the deck has 28");
  // The order is chosen only while two kinds or more are left...
  refused(
      [](Json& d) {
        d["staged"] = {{"fuel", 2}};
        d["discard_order"] = {"oxygen", "explorer", "metal", "astronaut", "quality_certificate"};
      },
      "'staged'", "two kinds");
  // ...and only in step choose_top: not while Surplus goes round, nor in step 4.
  refused([](Json& d) { d["step"] = "surplus"; }, "'discard_order'", "choose_top");
  refused(
      [](Json& d) {
        d["step"] = "play";
        d["staged"] = Json::object();
        d["discard_order"] = {"oxygen"};
        d["discard_pile"] = {"abort_mission", "explorer",           "metal", "fuel", "fuel",
                             "astronaut",     "quality_certificate"};
      },
      "'discard_order'", "choose_top");
}

TEST_CASE("discard order: the encoder shows the cards placed on the pile, the first one on top") {
  State s = abort_explorer();
  const int global = kMaxPlayers * Encoder::kSeatFeatures;
  const int counts = global + kNumCardTypes + 1, top = counts + kNumCardTypes, size = top + kNumCardTypes;
  const int waiting = size + 6 + 2 + kNumSteps + 3 + kNumCardTypes;
  std::vector<float> before(Encoder::kSize), after(Encoder::kSize);
  Encoder::encode(s, 1, before.data());
  REQUIRE(before[static_cast<std::size_t>(top + kAbortMission)] == 1.0f);
  REQUIRE(before[static_cast<std::size_t>(waiting + kFuel)] == 2.0f);
  s.apply(act::put_on_top(kFuel));
  Encoder::encode(s, 1, after.data());
  REQUIRE(after[static_cast<std::size_t>(top + kAbortMission)] == 0.0f);
  REQUIRE(after[static_cast<std::size_t>(top + kFuel)] == 1.0f);
  REQUIRE(after[static_cast<std::size_t>(counts + kFuel)] == 1.0f);
  REQUIRE(after[static_cast<std::size_t>(counts + kAbortMission)] == 1.0f);
  REQUIRE(after[static_cast<std::size_t>(size)] == Approx(2.0 / 50.0));
  REQUIRE(after[static_cast<std::size_t>(waiting + kFuel)] == 1.0f);
}

TEST_CASE("discard order: a resample keeps the pile, the cards waiting and the order chosen") {
  State s = abort_explorer();
  s.apply(act::put_on_top(kOxygen));
  s.apply(act::put_on_top(kMetal));
  const Json before = s.to_json();
  for (int viewer = 0; viewer < 2; ++viewer) {
    State world = s;
    Rng rng(11 + static_cast<uint64_t>(viewer));
    world.redeterminize(viewer, rng);
    world.check_invariants();
    const Json after = world.to_json();
    for (const char* key : {"discard_pile", "staged", "discard_order", "zones", "step"})
      REQUIRE(after[key] == before[key]);
    REQUIRE(after["hands"][static_cast<std::size_t>(viewer)] ==
            before["hands"][static_cast<std::size_t>(viewer)]);
  }
}
