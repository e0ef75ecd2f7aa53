// The limits on the size of a table, each named once.
#pragma once

namespace rocketgym {

// The most seats at a table of any game of this build (every game's
// GameInfo::max_players is at most this): the size of the arrays per seat of
// the arena's records (arena/results.h), PPO's seatings (ppo/trainer.h) and
// its returns (ppo/gae.cpp). The arena's schedule refuses more players.
inline constexpr int kMaxSeats = 8;

// The largest table size a number typed on the command line or in a file may
// name (--players, a zoo manifest's table sizes, export's PLAYERS=): a bound
// on the input only; each game then refuses a size it does not seat, with a
// message naming its own.
inline constexpr int kLargestTableInput = 64;

}  // namespace rocketgym
