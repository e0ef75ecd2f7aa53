#include "training/ppo/train_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "envs/core/files.h"
#include "envs/core/parallel.h"
#include "training/config_yaml.h"
#include "training/players/kinds/heuristic.h"
#include "training/players/kinds/random.h"
#include "training/players/table.h"

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

// A name metrics.csv and the progress line can show: letters, digits and
// _ - . + # (a NAME=), and the : and / of kinds' default names (zoo:launch_pad).
bool column_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_-.+#:/", c) != nullptr;
  });
}

// opponents.agents: a mapping from agent spec (the command-line form,
// docs/agents.md; a kind's name alone is what it means at this game's table,
// as for the opponent env) to its weight. Read after game:, whose id it needs.
void read_agents(const ConfigNode& block, TrainConfig& c) {
  if (!block.is_map() || !block.yaml()["agents"]) return;
  const ConfigNode agents = block.child_or_empty("agents");  // `agents:` without a value: an error
  if (!agents.is_map())
    block.fail_key("agents", "a mapping of agent specs (docs/agents.md) to weights, {SPEC: WEIGHT, ...}");
  c.agents.clear();
  for (const std::string& text : agents.keys()) {
    OpponentAgent a;
    try {
      a.spec = players::parse_player(text, c.game.id);
    } catch (const ConfigError& e) {
      agents.fail_key(text, e.what());
    }
    // A network of another game is refused here when the spec says its game
    // (a zoo bot); a checkpoint's file is read when training starts.
    if (const std::string game = a.spec.kind->own_game(); !game.empty() && game != c.game.id)
      agents.fail_key(text, "it plays " + game + ", not " + c.game.id + " (game.id)");
    a.weight = agents.get_double(text, 0.0, 0.0, kMaxOpponentWeight);
    a.where = agents.child(text).where();
    const std::string name = a.name();
    if (!column_name(name))
      agents.fail_key(text, "its name '" + files::printable(name) +
                                "' cannot head a metrics.csv column: name it, NAME=SPEC (letters, digits and "
                                "_ - . + #)");
    if (name == kPoolName)
      agents.fail_key(
          text, std::string("the name '") + kPoolName +
                    "' is the snapshot pool's (train_win_vs_pool): name the agent otherwise, NAME=SPEC");
    for (const OpponentAgent& before : c.agents)
      if (before.name() == name)
        agents.fail_key(text, "another agent is named '" + name +
                                  "' too: each needs a name of its own (its metrics.csv column), NAME=SPEC");
    c.agents.push_back(std::move(a));
  }
}

void write_agents(YAML::Node& out, const TrainConfig& c) {
  YAML::Node agents(YAML::NodeType::Map);
  for (const OpponentAgent& a : c.agents) agents[players::to_string(a.spec)] = a.weight;
  out["agents"] = agents;
}

// As the docs' table shows a default: flow style, the weights' shortest text.
std::string agents_text(const TrainConfig& c) {
  YAML::Node agents(YAML::NodeType::Map);
  for (const OpponentAgent& a : c.agents) agents[players::to_string(a.spec)] = number_text(a.weight);
  YAML::Emitter text;
  text.SetMapFormat(YAML::Flow);
  text << agents;
  return text.c_str();
}

KeyTable<TrainConfig>::Key agents_key() {
  KeyTable<TrainConfig>::Key k;
  k.name = "agents";
  k.type = "mapping";
  k.range =
      "agent spec (docs/agents.md): weight, " + number_text(0.0) + " to " + number_text(kMaxOpponentWeight);
  k.doc =
      "weight of each agent: one learner seat, the agent at the others (its win rate: metrics.csv's "
      "train_win_vs_<name>)";
  k.read = read_agents;
  k.write = write_agents;
  k.text = agents_text;
  k.range_error = [](const TrainConfig& c) {
    for (const OpponentAgent& a : c.agents)
      if (!(a.weight >= 0.0 && a.weight <= kMaxOpponentWeight))
        return "agents: the weight of '" + a.name() + "' must be a number from 0 to " +
               number_text(kMaxOpponentWeight) + ", not " + number_text(a.weight);
    return std::string();
  };
  return k;
}

ConfigBlock<TrainConfig> opponents_block() {
  ConfigBlock<TrainConfig> b{"opponents", {}, false, nullptr, nullptr};
  b.keys
      .number("self_play", &TrainConfig::self_play, 0.0, kMaxOpponentWeight,
              "weight: the current policy plays every seat")
      .number(kPoolName, &TrainConfig::pool, 0.0, kMaxOpponentWeight,
              "weight: one learner seat, earlier snapshots at the others")
      .custom(agents_key())
      .whole("pool_size", &TrainConfig::pool_size, 1, 1000, "snapshots kept")
      .whole("snapshot_every", &TrainConfig::snapshot_every, 1, 1 << 20, "updates between snapshots");
  // An agent's kind as a key of its own (`heuristic: 0.1`, the form before
  // opponents.agents) is refused saying where it goes now.
  b.read = [keys = b.keys](const ConfigNode& node, TrainConfig& c) {
    for (const std::string& key : node.keys())
      if (const players::PlayerKind* kind = players::find_kind(key); kind && kind->info().agent)
        node.fail_key(key, "an agent's weight goes under agents: write agents: {" + key + ": WEIGHT}");
    keys.read(node, c);
  };
  b.check = [](const ConfigNode& node, const TrainConfig& c) {
    double total = c.self_play + c.pool;
    for (const OpponentAgent& a : c.agents) total += a.weight;
    if (total <= 0.0) node.fail("at least one of self_play, pool and the agents must have a positive weight");
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

std::string OpponentAgent::name() const { return spec.name.empty() ? spec.kind->default_name() : spec.name; }

std::vector<OpponentAgent> TrainConfig::default_agents() {
  return {{players::PlayerSpec{"", players::Random{}, nullptr}, 0.1, ""},
          {players::PlayerSpec{"", players::Heuristic{}, nullptr}, 0.1, ""}};
}

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
