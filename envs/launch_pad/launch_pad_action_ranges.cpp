// The action id ranges of Launch Pad for its documentation (envs/core/describe.h),
// from the codec's constants in launch_pad_actions.h (whose header comment has
// the same table). tests/core/describe_test.cpp checks that they tile the ids
// and agree with action_to_string.
#include <string>

#include "envs/launch_pad/launch_pad.h"
#include "envs/launch_pad/launch_pad_actions.h"

namespace rocketgym::launch_pad {

std::vector<ActionRange> action_ranges() {
  const std::string slots = std::to_string(kMaxRocketSlots);
  const auto from = [](int first) { return std::to_string(first); };
  std::vector<ActionRange> r = {
      {act::kAdvanceRocket, kMaxRocketSlots, "advance",
       "step 2: advance own rocket in slot id − 0 to the next zone"},
      {act::kStopAdvancing, 1, "stop advancing rockets", "step 2: go on to the draw"},
      {act::kTakeDiscardTop, 1, "draw: take the top of the discard pile",
       "step 3: the top discard, the rest from the draw pile"},
      {act::kDrawFromPile, 1, "draw: every card from the draw pile", "step 3"},
      {act::kPlayRocket, kNumRocketKinds, "in the Construction Zone",
       "play a rocket card: Observer, Explorer, Intrepid, Galactic (it takes the lowest free slot)"},
      {act::kPlayMetal, kMaxRocketSlots, "play Metal on", "on own rocket slot id − " + from(act::kPlayMetal)},
      {act::kPlayFuel, kMaxRocketSlots, "play Fuel on", "on own rocket slot id − " + from(act::kPlayFuel)},
      {act::kPlayExpert, act::kNumExpertPlays, "play",
       "an expert: Engineer, Inspector, Mission Controller, Jack of All Trades as Construction / Quality "
       "Control / Launch expert"}};
  const char* bonus[kNumBonusTypes] = {"Astronaut", "Maximum Security", "Oxygen", "Quality Certificate"};
  for (int b = 0; b < kNumBonusTypes; ++b) {
    const int first = act::kPlayBonus + b * kMaxRocketSlots;
    r.push_back({first, kMaxRocketSlots, std::string("play ") + bonus[b] + " on",
                 std::string("bonus card ") + bonus[b] + " on own rocket slot id − " + from(first)});
  }
  const std::string offset_slot = "offset = (id − @) / " + slots +
                                  " (0 = yourself, 1 = next seat clockwise...), slot = (id − @) % " + slots;
  // Writes the range's first id where a formula says @.
  const auto with_f = [](std::string text, int first) {
    for (std::size_t at; (at = text.find('@')) != std::string::npos;)
      text.replace(at, 1, std::to_string(first));
    return text;
  };
  const std::vector<ActionRange> rest = {
      {act::kPlaySpecialty, kNumSpecialtyTypes, "play Specialty card",
       "Employee Contract, Overtime, Security System, Warehouse"},
      {act::kAbortMission, kMaxPlayers * kMaxRocketSlots, "Abort Mission",
       with_f("discard a rocket: " + offset_slot, act::kAbortMission)},
      {act::kBigRedButton, kMaxPlayers * kNumZones, "Big Red Button",
       with_f("offset = (id − @) / 3, zone = (id − @) % 3 (the Launch Pad card in that zone)",
              act::kBigRedButton)},
      {act::kBudgetCuts, kMaxPlayers - 1, "Budget Cuts",
       "steal a Specialty card from the opponent at offset id − " + from(act::kBudgetCuts - 1)},
      {act::kFastTrack, kMaxRocketSlots, "Fast Track",
       "own rocket slot id − " + from(act::kFastTrack) + " straight to the Launch Zone"},
      {act::kPartsSupplier, 1, "Parts Supplier", "draw three cards"},
      {act::kQualityCheck, kMaxPlayers * kMaxRocketSlots, "Quality Check",
       with_f("send a rocket back to Quality Control: " + offset_slot, act::kQualityCheck)},
      {act::kRecruitment, (kMaxPlayers - 1) * kNumZones, "Recruitment",
       with_f("steal an expert: offset = (id − @) / 3 + 1, zone = (id − @) % 3", act::kRecruitment)},
      {act::kRecycleBin, 1, "Recycle Bin", "shuffle the top ten discards into the draw pile"},
      {act::kSabotage, kMaxPlayers * kMaxRocketSlots * 2, "Sabotage",
       with_f("take Metal (even) or Fuel (odd): offset = (id − @) / 48, slot = (id − @) / 2 % 24",
              act::kSabotage)},
      {act::kSalvage, kNumCardTypes, "Salvage",
       "take card type id − " + from(act::kSalvage) + " from the discard pile"},
      {act::kSurplus, 1, "Surplus: every player discards a card", "play Surplus"},
      {act::kThief, act::kNumThiefChoices, "Thief",
       "two cards from opponent +1, +2, +3; then one card each from +1 & +2, +1 & +3, +2 & +3"},
      {act::kVacuum, kMaxPlayers * kMaxRocketSlots, "Vacuum",
       with_f("steal the Oxygen of a rocket: " + offset_slot, act::kVacuum)},
      {act::kOfferCard, (kMaxPlayers - 1) * kNumCardTypes, "offer",
       with_f("negotiations variant: offset = (id − @) / 32 + 1, card type = (id − @) % 32",
              act::kOfferCard)},
      {act::kAcceptOffer, 1, "accept the offered", "the receiver keeps the offered card"},
      {act::kRejectOffer, 1, "reject the offered", "it goes back to the giver"},
      {act::kStopPlaying, 1, "stop playing cards", "step 4 ends: go on to step 6, discard"},
      {act::kDiscard, kNumCardTypes, "discard",
       "step 6: discard card type id − " + from(act::kDiscard) + " from hand"},
      {act::kEndTurn, 1, "end the turn", "legal when the hand is within the hand limit"},
      {act::kSurplusDiscard, kNumCardTypes, "Surplus: discard",
       "the player named by Surplus discards card type id − " + from(act::kSurplusDiscard)},
      {act::kPutOnTop, kNumCardTypes, "put",
       "discard order: the next card, from the top down, is card type id − " + from(act::kPutOnTop)},
  };
  r.insert(r.end(), rest.begin(), rest.end());
  return r;
}

}  // namespace rocketgym::launch_pad
