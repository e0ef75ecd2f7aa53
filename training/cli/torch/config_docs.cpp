#include "training/cli/torch/config_docs.h"

#include <utility>

#include "envs/core/quoted.h"
#include "training/alphazero/train_config.h"
#include "training/arena/arena_run.h"
#include "training/mcts/search_options.h"
#include "training/ppo/train_config.h"

namespace rocketgym {

namespace {

// A titled group of keys: a config block ("ppo"), or the whole of the
// search's keys (no title).
struct KeyGroup {
  std::string block;
  std::vector<KeyDoc> keys;
};

template <class C>
std::vector<KeyGroup> schema_groups(const ConfigSchema<C>& schema) {
  std::vector<KeyGroup> out;
  for (const auto& b : schema.blocks()) out.push_back({b.name, b.keys.docs()});
  return out;
}

std::vector<KeyGroup> groups_of(const std::string& which) {
  if (which == "ppo") return schema_groups(ppo::TrainConfig::schema());
  if (which == "alphazero") return schema_groups(alphazero::TrainConfig::schema());
  if (which == "search") return {{"", mcts::search_keys().docs()}};
  if (which == "arena") return {{"", arena::ArenaConfig::keys().docs()}};
  std::string known;
  for (const auto& name : config_key_tables()) known += (known.empty() ? "" : ", ") + name;
  throw Error("--config-keys: no config named " + quote(which) + " (known: " + known + ")");
}

std::string cell(const std::string& text) {
  std::string out;
  for (char ch : text) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

std::string table(const std::vector<KeyDoc>& keys) {
  bool applies = false;
  for (const auto& k : keys) applies = applies || !k.applies.empty();
  std::string out =
      applies
          ? "| key | type | range | default | applies to | meaning |\n| --- | --- | --- | --- | --- | --- |\n"
          : "| key | type | range | default | meaning |\n| --- | --- | --- | --- | --- |\n";
  for (const auto& k : keys) {
    out += "| `" + k.name + "` | " + cell(k.type) + " | " + cell(k.range) + " | " +
           (k.default_value.empty() ? std::string("") : "`" + cell(k.default_value) + "`") + " | ";
    if (applies) out += cell(k.applies.empty() ? "any" : k.applies) + " | ";
    out += cell(k.doc) + " |\n";
  }
  return out;
}

}  // namespace

const std::vector<std::string>& config_key_tables() {
  static const std::vector<std::string> names{"ppo", "alphazero", "search", "arena"};
  return names;
}

std::string config_keys_markdown(const std::string& which) {
  std::string out;
  for (const KeyGroup& g : groups_of(which)) {
    if (!g.block.empty()) out += (out.empty() ? "" : "\n") + std::string("#### `") + g.block + ":`\n\n";
    out += table(g.keys);
  }
  return out;
}

Json config_keys_json(const std::string& which) {
  Json doc = Json::array();
  for (const KeyGroup& g : groups_of(which))
    for (const auto& k : g.keys)
      doc.push_back({{"key", g.block.empty() ? k.name : g.block + "." + k.name},
                     {"type", k.type},
                     {"range", k.range},
                     {"default", k.default_value},
                     {"applies", k.applies},
                     {"doc", k.doc}});
  return doc;
}

}  // namespace rocketgym
