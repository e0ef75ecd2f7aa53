// `rocketgym bench`: random-play throughput of a game, measured on the
// concrete types (no virtual call per step), as a user's loop would run.
//
// Figures (modes), each in steps (decisions) per second, one thread unless said:
//   single          one state: legal mask, a random legal action, apply, reset at the end
//   single_obs      the same, and the current player's observation encoded after each step
//   vector_1        VectorEnv<G> of --envs envs (observations + masks), 1 thread
//   vector_2        the same with 2 threads
//   async_1         AsyncVectorEnv<G> of --envs envs in batches of half of them: recv, random
//                   legal actions of the batch, send; 1 thread (the caller steps every env)
//   async_2         the same with 2 threads (a worker and the caller)
//   heuristic       one state played by the game's heuristic bot on every seat: its decision and the step
// scripts/bench.sh runs these for every game into JSON, scripts/bench_compare.sh compares two runs.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>

#include "envs/core/async_vector_env.h"
#include "envs/core/game_model.h"
#include "envs/core/observation_size.h"
#include "envs/core/parallel.h"
#include "envs/core/vector_env.h"
#include "generated/game_list.h"
#include "training/cli/commands.h"
#include "training/cli/options.h"
#include "training/table_limits.h"

namespace rocketgym::cli {
namespace {

struct Mode {
  const char* name;  // for --modes
  const char* key;   // in the JSON output
  const char* label;
};

const Mode kModes[] = {
    {"single", "single_steps_per_s", "single env, 1 thread, no observation"},
    {"single_obs", "single_encoded_steps_per_s", "single env, 1 thread, with observation"},
    {"vector_1", "vector_1_thread_steps_per_s", "vector env (obs + mask), 1 thread"},
    {"vector_2", "vector_2_threads_steps_per_s", "vector env (obs + mask), 2 threads"},
    {"async_1", "async_1_thread_steps_per_s", "async env (batches of envs/2), 1 thread"},
    {"async_2", "async_2_threads_steps_per_s", "async env (batches of envs/2), 2 threads"},
    {"heuristic", "heuristic_decisions_per_s", "heuristic bot on every seat, 1 thread"},
};

struct BenchOptions {
  std::string game;
  int players = 2;
  long steps = 1000000;
  int envs = 256;
  uint64_t seed = 1;
  int repeat = 1;
  std::vector<std::string> modes;  // empty: all
  bool json = false;
  std::string config_file;
  std::vector<std::string> settings;

  bool wants(const Mode& m) const {
    return modes.empty() || std::find(modes.begin(), modes.end(), m.name) != modes.end();
  }
};

// kModes' entry of that name.
const Mode& mode(const std::string& name) {
  for (const Mode& m : kModes)
    if (name == m.name) return m;
  throw Error("no bench mode " + name);
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The measurements stay out of line so that a profiler can single them out
// (valgrind --tool=callgrind --toggle-collect='*single_env_steps_per_second*', docs/benchmarks.md).

// One game stepped on one thread: random legal actions, reset at the end.
template <class G>
[[gnu::noinline]] double single_env_steps_per_second(const typename G::Config& config,
                                                     const BenchOptions& opt, bool encode) {
  using State = typename G::State;
  const int actions = G::info().num_actions;
  std::vector<uint8_t> mask(static_cast<std::size_t>(actions));
  const int obs_size = observation_size<G>(config, opt.players);
  std::vector<float> obs(static_cast<std::size_t>(obs_size));
  Rng rng(opt.seed);
  State state(config, opt.players, opt.seed);
  uint64_t episode = 0;
  const auto start = Clock::now();
  for (long step = 0; step < opt.steps; ++step) {
    if (state.is_terminal()) state = State(config, opt.players, derive_seed(opt.seed, ++episode));
    state.legal_actions_mask(mask.data());
    // The vector env's pick (the same action as listing the legal ones and drawing an index).
    state.apply(random_legal_action(mask.data(), actions, rng));
    if (encode && !state.is_terminal()) G::Encoder::encode(state, state.current_player(), obs.data());
  }
  return static_cast<double>(opt.steps) / seconds_since(start);
}

template <class G>
[[gnu::noinline]] double vector_env_steps_per_second(std::shared_ptr<const typename G::Config> config,
                                                     const BenchOptions& opt, int threads) {
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

// The async env's loop: the batch of the first envs/2 ready envs, their random
// legal actions, send. Counts the steps received (not the restarts of the start).
template <class G>
[[gnu::noinline]] double async_env_steps_per_second(std::shared_ptr<const typename G::Config> config,
                                                    const BenchOptions& opt, int threads) {
  const int batch = std::max(1, opt.envs / 2);
  AsyncVectorEnv<G> env(std::move(config), opt.envs, opt.players, opt.seed, threads, batch);
  std::vector<Action> actions(static_cast<std::size_t>(batch));
  // The first envs / batch recv()s return the restarts: the steps received are the rest.
  const long restarts = (opt.envs + batch - 1) / batch;
  const long batches = restarts + std::max(1L, opt.steps / batch);
  const auto start = Clock::now();
  for (long b = 0; b < batches; ++b) {
    const AsyncBatch ready = env.batch(env.recv());
    env.sample_random_actions(actions.data());
    env.send(actions.data(), ready.env_ids, batch);
  }
  const long steps = batches * batch - opt.envs;
  return static_cast<double>(steps) / seconds_since(start);
}

// The game's heuristic bot plays every seat; each decision is the bot's choice and its step.
template <class G>
[[gnu::noinline]] double heuristic_decisions_per_second(const typename G::Config& config,
                                                        const BenchOptions& opt) {
  using State = typename G::State;
  Rng rng(opt.seed);
  State state(config, opt.players, opt.seed);
  uint64_t episode = 0;
  const auto start = Clock::now();
  for (long step = 0; step < opt.steps; ++step) {
    if (state.is_terminal()) state = State(config, opt.players, derive_seed(opt.seed, ++episode));
    state.apply(G::heuristic_action(state, rng));
  }
  return static_cast<double>(opt.steps) / seconds_since(start);
}

// The fastest of --repeat runs: on a shared machine the slower ones measure the other load.
template <class F>
double best_of(int repeat, F&& run) {
  double best = 0.0;
  for (int r = 0; r < repeat; ++r) best = std::max(best, run());
  return best;
}

void bench(const BenchOptions& opt) {
  auto any = load_game(opt.game, opt.config_file, ConfigNode::from_settings(opt.settings));
  any->check_players(opt.players);
  nlohmann::json result = {{"game", opt.game},     {"players", opt.players},
                           {"steps", opt.steps},   {"envs", opt.envs},
                           {"repeat", opt.repeat}, {"hardware_threads", std::thread::hardware_concurrency()}};
  visit_game(opt.game, [&](auto game) {
    using G = decltype(game);
    const auto config = dynamic_cast<const GameModel<G>&>(*any).config();
    auto measure = [&](const Mode& m, auto run) {
      if (opt.wants(m)) result[m.key] = best_of(opt.repeat, run);
    };
    measure(mode("single"), [&] { return single_env_steps_per_second<G>(*config, opt, false); });
    measure(mode("single_obs"), [&] { return single_env_steps_per_second<G>(*config, opt, true); });
    measure(mode("vector_1"), [&] { return vector_env_steps_per_second<G>(config, opt, 1); });
    measure(mode("vector_2"), [&] { return vector_env_steps_per_second<G>(config, opt, 2); });
    measure(mode("async_1"), [&] { return async_env_steps_per_second<G>(config, opt, 1); });
    measure(mode("async_2"), [&] { return async_env_steps_per_second<G>(config, opt, 2); });
    measure(mode("heuristic"), [&] { return heuristic_decisions_per_second<G>(*config, opt); });
    return 0;
  });
  if (opt.json) {
    std::cout << result.dump(2) << "\n";
    return;
  }
  std::cout << opt.game << ", " << opt.players << " players, " << opt.steps << " steps"
            << (opt.repeat > 1 ? ", best of " + std::to_string(opt.repeat) : std::string()) << "\n";
  for (const Mode& m : kModes) {
    if (!result.contains(m.key)) continue;
    std::string label = m.label;
    const std::string name = m.name;
    if (name.rfind("vector", 0) == 0 || name.rfind("async", 0) == 0)
      label += ", " + std::to_string(opt.envs) + " envs";
    std::cout << "  " << std::left << std::setw(52) << label << std::right << std::setw(14) << std::fixed
              << std::setprecision(0) << result[m.key].get<double>() << " steps/s\n";
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto opt = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand("bench", "Measure random-play and heuristic-bot throughput of a game");
  cmd->add_option("game", opt->game, "Game id")->required();
  cmd->add_option("-p,--players", opt->players, "Number of players")
      ->check(whole_number(1, kLargestTableInput));
  cmd->add_option("--steps", opt->steps, "Steps per measurement")->check(whole_number(1, 1'000'000'000'000));
  cmd->add_option("--envs", opt->envs, "Games played together (envs in the vector env)")
      ->check(whole_number(1, kMaxEnvs));
  cmd->add_option("--seed", opt->seed, "Seed")->check(seed());
  cmd->add_option("--repeat", opt->repeat, "Runs per figure; the fastest is reported")
      ->check(whole_number(1, 100));
  std::vector<std::string> names;
  for (const Mode& m : kModes) names.emplace_back(m.name);
  cmd->add_option("--modes", opt->modes, "Figures to measure (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember(names));
  cmd->add_flag("--json", opt->json, "Machine-readable output");
  add_path_option(cmd, "--config", opt->config_file, "Game config YAML");
  cmd->add_option("--set", opt->settings, "Override a config key, e.g. --set max_turns=50");
  cmd->callback([opt] { bench(*opt); });
}

}  // namespace rocketgym::cli
