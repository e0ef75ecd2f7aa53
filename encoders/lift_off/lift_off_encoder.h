// Lift Off observation encoder: a flat float vector of everything the viewer
// may know. Seats are relative to the viewer (block 0 = viewer, 1 = next
// player clockwise, ...); seats beyond the player count are all zero.
//
// Layout: [global block | viewer's private block | 4 seat blocks]
//   global:  round, phase, step, player count, draft direction, play pass,
//            actor and start player offsets, specialist deck size and public
//            discard, mission deck sizes and public discards, space station,
//            the public mission draw, the specialist being resolved, the launch
//            being built.
//   private: own hand, own objectives, own hidden draft pick, own discarded objectives.
//   seat:    tracks, lab, techs, station investments, missions on Earth and in
//            space, hand/objective counts, played specialists and spent banners,
//            launches this round, whether they picked in the draft, the cards the
//            viewer knows to be in their hand, final points once the game is over.
#pragma once

#include <vector>

#include "envs/core/describe.h"
#include "envs/lift_off/lift_off.h"

namespace rocketgym::lift_off {

struct Encoder {
  static constexpr int kGlobalSize = 8 + 2 + 17 + 3 + 1 + 1 + kMaxPlayers + kMaxPlayers + 1 +
                                     kMaxSpecialists + kNumLevels + kMaxMissionTypes + 2 + kMaxMissionTypes +
                                     2 + kMaxSpecialists + 2 + 1 + 3 + 1 + kMaxMissionTypes + 2;
  static constexpr int kPrivateSize =
      kMaxSpecialists + kMaxObjectives + kMaxSpecialists + kMaxObjectives + kMaxObjectives;
  static constexpr int kSeatSize = 1 + 10 + kNumLevels + kNumColours + 1 + kMaxMissionTypes +
                                   kMaxMissionTypes + 3 + kMaxSpecialists + 2 + 2 + 1 + kMaxSpecialists +
                                   kMaxObjectives + 2;
  static constexpr int kSize = kGlobalSize + kPrivateSize + kMaxPlayers * kSeatSize;

  static std::vector<int> shape(const Config&, int) { return {kSize}; }
  static void encode(const State& s, int viewer, float* out);
};

// The observation's feature blocks, for the docs (rocketgym describe); written
// in lift_off_layout.cpp from the constants the encoder uses.
std::vector<FeatureBlock> observation_layout(int num_players);

}  // namespace rocketgym::lift_off
