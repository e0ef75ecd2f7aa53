#include "training/alphazero/train_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "envs/core/parallel.h"
#include "training/config_yaml.h"
#include "training/table_limits.h"

namespace rocketgym::alphazero {

std::string training_algorithm(const ConfigNode& root) {
  return root.get_choice("algorithm", "ppo", {"ppo", "alphazero"});
}

int TrainConfig::train_steps_per_iteration() const {
  return std::max(1, static_cast<int>(std::lround(replay_ratio * samples_per_iteration / batch)));
}

mcts::Options TrainConfig::gate_search() const {
  mcts::Options o = search;
  o.simulations = gate_simulations;
  o.gumbel_scale = 0.0;  // no root noise: each side plays the move its search values most
  o.dirichlet_fraction = 0.0;
  o.temperature = 0.0;
  return o;
}

namespace {

// The search block: mcts::search_keys(), with this trainer's defaults (TrainConfig's
// search field) for keys it leaves out.
ConfigBlock<TrainConfig> search_block() {
  ConfigBlock<TrainConfig> b{"search", {}, false, nullptr, nullptr};
  b.keys.include(
      mcts::search_keys(), [](auto& c) -> auto& { return c.search; });
  b.read = [](const ConfigNode& node, TrainConfig& c) {
    c.search = mcts::parse_options(node, c.search);
    mcts::check_unused_keys(node, c.search, true);  // self-play's evaluator is the network
  };
  return b;
}

// Refuses self-play keys that would do nothing, as check_unused_keys does
// for the search block (values at their defaults pass, so a resolved config
// reloads): greedy_after stops the gumbel root's noise, so it needs that root
// with noise; fast_simulations are the searches of playout cap
// randomization, which runs only with full_search_share < 1.
void check_unused_selfplay_keys(const ConfigNode& node, const TrainConfig& c) {
  const TrainConfig defaults;
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

ConfigBlock<TrainConfig> selfplay_block() {
  ConfigBlock<TrainConfig> b{"selfplay", {}, false, nullptr, nullptr};
  b.keys
      .whole("games", &TrainConfig::games, 1, kMaxEnvs,
             "self-play games in flight; their leaves share one network batch")
      .whole("greedy_after", &TrainConfig::greedy_after, 0, 1 << 30,
             "decisions of a game after which the root stops adding Gumbel noise and plays its best move "
             "(0 = noise throughout)")
      .applies_to("root: gumbel with gumbel_scale > 0")
      .whole("samples_per_iteration", &TrainConfig::samples_per_iteration, 1, 1 << 24,
             "new positions between training phases")
      .number("full_search_share", &TrainConfig::full_search_share, 1e-3, 1.0,
              "playout cap randomization (Wu 2019, KataGo): this share of decisions gets the full search and "
              "becomes a training position")
      .whole("fast_simulations", &TrainConfig::fast_simulations, 1, 1 << 20,
             "simulations of the other decisions, which are only played (at most search.simulations)")
      .applies_to("full_search_share < 1");
  b.check = check_unused_selfplay_keys;
  return b;
}

ConfigBlock<TrainConfig> replay_block() {
  ConfigBlock<TrainConfig> b{"replay", {}, false, nullptr, nullptr};
  b.keys.whole("capacity", &TrainConfig::capacity, 1, 1 << 26, "positions kept (oldest dropped first)")
      .whole("min_samples", &TrainConfig::min_samples, 1, 1 << 26,
             "positions before the first training phase");
  b.check = [](const ConfigNode& node, const TrainConfig& c) {
    if (c.min_samples > c.capacity) node.fail_key("min_samples", "must not exceed replay.capacity");
  };
  return b;
}

ConfigBlock<TrainConfig> train_block() {
  ConfigBlock<TrainConfig> b{"train", {}, false, nullptr, nullptr};
  b.keys.whole("batch", &TrainConfig::batch, 1, 1 << 20, "positions per gradient step");
  add_optimizer_keys(b.keys);
  b.keys.number("weight_decay", &TrainConfig::weight_decay, 0.0, 1.0, "AdamW's weight decay")
      .number("replay_ratio", &TrainConfig::replay_ratio, 1e-3, 1e3,
              "times each new position is trained on, on average");
  return b;
}

ConfigBlock<TrainConfig> imitation_block() {
  ConfigBlock<TrainConfig> b{"imitation", {}, false, nullptr, nullptr};
  b.keys
      .large_whole("steps", &TrainConfig::imitation_steps, 0.0, 1e9,
                   "decisions of heuristic-bot games to imitate, fresh runs only (0 = none)")
      .whole("epochs", &TrainConfig::imitation_epochs, 1, 1000, "passes over them");
  return b;
}

// Expert iteration's gate (AlphaGo Zero's evaluator, for n players): every
// gating.every iterations the network under training plays the best network
// so far, one seat against the others at every table size the run plays;
// it replaces the best one, which self-play plays, when its win share is at
// least gating.margin times the fair share.
ConfigBlock<TrainConfig> gating_block() {
  ConfigBlock<TrainConfig> b{"gating", {}, false, nullptr, nullptr};
  b.keys
      .whole("every", &TrainConfig::gate_every, 0, 1 << 20,
             "iterations between gating matches; self-play then plays the best network so far "
             "(checkpoints/best.ckpt), not the latest (0 = no gating: self-play plays the latest)")
      .whole("games", &TrainConfig::gate_games, 1, kMaxScheduledGames,
             "games of a match at each table size of game.players: the latest network in one seat, the best "
             "in the others, every seat in turn over the same deals (rounded down to whole turns)")
      .applies_to("every > 0")
      .whole("simulations", &TrainConfig::gate_simulations, 0, mcts::kSimulationsRange.max,
             "each side's search in a match: self-play's search at this many simulations without its root "
             "noise (0 = the raw networks, greedy)")
      .applies_to("every > 0")
      .number("margin", &TrainConfig::gate_margin, 0.0, 100.0,
              "the latest network replaces the best when its win share, over the fair share (1 / players) "
              "and averaged over the table sizes, is at least this (0 = it always does)")
      .applies_to("every > 0");
  // Keys that would do nothing without gating are refused (their defaults
  // pass, so a resolved config reloads).
  b.check = [](const ConfigNode& node, const TrainConfig& c) {
    if (c.gating()) return;
    const TrainConfig defaults;
    const char* reason =
        "sets the gating matches, but gating.every is 0 (no gating): set every or remove this key";
    if (c.gate_games != defaults.gate_games) node.fail_key("games", reason);
    if (c.gate_simulations != defaults.gate_simulations) node.fail_key("simulations", reason);
    if (c.gate_margin != defaults.gate_margin) node.fail_key("margin", reason);
  };
  return b;
}

}  // namespace

const ConfigSchema<TrainConfig>& TrainConfig::schema() {
  static const ConfigSchema<TrainConfig> schema = [] {
    ConfigSchema<TrainConfig> s;
    s.add(game_block<TrainConfig>("alphazero", true))
        .add(model_block<TrainConfig>())
        .add(search_block())
        .add(selfplay_block())
        .add(replay_block())
        .add(train_block())
        .add(imitation_block())
        .add(gating_block())
        .add(budget_block<TrainConfig>("self-play positions recorded in total, across resumes"))
        .add(run_block<TrainConfig>("alphazero"));
    return s;
  }();
  return schema;
}

TrainConfig TrainConfig::from_yaml(const ConfigNode& root) {
  std::vector<std::string> keys = schema().block_names();
  keys.push_back("algorithm");
  root.expect_keys(keys);
  if (training_algorithm(root) != "alphazero") root.fail_key("algorithm", "must be alphazero here");
  TrainConfig c;
  schema().read(root, c);
  return c;
}

std::string TrainConfig::to_yaml() const {
  YAML::Node root;
  root["algorithm"] = "alphazero";
  schema().write(root, *this);
  return resolved_config_text(root);
}

}  // namespace rocketgym::alphazero
