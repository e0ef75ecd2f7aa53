// ProgressLine: what `train` and `arena` show while they work. On a terminal,
// one status line rewritten in place; when the stream is not a terminal (a
// file, CI), each status as a line of its own; with --quiet, nothing.
//
//   ProgressLine progress(quiet ? ProgressLine::Mode::kQuiet : ProgressLine::mode_for(stderr));
//   progress.show("update 12 | 0.35M/5.00M steps | ...");   // as often as the caller likes
//   progress.finish();                                     // ends the in-place line
//
// The caller decides when to show a status (train: every update; arena: at
// most every 2 seconds and at the end): nothing here reads a clock.
#pragma once

#include <cstdio>
#include <string>

namespace rocketgym {

class ProgressLine {
 public:
  enum class Mode { kQuiet, kInPlace, kLines };
  // kInPlace when `stream` is a terminal, kLines otherwise.
  static Mode mode_for(std::FILE* stream);

  explicit ProgressLine(Mode mode, std::FILE* stream = stderr, int width = -1);
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // In place: replaces the line (cut to the terminal's width, so it never
  // wraps); lines: writes `status` and a newline; quiet: nothing.
  void show(const std::string& status);
  // Ends an in-place line with a newline (once), so what follows starts on
  // a line of its own.
  void finish();

  Mode mode() const { return mode_; }

 private:
  Mode mode_;
  std::FILE* stream_;
  int width_;          // columns of the terminal (in place); <= 0: unknown
  bool open_ = false;  // an in-place line is showing
};

}  // namespace rocketgym
