// Rocket Squad: what every position the game can reach satisfies (check_invariants;
// the knowledge model's own checks are in rocket_squad_knowledge.cpp).
#include <array>
#include <string>

#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {

void State::check_invariants() const {
  const auto fail = [](const std::string& what) { throw InvariantViolation("rocket_squad: " + what); };
  const int n = num_players_;
  if (n < 2 || n > kMaxPlayers) fail("player count");
  // Card conservation: every card of the deck is in exactly one place.
  std::array<int, kNumCardTypes> count{};
  const auto add = [&](CardType t) {
    if (t >= kNumCardTypes) fail("unknown card");
    ++count[t];
  };
  for (int i = 0; i < draw_.count; ++i) add(draw_.cards[i]);
  for (int i = 0; i < discard_.count; ++i) add(discard_.cards[i]);
  for (int p = 0; p < n; ++p) {
    if (hands_[p].count > kMaxHand) fail("hand too large");
    for (int i = 0; i < hands_[p].count; ++i) add(hands_[p].cards[i]);
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = rockets_[p][loc];
      const std::string where = "player " + std::to_string(p) + " " + location_name(loc) + " rocket: ";
      if (r.has_booster()) {
        if (!is_booster(r.booster)) fail(where + "not a booster");
        const int colour = booster_colour(r.booster);
        if (colour != kWild && colour != loc) fail(where + "booster of another colour");
        add(r.booster);
      } else if (r.launched || r.num_boxes || r.joker || r.friend_beside || r.crew) {
        fail(where + "something on an empty location");
      }
      if (r.num_boxes > r.need()) fail(where + "more boxes than the booster allows");
      if (r.launched && (r.num_boxes || r.joker)) fail(where + "launched with boxes or a Joker");
      if (!r.launched && r.crew) fail(where + "Crew on an unlaunched rocket");
      if (r.joker && r.num_boxes == 0) fail(where + "Joker on a rocket without boxes");
      for (int i = 0; i < r.num_boxes; ++i) add(r.boxes[i]);
      if (r.joker) add(kJoker);
      if (r.friend_beside) add(kImaginaryFriend);
      if (r.crew) add(kCrew);
    }
  }
  if (chain_.active) add(chain_.card);
  for (int i = 0; i < ace_.count; ++i) add(ace_.boxes[i]);
  for (int i = 0; i < jackie_.count; ++i) add(jackie_.cards[i]);
  for (int t = 0; t < kNumCardTypes; ++t)
    if (count[t] != config_->deck[t])
      fail("card " + card_name(static_cast<CardType>(t)) + " appears " + std::to_string(count[t]) +
           " times, the deck has " + std::to_string(config_->deck[t]));

  // The decision in progress is consistent with the board.
  const bool over = phase_ == Phase::kGameOver;
  if (!over && (decider_ < 0 || decider_ >= n)) fail("current player out of range");
  if (truncated_ && !over) fail("truncated but not over");
  if (chain_.active != (phase_ == Phase::kReaction)) fail("a chain exists iff a reaction is asked");
  if (chain_.active) {
    if (chain_.card >= kNumSpecials || card_colour(chain_.card) == CardColour::kGrey) fail("chain card");
    if (chain_.top != chain_.card && chain_.top != kMom && chain_.top != kGrandma) fail("chain top");
    if (chain_.top_player < 0 || chain_.top_player >= n || chain_.asked >= n) fail("chain seats");
    if (decider_ != (chain_.top_player + 1 + chain_.asked) % n)
      fail("the asked player is not next in the round");
    if (!can_block(decider_, kMom) && !can_block(decider_, kGrandma)) fail("the asked player cannot block");
    if (card_of_action(chain_.action) != chain_.card) fail("the chain's action is not its card's");
    if (!targets_ok(chain_.action, /*check_jack_hand=*/false)) fail("the chain's card has no valid target");
  }
  if (phase_ == Phase::kJackieKeep ? jackie_.count < 2 : jackie_.count != 0)
    fail("Jackie cards outside a Jackie decision");
  if (phase_ == Phase::kJackieKeep && decider_ != turn_player_) fail("Jackie decision by another player");
  if (!ace_.active && ace_.count > 0) fail("Ace boxes without Ace passing");
  if (ace_.active && (ace_.next_seat < 0 || ace_.next_seat >= n)) fail("Ace passing seat");
  if (phase_ == Phase::kAcePass) {
    int only;
    if (!ace_.active || ace_.count == 0 || ace_.next_seat != decider_ || free_locations(decider_, only) < 2)
      fail("Ace passing decision");
  } else if (ace_.active && !over && phase_ != Phase::kCrew) {
    fail("Ace passing paused outside a Crew decision");
  }
  if ((phase_ == Phase::kCrew) != (crew_location_ >= 0)) fail("Crew location outside a Crew decision");
  if (phase_ == Phase::kCrew) {
    // The rocket has just launched; its owner holds a Crew card to attach or not.
    const Rocket& r = rockets_[decider_][crew_location_];
    if (hand_count(decider_, kCrew) == 0 || !r.launched || r.crew)
      fail("Crew decision: the owner must hold Crew, for a launched rocket without one");
  } else if (!over) {
    int p, loc;
    if (find_launch(p, loc)) fail("a rocket should have launched");
  }
  if (!over && phase_ == Phase::kTurn && decider_ != turn_player_) fail("turn decided by another player");
  if (end_triggered_ != (trigger_seat_ >= 0)) fail("end trigger seat");
  if (end_triggered_ && ((final_owed_ >> trigger_seat_) & 1)) fail("the trigger player is owed a final turn");
  if (!end_triggered_ && (final_owed_ || in_final_turn_)) fail("final turns before the end was triggered");
  if (turn_start_ && (phase_ != Phase::kTurn || redraw_used_)) fail("turn start after the turn player acted");
  check_knowledge_invariants();
}

}  // namespace rocketgym::rocket_squad
