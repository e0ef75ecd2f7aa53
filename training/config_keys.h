// Config keys from one table. A KeyTable<C> lists the keys of one YAML
// mapping read into a struct C: for each key its name, type, range, default
// (C{}'s value), one-line doc and how to read and write it. Reading (strict:
// an unknown key is an error naming it), range checks, the resolved config's
// YAML and the reference tables of docs/ (`rocketgym describe --config-keys`)
// all come from it, so adding a key touches one line.
//
// A block shared by several configs (the run: block of both trainers) is one
// table over the struct it fills, lifted onto each config that holds it.
// Header-only, so that the search (templated, no library) can use it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/numbers.h"  // number_text: numbers as the reference tables print them
#include "envs/core/quoted.h"
#include "envs/core/seed_range.h"
#include "envs/core/yaml_document.h"

namespace rocketgym {

// One row of a reference table.
struct KeyDoc {
  std::string name, type, range, default_value, applies, doc;
};

template <class C>
class KeyTable {
 public:
  struct Key {
    std::string name, type, range, doc;
    std::string default_text;          // set: printed instead of C{}'s value (a derived default)
    std::string applies;               // empty: always; else what the key belongs to (docs)
    double min = 0, max = 0;           // numbers: the range
    std::vector<std::string> choices;  // choices: the words
    int scope = 0;                     // the table owner's tag for `applies` (0: always)
    // Reads the key's value over c's when the mapping has it (ConfigError
    // naming file, line and key when it is bad).
    std::function<void(const ConfigNode&, C&)> read;
    std::function<void(YAML::Node&, const C&)> write;
    // The value as the reference table prints it.
    std::function<std::string(const C&)> text;
    // "" when c's value is in range, else why not (for checks of values that
    // did not come from YAML, e.g. an agent spec's).
    std::function<std::string(const C&)> range_error;
  };

  // A whole number in [min, max] (an int's range at most).
  template <class Int>
  KeyTable& whole(const char* name, Int C::*field, int min, int max, const char* doc) {
    Key k = base(name, "integer", std::to_string(min) + " to " + std::to_string(max), doc);
    k.min = min;
    k.max = max;
    k.read = [name, field, min, max](const ConfigNode& node, C& c) {
      c.*field = static_cast<Int>(node.get_int(name, static_cast<int>(c.*field), min, max));
    };
    finish_whole(k, name, field, min, max);
    return add(std::move(k));
  }

  // A whole number up to 1e15 (step counts): written as a number, so 5.0e6
  // reads too (a fraction is dropped).
  KeyTable& large_whole(const char* name, int64_t C::*field, double min, double max, const char* doc) {
    Key k = base(name, "integer", number_text(min) + " to " + number_text(max), doc);
    k.min = min;
    k.max = max;
    k.read = [name, field, min, max](const ConfigNode& node, C& c) {
      c.*field = static_cast<int64_t>(node.get_double(name, static_cast<double>(c.*field), min, max));
    };
    finish_whole(k, name, field, static_cast<long long>(min), static_cast<long long>(max));
    return add(std::move(k));
  }

  // A seed: any whole number from 0 to kMaxSeed (envs/core/seed_range.h).
  KeyTable& seed(const char* name, uint64_t C::*field, const char* doc) {
    Key k = base(name, "integer", "0 to " + std::to_string(kMaxSeed), doc);
    k.max = static_cast<double>(kMaxSeed);
    k.read = [name, field](const ConfigNode& node, C& c) { c.*field = config_seed(node, name, c.*field); };
    k.write = [name, field](YAML::Node& out, const C& c) { out[name] = c.*field; };
    k.text = [field](const C& c) { return std::to_string(c.*field); };
    return add(std::move(k));  // no range_error: every value of the field is a seed
  }

  // A number in [min, max] (NaN is refused).
  KeyTable& number(const char* name, double C::*field, double min, double max, const char* doc) {
    Key k = base(name, "number", number_text(min) + " to " + number_text(max), doc);
    k.min = min;
    k.max = max;
    k.read = [name, field, min, max](const ConfigNode& node, C& c) {
      c.*field = node.get_double(name, c.*field, min, max);
    };
    k.write = [name, field](YAML::Node& out, const C& c) { out[name] = c.*field; };
    k.text = [field](const C& c) { return number_text(c.*field); };
    k.range_error = [name, field, min, max](const C& c) {
      const double v = c.*field;
      return v >= min && v <= max ? std::string()
                                  : std::string(name) + " must be a number from " + number_text(min) +
                                        " to " + number_text(max) + ", not " + number_text(v);
    };
    return add(std::move(k));
  }

  KeyTable& flag(const char* name, bool C::*field, const char* doc) {
    Key k = base(name, "bool", "true, false", doc);
    k.read = [name, field](const ConfigNode& node, C& c) { c.*field = node.get_bool(name, c.*field); };
    k.write = [name, field](YAML::Node& out, const C& c) { out[name] = c.*field; };
    k.text = [field](const C& c) { return std::string(c.*field ? "true" : "false"); };
    return add(std::move(k));
  }

  KeyTable& text(const char* name, std::string C::*field, const char* doc) {
    Key k = base(name, "string", "", doc);
    k.read = [name, field](const ConfigNode& node, C& c) { c.*field = node.get_string(name, c.*field); };
    k.write = [name, field](YAML::Node& out, const C& c) { out[name] = c.*field; };
    k.text = [field](const C& c) { return c.*field; };
    return add(std::move(k));
  }

  // One of the named values; T is a string or an enum.
  template <class T>
  KeyTable& choice(const char* name, T C::*field, std::vector<std::pair<std::string, T>> names,
                   const char* doc) {
    std::string list;
    for (const auto& [word, value] : names) list += (list.empty() ? "" : ", ") + word;
    Key k = base(name, "choice", list, doc);
    for (const auto& named : names) k.choices.push_back(named.first);
    auto word_of = [field, names](const C& c) {
      for (const auto& [word, value] : names)
        if (value == c.*field) return word;
      return std::string("?");
    };
    k.read = [name, field, names, list, word_of](const ConfigNode& node, C& c) {
      const std::string word = node.get_string(name, word_of(c));
      for (const auto& [w, value] : names)
        if (w == word) {
          c.*field = value;
          return;
        }
      node.fail_key(name, quote(word) + " is not one of: " + list);
    };
    k.write = [name, word_of](YAML::Node& out, const C& c) { out[name] = word_of(c); };
    k.text = word_of;
    return add(std::move(k));
  }

  // A key whose reading or writing is its own (a list, a seed): the caller
  // fills read, write and text.
  KeyTable& custom(Key key) { return add(std::move(key)); }

  // Adjusts the key added last: its printed default, what it applies to.
  KeyTable& default_shown(std::string text) {
    keys_.back().default_text = std::move(text);
    return *this;
  }
  KeyTable& set_default_shown(const std::string& name, std::string text) {
    for (Key& k : keys_)
      if (k.name == name) k.default_text = std::move(text);
    return *this;
  }
  KeyTable& applies_to(std::string what, int scope = 0) {
    keys_.back().applies = std::move(what);
    keys_.back().scope = scope;
    return *this;
  }

  // Every key of `other`, a table of a part of C (a base class or a member)
  // that `part` returns: part(c) for a C& and for a const C&.
  template <class Part, class Get>
  KeyTable& include(const KeyTable<Part>& other, Get part) {
    for (const auto& k : other.keys()) {
      Key lifted;
      lifted.name = k.name;
      lifted.type = k.type;
      lifted.range = k.range;
      lifted.doc = k.doc;
      lifted.default_text = k.default_text;
      lifted.applies = k.applies;
      lifted.scope = k.scope;
      lifted.min = k.min;
      lifted.max = k.max;
      lifted.choices = k.choices;
      lifted.read = [read = k.read, part](const ConfigNode& node, C& c) { read(node, part(c)); };
      lifted.write = [write = k.write, part](YAML::Node& out, const C& c) { write(out, part(c)); };
      lifted.text = [text = k.text, part](const C& c) { return text(part(c)); };
      if (k.range_error)
        lifted.range_error = [check = k.range_error, part](const C& c) { return check(part(c)); };
      add(std::move(lifted));
    }
    return *this;
  }

  const std::vector<Key>& keys() const { return keys_; }
  const Key* find(const std::string& name) const {
    for (const Key& k : keys_)
      if (k.name == name) return &k;
    return nullptr;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Key& k : keys_) out.push_back(k.name);
    return out;
  }

  // Reads `node` (a mapping, or null for "all defaults") over c: refuses
  // unknown keys first, naming them, then reads each key in table order.
  void read(const ConfigNode& node, C& c) const {
    if (node.is_null()) return;
    node.expect_keys(names());
    for (const Key& k : keys_) k.read(node, c);
  }
  // Every key of c into the mapping `out`, in table order.
  void write(YAML::Node& out, const C& c) const {
    for (const Key& k : keys_) k.write(out, c);
  }
  // The first value of c out of its key's range ("" when none).
  std::string range_error(const C& c) const {
    for (const Key& k : keys_)
      if (k.range_error)
        if (std::string why = k.range_error(c); !why.empty()) return why;
    return "";
  }
  // The reference rows, defaults from `defaults`.
  std::vector<KeyDoc> docs(const C& defaults = C{}) const {
    std::vector<KeyDoc> out;
    for (const Key& k : keys_)
      out.push_back({k.name, k.type, k.range, k.default_text.empty() ? k.text(defaults) : k.default_text,
                     k.applies, k.doc});
    return out;
  }

 private:
  static Key base(const char* name, std::string type, std::string range, const char* doc) {
    Key k;
    k.name = name;
    k.type = std::move(type);
    k.range = std::move(range);
    k.doc = doc;
    return k;
  }
  template <class Int>
  static void finish_whole(Key& k, const char* name, Int C::*field, long long min, long long max) {
    k.write = [name, field](YAML::Node& out, const C& c) { out[name] = c.*field; };
    k.text = [field](const C& c) { return std::to_string(c.*field); };
    k.range_error = [name, field, min, max](const C& c) {
      const long long v = static_cast<long long>(c.*field);
      return v >= min && v <= max
                 ? std::string()
                 : std::string(name) + " must be a whole number from " + std::to_string(min) + " to " +
                       std::to_string(max) + ", not " + std::to_string(v);
    };
  }
  KeyTable& add(Key k) {
    keys_.push_back(std::move(k));
    return *this;
  }

  std::vector<Key> keys_;
};

}  // namespace rocketgym
