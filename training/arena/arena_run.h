// `rocketgym arena`: the arena configuration (configs/arena/*.yaml), loading
// the agents for any registered game and writing the results.
//
//   game: {id: launchpad23, players: 2}   # see training/game_setup.h
//   agents: [...]                          # see training/players/player_spec.h
//   games: 100        # seeds per lineup; each seed is played in every seat rotation
//   output: runs/arena/launchpad23
//   ...               # the other keys: ArenaConfig::keys() (arena_run.cpp), their
//                     # ranges, defaults and docs in one table, which the
//                     # command line's flags take their ranges from
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "envs/core/files.h"
#include "envs/core/game_record.h"
#include "training/arena/arena.h"
#include "training/arena/arena_ranks.h"
#include "training/arena/results.h"
#include "training/config_keys.h"
#include "training/distributed/distributed.h"
#include "training/game_setup.h"
#include "training/players/player_spec.h"
#include "training/run_support.h"

namespace rocketgym::arena {

struct ArenaConfig {
  GameSetup game;
  std::vector<players::PlayerSpec> agents;
  int games = 100;
  uint64_t seed = 1;
  int parallel = kDefaultParallel;
  int threads = 2;
  std::string device = "cpu";
  std::string output = "runs/arena";
  bool plot = true;
  std::string records;            // empty: no records
  bool continue_records = false;  // an existing records file is continued, not refused
  std::string
      one_vs_each;  // an agent's name: only its games, one lineup per other agent; empty: every lineup
  // Not a YAML key: the agents whose players the caller supplies (rg.arena's
  // Python agents), one flag per agent or none; their spec only names them.
  std::vector<bool> supplied;

  // The keys besides game and agents: name, range, default, doc.
  static const KeyTable<ArenaConfig>& keys();
  static ArenaConfig from_yaml(const ConfigNode& root);
  Json to_json() const;
  bool is_supplied(std::size_t agent) const { return agent < supplied.size() && supplied[agent]; }
};

struct ArenaRun {
  ArenaReport report;
  std::vector<GameRecord> games;
  std::vector<RecordedGame> records;  // with config.records: every game, in schedule order
  // Stopped early on setup.options.interrupt (arena.h): the report, games and
  // records hold the games finished before the stop.
  bool interrupted = false;
};

// Creates config.output, locks it (the run-folder lock, <output>/.lock) and
// checks that the result files can be written there (a probe file, and any
// result file already there), so that a bad output folder, or one another
// arena or training is using, is an Error before the games are played, not
// after. Keep the lock until write_arena_outputs() is done.
[[nodiscard]] std::unique_ptr<RunFolderLock> prepare_arena_output(const ArenaConfig& config);

// The files an arena reads (its config file, the game's config file, the
// agents' checkpoints) and writes (the result files in config.output, the
// records file), with the words that name them in messages; `config_file`:
// the arena's own YAML, if any. check_arena_files() refuses a records file
// that is one of the others (the file rule, envs/core/files.h).
std::vector<files::NamedFile> arena_inputs(const ArenaConfig& config, const std::string& config_file = "");
std::vector<files::NamedFile> arena_outputs(const ArenaConfig& config);
void check_arena_files(const ArenaConfig& config, const std::string& config_file = "");

struct ArenaSetup;

// The records file (config.records). Claimed before the games are played:
// a new file is created and locked (flock, so that two arenas never write
// one file). An existing file is an Error that names its lines and says how
// to go on, unless config.continue_records: then it is opened to be
// continued. Each game is appended as it ends, one line written at once (an
// arena stopped by an error, Ctrl-C or kill -9 keeps every game it
// finished); finish() rewrites the file in schedule order (so the file is
// the same whatever --envs, --threads, the ranks or the interruptions) and
// flushes it to the disk. Dropped before finish() (a failed run), it closes
// the file, flushed, and removes it if this run created it and wrote no game.
class RecordsFile {
 public:
  RecordsFile(std::string path, bool continue_file);
  ~RecordsFile();
  RecordsFile(const RecordsFile&) = delete;
  RecordsFile& operator=(const RecordsFile&) = delete;

  // Continuing: the games already in the file, by their index in
  // setup.schedule (empty entries: still to play). Each line must be a game
  // of this arena: its game, config and player count, and a seed and seating
  // of the schedule not taken by an earlier line; an Error names the line.
  // A last line cut short is cut off the file (said on stderr). A new file:
  // no games.
  std::vector<std::optional<RecordedGame>> earlier_games(const ArenaConfig& config, const ArenaSetup& setup);
  void append(const RecordedGame& record);
  // Every game of the run, in schedule order: the file's final content.
  void finish(const std::vector<RecordedGame>& records);

 private:
  void append_text(const std::string& text);

  std::string path_;
  int fd_ = -1;
  bool created_ = false, finished_ = false;
  int appended_ = 0;
  int kill_after_ = 0;  // tests: SIGKILL itself after this many games (ROCKETGYM_TEST_KILL_AFTER_RECORDS)
};
// Null when config.records is empty.
[[nodiscard]] std::unique_ptr<RecordsFile> claim_records_file(const ArenaConfig& config);

// Plays the whole schedule; prints progress to stderr when `verbose`. In a
// distributed run every rank calls it and plays its part of the schedule
// (arena_ranks.h); rank 0 gets the whole run, the others an empty one.
// With config.records, the run holds every game's record, and `records`
// (rank 0's claim) is written as the games end, then finished.
ArenaRun play_arena(const ArenaConfig& config, bool verbose, const dist::Context& context = {},
                    RecordsFile* records = nullptr);

// The same in two steps, for a caller that supplies some players itself
// (config.supplied): set_up_arena() names and loads the other agents and makes
// the schedule; play_arena_typed<G>() plays it with the supplied players (one
// entry per agent, null: made from the spec).
struct ArenaSetup {
  std::vector<players::PlayerSpec> agents;  // named; resolved unless supplied
  std::shared_ptr<AnyGame> game;
  std::vector<ScheduledGame> schedule;
  ArenaOptions options;
  std::string record_config;  // with config.records: the game's config as each record holds it
};
ArenaSetup set_up_arena(const ArenaConfig& config, const dist::Context& context = {});
// The record of a game the arena played (its result and moves).
RecordedGame arena_record(const ArenaConfig& config, const ArenaSetup& setup, const GameRecord& game,
                          const std::vector<Action>& moves);
// Rank 0: the report and, with config.records, the records, from every game
// of the schedule: `earlier` (a continued records file's, by schedule index)
// and those played now (`played`: their schedule indices; `games`, `moves`:
// theirs, in that order).
ArenaRun finish_arena(const ArenaConfig& config, const ArenaSetup& setup,
                      const std::vector<std::optional<RecordedGame>>& earlier, const std::vector<int>& played,
                      std::vector<GameRecord> games, const std::vector<std::vector<Action>>& moves,
                      const dist::Context& context);

template <class G>
ArenaRun play_arena_typed(const ArenaConfig& config, const ArenaSetup& setup,
                          typename Arena<G>::Supplied supplied,
                          const typename Arena<G>::Progress& progress = nullptr,
                          const dist::Context& context = {}, RecordsFile* records = nullptr) {
  Arena<G> arena(typed_config<G>(*setup.game), config.game.players, setup.agents, setup.options,
                 std::move(supplied));
  // A continued records file's games are not played again.
  const std::vector<std::optional<RecordedGame>> earlier =
      records ? records->earlier_games(config, setup) : std::vector<std::optional<RecordedGame>>{};
  std::vector<int> played;
  std::vector<ScheduledGame> schedule;
  for (std::size_t k = 0; k < setup.schedule.size(); ++k)
    if (k >= earlier.size() || !earlier[k]) {
      played.push_back(static_cast<int>(k));
      schedule.push_back(setup.schedule[k]);
    }
  // Each game as it ends: which of `schedule` ended (an interrupted arena
  // returns those only), and its record to the file.
  std::vector<uint8_t> ended(schedule.size(), 0);
  const typename Arena<G>::Finished finished = [&](int k, const GameRecord& result,
                                                   const std::vector<Action>& moves) {
    ended[static_cast<std::size_t>(k)] = 1;
    if (records) records->append(arena_record(config, setup, result, moves));
  };
  std::vector<std::vector<Action>> moves;
  std::vector<GameRecord> games =
      play_on_ranks(arena, schedule, context, progress, config.records.empty() ? nullptr : &moves, finished);
  if (arena.interrupted()) {  // `games`: the finished ones only, in schedule order
    std::vector<int> kept;
    for (std::size_t j = 0; j < played.size(); ++j)
      if (ended[j]) kept.push_back(played[j]);
    played = std::move(kept);
  }
  ArenaRun run = finish_arena(config, setup, earlier, played, std::move(games), moves, context);
  run.interrupted = arena.interrupted();
  if (records && context.is_root()) records->finish(run.records);
  return run;
}

// The table, report.json, CSVs and the plot in config.output; an Error names
// the file that could not be written. (The records go through RecordsFile.)
// Each file is written under the file rule (envs/core/files.h).
void write_arena_outputs(const ArenaConfig& config, const ArenaRun& run);

}  // namespace rocketgym::arena
