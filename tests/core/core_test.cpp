#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <set>

#include "envs/core/config.h"
#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/returns.h"
#include "envs/core/rng.h"

using namespace rocketgym;

TEST_CASE("rng: seeded, copyable, unbiased range") {
  Rng a(42), b(42), c(43);
  REQUIRE(a.next() == b.next());
  REQUIRE(a.next() != c.next());
  Rng copy = a;
  REQUIRE(copy.next() == a.next());
  int counts[6] = {};
  for (int i = 0; i < 60000; ++i) ++counts[a.below(6)];
  for (int c6 : counts) REQUIRE(std::abs(c6 - 10000) < 600);
  for (int i = 0; i < 1000; ++i) {
    const int x = a.uniform_int(-2, 3);
    REQUIRE(x >= -2);
    REQUIRE(x <= 3);
  }
  REQUIRE(rng_from_json(rng_to_json(a)) == a);
  REQUIRE_THROWS_AS(rng_from_json(Json::parse("[1,2,3]")), SerializationError);
}

TEST_CASE("derived seeds differ per index") {
  std::set<uint64_t> seen;
  for (uint64_t i = 0; i < 1000; ++i) seen.insert(derive_seed(7, i));
  REQUIRE(seen.size() == 1000);
}

TEST_CASE("returns: rank, win and score modes") {
  float out[4];
  const double standing[4] = {3, 1, 1, 0};
  const double score[4] = {30, 10, 10, 0};
  compute_returns(RewardMode::kRank, 4, standing, score, out);
  REQUIRE(out[0] == Approx(1.0));
  REQUIRE(out[1] == Approx(0.0));
  REQUIRE(out[2] == Approx(0.0));
  REQUIRE(out[3] == Approx(-1.0));
  compute_returns(RewardMode::kWin, 4, standing, score, out);
  REQUIRE(out[0] == Approx(1.0));
  REQUIRE(out[1] == Approx(-1.0 / 3));
  compute_returns(RewardMode::kScore, 4, standing, score, out);
  REQUIRE(out[0] == Approx(1.0));
  REQUIRE(out[0] + out[1] + out[2] + out[3] == Approx(0.0).margin(1e-6));
  const double two[2] = {1, 0};
  compute_returns(RewardMode::kRank, 2, two, two, out);
  REQUIRE(out[0] == 1.0f);
  REQUIRE(out[1] == -1.0f);
  const double tie[2] = {1, 1};
  compute_returns(RewardMode::kWin, 2, tie, tie, out);
  REQUIRE(out[0] == 0.0f);
}

TEST_CASE("config: unknown keys name file, line and key") {
  const ConfigNode root = ConfigNode::parse("alpha: 1\nbeta:\n  gamma: 2\n  typo: 3\n", "test.yaml");
  REQUIRE_NOTHROW(root.expect_keys({"alpha", "beta"}));
  try {
    root.child("beta").expect_keys({"gamma"});
    FAIL("expected ConfigError");
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    REQUIRE(msg.find("test.yaml:4") != std::string::npos);
    REQUIRE(msg.find("beta.typo") != std::string::npos);
  }
  REQUIRE_THROWS_AS(root.expect_keys({"alpha"}), ConfigError);
}

TEST_CASE("config: typed values are checked") {
  const ConfigNode root = ConfigNode::parse("n: seven\nm: 12\nflag: maybe\nmode: fast\n", "v.yaml");
  REQUIRE_THROWS_WITH(root.get_int("n"), Catch::Contains("v.yaml:1") && Catch::Contains("integer"));
  REQUIRE_THROWS_WITH(root.get_int("m", 1, 0, 10), Catch::Contains("out of range"));
  REQUIRE(root.get_int("m", 1, 0, 20) == 12);
  REQUIRE(root.get_int("missing", 5, 0, 10) == 5);
  REQUIRE_THROWS_AS(root.get_bool("flag", false), ConfigError);
  REQUIRE_THROWS_WITH(root.get_choice("mode", "slow", {"slow", "medium"}), Catch::Contains("fast"));
  REQUIRE_THROWS_WITH(root.get_int("absent"), Catch::Contains("missing"));
}

TEST_CASE("config: syntax errors and missing files are reported") {
  REQUIRE_THROWS_WITH(ConfigNode::parse("a: [1, 2\n", "bad.yaml"), Catch::Contains("bad.yaml"));
  REQUIRE_THROWS_WITH(ConfigNode::load_file("/nonexistent/x.yaml"), Catch::Contains("cannot open"));
  REQUIRE_THROWS_WITH(ConfigNode::parse("- 1\n- 2\n", "list.yaml"), Catch::Contains("mapping"));
}

TEST_CASE("config: overrides merge deeply") {
  const ConfigNode base = ConfigNode::parse("a: 1\nb:\n  c: 2\n  d: 3\n", "base.yaml");
  const ConfigNode merged = base.merged(ConfigNode::parse("b:\n  d: 4\n", "<overrides>"));
  REQUIRE(merged.get_int("a") == 1);
  REQUIRE(merged.child("b").get_int("c") == 2);
  REQUIRE(merged.child("b").get_int("d") == 4);
}

TEST_CASE("registry: every game loads its built-in config and rejects bad input") {
  const auto ids = Registry::instance().ids();
  REQUIRE_THROWS_WITH(load_game("no_such_game"), Catch::Contains("unknown game"));
  for (const auto& id : ids) {
    INFO(id);
    REQUIRE(!builtin_game_config(id).empty());
    auto game = load_game(id);
    const GameInfo& info = game->info();
    REQUIRE(info.id == id);
    REQUIRE(info.num_actions > 0);
    REQUIRE(info.max_decisions > 0);
    REQUIRE_THROWS_AS(game->new_state(info.min_players - 1, 1), Error);
    REQUIRE_THROWS_AS(game->new_state(info.max_players + 1, 1), Error);
    REQUIRE_THROWS_WITH(load_game(id, "", "no_such_key_anywhere: 1\n"),
                        Catch::Contains("no_such_key_anywhere"));
    REQUIRE_THROWS_AS(game->state_from_json("{not json"), SerializationError);
    REQUIRE_THROWS_AS(game->state_from_json("{}"), SerializationError);
    REQUIRE_THROWS_AS(game->state_from_json("[1, 2]"), SerializationError);
    auto s = game->new_state(info.min_players, 3);
    REQUIRE_THROWS_AS(s->encode(-1), Error);
    REQUIRE_THROWS_AS(s->encode(info.min_players), Error);
  }
}

TEST_CASE("config: command-line settings become a nested mapping") {
  const ConfigNode set = ConfigNode::from_settings({"a.b=1", "a.c=[1, 2]", "d=text"});
  REQUIRE(set.child("a").get_int("b") == 1);
  REQUIRE(set.child("a").get_int_list("c") == std::vector<int>{1, 2});
  REQUIRE(set.get_string("d") == "text");
  REQUIRE_THROWS_WITH(ConfigNode::from_settings({"novalue"}), Catch::Contains("key=value"));
  REQUIRE_THROWS_WITH(ConfigNode::from_settings({"a..b=1"}), Catch::Contains("empty key"));
  REQUIRE_THROWS_WITH(ConfigNode::from_settings({"a=[1"}), Catch::Contains("not valid YAML"));
}
