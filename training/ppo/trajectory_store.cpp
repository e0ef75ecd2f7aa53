#include "training/ppo/trajectory_store.h"

#include <algorithm>
#include <cstring>

#include "training/ppo/gae.h"

namespace rocketgym::ppo {

TrajectoryStore::TrajectoryStore(int num_envs, int num_players, int observation_size, int num_actions,
                                 int initial_capacity)
    : envs_(num_envs), players_(num_players), obs_size_(observation_size), num_actions_(num_actions) {
  if (num_players < 1 || num_players > 255) throw Error("trajectory store: 1 to 255 value seats");
  episode_slots_.resize(static_cast<std::size_t>(num_envs));
  env_players_.assign(static_cast<std::size_t>(num_envs), num_players);
  for (auto& list : episode_slots_) list.reserve(256);
  capacity_ = std::max(16, initial_capacity) / 2;
  grow();
}

void TrajectoryStore::grow() {
  capacity_ *= 2;
  const auto n = static_cast<std::size_t>(capacity_);
  observations_.resize(n * obs_size_);
  masks_.resize(n * num_actions_);
  actions_.resize(n);
  log_probs_.resize(n);
  potentials_.resize(n);
  values_.resize(n * players_);
  advantages_.resize(n);
  value_targets_.resize(n * players_);
  seats_.resize(n);
  ready_.resize(n);
  table_players_.resize(n);
}

void TrajectoryStore::set_table_players(int env, int players) {
  if (players < 1 || players > players_)
    throw Error("trajectory store: a table of " + std::to_string(players) + " players, the value rows have " +
                std::to_string(players_) + " seats");
  env_players_.at(static_cast<std::size_t>(env)) = players;
}

int TrajectoryStore::add(int env, int seat, Action action, float log_prob, const float* values,
                         float potential) {
  if (size_ == capacity_) grow();
  const int slot = size_++;
  actions_[idx(slot, 1)] = action;
  log_probs_[idx(slot, 1)] = log_prob;
  potentials_[idx(slot, 1)] = potential;
  seats_[idx(slot, 1)] = seat;
  ready_[idx(slot, 1)] = 0;
  std::copy_n(values, players_, &values_[idx(slot, players_)]);
  episode_slots_[static_cast<std::size_t>(env)].push_back(slot);
  return slot;
}

void TrajectoryStore::finish_episode(int env, const float* final_returns, float gamma, float lambda,
                                     float shaping_weight) {
  auto& slots = episode_slots_[static_cast<std::size_t>(env)];
  const auto count = slots.size();
  const int table = env_players_[static_cast<std::size_t>(env)];
  scratch_seats_.resize(count);
  scratch_values_.resize(count);
  scratch_adv_.resize(count);
  scratch_ret_.resize(count);
  scratch_potentials_.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    scratch_seats_[k] = seats_[idx(slots[k], 1)];
    scratch_values_[k] = values_[idx(slots[k], players_)];  // the acting seat's own value
    scratch_potentials_[k] = potentials_[idx(slots[k], 1)];
  }
  const int n = static_cast<int>(count);
  gae_turn_based(scratch_seats_.data(), scratch_values_.data(), n, final_returns, table, gamma, lambda,
                 scratch_adv_.data(), scratch_ret_.data());
  if (shaping_weight != 0.0f) {  // shaped advantages; the unshaped value targets stay in scratch_ret_
    scratch_shaped_returns_.resize(count);
    gae_turn_based(scratch_seats_.data(), scratch_values_.data(), n, final_returns, table, gamma, lambda,
                   scratch_adv_.data(), scratch_shaped_returns_.data(), scratch_potentials_.data(),
                   shaping_weight);
  }
  for (std::size_t k = 0; k < count; ++k) {
    const int slot = slots[k];
    const int seat = scratch_seats_[k];
    advantages_[idx(slot, 1)] = scratch_adv_[k];
    float* targets = &value_targets_[idx(slot, players_)];
    targets[0] = scratch_ret_[k];
    for (int j = 1; j < players_; ++j) targets[j] = j < table ? final_returns[(seat + j) % table] : 0.0f;
    table_players_[idx(slot, 1)] = static_cast<uint8_t>(table);
    ready_[idx(slot, 1)] = 1;
  }
  ready_count_ += static_cast<int>(count);
  slots.clear();
}

std::vector<int> TrajectoryStore::ready_slots() const {
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(ready_count_));
  for (int s = 0; s < size_; ++s)
    if (ready_[idx(s, 1)]) out.push_back(s);
  return out;
}

void TrajectoryStore::move_slot(int from, int to) {
  std::memcpy(&observations_[idx(to, obs_size_)], &observations_[idx(from, obs_size_)],
              sizeof(float) * obs_size_);
  std::memcpy(&masks_[idx(to, num_actions_)], &masks_[idx(from, num_actions_)], num_actions_);
  actions_[idx(to, 1)] = actions_[idx(from, 1)];
  log_probs_[idx(to, 1)] = log_probs_[idx(from, 1)];
  potentials_[idx(to, 1)] = potentials_[idx(from, 1)];
  seats_[idx(to, 1)] = seats_[idx(from, 1)];
  ready_[idx(to, 1)] = ready_[idx(from, 1)];
  table_players_[idx(to, 1)] = table_players_[idx(from, 1)];
  std::copy_n(&values_[idx(from, players_)], players_, &values_[idx(to, players_)]);
}

void TrajectoryStore::compact() {
  // Pending slots keep their time order, so each env's list is remapped in order.
  std::vector<int> new_index(static_cast<std::size_t>(size_), -1);
  int kept = 0;
  for (int s = 0; s < size_; ++s) {
    if (ready_[idx(s, 1)]) continue;
    if (s != kept) move_slot(s, kept);
    new_index[static_cast<std::size_t>(s)] = kept++;
  }
  for (auto& list : episode_slots_)
    for (int& slot : list) slot = new_index[static_cast<std::size_t>(slot)];
  size_ = kept;
  ready_count_ = 0;
}

}  // namespace rocketgym::ppo
