// CLI11 validators for the numbers the command line takes, in the forms of
// envs/core/numbers.h (those of YAML configs and `--set`). A number out of
// range is an error that names the option, never "use the default" (a
// negative --minutes ran the default 10 minutes) nor a wrapped value (a
// --seed of -1 became 2^64 - 1).
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "envs/core/numbers.h"
#include "envs/core/seed_range.h"

namespace rocketgym::cli {

// A whole number in decimal, from `min` to `max` (the form of
// envs/core/numbers.h: 010 and 0x10 are refused, where CLI11 alone would read
// them as 8 and 16). `note` explains a special value, e.g. "0 = a random seed".
// Int: int64_t, or uint64_t for seeds (up to 2^64 - 1).
template <class Int>
CLI::Validator whole_in(Int min, Int max, const std::string& note) {
  const std::string range = "from " + std::to_string(min) + " to " + std::to_string(max);
  const std::string noted = note.empty() ? "" : " (" + note + ")";
  return CLI::Validator(
      [min, max, range, noted](std::string& text) -> std::string {
        Int value = 0;
        switch (read_whole(text, min, max, value)) {
          case NumberRead::ok:
            return "";
          case NumberRead::malformed:
            return std::string("must be ") + kWholeNumberForm + ", " + range + noted;
          case NumberRead::out_of_range:
            break;
        }
        return "must be a whole number " + range + noted + ", not" + typed_value(text);
      },
      "INT in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
}

inline CLI::Validator whole_number(int64_t min, int64_t max, const std::string& note = "") {
  return whole_in<int64_t>(min, max, note);
}

// A seed: from 0 to kMaxSeed (envs/core/seed_range.h), the range of every
// seed, also run.seed's and Python's.
inline CLI::Validator seed(const std::string& note = "") { return whole_in<uint64_t>(0, kMaxSeed, note); }

// A number (decimal or scientific notation, e.g. 5e6), from `min` to `max`.
inline CLI::Validator number(double min, double max, const std::string& note = "") {
  const std::string range = "from " + number_text(min) + " to " + number_text(max);
  const std::string noted = note.empty() ? "" : " (" + note + ")";
  return CLI::Validator(
      [min, max, range, noted](std::string& text) -> std::string {
        double value = 0;
        switch (read_number(text, min, max, value)) {
          case NumberRead::ok:
            return "";
          case NumberRead::malformed:
            return std::string("must be ") + kNumberForm + ", " + range + noted;
          case NumberRead::out_of_range:
            break;
        }
        return "must be a number " + range + noted + ", not" + typed_value(text);
      },
      "NUMBER in [" + number_text(min) + ", " + number_text(max) + "]");
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
