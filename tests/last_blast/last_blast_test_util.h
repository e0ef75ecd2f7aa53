// Helpers for The Last Blast tests: configs and hand-written positions.
#pragma once

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast::test {

inline const Config& standard_config() {
  static const Config config =
      load_config(ConfigNode::parse(builtin_game_config("last_blast"), "configs/games/last_blast.yaml"));
  return config;
}

inline const Config& alternate_config() {
  static const Config config =
      load_config(ConfigNode::parse(builtin_game_config("last_blast"), "configs/games/last_blast.yaml")
                      .merged(ConfigNode::parse("variants: {exploded_block_row: true}", "override")));
  return config;
}

inline int card(const std::string& name) {
  const int c = standard_config().card_id(name);
  if (c < 0) throw Error("test: unknown card " + name);
  return c;
}

inline Action pick(const std::string& name, End end) { return kPickBase + 2 * card(name) + end; }
inline Action move_to_row(int row) { return kMoveBase + row; }

// A field written as one string of 7 letters per row (column 1 first):
// D drop, H hammers, C circles, B bricks, W wheel, A arrow.
inline std::string symbol_of_letter(char letter) {
  switch (letter) {
    case 'D':
      return "drop";
    case 'H':
      return "hammers";
    case 'C':
      return "circles";
    case 'B':
      return "bricks";
    case 'W':
      return "wheel";
    case 'A':
      return "arrow";
  }
  throw Error(std::string("test: bad tile letter ") + letter);
}

// Sets "field" and the matching "set_aside_tiles" (the rest of the supply).
inline void put_field(Json& doc, const std::vector<std::string>& rows) {
  const Config& config = standard_config();
  std::array<int, kNumSymbols> left = config.tiles_per_symbol;
  Json field = Json::array();
  for (const auto& row : rows) {
    Json tiles = Json::array();
    for (char letter : row) {
      const std::string symbol = symbol_of_letter(letter);
      --left[config.symbol_id(symbol)];
      tiles.push_back(symbol);
    }
    field.push_back(tiles);
  }
  Json aside = Json::array();
  for (int s = 0; s < kNumSymbols; ++s)
    for (int k = 0; k < left[s]; ++k) aside.push_back(config.symbol_names[s]);
  doc["field"] = field;
  doc["set_aside_tiles"] = aside;
}

// Cards not named in `used`, amber science first (they change no damage), to
// pad rockets with.
inline std::vector<std::string> unused_cards(const std::set<std::string>& used) {
  std::vector<std::string> out;
  const Config& config = standard_config();
  for (int pass = 0; pass < 2; ++pass)
    for (int c = config.num_cards() - 1; c >= 0; --c) {
      const bool amber = config.cards[c].colour == Colour::kAmber;
      if ((pass == 0) == amber && !used.count(config.card_names[c])) out.push_back(config.card_names[c]);
    }
  return out;
}

// A position in the flight. Rockets are listed front first and padded at the
// back with unused cards up to `sizes` (0: as listed).
struct FlightSetup {
  FlightSetup() = default;
  FlightSetup(std::vector<std::string> field_rows, std::vector<std::vector<std::string>> rocket_cards,
              std::vector<int> rocket_sizes = {}, std::vector<std::array<int, 2>> cube_places = {},
              std::vector<std::string> statuses = {}, std::vector<bool> moved_flags = {})
      : field(std::move(field_rows)),
        rockets(std::move(rocket_cards)),
        sizes(std::move(rocket_sizes)),
        cubes(std::move(cube_places)),
        status(std::move(statuses)),
        moved(std::move(moved_flags)) {}

  std::vector<std::string> field;
  std::vector<std::vector<std::string>> rockets;
  std::vector<int> sizes;
  std::vector<std::array<int, 2>> cubes;  // {row, column}; {-1, -1}: not on the field
  std::vector<std::string> status;        // default "flying"
  std::vector<bool> moved;                // default false
  int round = 0;
  int start_player = 0;
  int mover = 0;
  std::string phase = "flight";

  Json document() const {
    const int n = static_cast<int>(rockets.size());
    std::set<std::string> used;
    for (const auto& r : rockets) used.insert(r.begin(), r.end());
    std::vector<std::string> spare = unused_cards(used);
    Json doc;
    doc["players"] = n;
    doc["phase"] = phase;
    doc["rng"] = {1, 2, 3, 4};
    put_field(doc, field);
    Json rockets_json = Json::array(), players = Json::array(), empty = Json::array(), nulls = Json::array();
    for (int p = 0; p < n; ++p) {
      std::vector<std::string> r = rockets[p];
      const int size = p < static_cast<int>(sizes.size()) ? sizes[p] : 0;
      while (static_cast<int>(r.size()) < size) {
        r.push_back(spare.front());
        spare.erase(spare.begin());
      }
      rockets_json.push_back(r);
      const auto cube = p < static_cast<int>(cubes.size()) ? cubes[p] : std::array<int, 2>{-1, -1};
      players.push_back(
          {{"status", p < static_cast<int>(status.size()) ? status[p] : "flying"},
           {"row", cube[0]},
           {"column", cube[1]},
           {"moved", p < static_cast<int>(moved.size()) ? static_cast<bool>(moved[p]) : false}});
      empty.push_back(Json::array());
      nulls.push_back(nullptr);
    }
    // After the draft the deck keeps the cards no rocket took; the other
    // spare cards were lost from the rockets.
    const std::size_t undrafted = static_cast<std::size_t>(standard_config().num_cards() - n * kRocketLength);
    doc["deck"] = std::vector<std::string>(spare.begin(), spare.begin() + std::min(undrafted, spare.size()));
    doc["lost"] = std::vector<std::string>(spare.begin() + std::min(undrafted, spare.size()), spare.end());
    doc["discard"] = Json::array();
    doc["draft"] = {{"hand", 2}, {"pick", 0}, {"picker", 0}, {"hands", empty}, {"picks", nulls}};
    doc["rockets"] = rockets_json;
    doc["flight"] = {{"round", round},   {"start_player", start_player}, {"mover", mover},
                     {"damage_left", 0}, {"removed_this_turn", 0},       {"players", players}};
    return doc;
  }

  State build(const Config& config = standard_config()) const { return State::from_json(document(), config); }
};

// Plays legal actions chosen by `choose` until `done` holds.
template <class Choose, class Done>
void play_until(State& s, Choose choose, Done done) {
  for (int guard = 0; guard < 1000 && !done(s); ++guard) s.apply(choose(s));
}

// The first legal action (deterministic, never the blind draw unless forced).
inline Action first_legal(const State& s) {
  for (Action a = 0; a < kNumActions; ++a)
    if (a != kDrawBlind && s.is_legal(a)) return a;
  return kDrawBlind;
}

}  // namespace rocketgym::last_blast::test
