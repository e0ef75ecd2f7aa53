// An ISMCTS evaluator from a policy-value network (training/mcts/mcts.h's
// Evaluator concept): priors from the masked policy of the leaf's player,
// values rotated from viewer-relative seats to absolute seats. Leaves are
// encoded in parallel (OpenMP) and evaluated in batches of the runner's size,
// one forward pass each. The game's heuristic can join in, as in
// RolloutEvaluator: options.heuristic_prior moves that share of each leaf's
// prior onto the heuristic bot's move, and options.playout_weight mixes
// playouts of the rollout policy into its values (one scratch evaluator per
// thread; a leaf draws only from its own seed, so the result does not depend
// on the thread count).
#pragma once

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "training/mcts/rollout.h"
#include "training/policy_runner.h"

namespace rocketgym::mcts {

template <class G>
class NetworkEvaluator {
 public:
  using State = typename G::State;
  NetworkEvaluator(PolicyRunner& runner, int threads = 1, const Options& options = Options{})
      : runner_(runner),
        threads_(std::max(1, threads)),
        heuristic_prior_(static_cast<float>(options.heuristic_prior)),
        playout_weight_(static_cast<float>(options.playout_weight)),
        prior_power_(static_cast<float>(1.0 / options.prior_temperature)) {
    if (playout_weight_ > 0.0f)
      for (int t = 0; t < threads_; ++t) playouts_.emplace_back(options);
  }

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
        if (prior_power_ != 1.0f) sharpen_or_flatten(leaf.priors, num_actions);
        for (int j = 0; j < players; ++j) leaf.values[(me + j) % players] = runner_.values(k)[j];
      }
      if (heuristic_prior_ > 0.0f || playout_weight_ > 0.0f) mix_heuristic(leaves + first, n);
    }
  }

  // Time spent in the network's forward passes, leaves evaluated, and
  // forward passes run.
  double network_seconds() const { return network_seconds_; }
  long long leaves() const { return leaves_; }
  long long batches() const { return batches_; }

 private:
  // priors <- p^(1/T), normalized (illegal moves have p = 0 and stay 0).
  void sharpen_or_flatten(float* priors, int num_actions) const {
    float sum = 0.0f;
    for (int a = 0; a < num_actions; ++a)
      sum += priors[a] = priors[a] > 0.0f ? std::pow(priors[a], prior_power_) : 0.0f;
    if (sum > 0.0f)
      for (int a = 0; a < num_actions; ++a) priors[a] /= sum;
  }

  void mix_heuristic(Leaf<State>* leaves, int n) {
    // The leaves may sit at tables of different sizes (mixed-table self-play).
    const int stride = G::info().max_players, num_actions = G::info().num_actions;
    played_.resize(static_cast<std::size_t>(n * stride));  // allocates only when the batch grows
#pragma omp parallel for schedule(dynamic) num_threads(threads_)
    for (int k = 0; k < n; ++k) {
      Rng rng(leaves[k].seed);
      if (heuristic_prior_ > 0.0f) {
        for (int a = 0; a < num_actions; ++a) leaves[k].priors[a] *= 1.0f - heuristic_prior_;
        leaves[k].priors[G::heuristic_action(*leaves[k].state, rng)] += heuristic_prior_;
      }
      if (playout_weight_ <= 0.0f) continue;
      float* played = played_.data() + static_cast<std::size_t>(k * stride);
      playouts_[static_cast<std::size_t>(omp_get_thread_num())].playout_values(leaves[k], rng, played);
      for (int p = 0, players = leaves[k].state->num_players(); p < players; ++p)
        leaves[k].values[p] = (1.0f - playout_weight_) * leaves[k].values[p] + playout_weight_ * played[p];
    }
  }

  PolicyRunner& runner_;
  int threads_;
  float heuristic_prior_;
  float playout_weight_;
  float prior_power_;                          // 1 / options.prior_temperature
  std::vector<RolloutEvaluator<G>> playouts_;  // per thread, only with playout_weight > 0
  std::vector<float> played_;                  // playout values, [leaf][seat]
  double network_seconds_ = 0.0;
  long long leaves_ = 0;
  long long batches_ = 0;
};

}  // namespace rocketgym::mcts
