#include "training/ppo/train_config.h"

#include <yaml-cpp/yaml.h>

#include <limits>

#include "training/config_yaml.h"

namespace rocketgym::ppo {

TrainConfig TrainConfig::from_yaml(const ConfigNode& root) {
  root.expect_keys({"algorithm", "game", "model", "ppo", "opponents", "imitation", "budget", "run"});
  if (root.get_choice("algorithm", "ppo", {"ppo", "alphazero"}) != "ppo")
    root.fail_key("algorithm",
                  "this is a PPO config reader; alphazero configs go to the search-based trainer");
  TrainConfig c;
  c.game = GameSetup::from_yaml(root.child("game"));
  c.net = NetConfig::from_yaml(root.child_or_empty("model"));

  if (const ConfigNode p = root.child_or_empty("ppo"); !p.is_null()) {
    p.expect_keys({"envs", "steps_per_update", "epochs", "minibatch", "learning_rate", "gamma", "gae_lambda",
                   "clip", "value_coef", "entropy_coef", "max_grad_norm", "shaping"});
    c.envs = p.get_int("envs", c.envs, 1, 1 << 16);
    c.steps_per_update = p.get_int("steps_per_update", c.steps_per_update, 1, 1 << 24);
    c.epochs = p.get_int("epochs", c.epochs, 1, 1000);
    c.minibatch = p.get_int("minibatch", c.minibatch, 1, 1 << 24);
    c.learning_rate = p.get_double("learning_rate", c.learning_rate, 1e-9, 1.0);
    c.gamma = p.get_double("gamma", c.gamma, 0.0, 1.0);
    c.gae_lambda = p.get_double("gae_lambda", c.gae_lambda, 0.0, 1.0);
    c.clip = p.get_double("clip", c.clip, 1e-6, 10.0);
    c.value_coef = p.get_double("value_coef", c.value_coef, 0.0, 1e3);
    c.entropy_coef = p.get_double("entropy_coef", c.entropy_coef, 0.0, 1e3);
    c.max_grad_norm = p.get_double("max_grad_norm", c.max_grad_norm, 1e-6, 1e6);
    c.shaping = p.get_double("shaping", c.shaping, 0.0, 1e3);
  }
  if (const ConfigNode o = root.child_or_empty("opponents"); !o.is_null()) {
    o.expect_keys({"self_play", "pool", "random", "heuristic", "pool_size", "snapshot_every"});
    c.self_play = o.get_double("self_play", c.self_play, 0.0, 1e6);
    c.pool = o.get_double("pool", c.pool, 0.0, 1e6);
    c.random = o.get_double("random", c.random, 0.0, 1e6);
    c.heuristic = o.get_double("heuristic", c.heuristic, 0.0, 1e6);
    if (c.self_play + c.pool + c.random + c.heuristic <= 0.0)
      o.fail("at least one of self_play, pool, random, heuristic must have a positive weight");
    c.pool_size = o.get_int("pool_size", c.pool_size, 1, 1000);
    c.snapshot_every = o.get_int("snapshot_every", c.snapshot_every, 1, 1 << 20);
  }
  if (const ConfigNode i = root.child_or_empty("imitation"); !i.is_null()) {
    i.expect_keys({"steps", "learning_rate"});
    c.imitation_steps = static_cast<int64_t>(i.get_double("steps", 0.0, 0.0, 1e12));
    c.imitation_learning_rate = i.get_double("learning_rate", c.imitation_learning_rate, 1e-9, 1.0);
  }
  if (const ConfigNode b = root.child_or_empty("budget"); !b.is_null()) {
    b.expect_keys({"steps", "minutes"});
    c.total_steps =
        static_cast<int64_t>(b.get_double("steps", static_cast<double>(c.total_steps), 1.0, 1e15));
    c.minutes = b.get_double("minutes", c.minutes, 0.0, 1e7);
  }
  c.run_dir = "runs/" + c.game.id + "_ppo";
  c.read_run_block(root);
  return c;
}

std::string TrainConfig::to_yaml() const {
  YAML::Node root;
  write_game_and_model(root, game, net);
  YAML::Node p = root["ppo"];
  p["envs"] = envs;
  p["steps_per_update"] = steps_per_update;
  p["epochs"] = epochs;
  p["minibatch"] = minibatch;
  p["learning_rate"] = learning_rate;
  p["gamma"] = gamma;
  p["gae_lambda"] = gae_lambda;
  p["clip"] = clip;
  p["value_coef"] = value_coef;
  p["entropy_coef"] = entropy_coef;
  p["max_grad_norm"] = max_grad_norm;
  p["shaping"] = shaping;
  YAML::Node o = root["opponents"];
  o["self_play"] = self_play;
  o["pool"] = pool;
  o["random"] = random;
  o["heuristic"] = heuristic;
  o["pool_size"] = pool_size;
  o["snapshot_every"] = snapshot_every;
  root["imitation"]["steps"] = imitation_steps;
  root["imitation"]["learning_rate"] = imitation_learning_rate;
  root["budget"]["steps"] = total_steps;
  root["budget"]["minutes"] = minutes;
  write_run_block(root);
  return resolved_config_text(root);
}

}  // namespace rocketgym::ppo
