// Observation encoder for Rocket Squad: a flat float vector of everything `viewer` may know.
//
// Layout: the one of a 4-player table for every player count (issue 31: one
// network serves 2-4 players); the blocks of the seats a table does not have are
// zero. Seats relative to the viewer: 0 = viewer, 1 = next clockwise.
//   own hand            72   copies of each card type / 2
//   discard pile        72   copies of each card type / 4 (face up, public)
//   known in hands      3*72 cards the viewer knows are in each opponent's hand (Jack)
//   known at the bottom 72   cards the viewer put at the bottom of the draw pile (Jackie)
//   Jackie look         3*72 the cards the viewer's Jackie is looking at, top first
//   seats               4*48 per seat: 4 locations x 10 (booster, wild, value, launched, Crew,
//                            Joker, Imaginary Friend, boxes, room, can take a box), then hand size,
//                            launched rockets, score, tallest rocket, is turn player, owes a final
//                            turn, triggered the end, first turn done
//   global              6    draw pile, discard pile, end triggered, final turn running, turn
//                            progress, redraw used
//   my decision         9    phase one-hot when the viewer decides (turn, reaction, crew, jackie,
//                            ace pass), launching rocket for a Crew decision
//   chain               35 + 3*4  the card on the table, the block at the top, blocks, targets
//                            (never who is being asked); seats as offsets from the viewer
//   Ace passing         4 + 4 active, direction, boxes left, seat taking the next box
//   player count        3    one-hot 2, 3, 4 players
#pragma once

#include <vector>

#include "envs/core/describe.h"
#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {

struct Encoder {
  static constexpr int kSeatFeatures = kNumLocations * 10 + 8;
  static constexpr int kChainFeatures = 35 + 3 * kMaxPlayers;
  static constexpr int kSize = kNumCardTypes * (2 + (kMaxPlayers - 1) + 1 + kJackieLook) +
                               kMaxPlayers * kSeatFeatures + 6 + 9 + kChainFeatures + (4 + kMaxPlayers) +
                               kPlayerCountFeatures;

  // {kSize} for every player count.
  static std::vector<int> shape(const Config& config, int num_players);
  static void encode(const State& state, int viewer, float* out);
};

// The observation's feature blocks, for the docs (rocketgym describe); written
// in rocket_squad_layout.cpp from the constants the encoder uses.
std::vector<FeatureBlock> observation_layout(int num_players);

}  // namespace rocketgym::rocket_squad
