// Observation encoder for Rocket Squad: a flat float vector of everything `viewer` may know.
//
// Layout (n = number of players, seats relative to the viewer: 0 = viewer, 1 = next clockwise):
//   own hand            72   copies of each card type / 2
//   discard pile        72   copies of each card type / 4 (face up, public)
//   known in hands      (n-1)*72  cards the viewer knows are in each opponent's hand (Jack)
//   known at the bottom 72   cards the viewer put at the bottom of the draw pile (Jackie)
//   Jackie look         3*72 the cards the viewer's Jackie is looking at, top first
//   seats               n*48 per seat: 4 locations x 10 (booster, wild, value, launched, Crew,
//                            Joker, Imaginary Friend, boxes, room, can take a box), then hand size,
//                            launched rockets, score, tallest rocket, is turn player, owes a final
//                            turn, triggered the end, first turn done
//   global              6    draw pile, discard pile, end triggered, final turn running, turn
//                            progress, redraw used
//   my decision         9    phase one-hot when the viewer decides (turn, reaction, crew, jackie,
//                            ace pass), launching rocket for a Crew decision
//   chain               35 + 3n  the card on the table, the block at the top, blocks, targets
//                            (never who is being asked)
//   Ace passing         4 + n active, direction, boxes left, seat taking the next box
#pragma once

#include <vector>

#include "envs/core/describe.h"
#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {

struct Encoder {
  static int size(int num_players);
  static std::vector<int> shape(const Config& config, int num_players);
  static void encode(const State& state, int viewer, float* out);
};

// The observation's feature blocks, for the docs (rocketgym describe); written
// in rocket_squad_layout.cpp from the constants the encoder uses.
std::vector<FeatureBlock> observation_layout(int num_players);

}  // namespace rocketgym::rocket_squad
