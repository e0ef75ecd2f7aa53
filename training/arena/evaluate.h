// The quick evaluation both trainers run during training: the network played
// greedily against a baseline (a player kind without a file: random or heuristic) in the arena's schedule,
// every seat rotation with the same seeds. In a distributed run every rank
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

// The network's share of wins (a shared first place counts as a fraction).
template <class G>
double evaluate_network(PolicyValueNet net, std::shared_ptr<const typename G::Config> config, int players,
                        const players::PlayerSpec& opponent, int games, uint64_t seed, int threads,
                        torch::Device device, const dist::Context& context = {}) {
  std::vector<players::PlayerSpec> agents{{"learner", players::Checkpoint{}, std::move(net)}, opponent};
  ArenaOptions options;
  options.parallel = std::min(games, 256);
  options.threads = threads;
  options.device = device;
  Arena<G> arena(std::move(config), players, agents, options);
  const auto schedule = make_schedule(2, players, std::max(1, games / players), seed);
  const std::vector<GameRecord> records = play_on_ranks(arena, schedule, context);
  torch::Tensor win_rate = torch::zeros({1}, torch::kFloat64);
  if (context.is_root())
    win_rate[0] = analyze(records, {"learner", agents[1].name}, players).agents[0].win_rate;
  context.broadcast(win_rate, "sharing the evaluation's result");
  return win_rate.item<double>();
}

}  // namespace rocketgym::arena
