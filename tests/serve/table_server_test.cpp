// The tables of `rocketgym serve` (training/cli/table_server.h), without HTTP:
// expiry and the table cap on an injected clock, secret bot moves kept out of
// the replies, stale and illegal moves refused without changing the table.
#include "training/cli/table_server.h"

#include <catch2/catch.hpp>

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
