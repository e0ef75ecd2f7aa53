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
