// The Last Blast: draft a rocket out of passed hands of cards, then fly it
// through an asteroid field (the published rulebook and our rulings, each
// with a test in tests/last_blast/).
//
// ACTION IDS (kNumActions = 138, the same for every player count)
//   [0, 128)   pick card c from your hand and add it to end e of your rocket:
//              id = 2 * c + e, c = card id (its position in the config's card
//              list), e = 0 front / 1 back. The first card of an empty rocket
//              is always offered as "front" only.
//   128        draw blind: on the fourth pick of a hand, take the top card of
//              the deck instead of a card from the hand
//   129, 130   place the blind-drawn card at the front / back of your rocket
//   [131, 136) move your rocket cube to row r (0..4, only rows < players + 1
//              exist) of the next column; texts number rows and columns from 1
//   136, 137   remove the front / back card of your rocket (the player's
//              choice for the third and later damage of a turn)
//
// Phases and who decides:
//   draft  - three hands; in each pick round every player picks, in seat order,
//            as hidden sequential decisions; the picks are revealed (added to
//            the rockets) once everybody has picked, then the hands are passed.
//   flight - seven rounds, one per column; in each round the players still in
//            flight move in clockwise order from the Start Player, then take
//            their damage (one decision per card where the order is theirs).
//   over   - current_player() == -1.
//
// Knowledge model (envs/core/knowledge.h): what each seat knows about where
// the cards are. A place is one of
//   kPlaceUndrafted (0)  the deck, the discards and the blind draws not yet
//                        revealed: to the others these are one pile, since
//                        whether a pick was a blind draw stays hidden
//                        (ruling 2) and a blind draw from an empty deck
//                        reshuffles the discards unseen;
//   kPlaceLost (1)       cards lost from rockets in the flight (face up);
//   kPlaceHand + p       seat p's hand, with the card p has picked from it
//                        this round (hidden until the picks are revealed);
//   kPlaceRocket + p     seat p's rocket (public);
// and a card is its card id. known_by_[c] has bit v when seat v knows c's
// place: rockets and lost cards: everyone; a hand: every seat that has held it
// this hand (a deal shows each card to its receiver only, each pass shows the
// hand to its next holder); the discards: everyone (every hand goes round the
// whole table before its last card is discarded); a blind draw: the drawer;
// the deck: nobody, or everyone once a blind draw has turned the public
// discards into the deck. When the discards are reshuffled to finish a deal,
// each of them is afterwards "in the deck or in some other hand" to all but
// its receiver: nobody knows its place, but everybody knows it is one of the
// reshuffled cards (is_reshuffled), and redeterminize swaps reshuffled cards
// only with each other. A seat never knows more than this model says, so
// every resample is a world the seat thinks possible.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/describe.h"
#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/knowledge.h"
#include "envs/core/returns.h"
#include "envs/core/rng.h"

namespace rocketgym::last_blast {

class JsonFields;  // a JSON object being read (last_blast_json.cpp)

constexpr int kMinPlayers = 2;
constexpr int kMaxPlayers = 4;
constexpr int kNumSymbols = 6;
constexpr int kColumns = 7;
constexpr int kMaxRows = kMaxPlayers + 1;  // the field is (players + 1) rows wide
constexpr int kMaxCards = 64;              // card-list capacity (the game has 48)
constexpr int kMaxTiles = 64;              // tile-supply capacity (the game has 36)
constexpr int kHands = 3;
constexpr int kHandSize = 5;
constexpr int kPicksPerHand = 4;
constexpr int kRocketLength = kHands * kPicksPerHand;  // 12 cards after the draft

// Action ids (see the table above).
constexpr Action kPickBase = 0;
constexpr Action kDrawBlind = 2 * kMaxCards;  // 128
constexpr Action kPlaceBlindFront = kDrawBlind + 1;
constexpr Action kPlaceBlindBack = kDrawBlind + 2;
constexpr Action kMoveBase = kDrawBlind + 3;           // 131
constexpr Action kRemoveFront = kMoveBase + kMaxRows;  // 136
constexpr Action kRemoveBack = kRemoveFront + 1;
constexpr int kNumActions = kRemoveBack + 1;  // 138

// Places of the knowledge model (see the top of this file).
constexpr int kPlaceUndrafted = 0;
constexpr int kPlaceLost = 1;
constexpr int kPlaceHand = 2;                           // + seat
constexpr int kPlaceRocket = kPlaceHand + kMaxPlayers;  // + seat

enum End : int8_t { kFront = 0, kBack = 1 };
enum class Colour : int8_t { kRed, kGreen, kAmber };
const char* colour_word(Colour c);  // "red", "green", "amber" (last_blast_config.cpp)

struct Card {
  Colour colour = Colour::kAmber;
  int number = 0;  // printed number: reduction (red/green) and points
  int symbol = 0;  // index into Config::symbol_names
};

struct Config {
  std::vector<std::string> symbol_names;  // kNumSymbols
  std::array<int, kNumSymbols> symbol_value{};
  std::array<int, kNumSymbols> tiles_per_symbol{};
  int num_tiles = 0;
  std::vector<Card> cards;              // card id = index
  std::vector<std::string> card_names;  // "red 2 wheel": used in JSON
  bool exploded_block_row = false;      // the rulebook's alternate rule
  RewardMode reward = RewardMode::kRank;

  int num_cards() const { return static_cast<int>(cards.size()); }
  int card_id(const std::string& name) const;    // -1 if unknown
  int symbol_id(const std::string& name) const;  // -1 if unknown
  std::string describe_card(int card) const;     // "red Jump Boost 2 (wheel)"
};

Config load_config(const ConfigNode& root);

enum class Phase : int8_t { kDraft, kFlight, kOver };
enum class Status : int8_t { kFlying, kExploded, kExited };
const char* phase_name(Phase p);    // "draft", "flight", "over" (as in JSON)
const char* status_name(Status s);  // "flying", "exploded", "exited"

// A rocket: a line of cards, index 0 is the front (facing the field).
struct Rocket {
  std::array<int8_t, kRocketLength> card{};
  int8_t size = 0;

  int front() const { return card[0]; }
  int back() const { return card[size - 1]; }
  void add(int c, End end);
  void remove(End end);
};

// A draft pick waiting to be revealed (hidden from the other players).
struct Pick {
  int8_t card = -1;    // -1: not picked yet this round
  int8_t end = -1;     // -1: blind card whose end is still to be chosen
  bool blind = false;  // drawn from the deck instead of the hand
};

class State {
 public:
  State(const Config& config, int num_players, uint64_t seed);

  int num_players() const { return n_; }
  int current_player() const;
  void legal_actions_mask(uint8_t* out) const;
  bool is_legal(Action a) const;
  void apply(Action a);
  bool is_terminal() const { return phase_ == Phase::kOver; }
  bool is_truncated() const { return false; }  // every game ends within 7 rounds
  void returns(float* out) const;
  void scores(int* out) const;
  void redeterminize(int viewer, Rng& rng);
  std::string to_string() const;                     // everything, hidden cards too
  std::string observation_string(int viewer) const;  // what `viewer` may see
  // The table for the browser, in the game's own terms (last_blast_view.cpp): what
  // `viewer` may see, or everything for viewer -1 (replays, the full board).
  Json view_json(int viewer) const;
  // Ruling 2: every draft decision (the card and end of a pick, a blind draw,
  // the end of a blind card) stays hidden until the picks are revealed. The
  // picks go in seat order, so who is deciding is public; a player placing a
  // blind card looks to the others like a player still picking (the
  // encoder and observation_string show nothing else). The flight is public.
  bool is_public_action(Action a) const { return a >= kMoveBase; }
  bool is_public_decider() const { return true; }
  // The knowledge model: every card with its place, and the cards whose place
  // `viewer` knows (see the top of this file).
  void card_places(CardPlaces& out) const;
  void known_card_places(int viewer, CardPlaces& out) const;
  std::string action_to_string(Action a) const;
  Json to_json() const;
  // Refuses (SerializationError naming the field) any document that is not a
  // position the game can reach, so that every position that loads plays on.
  static State from_json(const Json& doc, const Config& config);
  // Every reachable position satisfies these (InvariantViolation otherwise).
  void check_invariants() const;

  // Read access for the encoder, the bot and tests.
  const Config& config() const { return *config_; }
  Phase phase() const { return phase_; }
  int rows() const { return n_ + 1; }
  int tile(int row, int column) const { return field_[row][column]; }
  int hand_number() const { return hand_number_; }
  int pick_number() const { return pick_number_; }
  int hand_size(int p) const { return hand_size_[p]; }
  int hand_card(int p, int i) const { return hand_[p][i]; }
  const Pick& pick(int p) const { return pick_[p]; }
  bool awaiting_blind_placement() const;
  int deck_size() const { return deck_size_; }
  int lost_size() const { return lost_size_; }
  int discard_size() const { return discard_size_; }
  // Cards outside hands and rockets (deck, discards, blind draws not yet
  // revealed): a count that does not reveal hidden blind draws.
  int undrafted_count() const;
  bool knows(int player, int card) const { return (known_by_[card] >> player) & 1; }
  // The card came from the discards reshuffled to finish a deal: everybody
  // knows it is in the deck or in some hand (its receiver knows which).
  bool is_reshuffled(int card) const { return (reshuffled_ >> card) & 1; }
  const Rocket& rocket(int p) const { return rocket_[p]; }
  Status status(int p) const { return status_[p]; }
  int cube_row(int p) const { return row_[p]; }        // -1: not on the field
  int cube_column(int p) const { return column_[p]; }  // -1: not on the field
  bool moved_this_round(int p) const { return moved_[p]; }
  int round() const { return round_; }  // the column (0..6) entered this round
  int start_player() const { return start_player_; }
  int damage_left() const { return damage_left_; }
  int removed_this_turn() const { return removed_this_turn_; }
  bool awaiting_removal_choice() const { return phase_ == Phase::kFlight && damage_left_ > 0; }
  bool tile_free(int row, int column, int mover) const;
  // Damage a move of the current mover to `row` would cause (rulings 5, 6).
  int jump_damage(int player, int row) const;
  int collision_damage(int player, int row) const;
  int move_damage(int player, int row) const;
  int score(int p) const;  // printed numbers left in the rocket

 private:
  State() = default;
  // Draft.
  void apply_draft(Action a);
  bool pick_legal(int card, int end) const;
  void deal_hand();
  void reshuffle_discards();
  void reshuffle_for_deal();
  int draw_blind_card();
  void finish_pick();
  void reveal_picks();
  void pass_hands();
  void discard_hands();
  // Flight.
  void apply_flight(Action a);
  void start_flight();
  void resolve_damage();
  void lose_card(End end);
  void explode(int p);
  void end_turn();
  void end_round();
  int next_mover() const;
  void choose_start_player();
  void finish_game();
  void validate_action(Action a) const;
  std::string view(int viewer) const;
  Json hand_view(int p, int viewer) const;
  void write_hand_and_pick(std::ostream& out, int p) const;
  void write_hand_seen_by(std::ostream& out, int p, int viewer) const;
  void write_reshuffled(std::ostream& out, int viewer) const;
  // The place of every card (kPlace*), indexed by card id.
  std::array<int8_t, kMaxCards> places() const;
  // Documents (last_blast_json.cpp).
  void read_tiles(const JsonFields& top);
  void read_draft(const JsonFields& draft);
  void read_flight(const JsonFields& flight);
  void read_seen(const Json& seen);
  // Invariants (last_blast_invariants.cpp): what every reachable position
  // satisfies; messages name the document field at fault.
  void check_cards() const;
  void check_tiles() const;
  void check_knowledge() const;
  void check_reshuffled() const;
  void check_draft() const;
  void check_draft_picks() const;
  void check_flight() const;
  void check_cubes() const;
  void check_turn_order() const;
  void check_damage() const;
  void check_start_player() const;
  void check_over() const;
  // Who knows each card from the position alone (a document without "seen").
  void derive_knowledge();
  uint8_t everyone() const { return static_cast<uint8_t>((1u << n_) - 1); }
  // The players who have held p's current hand this hand (it went round in
  // pass order), who know every card left in it.
  uint8_t hand_holders(int p) const;
  // Cards each player was dealt for the current hand (48 cards: 5, 5, and 4
  // for the third hand of a 4-player game; see deal_hand).
  int dealt_hand_size() const;
  // Hidden information (redeterminize).
  bool blind_draws_resamplable(int viewer) const;
  void take_back_picks(int viewer, bool new_kinds);
  void shuffle_unknown_cards(int viewer, Rng& rng);
  void repick(int viewer, bool new_kinds, Rng& rng);
  End random_end(int p, Rng& rng) const;
  int8_t redraw_blind(int p);

  const Config* config_ = nullptr;
  Rng rng_;
  int8_t n_ = 0;
  // n_, told to the compiler: 2 to 4, as the constructor and the state reader
  // check. Without it gcc 13 at -O3 sees loops over seats that could run past
  // the per-seat arrays and warns (-Wstringop-overflow).
  int seat_count() const {
    if (n_ > kMaxPlayers) __builtin_unreachable();
    return n_;
  }
  Phase phase_ = Phase::kDraft;

  // The asteroid field: symbol per tile; tiles not drawn are set aside.
  std::array<std::array<int8_t, kColumns>, kMaxRows> field_{};
  std::array<int8_t, kMaxTiles> set_aside_{};
  int8_t set_aside_size_ = 0;

  // Cards. The deck's top card is deck_[deck_size_ - 1].
  std::array<int8_t, kMaxCards> deck_{};
  int8_t deck_size_ = 0;
  std::array<int8_t, kMaxCards> discard_{};
  int8_t discard_size_ = 0;
  // Cards lost from rockets in the flight (face up, out of the game).
  std::array<int8_t, kMaxCards> lost_{};
  int8_t lost_size_ = 0;
  std::array<std::array<int8_t, kHandSize>, kMaxPlayers> hand_{};
  std::array<int8_t, kMaxPlayers> hand_size_{};
  std::array<Pick, kMaxPlayers> pick_{};
  // Bit p set: player p knows where this card is (kPlace*, see the top of
  // this file). Cards in rockets are public and have all bits.
  std::array<uint8_t, kMaxCards> known_by_{};
  // Bit c set: card c was among the discards reshuffled to finish a deal.
  uint64_t reshuffled_ = 0;
  int8_t hand_number_ = 0;  // 0..2
  int8_t pick_number_ = 0;  // 0..3
  int8_t picker_ = 0;       // the drafting player to decide

  std::array<Rocket, kMaxPlayers> rocket_{};

  // Flight.
  std::array<Status, kMaxPlayers> status_{};
  std::array<int8_t, kMaxPlayers> row_{};
  std::array<int8_t, kMaxPlayers> column_{};
  std::array<bool, kMaxPlayers> moved_{};
  int8_t round_ = 0;
  int8_t start_player_ = 0;
  int8_t mover_ = -1;
  int8_t damage_left_ = 0;
  int8_t removed_this_turn_ = 0;
};

GameInfo game_info();

// The action id ranges, for the docs (rocketgym describe); written in
// last_blast_action_ranges.cpp from the codec's constants.
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::last_blast
