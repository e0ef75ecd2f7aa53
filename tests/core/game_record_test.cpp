// Game records (envs/core/game_record.h): written, read back and replayed;
// every bad line refused naming the file, line and what is wrong.
#include "envs/core/game_record.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "envs/core/game.h"

using namespace rocketgym;

namespace {

std::string temp_path(const std::string& name) {
  const std::string path = "game_record_test_" + name + ".jsonl";
  std::remove(path.c_str());
  return path;
}

RecordedGame heuristic_game(const std::string& id, const std::string& config, uint64_t seed) {
  auto game = load_game(id, "", config);
  auto s = game->new_state(2, seed);
  std::vector<Action> actions;
  for (uint64_t k = 0; !s->is_terminal(); ++k) {
    actions.push_back(s->heuristic_action(k));
    s->apply(actions.back());
  }
  return make_record(id, config, seed, {"heuristic", "heuristic"}, actions, *s);
}

void write_lines(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path);
  for (const auto& line : lines) out << line << "\n";
}

}  // namespace

TEST_CASE("records of every game are written, read back and replay to the same end", "[records]") {
  const std::string path = temp_path("every_game");
  std::vector<RecordedGame> written;
  for (const auto& id : Registry::instance().ids()) written.push_back(heuristic_game(id, "", 3));
  written.push_back(heuristic_game("launch_pad", "{\"variants\": {\"short_game\": true}}", 4));
  append_records(path, {written.begin(), written.begin() + 2});
  append_records(path, {written.begin() + 2, written.end()});  // appends
  const auto loaded = load_records(path);
  REQUIRE(loaded.size() == written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    REQUIRE(record_to_line(loaded[i].record) == record_to_line(written[i]));
    REQUIRE(loaded[i].source == path + ":" + std::to_string(i + 1));
    const auto end = loaded[i].state_at(written[i].actions.size());
    REQUIRE(end->is_terminal());
    REQUIRE(end->returns() == written[i].returns);
  }
  std::remove(path.c_str());
}

TEST_CASE("a bad record is refused naming its line and what is wrong", "[records]") {
  const std::string path = temp_path("bad");
  const std::string good = record_to_line(heuristic_game("last_blast", "", 5));
  auto refused = [&](const std::string& line) -> std::string {
    write_lines(path, {good, line});
    try {
      load_records(path);
    } catch (const SerializationError& e) {
      return e.what();
    }
    FAIL("accepted " << line);
    return "";
  };
  auto with = [&](const std::string& key, const std::string& value) {
    auto doc = nlohmann::json::parse(good);
    doc[key] = nlohmann::json::parse(value);
    return doc.dump();
  };
  REQUIRE_THAT(refused("{oops"), Catch::Contains(path + ":2: not valid JSON"));
  REQUIRE_THAT(refused(with("game", "\"chess\"")), Catch::Contains(":2:") && Catch::Contains("chess"));
  REQUIRE_THAT(refused(with("config", "{\"no_such_key\": 1}")), Catch::Contains("no_such_key"));
  REQUIRE_THAT(refused(with("players", "[\"a\"]")), Catch::Contains("'players'"));
  REQUIRE_THAT(refused(with("actions", "[999]")), Catch::Contains("move 0: action 999 is not legal"));
  REQUIRE_THAT(refused(with("actions", "[]")), Catch::Contains("not over"));
  REQUIRE_THAT(refused(with("returns", "[0.5, -0.5]")), Catch::Contains("returns differ"));
  REQUIRE_THAT(refused(with("record", "2")), Catch::Contains("format 1"));
  REQUIRE_THAT(refused(with("returns", "[0.5]")), Catch::Contains("'returns' has 1 values for 2 players"));
  REQUIRE_THAT(refused(with("seed", "\"abc\"")), Catch::Contains(":2:") && Catch::Contains("field 'seed'"));
  REQUIRE_THAT(refused(with("config", "[]")), Catch::Contains("'config' must be an object"));
  auto longer = nlohmann::json::parse(good);
  const std::size_t moves = longer["actions"].size();
  longer["actions"].push_back(0);
  REQUIRE_THAT(refused(longer.dump()), Catch::Contains("the game is over after move " +
                                                       std::to_string(moves) + ", yet the record goes on"));
  std::remove(path.c_str());
  REQUIRE_THROWS_WITH(load_records(path), Catch::Contains("cannot open"));
}
