// Small helpers shared by training and the arena: devices, threads, plots,
// progress timing.
#pragma once

#include <torch/torch.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "models/checkpoint.h"
#include "training/config_yaml.h"

namespace rocketgym {

// What a training run reports when it stops (PPO and search-based alike).
struct TrainSummary {
  int64_t steps = 0, updates = 0, episodes = 0;
  double seconds = 0.0, samples_per_second = 0.0;
  double eval_vs_random = -1.0, eval_vs_heuristic = -1.0;  // win rates at the last evaluation
  std::string checkpoint;
  bool resumed = false;
  int pool_snapshots = 0;  // opponent snapshots in the pool at the end (PPO)
};

// Set by the SIGINT handler of `rocketgym train`: the trainers finish the
// iteration under way, save and stop.
extern std::atomic<bool> stop_requested;

// Rewrites metrics.csv keeping the header and the rows whose first column (the
// update or iteration) is <= last_update: a resumed run drops the rows written
// after its checkpoint.
void truncate_metrics(const std::string& file, int64_t last_update);

// "cpu" or "cuda" (Error if LibTorch has no CUDA device here).
torch::Device parse_device(const std::string& name);
// Sets LibTorch's intra-op threads (it picks 1 on this machine otherwise).
void set_torch_threads(int threads);
// Runs training/plot.py (`kind`: curve | arena) with /usr/bin/python3.
// Plots are optional: returns false with a warning on stderr if it fails.
bool run_plot_script(const std::string& kind, const std::string& input, const std::string& output);
std::string format_duration(double seconds);  // "1h02m", "3m20s", "12s"

// The network a run's model block describes for `game` at the table sizes
// `player_counts`: a value output per seat of the game's largest table
// (GameInfo::max_players), so that it can learn any table size later; a
// ConfigError when the counts have different observation shapes.
NetSpec net_spec_for(const AnyGame& game, const std::vector<int>& player_counts, const NetConfig& net);
// A fresh run's first weights: seeded from run.seed, not from whatever
// LibTorch's global generator holds now.
PolicyValueNet fresh_network(const NetSpec& spec, uint64_t run_seed);
// Copies `from`'s weights (parameters and buffers) into `to` in place (a
// runner over `to` remakes its plain C++ copy); a CheckpointError naming
// `what`, where the weights come from, if the two networks differ in shape.
void copy_weights(PolicyValueNet& to, const PolicyValueNet& from, const std::string& what);

// What a resumed run must keep from its checkpoint: who trained it
// ("ppo" | "alphazero", the checkpoint's extra.algorithm), its network, and
// the game's rules (GameSetup::resolved_config_text).
struct RunIdentity {
  std::string algorithm;
  NetSpec net;
  std::string game_config;
  uint64_t seed = 1;  // run.seed
};
// The trainers' check of a run folder's checkpoint before resuming from it:
// throws CheckpointError, naming `path` and what differs, when it is a
// weights-only file (an export or a minute snapshot: no optimizer state,
// counters or opponent pool), belongs to the other trainer, or was trained
// with another network (model.*), under other game rules (the config file
// or game.overrides changed) or from another run.seed than `run`
// configures. Checkpoints written before the game's rules were recorded are
// not checked for them.
void check_resumable(const LoadedCheckpoint& checkpoint, const std::string& path, const RunIdentity& run);

// Writes the weights-only snapshots of run.snapshot_minutes due after
// `elapsed_seconds` of training into <run_dir>/checkpoints/.
void save_due_snapshots(MinuteSnapshots& snapshots, const std::string& run_dir, double elapsed_seconds,
                        const CheckpointMeta& meta, PolicyValueNet& net);

// Makes the folder `dir` (with its parents) that a run writes into, or an
// Error naming it as `what` ("run.dir (--run-dir)", "arena output folder")
// and why: a file, a FIFO or a device in its place, no permission.
void make_output_folder(const std::string& dir, const std::string& what);

// An exclusive lock on a run folder (flock on <dir>/.lock) for as long as it
// lives, so that two trainings never write the same checkpoints and a
// training may remove the temp files a killed one left; the arena takes the
// same lock on its output folder, so that two arenas never replace each
// other's results. The kernel drops the lock with the process, also after
// kill -9.
class RunFolderLock {
 public:
  // Error when another process holds it; `what` names the folder in it
  // ("run folder", "arena output folder").
  explicit RunFolderLock(const std::string& dir, const std::string& what = "run folder");
  ~RunFolderLock();
  RunFolderLock(const RunFolderLock&) = delete;
  RunFolderLock& operator=(const RunFolderLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace rocketgym
