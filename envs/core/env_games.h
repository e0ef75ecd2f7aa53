// EnvGames<G>: the games of a vector env, one per env, and what a step of
// one of them writes (envs/core/vector_env.h, envs/core/async_vector_env.h).
//
// Env i's episode k is seeded with episode_seed(seed, i, k) and its random
// actions come from its own stream, so its games depend only on the seed and
// the actions it is sent, whichever thread steps it and in whatever order.
// When env i's game ends, every seat's view of the final position is encoded
// into its final-observation rows (and its length into final_steps) before
// the restart (Gymnasium's "same step" auto-reset).
#pragma once

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include "envs/core/game.h"
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

// Where one env's step writes: its rows in a vector env's buffers.
struct EnvRow {
  float* observation;         // [obs_size], the player to move's view
  uint8_t* mask;              // [num_actions]
  int32_t* current_player;    // [1]
  float* rewards;             // [players], non-zero only on the final step
  uint8_t* terminated;        // [1]
  uint8_t* truncated;         // [1]
  float* final_observations;  // [players, obs_size], written when the game ends
  int32_t* final_steps;       // [1], written when the game ends
};

template <class G>
class EnvGames {
 public:
  using Config = typename G::Config;
  using State = typename G::State;
  using Encoder = typename G::Encoder;
  using Written = typename IncrementalEncoder<Encoder>::Written;

  EnvGames(std::shared_ptr<const Config> config, int num_envs, int num_players)
      : config_(std::move(config)), players_(num_players) {
    for (int d : Encoder::shape(*config_, players_)) obs_size_ *= static_cast<std::size_t>(d);
    const auto n = static_cast<std::size_t>(num_envs);
    steps.assign(n, 0);
    episode.assign(n, 0);
    action_rng.resize(n);
    states.reserve(n);
    for (std::size_t i = 0; i < n; ++i) states.emplace_back(*config_, players_, 0);
  }

  const std::shared_ptr<const Config>& config() const { return config_; }
  int num_players() const { return players_; }
  int observation_size() const { return static_cast<int>(obs_size_); }
  uint64_t seed() const { return seed_; }
  void set_seed(uint64_t seed) { seed_ = seed; }

  // Env i's first game of the seed's sequence, and its action stream.
  void restart(int i) {
    const auto e = static_cast<std::size_t>(i);
    episode[e] = 0;
    steps[e] = 0;
    action_rng[e].reseed(derive_seed(seed_ ^ 0xA5A5A5A5ULL, static_cast<uint64_t>(i)));
    states[e] = State(*config_, players_, episode_seed(seed_, e, 0));
  }

  // A legal action applied to env i; its outcome and next view into `row`.
  // `written`: what the row holds, for an incremental encoder (null: encode it whole).
  void step(int i, Action a, const EnvRow& row, Written* written) {
    const auto e = static_cast<std::size_t>(i);
    State& s = states[e];
    clear_outcome(row);
    s.apply(a);
    ++steps[e];
    if (s.is_terminal()) finish_game(i, row);
    observe(i, row, written);
  }

  void clear_outcome(const EnvRow& row) const {
    std::fill_n(row.rewards, players_, 0.0f);
    *row.terminated = 0;
    *row.truncated = 0;
  }

  // The player to move in env i, its legal actions and its view.
  void observe(int i, const EnvRow& row, Written* written) const {
    const State& s = states[static_cast<std::size_t>(i)];
    *row.current_player = s.current_player();
    s.legal_actions_mask(row.mask);
    if constexpr (IncrementalEncoder<Encoder>::value) {
      if (written) return Encoder::encode_changes(s, s.current_player(), row.observation, *written);
    }
    Encoder::encode(s, s.current_player(), row.observation);
  }

  std::vector<State> states;
  std::vector<int32_t> steps;     // decisions in each env's current game
  std::vector<uint64_t> episode;  // which game of its seed's sequence each env plays
  std::vector<Rng> action_rng;    // each env's stream of random and heuristic actions

 private:
  // Reports env i's finished game and starts its next one. Out of line: it
  // runs once a game, and inlining it into step() slowed every step (~10 %).
  [[gnu::noinline]] void finish_game(int i, const EnvRow& row) {
    const auto e = static_cast<std::size_t>(i);
    State& s = states[e];
    s.returns(row.rewards);
    *(s.is_truncated() ? row.truncated : row.terminated) = 1;
    for (int p = 0; p < players_; ++p)
      Encoder::encode(s, p, row.final_observations + static_cast<std::size_t>(p) * obs_size_);
    *row.final_steps = steps[e];
    s = State(*config_, players_, episode_seed(seed_, e, ++episode[e]));
    steps[e] = 0;
  }

  std::shared_ptr<const Config> config_;
  int players_;
  uint64_t seed_ = 0;
  std::size_t obs_size_ = 1;  // floats in one view
};

}  // namespace rocketgym
