// The recorded games of `rocketgym serve --records` and their arena tables:
// see table_server.h.
#include <algorithm>
#include <tuple>

#include "training/arena/results.h"
#include "training/cli/seen_moves.h"
#include "training/cli/table_server.h"

namespace rocketgym::serve {

using nlohmann::json;

namespace {

// The file of a record's "file:line".
std::string file_of(const LoadedRecord& r) { return r.source.substr(0, r.source.rfind(':')); }

}  // namespace

std::optional<int> canonical_number(std::string_view text) {
  if (text.empty() || text.size() > 9 || (text.size() > 1 && text.front() == '0') ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  int value = 0;
  for (char c : text) value = value * 10 + (c - '0');
  return value;
}

int query_number(const std::string& name, const std::string& text, int max) {
  const std::optional<int> value = canonical_number(text);
  if (!value || *value > max)
    throw ApiError(400, name + " must be a whole number from 0 to " + std::to_string(max));
  return *value;
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

json TableServer::record(const std::string& index, const std::string& move, const std::string& seat) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (records_.empty()) throw ApiError(404, "no records: start rocketgym serve with --records FILE");
  const int number = query_number("record", index, static_cast<int>(records_.size()) - 1);
  const LoadedRecord& loaded = records_[static_cast<std::size_t>(number)];
  const RecordedGame& r = loaded.record;
  int viewer = kFullBoard;
  if (!seat.empty() && seat != "full") viewer = query_number("seat", seat, r.num_players - 1);
  // The moves the viewer sees, numbered among themselves (seen_moves.h): no
  // gap, no position before another seat's secret move.
  const cli::SeenMoves seen = cli::moves_seen_by(loaded, viewer);
  const int moves = static_cast<int>(seen.count());
  const int k = move.empty() ? 0 : query_number("move", move, moves);
  auto s = loaded.state_at(0);
  json log = json::array();
  for (std::size_t i = 0; i < seen.position(static_cast<std::size_t>(k)); ++i) {
    const Action a = r.actions[i];
    if (cli::sees_move(*s, a, viewer))
      log.push_back({{"move", log.size()},
                     {"seat", s->current_player()},
                     {"action", a},
                     {"text", s->action_to_string(a)}});
    s->apply(a);
  }
  json out;
  out["record"] = number;
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

}  // namespace rocketgym::serve
