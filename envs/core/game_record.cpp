// Game records: see game_record.h.
#include "envs/core/game_record.h"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "envs/core/agent_name.h"
#include "envs/core/files.h"
#include "envs/core/json.h"
#include "envs/core/quoted.h"

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

// A records line's fields are read here, not by json_get (envs/core/json.h),
// so that a message names the field as a records field and what it must
// hold, never nlohmann's exception text nor a "state document".
[[noreturn]] void refuse_field(const char* key, const std::string& why) {
  throw SerializationError(std::string("records line: field '") + key + "' " + why);
}

const Json& field(const Json& doc, const char* key) {
  if (!doc.contains(key)) throw SerializationError(std::string("records line: missing field '") + key + "'");
  return doc.at(key);
}

// A JSON integer from 0 to T's largest, or nullopt (a float such as 3.0 too:
// the arena writes whole numbers as such).
template <class T>
std::optional<T> whole_from_0(const Json& value) {
  if (!value.is_number_integer() || (!value.is_number_unsigned() && value.get<int64_t>() < 0))
    return std::nullopt;
  const auto v = value.get<uint64_t>();
  if (v > static_cast<uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
  return static_cast<T>(v);
}

template <class T>
T whole_field(const Json& doc, const char* key, const char* what) {
  const std::optional<T> v = whole_from_0<T>(field(doc, key));
  if (!v) refuse_field(key, std::string("must be ") + what);
  return *v;
}

std::string string_field(const Json& doc, const char* key, const char* what) {
  const Json& value = field(doc, key);
  if (!value.is_string()) refuse_field(key, std::string("must be ") + what);
  return value.get<std::string>();
}

// A JSON list whose every item `read` turns into a T (nullopt: not one).
template <class T, class Read>
std::vector<T> list_field(const Json& doc, const char* key, const char* what, Read read) {
  const Json& value = field(doc, key);
  if (!value.is_array()) refuse_field(key, std::string("must be ") + what);
  std::vector<T> out;
  out.reserve(value.size());
  for (const Json& item : value) {
    std::optional<T> v = read(item);
    if (!v)
      refuse_field(key, std::string("must be ") + what + "; item " + std::to_string(out.size()) + " is not");
    out.push_back(std::move(*v));
  }
  return out;
}

// The fields of a record, each of its type; what they say of the game is
// checked once the game is loaded (check_record).
RecordedGame parse_record(const Json& doc) {
  if (!doc.is_object()) throw SerializationError("a record must be a JSON object");
  RecordedGame r;
  if (const int format = whole_field<int>(doc, "record", "a whole number"); format != 1)
    refuse_field("record", "is " + std::to_string(format) + ": this reader knows record format 1 only");
  r.game = string_field(doc, "game", "a game id (a string)");
  if (!field(doc, "config").is_object()) refuse_field("config", "must be an object of config overrides");
  r.config = doc.at("config").dump();
  r.seed = whole_field<uint64_t>(doc, "seed", "a whole number from 0 to 2**64 - 1 (the seed)");
  r.num_players = whole_field<int>(doc, "num_players", "a whole number (the number of seats)");
  r.players = list_field<std::string>(doc, "players", "a list of names (strings)",
                                      [](const Json& item) -> std::optional<std::string> {
                                        if (!item.is_string()) return std::nullopt;
                                        return item.get<std::string>();
                                      });
  r.actions = list_field<Action>(doc, "actions", "a list of whole numbers from 0 (the actions played)",
                                 [](const Json& item) { return whole_from_0<Action>(item); });
  r.returns = list_field<float>(doc, "returns", "a list of numbers (each seat's return)",
                                [](const Json& item) -> std::optional<float> {
                                  if (!item.is_number()) return std::nullopt;
                                  return item.get<float>();
                                });
  return r;
}

// What the record's fields say of its game: a player count the game is
// played by, a name and a return per seat, each name one the arena writes
// (envs/core/agent_name.h): never shown back beyond quote().
void check_record(const RecordedGame& r, const AnyGame& game) {
  try {
    game.check_players(r.num_players);
  } catch (const Error& e) {
    refuse_field("num_players", std::string("is wrong: ") + e.what());
  }
  const std::string seats = " for " + std::to_string(r.num_players) + " players (field 'num_players')";
  if (static_cast<int>(r.players.size()) != r.num_players)
    refuse_field("players", "names " + std::to_string(r.players.size()) + " seats" + seats);
  if (static_cast<int>(r.returns.size()) != r.num_players)
    refuse_field("returns", "has " + std::to_string(r.returns.size()) + " values" + seats);
  for (std::size_t p = 0; p < r.players.size(); ++p)
    if (!is_seat_name(r.players[p]))
      refuse_field("players", "item " + std::to_string(p) + ", " + quote(r.players[p]) +
                                  ", is not a name the arena writes: " + kSeatNameRule);
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

// The games a file's records are played under, each loaded once: an arena's
// file holds one game and config in every line, and loading a game (its
// config merged and checked) costs milliseconds and kilobytes. Records of one
// game share it (LoadedRecord::game), as a game is only read once loaded.
class LoadedGames {
 public:
  std::shared_ptr<AnyGame> get(const std::string& id, const std::string& config) {
    const auto key = std::make_pair(id, config);  // config: dumped, so its keys in one order
    if (const auto found = games_.find(key); found != games_.end()) return found->second;
    std::shared_ptr<AnyGame> game = load_game(id, "", config);
    games_.emplace(key, game);
    return game;
  }

 private:
  std::map<std::pair<std::string, std::string>, std::shared_ptr<AnyGame>> games_;
};

// One line of a records file, replayed and checked ("where": "file:line").
LoadedRecord load_line(const std::string& line, const std::string& where, LoadedGames& games) {
  try {
    const Json doc = parse_json(line);
    LoadedRecord loaded;
    loaded.record = parse_record(doc);
    loaded.source = where;
    loaded.game = games.get(loaded.record.game, loaded.record.config);
    check_record(loaded.record, *loaded.game);
    check_replay(loaded);
    return loaded;
  } catch (const Error& e) {
    throw SerializationError(where + ": " + e.what());
  }
}

}  // namespace

LoadedRecords read_records(const std::string& path, std::size_t max_records) {
  LoadedRecords out;
  LoadedGames games;
  try {
    files::InputFile in(path, files::kMaxRecordsBytes, "records file");
    std::string line;
    bool complete = true;
    while (out.records.size() < max_records && in.next_line(line, files::kMaxRecordLineBytes, complete)) {
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
      out.records.push_back(load_line(line, where, games));
      out.complete_bytes = in.offset();
    }
  } catch (const files::FileError& e) {
    throw SerializationError(e.what());
  }
  return out;
}

std::vector<LoadedRecord> load_records(const std::string& path, std::size_t max_records) {
  LoadedRecords read = read_records(path, max_records);
  if (!read.torn.empty()) std::cerr << "note: " << files::printable(read.torn) << "\n";
  return std::move(read.records);
}

std::vector<LoadedRecord> load_records_to_show(const std::string& path, std::size_t max_records) {
  std::vector<LoadedRecord> records = load_records(path, max_records);
  if (records.empty()) throw Error(path + ": no game records in the file");
  return records;
}

}  // namespace rocketgym
