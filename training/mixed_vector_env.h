// MixedVectorEnv<G>: a trainer's envs when game.players mixes table sizes.
//
// A VectorEnv holds one table size, so there is one per size of the mix, and
// the trainer's envs are split over them in proportion to the weights
// (split_by_weight: 64 envs over {2: 0.5, 3: 0.25, 4: 0.25} are 32 two-player,
// 16 three-player and 16 four-player tables, every size at least one env).
// Env i keeps its table size for the whole run; global index i is the
// (i - first)-th env of its size's VectorEnv, the sizes in ascending order.
// The split depends only on the envs and the weights, and each VectorEnv is
// seeded from the trainer's seed and its place in the mix (the first one with
// the seed itself, so a single table size runs exactly as a VectorEnv), so
// the same seed gives the same tables and games whatever the threads.
// Per-env access is an index lookup: nothing allocates after construction.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "envs/core/vector_env.h"
#include "training/game_setup.h"

namespace rocketgym {

template <class G>
class MixedVectorEnv {
 public:
  using Config = typename G::Config;
  using State = typename G::State;

  // `envs_key` names the config key of num_envs in the error when there are
  // fewer envs than table sizes.
  MixedVectorEnv(std::shared_ptr<const Config> config, const std::vector<TableShare>& tables, int num_envs,
                 uint64_t seed, int num_threads, const std::string& envs_key) {
    if (num_envs < static_cast<int>(tables.size()))
      throw ConfigError(envs_key + " (" + std::to_string(num_envs) +
                        ") must be at least the number of table sizes in " + "game.players (" +
                        std::to_string(tables.size()) + "): every table size needs an env");
    std::vector<double> weights;
    for (const TableShare& t : tables) weights.push_back(t.weight);
    const std::vector<int> counts = split_by_weight(num_envs, weights);
    for (std::size_t k = 0; k < tables.size(); ++k) {
      const uint64_t table_seed = k == 0 ? seed : derive_seed(seed ^ 0x7AB1E5ULL, k);
      envs_.push_back(
          std::make_unique<VectorEnv<G>>(config, counts[k], tables[k].players, table_seed, num_threads));
      for (int local = 0; local < counts[k]; ++local)
        slots_.push_back({envs_.back().get(), local, tables[k].players});
    }
    obs_size_ = envs_.front()->observation_size();
    for (const auto& env : envs_)
      if (env->observation_size() != obs_size_)
        throw ConfigError("game.players: " + G::info().id +
                          "'s observation size differs between its table sizes (" +
                          std::to_string(obs_size_) + " and " + std::to_string(env->observation_size()) +
                          " numbers); mixed tables need one layout for every player count");
  }

  int num_envs() const { return static_cast<int>(slots_.size()); }
  int observation_size() const { return obs_size_; }
  int num_actions() const { return G::info().num_actions; }
  // The seats at env i's table.
  int players(int i) const { return slots_[static_cast<std::size_t>(i)].players; }
  const float* observation(int i) const {
    const Slot& s = slots_[static_cast<std::size_t>(i)];
    return s.env->observations() + static_cast<std::size_t>(s.local) * obs_size_;
  }
  const uint8_t* action_mask(int i) const {
    const Slot& s = slots_[static_cast<std::size_t>(i)];
    return s.env->action_masks() + static_cast<std::size_t>(s.local) * num_actions();
  }
  int current_player(int i) const {
    const Slot& s = slots_[static_cast<std::size_t>(i)];
    return s.env->current_players()[s.local];
  }
  const State& state(int i) const {
    const Slot& s = slots_[static_cast<std::size_t>(i)];
    return s.env->state(s.local);
  }
  // Env i's game ended in the last step (and restarted).
  bool finished(int i) const {
    const Slot& s = slots_[static_cast<std::size_t>(i)];
    return s.env->terminated()[s.local] || s.env->truncated()[s.local];
  }
  // The returns of env i's finished game, players(i) of them, absolute seats.
  const float* returns(int i) const {
    const Slot& s = slots_[static_cast<std::size_t>(i)];
    return s.env->rewards() + static_cast<std::size_t>(s.local) * s.players;
  }

  // `actions`: one per env, in global order.
  void step(const Action* actions) {
    for (std::size_t k = 0, first = 0; k < envs_.size(); first += envs_[k]->num_envs(), ++k)
      envs_[k]->step(actions + first);
  }
  void heuristic_actions(Action* out) {
    for (std::size_t k = 0, first = 0; k < envs_.size(); first += envs_[k]->num_envs(), ++k)
      envs_[k]->heuristic_actions(out + first);
  }

 private:
  struct Slot {
    VectorEnv<G>* env;
    int local;    // its index in env
    int players;  // env's table size
  };
  std::vector<std::unique_ptr<VectorEnv<G>>> envs_;  // one per table size, ascending
  std::vector<Slot> slots_;                          // per global env
  int obs_size_ = 0;
};

}  // namespace rocketgym
