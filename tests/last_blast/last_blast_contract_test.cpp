// The Last Blast: the environment contract — bad input, documents, text,
// the alternate rule under the conformance suite, and the heuristic bot.
#include <catch2/catch.hpp>
#include <cstdio>
#include <type_traits>

#include "envs/last_blast/last_blast_bot.h"
#include "tests/common/conformance.h"
#include "tests/last_blast/last_blast_test_util.h"

using namespace rocketgym;
using namespace rocketgym::last_blast;
using namespace rocketgym::last_blast::test;

namespace {

const std::vector<std::string> kField2 = {"DHCBWAD", "HCBWADH", "CBWADHC"};

Config config_with(const std::string& from, const std::string& to) {
  std::string text = builtin_game_config("last_blast");
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return load_config(ConfigNode::parse(text, "last_blast.yaml"));
}

}  // namespace

TEST_CASE("contract: the state is a plain value (no heap memory)", "[last_blast][contract]") {
  STATIC_REQUIRE(std::is_trivially_copyable<State>::value);
  REQUIRE(game_info().num_actions == kNumActions);
  REQUIRE(kNumActions == 138);
}

TEST_CASE("contract: the config holds the 48 cards and 36 tiles of the rulings", "[last_blast][config]") {
  const Config& c = standard_config();
  REQUIRE(c.num_cards() == 48);
  REQUIRE(c.num_tiles == 36);
  std::array<int, 3> colours{};
  for (const Card& card : c.cards) ++colours[static_cast<int>(card.colour)];
  REQUIRE(colours == std::array<int, 3>{18, 12, 18});
  REQUIRE(c.symbol_value == std::array<int, 6>{1, 2, 3, 4, 5, 6});
  REQUIRE(c.symbol_names[0] == "drop");
  REQUIRE(c.symbol_names[5] == "arrow");
  REQUIRE_FALSE(c.exploded_block_row);
  REQUIRE(alternate_config().exploded_block_row);
}

TEST_CASE("contract: bad YAML is a ConfigError naming the line and key", "[last_blast][config]") {
  REQUIRE_THROWS_WITH(config_with("exploded_block_row: false", "exploded_block_rows: false"),
                      Catch::Contains("variants.exploded_block_rows") && Catch::Contains("last_blast.yaml:"));
  REQUIRE_THROWS_WITH(
      config_with("{colour: red, number: 1, symbol: drop}", "{colour: blue, number: 1, symbol: drop}"),
      Catch::Contains("colour") && Catch::Contains("blue"));
  REQUIRE_THROWS_WITH(config_with("{colour: red, number: 1, symbol: drop}", "{colour: red, symbol: drop}"),
                      Catch::Contains("number"));
  REQUIRE_THROWS_WITH(
      config_with("{colour: red, number: 1, symbol: drop}", "{colour: red, number: 1, symbol: moon}"),
      Catch::Contains("moon"));
  REQUIRE_THROWS_WITH(
      config_with("{colour: red, number: 1, symbol: drop}", "{colour: red, number: 2, symbol: drop}"),
      Catch::Contains("listed twice"));
  REQUIRE_THROWS_WITH(config_with("  drop: 6\n", "  drop: 0\n"), Catch::Contains("tiles"));
  REQUIRE_THROWS_WITH(config_with("  - {colour: red, number: 1, symbol: drop}\n", ""),
                      Catch::Contains("between 48 and 64 cards"));
  REQUIRE_THROWS_WITH(config_with("  - {name: arrow, value: 6}\n", ""),
                      Catch::Contains("symbols") && Catch::Contains("expected exactly 6 symbols"));
  REQUIRE_THROWS_AS(config_with("\nreward: rank", "\nreward: glory"), ConfigError);
}

// Issue 55: a symbol renamed in `symbols` alone is named as no symbol, with the
// symbols there are and the hint, not as a stray key of `tiles`; a symbol
// needs a name.
TEST_CASE("contract: a symbol renamed in symbols alone, or without a name, is refused clearly",
          "[last_blast][config]") {
  REQUIRE_THROWS_WITH(config_with("{name: drop, value: 1}", "{name: water, value: 1}"),
                      Catch::Contains("key 'tiles.drop'") &&
                          Catch::Contains("'drop' is not a symbol of `symbols` ('water', 'hammers'") &&
                          Catch::Contains("renamed in `tiles` and `cards` too"));
  REQUIRE_THROWS_WITH(config_with("{name: drop, value: 1}", "{name: '', value: 1}"),
                      Catch::Contains("symbols[0].name") && Catch::Contains("a symbol needs a name"));
  REQUIRE_THROWS_WITH(config_with("{name: drop, value: 1}", "{name: '  ', value: 1}"),
                      Catch::Contains("a symbol needs a name"));
}

// legal_actions_mask asks is_legal only for the actions that can be legal in
// the current phase; every other action must be illegal too.
TEST_CASE("contract: the legal mask is is_legal of every action, at every decision",
          "[last_blast][contract]") {
  for (const Config* config : {&standard_config(), &alternate_config()}) {
    for (int players = kMinPlayers; players <= kMaxPlayers; ++players) {
      Rng rng(static_cast<uint64_t>(players));
      for (uint64_t game = 0; game < 10; ++game) {
        State s(*config, players, derive_seed(77, game));
        std::array<uint8_t, kNumActions> mask{};
        for (int decision = 0; !s.is_terminal(); ++decision) {
          s.legal_actions_mask(mask.data());
          for (Action a = 0; a < kNumActions; ++a)
            if ((mask[a] != 0) != s.is_legal(a))
              FAIL(players << " players, game " << game << ", decision " << decision << ": action " << a
                           << " masked " << int(mask[a]) << ", is_legal " << s.is_legal(a));
          s.apply(random_legal_action(mask.data(), kNumActions, rng));
        }
        s.legal_actions_mask(mask.data());
        REQUIRE(std::count(mask.begin(), mask.end(), 1) == 0);
      }
    }
  }
}

TEST_CASE("contract: an illegal action throws IllegalAction and changes nothing", "[last_blast][contract]") {
  State s(standard_config(), 3, 9);
  const std::string before = s.to_json().dump();
  const int not_mine = s.hand_card(1, 0);
  REQUIRE_THROWS_AS(s.apply(kPickBase + 2 * not_mine + kFront), IllegalAction);
  REQUIRE_THROWS_AS(s.apply(kDrawBlind), IllegalAction);
  REQUIRE_THROWS_AS(s.apply(move_to_row(0)), IllegalAction);
  REQUIRE_THROWS_AS(s.apply(-1), IllegalAction);
  REQUIRE_THROWS_AS(s.apply(kNumActions), IllegalAction);
  REQUIRE_THROWS_WITH(s.apply(kRemoveFront), Catch::Contains("remove the front card"));
  REQUIRE(s.to_json().dump() == before);
  // Row 4 does not exist with two players (3 rows).
  FlightSetup f{kField2, {{"amber 4 drop"}, {"amber 4 hammers"}}, {12, 12}};
  State flight = f.build();
  REQUIRE_THROWS_AS(flight.apply(move_to_row(3)), IllegalAction);
  // Once over, nothing is legal.
  f.phase = "over";
  f.mover = -1;
  f.round = 6;
  f.status = {"exited", "exited"};
  f.cubes = {{{0, 6}}, {{1, 6}}};
  f.moved = {true, true};
  State over = f.build();
  REQUIRE(over.current_player() == -1);
  REQUIRE_THROWS_AS(over.apply(move_to_row(0)), IllegalAction);
}

TEST_CASE("contract: bad JSON is a SerializationError", "[last_blast][json]") {
  const Json good = FlightSetup{kField2, {{"amber 4 drop"}, {"amber 4 hammers"}}, {12, 12}}.document();
  REQUIRE_NOTHROW(State::from_json(good, standard_config()));
  const auto broken = [&](auto edit) {
    Json doc = good;
    edit(doc);
    return doc;
  };
  const Config& c = standard_config();
  REQUIRE_THROWS_AS(State::from_json(Json::array(), c), SerializationError);
  REQUIRE_THROWS_WITH(State::from_json(broken([](Json& d) { d.erase("rockets"); }), c),
                      Catch::Contains("rockets"));
  REQUIRE_THROWS_WITH(State::from_json(broken([](Json& d) { d["rockets"][0][0] = "purple 9 moon"; }), c),
                      Catch::Contains("unknown card"));
  REQUIRE_THROWS_WITH(State::from_json(broken([](Json& d) { d["rockets"][0][1] = d["rockets"][1][1]; }), c),
                      Catch::Contains("times"));
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["players"] = 7; }), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["players"] = "two"; }), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["field"][0][0] = 3; }), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["field"][0][0] = "arrow"; }), c),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["flight"]["players"][0]["moved"] = true; }), c),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["rng"] = "x"; }), c), SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["draft"]["picks"][0] = 5; }), c),
                    SerializationError);
  REQUIRE_THROWS_AS(State::from_json(broken([](Json& d) { d["flight"]["players"][0]["row"] = 9; }), c),
                    SerializationError);
}

TEST_CASE("contract: documents round-trip exactly, chance included", "[last_blast][json]") {
  State s(standard_config(), 3, 77);
  Rng rng(5);
  for (int step = 0; step < 200 && !s.is_terminal(); ++step) {
    const State loaded = State::from_json(s.to_json(), standard_config());
    REQUIRE(loaded.to_json() == s.to_json());
    REQUIRE(loaded.to_string() == s.to_string());
    s.apply(heuristic_action(s, rng));
  }
  REQUIRE(s.is_terminal());
}

TEST_CASE("contract: action names use the rulebook's words", "[last_blast][text]") {
  State s = FlightSetup{kField2, {{"green 2 wheel"}, {"amber 4 hammers"}}, {12, 12}}.build();
  REQUIRE(s.action_to_string(pick("red 2 wheel", kBack)) == "pick red Jump Boost 2 (wheel) for the back");
  REQUIRE(s.action_to_string(kDrawBlind) == "draw blind from the deck instead of picking");
  REQUIRE(s.action_to_string(move_to_row(0)) ==
          "move to row 1 of column 1 (drop): 0 jump + 2 collision damage");
  REQUIRE(s.action_to_string(kRemoveFront) == "remove the front card (green Shield 2 (wheel))");
  REQUIRE(s.action_to_string(kPlaceBlindBack) == "place the drawn card at the back");
  REQUIRE(s.to_string().find("Player 0 (flying, score") != std::string::npos);
}

TEST_CASE("contract: conformance suite with the alternate rule", "[last_blast][conformance]") {
  testing::ConformanceOptions options;
  options.num_games = 25;
  options.overrides = "variants: {exploded_block_row: true}";
  for (int n = 2; n <= 4; ++n) {
    DYNAMIC_SECTION(n << " players") { testing::run_conformance("last_blast", n, options); }
  }
}

TEST_CASE("bot: the heuristic clearly beats random play", "[last_blast][bot]") {
  for (int n : {2, 4}) {
    const int games = 200;
    int wins = 0, losses = 0;
    for (int g = 0; g < games; ++g) {
      const int hero = g % n;  // seats rotated
      State s(standard_config(), n, derive_seed(2026, static_cast<uint64_t>(g)));
      Rng rng(static_cast<uint64_t>(g));
      while (!s.is_terminal()) {
        if (s.current_player() == hero) {
          s.apply(heuristic_action(s, rng));
        } else {
          std::vector<Action> legal;
          for (Action a = 0; a < kNumActions; ++a)
            if (s.is_legal(a)) legal.push_back(a);
          s.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        }
      }
      std::vector<float> r(static_cast<std::size_t>(n));
      s.returns(r.data());
      // A win: strictly ahead of every opponent.
      wins += r[hero] > 0.999f;
      losses += r[hero] < 0.0f;
    }
    const double rate = static_cast<double>(wins) / games;
    std::printf(
        "last_blast heuristic vs %d random, %d games, seats rotated: win rate %.3f (%d wins, %d losses)\n",
        n - 1, games, rate, wins, losses);
    CHECK(rate > (n == 2 ? 0.8 : 0.6));
  }
}

TEST_CASE("contract: any damaged document is rejected cleanly, never a crash", "[last_blast][json]") {
  // A mid-draft position; every leaf value replaced by values of other types
  // or out-of-range numbers must load or throw SerializationError.
  State s(standard_config(), 3, 12);
  Rng rng(3);
  for (int k = 0; k < 25; ++k) s.apply(heuristic_action(s, rng));
  const Json doc = s.to_json();
  const Json flat = doc.flatten();
  const std::vector<Json> replacements = {nullptr,       -1, 99, 1000000, "drop", "red 1 drop", Json::array(),
                                          Json::object()};
  int rejected = 0;
  for (const auto& leaf : flat.items()) {
    for (const Json& value : replacements) {
      Json damaged = doc;
      damaged[Json::json_pointer(leaf.key())] = value;
      try {
        State::from_json(damaged, standard_config());
      } catch (const SerializationError&) {
        ++rejected;
      }
    }
  }
  REQUIRE(rejected > 0);
}
