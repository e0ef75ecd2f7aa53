// Rocket Squad: what each seat knows about where the cards are (the knowledge model described
// at the top of rocket_squad.h), the card movements that keep it up to date, and
// redeterminize, which resamples only what the viewer does not know.
#include <algorithm>
#include <bitset>

#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {

namespace {
inline uint8_t bit(int seat) { return static_cast<uint8_t>(1u << seat); }
inline bool has(uint8_t mask, int seat) { return (mask >> seat) & 1; }

// Seat w no longer knows one copy of `card` in the region (if it knew any).
void forget_one(const CardType* cards, uint8_t* counted, int count, int w, CardType card) {
  for (int i = 0; i < count; ++i)
    if (cards[i] == card && has(counted[i], w)) {
      counted[i] = static_cast<uint8_t>(counted[i] & ~bit(w));
      return;
    }
}

// Seat w no longer knows one copy of each card it knew in the region, except `spared`
// (kNoCard: none), of which it already lost one.
void forget_one_of_each(const CardType* cards, uint8_t* counted, int count, int w, CardType spared) {
  std::bitset<kNumCardTypes> done;
  if (spared != kNoCard) done.set(spared);
  for (int i = 0; i < count; ++i)
    if (has(counted[i], w) && !done.test(cards[i])) {
      done.set(cards[i]);
      counted[i] = static_cast<uint8_t>(counted[i] & ~bit(w));
    }
}

// Does seat w know every card of the region outside its known positions, all of one kind? Then
// a card leaving it unseen is still known to w.
bool knows_all_alike(const CardType* cards, const uint8_t* counted, const uint8_t* placed, int count, int w) {
  int known = 0, region = 0;
  CardType kind = kNoCard;
  for (int i = 0; i < count; ++i) {
    if (placed && has(placed[i], w)) continue;
    ++region;
    if (!has(counted[i], w)) return false;
    if (kind != kNoCard && cards[i] != kind) return false;
    kind = cards[i];
    ++known;
  }
  return known > 0 && known == region;
}
}  // namespace

// Knowledge is a lower bound per card: a seat that knew k copies of a card in the region
// knows at least k-1 remain after one copy left, and k remain after another card left. A seat
// that saw the card leave (or knew its position) can tell which; one that did not must assume
// any of the cards it knew may be the one (so it keeps k-1 of every card), unless all the cards
// there were known to it and alike.
uint8_t State::leave_region(CardType* cards, uint8_t* counted, uint8_t* placed, uint8_t& count, int index,
                            uint8_t trackers, uint8_t seen_by) {
  const CardType card = cards[index];
  uint8_t any_counted = 0;
  for (int i = 0; i < count; ++i) any_counted |= counted[i];
  // Per tracker: it knew the card's position (nothing else changes), it saw or deduced the
  // card (it forgets one copy of it), or it did not (`blind`: one copy of everything).
  uint8_t knows = seen_by, at_position = 0, blind = 0;
  for (int w = 0; w < kMaxPlayers; ++w) {
    if (!has(trackers, w)) continue;
    if (placed && has(placed[index], w)) {
      knows |= bit(w);
      at_position |= bit(w);
    } else if (!has(seen_by, w)) {
      if (has(any_counted, w) && knows_all_alike(cards, counted, placed, count, w))
        knows |= bit(w);
      else
        blind |= bit(w);
    }
  }
  const uint8_t had_it = counted[index];  // for these seats one known copy has just left
  std::copy(cards + index + 1, cards + count, cards + index);
  std::copy(counted + index + 1, counted + count, counted + index);
  if (placed) std::copy(placed + index + 1, placed + count, placed + index);
  --count;
  counted[count] = 0;
  if (placed) placed[count] = 0;
  for (int w = 0; w < kMaxPlayers; ++w) {
    if (!has(trackers, w) || !has(any_counted, w) || has(at_position, w)) continue;
    if (has(blind, w))
      forget_one_of_each(cards, counted, count, w, has(had_it, w) ? card : kNoCard);
    else if (!has(had_it, w))
      forget_one(cards, counted, count, w, card);
  }
  return knows;
}

// ---------------------------------------------------------------------------------------------
// Card movements
// ---------------------------------------------------------------------------------------------

// Ruling 12: an empty draw pile is replaced by the shuffled discards (if any). Everybody saw
// the discards, so everybody knows which cards the new pile holds, but not their order.
void State::reshuffle() {
  std::copy(discard_.cards.begin(), discard_.cards.begin() + discard_.count, draw_.cards.begin());
  std::fill(draw_.known_by.begin(), draw_.known_by.begin() + discard_.count, 0);
  std::fill(draw_.counted_by.begin(), draw_.counted_by.begin() + discard_.count, all_seats());
  draw_.count = discard_.count;
  discard_.count = 0;
  rng_.shuffle(draw_.cards.begin(), draw_.cards.begin() + draw_.count);
}

// Draws the top card; `seen_by` are the seats that look at it. `known_by` returns every seat
// that knows which card it is.
bool State::draw_card(uint8_t seen_by, CardType& out, uint8_t& known_by) {
  if (draw_.count == 0) reshuffle();
  if (draw_.count == 0) return false;
  const int top = draw_.count - 1;
  out = draw_.cards[top];
  known_by = leave_region(draw_.cards.data(), draw_.counted_by.data(), draw_.known_by.data(), draw_.count,
                          top, all_seats(), seen_by);
  if (draw_.count == 0) reshuffle();  // "if you ever deplete the draw pile"
  return true;
}

// Jackie: a card goes under the draw pile (every position above it moves up by one).
void State::put_under_draw_pile(CardType t, uint8_t known_by, uint8_t counted_by) {
  const int n = draw_.count;
  std::copy_backward(draw_.cards.begin(), draw_.cards.begin() + n, draw_.cards.begin() + n + 1);
  std::copy_backward(draw_.known_by.begin(), draw_.known_by.begin() + n, draw_.known_by.begin() + n + 1);
  std::copy_backward(draw_.counted_by.begin(), draw_.counted_by.begin() + n,
                     draw_.counted_by.begin() + n + 1);
  draw_.cards[0] = t;
  draw_.known_by[0] = known_by;
  draw_.counted_by[0] = static_cast<uint8_t>(counted_by & ~known_by);
  ++draw_.count;
}

// Removes card `index` of player p's hand. `seen_by`: who else sees which card it is (all
// seats for a card played face up, nobody for a box). Returns who knows the card, p included.
uint8_t State::take_from_hand(int p, int index, uint8_t seen_by) {
  Hand& h = hands_[p];
  return static_cast<uint8_t>(leave_region(h.cards.data(), h.known_by.data(), nullptr, h.count, index,
                                           static_cast<uint8_t>(all_seats() & ~bit(p)), seen_by) |
                              bit(p));
}

uint8_t State::take_from_hand(int p, CardType t, uint8_t seen_by) {
  const Hand& h = hands_[p];
  const int index =
      static_cast<int>(std::find(h.cards.begin(), h.cards.begin() + h.count, t) - h.cards.begin());
  return take_from_hand(p, index, seen_by);
}

void State::discard_hand(int p) {  // face up: nothing of it stays hidden
  Hand& h = hands_[p];
  for (int i = 0; i < h.count; ++i) {
    discard(h.cards[i]);
    h.known_by[i] = 0;
  }
  h.count = 0;
}

void State::add_to_hand(int p, CardType t, uint8_t known_by) {
  Hand& h = hands_[p];
  h.cards[h.count] = t;
  h.known_by[h.count] = static_cast<uint8_t>(known_by & all_seats() & ~bit(p));
  ++h.count;
}

// ---------------------------------------------------------------------------------------------
// The knowledge model
// ---------------------------------------------------------------------------------------------

namespace {
int boxes_place(int p, int location) { return places::kBoxes + p * kNumLocations + location; }
int table_place(int p, int location) { return places::kTable + p * kNumLocations + location; }
}  // namespace

// Every card with its place; for `viewer` >= 0 only those the viewer knows to be there.
void State::list_places(int viewer, CardPlaces& out) const {
  const auto knows = [&](uint8_t mask) { return viewer < 0 || has(mask, viewer); };
  for (int i = 0; i < draw_.count; ++i)
    if (knows(draw_.known_by[i] | draw_.counted_by[i])) out.push_back({places::kDrawPile, draw_.cards[i]});
  for (int i = 0; i < discard_.count; ++i) out.push_back({places::kDiscardPile, discard_.cards[i]});
  for (int p = 0; p < num_players_; ++p) {
    const Hand& h = hands_[p];
    for (int i = 0; i < h.count; ++i)
      if (p == viewer || knows(h.known_by[i])) out.push_back({places::kHand + p, h.cards[i]});
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = rockets_[p][loc];
      for (int i = 0; i < r.num_boxes; ++i)
        if (knows(r.box_known_by[i])) out.push_back({boxes_place(p, loc), r.boxes[i]});
      if (r.has_booster()) out.push_back({table_place(p, loc), r.booster});
      if (r.joker) out.push_back({table_place(p, loc), kJoker});
      if (r.friend_beside) out.push_back({table_place(p, loc), kImaginaryFriend});
      if (r.crew) out.push_back({table_place(p, loc), kCrew});
    }
  }
  if (chain_.active) out.push_back({places::kChain, chain_.card});
  for (int i = 0; i < ace_.count; ++i)
    if (knows(ace_.box_known_by[i])) out.push_back({places::kAceBoxes, ace_.boxes[i]});
  for (int i = 0; i < jackie_.count; ++i)
    if (knows(jackie_.known_by[i])) out.push_back({places::kJackieLook, jackie_.cards[i]});
}

void State::card_places(CardPlaces& out) const { list_places(-1, out); }

void State::known_card_places(int viewer, CardPlaces& out) const { list_places(viewer, out); }

void State::check_knowledge_invariants() const {
  const auto fail = [](const std::string& what) { throw InvariantViolation("rocket_squad: " + what); };
  const uint8_t seats = all_seats();
  for (int i = 0; i < draw_.count; ++i) {
    if ((draw_.known_by[i] | draw_.counted_by[i]) & ~seats)
      fail("draw pile knowledge names a seat not in the game");
    if (draw_.known_by[i] & draw_.counted_by[i]) fail("a seat both knows and only counts a draw pile card");
  }
  for (int p = 0; p < num_players_; ++p) {
    const Hand& h = hands_[p];
    for (int i = 0; i < h.count; ++i)
      if (h.known_by[i] & ~(seats & ~bit(p)))
        fail("player " + std::to_string(p) + "'s hand knowledge names the owner or a seat not in the game");
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = rockets_[p][loc];
      for (int i = 0; i < r.num_boxes; ++i)
        if (r.box_known_by[i] & ~seats) fail("box knowledge names a seat not in the game");
    }
  }
  for (int i = 0; i < ace_.count; ++i)
    if (ace_.box_known_by[i] & ~seats) fail("Ace box knowledge names a seat not in the game");
  for (int i = 0; i < jackie_.count; ++i)
    if ((jackie_.known_by[i] & ~seats) || !has(jackie_.known_by[i], turn_player_))
      fail("the Jackie player must know the cards it looks at (and only seats in the game)");
}

// ---------------------------------------------------------------------------------------------
// Resampling for search
// ---------------------------------------------------------------------------------------------

// Resamples every card `viewer` does not know: the draw pile except the cards whose position
// they know, the other hands except the cards they know there, the faces of the boxes they do
// not know, and likewise for Ace's boxes and another player's Jackie look. Cards the viewer
// knows only to be somewhere in the draw pile stay in it, at random positions. A player who is
// being asked (block, Crew) keeps one card that lets them be asked, so the resampled world
// asks the same player.
void State::redeterminize(int viewer, Rng& rng) {
  const auto unknown = [&](uint8_t mask) { return !has(mask, viewer); };
  int pinned_player = -1, pinned_slot = -1;
  if ((phase_ == Phase::kReaction || phase_ == Phase::kCrew) && decider_ != viewer) {
    pinned_player = decider_;
    const Hand& h = hands_[decider_];
    for (int i = 0; i < h.count && pinned_slot < 0; ++i) {
      const CardType t = h.cards[i];
      const bool keeps =
          phase_ == Phase::kCrew ? t == kCrew : ((t == kMom || t == kGrandma) && can_block(decider_, t));
      if (keeps) pinned_slot = i;
    }
  }
  std::array<CardType*, kMaxCards> slots;  // filled before use
  int n = 0;
  bool counts_pile_cards = false;
  for (int i = 0; i < draw_.count; ++i) {
    if (unknown(draw_.known_by[i] | draw_.counted_by[i])) slots[n++] = &draw_.cards[i];
    counts_pile_cards = counts_pile_cards || !unknown(draw_.counted_by[i]);
  }
  for (int p = 0; p < num_players_; ++p) {
    if (p == viewer) continue;
    Hand& h = hands_[p];
    for (int i = 0; i < h.count; ++i)
      if (unknown(h.known_by[i]) && !(p == pinned_player && i == pinned_slot)) slots[n++] = &h.cards[i];
  }
  for (int p = 0; p < num_players_; ++p)
    for (Rocket& r : rockets_[p])
      for (int i = 0; i < r.num_boxes; ++i)
        if (unknown(r.box_known_by[i])) slots[n++] = &r.boxes[i];
  for (int i = 0; i < ace_.count; ++i)
    if (unknown(ace_.box_known_by[i])) slots[n++] = &ace_.boxes[i];
  for (int i = 0; i < jackie_.count; ++i)
    if (unknown(jackie_.known_by[i])) slots[n++] = &jackie_.cards[i];

  std::array<CardType, kMaxCards> cards;
  for (int i = 0; i < n; ++i) cards[i] = *slots[i];
  rng.shuffle(cards.begin(), cards.begin() + n);
  for (int i = 0; i < n; ++i) *slots[i] = cards[i];
  // Without such cards, the shuffle above already put the pile's unknown positions in a random order.
  if (counts_pile_cards) shuffle_unplaced_draw_pile(viewer, rng);
  rng_.reseed(rng.next());
}

// The positions of the draw pile the viewer does not know get their cards in a random order;
// each card keeps what the seats know about it.
void State::shuffle_unplaced_draw_pile(int viewer, Rng& rng) {
  std::array<uint8_t, kMaxCards> positions{};
  int n = 0;
  for (int i = 0; i < draw_.count; ++i)
    if (!has(draw_.known_by[i], viewer)) positions[n++] = static_cast<uint8_t>(i);
  std::array<uint8_t, kMaxCards> order = positions;
  rng.shuffle(order.begin(), order.begin() + n);
  const DrawPile before = draw_;
  for (int k = 0; k < n; ++k) {
    draw_.cards[positions[k]] = before.cards[order[k]];
    draw_.known_by[positions[k]] = before.known_by[order[k]];
    draw_.counted_by[positions[k]] = before.counted_by[order[k]];
  }
}

}  // namespace rocketgym::rocket_squad
