// Test helpers: hand-written Launch Pad positions.
//
// position(config, players, patch) takes a partial state document (JSON text,
// see State::to_json) and completes it: missing fields take blank values
// (turn of seat 0, step "play", empty hands and zones), rockets without
// "metal"/"fuel" are complete, and every card not placed anywhere goes to the
// draw pile: Launch Pad cards at the bottom, the list "draw_top" on top (its
// first card is drawn first), the rest in card-type order between.
#pragma once

#include <string>

#include "envs/core/game.h"
#include "envs/launch_pad/launch_pad.h"

namespace launch_pad_test {

using namespace rocketgym;
using namespace rocketgym::launch_pad;

inline Config load(const std::string& overrides = "") {
  ConfigNode root = ConfigNode::parse(builtin_game_config("launch_pad"), "launch_pad.yaml");
  if (!overrides.empty()) root = root.merged(ConfigNode::parse(overrides, "<test overrides>"));
  return load_config(root);
}

inline const Config& standard() {
  static const Config config = load();
  return config;
}

inline Json blank_document(int players) {
  Json doc =
      Json::parse(R"({"game": "launch_pad", "turn": 0, "step": "play", "draw_pile": [], "discard_pile": [],
    "launch_pad_area": 0, "launch_pads_aside": 0, "launch_pad_region": 0, "countdown": false,
    "final_turns_left": 0, "redraw_used": false, "advance_eligible": [], "advanced_from": [0, 0],
    "surplus_offset": 0, "offer": null, "staged": {}, "discard_order": [], "decisions": 0,
    "truncated": false,
    "rng": [1, 2, 3, 4]})");
  doc["players"] = players;
  doc["hands"] = Json::array();
  doc["zones"] = Json::array();
  for (int p = 0; p < players; ++p) {
    doc["hands"].push_back(Json::object());
    doc["zones"].push_back(Json::object());
  }
  return doc;
}

inline Json complete_document(const Config& config, int players, const std::string& patch_text) {
  Json doc = blank_document(players);
  Json patch = Json::parse(patch_text);
  Json draw_top = patch.contains("draw_top") ? patch["draw_top"] : Json::array();
  patch.erase("draw_top");
  doc.merge_patch(patch);
  while (doc["hands"].size() < static_cast<std::size_t>(players)) doc["hands"].push_back(Json::object());
  while (doc["zones"].size() < static_cast<std::size_t>(players)) doc["zones"].push_back(Json::object());
  std::array<int, kNumCardTypes> used{};
  auto use = [&](const Json& name, int n = 1) {
    used[static_cast<std::size_t>(card_from_key(name.get<std::string>()))] += n;
  };
  for (auto& hand : doc["hands"])
    for (auto it = hand.begin(); it != hand.end(); ++it) use(Json(it.key()), it.value().get<int>());
  for (auto& z : doc["zones"]) {
    if (!z.contains("experts")) z["experts"] = Json::object();
    if (!z.contains("launch_pads")) z["launch_pads"] = {0, 0, 0};
    if (!z.contains("specialties")) z["specialties"] = Json::array();
    if (!z.contains("rockets")) z["rockets"] = Json::array();
    for (auto it = z["experts"].begin(); it != z["experts"].end(); ++it) use(it.value());
    for (const auto& c : z["specialties"]) use(c);
    for (int n : z["launch_pads"]) used[kLaunchPad] += n;
    for (auto& r : z["rockets"]) {
      const int kind = card_from_key(r["kind"].get<std::string>());
      if (!r.contains("zone")) r["zone"] = "construction";
      if (!r.contains("metal")) r["metal"] = config.rocket[static_cast<std::size_t>(kind)].metal;
      if (!r.contains("fuel")) r["fuel"] = config.rocket[static_cast<std::size_t>(kind)].fuel;
      if (!r.contains("bonuses")) r["bonuses"] = Json::array();
      used[static_cast<std::size_t>(kind)] += 1;
      used[kMetal] += r["metal"].get<int>();
      used[kFuel] += r["fuel"].get<int>();
      for (const auto& b : r["bonuses"]) use(b);
    }
  }
  for (const auto& c : doc["discard_pile"]) use(c);
  for (const auto& c : draw_top) use(c);
  for (auto it = doc["staged"].begin(); it != doc["staged"].end(); ++it)
    use(Json(it.key()), it.value().get<int>());
  for (const auto& c : doc["discard_order"]) use(c);
  if (!doc["offer"].is_null()) use(doc["offer"]["card"]);
  used[kLaunchPad] += doc["launch_pad_area"].get<int>() + doc["launch_pads_aside"].get<int>();
  Json pile = Json::array();
  const int pads = config.count[kLaunchPad] - used[kLaunchPad];
  for (int k = 0; k < pads; ++k) pile.push_back("launch_pad");
  for (int t = 0; t < kNumCardTypes; ++t)
    if (t != kLaunchPad)
      for (int k = used[static_cast<std::size_t>(t)]; k < config.count[static_cast<std::size_t>(t)]; ++k)
        pile.push_back(card_key(t));
  for (auto it = draw_top.rbegin(); it != draw_top.rend(); ++it) pile.push_back(*it);
  doc["draw_pile"] = pile;
  int region = 0;  // just above the highest Launch Pad card
  for (std::size_t i = 0; i < pile.size(); ++i)
    if (pile[i] == "launch_pad") region = static_cast<int>(i) + 1;
  if (!patch.contains("launch_pad_region")) doc["launch_pad_region"] = region;
  return doc;
}

inline State position(const Config& config, int players, const std::string& patch_text) {
  return State::from_json(complete_document(config, players, patch_text), config);
}

inline State position(int players, const std::string& patch_text) {
  return position(standard(), players, patch_text);
}

inline int hand(const State& s, int seat, int card) {
  return s.area(seat).hand[static_cast<std::size_t>(card)];
}
inline const Rocket& rocket_at(const State& s, int seat, int slot) {
  return s.area(seat).rockets[static_cast<std::size_t>(slot)];
}

}  // namespace launch_pad_test
