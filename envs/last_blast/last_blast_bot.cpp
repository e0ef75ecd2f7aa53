#include "envs/last_blast/last_blast_bot.h"

#include <cstdlib>

namespace rocketgym::last_blast {
namespace {

// How much a card is worth to a rocket still being drafted. Shields and Jump
// Boosts protect only at the front, so they are drafted for the front and
// valued by the damage they save; science cards go to the back and are valued
// by their points.
double draft_value(const Card& card) {
  switch (card.colour) {
    case Colour::kGreen:
      return 2.0 + 1.5 * card.number;
    case Colour::kRed:
      return 1.0 + card.number;
    default:
      return card.number;
  }
}

End draft_end(const Card& card) { return card.colour == Colour::kAmber ? kBack : kFront; }

Action draft_action(const State& s, Rng& rng) {
  const Config& config = s.config();
  const int p = s.current_player();
  if (s.awaiting_blind_placement())
    return draft_end(config.cards[s.pick(p).card]) == kFront ? kPlaceBlindFront : kPlaceBlindBack;
  double best_value = -1.0;
  int best_card = -1;
  for (int i = 0; i < s.hand_size(p); ++i) {
    const int c = s.hand_card(p, i);
    const double value = draft_value(config.cards[c]) + 0.01 * rng.uniform01();
    if (value > best_value) best_value = value, best_card = c;
  }
  // A weak last choice: an unseen card is worth about 4 on average.
  if (best_value < 3.0 && s.is_legal(kDrawBlind)) return kDrawBlind;
  const End end = s.rocket(p).size == 0 ? kFront : draft_end(config.cards[best_card]);
  return kPickBase + 2 * best_card + end;
}

// The cheapest next step from `row` into `column` with `front` at the front.
int best_next_damage(const State& s, int row, int column, int front) {
  if (column >= kColumns || front < 0) return 0;
  const Config& config = s.config();
  const Card& card = config.cards[front];
  int best = 1 << 20;
  for (int r = 0; r < s.rows(); ++r) {
    int jump = std::abs(r - row);
    if (card.colour == Colour::kRed) jump = std::max(0, jump - card.number);
    int collision = std::abs(config.symbol_value[card.symbol] - config.symbol_value[s.tile(r, column)]);
    if (card.colour == Colour::kGreen) collision = std::max(0, collision - card.number);
    best = std::min(best, jump + collision);
  }
  return best;
}

Action move_action(const State& s, Rng& rng) {
  const int p = s.current_player();
  const Rocket& rocket = s.rocket(p);
  double best_cost = 1e9;
  Action best = -1;
  for (int r = 0; r < s.rows(); ++r) {
    if (!s.tile_free(r, s.round(), p)) continue;
    const int damage = s.move_damage(p, r);
    // After any damage the front card is the second one.
    const int next_front = damage == 0 ? rocket.front() : (rocket.size > damage ? rocket.card[1] : -1);
    const double cost =
        10.0 * damage + best_next_damage(s, r, s.round() + 1, next_front) + 0.01 * rng.uniform01();
    if (cost < best_cost) best_cost = cost, best = kMoveBase + r;
  }
  return best;
}

// Keep the more useful end: a protective front card or the higher points.
Action removal_action(const State& s) {
  const Config& config = s.config();
  const Rocket& rocket = s.rocket(s.current_player());
  const Card& front = config.cards[rocket.front()];
  const Card& back = config.cards[rocket.back()];
  const double keep_front = front.number + (front.colour == Colour::kAmber ? 0.0 : 1.5);
  return keep_front < back.number ? kRemoveFront : kRemoveBack;
}

}  // namespace

Action heuristic_action(const State& s, Rng& rng) {
  if (s.phase() == Phase::kDraft) return draft_action(s, rng);
  if (s.awaiting_removal_choice()) return removal_action(s);
  return move_action(s, rng);
}

}  // namespace rocketgym::last_blast
