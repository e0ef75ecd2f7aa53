// The action id ranges of Launchpad 23 for its documentation (envs/core/describe.h),
// from the codec's constants in launchpad23.h (whose header comment has the
// same table). tests/core/describe_test.cpp checks that they tile the ids and
// agree with action_to_string.
#include "envs/launchpad23/launchpad23.h"

namespace rocketgym::launchpad23 {

std::vector<ActionRange> action_ranges() {
  return {
      {kSetupBase, kSizes, "starting piece",
       "setup: secretly choose the size of the starting piece (S, M, L)"},
      {kTakeBase, kPieceTypes, "from the Bank",
       "new part: take piece type id − 3 = colour·3 + size to the Factory"},
      {kReroll, 1, "re-roll the dice", "parts shortage: re-roll (once per turn)"},
      {kStealBase, kSpaces * kPieceTypes, "steal",
       "parts shortage: id − 19 = space·15 + piece type; steal it into the Factory"},
      {kMoveBase, kSpaces * kPieceTypes * kDirections, "move",
       "id − 154 = (space·15 + piece type)·4 + direction (N, E, S, W)"},
      {kTotalSystemFailure, 1, "Total System Failure",
       "return every piece on your pad to the Bank (costs a move)"},
      {kEndTurn, 1, "end the turn", "moves may be left unused"},
  };
}

}  // namespace rocketgym::launchpad23
