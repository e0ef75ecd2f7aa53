#include "encoders/launchpad23/launchpad23_encoder.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "envs/launchpad23/launchpad23_bot.h"

namespace rocketgym::launchpad23 {
namespace {

constexpr int kCells = kSpaces;
// The first channel of each block (the table in launchpad23_encoder.h).
constexpr int kPieceChannels = 0, kPadChannels = 15, kFactoryChannel = 19, kBankChannels = 20;
constexpr int kSizeFaceChannels = 35, kColourFaceChannels = 41, kPhaseChannels = 47;
constexpr int kRerolledChannel = 50, kMovesLeftChannel = 51, kTurnChannel = 52;
constexpr int kOwnSetupChannels = 53, kSetupMadeChannels = 56, kToMoveChannels = 60;
constexpr int kPlayerCountChannels = 64, kShortageChannel = 67;
constexpr int kMovesNeededChannels = 68, kStepsChannels = 72, kOwnWantsChannels = 76;
constexpr int kOpponentWantsChannels = kOwnWantsChannels + kPieceTypes;  // 91
// The planes that broadcast one value over the grid are [20, 72) and [76, 106): the public
// ones up to 68, then the derived ones. Every other plane varies over the board.
constexpr int kPublicBroadcast[2] = {kBankChannels, kMovesNeededChannels};
constexpr int kDerivedBroadcast[2][2] = {{kMovesNeededChannels, kStepsChannels},
                                         {kOwnWantsChannels, Encoder::kChannels}};

// A broadcast plane's value per channel (the other channels' entries are unused).
using Values = std::array<float, Encoder::kChannels>;

// count / 2 for each count a space or the Bank can hold (at most kCopies): a lookup, not a conversion.
constexpr float kHalfCount[kCopies + 1] = {0 / 2.0f, 1 / 2.0f, 2 / 2.0f};

// The planes that depend only on the player count and the viewer, for every player count and
// viewer (built at compile time): the pads and the Factory, and the steps from each space to each pad.
struct SeatPlanes {
  std::array<float, (kFactoryChannel + 1 - kPadChannels) * kCells> pads{};  // channels [15, 20)
  std::array<float, kMaxPlayers * kCells> steps{};                          // channels [72, 76)
};
using SeatTable = std::array<std::array<SeatPlanes, kMaxPlayers>, kMaxPlayers - 1>;  // [players - 2][viewer]
constexpr SeatTable seat_table() {
  SeatTable table{};
  for (int players = 2; players <= kMaxPlayers; ++players)
    for (int viewer = 0; viewer < players; ++viewer) {
      SeatPlanes& planes = table[static_cast<std::size_t>(players - 2)][static_cast<std::size_t>(viewer)];
      for (int k = 0; k < players; ++k) {
        const int pad = pad_of_seat(players, (viewer + k) % players);
        planes.pads[static_cast<std::size_t>(k * kCells + pad)] = 1.0f;
        for (int space = 0; space < kSpaces; ++space)
          planes.steps[static_cast<std::size_t>(k * kCells + space)] =
              static_cast<float>(space_distance(space, pad)) / 4.0f;
      }
      planes.pads[(kFactoryChannel - kPadChannels) * kCells + kFactory] = 1.0f;
    }
  return table;
}
constexpr SeatTable kSeatPlanes = seat_table();

// One value over a whole 3x3 plane (unrolled: two 4-float stores and one).
void broadcast(float value, float* plane) {
#pragma GCC unroll 9
  for (int space = 0; space < kCells; ++space) plane[space] = value;
}

// Four channels' values, each over its plane (unrolled: one load, then a shuffle and a
// 4-float store for each of the nine groups of four floats).
void broadcast4(const float* values, float* planes) {
  float four[4];
  std::memcpy(four, values, sizeof four);  // a copy: the stores cannot change it
#pragma GCC unroll 36
  for (int i = 0; i < 4 * kCells; ++i) planes[i] = four[i / kCells];
}

// Channels [first, end) of `v`, each over its plane.
void broadcast_channels(const Values& v, int first, int end, float* out) {
  const int fours = first + (end - first) / 4 * 4;
  for (int c = first; c < fours; c += 4) broadcast4(&v[c], out + c * kCells);
  for (int c = fours; c < end; ++c) broadcast(v[c], out + c * kCells);
}

int relative(int seat, int viewer, int n) { return (seat - viewer + n) % n; }

void clear(Values& v, int first, int end) { std::fill(v.begin() + first, v.begin() + end, 0.0f); }

// The broadcast planes read from the public state and the viewer's own setup choice.
void public_values(const State& s, int viewer, Values& v) {
  const int n = s.num_players();
  clear(v, kPublicBroadcast[0], kPublicBroadcast[1]);
  for (int t = 0; t < kPieceTypes; ++t) v[kBankChannels + t] = kHalfCount[s.board().bank[t]];
  const Phase phase = s.phase();
  if (phase == Phase::kNewPart || phase == Phase::kMoves) {
    v[kSizeFaceChannels + s.roll().size_face] = 1.0f;
    v[kColourFaceChannels + s.roll().colour_face] = 1.0f;
  }
  if (phase != Phase::kGameOver) v[kPhaseChannels + static_cast<int>(phase)] = 1.0f;
  v[kRerolledChannel] = s.rerolled() ? 1.0f : 0.0f;
  v[kMovesLeftChannel] = s.moves_left() / 4.0f;
  v[kTurnChannel] = static_cast<float>(s.turn()) / static_cast<float>(s.config().max_turns);
  if (phase == Phase::kSetup) {
    if (s.has_chosen_setup(viewer)) v[kOwnSetupChannels + s.setup_choice(viewer)] = 1.0f;
    for (int p = 0; p < n; ++p)
      if (s.has_chosen_setup(p)) v[kSetupMadeChannels + relative(p, viewer, n)] = 1.0f;
  }
  if (!s.is_terminal()) v[kToMoveChannels + relative(s.current_player(), viewer, n)] = 1.0f;
  v[kPlayerCountChannels + n - 2] = 1.0f;
  if (phase == Phase::kNewPart && s.shortage()) v[kShortageChannel] = 1.0f;
}

// Channels [first, first + kPieceTypes) (cleared): the piece types the pad of
// `seat` wants, given its distance per rocket size.
void wanted(const State& s, int seat, const std::array<int, kSizes>& cost, int first, Values& v) {
  const int cheapest = *std::min_element(cost.begin(), cost.end());
  unsigned wants = 0;  // bit t: type t has one of the cheapest sizes and is not on the pad
  for (int size = 0; size < kSizes; ++size)
    if (cost[size] == cheapest) wants |= types_of_size(size);
  for (wants &= ~unsigned{s.board().types_on(s.pad_of(seat))}; wants != 0; wants &= wants - 1)
    v[first + __builtin_ctz(wants)] = 1.0f;
}

// The derived broadcast planes: functions of the board, the seats and the viewer only.
void derived_values(const State& s, int viewer, Values& v) {
  for (const auto& range : kDerivedBroadcast) clear(v, range[0], range[1]);
  const int n = s.num_players();
  std::array<int, kSizes> own_cost{}, closest_cost{};
  int closest_opponent = -1, closest_distance = 1 << 20;
  const auto costs = rocket_distances_by_size(s, s.board());
  for (int k = 0; k < n; ++k) {
    const int seat = (viewer + k) % n;
    const auto& cost = costs[seat];
    const int distance = *std::min_element(cost.begin(), cost.end());  // rocket_distance
    v[kMovesNeededChannels + k] = static_cast<float>(distance) / 16.0f;
    if (k == 0) own_cost = cost;
    if (k > 0 && distance < closest_distance)
      closest_opponent = seat, closest_distance = distance, closest_cost = cost;
  }
  wanted(s, viewer, own_cost, kOwnWantsChannels, v);
  if (closest_opponent >= 0) wanted(s, closest_opponent, closest_cost, kOpponentWantsChannels, v);
}

// One space's entry of each piece plane.
void write_pieces(const Board& board, int space, float* out) {
  const uint8_t* counts = board.spaces[space].data();
  float* entry = out + kPieceChannels * kCells + space;
#pragma GCC unroll 15
  for (int t = 0; t < kPieceTypes; ++t) entry[t * kCells] = kHalfCount[counts[t]];
}

// The planes that depend only on the seats and the viewer: the pads, the
// Factory and the steps from each space to each pad.
void write_seat_planes(const State& s, int viewer, float* out) {
  const SeatPlanes& planes =
      kSeatPlanes[static_cast<std::size_t>(s.num_players() - 2)][static_cast<std::size_t>(viewer)];
  std::memcpy(out + kPadChannels * kCells, planes.pads.data(), sizeof planes.pads);
  std::memcpy(out + kStepsChannels * kCells, planes.steps.data(), sizeof planes.steps);
}

// Every plane is a function of what a Written records: the piece planes of the
// board, the seat planes of (viewer, players), each broadcast plane of its one
// value. A plane whose inputs did not change already holds the values encode()
// would write. (The values are never NaN nor -0, so == on floats is equality of bits.)
// With no record (`w` null) every plane is written and nothing is recorded.
void write_observation(const State& s, int viewer, float* out, Encoder::Written* w) {
  const Board& board = s.board();
  const bool valid = w != nullptr && w->valid;
  const bool same_seats = valid && w->viewer == viewer && w->players == s.num_players();
  Values v;
  public_values(s, viewer, v);
  // The derived planes cost as much as the rest of the observation: they stay as they are
  // when neither the board nor the viewer changed (a re-roll, the end of a turn, the setup).
  const bool same_derived = same_seats && std::memcmp(&board, &w->board, sizeof board) == 0;
  if (!same_derived) derived_values(s, viewer, v);
  for (int space = 0; space < kSpaces; ++space)
    if (!valid || board.spaces[space] != w->board.spaces[space]) write_pieces(board, space, out);
  if (!same_seats) write_seat_planes(s, viewer, out);
  const auto write_broadcast = [&](int first, int end) {
    if (!valid) return broadcast_channels(v, first, end, out);
    for (int c = first; c < end; ++c) {
      // Most planes keep their value: skip four at a time where all four do.
      if (c + 4 <= end && std::memcmp(&v[c], &w->planes[c], 4 * sizeof(float)) == 0) {
        c += 3;
        continue;
      }
      if (v[c] != w->planes[c]) broadcast(v[c], out + c * kCells);
    }
  };
  write_broadcast(kPublicBroadcast[0], kPublicBroadcast[1]);
  if (!same_derived)
    for (const auto& range : kDerivedBroadcast) write_broadcast(range[0], range[1]);
  if (w == nullptr) return;
  std::copy(v.begin() + kPublicBroadcast[0], v.begin() + kPublicBroadcast[1],
            w->planes.begin() + kPublicBroadcast[0]);
  if (!same_derived)
    for (const auto& range : kDerivedBroadcast)
      std::copy(v.begin() + range[0], v.begin() + range[1], w->planes.begin() + range[0]);
  w->valid = true;
  w->viewer = static_cast<int8_t>(viewer);
  w->players = static_cast<int8_t>(s.num_players());
  w->board = board;
}

}  // namespace

void Encoder::encode(const State& s, int viewer, float* out) { write_observation(s, viewer, out, nullptr); }

void Encoder::encode_changes(const State& s, int viewer, float* out, Written& written) {
  write_observation(s, viewer, out, &written);
}

}  // namespace rocketgym::launchpad23
