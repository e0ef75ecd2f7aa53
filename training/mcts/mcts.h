// Information-set Monte Carlo tree search (docs/architecture.md).
//
// One search decides one move for the player to move at the root (the
// "viewer"). Every simulation:
//   1. samples a world: a copy of the root, redeterminized for the viewer
//      (hidden cards and the state's chance stream are resampled), so the
//      search never uses what the viewer cannot know;
//   2. walks down the tree by PUCT for whoever is to move in that world,
//      looking only at the actions legal in that world;
//   3. asks an evaluator about the first unexpanded node (a "leaf"): priors
//      over actions for the leaf's player and a value per seat;
//   4. adds the value vector to every node on the path (max-n: each seat keeps
//      its own value, and each player picks by its own value when selecting).
//
// The tree is open loop: a node is a sequence of actions from the root, shared
// by every world in which that sequence is legal. So its player, its legal
// actions and whether it is terminal may differ from one world to the next.
// That is why statistics are kept per seat, why a node's children grow as new
// actions show up legal, and why selection uses availability counts (how often
// a child was legal when its parent was passed through) instead of the
// parent's visits in the exploration term:
//     score(c) = Q_p(c) + c_puct * P(c) * sqrt(available(c)) / (1 + N(c))
// with p the player to move in the current world and, for an unvisited child,
// Q_p(c) = the parent's current mean value for p ("first play urgency").
//
// This is single-observer ISMCTS: the tree is the viewer's. An opponent's
// node is shared by all sampled worlds, so the opponent's choices there are
// made as if it did not know its own hidden cards (beyond which moves are
// legal); the leaf values, computed in one sampled world, do use them.
//
// Evaluators. An evaluator is any type with
//     void evaluate(Leaf<State>* leaves, int count);
// which fills leaves[i].priors (num_actions entries, any non-negative
// weights: the search keeps the legal ones and renormalizes) and
// leaves[i].values (num_players entries, one value per absolute seat, on the
// returns' scale: a network whose value head is relative to the player it
// encoded for rotates it back). RolloutEvaluator<G> (training/mcts/rollout.h)
// plays games out with random or heuristic moves; a network evaluator encodes
// leaves[i].state for its current player and runs one batched forward pass
// over all `count` leaves.
//
// Batching. Search::advance() runs simulations until one needs a leaf
// evaluated (returns true; the leaf is pending()) or the budget is spent
// (returns false). The caller may collect pending leaves from many searches
// (one per game) and evaluate them in one batch: run_batched() does that.
// A search has at most one pending leaf, so no virtual loss is needed and
// the result does not depend on how searches are batched.
//
// Cost. Nodes live in one arena (std::vector reserved once, reused by later
// searches of the same Search object); a simulation allocates nothing and
// makes no virtual call. Each step of the descent reads the legal-actions mask
// (O(num_actions)).
//
// Determinism. Search number k of a Search object (counting from 0, or from the
// last reseed()) draws all its randomness from derive_seed(options.seed, k);
// the same options, root and call sequence give the same moves.
//
// Files. This one: the search (the descent, PUCT below the root, expansion,
// the results) and run_batched(). training/mcts/tree.h: the node arena and
// the backup. training/mcts/root_selection.h: the root's Dirichlet noise and
// the gumbel root. training/mcts/rollout.h: RolloutEvaluator and RolloutMcts.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/rng.h"
#include "training/mcts/root_selection.h"
#include "training/mcts/search_options.h"
#include "training/mcts/tree.h"

namespace rocketgym::mcts {

// A position the search wants evaluated. The evaluator writes priors and values.
template <class State>
struct Leaf {
  const State* state = nullptr;  // a sampled world, not terminal
  int viewer = 0;                // the searching player (for re-sampling in rollouts)
  uint64_t seed = 0;             // randomness for the evaluator, drawn from the search's stream
  float* priors = nullptr;       // [num_actions] out: weights for state->current_player()'s actions
  float* values = nullptr;       // [num_players] out: value per absolute seat
};

template <class G>
class Search {
 public:
  using State = typename G::State;

  explicit Search(const Options& options) : options_(options), num_actions_(G::info().num_actions) {
    options_.validate();
    priors_.resize(static_cast<std::size_t>(num_actions_));
    mask_.resize(static_cast<std::size_t>(num_actions_));
    if (options_.root == RootSelection::kGumbel)
      gumbel_.reserve(num_actions_, options_.gumbel_considered, options_.simulations);
    child_of_action_.assign(static_cast<std::size_t>(num_actions_), -1);
    // A simulation expands at most one node, adding at most num_actions children.
    const double wanted = 1.0 + (static_cast<double>(options_.simulations) + 1.0) * num_actions_;
    tree_ = Tree(static_cast<int>(std::min<double>(options_.max_nodes, wanted)));
    max_simulations_ = options_.simulations;
  }

  // --- the stepping interface (for batched evaluation) ----------------------

  // Begins a search for the player to move in `root`. Throws Error if the
  // game is over.
  void start(const State& root) {
    if (root.is_terminal()) throw Error("mcts: the game is over, there is no move to search");
    rng_.reseed(derive_seed(options_.seed, searches_started_++));
    num_players_ = root.num_players();
    viewer_ = root.current_player();
    // The arena and scratch buffers are reserved here once and kept by later
    // searches (these calls allocate nothing when the capacity is already there).
    values_.resize(static_cast<std::size_t>(num_players_));
    // Each simulation expands at most one node, so a path holds at most that
    // many expanded nodes plus the root and one leaf.
    path_.reserve(static_cast<std::size_t>(options_.simulations) + 2);
    root_.emplace(root);
    tree_.reset(num_players_);
    sims_done_ = 0;
    awaiting_ = false;
    gumbel_.clear();
    // The first legal move is the answer when the root could not be expanded
    // (a tiny arena); a forced move needs no search.
    root.legal_actions_mask(mask_.data());
    int legal = 0;
    first_legal_ = -1;
    for (Action a = num_actions_ - 1; a >= 0; --a)
      if (mask_[a]) {
        ++legal;
        first_legal_ = a;
      }
    forced_ = legal == 1 && !options_.search_forced_moves;
    sims_target_ = forced_ ? 0 : options_.simulations;
  }

  // Runs simulations until one needs its leaf evaluated (returns true: fill
  // pending().priors and .values, then call advance() again) or the budget is
  // spent (returns false: the search is finished).
  bool advance() {
    if (!root_) throw Error("mcts: advance() before start()");
    if (awaiting_) {
      finish_leaf();
      awaiting_ = false;
      ++sims_done_;
    }
    while (sims_done_ < sims_target_) {
      if (descend()) {
        awaiting_ = true;
        return true;
      }
      ++sims_done_;
    }
    return false;
  }

  Leaf<State>& pending() { return leaf_; }
  bool finished() const { return root_ && !awaiting_ && sims_done_ >= sims_target_; }

  // --- the one-call interface ------------------------------------------------

  // Searches `root` with `evaluator` and returns the move to play.
  template <class Evaluator>
  Action run(const State& root, Evaluator& evaluator) {
    start(root);
    while (advance()) evaluator.evaluate(&leaf_, 1);
    return choose_action();
  }

  // --- results (after the search finished) -----------------------------------

  // The move to play: the most visited root child at temperature 0 (ties go to
  // the higher prior, then the lower id), else a sample with probability
  // proportional to visits^(1/temperature).
  Action choose_action() {
    check_finished();
    if (forced_ || tree_[0].first_child < 0) return first_legal_;
    if (gumbel_.ready()) return gumbel_.choice(tree_, viewer_, options_);
    if (options_.temperature <= 0.0) return best_action();
    int most = 0;
    for (int c = tree_[0].first_child; c >= 0; c = tree_[c].next_sibling)
      most = std::max(most, tree_[c].visits);
    if (most == 0) return best_action();
    // Weights relative to the most visited child so that small temperatures cannot overflow.
    double total = 0.0;
    for (int c = tree_[0].first_child; c >= 0; c = tree_[c].next_sibling)
      total += std::pow(static_cast<double>(tree_[c].visits) / most, 1.0 / options_.temperature);
    double pick = rng_.uniform01() * total;
    Action last = -1;
    for (int c = tree_[0].first_child; c >= 0; c = tree_[c].next_sibling) {
      if (tree_[c].visits == 0) continue;
      last = tree_[c].action;
      pick -= std::pow(static_cast<double>(tree_[c].visits) / most, 1.0 / options_.temperature);
      if (pick < 0.0) return last;
    }
    return last;  // rounding left a sliver of `pick`
  }

  Action best_action() const {
    check_finished();
    if (forced_ || tree_[0].first_child < 0) return first_legal_;
    int best = tree_[0].first_child;
    for (int c = best; c >= 0; c = tree_[c].next_sibling) {
      const Node& n = tree_[c];
      const Node& b = tree_[best];
      if (std::tie(n.visits, n.prior, b.action) > std::tie(b.visits, b.prior, n.action)) best = c;
    }
    return tree_[best].action;
  }

  // Root visit shares per action id ([num_actions], sums to 1): the policy
  // target for training.
  void visit_policy(float* out) const {
    check_finished();
    std::fill(out, out + num_actions_, 0.0f);
    if (forced_ || tree_[0].first_child < 0) {
      out[first_legal_] = 1.0f;
      return;
    }
    int total = 0;
    for (int c = tree_[0].first_child; c >= 0; c = tree_[c].next_sibling) total += tree_[c].visits;
    if (total == 0) return;
    for (int c = tree_[0].first_child; c >= 0; c = tree_[c].next_sibling)
      out[tree_[c].action] = static_cast<float>(tree_[c].visits) / static_cast<float>(total);
  }

  // The policy target of the gumbel root ([num_actions], sums to 1):
  // softmax(logit + sigma(completed q)) over the legal root moves, where an
  // unvisited move's q is completed by the mixed value estimate (the
  // network's root value and the visited moves' q, weighted by prior). With
  // the puct root this is visit_policy().
  void improved_policy(float* out) const {
    check_finished();
    if (!gumbel_.ready()) {
      visit_policy(out);
      return;
    }
    gumbel_.improved_policy(tree_, viewer_, options_, num_actions_, out);
  }

  // Mean value for `seat` over all simulations (0 if none ran).
  float root_value(int seat) const { return tree_.mean_value(0, seat); }
  // Visits and mean value of the root child for action a (0 if never tried).
  int child_visits(Action a) const {
    const int c = tree_.root_child(a);
    return c < 0 ? 0 : tree_[c].visits;
  }
  float child_value(Action a, int seat) const {
    const int c = tree_.root_child(a);
    return c < 0 ? 0.0f : tree_.mean_value(c, seat);
  }
  float child_prior(Action a) const {
    const int c = tree_.root_child(a);
    return c < 0 ? 0.0f : tree_[c].prior;
  }

  int viewer() const { return viewer_; }
  // The root had a single legal move, returned without searching.
  bool forced() const { return forced_; }
  int simulations_done() const { return sims_done_; }
  int num_nodes() const { return tree_.size(); }
  int node_capacity() const { return tree_.capacity(); }
  const Options& options() const { return options_; }
  // Simulations of the next searches, at most the options' count (the node
  // arena is sized for that): self-play runs cheap searches for moves it does
  // not train on.
  void set_simulations(int simulations) {
    if (simulations < 1 || simulations > max_simulations_)
      throw Error("mcts: simulations must be in [1, " + std::to_string(max_simulations_) + "]");
    options_.simulations = simulations;
  }
  // The gumbel root's noise scale for the next searches (self-play turns it
  // off late in a game to play the best move).
  void set_gumbel_scale(double scale) {
    if (!(scale >= 0.0) || !std::isfinite(scale))
      throw Error("mcts: gumbel_scale must be a finite number >= 0");
    options_.gumbel_scale = scale;
  }
  // Restarts the seed sequence (search k uses derive_seed(seed, k)).
  void reseed(uint64_t seed) {
    options_.seed = seed;
    searches_started_ = 0;
  }

 private:
  void check_finished() const {
    if (!finished()) throw Error("mcts: the search has not finished");
  }

  // One simulation from the root down to a leaf. Returns true when the leaf
  // awaits evaluation; false when the simulation ended on a terminal world
  // (already backed up).
  bool descend() {
    world_.emplace(*root_);
    world_->redeterminize(viewer_, rng_);
    path_.clear();
    int node = 0;
    path_.push_back(node);
    for (;;) {
      if (world_->is_terminal()) {
        world_->returns(values_.data());
        backup();
        return false;
      }
      // A leaf: never evaluated, or no legal move has a child (arena full).
      const int child = !tree_[node].expanded          ? -1
                        : node == 0 && gumbel_.ready() ? gumbel_.select(tree_, viewer_, options_, sims_done_)
                                                       : select(node);
      if (child < 0) {
        leaf_.state = &*world_;
        leaf_.viewer = viewer_;
        leaf_.seed = rng_.next();
        leaf_.priors = priors_.data();
        leaf_.values = values_.data();
        std::fill(priors_.begin(), priors_.end(), 0.0f);
        std::fill(values_.begin(), values_.end(), 0.0f);
        return true;
      }
      world_->apply(tree_[child].action);
      node = child;
      path_.push_back(node);
    }
  }

  // PUCT choice among the moves legal in the current world for the player to
  // move there. Adds children for legal moves not seen before (with a uniform
  // prior: the evaluator's priors were given in another world). Returns -1 if
  // no legal move has a child and the arena is full.
  int select(int node) {
    world_->legal_actions_mask(mask_.data());
    int legal = 0;
    for (Action a = 0; a < num_actions_; ++a) legal += mask_[a];
    for (int c = tree_[node].first_child; c >= 0; c = tree_[c].next_sibling)
      child_of_action_[tree_[c].action] = c;

    const int player = world_->current_player();
    const float parent_value = tree_.mean_value(node, player);
    const float uniform = 1.0f / static_cast<float>(std::max(legal, 1));
    int best = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    for (Action a = 0; a < num_actions_; ++a) {
      if (!mask_[a]) continue;
      int c = child_of_action_[a];
      if (c < 0) {
        if (!tree_.has_room(1)) continue;
        c = tree_.add_child(node, a, uniform);
      }
      Node& n = tree_[c];
      ++n.available;
      const double q = n.visits > 0 ? tree_.mean_value(c, player) : parent_value;
      const double u =
          options_.c_puct * n.prior * std::sqrt(static_cast<double>(n.available)) / (1.0 + n.visits);
      if (q + u > best_score) {  // strict: ties go to the lower action id
        best_score = q + u;
        best = c;
      }
    }
    for (int c = tree_[node].first_child; c >= 0; c = tree_[c].next_sibling)
      child_of_action_[tree_[c].action] = -1;
    return best;
  }

  // The evaluator has filled priors_ and values_ for the leaf at path_.back().
  void finish_leaf() {
    for (int p = 0; p < num_players_; ++p)
      if (!std::isfinite(values_[p])) throw Error("mcts: the evaluator returned a non-finite value");
    const int node = path_.back();
    if (!tree_[node].expanded) expand(node);
    backup();
  }

  // Creates the children of a freshly evaluated node with the evaluator's
  // priors, kept to the legal moves and renormalized.
  void expand(int node) {
    world_->legal_actions_mask(mask_.data());
    int legal = 0;
    double total = 0.0;
    for (Action a = 0; a < num_actions_; ++a) {
      if (!mask_[a]) continue;
      ++legal;
      const float p = priors_[a];
      if (std::isfinite(p) && p > 0.0f) total += p;
    }
    if (!tree_.has_room(legal)) return;               // stays a leaf: it will be evaluated again next time
    for (Action a = num_actions_ - 1; a >= 0; --a) {  // prepending, so the list ends up in id order
      if (!mask_[a]) continue;
      const float p = priors_[a];
      const double w = std::isfinite(p) && p > 0.0f ? p : 0.0;
      tree_.add_child(node, a,
                      total > 0.0 ? static_cast<float>(w / total) : 1.0f / static_cast<float>(legal));
    }
    tree_[node].expanded = true;
    if (node == 0 && options_.dirichlet_fraction > 0.0)
      add_root_noise(tree_, options_, rng_, priors_.data());  // priors_ is free scratch here
    if (node == 0 && options_.root == RootSelection::kGumbel)
      gumbel_.start(tree_, values_[static_cast<std::size_t>(viewer_)], options_, sims_target_, rng_);
  }

  // The evaluator's values for the leaf (or the terminal world's returns)
  // go to every node on the path.
  void backup() { tree_.backup(path_, values_.data()); }

  Options options_;
  int num_actions_;
  int max_simulations_ = 0;  // what the buffers were sized for
  int num_players_ = 0;
  int viewer_ = 0;
  uint64_t searches_started_ = 0;
  Rng rng_;

  std::optional<State> root_;   // the position searched
  std::optional<State> world_;  // the world of the current simulation
  Tree tree_;
  std::vector<int32_t> path_;
  std::vector<int32_t> child_of_action_;  // scratch for select(), all -1 between calls
  std::vector<uint8_t> mask_;
  std::vector<float> priors_;
  std::vector<float> values_;
  Leaf<State> leaf_;
  GumbelRoot gumbel_;  // the gumbel root (empty with the puct root)

  int sims_done_ = 0;
  int sims_target_ = 0;
  bool awaiting_ = false;
  bool forced_ = false;
  Action first_legal_ = -1;
};

// Runs already started searches to the end, evaluating their pending leaves
// together: each round gathers at most one leaf per search and makes one
// evaluator call. `batch` is scratch (kept by the caller so that it is
// allocated once). `stop()`, asked before each round, ends the run early
// when true (the searches are then unfinished: a caller's stop request).
template <class G, class Evaluator, class Stop>
void run_batched(Search<G>* const* searches, int count, Evaluator& evaluator,
                 std::vector<Leaf<typename G::State>>& batch, Stop&& stop) {
  batch.reserve(static_cast<std::size_t>(count));
  for (;;) {
    if (stop()) return;
    batch.clear();
    for (int i = 0; i < count; ++i) {
      Search<G>& s = *searches[i];
      if (!s.finished() && s.advance()) batch.push_back(s.pending());
    }
    if (batch.empty()) return;
    evaluator.evaluate(batch.data(), static_cast<int>(batch.size()));
  }
}

template <class G, class Evaluator>
void run_batched(Search<G>* const* searches, int count, Evaluator& evaluator,
                 std::vector<Leaf<typename G::State>>& batch) {
  run_batched(searches, count, evaluator, batch, [] { return false; });
}

}  // namespace rocketgym::mcts
