#include "encoders/rocket_squad/rocket_squad_encoder.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace rocketgym::rocket_squad {
namespace {

// A cursor that writes consecutive features into an observation that encode()
// cleared first: a field writes only its non-zero entries (one clear of the
// whole observation is cheaper than a fill per block, and most entries are zero).
struct Writer {
  float* out;
  int pos = 0;
  void put(float v) { out[pos++] = v; }
  void flag(bool set) {  // a 0/1 feature: only a 1 is written
    if (set) out[pos] = 1.0f;
    ++pos;
  }
  void one_hot(int index, int size) {
    if (index >= 0 && index < size) out[pos + index] = 1.0f;
    pos += size;
  }
  float* block(int size) {  // entries that stay zero unless the caller writes them
    float* start = out + pos;
    pos += size;
    return start;
  }
};

// v / 10 for v = 0..kMaxValue (a booster's value, a rocket's boxes), the float the
// division writes, looked up.
constexpr std::array<float, kMaxValue + 1> kTenths = [] {
  std::array<float, kMaxValue + 1> tenths{};
  for (int v = 0; v <= kMaxValue; ++v) tenths[static_cast<std::size_t>(v)] = static_cast<float>(v) / 10.0f;
  return tenths;
}();

// `scale` per card cards[i], i < count, whose known_by[i] has the viewer's bit: the
// known_by bytes are read eight at a time (of the last word, only the bytes before `count`)
// and words holding no card the viewer knows are skipped (most cards of the draw pile are
// unknown to the viewer; a hand is one word).
template <std::size_t N>
void known_cards(const std::array<CardType, N>& cards, const std::array<uint8_t, N>& known_by, int count,
                 int viewer, float scale, float* out) {
  static_assert(N % 8 == 0, "whole words");
  const uint64_t lanes = 0x0101010101010101ULL << viewer;
  const auto add_known = [&](int first, uint64_t bits) {  // bits: the viewer's lanes of the word at `first`
    for (; bits != 0; bits &= bits - 1)
      out[cards[static_cast<std::size_t>(first + __builtin_ctzll(bits) / 8)]] += scale;
  };
  int i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t word;
    std::memcpy(&word, &known_by[static_cast<std::size_t>(i)], sizeof word);
    add_known(i, word & lanes);
  }
  if (i < count) {
    uint64_t word;
    std::memcpy(&word, &known_by[static_cast<std::size_t>(i)], sizeof word);
    add_known(i, word & lanes & ((1ULL << (8 * (count - i))) - 1));  // little-endian: byte k is bits 8k..
  }
}

// A rocket's ten features (booster, wild, value / 10, launched, Crew, Joker, Imaginary
// Friend, boxes / 10, room / 10, can take a box) in a cleared block: only the non-zero ones.
void rocket_features(const Rocket& rk, float* f) {
  if (!rk.has_booster()) return;  // an empty location holds nothing else (check_invariants)
  f[0] = 1.0f;
  if (booster_colour(rk.booster) == kWild) f[1] = 1.0f;
  f[2] = kTenths[static_cast<std::size_t>(rk.need())];
  if (rk.launched) f[3] = 1.0f;
  if (rk.crew) f[4] = 1.0f;
  if (rk.joker) f[5] = 1.0f;
  if (rk.friend_beside) f[6] = 1.0f;
  f[7] = kTenths[rk.num_boxes];
  if (!rk.launched) f[8] = rk.room() / 10.0f;
  if (rk.can_take(1)) f[9] = 1.0f;
}

}  // namespace

std::vector<int> Encoder::shape(const Config&, int) { return {kSize}; }

void Encoder::encode(const State& s, int viewer, float* out) {
  const int n = s.num_players();
  const auto rel = [&](int seat) { return (seat - viewer + n) % n; };
  const auto abs_seat = [&](int relative) { return (viewer + relative) % n; };
  std::memset(out, 0, sizeof(float) * kSize);  // libc's memset: wider stores than an inlined fill
  Writer w{out};

  float* hand = w.block(kNumCardTypes);
  for (int i = 0; i < s.hand(viewer).count; ++i) hand[s.hand(viewer).cards[i]] += 0.5f;
  float* discards = w.block(kNumCardTypes);
  const DiscardPile& pile = s.discard_pile();
  for (int i = 0; i < pile.count; ++i) discards[pile.cards[i]] += 0.25f;
  for (int r = 1; r < kMaxPlayers; ++r) {
    float* known = w.block(kNumCardTypes);  // zero for a seat the table does not have
    if (r >= n) continue;
    const Hand& h = s.hand(abs_seat(r));
    known_cards(h.cards, h.known_by, h.count, viewer, 0.5f, known);
  }
  float* bottom = w.block(kNumCardTypes);
  known_cards(s.draw_pile().cards, s.draw_pile().known_by, s.draw_pile().count, viewer, 0.5f, bottom);
  const bool my_jackie = s.phase() == Phase::kJackieKeep && s.turn_player() == viewer;
  for (int i = 0; i < kJackieLook; ++i) {
    float* slot = w.block(kNumCardTypes);
    if (my_jackie && i < s.jackie().count) slot[s.jackie().cards[i]] = 1.0f;
  }

  for (int r = 0; r < n; ++r) {
    const int p = abs_seat(r);
    for (int loc = 0; loc < kNumLocations; ++loc) rocket_features(s.rocket(p, loc), w.block(10));
    w.put(s.hand(p).count / 8.0f);
    const State::LaunchTally tally = s.launch_tally(p);
    if (tally.launched > 0) {  // otherwise no score and no tallest rocket either
      w.put(tally.launched / 4.0f);
      w.put(tally.score / 40.0f);
      w.put(tally.tallest / 10.0f);
    } else {
      w.block(3);
    }
    w.flag(s.turn_player() == p);
    w.flag(s.owes_final_turn(p));
    w.flag(s.end_triggered() && s.trigger_seat() == p);
    w.flag(!s.first_turn(p));
  }
  w.block((kMaxPlayers - n) * kSeatFeatures);  // the seats the table does not have

  w.put(s.draw_pile().count / 100.0f);
  w.put(s.discard_pile().count / 100.0f);
  w.flag(s.end_triggered());
  w.flag(s.in_final_turn());
  w.put(std::min(1.0f, static_cast<float>(s.turn_number()) / static_cast<float>(s.config().max_turns)));
  w.flag(s.redraw_used());

  // The viewer's own pending decision; nothing about anybody else's.
  const bool deciding = s.current_player() == viewer;
  w.one_hot(deciding ? static_cast<int>(s.phase()) : -1, 5);
  w.one_hot(deciding && s.phase() == Phase::kCrew ? s.crew_location() : -1, kNumLocations);

  // The card on the table and its chain of blocks (all played face up).
  const Chain& c = s.chain();
  w.flag(c.active);
  w.one_hot(c.active ? c.card : -1, kNumSpecials);
  w.one_hot(!c.active ? -1 : c.top == kMom ? 0 : c.top == kGrandma ? 1 : 2, 3);
  w.put(c.blocks / 4.0f);
  w.flag(c.blocks % 2);
  int target_loc = -1, own_loc = -1;
  if (c.active) {
    const int a = c.action;
    if (a >= action::kPlayDad && a < action::kPlayJack) {
      target_loc = (a - action::kPlayDad) % 16 / 4;
      own_loc = (a - action::kPlayDad) % 4;
    } else if (a >= action::kPlayJoker && a < action::kAceDog) {
      target_loc = (a - action::kPlayJoker) % 4;
    } else if (a >= action::kAceDog && a < action::kAceScare) {
      target_loc = (a - action::kAceDog) % 8 / 2;
    } else if (a >= action::kAceScare && a < action::kPlayBalloons) {
      own_loc = (a - action::kAceScare) % 4;
    } else if (a >= action::kBalloonsScare) {
      own_loc = a - action::kBalloonsScare;
    }
  }
  w.one_hot(target_loc, kNumLocations);
  w.one_hot(own_loc, kNumLocations);
  w.one_hot(c.active ? rel(c.top_player) : -1, kMaxPlayers);
  float* against = w.block(kMaxPlayers);
  float* balloons = w.block(kMaxPlayers);
  for (int p = 0; p < n && c.active; ++p) {
    if ((c.against >> p) & 1) against[rel(p)] = 1.0f;
  }
  if (c.active && c.action >= action::kPlayBalloons && c.action < action::kBalloonsScare) {
    int code = c.action - action::kPlayBalloons;
    for (int offset = 1; offset <= 3; ++offset, code /= 5)
      if (code % 5 != action::kNoTarget && offset < n) balloons[rel(s.seat(offset))] = (code % 5 + 1) / 4.0f;
  }
  // Uncle (from, to, count) and Jack/Jackie need no more than the card itself and `against`.
  int uncle_from = -1, uncle_to = -1;
  float uncle_count = 0.0f;
  if (c.active && c.action >= action::kPlayUncle && c.action < action::kPlayJackie) {
    uncle_from = (c.action - action::kPlayUncle) / 48;
    uncle_to = (c.action - action::kPlayUncle) % 48 / kMaxValue;
    uncle_count = ((c.action - action::kPlayUncle) % kMaxValue + 1) / 10.0f;
  }
  w.one_hot(uncle_from, kNumLocations);
  w.one_hot(uncle_to, kNumLocations);
  w.put(uncle_count);

  const AcePass& ace = s.ace();
  w.flag(ace.active);
  w.flag(ace.active && ace.direction > 0);
  w.flag(ace.active && ace.direction < 0);
  w.put(ace.count / 10.0f);
  w.one_hot(ace.active ? rel(ace.next_seat) : -1, kMaxPlayers);
  encode_player_count(n, w.block(kPlayerCountFeatures));
  assert(w.pos == kSize);
}

}  // namespace rocketgym::rocket_squad
