// The action id ranges of Rocket Squad for its documentation (envs/core/describe.h),
// from the codec's constants in rocket_squad.h. tests/core/describe_test.cpp
// checks that they tile the ids and agree with action_to_string.
#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {

std::vector<ActionRange> action_ranges() {
  using namespace action;
  const std::string locations = "location blue, green, yellow, red = 0..3";
  return {
      {kEndTurn, 1, "end turn", "end the turn"},
      {kRedraw, 1, "first-turn redraw", "discard the hand and draw a new one (first turn)"},
      {kPlaceBooster, kBuildBox - kPlaceBooster, "place",
       "place a booster: id − 2 = ((colour·12 + value − 1)·4 + location), colour blue, green, yellow, red, "
       "wild; " +
           locations},
      {kBuildBox, kKnockOver - kBuildBox, "face down as a box",
       "build a card as a box: id − 242 = card type·4 + location (card types: 12 specials, then boosters)"},
      {kKnockOver, kNumLocations, "knock over",
       "knock over the own rocket at location id − 530 (scares the Joker)"},
      {kPlayDad, kPlayJack - kPlayDad, "Dad", "id − 534 = (offset − 1)·16 + their location·4 + own location"},
      {kPlayJack, 3, "Jack", "steal a random card from the opponent at offset id − 581"},
      {kPlayUncle, kPlayJackie - kPlayUncle, "Uncle",
       "id − 585 = from·48 + to·12 + boxes − 1: move boxes between own rockets"},
      {kPlayJackie, 1, "Jackie", "look at the top 3 cards of the draw pile, keep 1"},
      {kPlayJoker, kAceDog - kPlayJoker, "Joker",
       "id − 778 = (offset − 1)·4 + location: sit on their rocket"},
      {kAceDog, kAceScare - kAceDog, "Ace: knock the boxes off",
       "id − 790 = ((offset − 1)·4 + location)·2 + direction (0 clockwise, 1 counter-clockwise)"},
      {kAceScare, kNumLocations, "Ace: scare away the Joker", "on the own rocket at location id − 814"},
      {kPlayFriend, kNumLocations, "Imaginary Friend", "protect the own rocket at location id − 818"},
      {kPlayDuctTape, kNumLocations, "Duct Tape",
       "2 boxes from the draw pile on the own rocket at location id − 822"},
      {kPlayBalloons, kBalloonsScare - kPlayBalloons, "Water Balloons: a box off",
       "id − 826 = d1 + 5·d2 + 25·d3, dk = location targeted at opponent +k, 4 = none"},
      {kBalloonsScare, kNumLocations, "Water Balloons: scare away the Joker",
       "on the own rocket at location id − 951"},
      {kNoBlock, 1, "do not block", "reaction: let the card on the table resolve"},
      {kBlockMom, 1, "block with Mom", "reaction"},
      {kBlockGrandma, 1, "block with Grandma", "reaction"},
      {kCrewAttach, 1, "launch with a Crew card", "the launching rocket takes a Crew card (+2)"},
      {kCrewDecline, 1, "launch without Crew", "keep the Crew card"},
      {kJackieKeep, kJackieLook * 2, "Jackie: keep card",
       "id − 960 = kept card·2 + (0: the lower-numbered other card to the bottom, 1: the higher)"},
      {kAceBuild, kNumLocations, "build the passed box",
       "Ace: build the passed box on the own rocket at location id − 966"},
  };
}

}  // namespace rocketgym::rocket_squad
