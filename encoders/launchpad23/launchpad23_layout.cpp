// The observation layout of Launchpad 23 for its documentation (envs/core/describe.h):
// the channels of launchpad23_encoder.h in order. Each channel is a 3×3 plane
// (space = row·3 + column, 9 floats), so a block of c channels is 9c floats.
// tests/core/describe_test.cpp checks that it tiles the observation.
#include "encoders/launchpad23/launchpad23_encoder.h"

namespace rocketgym::launchpad23 {

std::vector<FeatureBlock> observation_layout(int) {
  using V = Visibility;
  LayoutBuilder b;
  int channel = 0;
  // A block of `channels` planes, named with its channel numbers.
  const auto planes = [&](const std::string& name, int channels, const std::string& meaning,
                          V v = V::kPublic) {
    const std::string range = channels == 1
                                  ? std::to_string(channel)
                                  : std::to_string(channel) + "–" + std::to_string(channel + channels - 1);
    b.add(name + " (channel" + (channels == 1 ? " " : "s ") + range + ")", channels * kSpaces, meaning, v);
    channel += channels;
  };
  const std::string pieces =
      "one plane per piece type colour·3 + size (red, yellow, green, blue, black × S, M, L)";
  planes("pieces on the space", kPieceTypes, "count / 2 of each piece type on each space; " + pieces);
  planes("pads", kMaxPlayers, "1 on the pad of the seat at offset k from the viewer (0 = own pad)");
  planes("Factory", 1, "1 on the Factory (the centre space)");
  planes("Bank", kPieceTypes, "count / 2 of each piece type in the Bank, broadcast over the grid");
  planes("pyramid die", 6, "one-hot face (S, M, L, ...) after the roll, broadcast");
  planes("colour die", 6, "one-hot face (5 colours, then the atom), broadcast");
  planes("phase", 3, "one-hot setup, new part, moves, broadcast");
  planes("turn", 3, "re-roll used this turn, moves left / 4, turns played / max_turns, broadcast");
  planes("own setup choice", kSizes, "one-hot the size the viewer chose secretly (zero once revealed)",
         V::kOwn);
  planes("setup made", kMaxPlayers, "the seat at offset k has made its setup choice (not which)");
  planes("player to move", kMaxPlayers, "the seat at offset k is to move");
  planes("player count", 3, "one-hot 2, 3, 4 players");
  planes("parts shortage", 1, "the current roll is a parts shortage");
  planes("moves needed", kMaxPlayers, "moves the pad of the seat at offset k still needs / 16, broadcast",
         V::kDerived);
  planes("steps to pads", kMaxPlayers, "steps from each space to the pad of the seat at offset k / 4",
         V::kDerived);
  planes("own pad wants", kPieceTypes,
         "piece types not yet on the viewer's pad whose size is one of its cheapest, broadcast", V::kDerived);
  planes("closest opponent wants", kPieceTypes, "the same for the opponent whose pad needs the fewest moves",
         V::kDerived);
  return b.blocks();
}

}  // namespace rocketgym::launchpad23
