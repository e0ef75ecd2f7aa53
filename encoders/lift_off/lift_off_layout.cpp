// The observation layout of Lift Off for its documentation (envs/core/describe.h),
// block by block in the order lift_off_encoder.cpp writes them, sized by the
// same constants. tests/core/describe_test.cpp checks that it tiles the
// observation.
#include "encoders/lift_off/lift_off_encoder.h"

namespace rocketgym::lift_off {

std::vector<FeatureBlock> observation_layout(int) {
  using V = Visibility;
  LayoutBuilder b;
  b.add("round", 8, "one-hot round 1..8")
      .add("phase", 2, "one-hot phase 1, 2")
      .add("step", 17,
           "one-hot decision step (objective keep, objective pass, direction, specialist keep, "
           "specialist pass, play specialist, specialist actions, bulk buy, exchange give, exchange "
           "take, station reward, choose deck, keep missions, launch, load rocket, discard "
           "objectives, game over)")
      .add("player count", 3, "one-hot 2, 3, 4 players")
      .add("draft direction", 1, "1 = specialists pass clockwise")
      .add("play pass", 1, "which pass of the play round")
      .add("player to move", kMaxPlayers, "one-hot seat offset from the viewer")
      .add("start player", kMaxPlayers, "one-hot seat offset from the viewer")
      .add("specialist deck", 1, "cards left / 48")
      .add("specialist discard", kMaxSpecialists, "specialist cards in the face-up discard (by card number)")
      .add("mission decks", kNumLevels, "cards left in the level 1..4 decks / 40")
      .add("mission discards", kMaxMissionTypes, "discarded copies of each mission title × 0.5")
      .add("space station", 2, "next space's cost / 12, spaces covered / 10")
      .add("mission draw", kMaxMissionTypes, "drawn copies of each mission title × 0.5 (the draw is public)")
      .add("keeps", 2, "keeps left / 3, kept this draw / 3")
      .add("specialist in play", kMaxSpecialists, "one-hot the specialist being resolved")
      .add("specialist progress", 6,
           "its two actions used, took money, bulk bought / 3, exchange given / 2, "
           "exchange taken / 2")
      .add("launch uses lab", 1, "while loading a rocket: the launch uses the lab's symbol")
      .add("rocket load", kMaxMissionTypes, "missions loaded on the rocket being built, per title × 0.5")
      .add("rocket capacity", 2, "capacity banners applied / 6, capacity of the rocket being loaded / 10")
      .add("own hand", kMaxSpecialists, "the viewer's specialist cards", V::kOwn)
      .add("own objectives", kMaxObjectives, "the viewer's objective cards", V::kOwn)
      .add("own specialist pick", kMaxSpecialists, "one-hot the viewer's hidden draft pick (specialists)",
           V::kOwn)
      .add("own objective pick", kMaxObjectives, "one-hot the viewer's hidden draft pick (objectives)",
           V::kOwn)
      .add("own discarded objectives", kMaxObjectives, "objectives the viewer discarded face down", V::kOwn);
  // Seat blocks: every seat, the viewer first; all zero beyond the player count
  // (the size does not depend on it).
  for (int k = 0; k < kMaxPlayers; ++k) {
    const std::string seat = relative_seat_name(k) + ": ";
    b.add(seat + "present", 1, "1 when the seat is at the table")
        .add(seat + "tracks", 10,
             "VP / 100, money / 50, income / 10, capacity / 6, launch cost / 10, capacity "
             "upgrades / 5, propulsion upgrades / 5, missions on Earth / 10, in space / 20, "
             "level-4 missions in space / 7")
        .add(seat + "lab level", kNumLevels, "one-hot lab level 1..4")
        .add(seat + "techs", kNumColours, "red, yellow, blue, green techs / 10")
        .add(seat + "station investments", 1, "/ 5")
        .add(seat + "missions on Earth", kMaxMissionTypes, "copies of each mission title")
        .add(seat + "missions in space", kMaxMissionTypes, "copies of each mission title")
        .add(seat + "card counts", 3, "specialists in hand / 3, objectives / 3, discarded objectives / 3")
        .add(seat + "specialists played", kMaxSpecialists, "played specialist cards (face up)")
        .add(seat + "banners used", 2, "the two once-per-game banners spent")
        .add(seat + "launches", 2, "missions launched this round / per-round limit, lab symbol used")
        .add(seat + "has picked", 1, "made its hidden draft pick this step (not which card)")
        .add(seat + "known specialists", kMaxSpecialists,
             "specialists the viewer knows are in this seat's hand (passed to it in a draft); zero for the "
             "viewer",
             V::kKnowledge)
        .add(seat + "known objectives", kMaxObjectives,
             "objectives the viewer knows this seat holds; zero for the viewer", V::kKnowledge)
        .add(seat + "final score", 2, "once the game is over: final-scoring VP / 100, total VP / 200");
  }
  return b.blocks();
}

}  // namespace rocketgym::lift_off
