// Game records: see game_record.h.
#include "envs/core/game_record.h"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <iostream>

#include "envs/core/files.h"
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
  std::string text;
  for (const RecordedGame& r : records) text += record_to_line(r) + "\n";
  const int fd = files::open_output(path, O_APPEND, "records file");
  try {
    files::write_all(fd, text, path, "records file");
  } catch (...) {
    ::close(fd);
    throw;
  }
  files::sync_and_close(fd, path, "records file");
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

namespace {

// One line of a records file, replayed and checked ("where": "file:line").
LoadedRecord load_line(const std::string& line, const std::string& where) {
  try {
    const Json doc = parse_json(line);
    LoadedRecord loaded;
    loaded.record = parse_record(doc);
    loaded.source = where;
    loaded.game = load_game(loaded.record.game, "", loaded.record.config);
    loaded.game->check_players(loaded.record.num_players);
    check_replay(loaded);
    return loaded;
  } catch (const Error& e) {
    throw SerializationError(where + ": " + e.what());
  }
}

}  // namespace

LoadedRecords read_records(const std::string& path) {
  LoadedRecords out;
  try {
    files::InputFile in(path, files::kMaxRecordsBytes, "records file");
    std::string line;
    bool complete = true;
    while (in.next_line(line, files::kMaxRecordLineBytes, complete)) {
      out.ends_with_line_break = complete;
      if (line.find_first_not_of(" \t\r") == std::string::npos) {
        out.complete_bytes = in.offset();
        continue;
      }
      const std::string where = path + ":" + std::to_string(in.line_number());
      // The writer ends every line with its '\n' in one write: a last line
      // without one that is not JSON was cut short (an interrupted arena).
      if (!complete && !Json::accept(line)) {
        out.torn = where + ": the last line is cut short (" + std::to_string(line.size()) +
                   " bytes without an end of line, not a whole record: the writer was interrupted); "
                   "it was skipped";
        break;
      }
      out.records.push_back(load_line(line, where));
      out.complete_bytes = in.offset();
    }
  } catch (const files::FileError& e) {
    throw SerializationError(e.what());
  }
  return out;
}

std::vector<LoadedRecord> load_records(const std::string& path) {
  LoadedRecords read = read_records(path);
  if (!read.torn.empty()) std::cerr << "note: " << files::printable(read.torn) << "\n";
  return std::move(read.records);
}

std::vector<LoadedRecord> load_records_to_show(const std::string& path) {
  std::vector<LoadedRecord> records = load_records(path);
  if (records.empty()) throw Error(path + ": no game records in the file");
  return records;
}

}  // namespace rocketgym
