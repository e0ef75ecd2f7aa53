// CLI11 validators for the numbers the command line takes. A number out of
// range is an error that names the option, never "use the default" (a
// negative --minutes ran the default 10 minutes) nor a wrapped value (a
// --seed of -1 became 2^64 - 1).
#pragma once

#include <CLI/CLI.hpp>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "envs/core/quoted.h"

namespace rocketgym::cli {

namespace detail {

inline std::string number_text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.15g", v);
  return buffer;
}

}  // namespace detail

// A whole number in decimal, from `min` to `max`. `note` explains a special
// value, e.g. "0 = a random seed".
inline CLI::Validator whole_number(int64_t min, int64_t max, const std::string& note = "") {
  const std::string expected = "must be a whole number from " + std::to_string(min) + " to " +
                               std::to_string(max) + (note.empty() ? "" : " (" + note + ")");
  return CLI::Validator(
      [min, max, expected](std::string& text) -> std::string {
        int64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || error != std::errc() || ptr != end || value < min || value > max)
          return expected + ", not " + quote(text);
        return "";
      },
      "INT in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
}

// A number (decimal or scientific notation, e.g. 5e6), from `min` to `max`.
inline CLI::Validator number(double min, double max, const std::string& note = "") {
  const std::string expected = "must be a number from " + detail::number_text(min) + " to " +
                               detail::number_text(max) + (note.empty() ? "" : " (" + note + ")");
  return CLI::Validator(
      [min, max, expected](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value) ||
            value < min || value > max)
          return expected + ", not " + quote(text);
        return "";
      },
      "NUMBER in [" + detail::number_text(min) + ", " + detail::number_text(max) + "]");
}

// The checks of a flag that is another name of a config key: the key's range
// from its key table (training/config_keys.h), never restated here. `Table`
// is a KeyTable; whole_key() reads the flag as a whole number, number_key()
// as any number (5e6 for a step count).
template <class Table>
const typename Table::Key& config_key(const Table& table, const std::string& name) {
  const auto* key = table.find(name);
  if (key == nullptr) throw std::logic_error("no config key '" + name + "' for a flag");
  return *key;
}
template <class Table>
CLI::Validator whole_key(const Table& table, const std::string& name, const std::string& note = "") {
  const auto& key = config_key(table, name);
  return whole_number(std::llround(key.min), std::llround(key.max), note);
}
template <class Table>
CLI::Validator number_key(const Table& table, const std::string& name, const std::string& note = "") {
  const auto& key = config_key(table, name);
  return number(key.min, key.max, note);
}

}  // namespace rocketgym::cli
