// Game records: see game_record.h.
#include "envs/core/game_record.h"

#include <cmath>
#include <fstream>

#include "envs/core/json.h"

namespace rocketgym {

RecordedGame make_record(const std::string& game_id, const std::string& config_overrides, uint64_t seed,
                         std::vector<std::string> players, std::vector<Action> actions,
                         const AnyState& final_state) {
  RecordedGame r;
  r.game = game_id;
  r.config = config_overrides.empty() ? "{}" : config_overrides;
  r.seed = seed;
  r.num_players = final_state.num_players();
  r.players = std::move(players);
  r.actions = std::move(actions);
  r.returns = final_state.returns();
  return r;
}

std::string record_to_line(const RecordedGame& r) {
  Json doc;
  doc["record"] = 1;
  doc["game"] = r.game;
  doc["config"] = Json::parse(r.config);
  doc["seed"] = r.seed;
  doc["num_players"] = r.num_players;
  doc["players"] = r.players;
  doc["actions"] = r.actions;
  doc["returns"] = r.returns;
  return doc.dump();
}

void append_records(const std::string& path, const std::vector<RecordedGame>& records) {
  std::ofstream out(path, std::ios::app);
  if (!out) throw Error(path + ": cannot open the records file for writing");
  for (const RecordedGame& r : records) out << record_to_line(r) << "\n";
  out.flush();
  if (!out) throw Error(path + ": cannot write the records file");
}

std::unique_ptr<AnyState> LoadedRecord::state_at(std::size_t k) const {
  auto s = game->new_state(record.num_players, record.seed);
  for (std::size_t i = 0; i < k && i < record.actions.size(); ++i) s->apply(record.actions[i]);
  return s;
}

namespace {

RecordedGame parse_record(const Json& doc) {
  if (!doc.is_object()) throw SerializationError("a record must be a JSON object");
  RecordedGame r;
  if (json_get<int>(doc, "record") != 1)
    throw SerializationError("field 'record': this reader knows record format 1 only");
  r.game = json_get<std::string>(doc, "game");
  if (!doc.contains("config") || !doc.at("config").is_object())
    throw SerializationError("field 'config' must be an object of config overrides");
  r.config = doc.at("config").dump();
  r.seed = json_get<uint64_t>(doc, "seed");
  r.num_players = json_get<int>(doc, "num_players");
  r.players = json_get<std::vector<std::string>>(doc, "players");
  r.actions = json_get<std::vector<Action>>(doc, "actions");
  r.returns = json_get<std::vector<float>>(doc, "returns");
  if (static_cast<int>(r.players.size()) != r.num_players)
    throw SerializationError("field 'players' names " + std::to_string(r.players.size()) + " seats for " +
                             std::to_string(r.num_players) + " players");
  if (static_cast<int>(r.returns.size()) != r.num_players)
    throw SerializationError("field 'returns' has " + std::to_string(r.returns.size()) + " values for " +
                             std::to_string(r.num_players) + " players");
  return r;
}

// Replays the record: every action legal, the game over at the end, its returns those recorded.
void check_replay(const LoadedRecord& loaded) {
  const RecordedGame& r = loaded.record;
  auto s = loaded.game->new_state(r.num_players, r.seed);
  for (std::size_t i = 0; i < r.actions.size(); ++i) {
    if (s->is_terminal())
      throw SerializationError("the game is over after move " + std::to_string(i) +
                               ", yet the record goes on");
    if (!s->is_legal(r.actions[i]))
      throw SerializationError("move " + std::to_string(i) + ": action " + std::to_string(r.actions[i]) +
                               " is not legal there (another config, seed or game version?)");
    s->apply(r.actions[i]);
  }
  if (!s->is_terminal()) throw SerializationError("the game is not over after the recorded moves");
  const auto returns = s->returns();
  for (int p = 0; p < r.num_players; ++p)
    if (std::fabs(returns[static_cast<std::size_t>(p)] - r.returns[static_cast<std::size_t>(p)]) > 1e-4f)
      throw SerializationError("the replay's returns differ from the recorded ones (seat " +
                               std::to_string(p) + ")");
}

}  // namespace

std::vector<LoadedRecord> load_records(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw SerializationError(path + ": cannot open the records file");
  std::vector<LoadedRecord> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number);
    try {
      Json doc;
      try {
        doc = Json::parse(line);
      } catch (const nlohmann::json::exception& e) {
        throw SerializationError(std::string("not valid JSON: ") + e.what());
      }
      LoadedRecord loaded;
      loaded.record = parse_record(doc);
      loaded.source = where;
      loaded.game = load_game(loaded.record.game, "", loaded.record.config);
      loaded.game->check_players(loaded.record.num_players);
      check_replay(loaded);
      out.push_back(std::move(loaded));
    } catch (const Error& e) {
      throw SerializationError(where + ": " + e.what());
    }
  }
  return out;
}

}  // namespace rocketgym
