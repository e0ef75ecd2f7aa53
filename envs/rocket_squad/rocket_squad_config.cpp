// Card vocabulary (names, colours) and loading of configs/games/rocket_squad.yaml.
#include <string>

#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {
namespace {

const char* const kSpecialNames[kNumSpecials] = {
    "dad",       "jack", "uncle",         "jackie", "mom", "grandma", "joker", "ace", "imaginary_friend",
    "duct_tape", "crew", "water_balloons"};
const char* const kBoosterColourNames[kNumBoosterColours] = {"blue", "green", "yellow", "red", "wild"};

}  // namespace

const char* location_name(int location) {
  return location >= 0 && location < kNumLocations ? kBoosterColourNames[location] : "?";
}

CardColour card_colour(CardType t) {
  switch (t) {
    case kDad:
    case kJack:
    case kJoker:
    case kAce:
    case kWaterBalloons:
      return CardColour::kOrange;
    case kUncle:
    case kJackie:
    case kMom:
    case kGrandma:
    case kImaginaryFriend:
      return CardColour::kPurple;
    case kDuctTape:
    case kCrew:
      return CardColour::kGrey;
    default:
      return CardColour::kBooster;
  }
}

std::string card_name(CardType t) {
  if (t < kNumSpecials) return kSpecialNames[t];
  if (is_booster(t))
    return std::string(kBoosterColourNames[booster_colour(t)]) + "_" + std::to_string(booster_value(t));
  return "none";
}

bool card_from_name(const std::string& name, CardType& out) {
  for (int t = 0; t < kNumCardTypes; ++t)
    if (card_name(static_cast<CardType>(t)) == name) {
      out = static_cast<CardType>(t);
      return true;
    }
  return false;
}

Config load_config(const ConfigNode& root) {
  root.expect_keys({"reward", "hand_size", "max_turns", "boosters", "characters", "variants"});
  Config c;
  c.reward = parse_reward_mode(root);
  c.hand_size = root.get_int("hand_size", 4, 1, 6);
  c.max_turns = root.get_int("max_turns", 400, 1, 5000);

  const ConfigNode boosters = root.child("boosters");
  boosters.expect_keys({"blue", "green", "yellow", "red", "wild"});
  for (int colour = 0; colour < kNumBoosterColours; ++colour) {
    if (!boosters.has(kBoosterColourNames[colour])) continue;
    const ConfigNode entry = boosters.child(kBoosterColourNames[colour]);
    entry.expect_keys({"values", "copies"});
    const int copies = entry.get_int("copies", 1, 0, 16);
    for (const ConfigNode& item : entry.child("values").items()) {
      const int value = item.as_int();
      if (value < 1 || value > kMaxValue)
        item.fail("booster value " + std::to_string(value) + " out of range [1, " +
                  std::to_string(kMaxValue) + "]");
      c.deck[booster_card(colour, value)] += static_cast<uint8_t>(copies);
    }
  }

  const ConfigNode characters = root.child("characters");
  std::vector<std::string> names(kSpecialNames, kSpecialNames + kNumSpecials);
  characters.expect_keys(names);
  for (int t = 0; t < kNumSpecials; ++t)
    c.deck[t] = static_cast<uint8_t>(characters.get_int(kSpecialNames[t], 0, 0, 16));

  if (root.has("variants")) {
    const ConfigNode variants = root.child("variants");
    variants.expect_keys({"first_turn_redraw", "joker_stops_launch", "crew_bonus", "jack_min_hand"});
    c.first_turn_redraw = variants.get_bool("first_turn_redraw", true);
    c.joker_stops_launch = variants.get_bool("joker_stops_launch", true);
    c.crew_bonus = variants.get_int("crew_bonus", 2, 0, 10);
    c.jack_min_hand = variants.get_int("jack_min_hand", 3, 1, 6);
  }

  c.deck_size = 0;
  for (int t = 0; t < kNumCardTypes; ++t) c.deck_size += c.deck[t];
  // Four players must be dealt a full hand; the arrays hold at most kMaxCards.
  if (c.deck_size > kMaxCards)
    root.fail("the deck has " + std::to_string(c.deck_size) + " cards, at most " + std::to_string(kMaxCards));
  if (c.deck_size < kMaxPlayers * c.hand_size)
    root.fail("the deck has " + std::to_string(c.deck_size) + " cards, too few to deal " +
              std::to_string(kMaxPlayers) + " hands of " + std::to_string(c.hand_size));
  return c;
}

}  // namespace rocketgym::rocket_squad
