#include "training/game_setup.h"

#include <yaml-cpp/yaml.h>

#include "envs/core/game_config.h"

namespace rocketgym {

const KeyTable<GameSetup>& GameSetup::keys() {
  static const KeyTable<GameSetup> table = [] {
    KeyTable<GameSetup> t;
    KeyTable<GameSetup>::Key id;
    id.name = "id";
    id.type = "string";
    id.range = "a registered game (rocketgym list)";
    id.doc = "the game (required)";
    id.default_text = "(required)";
    id.read = [](const ConfigNode& node, GameSetup& g) {
      g.id = node.get_string("id");
      try {
        Registry::instance().find(g.id);
      } catch (const ConfigError&) {
        throw;
      } catch (const Error& e) {
        node.fail_key("id", e.what());
      }
    };
    id.write = [](YAML::Node& out, const GameSetup& g) { out["id"] = g.id; };
    id.text = [](const GameSetup& g) { return g.id; };
    t.custom(std::move(id));

    KeyTable<GameSetup>::Key players;
    players.name = "players";
    players.type = "integer";
    players.range = "the game's player counts";
    players.doc = "seats at the table";
    players.default_text = "the game's fewest";
    players.read = [](const ConfigNode& node, GameSetup& g) {
      const GameInfo& info = Registry::instance().find(g.id).info;
      g.players = node.get_int("players", info.min_players, info.min_players, info.max_players);
    };
    players.write = [](YAML::Node& out, const GameSetup& g) { out["players"] = g.players; };
    players.text = [](const GameSetup& g) { return std::to_string(g.players); };
    t.custom(std::move(players));

    t.text("config", &GameSetup::config_file, "game config file (empty: configs/games/<id>.yaml)")
        .default_shown("\"\"");

    KeyTable<GameSetup>::Key overrides;
    overrides.name = "overrides";
    overrides.type = "mapping";
    overrides.range = "keys of the game's config";
    overrides.doc = "merged onto the game's config (see the game's page)";
    overrides.default_text = "{}";
    overrides.read = [](const ConfigNode& node, GameSetup& g) {
      const ConfigNode o = node.child_or_empty("overrides");
      if (!o.is_map()) node.fail_key("overrides", "must be a mapping of game config keys");
      if (!o.keys().empty()) g.overrides = o;
    };
    overrides.write = [](YAML::Node& out, const GameSetup& g) {
      if (!g.overrides.is_null()) out["overrides"] = YAML::Clone(g.overrides.yaml());
    };
    overrides.text = [](const GameSetup& g) { return g.overrides_text(); };
    t.custom(std::move(overrides));
    return t;
  }();
  return table;
}

GameSetup GameSetup::from_yaml(const ConfigNode& node) {
  GameSetup g;
  keys().read(node, g);
  if (g.id.empty()) g.id = node.get_string("id");  // an empty mapping: names the missing id
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
