// Arena bookkeeping: what one game produced, and the statistics over many
// games (win rates with 95% intervals, head-to-head scores, seat advantage,
// Plackett-Luce ratings). No LibTorch here: tests feed synthetic records.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/json.h"
#include "training/table_limits.h"

namespace rocketgym::arena {

using ::rocketgym::kMaxSeats;  // the most seats at a table (table_limits.h)

struct GameRecord {
  int lineup = 0;    // index of the set of agents at the table
  int rotation = 0;  // how far the lineup was rotated round the table
  uint64_t seed = 0;
  int num_players = 2;
  std::array<int, kMaxSeats> agent{};      // agent index per seat
  std::array<float, kMaxSeats> returns{};  // the game's returns per seat
  bool truncated = false;
  int decisions = 0;
};

// A seat's share of the win in one game: 1 for the unique best return,
// 1/k when k seats share the best return, 0 otherwise. A 2-player draw is
// half a win, so "win rate" below is the usual score rate.
float win_share(const GameRecord& game, int seat);

struct Interval {
  double low = 0.0, high = 0.0;
};
// Wilson score interval at 95% for a proportion `score / n` (score may be
// fractional because of shared wins).
Interval wilson_interval(double score, double n);

struct AgentSummary {
  std::string name;
  int games = 0;          // seats taken (an agent in two seats of a game counts twice)
  double wins = 0.0;      // sum of win shares
  double win_rate = 0.0;  // wins / games
  Interval win_interval;  // 95% Wilson
  double mean_return = 0.0;
  double rating = 0.0;  // Elo scale, from Plackett-Luce strengths
};

struct SeatSummary {
  int games = 0;
  double win_rate = 0.0;  // whoever sat there
  Interval win_interval;
  double advantage = 0.0;  // win_rate - 1 / num_players
  double mean_return = 0.0;
};

struct ArenaReport {
  int num_players = 2;
  int games = 0;
  int truncated = 0;
  double mean_decisions = 0.0;
  std::vector<AgentSummary> agents;
  std::vector<SeatSummary> seats;
  // head_to_head[i][j]: how often agent i finished ahead of agent j when both
  // were at a table (ties count half), over head_to_head_count[i][j] pairs.
  std::vector<std::vector<double>> head_to_head;
  std::vector<std::vector<int>> head_to_head_count;
  std::string rating_model;  // "Bradley-Terry" (2 players) or "Plackett-Luce"
};

ArenaReport analyze(const std::vector<GameRecord>& games, const std::vector<std::string>& agent_names,
                    int num_players);
// Wilson 95% interval of head_to_head[i][j] (ties counted as half a win).
Interval head_to_head_interval(const ArenaReport& report, std::size_t i, std::size_t j);

// One finishing order (best first, agent indices; an agent may appear more
// than once) and its weight.
struct Ordering {
  std::vector<int> order;
  double weight = 1.0;
};
// Turns a game into orderings: tied seats are expanded into their cyclic
// rotations with equal weights summing to 1, so a tie counts half each way.
std::vector<Ordering> orderings_of(const GameRecord& game);
// Plackett-Luce strengths by Hunter's MM algorithm, returned on the Elo scale
// (400 * log10 strength) with the mean at 0. `prior_games` virtual drawn games
// between every pair keep ratings finite when one agent always wins. With two
// players this is the Bradley-Terry model.
std::vector<double> plackett_luce_ratings(const std::vector<Ordering>& orderings, int num_agents,
                                          double prior_games = 1.0);

std::string format_table(const ArenaReport& report);
Json report_to_json(const ArenaReport& report);
// agents.csv, head_to_head.csv, seats.csv and games.csv in `folder`.
void write_csv(const ArenaReport& report, const std::vector<GameRecord>& games, const std::string& folder);
// Writes `text` to `file`; an Error names the file when that fails.
void write_text_file(const std::string& file, const std::string& text);

}  // namespace rocketgym::arena
