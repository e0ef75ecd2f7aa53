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

#include <array>
#include <cstdint>
#include <vector>

#include "envs/core/describe.h"
#include "envs/launchpad23/launchpad23.h"

namespace rocketgym::launchpad23 {

struct Encoder {
  static constexpr int kChannels = 106;
  static std::vector<int> shape(const Config&, int) { return {kChannels, 3, 3}; }
  // Writes every value of the observation (`out` may hold anything before).
  static void encode(const State& state, int viewer, float* out);

  // What an observation row holds, so that the next observation written into
  // the same row rewrites only what changed (a vector env keeps one per row:
  // an env's consecutive observations differ in a few planes, and most of the
  // 3.8 KB need not be written again).
  struct Written {
    bool valid = false;  // false: the row holds nothing known, write it all
    int8_t viewer = -1;
    int8_t players = 0;
    Board board;                            // the piece planes and the derived planes' input
    std::array<float, kChannels> planes{};  // each broadcast plane's value (per-space planes: unused)
  };
  // The same values as encode() in `out`, which must hold what `written`
  // describes; rewrites only the planes that differ, then updates `written`.
  static void encode_changes(const State& state, int viewer, float* out, Written& written);
};

// The observation's feature blocks, for the docs (rocketgym describe); written
// in launchpad23_layout.cpp from the constants the encoder uses.
std::vector<FeatureBlock> observation_layout(int num_players);

}  // namespace rocketgym::launchpad23
