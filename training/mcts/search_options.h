// The search's options (mcts::Options) and their one table of YAML keys
// (search_keys()): name, type, range, default, one-line doc and which root or
// evaluator each key belongs to. Reading (parse_options), range checks
// (Options::validate), the refusal of keys the chosen root or evaluator would
// ignore (check_unused_keys), the resolved config's YAML (write_options) and
// the reference table of docs/search.md (`rocketgym describe --config-keys
// search`) all come from it: a new key is one line of search_keys() and its
// field here.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>

#include "envs/core/config.h"
#include "envs/core/errors.h"
#include "training/config_keys.h"

namespace rocketgym::mcts {

// How RolloutEvaluator picks the moves of a playout.
//   random:    uniformly among the legal moves. Cheap and unbiased, but in
//              games where random play rarely finishes (Launchpad 23: 20 of 20
//              random games hit the turn limit) every playout is a draw and
//              tells the search nothing.
//   heuristic: the game's heuristic bot (G::heuristic_action), with a
//              uniformly random move instead with probability rollout_epsilon.
enum class RolloutPolicy { kRandom, kHeuristic };

// How the root spends its simulations.
//   puct:   PUCT from the root like every other node (AlphaZero); the move is
//           the most visited child, the policy target the visit shares.
//   gumbel: Gumbel AlphaZero's root (Danihelka et al., ICLR 2022): draw
//           `gumbel_considered` root moves without replacement by Gumbel-top-k
//           on the prior's logits, share the simulations among them by
//           Sequential Halving, play the survivor with the best
//           g + logit + sigma(q), and train towards the improved policy
//           softmax(logit + sigma(completed q)). It improves the policy even
//           with a handful of simulations, where visit counts say little.
//           Below the root the search is PUCT either way.
enum class RootSelection { kPuct, kGumbel };

// The allowed range of every count a search takes, wherever it comes from:
// a YAML mcts: block, an agent spec on the command line or from Python's
// rocketgym.load_agent, `rocketgym export --simulations`. The key table below
// reads its counts with these ranges, so that no path accepts what another
// refuses. The caps bound what a search reserves: buffers per simulation (the
// root's schedule, the descent path) and per node (the node arena).
struct CountRange {
  const char* name;
  int min, max;

  bool contains(long long value) const { return value >= min && value <= max; }
  // "simulations must be a whole number from 1 to 10000000"; `label` names
  // the count where the key is not its name (an agent spec's PLAYOUTS).
  std::string rule(const std::string& label = "") const {
    return (label.empty() ? std::string(name) : label) + " must be a whole number from " +
           std::to_string(min) + " to " + std::to_string(max);
  }
};
inline constexpr CountRange kSimulationsRange{"simulations", 1, 10'000'000};
inline constexpr CountRange kRolloutsRange{"rollouts", 1, 100'000};
inline constexpr CountRange kRolloutDepthRange{"rollout_depth", 0, 100'000};
inline constexpr CountRange kGumbelConsideredRange{"gumbel_considered", 1, 100'000};
inline constexpr CountRange kMaxNodesRange{"max_nodes", 2, 1 << 25};  // ~1.6 GB of nodes at 5 seats

// The fields' meanings are the one-line docs of search_keys() below.
struct Options {
  int simulations = 200;
  double c_puct = 1.5;
  int rollouts = 1;
  RolloutPolicy rollout_policy = RolloutPolicy::kRandom;
  double rollout_epsilon = 0.0;
  // 0: playouts run to the end of the game. Above 0: a playout stops after
  // that many moves and takes the game's estimate of the position
  // (G::estimate_returns) as its value: more, shorter playouts in the same
  // time, and less of the dice's noise in each (Launchpad 23).
  int rollout_depth = 0;
  // With many legal moves and few simulations, uniform priors leave most
  // moves with one or two visits; a heuristic prior makes the search refine
  // the bot's move.
  double heuristic_prior = 0.0;
  // AlphaGo's mixing weight lambda: for a game whose value head is weak and
  // whose heuristic plays out well (Launchpad 23).
  double playout_weight = 0.0;
  // Above 1 it flattens a policy that imitated a bot, so that the search also
  // tries the moves ranked next instead of only the bot's.
  double prior_temperature = 1.0;
  double temperature = 0.0;
  double dirichlet_alpha = 0.3;
  double dirichlet_fraction = 0;
  // Set in code only (not a YAML key): the arena and self-play derive each
  // search's seed from their own, per game and move.
  uint64_t seed = 0;
  int max_nodes = 1 << 20;
  // With one legal move the search normally returns it at once; set this to
  // search anyway (e.g. to get root values for every position).
  bool search_forced_moves = false;
  RootSelection root = RootSelection::kPuct;
  int gumbel_considered = 16;
  double gumbel_scale = 1.0;
  // sigma(q) = (c_visit + most visits of a root child) * c_scale * q, q
  // min-max normalized over the root's children.
  double c_visit = 50.0;
  double c_scale = 0.1;

  // Throws Error naming the first bad field.
  void validate() const;
};

// What a key belongs to, for check_unused_keys (KeyTable::Key::scope).
enum KeyScope : int {
  kAnySearch = 0,
  kGumbelRoot,         // root: gumbel
  kPlayouts,           // playouts run: no network, or playout_weight > 0
  kHeuristicPlayouts,  // playouts run, with rollout_policy: heuristic
  kNetworkLeaves,      // a network evaluates the leaves
};

// Why a key of `scope` would do nothing in this search, or nullptr when it
// acts.
inline const char* unused_reason(int scope, const Options& o, bool with_network) {
  const bool playouts = !with_network || o.playout_weight > 0.0;
  switch (scope) {
    case kGumbelRoot:
      return o.root == RootSelection::kGumbel ? nullptr
                                              : "belongs to the gumbel root; this search has root: puct";
    case kPlayouts:
    case kHeuristicPlayouts:
      if (!playouts) return "a network evaluates the leaves here: playouts run only with playout_weight > 0";
      if (scope == kHeuristicPlayouts && o.rollout_policy != RolloutPolicy::kHeuristic)
        return "belongs to heuristic playouts (random moves in them): set rollout_policy: heuristic";
      return nullptr;
    case kNetworkLeaves:
      return with_network ? nullptr : "acts on a network's leaf evaluations; this search has no network";
    default:
      return nullptr;
  }
}

// The YAML keys of a search (an arena agent's `mcts:` block, the search-based
// trainer's `search:` block), in the order they are read and written.
inline const KeyTable<Options>& search_keys() {
  static const KeyTable<Options> table = [] {
    KeyTable<Options> t;
    auto count = [&t](const CountRange& range, int Options::*field, const char* doc) -> KeyTable<Options>& {
      return t.whole(range.name, field, range.min, range.max, doc);
    };
    count(kSimulationsRange, &Options::simulations, "simulations per move");
    t.number("c_puct", &Options::c_puct, 0.0, 1e6, "exploration weight in PUCT");
    count(kRolloutsRange, &Options::rollouts, "playouts per leaf (RolloutEvaluator)")
        .applies_to("playouts", kPlayouts);
    t.choice("rollout_policy", &Options::rollout_policy,
             {{"random", RolloutPolicy::kRandom}, {"heuristic", RolloutPolicy::kHeuristic}},
             "moves of a playout: uniformly random, or the game's heuristic bot (G::heuristic_action)")
        .applies_to("playouts", kPlayouts);
    t.number("rollout_epsilon", &Options::rollout_epsilon, 0.0, 1.0,
             "heuristic playouts: chance of a uniformly random move instead of the bot's")
        .applies_to("heuristic playouts", kHeuristicPlayouts);
    count(kRolloutDepthRange, &Options::rollout_depth,
          "moves per playout before the game's estimate of the position (G::estimate_returns) is its value; "
          "0: play to the end")
        .applies_to("playouts", kPlayouts);
    t.number("heuristic_prior", &Options::heuristic_prior, 0.0, 1.0,
             "share of each leaf's prior on the heuristic bot's move (the rest: even, or the network's)");
    t.number("playout_weight", &Options::playout_weight, 0.0, 1.0,
             "share of each leaf's value from `rollouts` playouts of `rollout_policy` instead of the value "
             "head (0: the value head alone)")
        .applies_to("network", kNetworkLeaves);
    t.number("prior_temperature", &Options::prior_temperature, 1e-3, 1e3,
             "priors proportional to p^(1/T) of the network's policy p (above 1 flattens it)")
        .applies_to("network", kNetworkLeaves);
    t.number("temperature", &Options::temperature, 0.0, 1e6,
             "0: play the most visited move; > 0: sample by visits^(1/T) (puct root only)");
    t.number("dirichlet_alpha", &Options::dirichlet_alpha, 1e-6, 1e6, "root noise shape");
    t.number("dirichlet_fraction", &Options::dirichlet_fraction, 0.0, 1.0,
             "weight of the root's Dirichlet noise, 0 = none (puct root only)");
    count(kMaxNodesRange, &Options::max_nodes,
          "node arena cap; when full, leaves are evaluated without being expanded");
    t.flag("search_forced_moves", &Options::search_forced_moves, "also search when only one move is legal");
    t.choice("root", &Options::root, {{"puct", RootSelection::kPuct}, {"gumbel", RootSelection::kGumbel}},
             "how the root spends its simulations: PUCT, or Gumbel-top-k with Sequential Halving");
    count(kGumbelConsideredRange, &Options::gumbel_considered, "root moves drawn for Sequential Halving")
        .applies_to("gumbel root", kGumbelRoot);
    t.number("gumbel_scale", &Options::gumbel_scale, 0.0, 1e6,
             "Gumbel noise scale: 1 for self-play, 0 to play the best move")
        .applies_to("gumbel root", kGumbelRoot);
    t.number("c_visit", &Options::c_visit, 0.0, 1e9,
             "sigma(q) = (c_visit + most visits of a root child) * c_scale * q")
        .applies_to("gumbel root", kGumbelRoot);
    t.number("c_scale", &Options::c_scale, 0.0, 1e9, "see c_visit").applies_to("gumbel root", kGumbelRoot);
    return t;
  }();
  return table;
}

inline void Options::validate() const {
  auto fail = [](const std::string& what) { throw Error("mcts options: " + what); };
  if (const std::string why = search_keys().range_error(*this); !why.empty()) fail(why);
  if (root == RootSelection::kGumbel && dirichlet_fraction > 0.0)
    fail("dirichlet_fraction must be 0 with the gumbel root (Gumbel noise does the exploring)");
  if (root == RootSelection::kGumbel && temperature > 0.0)
    fail(
        "temperature must be 0 with the gumbel root (it plays Sequential Halving's pick; gumbel_scale "
        "sets its noise)");
}

// A count from a YAML mapping, its key and range from the table above (an
// agent spec's `simulations`).
inline int get_count(const ConfigNode& node, const CountRange& range, int fallback) {
  return node.get_int(range.name, fallback, range.min, range.max);
}

// Reads search options from a YAML mapping (e.g. an arena agent's `mcts:`
// block), starting from the caller's defaults; unknown keys and bad values
// are ConfigErrors naming file, line and key.
inline Options parse_options(const ConfigNode& node, const Options& defaults = Options{}) {
  Options o = defaults;
  if (node.is_null()) return o;
  // Every reader of these blocks (arena agents, self-play) reseeds each search
  // per game and move, so a seed here would be silently ignored.
  if (node.has("seed"))
    node.fail_key("seed",
                  "a search's seed comes from the arena's or the training run's seed; remove this key");
  search_keys().read(node, o);
  try {
    o.validate();
  } catch (const Error& e) {
    node.fail(e.what());
  }
  return o;
}

// Refuses settings the search would ignore (call it once the root and the
// evaluator are known), by each key's scope in search_keys(): with a network,
// playouts run only when playout_weight > 0; without one, there is nothing
// to mix and no network prior to reshape; random playouts have no heuristic
// move to replace by a random one; the gumbel_* and c_visit/c_scale keys
// belong to the gumbel root. Values at their defaults pass, so a resolved
// config (every key written) reloads.
inline void check_unused_keys(const ConfigNode& node, const Options& o, bool with_network) {
  static const Options defaults;
  for (const auto& key : search_keys().keys()) {
    if (key.scope == kAnySearch || key.text(o) == key.text(defaults)) continue;
    if (const char* why = unused_reason(key.scope, o, with_network)) node.fail_key(key.name, why);
  }
}

// Every key of `o` into the YAML mapping `out` (a resolved config's search block).
inline void write_options(YAML::Node& out, const Options& o) { search_keys().write(out, o); }

}  // namespace rocketgym::mcts
