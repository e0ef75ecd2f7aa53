// The tables of `rocketgym serve` (issue 32), without the HTTP: every request
// of the JSON API is a method taking and returning JSON, so that the rules of
// the API (who sees what, stale and illegal moves, limits, expiry) live in
// one place and serve_app.cpp only carries them over HTTP. Its code is split
// by job: table_server.cpp the live tables, record_library.cpp the recorded
// games and their arena tables, table_analysis.cpp the zoo bot's analyses.
//
// A table is one game with a seat list: "human", or a bot from the server's
// own list (SeatKinds: random, heuristic, the zoo bot at the sizes it serves,
// the agents of --allow-agent), never a spec or a path from the client. Each
// human seat has its own key, a secret given once, to whoever made the table:
// a seat's view, moves and undo need it. What a request may see is that
// seat's view, or the full board only at a table without humans or, with a
// seat's key, once the game is over. Moves of the other seats that no human
// may see (is_public_action false) are played at once, neither logged nor
// stepped one by one, so that the page cannot tell they happened
// (TableServer::settle), and the answer is sent on a fixed schedule
// (kBotReplyTick, TableReply::release), so that neither can its timing.
//
// Each table has its own lock: a bot thinking at one table never holds up
// another (the lock of the list of tables is held only to find, add or close one).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/game_record.h"
#include "training/cli/commands.h"
#include "training/cli/serve_limits.h"

namespace rocketgym::serve {

// A request the API refuses: `status` is the HTTP status (400 bad request,
// 403 a seat's key missing or wrong, 404 unknown table, 409 stale move or no
// undo, 503 too many tables). The message never quotes the request.
struct ApiError : Error {
  ApiError(int status, const std::string& what) : Error(what), status(status) {}
  int status;
};

struct TableLimits {
  int max_tables = kDefaultMaxTables;  // open tables at once
  std::chrono::seconds idle_expiry{kDefaultIdleMinutes *
                                   60};  // a table nobody asked about for this long is closed
};

// The bots a seat may be, by game and player count: the server's list, the
// only specs a table is ever made with (the kinds a person plays, human, are
// always offered besides: players::person_kinds()).
class SeatKinds {
 public:
  // The agent kinds that play no network (random, heuristic), at every
  // player count of every game.
  static SeatKinds basic();
  void add(const std::string& game, int players, const std::string& spec);
  // The bot specs offered there (empty when none).
  const std::vector<std::string>& bots(const std::string& game, int players) const;
  bool offers(const std::string& game, int players, const std::string& spec) const;

 private:
  std::map<std::pair<std::string, int>, std::vector<std::string>> bots_;
};

// An answer that may have run bots, and when to send it: at a table of humans
// and bots, a whole number of the table's tick after its request came (at
// least one), whatever the bots did; else at once (the request's time). The
// tick is kQuickBotReplyTick when every bot is random or heuristic, else
// kBotReplyTick (serve_limits.h).
struct TableReply {
  nlohmann::json body;
  Clock::time_point release;
};

class TableServer {
 public:
  using Now = std::function<Clock::time_point()>;
  using Seeds = std::function<uint64_t()>;

  // `now`: the clock that measures the bots' work for the reply schedule;
  // `seeds`: the seeds of an undo's new deal (tests pass their own).
  TableServer(cli::SeatBotFactory make_bot, SeatKinds kinds, TableLimits limits, Now now = Clock::now,
              Seeds seeds = nullptr);

  // GET /api/games: every game with its player counts, its on/off config
  // options and, per player count, the seat kinds offered ("seats").
  nlohmann::json games() const;
  // POST /api/tables {"game", "players", "seats": [...], "options": {key: true|false}, "seed"}:
  // the table as its first human seat sees it, with "keys": {seat: key} of every human seat.
  TableReply create_table(const nlohmann::json& request, Clock::time_point now);
  // GET /api/tables/<id>?seat=S|full with seat S's key (empty `seat`: the
  // seat whose key it is, or the full board at a table without humans).
  nlohmann::json table(const std::string& id, const std::string& seat, const std::string& key,
                       Clock::time_point now);
  // POST /api/tables/<id>/move {"seat", "action", "version"} with the seat's key: a human seat's move.
  TableReply move(const std::string& id, const nlohmann::json& request, const std::string& key,
                  Clock::time_point now);
  // POST /api/tables/<id>/step {"seat", "version"}: the next bot move, asked
  // by a human seat with its key ("full" at a table without humans).
  TableReply step(const std::string& id, const nlohmann::json& request, const std::string& key,
                  Clock::time_point now);
  // POST /api/tables/<id>/undo {"seat", "version"} with the seat's key: takes
  // back that seat's own last move and the bot moves after it, then deals
  // again what the seat cannot see (redeterminize with a new seed: the draw
  // pile, the others' hands, the dice to come), so that an undo never shows
  // what a draw would bring. Refused (409) once the game is over, at a table
  // of more than one human (another human's hand would be dealt again), and
  // before the seat has moved.
  TableReply undo(const std::string& id, const nlohmann::json& request, const std::string& key,
                  Clock::time_point now);
  int num_tables() const;

  // The analyst of each game and table size (the zoo bot, where the server
  // offers it as a seat; ServeBots::analyst). Without one, analysis answers 404.
  // At most kMaxAnalysesAtOnce analyses run at once, over all tables, each
  // with its own analyst (made when none of that game and size is free, kept
  // for the next); more wait for one to end.
  void set_analyst(cli::AnalystFactory analyst);
  // GET /api/tables/<id>/analysis?seat=S with seat S's key, S to move: what
  // the analyst makes of S's decision (analyze below). Computed outside the
  // table's lock, at most kMaxBotWorkPerMove search work.
  nlohmann::json analysis(const std::string& id, const std::string& seat, const std::string& key,
                          Clock::time_point now);

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
  // A seat's moves are the ones it sees, numbered among themselves
  // (seen_moves.h): another seat's secret move shows neither as a line nor as a gap.
  nlohmann::json record(const std::string& index, const std::string& move, const std::string& seat) const;
  // GET /api/records/<n>/analysis?move=K&seat=S: what the analyst makes of
  // the position before move K as seat S knew the game then (any seat: a
  // finished game's replay shows every seat's view; empty `seat`: the player
  // to move, every move counted; a seat's K counts the moves it sees, as
  // above): S's value, S's moves where S is to move, and `played`: the move
  // made and the probability the analysis gave it (null for another seat).
  nlohmann::json record_analysis(const std::string& index, const std::string& move, const std::string& seat);

 private:
  friend struct TableServerTestAccess;  // tests/serve/table_server_test.cpp
  struct LogEntry {
    int seat;
    Action action;
    std::string text;
    bool is_public;
  };
  // A position the log starts from: the deal, then each undo's new deal.
  struct Base {
    std::size_t moves;  // the log's moves before it
    std::unique_ptr<AnyState> state;
  };
  struct Table {
    std::mutex mutex;  // everything below; held while the table's bots move
    std::string game_id;
    std::shared_ptr<AnyGame> game;
    std::unique_ptr<AnyState> state;
    std::vector<std::string> seats;
    std::vector<std::string> keys;  // a human seat's key; empty for a bot
    int humans = 0;
    Clock::duration tick{0};  // of the reply schedule (TableReply); 0: answers are not held
    std::vector<cli::SeatBot> bots;
    uint64_t seed = 0;
    std::vector<Base> bases;
    std::optional<Action> pending;  // the next bot move, chosen, waiting for a step
    int undone = 0;  // added to every seat's version by undos (version_for): what a move must name
    std::vector<LogEntry> log;
    Clock::time_point last_used;  // under TableServer::mutex_
  };

  std::shared_ptr<Table> find(const std::string& id, Clock::time_point now);
  void expire(Clock::time_point now);
  int parse_viewer(const Table& t, const nlohmann::json& seat, const std::string& key) const;
  int default_viewer(const Table& t) const;
  static int version_for(const Table& t, int viewer);
  void check_version(const Table& t, const nlohmann::json& request, const char* what, int viewer) const;
  void apply(Table& t, Action a);
  static std::optional<std::size_t> last_move_of(const Table& t, int seat);
  void redeal_at(Table& t, std::size_t moves, int seat);
  void settle(Table& t);
  TableReply reply(const Table& t, nlohmann::json body, Clock::time_point now) const;
  nlohmann::json describe(const std::string& id, const Table& t, int viewer) const;
  // The analysis of `world` for `seat`, in a copy dealt again from that
  // seat's knowledge (redeterminize), so that the analyst never sees what the
  // seat cannot: {"by", "how", "seat", "to_move", "value" (for `seat`),
  // "moves": [{"action", "text", "probability", "visits"}]}, the moves (of
  // the seat's own decision; none when another seat is to move) by
  // probability, highest first. ApiError 404 without an analyst.
  nlohmann::json analyze(const std::string& game_id, const AnyGame& game, std::unique_ptr<AnyState> world,
                         int seat);

  cli::SeatBotFactory make_bot_;
  SeatKinds kinds_;
  TableLimits limits_;
  Now now_;
  Seeds seeds_;
  mutable std::mutex
      mutex_;  // tables_, creating_, each table's last_used, records_; never held while a bot moves
  std::map<std::string, std::shared_ptr<Table>> tables_;
  int creating_ = 0;                          // tables being made outside the lock, counted against the cap
  std::vector<LoadedRecord> records_;         // read once at start, then only read
  std::vector<nlohmann::json> arena_tables_;  // of records_, made by add_records
  std::vector<int> arena_of_record_;          // records_[i] is counted in arena_tables_[arena_of_record_[i]]
  cli::AnalystFactory make_analyst_;          // set once, before serving
  // The analysts not in use, by game and table size (made on demand, at most
  // kMaxAnalysesAtOnce of each), and the analyses running or waiting for a
  // turn; under mutex_.
  std::map<std::pair<std::string, int>, std::vector<cli::Analyst>> idle_analysts_;
  int analyses_running_ = 0;
  int analyses_waiting_ = 0;
  std::condition_variable analysis_turn_;  // an analysis ended
};

// The arena's table of recorded games of one game, config and player count
// (training/arena/results.h: each agent's games, score share with its 95%
// interval, mean return and rating; the head-to-head score of each pair; the
// seats' advantage), as the arena's report_to_json writes it, plus `source`
// (the file) and `game`. An agent is a player name of the records.
nlohmann::json arena_table(const std::vector<const LoadedRecord*>& games);

// The JSON body of a request: an object, or ApiError 400 saying what is wrong
// (not valid UTF-8, nested deeper than kMaxJsonDepth, not JSON, a key named
// twice in one object, not an object) without quoting it. Each call then
// refuses a field it does not take. The depth is checked before parsing, so that no
// parse, dump or destructor recurses deeper than kMaxJsonDepth.
nlohmann::json parse_request(const std::string& body);

// The one reading of a number in a request's path or query: canonical
// decimal (digits only, no sign, no leading zero but in "0" itself, at most
// 9 digits), else nullopt ("+0", "00", " 0" and "" are not numbers).
std::optional<int> canonical_number(std::string_view text);

// A whole number in [0, max] (canonical_number) from a path part or query
// parameter `name`, or ApiError 400 naming it.
int query_number(const std::string& name, const std::string& text, int max);

}  // namespace rocketgym::serve
