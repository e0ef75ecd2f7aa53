// The one rule for naming input back in a message: a game id, an agent spec,
// an option's value, a config key or value, a string read from a checkpoint.
// A message quotes at most the first kMaxQuotedBytes bytes of it, escaped, so
// that a long or hostile value (a 100,000-character argument, an escape
// sequence, a line break) never floods the terminal nor forges a line. The
// Python layer quotes with the same function (rocketgym._rocketgym.shortened,
// used by quoted() in python/rocketgym/_common.py).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "envs/core/files.h"

namespace rocketgym {

// The most of a value a message shows: a name, a mistyped word, an agent
// spec or a path (checkpoint:runs/.../latest.ckpt) whole, as the reader
// needs it to find what to fix, never a copy of a long text.
inline constexpr std::size_t kMaxQuotedBytes = 200;

// `text` as a message shows it, without quotes: its first `max_bytes` bytes
// (cut at a character boundary) with "..." after when it was longer; control
// characters, line breaks and tabs included, and broken UTF-8 become \xNN
// (files::printable).
inline std::string shortened(std::string_view text, std::size_t max_bytes = kMaxQuotedBytes) {
  std::size_t cut = text.size();
  if (cut > max_bytes) {
    cut = max_bytes;
    // Not inside a character: back to its first byte (at most 3 back, as
    // UTF-8 sequences are at most 4 bytes long).
    for (int back = 0; back < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++back)
      --cut;
  }
  std::string out;
  for (const char c : files::printable(text.substr(0, cut))) {
    if (c == '\n')
      out += "\\x0A";
    else if (c == '\t')
      out += "\\x09";
    else
      out += c;
  }
  return cut < text.size() ? out + "..." : out;
}

// shortened(text) in single quotes: "unknown game 'xyz'".
inline std::string quote(std::string_view text) { return "'" + shortened(text) + "'"; }

}  // namespace rocketgym
