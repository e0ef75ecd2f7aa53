#include "envs/lift_off/lift_off_bot.h"

#include <array>

#include "envs/core/legal_scan.h"

namespace rocketgym::lift_off {

using namespace actions;

namespace {

using Mask = std::array<uint8_t, kNumActions>;

// The best legal action in [lo, hi) by `score`, or -1 if none is legal.
template <class Score>
Action best_in(const Mask& legal, Action lo, Action hi, Score score) {
  Action best = -1;
  double best_score = 0.0;
  for_each_legal_action(legal.data(), lo, hi, [&](Action a) {
    const double v = score(a);
    if (best < 0 || v > best_score) best = a, best_score = v;
  });
  return best;
}

// The lab level the bot aims for: 2 in phase 1, 3 then 4 in phase 2.
int target_lab(const State& s) { return s.phase() == 1 ? 2 : (s.round() >= 7 ? 4 : 3); }

// Techs missing to meet the closest alternative of `level` in this phase.
int missing_for(const State& s, int seat, int level, TechNeed* closest = nullptr) {
  const auto& req =
      s.config()
          .tech_requirements[static_cast<std::size_t>(s.phase() - 1)][static_cast<std::size_t>(level - 1)];
  int best_missing = 1 << 20;
  for (int a = 0; a < req.num_alternatives; ++a) {
    int missing = 0;
    for (int col = 0; col < kNumColours; ++col)
      missing += std::max(0, req.alternatives[static_cast<std::size_t>(a)][static_cast<std::size_t>(col)] -
                                 s.player(seat).tech[static_cast<std::size_t>(col)]);
    if (missing < best_missing) {
      best_missing = missing;
      if (closest) *closest = req.alternatives[static_cast<std::size_t>(a)];
    }
  }
  return best_missing;
}

// The techs the bot works towards: level 1 at once, and the highest level of
// its Earth missions that its lab reaches (or will reach).
TechNeed tech_goal(const State& s, int seat) {
  const Player& p = s.player(seat);
  int level = std::min(target_lab(s), s.phase() == 1 ? 2 : 3);
  int earth_level = 0;
  for (int i = 0; i < p.num_earth; ++i) {
    const int l = s.config().missions[p.earth[static_cast<std::size_t>(i)]].level;
    if (l <= std::max(p.lab_level, target_lab(s))) earth_level = std::max(earth_level, l);
  }
  if (earth_level > 0) level = earth_level;
  TechNeed goal{}, one{};
  missing_for(s, seat, level, &goal);
  missing_for(s, seat, 1, &one);
  for (int col = 0; col < kNumColours; ++col)
    goal[static_cast<std::size_t>(col)] =
        std::max(goal[static_cast<std::size_t>(col)], one[static_cast<std::size_t>(col)]);
  return goal;
}

// The techs of each colour `seat` still misses for its tech_goal, worked out
// once per decision and only if asked.
class MissingTech {
 public:
  MissingTech(const State& s, int seat) : s_(s), seat_(seat) {}
  int operator()(int colour) {
    if (!known_) goal_ = tech_goal(s_, seat_), known_ = true;
    return std::max(
        0, goal_[static_cast<std::size_t>(colour)] - s_.player(seat_).tech[static_cast<std::size_t>(colour)]);
  }

 private:
  const State& s_;
  int seat_;
  bool known_ = false;
  TechNeed goal_{};
};

double specialist_value(const State& s, int seat, int card) {
  const Config& c = s.config();
  const SpecialistCard& sc = c.specialists[static_cast<std::size_t>(card)];
  const Player& p = s.player(seat);
  double v = 0.0;
  switch (sc.banner) {
    case Banner::kMoney3:
      v += 3;
      break;
    case Banner::kVp5:
      v += 5;
      break;
    case Banner::kExtraMission:
      v += 3;
      break;
    case Banner::kExtraLaunch:
      v += p.num_earth > 1 ? 7 : 3;
      break;
    case Banner::kCapacity:
      v += 1.5 * sc.capacity_bonus;
      break;
  }
  for (int i = 0; i < sc.num_actions; ++i) {
    switch (sc.actions[static_cast<std::size_t>(i)]) {
      case SpecialistAction::kLab:
      case SpecialistAction::kLabCheap:
        v += p.lab_level < target_lab(s) ? 8 : 1;
        break;
      case SpecialistAction::kBuyTech:
      case SpecialistAction::kBuyTwoDifferent:
      case SpecialistAction::kBuyTechBulk:
        v += 4;
        break;
      case SpecialistAction::kCapacity:
        v += s.capacity(seat) < 4 ? 4 : 1;
        break;
      case SpecialistAction::kStation:
        v += 4;
        break;
      case SpecialistAction::kMoney6:
        v += 4;
        break;
      case SpecialistAction::kRewardL1:
        v += 2.0 * s.missions_in_space_of_level(seat, 1);
        break;
      case SpecialistAction::kRewardL2:
        v += 3.0 * s.missions_in_space_of_level(seat, 2);
        break;
      case SpecialistAction::kRewardL3:
        v += 4.0 * s.missions_in_space_of_level(seat, 3);
        break;
      case SpecialistAction::kPropulsion:
        v += 2;
        break;
      case SpecialistAction::kBuyGreen:
      case SpecialistAction::kBuyGreenBulk:
        v += s.phase() == 2 ? 3 : 1;
        break;
      default:
        v += 1;
        break;
    }
  }
  return v;
}

double objective_value(const State& s, int seat, int objective) {
  const ObjectiveCard& o = s.config().objectives[static_cast<std::size_t>(objective)];
  switch (o.count) {
    case ObjectiveCount::kMissionsInSpace:
      return (o.levels_mask & 0b110) ? 6 : 3;  // levels 1-2 are reachable
    case ObjectiveCount::kTech:
      return o.colour == kRed || o.colour == kYellow ? 5 : 2;
    case ObjectiveCount::kIncome:
      return 4;
    default:
      return 1 + 0.1 * s.objective_points(seat, objective);
  }
}

double mission_value(const State& s, int seat, int type) {
  const MissionType& m = s.config().missions[static_cast<std::size_t>(type)];
  double v = m.vp + 2.0 * (m.gain_tech[0] + m.gain_tech[1] + m.gain_tech[2]) + 3.0 * m.gain_tech[3] +
             0.5 * m.gain_money + 3.0 * m.income + 2.0 * (m.free_propulsion + m.free_capacity) +
             (m.has_hourglass() ? 5 : 0);
  const int reach = s.capacity(seat) + s.unused_capacity_banners(seat) + 1;
  if (m.weight > reach) v -= 4.0 * (m.weight - reach);
  if (m.level > s.player(seat).lab_level) v -= 3;
  v -= 2.0 * missing_for(s, seat, m.level);
  return v;
}

// Money the bot keeps for this round's launch.
int launch_reserve(const State& s, int seat) {
  if (s.player(seat).num_earth == 0) return 0;
  return s.launch_cost(seat);
}

Action specialist_action(const State& s, const Mask& legal, Rng& rng) {
  const int me = s.current_player();
  const Player& p = s.player(me);
  const Config& c = s.config();
  auto ok = [&](Action a) { return a >= 0 && legal[static_cast<std::size_t>(a)]; };
  const int spare = p.money - launch_reserve(s, me);
  MissingTech missing_tech(s, me);
  switch (s.step()) {
    case Step::kBulkBuy:
      for (int col = 0; col < 3; ++col)
        if (missing_tech(col) > 0 && spare >= c.buy_tech_bulk && ok(kBulkBuy + col)) return kBulkBuy + col;
      return kBulkFinish;
    case Step::kExchangeGive:
    case Step::kExchangeTake:
      for (int col = 0; col < kNumColours; ++col)
        if (missing_tech(col) > 0 && ok(kExchangeTake + col)) return kExchangeTake + col;
      return kExchangeTake + static_cast<Action>(rng.below(2));
    case Step::kStationReward:
      return ok(kStationIncome) && s.round() <= 5 ? kStationIncome : kStationGreen;
    default:
      break;
  }
  if (p.lab_level < target_lab(s)) {
    if (ok(kLabUpgradeCheap)) return kLabUpgradeCheap;
    if (ok(kLabUpgrade)) return kLabUpgrade;
  }
  for (int col = 0; col < 3; ++col) {
    if (missing_tech(col) == 0) continue;
    if (spare >= c.buy_tech_bulk && ok(kBulkBuy + col)) return kBulkBuy + col;
    if (spare >= c.buy_tech && ok(kBuyTech + col)) return kBuyTech + col;
  }
  for (int pair = 0; pair < 3; ++pair) {
    static constexpr int kPairs[3][2] = {{kRed, kYellow}, {kRed, kBlue}, {kYellow, kBlue}};
    if (spare >= c.buy_two_different && ok(kBuyTwoDifferent + pair) &&
        missing_tech(kPairs[pair][0]) + missing_tech(kPairs[pair][1]) > 0)
      return kBuyTwoDifferent + pair;
  }
  if (ok(kCapacityUpgrade) && s.capacity(me) < 4 && spare >= c.capacity_price) return kCapacityUpgrade;
  if (ok(kStationInvest) && spare >= s.station_next_cost()) return kStationInvest;
  for (int level = 3; level >= 1; --level)
    if (ok(kRewardL1 + level - 1) && s.missions_in_space_of_level(me, level) > 0)
      return kRewardL1 + level - 1;
  if (ok(kMoney6)) return kMoney6;
  if (ok(kPropulsionUpgrade) && s.launch_cost(me) > 3 && spare >= c.propulsion_price)
    return kPropulsionUpgrade;
  // Late in the game money is worth 1 VP per 5, a green tech 3 VP.
  if (s.round() >= 7) {
    if (ok(kBuyGreenBulk + 1) && spare >= c.buy_green_bulk[1]) return kBuyGreenBulk + 1;
    if (ok(kBuyGreenBulk) && spare >= c.buy_green_bulk[0]) return kBuyGreenBulk;
    if (ok(kBuyGreen) && spare >= c.buy_green) return kBuyGreen;
  }
  if (ok(kTakeMoney)) return kTakeMoney;
  return kEndSpecialist;
}

// The bot's preference; heuristic_action() makes sure it is legal.
Action preferred_action(const State& s, int me, const Mask& legal, Rng& rng) {
  const Player& p = s.player(me);
  switch (s.step()) {
    case Step::kObjectiveKeep:
      return best_in(legal, kKeepObjective, kPassObjective,
                     [&](Action a) { return objective_value(s, me, a - kKeepObjective); });
    case Step::kObjectivePass:
      return best_in(legal, kPassObjective, kDraftLeft,
                     [&](Action a) { return -objective_value(s, me, a - kPassObjective); });
    case Step::kChooseDirection:
      return kDraftLeft;
    case Step::kSpecialistKeep:
      return best_in(legal, kKeepSpecialist, kPassSpecialist,
                     [&](Action a) { return specialist_value(s, me, a - kKeepSpecialist); });
    case Step::kSpecialistPass:
      return best_in(legal, kPassSpecialist, kPlaySpecialist,
                     [&](Action a) { return -specialist_value(s, me, a - kPassSpecialist); });
    case Step::kPlaySpecialist:
      return best_in(legal, kPlaySpecialist, kTakeMoney,
                     [&](Action a) { return specialist_value(s, me, a - kPlaySpecialist); });
    case Step::kSpecialistActions:
    case Step::kBulkBuy:
    case Step::kExchangeGive:
    case Step::kExchangeTake:
    case Step::kStationReward:
      return specialist_action(s, legal, rng);
    case Step::kChooseDeck:
      // The highest level the lab and techs can launch now, else one within two techs, else the lowest.
      for (int gap = 0; gap <= 2; gap += 2)
        for (int level = std::min(p.lab_level, kNumLevels); level >= 1; --level)
          if (legal[static_cast<std::size_t>(kDrawFromDeck + level - 1)] && missing_for(s, me, level) <= gap)
            return kDrawFromDeck + level - 1;
      return best_in(legal, kDrawFromDeck, kKeepMission, [](Action a) { return -a; });
    case Step::kKeepMissions: {
      // Keep the best drawn mission; an optional extra keep only if it is worth having.
      const Action keep = best_in(legal, kKeepMission, kStopKeeping,
                                  [&](Action a) { return mission_value(s, me, a - kKeepMission); });
      if (keep >= 0 && (!legal[kStopKeeping] || mission_value(s, me, keep - kKeepMission) > 0)) return keep;
      return kStopKeeping;
    }
    case Step::kLaunch:
      if (legal[kLaunchWithExtra]) return kLaunchWithExtra;  // cheaper: spend it first
      if (legal[kLaunchWithLab]) return kLaunchWithLab;
      return kEndLaunches;
    case Step::kLoadRocket: {
      const Action load = best_in(legal, kLoadMission, kApplyCapacity, [&](Action a) {
        return s.config().missions[static_cast<std::size_t>(a - kLoadMission)].vp + 1.0;
      });
      if (load >= 0) return load;
      if (legal[kLiftOff]) return kLiftOff;
      return best_in(legal, kApplyCapacity, kLiftOff, [](Action a) { return -a; });
    }
    case Step::kDiscardObjectives:
      return best_in(legal, kDiscardObjective, kNumActions, [&](Action a) {
        if (a == kKeepObjectives) return 0.5;
        return s.objective_points(me, a - kDiscardObjective) == 0 ? 1.0 : 0.0;
      });
    case Step::kGameOver:
      break;
  }
  return -1;
}

}  // namespace

// Never an illegal action: if the preference is not legal (a position no game
// reaches, which loading rejects), the first legal action; -1 only when there
// is none (the game is over).
Action heuristic_action(const State& s, Rng& rng) {
  const int me = s.current_player();
  if (me < 0) return -1;  // the game is over
  Mask legal;             // legal_actions_mask writes every id
  s.legal_actions_mask(legal.data());
  const Action a = preferred_action(s, me, legal, rng);
  if (a >= 0 && a < kNumActions && legal[static_cast<std::size_t>(a)]) return a;
  for (Action b = 0; b < kNumActions; ++b)
    if (legal[static_cast<std::size_t>(b)]) return b;
  return -1;
}

}  // namespace rocketgym::lift_off
