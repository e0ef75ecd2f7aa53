#include "training/game_setup.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <exception>

#include "envs/core/game_config.h"
#include "envs/core/quoted.h"
#include "envs/core/rng.h"
#include "envs/core/yaml_document.h"

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
    players.type = "integer, list or mapping";
    players.range =
        "the game's player counts: one (3), a list of them drawn with equal weights ([2, 3, 4]), or a "
        "mapping of count to weight > 0 ({2: 0.5, 3: 0.25, 4: 0.25}); lists and mappings for the trainers "
        "only";
    players.doc =
        "seats at the table; with several counts, PPO splits its envs over the table sizes by weight and "
        "search-based self-play draws each game's size by weight (docs/training.md, mixed tables)";
    players.default_text = "the game's fewest";
    players.read = [](const ConfigNode& node, GameSetup& g) { g.read_players(node); };
    players.write = [](YAML::Node& out, const GameSetup& g) {
      out["players"] = load_yaml_document(g.players_text(), "game.players");
    };
    players.text = [](const GameSetup& g) { return g.players_text(); };
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

void GameSetup::read_players(const ConfigNode& node) {
  const GameInfo& info = Registry::instance().find(id).info;
  const std::string counts =
      "from " + std::to_string(info.min_players) + " to " + std::to_string(info.max_players) + " for " + id;
  auto count_of = [&](const ConfigNode& where, const std::string& text) {
    int value = 0;
    std::size_t used = 0;
    try {
      value = std::stoi(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || value < info.min_players || value > info.max_players)
      where.fail(quote(text) + " is not a player count (" + counts + ")");
    return value;
  };
  tables.clear();
  const ConfigNode value = node.has("players") ? node.child("players") : ConfigNode();
  if (value.is_sequence()) {
    for (const ConfigNode& item : value.items()) tables.push_back({count_of(item, item.as_string()), 1.0});
  } else if (value.is_map()) {
    for (const std::string& key : value.keys())
      tables.push_back({count_of(value, key), value.get_double(key, 1.0, 1e-9, 1e9)});
  } else {
    tables.push_back({node.get_int("players", info.min_players, info.min_players, info.max_players), 1.0});
  }
  if (tables.empty()) node.fail_key("players", "lists no player count (" + counts + ")");
  std::sort(tables.begin(), tables.end(),
            [](const TableShare& a, const TableShare& b) { return a.players < b.players; });
  for (std::size_t k = 1; k < tables.size(); ++k)
    if (tables[k].players == tables[k - 1].players)
      node.fail_key("players", "lists " + std::to_string(tables[k].players) + " players twice");
  players = tables.front().players;
}

GameSetup GameSetup::from_yaml(const ConfigNode& node, bool allow_mix) {
  GameSetup g;
  keys().read(node, g);
  if (g.id.empty()) g.id = node.get_string("id");  // an empty mapping: names the missing id
  if (g.mixed() && !allow_mix)
    node.fail_key("players", "is a mix of table sizes (" + g.players_text() +
                                 "); only the trainers draw table sizes: give one player count here, e.g. " +
                                 std::to_string(g.players));
  return g;
}

std::vector<int> GameSetup::player_counts() const {
  std::vector<int> out;
  for (const TableShare& t : tables) out.push_back(t.players);
  return out;
}

std::string GameSetup::players_text() const {
  if (!mixed()) return std::to_string(players);
  bool equal = true;
  for (const TableShare& t : tables) equal = equal && t.weight == tables.front().weight;
  std::string out;
  for (const TableShare& t : tables) {
    out += out.empty() ? (equal ? "[" : "{") : ", ";
    out += std::to_string(t.players);
    if (!equal) out += ": " + YAML::Dump(YAML::Node(t.weight));
  }
  return out + (equal ? "]" : "}");
}

std::vector<int> split_by_weight(int total, const std::vector<double>& weights) {
  const int n = static_cast<int>(weights.size());
  if (n == 0 || total < n)
    throw ConfigError("cannot split " + std::to_string(total) + " slots over " + std::to_string(n) +
                      " shares: every share needs at least one");
  double sum = 0.0;
  for (double w : weights) sum += w;
  // Each share first gets one slot; the rest is split by largest remainders.
  const int rest = total - n;
  std::vector<int> out(static_cast<std::size_t>(n), 1);
  std::vector<double> remainder(static_cast<std::size_t>(n));
  int given = 0;
  for (int k = 0; k < n; ++k) {
    const double quota = rest * weights[static_cast<std::size_t>(k)] / sum;
    const int whole = static_cast<int>(quota);
    out[static_cast<std::size_t>(k)] += whole;
    remainder[static_cast<std::size_t>(k)] = quota - whole;
    given += whole;
  }
  for (; given < rest; ++given) {
    const auto best = std::max_element(remainder.begin(), remainder.end()) - remainder.begin();
    ++out[static_cast<std::size_t>(best)];
    remainder[static_cast<std::size_t>(best)] = -1.0;
  }
  return out;
}

int draw_table_size(const std::vector<TableShare>& tables, uint64_t game_seed) {
  if (tables.size() == 1) return tables.front().players;
  double total = 0.0;
  for (const TableShare& t : tables) total += t.weight;
  double u = Rng(derive_seed(game_seed ^ 0x7AB1E5ULL, 0)).uniform01() * total;
  for (const TableShare& t : tables)
    if ((u -= t.weight) < 0.0) return t.players;
  return tables.back().players;  // rounding
}

std::vector<int> observation_shape_for(const AnyGame& game, const std::vector<int>& player_counts) {
  const std::vector<int> shape = game.observation_shape(player_counts.front());
  for (int players : player_counts)
    if (game.observation_shape(players) != shape) {
      auto size = [](const std::vector<int>& s) {
        long long n = 1;
        for (int d : s) n *= d;
        return std::to_string(n);
      };
      throw ConfigError("game.players: " + game.info().id + "'s observation has " + size(shape) +
                        " numbers at " + std::to_string(player_counts.front()) + " players but " +
                        size(game.observation_shape(players)) + " at " + std::to_string(players) +
                        "; one network takes one layout, so mixed tables need an encoder whose layout is "
                        "the same for every player count");
    }
  return shape;
}

std::shared_ptr<AnyGame> GameSetup::load() const { return load_game(id, config_file, overrides); }

std::string GameSetup::resolved_config_text() const {
  return YAML::Dump(resolve_game_config(id, config_file, overrides).yaml());
}

std::string GameSetup::overrides_text() const {
  return overrides.is_null() ? "" : YAML::Dump(overrides.yaml());
}

Json GameSetup::to_json() const {
  Json doc{{"id", id}, {"players", players}, {"config", config_file}, {"overrides", overrides_text()}};
  if (mixed()) doc["players"] = players_text();
  return doc;
}

}  // namespace rocketgym
