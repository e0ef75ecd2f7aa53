// The action id ranges of The Last Blast for its documentation (envs/core/describe.h),
// from the codec's constants in last_blast.h. tests/core/describe_test.cpp
// checks that they tile the ids and agree with action_to_string.
#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {

std::vector<ActionRange> action_ranges() {
  return {
      {kPickBase, 2 * kMaxCards, "pick",
       "draft: id = card·2 + end (0 front, 1 back): pick that card of the hand for that end of the rocket"},
      {kDrawBlind, 1, "draw blind", "draft: draw blind from the deck instead of picking"},
      {kPlaceBlindFront, 2, "place the drawn card", "draft: put the blind card at the front, at the back"},
      {kMoveBase, kMaxRows, "move to row", "flight: move to row id − 131 of the next column"},
      {kRemoveFront, 2, "remove the", "flight: remove the front, the back card (damage)"},
  };
}

}  // namespace rocketgym::last_blast
