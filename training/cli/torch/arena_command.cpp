// `rocketgym arena [CONFIG] --agent ... [--games N]`: agents against each
// other in every seat, rated; results in the output folder.
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/files.h"
#include "envs/core/parallel.h"
#include "training/arena/arena_run.h"
#include "training/cli/torch/training_commands.h"
#include "training/distributed/same_config.h"
#include "training/players/player_spec.h"
#include "training/run_support.h"

namespace rocketgym::cli {

namespace {

// The arena keys each rank may set for itself: its resources, and what only
// rank 0 uses (the output folder, the plot).
const std::vector<std::string> kArenaRankLocalKeys{"threads", "device", "parallel", "output", "plot"};

struct ArenaOptionsCli {
  std::string config, game, output, device, records;
  std::vector<std::string> agents;
  Overrides overrides;
  std::string players, games, seed, parallel, threads;  // as typed; empty: not given
  std::string rank_timeout;
  bool no_plot = false, quiet = false, continue_records = false;
};

}  // namespace

void add_arena_command(CLI::App& app) {
  auto opts = std::make_shared<ArenaOptionsCli>();
  CLI::App* cmd = app.add_subcommand("arena", "Play agents against each other in every seat and rate them");
  add_path_option(cmd, "config", opts->config, "arena config, e.g. configs/arena/launchpad23.yaml (optional)",
                  true);
  cmd->add_option("--agent", opts->agents,
                  "[NAME=]" + players::agent_grammar() + " (repeatable; replaces the config's agents)");
  cmd->add_option("--game", opts->game, "game id (game.id)");
  cmd->add_option("--players", opts->players, "players per game (game.players)")
      ->check(cli::whole_number(1, kMaxSeats));
  // Each flag is another name of a key of the arena's table (ArenaConfig::keys): its range is the key's.
  const auto& keys = arena::ArenaConfig::keys();
  cmd->add_option("--games", opts->games, "seeds per lineup; each is played in every seat rotation")
      ->check(cli::whole_key(keys, "games"));
  cmd->add_option("--seed", opts->seed, "seed")->check(cli::seed());
  CLI::Option* envs = cmd->add_option("--envs", opts->parallel, "games played together (parallel)")
                          ->check(cli::whole_key(keys, "parallel"));
  add_old_name(cmd, envs, "--parallel", opts->parallel)->check(cli::whole_key(keys, "parallel"));
  cmd->add_option("--threads", opts->threads, "CPU threads")->check(cli::whole_key(keys, "threads"));
  cmd->add_option("--device", opts->device, "cpu or cuda");
  CLI::Option* output =
      add_path_option(cmd, "--output", opts->output, "folder for table.txt, report.json, CSVs and arena.png");
  CLI::Option* records = add_path_option(
      cmd, "--records", opts->records,
      "write every game as one JSON line to this file (records), each as it ends; an existing file is "
      "refused unless --continue-records");
  cmd->add_flag("--continue-records", opts->continue_records,
                "continue the --records file of an interrupted arena (continue_records): its games are "
                "kept, the others played");
  cmd->add_option("--set", opts->overrides.sets, "override any config key: dotted.key=value (repeatable)");
  cmd->add_flag("--no-plot", opts->no_plot, "skip arena.png");
  cmd->add_flag("--quiet", opts->quiet,
                "no progress (default: a status line updated in place on a terminal, a line every few "
                "seconds otherwise)");
  add_rank_timeout(cmd, opts->rank_timeout);
  cmd->callback([opts, output, records] {
    report_errors([&] {
      Overrides o = opts->overrides;
      auto flag = [&](const std::string& text, const char* key, const char* name) {
        if (!text.empty()) o.add(key, text, name);
      };
      if (!opts->game.empty()) o.add_text("game.id", opts->game, "--game");
      flag(opts->players, "game.players", "--players");
      flag(opts->games, "games", "--games");
      flag(opts->seed, "seed", "--seed");
      flag(opts->parallel, "parallel", "--envs");
      flag(opts->threads, "threads", "--threads");
      if (!opts->device.empty()) o.add_text("device", opts->device, "--device");
      if (output->count() > 0) o.add_text("output", opts->output, "--output");  // "" too: refused
      if (opts->no_plot) o.add("plot", "false", "--no-plot");
      if (records->count() > 0) o.add_text("records", opts->records, "--records");
      if (opts->continue_records) o.add("continue_records", "true", "--continue-records");
      if (opts->config.empty() && opts->game.empty())
        throw ConfigError("arena: give a config file or --game");
      const ConfigNode root = load_with_overrides(opts->config, o);
      arena::ArenaConfig config = arena::ArenaConfig::from_yaml(root);
      if (!opts->agents.empty()) {
        config.agents.clear();
        for (const auto& text : opts->agents) config.agents.push_back(players::parse_player(text));
      }
      // The records file is none of the arena's other files (the file rule, envs/core/files.h).
      arena::check_arena_files(config, opts->config);
      const dist::Context ranks = join_ranks(opts->rank_timeout);
      if (config.continue_records && !ranks.single())
        throw ConfigError(
            "--continue-records: continue a records file with one process (not under torchrun): the ranks "
            "would have to agree on the games it holds");
      // The ranks play one schedule: they must agree on the config and the
      // agents (the --agent texts replace the config's list).
      YAML::Node shared = YAML::Clone(root.yaml());
      if (!opts->agents.empty()) shared["agents"] = opts->agents;
      dist::require_same_config(ranks, shared, kArenaRankLocalKeys);
      // Rank 0 alone writes the results; a bad or busy --output fails now,
      // not after every game, and stays locked until the results are written.
      // The records file too: an existing one is refused before any game
      // (unless continued), and the games are written to it as they end.
      std::unique_ptr<RunFolderLock> output_lock;
      std::unique_ptr<arena::RecordsFile> records_file;
      if (ranks.is_root()) {
        output_lock = arena::prepare_arena_output(config);
        records_file = arena::claim_records_file(config);
      }
      const arena::ArenaRun run =
          arena::play_arena(config, !opts->quiet && ranks.is_root(), ranks, records_file.get());
      if (!ranks.is_root()) return;  // rank 0 has every game
      arena::write_arena_outputs(config, run);
      std::printf(
          "%s\nresults in %s (table.txt, report.json, agents.csv, head_to_head.csv, seats.csv, "
          "games.csv%s)%s%s\n",
          files::printable(arena::format_table(run.report)).c_str(), config.output.c_str(),
          config.plot ? ", arena.png" : "",
          config.records.empty() ? "" : (", records in " + config.records).c_str(),
          ranks.single() ? "" : (", ranks: " + std::to_string(ranks.size())).c_str());
    });
  });
}

}  // namespace rocketgym::cli
