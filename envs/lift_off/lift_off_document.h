// Lift Off: what the state documents (lift_off_json.cpp) and the invariants
// (lift_off_invariants.cpp) share: the bounds on a player's numbers, the
// round's card counts, and the names their messages give a place of the
// knowledge model or a seat's field.
#pragma once

#include <string>

#include "envs/lift_off/lift_off.h"

namespace rocketgym::lift_off::document {

// Bounds on what a document may hold. Far above any real game, and far below
// anything that could overflow while the game is played to its end (a whole
// game adds a few thousand at most; final scoring multiplies by at most 100 per
// card). The invariants allow the growth a game can add to a loaded position.
constexpr int kMaxLoadedVp = 10000;
constexpr int kMaxLoadedMoney = 10000;
constexpr int kMaxLoadedTech = 1000;
constexpr int kMaxLoadedStation = 100;
constexpr int kMaxVp = 1000000;
constexpr int kMaxMoney = 1000000;
constexpr int kMaxTech = 100000;
constexpr int kMaxStation = 10000;
constexpr int kMaxFinalVp = 10000000;

// Cards per hand in a round: three drafted, two played, one carried over.
constexpr int kRoundHand = 3;
constexpr int kPlaysPerRound = 2;
constexpr int kObjectivesEach = 3;

// Place names of the knowledge model in documents.
inline std::string place_name(bool objective, int bit) {
  if (bit < may_be::kDeck) return "hand" + std::to_string(bit);
  if (!objective) return "deck";
  if (bit < may_be::kBox) return "discarded" + std::to_string(bit - may_be::kDiscarded);
  return "box";
}

inline std::string seat_field(int seat, const char* key) {
  return "seats[" + std::to_string(seat) + "]." + key;
}

}  // namespace rocketgym::lift_off::document
