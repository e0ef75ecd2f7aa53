// Planes encoder for Launchpad 23: C x 3 x 3, one plane per feature of a board
// space, and the game's scalar features broadcast over the 3x3 grid so that a
// conv trunk sees them everywhere. Seats are relative to the viewer.
//
// Channels (kChannels = 68):
//   [0, 15)   pieces of each colour/size on the space (count / 2)
//   [15, 19)  the space is the pad of the seat at offset k from the viewer (0 = own pad)
//   19        the space is the Factory
//   [20, 35)  pieces of each colour/size in the Bank (count / 2), broadcast
//   [35, 41)  pyramid die face (one-hot), [41, 47) colour die face (one-hot, 46 = atom)
//   [47, 50)  phase: setup, new part, moves
//   50        re-roll used this turn; 51 moves left / 4; 52 turns played / max_turns
//   [53, 56)  the viewer's own secret setup choice (one-hot; zero once revealed or not made)
//   [56, 60)  the seat at offset k has made its setup choice
//   [60, 64)  the current player is the seat at offset k
//   [64, 67)  number of players is 2, 3, 4;  67  parts shortage on the current roll
// Derived features (functions of the public board, so they show nothing a seat
// could not work out itself). They spell out the distances the game turns on:
// without them a small network never learned which moves bring a rocket closer
// and lost 96 % of its games to the heuristic bot, which plays by them.
//   [68, 72)  moves the pad of the seat at offset k still needs (rocket_distance / 16), broadcast
//   [72, 76)  steps from the space to the pad of the seat at offset k (/ 4)
//   [76, 91)  the viewer's pad wants this colour/size: it is not there yet and the size is one
//             of the pad's cheapest (broadcast)
//   [91, 106) the same for the opponent whose pad needs the fewest moves
#pragma once

#include <vector>

#include "envs/core/describe.h"
#include "envs/launchpad23/launchpad23.h"

namespace rocketgym::launchpad23 {

struct Encoder {
  static constexpr int kChannels = 106;
  static std::vector<int> shape(const Config&, int) { return {kChannels, 3, 3}; }
  static void encode(const State& state, int viewer, float* out);
};

// The observation's feature blocks, for the docs (rocketgym describe); written
// in launchpad23_layout.cpp from the constants the encoder uses.
std::vector<FeatureBlock> observation_layout(int num_players);

}  // namespace rocketgym::launchpad23
