// The rule for an agent's name, in one place for its writers (NAME= on the
// command line, the YAML key name, Python's names, the default names of
// training/players/player_spec.cpp) and its reader, the records file
// (envs/core/game_record.cpp), which must not depend on training/.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string_view>

namespace rocketgym {

// An agent's name, the same rule for NAME=, the YAML key name and Python's
// names: 1 to kMaxAgentName letters, digits and _ - . + # (kAgentNameRule
// says it), so that a name never breaks a table row or a message.
inline constexpr std::size_t kMaxAgentName = 64;
inline constexpr const char* kAgentNameRule =
    "an agent's name is 1 to 64 letters, digits and _ - . + # (as NAME= on the command line)";

inline bool is_agent_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+' ||
         c == '#';
}

inline bool is_agent_name(std::string_view text) {
  static_assert(kMaxAgentName == 64, "kAgentNameRule says 64");
  return !text.empty() && text.size() <= kMaxAgentName &&
         std::all_of(text.begin(), text.end(), is_agent_name_char);
}

// A default name comes from a file name (checkpoint:runs/x/latest.ckpt):
// the name rule's characters and the path's '/' and ':'.
inline bool is_default_name_char(char c) { return is_agent_name_char(c) || c == '/' || c == ':'; }

// The most digits of the "#N" that tells agents of one name apart (an int's).
inline constexpr std::size_t kMaxDuplicateDigits = 10;

// A seat's name as the arena writes it in a records file: a name of at most
// kMaxAgentName bytes of default-name characters (a given name or a default
// one), perhaps followed by "#N" (players::name_players: the second agent of
// one name is NAME#2). Anything else, a line break or a NUL included, was
// never written by the arena.
inline bool is_seat_name(std::string_view text) {
  std::string_view base = text;
  const std::size_t hash = text.rfind('#');
  if (hash != std::string_view::npos && hash + 1 < text.size() &&
      text.size() - hash - 1 <= kMaxDuplicateDigits &&
      std::all_of(text.begin() + static_cast<std::ptrdiff_t>(hash) + 1, text.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }))
    base = text.substr(0, hash);
  const auto allowed = [](std::string_view name) {
    return !name.empty() && name.size() <= kMaxAgentName &&
           std::all_of(name.begin(), name.end(), is_default_name_char);
  };
  return allowed(text) || allowed(base);
}

inline constexpr const char* kSeatNameRule =
    "a player's name in a record is 1 to 64 letters, digits and _ - . + # / :, perhaps followed by #N "
    "(as the arena names its agents)";

}  // namespace rocketgym
