// Launch Pad: what every position the game can reach satisfies (check_invariants),
// what each seat knows included.
#include <algorithm>
#include <string>

#include "envs/launch_pad/launch_pad.h"

namespace rocketgym::launch_pad {

void State::check_invariants() const {
  auto fail = [](const std::string& what) { throw InvariantViolation("launch_pad: " + what); };
  if (num_players_ < 2 || num_players_ > kMaxPlayers) fail("bad player count");
  if (turn_player_ < 0 || turn_player_ >= num_players_) fail("bad turn player");
  std::array<int, kNumCardTypes> seen{};
  for (int i = 0; i < draw_size_; ++i) ++seen[draw_pile_[static_cast<std::size_t>(i)]];
  for (int i = 0; i < discard_size_; ++i) {
    if (discard_pile_[static_cast<std::size_t>(i)] == kLaunchPad)
      fail("a Launch Pad card in the discard pile");
    ++seen[discard_pile_[static_cast<std::size_t>(i)]];
  }
  for (int t = 0; t < kNumCardTypes; ++t)
    seen[static_cast<std::size_t>(t)] += staged_[static_cast<std::size_t>(t)];
  if (ordered_size_ < 0 || ordered_size_ > kMaxCards) fail("bad discard order size");
  for (int i = 0; i < ordered_size_; ++i) ++seen[ordered_[static_cast<std::size_t>(i)]];
  seen[kLaunchPad] += launch_pad_area_ + launch_pads_aside_;
  if (offer_to_ >= 0) ++seen[static_cast<std::size_t>(offer_card_)];
  for (int seat = 0; seat < num_players_; ++seat) {
    const PlayerArea& p = area(seat);
    int size = 0;
    for (int t = 0; t < kNumCardTypes; ++t)
      size += p.hand[static_cast<std::size_t>(t)],
          seen[static_cast<std::size_t>(t)] += p.hand[static_cast<std::size_t>(t)];
    if (size != p.hand_size) fail("hand size mismatch for seat " + std::to_string(seat));
    if (p.hand[kLaunchPad] > 0) fail("a Launch Pad card in a hand");
    for (int zone = 0; zone < kNumZones; ++zone) {
      const int e = p.expert[static_cast<std::size_t>(zone)];
      if (e >= 0 && e != kJackOfAllTrades && e != kEngineer + zone) fail("wrong expert in a zone");
      if (e >= 0) ++seen[static_cast<std::size_t>(e)];
      seen[kLaunchPad] += p.launch_pads[static_cast<std::size_t>(zone)];
      if (config_->short_game && p.launch_pads[static_cast<std::size_t>(zone)] > 0)
        fail("short game: Launch Pad card in a zone");
    }
    for (int s = 0; s < kNumSpecialtyTypes; ++s)
      seen[static_cast<std::size_t>(kEmployeeContract + s)] += p.specialties[static_cast<std::size_t>(s)];
    if (!config_->super_powers && p.num_specialties() > 1) fail("more than one Specialty card in play");
    for (const Rocket& r : p.rockets) {
      if (!r.exists()) continue;
      if (r.kind > kGalactic || r.zone < 0 || r.zone >= kNumZones) fail("bad rocket");
      const RocketSpec& spec = config_->rocket[static_cast<std::size_t>(r.kind)];
      if (r.metal > spec.metal || r.fuel > spec.fuel) fail("too many Components on a rocket");
      if (r.zone != kConstructionZone && !rocket_complete(r))
        fail("an incomplete rocket left the Construction Zone");
      if (r.has_bonus(kQualityCertificate) && r.zone == kConstructionZone)
        fail("Quality Certificate in Construction");
      if ((r.bonuses & ~(1u << bonus_index(kQualityCertificate))) && r.zone != kLaunchZone)
        fail("Astronaut, Oxygen or Maximum Security outside the Launch Zone");
      ++seen[static_cast<std::size_t>(r.kind)];
      seen[kMetal] += r.metal;
      seen[kFuel] += r.fuel;
      for (int b = 0; b < kNumBonusTypes; ++b)
        seen[static_cast<std::size_t>(kAstronaut + b)] += (r.bonuses >> b) & 1;
    }
  }
  for (int t = 0; t < kNumCardTypes; ++t)
    if (seen[static_cast<std::size_t>(t)] != config_->count[static_cast<std::size_t>(t)])
      fail(std::string("card count of ") + card_name(t) + " is " +
           std::to_string(seen[static_cast<std::size_t>(t)]) + ", the deck has " +
           std::to_string(config_->count[static_cast<std::size_t>(t)]));
  if (launch_pads_aside_ > 0 && !config_->long_game) fail("Launch Pad cards aside outside the long game");
  if (countdown_ != (launch_pad_area_ == config_->count[kLaunchPad]))
    fail("Countdown out of step with the Launch Pad");
  if (!countdown_ && final_turns_left_ != 0) fail("final turns without a Countdown");
  if (launch_pad_region_ < 0 || launch_pad_region_ > draw_size_) fail("bad Launch Pad region");
  for (int i = launch_pad_region_; i < draw_size_; ++i)
    if (draw_pile_[static_cast<std::size_t>(i)] == kLaunchPad)
      fail("a Launch Pad card above its known region");
  // Cards wait for their discard order while Surplus goes round (any number)
  // and while their player chooses the top one (two kinds or more).
  int staged_kinds = 0;
  for (int t = 0; t < kNumCardTypes; ++t) staged_kinds += staged_[static_cast<std::size_t>(t)] > 0;
  if (step_ == Step::kChooseTop && staged_kinds < 2)
    fail("choosing the top discard with fewer than two kinds");
  if (step_ != Step::kChooseTop && step_ != Step::kSurplus && staged_kinds > 0)
    fail("staged discards out of step");
  if (staged_[kLaunchPad] > 0) fail("a Launch Pad card on its way to the discard pile");
  if (step_ != Step::kChooseTop && ordered_size_ > 0) fail("a discard order chosen out of step");
  for (int i = 0; i < ordered_size_; ++i)
    if (ordered_[static_cast<std::size_t>(i)] == kLaunchPad) fail("a Launch Pad card in the discard order");
  if ((step_ == Step::kOffer) != (offer_to_ >= 0)) fail("offer out of step");
  if (offer_to_ >= 0 && (offer_to_ == turn_player_ || offer_card_ < 0 || offer_card_ == kLaunchPad))
    fail("bad offer");
  if (step_ == Step::kSurplus && area(seat_at(surplus_offset_)).hand_size == 0)
    fail("Surplus asks an empty hand");
  if (step_ != Step::kSurplus && surplus_offset_ != 0) fail("Surplus offset out of step");
  if (step_ != Step::kAdvance && advance_eligible_ != 0) fail("rockets eligible to advance outside step 2");
  for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
    if (!advance_eligible(slot)) continue;
    const Rocket& r = rocket(turn_player_, slot);
    if (!r.exists() || r.zone == kLaunchZone || !rocket_complete(r) ||
        area(turn_player_).expert[static_cast<std::size_t>(r.zone)] < 0)
      fail("a slot eligible to advance holds no advanceable rocket");
  }
  if (truncated_ && step_ != Step::kGameOver) fail("truncated but not over");
  if (decisions_ < 0 || decisions_ > kMaxDecisions) fail("bad decision count");
  check_knowledge_invariants();
}

namespace {

using Counts = std::array<int, kNumCardTypes>;  // as State::Counts

// The copies of each type that the deck holds beyond the hidden cards cannot be
// hidden: they are among the `untracked` deck cards and out of view now.
int deck_cards_out_of_view(const Counts& deck, const Counts& hidden) {
  int out = 0;
  for (int t = 0; t < kNumCardTypes; ++t)
    out += std::max(0, deck[static_cast<std::size_t>(t)] - hidden[static_cast<std::size_t>(t)]);
  return out;
}

}  // namespace

// What a seat knows is true: never more copies than the place holds; nothing
// stored for its own hand, for seats not at the table, or for Launch Pad cards.
void State::check_knowledge_invariants() const {
  auto fail = [](const std::string& what) { throw InvariantViolation("launch_pad: knowledge: " + what); };
  std::array<uint8_t, kNumCardTypes> in_draw{};
  for (int i = 0; i < draw_size_; ++i) ++in_draw[draw_pile_[static_cast<std::size_t>(i)]];
  for (int v = 0; v < kMaxPlayers; ++v) {
    for (int place = 0; place < kNumHiddenPlaces; ++place) {
      const auto& known = known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(place)];
      const bool stored =
          v < num_players_ && place != kPlaceHand + v && (place == kPlaceDrawPile || place < num_players_);
      for (int t = 0; t < kNumCardTypes; ++t) {
        const int k = known[static_cast<std::size_t>(t)];
        if (k == 0) continue;
        if (!stored || t == kLaunchPad)
          fail("seat " + std::to_string(v) + " has knowledge recorded where none is kept");
        const int held = place == kPlaceDrawPile ? in_draw[static_cast<std::size_t>(t)]
                                                 : area(place).hand[static_cast<std::size_t>(t)];
        if (k > held)
          fail("seat " + std::to_string(v) + " knows of " + std::to_string(k) + " " + card_name(t) +
               " in a place that holds " + std::to_string(held));
      }
    }
    check_deck_invariants(v);
  }
}

// The deck as seat v follows it adds up: the pile's cards, the unseen draws
// (among the cards v does not name in each other hand) and the cards v lost
// track of, which include every copy the deck holds beyond what v cannot place.
void State::check_deck_invariants(int v) const {
  auto fail = [v](const std::string& what) {
    throw InvariantViolation("launch_pad: knowledge: seat " + std::to_string(v) + "'s deck: " + what);
  };
  const auto& deck = deck_[static_cast<std::size_t>(v)];
  const auto& draws = deck_in_hand_[static_cast<std::size_t>(v)];
  if (v >= num_players_) {
    if (deck != std::array<uint8_t, kNumCardTypes>{} || draws != std::array<uint8_t, kMaxPlayers>{} ||
        deck_untracked_[static_cast<std::size_t>(v)] != 0 ||
        deck_recycled_[static_cast<std::size_t>(v)] != std::array<uint8_t, kNumCardTypes>{} ||
        deck_fresh_in_hand_[static_cast<std::size_t>(v)] != std::array<uint8_t, kMaxPlayers>{})
      fail("recorded for a seat not at the table");
    return;
  }
  if (deck[kLaunchPad] > 0) fail("Launch Pad cards are counted from the table, not in the deck");
  for (int t = 0; t < kNumCardTypes; ++t)
    if (deck_recycled_[static_cast<std::size_t>(v)][static_cast<std::size_t>(t)] >
        deck[static_cast<std::size_t>(t)])
      fail(std::string("more recycled ") + card_name(t) + " than the deck holds");
  if (deck_fresh_in_hand_[static_cast<std::size_t>(v)][static_cast<std::size_t>(v)] > 0)
    fail("cards gone unseen into its own hand");
  int total = deck_untracked_[static_cast<std::size_t>(v)];
  for (int seat = 0; seat < kMaxPlayers; ++seat) {
    const int n = draws[static_cast<std::size_t>(seat)];
    if (n > 0 && (seat == v || seat >= num_players_))
      fail("unseen draws recorded in its own hand or no hand");
    if (n == 0) continue;
    int named = 0;
    for (uint8_t k : known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(kPlaceHand + seat)])
      named += k;
    if (named + n > area(seat).hand_size)
      fail("more unseen draws in player " + std::to_string(seat) +
           "'s hand than cards it does not name there");
    total += n;
  }
  Counts pile{};
  for (int i = 0; i < draw_size_; ++i) ++pile[draw_pile_[static_cast<std::size_t>(i)]];
  pile[kLaunchPad] = 0;
  int size = 0;
  for (int t = 0; t < kNumCardTypes; ++t) {
    if (pile[static_cast<std::size_t>(t)] > deck[static_cast<std::size_t>(t)])
      fail(std::string("the draw pile holds more ") + card_name(t) + " than the deck");
    total += pile[static_cast<std::size_t>(t)];
    size += deck[static_cast<std::size_t>(t)];
  }
  if (size != total)
    fail("holds " + std::to_string(size) + " cards, not the " + std::to_string(total) +
         " of the draw pile, the unseen draws and the untracked ones");
  Counts hidden{}, cards{};
  unplaced_cards(v, hidden, cards);
  if (deck_cards_out_of_view(cards, hidden) > deck_untracked_[static_cast<std::size_t>(v)])
    fail("holds cards that are neither hidden nor untracked");
}

}  // namespace rocketgym::launch_pad
