// The arena's game records (issue 26 item 5; envs/core/game_record.h) and
// its hook for players the caller supplies (rocketgym.arena's Python agents).
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "games/launchpad23/launchpad23_game.h"
#include "tests/common/run_cli.h"
#include "tests/common/temp_dir.h"
#include "training/arena/arena.h"
#include "training/arena/arena_run.h"

using namespace rocketgym;
using namespace rocketgym::arena;

namespace {

using testing::TempDir;

std::string read_file(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

ArenaConfig small_arena(const std::string& records) {
  ArenaConfig config;
  config.game = GameSetup::from_yaml(ConfigNode::parse("{id: launchpad23, overrides: {max_turns: 60}}", "t"));
  config.agents = {players::parse_player("heuristic"), players::parse_player("random"),
                   players::parse_player("ismcts:8")};
  config.games = 3;
  config.seed = 11;
  config.records = records;
  return config;
}

// Plays `config` and writes its records through the claimed file.
ArenaRun play_and_record(const ArenaConfig& config) {
  const auto file = claim_records_file(config);
  return play_arena(config, false, {}, file.get());
}

std::vector<std::string> record_lines(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The rocketgym binary, run with `environment` (VAR=value ...) before it;
// an empty result when there is no binary.
testing::CliResult run_arena_cli(const std::string& environment, const std::string& arguments) {
  const std::string binary = testing::cli_binary();
  if (binary.empty() || !std::filesystem::exists(binary)) return {};
  return testing::run_shell("env " + environment + " timeout 300 '" + binary + "' " + arguments +
                            " </dev/null 2>&1");
}

// Plays the moves of a Player<G> made from a spec, counting its decisions.
template <class G>
class CountingPlayer final : public players::Player<G> {
 public:
  explicit CountingPlayer(const players::PlayerSpec& spec) : inner_(players::make_player<G>(spec, {})) {}
  void act(players::Decision<G>* d, int count) override {
    decisions += count;
    for (int k = 0; k < count; ++k) seats_ok = seats_ok && d[k].seat == d[k].state->current_player();
    inner_->act(d, count);
  }
  int decisions = 0;
  bool seats_ok = true;

 private:
  std::unique_ptr<players::Player<G>> inner_;
};

}  // namespace

TEST_CASE("arena records: one line per game in schedule order, whatever the games in flight",
          "[arena][records]") {
  const TempDir dir("order");
  ArenaConfig one = small_arena(dir / "one.jsonl"), many = small_arena(dir / "many.jsonl");
  one.parallel = 1;
  one.threads = 1;
  many.parallel = 64;
  many.threads = 2;
  const ArenaRun a = play_and_record(one);
  play_and_record(many);
  const std::string text = read_file(dir / "one.jsonl");
  CHECK(text == read_file(dir / "many.jsonl"));

  // Every record replays (load_records checks each move and the returns) and
  // matches its game: seed, who sat where, the returns.
  const std::vector<LoadedRecord> loaded = load_records(dir / "one.jsonl");
  REQUIRE(loaded.size() == a.games.size());
  REQUIRE(loaded.size() == 3u * 3u * 2u);  // 3 pairs x 3 seeds x 2 rotations
  for (std::size_t k = 0; k < loaded.size(); ++k) {
    const RecordedGame& r = loaded[k].record;
    const GameRecord& g = a.games[k];
    INFO(loaded[k].source);
    CHECK(r.game == "launchpad23");
    CHECK(r.seed == g.seed);
    CHECK(static_cast<int>(r.actions.size()) == g.decisions);
    for (int s = 0; s < 2; ++s) {
      CHECK(r.players[static_cast<std::size_t>(s)] ==
            a.report.agents[static_cast<std::size_t>(g.agent[static_cast<std::size_t>(s)])].name);
      CHECK(r.returns[static_cast<std::size_t>(s)] == g.returns[static_cast<std::size_t>(s)]);
    }
    // The game's overrides travel with it: 60 turns, not the default 200.
    CHECK(r.config == "{\"max_turns\":60}");
    const auto end = loaded[k].state_at(r.actions.size());
    CHECK(end->is_terminal());
    CHECK(end->returns() == r.returns);
  }
}

TEST_CASE("arena records: a game config file travels whole, and replays", "[arena][records]") {
  const TempDir dir("config_file");
  std::ofstream(dir / "lp.yaml") << "reward: win\nmax_turns: 40\n";
  ArenaConfig config = small_arena(dir / "games.jsonl");
  config.game =
      GameSetup::from_yaml(ConfigNode::parse("{id: launchpad23, config: '" + (dir / "lp.yaml") + "'}", "t"));
  config.games = 1;
  play_and_record(config);
  const auto loaded = load_records(dir / "games.jsonl");
  REQUIRE(!loaded.empty());
  const Json doc = Json::parse(loaded[0].record.config);
  CHECK(doc.at("reward") == "win");
  CHECK(doc.at("max_turns") == 40);
}

TEST_CASE("arena records: an existing file is refused, an unwritten claim leaves nothing",
          "[arena][records]") {
  const TempDir dir("claim");
  const std::string file = dir / "games.jsonl";
  std::ofstream(file) << "earlier games\n";
  ArenaConfig config = small_arena(file);
  // The message says what is there and how to go on (issue 55).
  CHECK_THROWS_WITH(claim_records_file(config), Catch::Contains(file) && Catch::Contains("exists (1 line;") &&
                                                    Catch::Contains("--continue-records"));
  CHECK(read_file(file) == "earlier games\n");  // untouched
  config.records = dir / "new.jsonl";
  {
    const auto claim = claim_records_file(config);
    CHECK(std::filesystem::exists(config.records));
    // A second arena on the same file stops at once.
    CHECK_THROWS_WITH(claim_records_file(config), Catch::Contains("exists"));
  }  // the run failed: no empty records file is left behind
  CHECK_FALSE(std::filesystem::exists(config.records));
  config.records = dir / "no_such_folder/games.jsonl";
  CHECK_THROWS_WITH(claim_records_file(config), Catch::Contains("no_such_folder/games.jsonl"));
  config.records = "";
  CHECK(claim_records_file(config) == nullptr);
}

TEST_CASE("the records key of the arena config", "[arena][records]") {
  const auto with =
      ArenaConfig::from_yaml(ConfigNode::parse("game: {id: launchpad23}\nrecords: r.jsonl\n", "a.yaml"));
  CHECK(with.records == "r.jsonl");
  CHECK(with.to_json().at("records") == "r.jsonl");
  const auto without = ArenaConfig::from_yaml(ConfigNode::parse("game: {id: launchpad23}\n", "a.yaml"));
  CHECK(without.records.empty());
}

TEST_CASE("the arena plays supplied players in their agents' seats, with the same random streams",
          "[arena][records]") {
  using G = launchpad23::Game;
  const auto game = load_game("launchpad23");
  std::vector<players::PlayerSpec> agents{players::parse_player("heuristic"),
                                          players::parse_player("random")};
  players::name_players(agents);
  const auto schedule = make_schedule(2, 2, 4, 21);
  ArenaOptions options;
  options.parallel = 5;
  Arena<G> plain(typed_config<G>(*game), 2, agents, options);
  std::vector<std::vector<Action>> plain_moves;
  const auto expected = plain.play(schedule, nullptr, &plain_moves);

  // Agent 1's player supplied from outside (a player that counts its
  // decisions and plays as `random`): the games are the same.
  auto counting = std::make_shared<CountingPlayer<G>>(agents[1]);
  Arena<G>::Supplied supplied{nullptr, counting};
  Arena<G> hooked(typed_config<G>(*game), 2, agents, options, supplied);
  std::vector<std::vector<Action>> moves;
  const auto got = hooked.play(schedule, nullptr, &moves);
  REQUIRE(got.size() == expected.size());
  int agent1_decisions = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    CHECK(got[k].returns == expected[k].returns);
    CHECK(moves[k] == plain_moves[k]);
    auto state = game->new_state(2, schedule[k].seed);  // whose moves were agent 1's
    for (const Action a : moves[k]) {
      agent1_decisions += schedule[k].agent[static_cast<std::size_t>(state->current_player())] == 1;
      state->apply(a);
    }
  }
  CHECK(counting->decisions == agent1_decisions);
  CHECK(counting->seats_ok);
  CHECK(agent1_decisions > 0);

  CHECK_THROWS_WITH(Arena<G>(typed_config<G>(*game), 2, agents, options, Arena<G>::Supplied{counting}),
                    Catch::Contains("1 supplied players for 2 agents"));
}

// Issue 55: the games are written as they end. An arena killed at a fixed game
// (it raises SIGKILL on itself after writing its 5th game: a count, not a
// time) keeps the 5 games; the same command is refused, saying how to go on;
// --continue-records plays only the missing games, and the file, table and
// CSVs are those of the arena that was never stopped.
TEST_CASE("arena records: killed at a game, every finished game is kept and the arena continues",
          "[arena][records][cli]") {
  const TempDir dir("killed");
  const std::string arena =
      "arena --game launchpad23 --set game.overrides.max_turns=60 --agent heuristic --agent random "
      "--agent ismcts:8 --games 3 --seed 11 --envs 4 --threads 1 --quiet --no-plot ";
  const testing::CliResult whole = run_arena_cli(
      "", arena + "--output '" + (dir / "whole") + "' --records '" + (dir / "whole.jsonl") + "'");
  if (whole.status == -1 && whole.output.empty()) {
    WARN("the rocketgym binary is not built: skipped");
    return;
  }
  INFO(whole.output);
  REQUIRE(whole.status == 0);
  const std::string records = dir / "games.jsonl", output = dir / "out";
  const std::string mine = arena + "--output '" + output + "' --records '" + records + "' ";
  const testing::CliResult killed = run_arena_cli("ROCKETGYM_TEST_KILL_AFTER_RECORDS=5", mine);
  INFO(killed.output);
  REQUIRE(killed.status == 128 + SIGKILL);  // as timeout(1) reports it
  const std::vector<std::string> kept = record_lines(records);
  REQUIRE(kept.size() == 5);
  CHECK(load_records(records).size() == 5);  // every line whole, and replays
  CHECK_FALSE(std::filesystem::exists(output + "/table.txt"));

  const testing::CliResult again = run_arena_cli("", mine);
  INFO(again.output);
  CHECK(again.status == 1);
  CHECK_THAT(again.output,
             Catch::Contains(records + "' exists (5 lines;") && Catch::Contains("--continue-records"));
  CHECK(record_lines(records) == kept);

  const testing::CliResult continued = run_arena_cli("", mine + "--continue-records");
  INFO(continued.output);
  REQUIRE(continued.status == 0);
  CHECK(read_file(records) == read_file(dir / "whole.jsonl"));
  for (const char* name : {"table.txt", "games.csv", "agents.csv", "head_to_head.csv", "seats.csv"}) {
    INFO(name);
    CHECK(read_file(output + "/" + name) == read_file(dir / "whole" + "/" + name));
  }
}

TEST_CASE("arena records: a continued file's torn last line is cut off, another arena's file refused",
          "[arena][records]") {
  const TempDir dir("continue");
  ArenaConfig whole = small_arena(dir / "whole.jsonl");
  whole.parallel = 1;
  play_and_record(whole);
  const std::vector<std::string> lines = record_lines(dir / "whole.jsonl");
  REQUIRE(lines.size() == 18u);
  // The first 7 games and half of the 8th, as a killed writer leaves them.
  {
    std::ofstream out(dir / "torn.jsonl");
    for (std::size_t k = 0; k < 7; ++k) out << lines[k] << "\n";
    out << lines[7].substr(0, lines[7].size() / 2);
  }
  ArenaConfig torn = small_arena(dir / "torn.jsonl");
  torn.continue_records = true;
  const ArenaRun run = play_and_record(torn);
  CHECK(read_file(dir / "torn.jsonl") == read_file(dir / "whole.jsonl"));
  CHECK(run.games.size() == 18u);
  // Another seed's games are not this arena's: refused, naming the line.
  ArenaConfig other = small_arena(dir / "torn.jsonl");
  other.continue_records = true;
  other.seed = 12;
  CHECK_THROWS_WITH(play_and_record(other), Catch::Contains(dir / "torn.jsonl" + ":1:") &&
                                                Catch::Contains("not a game of this arena's schedule"));
  other = small_arena(dir / "torn.jsonl");
  other.continue_records = true;
  other.game = GameSetup::from_yaml(ConfigNode::parse("{id: launchpad23, overrides: {max_turns: 50}}", "t"));
  CHECK_THROWS_WITH(play_and_record(other), Catch::Contains("another config"));
  CHECK(read_file(dir / "torn.jsonl") == read_file(dir / "whole.jsonl"));  // untouched
}

// Issue 55: the records file is none of the arena's other files.
TEST_CASE("arena records: the records file may not be a result file or an input of the arena",
          "[arena][records]") {
  const TempDir dir("distinct");
  ArenaConfig config = small_arena("");
  config.output = dir / "out";
  for (const char* name : {"report.json", "games.csv", "table.txt", ".lock"}) {
    config.records = config.output + "/" + name;
    CHECK_THROWS_WITH(check_arena_files(config), Catch::Contains(std::string(name) + " (in --output)"));
  }
  config.records = dir / "out/../out/./games.csv";  // the same file by another name
  CHECK_THROWS_WITH(check_arena_files(config), Catch::Contains("games.csv (in --output)"));
  std::ofstream(dir / "arena.yaml") << "game: {id: launchpad23}\n";
  config.records = dir / "arena.yaml";
  CHECK_THROWS_WITH(check_arena_files(config, dir / "arena.yaml"),
                    Catch::Contains("the arena's config file"));
  std::ofstream(dir / "lp.yaml") << "max_turns: 40\n";
  config.game =
      GameSetup::from_yaml(ConfigNode::parse("{id: launchpad23, config: '" + (dir / "lp.yaml") + "'}", "t"));
  config.records = dir / "lp.yaml";
  CHECK_THROWS_WITH(check_arena_files(config), Catch::Contains("the game's config file"));
  config.agents.push_back(players::parse_player("mine=checkpoint:" + (dir / "mine.ckpt")));
  config.records = dir / "mine.ckpt";
  CHECK_THROWS_WITH(check_arena_files(config), Catch::Contains("the checkpoint of agent 4 ('mine')"));
  config.records = dir / "games.jsonl";
  CHECK_NOTHROW(check_arena_files(config, dir / "arena.yaml"));
}

// Issue 55: a YAML zoo agent of another game is refused with its file and line,
// as every other YAML error is.
TEST_CASE("an arena config's zoo agent of another game is refused with its file and line", "[arena]") {
  CHECK_THROWS_WITH(
      ArenaConfig::from_yaml(ConfigNode::parse(
          "game: {id: launchpad23}\nagents:\n  - {kind: heuristic}\n  - {kind: zoo, game: last_blast}\n",
          "arena.yaml")),
      Catch::Contains("arena.yaml:4") && Catch::Contains("agents[1].game") &&
          Catch::Contains("the zoo bot of last_blast cannot play launchpad23"));
}
