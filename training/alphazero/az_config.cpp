#include "training/alphazero/az_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "training/config_yaml.h"

namespace rocketgym::alphazero {

std::string training_algorithm(const ConfigNode& root) {
  return root.get_choice("algorithm", "ppo", {"ppo", "alphazero"});
}

int AzConfig::train_steps_per_iteration() const {
  return std::max(1, static_cast<int>(std::lround(replay_ratio * samples_per_iteration / batch)));
}

namespace {

mcts::Options search_defaults() {
  mcts::Options o;
  o.simulations = 32;
  o.root = mcts::RootSelection::kGumbel;
  o.gumbel_considered = 16;
  return o;
}

// The search block, with this trainer's defaults for keys it leaves out.
mcts::Options parse_search(const ConfigNode& node) {
  const mcts::Options o = mcts::parse_options(node, search_defaults());
  mcts::check_unused_keys(node, o, true);  // self-play's evaluator is the network
  return o;
}

// Refuses self-play keys that would do nothing, as check_unused_keys does
// for the search block (values at their defaults pass, so a resolved config
// reloads): greedy_after stops the gumbel root's noise, so it needs that root
// with noise; fast_simulations are the searches of playout cap
// randomization, which runs only with full_search_share < 1.
void check_unused_selfplay_keys(const ConfigNode& node, const AzConfig& c) {
  const AzConfig defaults;
  if (c.greedy_after != defaults.greedy_after) {
    if (c.search.root != mcts::RootSelection::kGumbel)
      node.fail_key("greedy_after",
                    "stops the gumbel root's noise; this search has root: puct, so it would do nothing");
    if (c.search.gumbel_scale == 0.0)
      node.fail_key("greedy_after", "stops the gumbel root's noise; search.gumbel_scale is 0 (no noise)");
  }
  if (c.full_search_share >= 1.0) {
    if (c.fast_simulations != defaults.fast_simulations)
      node.fail_key(
          "fast_simulations",
          "are the searches of the decisions that get no full search; with full_search_share 1 "
          "every decision gets the full search, so set full_search_share below 1 or remove this key");
  } else if (c.fast_simulations > c.search.simulations) {
    node.fail_key("fast_simulations", "must not exceed search.simulations");
  }
}

}  // namespace

AzConfig AzConfig::from_yaml(const ConfigNode& root) {
  root.expect_keys(
      {"algorithm", "game", "model", "search", "selfplay", "replay", "train", "imitation", "budget", "run"});
  if (training_algorithm(root) != "alphazero") root.fail_key("algorithm", "must be alphazero here");
  AzConfig c;
  c.game = GameSetup::from_yaml(root.child("game"));
  c.net = NetConfig::from_yaml(root.child_or_empty("model"));
  c.search = parse_search(root.child_or_empty("search"));
  if (const ConfigNode s = root.child_or_empty("selfplay"); !s.is_null()) {
    s.expect_keys(
        {"games", "greedy_after", "samples_per_iteration", "full_search_share", "fast_simulations"});
    c.games = s.get_int("games", c.games, 1, 1 << 16);
    c.greedy_after = s.get_int("greedy_after", c.greedy_after, 0, 1 << 30);
    c.samples_per_iteration = s.get_int("samples_per_iteration", c.samples_per_iteration, 1, 1 << 24);
    c.full_search_share = s.get_double("full_search_share", c.full_search_share, 1e-3, 1.0);
    c.fast_simulations = s.get_int("fast_simulations", c.fast_simulations, 1, 1 << 20);
    check_unused_selfplay_keys(s, c);
  }
  if (const ConfigNode r = root.child_or_empty("replay"); !r.is_null()) {
    r.expect_keys({"capacity", "min_samples"});
    c.capacity = r.get_int("capacity", c.capacity, 1, 1 << 26);
    c.min_samples = r.get_int("min_samples", c.min_samples, 1, 1 << 26);
    if (c.min_samples > c.capacity) r.fail_key("min_samples", "must not exceed replay.capacity");
  }
  if (const ConfigNode t = root.child_or_empty("train"); !t.is_null()) {
    t.expect_keys({"batch", "learning_rate", "weight_decay", "value_coef", "max_grad_norm", "replay_ratio"});
    c.batch = t.get_int("batch", c.batch, 1, 1 << 20);
    c.learning_rate = t.get_double("learning_rate", c.learning_rate, 1e-9, 1.0);
    c.weight_decay = t.get_double("weight_decay", c.weight_decay, 0.0, 1.0);
    c.value_coef = t.get_double("value_coef", c.value_coef, 0.0, 1e3);
    c.max_grad_norm = t.get_double("max_grad_norm", c.max_grad_norm, 1e-6, 1e6);
    c.replay_ratio = t.get_double("replay_ratio", c.replay_ratio, 1e-3, 1e3);
  }
  if (const ConfigNode i = root.child_or_empty("imitation"); !i.is_null()) {
    i.expect_keys({"steps", "epochs"});
    c.imitation_steps = static_cast<int64_t>(i.get_double("steps", 0.0, 0.0, 1e9));
    c.imitation_epochs = i.get_int("epochs", c.imitation_epochs, 1, 1000);
  }
  if (const ConfigNode b = root.child_or_empty("budget"); !b.is_null()) {
    b.expect_keys({"steps", "minutes"});
    c.total_steps =
        static_cast<int64_t>(b.get_double("steps", static_cast<double>(c.total_steps), 1.0, 1e15));
    c.minutes = b.get_double("minutes", c.minutes, 0.0, 1e7);
  }
  c.run_dir = "runs/" + c.game.id + "_az";
  c.read_run_block(root);
  return c;
}

std::string AzConfig::to_yaml() const {
  YAML::Node root;
  root["algorithm"] = "alphazero";
  write_game_and_model(root, game, net);
  YAML::Node s = root["search"];
  s["simulations"] = search.simulations;
  s["root"] = search.root == mcts::RootSelection::kGumbel ? "gumbel" : "puct";
  s["gumbel_considered"] = search.gumbel_considered;
  s["gumbel_scale"] = search.gumbel_scale;
  s["c_puct"] = search.c_puct;
  s["c_visit"] = search.c_visit;
  s["c_scale"] = search.c_scale;
  s["heuristic_prior"] = search.heuristic_prior;
  s["playout_weight"] = search.playout_weight;
  s["prior_temperature"] = search.prior_temperature;
  s["rollout_policy"] = search.rollout_policy == mcts::RolloutPolicy::kHeuristic ? "heuristic" : "random";
  s["rollouts"] = search.rollouts;
  s["rollout_epsilon"] = search.rollout_epsilon;
  s["search_forced_moves"] = search.search_forced_moves;
  s["temperature"] = search.temperature;
  s["dirichlet_alpha"] = search.dirichlet_alpha;
  s["dirichlet_fraction"] = search.dirichlet_fraction;
  s["max_nodes"] = search.max_nodes;
  YAML::Node p = root["selfplay"];
  p["games"] = games;
  p["greedy_after"] = greedy_after;
  p["samples_per_iteration"] = samples_per_iteration;
  p["full_search_share"] = full_search_share;
  p["fast_simulations"] = fast_simulations;
  root["replay"]["capacity"] = capacity;
  root["replay"]["min_samples"] = min_samples;
  YAML::Node t = root["train"];
  t["batch"] = batch;
  t["learning_rate"] = learning_rate;
  t["weight_decay"] = weight_decay;
  t["value_coef"] = value_coef;
  t["max_grad_norm"] = max_grad_norm;
  t["replay_ratio"] = replay_ratio;
  root["imitation"]["steps"] = imitation_steps;
  root["imitation"]["epochs"] = imitation_epochs;
  root["budget"]["steps"] = total_steps;
  root["budget"]["minutes"] = minutes;
  write_run_block(root);
  return resolved_config_text(root);
}

}  // namespace rocketgym::alphazero
