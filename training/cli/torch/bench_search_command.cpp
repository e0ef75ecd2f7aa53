// `rocketgym bench-search CONFIG`: simulations and leaf evaluations per
// second of search-based self-play, and the share of that time in the network.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "envs/core/json.h"
#include "envs/core/parallel.h"
#include "training/alphazero/search_bench.h"
#include "training/alphazero/train_config.h"
#include "training/cli/torch/training_commands.h"

namespace rocketgym::cli {

namespace {

struct BenchSearchOptions {
  std::string config, checkpoint, threads, games, simulations;
  Overrides overrides;
  double seconds = 30.0, warmup = 5.0;
  bool json = false;
};

// `rocketgym bench-search`: simulations and leaf evaluations per second of
// search-based self-play, and the share of that time in the network.
}  // namespace

void add_bench_search_command(CLI::App& app) {
  auto opts = std::make_shared<BenchSearchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench-search", "Measure search-based self-play: simulations/s, leaf evaluations/s, network share");
  add_path_option(cmd, "config", opts->config,
                  "search-based training config, e.g. configs/train/last_blast_alphazero.yaml", true)
      ->required();
  add_path_option(cmd, "--checkpoint", opts->checkpoint,
                  "search with these weights (default: fresh network)");
  cmd->add_option("--seconds", opts->seconds, "measured time")->check(cli::number(1, 1e6));
  cmd->add_option("--warmup", opts->warmup, "unmeasured time first")->check(cli::number(0, 1e6));
  cmd->add_option("--threads", opts->threads, "CPU threads (run.threads)")
      ->check(cli::whole_number(1, kMaxThreads));
  CLI::Option* envs = cmd->add_option("--envs", opts->games, "games searched together (selfplay.games)")
                          ->check(cli::whole_number(1, kMaxEnvs));
  add_old_name(cmd, envs, "--games", opts->games)->check(cli::whole_number(1, kMaxEnvs));
  cmd->add_option("--simulations", opts->simulations, "simulations per search (search.simulations)")
      ->check(cli::whole_number(mcts::kSimulationsRange.min, mcts::kSimulationsRange.max));
  cmd->add_option("--set", opts->overrides.sets, "override any config key: dotted.key=value (repeatable)");
  cmd->add_flag("--json", opts->json, "machine-readable output");
  cmd->callback([opts] {
    report_errors([&] {
      Overrides o = opts->overrides;
      if (!opts->threads.empty()) o.add("run.threads", opts->threads, "--threads");
      if (!opts->games.empty()) o.add("selfplay.games", opts->games, "--envs");
      if (!opts->simulations.empty()) o.add("search.simulations", opts->simulations, "--simulations");
      const ConfigNode root = load_with_overrides(opts->config, o);
      if (alphazero::training_algorithm(root) != "alphazero")
        throw ConfigError(opts->config + ": bench-search needs a search-based config (algorithm: alphazero)");
      const alphazero::TrainConfig config = alphazero::TrainConfig::from_yaml(root);
      const auto r = alphazero::bench_search(config, opts->checkpoint, opts->seconds, opts->warmup);
      const Json result = {{"game", config.game.id},
                           {"players", config.game.players},
                           {"games", config.games},
                           {"simulations_per_search", config.search.simulations},
                           {"threads", config.threads},
                           {"seconds", r.seconds},
                           {"simulations_per_s", r.simulations_per_second()},
                           {"leaf_evaluations_per_s", r.leaves_per_second()},
                           {"decisions_per_s", r.decisions / r.seconds},
                           {"mean_batch", r.mean_batch()},
                           {"network_share", r.network_share()}};
      if (opts->json) {
        std::cout << result.dump(2) << "\n";
        return;
      }
      std::printf(
          "%s, %d players: %d games searched together, %d simulations per search, %d threads, %.1f s\n"
          "  simulations/s        %12.0f\n  leaf evaluations/s   %12.0f\n  decisions/s          %12.1f\n"
          "  mean batch           %12.1f\n  network forward      %11.1f%% of self-play time\n",
          config.game.id.c_str(), config.game.players, config.games, config.search.simulations,
          config.threads, r.seconds, r.simulations_per_second(), r.leaves_per_second(),
          r.decisions / r.seconds, r.mean_batch(), 100.0 * r.network_share());
    });
  });
}

}  // namespace rocketgym::cli
