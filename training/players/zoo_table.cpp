#include "training/players/zoo_table.h"

#include <algorithm>
#include <filesystem>

#include "envs/core/game.h"
#include "training/players/kinds/torch/ismcts.h"
#include "training/players/kinds/torch/zoo.h"

namespace rocketgym::players {

namespace {

struct ZooRow {
  std::string game;
  std::vector<std::string> files;                    // file names in the zoo folder
  std::vector<std::pair<int, std::string>> players;  // table size, what plays there
};

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// What zoo:<id> plays at one table size, in words.
std::string plays(const Zoo& zoo, int num_players) {
  PlayerSpec agent{"", zoo_agent(zoo, num_players), nullptr};
  if (agent.is<Checkpoint>()) return "network, greedy";
  if (agent.is<Search>())
    return "network, search of " + std::to_string(agent.as<Search>().simulations) + " simulations";
  if (agent.is<Ismcts>() && !agent.as<Ismcts>().network.empty()) {
    const Ismcts& search = agent.as<Ismcts>();
    const std::string settings = search.settings_text();
    return "network, search of " + std::to_string(search.mcts.simulations) + " simulations" +
           (settings.empty() ? "" : " (" + settings + ")");
  }
  return "`" + to_string(agent) + "`";
}

std::vector<ZooRow> zoo_rows() {
  std::vector<ZooRow> rows;
  for (const std::string& id : Registry::instance().ids()) {
    const GameInfo& info = Registry::instance().find(id).info;
    ZooRow row{id, {}, {}};
    std::vector<int> served;
    try {
      const std::string path = zoo_path(id);
      row.files.push_back(file_name(path));
      if (is_zoo_manifest(path)) {
        if (const ZooManifest manifest = read_zoo_manifest(path, id); !manifest.network.empty())
          row.files.push_back(file_name(manifest.network));
      }
      served = zoo_served_players(id);
    } catch (const Error&) {
      if (!row.files.empty()) throw;  // a zoo file that does not read: never a silent gap
    }
    for (int players = info.min_players; players <= info.max_players; ++players) {
      const bool serves = std::find(served.begin(), served.end(), players) != served.end();
      row.players.emplace_back(players, serves ? plays(Zoo{id, -1}, players) : "not served");
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::string zoo_table_markdown() {
  const std::vector<ZooRow> rows = zoo_rows();
  int smallest = 0, largest = 0;
  for (const ZooRow& row : rows)
    for (const auto& [players, text] : row.players) {
      smallest = smallest == 0 ? players : std::min(smallest, players);
      largest = std::max(largest, players);
    }
  std::string out = "| game | files |";
  std::string rule = "| --- | --- |";
  for (int players = smallest; players <= largest; ++players) {
    out += " " + std::to_string(players) + " players |";
    rule += " --- |";
  }
  out += "\n" + rule + "\n";
  for (const ZooRow& row : rows) {
    std::string files;
    for (const std::string& file : row.files) files += (files.empty() ? "" : " + ") + ("`" + file + "`");
    out += "| " + row.game + " | " + (files.empty() ? "none" : files) + " |";
    for (int players = smallest; players <= largest; ++players) {
      const auto cell = std::find_if(row.players.begin(), row.players.end(),
                                     [&](const auto& entry) { return entry.first == players; });
      out += " " + (cell == row.players.end() ? std::string("not seated") : cell->second) + " |";
    }
    out += "\n";
  }
  return out;
}

Json zoo_table_json() {
  Json out = Json::array();
  for (const ZooRow& row : zoo_rows()) {
    Json sizes = Json::object();
    for (const auto& [players, text] : row.players) sizes[std::to_string(players)] = text;
    out.push_back(Json{{"game", row.game}, {"files", row.files}, {"players", sizes}});
  }
  return out;
}

}  // namespace rocketgym::players
