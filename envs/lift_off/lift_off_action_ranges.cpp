// The action id ranges of Lift Off for its documentation (envs/core/describe.h),
// from the codec's constants in lift_off.h. tests/core/describe_test.cpp checks
// that they tile the ids and agree with action_to_string.
#include "envs/lift_off/lift_off.h"

namespace rocketgym::lift_off {

std::vector<ActionRange> action_ranges() {
  using namespace actions;
  return {
      {kKeepObjective, kMaxObjectives, "keep objective",
       "objective draft, first pick: keep objective number id (0 = the first of the config's objectives)"},
      {kPassObjective, kMaxObjectives, "pass objective",
       "objective draft, second pick: pass objective id − 32"},
      {kDraftLeft, 1, "pass specialists left", "start player: the specialist draft passes clockwise"},
      {kDraftRight, 1, "pass specialists right",
       "start player: the specialist draft passes counter-clockwise"},
      {kKeepSpecialist, kMaxSpecialists, "keep specialist",
       "specialist draft, first pick: specialist id − 66"},
      {kPassSpecialist, kMaxSpecialists, "pass specialist",
       "specialist draft, second pick: specialist id − 114"},
      {kPlaySpecialist, kMaxSpecialists, "play specialist", "play specialist id − 162 from hand"},
      {kTakeMoney, 1, "use no action", "take money instead of the specialist's actions"},
      {kEndSpecialist, 1, "finish this specialist", "end the specialist's turn"},
      {kMoney6, 1, "others gain", "the money action: gain money, the others gain some"},
      {kRewardL1, 3, "reward for level", "reward for level 1, 2, 3 missions in space"},
      {kBuyTech, 3, "buy 1", "buy one red, yellow, blue tech"},
      {kBulkBuy, 3, "bulk buy 1", "bulk buy one red, yellow, blue tech"},
      {kBulkFinish, 1, "stop bulk buying", "end the bulk buy (after at least one)"},
      {kBuyGreen, 1, "green tech for", "buy one green tech"},
      {kSellTech, 3, "sell 1", "sell one red, yellow, blue tech"},
      {kCapacityUpgrade, 1, "capacity upgrade", "buy a capacity upgrade"},
      {kBuyTwoDifferent, 3, "techs for", "buy red + yellow, red + blue, yellow + blue"},
      {kExchangeGive, kNumColours, "exchange: return", "exchange: return one red, yellow, blue, green tech"},
      {kExchangeTake, kNumColours, "exchange: take", "exchange: take one red, yellow, blue, green tech"},
      {kBuyGreenBulk, 2, "green tech for", "buy 1 or 2 green techs"},
      {kLabUpgrade, 2, "upgrade the lab", "upgrade the lab one level (normal, cheap)"},
      {kPropulsionUpgrade, 1, "propulsion upgrade", "buy a propulsion upgrade"},
      {kStationInvest, 1, "invest in the space station", "put an investment on the station"},
      {kStationGreen, 1, "space station reward", "station reward: take one green tech"},
      {kStationIncome, 1, "space station reward", "station reward: income +1"},
      {kDrawFromDeck, kNumLevels, "mission deck", "draw from the level 1..4 mission deck"},
      {kKeepMission, kMaxMissionTypes, "keep mission", "keep a drawn mission: title id − 251"},
      {kStopKeeping, 1, "keep no more missions", "end the mission draw (after at least one)"},
      {kLaunchWithLab, 2, "launch a rocket with",
       "start a launch with the lab's symbol, with an extra-launch symbol"},
      {kEndLaunches, 1, "launch no more rockets", "end the launches of this round"},
      {kLoadMission, kMaxMissionTypes, "load mission", "load an Earth mission on the rocket: title id − 319"},
      {kApplyCapacity, 3, "capacity banner", "use a +1, +2, +3 capacity banner on this launch"},
      {kLiftOff, 1, "lift off", "launch the loaded rocket"},
      {kDiscardObjective, kMaxObjectives, "discard objective",
       "phase 2: discard objective id − 387 for money"},
      {kKeepObjectives, 1, "keep the remaining objectives", "phase 2: discard no more"},
  };
}

}  // namespace rocketgym::lift_off
