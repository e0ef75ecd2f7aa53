#include "training/arena/schedule.h"

#include <algorithm>
#include <string>

#include "envs/core/errors.h"
#include "envs/core/rng.h"

namespace rocketgym::arena {

namespace {

// All k-subsets of {0..n-1} in lexicographic order.
void combinations(int n, int k, int start, std::vector<int>& current, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(current.size()) == k) {
    out.push_back(current);
    return;
  }
  for (int i = start; i < n; ++i) {
    current.push_back(i);
    combinations(n, k, i + 1, current, out);
    current.pop_back();
  }
}

// Past this a count only needs to say "too many".
constexpr int64_t kSaturated = int64_t{kMaxScheduledGames} + 1;

// min(a * b, kSaturated) for a, b >= 0 (a, b <= 2^31: no overflow).
int64_t saturating_product(int64_t a, int64_t b) { return std::min(a * b, kSaturated); }

// The number of lineups (schedule.h), saturated.
int64_t lineups(int num_agents, int num_players, bool one_vs_each) {
  if (one_vs_each) return num_agents - 1;
  if (num_agents < num_players) return 1;
  // n choose k, built up over C(n, i) for i <= min(k, n - k), which only
  // grow with i: once past kSaturated, so is the result. Each step is exact.
  const int k = std::min(num_players, num_agents - num_players);
  int64_t count = 1;
  for (int i = 1; i <= k; ++i) {
    count = count * (num_agents - k + i) / i;
    if (count >= kSaturated) return kSaturated;
  }
  return count;
}

}  // namespace

int64_t scheduled_games(int num_agents, int num_players, int seeds_per_lineup, bool one_vs_each) {
  if (num_agents < 1 || num_players < 1 || seeds_per_lineup < 1) return 0;
  const int64_t per_seed = saturating_product(lineups(num_agents, num_players, one_vs_each), num_players);
  return saturating_product(per_seed, seeds_per_lineup);
}

void check_arena_size(int num_agents, int num_players, int seeds_per_lineup, bool one_vs_each) {
  if (num_agents > kMaxArenaAgents)
    throw ConfigError("agents: " + std::to_string(num_agents) + " agents; an arena seats at most " +
                      std::to_string(kMaxArenaAgents));
  if (scheduled_games(num_agents, num_players, seeds_per_lineup, one_vs_each) <= kMaxScheduledGames) return;
  const int64_t per_seed = saturating_product(lineups(num_agents, num_players, one_vs_each), num_players);
  throw ConfigError(
      "games: " + std::to_string(seeds_per_lineup) + (seeds_per_lineup == 1 ? " seed" : " seeds") +
      " per lineup, each played " +
      (per_seed >= kSaturated
           ? "more than " + std::to_string(kMaxScheduledGames) + " times"
           : std::to_string(per_seed) + " times (every lineup of " + std::to_string(num_agents) +
                 " agents in each of " + std::to_string(num_players) + " seat rotations)") +
      ", is more than the " + std::to_string(kMaxScheduledGames) +
      " games an arena plays in one run: lower games (--games)" +
      (per_seed <= kMaxScheduledGames ? " to at most " + std::to_string(kMaxScheduledGames / per_seed) : "") +
      " or the agents");
}

std::vector<ScheduledGame> make_schedule(int num_agents, int num_players, int seeds_per_lineup, uint64_t seed,
                                         int one_vs_each) {
  if (num_agents < 1) throw Error("the arena needs at least one agent");
  if (num_players < 1 || num_players > kMaxSeats)
    throw Error("the arena supports 1 to " + std::to_string(kMaxSeats) + " players");
  if (seeds_per_lineup < 1) throw Error("the arena needs at least one game per lineup");
  if (one_vs_each >= num_agents) throw Error("one_vs_each: no agent " + std::to_string(one_vs_each));
  if (one_vs_each >= 0 && num_agents < 2) throw Error("one_vs_each needs at least two agents");
  check_arena_size(num_agents, num_players, seeds_per_lineup, one_vs_each >= 0);
  std::vector<std::vector<int>> lineups;
  std::vector<int> current;
  if (one_vs_each >= 0) {
    for (int other = 0; other < num_agents; ++other) {
      if (other == one_vs_each) continue;
      std::vector<int> table(static_cast<std::size_t>(num_players), other);
      table[0] = one_vs_each;
      lineups.push_back(table);
    }
  } else if (num_agents >= num_players) {
    combinations(num_agents, num_players, 0, current, lineups);
  } else {
    // Agent 0 once, the others fill the remaining seats in turn: with two
    // agents this is "one against the rest" (A B B B), which is how a bot is
    // measured against a baseline at a multiplayer table.
    std::vector<int> table{0};
    for (int s = 1; s < num_players; ++s)
      table.push_back(num_agents == 1 ? 0 : 1 + (s - 1) % (num_agents - 1));
    lineups.push_back(table);
  }
  std::vector<ScheduledGame> out;
  out.reserve(lineups.size() * static_cast<std::size_t>(num_players * seeds_per_lineup));
  for (std::size_t l = 0; l < lineups.size(); ++l)
    for (int k = 0; k < seeds_per_lineup; ++k)
      for (int r = 0; r < num_players; ++r) {
        ScheduledGame g;
        g.lineup = static_cast<int>(l);
        g.rotation = r;
        g.seed = derive_seed(seed, static_cast<uint64_t>(k));
        for (int s = 0; s < num_players; ++s)
          g.agent[static_cast<std::size_t>(s)] = lineups[l][static_cast<std::size_t>((s + r) % num_players)];
        out.push_back(g);
      }
  return out;
}

}  // namespace rocketgym::arena
