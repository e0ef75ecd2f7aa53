// The observation layout of Launch Pad for its documentation (envs/core/describe.h),
// block by block in the order launch_pad_encoder.cpp writes them, sized by the
// same constants. tests/core/describe_test.cpp checks that it tiles the
// observation.
#include "encoders/launch_pad/launch_pad_encoder.h"

namespace rocketgym::launch_pad {

std::vector<FeatureBlock> observation_layout(int) {
  using V = Visibility;
  const int rocket_features = Encoder::kRocketFeatures;
  LayoutBuilder b;
  for (int k = 0; k < kMaxPlayers; ++k) {
    const std::string seat = relative_seat_name(k) + ": ";
    b.add(seat + "summary", 6,
          "present, hand size / 10, score / 50, Bonus cards in play / 10, is the turn "
          "player, decides now")
        .add(seat + "experts", kNumZones * 4,
             "per zone (Construction, Quality Control, Launch) one-hot "
             "Engineer, Inspector, Mission Controller, Jack of All Trades")
        .add(seat + "Launch Pad cards", kNumZones, "Launch Pad cards in each zone")
        .add(seat + "Specialty cards", kNumSpecialtyTypes,
             "Employee Contract, Overtime, Security System, Warehouse")
        .add(seat + "rocket slots", kMaxRocketSlots * rocket_features,
             "slot s at block offset " + std::to_string(rocket_features) +
                 "·s: present, kind one-hot (Observer, Explorer, Intrepid, Galactic), zone one-hot (3), "
                 "Metal, "
                 "Fuel, Metal missing, Fuel missing, complete, Bonus cards (Astronaut, Maximum Security, "
                 "Oxygen, "
                 "Quality Certificate), may advance this step 2")
        .add(seat + "known hand", kNumCardTypes,
             "copies of each card type the viewer knows are in this hand (seen go in: the discard "
             "pile's top, Salvage, steals, offers, Thief); zero for the viewer",
             V::kKnowledge);
  }
  b.add("own hand", kNumCardTypes, "copies of each card type in the viewer's hand", V::kOwn)
      .add("own hand limit", 1, "/ 8", V::kOwn)
      .add("discard pile", kNumCardTypes,
           "copies of each card type (cards whose discard order is chosen included)")
      .add("discard top", kNumCardTypes, "one-hot card type on top")
      .add("piles", 6,
           "discard size / 50, draw pile size / 50, Launch Pad cards in the area, aside, in the draw "
           "pile, Launch Pad region / 50")
      .add("Countdown", 2, "Countdown under way, final turns left")
      .add("step", kNumSteps,
           "one-hot: advance, draw choice, play, choose discard order, Surplus, offer, "
           "discard, game over")
      .add("turn so far", 3, "step 5 redraw used, rockets advanced from Construction, from Quality Control")
      .add("offered card", kNumCardTypes, "one-hot card type offered (negotiations)")
      .add("discard order", kNumCardTypes, "cards waiting for the discard order, by type")
      .add("variants", 4, "short game, long game, super powers, negotiations")
      .add("decisions", 1, "decisions so far / the game's limit")
      .add("draw pile known", kNumCardTypes,
           "copies of each card type the viewer knows are in the draw pile (the discards shuffled "
           "into it, Recycle Bin's cards, every Launch Pad card there)",
           V::kKnowledge)
      .add_player_count();
  return b.blocks();
}

}  // namespace rocketgym::launch_pad
