// rocketgym: the command line. Subcommands: list, play, serve, bench, describe, replay (and train,
// arena when the LibTorch training library is built).
#include <CLI/CLI.hpp>
#include <iostream>

#include "envs/core/files.h"
#include "envs/core/quoted.h"
#include "generated/version.h"
#include "training/cli/commands.h"

namespace {

// CLI11 builds its messages ("--modes: X not in {...}", "The following
// arguments were not expected: X") from the arguments as typed: each long or
// hostile one is shown by the one quoting rule (envs/core/quoted.h) instead.
std::string shorten_arguments(std::string message, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view typed = argv[i];
    // "--modes=X" reaches the message as X.
    for (const std::string_view argument : {typed, typed.substr(typed.find('=') + 1)}) {
      const std::string shown = rocketgym::shortened(argument);
      if (argument.empty() || shown == argument) continue;
      for (std::size_t at = message.find(argument); at != std::string::npos;
           at = message.find(argument, at + shown.size()))
        message.replace(at, argument.size(), shown);
    }
  }
  return message;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rocketgym: rocket-themed tabletop games as reinforcement-learning environments"};
  app.require_subcommand(1);
  app.failure_message([argc, argv](const CLI::App* failed, const CLI::Error& e) {
    return shorten_arguments(CLI::FailureMessage::simple(failed, e), argc, argv);
  });
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
