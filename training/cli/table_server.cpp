// The live tables of `rocketgym serve`: see table_server.h (the recorded
// games are in record_library.cpp, the analyses in table_analysis.cpp).
#include "training/cli/table_server.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <random>

#include "envs/core/json.h"
#include "envs/core/rng.h"
#include "envs/core/yaml_document.h"
#include "training/cli/http_server.h"
#include "training/cli/seen_moves.h"
#include "training/players/kinds.h"

namespace rocketgym::serve {

using nlohmann::json;

namespace {

const json& field(const json& request, const char* key) {
  if (!request.contains(key)) throw ApiError(400, std::string("missing field '") + key + "'");
  return request.at(key);
}

// A field the call does not take is refused, not ignored (a misspelt "seed"
// would make a table with a random seed): the message lists the fields the
// call takes, never the one sent.
void only_fields(const json& request, std::initializer_list<const char*> taken, const char* call) {
  for (const auto& item : request.items()) {
    if (std::any_of(taken.begin(), taken.end(), [&](const char* k) { return item.key() == k; })) continue;
    std::string list;
    for (const char* k : taken) list += std::string(list.empty() ? "'" : ", '") + k + "'";
    throw ApiError(400, std::string("the request body holds a field that ") + call +
                            " does not take (it takes " + list + ")");
  }
}

int int_field(const json& request, const char* key) {
  const json& v = field(request, key);
  if (!v.is_number_integer()) throw ApiError(400, std::string("field '") + key + "' must be an integer");
  const int64_t x = v.get<int64_t>();
  if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
    throw ApiError(400, std::string("field '") + key + "' is out of range");
  return static_cast<int>(x);
}

// 128 random bits in hex: a table's id, a seat's key.
std::string random_hex() {
  static std::mutex mutex;
  static std::random_device device;
  std::lock_guard<std::mutex> lock(mutex);
  char out[33];
  std::snprintf(out, sizeof out, "%08x%08x%08x%08x", device(), device(), device(), device());
  return out;
}

uint64_t random_seed() {
  static std::mutex mutex;
  static std::random_device device;
  std::lock_guard<std::mutex> lock(mutex);
  return (static_cast<uint64_t>(device()) << 32) | device();
}

// Compares a key in a time that does not depend on where it differs.
bool same_key(const std::string& a, const std::string& b) {
  if (a.size() != b.size() || a.empty()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
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
  const YAML::Node root = load_yaml_document(text, "<built-in configs/games/" + game_id + ".yaml>");
  collect(root, "");
  if (root["variants"] && root["variants"].IsMap()) collect(root["variants"], "variants.");
  return out;
}

// The config overrides of a request's "options" ({"variants.short_game": true}):
// each key one of the game's on/off options (boolean_options), each value
// true or false, as the YAML mapping load_game merges (a JSON object is YAML).
std::string overrides_of(const json& options, const std::string& game_id) {
  const std::string wrong =
      "field 'options' must map on/off options of the game (GET /api/games lists them) to true or false";
  if (!options.is_object()) throw ApiError(400, wrong);
  const json known = boolean_options(game_id);
  json nested = json::object();
  for (const auto& item : options.items()) {
    const bool listed =
        std::any_of(known.begin(), known.end(), [&](const json& o) { return o.at("key") == item.key(); });
    if (!listed || !item.value().is_boolean()) throw ApiError(400, wrong);
    json* at = &nested;
    std::string key = item.key();
    for (std::size_t dot; (dot = key.find('.')) != std::string::npos; key = key.substr(dot + 1))
      at = &(*at)[key.substr(0, dot)];
    (*at)[key] = item.value();
  }
  return nested.dump();
}

}  // namespace

json parse_request(const std::string& body) {
  if (!is_valid_utf8(body)) throw ApiError(400, "the request body is not valid UTF-8");
  // The nesting depth, before anything parses it.
  if (json_nests_deeper_than(body, kMaxJsonDepth))
    throw ApiError(400, "the request body nests arrays and objects deeper than " +
                            std::to_string(kMaxJsonDepth) + " levels");
  RepeatedKeyFinder finder;
  json request = json::parse(body, finder.callback<json>(), /*allow_exceptions=*/false);
  if (request.is_discarded()) throw ApiError(400, "the request body is not valid JSON");
  if (finder.repeated()) throw ApiError(400, "the request body names a field twice in one object");
  if (!request.is_object()) throw ApiError(400, "the request body must be a JSON object");
  return request;
}

SeatKinds SeatKinds::basic() {
  SeatKinds kinds;
  for (const std::string& id : Registry::instance().ids()) {
    const GameInfo& info = Registry::instance().find(id).info;
    for (int n = info.min_players; n <= info.max_players; ++n)
      for (const players::PlayerKind* kind : players::player_kinds())
        if (kind->info().agent && !kind->info().network) kinds.add(id, n, kind->info().name);
  }
  return kinds;
}

void SeatKinds::add(const std::string& game, int players, const std::string& spec) {
  auto& list = bots_[{game, players}];
  if (std::find(list.begin(), list.end(), spec) == list.end()) list.push_back(spec);
}

const std::vector<std::string>& SeatKinds::bots(const std::string& game, int players) const {
  static const std::vector<std::string> none;
  const auto it = bots_.find({game, players});
  return it == bots_.end() ? none : it->second;
}

bool SeatKinds::offers(const std::string& game, int players, const std::string& spec) const {
  const auto& list = bots(game, players);
  return std::find(list.begin(), list.end(), spec) != list.end();
}

TableServer::TableServer(cli::SeatBotFactory make_bot, SeatKinds kinds, TableLimits limits, Now now,
                         Seeds seeds)
    : make_bot_(std::move(make_bot)),
      kinds_(std::move(kinds)),
      limits_(limits),
      now_(now ? std::move(now) : Now(Clock::now)),
      seeds_(seeds ? std::move(seeds) : Seeds(random_seed)) {}

json TableServer::games() const {
  json out = json::array();
  for (const std::string& id : Registry::instance().ids()) {
    const GameInfo& info = Registry::instance().find(id).info;
    json seats = json::object(), lineup = json::object();
    for (int n = info.min_players; n <= info.max_players; ++n) {
      json kinds = players::person_kinds();
      for (const std::string& spec : kinds_.bots(id, n)) kinds.push_back(spec);
      seats[std::to_string(n)] = std::move(kinds);
      lineup[std::to_string(n)] = players::default_seats(n);
    }
    out.push_back({{"id", id},
                   {"name", info.name},
                   {"description", info.description},
                   {"min_players", info.min_players},
                   {"max_players", info.max_players},
                   {"options", boolean_options(id)},
                   {"seats", std::move(seats)},
                   {"lineup", std::move(lineup)}});
  }
  return out;
}

int TableServer::num_tables() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(tables_.size());
}

void TableServer::expire(Clock::time_point now) {
  for (auto it = tables_.begin(); it != tables_.end();)
    it = now - it->second->last_used > limits_.idle_expiry ? tables_.erase(it) : std::next(it);
}

std::shared_ptr<TableServer::Table> TableServer::find(const std::string& id, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  expire(now);
  auto it = tables_.find(id);
  if (it == tables_.end())
    throw ApiError(404, "no table with that id (tables close after " +
                            std::to_string(limits_.idle_expiry.count() / 60) + " idle minutes)");
  it->second->last_used = now;
  return it->second;
}

TableReply TableServer::create_table(const json& request, Clock::time_point now) {
  only_fields(request, {"game", "players", "seats", "options", "seed"}, "a new table");
  const json& game_field = field(request, "game");
  const std::vector<std::string> ids = Registry::instance().ids();
  if (!game_field.is_string() ||
      std::find(ids.begin(), ids.end(), game_field.get<std::string>()) == ids.end())
    throw ApiError(400, "field 'game' must be one of " + joined(ids));
  auto t = std::make_shared<Table>();
  t->game_id = game_field.get<std::string>();
  const std::string overrides =
      request.contains("options") ? overrides_of(request.at("options"), t->game_id) : "";
  try {
    t->game = load_game(t->game_id, "", overrides);
  } catch (const Error& e) {
    throw ApiError(400, e.what());  // the game's own config and on/off options: nothing of the request
  }
  const int players = int_field(request, "players");
  const GameInfo& info = t->game->info();
  if (players < info.min_players || players > info.max_players)
    throw ApiError(400, "field 'players': " + t->game_id + " is played by " +
                            std::to_string(info.min_players) + " to " + std::to_string(info.max_players) +
                            " players");
  const json& seats = field(request, "seats");
  if (!seats.is_array() || static_cast<int>(seats.size()) != players)
    throw ApiError(
        400, "field 'seats' must list a seat kind for each of the " + std::to_string(players) + " players");
  const std::vector<std::string>& bots = kinds_.bots(t->game_id, players);
  for (std::size_t s = 0; s < seats.size(); ++s) {
    const json& seat = seats[s];
    if (!seat.is_string() || (!players::is_person_seat(seat.get<std::string>()) &&
                              !kinds_.offers(t->game_id, players, seat.get<std::string>())))
      throw ApiError(400, "seat " + std::to_string(s) + " must be human or a bot this server offers for " +
                              t->game_id + " at " + std::to_string(players) + " players: " + joined(bots));
    t->seats.push_back(seat.get<std::string>());
    t->keys.push_back(players::is_person_seat(t->seats.back()) ? random_hex() : "");
    t->humans += players::is_person_seat(t->seats.back());
  }
  // The reply schedule, from the seats (public): none without a human or without a bot.
  if (t->humans > 0 && t->humans < players) {
    const bool quick = std::all_of(t->seats.begin(), t->seats.end(), [](const std::string& s) {
      const players::PlayerKind* kind = players::find_kind(s);  // a person, or a bot without a network
      return kind != nullptr && !kind->info().network;
    });
    t->tick = std::chrono::duration_cast<Clock::duration>(quick ? kQuickBotReplyTick : kBotReplyTick);
  }
  if (request.contains("seed")) {
    const json& seed = request.at("seed");
    if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<int64_t>() >= 0))
      throw ApiError(400, "field 'seed' must be a whole number >= 0");
    t->seed = seed.get<uint64_t>();
  } else {
    t->seed = random_seed();
  }
  // A place under the cap, held while the table is made outside the lock
  // (a zoo bot loads its network).
  {
    std::lock_guard<std::mutex> lock(mutex_);
    expire(now);
    if (static_cast<int>(tables_.size()) + creating_ >= limits_.max_tables)
      throw ApiError(503, "too many open tables (" + std::to_string(limits_.max_tables) +
                              "); idle tables close after " +
                              std::to_string(limits_.idle_expiry.count() / 60) + " minutes");
    ++creating_;
  }
  struct Release {
    TableServer* server;
    ~Release() {
      std::lock_guard<std::mutex> lock(server->mutex_);
      --server->creating_;
    }
  } release{this};
  try {
    // The one place where serve makes its bots (through play's factory), from its own list.
    t->bots = cli::make_bots(t->seats, *t->game, players, make_bot_);
  } catch (const Error& e) {
    std::cerr << "rocketgym serve: a bot of the server's list failed to load: " << e.what() << std::endl;
    throw ApiError(500, "a bot of this server's list failed to load (the server's output says why)");
  }
  t->state = t->game->new_state(players, t->seed);
  t->bases.push_back({0, t->state->clone()});
  t->last_used = now;
  settle(*t);
  const std::string id = random_hex();
  json body = describe(id, *t, default_viewer(*t));
  json keys = json::object();
  for (std::size_t s = 0; s < t->seats.size(); ++s)
    if (!t->keys[s].empty()) keys[std::to_string(s)] = t->keys[s];
  body["keys"] = std::move(keys);
  TableReply out = reply(*t, std::move(body), now);
  std::lock_guard<std::mutex> lock(mutex_);
  tables_.emplace(id, std::move(t));
  return out;
}

// The seat a request may see, given its key: a human seat whose key it is,
// or "full" at a table without humans, or with a human seat's key once the
// game is over.
int TableServer::parse_viewer(const Table& t, const json& seat, const std::string& key) const {
  const int players = static_cast<int>(t.seats.size());
  if (seat.is_string() && seat.get<std::string>() == "full") {
    if (t.humans == 0) return kFullBoard;
    if (!t.state->is_terminal())
      throw ApiError(400, "the full board is shown only at a table without humans or once the game is over");
    for (const std::string& k : t.keys)
      if (same_key(k, key)) return kFullBoard;
    throw ApiError(403, "the full board needs the key of a human seat of the table (header X-Seat-Key)");
  }
  if (!seat.is_number_integer() || seat.get<int64_t>() < 0 || seat.get<int64_t>() >= players)
    throw ApiError(400, "seat must be a seat number 0.." + std::to_string(players - 1) + " or \"full\"");
  const auto s = static_cast<std::size_t>(seat.get<int>());
  if (!players::is_person_seat(t.seats[s]))
    throw ApiError(400, "that seat is a bot's: only a human seat's view is shown");
  if (!same_key(t.keys[s], key))
    throw ApiError(403,
                   "that seat's key is missing or wrong (header X-Seat-Key, given when the table was made)");
  return static_cast<int>(s);
}

// The human seat to move, else the first human seat, else the full board.
int TableServer::default_viewer(const Table& t) const {
  const int p = t.state->current_player();
  if (p >= 0 && players::is_person_seat(t.seats[static_cast<std::size_t>(p)])) return p;
  for (std::size_t s = 0; s < t.seats.size(); ++s)
    if (players::is_person_seat(t.seats[s])) return static_cast<int>(s);
  return kFullBoard;
}

json TableServer::table(const std::string& id, const std::string& seat, const std::string& key,
                        Clock::time_point now) {
  const std::shared_ptr<Table> t = find(id, now);
  std::lock_guard<std::mutex> lock(t->mutex);
  int viewer = kFullBoard;
  if (!seat.empty()) {
    const std::optional<int> number = canonical_number(seat);
    if (seat != "full" && !number) throw ApiError(400, "seat must be a seat number or \"full\"");
    viewer = parse_viewer(*t, number ? json(*number) : json(seat), key);
  } else if (t->humans > 0) {
    viewer = -2;
    for (std::size_t s = 0; s < t->keys.size(); ++s)
      if (same_key(t->keys[s], key)) viewer = static_cast<int>(s);
    if (viewer == -2) throw ApiError(403, "a human seat's key is needed (header X-Seat-Key)");
  }
  return describe(id, *t, viewer);
}

// The moves `viewer` has seen (its own and the public ones) and what undos
// added: another seat's secret moves never show in it (a blind draw, which
// is two decisions, would count twice). Every request a seat makes moves its
// own version on: its move is its own, a step plays a public move, an undo adds.
int TableServer::version_for(const Table& t, int viewer) {
  int seen = t.undone;
  for (const LogEntry& e : t.log) seen += cli::sees_move(e.seat, e.is_public, viewer);
  return seen;
}

void TableServer::check_version(const Table& t, const json& request, const char* what, int viewer) const {
  const int version = int_field(request, "version");
  if (version != version_for(t, viewer))
    throw ApiError(409, std::string("stale ") + what + ": the table is at version " +
                            std::to_string(version_for(t, viewer)) +
                            ", not the version sent; reload the table");
}

void TableServer::apply(Table& t, Action a) {
  const int seat = t.state->current_player();
  // The text is the action's before it is played (it may name what it changes).
  t.log.push_back({seat, a, t.state->action_to_string(a), t.state->is_public_action(a)});
  t.state->apply(a);
}

TableReply TableServer::reply(const Table& t, json body, Clock::time_point now) const {
  if (t.tick == Clock::duration(0)) return {std::move(body), now};
  // A whole number of ticks after the request, at least one: the same for an
  // answer in which bots made secret decisions and one in which none moved.
  const auto elapsed = now_() - now;
  const auto ticks = std::max<long long>(1, (elapsed + t.tick - Clock::duration(1)) / t.tick);
  return {std::move(body), now + ticks * t.tick};
}

TableReply TableServer::move(const std::string& id, const json& request, const std::string& key,
                             Clock::time_point now) {
  only_fields(request, {"seat", "version", "action"}, "a move");
  const std::shared_ptr<Table> t = find(id, now);
  std::lock_guard<std::mutex> lock(t->mutex);
  const int viewer = parse_viewer(*t, field(request, "seat"), key);
  check_version(*t, request, "move", viewer);
  const int action = int_field(request, "action");
  if (t->state->is_terminal()) throw ApiError(409, "the game is over");
  if (t->state->current_player() != viewer) throw ApiError(409, "it is not that seat's turn");
  if (!t->state->is_legal(action))
    throw ApiError(400, "that action is not legal now (field 'legal' lists those that are)");
  apply(*t, action);  // before the bots: the move is played even if a bot then fails
  settle(*t);
  return reply(*t, describe(id, *t, viewer), now);
}

TableReply TableServer::step(const std::string& id, const json& request, const std::string& key,
                             Clock::time_point now) {
  only_fields(request, {"seat", "version"}, "a step");
  const std::shared_ptr<Table> t = find(id, now);
  std::lock_guard<std::mutex> lock(t->mutex);
  const int viewer = parse_viewer(*t, field(request, "seat"), key);
  check_version(*t, request, "step", viewer);
  if (!t->pending) settle(*t);  // a bot that failed at the last request tries again
  if (!t->pending)
    throw ApiError(409, t->state->is_terminal() ? "the game is over" : "a human is to move, not a bot");
  apply(*t, *t->pending);
  settle(*t);
  return reply(*t, describe(id, *t, viewer), now);
}

// The index in the log of the last move of `seat`, if any.
std::optional<std::size_t> TableServer::last_move_of(const Table& t, int seat) {
  for (std::size_t i = t.log.size(); i-- > 0;)
    if (t.log[i].seat == seat) return i;
  return std::nullopt;
}

// The position after the first `moves` moves of the log, from the latest
// deal before them, with what `seat` cannot see dealt again: the later moves
// are dropped, and the new deal is the base of the moves to come.
void TableServer::redeal_at(Table& t, std::size_t moves, int seat) {
  while (t.bases.back().moves > moves) t.bases.pop_back();  // bases[0] (0 moves) stays
  std::unique_ptr<AnyState> state = t.bases.back().state->clone();
  for (std::size_t i = t.bases.back().moves; i < moves; ++i) state->apply(t.log[i].action);
  state->redeterminize(seat, seeds_());
  t.log.resize(moves);
  if (t.bases.back().moves == moves) t.bases.pop_back();
  t.bases.push_back({moves, state->clone()});
  t.state = std::move(state);
}

TableReply TableServer::undo(const std::string& id, const json& request, const std::string& key,
                             Clock::time_point now) {
  only_fields(request, {"seat", "version"}, "an undo");
  const std::shared_ptr<Table> t = find(id, now);
  std::lock_guard<std::mutex> lock(t->mutex);
  const int viewer = parse_viewer(*t, field(request, "seat"), key);
  check_version(*t, request, "undo", viewer);
  if (t->state->is_terminal())
    throw ApiError(409, "the game is over: no undo once every hand has been shown");
  if (t->humans > 1)
    throw ApiError(409,
                   "undo is for a table with one human seat (it deals again what the seat cannot see, "
                   "another human's hand included)");
  const std::optional<std::size_t> last = last_move_of(*t, viewer);
  if (!last) throw ApiError(409, "nothing to undo: that seat has not moved yet");
  const int before = version_for(*t, viewer);
  redeal_at(*t, *last, viewer);
  t->pending.reset();
  // Never back to an old number: a move made before the undo stays stale.
  t->undone += before - version_for(*t, viewer) + 1;
  settle(*t);  // the seat is to move again: nothing for the bots
  return reply(*t, describe(id, *t, viewer), now);
}

// Bots play the moves no human may see at once (a secret choice, a decision
// that shows who was asked), so that nothing in the replies tells that they
// happened (their timing neither: reply()); the next visible bot move waits
// in `pending` for a step.
void TableServer::settle(Table& t) {
  t.pending.reset();
  for (;;) {
    const int p = t.state->current_player();
    if (p < 0 || players::is_person_seat(t.seats[static_cast<std::size_t>(p)])) return;
    const Action a = t.bots[static_cast<std::size_t>(p)](*t.state, derive_seed(t.seed, t.log.size()));
    if (!t.state->is_legal(a)) {
      std::cerr << "rocketgym serve: the bot " << t.seats[static_cast<std::size_t>(p)]
                << " chose illegal action " << a << std::endl;
      throw ApiError(500, "a bot chose an illegal move (the server's output says which)");
    }
    if (t.humans == 0 || t.state->is_public_action(a)) {
      t.pending = a;
      return;
    }
    apply(t, a);
  }
}

json TableServer::describe(const std::string& id, const Table& t, int viewer) const {
  const AnyState& s = *t.state;
  json out;
  out["table"] = id;
  out["game"] = t.game_id;
  out["seats"] = t.seats;
  json people = json::array();  // whether a person plays each seat (the page names the bots' kinds)
  for (const std::string& seat : t.seats) people.push_back(players::is_person_seat(seat));
  out["people"] = std::move(people);
  out["version"] = version_for(t, viewer);
  out["viewer"] = viewer == kFullBoard ? json("full") : json(viewer);
  out["view"] = json::parse(s.view_json(viewer));
  out["text"] = viewer == kFullBoard ? s.to_string() : s.observation_string(viewer);
  const int p = s.current_player();
  // Whose decision it is: the viewer's, a bot's (never which one: a bot's
  // secret decisions are played at once, settle), another person's seat where
  // the game says who decides (hot seat: the page passes the screen on), else
  // "other", naming nobody: who is asked to block (Rocket Squad, ruling 4)
  // is the same answer whoever it is.
  if (s.is_terminal()) {
    out["waiting"] = "over";
  } else if (p == viewer) {
    out["waiting"] = "you";
  } else if (!players::is_person_seat(t.seats[static_cast<std::size_t>(p)])) {
    out["waiting"] = "bot";
  } else if (viewer == kFullBoard || s.is_public_decider()) {
    out["waiting"] = "person";
    out["person_seat"] = p;
  } else {
    out["waiting"] = "other";
  }
  json legal = json::array();
  if (p >= 0 && p == viewer)
    for (Action a : s.legal_actions()) legal.push_back({{"id", a}, {"text", s.action_to_string(a)}});
  out["legal"] = std::move(legal);
  json log = json::array();
  for (std::size_t i = 0; i < t.log.size(); ++i) {
    const LogEntry& e = t.log[i];
    if (cli::sees_move(e.seat, e.is_public, viewer))
      log.push_back({{"seat", e.seat},
                     {"action", e.action},
                     {"text", e.text},
                     {"bot", !players::is_person_seat(t.seats[static_cast<std::size_t>(e.seat)])}});
  }
  out["log"] = std::move(log);
  out["can_undo"] = t.humans == 1 && viewer >= 0 && !s.is_terminal() && last_move_of(t, viewer).has_value();
  return out;
}

}  // namespace rocketgym::serve
