// Game records (issue 26 item 5): one JSON object per line, one line per game,
// enough to replay the game exactly:
//   {"record": 1, "game": "last_blast", "config": {overrides...}, "seed": 7,
//    "num_players": 2, "players": ["heuristic", "zoo"], "actions": [3, 17, ...],
//    "returns": [1.0, -1.0]}
// "config" holds the settings merged onto the game's built-in config (as
// load_game's overrides), "seed" the seed of new_state, "players" the name of
// each seat. Written by the arena (--records FILE), read by `rocketgym serve
// --records FILE` to watch the games. Reading replays every game and checks
// it: a bad line is a SerializationError naming the file, line and field.
// A player's name is one the arena writes (is_seat_name, envs/core/agent_name.h):
// a reader may show it as it is, yet one that prints it escapes it as any
// text read from a file.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/game.h"

namespace rocketgym {

// (Not arena::GameRecord, the arena's result row of a game: this one holds its moves.)
struct RecordedGame {
  std::string game;
  std::string config = "{}";  // JSON object of config overrides (a YAML mapping)
  uint64_t seed = 0;
  int num_players = 2;
  std::vector<std::string> players;  // one name per seat
  std::vector<Action> actions;
  std::vector<float> returns;  // per seat, of the finished game
};

// The record of a finished game played from game.new_state(players, seed).
RecordedGame make_record(const std::string& game_id, const std::string& config_overrides, uint64_t seed,
                         std::vector<std::string> players, std::vector<Action> actions,
                         const AnyState& final_state);

// One line of JSON, without the newline.
std::string record_to_line(const RecordedGame& record);

// Appends one line per record to `path` (created if missing), each ending
// with its '\n', then flushes the file to the disk. The file rule
// (envs/core/files.h): never through a symbolic link, never a FIFO or a
// device; an Error names the file and the reason ("No space left on device").
void append_records(const std::string& path, const std::vector<RecordedGame>& records);

// A record that replays: its game, loaded with its config, and the replay's states.
struct LoadedRecord {
  RecordedGame record;
  std::shared_ptr<AnyGame> game;
  std::string source;  // "file:line"
  // The position before move k (k = 0 .. actions.size()): states[k].
  std::unique_ptr<AnyState> state_at(std::size_t k) const;
};

// Every record of a records file, replayed.
struct LoadedRecords {
  std::vector<LoadedRecord> records;
  // Not empty when the last line was cut short (no '\n' at its end and not
  // JSON: a writer killed mid-line): "path:line: the last line is cut
  // short...; it was skipped". The records before it are all there.
  std::string torn;
  // The bytes of the file up to the end of the last whole line read: where a
  // writer that continues the file appends (after cutting a torn line off).
  uint64_t complete_bytes = 0;
  bool ends_with_line_break = true;  // false: the last line (whole or torn) has no '\n'
};

// Reads the records of `path`, the first `max_records` of them (all by
// default: a command that shows game N reads no further than it), and
// replays each; throws SerializationError naming "path:line" and what is
// wrong (not JSON, a missing or mistyped field, an unknown game or config
// key, a player count the game is not played by, a player's name the arena
// never writes (kSeatNameRule, envs/core/agent_name.h), an illegal action,
// returns that differ). Records of one game id and config share one loaded
// game. The file rule (envs/core/files.h): a regular file of at most
// files::kMaxRecordsBytes, each line at most files::kMaxRecordLineBytes (a
// FIFO, a device or a folder is refused at once). A last line cut short is
// skipped and said (LoadedRecords::torn), not an error.
inline constexpr std::size_t kAllRecords = static_cast<std::size_t>(-1);
LoadedRecords read_records(const std::string& path, std::size_t max_records = kAllRecords);
// read_records(path, max_records).records; a note on stderr when the last line was cut short.
std::vector<LoadedRecord> load_records(const std::string& path, std::size_t max_records = kAllRecords);
// load_records(path, max_records) for a command that shows the games
// (`rocketgym replay`, `rocketgym serve --records`): a file without a record
// (empty, or blank lines only) is refused, Error "path: no game records in
// the file".
std::vector<LoadedRecord> load_records_to_show(const std::string& path,
                                               std::size_t max_records = kAllRecords);

}  // namespace rocketgym
