// A spec read, written, named and resolved the same way for every kind: the
// NAME=, the YAML mapping's name, kind and foreign keys, the round trip of the
// command-line form. What a kind says after its name is its own file's
// (kinds/<kind>.cpp, through PlayerKind).
#include "training/players/player_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "envs/core/numbers.h"
#include "envs/core/quoted.h"
#include "models/checkpoint.h"

namespace rocketgym::players {

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!text.empty() && text.back() == sep) parts.emplace_back();
  return parts;
}

// The agent kind named `word`, or null.
const PlayerKind* find_agent_kind(const std::string& word) {
  const PlayerKind* kind = find_kind(word);
  return kind && kind->info().agent ? kind : nullptr;
}

// `'a', 'b' and 'c'`.
std::string quoted_list(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + ("'" + words[i] + "'");
  return out;
}

// A key of the mapping that the kind does not take, refused naming what the
// kind takes and which kinds the key belongs to.
void check_foreign_keys(const ConfigNode& node, const KindInfo& kind) {
  for (const std::string& key : node.keys()) {
    if (key == "name" || key == "kind") continue;
    if (std::find(kind.keys.begin(), kind.keys.end(), key) != kind.keys.end()) continue;
    std::vector<std::string> owners;
    for (const PlayerKind* other : player_kinds())
      if (other->info().agent &&
          std::find(other->info().keys.begin(), other->info().keys.end(), key) != other->info().keys.end())
        owners.emplace_back(other->info().name);
    std::string owned;
    for (std::size_t i = 0; i < owners.size(); ++i)
      owned += (i == 0 ? "" : i + 1 == owners.size() ? " and " : ", ") + owners[i];
    const std::string article = std::string("aeiou").find(kind.name[0]) != std::string::npos ? "an " : "a ";
    node.fail(article + kind.name + " agent takes only " +
              (kind.keys.empty() ? "'name' and 'kind'" : quoted_list(kind.keys)) + ": '" + key +
              "' belongs to " + owned + " agents");
  }
}

}  // namespace

// --- reading ---------------------------------------------------------------------

PlayerSpec parse_player(const std::string& text) {
  if (text.find('\0') != std::string::npos)
    throw ConfigError("agent " + quote(text.substr(0, text.find('\0'))) +
                      ": the spec contains a NUL character");
  PlayerSpec spec;
  std::string body = text;
  // `name=` only when the name is a plain one, so that a path holding '='
  // (checkpoint:runs/lr=3e-4/latest.ckpt) is not split.
  if (const auto eq = text.find('='); eq != std::string::npos && is_agent_name(text.substr(0, eq))) {
    spec.name = text.substr(0, eq);
    body = text.substr(eq + 1);
  }
  const auto words = split(body, ':');
  if (words.empty() || words[0].empty()) throw ConfigError("agent " + quote(text) + ": missing kind");
  const PlayerKind* kind = find_agent_kind(words[0]);
  if (kind == nullptr) {
    if (const PlayerKind* person = find_kind(body); person && !person->info().agent)
      throw ConfigError("agent " + quote(text) + ": " + person->info().help);
    for (const PlayerKind* other : player_kinds())
      if (std::unique_ptr<PlayerKind> aliased = other->read_alias(body)) {
        spec.kind = Kind(std::move(aliased));
        return spec;
      }
    // NAME= with a name the rule refuses (too long, a space): said as a name.
    if (const auto eq = words[0].find('=');
        eq != std::string::npos && find_agent_kind(words[0].substr(eq + 1)))
      throw ConfigError("agent " + quote(text) +
                        ": the name before '=' is not an agent name: " + kAgentNameRule);
    throw ConfigError("agent " + quote(text) + ": unknown kind " + quote(words[0]) + " (" + agent_grammar() +
                      ")");
  }
  // An empty part is a slip (`ismcts:10:`), not a default: said by position.
  for (std::size_t k = 1; k < words.size(); ++k)
    if (words[k].empty())
      throw ConfigError("agent " + quote(text) + ": part " + std::to_string(k + 1) + " (after ':' number " +
                        std::to_string(k) + ") is empty; fill it in or leave out its ':'");
  spec.kind = Kind(kind->read_text(SpecWords{text, words}));
  return spec;
}

PlayerSpec parse_player(const ConfigNode& node) {
  if (!node.is_map()) node.fail("an agent is a mapping with at least 'kind'");
  std::vector<std::string> allowed{"name", "kind"};
  for (const std::string& key : agent_keys()) allowed.push_back(key);
  node.expect_keys(allowed);
  PlayerSpec spec;
  // The command line's rule (NAME=): a name that cannot break a table row or a CSV field.
  if (node.has("name")) {
    spec.name = node.get_string("name");
    if (!is_agent_name(spec.name)) node.fail_key("name", kAgentNameRule);
  }
  const std::string word = node.get_string("kind", "");
  const PlayerKind* kind = find_agent_kind(word);
  if (kind == nullptr) node.fail_key("kind", quote(word) + " is not one of: " + agent_kind_names());
  check_foreign_keys(node, kind->info());
  spec.kind = Kind(kind->read_yaml(node));
  return spec;
}

int read_count(const SpecWords& in, std::size_t k, const mcts::CountRange& range, const std::string& label) {
  const std::string& text = in.words.at(k);
  int value = 0;  // the one number form of configs and --set: 010 is refused, not read as 10 or 8
  if (read_whole(text, range.min, range.max, value) != NumberRead::ok)
    in.fail(range.rule(label) + ", not " + quote(text));
  return value;
}

void check_path(const ConfigNode& node, const char* key, const std::string& path) {
  if (path.find('\0') != std::string::npos) node.fail_key(key, "the path contains a NUL character");
}

// --- writing ---------------------------------------------------------------------

std::string kind_name(const PlayerSpec& spec) { return spec.kind->info().name; }

std::string playing_kind_name(const PlayerSpec& spec) { return spec.kind->played_as().kind; }

std::string to_string(const PlayerSpec& spec) {
  std::string body;
  try {
    body = spec.kind->text();
  } catch (const Error& e) {
    throw Error("player " + quote(spec.name) + ": " + e.what() + "; write it in YAML (" + to_yaml(spec) +
                ")");
  }
  const std::string text = (spec.name.empty() ? "" : spec.name + "=") + body;
  // Some paths have no short form (one with ':' or a leading "x="):
  // checked by reading the text back.
  bool same = false;
  try {
    same = to_yaml(parse_player(text)) == to_yaml(spec);
  } catch (const ConfigError&) {
  }
  if (!same)
    throw Error("player " + quote(spec.name) +
                ": no command-line form reads back as this player; write it in YAML (" + to_yaml(spec) + ")");
  return text;
}

std::string to_yaml(const PlayerSpec& spec) {
  YAML::Node m(YAML::NodeType::Map);
  if (!spec.name.empty()) m["name"] = spec.name;
  m["kind"] = kind_name(spec);
  spec.kind->write_yaml(m);
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out << m;
  return out.c_str();
}

Json to_json(const PlayerSpec& spec) {
  const PlayedAs played = spec.kind->played_as();
  return Json{{"name", spec.name},
              {"kind", played.kind},
              {"path", played.path},
              {"mode", played.greedy ? "greedy" : "sample"},
              {"simulations", played.simulations}};
}

namespace {

// A default name as a table row and a CSV field can show it: a file name
// (checkpoint:PATH, search:...:PATH) may hold anything, so a character
// outside the name rule's and '/', ':' is '_', and a long name is cut to
// kMaxAgentName bytes (name_players then tells cut names apart by #2, #3):
// the names a records file may hold (is_seat_name, envs/core/agent_name.h).
std::string displayable_name(const std::string& name) {
  std::string out = name.substr(0, kMaxAgentName);
  for (char& c : out)
    if (!is_default_name_char(c)) c = '_';
  return out;
}

}  // namespace

void name_players(std::vector<PlayerSpec>& players) {
  for (auto& p : players)
    if (p.name.empty()) p.name = displayable_name(p.kind->default_name());
  for (std::size_t i = 0; i < players.size(); ++i) {
    int copies = 1;
    for (std::size_t j = i + 1; j < players.size(); ++j)
      if (players[j].name == players[i].name) players[j].name += "#" + std::to_string(++copies);
  }
}

// --- files, resolving ----------------------------------------------------------------

std::string* checkpoint_file(PlayerSpec& spec) { return spec.kind->checkpoint_file(); }

std::string own_game(const PlayerSpec& spec) {
  if (std::string game = spec.kind->own_game(); !game.empty()) return game;
  PlayerSpec copy = spec;
  if (const std::string* path = checkpoint_file(copy)) return read_checkpoint_meta(*path).game;
  return "";
}

void resolve_kind(PlayerSpec& spec, int num_players) {
  while (std::unique_ptr<PlayerKind> next = spec.kind->plays_as(num_players))
    spec.kind = Kind(std::move(next));
}

bool uses_network(const PlayerSpec& spec) {
  // A kind that may play a network plays the one set (the learner, a pool snapshot) besides its own.
  return spec.kind->needs_network() || (spec.net && spec.kind->info().network);
}

LoadedCheckpoint load_for_table(const std::string& path, const PlayerTable& table) {
  LoadedCheckpoint loaded = load_checkpoint(path, table.device);
  check_checkpoint_matches(loaded.meta, path, table.game_id, table.num_players, table.observation_shape,
                           table.num_actions);
  loaded.net->eval();
  return loaded;
}

void resolve(PlayerSpec& spec, const std::string& game_id, int num_players,
             const std::vector<int>& observation_shape, int num_actions, torch::Device device) {
  const PlayerTable table{game_id, num_players, observation_shape, num_actions, device};
  const Kind kind = spec.kind;  // a copy: prepare() may replace spec.kind
  kind->prepare(spec, table);
  resolve_kind(spec, num_players);  // a manifest's agent (its network too); a search player's ismcts
  if (spec.net) return;
  if (const std::string* path = checkpoint_file(spec)) spec.net = load_for_table(*path, table).net;
}

}  // namespace rocketgym::players
