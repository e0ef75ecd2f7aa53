// Strict reading of YAML configuration. Every mapping states the keys it
// accepts, so a misspelt key is an error that names the file, line and key
// instead of a silently ignored setting. Also errors, never a silent choice:
// a key given twice in one mapping, a key present without a value (`dad:` or
// `--set characters.dad=`), a config file that is not a regular text file of
// at most files::kMaxConfigBytes (the file rule, envs/core/files.h).
//
// Every error names where the offending value came from, also after merging:
// the file and line of a config file, or the command-line argument of a
// `--set key=value` (or of a flag such as `--players 3`).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/errors.h"

namespace rocketgym {

// Deeper nesting (or an alias that contains itself) is not a config. Python's
// config dicts are held to it too (python/rocketgym/_common.py).
inline constexpr int kMaxConfigDepth = 100;

class ConfigNode {
 public:
  ConfigNode() = default;
  ConfigNode(YAML::Node node, std::string source, std::string path);

  // Parses a YAML file: it must be a regular file of at most
  // files::kMaxConfigBytes of text (configs are a few kilobytes; a larger
  // "config" is a mistake: a device, a log, a data file). Syntax errors become ConfigError with file and
  // line.
  static ConfigNode load_file(const std::string& file);
  static ConfigNode parse(const std::string& text, const std::string& source);
  // Command-line settings {"a.b=1", "a.c=x"} as the mapping a: {b: 1, c: x};
  // each value is parsed as YAML and must not be empty (`a.b=""` gives an
  // empty string). Errors about a value name its "--set a.b=1".
  static ConfigNode from_settings(const std::vector<std::string>& settings,
                                  const std::string& source = "<command line>");
  // The same, with the words the user typed for each setting, e.g.
  // {"game.players=3", "--players 3"}, for error messages.
  struct Setting {
    std::string assignment;  // dotted.key=value
    std::string label;       // what the user typed
  };
  static ConfigNode from_labelled_settings(const std::vector<Setting>& settings,
                                           const std::string& source = "<command line>");
  // Deep-merges `overrides` (a mapping) onto a copy of this mapping. Errors
  // about merged values still name the file and line (or `--set`) they came from.
  ConfigNode merged(const ConfigNode& overrides) const;

  bool is_null() const { return !node_ || node_.IsNull(); }
  bool is_map() const { return node_ && node_.IsMap(); }
  bool is_sequence() const { return node_ && node_.IsSequence(); }
  // The key is present with a value. An explicit null (`effect: null`) reads
  // as absent here, for optional blocks; the getters below refuse it.
  bool has(const std::string& key) const;

  // Throws ConfigError naming each key of this mapping not in `allowed`.
  void expect_keys(std::initializer_list<const char*> allowed) const;
  void expect_keys(const std::vector<std::string>& allowed) const;

  ConfigNode child(const std::string& key) const;  // required mapping entry
  // An optional block: an empty mapping when the key is absent; present
  // without a value it is an error (write `{}` for an empty block).
  ConfigNode child_or_empty(const std::string& key) const;
  std::vector<ConfigNode> items() const;  // sequence elements
  std::vector<std::string> keys() const;  // mapping keys in order

  // Typed getters: a missing required key, a key without a value, or a value
  // of the wrong type or out of range is a ConfigError naming file, line and
  // key. The fallback is used only when the key is absent.
  int get_int(const std::string& key) const;
  int get_int(const std::string& key, int fallback, int min, int max) const;
  // An integer whose least value is a sibling key's (`income_max` at least
  // `income_start`), `floor` being that key's value as read. Below it, the
  // error names both keys, each value and where each came from (a file's line,
  // a `--set`, or the default when left out), so that a change to either key
  // is seen as the cause, also when the other comes from the shipped config.
  int get_int_at_least(const std::string& key, int fallback, const std::string& floor_key, int floor,
                       int max) const;
  double get_double(const std::string& key, double fallback, double min, double max) const;
  double get_double(const std::string& key) const;
  bool get_bool(const std::string& key, bool fallback) const;
  std::string get_string(const std::string& key) const;
  std::string get_string(const std::string& key, const std::string& fallback) const;
  std::string get_choice(const std::string& key, const std::string& fallback,
                         std::initializer_list<const char*> choices) const;
  std::vector<int> get_int_list(const std::string& key) const;

  // This node's own scalar value.
  int as_int() const;
  std::string as_string() const;

  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_key(const std::string& key, const std::string& message) const;
  std::string where() const;  // "file:line: path"
  const std::string& source() const { return source_; }
  const std::string& path() const { return path_; }
  const YAML::Node& yaml() const { return node_; }

 private:
  struct Origin;
  using Origins = std::vector<Origin>;

  ConfigNode(YAML::Node node, std::string source, std::string path, std::shared_ptr<const Origins> origins);
  ConfigNode make_child(const YAML::Node& node, const std::string& path) const;
  std::string child_path(const std::string& key) const;
  // True when `key` is present; throws when it is present without a value.
  bool given(const std::string& key) const;
  // Where `key` of this mapping was given ("file:line" or a `--set`); empty
  // when it is absent.
  std::string key_location(const std::string& key) const;
  // "file:line" of a node of this tree, or the command-line argument it came
  // from; `mark` (a key's position) is preferred to the node's own when valid.
  std::string locate(const YAML::Node& node, const YAML::Mark& mark) const;

  YAML::Node node_;
  std::string source_;  // the file every node not listed in origins_ comes from
  std::string path_;
  std::shared_ptr<const Origins> origins_;  // nodes merged in from elsewhere
};

}  // namespace rocketgym
