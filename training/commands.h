// The `train` and `arena` subcommands of the rocketgym command line.
//
//   rocketgym train configs/train/launchpad23_ppo.yaml [--minutes 5] [--set ppo.learning_rate=1e-4] ...
//   rocketgym arena configs/arena/launchpad23.yaml [--agent ppo=checkpoint:runs/x/checkpoints/latest.ckpt]
//   ... rocketgym arena --game launchpad23 --agent checkpoint:PATH --agent random --agent heuristic --games
//   200
//
// Any config key can be overridden with --set dotted.key=value (the value is
// read as YAML); the common ones have their own flags.
#pragma once

#include <CLI/CLI.hpp>

#include "training/cli/commands.h"

namespace rocketgym {

void add_training_commands(CLI::App& app);

// The bot of a `rocketgym play` seat given as an agent spec (zoo:GAME,
// search:PATH[:SIMS], checkpoint:PATH...). Throws ConfigError/CheckpointError.
cli::SeatBot make_seat_bot(const std::string& spec, const AnyGame& game, int players);

}  // namespace rocketgym
