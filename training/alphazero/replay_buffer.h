// The replay buffer of search-based self-play: positions with the search's
// improved policy and, once the game is over, its outcome.
//
// A ring of `capacity` slots, allocated once. A position is written when its
// move is played (observation of the player to move, legal-action mask,
// policy target) and becomes trainable when its game ends and the outcome is
// known (value target per seat, relative to the player to move). When the ring
// wraps around it overwrites the oldest slots, even those of a game still
// under way: each slot carries a write count, so finishing that game later
// does not touch the slot's new owner.
//
// The buffer is not saved in checkpoints: a resumed run refills it with
// positions of the network it resumes from (replay.min_samples of finished
// games before the first training phase). That keeps checkpoints small
// enough to write every few iterations; it costs a minute of self-play in
// most games, but about ten iterations in Launch Pad, whose long games all
// restart at once and finish together.
#pragma once

#include <cstdint>
#include <vector>

#include "envs/core/rng.h"

namespace rocketgym::alphazero {

class ReplayBuffer {
 public:
  // `num_players`: the width of the value targets (the network's value
  // outputs, one per seat of the largest table); a position's own table may
  // be smaller (finish).
  ReplayBuffer(int capacity, int obs_size, int num_actions, int num_players);

  // A ticket for a written position: where it is and which write it was.
  struct Ticket {
    int32_t slot = -1;
    uint64_t write = 0;
  };

  // Claims the next slot for a position and returns it; fill observation(),
  // mask() and policy() of ticket.slot, then finish() it when the game ends.
  Ticket add();
  // Sets the value target (`table_players` entries, relative to the player
  // to move, the seats beyond the table 0; -1: num_players) and makes the
  // position trainable, unless the slot was overwritten.
  void finish(const Ticket& ticket, const float* values, int table_players = -1);

  float* observation(int slot) { return &observations_[static_cast<std::size_t>(slot) * obs_size_]; }
  uint8_t* mask(int slot) { return &masks_[static_cast<std::size_t>(slot) * num_actions_]; }
  float* policy(int slot) { return &policies_[static_cast<std::size_t>(slot) * num_actions_]; }
  const float* observation(int slot) const {
    return &observations_[static_cast<std::size_t>(slot) * obs_size_];
  }
  const uint8_t* mask(int slot) const { return &masks_[static_cast<std::size_t>(slot) * num_actions_]; }
  const float* policy(int slot) const { return &policies_[static_cast<std::size_t>(slot) * num_actions_]; }
  const float* value(int slot) const { return &values_[static_cast<std::size_t>(slot) * players_]; }
  // The seats at the position's table (its value target's meaningful entries).
  int table_players(int slot) const { return table_players_[static_cast<std::size_t>(slot)]; }
  bool ready(int slot) const { return ready_[static_cast<std::size_t>(slot)] != 0; }

  // Trainable positions now in the buffer.
  int ready_count() const { return ready_count_; }
  int capacity() const { return capacity_; }
  // Draws `count` trainable slots uniformly (with replacement) into `out`.
  // Requires ready_count() > 0.
  void sample(int count, Rng& rng, std::vector<int32_t>& out) const;

  int obs_size() const { return obs_size_; }
  int num_actions() const { return num_actions_; }
  int num_players() const { return players_; }

 private:
  int capacity_, obs_size_, num_actions_, players_;
  uint64_t writes_ = 0;
  int ready_count_ = 0;
  std::vector<float> observations_, policies_, values_;
  std::vector<uint8_t> masks_, ready_, table_players_;
  std::vector<uint64_t> write_of_;  // which write filled each slot
};

}  // namespace rocketgym::alphazero
