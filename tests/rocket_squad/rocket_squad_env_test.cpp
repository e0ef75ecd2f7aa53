// Rocket Squad as an environment: documents, config errors, illegal input, hidden
// information, the encoder, the heuristic bot and the conformance suite.
#include <cmath>

#include "tests/common/conformance.h"
#include "tests/rocket_squad/rocket_squad_test_util.h"

using namespace rs_test;

TEST_CASE("json: exact round trip, mid-game, RNG included", "[rocket_squad][json]") {
  State s(default_config(), 3, 77);
  Rng rng(1);
  for (int step = 0; step < 60 && !s.is_terminal(); ++step) {
    const auto moves = legal(s);
    s.apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
  }
  const Json doc = s.to_json();
  State loaded = State::from_json(doc, default_config());
  REQUIRE(loaded.to_json() == doc);
  REQUIRE(loaded.to_string() == s.to_string());
}

TEST_CASE("json: bad documents are SerializationErrors", "[rocket_squad][json]") {
  const Json good = State(default_config(), 2, 5).to_json();
  const auto broken = [&](const std::function<void(Json&)>& edit) {
    Json doc = good;
    edit(doc);
    return doc;
  };
  const auto& c = default_config();
  REQUIRE_THROWS_AS(State::from_json(Json::array(), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d.erase("hands"); }), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["players"] = 7; }), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["phase"] = "lunch"; }), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["hands"][0]["cards"][0] = "spaceship"; }), c),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["draw_pile"].erase(0); }), c),
                    SerializationError);  // a card is missing
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["rockets"][0]["purple"] = Json::object(); }), c),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) {
                                       d["rockets"][0]["blue"] = {{"booster", "red_7"}};
                                     }),
                                     c),
                    SerializationError);  // a red booster at the blue location
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["rng"] = "x"; }), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) {
                                       d["hands"][0]["cards"] =
                                           Json::array({"dad", "dad", "dad", "dad", "jack", "jack", "jack",
                                                        "uncle", "uncle"});
                                     }),
                                     c),
                    SerializationError);  // more than a hand can hold
  auto game = load_game("rocket_squad");
  REQUIRE_THROWS_AS(game->state_from_json("{not json"), SerializationError);
}

TEST_CASE("config: unknown keys and bad values name the file, line and key", "[rocket_squad][config]") {
  const std::string base = builtin_game_config("rocket_squad");
  const auto load = [&](const std::string& overrides) {
    return load_config(
        ConfigNode::parse(base, "rocket_squad.yaml").merged(ConfigNode::parse(overrides, "override.yaml")));
  };
  REQUIRE_NOTHROW(load("hand_size: 5"));
  REQUIRE_THROWS_WITH(load("hand_sise: 5"), Catch::Contains("hand_sise"));
  REQUIRE_THROWS_AS(load("hand_size: 0"), ConfigError);
  REQUIRE_THROWS_WITH(load("characters: {dad: many}"), Catch::Contains("dad"));
  REQUIRE_THROWS_WITH(load("boosters: {blue: {values: [2, 30], copies: 4}}"),
                      Catch::Contains("out of range"));
  REQUIRE_THROWS_WITH(load("boosters: {purple: {values: [2], copies: 1}}"), Catch::Contains("purple"));
  REQUIRE_THROWS_WITH(load("variants: {joker_stop_launch: true}"), Catch::Contains("joker_stop_launch"));
  REQUIRE_THROWS_AS(load("boosters: {blue: {values: [2], copies: 16}, green: {values: [3, 4], copies: 16}, "
                         "yellow: {values: [6, 7, 8], copies: 16}}"),
                    ConfigError);  // more than 128 cards
  REQUIRE_THROWS_WITH(load("reward: money"), Catch::Contains("reward"));
}

TEST_CASE("illegal actions throw IllegalAction and change nothing", "[rocket_squad][actions]") {
  State s =
      position(R"({"hands":[{"cards":["dad"]},{"cards":[]}],"rockets":[{"blue":{"booster":"blue_3"}},{}]})");
  const Json before = s.to_json();
  REQUIRE_THROWS_AS(s.apply(-1), IllegalAction);
  REQUIRE_THROWS_AS(s.apply(action::kNumActions), IllegalAction);
  REQUIRE_THROWS_AS(s.apply(build("jack", BLUE)), IllegalAction);  // not in hand
  REQUIRE_THROWS_AS(s.apply(action::kBlockMom), IllegalAction);    // nobody asked
  REQUIRE_THROWS_WITH(s.apply(dad(1, RED, BLUE)), Catch::Contains("Dad"));
  REQUIRE(s.to_json() == before);
  State over = position(R"({"phase":"game_over"})");
  REQUIRE_THROWS_AS(over.apply(action::kEndTurn), IllegalAction);
}

TEST_CASE("actions: one id space of 970 ids, readable names", "[rocket_squad][actions]") {
  REQUIRE(action::kNumActions == 970);
  REQUIRE(Game::info().num_actions == 970);
  State s(default_config(), 4, 1);
  for (Action a = 0; a < action::kNumActions; ++a) REQUIRE_FALSE(s.action_to_string(a).empty());
  REQUIRE(s.action_to_string(dad(2, RED, BLUE)) ==
          "Dad: take the top box of player +2's red rocket, build it on the own blue rocket");
  REQUIRE(s.action_to_string(place(WILD, 5, GREEN)) == "place wild booster 5 at the green location");
  REQUIRE(s.action_to_string(balloons(BLUE, -1, RED)) ==
          "Water Balloons: a box off player +1's blue rocket, player +3's red rocket");
  REQUIRE(s.action_to_string(ace(1, YELLOW, COUNTER_CLOCKWISE)) ==
          "Ace: knock the boxes off player +1's yellow rocket, pass them counter-clockwise");
}

TEST_CASE("hidden information: redeterminize keeps what the viewer knows", "[rocket_squad][hidden]") {
  // Player 1 stole a Crew from player 0: player 0 knows it is in player 1's hand.
  State s = position(R"({"hands":[{"cards":["crew","mom","dad"]},{"cards":["jack","uncle"]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":3}},{}],"turn_player":1})");
  // Player 0 holds Mom against an Orange card: decline, then check knowledge.
  s.apply(jack(1));
  REQUIRE(s.current_player() == 0);
  s.apply(action::kNoBlock);
  const CardType stolen = s.hand(1).cards[s.hand(1).count - 1];
  REQUIRE(s.hand(1).known_by[s.hand(1).count - 1] == 0b01);
  const int size = Encoder::kSize;
  std::vector<float> before(static_cast<std::size_t>(size)), after(static_cast<std::size_t>(size));
  Encoder::encode(s, 0, before.data());
  for (uint64_t seed = 0; seed < 10; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(0, rng);
    REQUIRE(r.hand_count(1, stolen) >= 1);
    for (int i = 0; i < s.hand(0).count; ++i) REQUIRE(r.hand(0).cards[i] == s.hand(0).cards[i]);
    REQUIRE(r.rocket(0, BLUE).num_boxes == 3);
    Encoder::encode(r, 0, after.data());
    REQUIRE(after == before);
    REQUIRE_NOTHROW(r.check_invariants());
  }
}

TEST_CASE("hidden information: box faces and the draw pile are resampled", "[rocket_squad][hidden]") {
  State s = position(R"({"hands":[{"cards":["dad"]},{"cards":["jack"]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":["mom","mom","mom"]}},{}]})");
  bool faces_changed = false, pile_changed = false;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(0, rng);
    faces_changed = faces_changed || r.rocket(0, BLUE).boxes[0] != kMom;
    pile_changed = pile_changed || r.draw_pile().cards[50] != s.draw_pile().cards[50];
    REQUIRE(r.hand(0).cards[0] == kDad);
  }
  REQUIRE(faces_changed);
  REQUIRE(pile_changed);
}

TEST_CASE("encoder: fixed size, finite, own hand only", "[rocket_squad][encoder]") {
  for (int n = 2; n <= 4; ++n) {
    State s(default_config(), n, 11);
    REQUIRE(Encoder::shape(default_config(), n) == std::vector<int>{Encoder::kSize});
    std::vector<float> obs(static_cast<std::size_t>(Encoder::kSize), NAN);
    Encoder::encode(s, 1, obs.data());
    for (float x : obs) REQUIRE(std::isfinite(x));
    float in_hand = 0;
    for (int t = 0; t < kNumCardTypes; ++t) in_hand += obs[static_cast<std::size_t>(t)];
    REQUIRE(in_hand == Approx(4 * 0.5f));
  }
}

TEST_CASE("heuristic bot clearly beats random play (200 seeded games, seats rotated)",
          "[rocket_squad][bot]") {
  for (int n = 2; n <= 4; ++n) {
    int wins = 0;
    const int games = 200;
    Rng rng(2026);
    for (int g = 0; g < games; ++g) {
      State s(default_config(), n, derive_seed(31, static_cast<uint64_t>(g)));
      const int bot = g % n;
      while (!s.is_terminal()) {
        if (s.current_player() == bot) {
          s.apply(heuristic_action(s, rng));
        } else {
          const auto moves = legal(s);
          s.apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
        }
      }
      float r[kMaxPlayers];
      s.returns(r);
      wins += r[bot] > 0.999f;  // sole first place
    }
    INFO(n << " players: heuristic bot won " << wins << " of " << games);
    WARN(n << " players: heuristic bot won " << wins << " of " << games << " against random play");
    REQUIRE(wins >= games * 3 / 4);
  }
}

TEST_CASE("conformance suite with the variants switched off", "[rocket_squad][conformance]") {
  testing::ConformanceOptions options;
  options.num_games = 15;
  options.overrides = "variants: {first_turn_redraw: false, joker_stops_launch: false}";
  for (int n = 2; n <= 4; ++n) {
    DYNAMIC_SECTION(n << " players") { testing::run_conformance("rocket_squad", n, options); }
  }
}

TEST_CASE("legal_actions_mask agrees with is_legal on every id", "[rocket_squad][actions]") {
  Rng rng(8);
  for (int n = 2; n <= 4; ++n)
    for (uint64_t seed = 0; seed < 6; ++seed) {
      State s(default_config(), n, seed);
      std::vector<uint8_t> mask(action::kNumActions);
      while (!s.is_terminal()) {
        s.legal_actions_mask(mask.data());
        for (Action a = 0; a < action::kNumActions; ++a)
          REQUIRE(static_cast<bool>(mask[static_cast<std::size_t>(a)]) == s.is_legal(a));
        const auto moves = legal(s);
        s.apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
      }
    }
}

// Mutated documents either load as consistent positions that play on, or are rejected with
// a SerializationError; nothing crashes (run under the sanitizers too).
TEST_CASE("json: mutated documents never crash", "[rocket_squad][json]") {
  Rng rng(99);
  const char* const names[] = {"dad", "mom", "grandma", "crew", "blue_3", "red_10", "wild_5", "ace", "joker"};
  for (int trial = 0; trial < 300; ++trial) {
    State s(default_config(), 2 + trial % 3, static_cast<uint64_t>(trial));
    for (int k = rng.below(60); k > 0 && !s.is_terminal(); --k) {
      const auto moves = legal(s);
      s.apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
    }
    Json doc = s.to_json();
    // Swap two cards between places, or change a number, or a rocket flag.
    switch (rng.below(5)) {
      case 0:
        doc["turn_player"] = static_cast<int>(rng.below(5)) - 1;
        break;
      case 1:
        if (!doc["draw_pile"].empty()) doc["draw_pile"][0] = names[rng.below(9)];
        break;
      case 2:
        doc["rockets"][0]["red"]["joker"] = true;
        break;
      case 3:
        doc["rockets"][0]["blue"]["boxes"] = Json::array({"dad", "dad"});
        break;
      case 4:
        doc["phase"] =
            std::vector<std::string>{"turn", "reaction", "crew", "jackie_keep", "ace_pass"}[rng.below(5)];
        break;
    }
    try {
      State loaded = State::from_json(doc, default_config());
      for (int k = 0; k < 30 && !loaded.is_terminal(); ++k) {
        const auto moves = legal(loaded);
        REQUIRE(!moves.empty());
        loaded.apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
        REQUIRE_NOTHROW(loaded.check_invariants());
      }
    } catch (const SerializationError&) {
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Configs that cannot make a game (issue 16)
// ---------------------------------------------------------------------------------------------

namespace {
Config load_with(const std::string& overrides) {
  return load_config(ConfigNode::parse(builtin_game_config("rocket_squad"), "rocket_squad.yaml")
                         .merged(ConfigNode::parse(overrides, "override.yaml")));
}
}  // namespace

TEST_CASE("config: card counts add up without wrapping at 256", "[rocket_squad][config]") {
  // 16 copies of blue 2 listed 16 times was 256 = 0 blue 2s in a uint8_t, and passed the limit.
  std::string values = "[2";
  for (int k = 1; k < 16; ++k) values += ", 2";
  values += "]";
  REQUIRE_THROWS_WITH(load_with("boosters: {blue: {values: " + values + ", copies: 16}}"),
                      Catch::Contains("boosters.blue.values[1]") && Catch::Contains("listed twice"));
  // Without repeats, the total is counted in full and checked against the limit.
  REQUIRE_THROWS_WITH(load_with("boosters: {blue: {values: [2, 3, 4, 5, 6, 7, 8, 9], copies: 16}}"),
                      Catch::Contains("'boosters'") && Catch::Contains("at most 128"));
  REQUIRE_THROWS_WITH(load_with("characters: {dad: 16, jack: 16, uncle: 16}"),
                      Catch::Contains("at most 128"));
  const Config c = load_with("boosters: {blue: {values: [2, 3, 4, 5], copies: 5}}");
  REQUIRE(c.deck[booster_card(BLUE, 2)] == 5);
  REQUIRE(c.deck_size == 104);
}

TEST_CASE("config: a deck without boosters for all four locations is rejected", "[rocket_squad][config]") {
  // `boosters: {}` as the whole booster list: no rocket could ever launch, every game would
  // end truncated.
  const auto file = [](const std::string& boosters) {
    return load_config(ConfigNode::parse("boosters: " + boosters +
                                             "\ncharacters: {dad: 3, jack: 3, uncle: 3, "
                                             "jackie: 3, mom: 3, duct_tape: 3}\n",
                                         "deck.yaml"));
  };
  REQUIRE_THROWS_WITH(file("{}"), Catch::Contains("deck.yaml:1") && Catch::Contains("'boosters'") &&
                                      Catch::Contains("four booster locations"));
  REQUIRE_THROWS_WITH(file("{blue: {values: [2, 3], copies: 4}, wild: {values: [5], copies: 2}}"),
                      Catch::Contains("four booster locations"));
  // Three missing colours and three wild boosters can still fill the area.
  REQUIRE_NOTHROW(file("{blue: {values: [2, 3], copies: 4}, wild: {values: [5], copies: 3}}"));
  REQUIRE_THROWS_WITH(load_config(ConfigNode::parse(
                          "boosters: {blue: {values: [2], copies: 1}, wild: {values: [5], copies: 3}}\n"
                          "characters: {}\n",
                          "deck.yaml")),
                      Catch::Contains("too few to deal"));
}

TEST_CASE("config: an empty value is an error, not the default", "[rocket_squad][config]") {
  REQUIRE_THROWS_WITH(load_with("characters: {dad: }"),
                      Catch::Contains("characters.dad") && Catch::Contains("empty value"));
  REQUIRE_THROWS_WITH(load_with("variants: {crew_bonus: }"), Catch::Contains("variants.crew_bonus"));
  REQUIRE_THROWS_WITH(load_with("boosters: {blue: }"), Catch::Contains("boosters.blue"));
  REQUIRE_THROWS_WITH(load_with("boosters: {red: {values: [7, 8], copies: }}"),
                      Catch::Contains("boosters.red.copies"));
  REQUIRE_THROWS_WITH(load_with("hand_size: "), Catch::Contains("hand_size"));
  REQUIRE_THROWS_WITH(load_with("variants: "), Catch::Contains("variants") && Catch::Contains("empty value"));
  // --set characters.dad= is refused where it is read, naming the key.
  REQUIRE_THROWS_WITH(load_config(ConfigNode::parse(builtin_game_config("rocket_squad"), "rocket_squad.yaml")
                                      .merged(ConfigNode::from_settings({"characters.dad="}))),
                      Catch::Contains("characters.dad") && Catch::Contains("no value"));
}

// ---------------------------------------------------------------------------------------------
// Documents: complete validation (issue 16)
// ---------------------------------------------------------------------------------------------

TEST_CASE("json: every inconsistent field is rejected, and the error names it", "[rocket_squad][json]") {
  // A 3-player game in its second round, player 1 to play, with a booster on player 0's blue.
  const Json good = position(R"({"players":3,"turn_player":1,
      "hands":[{"cards":["dad","mom"]},{"cards":["jack","uncle","uncle"]},{"cards":["crew"]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":2}},{},{}]})")
                        .to_json();
  const auto rejects = [&](const std::function<void(Json&)>& edit, const std::string& field) {
    Json doc = good;
    edit(doc);
    INFO("expected a rejection naming " << field << " for " << doc.dump());
    REQUIRE_THROWS_WITH(State::from_json(doc, default_config()), Catch::Contains(field));
  };
  REQUIRE_NOTHROW(State::from_json(good, default_config()));
  rejects([](Json& d) { d["players"] = 5; }, "'players'");
  rejects([](Json& d) { d["players"] = true; }, "'players'");
  rejects([](Json& d) { d["phase"] = "lunch"; }, "'phase'");
  rejects([](Json& d) { d["turn_player"] = 3; }, "'turn_player'");
  rejects(
      [](Json& d) {
        d["turn_player"] = 2;
        d["decider"] = 2;
      },
      "'turn_player'");  // turn 5 is player 1's
  rejects([](Json& d) { d["decider"] = 2; }, "'decider'");
  rejects([](Json& d) { d["turn"] = 0; }, "'turn'");
  rejects([](Json& d) { d["turn"] = 2.7; }, "'turn'");
  rejects([](Json& d) { d["turn"] = 401; }, "'turn'");  // past max_turns
  rejects([](Json& d) { d["decisions"] = -1; }, "'decisions'");
  rejects([](Json& d) { d["decisions"] = kMaxDecisions; }, "'decisions'");
  rejects([](Json& d) { d["truncated"] = true; }, "'truncated'");
  rejects([](Json& d) { d["redraw_used"] = true; }, "'redraw_used'");  // not a first turn
  rejects([](Json& d) { d["first_turn_done"] = {true, false, true}; }, "'first_turn_done'");
  rejects([](Json& d) { d["first_turn_done"] = {true, true}; }, "'first_turn_done'");
  rejects([](Json& d) { d["trigger_seat"] = 0; }, "'trigger_seat'");
  rejects(
      [](Json& d) {
        d["end_triggered"] = true;
        d["trigger_seat"] = 0;
        d["final_turn_owed"] = {false, true, true};
      },
      "'trigger_seat'");  // player 0 has not launched four rockets
  rejects([](Json& d) { d["final_turn_owed"] = {false, false, true}; }, "'final_turn_owed'");
  rejects(
      [](Json& d) {
        d["hands"][1]["cards"].push_back("dad");
        d["hands"][1]["cards"].push_back("dad");
      },
      "'hands[1].cards'");  // 5 cards: more than the hand size
  rejects([](Json& d) { d["hands"][0]["cards"][1] = "spaceship"; }, "'hands[0].cards[1]'");
  rejects([](Json& d) { d["hands"][1]["known_by"] = {2, 0, 0}; }, "'hands[1].known_by[0]'");  // its owner
  rejects([](Json& d) { d["hands"][1]["known_by"] = {8, 0, 0}; }, "'hands[1].known_by[0]'");  // no seat 3
  rejects([](Json& d) { d["hands"][0]["known_by"] = {0}; }, "'hands[0].known_by'");
  rejects([](Json& d) { d["hands"][0]["colour"] = "red"; }, "'hands[0].colour'");
  rejects([](Json& d) { d["draw_known_by"][0] = 9; }, "'draw_known_by[0]'");
  rejects(
      [](Json& d) {
        d["draw_known_by"][0] = 1;
        d["draw_counted_by"][0] = 1;
      },
      "'draw_counted_by[0]'");
  rejects([](Json& d) { d["draw_counted_by"] = Json::array(); }, "'draw_counted_by'");
  rejects([](Json& d) { d["rockets"][0]["purple"] = Json::object(); }, "'rockets[0].purple'");
  rejects([](Json& d) { d["rockets"][0]["blue"]["colour"] = "blue"; }, "'rockets[0].blue.colour'");
  rejects([](Json& d) { d["rockets"][0]["blue"]["boxes_known_by"] = {1}; },
          "'rockets[0].blue.boxes_known_by'");
  rejects([](Json& d) { d["rockets"][0]["blue"]["booster"] = "dad"; }, "'rockets[0].blue.booster'");
  rejects([](Json& d) { d["crew_location"] = "purple"; }, "'crew_location'");
  rejects([](Json& d) { d["jackie_known_by"] = {1}; }, "'jackie_known_by'");
  rejects([](Json& d) { d["rng"] = {0, 0, 0, 0}; }, "'rng'");
  rejects([](Json& d) { d["weather"] = "sunny"; }, "'weather'");
  rejects(
      [](Json& d) {
        d["draw_pile"].erase(0);
        d["draw_known_by"].erase(0);
        d["draw_counted_by"].erase(0);
        d["draw_from_deck"].erase(0);
      },
      "appears");  // card conservation
  rejects(
      [](Json& d) {
        d["turn_start"] = true;
        d["phase"] = "game_over";
        d["decider"] = -1;
      },
      "'turn_start'");
  rejects(
      [](Json& d) {
        d["ace"] = {{"direction", 0}, {"next_seat", 0}, {"boxes", Json::array()}};
      },
      "'ace.direction'");
}

TEST_CASE("json: the reaction chain and the pending decision must agree with each other",
          "[rocket_squad][json][reaction]") {
  // Player 0 played Dad against player 1, who holds Mom and is asked.
  const Json good =
      position(R"({"phase":"reaction","decider":1,"hands":[{"cards":["grandma"]},{"cards":["mom"]}],
      "rockets":[{"blue":{"booster":"blue_5"}},{"red":{"booster":"red_7","boxes":1}}],
      "chain":{"card":"dad","action":)" +
               std::to_string(dad(1, RED, BLUE)) + R"(,"against":2}})")
          .to_json();
  const auto rejects = [&](const std::function<void(Json&)>& edit, const std::string& field) {
    Json doc = good;
    edit(doc);
    INFO(doc.dump());
    REQUIRE_THROWS_WITH(State::from_json(doc, default_config()), Catch::Contains(field));
  };
  REQUIRE_NOTHROW(State::from_json(good, default_config()));
  rejects([](Json& d) { d["chain"]["against"] = 1; }, "'chain.against'");  // Dad was played at player 1
  rejects([](Json& d) { d["chain"]["top"] = "mom"; }, "'chain.top'");      // a block needs a count
  rejects(
      [](Json& d) {
        d["chain"]["blocks"] = 2;
        d["chain"]["top"] = "mom";
        d["chain"]["top_player"] = 1;
      },
      "'chain.top'");                                                    // Mom never blocks a block
  rejects([](Json& d) { d["chain"]["blocks"] = 9; }, "'chain.blocks'");  // more blocks than the deck has
  rejects([](Json& d) { d["chain"]["asked"] = 1; }, "'chain.asked'");    // 2 players: at most 0
  rejects([](Json& d) { d["chain"]["action"] = action::kPlayJack; }, "'chain.action'");
  rejects(
      [](Json& d) {
        d["phase"] = "turn";
        d["decider"] = 0;
      },
      "chain exists iff");
  rejects([](Json& d) { d["decider"] = 0; }, "asked player");
  rejects([](Json& d) { d["turn_start"] = true; }, "'turn_start'");
}

TEST_CASE("json: a block's top card and target follow ruling 4", "[rocket_squad][json][reaction]") {
  // Player 0 played Dad against player 1; player 1 blocked with Mom (now on top), player 0 is asked.
  const std::string chain = R"("chain":{"card":"dad","action":)" + std::to_string(dad(1, RED, BLUE)) +
                            R"(,"against":1,"blocks":1,"top":"mom","top_player":1})";
  const Json good = position(R"({"phase":"reaction","decider":0,"hands":[{"cards":["grandma"]},{"cards":[]}],
      "discard_pile":["mom"],"rockets":[{"blue":{"booster":"blue_5"}},{"red":{"booster":"red_7","boxes":1}}],)" +
                             chain + "}")
                        .to_json();
  const auto rejects = [&](const std::function<void(Json&)>& edit, const std::string& field,
                           const std::string& why) {
    Json doc = good;
    edit(doc);
    INFO(doc.dump());
    REQUIRE_THROWS_WITH(State::from_json(doc, default_config()),
                        Catch::Contains(field) && Catch::Contains(why));
  };
  REQUIRE_NOTHROW(State::from_json(good, default_config()));
  // Mom blocks only an Orange card played against her own holder.
  rejects([](Json& d) { d["chain"]["top_player"] = 0; }, "'chain.top'", "Mom blocks only");
  // The block is played against the player of the blocked card.
  rejects([](Json& d) { d["chain"]["against"] = 2; }, "'chain.against'", "a block is played against");
}

TEST_CASE("json: the end of the game follows the rockets launched (ruling 11)", "[rocket_squad][json]") {
  // Player 1 launched all four rockets on its turn; players 0 and 2 are owed a final turn.
  const std::string four =
      R"({"blue":{"booster":"blue_2","launched":true},"green":{"booster":"green_3","launched":true},
          "yellow":{"booster":"yellow_6","launched":true},"red":{"booster":"red_7","launched":true}})";
  const Json good =
      position(R"({"players":3,"turn_player":2,"decider":2,"end_triggered":true,"trigger_seat":1,
      "final_turn_owed":[true,false,false],"in_final_turn":true,"rockets":[{},)" +
               four + ",{}]}")
          .to_json();
  const auto rejects = [&](const std::function<void(Json&)>& edit, const std::string& field,
                           const std::string& why) {
    Json doc = good;
    edit(doc);
    INFO(doc.dump());
    REQUIRE_THROWS_WITH(State::from_json(doc, default_config()),
                        Catch::Contains(field) && Catch::Contains(why));
  };
  REQUIRE_NOTHROW(State::from_json(good, default_config()));
  rejects(
      [](Json& d) {
        d["end_triggered"] = false;
        d["trigger_seat"] = -1;
        d["final_turn_owed"] = {false, false, false};
        d["in_final_turn"] = false;
      },
      "'end_triggered'", "player 1 has launched all four rockets");
  rejects(
      [](Json& d) {
        d["in_final_turn"] = false;
        d["final_turn_owed"] = {true, false, false};
      },
      "'final_turn_owed'", "every player but the trigger player is owed one");
  rejects(
      [](Json& d) {
        d["final_turn_owed"] = {true, false, true};
      },
      "'in_final_turn'", "neither the trigger player nor owed another");
}

TEST_CASE("json: per-player lists and Jackie's fields", "[rocket_squad][json]") {
  const Json good = position(R"({"hands":[{"cards":["dad"]},{"cards":[]}]})").to_json();
  Json doc = good;
  doc["rockets"].erase(0);
  REQUIRE_THROWS_WITH(State::from_json(doc, default_config()),
                      Catch::Contains("'rockets'") && Catch::Contains("needs one entry per player"));
  // No Jackie decision, but marks for her cards.
  doc = good;
  doc.erase("jackie");
  REQUIRE_THROWS_WITH(State::from_json(doc, default_config()),
                      Catch::Contains("'jackie_known_by'") && Catch::Contains("given without 'jackie'"));
  doc.erase("jackie_known_by");
  REQUIRE_THROWS_WITH(State::from_json(doc, default_config()),
                      Catch::Contains("'jackie_from_deck'") && Catch::Contains("given without 'jackie'"));
}

// Mutated documents either load as consistent positions that play to the end, or are rejected
// with a SerializationError; nothing crashes or gets stuck (run under the sanitizers too).
TEST_CASE("json: every position that loads plays to the end", "[rocket_squad][json]") {
  Rng rng(4242);
  const char* const cards[] = {"dad", "mom", "grandma", "crew", "blue_3", "red_10", "wild_5", "ace", "joker"};
  const char* const numbers[] = {"players", "turn_player", "decider", "turn", "decisions", "trigger_seat"};
  const char* const flags[] = {"truncated", "redraw_used", "turn_start", "end_triggered", "in_final_turn"};
  int loaded = 0;
  for (int trial = 0; trial < 600; ++trial) {
    State s(default_config(), 2 + trial % 3, static_cast<uint64_t>(trial));
    for (int k = rng.below(150); k > 0 && !s.is_terminal(); --k) {
      const auto moves = legal(s);
      s.apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
    }
    Json doc = s.to_json();
    const int p = static_cast<int>(rng.below(static_cast<uint32_t>(s.num_players())));
    switch (rng.below(9)) {
      case 0:
        doc[numbers[rng.below(6)]] = static_cast<int>(rng.below(7)) - 1;
        break;
      case 1:
        doc[flags[rng.below(5)]] = rng.below(2) == 1;
        break;
      case 2:
        if (!doc["draw_pile"].empty()) doc["draw_pile"][0] = cards[rng.below(9)];
        break;
      case 3:
        if (!doc["hands"][p]["known_by"].empty())
          doc["hands"][p]["known_by"][0] = static_cast<int>(rng.below(16));
        break;
      case 4:
        if (!doc["draw_counted_by"].empty()) doc["draw_counted_by"].back() = static_cast<int>(rng.below(16));
        break;
      case 5:
        doc["rockets"][p]["red"]["joker"] = true;
        break;
      case 6:
        std::swap(doc["hands"][p]["cards"], doc["hands"][(p + 1) % s.num_players()]["cards"]);
        std::swap(doc["hands"][p]["known_by"], doc["hands"][(p + 1) % s.num_players()]["known_by"]);
        break;
      case 7:
        doc["phase"] = std::vector<std::string>{"turn",        "reaction", "crew",
                                                "jackie_keep", "ace_pass", "game_over"}[rng.below(6)];
        break;
      case 8:
        doc["first_turn_done"][p] = !doc["first_turn_done"][p].get<bool>();
        break;
    }
    auto game = load_game("rocket_squad");
    std::unique_ptr<AnyState> any;
    try {
      any = game->state_from_json(doc.dump());
    } catch (const SerializationError&) {
      continue;
    }
    ++loaded;
    State t = State::from_json(doc, default_config());
    int steps = 0;
    while (!t.is_terminal()) {
      const auto moves = legal(t);
      REQUIRE(!moves.empty());
      t.apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
      REQUIRE_NOTHROW(t.check_invariants());
      REQUIRE(++steps <= kMaxDecisions);
    }
  }
  REQUIRE(loaded > 100);
}
