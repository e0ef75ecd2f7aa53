// The quick evaluation both trainers run during training: the network played
// greedily against a baseline (a player kind without a file: random or heuristic) in the arena's schedule,
// every seat rotation with the same seeds; and search-based training's
// gating match between two networks. In a distributed run every rank
// calls it: the games are split over the ranks and every rank gets the
// result.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "training/arena/arena.h"
#include "training/arena/arena_ranks.h"
#include "training/distributed/distributed.h"

namespace rocketgym::arena {

// `first`'s share of wins (a shared first place counts as a fraction) at a
// table of `players`: `first` in one seat and `opponent` in the others, in
// every seat in turn over the same seeds (games / players of them, at least
// one). The two must have different names.
template <class G>
double win_share(players::PlayerSpec first, players::PlayerSpec opponent,
                 std::shared_ptr<const typename G::Config> config, int players, int games, uint64_t seed,
                 int threads, torch::Device device, const dist::Context& context = {}) {
  std::vector<players::PlayerSpec> agents{std::move(first), std::move(opponent)};
  ArenaOptions options;
  options.parallel = std::min(games, 256);
  options.threads = threads;
  options.device = device;
  Arena<G> arena(std::move(config), players, agents, options);
  const auto schedule = make_schedule(2, players, std::max(1, games / players), seed);
  const std::vector<GameRecord> records = play_on_ranks(arena, schedule, context);
  torch::Tensor win_rate = torch::zeros({1}, torch::kFloat64);
  if (context.is_root())
    win_rate[0] = analyze(records, {agents[0].name, agents[1].name}, players).agents[0].win_rate;
  context.broadcast(win_rate, "sharing the match's result");
  return win_rate.item<double>();
}

// The network's share of wins, played greedily against `opponent`.
template <class G>
double evaluate_network(PolicyValueNet net, std::shared_ptr<const typename G::Config> config, int players,
                        const players::PlayerSpec& opponent, int games, uint64_t seed, int threads,
                        torch::Device device, const dist::Context& context = {}) {
  return win_share<G>({"learner", players::Checkpoint{}, std::move(net)}, opponent, std::move(config),
                      players, games, seed, threads, device, context);
}

}  // namespace rocketgym::arena
