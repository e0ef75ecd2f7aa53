// PPO: the loss on hand-made numbers, the config, and a short smoke run that
// is interrupted and resumed (training itself is not timed here).
#include <unistd.h>  // getpid (LibTorch 2.x no longer includes it)
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "generated/source_tree.h"
#include "models/checkpoint.h"
#include "tests/common/temp_dir.h"
#include "training/alphazero/train_config.h"
#include "training/ppo/ppo_update.h"
#include "training/ppo/train_config.h"
#include "training/ppo/trainer.h"
#include "training/run_support.h"

using namespace rocketgym;
using namespace rocketgym::ppo;

namespace {

PolicyValueOutput fixed_output(const torch::Tensor& logits, const torch::Tensor& values) {
  PolicyValueOutput out;
  out.logits = logits;
  out.values = values;
  return out;
}

std::vector<std::string> lines_of(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("the PPO loss at ratio 1 is minus the mean advantage", "[ppo]") {
  // Uniform logits over 2 legal actions out of 3: log pi(a) = log 0.5.
  const auto logits = torch::zeros({2, 3});
  const auto masks = torch::tensor({{1, 1, 0}, {1, 1, 0}}, torch::kUInt8);
  const auto actions = torch::tensor({0, 1}, torch::kInt64);
  const auto old = torch::full({2}, std::log(0.5f));
  const auto adv = torch::tensor({1.0f, -3.0f});
  const auto values = torch::tensor({{0.5f, -0.5f}, {0.0f, 0.0f}});
  const auto targets = torch::tensor({{1.0f, -1.0f}, {0.0f, 1.0f}});
  const LossTerms t = ppo_loss(fixed_output(logits, values), masks, actions, old, adv, targets, 0.2);
  CHECK(t.policy_loss.item<float>() == Approx(1.0f));  // -(1 - 3) / 2
  // Value loss: mean of (0.5^2, 0.5^2, 0, 1) = 0.375 over every seat's head.
  CHECK(t.value_loss.item<float>() == Approx(0.375f));
  CHECK(t.entropy.item<float>() == Approx(std::log(2.0f)));
  CHECK(t.approx_kl.item<float>() == Approx(0.0f).margin(1e-6));
  CHECK(t.clip_fraction.item<float>() == 0.0f);
}

TEST_CASE("the PPO loss clips the ratio on the side that would over-reward", "[ppo]") {
  // New policy: pi(0) = 0.8 against an old 0.5 -> ratio 1.6, clipped to 1.2 for
  // a positive advantage; for a negative advantage the unclipped 1.6 is kept
  // (the pessimistic minimum).
  const float l = std::log(0.8f / 0.2f);
  const auto logits = torch::tensor({{l, 0.0f}, {l, 0.0f}});
  const auto masks = torch::ones({2, 2}, torch::kUInt8);
  const auto actions = torch::tensor({0, 0}, torch::kInt64);
  const auto old = torch::full({2}, std::log(0.5f));
  const auto values = torch::zeros({2, 2});
  const auto pos =
      ppo_loss(fixed_output(logits, values), masks, actions, old, torch::tensor({2.0f, 2.0f}), values, 0.2);
  CHECK(pos.policy_loss.item<float>() == Approx(-1.2f * 2.0f));
  const auto neg =
      ppo_loss(fixed_output(logits, values), masks, actions, old, torch::tensor({-1.0f, -1.0f}), values, 0.2);
  CHECK(neg.policy_loss.item<float>() == Approx(1.6f));
  CHECK(neg.clip_fraction.item<float>() == 1.0f);
}

TEST_CASE("imitation updates teach the network the recorded moves and outcomes", "[ppo]") {
  // Two positions: in the first the bot plays action 2 and its seat goes on
  // to win; in the second it plays action 0 and loses.
  TrajectoryStore store(2, 2, 3, 4, 8);
  const float no_values[2] = {0.0f, 0.0f};
  for (int env = 0; env < 2; ++env) {
    const int slot = store.add(env, 0, env == 0 ? 2 : 0, 0.0f, no_values);
    for (int i = 0; i < 3; ++i) store.observation(slot)[i] = env == 0 ? 1.0f : -1.0f;
    for (int a = 0; a < 4; ++a) store.mask(slot)[a] = 1;
    const float returns[2] = {env == 0 ? 1.0f : -1.0f, env == 0 ? -1.0f : 1.0f};
    store.finish_episode(env, returns, 1.0f, 1.0f);
  }
  NetSpec spec;
  spec.config.kind = "mlp";
  spec.config.hidden = 16;
  spec.observation_shape = {3};
  spec.num_actions = 4;
  spec.num_players = 2;
  torch::manual_seed(1);
  PolicyValueNet net(spec);
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-2));
  UpdateSettings settings;
  settings.epochs = 200;
  settings.minibatch = 2;
  const UpdateStats stats = imitation_update(net, adam, store, settings, torch::kCPU);
  CHECK(stats.samples == 2);
  const auto out = net->forward(torch::tensor({{1.0f, 1.0f, 1.0f}, {-1.0f, -1.0f, -1.0f}}));
  CHECK(out.logits[0].argmax().item<int64_t>() == 2);
  CHECK(out.logits[1].argmax().item<int64_t>() == 0);
  CHECK(out.values[0][0].item<float>() > 0.8f);   // the winner's position
  CHECK(out.values[0][1].item<float>() < -0.8f);  // seen by the next seat: a loss
  CHECK(out.values[1][0].item<float>() < -0.8f);
}

TEST_CASE("training configs fill defaults and reject bad keys and values", "[ppo]") {
  const auto ok =
      TrainConfig::from_yaml(ConfigNode::parse("game: {id: launchpad23}\nppo: {envs: 8}\n", "t.yaml"));
  CHECK(ok.envs == 8);
  CHECK(ok.game.players == 2);
  CHECK(ok.run_dir == "runs/launchpad23_ppo");
  // The resolved config reads back to the same values.
  const auto again = TrainConfig::from_yaml(ConfigNode::parse(ok.to_yaml(), "resolved"));
  CHECK(again.envs == 8);
  CHECK(again.learning_rate == Approx(ok.learning_rate));
  CHECK(again.run_dir == ok.run_dir);
  const auto warm = TrainConfig::from_yaml(ConfigNode::parse(
      "game: {id: launchpad23}\nimitation: {steps: 5000, learning_rate: 0.01}\n", "t.yaml"));
  CHECK(warm.imitation_steps == 5000);
  CHECK(TrainConfig::from_yaml(ConfigNode::parse(warm.to_yaml(), "resolved")).imitation_steps == 5000);
  const auto shaped =
      TrainConfig::from_yaml(ConfigNode::parse("game: {id: launchpad23}\nppo: {shaping: 0.05}\n", "t.yaml"));
  CHECK(TrainConfig::from_yaml(ConfigNode::parse(shaped.to_yaml(), "resolved")).shaping == Approx(0.05));

  CHECK_THROWS_WITH(
      TrainConfig::from_yaml(ConfigNode::parse("game: {id: launchpad23}\nppo: {lr: 0.1}\n", "t.yaml")),
      Catch::Contains("t.yaml") && Catch::Contains("lr"));
  CHECK_THROWS_AS(
      TrainConfig::from_yaml(ConfigNode::parse("game: {id: launchpad23}\nppo: {clip: -1}\n", "t.yaml")),
      ConfigError);
  CHECK_THROWS_AS(
      TrainConfig::from_yaml(ConfigNode::parse("game: {id: launchpad23, players: 9}\n", "t.yaml")),
      ConfigError);
  CHECK_THROWS_AS(
      TrainConfig::from_yaml(ConfigNode::parse(
          "game: {id: launchpad23}\nopponents: {self_play: 0, pool: 0, agents: {random: 0, heuristic: 0}}\n",
          "t.yaml")),
      ConfigError);
}

TEST_CASE("minute snapshots are due once each, and a resumed run skips those it passed", "[ppo]") {
  MinuteSnapshots fresh({5, 10, 30}, 0.0);
  CHECK(fresh.next_due(299.0).empty());
  CHECK(fresh.next_due(700.0) == "checkpoints/minute_005.ckpt");
  CHECK(fresh.next_due(700.0) == "checkpoints/minute_010.ckpt");
  CHECK(fresh.next_due(700.0).empty());
  CHECK(fresh.next_due(1800.0) == "checkpoints/minute_030.ckpt");
  CHECK(fresh.next_due(1e9).empty());
  MinuteSnapshots resumed({5, 10, 30}, 650.0);  // 10m50s trained before this session
  CHECK(resumed.next_due(700.0).empty());
  CHECK(resumed.next_due(1800.0) == "checkpoints/minute_030.ckpt");
  // Fractions of a minute get names of their own (0.02, 0.04 and 0.3 all
  // wrote minute_000.ckpt, each overwriting the one before).
  MinuteSnapshots fractions({0.02, 0.04, 0.3, 1, 1.5, 1000}, 0.0);
  CHECK(fractions.next_due(1e9) == "checkpoints/minute_000.02.ckpt");
  CHECK(fractions.next_due(1e9) == "checkpoints/minute_000.04.ckpt");
  CHECK(fractions.next_due(1e9) == "checkpoints/minute_000.3.ckpt");
  CHECK(fractions.next_due(1e9) == "checkpoints/minute_001.ckpt");  // whole minutes keep their old names
  CHECK(fractions.next_due(1e9) == "checkpoints/minute_001.5.ckpt");
  CHECK(fractions.next_due(1e9) == "checkpoints/minute_1000.ckpt");
  CHECK(fractions.next_due(1e9).empty());
  CHECK(MinuteSnapshots({1e-6}, 0.0).next_due(1.0) == "checkpoints/minute_000.000001.ckpt");
  // Both trainers read the same run: block, snapshot list included.
  const auto ppo = TrainConfig::from_yaml(
      ConfigNode::parse("game: {id: launchpad23}\nrun: {snapshot_minutes: [20, 5, 20]}\n", "p.yaml"));
  CHECK(ppo.snapshot_minutes == std::vector<double>{5, 20});  // the same time twice is one snapshot
  CHECK_THROWS_WITH(TrainConfig::from_yaml(ConfigNode::parse(
                        "game: {id: launchpad23}\nrun: {snapshot_minutes: [5, -1]}\n", "p.yaml")),
                    Catch::Contains("positive number of minutes"));
}

TEST_CASE("every training preset in configs/train loads", "[ppo]") {
  const std::string dir = std::string(ROCKETGYM_SOURCE_DIR) + "/configs/train";
  int loaded = 0;
  std::set<std::string> search_presets;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().string(), stem = entry.path().stem().string();
    const std::string id = stem.substr(0, stem.rfind('_'));  // <id>_<algorithm>
    try {
      Registry::instance().find(id);
    } catch (const Error&) {
      continue;  // a game not built in this configuration
    }
    INFO(file);
    const ConfigNode root = ConfigNode::load_file(file);
    // A preset is named, and runs in, <id>_<algorithm> (runs/<id>_<algorithm>), or
    // <id>_<name> for another recipe of an algorithm (last_blast_expert: expert iteration).
    const std::string algorithm = alphazero::training_algorithm(root);
    CHECK(stem.rfind(id + "_", 0) == 0);
    if (algorithm == "alphazero") {
      const alphazero::TrainConfig c = alphazero::TrainConfig::from_yaml(root);
      CHECK(c.game.id == id);
      CHECK(c.run_dir == "runs/" + stem);
      CHECK(c.minutes <= 30.0);
      search_presets.insert(id);
    } else {
      const TrainConfig c = TrainConfig::from_yaml(root);
      CHECK(c.game.id == id);
      CHECK(c.run_dir == "runs/" + stem);
      CHECK(c.minutes <= 30.0);  // the preset budget on this machine
    }
    ++loaded;
  }
  CHECK(loaded >= 1);
  // Every built game has a search-based preset too.
  for (const std::string& id : Registry::instance().ids()) CHECK(search_presets.count(id) == 1);
}

namespace {

// The resolved config a training config stands for, as `rocketgym train` writes it (config.yaml).
std::string resolved_training_config(const ConfigNode& root) {
  if (alphazero::training_algorithm(root) == "alphazero")
    return alphazero::TrainConfig::from_yaml(root).to_yaml();
  return TrainConfig::from_yaml(root).to_yaml();
}

}  // namespace

TEST_CASE("training presets hold only what differs from the defaults", "[ppo]") {
  // A key restates its default when the preset without it resolves to the same config: the
  // trainers' key tables decide, with the defaults they derive (run.dir from the game, the
  // search block's self-play defaults), not a list here. A key is a top-level scalar
  // (algorithm) or a key of a block (model.hidden, run.snapshot_minutes).
  const std::string dir = std::string(ROCKETGYM_SOURCE_DIR) + "/configs/train";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().string(), stem = entry.path().stem().string();
    const std::string name = "configs/train/" + entry.path().filename().string();
    try {
      Registry::instance().find(stem.substr(0, stem.rfind('_')));  // <id>_<algorithm>
    } catch (const Error&) {
      continue;  // a game not built in this configuration
    }
    const ConfigNode root = ConfigNode::load_file(file);
    const std::string resolved = resolved_training_config(root);
    std::vector<std::pair<std::string, std::string>> keys;  // (block, key); block "" at the top level
    for (const auto& top : root.yaml()) {
      const std::string top_key = top.first.as<std::string>();
      if (top.second.IsMap()) {
        for (const auto& key : top.second) keys.emplace_back(top_key, key.first.as<std::string>());
      } else {
        keys.emplace_back("", top_key);
      }
    }
    for (const auto& [block, key] : keys) {
      YAML::Node without = YAML::Clone(root.yaml());
      if (block.empty())
        without.remove(key);
      else
        without[block].remove(key);
      std::string resolved_without;
      try {
        resolved_without = resolved_training_config(ConfigNode::parse(YAML::Dump(without), file));
      } catch (const Error&) {
        continue;  // the preset needs it (game.id)
      }
      if (resolved_without == resolved)
        FAIL_CHECK(name << ": " << (block.empty() ? key : block + "." + key)
                        << " restates its default: a preset holds only what differs from the defaults");
    }
    ++checked;
  }
  CHECK(checked >= 1);
}

TEST_CASE("a short training run writes its folder and resumes where it stopped", "[ppo][smoke]") {
  const auto dir = std::filesystem::temp_directory_path() / ("rocketgym_train_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  // A budget of 1 learner decision stops after exactly one update: the
  // batch is whatever the first finished episodes hold.
  const std::string yaml =
      "game: {id: launchpad23, players: 2}\n"
      "model: {hidden: 32, blocks: 1, channels: 8}\n"
      "ppo: {envs: 8, steps_per_update: 64, epochs: 2, minibatch: 64, shaping: 0.05}\n"
      "opponents: {self_play: 1, pool: 1, agents: {random: 1, heuristic: 1}, snapshot_every: 1, pool_size: "
      "2}\n"
      "imitation: {steps: 64}\n"
      "budget: {steps: 1, minutes: 0}\n"
      "run: {dir: " +
      dir.string() +
      ", threads: 1, checkpoint_every: 1, eval_every: 1, eval_games: 4, plot: false,"
      " snapshot_minutes: [0.000001, 1000]}\n";
  TrainConfig config = TrainConfig::from_yaml(ConfigNode::parse(yaml, "smoke.yaml"));
  const TrainSummary first = run_training(config, false);
  // The snapshot due at once is written; the one due after 1000 minutes is not.
  CHECK(std::filesystem::exists(dir / "checkpoints/minute_000.000001.ckpt"));
  CHECK_FALSE(std::filesystem::exists(dir / "checkpoints/minute_1000.ckpt"));
  CHECK_FALSE(first.resumed);
  CHECK(first.updates == 1);
  CHECK(first.steps >= 64);
  const std::string ckpt = (dir / "checkpoints/latest.ckpt").string();
  REQUIRE(std::filesystem::exists(ckpt));
  CHECK(std::filesystem::exists(dir / "config.yaml"));
  CheckpointMeta meta = read_checkpoint_meta(ckpt);
  CHECK(meta.step == first.steps);
  CHECK(meta.iteration == 1);
  CHECK(meta.game == "launchpad23");
  CHECK(meta.extra["pool"].size() == 1);
  CHECK(first.eval_vs_random >= 0.0);
  CHECK(first.eval_vs_random <= 1.0);
  CHECK(lines_of((dir / "metrics.csv").string()).size() == 2);

  // As if interrupted: running again with a larger budget continues from the
  // checkpoint, twice, and the pool keeps its newest pool_size snapshots.
  config.total_steps = first.steps + 1;
  const TrainSummary second = run_training(config, false);
  CHECK(second.resumed);
  CHECK(second.updates == 2);
  CHECK(second.steps > first.steps);
  config.total_steps = second.steps + 1;
  const TrainSummary third = run_training(config, false);
  CHECK(third.updates == 3);
  meta = read_checkpoint_meta(ckpt);
  CHECK(meta.iteration == 3);
  CHECK(meta.step == third.steps);
  REQUIRE(meta.extra["pool"].size() == 2);
  CHECK(meta.extra["pool"][0].get<std::string>().find("update_000002") != std::string::npos);
  const auto rows = lines_of((dir / "metrics.csv").string());
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].rfind("update,step,", 0) == 0);
  // The profile's columns end the header: seconds per phase, none negative.
  CHECK(rows[0].find(",seconds_env_step,seconds_policy,") != std::string::npos);
  CHECK(rows[0].substr(rows[0].size() - 18) == ",seconds_optimizer");
  const std::string last = rows[3].substr(rows[3].rfind(',') + 1);
  CHECK(std::stod(last) >= 0.0);
  for (std::size_t i = 1; i < rows.size(); ++i)  // one row per update, numbered in order
    CHECK(rows[i].substr(0, rows[i].find(',')) == std::to_string(i));

  // A run folder holding a checkpoint for another player count is refused, not overwritten.
  TrainConfig other = config;
  other.game.players = 3;
  other.game.tables = {{3, 1.0}};
  CHECK_THROWS_AS(run_training(other, false), CheckpointError);
  CHECK(read_checkpoint_meta(ckpt).iteration == 3);
  std::filesystem::remove_all(dir);
}

// docs/training.md, "What a seed reproduces": the games and the learner's
// moves of an update do not depend on the thread count (the collection's
// network runs row by row in plain C++); only the update's sums may.
TEST_CASE("the first update collects the same games whatever the threads", "[ppo]") {
  std::vector<std::string> rows;
  for (const int threads : {1, 2}) {
    const testing::TempDir dir("ppo_threads_" + std::to_string(threads));
    const std::string yaml =
        "game: {id: last_blast, players: 2}\n"
        "model: {hidden: 32, blocks: 1}\n"
        "ppo: {envs: 8, steps_per_update: 256, epochs: 1, minibatch: 512}\n"
        "imitation: {steps: 0}\n"
        "budget: {steps: 1, minutes: 0}\n"
        "run: {dir: " +
        dir.path.string() + ", threads: " + std::to_string(threads) +
        ", checkpoint_every: 1, eval_every: 0, plot: false}\n";
    const TrainConfig config = TrainConfig::from_yaml(ConfigNode::parse(yaml, "threads.yaml"));
    REQUIRE(run_training(config, false).updates == 1);
    const auto lines = lines_of(dir / "metrics.csv");
    REQUIRE(lines.size() == 2);
    // update, step (learner decisions), env_steps, episodes: the games themselves
    std::string row = lines[1];
    for (int column = 0; column < 4; ++column) row = row.substr(row.find(',') + 1);
    rows.push_back(lines[1].substr(0, lines[1].size() - row.size()));
  }
  CHECK(rows[0] == rows[1]);
}

TEST_CASE("shaping is refused for a game that defines no shaping potential", "[ppo]") {
  try {
    Registry::instance().find("last_blast");
  } catch (const Error&) {
    return;  // not built in this configuration
  }
  const TrainConfig config = TrainConfig::from_yaml(ConfigNode::parse(
      "game: {id: last_blast}\nppo: {shaping: 0.1}\nrun: {dir: /nonexistent/never_written}\n", "t.yaml"));
  CHECK_THROWS_WITH(run_training(config, false), Catch::Contains("shaping") && Catch::Contains("last_blast"));
  CHECK_FALSE(std::filesystem::exists("/nonexistent/never_written"));
}

TEST_CASE("metrics rows after the resumed checkpoint are dropped", "[ppo]") {
  const auto file =
      std::filesystem::temp_directory_path() / ("rocketgym_metrics_" + std::to_string(::getpid()));
  std::ofstream(file) << "update,step\n1,10\n2,20\n3,30\n4,4";  // a half-written last row
  truncate_metrics(file.string(), 2);
  CHECK(lines_of(file.string()) == std::vector<std::string>{"update,step", "1,10", "2,20"});
  std::filesystem::remove(file);
}

// --- issue 16: the opponent pool on disk ------------------------------------

namespace {

// One PPO update per call of run_training (budget: one more learner step),
// a snapshot after every update, a pool of two.
TrainConfig pool_run_config(const std::filesystem::path& dir) {
  const std::string yaml =
      "game: {id: launchpad23, players: 2}\n"
      "model: {hidden: 16, blocks: 1, channels: 4}\n"
      "ppo: {envs: 8, steps_per_update: 32, epochs: 1, minibatch: 32}\n"
      "opponents: {self_play: 1, pool: 1, agents: {random: 0, heuristic: 0}, snapshot_every: 1, pool_size: "
      "2}\n"
      "budget: {steps: 1, minutes: 0}\n"
      "run: {dir: \"" +
      dir.string() + "\", threads: 1, checkpoint_every: 1, eval_every: 0, plot: false}\n";
  return TrainConfig::from_yaml(ConfigNode::parse(yaml, "pool.yaml"));
}

TrainSummary one_more_update(TrainConfig& config) {
  const std::string latest = config.run_dir + "/checkpoints/latest.ckpt";
  config.total_steps = std::filesystem::exists(latest) ? read_checkpoint_meta(latest).step + 1 : 1;
  return run_training(config, false);
}

std::set<std::string> files_in(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

std::set<std::string> listed_pool(const std::filesystem::path& dir) {
  std::set<std::string> names;
  const CheckpointMeta meta = read_checkpoint_meta((dir / "checkpoints/latest.ckpt").string());
  for (const auto& entry : meta.extra.at("pool"))
    names.insert(std::filesystem::path(entry.get<std::string>()).filename());
  return names;
}

using testing::fresh_dir;

// Rewrites a checkpoint with other metadata (and a network that fits it).
void doctor_checkpoint(const std::string& file, const std::function<void(CheckpointMeta&)>& change) {
  CheckpointMeta meta = read_checkpoint_meta(file);
  change(meta);
  PolicyValueNet net(meta.net_spec());
  save_checkpoint(file, meta, net, nullptr);
}

}  // namespace

TEST_CASE("opponent snapshots are checked like latest.ckpt when a run resumes", "[ppo][pool]") {
  const auto dir = fresh_dir("foreign_pool");
  TrainConfig config = pool_run_config(dir);
  one_more_update(config);
  const std::string snapshot = (dir / "checkpoints/pool/update_000001.ckpt").string();
  REQUIRE(listed_pool(dir) == std::set<std::string>{"update_000001.ckpt"});

  // Another game's snapshot with the same shapes: it would silently be a
  // nonsense opponent.
  doctor_checkpoint(snapshot, [](CheckpointMeta& m) { m.game = "last_blast"; });
  REQUIRE_THROWS_WITH(one_more_update(config), Catch::Contains("update_000001.ckpt") &&
                                                   Catch::Contains("trained for game 'last_blast'"));
  // Other shapes: choose_actions would write past its buffers.
  doctor_checkpoint(snapshot, [](CheckpointMeta& m) {
    m.game = "launchpad23";
    m.num_actions += 7;
    m.observation_shape = {3, 5, 5};
    m.layout.clear();  // the recorded layout would not fit the doctored shape
  });
  CHECK_THROWS_WITH(one_more_update(config),
                    Catch::Contains("update_000001.ckpt") && Catch::Contains("the game now has"));
  doctor_checkpoint(snapshot, [](CheckpointMeta& m) { m.players = {3}; });
  CHECK_THROWS_WITH(one_more_update(config), Catch::Contains("3 players, not 2"));
  CHECK(read_checkpoint_meta((dir / "checkpoints/latest.ckpt").string()).iteration == 1);  // nothing trained
  std::filesystem::remove_all(dir);
}

TEST_CASE("the pool folder holds exactly the snapshots of the pool", "[ppo][pool]") {
  const auto dir = fresh_dir("pool_files");
  TrainConfig config = pool_run_config(dir);
  for (int update = 1; update <= 4; ++update) {
    one_more_update(config);
    INFO("after update " << update);
    CHECK(files_in(dir / "checkpoints/pool") == listed_pool(dir));
  }
  CHECK(listed_pool(dir) == std::set<std::string>{"update_000003.ckpt", "update_000004.ckpt"});

  // What a killed run leaves behind (a half-written latest.ckpt, a snapshot
  // taken after the last save) is deleted when the run starts again.
  std::ofstream(dir / "checkpoints/latest.ckpt.tmp") << std::string(1000, 'x');
  std::ofstream(dir / "checkpoints/pool/update_000009.ckpt") << "orphan";
  std::ofstream(dir / "checkpoints/pool/update_000010.ckpt.tmp") << "half";
  std::ofstream(dir / "checkpoints/pool/notes.txt") << "not ours: kept";
  const TrainSummary resumed = one_more_update(config);
  CHECK(resumed.resumed);
  CHECK_FALSE(std::filesystem::exists(dir / "checkpoints/latest.ckpt.tmp"));
  std::set<std::string> expected = listed_pool(dir);
  expected.insert("notes.txt");
  CHECK(files_in(dir / "checkpoints/pool") == expected);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a run folder keeps its pool when it is moved or resumed from elsewhere", "[ppo][pool]") {
  const auto first = fresh_dir("pool_moved_a"), second = fresh_dir("pool_moved_b");
  TrainConfig config = pool_run_config(first);
  one_more_update(config);
  const CheckpointMeta meta = read_checkpoint_meta((first / "checkpoints/latest.ckpt").string());
  // Listed relative to the run folder, not as the path training was started with.
  CHECK(meta.extra.at("pool") == Json::array({"checkpoints/pool/update_000001.ckpt"}));
  std::filesystem::rename(first, second);
  config.run_dir = second.string();
  const TrainSummary resumed = one_more_update(config);
  CHECK(resumed.resumed);
  CHECK(listed_pool(second) == std::set<std::string>{"update_000001.ckpt", "update_000002.ckpt"});
  CHECK(resumed.pool_snapshots == 2);
  std::filesystem::remove_all(second);
}

TEST_CASE("two trainings never share a run folder", "[ppo][pool]") {
  const auto dir = fresh_dir("locked");
  std::filesystem::create_directories(dir);
  TrainConfig config = pool_run_config(dir);
  {
    const RunFolderLock held(dir.string());
    CHECK_THROWS_WITH(one_more_update(config), Catch::Contains("in use by another rocketgym train"));
  }
  CHECK_NOTHROW(one_more_update(config));  // released with its holder
  std::filesystem::remove_all(dir);
}

// --- issue 30: what a resumed run must keep ------------------------------------

namespace {

std::string text_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("a resumed run refuses another network, other game rules and a weights-only file",
          "[ppo][resume]") {
  const auto dir = fresh_dir("resume_checks");
  TrainConfig config = pool_run_config(dir);
  one_more_update(config);
  const std::string latest = (dir / "checkpoints/latest.ckpt").string();
  const std::string written = text_of(dir / "config.yaml");
  // The checkpoint records the rules it was trained under.
  const CheckpointMeta meta = read_checkpoint_meta(latest);
  REQUIRE(meta.extra.contains("game_config"));
  CHECK(meta.extra["game_config"].get<std::string>().find("max_turns: 200") != std::string::npos);

  // `--set model.hidden=128` on a resume was ignored without a word.
  TrainConfig wider = config;
  wider.net.hidden = 128;
  CHECK_THROWS_WITH(one_more_update(wider),
                    Catch::Contains("model.hidden (the checkpoint: 16, the config: 128)"));
  // Other rules trained on them and overwrote config.yaml, recording the
  // earlier rules nowhere.
  TrainConfig shorter = config;
  shorter.game.overrides = ConfigNode::parse("max_turns: 50\n", "rules.yaml");
  CHECK_THROWS_WITH(one_more_update(shorter),
                    Catch::Contains("other game rules") &&
                        Catch::Contains("max_turns (the checkpoint: 200, the config: 50)"));
  CHECK(text_of(dir / "config.yaml") == written);
  CHECK(read_checkpoint_meta(latest).iteration == 1);

  // A weights-only export in place of latest.ckpt resumed with a fresh
  // optimizer and an empty pool.
  export_checkpoint(latest, (dir / "exported.ckpt").string(), true, -1);
  std::filesystem::copy_file(dir / "exported.ckpt", latest,
                             std::filesystem::copy_options::overwrite_existing);
  CHECK_THROWS_WITH(one_more_update(config), Catch::Contains(latest) && Catch::Contains("weights-only") &&
                                                 Catch::Contains("--agent checkpoint:"));
  CHECK(text_of(dir / "config.yaml") == written);
  std::filesystem::remove_all(dir);
}

TEST_CASE("edited counters in a run's checkpoint are refused naming the file and the key", "[ppo][resume]") {
  const auto dir = fresh_dir("resume_edited");
  TrainConfig config = pool_run_config(dir);
  one_more_update(config);
  const std::string latest = (dir / "checkpoints/latest.ckpt").string();
  LoadedCheckpoint loaded = load_checkpoint(latest);
  torch::optim::Adam adam(loaded.net->parameters());
  loaded.meta.extra["episodes"] = "abc";
  save_checkpoint(latest, loaded.meta, loaded.net, &adam);
  CHECK_THROWS_WITH(one_more_update(config), Catch::Contains(latest) && Catch::Contains("extra.episodes") &&
                                                 Catch::Contains("\"abc\""));
  // A key every PPO checkpoint records, missing: it resumed with an empty
  // pool (or zero counters) without a word.
  for (const char* key : {"episodes", "env_steps", "pool"}) {
    CheckpointMeta meta = loaded.meta;
    meta.extra["episodes"] = 3;
    meta.extra.erase(key);
    save_checkpoint(latest, meta, loaded.net, &adam);
    CHECK_THROWS_WITH(one_more_update(config),
                      Catch::Contains("checkpoint '" + latest + "': extra." + key + " is missing"));
  }
  // A negative counter of the metadata itself.
  loaded.meta.extra["episodes"] = 3;
  loaded.meta.step = -5;
  save_checkpoint(latest, loaded.meta, loaded.net, &adam);
  CHECK_THROWS_WITH(
      one_more_update(config),
      Catch::Contains(latest) && Catch::Contains("field 'step' is -5, expected a whole number >= 0"));
  std::filesystem::remove_all(dir);
}
