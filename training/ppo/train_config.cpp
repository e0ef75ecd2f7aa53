#include "training/ppo/train_config.h"

#include <yaml-cpp/yaml.h>

#include "envs/core/parallel.h"
#include "training/config_yaml.h"
#include "training/players/kinds/heuristic.h"
#include "training/players/kinds/random.h"

namespace rocketgym::ppo {

namespace {

ConfigBlock<TrainConfig> ppo_block() {
  ConfigBlock<TrainConfig> b{"ppo", {}, false, nullptr, nullptr};
  KeyTable<TrainConfig>& t = b.keys;
  t.whole("envs", &TrainConfig::envs, 1, kMaxEnvs, "games stepped together");
  t.whole("steps_per_update", &TrainConfig::steps_per_update, 1, 1 << 24,
          "learner decisions per PPO update (finished episodes only)");
  t.whole("epochs", &TrainConfig::epochs, 1, 1000, "passes over each batch");
  t.whole("minibatch", &TrainConfig::minibatch, 1, 1 << 24, "decisions per gradient step");
  t.number("gamma", &TrainConfig::gamma, 0.0, 1.0, "discount per decision of the same seat");
  t.number("gae_lambda", &TrainConfig::gae_lambda, 0.0, 1.0, "GAE's lambda");
  t.number("clip", &TrainConfig::clip, 1e-6, 10.0, "PPO ratio clip");
  t.number("entropy_coef", &TrainConfig::entropy_coef, 0.0, 1e3, "weight of the entropy bonus");
  add_optimizer_keys(t);
  t.number("shaping", &TrainConfig::shaping, 0.0, 1e3,
           "weight of the game's potential-based shaping reward (0 = off; the game must define "
           "shaping_potential, see gae.h)");
  return b;
}

// The weight of a fixed opponent: a player kind (kinds.h) at every seat but
// the learner's, the key named after the kind.
void add_kind_weight(KeyTable<TrainConfig>& t, const players::KindInfo& info, double TrainConfig::*field) {
  t.number(info.name, field, 0.0, 1e6, ("weight: one learner seat, " + std::string(info.help)).c_str());
}

ConfigBlock<TrainConfig> opponents_block() {
  ConfigBlock<TrainConfig> b{"opponents", {}, false, nullptr, nullptr};
  b.keys.number("self_play", &TrainConfig::self_play, 0.0, 1e6, "weight: the current policy plays every seat")
      .number("pool", &TrainConfig::pool, 0.0, 1e6,
              "weight: one learner seat, earlier snapshots at the others");
  add_kind_weight(b.keys, players::Random::row(), &TrainConfig::random);
  add_kind_weight(b.keys, players::Heuristic::row(), &TrainConfig::heuristic);
  b.keys.whole("pool_size", &TrainConfig::pool_size, 1, 1000, "snapshots kept")
      .whole("snapshot_every", &TrainConfig::snapshot_every, 1, 1 << 20, "updates between snapshots");
  b.check = [](const ConfigNode& node, const TrainConfig& c) {
    if (c.self_play + c.pool + c.random + c.heuristic <= 0.0)
      node.fail("at least one of self_play, pool, random, heuristic must have a positive weight");
  };
  return b;
}

ConfigBlock<TrainConfig> imitation_block() {
  ConfigBlock<TrainConfig> b{"imitation", {}, false, nullptr, nullptr};
  b.keys
      .large_whole(
          "steps", &TrainConfig::imitation_steps, 0.0, 1e12,
          "decisions of heuristic-vs-heuristic play to imitate before PPO, fresh runs only (0 = none)")
      .number("learning_rate", &TrainConfig::imitation_learning_rate, 1e-9, 1.0,
              "the imitation's learning rate");
  return b;
}

}  // namespace

const ConfigSchema<TrainConfig>& TrainConfig::schema() {
  static const ConfigSchema<TrainConfig> schema = [] {
    ConfigSchema<TrainConfig> s;
    s.add(game_block<TrainConfig>("ppo", true))
        .add(model_block<TrainConfig>())
        .add(ppo_block())
        .add(opponents_block())
        .add(imitation_block())
        .add(budget_block<TrainConfig>("learner decisions in total, across resumes"))
        .add(run_block<TrainConfig>("ppo"));
    return s;
  }();
  return schema;
}

TrainConfig TrainConfig::from_yaml(const ConfigNode& root) {
  std::vector<std::string> keys = schema().block_names();
  keys.push_back("algorithm");
  root.expect_keys(keys);
  if (root.get_choice("algorithm", "ppo", {"ppo", "alphazero"}) != "ppo")
    root.fail_key("algorithm",
                  "this is a PPO config reader; alphazero configs go to the search-based trainer");
  TrainConfig c;
  schema().read(root, c);
  return c;
}

std::string TrainConfig::to_yaml() const {
  YAML::Node root;
  schema().write(root, *this);
  return resolved_config_text(root);
}

}  // namespace rocketgym::ppo
