// The tables of `rocketgym serve` (training/cli/table_server.h), without HTTP:
// expiry and the table cap on an injected clock, secret bot moves kept out of
// the replies, stale and illegal moves refused without changing the table,
// undo for humans, the arena's table of recorded games.
#include "training/cli/table_server.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>

using namespace rocketgym;
using nlohmann::json;
using serve::ApiError;
using serve::Clock;

namespace {

serve::TableServer make_server(int max_tables = 4) {
  serve::TableLimits limits;
  limits.max_tables = max_tables;
  limits.idle_expiry = std::chrono::minutes(30);
  return serve::TableServer(nullptr, limits);
}

json table_request(const std::string& game, std::vector<std::string> seats) {
  return {{"game", game}, {"players", seats.size()}, {"seats", seats}, {"seed", 5}};
}

// What a seat sees of a table, without the counters that undo moves on.
json position(json reply) {
  for (const char* key : {"version", "log", "can_undo"}) reply.erase(key);
  return reply;
}

json move_of(const json& table, int action) {
  return {{"seat", table.at("viewer")}, {"action", action}, {"version", table.at("version")}};
}

json ask(const json& table) { return {{"seat", table.at("viewer")}, {"version", table.at("version")}}; }

int status_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const ApiError& e) {
    return e.status;
  }
  return 200;
}

}  // namespace

TEST_CASE("a table closes after its idle time; every request keeps it open", "[serve]") {
  auto server = make_server();
  const Clock::time_point t0{};
  const json table = server.create_table(table_request("last_blast", {"human", "heuristic"}), t0);
  const std::string id = table.at("table");
  REQUIRE(server.table(id, "0", t0 + std::chrono::minutes(29)).at("table") == id);
  REQUIRE(server.table(id, "0", t0 + std::chrono::minutes(58)).at("table") == id);
  REQUIRE(status_of([&] { server.table(id, "0", t0 + std::chrono::minutes(89)); }) == 404);
  REQUIRE(server.num_tables() == 0);
}

TEST_CASE("more tables than the cap are refused until one closes", "[serve]") {
  auto server = make_server(2);
  const Clock::time_point t0{};
  server.create_table(table_request("launchpad23", {"human", "random"}), t0);
  server.create_table(table_request("launchpad23", {"human", "random"}), t0 + std::chrono::minutes(20));
  const auto request = table_request("launchpad23", {"human", "random"});
  REQUIRE(status_of([&] { server.create_table(request, t0 + std::chrono::minutes(25)); }) == 503);
  // The first table has been idle for 31 minutes: it closes and makes room.
  REQUIRE(server.create_table(request, t0 + std::chrono::minutes(31)).at("waiting") == "you");
  REQUIRE(server.num_tables() == 2);
}

TEST_CASE("a bot's secret move is played at once and never shown", "[serve]") {
  auto server = make_server();
  // The Last Blast's draft picks are secret: the bot in seat 0 picks first.
  const json table =
      server.create_table(table_request("last_blast", {"heuristic", "human"}), Clock::time_point{});
  REQUIRE(table.at("waiting") == "you");
  REQUIRE(table.at("log").empty());
  REQUIRE(table.at("viewer") == 1);
  REQUIRE_FALSE(table.at("legal").empty());
}

TEST_CASE("stale, illegal and out-of-turn moves change nothing", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  const json table = server.create_table(table_request("launchpad23", {"human", "heuristic"}), now);
  const std::string id = table.at("table");
  const int version = table.at("version");
  const int legal = table.at("legal").at(0).at("id");
  REQUIRE(status_of([&] {
            server.move(id, {{"seat", 0}, {"action", legal}, {"version", version + 1}}, now);
          }) == 409);
  REQUIRE(status_of([&] {
            server.move(id, {{"seat", 0}, {"action", 695}, {"version", version}}, now);
          }) == 400);
  REQUIRE(status_of([&] {
            server.move(id, {{"seat", 0}, {"action", -1}, {"version", version}}, now);
          }) == 400);
  REQUIRE(status_of([&] {
            server.move(id, {{"seat", 1}, {"action", legal}, {"version", version}}, now);
          }) == 400);
  REQUIRE(status_of([&] { server.step(id, {{"seat", 0}, {"version", version}}, now); }) == 409);
  REQUIRE(server.table(id, "0", now) == table);
  const json after = server.move(id, {{"seat", 0}, {"action", legal}, {"version", version}}, now);
  REQUIRE(after.at("version") == version + 1);
  REQUIRE(after.at("log").size() == 1);
}

TEST_CASE("bad requests name what is wrong", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  auto message = [&](const json& request) -> std::string {
    try {
      server.create_table(request, now);
    } catch (const ApiError& e) {
      REQUIRE(e.status == 400);
      return e.what();
    }
    FAIL("accepted " << request.dump());
    return "";
  };
  REQUIRE_THAT(message(table_request("chess", {"human", "random"})), Catch::Contains("chess"));
  REQUIRE_THAT(message(table_request("last_blast", {"human", "deep_blue"})), Catch::Contains("deep_blue"));
  REQUIRE_THAT(message({{"game", "last_blast"}, {"players", 2}}), Catch::Contains("seats"));
  REQUIRE_THROWS_WITH(serve::parse_request("{"), Catch::Contains("not valid JSON"));
  REQUIRE_THROWS_WITH(serve::parse_request("[]"), Catch::Contains("must be a JSON object"));
}

TEST_CASE("undo takes back the human's last move and the bot moves after it", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  const json start = server.create_table(table_request("launchpad23", {"human", "heuristic"}), now);
  const std::string id = start.at("table");
  REQUIRE_FALSE(start.at("can_undo"));
  REQUIRE(status_of([&] { server.undo(id, ask(start), now); }) == 409);  // nothing to undo
  REQUIRE(server.table(id, "0", now) == start);
  // The human moves, then the bots play until the human is to move again,
  // until a visible bot move followed the human's.
  const auto bot_moved_last = [](const json& t) {
    return !t.at("log").empty() && t.at("log").back().at("bot");
  };
  json decision, table = start;
  int action = 0;
  do {
    decision = table;
    action = decision.at("legal").at(0).at("id");
    table = server.move(id, move_of(decision, action), now);
    REQUIRE(table.at("can_undo"));
    while (table.at("waiting") == "bot") table = server.step(id, ask(table), now);
  } while (!bot_moved_last(table));
  const json before_undo = table;
  REQUIRE(status_of([&] { server.undo(id, {{"seat", 1}, {"version", table.at("version")}}, now); }) == 400);
  REQUIRE(status_of([&] {
            server.undo(id, {{"seat", 0}, {"version", decision.at("version")}}, now);
          }) == 409);
  REQUIRE(server.table(id, "0", now) == before_undo);  // refused undos change nothing
  const json undone = server.undo(id, ask(table), now);
  REQUIRE(position(undone) == position(decision));
  REQUIRE(undone.at("log") == decision.at("log"));
  REQUIRE(undone.at("can_undo") == decision.at("can_undo"));
  // The version moves on: a move made before the undo, at the same position, is stale.
  REQUIRE(undone.at("version") > before_undo.at("version"));
  REQUIRE(status_of([&] { server.move(id, move_of(decision, action), now); }) == 409);
  REQUIRE(status_of([&] { server.undo(id, ask(before_undo), now); }) == 409);
  // The same move again gives the same game (a bot's seed is its move's place in the game).
  json again = server.move(id, move_of(undone, action), now);
  while (again.at("waiting") == "bot") again = server.step(id, ask(again), now);
  REQUIRE(position(again) == position(before_undo));
  REQUIRE(again.at("log") == before_undo.at("log"));
  // Undo after undo goes back to the start.
  json back = server.undo(id, ask(again), now);
  while (back.at("can_undo")) back = server.undo(id, ask(back), now);
  REQUIRE(position(back) == position(start));
  REQUIRE(back.at("log").empty());
}

TEST_CASE("undo goes back over a bot's secret moves and a pending bot move", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  // The Last Blast: the bot in seat 0 drafts secretly before each human pick.
  const json start = server.create_table(table_request("last_blast", {"heuristic", "human"}), now);
  const std::string id = start.at("table");
  json table = start;
  for (int picks = 0; picks < 3; ++picks) {
    REQUIRE(table.at("waiting") == "you");
    table = server.move(id, move_of(table, table.at("legal").at(0).at("id")), now);
    while (table.at("waiting") == "bot") table = server.step(id, ask(table), now);
  }
  const json third = table;  // at the fourth pick
  table = server.move(id, move_of(table, table.at("legal").back().at("id")), now);
  const json undone = server.undo(id, ask(table), now);
  REQUIRE(position(undone) == position(third));
  REQUIRE(undone.at("log") == third.at("log"));
  REQUIRE(undone.at("can_undo"));
}

TEST_CASE("hot-seat undo goes back to the previous human decision, whoever made it", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  const json start = server.create_table(table_request("launchpad23", {"human", "human"}), now);
  const std::string id = start.at("table");
  const json after_seat0 = server.move(id, move_of(start, start.at("legal").at(0).at("id")), now);
  REQUIRE(after_seat0.at("human_seat") == 1);
  const json seat1 = server.table(id, "1", now);
  const json after_seat1 = server.move(id, move_of(seat1, seat1.at("legal").at(0).at("id")), now);
  REQUIRE(after_seat1.at("viewer") == 1);
  // Seat 1's move is taken back: seat 1 is to move again.
  const json undo1 = server.undo(id, ask(after_seat1), now);
  REQUIRE(undo1.at("waiting") == "you");
  REQUIRE(position(undo1) == position(seat1));
  // Then seat 0's: seat 1 asked, so it sees that seat 0 is to move.
  const json undo0 = server.undo(id, ask(undo1), now);
  REQUIRE(undo0.at("viewer") == 1);
  REQUIRE(undo0.at("waiting") == "human");
  REQUIRE(undo0.at("human_seat") == 0);
  REQUIRE(position(server.table(id, "0", now)) == position(start));
  REQUIRE(status_of([&] { server.undo(id, ask(undo0), now); }) == 409);
}

namespace {

// Plays a game of two bots and returns its record, as the arena writes it.
RecordedGame play_record(const std::string& game_id, const std::vector<std::string>& names,
                         const std::vector<std::string>& specs, uint64_t seed) {
  auto game = load_game(game_id, "", "");
  const int players = static_cast<int>(specs.size());
  auto bots = cli::make_bots(specs, *game, players, nullptr);
  auto state = game->new_state(players, seed);
  std::vector<Action> actions;
  while (!state->is_terminal()) {
    const Action a = bots[static_cast<std::size_t>(state->current_player())](*state, seed + actions.size());
    actions.push_back(a);
    state->apply(a);
  }
  return make_record(game_id, "", seed, names, actions, *state);
}

// A records file in the test's temporary folder, removed at the end.
struct RecordsFile {
  explicit RecordsFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() / ("rocketgym_serve_test_" + name)).string()) {
    std::filesystem::remove(path);
  }
  ~RecordsFile() { std::filesystem::remove(path); }
  std::string path;
};

}  // namespace

TEST_CASE("the arena table of a records file counts each agent's games, score and pairs", "[serve]") {
  RecordsFile file("arena.jsonl");
  std::vector<RecordedGame> games;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    // "strong" (heuristic) and "weak" (random) take turns in seat 0.
    const bool strong_first = seed % 2 == 1;
    games.push_back(play_record("launchpad23",
                                strong_first ? std::vector<std::string>{"strong", "weak"}
                                             : std::vector<std::string>{"weak", "strong"},
                                strong_first ? std::vector<std::string>{"heuristic", "random"}
                                             : std::vector<std::string>{"random", "heuristic"},
                                seed));
  }
  append_records(file.path, games);
  auto server = make_server();
  server.add_records(load_records(file.path));
  const json tables = server.arena_tables();
  REQUIRE(tables.size() == 1);
  const json& table = tables.at(0);
  REQUIRE(table.at("source") == file.path);
  REQUIRE(table.at("game") == "launchpad23");
  REQUIRE(table.at("games") == 6);
  REQUIRE(table.at("num_players") == 2);
  // The score of each agent, counted here from the returns: 1 for the better return, a half for a draw.
  double strong_score = 0.0;
  for (const RecordedGame& g : games) {
    const std::size_t strong = g.players[0] == "strong" ? 0 : 1;
    const float mine = g.returns[strong], theirs = g.returns[1 - strong];
    strong_score += mine > theirs ? 1.0 : mine == theirs ? 0.5 : 0.0;
  }
  const json& agents = table.at("agents");
  REQUIRE(agents.size() == 2);
  REQUIRE(agents.at(0).at("name") == "strong");  // in order of first appearance
  REQUIRE(agents.at(1).at("name") == "weak");
  REQUIRE(agents.at(0).at("games") == 6);
  REQUIRE(agents.at(1).at("games") == 6);
  REQUIRE(agents.at(0).at("wins").get<double>() == Approx(strong_score));
  REQUIRE(agents.at(1).at("wins").get<double>() == Approx(6.0 - strong_score));
  REQUIRE(table.at("head_to_head").at(0).at(1).get<double>() == Approx(strong_score / 6.0));
  REQUIRE(table.at("head_to_head_count").at(0).at(1) == 6);
  REQUIRE(table.at("seats").size() == 2);
  REQUIRE(server.records().at(5).at("arena") == 0);
}

TEST_CASE("each records file, game and player count has its own arena table", "[serve]") {
  RecordsFile first("first.jsonl"), second("second.jsonl");
  append_records(first.path, {play_record("launchpad23", {"a", "b"}, {"heuristic", "random"}, 1),
                              play_record("last_blast", {"a", "b"}, {"heuristic", "random"}, 2),
                              play_record("launchpad23", {"b", "c"}, {"random", "random"}, 3)});
  append_records(second.path,
                 {play_record("launchpad23", {"a", "b"}, {"heuristic", "random"}, 4),
                  play_record("launchpad23", {"a", "b", "c"}, {"random", "random", "random"}, 5)});
  auto server = make_server();
  server.add_records(load_records(first.path));
  server.add_records(load_records(second.path));
  const json tables = server.arena_tables();
  REQUIRE(tables.size() == 4);
  std::vector<int> arena_of;
  for (const json& r : server.records()) arena_of.push_back(r.at("arena"));
  REQUIRE(arena_of == std::vector<int>{0, 1, 0, 2, 3});
  REQUIRE(tables.at(0).at("games") == 2);
  REQUIRE(tables.at(0).at("agents").size() == 3);             // a, b and c
  REQUIRE(tables.at(0).at("agents").at(1).at("games") == 2);  // b played both games
  REQUIRE(tables.at(1).at("game") == "last_blast");
  REQUIRE(tables.at(2).at("source") == second.path);
  REQUIRE(tables.at(3).at("num_players") == 3);
  REQUIRE(tables.at(3).at("agents").at(0).at("games") == 1);
}
