// `rocketgym arena`: the arena configuration (configs/arena/*.yaml), loading
// the agents for any registered game and writing the results.
//
//   game: {id: launchpad23, players: 2}   # see training/game_setup.h
//   agents: [...]                          # see training/players/player_spec.h
//   games: 100        # seeds per lineup; each seed is played in every seat rotation
//   seed: 1
//   parallel: 64      # games in flight
//   threads: 2        # CPU threads (agents and LibTorch)
//   device: cpu       # cpu | cuda (networks)
//   output: runs/arena/launchpad23
//   plot: true        # arena.png next to the tables (needs /usr/bin/python3 with matplotlib)
//   records: ""       # a file for every game's record (envs/core/game_record.h); "": none
//   one_vs_each: ""   # an agent's name: only its games, against each other agent (schedule.h); "": all
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/game_record.h"
#include "training/arena/arena_ranks.h"
#include "training/arena/results.h"
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
  int parallel = 64;
  int threads = 2;
  std::string device = "cpu";
  std::string output = "runs/arena";
  bool plot = true;
  std::string records;  // empty: no records
  std::string
      one_vs_each;  // an agent's name: only its games, one lineup per other agent; empty: every lineup
  // Not a YAML key: the agents whose players the caller supplies (rg.arena's
  // Python agents), one flag per agent or none; their spec only names them.
  std::vector<bool> supplied;

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

// The records file (config.records), claimed before the games are played: it
// is created, and an existing file is an Error (the arena neither replaces
// nor extends a records file: its games would not be this run's). Dropped
// before write() (a failed run), it removes the file it created.
class RecordsFile {
 public:
  explicit RecordsFile(std::string path);
  ~RecordsFile();
  RecordsFile(const RecordsFile&) = delete;
  RecordsFile& operator=(const RecordsFile&) = delete;
  void write(const std::vector<RecordedGame>& records);

 private:
  std::string path_;
  bool written_ = false;
};
// Null when config.records is empty.
[[nodiscard]] std::unique_ptr<RecordsFile> claim_records_file(const ArenaConfig& config);

// Plays the whole schedule; prints progress to stderr when `verbose`. In a
// distributed run every rank calls it and plays its part of the schedule
// (arena_ranks.h); rank 0 gets the whole run, the others an empty one.
// With config.records, the run holds every game's record.
ArenaRun play_arena(const ArenaConfig& config, bool verbose, const dist::Context& context = {});

// The same in two steps, for a caller that supplies some players itself
// (config.supplied): set_up_arena() names and loads the other agents and makes
// the schedule; play_arena_typed<G>() plays it with the supplied players (one
// entry per agent, null: made from the spec).
struct ArenaSetup {
  std::vector<players::PlayerSpec> agents;  // named; resolved unless supplied
  std::shared_ptr<AnyGame> game;
  std::vector<ScheduledGame> schedule;
  ArenaOptions options;
};
ArenaSetup set_up_arena(const ArenaConfig& config, const dist::Context& context = {});
// Rank 0: the report and, with config.records, the records, from every game.
ArenaRun finish_arena(const ArenaConfig& config, const ArenaSetup& setup, std::vector<GameRecord> games,
                      const std::vector<std::vector<Action>>& moves, const dist::Context& context);

template <class G>
ArenaRun play_arena_typed(const ArenaConfig& config, const ArenaSetup& setup,
                          typename Arena<G>::Supplied supplied,
                          const typename Arena<G>::Progress& progress = nullptr,
                          const dist::Context& context = {}) {
  Arena<G> arena(typed_config<G>(*setup.game), config.game.players, setup.agents, setup.options,
                 std::move(supplied));
  std::vector<std::vector<Action>> moves;
  std::vector<GameRecord> games =
      play_on_ranks(arena, setup.schedule, context, progress, config.records.empty() ? nullptr : &moves);
  ArenaRun run = finish_arena(config, setup, std::move(games), moves, context);
  run.interrupted = arena.interrupted();
  return run;
}

// The table, report.json, CSVs and the plot in config.output; an Error names
// the file that could not be written. (The records go through RecordsFile.)
void write_arena_outputs(const ArenaConfig& config, const ArenaRun& run);

}  // namespace rocketgym::arena
