// The training configs' key tables (training/config_yaml.h, ppo/train_config,
// alphazero/az_config): every key of every block reads, is written to the
// resolved config and reads back; unknown keys are refused naming them; a
// value out of range gets the same message from YAML and from `--set`; the
// reference tables are generated from the same tables.
#include <catch2/catch.hpp>
#include <string>

#include "tests/key_table_checks.h"
#include "training/alphazero/train_config.h"
#include "training/cli/torch/config_docs.h"
#include "training/ppo/train_config.h"

using namespace rocketgym;

namespace {

const char* kGame = "game: {id: launchpad23}\n";

// What follows the location in a ConfigError's message about `dotted`
// ("ppo.envs\": value 0 out of range ..."): the location names a file and
// line, or the --set.
std::string after_location(const std::string& message, const std::string& dotted) {
  const auto at = message.rfind(dotted);
  return at == std::string::npos ? message : message.substr(at);
}

// A config with `entries` ("key: value") in `block`, beside the game's id.
std::string config_with(const std::string& algorithm, const std::string& block, const std::string& entries) {
  if (block == "game") return algorithm + "game: {id: launchpad23, " + entries + "}\n";
  return algorithm + kGame + block + ": {" + entries + "}\n";
}

template <class C>
void check_schema(const ConfigSchema<C>& schema, const C& defaults, const std::string& algorithm) {
  for (const auto& block : schema.blocks()) {
    INFO("block " << block.name);
    // Blocks read by their own code (game:, search:) are checked where that code is.
    if (!block.read) {
      key_checks::check_round_trips(block.keys, defaults);
      key_checks::check_refusals(block.keys, defaults);
    }
    // Through the whole config too: an unknown key names its line and key.
    CHECK_THROWS_WITH(
        C::from_yaml(ConfigNode::parse(config_with(algorithm, block.name, "no_such_key: 1"), "t.yaml")),
        Catch::Contains("no_such_key") && Catch::Contains("t.yaml"));
    // A value out of range: the same words from the file and from --set.
    for (const auto& key : block.keys.keys()) {
      if (key.type != "integer" && key.type != "number") continue;
      const std::string dotted = block.name + "." + key.name;
      const std::string beyond =
          key.type == "integer" ? key_checks::whole_beyond(key.max, 2) : number_text(key.max * 2 + 1);
      INFO(dotted << "=" << beyond);
      std::string from_file, from_set;
      try {
        C::from_yaml(
            ConfigNode::parse(config_with(algorithm, block.name, key.name + ": " + beyond), "t.yaml"));
      } catch (const ConfigError& e) {
        from_file = e.what();
      }
      try {
        C::from_yaml(ConfigNode::parse(algorithm + kGame, "t.yaml")
                         .merged(ConfigNode::from_settings({dotted + "=" + beyond})));
      } catch (const ConfigError& e) {
        from_set = e.what();
      }
      CHECK_THAT(from_file, Catch::Contains("t.yaml:"));
      CHECK_THAT(from_set, Catch::Contains("--set " + dotted + "=" + beyond));
      CHECK(!from_file.empty());
      CHECK(after_location(from_file, dotted) == after_location(from_set, dotted));
    }
  }
}

// Every key of every block is in the resolved config (game.overrides only
// when there are some).
template <class C>
void check_resolved_has_every_key(const C& c) {
  const YAML::Node written = YAML::Load(c.to_yaml());
  for (const auto& block : C::schema().blocks())
    for (const auto& key : block.keys.keys()) {
      if (block.name == "game" && key.name == "overrides") continue;
      INFO(block.name << "." << key.name);
      CHECK(written[block.name][key.name].IsDefined());
    }
}

}  // namespace

TEST_CASE("PPO config: every key of every block round-trips, refuses what it must", "[keys][ppo]") {
  const ppo::TrainConfig defaults = ppo::TrainConfig::from_yaml(ConfigNode::parse(kGame, "t.yaml"));
  check_schema(ppo::TrainConfig::schema(), defaults, "");
  check_resolved_has_every_key(defaults);
  // The shared blocks are the same table in both configs.
  CHECK(ppo::TrainConfig::schema().blocks().back().keys.names() ==
        alphazero::TrainConfig::schema().blocks().back().keys.names());
}

TEST_CASE("search-based config: every key of every block round-trips, refuses what it must",
          "[keys][alphazero]") {
  const alphazero::TrainConfig defaults = alphazero::TrainConfig::from_yaml(
      ConfigNode::parse(std::string("algorithm: alphazero\n") + kGame, "t.yaml"));
  check_schema(alphazero::TrainConfig::schema(), defaults, "algorithm: alphazero\n");
  check_resolved_has_every_key(defaults);
  // Every search key is written under search: and the trainer's defaults are the table's.
  const YAML::Node written = YAML::Load(defaults.to_yaml());
  for (const auto& key : mcts::search_keys().keys()) CHECK(written["search"][key.name].IsDefined());
  CHECK(written["search"]["simulations"].as<int>() == 32);
  CHECK(written["search"]["root"].as<std::string>() == "gumbel");
}

TEST_CASE("run.snapshot_minutes and game keys read and write through their tables", "[keys]") {
  const ppo::TrainConfig c = ppo::TrainConfig::from_yaml(
      ConfigNode::parse("game: {id: launchpad23, players: 3, overrides: {max_turns: 50}}\nrun: "
                        "{snapshot_minutes: [10, 0.5, 10]}\n",
                        "t.yaml"));
  CHECK(c.snapshot_minutes == std::vector<double>{0.5, 10.0});
  CHECK(c.game.players == 3);
  const ppo::TrainConfig again = ppo::TrainConfig::from_yaml(ConfigNode::parse(c.to_yaml(), "resolved.yaml"));
  CHECK(again.snapshot_minutes == c.snapshot_minutes);
  CHECK(again.game.overrides_text() == c.game.overrides_text());
  CHECK(again.to_yaml() == c.to_yaml());
  CHECK_THROWS_WITH(
      ppo::TrainConfig::from_yaml(ConfigNode::parse("game: {id: launchpad23, players: 9}\n", "t.yaml")),
      Catch::Contains("players"));
  CHECK_THROWS_WITH(ppo::TrainConfig::from_yaml(ConfigNode::parse("game: {players: 2}\n", "t.yaml")),
                    Catch::Contains("id"));
}

TEST_CASE("the config key reference tables are generated from the key tables", "[keys]") {
  const std::string search = config_keys_markdown("search");
  for (const auto& key : mcts::search_keys().keys())
    CHECK_THAT(search, Catch::Contains("| `" + key.name + "` |"));
  const std::string ppo = config_keys_markdown("ppo");
  for (const auto& block : ppo::TrainConfig::schema().blocks()) {
    CHECK_THAT(ppo, Catch::Contains("#### `" + block.name + ":`"));
    for (const auto& key : block.keys.keys()) CHECK_THAT(ppo, Catch::Contains("| `" + key.name + "` |"));
  }
  CHECK_THAT(config_keys_markdown("alphazero"),
             Catch::Contains("| `simulations` | integer | 1 to 10000000 | `32` |"));
  CHECK_THAT(ppo, Catch::Contains("| `dir` | string |  | `runs/<game id>_ppo` |"));
  CHECK(config_keys_json("ppo").size() > 30);
  CHECK_THROWS_WITH(config_keys_markdown("chess"), Catch::Contains("ppo, alphazero, search"));
}
