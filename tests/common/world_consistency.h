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
//
// Random playouts from the start seldom reach some rare moves (Launch Pad's
// Recycle Bin with the cards that matter among its ten). A game's observer
// file may register positions (register_world_positions): the driver plays
// from each of them too, for its player count, its opening moves first (the
// rare move), then random moves, every viewer following from that position.
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
  // Called once before the first move: `first` is the position the viewer
  // follows from; `new_game`: it is a game's start (new_state), not a
  // registered position whose past the viewer has not seen.
  virtual void begin(const AnyState& first, bool new_game) {
    (void)first;
    (void)new_game;
  }
};

using WorldObserverFactory = std::unique_ptr<WorldObserver> (*)(int viewer, int num_players);

// Per-game observers register themselves (tests/common/worlds/<id>_world.cpp).
bool register_world_observer(const std::string& game_id, WorldObserverFactory factory);

// A position to play from besides the start: its state (a state document read
// by AnyGame::state_from_json; `seed` varies its chance, e.g. its random
// stream, from playout to playout) and the opening moves played from it
// before the random ones.
struct WorldPosition {
  std::string name;  // what it is there for, in failure reports
  int num_players = 2;
  std::string (*document)(const AnyGame& game, uint64_t seed) = nullptr;
  std::vector<Action> opening;
};
bool register_world_positions(const std::string& game_id, std::vector<WorldPosition> (*positions)());

struct WorldOptions {
  int num_games = 25;       // seeded random playouts
  int view_games = 25;      // of which this many also compare the worlds' browser views
                            // (at most ROCKETGYM_CONFORMANCE_DEEP_GAMES: full_check_games)
  int worlds = 4;           // resampled worlds per check
  int check_every = 4;      // on average, one check every this many decisions
  int position_games = 12;  // playouts from each registered position
  uint64_t seed = 20261125;
};

// Plays the games (from the start, then from the registered positions of
// this player count) and checks the worlds. Fails the current Catch2 test case at
// once where a world fails the generic checks (check_resampled_world) or where
// the real game breaks an observer's fact (a test bug); broken facts are
// counted over all games and reported at the end, one line per kind of fact
// with its first instance (game seed, move, viewer, world seed).
void run_world_consistency(const std::string& game_id, int num_players, const WorldOptions& options);

}  // namespace rocketgym::testing
