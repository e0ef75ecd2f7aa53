// Launch Pad: hidden information: what a seat cannot place, redeterminization, which
// actions are public, and where the cards are as a seat knows them.
#include <algorithm>

#include "envs/launch_pad/launch_pad.h"

namespace rocketgym::launch_pad {

namespace {

using Counts = std::array<int, kNumCardTypes>;  // as State::Counts

// Appends `counts[t]` copies of each type t to out[n...]; returns the new n.
int lay_out(const Counts& counts, std::array<uint8_t, kMaxCards>& out, int n) {
  for (int t = 0; t < kNumCardTypes; ++t)
    for (int k = 0; k < counts[static_cast<std::size_t>(t)]; ++k)
      out[static_cast<std::size_t>(n++)] = static_cast<uint8_t>(t);
  return n;
}

// Takes the `untracked` cards out of `deck` (they may be anywhere): first the
// copies that cannot be hidden, then others at random.
void drop_untracked(Counts& deck, const Counts& hidden, int untracked, Rng& rng) {
  for (int t = 0; t < kNumCardTypes; ++t) {
    const int out = std::max(0, deck[static_cast<std::size_t>(t)] - hidden[static_cast<std::size_t>(t)]);
    deck[static_cast<std::size_t>(t)] -= out;
    untracked -= out;
  }
  std::array<uint8_t, kMaxCards> cards{};
  const int n = lay_out(deck, cards, 0);
  for (int k = 0; k < untracked && k < n; ++k) {
    const int j = k + static_cast<int>(rng.below(static_cast<uint32_t>(n - k)));
    std::swap(cards[static_cast<std::size_t>(k)], cards[static_cast<std::size_t>(j)]);
    --deck[cards[static_cast<std::size_t>(k)]];
  }
}

}  // namespace

// What `viewer` cannot place, in the places it cannot see (ruling 20): the
// cards it does not name in the other hands and in the draw pile (Launch Pad
// cards aside). `deck`: the deck's cards among them as far as `viewer` follows
// it (the ones it lost track of still counted).
void State::unplaced_cards(int viewer, Counts& hidden, Counts& deck) const {
  const auto& known = known_[static_cast<std::size_t>(viewer)];
  hidden = {};
  for (int seat = 0; seat < num_players_; ++seat)
    if (seat != viewer)
      for (int t = 0; t < kNumCardTypes; ++t)
        hidden[static_cast<std::size_t>(t)] +=
            area(seat).hand[static_cast<std::size_t>(t)] -
            known[static_cast<std::size_t>(seat)][static_cast<std::size_t>(t)];
  for (int i = 0; i < draw_size_; ++i) ++hidden[draw_pile_[static_cast<std::size_t>(i)]];
  hidden[kLaunchPad] = 0;
  for (int t = 0; t < kNumCardTypes; ++t) {
    hidden[static_cast<std::size_t>(t)] -= known[kPlaceDrawPile][static_cast<std::size_t>(t)];
    deck[static_cast<std::size_t>(t)] = deck_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(t)] -
                                        known[kPlaceDrawPile][static_cast<std::size_t>(t)];
  }
}

// A resample of what `viewer` cannot see (ruling 20): the other hands and the
// draw pile. The copies `viewer` knows to be in a hand or in the draw pile
// (known_) stay there. Of the other cards of those places, the deck's (ruling
// 6: as `viewer` follows it, less the ones it lost track of) are dealt to the
// rest of the draw pile and to the other hands' unseen draws, and the others
// to the rest of those hands; each hand keeps its size, the pile its size. The
// recycled cards `viewer` follows are dealt first, to the pile or to the hands
// that took cards unseen since (ruling 16).
// The draw pile's order is new (nobody knows it), with the Launch Pad cards at
// random places within the bottom part where they are known to lie.
void State::redeterminize(int viewer, Rng& rng) {
  const auto& known = known_[static_cast<std::size_t>(viewer)];
  Counts hidden{}, deck{};
  unplaced_cards(viewer, hidden, deck);
  // The slots to fill: the pile's unknown cards, and per other hand its
  // unseen draws (deck cards) and its other unknown cards.
  int pile_free = draw_size_ - launch_pads_in_draw_pile();
  for (uint8_t k : known[kPlaceDrawPile]) pile_free -= k;
  std::array<int, kMaxPlayers> draws{}, others{}, fresh{};
  for (int seat = 0; seat < num_players_; ++seat) {
    if (seat == viewer) continue;
    const auto s = static_cast<std::size_t>(seat);
    int named = 0;
    for (uint8_t k : known[static_cast<std::size_t>(kPlaceHand + seat)]) named += k;
    draws[s] = deck_in_hand(viewer, seat);
    others[s] = area(seat).hand_size - named - draws[s];
    fresh[s] = std::min(deck_fresh_in_hand(viewer, seat), draws[s] + others[s]);
  }
  // The deck's copies beyond what can be hidden are among the cards `viewer`
  // lost track of, out of view now.
  int untracked = deck_untracked_[static_cast<std::size_t>(viewer)];
  for (int t = 0; t < kNumCardTypes; ++t) {
    const auto i = static_cast<std::size_t>(t);
    const int out = std::max(0, deck[i] - hidden[i]);
    deck[i] -= out;
    untracked -= out;
  }
  // First the recycled cards `viewer` cannot place (the copies it knows in
  // the pile count as recycled first): each into the pile or into a hand
  // that took cards unseen since, as one of those cards (a deck card in an
  // other unknown slot is one of the cards `viewer` lost track of).
  Counts placed_in_pile{};
  std::array<Counts, kMaxPlayers> placed_in_hand{};
  std::array<uint8_t, kMaxCards> recycled_pool{};
  Counts recycled{};
  for (int t = 0; t < kNumCardTypes; ++t) {
    const auto i = static_cast<std::size_t>(t);
    recycled[i] = std::min(
        deck[i], std::max(0, deck_recycled_[static_cast<std::size_t>(viewer)][i] - known[kPlaceDrawPile][i]));
  }
  const int num_recycled = lay_out(recycled, recycled_pool, 0);
  rng.shuffle(recycled_pool.begin(), recycled_pool.begin() + num_recycled);
  for (int r = 0; r < num_recycled; ++r) {
    const auto card = static_cast<std::size_t>(recycled_pool[static_cast<std::size_t>(r)]);
    std::array<int, kMaxPlayers> room{};
    int total = pile_free;
    for (int seat = 0; seat < num_players_; ++seat) {
      const auto s = static_cast<std::size_t>(seat);
      room[s] = std::min(fresh[s], draws[s] + (untracked > 0 ? others[s] : 0));
      total += room[s];
    }
    if (total == 0) break;  // (the counts say there is room: a card left here is dealt as a deck card)
    int pick = static_cast<int>(rng.below(static_cast<uint32_t>(total)));
    --deck[card];
    --hidden[card];
    if (pick < pile_free) {
      --pile_free;
      ++placed_in_pile[card];
      continue;
    }
    pick -= pile_free;
    int seat = 0;
    while (pick >= room[static_cast<std::size_t>(seat)]) pick -= room[static_cast<std::size_t>(seat++)];
    const auto s = static_cast<std::size_t>(seat);
    --fresh[s];
    ++placed_in_hand[s][card];
    if (draws[s] > 0) {
      --draws[s];
    } else {
      --others[s];
      --untracked;
    }
  }
  drop_untracked(deck, hidden, untracked, rng);
  Counts rest{};
  for (int t = 0; t < kNumCardTypes; ++t)
    rest[static_cast<std::size_t>(t)] =
        hidden[static_cast<std::size_t>(t)] - deck[static_cast<std::size_t>(t)];
  std::array<uint8_t, kMaxCards> deck_pool{}, other_pool{};
  const int num_deck = lay_out(deck, deck_pool, 0);
  const int num_other = lay_out(rest, other_pool, 0);
  rng.shuffle(deck_pool.begin(), deck_pool.begin() + num_deck);
  rng.shuffle(other_pool.begin(), other_pool.begin() + num_other);
  int next_deck = 0, next_other = 0;
  // Each other hand: the copies `viewer` knows, the recycled cards placed
  // there, its other unseen draws from the deck, the rest.
  for (int seat = 0; seat < num_players_; ++seat) {
    if (seat == viewer) continue;
    const auto s = static_cast<std::size_t>(seat);
    PlayerArea& p = area_mut(seat);
    p.hand = known[static_cast<std::size_t>(kPlaceHand + seat)];
    for (int t = 0; t < kNumCardTypes; ++t)
      p.hand[static_cast<std::size_t>(t)] = static_cast<uint8_t>(
          p.hand[static_cast<std::size_t>(t)] + placed_in_hand[s][static_cast<std::size_t>(t)]);
    for (int k = 0; k < draws[s]; ++k) ++p.hand[deck_pool[static_cast<std::size_t>(next_deck++)]];
    for (int k = 0; k < others[s]; ++k) ++p.hand[other_pool[static_cast<std::size_t>(next_other++)]];
  }
  // The draw pile: the copies `viewer` knows and the rest of the deck, shuffled.
  std::array<uint8_t, kMaxCards> cards{};
  int m = 0;
  for (int t = 0; t < kNumCardTypes; ++t)
    for (int k = 0;
         k < known[kPlaceDrawPile][static_cast<std::size_t>(t)] + placed_in_pile[static_cast<std::size_t>(t)];
         ++k)
      cards[static_cast<std::size_t>(m++)] = static_cast<uint8_t>(t);
  while (next_deck < num_deck)
    cards[static_cast<std::size_t>(m++)] = deck_pool[static_cast<std::size_t>(next_deck++)];
  rng.shuffle(cards.begin(), cards.begin() + m);
  // Choose the Launch Pad positions among the bottom `launch_pad_region_` cards.
  const int pads = launch_pads_in_draw_pile();
  std::array<uint8_t, kMaxCards> positions{};
  for (int i = 0; i < launch_pad_region_; ++i)
    positions[static_cast<std::size_t>(i)] = static_cast<uint8_t>(i);
  std::array<bool, kMaxCards> is_pad{};
  for (int k = 0; k < pads; ++k) {
    const int j = k + static_cast<int>(rng.below(static_cast<uint32_t>(launch_pad_region_ - k)));
    std::swap(positions[static_cast<std::size_t>(k)], positions[static_cast<std::size_t>(j)]);
    is_pad[positions[static_cast<std::size_t>(k)]] = true;
  }
  for (int i = 0, c = 0; i < draw_size_; ++i)
    draw_pile_[static_cast<std::size_t>(i)] = is_pad[static_cast<std::size_t>(i)]
                                                  ? static_cast<uint8_t>(kLaunchPad)
                                                  : cards[static_cast<std::size_t>(c++)];
  keep_knowledge_true(viewer);
  rng_.reseed(rng.next());
}

// After a resample for `viewer`, what the other seats are recorded to know
// must still be true in the new world: each count is cut to what the place
// now holds, and each follows the deck from scratch (its own hand, which it
// drew, may have changed). `viewer`'s own knowledge is true by construction.
void State::keep_knowledge_true(int viewer) {
  std::array<uint8_t, kNumCardTypes> in_draw{};
  for (int i = 0; i < draw_size_; ++i) ++in_draw[draw_pile_[static_cast<std::size_t>(i)]];
  in_draw[kLaunchPad] = 0;
  for (int v = 0; v < num_players_; ++v) {
    if (v == viewer) continue;
    for (int place = 0; place < kNumHiddenPlaces; ++place) {
      if (place != kPlaceDrawPile && place >= num_players_) continue;
      const auto& held = place == kPlaceDrawPile ? in_draw : area(place).hand;
      auto& counts = known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(place)];
      for (int t = 0; t < kNumCardTypes; ++t)
        counts[static_cast<std::size_t>(t)] =
            std::min(counts[static_cast<std::size_t>(t)], held[static_cast<std::size_t>(t)]);
    }
    deck_from_scratch(v);
  }
}

// Every decision is taken in view of the table: cards are played and
// discarded face up, the discard pile's top is face up, the Thief's victims
// are named, an offered card lies face up. What stays hidden (the cards drawn,
// the cards the Thief takes) is chance, not a decision.
bool State::is_public_action(Action a) const { return a >= 0 && a < act::kNumActions; }

namespace {

void add_copies(CardPlaces& out, int place, int card, int copies) {
  for (int k = 0; k < copies; ++k) out.push_back({place, card});
}

}  // namespace

// The face-up cards: the discard pile, each seat's Game Zones and Specialty
// cards, and the table (Launch Pad area, cards aside, staged or put in the
// discard order, offered).
void State::public_card_places(CardPlaces& out) const {
  for (int i = 0; i < discard_size_; ++i)
    out.push_back({kPlaceDiscardPile, discard_pile_[static_cast<std::size_t>(i)]});
  for (int seat = 0; seat < num_players_; ++seat) {
    const PlayerArea& p = area(seat);
    const int place = kPlaceInPlay + seat;
    for (int8_t e : p.expert)
      if (e >= 0) out.push_back({place, e});
    for (uint8_t n : p.launch_pads) add_copies(out, place, kLaunchPad, n);
    for (int s = 0; s < kNumSpecialtyTypes; ++s)
      add_copies(out, place, kEmployeeContract + s, p.specialties[static_cast<std::size_t>(s)]);
    for (const Rocket& r : p.rockets) {
      if (!r.exists()) continue;
      out.push_back({place, r.kind});
      add_copies(out, place, kMetal, r.metal);
      add_copies(out, place, kFuel, r.fuel);
      for (int b = 0; b < kNumBonusTypes; ++b)
        if ((r.bonuses >> b) & 1) out.push_back({place, kAstronaut + b});
    }
  }
  add_copies(out, kPlaceTable, kLaunchPad, launch_pad_area_ + launch_pads_aside_);
  for (int t = 0; t < kNumCardTypes; ++t)
    add_copies(out, kPlaceTable, t, staged_[static_cast<std::size_t>(t)]);
  for (int i = 0; i < ordered_size_; ++i) out.push_back({kPlaceTable, ordered_[static_cast<std::size_t>(i)]});
  if (offer_card_ >= 0) out.push_back({kPlaceTable, offer_card_});
}

void State::card_places(CardPlaces& out) const {
  public_card_places(out);
  for (int seat = 0; seat < num_players_; ++seat)
    for (int t = 0; t < kNumCardTypes; ++t)
      add_copies(out, kPlaceHand + seat, t, area(seat).hand[static_cast<std::size_t>(t)]);
  for (int i = 0; i < draw_size_; ++i)
    out.push_back({kPlaceDrawPile, draw_pile_[static_cast<std::size_t>(i)]});
}

void State::known_card_places(int viewer, CardPlaces& out) const {
  public_card_places(out);
  for (int place = 0; place < kNumHiddenPlaces; ++place) {
    if (place != kPlaceDrawPile && place >= num_players_) continue;
    for (int t = 0; t < kNumCardTypes; ++t) add_copies(out, place, t, known_count(viewer, place, t));
  }
}

}  // namespace rocketgym::launch_pad
