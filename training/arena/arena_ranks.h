// An arena schedule played by the ranks of a distributed run: rank r plays
// games r, r + N, r + 2N... of the schedule (the lineups are contiguous in
// it, so every rank gets a like mix of fast and slow agents), and rank 0
// gathers the records back into schedule order. A game's result depends only
// on its own schedule entry (arena.h), so the records, and the table made
// from them, are those of the one-process run.
#pragma once

#include <string>
#include <vector>

#include "training/arena/arena.h"
#include "training/distributed/distributed.h"

namespace rocketgym::arena {

// The games of the schedule that rank `rank` of `ranks` plays.
std::vector<ScheduledGame> rank_games(const std::vector<ScheduledGame>& schedule, int rank, int ranks);

// Rank 0: every rank's records (rank r's are its rank_games, in order) put
// back in schedule order. Other ranks: nothing.
std::vector<GameRecord> gather_records(const std::vector<GameRecord>& mine, std::size_t schedule_size,
                                       const dist::Context& context);

// The same for the moves of each game (Arena::play's `moves`).
std::vector<std::vector<Action>> gather_moves(const std::vector<std::vector<Action>>& mine,
                                              std::size_t schedule_size, const dist::Context& context);

// Checkpoint files named by the agents, as this rank can read them: rank 0's
// files, sent to the other ranks (zoo bots are part of every installation
// and read where they are). Call after the agents are named.
void use_rank0_files(std::vector<players::PlayerSpec>& agents, const dist::Context& context);

// Plays the schedule over the ranks; rank 0 gets every record (in schedule
// order), the others an empty list. `progress` counts this rank's games.
// With `moves`, rank 0 also gets every game's moves, in schedule order.
// `finished` hears of each game this rank plays as it ends, by its index in
// `schedule`.
template <class G>
std::vector<GameRecord> play_on_ranks(Arena<G>& arena, const std::vector<ScheduledGame>& schedule,
                                      const dist::Context& context,
                                      const typename Arena<G>::Progress& progress = nullptr,
                                      std::vector<std::vector<Action>>* moves = nullptr,
                                      const typename Arena<G>::Finished& finished = nullptr) {
  if (context.single()) return arena.play(schedule, progress, moves, finished);
  std::vector<std::vector<Action>> my_moves;
  typename Arena<G>::Finished mine_finished;
  if (finished)  // rank r plays games r, r + N, r + 2N... of the schedule
    mine_finished = [&](int k, const GameRecord& result, const std::vector<Action>& played) {
      finished(context.rank() + k * context.size(), result, played);
    };
  const std::vector<GameRecord> mine = arena.play(rank_games(schedule, context.rank(), context.size()),
                                                  progress, moves ? &my_moves : nullptr, mine_finished);
  std::vector<GameRecord> all = gather_records(mine, schedule.size(), context);
  if (moves) *moves = gather_moves(my_moves, schedule.size(), context);
  return all;
}

}  // namespace rocketgym::arena
