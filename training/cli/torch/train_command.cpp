// `rocketgym train CONFIG [--minutes M] [--set key=value] ...`: PPO or
// search-based self-play (the config's algorithm:), resuming the run folder's
// run if there is one.
#include <csignal>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "envs/core/parallel.h"
#include "training/alphazero/trainer.h"
#include "training/cli/torch/training_commands.h"
#include "training/ppo/trainer.h"

namespace rocketgym::cli {

namespace {

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

// The keys of a block of the PPO config (train_config.cpp).
const KeyTable<ppo::TrainConfig>& ppo_block_keys(const std::string& name) {
  for (const auto& block : ppo::TrainConfig::schema().blocks())
    if (block.name == name) return block.keys;
  throw std::logic_error("no block '" + name + "' in the PPO config");
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto opts = std::make_shared<TrainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "train",
      "Train a policy-value network by PPO self-play or search-based self-play (algorithm: alphazero)");
  add_path_option(cmd, "config", opts->config, "training config, e.g. configs/train/launchpad23_ppo.yaml",
                  true)
      ->required();
  cmd->add_option("--set", opts->overrides.sets, "override any config key: dotted.key=value (repeatable)");
  add_path_option(cmd, "--run-dir", opts->run_dir, "run folder (run.dir); an existing run there is resumed");
  // Each flag is another name of a config key: its range is the key's (the
  // key tables of config_yaml.cpp and train_config.cpp), checked again when
  // the config is read.
  const auto& budget = ppo_block_keys("budget");
  cmd->add_option("--minutes", opts->minutes, "wall-clock budget of this invocation (budget.minutes)")
      ->check(cli::number_key(budget, "minutes", "0 = no time limit"));
  cmd->add_option("--steps", opts->steps, "total learner decisions (budget.steps)")
      ->check(cli::number_key(budget, "steps"));
  cmd->add_option("--seed", opts->seed, "run.seed")->check(cli::seed());
  cmd->add_option("--threads", opts->threads, "CPU threads for LibTorch and the envs (run.threads)")
      ->check(cli::whole_key(run_keys(), "threads"));
  cmd->add_option("--envs", opts->envs, "games played together (ppo.envs or selfplay.games)")
      ->check(cli::whole_key(ppo_block_keys("ppo"), "envs"));
  cmd->add_option("--device", opts->device, "cpu or cuda (run.device)");
  cmd->add_flag("--quiet", opts->quiet,
                "no progress (default: a status line updated in place on a terminal, one line per update "
                "otherwise)");
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
      // The config is read once; --envs then names the games played
      // together, whichever trainer plays them.
      ConfigNode root = load_with_overrides(opts->config, o);
      const bool search_based = alphazero::training_algorithm(root) == "alphazero";
      if (!opts->envs.empty()) {
        Overrides envs;
        envs.add(search_based ? "selfplay.games" : "ppo.envs", opts->envs, "--envs");
        root = root.merged(envs.node());
      }
      std::optional<alphazero::TrainConfig> az_config;
      std::optional<ppo::TrainConfig> ppo_config;
      if (search_based)
        az_config = alphazero::TrainConfig::from_yaml(root);
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

}  // namespace rocketgym::cli
