// `rocketgym export CHECKPOINT OUTPUT`: the weights-only file of a trained
// bot, for the zoo.
#include <cstdio>
#include <memory>
#include <string>

#include "models/checkpoint.h"
#include "training/cli/torch/training_commands.h"
#include "training/mcts/mcts.h"

namespace rocketgym::cli {

namespace {

struct ExportOptions {
  std::string source, target;
  bool float32 = false;
  int simulations = -1;
};

// `rocketgym export`: the weights-only file of a trained bot, for the zoo.
}  // namespace

void add_export_command(CLI::App& app) {
  auto opts = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Write a weights-only copy of a checkpoint (float16 unless --float32), e.g. for models/zoo/<id>.ckpt");
  add_path_option(cmd, "checkpoint", opts->source, "trained checkpoint, e.g. runs/x/checkpoints/latest.ckpt")
      ->required();
  add_path_option(cmd, "output", opts->target, "file to write")->required();
  cmd->add_flag("--float32", opts->float32, "keep float32 weights (twice the size)");
  cmd->add_option("--simulations", opts->simulations,
                  "the bot's recommended search simulations (0 = the raw network; stored for zoo:GAME)")
      ->check(cli::whole_number(0, mcts::kSimulationsRange.max, "0 = the raw network"));
  cmd->callback([opts] {
    report_errors([&] {
      const uint64_t bytes = export_checkpoint(opts->source, opts->target, !opts->float32, opts->simulations);
      std::printf("wrote %s (%.2f MB, %s weights)\n", opts->target.c_str(), static_cast<double>(bytes) / 1e6,
                  opts->float32 ? "float32" : "float16");
    });
  });
}

}  // namespace rocketgym::cli
