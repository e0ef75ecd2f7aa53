// The answers a person types at a prompt of `rocketgym play` and `rocketgym
// replay` (a terminal or a pipe of moves): one line each, held to a length so
// that a line without end (a pipe of junk) grows no memory, and named back
// only as a short excerpt.
#pragma once

#include <cstddef>
#include <istream>
#include <limits>
#include <string>

#include "envs/core/quoted.h"

namespace rocketgym::cli {

// The longest answer kept: a move number or a key needs a few characters; a
// longer line is refused whole, and its rest is read and dropped, not kept.
inline constexpr std::size_t kMaxAnswerLine = 1024;

enum class AnswerRead { kLine, kTooLong, kEnd };

// Reads one line of `in` into `line` (without its line break). kTooLong: it
// was longer than kMaxAnswerLine, `line` holds its start and the rest is
// gone; kEnd: `in` ended before any character. As std::getline, a last line
// without a line break still counts.
inline AnswerRead read_answer(std::istream& in, std::string& line) {
  line.clear();
  for (char c; in.get(c);) {
    if (c == '\n') return AnswerRead::kLine;
    if (line.size() == kMaxAnswerLine) {
      in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');  // drops the rest without keeping it
      return AnswerRead::kTooLong;
    }
    line += c;
  }
  return line.empty() ? AnswerRead::kEnd : AnswerRead::kLine;
}

// `line` quoted for a message by the one rule for input named back
// (envs/core/quoted.h): escaped, cut to kMaxQuotedBytes bytes ("...").
inline std::string quoted_answer(const std::string& line) { return quote(line); }

}  // namespace rocketgym::cli
