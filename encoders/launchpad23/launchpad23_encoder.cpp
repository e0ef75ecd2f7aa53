#include "encoders/launchpad23/launchpad23_encoder.h"

#include <algorithm>
#include <array>

#include "envs/launchpad23/launchpad23_bot.h"

namespace rocketgym::launchpad23 {
namespace {

constexpr int kCells = kSpaces;

void broadcast(float* out, int channel, float value) { std::fill_n(out + channel * kCells, kCells, value); }

int relative(int seat, int viewer, int n) { return (seat - viewer + n) % n; }

// Channels [first, first + kPieceTypes): the piece types the pad of `seat`
// wants, given its distance per rocket size.
void encode_wanted(const State& s, int seat, const std::array<int, kSizes>& cost, int first, float* out) {
  const int cheapest = *std::min_element(cost.begin(), cost.end());
  const auto& on_pad = s.board().spaces[s.pad_of(seat)];
  for (int t = 0; t < kPieceTypes; ++t)
    if (cost[size_of(t)] == cheapest && on_pad[t] == 0) broadcast(out, first + t, 1.0f);
}

void encode_distances(const State& s, int viewer, float* out) {
  const int n = s.num_players();
  std::array<int, kSizes> own_cost{}, closest_cost{};
  int closest_opponent = -1, closest_distance = 1 << 20;
  const auto costs = rocket_distances_by_size(s, s.board());
  for (int k = 0; k < n; ++k) {
    const int seat = (viewer + k) % n;
    const auto& cost = costs[seat];
    const int distance = *std::min_element(cost.begin(), cost.end());  // rocket_distance
    broadcast(out, 68 + k, static_cast<float>(distance) / 16.0f);
    for (int space = 0; space < kSpaces; ++space)
      out[(72 + k) * kCells + space] = static_cast<float>(space_distance(space, s.pad_of(seat))) / 4.0f;
    if (k == 0) own_cost = cost;
    if (k > 0 && distance < closest_distance)
      closest_opponent = seat, closest_distance = distance, closest_cost = cost;
  }
  encode_wanted(s, viewer, own_cost, 76, out);
  if (closest_opponent >= 0) encode_wanted(s, closest_opponent, closest_cost, 91, out);
}

}  // namespace

void Encoder::encode(const State& s, int viewer, float* out) {
  std::fill_n(out, kChannels * kCells, 0.0f);
  const Board& board = s.board();
  const int n = s.num_players();
  for (int space = 0; space < kSpaces; ++space) {
    // Most of the 15 counts are 0, which the cleared planes already hold.
    for (int t = 0; t < kPieceTypes; ++t)
      if (const int pieces = board.spaces[space][t]) out[t * kCells + space] = pieces / 2.0f;
    const int owner = s.owner_of(space);
    if (owner >= 0) out[(15 + relative(owner, viewer, n)) * kCells + space] = 1.0f;
  }
  out[19 * kCells + kFactory] = 1.0f;
  for (int t = 0; t < kPieceTypes; ++t) broadcast(out, 20 + t, board.bank[t] / 2.0f);
  const bool rolled = s.phase() == Phase::kNewPart || s.phase() == Phase::kMoves;
  if (rolled) {
    broadcast(out, 35 + s.roll().size_face, 1.0f);
    broadcast(out, 41 + s.roll().colour_face, 1.0f);
  }
  if (s.phase() != Phase::kGameOver) broadcast(out, 47 + static_cast<int>(s.phase()), 1.0f);
  broadcast(out, 50, s.rerolled() ? 1.0f : 0.0f);
  broadcast(out, 51, s.moves_left() / 4.0f);
  broadcast(out, 52, static_cast<float>(s.turn()) / static_cast<float>(s.config().max_turns));
  if (s.phase() == Phase::kSetup) {
    if (s.has_chosen_setup(viewer)) broadcast(out, 53 + s.setup_choice(viewer), 1.0f);
    for (int p = 0; p < n; ++p)
      if (s.has_chosen_setup(p)) broadcast(out, 56 + relative(p, viewer, n), 1.0f);
  }
  if (!s.is_terminal()) broadcast(out, 60 + relative(s.current_player(), viewer, n), 1.0f);
  broadcast(out, 64 + n - 2, 1.0f);
  if (s.phase() == Phase::kNewPart && s.shortage()) broadcast(out, 67, 1.0f);
  encode_distances(s, viewer, out);
}

}  // namespace rocketgym::launchpad23
