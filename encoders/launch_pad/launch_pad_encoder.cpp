#include "encoders/launch_pad/launch_pad_encoder.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace rocketgym::launch_pad {

std::vector<int> Encoder::shape(const Config&, int) { return {kSize}; }

namespace {

// Bit b of a rocket's bonuses as four floats, for each of the 16 values.
struct BonusFloats {
  float bit[16][kNumBonusTypes];
  constexpr BonusFloats() : bit() {
    for (int v = 0; v < 16; ++v)
      for (int b = 0; b < kNumBonusTypes; ++b) bit[v][b] = static_cast<float>((v >> b) & 1);
  }
};
constexpr BonusFloats kBonusFloats;

// Writes the rocket in one slot (zeros stay as encode() cleared them) and adds its points and
// bonus cards to the seat's sums, so that the seat's score and bonus count come from this one
// pass over the slots (State::score and bonus_cards_in_play each made another). An empty slot
// writes nothing and adds nothing (its Rocket is the default one: no bonus cards).
void encode_rocket(const State& s, const Rocket& r, bool eligible, float* out, int& score, int& bonuses) {
  bonuses += r.num_bonuses();
  score += s.rocket_points(r);
  const RocketSpec& spec = s.config().rocket[static_cast<std::size_t>(r.kind)];
  out[0] = 1.0f;
  out[1 + r.kind] = 1.0f;
  out[5 + r.zone] = 1.0f;
  out[8] = r.metal;
  out[9] = r.fuel;
  out[10] = static_cast<float>(spec.metal - r.metal);
  out[11] = static_cast<float>(spec.fuel - r.fuel);
  out[12] = s.rocket_complete(r) ? 1.0f : 0.0f;
  std::memcpy(out + 13, kBonusFloats.bit[r.bonuses & 15], sizeof(float) * kNumBonusTypes);
  out[17] = eligible ? 1.0f : 0.0f;
}

// The copies of each card type `viewer` knows to be in `place` (envs/launch_pad/launch_pad.h's
// knowledge model), as State::known_count counts them.
void encode_known(const std::array<uint8_t, kNumCardTypes>& known, float* out) {
  for (int t = 0; t < kNumCardTypes; ++t) out[t] = known[static_cast<std::size_t>(t)];
}

float* encode_seat(const State& s, int viewer, int seat, int current, float* out) {
  const PlayerArea& p = s.area(seat);
  float* const summary = out;
  out[0] = 1.0f;
  out[1] = static_cast<float>(p.hand_size) / 10.0f;
  out[4] = seat == s.turn_player() ? 1.0f : 0.0f;
  out[5] = seat == current ? 1.0f : 0.0f;
  out += 6;
  for (int zone = 0; zone < kNumZones; ++zone, out += 4)
    if (p.expert[static_cast<std::size_t>(zone)] >= 0)
      out[p.expert[static_cast<std::size_t>(zone)] - kEngineer] = 1.0f;
  for (int zone = 0; zone < kNumZones; ++zone) *out++ = p.launch_pads[static_cast<std::size_t>(zone)];
  for (int k = 0; k < kNumSpecialtyTypes; ++k) *out++ = p.specialties[static_cast<std::size_t>(k)];
  int score = s.score_without_rockets(seat), bonuses = 0;
  const bool mover = seat == s.turn_player();
  for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
    const Rocket& r = p.rockets[static_cast<std::size_t>(slot)];
    if (r.exists())
      encode_rocket(s, r, mover && s.advance_eligible(slot), out + slot * Encoder::kRocketFeatures, score,
                    bonuses);
  }
  summary[2] = static_cast<float>(score) / 50.0f;    // State::score
  summary[3] = static_cast<float>(bonuses) / 10.0f;  // State::bonus_cards_in_play
  out += kMaxRocketSlots * Encoder::kRocketFeatures;
  if (seat != viewer) encode_known(s.known_cards(viewer, kPlaceHand + seat), out);  // its own: "own hand"
  return out + kNumCardTypes;
}

}  // namespace

void Encoder::encode(const State& s, int viewer, float* out) {
  std::memset(out, 0, sizeof(float) * kSize);  // libc's memset: wider stores than an inlined fill
  const int n = s.num_players(), current = s.current_player();
  for (int r = 0; r < n; ++r) encode_seat(s, viewer, (viewer + r) % n, current, out + r * kSeatFeatures);
  float* g = out + kMaxPlayers * kSeatFeatures;
  const PlayerArea& me = s.area(viewer);
  for (int t = 0; t < kNumCardTypes; ++t) g[t] = me.hand[static_cast<std::size_t>(t)];
  g += kNumCardTypes;
  *g++ = static_cast<float>(s.hand_limit(viewer)) / 8.0f;
  // While the discard order is chosen, the cards whose place is chosen count
  // as on the discard pile, the first of them on top (it will be).
  // Counted in bytes, then written once.
  static_assert(kMaxCards < 256, "a type's copies fit a byte");
  uint8_t discards[kNumCardTypes] = {};
  for (int i = 0; i < s.discard_pile_size(); ++i) ++discards[s.discard_pile_card(i)];
  for (int i = 0; i < s.ordered_size(); ++i) ++discards[s.ordered_card(i)];
  for (int t = 0; t < kNumCardTypes; ++t) g[t] = discards[t];
  g += kNumCardTypes;
  const int top = s.ordered_size() > 0 ? s.ordered_card(0) : s.discard_top();
  if (top >= 0) g[top] = 1.0f;
  g += kNumCardTypes;
  *g++ = static_cast<float>(s.discard_pile_size() + s.ordered_size()) / 50.0f;
  *g++ = static_cast<float>(s.draw_pile_size()) / 50.0f;
  *g++ = static_cast<float>(s.launch_pads_in_area());
  *g++ = static_cast<float>(s.launch_pads_aside());
  *g++ = static_cast<float>(s.launch_pads_in_draw_pile());  // public: every other Launch Pad card is visible
  *g++ = static_cast<float>(s.launch_pad_region()) / 50.0f;
  *g++ = s.countdown() ? 1.0f : 0.0f;
  *g++ = static_cast<float>(s.final_turns_left());
  g[static_cast<int>(s.step())] = 1.0f;
  g += kNumSteps;
  *g++ = s.redraw_used() ? 1.0f : 0.0f;
  *g++ = static_cast<float>(s.advanced_from(kConstructionZone));
  *g++ = static_cast<float>(s.advanced_from(kQualityControlZone));
  if (s.offer_card() >= 0) g[s.offer_card()] = 1.0f;
  g += kNumCardTypes;
  for (int t = 0; t < kNumCardTypes; ++t) g[t] = static_cast<float>(s.staged_count(t));
  g += kNumCardTypes;
  const Config& c = s.config();
  *g++ = c.short_game;
  *g++ = c.long_game;
  *g++ = c.super_powers;
  *g++ = c.negotiations;
  *g++ = static_cast<float>(s.decisions()) / static_cast<float>(kMaxDecisions);
  encode_known(s.known_cards(viewer, kPlaceDrawPile), g);
  g[kLaunchPad] = static_cast<float>(s.launch_pads_in_draw_pile());  // as known_count: every seat counts them
  g += kNumCardTypes;
  encode_player_count(n, g);  // last, so that the blocks before it kept their offsets (issue 31)
  g += kPlayerCountFeatures;
  assert(g == out + kSize);
}

}  // namespace rocketgym::launch_pad
