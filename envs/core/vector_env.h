// VectorEnv<G>: N states of one game stepped together (docs/architecture.md).
//
// Buffers are contiguous and allocated once. step() validates every action
// first, then applies them in parallel (OpenMP, static schedule, no locks),
// auto-resets finished envs and encodes each env's current player's view.
// When env i's game ends, every seat's view of the final position is encoded
// into final_observations() (and its length into final_episode_steps()) before
// the restart, so a learner can bootstrap from it (Gymnasium's "same step"
// auto-reset); those rows are valid only where terminated or truncated is set.
// Env i's episode k is seeded with episode_seed(seed, i, k), so any game can
// be replayed alone and results do not depend on the number of threads.
// An encoder that declares `Written` (Launchpad 23's) brings each row up to
// date instead of writing it whole: the rows are the env's, callers only read them.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/parallel.h"
#include "envs/core/rng.h"

namespace rocketgym {

inline uint64_t episode_seed(uint64_t seed, uint64_t env, uint64_t episode) {
  return derive_seed(derive_seed(seed, env), episode);
}

// Whether an encoder can rewrite only what changed in an observation row:
// it declares `struct Written` (what a row holds) and
// `encode_changes(state, viewer, out, written)`, equal in values to encode().
template <class E, class = void>
struct IncrementalEncoder : std::false_type {
  struct Written {};
};
template <class E>
struct IncrementalEncoder<E, std::void_t<typename E::Written>> : std::true_type {
  using Written = typename E::Written;
};

template <class G>
class VectorEnv {
 public:
  using Config = typename G::Config;
  using State = typename G::State;
  using Encoder = typename G::Encoder;
  using Written = typename IncrementalEncoder<Encoder>::Written;

  VectorEnv(std::shared_ptr<const Config> config, int num_envs, int num_players, uint64_t seed,
            int num_threads)
      : config_(std::move(config)), n_(num_envs), players_(num_players), threads_(std::max(1, num_threads)) {
    if (num_envs < 1) throw Error("num_envs must be at least 1");
    const auto shape = Encoder::shape(*config_, players_);
    obs_size_ = 1;
    for (int d : shape) obs_size_ *= d;
    actions_ = G::info().num_actions;
    obs_.assign(static_cast<std::size_t>(n_) * obs_size_, 0.0f);
    mask_.assign(static_cast<std::size_t>(n_) * actions_, 0);
    current_.assign(static_cast<std::size_t>(n_), 0);
    rewards_.assign(static_cast<std::size_t>(n_) * players_, 0.0f);
    terminated_.assign(static_cast<std::size_t>(n_), 0);
    truncated_.assign(static_cast<std::size_t>(n_), 0);
    steps_.assign(static_cast<std::size_t>(n_), 0);
    final_obs_.assign(static_cast<std::size_t>(n_) * players_ * obs_size_, 0.0f);
    final_steps_.assign(static_cast<std::size_t>(n_), 0);
    episode_.assign(static_cast<std::size_t>(n_), 0);
    illegal_.assign(static_cast<std::size_t>(n_), 0);
    action_rng_.resize(static_cast<std::size_t>(n_));
    written_.resize(static_cast<std::size_t>(n_));
    states_.reserve(static_cast<std::size_t>(n_));
    for (int i = 0; i < n_; ++i) states_.emplace_back(*config_, players_, 0);
    reset(seed);
  }

  void reset(uint64_t seed) {
    seed_ = seed;
    parallel_for(n_, threads_, [&](int i) {
      const auto e = static_cast<std::size_t>(i);
      episode_[e] = 0;
      steps_[e] = 0;
      final_steps_[e] = 0;
      std::fill_n(final_observation(i, 0), static_cast<std::size_t>(players_) * obs_size_, 0.0f);
      action_rng_[e].reseed(derive_seed(seed_ ^ 0xA5A5A5A5ULL, static_cast<uint64_t>(i)));
      states_[e] = State(*config_, players_, episode_seed(seed_, e, 0));
      clear_outcome(i);
      written_[e] = Written{};
      observe(i);
    });
  }

  // Game code that throws here (a broken invariant: validate() has already
  // refused every illegal action) reaches the caller as an exception.
  void step(const Action* actions) {
    validate(actions);
    parallel_for(n_, threads_, [&](int i) { step_one(i, actions[i]); });
  }

  // A uniformly random legal action per env (each env has its own stream).
  void sample_random_actions(Action* out) {
    parallel_for(n_, threads_, [&](int i) {
      out[i] = random_legal_action(&mask_[static_cast<std::size_t>(i) * actions_], actions_,
                                   action_rng_[static_cast<std::size_t>(i)]);
    });
  }

  void heuristic_actions(Action* out) {
    parallel_for(n_, threads_, [&](int i) {
      out[i] =
          G::heuristic_action(states_[static_cast<std::size_t>(i)], action_rng_[static_cast<std::size_t>(i)]);
    });
  }

  int num_envs() const { return n_; }
  int num_players() const { return players_; }
  int num_actions() const { return actions_; }
  int observation_size() const { return obs_size_; }
  int num_threads() const { return threads_; }
  void set_num_threads(int n) { threads_ = std::max(1, n); }
  const State& state(int i) const { return states_.at(static_cast<std::size_t>(i)); }
  uint64_t seed() const { return seed_; }

  // Saving and restoring an env exactly (see VectorEnvSlot in game.h).
  VectorEnvSlot slot(int i) const {
    const auto e = static_cast<std::size_t>(checked_env(i));
    return {episode_[e], steps_[e], action_rng_[e].state()};
  }
  void restore(int i, const State& state, const VectorEnvSlot& slot) {
    const auto e = static_cast<std::size_t>(checked_env(i));
    if (state.num_players() != players_)
      throw Error("env " + std::to_string(i) + ": the state has " + std::to_string(state.num_players()) +
                  " players, this vector env " + std::to_string(players_));
    // A vector env never holds a finished game: it restarts it at once.
    if (state.is_terminal()) throw Error("env " + std::to_string(i) + ": cannot hold a finished game");
    if (slot.episode_steps < 0) throw Error("env " + std::to_string(i) + ": negative episode_steps");
    states_[e] = state;
    episode_[e] = slot.episode;
    steps_[e] = slot.episode_steps;
    action_rng_[e].set_state(slot.action_rng);
    final_steps_[e] = 0;
    std::fill_n(final_observation(i, 0), static_cast<std::size_t>(players_) * obs_size_, 0.0f);
    clear_outcome(i);
    written_[e] = Written{};
    observe(i);
  }
  const std::shared_ptr<const Config>& config() const { return config_; }

  // Read-only for callers: an incremental encoder rewrites only what changed.
  float* observations() { return obs_.data(); }
  uint8_t* action_masks() { return mask_.data(); }
  int32_t* current_players() { return current_.data(); }
  float* rewards() { return rewards_.data(); }
  uint8_t* terminated() { return terminated_.data(); }
  uint8_t* truncated() { return truncated_.data(); }
  int32_t* episode_steps() { return steps_.data(); }
  // [N, P, obs_size]: seat p's view of env i's last finished game at its end.
  float* final_observations() { return final_obs_.data(); }
  // [N]: the number of decisions in env i's last finished game.
  int32_t* final_episode_steps() { return final_steps_.data(); }

 private:
  void validate(const Action* actions) {
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (int i = 0; i < n_; ++i) {
      const Action a = actions[i];
      illegal_[static_cast<std::size_t>(i)] =
          a < 0 || a >= actions_ ||
          !mask_[static_cast<std::size_t>(i) * actions_ + static_cast<std::size_t>(a)];
    }
    for (int i = 0; i < n_; ++i) {
      if (!illegal_[static_cast<std::size_t>(i)]) continue;
      const State& s = states_[static_cast<std::size_t>(i)];
      const Action a = actions[i];
      const std::string what = (a < 0 || a >= actions_)
                                   ? "out of range [0, " + std::to_string(actions_ - 1) + "]"
                                   : "'" + s.action_to_string(a) + "' is not legal";
      throw IllegalAction("env " + std::to_string(i) + ": action " + std::to_string(a) + " " + what +
                          "; no env was stepped");
    }
  }

  void step_one(int i, Action a) {
    const auto e = static_cast<std::size_t>(i);
    State& s = states_[e];
    clear_outcome(i);
    s.apply(a);
    ++steps_[e];
    if (s.is_terminal()) finish_game(i);
    observe(i);
  }

  // Reports env i's finished game and starts its next one. Out of line: it
  // runs once a game, and inlining it into step_one slowed every step (~10 %).
  [[gnu::noinline]] void finish_game(int i) {
    const auto e = static_cast<std::size_t>(i);
    State& s = states_[e];
    s.returns(&rewards_[e * static_cast<std::size_t>(players_)]);
    (s.is_truncated() ? truncated_ : terminated_)[e] = 1;
    for (int p = 0; p < players_; ++p) Encoder::encode(s, p, final_observation(i, p));
    final_steps_[e] = steps_[e];
    s = State(*config_, players_, episode_seed(seed_, e, ++episode_[e]));
    steps_[e] = 0;
  }

  int checked_env(int i) const {
    if (i < 0 || i >= n_)
      throw Error("env index " + std::to_string(i) + " out of range [0, " + std::to_string(n_ - 1) + "]");
    return i;
  }

  float* final_observation(int i, int seat) {
    return &final_obs_[(static_cast<std::size_t>(i) * players_ + static_cast<std::size_t>(seat)) * obs_size_];
  }

  void clear_outcome(int i) {
    const auto e = static_cast<std::size_t>(i);
    std::fill_n(&rewards_[e * static_cast<std::size_t>(players_)], players_, 0.0f);
    terminated_[e] = 0;
    truncated_[e] = 0;
  }

  void observe(int i) {
    const auto e = static_cast<std::size_t>(i);
    const State& s = states_[e];
    current_[e] = s.current_player();
    s.legal_actions_mask(&mask_[e * static_cast<std::size_t>(actions_)]);
    float* row = &obs_[e * static_cast<std::size_t>(obs_size_)];
    if constexpr (IncrementalEncoder<Encoder>::value)
      Encoder::encode_changes(s, s.current_player(), row, written_[e]);
    else
      Encoder::encode(s, s.current_player(), row);
  }

  std::shared_ptr<const Config> config_;
  int n_, players_, threads_;
  int obs_size_ = 0, actions_ = 0;
  uint64_t seed_ = 0;
  std::vector<State> states_;
  std::vector<Rng> action_rng_;
  std::vector<float> obs_;
  std::vector<uint8_t> mask_;
  std::vector<int32_t> current_;
  std::vector<float> rewards_;
  std::vector<uint8_t> terminated_, truncated_, illegal_;
  std::vector<int32_t> steps_;
  std::vector<float> final_obs_;
  std::vector<int32_t> final_steps_;
  std::vector<uint64_t> episode_;
  std::vector<Written> written_;  // what each observation row holds (incremental encoders)
};

}  // namespace rocketgym
