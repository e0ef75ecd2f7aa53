// Lift Off: action names and the readable text (to_string, observation_string).
#include <sstream>

#include "envs/lift_off/lift_off.h"

namespace rocketgym::lift_off {

using namespace actions;

std::string State::action_to_string(Action a) const {
  const Config& c = *config_;
  auto spec = [&](int x) {
    return x < static_cast<int>(c.specialists.size())
               ? c.specialists[static_cast<std::size_t>(x)].name + " (" +
                     c.specialists[static_cast<std::size_t>(x)].id + ")"
               : "specialist #" + std::to_string(x);
  };
  auto mis = [&](int x) {
    return x < static_cast<int>(c.missions.size())
               ? c.missions[static_cast<std::size_t>(x)].name + " (L" +
                     std::to_string(c.missions[static_cast<std::size_t>(x)].level) + ")"
               : "mission #" + std::to_string(x);
  };
  auto obj = [&](int x) {
    return x < static_cast<int>(c.objectives.size()) ? c.objectives[static_cast<std::size_t>(x)].name + " (" +
                                                           c.objectives[static_cast<std::size_t>(x)].id + ")"
                                                     : "objective #" + std::to_string(x);
  };
  static const char* kPairs[3] = {"red + yellow", "red + blue", "yellow + blue"};
  if (a < 0 || a >= kNumActions) return "<action " + std::to_string(a) + " out of range>";
  if (a < kPassObjective) return "keep objective " + obj(a - kKeepObjective);
  if (a < kDraftLeft) return "pass objective " + obj(a - kPassObjective);
  if (a == kDraftLeft) return "pass specialists left (clockwise)";
  if (a == kDraftRight) return "pass specialists right (counter-clockwise)";
  if (a < kPassSpecialist) return "keep specialist " + spec(a - kKeepSpecialist);
  if (a < kPlaySpecialist) return "pass specialist " + spec(a - kPassSpecialist);
  if (a < kTakeMoney) return "play specialist " + spec(a - kPlaySpecialist);
  if (a == kTakeMoney) return "use no action: take " + std::to_string(c.money_instead) + " money";
  if (a == kEndSpecialist) return "finish this specialist";
  if (a == kMoney6)
    return "gain " + std::to_string(c.money6_self) + " money (others gain " +
           std::to_string(c.money6_others) + ")";
  if (a < kBuyTech) return "reward for level " + std::to_string(a - kRewardL1 + 1) + " missions in space";
  if (a < kBulkBuy)
    return std::string("buy 1 ") + colour_name(a - kBuyTech) + " tech for " + std::to_string(c.buy_tech);
  if (a < kBulkFinish)
    return std::string("bulk buy 1 ") + colour_name(a - kBulkBuy) + " tech for " +
           std::to_string(c.buy_tech_bulk);
  if (a == kBulkFinish) return "stop bulk buying";
  if (a == kBuyGreen) return "buy 1 green tech for " + std::to_string(c.buy_green);
  if (a < kCapacityUpgrade)
    return std::string("sell 1 ") + colour_name(a - kSellTech) + " tech for " + std::to_string(c.sell_tech);
  if (a == kCapacityUpgrade) return "buy a capacity upgrade for " + std::to_string(c.capacity_price);
  if (a < kExchangeGive)
    return std::string("buy ") + kPairs[a - kBuyTwoDifferent] + " techs for " +
           std::to_string(c.buy_two_different);
  if (a < kExchangeTake) return std::string("exchange: return 1 ") + colour_name(a - kExchangeGive) + " tech";
  if (a < kBuyGreenBulk) return std::string("exchange: take 1 ") + colour_name(a - kExchangeTake) + " tech";
  if (a < kLabUpgrade) {
    const int k = a - kBuyGreenBulk;
    return "buy " + std::to_string(k + 1) + " green tech for " +
           std::to_string(c.buy_green_bulk[static_cast<std::size_t>(k)]);
  }
  if (a == kLabUpgrade || a == kLabUpgradeCheap)
    return a == kLabUpgrade ? "upgrade the lab one level" : "upgrade the lab one level (cheap)";
  if (a == kPropulsionUpgrade) return "buy a propulsion upgrade for " + std::to_string(c.propulsion_price);
  if (a == kStationInvest) return "invest in the space station";
  if (a == kStationGreen) return "space station reward: take 1 green tech";
  if (a == kStationIncome) return "space station reward: income +1";
  if (a < kKeepMission)
    return "draw from the level " + std::to_string(a - kDrawFromDeck + 1) + " mission deck";
  if (a < kStopKeeping) return "keep mission " + mis(a - kKeepMission);
  if (a == kStopKeeping) return "keep no more missions";
  if (a == kLaunchWithLab) return "launch a rocket with the lab's launch symbol";
  if (a == kLaunchWithExtra)
    return "launch a rocket with an extra launch symbol (cost -" + std::to_string(c.extra_launch_discount) +
           ")";
  if (a == kEndLaunches) return "launch no more rockets this round";
  if (a < kApplyCapacity) return "load mission " + mis(a - kLoadMission) + " on the rocket";
  if (a < kLiftOff)
    return "use a +" + std::to_string(a - kApplyCapacity + 1) + " capacity banner on this launch";
  if (a == kLiftOff) return "lift off";
  if (a < kKeepObjectives)
    return "discard objective " + obj(a - kDiscardObjective) + " for " +
           std::to_string(c.objective_discard_money) + " money";
  return "keep the remaining objectives";
}

std::string State::to_string() const { return describe(-1); }

std::string State::observation_string(int viewer) const { return describe(viewer); }

// The board as text; viewer -1 shows everything, otherwise only what that
// player may see (other hands and objectives as counts and known cards).
std::string State::describe(int viewer) const {
  const Config& c = *config_;
  std::ostringstream out;
  out << "Lift Off, " << num_players_ << " players, round " << round_ << " (phase " << phase_
      << "), start player " << start_player_ << ", draft " << (direction_ > 0 ? "left" : "right") << "\n";
  out << "step " << step_name(step_)
      << (is_terminal() ? "" : ", player " + std::to_string(actor_) + " to act") << "\n";
  out << "specialist deck " << specialist_deck_count_ << ", discard " << specialist_discard_count_
      << "; mission decks L1-L4 " << mission_deck_count_[0] << "/" << mission_deck_count_[1] << "/"
      << mission_deck_count_[2] << "/" << mission_deck_count_[3] << "; station next cost "
      << station_next_cost() << "\n";
  for (int w = 0; w < num_players_; ++w) {
    const Player& p = player(w);
    out << "P" << w << ": " << p.vp << " VP";
    if (is_terminal()) out << " + " << final_vp_[static_cast<std::size_t>(w)] << " final";
    out << ", " << p.money << " money, income " << p.income << ", lab L" << p.lab_level << ", capacity "
        << capacity(w) << ", cost " << launch_cost(w) << ", tech R" << p.tech[0] << " Y" << p.tech[1] << " B"
        << p.tech[2] << " G" << p.tech[3] << ", station " << p.station_investments << "\n    earth:";
    for (int i = 0; i < p.num_earth; ++i) out << " " << c.missions[p.earth[static_cast<std::size_t>(i)]].id;
    out << "  space:";
    for (int i = 0; i < p.num_space; ++i) out << " " << c.missions[p.space[static_cast<std::size_t>(i)]].id;
    // A hidden hand shows the cards the viewer knows to be in it (in card
    // order, so the slots tell nothing), then one "??" per other card.
    const bool open = viewer < 0 || viewer == w || is_terminal();
    auto hidden_hand = [&](const std::array<uint8_t, 3>& cards, int count, uint64_t known, auto id) {
      if (open) {
        for (int i = 0; i < count; ++i) out << " " << id(cards[static_cast<std::size_t>(i)]);
        return;
      }
      int shown = 0;
      for (int card = 0; card < 64; ++card)
        if (known >> card & 1) out << " " << id(card), ++shown;
      for (; shown < count; ++shown) out << " ??";
    };
    auto spec_id = [&](int card) { return c.specialists[static_cast<std::size_t>(card)].id; };
    auto obj_id = [&](int card) { return c.objectives[static_cast<std::size_t>(card)].id; };
    const bool drafting = step_ == Step::kObjectiveKeep || step_ == Step::kObjectivePass ||
                          step_ == Step::kSpecialistKeep || step_ == Step::kSpecialistPass;
    const bool own_pick = drafting && (viewer == w || viewer < 0) && p.pick >= 0;
    const bool objective_draft = step_ == Step::kObjectiveKeep || step_ == Step::kObjectivePass;
    // A seat's own hidden pick: the card it keeps (first pick) or passes (second).
    const char* picking =
        step_ == Step::kObjectiveKeep || step_ == Step::kSpecialistKeep ? " (keeping " : " (passing ";
    out << "\n    hand:";
    hidden_hand(p.hand, p.hand_size, open ? 0 : known_specialists(viewer, w), spec_id);
    const bool other_pick = drafting && p.pick >= 0 && !own_pick;  // who has picked is public
    if (own_pick && !objective_draft)
      out << picking << spec_id(p.hand[static_cast<std::size_t>(p.pick)]) << ")";
    if (other_pick && !objective_draft) out << " (has picked)";
    out << "  played:";
    for (int i = 0; i < p.num_played; ++i)
      out << " " << c.specialists[p.played[static_cast<std::size_t>(i)]].id
          << (p.banner_used[static_cast<std::size_t>(i)] ? "*" : "");
    out << "  objectives:";
    hidden_hand(p.objectives, p.num_objectives, open ? 0 : known_objectives(viewer, w), obj_id);
    if (own_pick && objective_draft)
      out << picking << obj_id(p.objectives[static_cast<std::size_t>(p.pick)]) << ")";
    if (other_pick && objective_draft) out << " (has picked)";
    // Discarded face down: the seat itself knows which (as its encoder block says), the
    // others only how many, even once the game is over.
    if (p.num_discarded_objectives > 0 && (viewer < 0 || viewer == w)) {
      out << " (discarded:";
      for (int i = 0; i < p.num_discarded_objectives; ++i)
        out << " " << obj_id(p.discarded_objectives[static_cast<std::size_t>(i)]);
      out << ")";
    } else if (p.num_discarded_objectives > 0) {
      out << " (" << p.num_discarded_objectives << " discarded)";
    }
    out << "\n";
  }
  if (played_card_ >= 0)
    out << "resolving " << c.specialists[static_cast<std::size_t>(played_card_)].name << "\n";
  if (num_drawn_ > 0) {
    out << "drawn:";
    for (int i = 0; i < num_drawn_; ++i) out << " " << c.missions[drawn_[static_cast<std::size_t>(i)]].id;
    out << " (keep up to " << keeps_left_ << ")\n";
  }
  if (step_ == Step::kLoadRocket) {
    out << "rocket (" << (launch_uses_lab_ ? "lab" : "extra") << " symbol, capacity " << rocket_capacity_now()
        << "):";
    for (int i = 0; i < num_loaded_; ++i) out << " " << c.missions[loaded_[static_cast<std::size_t>(i)]].id;
    out << "\n";
  }
  return out.str();
}

}  // namespace rocketgym::lift_off
