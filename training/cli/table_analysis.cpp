// What the zoo bot makes of a decision, at a live table or in a recorded
// game (`rocketgym serve`'s analyses): see table_server.h.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <tuple>

#include "training/cli/seen_moves.h"
#include "training/cli/table_server.h"

namespace rocketgym::serve {

using nlohmann::json;

void TableServer::set_analyst(cli::AnalystFactory analyst) { make_analyst_ = std::move(analyst); }

json TableServer::analyze(const std::string& game_id, const AnyGame& game, std::unique_ptr<AnyState> world,
                          int seat) {
  const int players = world->num_players();
  const std::string zoo = "zoo:" + game_id;
  if (!make_analyst_ || !kinds_.offers(game_id, players, zoo))
    throw ApiError(404, "this server has no analysis of " + game_id + " at " + std::to_string(players) +
                            " players (it comes from the zoo bot where the server offers it as a seat)");
  // A turn among kMaxAnalysesAtOnce, and a free analyst of this game and size
  // if there is one (else one is made below, outside the lock).
  const std::pair<std::string, int> kind{game_id, players};
  cli::Analyst analyst;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    ++analyses_waiting_;
    analysis_turn_.wait(lock, [this] { return analyses_running_ < kMaxAnalysesAtOnce; });
    --analyses_waiting_;
    ++analyses_running_;
    std::vector<cli::Analyst>& idle = idle_analysts_[kind];
    if (!idle.empty()) {
      analyst = std::move(idle.back());
      idle.pop_back();
    }
  }
  // The turn given back however this ends, with the analyst when it answered.
  bool answered = false;
  struct GiveBack {
    TableServer& server;
    const std::pair<std::string, int>& kind;
    cli::Analyst& analyst;
    const bool& answered;
    ~GiveBack() {
      {
        std::lock_guard<std::mutex> lock(server.mutex_);
        if (answered && analyst) server.idle_analysts_[kind].push_back(std::move(analyst));
        --server.analyses_running_;
      }
      server.analysis_turn_.notify_one();
    }
  } give_back{*this, kind, analyst, answered};
  if (!analyst) {
    try {
      analyst = make_analyst_(game, players, kMaxBotWorkPerMove);
    } catch (const Error& e) {
      std::cerr << "rocketgym serve: the analyst " << zoo << " failed to load: " << e.what() << std::endl;
    }
    if (!analyst) throw ApiError(500, "the analyst failed to load (the server's output says why)");
  }
  const int to_move = world->current_player();
  // What the seat cannot see, dealt again: the analyst gets a world the seat
  // finds as likely as the table's own, never the table's own.
  world->redeterminize(seat, seeds_());
  cli::PositionAnalysis found;
  try {
    found = analyst(*world, seat, seeds_());
  } catch (const Error& e) {
    std::cerr << "rocketgym serve: the analyst " << zoo << " failed: " << e.what() << std::endl;
    throw ApiError(500, "the analysis failed (the server's output says why)");
  }
  // The moves only where the decision is the seat's own: in a world dealt
  // again for another seat, the player to move holds what that seat imagines,
  // and may have moves it never had.
  json moves = json::array();
  if (seat != to_move) found.moves.clear();
  std::sort(found.moves.begin(), found.moves.end(), [](const cli::MoveScore& a, const cli::MoveScore& b) {
    return std::tie(b.probability, a.action) < std::tie(a.probability, b.action);
  });
  for (const cli::MoveScore& m : found.moves) {
    if (!world->is_legal(m.action) || !(m.probability >= 0.0f && m.probability <= 1.0f) || m.visits < 0) {
      std::cerr << "rocketgym serve: the analyst " << zoo << " scored action " << m.action
                << " (illegal, or its probability outside [0, 1])" << std::endl;
      throw ApiError(500, "the analysis failed (the server's output says why)");
    }
    moves.push_back({{"action", m.action},
                     {"text", world->action_to_string(m.action)},
                     {"probability", m.probability},
                     {"visits", m.visits}});
  }
  answered = true;
  return {{"by", found.by},
          {"how", found.how},
          {"seat", seat},
          {"to_move", to_move},
          {"value", std::isfinite(found.value) ? json(found.value) : json(nullptr)},
          {"moves", std::move(moves)}};
}

json TableServer::analysis(const std::string& id, const std::string& seat, const std::string& key,
                           Clock::time_point now) {
  const std::shared_ptr<Table> t = find(id, now);
  std::unique_ptr<AnyState> world;
  int viewer = 0;
  {
    std::lock_guard<std::mutex> lock(t->mutex);
    const std::optional<int> number = canonical_number(seat);
    if (!number) throw ApiError(400, "seat must be the number of the human seat whose decision is analyzed");
    viewer = parse_viewer(*t, json(*number), key);
    if (t->state->is_terminal()) throw ApiError(409, "the game is over");
    if (t->state->current_player() != viewer)
      throw ApiError(409, "it is not that seat's turn: the analysis is of the seat's own decision");
    world = t->state->clone();
  }
  // Outside the table's lock: the table's moves do not wait for it.
  json out = analyze(t->game_id, *t->game, std::move(world), viewer);
  out["table"] = id;
  return out;
}

json TableServer::record_analysis(const std::string& index, const std::string& move,
                                  const std::string& seat) {
  std::unique_ptr<AnyState> world;
  std::string game_id;
  std::shared_ptr<AnyGame> game;
  Action played = -1;
  int number = 0, k = 0, viewer = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (records_.empty()) throw ApiError(404, "no records: start rocketgym serve with --records FILE");
    number = query_number("record", index, static_cast<int>(records_.size()) - 1);
    const LoadedRecord& loaded = records_[static_cast<std::size_t>(number)];
    // Any seat's knowledge: the game is over, and its replay shows every seat's view.
    viewer = seat.empty() ? kFullBoard : query_number("seat", seat, loaded.record.num_players - 1);
    // A seat's move K counts the moves it sees, as its replay does
    // (seen_moves.h): another seat's secret move is never analyzed for it.
    const cli::SeenMoves seen = cli::moves_seen_by(loaded, viewer);
    const int moves = static_cast<int>(seen.count());
    if (moves == 0) throw ApiError(409, "that record has no moves that seat sees");
    k = query_number("move", move, moves - 1);
    const std::size_t at = seen.position(static_cast<std::size_t>(k));
    world = loaded.state_at(at);
    if (viewer == kFullBoard) viewer = world->current_player();
    played = loaded.record.actions[at];
    game_id = loaded.record.game;
    game = loaded.game;
  }
  const std::string played_text = world->action_to_string(played);
  json out = analyze(game_id, *game, std::move(world), viewer);
  // The share the analysis gave the move played: of the player to move's own
  // analysis only (another seat's has no moves, below).
  json probability = out.at("seat") == out.at("to_move") ? json(0.0) : json(nullptr);
  for (const json& m : out.at("moves"))
    if (m.at("action") == played) probability = m.at("probability");
  out["record"] = number;
  out["move"] = k;
  out["played"] = {{"action", played}, {"text", played_text}, {"probability", probability}};
  return out;
}

}  // namespace rocketgym::serve
