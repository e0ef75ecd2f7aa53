// The pieces of a run's config that PPO and search-based training share: the
// `run:` block (RunSettings), the game and model blocks of the resolved
// config.yaml, and the file's text.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "models/policy_value_net.h"
#include "training/config_keys.h"
#include "training/game_setup.h"

namespace rocketgym {

// The `run:` block, the same keys for both trainers (their docs: run_keys()
// in config_yaml.cpp). The trainers' configs derive from it, so their code
// names the fields directly (cfg.run_dir, cfg.seed...).
struct RunSettings {
  std::string run_dir;
  uint64_t seed = 1;
  int threads = 2;
  std::string device = "cpu";
  int checkpoint_every = 5;
  int eval_every = 10;
  int eval_games = 200;
  std::vector<double> snapshot_minutes;  // sorted
  bool plot = true;
  int ranks = 1;
  // A fresh run's first network from an older checkpoint (models/warm_start.h);
  // the old observation layout from warm_start_layout (`rocketgym describe`
  // JSON), else the one the checkpoint records.
  std::string warm_start, warm_start_layout;

  // Keys of the resolved config that may differ between the ranks of one
  // run: each process's own resources, and what only rank 0 uses (its run
  // folder, its plot). Every other key must be the same on every rank.
  static const std::vector<std::string>& rank_local_keys();
};

// The key tables of the blocks both trainers share: run: (RunSettings) and
// model: (NetConfig). The game: block's table is GameSetup's (game_setup.h).
const KeyTable<RunSettings>& run_keys();
const KeyTable<NetConfig>& model_keys();

// One block of a training config: a mapping under `name` and its keys.
template <class C>
struct ConfigBlock {
  std::string name;
  KeyTable<C> keys;
  bool required = false;
  // Reads the block (an empty mapping when absent); unset: keys.read.
  std::function<void(const ConfigNode&, C&)> read;
  // Checks between keys, once the block is read.
  std::function<void(const ConfigNode&, const C&)> check;
};

// A training config's blocks in the order they are read and written: the
// reader, the resolved config.yaml and the docs' key tables all follow it.
template <class C>
class ConfigSchema {
 public:
  ConfigSchema& add(ConfigBlock<C> block) {
    blocks_.push_back(std::move(block));
    return *this;
  }
  const std::vector<ConfigBlock<C>>& blocks() const { return blocks_; }
  std::vector<std::string> block_names() const {
    std::vector<std::string> out;
    for (const auto& b : blocks_) out.push_back(b.name);
    return out;
  }
  void read(const ConfigNode& root, C& c) const {
    for (const auto& b : blocks_) {
      const ConfigNode node = b.required ? root.child(b.name) : root.child_or_empty(b.name);
      if (b.read)
        b.read(node, c);
      else
        b.keys.read(node, c);
      if (b.check) b.check(node, c);
    }
  }
  void write(YAML::Node& root, const C& c) const {
    for (const auto& b : blocks_) {
      YAML::Node block = root[b.name];
      b.keys.write(block, c);
    }
  }

 private:
  std::vector<ConfigBlock<C>> blocks_;
};

// The blocks PPO and search-based training share, over the config C's fields
// of the same names. `trainer` ("ppo", "az") names the default run folder,
// runs/<game>_<trainer>; `mixed_tables`: game.players may list several
// table sizes.
template <class C>
ConfigBlock<C> game_block(const std::string& trainer, bool mixed_tables) {
  ConfigBlock<C> b{"game", {}, true, nullptr, nullptr};
  b.keys.include(
      GameSetup::keys(), [](auto& c) -> auto& { return c.game; });
  b.read = [trainer, mixed_tables](const ConfigNode& node, C& c) {
    c.game = GameSetup::from_yaml(node, mixed_tables);
    c.run_dir = "runs/" + c.game.id + "_" + trainer;
  };
  return b;
}
template <class C>
ConfigBlock<C> model_block() {
  ConfigBlock<C> b{"model", {}, false, nullptr, nullptr};
  b.keys.include(
      model_keys(), [](auto& c) -> auto& { return c.net; });
  return b;
}
template <class C>
ConfigBlock<C> run_block(const std::string& trainer) {
  ConfigBlock<C> b{"run", {}, false, nullptr, nullptr};
  struct AsRunSettings {  // C's base, writable or not
    RunSettings& operator()(RunSettings& r) const { return r; }
    const RunSettings& operator()(const RunSettings& r) const { return r; }
  };
  b.keys.include(run_keys(), AsRunSettings{});
  b.keys.set_default_shown("dir", "runs/<game id>_" + trainer);
  return b;
}
// budget: steps (counted across resumes; `what` says what a step is) and
// minutes (per invocation).
template <class C>
ConfigBlock<C> budget_block(const char* steps_doc) {
  ConfigBlock<C> b{"budget", {}, false, nullptr, nullptr};
  b.keys.large_whole("steps", &C::total_steps, 1.0, 1e15, steps_doc)
      .number("minutes", &C::minutes, 0.0, 1e7, "wall-clock limit of this invocation (0 = none)");
  return b;
}
// The optimizer's keys both trainers take, with the same ranges.
template <class C>
void add_optimizer_keys(KeyTable<C>& t) {
  t.number("learning_rate", &C::learning_rate, 1e-9, 1.0, "the optimizer's learning rate")
      .number("value_coef", &C::value_coef, 0.0, 1e3, "weight of the value loss")
      .number("max_grad_norm", &C::max_grad_norm, 1e-6, 1e6, "gradients clipped to this norm");
}

// The snapshots of run.snapshot_minutes still due: after a resume those the
// run already passed are skipped.
class MinuteSnapshots {
 public:
  MinuteSnapshots() = default;
  MinuteSnapshots(const std::vector<double>& minutes, double elapsed_seconds_before);
  // The checkpoint file name of the next snapshot due at `elapsed_seconds`,
  // or empty when none is; call until empty.
  std::string next_due(double elapsed_seconds);
  // "checkpoints/minute_010.ckpt" for 10 minutes, "checkpoints/minute_000.25.ckpt"
  // for 0.25: the whole minutes (3 digits at least) and, when there is a
  // fraction, its shortest exact decimals, so distinct times never share a file.
  static std::string file_name(double minutes);

 private:
  std::vector<double> minutes_;
  std::size_t done_ = 0;
};

// One key on which two config documents differ: its dotted path
// ("model.hidden", "agents[2]") and each side's value as YAML flow text
// ("(absent)" when a side lacks it).
struct ConfigDifference {
  std::string key, first, second;
};
// Every difference between two YAML documents (mappings compared by key,
// lists item by item, scalars by their text), in the first's key order.
std::vector<ConfigDifference> config_differences(const YAML::Node& first, const YAML::Node& second);
// "model.hidden (rank 0: 32, rank 1: 64); ..." for messages, the first few
// of them, each side named as given.
std::string describe_differences(const std::vector<ConfigDifference>& differences,
                                 const std::string& first_name, const std::string& second_name);

// The YAML text of `root` under the header every resolved config carries.
std::string resolved_config_text(const YAML::Node& root);

}  // namespace rocketgym
