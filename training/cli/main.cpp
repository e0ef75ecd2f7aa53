// rocketgym: the command line. Subcommands: list, play, serve, bench, describe, replay (and train,
// arena when the LibTorch training library is built).
#include <CLI/CLI.hpp>
#include <iostream>

#include "envs/core/files.h"
#include "generated/version.h"
#include "training/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"rocketgym: rocket-themed tabletop games as reinforcement-learning environments"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       std::string("rocketgym ") + ROCKETGYM_VERSION + " (commit " + ROCKETGYM_COMMIT + ")");
  rocketgym::cli::add_list_command(app);
#ifdef ROCKETGYM_WITH_TRAINING
  rocketgym::cli::add_play_command(app, rocketgym::make_seat_bot);
  rocketgym::cli::add_serve_command(app, {rocketgym::make_seat_bot, rocketgym::seat_bot_work,
                                          rocketgym::make_zoo_analyst, rocketgym::zoo_seat});
#else
  rocketgym::cli::add_play_command(app);
  rocketgym::cli::add_serve_command(app);
#endif
  rocketgym::cli::add_bench_command(app);
  rocketgym::cli::add_describe_command(app);
  rocketgym::cli::add_replay_command(app);
#ifdef ROCKETGYM_WITH_TRAINING
  rocketgym::add_training_commands(app);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "rocketgym: error: " << rocketgym::files::printable(e.what()) << "\n";
    return 1;
  }
  return 0;
}
