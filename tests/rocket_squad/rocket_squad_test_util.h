// Helpers for the Rocket Squad rule tests: the default config, hand-written positions and
// action ids in the rulebook's words.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "games/rocket_squad/rocket_squad_game.h"

namespace rs_test {

using namespace rocketgym;
using namespace rocketgym::rocket_squad;

constexpr int BLUE = 0, GREEN = 1, YELLOW = 2, RED = 3, WILD = 4;
constexpr int CLOCKWISE = 0, COUNTER_CLOCKWISE = 1;

inline const Config& default_config() {
  static const Config config =
      load_config(ConfigNode::parse(builtin_game_config("rocket_squad"), "configs/games/rocket_squad.yaml"));
  return config;
}

inline CardType card(const std::string& name) {
  CardType t = kNoCard;
  REQUIRE(card_from_name(name, t));
  return t;
}

// A position written by hand. Fields left out take their defaults (see State::from_json);
// "draw_top" lists the top cards of the draw pile, top first; every card of the deck not named
// anywhere goes below them. A rocket's "boxes" may be a number: filler cards are used.
inline State position(const std::string& text, const Config& config = default_config()) {
  Json doc = Json::parse(text);
  const int n = doc.value("players", 2);
  doc["players"] = n;
  if (!doc.contains("turn_player")) doc["turn_player"] = 0;
  if (!doc.contains("first_turn_done"))
    doc["first_turn_done"] = std::vector<bool>(static_cast<std::size_t>(n), true);
  if (!doc.contains("turn")) {
    // The turn number that goes with the turn player and the seats done with their first turn
    // (turns go clockwise from seat 0): the first round, or the second.
    int done = 0;
    for (const Json& flag : doc["first_turn_done"]) done += flag.get<bool>();
    doc["turn"] = doc["turn_player"].get<int>() + 1 + (done == n ? n : 0);
  }
  if (!doc.contains("discard_pile")) doc["discard_pile"] = Json::array();
  if (!doc.contains("hands")) {
    doc["hands"] = Json::array();
    for (int p = 0; p < n; ++p) doc["hands"].push_back({{"cards", Json::array()}});
  }
  if (!doc.contains("rockets")) {
    doc["rockets"] = Json::array();
    for (int p = 0; p < n; ++p) doc["rockets"].push_back(Json::object());
  }
  std::array<int, kNumCardTypes> left{};
  for (int t = 0; t < kNumCardTypes; ++t) left[t] = config.deck[t];
  const auto use = [&](const Json& name) { --left[card(name.get<std::string>())]; };
  for (const Json& h : doc["hands"])
    for (const Json& c : h["cards"]) use(c);
  for (const Json& c : doc["discard_pile"]) use(c);
  const Json top = doc.value("draw_top", Json::array());
  for (const Json& c : top) use(c);
  if (doc.contains("chain")) use(doc["chain"]["card"]);
  if (doc.contains("ace"))
    for (const Json& c : doc["ace"]["boxes"]) use(c);
  if (doc.contains("jackie"))
    for (const Json& c : doc["jackie"]) use(c);
  for (Json& area : doc["rockets"])
    for (auto& item : area.items()) {
      Json& r = item.value();
      if (r.contains("booster")) use(r["booster"]);
      if (r.value("joker", false)) --left[kJoker];
      if (r.value("friend", false)) --left[kImaginaryFriend];
      if (r.value("crew", false)) --left[kCrew];
      if (r.contains("boxes") && r["boxes"].is_array())
        for (const Json& c : r["boxes"]) use(c);
    }
  for (Json& area : doc["rockets"])
    for (auto& item : area.items()) {
      Json& r = item.value();
      if (!r.contains("boxes") || !r["boxes"].is_number()) continue;
      Json boxes = Json::array();
      for (int k = r["boxes"].get<int>(); k > 0; --k)
        for (int t = kNumCardTypes - 1; t >= 0; --t)
          if (left[t] > 0) {
            --left[t];
            boxes.push_back(card_name(static_cast<CardType>(t)));
            break;
          }
      r["boxes"] = boxes;
    }
  Json pile = Json::array();
  for (int t = 0; t < kNumCardTypes; ++t) {
    REQUIRE(left[t] >= 0);
    for (int k = 0; k < left[t]; ++k) pile.push_back(card_name(static_cast<CardType>(t)));
  }
  for (auto it = top.rbegin(); it != top.rend(); ++it) pile.push_back(*it);
  doc["draw_pile"] = pile;
  doc.erase("draw_top");
  return State::from_json(doc, config);
}

// For a document whose draw pile was edited by hand: drop the deck bookkeeping, so that it
// takes its default (the draw pile is the whole current deck).
inline void reset_deck(Json& doc) {
  doc.erase("draw_from_deck");
  doc.erase("deck");
  doc.erase("jackie_from_deck");
  for (Json& h : doc["hands"]) h.erase("from_deck");
  for (Json& area : doc["rockets"])
    for (auto& item : area.items()) item.value().erase("boxes_from_deck");
  if (doc.contains("ace") && doc["ace"].is_object()) doc["ace"].erase("boxes_from_deck");
}

inline std::vector<Action> legal(const State& s) {
  std::vector<uint8_t> mask(action::kNumActions);
  s.legal_actions_mask(mask.data());
  std::vector<Action> out;
  for (int a = 0; a < action::kNumActions; ++a)
    if (mask[static_cast<std::size_t>(a)]) out.push_back(a);
  return out;
}

// Action ids.
inline Action place(int colour, int value, int location) {
  return action::kPlaceBooster + (colour * kMaxValue + value - 1) * kNumLocations + location;
}
inline Action build(const std::string& c, int location) {
  return action::kBuildBox + card(c) * kNumLocations + location;
}
inline Action knock_over(int location) { return action::kKnockOver + location; }
inline Action dad(int offset, int target_location, int own_location) {
  return action::kPlayDad + (offset - 1) * 16 + target_location * 4 + own_location;
}
inline Action jack(int offset) { return action::kPlayJack + offset - 1; }
inline Action uncle(int from, int to, int count) {
  return action::kPlayUncle + from * 48 + to * kMaxValue + count - 1;
}
inline Action joker(int offset, int location) { return action::kPlayJoker + (offset - 1) * 4 + location; }
inline Action ace(int offset, int location, int direction) {
  return action::kAceDog + (offset - 1) * 8 + location * 2 + direction;
}
inline Action ace_scare(int location) { return action::kAceScare + location; }
inline Action imaginary_friend(int location) { return action::kPlayFriend + location; }
inline Action duct_tape(int location) { return action::kPlayDuctTape + location; }
// Water Balloons: the location named at the opponents at offsets 1, 2, 3 (-1: none).
inline Action balloons(int at1, int at2 = -1, int at3 = -1) {
  const auto d = [](int x) { return x < 0 ? action::kNoTarget : x; };
  return action::kPlayBalloons + d(at1) + 5 * d(at2) + 25 * d(at3);
}
inline Action balloons_scare(int location) { return action::kBalloonsScare + location; }
inline Action jackie_keep(int kept, int order = 0) { return action::kJackieKeep + kept * 2 + order; }
inline Action ace_build(int location) { return action::kAceBuild + location; }

// The full booster area of a player as JSON, all four locations with boosters.
inline std::string area(const std::string& blue, const std::string& green, const std::string& yellow,
                        const std::string& red) {
  return "{\"blue\":" + blue + ",\"green\":" + green + ",\"yellow\":" + yellow + ",\"red\":" + red + "}";
}

inline int discard_count(const State& s, CardType t) {
  int n = 0;
  for (int i = 0; i < s.discard_pile().count; ++i) n += s.discard_pile().cards[i] == t;
  return n;
}

}  // namespace rs_test
