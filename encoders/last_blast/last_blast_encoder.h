// Observation encoder for The Last Blast: one flat float vector holding the
// field and the cubes as 5 x 7 planes (players + 1 rows used), every rocket card
// by card, the viewer's hand and hidden pick, what the viewer knows of the other
// hands and the phase. Seats are relative to the viewer (0 = viewer, 1 = next
// clockwise). The layout is the one of a 4-player table for every player count
// (issue 31): absent seats and unused rows are zero, and a player-count block
// ends it. Only what the viewer may know is written.
#pragma once

#include <vector>

#include "envs/core/describe.h"
#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {

struct Encoder {
  // Features per rocket card: colour (3), printed number 1..6 (6), symbol (6).
  static constexpr int kCardFeatures = 3 + 6 + kNumSymbols;
  static constexpr int kSeatFeatures = 10;
  static constexpr int kGlobalFeatures = 3 + kHands + kPicksPerHand + 4 + 1 + kColumns + 3;
  // Per seat and row of the field: the damage the seat's rocket would take
  // entering that row of its next column, and whether another cube is there.
  static constexpr int kNextStepFeatures = 2;
  static constexpr int kSize = kMaxRows * kColumns * kNumSymbols + kMaxPlayers * kMaxRows * kColumns +
                               kMaxPlayers * kSeatFeatures + kMaxPlayers * kRocketLength * kCardFeatures +
                               kMaxCards + kMaxCards + 3 + (kMaxPlayers - 1) * kMaxCards + kMaxCards +
                               kMaxCards + kGlobalFeatures + kMaxPlayers * kMaxRows * kNextStepFeatures +
                               kPlayerCountFeatures;

  // {kSize} for every player count.
  static std::vector<int> shape(const Config& config, int num_players);
  static void encode(const State& s, int viewer, float* out);
};

// The observation's feature blocks, for the docs (rocketgym describe); written
// in last_blast_layout.cpp from the constants the encoder uses.
std::vector<FeatureBlock> observation_layout(int num_players);

}  // namespace rocketgym::last_blast
