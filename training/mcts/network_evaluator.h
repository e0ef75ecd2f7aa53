// An ISMCTS evaluator from a policy-value network (training/mcts/mcts.h's
// Evaluator concept): priors from the masked policy of the leaf's player,
// values rotated from viewer-relative seats to absolute seats. Leaves are
// encoded in parallel (OpenMP) and evaluated in batches of the runner's size,
// one forward pass each.
#pragma once

#include <algorithm>
#include <chrono>

#include "training/mcts/mcts.h"
#include "training/policy_runner.h"

namespace rocketgym::mcts {

template <class G>
class NetworkEvaluator {
 public:
  using State = typename G::State;
  NetworkEvaluator(PolicyRunner& runner, int threads = 1) : runner_(runner), threads_(std::max(1, threads)) {}

  void evaluate(Leaf<State>* leaves, int count) {
    const int num_actions = G::info().num_actions;
    for (int first = 0; first < count; first += runner_.max_batch()) {
      const int n = std::min(runner_.max_batch(), count - first);
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (int k = 0; k < n; ++k) {
        const State& s = *leaves[first + k].state;
        G::Encoder::encode(s, s.current_player(), runner_.observation_row(k));
        s.legal_actions_mask(runner_.mask_row(k));
      }
      const auto started = std::chrono::steady_clock::now();
      runner_.evaluate(n);
      network_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      leaves_ += n;
      ++batches_;
      for (int k = 0; k < n; ++k) {
        Leaf<State>& leaf = leaves[first + k];
        const int players = leaf.state->num_players(), me = leaf.state->current_player();
        std::copy_n(runner_.probabilities(k), num_actions, leaf.priors);
        for (int j = 0; j < players; ++j) leaf.values[(me + j) % players] = runner_.values(k)[j];
      }
    }
  }

  // Time spent in the network's forward passes, leaves evaluated, and
  // forward passes run.
  double network_seconds() const { return network_seconds_; }
  long long leaves() const { return leaves_; }
  long long batches() const { return batches_; }

 private:
  PolicyRunner& runner_;
  int threads_;
  double network_seconds_ = 0.0;
  long long leaves_ = 0;
  long long batches_ = 0;
};

}  // namespace rocketgym::mcts
