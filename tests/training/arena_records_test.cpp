// The arena's game records (issue 26 item 5; envs/core/game_record.h) and
// its hook for players the caller supplies (rocketgym.arena's Python agents).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "games/launchpad23/launchpad23_game.h"
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
  ArenaRun run = play_arena(config, false);
  file->write(run.records);
  return run;
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
  CHECK_THROWS_WITH(claim_records_file(config), Catch::Contains(file) && Catch::Contains("exists"));
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
