// The pieces of a run's config that PPO and search-based training share: the
// `run:` block (RunSettings), the game and model blocks of the resolved
// config.yaml, and the file's text.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "models/policy_value_net.h"
#include "training/game_setup.h"

namespace rocketgym {

// The `run:` block, the same keys for both trainers:
//   dir, seed, threads (LibTorch and env threads), device (cpu | cuda),
//   checkpoint_every (iterations), eval_every (iterations between greedy
//   evaluations vs random and heuristic; 0 = none), eval_games,
//   snapshot_minutes (also keep checkpoints/minute_<m>.ckpt after m minutes
//   of training, for the strength-against-compute curve; fractions of a
//   minute are allowed), plot, ranks (written by the trainer: processes in
//   the run; not read).
// The trainers' configs derive from it, so their code names the fields
// directly (cfg.run_dir, cfg.seed...).
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

  // Keys of the resolved config that may differ between the ranks of one
  // run: each process's own resources, and what only rank 0 uses (its run
  // folder, its plot). Every other key must be the same on every rank.
  static const std::vector<std::string>& rank_local_keys();

  // Reads `root`'s run: block over these values (ConfigError on an unknown
  // key or a bad value).
  void read_run_block(const ConfigNode& root);
  void write_run_block(YAML::Node& root) const;
};

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

void write_game_and_model(YAML::Node& root, const GameSetup& game, const NetConfig& net);

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
