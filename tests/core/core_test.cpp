#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <thread>

#include "envs/core/config.h"
#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/returns.h"
#include "envs/core/rng.h"
#include "envs/core/yaml_document.h"

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

TEST_CASE("random_legal_action: the legal action of the drawn index, on any mask") {
  // The plain definition: list the legal actions, draw an index.
  auto listed = [](const std::vector<uint8_t>& mask, Rng& rng) -> Action {
    std::vector<Action> legal;
    for (int a = 0; a < static_cast<int>(mask.size()); ++a)
      if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
    if (legal.empty()) return -1;
    return legal[rng.below(static_cast<uint32_t>(legal.size()))];
  };
  Rng shape(5);
  for (int trial = 0; trial < 3000; ++trial) {
    // Sizes around the 8-entry words and the 64-entry blocks (up to a 970-id mask), densities
    // from empty to full and sparse ones like a game's (a few legal ids among ~1,000, so that
    // whole blocks are zero), and non-zero entries other than 1 (every non-zero byte is legal);
    // now and then a mask longer than the 4,096 ids whose block counts are kept.
    std::vector<uint8_t> mask(shape.below(40) + (trial % 50 == 0  ? 4070
                                                 : trial % 3 == 0 ? 400
                                                 : trial % 3 == 1 ? 940
                                                                  : 0));
    const uint32_t density = trial % 4 == 0 ? shape.below(31) : 10 * shape.below(101);  // per mille
    for (auto& m : mask)
      m = shape.below(1000) < density ? static_cast<uint8_t>(1 + shape.below(255) * (trial % 2)) : 0;
    Rng a(static_cast<uint64_t>(trial)), b(static_cast<uint64_t>(trial));
    INFO("trial " << trial << ", " << mask.size() << " actions");
    REQUIRE(random_legal_action(mask.data(), static_cast<int>(mask.size()), a) == listed(mask, b));
    REQUIRE(a == b);
  }
}

#if defined(ROCKETGYM_MASK_AVX2)
TEST_CASE("random_legal_action: AVX2 and SSE2 count a mask's blocks alike") {
  if (!detail::cpu_has_avx2()) return;  // the SSE2 count is the one random_legal_action uses
  Rng shape(9);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint8_t> mask(detail::kMaskBlock * (1 + shape.below(20)));
    const uint32_t density = trial % 2 == 0 ? shape.below(31) : 10 * shape.below(101);  // per mille
    for (auto& m : mask) m = shape.below(1000) < density ? static_cast<uint8_t>(1 + shape.below(255)) : 0;
    const int blocks = static_cast<int>(mask.size()) / detail::kMaskBlock;
    uint8_t plain[detail::kCountedBlocks], wide[detail::kCountedBlocks];
    REQUIRE(detail::count_blocks(mask.data(), blocks, plain) ==
            detail::count_blocks_avx2(mask.data(), blocks, wide));
    for (int b = 0; b < blocks; ++b) REQUIRE(plain[b] == wide[b]);
  }
}
#endif

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

TEST_CASE("returns: ties, equal scores and a lone seat give zero") {
  float out[4] = {9, 9, 9, 9};
  const double level[4] = {2, 2, 2, 2};
  for (RewardMode mode : {RewardMode::kRank, RewardMode::kWin, RewardMode::kScore}) {
    compute_returns(mode, 4, level, level, out);
    REQUIRE(out[0] == 0.0f);
    REQUIRE(out[3] == 0.0f);
  }
  // Nobody to beat: no reward to share.
  const double alone[1] = {5};
  out[0] = 9;
  compute_returns(RewardMode::kRank, 1, alone, alone, out);
  REQUIRE(out[0] == 0.0f);
  // Two winners of three share +1, the loser takes -1.
  const double shared[3] = {4, 4, 1};
  compute_returns(RewardMode::kWin, 3, shared, shared, out);
  REQUIRE(out[0] == Approx(0.5));
  REQUIRE(out[1] == Approx(0.5));
  REQUIRE(out[2] == Approx(-1.0));
}

TEST_CASE("returns: the reward key is read and named, a bad one refused") {
  REQUIRE(parse_reward_mode(ConfigNode::parse("players: 2\n", "game.yaml")) == RewardMode::kRank);
  for (const char* name : {"rank", "win", "score"}) {
    const RewardMode mode =
        parse_reward_mode(ConfigNode::parse(std::string("reward: ") + name + "\n", "game.yaml"));
    REQUIRE(std::string(reward_mode_name(mode)) == name);
  }
  REQUIRE_THROWS_WITH(parse_reward_mode(ConfigNode::parse("reward: glory\n", "game.yaml")),
                      Catch::Contains("game.yaml") && Catch::Contains("reward") && Catch::Contains("glory"));
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
  REQUIRE_THROWS_WITH(root.get_int("n"), Catch::Contains("v.yaml:1") && Catch::Contains("whole number"));
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
  REQUIRE_THROWS_WITH(ConfigNode::from_settings({"a.b.=1"}), Catch::Contains("empty key"));
  REQUIRE_THROWS_WITH(ConfigNode::from_settings({"a=[1"}), Catch::Contains("not valid YAML"));
}

// --- issue 16: a config is read strictly, and errors say where a value came from ---

namespace {

std::string error_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no ConfigError)";
}

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("rocketgym_core_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// A reader blocked on opening `fifo` (old behaviour) is released after a
// second by a writer that opens and closes it; a reader that never opened it
// leaves the writer's non-blocking open to fail, and nothing waits.
std::thread release_fifo_later(const std::string& fifo) {
  return std::thread([fifo] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  });
}

}  // namespace

TEST_CASE("config: a key present without a value is an error, not the default") {
  const ConfigNode root = ConfigNode::parse("a: 1\nb:\nc: ~\nd: null\nblock:\n", "v.yaml");
  CHECK_THAT(error_of([&] { root.get_int("b", 5, 0, 10); }),
             Catch::Contains("v.yaml:2") && Catch::Contains("key 'b'") && Catch::Contains("no value"));
  CHECK_THAT(error_of([&] { root.get_string("c", "x"); }),
             Catch::Contains("v.yaml:3") && Catch::Contains("'c'"));
  CHECK_THAT(error_of([&] { root.get_bool("d", true); }), Catch::Contains("no value"));
  CHECK_THAT(error_of([&] { root.get_double("b", 0.5, 0, 1); }), Catch::Contains("no value"));
  CHECK_THAT(error_of([&] { root.get_choice("c", "x", {"x", "y"}); }), Catch::Contains("no value"));
  CHECK_THAT(error_of([&] { root.get_int("b"); }), Catch::Contains("no value"));
  CHECK_THAT(error_of([&] { root.child_or_empty("block"); }),
             Catch::Contains("v.yaml:5") && Catch::Contains("no value"));
  CHECK(root.get_int("absent", 5, 0, 10) == 5);  // an absent key still takes the default
  CHECK_FALSE(root.has("d"));                    // an explicit null reads as absent for optional blocks

  // `--set characters.dad=` is refused where it is typed, and so is a null
  // that would replace a value of the config.
  CHECK_THAT(error_of([] { ConfigNode::from_settings({"characters.dad="}); }),
             Catch::Contains("--set characters.dad=") && Catch::Contains("no value"));
  const ConfigNode game = ConfigNode::parse("characters:\n  dad: 3\n", "game.yaml");
  const ConfigNode nulled = game.merged(ConfigNode::from_settings({"characters.dad=null"}));
  CHECK_THAT(error_of([&] { nulled.child("characters").get_int("dad", 0, 0, 16); }),
             Catch::Contains("--set characters.dad=null") && Catch::Contains("no value"));
}

TEST_CASE("config: a key given twice in one mapping is an error naming both lines") {
  CHECK_THAT(error_of([] { ConfigNode::parse("alpha: 1\nbeta:\n  gamma: 2\n  gamma: 3\n", "d.yaml"); }),
             Catch::Contains("d.yaml:4") && Catch::Contains("duplicate key 'beta.gamma'") &&
                 Catch::Contains("line 3"));
  CHECK_THAT(error_of([] { ConfigNode::parse("a: 1\nb: 2\na: 3\n", "top.yaml"); }),
             Catch::Contains("top.yaml:3") && Catch::Contains("'a'") && Catch::Contains("line 1"));
  CHECK_THAT(error_of([] { ConfigNode::parse("list:\n  - {x: 1, x: 2}\n", "flow.yaml"); }),
             Catch::Contains("duplicate key 'list[0].x'"));
  CHECK_THAT(error_of([] { ConfigNode::from_settings({"a={b: 1, b: 2}"}); }),
             Catch::Contains("--set a={b: 1, b: 2}") && Catch::Contains("duplicate key 'a.b'"));
  // Distinct keys, also "3" and 3 written differently, are fine only once.
  CHECK_THAT(error_of([] { ConfigNode::parse("copies: {3: 1, \"3\": 2}\n", "q.yaml"); }),
             Catch::Contains("duplicate key 'copies.3'"));
  CHECK_NOTHROW(ConfigNode::parse("a: {x: 1}\nb: {x: 2}\n", "ok.yaml"));
}

TEST_CASE("config: keys are plain names, and aliases cannot blow a text up") {
  REQUIRE_THROWS_WITH(
      ConfigNode::parse("outer:\n  ? [a, b]\n  : 1\n", "keys.yaml"),
      Catch::Contains("keys.yaml:2") && Catch::Contains("a key in 'outer' is not a plain name"));
  // Seven levels of ten aliases each: 10^7 values from a few lines.
  std::string bomb = "l0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  for (int level = 1; level <= 7; ++level) {
    const std::string below = "*l" + std::to_string(level - 1);
    bomb += "l" + std::to_string(level) + ": &l" + std::to_string(level) + " [" + below;
    for (int k = 1; k < 10; ++k) bomb += ", " + below;
    bomb += "]\n";
  }
  REQUIRE_THROWS_WITH(ConfigNode::parse(bomb, "bomb.yaml"),
                      Catch::Contains("bomb.yaml") && Catch::Contains("values (after expanding aliases)"));
  // A C1 control character (U+0080, two bytes in UTF-8) is no text either.
  REQUIRE_THROWS_WITH(ConfigNode::parse("a: 1\nb: x\xC2\x80y\n", "c1.yaml"),
                      Catch::Contains("c1.yaml:2: not a YAML text file (control character: byte 0xC2"));
}

TEST_CASE("config: deep nesting names the file and the limit, whichever parser finds it") {
  // 200 levels pass yaml-cpp and meet the config's own check; 600 meet
  // yaml-cpp's depth guard first: the same message either way.
  for (const std::size_t levels : {200, 600}) {
    INFO(levels);
    const std::string nested = std::string(levels, '[') + std::string(levels, ']');
    CHECK_THAT(error_of([&] { ConfigNode::parse("a: " + nested + "\n", "d.yaml"); }),
               Catch::Contains("d.yaml:1: ") && Catch::Contains("nested more than 100 levels deep"));
    CHECK_THAT(error_of([&] { ConfigNode::from_settings({"a=" + nested}); }),
               Catch::Contains("--set a=") && Catch::Contains("nested more than 100 levels deep"));
  }
}

TEST_CASE("config: errors about overridden values name the --set or the file they came from") {
  const ConfigNode game = ConfigNode::parse("max_turns: 10\ncharacters:\n  dad: 3\n  mom: 2\n", "game.yaml");
  const ConfigNode set = game.merged(ConfigNode::from_settings({"characters.dad=99", "max_turns=many"}));
  const std::string range = error_of([&] { set.child("characters").get_int("dad", 0, 0, 16); });
  CHECK_THAT(range, Catch::Contains("<command line>") && Catch::Contains("--set characters.dad=99") &&
                        Catch::Contains("characters.dad") && Catch::Contains("out of range"));
  CHECK_THAT(range, !Catch::Contains("game.yaml"));
  CHECK_THAT(error_of([&] { set.get_int("max_turns"); }), Catch::Contains("--set max_turns=many"));
  // Untouched values keep their own file and line.
  CHECK_THAT(error_of([&] { set.child("characters").get_int("mom", 0, 0, 1); }),
             Catch::Contains("game.yaml:4"));
  // A misspelt key typed on the command line.
  const ConfigNode typo = game.merged(ConfigNode::from_settings({"characters.dda=1"}));
  CHECK_THAT(error_of([&] {
               typo.child("characters").expect_keys({"dad", "mom"});
             }),
             Catch::Contains("--set characters.dda=1") && Catch::Contains("unknown key 'characters.dda'"));
  const ConfigNode new_block = game.merged(ConfigNode::from_settings({"extras.x=1"}));
  CHECK_THAT(error_of([&] {
               new_block.expect_keys({"max_turns", "characters"});
             }),
             Catch::Contains("--set extras.x=1"));
  // An override file: its own name and line.
  const ConfigNode file = game.merged(ConfigNode::parse("# a comment\ncharacters:\n  dad: x\n", "over.yaml"));
  CHECK_THAT(error_of([&] { file.child("characters").get_int("dad"); }), Catch::Contains("over.yaml:3"));
  // Overrides of overrides (a training config's game.overrides given by --set).
  const ConfigNode train = ConfigNode::parse("game:\n  overrides:\n    max_turns: 5\n", "train.yaml")
                               .merged(ConfigNode::from_settings({"game.overrides.characters.dad=40"}));
  const ConfigNode twice = game.merged(train.child("game").child("overrides"));
  CHECK_THAT(error_of([&] { twice.child("characters").get_int("dad", 0, 0, 16); }),
             Catch::Contains("--set game.overrides.characters.dad=40"));
  CHECK_THAT(error_of([&] { twice.get_int("max_turns", 0, 0, 1); }), Catch::Contains("train.yaml:3"));
  // The label of a flag is what the user typed.
  const ConfigNode flag = ConfigNode::from_labelled_settings({{"game.players=9", "--players 9"}});
  CHECK_THAT(error_of([&] { flag.child("game").get_int("players", 2, 2, 4); }),
             Catch::Contains("<command line> (--players 9)"));
}

TEST_CASE("config: a range starting at another key's value names both keys and where each came from") {
  const ConfigNode game = ConfigNode::parse("low: 5\nhigh: 9\n", "game.yaml");
  const auto high = [](const ConfigNode& node) {
    return node.get_int_at_least("high", 9, "low", node.get_int("low", 5, 0, 50), 50);
  };
  CHECK(high(game) == 9);
  // The user's --set of `low` against the file's `high`: the --set is named, not only the file.
  const std::string conflict = error_of([&] { high(game.merged(ConfigNode::from_settings({"low=10"}))); });
  CHECK(conflict ==
        "game.yaml:2: key 'high' must be at least key 'low', but it is 9 (from game.yaml:2) and low is 10 "
        "(from <command line> (--set low=10))");
  // `high` left out: its default, and the error is placed at `low`.
  CHECK(
      error_of([&] { high(ConfigNode::parse("low: 10\n", "own.yaml")); }) ==
      "own.yaml:1: key 'high' must be at least key 'low', but it is 9 (the default: the key is left out) and "
      "low is 10 (from own.yaml:1)");
  // Any other fault is the key's own, as get_int says it.
  CHECK_THAT(
      error_of([&] { high(game.merged(ConfigNode::from_settings({"high=51"}))); }),
      Catch::Contains("--set high=51") && Catch::Contains("key 'high': value 51 out of range [5, 50]"));
  CHECK_THAT(error_of([&] { high(ConfigNode::parse("high: x\n", "x.yaml")); }),
             Catch::Contains("key 'high': expected a whole number"));
  // A game's own such key (Lift Off's income_max), with the shipped value of the other.
  CHECK_THAT(
      error_of([] { load_game("lift_off", "", ConfigNode::from_settings({"tracks.income_start=10"})); }),
      Catch::Contains("key 'tracks.income_max' must be at least key 'tracks.income_start', but it is 9") &&
          Catch::Contains("tracks.income_start is 10 (from <command line> (--set tracks.income_start=10))"));
}

TEST_CASE("config: a game loaded with --set overrides names the --set in its errors") {
  const auto id = Registry::instance().ids().front();
  CHECK_THAT(error_of([&] { load_game(id, "", ConfigNode::from_settings({"no_such_key_anywhere=1"})); }),
             Catch::Contains("--set no_such_key_anywhere=1") && Catch::Contains("no_such_key_anywhere"));
}

TEST_CASE("config: only regular text files of limited size are read") {
  // A FIFO is refused at once instead of blocking; /dev/null is no config either.
  const std::string fifo = temp_file("fifo.yaml");
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::thread writer = release_fifo_later(fifo);
  const std::string fifo_error = error_of([&] { ConfigNode::load_file(fifo); });
  writer.join();
  ::unlink(fifo.c_str());
  CHECK_THAT(fifo_error, Catch::Contains(fifo) && Catch::Contains("not a regular file"));
  CHECK_THAT(error_of([] { ConfigNode::load_file("/dev/null"); }), Catch::Contains("not a regular file"));

  // Too large: refused by its size, before it is parsed.
  const std::string big = temp_file("big.yaml");
  {
    std::ofstream out(big);
    out << "a: 1\n";
    const std::string comment = "# " + std::string(1000, 'x') + "\n";
    for (int i = 0; i < 1100; ++i) out << comment;
  }
  CHECK_THAT(error_of([&] { ConfigNode::load_file(big); }),
             Catch::Contains(big) && Catch::Contains("too large"));
  std::filesystem::remove(big);

  // Binary data: a clear message with the offset, not a parser's guess.
  const std::string binary = temp_file("binary.yaml");
  {
    std::ofstream out(binary, std::ios::binary);
    out << "a: 1\nb: \x01\x02\xff\xfe" << std::string(3, '\0') << "\n";
  }
  CHECK_THAT(error_of([&] { ConfigNode::load_file(binary); }), Catch::Contains(binary + ":2") &&
                                                                   Catch::Contains("not a YAML text file") &&
                                                                   Catch::Contains("offset 8"));
  std::filesystem::remove(binary);
  CHECK_THAT(error_of([] { ConfigNode::parse("name: caf\xc3\n", "utf.yaml"); }),
             Catch::Contains("not UTF-8"));
  CHECK(ConfigNode::parse("name: caf\xc3\xa9\n", "utf.yaml").get_string("name") == "caf\xc3\xa9");
  // An alias that contains itself is refused, not followed for ever.
  CHECK_THAT(error_of([] { ConfigNode::parse("a: &x [*x]\n", "self.yaml"); }),
             !Catch::Contains("no ConfigError"));
}

// --- one document, one way to write a number ---------------------------------------

TEST_CASE("config: a second YAML document is an error naming its line, never dropped") {
  for (const char* text : {"reward: rank\n---\nreward: bogus\n", "reward: rank\n...\nreward: bogus\n",
                           "---\n---\nreward: bogus\n", "reward: rank\n---\n"}) {
    INFO(text);
    CHECK_THROWS_WITH(ConfigNode::parse(text, "two.yaml"),
                      Catch::Contains("two.yaml:") && Catch::Contains("a second YAML document"));
  }
  CHECK_THROWS_WITH(ConfigNode::parse("reward: rank\n\n---\nreward: bogus\n", "two.yaml"),
                    Catch::StartsWith("two.yaml:3: a second YAML document"));
  // A broken second document is a syntax error, not ignored.
  CHECK_THROWS_WITH(ConfigNode::parse("reward: rank\n---\nfoo: [1, 2\n", "two.yaml"),
                    Catch::Contains("two.yaml:") && Catch::Contains("YAML syntax error"));
  // One document, with its markers, is fine.
  CHECK(ConfigNode::parse("---\nreward: rank\n...\n", "one.yaml").get_string("reward") == "rank");
  CHECK(ConfigNode::parse("reward: rank\n...\n# a comment\n", "one.yaml").get_string("reward") == "rank");
  CHECK_THROWS_WITH(ConfigNode::from_settings({"a=1\n---\n2"}),
                    Catch::Contains("--set a=") && Catch::Contains("a second YAML document"));
  CHECK_THROWS_WITH(load_game("lift_off", "", "reward: rank\n---\nreward: bogus"),
                    Catch::Contains("<overrides>:2: a second YAML document"));
  // Text on which yaml-cpp 0.7's LoadAll never returned (a null document
  // after each error, without end): refused as YAML it cannot read.
  for (const char* text : {",\n", "a: 1\n,\n"}) {
    INFO(text);
    CHECK_THROWS_WITH(ConfigNode::parse(text, "broken.yaml"),
                      Catch::Contains("broken.yaml:") && Catch::Contains("YAML syntax error"));
  }
}

TEST_CASE("config: whole numbers are plain decimal, never octal or hex") {
  const ConfigNode root =
      ConfigNode::parse("octal: 010\nhex: 0x1F\nplus: +8\nzero: 0\nminus: -8\nlist: [1, 010]\n", "n.yaml");
  for (const char* key : {"octal", "hex", "plus"}) {
    INFO(key);
    CHECK_THROWS_WITH(root.get_int(key, 1, -100, 100),
                      Catch::Contains("key '" + std::string(key) + "'") &&
                          Catch::Contains("expected a whole number in decimal, like 8"));
  }
  CHECK(root.get_int("zero", 1, -100, 100) == 0);
  CHECK(root.get_int("minus", 1, -100, 100) == -8);
  CHECK_THROWS_WITH(root.get_int_list("list"), Catch::Contains("list[1]") && Catch::Contains("decimal"));
  // The same text from --set.
  CHECK_THROWS_WITH(ConfigNode::from_settings({"run.seed=010"}).child("run").get_int("seed", 1, 0, 100),
                    Catch::Contains("--set run.seed=010") && Catch::Contains("whole number in decimal"));
  CHECK_THROWS_WITH(
      load_game("lift_off", "", "tracks: {income_start: 9, income_max: 010}"),
      Catch::Contains("tracks.income_max") && Catch::Contains("decimal") && !Catch::Contains("value 8"));
}

TEST_CASE("config: numbers are decimal; hex floats, inf and nan are not numbers") {
  const ConfigNode root = ConfigNode::parse(
      "a: 1e-4\nb: 0.5\nc: 5E6\nd: .5\nhex: 0x1p3\ninf: .inf\nnan: .nan\noctal: 010\nhuge: 1e400\n",
      "f.yaml");
  CHECK(root.get_double("a", 0, 0, 1) == 1e-4);
  CHECK(root.get_double("b", 0, 0, 1) == 0.5);
  CHECK(root.get_double("c", 0, 0, 1e7) == 5e6);
  CHECK(root.get_double("d", 0, 0, 1) == 0.5);
  for (const char* key : {"hex", "inf", "nan", "octal"}) {
    INFO(key);
    CHECK_THROWS_WITH(root.get_double(key, 0, -1e9, 1e9), Catch::Contains("expected a number in decimal"));
  }
  // Too large for a double is out of range, with the range.
  CHECK_THROWS_WITH(root.get_double("huge", 0, 0, 1e7),
                    Catch::Contains("key 'huge': value 1e400 out of range [0, 1e+07]"));
  CHECK_THROWS_WITH(root.get_double("huge"), Catch::Contains("too large"));
}

TEST_CASE("config: a quoted number is text, refused where a number is needed") {
  const ConfigNode root = ConfigNode::parse("a: \"10\"\nb: '10'\nc: 10\nd: !!str 10\ne: '0.5'\n", "q.yaml");
  for (const char* key : {"a", "b", "d"}) {
    INFO(key);
    CHECK_THROWS_WITH(root.get_int(key, 1, 0, 100), Catch::Contains("key '" + std::string(key) + "'") &&
                                                        Catch::Contains("not quoted text"));
  }
  CHECK(root.get_int("c", 1, 0, 100) == 10);
  CHECK_THROWS_WITH(root.get_double("e", 0, 0, 1), Catch::Contains("not quoted text"));
  // JSON (Python's dicts) quotes its strings; --set values are plain.
  CHECK_THROWS_WITH(load_game("lift_off", "", R"({"setup": {"start_money": "10"}})"),
                    Catch::Contains("setup.start_money") && Catch::Contains("not quoted text"));
  CHECK(ConfigNode::from_settings({"a=10"}).get_int("a", 1, 0, 100) == 10);
  CHECK_THROWS_WITH(ConfigNode::from_settings({"a=\"10\""}).get_int("a", 1, 0, 100),
                    Catch::Contains("not quoted text"));
}

TEST_CASE("config: true and false are written plain; yes, on and a quoted \"false\" are refused") {
  const ConfigNode root =
      ConfigNode::parse("t: true\nf: false\nq: \"false\"\ny: yes\no: on\nn: 0\nl: [true]\n", "b.yaml");
  CHECK(root.get_bool("t", false));
  CHECK_FALSE(root.get_bool("f", true));
  CHECK_THROWS_WITH(root.get_bool("q", true),
                    Catch::Contains("key 'q'") && Catch::Contains("not quoted text"));
  for (const char* key : {"y", "o", "n", "l"}) {
    INFO(key);
    CHECK_THROWS_WITH(root.get_bool(key, false), Catch::Contains("key '" + std::string(key) + "'") &&
                                                     Catch::Contains("expected true or false"));
  }
  CHECK_FALSE(ConfigNode::from_settings({"a=false"}).get_bool("a", true));
}

TEST_CASE("config: out-of-range values say so, with the range and a short value") {
  CHECK_THROWS_WITH(load_game("lift_off", "", "setup: {score_start_by_seat: [-1099511627776, 4, 6, 8]}"),
                    Catch::Contains("score_start_by_seat[0]: value -1099511627776 out of range [0, 1000]"));
  const ConfigNode root =
      ConfigNode::parse("big: 99999999999999999\nlong: 1" + std::string(60, '0') + "\n", "r.yaml");
  CHECK_THROWS_WITH(root.get_double("big", 1, 1, 1e15),
                    Catch::Contains("value 99999999999999999 out of range [1, 1e+15]"));
  const std::string long_error = error_of([&] { root.get_int("long", 1, 1, 10); });
  CHECK_THAT(long_error, Catch::Contains("key 'long': value out of range [1, 10]"));
  CHECK(long_error.size() < 100);
}

TEST_CASE("config: a key longer than the limit is refused naming its start") {
  const std::string key(kMaxConfigKeyLength + 1, 'k');
  for (const std::string& text : {"{\"" + key + "\": 1}", key + ": 1\n"}) {
    const std::string message = error_of([&] { ConfigNode::parse(text, "<overrides>"); });
    CHECK_THAT(message, Catch::Contains("<overrides>:1: a key in '<top>' is longer than") &&
                            Catch::Contains("(it starts 'kkkkkkkkkkkkkkkkkkkk...')"));
    CHECK(message.size() < 200);
  }
  CHECK_THROWS_WITH(ConfigNode::from_settings({"a." + key + "=1"}), Catch::Contains("is longer than"));
  CHECK_NOTHROW(ConfigNode::parse(std::string(kMaxConfigKeyLength, 'k') + ": 1\n", "ok.yaml"));
  // Past 1024 characters yaml-cpp reads no key at all and says the flow or map
  // is broken: the message says why, without echoing the key.
  const std::string huge(1100, 'k');
  for (const std::string& text : {"{" + huge + ": 1}", "x: {" + huge + ": 1}", huge + ": 1\n"}) {
    const std::string message = error_of([&] { ConfigNode::parse(text, "<overrides>"); });
    CHECK_THAT(message, Catch::Contains("a YAML key is at most 1024 characters"));
    CHECK(message.find(std::string(40, 'k')) == std::string::npos);
  }
  CHECK_THAT(error_of([&] { ConfigNode::parse("{a: 1", "<overrides>"); }),
             !Catch::Contains("1024 characters"));
}
