// The tables of `rocketgym serve` (training/cli/table_server.h), without HTTP:
// expiry and the table cap on an injected clock, each human seat's key,
// seat kinds from the server's list only, secret bot moves kept out of the
// replies and their timing (the reply schedule on an injected clock), bots
// moving without holding up other tables, stale and illegal moves refused
// without changing the table, undo (one human, with a new deal), request
// bodies parsed with a depth limit and errors that never quote the request,
// unknown and repeated body fields refused, numbers in canonical decimal only,
// the arena's table of recorded games.
#include "training/cli/table_server.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <future>
#include <map>
#include <thread>

#include "training/cli/seen_moves.h"

using namespace rocketgym;
using nlohmann::json;
using serve::ApiError;
using serve::Clock;

namespace rocketgym::serve {
// What the tests read of a table that no request may see.
struct TableServerTestAccess {
  static std::string state_json(TableServer& server, const std::string& id) {
    std::lock_guard<std::mutex> lock(server.mutex_);
    return server.tables_.at(id)->state->to_json();
  }
  static std::string base_json(TableServer& server, const std::string& id) {
    std::lock_guard<std::mutex> lock(server.mutex_);
    return server.tables_.at(id)->bases.back().state->to_json();
  }
  // Analyses waiting for a turn (kMaxAnalysesAtOnce are running).
  static int analyses_waiting(TableServer& server) {
    std::lock_guard<std::mutex> lock(server.mutex_);
    return server.analyses_waiting_;
  }
};
}  // namespace rocketgym::serve

namespace {

using serve::TableServerTestAccess;

serve::TableServer make_server(int max_tables = 4) {
  serve::TableLimits limits;
  limits.max_tables = max_tables;
  limits.idle_expiry = std::chrono::minutes(30);
  return serve::TableServer(nullptr, serve::SeatKinds::basic(), limits);
}

json table_request(const std::string& game, std::vector<std::string> seats) {
  return {{"game", game}, {"players", seats.size()}, {"seats", seats}, {"seed", 5}};
}

// A table as its maker holds it: its id, the keys of its human seats and the last reply.
struct Held {
  std::string id;
  json keys;
  json reply;
  std::string key(int seat) const { return keys.at(std::to_string(seat)); }
  std::string key() const { return key(reply.at("viewer")); }
};

Held create(serve::TableServer& server, const json& request, Clock::time_point now = {}) {
  serve::TableReply created = server.create_table(request, now);
  return {created.body.at("table"), created.body.at("keys"), created.body};
}

// What a seat sees of a table, without the counters that undo moves on.
json position(json reply) {
  for (const char* key : {"version", "log", "can_undo", "keys"}) reply.erase(key);
  return reply;
}

json move_of(const json& table, int action) {
  return {{"seat", table.at("viewer")}, {"action", action}, {"version", table.at("version")}};
}

json ask(const json& table) { return {{"seat", table.at("viewer")}, {"version", table.at("version")}}; }

// The HTTP status of a call's ApiError (200 when it succeeds), and its message.
int status_of(const std::function<void()>& call, std::string* message = nullptr) {
  try {
    call();
  } catch (const ApiError& e) {
    if (message) *message = e.what();
    return e.status;
  }
  return 200;
}

}  // namespace

TEST_CASE("a table closes after its idle time; every request keeps it open", "[serve]") {
  auto server = make_server();
  const Clock::time_point t0{};
  const Held table = create(server, table_request("last_blast", {"human", "heuristic"}), t0);
  const std::string& id = table.id;
  REQUIRE(server.table(id, "0", table.key(0), t0 + std::chrono::minutes(29)).at("table") == id);
  REQUIRE(server.table(id, "0", table.key(0), t0 + std::chrono::minutes(58)).at("table") == id);
  REQUIRE(status_of([&] { server.table(id, "0", table.key(0), t0 + std::chrono::minutes(89)); }) == 404);
  REQUIRE(server.num_tables() == 0);
}

TEST_CASE("more tables than the cap are refused until one closes", "[serve]") {
  auto server = make_server(2);
  const Clock::time_point t0{};
  create(server, table_request("launchpad23", {"human", "random"}), t0);
  create(server, table_request("launchpad23", {"human", "random"}), t0 + std::chrono::minutes(20));
  const auto request = table_request("launchpad23", {"human", "random"});
  REQUIRE(status_of([&] { server.create_table(request, t0 + std::chrono::minutes(25)); }) == 503);
  // The first table has been idle for 31 minutes: it closes and makes room.
  REQUIRE(server.create_table(request, t0 + std::chrono::minutes(31)).body.at("waiting") == "you");
  REQUIRE(server.num_tables() == 2);
}

TEST_CASE("a bot's secret move is played at once and never shown", "[serve]") {
  auto server = make_server();
  // The Last Blast's draft picks are secret: the bot in seat 0 picks first.
  const Held table = create(server, table_request("last_blast", {"heuristic", "human"}));
  REQUIRE(table.reply.at("waiting") == "you");
  REQUIRE(table.reply.at("log").empty());
  REQUIRE(table.reply.at("viewer") == 1);
  REQUIRE_FALSE(table.reply.at("legal").empty());
}

TEST_CASE("each human seat has its own key, needed for its view, its moves and its undo", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  const Held table = create(server, table_request("launchpad23", {"human", "human"}), now);
  REQUIRE(table.keys.size() == 2);
  REQUIRE(table.key(0).size() == 32);
  REQUIRE(table.key(0) != table.key(1));
  const int legal = table.reply.at("legal").at(0).at("id");
  const json move0 = {{"seat", 0}, {"action", legal}, {"version", table.reply.at("version")}};
  // Seat 1's key, a made-up key, or none: seat 0's view and moves are refused.
  for (const std::string& key : {table.key(1), std::string(32, '0'), std::string()}) {
    REQUIRE(status_of([&] { server.table(table.id, "0", key, now); }) == 403);
    REQUIRE(status_of([&] { server.move(table.id, move0, key, now); }) == 403);
    REQUIRE(status_of([&] { server.undo(table.id, {{"seat", 0}, {"version", 0}}, key, now); }) == 403);
    REQUIRE(status_of([&] { server.step(table.id, {{"seat", 0}, {"version", 0}}, key, now); }) == 403);
  }
  for (const std::string& key : {std::string(32, '0'), std::string()})
    REQUIRE(status_of([&] { server.table(table.id, "", key, now); }) == 403);
  REQUIRE(status_of([&] { server.table(table.id, "full", table.key(0), now); }) == 400);  // not over
  // With its own key, each seat sees its own view (the seat of a key when none is named).
  REQUIRE(server.table(table.id, "0", table.key(0), now).at("viewer") == 0);
  REQUIRE(server.table(table.id, "", table.key(1), now).at("viewer") == 1);
  REQUIRE(server.move(table.id, move0, table.key(0), now).body.at("version") == 1);
}

TEST_CASE("a seat is human or a bot of the server's list, never a spec or path of the client", "[serve]") {
  serve::SeatKinds kinds = serve::SeatKinds::basic();
  kinds.add("last_blast", 2, "zoo:last_blast");  // as serve adds the zoo bot at a size it serves
  serve::TableServer server(nullptr, kinds, serve::TableLimits{});
  const json games = server.games();
  const auto last_blast =
      std::find_if(games.begin(), games.end(), [](const json& g) { return g.at("id") == "last_blast"; });
  REQUIRE(last_blast->at("seats").at("2") == json({"human", "random", "heuristic", "zoo:last_blast"}));
  REQUIRE(last_blast->at("seats").at("3") == json({"human", "random", "heuristic"}));
  for (const char* spec :
       {"checkpoint:/etc/passwd", "/etc/passwd", "ismcts:20000:heuristic:4", "search:/tmp/x.ckpt:32",
        "zoo:../../etc/passwd", "heuristic ", "Human", "zoo:launch_pad"}) {
    INFO(spec);
    std::string message;
    REQUIRE(status_of(
                [&] {
                  server.create_table(table_request("last_blast", {"human", spec}), {});
                },
                &message) == 400);
    REQUIRE_THAT(message, Catch::Contains("random, heuristic, zoo:last_blast"));
    REQUIRE(message.find(spec) == std::string::npos);
  }
  REQUIRE(server.num_tables() == 0);
}

namespace {

// Bots for the tests below, made by name: "counted" (the heuristic, counting
// its calls and moving an injected clock on), "blocking" (waits at its first
// call until released), any other the heuristic.
struct TestBots {
  std::atomic<int> calls{0};
  std::atomic<Clock::rep> clock{0};  // the injected clock, in Clock ticks
  Clock::duration per_call = std::chrono::milliseconds(1);
  std::mutex mutex;
  std::condition_variable changed;
  bool blocked = false, released = false;

  Clock::time_point now() const { return Clock::time_point(Clock::duration(clock.load())); }
  cli::SeatBotFactory factory() {
    return [this](const std::string& spec, const AnyGame&, int) -> cli::SeatBot {
      if (spec == "counted")
        return [this](const AnyState& state, uint64_t seed) {
          ++calls;
          clock += per_call.count();
          return state.heuristic_action(seed);
        };
      if (spec != "blocking")
        return [](const AnyState& state, uint64_t seed) { return state.heuristic_action(seed); };
      return [this](const AnyState& state, uint64_t seed) {
        std::unique_lock<std::mutex> lock(mutex);
        blocked = true;
        changed.notify_all();
        changed.wait(lock, [this] { return released; });
        return state.heuristic_action(seed);
      };
    };
  }
  serve::SeatKinds kinds() {
    serve::SeatKinds k = serve::SeatKinds::basic();
    for (const char* game : {"rocket_squad", "last_blast", "launchpad23"})
      for (const char* spec : {"counted", "blocking"}) k.add(game, 2, spec);
    return k;
  }
};

}  // namespace

TEST_CASE("a bot thinking at one table holds up no other table", "[serve]") {
  TestBots bots;
  serve::TableServer server(bots.factory(), bots.kinds(), serve::TableLimits{});
  const Held other = create(server, table_request("last_blast", {"human", "heuristic"}));
  // Seat 0 is the blocking bot: its first pick runs while the table is made.
  auto making = std::async(std::launch::async, [&] {
    return server.create_table(table_request("last_blast", {"blocking", "human"}), {}).body;
  });
  {
    std::unique_lock<std::mutex> lock(bots.mutex);
    bots.changed.wait(lock, [&] { return bots.blocked; });
  }
  // While it thinks, the other table answers and a third table is made.
  const json seen = server.table(other.id, "0", other.key(0), {});
  REQUIRE(seen.at("table") == other.id);
  REQUIRE(server.move(other.id, move_of(seen, seen.at("legal").at(0).at("id")), other.key(0), {})
              .body.at("version") == 1);
  create(server, table_request("launchpad23", {"human", "random"}));
  {
    std::lock_guard<std::mutex> lock(bots.mutex);
    bots.released = true;
  }
  bots.changed.notify_all();
  REQUIRE(making.get().at("table").is_string());
  REQUIRE(server.num_tables() == 3);
}

TEST_CASE("an answer that may run bots is sent on the tick, whether or not a bot decided in secret",
          "[serve]") {
  // Rocket Squad: a bot declines to block (or to attach Crew) in secret, and only when it holds the card
  // to do it with, so how long an answer takes would tell what it holds. Every answer to a move or a
  // step is released one tick after the request, however many secret decisions the bots made.
  TestBots bots;
  serve::TableServer server(bots.factory(), bots.kinds(), serve::TableLimits{},
                            [&bots] { return bots.now(); });
  const Held table = create(server, table_request("rocket_squad", {"human", "counted"}), bots.now());
  json reply = table.reply;
  int with_secret = 0, without_secret = 0;
  for (int k = 0; reply.at("waiting") != "over" && k < 20000; ++k) {
    const int calls_before = bots.calls;
    const Clock::time_point asked = bots.now();
    serve::TableReply answer =
        reply.at("waiting") == "you"
            ? server.move(table.id,
                          move_of(reply, reply.at("legal").at(k % reply.at("legal").size()).at("id")),
                          table.key(0), asked)
            : server.step(table.id, ask(reply), table.key(0), asked);
    reply = answer.body;
    const int calls = bots.calls - calls_before;
    const int secret =
        calls - (reply.at("waiting") == "bot" ? 1 : 0);  // a step's visible move waits in `pending`
    (secret > 0 ? with_secret : without_secret) += 1;
    REQUIRE(answer.release - asked == serve::kBotReplyTick);
    bots.clock += std::chrono::duration_cast<Clock::duration>(std::chrono::milliseconds(1000)).count();
  }
  REQUIRE(reply.at("waiting") == "over");
  REQUIRE(with_secret > 0);
  REQUIRE(without_secret > 0);
  // Bots that take longer than a tick: the answer waits for the next whole tick.
  bots.per_call = std::chrono::duration_cast<Clock::duration>(serve::kBotReplyTick) * 3 / 2;
  const Held slow = create(server, table_request("last_blast", {"human", "counted"}), bots.now());
  const Clock::time_point asked = bots.now();
  const serve::TableReply picked =
      server.move(slow.id, move_of(slow.reply, slow.reply.at("legal").at(0).at("id")), slow.key(0), asked);
  REQUIRE(bots.now() - asked > serve::kBotReplyTick);
  REQUIRE((picked.release - asked) % serve::kBotReplyTick == Clock::duration(0));
  REQUIRE(picked.release >= bots.now());
  // Random and heuristic bots move in microseconds: their tables' tick is shorter.
  const Held quick = create(server, table_request("last_blast", {"human", "heuristic"}), bots.now());
  const Clock::time_point asked_quick = bots.now();
  REQUIRE(server.move(quick.id, move_of(quick.reply, quick.reply.at("legal").at(0).at("id")), quick.key(0),
                      asked_quick)
                  .release -
              asked_quick ==
          serve::kQuickBotReplyTick);
  // A table of bots only (nothing hidden from anyone) is not held.
  const Held bots_only = create(server, table_request("last_blast", {"counted", "heuristic"}), bots.now());
  const Clock::time_point then = bots.now();
  REQUIRE(server.step(bots_only.id, {{"seat", "full"}, {"version", 0}}, "", then).release == then);
}

TEST_CASE("stale, illegal and out-of-turn moves change nothing", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  const Held held = create(server, table_request("launchpad23", {"human", "heuristic"}), now);
  const json& table = held.reply;
  const std::string& id = held.id;
  const std::string key = held.key(0);
  const int version = table.at("version");
  const int legal = table.at("legal").at(0).at("id");
  REQUIRE(status_of([&] {
            server.move(id, {{"seat", 0}, {"action", legal}, {"version", version + 1}}, key, now);
          }) == 409);
  REQUIRE(status_of([&] {
            server.move(id, {{"seat", 0}, {"action", 695}, {"version", version}}, key, now);
          }) == 400);
  REQUIRE(status_of([&] {
            server.move(id, {{"seat", 0}, {"action", -1}, {"version", version}}, key, now);
          }) == 400);
  REQUIRE(status_of([&] {
            server.move(id, {{"seat", 1}, {"action", legal}, {"version", version}}, key, now);
          }) == 400);
  REQUIRE(status_of([&] { server.step(id, {{"seat", 0}, {"version", version}}, key, now); }) == 409);
  json without_keys = table;
  without_keys.erase("keys");
  REQUIRE(server.table(id, "0", key, now) == without_keys);
  const json after = server.move(id, {{"seat", 0}, {"action", legal}, {"version", version}}, key, now).body;
  REQUIRE(after.at("version") == version + 1);
  REQUIRE(after.at("log").size() == 1);
}

TEST_CASE("bad requests name what is wrong without quoting the request", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  const std::string hostile = "<script>alert(1)</script>";
  auto message = [&](const json& request) -> std::string {
    try {
      server.create_table(request, now);
    } catch (const ApiError& e) {
      REQUIRE(e.status == 400);
      REQUIRE(std::string(e.what()).find("script") == std::string::npos);
      return e.what();
    }
    FAIL("accepted " << request.dump());
    return "";
  };
  REQUIRE_THAT(message(table_request(hostile, {"human", "random"})), Catch::Contains("'game'"));
  REQUIRE_THAT(message(table_request("chess", {"human", "random"})), Catch::Contains("last_blast"));
  REQUIRE_THAT(message(table_request("last_blast", {"human", hostile})), Catch::Contains("seat 1"));
  REQUIRE_THAT(message({{"game", "last_blast"}, {"players", 2}}), Catch::Contains("seats"));
  REQUIRE_THAT(message({{"game", "last_blast"}, {"players", hostile}, {"seats", json::array()}}),
               Catch::Contains("players"));
  json options = table_request("launch_pad", {"human", "random"});
  options["options"] = {{hostile, true}};
  REQUIRE_THAT(message(options), Catch::Contains("options"));
  options["options"] = {{"variants.short_game", hostile}};
  REQUIRE_THAT(message(options), Catch::Contains("options"));
  json seed = table_request("last_blast", {"human", "random"});
  seed["seed"] = hostile;
  REQUIRE_THAT(message(seed), Catch::Contains("seed"));
  const Held table = create(server, table_request("last_blast", {"human", "random"}), now);
  for (const std::string& seat : {hostile, std::string("[[[[1]]]]"), std::string("\"") + hostile + "\""}) {
    std::string text;
    REQUIRE(status_of([&] { server.table(table.id, seat, table.key(0), now); }, &text) == 400);
    REQUIRE(text.find("script") == std::string::npos);
  }
  std::string text;
  REQUIRE(status_of(
              [&] {
                server.move(table.id, {{"seat", 0}, {"action", hostile}, {"version", 0}}, table.key(0), now);
              },
              &text) == 400);
  REQUIRE(text.find("script") == std::string::npos);
}

TEST_CASE("a request body is parsed with a depth limit and errors never quote it", "[serve]") {
  // 100000 nested arrays crashed the server (recursion in nlohmann's dump while quoting the body).
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  REQUIRE_THROWS_WITH(serve::parse_request(deep), Catch::Contains("deeper than 16"));
  REQUIRE_THROWS_WITH(serve::parse_request("{\"a\": " + std::string(100000, '{')), Catch::Contains("deeper"));
  const std::string ok =
      std::string(serve::kMaxJsonDepth - 1, '[') + std::string(serve::kMaxJsonDepth - 1, ']');
  REQUIRE(serve::parse_request("{\"a\": " + ok + "}").at("a").is_array());
  // Brackets inside strings do not count.
  REQUIRE(serve::parse_request("{\"a\": \"" + std::string(100, '[') + "\\\"[\"}").at("a").is_string());
  for (const std::string& bad : {std::string("{<script>"), std::string("[\"<script>\"]"),
                                 std::string("\"<script>\""), std::string("{\"a\": \"\xff<script>\"}")}) {
    INFO(bad);
    try {
      serve::parse_request(bad);
      FAIL("accepted");
    } catch (const ApiError& e) {
      REQUIRE(e.status == 400);
      REQUIRE(std::string(e.what()).find("script") == std::string::npos);
    }
  }
  REQUIRE_THROWS_WITH(serve::parse_request("{\"a\": \"\xc0\xaf\"}"), Catch::Contains("UTF-8"));
  REQUIRE_THROWS_WITH(serve::parse_request("{"), Catch::Contains("not valid JSON"));
  REQUIRE_THROWS_WITH(serve::parse_request("[]"), Catch::Contains("must be a JSON object"));
}

TEST_CASE("a request body's unknown field or a field named twice is refused, not ignored", "[serve]") {
  // {"game", "players", "seats", "MARKERXYZ": 1} made a table; a move with "dup": 1 was played.
  auto server = make_server();
  json extra = table_request("last_blast", {"human", "random"});
  extra["MARKERXYZ"] = 1;
  std::string message;
  REQUIRE(status_of([&] { server.create_table(extra, {}); }, &message) == 400);
  REQUIRE(message ==
          "the request body holds a field that a new table does not take (it takes 'game', "
          "'players', 'seats', 'options', 'seed')");
  REQUIRE(server.num_tables() == 0);
  const Held table = create(server, table_request("last_blast", {"human", "random"}));
  json move = move_of(table.reply, table.reply.at("legal").at(0).at("id"));
  move["dup"] = 1;
  REQUIRE(status_of([&] { server.move(table.id, move, table.key(0), {}); }, &message) == 400);
  REQUIRE(message.find("dup") == std::string::npos);
  REQUIRE_THAT(message, Catch::Contains("a move does not take (it takes 'seat', 'version', 'action')"));
  json asked = ask(table.reply);
  asked["action"] = 0;
  REQUIRE(status_of([&] { server.step(table.id, asked, table.key(0), {}); }) == 400);
  REQUIRE(status_of([&] { server.undo(table.id, asked, table.key(0), {}); }) == 400);
  REQUIRE(server.table(table.id, "0", table.key(0), {}).at("version") == 0);  // nothing was played

  // A key named twice, at any depth: the last was read ({"action": 1, "action": 0} played 0).
  for (const char* body : {R"({"seat": 0, "action": 1, "version": 0, "action": 0})",
                           R"({"options": {"a": true, "a": false}})", R"([{"x": 1}, {"x": 2, "x": 3}])"}) {
    INFO(body);
    REQUIRE_THROWS_WITH(serve::parse_request(body), "the request body names a field twice in one object");
  }
  // The same key in different objects is no duplicate.
  REQUIRE(serve::parse_request(R"({"a": {"a": 1, "b": {"a": 2}}, "b": [{"a": 3}, {"a": 4}]})").size() == 2);
}

namespace {

// Plays the table's human seat (first legal move) and its bots until `done` says so or the game ends.
json play_until(serve::TableServer& server, const Held& table, json reply,
                const std::function<bool(const json&)>& done) {
  for (int k = 0; k < 5000 && reply.at("waiting") != "over" && !done(reply); ++k)
    reply =
        reply.at("waiting") == "you"
            ? server.move(table.id, move_of(reply, reply.at("legal").at(0).at("id")), table.key(), {}).body
            : server.step(table.id, ask(reply), table.key(), {}).body;
  return reply;
}

}  // namespace

TEST_CASE("undo takes back the seat's last move and the bot moves after it, then deals again", "[serve]") {
  uint64_t next_seed = 1000;
  serve::TableServer server(nullptr, serve::SeatKinds::basic(), serve::TableLimits{}, Clock::now,
                            [&next_seed] { return next_seed++; });
  const Clock::time_point now{};
  const Held held = create(server, table_request("launchpad23", {"human", "heuristic"}), now);
  const json& start = held.reply;
  const std::string& id = held.id;
  const std::string key = held.key(0);
  REQUIRE_FALSE(start.at("can_undo"));
  REQUIRE(status_of([&] { server.undo(id, ask(start), key, now); }) == 409);  // nothing to undo
  // The human moves, then the bots play until the human is to move again,
  // until a visible bot move followed the human's.
  const auto bot_moved_last = [](const json& t) {
    return !t.at("log").empty() && t.at("log").back().at("bot");
  };
  json decision, table = start;
  std::string decision_state;
  int action = 0;
  do {
    decision = table;
    decision_state = TableServerTestAccess::state_json(server, id);
    action = decision.at("legal").at(0).at("id");
    table = server.move(id, move_of(decision, action), key, now).body;
    REQUIRE(table.at("can_undo"));
    while (table.at("waiting") == "bot") table = server.step(id, ask(table), key, now).body;
  } while (!bot_moved_last(table));
  const json before_undo = table;
  REQUIRE(status_of([&] {
            server.undo(id, {{"seat", 1}, {"version", table.at("version")}}, key, now);
          }) == 400);
  REQUIRE(status_of([&] {
            server.undo(id, {{"seat", 0}, {"version", decision.at("version")}}, key, now);
          }) == 409);
  REQUIRE(server.table(id, "0", key, now) == before_undo);  // refused undos change nothing
  const json undone = server.undo(id, ask(table), key, now).body;
  // The seat sees its decision as it was ...
  REQUIRE(position(undone) == position(decision));
  REQUIRE(undone.at("log") == decision.at("log"));
  // ... while what it could not see is dealt again: the decision's position,
  // redeterminized for the seat with the next seed, not the old one.
  auto expected = load_game("launchpad23", "", "")->state_from_json(decision_state);
  expected->redeterminize(0, 1000);
  REQUIRE(TableServerTestAccess::state_json(server, id) == expected->to_json());
  REQUIRE(TableServerTestAccess::state_json(server, id) != decision_state);
  REQUIRE(TableServerTestAccess::base_json(server, id) == expected->to_json());
  // The version moves on: a move made before the undo, at the same position, is stale.
  REQUIRE(undone.at("version") > before_undo.at("version"));
  REQUIRE(status_of([&] { server.move(id, move_of(decision, action), key, now); }) == 409);
  REQUIRE(status_of([&] { server.undo(id, ask(before_undo), key, now); }) == 409);
  // Undo after undo goes back to the start (each with its own deal).
  json back = undone;
  while (back.at("can_undo")) back = server.undo(id, ask(back), key, now).body;
  REQUIRE(position(back) == position(start));
  REQUIRE(back.at("log").empty());
  REQUIRE(next_seed > 1001);
}

TEST_CASE("undo goes back over a bot's secret moves and a pending bot move", "[serve]") {
  auto server = make_server();
  const Clock::time_point now{};
  // The Last Blast: the bot in seat 0 drafts secretly before each human pick.
  const Held held = create(server, table_request("last_blast", {"heuristic", "human"}), now);
  const std::string key = held.key(1);
  json table = held.reply;
  for (int picks = 0; picks < 3; ++picks) {
    REQUIRE(table.at("waiting") == "you");
    table = server.move(held.id, move_of(table, table.at("legal").at(0).at("id")), key, now).body;
    while (table.at("waiting") == "bot") table = server.step(held.id, ask(table), key, now).body;
  }
  const json third = table;  // at the fourth pick
  table = server.move(held.id, move_of(table, table.at("legal").back().at("id")), key, now).body;
  const json undone = server.undo(held.id, ask(table), key, now).body;
  REQUIRE(position(undone) == position(third));
  REQUIRE(undone.at("log") == third.at("log"));
  REQUIRE(undone.at("can_undo"));
}

TEST_CASE("no undo once the game is over, nor at a table of two humans", "[serve]") {
  auto server = make_server();
  const Held held = create(server, table_request("last_blast", {"human", "random"}));
  const json over = play_until(server, held, held.reply, [](const json&) { return false; });
  REQUIRE(over.at("waiting") == "over");
  REQUIRE_FALSE(over.at("can_undo"));
  std::string message;
  REQUIRE(status_of([&] { server.undo(held.id, ask(over), held.key(0), {}); }, &message) == 409);
  REQUIRE_THAT(message, Catch::Contains("game is over"));
  // The end shows the full board, with a seat's key.
  REQUIRE(server.table(held.id, "full", held.key(0), {}).at("viewer") == "full");
  REQUIRE(status_of([&] { server.table(held.id, "full", "", {}); }) == 403);

  const Held two = create(server, table_request("launchpad23", {"human", "human"}));
  const json moved =
      server.move(two.id, move_of(two.reply, two.reply.at("legal").at(0).at("id")), two.key(0), {}).body;
  REQUIRE_FALSE(moved.at("can_undo"));
  REQUIRE(status_of(
              [&] {
                server.undo(two.id, {{"seat", 0}, {"version", moved.at("version")}}, two.key(0), {});
              },
              &message) == 409);
  REQUIRE_THAT(message, Catch::Contains("one human seat"));
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

namespace {

// An analyst for the tests: it keeps what it was handed and scores every legal
// move, the lowest action highest, and the position 0.25 + the seat asked
// about; `illegal` makes it score an illegal move.
struct TestAnalyst {
  std::vector<std::string> worlds;        // to_json of each world it was handed
  std::vector<std::string> observations;  // observation_string of the seat asked about there
  std::vector<int> seats;                 // the seat asked about
  std::vector<long> max_work;             // as the factory was asked
  bool illegal = false;

  cli::AnalystFactory factory() {
    return [this](const AnyGame&, int, long work) -> cli::Analyst {
      max_work.push_back(work);
      return [this](const AnyState& state, int seat, uint64_t) {
        worlds.push_back(state.to_json());
        observations.push_back(state.observation_string(seat));
        seats.push_back(seat);
        cli::PositionAnalysis out{"zoo:test", "test", 0.25f + static_cast<float>(seat), {}};
        std::vector<Action> legal = state.legal_actions();
        for (std::size_t i = 0; i < legal.size(); ++i)
          out.moves.push_back(
              {legal[i], 1.0f / static_cast<float>(i + 2), static_cast<int>(legal.size() - i)});
        if (illegal) out.moves.push_back({state.num_actions() + 3, 0.5f, 1});
        return out;
      };
    };
  }
};

serve::SeatKinds zoo_kinds() {
  serve::SeatKinds kinds = serve::SeatKinds::basic();
  kinds.add("last_blast", 2, "zoo:last_blast");  // as serve adds the zoo bot at a size it serves
  return kinds;
}

// One Last Blast game (seed 7, heuristic against random) in a records file,
// served with a test analyst: the setting of the records tests below.
struct ServedRecord {
  explicit ServedRecord(const std::string& name) : file(name) {
    append_records(file.path, {game});
    server.set_analyst(analyst.factory());
    server.add_records(load_records(file.path));
  }
  RecordsFile file;
  RecordedGame game = play_record("last_blast", {"a", "b"}, {"heuristic", "random"}, 7);
  TestAnalyst analyst;
  serve::TableServer server{nullptr, zoo_kinds(), serve::TableLimits{}};
};

}  // namespace

TEST_CASE("analysis: a seat's own decision, with its key, from a world dealt again for it", "[serve]") {
  uint64_t next_seed = 100;
  serve::TableServer server(nullptr, zoo_kinds(), serve::TableLimits{}, Clock::now,
                            [&next_seed] { return next_seed++; });
  TestAnalyst analyst;
  server.set_analyst(analyst.factory());
  const Held table = create(server, table_request("last_blast", {"human", "heuristic"}));
  REQUIRE(table.reply.at("waiting") == "you");
  const std::string& id = table.id;
  // Seat 0's key, and seat 0 only: not the bot's seat, not the full board.
  for (const std::string& key : {std::string(32, '0'), std::string()})
    REQUIRE(status_of([&] { server.analysis(id, "0", key, {}); }) == 403);
  for (const char* seat : {"1", "full", "", "x", "0.5"}) {
    INFO(seat);
    REQUIRE(status_of([&] { server.analysis(id, seat, table.key(0), {}); }) == 400);
  }
  REQUIRE(analyst.worlds.empty());
  const json found = server.analysis(id, "0", table.key(0), {});
  REQUIRE(analyst.max_work == std::vector<long>{serve::kMaxBotWorkPerMove});
  REQUIRE(found.at("by") == "zoo:test");
  REQUIRE(found.at("seat") == 0);
  REQUIRE(found.at("value").get<double>() == Approx(0.25));
  // Every legal move, with the text the page shows, by probability (highest first).
  const json& legal = table.reply.at("legal");
  const json& moves = found.at("moves");
  REQUIRE(moves.size() == legal.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    INFO(i);
    REQUIRE(moves[i].at("action") == legal[i].at("id"));
    REQUIRE(moves[i].at("text") == legal[i].at("text"));
    REQUIRE(moves[i].at("visits") == legal.size() - i);
    if (i > 0) REQUIRE(moves[i].at("probability") < moves[i - 1].at("probability"));
  }
  // The analyst saw what seat 0 sees, in a world that is not the table's own.
  REQUIRE(analyst.observations.back() == server.table(id, "0", table.key(0), {}).at("text"));
  const std::string truth = TableServerTestAccess::state_json(server, id);
  REQUIRE(analyst.worlds.back() != truth);
  // Each analysis deals again; none changes the table.
  server.analysis(id, "0", table.key(0), {});
  REQUIRE(analyst.worlds.at(1) != analyst.worlds.at(0));
  REQUIRE(TableServerTestAccess::state_json(server, id) == truth);
  REQUIRE(server.table(id, "0", table.key(0), {}).at("version") == 0);
  REQUIRE(analyst.max_work.size() == 1);  // loaded once per game and size
}

TEST_CASE("analysis: not on another seat's turn, nor without an analyst, nor from a bad analyst", "[serve]") {
  serve::TableServer server(nullptr, zoo_kinds(), serve::TableLimits{});
  const Held table = create(server, table_request("last_blast", {"human", "heuristic"}));
  // No analyst set: 404, saying where analysis comes from.
  std::string message;
  REQUIRE(status_of([&] { server.analysis(table.id, "0", table.key(0), {}); }, &message) == 404);
  REQUIRE_THAT(message, Catch::Contains("zoo bot"));
  TestAnalyst analyst;
  server.set_analyst(analyst.factory());
  // A size where the server does not offer the zoo bot: 404.
  const Held three = create(server, table_request("last_blast", {"human", "heuristic", "heuristic"}));
  REQUIRE(status_of([&] { server.analysis(three.id, "0", three.key(0), {}); }) == 404);
  // Two humans: seat 1 is not to move.
  const Held two = create(server, table_request("last_blast", {"human", "human"}));
  REQUIRE(two.reply.at("viewer") == 0);
  REQUIRE(status_of([&] { server.analysis(two.id, "1", two.key(1), {}); }, &message) == 409);
  REQUIRE_THAT(message, Catch::Contains("not that seat's turn"));
  // An analyst that scores an illegal move: 500, without the move.
  analyst.illegal = true;
  REQUIRE(status_of([&] { server.analysis(table.id, "0", table.key(0), {}); }, &message) == 500);
  REQUIRE(message == "the analysis failed (the server's output says why)");
  REQUIRE(analyst.max_work.size() == 1);  // the analyst of last_blast at 2 players, kept
}

TEST_CASE("analysis of a recorded move: its player's decision and the probability of the move made",
          "[serve]") {
  ServedRecord served("analysis.jsonl");
  const RecordedGame& game = served.game;
  serve::TableServer& server = served.server;
  TestAnalyst& analyst = served.analyst;
  const int k = 3;
  const json found = server.record_analysis("0", std::to_string(k), "");
  auto state = load_game("last_blast", "", "")->new_state(2, 7);
  for (int i = 0; i < k; ++i) state->apply(game.actions[static_cast<std::size_t>(i)]);
  REQUIRE(found.at("seat") == state->current_player());
  REQUIRE(found.at("move") == k);
  const Action played = game.actions[static_cast<std::size_t>(k)];
  REQUIRE(found.at("played").at("action") == played);
  REQUIRE(found.at("played").at("text") == state->action_to_string(played));
  const json& moves = found.at("moves");
  const auto made =
      std::find_if(moves.begin(), moves.end(), [&](const json& m) { return m.at("action") == played; });
  REQUIRE(made != moves.end());
  REQUIRE(found.at("played").at("probability") == made->at("probability"));
  // From the mover's knowledge: a world dealt again for it.
  REQUIRE(analyst.observations.back() == state->observation_string(state->current_player()));
  REQUIRE(analyst.worlds.back() != state->to_json());
  for (const char* move : {"", "-1", "x", "100000"})
    REQUIRE(status_of([&] { server.record_analysis("0", move, ""); }) == 400);
}

TEST_CASE("analysis of a recorded move from any seat's knowledge, with that seat's value", "[serve]") {
  // A finished game's replay shows every seat's view, so any seat may be asked
  // about at any move: the position in a world dealt again from what that
  // seat knew then, with its value, and its moves where it is to move.
  ServedRecord served("analysis_any_seat.jsonl");
  const RecordedGame& game = served.game;
  serve::TableServer& server = served.server;
  TestAnalyst& analyst = served.analyst;
  // The first move of seat 0 that seat 1 sees (its first flight move: its
  // picks are secret), numbered as each seat counts the moves it sees.
  auto state = load_game("last_blast", "", "")->new_state(2, 7);
  std::size_t k = 0;
  std::map<int, int> number;  // seat: its number of move k
  for (;; ++k) {
    const Action a = game.actions[k];
    for (int seat : {0, 1})
      if (cli::sees_move(*state, a, seat)) ++number[seat];
    if (state->current_player() == 0 && state->is_public_action(a)) break;
    state->apply(a);
  }
  const Action played = game.actions[k];
  for (int seat : {1, 0}) {
    INFO(seat);
    const json found = server.record_analysis("0", std::to_string(number[seat] - 1), std::to_string(seat));
    REQUIRE(found.at("seat") == seat);
    REQUIRE(found.at("to_move") == 0);
    REQUIRE(found.at("value").get<double>() == Approx(0.25 + seat));
    REQUIRE(analyst.seats.back() == seat);
    // What that seat knew, in a world that is not the game's own.
    REQUIRE(analyst.observations.back() == state->observation_string(seat));
    REQUIRE(analyst.worlds.back() != state->to_json());
    REQUIRE(found.at("played").at("action") == played);
    if (seat == 0) {
      // Its own decision: every legal move, with the share of the move made.
      REQUIRE(found.at("moves").size() == state->legal_actions().size());
      REQUIRE(found.at("played").at("probability").get<double>() > 0.0);
    } else {
      // Not its decision: in a world dealt for seat 1, seat 0 may hold what it
      // never held, so no moves are given, nor the share of the move made.
      REQUIRE(found.at("moves").empty());
      REQUIRE(found.at("played").at("probability").is_null());
    }
  }
  // Without a seat: the player to move's own knowledge, every move counted.
  REQUIRE(server.record_analysis("0", std::to_string(k), "").at("seat") == 0);
  REQUIRE(analyst.seats.back() == 0);
  for (const char* seat : {"2", "-1", "full", "x"}) {
    INFO(seat);
    std::string message;
    REQUIRE(status_of([&] { server.record_analysis("0", std::to_string(k), seat); }, &message) == 400);
    REQUIRE_THAT(message, Catch::Contains("seat must be a whole number from 0 to 1"));
  }
}

namespace {

// Analysts that stay inside an analysis until `open`, counting how many were
// made and how many analyses are inside one. One analyst's calls take turns,
// as the zoo bot's do (cli::Analyst).
struct GatedAnalysts {
  std::mutex mutex;
  std::condition_variable changed;
  int made = 0, inside = 0, entered = 0;
  bool open = false;

  cli::AnalystFactory factory() {
    return [this](const AnyGame&, int, long) -> cli::Analyst {
      {
        std::lock_guard<std::mutex> lock(mutex);
        ++made;
      }
      auto turns = std::make_shared<std::mutex>();
      return [this, turns](const AnyState& state, int, uint64_t) {
        const std::lock_guard<std::mutex> turn(*turns);
        std::unique_lock<std::mutex> lock(mutex);
        ++inside;
        ++entered;
        changed.notify_all();
        changed.wait(lock, [this] { return open; });
        --inside;
        cli::PositionAnalysis out{"zoo:test", "test", 0.0f, {}};
        for (Action a : state.legal_actions()) out.moves.push_back({a, 0.0f, 0});
        return out;
      };
    };
  }
  // Whether `done` came true; the wait ends only to keep a broken server from
  // hanging the test (nothing is timed: the calls it waits for need no time).
  bool wait_until(const std::function<bool()>& done) {
    std::unique_lock<std::mutex> lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(60), done);
  }
  void open_all() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      open = true;
    }
    changed.notify_all();
  }
};

}  // namespace

TEST_CASE("analyses of different tables run at once, up to kMaxAnalysesAtOnce; more wait their turn",
          "[serve]") {
  // One zoo analyst per game and table size made two hints of one game wait
  // for each other. Here kMaxAnalysesAtOnce analyses of tables of one game
  // are all inside their analyst at the same time; one more waits for a turn.
  serve::TableServer server(nullptr, zoo_kinds(), serve::TableLimits{});
  GatedAnalysts analysts;
  server.set_analyst(analysts.factory());
  const int n = serve::kMaxAnalysesAtOnce;
  std::vector<Held> tables;
  for (int i = 0; i <= n; ++i)
    tables.push_back(create(server, table_request("last_blast", {"human", "heuristic"})));
  // A first analysis, let through at once: its analyst is kept for the next.
  analysts.open_all();
  REQUIRE(server.analysis(tables[0].id, "0", tables[0].key(0), {}).at("seat") == 0);
  {
    std::lock_guard<std::mutex> lock(analysts.mutex);
    REQUIRE(analysts.made == 1);
    analysts.open = false;
    analysts.entered = 0;
  }
  const auto analyze = [&server](const Held& t) {
    return std::async(std::launch::async, [&server, t] { return server.analysis(t.id, "0", t.key(0), {}); });
  };
  std::vector<std::future<json>> running;
  bool at_once = true;
  for (int i = 0; i < n && at_once; ++i) {
    running.push_back(analyze(tables[static_cast<std::size_t>(i)]));
    at_once = analysts.wait_until([&] { return analysts.inside == i + 1; });
  }
  bool waited = false;
  int inside = 0, made = 0;
  if (at_once) {
    running.push_back(analyze(tables.back()));
    for (long spin = 0; spin < 100'000'000 && !waited; ++spin) {
      waited = TableServerTestAccess::analyses_waiting(server) == 1;
      if (!waited) std::this_thread::yield();
    }
    std::lock_guard<std::mutex> lock(analysts.mutex);
    inside = analysts.inside;
    made = analysts.made;
  }
  analysts.open_all();
  for (std::size_t i = 0; i < running.size(); ++i) {
    const json found = running[i].get();
    REQUIRE(found.at("table") == tables[i].id);
    REQUIRE(found.at("moves").size() == tables[i].reply.at("legal").size());
  }
  REQUIRE(at_once);
  REQUIRE(waited);
  REQUIRE(inside == n);  // the one waiting is in no analyst
  REQUIRE(made == n);    // the kept one, and one more for each analysis beside it
  REQUIRE(analysts.entered == n + 1);
  REQUIRE(analysts.made == n);  // it took an analyst given back: none is made beyond the cap
  REQUIRE(TableServerTestAccess::analyses_waiting(server) == 0);
}

TEST_CASE("one reading of a number in a path or a query: canonical decimal", "[serve]") {
  // `/api/records/00`, `/api/records/+0` and `?seat=+0` (a space once decoded) were read as 0,
  // while `?seat=00` was refused.
  for (const char* bad :
       {"", "00", "+0", "-0", " 0", "0 ", "01", "0x1", "1e0", "1.0", "\"0\"", "9999999999"}) {
    INFO(bad);
    REQUIRE_FALSE(serve::canonical_number(bad).has_value());
  }
  REQUIRE(serve::canonical_number("0") == 0);
  REQUIRE(serve::canonical_number("10") == 10);
  REQUIRE(serve::canonical_number("999999999") == 999999999);

  ServedRecord served("numbers.jsonl");
  serve::TableServer& server = served.server;
  REQUIRE(server.record("0", "1", "1").at("move") == 1);
  for (const char* bad : {"00", "+0", " 0", "0 "}) {
    INFO(bad);
    REQUIRE(status_of([&] { server.record(bad, "", ""); }) == 400);
    REQUIRE(status_of([&] { server.record("0", bad, ""); }) == 400);
    REQUIRE(status_of([&] { server.record("0", "", bad); }) == 400);
    REQUIRE(status_of([&] { server.record_analysis(bad, "0", ""); }) == 400);
    REQUIRE(status_of([&] { server.record_analysis("0", bad, ""); }) == 400);
    REQUIRE(status_of([&] { server.record_analysis("0", "0", bad); }) == 400);
  }
  const Held table = create(server, table_request("last_blast", {"human", "random"}));
  REQUIRE(server.table(table.id, "0", table.key(0), {}).at("viewer") == 0);
  for (const char* bad : {"00", "+0", " 0", "0 ", "-0"}) {
    INFO(bad);
    REQUIRE(status_of([&] { server.table(table.id, bad, table.key(0), {}); }) == 400);
    REQUIRE(status_of([&] { server.analysis(table.id, bad, table.key(0), {}); }) == 400);
  }
}

namespace {

// The first legal move of `reply` whose text is `text`, or -1.
int legal_with_text(const json& reply, const std::string& text) {
  for (const json& m : reply.at("legal"))
    if (m.at("text") == text) return m.at("id");
  return -1;
}

}  // namespace

TEST_CASE("who is asked to react is never named to the others (Rocket Squad, ruling 4)", "[serve]") {
  // Seed 140 deals seat 1 a card that may block seat 0's Jackie (action 777);
  // seed 2 does not, and seat 0 goes on with Jackie's look at once.
  auto server = make_server();
  json request = table_request("rocket_squad", {"human", "human"});
  request["seed"] = 140;
  const Held asked = create(server, request);
  const json after = server.move(asked.id, move_of(asked.reply, 777), asked.key(0), {}).body;
  REQUIRE(after.at("waiting") == "other");
  REQUIRE_FALSE(after.contains("person_seat"));
  REQUIRE(after.at("legal").empty());
  REQUIRE(server.table(asked.id, "1", asked.key(1), {}).at("waiting") == "you");
  request["seed"] = 2;
  const Held free = create(server, request);
  REQUIRE(server.move(free.id, move_of(free.reply, 777), free.key(0), {}).body.at("waiting") == "you");
}

TEST_CASE("another person's secret decisions change nothing in a seat's answer, its version neither",
          "[serve]") {
  // The Last Blast, ruling 2: a blind draw (the draw, then the end) must look
  // to the others like one pick; seat 1's answer once counted it twice.
  auto server = make_server();
  const Held table = create(server, table_request("last_blast", {"human", "human"}));
  const std::string blind = "draw blind from the deck instead of picking";
  json seat0 = server.table(table.id, "0", table.key(0), {});
  while (legal_with_text(seat0, blind) < 0) {  // picks from the hands until seat 0 may draw blind
    for (int seat : {0, 1}) {
      const json now = server.table(table.id, std::to_string(seat), table.key(seat), {});
      if (now.at("waiting") == "you")
        server.move(table.id, move_of(now, now.at("legal").at(0).at("id")), table.key(seat), {});
    }
    seat0 = server.table(table.id, "0", table.key(0), {});
    REQUIRE_FALSE(seat0.at("legal").empty());
  }
  const json before = server.table(table.id, "1", table.key(1), {});
  REQUIRE(before.at("waiting") == "person");
  REQUIRE(before.at("person_seat") == 0);  // the picks go in seat order: who picks is public
  const json placing =
      server.move(table.id, move_of(seat0, legal_with_text(seat0, blind)), table.key(0), {}).body;
  REQUIRE(placing.at("waiting") == "you");
  REQUIRE(server.table(table.id, "1", table.key(1), {}) == before);
  server.move(table.id, move_of(placing, placing.at("legal").at(0).at("id")), table.key(0), {});
  const json picked = server.table(table.id, "1", table.key(1), {});
  REQUIRE(picked.at("waiting") == "you");
  REQUIRE(picked.at("version") == before.at("version"));  // the other seat's picks are not counted
  REQUIRE(picked.at("log") == before.at("log"));
}

TEST_CASE("a seat's view of a record counts only the moves it sees: no line, gap or analysis of a secret one",
          "[serve]") {
  ServedRecord served("seen_moves.jsonl");
  const RecordedGame& game = served.game;
  serve::TableServer& server = served.server;
  for (int seat : {0, 1}) {
    INFO(seat);
    // The moves the seat sees, from the game itself: its own and the public ones.
    json expected = json::array();
    auto state = load_game("last_blast", "", "")->new_state(2, 7);
    for (const Action a : game.actions) {
      const int mover = state->current_player();
      if (mover == seat || state->is_public_action(a))
        expected.push_back({{"move", expected.size()},
                            {"seat", mover},
                            {"action", a},
                            {"text", state->action_to_string(a)}});
      state->apply(a);
    }
    REQUIRE(expected.size() < game.actions.size());  // the other seat's picks are secret
    const json end = server.record("0", std::to_string(expected.size()), std::to_string(seat));
    REQUIRE(end.at("moves") == expected.size());
    REQUIRE(end.at("log") == expected);
    REQUIRE(end.at("view").at("terminal") == true);
    REQUIRE(status_of([&] {
              server.record("0", std::to_string(expected.size() + 1), std::to_string(seat));
            }) == 400);
    // The analysis of the seat's move K is of the move it saw there.
    for (std::size_t k = 0; k < expected.size(); k += 7) {
      const json found = server.record_analysis("0", std::to_string(k), std::to_string(seat));
      REQUIRE(found.at("played").at("action") == expected[k].at("action"));
      REQUIRE(found.at("to_move") == expected[k].at("seat"));
    }
  }
  // The full board counts every move.
  REQUIRE(server.record("0", "", "full").at("moves") == game.actions.size());
}
