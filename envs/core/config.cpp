#include "envs/core/config.h"

#include <yaml-cpp/depthguard.h>    // YAML::DeepRecursion, which yaml.h leaves out
#include <yaml-cpp/eventhandler.h>  // YAML::EventHandler, which yaml.h leaves out

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "envs/core/config_record.h"
#include "envs/core/files.h"
#include "envs/core/numbers.h"
#include "envs/core/quoted.h"
#include "envs/core/seed_range.h"
#include "envs/core/yaml_document.h"

namespace rocketgym {

// A node that did not come from the file named by source_: merged in from an
// override file or from the command line, or made by merging two mappings.
struct ConfigNode::Origin {
  YAML::Node node;     // this node...
  bool subtree;        // ...or everything under it
  std::string source;  // its file, for "file:line" (when label is empty)
  std::string label;   // else its whole location, e.g. "<command line> (--set a.b=1)"
};

namespace {

// Values in one document after expanding aliases ("billion laughs").
constexpr std::size_t kMaxValues = std::size_t{1} << 20;

std::string line_of(const YAML::Mark& mark) {
  return mark.line >= 0 ? std::to_string(mark.line + 1) : std::string("?");
}

// "source:line", or the source alone where the node has no line (one built
// in code, e.g. rocketgym.arena's keys): never "source:?".
std::string at_line(const std::string& source, const YAML::Mark& mark) {
  return mark.line >= 0 ? source + ":" + std::to_string(mark.line + 1) : source;
}

// --- reading files -----------------------------------------------------------

// A config file under the project's file rule (envs/core/files.h): a regular
// file of at most `limit` bytes, never a FIFO or a device.
std::string read_config_file(const std::string& file, uint64_t limit) {
  return files::read_input_file_as<ConfigError>(file, limit, "config file");
}

// YAML text is UTF-8 without control characters other than tab and line
// breaks. Binary data is refused here with its offset rather than handed to
// the parser, which may accept parts of it as odd scalars.
void check_text(const std::string& text, const std::string& source) {
  std::size_t line = 1;
  auto refuse = [&](std::size_t offset, const std::string& why) {
    char byte[8];
    std::snprintf(byte, sizeof(byte), "0x%02X", static_cast<unsigned char>(text[offset]));
    throw ConfigError(source + ":" + std::to_string(line) + ": not a YAML text file (" + why + ": byte " +
                      byte + " at offset " + std::to_string(offset) + ")");
  };
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = 1;
    const int32_t code = files::decode_utf8(text, i, length);
    if (code < 0) refuse(i, "not UTF-8");
    if (files::is_control(code)) refuse(i, "control character");
    if (code == '\n') ++line;
    i += length;
  }
}

// --- one document ------------------------------------------------------------------

// Notes where each document of a text starts; nothing else.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
  }
  void OnMapEnd() override {}
};

// Whether a line of `text` starts with a document marker ("---" or "...").
bool has_document_marker(const std::string& text) {
  for (std::size_t start = 0; start < text.size();) {
    const std::string_view line = std::string_view(text).substr(start, text.find('\n', start) - start);
    if (line.rfind("---", 0) == 0 || line.rfind("...", 0) == 0) return true;
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

// Where the second document of `text` starts (the text parsed once already).
YAML::Mark second_document(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  for (int call = 0; call < 2 && parser.HandleNextDocument(starts); ++call) {
  }
  return starts.starts.size() < 2 ? YAML::Mark::null_mark() : starts.starts[1];
}

// --- the shape of a parsed document --------------------------------------------

// Where a problem in a parsed text is: "file:line", or a fixed label where
// lines mean nothing (a command-line value).
struct TextPlace {
  std::string source;
  bool has_lines;
  std::string at(const YAML::Mark& mark) const { return has_lines ? at_line(source, mark) : source; }
};

// yaml-cpp reads no key past 1024 characters (the YAML limit on an implicit
// key) and then reports the flow or map around it as broken: a syntax error
// in text holding such a run of key characters says so.
std::string long_key_hint(const std::string& text) {
  std::size_t run = 0;
  for (const char c : text) {
    run = std::string_view(":{}[],\n#").find(c) == std::string_view::npos ? run + 1 : 0;
    if (run > 1024)
      return " (the text holds more than 1024 characters without ':' or a separator: a YAML key is at most "
             "1024 characters, a config key at most " +
             std::to_string(kMaxConfigKeyLength) + ")";
  }
  return "";
}

std::string nested_too_deep() {
  return "nested more than " + std::to_string(kMaxConfigDepth) + " levels deep";
}

// Refuses what yaml-cpp accepts silently: a key given twice in one mapping
// (lookups would see only the first) and keys that are not plain scalars.
// Aliases can make a small text a huge or self-containing tree, so depth and
// size are bounded too.
void check_structure(const YAML::Node& node, const std::string& path, const TextPlace& place, int depth,
                     std::size_t& budget) {
  if (depth > kMaxConfigDepth)
    throw ConfigError(place.at(node.Mark()) + ": " + quote(path) + " is " + nested_too_deep());
  if (budget-- == 0)
    throw ConfigError(place.at(node.Mark()) + ": more than " + std::to_string(kMaxValues) +
                      " values (after expanding aliases)");
  if (node.IsMap()) {
    std::map<std::string, YAML::Mark> seen;
    for (const auto& kv : node) {
      if (!kv.first.IsScalar())
        throw ConfigError(place.at(kv.first.Mark()) + ": a key in " + quote(path.empty() ? "<top>" : path) +
                          " is not a plain name");
      const std::string key = kv.first.Scalar();
      if (key.size() > kMaxConfigKeyLength)
        throw ConfigError(place.at(kv.first.Mark()) + ": a key in " + quote(path.empty() ? "<top>" : path) +
                          " is longer than " + std::to_string(kMaxConfigKeyLength) + " bytes (it starts '" +
                          shortened(key, 20) + "')");
      const std::string key_path = path.empty() ? key : path + "." + key;
      const auto first = seen.find(key);
      if (first != seen.end())
        throw ConfigError(place.at(kv.first.Mark()) + ": duplicate key " + quote(key_path) +
                          (place.has_lines ? " (first given at line " + line_of(first->second) + ")" : "") +
                          "; give each key once");
      seen.emplace(key, kv.first.Mark());
      check_structure(kv.second, key_path, place, depth + 1, budget);
    }
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      check_structure(node[i], path + "[" + std::to_string(i) + "]", place, depth + 1, budget);
  }
}

void check_structure(const YAML::Node& node, const std::string& path, const TextPlace& place) {
  std::size_t budget = kMaxValues;
  check_structure(node, path, place, 0, budget);
}

bool contains(const YAML::Node& root, const YAML::Node& node, int depth) {
  if (root.is(node)) return true;
  if (depth > kMaxConfigDepth) return false;
  if (root.IsMap()) {
    for (const auto& kv : root)
      if (contains(kv.second, node, depth + 1)) return true;
  } else if (root.IsSequence()) {
    for (std::size_t i = 0; i < root.size(); ++i)
      if (contains(root[i], node, depth + 1)) return true;
  }
  return false;
}

// --- merging -------------------------------------------------------------------

// Builds a new mapping that shares the original nodes, keys included (keeping
// their line marks for error messages); a key present in both is merged
// recursively. `made` collects each new mapping with the base mapping it
// stands for.
YAML::Node merge_nodes(const YAML::Node& base, const YAML::Node& over,
                       std::vector<std::pair<YAML::Node, YAML::Node>>& made) {
  if (!base || !base.IsMap() || !over.IsMap()) return over;
  YAML::Node out(YAML::NodeType::Map);
  made.emplace_back(out, base);
  for (const auto& kv : base) {
    // A replaced value keeps its own key node: the line of an error is the override's.
    const std::string key = kv.first.as<std::string>();
    bool replaced = false;
    for (const auto& o : over) {
      if (replaced || o.first.as<std::string>() != key) continue;
      out[o.first] = merge_nodes(kv.second, o.second, made);
      replaced = true;
    }
    if (!replaced) out[kv.first] = kv.second;
  }
  for (const auto& kv : over)
    if (!base[kv.first.as<std::string>()]) out[kv.first] = kv.second;
  return out;
}

}  // namespace

// --- recording the keys read (config_record.h) ------------------------------------

namespace {

thread_local ConfigKeyRecording* active_recording = nullptr;
// Getters nested in a getter (get_int calls child, then as_int) read the same
// key: only the outermost one notes it.
thread_local int getter_depth = 0;

std::string key_path(const ConfigNode& node, const std::string& key) {
  if (key.empty()) return node.path();
  return node.path().empty() ? key : node.path() + "." + key;
}

// The items of a list share their keys: "a[3].b" is noted as "a[].b".
std::string without_indices(const std::string& path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    out += path[i];
    if (path[i] != '[') continue;
    std::size_t close = path.find(']', i);
    if (close == std::string::npos) continue;
    i = close - 1;
  }
  return out;
}

// A scalar or a list of scalars as one line of YAML; a list of mappings as its
// length; nothing for a mapping (its keys are noted one by one).
std::string value_text(const YAML::Node& value) {
  if (!value || value.IsNull() || value.IsMap()) return "";
  if (value.IsScalar()) return value.Scalar();
  for (const auto& item : value)
    if (item.IsMap()) return std::to_string(value.size()) + " items";
  YAML::Emitter out;
  out << YAML::Flow << value;
  return out.c_str();
}

YAML::Node value_of(const ConfigNode& node, const std::string& key) {
  if (key.empty()) return node.yaml();
  if (!node.is_map()) return YAML::Node();
  return node.yaml()[key];
}

std::string range_text(double min, double max) {
  std::ostringstream out;
  if (min == max)
    out << min << " only";
  else
    out << min << " to " << max;
  return out.str();
}

// A default as the recorded key tables print it (6 significant digits).
std::string default_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// --- numbers from scalars (the forms of envs/core/numbers.h) ------------------------

// A quoted scalar ("10", '10') or one tagged !!str is text: a number is
// written plain. (yaml-cpp tags a quoted scalar "!", a plain one "?"; nodes
// built in code have none.)
bool written_as_text(const YAML::Node& node) {
  return node.IsScalar() && (node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str");
}

std::string not_a(const YAML::Node& node, const char* form) {
  if (node && written_as_text(node))
    return std::string("expected ") + form + ", not quoted text (write the number without quotes)";
  return std::string("expected ") + form;
}

std::string out_of_range(const std::string& text, const std::string& min, const std::string& max) {
  return "value" + typed_value(text) + " out of range [" + min + ", " + max + "]";
}

// `node` as a whole number in [min, max] (Int: int, uint64_t): "" and
// `value` set, or why not.
template <class Int>
std::string read_int(const YAML::Node& node, Int min, Int max, Int& value) {
  if (!node || !node.IsScalar() || written_as_text(node)) return not_a(node, kWholeNumberForm);
  switch (read_whole(node.Scalar(), min, max, value)) {
    case NumberRead::ok:
      return "";
    case NumberRead::malformed:
      return not_a(node, kWholeNumberForm);
    case NumberRead::out_of_range:
      break;
  }
  return out_of_range(node.Scalar(), std::to_string(min), std::to_string(max));
}

// `node` as a number in [min, max]: "" and `value` set, or why not.
std::string read_double(const YAML::Node& node, double min, double max, double& value) {
  if (!node || !node.IsScalar() || written_as_text(node)) return not_a(node, kNumberForm);
  switch (read_number(node.Scalar(), min, max, value)) {
    case NumberRead::ok:
      return "";
    case NumberRead::malformed:
      return not_a(node, kNumberForm);
    case NumberRead::out_of_range:
      break;
  }
  if (min == std::numeric_limits<double>::lowest() && max == std::numeric_limits<double>::max())
    return "value" + typed_value(node.Scalar()) + " is too large for a number";
  return out_of_range(node.Scalar(), number_text(min), number_text(max));
}

// A mapping or a list; what `key` holds (a missing key is an error anyway).
std::string section_type(const ConfigNode& node, const std::string& key) {
  return node.is_map() && node.yaml()[key] && node.yaml()[key].IsSequence() ? "list" : "mapping";
}

// A public getter's note about the key it reads: the description is built
// only while recording, so a getter costs one thread-local test otherwise.
class KeyRead {
 public:
  template <typename Describe>
  KeyRead(const ConfigNode& node, const std::string& key, Describe describe) {
    ConfigKeyRecording* recording = ConfigKeyRecording::active();
    if (recording == nullptr) return;
    nested_ = true;
    if (getter_depth++ > 0) return;
    ConfigKey noted = describe();
    noted.path = key_path(node, key);
    noted.value = value_text(value_of(node, key));
    recording->note(std::move(noted), false);
  }
  ~KeyRead() {
    if (nested_) --getter_depth;
  }
  KeyRead(const KeyRead&) = delete;
  KeyRead& operator=(const KeyRead&) = delete;

 private:
  bool nested_ = false;
};

}  // namespace

ConfigKeyRecording::ConfigKeyRecording() : enclosing_(active_recording) { active_recording = this; }

ConfigKeyRecording::~ConfigKeyRecording() { active_recording = enclosing_; }

ConfigKeyRecording* ConfigKeyRecording::active() { return active_recording; }

void ConfigKeyRecording::note(ConfigKey key, bool declared) {
  key.path = without_indices(key.path);
  const auto found = index_.find(key.path);
  if (found == index_.end()) {
    index_.emplace(key.path, keys_.size());
    keys_.push_back(std::move(key));
    return;
  }
  ConfigKey& known = keys_[found->second];
  auto take = [declared](std::string& field, std::string& given) {
    if (!given.empty() && (declared || field.empty())) field = std::move(given);
  };
  take(known.type, key.type);
  take(known.accepts, key.accepts);
  take(known.if_absent, key.if_absent);
  if (known.value.empty()) known.value = std::move(key.value);
}

void declare_config_key(const ConfigNode& node, const std::string& key, const std::string& type,
                        const std::string& accepts, const std::string& if_absent) {
  ConfigKeyRecording* recording = ConfigKeyRecording::active();
  if (recording == nullptr) return;
  recording->note({key_path(node, key), type, accepts, if_absent, value_text(value_of(node, key))}, true);
}

// --- construction ----------------------------------------------------------------

ConfigNode::ConfigNode(YAML::Node node, std::string source, std::string path)
    : node_(std::move(node)), source_(std::move(source)), path_(std::move(path)) {}

ConfigNode::ConfigNode(YAML::Node node, std::string source, std::string path,
                       std::shared_ptr<const Origins> origins)
    : node_(std::move(node)),
      source_(std::move(source)),
      path_(std::move(path)),
      origins_(std::move(origins)) {}

ConfigNode ConfigNode::make_child(const YAML::Node& node, const std::string& path) const {
  return ConfigNode(node, source_, path, origins_);
}

ConfigNode ConfigNode::load_file(const std::string& file) {
  return parse(read_config_file(file, files::kMaxConfigBytes), file);
}

YAML::Node load_yaml_document(const std::string& text, const std::string& source, bool lines) {
  const TextPlace place{source, lines};
  check_text(text, source);
  YAML::Node document;
  YAML::Mark second = YAML::Mark::null_mark();
  try {
    // Load reads the first document and drops the rest unread, broken YAML
    // included, so the parser is asked once more for a second one (events
    // only: nothing is built). Not LoadAll: yaml-cpp 0.7's loops forever,
    // growing, on some broken text (it takes a null document after the error).
    document = YAML::Load(text);
    second = second_document(text);
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own depth guard, far beyond kMaxConfigDepth
    throw ConfigError(place.at(e.mark) + ": " + nested_too_deep());
  } catch (const YAML::Exception& e) {
    throw ConfigError(place.at(e.mark) + (lines ? ": YAML syntax error: " : ": not valid YAML: ") + e.msg +
                      long_key_hint(text));
  }
  // yaml-cpp 0.7 also reports a second document after some broken text (",",
  // an unclosed flow): without a marker line it is a syntax error.
  if (!second.is_null() && !has_document_marker(text))
    throw ConfigError(place.at(second) + (lines ? ": YAML syntax error" : ": not valid YAML") +
                      ": text the YAML reader cannot read" + long_key_hint(text));
  if (!second.is_null())
    throw ConfigError(place.at(second) +
                      ": a second YAML document (after '---', or after the end marker '...'); a config is "
                      "one document: remove the marker and merge the settings into one mapping");
  return document;
}

ConfigNode ConfigNode::parse(const std::string& text, const std::string& source) {
  YAML::Node node = load_yaml_document(text, source);
  if (node.IsNull()) node = YAML::Node(YAML::NodeType::Map);
  if (!node.IsMap()) throw ConfigError(source + ":1: the top level must be a mapping");
  check_structure(node, "", TextPlace{source, true});
  return ConfigNode(node, source, "");
}

namespace {

void set_path(YAML::Node node, const std::vector<std::string>& path, std::size_t i, const YAML::Node& value,
              std::vector<YAML::Node>& made_maps) {
  if (i + 1 == path.size()) {
    node[path[i]] = value;
    return;
  }
  if (!node[path[i]] || !node[path[i]].IsMap()) {
    node[path[i]] = YAML::Node(YAML::NodeType::Map);
    made_maps.push_back(node[path[i]]);
  }
  set_path(node[path[i]], path, i + 1, value, made_maps);
}

}  // namespace

ConfigNode ConfigNode::from_settings(const std::vector<std::string>& settings, const std::string& source) {
  std::vector<Setting> labelled;
  for (const std::string& s : settings) labelled.push_back({s, "--set " + s});
  return from_labelled_settings(labelled, source);
}

ConfigNode ConfigNode::from_labelled_settings(const std::vector<Setting>& settings,
                                              const std::string& source) {
  YAML::Node root(YAML::NodeType::Map);
  auto origins = std::make_shared<Origins>();
  origins->push_back({root, false, "", source});
  for (const Setting& setting : settings) {
    const std::string& text = setting.assignment;
    const std::string where =
        source + " (" + shortened(setting.label) + ")";  // the label holds what was typed
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ConfigError(where + ": " + quote(text) + ": expected dotted.key=value");
    const std::string dotted = text.substr(0, eq), value_text = text.substr(eq + 1);
    std::vector<std::string> path;
    std::stringstream keys(dotted);
    for (std::string key; std::getline(keys, key, '.');) {
      if (key.empty()) throw ConfigError(where + ": " + quote(text) + ": empty key in the dotted path");
      if (key.size() > kMaxConfigKeyLength)
        throw ConfigError(where + ": a key is longer than " + std::to_string(kMaxConfigKeyLength) +
                          " bytes (it starts '" + shortened(key, 20) + "')");
      path.push_back(key);
    }
    if (dotted.back() == '.')
      throw ConfigError(where + ": " + quote(text) + ": empty key in the dotted path");
    if (value_text.find_first_not_of(" \t") == std::string::npos)
      throw ConfigError(where + ": key " + quote(dotted) + ": no value after '=' (write " +
                        shortened(dotted) + "=\"\" for an empty string)");
    const YAML::Node value = load_yaml_document(value_text, where + ": key " + quote(dotted), false);
    check_structure(value, dotted, TextPlace{where, false});
    std::vector<YAML::Node> made_maps;
    set_path(root, path, 0, value, made_maps);
    for (const YAML::Node& map : made_maps) origins->push_back({map, false, "", where});
    origins->push_back({value, true, "", where});
  }
  return ConfigNode(root, source, "", origins);
}

ConfigNode ConfigNode::merged(const ConfigNode& overrides) const {
  if (overrides.is_null()) return *this;
  if (!overrides.is_map()) overrides.fail("overrides must be a mapping");
  // Later entries win: the overrides' own origins (a `--set`) over the
  // overrides' file, and both over this tree's origins.
  auto origins = std::make_shared<Origins>();
  if (origins_) *origins = *origins_;
  origins->push_back({overrides.node_, true, overrides.source_, ""});
  if (overrides.origins_)
    origins->insert(origins->end(), overrides.origins_->begin(), overrides.origins_->end());
  std::vector<std::pair<YAML::Node, YAML::Node>> made;
  YAML::Node node = merge_nodes(node_, overrides.node_, made);
  for (const auto& [merged_map, base_map] : made)
    origins->push_back({merged_map, false, "", locate(base_map, YAML::Mark::null_mark())});
  return ConfigNode(node, source_, path_, origins);
}

// --- locations and errors ----------------------------------------------------------

std::string ConfigNode::locate(const YAML::Node& node, const YAML::Mark& mark) const {
  const YAML::Mark& at = mark.line >= 0 ? mark : node.Mark();
  if (origins_) {
    for (auto it = origins_->rbegin(); it != origins_->rend(); ++it) {
      if (!(it->subtree ? contains(it->node, node, 0) : it->node.is(node))) continue;
      return it->label.empty() ? at_line(it->source, at) : it->label;
    }
  }
  return at_line(source_, at);
}

bool ConfigNode::has(const std::string& key) const { return is_map() && node_[key] && !node_[key].IsNull(); }

bool ConfigNode::given(const std::string& key) const {
  if (!is_map() || !node_[key]) return false;
  if (node_[key].IsNull())
    fail_key(key, "no value given (leave the key out for the default, or give a value)");
  return true;
}

std::string ConfigNode::child_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

std::string ConfigNode::where() const {
  const std::string at = node_ ? locate(node_, YAML::Mark::null_mark()) : source_;
  return path_.empty() ? at : at + ": " + path_;
}

void ConfigNode::fail(const std::string& message) const { throw ConfigError(where() + ": " + message); }

std::string ConfigNode::key_location(const std::string& key) const {
  if (is_map())
    for (const auto& kv : node_)
      if (kv.first.IsScalar() && kv.first.Scalar() == key) return locate(kv.second, kv.first.Mark());
  return "";
}

void ConfigNode::fail_key(const std::string& key, const std::string& message) const {
  std::string at = key_location(key);
  if (at.empty()) at = node_ ? locate(node_, YAML::Mark::null_mark()) : source_;
  throw ConfigError(at + ": key " + quote(child_path(key)) + ": " + message);
}

void ConfigNode::expect_keys(std::initializer_list<const char*> allowed) const {
  expect_keys(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void ConfigNode::expect_keys(const std::vector<std::string>& allowed) const {
  // Recorded in the order the loader lists them; the getters then say how each is read.
  if (ConfigKeyRecording* recording = ConfigKeyRecording::active(); recording && getter_depth == 0)
    for (const auto& key : allowed) recording->note({key_path(*this, key), "", "", "", ""}, false);
  if (is_null()) return;
  if (!is_map()) fail("expected a mapping");
  for (const auto& kv : node_) {
    const auto key = kv.first.as<std::string>();
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (!known) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw ConfigError(locate(kv.second, kv.first.Mark()) + ": unknown key " + quote(child_path(key)) +
                        " (allowed: " + list + ")");
    }
  }
}

// --- navigation and typed values ---------------------------------------------------

ConfigNode ConfigNode::child(const std::string& key) const {
  const KeyRead read(*this, key, [&] { return ConfigKey{"", section_type(*this, key), "", "required", ""}; });
  if (!given(key)) fail_key(key, "missing required entry");
  return make_child(node_[key], child_path(key));
}

ConfigNode ConfigNode::child_or_empty(const std::string& key) const {
  const KeyRead read(*this, key, [&] { return ConfigKey{"", section_type(*this, key), "", "empty", ""}; });
  if (!given(key)) return make_child(YAML::Node(YAML::NodeType::Map), child_path(key));
  return make_child(node_[key], child_path(key));
}

std::vector<ConfigNode> ConfigNode::items() const {
  if (!is_sequence()) fail("expected a list");
  std::vector<ConfigNode> out;
  for (std::size_t i = 0; i < node_.size(); ++i)
    out.push_back(make_child(node_[i], path_ + "[" + std::to_string(i) + "]"));
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
  const KeyRead read(*this, "", [] { return ConfigKey{"", "integer", "", "required", ""}; });
  return config_int(*this, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
}

uint64_t config_seed(const ConfigNode& node, const std::string& key, uint64_t fallback) {
  if (!node.is_map() || !node.yaml()[key]) return fallback;
  uint64_t seed = 0;
  // child() refuses a key without a value.
  if (const std::string why = read_int(node.child(key).yaml(), uint64_t{0}, kMaxSeed, seed); !why.empty())
    node.fail_key(key, why);
  return seed;
}

int config_int(const ConfigNode& item, int min, int max) {
  int value = 0;
  if (const std::string why = read_int(item.yaml(), min, max, value); !why.empty()) item.fail(why);
  return value;
}

std::string ConfigNode::as_string() const {
  const KeyRead read(*this, "", [] { return ConfigKey{"", "text", "", "required", ""}; });
  if (!node_ || !node_.IsScalar()) fail("expected a string");
  return node_.as<std::string>();
}

int ConfigNode::get_int(const std::string& key) const {
  const KeyRead read(*this, key, [] { return ConfigKey{"", "integer", "", "required", ""}; });
  return child(key).as_int();
}

int ConfigNode::get_int(const std::string& key, int fallback, int min, int max) const {
  const KeyRead read(*this, key, [&] {
    return ConfigKey{"", "integer", range_text(min, max), std::to_string(fallback), ""};
  });
  if (!given(key)) return fallback;
  int value = 0;
  if (const std::string why = read_int(child(key).node_, min, max, value); !why.empty()) fail_key(key, why);
  return value;
}

int ConfigNode::get_int_at_least(const std::string& key, int fallback, const std::string& floor_key,
                                 int floor, int max) const {
  const KeyRead read(*this, key, [&] {
    return ConfigKey{"", "integer", floor_key + " to " + std::to_string(max), std::to_string(fallback), ""};
  });
  int value = fallback;
  if (given(key)) {
    const YAML::Node& node = node_[key];
    int below = 0;
    if (const std::string why = read_int(node, floor, max, value); !why.empty()) {
      // Any other fault (not a number, above max) is the key's own.
      if (floor == std::numeric_limits<int>::min() ||
          !read_int(node, std::numeric_limits<int>::min(), floor - 1, below).empty())
        fail_key(key, why);
      value = below;
    }
  }
  if (value >= floor) return value;
  // The two keys may come from different places (a `--set` of one over the
  // shipped file's other): each is named with where it came from.
  const std::string at = key_location(key), floor_at = key_location(floor_key);
  const auto origin = [](const std::string& where) {
    return where.empty() ? std::string("the default: the key is left out") : "from " + where;
  };
  std::string prefix = at.empty() ? floor_at : at;
  if (prefix.empty()) prefix = node_ ? locate(node_, YAML::Mark::null_mark()) : source_;
  throw ConfigError(prefix + ": key " + quote(child_path(key)) + " must be at least key " +
                    quote(child_path(floor_key)) + ", but it is " + std::to_string(value) + " (" +
                    origin(at) + ") and " + child_path(floor_key) + " is " + std::to_string(floor) + " (" +
                    origin(floor_at) + ")");
}

double ConfigNode::get_double(const std::string& key) const {
  const KeyRead read(*this, key, [] { return ConfigKey{"", "number", "", "required", ""}; });
  double value = 0;
  if (const std::string why = read_double(child(key).node_, std::numeric_limits<double>::lowest(),
                                          std::numeric_limits<double>::max(), value);
      !why.empty())
    fail_key(key, why);
  return value;
}

double ConfigNode::get_double(const std::string& key, double fallback, double min, double max) const {
  const KeyRead read(*this, key, [&] {
    return ConfigKey{"", "number", range_text(min, max), default_text(fallback), ""};
  });
  if (!given(key)) return fallback;
  double value = 0;
  if (const std::string why = read_double(child(key).node_, min, max, value); !why.empty())
    fail_key(key, why);
  return value;
}

bool ConfigNode::get_bool(const std::string& key, bool fallback) const {
  const KeyRead read(*this, key, [&] {
    return ConfigKey{"", "true or false", "", fallback ? "true" : "false", ""};
  });
  if (!given(key)) return fallback;
  // Plain true or false only: yaml-cpp alone also reads yes, on, y and a quoted
  // "false" (text, as a quoted number is).
  const YAML::Node node = node_[key];
  if (node.IsScalar() && !written_as_text(node)) {
    if (node.Scalar() == "true") return true;
    if (node.Scalar() == "false") return false;
  }
  fail_key(key, written_as_text(node) ? "expected true or false, not quoted text (write it without quotes)"
                                      : "expected true or false");
}

std::string ConfigNode::get_string(const std::string& key) const {
  const KeyRead read(*this, key, [] { return ConfigKey{"", "text", "", "required", ""}; });
  return child(key).as_string();
}

std::string ConfigNode::get_string(const std::string& key, const std::string& fallback) const {
  const KeyRead read(*this, key, [&] { return ConfigKey{"", "text", "", "'" + fallback + "'", ""}; });
  return given(key) ? get_string(key) : fallback;
}

std::string ConfigNode::get_choice(const std::string& key, const std::string& fallback,
                                   std::initializer_list<const char*> choices) const {
  // A fallback that is not a choice (often "") makes the key required.
  const KeyRead read(*this, key, [&] {
    ConfigKey noted{"", "one of", "", "required", ""};
    for (const char* c : choices) {
      noted.accepts += (noted.accepts.empty() ? "" : ", ") + std::string(c);
      if (fallback == c) noted.if_absent = fallback;
    }
    return noted;
  });
  const std::string v = get_string(key, fallback);
  std::string list;
  for (const char* c : choices) {
    if (v == c) return v;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  fail_key(key, quote(v) + " is not one of: " + list);
}

std::vector<int> ConfigNode::get_int_list(const std::string& key) const {
  const KeyRead read(*this, key, [] { return ConfigKey{"", "list of integers", "", "required", ""}; });
  std::vector<int> out;
  for (const auto& item : child(key).items()) out.push_back(item.as_int());
  return out;
}

}  // namespace rocketgym
