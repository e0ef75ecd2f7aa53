#include "encoders/lift_off/lift_off_encoder.h"

#include <algorithm>
#include <cstring>

namespace rocketgym::lift_off {
namespace {

// Writes consecutive fields into the caller's buffer, which encode() clears
// first: a field writes only its non-zero entries (clearing the whole
// observation at once is cheaper than a fill per field).
struct Writer {
  float* out;
  int at = 0;
  void value(float v) { out[at++] = v; }
  void one_hot(int index, int size) {
    if (index >= 0 && index < size) out[at + index] = 1.0f;
    at += size;
  }
  // Bit i of `bits` (i < size) sets entry i; only the set bits are visited
  // (masks are sparse).
  void mask(uint64_t bits, int size) {
    if (size < 64) bits &= (uint64_t{1} << size) - 1;
    for (; bits != 0; bits &= bits - 1) out[at + __builtin_ctzll(bits)] = 1.0f;
    at += size;
  }
  // `scale` per copy of each card (entry = card) among cards[0, n).
  template <class Card>
  void counts(Card card, int n, int size, float scale) {
    for (int i = 0; i < n; ++i) out[at + card(i)] += scale;
    at += size;
  }
  template <std::size_t N>
  void counts(const std::array<uint8_t, N>& cards, int n, int size, float scale) {
    counts([&](int i) { return cards[static_cast<std::size_t>(i)]; }, n, size, scale);
  }
  // Entry = card for each of cards[0, n) (distinct cards: a mask written from the list).
  template <class Card>
  void marks(Card card, int n, int size) {
    for (int i = 0; i < n; ++i) out[at + card(i)] = 1.0f;
    at += size;
  }
  template <std::size_t N>
  void marks(const std::array<uint8_t, N>& cards, int n, int size) {
    marks([&](int i) { return cards[static_cast<std::size_t>(i)]; }, n, size);
  }
  void skip(int size) { at += size; }  // entries that stay zero
};

void encode_global(const State& s, int viewer, Writer& w) {
  const int n = s.num_players();
  auto offset = [&](int seat) { return seat < 0 ? -1 : (seat - viewer + n) % n; };
  w.one_hot(s.round() - 1, 8);
  w.one_hot(s.phase() - 1, 2);
  w.one_hot(static_cast<int>(s.step()), 17);
  w.one_hot(n - 2, 3);
  w.value(s.direction() > 0 ? 1.0f : 0.0f);
  w.value(static_cast<float>(s.play_pass()));
  w.one_hot(offset(s.current_player()), kMaxPlayers);
  w.one_hot(offset(s.start_player()), kMaxPlayers);
  w.value(static_cast<float>(s.specialist_deck_size()) / kMaxSpecialists);
  w.marks([&](int i) { return s.specialist_discard_card(i); }, s.specialist_discard_size(), kMaxSpecialists);
  for (int level = 1; level <= kNumLevels; ++level)
    w.value(static_cast<float>(s.mission_deck_size(level)) / kMaxDeckCards);
  // Half the copies of each mission title in the discard piles, from one pass
  // over the piles (asking mission_discard_count per title was 15 % of a step).
  for (int level = 1; level <= kNumLevels; ++level)
    for (int i = 0; i < s.mission_discard_size(level); ++i)
      w.out[w.at + s.mission_discard_card(level, i)] += 0.5f;
  w.skip(kMaxMissionTypes);
  w.value(static_cast<float>(s.station_next_cost()) / 12.0f);
  w.value(static_cast<float>(s.station_covered()) / 10.0f);
  // Half the copies of each mission title drawn, then loaded (below), one pass over the cards.
  w.counts([&](int i) { return s.drawn_card(i); }, s.num_drawn(), kMaxMissionTypes, 0.5f);
  w.value(static_cast<float>(s.keeps_left()) / 3.0f);
  w.value(static_cast<float>(s.kept_this_draw()) / 3.0f);
  w.one_hot(s.played_card(), kMaxSpecialists);
  w.mask(static_cast<uint64_t>(s.used_actions_mask()), 2);
  w.value(s.took_money() ? 1.0f : 0.0f);
  w.value(static_cast<float>(s.bulk_bought()) / 3.0f);
  w.value(static_cast<float>(s.exchange_given()) / 2.0f);
  w.value(static_cast<float>(s.exchange_taken()) / 2.0f);
  const bool loading = s.step() == Step::kLoadRocket;
  w.value(loading && s.launch_uses_lab() ? 1.0f : 0.0f);
  w.counts([&](int i) { return s.loaded_card(i); }, s.num_loaded(), kMaxMissionTypes, 0.5f);
  w.value(static_cast<float>(s.applied_capacity()) / 6.0f);
  w.value(loading ? static_cast<float>(s.rocket_capacity_now()) / 10.0f : 0.0f);
}

void encode_private(const State& s, int viewer, Writer& w) {
  const Player& me = s.player(viewer);
  w.marks(me.hand, me.hand_size, kMaxSpecialists);
  w.marks(me.objectives, me.num_objectives, kMaxObjectives);
  const Step st = s.step();
  const bool objective_draft = st == Step::kObjectiveKeep || st == Step::kObjectivePass;
  const bool specialist_draft = st == Step::kSpecialistKeep || st == Step::kSpecialistPass;
  w.one_hot(specialist_draft && me.pick >= 0 ? me.hand[static_cast<std::size_t>(me.pick)] : -1,
            kMaxSpecialists);
  w.one_hot(objective_draft && me.pick >= 0 ? me.objectives[static_cast<std::size_t>(me.pick)] : -1,
            kMaxObjectives);
  w.marks(me.discarded_objectives, me.num_discarded_objectives, kMaxObjectives);
}

void encode_seat(const State& s, int viewer, int seat, Writer& w) {
  const Player& p = s.player(seat);
  const Config& c = s.config();
  w.value(1.0f);
  w.value(static_cast<float>(p.vp) / 100.0f);
  w.value(static_cast<float>(p.money) / 50.0f);
  w.value(static_cast<float>(p.income) / 10.0f);
  w.value(static_cast<float>(s.capacity(seat)) / 6.0f);
  w.value(static_cast<float>(s.launch_cost(seat)) / 10.0f);
  w.value(static_cast<float>(p.capacity_upgrades) / 5.0f);
  w.value(static_cast<float>(p.propulsion_upgrades) / 5.0f);
  w.value(static_cast<float>(p.num_earth) / 10.0f);
  w.value(static_cast<float>(p.num_space) / 20.0f);
  const int level4_at = w.at;  // level-4 missions in space / 7: counted with the titles below
  w.skip(1);
  w.one_hot(p.lab_level - 1, kNumLevels);
  for (int col = 0; col < kNumColours; ++col)
    w.value(static_cast<float>(p.tech[static_cast<std::size_t>(col)]) / 10.0f);
  w.value(static_cast<float>(p.station_investments) / 5.0f);
  w.counts(p.earth, p.num_earth, kMaxMissionTypes, 1.0f);
  int level4 = 0;  // missions_in_space_of_level(seat, 4), from the same pass
  for (int k = 0; k < p.num_space; ++k) {
    const int title = p.space[static_cast<std::size_t>(k)];
    w.out[w.at + title] += 1.0f;
    level4 += c.missions[static_cast<std::size_t>(title)].level == 4;
  }
  w.skip(kMaxMissionTypes);
  w.out[level4_at] = static_cast<float>(level4) / 7.0f;
  w.value(static_cast<float>(p.hand_size) / 3.0f);
  w.value(static_cast<float>(p.num_objectives) / 3.0f);
  w.value(static_cast<float>(p.num_discarded_objectives) / 3.0f);
  w.marks(p.played, p.num_played, kMaxSpecialists);
  w.value(p.banner_used[0] ? 1.0f : 0.0f);
  w.value(p.banner_used[1] ? 1.0f : 0.0f);
  w.value(static_cast<float>(p.missions_launched) / static_cast<float>(c.missions_per_round));
  w.value(p.lab_symbol_used ? 1.0f : 0.0f);
  w.value(s.has_picked(seat) ? 1.0f : 0.0f);
  w.mask(seat == viewer ? 0 : s.known_specialists(viewer, seat), kMaxSpecialists);
  w.mask(seat == viewer ? 0 : s.known_objectives(viewer, seat), kMaxObjectives);
  // Once the game is over every objective is revealed by the final scoring (zeros before).
  if (!s.is_terminal()) {
    w.skip(2);
    return;
  }
  w.value(static_cast<float>(s.final_vp(seat)) / 100.0f);
  w.value(static_cast<float>(p.vp + s.final_vp(seat)) / 200.0f);
}

}  // namespace

void Encoder::encode(const State& s, int viewer, float* out) {
  std::memset(out, 0, sizeof(float) * kSize);  // libc's memset: wider stores than an inlined fill
  Writer w{out};
  encode_global(s, viewer, w);
  encode_private(s, viewer, w);
  const int n = s.num_players();
  for (int k = 0; k < kMaxPlayers; ++k) {
    if (k < n)
      encode_seat(s, viewer, (viewer + k) % n, w);
    else
      w.skip(kSeatSize);
  }
}

}  // namespace rocketgym::lift_off
