// The Last Blast: what every position the game can reach satisfies. The
// engine checks itself with these (tests, conformance) and from_json refuses a
// document that breaks any of them, so that every position that loads plays to
// the end. Each message names the document field at fault.
#include <algorithm>

#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {
namespace {

[[noreturn]] void fail(const std::string& field, const std::string& why) {
  throw InvariantViolation("last_blast: " + field + ": " + why);
}

std::string at(const char* list, int i) { return std::string(list) + "[" + std::to_string(i) + "]"; }
std::string player_field(int p, const char* key) { return at("flight.players", p) + "." + key; }

constexpr uint8_t bit(int player) { return static_cast<uint8_t>(1u << player); }

std::string seats(uint8_t who) {
  std::string out;
  for (int p = 0; p < kMaxPlayers; ++p)
    if (who >> p & 1) out += (out.empty() ? "" : ", ") + std::to_string(p);
  return "{" + out + "}";
}

}  // namespace

void State::check_invariants() const {
  if (n_ < kMinPlayers || n_ > kMaxPlayers) fail("players", "2 to 4 players play");
  check_tiles();
  check_cards();
  if (phase_ == Phase::kDraft) {
    check_draft();
  } else if (phase_ == Phase::kFlight) {
    check_flight();
  } else {
    check_over();
  }
  check_knowledge();
  check_reshuffled();
}

// The field plus the set-aside tiles are the configured supply.
void State::check_tiles() const {
  std::array<int, kNumSymbols> tiles{};
  for (int r = 0; r < rows(); ++r)
    for (int c = 0; c < kColumns; ++c) {
      if (field_[r][c] < 0 || field_[r][c] >= kNumSymbols) fail("field", "bad tile");
      ++tiles[field_[r][c]];
    }
  for (int i = 0; i < set_aside_size_; ++i) {
    if (set_aside_[i] < 0 || set_aside_[i] >= kNumSymbols) fail("set_aside_tiles", "bad tile");
    ++tiles[set_aside_[i]];
  }
  for (int s = 0; s < kNumSymbols; ++s)
    if (tiles[s] != config_->tiles_per_symbol[s])
      fail("set_aside_tiles", "the field and the set-aside tiles hold " + std::to_string(tiles[s]) + " " +
                                  config_->symbol_names[s] + " tiles, the supply has " +
                                  std::to_string(config_->tiles_per_symbol[s]));
}

// Each card exactly once in the deck, discards, lost pile, hands, picks or rockets.
void State::check_cards() const {
  const int num_cards = config_->num_cards();
  std::array<int, kMaxCards> seen{};
  const auto count = [&](int c, const std::string& where) {
    if (c < 0 || c >= num_cards) fail(where, "bad card id " + std::to_string(c));
    ++seen[c];
  };
  for (int i = 0; i < deck_size_; ++i) count(deck_[i], "deck");
  for (int i = 0; i < discard_size_; ++i) count(discard_[i], "discard");
  for (int i = 0; i < lost_size_; ++i) count(lost_[i], "lost");
  for (int p = 0; p < n_; ++p) {
    if (hand_size_[p] < 0 || hand_size_[p] > kHandSize) fail(at("draft.hands", p), "bad hand size");
    for (int i = 0; i < hand_size_[p]; ++i) count(hand_[p][i], at("draft.hands", p));
    if (pick_[p].card >= 0) count(pick_[p].card, at("draft.picks", p));
    if (rocket_[p].size < 0 || rocket_[p].size > kRocketLength) fail(at("rockets", p), "bad rocket size");
    for (int i = 0; i < rocket_[p].size; ++i) count(rocket_[p].card[i], at("rockets", p));
  }
  for (int c = 0; c < num_cards; ++c)
    if (seen[c] != 1)
      fail("deck", "card " + config_->card_names[c] + " appears " + std::to_string(seen[c]) +
                       " times in the deck, discard, lost pile, hands, picks and rockets (must be once)");
  if (num_cards < kMaxCards && reshuffled_ >> num_cards) fail("reshuffled", "bad card id");
}

uint8_t State::hand_holders(int p) const {
  // Hands go left (+1) in the first and third hand, right (-1) in the second.
  const int step = hand_number_ == 1 ? n_ - 1 : 1;
  uint8_t who = 0;
  for (int j = 0; j <= pick_number_; ++j) who |= bit(((p - j * step) % n_ + n_) % n_);
  return who;
}

int State::dealt_hand_size() const {
  return std::min(kHandSize, (config_->num_cards() - n_ * kPicksPerHand * hand_number_) / n_);
}

void State::derive_knowledge() {
  known_by_.fill(0);
  const auto place = places();
  for (int c = 0; c < config_->num_cards(); ++c)
    if (place[c] == kPlaceLost || place[c] >= kPlaceRocket) known_by_[c] = everyone();
  for (int i = 0; i < discard_size_; ++i) known_by_[discard_[i]] = everyone();
  if (phase_ != Phase::kDraft) return;
  for (int p = 0; p < n_; ++p) {
    for (int i = 0; i < hand_size_[p]; ++i) known_by_[hand_[p][i]] = hand_holders(p);
    if (pick_[p].card >= 0) known_by_[pick_[p].card] = pick_[p].blind ? bit(p) : hand_holders(p);
  }
}

// The knowledge model (last_blast.h): who knows each card's place follows from
// where it is; "seen" in a document must agree.
void State::check_knowledge() const {
  const uint8_t all = everyone();
  const auto place = places();
  for (int c = 0; c < config_->num_cards(); ++c) {
    if (known_by_[c] & ~all) fail("seen", "knowledge of a player who is not in the game");
    if ((place[c] == kPlaceLost || place[c] >= kPlaceRocket) && known_by_[c] != all)
      fail("seen", "rockets and lost cards are public, " + config_->card_names[c] + " is not");
  }
  const auto expect = [&](int c, uint8_t who, const std::string& where, const char* why) {
    if (known_by_[c] != who)
      fail("seen", config_->card_names[c] + " (" + where + ") is known to players " + seats(known_by_[c]) +
                       ", must be to " + seats(who) + ": " + why);
  };
  for (int i = 0; i < discard_size_; ++i)
    expect(discard_[i], all, "discard", "every hand goes round the table before it is discarded");
  for (int p = 0; p < n_ && phase_ == Phase::kDraft; ++p) {
    for (int i = 0; i < hand_size_[p]; ++i)
      expect(hand_[p][i], hand_holders(p), at("draft.hands", p), "the players who held the hand");
    const Pick& pick = pick_[p];
    if (pick.card < 0) continue;
    if (!pick.blind) {
      expect(pick.card, hand_holders(p), at("draft.picks", p), "the players who held the hand");
    } else if (known_by_[pick.card] != all) {
      expect(pick.card, bit(p), at("draft.picks", p), "a blind draw is seen by the drawer");
    }
  }
  // The deck is known to nobody, unless a blind draw of this round turned the
  // public discards into the deck (third hand, fourth pick).
  bool public_undrafted = false, public_draw = false;
  for (int i = 0; i < deck_size_; ++i) public_undrafted = public_undrafted || known_by_[deck_[i]] != 0;
  for (int p = 0; p < n_; ++p)
    public_draw = public_draw || (pick_[p].blind && known_by_[pick_[p].card] == all);
  if (!public_undrafted && !public_draw) return;
  const bool last_round =
      phase_ == Phase::kDraft && hand_number_ == kHands - 1 && pick_number_ == kPicksPerHand - 1;
  if (phase_ == Phase::kDraft && !(last_round && public_draw && discard_size_ == 0))
    fail("seen", "the deck is known only after a blind draw of the last round reshuffled the discards");
  if (reshuffled_ != 0) fail("seen", "a deck reshuffled for the third deal is known to nobody");
  for (int i = 0; i < deck_size_; ++i) expect(deck_[i], all, "deck", "the deck is the reshuffled discards");
}

// The discards reshuffled to finish the third deal: afterwards the deck holds
// only such cards, and nothing is discarded again before the flight.
void State::check_reshuffled() const {
  if (reshuffled_ == 0) return;
  if (phase_ == Phase::kDraft && hand_number_ != kHands - 1)
    fail("reshuffled", "the discards are reshuffled only for the third deal");
  if (phase_ == Phase::kDraft && discard_size_ != 0)
    fail("reshuffled", "after the reshuffled deal nothing is discarded before the end of the hand");
  for (int i = 0; i < deck_size_; ++i)
    if (!is_reshuffled(deck_[i]))
      fail("reshuffled", "after the reshuffled deal the deck holds only reshuffled cards, not " +
                             config_->card_names[deck_[i]]);
}

void State::check_draft() const {
  if (lost_size_ != 0) fail("lost", "no card is lost before the flight");
  const int picked = hand_number_ * kPicksPerHand + pick_number_;
  for (int p = 0; p < n_; ++p)
    if (rocket_[p].size != picked)
      fail(at("rockets", p),
           "has " + std::to_string(rocket_[p].size) + " cards; at hand " + std::to_string(hand_number_ + 1) +
               ", pick " + std::to_string(pick_number_ + 1) + " a rocket has " + std::to_string(picked));
  // Discards: one or two cards per player and hand (two after a blind draw),
  // none left once a blind draw or the third deal reshuffled them.
  const int d = discard_size_;
  const bool discards_ok = hand_number_ == 0   ? d == 0
                           : hand_number_ == 1 ? d >= n_ && d <= 2 * n_
                                               : d == 0 || (d >= 2 * n_ && d <= 4 * n_);
  if (!discards_ok) fail("discard", std::to_string(d) + " cards cannot be discarded by this hand");
  check_draft_picks();
  // The flight has not begun: its fields hold their starting values.
  if (round_ != 0) fail("flight.round", "must be 0 during the draft");
  if (start_player_ != 0)
    fail("flight.start_player", "must be 0 during the draft (chosen when the flight starts)");
  if (mover_ != -1) fail("flight.mover", "must be -1 during the draft");
  if (damage_left_ != 0) fail("flight.damage_left", "must be 0 during the draft");
  if (removed_this_turn_ != 0) fail("flight.removed_this_turn", "must be 0 during the draft");
  for (int p = 0; p < n_; ++p) {
    if (status_[p] != Status::kFlying) fail(player_field(p, "status"), "must be flying during the draft");
    if (row_[p] != -1) fail(player_field(p, "row"), "must be -1 during the draft (no cube on the field)");
    if (column_[p] != -1)
      fail(player_field(p, "column"), "must be -1 during the draft (no cube on the field)");
    if (moved_[p]) fail(player_field(p, "moved"), "must be false during the draft");
  }
}

// Ruling 2: the players pick in seat order; everyone before the picker has
// picked, nobody after. A player holds the hand dealt, less one card per pick
// round, less the card picked this round from it.
void State::check_draft_picks() const {
  const int hand = dealt_hand_size() - pick_number_;
  for (int p = 0; p < n_; ++p) {
    const Pick& pick = pick_[p];
    const std::string where = at("draft.picks", p);
    if (p < picker_ && (pick.card < 0 || pick.end < 0))
      fail(where, "player " + std::to_string(p) + " comes before the picker and has picked");
    if (p > picker_ && pick.card >= 0)
      fail(where, "player " + std::to_string(p) + " comes after the picker and has not picked yet");
    if (p == picker_ && pick.card >= 0 && !(pick.blind && pick.end < 0))
      fail(where, "the picker has not picked yet (only a blind card may wait for its end)");
    if (pick.card >= 0 && pick.end < 0 && !pick.blind)
      fail(where + ".end", "only a blind card waits for its end");
    if (pick.blind && pick_number_ != kPicksPerHand - 1)
      fail(where + ".blind", "a blind draw is a fourth pick");
    if (pick.end == kBack && rocket_[p].size == 0)
      fail(where + ".end", "the first card of a rocket is its front");
    const int expected = hand - (pick.card >= 0 && !pick.blind ? 1 : 0);
    if (hand_size_[p] != expected)
      fail(at("draft.hands", p), "has " + std::to_string(hand_size_[p]) + " cards; it must have " +
                                     std::to_string(expected) + " here");
  }
}

void State::check_flight() const {
  // The draft is over: its fields hold the values it ends with.
  if (hand_number_ != kHands - 1) fail("draft.hand", "must be 2 once the draft is over");
  if (pick_number_ != 0) fail("draft.pick", "must be 0 once the draft is over");
  if (picker_ != 0) fail("draft.picker", "must be 0 once the draft is over");
  for (int p = 0; p < n_; ++p) {
    if (hand_size_[p] != 0) fail(at("draft.hands", p), "must be empty once the draft is over");
    if (pick_[p].card >= 0) fail(at("draft.picks", p), "must be null once the draft is over");
  }
  // Every rocket had 12 cards; the lost pile holds those it lost.
  const int undrafted = config_->num_cards() - n_ * kRocketLength;
  if (deck_size_ + discard_size_ != undrafted)
    fail("deck", "the deck and discards hold " + std::to_string(deck_size_ + discard_size_) +
                     " cards after the draft, must hold " + std::to_string(undrafted));
  for (int p = 0; p < n_; ++p) {
    if (status_[p] == Status::kExploded && rocket_[p].size != 0)
      fail(player_field(p, "status"), "an exploded rocket has no cards");
    if (status_[p] != Status::kExploded && rocket_[p].size == 0)
      fail(player_field(p, "status"), "a rocket without cards has exploded");
  }
  check_cubes();
  if (phase_ == Phase::kOver) return;
  for (int p = 0; p < n_; ++p)
    if (status_[p] == Status::kExited) fail(player_field(p, "status"), "rockets exit at the end of the game");
  check_turn_order();
  check_start_player();
}

// Where the cubes are: a flying cube is in the column entered this round once
// it has moved, in the one before until then (off the field before column 1);
// an exploded cube leaves the field, or in the alternate rule keeps pace.
void State::check_cubes() const {
  for (int p = 0; p < n_; ++p) {
    const bool on_field = row_[p] >= 0;
    if (on_field != (column_[p] >= 0))
      fail(player_field(p, "row"), "a cube on the field has a row and a column, one off it neither");
    for (int q = 0; q < p; ++q)
      if (on_field && row_[q] == row_[p] && column_[q] == column_[p])
        fail(player_field(p, "row"), "two cubes on one tile");
    if (status_[p] == Status::kExploded) {
      if (config_->exploded_block_row && column_[p] != round_)
        fail(player_field(p, "column"), "an exploded cube moves on with the round (alternate rule)");
      if (!config_->exploded_block_row && on_field)
        fail(player_field(p, "row"), "an exploded cube leaves the field (ruling 7)");
      continue;
    }
    const int expected = moved_[p] ? round_ : round_ - 1;
    if (column_[p] != expected)
      fail(player_field(p, "column"), "must be " + std::to_string(expected) + " in round " +
                                          std::to_string(round_) + (moved_[p] ? " after" : " before") +
                                          " the player's move");
  }
}

// Turns go clockwise from the Start Player among the rockets in flight at the
// start of the round: those that took their turn ("moved", exploded ones
// included) come first, then the rest; the mover is the first without a turn,
// or the last with one while the damage is being removed.
void State::check_turn_order() const {
  check_damage();
  int took_part = 0, last_moved = -1, first_waiting = -1;
  for (int k = 0; k < n_; ++k) {
    const int q = (start_player_ + k) % n_;
    if (status_[q] != Status::kFlying && !moved_[q]) continue;  // exploded in an earlier round
    ++took_part;
    if (moved_[q] && first_waiting >= 0)
      fail(player_field(q, "moved"), "player " + std::to_string(q) + " cannot have moved before player " +
                                         std::to_string(first_waiting) +
                                         " (clockwise from the Start Player)");
    if (moved_[q]) last_moved = q;
    if (!moved_[q] && first_waiting < 0) first_waiting = q;
  }
  if (took_part < 2) fail("flight.players", "a round is flown by at least two rockets (ruling 7)");
  if (status_[start_player_] != Status::kFlying && !moved_[start_player_])
    fail("flight.start_player", "the Start Player's rocket is in flight");
  const int expected = damage_left_ > 0 ? last_moved : first_waiting;
  if (expected < 0)
    fail("flight.mover",
         damage_left_ > 0 ? "nobody has moved to take damage" : "every rocket has moved this round");
  if (mover_ != expected)
    fail("flight.mover",
         "must be " + std::to_string(expected) + (damage_left_ > 0 ? ", removing damage" : ", to move"));
  if (status_[mover_] != Status::kFlying) fail("flight.mover", "the mover's rocket is in flight");
  if (damage_left_ > 0 && damage_left_ >= rocket_[mover_].size)
    fail("flight.damage_left", "when the damage takes the whole rocket there is no choice to make");
}

// Ruling 6: the first card lost in a turn is the front, the second the back;
// the player chooses each further one, so damage waits for a decision only
// after two losses.
void State::check_damage() const {
  const auto& value = config_->symbol_value;
  const int max_damage = rows() - 1 + *std::max_element(value.begin(), value.end()) -
                         *std::min_element(value.begin(), value.end());
  if (damage_left_ == 0 && removed_this_turn_ != 0)
    fail("flight.removed_this_turn", "must be 0 between turns (no damage left to remove)");
  if (damage_left_ > 0 && removed_this_turn_ < 2)
    fail("flight.removed_this_turn", "the first two cards lost in a turn are not chosen (front, then back)");
  if (damage_left_ + removed_this_turn_ > max_damage)
    fail("flight.damage_left", "a turn does at most " + std::to_string(max_damage) + " damage");
}

// Ruling 4: before anyone has moved in a round, the Start Player is one the
// rules could have given the token to: in column 1 the lowest printed number
// on a front card; later the fewest cards, then the lowest front number (the
// clockwise tie-break depends on who held it before).
void State::check_start_player() const {
  for (int p = 0; p < n_; ++p)
    if (moved_[p]) return;
  const auto rank = [&](int p) {
    const int front = config_->cards[rocket_[p].front()].number;
    return round_ == 0 ? std::make_pair(0, front) : std::make_pair(int{rocket_[p].size}, front);
  };
  for (int p = 0; p < n_; ++p)
    if (status_[p] == Status::kFlying && rank(p) < rank(start_player_))
      fail("flight.start_player", "player " + std::to_string(p) +
                                      " takes the Start Player token before player " +
                                      std::to_string(start_player_) + " (ruling 4)");
}

// The game ended after a round: with at most one rocket in flight (ruling 7),
// or after column 7 with every rocket still in one piece exited (ruling 8).
void State::check_over() const {
  check_flight();
  if (mover_ != -1) fail("flight.mover", "must be -1 once the game is over");
  if (damage_left_ != 0) fail("flight.damage_left", "must be 0 once the game is over");
  if (removed_this_turn_ != 0) fail("flight.removed_this_turn", "must be 0 once the game is over");
  int flying = 0, exited = 0, took_part = 0;
  for (int p = 0; p < n_; ++p) {
    flying += status_[p] == Status::kFlying;
    exited += status_[p] == Status::kExited;
    took_part += status_[p] != Status::kExploded || moved_[p];
    if (status_[p] != Status::kExploded && !moved_[p])
      fail(player_field(p, "moved"), "every rocket in flight moved in the last round");
  }
  if (exited > 0 && (round_ != kColumns - 1 || flying > 0))
    fail("flight.players", "rockets exit together, after column 7 (ruling 8)");
  if (exited == 0 && flying > 1) fail("flight.players", "the game goes on while two rockets fly");
  if (took_part < 2) fail("flight.players", "a round is flown by at least two rockets (ruling 7)");
  if (status_[start_player_] == Status::kExploded && !moved_[start_player_])
    fail("flight.start_player", "the Start Player's rocket was in flight in the last round");
}

}  // namespace rocketgym::last_blast
