// Which games the arena plays.
//
// A lineup is a set of agents at the table. With at least as many agents as
// seats, every combination of `players` distinct agents is a lineup; with
// fewer, there is one lineup: the first agent in one seat and the others
// filling the remaining seats in turn (2 agents at a 4-player table: A B B B,
// one against the rest; 3 agents: A B C B). Each lineup is played
// in every cyclic rotation round the table, so every agent sits in every seat,
// and every rotation (and every lineup) uses the same game seeds, so luck of
// the dice and the deck is shared out evenly.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "training/arena/results.h"

namespace rocketgym::arena {

// The games make_schedule() would schedule (seeds x lineups x seat
// rotations), counted without building it; saturates past kMaxScheduledGames
// (no overflow, whatever the arguments).
int64_t scheduled_games(int num_agents, int num_players, int seeds_per_lineup, bool one_vs_each);

// ConfigError naming `agents` or `games` and the limit when an arena of these
// sizes is over kMaxArenaAgents or kMaxScheduledGames.
void check_arena_size(int num_agents, int num_players, int seeds_per_lineup, bool one_vs_each);

struct ScheduledGame {
  int lineup = 0;
  int rotation = 0;
  uint64_t seed = 0;
  std::array<int, kMaxSeats> agent{};  // agent index per seat
};

// `seeds_per_lineup` seeds derived from `seed` (derive_seed(seed, k)).
//
// One against each (`one_vs_each`, an agent index; -1: off): only the games
// of that agent, one lineup per other agent, the chosen one in one seat and
// the other agent in every other seat (at 2 players: it against each other
// agent, and no game between two others). Refuses an arena over the limits
// above (check_arena_size) before it allocates anything.
std::vector<ScheduledGame> make_schedule(int num_agents, int num_players, int seeds_per_lineup, uint64_t seed,
                                         int one_vs_each = -1);

}  // namespace rocketgym::arena
