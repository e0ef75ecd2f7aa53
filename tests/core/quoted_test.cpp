// The one rule for naming input back in a message (envs/core/quoted.h), and
// the messages that name a user's game id or config value by it.
#include "envs/core/quoted.h"

#include <catch2/catch.hpp>
#include <string>

#include "envs/core/game.h"

using namespace rocketgym;

TEST_CASE("quote shows a short, escaped prefix of what it names", "[core][quoted]") {
  CHECK(quote("lift_off") == "'lift_off'");
  CHECK(quote("") == "''");
  const std::string exact(kMaxQuotedBytes, 'x');
  CHECK(quote(exact) == "'" + exact + "'");
  CHECK(quote(std::string(100000, 'x')) == "'" + exact + "...'");
  // A line break, a tab and ESC cannot forge a line or colour the terminal.
  CHECK(quote("lift\x1b[31mRED\nline2\tend") == "'lift\\x1B[31mRED\\x0Aline2\\x09end'");
  // Never cut inside a character: "é" (2 bytes) straddling the limit is left out whole.
  const std::string accents = std::string(kMaxQuotedBytes - 1, 'a') + "\xc3\xa9" + "zzz";
  CHECK(shortened(accents) == std::string(kMaxQuotedBytes - 1, 'a') + "...");
  CHECK(shortened("abcdef", 3) == "abc...");
}

TEST_CASE("an unknown game is named by its start, escaped", "[core][quoted]") {
  for (const std::string& id : {std::string(100000, 'x'), std::string("lift\x1b[31mRED\nline2")}) {
    try {
      load_game(id);
      FAIL("loaded");
    } catch (const Error& e) {
      const std::string message = e.what();
      CHECK(message.size() < kMaxQuotedBytes + 150);
      CHECK_THAT(message, Catch::StartsWith("unknown game '"));
      CHECK(message.find('\n') == std::string::npos);
      CHECK(message.find('\x1b') == std::string::npos);
    }
  }
  CHECK_THROWS_WITH(builtin_game_config("no_such_game"), Catch::StartsWith("unknown game 'no_such_game'"));
  CHECK_FALSE(builtin_game_config("lift_off").empty());
}

TEST_CASE("a long config value or --set is named by its start", "[core][quoted]") {
  const std::string long_value(100000, 'x');
  try {
    load_game("lift_off", "", "reward: " + long_value);
    FAIL("loaded");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).size() < kMaxQuotedBytes + 150);
    CHECK_THAT(e.what(), Catch::Contains("'reward'") && Catch::Contains("is not one of"));
  }
  try {
    load_game("lift_off", "", ConfigNode::from_settings({long_value + "=1"}, "<command line>"));
    FAIL("loaded");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).size() < 3 * kMaxQuotedBytes + 150);
    CHECK_THAT(e.what(), Catch::Contains("--set") && Catch::Contains("a key is longer than"));
  }
}
