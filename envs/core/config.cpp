#include "envs/core/config.h"

#include <fstream>
#include <sstream>

namespace rocketgym {
namespace {

std::string line_of(const YAML::Mark& mark) {
  return mark.line >= 0 ? std::to_string(mark.line + 1) : std::string("?");
}

// Builds a new mapping that shares the original nodes (keeping their line
// marks for error messages); a key present in both is merged recursively.
YAML::Node merge_nodes(const YAML::Node& base, const YAML::Node& over) {
  if (!base || !base.IsMap() || !over.IsMap()) return over;
  YAML::Node out(YAML::NodeType::Map);
  for (const auto& kv : base) {
    const auto key = kv.first.as<std::string>();
    out[key] = over[key] ? merge_nodes(kv.second, over[key]) : kv.second;
  }
  for (const auto& kv : over)
    if (!base[kv.first.as<std::string>()]) out[kv.first.as<std::string>()] = kv.second;
  return out;
}

void set_path(YAML::Node node, const std::vector<std::string>& path, std::size_t i, const YAML::Node& value) {
  if (i + 1 == path.size()) {
    node[path[i]] = value;
    return;
  }
  if (!node[path[i]] || !node[path[i]].IsMap()) node[path[i]] = YAML::Node(YAML::NodeType::Map);
  set_path(node[path[i]], path, i + 1, value);
}

}  // namespace

ConfigNode ConfigNode::from_settings(const std::vector<std::string>& settings, const std::string& source) {
  YAML::Node root(YAML::NodeType::Map);
  for (const std::string& setting : settings) {
    const auto eq = setting.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ConfigError(source + ": '" + setting + "': expected dotted.key=value");
    std::vector<std::string> path;
    std::stringstream keys(setting.substr(0, eq));
    for (std::string key; std::getline(keys, key, '.');) {
      if (key.empty()) throw ConfigError(source + ": '" + setting + "': empty key in the dotted path");
      path.push_back(key);
    }
    YAML::Node value;
    try {
      value = YAML::Load(setting.substr(eq + 1));
    } catch (const YAML::Exception& e) {
      throw ConfigError(source + ": '" + setting + "': the value is not valid YAML: " + e.msg);
    }
    set_path(root, path, 0, value);
  }
  return ConfigNode(root, source, "");
}

ConfigNode::ConfigNode(YAML::Node node, std::string source, std::string path)
    : node_(std::move(node)), source_(std::move(source)), path_(std::move(path)) {}

ConfigNode ConfigNode::load_file(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw ConfigError(file + ": cannot open config file");
  std::stringstream text;
  text << in.rdbuf();
  return parse(text.str(), file);
}

ConfigNode ConfigNode::parse(const std::string& text, const std::string& source) {
  try {
    YAML::Node node = YAML::Load(text);
    if (node.IsNull()) node = YAML::Node(YAML::NodeType::Map);
    if (!node.IsMap()) throw ConfigError(source + ":1: the top level must be a mapping");
    return ConfigNode(node, source, "");
  } catch (const YAML::Exception& e) {
    throw ConfigError(source + ":" + line_of(e.mark) + ": YAML syntax error: " + e.msg);
  }
}

ConfigNode ConfigNode::merged(const ConfigNode& overrides) const {
  if (overrides.is_null()) return *this;
  if (!overrides.is_map()) overrides.fail("overrides must be a mapping");
  return ConfigNode(merge_nodes(node_, overrides.node_), source_ + " (with overrides)", path_);
}

bool ConfigNode::has(const std::string& key) const { return is_map() && node_[key] && !node_[key].IsNull(); }

std::string ConfigNode::child_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

std::string ConfigNode::where() const {
  std::string at = source_ + ":" + (node_ ? line_of(node_.Mark()) : std::string("?"));
  return path_.empty() ? at : at + ": " + path_;
}

void ConfigNode::fail(const std::string& message) const { throw ConfigError(where() + ": " + message); }

void ConfigNode::fail_key(const std::string& key, const std::string& message) const {
  const YAML::Node value = is_map() ? node_[key] : YAML::Node();
  const std::string line = value ? line_of(value.Mark()) : (node_ ? line_of(node_.Mark()) : "?");
  throw ConfigError(source_ + ":" + line + ": key '" + child_path(key) + "': " + message);
}

void ConfigNode::expect_keys(std::initializer_list<const char*> allowed) const {
  expect_keys(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void ConfigNode::expect_keys(const std::vector<std::string>& allowed) const {
  if (is_null()) return;
  if (!is_map()) fail("expected a mapping");
  for (const auto& kv : node_) {
    const auto key = kv.first.as<std::string>();
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (!known) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      const YAML::Mark mark = kv.first.Mark().line >= 0 ? kv.first.Mark() : kv.second.Mark();
      throw ConfigError(source_ + ":" + line_of(mark) + ": unknown key '" + child_path(key) +
                        "' (allowed: " + list + ")");
    }
  }
}

ConfigNode ConfigNode::child(const std::string& key) const {
  if (!has(key)) fail_key(key, "missing required entry");
  return ConfigNode(node_[key], source_, child_path(key));
}

ConfigNode ConfigNode::child_or_empty(const std::string& key) const {
  if (!has(key)) return ConfigNode(YAML::Node(YAML::NodeType::Map), source_, child_path(key));
  return ConfigNode(node_[key], source_, child_path(key));
}

std::vector<ConfigNode> ConfigNode::items() const {
  if (!is_sequence()) fail("expected a list");
  std::vector<ConfigNode> out;
  for (std::size_t i = 0; i < node_.size(); ++i)
    out.emplace_back(node_[i], source_, path_ + "[" + std::to_string(i) + "]");
  return out;
}

std::vector<std::string> ConfigNode::keys() const {
  std::vector<std::string> out;
  if (is_null()) return out;
  if (!is_map()) fail("expected a mapping");
  for (const auto& kv : node_) out.push_back(kv.first.as<std::string>());
  return out;
}

int ConfigNode::as_int() const {
  try {
    return node_.as<int>();
  } catch (const YAML::Exception&) {
    fail("expected an integer");
  }
}

std::string ConfigNode::as_string() const {
  if (!node_ || !node_.IsScalar()) fail("expected a string");
  return node_.as<std::string>();
}

int ConfigNode::get_int(const std::string& key) const { return child(key).as_int(); }

int ConfigNode::get_int(const std::string& key, int fallback, int min, int max) const {
  if (!has(key)) return fallback;
  const int v = child(key).as_int();
  if (v < min || v > max)
    fail_key(key, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " +
                      std::to_string(max) + "]");
  return v;
}

double ConfigNode::get_double(const std::string& key) const {
  const ConfigNode c = child(key);
  try {
    return c.node_.as<double>();
  } catch (const YAML::Exception&) {
    fail_key(key, "expected a number");
  }
}

double ConfigNode::get_double(const std::string& key, double fallback, double min, double max) const {
  if (!has(key)) return fallback;
  const double v = get_double(key);
  if (!(v >= min && v <= max))
    fail_key(key, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " +
                      std::to_string(max) + "]");
  return v;
}

bool ConfigNode::get_bool(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  try {
    return node_[key].as<bool>();
  } catch (const YAML::Exception&) {
    fail_key(key, "expected true or false");
  }
}

std::string ConfigNode::get_string(const std::string& key) const { return child(key).as_string(); }

std::string ConfigNode::get_string(const std::string& key, const std::string& fallback) const {
  return has(key) ? get_string(key) : fallback;
}

std::string ConfigNode::get_choice(const std::string& key, const std::string& fallback,
                                   std::initializer_list<const char*> choices) const {
  const std::string v = get_string(key, fallback);
  std::string list;
  for (const char* c : choices) {
    if (v == c) return v;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  fail_key(key, "'" + v + "' is not one of: " + list);
}

std::vector<int> ConfigNode::get_int_list(const std::string& key) const {
  std::vector<int> out;
  for (const auto& item : child(key).items()) out.push_back(item.as_int());
  return out;
}

}  // namespace rocketgym
