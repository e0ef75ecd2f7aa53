#include "encoders/last_blast/last_blast_encoder.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdlib>

namespace rocketgym::last_blast {
namespace {

// Per seat and row: the rule's damage formula (jump + collision, less the front card's boost
// or shield) for entering that row of the seat's next column, without the state's assumption
// that the column is the one entered this round; and whether another cube holds that tile
// (State::tile_free). The seat's front card and the other cubes in the column are looked up
// once per seat, not once per row.
// min(damage, 12) / 12 as a feature, for damage 0..12: a table instead of a division per row.
constexpr std::array<float, 13> kDamageFeature = [] {
  std::array<float, 13> feature{};
  for (std::size_t d = 0; d < feature.size(); ++d) feature[d] = static_cast<float>(d) / 12.0f;
  return feature;
}();

void encode_next_step(const State& s, int viewer, float* x) {
  const int n = s.num_players();
  const Config& config = s.config();
  for (int k = 0; k < n; ++k, x += kMaxRows * Encoder::kNextStepFeatures) {
    const int p = (viewer + k) % n;
    if (s.status(p) != Status::kFlying || s.rocket(p).size == 0) continue;
    const int column = s.phase() == Phase::kFlight ? s.round() + (s.moved_this_round(p) ? 1 : 0) : 0;
    if (column >= kColumns) continue;
    const Card& front = config.cards[s.rocket(p).front()];
    const int boost = front.colour == Colour::kRed ? front.number : 0;
    const int shield = front.colour == Colour::kGreen ? front.number : 0;
    const int front_value = config.symbol_value[front.symbol];
    unsigned taken = 0;  // rows of `column` that another seat's cube holds
    for (int q = 0; q < n; ++q)
      if (q != p && s.cube_column(q) == column && s.cube_row(q) >= 0) taken |= 1u << s.cube_row(q);
    for (int r = 0; r < s.rows(); ++r) {
      const int jump = s.cube_column(p) < 0 ? 0 : std::max(0, std::abs(r - s.cube_row(p)) - boost);
      const int collision =
          std::max(0, std::abs(front_value - config.symbol_value[s.tile(r, column)]) - shield);
      x[r * Encoder::kNextStepFeatures] =
          kDamageFeature[static_cast<std::size_t>(std::min(jump + collision, 12))];
      x[r * Encoder::kNextStepFeatures + 1] = static_cast<float>(taken >> r & 1);
    }
  }
}

}  // namespace

// Layout, the one of a 4-player table for every player count (issue 31: one
// network serves 2-4 players): R = 5 rows (a table of n players uses the first
// n + 1, the others are zero), 4 seats relative to the viewer (the seats the
// table does not have are zero), C = 64 card slots:
//   field planes     R x 7 x 6   one-hot symbol of each tile
//   cube planes      4 x R x 7   where each seat's cube is
//   seats            4 x 10      status (flying/exploded/exited), moved this
//                                round, Start Player, to move, rocket size,
//                                score, hand size at the start of the pick
//                                round, has completed a pick this round
//   rockets          4 x 12 x 15 cards front to back (colour, number, symbol)
//   own hand         C           cards in the viewer's hand
//   own pick         C + 3       the viewer's hidden pick, its end, blind
//   others' hands    3 x C       cards the viewer knows are in that hand
//   known elsewhere  C           cards the viewer knows are in the deck,
//                                discards or another player's blind draw
//   reshuffled       C           cards reshuffled from the discards to finish
//                                a deal whose place the viewer does not know:
//                                each is in the deck or in another hand
//   global           25          phase, hand, pick, decision kind, cards
//                                outside hands and rockets, column, damage
//                                left, cards lost this turn, alternate rule
//   next step        4 x R x 2   per seat and row: the damage its rocket would
//                                take entering that row of its next column
//                                (/ 12), and whether another cube holds that
//                                tile. Derived from public facts; the network
//                                learned this arithmetic poorly on its own.
//   player count     3           one-hot 2, 3, 4 players
std::vector<int> Encoder::shape(const Config&, int) { return {kSize}; }

void Encoder::encode(const State& s, int viewer, float* out) {
  const int n = s.num_players();
  const int rows = s.rows();
  const Config& config = s.config();
  std::fill_n(out, kSize, 0.0f);  // the absent seats and rows stay zero
  float* x = out;
  std::array<int, kMaxPlayers> seat_at{};  // the seat at each offset from the viewer
  for (int k = 0; k < n; ++k) seat_at[static_cast<std::size_t>(k)] = (viewer + k) % n;
  const auto seat = [&](int relative) { return seat_at[static_cast<std::size_t>(relative)]; };

  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < kColumns; ++c) x[(r * kColumns + c) * kNumSymbols + s.tile(r, c)] = 1.0f;
  x += kMaxRows * kColumns * kNumSymbols;

  for (int k = 0; k < n; ++k) {
    const int p = seat(k);
    if (s.cube_row(p) >= 0) x[s.cube_row(p) * kColumns + s.cube_column(p)] = 1.0f;
    x += kMaxRows * kColumns;
  }
  x += (kMaxPlayers - n) * kMaxRows * kColumns;

  float* const seat_features = x;  // each seat's score is written with its rocket, below
  for (int k = 0; k < n; ++k) {
    const int p = seat(k);
    x[static_cast<int>(s.status(p))] = 1.0f;
    x[3] = s.moved_this_round(p);
    x[4] = s.phase() == Phase::kFlight && s.start_player() == p;
    x[5] = s.current_player() == p;
    x[6] = s.rocket(p).size / float(kRocketLength);
    // The hand as it was at the start of the pick round: a hidden pick from
    // the hand and a hidden blind draw must look the same to the others.
    const bool picked_from_hand = s.pick(p).card >= 0 && !s.pick(p).blind;
    x[8] = (s.hand_size(p) + picked_from_hand) / float(kHandSize);
    // A pick counts once it is complete: a player still placing a blind card
    // has, to the others, not picked yet (ruling 2).
    x[9] = s.pick(p).card >= 0 && s.pick(p).end >= 0;
    x += kSeatFeatures;
  }
  x += (kMaxPlayers - n) * kSeatFeatures;

  for (int k = 0; k < n; ++k) {
    const Rocket& rocket = s.rocket(seat(k));
    int score = 0;  // State::score, summed here as the cards are read
    for (int i = 0; i < rocket.size; ++i) {
      const Card& card = config.cards[rocket.card[i]];
      float* f = x + i * kCardFeatures;
      f[static_cast<int>(card.colour)] = 1.0f;
      if (card.number >= 1 && card.number <= 6) f[3 + card.number - 1] = 1.0f;
      f[9 + card.symbol] = 1.0f;
      score += card.number;
    }
    seat_features[k * kSeatFeatures + 7] = score / 36.0f;
    x += kRocketLength * kCardFeatures;
  }
  x += (kMaxPlayers - n) * kRocketLength * kCardFeatures;

  for (int i = 0; i < s.hand_size(viewer); ++i) x[s.hand_card(viewer, i)] = 1.0f;
  x += kMaxCards;
  const Pick& own = s.pick(viewer);
  if (own.card >= 0) {
    x[own.card] = 1.0f;
    if (own.end >= 0) x[kMaxCards + own.end] = 1.0f;
    x[kMaxCards + 2] = own.blind;
  }
  x += kMaxCards + 3;

  // What the viewer has seen of the other hands (the hand they passed on,
  // less the cards since revealed in rockets). A hidden pick still counts as
  // part of its hand: the viewer cannot tell which card it was.
  for (int k = 1; k < n; ++k) {
    const int p = seat(k);
    for (int i = 0; i < s.hand_size(p); ++i)
      if (s.knows(viewer, s.hand_card(p, i))) x[s.hand_card(p, i)] = 1.0f;
    const Pick& pick = s.pick(p);
    if (pick.card >= 0 && !pick.blind && s.knows(viewer, pick.card)) x[pick.card] = 1.0f;
    x += kMaxCards;
  }
  x += (kMaxPlayers - n) * kMaxCards;
  for (int c = 0; c < config.num_cards(); ++c) x[c] = s.knows(viewer, c);
  // ...minus the cards accounted for above and in rockets.
  for (int p = 0; p < n; ++p) {
    for (int i = 0; i < s.hand_size(p); ++i) x[s.hand_card(p, i)] = 0.0f;
    const Pick& pick = s.pick(p);
    if (pick.card >= 0 && (!pick.blind || p == viewer)) x[pick.card] = 0.0f;
    for (int i = 0; i < s.rocket(p).size; ++i) x[s.rocket(p).card[i]] = 0.0f;
  }
  x += kMaxCards;
  // Which reshuffled cards went to the deck and which to the others' hands
  // is hidden: all of them stay in this plane until the viewer sees them.
  for (int c = 0; c < config.num_cards(); ++c) x[c] = s.is_reshuffled(c) && !s.knows(viewer, c);
  x += kMaxCards;

  x[static_cast<int>(s.phase())] = 1.0f;
  x += 3;
  if (s.phase() == Phase::kDraft) {
    x[s.hand_number()] = 1.0f;
    x[kHands + s.pick_number()] = 1.0f;
  }
  x += kHands + kPicksPerHand;
  // Decision kind: pick, place the blind card, move, remove a card. Only the
  // drawer knows that the pick under way is a blind draw being placed.
  if (s.phase() == Phase::kDraft)
    x[s.awaiting_blind_placement() && s.current_player() == viewer ? 1 : 0] = 1.0f;
  if (s.phase() == Phase::kFlight) x[s.awaiting_removal_choice() ? 3 : 2] = 1.0f;
  x += 4;
  x[0] = s.undrafted_count() / float(kMaxCards);
  x += 1;
  if (s.phase() == Phase::kFlight) x[s.round()] = 1.0f;
  x += kColumns;
  x[0] = s.damage_left() / float(kRocketLength);
  x[1] = std::min(s.removed_this_turn(), 3) / 3.0f;
  x[2] = config.exploded_block_row;
  x += 3;
  encode_next_step(s, viewer, x);
  x += kMaxPlayers * kMaxRows * kNextStepFeatures;
  encode_player_count(n, x);
  assert(x + kPlayerCountFeatures == out + kSize);
}

}  // namespace rocketgym::last_blast
