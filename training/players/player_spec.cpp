#include "training/players/player_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <sstream>

#include "envs/core/game.h"
#include "models/checkpoint.h"

namespace rocketgym::players {

namespace {

// Sets `kind` to the default-constructed alternative of the agent kind named
// `word` (kinds.h); false if no agent kind has that name.
template <std::size_t I = 0>
bool kind_from_id(KindId id, Kind& kind) {
  if constexpr (I == std::variant_size_v<Kind>) {
    return false;
  } else {
    if (static_cast<std::size_t>(id) != I) return kind_from_id<I + 1>(id, kind);
    kind.emplace<I>();
    return true;
  }
}
bool kind_from_name(const std::string& word, Kind& kind) {
  const KindInfo* info = find_kind(word);
  return info && info->agent && kind_from_id(info->id, kind);
}

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!text.empty() && text.back() == sep) parts.emplace_back();
  return parts;
}

// A count typed in a spec, in the range the YAML keys take (the table in
// training/mcts/mcts.h).
int parse_count(const std::string& text, const mcts::CountRange& range, const std::string& spec,
                const std::string& label = "") {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || !range.contains(value))
    throw ConfigError("agent '" + spec + "': " + range.rule(label) + ", not '" + text + "'");
  return static_cast<int>(value);
}

bool is_plain_name(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+' ||
           c == '#';
  });
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// A path the operating system reads as written: a NUL (YAML's "\0" escape) would
// cut it short.
void check_path(const ConfigNode& node, const char* key, const std::string& path) {
  if (path.find('\0') != std::string::npos) node.fail_key(key, "the path contains a NUL character");
}

// The ismcts options the short form `ismcts:SIMULATIONS:heuristic[:PLAYOUTS]` stands for.
mcts::Options heuristic_playouts(int simulations, int playouts) {
  mcts::Options o;
  o.simulations = simulations;
  // Playouts by the game's heuristic bot, half the prior on its move: the
  // setting measured for Launchpad 23 (configs/arena/launchpad23_search.yaml).
  o.rollout_policy = mcts::RolloutPolicy::kHeuristic;
  o.heuristic_prior = 0.5;
  o.rollouts = playouts;
  return o;
}

// --- the command-line form, kind by kind ---------------------------------------

struct TextArgs {
  const std::string& text;                // the whole spec, for messages
  const std::vector<std::string>& parts;  // parts[0] is the kind

  void at_most(std::size_t n) const {
    if (parts.size() > n) throw ConfigError("agent '" + text + "': too many ':' arguments for " + parts[0]);
  }
  const std::string& required(std::size_t k, const char* what) const {
    if (parts.size() <= k || parts[k].empty()) throw ConfigError("agent '" + text + "': " + what);
    return parts[k];
  }
};

void read_args(const TextArgs& in, Random&) { in.at_most(1); }
void read_args(const TextArgs& in, Heuristic&) { in.at_most(1); }

void read_args(const TextArgs& in, Checkpoint& c) {
  in.at_most(3);
  c.path = in.required(1, "checkpoint needs a path");
  if (in.parts.size() == 3) {
    const std::string& mode = in.parts[2];
    if (mode != "greedy" && mode != "sample")
      throw ConfigError("agent '" + in.text + "': mode '" + mode + "' is not greedy or sample");
    c.greedy = mode == "greedy";
  }
}

// The search keys after `ismcts:SIMULATIONS:heuristic[:PLAYOUTS]`, each
// `:KEY=VALUE` (e.g. :rollout_depth=8:c_puct=0.75), read by the key table
// over the short form's options: the ranges and refusals of the YAML keys.
// A key may be said once: neither twice as KEY=VALUE (which would win is not
// for the order to decide) nor as KEY=VALUE over what the short form says by
// position (`said`: SIMULATIONS, the word heuristic, PLAYOUTS when given).
mcts::Options read_search_settings(const TextArgs& in, std::size_t first, const mcts::Options& short_form,
                                   const std::vector<std::pair<std::string, std::string>>& said) {
  std::vector<std::string> settings(in.parts.begin() + static_cast<std::ptrdiff_t>(first), in.parts.end());
  if (settings.empty()) return short_form;
  for (std::size_t i = 0; i < settings.size(); ++i) {
    const std::string& setting = settings[i];
    const auto eq = setting.find('=');
    if (eq == std::string::npos)
      throw ConfigError(
          "agent '" + in.text + "': '" + setting +
          "' is not a search setting KEY=VALUE (ismcts:SIMULATIONS:heuristic[:PLAYOUTS][:KEY=VALUE...])");
    const std::string key = setting.substr(0, eq);
    for (std::size_t j = 0; j < i; ++j)
      if (settings[j].substr(0, settings[j].find('=')) == key)
        throw ConfigError("agent '" + in.text + "': search key '" + key + "' is given twice ('" +
                          settings[j] + "' and '" + setting + "'): give it once");
    for (const auto& [name, how] : said)
      if (key == name)
        throw ConfigError("agent '" + in.text + "': search key '" + key +
                          "' is given twice: by the short form (" + how + ") and as '" + setting +
                          "'; give it once");
  }
  std::vector<ConfigNode::Setting> labelled;
  for (const std::string& setting : settings) labelled.push_back({setting, setting});
  const ConfigNode node = ConfigNode::from_labelled_settings(labelled, "agent '" + in.text + "'");
  mcts::Options o = mcts::parse_options(node, short_form);
  mcts::check_unused_keys(node, o, false);
  return o;
}

void read_args(const TextArgs& in, Ismcts& s) {
  const auto& parts = in.parts;
  const bool heuristic = parts.size() >= 3 && parts[2] == "heuristic";
  if (!heuristic) in.at_most(3);
  if (parts.size() >= 2) s.mcts.simulations = parse_count(parts[1], mcts::kSimulationsRange, in.text);
  if (heuristic) {
    const bool playouts = parts.size() >= 4 && parts[3].find('=') == std::string::npos;
    s.mcts = heuristic_playouts(
        s.mcts.simulations,
        playouts ? parse_count(parts[3], mcts::kRolloutsRange, in.text, "playouts per leaf (rollouts)") : 1);
    std::vector<std::pair<std::string, std::string>> said{
        {mcts::kSimulationsRange.name, "SIMULATIONS " + parts[1]}, {"rollout_policy", "the word heuristic"}};
    if (playouts) said.push_back({mcts::kRolloutsRange.name, "PLAYOUTS " + parts[3]});
    s.mcts = read_search_settings(in, playouts ? 4 : 3, s.mcts, said);
  } else if (parts.size() == 3) {
    s.network = parts[2];  // a checkpoint as evaluator (./heuristic for a file of that name)
  }
}

void read_args(const TextArgs& in, Search& s) {
  in.at_most(3);
  s.path = in.required(1, "search needs a path");
  if (in.parts.size() == 3) s.simulations = parse_count(in.parts[2], mcts::kSimulationsRange, in.text);
}

void read_args(const TextArgs& in, Zoo& z) {
  in.at_most(3);
  z.game = checked_zoo_id(in.required(1, "zoo needs a game id"));
  if (in.parts.size() == 3)
    z.simulations = in.parts[2] == "0" ? 0 : parse_count(in.parts[2], mcts::kSimulationsRange, in.text);
}

// --- the YAML form, kind by kind -------------------------------------------------

// Keys every kind may have; the rest belong to one kind or two.
bool has_any(const ConfigNode& node, std::initializer_list<const char*> keys) {
  return std::any_of(keys.begin(), keys.end(), [&](const char* key) { return node.has(key); });
}

void read_node(const ConfigNode& node, Random&) { (void)node; }
void read_node(const ConfigNode& node, Heuristic&) { (void)node; }

void read_node(const ConfigNode& node, Checkpoint& c) {
  c.path = node.get_string("path");
  c.greedy = node.get_choice("mode", "greedy", {"greedy", "sample"}) == "greedy";
  check_path(node, "path", c.path);
}

void read_node(const ConfigNode& node, Ismcts& s) {
  try {
    s.mcts = mcts::parse_options(node.child_or_empty("mcts"));
    s.mcts.validate();
  } catch (const ConfigError&) {
    throw;
  } catch (const Error& e) {
    node.fail_key("mcts", e.what());
  }
  s.network = node.get_string("checkpoint", "");
  check_path(node, "checkpoint", s.network);
  if (node.has("mcts")) mcts::check_unused_keys(node.child("mcts"), s.mcts, !s.network.empty());
}

void read_node(const ConfigNode& node, Search& s) {
  if (has_any(node, {"mode", "mcts", "checkpoint"}))
    node.fail("a search agent takes only 'path' and 'simulations'");
  s.path = node.get_string("path");
  s.simulations = mcts::get_count(node, mcts::kSimulationsRange, Search::kDefaultSimulations);
  check_path(node, "path", s.path);
}

void read_node(const ConfigNode& node, Zoo& z) {
  if (has_any(node, {"path", "mode", "mcts", "checkpoint"}))
    node.fail("a zoo agent takes only 'game' and 'simulations'");
  const std::string game = node.get_string("game");
  try {
    z.game = checked_zoo_id(game);
  } catch (const Error& e) {
    node.fail_key("game", e.what());
  }
  z.simulations = node.get_int("simulations", -1, 0, mcts::kSimulationsRange.max);  // 0: the raw network
}

// The keys of a kind that others must not carry (checked before the kind's own reader).
void check_foreign_keys(const ConfigNode& node, const Kind& kind) {
  const bool zoo = std::holds_alternative<Zoo>(kind), search = std::holds_alternative<Search>(kind);
  if ((node.has("game") && !zoo) || (node.has("simulations") && !zoo && !search))
    node.fail("'game' belongs to zoo agents, 'simulations' to zoo and search agents");
  if (zoo || search) return;  // their readers name what they take
  if (!std::holds_alternative<Checkpoint>(kind) && has_any(node, {"path", "mode"}))
    node.fail("'path' and 'mode' belong to checkpoint agents");
  if (!std::holds_alternative<Ismcts>(kind) && has_any(node, {"mcts", "checkpoint"}))
    node.fail("'mcts' and 'checkpoint' belong to ismcts agents");
}

// The search options that differ from mcts::Options{} as a YAML mapping
// (the YAML reader starts from those defaults). The seed is never written:
// the reader refuses it (every search is reseeded per game and move).
YAML::Node changed_mcts_keys(const mcts::Options& o) {
  static const mcts::Options defaults;
  YAML::Node m(YAML::NodeType::Map);
  for (const auto& key : mcts::search_keys().keys())
    if (key.text(o) != key.text(defaults)) key.write(m, o);
  return m;
}

bool same_options(const mcts::Options& a, const mcts::Options& b) {
  return changed_mcts_keys(a).size() == changed_mcts_keys(b).size() &&
         YAML::Dump(changed_mcts_keys(a)) == YAML::Dump(changed_mcts_keys(b));
}

}  // namespace

// --- reading ---------------------------------------------------------------------

PlayerSpec parse_player(const std::string& text) {
  if (text.find('\0') != std::string::npos)
    throw ConfigError("agent '" + text.substr(0, text.find('\0')) +
                      "...': the spec contains a NUL character");
  PlayerSpec spec;
  std::string body = text;
  // `name=` only when the name is a plain one, so that a path holding '='
  // (checkpoint:runs/lr=3e-4/latest.ckpt) is not split.
  if (const auto eq = text.find('='); eq != std::string::npos && is_plain_name(text.substr(0, eq))) {
    spec.name = text.substr(0, eq);
    body = text.substr(eq + 1);
  }
  const auto parts = split(body, ':');
  if (parts.empty() || parts[0].empty()) throw ConfigError("agent '" + text + "': missing kind");
  if (!kind_from_name(parts[0], spec.kind)) {
    if (is_human(body)) throw ConfigError("agent '" + text + "': " + kind_info(KindId::kHuman).help);
    if (!ends_with(body, ".ckpt"))
      throw ConfigError("agent '" + text + "': unknown kind '" + parts[0] + "' (" + agent_grammar() + ")");
    spec.kind = Checkpoint{body, true};  // a bare checkpoint path: checkpoint:PATH, greedy
    return spec;
  }
  const TextArgs args{text, parts};
  std::visit([&](auto& kind) { read_args(args, kind); }, spec.kind);
  return spec;
}

PlayerSpec parse_player(const ConfigNode& node) {
  if (!node.is_map()) node.fail("an agent is a mapping with at least 'kind'");
  node.expect_keys({"name", "kind", "path", "mode", "mcts", "checkpoint", "game", "simulations"});
  PlayerSpec spec;
  spec.name = node.get_string("name", "");
  if (const std::string word = node.get_string("kind", ""); !kind_from_name(word, spec.kind))
    node.fail_key("kind", "'" + word + "' is not one of: " + agent_kind_names());
  check_foreign_keys(node, spec.kind);
  std::visit([&](auto& kind) { read_node(node, kind); }, spec.kind);
  return spec;
}

// --- writing ---------------------------------------------------------------------

PlayerSpec default_player(KindId id) {
  PlayerSpec spec;
  if (!kind_from_id(id, spec.kind)) throw Error(std::string(kind_name(id)) + " is not an agent kind");
  spec.name = kind_name(id);
  return spec;
}

std::string kind_name(const PlayerSpec& spec) { return kind_name(spec.kind_id()); }

std::string playing_kind_name(const PlayerSpec& spec) {
  return kind_name(spec.is<Search>() ? KindId::kIsmcts : spec.kind_id());
}

std::string to_string(const PlayerSpec& spec) {
  const std::string kind = kind_name(spec);
  const std::string body = std::visit(
      Overloaded{
          [&](const Random&) { return kind; },
          [&](const Heuristic&) { return kind; },
          [&](const Checkpoint& c) { return kind + ":" + c.path + (c.greedy ? "" : ":sample"); },
          [&](const Ismcts& s) {
            const std::string count = kind + ":" + std::to_string(s.mcts.simulations);
            mcts::Options plain;
            plain.simulations = s.mcts.simulations;
            if (s.network.empty() && same_options(s.mcts, plain)) return count;
            if (!s.network.empty() && same_options(s.mcts, plain)) return count + ":" + s.network;
            if (s.network.empty() && s.mcts.rollout_policy == mcts::RolloutPolicy::kHeuristic) {
              // The short form, then `:KEY=VALUE` for each key it does not say.
              const mcts::Options short_form = heuristic_playouts(s.mcts.simulations, s.mcts.rollouts);
              std::string text =
                  count + ":heuristic" + (s.mcts.rollouts == 1 ? "" : ":" + std::to_string(s.mcts.rollouts));
              for (const auto& key : mcts::search_keys().keys())
                if (key.text(s.mcts) != key.text(short_form)) text += ":" + key.name + "=" + key.text(s.mcts);
              return text;
            }
            throw Error("player '" + spec.name +
                        "': its search options have no command-line form; write it in YAML (" +
                        to_yaml(spec) + ")");
          },
          [&](const Search& s) { return kind + ":" + s.path + ":" + std::to_string(s.simulations); },
          [&](const Zoo& z) {
            return kind + ":" + z.game + (z.simulations >= 0 ? ":" + std::to_string(z.simulations) : "");
          },
      },
      spec.kind);
  std::string text = (spec.name.empty() ? "" : spec.name + "=") + body;
  // A path holding ':' reads back only as a bare PATH.ckpt (greedy).
  if (const auto* c = std::get_if<Checkpoint>(&spec.kind); c && c->path.find(':') != std::string::npos)
    text = (spec.name.empty() ? "" : spec.name + "=") + c->path;
  // Some names and paths have no short form (a name with a space, a path
  // with ':' or a leading "x="): checked by reading the text back.
  bool same = false;
  try {
    same = to_yaml(parse_player(text)) == to_yaml(spec);
  } catch (const ConfigError&) {
  }
  if (!same)
    throw Error("player '" + spec.name +
                "': no command-line form reads back as this player; write it in YAML (" + to_yaml(spec) +
                ")");
  return text;
}

std::string to_yaml(const PlayerSpec& spec) {
  YAML::Node m(YAML::NodeType::Map);
  if (!spec.name.empty()) m["name"] = spec.name;
  m["kind"] = kind_name(spec);
  std::visit(Overloaded{
                 [](const Random&) {},
                 [](const Heuristic&) {},
                 [&](const Checkpoint& c) {
                   m["path"] = c.path;
                   m["mode"] = c.greedy ? "greedy" : "sample";
                 },
                 [&](const Ismcts& s) {
                   if (!s.network.empty()) m["checkpoint"] = s.network;
                   if (const YAML::Node changed = changed_mcts_keys(s.mcts); changed.size() > 0)
                     m["mcts"] = changed;
                 },
                 [&](const Search& s) {
                   m["path"] = s.path;
                   m["simulations"] = s.simulations;
                 },
                 [&](const Zoo& z) {
                   m["game"] = z.game;
                   if (z.simulations >= 0) m["simulations"] = z.simulations;
                 },
             },
             spec.kind);
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out << m;
  return out.c_str();
}

Json to_json(const PlayerSpec& spec) {
  PlayerSpec played = spec;
  if (played.is<Search>()) resolve_kind(played, 0);  // no file to read, no table size needed
  const auto* checkpoint = std::get_if<Checkpoint>(&played.kind);
  const auto* ismcts = std::get_if<Ismcts>(&played.kind);
  std::string path = checkpoint ? checkpoint->path : ismcts ? ismcts->network : "";
  return Json{{"name", spec.name},
              {"kind", kind_name(played)},
              {"path", path},
              {"mode", checkpoint && !checkpoint->greedy ? "sample" : "greedy"},
              {"simulations", ismcts ? ismcts->mcts.simulations : 0}};
}

void name_players(std::vector<PlayerSpec>& players) {
  for (auto& p : players) {
    if (!p.name.empty()) continue;
    const std::string kind = kind_name(p);
    p.name = std::visit(Overloaded{
                            [&](const Checkpoint& c) {
                              std::string name = std::filesystem::path(c.path).stem().string();
                              // runs/<run>/checkpoints/latest.ckpt reads better as the run's name
                              const auto parent = std::filesystem::path(c.path).parent_path();
                              if (parent.filename() == "checkpoints" && parent.has_parent_path())
                                name = parent.parent_path().filename().string() + "/" + name;
                              return name + (c.greedy ? "" : ":sample");
                            },
                            [&](const Ismcts& s) {
                              const std::string sims = std::to_string(s.mcts.simulations);
                              if (s.mcts.root == mcts::RootSelection::kGumbel && !s.network.empty())
                                return kind_name(KindId::kSearch) + sims + "+" +
                                       std::filesystem::path(s.network).stem().string();
                              return kind + sims + (s.network.empty() ? "" : "+net");
                            },
                            [&](const Search& s) {
                              return kind + std::to_string(s.simulations) + "+" +
                                     std::filesystem::path(s.path).stem().string();
                            },
                            [&](const Zoo& z) {
                              return kind + ":" + z.game +
                                     (z.simulations >= 0 ? ":" + std::to_string(z.simulations) : "");
                            },
                            [&](const auto&) { return kind; },
                        },
                        p.kind);
  }
  for (std::size_t i = 0; i < players.size(); ++i) {
    int copies = 1;
    for (std::size_t j = i + 1; j < players.size(); ++j)
      if (players[j].name == players[i].name) players[j].name += "#" + std::to_string(++copies);
  }
}

}  // namespace rocketgym::players
