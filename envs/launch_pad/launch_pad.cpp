// Launch Pad rules: set-up, the six turn steps, every card's effect and scoring.
// JSON documents: launch_pad_json.cpp; text: launch_pad_text.cpp; invariants:
// launch_pad_invariants.cpp; hidden information and redeterminize: launch_pad_knowledge.cpp.
#include "envs/launch_pad/launch_pad.h"

#include <algorithm>
#include <cstring>

namespace rocketgym::launch_pad {

// Decision kinds, one per id range of launch_pad_actions.h (same order).
enum Kind : int {
  kKindAdvance,
  kKindStopAdvancing,
  kKindTakeDiscardTop,
  kKindDrawFromPile,
  kKindPlayRocket,
  kKindPlayMetal,
  kKindPlayFuel,
  kKindPlayExpert,
  kKindPlayBonus,
  kKindPlaySpecialty,
  kKindAbortMission,
  kKindBigRedButton,
  kKindBudgetCuts,
  kKindFastTrack,
  kKindPartsSupplier,
  kKindQualityCheck,
  kKindRecruitment,
  kKindRecycleBin,
  kKindSabotage,
  kKindSalvage,
  kKindSurplus,
  kKindThief,
  kKindVacuum,
  kKindOffer,
  kKindAccept,
  kKindReject,
  kKindStopPlaying,
  kKindDiscard,
  kKindEndTurn,
  kKindSurplusDiscard,
  kKindPutOnTop,
  kNumKinds
};

namespace {

constexpr int kRangeStart[kNumKinds + 1] = {
    act::kAdvanceRocket, act::kStopAdvancing, act::kTakeDiscardTop, act::kDrawFromPile, act::kPlayRocket,
    act::kPlayMetal,     act::kPlayFuel,      act::kPlayExpert,     act::kPlayBonus,    act::kPlaySpecialty,
    act::kAbortMission,  act::kBigRedButton,  act::kBudgetCuts,     act::kFastTrack,    act::kPartsSupplier,
    act::kQualityCheck,  act::kRecruitment,   act::kRecycleBin,     act::kSabotage,     act::kSalvage,
    act::kSurplus,       act::kThief,         act::kVacuum,         act::kOfferCard,    act::kAcceptOffer,
    act::kRejectOffer,   act::kStopPlaying,   act::kDiscard,        act::kEndTurn,      act::kSurplusDiscard,
    act::kPutOnTop,      act::kNumActions};

// The expert play ids 0..5: which card, into which zone.
constexpr int kExpertPlayCard[act::kNumExpertPlays] = {kEngineer,        kInspector,       kMissionController,
                                                       kJackOfAllTrades, kJackOfAllTrades, kJackOfAllTrades};
constexpr int kExpertPlayZone[act::kNumExpertPlays] = {kConstructionZone, kQualityControlZone, kLaunchZone,
                                                       kConstructionZone, kQualityControlZone, kLaunchZone};

// The step each decision kind belongs to.
Step step_of(int kind) {
  if (kind <= kKindStopAdvancing) return Step::kAdvance;
  if (kind <= kKindDrawFromPile) return Step::kDrawChoice;
  if (kind <= kKindOffer || kind == kKindStopPlaying) return Step::kPlay;
  if (kind <= kKindReject) return Step::kOffer;
  if (kind <= kKindEndTurn) return Step::kDiscard;
  if (kind == kKindSurplusDiscard) return Step::kSurplus;
  return Step::kChooseTop;
}

// The action card a play decision uses.
int action_card_of(int kind) {
  switch (kind) {
    case kKindAbortMission:
      return kAbortMission;
    case kKindBigRedButton:
      return kBigRedButton;
    case kKindBudgetCuts:
      return kBudgetCuts;
    case kKindFastTrack:
      return kFastTrack;
    case kKindPartsSupplier:
      return kPartsSupplier;
    case kKindQualityCheck:
      return kQualityCheck;
    case kKindRecruitment:
      return kRecruitment;
    case kKindRecycleBin:
      return kRecycleBin;
    case kKindSabotage:
      return kSabotage;
    case kKindSalvage:
      return kSalvage;
    case kKindSurplus:
      return kSurplus;
    case kKindThief:
      return kThief;
    default:
      return kVacuum;
  }
}

}  // namespace

int PlayerArea::num_specialties() const {
  int n = 0;
  for (int c : specialties) n += c;
  return n;
}

// ---------------------------------------------------------------- set-up

State::State(const Config& config, int num_players, uint64_t seed)
    : config_(&config), num_players_(std::clamp(num_players, 1, kMaxPlayers)), rng_(seed) {
  // Ruling 2: shuffle the 136 other cards, deal six to each player...
  for (int t = 0; t < kNumCardTypes; ++t)
    if (t != kLaunchPad)
      for (int k = 0; k < config.count[static_cast<std::size_t>(t)]; ++k)
        draw_pile_[static_cast<std::size_t>(draw_size_++)] = static_cast<uint8_t>(t);
  shuffle_draw_pile();
  for (int seat = 0; seat < num_players_; ++seat)
    for (int k = 0; k < config.hand_limit; ++k)
      give_to_hand(seat, draw_pile_[static_cast<std::size_t>(--draw_size_)], 1u << seat);
  // ...then shuffle the Launch Pad cards into the bottom half (index 0 is the bottom).
  const int launch_pads = config.count[kLaunchPad];
  if (config.long_game) {
    launch_pads_aside_ = launch_pads;
    launch_pad_region_ = 0;
  } else {
    const int bottom = draw_size_ / 2;
    std::copy_backward(draw_pile_.begin() + bottom, draw_pile_.begin() + draw_size_,
                       draw_pile_.begin() + draw_size_ + launch_pads);
    for (int k = 0; k < launch_pads; ++k) draw_pile_[static_cast<std::size_t>(bottom + k)] = kLaunchPad;
    draw_size_ += launch_pads;
    launch_pad_region_ = bottom + launch_pads;
    rng_.shuffle(draw_pile_.begin(), draw_pile_.begin() + launch_pad_region_);
  }
  for (int seat = 0; seat < num_players_; ++seat) deck_from_scratch(seat);  // the whole deck, dealt from
  turn_player_ = 0;  // "the player who is most excited to play goes first": seat 0
  begin_turn();
}

// ---------------------------------------------------------------- queries

int State::current_player() const {
  switch (step_) {
    case Step::kGameOver:
      return -1;
    case Step::kSurplus:
      return seat_at(surplus_offset_);
    case Step::kOffer:
      return offer_to_;
    default:
      return turn_player_;
  }
}

int State::hand_limit(int seat) const {
  return area(seat).has_specialty(kWarehouse) ? config_->warehouse_hand_limit : config_->hand_limit;
}

bool State::rocket_protected(int owner, int slot, int by) const {
  // Ruling 12: Maximum Security always; Security System against opponents only.
  return rocket(owner, slot).has_bonus(kMaximumSecurity) ||
         (owner != by && area(owner).has_specialty(kSecuritySystem));
}

int State::discard_count(int card) const {
  return static_cast<int>(std::count(discard_pile_.begin(), discard_pile_.begin() + discard_size_, card));
}

// The encoder asks this every step: the pile (up to 160 one-byte cards) is read eight cards at
// a time, each byte of a word becoming 1 where it is a Launch Pad, summed per byte.
int State::launch_pads_in_draw_pile() const {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kLow7 = 0x7F7F7F7F7F7F7F7Full;
  static_assert(kMaxCards <= 255 && kLaunchPad >= 0 && kLaunchPad <= 255, "the sums and the card fit a byte");
  uint64_t pads = 0;  // per byte: the Launch Pads among the cards at that place of a word
  int i = 0;
  for (; i + 8 <= draw_size_; i += 8) {
    uint64_t word;
    std::memcpy(&word, draw_pile_.data() + i, sizeof word);
    const uint64_t other = word ^ (kOnes * kLaunchPad);                     // a zero byte: a Launch Pad
    const uint64_t nonzero = (((other & kLow7) + kLow7) | other) & ~kLow7;  // high bit: not one
    pads += (~nonzero >> 7) & kOnes;
  }
  int n = static_cast<int>((pads * kOnes) >> 56);  // the sum of the bytes (at most 160)
  for (; i < draw_size_; ++i) n += draw_pile_[static_cast<std::size_t>(i)] == kLaunchPad;
  return n;
}

// The scoring table: rockets by zone, Astronauts, Quality Certificates, and
// -10 without a Mission Controller (a Jack of All Trades in the Launch Zone counts).
int State::score_without_rockets(int seat) const {
  return area(seat).expert[kLaunchZone] < 0 ? config_->no_mission_controller : 0;
}

int State::rocket_points(const Rocket& r) const {
  if (!r.exists()) return 0;
  const Config& c = *config_;
  const int points = c.rocket[static_cast<std::size_t>(r.kind)].points;
  int total = 0;
  if (r.zone == kLaunchZone) total += points;
  if (r.zone == kConstructionZone) total -= points;
  if (r.has_bonus(kAstronaut))
    total += r.has_bonus(kOxygen) ? c.astronaut_with_oxygen : c.astronaut_without_oxygen;
  if (r.has_bonus(kQualityCertificate) && r.zone == kLaunchZone) total += c.certificate_in_launch_zone;
  return total;
}

int State::score(int seat) const {
  int total = score_without_rockets(seat);
  for (const Rocket& r : area(seat).rockets) total += rocket_points(r);
  return total;
}

int State::bonus_cards_in_play(int seat) const {
  int n = 0;
  for (const Rocket& r : area(seat).rockets) n += r.num_bonuses();
  return n;
}

void State::scores(int* out) const {
  for (int seat = 0; seat < num_players_; ++seat) out[seat] = score(seat);
}

void State::returns(float* out) const {
  if (!is_terminal() || truncated_) {
    std::fill_n(out, num_players_, 0.0f);
    return;
  }
  // Ruling 21: points first, then the most Bonus cards in play.
  double standing[kMaxPlayers], points[kMaxPlayers];
  for (int seat = 0; seat < num_players_; ++seat) {
    points[seat] = score(seat);
    standing[seat] = points[seat] * 1000.0 + bonus_cards_in_play(seat);
  }
  compute_returns(config_->reward, num_players_, standing, points, out);
}

// ---------------------------------------------------------------- legality

State::Decoded State::decode(Action a) {
  int kind = 0;
  while (a >= kRangeStart[kind + 1]) ++kind;
  return decode_in(kind, a);
}

State::Decoded State::decode_in(int kind, Action a) {
  Decoded d;
  d.kind = kind;
  const int r = a - kRangeStart[d.kind];
  switch (d.kind) {
    case kKindPlayRocket:
      d.a = kObserver + r;
      break;
    case kKindPlayBonus:
      d.a = kAstronaut + r / kMaxRocketSlots, d.b = r % kMaxRocketSlots;
      break;
    case kKindPlaySpecialty:
      d.a = kEmployeeContract + r;
      break;
    case kKindAbortMission:
    case kKindQualityCheck:
    case kKindVacuum:
      d.a = r / kMaxRocketSlots, d.b = r % kMaxRocketSlots;
      break;
    case kKindBigRedButton:
      d.a = r / kNumZones, d.b = r % kNumZones;
      break;
    case kKindBudgetCuts:
      d.a = r + 1;
      break;
    case kKindRecruitment:
      d.a = r / kNumZones + 1, d.b = r % kNumZones;
      break;
    case kKindSabotage:
      d.a = r / 2 / kMaxRocketSlots, d.b = r / 2 % kMaxRocketSlots, d.c = r % 2 ? kFuel : kMetal;
      break;
    case kKindOffer:
      d.a = r / kNumCardTypes + 1, d.b = r % kNumCardTypes;
      break;
    default:
      d.a = r;
      break;  // a slot, an index or a card type
  }
  return d;
}

bool State::is_legal(Action a) const {
  if (a < 0 || a >= act::kNumActions || step_ == Step::kGameOver) return false;
  return legal_decoded(decode(a));
}

// The mask is written from the state, decision by decision, instead of asking
// legal_decoded id by id: each card in hand marks the ids it can be played on
// (its targets found in one pass over the rockets, the discard pile, the
// seats). It must say what legal_decoded says on every id: the test
// "[launch_pad][mask]" compares the two at every decision of many games.
void State::legal_actions_mask(uint8_t* out) const {
  std::memset(out, 0, act::kNumActions);
  const PlayerArea& me = area(turn_player_);
  switch (step_) {
    case Step::kGameOver:
      return;
    case Step::kAdvance:
      for (uint32_t bits = advance_eligible_; bits != 0; bits &= bits - 1) {
        const int slot = __builtin_ctz(bits);
        out[act::advance(slot)] = can_advance(slot);
      }
      out[act::kStopAdvancing] = 1;
      return;
    case Step::kDrawChoice:
      out[act::kTakeDiscardTop] = 1;
      out[act::kDrawFromPile] = 1;
      return;
    case Step::kPlay:
      mark_play(out);
      return;
    case Step::kOffer:
      out[act::kAcceptOffer] = area(offer_to_).hand_size < hand_limit(offer_to_);
      out[act::kRejectOffer] = 1;
      return;
    case Step::kDiscard:
      for (int t = 0; t < kNumCardTypes; ++t)
        out[act::kDiscard + t] = me.hand[static_cast<std::size_t>(t)] > 0;
      out[act::kEndTurn] = me.hand_size <= hand_limit(turn_player_);
      return;
    case Step::kSurplus: {
      const PlayerArea& who = area(seat_at(surplus_offset_));
      for (int t = 0; t < kNumCardTypes; ++t)
        out[act::kSurplusDiscard + t] = who.hand[static_cast<std::size_t>(t)] > 0;
      return;
    }
    case Step::kChooseTop:
      for (int t = 0; t < kNumCardTypes; ++t)
        out[act::kPutOnTop + t] = staged_[static_cast<std::size_t>(t)] > 0;
      return;
  }
}

// One past the highest slot of `seat` that holds a rocket (0 with none).
int State::slots_in_use(int seat) const {
  const auto& rockets = area(seat).rockets;
  for (int slot = kMaxRocketSlots; slot > 0; --slot)
    if (rockets[static_cast<std::size_t>(slot - 1)].exists()) return slot;
  return 0;
}

// Step 4: the ids of every card in hand that has a target, and "stop playing".
// The conditions are those of the can_* functions below, written per target.
void State::mark_play(uint8_t* out) const {
  const PlayerArea& me = area(turn_player_);
  const auto held = [&](int card) { return me.hand[static_cast<std::size_t>(card)] > 0; };
  out[act::kStopPlaying] = 1;
  for (int k = 0; k < kNumRocketKinds; ++k) out[act::kPlayRocket + k] = held(kObserver + k);
  for (int i = 0; i < act::kNumExpertPlays; ++i)
    out[act::kPlayExpert + i] =
        held(kExpertPlayCard[i]) && me.expert[static_cast<std::size_t>(kExpertPlayZone[i])] < 0;
  for (int k = 0; k < kNumSpecialtyTypes; ++k) out[act::kPlaySpecialty + k] = held(kEmployeeContract + k);

  // The player's own rockets: Metal, Fuel, bonus cards, Fast Track.
  const bool metal = held(kMetal), fuel = held(kFuel), fast_track = held(kFastTrack);
  const bool bonus[kNumBonusTypes] = {held(kAstronaut), held(kMaximumSecurity), held(kOxygen),
                                      held(kQualityCertificate)};
  if (metal || fuel || fast_track || bonus[0] || bonus[1] || bonus[2] || bonus[3]) {
    const int own_slots = slots_in_use(turn_player_);
    for (int slot = 0; slot < own_slots; ++slot) {
      const Rocket& r = me.rockets[static_cast<std::size_t>(slot)];
      if (!r.exists()) continue;
      const RocketSpec& spec = config_->rocket[static_cast<std::size_t>(r.kind)];
      if (r.zone == kConstructionZone) {
        out[act::play_metal(slot)] = metal && r.metal < spec.metal;
        out[act::play_fuel(slot)] = fuel && r.fuel < spec.fuel;
      }
      // Astronaut, Maximum Security, Oxygen in the Launch Zone; Quality Certificate in Quality Control.
      for (int b = 0; b < kNumBonusTypes; ++b) {
        const int zone = b == bonus_index(kQualityCertificate) ? kQualityControlZone : kLaunchZone;
        out[act::kPlayBonus + b * kMaxRocketSlots + slot] =
            bonus[b] && r.zone == zone && !((r.bonuses >> b) & 1);
      }
      out[act::fast_track(slot)] = fast_track && r.zone != kLaunchZone && rocket_complete(r);
    }
  }

  // Every seat's rockets: Abort Mission, Quality Check, Sabotage, Vacuum.
  const bool abort = held(kAbortMission), check = held(kQualityCheck), sabotage = held(kSabotage),
             vacuum = held(kVacuum);
  if (abort || check || sabotage || vacuum) {
    for (int offset = 0; offset < num_players_; ++offset) {
      const int owner = seat_at(offset);
      const PlayerArea& target = area(owner);
      const int used = slots_in_use(owner);
      for (int slot = 0; slot < used; ++slot) {
        const Rocket& r = target.rockets[static_cast<std::size_t>(slot)];
        if (!r.exists()) continue;
        const bool open = !rocket_protected(owner, slot, turn_player_);
        out[act::abort_mission(offset, slot)] = abort && open;
        out[act::quality_check(offset, slot)] =
            check && r.zone == kLaunchZone && !r.has_bonus(kQualityCertificate);
        out[act::sabotage(offset, slot, kMetal)] = sabotage && open && r.metal > 0;
        out[act::sabotage(offset, slot, kFuel)] = sabotage && open && r.fuel > 0;
        out[act::vacuum(offset, slot)] = vacuum && open && r.has_bonus(kOxygen);
      }
    }
  }

  if (held(kBigRedButton))
    for (int offset = 0; offset < num_players_; ++offset)
      for (int zone = 0; zone < kNumZones; ++zone)
        out[act::big_red_button(offset, zone)] =
            area(seat_at(offset)).launch_pads[static_cast<std::size_t>(zone)] > 0;
  if (held(kBudgetCuts))
    for (int offset = 1; offset < num_players_; ++offset)
      out[act::budget_cuts(offset)] = area(seat_at(offset)).num_specialties() > 0;
  if (held(kRecruitment))
    for (int offset = 1; offset < num_players_; ++offset) {
      const PlayerArea& target = area(seat_at(offset));
      if (target.has_specialty(kEmployeeContract)) continue;
      for (int zone = 0; zone < kNumZones; ++zone)
        out[act::recruitment(offset, zone)] = target.expert[static_cast<std::size_t>(zone)] >= 0;
    }
  // Parts Supplier needs a card to draw (the discard pile refills the draw pile).
  out[act::kPartsSupplier] = held(kPartsSupplier) && draw_size_ + discard_size_ + launch_pads_aside_ > 0;
  out[act::kRecycleBin] = held(kRecycleBin) && discard_size_ > 0;
  if (held(kSalvage))  // every type in the discard pile, found in one pass
    for (int i = 0; i < discard_size_; ++i) out[act::salvage(discard_pile_[static_cast<std::size_t>(i)])] = 1;
  out[act::kSurplus] = can_surplus();
  if (held(kThief))
    for (int choice = 0; choice < act::kNumThiefChoices; ++choice)
      out[act::kThief + choice] = can_thief(choice);
  if (config_->negotiations)
    for (int offset = 1; offset < num_players_; ++offset) {
      const int to = seat_at(offset);
      if (area(to).hand_size >= hand_limit(to)) continue;
      for (int card = 0; card < kNumCardTypes; ++card) out[act::offer(offset, card)] = held(card);
    }
}

bool State::legal_decoded(const Decoded& d) const {
  if (step_of(d.kind) != step_) return false;
  const PlayerArea& me = area(turn_player_);
  switch (d.kind) {
    case kKindAdvance:
      return can_advance(d.a);
    case kKindStopAdvancing:
    case kKindTakeDiscardTop:
    case kKindDrawFromPile:
    case kKindStopPlaying:
    case kKindReject:
      return true;
    case kKindPlayRocket:
      return holds(d.a);
    case kKindPlayMetal:
      return can_play_component(kMetal, d.a);
    case kKindPlayFuel:
      return can_play_component(kFuel, d.a);
    case kKindPlayExpert:
      return can_play_expert(d.a);
    case kKindPlayBonus:
      return can_play_bonus(d.a, d.b);
    case kKindPlaySpecialty:
      return holds(d.a);
    case kKindAbortMission:
      return can_abort_or_check(kAbortMission, d.a, d.b);
    case kKindQualityCheck:
      return can_abort_or_check(kQualityCheck, d.a, d.b);
    case kKindBigRedButton:
      return can_big_red_button(d.a, d.b);
    case kKindBudgetCuts:
      return can_budget_cuts(d.a);
    case kKindFastTrack:
      return can_fast_track(d.a);
    // Parts Supplier needs a card to draw (the discard pile refills the draw pile).
    case kKindPartsSupplier:
      return holds(kPartsSupplier) && draw_size_ + discard_size_ + launch_pads_aside_ > 0;
    case kKindRecruitment:
      return can_recruit(d.a, d.b);
    case kKindRecycleBin:
      return holds(kRecycleBin) && discard_size_ > 0;
    case kKindSabotage:
      return can_sabotage(d.a, d.b, d.c);
    case kKindSalvage:
      return can_salvage(d.a);
    case kKindSurplus:
      return can_surplus();
    case kKindThief:
      return can_thief(d.a);
    case kKindVacuum:
      return can_vacuum(d.a, d.b);
    case kKindOffer:
      return can_offer(d.a, d.b);
    case kKindAccept:
      return area(offer_to_).hand_size < hand_limit(offer_to_);
    case kKindDiscard:
      return holds(d.a);
    case kKindEndTurn:
      return me.hand_size <= hand_limit(turn_player_);
    case kKindSurplusDiscard:
      return area(seat_at(surplus_offset_)).hand[static_cast<std::size_t>(d.a)] > 0;
    case kKindPutOnTop:
      return staged_[static_cast<std::size_t>(d.a)] > 0;
    default:
      return false;
  }
}

// Ruling 5: eligible at the start of step 2, and the zone's quota (one rocket,
// two with Overtime) not used up yet.
bool State::can_advance(int slot) const {
  if (!advance_eligible(slot)) return false;
  const int zone = rocket(turn_player_, slot).zone;
  const int quota = area(turn_player_).has_specialty(kOvertime) ? 2 : 1;
  return advanced_from_[static_cast<std::size_t>(zone)] < quota;
}

// Components go on the player's own incomplete rocket in the Construction Zone (ruling 9).
bool State::can_play_component(int card, int slot) const {
  if (!holds(card)) return false;
  const Rocket& r = rocket(turn_player_, slot);
  if (!r.exists() || r.zone != kConstructionZone) return false;
  const RocketSpec& spec = config_->rocket[static_cast<std::size_t>(r.kind)];
  return card == kMetal ? r.metal < spec.metal : r.fuel < spec.fuel;
}

// One expert per zone; an expert is never replaced (ruling 9).
bool State::can_play_expert(int index) const {
  const int card = kExpertPlayCard[index];
  return holds(card) && area(turn_player_).expert[static_cast<std::size_t>(kExpertPlayZone[index])] < 0;
}

// At most one of each bonus type per rocket: a Quality Certificate in the
// Quality Control Zone, the others in the Launch Zone (ruling 9).
bool State::can_play_bonus(int card, int slot) const {
  if (!holds(card)) return false;
  const Rocket& r = rocket(turn_player_, slot);
  if (!r.exists() || r.has_bonus(card)) return false;
  return r.zone == (card == kQualityCertificate ? kQualityControlZone : kLaunchZone);
}

// Abort Mission: any rocket not protected (ruling 12). Quality Check: a Launch
// Zone rocket without a Quality Certificate (ruling 13).
bool State::can_abort_or_check(int card, int offset, int slot) const {
  if (!holds(card) || !valid_offset(offset)) return false;
  const int owner = seat_at(offset);
  const Rocket& r = rocket(owner, slot);
  if (!r.exists()) return false;
  if (card == kAbortMission) return !rocket_protected(owner, slot, turn_player_);
  return r.zone == kLaunchZone && !r.has_bonus(kQualityCertificate);
}

// Ruling 17: any Launch Pad card in any player's zones.
bool State::can_big_red_button(int offset, int zone) const {
  return holds(kBigRedButton) && valid_offset(offset) &&
         area(seat_at(offset)).launch_pads[static_cast<std::size_t>(zone)] > 0;
}

// Budget Cuts steals from another player who has a Specialty card in play.
// (Stealing one's own card is not stealing: the rulebook's "steal" implies an opponent.)
bool State::can_budget_cuts(int offset) const {
  return holds(kBudgetCuts) && valid_offset(offset) && area(seat_at(offset)).num_specialties() > 0;
}

// Fast Track: the player's own complete rocket in Construction or Quality Control.
bool State::can_fast_track(int slot) const {
  if (!holds(kFastTrack)) return false;
  const Rocket& r = rocket(turn_player_, slot);
  return r.exists() && r.zone != kLaunchZone && rocket_complete(r);
}

// Ruling 11: an opponent's expert, unless that opponent has an Employee Contract.
bool State::can_recruit(int offset, int zone) const {
  if (!holds(kRecruitment) || !valid_offset(offset)) return false;
  const PlayerArea& target = area(seat_at(offset));
  return target.expert[static_cast<std::size_t>(zone)] >= 0 && !target.has_specialty(kEmployeeContract);
}

// Ruling 12: a rocket with at least one Component of the named kind, not protected.
bool State::can_sabotage(int offset, int slot, int component) const {
  if (!holds(kSabotage) || !valid_offset(offset)) return false;
  const int owner = seat_at(offset);
  const Rocket& r = rocket(owner, slot);
  if (!r.exists() || (component == kMetal ? r.metal : r.fuel) == 0) return false;
  return !rocket_protected(owner, slot, turn_player_);
}

// Ruling 16: a card type present in the discard pile (the Salvage played is not there yet).
bool State::can_salvage(int card) const { return holds(kSalvage) && discard_count(card) > 0; }

// Ruling 15: someone must have a card to discard once the Surplus has left the hand.
bool State::can_surplus() const {
  if (!holds(kSurplus)) return false;
  for (int seat = 0; seat < num_players_; ++seat)
    if (area(seat).hand_size - (seat == turn_player_ ? 1 : 0) > 0) return true;
  return false;
}

// Ruling 14: two cards from one opponent, or one from each of two opponents.
bool State::can_thief(int choice) const {
  if (!holds(kThief)) return false;
  if (choice < 3) return valid_offset(choice + 1) && area(seat_at(choice + 1)).hand_size >= 2;
  const int* pair = act::kThiefPairs[choice - 3];
  return valid_offset(pair[1]) && area(seat_at(pair[0])).hand_size >= 1 &&
         area(seat_at(pair[1])).hand_size >= 1;
}

bool State::can_vacuum(int offset, int slot) const {
  if (!holds(kVacuum) || !valid_offset(offset)) return false;
  const int owner = seat_at(offset);
  const Rocket& r = rocket(owner, slot);
  return r.exists() && r.has_bonus(kOxygen) && !rocket_protected(owner, slot, turn_player_);
}

// Negotiations: an offer is only made to a player who may accept it
// (accepting may not take the receiver's hand over its limit).
bool State::can_offer(int offset, int card) const {
  if (!config_->negotiations || !holds(card) || !valid_offset(offset) || offset == 0) return false;
  const int to = seat_at(offset);
  return area(to).hand_size < hand_limit(to);
}

// ---------------------------------------------------------------- applying

void State::apply(Action a) {
  if (a < 0 || a >= act::kNumActions)
    throw IllegalAction("launch_pad: action " + std::to_string(a) + " out of range [0, " +
                        std::to_string(act::kNumActions - 1) + "]");
  if (step_ == Step::kGameOver) throw IllegalAction("launch_pad: the game is over");
  const Decoded d = decode(a);
  if (!legal_decoded(d))
    throw IllegalAction("launch_pad: '" + action_to_string(a) + "' (action " + std::to_string(a) +
                        ") is not legal now (step " + step_key(step_) + ")");
  apply_decoded(d);
  if (++decisions_ >= kMaxDecisions && step_ != Step::kGameOver) {
    truncated_ = true;
    step_ = Step::kGameOver;
  }
}

void State::apply_decoded(const Decoded& d) {
  switch (d.kind) {
    case kKindAdvance: {
      Rocket& r = rocket_mut(turn_player_, d.a);
      ++advanced_from_[static_cast<std::size_t>(r.zone)];
      ++r.zone;  // bonus cards (a Quality Certificate) travel with it
      advance_eligible_ &= ~(1u << d.a);
      for (int slot = 0; slot < kMaxRocketSlots; ++slot)
        if (can_advance(slot)) return;  // more to decide
      begin_draw_step();
      return;
    }
    case kKindStopAdvancing:
      begin_draw_step();
      return;
    case kKindTakeDiscardTop:
      draw_to_limit(true);
      return;
    case kKindDrawFromPile:
      draw_to_limit(false);
      return;
    case kKindStopPlaying:
      step_ = Step::kDiscard;
      return;
    case kKindDiscard:
      discard_from_hand(turn_player_, d.a);
      return;
    case kKindEndTurn:
      end_turn();
      return;
    case kKindAccept:
    case kKindReject:
      give_to_hand(d.kind == kKindAccept ? offer_to_ : turn_player_, offer_card_, everyone());
      offer_to_ = offer_card_ = -1;
      step_ = Step::kPlay;
      after_play();
      return;
    case kKindSurplusDiscard:  // face up, waiting with the others for the Surplus player's order
      take_from_hand(seat_at(surplus_offset_), d.a, everyone());
      ++staged_[static_cast<std::size_t>(d.a)];
      ++surplus_offset_;
      continue_surplus();
      return;
    case kKindPutOnTop:
      choose_next_discard(d.a);
      finish_staged_discards();
      if (step_ == Step::kPlay) after_play();
      return;
    case kKindOffer:  // negotiations: the card waits, face up, for the receiver's answer
      take_from_hand(turn_player_, d.b, everyone());
      offer_to_ = seat_at(d.a);
      offer_card_ = d.b;
      step_ = Step::kOffer;
      return;
    default:
      play_card_effect(d);
      if (step_ == Step::kPlay) after_play();
      return;
  }
}

// Step 4: one card from the turn player's hand, with its whole effect.
void State::play_card_effect(const Decoded& d) {
  const int me = turn_player_;
  PlayerArea& mine = area_mut(me);
  switch (d.kind) {
    case kKindPlayRocket: {
      take_from_hand(me, d.a, everyone());
      int slot = 0;
      while (mine.rockets[static_cast<std::size_t>(slot)].exists()) ++slot;  // free: <= 24 rockets exist
      Rocket& r = mine.rockets[static_cast<std::size_t>(slot)];
      r = Rocket{};
      r.kind = static_cast<int8_t>(d.a);
      return;
    }
    case kKindPlayMetal:
      take_from_hand(me, kMetal, everyone());
      ++rocket_mut(me, d.a).metal;
      return;
    case kKindPlayFuel:
      take_from_hand(me, kFuel, everyone());
      ++rocket_mut(me, d.a).fuel;
      return;
    case kKindPlayExpert:
      take_from_hand(me, kExpertPlayCard[d.a], everyone());
      mine.expert[static_cast<std::size_t>(kExpertPlayZone[d.a])] = static_cast<int8_t>(kExpertPlayCard[d.a]);
      return;
    case kKindPlayBonus:
      take_from_hand(me, d.a, everyone());
      rocket_mut(me, d.b).bonuses |= static_cast<uint8_t>(1u << bonus_index(d.a));
      return;
    case kKindPlaySpecialty: {
      take_from_hand(me, d.a, everyone());
      // Ruling 18: one Specialty card in play; the new one replaces (discards) the old.
      // Super powers: any number.
      if (!config_->super_powers)
        for (int s = 0; s < kNumSpecialtyTypes; ++s)
          for (; mine.specialties[static_cast<std::size_t>(s)] > 0;
               --mine.specialties[static_cast<std::size_t>(s)])
            push_discard(kEmployeeContract + s);
      ++mine.specialties[static_cast<std::size_t>(specialty_index(d.a))];
      return;
    }
    default:
      play_action_card(d);
      return;
  }
}

// Action cards. Most go to the discard pile first and the cards they discard
// land on top of them; Salvage and Recycle Bin end on top (see below).
void State::play_action_card(const Decoded& d) {
  const int me = turn_player_;
  const int card = action_card_of(d.kind);
  take_from_hand(me, card, everyone());
  if (card != kSalvage && card != kRecycleBin) push_discard(card);
  switch (d.kind) {
    case kKindAbortMission: {  // the rocket and all its cards go to the discard pile
      Rocket& r = rocket_mut(seat_at(d.a), d.b);
      staged_[static_cast<std::size_t>(r.kind)] += 1;
      staged_[kMetal] += r.metal;
      staged_[kFuel] += r.fuel;
      stage_rocket_bonuses(r);
      r = Rocket{};
      finish_staged_discards();
      return;
    }
    case kKindQualityCheck: {  // back to Quality Control; its bonus cards are discarded
      Rocket& r = rocket_mut(seat_at(d.a), d.b);
      r.zone = kQualityControlZone;
      stage_rocket_bonuses(r);
      finish_staged_discards();
      return;
    }
    case kKindSabotage: {  // steal a Component; an advanced rocket goes back to Construction
      Rocket& r = rocket_mut(seat_at(d.a), d.b);
      --(d.c == kMetal ? r.metal : r.fuel);
      give_to_hand(me, d.c, everyone());
      if (r.zone != kConstructionZone) {
        r.zone = kConstructionZone;
        stage_rocket_bonuses(r);
        finish_staged_discards();
      }
      return;
    }
    case kKindVacuum:  // steal the Oxygen; an Astronaut stays
      rocket_mut(seat_at(d.a), d.b).bonuses &= static_cast<uint8_t>(~(1u << bonus_index(kOxygen)));
      give_to_hand(me, kOxygen, everyone());
      return;
    case kKindBigRedButton:
      --area_mut(seat_at(d.a)).launch_pads[static_cast<std::size_t>(d.b)];
      ++launch_pad_area_;
      check_launch_pad_complete();
      return;
    case kKindBudgetCuts: {  // the (super powers: every) Specialty card goes to the player's hand
      PlayerArea& target = area_mut(seat_at(d.a));
      for (int s = 0; s < kNumSpecialtyTypes; ++s)
        for (; target.specialties[static_cast<std::size_t>(s)] > 0;
             --target.specialties[static_cast<std::size_t>(s)])
          give_to_hand(me, kEmployeeContract + s, everyone());
      return;
    }
    case kKindFastTrack:
      rocket_mut(me, d.a).zone = kLaunchZone;
      return;
    case kKindPartsSupplier:
      for (int k = 0; k < 3; ++k)
        if (draw_one(me) < 0) break;
      return;
    case kKindRecruitment: {
      int8_t& expert = area_mut(seat_at(d.a)).expert[static_cast<std::size_t>(d.b)];
      give_to_hand(me, expert, everyone());
      expert = -1;
      return;
    }
    case kKindRecycleBin: {  // the top ten discards are shuffled into the draw pile; the Recycle Bin tops the
                             // discards
      const int n = std::min(10, discard_size_);
      for (int k = 0; k < n; ++k)
        draw_pile_[static_cast<std::size_t>(draw_size_++)] =
            discard_pile_[static_cast<std::size_t>(--discard_size_)];
      recycled_into_draw_pile(draw_size_ - n, draw_size_);  // they were face up
      shuffle_draw_pile();
      push_discard(kRecycleBin);
      return;
    }
    case kKindSalvage: {  // the topmost card of that type leaves the discard pile; then the Salvage is
                          // discarded
      int i = discard_size_ - 1;
      while (discard_pile_[static_cast<std::size_t>(i)] != d.a) --i;
      std::copy(discard_pile_.begin() + i + 1, discard_pile_.begin() + discard_size_,
                discard_pile_.begin() + i);
      --discard_size_;
      give_to_hand(me, d.a, everyone());
      push_discard(kSalvage);
      return;
    }
    case kKindSurplus:
      step_ = Step::kSurplus;
      surplus_offset_ = 0;
      continue_surplus();
      return;
    case kKindThief: {
      // The thief sees what it takes and the victim what it loses; nobody else does.
      auto steal_from = [&](int offset) {
        const int victim = seat_at(offset);
        steal_random_card(victim, me, (1u << me) | (1u << victim));
      };
      if (d.a < 3) {
        steal_from(d.a + 1);
        steal_from(d.a + 1);
      } else {
        steal_from(act::kThiefPairs[d.a - 3][0]);
        steal_from(act::kThiefPairs[d.a - 3][1]);
      }
      return;
    }
    default:
      return;
  }
}

// ---------------------------------------------------------------- turn flow

void State::begin_turn() {
  redraw_used_ = false;
  advanced_from_ = {};
  advance_eligible_ = 0;
  advance_launch_pad_cards();
  begin_advance_step();
}

// Step 1 (ruling 4): Launch Zone first, so a card moves at most one zone a turn
// and at most one card leaves each zone.
void State::advance_launch_pad_cards() {
  if (config_->short_game) return;  // there are never Launch Pad cards in the zones
  auto& pads = area_mut(turn_player_).launch_pads;
  if (pads[kLaunchZone] > 0) --pads[kLaunchZone], ++launch_pad_area_;
  if (pads[kQualityControlZone] > 0) --pads[kQualityControlZone], ++pads[kLaunchZone];
  if (pads[kConstructionZone] > 0) --pads[kConstructionZone], ++pads[kQualityControlZone];
  check_launch_pad_complete();
}

// Step 2 (ruling 5): eligibility is fixed now: complete, and the expert of the
// zone the rocket leaves is in place. Skipped when nothing can advance.
void State::begin_advance_step() {
  const PlayerArea& me = area(turn_player_);
  for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
    const Rocket& r = me.rockets[static_cast<std::size_t>(slot)];
    if (r.exists() && r.zone != kLaunchZone && rocket_complete(r) &&
        me.expert[static_cast<std::size_t>(r.zone)] >= 0)
      advance_eligible_ |= 1u << slot;
  }
  if (advance_eligible_ != 0) {
    step_ = Step::kAdvance;
  } else {
    begin_draw_step();
  }
}

// Step 3 (ruling 6): the discard-pile option is asked only when the player
// draws at least one card and the discard pile has a card.
void State::begin_draw_step() {
  advance_eligible_ = 0;  // step 2 is over
  if (area(turn_player_).hand_size >= hand_limit(turn_player_)) {
    enter_play_step();
  } else if (discard_size_ > 0) {
    step_ = Step::kDrawChoice;
  } else {
    draw_to_limit(false);
  }
}

void State::draw_to_limit(bool may_take_discard_top) {
  if (may_take_discard_top)
    give_to_hand(turn_player_, discard_pile_[static_cast<std::size_t>(--discard_size_)], everyone());
  while (area(turn_player_).hand_size < hand_limit(turn_player_))
    if (draw_one(turn_player_) < 0) break;
  enter_play_step();
}

void State::enter_play_step() { step_ = Step::kPlay; }

// Step 5 (ruling 7): the first time the hand is empty during step 4, draw up
// to the hand limit from the draw pile.
void State::after_play() {
  if (area(turn_player_).hand_size > 0 || redraw_used_) return;
  redraw_used_ = true;
  while (area(turn_player_).hand_size < hand_limit(turn_player_))
    if (draw_one(turn_player_) < 0) break;
}

// Ruling 19: once the Launch Pad is complete, the turn in progress finishes,
// every other player takes a final turn, and the completing player the last.
void State::end_turn() {
  if (countdown_) {
    if (final_turns_left_ == 0) {
      step_ = Step::kGameOver;
      return;
    }
    --final_turns_left_;
  }
  turn_player_ = (turn_player_ + 1) % num_players_;
  begin_turn();
}

void State::check_launch_pad_complete() {
  if (countdown_ || launch_pad_area_ < config_->count[kLaunchPad]) return;
  countdown_ = true;
  final_turns_left_ = num_players_;
}

// ---------------------------------------------------------------- cards moving

int State::draw_one(int seat) {
  for (;;) {
    const int card = pop_draw_pile(seat);
    if (card < 0) return -1;
    if (card != kLaunchPad) {
      deck_card_drawn(seat, card);
      give_to_hand(seat, card, 1u << seat);
      return card;
    }
    place_launch_pad_card(seat);  // placed at once, and replaced
  }
}

int State::pop_draw_pile(int seat) {
  if (draw_size_ == 0) {
    // The discard pile is shuffled into a new draw pile: everybody saw its
    // cards, only their order is new. Long game: the Launch Pad cards join it
    // the first time this happens.
    for (int i = 0; i < discard_size_; ++i)
      draw_pile_[static_cast<std::size_t>(i)] = discard_pile_[static_cast<std::size_t>(i)];
    draw_size_ = discard_size_;
    discard_size_ = 0;
    start_new_deck();
    everyone_knows_draw_pile(0, draw_size_);
    for (; launch_pads_aside_ > 0; --launch_pads_aside_)
      draw_pile_[static_cast<std::size_t>(draw_size_++)] = kLaunchPad;
    if (draw_size_ == 0) return -1;
    shuffle_draw_pile();
  }
  const int card = draw_pile_[static_cast<std::size_t>(--draw_size_)];
  launch_pad_region_ = std::min(launch_pad_region_, draw_size_);
  // Only the drawer sees the card, unless it is a Launch Pad card (placed face up).
  if (card != kLaunchPad) forget(kPlaceDrawPile, card, 1u << seat);
  return card;
}

void State::shuffle_draw_pile() {
  rng_.shuffle(draw_pile_.begin(), draw_pile_.begin() + draw_size_);
  launch_pad_region_ = draw_size_;
}

// A drawn Launch Pad card goes to the Construction Zone (short game: straight
// to the Launch Pad area).
void State::place_launch_pad_card(int seat) {
  if (config_->short_game) {
    ++launch_pad_area_;
    check_launch_pad_complete();
  } else {
    ++area_mut(seat).launch_pads[kConstructionZone];
  }
}

uint32_t State::take_from_hand(int seat, int card, uint32_t seen_by) {
  const uint32_t unseen_draw_for =  // from the hand as it was
      deck_card_left_hand(seat, card, seen_by) | recycled_card_left_hand(seat, card, seen_by);
  PlayerArea& p = area_mut(seat);
  --p.hand[static_cast<std::size_t>(card)];
  --p.hand_size;
  forget(kPlaceHand + seat, card, seen_by);
  return unseen_draw_for;
}

void State::give_to_hand(int seat, int card, uint32_t seen_by, uint32_t unseen_draw_for) {
  PlayerArea& p = area_mut(seat);
  ++p.hand[static_cast<std::size_t>(card)];
  ++p.hand_size;
  learn(kPlaceHand + seat, card, seen_by);
  for (int v = 0; v < num_players_; ++v) {
    if ((unseen_draw_for >> v) & 1u)
      ++deck_in_hand_[static_cast<std::size_t>(v)][static_cast<std::size_t>(seat)];
    if ((unseen_draw_for >> (8 + v)) & 1u) went_in_unseen(v, seat);
  }
}

void State::discard_from_hand(int seat, int card) {
  take_from_hand(seat, card, everyone());
  push_discard(card);
}

// ---------------------------------------------------------------- knowledge

int State::known_count(int viewer, int place, int card) const {
  if (place == kPlaceHand + viewer) return area(viewer).hand[static_cast<std::size_t>(card)];
  if (place == kPlaceDrawPile && card == kLaunchPad) return launch_pads_in_draw_pile();
  return known_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(place)]
               [static_cast<std::size_t>(card)];
}

// A card of type `card` entered a hidden place: the seats that saw it now know
// one more copy is there (a hand's holder always knows its hand: not stored).
void State::learn(int place, int card, uint32_t seen_by) {
  for (int v = 0; v < num_players_; ++v)
    if (((seen_by >> v) & 1u) && place != kPlaceHand + v)
      ++known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(place)][static_cast<std::size_t>(card)];
}

// A card of type `card` left a hidden place. A seat that saw which card it
// was knows one copy fewer of that type is there; a seat that did not knows
// only that some card left, so every type it knew there may have been it.
void State::forget(int place, int card, uint32_t seen_by) {
  for (int v = 0; v < num_players_; ++v) {
    if (place == kPlaceHand + v) continue;
    auto& counts = known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(place)];
    if ((seen_by >> v) & 1u) {
      if (counts[static_cast<std::size_t>(card)] > 0) --counts[static_cast<std::size_t>(card)];
    } else {
      for (uint8_t& k : counts)
        if (k > 0) --k;
    }
  }
}

void State::everyone_knows_draw_pile(int from, int to) {
  for (int i = from; i < to; ++i) {
    const int card = draw_pile_[static_cast<std::size_t>(i)];
    learn(kPlaceDrawPile, card, everyone());
    if (card == kLaunchPad) continue;  // counted from the table
    for (int v = 0; v < num_players_; ++v)
      ++deck_[static_cast<std::size_t>(v)][static_cast<std::size_t>(card)];
  }
}

// Ruling 6: the discard pile becomes the new draw pile, its deck; the cards
// drawn before are no longer any seat's concern.
void State::start_new_deck() {
  deck_ = {};
  deck_in_hand_ = {};
  deck_untracked_ = {};
  deck_recycled_ = {};
  deck_fresh_in_hand_ = {};
}

// Ruling 16: Recycle Bin's cards were face up. They join the deck, and each
// seat follows them as the deck's recycled cards, from now on or, while it
// still follows an earlier Recycle Bin's, together with those.
void State::recycled_into_draw_pile(int from, int to) {
  everyone_knows_draw_pile(from, to);
  for (int v = 0; v < num_players_; ++v) {
    auto& recycled = deck_recycled_[static_cast<std::size_t>(v)];
    int following = 0;
    for (uint8_t k : recycled) following += k;
    if (following == 0) deck_fresh_in_hand_[static_cast<std::size_t>(v)] = {};
    for (int i = from; i < to; ++i) {
      const int card = draw_pile_[static_cast<std::size_t>(i)];
      if (card != kLaunchPad) ++recycled[static_cast<std::size_t>(card)];
    }
  }
}

// A card went into `seat`'s hand unseen by `viewer`: it may be a recycled one.
void State::went_in_unseen(int viewer, int seat) {
  uint8_t& fresh = deck_fresh_in_hand_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(seat)];
  if (fresh < 255) ++fresh;
}

// `card` is about to leave `seat`'s hand (seen by `seen_by`). For each seat v
// following recycled cards, with cards in that hand that may be some: seen, it
// may have been a recycled card, which v then no longer follows; unseen
// (Thief), it goes on as a card that may be one (the seats returned, in bits
// 8 and up).
uint32_t State::recycled_card_left_hand(int seat, int card, uint32_t seen_by) {
  uint32_t fresh_for = 0;
  for (int v = 0; v < num_players_; ++v) {
    if (v == seat || deck_fresh_in_hand_[static_cast<std::size_t>(v)][static_cast<std::size_t>(seat)] == 0)
      continue;
    uint8_t& recycled = deck_recycled_[static_cast<std::size_t>(v)][static_cast<std::size_t>(card)];
    if ((seen_by >> v) & 1u) {
      if (recycled > 0) --recycled;
    } else {
      fresh_for |= 1u << (8 + v);
    }
  }
  return fresh_for;
}

// What `viewer` knows of the deck when it knows only its hand and what it
// names in the other hands: every other card hidden from it is a deck card,
// and the other hands' unnamed cards are unseen draws. True in any world; the
// start of the game (the deal was drawn from the whole deck), and what a seat
// keeps of the deck after a world is resampled for another.
void State::deck_from_scratch(int viewer) {
  const auto v = static_cast<std::size_t>(viewer);
  auto& deck = deck_[v];
  deck = {};
  for (int i = 0; i < draw_size_; ++i)
    if (draw_pile_[static_cast<std::size_t>(i)] != kLaunchPad)
      ++deck[draw_pile_[static_cast<std::size_t>(i)]];
  deck_in_hand_[v] = {};
  deck_untracked_[v] = 0;
  deck_recycled_[v] = {};  // from scratch: no recycled cards followed
  deck_fresh_in_hand_[v] = {};
  for (int seat = 0; seat < num_players_; ++seat) {
    if (seat == viewer) continue;
    for (int t = 0; t < kNumCardTypes; ++t) {
      const int unnamed = area(seat).hand[static_cast<std::size_t>(t)] -
                          known_[v][static_cast<std::size_t>(kPlaceHand + seat)][static_cast<std::size_t>(t)];
      deck[static_cast<std::size_t>(t)] = static_cast<uint8_t>(deck[static_cast<std::size_t>(t)] + unnamed);
      deck_in_hand_[v][static_cast<std::size_t>(seat)] =
          static_cast<uint8_t>(deck_in_hand_[v][static_cast<std::size_t>(seat)] + unnamed);
    }
  }
}

// `seat` drew `card` from the pile: it names it at once (and, if it may be a
// recycled card, counts it as one); to everyone else it is one more unseen
// draw in that hand, which may be a recycled card.
void State::deck_card_drawn(int seat, int card) {
  for (int v = 0; v < num_players_; ++v) {
    if (v == seat) {
      --deck_[static_cast<std::size_t>(v)][static_cast<std::size_t>(card)];
      uint8_t& recycled = deck_recycled_[static_cast<std::size_t>(v)][static_cast<std::size_t>(card)];
      if (recycled > 0) --recycled;
    } else {
      ++deck_in_hand_[static_cast<std::size_t>(v)][static_cast<std::size_t>(seat)];
      went_in_unseen(v, seat);
    }
  }
}

// `card` is about to leave `seat`'s hand, seen by `seen_by`. For each other
// seat v with unseen draws in that hand, was it one of them? Seen: yes when no
// other card of the hand can be it (all the cards v does not name there are
// unseen draws, and v names no copy of `card` there); no when no copy of it is
// left in the deck as v follows it. Unseen (Thief): yes when the hand holds
// unseen draws only, and it stays an unseen draw in the hand it goes to (the
// seats returned). When v cannot tell, it loses track of that hand's draws.
uint32_t State::deck_card_left_hand(int seat, int card, uint32_t seen_by) {
  uint32_t unseen_draw_for = 0;
  const int size = area(seat).hand_size;
  for (int v = 0; v < num_players_; ++v) {
    uint8_t& draws = deck_in_hand_[static_cast<std::size_t>(v)][static_cast<std::size_t>(seat)];
    if (v == seat || draws == 0) continue;
    const auto& named = known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(kPlaceHand + seat)];
    int num_named = 0;
    for (uint8_t k : named) num_named += k;
    if ((seen_by >> v) & 1u) {
      uint8_t& in_deck = deck_[static_cast<std::size_t>(v)][static_cast<std::size_t>(card)];
      if (in_deck == 0) continue;  // not a deck card
      if (num_named + draws == size && named[static_cast<std::size_t>(card)] == 0) {
        --in_deck;
        --draws;
        uint8_t& recycled = deck_recycled_[static_cast<std::size_t>(v)][static_cast<std::size_t>(card)];
        recycled = std::min(recycled, in_deck);
        continue;
      }
    } else if (draws == size) {
      --draws;
      unseen_draw_for |= 1u << v;
      continue;
    }
    deck_untracked_[static_cast<std::size_t>(v)] =
        static_cast<uint8_t>(deck_untracked_[static_cast<std::size_t>(v)] + draws);
    draws = 0;
  }
  return unseen_draw_for;
}

void State::push_discard(int card) {
  discard_pile_[static_cast<std::size_t>(discard_size_++)] = static_cast<uint8_t>(card);
}

void State::stage_rocket_bonuses(Rocket& r) {
  for (int b = 0; b < kNumBonusTypes; ++b)
    if ((r.bonuses >> b) & 1) ++staged_[static_cast<std::size_t>(kAstronaut + b)];
  r.bonuses = 0;
}

// Cards an action discards: its player chooses their order on the discard
// pile (rulebook, Action Cards), one card at a time from the top down. The
// order below the top matters too: Recycle Bin takes back only the top ten
// cards, and later discards may cover part of these. Cards of one type are
// interchangeable (ruling 1), so the player is asked only while two kinds or
// more are left; then the rest go on the pile, the chosen cards above them.
void State::finish_staged_discards() {
  int kinds = 0;
  for (int t = 0; t < kNumCardTypes; ++t) kinds += staged_[static_cast<std::size_t>(t)] > 0;
  if (kinds > 1) {
    step_ = Step::kChooseTop;
    return;
  }
  put_ordered_on_discard_pile();
  step_ = Step::kPlay;
}

// kChooseTop: the next card of the order, below those already chosen.
void State::choose_next_discard(int card) {
  --staged_[static_cast<std::size_t>(card)];
  ordered_[static_cast<std::size_t>(ordered_size_++)] = static_cast<uint8_t>(card);
}

// The unchosen cards (one kind at most) first, then the chosen ones from the
// bottom of the order up, so that the first card chosen ends on top.
void State::put_ordered_on_discard_pile() {
  for (int t = 0; t < kNumCardTypes; ++t)
    for (; staged_[static_cast<std::size_t>(t)] > 0; --staged_[static_cast<std::size_t>(t)]) push_discard(t);
  while (ordered_size_ > 0) {
    push_discard(ordered_[static_cast<std::size_t>(ordered_size_ - 1)]);
    ordered_[static_cast<std::size_t>(--ordered_size_)] = 0;
  }
}

// Thief: a uniformly random card of the victim's hand (a chance outcome) goes to the thief's.
void State::steal_random_card(int from_seat, int to_seat, uint32_t seen_by) {
  const PlayerArea& victim = area(from_seat);
  int pick = static_cast<int>(rng_.below(static_cast<uint32_t>(victim.hand_size)));
  int card = 0;
  while (pick >= victim.hand[static_cast<std::size_t>(card)])
    pick -= victim.hand[static_cast<std::size_t>(card++)];
  give_to_hand(to_seat, card, seen_by, take_from_hand(from_seat, card, seen_by));
}

// Surplus (ruling 15): the next player, clockwise from the Surplus player, who
// has a card discards one. When everybody has had the chance, the Surplus
// player chooses the order of the discards on the pile (rulebook, Action
// Cards), as after any action that discards cards; then play goes on.
void State::continue_surplus() {
  while (surplus_offset_ < num_players_ && area(seat_at(surplus_offset_)).hand_size == 0) ++surplus_offset_;
  if (surplus_offset_ < num_players_) return;
  surplus_offset_ = 0;
  finish_staged_discards();  // kChooseTop when two kinds of cards or more wait
  if (step_ == Step::kPlay) after_play();
}

}  // namespace rocketgym::launch_pad
