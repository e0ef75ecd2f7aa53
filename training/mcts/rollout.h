// Evaluation by playouts for training/mcts/mcts.h's search: RolloutEvaluator
// (priors and values from games played out by random or heuristic moves) and
// RolloutMcts, a search with its rollout evaluator as one player.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/rng.h"
#include "training/mcts/mcts.h"
#include "training/mcts/search_options.h"

namespace rocketgym::mcts {

// Whether game G can estimate a position's returns without playing it out:
// `static void estimate_returns(const State&, float* out)` (out[seat], on the
// returns' scale), what Options::rollout_depth needs.
template <class G, class = void>
struct HasEstimateReturns : std::false_type {};
template <class G>
struct HasEstimateReturns<G, std::void_t<decltype(G::estimate_returns(
                                 std::declval<const typename G::State&>(), static_cast<float*>(nullptr)))>>
    : std::true_type {};

// Evaluates a leaf by playouts. Priors: uniform over the legal moves (or
// partly on the heuristic bot's move, see Options::heuristic_prior). Values:
// the mean returns of `options.rollouts` games played by the rollout policy
// (see RolloutPolicy) to the end, or for `options.rollout_depth` moves and
// then valued by the game's estimate (G::estimate_returns). The first playout
// continues the leaf's own world; the others first redeterminize it for the
// viewer, so that they also meet other hidden cards and other dice. A playout
// that has not ended after max_decisions moves counts as a draw (all zeros).
// Not thread-safe (scratch buffers): use one per thread.
template <class G>
class RolloutEvaluator {
 public:
  using State = typename G::State;

  explicit RolloutEvaluator(const Options& options = Options{})
      : rollouts_(options.rollouts),
        policy_(options.rollout_policy),
        epsilon_(options.rollout_epsilon),
        heuristic_prior_(options.heuristic_prior),
        depth_(options.rollout_depth),
        num_actions_(G::info().num_actions),
        max_decisions_(G::info().max_decisions) {
    options.validate();
    if constexpr (!HasEstimateReturns<G>::value)
      if (depth_ > 0)
        throw Error("mcts options: rollout_depth must be 0 for " + G::info().id +
                    ": the game has no estimate of a position's returns (G::estimate_returns) to stop a "
                    "playout early");
    mask_.resize(static_cast<std::size_t>(num_actions_));
  }

  void evaluate(Leaf<State>* leaves, int count) {
    for (int i = 0; i < count; ++i) {
      Rng rng(leaves[i].seed);
      write_priors(*leaves[i].state, rng, leaves[i].priors);
      playout_values(leaves[i], rng, leaves[i].values);
    }
  }

  // The values alone (for mixing with a network's, Options::playout_weight):
  // the mean returns of the playouts from `leaf`, one per absolute seat.
  void playout_values(const Leaf<State>& leaf, Rng& rng, float* values) {
    const int players = leaf.state->num_players();
    returns_.resize(static_cast<std::size_t>(players));  // allocates only if the player count grew
    std::fill(values, values + players, 0.0f);
    for (int k = 0; k < rollouts_; ++k) {
      State world = *leaf.state;
      if (k > 0) world.redeterminize(leaf.viewer, rng);
      if (!play_out(world, rng)) continue;  // too long: a draw, adds 0
      if (world.is_terminal())
        world.returns(returns_.data());
      else
        estimate_returns(world);
      for (int p = 0; p < players; ++p) values[p] += returns_[p];
    }
    for (int p = 0; p < players; ++p) values[p] /= static_cast<float>(rollouts_);
  }

 private:
  void write_priors(const State& state, Rng& rng, float* priors) {
    state.legal_actions_mask(mask_.data());
    int legal = 0;
    for (Action a = 0; a < num_actions_; ++a) legal += mask_[a];
    const float even = static_cast<float>((1.0 - heuristic_prior_) / legal);
    for (Action a = 0; a < num_actions_; ++a) priors[a] = mask_[a] ? even : 0.0f;
    if (heuristic_prior_ > 0.0)
      priors[G::heuristic_action(state, rng)] += static_cast<float>(heuristic_prior_);
  }

  // Plays to the end, or rollout_depth moves; false if the game did not end
  // in time.
  bool play_out(State& world, Rng& rng) {
    for (int step = 0; step <= max_decisions_; ++step) {
      if (world.is_terminal() || (depth_ > 0 && step == depth_)) return true;
      const bool random = policy_ == RolloutPolicy::kRandom || (epsilon_ > 0.0 && rng.uniform01() < epsilon_);
      world.apply(random ? random_action(world, rng) : G::heuristic_action(world, rng));
    }
    return world.is_terminal();
  }

  void estimate_returns(const State& world) {
    if constexpr (HasEstimateReturns<G>::value) G::estimate_returns(world, returns_.data());
  }

  Action random_action(const State& world, Rng& rng) {
    world.legal_actions_mask(mask_.data());
    const Action a = random_legal_action(mask_.data(), num_actions_, rng);
    if (a < 0) throw Error("mcts: a non-terminal state has no legal move");  // a broken game
    return a;
  }

  int rollouts_;
  RolloutPolicy policy_;
  double epsilon_;
  double heuristic_prior_;
  int depth_;  // 0: to the end
  int num_actions_;
  int max_decisions_;
  std::vector<uint8_t> mask_;
  std::vector<float> returns_;
};

// An arena-ready player: a search and a rollout evaluator that keep their
// buffers from one move to the next.
template <class G>
class RolloutMcts {
 public:
  explicit RolloutMcts(const Options& options) : search_(options), evaluator_(options) {}
  Action act(const typename G::State& state) { return search_.run(state, evaluator_); }
  Search<G>& search() { return search_; }
  const Search<G>& search() const { return search_; }

 private:
  Search<G> search_;
  RolloutEvaluator<G> evaluator_;
};

}  // namespace rocketgym::mcts
