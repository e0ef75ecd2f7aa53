// The limits on the size of a table and of an arena, each named once.
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

// The limits on an arena's size (arena/schedule.h checks them), each defined
// once: the command line, the YAML and Python refuse more through these (the
// arena key `games` takes its range from kMaxScheduledGames, arena_run.cpp).
// An arena keeps every game's result (and with records, its moves) until it
// writes its tables, so a run's memory grows with its games: a million games
// is a few hundred MB, and days of play for any agent that searches; more is
// a typo, refused before anything is allocated. The training's matches
// (eval_games, gating's games) are arenas too and take the same cap.
inline constexpr int kMaxArenaAgents = 100;
inline constexpr int kMaxScheduledGames = 1 << 20;

}  // namespace rocketgym
