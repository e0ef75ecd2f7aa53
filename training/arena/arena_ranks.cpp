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
