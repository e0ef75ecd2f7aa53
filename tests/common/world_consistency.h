// Resampled worlds against the viewer's history (issue 29).
//
// A resampled world (AnyState::redeterminize(viewer)) must be a position the
// viewer could be in after everything it saw. The engines keep their own
// knowledge model for that; this check is independent of it: while a random
// game is played, a per-game WorldObserver written in the test code is shown
// every transition (state before, action, state after: the test is the
// referee and sees everything) and records the facts its viewer has observed
// in the rulebook's sense ("the new draw pile is made of these discards",
// "the card I lost to Jack is in that hand", "of the two specialists I passed,
// at most one went on"). At random moves, for a random viewer, and right after
// a viewer learns a new fact, many worlds are drawn and each must keep every fact, give the viewer the same
// observation and text view as the real game, and pass the game's invariants.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/game.h"

namespace rocketgym::testing {

// A recorded fact that a world breaks.
struct BrokenFact {
  std::string fact;    // the kind of fact, in the rulebook's words (failures are summed up by it)
  std::string detail;  // this instance: the cards, the seats, what the world has instead
};

// What one seat has seen of one game, as facts about where the cards are.
class WorldObserver {
 public:
  virtual ~WorldObserver() = default;
  // Records what the viewer learnt from `action` taking `before` to `after`.
  // Returns whether that made or changed a fact: the driver then checks worlds
  // for this viewer at once, besides the checks at random moves (a fact may
  // live only a few moves, e.g. until its card is built face down as a box).
  virtual bool observe(const AnyState& before, Action action, const AnyState& after) = 0;
  // Appends every recorded fact that `world` breaks.
  virtual void check(const AnyState& world, std::vector<BrokenFact>& broken) const = 0;
};

using WorldObserverFactory = std::unique_ptr<WorldObserver> (*)(int viewer, int num_players);

// Per-game observers register themselves (tests/common/worlds/<id>_world.cpp).
bool register_world_observer(const std::string& game_id, WorldObserverFactory factory);

struct WorldOptions {
  int num_games = 25;   // seeded random playouts
  int worlds = 4;       // resampled worlds per check
  int check_every = 4;  // on average, one check every this many decisions
  uint64_t seed = 20261125;
};

// Plays the games and checks the worlds. Fails the current Catch2 test case at
// once where a world fails the generic checks (check_resampled_world) or where
// the real game breaks an observer's fact (a test bug); broken facts are
// counted over all games and reported at the end, one line per kind of fact
// with its first instance (game seed, move, viewer, world seed).
void run_world_consistency(const std::string& game_id, int num_players, const WorldOptions& options);

}  // namespace rocketgym::testing
