// Helpers for the Lift Off rule tests: hand-written positions built by
// editing a fresh state's JSON document (so every card stays conserved) and
// loading it back with State::from_json. Loading accepts only complete
// positions, so state() first lays out the specialists the way the round
// stands (hand, played, deck and discard counts), keeping the cards a test
// placed, fills up objective discards, and leaves out the knowledge (the
// loader then gives each seat what its own cards and the table tell it).
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "games/lift_off/lift_off_game.h"

namespace lift_off_test {

using namespace rocketgym;
using namespace rocketgym::lift_off;
namespace A = rocketgym::lift_off::actions;

inline const Config& cfg() {
  static const Config config =
      load_config(ConfigNode::parse(builtin_game_config("lift_off"), "lift_off.yaml"));
  return config;
}

inline int spec(const std::string& id) { return cfg().specialist_index(id); }
inline int mis(const std::string& id) { return cfg().mission_index(id); }
inline int obj(const std::string& id) { return cfg().objective_index(id); }

// Removes one `id` from a JSON list; true if found.
inline bool take(Json& list, const std::string& id) {
  for (auto it = list.begin(); it != list.end(); ++it)
    if (*it == id) {
      list.erase(it);
      return true;
    }
  return false;
}

struct Position {
  Json d;
  explicit Position(int players, uint64_t seed = 1) : d(State(cfg(), players, seed).to_json()) {}

  Json& seat(int s) { return d["seats"][static_cast<std::size_t>(s)]; }

  // Moves one copy of mission `id` from the decks or discards to seat `s`'s "earth" or "space".
  Position& mission(int s, const std::string& id, const char* where) {
    const std::size_t level =
        static_cast<std::size_t>(cfg().missions[static_cast<std::size_t>(mis(id))].level - 1);
    const bool found = take(d["mission_decks"][level], id) || take(d["mission_discards"][level], id);
    REQUIRE(found);
    seat(s)[where].push_back(id);
    return *this;
  }
  // Moves specialist `id` from wherever it is to seat `s`'s "hand" or "played".
  Position& specialist(int s, const std::string& id, const char* where) {
    bool found = take(d["specialist_deck"], id) || take(d["specialist_discard"], id);
    for (auto& st : d["seats"]) found = found || take(st["hand"], id) || take(st["played"], id);
    REQUIRE(found);
    seat(s)[where].push_back(id);
    placed.erase(std::remove(placed.begin(), placed.end(), id), placed.end());
    placed.push_back(id);
    return *this;
  }
  // Gives seat `s` exactly these objectives; cards displaced go back to the box.
  Position& objectives(int s, const std::vector<std::string>& ids) {
    for (const auto& id : ids) {
      bool found = take(d["objective_box"], id);
      for (auto& st : d["seats"])
        found = found || take(st["objectives"], id) || take(st["discarded_objectives"], id);
      REQUIRE(found);
    }
    for (const auto& old : seat(s)["objectives"]) d["objective_box"].push_back(old);
    seat(s)["objectives"] = ids;
    return *this;
  }
  Position& discard_objective(int s, const std::string& id) {
    bool found = take(d["objective_box"], id);
    for (auto& st : d["seats"]) found = found || take(st["objectives"], id);
    REQUIRE(found);
    seat(s)["discarded_objectives"].push_back(id);
    return *this;
  }
  // Puts these missions on top of their deck, the first listed drawn first.
  Position& stack(int level, const std::vector<std::string>& top) {
    Json& deck = d["mission_decks"][static_cast<std::size_t>(level - 1)];
    for (const auto& id : top) REQUIRE(take(deck, id));
    for (auto it = top.rbegin(); it != top.rend(); ++it) deck.push_back(*it);
    return *this;
  }
  Position& empty_specialist_deck() {
    for (const auto& card : d["specialist_deck"]) d["specialist_discard"].push_back(card);
    d["specialist_deck"] = Json::array();
    return *this;
  }
  // The step, the seat to act and its turn in the step's order (the start
  // player follows), with the play pass the step has.
  Position& at(const std::string& step, int actor, int round = 1, int turn = 0) {
    const int n = d["players"];
    d["step"] = step;
    d["actor"] = actor;
    d["round"] = round;
    d["phase"] = round <= 4 ? 1 : 2;
    d["turn"] = step == "game_over" ? n : turn;
    if (actor >= 0) d["start_player"] = ((actor - turn) % n + n) % n;
    const bool draft = step == "choose_direction" || step == "specialist_keep" || step == "specialist_pass";
    d["play_pass"] =
        step == "objective_keep" || step == "objective_pass" || (draft && round == 1) || playing(step) ? 0
                                                                                                       : 2;
    for (auto& st : d["seats"]) st["money"] = std::max(st["money"].get<int>(), 0);
    return *this;
  }
  Position& set(int s, const char* key, int value) {
    seat(s)[key] = value;
    return *this;
  }
  Position& tech(int s, int red, int yellow, int blue, int green) {
    seat(s)["tech"] = {{"red", red}, {"yellow", yellow}, {"blue", blue}, {"green", green}};
    return *this;
  }
  // Gives `seat` a mission to launch so the launch step waits for them.
  Position& can_launch(int seat, const char* id = "M1-05") {
    mission(seat, id, "earth").tech(seat, 1, 0, 0, 0);
    return set(seat, "money", 10);
  }
  State state() const { return State::from_json(complete(), cfg()); }

  // The document as state() loads it (see the top of this file).
  Json complete() const {
    Json doc = d;
    lay_out_specialists(doc);
    for (auto& st : doc["seats"]) {
      // Objectives a test took away count as discarded (only possible from phase 2 on).
      while (st["objectives"].size() + st["discarded_objectives"].size() < 3 &&
             !doc["objective_box"].empty()) {
        st["discarded_objectives"].push_back(doc["objective_box"].back());
        doc["objective_box"].erase(doc["objective_box"].size() - 1);
      }
      st.erase("knowledge");
    }
    return doc;
  }

  static bool playing(const std::string& step) {
    return step == "play_specialist" || step == "specialist_actions" || step == "bulk_buy" ||
           step == "exchange_give" || step == "exchange_take" || step == "station_reward";
  }

 private:
  std::vector<std::string> placed;  // specialists a test put into a hand or the played cards

  // Deals the specialists out the way the round stands, keeping the placed
  // ones; played fillers have a money or VP banner, so no launch changes.
  void lay_out_specialists(Json& doc) const {
    const int n = doc["players"];
    const std::string step = doc["step"];
    const int round = doc["round"], turn = doc["turn"], start = doc["start_player"], pass = doc["play_pass"];
    const int dir = doc["direction"] == "left" ? 1 : -1;
    std::vector<std::string> fillers;
    auto collect = [&](Json& list) {
      for (const auto& id : list)
        if (std::find(placed.begin(), placed.end(), id.get<std::string>()) == placed.end())
          fillers.push_back(id);
      Json kept = Json::array();
      for (const auto& id : list)
        if (std::find(placed.begin(), placed.end(), id.get<std::string>()) != placed.end())
          kept.push_back(id);
      list = kept;
    };
    collect(doc["specialist_deck"]);
    collect(doc["specialist_discard"]);
    for (auto& st : doc["seats"]) collect(st["hand"]), collect(st["played"]);
    const int total = static_cast<int>(fillers.size() + placed.size());
    std::stable_partition(fillers.begin(), fillers.end(), [](const std::string& id) {
      const Banner b = cfg().specialists[static_cast<std::size_t>(spec(id))].banner;
      return b == Banner::kMoney3 || b == Banner::kVp5;
    });
    const bool objective_draft = step == "objective_keep" || step == "objective_pass";
    const bool between = step == "discard_objectives" || step == "game_over";
    const bool drafting =
        step == "choose_direction" || step == "specialist_keep" || step == "specialist_pass";
    const int in_phase = (round - 1) % 4 + 1;
    const int carried = objective_draft ? 0 : between ? 1 : 3;
    const int deck = objective_draft ? total
                     : between       ? (step == "game_over" ? 0 : total - n)
                     : round <= 4    ? total - 3 * n - 2 * n * (in_phase - 1)
                                     : total - n - 2 * n * in_phase;
    for (int w = 0; w < n; ++w) {
      int played = 0;
      if (playing(step)) {
        const int k = (((w - start) * dir) % n + n) % n;
        played = pass + (k < turn || (step != "play_specialist" && k == turn) ? 1 : 0);
      } else if (!objective_draft && !between && !drafting) {
        played = 2;
      }
      Json& st = doc["seats"][static_cast<std::size_t>(w)];
      REQUIRE(static_cast<int>(st["played"].size()) <= played);
      while (static_cast<int>(st["played"].size()) < played)
        st["played"].push_back(fillers.front()), fillers.erase(fillers.begin());
      REQUIRE(static_cast<int>(st["hand"].size()) <= carried - played);
      while (static_cast<int>(st["hand"].size()) < carried - played)
        st["hand"].push_back(fillers.back()), fillers.pop_back();
    }
    REQUIRE(static_cast<int>(doc["specialist_deck"].size() + doc["specialist_discard"].size()) == 0);
    REQUIRE(static_cast<int>(fillers.size()) >= deck);
    for (int i = 0; i < deck; ++i) doc["specialist_deck"].push_back(fillers.back()), fillers.pop_back();
    for (const auto& id : fillers) doc["specialist_discard"].push_back(id);
  }
};

// Round `round`, player 0 to play a specialist from `hand`; every other
// player holds a Financier-like card so the play order can go on.
inline Position play_position(int players, const std::vector<std::string>& hand, int money, int round = 1) {
  Position pos(players);
  pos.at("play_specialist", 0, round).set(0, "money", money);
  for (const auto& id : hand) pos.specialist(0, id, "hand");
  const char* others[3] = {"S18", "S17", "S13"};
  for (int s = 1; s < players; ++s) pos.specialist(s, others[s - 1], "hand");
  return pos;
}

// Applies an action that must be legal.
inline void act(State& s, Action a) {
  INFO("action " << a << ": " << s.action_to_string(a) << "\n" << s.to_string());
  REQUIRE(s.is_legal(a));
  s.apply(a);
  REQUIRE_NOTHROW(s.check_invariants());
}

inline int on_earth(const State& s, int seat, const std::string& id) {
  const Player& p = s.player(seat);
  return static_cast<int>(std::count(p.earth.begin(), p.earth.begin() + p.num_earth, mis(id)));
}
inline int in_space(const State& s, int seat, const std::string& id) {
  const Player& p = s.player(seat);
  return static_cast<int>(std::count(p.space.begin(), p.space.begin() + p.num_space, mis(id)));
}
inline bool in_hand(const State& s, int seat, const std::string& id) {
  const Player& p = s.player(seat);
  return std::count(p.hand.begin(), p.hand.begin() + p.hand_size, spec(id)) > 0;
}

}  // namespace lift_off_test
