#include "training/arena/arena_run.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <system_error>

#include "generated/game_list.h"
#include "models/checkpoint.h"
#include "training/arena/arena.h"
#include "training/arena/arena_ranks.h"
#include "training/progress_line.h"
#include "training/run_support.h"

namespace rocketgym::arena {

ArenaConfig ArenaConfig::from_yaml(const ConfigNode& root) {
  root.expect_keys({"game", "agents", "games", "seed", "parallel", "threads", "device", "output", "plot"});
  ArenaConfig c;
  c.game = GameSetup::from_yaml(root.child("game"));
  // No agents: the command line gives them (--agent).
  if (root.has("agents")) {
    const ConfigNode agents = root.child("agents");
    if (!agents.is_sequence()) root.fail_key("agents", "must be a list of agents");
    for (const ConfigNode& a : agents.items()) c.agents.push_back(players::parse_player(a));
  }
  c.games = root.get_int("games", c.games, 1, 10'000'000);
  c.seed = static_cast<uint64_t>(root.get_int("seed", 1, 0, 2'000'000'000));
  c.parallel = root.get_int("parallel", c.parallel, 1, 1 << 16);
  c.threads = root.get_int("threads", c.threads, 1, 256);
  c.device = root.get_choice("device", c.device, {"cpu", "cuda"});
  c.output = root.get_string("output", c.output);
  if (c.output.empty()) root.fail_key("output", "must name a folder, not be empty");
  c.plot = root.get_bool("plot", c.plot);
  return c;
}

Json ArenaConfig::to_json() const {
  Json agents_doc = Json::array();
  for (const auto& a : agents) agents_doc.push_back(players::to_json(a));
  return Json{{"game", game.to_json()}, {"agents", agents_doc}, {"games", games},   {"seed", seed},
              {"parallel", parallel},   {"threads", threads},   {"device", device}, {"output", output}};
}

namespace {

// Resolves every player (zoo bots, search specs) and loads the networks they
// need, checked against this game.
void load_networks(std::vector<players::PlayerSpec>& agents, const AnyGame& game, int players,
                   torch::Device device) {
  const auto shape = game.observation_shape(players);
  for (auto& a : agents) players::resolve(a, game.info().id, players, shape, game.info().num_actions, device);
}

}  // namespace

ArenaRun play_arena(const ArenaConfig& config, bool verbose, const dist::Context& context) {
  if (config.agents.empty())
    throw Error("arena: no agents (give them in the config's agents: list or with --agent)");
  const torch::Device device = parse_device(config.device);
  set_torch_threads(config.threads);
  std::vector<players::PlayerSpec> agents = config.agents;
  players::name_players(agents);
  use_rank0_files(agents, context);
  const std::shared_ptr<AnyGame> game = config.game.load();
  load_networks(agents, *game, config.game.players, device);
  const auto schedule =
      make_schedule(static_cast<int>(agents.size()), config.game.players, config.games, config.seed);
  std::vector<std::string> names;
  for (const auto& a : agents) names.push_back(a.name);

  const auto started = std::chrono::steady_clock::now();
  auto last_print = started;
  // In place on a terminal, a line every 2 seconds otherwise (and at the end).
  ProgressLine line(verbose ? ProgressLine::mode_for(stderr) : ProgressLine::Mode::kQuiet);
  auto progress = [&](int done, int total) {
    if (!verbose) return;
    const auto now = std::chrono::steady_clock::now();
    if (done != total && now - last_print < std::chrono::seconds(2)) return;
    last_print = now;
    const double elapsed = std::chrono::duration<double>(now - started).count();
    const double rate = done / std::max(elapsed, 1e-9);
    char status[160];
    std::snprintf(status, sizeof(status), "arena: %d/%d games  %.1f games/s  ETA %s", done, total, rate,
                  format_duration((total - done) / std::max(rate, 1e-9)).c_str());
    line.show(status);
    if (done == total) line.finish();
  };

  ArenaOptions options;
  options.parallel = config.parallel;
  options.threads = config.threads;
  options.device = device;
  ArenaRun run;
  run.games = visit_game(config.game.id, [&](auto g) {
    using G = decltype(g);
    Arena<G> arena(typed_config<G>(*game), config.game.players, agents, options);
    return play_on_ranks(arena, schedule, context, progress);
  });
  if (context.is_root()) run.report = analyze(run.games, names, config.game.players);
  return run;
}

std::unique_ptr<RunFolderLock> prepare_arena_output(const ArenaConfig& config) {
  const std::filesystem::path dir(config.output);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!std::filesystem::is_directory(dir))
    throw Error("arena output folder '" + config.output + "' cannot be created" +
                (error ? ": " + error.message() : std::string(": it is not a folder")));
  auto lock = std::make_unique<RunFolderLock>(config.output, "arena output folder");
  const std::filesystem::path probe = dir / (".rocketgym_write_test_" + std::to_string(::getpid()));
  bool written = false;
  {
    std::ofstream out(probe);
    written = static_cast<bool>(out << "probe\n" << std::flush);
  }
  std::filesystem::remove(probe, error);
  if (!written) throw Error("cannot write files in the arena output folder '" + config.output + "'");
  for (const char* name : {"table.txt", "report.json", "agents.csv", "head_to_head.csv", "seats.csv",
                           "games.csv", "arena.png"}) {
    const std::filesystem::path file = dir / name;
    if (std::filesystem::exists(file) && !std::ofstream(file, std::ios::app))  // app: leaves it as it is
      throw Error("cannot replace '" + file.string() + "' in the arena output folder");
  }
  return lock;
}

void write_arena_outputs(const ArenaConfig& config, const ArenaRun& run) {
  std::filesystem::create_directories(config.output);
  write_csv(run.report, run.games, config.output);
  Json doc = report_to_json(run.report);
  doc["config"] = config.to_json();
  write_text_file(config.output + "/report.json", doc.dump(1) + "\n");
  write_text_file(config.output + "/table.txt", format_table(run.report));
  if (config.plot) run_plot_script("arena", config.output + "/report.json", config.output + "/arena.png");
}

}  // namespace rocketgym::arena
