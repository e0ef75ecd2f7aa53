// Strict reading of YAML configuration. Every mapping states the keys it
// accepts, so a misspelt key is an error that names the file, line and key
// instead of a silently ignored setting.
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "envs/core/errors.h"

namespace rocketgym {

class ConfigNode {
 public:
  ConfigNode() = default;
  ConfigNode(YAML::Node node, std::string source, std::string path);

  // Parses a YAML file; syntax errors become ConfigError with file and line.
  static ConfigNode load_file(const std::string& file);
  static ConfigNode parse(const std::string& text, const std::string& source);
  // Command-line settings {"a.b=1", "a.c=x"} as the mapping a: {b: 1, c: x};
  // each value is parsed as YAML.
  static ConfigNode from_settings(const std::vector<std::string>& settings,
                                  const std::string& source = "<command line>");
  // Deep-merges `overrides` (a mapping) onto a copy of this mapping.
  ConfigNode merged(const ConfigNode& overrides) const;

  bool is_null() const { return !node_ || node_.IsNull(); }
  bool is_map() const { return node_ && node_.IsMap(); }
  bool is_sequence() const { return node_ && node_.IsSequence(); }
  bool has(const std::string& key) const;

  // Throws ConfigError naming each key of this mapping not in `allowed`.
  void expect_keys(std::initializer_list<const char*> allowed) const;
  void expect_keys(const std::vector<std::string>& allowed) const;

  ConfigNode child(const std::string& key) const;  // required mapping entry
  ConfigNode child_or_empty(const std::string& key) const;
  std::vector<ConfigNode> items() const;  // sequence elements
  std::vector<std::string> keys() const;  // mapping keys in order

  // Typed getters: a missing required key or a value of the wrong type or out
  // of range is a ConfigError naming file, line and key.
  int get_int(const std::string& key) const;
  int get_int(const std::string& key, int fallback, int min, int max) const;
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
  std::string child_path(const std::string& key) const;
  YAML::Node node_;
  std::string source_;
  std::string path_;
};

}  // namespace rocketgym
