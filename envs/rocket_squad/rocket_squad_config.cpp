// Card vocabulary (names, colours) and loading of configs/games/rocket_squad.yaml.
#include <array>
#include <string>
#include <vector>

#include "envs/core/config_record.h"
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

namespace {

// A key written with no value (`dad:` or `--set characters.dad=`) is a mistake, not a request
// for the default: say so, with the file, line and key.
void reject_empty_values(const ConfigNode& node) {
  if (!node.is_map()) return;
  for (const std::string& key : node.keys())
    if (node.yaml()[key].IsNull()) node.fail_key(key, "empty value (leave the key out for the default)");
}

// Adds `copies` of a card to the deck, counting in int so nothing wraps (the deck stores
// uint8_t counts; the total is checked against kMaxCards before that matters).
void add_copies(std::array<int, kNumCardTypes>& deck, CardType t, int copies) { deck[t] += copies; }

void load_boosters(const ConfigNode& boosters, std::array<int, kNumCardTypes>& deck) {
  reject_empty_values(boosters);
  boosters.expect_keys({"blue", "green", "yellow", "red", "wild"});
  for (int colour = 0; colour < kNumBoosterColours; ++colour) {
    if (!boosters.has(kBoosterColourNames[colour])) continue;
    const ConfigNode entry = boosters.child(kBoosterColourNames[colour]);
    reject_empty_values(entry);
    entry.expect_keys({"values", "copies"});
    const int copies = entry.get_int("copies", 1, 0, 16);
    declare_config_key(entry, "values", "list of integers",
                       "each 1 to " + std::to_string(kMaxValue) + ", at most once", "required");
    std::array<bool, kMaxValue + 1> listed{};
    for (const ConfigNode& item : entry.child("values").items()) {
      const int value = item.as_int();
      if (value < 1 || value > kMaxValue)
        item.fail("booster value " + std::to_string(value) + " out of range [1, " +
                  std::to_string(kMaxValue) + "]");
      if (listed[value])
        item.fail("booster value " + std::to_string(value) + " is listed twice (use copies)");
      listed[value] = true;
      add_copies(deck, booster_card(colour, value), copies);
    }
  }
}

// A deck that can make a game: enough cards to deal every hand, no more than the piles hold,
// and boosters for all four locations, without which no rocket launches and every game would
// run into the turn limit.
void check_deck(const ConfigNode& root, const std::array<int, kNumCardTypes>& deck, int hand_size) {
  int total = 0;
  for (int t = 0; t < kNumCardTypes; ++t) total += deck[t];
  if (total > kMaxCards)
    root.fail_key("boosters", "the deck has " + std::to_string(total) +
                                  " cards (boosters and characters), at most " + std::to_string(kMaxCards));
  if (total < kMaxPlayers * hand_size)
    root.fail_key("boosters", "the deck has " + std::to_string(total) + " cards, too few to deal " +
                                  std::to_string(kMaxPlayers) + " hands of " + std::to_string(hand_size));
  int wild = 0, missing = 0;
  for (int value = 1; value <= kMaxValue; ++value) wild += deck[booster_card(kWild, value)];
  for (int colour = 0; colour < kNumLocations; ++colour) {
    int copies = 0;
    for (int value = 1; value <= kMaxValue; ++value) copies += deck[booster_card(colour, value)];
    missing += copies == 0;
  }
  if (missing > wild)
    root.fail_key("boosters", "no player could ever fill all four booster locations (" +
                                  std::to_string(missing) + " colour(s) without boosters, " +
                                  std::to_string(wild) + " wild one(s)), so no rocket could launch");
}

}  // namespace

Config load_config(const ConfigNode& root) {
  reject_empty_values(root);
  root.expect_keys({"reward", "hand_size", "max_turns", "boosters", "characters", "variants"});
  Config c;
  c.reward = parse_reward_mode(root);
  c.hand_size = root.get_int("hand_size", 4, 1, 6);
  c.max_turns = root.get_int("max_turns", 400, 1, 5000);

  std::array<int, kNumCardTypes> deck{};
  load_boosters(root.child("boosters"), deck);
  const ConfigNode characters = root.child("characters");
  reject_empty_values(characters);
  characters.expect_keys(std::vector<std::string>(kSpecialNames, kSpecialNames + kNumSpecials));
  for (int t = 0; t < kNumSpecials; ++t)
    add_copies(deck, static_cast<CardType>(t), characters.get_int(kSpecialNames[t], 0, 0, 16));
  check_deck(root, deck, c.hand_size);
  c.deck_size = 0;
  for (int t = 0; t < kNumCardTypes; ++t) {
    c.deck[t] = static_cast<uint8_t>(deck[t]);  // each at most kMaxCards: checked above
    c.deck_size += deck[t];
  }

  if (root.has("variants")) {
    const ConfigNode variants = root.child("variants");
    reject_empty_values(variants);
    variants.expect_keys({"first_turn_redraw", "joker_stops_launch", "crew_bonus", "jack_min_hand"});
    c.first_turn_redraw = variants.get_bool("first_turn_redraw", true);
    c.joker_stops_launch = variants.get_bool("joker_stops_launch", true);
    c.crew_bonus = variants.get_int("crew_bonus", 2, 0, 10);
    c.jack_min_hand = variants.get_int("jack_min_hand", 3, 1, 6);
  }
  return c;
}

}  // namespace rocketgym::rocket_squad
