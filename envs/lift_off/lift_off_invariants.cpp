// Lift Off: what every position the game can reach satisfies (check_invariants):
// the flow of the round, the card counts, the decision in progress, what each
// seat knows. Each message names the document field at fault.
#include <algorithm>
#include <string>

#include "envs/lift_off/lift_off.h"
#include "envs/lift_off/lift_off_document.h"

namespace rocketgym::lift_off {

using namespace actions;
using namespace document;

namespace {

// A check of the invariants: the message names the field and the reason.
// Messages are only built when a check fails.
[[noreturn]] void fail(const std::string& field, const std::string& why) {
  throw InvariantViolation("lift_off: '" + field + "' " + why);
}

bool drafting_objectives(Step s) { return s == Step::kObjectiveKeep || s == Step::kObjectivePass; }
bool drafting_specialists(Step s) { return s == Step::kSpecialistKeep || s == Step::kSpecialistPass; }
bool resolving(Step s) {
  return s == Step::kSpecialistActions || s == Step::kBulkBuy || s == Step::kExchangeGive ||
         s == Step::kExchangeTake || s == Step::kStationReward;
}
bool playing(Step s) { return s == Step::kPlaySpecialist || resolving(s); }
bool launching(Step s) { return s == Step::kLaunch || s == Step::kLoadRocket; }

}  // namespace

int State::seat_at(int position) const {
  return next_seat(start_player_, (playing(step_) ? direction_ : 1) * position);
}

int State::position_of(int seat) const {
  const int d = playing(step_) ? direction_ : 1;
  return (((seat - start_player_) * d) % num_players_ + num_players_) % num_players_;
}

int State::total_specialists() const {
  int total = 0;
  for (int card = 0; card < static_cast<int>(config_->specialists.size()); ++card)
    total += config_->specialist_in_game(card, num_players_);
  return total;
}

// Where the round stands: round and phase, whose turn in the step's order,
// the draft picks so far, and the play pass.
void State::check_flow() const {
  const int n = num_players_;
  if (phase_ != (round_ <= 4 ? 1 : 2))
    fail("phase", "= " + std::to_string(phase_) + " in round " + std::to_string(round_) +
                      " (phase 1 is rounds 1-4, phase 2 rounds 5-8)");
  if (drafting_objectives(step_) && round_ != 1) fail("round", "must be 1 during the objective draft");
  if (step_ == Step::kDiscardObjectives && round_ != 5)
    fail("round", "must be 5 during the phase-2 objective discard");
  if (step_ == Step::kGameOver && round_ != 8) fail("round", "must be 8 once the game is over");
  const int turns = step_ == Step::kChooseDirection ? 1 : n;
  if (step_ == Step::kGameOver ? turn_ != n : turn_ >= turns)
    fail("turn", "= " + std::to_string(turn_) + " is not a turn of step " + step_name(step_) +
                     (step_ == Step::kGameOver ? " (the last round ends with turn = players)" : ""));
  const int expected_actor = step_ == Step::kGameOver ? -1 : seat_at(turn_);
  if (actor_ != expected_actor)
    fail("actor", "= " + std::to_string(actor_) + ", but in step " + step_name(step_) + " at turn " +
                      std::to_string(turn_) + " (start player " + std::to_string(start_player_) + ") seat " +
                      std::to_string(expected_actor) + " is to act");
  const bool before_first_draft =
      drafting_objectives(step_) || (round_ == 1 && step_ == Step::kChooseDirection);
  if (before_first_draft && direction_ != 1)
    fail("direction", "must be left before the first specialist draft");
  // The play pass counts 0, 1 during the plays and stays at 2 from the mission
  // step until the next round's plays begin (0 before the first plays).
  const bool fresh_round_draft = step_ == Step::kChooseDirection || drafting_specialists(step_);
  const int expected_pass = drafting_objectives(step_) || (fresh_round_draft && round_ == 1) ? 0
                            : playing(step_)                                                 ? play_pass_
                                                                                             : 2;
  if (play_pass_ != expected_pass || (playing(step_) && play_pass_ > 1))
    fail("play_pass", "= " + std::to_string(play_pass_) + " does not fit step " + step_name(step_) +
                          " of round " + std::to_string(round_));
  const bool drafting = drafting_objectives(step_) || drafting_specialists(step_);
  for (int w = 0; w < n; ++w) {
    const int pick = player(w).pick;
    const bool picked = drafting && position_of(w) < turn_;
    if (picked ? (pick < 0 || pick >= kRoundHand) : pick != -1)
      fail(seat_field(w, "pick"), "= " + std::to_string(pick) +
                                      (picked ? ": this seat has picked, so it names a card slot"
                                              : ": this seat has not picked in a draft now"));
  }
}

// How many cards each place holds follows from the round and the step: three
// specialists per hand in a round (two of them played), a deck that gives two
// per player each round and is empty at the end of rounds 4 and 8, three
// objectives per seat (discards from phase 2 on); then every card is in
// exactly one place.
void State::check_counts() const {
  const Config& c = *config_;
  const int n = num_players_;
  const int total = total_specialists();
  const int draw = c.specialist_draw_per_round;
  const int in_phase = (round_ - 1) % 4 + 1;  // round within its phase
  int deck = 0, carried = 0;
  std::array<int, kMaxPlayers> played{};
  if (drafting_objectives(step_)) {
    deck = total;
  } else if (step_ == Step::kDiscardObjectives || step_ == Step::kGameOver) {
    carried = kRoundHand - kPlaysPerRound;
    deck = step_ == Step::kGameOver ? 0 : total - carried * n;
  } else {
    carried = kRoundHand;
    deck = phase_ == 1 ? total - c.specialists_dealt * n - draw * n * (in_phase - 1)
                       : total - (kRoundHand - kPlaysPerRound) * n - draw * n * in_phase;
    for (int w = 0; w < n; ++w) {
      int& p = played[static_cast<std::size_t>(w)];
      if (playing(step_)) {
        const int pos = position_of(w);
        p = play_pass_ + (pos < turn_ || (resolving(step_) && pos == turn_) ? 1 : 0);
      } else if (step_ != Step::kChooseDirection && !drafting_specialists(step_)) {
        p = kPlaysPerRound;
      }
    }
  }
  const int discard = total - deck - carried * n;
  if (specialist_deck_count_ != deck)
    fail("specialist_deck", "holds " + std::to_string(specialist_deck_count_) + " cards, but at step " +
                                step_name(step_) + " of round " + std::to_string(round_) + " it holds " +
                                std::to_string(deck));
  if (specialist_discard_count_ != discard)
    fail("specialist_discard", "holds " + std::to_string(specialist_discard_count_) + " cards, but at step " +
                                   step_name(step_) + " of round " + std::to_string(round_) + " it holds " +
                                   std::to_string(discard));
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    const int want_played = played[static_cast<std::size_t>(w)];
    if (p.num_played != want_played)
      fail(seat_field(w, "played"), "holds " + std::to_string(p.num_played) +
                                        " cards, but this seat has played " + std::to_string(want_played) +
                                        " at this point of the round");
    if (p.hand_size != carried - want_played)
      fail(seat_field(w, "hand"), "holds " + std::to_string(p.hand_size) +
                                      " cards, but at this point it holds " +
                                      std::to_string(carried - want_played));
    if (p.num_objectives + p.num_discarded_objectives != kObjectivesEach)
      fail(seat_field(w, "objectives"), "and discarded_objectives must hold three objectives together");
    const bool discarded_yet = round_ >= 5 &&
                               !(step_ == Step::kDiscardObjectives && position_of(w) > turn_) &&
                               !drafting_objectives(step_);
    if (p.num_discarded_objectives > 0 && !discarded_yet)
      fail(seat_field(w, "discarded_objectives"),
           "must be empty before this seat's phase-2 objective discard");
  }
  // Every card of this player count is in exactly one place.
  std::array<int, kMaxSpecialists> seen_s{};
  std::array<int, kMaxMissionTypes> seen_m{};
  std::array<int, kMaxObjectives> seen_o{};
  for (int i = 0; i < specialist_deck_count_; ++i) ++seen_s[specialist_deck_[static_cast<std::size_t>(i)]];
  for (int i = 0; i < specialist_discard_count_; ++i)
    ++seen_s[specialist_discard_[static_cast<std::size_t>(i)]];
  for (int i = 0; i < objective_box_count_; ++i) ++seen_o[objective_box_[static_cast<std::size_t>(i)]];
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    for (int i = 0; i < p.hand_size; ++i) ++seen_s[p.hand[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_played; ++i) ++seen_s[p.played[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_objectives; ++i) ++seen_o[p.objectives[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      ++seen_o[p.discarded_objectives[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_earth; ++i) ++seen_m[p.earth[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_space; ++i) ++seen_m[p.space[static_cast<std::size_t>(i)]];
  }
  for (std::size_t card = 0; card < c.specialists.size(); ++card)
    if (seen_s[card] != (c.specialist_in_game(static_cast<int>(card), n) ? 1 : 0))
      fail("specialist " + c.specialists[card].id,
           "is not in exactly one place (hands, played, deck, discard)");
  for (std::size_t o = 0; o < c.objectives.size(); ++o)
    if (seen_o[o] != 1) fail("objective " + c.objectives[o].id, "is not in exactly one place");
  for (std::size_t l = 0; l < kNumLevels; ++l) {
    for (int i = 0; i < mission_deck_count_[l]; ++i) {
      const int t = mission_deck_[l][static_cast<std::size_t>(i)];
      if (c.missions[static_cast<std::size_t>(t)].level != static_cast<int>(l) + 1)
        fail("mission_decks[" + std::to_string(l) + "]",
             "holds " + c.missions[static_cast<std::size_t>(t)].id + " of another level");
      ++seen_m[static_cast<std::size_t>(t)];
    }
    for (int i = 0; i < mission_discard_count_[l]; ++i) {
      const int t = mission_discard_[l][static_cast<std::size_t>(i)];
      if (c.missions[static_cast<std::size_t>(t)].level != static_cast<int>(l) + 1)
        fail("mission_discards[" + std::to_string(l) + "]",
             "holds " + c.missions[static_cast<std::size_t>(t)].id + " of another level");
      ++seen_m[static_cast<std::size_t>(t)];
    }
  }
  for (int i = 0; i < num_drawn_; ++i) {
    const int t = drawn_[static_cast<std::size_t>(i)];
    if (c.missions[static_cast<std::size_t>(t)].level != draw_level_)
      fail("mission_draw.drawn", "holds " + c.missions[static_cast<std::size_t>(t)].id +
                                     ", not of the level drawn from (" + std::to_string(draw_level_) + ")");
    ++seen_m[static_cast<std::size_t>(t)];
  }
  for (std::size_t t = 0; t < c.missions.size(); ++t)
    if (seen_m[t] != c.missions[t].copies_for(n))
      fail("mission " + c.missions[t].id, "has " + std::to_string(seen_m[t]) +
                                              " copies in play; this player count has " +
                                              std::to_string(c.missions[t].copies_for(n)));
}

// The decision in progress is one the game reaches, and the player to move can go on.
void State::check_decision() const {
  const Config& c = *config_;
  const int n = num_players_;
  // The specialist being resolved.
  if (resolving(step_)) {
    const Player& p = player(actor_);
    if (played_card_ < 0 || p.num_played == 0 ||
        p.played[static_cast<std::size_t>(p.num_played - 1)] != played_card_)
      fail("specialist_play.card", "is not the card the actor played last");
    const SpecialistCard& card = c.specialists[static_cast<std::size_t>(played_card_)];
    const int all = (1 << card.num_actions) - 1;
    auto used = [&](SpecialistAction kind) {
      for (int i = 0; i < card.num_actions; ++i)
        if (card.actions[static_cast<std::size_t>(i)] == kind && (used_actions_ >> i & 1)) return true;
      return false;
    };
    if (used_actions_ & ~all) fail("specialist_play.used_actions", "marks an action the card does not have");
    if (took_money_)
      fail("specialist_play.took_money", "must be false: taking the money ends the card at once");
    if (step_ == Step::kSpecialistActions && used_actions_ == all)
      fail("specialist_play.used_actions", "marks every action used, so the card is finished");
    if (bulk_bought_ > 0 && !used(SpecialistAction::kBuyTechBulk))
      fail("specialist_play.bulk_bought", "is set, but the card's bulk buy is not used");
    if (step_ == Step::kBulkBuy && bulk_bought_ < 1)
      fail("specialist_play.bulk_bought", "must count at least one card during a bulk buy");
    if ((exchange_given_ > 0 || exchange_taken_ > 0) && !used(SpecialistAction::kExchange))
      fail("specialist_play.exchange_given", "is set, but the card's exchange is not used");
    const bool exchange_ok = step_ == Step::kExchangeGive ? exchange_given_ >= 1 && exchange_taken_ == 0
                             : step_ == Step::kExchangeTake
                                 ? exchange_taken_ >= 1 && exchange_taken_ < exchange_given_
                                 : exchange_given_ == exchange_taken_;
    if (!exchange_ok)
      fail("specialist_play.exchange_taken", "does not fit step " + std::string(step_name(step_)) +
                                                 " (an exchange gives first, then takes as many)");
    if (step_ == Step::kStationReward && !used(SpecialistAction::kStation))
      fail("specialist_play.used_actions", "must mark the station action during the station reward");
  } else if (played_card_ != -1 || used_actions_ != 0 || took_money_ || bulk_bought_ != 0 ||
             exchange_given_ != 0 || exchange_taken_ != 0) {
    fail("specialist_play", "must be empty (card null, counts 0) outside a specialist's actions");
  }
  // The mission draw in progress.
  if (step_ == Step::kKeepMissions) {
    if (draw_level_ < 1 || draw_level_ > (phase_ == 1 ? 2 : kNumLevels))
      fail("mission_draw.level",
           "= " + std::to_string(draw_level_) + " is not a deck open in phase " + std::to_string(phase_));
    if (num_drawn_ == 0) fail("mission_draw.drawn", "is empty during a mission draw");
    if (keeps_left_ < 1) fail("mission_draw.keeps_left", "must be at least 1 while missions are being kept");
    if (kept_this_draw_ + keeps_left_ > 1 + extra_missions(actor_))
      fail("mission_draw.keeps_left", "and 'kept' exceed the 1 + extra-mission banners allowed");
    if (keeps_left_ > c.max_per_deck - owned_from_level(actor_, draw_level_))
      fail("mission_draw.keeps_left", "would take the actor past seven missions from that deck");
    bool any = false;
    for (int i = 0; i < num_drawn_; ++i)
      any = any || mission_eligible_for_keep(drawn_[static_cast<std::size_t>(i)]);
    if (!any) fail("mission_draw.drawn", "holds no mission the actor may keep, so the draw would be over");
  } else if (draw_level_ != 0 || num_drawn_ != 0 || keeps_left_ != 0 || kept_this_draw_ != 0) {
    fail("mission_draw", "must be empty (level 0, nothing drawn or kept) outside a mission draw");
  }
  if (step_ == Step::kChooseDeck) {
    bool any = false;
    for (int level = 1; level <= kNumLevels; ++level) any = any || can_choose_deck(level);
    if (!any) fail("actor", "has no deck to draw from, so this seat would have been skipped");
  }
  // This round's launches: only seats whose launch turn has come have launched.
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    const bool may_have_launched = launching(step_) && position_of(w) <= turn_;
    int symbols = p.lab_symbol_used ? 1 : 0;
    for (int i = 0; i < 2; ++i) {
      if (!p.banner_used[static_cast<std::size_t>(i)]) continue;
      const Banner b =
          i < p.num_played ? c.specialists[p.played[static_cast<std::size_t>(i)]].banner : Banner::kMoney3;
      if (b != Banner::kExtraLaunch && b != Banner::kCapacity)
        fail(seat_field(w, "banner_used"), "marks a card with no launch banner");
      symbols += b == Banner::kExtraLaunch;
    }
    const bool any = p.missions_launched > 0 || symbols > 0 || p.banner_used[0] || p.banner_used[1];
    if (any && !may_have_launched)
      fail(seat_field(w, "missions_launched"),
           "and the launch symbols and banners must be unused before the "
           "seat's launch turn this round");
    const int loading = step_ == Step::kLoadRocket && w == actor_ ? 1 : 0;
    if ((p.missions_launched > 0 && symbols == 0) || symbols > p.missions_launched + loading)
      fail(seat_field(w, "lab_symbol_used"),
           "and the extra-launch banners used do not match the missions launched");
  }
  if (step_ == Step::kLaunch && !can_start_launch(true) && !can_start_launch(false))
    fail("actor", "cannot launch, so this seat would have been skipped");
  if (step_ == Step::kLoadRocket) {
    const Player& p = player(actor_);
    if (launch_uses_lab_ && !p.lab_symbol_used)
      fail("launch.uses_lab", "but the lab's launch symbol is not used");
    int extra_used = 0;
    for (int i = 0; i < p.num_played; ++i)
      extra_used += c.specialists[p.played[static_cast<std::size_t>(i)]].banner == Banner::kExtraLaunch &&
                    p.banner_used[static_cast<std::size_t>(i)];
    if (!launch_uses_lab_ && extra_used == 0)
      fail("launch.uses_lab", "is false, but no extra-launch banner of the actor is used");
    const int cost = std::max(0, launch_cost(actor_) - (launch_uses_lab_ ? 0 : c.extra_launch_discount));
    if (p.money < cost) fail(seat_field(actor_, "money"), "cannot pay for the launch being built");
    if (!loaded_missions_on_earth())
      fail("launch.loaded", "holds a mission that is not on the actor's Earth");
    for (int i = 0; i < num_loaded_; ++i)
      if (!meets_requirements(actor_, loaded_[static_cast<std::size_t>(i)]))
        fail("launch.loaded", "holds a mission the actor's lab or techs cannot launch");
    if (p.missions_launched + num_loaded_ > c.missions_per_round)
      fail("launch.loaded", "takes the actor past the missions allowed per round");
    int used_capacity = 0;
    for (int i = 0; i < p.num_played; ++i) {
      const SpecialistCard& card = c.specialists[p.played[static_cast<std::size_t>(i)]];
      if (card.banner == Banner::kCapacity && p.banner_used[static_cast<std::size_t>(i)])
        used_capacity += card.capacity_bonus;
    }
    if (applied_capacity_ > used_capacity)
      fail("launch.applied_capacity", "is more than the capacity banners used this round");
    if (loaded_weight() > rocket_capacity_now() + unused_capacity_banners(actor_))
      fail("launch.loaded", "weighs more than the rocket can carry with every banner");
    bool loadable = num_loaded_ > 0;
    for (int t = 0; t < static_cast<int>(c.missions.size()) && !loadable; ++t) loadable = can_load(t);
    if (!loadable) fail("launch.loaded", "is empty and no mission can be loaded");
  } else if (launch_uses_lab_ || num_loaded_ != 0 || applied_capacity_ != 0) {
    fail("launch", "must be empty (no symbol, nothing loaded) outside a launch being built");
  }
  if (step_ == Step::kDiscardObjectives && player(actor_).num_objectives == 0)
    fail("actor", "has no objective to discard, so this seat would have been skipped");
  for (int w = 0; w < n; ++w) {
    const int want = is_terminal() ? final_score(w) : 0;
    if (final_vp_[static_cast<std::size_t>(w)] != want)
      fail("final_vp[" + std::to_string(w) + "]",
           "= " + std::to_string(final_vp_[static_cast<std::size_t>(w)]) +
               (is_terminal() ? ", but final scoring gives " + std::to_string(want)
                              : ", but final points come only at the end"));
  }
  if (!is_terminal()) {
    std::array<uint8_t, kNumActions> mask{};
    legal_actions_mask(mask.data());
    if (std::find(mask.begin(), mask.end(), uint8_t{1}) == mask.end())
      fail("step", std::string("= ") + step_name(step_) + " leaves the actor no legal action");
  }
}

// Every seat's sets hold the card's true place, its own cards exactly, and
// nothing for public cards; at the end every hand is known.
void State::check_knowledge() const {
  const Config& c = *config_;
  const int n = num_players_;
  std::array<int, kMaxSpecialists> spec_at{};
  std::array<int, kMaxObjectives> obj_at{};
  spec_at.fill(-1);
  obj_at.fill(-1);
  for (int i = 0; i < specialist_deck_count_; ++i)
    spec_at[specialist_deck_[static_cast<std::size_t>(i)]] = may_be::kDeck;
  for (int i = 0; i < objective_box_count_; ++i)
    obj_at[objective_box_[static_cast<std::size_t>(i)]] = may_be::kBox;
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    for (int i = 0; i < p.hand_size; ++i) spec_at[p.hand[static_cast<std::size_t>(i)]] = may_be::kHand + w;
    for (int i = 0; i < p.num_objectives; ++i)
      obj_at[p.objectives[static_cast<std::size_t>(i)]] = may_be::kHand + w;
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      obj_at[p.discarded_objectives[static_cast<std::size_t>(i)]] = may_be::kDiscarded + w;
  }
  const unsigned seats = (1u << n) - 1;
  const unsigned spec_valid = seats | 1u << may_be::kDeck;
  const unsigned obj_valid = seats | seats << may_be::kDiscarded | 1u << may_be::kBox;
  for (int v = 0; v < n; ++v) {
    auto check = [&](bool objective, int card, unsigned m, int at) {
      auto where = [&] {
        return "seats[" + std::to_string(v) + "].knowledge" + (objective ? ".objectives." : ".specialists.") +
               (objective ? c.objectives[static_cast<std::size_t>(card)].id
                          : c.specialists[static_cast<std::size_t>(card)].id);
      };
      if (at < 0) {
        if (m != 0) fail(where(), "is given, but the card is not in a hidden place");
        return;
      }
      const unsigned own = 1u << v, own_discard = objective ? 1u << (may_be::kDiscarded + v) : 0;
      const bool certain =
          at == v || (objective && at == may_be::kDiscarded + v) || (is_terminal() && at < may_be::kDeck);
      if (!(m >> at & 1))
        fail(where(), "leaves out the place the card is in (" + place_name(objective, at) + ")");
      if (m & ~(objective ? obj_valid : spec_valid)) fail(where(), "lists a place of a seat not in the game");
      if (certain ? m != 1u << at : (m & (own | own_discard)) != 0)
        fail(where(),
             certain ? "must be exactly where the card is: the seat sees it" : "lists the seat's own cards");
    };
    for (int card = 0; card < static_cast<int>(c.specialists.size()); ++card)
      check(false, card, specialist_may_be(v, card), spec_at[static_cast<std::size_t>(card)]);
    for (int card = 0; card < static_cast<int>(c.objectives.size()); ++card)
      check(true, card, objective_may_be(v, card), obj_at[static_cast<std::size_t>(card)]);
    // Links: into another seat's hand (and its discards), true, not yet resolved.
    for (const bool objective : {false, true}) {
      const Links& links = objective ? objective_links(v) : specialist_links(v);
      bool ended = false;
      for (std::size_t i = 0; i < links.size(); ++i) {
        const Link& link = links[i];
        auto where = [&] {
          return "seats[" + std::to_string(v) + "].knowledge.links (" +
                 (objective ? "objectives" : "specialists") + " " + std::to_string(i) + ")";
        };
        if (link.cards == 0) {
          ended = true;
          continue;
        }
        if (ended) fail(where(), "follows an empty link");
        int seat = -1;
        for (int x = 0; x < n; ++x)
          if (link.to == ((1u << x) | (objective ? 1u << (may_be::kDiscarded + x) : 0u))) seat = x;
        if (seat < 0 || seat == v)
          fail(where(),
               objective ? "must name another seat's hand and discards" : "must name another seat's hand");
        if (link.most < 1 || __builtin_popcountll(link.cards) <= link.most ||
            __builtin_popcountll(link.cards) > kRoundHand)
          fail(where(), "must link more cards than 'at_most' (at least 1), and at most a hand's three");
        int there = 0;
        for (int card = 0; card < 64; ++card) {
          if (!(link.cards >> card & 1)) continue;
          const int at =
              objective ? obj_at[static_cast<std::size_t>(card)] : spec_at[static_cast<std::size_t>(card)];
          // Linked cards were in a hand at the pass: they are in hands (or,
          // objectives, face-down discards), never the deck or the box.
          const int pile = objective ? may_be::kBox : may_be::kDeck;
          const unsigned m = objective ? objective_may_be(v, card) : specialist_may_be(v, card);
          if (at < 0 || at == pile || (m >> pile & 1))
            fail(where(), std::string("links a card that is (or may be) ") + (at < 0      ? "face up"
                                                                              : objective ? "in the box"
                                                                                          : "in the deck"));
          there += link.to >> at & 1;
        }
        if (there > link.most) fail(where(), "is not true: more of its cards are in those places");
      }
    }
    // The cards it passed: in other seats' hands (objectives: or discards), laid out as one of its layouts.
    for (const bool objective : {false, true}) {
      const PassedCards& p = objective ? objectives_passed(v) : specialists_passed(v);
      const std::string where =
          "seats[" + std::to_string(v) + "].knowledge.passed." + (objective ? "objectives" : "specialists");
      if (p.num_cards < 0 || p.num_cards > kMaxPassed || p.num_layouts < 1 || p.num_layouts > kMaxLayouts ||
          (p.num_cards == 0 && (p.num_layouts != 1 || p.layouts[0] != 0)))
        fail(where, "has a count out of range");
      uint32_t truth = 0;
      for (int i = 0; i < p.num_cards; ++i) {
        const int card = p.cards[static_cast<std::size_t>(i)];
        const int at = objective ? obj_at[card] : spec_at[card];
        const int seat = at < 0                           ? -1
                         : at < may_be::kDeck             ? at
                         : objective && at < may_be::kBox ? at - may_be::kDiscarded
                                                          : -1;
        if (seat < 0 || seat == v) fail(where, "follows a card that is not hidden in another seat's hand");
        truth |= static_cast<uint32_t>(seat) << (2 * i);
      }
      if (std::find(p.layouts.begin(), p.layouts.begin() + p.num_layouts, truth) ==
          p.layouts.begin() + p.num_layouts)
        fail(where, "leaves out where the cards are");
    }
  }
}

void State::check_invariants() const {
  const Config& c = *config_;
  const int n = num_players_;
  if (n < 2 || n > kMaxPlayers) fail("players", "must be 2 to 4");
  if (round_ < 1 || round_ > 8 || (phase_ != 1 && phase_ != 2)) fail("round", "or phase out of range");
  if ((step_ == Step::kGameOver) != (actor_ < 0)) fail("actor", "is -1 exactly when the game is over");
  if (actor_ >= n || start_player_ < 0 || start_player_ >= n || turn_ < 0 || turn_ > n)
    fail("actor", "start_player or turn is not a seat");
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    if (p.vp < 0 || p.vp > kMaxVp) fail(seat_field(w, "vp"), "out of range");
    if (p.money < 0 || p.money > kMaxMoney) fail(seat_field(w, "money"), "out of range");
    if (p.income < c.income_start || p.income > c.income_max) fail(seat_field(w, "income"), "out of range");
    if (p.lab_level < 1 || p.lab_level > kNumLevels) fail(seat_field(w, "lab_level"), "out of range");
    if (p.capacity_upgrades < 0 || p.capacity_upgrades > c.capacity_tokens)
      fail(seat_field(w, "capacity_upgrades"), "out of range");
    if (p.propulsion_upgrades < 0 || p.propulsion_upgrades > c.propulsion_tokens)
      fail(seat_field(w, "propulsion_upgrades"), "out of range");
    if (p.station_investments < 0 || p.station_investments > kMaxStation)
      fail(seat_field(w, "station_investments"), "out of range");
    for (int t : p.tech)
      if (t < 0 || t > kMaxTech) fail(seat_field(w, "tech"), "out of range");
    if (p.hand_size < 0 || p.hand_size > kRoundHand || p.num_played < 0 || p.num_played > kPlaysPerRound)
      fail(seat_field(w, "hand"), "size out of range");
    if (p.pick < -1 || p.pick >= kRoundHand) fail(seat_field(w, "pick"), "out of range");
    if (p.missions_launched < 0 || p.missions_launched > c.missions_per_round)
      fail(seat_field(w, "missions_launched"), "out of range");
    std::array<int, kMaxMissionTypes> owned{};
    for (int i = 0; i < p.num_earth; ++i) ++owned[p.earth[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_space; ++i) ++owned[p.space[static_cast<std::size_t>(i)]];
    for (int level = 1; level <= kNumLevels; ++level)
      if (owned_from_level(w, level) > c.max_per_deck)
        fail(seat_field(w, "earth"),
             "and space hold more than seven missions from the level " + std::to_string(level) + " deck");
    for (std::size_t t = 0; t < c.missions.size(); ++t)
      if (owned[t] > 1 && !c.missions[t].multi)
        fail(seat_field(w, "earth"), "and space hold two copies of " + c.missions[t].id);
  }
  check_flow();
  check_counts();
  check_decision();
  check_knowledge();
}

bool State::loaded_missions_on_earth() const {
  const Player& p = player(actor_);
  for (int i = 0; i < num_loaded_; ++i) {
    const int type = loaded_[static_cast<std::size_t>(i)];
    int on_earth = 0;
    for (int k = 0; k < p.num_earth; ++k) on_earth += p.earth[static_cast<std::size_t>(k)] == type;
    if (on_earth < loaded_count(type)) return false;
  }
  return true;
}
}  // namespace rocketgym::lift_off
