// Arena bookkeeping (schedule, win shares, seat advantage, head to head),
// ratings on synthetic results, agent specs, and deterministic play.
#include "training/arena/arena.h"

#include <unistd.h>  // getpid (LibTorch 2.x no longer includes it)

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "games/launchpad23/launchpad23_game.h"
#include "generated/source_tree.h"
#include "models/checkpoint.h"
#include "training/arena/arena_run.h"
#include "training/arena/schedule.h"
#include "training/players/any_player.h"
#include "training/players/kinds/torch/zoo.h"

using namespace rocketgym;
using namespace rocketgym::arena;

namespace {

// The search options of an ismcts spec.
const mcts::Options& mcts_of(const players::PlayerSpec& spec) { return spec.as<players::Ismcts>().mcts; }

GameRecord game2(int a0, int a1, float r0, float r1) {
  GameRecord g;
  g.num_players = 2;
  g.agent[0] = a0;
  g.agent[1] = a1;
  g.returns[0] = r0;
  g.returns[1] = r1;
  return g;
}

// d log-likelihood / d log strength_t for Plackett-Luce: zero at the maximum.
std::vector<double> pl_gradient(const std::vector<Ordering>& orderings, const std::vector<double>& ratings) {
  std::vector<double> strength, grad(ratings.size(), 0.0);
  for (double r : ratings) strength.push_back(std::pow(10.0, r / 400.0));
  for (const auto& o : orderings)
    for (std::size_t j = 0; j + 1 < o.order.size(); ++j) {
      double total = 0.0;
      for (std::size_t i = j; i < o.order.size(); ++i)
        total += strength[static_cast<std::size_t>(o.order[i])];
      grad[static_cast<std::size_t>(o.order[j])] += o.weight;
      for (std::size_t i = j; i < o.order.size(); ++i)
        grad[static_cast<std::size_t>(o.order[i])] -=
            o.weight * strength[static_cast<std::size_t>(o.order[i])] / total;
    }
  return grad;
}

}  // namespace

TEST_CASE("the schedule puts every agent in every seat with the same seeds in every rotation", "[arena]") {
  const auto games = make_schedule(3, 2, 5, 99);
  REQUIRE(games.size() == 3 * 5 * 2);                           // 3 pairs x 5 seeds x 2 rotations
  std::map<std::pair<int, int>, int> seat_count;                // (agent, seat) -> games
  std::map<std::pair<int, uint64_t>, std::set<int>> rotations;  // (lineup, seed) -> rotations
  std::set<uint64_t> seeds;
  for (const auto& g : games) {
    CHECK(g.agent[0] != g.agent[1]);
    ++seat_count[{g.agent[0], 0}];
    ++seat_count[{g.agent[1], 1}];
    rotations[{g.lineup, g.seed}].insert(g.rotation);
    seeds.insert(g.seed);
  }
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) CHECK(seat_count[{a, s}] == 10);
  for (const auto& entry : rotations) CHECK(entry.second.size() == 2);  // both rotations of each seed
  CHECK(seeds.size() == 5);  // and the same 5 seeds for every lineup
}

TEST_CASE("with fewer agents than seats the first agent plays one against the rest", "[arena]") {
  const auto games = make_schedule(2, 4, 3, 1);
  REQUIRE(games.size() == 4 * 3);
  std::map<int, int> seat_of_first;
  for (const auto& g : games) {
    int first = 0;
    for (int s = 0; s < 4; ++s) first += g.agent[static_cast<std::size_t>(s)] == 0;
    CHECK(first == 1);
    for (int s = 0; s < 4; ++s)
      if (g.agent[static_cast<std::size_t>(s)] == 0) ++seat_of_first[s];
  }
  for (int s = 0; s < 4; ++s) CHECK(seat_of_first[s] == 3);
}

TEST_CASE("one against each: only the chosen agent's games, it against each other agent", "[arena]") {
  const auto games = make_schedule(3, 3, 2, 7, 1);
  REQUIRE(games.size() == 2 * 2 * 3);  // 2 other agents x 2 seeds x 3 rotations
  std::map<int, int> lineups;          // the other agent -> games
  for (const auto& g : games) {
    std::map<int, int> seats;  // agent -> seats it holds
    for (int s = 0; s < 3; ++s) ++seats[g.agent[static_cast<std::size_t>(s)]];
    REQUIRE(seats.size() == 2);
    CHECK(seats[1] == 1);  // the chosen one in one seat, the other agent in the others
    for (const auto& [agent, count] : seats)
      if (agent != 1) {
        CHECK(count == 2);
        ++lineups[agent];
      }
  }
  CHECK(lineups == std::map<int, int>{{0, 6}, {2, 6}});
  CHECK_THROWS_WITH(make_schedule(2, 2, 1, 1, 2), Catch::Contains("one_vs_each: no agent 2"));
  CHECK_THROWS_WITH(make_schedule(1, 2, 1, 1, 0), Catch::Contains("at least two agents"));
}

TEST_CASE("win shares: the unique best return wins, ties share", "[arena]") {
  CHECK(win_share(game2(0, 1, 1, -1), 0) == 1.0f);
  CHECK(win_share(game2(0, 1, 1, -1), 1) == 0.0f);
  CHECK(win_share(game2(0, 1, 0, 0), 1) == 0.5f);
  GameRecord g;
  g.num_players = 3;
  g.returns = {0.5f, 0.5f, -1.0f};
  CHECK(win_share(g, 0) == 0.5f);
  CHECK(win_share(g, 2) == 0.0f);
}

TEST_CASE("analyze counts win rates, seat advantage and head to head", "[arena]") {
  // A beats B in 3 of 4 games; seat 0 wins 3 of 4.
  const std::vector<GameRecord> games{game2(0, 1, 1, -1), game2(0, 1, 1, -1), game2(1, 0, -1, 1),
                                      game2(1, 0, 1, -1)};
  const ArenaReport r = analyze(games, {"A", "B"}, 2);
  CHECK(r.games == 4);
  CHECK(r.agents[0].games == 4);
  CHECK(r.agents[0].win_rate == Approx(0.75));
  CHECK(r.agents[1].win_rate == Approx(0.25));
  CHECK(r.agents[0].mean_return == Approx(0.5));
  CHECK(r.seats[0].win_rate == Approx(0.75));
  CHECK(r.seats[0].advantage == Approx(0.25));
  CHECK(r.seats[1].advantage == Approx(-0.25));
  CHECK(r.head_to_head[0][1] == Approx(0.75));
  CHECK(r.head_to_head_count[0][1] == 4);
  CHECK(r.agents[0].rating > r.agents[1].rating);
  CHECK(r.rating_model == "Bradley-Terry");
  const std::string table = format_table(r);
  CHECK_THAT(table, Catch::Contains("75.0%"));
  CHECK_THAT(table, Catch::Contains("seat 0"));
  // The pair's own interval: Wilson on 3 of 4.
  const Interval ci = head_to_head_interval(r, 0, 1);
  const Interval expected = wilson_interval(3.0, 4.0);
  CHECK(ci.low == Approx(expected.low));
  CHECK(ci.high == Approx(expected.high));
  CHECK_THAT(table, Catch::Contains("A vs B: 75.0% ["));
  const Json doc = report_to_json(r);
  CHECK(doc["head_to_head_low"][0][1].get<double>() == Approx(expected.low));
}

TEST_CASE("a draw counts half a win for both", "[arena]") {
  const ArenaReport r = analyze({game2(0, 1, 0, 0), game2(1, 0, 0, 0)}, {"A", "B"}, 2);
  CHECK(r.agents[0].win_rate == Approx(0.5));
  CHECK(r.head_to_head[1][0] == Approx(0.5));
  const auto orderings = orderings_of(game2(0, 1, 0, 0));
  REQUIRE(orderings.size() == 2);
  CHECK(orderings[0].weight == Approx(0.5));
  CHECK(orderings[0].order != orderings[1].order);
}

TEST_CASE("Wilson interval matches known values", "[arena]") {
  const Interval i = wilson_interval(80, 100);
  CHECK(i.low == Approx(0.7112).margin(1e-3));
  CHECK(i.high == Approx(0.8666).margin(1e-3));
  const Interval all = wilson_interval(20, 20);
  CHECK(all.high == Approx(1.0));
  CHECK(all.low == Approx(0.8389).margin(1e-3));
}

TEST_CASE("Bradley-Terry: 3 wins to 1 is a strength ratio of 3", "[arena]") {
  std::vector<Ordering> o{{{0, 1}, 1.0}, {{0, 1}, 1.0}, {{0, 1}, 1.0}, {{1, 0}, 1.0}};
  const auto r = plackett_luce_ratings(o, 2, /*prior*/ 0.0);
  CHECK(r[0] - r[1] == Approx(400.0 * std::log10(3.0)).margin(0.01));
  CHECK(r[0] + r[1] == Approx(0.0).margin(1e-9));
  // The prior (one virtual draw) pulls the ratings together: (3.5 / 1.5).
  const auto shrunk = plackett_luce_ratings(o, 2, 1.0);
  CHECK(shrunk[0] - shrunk[1] == Approx(400.0 * std::log10(3.5 / 1.5)).margin(0.01));
}

TEST_CASE("Plackett-Luce ratings maximise the likelihood of 3-player finishing orders", "[arena]") {
  const std::vector<Ordering> o{{{0, 1, 2}, 1.0}, {{0, 2, 1}, 1.0}, {{1, 0, 2}, 1.0},
                                {{2, 0, 1}, 1.0}, {{1, 2, 0}, 1.0}, {{0, 1, 2}, 2.0}};
  const auto r = plackett_luce_ratings(o, 3, 0.0);
  for (double g : pl_gradient(o, r)) CHECK(g == Approx(0.0).margin(1e-6));
  CHECK(r[0] > r[1]);
  CHECK(r[1] > r[2]);
}

TEST_CASE("ratings stay finite when one agent always wins", "[arena]") {
  const auto r = analyze({game2(0, 1, 1, -1), game2(1, 0, -1, 1)}, {"A", "random"}, 2);
  CHECK(std::isfinite(r.agents[0].rating));
  CHECK(r.agents[1].rating == 0.0);  // the scale is anchored at random
  CHECK(r.agents[0].rating > 100.0);
}

TEST_CASE("agents parse from the command line form", "[arena]") {
  players::PlayerSpec a = players::parse_player("ppo=checkpoint:runs/x/checkpoints/latest.ckpt:sample");
  CHECK(a.name == "ppo");
  CHECK(a.is<players::Checkpoint>());
  CHECK(a.as<players::Checkpoint>().path == "runs/x/checkpoints/latest.ckpt");
  CHECK_FALSE(a.as<players::Checkpoint>().greedy);
  a = players::parse_player("ismcts:50");
  CHECK(mcts_of(a).simulations == 50);
  CHECK(mcts_of(a).rollout_policy == mcts::RolloutPolicy::kRandom);
  CHECK_FALSE(players::uses_network(a));
  a = players::parse_player("ismcts:800:heuristic");
  CHECK(mcts_of(a).simulations == 800);
  CHECK(mcts_of(a).rollout_policy == mcts::RolloutPolicy::kHeuristic);
  CHECK(mcts_of(a).heuristic_prior == 0.5);
  CHECK(mcts_of(a).rollouts == 1);
  CHECK_FALSE(players::uses_network(a));
  a = players::parse_player("ismcts:200:heuristic:4");  // Launchpad 23's first search (docs/search.md)
  CHECK(mcts_of(a).simulations == 200);
  CHECK(mcts_of(a).rollout_policy == mcts::RolloutPolicy::kHeuristic);
  CHECK(mcts_of(a).rollouts == 4);
  CHECK_THROWS_WITH(players::parse_player("ismcts:200:heuristic:0"), Catch::Contains("playouts per leaf"));
  CHECK_THROWS_WITH(players::parse_player("ismcts:200:heuristic:4:5"),
                    Catch::Contains("'5' is not a search setting KEY=VALUE"));
  // More search keys follow the short form as KEY=VALUE, read like the YAML keys.
  a = players::parse_player("ismcts:1600:heuristic:rollout_depth=8:c_puct=0.75");
  CHECK(mcts_of(a).simulations == 1600);
  CHECK(mcts_of(a).rollouts == 1);
  CHECK(mcts_of(a).heuristic_prior == 0.5);
  CHECK(mcts_of(a).rollout_depth == 8);
  CHECK(mcts_of(a).c_puct == 0.75);
  CHECK(mcts_of(players::parse_player("ismcts:200:heuristic:4:rollout_epsilon=0.1")).rollouts == 4);
  CHECK_THROWS_WITH(players::parse_player("ismcts:200:heuristic:4:rollout_depth=100001"),
                    Catch::Contains("rollout_depth") && Catch::Contains("out of range [0, 100000]"));
  CHECK_THROWS_WITH(players::parse_player("ismcts:200:heuristic:bogus=1"), Catch::Contains("bogus"));
  // The short form says rollout_policy (the word heuristic): saying it again is refused (issue 55).
  CHECK_THROWS_WITH(players::parse_player("ismcts:200:heuristic:rollout_policy=random:rollout_epsilon=0.1"),
                    Catch::Contains("search key 'rollout_policy' is given twice"));
  CHECK_THROWS_AS(players::parse_player("ismcts:200:heuristic:c_puct="), ConfigError);
  CHECK_THROWS_WITH(players::parse_player("ismcts:200:./net.ckpt:4"), Catch::Contains("too many"));
  a = players::parse_player("ismcts:50:./heuristic");  // a checkpoint file of that name
  CHECK(a.as<players::Ismcts>().network == "./heuristic");
  CHECK(players::uses_network(a));
  CHECK_THROWS_AS(players::parse_player("alphago"), ConfigError);
  CHECK_THROWS_AS(players::parse_player("checkpoint"), ConfigError);
  CHECK_THROWS_AS(players::parse_player("ismcts:many"), ConfigError);
  std::vector<players::PlayerSpec> agents{
      players::parse_player("random"), players::parse_player("random"),
      players::parse_player("checkpoint:runs/r1/checkpoints/latest.ckpt")};
  players::name_players(agents);
  CHECK(agents[0].name == "random");
  CHECK(agents[1].name == "random#2");
  CHECK(agents[2].name == "r1/latest");
}

TEST_CASE("arena configs reject unknown keys with file and line", "[arena]") {
  const auto root =
      ConfigNode::parse("game: {id: launchpad23}\nagents:\n  - {kind: random}\nrounds: 3\n", "a.yaml");
  CHECK_THROWS_WITH(ArenaConfig::from_yaml(root), Catch::Contains("a.yaml") && Catch::Contains("rounds"));
  const auto bad_agent = ConfigNode::parse("game: {id: launchpad23}\nagents:\n  - {kind: randm}\n", "b.yaml");
  CHECK_THROWS_AS(ArenaConfig::from_yaml(bad_agent), ConfigError);
  const auto bad_game = ConfigNode::parse("game: {id: chess}\n", "c.yaml");
  CHECK_THROWS_WITH(ArenaConfig::from_yaml(bad_game), Catch::Contains("c.yaml") && Catch::Contains("chess"));
}

TEST_CASE("search agents refuse playout settings their evaluator would ignore", "[arena]") {
  auto agent_from = [](const std::string& mapping) {
    return players::parse_player(
        ConfigNode::parse("game: {id: launchpad23}\nagents:\n  - " + mapping + "\n", "a.yaml")
            .child("agents")
            .items()[0]);
  };
  // Without a network every value is a playout's: nothing to mix.
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, mcts: {playout_weight: 0.5}}"),
                    Catch::Contains("a.yaml:3") && Catch::Contains("playout_weight"));
  // With one, playouts run only when mixed in.
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, checkpoint: x.ckpt, mcts: {rollout_policy: heuristic}}"),
                    Catch::Contains("rollout_policy") && Catch::Contains("playout_weight > 0"));
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, checkpoint: x.ckpt, mcts: {rollouts: 4}}"),
                    Catch::Contains("rollouts"));
  const players::PlayerSpec mixed =
      agent_from("{kind: ismcts, checkpoint: x.ckpt, mcts: {rollout_policy: heuristic, playout_weight: 1}}");
  CHECK(mcts_of(mixed).playout_weight == 1.0);
  CHECK(mcts_of(agent_from("{kind: ismcts, mcts: {rollouts: 4, rollout_policy: heuristic}}")).rollouts == 4);
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, mcts: {rollout_epsilon: 0.1}}"),
                    Catch::Contains("rollout_epsilon"));
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, mcts: {gumbel_considered: 8}}"),
                    Catch::Contains("gumbel_considered") && Catch::Contains("root: puct"));
  CHECK(mcts_of(agent_from("{kind: ismcts, mcts: {root: gumbel, gumbel_considered: 8}}")).gumbel_considered ==
        8);
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, mcts: {prior_temperature: 2}}"),
                    Catch::Contains("prior_temperature"));
  CHECK(mcts_of(agent_from("{kind: ismcts, checkpoint: x.ckpt, mcts: {prior_temperature: 2}}"))
            .prior_temperature == 2.0);
}

TEST_CASE("arena results do not depend on how many games run at once", "[arena]") {
  using G = launchpad23::Game;
  const auto game = load_game("launchpad23");
  std::vector<players::PlayerSpec> agents{players::parse_player("heuristic"),
                                          players::parse_player("random")};
  players::name_players(agents);
  const auto schedule = make_schedule(2, 2, 6, 5);
  ArenaOptions one, many;
  one.parallel = 1;
  many.parallel = 8;
  many.threads = 2;
  Arena<G> a(typed_config<G>(*game), 2, agents, one), b(typed_config<G>(*game), 2, agents, many);
  const auto ra = a.play(schedule), rb = b.play(schedule);
  REQUIRE(ra.size() == schedule.size());
  for (std::size_t i = 0; i < ra.size(); ++i) {
    CHECK(ra[i].agent == schedule[i].agent);  // the record keeps who sat where
    CHECK(ra[i].seed == schedule[i].seed);
    CHECK(ra[i].returns == rb[i].returns);
    CHECK(ra[i].decisions == rb[i].decisions);
    CHECK(ra[i].decisions > 0);
  }
}

TEST_CASE("an interrupted arena returns the games it finished, in schedule order", "[arena]") {
  using G = launchpad23::Game;
  const auto game = load_game("launchpad23");
  std::vector<players::PlayerSpec> agents{players::parse_player("heuristic"),
                                          players::parse_player("random")};
  players::name_players(agents);
  const auto schedule = make_schedule(2, 2, 6, 5);
  ArenaOptions options;
  options.parallel = 3;
  const auto all = Arena<G>(typed_config<G>(*game), 2, agents, options).play(schedule);
  int rounds = 0;
  players::Interrupt interrupt([&] { return ++rounds == 150; });
  options.interrupt = &interrupt;
  interrupt.arm();
  Arena<G> arena(typed_config<G>(*game), 2, agents, options);
  std::vector<std::vector<Action>> moves;
  const auto some = arena.play(schedule, nullptr, &moves);
  CHECK(arena.interrupted());
  REQUIRE(!some.empty());
  REQUIRE(some.size() < schedule.size());
  REQUIRE(moves.size() == some.size());
  auto same_game = [](const GameRecord& a, const GameRecord& b) {
    return a.lineup == b.lineup && a.rotation == b.rotation && a.seed == b.seed;
  };
  std::size_t next = 0;  // each finished game is the uninterrupted arena's, in schedule order
  for (std::size_t k = 0; k < some.size(); ++k) {
    while (next < all.size() && !same_game(all[next], some[k])) ++next;
    REQUIRE(next < all.size());
    CHECK(all[next].returns == some[k].returns);
    CHECK(all[next].decisions == some[k].decisions);
    CHECK(static_cast<int>(moves[k].size()) == some[k].decisions);
    ++next;
  }
}

TEST_CASE("the arena refuses a checkpoint trained for another game", "[arena]") {
  const auto dir = std::filesystem::temp_directory_path() / ("rocketgym_arena_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  CheckpointMeta m;
  m.game = "lift_off";
  m.observation_shape = {8};
  m.num_actions = 4;
  m.net.hidden = 8;
  PolicyValueNet net(m.net_spec());
  save_checkpoint((dir / "other.ckpt").string(), m, net, nullptr);
  ArenaConfig config;
  config.game.id = "launchpad23";
  config.agents = {players::parse_player("checkpoint:" + (dir / "other.ckpt").string()),
                   players::parse_player("random")};
  config.games = 1;
  CHECK_THROWS_WITH(play_arena(config, false), Catch::Contains("trained for game 'lift_off'"));
}

TEST_CASE("an arena output folder that cannot be written is refused before playing", "[arena]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rocketgym_output_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a_file") << "not a folder";
  ArenaConfig config;
  config.game.id = "launchpad23";
  config.output = (dir / "a_file" / "results").string();
  CHECK_THROWS_WITH(prepare_arena_output(config), Catch::Contains(config.output));
  config.output = (dir / "a_file").string();
  CHECK_THROWS_WITH(prepare_arena_output(config), Catch::Contains("a_file"));
  // A writable folder is created and left with its lock but without the probe file.
  config.output = (dir / "new" / "results").string();
  std::unique_ptr<RunFolderLock> lock;
  CHECK_NOTHROW(lock = prepare_arena_output(config));
  CHECK(std::filesystem::is_directory(config.output));
  std::set<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(config.output))
    left.insert(entry.path().filename().string());
  CHECK(left == std::set<std::string>{".lock"});
  // Writing the results names the file it could not write.
  CHECK_THROWS_WITH(write_text_file((dir / "a_file" / "x.txt").string(), "text"), Catch::Contains("x.txt"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("every arena config in configs/arena loads", "[arena]") {
  const std::string dir = std::string(ROCKETGYM_SOURCE_DIR) + "/configs/arena";
  int loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    INFO(entry.path().string());
    const ArenaConfig config = ArenaConfig::from_yaml(ConfigNode::load_file(entry.path().string()));
    CHECK(config.agents.size() >= 2);
    CHECK(config.games >= 1);
    ++loaded;
  }
  CHECK(loaded >= 6);
}

TEST_CASE("two arenas never share an output folder", "[arena]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rocketgym_arena_lock_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ArenaConfig config;
  config.game.id = "launchpad23";
  config.output = dir.string();
  {
    const RunFolderLock held(dir.string());  // another arena (or a training) writing there
    CHECK_THROWS_WITH(prepare_arena_output(config),
                      Catch::Contains("arena output folder '" + dir.string() + "'") &&
                          Catch::Contains("in use by another rocketgym"));
  }
  const std::unique_ptr<RunFolderLock> first = prepare_arena_output(config);  // released with its holder
  CHECK_THROWS_WITH(prepare_arena_output(config), Catch::Contains(dir.string()) && Catch::Contains("in use"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("the arena's output folder must be named", "[arena]") {
  const auto root = ConfigNode::parse("game: {id: launchpad23}\noutput: \"\"\n", "o.yaml");
  CHECK_THROWS_WITH(ArenaConfig::from_yaml(root),
                    Catch::Contains("o.yaml") && Catch::Contains("output") && Catch::Contains("empty"));
}

namespace {

// Splits RFC 4180 CSV text into rows of fields (quoted fields may hold ',', '"' and line breaks).
std::vector<std::vector<std::string>> read_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
      rows.back().back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (!quoted && c == ',') {
      rows.back().emplace_back();
    } else if (!quoted && c == '\n') {
      rows.emplace_back(1);
    } else {
      rows.back().back() += c;
    }
  }
  if (rows.back() == std::vector<std::string>(1)) rows.pop_back();  // after the last line break
  return rows;
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("agent names with commas, quotes or line breaks keep their CSV columns", "[arena]") {
  const std::vector<std::string> names{"a,b", "say \"hi\"", "two\nlines"};
  std::vector<GameRecord> games{game2(0, 1, 1, -1), game2(1, 2, 0, 0), game2(2, 0, -1, 1)};
  const ArenaReport report = analyze(games, names, 2);
  const auto dir = std::filesystem::temp_directory_path() / ("rocketgym_csv_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  write_csv(report, games, dir.string());
  for (const char* file : {"agents.csv", "head_to_head.csv", "seats.csv", "games.csv"}) {
    INFO(file);
    const auto rows = read_csv(read_file(dir / file));
    REQUIRE(rows.size() >= 2);
    for (const auto& row : rows) CHECK(row.size() == rows.front().size());
  }
  const auto agents = read_csv(read_file(dir / "agents.csv"));
  std::set<std::string> written;
  for (std::size_t r = 1; r < agents.size(); ++r) written.insert(agents[r][0]);
  CHECK(written == std::set<std::string>(names.begin(), names.end()));
  const auto played = read_csv(read_file(dir / "games.csv"));
  CHECK(played[1][5] == "a,b");
  CHECK(played[1][6] == "say \"hi\"");
  std::filesystem::remove_all(dir);
}

TEST_CASE("every count from the command line, YAML or Python has the YAML's range", "[arena]") {
  // ismcts:2147483647 used to reserve buffers for that many simulations: std::bad_alloc.
  CHECK_THROWS_WITH(players::parse_player("ismcts:2147483647"), Catch::Contains("simulations") &&
                                                                    Catch::Contains("1 to 10000000") &&
                                                                    Catch::Contains("'2147483647'"));
  CHECK_THROWS_WITH(players::parse_player("ismcts:20:heuristic:2147483647"),
                    Catch::Contains("playouts per leaf") && Catch::Contains("1 to 100000"));
  CHECK_THROWS_WITH(players::parse_player("search:x.ckpt:2147483647"), Catch::Contains("1 to 10000000"));
  // A zoo bot also takes 0 (its raw network), and says so.
  CHECK_THROWS_WITH(players::parse_player("zoo:last_blast:2147483647"), Catch::Contains("0 to 10000000"));
  CHECK_THROWS_WITH(players::parse_player("zoo:last_blast:-5"),
                    Catch::Contains("0: the raw network") && Catch::Contains("0 to 10000000"));
  CHECK_THROWS_WITH(players::parse_player("ismcts:99999999999999999999"), Catch::Contains("1 to 10000000"));
  CHECK_THROWS_WITH(players::parse_player("ismcts:-3"), Catch::Contains("1 to 10000000"));
  CHECK(mcts_of(players::parse_player("ismcts:10000000")).simulations == mcts::kSimulationsRange.max);
  CHECK(mcts_of(players::parse_player("ismcts:1:heuristic:100000")).rollouts == mcts::kRolloutsRange.max);
  // The YAML takes the same ranges, from the same table.
  const auto yaml = [](const std::string& mcts_block) {
    return players::parse_player(ConfigNode::parse("{kind: ismcts, mcts: " + mcts_block + "}", "a.yaml"));
  };
  CHECK(mcts_of(yaml("{simulations: 10000000}")).simulations == 10'000'000);
  CHECK_THROWS_WITH(yaml("{simulations: 10000001}"),
                    Catch::Contains("a.yaml") && Catch::Contains("simulations"));
  CHECK_THROWS_WITH(yaml("{max_nodes: 2147483647}"), Catch::Contains("max_nodes"));
  // Options built in code are checked against it too.
  mcts::Options options;
  options.simulations = 2147483647;
  CHECK_THROWS_WITH(options.validate(),
                    Catch::Contains("simulations must be a whole number from 1 to 10000000"));
  options.simulations = 1;
  options.max_nodes = mcts::kMaxNodesRange.max + 1;
  CHECK_THROWS_WITH(options.validate(), Catch::Contains("max_nodes"));
}

TEST_CASE("the agent grammar: names, bare checkpoint paths, '=' in paths, zoo ids, NUL", "[arena]") {
  players::PlayerSpec a =
      players::parse_player("checkpoint:runs/lr=3e-4/checkpoints/latest.ckpt");  // '=' in the path
  CHECK(a.name.empty());
  CHECK(a.is<players::Checkpoint>());
  CHECK(a.as<players::Checkpoint>().path == "runs/lr=3e-4/checkpoints/latest.ckpt");
  a = players::parse_player("runs/x/checkpoints/latest.ckpt");  // a bare path: checkpoint:PATH, greedy
  CHECK(a.is<players::Checkpoint>());
  CHECK(a.as<players::Checkpoint>().path == "runs/x/checkpoints/latest.ckpt");
  CHECK(a.as<players::Checkpoint>().greedy);
  a = players::parse_player("best=runs/lr=3e-4/a:b.ckpt");  // a plain name, then a bare path with '=' and ':'
  CHECK(a.name == "best");
  CHECK(a.as<players::Checkpoint>().path == "runs/lr=3e-4/a:b.ckpt");
  a = players::parse_player("ppo-2.1=checkpoint:x.ckpt:sample");
  CHECK(a.name == "ppo-2.1");
  CHECK_FALSE(a.as<players::Checkpoint>().greedy);
  CHECK_THROWS_WITH(players::parse_player("my bot=random"), Catch::Contains("not an agent name"));
  for (const char* escape : {"zoo:../../..", "zoo:../secret", "zoo:a/b", "zoo:.."}) {
    INFO(escape);
    CHECK_THROWS_WITH(players::parse_player(escape),
                      Catch::Contains("game id") && Catch::Contains("not a path"));
  }
  CHECK_THROWS_WITH(players::zoo_path("../../etc"), Catch::Contains("not a path"));
  CHECK_THROWS_WITH(players::parse_player(ConfigNode::parse("{kind: zoo, game: ../x}", "z.yaml")),
                    Catch::Contains("z.yaml") && Catch::Contains("not a path"));
  CHECK_THROWS_WITH(players::parse_player(std::string("checkpoint:a.ckpt\0/etc/passwd", 29)),
                    Catch::Contains("NUL"));
}

TEST_CASE("one agent called from several threads plays the moves it plays alone", "[arena]") {
  const std::string file = std::string(ROCKETGYM_SOURCE_DIR) + "/models/zoo/last_blast.ckpt";
  if (!std::filesystem::exists(file)) return;
  bool built = true;
  try {
    Registry::instance().find("last_blast");
  } catch (const Error&) {
    built = false;
  }
  if (!built) return;
  const auto game = load_game("last_blast");
  const int players = read_checkpoint_meta(file).served_players().front();  // num_players counts value seats
  for (const std::string& spec :
       std::vector<std::string>{"checkpoint:" + file, "search:" + file + ":4", "ismcts:8"}) {
    INFO(spec);
    auto agent = players::make_any_player(players::parse_player(spec), *game, players);
    // Positions along one game, and the move the agent picks alone at each.
    std::vector<std::unique_ptr<AnyState>> positions;
    std::vector<Action> alone;
    auto state = game->new_state(players, 3);
    for (int move = 0; move < 24 && !state->is_terminal(); ++move) {
      positions.push_back(state->clone());
      alone.push_back(agent->act(*state, static_cast<uint64_t>(move)));
      state->apply(alone.back());
    }
    constexpr int kThreads = 4, kRounds = 5;
    std::vector<std::vector<Action>> seen(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        for (int round = 0; round < kRounds; ++round)
          for (std::size_t i = 0; i < positions.size(); ++i)
            seen[t].push_back(agent->act(*positions[i], static_cast<uint64_t>(i)));
      });
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t)
      for (std::size_t k = 0; k < seen[t].size(); ++k) CHECK(seen[t][k] == alone[k % positions.size()]);
  }
}

TEST_CASE("an arena too large to hold is refused before anything is allocated", "[arena]") {
  // Each gave std::bad_alloc after gigabytes (2 agents x 2 rotations x 10M seeds; 200 agents at 4
  // players: 65M lineups).
  CHECK(scheduled_games(2, 2, 100, false) == 200);         // one lineup, two rotations
  CHECK(scheduled_games(5, 3, 10, false) == 10 * 3 * 10);  // C(5, 3) lineups
  CHECK(scheduled_games(4, 2, 7, true) == 3 * 2 * 7);      // one lineup per other agent
  CHECK(scheduled_games(1'000'000, 8, 1'000'000, false) == kMaxScheduledGames + 1);  // saturates
  CHECK_NOTHROW(check_arena_size(2, 2, kMaxScheduledGames / 2, false));
  CHECK_THROWS_WITH(make_schedule(2, 2, kMaxScheduledGames, 1),
                    Catch::Contains("games: 1048576 seeds per lineup") && Catch::Contains("2 times") &&
                        Catch::Contains("1048576 games") && Catch::Contains("at most 524288"));
  CHECK_THROWS_WITH(make_schedule(kMaxArenaAgents + 1, 4, 1, 1),
                    Catch::Contains("agents: 101 agents") && Catch::Contains("at most 100"));
  CHECK_THROWS_WITH(make_schedule(kMaxArenaAgents, 8, 1, 1),
                    Catch::Contains("games: 1 seed per lineup, each played more than 1048576 times"));
  // The key's range is the cap (a seed per lineup plays at least one game).
  CHECK(ArenaConfig::keys().find("games")->max == kMaxScheduledGames);
  // The config, the command line and Python meet it in set_up_arena, before any network is loaded.
  ArenaConfig config;
  config.game.id = "lift_off";
  config.agents.assign(200, players::parse_player("random"));
  config.games = 1;
  CHECK_THROWS_WITH(set_up_arena(config), Catch::Contains("agents: 200 agents"));
  config.agents.resize(2);
  config.games = kMaxScheduledGames;
  CHECK_THROWS_AS(set_up_arena(config), ConfigError);
  // A YAML list of too many agents: refused naming the file and the key before they are read.
  std::string yaml = "game: {id: lift_off}\nagents:\n";
  for (int a = 0; a <= kMaxArenaAgents; ++a) yaml += "  - {kind: random}\n";
  CHECK_THROWS_WITH(
      ArenaConfig::from_yaml(ConfigNode::parse(yaml, "many.yaml")),
      Catch::Contains("many.yaml") && Catch::Contains("agents") && Catch::Contains("at most 100"));
}

TEST_CASE("a spec with an empty part or a KEY=VALUE that is not a plain scalar is refused", "[arena]") {
  // ismcts:10: played as ismcts:10 (its empty third part read as no checkpoint).
  CHECK_THROWS_WITH(players::parse_player("ismcts:10:"),
                    Catch::Contains("part 3 (after ':' number 2) is empty"));
  CHECK_THROWS_WITH(players::parse_player("ismcts::heuristic"), Catch::Contains("part 2"));
  CHECK_THROWS_WITH(players::parse_player("me=ismcts:10:heuristic:4:"), Catch::Contains("part 5"));
  for (const char* text : {"random:", "heuristic:", "ismcts:", "checkpoint:x.ckpt:", "zoo:lift_off:"}) {
    INFO(text);
    CHECK_THROWS_AS(players::parse_player(text), ConfigError);
  }
  // c_puct=!!str 1 was read as the number 1: a tag, quotes or a flow collection is refused, naming the key.
  for (const char* value : {"!!str 1", "'1'", "[1]", "{a: 1}", "&x 1", "1 #x"}) {
    INFO(value);
    CHECK_THROWS_WITH(players::parse_player(std::string("ismcts:10:heuristic:4:c_puct=") + value),
                      Catch::Contains("search key 'c_puct'") && Catch::Contains("plain number or word"));
  }
  CHECK(mcts_of(players::parse_player("ismcts:10:heuristic:c_puct=1e-3")).c_puct == 1e-3);
  CHECK(mcts_of(players::parse_player("ismcts:10:heuristic:root=gumbel")).root ==
        mcts::RootSelection::kGumbel);
}

TEST_CASE("a YAML agent's name follows the command line's rule", "[arena]") {
  auto agent = [](const std::string& mapping) {
    return players::parse_player(ConfigNode::parse(mapping, "names.yaml"));
  };
  CHECK(agent("{kind: heuristic, name: ppo-2.1+x#2}").name == "ppo-2.1+x#2");
  CHECK(agent("{kind: heuristic}").name.empty());  // no key: named by its kind later
  // A raw line break split the printed table's row; an empty name silently became the kind's.
  for (const std::string& name :
       {std::string("\"a,b\\\"c\\nd\""), std::string("\"\""), std::string("'my bot'"),
        std::string("\"tab\\there\""), std::string(players::kMaxAgentName + 1, 'n')}) {
    INFO(name);
    CHECK_THROWS_WITH(agent("{kind: heuristic, name: " + name + "}"),
                      Catch::Contains("names.yaml") && Catch::Contains("name") &&
                          Catch::Contains("1 to 64 letters, digits and _ - . + #"));
  }
  const std::string longest(players::kMaxAgentName, 'n');
  CHECK(agent("{kind: heuristic, name: " + longest + "}").name == longest);
}

namespace {

// A player whose every answer fails, as a search over a network whose values
// overflow does ("mcts: the evaluator returned a non-finite value").
struct FailingPlayer : players::Player<launchpad23::Game> {
  void act(players::Decision<launchpad23::Game>*, int) override {
    throw Error("mcts: the evaluator returned a non-finite value");
  }
};

}  // namespace

TEST_CASE("an agent's error in the arena names the agent", "[arena]") {
  using G = launchpad23::Game;
  const auto game = load_game("launchpad23");
  std::vector<players::PlayerSpec> agents{players::parse_player("heuristic"),
                                          players::parse_player("broken=random")};
  players::name_players(agents);
  Arena<G>::Supplied supplied{nullptr, std::make_shared<FailingPlayer>()};
  Arena<G> arena(typed_config<G>(*game), 2, agents, ArenaOptions{}, supplied);
  CHECK_THROWS_WITH(arena.play(make_schedule(2, 2, 1, 5)),
                    Catch::StartsWith("agent 'broken': mcts: the evaluator returned a non-finite value"));
}
