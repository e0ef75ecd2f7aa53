// Small helpers shared by training and the arena: devices, threads, plots,
// progress timing.
#pragma once

#include <torch/torch.h>

#include <string>

namespace rocketgym {

// "cpu" or "cuda" (Error if LibTorch has no CUDA device here).
torch::Device parse_device(const std::string& name);
// Sets LibTorch's intra-op threads (it picks 1 on this machine otherwise).
void set_torch_threads(int threads);
// Runs training/plot.py (`kind`: curve | arena) with /usr/bin/python3.
// Plots are optional: returns false with a warning on stderr if it fails.
bool run_plot_script(const std::string& kind, const std::string& input, const std::string& output);
std::string format_duration(double seconds);  // "1h02m", "3m20s", "12s"

}  // namespace rocketgym
