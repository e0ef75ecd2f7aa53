#include "envs/rocket_squad/rocket_squad_bot.h"

#include <array>

#include "envs/core/legal_scan.h"

namespace rocketgym::rocket_squad {
namespace {

bool all_placed(const State& s, int p) {
  for (int loc = 0; loc < kNumLocations; ++loc)
    if (!s.rocket(p, loc).has_booster()) return false;
  return true;
}

// How much the player would rather keep a card in hand than use it as a box.
double keep_value(const State& s, int p, CardType t) {
  if (is_booster(t)) {
    const int colour = booster_colour(t);
    for (int loc = 0; loc < kNumLocations; ++loc)
      if (!s.rocket(p, loc).has_booster() && (colour == kWild || colour == loc)) return 45.0;
    return 0.0;
  }
  switch (t) {
    case kMom:
    case kGrandma:
    case kCrew:
      return 40.0;
    case kDad:
    case kDuctTape:
    case kWaterBalloons:
    case kAce:
    case kJoker:
      return 25.0;
    default:
      return 10.0;
  }
}

// Progress of a rocket towards launch, in [0, 1].
double progress(const Rocket& r) { return r.need() > 0 ? static_cast<double>(r.num_boxes) / r.need() : 0.0; }

// Would adding `boxes` boxes launch the rocket at once?
bool launches_with(const State& s, int p, int loc, int boxes) {
  return all_placed(s, p) && s.rocket(p, loc).room() == boxes;
}

// Is the current outcome of the chain bad for player `me`?
bool chain_hurts(const State& s, int me) {
  const Chain& c = s.chain();
  const bool happens = c.blocks % 2 == 0;
  if (s.turn_player() == me) return !happens;  // my card is being blocked
  if ((c.against >> me) & 1) return happens;   // a card played against me
  return false;                                // other people's quarrels: keep the block card
}

double turn_value(const State& s, Action a) {
  using namespace action;
  const int p = s.turn_player();
  if (a == kEndTurn) return 10.0;
  // Offered only when no card of the first hand can be played (ruling 10): ending the turn
  // instead would waste it.
  if (a == kRedraw) return 90.0;
  if (a < kBuildBox) {
    const int index = (a - kPlaceBooster) / kNumLocations, loc = (a - kPlaceBooster) % kNumLocations;
    if (s.rocket(p, loc).has_booster()) return -50.0;  // replacing gains little
    const bool wild = index / kMaxValue == kWild;
    return 100.0 + 0.5 * (index % kMaxValue + 1) - (wild ? 5.0 : 0.0);
  }
  if (a < kKnockOver) {
    const CardType t = static_cast<CardType>((a - kBuildBox) / kNumLocations);
    const int loc = (a - kBuildBox) % kNumLocations;
    const Rocket& r = s.rocket(p, loc);
    return 40.0 + (10.0 - (r.room() - 1)) - keep_value(s, p, t) + (launches_with(s, p, loc, 1) ? 20.0 : 0.0);
  }
  if (a < kPlayDad) return s.rocket(p, a - kKnockOver).num_boxes <= 1 ? 30.0 : 5.0;
  if (a < kPlayJack) {
    const int target = s.seat((a - kPlayDad) / 16 + 1);
    const int own_loc = (a - kPlayDad) % 4;
    return 55.0 + 10.0 * progress(s.rocket(target, (a - kPlayDad) % 16 / 4)) +
           10.0 * progress(s.rocket(p, own_loc)) + (launches_with(s, p, own_loc, 1) ? 20.0 : 0.0);
  }
  if (a < kPlayUncle) return 35.0;
  if (a < kPlayJackie) {
    const int to = (a - kPlayUncle) % 48 / kMaxValue, count = (a - kPlayUncle) % kMaxValue + 1;
    return launches_with(s, p, to, count) ? 70.0 : -10.0;
  }
  if (a == kPlayJackie) return 30.0;
  if (a < kAceDog) {
    const int target = s.seat((a - kPlayJoker) / 4 + 1);
    return 50.0 + 10.0 * progress(s.rocket(target, (a - kPlayJoker) % 4));
  }
  if (a < kAceScare) {
    const int boxes = s.rocket(s.seat((a - kAceDog) / 8 + 1), (a - kAceDog) % 8 / 2).num_boxes;
    return boxes > 0 ? 45.0 + boxes : -20.0;  // on a rocket without boxes Ace passes nothing
  }
  if (a < kPlayFriend) return 65.0;
  if (a < kPlayDuctTape) return 20.0 + s.rocket(p, a - kPlayFriend).num_boxes;
  if (a < kPlayBalloons) {
    const int loc = a - kPlayDuctTape;
    return 60.0 + 10.0 * progress(s.rocket(p, loc)) + (launches_with(s, p, loc, 2) ? 20.0 : 0.0);
  }
  if (a < kBalloonsScare) {
    double v = 45.0;
    int code = a - kPlayBalloons;
    for (int offset = 1; offset <= 3; ++offset, code /= 5)
      if (code % 5 != kNoTarget) v += 5.0 * progress(s.rocket(s.seat(offset), code % 5));
    return v;
  }
  if (a < kNoBlock) return 65.0;
  return 0.0;
}

double action_value(const State& s, Action a) {
  using namespace action;
  const int me = s.current_player();
  switch (s.phase()) {
    case Phase::kTurn:
      return turn_value(s, a);
    case Phase::kReaction:
      if (a == kNoBlock) return chain_hurts(s, me) ? 0.0 : 10.0;
      return chain_hurts(s, me) ? (a == kBlockMom ? 20.0 : 15.0) : -10.0;
    case Phase::kCrew:
      return a == kCrewAttach ? 1.0 : 0.0;
    case Phase::kJackieKeep:
      return keep_value(s, me, s.jackie().cards[(a - kJackieKeep) / 2]) - ((a - kJackieKeep) % 2) * 0.01;
    case Phase::kAcePass: {
      const int loc = a - kAceBuild;
      return 10.0 * progress(s.rocket(me, loc)) + (launches_with(s, me, loc, 1) ? 20.0 : 0.0);
    }
    case Phase::kGameOver:
      break;
  }
  return 0.0;
}

}  // namespace

Action heuristic_action(const State& s, Rng& rng) {
  std::array<uint8_t, action::kNumActions> mask;  // legal_actions_mask writes every id
  s.legal_actions_mask(mask.data());
  Action best = -1;
  double best_value = 0.0;
  int ties = 0;
  // A handful of the 970 ids are legal: visit those only, in id order (the ties' draws depend on it).
  for_each_legal_action(mask.data(), 0, action::kNumActions, [&](Action a) {
    const double v = action_value(s, a);
    if (best < 0 || v > best_value + 1e-9) {
      best = a;
      best_value = v;
      ties = 1;
    } else if (v > best_value - 1e-9 && rng.below(static_cast<uint32_t>(++ties)) == 0) {
      best = a;  // uniform among equally good actions
    }
  });
  return best;
}

}  // namespace rocketgym::rocket_squad
