#include "envs/core/describe_config.h"

#include <algorithm>
#include <sstream>

#include "envs/core/game.h"

namespace rocketgym {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_section(const ConfigKey& key) { return key.type == "mapping" || key.type == "list"; }
bool is_list_of(const ConfigKey& key) { return starts_with(key.type, "list of"); }

ConfigKey* find_key(std::vector<ConfigKey>& keys, const std::string& path) {
  for (auto& key : keys)
    if (key.path == path) return &key;
  return nullptr;
}

// A list of scalars is one key: the note about its items ("values[]")
// becomes the list's type, and what is under a "list of ..." goes.
std::vector<ConfigKey> tidied(std::vector<ConfigKey> keys) {
  for (const auto& item : keys) {
    if (!ends_with(item.path, "[]") || item.type.empty() || is_section(item)) continue;
    ConfigKey* list = find_key(keys, item.path.substr(0, item.path.size() - 2));
    if (list == nullptr || list->type != "list") continue;
    list->type = "list of " + (item.type == "integer" ? std::string("integers") : item.type);
    if (list->accepts.empty() && !item.accepts.empty()) list->accepts = "each " + item.accepts;
  }
  std::vector<std::string> described;
  for (const auto& key : keys)
    if (is_list_of(key)) described.push_back(key.path + "[");
  keys.erase(std::remove_if(keys.begin(), keys.end(),
                            [&](const ConfigKey& key) {
                              return std::any_of(
                                  described.begin(), described.end(),
                                  [&](const std::string& p) { return starts_with(key.path, p); });
                            }),
             keys.end());
  return keys;
}

std::string code(const std::string& text) { return text.empty() ? "—" : "`" + text + "`"; }

// "integer 0 to 100, default 5" for the keys of a list's items.
std::string in_words(const ConfigKey& key) {
  if (key.type.empty()) return "any value (only its presence counts)";
  std::string out = key.type;
  if (!key.accepts.empty())
    out += starts_with(key.type, "list") ? " (" + key.accepts + ")" : " " + key.accepts;
  return out + (key.if_absent == "required" ? ", required" : ", default " + key.if_absent);
}

bool same_rule(const ConfigKey& a, const ConfigKey& b) {
  return a.type == b.type && a.accepts == b.accepts && a.if_absent == b.if_absent;
}

// The keys of the items, paths relative to an item: consecutive keys read
// under the same rule share a line.
std::string item_lines(const std::vector<ConfigKey>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size();) {
    if (items[i].type == "mapping") {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    while (end < items.size() && same_rule(items[i], items[end])) ++end;
    std::string names;
    for (std::size_t k = i; k < end; ++k) names += (names.empty() ? "" : ", ") + code(items[k].path);
    out += (out.empty() ? "" : "<br>") + names + ": " + in_words(items[i]);
    i = end;
  }
  return out;
}

bool has_items(const std::vector<ConfigKey>& keys, const ConfigKey& list) {
  return std::any_of(keys.begin(), keys.end(),
                     [&](const ConfigKey& key) { return starts_with(key.path, list.path + "[]."); });
}

// "36 items" -> "36".
std::string item_count(const ConfigKey& list) {
  return ends_with(list.value, " items") ? list.value.substr(0, list.value.size() - 6) : list.value;
}

void write_keys(const std::vector<ConfigKey>& keys, std::ostringstream& md) {
  md << "| key | type | range | default | shipped |\n| --- | --- | --- | --- | --- |\n";
  for (const auto& key : keys) {
    if (key.path.find("[]") != std::string::npos || key.type == "mapping" || has_items(keys, key)) continue;
    const bool flag = key.type.empty();
    md << "| " << code(key.path) << " | " << (flag ? "any" : markdown_cell(key.type)) << " | "
       << markdown_cell(flag ? "only its presence counts" : key.accepts) << " | "
       << markdown_cell(key.if_absent) << " | " << markdown_cell(code(key.value)) << " |\n";
  }
  md << "\n";
}

std::string parent_of(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

// One row per list of cards or tables. Sibling lists inside one mapping (the
// four mission decks, the requirements of one phase) hold the same kind of
// item: their items' keys are merged, so a key met only in one deck's cards is
// listed for all. Rows that end up alike (the two phases) are merged too.
void write_lists(const std::vector<ConfigKey>& keys, std::ostringstream& md) {
  struct Row {
    std::string parent;
    std::vector<std::string> lists, counts;
    std::string accepts;
    std::vector<ConfigKey> items;  // paths relative to an item
  };
  std::vector<Row> rows;
  for (const auto& key : keys) {
    if (key.type != "list" || key.path.find("[]") != std::string::npos || !has_items(keys, key)) continue;
    const std::string parent = parent_of(key.path);
    auto row = std::find_if(rows.begin(), rows.end(),
                            [&](const Row& r) { return !parent.empty() && r.parent == parent; });
    if (row == rows.end()) row = rows.insert(rows.end(), Row{parent, {}, {}, key.accepts, {}});
    row->lists.push_back(key.path);
    row->counts.push_back(item_count(key));
  }
  for (const auto& key : keys)
    for (auto& row : rows)
      for (const auto& list : row.lists) {
        if (!starts_with(key.path, list + "[].")) continue;
        ConfigKey item = key;
        item.path = key.path.substr(list.size() + 3);
        auto known = std::find_if(row.items.begin(), row.items.end(),
                                  [&](const ConfigKey& k) { return k.path == item.path; });
        if (known == row.items.end()) {
          row.items.push_back(item);
        } else {
          if (known->type.empty()) known->type = item.type;
          if (known->accepts.empty()) known->accepts = item.accepts;
          if (known->if_absent.empty()) known->if_absent = item.if_absent;
        }
      }
  struct Line {
    std::string lists, counts, items;
  };
  std::vector<Line> lines;
  for (const auto& row : rows) {
    const std::string items = (row.accepts.empty() ? "" : row.accepts + ":<br>") + item_lines(row.items);
    std::string lists, counts;
    for (std::size_t i = 0; i < row.lists.size(); ++i) {
      lists += (i ? "<br>" : "") + code(row.lists[i]);
      counts += (i ? ", " : "") + row.counts[i];
    }
    auto same = std::find_if(lines.begin(), lines.end(), [&](const Line& l) { return l.items == items; });
    if (same == lines.end()) {
      lines.push_back({lists, counts, items});
    } else {
      same->lists += "<br>" + lists;
      same->counts += ", " + counts;
    }
  }
  if (lines.empty()) return;
  md << "### Lists\n\n"
     << "Lists of cards and tables: one row per kind of list, with the keys of each item (paths relative "
     << "to the item; *items* counts those of the shipped config).\n\n"
     << "| list | items | keys of each item |\n| --- | ---: | --- |\n";
  for (const auto& line : lines)
    md << "| " << line.lists << " | " << line.counts << " | " << markdown_cell(line.items) << " |\n";
  md << "\n";
}

}  // namespace

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::vector<ConfigKey> game_config_keys(const std::string& game_id) {
  const GameEntry& entry = Registry::instance().find(game_id);
  ConfigKeyRecording recording;
  entry.load(
      ConfigNode::parse(builtin_game_config(game_id), "<built-in configs/games/" + game_id + ".yaml>"));
  return tidied(recording.keys());
}

std::string game_config_keys_markdown(const std::string& game_id) {
  const auto keys = game_config_keys(game_id);
  std::ostringstream md;
  md << "Every key the game's config loader reads, as the loader checks it: its range, and its default "
     << "(the value taken when a config file leaves the key out; *required*: it must be given). *Shipped* is "
     << "its value in `configs/games/" << game_id << ".yaml`, also built into the binary. The table is "
     << "recorded from the loader's own checks while it reads the shipped config, so a value out of range, "
        "an "
     << "unknown key or a missing required one is an error naming the file, line and key. Override a key "
     << "with `--set key=value` (CLI) or `config={...}` (Python).\n\n";
  write_keys(keys, md);
  write_lists(keys, md);
  return md.str();
}

}  // namespace rocketgym
