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
//   round.ask(seated, [&](std::size_t p) { return names[p]; }, [&](int slot, Action a) { actions[slot] = a;
//   });
//
// An agent's error (a search's non-finite evaluator, a Python agent's bad
// answer) names the agent, whoever asked it: naming_agent.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/quoted.h"
#include "training/players/player.h"

namespace rocketgym::players {

// Runs `act` (asking one agent); an Error from it is thrown again as
// "agent 'NAME': ..." unless it starts so already, `name()` being called
// only then (no string is made per round). An interrupt, not an Error,
// passes as it is.
template <class Name, class Act>
void naming_agent(Name&& name, Act&& act) {
  try {
    act();
  } catch (const Error& e) {
    const std::string prefix = "agent " + quote(name());
    if (std::string_view(e.what()).rfind(prefix, 0) == 0) throw;  // named already
    throw Error(prefix + ": " + e.what());
  }
}

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

  // Every player with decisions waiting, in index order, each in one act()
  // call; then answer(slot, action) for each decision, in the order they
  // were added. `seated[p]` is player p (a pointer, unique_ptr or
  // shared_ptr), `name_of(p)` the agent's name that its errors start with.
  template <class Seated, class NameOf, class Answer>
  void ask(Seated& seated, NameOf&& name_of, Answer&& answer) {
    for (std::size_t p = 0; p < decisions_.size(); ++p) {
      auto& batch = decisions_[p];
      if (batch.empty()) continue;
      naming_agent([&] { return name_of(p); },
                   [&] { seated[p]->act(batch.data(), static_cast<int>(batch.size())); });
      for (std::size_t k = 0; k < batch.size(); ++k) answer(slots_[p][k], batch[k].action);
    }
  }

 private:
  std::vector<std::vector<Decision<G>>> decisions_;  // per player, this round
  std::vector<std::vector<int>> slots_;              // the slot of each
};

}  // namespace rocketgym::players
