// SeatRound<G>: one round of asking the players at many tables for their
// moves, the one seat loop of the arena (arena/arena.h), the opponent env
// (opponent_env.h) and PPO's opponents (ppo/trainer.h).
//
// A round gathers, per player, the decisions waiting for it (each with the
// slot it came from: a game in flight, an env), then asks each player for
// all of its decisions in one act() call, players in index order, and hands
// every answer back with its slot. A network player thus runs one batched
// forward pass per round. The decisions' random streams and search seeds are
// the caller's (seed_streams.h), so a move does not depend on the round it
// was asked in. Nothing is allocated once reserve() has room for every slot.
//
//   round.reserve(players, slots);
//   round.clear();
//   round.add(player, slot, {&state, seat, &rng, streams::search_seed(seed, player, move)});
//   round.ask(seated, [&](int slot, Action a) { actions[slot] = a; });
#pragma once

#include <cstddef>
#include <vector>

#include "training/players/player.h"

namespace rocketgym::players {

template <class G>
class SeatRound {
 public:
  // Room for `slots` decisions per player, for `players` players.
  void reserve(std::size_t players, std::size_t slots) {
    decisions_.resize(players);
    slots_.resize(players);
    for (std::size_t p = 0; p < players; ++p) {
      decisions_[p].reserve(slots);
      slots_[p].reserve(slots);
    }
  }
  // Starts a round: no decision waits.
  void clear() {
    for (auto& d : decisions_) d.clear();
    for (auto& s : slots_) s.clear();
  }
  // Decision `d` of slot `slot` waits for player `player`.
  void add(std::size_t player, int slot, const Decision<G>& d) {
    decisions_[player].push_back(d);
    slots_[player].push_back(slot);
  }
  bool waits_for(std::size_t player) const { return !decisions_[player].empty(); }

  // Asks `player` (index `p` of the round) for its decisions in one call and
  // calls answer(slot, action) for each, in the order they were added.
  template <class Answer>
  void ask(std::size_t p, Player<G>& player, Answer&& answer) {
    auto& batch = decisions_[p];
    if (batch.empty()) return;
    player.act(batch.data(), static_cast<int>(batch.size()));
    for (std::size_t k = 0; k < batch.size(); ++k) answer(slots_[p][k], batch[k].action);
  }
  // Every player with decisions waiting, in index order; `seated[p]` is
  // player p (a pointer, unique_ptr or shared_ptr).
  template <class Seated, class Answer>
  void ask(Seated& seated, Answer&& answer) {
    for (std::size_t p = 0; p < decisions_.size(); ++p)
      if (waits_for(p)) ask(p, *seated[p], answer);
  }

 private:
  std::vector<std::vector<Decision<G>>> decisions_;  // per player, this round
  std::vector<std::vector<int>> slots_;              // the slot of each
};

}  // namespace rocketgym::players
