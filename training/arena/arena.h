// Arena<G>: plays a schedule of games (schedule.h) between agents (agents.h)
// for one concrete game type, many games at once.
//
// `parallel` games are in flight. Each round, the games are grouped by the
// agent to move; a network agent encodes its group and runs one batched
// forward pass, the other agents act on their games in parallel (OpenMP).
// Every random choice an agent makes in a game comes from streams derived
// from that game's seed and move number, so results do not depend on
// `parallel`, on the thread count or on the order games finish.
#pragma once

#include <omp.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "envs/core/rng.h"
#include "training/arena/agents.h"
#include "training/arena/results.h"
#include "training/arena/schedule.h"
#include "training/mcts/mcts.h"
#include "training/mcts/network_evaluator.h"
#include "training/policy_runner.h"

namespace rocketgym::arena {

struct ArenaOptions {
  int parallel = 64;  // games in flight
  int threads = 2;    // OpenMP threads for the agents that do not batch
  torch::Device device = torch::kCPU;
};

template <class G>
class Arena {
 public:
  using State = typename G::State;
  using Config = typename G::Config;
  using Progress = std::function<void(int done, int total)>;

  // Network agents must have `net` set (loaded by the caller).
  Arena(std::shared_ptr<const Config> config, int num_players, std::vector<AgentSpec> agents,
        ArenaOptions options)
      : config_(std::move(config)), players_(num_players), agents_(std::move(agents)), options_(options) {
    options_.parallel = std::max(1, options_.parallel);
    options_.threads = std::max(1, options_.threads);
    runners_.resize(agents_.size());
    searches_.resize(agents_.size());
    network_evaluators_.resize(agents_.size());
    rollout_evaluators_.resize(agents_.size());
    for (std::size_t a = 0; a < agents_.size(); ++a) {
      if (agents_[a].uses_network()) {
        if (!agents_[a].net) throw Error("arena: agent '" + agents_[a].name + "' has no network loaded");
        runners_[a] = std::make_unique<PolicyRunner>(agents_[a].net, options_.device, options_.parallel);
      }
      if (agents_[a].kind == "ismcts") {
        searches_[a].resize(static_cast<std::size_t>(options_.parallel));
        if (runners_[a])
          network_evaluators_[a] =
              std::make_unique<mcts::NetworkEvaluator<G>>(*runners_[a], options_.threads, agents_[a].mcts);
        // One rollout evaluator per thread (they keep scratch buffers).
        for (int t = 0; t < options_.threads && !runners_[a]; ++t)
          rollout_evaluators_[a].emplace_back(agents_[a].mcts);
      }
    }
  }

  std::vector<GameRecord> play(const std::vector<ScheduledGame>& schedule,
                               const Progress& progress = nullptr) {
    const int total = static_cast<int>(schedule.size());
    const int slots = std::min(options_.parallel, std::max(1, total));
    num_actions_ = G::info().num_actions;
    states_.clear();
    for (int s = 0; s < slots; ++s) states_.emplace_back(*config_, players_, 0);
    game_of_.assign(static_cast<std::size_t>(slots), -1);
    decisions_.assign(static_cast<std::size_t>(slots), 0);
    actions_.assign(static_cast<std::size_t>(slots), 0);
    rngs_.assign(static_cast<std::size_t>(slots), Rng(0));
    masks_.assign(static_cast<std::size_t>(slots) * num_actions_, 0);
    std::vector<std::vector<int>> to_move(agents_.size());
    std::vector<GameRecord> records(static_cast<std::size_t>(total));
    int next = 0, active = 0, done = 0;
    auto start_game = [&](int s) {
      game_of_[static_cast<std::size_t>(s)] = next < total ? next++ : -1;
      if (game_of_[static_cast<std::size_t>(s)] < 0) return;
      const ScheduledGame& g = schedule[static_cast<std::size_t>(game_of_[static_cast<std::size_t>(s)])];
      states_[static_cast<std::size_t>(s)] = State(*config_, players_, g.seed);
      decisions_[static_cast<std::size_t>(s)] = 0;
      ++active;
    };
    for (int s = 0; s < slots; ++s) start_game(s);
    while (active > 0) {
      for (auto& group : to_move) group.clear();
      for (int s = 0; s < slots; ++s) {
        const int g = game_of_[static_cast<std::size_t>(s)];
        if (g < 0) continue;
        const int player = states_[static_cast<std::size_t>(s)].current_player();
        to_move[static_cast<std::size_t>(
                    schedule[static_cast<std::size_t>(g)].agent[static_cast<std::size_t>(player)])]
            .push_back(s);
        // The agent's random stream for this move: a function of the game's
        // seed and the move number only.
        rngs_[static_cast<std::size_t>(s)].reseed(
            derive_seed(schedule[static_cast<std::size_t>(g)].seed ^ 0xA2E4A5EEDULL,
                        static_cast<uint64_t>(decisions_[static_cast<std::size_t>(s)])));
      }
      for (std::size_t a = 0; a < agents_.size(); ++a)
        if (!to_move[a].empty()) act(a, to_move[a], schedule);
#pragma omp parallel for schedule(static) num_threads(options_.threads)
      for (int s = 0; s < slots; ++s) {
        if (game_of_[static_cast<std::size_t>(s)] < 0) continue;
        states_[static_cast<std::size_t>(s)].apply(actions_[static_cast<std::size_t>(s)]);
        ++decisions_[static_cast<std::size_t>(s)];
      }
      for (int s = 0; s < slots; ++s) {
        const int g = game_of_[static_cast<std::size_t>(s)];
        if (g < 0 || !states_[static_cast<std::size_t>(s)].is_terminal()) continue;
        records[static_cast<std::size_t>(g)] = record(schedule[static_cast<std::size_t>(g)], s);
        --active;
        ++done;
        if (progress) progress(done, total);
        start_game(s);
      }
    }
    return records;
  }

 private:
  GameRecord record(const ScheduledGame& g, int s) const {
    const State& state = states_[static_cast<std::size_t>(s)];
    GameRecord r;
    r.lineup = g.lineup;
    r.rotation = g.rotation;
    r.seed = g.seed;
    r.num_players = players_;
    r.agent = g.agent;
    state.returns(r.returns.data());
    r.truncated = state.is_truncated();
    r.decisions = decisions_[static_cast<std::size_t>(s)];
    return r;
  }

  void act(std::size_t a, const std::vector<int>& group, const std::vector<ScheduledGame>& schedule) {
    const AgentSpec& agent = agents_[a];
    const int n = static_cast<int>(group.size());
    if (agent.kind == "random") {
#pragma omp parallel for schedule(static) num_threads(options_.threads)
      for (int k = 0; k < n; ++k) act_randomly(group[static_cast<std::size_t>(k)]);
    } else if (agent.kind == "heuristic") {
#pragma omp parallel for schedule(static) num_threads(options_.threads)
      for (int k = 0; k < n; ++k) {
        const auto s = static_cast<std::size_t>(group[static_cast<std::size_t>(k)]);
        actions_[s] = G::heuristic_action(states_[s], rngs_[s]);
      }
    } else if (agent.kind == "checkpoint") {
      act_with_network(*runners_[a], agent.greedy, group);
    } else {
      act_with_search(a, group, schedule);
    }
  }

  void act_randomly(int slot) {
    const auto s = static_cast<std::size_t>(slot);
    uint8_t* mask = &masks_[s * num_actions_];
    states_[s].legal_actions_mask(mask);
    actions_[s] = random_legal_action(mask, num_actions_, rngs_[s]);
  }

  void act_with_network(PolicyRunner& runner, bool greedy, const std::vector<int>& group) {
    const int n = static_cast<int>(group.size());
#pragma omp parallel for schedule(static) num_threads(options_.threads)
    for (int k = 0; k < n; ++k) {
      const State& state = states_[static_cast<std::size_t>(group[static_cast<std::size_t>(k)])];
      G::Encoder::encode(state, state.current_player(), runner.observation_row(k));
      state.legal_actions_mask(runner.mask_row(k));
    }
    runner.evaluate(n);
    for (int k = 0; k < n; ++k) {
      const auto s = static_cast<std::size_t>(group[static_cast<std::size_t>(k)]);
      actions_[s] = runner.choose(k, greedy, rngs_[s]);
    }
  }

  void act_with_search(std::size_t a, const std::vector<int>& group,
                       const std::vector<ScheduledGame>& schedule) {
    auto& searches = searches_[a];
    const int n = static_cast<int>(group.size());
    for (int slot : group) {
      auto& search = searches[static_cast<std::size_t>(slot)];
      if (!search) search = std::make_unique<mcts::Search<G>>(agents_[a].mcts);
      // Seeded by game and move, like the other agents' streams.
      const auto s = static_cast<std::size_t>(slot);
      search->reseed(derive_seed(schedule[static_cast<std::size_t>(game_of_[s])].seed ^ (0x5EA4C4ULL + a),
                                 static_cast<uint64_t>(decisions_[s])));
    }
    if (runners_[a]) {
      // Network evaluator: all searches advance together, leaves batched.
      search_ptrs_.clear();
      for (int slot : group) {
        auto& search = *searches[static_cast<std::size_t>(slot)];
        search.start(states_[static_cast<std::size_t>(slot)]);
        search_ptrs_.push_back(&search);
      }
      mcts::run_batched(search_ptrs_.data(), n, *network_evaluators_[a], leaf_batch_);
      for (int slot : group)
        actions_[static_cast<std::size_t>(slot)] = searches[static_cast<std::size_t>(slot)]->choose_action();
      return;
    }
#pragma omp parallel for schedule(dynamic) num_threads(options_.threads)
    for (int k = 0; k < n; ++k) {
      const auto s = static_cast<std::size_t>(group[static_cast<std::size_t>(k)]);
      actions_[s] = searches[s]->run(states_[s],
                                     rollout_evaluators_[a][static_cast<std::size_t>(omp_get_thread_num())]);
    }
  }

  std::shared_ptr<const Config> config_;
  int players_;
  std::vector<AgentSpec> agents_;
  ArenaOptions options_;
  int num_actions_ = 0;
  std::vector<std::unique_ptr<PolicyRunner>> runners_;                          // per agent (network agents)
  std::vector<std::vector<std::unique_ptr<mcts::Search<G>>>> searches_;         // per agent, per slot
  std::vector<std::unique_ptr<mcts::NetworkEvaluator<G>>> network_evaluators_;  // per agent (network search)
  std::vector<std::vector<mcts::RolloutEvaluator<G>>> rollout_evaluators_;      // per agent, per thread
  std::vector<mcts::Search<G>*> search_ptrs_;
  std::vector<mcts::Leaf<State>> leaf_batch_;
  std::vector<State> states_;
  std::vector<int> game_of_, decisions_;
  std::vector<Action> actions_;
  std::vector<Rng> rngs_;
  std::vector<uint8_t> masks_;
};

}  // namespace rocketgym::arena
