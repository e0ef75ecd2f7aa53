// Launch Pad observation: one flat float vector of everything a player may know.
//
// Layout (seats relative to the viewer: block r is seat viewer + r clockwise;
// blocks of absent seats are zero):
//   4 seat blocks of kSeatFeatures:
//     present, hand size/10, score/50, Bonus cards in play/10, is the turn player, decides now,
//     experts (3 zones x one-hot Engineer/Inspector/Mission Controller/Jack), Launch Pad cards
//     per zone, Specialty counts (4), then 24 rocket slots x kRocketFeatures:
//     present, kind one-hot (4), zone one-hot (3), Metal, Fuel, Metal missing, Fuel missing,
//     complete, bonus cards (4), eligible to advance this step 2, then the cards the viewer
//     knows are in that seat's hand by type (32; zero in the viewer's own block)
//   global block:
//     own hand by card type (32), own hand limit/8, discard pile counts by type (32), discard top
//     one-hot (32), discard size/50, draw pile size/50, Launch Pad cards on the area, aside, in
//     the draw pile, Launch Pad region/50, Countdown, final turns left, step one-hot (8),
//     step 5 used, rockets advanced from Construction / Quality Control, offered card one-hot (32),
//     cards waiting for the discard order, their place not chosen yet (32), variants (4),
//     decisions/kMaxDecisions, the cards the viewer knows are in the draw pile by type (32)
//   player count: one-hot 2, 3, 4 players (issue 31; last, so the blocks before it kept their offsets)
//   While a player chooses the discard order (step choose_top), the cards whose place is chosen
//   count in the discard pile's counts and size, and the first of them is the discard top.
#pragma once

#include <vector>

#include "envs/core/describe.h"
#include "envs/launch_pad/launch_pad.h"

namespace rocketgym::launch_pad {

struct Encoder {
  static constexpr int kRocketFeatures = 18;
  static constexpr int kSeatFeatures = 6 + 12 + 3 + 4 + kMaxRocketSlots * kRocketFeatures + kNumCardTypes;
  static constexpr int kGlobalFeatures = 32 + 1 + 32 + 32 + 6 + 2 + kNumSteps + 3 + 32 + 32 + 4 + 1 + 32;
  static constexpr int kSize = kMaxPlayers * kSeatFeatures + kGlobalFeatures + kPlayerCountFeatures;

  static std::vector<int> shape(const Config& config, int num_players);
  static void encode(const State& state, int viewer, float* out);
};

// The observation's feature blocks, for the docs (rocketgym describe); written
// in launch_pad_layout.cpp from the constants the encoder uses.
std::vector<FeatureBlock> observation_layout(int num_players);

}  // namespace rocketgym::launch_pad
