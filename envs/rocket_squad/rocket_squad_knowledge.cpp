// Rocket Squad: what each seat knows about where the cards are (the knowledge model described
// at the top of rocket_squad.h), the card movements that keep it up to date, and
// redeterminize, which resamples only what the viewer does not know.
#include <algorithm>
#include <cstring>

#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {

namespace {
inline uint8_t bit(int seat) { return static_cast<uint8_t>(1u << seat); }
inline bool has(uint8_t mask, int seat) { return (mask >> seat) & 1; }

// The seats of a mask, lowest first: `for (unsigned s = seats(m); s; s &= s - 1)` with
// `first_seat(s)` visits only the seats set (a step moves cards often; most seats are absent).
inline unsigned seats(unsigned mask) { return mask & ((1u << kMaxPlayers) - 1); }
inline int first_seat(unsigned s) { return __builtin_ctz(s); }

// The union of a region's seat masks, eight bytes at a time (the draw pile holds dozens).
uint8_t union_of(const uint8_t* masks, int count) {
  uint64_t all = 0;
  int i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t word;
    std::memcpy(&word, masks + i, sizeof word);
    all |= word;
  }
  // The last count % 8 masks four, two and one at a time (hands are short: often all of them).
  if (count - i >= 4) {
    uint32_t word;
    std::memcpy(&word, masks + i, sizeof word);
    all |= word;
    i += 4;
  }
  if (count - i >= 2) {
    uint16_t word;
    std::memcpy(&word, masks + i, sizeof word);
    all |= word;
    i += 2;
  }
  if (i < count) all |= masks[i];
  all |= all >> 32;
  all |= all >> 16;
  all |= all >> 8;
  return static_cast<uint8_t>(all);
}

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
  std::array<bool, kNumCardTypes> done{};  // a byte per card: a bitset's test was half the loop
  if (spared != kNoCard) done[spared] = true;
  for (int i = 0; i < count; ++i)
    if (has(counted[i], w) && !done[cards[i]]) {
      done[cards[i]] = true;
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
  const uint8_t any_counted = union_of(counted, count);
  // Per tracker: it knew the card's position (nothing else changes), it saw or deduced the
  // card (it forgets one copy of it), or it did not (`blind`: one copy of everything). Only
  // the trackers that know a card of the region can know or forget anything (in most hands,
  // none).
  uint8_t knows = seen_by, at_position = 0, blind = 0;
  const uint8_t knowing = static_cast<uint8_t>(trackers & (any_counted | (placed ? placed[index] : 0)));
  for (unsigned s = seats(knowing); s != 0; s &= s - 1) {
    const int w = first_seat(s);
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
  for (unsigned s = seats(trackers & any_counted & ~at_position); s != 0; s &= s - 1) {
    const int w = first_seat(s);
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
// the discards, so everybody knows which cards the new pile holds, but not their order: they
// are the new deck, and the cards drawn before are no longer its.
void State::reshuffle() {
  std::copy(discard_.cards.begin(), discard_.cards.begin() + discard_.count, draw_.cards.begin());
  std::fill(draw_.known_by.begin(), draw_.known_by.begin() + discard_.count, 0);
  std::fill(draw_.counted_by.begin(), draw_.counted_by.begin() + discard_.count, all_seats());
  std::fill(draw_.from_deck.begin(), draw_.from_deck.begin() + discard_.count, 1);
  draw_.count = discard_.count;
  discard_.count = 0;
  rng_.shuffle(draw_.cards.begin(), draw_.cards.begin() + draw_.count);
  deck_ = Deck{};
  for (int i = 0; i < draw_.count; ++i) ++deck_.cards[draw_.cards[i]];
  for (Hand& h : hands_) h.from_deck.fill(0);
  for (auto& area : rockets_)
    for (Rocket& r : area) r.box_from_deck.fill(0);
  ace_.box_from_deck.fill(0);
  jackie_.from_deck.fill(0);
}

// Draws the top card; `seen_by` are the seats that look at it. `known_by` returns every seat
// that knows which card it is, `from_deck` whether it is (as far as the table knows) a card of
// the current deck.
bool State::draw_card(uint8_t seen_by, CardType& out, uint8_t& known_by, uint8_t& from_deck) {
  if (draw_.count == 0) reshuffle();
  if (draw_.count == 0) return false;
  const int top = draw_.count - 1;
  out = draw_.cards[top];
  from_deck = draw_.from_deck[top];
  draw_.from_deck[top] = 0;
  known_by = leave_region(draw_.cards.data(), draw_.counted_by.data(), draw_.known_by.data(), draw_.count,
                          top, all_seats(), seen_by);
  if (draw_.count == 0) {  // "if you ever deplete the draw pile": the card is the old deck's
    reshuffle();
    from_deck = 0;
  }
  return true;
}

// Jackie: a card goes under the draw pile (every position above it moves up by one).
void State::put_under_draw_pile(CardType t, uint8_t known_by, uint8_t counted_by, uint8_t from_deck) {
  const int n = draw_.count;
  std::copy_backward(draw_.cards.begin(), draw_.cards.begin() + n, draw_.cards.begin() + n + 1);
  std::copy_backward(draw_.known_by.begin(), draw_.known_by.begin() + n, draw_.known_by.begin() + n + 1);
  std::copy_backward(draw_.counted_by.begin(), draw_.counted_by.begin() + n,
                     draw_.counted_by.begin() + n + 1);
  std::copy_backward(draw_.from_deck.begin(), draw_.from_deck.begin() + n, draw_.from_deck.begin() + n + 1);
  draw_.cards[0] = t;
  draw_.known_by[0] = known_by;
  draw_.counted_by[0] = static_cast<uint8_t>(counted_by & ~known_by);
  draw_.from_deck[0] = from_deck;
  ++draw_.count;
}

void State::discard_face_up(CardType t, uint8_t from_deck) {
  discard(t);
  if (from_deck) --deck_.cards[t];  // the table saw this deck card leave
  // The box may have been the card a whereabouts fact followed into the boxes: nobody can tell.
  for (int i = num_whereabouts_ - 1; i >= 0; --i)
    if (whereabouts_[i].or_boxes && whereabouts_[i].card == t) erase_whereabouts(i);
}

// A card leaves a region without the table seeing which slot (face up: it sees the card go). If the region
// holds only deck cards, the card is one; if it holds none, or the card cannot be one (no copy
// left in the deck), it is not. Otherwise nobody but its owner can tell: the region's deck cards
// become untracked (the deck keeps its cards; the resampler places them anywhere hidden).
uint8_t State::leave_marked_region(uint8_t* marks, int count, CardType card, bool face_up) {
  int marked = 0;
  for (int i = 0; i < count; ++i) marked += marks[i];
  if (marked == 0) return 0;
  if (marked == count) {
    if (face_up) --deck_.cards[card];
    return 1;
  }
  if (face_up && deck_.cards[card] == 0) return 0;
  deck_.untracked = static_cast<uint8_t>(deck_.untracked + marked);
  std::fill(marks, marks + count, 0);
  return 0;
}

// Removes card `index` of player p's hand. `seen_by`: who else sees which card it is (all
// seats for a card played face up, nobody for a box, the thief for Jack). Returns who knows
// the card, p included.
uint8_t State::take_from_hand(int p, int index, uint8_t seen_by, uint8_t* from_deck, int to_hand) {
  Hand& h = hands_[p];
  const CardType card = h.cards[index];
  const uint8_t others = static_cast<uint8_t>(all_seats() & ~bit(p));
  update_whereabouts(p, card, seen_by, to_hand);
  // Face up: the table sees the card leave the hidden cards (not so a card everybody else sees
  // stolen in a 2-player game: it stays hidden in the thief's hand).
  const bool face_up = (seen_by & others) == others && to_hand < 0;
  const uint8_t mark = leave_marked_region(h.from_deck.data(), h.count, card, face_up);
  std::copy(h.from_deck.begin() + index + 1, h.from_deck.begin() + h.count, h.from_deck.begin() + index);
  h.from_deck[h.count - 1] = 0;
  if (from_deck) *from_deck = mark;
  const uint8_t unseen = static_cast<uint8_t>(others & ~seen_by & ~(to_hand >= 0 ? bit(to_hand) : 0));
  // Only a seat that knew some card of the hand can lose track of one (most know none).
  const uint8_t tracking = static_cast<uint8_t>(unseen & union_of(h.known_by.data(), h.count));
  Hand before;  // for the whereabouts below
  if (tracking) before = h;
  const uint8_t knows = static_cast<uint8_t>(
      leave_region(h.cards.data(), h.known_by.data(), nullptr, h.count, index, others, seen_by) | bit(p));
  // A card a seat knew in the hand and can no longer count there is still in it, or it is the
  // card that left: in the thief's hand (Jack), or the box just built face down.
  for (unsigned s = seats(tracking); s != 0; s &= s - 1) {
    const int w = first_seat(s);
    std::array<int, kNumCardTypes> lost{};
    for (int i = 0; i < before.count; ++i) lost[before.cards[i]] += has(before.known_by[i], w);
    for (int i = 0; i < h.count; ++i) lost[h.cards[i]] -= has(h.known_by[i], w);
    if (has(knows, w)) --lost[card];
    for (int i = 0; i < before.count; ++i)
      for (; lost[before.cards[i]] > 0; --lost[before.cards[i]])
        add_whereabouts(before.cards[i], w, static_cast<uint8_t>(bit(p) | (to_hand >= 0 ? bit(to_hand) : 0)),
                        /*or_boxes=*/to_hand < 0);
  }
  return knows;
}

uint8_t State::take_from_hand(int p, CardType t, uint8_t seen_by, uint8_t* from_deck) {
  const Hand& h = hands_[p];
  const int index =
      static_cast<int>(std::find(h.cards.begin(), h.cards.begin() + h.count, t) - h.cards.begin());
  return take_from_hand(p, index, seen_by, from_deck);
}

void State::discard_hand(int p) {  // face up: nothing of it stays hidden
  Hand& h = hands_[p];
  int marked = 0;
  for (int i = 0; i < h.count; ++i) marked += h.from_deck[i];
  for (int i = 0; i < h.count; ++i) {
    update_whereabouts(p, h.cards[i], all_seats(), -1);
    // All deck cards, or none: the table knows which left the deck; a mix: it does not.
    if (marked == h.count) --deck_.cards[h.cards[i]];
    discard(h.cards[i]);
    h.known_by[i] = 0;
    h.from_deck[i] = 0;
  }
  if (marked < h.count) deck_.untracked = static_cast<uint8_t>(deck_.untracked + marked);
  h.count = 0;
}

void State::add_to_hand(int p, CardType t, uint8_t known_by, uint8_t from_deck) {
  Hand& h = hands_[p];
  h.cards[h.count] = t;
  h.known_by[h.count] = static_cast<uint8_t>(known_by & all_seats() & ~bit(p));
  h.from_deck[h.count] = from_deck;
  ++h.count;
}

// A card leaves hand p: every fact that places a card in p either survives (its knower saw a
// different card leave), follows the card unseen by its knower (Jack: into the thief's hand; a
// box built face down: into the boxes) or is forgotten (the knower saw a card like it leave).
void State::update_whereabouts(int p, CardType card, uint8_t seen_by, int to_hand) {
  for (int i = num_whereabouts_ - 1; i >= 0; --i) {
    Whereabouts& f = whereabouts_[i];
    if (!has(f.hands, p)) continue;
    if (has(seen_by, f.knower)) {
      if (f.card == card) erase_whereabouts(i);
    } else if (to_hand >= 0) {
      f.hands = static_cast<uint8_t>(f.hands | bit(to_hand));
    } else {
      f.or_boxes = true;
    }
  }
}

void State::add_whereabouts(CardType card, int knower, uint8_t hands, bool or_boxes) {
  if (num_whereabouts_ == kMaxWhereabouts) return;  // forgotten, like any fact the model drops
  whereabouts_[num_whereabouts_++] = Whereabouts{card, static_cast<uint8_t>(knower), hands, or_boxes};
}

void State::erase_whereabouts(int i) {
  std::copy(whereabouts_.begin() + i + 1, whereabouts_.begin() + num_whereabouts_, whereabouts_.begin() + i);
  --num_whereabouts_;
}

int State::boxes_holding(CardType t) const {
  int n = 0;
  for (int p = 0; p < num_players_; ++p)
    for (const Rocket& r : rockets_[p])
      n += static_cast<int>(std::count(r.boxes.begin(), r.boxes.begin() + r.num_boxes, t));
  return n + static_cast<int>(std::count(ace_.boxes.begin(), ace_.boxes.begin() + ace_.count, t));
}

int State::whereabouts_copies(const Whereabouts& f) const {
  int copies = f.or_boxes ? boxes_holding(f.card) : 0;
  for (int p = 0; p < num_players_; ++p) copies += has(f.hands, p) ? hand_count(p, f.card) : 0;
  return copies;
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
  check_deck_invariants();
  for (int i = 0; i < num_whereabouts_; ++i) {
    const Whereabouts& f = whereabouts_[i];
    if (f.card >= kNumCardTypes || f.knower >= num_players_ || !f.hands || (f.hands & ~seats) ||
        has(f.hands, f.knower))
      fail("whereabouts " + std::to_string(i) + ": a card, a seat in the game and other seats' hands");
    if (whereabouts_copies(f) == 0)
      fail("whereabouts " + std::to_string(i) + ": the card is in none of its hands (or boxes)");
  }
}

// Every slot marked from_deck holds a card of the deck, and the deck's cards are those slots'
// and the untracked ones.
void State::check_deck_invariants() const {
  const auto fail = [](const std::string& what) { throw InvariantViolation("rocket_squad: " + what); };
  std::array<int, kNumCardTypes> left{};
  for (int t = 0; t < kNumCardTypes; ++t) left[t] = deck_.cards[t];
  int marked = 0;
  const auto mark = [&](CardType t, uint8_t from_deck) {
    if (from_deck > 1) fail("a deck mark is 0 or 1");
    if (from_deck && --left[t] < 0)
      fail("more " + card_name(t) + " marked from the deck than the deck holds");
    marked += from_deck;
  };
  for (int i = 0; i < draw_.count; ++i) mark(draw_.cards[i], draw_.from_deck[i]);
  for (int p = 0; p < num_players_; ++p) {
    for (int i = 0; i < hands_[p].count; ++i) mark(hands_[p].cards[i], hands_[p].from_deck[i]);
    for (const Rocket& r : rockets_[p])
      for (int i = 0; i < r.num_boxes; ++i) mark(r.boxes[i], r.box_from_deck[i]);
  }
  for (int i = 0; i < ace_.count; ++i) mark(ace_.boxes[i], ace_.box_from_deck[i]);
  for (int i = 0; i < jackie_.count; ++i) mark(jackie_.cards[i], jackie_.from_deck[i]);
  int total = 0;
  for (int t = 0; t < kNumCardTypes; ++t) total += deck_.cards[t];
  if (total != marked + deck_.untracked)
    fail("the deck holds " + std::to_string(total) + " cards: " + std::to_string(marked) + " marked and " +
         std::to_string(deck_.untracked) + " untracked");
}

// ---------------------------------------------------------------------------------------------
// Resampling for search
// ---------------------------------------------------------------------------------------------

namespace {
using CardCounts = std::array<int, kNumCardTypes>;

// With `untracked` deck cards, the hidden cards (`hidden`: counts) split into the deck's cards
// for the marked slots (`deck`, less the untracked ones: first the copies the deck must have
// lost, as no such copy is hidden, then any at random) and the rest. `room`: per card, the
// deck's copies dealt as untracked, which could as well be in a marked slot.
void sort_untracked(CardCounts& deck, const CardCounts& hidden, int untracked, Rng& rng, CardType* marked,
                    int& num_marked, CardType* other, int& num_other, CardCounts& room) {
  std::array<CardType, kMaxCards> pool;
  int spare = 0;
  for (int t = 0; t < kNumCardTypes; ++t) {
    const int lost = std::max(0, deck[t] - hidden[t]);
    deck[t] -= lost;
    untracked -= lost;
    for (int k = 0; k < deck[t]; ++k) pool[spare++] = static_cast<CardType>(t);
  }
  room.fill(0);
  for (int k = 0; k < untracked && k < spare; ++k) {
    std::swap(pool[k], pool[k + static_cast<int>(rng.below(static_cast<uint32_t>(spare - k)))]);
    --deck[pool[k]];
    ++room[pool[k]];
  }
  for (int t = 0; t < kNumCardTypes; ++t) {
    for (int k = 0; k < deck[t]; ++k) marked[num_marked++] = static_cast<CardType>(t);
    for (int k = deck[t]; k < hidden[t]; ++k) other[num_other++] = static_cast<CardType>(t);
  }
}
}  // namespace

// The slots redeterminize refills: every hidden card the viewer cannot place.
struct ResampleSlots {  // the first `count` entries are filled before use
  static constexpr int8_t kInBox = -2;
  std::array<CardType*, kMaxCards> card;
  std::array<int8_t, kMaxCards> hand;  // the hand the slot is in, kInBox for a box, -1 elsewhere
  std::array<uint8_t, kMaxCards> from_deck;
  std::array<uint8_t, kMaxCards> taken;  // holds the card of one of the viewer's whereabouts
  int count = 0;
  // Untracked deck cards are any of the deck's (see sort_untracked): a card may move into a
  // marked slot while the deck has room for it, the marked slot's card taking its place.
  std::array<int, kNumCardTypes> deck_room{};
};

// Resamples every card `viewer` does not know, as one world the viewer cannot rule out:
//  - cards the viewer knows stay (its hand, boxes it knows, pile positions it knows), and the
//    cards it knows to be in the pile stay in it, at random positions;
//  - the slots marked from_deck get cards of the deck (less those the viewer placed), the others
//    the remaining hidden cards; `untracked` deck cards are chosen among the hidden ones
//    (first those the deck must have lost: copies the viewer cannot find hidden);
//  - a card of the viewer's whereabouts stays in one of its hands;
//  - the draw pile's positions keep who knows them (another seat's Jackie cards stay at the
//    bottom) and whether they hold a deck card; only their contents change;
//  - a player being asked (block, Crew) keeps one card that lets them be asked, so the
//    resampled world asks the same player.
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
  ResampleSlots slots;
  bool counts_pile_cards = false;  // the viewer knows cards to be in the pile, not where
  // With untracked deck cards: the deck's cards to place, and the cards of the slots.
  const bool untracked = deck_.untracked > 0;
  CardCounts deck, hidden;
  if (untracked) {
    std::copy(deck_.cards.begin(), deck_.cards.end(), deck.begin());
    hidden.fill(0);
  }
  const auto visit = [&](CardType* c, bool stays, uint8_t from_deck, int hand) {
    if (stays) {
      if (untracked) deck[*c] -= from_deck;
      return;
    }
    const int n = slots.count++;
    slots.card[n] = c;
    slots.hand[n] = static_cast<int8_t>(hand);
    slots.from_deck[n] = from_deck;
    if (untracked) ++hidden[*c];
  };
  for (int i = 0; i < draw_.count; ++i) {  // counted cards stay in the pile (shuffled below)
    visit(&draw_.cards[i], !unknown(draw_.known_by[i] | draw_.counted_by[i]), draw_.from_deck[i], -1);
    counts_pile_cards = counts_pile_cards || !unknown(draw_.counted_by[i]);
  }
  for (int p = 0; p < num_players_; ++p) {
    Hand& h = hands_[p];
    for (int i = 0; i < h.count; ++i)
      visit(&h.cards[i], p == viewer || !unknown(h.known_by[i]) || (p == pinned_player && i == pinned_slot),
            h.from_deck[i], p);
    for (Rocket& r : rockets_[p])
      for (int i = 0; i < r.num_boxes; ++i)
        visit(&r.boxes[i], !unknown(r.box_known_by[i]), r.box_from_deck[i], ResampleSlots::kInBox);
  }
  for (int i = 0; i < ace_.count; ++i)
    visit(&ace_.boxes[i], !unknown(ace_.box_known_by[i]), ace_.box_from_deck[i], ResampleSlots::kInBox);
  for (int i = 0; i < jackie_.count; ++i)
    visit(&jackie_.cards[i], !unknown(jackie_.known_by[i]), jackie_.from_deck[i], -1);

  // Deal: deck cards to the marked slots, the other hidden cards to the rest.
  std::array<CardType, kMaxCards> marked, other;
  int num_marked = 0, num_other = 0;
  if (!untracked) {  // the marked slots hold exactly the deck's cards the viewer cannot place
    for (int i = 0; i < slots.count; ++i)
      (slots.from_deck[i] ? marked[num_marked++] : other[num_other++]) = *slots.card[i];
  } else {
    sort_untracked(deck, hidden, deck_.untracked, rng, marked.data(), num_marked, other.data(), num_other,
                   slots.deck_room);
  }
  rng.shuffle(marked.begin(), marked.begin() + num_marked);
  rng.shuffle(other.begin(), other.begin() + num_other);
  int next_marked = 0, next_other = 0;
  for (int i = 0; i < slots.count; ++i) {
    if (slots.from_deck[i] ? next_marked >= num_marked : next_other >= num_other)
      throw InvariantViolation(
          "rocket_squad: redeterminize: the deck's bookkeeping does not match its slots");
    *slots.card[i] = slots.from_deck[i] ? marked[next_marked++] : other[next_other++];
  }
  keep_whereabouts(viewer, rng, slots);
  // Without such cards, the deal above already put the pile's unknown positions in a random order.
  if (counts_pile_cards) shuffle_unplaced_draw_pile(viewer, rng);
  rng_.reseed(rng.next());
}

namespace {
// Swapping the cards of two slots keeps the deck's bookkeeping when both are of one kind, or
// when the card going into the marked one may be an untracked deck card (that one's card then
// becomes untracked). Updates the deck's room for such a swap.
bool may_swap(ResampleSlots& slots, int a, int b) {
  if (slots.from_deck[a] == slots.from_deck[b]) return true;
  const int marked = slots.from_deck[a] ? a : b, unmarked = slots.from_deck[a] ? b : a;
  const CardType coming = *slots.card[unmarked];
  if (slots.deck_room[coming] == 0) return false;
  --slots.deck_room[coming];
  ++slots.deck_room[*slots.card[marked]];
  return true;
}

// Moves the card of slot `from` into slot `into` (its card going elsewhere), keeping the deck's
// bookkeeping: a swap (may_swap), or, for a tracked deck card going into an unmarked slot whose
// card the deck cannot take, a three-way move: an untracked deck card from a third unmarked slot
// takes the marked slot, that slot takes the card `into` held.
bool bring(ResampleSlots& slots, int from, int into) {
  if (may_swap(slots, from, into)) {
    std::swap(*slots.card[from], *slots.card[into]);
    return true;
  }
  if (!slots.from_deck[from]) return false;
  for (int u = 0; u < slots.count; ++u) {
    CardType& spare = *slots.card[u];
    if (u == into || slots.taken[u] || slots.from_deck[u] || slots.deck_room[spare] == 0) continue;
    const CardType card = *slots.card[from];
    --slots.deck_room[spare];
    ++slots.deck_room[card];
    *slots.card[from] = spare;
    spare = *slots.card[into];
    *slots.card[into] = card;
    return true;
  }
  return false;
}
}  // namespace

// Each of the viewer's whereabouts gets a copy of its card in one of its hands (or, for a fact
// that followed its card into the boxes, a box), swapping it in from a slot of the same kind
// elsewhere if needed; the facts confined to hands go first, as they have fewer places. A box
// the viewer knows does not count for a fact: it may be a copy the viewer tracks apart (a box
// it saw built before the fact's card came into the hand). Other seats' facts that the new
// world contradicts are dropped (they were facts about cards the viewer cannot place).
void State::keep_whereabouts(int viewer, Rng& rng, ResampleSlots& slots) {
  const auto in = [&](int i, const Whereabouts& f) {
    const int h = slots.hand[i];
    return h >= 0 ? has(f.hands, h) : f.or_boxes && h == ResampleSlots::kInBox;
  };
  std::fill(slots.taken.begin(), slots.taken.begin() + slots.count, 0);
  for (const bool or_boxes : {false, true})
    for (int k = 0; k < num_whereabouts_; ++k) {
      const Whereabouts& f = whereabouts_[k];
      if (f.knower != viewer || f.or_boxes != or_boxes) continue;
      int found = -1;
      for (int i = 0; i < slots.count && found < 0; ++i)
        if (!slots.taken[i] && in(i, f) && *slots.card[i] == f.card) found = i;
      const int start = slots.count ? static_cast<int>(rng.below(static_cast<uint32_t>(slots.count))) : 0;
      for (int step = 0; step < slots.count && found < 0; ++step) {
        const int into = (start + step) % slots.count;
        if (slots.taken[into] || !in(into, f)) continue;
        for (int from = 0; from < slots.count && found < 0; ++from)
          if (!slots.taken[from] && !in(from, f) && *slots.card[from] == f.card && bring(slots, from, into))
            found = into;
      }
      if (found >= 0) slots.taken[found] = 1;
    }
  for (int k = num_whereabouts_ - 1; k >= 0; --k)
    if (whereabouts_copies(whereabouts_[k]) == 0) erase_whereabouts(k);
}

// The positions of the draw pile the viewer does not know get their cards in a random order,
// among positions of the same kind (deck card or not). A position keeps who knows it (another
// seat's Jackie cards stay at the bottom) and its deck mark; a card keeps who counts it (a seat
// that now knows its position no longer just counts it).
void State::shuffle_unplaced_draw_pile(int viewer, Rng& rng) {
  for (uint8_t kind = 0; kind <= 1; ++kind) {
    std::array<uint8_t, kMaxCards> positions;  // the first n are filled
    int n = 0;
    for (int i = 0; i < draw_.count; ++i)
      if (!has(draw_.known_by[i], viewer) && draw_.from_deck[i] == kind)
        positions[n++] = static_cast<uint8_t>(i);
    for (int k = n - 1; k > 0; --k) {  // Fisher-Yates over those positions
      const int i = positions[k], j = positions[rng.below(static_cast<uint32_t>(k + 1))];
      std::swap(draw_.cards[i], draw_.cards[j]);
      std::swap(draw_.counted_by[i], draw_.counted_by[j]);
    }
  }
  for (int i = 0; i < draw_.count; ++i) draw_.counted_by[i] &= static_cast<uint8_t>(~draw_.known_by[i]);
}

}  // namespace rocketgym::rocket_squad
