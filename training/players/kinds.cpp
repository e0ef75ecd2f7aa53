#include "training/players/kinds.h"

#include <algorithm>

#include "generated/player_kinds.h"
#include "training/players/player_base.h"

namespace rocketgym::players {

const std::vector<const PlayerKind*>& player_kinds() {
  // The kinds are found, not listed: CMake writes generated/player_kinds.h
  // from the files of kinds/ (and kinds/torch/, the kinds that may play a
  // network, in the training library only, which compiles this file with
  // ROCKETGYM_WITH_TRAINING: training/CMakeLists.txt), each kinds/<kind>.cpp
  // defining <kind>_kind(). They are listed by their rows' places.
  static const std::vector<const PlayerKind*> kinds = [] {
    std::vector<const PlayerKind*> found = found_player_kinds();
    std::stable_sort(found.begin(), found.end(), [](const PlayerKind* a, const PlayerKind* b) {
      return a->info().place < b->info().place;
    });
    for (std::size_t k = 1; k < found.size(); ++k)
      if (found[k]->info().place == found[k - 1]->info().place)
        throw Error(std::string("the player kinds ") + found[k - 1]->info().name + " and " +
                    found[k]->info().name + " have the same place in the list (KindInfo::place)");
    return found;
  }();
  return kinds;
}

// --- what a kind does unless it says otherwise -----------------------------------

std::unique_ptr<PlayerKind> PlayerKind::read_text(const SpecWords& in) const {
  in.at_most(1);
  return clone();
}

std::unique_ptr<PlayerKind> PlayerKind::read_yaml(const ConfigNode& node) const {
  (void)node;
  return clone();
}

std::unique_ptr<PlayerKind> PlayerKind::read_alias(const std::string& text) const {
  (void)text;
  return nullptr;
}

std::string PlayerKind::at_table(const std::string& game) const {
  (void)game;
  return info().name;
}

std::string PlayerKind::text() const { return info().name; }

void PlayerKind::write_yaml(YAML::Node& mapping) const { (void)mapping; }

std::string PlayerKind::default_name() const { return info().name; }

PlayedAs PlayerKind::played_as() const { return {info().name, "", true, 0}; }

std::string* PlayerKind::checkpoint_file() { return nullptr; }

std::string PlayerKind::own_game() const { return ""; }

bool PlayerKind::needs_network() const { return false; }

void PlayerKind::prepare(PlayerSpec& spec, const PlayerTable& table) const { (void)spec, (void)table; }

std::unique_ptr<PlayerKind> PlayerKind::plays_as(int num_players) const {
  (void)num_players;
  return nullptr;
}

std::unique_ptr<UntypedPlayer> PlayerKind::make_player(const PlayerSetup& setup) const {
  (void)setup;
  return nullptr;
}

// --- the registry -------------------------------------------------------------------

namespace {

std::string escaped_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string joined_keys(const KindInfo& k) {
  std::string out;
  for (const std::string& key : k.keys) out += (out.empty() ? "" : ", ") + key;
  return out;
}

}  // namespace

const PlayerKind* find_kind(const std::string& name) {
  for (const PlayerKind* k : player_kinds())
    if (name == k->info().name) return k;
  return nullptr;
}

std::string agent_grammar(const std::string& separator) {
  std::string out;
  for (const PlayerKind* kind : player_kinds()) {
    const KindInfo& k = kind->info();
    if (!k.agent) continue;
    out += (out.empty() ? "" : separator) + k.form;
    if (*k.alias) out += separator + k.alias;
  }
  return out;
}

std::string agent_kind_names() {
  std::string out;
  for (const PlayerKind* k : player_kinds())
    if (k->info().agent) out += (out.empty() ? "" : ", ") + std::string(k->info().name);
  return out;
}

std::vector<std::string> agent_keys() {
  std::vector<std::string> keys;
  for (const PlayerKind* k : player_kinds())
    if (k->info().agent)
      for (const std::string& key : k->info().keys)
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  return keys;
}

bool is_person_seat(const std::string& seat) {
  const PlayerKind* kind = find_kind(seat);
  return kind != nullptr && !kind->info().agent;
}

std::vector<std::string> person_kinds() {
  std::vector<std::string> names;
  for (const PlayerKind* k : player_kinds())
    if (!k->info().agent) names.emplace_back(k->info().name);
  return names;
}

std::vector<std::string> default_seats(int players) {
  std::vector<std::string> seats{human_kind().info().name};
  while (static_cast<int>(seats.size()) < players) seats.emplace_back(heuristic_kind().info().name);
  return seats;
}

std::string kinds_markdown() {
  std::string out = "| spec | YAML keys | who plays |\n| --- | --- | --- |\n";
  for (const PlayerKind* kind : player_kinds()) {
    const KindInfo& k = kind->info();
    std::string spec = "`" + escaped_cell(k.form) + "`";
    if (*k.alias) spec += ", `" + escaped_cell(k.alias) + "`";
    const std::string keys = !k.keys.empty() ? "`" + joined_keys(k) + "`" : (k.agent ? "" : "(no YAML form)");
    out += "| " + spec + " | " + keys + " | " + escaped_cell(k.help) + " |\n";
  }
  return out;
}

Json kinds_json() {
  Json rows = Json::array();
  for (const PlayerKind* kind : player_kinds()) {
    const KindInfo& k = kind->info();
    rows.push_back(Json{{"name", k.name},
                        {"form", k.form},
                        {"alias", k.alias},
                        {"yaml", joined_keys(k)},
                        {"help", k.help},
                        {"agent", k.agent},
                        {"network", k.network}});
  }
  return rows;
}

}  // namespace rocketgym::players
