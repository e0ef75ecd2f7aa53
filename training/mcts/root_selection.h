// The root of training/mcts/mcts.h's search: Dirichlet noise on the root's
// priors (self-play exploration) and the gumbel root (Gumbel noise on the
// root's moves, Sequential Halving over the best of them, and the improved
// policy from completed q values). Below the root the search picks by PUCT
// (Search::select in training/mcts/mcts.h).
//
// All randomness comes from the search's own stream, passed in, in the order
// the search draws it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/rng.h"
#include "training/mcts/search_options.h"
#include "training/mcts/tree.h"

namespace rocketgym::mcts {

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

// Self-play exploration: P(a) <- (1 - f) P(a) + f * Dirichlet(alpha) over the
// root's children. `scratch` has an entry per action id (free to overwrite).
inline void add_root_noise(Tree& tree, const Options& options, Rng& rng, float* scratch) {
  double total = 0.0;
  for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling) {
    const double g = detail::sample_gamma(options.dirichlet_alpha, rng);
    scratch[tree[c].action] = static_cast<float>(g);
    total += g;
  }
  if (!(total > 0.0)) return;
  const double f = options.dirichlet_fraction;
  for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling) {
    Node& n = tree[c];
    n.prior = static_cast<float>((1.0 - f) * n.prior + f * scratch[n.action] / total);
  }
}

// The gumbel root (Options::root == RootSelection::kGumbel): its state lives
// from the root's expansion to the end of one search. `viewer` is the
// searching player; `options` the search's current options.
class GumbelRoot {
 public:
  // Sizes the buffers once (the search's constructor).
  void reserve(int num_actions, int considered, int simulations) {
    gumbel_.resize(static_cast<std::size_t>(num_actions));
    candidates_.reserve(static_cast<std::size_t>(considered));
    schedule_.reserve(static_cast<std::size_t>(simulations));
  }

  // Forgets the last search.
  void clear() {
    candidates_.clear();
    root_net_value_ = 0.0f;
  }

  bool ready() const { return !candidates_.empty(); }

  // After the root's evaluation: its network value for the viewer, a Gumbel
  // draw per legal move, the top `gumbel_considered` moves by g + logit, and
  // the visit schedule for the `simulations` of the search (the root's
  // evaluation was the first).
  void start(const Tree& tree, float root_value, const Options& options, int simulations, Rng& rng) {
    root_net_value_ = root_value;
    for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling) {
      gumbel_[tree[c].action] = static_cast<float>(options.gumbel_scale * detail::sample_gumbel(rng));
      candidates_.push_back(c);
    }
    auto first_score = [&](int c) { return gumbel_[tree[c].action] + logit(tree, c); };
    const int keep = std::min<int>(options.gumbel_considered, static_cast<int>(candidates_.size()));
    std::partial_sort(candidates_.begin(), candidates_.begin() + keep, candidates_.end(), [&](int a, int b) {
      return std::make_tuple(first_score(a), -tree[a].action) >
             std::make_tuple(first_score(b), -tree[b].action);
    });
    candidates_.resize(static_cast<std::size_t>(keep));
    detail::considered_visits(keep, std::max(0, simulations - 1), schedule_);
  }

  // The root move of the next simulation (`sims_done` simulations ran): the
  // best-scoring considered move whose visits match the schedule.
  int select(const Tree& tree, int viewer, const Options& options, int sims_done) const {
    const int i = std::min(sims_done - 1, static_cast<int>(schedule_.size()) - 1);
    const int wanted = i >= 0 ? schedule_[static_cast<std::size_t>(i)] : 0;
    const double scale = sigma_scale(tree, options);
    const RootQ q = root_q(tree, viewer);
    int best = -1, fallback = -1;
    double best_score = -std::numeric_limits<double>::infinity(), fallback_score = best_score;
    for (int c : candidates_) {
      const double score = gumbel_score(tree, c, scale, q, viewer);
      if (tree[c].visits == wanted && score > best_score) best_score = score, best = c;
      if (score > fallback_score) fallback_score = score, fallback = c;
    }
    return best >= 0 ? best : fallback;
  }

  // The move to play: among the considered moves visited most, the best g + logit + sigma(q).
  Action choice(const Tree& tree, int viewer, const Options& options) const {
    int most = 0;
    for (int c : candidates_) most = std::max(most, tree[c].visits);
    const double scale = sigma_scale(tree, options);
    const RootQ q = root_q(tree, viewer);
    int best = candidates_.front();
    double best_score = -std::numeric_limits<double>::infinity();
    for (int c : candidates_) {
      if (tree[c].visits != most) continue;
      const double score = gumbel_score(tree, c, scale, q, viewer);
      if (score > best_score) best_score = score, best = c;
    }
    return tree[best].action;
  }

  // The policy target ([num_actions], sums to 1): softmax(logit + sigma(completed q))
  // over the legal root moves.
  void improved_policy(const Tree& tree, int viewer, const Options& options, int num_actions,
                       float* out) const {
    std::fill(out, out + num_actions, 0.0f);
    const double scale = sigma_scale(tree, options);
    const RootQ q = root_q(tree, viewer);
    double most = -std::numeric_limits<double>::infinity();
    for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling)
      most = std::max(most, logit(tree, c) + scale * normalized_q(tree, c, q, viewer));
    double total = 0.0;
    for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling) {
      const double w = std::exp(logit(tree, c) + scale * normalized_q(tree, c, q, viewer) - most);
      out[tree[c].action] = static_cast<float>(w);
      total += w;
    }
    for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling)
      out[tree[c].action] = static_cast<float>(out[tree[c].action] / total);
  }

 private:
  // The viewer's q of the root's moves, completed for unvisited moves by the
  // mixed value (the root's network value and the visited moves' q weighted
  // by prior), then min-max normalized over the root's moves to [0, 1].
  struct RootQ {
    double mixed = 0.0, lo = 0.0, range = 1.0;
  };
  RootQ root_q(const Tree& tree, int viewer) const {
    RootQ r;
    double visits = 0.0, weighted = 0.0, weight = 0.0;
    for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling) {
      if (tree[c].visits == 0) continue;
      visits += tree[c].visits;
      weighted += tree[c].prior * tree.mean_value(c, viewer);
      weight += tree[c].prior;
    }
    r.mixed = visits == 0.0 || weight <= 0.0
                  ? root_net_value_
                  : (root_net_value_ + visits * weighted / weight) / (1.0 + visits);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling) {
      const double q = completed_q(tree, c, r, viewer);
      lo = std::min(lo, q);
      hi = std::max(hi, q);
    }
    r.lo = lo;
    r.range = std::max(hi - lo, 1e-8);
    return r;
  }
  static double completed_q(const Tree& tree, int child, const RootQ& r, int viewer) {
    return tree[child].visits > 0 ? tree.mean_value(child, viewer) : r.mixed;
  }
  static double normalized_q(const Tree& tree, int child, const RootQ& r, int viewer) {
    return (completed_q(tree, child, r, viewer) - r.lo) / r.range;
  }

  static double logit(const Tree& tree, int child) { return std::log(std::max(tree[child].prior, 1e-30f)); }

  // The score Sequential Halving ranks by: g + logit + sigma(q).
  double gumbel_score(const Tree& tree, int child, double scale, const RootQ& q, int viewer) const {
    return gumbel_[tree[child].action] + logit(tree, child) + scale * normalized_q(tree, child, q, viewer);
  }

  // sigma's factor: (c_visit + most visits of a root child) * c_scale.
  static double sigma_scale(const Tree& tree, const Options& options) {
    int most = 0;
    for (int c = tree[0].first_child; c >= 0; c = tree[c].next_sibling) most = std::max(most, tree[c].visits);
    return (options.c_visit + most) * options.c_scale;
  }

  std::vector<float> gumbel_;        // [num_actions] noise of each root move
  std::vector<int32_t> candidates_;  // root children considered, best g + logit first
  std::vector<int32_t> schedule_;    // Sequential Halving's visit schedule
  float root_net_value_ = 0.0f;      // the evaluator's root value for the viewer
};

}  // namespace rocketgym::mcts
