// PPO's opponents as weighted agent specs (opponents.agents, train_config.h;
// ppo/opponents.h): reading and writing them back, each refusal with the
// file, line and key, short runs against a zoo bot and a search, a resume
// with other agents, and the same games from the same seed.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "generated/source_tree.h"
#include "models/checkpoint.h"
#include "tests/common/temp_dir.h"
#include "training/ppo/train_config.h"
#include "training/ppo/trainer.h"

using namespace rocketgym;
using namespace rocketgym::ppo;

namespace ppo_opponents_test {

TrainConfig read(const std::string& yaml) {
  return TrainConfig::from_yaml(ConfigNode::parse(yaml, "t.yaml"));
}

bool built(const std::string& game) {
  try {
    Registry::instance().find(game);
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  for (char c : line) {
    if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

// metrics.csv as its header and rows, each split into fields.
struct Metrics {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  explicit Metrics(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    if (std::getline(in, line)) header = split(line);
    while (std::getline(in, line)) rows.push_back(split(line));
  }
  // Row r's field of column `name` (throws when there is no such column).
  std::string at(std::size_t r, const std::string& name) const {
    for (std::size_t c = 0; c < header.size(); ++c)
      if (header[c] == name) return rows.at(r).at(c);
    throw std::runtime_error("no column " + name);
  }
};

// A run of one small PPO update on launch_pad's 2-player tables.
std::string run_yaml(const std::filesystem::path& dir, const std::string& opponents,
                     int steps_per_update = 48) {
  return "game: {id: launch_pad, players: 2}\n"
         "model: {hidden: 16, blocks: 1}\n"
         "ppo: {envs: 6, steps_per_update: " +
         std::to_string(steps_per_update) +
         ", epochs: 1, minibatch: 48}\n"
         "opponents: " +
         opponents +
         "\n"
         "budget: {steps: 1, minutes: 0}\n"
         "run: {dir: \"" +
         dir.string() + "\", threads: 1, checkpoint_every: 1, eval_every: 0, plot: false}\n";
}

}  // namespace ppo_opponents_test

using namespace ppo_opponents_test;

TEST_CASE("opponents.agents takes any agent spec with a weight and writes it back", "[ppo][opponents]") {
  // The defaults: random and heuristic, 0.1 each (the old keys' values).
  const TrainConfig defaults = read("game: {id: launchpad23}\n");
  REQUIRE(defaults.agents.size() == 2);
  CHECK(defaults.agents[0].name() == "random");
  CHECK(defaults.agents[1].name() == "heuristic");
  CHECK(defaults.agents[1].weight == Approx(0.1));
  const TrainConfig defaults_again = read(defaults.to_yaml());
  REQUIRE(defaults_again.agents.size() == 2);
  CHECK(defaults_again.agents[0].name() == "random");
  CHECK(defaults_again.agents[0].weight == 0.1);
  // The docs' table shows the default in flow style.
  const KeyTable<TrainConfig>::Key* key = nullptr;
  for (const auto& block : TrainConfig::schema().blocks())
    if (block.name == "opponents") key = block.keys.find("agents");
  REQUIRE(key != nullptr);
  CHECK(key->text(TrainConfig{}) == "{random: 0.1, heuristic: 0.1}");

  // A kind's name alone is what it means at this game's table (`zoo`: this
  // game's zoo bot); NAME= names one; the order is the config's.
  const TrainConfig c = read(
      "game: {id: launchpad23}\n"
      "opponents: {self_play: 0.5, pool: 0, agents: {heuristic: 0.1, zoo: 0.2, h2=heuristic: 0.3, "
      "\"ismcts:4\": 0.4}}\n");
  REQUIRE(c.agents.size() == 4);
  std::vector<std::string> names;
  for (const OpponentAgent& a : c.agents) names.push_back(a.name());
  CHECK(names == std::vector<std::string>{"heuristic", "zoo:launchpad23", "h2", "ismcts4"});
  CHECK(c.agents[3].weight == Approx(0.4));
  CHECK(c.agents[1].where.find("t.yaml:2") == 0);
  // The resolved config reads back as the same agents and writes the same text.
  const std::string resolved = c.to_yaml();
  const TrainConfig again = TrainConfig::from_yaml(ConfigNode::parse(resolved, "config.yaml"));
  REQUIRE(again.agents.size() == 4);
  for (std::size_t a = 0; a < 4; ++a) {
    CHECK(again.agents[a].name() == c.agents[a].name());
    CHECK(players::to_yaml(again.agents[a].spec) == players::to_yaml(c.agents[a].spec));
    CHECK(again.agents[a].weight == c.agents[a].weight);
  }
  CHECK(again.to_yaml() == resolved);
  // No agents at all: self-play and the pool only.
  const TrainConfig none = read("game: {id: launchpad23}\nopponents: {agents: {}}\n");
  CHECK(none.agents.empty());
  CHECK(read(none.to_yaml()).agents.empty());
  // --set merges onto a preset's agents.
  const ConfigNode preset =
      ConfigNode::parse("game: {id: launchpad23}\nopponents: {agents: {random: 1}}\n", "p.yaml");
  const TrainConfig merged =
      TrainConfig::from_yaml(preset.merged(ConfigNode::from_settings({"opponents.agents.heuristic=0.3"})));
  REQUIRE(merged.agents.size() == 2);
  CHECK(merged.agents[1].name() == "heuristic");
}

TEST_CASE("opponents.agents refuses bad agents and weights naming the file, line and key",
          "[ppo][opponents]") {
  auto refused = [](const std::string& opponents, const std::string& key, const std::string& why) {
    INFO(opponents);
    CHECK_THROWS_WITH(read("game: {id: launchpad23}\nopponents: " + opponents + "\n"),
                      Catch::Contains("t.yaml:2") && Catch::Contains(key) && Catch::Contains(why));
  };
  refused("{agents: {nobot: 1}}", "opponents.agents.nobot", "unknown kind 'nobot'");
  refused("{agents: {human: 1}}", "opponents.agents.human", "person");
  refused("{agents: {\"zoo:last_blast\": 1}}", "opponents.agents.zoo:last_blast",
          "plays last_blast, not launchpad23");
  refused("{agents: {heuristic: -1}}", "opponents.agents.heuristic", "out of range");
  refused("{agents: {heuristic: .nan}}", "opponents.agents.heuristic", "");
  refused("{self_play: 0, pool: 0, agents: {heuristic: 0, random: 0}}", "opponents", "positive weight");
  refused("{agents: {a=random: 1, a=heuristic: 1}}", "opponents.agents.a=heuristic",
          "another agent is named 'a'");
  refused("{agents: {heuristic: 1, heuristic=random: 1}}", "opponents.agents.heuristic=random",
          "another agent is named 'heuristic'");
  refused("{agents: {pool=random: 1}}", "opponents.agents.pool=random", "the snapshot pool's");
  refused("{agents: {\"checkpoint:my,run.ckpt\": 1}}", "opponents.agents.checkpoint:my,run.ckpt",
          "cannot head a metrics.csv column");
  refused("{agents: [heuristic]}", "opponents.agents", "a mapping of agent specs");
  refused("{agents: }", "opponents.agents", "");
  // The form before opponents.agents: a kind's weight as a key of its own.
  refused("{heuristic: 0.1}", "opponents.heuristic", "write agents: {heuristic: WEIGHT}");
  refused("{agents: {heuristic: }}", "opponents.agents.heuristic", "");
}

TEST_CASE("a network of another game is refused at start naming where the config gave it",
          "[ppo][opponents]") {
  const auto dir = testing::fresh_dir("ppo_agent_game");
  const std::string other = std::string(ROCKETGYM_SOURCE_DIR) + "/models/zoo/last_blast.ckpt";
  REQUIRE(std::filesystem::exists(other));
  const TrainConfig c = read(
      "game: {id: launchpad23}\n"
      "opponents: {agents: {\"checkpoint:" +
      other + "\": 1}}\nrun: {dir: \"" + dir.string() + "\"}\n");
  CHECK_THROWS_WITH(run_training(c, false), Catch::Contains("t.yaml:2") &&
                                                Catch::Contains("opponents.agents.checkpoint:") &&
                                                Catch::Contains("trained for game 'last_blast'"));
  CHECK_FALSE(std::filesystem::exists(dir));  // refused before the run folder is made
}

TEST_CASE("PPO plays against a zoo bot and a search and counts their games", "[ppo][opponents][smoke]") {
  if (!built("launch_pad")) return;
  // One agent only: every episode of the update (finished episodes only) is
  // against it. The zoo bot here is launch_pad's network played raw, loaded
  // once at start (the shipped manifest's 2-player search is too slow for a
  // smoke test; `zoo` resolves the same way whatever the manifest names).
  const testing::ZooDirForTest zoo("ppo_agent_zoo");
  std::filesystem::copy_file(std::filesystem::path(ROCKETGYM_SOURCE_DIR) / "models/zoo/launch_pad.ckpt",
                             zoo.file("launch_pad.ckpt"));
  zoo.write("launch_pad.yaml", "game: launch_pad\nplayers: {2: network}\n");
  for (const char* agent : {"zoo", "ismcts:2"}) {
    const auto dir = testing::fresh_dir("ppo_agent");
    const std::string opponents = std::string("{self_play: 0, pool: 0, agents: {\"") + agent + "\": 1}}";
    const TrainSummary first = run_training(read(run_yaml(dir, opponents)), false);
    CHECK(first.updates == 1);
    const Metrics metrics(dir / "metrics.csv");
    REQUIRE(metrics.rows.size() == 1);
    const std::string name = std::string(agent) == "zoo" ? "zoo:launch_pad" : "ismcts2";
    INFO(name);
    const std::string rate = metrics.at(0, "train_win_vs_" + name);
    REQUIRE_FALSE(rate.empty());  // games were played against it
    CHECK(std::stod(rate) >= 0.0);
    CHECK(std::stod(rate) <= 1.0);
    CHECK(metrics.at(0, "train_win_vs_pool").empty());  // weight 0: no game
    CHECK(read_checkpoint_meta((dir / "checkpoints/latest.ckpt").string()).extra_texts("agents") ==
          std::vector<std::string>{name});
    std::filesystem::remove_all(dir);
  }
}

TEST_CASE("a resumed run may change the agents' weights, not the agents", "[ppo][opponents][resume]") {
  if (!built("launch_pad")) return;
  const auto dir = testing::fresh_dir("ppo_agents_resume");
  TrainConfig config = read(run_yaml(dir, "{agents: {random: 1, heuristic: 1}}"));
  const TrainSummary first = run_training(config, false);
  const std::string latest = (dir / "checkpoints/latest.ckpt").string();
  config.agents[0].weight = 0;  // stops playing random
  config.total_steps = first.steps + 1;
  CHECK(run_training(config, false).updates == 2);
  // Another list: metrics.csv's columns would no longer be the rows'.
  TrainConfig other = read(run_yaml(dir, "{agents: {random: 1, \"ismcts:2\": 1}}"));
  other.total_steps = read_checkpoint_meta(latest).step + 1;
  CHECK_THROWS_WITH(run_training(other, false),
                    Catch::Contains(latest) &&
                        Catch::Contains("trained against the agents random, heuristic") &&
                        Catch::Contains("the config gives random, ismcts2"));
  CHECK(read_checkpoint_meta(latest).iteration == 2);
  CHECK(Metrics(dir / "metrics.csv").rows.size() == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("the same seed plays the same games against the agents", "[ppo][opponents]") {
  if (!built("launch_pad")) return;
  std::vector<Metrics> runs;
  for (const char* name : {"ppo_same_a", "ppo_same_b"}) {
    const auto dir = testing::fresh_dir(name);
    run_training(read(run_yaml(dir, "{self_play: 0, pool: 0, agents: {\"ismcts:2\": 1, heuristic: 1}}", 400)),
                 false);
    runs.emplace_back(dir / "metrics.csv");
    std::filesystem::remove_all(dir);
  }
  REQUIRE(runs[0].rows.size() == 1);
  REQUIRE(runs[1].rows.size() == 1);
  // Everything but the times: the same episodes, outcomes and update.
  for (const char* column : {"step", "env_steps", "episodes", "policy_loss", "value_loss", "entropy",
                             "approx_kl", "train_win_vs_ismcts2", "train_win_vs_heuristic"}) {
    INFO(column);
    CHECK(runs[0].at(0, column) == runs[1].at(0, column));
  }
  CHECK_FALSE(runs[0].at(0, "train_win_vs_ismcts2").empty());  // the search's games among them
  CHECK_FALSE(runs[0].at(0, "train_win_vs_heuristic").empty());
}
