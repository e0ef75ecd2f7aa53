// clang-format off
// The Launch Pad action id space: one flat range of ids, the same for every
// player count. "slot" is a rocket slot (0..23) on a player's side; "offset" is
// a relative seat (0 = the player whose turn it is, 1 = the next player
// clockwise, ...). Offsets that name no seat at the table are never legal.
//
//   id range    count  step            meaning
//   0..23        24    2 advance       advance own rocket in slot s to the next zone
//   24            1    2 advance       stop advancing rockets (go on to the draw)
//   25            1    3 draw          take the top card of the discard pile, the rest from the draw pile
//   26            1    3 draw          draw everything from the draw pile
//   27..30        4    4 play          play a rocket card (Observer, Explorer, Intrepid, Galactic)
//                                       in the Construction Zone (it takes the lowest free slot)
//   31..54       24    4 play          play Metal on own rocket slot s
//   55..78       24    4 play          play Fuel on own rocket slot s
//   79..84        6    4 play          play an expert: Engineer, Inspector, Mission Controller,
//                                       Jack of All Trades as Construction / Quality Control / Launch expert
//   85..180      96    4 play          play bonus b on own rocket slot s: 85 + b*24 + s,
//                                       b = Astronaut, Maximum Security, Oxygen, Quality Certificate
//   181..184      4    4 play          play a specialty: Employee Contract, Overtime, Security System,
//                                       Warehouse
//   185..280     96    4 Abort Mission      185 + offset*24 + slot
//   281..292     12    4 Big Red Button     281 + offset*3 + zone (the Launch Pad card in that zone)
//   293..295      3    4 Budget Cuts        293 + (offset-1): steal from an opponent
//   296..319     24    4 Fast Track         296 + own slot
//   320           1    4 Parts Supplier
//   321..416     96    4 Quality Check      321 + offset*24 + slot
//   417..425      9    4 Recruitment        417 + (offset-1)*3 + zone of the expert
//   426           1    4 Recycle Bin
//   427..618    192    4 Sabotage           427 + (offset*24 + slot)*2 + (0 = take Metal, 1 = take Fuel)
//   619..650     32    4 Salvage            619 + card type to take from the discard pile
//   651           1    4 Surplus
//   652..657      6    4 Thief              652..654: two cards from opponent +1/+2/+3;
//                                            655..657: one card each from +1&+2, +1&+3, +2&+3
//   658..753     96    4 Vacuum             658 + offset*24 + slot (the Oxygen on that rocket)
//   754..849     96    4 negotiations  offer a card to an opponent: 754 + (offset-1)*32 + card type
//   850           1    offer           the receiver accepts the offered card
//   851           1    offer           the receiver rejects it (it goes back to the giver)
//   852           1    4 play          stop playing (go on to step 6, discard)
//   853..884     32    6 discard       discard one card of that type from hand (no action is taken)
//   885           1    6 discard       end the turn (legal when the hand is within the hand limit)
//   886..917     32    Surplus         the player named by Surplus discards a card of that type
//   918..949     32    discard order   several kinds of cards go to the discard pile at once: the
//                                       next card of the order, from the top down, is of this type
//                                       (the first choice is the top card; asked while two kinds
//                                       or more are left, the last kind goes below on its own)
// clang-format on
#pragma once

#include "envs/launch_pad/launch_pad_cards.h"

namespace rocketgym::launch_pad::act {

constexpr int kAdvanceRocket = 0;
constexpr int kStopAdvancing = kAdvanceRocket + kMaxRocketSlots;
constexpr int kTakeDiscardTop = kStopAdvancing + 1;
constexpr int kDrawFromPile = kTakeDiscardTop + 1;
constexpr int kPlayRocket = kDrawFromPile + 1;
constexpr int kPlayMetal = kPlayRocket + kNumRocketKinds;
constexpr int kPlayFuel = kPlayMetal + kMaxRocketSlots;
constexpr int kPlayExpert = kPlayFuel + kMaxRocketSlots;
constexpr int kNumExpertPlays = 6;
constexpr int kPlayBonus = kPlayExpert + kNumExpertPlays;
constexpr int kPlaySpecialty = kPlayBonus + kNumBonusTypes * kMaxRocketSlots;
constexpr int kAbortMission = kPlaySpecialty + kNumSpecialtyTypes;
constexpr int kBigRedButton = kAbortMission + kMaxPlayers * kMaxRocketSlots;
constexpr int kBudgetCuts = kBigRedButton + kMaxPlayers * kNumZones;
constexpr int kFastTrack = kBudgetCuts + (kMaxPlayers - 1);
constexpr int kPartsSupplier = kFastTrack + kMaxRocketSlots;
constexpr int kQualityCheck = kPartsSupplier + 1;
constexpr int kRecruitment = kQualityCheck + kMaxPlayers * kMaxRocketSlots;
constexpr int kRecycleBin = kRecruitment + (kMaxPlayers - 1) * kNumZones;
constexpr int kSabotage = kRecycleBin + 1;
constexpr int kSalvage = kSabotage + kMaxPlayers * kMaxRocketSlots * 2;
constexpr int kSurplus = kSalvage + kNumCardTypes;
constexpr int kThief = kSurplus + 1;
constexpr int kNumThiefChoices = 6;
constexpr int kVacuum = kThief + kNumThiefChoices;
constexpr int kOfferCard = kVacuum + kMaxPlayers * kMaxRocketSlots;
constexpr int kAcceptOffer = kOfferCard + (kMaxPlayers - 1) * kNumCardTypes;
constexpr int kRejectOffer = kAcceptOffer + 1;
constexpr int kStopPlaying = kRejectOffer + 1;
constexpr int kDiscard = kStopPlaying + 1;
constexpr int kEndTurn = kDiscard + kNumCardTypes;
constexpr int kSurplusDiscard = kEndTurn + 1;
constexpr int kPutOnTop = kSurplusDiscard + kNumCardTypes;
constexpr int kNumActions = kPutOnTop + kNumCardTypes;
static_assert(kNumActions == 950, "the documented id ranges above must match");

// Thief choices 3..5: the two opponents (as offsets) robbed of one card each.
constexpr int kThiefPairs[3][2] = {{1, 2}, {1, 3}, {2, 3}};

// Id helpers, so tests and bots spell actions in rulebook terms.
constexpr int advance(int slot) { return kAdvanceRocket + slot; }
constexpr int play_rocket(int card) { return kPlayRocket + card - kObserver; }
constexpr int play_metal(int slot) { return kPlayMetal + slot; }
constexpr int play_fuel(int slot) { return kPlayFuel + slot; }
// expert: kEngineer/kInspector/kMissionController; or kJackOfAllTrades with the zone it fills.
constexpr int play_expert(int card, int jack_zone = 0) {
  return card == kJackOfAllTrades ? kPlayExpert + 3 + jack_zone : kPlayExpert + card - kEngineer;
}
constexpr int play_bonus(int card, int slot) {
  return kPlayBonus + (card - kAstronaut) * kMaxRocketSlots + slot;
}
constexpr int play_specialty(int card) { return kPlaySpecialty + card - kEmployeeContract; }
constexpr int abort_mission(int offset, int slot) { return kAbortMission + offset * kMaxRocketSlots + slot; }
constexpr int big_red_button(int offset, int zone) { return kBigRedButton + offset * kNumZones + zone; }
constexpr int budget_cuts(int offset) { return kBudgetCuts + offset - 1; }
constexpr int fast_track(int slot) { return kFastTrack + slot; }
constexpr int quality_check(int offset, int slot) { return kQualityCheck + offset * kMaxRocketSlots + slot; }
constexpr int recruitment(int offset, int zone) { return kRecruitment + (offset - 1) * kNumZones + zone; }
constexpr int sabotage(int offset, int slot, int component) {
  return kSabotage + (offset * kMaxRocketSlots + slot) * 2 + (component == kFuel ? 1 : 0);
}
constexpr int salvage(int card) { return kSalvage + card; }
constexpr int thief_one(int offset) { return kThief + offset - 1; }
constexpr int thief_two(int pair_index) { return kThief + 3 + pair_index; }
constexpr int vacuum(int offset, int slot) { return kVacuum + offset * kMaxRocketSlots + slot; }
constexpr int offer(int offset, int card) { return kOfferCard + (offset - 1) * kNumCardTypes + card; }
constexpr int discard(int card) { return kDiscard + card; }
constexpr int surplus_discard(int card) { return kSurplusDiscard + card; }
constexpr int put_on_top(int card) { return kPutOnTop + card; }

}  // namespace rocketgym::launch_pad::act
