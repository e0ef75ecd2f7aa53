// Checks every key of a KeyTable (training/config_keys.h) the same way:
// shared by the search's tests and the training configs' tests.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "training/config_keys.h"

namespace rocketgym::key_checks {

// A value of the key other than c's (its range's end, another choice, the
// other truth value), as YAML text; empty for keys read by their own code.
template <class C>
std::string other_value(const typename KeyTable<C>::Key& key, const C& c) {
  const std::string now = key.text(c);
  if (key.type == "bool") return now == "true" ? "false" : "true";
  if (key.type == "choice")
    for (const std::string& word : key.choices)
      if (word != now) return word;
  if (key.type == "integer" || key.type == "number") {
    const double pick = std::stod(now) == key.min ? key.max : key.min;
    return key.type == "integer" ? std::to_string(static_cast<long long>(pick)) : number_text(pick);
  }
  if (key.type == "string") return now + "x";
  return "";
}

// The key's value as a number when it is one, else its text, for comparing.
template <class C>
bool same_value(const typename KeyTable<C>::Key& key, const std::string& text, const C& c) {
  if (key.type == "integer" || key.type == "number") return std::stod(key.text(c)) == std::stod(text);
  return key.text(c) == text;
}

// Each key, set to another value in YAML, reads into its field, is written
// back by the table's writer, and reads back the same (write -> read).
template <class C>
void check_round_trips(const KeyTable<C>& table, const C& defaults) {
  for (const auto& key : table.keys()) {
    const std::string value = other_value<C>(key, defaults);
    if (value.empty()) continue;
    INFO("key " << key.name << ": " << value);
    C read = defaults;
    table.read(ConfigNode::parse(key.name + ": " + value + "\n", "k.yaml"), read);
    CHECK(same_value<C>(key, value, read));
    YAML::Node written;
    table.write(written, read);
    for (const auto& other : table.keys()) CHECK(written[other.name].IsDefined());  // every key written
    C again = defaults;
    table.read(ConfigNode(written, "resolved.yaml", ""), again);
    CHECK(key.text(again) == key.text(read));
  }
}

// A whole number above `max` (max * factor + 1) as text; past a long long's
// range (a seed's range ends at 2^64 - 1) 10^20, past every seed.
inline std::string whole_beyond(double max, long long factor) {
  if (max >= 9e18 / static_cast<double>(factor)) return "1" + std::string(20, '0');
  return std::to_string(static_cast<long long>(max) * factor + 1);
}

// A key missing from the table is refused, naming it; a value beyond a key's
// range is refused naming the key, and the table's own range check (used for
// values that come from code) refuses it too.
template <class C>
void check_refusals(const KeyTable<C>& table, const C& defaults) {
  C c = defaults;
  CHECK_THROWS_WITH(table.read(ConfigNode::parse("no_such_key: 1\n", "k.yaml"), c),
                    Catch::Contains("no_such_key") && Catch::Contains("k.yaml:1"));
  for (const auto& key : table.keys()) {
    if (key.type != "integer" && key.type != "number") continue;
    INFO("key " << key.name);
    const std::string beyond = key.type == "integer" ? whole_beyond(key.max, 1) : number_text(key.max + 1.0);
    C bad = defaults;
    CHECK_THROWS_WITH(table.read(ConfigNode::parse(key.name + ": " + beyond + "\n", "k.yaml"), bad),
                      Catch::Contains(key.name) && Catch::Contains("k.yaml:1"));
  }
}

}  // namespace rocketgym::key_checks
