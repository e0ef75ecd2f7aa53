#include "training/arena/arena_run.h"

#include <fcntl.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
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
  root.expect_keys({"game", "agents", "games", "seed", "parallel", "threads", "device", "output", "plot",
                    "records", "one_vs_each"});
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
  c.records = root.get_string("records", c.records);
  c.one_vs_each = root.get_string("one_vs_each", c.one_vs_each);
  return c;
}

Json ArenaConfig::to_json() const {
  Json agents_doc = Json::array();
  for (std::size_t a = 0; a < agents.size(); ++a)
    agents_doc.push_back(is_supplied(a) ? Json{{"name", agents[a].name}, {"kind", "external"}}
                                        : players::to_json(agents[a]));
  Json doc{{"game", game.to_json()}, {"agents", agents_doc}, {"games", games},
           {"seed", seed},           {"parallel", parallel}, {"threads", threads},
           {"device", device},       {"output", output},     {"records", records}};
  if (!one_vs_each.empty()) doc["one_vs_each"] = one_vs_each;
  return doc;
}

namespace {

// Resolves every player (zoo bots, search specs) but the supplied ones and
// loads the networks they need, checked against this game.
void load_networks(std::vector<players::PlayerSpec>& agents, const ArenaConfig& config, const AnyGame& game,
                   torch::Device device) {
  const int players = config.game.players;
  const auto shape = game.observation_shape(players);
  for (std::size_t a = 0; a < agents.size(); ++a) {
    if (config.is_supplied(a)) continue;
    // An error names the agent, keeping its type (a bad file stays a CheckpointError).
    const std::string who = "agent '" + agents[a].name + "': ";
    try {
      players::resolve(agents[a], game.info().id, players, shape, game.info().num_actions, device);
    } catch (const CheckpointError& e) {
      throw CheckpointError(who + e.what());
    } catch (const ConfigError& e) {
      throw ConfigError(who + e.what());
    } catch (const Error& e) {
      throw Error(who + e.what());
    }
  }
}

// A YAML scalar as JSON: a number, true/false or null when it reads as one
// unquoted, else a string.
Json scalar_to_json(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted
  if (text == "true" || text == "false") return text == "true";
  if (text == "null" || text == "~" || text.empty()) return nullptr;
  const Json number = Json::parse(text, nullptr, false);
  if (number.is_number()) return number;
  return text;
}

Json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& entry : node) out[entry.first.Scalar()] = yaml_to_json(entry.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(yaml_to_json(item));
      return out;
    }
    case YAML::NodeType::Scalar:
      return scalar_to_json(node);
    default:
      return nullptr;
  }
}

// The game's config as a record holds it: the overrides of the default
// config, or, with a config file of its own, the whole resolved config.
std::string record_config(const GameSetup& game) {
  if (!game.config_file.empty()) return yaml_to_json(YAML::Load(game.resolved_config_text())).dump();
  if (game.overrides.is_null()) return "{}";
  return yaml_to_json(game.overrides.yaml()).dump();
}

}  // namespace

ArenaSetup set_up_arena(const ArenaConfig& config, const dist::Context& context) {
  if (config.agents.empty())
    throw Error("arena: no agents (give them in the config's agents: list or with --agent)");
  ArenaSetup setup;
  setup.options.device = parse_device(config.device);
  setup.options.parallel = config.parallel;
  setup.options.threads = config.threads;
  set_torch_threads(config.threads);
  setup.agents = config.agents;
  players::name_players(setup.agents);
  use_rank0_files(setup.agents, context);
  setup.game = config.game.load();
  load_networks(setup.agents, config, *setup.game, setup.options.device);
  int one_vs_each = -1;
  if (!config.one_vs_each.empty()) {
    std::string names;
    for (std::size_t a = 0; a < setup.agents.size(); ++a) {
      if (setup.agents[a].name == config.one_vs_each) one_vs_each = static_cast<int>(a);
      names += (a ? ", " : "") + setup.agents[a].name;
    }
    if (one_vs_each < 0)
      throw ConfigError("one_vs_each: no agent named '" + config.one_vs_each + "' (the agents: " + names +
                        ")");
    if (setup.agents.size() < 2)
      throw ConfigError("one_vs_each: '" + config.one_vs_each + "' has no one to play");
  }
  setup.schedule = make_schedule(static_cast<int>(setup.agents.size()), config.game.players, config.games,
                                 config.seed, one_vs_each);
  return setup;
}

ArenaRun finish_arena(const ArenaConfig& config, const ArenaSetup& setup, std::vector<GameRecord> games,
                      const std::vector<std::vector<Action>>& moves, const dist::Context& context) {
  ArenaRun run;
  if (!context.is_root()) return run;
  std::vector<std::string> names;
  for (const auto& a : setup.agents) names.push_back(a.name);
  run.report = analyze(games, names, config.game.players);
  if (!config.records.empty()) {
    const std::string game_config = record_config(config.game);
    run.records.reserve(games.size());
    for (std::size_t k = 0; k < games.size(); ++k) {
      const GameRecord& g = games[k];
      RecordedGame r;
      r.game = config.game.id;
      r.config = game_config;
      r.seed = g.seed;
      r.num_players = g.num_players;
      for (int s = 0; s < g.num_players; ++s) {
        r.players.push_back(names[static_cast<std::size_t>(g.agent[static_cast<std::size_t>(s)])]);
        r.returns.push_back(g.returns[static_cast<std::size_t>(s)]);
      }
      r.actions = moves[k];
      run.records.push_back(std::move(r));
    }
  }
  run.games = std::move(games);
  return run;
}

ArenaRun play_arena(const ArenaConfig& config, bool verbose, const dist::Context& context) {
  const ArenaSetup setup = set_up_arena(config, context);
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
  return visit_game(config.game.id, [&](auto g) {
    using G = decltype(g);
    return play_arena_typed<G>(config, setup, {}, progress, context);
  });
}

RecordsFile::RecordsFile(std::string path) : path_(std::move(path)) {
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST)
    throw Error(
        "records file '" + path_ +
        "' exists: the arena neither replaces nor extends a records file (name another, or remove it)");
  if (fd < 0) throw Error("cannot create the records file '" + path_ + "': " + std::strerror(errno));
  ::close(fd);
}

RecordsFile::~RecordsFile() {
  if (!written_) ::unlink(path_.c_str());
}

void RecordsFile::write(const std::vector<RecordedGame>& records) {
  append_records(path_, records);  // the file is ours, and empty
  written_ = true;
}

std::unique_ptr<RecordsFile> claim_records_file(const ArenaConfig& config) {
  if (config.records.empty()) return nullptr;
  return std::make_unique<RecordsFile>(config.records);
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
