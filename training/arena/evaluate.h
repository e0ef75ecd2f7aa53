// The quick evaluation both trainers run during training: the network played
// greedily against a baseline (random or heuristic) in the arena's schedule,
// every seat rotation with the same seeds.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "training/arena/arena.h"

namespace rocketgym::arena {

// The network's share of wins (a shared first place counts as a fraction).
template <class G>
double evaluate_network(PolicyValueNet net, std::shared_ptr<const typename G::Config> config, int players,
                        const std::string& opponent, int games, uint64_t seed, int threads,
                        torch::Device device) {
  std::vector<AgentSpec> agents(2);
  agents[0].name = "learner";
  agents[0].kind = "checkpoint";
  agents[0].net = std::move(net);
  agents[1].name = opponent;
  agents[1].kind = opponent;
  ArenaOptions options;
  options.parallel = std::min(games, 256);
  options.threads = threads;
  options.device = device;
  Arena<G> arena(std::move(config), players, agents, options);
  const auto schedule = make_schedule(2, players, std::max(1, games / players), seed);
  const auto report = analyze(arena.play(schedule), {"learner", opponent}, players);
  return report.agents[0].win_rate;
}

}  // namespace rocketgym::arena
