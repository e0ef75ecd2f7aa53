// Lift Off rules engine: set-up, the round loop, legality and effects.
// JSON documents: lift_off_json.cpp; text: lift_off_text.cpp; invariants:
// lift_off_invariants.cpp; the knowledge model and redeterminize: lift_off_knowledge.cpp.
#include "envs/lift_off/lift_off.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

namespace rocketgym::lift_off {

using namespace actions;

namespace {

// Removes the first `value` from a fixed array holding `count` entries (order kept).
template <std::size_t N>
bool remove_one(std::array<uint8_t, N>& cards, int& count, int value) {
  for (int i = 0; i < count; ++i) {
    if (cards[static_cast<std::size_t>(i)] != value) continue;
    for (int j = i; j + 1 < count; ++j)
      cards[static_cast<std::size_t>(j)] = cards[static_cast<std::size_t>(j + 1)];
    --count;
    return true;
  }
  return false;
}

template <std::size_t N>
int count_of(const std::array<uint8_t, N>& cards, int count, int value) {
  int n = 0;
  for (int i = 0; i < count; ++i) n += cards[static_cast<std::size_t>(i)] == value;
  return n;
}

template <std::size_t N>
void push(std::array<uint8_t, N>& cards, int& count, int value) {
  cards[static_cast<std::size_t>(count++)] = static_cast<uint8_t>(value);
}

}  // namespace

const char* step_name(Step s) {
  switch (s) {
    case Step::kObjectiveKeep:
      return "objective_keep";
    case Step::kObjectivePass:
      return "objective_pass";
    case Step::kChooseDirection:
      return "choose_direction";
    case Step::kSpecialistKeep:
      return "specialist_keep";
    case Step::kSpecialistPass:
      return "specialist_pass";
    case Step::kPlaySpecialist:
      return "play_specialist";
    case Step::kSpecialistActions:
      return "specialist_actions";
    case Step::kBulkBuy:
      return "bulk_buy";
    case Step::kExchangeGive:
      return "exchange_give";
    case Step::kExchangeTake:
      return "exchange_take";
    case Step::kStationReward:
      return "station_reward";
    case Step::kChooseDeck:
      return "choose_deck";
    case Step::kKeepMissions:
      return "keep_missions";
    case Step::kLaunch:
      return "launch";
    case Step::kLoadRocket:
      return "load_rocket";
    case Step::kDiscardObjectives:
      return "discard_objectives";
    case Step::kGameOver:
      return "game_over";
  }
  return "?";
}

// ---------------------------------------------------------------- set-up

State::State(const Config& config, int num_players, uint64_t seed)
    : config_(&config), num_players_(num_players), rng_(seed) {
  if (num_players < 2 || num_players > kMaxPlayers)
    throw Error("lift_off is played by 2 to 4 players, not " + std::to_string(num_players));
  for (int s = 0; s < num_players_; ++s) {
    Player& p = players_[static_cast<std::size_t>(s)];
    p.vp = config.score_start_by_seat[static_cast<std::size_t>(s)];
    p.income = config.income_start;
  }
  // Cards with a player-count marker above N stay in the box.
  for (int c = 0; c < static_cast<int>(config.specialists.size()); ++c)
    if (config.specialist_in_game(c, num_players_)) push(specialist_deck_, specialist_deck_count_, c);
  rng_.shuffle(specialist_deck_.begin(), specialist_deck_.begin() + specialist_deck_count_);
  for (int t = 0; t < static_cast<int>(config.missions.size()); ++t) {
    const MissionType& m = config.missions[static_cast<std::size_t>(t)];
    const auto level = static_cast<std::size_t>(m.level - 1);
    for (int k = 0; k < m.copies_for(num_players_); ++k)
      push(mission_deck_[level], mission_deck_count_[level], t);
  }
  for (std::size_t level = 0; level < kNumLevels; ++level)
    rng_.shuffle(mission_deck_[level].begin(), mission_deck_[level].begin() + mission_deck_count_[level]);
  deal_objectives();
  init_knowledge();
  step_ = Step::kObjectiveKeep;
  actor_ = start_player_;
}

void State::deal_objectives() {
  for (int o = 0; o < static_cast<int>(config_->objectives.size()); ++o)
    push(objective_box_, objective_box_count_, o);
  rng_.shuffle(objective_box_.begin(), objective_box_.begin() + objective_box_count_);
  for (int s = 0; s < num_players_; ++s) {
    Player& p = players_[static_cast<std::size_t>(s)];
    for (int k = 0; k < 3; ++k)
      push(p.objectives, p.num_objectives, objective_box_[static_cast<std::size_t>(--objective_box_count_)]);
  }
}

// ---------------------------------------------------------------- drafts

// Both drafts pass cards the same way: every player's undecided cards move to
// the next player in `dir` at once (first pick: the picked card stays; second
// pick: the picked card goes). `hand` and `size` select the kind of card;
// know_pass then updates what each seat knows of it.
void State::pass_hands(bool objective, int dir, bool first_pick, std::array<uint8_t, 3> Player::*hand,
                       int Player::*size) {
  const int n = num_players_;
  auto at = [](auto& array, int i) -> auto& { return array[static_cast<std::size_t>(i)]; };
  std::array<std::array<uint8_t, 3>, kMaxPlayers> kept{}, passed{};
  std::array<int, kMaxPlayers> num_kept{}, num_passed{};
  std::array<uint64_t, kMaxPlayers> before{}, after{};  // each hand's cards (bit = card)
  for (int s = 0; s < n; ++s) {
    const Player& p = player(s);
    for (int i = 0; i < p.*size; ++i) {
      const int card = at(p.*hand, i);
      at(before, s) |= uint64_t{1} << card;
      if ((i == p.pick) == first_pick)
        push(at(kept, s), at(num_kept, s), card);
      else
        push(at(passed, s), at(num_passed, s), card);
    }
  }
  for (int w = 0; w < n; ++w) {
    Player& p = players_[static_cast<std::size_t>(w)];
    const int giver = next_seat(w, -dir);
    p.*size = 0;
    for (int i = 0; i < at(num_kept, w); ++i) push(p.*hand, p.*size, at(at(kept, w), i));
    for (int i = 0; i < at(num_passed, giver); ++i) push(p.*hand, p.*size, at(at(passed, giver), i));
    for (int i = 0; i < p.*size; ++i) at(after, w) |= uint64_t{1} << at(p.*hand, i);
    p.pick = -1;
  }
  know_pass(objective, dir, before, after);
}

void State::pass_cards_specialists() {
  pass_hands(false, direction_, step_ == Step::kSpecialistKeep, &Player::hand, &Player::hand_size);
}

// The objective draft always passes left (clockwise) [ruling 10].
void State::pass_cards_objectives() {
  pass_hands(true, 1, step_ == Step::kObjectiveKeep, &Player::objectives, &Player::num_objectives);
}

void State::finish_objective_draft_step() {
  pass_cards_objectives();
  turn_ = 0;
  actor_ = start_player_;
  if (step_ == Step::kObjectiveKeep) {
    step_ = Step::kObjectivePass;
    return;
  }
  // Final set-up: ten money, then three specialists each.
  std::array<uint64_t, kMaxPlayers> drawn{};
  for (int s = 0; s < num_players_; ++s) {
    Player& p = players_[static_cast<std::size_t>(s)];
    p.money = config_->start_money;
    for (int k = 0; k < config_->specialists_dealt && specialist_deck_count_ > 0; ++k) {
      const int card = specialist_deck_[static_cast<std::size_t>(--specialist_deck_count_)];
      push(p.hand, p.hand_size, card);
      drawn[static_cast<std::size_t>(s)] |= uint64_t{1} << card;
    }
  }
  know_draws(drawn);
  start_round();
}

void State::finish_specialist_draft_step() {
  pass_cards_specialists();
  turn_ = 0;
  actor_ = start_player_;
  if (step_ == Step::kSpecialistKeep) {
    step_ = Step::kSpecialistPass;
    return;
  }
  step_ = Step::kPlaySpecialist;
  play_pass_ = 0;
}

// ---------------------------------------------------------------- round loop

void State::start_round() {
  // Round 1 skips income and draws: the set-up already dealt three [ruling 27].
  if (round_ > 1) {
    std::array<uint64_t, kMaxPlayers> drawn{};
    for (int s = 0; s < num_players_; ++s) {
      Player& p = players_[static_cast<std::size_t>(s)];
      p.money += p.income;
      for (int k = 0; k < config_->specialist_draw_per_round && specialist_deck_count_ > 0 && p.hand_size < 3;
           ++k) {
        const int card = specialist_deck_[static_cast<std::size_t>(--specialist_deck_count_)];
        push(p.hand, p.hand_size, card);
        drawn[static_cast<std::size_t>(s)] |= uint64_t{1} << card;
      }
    }
    know_draws(drawn);
  }
  step_ = Step::kChooseDirection;
  actor_ = start_player_;
  turn_ = 0;
}

// Specialists are played from the start player on, in the draft direction, twice round the table.
void State::advance_after_specialist() {
  played_card_ = -1;
  used_actions_ = 0;
  took_money_ = false;
  bulk_bought_ = exchange_given_ = exchange_taken_ = 0;
  if (++turn_ == num_players_) {
    turn_ = 0;
    if (++play_pass_ == 2) {
      begin_mission_step();
      return;
    }
  }
  step_ = Step::kPlaySpecialist;
  actor_ = next_seat(start_player_, direction_ * turn_);
}

void State::begin_mission_step() {
  step_ = Step::kChooseDeck;
  turn_ = 0;
  actor_ = start_player_;
  for (int level = 1; level <= kNumLevels; ++level)
    if (can_choose_deck(level)) return;
  next_mission_drawer();
}

// Mission draws go clockwise from the start player; a player with no deck to draw from is skipped.
void State::next_mission_drawer() {
  while (++turn_ < num_players_) {
    actor_ = next_seat(start_player_, turn_);
    step_ = Step::kChooseDeck;
    for (int level = 1; level <= kNumLevels; ++level)
      if (can_choose_deck(level)) return;
  }
  begin_launch_step();
}

void State::begin_launch_step() {
  step_ = Step::kLaunch;
  turn_ = 0;
  actor_ = start_player_;
  if (can_start_launch(true) || can_start_launch(false)) return;
  next_launcher();
}

void State::next_launcher() {
  while (++turn_ < num_players_) {
    actor_ = next_seat(start_player_, turn_);
    step_ = Step::kLaunch;
    if (can_start_launch(true) || can_start_launch(false)) return;
  }
  end_round();
}

void State::end_round() {
  for (int s = 0; s < num_players_; ++s) {
    Player& p = players_[static_cast<std::size_t>(s)];
    for (int i = 0; i < p.num_played; ++i)
      push(specialist_discard_, specialist_discard_count_, p.played[static_cast<std::size_t>(i)]);
    p.num_played = 0;
    p.banner_used = {false, false};
    p.missions_launched = 0;
    p.lab_symbol_used = false;
  }
  start_player_ = next_seat(start_player_, 1);
  // A phase ends the first time the specialist deck is empty at the end of a
  // round: with the validated deck sizes that is after its fourth round. The
  // round number also ends it, so a hand-written position cannot run on.
  const bool phase_over = specialist_deck_count_ == 0 || round_ == 4 * phase_;
  if (phase_over && phase_ == 2) {
    final_scoring();
    return;
  }
  ++round_;
  if (phase_over) {
    // Phase 2 set-up: level 3/4 decks and the level-2 overlay come in with
    // phase_ = 2; the specialist discard becomes the new deck [ruling 19].
    phase_ = 2;
    for (int i = 0; i < specialist_discard_count_; ++i)
      push(specialist_deck_, specialist_deck_count_, specialist_discard_[static_cast<std::size_t>(i)]);
    specialist_discard_count_ = 0;
    rng_.shuffle(specialist_deck_.begin(), specialist_deck_.begin() + specialist_deck_count_);
    know_reshuffle();
    begin_objective_discard();
    return;
  }
  start_round();
}

// Objective discard: start player of round 5 first, clockwise [ruling 20].
void State::begin_objective_discard() {
  step_ = Step::kDiscardObjectives;
  turn_ = 0;
  actor_ = start_player_;
  if (player(actor_).num_objectives > 0) return;
  next_objective_discarder();
}

void State::next_objective_discarder() {
  while (++turn_ < num_players_) {
    actor_ = next_seat(start_player_, turn_);
    if (player(actor_).num_objectives > 0) return;
  }
  start_round();
}

// ---------------------------------------------------------------- derived values

int State::station_covered() const {
  int invested = 0;
  for (int s = 0; s < num_players_; ++s) invested += player(s).station_investments;
  return invested;
}

// The lowest visible space: spaces blocked at set-up are skipped, and every
// investment so far covered one visible space (until only the red 12 is left).
int State::station_next_cost() const {
  int to_skip = station_covered();
  const uint32_t blocked = config_->station_blocked_mask[static_cast<std::size_t>(num_players_)];
  for (int i = 0; i < config_->num_station_spaces; ++i) {
    if (blocked & (1u << i)) continue;
    if (to_skip-- == 0) return config_->station_cost[static_cast<std::size_t>(i)];
  }
  return config_->station_final_cost;
}

uint64_t State::specialist_discard_mask() const {
  uint64_t m = 0;
  for (int i = 0; i < specialist_discard_count_; ++i)
    m |= uint64_t{1} << specialist_discard_[static_cast<std::size_t>(i)];
  return m;
}

int State::mission_discard_count(int type) const {
  const auto level = static_cast<std::size_t>(config_->missions[static_cast<std::size_t>(type)].level - 1);
  return count_of(mission_discard_[level], mission_discard_count_[level], type);
}

int State::drawn_count(int type) const { return count_of(drawn_, num_drawn_, type); }
int State::loaded_count(int type) const { return count_of(loaded_, num_loaded_, type); }

int State::loaded_weight() const {
  int w = 0;
  for (int i = 0; i < num_loaded_; ++i) w += config_->missions[loaded_[static_cast<std::size_t>(i)]].weight;
  return w;
}

int State::rocket_capacity_now() const {
  const bool lab_bonus = launch_uses_lab_ && player(actor_).lab_level == 4;
  return capacity(actor_) + applied_capacity_ + (lab_bonus ? config_->level4_lab_symbol_capacity : 0);
}

int State::unused_capacity_banners(int seat) const {
  const Player& p = player(seat);
  int total = 0;
  for (int i = 0; i < p.num_played; ++i) {
    const SpecialistCard& c = config_->specialists[p.played[static_cast<std::size_t>(i)]];
    if (c.banner == Banner::kCapacity && !p.banner_used[static_cast<std::size_t>(i)])
      total += c.capacity_bonus;
  }
  return total;
}

int State::unused_extra_launches(int seat) const {
  const Player& p = player(seat);
  int n = 0;
  for (int i = 0; i < p.num_played; ++i)
    n += config_->specialists[p.played[static_cast<std::size_t>(i)]].banner == Banner::kExtraLaunch &&
         !p.banner_used[static_cast<std::size_t>(i)];
  return n;
}

int State::extra_missions(int seat) const {
  const Player& p = player(seat);
  int n = 0;
  for (int i = 0; i < p.num_played; ++i)
    n += config_->specialists[p.played[static_cast<std::size_t>(i)]].banner == Banner::kExtraMission;
  return n;
}

int State::owned_from_level(int seat, int level) const {
  const Player& p = player(seat);
  int n = 0;
  for (int i = 0; i < p.num_earth; ++i)
    n += config_->missions[p.earth[static_cast<std::size_t>(i)]].level == level;
  for (int i = 0; i < p.num_space; ++i)
    n += config_->missions[p.space[static_cast<std::size_t>(i)]].level == level;
  return n;
}

bool State::owns_title(int seat, int type) const {
  const Player& p = player(seat);
  return count_of(p.earth, p.num_earth, type) + count_of(p.space, p.num_space, type) > 0;
}

bool State::meets_requirements(int seat, int type) const {
  const Player& p = player(seat);
  const MissionType& m = config_->missions[static_cast<std::size_t>(type)];
  if (m.level > p.lab_level) return false;
  return config_
      ->tech_requirements[static_cast<std::size_t>(phase_ - 1)][static_cast<std::size_t>(m.level - 1)]
      .met_by(p.tech);
}

int State::missions_in_space_of_level(int seat, int level) const {
  const Player& p = player(seat);
  int n = 0;
  for (int i = 0; i < p.num_space; ++i)
    n += config_->missions[p.space[static_cast<std::size_t>(i)]].level == level;
  return n;
}

// ---------------------------------------------------------------- legality

bool State::action_available(SpecialistAction kind) const {
  if (played_card_ < 0 || took_money_) return false;
  const SpecialistCard& c = config_->specialists[static_cast<std::size_t>(played_card_)];
  for (int i = 0; i < c.num_actions; ++i)
    if (c.actions[static_cast<std::size_t>(i)] == kind && !(used_actions_ & (1 << i))) return true;
  return false;
}

bool State::can_use_action(Action a) const {
  const Player& p = player(actor_);
  const Config& c = *config_;
  if (a == kTakeMoney) return used_actions_ == 0 && !took_money_;
  if (a == kEndSpecialist) return true;
  if (a == kMoney6) return action_available(SpecialistAction::kMoney6);
  if (a >= kRewardL1 && a < kRewardL1 + 3)
    return action_available(
        static_cast<SpecialistAction>(static_cast<int>(SpecialistAction::kRewardL1) + (a - kRewardL1)));
  if (a >= kBuyTech && a < kBuyTech + 3)
    return action_available(SpecialistAction::kBuyTech) && p.money >= c.buy_tech;
  if (a >= kBulkBuy && a < kBulkBuy + 3)
    return action_available(SpecialistAction::kBuyTechBulk) && p.money >= c.buy_tech_bulk;
  if (a == kBuyGreen) return action_available(SpecialistAction::kBuyGreen) && p.money >= c.buy_green;
  if (a >= kSellTech && a < kSellTech + 3)
    return action_available(SpecialistAction::kSellTech) &&
           p.tech[static_cast<std::size_t>(a - kSellTech)] > 0;
  if (a == kCapacityUpgrade)
    return action_available(SpecialistAction::kCapacity) && p.money >= c.capacity_price &&
           p.capacity_upgrades < c.capacity_tokens;
  if (a >= kBuyTwoDifferent && a < kBuyTwoDifferent + 3)
    return action_available(SpecialistAction::kBuyTwoDifferent) && p.money >= c.buy_two_different;
  if (a >= kExchangeGive && a < kExchangeGive + kNumColours)
    return action_available(SpecialistAction::kExchange) &&
           p.tech[static_cast<std::size_t>(a - kExchangeGive)] > 0;
  if (a >= kBuyGreenBulk && a < kBuyGreenBulk + 2)
    return action_available(SpecialistAction::kBuyGreenBulk) &&
           p.money >= c.buy_green_bulk[static_cast<std::size_t>(a - kBuyGreenBulk)];
  if (a == kLabUpgrade || a == kLabUpgradeCheap) {
    const bool cheap = a == kLabUpgradeCheap;
    if (!action_available(cheap ? SpecialistAction::kLabCheap : SpecialistAction::kLab) || p.lab_level >= 4)
      return false;
    const auto& costs = cheap ? c.lab_cheap_cost : c.lab_cost;
    return p.money >= costs[static_cast<std::size_t>(p.lab_level - 1)];
  }
  if (a == kPropulsionUpgrade)
    return action_available(SpecialistAction::kPropulsion) && p.money >= c.propulsion_price &&
           p.propulsion_upgrades < c.propulsion_tokens;
  if (a == kStationInvest)
    return action_available(SpecialistAction::kStation) && p.money >= station_next_cost();
  return false;
}

// A deck may be chosen if it is open in this phase, the player owns fewer than
// seven of its cards, and deck + discard hold a card they may take [ruling 6].
bool State::can_choose_deck(int level) const {
  if (level > (phase_ == 1 ? 2 : 4)) return false;
  if (owned_from_level(actor_, level) >= config_->max_per_deck) return false;
  const auto l = static_cast<std::size_t>(level - 1);
  for (int i = 0; i < mission_deck_count_[l]; ++i) {
    const int t = mission_deck_[l][static_cast<std::size_t>(i)];
    if (config_->missions[static_cast<std::size_t>(t)].multi || !owns_title(actor_, t)) return true;
  }
  for (int i = 0; i < mission_discard_count_[l]; ++i) {
    const int t = mission_discard_[l][static_cast<std::size_t>(i)];
    if (config_->missions[static_cast<std::size_t>(t)].multi || !owns_title(actor_, t)) return true;
  }
  return false;
}

bool State::mission_eligible_for_keep(int type) const {
  if (type < 0 || type >= static_cast<int>(config_->missions.size())) return false;
  if (keeps_left_ <= 0 || drawn_count(type) == 0) return false;
  return config_->missions[static_cast<std::size_t>(type)].multi || !owns_title(actor_, type);
}

bool State::can_start_launch(bool with_lab) const {
  const Player& p = player(actor_);
  if (p.missions_launched >= config_->missions_per_round) return false;
  if (with_lab ? p.lab_symbol_used : unused_extra_launches(actor_) == 0) return false;
  const int cost = std::max(0, launch_cost(actor_) - (with_lab ? 0 : config_->extra_launch_discount));
  if (p.money < cost) return false;
  const int lab_bonus = with_lab && p.lab_level == 4 ? config_->level4_lab_symbol_capacity : 0;
  const int best_capacity = capacity(actor_) + lab_bonus + unused_capacity_banners(actor_);
  for (int i = 0; i < p.num_earth; ++i) {
    const int t = p.earth[static_cast<std::size_t>(i)];
    if (meets_requirements(actor_, t) &&
        config_->missions[static_cast<std::size_t>(t)].weight <= best_capacity)
      return true;
  }
  return false;
}

bool State::can_load(int type) const {
  if (type < 0 || type >= static_cast<int>(config_->missions.size())) return false;
  const Player& p = player(actor_);
  if (p.missions_launched + num_loaded_ >= config_->missions_per_round) return false;
  if (count_of(p.earth, p.num_earth, type) <= loaded_count(type)) return false;
  if (!meets_requirements(actor_, type)) return false;
  const int reachable = rocket_capacity_now() + unused_capacity_banners(actor_);
  return loaded_weight() + config_->missions[static_cast<std::size_t>(type)].weight <= reachable;
}

bool State::legal(Action a) const {
  if (step_ == Step::kGameOver || actor_ < 0) return false;
  const Player& p = player(actor_);
  switch (step_) {
    case Step::kObjectiveKeep:
    case Step::kObjectivePass: {
      const Action base = step_ == Step::kObjectiveKeep ? kKeepObjective : kPassObjective;
      if (a < base || a >= base + kMaxObjectives || p.pick >= 0) return false;
      return count_of(p.objectives, p.num_objectives, a - base) > 0;
    }
    case Step::kChooseDirection:
      return a == kDraftLeft || a == kDraftRight;
    case Step::kSpecialistKeep:
    case Step::kSpecialistPass: {
      const Action base = step_ == Step::kSpecialistKeep ? kKeepSpecialist : kPassSpecialist;
      if (a < base || a >= base + kMaxSpecialists || p.pick >= 0) return false;
      return count_of(p.hand, p.hand_size, a - base) > 0;
    }
    case Step::kPlaySpecialist:
      return a >= kPlaySpecialist && a < kPlaySpecialist + kMaxSpecialists &&
             count_of(p.hand, p.hand_size, a - kPlaySpecialist) > 0;
    case Step::kSpecialistActions:
      return can_use_action(a);
    case Step::kBulkBuy:
      if (a == kBulkFinish) return true;
      return a >= kBulkBuy && a < kBulkBuy + 3 && bulk_bought_ < config_->buy_tech_bulk_max &&
             p.money >= config_->buy_tech_bulk;
    case Step::kExchangeGive:
      if (a >= kExchangeTake && a < kExchangeTake + kNumColours) return true;
      return a >= kExchangeGive && a < kExchangeGive + kNumColours &&
             exchange_given_ < config_->exchange_max &&
             p.tech[static_cast<std::size_t>(a - kExchangeGive)] > 0;
    case Step::kExchangeTake:
      return a >= kExchangeTake && a < kExchangeTake + kNumColours;
    case Step::kStationReward:
      return a == kStationGreen || (a == kStationIncome && p.income < config_->income_max);
    case Step::kChooseDeck:
      return a >= kDrawFromDeck && a < kDrawFromDeck + kNumLevels && can_choose_deck(a - kDrawFromDeck + 1);
    case Step::kKeepMissions:
      if (a == kStopKeeping) return kept_this_draw_ > 0;
      return a >= kKeepMission && a < kKeepMission + kMaxMissionTypes &&
             mission_eligible_for_keep(a - kKeepMission);
    case Step::kLaunch:
      if (a == kEndLaunches) return true;
      return (a == kLaunchWithLab && can_start_launch(true)) ||
             (a == kLaunchWithExtra && can_start_launch(false));
    case Step::kLoadRocket:
      if (a == kLiftOff) return num_loaded_ > 0 && loaded_weight() <= rocket_capacity_now();
      if (a >= kApplyCapacity && a < kApplyCapacity + 3) {
        for (int i = 0; i < p.num_played; ++i) {
          const SpecialistCard& c = config_->specialists[p.played[static_cast<std::size_t>(i)]];
          if (c.banner == Banner::kCapacity && c.capacity_bonus == a - kApplyCapacity + 1 &&
              !p.banner_used[static_cast<std::size_t>(i)])
            return true;
        }
        return false;
      }
      return a >= kLoadMission && a < kLoadMission + kMaxMissionTypes && can_load(a - kLoadMission);
    case Step::kDiscardObjectives:
      if (a == kKeepObjectives) return true;
      return a >= kDiscardObjective && a < kDiscardObjective + kMaxObjectives &&
             count_of(p.objectives, p.num_objectives, a - kDiscardObjective) > 0;
    case Step::kGameOver:
      return false;
  }
  return false;
}

bool State::is_legal(Action a) const { return a >= 0 && a < kNumActions && legal(a); }

// The mask is written from the state, step by step: the ids of the cards in a
// hand, the objectives, the draw or the Earth missions are marked from the
// list itself, and a played specialist's actions from its available actions,
// found once (mark_specialist_actions); legal() is asked only for the few ids
// of the rarer steps. It must say what legal() says on every id: the test
// "[lift_off][mask]" compares the two at every decision of many games.
void State::legal_actions_mask(uint8_t* out) const {
  std::memset(out, 0, kNumActions);
  if (step_ == Step::kGameOver || actor_ < 0) return;  // legal() is false for every id
  const Player& p = player(actor_);
  // Every card of a list is legal (its id is base + card type).
  const auto mark_cards = [out](Action base, const uint8_t* cards, int count) {
    for (int i = 0; i < count; ++i) out[base + cards[i]] = 1;
  };
  const auto ask = [&](Action from, Action to) {
    for (Action a = from; a < to; ++a) out[a] = legal(a) ? 1 : 0;
  };
  switch (step_) {
    case Step::kObjectiveKeep:
    case Step::kObjectivePass:
      if (p.pick < 0)
        mark_cards(step_ == Step::kObjectiveKeep ? kKeepObjective : kPassObjective, p.objectives.data(),
                   p.num_objectives);
      return;
    case Step::kChooseDirection:
      out[kDraftLeft] = out[kDraftRight] = 1;
      return;
    case Step::kSpecialistKeep:
    case Step::kSpecialistPass:
      if (p.pick < 0)
        mark_cards(step_ == Step::kSpecialistKeep ? kKeepSpecialist : kPassSpecialist, p.hand.data(),
                   p.hand_size);
      return;
    case Step::kPlaySpecialist:
      mark_cards(kPlaySpecialist, p.hand.data(), p.hand_size);
      return;
    case Step::kSpecialistActions:
      mark_specialist_actions(out);
      return;
    // The rarer steps of a few ids each: legal() per id, their rules in one place.
    case Step::kBulkBuy:
      ask(kBulkBuy, kBulkFinish + 1);
      return;
    case Step::kExchangeGive:
    case Step::kExchangeTake:
      ask(kExchangeGive, kExchangeTake + kNumColours);
      return;
    case Step::kStationReward:
      ask(kStationGreen, kStationIncome + 1);
      return;
    case Step::kChooseDeck:
      ask(kDrawFromDeck, kKeepMission);
      return;
    case Step::kKeepMissions:
      for (int i = 0; i < num_drawn_; ++i) {
        const int type = drawn_[static_cast<std::size_t>(i)];
        out[kKeepMission + type] = mission_eligible_for_keep(type);
      }
      out[kStopKeeping] = kept_this_draw_ > 0;
      return;
    case Step::kLaunch:
      ask(kLaunchWithLab, kLoadMission);
      return;
    case Step::kLoadRocket:
      for (int i = 0; i < p.num_earth; ++i) {
        const int type = p.earth[static_cast<std::size_t>(i)];
        out[kLoadMission + type] = can_load(type);
      }
      ask(kApplyCapacity, kLiftOff + 1);
      return;
    case Step::kDiscardObjectives:
      mark_cards(kDiscardObjective, p.objectives.data(), p.num_objectives);
      out[kKeepObjectives] = 1;
      return;
    case Step::kGameOver:
      return;
  }
}

// kSpecialistActions: can_use_action of every id, the played card's actions not used yet found once.
void State::mark_specialist_actions(uint8_t* out) const {
  const Player& p = player(actor_);
  const Config& c = *config_;
  static_assert(static_cast<int>(SpecialistAction::kCount) <= 32, "a bit per action");
  uint32_t open = 0;  // bit k: action_available(SpecialistAction k)
  if (played_card_ >= 0 && !took_money_) {
    const SpecialistCard& card = c.specialists[static_cast<std::size_t>(played_card_)];
    for (int i = 0; i < card.num_actions; ++i)
      if (!(used_actions_ & (1 << i)))
        open |= 1u << static_cast<int>(card.actions[static_cast<std::size_t>(i)]);
  }
  const auto has = [open](SpecialistAction k) { return ((open >> static_cast<int>(k)) & 1u) != 0; };
  const auto money = [&p](int price) { return p.money >= price; };
  out[kTakeMoney] = used_actions_ == 0 && !took_money_;
  out[kEndSpecialist] = 1;
  out[kMoney6] = has(SpecialistAction::kMoney6);
  for (int k = 0; k < 3; ++k)
    out[kRewardL1 + k] =
        has(static_cast<SpecialistAction>(static_cast<int>(SpecialistAction::kRewardL1) + k));
  const bool buy = has(SpecialistAction::kBuyTech) && money(c.buy_tech);
  const bool bulk = has(SpecialistAction::kBuyTechBulk) && money(c.buy_tech_bulk);
  const bool sell = has(SpecialistAction::kSellTech);
  const bool two = has(SpecialistAction::kBuyTwoDifferent) && money(c.buy_two_different);
  for (int k = 0; k < 3; ++k) {
    out[kBuyTech + k] = buy;
    out[kBulkBuy + k] = bulk;
    out[kSellTech + k] = sell && p.tech[static_cast<std::size_t>(k)] > 0;
    out[kBuyTwoDifferent + k] = two;
  }
  out[kBuyGreen] = has(SpecialistAction::kBuyGreen) && money(c.buy_green);
  out[kCapacityUpgrade] =
      has(SpecialistAction::kCapacity) && money(c.capacity_price) && p.capacity_upgrades < c.capacity_tokens;
  const bool exchange = has(SpecialistAction::kExchange);
  for (int k = 0; k < kNumColours; ++k)
    out[kExchangeGive + k] = exchange && p.tech[static_cast<std::size_t>(k)] > 0;
  for (int k = 0; k < 2; ++k)
    out[kBuyGreenBulk + k] =
        has(SpecialistAction::kBuyGreenBulk) && money(c.buy_green_bulk[static_cast<std::size_t>(k)]);
  const std::size_t lab = static_cast<std::size_t>(p.lab_level - 1);
  out[kLabUpgrade] = has(SpecialistAction::kLab) && p.lab_level < 4 && money(c.lab_cost[lab]);
  out[kLabUpgradeCheap] = has(SpecialistAction::kLabCheap) && p.lab_level < 4 && money(c.lab_cheap_cost[lab]);
  out[kPropulsionUpgrade] = has(SpecialistAction::kPropulsion) && money(c.propulsion_price) &&
                            p.propulsion_upgrades < c.propulsion_tokens;
  out[kStationInvest] = has(SpecialistAction::kStation) && money(station_next_cost());
}

// ---------------------------------------------------------------- effects

void State::apply(Action a) {
  if (a < 0 || a >= kNumActions)
    throw IllegalAction("lift_off: action " + std::to_string(a) + " out of range [0, " +
                        std::to_string(kNumActions - 1) + "]");
  if (!legal(a))
    throw IllegalAction("lift_off: action " + std::to_string(a) + " (" + action_to_string(a) +
                        ") is not legal now (step " + step_name(step_) + ", player " +
                        std::to_string(actor_) + ")");
  do_apply(a);
}

void State::do_apply(Action a) {
  Player& p = players_[static_cast<std::size_t>(actor_)];
  switch (step_) {
    case Step::kObjectiveKeep:
    case Step::kObjectivePass: {
      const int card = a - (step_ == Step::kObjectiveKeep ? kKeepObjective : kPassObjective);
      for (int i = 0; i < p.num_objectives; ++i)
        if (p.objectives[static_cast<std::size_t>(i)] == card) p.pick = i;
      // Hidden simultaneous picks are taken in seat order; the cards move once all have picked.
      if (++turn_ == num_players_)
        finish_objective_draft_step();
      else
        actor_ = next_seat(start_player_, turn_);
      return;
    }
    case Step::kChooseDirection:
      direction_ = a == kDraftLeft ? 1 : -1;
      step_ = Step::kSpecialistKeep;
      turn_ = 0;
      return;
    case Step::kSpecialistKeep:
    case Step::kSpecialistPass: {
      const int card = a - (step_ == Step::kSpecialistKeep ? kKeepSpecialist : kPassSpecialist);
      for (int i = 0; i < p.hand_size; ++i)
        if (p.hand[static_cast<std::size_t>(i)] == card) p.pick = i;
      if (++turn_ == num_players_)
        finish_specialist_draft_step();
      else
        actor_ = next_seat(start_player_, turn_);
      return;
    }
    case Step::kPlaySpecialist:
      play_specialist(a - kPlaySpecialist);
      return;
    case Step::kSpecialistActions:
    case Step::kBulkBuy:
    case Step::kExchangeGive:
    case Step::kExchangeTake:
    case Step::kStationReward:
      use_action(a);
      return;
    case Step::kChooseDeck:
      draw_missions(a - kDrawFromDeck + 1);
      return;
    case Step::kKeepMissions:
      if (a == kStopKeeping)
        finish_keeping();
      else
        keep_mission(a - kKeepMission);
      return;
    case Step::kLaunch:
      if (a == kEndLaunches) {
        next_launcher();
        return;
      }
      launch_uses_lab_ = a == kLaunchWithLab;
      if (launch_uses_lab_) {
        p.lab_symbol_used = true;
      } else {
        for (int i = 0; i < p.num_played; ++i)
          if (config_->specialists[p.played[static_cast<std::size_t>(i)]].banner == Banner::kExtraLaunch &&
              !p.banner_used[static_cast<std::size_t>(i)]) {
            p.banner_used[static_cast<std::size_t>(i)] = true;
            break;
          }
      }
      num_loaded_ = 0;
      applied_capacity_ = 0;
      step_ = Step::kLoadRocket;
      return;
    case Step::kLoadRocket:
      if (a == kLiftOff) {
        lift_off();
      } else if (a >= kApplyCapacity && a < kApplyCapacity + 3) {
        for (int i = 0; i < p.num_played; ++i) {
          const SpecialistCard& c = config_->specialists[p.played[static_cast<std::size_t>(i)]];
          if (c.banner == Banner::kCapacity && c.capacity_bonus == a - kApplyCapacity + 1 &&
              !p.banner_used[static_cast<std::size_t>(i)]) {
            p.banner_used[static_cast<std::size_t>(i)] = true;
            applied_capacity_ += c.capacity_bonus;
            break;
          }
        }
      } else {
        push(loaded_, num_loaded_, a - kLoadMission);
      }
      return;
    case Step::kDiscardObjectives:
      if (a == kKeepObjectives) {
        next_objective_discarder();
        return;
      }
      remove_one(p.objectives, p.num_objectives, a - kDiscardObjective);
      push(p.discarded_objectives, p.num_discarded_objectives, a - kDiscardObjective);
      p.money += config_->objective_discard_money;
      // Discards go face down: the others cannot tell which card left.
      know_objective_discard(actor_, a - kDiscardObjective);
      if (p.num_objectives == 0) next_objective_discarder();
      return;
    case Step::kGameOver:
      return;
  }
}

// The banner applies first, so money3 can pay for this card's actions [ruling 29].
void State::play_specialist(int card) {
  Player& p = players_[static_cast<std::size_t>(actor_)];
  remove_one(p.hand, p.hand_size, card);
  know_play(actor_, card);
  p.banner_used[static_cast<std::size_t>(p.num_played)] = false;
  push(p.played, p.num_played, card);
  const SpecialistCard& c = config_->specialists[static_cast<std::size_t>(card)];
  if (c.banner == Banner::kMoney3) p.money += config_->money3_banner;
  if (c.banner == Banner::kVp5) p.vp += config_->vp5_banner;
  played_card_ = card;
  used_actions_ = 0;
  took_money_ = false;
  step_ = Step::kSpecialistActions;
}

void State::mark_used(SpecialistAction kind) {
  const SpecialistCard& c = config_->specialists[static_cast<std::size_t>(played_card_)];
  for (int i = 0; i < c.num_actions; ++i)
    if (c.actions[static_cast<std::size_t>(i)] == kind) used_actions_ |= 1 << i;
}

void State::gain_income(Player& p, int amount) const {
  p.income = std::min(config_->income_max, p.income + amount);
}

// An upgrade with no token left is lost [ruling 17].
void State::gain_capacity_upgrade(Player& p) const {
  if (p.capacity_upgrades < config_->capacity_tokens) ++p.capacity_upgrades;
}
void State::gain_propulsion_upgrade(Player& p) const {
  if (p.propulsion_upgrades < config_->propulsion_tokens) ++p.propulsion_upgrades;
}

void State::invest_in_station() {
  Player& p = players_[static_cast<std::size_t>(actor_)];
  p.money -= station_next_cost();
  // Past the last space the rocket goes next to the track; it still counts [ruling 15].
  ++p.station_investments;
  p.vp += config_->station_vp +
          config_->station_vp_per_mission * p.num_space;  // missions in space only [ruling 16]
}

void State::use_action(Action a) {
  Player& p = players_[static_cast<std::size_t>(actor_)];
  const Config& c = *config_;
  if (a == kEndSpecialist) {
    advance_after_specialist();
    return;
  }
  if (a == kTakeMoney) {
    p.money += c.money_instead;
    took_money_ = true;
    advance_after_specialist();  // nothing else can be done with this card
    return;
  }
  if (a == kMoney6) {
    mark_used(SpecialistAction::kMoney6);
    p.money += c.money6_self;
    for (int s = 0; s < num_players_; ++s)
      if (s != actor_) players_[static_cast<std::size_t>(s)].money += c.money6_others;
  } else if (a >= kRewardL1 && a < kRewardL1 + 3) {
    const int level = a - kRewardL1 + 1;
    mark_used(static_cast<SpecialistAction>(static_cast<int>(SpecialistAction::kRewardL1) + level - 1));
    const RewardPrice& r = c.reward_level[static_cast<std::size_t>(level - 1)];
    for (int s = 0; s < num_players_; ++s) {
      const int n = missions_in_space_of_level(s, level);
      Player& q = players_[static_cast<std::size_t>(s)];
      if (s == actor_) {
        q.vp += r.vp * n;
        q.money += r.money * n;
      } else {
        q.vp += r.others_vp * n;
      }
    }
  } else if (a >= kBuyTech && a < kBuyTech + 3) {
    mark_used(SpecialistAction::kBuyTech);
    p.money -= c.buy_tech;
    ++p.tech[static_cast<std::size_t>(a - kBuyTech)];
  } else if (a >= kBulkBuy && a < kBulkBuy + 3) {
    if (step_ == Step::kSpecialistActions) {
      mark_used(SpecialistAction::kBuyTechBulk);
      step_ = Step::kBulkBuy;
      bulk_bought_ = 0;
    }
    p.money -= c.buy_tech_bulk;
    ++p.tech[static_cast<std::size_t>(a - kBulkBuy)];
    ++bulk_bought_;
    return;  // stay in the bulk purchase until finished
  } else if (a == kBulkFinish) {
    step_ = Step::kSpecialistActions;
  } else if (a == kBuyGreen) {
    mark_used(SpecialistAction::kBuyGreen);
    p.money -= c.buy_green;
    ++p.tech[kGreen];
  } else if (a >= kSellTech && a < kSellTech + 3) {
    mark_used(SpecialistAction::kSellTech);
    p.money += c.sell_tech;
    --p.tech[static_cast<std::size_t>(a - kSellTech)];
  } else if (a == kCapacityUpgrade) {
    mark_used(SpecialistAction::kCapacity);
    p.money -= c.capacity_price;
    gain_capacity_upgrade(p);
  } else if (a >= kBuyTwoDifferent && a < kBuyTwoDifferent + 3) {
    static constexpr int kPairs[3][2] = {{kRed, kYellow}, {kRed, kBlue}, {kYellow, kBlue}};
    mark_used(SpecialistAction::kBuyTwoDifferent);
    p.money -= c.buy_two_different;
    for (int col : kPairs[a - kBuyTwoDifferent]) ++p.tech[static_cast<std::size_t>(col)];
  } else if (a >= kExchangeGive && a < kExchangeGive + kNumColours) {
    if (step_ == Step::kSpecialistActions) {
      mark_used(SpecialistAction::kExchange);
      step_ = Step::kExchangeGive;
      exchange_given_ = exchange_taken_ = 0;
    }
    --p.tech[static_cast<std::size_t>(a - kExchangeGive)];
    ++exchange_given_;
    return;
  } else if (a >= kExchangeTake && a < kExchangeTake + kNumColours) {
    step_ = Step::kExchangeTake;
    ++p.tech[static_cast<std::size_t>(a - kExchangeTake)];
    if (++exchange_taken_ < exchange_given_) return;  // an exchange swaps equal numbers
    step_ = Step::kSpecialistActions;
  } else if (a >= kBuyGreenBulk && a < kBuyGreenBulk + 2) {
    mark_used(SpecialistAction::kBuyGreenBulk);
    const int n = a - kBuyGreenBulk + 1;
    p.money -= c.buy_green_bulk[static_cast<std::size_t>(n - 1)];
    p.tech[kGreen] += n;
  } else if (a == kLabUpgrade || a == kLabUpgradeCheap) {
    const bool cheap = a == kLabUpgradeCheap;
    mark_used(cheap ? SpecialistAction::kLabCheap : SpecialistAction::kLab);
    p.money -= (cheap ? c.lab_cheap_cost : c.lab_cost)[static_cast<std::size_t>(p.lab_level - 1)];
    ++p.lab_level;  // one level per effect [ruling 2]
  } else if (a == kPropulsionUpgrade) {
    mark_used(SpecialistAction::kPropulsion);
    p.money -= c.propulsion_price;
    gain_propulsion_upgrade(p);
  } else if (a == kStationInvest) {
    mark_used(SpecialistAction::kStation);
    invest_in_station();
    step_ = Step::kStationReward;
    return;
  } else if (a == kStationGreen || a == kStationIncome) {
    if (a == kStationGreen)
      ++p.tech[kGreen];
    else
      gain_income(p, 1);
    step_ = Step::kSpecialistActions;
  }
  // When both actions are spent there is nothing left to decide on this card.
  const int all_used = (1 << config_->specialists[static_cast<std::size_t>(played_card_)].num_actions) - 1;
  if (step_ == Step::kSpecialistActions && used_actions_ == all_used) advance_after_specialist();
}

// ---------------------------------------------------------------- missions

int State::draw_mission_card(int level) {
  const auto l = static_cast<std::size_t>(level - 1);
  if (mission_deck_count_[l] == 0) {
    // An empty deck is rebuilt from its discard; this turn's drawn cards are not in it yet [ruling 6].
    if (mission_discard_count_[l] == 0) return -1;
    mission_deck_[l] = mission_discard_[l];
    mission_deck_count_[l] = mission_discard_count_[l];
    mission_discard_count_[l] = 0;
    rng_.shuffle(mission_deck_[l].begin(), mission_deck_[l].begin() + mission_deck_count_[l]);
  }
  return mission_deck_[l][static_cast<std::size_t>(--mission_deck_count_[l])];
}

// Draw 3 + k (k extra_mission banners), keep up to 1 + k [ruling 8]. If none
// of them may be taken, draw one by one until one may, and keep only it [ruling 7].
void State::draw_missions(int level) {
  const int extra = extra_missions(actor_);
  draw_level_ = level;
  num_drawn_ = kept_this_draw_ = 0;
  for (int k = 0; k < config_->mission_draw + extra; ++k) {
    const int card = draw_mission_card(level);
    if (card < 0) break;
    push(drawn_, num_drawn_, card);
  }
  keeps_left_ = std::min(1 + extra, config_->max_per_deck - owned_from_level(actor_, level));
  bool any = false;
  for (int i = 0; i < num_drawn_; ++i)
    any = any || mission_eligible_for_keep(drawn_[static_cast<std::size_t>(i)]);
  if (!any) {
    keeps_left_ = 1;
    while (num_drawn_ < kMaxDeckCards) {
      const int card = draw_mission_card(level);
      if (card < 0) break;
      push(drawn_, num_drawn_, card);
      if (mission_eligible_for_keep(card)) {
        any = true;
        break;
      }
    }
  }
  step_ = Step::kKeepMissions;
  if (!any) finish_keeping();
}

void State::keep_mission(int type) {
  Player& p = players_[static_cast<std::size_t>(actor_)];
  remove_one(drawn_, num_drawn_, type);
  push(p.earth, p.num_earth, type);
  --keeps_left_;
  ++kept_this_draw_;
  bool more = false;
  for (int i = 0; i < num_drawn_; ++i)
    more = more || mission_eligible_for_keep(drawn_[static_cast<std::size_t>(i)]);
  if (!more) finish_keeping();
}

void State::finish_keeping() {
  const auto l = static_cast<std::size_t>(draw_level_ - 1);
  for (int i = 0; i < num_drawn_; ++i)
    push(mission_discard_[l], mission_discard_count_[l], drawn_[static_cast<std::size_t>(i)]);
  num_drawn_ = keeps_left_ = kept_this_draw_ = 0;
  draw_level_ = 0;
  next_mission_drawer();
}

// ---------------------------------------------------------------- launches

void State::send_to_space(int seat, int type) {
  Player& p = players_[static_cast<std::size_t>(seat)];
  const MissionType& m = config_->missions[static_cast<std::size_t>(type)];
  remove_one(p.earth, p.num_earth, type);
  push(p.space, p.num_space, type);
  p.vp += m.vp;
  for (int col = 0; col < kNumColours; ++col)
    p.tech[static_cast<std::size_t>(col)] += m.gain_tech[static_cast<std::size_t>(col)];
  p.money += m.gain_money;
  gain_income(p, m.income);
  for (int k = 0; k < m.free_propulsion; ++k) gain_propulsion_upgrade(p);
  for (int k = 0; k < m.free_capacity; ++k) gain_capacity_upgrade(p);
}

// Pay, score the launch once, then send each mission up. The immediate
// effects commute (techs, money, income, tokens), so their order is the
// loading order without changing any outcome.
void State::lift_off() {
  Player& p = players_[static_cast<std::size_t>(actor_)];
  const int discount = launch_uses_lab_ ? 0 : config_->extra_launch_discount;
  p.money -= std::max(0, launch_cost(actor_) - discount);
  p.vp += config_->launch_vp[static_cast<std::size_t>(phase_ - 1)][static_cast<std::size_t>(p.lab_level - 1)];
  for (int i = 0; i < num_loaded_; ++i) send_to_space(actor_, loaded_[static_cast<std::size_t>(i)]);
  p.missions_launched += num_loaded_;
  num_loaded_ = 0;
  applied_capacity_ = 0;
  launch_uses_lab_ = false;
  step_ = Step::kLaunch;
  if (!can_start_launch(true) && !can_start_launch(false)) next_launcher();
}

// ---------------------------------------------------------------- scoring

int State::hourglass_points(int seat) const {
  const Player& p = player(seat);
  int total = 0;
  for (int i = 0; i < p.num_space; ++i) {
    const MissionType& m = config_->missions[p.space[static_cast<std::size_t>(i)]];
    switch (m.final_effect) {
      case FinalEffect::kNone:
        break;
      case FinalEffect::kPerTech:
        total += m.final_vp * p.tech[static_cast<std::size_t>(m.final_colour)];
        break;
      case FinalEffect::kPerTechAny:
        total += m.final_vp * (p.tech[0] + p.tech[1] + p.tech[2] + p.tech[3]);
        break;
      case FinalEffect::kPerIncomeOver:
        total += m.final_vp * std::max(0, p.income - m.final_base);
        break;
      case FinalEffect::kPerMissionLevel:
        for (int lv = 1; lv <= kNumLevels; ++lv)
          if (m.final_levels_mask & (1 << lv)) total += m.final_vp * missions_in_space_of_level(seat, lv);
        break;
      case FinalEffect::kPerStationInvestment:
        total += m.final_vp * p.station_investments;
        break;
      case FinalEffect::kPerUpgrade:
        total += m.final_vp * (p.capacity_upgrades + p.propulsion_upgrades);
        break;
    }
  }
  return total;
}

int State::objective_points(int seat, int objective) const {
  const Player& p = player(seat);
  const ObjectiveCard& o = config_->objectives[static_cast<std::size_t>(objective)];
  int amount = 0;
  switch (o.count) {
    case ObjectiveCount::kTech:
      amount = p.tech[static_cast<std::size_t>(o.colour)];
      break;
    case ObjectiveCount::kTechSets:
      amount = *std::min_element(p.tech.begin(), p.tech.end());
      break;
    case ObjectiveCount::kMissionsInSpace:
      for (int lv = 1; lv <= kNumLevels; ++lv)
        if (o.levels_mask & (1 << lv)) amount += missions_in_space_of_level(seat, lv);
      if (o.required_level > 0 && missions_in_space_of_level(seat, o.required_level) == 0) amount = 0;
      break;
    case ObjectiveCount::kMissionLevelSets:
      amount = missions_in_space_of_level(seat, 1);
      for (int lv = 2; lv <= kNumLevels; ++lv)
        amount = std::min(amount, missions_in_space_of_level(seat, lv));
      break;
    case ObjectiveCount::kStationInvestments:
      amount = p.station_investments;
      break;
    case ObjectiveCount::kUpgrades:
      amount =
          (o.count_capacity ? p.capacity_upgrades : 0) + (o.count_propulsion ? p.propulsion_upgrades : 0);
      break;
    case ObjectiveCount::kIncome:
      amount = p.income;
      break;
    case ObjectiveCount::kLabLevel:
      amount = p.lab_level;
      break;
    case ObjectiveCount::kMoney:
      amount = p.money;
      break;  // before the money conversion
    case ObjectiveCount::kHourglassMissions:
      for (int i = 0; i < p.num_space; ++i)
        amount += config_->missions[p.space[static_cast<std::size_t>(i)]].has_hourglass();
      break;
  }
  return o.points_for(amount);
}

// Final scoring order [ruling 25]: hourglass missions, objectives, 3 per green, 1 per 5 money.
int State::final_score(int seat) const {
  const Player& p = player(seat);
  int total = hourglass_points(seat);
  for (int i = 0; i < p.num_objectives; ++i)
    total += objective_points(seat, p.objectives[static_cast<std::size_t>(i)]);
  total += config_->green_vp * p.tech[kGreen];
  total += p.money / config_->money_per_vp;
  return total;
}

// Final scoring reveals every hand.
void State::final_scoring() {
  for (int s = 0; s < num_players_; ++s) final_vp_[static_cast<std::size_t>(s)] = final_score(s);
  step_ = Step::kGameOver;
  actor_ = -1;
  reveal_hands();
}

// Loading bounds every number far below overflow; the sum is still taken in 64 bits.
void State::scores(int* out) const {
  for (int s = 0; s < num_players_; ++s) {
    const int64_t total = int64_t{player(s).vp} + final_vp_[static_cast<std::size_t>(s)];
    out[s] = static_cast<int>(
        std::clamp<int64_t>(total, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  }
}

// Ties are broken by level-4 missions in space, then shared [ruling 24].
void State::returns(float* out) const {
  if (!is_terminal()) {
    std::fill(out, out + num_players_, 0.0f);
    return;
  }
  double standing[kMaxPlayers], score[kMaxPlayers];
  for (int s = 0; s < num_players_; ++s) {
    score[s] = player(s).vp + final_vp_[static_cast<std::size_t>(s)];
    standing[s] = score[s] * 100.0 + missions_in_space_of_level(s, 4);
  }
  compute_returns(config_->reward, num_players_, standing, score, out);
}

}  // namespace rocketgym::lift_off
