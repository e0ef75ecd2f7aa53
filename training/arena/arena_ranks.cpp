#include "training/arena/arena_ranks.h"

#include <cstring>
#include <type_traits>

#include "models/checkpoint.h"

namespace rocketgym::arena {

// Records travel as their bytes: every rank runs the same build.
static_assert(std::is_trivially_copyable_v<GameRecord>);

std::vector<ScheduledGame> rank_games(const std::vector<ScheduledGame>& schedule, int rank, int ranks) {
  std::vector<ScheduledGame> mine;
  for (std::size_t k = static_cast<std::size_t>(rank); k < schedule.size();
       k += static_cast<std::size_t>(ranks))
    mine.push_back(schedule[k]);
  return mine;
}

std::vector<GameRecord> gather_records(const std::vector<GameRecord>& mine, std::size_t schedule_size,
                                       const dist::Context& context) {
  std::string bytes(mine.size() * sizeof(GameRecord), '\0');
  if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
  const std::vector<std::string> all = context.gather_to_root(bytes, "gathering the arena's games");
  if (!context.is_root()) return {};
  const auto ranks = static_cast<std::size_t>(context.size());
  std::vector<GameRecord> records(schedule_size);
  for (std::size_t r = 0; r < all.size(); ++r) {
    const std::size_t count = all[r].size() / sizeof(GameRecord);
    const std::size_t expected = schedule_size / ranks + (r < schedule_size % ranks ? 1 : 0);
    if (count != expected || all[r].size() % sizeof(GameRecord) != 0)
      throw dist::DistributedError("arena: rank " + std::to_string(r) + " sent " + std::to_string(count) +
                                   " games, not " + std::to_string(expected));
    for (std::size_t j = 0; j < count; ++j)
      std::memcpy(&records[r + j * ranks], all[r].data() + j * sizeof(GameRecord), sizeof(GameRecord));
  }
  return records;
}

std::vector<std::vector<Action>> gather_moves(const std::vector<std::vector<Action>>& mine,
                                              std::size_t schedule_size, const dist::Context& context) {
  // Each game as its move count, then its moves (32-bit integers).
  std::vector<int32_t> words;
  for (const auto& game : mine) {
    words.push_back(static_cast<int32_t>(game.size()));
    words.insert(words.end(), game.begin(), game.end());
  }
  std::string bytes(words.size() * sizeof(int32_t), '\0');
  if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  const std::vector<std::string> all = context.gather_to_root(bytes, "gathering the arena's moves");
  if (!context.is_root()) return {};
  const auto ranks = static_cast<std::size_t>(context.size());
  std::vector<std::vector<Action>> moves(schedule_size);
  for (std::size_t r = 0; r < all.size(); ++r) {
    std::vector<int32_t> got(all[r].size() / sizeof(int32_t));
    if (!got.empty()) std::memcpy(got.data(), all[r].data(), got.size() * sizeof(int32_t));
    std::size_t at = 0, game = r;
    for (; at < got.size() && game < schedule_size; game += ranks) {
      const auto count = static_cast<std::size_t>(got[at++]);
      if (count > got.size() - at) break;
      moves[game].assign(got.begin() + static_cast<std::ptrdiff_t>(at),
                         got.begin() + static_cast<std::ptrdiff_t>(at + count));
      at += count;
    }
    if (at != got.size() || game < schedule_size || all[r].size() % sizeof(int32_t) != 0)
      throw dist::DistributedError("arena: rank " + std::to_string(r) +
                                   " sent moves that do not match its games");
  }
  return moves;
}

void use_rank0_files(std::vector<players::PlayerSpec>& agents, const dist::Context& context) {
  if (context.single()) return;
  for (players::PlayerSpec& a : agents) {
    std::string* path = players::checkpoint_file(a);  // none for a zoo bot: each rank finds its own
    if (path == nullptr || a.net) continue;
    const std::optional<std::string> copy = context.file_from_root(*path);
    if (!copy) throw CheckpointError("checkpoint '" + *path + "' does not exist (on rank 0)");
    *path = *copy;
  }
}

}  // namespace rocketgym::arena
