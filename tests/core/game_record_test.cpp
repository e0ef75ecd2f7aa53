// Game records (envs/core/game_record.h): written, read back and replayed;
// every bad line refused naming the file, line and what is wrong.
#include "envs/core/game_record.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "envs/core/agent_name.h"
#include "envs/core/files.h"
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
  // nlohmann would keep the last of two equal keys; a record means one game.
  REQUIRE_THAT(refused("{\"seed\": 1, " + good.substr(1)),
               Catch::Contains(path + ":2: key 'seed' is given twice in one object"));
  auto longer = nlohmann::json::parse(good);
  const std::size_t moves = longer["actions"].size();
  longer["actions"].push_back(0);
  REQUIRE_THAT(refused(longer.dump()), Catch::Contains("the game is over after move " +
                                                       std::to_string(moves) + ", yet the record goes on"));
  std::remove(path.c_str());
  REQUIRE_THROWS_WITH(load_records(path), Catch::Contains("cannot open"));
}

// A records line is read as a records line: a mistyped field is named with
// what it must hold (not nlohmann's "type_error.302" of a "state document"),
// a player count the game is not played by names num_players and the range.
TEST_CASE("a record's fields are named as records fields, its player count by the game's range",
          "[records]") {
  const std::string path = temp_path("fields");
  auto doc = nlohmann::json::parse(record_to_line(heuristic_game("lift_off", "", 5)));
  auto refused = [&](const std::string& key, const nlohmann::json& value) -> std::string {
    auto bad = doc;
    bad[key] = value;
    write_lines(path, {bad.dump()});
    try {
      load_records(path);
    } catch (const SerializationError& e) {
      return e.what();
    }
    FAIL("accepted " << bad.dump());
    return "";
  };
  for (const int n : {1, 5}) {
    auto bad = doc;
    bad["num_players"] = n;
    bad["players"] = std::vector<std::string>(static_cast<std::size_t>(n), "random");
    bad["returns"] = std::vector<float>(static_cast<std::size_t>(n), 0.0f);
    write_lines(path, {bad.dump()});
    REQUIRE_THROWS_WITH(load_records(path), Catch::Contains(path + ":1: records line: field 'num_players'") &&
                                                Catch::Contains("lift_off is played by 2 to 4 players, not " +
                                                                std::to_string(n)));
  }
  const std::string actions = refused("actions", nlohmann::json::object());
  CHECK_THAT(actions, Catch::Contains("records line: field 'actions' must be a list of whole numbers"));
  CHECK_THAT(actions, !Catch::Contains("json.exception") && !Catch::Contains("state document"));
  CHECK_THAT(refused("actions", {1, -2}),
             Catch::Contains("field 'actions'") && Catch::Contains("item 1 is not"));
  CHECK_THAT(refused("returns", {1, "x"}), Catch::Contains("field 'returns' must be a list of numbers"));
  CHECK_THAT(refused("players", {"a", 7}), Catch::Contains("field 'players' must be a list of names"));
  CHECK_THAT(refused("seed", -1), Catch::Contains("field 'seed' must be a whole number from 0"));
  CHECK_THAT(refused("game", 3), Catch::Contains("field 'game' must be a game id"));
  CHECK_THAT(refused("num_players", "2"), Catch::Contains("field 'num_players' must be a whole number"));
  doc.erase("returns");
  write_lines(path, {doc.dump()});
  CHECK_THROWS_WITH(load_records(path), Catch::Contains("records line: missing field 'returns'"));
  std::remove(path.c_str());
}

// The arena writes names under the agent-name rule (envs/core/agent_name.h);
// a name it never writes (a line break that would forge an output line, a
// NUL, 900 KB) is refused naming the file, line and seat, quoted by the one
// rule (envs/core/quoted.h).
TEST_CASE("a player's name the arena never writes is refused, quoted short", "[records]") {
  const std::string path = temp_path("names");
  const auto doc = nlohmann::json::parse(record_to_line(heuristic_game("last_blast", "", 5)));
  auto read_with = [&](const std::string& name) {
    auto bad = doc;
    bad["players"][1] = name;
    write_lines(path, {bad.dump()});
    return load_records(path);
  };
  const std::string forged = "heuristic\nrocketgym: error: your files were deleted";
  REQUIRE_THROWS_WITH(read_with(forged),
                      Catch::Contains(path + ":1: records line: field 'players' item 1, ") &&
                          Catch::Contains("'heuristic\\x0Arocketgym: error") &&
                          Catch::Contains(kSeatNameRule));
  REQUIRE_THROWS_WITH(read_with(std::string("a\0b", 3)), Catch::Contains("'a\\x00b'"));
  std::string long_error;
  try {
    read_with(std::string(900000, 'n'));
  } catch (const SerializationError& e) {
    long_error = e.what();
  }
  CHECK_THAT(long_error, Catch::Contains("item 1, 'nnn") && Catch::Contains("...'"));
  CHECK(long_error.size() < 600);
  CHECK_THROWS(read_with(""));
  CHECK_THROWS(read_with(std::string(kMaxAgentName + 1, 'n')));
  // What the arena writes: a given name, a default one from a path, a second of one name.
  for (const std::string& name : {std::string("ppo-v2.1+x#y"), std::string("checkpoint:runs/x/latest.ckpt"),
                                  std::string(kMaxAgentName, 'n') + "#12", std::string("heuristic#2")})
    CHECK(read_with(name).at(0).record.players[1] == name);
  std::remove(path.c_str());
}

// Reading costs one game load per game id and config, not one per line, and
// a reader that shows game N (rocketgym replay --game N) reads no further.
TEST_CASE("records of one game and config share the loaded game; reading stops after max_records",
          "[records]") {
  const std::string path = temp_path("shared");
  const std::string one = record_to_line(heuristic_game("last_blast", "", 5));
  const std::string other = record_to_line(heuristic_game("last_blast", "", 6));
  const std::string short_game =
      record_to_line(heuristic_game("launch_pad", "{\"variants\": {\"short_game\": true}}", 4));
  write_lines(path, {one, other, short_game, one, "{not a record"});
  const LoadedRecords read = read_records(path, 4);
  REQUIRE(read.records.size() == 4);
  CHECK(read.records[0].game == read.records[1].game);
  CHECK(read.records[0].game == read.records[3].game);
  CHECK(read.records[0].game != read.records[2].game);
  CHECK(load_records_to_show(path, 1).size() == 1);
  CHECK_THROWS_WITH(read_records(path), Catch::Contains(path + ":5: not valid JSON"));
  std::remove(path.c_str());
}

// Issue 55: an arena killed mid-line leaves its last line cut short; the games
// before it still read, and the reader says what it skipped.
TEST_CASE("a last line cut short is skipped and said; one in the middle is an error", "[records]") {
  const std::string path = temp_path("torn");
  const std::string first = record_to_line(heuristic_game("last_blast", "", 5));
  const std::string second = record_to_line(heuristic_game("lift_off", "", 6));
  {
    std::ofstream out(path);
    out << first << "\n" << second << "\n" << second.substr(0, second.size() / 2);
  }
  const LoadedRecords read = read_records(path);
  REQUIRE(read.records.size() == 2);
  CHECK_THAT(read.torn,
             Catch::Contains(path + ":3: the last line is cut short") && Catch::Contains("skipped"));
  CHECK(read.complete_bytes == first.size() + second.size() + 2);
  CHECK_FALSE(read.ends_with_line_break);
  CHECK(load_records(path).size() == 2);  // the note goes to stderr
  // The same half line with a line break after it was written whole: an error.
  {
    std::ofstream out(path);
    out << first << "\n" << second.substr(0, second.size() / 2) << "\n" << second << "\n";
  }
  REQUIRE_THROWS_WITH(read_records(path), Catch::Contains(path + ":2: not valid JSON"));
  // A last whole record without its line break reads as usual.
  {
    std::ofstream out(path);
    out << first << "\n" << second;
  }
  const LoadedRecords whole = read_records(path);
  CHECK(whole.records.size() == 2);
  CHECK(whole.torn.empty());
  std::remove(path.c_str());
}

// Issue 55: the records reader follows the file rule (envs/core/files.h), like
// the config and checkpoint readers.
TEST_CASE("the records reader reads regular files within its caps only", "[records]") {
  const std::string dir = "game_record_test_dir";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/pipe.jsonl";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // opened without blocking: refused at once
  REQUIRE_THROWS_WITH(load_records(fifo), Catch::Contains(fifo + ": not a regular file (a FIFO"));
  REQUIRE_THROWS_WITH(load_records("/dev/zero"), Catch::Contains("/dev/zero: not a regular file"));
  REQUIRE_THROWS_WITH(load_records(dir), Catch::Contains("a folder"));
  // A line of 1 MiB and more is refused by its length, before it is held (or parsed) whole.
  const std::string long_line = dir + "/long.jsonl";
  std::ofstream(long_line) << std::string((1 << 20) + 10, ' ') << "x\n";
  REQUIRE_THROWS_WITH(load_records(long_line), Catch::Contains(long_line + ": line 1 is longer than"));
  // A file over the cap is refused by its size (a sparse file: no disk used).
  const std::string huge = dir + "/huge.jsonl";
  {
    const int fd = ::open(huge.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, static_cast<off_t>(files::kMaxRecordsBytes + 1)) == 0);
    ::close(fd);
  }
  REQUIRE_THROWS_WITH(load_records(huge), Catch::Contains("larger than a records file may be"));
  std::filesystem::remove_all(dir);
}

// Issue 55: a write that fails says why (here the file size limit, as a full
// disk would say "No space left on device"); a records file is never written
// through a symbolic link.
TEST_CASE("writing records names the reason of a failure and never follows a link", "[records]") {
  const std::string path = temp_path("limit");
  const RecordedGame game = heuristic_game("last_blast", "", 5);
  struct rlimit was {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &was) == 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead
  struct rlimit small = was;
  small.rlim_cur = 100;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string error;
  try {
    append_records(path, {game});
  } catch (const Error& e) {
    error = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &was);
  std::signal(SIGXFSZ, old_handler);
  CHECK_THAT(error, Catch::Contains(path + ": error while writing the records file (File too large)"));
  std::remove(path.c_str());
  const std::string link = temp_path("link");
  std::filesystem::create_symlink("game_record_test_target.jsonl", link);
  REQUIRE_THROWS_WITH(append_records(link, {game}), Catch::Contains("symbolic link"));
  CHECK_FALSE(std::filesystem::exists("game_record_test_target.jsonl"));
  std::remove(link.c_str());
}
