// Launch Pad (Stratus Games) as an environment: the rules engine.
//
// Rules: the published rulebook and the project's numbered rulings ("ruling N" in comments,
// each with a test in tests/launch_pad/). Action ids: launch_pad_actions.h.
//
// A turn is the rulebook's six steps. Step 1 (Launch Pad cards advance) and
// step 5 (empty hand -> draw again) are automatic; the others are decisions:
//   kAdvance     step 2: advance eligible rockets one by one, then "stop advancing"
//   kDrawChoice  step 3: take the discard pile's top card or not (asked only when it matters)
//   kPlay        step 4: play cards, then "stop playing"
//   kDiscard     step 6: discard cards, then "end turn"
// and three short out-of-order decisions:
//   kChooseTop   an action discarded several kinds of cards: its player chooses their order on
//                the discard pile, one card at a time from the top down (the first choice is the
//                top card, the next the card below it, ...), for as long as two kinds or more are
//                left; the copies of the last kind go below the chosen cards without a question
//                (Abort Mission, Quality Check, Sabotage, and Surplus once everyone has discarded)
//   kSurplus     each player with cards, clockwise from the Surplus player, discards one
//   kOffer       negotiations variant: the receiver of an offered card accepts or rejects it
//
// Where the rulebook and rulings are silent, this engine decides (each is tested):
// - Budget Cuts steals from an opponent only ("steal"); Recruitment likewise (ruling 11).
// - An Action card goes to the discard pile before the cards its effect
//   discards; Salvage and Recycle Bin end on top (Card Reference). When an
//   effect discards several kinds of cards its player chooses the order of all
//   of them (kChooseTop); cards of one type are interchangeable (ruling 1), so
//   nothing is asked once a single kind is left. Surplus's discards wait face
//   up until everyone has discarded; then its player orders them.
// - Salvage takes the topmost copy of the named type; Recycle Bin shuffles the
//   whole draw pile after adding the ten cards.
// - Parts Supplier is playable when at least one card can be drawn.
// - A Specialty card may replace one of the same type (pointless but legal).
// - Warehouse's limit of 8 holds from the moment it is in play for steps 5 and
//   6 and later draws; playing it draws nothing at once.
// - Negotiations: a card is offered only to a player who could accept it.
// - Long game: the Launch Pad cards join the new draw pile at the first refill,
//   even when the discard pile is empty.
// - The -10 for no Mission Controller applies to every player, rockets or not.
// - A game reaching kMaxDecisions decisions is truncated (returns 0).
//
// Knowledge model (hidden information; envs/core/knowledge.h). The hidden
// places are the hands and the draw pile (ruling 20); everything else is face
// up. Every decision is public: cards are played and discarded face up, and
// the Thief's targets are announced (only the cards it takes are hidden).
// Places, as reported by card_places / known_card_places (cards are the Card
// types of launch_pad_cards.h, one entry per copy):
//   0..3  kPlaceHand + seat          a seat's hand
//   4     kPlaceDrawPile             the draw pile
//   5     kPlaceDiscardPile          the discard pile (face up, public)
//   6..9  kPlaceInPlay + seat        a seat's Game Zones and Specialty cards (public)
//   10    kPlaceTable                Launch Pad area, Launch Pad cards aside, cards
//                                    waiting for the discard order or with their place in it
//                                    chosen, the offered card (public)
// A seat knows its own hand and every public place. It also knows cards it saw
// enter another hand or the draw pile: the discard pile's top taken in step 3,
// Salvage, stolen cards (Sabotage, Vacuum, Recruitment, Budget Cuts), offers
// accepted or rejected, cards it stole with Thief or lost to it, the discard
// pile shuffled into a new draw pile, Recycle Bin's ten cards, and the Launch
// Pad cards still in the draw pile (all others are in view). Cards of one type
// are interchangeable (ruling 1), so what seat v knows is a count per place and
// type: "place p holds at least k copies of t" (known_count). When a card
// leaves a place, a seat that saw which card it was lowers that type's count;
// a seat that did not lowers every count of that place (it may have been any).
// The deck (ruling 6): when the discard pile is shuffled into a new draw pile,
// everybody knows which cards the pile holds, only not their order, and Recycle
// Bin adds ten known cards to it. Every seat v therefore follows the cards of
// this deck it cannot place (deck_cards): those still in the pile, those
// another seat drew unseen (deck_in_hand: how many of that hand's cards are
// such draws, their types unknown to v) and those v lost track of (a card left
// a hand holding deck cards and others, and v could not tell which it was).
// At the start the deck is every card outside v's hand. A seat's own draws
// leave its count of the deck at once.
// Recycle Bin's ten cards join the deck, but not as any deck card (ruling 16;
// ruling 20: the discard pile is face up, so every seat saw them go into the
// pile): until the next refill they are in the pile or among the cards that
// went into a hand unseen since, never in a hand that took no such card. So v
// also follows the recycled cards (deck_recycled: the copies of the deck's
// cards that came in with it, less those v drew itself or saw leave a hand
// that may have held them) and, per hand, how many of its cards went in unseen
// by v since (deck_fresh_in_hand: draws, and cards Thief moved from such a
// hand), counted generously: a card leaving the hand leaves the count as it
// is. When a Recycle Bin comes while v still follows an earlier one's cards,
// v follows both together from the first (the later cards may then be placed
// among the cards drawn between the two: the one looseness of the model).
// redeterminize(v) keeps the cards v knows where they are (its hand, the
// copies it names in other hands and in the pile) and re-deals only the rest,
// keeping every hand's size. It guarantees: the draw pile holds only cards of
// the deck; the pile and the other hands' unseen draws hold exactly the deck's
// cards v cannot place, less as many as v lost track of (first those that can
// no longer be hidden, then others at random: they are dealt with the other
// unknown cards to the rest of the hands); the recycled cards v follows lie
// in the pile or among the cards that went into a hand unseen since (at most
// as many there as that hand took); the Launch Pad cards lie within the
// bottom part of the pile where they are known to be (ruling 2).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "envs/core/describe.h"
#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/knowledge.h"
#include "envs/core/rng.h"
#include "envs/launch_pad/launch_pad_actions.h"
#include "envs/launch_pad/launch_pad_cards.h"

namespace rocketgym::launch_pad {

// Every decision counts; a game reaching this many is truncated (returns 0).
// Only loops such as two Salvage cards retrieving each other, or never
// discarding with a full hand of unplayable cards, get there.
constexpr int kMaxDecisions = 6000;

// Knowledge places (see the knowledge model above).
constexpr int kPlaceHand = 0;
constexpr int kPlaceDrawPile = kMaxPlayers;
constexpr int kPlaceDiscardPile = kPlaceDrawPile + 1;
constexpr int kPlaceInPlay = kPlaceDiscardPile + 1;
constexpr int kPlaceTable = kPlaceInPlay + kMaxPlayers;
// The hidden places whose known cards the state tracks: the hands, then the draw pile.
constexpr int kNumHiddenPlaces = kMaxPlayers + 1;

enum class Step : int8_t { kAdvance, kDrawChoice, kPlay, kChooseTop, kSurplus, kOffer, kDiscard, kGameOver };
constexpr int kNumSteps = 8;
const char* step_key(Step step);

// A rocket in play. Its slot on the owner's side is stable while it exists (ruling 3).
struct Rocket {
  int8_t kind = -1;  // kObserver..kGalactic, or -1: the slot is empty
  int8_t zone = kConstructionZone;
  uint8_t metal = 0;
  uint8_t fuel = 0;
  uint8_t bonuses = 0;  // bit b set: bonus card kAstronaut + b is attached

  bool exists() const { return kind >= 0; }
  bool has_bonus(int card) const { return (bonuses >> bonus_index(card)) & 1; }
  int num_bonuses() const {
    return (bonuses & 1) + ((bonuses >> 1) & 1) + ((bonuses >> 2) & 1) + ((bonuses >> 3) & 1);
  }
};

// One player's cards: hand (by type), Game Zones, Specialty cards.
struct PlayerArea {
  std::array<uint8_t, kNumCardTypes> hand{};
  int hand_size = 0;
  std::array<int8_t, kNumZones> expert{{-1, -1, -1}};  // expert card in each zone's expert spot, or -1
  std::array<uint8_t, kNumZones> launch_pads{};        // Launch Pad cards waiting in each zone
  std::array<uint8_t, kNumSpecialtyTypes> specialties{};
  std::array<Rocket, kMaxRocketSlots> rockets{};

  bool has_specialty(int card) const { return specialties[specialty_index(card)] > 0; }
  int num_specialties() const;
};

class State {
 public:
  State(const Config& config, int num_players, uint64_t seed);

  // --- the environment contract (docs/ADDING_A_GAME.md) ---
  int num_players() const { return num_players_; }
  int current_player() const;
  void legal_actions_mask(uint8_t* out) const;
  bool is_legal(Action a) const;
  void apply(Action a);
  bool is_terminal() const { return step_ == Step::kGameOver; }
  bool is_truncated() const { return truncated_; }
  void returns(float* out) const;
  void scores(int* out) const;
  void redeterminize(int viewer, Rng& rng);
  std::string to_string() const;                     // the table and the hand of the player to move
  std::string observation_string(int viewer) const;  // what `viewer` may see: never another hand
  // The table for the browser, in the game's own terms (launch_pad_view.cpp): what
  // `viewer` may see, or everything for viewer -1 (replays, the full board).
  Json view_json(int viewer) const;
  bool is_public_action(Action a) const;  // every decision is taken face up (see above)
  bool is_public_decider() const { return true; }
  void card_places(CardPlaces& out) const;
  void known_card_places(int viewer, CardPlaces& out) const;
  std::string action_to_string(Action a) const;
  Json to_json() const;
  static State from_json(const Json& doc, const Config& config);
  void check_invariants() const;

  // --- read access for the encoder, the bot and tests ---
  const Config& config() const { return *config_; }
  Step step() const { return step_; }
  int turn_player() const { return turn_player_; }
  int seat_at(int offset) const { return (turn_player_ + offset) % num_players_; }
  const PlayerArea& area(int seat) const { return players_[static_cast<std::size_t>(seat)]; }
  int hand_limit(int seat) const;
  int score(int seat) const;  // score_without_rockets + rocket_points of each rocket
  int score_without_rockets(int seat) const;
  int rocket_points(const Rocket& r) const;  // 0 for an empty slot
  int bonus_cards_in_play(int seat) const;   // the tie-break
  int draw_pile_size() const { return draw_size_; }
  int draw_pile_card(int i) const { return draw_pile_[static_cast<std::size_t>(i)]; }  // 0 = bottom
  int discard_pile_size() const { return discard_size_; }
  int discard_pile_card(int i) const { return discard_pile_[static_cast<std::size_t>(i)]; }  // 0 = bottom
  int discard_top() const { return discard_size_ > 0 ? discard_pile_[discard_size_ - 1] : -1; }
  int discard_count(int card) const;
  int launch_pads_in_area() const { return launch_pad_area_; }
  int launch_pads_aside() const { return launch_pads_aside_; }
  int launch_pads_in_draw_pile() const;
  int launch_pad_region() const { return launch_pad_region_; }
  bool countdown() const { return countdown_; }
  int final_turns_left() const { return final_turns_left_; }
  bool redraw_used() const { return redraw_used_; }
  bool advance_eligible(int slot) const { return (advance_eligible_ >> slot) & 1u; }
  int advanced_from(int zone) const { return advanced_from_[static_cast<std::size_t>(zone)]; }
  int surplus_seat() const { return step_ == Step::kSurplus ? seat_at(surplus_offset_) : -1; }
  int offer_receiver() const { return step_ == Step::kOffer ? offer_to_ : -1; }
  int offer_card() const { return step_ == Step::kOffer ? offer_card_ : -1; }
  // kChooseTop, kSurplus: copies of `card` waiting for the discard order, their place not chosen yet.
  int staged_count(int card) const { return staged_[static_cast<std::size_t>(card)]; }
  // kChooseTop: the cards whose place is chosen, top first (i = 0 is the top
  // card); they go on the discard pile above the cards still staged.
  int ordered_size() const { return ordered_size_; }
  int ordered_card(int i) const { return ordered_[static_cast<std::size_t>(i)]; }
  int decisions() const { return decisions_; }
  // Copies of `card` that `viewer` knows to be in the hidden place `place`
  // (kPlaceHand + seat or kPlaceDrawPile); its own hand counts as known.
  int known_count(int viewer, int place, int card) const;
  // known_count of every card type at once, as stored: for another seat's hand
  // (place kPlaceHand + seat) it is the whole answer; the viewer's own hand and
  // the draw pile's Launch Pad cards, which known_count reads elsewhere, are
  // not in it.
  const std::array<uint8_t, kNumCardTypes>& known_cards(int viewer, int place) const {
    return known_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(place)];
  }
  // The deck as `viewer` follows it (see the knowledge model above): copies of
  // `card` of the current deck it cannot place, how many cards of `seat`'s
  // hand it knows to be unseen draws from the deck, and how many deck cards it
  // lost track of.
  int deck_cards(int viewer, int card) const {
    return deck_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(card)];
  }
  int deck_in_hand(int viewer, int seat) const {
    return deck_in_hand_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(seat)];
  }
  int deck_untracked(int viewer) const { return deck_untracked_[static_cast<std::size_t>(viewer)]; }
  // Of deck_cards(viewer, card): the recycled copies `viewer` follows (see
  // the knowledge model above); of `seat`'s hand: how many cards went in
  // unseen by `viewer` since it began following them (capped at 255).
  int deck_recycled(int viewer, int card) const {
    return deck_recycled_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(card)];
  }
  int deck_fresh_in_hand(int viewer, int seat) const {
    return deck_fresh_in_hand_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(seat)];
  }
  bool rocket_complete(const Rocket& r) const {
    const RocketSpec& spec = config_->rocket[static_cast<std::size_t>(r.kind)];
    return r.metal == spec.metal && r.fuel == spec.fuel;
  }
  // True when `by` may not play Abort Mission, Sabotage or Vacuum on this rocket.
  bool rocket_protected(int owner, int slot, int by) const;

 private:
  struct Decoded {
    int kind = 0;  // index into the action-range table (launch_pad.cpp)
    int a = 0, b = 0, c = 0;
  };
  static Decoded decode(Action a);
  static Decoded decode_in(int kind, Action a);

  PlayerArea& area_mut(int seat) { return players_[static_cast<std::size_t>(seat)]; }
  Rocket& rocket_mut(int seat, int slot) { return area_mut(seat).rockets[static_cast<std::size_t>(slot)]; }
  const Rocket& rocket(int seat, int slot) const {
    return area(seat).rockets[static_cast<std::size_t>(slot)];
  }
  bool valid_offset(int offset) const { return offset >= 0 && offset < num_players_; }

  // Legality, one function per decision kind.
  // legal_actions_mask in step 4 (play); slots_in_use: one past the highest slot holding a rocket.
  void mark_play(uint8_t* out) const;
  int slots_in_use(int seat) const;
  bool legal_decoded(const Decoded& d) const;
  bool can_advance(int slot) const;
  bool can_play_component(int card, int slot) const;
  bool can_play_expert(int index) const;
  bool can_play_bonus(int card, int slot) const;
  bool can_abort_or_check(int card, int offset, int slot) const;
  bool can_big_red_button(int offset, int zone) const;
  bool can_budget_cuts(int offset) const;
  bool can_fast_track(int slot) const;
  bool can_recruit(int offset, int zone) const;
  bool can_sabotage(int offset, int slot, int component) const;
  bool can_salvage(int card) const;
  bool can_surplus() const;
  bool can_thief(int choice) const;
  bool can_vacuum(int offset, int slot) const;
  bool can_offer(int offset, int card) const;
  bool holds(int card) const { return area(turn_player_).hand[static_cast<std::size_t>(card)] > 0; }

  // Effects.
  void apply_decoded(const Decoded& d);
  void play_card_effect(const Decoded& d);
  void play_action_card(const Decoded& d);
  void begin_turn();
  void advance_launch_pad_cards();
  void begin_advance_step();
  void begin_draw_step();
  void draw_to_limit(bool may_take_discard_top);
  void enter_play_step();
  void end_turn();
  void after_play();
  int draw_one(int seat);  // a card from the draw pile into seat's hand; -1 if none
  // The draw pile's top card, seen by `seat` only; refills the pile from the
  // discard pile when it is empty; -1 if both are empty.
  int pop_draw_pile(int seat);
  void place_launch_pad_card(int seat);
  void check_launch_pad_complete();
  void discard_from_hand(int seat, int card);
  void push_discard(int card);
  // Cards in and out of hands. `seen_by`: the seats that see which card it is
  // (everyone() for a card played, discarded or taken face up).
  // take_from_hand returns the seats for which the card is an unseen deck
  // draw of a type they do not know (Thief, from a hand of such cards only),
  // in bits 0..7, and the seats for which it goes on unseen and may be a
  // recycled card in bits 8..15; give_to_hand's `unseen_draw_for` carries
  // that into the receiving hand.
  uint32_t take_from_hand(int seat, int card, uint32_t seen_by);
  void give_to_hand(int seat, int card, uint32_t seen_by, uint32_t unseen_draw_for = 0);
  uint32_t everyone() const { return (1u << num_players_) - 1u; }
  // Knowledge bookkeeping for the hidden places (kPlaceHand + seat, kPlaceDrawPile).
  void learn(int place, int card, uint32_t seen_by);
  void forget(int place, int card, uint32_t seen_by);
  // Draw pile cards [from, to) were face up before: everyone knows they are in
  // the pile, and they join its deck.
  void everyone_knows_draw_pile(int from, int to);
  // Recycle Bin shuffled draw pile cards [from, to), face up before, into the
  // pile: they join its deck as its recycled cards.
  void recycled_into_draw_pile(int from, int to);
  void went_in_unseen(int viewer, int seat);
  uint32_t recycled_card_left_hand(int seat, int card, uint32_t seen_by);
  void start_new_deck();               // the discard pile becomes the draw pile
  void deck_from_scratch(int viewer);  // the deck as every card `viewer` cannot place
  void deck_card_drawn(int seat, int card);
  uint32_t deck_card_left_hand(int seat, int card, uint32_t seen_by);
  // from_json's parts: reading the turn's bookkeeping and the knowledge, and
  // the checks that tie the fields together.
  void read_turn_bookkeeping(const Json& doc);
  void read_knowledge(const Json& knowledge);
  void read_deck_knowledge(int viewer, const Json& deck, const std::string& path);
  void read_discard_order(const Json& order);
  void validate_loaded() const;
  void validate_game_clock() const;
  void validate_pending_decision() const;
  void validate_advance_step() const;
  void validate_hand_sizes() const;
  void check_knowledge_invariants() const;
  void check_deck_invariants(int viewer) const;
  void keep_knowledge_true(int viewer);
  using Counts = std::array<int, kNumCardTypes>;  // copies of each card type
  void unplaced_cards(int viewer, Counts& hidden, Counts& deck) const;
  void public_card_places(CardPlaces& out) const;
  std::string describe(int shown_hand, int viewer) const;  // to_string and observation_string
  void stage_rocket_bonuses(Rocket& r);
  void finish_staged_discards();
  void choose_next_discard(int card);
  void put_ordered_on_discard_pile();
  void steal_random_card(int from_seat, int to_seat, uint32_t seen_by);
  void continue_surplus();
  void shuffle_draw_pile();

  const Config* config_ = nullptr;
  int num_players_ = 2;
  int turn_player_ = 0;
  Step step_ = Step::kPlay;
  std::array<PlayerArea, kMaxPlayers> players_{};
  std::array<uint8_t, kMaxCards> draw_pile_{};  // index draw_size_ - 1 is the top
  int draw_size_ = 0;
  std::array<uint8_t, kMaxCards> discard_pile_{};  // index discard_size_ - 1 is the top
  int discard_size_ = 0;
  int launch_pad_area_ = 0;    // Launch Pad cards on the central Launch Pad area
  int launch_pads_aside_ = 0;  // long game: kept out of the deck until it first runs out
  // The Launch Pad cards in the draw pile are known to lie among its bottom
  // `launch_pad_region_` cards (set-up puts them in the bottom half); public,
  // used by redeterminize.
  int launch_pad_region_ = 0;
  bool countdown_ = false;
  int final_turns_left_ = 0;  // turns still to come after the current one, during the Countdown
  // This turn's bookkeeping.
  bool redraw_used_ = false;                // step 5 happened
  uint32_t advance_eligible_ = 0;           // step 2: slots eligible at its start (ruling 5)
  std::array<uint8_t, 2> advanced_from_{};  // rockets advanced out of Construction / Quality Control
  // Pending decisions.
  int surplus_offset_ = 0;  // kSurplus: seat (as offset from the turn player) to discard next
  int offer_to_ = -1;       // kOffer: receiving seat
  int offer_card_ = -1;     // kOffer: the card offered (public)
  // kChooseTop, kSurplus: cards on their way to the discard pile, by type,
  // whose place in the order is not chosen yet.
  std::array<uint8_t, kNumCardTypes> staged_{};
  // kChooseTop: the cards whose place is chosen, top first. At most the cards
  // one action discards; kMaxCards keeps any deck configuration in bounds.
  std::array<uint8_t, kMaxCards> ordered_{};
  int ordered_size_ = 0;
  // known_[v][place][t]: copies of card t that seat v knows to be in the hidden
  // place (a hand or the draw pile; v's own hand is left at 0, v sees it).
  // Never more than the place holds; Launch Pad cards in the draw pile are
  // counted from the table, not here.
  std::array<std::array<std::array<uint8_t, kNumCardTypes>, kNumHiddenPlaces>, kMaxPlayers> known_{};
  // The deck as each seat v follows it (the knowledge model above): deck_[v][t]
  // copies of t of the deck that v cannot place, deck_in_hand_[v][seat] of
  // seat's cards drawn from it unseen by v, deck_untracked_[v] deck cards v
  // lost track of. Always deck_[v] = the pile's cards (Launch Pad cards aside)
  // + the unseen draws + the untracked cards.
  std::array<std::array<uint8_t, kNumCardTypes>, kMaxPlayers> deck_{};
  std::array<std::array<uint8_t, kMaxPlayers>, kMaxPlayers> deck_in_hand_{};
  std::array<uint8_t, kMaxPlayers> deck_untracked_{};
  // deck_recycled_[v][t] <= deck_[v][t]: of those, the recycled copies v
  // follows; deck_fresh_in_hand_[v][seat]: the cards that went into seat's
  // hand unseen by v since v began following them, the only hand cards that
  // may be some (see the knowledge model above).
  std::array<std::array<uint8_t, kNumCardTypes>, kMaxPlayers> deck_recycled_{};
  std::array<std::array<uint8_t, kMaxPlayers>, kMaxPlayers> deck_fresh_in_hand_{};
  int decisions_ = 0;
  bool truncated_ = false;
  Rng rng_;
};

// The action id ranges, for the docs (rocketgym describe); written in
// launch_pad_action_ranges.cpp from the codec's constants.
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::launch_pad
