// Lift Off (Jeroen Vandersteen): the full engine-building game of specialists,
// missions and rocket launches, for 2-4 players, as a rocketgym environment.
//
// Rules: the published rulebook, card data and the project's rulings (each
// with a test in tests/lift_off/). All card data comes from configs/games/lift_off.yaml.
//
// Decision flow (one current player at every moment):
//   objective draft   keep 1 of 3, then pass 1 of 3 (hidden simultaneous picks, taken in seat order)
//   each round 1..8:  [income, draw 2]  start player picks the draft direction
//                     specialist draft: keep 1, then pass 1 (hidden simultaneous picks)
//                     two play passes: play a specialist -> banner -> actions (or 2 money) -> end
//                     mission draw: choose a deck -> keep 1..1+k drawn missions
//                     launches: symbol -> load missions / capacity banners -> lift off; repeat or end
//   after round 4:    objective discard for money (start player first, clockwise)
//   after round 8:    final scoring.
// Players with no choice (no deck to draw from, no launch possible) are skipped.
//
// Knowledge model (envs/core/knowledge.h). For every seat and every card in a
// hidden place the state keeps the set of places the card may be in, in that
// seat's eyes: a specialist in a hand or the deck, an objective in a hand, a
// face-down discard or the box. It follows what the seat sees: its own cards
// (exact); cards it passes in a draft (in the receiver's hand, and after the
// receiver's next hidden pass in that hand or the next one); cards passed to it
// (the giver kept the rest); draws (a card that may be in the deck may now be
// in any hand that drew); plays and the phase-2 reshuffle (public); face-down
// objective discards; the public counts (a place filled by cards known to be
// there holds nothing else; a place that only the cards that may be there can
// fill holds exactly those); and the final reveal of every hand. A seat knows
// a card's place for certain when the set holds one place. The sets cannot say
// that cards went together, so a seat also keeps links ("at most m of these
// cards are in that hand"): each hidden pass it saw neither side of leaves one
// (of the cards it knew to be in the passing hand, at most as many as were
// passed went on: "one of the two cards I gave you is still with you"), and
// each draw leaves one per hand that drew (of the cards that cannot come from
// the deck, that hand holds at most the cards it kept from the last round).
// Links last until the next pass of that kind and resolve as their cards show
// up (a play, the counts, the final reveal). What a seat saw of the cards it
// passed reaches further back than any one pass ("player 1 and player 2 each
// carry one of the two cards I passed"), so each seat also follows the cards
// it passed and has not seen since (and from the phase-2 reshuffle on the
// cards then in the other hands: the deck holds only public cards, so they
// are a set apart) as the list of their joint layouts that some history of
// the hidden picks allows (PassedCards): at every pass each card stays or goes
// on, no seat keeping more of them than it kept nor passing more than it
// passed, exactly the ones the seat was given coming to it; a play shows
// where a card was; no seat holds more than its hand size.
//
// redeterminize(v) moves only the cards v is unsure of, each to a place it may
// be in, every place keeping its public count, every link of v holding, and
// the cards v passed laid out as one of their layouts (a random one among
// those that leave a deal possible; the true one always does); the other
// seats' knowledge is relabelled with the cards. So a resample never
// contradicts what v knows of a card or a link, and for the cards v passed
// in a draft (specialists and objectives), and for those it follows since
// the reshuffle, there is always a history of the secret picks and passes,
// consistent with everything v saw, that leads to it. The other cards (never
// seen by v, interchangeable with the deck's) are placed by their sets, the
// counts and the links (worlds are drawn by these rules, not weighted by how
// many histories lead to each).
// In documents: seats[i].knowledge = {"specialists": {id: [places]},
// "objectives": {id: [places]}, "links": [{"of", "cards", "places", "at_most"}],
// "passed": {"specialists" | "objectives": {"cards": [ids], "layouts":
// [[seat of each card], ...]}}} (places "hand<seat>", "deck",
// "discarded<seat>", "box"; "passed" only for a kind the seat follows cards
// of); a document without knowledge loads with what each seat's own cards and
// the table tell it, one without "passed" with no passed cards followed.
//
// card_places / known_card_places (one entry per physical card):
//   specialist X: card X;   places: hand of seat w = w, played by w = 4 + w, deck 8, discard 9
//   objective X:  card 100 + X; places: hand of w = 10 + w, discarded by w = 14 + w, box 18
//   mission X:    card 200 + X; places: level L deck = 19 + L, level L discard = 23 + L,
//                 Earth of w = 28 + w, space of w = 32 + w, drawn now = 36
//
// Action ids (the same for every player count; a card "X" is its index in the config list):
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "envs/core/describe.h"
#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/knowledge.h"
#include "envs/core/rng.h"
#include "envs/lift_off/lift_off_config.h"

namespace rocketgym::lift_off {

namespace actions {
// [0, 32)     keep objective X (objective draft, first pick)
constexpr Action kKeepObjective = 0;
// [32, 64)    pass objective X (objective draft, second pick: keep the other two)
constexpr Action kPassObjective = kKeepObjective + kMaxObjectives;
// 64, 65      start player: pass specialists left (clockwise) / right this round
constexpr Action kDraftLeft = kPassObjective + kMaxObjectives;
constexpr Action kDraftRight = kDraftLeft + 1;
// [66, 114)   keep specialist X (specialist draft, first pick)
constexpr Action kKeepSpecialist = kDraftRight + 1;
// [114, 162)  pass specialist X (specialist draft, second pick)
constexpr Action kPassSpecialist = kKeepSpecialist + kMaxSpecialists;
// [162, 210)  play specialist X from hand (its banner resolves at once)
constexpr Action kPlaySpecialist = kPassSpecialist + kMaxSpecialists;
// --- while a played specialist is being resolved ---
constexpr Action kTakeMoney = kPlaySpecialist + kMaxSpecialists;  // 210: use no action, take 2 money
constexpr Action kEndSpecialist = kTakeMoney + 1;                 // 211: finish this specialist
constexpr Action kMoney6 = kEndSpecialist + 1;                    // 212
constexpr Action kRewardL1 = kMoney6 + 1;                         // 213..215: reward for level 1/2/3 missions
constexpr Action kBuyTech = kRewardL1 + 3;                        // 216..218: buy 1 red/yellow/blue
constexpr Action kBulkBuy = kBuyTech + 3;                         // 219..221: bulk buy one red/yellow/blue
constexpr Action kBulkFinish = kBulkBuy + 3;                      // 222: stop bulk buying (after >= 1)
constexpr Action kBuyGreen = kBulkFinish + 1;                     // 223
constexpr Action kSellTech = kBuyGreen + 1;                       // 224..226: sell red/yellow/blue
constexpr Action kCapacityUpgrade = kSellTech + 3;                // 227
constexpr Action kBuyTwoDifferent = kCapacityUpgrade + 1;  // 228..230: red+yellow, red+blue, yellow+blue
constexpr Action kExchangeGive =
    kBuyTwoDifferent + 3;  // 231..234: exchange, return one red/yellow/blue/green
constexpr Action kExchangeTake =
    kExchangeGive + kNumColours;  // 235..238: exchange, take one red/yellow/blue/green
constexpr Action kBuyGreenBulk = kExchangeTake + kNumColours;  // 239, 240: buy 1 / 2 green
constexpr Action kLabUpgrade = kBuyGreenBulk + 2;              // 241
constexpr Action kLabUpgradeCheap = kLabUpgrade + 1;           // 242
constexpr Action kPropulsionUpgrade = kLabUpgradeCheap + 1;    // 243
constexpr Action kStationInvest = kPropulsionUpgrade + 1;      // 244
constexpr Action kStationGreen = kStationInvest + 1;           // 245: station reward, take 1 green
constexpr Action kStationIncome = kStationGreen + 1;           // 246: station reward, income +1
// --- mission draw ---
constexpr Action kDrawFromDeck = kStationIncome + 1;              // 247..250: draw from the level 1..4 deck
constexpr Action kKeepMission = kDrawFromDeck + kNumLevels;       // [251, 315): keep drawn mission title X
constexpr Action kStopKeeping = kKeepMission + kMaxMissionTypes;  // 315: keep no more (after >= 1)
// --- launches ---
constexpr Action kLaunchWithLab = kStopKeeping + 1;      // 316: start a launch with the lab's symbol
constexpr Action kLaunchWithExtra = kLaunchWithLab + 1;  // 317: start a launch with an extra-launch symbol
constexpr Action kEndLaunches = kLaunchWithExtra + 1;    // 318: launch no more this round
constexpr Action kLoadMission = kEndLaunches + 1;        // [319, 383): load Earth mission title X
constexpr Action kApplyCapacity =
    kLoadMission + kMaxMissionTypes;             // 383..385: use a +1/+2/+3 capacity banner
constexpr Action kLiftOff = kApplyCapacity + 3;  // 386: launch the loaded rocket
// --- phase 2 setup ---
constexpr Action kDiscardObjective = kLiftOff + 1;  // [387, 419): discard objective X for money
constexpr Action kKeepObjectives = kDiscardObjective + kMaxObjectives;  // 419: discard no more
constexpr int kNumActions = kKeepObjectives + 1;                        // 420
}  // namespace actions

// Places and cards of card_places / known_card_places (see the top of this file).
namespace place {
constexpr int kSpecialistHand = 0;    // + seat
constexpr int kSpecialistPlayed = 4;  // + seat
constexpr int kSpecialistDeck = 8;
constexpr int kSpecialistDiscard = 9;
constexpr int kObjectiveCard = 100;      // card number of objective 0
constexpr int kObjectiveHand = 10;       // + seat
constexpr int kObjectiveDiscarded = 14;  // + seat
constexpr int kObjectiveBox = 18;
constexpr int kMissionCard = 200;    // card number of mission title 0
constexpr int kMissionDeck = 20;     // + level - 1
constexpr int kMissionDiscard = 24;  // + level - 1
constexpr int kEarth = 28;           // + seat
constexpr int kSpace = 32;           // + seat
constexpr int kMissionDrawn = 36;
}  // namespace place

// Bits of a "may be in" set of the knowledge model.
namespace may_be {
constexpr int kHand = 0;       // + seat, both kinds of card
constexpr int kDeck = 4;       // specialists: the deck
constexpr int kDiscarded = 4;  // + seat, objectives: face-down discards
constexpr int kBox = 8;        // objectives: never dealt
constexpr int kSpecialistPlaces = 5;
constexpr int kObjectivePlaces = 9;
constexpr uint16_t kHands = 0xF;
}  // namespace may_be

// A link of the knowledge model: of `cards` (bit = card index), which a seat
// knew to be in one hand before a hidden pass, at most `most` are now in the
// places `to` (may_be bits: the hand the pass went to, and for objectives its
// face-down discards). Empty when `cards` is 0.
struct Link {
  uint64_t cards = 0;
  uint16_t to = 0;
  int most = 0;
  bool operator==(const Link& o) const { return cards == o.cards && to == o.to && most == o.most; }
};
constexpr int kMaxLinks = 2 * kMaxPlayers;  // of the last pass and the last draw
using Links = std::array<Link, kMaxLinks>;  // per seat, filled from the front

// What a seat knows of the cards it passed in a draft and has not seen since
// (and of the cards in the other hands at the phase-2 reshuffle):
// every joint layout of those cards (which seat holds each: its hand, for
// objectives its hand or face-down discards) that some history of the hidden
// picks allows, given what the seat saw at every pass (what it gave, what came
// to it), how many cards each seat kept and passed, the public plays and the
// hand sizes. Layout l puts cards[i] with seat (l >> 2i) & 3. With no cards
// there is one (empty) layout.
constexpr int kMaxPassed = 12;   // the others' hands hold at most 9 of them
constexpr int kMaxLayouts = 64;  // past this the seat stops following its oldest card (sound)
struct PassedCards {
  std::array<uint8_t, kMaxPassed> cards{};
  int num_cards = 0;
  std::array<uint32_t, kMaxLayouts> layouts{};
  int num_layouts = 1;
  int seat_of(int layout, int i) const {
    return static_cast<int>(layouts[static_cast<std::size_t>(layout)] >> (2 * i) & 3);
  }
  bool operator==(const PassedCards& o) const;
};

// What the current player is deciding.
enum class Step : uint8_t {
  kObjectiveKeep,      // objective draft, first pick
  kObjectivePass,      // objective draft, second pick
  kChooseDirection,    // start player picks the specialist draft direction
  kSpecialistKeep,     // specialist draft, first pick
  kSpecialistPass,     // specialist draft, second pick
  kPlaySpecialist,     // choose the specialist to play
  kSpecialistActions,  // resolve the played specialist's actions
  kBulkBuy,            // inside buy_tech_bulk
  kExchangeGive,       // inside exchange: returning techs
  kExchangeTake,       // inside exchange: taking techs
  kStationReward,      // inside station: green or income
  kChooseDeck,         // mission draw: which deck
  kKeepMissions,       // mission draw: which drawn missions
  kLaunch,             // start a launch or end launches
  kLoadRocket,         // building one launch
  kDiscardObjectives,  // phase 2 setup
  kGameOver,
};
const char* step_name(Step s);

struct Player {
  int vp = 0, money = 0, income = 0;
  int capacity_upgrades = 0, propulsion_upgrades = 0, lab_level = 1, station_investments = 0;
  std::array<int, kNumColours> tech{};
  // Missions (title indices). A mission loaded on the rocket stays on Earth until lift-off.
  std::array<uint8_t, 4 * 7> earth{}, space{};
  int num_earth = 0, num_space = 0;
  // Specialists: hidden hand, and the cards played face up this round.
  std::array<uint8_t, 3> hand{};
  int hand_size = 0;
  std::array<uint8_t, 2> played{};
  int num_played = 0;
  std::array<bool, 2> banner_used{};  // yellow launch banners of played cards spent this round
  // Objectives: hidden; the discarded ones are returned face down.
  std::array<uint8_t, 3> objectives{};
  int num_objectives = 0;
  std::array<uint8_t, 3> discarded_objectives{};
  int num_discarded_objectives = 0;
  // Hidden simultaneous pick during a draft: a hand slot, -1 while undecided.
  int pick = -1;
  // This round's launch bookkeeping.
  int missions_launched = 0;
  bool lab_symbol_used = false;
};

class State {
 public:
  State(const Config& config, int num_players, uint64_t seed);

  int num_players() const { return num_players_; }
  int current_player() const { return step_ == Step::kGameOver ? -1 : actor_; }
  void legal_actions_mask(uint8_t* out) const;
  bool is_legal(Action a) const;
  void apply(Action a);
  bool is_terminal() const { return step_ == Step::kGameOver; }
  bool is_truncated() const { return false; }  // every game ends after round 8
  void returns(float* out) const;
  void scores(int* out) const;
  void redeterminize(int viewer, Rng& rng);

  // The knowledge model (see the top of this file).
  void card_places(CardPlaces& out) const;
  void known_card_places(int viewer, CardPlaces& out) const;
  // The places `viewer` thinks a specialist / objective may be in (may_be bits); 0 for a card in a
  // public place or out of the game.
  uint8_t specialist_may_be(int viewer, int card) const {
    return specialist_may_be_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(card)];
  }
  uint16_t objective_may_be(int viewer, int card) const {
    return objective_may_be_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(card)];
  }
  const Links& specialist_links(int viewer) const {
    return specialist_links_[static_cast<std::size_t>(viewer)];
  }
  const Links& objective_links(int viewer) const {
    return objective_links_[static_cast<std::size_t>(viewer)];
  }
  const PassedCards& specialists_passed(int viewer) const {
    return specialists_passed_[static_cast<std::size_t>(viewer)];
  }
  const PassedCards& objectives_passed(int viewer) const {
    return objectives_passed_[static_cast<std::size_t>(viewer)];
  }
  // The cards `viewer` knows for certain to be in `seat`'s hand (bit = card index).
  uint64_t known_specialists(int viewer, int seat) const;
  uint32_t known_objectives(int viewer, int seat) const;
  // The same for every hand at once (indexed by seat).
  struct KnownHands {
    std::array<uint64_t, kMaxPlayers> specialists{};
    std::array<uint32_t, kMaxPlayers> objectives{};
  };
  KnownHands known_hands(int viewer) const;

  std::string to_string() const;                     // everything, hidden cards included
  std::string observation_string(int viewer) const;  // only what `viewer` may see
  // The table for the browser, in the game's own terms (lift_off_view.cpp): what
  // `viewer` may see, or everything for viewer -1 (replays, the full board).
  Json view_json(int viewer) const;
  // Draft picks and the objective discard are secret.
  // Who decides is public in every phase: every seat's observation shows
  // the player to move (docs/games/lift_off.md); only what a draft or a
  // discard takes is secret (is_public_action).
  bool is_public_decider() const { return true; }
  bool is_public_action(Action a) const {
    using namespace actions;
    const bool objective_draft = a < kDraftLeft;
    const bool specialist_draft = a >= kKeepSpecialist && a < kPlaySpecialist;
    const bool objective_discard = a >= kDiscardObjective && a < kDiscardObjective + kMaxObjectives;
    return !(objective_draft || specialist_draft || objective_discard);
  }
  std::string action_to_string(Action a) const;
  Json to_json() const;
  static State from_json(const Json& doc, const Config& config);
  void check_invariants() const;

  // --- read access for the encoder, the bot and tests ---
  const Config& config() const { return *config_; }
  const Player& player(int seat) const { return players_[static_cast<std::size_t>(seat)]; }
  Step step() const { return step_; }
  int round() const { return round_; }
  int phase() const { return phase_; }
  int start_player() const { return start_player_; }
  int direction() const { return direction_; }
  int play_pass() const { return play_pass_; }  // 0 or 1: first or second specialist play
  int capacity(int seat) const { return config_->weight_start + player(seat).capacity_upgrades; }
  int launch_cost(int seat) const {
    return std::max(0,
                    config_->cost_start + player(seat).capacity_upgrades - player(seat).propulsion_upgrades);
  }
  int station_next_cost() const;
  int station_covered() const;  // spaces covered by investments
  int specialist_deck_size() const { return specialist_deck_count_; }
  int specialist_discard_size() const { return specialist_discard_count_; }
  uint64_t specialist_discard_mask() const;
  int specialist_discard_card(int i) const { return specialist_discard_[static_cast<std::size_t>(i)]; }
  int mission_deck_size(int level) const { return mission_deck_count_[static_cast<std::size_t>(level - 1)]; }
  int mission_discard_count(int type) const;
  // The discard pile of a level's mission deck (1..4), card by card.
  int mission_discard_size(int level) const {
    return mission_discard_count_[static_cast<std::size_t>(level - 1)];
  }
  int mission_discard_card(int level, int i) const {
    return mission_discard_[static_cast<std::size_t>(level - 1)][static_cast<std::size_t>(i)];
  }
  int drawn_count(int type) const;
  int num_drawn() const { return num_drawn_; }
  int drawn_card(int i) const { return drawn_[static_cast<std::size_t>(i)]; }  // the mission title
  int keeps_left() const { return keeps_left_; }
  int kept_this_draw() const { return kept_this_draw_; }
  int played_card() const { return played_card_; }
  int used_actions_mask() const { return used_actions_; }
  bool took_money() const { return took_money_; }
  int bulk_bought() const { return bulk_bought_; }
  int exchange_given() const { return exchange_given_; }
  int exchange_taken() const { return exchange_taken_; }
  bool launch_uses_lab() const { return launch_uses_lab_; }
  int loaded_count(int type) const;
  int num_loaded() const { return num_loaded_; }
  int loaded_card(int i) const { return loaded_[static_cast<std::size_t>(i)]; }  // the mission title
  int loaded_weight() const;
  int applied_capacity() const { return applied_capacity_; }
  int rocket_capacity_now() const;  // capacity of the launch being built, banners applied
  int unused_capacity_banners(int seat) const;
  int unused_extra_launches(int seat) const;
  int extra_missions(int seat) const;  // extra_mission banners played this round
  int owned_from_level(int seat, int level) const;
  bool owns_title(int seat, int type) const;
  bool meets_requirements(int seat, int type) const;  // lab level and tech for the current phase
  int final_score(int seat) const;                    // hourglass + objectives + green + money (no launches)
  int hourglass_points(int seat) const;
  int objective_points(int seat, int objective) const;
  int missions_in_space_of_level(int seat, int level) const;
  bool has_picked(int seat) const { return player(seat).pick >= 0; }
  int final_vp(int seat) const { return final_vp_[static_cast<std::size_t>(seat)]; }

 private:
  State() = default;
  // setup and flow
  void deal_objectives();
  void start_round();
  void finish_specialist_draft_step();
  void finish_objective_draft_step();
  void advance_after_specialist();
  void begin_mission_step();
  void begin_launch_step();
  void next_mission_drawer();
  void next_launcher();
  void end_round();
  void begin_objective_discard();
  void next_objective_discarder();
  void final_scoring();
  bool loaded_missions_on_earth() const;
  std::string describe(int viewer) const;
  // legality
  bool legal(Action a) const;
  bool action_available(SpecialistAction kind) const;  // on the played card and not used yet
  bool can_use_action(Action a) const;
  void mark_specialist_actions(uint8_t* out) const;  // legal_actions_mask in kSpecialistActions
  bool can_choose_deck(int level) const;
  bool can_start_launch(bool with_lab) const;
  bool mission_eligible_for_keep(int type) const;
  bool can_load(int type) const;
  // effects
  void do_apply(Action a);
  void play_specialist(int card);
  void use_action(Action a);
  void mark_used(SpecialistAction kind);
  void gain_income(Player& p, int amount) const;
  void gain_capacity_upgrade(Player& p) const;
  void gain_propulsion_upgrade(Player& p) const;
  void invest_in_station();
  void draw_missions(int level);
  int draw_mission_card(int level);  // -1 when deck and discard are empty
  void keep_mission(int type);
  void finish_keeping();
  void lift_off();
  void send_to_space(int seat, int type);
  // hidden information: the drafts and the knowledge model (lift_off_knowledge.cpp)
  void pass_cards_specialists();
  void pass_cards_objectives();
  void pass_hands(bool objective, int dir, bool first_pick, std::array<uint8_t, 3> Player::*hand,
                  int Player::*size);
  void follow_passed_cards(bool objective, int dir, const std::array<uint64_t, kMaxPlayers>& before,
                           const std::array<uint64_t, kMaxPlayers>& after);
  void fit_passed_cards(bool objective);
  void fit_passed_specialists_after_play(int seat);
  void follow_other_hands(int viewer);
  std::array<int, kMaxPlayers> region_sizes(bool objective) const;
  int next_seat(int seat, int dir) const { return (seat + dir + num_players_) % num_players_; }
  void init_knowledge();
  void know_draws(const std::array<uint64_t, kMaxPlayers>& drawn);
  // `before` / `after`: each hand's cards (bit = card) before and after a draft pass.
  void know_pass(bool objective, int dir, const std::array<uint64_t, kMaxPlayers>& before,
                 const std::array<uint64_t, kMaxPlayers>& after);
  void know_play(int seat, int card);
  void know_reshuffle();
  void know_objective_discard(int seat, int card);
  void reveal_hands();
  void tighten_knowledge(bool specialists = true, bool objectives = true);
  void tighten_specialists(unsigned seats);  // bit per seat: the seats whose sets may have loosened
  void default_knowledge();
  void check_knowledge() const;
  void read_legacy_knowledge(const Json& seats);
  std::array<int, may_be::kSpecialistPlaces> specialist_place_counts() const;
  std::array<int, may_be::kObjectivePlaces> objective_place_counts() const;
  // validation (lift_off_invariants.cpp)
  int seat_at(int position) const;  // the seat that acts position-th in the current step's order
  int position_of(int seat) const;  // the inverse
  int total_specialists() const;    // in the game for this player count
  void check_flow() const;          // round, phase, step, turn, actor, picks, play pass
  void check_counts() const;        // how many cards each place holds at this point of the round
  void check_decision() const;      // the pending decision is one the game can reach and go on from

  const Config* config_ = nullptr;
  int num_players_ = 2;
  Rng rng_;
  Step step_ = Step::kObjectiveKeep;
  int actor_ = 0;
  int round_ = 1;
  int phase_ = 1;  // 2 from the first end of a round with an empty specialist deck
  int start_player_ = 0;
  int direction_ = 1;  // +1 = left (clockwise), -1 = right
  int turn_ = 0;       // how many players have acted in the current step order
  int play_pass_ = 0;  // 0 or 1: first or second specialist play
  std::array<Player, kMaxPlayers> players_{};
  // specialist deck (top = last) and discard
  std::array<uint8_t, kMaxSpecialists> specialist_deck_{}, specialist_discard_{};
  int specialist_deck_count_ = 0, specialist_discard_count_ = 0;
  // mission decks per level (top = last) and discards
  std::array<std::array<uint8_t, kMaxDeckCards>, kNumLevels> mission_deck_{}, mission_discard_{};
  std::array<int, kNumLevels> mission_deck_count_{}, mission_discard_count_{};
  // objectives never dealt, back in the box (hidden)
  std::array<uint8_t, kMaxObjectives> objective_box_{};
  int objective_box_count_ = 0;
  // the specialist being resolved
  int played_card_ = -1;
  int used_actions_ = 0;  // bit = slot on the card
  bool took_money_ = false;
  int bulk_bought_ = 0, exchange_given_ = 0, exchange_taken_ = 0;
  // the mission draw in progress (cards public)
  int draw_level_ = 0;
  std::array<uint8_t, kMaxDeckCards> drawn_{};
  int num_drawn_ = 0, keeps_left_ = 0, kept_this_draw_ = 0;
  // the launch being built
  bool launch_uses_lab_ = false;
  std::array<uint8_t, 3> loaded_{};
  int num_loaded_ = 0, applied_capacity_ = 0;
  // final scoring: points added at the end (so scores() shows the total)
  std::array<int, kMaxPlayers> final_vp_{};
  // knowledge model: [seat][card] = the may_be places that seat thinks the card may be in
  std::array<std::array<uint8_t, kMaxSpecialists>, kMaxPlayers> specialist_may_be_{};
  std::array<std::array<uint16_t, kMaxObjectives>, kMaxPlayers> objective_may_be_{};
  std::array<Links, kMaxPlayers> specialist_links_{}, objective_links_{};            // [seat]
  std::array<PassedCards, kMaxPlayers> specialists_passed_{}, objectives_passed_{};  // [seat]
  // Whether every seat's specialist sets are where tighten_specialists leaves them, so an update
  // may tighten only the seats it changed; not yet for a state read from a document.
  bool specialists_settled_ = false;
  // Whether every seat's layouts of the specialists it passed fit the hand sizes (as
  // fit_passed_cards leaves them), so a play need check only the player's hand; not yet for a
  // state read from a document.
  bool specialist_layouts_fit_ = false;
};

// The action id ranges, for the docs (rocketgym describe); written in
// lift_off_action_ranges.cpp from the codec's constants.
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::lift_off
