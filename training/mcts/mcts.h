// Information-set Monte Carlo tree search (DESIGN.md section 8).
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
// encoded for rotates it back). RolloutEvaluator<G> below plays games out
// with random or heuristic moves; a network evaluator encodes
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
#include "training/mcts/search_options.h"

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

namespace detail {

// Gamma(alpha, 1) by Marsaglia and Tsang; alpha < 1 uses the boost
// Gamma(alpha) = Gamma(alpha + 1) * U^(1/alpha).
inline double sample_gamma(double alpha, Rng& rng) {
  if (alpha < 1.0) {
    const double u = std::max(rng.uniform01(), 1e-300);
    return sample_gamma(alpha + 1.0, rng) * std::pow(u, 1.0 / alpha);
  }
  const double d = alpha - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    // Standard normal by Box-Muller.
    const double u1 = std::max(rng.uniform01(), 1e-300);
    const double u2 = rng.uniform01();
    const double x = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    const double v0 = 1.0 + c * x;
    if (v0 <= 0.0) continue;
    const double v = v0 * v0 * v0;
    const double u = std::max(rng.uniform01(), 1e-300);
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

// Sequential Halving as a visit schedule: entry i is how many visits the
// root move chosen by simulation i already has. With m moves considered and
// n simulations, each of log2(m) phases gives every surviving move an equal
// share, then the better half goes on (at least two survive). Choosing, at
// simulation i, the best-scoring considered move with exactly entry i visits
// plays this schedule out.
inline void considered_visits(int considered, int simulations, std::vector<int32_t>& out) {
  out.clear();
  if (considered <= 1) {
    for (int i = 0; i < simulations; ++i) out.push_back(i);
    return;
  }
  const int phases = static_cast<int>(std::ceil(std::log2(static_cast<double>(considered))));
  std::vector<int32_t> visits(static_cast<std::size_t>(considered), 0);
  int alive = considered;
  while (static_cast<int>(out.size()) < simulations) {
    const int rounds = std::max(1, simulations / (phases * alive));
    for (int r = 0; r < rounds; ++r)
      for (int k = 0; k < alive; ++k) out.push_back(visits[static_cast<std::size_t>(k)]++);
    alive = std::max(2, alive / 2);
  }
  out.resize(static_cast<std::size_t>(simulations));
}

// Standard Gumbel(0, 1) sample.
inline double sample_gumbel(Rng& rng) {
  const double u = std::min(std::max(rng.uniform01(), 1e-300), 1.0 - 1e-16);
  return -std::log(-std::log(u));
}

}  // namespace detail

template <class G>
class Search {
 public:
  using State = typename G::State;

  explicit Search(const Options& options) : options_(options), num_actions_(G::info().num_actions) {
    options_.validate();
    priors_.resize(static_cast<std::size_t>(num_actions_));
    mask_.resize(static_cast<std::size_t>(num_actions_));
    if (options_.root == RootSelection::kGumbel) {
      gumbel_.resize(static_cast<std::size_t>(num_actions_));
      candidates_.reserve(static_cast<std::size_t>(options_.gumbel_considered));
      schedule_.reserve(static_cast<std::size_t>(options_.simulations));
    }
    child_of_action_.assign(static_cast<std::size_t>(num_actions_), -1);
    // A simulation expands at most one node, adding at most num_actions children.
    const double wanted = 1.0 + (static_cast<double>(options_.simulations) + 1.0) * num_actions_;
    capacity_ = static_cast<int>(std::min<double>(options_.max_nodes, wanted));
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
    nodes_.reserve(static_cast<std::size_t>(capacity_));
    value_sums_.reserve(static_cast<std::size_t>(capacity_) * static_cast<std::size_t>(num_players_));
    // Each simulation expands at most one node, so a path holds at most that
    // many expanded nodes plus the root and one leaf.
    path_.reserve(static_cast<std::size_t>(options_.simulations) + 2);
    root_.emplace(root);
    nodes_.clear();
    value_sums_.clear();
    new_node(-1, 0.0f);
    sims_done_ = 0;
    awaiting_ = false;
    candidates_.clear();
    root_net_value_ = 0.0f;
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
    if (forced_ || nodes_[0].first_child < 0) return first_legal_;
    if (gumbel_ready()) return gumbel_choice();
    if (options_.temperature <= 0.0) return best_action();
    int most = 0;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling)
      most = std::max(most, nodes_[c].visits);
    if (most == 0) return best_action();
    // Weights relative to the most visited child so that small temperatures cannot overflow.
    double total = 0.0;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling)
      total += std::pow(static_cast<double>(nodes_[c].visits) / most, 1.0 / options_.temperature);
    double pick = rng_.uniform01() * total;
    Action last = -1;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      if (nodes_[c].visits == 0) continue;
      last = nodes_[c].action;
      pick -= std::pow(static_cast<double>(nodes_[c].visits) / most, 1.0 / options_.temperature);
      if (pick < 0.0) return last;
    }
    return last;  // rounding left a sliver of `pick`
  }

  Action best_action() const {
    check_finished();
    if (forced_ || nodes_[0].first_child < 0) return first_legal_;
    int best = nodes_[0].first_child;
    for (int c = best; c >= 0; c = nodes_[c].next_sibling) {
      const Node& n = nodes_[c];
      const Node& b = nodes_[best];
      if (std::tie(n.visits, n.prior, b.action) > std::tie(b.visits, b.prior, n.action)) best = c;
    }
    return nodes_[best].action;
  }

  // Root visit shares per action id ([num_actions], sums to 1): the policy
  // target for training.
  void visit_policy(float* out) const {
    check_finished();
    std::fill(out, out + num_actions_, 0.0f);
    if (forced_ || nodes_[0].first_child < 0) {
      out[first_legal_] = 1.0f;
      return;
    }
    int total = 0;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) total += nodes_[c].visits;
    if (total == 0) return;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling)
      out[nodes_[c].action] = static_cast<float>(nodes_[c].visits) / static_cast<float>(total);
  }

  // The policy target of the gumbel root ([num_actions], sums to 1):
  // softmax(logit + sigma(completed q)) over the legal root moves, where an
  // unvisited move's q is completed by the mixed value estimate (the
  // network's root value and the visited moves' q, weighted by prior). With
  // the puct root this is visit_policy().
  void improved_policy(float* out) const {
    check_finished();
    if (!gumbel_ready()) {
      visit_policy(out);
      return;
    }
    std::fill(out, out + num_actions_, 0.0f);
    const double scale = sigma_scale();
    const RootQ q = root_q();
    double most = -std::numeric_limits<double>::infinity();
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling)
      most = std::max(most, logit(c) + scale * normalized_q(c, q));
    double total = 0.0;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      const double w = std::exp(logit(c) + scale * normalized_q(c, q) - most);
      out[nodes_[c].action] = static_cast<float>(w);
      total += w;
    }
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling)
      out[nodes_[c].action] = static_cast<float>(out[nodes_[c].action] / total);
  }

  // Mean value for `seat` over all simulations (0 if none ran).
  float root_value(int seat) const { return mean_value(0, seat); }
  // Visits and mean value of the root child for action a (0 if never tried).
  int child_visits(Action a) const {
    const int c = root_child(a);
    return c < 0 ? 0 : nodes_[c].visits;
  }
  float child_value(Action a, int seat) const {
    const int c = root_child(a);
    return c < 0 ? 0.0f : mean_value(c, seat);
  }
  float child_prior(Action a) const {
    const int c = root_child(a);
    return c < 0 ? 0.0f : nodes_[c].prior;
  }

  int viewer() const { return viewer_; }
  // The root had a single legal move, returned without searching.
  bool forced() const { return forced_; }
  int simulations_done() const { return sims_done_; }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  int node_capacity() const { return capacity_; }
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
  // One tree node = one action sequence from the root. Children form a
  // singly linked list inside the arena.
  struct Node {
    Action action = -1;        // the move from the parent
    int32_t first_child = -1;  // -1: none yet
    int32_t next_sibling = -1;
    int32_t visits = 0;
    int32_t available = 0;  // times this move was legal when the parent was passed through
    float prior = 0.0f;
    bool expanded = false;  // evaluated once; children exist for the legal moves seen so far
  };

  int new_node(Action action, float prior) {
    Node n;
    n.action = action;
    n.prior = prior;
    nodes_.push_back(n);
    value_sums_.insert(value_sums_.end(), static_cast<std::size_t>(num_players_), 0.0f);
    return static_cast<int>(nodes_.size()) - 1;
  }
  bool has_room(int count) const { return static_cast<int>(nodes_.size()) + count <= capacity_; }

  int add_child(int parent, Action action, float prior) {
    const int c = new_node(action, prior);
    nodes_[c].next_sibling = nodes_[parent].first_child;
    nodes_[parent].first_child = c;
    return c;
  }

  float mean_value(int node, int seat) const {
    if (seat < 0 || seat >= num_players_) throw Error("mcts: seat " + std::to_string(seat) + " out of range");
    const Node& n = nodes_[static_cast<std::size_t>(node)];
    if (n.visits == 0) return 0.0f;
    return value_sums_[static_cast<std::size_t>(node) * num_players_ + seat] / static_cast<float>(n.visits);
  }

  int root_child(Action a) const {
    if (nodes_.empty()) return -1;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling)
      if (nodes_[c].action == a) return c;
    return -1;
  }

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
      const int child = !nodes_[node].expanded        ? -1
                        : node == 0 && gumbel_ready() ? gumbel_select()
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
      world_->apply(nodes_[child].action);
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
    for (int c = nodes_[node].first_child; c >= 0; c = nodes_[c].next_sibling)
      child_of_action_[nodes_[c].action] = c;

    const int player = world_->current_player();
    const float parent_value = mean_value(node, player);
    const float uniform = 1.0f / static_cast<float>(std::max(legal, 1));
    int best = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    for (Action a = 0; a < num_actions_; ++a) {
      if (!mask_[a]) continue;
      int c = child_of_action_[a];
      if (c < 0) {
        if (!has_room(1)) continue;
        c = add_child(node, a, uniform);
      }
      Node& n = nodes_[c];
      ++n.available;
      const double q = n.visits > 0 ? mean_value(c, player) : parent_value;
      const double u =
          options_.c_puct * n.prior * std::sqrt(static_cast<double>(n.available)) / (1.0 + n.visits);
      if (q + u > best_score) {  // strict: ties go to the lower action id
        best_score = q + u;
        best = c;
      }
    }
    for (int c = nodes_[node].first_child; c >= 0; c = nodes_[c].next_sibling)
      child_of_action_[nodes_[c].action] = -1;
    return best;
  }

  // The evaluator has filled priors_ and values_ for the leaf at path_.back().
  void finish_leaf() {
    for (int p = 0; p < num_players_; ++p)
      if (!std::isfinite(values_[p])) throw Error("mcts: the evaluator returned a non-finite value");
    const int node = path_.back();
    if (!nodes_[node].expanded) expand(node);
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
    if (!has_room(legal)) return;                     // stays a leaf: it will be evaluated again next time
    for (Action a = num_actions_ - 1; a >= 0; --a) {  // prepending, so the list ends up in id order
      if (!mask_[a]) continue;
      const float p = priors_[a];
      const double w = std::isfinite(p) && p > 0.0f ? p : 0.0;
      add_child(node, a, total > 0.0 ? static_cast<float>(w / total) : 1.0f / static_cast<float>(legal));
    }
    nodes_[node].expanded = true;
    if (node == 0 && options_.dirichlet_fraction > 0.0) add_root_noise();
    if (node == 0 && options_.root == RootSelection::kGumbel) start_gumbel();
  }

  // --- the gumbel root --------------------------------------------------------

  bool gumbel_ready() const { return !candidates_.empty(); }

  // After the root's evaluation: its network value, a Gumbel draw per legal
  // move, the top `gumbel_considered` moves by g + logit, and the visit
  // schedule for the simulations left.
  void start_gumbel() {
    root_net_value_ = values_[static_cast<std::size_t>(viewer_)];
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      gumbel_[nodes_[c].action] = static_cast<float>(options_.gumbel_scale * detail::sample_gumbel(rng_));
      candidates_.push_back(c);
    }
    auto first_score = [&](int c) { return gumbel_[nodes_[c].action] + logit(c); };
    const int keep = std::min<int>(options_.gumbel_considered, static_cast<int>(candidates_.size()));
    std::partial_sort(candidates_.begin(), candidates_.begin() + keep, candidates_.end(), [&](int a, int b) {
      return std::make_tuple(first_score(a), -nodes_[a].action) >
             std::make_tuple(first_score(b), -nodes_[b].action);
    });
    candidates_.resize(static_cast<std::size_t>(keep));
    detail::considered_visits(keep, std::max(0, sims_target_ - 1), schedule_);
  }

  // The viewer's q of the root's moves, completed for unvisited moves by the
  // mixed value (the root's network value and the visited moves' q weighted
  // by prior), then min-max normalized over the root's moves to [0, 1].
  struct RootQ {
    double mixed = 0.0, lo = 0.0, range = 1.0;
  };
  RootQ root_q() const {
    RootQ r;
    double visits = 0.0, weighted = 0.0, weight = 0.0;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      if (nodes_[c].visits == 0) continue;
      visits += nodes_[c].visits;
      weighted += nodes_[c].prior * mean_value(c, viewer_);
      weight += nodes_[c].prior;
    }
    r.mixed = visits == 0.0 || weight <= 0.0
                  ? root_net_value_
                  : (root_net_value_ + visits * weighted / weight) / (1.0 + visits);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      const double q = completed_q(c, r);
      lo = std::min(lo, q);
      hi = std::max(hi, q);
    }
    r.lo = lo;
    r.range = std::max(hi - lo, 1e-8);
    return r;
  }
  double completed_q(int child, const RootQ& r) const {
    return nodes_[child].visits > 0 ? mean_value(child, viewer_) : r.mixed;
  }
  double normalized_q(int child, const RootQ& r) const { return (completed_q(child, r) - r.lo) / r.range; }

  double logit(int child) const { return std::log(std::max(nodes_[child].prior, 1e-30f)); }

  // The score Sequential Halving ranks by: g + logit + sigma(q).
  double gumbel_score(int child, double scale, const RootQ& q) const {
    return gumbel_[nodes_[child].action] + logit(child) + scale * normalized_q(child, q);
  }

  // sigma's factor: (c_visit + most visits of a root child) * c_scale.
  double sigma_scale() const {
    int most = 0;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling)
      most = std::max(most, nodes_[c].visits);
    return (options_.c_visit + most) * options_.c_scale;
  }

  // The root move of the next simulation: the best-scoring considered move
  // whose visits match the schedule.
  int gumbel_select() {
    const int i = std::min(sims_done_ - 1, static_cast<int>(schedule_.size()) - 1);
    const int wanted = i >= 0 ? schedule_[static_cast<std::size_t>(i)] : 0;
    const double scale = sigma_scale();
    const RootQ q = root_q();
    int best = -1, fallback = -1;
    double best_score = -std::numeric_limits<double>::infinity(), fallback_score = best_score;
    for (int c : candidates_) {
      const double score = gumbel_score(c, scale, q);
      if (nodes_[c].visits == wanted && score > best_score) best_score = score, best = c;
      if (score > fallback_score) fallback_score = score, fallback = c;
    }
    return best >= 0 ? best : fallback;
  }

  // The move to play: among the considered moves visited most, the best g + logit + sigma(q).
  Action gumbel_choice() const {
    int most = 0;
    for (int c : candidates_) most = std::max(most, nodes_[c].visits);
    const double scale = sigma_scale();
    const RootQ q = root_q();
    int best = candidates_.front();
    double best_score = -std::numeric_limits<double>::infinity();
    for (int c : candidates_) {
      if (nodes_[c].visits != most) continue;
      const double score = gumbel_score(c, scale, q);
      if (score > best_score) best_score = score, best = c;
    }
    return nodes_[best].action;
  }

  // Self-play exploration: P(a) <- (1 - f) P(a) + f * Dirichlet(alpha).
  void add_root_noise() {
    double total = 0.0;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      const double g = detail::sample_gamma(options_.dirichlet_alpha, rng_);
      priors_[nodes_[c].action] = static_cast<float>(g);  // priors_ is free scratch here
      total += g;
    }
    if (!(total > 0.0)) return;
    const double f = options_.dirichlet_fraction;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      Node& n = nodes_[c];
      n.prior = static_cast<float>((1.0 - f) * n.prior + f * priors_[n.action] / total);
    }
  }

  // Max-n backup: every node on the path accumulates the whole value vector.
  void backup() {
    for (int node : path_) {
      ++nodes_[node].visits;
      float* sums = &value_sums_[static_cast<std::size_t>(node) * num_players_];
      for (int p = 0; p < num_players_; ++p) sums[p] += values_[p];
    }
  }

  Options options_;
  int num_actions_;
  int capacity_ = 0;
  int max_simulations_ = 0;  // what the buffers were sized for
  int num_players_ = 0;
  int viewer_ = 0;
  uint64_t searches_started_ = 0;
  Rng rng_;

  std::optional<State> root_;   // the position searched
  std::optional<State> world_;  // the world of the current simulation
  std::vector<Node> nodes_;
  std::vector<float> value_sums_;  // [node * num_players + seat]
  std::vector<int32_t> path_;
  std::vector<int32_t> child_of_action_;  // scratch for select(), all -1 between calls
  std::vector<uint8_t> mask_;
  std::vector<float> priors_;
  std::vector<float> values_;
  Leaf<State> leaf_;
  // The gumbel root (empty with the puct root).
  std::vector<float> gumbel_;        // [num_actions] noise of each root move
  std::vector<int32_t> candidates_;  // root children considered, best g + logit first
  std::vector<int32_t> schedule_;    // Sequential Halving's visit schedule
  float root_net_value_ = 0.0f;      // the evaluator's root value for the viewer

  int sims_done_ = 0;
  int sims_target_ = 0;
  bool awaiting_ = false;
  bool forced_ = false;
  Action first_legal_ = -1;
};

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
