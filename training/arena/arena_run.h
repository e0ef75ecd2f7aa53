// `rocketgym arena`: the arena configuration (configs/arena/*.yaml), loading
// the agents for any registered game and writing the results.
//
//   game: {id: launchpad23, players: 2}   # see training/game_setup.h
//   agents: [...]                          # see training/players/player_spec.h
//   games: 100        # seeds per lineup; each seed is played in every seat rotation
//   seed: 1
//   parallel: 64      # games in flight
//   threads: 2        # CPU threads (agents and LibTorch)
//   device: cpu       # cpu | cuda (networks)
//   output: runs/arena/launchpad23
//   plot: true        # arena.png next to the tables (needs /usr/bin/python3 with matplotlib)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "training/arena/results.h"
#include "training/distributed/distributed.h"
#include "training/game_setup.h"
#include "training/players/player_spec.h"
#include "training/run_support.h"

namespace rocketgym::arena {

struct ArenaConfig {
  GameSetup game;
  std::vector<players::PlayerSpec> agents;
  int games = 100;
  uint64_t seed = 1;
  int parallel = 64;
  int threads = 2;
  std::string device = "cpu";
  std::string output = "runs/arena";
  bool plot = true;

  static ArenaConfig from_yaml(const ConfigNode& root);
  Json to_json() const;
};

struct ArenaRun {
  ArenaReport report;
  std::vector<GameRecord> games;
};

// Creates config.output, locks it (the run-folder lock, <output>/.lock) and
// checks that the result files can be written there (a probe file, and any
// result file already there), so that a bad output folder, or one another
// arena or training is using, is an Error before the games are played, not
// after. Keep the lock until write_arena_outputs() is done.
[[nodiscard]] std::unique_ptr<RunFolderLock> prepare_arena_output(const ArenaConfig& config);
// Plays the whole schedule; prints progress to stderr when `verbose`. In a
// distributed run every rank calls it and plays its part of the schedule
// (arena_ranks.h); rank 0 gets the whole run, the others an empty one.
ArenaRun play_arena(const ArenaConfig& config, bool verbose, const dist::Context& context = {});
// The table, report.json, CSVs and the plot in config.output; an Error names
// the file that could not be written.
void write_arena_outputs(const ArenaConfig& config, const ArenaRun& run);

}  // namespace rocketgym::arena
