#include "training/arena/arena_run.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <system_error>

#include "envs/core/parallel.h"
#include "envs/core/quoted.h"
#include "envs/core/yaml_document.h"
#include "generated/game_list.h"
#include "models/checkpoint.h"
#include "training/arena/arena.h"
#include "training/arena/arena_ranks.h"
#include "training/players/kinds/torch/zoo.h"
#include "training/progress_line.h"
#include "training/run_support.h"

namespace rocketgym::arena {

const KeyTable<ArenaConfig>& ArenaConfig::keys() {
  static const KeyTable<ArenaConfig> table = [] {
    KeyTable<ArenaConfig> t;
    t.whole("games", &ArenaConfig::games, 1, kMaxScheduledGames,
            "seeds per lineup; each is played in every seat rotation")
        .seed("seed", &ArenaConfig::seed, "the schedule's seed")
        .whole("parallel", &ArenaConfig::parallel, 1, kMaxEnvs, "games played together (--envs)")
        .whole("threads", &ArenaConfig::threads, 1, kMaxThreads, "CPU threads (agents and LibTorch)")
        .choice<std::string>("device", &ArenaConfig::device, {{"cpu", "cpu"}, {"cuda", "cuda"}},
                             "where the networks run")
        .text("output", &ArenaConfig::output, "the folder of the results (never empty)")
        .flag("plot", &ArenaConfig::plot,
              "arena.png next to the tables (needs /usr/bin/python3 with matplotlib)")
        .text("records", &ArenaConfig::records,
              "a file for every game's record (envs/core/game_record.h); empty: none")
        .flag("continue_records", &ArenaConfig::continue_records,
              "records names an interrupted arena's file, whose games are kept")
        .text("one_vs_each", &ArenaConfig::one_vs_each,
              "an agent's name: only its games, against each other agent (schedule.h); empty: every lineup");
    return t;
  }();
  return table;
}

ArenaConfig ArenaConfig::from_yaml(const ConfigNode& root) {
  std::vector<std::string> names{"game", "agents"};
  for (const std::string& key : keys().names()) names.push_back(key);
  root.expect_keys(names);
  ArenaConfig c;
  c.game = GameSetup::from_yaml(root.child("game"));
  // No agents: the command line gives them (--agent).
  if (root.has("agents")) {
    const ConfigNode agents = root.child("agents");
    if (!agents.is_sequence()) root.fail_key("agents", "must be a list of agents");
    if (agents.items().size() > static_cast<std::size_t>(kMaxArenaAgents))
      root.fail_key("agents", std::to_string(agents.items().size()) + " agents; an arena seats at most " +
                                  std::to_string(kMaxArenaAgents));
    for (const ConfigNode& a : agents.items()) {
      c.agents.push_back(players::parse_player(a));
      // Said here with the file and line: a zoo bot of another game cannot take a seat.
      if (const auto* zoo = c.agents.back().get_if<players::Zoo>(); zoo && zoo->game != c.game.id)
        a.fail_key("game", "'" + zoo->game + "': the zoo bot of " + zoo->game + " cannot play " + c.game.id +
                               " (game: " + c.game.id + ", or the kind zoo of this arena's game)");
    }
  }
  for (const auto& key : keys().keys()) key.read(root, c);
  if (c.output.empty()) root.fail_key("output", "must name a folder, not be empty");
  if (c.continue_records && c.records.empty())
    root.fail_key("continue_records", "continues a records file: name it in records (--records FILE)");
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
  if (continue_records) doc["continue_records"] = true;
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
    const std::string who = "agent " + quote(agents[a].name) + ": ";
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
  if (!game.config_file.empty())
    return yaml_to_json(load_yaml_document(game.resolved_config_text(), game.config_file)).dump();
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
  // Before any network is loaded: an arena too large to hold is refused at once.
  check_arena_size(static_cast<int>(config.agents.size()), config.game.players, config.games,
                   !config.one_vs_each.empty());
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
      throw ConfigError("one_vs_each: no agent named " + quote(config.one_vs_each) +
                        " (the agents: " + names + ")");
    if (setup.agents.size() < 2)
      throw ConfigError("one_vs_each: " + quote(config.one_vs_each) + " has no one to play");
  }
  setup.schedule = make_schedule(static_cast<int>(setup.agents.size()), config.game.players, config.games,
                                 config.seed, one_vs_each);
  if (!config.records.empty()) setup.record_config = record_config(config.game);
  return setup;
}

RecordedGame arena_record(const ArenaConfig& config, const ArenaSetup& setup, const GameRecord& g,
                          const std::vector<Action>& moves) {
  RecordedGame r;
  r.game = config.game.id;
  r.config = setup.record_config;
  r.seed = g.seed;
  r.num_players = g.num_players;
  for (int s = 0; s < g.num_players; ++s) {
    r.players.push_back(setup.agents[static_cast<std::size_t>(g.agent[static_cast<std::size_t>(s)])].name);
    r.returns.push_back(g.returns[static_cast<std::size_t>(s)]);
  }
  r.actions = moves;
  return r;
}

namespace {

// The result row of a game a continued records file holds: who sat where from
// the schedule, the rest from the record (replayed for the truncation).
GameRecord result_of(const ScheduledGame& scheduled, const RecordedGame& r, const AnyGame& game) {
  GameRecord g;
  g.lineup = scheduled.lineup;
  g.rotation = scheduled.rotation;
  g.seed = r.seed;
  g.num_players = r.num_players;
  g.agent = scheduled.agent;
  for (int s = 0; s < r.num_players; ++s)
    g.returns[static_cast<std::size_t>(s)] = r.returns[static_cast<std::size_t>(s)];
  auto state = game.new_state(r.num_players, r.seed);
  for (const Action a : r.actions) state->apply(a);
  g.truncated = state->is_truncated();
  g.decisions = static_cast<int>(r.actions.size());
  return g;
}

}  // namespace

ArenaRun finish_arena(const ArenaConfig& config, const ArenaSetup& setup,
                      const std::vector<std::optional<RecordedGame>>& earlier, const std::vector<int>& played,
                      std::vector<GameRecord> games, const std::vector<std::vector<Action>>& moves,
                      const dist::Context& context) {
  ArenaRun run;
  if (!context.is_root()) return run;
  std::vector<std::string> names;
  for (const auto& a : setup.agents) names.push_back(a.name);
  // The games of the schedule there are, in its order: the earlier ones and
  // those played now (all of them, unless the arena was interrupted).
  const std::size_t total = setup.schedule.size();
  std::vector<const GameRecord*> now(total, nullptr);
  std::vector<const std::vector<Action>*> now_moves(total, nullptr);
  for (std::size_t j = 0; j < played.size(); ++j) {
    now[static_cast<std::size_t>(played[j])] = &games[j];
    if (j < moves.size()) now_moves[static_cast<std::size_t>(played[j])] = &moves[j];
  }
  std::vector<GameRecord> all;
  all.reserve(total);
  for (std::size_t k = 0; k < total; ++k) {
    const bool before = k < earlier.size() && earlier[k];
    if (!before && !now[k]) continue;  // not finished (interrupted)
    all.push_back(before ? result_of(setup.schedule[k], *earlier[k], *setup.game) : *now[k]);
    if (!config.records.empty())
      run.records.push_back(before ? *earlier[k] : arena_record(config, setup, *now[k], *now_moves[k]));
  }
  run.report = analyze(all, names, config.game.players);
  run.games = std::move(all);
  return run;
}

ArenaRun play_arena(const ArenaConfig& config, bool verbose, const dist::Context& context,
                    RecordsFile* records) {
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
    return play_arena_typed<G>(config, setup, {}, progress, context, records);
  });
}

// --- the records file ------------------------------------------------------------

namespace {

constexpr const char* kRecordsWhat = "records file";

// The lines of an existing file, for the message that refuses it.
std::string lines_of(const std::string& path) {
  try {
    files::InputFile in(path, files::kMaxRecordsBytes, kRecordsWhat);
    std::string line;
    bool complete = true;
    int lines = 0;
    while (in.next_line(line, files::kMaxRecordLineBytes, complete)) ++lines;
    return std::to_string(lines) + (lines == 1 ? " line" : " lines");
  } catch (const files::FileError&) {
    return "what it holds unread";
  }
}

// The schedule's games by who sits where: seed and the agent's name at each seat.
std::string seating_key(uint64_t seed, const std::vector<std::string>& players) {
  std::string key = std::to_string(seed);
  for (const auto& p : players) key += "\n" + p;
  return key;
}

}  // namespace

RecordsFile::RecordsFile(std::string path, bool continue_file) : path_(std::move(path)) {
  const std::string continue_how =
      "continue it with --continue-records (the YAML key continue_records: true; rocketgym.arena(..., "
      "continue_records=True)) and the same arena, which plays only the games it lacks; or name another "
      "file, or remove this one";
  try {
    if (continue_file) {
      fd_ = files::open_output(path_, O_APPEND, kRecordsWhat);
    } else {
      try {
        fd_ = files::open_output(path_, O_EXCL, kRecordsWhat);
      } catch (const files::FileError&) {
        struct stat info {};
        if (::lstat(path_.c_str(), &info) == 0 && S_ISREG(info.st_mode))
          throw Error("records file '" + path_ + "' exists (" + lines_of(path_) +
                      "; the games of an arena that was interrupted?): the arena does not replace a "
                      "records file; " +
                      continue_how);
        throw;
      }
      created_ = true;
    }
  } catch (const files::FileError& e) {
    throw Error(std::string(e.what()));
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw Error("records file '" + path_ + "' is in use by another arena");
  }
  if (const char* kill = std::getenv("ROCKETGYM_TEST_KILL_AFTER_RECORDS")) kill_after_ = std::atoi(kill);
}

RecordsFile::~RecordsFile() {
  if (fd_ < 0) return;
  try {
    files::sync_and_close(fd_, path_, kRecordsWhat);
  } catch (const files::FileError& e) {
    std::cerr << "warning: " << files::printable(e.what()) << "\n";
  }
  if (created_ && appended_ == 0 && !finished_) ::unlink(path_.c_str());
}

std::vector<std::optional<RecordedGame>> RecordsFile::earlier_games(const ArenaConfig& config,
                                                                    const ArenaSetup& setup) {
  std::vector<std::optional<RecordedGame>> earlier(setup.schedule.size());
  if (created_) return earlier;
  LoadedRecords read;
  try {
    read = read_records(path_);
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + " (--continue-records continues a records file of this arena)");
  }
  if (!read.torn.empty()) {
    // Cut off, so that the next game starts a line of its own.
    if (::ftruncate(fd_, static_cast<off_t>(read.complete_bytes)) != 0)
      throw Error("records file '" + path_ + "': cannot cut off its last line (" + std::strerror(errno) +
                  ")");
    std::cerr << "note: " << files::printable(read.torn) << " and cut off; the game is played again\n";
  } else if (!read.ends_with_line_break) {
    append_text("\n");  // a last whole record without its line break (written by hand)
  }
  std::map<std::string, std::vector<std::size_t>> by_seating;  // schedule indices, in order
  for (std::size_t k = setup.schedule.size(); k-- > 0;) {
    const ScheduledGame& g = setup.schedule[k];
    std::vector<std::string> seats;
    for (int s = 0; s < config.game.players; ++s)
      seats.push_back(setup.agents[static_cast<std::size_t>(g.agent[static_cast<std::size_t>(s)])].name);
    by_seating[seating_key(g.seed, seats)].push_back(k);
  }
  for (LoadedRecord& loaded : read.records) {
    const RecordedGame& r = loaded.record;
    auto refuse = [&](const std::string& why) {
      throw Error(loaded.source + ": " + why +
                  ": the records file belongs to another arena (--continue-records continues the file of "
                  "this same arena: its game, config, agents, --games and --seed)");
    };
    if (r.game != config.game.id) refuse("a game of " + r.game + ", not " + config.game.id);
    if (r.num_players != config.game.players)
      refuse("a game of " + std::to_string(r.num_players) + " players, not " +
             std::to_string(config.game.players));
    if (Json::parse(r.config) != Json::parse(setup.record_config))
      refuse("a game under another config (" + quote(r.config) + ", not " + quote(setup.record_config) + ")");
    auto found = by_seating.find(seating_key(r.seed, r.players));
    if (found == by_seating.end() || found->second.empty())
      refuse(found == by_seating.end() ? "its seed and seating are not a game of this arena's schedule"
                                       : "this game is in the file twice");
    earlier[found->second.back()] = r;
    found->second.pop_back();
  }
  return earlier;
}

void RecordsFile::append_text(const std::string& text) {
  try {
    files::write_all(fd_, text, path_, kRecordsWhat);
  } catch (const files::FileError& e) {
    throw Error(e.what());
  }
}

void RecordsFile::append(const RecordedGame& record) {
  append_text(record_to_line(record) + "\n");  // one write: a whole line
  ++appended_;
  if (kill_after_ > 0 && appended_ == kill_after_)
    ::raise(SIGKILL);  // tests: an interruption at a known game
}

void RecordsFile::finish(const std::vector<RecordedGame>& records) {
  std::string text;
  for (const RecordedGame& r : records) text += record_to_line(r) + "\n";
  try {
    files::write_file_atomically(path_, text, kRecordsWhat);
  } catch (const files::FileError& e) {
    throw Error(e.what());
  }
  finished_ = true;
}

std::unique_ptr<RecordsFile> claim_records_file(const ArenaConfig& config) {
  if (config.records.empty()) return nullptr;
  return std::make_unique<RecordsFile>(config.records, config.continue_records);
}

// --- the arena's files ------------------------------------------------------------

namespace {

// The result files of an arena, in its output folder.
constexpr const char* kResultFiles[] = {"table.txt", "report.json", "agents.csv", "head_to_head.csv",
                                        "seats.csv", "games.csv",   "arena.png"};

}  // namespace

std::vector<files::NamedFile> arena_inputs(const ArenaConfig& config, const std::string& config_file) {
  std::vector<files::NamedFile> in;
  if (!config_file.empty()) in.push_back({config_file, "the arena's config file"});
  if (!config.game.config_file.empty())
    in.push_back({config.game.config_file, "the game's config file (game.config)"});
  for (std::size_t a = 0; a < config.agents.size(); ++a) {
    players::PlayerSpec spec = config.agents[a];
    if (const std::string* path = players::checkpoint_file(spec))
      in.push_back({*path, "the checkpoint of agent " + std::to_string(a + 1) +
                               (spec.name.empty() ? "" : " ('" + spec.name + "')")});
  }
  return in;
}

std::vector<files::NamedFile> arena_outputs(const ArenaConfig& config) {
  std::vector<files::NamedFile> out;
  if (!config.records.empty()) out.push_back({config.records, "the records file (--records)"});
  if (!config.output.empty()) {
    for (const char* name : kResultFiles)
      out.push_back({config.output + "/" + name, std::string("the arena's ") + name + " (in --output)"});
    out.push_back({config.output + "/.lock", "the arena's .lock (in --output)"});
  }
  return out;
}

void check_arena_files(const ArenaConfig& config, const std::string& config_file) {
  try {
    files::check_distinct_files(arena_outputs(config), arena_inputs(config, config_file));
  } catch (const files::FileError& e) {
    throw Error(std::string("arena: ") + e.what());
  }
}

std::unique_ptr<RunFolderLock> prepare_arena_output(const ArenaConfig& config) {
  const std::filesystem::path dir(config.output);
  make_output_folder(config.output, "arena output folder");
  auto lock = std::make_unique<RunFolderLock>(config.output, "arena output folder");
  const std::string probe = (dir / (".rocketgym_write_test_" + std::to_string(::getpid()))).string();
  std::string why;
  try {
    ::unlink(probe.c_str());
    const int fd = files::open_output(probe, O_EXCL, "probe file");
    try {
      files::write_all(fd, "probe\n", probe, "probe file");
    } catch (...) {
      ::close(fd);
      throw;
    }
    ::close(fd);
  } catch (const files::FileError& e) {
    why = e.what();
  }
  ::unlink(probe.c_str());
  if (!why.empty())
    throw Error("cannot write files in the arena output folder '" + config.output + "' (" + why + ")");
  for (const char* name : kResultFiles) {
    const std::string file = (dir / name).string();
    try {
      files::check_output_path(file, "result file");  // a link, FIFO or device there is refused now
    } catch (const files::FileError& e) {
      throw Error(std::string(e.what()) + " (in the arena output folder)");
    }
    if (std::filesystem::exists(file) && ::access(file.c_str(), W_OK) != 0)
      throw Error("cannot replace '" + file + "' in the arena output folder");
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
