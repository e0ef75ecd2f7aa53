// The environment commands of the rocketgym command line.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "envs/core/game.h"

namespace rocketgym::cli {

void add_list_command(CLI::App& app);
// A bot in a seat of `rocketgym play`: picks the move of the player to move.
using SeatBot = std::function<Action(const AnyState& state, uint64_t seed)>;
// Makes the bot of a seat given as a player spec (random, heuristic, a
// checkpoint, search:PATH, zoo:GAME...; see training/players/player_spec.h).
// Supplied by the training library where it is built; without it only human,
// random and heuristic seats exist.
using SeatBotFactory = std::function<SeatBot(const std::string& spec, const AnyGame& game, int players)>;

// The bot of each seat (an empty function for a person's, human): every spec
// through `make_bot`; without it (no training library), the kinds that play no
// network, made by their kind (play_command.cpp; also used by serve).
std::vector<SeatBot> make_bots(const std::vector<std::string>& seats, const AnyGame& game, int players,
                               const SeatBotFactory& make_bot);

void add_play_command(CLI::App& app, SeatBotFactory make_bot = nullptr);

// What a bot makes of a decision, for the page's analysis (serve, docs/browser.md).
struct MoveScore {
  Action action;
  float probability;  // the share the bot gives the move (its policy, or its search's visits)
  int visits;         // the search's visits of the move (0 without search)
};
struct PositionAnalysis {
  std::string by;                // the bot, as a seat kind ("zoo:last_blast")
  std::string how;               // what it ran ("network", "search, 200 simulations")
  float value = 0;               // its value of the position for the seat asked about, on the returns' scale
  std::vector<MoveScore> moves;  // the legal moves of the player to move; the others are left out
};
// Analyzes the decision of the player to move in `state`, which is not over,
// and the value of the position for `seat` (any seat of a replay; the player
// to move, at a live table; serve shows the moves only when `seat` is to
// move). It may look at all of `state`: serve hands it a world dealt
// again from what `seat` knows (AnyState::redeterminize), never the table's
// own. Safe to call from several threads (the calls take turns); serve gives
// each analysis running at once its own analyst (kMaxAnalysesAtOnce in
// training/cli/serve_limits.h), so that they do not wait for each other.
using Analyst = std::function<PositionAnalysis(const AnyState& state, int seat, uint64_t seed)>;
// The analyst of a game at a table size, its search work per analysis at most
// `max_work` (simulations times playouts per leaf). Serve asks for it only
// where it offers the zoo bot as a seat. Each call makes a new analyst, with
// its own buffers and search tree. Throws Error when it fails to load.
using AnalystFactory = std::function<Analyst(const AnyGame& game, int players, long max_work)>;

// What `rocketgym serve` needs to seat the training library's bots (the zoo,
// --allow-agent); empty without it (random and heuristic only).
struct ServeBots {
  SeatBotFactory make;
  // The search work of one move of `spec` at a table of `game` and `players`
  // (simulations times playouts per leaf; 1 without search), to hold it to
  // serve's kMaxBotWorkPerMove (training/cli/serve_limits.h). Reads metadata,
  // loads no network; throws Error when the spec cannot sit there.
  std::function<long(const std::string& spec, const AnyGame& game, int players)> work;
  // The zoo bot as the analyst of a position (GET /api/tables/ID/analysis).
  AnalystFactory analyst;
  // The seat spec of a game's zoo bot ("zoo:<game>"), offered where it serves.
  std::function<std::string(const std::string& game)> zoo;
};
// `rocketgym serve`: the browser table (serve_command.cpp, table_server.h).
void add_serve_command(CLI::App& app, ServeBots bots = {});
void add_bench_command(CLI::App& app);
void add_describe_command(CLI::App& app);  // describe_command.cpp
void add_replay_command(CLI::App& app);    // replay_command.cpp

}  // namespace rocketgym::cli

// The commands and seat bots of the LibTorch training library, where it is built
// (training/cli/torch/; main.cpp adds them without including LibTorch's headers).
namespace rocketgym {

// Every LibTorch command: train, arena, export, bench-search.
void add_training_commands(CLI::App& app);

// The bot of a `rocketgym play` seat given as an agent spec (zoo:GAME,
// search:PATH[:SIMS], checkpoint:PATH...). Throws ConfigError/CheckpointError.
cli::SeatBot make_seat_bot(const std::string& spec, const AnyGame& game, int players);
// The search work of one move of that bot (cli::ServeBots::work): simulations
// times playouts per leaf for a search over playouts, simulations for one over
// a network, 1 without search. Throws Error when it cannot sit at that table
// (a zoo bot that does not serve the size, a checkpoint of another game or size).
long seat_bot_work(const std::string& spec, const AnyGame& game, int players);
// The game's zoo bot at that table size as an analyst (cli::AnalystFactory):
// a network reads the observation of the player to move (its policy, and its
// value for the seat asked about); a search reports its visits and its root's
// value for that seat, at most `max_work` search work.
cli::Analyst make_zoo_analyst(const AnyGame& game, int players, long max_work);
// The seat spec of a game's zoo bot (cli::ServeBots::zoo).
std::string zoo_seat(const std::string& game);

}  // namespace rocketgym
