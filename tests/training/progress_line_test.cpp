// What `train` and `arena` show while they work (training/progress_line.h):
// in place on a terminal, a line per status elsewhere, nothing when quiet.
// The streams here are temporary files, so what was written can be read back.
#include "training/progress_line.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

using rocketgym::ProgressLine;

namespace {

// Everything written to `stream` so far.
std::string written(std::FILE* stream) {
  std::fflush(stream);
  std::rewind(stream);
  std::string text;
  char buffer[256];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof(buffer), stream)) > 0;) text.append(buffer, n);
  return text;
}

}  // namespace

TEST_CASE("a stream that is not a terminal gets one line per status", "[progress]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  CHECK(ProgressLine::mode_for(file) == ProgressLine::Mode::kLines);
  {
    ProgressLine line(ProgressLine::mode_for(file), file);
    line.show("update 1 | 10 samples/s");
    line.show("update 2 | 12 samples/s");
  }
  CHECK(written(file) == "update 1 | 10 samples/s\nupdate 2 | 12 samples/s\n");
  std::fclose(file);
}

TEST_CASE("on a terminal the status line is rewritten in place and ended once", "[progress]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  ProgressLine line(ProgressLine::Mode::kInPlace, file, 80);
  line.show("arena: 1/4 games");
  line.show("arena: 2/4 games");
  CHECK(written(file) == "\rarena: 1/4 games\033[K\rarena: 2/4 games\033[K");  // no line break yet
  std::fseek(file, 0, SEEK_END);
  line.finish();
  line.finish();  // a second finish adds nothing
  CHECK(written(file) == "\rarena: 1/4 games\033[K\rarena: 2/4 games\033[K\n");
  std::fclose(file);
}

TEST_CASE("an in-place status longer than the terminal is cut so that it never wraps", "[progress]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  {
    ProgressLine line(ProgressLine::Mode::kInPlace, file, 10);
    line.show("0123456789abcdef");
  }  // the destructor ends the line
  CHECK(written(file) == "\r012345678\033[K\n");
  std::fclose(file);
}

TEST_CASE("--quiet shows nothing", "[progress]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  {
    ProgressLine line(ProgressLine::Mode::kQuiet, file);
    line.show("update 1");
    line.finish();
  }
  CHECK(written(file).empty());
  std::fclose(file);
}
