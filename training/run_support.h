// Small helpers shared by training and the arena: devices, threads, plots,
// progress timing.
#pragma once

#include <torch/torch.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace rocketgym {

// What a training run reports when it stops (PPO and search-based alike).
struct TrainSummary {
  int64_t steps = 0, updates = 0, episodes = 0;
  double seconds = 0.0, samples_per_second = 0.0;
  double eval_vs_random = -1.0, eval_vs_heuristic = -1.0;  // win rates at the last evaluation
  std::string checkpoint;
  bool resumed = false;
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

}  // namespace rocketgym
