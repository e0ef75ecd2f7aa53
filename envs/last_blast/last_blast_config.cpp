// Loading configs/games/last_blast.yaml: symbols, tiles, cards, variants.
#include <set>

#include "envs/core/config_record.h"
#include "envs/core/quoted.h"
#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {

const char* colour_word(Colour c) {
  switch (c) {
    case Colour::kRed:
      return "red";
    case Colour::kGreen:
      return "green";
    default:
      return "amber";
  }
}

namespace {

const char* colour_role(Colour c) {
  switch (c) {
    case Colour::kRed:
      return "Jump Boost";
    case Colour::kGreen:
      return "Shield";
    default:
      return "Science";
  }
}

// A key that must be present, with an integer value in [min, max].
int required_int(const ConfigNode& node, const std::string& key, int min, int max) {
  declare_config_key(node, key, "", "", "required");  // for the docs: get_int's fallback is never taken
  if (!node.has(key)) node.fail_key(key, "missing required entry");
  return node.get_int(key, 0, min, max);
}

void load_symbols(const ConfigNode& root, Config& config) {
  declare_config_key(root, "symbols", "", "exactly " + std::to_string(kNumSymbols) + ", names unique", "");
  const auto items = root.child("symbols").items();
  if (static_cast<int>(items.size()) != kNumSymbols)
    root.fail_key("symbols", "expected exactly " + std::to_string(kNumSymbols) + " symbols");
  for (std::size_t i = 0; i < items.size(); ++i) {
    items[i].expect_keys({"name", "value"});
    const std::string name = items[i].get_string("name");
    if (name.find_first_not_of(" \t") == std::string::npos)
      items[i].fail_key("name", "a symbol needs a name (tiles and cards name it)");
    if (config.symbol_id(name) >= 0) items[i].fail_key("name", "symbol " + quote(name) + " listed twice");
    config.symbol_names.push_back(name);
    config.symbol_value[i] = required_int(items[i], "value", 0, 99);
  }
}

// A name that is no symbol of `symbols`, said with the names there are: a
// symbol renamed in `symbols` alone shows up here, in tiles or cards.
std::string not_a_symbol(const Config& config, const std::string& name) {
  std::string names;
  for (const std::string& n : config.symbol_names) names += (names.empty() ? "" : ", ") + quote(n);
  return quote(name) + " is not a symbol of `symbols` (" + names +
         "): a symbol renamed in `symbols` is renamed in `tiles` and `cards` too";
}

void load_tiles(const ConfigNode& root, Config& config) {
  const ConfigNode tiles = root.child("tiles");
  if (tiles.is_map())
    for (const std::string& key : tiles.keys())
      if (config.symbol_id(key) < 0) tiles.fail_key(key, not_a_symbol(config, key));
  tiles.expect_keys(config.symbol_names);
  for (int s = 0; s < kNumSymbols; ++s) {
    config.tiles_per_symbol[s] = tiles.get_int(config.symbol_names[s], 0, 0, kMaxTiles);
    config.num_tiles += config.tiles_per_symbol[s];
  }
  // The biggest field (4 players) is 5 x 7 tiles.
  if (config.num_tiles < kMaxRows * kColumns || config.num_tiles > kMaxTiles)
    root.fail_key("tiles", "the tiles must number between " + std::to_string(kMaxRows * kColumns) + " and " +
                               std::to_string(kMaxTiles) + ", not " + std::to_string(config.num_tiles));
}

void load_cards(const ConfigNode& root, Config& config) {
  const auto items = root.child("cards").items();
  // Every rocket gets 12 cards, so four players need at least 48 (then the
  // third hand is dealt 4 cards each, see State::deal_hand).
  const int min_cards = kMaxPlayers * kRocketLength;
  declare_config_key(root, "cards", "",
                     std::to_string(min_cards) + " to " + std::to_string(kMaxCards) + " cards, each once",
                     "");
  if (static_cast<int>(items.size()) < min_cards || static_cast<int>(items.size()) > kMaxCards)
    root.fail_key("cards", "expected between " + std::to_string(min_cards) + " and " +
                               std::to_string(kMaxCards) + " cards, not " + std::to_string(items.size()));
  for (const auto& item : items) {
    item.expect_keys({"colour", "number", "symbol"});
    Card card;
    const std::string colour = item.get_choice("colour", "", {"red", "green", "amber"});
    card.colour = colour == "red" ? Colour::kRed : colour == "green" ? Colour::kGreen : Colour::kAmber;
    card.number = required_int(item, "number", 0, 9);
    declare_config_key(item, "symbol", "one of", "the names of `symbols`", "required");
    card.symbol = config.symbol_id(item.get_string("symbol"));
    if (card.symbol < 0) item.fail_key("symbol", not_a_symbol(config, item.get_string("symbol")));
    std::string name = std::string(colour_word(card.colour)) + " " + std::to_string(card.number) + " " +
                       config.symbol_names[card.symbol];
    if (config.card_id(name) >= 0) item.fail("card " + quote(name) + " listed twice");
    config.cards.push_back(card);
    config.card_names.push_back(std::move(name));
  }
}

}  // namespace

int Config::card_id(const std::string& name) const {
  for (std::size_t i = 0; i < card_names.size(); ++i)
    if (card_names[i] == name) return static_cast<int>(i);
  return -1;
}

int Config::symbol_id(const std::string& name) const {
  for (std::size_t i = 0; i < symbol_names.size(); ++i)
    if (symbol_names[i] == name) return static_cast<int>(i);
  return -1;
}

std::string Config::describe_card(int c) const {
  const Card& card = cards[static_cast<std::size_t>(c)];
  return std::string(colour_word(card.colour)) + " " + colour_role(card.colour) + " " +
         std::to_string(card.number) + " (" + symbol_names[static_cast<std::size_t>(card.symbol)] + ")";
}

Config load_config(const ConfigNode& root) {
  root.expect_keys({"reward", "symbols", "tiles", "cards", "variants"});
  Config config;
  config.reward = parse_reward_mode(root);
  load_symbols(root, config);
  load_tiles(root, config);
  load_cards(root, config);
  const ConfigNode variants = root.child_or_empty("variants");
  variants.expect_keys({"exploded_block_row"});
  config.exploded_block_row = variants.get_bool("exploded_block_row", false);
  return config;
}

}  // namespace rocketgym::last_blast
