// The tables of `rocketgym serve`: see table_server.h.
#include "training/cli/table_server.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>
#include <tuple>

#include "envs/core/rng.h"
#include "training/arena/results.h"

namespace rocketgym::serve {

using nlohmann::json;

namespace {

const json& field(const json& request, const char* key) {
  if (!request.contains(key)) throw ApiError(400, std::string("missing field '") + key + "'");
  return request.at(key);
}

int int_field(const json& request, const char* key) {
  const json& v = field(request, key);
  if (!v.is_number_integer())
    throw ApiError(400, std::string("field '") + key + "' must be an integer, not " + v.dump());
  const int64_t x = v.get<int64_t>();
  if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
    throw ApiError(400, std::string("field '") + key + "' out of range: " + v.dump());
  return static_cast<int>(x);
}

// The file of a record's "file:line".
std::string file_of(const LoadedRecord& r) { return r.source.substr(0, r.source.rfind(':')); }

std::string new_table_id() {
  static std::random_device device;
  char id[17];
  std::snprintf(id, sizeof id, "%08x%08x", device(), device());
  return id;
}

// The on/off options of a game's built-in config: its booleans at the top
// level and in its `variants` section ("variants.short_game").
json boolean_options(const std::string& game_id) {
  json out = json::array();
  const std::string text = builtin_game_config(game_id);
  if (text.empty()) return out;
  auto collect = [&out](const YAML::Node& map, const std::string& prefix) {
    for (const auto& item : map) {
      if (!item.second.IsScalar()) continue;
      const std::string value = item.second.Scalar();
      if (value == "true" || value == "false")
        out.push_back({{"key", prefix + item.first.Scalar()}, {"default", value == "true"}});
    }
  };
  const YAML::Node root = YAML::Load(text);
  collect(root, "");
  if (root["variants"] && root["variants"].IsMap()) collect(root["variants"], "variants.");
  return out;
}

// The config overrides of a request's "options" ({"variants.short_game": true}):
// one value per dotted key, as the YAML mapping load_game merges (a JSON
// object is YAML); load_game names a key the game does not have.
std::string overrides_of(const json& options) {
  if (!options.is_object())
    throw ApiError(400, "field 'options' must be an object of config keys and values");
  json nested = json::object();
  for (const auto& item : options.items()) {
    if (!item.value().is_primitive() || item.value().is_null())
      throw ApiError(400, "option '" + item.key() + "' must be a single value, not " + item.value().dump());
    json* at = &nested;
    std::string key = item.key();
    for (std::size_t dot; (dot = key.find('.')) != std::string::npos; key = key.substr(dot + 1)) {
      json& next = (*at)[key.substr(0, dot)];
      if (!next.is_null() && !next.is_object())
        throw ApiError(400, "option '" + item.key() + "' conflicts with another");
      at = &next;
    }
    (*at)[key] = item.value();
  }
  return nested.dump();
}

}  // namespace

json parse_request(const std::string& body) {
  json request;
  try {
    request = json::parse(body);
  } catch (const json::exception& e) {
    throw ApiError(400, std::string("the request body is not valid JSON: ") + e.what());
  }
  if (!request.is_object())
    throw ApiError(400, "the request body must be a JSON object, not " + request.dump());
  return request;
}

TableServer::TableServer(cli::SeatBotFactory make_bot, TableLimits limits)
    : make_bot_(std::move(make_bot)), limits_(limits) {}

json TableServer::games() const {
  json out = json::array();
  for (const std::string& id : Registry::instance().ids()) {
    const GameInfo& info = Registry::instance().find(id).info;
    out.push_back({{"id", id},
                   {"name", info.name},
                   {"description", info.description},
                   {"min_players", info.min_players},
                   {"max_players", info.max_players},
                   {"options", boolean_options(id)}});
  }
  return out;
}

int TableServer::num_tables() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(tables_.size());
}

void TableServer::expire(Clock::time_point now) {
  for (auto it = tables_.begin(); it != tables_.end();)
    it = now - it->second.last_used > limits_.idle_expiry ? tables_.erase(it) : std::next(it);
}

TableServer::Table& TableServer::find(const std::string& id, Clock::time_point now) {
  expire(now);
  auto it = tables_.find(id);
  if (it == tables_.end())
    throw ApiError(404, "no table '" + id + "' (tables close after " +
                            std::to_string(limits_.idle_expiry.count() / 60) + " idle minutes)");
  it->second.last_used = now;
  return it->second;
}

json TableServer::create_table(const json& request, Clock::time_point now) {
  const json& game_field = field(request, "game");
  if (!game_field.is_string()) throw ApiError(400, "field 'game' must be a string");
  const std::string game_id = game_field.get<std::string>();
  Table t;
  t.game_id = game_id;
  try {
    Registry::instance().find(game_id);  // names the known games
    const std::string overrides = request.contains("options") ? overrides_of(request.at("options")) : "";
    t.game = load_game(game_id, "", overrides);
  } catch (const ApiError&) {
    throw;
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  const int players = int_field(request, "players");
  try {
    t.game->check_players(players);
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  const json& seats = field(request, "seats");
  if (!seats.is_array() || static_cast<int>(seats.size()) != players)
    throw ApiError(
        400, "field 'seats' must list " + std::to_string(players) + " seats (\"human\" or an agent spec)");
  for (const json& seat : seats) {
    if (!seat.is_string())
      throw ApiError(400, "a seat must be \"human\" or an agent spec string, not " + seat.dump());
    t.seats.push_back(seat.get<std::string>());
  }
  if (request.contains("seed")) {
    const json& seed = request.at("seed");
    if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<int64_t>() >= 0))
      throw ApiError(400, "field 'seed' must be a whole number >= 0, not " + seed.dump());
    t.seed = seed.get<uint64_t>();
  } else {
    t.seed = (static_cast<uint64_t>(std::random_device{}()) << 32) | std::random_device{}();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  expire(now);
  if (static_cast<int>(tables_.size()) >= limits_.max_tables)
    throw ApiError(503, "too many open tables (" + std::to_string(limits_.max_tables) +
                            "); idle tables close after " + std::to_string(limits_.idle_expiry.count() / 60) +
                            " minutes");
  try {
    // The one place where serve makes its bots (through play's factory).
    t.bots = cli::make_bots(t.seats, *t.game, players, make_bot_);
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  t.state = t.game->new_state(players, t.seed);
  t.last_used = now;
  settle(t);
  const std::string id = new_table_id();
  Table& stored = tables_.emplace(id, std::move(t)).first->second;
  return describe(id, stored, default_viewer(stored));
}

// The seat a request may see: a human seat, or "full" when no human sits at
// the table or the game is over.
int TableServer::parse_viewer(const Table& t, const json& seat) const {
  const int players = static_cast<int>(t.seats.size());
  if (seat.is_string() && seat.get<std::string>() == "full") {
    const bool humans = std::count(t.seats.begin(), t.seats.end(), "human") > 0;
    if (humans && !t.state->is_terminal())
      throw ApiError(400, "the full board is shown only at a table without humans or once the game is over");
    return kFullBoard;
  }
  if (!seat.is_number_integer() || seat.get<int64_t>() < 0 || seat.get<int64_t>() >= players)
    throw ApiError(400, "seat must be a seat number 0.." + std::to_string(players - 1) +
                            " or \"full\", not " + seat.dump());
  const int s = seat.get<int>();
  if (t.seats[static_cast<std::size_t>(s)] != "human")
    throw ApiError(400, "seat " + std::to_string(s) + " is a bot (" + t.seats[static_cast<std::size_t>(s)] +
                            "): only a human seat's view is shown");
  return s;
}

// The human seat to move, else the first human seat, else the full board.
int TableServer::default_viewer(const Table& t) const {
  const int p = t.state->current_player();
  if (p >= 0 && t.seats[static_cast<std::size_t>(p)] == "human") return p;
  for (std::size_t s = 0; s < t.seats.size(); ++s)
    if (t.seats[s] == "human") return static_cast<int>(s);
  return kFullBoard;
}

json TableServer::table(const std::string& id, const std::string& seat, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  Table& t = find(id, now);
  int viewer = default_viewer(t);
  if (!seat.empty()) {
    json s = seat == "full" ? json(seat) : json::parse(seat, nullptr, false);
    if (s.is_discarded()) throw ApiError(400, "seat must be a seat number or \"full\", not '" + seat + "'");
    viewer = parse_viewer(t, s);
  }
  return describe(id, t, viewer);
}

void TableServer::apply(Table& t, Action a) {
  const int seat = t.state->current_player();
  // The text is the action's before it is played (it may name what it changes).
  t.log.push_back({seat, a, t.state->action_to_string(a), t.state->is_public_action(a)});
  t.state->apply(a);
}

json TableServer::move(const std::string& id, const json& request, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  Table& t = find(id, now);
  const int viewer = parse_viewer(t, field(request, "seat"));
  const int version = int_field(request, "version");
  const int action = int_field(request, "action");
  if (version != t.version)
    throw ApiError(409, "stale move: the table is at version " + std::to_string(t.version) +
                            ", the move was made at " + std::to_string(version) + "; reload the table");
  if (t.state->is_terminal()) throw ApiError(409, "the game is over");
  if (t.state->current_player() != viewer)
    throw ApiError(409, "it is not seat " + std::to_string(viewer) + "'s turn");
  if (!t.state->is_legal(action))
    throw ApiError(400, "action " + std::to_string(action) + " (" + t.state->action_to_string(action) +
                            ") is not legal now");
  apply(t, action);
  ++t.version;  // before the bots: the move is played even if a bot then fails
  settle(t);
  return describe(id, t, viewer);
}

json TableServer::step(const std::string& id, const json& request, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  Table& t = find(id, now);
  const int viewer = parse_viewer(t, field(request, "seat"));
  const int version = int_field(request, "version");
  if (version != t.version)
    throw ApiError(409, "stale step: the table is at version " + std::to_string(t.version) +
                            ", the step was asked at " + std::to_string(version) + "; reload the table");
  if (!t.pending) settle(t);  // a bot that failed at the last request tries again
  if (!t.pending)
    throw ApiError(409, t.state->is_terminal() ? "the game is over" : "a human is to move, not a bot");
  apply(t, *t.pending);
  ++t.version;
  settle(t);
  return describe(id, t, viewer);
}

// The index in the log of the last move a human made, if any.
std::optional<std::size_t> TableServer::last_human_move(const Table& t) {
  for (std::size_t i = t.log.size(); i-- > 0;)
    if (t.seats[static_cast<std::size_t>(t.log[i].seat)] == "human") return i;
  return std::nullopt;
}

// The position after the first `moves` moves of the log, replayed from the
// table's seed (a game is its seed and its moves), the later moves dropped.
void TableServer::take_back_to(Table& t, std::size_t moves) {
  t.log.resize(moves);
  t.state = t.game->new_state(static_cast<int>(t.seats.size()), t.seed);
  for (const LogEntry& e : t.log) t.state->apply(e.action);
}

json TableServer::undo(const std::string& id, const json& request, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  Table& t = find(id, now);
  const int viewer = parse_viewer(t, field(request, "seat"));
  const int version = int_field(request, "version");
  if (version != t.version)
    throw ApiError(409, "stale undo: the table is at version " + std::to_string(t.version) +
                            ", the undo was asked at " + std::to_string(version) + "; reload the table");
  const std::optional<std::size_t> human = last_human_move(t);
  if (!human) throw ApiError(409, "nothing to undo: no human has moved yet");
  take_back_to(t, *human);
  ++t.version;  // never back to an old number: a move made before the undo stays stale
  settle(t);    // a human is to move again: nothing for the bots
  return describe(id, t, viewer);
}

// Bots play the moves no human may see at once (a secret choice, a decision
// that shows who was asked), so that nothing in the replies, not even a
// pause, tells that they happened; the next visible bot move waits in
// `pending` for a step.
void TableServer::settle(Table& t) {
  t.pending.reset();
  const bool humans = std::count(t.seats.begin(), t.seats.end(), "human") > 0;
  for (;;) {
    const int p = t.state->current_player();
    if (p < 0 || t.seats[static_cast<std::size_t>(p)] == "human") return;
    const Action a = t.bots[static_cast<std::size_t>(p)](*t.state, derive_seed(t.seed, t.log.size()));
    if (!t.state->is_legal(a))
      throw ApiError(500, "the bot of seat " + std::to_string(p) + " (" +
                              t.seats[static_cast<std::size_t>(p)] + ") chose illegal action " +
                              std::to_string(a));
    if (!humans || t.state->is_public_action(a)) {
      t.pending = a;
      return;
    }
    apply(t, a);
  }
}

void TableServer::add_records(std::vector<LoadedRecord> records) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& r : records) records_.push_back(std::move(r));
  // The arena tables again, over every record: one per file, game, config and player count.
  using Key = std::tuple<std::string, std::string, std::string, int>;
  std::vector<Key> keys;
  std::vector<std::vector<const LoadedRecord*>> groups;
  arena_of_record_.clear();
  for (const LoadedRecord& r : records_) {
    const Key key{file_of(r), r.record.game, r.record.config, r.record.num_players};
    auto at = std::find(keys.begin(), keys.end(), key);
    if (at == keys.end()) {
      at = keys.insert(keys.end(), key);
      groups.emplace_back();
    }
    const auto group = static_cast<std::size_t>(at - keys.begin());
    groups[group].push_back(&r);
    arena_of_record_.push_back(static_cast<int>(group));
  }
  arena_tables_.clear();
  for (const auto& group : groups) arena_tables_.push_back(arena_table(group));
}

json TableServer::records() const {
  std::lock_guard<std::mutex> lock(mutex_);
  json out = json::array();
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const RecordedGame& r = records_[i].record;
    out.push_back({{"index", i},
                   {"game", r.game},
                   {"source", records_[i].source},
                   {"players", r.players},
                   {"moves", r.actions.size()},
                   {"returns", r.returns},
                   {"arena", arena_of_record_[i]}});
  }
  return out;
}

json TableServer::arena_tables() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return arena_tables_;
}

json arena_table(const std::vector<const LoadedRecord*>& games) {
  if (games.empty()) throw Error("arena_table: no games");
  const RecordedGame& first = games.front()->record;
  std::vector<std::string> names;  // the agents, in order of first appearance
  std::vector<arena::GameRecord> results;
  for (const LoadedRecord* loaded : games) {
    const RecordedGame& r = loaded->record;
    if (r.game != first.game || r.num_players != first.num_players || r.config != first.config)
      throw Error("arena_table: " + loaded->source + " is another game, config or player count");
    if (r.num_players > arena::kMaxSeats)
      throw Error(loaded->source + ": more than " + std::to_string(arena::kMaxSeats) + " seats");
    arena::GameRecord g;
    g.seed = r.seed;
    g.num_players = r.num_players;
    g.decisions = static_cast<int>(r.actions.size());
    g.truncated = loaded->state_at(r.actions.size())->is_truncated();
    for (int s = 0; s < r.num_players; ++s) {
      const auto seat = static_cast<std::size_t>(s);
      auto name = std::find(names.begin(), names.end(), r.players[seat]);
      if (name == names.end()) name = names.insert(names.end(), r.players[seat]);
      g.agent[seat] = static_cast<int>(name - names.begin());
      g.returns[seat] = r.returns[seat];
    }
    results.push_back(g);
  }
  // The arena's own analysis and JSON, so that the page shows what `rocketgym arena` reports.
  json table = json::parse(arena::report_to_json(arena::analyze(results, names, first.num_players)).dump());
  table["source"] = file_of(*games.front());
  table["game"] = first.game;
  table["config"] = json::parse(first.config);
  return table;
}

namespace {

// A whole number in [0, max] from a query parameter, or ApiError 400 naming it.
int query_number(const std::string& name, const std::string& text, int max) {
  std::size_t used = 0;
  long value = -1;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || value < 0 || value > max)
    throw ApiError(
        400, name + " must be a whole number from 0 to " + std::to_string(max) + ", not '" + text + "'");
  return static_cast<int>(value);
}

}  // namespace

json TableServer::record(const std::string& index, const std::string& move, const std::string& seat) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (records_.empty()) throw ApiError(404, "no records: start rocketgym serve with --records FILE");
  const LoadedRecord& loaded = records_[static_cast<std::size_t>(
      query_number("record", index, static_cast<int>(records_.size()) - 1))];
  const RecordedGame& r = loaded.record;
  const int moves = static_cast<int>(r.actions.size());
  const int k = move.empty() ? 0 : query_number("move", move, moves);
  int viewer = kFullBoard;
  if (!seat.empty() && seat != "full") viewer = query_number("seat", seat, r.num_players - 1);
  // Replays to move k, keeping the moves the viewer sees.
  auto s = loaded.game->new_state(r.num_players, r.seed);
  json log = json::array();
  for (int i = 0; i < k; ++i) {
    const Action a = r.actions[static_cast<std::size_t>(i)];
    const int p = s->current_player();
    if (viewer == kFullBoard || p == viewer || s->is_public_action(a))
      log.push_back({{"move", i}, {"seat", p}, {"action", a}, {"text", s->action_to_string(a)}});
    s->apply(a);
  }
  json out;
  out["record"] = std::stoi(index);
  out["game"] = r.game;
  out["source"] = loaded.source;
  out["seats"] = r.players;
  out["move"] = k;
  out["moves"] = moves;
  out["viewer"] = viewer == kFullBoard ? json("full") : json(viewer);
  out["view"] = json::parse(s->view_json(viewer));
  out["text"] = viewer == kFullBoard ? s->to_string() : s->observation_string(viewer);
  out["log"] = std::move(log);
  return out;
}

json TableServer::describe(const std::string& id, const Table& t, int viewer) const {
  const AnyState& s = *t.state;
  json out;
  out["table"] = id;
  out["game"] = t.game_id;
  out["seats"] = t.seats;
  out["version"] = t.version;
  out["viewer"] = viewer == kFullBoard ? json("full") : json(viewer);
  out["view"] = json::parse(s.view_json(viewer));
  out["text"] = viewer == kFullBoard ? s.to_string() : s.observation_string(viewer);
  const int p = s.current_player();
  // Whose decision it is: the viewer's, a bot's (never which one, it may be secret),
  // or another human seat's (hot-seat: the page passes the screen on).
  if (s.is_terminal()) {
    out["waiting"] = "over";
  } else if (t.seats[static_cast<std::size_t>(p)] != "human") {
    out["waiting"] = "bot";
  } else if (p == viewer) {
    out["waiting"] = "you";
  } else {
    out["waiting"] = "human";
    out["human_seat"] = p;
  }
  json legal = json::array();
  if (p >= 0 && p == viewer)
    for (Action a : s.legal_actions()) legal.push_back({{"id", a}, {"text", s.action_to_string(a)}});
  out["legal"] = std::move(legal);
  json log = json::array();
  for (std::size_t i = 0; i < t.log.size(); ++i) {
    const LogEntry& e = t.log[i];
    if (viewer == kFullBoard || e.is_public || e.seat == viewer)
      log.push_back({{"seat", e.seat},
                     {"action", e.action},
                     {"text", e.text},
                     {"bot", t.seats[static_cast<std::size_t>(e.seat)] != "human"}});
  }
  out["log"] = std::move(log);
  out["can_undo"] = last_human_move(t).has_value();
  return out;
}

}  // namespace rocketgym::serve
