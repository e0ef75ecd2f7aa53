// Helpers for the Lift Off rule tests: hand-written positions built by
// editing a fresh state's JSON document (so every card stays conserved) and
// loading it back with State::from_json.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "envs/lift_off/lift_off_game.h"

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
  Position& at(const std::string& step, int actor, int round = 1, int turn = 0) {
    d["step"] = step;
    d["actor"] = actor;
    d["round"] = round;
    d["phase"] = round <= 4 ? 1 : 2;
    d["turn"] = turn;
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
  State state() const { return State::from_json(d, cfg()); }
};

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
