#include "training/game_setup.h"

#include <yaml-cpp/yaml.h>

#include "envs/core/game_config.h"

namespace rocketgym {

GameSetup GameSetup::from_yaml(const ConfigNode& node) {
  node.expect_keys({"id", "players", "config", "overrides"});
  GameSetup g;
  g.id = node.get_string("id");
  try {
    const GameEntry& entry = Registry::instance().find(g.id);
    g.players =
        node.get_int("players", entry.info.min_players, entry.info.min_players, entry.info.max_players);
  } catch (const ConfigError&) {
    throw;
  } catch (const Error& e) {
    node.fail_key("id", e.what());
  }
  g.config_file = node.get_string("config", "");
  const ConfigNode overrides = node.child_or_empty("overrides");
  if (!overrides.is_map()) node.fail_key("overrides", "must be a mapping of game config keys");
  if (!overrides.keys().empty()) g.overrides = overrides;
  return g;
}

std::shared_ptr<AnyGame> GameSetup::load() const { return load_game(id, config_file, overrides); }

std::string GameSetup::resolved_config_text() const {
  return YAML::Dump(resolve_game_config(id, config_file, overrides).yaml());
}

std::string GameSetup::overrides_text() const {
  return overrides.is_null() ? "" : YAML::Dump(overrides.yaml());
}

Json GameSetup::to_json() const {
  return Json{{"id", id}, {"players", players}, {"config", config_file}, {"overrides", overrides_text()}};
}

}  // namespace rocketgym
