// The players of every kind for one concrete game type, and the one factory
// (make_player). The interface, Player<G>, and the players that need no
// network are in player_base.h.
//
// Player<G>: who picks the moves at a seat, for one concrete game type, asked
// for the moves of many states at once.
//
// A caller (the arena, a trainer's opponent seats, AnyPlayer for one state)
// gathers the decisions a player has to make this round and makes one
// virtual call: act(decisions, count). A network player encodes them all and
// runs one forward pass; a network search advances all its searches together
// and evaluates their leaves in one batch; the other players spread the
// decisions over `threads` OpenMP threads. A single decision is the batch
// of one.
//
// Seeds: a decision brings its own random stream (`rng`, for sampling,
// heuristic ties and random moves) and the seed of its search
// (`search_seed`); the caller derives both from its own seed, the game and
// the move, so a move never depends on the batch it was asked in, on the
// thread count or on the other games.
//
//   auto player = players::make_player<G>(spec, {threads, max_batch, device});
//   Decision<G> d{&state, state.current_player(), &rng, seed};
//   player->act(&d, 1);  // d.action
#pragma once

#include <ATen/Parallel.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <variant>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/rng.h"
#include "training/mcts/network_evaluator.h"
#include "training/mcts/rollout.h"
#include "training/players/interrupt.h"
#include "training/players/player_base.h"
#include "training/players/player_spec.h"
#include "training/policy_runner.h"

namespace rocketgym::players {

struct PlayerOptions {
  int threads = 1;     // OpenMP threads for the players that do not batch
  int max_batch = 64;  // network rows per forward pass (larger batches go in several)
  torch::Device device = torch::kCPU;
  // A network player's threads (its rows' encoding and forward pass); 0: as
  // LibTorch is set (at::set_num_threads, which the arena and the trainers call).
  int network_threads = 0;
  // Polled between searches by the players that search (interrupt.h); null: never stops early.
  Interrupt* interrupt = nullptr;
};

namespace detail {

// Copies rows into a runner and evaluates them, `max_batch` at a time.
template <class G>
void evaluate_rows(PolicyRunner& runner, const float* observations, const uint8_t* masks, int count,
                   int players, float* probabilities, float* values) {
  const int obs_size = runner.net()->spec().observation_size(), actions = G::info().num_actions;
  for (int first = 0; first < count; first += runner.max_batch()) {
    const int n = std::min(runner.max_batch(), count - first);
    for (int k = 0; k < n; ++k) {
      const auto row = static_cast<std::size_t>(first + k);
      std::memcpy(runner.observation_row(k), observations + row * obs_size, sizeof(float) * obs_size);
      std::memcpy(runner.mask_row(k), masks + row * actions, static_cast<std::size_t>(actions));
      if (std::none_of(masks + row * actions, masks + (row + 1) * actions, [](uint8_t m) { return m != 0; }))
        throw Error("row " + std::to_string(row) + " has no legal action");
    }
    runner.evaluate(n);
    for (int k = 0; k < n; ++k) {
      const auto row = static_cast<std::size_t>(first + k);
      std::copy_n(runner.probabilities(k), actions, probabilities + row * actions);
      std::copy_n(runner.values(k), players, values + row * players);
    }
  }
}

// Sets the calling thread's OpenMP thread count, which LibTorch's CPU
// operators and OpenBLAS follow, for one scope (0: leaves it). Cheaper than
// at::set_num_threads, which also rebuilds LibTorch's other thread pools.
// (at::get_num_threads() first: LibTorch sets the count on a thread's first
// parallel operator, which must not undo ours.)
class ScopedOpenMpThreads {
 public:
  explicit ScopedOpenMpThreads(int threads) : saved_(at::get_num_threads()) {
    if (threads > 0) omp_set_num_threads(threads);
  }
  ~ScopedOpenMpThreads() { omp_set_num_threads(saved_); }
  ScopedOpenMpThreads(const ScopedOpenMpThreads&) = delete;
  ScopedOpenMpThreads& operator=(const ScopedOpenMpThreads&) = delete;

 private:
  int saved_;
};

// A network playing its policy: the most probable legal action or a draw.
template <class G>
class NetworkPlayer final : public Player<G> {
 public:
  NetworkPlayer(PolicyValueNet net, bool greedy, const PlayerOptions& o)
      : runner_(std::move(net), o.device, o.max_batch), greedy_(greedy), network_threads_(o.network_threads) {
    runner_.use_sparse_rows();  // an mlp in plain C++, its non-zero inputs, its legal moves (policy_runner.h)
  }

  // Each row is encoded, evaluated and picked in one parallel loop
  // (PolicyRunner::evaluate_policy): acting needs no value.
  void act(Decision<G>* d, int count) override {
    const ScopedOpenMpThreads forward_threads(network_threads_);
    for (int first = 0; first < count; first += runner_.max_batch()) {
      const int n = std::min(runner_.max_batch(), count - first);
      Decision<G>* batch = d + first;
      auto write_row = [&](int k) { write(batch[k], k); };
      auto read_row = [&](int k) { batch[k].action = runner_.choose(k, greedy_, *batch[k].rng); };
      runner_.evaluate_policy(n, write_row, read_row);
    }
  }

  // Groups need the network in plain C++ (PolicyRunner::evaluate_group).
  int group_rows() const override { return runner_.lean() ? runner_.max_batch() : 0; }
  void prepare_groups() override { runner_.prepare_groups(); }
  void act_group(Decision<G>* d, int count, int first_row) override {
    for (int k = 0; k < count; ++k) write(d[k], first_row + k);
    runner_.evaluate_group(first_row, count);
    for (int k = 0; k < count; ++k) d[k].action = runner_.choose(first_row + k, greedy_, *d[k].rng);
  }

  void evaluate(const float* observations, const uint8_t* masks, int count, int players, float* probabilities,
                float* values) override {
    const ScopedOpenMpThreads forward_threads(network_threads_);
    evaluate_rows<G>(runner_, observations, masks, count, players, probabilities, values);
  }

 private:
  // The decision's observation and legal mask into the runner's row `row`.
  void write(const Decision<G>& d, int row) {
    if (d.observation)
      std::memcpy(runner_.observation_row(row), d.observation,
                  sizeof(float) * static_cast<std::size_t>(runner_.net()->spec().observation_size()));
    else
      G::Encoder::encode(*d.state, d.seat, runner_.observation_row(row));
    if (d.mask)
      std::memcpy(runner_.mask_row(row), d.mask, static_cast<std::size_t>(G::info().num_actions));
    else
      d.state->legal_actions_mask(runner_.mask_row(row));
  }

  PolicyRunner runner_;
  bool greedy_;
  int network_threads_;
};

// Information-set MCTS: with a network, all searches of a batch advance
// together and their leaves go in one forward pass; with playouts, the
// searches run in parallel, one rollout evaluator per thread.
template <class G>
class SearchPlayer final : public Player<G> {
 public:
  SearchPlayer(const mcts::Options& options, PolicyValueNet net, const PlayerOptions& o)
      : options_(options), threads_(std::max(1, o.threads)), interrupt_(o.interrupt) {
    options_.validate();
    if (net) {
      runner_ = std::make_unique<PolicyRunner>(std::move(net), o.device, o.max_batch);
      network_ = std::make_unique<mcts::NetworkEvaluator<G>>(*runner_, threads_, options_);
    } else {
      for (int t = 0; t < threads_; ++t) rollouts_.emplace_back(options_);
    }
  }

  void act(Decision<G>* d, int count) override {
    // One search per decision of the batch, kept for the next batch: a
    // search restarts from its seed at every move, so which one serves a
    // game does not change the move.
    while (static_cast<int>(searches_.size()) < count) {
      searches_.push_back(std::make_unique<mcts::Search<G>>(options_));
      search_ptrs_.push_back(searches_.back().get());
    }
    for (int k = 0; k < count; ++k) searches_[static_cast<std::size_t>(k)]->reseed(d[k].search_seed);
    // A stop request (interrupt.h) is seen between batches of leaves or
    // between searches; the searches left unfinished answer nothing.
    if (network_) {
      for (int k = 0; k < count; ++k) searches_[static_cast<std::size_t>(k)]->start(*d[k].state);
      mcts::run_batched(search_ptrs_.data(), count, *network_, leaf_batch_,
                        [this] { return stop_requested(interrupt_); });
      if (interrupt_) interrupt_->check();
      for (int k = 0; k < count; ++k) d[k].action = searches_[static_cast<std::size_t>(k)]->choose_action();
      return;
    }
#pragma omp parallel for schedule(dynamic) num_threads(threads_)
    for (int k = 0; k < count; ++k) {
      if (stop_requested(interrupt_)) continue;
      d[k].action = searches_[static_cast<std::size_t>(k)]->run(
          *d[k].state, rollouts_[static_cast<std::size_t>(omp_get_thread_num())]);
    }
    if (interrupt_) interrupt_->check();
  }

  void evaluate(const float* observations, const uint8_t* masks, int count, int players, float* probabilities,
                float* values) override {
    if (!runner_) Player<G>::evaluate(observations, masks, count, players, probabilities, values);
    evaluate_rows<G>(*runner_, observations, masks, count, players, probabilities, values);
  }

 private:
  mcts::Options options_;
  int threads_;
  Interrupt* interrupt_;
  std::unique_ptr<PolicyRunner> runner_;
  std::unique_ptr<mcts::NetworkEvaluator<G>> network_;
  std::vector<mcts::RolloutEvaluator<G>> rollouts_;  // one per thread (they keep scratch buffers)
  std::vector<std::unique_ptr<mcts::Search<G>>> searches_;
  std::vector<mcts::Search<G>*> search_ptrs_;  // the same, for run_batched
  std::vector<mcts::Leaf<typename G::State>> leaf_batch_;
};

}  // namespace detail

// The one factory: the player a (resolved) spec stands for. Network players
// need spec.net (resolve() loads it). Throws Error for a zoo or search spec
// not yet resolved or a network player without its network.
template <class G>
std::unique_ptr<Player<G>> make_player(const PlayerSpec& spec, const PlayerOptions& options) {
  if (uses_network(spec) && !spec.net) throw Error("player '" + spec.name + "' has no network loaded");
  return std::visit(
      [&](const auto& kind) -> std::unique_ptr<Player<G>> {
        using K = std::decay_t<decltype(kind)>;
        if constexpr (std::is_same_v<K, Random>) {
          return std::make_unique<detail::RandomPlayer<G>>(options.threads);
        } else if constexpr (std::is_same_v<K, Heuristic>) {
          return std::make_unique<detail::HeuristicPlayer<G>>(options.threads);
        } else if constexpr (std::is_same_v<K, Checkpoint>) {
          return std::make_unique<detail::NetworkPlayer<G>>(spec.net, kind.greedy, options);
        } else if constexpr (std::is_same_v<K, Ismcts>) {
          return std::make_unique<detail::SearchPlayer<G>>(kind.mcts, spec.net, options);
        } else {
          throw Error("player '" + spec.name + "' (" + kind_name(spec) +
                      ") must be resolved before it plays");
        }
      },
      spec.kind);
}

}  // namespace rocketgym::players
