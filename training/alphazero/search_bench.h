// `rocketgym bench-search`: the throughput of search-based self-play, the
// trainer's hot loop without the learning step. Every game of a batch runs a
// Gumbel ISMCTS search per decision; leaves of all searches go through the
// network together (training/alphazero/self_play.h). The figures say where
// the time goes: the network's forward passes (the goal is most of it) or the
// tree code and the games (search, encoding, resampled worlds).
#pragma once

#include <string>

#include "training/alphazero/train_config.h"

namespace rocketgym::alphazero {

struct SearchBenchResult {
  double seconds = 0.0;          // measured self-play time (after the warm-up)
  double network_seconds = 0.0;  // of which in forward passes
  long long simulations = 0;
  long long leaves = 0;   // positions evaluated by the network
  long long batches = 0;  // forward passes
  long long decisions = 0;
  long long positions = 0;  // training positions recorded

  double simulations_per_second() const { return simulations / seconds; }
  double leaves_per_second() const { return leaves / seconds; }
  double network_share() const { return network_seconds / seconds; }
  double mean_batch() const { return batches ? static_cast<double>(leaves) / batches : 0.0; }
};

// Plays self-play under `config` (selfplay.*, search.*, model.*, run.threads)
// with the weights of `checkpoint` (or the config's freshly seeded network when
// empty) for about `seconds`, after `warmup_seconds` that are not counted.
SearchBenchResult bench_search(const TrainConfig& config, const std::string& checkpoint, double seconds,
                               double warmup_seconds);

}  // namespace rocketgym::alphazero
