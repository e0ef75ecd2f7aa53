// The salts of the random streams that seat players and pick their moves,
// named once. A stream is derive_seed(seed ^ salt, index) (envs/core/rng.h);
// two streams that must never coincide get different salts, and a salt
// names one stream only, so that a game's moves do not depend on who else
// draws from the same seed.
//
// The arena (arena/arena.h), the opponent env (players/opponent_env.h) and
// PPO's opponents (ppo/trainer.h) draw a seat's move from the same streams,
// so that an opponent moves in an env as it would in the arena's game of the
// same seed.
#pragma once

#include <cstdint>

#include "envs/core/rng.h"

namespace rocketgym::streams {

// A player's random stream for a move (sampling, heuristic ties, random
// moves): the game's seed and the move number (every seat's moves counted).
inline constexpr uint64_t kMove = 0xA2E4A5EEDULL;
// A search player's seed for a move: also the player's place in the lineup
// (the arena's agent index, the opponent env's opponent index).
inline constexpr uint64_t kSearch = 0x5EA4C4ULL;
// The opponent env's learner seat when it is drawn per game (seat "random").
inline constexpr uint64_t kLearnerSeat = 0x5EA7ULL;
// The table size of a game where game.players lists several
// (game_setup.h) and the seed of each table size's envs (mixed_vector_env.h).
inline constexpr uint64_t kTableSize = 0x7AB1E5ULL;
// PPO's draw of who sits at each env's table (self-play, the pool, an agent
// of opponents.agents), per update. Another stream than kTableSize (it draws seatings,
// not table sizes); its salt is kept as PPO's runs have always drawn it.
inline constexpr uint64_t kPpoSeating = 0x7AB1EULL;
// The search seeds of PPO's opponents (ppo/opponents.h): one stream per env,
// indexed by the opponent and the step.
inline constexpr uint64_t kPpoSearch = 0x5EA4C4E7ULL;

inline uint64_t move_seed(uint64_t game_seed, uint64_t move) { return derive_seed(game_seed ^ kMove, move); }
inline uint64_t search_seed(uint64_t game_seed, uint64_t player, uint64_t move) {
  return derive_seed(game_seed ^ (kSearch + player), move);
}

}  // namespace rocketgym::streams
