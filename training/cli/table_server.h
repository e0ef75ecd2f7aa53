// The tables of `rocketgym serve` (issue 32), without the HTTP: every request
// of the JSON API is a method taking and returning JSON, so that the rules of
// the API (who sees what, stale and illegal moves, limits, expiry) live in
// one place and serve_command.cpp only carries them over HTTP.
//
// A table is one game with a seat list ("human" or an agent spec). What a
// request may see is a seat's view: a human seat's, or the full board only
// when no human sits at the table or the game is over. Moves of the other
// seats that no human may see (is_public_action false) are played at once,
// neither logged nor stepped one by one, so that the page cannot tell they
// happened (TableServer::settle).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/game_record.h"
#include "training/cli/commands.h"

namespace rocketgym::serve {

using Clock = std::chrono::steady_clock;

// A request the API refuses: `status` is the HTTP status (400 bad request,
// 404 unknown table, 409 stale move, 413 too large, 503 too many tables).
struct ApiError : Error {
  ApiError(int status, const std::string& what) : Error(what), status(status) {}
  int status;
};

struct TableLimits {
  int max_tables = 64;                        // open tables at once
  std::chrono::seconds idle_expiry{30 * 60};  // a table nobody asked about for this long is closed
};

class TableServer {
 public:
  TableServer(cli::SeatBotFactory make_bot, TableLimits limits);

  // GET /api/games: every game with its player counts and its on/off config options.
  nlohmann::json games() const;
  // POST /api/tables {"game", "players", "seats": [...], "options": {key: value}, "seed"}.
  nlohmann::json create_table(const nlohmann::json& request, Clock::time_point now);
  // GET /api/tables/<id>?seat=S|full: the table as that seat sees it (see the top of this file).
  nlohmann::json table(const std::string& id, const std::string& seat, Clock::time_point now);
  // POST /api/tables/<id>/move {"seat", "action", "version"}: a human seat's move.
  nlohmann::json move(const std::string& id, const nlohmann::json& request, Clock::time_point now);
  // POST /api/tables/<id>/step {"seat", "version"}: the next bot move.
  nlohmann::json step(const std::string& id, const nlohmann::json& request, Clock::time_point now);
  // POST /api/tables/<id>/undo {"seat", "version"}: takes back the last human
  // move, whoever's it was (hot-seat), and the bot moves after it: the table
  // is again at that human's decision. 409 when no human has moved yet.
  nlohmann::json undo(const std::string& id, const nlohmann::json& request, Clock::time_point now);
  int num_tables() const;

  // Watching recorded games (serve --records FILE, envs/core/game_record.h).
  void add_records(std::vector<LoadedRecord> records);
  // GET /api/records: every record (game, seats, moves, returns, file:line,
  // and `arena`: the index of its arena table below).
  nlohmann::json records() const;
  // GET /api/arena: the arena's table of each records file (one per file,
  // game, config and player count): see arena_table.
  nlohmann::json arena_tables() const;
  // GET /api/records/<n>?move=K&seat=S|full: the position before move K as
  // that seat sees it (any seat of a replay, or the full board, the default).
  nlohmann::json record(const std::string& index, const std::string& move, const std::string& seat) const;

 private:
  struct LogEntry {
    int seat;
    Action action;
    std::string text;
    bool is_public;
  };
  struct Table {
    std::string game_id;
    std::shared_ptr<AnyGame> game;
    std::unique_ptr<AnyState> state;
    std::vector<std::string> seats;
    std::vector<cli::SeatBot> bots;
    uint64_t seed = 0;
    std::optional<Action> pending;  // the next bot move, chosen, waiting for a step
    int version = 0;                // bumped by every accepted move or step: what a move must name
    std::vector<LogEntry> log;
    Clock::time_point last_used;
  };

  Table& find(const std::string& id, Clock::time_point now);
  void expire(Clock::time_point now);
  int parse_viewer(const Table& t, const nlohmann::json& seat) const;
  int default_viewer(const Table& t) const;
  void apply(Table& t, Action a);
  static std::optional<std::size_t> last_human_move(const Table& t);
  void take_back_to(Table& t, std::size_t moves);
  void settle(Table& t);
  nlohmann::json describe(const std::string& id, const Table& t, int viewer) const;

  cli::SeatBotFactory make_bot_;
  TableLimits limits_;
  mutable std::mutex mutex_;
  std::map<std::string, Table> tables_;
  std::vector<LoadedRecord> records_;         // read once at start, then only read
  std::vector<nlohmann::json> arena_tables_;  // of records_, made by add_records
  std::vector<int> arena_of_record_;          // records_[i] is counted in arena_tables_[arena_of_record_[i]]
};

// The arena's table of recorded games of one game, config and player count
// (training/arena/results.h: each agent's games, score share with its 95%
// interval, mean return and rating; the head-to-head score of each pair; the
// seats' advantage), as the arena's report_to_json writes it, plus `source`
// (the file) and `game`. An agent is a player name of the records.
nlohmann::json arena_table(const std::vector<const LoadedRecord*>& games);

// The JSON body of a request: an object, or ApiError 400 naming what is wrong.
nlohmann::json parse_request(const std::string& body);

}  // namespace rocketgym::serve
