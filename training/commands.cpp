#include "training/commands.h"

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/errors.h"
#include "envs/core/json.h"
#include "models/checkpoint.h"
#include "training/alphazero/az_trainer.h"
#include "training/alphazero/search_bench.h"
#include "training/arena/arena_run.h"
#include "training/cli/number_checks.h"
#include "training/distributed/distributed.h"
#include "training/distributed/same_config.h"
#include "training/players/any_player.h"
#include "training/ppo/trainer.h"

namespace rocketgym {

// A zoo file's recommended simulations feed the search: the checkpoint reader
// (models/, below the search) keeps its own copy of the search's limit.
static_assert(kMaxZooSimulations == mcts::kSimulationsRange.max);

namespace {

// The overriding flags: each becomes a dotted key=value, labelled with what
// the user typed so that a bad value is reported as "--players 9".
struct Overrides {
  std::vector<std::string> sets;  // --set dotted.key=value
  std::vector<ConfigNode::Setting> flags;

  void add(const std::string& key, const std::string& value, const std::string& flag) {
    flags.push_back({key + "=" + value, flag + " " + value});
  }
  // A text value (a path, a name) is quoted: YAML would read "a: b" as a mapping.
  void add_text(const std::string& key, const std::string& value, const std::string& flag) {
    flags.push_back({key + "=" + Json(value).dump(), flag + " " + value});
  }

  bool empty() const { return sets.empty() && flags.empty(); }

  ConfigNode node() const {
    std::vector<ConfigNode::Setting> all;
    for (const auto& s : sets) all.push_back({s, "--set " + s});
    all.insert(all.end(), flags.begin(), flags.end());
    return ConfigNode::from_labelled_settings(all);
  }
};

ConfigNode load_with_overrides(const std::string& file, const Overrides& overrides) {
  ConfigNode base = file.empty() ? ConfigNode(YAML::Node(YAML::NodeType::Map), "<command line>", "")
                                 : ConfigNode::load_file(file);
  if (!base.is_map()) base.fail("the config must be a mapping");
  return overrides.empty() ? base : base.merged(overrides.node());
}

// Our errors become a message and exit status 1 (CLI11 exits with it).
template <class F>
void report_errors(F&& body) {
  try {
    body();
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    throw CLI::RuntimeError(1);
  } catch (const std::logic_error& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  } catch (const c10::Error& e) {
    std::cerr << "LibTorch error: " << e.msg() << "\n";
    throw CLI::RuntimeError(1);
  }
}

// Under torchrun (WORLD_SIZE etc. set): this process's place in the job.
// Started alone: a one-process context, without any network setup.
// `timeout` is --rank-timeout as typed (empty: the default).
dist::Context join_ranks(const std::string& timeout) {
  const int seconds = timeout.empty() ? dist::kDefaultTimeoutSeconds : std::stoi(timeout);
  return dist::Context::from_environment(std::chrono::seconds(seconds));
}

void add_rank_timeout(CLI::App* cmd, std::string& seconds) {
  cmd->add_option("--rank-timeout", seconds,
                  "under torchrun: seconds a rank waits for the others before stopping with an error")
      ->check(cli::whole_number(1, 7 * 24 * 3600));
}

// The arena keys each rank may set for itself: its resources, and what only
// rank 0 uses (the output folder, the plot).
const std::vector<std::string> kArenaRankLocalKeys{"threads", "device", "parallel", "output", "plot"};

extern "C" void on_interrupt(int) {
  stop_requested = true;
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C stops at once
}

// Numeric flags are kept as typed (empty: not given): checked here, then
// handed to the config, which checks them again against its own ranges.
struct TrainOptions {
  std::string config;
  Overrides overrides;
  std::string run_dir, device;
  std::string minutes, steps, seed, threads, envs;  // as typed; empty: not given
  std::string rank_timeout;
  bool quiet = false;
};

void add_train(CLI::App& app) {
  auto opts = std::make_shared<TrainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "train",
      "Train a policy-value network by PPO self-play or search-based self-play (algorithm: alphazero)");
  cmd->add_option("config", opts->config, "training config, e.g. configs/train/launchpad23_ppo.yaml")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--set", opts->overrides.sets, "override any config key: dotted.key=value (repeatable)");
  cmd->add_option("--run-dir", opts->run_dir, "run folder (run.dir); an existing run there is resumed");
  cmd->add_option("--minutes", opts->minutes, "wall-clock budget of this invocation (budget.minutes)")
      ->check(cli::number(0, 1e7, "0 = no time limit"));
  cmd->add_option("--steps", opts->steps, "total learner decisions (budget.steps)")
      ->check(cli::number(1, 1e15));
  cmd->add_option("--seed", opts->seed, "run.seed")
      ->check(cli::whole_number(0, std::numeric_limits<int>::max()));
  cmd->add_option("--threads", opts->threads, "CPU threads for LibTorch and the envs (run.threads)")
      ->check(cli::whole_number(1, 256));
  cmd->add_option("--envs", opts->envs, "games played together (ppo.envs or selfplay.games)")
      ->check(cli::whole_number(1, 1 << 16));
  cmd->add_option("--device", opts->device, "cpu or cuda (run.device)");
  cmd->add_flag("--quiet", opts->quiet, "no progress lines");
  add_rank_timeout(cmd, opts->rank_timeout);
  cmd->callback([opts] {
    report_errors([&] {
      Overrides o = opts->overrides;
      auto flag = [&](const std::string& text, const char* key, const char* name) {
        if (!text.empty()) o.add(key, text, name);
      };
      if (!opts->run_dir.empty()) o.add_text("run.dir", opts->run_dir, "--run-dir");
      if (!opts->device.empty()) o.add_text("run.device", opts->device, "--device");
      flag(opts->minutes, "budget.minutes", "--minutes");
      flag(opts->steps, "budget.steps", "--steps");
      flag(opts->seed, "run.seed", "--seed");
      flag(opts->threads, "run.threads", "--threads");
      const bool search_based =
          alphazero::training_algorithm(load_with_overrides(opts->config, o)) == "alphazero";
      // --envs: the games played together, whichever trainer plays them.
      flag(opts->envs, search_based ? "selfplay.games" : "ppo.envs", "--envs");
      const ConfigNode root = load_with_overrides(opts->config, o);
      std::optional<alphazero::AzConfig> az_config;
      std::optional<ppo::TrainConfig> ppo_config;
      if (search_based)
        az_config = alphazero::AzConfig::from_yaml(root);
      else
        ppo_config = ppo::TrainConfig::from_yaml(root);
      const std::string run_dir = search_based ? az_config->run_dir : ppo_config->run_dir;
      const dist::Context ranks = join_ranks(opts->rank_timeout);
      const bool verbose = !opts->quiet && ranks.is_root();  // rank 0 speaks for the run
      std::signal(SIGINT, on_interrupt);
      const TrainSummary s = search_based ? alphazero::run_alphazero(*az_config, verbose, ranks)
                                          : ppo::run_training(*ppo_config, verbose, ranks);
      std::signal(SIGINT, SIG_DFL);
      if (!ranks.is_root()) return;
      std::printf("%s %s: %lld %s in %lld %s, %lld games; %.0f positions/s this session (%s%s)\n",
                  stop_requested ? "interrupted" : "finished", run_dir.c_str(),
                  static_cast<long long>(s.steps), search_based ? "self-play positions" : "learner steps",
                  static_cast<long long>(s.updates), search_based ? "iterations" : "updates",
                  static_cast<long long>(s.episodes), s.samples_per_second,
                  format_duration(s.seconds).c_str(),
                  ranks.single() ? "" : (", ranks: " + std::to_string(ranks.size())).c_str());
      if (s.eval_vs_random >= 0)
        std::printf("last evaluation (raw network, greedy): %.1f%% vs random, %.1f%% vs heuristic\n",
                    100 * s.eval_vs_random, 100 * s.eval_vs_heuristic);
      std::printf("checkpoint: %s (resume: run the same command again)\n", s.checkpoint.c_str());
    });
  });
}

struct ArenaOptionsCli {
  std::string config, game, output, device;
  std::vector<std::string> agents;
  Overrides overrides;
  std::string players, games, seed, parallel, threads;  // as typed; empty: not given
  std::string rank_timeout;
  bool no_plot = false, quiet = false;
};

void add_arena(CLI::App& app) {
  auto opts = std::make_shared<ArenaOptionsCli>();
  CLI::App* cmd = app.add_subcommand("arena", "Play agents against each other in every seat and rate them");
  cmd->add_option("config", opts->config, "arena config, e.g. configs/arena/launchpad23.yaml (optional)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--agent", opts->agents,
                  "[NAME=]random | heuristic | checkpoint:PATH[:greedy|:sample] | PATH.ckpt | "
                  "ismcts[:SIMULATIONS[:PATH|:heuristic[:PLAYOUTS]]] | search:PATH[:SIMULATIONS] | "
                  "zoo:GAME[:SIMULATIONS] (repeatable; replaces the config's agents)");
  cmd->add_option("--game", opts->game, "game id (game.id)");
  cmd->add_option("--players", opts->players, "players per game (game.players)")
      ->check(cli::whole_number(1, arena::kMaxSeats));
  cmd->add_option("--games", opts->games, "seeds per lineup; each is played in every seat rotation")
      ->check(cli::whole_number(1, 10'000'000));
  cmd->add_option("--seed", opts->seed, "seed")->check(cli::whole_number(0, 2'000'000'000));
  cmd->add_option("--parallel", opts->parallel, "games in flight")->check(cli::whole_number(1, 1 << 16));
  cmd->add_option("--threads", opts->threads, "CPU threads")->check(cli::whole_number(1, 256));
  cmd->add_option("--device", opts->device, "cpu or cuda");
  CLI::Option* output =
      cmd->add_option("--output", opts->output, "folder for table.txt, report.json, CSVs and arena.png");
  cmd->add_option("--set", opts->overrides.sets, "override any config key: dotted.key=value (repeatable)");
  cmd->add_flag("--no-plot", opts->no_plot, "skip arena.png");
  cmd->add_flag("--quiet", opts->quiet, "no progress line");
  add_rank_timeout(cmd, opts->rank_timeout);
  cmd->callback([opts, output] {
    report_errors([&] {
      Overrides o = opts->overrides;
      auto flag = [&](const std::string& text, const char* key, const char* name) {
        if (!text.empty()) o.add(key, text, name);
      };
      if (!opts->game.empty()) o.add_text("game.id", opts->game, "--game");
      flag(opts->players, "game.players", "--players");
      flag(opts->games, "games", "--games");
      flag(opts->seed, "seed", "--seed");
      flag(opts->parallel, "parallel", "--parallel");
      flag(opts->threads, "threads", "--threads");
      if (!opts->device.empty()) o.add_text("device", opts->device, "--device");
      if (output->count() > 0) o.add_text("output", opts->output, "--output");  // "" too: refused
      if (opts->no_plot) o.add("plot", "false", "--no-plot");
      if (opts->config.empty() && opts->game.empty())
        throw ConfigError("arena: give a config file or --game");
      const ConfigNode root = load_with_overrides(opts->config, o);
      arena::ArenaConfig config = arena::ArenaConfig::from_yaml(root);
      if (!opts->agents.empty()) {
        config.agents.clear();
        for (const auto& text : opts->agents) config.agents.push_back(players::parse_player(text));
      }
      const dist::Context ranks = join_ranks(opts->rank_timeout);
      // The ranks play one schedule: they must agree on the config and the
      // agents (the --agent texts replace the config's list).
      YAML::Node shared = YAML::Clone(root.yaml());
      if (!opts->agents.empty()) shared["agents"] = opts->agents;
      dist::require_same_config(ranks, shared, kArenaRankLocalKeys);
      // Rank 0 alone writes the results; a bad or busy --output fails now,
      // not after every game, and stays locked until the results are written.
      std::unique_ptr<RunFolderLock> output_lock;
      if (ranks.is_root()) output_lock = arena::prepare_arena_output(config);
      const arena::ArenaRun run = arena::play_arena(config, !opts->quiet && ranks.is_root(), ranks);
      if (!ranks.is_root()) return;  // rank 0 has every game
      arena::write_arena_outputs(config, run);
      std::printf(
          "%s\nresults in %s (table.txt, report.json, agents.csv, head_to_head.csv, seats.csv, "
          "games.csv%s)%s\n",
          arena::format_table(run.report).c_str(), config.output.c_str(), config.plot ? ", arena.png" : "",
          ranks.single() ? "" : (", ranks: " + std::to_string(ranks.size())).c_str());
    });
  });
}

struct ExportOptions {
  std::string source, target;
  bool float32 = false;
  int simulations = -1;
};

// `rocketgym export`: the weights-only file of a trained bot, for the zoo.
void add_export(CLI::App& app) {
  auto opts = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Write a weights-only copy of a checkpoint (float16 unless --float32), e.g. for models/zoo/<id>.ckpt");
  cmd->add_option("checkpoint", opts->source, "trained checkpoint, e.g. runs/x/checkpoints/latest.ckpt")
      ->required();
  cmd->add_option("output", opts->target, "file to write")->required();
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

struct BenchSearchOptions {
  std::string config, checkpoint, threads, games, simulations;
  Overrides overrides;
  double seconds = 30.0, warmup = 5.0;
  bool json = false;
};

// `rocketgym bench-search`: simulations and leaf evaluations per second of
// search-based self-play, and the share of that time in the network.
void add_bench_search(CLI::App& app) {
  auto opts = std::make_shared<BenchSearchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench-search", "Measure search-based self-play: simulations/s, leaf evaluations/s, network share");
  cmd->add_option("config", opts->config,
                  "search-based training config, e.g. configs/train/last_blast_az.yaml")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--checkpoint", opts->checkpoint, "search with these weights (default: fresh network)");
  cmd->add_option("--seconds", opts->seconds, "measured time")->check(cli::number(1, 1e6));
  cmd->add_option("--warmup", opts->warmup, "unmeasured time first")->check(cli::number(0, 1e6));
  cmd->add_option("--threads", opts->threads, "CPU threads (run.threads)")->check(cli::whole_number(1, 256));
  cmd->add_option("--games", opts->games, "games searched together (selfplay.games)")
      ->check(cli::whole_number(1, 1 << 16));
  cmd->add_option("--simulations", opts->simulations, "simulations per search (search.simulations)")
      ->check(cli::whole_number(mcts::kSimulationsRange.min, mcts::kSimulationsRange.max));
  cmd->add_option("--set", opts->overrides.sets, "override any config key: dotted.key=value (repeatable)");
  cmd->add_flag("--json", opts->json, "machine-readable output");
  cmd->callback([opts] {
    report_errors([&] {
      Overrides o = opts->overrides;
      if (!opts->threads.empty()) o.add("run.threads", opts->threads, "--threads");
      if (!opts->games.empty()) o.add("selfplay.games", opts->games, "--games");
      if (!opts->simulations.empty()) o.add("search.simulations", opts->simulations, "--simulations");
      const ConfigNode root = load_with_overrides(opts->config, o);
      if (alphazero::training_algorithm(root) != "alphazero")
        throw ConfigError(opts->config + ": bench-search needs a search-based config (algorithm: alphazero)");
      const alphazero::AzConfig config = alphazero::AzConfig::from_yaml(root);
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

}  // namespace

cli::SeatBot make_seat_bot(const std::string& spec, const AnyGame& game, int players) {
  std::shared_ptr<players::AnyPlayer> agent =
      players::make_any_player(players::parse_player(spec), game, players);
  return [agent](const AnyState& state, uint64_t seed) { return agent->act(state, seed); };
}

void add_training_commands(CLI::App& app) {
  add_train(app);
  add_arena(app);
  add_export(app);
  add_bench_search(app);
}

}  // namespace rocketgym
