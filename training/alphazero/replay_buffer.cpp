#include "training/alphazero/replay_buffer.h"

#include <algorithm>

#include "envs/core/errors.h"

namespace rocketgym::alphazero {

ReplayBuffer::ReplayBuffer(int capacity, int obs_size, int num_actions, int num_players)
    : capacity_(capacity), obs_size_(obs_size), num_actions_(num_actions), players_(num_players) {
  if (capacity < 1 || obs_size < 1 || num_actions < 1 || num_players < 1 || num_players > 255)
    throw Error("replay buffer: capacity and sizes must be positive (at most 255 value seats)");
  const auto n = static_cast<std::size_t>(capacity);
  observations_.assign(n * obs_size_, 0.0f);
  policies_.assign(n * num_actions_, 0.0f);
  values_.assign(n * players_, 0.0f);
  masks_.assign(n * num_actions_, 0);
  ready_.assign(n, 0);
  table_players_.assign(n, 0);
  write_of_.assign(n, 0);
}

ReplayBuffer::Ticket ReplayBuffer::add() {
  Ticket t;
  t.slot = static_cast<int32_t>(writes_ % static_cast<uint64_t>(capacity_));
  t.write = ++writes_;
  const auto s = static_cast<std::size_t>(t.slot);
  if (ready_[s]) --ready_count_;
  ready_[s] = 0;
  write_of_[s] = t.write;
  return t;
}

void ReplayBuffer::finish(const Ticket& ticket, const float* values, int table_players) {
  if (ticket.slot < 0 || ticket.slot >= capacity_) throw Error("replay buffer: bad ticket");
  if (table_players < 0) table_players = players_;
  if (table_players < 1 || table_players > players_)
    throw Error("replay buffer: a table of " + std::to_string(table_players) +
                " players, the value targets have " + std::to_string(players_) + " seats");
  const auto s = static_cast<std::size_t>(ticket.slot);
  if (write_of_[s] != ticket.write || ready_[s]) return;  // overwritten by a newer position
  std::copy_n(values, table_players, &values_[s * players_]);
  std::fill_n(&values_[s * players_ + static_cast<std::size_t>(table_players)], players_ - table_players,
              0.0f);
  table_players_[s] = static_cast<uint8_t>(table_players);
  ready_[s] = 1;
  ++ready_count_;
}

void ReplayBuffer::sample(int count, Rng& rng, std::vector<int32_t>& out) const {
  if (ready_count_ == 0) throw Error("replay buffer: no trainable position yet");
  out.clear();
  const auto filled = static_cast<uint32_t>(std::min<uint64_t>(writes_, static_cast<uint64_t>(capacity_)));
  // Rejection sampling: positions of games under way are a small share.
  while (static_cast<int>(out.size()) < count) {
    const auto slot = static_cast<int32_t>(rng.below(filled));
    if (ready_[static_cast<std::size_t>(slot)]) out.push_back(slot);
  }
}

}  // namespace rocketgym::alphazero
