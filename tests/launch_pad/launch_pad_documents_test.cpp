// Launch Pad state documents (issue 16): from_json refuses, naming the field,
// every document that is not a position of the game, and every document it
// accepts plays to the end.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "envs/launch_pad/launch_pad_bot.h"
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

// Step 2 of player 0's turn: slots 0 and 1 (Construction, Quality Control) may advance.
Json advance_step_document() {
  const State s = start_turn(2, 0, R"({"hands": [{"metal": 6}],
      "zones": [{"experts": {"construction": "engineer", "quality_control": "inspector"},
                 "rockets": [{"slot": 0, "kind": "observer"}, {"slot": 1, "kind": "explorer", "zone": "quality_control"},
                             {"slot": 2, "kind": "intrepid", "metal": 1}, {"slot": 3, "kind": "observer", "zone": "launch"}]}]})");
  REQUIRE(s.step() == Step::kAdvance);
  return s.to_json();
}

// A document from `base` with `edit` applied, loaded.
State load_edited(const Json& base, const std::function<void(Json&)>& edit,
                  const Config& config = standard()) {
  Json doc = base;
  edit(doc);
  return State::from_json(doc, config);
}

Json play_document(int players, const std::string& patch, const Config& config = standard()) {
  return complete_document(config, players, patch);
}

}  // namespace

TEST_CASE("state documents (issue 16): advance_eligible lists each slot once") {
  const Json doc = advance_step_document();
  REQUIRE(doc["advance_eligible"] == Json{0, 1});
  REQUIRE_NOTHROW(State::from_json(doc, standard()));
  REQUIRE_THROWS_WITH(load_edited(doc,
                                  [](Json& d) {
                                    d["advance_eligible"] = {0, 1, 0};
                                  }),
                      Catch::Contains("'advance_eligible[2]'") && Catch::Contains("listed twice"));
  REQUIRE_THROWS_WITH(load_edited(doc,
                                  [](Json& d) {
                                    d["advance_eligible"] = {0, 24};
                                  }),
                      Catch::Contains("'advance_eligible[1]'") && Catch::Contains("out of range"));
  REQUIRE_THROWS_WITH(load_edited(doc,
                                  [](Json& d) {
                                    d["advance_eligible"] = {0, "one"};
                                  }),
                      Catch::Contains("'advance_eligible[1]'") && Catch::Contains("integer"));
}

TEST_CASE("state documents: advance_eligible names only rockets that could advance at the start of step 2") {
  const Json doc = advance_step_document();
  auto eligible = [&](std::initializer_list<int> slots) {
    return load_edited(doc, [&](Json& d) { d["advance_eligible"] = Json(slots); });
  };
  REQUIRE_THROWS_WITH(eligible({0, 2}),
                      Catch::Contains("'advance_eligible'") && Catch::Contains("slot 2"));  // incomplete
  REQUIRE_THROWS_WITH(eligible({0, 3}), Catch::Contains("slot 3"));  // already in the Launch Zone
  REQUIRE_THROWS_WITH(eligible({0, 9}), Catch::Contains("slot 9"));  // no rocket
  REQUIRE_THROWS_WITH(load_edited(doc, [](Json& d) { d["zones"][0]["experts"].erase("quality_control"); }),
                      Catch::Contains("slot 1"));  // no Inspector: the rocket could not advance
  REQUIRE_THROWS_WITH(load_edited(doc, [](Json& d) { d["advance_eligible"] = Json::array(); }),
                      Catch::Contains("'advance_eligible'") && Catch::Contains("can still advance"));
  REQUIRE_THROWS_WITH(load_edited(doc,
                                  [](Json& d) {
                                    d["advanced_from"] = {1, 1};
                                  }),
                      Catch::Contains("'advance_eligible'"));  // both zones used up: step 2 is over
  REQUIRE_THROWS_WITH(load_edited(doc,
                                  [](Json& d) {
                                    d["advanced_from"] = {2, 0};
                                  }),
                      Catch::Contains("'advanced_from[0]'"));  // two without Overtime
  REQUIRE_THROWS_WITH(load_edited(doc, [](Json& d) { d["step"] = "play"; }),
                      Catch::Contains("'advance_eligible'") && Catch::Contains("only during step 2"));
}

TEST_CASE("state documents: every number in range, named") {
  const Json doc = play_document(
      3,
      R"({"hands": [{"metal": 2}], "zones": [{"rockets": [{"slot": 0, "kind": "observer", "metal": 0}]}]})");
  REQUIRE_NOTHROW(State::from_json(doc, standard()));
  const std::pair<std::function<void(Json&)>, const char*> cases[] = {
      {[](Json& d) { d["players"] = 5; }, "'players'"},
      {[](Json& d) { d["turn"] = 3; }, "'turn'"},
      {[](Json& d) { d["turn"] = 4294967298ULL; }, "'turn'"},  // 2^32 + 2 does not wrap to 2
      {[](Json& d) { d["turn"] = 1.5; }, "'turn'"},
      {[](Json& d) { d["turn"] = true; }, "'turn'"},
      {[](Json& d) { d["hands"][1]["fuel"] = 161; }, "'hands[1].fuel'"},
      {[](Json& d) { d["hands"][1]["fuel"] = -1; }, "'hands[1].fuel'"},
      {[](Json& d) {
         d["zones"][0]["launch_pads"] = {5, 0, 0};
       },
       "'zones[0].launch_pads[0]'"},
      {[](Json& d) { d["zones"][0]["rockets"][0]["slot"] = 24; }, "'zones[0].rockets[0].slot'"},
      {[](Json& d) { d["zones"][0]["rockets"][0]["metal"] = 2; }, "'zones[0].rockets[0].metal'"},
      {[](Json& d) { d["launch_pad_area"] = 5; }, "'launch_pad_area'"},
      {[](Json& d) { d["launch_pads_aside"] = 4; }, "'launch_pads_aside'"},  // not a long game
      {[](Json& d) { d["launch_pad_region"] = 1000; }, "'launch_pad_region'"},
      {[](Json& d) { d["final_turns_left"] = 4; }, "'final_turns_left'"},
      {[](Json& d) { d["surplus_offset"] = 3; }, "'surplus_offset'"},
      {[](Json& d) {
         d["advanced_from"] = {0, 3};
       },
       "'advanced_from[1]'"},
      {[](Json& d) { d["decisions"] = kMaxDecisions + 1; }, "'decisions'"},
      {[](Json& d) { d["redraw_used"] = 1; }, "'redraw_used'"},
      {[](Json& d) {
         d["rng"] = {0, 0, 0, 0};
       },
       "'rng'"},
  };
  for (const auto& [edit, field] : cases) {
    INFO(field);
    REQUIRE_THROWS_WITH(load_edited(doc, edit), Catch::Contains(field));
  }
}

TEST_CASE("state documents: no card twice where one is allowed, every card where it may be") {
  const Json doc = play_document(2, R"({"hands": [{"metal": 1}], "zones": [{"specialties": ["overtime"],
      "experts": {"launch": "mission_controller"},
      "rockets": [{"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["oxygen"]}]}]})");
  REQUIRE_NOTHROW(State::from_json(doc, standard()));
  const std::pair<std::function<void(Json&)>, const char*> cases[] = {
      {[](Json& d) { d["zones"][0]["rockets"].push_back(d["zones"][0]["rockets"][0]); },
       "'zones[0].rockets[1].slot'"},
      {[](Json& d) { d["zones"][0]["rockets"][0]["bonuses"].push_back("oxygen"); },
       "'zones[0].rockets[0].bonuses[1]'"},
      {[](Json& d) { d["zones"][0]["specialties"].push_back("warehouse"); }, "'zones[0].specialties'"},
      {[](Json& d) { d["zones"][0]["specialties"] = {"metal"}; }, "'zones[0].specialties[0]'"},
      {[](Json& d) { d["zones"][0]["experts"]["launch"] = "engineer"; }, "'zones[0].experts.launch'"},
      {[](Json& d) { d["zones"][0]["experts"]["moon"] = "engineer"; }, "'zones[0].experts.moon'"},
      {[](Json& d) { d["zones"][0]["rockets"][0]["zone"] = "quality_control"; },
       "'zones[0].rockets[0].bonuses[0]'"},  // Oxygen only in the Launch Zone
      {[](Json& d) { d["zones"][0]["rockets"][0]["metal"] = 0; },
       "'zones[0].rockets[0]'"},  // an incomplete rocket never leaves the Construction Zone
      {[](Json& d) { d["zones"][0]["rockets"][0]["kind"] = "metal"; }, "'zones[0].rockets[0].kind'"},
      {[](Json& d) { d["hands"][0]["launch_pad"] = 1; }, "'hands[0]'"},
      {[](Json& d) { d["discard_pile"].push_back("launch_pad"); }, "'discard_pile[0]'"},
      {[](Json& d) { d["draw_pile"].push_back("unicorn"); }, "unicorn"},
      {[](Json& d) {
         d["staged"] = {{"launch_pad", 1}};
       },
       "'staged'"},
  };
  for (const auto& [edit, field] : cases) {
    INFO(field);
    REQUIRE_THROWS_WITH(load_edited(doc, edit), Catch::Contains(field));
  }
}

TEST_CASE("state documents: a pile holds at most kMaxCards cards") {
  const Json doc = play_document(2, R"({"hands": [{"metal": 1}]})");
  for (const char* pile : {"draw_pile", "discard_pile"}) {
    INFO(pile);
    REQUIRE_THROWS_WITH(load_edited(doc,
                                    [&](Json& d) {
                                      d[pile] = Json::array();
                                      for (int i = 0; i <= kMaxCards; ++i) d[pile].push_back("metal");
                                    }),
                        Catch::Contains(std::string("'") + pile + "'") &&
                            Catch::Contains("holds 161 cards, more than the 160 a pile may hold"));
  }
}

TEST_CASE("state documents: card conservation across hands, zones, piles and the table") {
  const Json doc = play_document(2, R"({"hands": [{"metal": 1}], "discard_pile": ["fuel"]})");
  REQUIRE_THROWS_WITH(load_edited(doc, [](Json& d) { d["hands"][1]["metal"] = 1; }),
                      Catch::Contains("card count of Metal is 29, the deck has 28"));
  REQUIRE_THROWS_WITH(load_edited(doc, [](Json& d) { d["discard_pile"] = Json::array(); }),
                      Catch::Contains("card count of Fuel is 29"));
  REQUIRE_THROWS_WITH(load_edited(doc, [](Json& d) { d["launch_pad_area"] = 1; }),
                      Catch::Contains("card count of Launch Pad is 5"));
  REQUIRE_THROWS_WITH(load_edited(doc,
                                  [](Json& d) {
                                    d["staged"] = {{"fuel", 1}};
                                  }),
                      Catch::Contains("'staged'"));  // and outside its step too
}

TEST_CASE("state documents: the step and its pending decision agree") {
  const Config negotiations = load("variants: {negotiations: true}\n");
  const Json play = play_document(
      3, R"({"hands": [{"metal": 2}, {"fuel": 2}, {"engineer": 5, "inspector": 1}]})", negotiations);
  auto refused = [&](const std::function<void(Json&)>& edit, const char* field, const char* reason = "") {
    INFO(field);
    REQUIRE_THROWS_WITH(load_edited(play, edit, negotiations),
                        Catch::Contains(field) && Catch::Contains(reason));
  };
  REQUIRE_NOTHROW(State::from_json(play, negotiations));
  // An offer waits exactly during step "offer", to another player who may accept it.
  const Json offer = {{"to", 1}, {"card", "metal"}};
  auto with_offer = [&](Json& d) {
    d["offer"] = offer;
    d["hands"][0]["metal"] = 1;
  };
  REQUIRE_NOTHROW(load_edited(
      play, [&](Json& d) { with_offer(d), d["step"] = "offer"; }, negotiations));
  refused(with_offer, "'offer'", "exactly during step");
  refused([](Json& d) { d["step"] = "offer"; }, "'offer'", "exactly during step");
  refused([&](Json& d) { with_offer(d), d["step"] = "offer", d["offer"]["to"] = 0; }, "'offer.to'",
          "themself");
  refused([&](Json& d) { with_offer(d), d["step"] = "offer", d["offer"]["to"] = 2; }, "'offer.to'", "accept");
  refused([&](Json& d) { with_offer(d), d["step"] = "offer", d["offer"]["card"] = "launch_pad"; },
          "'offer.card'");
  REQUIRE_THROWS_WITH(load_edited(play, [&](Json& d) { with_offer(d), d["step"] = "offer"; }),
                      Catch::Contains("'offer'") && Catch::Contains("negotiations"));  // variant off
  // Surplus asks a player with cards; its offset is 0 outside step "surplus".
  refused([](Json& d) { d["surplus_offset"] = 1; }, "'surplus_offset'", "outside");
  refused(
      [](Json& d) {
        d["step"] = "surplus", d["surplus_offset"] = 1, d["hands"][1] = Json::object(),
        d["hands"][0]["fuel"] = 2;
      },
      "'surplus_offset'", "empty hand");
  // Discards wait for their order only in steps choose_top (two kinds or more) and surplus.
  refused(
      [](Json& d) {
        d["staged"] = {{"metal", 1}, {"fuel", 1}}, d["hands"][0] = Json::object(),
        d["hands"][1] = Json::object();
      },
      "'staged'");
  REQUIRE_THROWS_WITH(load_edited(
                          play, [](Json& d) { d["step"] = "choose_top"; }, negotiations),
                      Catch::Contains("'staged'") && Catch::Contains("two kinds"));
  // Step 3's question is asked only with room in the hand and a discard pile.
  refused([](Json& d) { d["step"] = "draw_choice"; }, "'step'", "discard pile is empty");
  refused(
      [](Json& d) { d["step"] = "draw_choice", d["hands"][0]["metal"] = 6, d["discard_pile"] = {"metal"}; },
      "'step'", "already full");
  refused([](Json& d) { d["step"] = "draw_choice", d["redraw_used"] = true, d["discard_pile"] = {"oxygen"}; },
          "'redraw_used'");
  // The game ends after the Countdown's last turn, or truncated at the decision limit.
  refused([](Json& d) { d["step"] = "game_over"; }, "'step'", "Countdown");
  refused([](Json& d) { d["truncated"] = true; }, "'truncated'");
  refused([](Json& d) { d["step"] = "game_over", d["truncated"] = true; }, "'decisions'");
  refused([](Json& d) { d["decisions"] = kMaxDecisions; }, "'decisions'", "fewer than");
  refused([](Json& d) { d["countdown"] = true; }, "'countdown'");
  refused([](Json& d) { d["final_turns_left"] = 2; }, "'final_turns_left'");
  REQUIRE_NOTHROW(load_edited(
      play, [](Json& d) { d["step"] = "game_over", d["truncated"] = true, d["decisions"] = kMaxDecisions; },
      negotiations));
}

TEST_CASE("state documents: nobody holds more cards than a hand limit allows outside their own turn") {
  const Json doc = play_document(2, R"({"hands": [{"metal": 9}, {"fuel": 8}]})");
  REQUIRE_NOTHROW(State::from_json(doc, standard()));  // the turn player may hold more during its turn
  REQUIRE_THROWS_WITH(load_edited(doc, [](Json& d) { d["hands"][1]["fuel"] = 9; }),
                      Catch::Contains("'hands[1]'") && Catch::Contains("9 cards"));
  REQUIRE_THROWS_WITH(
      load_edited(doc, [](Json& d) { d["step"] = "advance", d["advance_eligible"] = Json::array(); }),
      Catch::Contains("'hands[0]'"));  // before drawing, the turn player too
}

TEST_CASE("state documents: long game: the Launch Pad cards are aside all together or not at all") {
  const Config long_game = load("variants: {long_game: true}\n");
  const State fresh(long_game, 2, 1);
  const Json doc = fresh.to_json();
  REQUIRE(doc["launch_pads_aside"] == 4);
  REQUIRE_THROWS_WITH(
      load_edited(
          doc, [](Json& d) { d["launch_pads_aside"] = 3, d["launch_pad_area"] = 1; }, long_game),
      Catch::Contains("'launch_pads_aside'"));
}

// The fuzzing habit in small: mutate documents of real positions the way a
// hostile user would, and require that each one either is refused with a
// SerializationError or loads and plays to the end with every invariant held.
namespace {

Json random_card(Rng& rng) { return card_key(static_cast<int>(rng.below(kNumCardTypes))); }

void mutate(Json& j, Rng& rng) {
  switch (j.type()) {
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: {
      const int64_t v =
          j.is_number_unsigned() ? static_cast<int64_t>(j.get<uint64_t>() >> 33) : j.get<int64_t>();
      const int64_t choices[] = {v + 1, v - 1, 0, static_cast<int64_t>(rng.below(30)),
                                 v + (int64_t{1} << 32)};
      j = choices[rng.below(5)];
      return;
    }
    case Json::value_t::boolean:
      j = !j.get<bool>();
      return;
    case Json::value_t::string:
      j = rng.below(4) == 0 ? Json(zone_key(static_cast<int>(rng.below(kNumZones)))) : random_card(rng);
      return;
    case Json::value_t::array:
      if (!j.empty() && rng.below(3) == 0) {
        j.push_back(j[rng.below(static_cast<uint32_t>(j.size()))]);  // a duplicate entry
      } else if (!j.empty() && rng.below(2) == 0) {
        j.erase(rng.below(static_cast<uint32_t>(j.size())));
      } else {
        j.push_back(rng.below(2) ? random_card(rng) : Json(rng.below(25)));
      }
      return;
    case Json::value_t::object:
      if (!j.empty() && rng.below(2) == 0) {
        auto it = j.begin();
        std::advance(it, rng.below(static_cast<uint32_t>(j.size())));
        j.erase(it);
      } else {
        j[card_key(static_cast<int>(rng.below(kNumCardTypes)))] = 1;
      }
      return;
    default:
      j = Json(0);
      return;
  }
}

// A random value somewhere in the document: descend into containers at random.
Json& random_node(Json& doc, Rng& rng) {
  Json* j = &doc;
  while ((j->is_array() || j->is_object()) && !j->empty() && rng.below(3) != 0) {
    auto it = j->begin();
    std::advance(it, rng.below(static_cast<uint32_t>(j->size())));
    j = &*it;
  }
  return *j;
}

}  // namespace

TEST_CASE("state documents: every mutated document either is refused or plays to the end") {
  const Config configs[] = {standard(), load("variants: {negotiations: true}\n"),
                            load("variants: {super_powers: true}\n"), load("variants: {long_game: true}\n")};
  Rng rng(20261122);
  int loaded = 0, refused = 0;
  const int total = std::getenv("ROCKETGYM_LAUNCH_PAD_FUZZ_DOCS")
                        ? std::atoi(std::getenv("ROCKETGYM_LAUNCH_PAD_FUZZ_DOCS"))
                        : 1500;
  for (int k = 0; k < total; ++k) {
    const Config& config = configs[k % 4];
    // A real position: a game played some way by the heuristic bot and by chance.
    State s(config, 2 + k % 3, derive_seed(51, static_cast<uint64_t>(k)));
    const int moves = static_cast<int>(rng.below(400));
    for (int m = 0; m < moves && !s.is_terminal(); ++m) s.apply(heuristic_action(s, rng));
    Json doc = s.to_json();
    for (int edits = 1 + static_cast<int>(rng.below(2)); edits > 0; --edits)
      mutate(random_node(doc, rng), rng);
    State t = s;
    try {
      t = State::from_json(doc, config);
    } catch (const SerializationError&) {
      ++refused;
      continue;
    }
    ++loaded;
    INFO(doc.dump());
    REQUIRE(State::from_json(t.to_json(), config).to_json() == t.to_json());
    std::vector<uint8_t> mask(act::kNumActions);
    while (!t.is_terminal()) {
      t.legal_actions_mask(mask.data());
      std::vector<int> legal;
      for (int a = 0; a < act::kNumActions; ++a)
        if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
      REQUIRE_FALSE(legal.empty());
      const int a =
          rng.below(2) ? heuristic_action(t, rng) : legal[rng.below(static_cast<uint32_t>(legal.size()))];
      t.apply(a);
      t.check_invariants();
    }
  }
  std::printf("mutated documents: %d loaded, %d refused\n", loaded, refused);
  REQUIRE(loaded > 100);
  REQUIRE(refused > 100);
}
