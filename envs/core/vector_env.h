// VectorEnv<G>: N states of one game stepped together (docs/architecture.md).
//
// Buffers are contiguous and allocated once. step() validates every action
// first, then applies them in parallel (WorkerPool: each thread its share of
// the envs, then what is left of the others', no barrier; envs/core/worker_pool.h),
// auto-resets finished envs and encodes each env's current player's view.
// When env i's game ends, every seat's view of the final position is encoded
// into final_observations() (and its length into final_episode_steps()) before
// the restart, so a learner can bootstrap from it (Gymnasium's "same step"
// auto-reset); those rows are valid only where terminated or truncated is set.
// Env i's episode k is seeded with episode_seed(seed, i, k), so any game can
// be replayed alone and results do not depend on the number of threads
// (envs/core/env_games.h, shared with AsyncVectorEnv).
// An encoder that declares `Written` (Launchpad 23's) brings each row up to
// date instead of writing it whole: the rows are the env's, callers only read them.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/env_games.h"
#include "envs/core/game.h"
#include "envs/core/parallel.h"
#include "envs/core/worker_pool.h"

namespace rocketgym {

template <class G>
class VectorEnv {
 public:
  using Config = typename G::Config;
  using State = typename G::State;
  using Encoder = typename G::Encoder;
  using Written = typename IncrementalEncoder<Encoder>::Written;

  VectorEnv(std::shared_ptr<const Config> config, int num_envs, int num_players, uint64_t seed,
            int num_threads)
      : games_(std::move(config), std::max(num_envs, 0), num_players), n_(num_envs), players_(num_players) {
    if (num_envs < 1) throw Error("num_envs must be at least 1");
    set_num_threads(num_threads);
    obs_size_ = games_.observation_size();
    actions_ = G::info().num_actions;
    obs_.assign(static_cast<std::size_t>(n_) * obs_size_, 0.0f);
    mask_.assign(static_cast<std::size_t>(n_) * actions_, 0);
    current_.assign(static_cast<std::size_t>(n_), 0);
    rewards_.assign(static_cast<std::size_t>(n_) * players_, 0.0f);
    terminated_.assign(static_cast<std::size_t>(n_), 0);
    truncated_.assign(static_cast<std::size_t>(n_), 0);
    final_obs_.assign(static_cast<std::size_t>(n_) * players_ * obs_size_, 0.0f);
    final_steps_.assign(static_cast<std::size_t>(n_), 0);
    written_.resize(static_cast<std::size_t>(n_));
    reset(seed);
  }

  void reset(uint64_t seed) {
    games_.set_seed(seed);
    for_each_env([&](int i) {
      const auto e = static_cast<std::size_t>(i);
      final_steps_[e] = 0;
      std::fill_n(final_observation(i, 0), static_cast<std::size_t>(players_) * obs_size_, 0.0f);
      games_.restart(i);
      games_.clear_outcome(row(i));
      written_[e] = Written{};
      games_.observe(i, row(i), &written_[e]);
    });
  }

  // Game code that throws here (a broken invariant: validate() has already
  // refused every illegal action) reaches the caller as an exception.
  void step(const Action* actions) {
    validate(actions);
    for_each_env([&](int i) { games_.step(i, actions[i], row(i), &written_[static_cast<std::size_t>(i)]); });
  }

  // A uniformly random legal action per env (each env has its own stream).
  void sample_random_actions(Action* out) {
    for_each_env([&](int i) {
      out[i] = random_legal_action(&mask_[static_cast<std::size_t>(i) * actions_], actions_,
                                   games_.action_rng[static_cast<std::size_t>(i)]);
    });
  }

  void heuristic_actions(Action* out) {
    for_each_env([&](int i) {
      const auto e = static_cast<std::size_t>(i);
      out[i] = G::heuristic_action(games_.states[e], games_.action_rng[e]);
    });
  }

  int num_envs() const { return n_; }
  int num_players() const { return players_; }
  int num_actions() const { return actions_; }
  int observation_size() const { return obs_size_; }
  int num_threads() const { return threads_; }
  void set_num_threads(int n) {
    threads_ = std::max(1, n);
    if (pool_ && pool_->threads() == threads_) return;
    pool_.reset();  // its threads end before the new ones start
    pool_ = std::make_unique<WorkerPool>(threads_);
  }
  const State& state(int i) const { return games_.states.at(static_cast<std::size_t>(i)); }
  uint64_t seed() const { return games_.seed(); }

  // Saving and restoring an env exactly (see VectorEnvSlot in game.h).
  VectorEnvSlot slot(int i) const {
    const auto e = static_cast<std::size_t>(checked_env(i));
    return {games_.episode[e], games_.steps[e], games_.action_rng[e].state()};
  }
  void restore(int i, const State& state, const VectorEnvSlot& slot) {
    const auto e = static_cast<std::size_t>(checked_env(i));
    if (state.num_players() != players_)
      throw Error("env " + std::to_string(i) + ": the state has " + std::to_string(state.num_players()) +
                  " players, this vector env " + std::to_string(players_));
    // A vector env never holds a finished game: it restarts it at once.
    if (state.is_terminal()) throw Error("env " + std::to_string(i) + ": cannot hold a finished game");
    if (slot.episode_steps < 0) throw Error("env " + std::to_string(i) + ": negative episode_steps");
    games_.states[e] = state;
    games_.episode[e] = slot.episode;
    games_.steps[e] = slot.episode_steps;
    games_.action_rng[e].set_state(slot.action_rng);
    final_steps_[e] = 0;
    std::fill_n(final_observation(i, 0), static_cast<std::size_t>(players_) * obs_size_, 0.0f);
    games_.clear_outcome(row(i));
    written_[e] = Written{};
    games_.observe(i, row(i), &written_[e]);
  }
  const std::shared_ptr<const Config>& config() const { return games_.config(); }

  // Read-only for callers: an incremental encoder rewrites only what changed.
  float* observations() { return obs_.data(); }
  uint8_t* action_masks() { return mask_.data(); }
  int32_t* current_players() { return current_.data(); }
  float* rewards() { return rewards_.data(); }
  uint8_t* terminated() { return terminated_.data(); }
  uint8_t* truncated() { return truncated_.data(); }
  int32_t* episode_steps() { return games_.steps.data(); }
  // [N, P, obs_size]: seat p's view of env i's last finished game at its end.
  float* final_observations() { return final_obs_.data(); }
  // [N]: the number of decisions in env i's last finished game.
  int32_t* final_episode_steps() { return final_steps_.data(); }

 private:
  // body(i) for every env, on num_threads threads. An exception of the lowest
  // index is rethrown once every env is done (as parallel_for).
  template <class F>
  void for_each_env(F&& body) {
    pool_->run(n_, body);
  }

  void validate(const Action* actions) {
    // On the caller alone: a lookup per env costs less than waking the workers.
    for (int i = 0; i < n_; ++i) {
      const Action a = actions[i];
      if (a >= 0 && a < actions_ &&
          mask_[static_cast<std::size_t>(i) * actions_ + static_cast<std::size_t>(a)])
        continue;
      const State& s = games_.states[static_cast<std::size_t>(i)];
      const std::string what = (a < 0 || a >= actions_)
                                   ? "out of range [0, " + std::to_string(actions_ - 1) + "]"
                                   : "'" + s.action_to_string(a) + "' is not legal";
      throw IllegalAction("env " + std::to_string(i) + ": action " + std::to_string(a) + " " + what +
                          "; no env was stepped");
    }
  }

  EnvRow row(int i) {
    const auto e = static_cast<std::size_t>(i);
    return {&obs_[e * static_cast<std::size_t>(obs_size_)],
            &mask_[e * static_cast<std::size_t>(actions_)],
            &current_[e],
            &rewards_[e * static_cast<std::size_t>(players_)],
            &terminated_[e],
            &truncated_[e],
            final_observation(i, 0),
            &final_steps_[e]};
  }

  int checked_env(int i) const {
    if (i < 0 || i >= n_)
      throw Error("env index " + std::to_string(i) + " out of range [0, " + std::to_string(n_ - 1) + "]");
    return i;
  }

  float* final_observation(int i, int seat) {
    return &final_obs_[(static_cast<std::size_t>(i) * players_ + static_cast<std::size_t>(seat)) * obs_size_];
  }

  EnvGames<G> games_;
  int n_, players_, threads_ = 1;
  int obs_size_ = 0, actions_ = 0;
  std::unique_ptr<WorkerPool> pool_;  // threads_ - 1 workers and the caller
  std::vector<float> obs_;
  std::vector<uint8_t> mask_;
  std::vector<int32_t> current_;
  std::vector<float> rewards_;
  std::vector<uint8_t> terminated_, truncated_;
  std::vector<float> final_obs_;
  std::vector<int32_t> final_steps_;
  std::vector<Written> written_;  // what each observation row holds (incremental encoders)
};

}  // namespace rocketgym
