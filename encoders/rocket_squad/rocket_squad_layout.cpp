// The observation layout of Rocket Squad for its documentation (envs/core/describe.h),
// block by block in the order rocket_squad_encoder.cpp writes them, sized by the
// same constants. The layout is the one of a 4-player table for every player
// count (issue 31): the blocks of seats the table does not have are zero.
// tests/core/describe_test.cpp checks that it tiles the observation.
#include "encoders/rocket_squad/rocket_squad_encoder.h"

namespace rocketgym::rocket_squad {

std::vector<FeatureBlock> observation_layout(int) {
  using V = Visibility;
  const std::string types = "per card type (12 specials, then boosters colour·12 + value − 1)";
  LayoutBuilder b;
  b.add("own hand", kNumCardTypes, "copies / 2 " + types, V::kOwn)
      .add("discard pile", kNumCardTypes, "copies / 4 " + types);
  for (int k = 1; k < kMaxPlayers; ++k)
    b.add(relative_seat_name(k) + ": known in hand", kNumCardTypes,
          "cards the viewer knows are in this hand (seen with Jack) × 0.5", V::kKnowledge);
  b.add("known at the bottom", kNumCardTypes,
        "cards the viewer put at the bottom of the draw pile (Jackie) × 0.5", V::kKnowledge);
  for (int i = 0; i < kJackieLook; ++i)
    b.add("Jackie look, card " + std::to_string(i + 1), kNumCardTypes,
          "one-hot the card the viewer's Jackie is looking at, top first", V::kOwn);
  for (int k = 0; k < kMaxPlayers; ++k) {
    const std::string seat = relative_seat_name(k) + ": ";
    b.add(seat + "rockets", kNumLocations * 10,
          "per location (blue, green, yellow, red) 10 features: booster, wild, value / 10, launched, Crew, "
          "Joker, "
          "Imaginary Friend, boxes / 10, room / 10, can take a box")
        .add(seat + "summary", 8,
             "hand size / 8, launched rockets / 4, score / 40, tallest rocket / 10, is turn "
             "player, owes a final turn, triggered the end, first turn done");
  }
  b.add("global", 6,
        "draw pile / 100, discard pile / 100, end triggered, final turn running, turn / max_turns, "
        "redraw used")
      .add("my decision", 5, "one-hot phase when the viewer decides: turn, reaction, crew, Jackie, Ace pass",
           V::kOwn)
      .add("Crew rocket", kNumLocations,
           "one-hot location of the launching rocket in the viewer's Crew decision", V::kOwn)
      .add("chain: card", 1 + kNumSpecials + 3 + 2,
           "a card is on the table, one-hot which special, top block (Mom, Grandma, none), blocks / 4, "
           "blocks odd")
      .add("chain: locations", 2 * kNumLocations, "one-hot target location, one-hot own location")
      .add("chain: top player", kMaxPlayers, "one-hot seat offset of who played the top of the chain")
      .add("chain: against", kMaxPlayers, "seats the card is played against")
      .add("chain: balloons", kMaxPlayers, "Water Balloons target per seat ((location + 1) / 4)")
      .add("chain: Uncle", 2 * kNumLocations + 1, "one-hot from, one-hot to, boxes / 10")
      .add("Ace passing", 4, "active, clockwise, counter-clockwise, boxes left / 10")
      .add("Ace next seat", kMaxPlayers, "one-hot seat offset taking the next box")
      .add_player_count();
  return b.blocks();
}

}  // namespace rocketgym::rocket_squad
