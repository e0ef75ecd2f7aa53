// Launchpad 23: the dice-and-pyramids rocket building race.
// Spec: the published rulebook and the project's rulings, each with a test in tests/launchpad23/.
//
// The board is a 3x3 grid (space = row * 3 + column): the centre (4) is the
// Factory, the corners are Launchpads (owned clockwise from the top-left:
// 0, 2, 8, 6; with two players 0 and 8), the edges are Storage Depots. A tower
// is a multiset of pyramids (ruling 7), so every space, and the Bank, is a
// count per colour and size.
//
// Action ids (num_actions = 696):
//   [0, 3)      setup: secretly choose the size of your starting piece (S, M, L)
//   [3, 18)     new part: take piece (colour * 3 + size) from the Bank to the Factory
//   18          parts shortage: re-roll the dice (once per turn)
//   [19, 154)   parts shortage: steal piece (space * 15 + colour * 3 + size) into the Factory
//   [154, 694)  move: ((space * 15 + colour * 3 + size) * 4 + direction), direction N, E, S, W
//   694         Total System Failure: return every piece on your pad to the Bank (costs a move)
//   695         end the turn (moves may be left unused)
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "envs/core/config.h"
#include "envs/core/describe.h"
#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/knowledge.h"
#include "envs/core/returns.h"
#include "envs/core/rng.h"

namespace rocketgym::launchpad23 {

constexpr int kColours = 5;  // red, yellow, green, blue, black
constexpr int kSizes = 3;    // small, medium, large
constexpr int kPieceTypes = kColours * kSizes;
constexpr int kCopies = 2;  // two of each colour and size: 30 pyramids
constexpr int kSpaces = 9;
constexpr int kFactory = 4;
constexpr int kDirections = 4;
constexpr int kMaxPlayers = 4;
constexpr int kRocketSize = 5;
constexpr int kPadsClockwise[kMaxPlayers] = {0, 2, 8, 6};  // seats 0..3 with 3-4 players

constexpr int kSetupBase = 0;
constexpr int kTakeBase = 3;
constexpr int kReroll = 18;
constexpr int kStealBase = 19;
constexpr int kMoveBase = kStealBase + kSpaces * kPieceTypes;                         // 154
constexpr int kTotalSystemFailure = kMoveBase + kSpaces * kPieceTypes * kDirections;  // 694
constexpr int kEndTurn = kTotalSystemFailure + 1;                                     // 695
constexpr int kNumActions = kEndTurn + 1;                                             // 696
constexpr int kMaxTurnsLimit = 1000;
// Setup, then per turn at most: part choice, re-roll, steal, 4 moves, end.
constexpr int kMaxDecisions = kMaxPlayers + kMaxTurnsLimit * 8;

constexpr int piece_type(int colour, int size) { return colour * kSizes + size; }
constexpr int colour_of(int type) { return type / kSizes; }
constexpr int size_of(int type) { return type % kSizes; }

// Pyramid die faces: three single sizes, then the two-pyramid faces.
enum SizeFace : uint8_t { kSmall, kMedium, kLarge, kSmallOrMedium, kSmallOrLarge, kMediumOrLarge };
// Colour die faces: the five colours, then the Atom (wild).
constexpr int kAtom = 5;

enum class Phase : uint8_t { kSetup, kNewPart, kMoves, kGameOver };

struct Config {
  int max_turns = 200;  // ruling 9
  RewardMode reward = RewardMode::kRank;
};

Config load_config(const ConfigNode& root);

// What one die roll allows: the sizes and colours a new part may have.
struct Roll {
  uint8_t size_face = kSmall;
  uint8_t colour_face = 0;
  constexpr bool allows_size(int size) const {
    switch (size_face) {
      case kSmallOrMedium:
        return size == kSmall || size == kMedium;
      case kSmallOrLarge:
        return size == kSmall || size == kLarge;
      case kMediumOrLarge:
        return size == kMedium || size == kLarge;
      default:
        return size == size_face;
    }
  }
  constexpr bool allows_colour(int colour) const { return colour_face == kAtom || colour_face == colour; }
  constexpr bool allows(int type) const {
    return allows_size(size_of(type)) && allows_colour(colour_of(type));
  }
  // Bit t: allows(t). A table lookup (built from allows() in launchpad23.cpp): the legal mask
  // and the rules ask it every new part.
  uint16_t allowed_types() const;
  bool two_sizes() const { return size_face >= kSmallOrMedium; }
  int moves() const { return 2 + (two_sizes() ? 1 : 0) + (colour_face == kAtom ? 1 : 0); }
};

// The corner space of a seat (ruling 1): with two players the seats sit opposite.
constexpr int pad_of_seat(int players, int seat) {
  return players == 2 ? (seat == 0 ? 0 : 8) : kPadsClockwise[seat];
}

using PieceCounts = std::array<uint8_t, kPieceTypes>;

// The 15 counts as two little-endian words (bytes 0-7, then 8-14 and a zero):
// the legal mask, the encoder and the bot read every space each step, a word
// at a time instead of a byte at a time. The high word is read as bytes 7-14
// and shifted: two loads, where a 7-byte copy took four and a round trip
// through memory.
inline void count_words(const PieceCounts& counts, uint64_t& low, uint64_t& high) {
  static_assert(kPieceTypes == 15, "two words: bytes 0-7 and 7-14");
  std::memcpy(&low, counts.data(), 8);
  std::memcpy(&high, counts.data() + 7, 8);
  high >>= 8;
}
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "count_words reads type t as byte t of the words");
// 1 in each byte of `word` that is not zero, 0 in the others.
inline uint64_t nonzero_byte_ones(uint64_t word) {
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full, kHigh = 0x8080808080808080ull;
  return ((((word & kLow7) + kLow7) | word) & kHigh) >> 7;  // the carry sets a byte's top bit
}
// Bit i: byte i of `word` is not zero.
inline unsigned nonzero_byte_bits(uint64_t word) {
  return static_cast<unsigned>((nonzero_byte_ones(word) * 0x0102040810204080ull) >> 56);  // gather them
}

// Bit t: the counts hold a piece of type t.
inline uint16_t types_in(const PieceCounts& counts) {
  uint64_t low, high;
  count_words(counts, low, high);
  return static_cast<uint16_t>(nonzero_byte_bits(low) | nonzero_byte_bits(high) << 8);
}
// Bit t: type t has size `size` (the types of one size are three apart).
constexpr uint16_t types_of_size(int size) { return static_cast<uint16_t>(0x1249u << size); }

// Piece counts per space and in the Bank.
struct Board {
  std::array<PieceCounts, kSpaces> spaces{};
  PieceCounts bank{};
  int pieces_on(int space) const {
    uint64_t low, high;
    count_words(spaces[space], low, high);
    constexpr uint64_t kOnes = 0x0101010101010101ull;  // sums the bytes into the top one (at most 30)
    return static_cast<int>(((low * kOnes) >> 56) + ((high * kOnes) >> 56));
  }
  // Bit t: the space holds a piece of type t.
  uint16_t types_on(int space) const { return types_in(spaces[space]); }
  uint16_t bank_types() const { return types_in(bank); }  // bit t: the Bank holds a piece of type t
  // Exactly five pyramids, one per colour, all of one size: five pieces, each type of one size there.
  bool is_complete_rocket(int space) const {
    if (pieces_on(space) != kRocketSize) return false;
    const uint16_t types = types_on(space);
    return types == types_of_size(kSmall) || types == types_of_size(kMedium) ||
           types == types_of_size(kLarge);
  }
};

class State {
 public:
  State(const Config& config, int num_players, uint64_t seed);

  int num_players() const { return num_players_; }
  int current_player() const { return phase_ == Phase::kGameOver ? -1 : current_; }
  void legal_actions_mask(uint8_t* out) const;
  bool is_legal(Action a) const;
  void apply(Action a);
  bool is_terminal() const { return phase_ == Phase::kGameOver; }
  bool is_truncated() const { return truncated_; }
  void returns(float* out) const;
  void scores(int* out) const;
  void redeterminize(int viewer, Rng& rng);
  std::string to_string() const;                     // never shows a setup choice before the reveal
  std::string observation_string(int viewer) const;  // to_string() and the viewer's own setup choice
  // The table for the browser, in the game's own terms (launchpad23_view.cpp): what
  // `viewer` may see, or everything for viewer -1 (replays, the full board).
  Json view_json(int viewer) const;
  // The setup choice stays secret until the reveal (ruling 2).
  bool is_public_action(Action a) const { return a >= kTakeBase; }
  bool is_public_decider() const { return true; }  // the setup choices too go in seat order
  // Knowledge model: the board, the Bank and the dice are public; the only
  // hidden things are the setup choices made before the reveal (place = seat,
  // card = size), and each seat knows its own.
  void card_places(CardPlaces& out) const;
  void known_card_places(int viewer, CardPlaces& out) const;
  std::string action_to_string(Action a) const;
  Json to_json() const;
  static State from_json(const Json& doc, const Config& config);
  void check_invariants() const;

  // Read access for the encoder, the bot and tests.
  const Config& config() const { return *config_; }
  const Board& board() const { return board_; }
  Phase phase() const { return phase_; }
  const Roll& roll() const { return roll_; }
  bool rerolled() const { return rerolled_; }
  int moves_left() const { return moves_left_; }
  int turn() const { return turn_; }
  int winner() const { return winner_; }
  // The corner space of a seat (inline: the bot and the encoder ask per space).
  int pad_of(int seat) const { return pad_of_seat(num_players_, seat); }
  int owner_of(int space) const {  // the seat owning a pad, or -1
    for (int p = 0; p < num_players_; ++p)
      if (pad_of(p) == space) return p;
    return -1;
  }
  bool has_chosen_setup(int seat) const { return setup_choice_[seat] >= 0; }
  int setup_choice(int seat) const { return setup_choice_[seat]; }  // hidden until the reveal
  // The shortage case of the current roll: no allowed piece in the Bank, or
  // (two-size face) one of the two sizes missing from the Bank.
  bool shortage() const;

  // Direct set-up of positions for tests and puzzles.
  Board& mutable_board() { return board_; }
  void set_roll_for_test(Roll roll);

 private:
  State() = default;
  bool is_legal_setup(Action a) const;
  bool is_legal_new_part(Action a) const;
  bool is_legal_move(Action a) const;
  bool size_available(int size) const;  // some allowed colour of that size in the Bank
  uint16_t takeable_types() const;      // bit t: take a new part of type t from the Bank
  uint16_t stealable_types() const;     // bit t: steal a piece of type t in a parts shortage
  bool may_take(int type) const { return (takeable_types() >> type) & 1u; }
  bool may_reroll() const;  // re-roll the dice in a parts shortage
  bool may_steal(int type) const { return (stealable_types() >> type) & 1u; }
  void write_move_entries(uint8_t* out) const;  // the legal mask's [kMoveBase, kTotalSystemFailure)
  void reveal_setup();
  void start_turn();
  void roll_dice();
  void place_new_part();
  void finish_new_part();
  void spend_move();
  void end_turn();
  void check_for_winner(int mover);

  const Config* config_ = nullptr;
  int num_players_ = 2;
  Phase phase_ = Phase::kSetup;
  int current_ = 0;
  int turn_ = 0;  // completed turns
  int moves_left_ = 0;
  bool rerolled_ = false;
  bool truncated_ = false;
  int winner_ = -1;
  Roll roll_;
  std::array<int8_t, kMaxPlayers> setup_choice_{{-1, -1, -1, -1}};
  Board board_;
  Rng rng_;
};

// The space next to `space` in `direction` (N, E, S, W), or -1 off the board.
constexpr int neighbour(int space, int direction) {
  const int row = space / 3 + (direction == 2) - (direction == 0);
  const int column = space % 3 + (direction == 1) - (direction == 3);
  return (row < 0 || row > 2 || column < 0 || column > 2) ? -1 : row * 3 + column;
}
// Orthogonal steps between two spaces (the Manhattan distance on the grid).
constexpr int space_distance(int a, int b) {
  const int rows = a / 3 - b / 3, columns = a % 3 - b % 3;
  return (rows < 0 ? -rows : rows) + (columns < 0 ? -columns : columns);
}
// The fewest steps from `space` to one of `spaces` (bit s = space s, s < 9),
// or kNoSpaceNear when `spaces` is empty. A table lookup: the bot and the
// encoder ask it for every piece type of every pad at every decision.
constexpr int kNoSpaceNear = 2 * kSpaces;
// kNearestSpaceDistance[space][set] (built at compile time in launchpad23.cpp).
extern const std::array<std::array<uint8_t, 1 << kSpaces>, kSpaces> kNearestSpaceDistance;
inline int nearest_space_distance(uint16_t spaces, int space) {
  return kNearestSpaceDistance[static_cast<std::size_t>(space)][spaces & ((1u << kSpaces) - 1)];
}
const char* colour_name(int colour);
const char* size_name(int size);
std::string piece_name(int type);  // e.g. "small red"
const char* space_name(int space);

// The action id ranges, for the docs (rocketgym describe); written in
// launchpad23_action_ranges.cpp from the codec's constants.
std::vector<ActionRange> action_ranges();

}  // namespace rocketgym::launchpad23
