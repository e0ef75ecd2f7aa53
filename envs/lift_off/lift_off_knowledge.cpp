// Lift Off: the knowledge model (what each seat knows about where the hidden
// cards are) and redeterminization. The model is described at the top of lift_off.h.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "envs/lift_off/lift_off.h"

namespace rocketgym::lift_off {

namespace {

template <class Mask>
bool single(Mask m) {
  return m != 0 && (m & (m - 1)) == 0;
}

// --- a seat's sets, several at a time -----------------------------------------
//
// A seat's sets are small integers (specialists: bytes below 0x20, five places; objectives:
// 16-bit lanes below 0x200, nine places), so one 64-bit word holds eight or four of them and
// plain integer arithmetic handles them at once without carries between the lanes (the top
// bit of every lane is free). tighten runs on every play, draw and pass:
// this reads the sets without a branch per card.

constexpr std::size_t kSetsPerWord = 8;  // specialist sets (bytes) in a word

template <class Mask>
struct Lanes {
  static constexpr int kPerWord = 8 / static_cast<int>(sizeof(Mask));
  static constexpr int kBits = 8 * static_cast<int>(sizeof(Mask));
  static constexpr uint64_t kLow = sizeof(Mask) == 1 ? 0x0101010101010101ull : 0x0001000100010001ull;
  static constexpr uint64_t kHigh = kLow << (kBits - 1);
  // Moves bit 0 of lane i to bit i of the top lane's bits (no two products meet or carry).
  static constexpr uint64_t kGather = sizeof(Mask) == 1 ? 0x0102040810204080ull : 0x1000200040008000ull;
  static constexpr int kGatherShift = 64 - kPerWord;
};
static_assert((1 << may_be::kSpecialistPlaces) <= 0x80 && (1 << may_be::kObjectivePlaces) <= 0x8000 &&
                  kMaxSpecialists % 8 == 0 && kMaxObjectives % 4 == 0 &&
                  may_be::kHands == (1u << kMaxPlayers) - 1,
              "the sets fill whole words with the top bit of each lane free; the hands are places 0..3");

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "card i of a word is lane i, from the low bits");

template <class Mask, std::size_t N>
using Words = std::array<uint64_t, N / Lanes<Mask>::kPerWord>;

template <class Mask, std::size_t N>
Words<Mask, N> load_words(const std::array<Mask, N>& sets) {
  Words<Mask, N> words;
  std::memcpy(words.data(), sets.data(), sizeof words);
  return words;
}

// The top bit of each lane that is not zero (the sum does not carry out of a lane).
template <class Mask>
uint64_t nonzero_lanes(uint64_t x) {
  return (x + (Lanes<Mask>::kHigh - Lanes<Mask>::kLow)) & Lanes<Mask>::kHigh;
}
// Each lane less its lowest set bit ((lane | top bit) - 1 borrows within the lane).
template <class Mask>
uint64_t without_lowest_bit(uint64_t x) {
  return x & ((x | Lanes<Mask>::kHigh) - Lanes<Mask>::kLow);
}
// Bit 0 of each lane that holds exactly one place (the card is known to be there).
template <class Mask>
uint64_t single_lanes(uint64_t x) {
  return (nonzero_lanes<Mask>(x) & ~nonzero_lanes<Mask>(without_lowest_bit<Mask>(x))) >>
         (Lanes<Mask>::kBits - 1);
}
// Every bit of each lane whose top bit is set.
template <class Mask>
uint64_t fill_lanes(uint64_t top_bits) {
  return (top_bits >> (Lanes<Mask>::kBits - 1)) * ((uint64_t{1} << Lanes<Mask>::kBits) - 1);
}
// The inverse for bytes: bit i of `bits` (0..255) to the top bit of byte i. (Each byte keeps
// its own bit of the copies; a byte not zero gets its top bit.)
uint64_t lanes_of_bits(uint64_t bits) {
  const uint64_t own_bit = (bits * 0x0101010101010101ull) & 0x8040201008040201ull;
  return (((own_bit & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | own_bit) & Lanes<uint8_t>::kHigh;
}
// The lanes of `x` (each 0 or 1) as bits, lane i to bit i.
template <class Mask>
uint64_t gather_lanes(uint64_t x) {
  return (x * Lanes<Mask>::kGather) >> Lanes<Mask>::kGatherShift;
}
// The sum of the lanes (less than 1 << the lane's bits).
template <class Mask>
int sum_lanes(uint64_t x) {
  return static_cast<int>((x * Lanes<Mask>::kLow) >> (64 - Lanes<Mask>::kBits));
}

// A hidden pass in seat v's eyes, for the cards it did not see go or come: every hand passed
// to the next in `dir` (n seats), so a set that holds hand w now also holds the next hand,
// unless that is v (v saw what came to it: the rest stayed with w).
template <class Mask, std::size_t N>
void spread_to_next_hands(std::array<Mask, N>& may_be, int n, int dir, int v) {
  using L = Lanes<Mask>;
  const uint64_t hands = L::kLow * ((1u << n) - 1);  // the hands at the table, in every lane
  const uint64_t not_v = ~(L::kLow << v);
  Words<Mask, N> words = load_words(may_be);
  for (uint64_t& x : words) {
    const uint64_t h = x & hands;
    // Hand w to hand w + dir around the table (what a shift moves past a lane's hands is masked off).
    const uint64_t next = (dir > 0 ? h << 1 | h >> (n - 1) : h >> 1 | h << (n - 1)) & hands;
    x |= next & not_v;
  }
  std::memcpy(may_be.data(), words.data(), sizeof words);
}

// Draws the consequences of the public counts for one seat and one kind of
// card, until nothing changes: a place already filled by cards known to be
// there holds no other card; a place that only the cards that may be there can
// fill holds exactly those. Both are sound because every set holds the card's
// true place.
//
// The counts are taken a word of sets at a time: per place, lane sums of the sets that hold it
// (possible) and of those that hold only it (certain), summed across the lanes at the end.
template <class Mask, std::size_t N, std::size_t P>
void tighten(std::array<Mask, N>& may_be, const std::array<int, P>& count) {
  using L = Lanes<Mask>;
  for (;;) {
    Words<Mask, N> words = load_words(may_be);
    std::array<uint64_t, P> possible_lanes{}, certain_lanes{};
    for (uint64_t x : words) {
      const uint64_t single = single_lanes<Mask>(x);
      for (std::size_t p = 0; p < P; ++p) {
        const uint64_t holds = (x >> p) & L::kLow;
        possible_lanes[p] += holds;
        certain_lanes[p] += holds & single;
      }
    }
    unsigned full = 0, only = 0;  // places full of known cards / that only their possible cards can fill
    for (std::size_t p = 0; p < P; ++p) {
      const int possible = sum_lanes<Mask>(possible_lanes[p]), certain = sum_lanes<Mask>(certain_lanes[p]);
      if (possible == certain) continue;
      if (certain == count[p])
        full |= 1u << p;
      else if (possible == count[p])
        only |= 1u << p;
    }
    if (full == 0 && only == 0) return;
    // A set of two places or more becomes the lowest place of `only` it holds if any, else
    // loses the places of `full`; a set of one place or none stays.
    const uint64_t only_lanes = only * L::kLow, keep_lanes = ~(full * L::kLow);
    for (uint64_t& x : words) {
      const uint64_t unsure = fill_lanes<Mask>(nonzero_lanes<Mask>(without_lowest_bit<Mask>(x)));
      const uint64_t in_only = x & only_lanes;
      const uint64_t to_only = fill_lanes<Mask>(nonzero_lanes<Mask>(in_only));
      const uint64_t lowest_in_only = in_only ^ without_lowest_bit<Mask>(in_only);
      const uint64_t tightened = (lowest_in_only & to_only) | (x & keep_lanes & ~to_only);
      x = (x & ~unsure) | (tightened & unsure);
    }
    std::memcpy(may_be.data(), words.data(), sizeof words);
  }
}

// Resolves what a seat's links tell, given its sets: a card known to be in the
// link's places counts against the link, a card known elsewhere leaves it; a
// link with nothing left to go there rules its places out for the rest; a link
// that can no longer be broken is dropped. True if a set changed.
template <class Mask, std::size_t N>
bool resolve_links(std::array<Mask, N>& may_be, Links& links) {
  if (links[0].cards == 0) return false;  // (links are filled from the front)
  bool changed = false;
  Links kept{};
  int k = 0;
  for (Link link : links) {
    if (link.cards == 0) break;
    for (uint64_t bits = link.cards; bits != 0; bits &= bits - 1) {
      const auto card = static_cast<std::size_t>(__builtin_ctzll(bits));
      const Mask m = may_be[card];
      if ((m & link.to) == 0 || (m & ~link.to) == 0) link.cards &= ~(uint64_t{1} << card);
      if (m != 0 && (m & ~link.to) == 0) --link.most;
    }
    if (link.cards != 0 && link.most <= 0) {
      for (uint64_t bits = link.cards; bits != 0; bits &= bits - 1) {
        const auto card = static_cast<std::size_t>(__builtin_ctzll(bits));
        may_be[card] = static_cast<Mask>(may_be[card] & ~link.to);
      }
      changed = true;
      continue;
    }
    if (__builtin_popcountll(link.cards) > link.most) kept[static_cast<std::size_t>(k++)] = link;
  }
  links = kept;
  return changed;
}

// --- resampling the cards a viewer is unsure of ---------------------------

constexpr int kMaxPlaces = may_be::kObjectivePlaces;
constexpr int kMaxTypes = 1 << kMaxPlaces;

// Hall's condition for dealing cards to places that must each be filled
// exactly: for every set S of places, the cards that may only go to places of
// S must fit in S. slack[S] = room of S - cards confined to S, kept for every S
// as cards are dealt; a deal is possible while no slack is negative.
class Slack {
 public:
  // `count[T]`: cards that may go to the places of set T; `cap[p]`: free slots of place p.
  Slack(const std::array<int, kMaxTypes>& count, const std::array<int, kMaxPlaces>& cap, int k)
      : sets_(1 << k) {
    for (int s = 0; s < sets_; ++s) slack_[static_cast<std::size_t>(s)] = -count[static_cast<std::size_t>(s)];
    for (int b = 0; b < k; ++b)  // confined to S = sum over subsets of S
      for (int s = 0; s < sets_; ++s)
        if (s >> b & 1) slack_[static_cast<std::size_t>(s)] += slack_[static_cast<std::size_t>(s ^ (1 << b))];
    for (int s = 1; s < sets_; ++s)
      for (int b = 0; b < k; ++b)
        if (s >> b & 1) slack_[static_cast<std::size_t>(s)] += cap[static_cast<std::size_t>(b)];
  }
  // Whether the cards can be dealt at all.
  bool ok() const {
    for (int s = 0; s < sets_; ++s)
      if (slack_[static_cast<std::size_t>(s)] < 0) return false;
    return true;
  }
  // Deals a card of type `t` to place `p`, if the rest can still be dealt.
  bool deal(int t, int p) {
    const int bit = 1 << p;
    bool ok = true;
    for (int s = 0; s < sets_; ++s) {
      const bool confined = (s & t) == t, holds = (s & bit) != 0;
      if (holds && !confined && slack_[static_cast<std::size_t>(s)] == 0) ok = false;
    }
    if (!ok) return false;
    for (int s = 0; s < sets_; ++s) slack_[static_cast<std::size_t>(s)] += ((s & t) == t) - ((s & bit) != 0);
    return true;
  }

 private:
  int sets_;
  std::array<int, kMaxTypes> slack_;
};

// One hidden slot: where the card lies and which may_be place that is.
struct Slot {
  uint8_t* card;
  int place;
};

// Places the viewer's linked cards that are dealt now (narrowing `allowed` to
// one place each) so that every link holds and the other cards can still be
// dealt (`feasible`). Links may share cards (a pass and a draw), so the cards
// are placed together: a search that tries each card's places in a random
// order and backs up when a link or the deal of the rest fails. False (and
// `allowed` as it was) when there is no way. `narrowed`: whether `allowed` is
// narrower than the sets (if not, the rest can always be dealt).
template <std::size_t NC, class Feasible>
bool place_linked_cards(const Links& links, int num_slots, const std::array<uint8_t, 64>& card,
                        std::array<unsigned, 64>& allowed, const std::array<int, kMaxPlaces>& index,
                        const std::array<int, kMaxPlaces>& cap, const std::array<int8_t, NC>& place_of,
                        bool narrowed, Feasible feasible, Rng& rng) {
  uint64_t all = 0;
  for (const Link& link : links) all |= link.cards;
  std::array<int, 64> slot{};
  std::array<std::array<int, kMaxPlaces>, 64> option{};  // the places each may go to, in random order
  std::array<int, 64> options{};
  int linked = 0;
  for (int i = 0; i < num_slots; ++i) {
    if (!(all >> card[static_cast<std::size_t>(i)] & 1)) continue;
    auto& mine = option[static_cast<std::size_t>(linked)];
    int& count = options[static_cast<std::size_t>(linked)];
    for (int p = 0; p < kMaxPlaces; ++p)
      if ((allowed[static_cast<std::size_t>(i)] >> p & 1) && index[static_cast<std::size_t>(p)] >= 0)
        mine[static_cast<std::size_t>(count++)] = p;
    rng.shuffle(mine.begin(), mine.begin() + count);
    slot[static_cast<std::size_t>(linked++)] = i;
  }
  if (linked == 0) return !narrowed || feasible();  // (the sets alone always leave a deal)
  // Cards of a link that are not dealt now are where they are.
  std::array<int, kMaxLinks> room{};
  for (std::size_t l = 0; l < links.size(); ++l) {
    room[l] = links[l].most;
    for (std::size_t c = 0; c < NC; ++c)
      if ((links[l].cards >> c & 1) && place_of[c] >= 0 && (links[l].to >> place_of[c] & 1)) {
        bool dealt = false;
        for (int j = 0; j < linked; ++j)
          dealt = dealt || card[static_cast<std::size_t>(slot[static_cast<std::size_t>(j)])] == c;
        room[l] -= !dealt;
      }
  }
  std::array<int, kMaxPlaces> used_place{};
  const auto before = allowed;
  // Depth-first: card j goes to one of its places with room left everywhere;
  // the deal of the rest is checked once every linked card has a place.
  auto search = [&](auto& self, int j) -> bool {
    if (j == linked) return feasible();
    const auto jj = static_cast<std::size_t>(j);
    const auto i = static_cast<std::size_t>(slot[jj]);
    const int c = card[i];
    for (int o = 0; o < options[jj]; ++o) {
      const int p = option[jj][static_cast<std::size_t>(o)];
      const auto q = static_cast<std::size_t>(index[static_cast<std::size_t>(p)]);
      if (used_place[q] == cap[q]) continue;
      bool fits = true;
      for (std::size_t l = 0; l < links.size(); ++l)
        fits = fits && !((links[l].cards >> c & 1) && (links[l].to >> p & 1) && room[l] == 0);
      if (!fits) continue;
      for (std::size_t l = 0; l < links.size(); ++l)
        room[l] -= (links[l].cards >> c & 1) && (links[l].to >> p & 1);
      ++used_place[q];
      allowed[i] = 1u << p;
      if (self(self, j + 1)) return true;
      allowed[i] = before[i];
      --used_place[q];
      for (std::size_t l = 0; l < links.size(); ++l)
        room[l] += (links[l].cards >> c & 1) && (links[l].to >> p & 1);
    }
    return false;
  };
  if ((!narrowed || feasible()) && search(search, 0)) return true;  // (a first check saves a hopeless search)
  allowed = before;
  return false;
}

// Deals the cards of `slots` again: every card to a place it may be in, in the
// eyes of `viewer`, every place receiving as many cards as it held, and every
// link of the viewer holding, the cards the viewer passed in one of their
// layouts it cannot rule out. First a random such layout (the true one always
// works) and the linked cards' places (a search among those that leave a deal
// possible) are chosen; then
// cards are taken in random order and each goes to a random free slot among
// its places (kept only if the rest can still be dealt), so with no
// constraints this is a plain shuffle. The other seats' knowledge follows the
// cards: what they knew of the card that was in a slot, they now know of the
// card that is there. `place_of[card]` is where each card of the kind lies now.
template <class Mask, std::size_t NC>
void deal_again(int viewer, int n, std::array<Slot, 64>& slots, int num_slots,
                std::array<std::array<Mask, NC>, kMaxPlayers>& may_be, std::array<Links, kMaxPlayers>& links,
                std::array<PassedCards, kMaxPlayers>& passed, const std::array<int8_t, NC>& place_of,
                Rng& rng) {
  if (num_slots == 0) return;
  const auto& mine = may_be[static_cast<std::size_t>(viewer)];
  auto at = [](auto& array, int i) -> auto& { return array[static_cast<std::size_t>(i)]; };
  // Compress the places that hold unsure cards into bits 0..k-1.
  std::array<int, kMaxPlaces> index{}, cap{};
  index.fill(-1);
  int k = 0;
  for (int i = 0; i < num_slots; ++i) {
    int& place = at(index, at(slots, i).place);
    if (place < 0) place = k++;
    ++at(cap, place);
  }
  auto compress = [&](unsigned m) {
    int t = 0;
    for (int p = 0; p < kMaxPlaces; ++p)
      if ((m >> p & 1) && at(index, p) >= 0) t |= 1 << at(index, p);
    return t;
  };
  std::array<uint8_t, 64> card{}, order{}, chosen{};
  std::array<unsigned, 64> allowed{};
  for (int i = 0; i < num_slots; ++i) {
    at(card, i) = *at(slots, i).card;
    at(allowed, i) = mine[at(card, i)];
    at(order, i) = static_cast<uint8_t>(i);
  }
  std::array<int, kMaxTypes> count;
  auto feasible = [&] {
    std::fill(count.begin(), count.begin() + (1 << k), 0);
    for (int i = 0; i < num_slots; ++i) ++at(count, compress(at(allowed, i)));
    return Slack(count, cap, k).ok();
  };
  constexpr bool objective = std::is_same_v<Mask, uint16_t>;
  const PassedCards& seen = at(passed, viewer);
  // Narrows the passed cards to the seats of layout l; false if a card cannot be there.
  bool narrowed = false;
  auto take_layout = [&](int l) {
    narrowed = false;
    for (int j = 0; j < seen.num_cards; ++j) {
      const int c = at(seen.cards, j), w = seen.seat_of(l, j);
      const unsigned region = (1u << w) | (objective ? 1u << (may_be::kDiscarded + w) : 0u);
      int i = 0;
      while (i < num_slots && at(card, i) != c) ++i;
      if (i == num_slots) {
        if (place_of[c] < 0 || !(region >> place_of[c] & 1)) return false;  // not dealt: where it is
      } else {
        narrowed = narrowed || (at(allowed, i) & ~region) != 0;
        if ((at(allowed, i) &= region) == 0) return false;
      }
    }
    return true;
  };
  std::array<int, kMaxLayouts> layout_order{};
  for (int l = 0; l < seen.num_layouts; ++l) at(layout_order, l) = l;
  rng.shuffle(layout_order.begin(), layout_order.begin() + seen.num_layouts);
  const auto base = allowed;
  for (int o = 0; o < seen.num_layouts; ++o) {
    if (take_layout(at(layout_order, o)) && place_linked_cards(at(links, viewer), num_slots, card, allowed,
                                                               index, cap, place_of, narrowed, feasible, rng))
      break;
    allowed = base;
  }
  std::array<uint8_t, 64> type{};
  std::fill(count.begin(), count.begin() + (1 << k), 0);
  for (int i = 0; i < num_slots; ++i) {
    at(type, i) = static_cast<uint8_t>(compress(at(allowed, i)));
    ++at(count, at(type, i));
  }
  rng.shuffle(order.begin(), order.begin() + num_slots);
  Slack slack(count, cap, k);
  for (int o = 0; o < num_slots; ++o) {
    const int i = at(order, o);
    const int t = at(type, i);
    for (int options = t;;) {
      // A random free slot among the places still to try (the true deal is
      // one way to finish, so some place always works).
      int free = 0;
      for (int p = 0; p < k; ++p)
        if (options >> p & 1) free += at(cap, p);
      int pick = static_cast<int>(rng.below(static_cast<uint32_t>(free)));
      int p = 0;
      for (; p < k; ++p) {
        if (!(options >> p & 1)) continue;
        if (pick < at(cap, p)) break;
        pick -= at(cap, p);
      }
      if (slack.deal(t, p)) {
        --at(cap, p);
        at(chosen, i) = static_cast<uint8_t>(p);
        break;
      }
      options &= ~(1 << p);
    }
  }
  // Fill each place's slots with the cards dealt to it, in random order.
  std::array<uint8_t, 64> dealt{};
  for (int p = 0; p < k; ++p) {
    int num = 0;
    std::array<uint8_t, 64> pile{};
    for (int i = 0; i < num_slots; ++i)
      if (at(chosen, i) == p) at(pile, num++) = at(card, i);
    rng.shuffle(pile.begin(), pile.begin() + num);
    for (int i = 0; i < num_slots; ++i)
      if (at(index, at(slots, i).place) == p) at(dealt, i) = at(pile, --num);
  }
  // Relabel the other seats' knowledge: card at(card, i) became at(dealt, i).
  std::array<uint8_t, NC> relabel{};
  for (std::size_t c = 0; c < NC; ++c) relabel[c] = static_cast<uint8_t>(c);
  for (int i = 0; i < num_slots; ++i) relabel[at(card, i)] = at(dealt, i);
  const auto before = may_be;
  for (int i = 0; i < num_slots; ++i) *at(slots, i).card = at(dealt, i);
  for (int u = 0; u < n; ++u) {
    if (u == viewer) continue;
    for (int i = 0; i < num_slots; ++i) at(may_be, u)[at(dealt, i)] = at(before, u)[at(card, i)];
    for (Link& link : at(links, u)) {
      uint64_t cards = 0;
      for (std::size_t c = 0; c < NC; ++c)
        if (link.cards >> c & 1) cards |= uint64_t{1} << relabel[c];
      link.cards = cards;
    }
    PassedCards& theirs = at(passed, u);
    for (int j = 0; j < theirs.num_cards; ++j) at(theirs.cards, j) = relabel[at(theirs.cards, j)];
  }
}

}  // namespace

// ---------------------------------------------------------------- counts and queries

std::array<int, may_be::kSpecialistPlaces> State::specialist_place_counts() const {
  std::array<int, may_be::kSpecialistPlaces> count{};
  for (int w = 0; w < num_players_; ++w) count[static_cast<std::size_t>(w)] = player(w).hand_size;
  count[may_be::kDeck] = specialist_deck_count_;
  return count;
}

std::array<int, may_be::kObjectivePlaces> State::objective_place_counts() const {
  std::array<int, may_be::kObjectivePlaces> count{};
  for (int w = 0; w < num_players_; ++w) {
    count[static_cast<std::size_t>(may_be::kHand + w)] = player(w).num_objectives;
    count[static_cast<std::size_t>(may_be::kDiscarded + w)] = player(w).num_discarded_objectives;
  }
  count[may_be::kBox] = objective_box_count_;
  return count;
}

namespace {

// A card is known to be in a hand when the viewer's set holds that hand alone. A set always
// holds the card's true place (check_knowledge), so only the cards in that hand can be: the
// hand's few cards are looked up instead of every set (tests/lift_off "[known_hands]" compares
// this with a scan of every set).
template <class Mask, std::size_t N>
uint64_t known_in_hand(const std::array<Mask, N>& sets, const std::array<uint8_t, 3>& hand, int size,
                       int seat) {
  uint64_t known = 0;
  for (int i = 0; i < size; ++i) {
    const int card = hand[static_cast<std::size_t>(i)];
    if (sets[static_cast<std::size_t>(card)] == static_cast<Mask>(1u << (may_be::kHand + seat)))
      known |= uint64_t{1} << card;
  }
  return known;
}

}  // namespace

uint64_t State::known_specialists(int viewer, int seat) const {
  const Player& p = player(seat);
  return known_in_hand(specialist_may_be_[static_cast<std::size_t>(viewer)], p.hand, p.hand_size, seat);
}

uint32_t State::known_objectives(int viewer, int seat) const {
  const Player& p = player(seat);
  return static_cast<uint32_t>(known_in_hand(objective_may_be_[static_cast<std::size_t>(viewer)],
                                             p.objectives, p.num_objectives, seat));
}

State::KnownHands State::known_hands(int viewer) const {
  KnownHands out;
  for (int w = 0; w < num_players_; ++w) {
    out.specialists[static_cast<std::size_t>(w)] = known_specialists(viewer, w);
    out.objectives[static_cast<std::size_t>(w)] = known_objectives(viewer, w);
  }
  return out;
}

void State::card_places(CardPlaces& out) const {
  using namespace place;
  for (int w = 0; w < num_players_; ++w) {
    const Player& p = player(w);
    for (int i = 0; i < p.hand_size; ++i)
      out.push_back({kSpecialistHand + w, p.hand[static_cast<std::size_t>(i)]});
    for (int i = 0; i < p.num_played; ++i)
      out.push_back({kSpecialistPlayed + w, p.played[static_cast<std::size_t>(i)]});
    for (int i = 0; i < p.num_objectives; ++i)
      out.push_back({kObjectiveHand + w, kObjectiveCard + p.objectives[static_cast<std::size_t>(i)]});
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      out.push_back(
          {kObjectiveDiscarded + w, kObjectiveCard + p.discarded_objectives[static_cast<std::size_t>(i)]});
    for (int i = 0; i < p.num_earth; ++i)
      out.push_back({kEarth + w, kMissionCard + p.earth[static_cast<std::size_t>(i)]});
    for (int i = 0; i < p.num_space; ++i)
      out.push_back({kSpace + w, kMissionCard + p.space[static_cast<std::size_t>(i)]});
  }
  for (int i = 0; i < specialist_deck_count_; ++i)
    out.push_back({kSpecialistDeck, specialist_deck_[static_cast<std::size_t>(i)]});
  for (int i = 0; i < specialist_discard_count_; ++i)
    out.push_back({kSpecialistDiscard, specialist_discard_[static_cast<std::size_t>(i)]});
  for (int i = 0; i < objective_box_count_; ++i)
    out.push_back({kObjectiveBox, kObjectiveCard + objective_box_[static_cast<std::size_t>(i)]});
  for (std::size_t l = 0; l < kNumLevels; ++l) {
    for (int i = 0; i < mission_deck_count_[l]; ++i)
      out.push_back(
          {kMissionDeck + static_cast<int>(l), kMissionCard + mission_deck_[l][static_cast<std::size_t>(i)]});
    for (int i = 0; i < mission_discard_count_[l]; ++i)
      out.push_back({kMissionDiscard + static_cast<int>(l),
                     kMissionCard + mission_discard_[l][static_cast<std::size_t>(i)]});
  }
  for (int i = 0; i < num_drawn_; ++i)
    out.push_back({kMissionDrawn, kMissionCard + drawn_[static_cast<std::size_t>(i)]});
}

// Public places are known to all; a hidden card is known where the viewer's
// set holds one place.
void State::known_card_places(int viewer, CardPlaces& out) const {
  using namespace place;
  CardPlaces all;
  card_places(all);
  for (const CardPlace& c : all) {
    const bool specialist = c.card < kObjectiveCard;
    const bool objective = c.card >= kObjectiveCard && c.card < kMissionCard;
    if (specialist && (c.place == kSpecialistDeck || c.place < kSpecialistPlayed)) {
      if (single(specialist_may_be(viewer, c.card))) out.push_back(c);
    } else if (objective) {
      if (single(objective_may_be(viewer, c.card - kObjectiveCard))) out.push_back(c);
    } else {
      out.push_back(c);  // played and discarded specialists, every mission
    }
  }
}

// ---------------------------------------------------------------- updates

void State::tighten_knowledge(bool specialists, bool objectives) {
  if (specialists) tighten_specialists((1u << num_players_) - 1);
  if (!objectives) return;
  const auto objective_counts = objective_place_counts();
  for (std::size_t seat = 0; seat < static_cast<std::size_t>(num_players_); ++seat) {
    do tighten(objective_may_be_[seat], objective_counts);
    while (resolve_links(objective_may_be_[seat], objective_links_[seat]));
  }
}

void State::tighten_specialists(unsigned seats) {
  if (!specialists_settled_) seats = (1u << num_players_) - 1;  // (a document's sets may not be)
  const auto counts = specialist_place_counts();
  for (; seats != 0; seats &= seats - 1) {
    const auto seat = static_cast<std::size_t>(__builtin_ctz(seats));
    do tighten(specialist_may_be_[seat], counts);
    while (resolve_links(specialist_may_be_[seat], specialist_links_[seat]));
  }
  specialists_settled_ = true;
}

// What every seat knows from its own cards and the public table alone: its
// hand and discards exactly, every other hidden card anywhere hidden that still
// holds a card. At the end of the game every hand is shown.
void State::default_knowledge() {
  for (auto& m : specialist_may_be_) m.fill(0);
  for (auto& m : objective_may_be_) m.fill(0);
  specialist_links_ = {};
  objective_links_ = {};
  specialists_passed_ = {};
  objectives_passed_ = {};
  const auto spec_count = specialist_place_counts();
  const auto obj_count = objective_place_counts();
  for (int v = 0; v < num_players_; ++v) {
    uint8_t elsewhere = 0;
    for (int p = 0; p < may_be::kSpecialistPlaces; ++p)
      if (p != v && spec_count[static_cast<std::size_t>(p)] > 0)
        elsewhere = static_cast<uint8_t>(elsewhere | 1u << p);
    uint16_t obj_elsewhere = 0;
    for (int p = 0; p < may_be::kObjectivePlaces; ++p)
      if (p != may_be::kHand + v && p != may_be::kDiscarded + v && obj_count[static_cast<std::size_t>(p)] > 0)
        obj_elsewhere = static_cast<uint16_t>(obj_elsewhere | 1u << p);
    auto& spec = specialist_may_be_[static_cast<std::size_t>(v)];
    auto& obj = objective_may_be_[static_cast<std::size_t>(v)];
    for (int i = 0; i < specialist_deck_count_; ++i)
      spec[specialist_deck_[static_cast<std::size_t>(i)]] = elsewhere;
    for (int i = 0; i < objective_box_count_; ++i)
      obj[objective_box_[static_cast<std::size_t>(i)]] = obj_elsewhere;
    for (int w = 0; w < num_players_; ++w) {
      const Player& p = player(w);
      for (int i = 0; i < p.hand_size; ++i)
        spec[p.hand[static_cast<std::size_t>(i)]] = w == v ? static_cast<uint8_t>(1u << v) : elsewhere;
      for (int i = 0; i < p.num_objectives; ++i)
        obj[p.objectives[static_cast<std::size_t>(i)]] =
            w == v ? static_cast<uint16_t>(1u << v) : obj_elsewhere;
      for (int i = 0; i < p.num_discarded_objectives; ++i)
        obj[p.discarded_objectives[static_cast<std::size_t>(i)]] =
            w == v ? static_cast<uint16_t>(1u << (may_be::kDiscarded + v)) : obj_elsewhere;
    }
  }
  if (is_terminal()) reveal_hands();
  tighten_knowledge();
}

// At set-up the deck holds every specialist (everyone knows which) and each
// seat sees only its own three objectives.
void State::init_knowledge() { default_knowledge(); }

// A card that may have been in the deck may now be in any other hand that
// drew. Of the cards that cannot come from the deck, a hand that drew holds at
// most the ones it kept: a link per such hand.
void State::know_draws(const std::array<uint64_t, kMaxPlayers>& drawn) {
  unsigned drew = 0;
  for (int w = 0; w < num_players_; ++w)
    if (drawn[static_cast<std::size_t>(w)]) drew |= 1u << w;
  using L = Lanes<uint8_t>;
  for (int v = 0; v < num_players_; ++v) {
    // Eight sets at a time (see Lanes): a card v drew is in v's hand; a card that may have been
    // in the deck may also be in every other hand that drew.
    Words<uint8_t, kMaxSpecialists> words = load_words(specialist_may_be_[static_cast<std::size_t>(v)]);
    const uint64_t own_hand = (1u << v) * L::kLow, other_drawers = (drew & ~(1u << v)) * L::kLow;
    std::array<uint64_t, kMaxPlayers> not_from_deck{};  // cards that may be in each hand but not the deck
    for (std::size_t i = 0; i < words.size(); ++i) {
      uint64_t& x = words[i];
      const uint64_t drawn_here =
          fill_lanes<uint8_t>(lanes_of_bits(drawn[static_cast<std::size_t>(v)] >> (kSetsPerWord * i) & 0xFF));
      const uint64_t may_be_deck = fill_lanes<uint8_t>((x >> may_be::kDeck & L::kLow) << 7);
      x = (drawn_here & own_hand) | (~drawn_here & (x | (may_be_deck & other_drawers)));
      const uint64_t not_deck = x & ~fill_lanes<uint8_t>((x >> may_be::kDeck & L::kLow) << 7);
      if (not_deck == 0) continue;
      for (std::size_t w = 0; w < kMaxPlayers; ++w)
        not_from_deck[w] |= gather_lanes<uint8_t>((not_deck >> w) & L::kLow) << (kSetsPerWord * i);
    }
    std::memcpy(specialist_may_be_[static_cast<std::size_t>(v)].data(), words.data(), sizeof words);
    Links& links = specialist_links_[static_cast<std::size_t>(v)];
    int k = 0;
    while (k < kMaxLinks && links[static_cast<std::size_t>(k)].cards != 0) ++k;
    for (int w = 0; w < num_players_; ++w) {
      if (w == v || !(drew >> w & 1)) continue;
      const uint64_t kept_here = not_from_deck[static_cast<std::size_t>(w)];
      const int kept = player(w).hand_size - __builtin_popcountll(drawn[static_cast<std::size_t>(w)]);
      if (__builtin_popcountll(kept_here) > kept && k < kMaxLinks)
        links[static_cast<std::size_t>(k++)] = Link{kept_here, static_cast<uint16_t>(1u << w), kept};
    }
  }
  tighten_knowledge(true, false);
}

namespace {

// know_pass for one kind of card.
template <class Mask, std::size_t N>
void know_pass_of(int n, int dir, const std::array<uint64_t, kMaxPlayers>& before,
                  const std::array<uint64_t, kMaxPlayers>& after,
                  std::array<std::array<Mask, N>, kMaxPlayers>& may_be,
                  std::array<Links, kMaxPlayers>& links) {
  constexpr bool objective = std::is_same_v<Mask, uint16_t>;
  auto at = [](auto& array, int i) -> auto& { return array[static_cast<std::size_t>(i)]; };
  auto next = [&](int w) { return (w + dir + n) % n; };
  for (int v = 0; v < n; ++v) {
    std::array<Mask, N>& sets = at(may_be, v);
    // Links: for each pass v saw neither side of, the cards v knew to be in the passing hand
    // (a set holds its card's true place, so they are among that hand's cards), of which at
    // most as many as passed went on.
    Links& mine = at(links, v);
    mine = Links{};
    int k = 0;
    for (int w = 0; w < n; ++w) {
      const int to = next(w);
      if (w == v || to == v) continue;
      uint64_t known = 0;
      for (uint64_t bits = at(before, w); bits != 0; bits &= bits - 1) {
        const int card = __builtin_ctzll(bits);
        if (at(sets, card) == static_cast<Mask>(1u << w)) known |= uint64_t{1} << card;
      }
      const int gone = __builtin_popcountll(at(before, w) & ~at(after, w));
      if (__builtin_popcountll(known) <= gone) continue;
      const auto places =
          static_cast<uint16_t>((1u << to) | (objective ? 1u << (may_be::kDiscarded + to) : 0u));
      mine[static_cast<std::size_t>(k++)] = Link{known, places, gone};
    }
    // v sees its own cards go and come; the others' may have gone on (spread_to_next_hands).
    spread_to_next_hands(sets, n, dir, v);
    for (uint64_t bits = at(before, v) & ~at(after, v); bits != 0; bits &= bits - 1) {
      Mask& m = at(sets, __builtin_ctzll(bits));
      if (m != 0) m = static_cast<Mask>(1u << next(v));
    }
    for (uint64_t bits = at(after, v); bits != 0; bits &= bits - 1) {
      Mask& m = at(sets, __builtin_ctzll(bits));
      if (m != 0) m = static_cast<Mask>(1u << v);
    }
  }
}

}  // namespace

// A draft pass in the eyes of every seat (the sets, the links of the pass, the cards each seat
// passed), then what the counts tell.
void State::know_pass(bool objective, int dir, const std::array<uint64_t, kMaxPlayers>& before,
                      const std::array<uint64_t, kMaxPlayers>& after) {
  if (objective)
    know_pass_of(num_players_, dir, before, after, objective_may_be_, objective_links_);
  else
    know_pass_of(num_players_, dir, before, after, specialist_may_be_, specialist_links_);
  follow_passed_cards(objective, dir, before, after);
  tighten_knowledge(!objective, objective);
}

// ---------------------------------------------------------------- the cards a seat passed

namespace {

uint32_t seat_bits(int i, int seat) { return static_cast<uint32_t>(seat) << (2 * i); }

// Adds a layout unless it is there; false if there is no room left.
bool add_layout(PassedCards& p, uint32_t layout) {
  for (int l = 0; l < p.num_layouts; ++l)
    if (p.layouts[static_cast<std::size_t>(l)] == layout) return true;
  if (p.num_layouts == kMaxLayouts) return false;
  p.layouts[static_cast<std::size_t>(p.num_layouts++)] = layout;
  return true;
}

// Keeps the layouts `keep` accepts.
template <class Keep>
void keep_layouts(PassedCards& p, Keep keep) {
  int k = 0;
  for (int l = 0; l < p.num_layouts; ++l)
    if (keep(p.layouts[static_cast<std::size_t>(l)]))
      p.layouts[static_cast<std::size_t>(k++)] = p.layouts[static_cast<std::size_t>(l)];
  p.num_layouts = k;
}

// The seat sees card i now (it came back, or was played): it leaves the layouts.
void drop_card(PassedCards& p, int i) {
  PassedCards out;
  out.num_layouts = 0;
  for (int j = 0; j < p.num_cards; ++j)
    if (j != i) out.cards[static_cast<std::size_t>(out.num_cards++)] = p.cards[static_cast<std::size_t>(j)];
  const uint32_t low = (1u << (2 * i)) - 1;
  for (int l = 0; l < p.num_layouts; ++l) {
    const uint32_t layout = p.layouts[static_cast<std::size_t>(l)];
    add_layout(out, (layout & low) | (layout >> 2 & ~low));  // fewer layouts than before: always room
  }
  p = out;
}

// drop_card where every layout has the card at one seat (know_play keeps only those): the
// layouts stay distinct without it, so none needs the search for a repeat. The slots past the
// layouts kept (up to `layouts_before`) are cleared, as drop_card leaves them.
void drop_card_at_one_seat(PassedCards& p, int i, int layouts_before) {
  std::fill(p.layouts.begin() + p.num_layouts, p.layouts.begin() + layouts_before, 0u);
  for (int j = i + 1; j < p.num_cards; ++j)
    p.cards[static_cast<std::size_t>(j - 1)] = p.cards[static_cast<std::size_t>(j)];
  p.cards[static_cast<std::size_t>(--p.num_cards)] = 0;
  const uint32_t low = (1u << (2 * i)) - 1;
  for (int l = 0; l < p.num_layouts; ++l) {
    uint32_t& layout = p.layouts[static_cast<std::size_t>(l)];
    layout = (layout & low) | (layout >> 2 & ~low);
  }
}

// How many of the first `num_cards` cards a layout puts with `seat` (two bits per card).
int held_by(uint32_t layout, int num_cards, int seat) {
  const uint32_t cards = num_cards == 16 ? 0x55555555u : 0x55555555u & ((1u << (2 * num_cards)) - 1);
  const uint32_t differ = layout ^ (0x55555555u * static_cast<uint32_t>(seat));  // 00 where it is with seat
  uint32_t same = ~(differ | differ >> 1) & cards;                               // bit 2j: card j with seat
  same = (same & 0x33333333u) + (same >> 2 & 0x33333333u);
  same = (same + (same >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((same * 0x01010101u) >> 24);
}

int index_of(const PassedCards& p, int card) {
  for (int j = 0; j < p.num_cards; ++j)
    if (p.cards[static_cast<std::size_t>(j)] == card) return j;
  return -1;
}

}  // namespace

bool PassedCards::operator==(const PassedCards& o) const {
  return num_cards == o.num_cards && num_layouts == o.num_layouts &&
         std::equal(cards.begin(), cards.begin() + num_cards, o.cards.begin()) &&
         std::equal(layouts.begin(), layouts.begin() + num_layouts, o.layouts.begin());
}

// Cards each seat holds of a kind: its hand (objectives: and face-down discards).
std::array<int, kMaxPlayers> State::region_sizes(bool objective) const {
  std::array<int, kMaxPlayers> size{};
  for (int w = 0; w < num_players_; ++w)
    size[static_cast<std::size_t>(w)] =
        objective ? player(w).num_objectives + player(w).num_discarded_objectives : player(w).hand_size;
  return size;
}

// No seat holds more of the passed cards than it holds cards.
void State::fit_passed_cards(bool objective) {
  const auto size = region_sizes(objective);
  for (PassedCards& p : objective ? objectives_passed_ : specialists_passed_)
    keep_layouts(p, [&](uint32_t layout) {
      std::array<int, kMaxPlayers> held{};
      for (int j = 0; j < p.num_cards; ++j) ++held[layout >> (2 * j) & 3];
      for (int w = 0; w < num_players_; ++w)
        if (held[static_cast<std::size_t>(w)] > size[static_cast<std::size_t>(w)]) return false;
      return true;
    });
  if (!objective) specialist_layouts_fit_ = true;
}

// fit_passed_cards after `seat` played a specialist: only that hand shrank, and the layouts
// only lost the played card, so where every layout fitted before only `seat` can overflow now.
void State::fit_passed_specialists_after_play(int seat) {
  if (!specialist_layouts_fit_) {
    fit_passed_cards(false);
    return;
  }
  const int size = player(seat).hand_size;
  for (PassedCards& p : specialists_passed_)
    if (p.num_cards > size)  // (fewer cards always fit)
      keep_layouts(p, [&](uint32_t layout) { return held_by(layout, p.num_cards, seat) <= size; });
}

// A pass, in the eyes of each seat v: every card it follows stays with its
// holder or goes on to the next seat, no holder keeping more of them than it
// kept nor passing more than it passed, and exactly the ones v was given came
// to v (the cards v saw the giver pass, of those it did not follow, were in the
// giver's hand too). Then the cards that came to v leave the layouts and the
// cards v passed join them, in the receiver's hand.
void State::follow_passed_cards(bool objective, int dir, const std::array<uint64_t, kMaxPlayers>& before,
                                const std::array<uint64_t, kMaxPlayers>& after) {
  const int n = num_players_;
  auto at = [](auto& array, int i) -> auto& { return array[static_cast<std::size_t>(i)]; };
  std::array<int, kMaxPlayers> kept{}, passed{};
  for (int w = 0; w < n; ++w) {
    at(kept, w) = __builtin_popcountll(at(before, w) & at(after, w));
    at(passed, w) = __builtin_popcountll(at(before, w) & ~at(after, w));
  }
  for (int v = 0; v < n; ++v) {
    PassedCards& p = at(objective ? objectives_passed_ : specialists_passed_, v);
    const int giver = next_seat(v, -dir);
    const uint64_t seen = at(before, giver) & ~at(after, giver);
    PassedCards next;
    // Every way the followed cards can move; false when the layouts do not fit.
    auto advance = [&] {
      uint64_t followed = 0;
      for (int j = 0; j < p.num_cards; ++j) followed |= uint64_t{1} << at(p.cards, j);
      const int giver_room = __builtin_popcountll(at(before, giver)) - __builtin_popcountll(seen & ~followed);
      next = p;
      next.num_layouts = 0;
      bool full = false;
      for (int l = 0; l < p.num_layouts && !full; ++l) {
        const uint32_t layout = at(p.layouts, l);
        int at_giver = 0;
        for (int j = 0; j < p.num_cards; ++j) at_giver += p.seat_of(l, j) == giver;
        if (at_giver > giver_room) continue;
        std::array<int, kMaxPlayers> stay{}, go{};
        auto move = [&](auto& self, int j, uint32_t to) -> void {  // card by card
          if (full) return;
          if (j == p.num_cards) {
            full = !add_layout(next, to);
            return;
          }
          const int w = static_cast<int>(layout >> (2 * j) & 3);
          const bool came = w == giver && (seen >> at(p.cards, j) & 1);  // v saw it come: it went on
          if (!came && at(stay, w) < at(kept, w)) {
            ++at(stay, w);
            self(self, j + 1, to | seat_bits(j, w));
            --at(stay, w);
          }
          const int dest = next_seat(w, dir);
          if ((dest == v) == came && at(go, w) < at(passed, w)) {
            ++at(go, w);
            self(self, j + 1, to | seat_bits(j, dest));
            --at(go, w);
          }
        };
        move(move, 0, 0);
      }
      return !full;
    };
    // Past kMaxLayouts the seat stops following its oldest passed card (the
    // layouts of the others stay true: this only forgets).
    while (!advance()) drop_card(p, 0);
    p = next;
    for (int j = p.num_cards - 1; j >= 0; --j)
      if (at(after, v) >> at(p.cards, j) & 1) drop_card(p, j);
    const uint64_t given = at(before, v) & ~at(after, v);
    for (uint64_t bits = given; bits != 0; bits &= bits - 1) {
      if (p.num_cards == kMaxPassed) drop_card(p, 0);  // (never: the others hold at most 9)
      const int j = p.num_cards;
      at(p.cards, p.num_cards++) = static_cast<uint8_t>(__builtin_ctzll(bits));
      for (int l = 0; l < p.num_layouts; ++l) at(p.layouts, l) |= seat_bits(j, next_seat(v, dir));
    }
  }
  fit_passed_cards(objective);
}

// A played card is public; if it was linked, the link learns whether it was in its hand.
// A seat that knew the card was in that hand has nothing new to tighten: one card it counted
// there left with one card of the count (and no link holds a card known to one place).
void State::know_play(int seat, int card) {
  unsigned unsure = 0;  // the seats that did not know where the card was
  for (int v = 0; v < num_players_; ++v) {
    if (specialist_may_be_[static_cast<std::size_t>(v)][static_cast<std::size_t>(card)] != 1u << seat)
      unsure |= 1u << v;
    PassedCards& p = specialists_passed_[static_cast<std::size_t>(v)];
    if (const int j = index_of(p, card); j >= 0) {
      const int layouts_before = p.num_layouts;
      keep_layouts(p, [&](uint32_t layout) { return static_cast<int>(layout >> (2 * j) & 3) == seat; });
      drop_card_at_one_seat(p, j, layouts_before);
    }
    specialist_may_be_[static_cast<std::size_t>(v)][static_cast<std::size_t>(card)] = 0;
    for (Link& link : specialist_links_[static_cast<std::size_t>(v)])
      if (link.cards >> card & 1) {
        link.cards &= ~(uint64_t{1} << card);
        if (link.to >> seat & 1) --link.most;
      }
  }
  fit_passed_specialists_after_play(seat);
  tighten_specialists(unsure);
}

// The public discard becomes the deck: everyone knows what the deck holds.
// The cards in the other hands are then a set apart (no draw can bring a
// deck card in their stead before the next pass), so each seat follows them
// from here like the cards it passed: every way they can lie in the other
// hands, by their sets and the hand sizes.
void State::know_reshuffle() {
  for (int v = 0; v < num_players_; ++v)
    for (int i = 0; i < specialist_deck_count_; ++i) {
      uint8_t& m =
          specialist_may_be_[static_cast<std::size_t>(v)][specialist_deck_[static_cast<std::size_t>(i)]];
      if (m == 0) m = 1u << may_be::kDeck;
    }
  tighten_knowledge(true, false);
  for (int v = 0; v < num_players_; ++v) follow_other_hands(v);
}

void State::follow_other_hands(int v) {
  const int n = num_players_;
  PassedCards& p = specialists_passed_[static_cast<std::size_t>(v)];
  for (;;) {
    uint64_t followed = 0;
    for (int j = 0; j < p.num_cards; ++j) followed |= uint64_t{1} << p.cards[static_cast<std::size_t>(j)];
    // The set is v's to know: every hidden card outside its hand (the deck is public now).
    std::array<uint8_t, kMaxPassed> hidden{};
    int num_hidden = 0;
    for (int c = 0; c < kMaxSpecialists; ++c) {
      const uint8_t m = specialist_may_be(v, c);
      if (m != 0 && (m & may_be::kHands) == m && m != 1u << v && !(followed >> c & 1)) {
        if (p.num_cards + num_hidden == kMaxPassed) break;  // (never: the others hold at most 9)
        hidden[static_cast<std::size_t>(num_hidden++)] = static_cast<uint8_t>(c);
      }
    }
    PassedCards out = p;
    for (int i = 0; i < num_hidden; ++i)
      out.cards[static_cast<std::size_t>(out.num_cards++)] = hidden[static_cast<std::size_t>(i)];
    out.num_layouts = 0;
    bool full = false;
    for (int l = 0; l < p.num_layouts && !full; ++l) {
      std::array<int, kMaxPlayers> room{};
      for (int w = 0; w < n; ++w) room[static_cast<std::size_t>(w)] = w == v ? 0 : player(w).hand_size;
      for (int j = 0; j < p.num_cards; ++j) --room[static_cast<std::size_t>(p.seat_of(l, j))];
      auto place = [&](auto& self, int i, uint32_t layout) -> void {
        if (full) return;
        if (i == num_hidden) {
          full = !add_layout(out, layout);
          return;
        }
        const int c = hidden[static_cast<std::size_t>(i)];
        for (int w = 0; w < n; ++w) {
          if (room[static_cast<std::size_t>(w)] == 0 || !(specialist_may_be(v, c) >> w & 1)) continue;
          --room[static_cast<std::size_t>(w)];
          self(self, i + 1, layout | seat_bits(p.num_cards + i, w));
          ++room[static_cast<std::size_t>(w)];
        }
      };
      place(place, 0, p.layouts[static_cast<std::size_t>(l)]);
    }
    if (!full) {
      p = out;
      return;
    }
    drop_card(p, 0);  // too many layouts: follow one card fewer (the rest stay true)
  }
}

// A face-down discard: any objective that may have been in that hand may now be discarded.
void State::know_objective_discard(int seat, int card) {
  const auto discarded = static_cast<uint16_t>(1u << (may_be::kDiscarded + seat));
  for (int v = 0; v < num_players_; ++v) {
    auto& mine = objective_may_be_[static_cast<std::size_t>(v)];
    if (v == seat) {
      mine[static_cast<std::size_t>(card)] = discarded;
      continue;
    }
    for (auto& m : mine)
      if (m >> seat & 1) m = static_cast<uint16_t>(m | discarded);
  }
  tighten_knowledge(false, true);
}

// Every hand is shown; the links have nothing left to tell.
void State::reveal_hands() {
  specialist_links_ = {};
  objective_links_ = {};
  specialists_passed_ = {};
  objectives_passed_ = {};
  for (int v = 0; v < num_players_; ++v)
    for (int w = 0; w < num_players_; ++w) {
      const Player& p = player(w);
      for (int i = 0; i < p.hand_size; ++i)
        specialist_may_be_[static_cast<std::size_t>(v)][p.hand[static_cast<std::size_t>(i)]] =
            static_cast<uint8_t>(1u << w);
      for (int i = 0; i < p.num_objectives; ++i)
        objective_may_be_[static_cast<std::size_t>(v)][p.objectives[static_cast<std::size_t>(i)]] =
            static_cast<uint16_t>(1u << w);
    }
  tighten_knowledge();
}

// ---------------------------------------------------------------- redeterminization

// The viewer keeps its own cards, the public table and every card it knows
// the place of; the cards it is unsure of are dealt again, each to a place it
// may be in (see deal_again). The deck orders are hidden from everyone.
void State::redeterminize(int viewer, Rng& rng) {
  const auto v = static_cast<std::size_t>(viewer);
  std::array<Slot, 64> slots{};
  int num = 0;
  auto add = [&](uint8_t& card, int place, auto mask) {
    if (!single(mask)) slots[static_cast<std::size_t>(num++)] = {&card, place};
  };
  for (int i = 0; i < specialist_deck_count_; ++i) {
    uint8_t& card = specialist_deck_[static_cast<std::size_t>(i)];
    add(card, may_be::kDeck, specialist_may_be_[v][card]);
  }
  for (int w = 0; w < num_players_; ++w) {
    Player& p = players_[static_cast<std::size_t>(w)];
    if (w == viewer) continue;
    for (int i = 0; i < p.hand_size; ++i)
      add(p.hand[static_cast<std::size_t>(i)], may_be::kHand + w,
          specialist_may_be_[v][p.hand[static_cast<std::size_t>(i)]]);
  }
  std::array<int8_t, kMaxSpecialists> specialist_at{};
  specialist_at.fill(-1);
  for (int i = 0; i < specialist_deck_count_; ++i)
    specialist_at[specialist_deck_[static_cast<std::size_t>(i)]] = may_be::kDeck;
  for (int w = 0; w < num_players_; ++w)
    for (int i = 0; i < player(w).hand_size; ++i)
      specialist_at[player(w).hand[static_cast<std::size_t>(i)]] = static_cast<int8_t>(may_be::kHand + w);
  deal_again(viewer, num_players_, slots, num, specialist_may_be_, specialist_links_, specialists_passed_,
             specialist_at, rng);
  rng.shuffle(specialist_deck_.begin(), specialist_deck_.begin() + specialist_deck_count_);

  num = 0;
  for (int i = 0; i < objective_box_count_; ++i) {
    uint8_t& card = objective_box_[static_cast<std::size_t>(i)];
    add(card, may_be::kBox, objective_may_be_[v][card]);
  }
  for (int w = 0; w < num_players_; ++w) {
    Player& p = players_[static_cast<std::size_t>(w)];
    if (w == viewer) continue;
    for (int i = 0; i < p.num_objectives; ++i)
      add(p.objectives[static_cast<std::size_t>(i)], may_be::kHand + w,
          objective_may_be_[v][p.objectives[static_cast<std::size_t>(i)]]);
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      add(p.discarded_objectives[static_cast<std::size_t>(i)], may_be::kDiscarded + w,
          objective_may_be_[v][p.discarded_objectives[static_cast<std::size_t>(i)]]);
  }
  std::array<int8_t, kMaxObjectives> objective_at{};
  objective_at.fill(-1);
  for (int i = 0; i < objective_box_count_; ++i)
    objective_at[objective_box_[static_cast<std::size_t>(i)]] = may_be::kBox;
  for (int w = 0; w < num_players_; ++w) {
    const Player& p = player(w);
    for (int i = 0; i < p.num_objectives; ++i)
      objective_at[p.objectives[static_cast<std::size_t>(i)]] = static_cast<int8_t>(may_be::kHand + w);
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      objective_at[p.discarded_objectives[static_cast<std::size_t>(i)]] =
          static_cast<int8_t>(may_be::kDiscarded + w);
  }
  deal_again(viewer, num_players_, slots, num, objective_may_be_, objective_links_, objectives_passed_,
             objective_at, rng);

  // Mission deck orders are hidden; their contents are public.
  for (std::size_t l = 0; l < kNumLevels; ++l)
    rng.shuffle(mission_deck_[l].begin(), mission_deck_[l].begin() + mission_deck_count_[l]);
  rng_.reseed(rng.next());
}

}  // namespace rocketgym::lift_off
