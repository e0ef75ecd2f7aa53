#include "envs/launchpad23/launchpad23_bot.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "envs/core/returns.h"

namespace rocketgym::launchpad23 {
namespace {

constexpr int kFromBank = 3;      // a Bank piece needs a lucky roll, then moves
constexpr int kFromOtherPad = 4;  // only a steal can free it
constexpr double kOpponentWeight = 0.4;

// Bit s: space s holds a piece of the type and is nobody's pad. Pieces on
// pads count apart: the owner's as already there, the others' as only a
// steal can free them.
using SpaceSet = uint16_t;

// One piece of `type` going from a space (or the Bank) to a space: what a
// take, steal or move action does. The bot scores every legal action, and the
// search plays the bot in its playouts, so it reads the board as it would be
// after the action instead of copying it.
struct PieceMove {
  static constexpr int kBank = -1;
  int type = 0, from = kBank, to = kFactory;

  int count_on(const Board& board, int space) const {
    return board.spaces[space][type] + (space == to) - (space == from);
  }
  int count_in_bank(const Board& board) const { return board.bank[type] - (from == kBank); }
  SpaceSet free_after(const State& state, const Board& board, SpaceSet before) const {
    SpaceSet set = before;
    if (from >= 0 && board.spaces[from][type] == 1) set = static_cast<SpaceSet>(set & ~(1u << from));
    if (state.owner_of(to) < 0) set = static_cast<SpaceSet>(set | (1u << to));
    return set;
  }
};

// The single-piece move an action makes; false for Total System Failure.
bool piece_move(Action a, PieceMove& m) {
  if (a >= kTakeBase && a < kReroll) {
    m = {a - kTakeBase, PieceMove::kBank, kFactory};
  } else if (a >= kStealBase && a < kMoveBase) {
    m = {(a - kStealBase) % kPieceTypes, (a - kStealBase) / kPieceTypes, kFactory};
  } else if (a >= kMoveBase && a < kTotalSystemFailure) {
    const int x = a - kMoveBase, space = x / kDirections / kPieceTypes;
    m = {(x / kDirections) % kPieceTypes, space, neighbour(space, x % kDirections)};
  } else {
    return false;
  }
  return true;
}

// Moves a piece needs to reach `pad` when none is on it: from the nearest
// free space, else from the Bank, else from another player's pad.
int moves_to_bring(SpaceSet free, bool in_bank, int pad) {
  return std::min(in_bank ? kFromBank : kFromOtherPad, nearest_space_distance(free, pad));
}

// One seat's rocket distance kept per piece type, so that an action is
// scored by recomputing only the type it touches.
struct PadCost {
  int pad = 0;
  int pieces = 0;                       // pieces on the pad, each leaves unless wanted
  std::array<int, kPieceTypes> need{};  // -1: on the pad, else moves to bring one

  PadCost() = default;
  PadCost(const State& state, const Board& board, int seat, const std::array<SpaceSet, kPieceTypes>& free)
      : pad(state.pad_of(seat)), pieces(board.pieces_on(pad)) {
    for (int type = 0; type < kPieceTypes; ++type)
      need[type] = board.spaces[pad][type] > 0 ? -1 : moves_to_bring(free[type], board.bank[type] > 0, pad);
  }
  // Per rocket size: the pieces on the pad plus what each colour of that size needs.
  std::array<int, kSizes> by_size() const {
    std::array<int, kSizes> cost{};
    for (int size = 0; size < kSizes; ++size) {
      cost[size] = pieces;
      for (int colour = 0; colour < kColours; ++colour) cost[size] += need[piece_type(colour, size)];
    }
    return cost;
  }
  // The same with `pieces_on_pad` and one type's need replaced.
  std::array<int, kSizes> by_size(int pieces_on_pad, int type, int type_need) const {
    std::array<int, kSizes> cost = by_size();
    for (int& c : cost) c += pieces_on_pad - pieces;
    cost[size_of(type)] += type_need - need[type];
    return cost;
  }
  int distance() const { return min_of(by_size()); }
  // After `m`, whose type's free spaces become `free_after`.
  int distance_after(const Board& board, const PieceMove& m, SpaceSet free_after) const {
    const int pieces_after = pieces + (m.to == pad) - (m.from == pad);
    const int type_need =
        m.count_on(board, pad) > 0 ? -1 : moves_to_bring(free_after, m.count_in_bank(board) > 0, pad);
    return min_of(by_size(pieces_after, m.type, type_need));
  }
  static int min_of(const std::array<int, kSizes>& cost) {
    return *std::min_element(cost.begin(), cost.end());
  }
};

// Per piece type, the spaces holding one that are nobody's pad (the pads are
// looked up once: the encoder calls this for every observation). A word of
// eight types at a time, no branch per type (whether a space holds one is a
// coin flip): byte t of `near` gathers bit s for the spaces s < 8 holding type
// t, byte t of `last` bit 0 for the last space.
std::array<SpaceSet, kPieceTypes> free_spaces(const State& state, const Board& board) {
  SpaceSet pads = 0;
  for (int seat = 0; seat < state.num_players(); ++seat)
    pads |= static_cast<SpaceSet>(1u << state.pad_of(seat));
  constexpr int kLast = kSpaces - 1;
  uint64_t near[2] = {0, 0}, last[2] = {0, 0};  // [0]: types 0-7, [1]: types 8-14
  for (int space = 0; space < kSpaces; ++space) {
    if ((pads >> space) & 1u) continue;
    uint64_t words[2];
    count_words(board.spaces[space], words[0], words[1]);
    for (int w = 0; w < 2; ++w) {
      const uint64_t ones = nonzero_byte_ones(words[w]);
      if (space < kLast)
        near[w] |= ones << space;
      else
        last[w] = ones;
    }
  }
  uint8_t near_bytes[16], last_bytes[16];  // byte t: type t
  std::memcpy(near_bytes, near, sizeof near_bytes);
  std::memcpy(last_bytes, last, sizeof last_bytes);
  std::array<SpaceSet, kPieceTypes> free{};
  for (int type = 0; type < kPieceTypes; ++type)
    free[type] = static_cast<SpaceSet>(near_bytes[type] | last_bytes[type] << kLast);
  return free;
}

// Higher is better for `seat`: close to launching, and the closest opponent far.
double evaluate(const int* distance, int players, int seat) {
  if (distance[seat] == 0) return 1e6;
  int closest_opponent = 1 << 20;
  for (int p = 0; p < players; ++p)
    if (p != seat) closest_opponent = std::min(closest_opponent, distance[p]);
  if (closest_opponent == 0) return -1e6;
  return -distance[seat] + kOpponentWeight * closest_opponent;
}

// The board after Total System Failure: the mover's pad back to the Bank.
Board board_after_failure(const State& state) {
  Board b = state.board();
  auto& pad = b.spaces[state.pad_of(state.current_player())];
  for (int t = 0; t < kPieceTypes; ++t) b.bank[t] = static_cast<uint8_t>(b.bank[t] + pad[t]);
  pad.fill(0);
  return b;
}

// Calls f(a) for each legal action other than standing still, in id order
// (ties are broken at random along it), skipping the spaces without pieces.
template <class F>
void for_each_scored_action(const State& state, const uint8_t* mask, F&& f) {
  if (state.phase() == Phase::kNewPart) {
    for (Action a = kTakeBase; a < kMoveBase; ++a)
      if (mask[a] && a != kReroll) f(a);
    return;
  }
  for (int space = 0; space < kSpaces; ++space)
    for (int type = 0; type < kPieceTypes; ++type) {
      if (state.board().spaces[space][type] == 0) continue;  // no piece, no move
      const Action first = kMoveBase + (space * kPieceTypes + type) * kDirections;
      for (Action a = first; a < first + kDirections; ++a)
        if (mask[a]) f(a);
    }
  if (mask[kTotalSystemFailure]) f(kTotalSystemFailure);
}

// estimate_returns' model, per player count (2, 3, 4): a seat's odds of
// launching first are exp(-slope * its rocket_distance + the mover's bonus).
// Fitted by maximum likelihood to every fourth position of 20,000 (2 players)
// and 15,000 (3 and 4 players) games between heuristic bots; the bonus of the
// seat to move depends on where it is in its turn: before its new part, or
// with 1 to 4 moves left (ending the turn hands a full turn to the next seat).
struct RaceOdds {
  double slope;
  double mover_bonus[5];  // [0]: new part; [m]: m moves left
};
constexpr RaceOdds kRaceOdds[kMaxPlayers - 1] = {
    {0.30, {0.27, -0.13, -0.16, 0.22, 0.12}},
    {0.19, {0.25, -0.09, -0.04, 0.02, 0.02}},
    {0.20, {0.25, 0.02, -0.11, 0.09, 0.05}},
};

}  // namespace

void estimate_returns(const State& state, float* out) {
  const int players = state.num_players();
  std::fill(out, out + players, 0.0f);
  if (state.is_terminal()) return;
  const RaceOdds& odds = kRaceOdds[players - 2];
  const auto free = free_spaces(state, state.board());
  double weight[kMaxPlayers], total = 0.0;
  for (int p = 0; p < players; ++p) {
    double score = -odds.slope * PadCost(state, state.board(), p, free).distance();
    if (p == state.current_player() && state.phase() != Phase::kSetup)
      score += odds.mover_bonus[state.phase() == Phase::kNewPart ? 0 : std::clamp(state.moves_left(), 1, 4)];
    weight[p] = std::exp(score);
    total += weight[p];
  }
  // The expected returns: each seat's returns as the sole winner, weighted by its odds.
  for (int winner = 0; winner < players; ++winner) {
    double standing[kMaxPlayers] = {};
    standing[winner] = 1.0;
    float returns[kMaxPlayers];
    compute_returns(state.config().reward, players, standing, standing, returns);
    for (int p = 0; p < players; ++p) out[p] += static_cast<float>(weight[winner] / total) * returns[p];
  }
}

std::array<std::array<int, kSizes>, kMaxPlayers> rocket_distances_by_size(const State& state,
                                                                          const Board& board) {
  const auto free = free_spaces(state, board);
  std::array<std::array<int, kSizes>, kMaxPlayers> cost{};
  for (int seat = 0; seat < state.num_players(); ++seat)
    cost[seat] = PadCost(state, board, seat, free).by_size();
  return cost;
}

int rocket_distance(const State& state, const Board& board, int seat) {
  return PadCost(state, board, seat, free_spaces(state, board)).distance();
}

Action heuristic_action(const State& state, Rng& rng) {
  if (state.phase() == Phase::kSetup) return kSetupBase + static_cast<int>(rng.below(kSizes));
  const int seat = state.current_player(), players = state.num_players();
  uint8_t mask[kNumActions];
  state.legal_actions_mask(mask);
  const Board& board = state.board();
  const auto free = free_spaces(state, board);
  std::array<PadCost, kMaxPlayers> costs;
  int distance[kMaxPlayers];
  for (int p = 0; p < players; ++p) {
    costs[p] = PadCost(state, board, p, free);
    distance[p] = costs[p].distance();
  }
  // Standing still (ending the turn, or re-rolling) is worth the current position.
  double best_value = evaluate(distance, players, seat);
  Action best = state.phase() == Phase::kMoves ? kEndTurn : (mask[kReroll] ? kReroll : -1);
  int ties = 1;
  for_each_scored_action(state, mask, [&](Action a) {
    PieceMove m;
    if (piece_move(a, m)) {
      const SpaceSet free_after = m.free_after(state, board, free[m.type]);
      for (int p = 0; p < players; ++p) distance[p] = costs[p].distance_after(board, m, free_after);
    } else {
      const Board after = board_after_failure(state);
      const auto free_after_failure = free_spaces(state, after);
      for (int p = 0; p < players; ++p) distance[p] = PadCost(state, after, p, free_after_failure).distance();
    }
    const double value = evaluate(distance, players, seat);
    if (best < 0 || value > best_value + 1e-9) {
      best_value = value;
      best = a;
      ties = 1;
    } else if (value > best_value - 1e-9 && best != kEndTurn && best != kReroll &&
               rng.below(static_cast<uint32_t>(++ties)) == 0) {
      best = a;  // break ties at random so the bot is not predictable
    }
  });
  return best;
}

}  // namespace rocketgym::launchpad23
