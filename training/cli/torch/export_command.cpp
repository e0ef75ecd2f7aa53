// `rocketgym export CHECKPOINT OUTPUT`: the weights-only file of a trained
// bot, for the zoo.
#include <charconv>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/checkpoint.h"
#include "training/cli/torch/training_commands.h"
#include "training/mcts/mcts.h"
#include "training/table_limits.h"

namespace rocketgym::cli {

namespace {

struct ExportOptions {
  std::string source, target;
  bool float32 = false;
  int simulations = -1;
  std::vector<std::string> simulations_at;  // "P=N": N simulations at P players
};

// "3=16" as {3, 16} (16 simulations at 3 players); false when `text` is not
// PLAYERS=SIMULATIONS in range.
bool read_simulations_at(const std::string& text, std::pair<int, int>& out) {
  const auto eq = text.find('=');
  if (eq == std::string::npos) return false;
  const char* mid = text.data() + eq;
  const char* end = text.data() + text.size();
  const auto [p_end, p_error] = std::from_chars(text.data(), mid, out.first);
  const auto [s_end, s_error] = std::from_chars(mid + 1, end, out.second);
  return p_error == std::errc() && p_end == mid && out.first >= 1 && out.first <= kLargestTableInput &&
         s_error == std::errc() && s_end == end && out.second >= 0 &&
         out.second <= mcts::kSimulationsRange.max;
}

// The --simulations-at settings (already checked one by one by the option),
// refused when two name the same table size (which would win is not for the
// order of the arguments to decide) or a size the checkpoint `source` does not
// serve (no table of that size can seat it: the recommendation would never be
// read).
std::vector<std::pair<int, int>> simulations_by_players(const std::vector<std::string>& texts,
                                                        const std::string& source) {
  std::vector<std::pair<int, int>> by_players;
  if (texts.empty()) return by_players;
  const CheckpointMeta meta = read_checkpoint_meta(source);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    std::pair<int, int> setting;
    read_simulations_at(texts[i], setting);
    const std::string players = std::to_string(setting.first);
    for (std::size_t j = 0; j < i; ++j)
      if (by_players[j].first == setting.first)
        throw Error("--simulations-at " + texts[i] + ": " + players +
                    " players is already set by --simulations-at " + texts[j] +
                    " (one recommendation per table size)");
    if (!meta.serves(setting.first))
      throw Error("--simulations-at " + texts[i] + ": checkpoint '" + source + "' serves " +
                  player_counts_text(meta.served_players()) + ", not " + players);
    by_players.push_back(setting);
  }
  return by_players;
}

}  // namespace

// `rocketgym export`: the weights-only file of a trained bot, for the zoo.
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
  cmd->add_option("--simulations-at", opts->simulations_at,
                  "PLAYERS=SIMULATIONS: the recommended search at that table size, over --simulations "
                  "(repeatable, e.g. --simulations-at 3=16 --simulations-at 4=0)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            std::pair<int, int> setting;
            if (read_simulations_at(text, setting)) return "";
            return "must be PLAYERS=SIMULATIONS (players 1 to " + std::to_string(kLargestTableInput) +
                   ", simulations 0 to " + std::to_string(mcts::kSimulationsRange.max) + "), not '" + text +
                   "'";
          },
          "PLAYERS=SIMULATIONS"));
  cmd->callback([opts] {
    report_errors([&] {
      const auto by_players = simulations_by_players(opts->simulations_at, opts->source);
      const uint64_t bytes =
          export_checkpoint(opts->source, opts->target, !opts->float32, opts->simulations, by_players);
      std::printf("wrote %s (%.2f MB, %s weights)\n", opts->target.c_str(), static_cast<double>(bytes) / 1e6,
                  opts->float32 ? "float32" : "float16");
    });
  });
}

}  // namespace rocketgym::cli
