// The Last Blast rules engine: set-up, draft, flight, end of game.
#include "envs/last_blast/last_blast.h"

#include <algorithm>
#include <cstdlib>

namespace rocketgym::last_blast {
namespace {

constexpr uint8_t bit(int player) { return static_cast<uint8_t>(1u << player); }
constexpr uint64_t card_bit(int card) { return uint64_t{1} << card; }

}  // namespace

// ---------------------------------------------------------------------------
// Rocket

void Rocket::add(int c, End end) {
  if (end == kFront) {
    for (int i = size; i > 0; --i) card[i] = card[i - 1];
    card[0] = static_cast<int8_t>(c);
  } else {
    card[size] = static_cast<int8_t>(c);
  }
  ++size;
}

void Rocket::remove(End end) {
  if (end == kFront)
    for (int i = 1; i < size; ++i) card[i - 1] = card[i];
  --size;
}

// ---------------------------------------------------------------------------
// Set-up

State::State(const Config& config, int num_players, uint64_t seed)
    : config_(&config), rng_(seed), n_(static_cast<int8_t>(num_players)) {
  if (num_players < kMinPlayers || num_players > kMaxPlayers)
    throw Error("last_blast is played by 2 to 4 players, not " + std::to_string(num_players));
  // The field: (players + 1) x 7 tiles drawn at random; the rest are set aside.
  std::array<int8_t, kMaxTiles> tiles{};
  int num_tiles = 0;
  for (int s = 0; s < kNumSymbols; ++s)
    for (int k = 0; k < config.tiles_per_symbol[s]; ++k) tiles[num_tiles++] = static_cast<int8_t>(s);
  rng_.shuffle(tiles.begin(), tiles.begin() + num_tiles);
  int next = 0;
  for (auto& row : field_) row.fill(-1);
  for (int r = 0; r < rows(); ++r)
    for (int c = 0; c < kColumns; ++c) field_[r][c] = tiles[next++];
  while (next < num_tiles) set_aside_[set_aside_size_++] = tiles[next++];

  deck_size_ = static_cast<int8_t>(config.num_cards());
  for (int c = 0; c < deck_size_; ++c) deck_[c] = static_cast<int8_t>(c);
  rng_.shuffle(deck_.begin(), deck_.begin() + deck_size_);
  for (auto& p : pick_) p = Pick{};
  status_.fill(Status::kFlying);
  row_.fill(-1);
  column_.fill(-1);
  moved_.fill(false);
  deal_hand();
}

// Deals the next hand. The rulebook deals 5 cards each, reshuffling the
// discards into a new deck when it runs out. With four players the 48 cards
// cannot fill three hands of five (4 x 12 cards end in rockets, plus the
// discards): our ruling deals the largest equal hand the remaining cards allow
// (4 each for the third hand of a 4-player game), so that every rocket still
// gets its 12 cards; the fourth pick is then from a single card.
void State::deal_hand() {
  const int size = std::min(kHandSize, (deck_size_ + discard_size_) / n_);
  for (int k = 0; k < size; ++k)
    for (int p = 0; p < seat_count(); ++p) {
      if (deck_size_ == 0) reshuffle_for_deal();
      const int c = deck_[--deck_size_];
      hand_[p][hand_size_[p]++] = static_cast<int8_t>(c);
      known_by_[c] = bit(p);  // nobody else knows what was dealt
    }
}

// Rulebook: "shuffle the cards previously discarded to form a new deck".
void State::reshuffle_discards() {
  for (int i = 0; i < discard_size_; ++i) deck_[i] = discard_[i];
  deck_size_ = discard_size_;
  discard_size_ = 0;
  rng_.shuffle(deck_.begin(), deck_.begin() + deck_size_);
}

// Everybody knew the discards; once they are shuffled and dealt on, each of
// them is "in the deck or in some other player's hand" to everybody but its
// receiver. So nobody knows where a reshuffled card is any more (telling the
// ones left in the deck from the ones dealt would show who got which), but
// every seat knows it is one of the reshuffled cards (reshuffled_).
void State::reshuffle_for_deal() {
  reshuffle_discards();
  for (int i = 0; i < deck_size_; ++i) {
    reshuffled_ |= card_bit(deck_[i]);
    known_by_[deck_[i]] = 0;
  }
}

// The top card of the deck for a blind draw. An empty deck is first replaced
// by the shuffled discards: those stay known to everybody as cards of the
// undrafted pile, so nothing tells the others that the deck was empty and
// somebody drew blind.
int State::draw_blind_card() {
  if (deck_size_ == 0) reshuffle_discards();
  return deck_[--deck_size_];
}

// ---------------------------------------------------------------------------
// Queries

int State::current_player() const {
  switch (phase_) {
    case Phase::kDraft:
      return picker_;
    case Phase::kFlight:
      return mover_;
    default:
      return -1;
  }
}

bool State::awaiting_blind_placement() const {
  return phase_ == Phase::kDraft && pick_[picker_].blind && pick_[picker_].end < 0;
}

int State::undrafted_count() const {
  int blind = 0;
  for (int p = 0; p < n_; ++p) blind += pick_[p].blind;
  return deck_size_ + discard_size_ + blind;
}

bool State::tile_free(int row, int column, int mover) const {
  for (int q = 0; q < n_; ++q)
    if (q != mover && row_[q] == row && column_[q] == column) return false;
  return true;
}

// Ruling 5: entering column 1 costs no jump damage; later, one per row changed.
// A red (Jump Boost) front card takes its printed number off (minimum 0).
int State::jump_damage(int p, int row) const {
  if (column_[p] < 0) return 0;
  const int rows_jumped = std::abs(row - row_[p]);
  const Card& front = config_->cards[rocket_[p].front()];
  return front.colour == Colour::kRed ? std::max(0, rows_jumped - front.number) : rows_jumped;
}

// Ruling 6: the difference of the symbol values of the front card and the new
// tile; a green (Shield) front card takes its printed number off (minimum 0).
int State::collision_damage(int p, int row) const {
  const Card& front = config_->cards[rocket_[p].front()];
  const int tile_symbol = field_[row][round_];
  const int difference = std::abs(config_->symbol_value[front.symbol] - config_->symbol_value[tile_symbol]);
  return front.colour == Colour::kGreen ? std::max(0, difference - front.number) : difference;
}

int State::move_damage(int p, int row) const { return jump_damage(p, row) + collision_damage(p, row); }

int State::score(int p) const {
  int total = 0;
  for (int i = 0; i < rocket_[p].size; ++i) total += config_->cards[rocket_[p].card[i]].number;
  return total;
}

bool State::pick_legal(int card, int end) const {
  if (card >= config_->num_cards()) return false;
  // The first card starts the rocket: "front" and "back" would be the same.
  if (end == kBack && rocket_[picker_].size == 0) return false;
  for (int i = 0; i < hand_size_[picker_]; ++i)
    if (hand_[picker_][i] == card) return true;
  return false;
}

bool State::is_legal(Action a) const {
  if (a < 0 || a >= kNumActions) return false;
  if (phase_ == Phase::kDraft) {
    if (awaiting_blind_placement()) return a == kPlaceBlindFront || a == kPlaceBlindBack;
    if (a < kDrawBlind) return pick_legal(a / 2, a % 2);
    // The blind draw is the alternative to the fourth pick of a hand.
    if (a == kDrawBlind) return pick_number_ == kPicksPerHand - 1 && deck_size_ + discard_size_ > 0;
    return false;
  }
  if (phase_ == Phase::kFlight) {
    if (damage_left_ > 0) return a == kRemoveFront || a == kRemoveBack;
    const int row = a - kMoveBase;
    return row >= 0 && row < rows() && tile_free(row, round_, mover_);
  }
  return false;
}

// is_legal of every action. Only the actions that can be legal now are asked
// (the picker's cards, the rows): asking all 138 was half of a step.
void State::legal_actions_mask(uint8_t* out) const {
  std::fill_n(out, kNumActions, uint8_t{0});
  auto allow = [&](Action a) { out[a] = is_legal(a) ? 1 : 0; };
  if (phase_ == Phase::kDraft) {
    if (awaiting_blind_placement()) {
      allow(kPlaceBlindFront);
      allow(kPlaceBlindBack);
      return;
    }
    for (int i = 0; i < hand_size_[picker_]; ++i) {
      allow(kPickBase + 2 * hand_[picker_][i] + kFront);
      allow(kPickBase + 2 * hand_[picker_][i] + kBack);
    }
    allow(kDrawBlind);
  } else if (phase_ == Phase::kFlight) {
    if (damage_left_ > 0) {
      allow(kRemoveFront);
      allow(kRemoveBack);
      return;
    }
    for (int row = 0; row < rows(); ++row) allow(kMoveBase + row);
  }
}

// ---------------------------------------------------------------------------
// Draft

void State::validate_action(Action a) const {
  if (a < 0 || a >= kNumActions)
    throw IllegalAction("last_blast: action " + std::to_string(a) + " out of range [0, " +
                        std::to_string(kNumActions - 1) + "]");
  if (phase_ == Phase::kOver) throw IllegalAction("last_blast: the game is over");
  if (!is_legal(a))
    throw IllegalAction("last_blast: action " + std::to_string(a) + " (" + action_to_string(a) +
                        ") is not legal for player " + std::to_string(current_player()) + " now");
}

void State::apply(Action a) {
  validate_action(a);
  if (phase_ == Phase::kDraft) {
    apply_draft(a);
  } else {
    apply_flight(a);
  }
}

void State::apply_draft(Action a) {
  Pick& pick = pick_[picker_];
  if (a == kPlaceBlindFront || a == kPlaceBlindBack) {
    pick.end = a == kPlaceBlindFront ? kFront : kBack;
    finish_pick();
  } else if (a == kDrawBlind) {
    const int c = draw_blind_card();
    known_by_[c] |= bit(picker_);  // the drawer looks at it before choosing its end
    pick = Pick{static_cast<int8_t>(c), -1, true};
  } else {
    const int card = a / 2;
    auto& hand = hand_[picker_];
    int i = 0;
    while (hand[i] != card) ++i;
    for (; i + 1 < hand_size_[picker_]; ++i) hand[i] = hand[i + 1];
    --hand_size_[picker_];
    pick = Pick{static_cast<int8_t>(card), static_cast<int8_t>(a % 2), false};
    finish_pick();
  }
}

// Picks are simultaneous: each one stays hidden until every player has picked.
void State::finish_pick() {
  if (++picker_ < n_) return;
  reveal_picks();
}

void State::reveal_picks() {
  for (int p = 0; p < n_; ++p) {
    const Pick pick = pick_[p];
    rocket_[p].add(pick.card, static_cast<End>(pick.end));
    known_by_[pick.card] = static_cast<uint8_t>(bit(n_) - 1);
    pick_[p] = Pick{};
  }
  picker_ = 0;
  if (pick_number_ + 1 < kPicksPerHand) {
    ++pick_number_;
    pass_hands();
    return;
  }
  discard_hands();
  pick_number_ = 0;
  if (hand_number_ + 1 < kHands) {
    ++hand_number_;
    deal_hand();
  } else {
    start_flight();
  }
}

// Hands go left (to the next seat clockwise) for the first and third hand and
// right for the second; with two players both mean a swap.
void State::pass_hands() {
  const int step = hand_number_ == 1 ? n_ - 1 : 1;
  const auto old_hand = hand_;
  const auto old_size = hand_size_;
  for (int p = 0; p < n_; ++p) {
    const int to = (p + step) % n_;
    hand_[to] = old_hand[p];
    hand_size_[to] = old_size[p];
    for (int i = 0; i < hand_size_[to]; ++i) known_by_[hand_[to][i]] |= bit(to);
  }
}

// The cards left after the fourth pick go face down to the discard pile; who
// knew them (having held that hand) knows they are there.
void State::discard_hands() {
  for (int p = 0; p < n_; ++p) {
    for (int i = 0; i < hand_size_[p]; ++i) discard_[discard_size_++] = hand_[p][i];
    hand_size_[p] = 0;
  }
}

// ---------------------------------------------------------------------------
// Flight

// Ruling 4: the smallest printed number on a front card takes the Start Player
// token; a tie is broken at random among the tied players.
void State::start_flight() {
  phase_ = Phase::kFlight;
  round_ = 0;
  int lowest = 99, tied = 0;
  for (int p = 0; p < n_; ++p) {
    const int number = config_->cards[rocket_[p].front()].number;
    if (number < lowest) lowest = number, tied = 0;
    if (number == lowest) ++tied;
  }
  int chosen = static_cast<int>(tied > 1 ? rng_.below(static_cast<uint32_t>(tied)) : 0);
  for (int p = 0; p < n_; ++p)
    if (config_->cards[rocket_[p].front()].number == lowest && chosen-- == 0)
      start_player_ = static_cast<int8_t>(p);
  mover_ = start_player_;
}

void State::apply_flight(Action a) {
  if (a == kRemoveFront || a == kRemoveBack) {
    lose_card(a == kRemoveFront ? kFront : kBack);
    --damage_left_;
    ++removed_this_turn_;
  } else {
    const int row = a - kMoveBase;
    // The damage is worked out from the front card at the start of the turn.
    damage_left_ = static_cast<int8_t>(move_damage(mover_, row));
    removed_this_turn_ = 0;
    row_[mover_] = static_cast<int8_t>(row);
    column_[mover_] = round_;
    moved_[mover_] = true;
  }
  resolve_damage();
}

// Ruling 6: the 1st card lost in a turn is the front one, the 2nd the back
// one, each further one from the end the player chooses (a decision), unless
// the rest of the rocket goes anyway.
void State::resolve_damage() {
  Rocket& rocket = rocket_[mover_];
  while (damage_left_ > 0 && rocket.size > 0) {
    if (removed_this_turn_ == 0) {
      lose_card(kFront);
    } else if (removed_this_turn_ == 1) {
      lose_card(kBack);
    } else if (damage_left_ >= rocket.size) {
      lose_card(kFront);  // every card goes: the order does not matter
    } else {
      return;  // the mover chooses the end of the next card
    }
    --damage_left_;
    ++removed_this_turn_;
  }
  damage_left_ = 0;
  if (rocket.size == 0) explode(mover_);
  end_turn();
}

void State::lose_card(End end) {
  Rocket& rocket = rocket_[mover_];
  lost_[lost_size_++] = static_cast<int8_t>(end == kFront ? rocket.front() : rocket.back());
  rocket.remove(end);
}

// Ruling 7: an empty rocket explodes and its player takes no further part. In
// the alternate rule its cube stays on the field (and moves on every round).
void State::explode(int p) {
  status_[p] = Status::kExploded;
  if (!config_->exploded_block_row) row_[p] = column_[p] = -1;
}

int State::next_mover() const {
  for (int k = 0; k < n_; ++k) {
    const int q = (start_player_ + k) % n_;
    if (status_[q] == Status::kFlying && !moved_[q]) return q;
  }
  return -1;
}

void State::end_turn() {
  removed_this_turn_ = 0;
  mover_ = static_cast<int8_t>(next_mover());
  if (mover_ < 0) end_round();
}

void State::end_round() {
  int flying = 0;
  for (int p = 0; p < n_; ++p) flying += status_[p] == Status::kFlying;
  // Ruling 7: the last rocket standing wins at once; no rocket left is a draw.
  if (flying <= 1) {
    finish_game();
    return;
  }
  if (round_ + 1 == kColumns) {  // ruling 8: after column 7 the rockets exit
    for (int p = 0; p < n_; ++p)
      if (status_[p] == Status::kFlying) status_[p] = Status::kExited;
    finish_game();
    return;
  }
  ++round_;
  moved_.fill(false);
  choose_start_player();
  // Alternate rule: "before the Start Player takes their turn", exploded cubes
  // move one tile forward in their row, into the column entered this round
  // (the game ends after column 7, so they never run off the field).
  for (int p = 0; p < seat_count(); ++p)
    if (status_[p] == Status::kExploded && row_[p] >= 0) ++column_[p];
  mover_ = static_cast<int8_t>(next_mover());
}

// Ruling 4: fewest cards, then lowest printed number on the front card, then
// the first such player clockwise after the current holder (who comes last).
// Exploded rockets cannot take the token.
void State::choose_start_player() {
  int best = -1;
  for (int k = 1; k <= n_; ++k) {
    const int q = (start_player_ + k) % n_;
    if (status_[q] != Status::kFlying) continue;
    if (best < 0) {
      best = q;
      continue;
    }
    const int size_q = rocket_[q].size, size_best = rocket_[best].size;
    const int front_q = config_->cards[rocket_[q].front()].number;
    const int front_best = config_->cards[rocket_[best].front()].number;
    if (size_q < size_best || (size_q == size_best && front_q < front_best)) best = q;
  }
  start_player_ = static_cast<int8_t>(best);
}

void State::finish_game() {
  phase_ = Phase::kOver;
  mover_ = -1;
  damage_left_ = 0;
}

// ---------------------------------------------------------------------------
// Outcome

void State::scores(int* out) const {
  for (int p = 0; p < n_; ++p) out[p] = score(p);
}

// Rulings 7 and 8: exploded rockets cannot win and tie among themselves; the
// rockets still in one piece (the exited ones, or the last one standing) rank
// above them by the printed numbers left, equal totals tying.
void State::returns(float* out) const {
  if (!is_terminal()) {
    for (int p = 0; p < n_; ++p) out[p] = 0.0f;
    return;
  }
  std::array<double, kMaxPlayers> standing{}, points{};
  for (int p = 0; p < n_; ++p) {
    points[p] = score(p);
    standing[p] = status_[p] == Status::kExploded ? 0.0 : 100.0 + score(p);
  }
  compute_returns(config_->reward, n_, standing.data(), points.data(), out);
}

// ---------------------------------------------------------------------------
// Hidden information

// Resamples what `viewer` does not know, keeping what every seat knows:
//  - the cards whose place the viewer does not know (unseen cards of other
//    hands, the deck, others' blind draws) are dealt anew among the slots
//    they fill; each slot keeps who knows it, and reshuffled cards swap only
//    with reshuffled cards (everybody knows which ones those are);
//  - the deck order (unknown to all);
//  - the others' hidden picks: which card of the hand, which end, and on the
//    fourth pick whether it was a blind draw (ruling 2), including whether the
//    player to decide is already placing a blind card.
// Whether a pick was a blind draw is kept only while a blind draw of this
// round may have reshuffled the discards (the deck then holds known cards);
// redrawing would need the order of the draws.
void State::redeterminize(int viewer, Rng& rng) {
  const bool draft = phase_ == Phase::kDraft;
  const bool new_kinds = draft && blind_draws_resamplable(viewer);
  if (draft) take_back_picks(viewer, new_kinds);
  shuffle_unknown_cards(viewer, rng);
  rng.shuffle(deck_.begin(), deck_.begin() + deck_size_);
  if (draft) repick(viewer, new_kinds, rng);
  rng_.reseed(rng.next());
}

// True on the fourth pick while the deck holds only cards nobody knows and
// enough of them for every other player to have drawn blind.
bool State::blind_draws_resamplable(int viewer) const {
  if (pick_number_ != kPicksPerHand - 1) return false;
  for (int i = 0; i < deck_size_; ++i)
    if (known_by_[deck_[i]] != 0) return false;
  int unknown = deck_size_;
  for (int p = 0; p < n_; ++p) {
    if (!pick_[p].blind) continue;
    if (known_by_[pick_[p].card] != bit(p)) return false;
    if (p != viewer) ++unknown;
  }
  return unknown >= n_ - 1;
}

// Puts the others' hidden picks back where they came from: a card picked from
// the hand into the hand, a blind draw (when its kind is resampled) on the deck.
void State::take_back_picks(int viewer, bool new_kinds) {
  for (int p = 0; p < seat_count(); ++p) {
    Pick& pick = pick_[p];
    if (p == viewer || pick.card < 0) continue;
    if (!pick.blind) {
      hand_[p][hand_size_[p]++] = pick.card;
    } else if (new_kinds) {
      deck_[deck_size_++] = pick.card;
      known_by_[pick.card] = 0;
    } else {
      continue;  // stays a blind draw; its card is resampled in place
    }
    pick = Pick{};
  }
}

// Deals the cards `viewer` does not know anew among their slots, reshuffled
// cards and the others apart.
void State::shuffle_unknown_cards(int viewer, Rng& rng) {
  std::array<int8_t*, kMaxCards> slot{};
  std::array<uint8_t, kMaxCards> profile{};
  std::array<int8_t, kMaxCards> pool{};
  for (const bool reshuffled : {false, true}) {
    int count = 0;
    const auto visit = [&](int8_t& card) {
      if (knows(viewer, card) || is_reshuffled(card) != reshuffled) return;
      slot[count] = &card;
      profile[count] = known_by_[card];
      pool[count++] = card;
    };
    for (int i = 0; i < deck_size_; ++i) visit(deck_[i]);
    for (int i = 0; i < discard_size_; ++i) visit(discard_[i]);
    for (int p = 0; p < n_; ++p) {
      if (p == viewer) continue;
      for (int i = 0; i < hand_size_[p]; ++i) visit(hand_[p][i]);
      if (pick_[p].card >= 0) visit(pick_[p].card);
    }
    rng.shuffle(pool.begin(), pool.begin() + count);
    for (int i = 0; i < count; ++i) {
      *slot[i] = pool[i];
      known_by_[pool[i]] = profile[i];
    }
  }
}

// The others' picks of this round, chosen anew in seat order (the order they
// were made in): every player before the picker has picked, from the hand or
// (fourth pick, when resampled) blind; the picker may be placing a blind card.
void State::repick(int viewer, bool new_kinds, Rng& rng) {
  for (int p = 0; p < n_; ++p) {
    if (p == viewer) continue;
    Pick& pick = pick_[p];
    if (pick.card >= 0) {  // a blind draw kept as one: only its end is new
      if (pick.end >= 0) pick.end = random_end(p, rng);
      continue;
    }
    if (p < picker_) {
      const End end = random_end(p, rng);
      if (new_kinds && rng.below(2) == 0) {
        pick = Pick{redraw_blind(p), end, true};
      } else {
        auto& hand = hand_[p];
        const int i = static_cast<int>(rng.below(static_cast<uint32_t>(hand_size_[p])));
        pick = Pick{hand[i], end, false};
        hand[i] = hand[--hand_size_[p]];
      }
    } else if (p == picker_ && new_kinds && rng.below(2) == 0) {
      pick = Pick{redraw_blind(p), -1, true};
    }
  }
}

End State::random_end(int p, Rng& rng) const {
  return rocket_[p].size == 0 ? kFront : static_cast<End>(rng.below(2));
}

int8_t State::redraw_blind(int p) {
  const int c = deck_[--deck_size_];
  known_by_[c] |= bit(p);
  return c;
}

std::array<int8_t, kMaxCards> State::places() const {
  std::array<int8_t, kMaxCards> place{};
  place.fill(kPlaceUndrafted);  // deck, discards and blind draws
  for (int i = 0; i < lost_size_; ++i) place[lost_[i]] = kPlaceLost;
  for (int p = 0; p < n_; ++p) {
    for (int i = 0; i < hand_size_[p]; ++i) place[hand_[p][i]] = static_cast<int8_t>(kPlaceHand + p);
    if (pick_[p].card >= 0 && !pick_[p].blind) place[pick_[p].card] = static_cast<int8_t>(kPlaceHand + p);
    for (int i = 0; i < rocket_[p].size; ++i)
      place[rocket_[p].card[i]] = static_cast<int8_t>(kPlaceRocket + p);
  }
  return place;
}

void State::card_places(CardPlaces& out) const {
  const auto place = places();
  for (int c = 0; c < config_->num_cards(); ++c) out.push_back({place[c], c});
}

void State::known_card_places(int viewer, CardPlaces& out) const {
  const auto place = places();
  for (int c = 0; c < config_->num_cards(); ++c)
    if (knows(viewer, c)) out.push_back({place[c], c});
}

GameInfo game_info() {
  GameInfo info;
  info.id = "last_blast";
  info.name = "The Last Blast";
  info.description = "Draft a 12-card rocket from passed hands, then fly it through an asteroid field";
  info.min_players = kMinPlayers;
  info.max_players = kMaxPlayers;
  info.num_actions = kNumActions;
  // Draft: 12 picks per player, each at most 2 decisions (blind draw + end).
  // Flight: 7 moves per player, plus at most one decision per card lost.
  info.max_decisions = kMaxPlayers * (2 * kRocketLength + kColumns + kRocketLength);
  info.version = 2;  // 2: one observation layout for 2-4 players (issue 31)
  return info;
}

}  // namespace rocketgym::last_blast
