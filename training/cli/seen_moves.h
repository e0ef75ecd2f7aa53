// The moves of a recorded game that one seat sees (`rocketgym replay --seat`,
// serve's GET /api/records/<n>?seat=S and its analysis): its own and the
// public ones. Another seat's secret move is left out altogether, its line,
// its number and the position before it alike, since that it happened may
// be the secret (who was asked to block in Rocket Squad, ruling 4 of
// envs/rocket_squad/README.md; a blind draw in The Last Blast, ruling 2 of
// envs/last_blast/README.md). The full board (kFullBoard) sees every move.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/game_record.h"

namespace rocketgym::cli {

// Whether `viewer` sees a move of seat `mover`, public or not (the rule of
// the live tables' logs and versions too: table_server.cpp).
inline bool sees_move(int mover, bool is_public, int viewer) {
  return viewer == kFullBoard || mover == viewer || is_public;
}

// Whether `viewer` sees that `action` is played from `before`.
inline bool sees_move(const AnyState& before, Action action, int viewer) {
  return sees_move(before.current_player(), before.is_public_action(action), viewer);
}

// A seat's numbering of a record: its move j is the record's move at[j];
// its position j is the one before that move, and its last position
// (j == at.size()) the end of the game.
struct SeenMoves {
  std::vector<std::size_t> at;
  std::size_t total = 0;  // the record's moves

  std::size_t count() const { return at.size(); }
  // The record's index of the seat's position j (0 .. count()).
  std::size_t position(std::size_t j) const { return j < at.size() ? at[j] : total; }
};

inline SeenMoves moves_seen_by(const LoadedRecord& loaded, int viewer) {
  SeenMoves seen;
  seen.total = loaded.record.actions.size();
  std::unique_ptr<AnyState> state = loaded.state_at(0);
  for (std::size_t i = 0; i < seen.total; ++i) {
    if (sees_move(*state, loaded.record.actions[i], viewer)) seen.at.push_back(i);
    state->apply(loaded.record.actions[i]);
  }
  return seen;
}

}  // namespace rocketgym::cli
