// The one rule for the files rocketgym reads and writes (envs/core/files.h,
// issue 55): regular files only, size caps, no writing through a symbolic
// link or over a FIFO or device, no output that is one of the run's inputs or
// outputs, printable text on a terminal.
#include "envs/core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

using namespace rocketgym;

namespace {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("rocketgym_files_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string error_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const files::FileError& e) {
    return e.what();
  }
  FAIL("no FileError");
  return "";
}

std::string text_of(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("file rule: an input is a regular file within its cap", "[files]") {
  const TempDir dir("inputs");
  const std::string fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // opened without blocking: refused at once
  CHECK_THAT(error_of([&] { files::read_input_file(fifo, 100, "records file"); }),
             Catch::Contains(fifo + ": not a regular file (a FIFO; a records file must be a regular file)"));
  CHECK_THAT(error_of([] { files::read_input_file("/dev/zero", 100, "records file"); }),
             Catch::Contains("/dev/zero: not a regular file (a character device"));
  CHECK_THAT(error_of([&] { files::read_input_file(dir.path.string(), 100, "records file"); }),
             Catch::Contains("a folder"));
  CHECK_THAT(error_of([&] { files::read_input_file(dir / "missing", 100, "records file"); }),
             Catch::Contains("cannot open the records file: it does not exist"));
  std::ofstream(dir / "big") << std::string(101, 'x');
  CHECK_THAT(error_of([&] { files::read_input_file(dir / "big", 100, "records file"); }),
             Catch::Contains("too large (101 bytes): larger than a records file may be (at most 100 bytes)"));
  CHECK(files::read_input_file(dir / "big", 101, "records file").size() == 101);
}

TEST_CASE("file rule: lines are read with a cap each, and a last line without its break is said", "[files]") {
  const TempDir dir("lines");
  std::ofstream(dir / "lines") << "one\n\n" << std::string(70000, 'y') << "\nlast";
  files::InputFile in(dir / "lines", 1 << 20, "records file");
  std::string line;
  bool complete = false;
  REQUIRE(in.next_line(line, 100000, complete));
  CHECK((line == "one" && complete && in.line_number() == 1 && in.offset() == 4));
  REQUIRE(in.next_line(line, 100000, complete));
  CHECK((line.empty() && complete));
  REQUIRE(in.next_line(line, 100000, complete));  // across the reader's 64 KiB chunks
  CHECK((line == std::string(70000, 'y') && complete));
  REQUIRE(in.next_line(line, 100000, complete));
  CHECK((line == "last" && !complete && in.line_number() == 4));
  CHECK_FALSE(in.next_line(line, 100000, complete));
  // A line over the cap is refused with its number, not held whole.
  files::InputFile again(dir / "lines", 1 << 20, "records file");
  REQUIRE(again.next_line(line, 1000, complete));
  REQUIRE(again.next_line(line, 1000, complete));
  CHECK_THAT(error_of([&] { again.next_line(line, 1000, complete); }),
             Catch::Contains("line 3 is longer than a records file's line may be (more than 1000 bytes)"));
}

TEST_CASE("file rule: an output is never written through a link or over a FIFO, device or folder",
          "[files]") {
  const TempDir dir("outputs");
  const std::string target = dir / "target.txt", link = dir / "link.txt";
  std::ofstream(target) << "kept\n";
  std::filesystem::create_symlink(target, link);
  CHECK_THAT(error_of([&] { files::write_file_atomically(link, "new\n", "result file"); }),
             Catch::Contains(link + ": is a symbolic link"));
  CHECK(text_of(target) == "kept\n");
  CHECK(std::filesystem::is_symlink(link));
  const std::string dangling = dir / "dangling.txt";
  std::filesystem::create_symlink(dir / "nowhere.txt", dangling);
  CHECK_THAT(error_of([&] { files::open_output(dangling, O_APPEND, "records file"); }),
             Catch::Contains("symbolic link"));
  CHECK_FALSE(std::filesystem::exists(dir / "nowhere.txt"));
  const std::string fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(error_of([&] { files::write_file_atomically(fifo, "x", "checkpoint"); }),
             Catch::Contains("a FIFO"));
  CHECK_THAT(error_of([&] { files::open_output(fifo, O_APPEND, "records file"); }),
             Catch::Contains("a FIFO"));
  CHECK_THAT(error_of([] { files::check_output_path("/dev/null", "checkpoint"); }),
             Catch::Contains("a character device"));
  CHECK_THAT(error_of([&] { files::write_file_atomically(dir.path.string(), "x", "result file"); }),
             Catch::Contains("a folder"));
  // A temporary file that is a link is refused too; a regular one is replaced.
  std::filesystem::create_symlink(target, dir / "out.txt.tmp");
  CHECK_THAT(error_of([&] { files::write_file_atomically(dir / "out.txt", "x", "result file"); }),
             Catch::Contains("out.txt.tmp: is a symbolic link"));
  std::filesystem::remove(dir / "out.txt.tmp");
  files::write_file_atomically(target, "replaced\n", "result file");
  CHECK(text_of(target) == "replaced\n");
  CHECK_FALSE(std::filesystem::exists(target + ".tmp"));
}

TEST_CASE("file rule: an output is none of the run's inputs and other outputs, by any name", "[files]") {
  const TempDir dir("distinct");
  std::ofstream(dir / "in.yaml") << "a: 1\n";
  std::filesystem::create_hard_link(dir / "in.yaml", dir / "other_name.yaml");
  std::filesystem::create_directories(dir / "sub");
  const std::string spelled = (dir.path / "sub" / ".." / "in.yaml").string();
  CHECK(files::same_file(dir / "in.yaml", spelled));
  CHECK(files::same_file(dir / "in.yaml", dir / "other_name.yaml"));
  CHECK(files::same_file(dir / "new.txt", (dir.path / "sub" / ".." / "new.txt").string()));  // neither exists
  CHECK_FALSE(files::same_file(dir / "in.yaml", dir / "new.txt"));
  CHECK_THAT(
      error_of([&] {
        files::check_distinct_files({{dir / "other_name.yaml", "--records"}}, {{spelled, "the config file"}});
      }),
      Catch::Contains("--records '" + dir / "other_name.yaml" + "' is the config file"));
  CHECK_THAT(
      error_of([&] {
        files::check_distinct_files(
            {{dir / "a.csv", "--records"}, {(dir.path / "sub" / ".." / "a.csv").string(), "games.csv"}}, {});
      }),
      Catch::Contains("is also games.csv"));
  CHECK_NOTHROW(
      files::check_distinct_files({{dir / "a.csv", "--records"}, {"", "unused"}}, {{dir / "in.yaml", "x"}}));
}

TEST_CASE("file rule: text from a file is shown printable", "[files]") {
  CHECK(files::printable("plain — UTF-8\ttab\nline") == "plain — UTF-8\ttab\nline");
  CHECK(files::printable("red \x1b[31mbell\x07") == "red \\x1B[31mbell\\x07");
  CHECK(files::printable("over\rwrite") == "over\\x0Dwrite");
  CHECK(files::printable("c1 \xc2\x9b del \x7f") == "c1 \\xC2\\x9B del \\x7F");
  CHECK(files::printable("bad \xff\xc3") == "bad \\xFF\\xC3");
  CHECK(files::printable("back\\slash") == "back\\slash");
}
