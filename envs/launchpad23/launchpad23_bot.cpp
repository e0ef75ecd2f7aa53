#include "envs/launchpad23/launchpad23_bot.h"

#include <algorithm>
#include <cstdlib>

namespace rocketgym::launchpad23 {
namespace {

constexpr int kFromBank = 3;      // a Bank piece needs a lucky roll, then moves
constexpr int kFromOtherPad = 4;  // only a steal can free it
constexpr double kOpponentWeight = 0.4;

int manhattan(int a, int b) { return std::abs(a / 3 - b / 3) + std::abs(a % 3 - b % 3); }

int nearest(const State& state, const Board& board, int type, int pad) {
  int best = board.bank[type] > 0 ? kFromBank : kFromOtherPad;
  for (int space = 0; space < kSpaces; ++space) {
    if (space == pad || board.spaces[space][type] == 0) continue;
    const int owner = state.owner_of(space);
    if (owner < 0) best = std::min(best, manhattan(space, pad));
  }
  return best;
}

// Higher is better for `seat`: close to launching, and the closest opponent far.
double evaluate(const State& state, const Board& board, int seat) {
  const int mine = rocket_distance(state, board, seat);
  if (mine == 0) return 1e6;
  int closest_opponent = 1 << 20;
  for (int p = 0; p < state.num_players(); ++p)
    if (p != seat) closest_opponent = std::min(closest_opponent, rocket_distance(state, board, p));
  if (closest_opponent == 0) return -1e6;
  return -mine + kOpponentWeight * closest_opponent;
}

// The board after a new-part or move action (no chance involved).
Board board_after(const State& state, Action a) {
  Board b = state.board();
  if (a >= kTakeBase && a < kReroll) {
    --b.bank[a - kTakeBase];
    ++b.spaces[kFactory][a - kTakeBase];
  } else if (a >= kStealBase && a < kMoveBase) {
    const int space = (a - kStealBase) / kPieceTypes, type = (a - kStealBase) % kPieceTypes;
    --b.spaces[space][type];
    ++b.spaces[kFactory][type];
  } else if (a >= kMoveBase && a < kTotalSystemFailure) {
    const int x = a - kMoveBase;
    const int direction = x % kDirections, type = (x / kDirections) % kPieceTypes;
    const int space = x / kDirections / kPieceTypes;
    --b.spaces[space][type];
    ++b.spaces[neighbour(space, direction)][type];
  } else if (a == kTotalSystemFailure) {
    auto& pad = b.spaces[state.pad_of(state.current_player())];
    for (int t = 0; t < kPieceTypes; ++t) b.bank[t] = static_cast<uint8_t>(b.bank[t] + pad[t]);
    pad.fill(0);
  }
  return b;
}

}  // namespace

std::array<int, kSizes> rocket_distance_by_size(const State& state, const Board& board, int seat) {
  const int pad = state.pad_of(seat);
  const auto& on_pad = board.spaces[pad];
  std::array<int, kSizes> cost{};
  for (int size = 0; size < kSizes; ++size) {
    cost[size] = board.pieces_on(pad);  // every piece leaves unless it is a wanted one
    for (int colour = 0; colour < kColours; ++colour) {
      const int type = piece_type(colour, size);
      if (on_pad[type] > 0)
        --cost[size];
      else
        cost[size] += nearest(state, board, type, pad);
    }
  }
  return cost;
}

int rocket_distance(const State& state, const Board& board, int seat) {
  const auto cost = rocket_distance_by_size(state, board, seat);
  return *std::min_element(cost.begin(), cost.end());
}

Action heuristic_action(const State& state, Rng& rng) {
  if (state.phase() == Phase::kSetup) return kSetupBase + static_cast<int>(rng.below(kSizes));
  const int seat = state.current_player();
  uint8_t mask[kNumActions];
  state.legal_actions_mask(mask);
  // Standing still (ending the turn, or re-rolling) is worth the current position.
  double best_value = evaluate(state, state.board(), seat);
  Action best = state.phase() == Phase::kMoves ? kEndTurn : (mask[kReroll] ? kReroll : -1);
  int ties = 1;
  for (Action a = 0; a < kNumActions; ++a) {
    if (!mask[a] || a == kEndTurn || a == kReroll) continue;
    const double value = evaluate(state, board_after(state, a), seat);
    if (best < 0 || value > best_value + 1e-9) {
      best_value = value;
      best = a;
      ties = 1;
    } else if (value > best_value - 1e-9 && best != kEndTurn && best != kReroll &&
               rng.below(static_cast<uint32_t>(++ties)) == 0) {
      best = a;  // break ties at random so the bot is not predictable
    }
  }
  return best;
}

}  // namespace rocketgym::launchpad23
