// Learner decisions collected during self-play, waiting for their episode to
// end so that GAE can run on complete per-seat trajectories.
//
// Decisions live in one flat buffer (slot = index). Each env keeps the list of
// its slots in the current episode; when the episode ends, finish_episode()
// computes advantages and value targets and marks those slots ready. After a
// PPO update, compact() drops the ready slots and moves the unfinished ones to
// the front, so episodes may span several updates (their recorded log-probs
// keep the importance ratio correct).
#pragma once

#include <cstdint>
#include <vector>

#include "envs/core/game.h"

namespace rocketgym::ppo {

class TrajectoryStore {
 public:
  // `num_players`: the width of the value rows (the network's value outputs,
  // one per seat of the largest table); each env's table may be smaller
  // (set_table_players).
  TrajectoryStore(int num_envs, int num_players, int observation_size, int num_actions, int initial_capacity);

  // Env `env` plays at a table of `players` seats (default: num_players):
  // its returns have that many entries and its decisions' value targets fill
  // only that many seats (table_players(slot) says how many).
  void set_table_players(int env, int players);

  // Records a decision of `seat` in `env`; returns its slot, whose observation
  // and mask the caller writes through observation()/mask(). `values` are the
  // network's values, viewer-relative, num_players of them; `potential` is the
  // seat's shaping potential there (see gae.h; 0 without shaping).
  int add(int env, int seat, Action action, float log_prob, const float* values, float potential = 0.0f);
  // The env's episode ended with `final_returns` (absolute seats). With a
  // shaping weight, advantages include the shaping rewards but the value
  // targets do not, so the value head keeps estimating the game's own returns
  // (what search and the arena read from it).
  void finish_episode(int env, const float* final_returns, float gamma, float lambda,
                      float shaping_weight = 0.0f);
  void compact();  // forget ready slots, keep unfinished episodes

  int size() const { return size_; }
  int ready_count() const { return ready_count_; }
  std::vector<int> ready_slots() const;

  float* observation(int slot) { return &observations_[idx(slot, obs_size_)]; }
  uint8_t* mask(int slot) { return &masks_[idx(slot, num_actions_)]; }
  const float* observation(int slot) const { return &observations_[idx(slot, obs_size_)]; }
  const uint8_t* mask(int slot) const { return &masks_[idx(slot, num_actions_)]; }
  Action action(int slot) const { return actions_[idx(slot, 1)]; }
  float log_prob(int slot) const { return log_probs_[idx(slot, 1)]; }
  int seat(int slot) const { return seats_[idx(slot, 1)]; }
  float advantage(int slot) const { return advantages_[idx(slot, 1)]; }
  // Value targets, viewer-relative: [0] the lambda-return of the acting seat,
  // [j] the final return of the seat j places clockwise; 0 beyond the table.
  const float* value_targets(int slot) const { return &value_targets_[idx(slot, players_)]; }
  int table_players(int slot) const { return table_players_[idx(slot, 1)]; }
  int observation_size() const { return obs_size_; }
  int num_actions() const { return num_actions_; }
  int num_players() const { return players_; }

 private:
  static std::size_t idx(int slot, int width) { return static_cast<std::size_t>(slot) * width; }
  void grow();
  void move_slot(int from, int to);

  int envs_, players_, obs_size_, num_actions_;
  int capacity_ = 0, size_ = 0, ready_count_ = 0;
  std::vector<float> observations_;
  std::vector<uint8_t> masks_;
  std::vector<Action> actions_;
  std::vector<float> log_probs_, values_, potentials_, advantages_, value_targets_;
  std::vector<int> seats_;
  std::vector<uint8_t> ready_, table_players_;   // per slot
  std::vector<int> env_players_;                 // per env
  std::vector<std::vector<int>> episode_slots_;  // per env, in time order
  // scratch for finish_episode
  std::vector<int> scratch_seats_;
  std::vector<float> scratch_values_, scratch_potentials_, scratch_adv_, scratch_ret_,
      scratch_shaped_returns_;
};

}  // namespace rocketgym::ppo
