// `rocketgym bench`: random-play throughput of a game, measured on the
// concrete types (no virtual call per step), as a user's loop would run.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>

#include "envs/core/game_model.h"
#include "envs/core/vector_env.h"
#include "generated/game_list.h"
#include "training/cli/commands.h"
#include "training/cli/number_checks.h"

namespace rocketgym::cli {
namespace {

struct BenchOptions {
  std::string game;
  int players = 2;
  long steps = 1000000;
  int envs = 256;
  uint64_t seed = 1;
  bool json = false;
  std::string config_file;
  std::vector<std::string> settings;
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One game stepped on one thread: random legal actions, reset at the end.
template <class G>
double single_env_steps_per_second(const typename G::Config& config, const BenchOptions& opt, bool encode) {
  using State = typename G::State;
  const int actions = G::info().num_actions;
  std::vector<uint8_t> mask(static_cast<std::size_t>(actions));
  int obs_size = 1;
  for (int d : G::Encoder::shape(config, opt.players)) obs_size *= d;
  std::vector<float> obs(static_cast<std::size_t>(obs_size));
  std::vector<Action> legal(static_cast<std::size_t>(actions));
  Rng rng(opt.seed);
  State state(config, opt.players, opt.seed);
  uint64_t episode = 0;
  const auto start = Clock::now();
  for (long step = 0; step < opt.steps; ++step) {
    if (state.is_terminal()) state = State(config, opt.players, derive_seed(opt.seed, ++episode));
    state.legal_actions_mask(mask.data());
    int count = 0;
    for (int a = 0; a < actions; ++a)
      if (mask[static_cast<std::size_t>(a)]) legal[static_cast<std::size_t>(count++)] = a;
    state.apply(legal[rng.below(static_cast<uint32_t>(count))]);
    if (encode && !state.is_terminal()) G::Encoder::encode(state, state.current_player(), obs.data());
  }
  return static_cast<double>(opt.steps) / seconds_since(start);
}

template <class G>
double vector_env_steps_per_second(std::shared_ptr<const typename G::Config> config, const BenchOptions& opt,
                                   int threads) {
  VectorEnv<G> env(std::move(config), opt.envs, opt.players, opt.seed, threads);
  std::vector<Action> actions(static_cast<std::size_t>(opt.envs));
  const long batches = std::max(1L, opt.steps / opt.envs);
  const auto start = Clock::now();
  for (long b = 0; b < batches; ++b) {
    env.sample_random_actions(actions.data());
    env.step(actions.data());
  }
  return static_cast<double>(batches * opt.envs) / seconds_since(start);
}

void bench(const BenchOptions& opt) {
  auto any = load_game(opt.game, opt.config_file, ConfigNode::from_settings(opt.settings));
  any->check_players(opt.players);
  nlohmann::json result = {{"game", opt.game},
                           {"players", opt.players},
                           {"steps", opt.steps},
                           {"envs", opt.envs},
                           {"hardware_threads", std::thread::hardware_concurrency()}};
  visit_game(opt.game, [&](auto game) {
    using G = decltype(game);
    const auto config = dynamic_cast<const GameModel<G>&>(*any).config();
    result["single_steps_per_s"] = single_env_steps_per_second<G>(*config, opt, false);
    result["single_encoded_steps_per_s"] = single_env_steps_per_second<G>(*config, opt, true);
    result["vector_1_thread_steps_per_s"] = vector_env_steps_per_second<G>(config, opt, 1);
    result["vector_2_threads_steps_per_s"] = vector_env_steps_per_second<G>(config, opt, 2);
    return 0;
  });
  if (opt.json) {
    std::cout << result.dump(2) << "\n";
    return;
  }
  std::cout << opt.game << ", " << opt.players << " players, random legal actions, " << opt.steps
            << " steps\n";
  auto row = [&](const char* label, const char* key) {
    std::cout << "  " << std::left << std::setw(44) << label << std::right << std::setw(14) << std::fixed
              << std::setprecision(0) << result[key].get<double>() << " steps/s\n";
  };
  row("single env, 1 thread, no observation", "single_steps_per_s");
  row("single env, 1 thread, with observation", "single_encoded_steps_per_s");
  const std::string v = "vector env (" + std::to_string(opt.envs) + " envs, obs + mask), ";
  row((v + "1 thread").c_str(), "vector_1_thread_steps_per_s");
  row((v + "2 threads").c_str(), "vector_2_threads_steps_per_s");
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto opt = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand("bench", "Measure random-play throughput of a game");
  cmd->add_option("game", opt->game, "Game id")->required();
  cmd->add_option("-p,--players", opt->players, "Number of players")->check(whole_number(1, 64));
  cmd->add_option("--steps", opt->steps, "Steps per measurement")->check(whole_number(1, 1'000'000'000'000));
  cmd->add_option("--envs", opt->envs, "Envs in the vector env")->check(whole_number(1, 1 << 16));
  cmd->add_option("--seed", opt->seed, "Seed")->check(whole_number(0, std::numeric_limits<int64_t>::max()));
  cmd->add_flag("--json", opt->json, "Machine-readable output");
  cmd->add_option("--config", opt->config_file, "Game config YAML");
  cmd->add_option("--set", opt->settings, "Override a config key, e.g. --set max_turns=50");
  cmd->callback([opt] { bench(*opt); });
}

}  // namespace rocketgym::cli
