#include "envs/launch_pad/launch_pad_bot.h"

#include <array>

#include "envs/core/legal_scan.h"

namespace rocketgym::launch_pad {
namespace {

int needed_components(const State& s, int seat, int component) {
  int n = 0;
  for (const Rocket& r : s.area(seat).rockets) {
    if (!r.exists() || r.zone != kConstructionZone) continue;
    const RocketSpec& spec = s.config().rocket[static_cast<std::size_t>(r.kind)];
    n += component == kMetal ? spec.metal - r.metal : spec.fuel - r.fuel;
  }
  return n;
}

// How much `seat` wants to keep a card of this type (higher = keep).
double keep_value(const State& s, int seat, int card) {
  const PlayerArea& p = s.area(seat);
  if (is_rocket(card))
    return s.countdown() ? 1 : 12 + s.config().rocket[static_cast<std::size_t>(card)].points / 2.0;
  if (card == kMetal || card == kFuel)
    return needed_components(s, seat, card) > p.hand[static_cast<std::size_t>(card)] ? 20 : 6;
  if (is_expert(card)) {
    if (card == kJackOfAllTrades) return 22;
    return p.expert[static_cast<std::size_t>(card - kEngineer)] < 0 ? 21 : 2;
  }
  if (is_bonus(card)) return 9;
  if (is_specialty(card)) return p.num_specialties() == 0 ? 10 : 4;
  return 8;  // action cards
}

// The opponent (as an offset from the turn player) with the highest score.
int leader_offset(const State& s) {
  int best = 1, best_score = -1000000;
  for (int o = 1; o < s.num_players(); ++o) {
    const int sc = s.score(s.seat_at(o));
    if (sc > best_score) best = o, best_score = sc;
  }
  return best;
}

// leader_offset, worked out once per decision and only if asked (every
// attack a play decision values reads it).
class Leader {
 public:
  explicit Leader(const State& s) : s_(s) {}
  int offset() {
    if (offset_ == 0) offset_ = leader_offset(s_);  // an opponent's offset is at least 1
    return offset_;
  }

 private:
  const State& s_;
  int offset_ = 0;
};

// What a rocket is worth to its owner now (what an attack on it takes away).
double rocket_worth(const State& s, int seat, int slot) {
  const Rocket& r = s.area(seat).rockets[static_cast<std::size_t>(slot)];
  const double points = s.config().rocket[static_cast<std::size_t>(r.kind)].points;
  if (r.zone == kLaunchZone) return points + 3.0 * r.num_bonuses();
  if (r.zone == kQualityControlZone) return points * 0.6;
  return s.rocket_complete(r) ? points * 0.3 : 0.0;
}

// Weight of hurting the opponent at `offset`: the leader counts most.
double target_weight(Leader& leader, int offset) {
  if (offset == 0) return -1.0;  // never attack oneself
  return offset == leader.offset() ? 1.0 : 0.5;
}

double value_of_play(const State& s, Action a, Leader& leader) {
  const int me = s.turn_player();
  const PlayerArea& mine = s.area(me);
  auto own = [&](int slot) -> const Rocket& { return mine.rockets[static_cast<std::size_t>(slot)]; };
  if (a >= act::kPlayRocket && a < act::kPlayMetal) {
    if (s.countdown()) return -1;  // it would score minus its points in Construction
    int incomplete = 0;
    for (const Rocket& r : mine.rockets)
      incomplete += r.exists() && r.zone == kConstructionZone && !s.rocket_complete(r);
    const int kind = a - act::kPlayRocket;
    const RocketSpec& spec = s.config().rocket[static_cast<std::size_t>(kind)];
    const bool can_complete = mine.hand[kMetal] >= spec.metal && mine.hand[kFuel] >= spec.fuel;
    if (incomplete == 0 || can_complete) return 25 + spec.points;
    return incomplete < 2 ? 5 + spec.points / 4.0 : -1;
  }
  if (a >= act::kPlayMetal && a < act::kPlayExpert) {
    const int slot = (a - act::kPlayMetal) % kMaxRocketSlots;
    return 30 + s.config().rocket[static_cast<std::size_t>(own(slot).kind)].points;
  }
  if (a >= act::kPlayExpert && a < act::kPlayBonus) {
    const int index = a - act::kPlayExpert;
    const int zone = index % 3;
    const double zone_value[3] = {45, 40, 60};
    if (index < 3) return zone_value[zone];
    // A Jack goes where no specific expert in hand could go.
    const bool have_specific = mine.hand[static_cast<std::size_t>(kEngineer + zone)] > 0;
    return have_specific ? 1 : zone_value[zone] - 2;
  }
  if (a >= act::kPlayBonus && a < act::kPlaySpecialty) {
    const int bonus = kAstronaut + (a - act::kPlayBonus) / kMaxRocketSlots;
    const Rocket& r = own((a - act::kPlayBonus) % kMaxRocketSlots);
    switch (bonus) {
      case kQualityCertificate:
        return 22;
      case kOxygen:
        return r.has_bonus(kAstronaut) ? 28 : 14;
      case kAstronaut:
        return r.has_bonus(kOxygen) ? 28 : (mine.hand[kOxygen] > 0 ? 3 : -1);
      default:
        return 10 + s.config().rocket[static_cast<std::size_t>(r.kind)].points / 2.0;  // Maximum Security
    }
  }
  if (a >= act::kPlaySpecialty && a < act::kAbortMission) {
    if (mine.num_specialties() > 0 && !s.config().super_powers) return -1;
    const int card = kEmployeeContract + (a - act::kPlaySpecialty);
    return card == kSecuritySystem ? 18 : card == kOvertime ? 15 : card == kEmployeeContract ? 14 : 12;
  }
  if (a >= act::kAbortMission && a < act::kBigRedButton) {
    const int o = (a - act::kAbortMission) / kMaxRocketSlots,
              slot = (a - act::kAbortMission) % kMaxRocketSlots;
    return target_weight(leader, o) * rocket_worth(s, s.seat_at(o), slot) * 3.0;
  }
  if (a >= act::kBigRedButton && a < act::kBudgetCuts) {
    // Hurry the end when ahead.
    const int lead = s.score(s.seat_at(leader.offset()));
    return s.score(me) > lead + 5 ? 20 : -1;
  }
  if (a >= act::kBudgetCuts && a < act::kFastTrack)
    return target_weight(leader, a - act::kBudgetCuts + 1) * 14;
  if (a >= act::kFastTrack && a < act::kPartsSupplier) {
    const Rocket& r = own(a - act::kFastTrack);
    return 35 + s.config().rocket[static_cast<std::size_t>(r.kind)].points +
           (r.zone == kConstructionZone ? 10 : 0);
  }
  if (a == act::kPartsSupplier) return 18;
  if (a >= act::kQualityCheck && a < act::kRecruitment) {
    const int o = (a - act::kQualityCheck) / kMaxRocketSlots,
              slot = (a - act::kQualityCheck) % kMaxRocketSlots;
    return target_weight(leader, o) * rocket_worth(s, s.seat_at(o), slot) * 2.0;
  }
  if (a >= act::kRecruitment && a < act::kRecycleBin) {
    const int o = (a - act::kRecruitment) / 3 + 1, zone = (a - act::kRecruitment) % 3;
    const double hurt = zone == kLaunchZone ? 30 : 12;
    return target_weight(leader, o) * hurt + (mine.expert[static_cast<std::size_t>(zone)] < 0 ? 10 : 0);
  }
  if (a == act::kRecycleBin) return 1;
  if (a >= act::kSabotage && a < act::kSalvage) {
    const int r = (a - act::kSabotage) / 2;
    const int o = r / kMaxRocketSlots, slot = r % kMaxRocketSlots;
    const int component = (a - act::kSabotage) % 2 ? kFuel : kMetal;
    const double gain =
        needed_components(s, me, component) > mine.hand[static_cast<std::size_t>(component)] ? 4 : 0;
    return target_weight(leader, o) * rocket_worth(s, s.seat_at(o), slot) * 2.5 + gain;
  }
  if (a >= act::kSalvage && a < act::kSurplus) {
    const int card = a - act::kSalvage;
    if (card == kSalvage) return -1;
    return keep_value(s, me, card) - 8;
  }
  if (a == act::kSurplus) return 2;
  if (a >= act::kThief && a < act::kVacuum) return a - act::kThief == leader.offset() - 1 ? 12 : 6;
  if (a >= act::kVacuum && a < act::kOfferCard) {
    const int o = (a - act::kVacuum) / kMaxRocketSlots, slot = (a - act::kVacuum) % kMaxRocketSlots;
    const Rocket& r = s.area(s.seat_at(o)).rockets[static_cast<std::size_t>(slot)];
    return target_weight(leader, o) * (r.has_bonus(kAstronaut) ? 20 : 4);
  }
  return -1;  // offers, and anything else: not worth it
}

// Whether a card left in hand at the end of the turn is worth its place, or
// should make room for a fresh draw next turn.
bool worth_keeping(const State& s, int seat, int card) {
  const PlayerArea& p = s.area(seat);
  int incomplete = 0, in_qc = 0, in_launch = 0, rockets_in_hand = 0;
  for (const Rocket& r : p.rockets) {
    if (!r.exists()) continue;
    incomplete += r.zone == kConstructionZone && !s.rocket_complete(r);
    in_qc += r.zone == kQualityControlZone && !r.has_bonus(kQualityCertificate);
    in_launch += r.zone == kLaunchZone;
  }
  for (int k = kObserver; k <= kGalactic; ++k) rockets_in_hand += p.hand[static_cast<std::size_t>(k)];
  if (is_rocket(card)) return !s.countdown() && incomplete == 0 && rockets_in_hand <= 1;
  if (card == kMetal || card == kFuel) {
    int wanted = needed_components(s, seat, card);
    for (int k = kObserver; k <= kGalactic; ++k) {
      const RocketSpec& spec = s.config().rocket[static_cast<std::size_t>(k)];
      wanted += p.hand[static_cast<std::size_t>(k)] * (card == kMetal ? spec.metal : spec.fuel);
    }
    return p.hand[static_cast<std::size_t>(card)] <= wanted;
  }
  if (card == kJackOfAllTrades) return p.expert[0] < 0 || p.expert[1] < 0 || p.expert[2] < 0;
  if (is_expert(card)) return p.expert[static_cast<std::size_t>(card - kEngineer)] < 0;
  if (card == kQualityCertificate) return in_qc > 0 || incomplete > 0;
  if (is_bonus(card)) return in_launch + in_qc > 0;
  if (is_specialty(card) || card == kRecycleBin || card == kSurplus) return false;
  return true;  // attack cards wait for a target
}

Action lowest_value_card(const State& s, int seat, int base) {
  const PlayerArea& p = s.area(seat);
  int best = -1;
  double best_value = 1e9;
  for (int t = 0; t < kNumCardTypes; ++t) {
    if (p.hand[static_cast<std::size_t>(t)] == 0) continue;
    // The more copies, the less each is worth.
    const double v = keep_value(s, seat, t) - 0.5 * p.hand[static_cast<std::size_t>(t)];
    if (v < best_value) best = t, best_value = v;
  }
  return base + best;
}

// The decisions that read no legal mask: they pick among cards in hand.
Action hand_action(const State& s) {
  const int me = s.turn_player();
  switch (s.step()) {
    case Step::kDrawChoice:
      return keep_value(s, me, s.discard_top()) >= 15 ? act::kTakeDiscardTop : act::kDrawFromPile;
    case Step::kSurplus:
      return lowest_value_card(s, s.current_player(), act::kSurplusDiscard);
    case Step::kDiscard:
      if (s.area(me).hand_size > s.hand_limit(me)) return lowest_value_card(s, me, act::kDiscard);
      for (int t = 0; t < kNumCardTypes; ++t)  // make room for fresh cards next turn
        if (s.area(me).hand[static_cast<std::size_t>(t)] > 0 && !worth_keeping(s, me, t))
          return act::discard(t);
      return act::kEndTurn;
    default:
      return -1;
  }
}

}  // namespace

Action heuristic_action(const State& s, Rng& rng) {
  // Most decisions of a turn are these: they skip the legal mask, the costliest part of the others.
  if (const Action a = hand_action(s); a >= 0) return a;
  std::array<uint8_t, act::kNumActions> mask;  // legal_actions_mask writes every id
  s.legal_actions_mask(mask.data());
  const int me = s.turn_player();
  switch (s.step()) {
    case Step::kAdvance: {  // advance the most valuable rockets first
      Action best = act::kStopAdvancing;
      int best_points = -1;
      for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
        if (!mask[static_cast<std::size_t>(act::advance(slot))]) continue;
        const Rocket& r = s.area(me).rockets[static_cast<std::size_t>(slot)];
        const int points = s.config().rocket[static_cast<std::size_t>(r.kind)].points + 20 * r.zone;
        if (points > best_points) best = act::advance(slot), best_points = points;
      }
      return best;
    }
    // The discard order, from the top down: the highest card type left each time, so Components
    // and rockets lie deepest, out of the next player's reach and last to return with Recycle Bin.
    case Step::kChooseTop:
      for (int t = kNumCardTypes - 1; t >= 0; --t)
        if (mask[static_cast<std::size_t>(act::put_on_top(t))]) return act::put_on_top(t);
      break;
    case Step::kOffer:
      return mask[act::kAcceptOffer] && keep_value(s, s.current_player(), s.offer_card()) >= 10
                 ? act::kAcceptOffer
                 : act::kRejectOffer;
    case Step::kPlay: {
      Action best = act::kStopPlaying;
      double best_value = 0.0;
      Leader leader(s);
      // Visits the legal plays only, in id order (each draws from the stream).
      for_each_legal_action(mask.data(), act::kPlayRocket, act::kStopPlaying, [&](Action a) {
        const double v = value_of_play(s, a, leader) + 0.01 * rng.uniform01();
        if (v > best_value) best = a, best_value = v;
      });
      return best;
    }
    case Step::kDrawChoice:  // answered by hand_action
    case Step::kSurplus:
    case Step::kDiscard:
    case Step::kGameOver:
      break;
  }
  for (int a = 0; a < act::kNumActions; ++a)  // fallback: the first legal action
    if (mask[static_cast<std::size_t>(a)]) return a;
  return 0;
}

}  // namespace rocketgym::launch_pad
