// Player<G> (player_base.h), its options and the one factory, make_player<G>:
// the player a (resolved) spec stands for, made by the spec's kind
// (PlayerKind::make_player; each kind's players are in its file,
// training/players/kinds/), and the helpers the network kinds' players share.
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

#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/quoted.h"
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

}  // namespace detail

// The one factory: the player a (resolved) spec stands for, made by its kind.
// Network players need spec.net (resolve() loads it). Throws Error for a zoo
// or search spec not yet resolved or a network player without its network.
template <class G>
std::unique_ptr<Player<G>> make_player(const PlayerSpec& spec, const PlayerOptions& options) {
  if (uses_network(spec) && !spec.net) throw Error("player " + quote(spec.name) + " has no network loaded");
  std::unique_ptr<UntypedPlayer> made =
      spec.kind->make_player({G::info().id, options.threads, &spec, &options});
  if (!made)
    throw Error("player " + quote(spec.name) + " (" + kind_name(spec) + ") must be resolved before it plays");
  auto* player = dynamic_cast<Player<G>*>(made.get());
  if (player == nullptr)
    throw Error("player " + quote(spec.name) + " (" + kind_name(spec) + ") was made for a game other than " +
                G::info().id);
  made.release();
  return std::unique_ptr<Player<G>>(player);
}

}  // namespace rocketgym::players
