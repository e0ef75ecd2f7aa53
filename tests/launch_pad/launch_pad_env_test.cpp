// Launch Pad as an environment: the optional rules, hidden information, the
// encoder, state documents, action names, the heuristic bot and conformance.
#include <catch2/catch.hpp>
#include <cstdio>

#include "encoders/launch_pad/launch_pad_encoder.h"
#include "envs/launch_pad/launch_pad_bot.h"
#include "tests/common/conformance.h"
#include "tests/launch_pad/launch_pad_position.h"

using namespace launch_pad_test;

namespace {

State start_turn(const Config& config, int players, int seat, const std::string& patch) {
  Json p = Json::parse(patch);
  p["turn"] = (seat + players - 1) % players;
  p["step"] = "discard";
  State s = position(config, players, p.dump());
  s.apply(act::kEndTurn);
  return s;
}

std::vector<float> encode(const State& s, int viewer) {
  std::vector<float> out(Encoder::kSize);
  Encoder::encode(s, viewer, out.data());
  return out;
}

}  // namespace

// ---------------------------------------------------------------- variants

TEST_CASE("short game: a drawn Launch Pad card goes straight to the Launch Pad area") {
  const Config config = load("variants: {short_game: true}\n");
  State s = start_turn(
      config, 2, 0, R"({"hands": [{"metal": 5}], "launch_pad_area": 3, "draw_top": ["launch_pad", "fuel"]})");
  REQUIRE(s.launch_pads_in_area() == 4);
  REQUIRE(s.area(0).launch_pads[kConstructionZone] == 0);
  REQUIRE(s.countdown());
  REQUIRE(hand(s, 0, kFuel) == 1);  // and it is replaced
}

TEST_CASE("long game: the Launch Pad cards join the deck only when the draw pile first runs out") {
  const Config config = load("variants: {long_game: true}\n");
  const State fresh(config, 3, 5);
  REQUIRE(fresh.launch_pads_aside() == 4);
  REQUIRE(fresh.launch_pads_in_draw_pile() == 0);
  // Empty draw pile: the discard pile and the four Launch Pad cards make the new one.
  Json doc = complete_document(
      config, 2, R"({"turn": 1, "step": "discard", "launch_pads_aside": 4, "hands": [{"metal": 5}]})");
  Json discard = Json::array();
  for (const auto& c : doc["draw_pile"]) discard.push_back(c);
  doc["draw_pile"] = Json::array();
  doc["discard_pile"] = discard;
  doc["launch_pad_region"] = 0;
  State s = State::from_json(doc, config);
  s.apply(act::kEndTurn);
  s.apply(act::kDrawFromPile);
  REQUIRE(s.launch_pads_aside() == 0);
  REQUIRE(s.launch_pads_in_draw_pile() + s.area(0).launch_pads[kConstructionZone] == 4);
  REQUIRE(s.area(0).hand_size == 6);
}

TEST_CASE("super powers: any number of Specialty cards; Budget Cuts steals all of them") {
  const Config config = load("variants: {super_powers: true}\n");
  State s = position(config, 2, R"({"hands": [{"overtime": 1, "budget_cuts": 1}, {}],
      "zones": [{"specialties": ["warehouse"]}, {"specialties": ["security_system", "employee_contract"]}]})");
  s.apply(act::play_specialty(kOvertime));
  REQUIRE(s.area(0).has_specialty(kWarehouse));
  REQUIRE(s.area(0).has_specialty(kOvertime));
  s.apply(act::budget_cuts(1));
  REQUIRE(s.area(1).num_specialties() == 0);
  REQUIRE(hand(s, 0, kSecuritySystem) == 1);
  REQUIRE(hand(s, 0, kEmployeeContract) == 1);
  // Without super powers two Specialty cards in play is an impossible position.
  REQUIRE_THROWS_AS(position(2, R"({"zones": [{"specialties": ["warehouse", "overtime"]}]})"),
                    SerializationError);
}

TEST_CASE(
    "negotiations: offer a card; the receiver accepts or rejects; never beyond the receiver's hand limit") {
  const Config config = load("variants: {negotiations: true}\n");
  State s = position(
      config, 3, R"({"hands": [{"metal": 1, "fuel": 1}, {"oxygen": 5}, {"engineer": 5, "inspector": 1}]})");
  REQUIRE_FALSE(s.is_legal(act::offer(2, kMetal)));  // a full hand could not accept
  s.apply(act::offer(1, kMetal));
  REQUIRE(s.step() == Step::kOffer);
  REQUIRE(s.current_player() == 1);
  State rejected = s;
  rejected.apply(act::kRejectOffer);
  REQUIRE(hand(rejected, 0, kMetal) == 1);
  REQUIRE(rejected.current_player() == 0);
  s.apply(act::kAcceptOffer);
  REQUIRE(hand(s, 1, kMetal) == 1);
  REQUIRE(s.current_player() == 0);
  REQUIRE_FALSE(s.is_legal(act::offer(1, kFuel)));  // player 1 now holds 6 cards
  REQUIRE_FALSE(s.is_legal(act::offer(2, kFuel)));  // and so does player 2
  State plain = position(2, R"({"hands": [{"metal": 1}, {}]})");
  REQUIRE_FALSE(plain.is_legal(act::offer(1, kMetal)));  // the variant is off by default
}

TEST_CASE("negotiations: a donation that empties the hand triggers step 5") {
  const Config config = load("variants: {negotiations: true}\n");
  State s = position(config, 2, R"({"hands": [{"metal": 1}, {}]})");
  s.apply(act::offer(1, kMetal));
  s.apply(act::kAcceptOffer);
  REQUIRE(s.redraw_used());
  REQUIRE(s.area(0).hand_size == 6);
}

// ---------------------------------------------------------------- hidden information

TEST_CASE("redeterminize (ruling 20): opponents' hands and the draw pile are resampled, counts kept") {
  State s(standard(), 3, 42);
  for (int k = 0; k < 40 && !s.is_terminal(); ++k) {
    Rng rng(k);
    s.apply(heuristic_action(s, rng));
  }
  const State before = s;
  Rng rng(9);
  bool changed = false;
  for (int trial = 0; trial < 5; ++trial) {
    State r = before;
    r.redeterminize(0, rng);
    REQUIRE_NOTHROW(r.check_invariants());
    REQUIRE(r.area(0).hand == before.area(0).hand);
    for (int seat = 1; seat < 3; ++seat) {
      REQUIRE(r.area(seat).hand_size == before.area(seat).hand_size);
      changed = changed || r.area(seat).hand != before.area(seat).hand;
    }
    REQUIRE(r.draw_pile_size() == before.draw_pile_size());
    REQUIRE(r.launch_pads_in_draw_pile() == before.launch_pads_in_draw_pile());
    for (int i = 0; i < r.discard_pile_size(); ++i)
      REQUIRE(r.discard_pile_card(i) == before.discard_pile_card(i));
    REQUIRE(encode(r, 0) == encode(before, 0));
  }
  REQUIRE(changed);
}

TEST_CASE("redeterminize keeps the Launch Pad cards in the bottom half they were shuffled into") {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    State s(standard(), 2, seed);
    Rng rng(seed);
    s.redeterminize(1, rng);
    REQUIRE(s.launch_pads_in_draw_pile() == 4);
    for (int i = s.launch_pad_region(); i < s.draw_pile_size(); ++i)
      REQUIRE(s.draw_pile_card(i) != kLaunchPad);
  }
}

TEST_CASE("encoder: own hand by type, seats relative to the viewer, nothing hidden") {
  State s = position(3, R"({"turn": 1, "hands": [{"metal": 2}, {"thief": 1}, {"fuel": 3}],
      "zones": [{}, {"rockets": [{"slot": 4, "kind": "galactic", "zone": "launch"}]}, {}]})");
  const auto seen_by_0 = encode(s, 0);
  const auto seen_by_1 = encode(s, 1);
  const int hand_at = kMaxPlayers * Encoder::kSeatFeatures;
  REQUIRE(seen_by_0[static_cast<std::size_t>(hand_at + kMetal)] == 2.0f);
  REQUIRE(seen_by_0[static_cast<std::size_t>(hand_at + kFuel)] == 0.0f);  // player 2's hand is hidden
  REQUIRE(seen_by_1[static_cast<std::size_t>(hand_at + kThief)] == 1.0f);
  // Player 1's Galactic: in player 0's view it is seat block +1; in player 1's view, block 0.
  const int rocket_at_slot4 = 6 + 12 + 3 + 4 + 4 * Encoder::kRocketFeatures;
  REQUIRE(seen_by_0[static_cast<std::size_t>(Encoder::kSeatFeatures + rocket_at_slot4)] == 1.0f);
  REQUIRE(seen_by_1[static_cast<std::size_t>(rocket_at_slot4)] == 1.0f);
  REQUIRE(seen_by_1[static_cast<std::size_t>(rocket_at_slot4 + 1 + kGalactic)] == 1.0f);
  REQUIRE(seen_by_1[static_cast<std::size_t>(rocket_at_slot4 + 5 + kLaunchZone)] == 1.0f);
  // The absent fourth seat is all zeros.
  for (int i = 0; i < Encoder::kSeatFeatures; ++i)
    REQUIRE(seen_by_0[static_cast<std::size_t>(3 * Encoder::kSeatFeatures + i)] == 0.0f);
  // Another hand of the same size for player 2 changes nothing player 0 sees.
  State other = position(3, R"({"turn": 1, "hands": [{"metal": 2}, {"thief": 1}, {"oxygen": 3}],
      "zones": [{}, {"rockets": [{"slot": 4, "kind": "galactic", "zone": "launch"}]}, {}]})");
  REQUIRE(encode(other, 0) == seen_by_0);
  REQUIRE(encode(other, 2) != encode(s, 2));
}

// ---------------------------------------------------------------- documents and names

TEST_CASE("state documents: exact round trip; bad documents are SerializationErrors") {
  State s(standard(), 4, 3);
  for (int k = 0; k < 60; ++k) {
    Rng rng(k);
    s.apply(heuristic_action(s, rng));
  }
  const Json doc = s.to_json();
  REQUIRE(State::from_json(doc, standard()).to_json() == doc);
  auto broken = [&](auto edit) {
    Json d = doc;
    edit(d);
    return d;
  };
  REQUIRE_THROWS_AS(State::from_json(Json::array(), standard()), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d.erase("hands"); }), standard()),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["step"] = "lunch"; }), standard()),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["players"] = 7; }), standard()),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["hands"][0]["unicorn"] = 1; }), standard()),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["hands"][0]["metal"] = 40; }), standard()),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["draw_pile"].push_back("metal"); }), standard()),
                    SerializationError);  // one Metal too many
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["rng"] = "x"; }), standard()),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) {
                                       d["zones"][0]["rockets"] = {{{"slot", 99}}};
                                     }),
                                     standard()),
                    SerializationError);
}

TEST_CASE("state documents: any field of the wrong type or value is a SerializationError, never a crash") {
  State s(standard(), 3, 8);
  for (int k = 0; k < 30; ++k) {
    Rng rng(k);
    s.apply(heuristic_action(s, rng));
  }
  const Json doc = s.to_json();
  const Json junk[] = {Json("x"),     Json(-1),       Json(999), Json(nullptr),
                       Json::array(), Json::object(), Json(true)};
  auto try_load = [&](const Json& d) {
    try {
      State::from_json(d, standard()).check_invariants();
    } catch (const SerializationError&) {
    }
  };
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    for (const Json& j : junk) {
      Json d = doc;
      d[it.key()] = j;
      REQUIRE_NOTHROW(try_load(d));
    }
  }
  for (const char* key : {"experts", "launch_pads", "specialties", "rockets"})
    for (const Json& j : junk) {
      Json d = doc;
      d["zones"][1][key] = j;
      REQUIRE_NOTHROW(try_load(d));
    }
}

TEST_CASE("actions are named in rulebook words, with targets as seat offsets") {
  State s = position(
      3,
      R"({"hands": [{"sabotage": 1}], "zones": [{}, {"rockets": [{"slot": 2, "kind": "galactic", "zone": "launch"}]}]})");
  REQUIRE(s.action_to_string(act::sabotage(1, 2, kMetal)) ==
          "Sabotage: take a Metal from player +1's rocket in slot 2 (Galactic, Launch Zone)");
  REQUIRE(s.action_to_string(act::play_expert(kJackOfAllTrades, kLaunchZone)) ==
          "play Jack of All Trades as the Launch Zone expert");
  REQUIRE(s.action_to_string(act::thief_two(0)) == "Thief: a random card from each of players +1 and +2");
  REQUIRE(s.action_to_string(act::kEndTurn) == "end the turn");
  REQUIRE(s.action_to_string(act::kNumActions) == "<action 950 out of range>");
  REQUIRE_THROWS_WITH(s.apply(act::sabotage(1, 3, kMetal)),
                      Catch::Contains("Sabotage") && Catch::Contains("not legal"));
  REQUIRE_THROWS_AS(s.apply(-1), IllegalAction);
}

TEST_CASE("illegal actions change nothing") {
  State s(standard(), 2, 11);
  const Json before = s.to_json();
  std::vector<uint8_t> mask(act::kNumActions);
  s.legal_actions_mask(mask.data());
  for (int a = 0; a < act::kNumActions; ++a) {
    if (mask[static_cast<std::size_t>(a)]) continue;
    REQUIRE_THROWS_AS(s.apply(a), IllegalAction);
  }
  REQUIRE(s.to_json() == before);
}

// ---------------------------------------------------------------- the heuristic bot

TEST_CASE("heuristic bot beats random play clearly (200 seeded games, seats rotated)") {
  auto game = load_game("launch_pad");
  for (int players : {2, 4}) {
    const int games = players == 2 ? 200 : 100;
    double wins = 0;
    for (int g = 0; g < games; ++g) {
      const int bot_seat = g % players;
      State s(standard(), players, derive_seed(777, static_cast<uint64_t>(g)));
      Rng rng(derive_seed(778, static_cast<uint64_t>(g)));
      std::vector<uint8_t> mask(act::kNumActions);
      while (!s.is_terminal()) {
        if (s.current_player() == bot_seat) {
          s.apply(heuristic_action(s, rng));
        } else {
          s.legal_actions_mask(mask.data());
          std::vector<int> legal;
          for (int a = 0; a < act::kNumActions; ++a)
            if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
          s.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        }
      }
      std::vector<float> r(static_cast<std::size_t>(players));
      s.returns(r.data());
      wins += r[static_cast<std::size_t>(bot_seat)] == 1.0f ? 1.0 : 0.0;
    }
    const double rate = wins / games;
    std::printf("launch_pad heuristic vs random, %d players: won %.0f of %d games (%.1f%%)\n", players, wins,
                games, 100.0 * rate);
    REQUIRE(rate > (players == 2 ? 0.85 : 0.6));
  }
}

// ---------------------------------------------------------------- the legal mask

// legal_actions_mask writes each card's targets from the state (State::mark_play) instead of
// asking is_legal id by id: both must agree on every id, at every decision of random games with
// 2, 3 and 4 players and the variants that change what is legal, heuristic moves mixed in so that
// rockets grow and the attack cards find targets.
TEST_CASE("legal mask: every id as is_legal says, in random and heuristic games", "[launch_pad][mask]") {
  std::vector<uint8_t> mask(act::kNumActions);
  std::vector<int> legal;
  // Legal ids seen per range that the mask builds in a loop of its own.
  int metal = 0, bonus = 0, abort = 0, check = 0, sabotage = 0, vacuum = 0, recruit = 0, salvage = 0,
      offers = 0, button = 0, budget = 0, fast = 0, thief = 0;
  const auto seen = [&](int a, int from, int to) { return a >= from && a < to ? 1 : 0; };
  for (const char* variant : {"", "variants: {negotiations: true}\n", "variants: {super_powers: true}\n"}) {
    const Config config = load(variant);
    for (int players = 2; players <= 4; ++players)
      for (uint64_t game = 0; game < 8; ++game) {
        State s(config, players, derive_seed(5600 + static_cast<uint64_t>(players), game));
        Rng rng(derive_seed(5700, game));
        for (int decision = 0; !s.is_terminal(); ++decision) {
          s.legal_actions_mask(mask.data());
          legal.clear();
          for (Action a = 0; a < act::kNumActions; ++a) {
            const bool in_mask = mask[static_cast<std::size_t>(a)] != 0;
            if (in_mask != s.is_legal(a))
              FAIL("'" << variant << "' " << players << " players, game " << game << ", decision " << decision
                       << ": id " << a << " (" << s.action_to_string(a) << ") is " << (in_mask ? "not " : "")
                       << "legal, the mask says " << int(mask[static_cast<std::size_t>(a)]));
            if (mask[static_cast<std::size_t>(a)] > 1) FAIL("mask byte " << a << " is not 0 or 1");
            if (!in_mask) continue;
            legal.push_back(a);
            metal += seen(a, act::kPlayMetal, act::kPlayExpert);
            bonus += seen(a, act::kPlayBonus, act::kPlaySpecialty);
            abort += seen(a, act::kAbortMission, act::kBigRedButton);
            button += seen(a, act::kBigRedButton, act::kBudgetCuts);
            budget += seen(a, act::kBudgetCuts, act::kFastTrack);
            fast += seen(a, act::kFastTrack, act::kPartsSupplier);
            check += seen(a, act::kQualityCheck, act::kRecruitment);
            recruit += seen(a, act::kRecruitment, act::kRecycleBin);
            sabotage += seen(a, act::kSabotage, act::kSalvage);
            salvage += seen(a, act::kSalvage, act::kSurplus);
            thief += seen(a, act::kThief, act::kVacuum);
            vacuum += seen(a, act::kVacuum, act::kOfferCard);
            offers += seen(a, act::kOfferCard, act::kAcceptOffer);
          }
          s.apply(decision % 2 ? heuristic_action(s, rng)
                               : legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        }
      }
  }
  INFO("metal " << metal << " bonus " << bonus << " abort " << abort << " button " << button << " budget "
                << budget << " fast " << fast << " check " << check << " recruit " << recruit << " sabotage "
                << sabotage << " salvage " << salvage << " thief " << thief << " vacuum " << vacuum
                << " offers " << offers);
  for (int n :
       {metal, bonus, abort, button, budget, fast, check, recruit, sabotage, salvage, thief, vacuum, offers})
    CHECK(n > 0);
}

// ---------------------------------------------------------------- conformance of each variant

TEST_CASE("every variant passes the conformance suite", "[conformance]") {
  testing::ConformanceOptions options;
  options.num_games = 6;
  for (const char* variant : {"short_game", "long_game", "super_powers", "negotiations"}) {
    for (int players = 2; players <= 4; ++players) {
      DYNAMIC_SECTION(variant << " with " << players << " players") {
        options.overrides = std::string("variants: {") + variant + ": true}\n";
        testing::run_conformance("launch_pad", players, options);
      }
    }
  }
}

TEST_CASE("the Launch Pad cards in the draw pile are counted exactly, whatever the pile's size") {
  // launch_pads_in_draw_pile reads the pile eight cards at a time (issue 28): piles of every
  // size, with Launch Pads anywhere (long game: they join the deck when it first runs out).
  const Config config = load("variants: {long_game: true}\n");
  std::vector<uint8_t> mask(act::kNumActions);
  std::vector<int> legal;
  int checked_with_pads = 0;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    State s(config, 2 + static_cast<int>(seed % 3), seed);
    Rng rng(seed + 100);
    for (int step = 0; step < 3000 && !s.is_terminal(); ++step) {
      int pads = 0;
      for (int i = 0; i < s.draw_pile_size(); ++i) pads += s.draw_pile_card(i) == kLaunchPad;
      REQUIRE(s.launch_pads_in_draw_pile() == pads);
      checked_with_pads += pads > 0;
      s.legal_actions_mask(mask.data());
      legal.clear();
      for (int a = 0; a < act::kNumActions; ++a)
        if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
      s.apply(legal[static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(legal.size()) - 1))]);
    }
  }
  REQUIRE(checked_with_pads > 0);
}
