// Rocket Squad (Black Straw Games, rulebook v1.4.7) as an environment, for 2-4 players.
// Spec: the published rulebook (v1.4.7) and the project's rulings, each with a test in tests/rocket_squad/.
//
// The whole game is one value type (`State`) made of fixed-capacity arrays, so copying it
// is a memcpy and nothing on the hot paths allocates.
//
// ## Cards
// A card is a `CardType` (uint8_t) from a fixed vocabulary, so action ids never depend on
// the config:  0..11 the twelve Character & Item cards (see `Special`), then the boosters
// `kFirstBooster + colour * kMaxValue + (value - 1)` for colour blue, green, yellow, red,
// wild and value 1..kMaxValue. How many of each are in the deck is config data.
//
// ## Action ids (the same 970 ids for every player count)
// `offset` is a relative seat: 1 = the next player clockwise, 2 = the one after, 3.
// `location` / colour: 0 blue, 1 green, 2 yellow, 3 red (a player's four booster locations).
//
//   0          end turn (draw back up to 4; on a final turn: discard the hand)
//   1          first-turn redraw: discard the hand, draw 4 new cards (only if nothing is playable)
//   2..241     place booster: 2 + booster_index*4 + location, booster_index = colour*12 + value-1
//              (a coloured booster only at its own location, a wild one anywhere; replaces an
//              empty booster of that location)
//   242..529   build box: 242 + card_type*4 + location (any card, face down)
//   530..533   knock over own rocket with a Joker: 530 + location
//   534..581   Dad: 534 + (offset-1)*16 + target_location*4 + own_location
//   582..584   Jack: 582 + (offset-1)
//   585..776   Uncle: 585 + from*48 + to*12 + (count-1)
//   777        Jackie
//   778..789   Joker: 778 + (offset-1)*4 + location
//   790..813   Ace (dog): 790 + (offset-1)*8 + location*2 + direction (0 clockwise, 1 counter-clockwise)
//   814..817   Ace, scare away the Joker on own rocket: 814 + location
//   818..821   Imaginary Friend beside own rocket: 818 + location
//   822..825   Duct Tape onto own rocket: 822 + location
//   826..950   Water Balloons: 826 + d1 + 5*d2 + 25*d3, d_k = the location named at the player
//              at offset k, or 4 = none (that opponent has no rocket that can be targeted / absent)
//   951..954   Water Balloons, scare away the Joker on own rocket: 951 + location
//   955        reaction: do not block
//   956        reaction: block with Mom
//   957        reaction: block with Grandma
//   958        Crew: attach a Crew card to the launching rocket (+2)
//   959        Crew: launch without Crew
//   960..965   Jackie: 960 + kept*2 + order (kept = index of the looked-at card to keep, 0 = top;
//              order 0: the remaining card with the lower index goes to the very bottom, 1: the other)
//   966..969   Ace passing: build the passed box on own rocket at location 966 + location
//
// Secret actions (is_public_action false): a box's face, declining to block, launching
// without Crew (both would show who was asked: ruling 4) and Jackie's pick.
//
// ## What each seat knows (the knowledge model of envs/core/knowledge.h)
// A CardPlace's card is the CardType: copies of a card are interchangeable, so what a seat
// knows is a multiset of cards per place. Places:
//   0 the draw pile              1 the discard pile (public)
//   2 + seat: a hand             6 + 4*seat + location: the boxes (faces) of a rocket
//   22 + 4*seat + location: the face-up cards at a rocket (booster, Joker, Imaginary Friend,
//      attached Crew; public)    38 the card on the table waiting for reactions (public)
//   39 the boxes Ace is passing  40 the cards looked at with Jackie
// Hidden cards carry a mask of the seats that know them, part of the State value:
//   Hand::known_by        other seats that know this card is in the hand (Jack's victim...)
//   DrawPile::known_by    seats that know the card at this position (Jackie's bottom cards)
//   DrawPile::counted_by  seats that know the card is somewhere in the pile (a shuffled pile is
//                         the old discard pile, which everybody saw)
//   box_known_by (Rocket, AcePass), JackieLook::known_by: seats that know that card's face (a
//                         box's builder; a box keeps its mask when Dad, Uncle or Ace move it)
// When a card leaves a hand or the draw pile, a seat that saw which card it was forgets one
// copy of that card there; a seat that did not (a box built from the hand, a draw, Jack's
// steal seen by a third player) forgets one copy of every card it knew there, unless it knew
// every card there and all were the same: then it knows the card, and where it went.
// These per-place facts are lower bounds (what observations and known_card_places show). Two
// more facts, used only to resample, keep what the lower bounds lose:
//   Deck        the current deck (the cards shuffled into the pile at the start or by the latest
//               reshuffle: everybody saw the discards) and, on every slot, a public from_deck
//               mark: a card drawn from it that the table could not see. The deck's cards are
//               exactly the marked slots' cards plus `untracked` ones: when a hand mixing marked
//               and unmarked cards loses a card the table cannot place (a box, a steal, or a
//               card face up that could be either), the hand's marks are dropped and counted
//               as untracked. A face-up card from marked slots only leaves the deck.
//   Whereabouts a card a seat knew in a hand that lost a card unseen by that seat: after Jack,
//               it is in the victim's or the thief's hand (extended by later steals); after a
//               box built face down from such a hand, it may also be a box (`or_boxes`: any box,
//               until a box of that card leaves the table face up). Forgotten when the seat
//               cannot tell any more (it saw a card like it leave one of the hands).
// redeterminize(viewer) samples a world the viewer cannot rule out by any of these facts:
// every card the viewer knows stays in its place (boxes, pile positions: at their position;
// cards counted in the pile: in it); the marked slots get the deck's cards (less those the
// viewer placed, less the untracked ones, chosen among the hidden cards, first the copies the
// deck must have lost) and the other hidden slots get the rest, so the pile (and the cards
// drawn from it unseen) never holds a card that was not in the discards it was shuffled from
// (the cards a Jackie look took from the old pile before it ran out are old cards, unmarked:
// only the Jackie player saw them); each of the viewer's whereabouts keeps its card in one of
// its hands (or boxes), swapped in from a slot of the same kind, or from a marked slot when
// the card may be an untracked deck card (another untracked card takes the marked slot); the
// pile's positions keep who knows them (another seat's Jackie cards stay at the bottom) and
// only their contents change; a player being asked keeps a card that lets them be asked.
// Known limits (over-approximations, never a leak): cards older than the latest reshuffle are
// interchangeable among their slots; after a hand lost track of its deck cards, those and the
// untracked ones may land in any unmarked slot; a whereabouts card may be any card of the
// thief's hand, not just the stolen one, and, once it may be a box, any box, not only those
// built from its hands; whereabouts are kept greedily (facts confined to hands first), so
// several facts about one card may, rarely, not all be kept (then the world drops them).

#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "envs/core/config.h"
#include "envs/core/describe.h"
#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/knowledge.h"
#include "envs/core/returns.h"
#include "envs/core/rng.h"

namespace rocketgym::rocket_squad {

constexpr int kMaxPlayers = 4;
constexpr int kNumLocations = 4;       // blue, green, yellow, red
constexpr int kNumBoosterColours = 5;  // the four colours + wild
constexpr int kWild = 4;
constexpr int kMaxValue = 12;   // highest booster value the config may use (= most boxes)
constexpr int kMaxCards = 128;  // largest deck the config may describe
constexpr int kMaxHand = 8;     // the engine never exceeds the configured hand size (<= 6)
constexpr int kJackieLook = 3;
constexpr int kMaxDecisions = 30000;  // hard cap on decisions (truncation), beside max_turns

using CardType = uint8_t;
enum Special : CardType {
  kDad,
  kJack,
  kUncle,
  kJackie,
  kMom,
  kGrandma,
  kJoker,
  kAce,
  kImaginaryFriend,
  kDuctTape,
  kCrew,
  kWaterBalloons,
  kNumSpecials
};
constexpr int kFirstBooster = kNumSpecials;
constexpr int kNumCardTypes = kFirstBooster + kNumBoosterColours * kMaxValue;  // 72
constexpr CardType kNoCard = 255;

// Places of the knowledge model (see the top of this file).
namespace places {
constexpr int kDrawPile = 0;
constexpr int kDiscardPile = 1;
constexpr int kHand = 2;    // + seat
constexpr int kBoxes = 6;   // + 4 * seat + location
constexpr int kTable = 22;  // + 4 * seat + location
constexpr int kChain = 38;
constexpr int kAceBoxes = 39;
constexpr int kJackieLook = 40;
}  // namespace places

// The card colours of the rulebook: Orange cards are aggressive, Purple and Grey passive.
enum class CardColour { kOrange, kPurple, kGrey, kBooster };

inline bool is_booster(CardType t) { return t >= kFirstBooster && t < kNumCardTypes; }
inline int booster_colour(CardType t) { return (t - kFirstBooster) / kMaxValue; }
// (t - kFirstBooster) % kMaxValue + 1, looked up: Rocket::need() asks it for every rocket the
// rules and the encoder look at, and the division was a tenth of an observed step.
inline constexpr std::array<int8_t, 256> kBoosterValue = [] {
  std::array<int8_t, 256> value{};
  for (int t = 0; t < 256; ++t)
    value[static_cast<std::size_t>(t)] = static_cast<int8_t>((t - kFirstBooster) % kMaxValue + 1);
  return value;
}();
inline int booster_value(CardType t) { return kBoosterValue[t]; }
inline CardType booster_card(int colour, int value) {
  return static_cast<CardType>(kFirstBooster + colour * kMaxValue + value - 1);
}
CardColour card_colour(CardType t);
std::string card_name(CardType t);  // "dad", "blue_3", "wild_5": used in JSON documents
bool card_from_name(const std::string& name, CardType& out);
const char* location_name(int location);  // "blue" ...

// Action id ranges (see the table above).
namespace action {
constexpr int kEndTurn = 0;
constexpr int kRedraw = 1;
constexpr int kPlaceBooster = 2;
constexpr int kBuildBox = kPlaceBooster + kNumBoosterColours * kMaxValue * kNumLocations;  // 242
constexpr int kKnockOver = kBuildBox + kNumCardTypes * kNumLocations;                      // 530
constexpr int kPlayDad = kKnockOver + kNumLocations;                                       // 534
constexpr int kPlayJack = kPlayDad + 3 * kNumLocations * kNumLocations;                    // 582
constexpr int kPlayUncle = kPlayJack + 3;                                                  // 585
constexpr int kPlayJackie = kPlayUncle + kNumLocations * kNumLocations * kMaxValue;        // 777
constexpr int kPlayJoker = kPlayJackie + 1;                                                // 778
constexpr int kAceDog = kPlayJoker + 3 * kNumLocations;                                    // 790
constexpr int kAceScare = kAceDog + 3 * kNumLocations * 2;                                 // 814
constexpr int kPlayFriend = kAceScare + kNumLocations;                                     // 818
constexpr int kPlayDuctTape = kPlayFriend + kNumLocations;                                 // 822
constexpr int kPlayBalloons = kPlayDuctTape + kNumLocations;                               // 826
constexpr int kBalloonsScare = kPlayBalloons + 125;                                        // 951
constexpr int kNoBlock = kBalloonsScare + kNumLocations;                                   // 955
constexpr int kBlockMom = kNoBlock + 1;
constexpr int kBlockGrandma = kBlockMom + 1;
constexpr int kCrewAttach = kBlockGrandma + 1;
constexpr int kCrewDecline = kCrewAttach + 1;
constexpr int kJackieKeep = kCrewDecline + 1;             // 960
constexpr int kAceBuild = kJackieKeep + kJackieLook * 2;  // 966
constexpr int kNumActions = kAceBuild + kNumLocations;    // 970
constexpr int kNoTarget = 4;  // Water Balloons digit: no rocket named at that opponent
}  // namespace action

struct Config {
  std::array<uint8_t, kNumCardTypes> deck{};  // copies of each card type
  int deck_size = 0;
  int hand_size = 4;
  int max_turns = 400;
  int crew_bonus = 2;
  int jack_min_hand = 3;  // Jack needs an opponent with at least this many cards
  bool first_turn_redraw = true;
  bool joker_stops_launch = true;  // a Joker on a complete rocket keeps it on the ground
  RewardMode reward = RewardMode::kRank;
};

// Reads configs/games/rocket_squad.yaml (strict: unknown keys and bad values are ConfigErrors).
Config load_config(const ConfigNode& root);

enum class Phase : uint8_t {
  kTurn,        // the turn player plays cards or ends the turn
  kReaction,    // a player holding Mom/Grandma decides whether to block the top of the chain
  kCrew,        // a rocket launches; its owner holds a Crew card and decides whether to attach it
  kJackieKeep,  // the turn player keeps one of the cards Jackie looked at
  kAcePass,     // a box passed by Ace: the receiving player chooses where to build it
  kGameOver
};
const char* phase_name(Phase p);  // "turn", "reaction", ... (as in JSON; rocket_squad_json.cpp)

// One of a player's four booster locations, with the rocket built on it.
struct Rocket {
  CardType booster = kNoCard;  // kNoCard: empty location
  bool launched = false;       // flipped face down, scored
  bool crew = false;           // a Crew card attached at launch
  bool joker = false;          // a Joker sits on top (never on an empty or launched rocket)
  bool friend_beside = false;  // Imaginary Friend protects it from Orange cards
  uint8_t num_boxes = 0;
  std::array<CardType, kMaxValue> boxes{};         // faces, bottom first; hidden
  std::array<uint8_t, kMaxValue> box_known_by{};   // seats that know each face (its builder)
  std::array<uint8_t, kMaxValue> box_from_deck{};  // 1: a card of the current deck (see Deck)

  bool has_booster() const { return booster != kNoCard; }
  int need() const { return has_booster() ? booster_value(booster) : 0; }
  int room() const { return need() - num_boxes; }
  // Unlaunched, without a Joker, with room for `n` more boxes.
  bool can_take(int n) const { return has_booster() && !launched && !joker && room() >= n; }
};

// A player's hand. known_by[i] is the set of *other* players (bit per seat) who know that
// card i is in this hand (Jack's victim, a Jackie player who drew the card it put at the
// bottom). The order of a hand means nothing: known_by says how many copies of a card a seat
// knows to be there.
struct Hand {
  std::array<CardType, kMaxHand> cards{};
  std::array<uint8_t, kMaxHand> known_by{};
  std::array<uint8_t, kMaxHand> from_deck{};  // 1: a card of the current deck (see Deck)
  uint8_t count = 0;
};

// The draw pile, bottom first. known_by[i]: players who know the card at position i
// (Jackie puts two cards at the bottom in secret). counted_by[i]: players who know that the
// card is somewhere in the pile, but not where (disjoint from known_by).
struct DrawPile {
  std::array<CardType, kMaxCards> cards{};
  std::array<uint8_t, kMaxCards> known_by{};
  std::array<uint8_t, kMaxCards> counted_by{};
  std::array<uint8_t, kMaxCards> from_deck{};  // 1: a card of the current deck (see Deck)
  uint8_t count = 0;
};

// The current deck: the cards shuffled into the draw pile at the start or by the latest
// reshuffle (everybody saw the discards, so everybody knows them). Public bookkeeping: every
// card of the deck that nobody saw leave it is in a slot marked from_deck (the pile, or a hand,
// box or Jackie look it was drawn into) or is one of `untracked` cards that left such slots
// without the table knowing which card it was (a hand mixing deck cards with older ones played
// or gave away a card that could be either: the hand's marks are dropped and counted here).
struct Deck {
  std::array<uint8_t, kNumCardTypes> cards{};  // the deck's cards not yet seen leave it
  uint8_t untracked = 0;
};

// A card `knower` knew to be in a hand that lost a card unseen by `knower`: it is in one of
// `hands` (a seat mask: the victim's, the thief's, and later thieves'), or, once one of those
// hands built a box face down, `or_boxes`: possibly in a box (any box on the table or passed by
// Ace, an over-approximation of "the boxes built from those hands since").
struct Whereabouts {
  CardType card = kNoCard;
  uint8_t knower = 0;
  uint8_t hands = 0;
  bool or_boxes = false;
};
constexpr int kMaxWhereabouts = 16;

struct DiscardPile {  // face up, public
  std::array<CardType, kMaxCards> cards{};
  uint8_t count = 0;
};

// A Character/Item card on the table, waiting for the reaction chain (Mom / Grandma).
struct Chain {
  bool active = false;
  CardType card = kNoCard;  // the card played by the turn player
  int16_t action = 0;       // its action id (targets)
  uint8_t against = 0;      // seats the card is played against (Mom may block for them)
  uint8_t blocks = 0;       // blocks played so far; the effect happens iff even
  CardType top = kNoCard;   // the card now at the top of the chain (the card or a block)
  int8_t top_player = 0;    // who played the top card
  uint8_t asked = 0;        // seats after top_player already considered in this round
};

struct AcePass {  // boxes knocked off by Ace, passed around the table one at a time
  bool active = false;
  int8_t direction = 1;  // +1 clockwise, -1 counter-clockwise
  int8_t next_seat = 0;  // who takes the next box
  uint8_t skips = 0;     // consecutive players who could not take one
  uint8_t count = 0;
  std::array<CardType, kMaxValue> boxes{};
  std::array<uint8_t, kMaxValue> box_known_by{};  // seats that know each face
  std::array<uint8_t, kMaxValue> box_from_deck{};
};

struct JackieLook {  // the cards the turn player looks at (top first)
  uint8_t count = 0;
  std::array<CardType, kJackieLook> cards{};
  std::array<uint8_t, kJackieLook> known_by{};  // the turn player, and whoever knew the pile's top
  std::array<uint8_t, kJackieLook> from_deck{};
};

struct DocumentFields;  // one object of a JSON document being read (rocket_squad_json.cpp)
struct ResampleSlots;   // the slots redeterminize fills (rocket_squad_knowledge.cpp)

class State {
 public:
  State(const Config& config, int num_players, uint64_t seed);

  int num_players() const { return num_players_; }
  int current_player() const { return phase_ == Phase::kGameOver ? -1 : decider_; }
  void legal_actions_mask(uint8_t* out) const;
  bool is_legal(Action a) const;
  void apply(Action a);
  bool is_terminal() const { return phase_ == Phase::kGameOver; }
  bool is_truncated() const { return truncated_; }
  void returns(float* out) const;
  void scores(int* out) const;
  void redeterminize(int viewer, Rng& rng);
  std::string to_string() const;  // everything, hidden cards included (for debugging)
  // What the person in seat `viewer` may see: the table, the own hand and own decision, and
  // the cards the seat knows about (never another seat's hand, Jackie look or who is asked).
  std::string observation_string(int viewer) const;
  // The table for the browser, in the game's own terms (rocket_squad_view.cpp): what
  // `viewer` may see, or everything for viewer -1 (replays, the full board).
  Json view_json(int viewer) const;
  // A box's face is hidden (ruling 2); declining to block or to attach Crew would reveal who
  // was asked, hence who holds Mom, Grandma or Crew (ruling 4); Jackie's pick is secret.
  bool is_public_action(Action a) const {
    using namespace action;
    return !((a >= kBuildBox && a < kKnockOver) || a == kNoBlock || a == kCrewDecline ||
             (a >= kJackieKeep && a < kAceBuild));
  }
  // Who is asked to block or to add Crew stays hidden (ruling 4); every other
  // decision is the turn player's, or an Ace pass's, public.
  bool is_public_decider() const { return phase_ != Phase::kReaction && phase_ != Phase::kCrew; }
  // The knowledge model (see the top of this file).
  void card_places(CardPlaces& out) const;
  void known_card_places(int viewer, CardPlaces& out) const;
  std::string action_to_string(Action a) const;
  Json to_json() const;
  static State from_json(const Json& doc, const Config& config);
  void check_invariants() const;

  // Read access for the encoder, the bot and the tests.
  const Config& config() const { return *config_; }
  Phase phase() const { return phase_; }
  int turn_player() const { return turn_player_; }
  int turn_number() const { return turn_number_; }
  const Hand& hand(int p) const { return hands_[p]; }
  const Rocket& rocket(int p, int location) const { return rockets_[p][location]; }
  const DrawPile& draw_pile() const { return draw_; }
  const DiscardPile& discard_pile() const { return discard_; }
  const Chain& chain() const { return chain_; }
  const AcePass& ace() const { return ace_; }
  const JackieLook& jackie() const { return jackie_; }
  int crew_location() const { return crew_location_; }
  const Deck& deck() const { return deck_; }
  int num_whereabouts() const { return num_whereabouts_; }
  const Whereabouts& whereabouts(int i) const { return whereabouts_[i]; }
  bool end_triggered() const { return end_triggered_; }
  int trigger_seat() const { return trigger_seat_; }
  bool owes_final_turn(int p) const { return (final_owed_ >> p) & 1; }
  bool in_final_turn() const { return in_final_turn_; }
  bool redraw_used() const { return redraw_used_; }
  bool turn_start() const { return turn_start_; }  // the turn player has not acted yet this turn
  bool first_turn(int p) const { return !((had_turn_ >> p) & 1); }
  // A seat's launched rockets: how many, their points, the tallest (one pass for the encoder).
  struct LaunchTally {
    int launched = 0;
    int score = 0;
    int tallest = 0;
  };
  LaunchTally launch_tally(int p) const;
  int score(int p) const { return launch_tally(p).score; }
  int tallest_rocket(int p) const {
    return launch_tally(p).tallest;
  }  // tie-break: most boxes on one launched rocket
  int launched_count(int p) const { return launch_tally(p).launched; }
  int hand_count(int p, CardType t) const;
  int seat(int offset) const { return (turn_player_ + offset) % num_players_; }
  // Can rocket (p, location) be targeted by an Orange card of the turn player? (belongs to an
  // opponent, unlaunched, no Imaginary Friend beside it, and holds a box: ruling 5 asks one of
  // Dad, Joker and Water Balloons. Ace (dog) does not need one, needs_box = false: its
  // holder may knock the boxes off a rocket that has none, which passes nothing.)
  bool targetable(int p, int location, bool needs_box = true) const;

  // Direct access for tests that set up positions by hand.
  Rocket& mutable_rocket(int p, int location) { return rockets_[p][location]; }

 private:
  State() = default;

  // Legality, by kind of action (turn phase).
  bool legal_turn_action(Action a) const;
  bool play_ok(Action a) const;  // a booster or Character/Item play, the card being in hand
  bool may_redraw() const;
  bool can_play_any_card() const;
  bool card_plays_mask(uint8_t* out) const;
  bool legal_water_balloons(int code) const;
  static CardType card_of_action(Action a);  // kNoCard outside the Character/Item ranges
  bool targets_ok(Action a, bool check_jack_hand) const;
  bool can_block(int p, CardType block) const;
  uint8_t against_of(Action a) const;  // the players a card is played against (Mom may block)

  // Effects.
  void play_turn_action(Action a);
  void start_chain(CardType card, Action a, uint8_t against);
  void ask_next_reactor();
  void resolve_chain();
  void apply_effect(CardType card, Action a);
  void end_turn();
  void start_turn(int p);
  void advance();  // launches, Ace passing, then back to the turn player
  bool find_launch(int& p, int& location) const;
  void launch(int p, int location);
  bool step_ace_pass();
  void finish_game(bool truncated);

  // Card movement. `seen_by`: the seats that see which card moves; the returned or passed
  // `known_by` masks say who knows the card after the move, `from_deck` whether it is a card of
  // the current deck as far as the table can tell (rocket_squad_knowledge.cpp).
  bool draw_card(uint8_t seen_by, CardType& out, uint8_t& known_by, uint8_t& from_deck);  // reshuffles
  void reshuffle();
  int cards_available() const { return draw_.count + discard_.count; }
  void discard(CardType t) { discard_.cards[discard_.count++] = t; }
  // A hidden card from a slot everybody can point at (a box, Ace's boxes) turns face up.
  void discard_face_up(CardType t, uint8_t from_deck);
  // Removes card `index` of player p's hand. `to_hand`: the hand it goes to unseen by the
  // others (Jack), -1 otherwise. `from_deck` (if given) returns the card's deck mark.
  uint8_t take_from_hand(int p, int index, uint8_t seen_by, uint8_t* from_deck = nullptr, int to_hand = -1);
  uint8_t take_from_hand(int p, CardType t, uint8_t seen_by, uint8_t* from_deck = nullptr);  // any copy of t
  void discard_hand(int p);
  void add_to_hand(int p, CardType t, uint8_t known_by, uint8_t from_deck);
  void build_box(int p, int location, CardType t, uint8_t known_by, uint8_t from_deck) {
    Rocket& r = rockets_[p][location];
    r.box_known_by[r.num_boxes] = known_by;
    r.box_from_deck[r.num_boxes] = from_deck;
    r.boxes[r.num_boxes++] = t;
  }
  // Scares away the Joker.
  CardType remove_top_box(int p, int location, uint8_t& known_by, uint8_t& from_deck);
  void discard_top_box(int p, int location) {
    uint8_t known_by, from_deck;
    const CardType t = remove_top_box(p, location, known_by, from_deck);
    discard_face_up(t, from_deck);
  }
  void put_under_draw_pile(CardType t, uint8_t known_by, uint8_t counted_by, uint8_t from_deck);
  // A card leaves a region (`marks`: its slots' deck marks) without the table seeing which slot:
  // returns the card's deck mark, and when the table cannot tell, drops the region's marks.
  uint8_t leave_marked_region(uint8_t* marks, int count, CardType card, bool face_up);
  // Whereabouts facts (see Whereabouts) when a card leaves hand p.
  void update_whereabouts(int p, CardType card, uint8_t seen_by, int to_hand);
  void add_whereabouts(CardType card, int knower, uint8_t hands, bool or_boxes);
  void erase_whereabouts(int i);
  int whereabouts_copies(const Whereabouts& f) const;  // copies of its card where it may be
  int boxes_holding(CardType t) const;                 // face-down boxes of t (rockets, Ace)
  int free_locations(int p, int& only) const;
  uint8_t all_seats() const { return static_cast<uint8_t>((1u << num_players_) - 1); }

  // A card leaves slot `index` of a region of `count` cards (a hand, the draw pile, Jackie's
  // look); `counted[i]`: seats that know card i is in the region, `placed[i]` (or null):
  // seats that know its position. Removes the slot, updates what each of `trackers` knows of
  // the rest, and returns the seats that know the card that left (`seen_by`, those who knew
  // its position, those who could deduce it).
  static uint8_t leave_region(CardType* cards, uint8_t* counted, uint8_t* placed, uint8_t& count, int index,
                              uint8_t trackers, uint8_t seen_by);
  void check_knowledge_invariants() const;
  void check_deck_invariants() const;

  // Reading and checking a document (rocket_squad_json.cpp).
  void read_turn_fields(const DocumentFields& f);
  void read_card_fields(const DocumentFields& f);
  void read_rocket(const DocumentFields& f, Rocket& r) const;
  void read_chain(const DocumentFields& f);
  void read_deck(const DocumentFields& f);
  void check_turn_fields() const;
  void check_turn_order() const;
  void check_end_fields() const;
  void check_chain_fields() const;
  std::string decision_text(int viewer) const;
  void list_places(int viewer, CardPlaces& out) const;  // viewer -1: the truth
  void shuffle_unplaced_draw_pile(int viewer, Rng& rng);
  void keep_whereabouts(int viewer, Rng& rng, ResampleSlots& slots);

  const Config* config_ = nullptr;
  int8_t num_players_ = 2;
  Phase phase_ = Phase::kTurn;
  int8_t turn_player_ = 0;
  int8_t decider_ = 0;  // the current player (the turn player, or whoever is asked)
  int16_t turn_number_ = 1;
  int32_t decisions_ = 0;
  bool truncated_ = false;
  uint8_t had_turn_ = 0;      // seats that finished their first turn
  bool redraw_used_ = false;  // the first-turn redraw was used this turn
  bool turn_start_ = false;   // the turn player has not acted yet this turn (ruling 10)
  bool end_triggered_ = false;
  int8_t trigger_seat_ = -1;
  uint8_t final_owed_ = 0;  // seats still owed their final turn
  bool in_final_turn_ = false;
  int8_t crew_location_ = -1;  // kCrew: the launching rocket of decider_
  Rng rng_;
  DrawPile draw_;
  DiscardPile discard_;
  std::array<Hand, kMaxPlayers> hands_{};
  std::array<std::array<Rocket, kNumLocations>, kMaxPlayers> rockets_{};
  Chain chain_;
  AcePass ace_;
  JackieLook jackie_;
  Deck deck_;
  std::array<Whereabouts, kMaxWhereabouts> whereabouts_{};
  uint8_t num_whereabouts_ = 0;
};

// Inline, as launch_tally below: the rules ask it for most decisions (legality, blocks, Crew).
inline int State::hand_count(int p, CardType t) const {
  const Hand& h = hands_[p];
  int n = 0;
  for (int i = 0; i < h.count; ++i) n += h.cards[i] == t;
  return n;
}

// The encoder asks it for every seat of every observation.
inline State::LaunchTally State::launch_tally(int p) const {
  LaunchTally t;
  for (const Rocket& r : rockets_[p])
    if (r.launched) {
      ++t.launched;
      t.score += r.need() + (r.crew ? config_->crew_bonus : 0);
      t.tallest = std::max(t.tallest, r.need());
    }
  return t;
}

// The action id ranges, for the docs (rocketgym describe); written in
// rocket_squad_action_ranges.cpp from the codec's constants.
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::rocket_squad
