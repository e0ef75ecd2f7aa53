#include "training/arena/schedule.h"

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

}  // namespace

std::vector<ScheduledGame> make_schedule(int num_agents, int num_players, int seeds_per_lineup, uint64_t seed,
                                         int one_vs_each) {
  if (num_agents < 1) throw Error("the arena needs at least one agent");
  if (num_players < 1 || num_players > kMaxSeats)
    throw Error("the arena supports 1 to " + std::to_string(kMaxSeats) + " players");
  if (seeds_per_lineup < 1) throw Error("the arena needs at least one game per lineup");
  if (one_vs_each >= num_agents) throw Error("one_vs_each: no agent " + std::to_string(one_vs_each));
  if (one_vs_each >= 0 && num_agents < 2) throw Error("one_vs_each needs at least two agents");
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
