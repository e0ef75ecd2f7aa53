// Lift Off: the facts a seat observes in the drafts (rulebook, "Draft and play
// specialists" and the objective draft; rulings 10 and 26),
// for the resampled-world check (world_consistency.h).
//
// Each draft has two simultaneous hidden passes: keep 1 and pass 2, then keep
// 2 and pass 1 (specialists in the direction the start player chose,
// objectives always to the left). The viewer follows the cards it passed
// together (a group) with a bound per seat: "seat w holds at most m of them".
//   - The receiver holds at most all of them, the others none.
//   - At each later pass, seat w holds at most what it could keep of its own
//     share (its bound, at most the number of cards it kept) plus what it
//     could be given (its giver's bound, at most the number the giver passed).
//   - A seat holds at most as many as its hand has cards (public counts).
//   - A card the viewer sees (played, or passed to the viewer) leaves the group.
// Specialists leave hands only by a public play; an objective also leaves its
// hand face down for money in phase 2, and then lies with the same seat, so
// for objectives a seat's hand and its face-down discards count as one.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/game_model.h"
#include "games/lift_off/lift_off_game.h"
#include "tests/common/world_consistency.h"

namespace rocketgym::testing {
namespace {

using namespace lift_off;

const State& typed(const AnyState& s) { return dynamic_cast<const StateModel<Game>&>(s).state(); }

enum class Kind { kSpecialist, kObjective };

// The cards a seat holds of one kind (for objectives: in hand or discarded face down by it).
uint64_t held(const State& s, int seat, Kind kind) {
  const Player& p = s.player(seat);
  uint64_t out = 0;
  if (kind == Kind::kSpecialist) {
    for (int i = 0; i < p.hand_size; ++i) out |= uint64_t{1} << p.hand[static_cast<std::size_t>(i)];
  } else {
    for (int i = 0; i < p.num_objectives; ++i)
      out |= uint64_t{1} << p.objectives[static_cast<std::size_t>(i)];
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      out |= uint64_t{1} << p.discarded_objectives[static_cast<std::size_t>(i)];
  }
  return out;
}

bool is_pass_of(Step step, Kind kind) {
  return kind == Kind::kSpecialist ? step == Step::kSpecialistKeep || step == Step::kSpecialistPass
                                   : step == Step::kObjectiveKeep || step == Step::kObjectivePass;
}

std::string cards(uint64_t mask, Kind kind) {
  std::string out;
  for (int c = 0; c < 64; ++c)
    if (mask >> c & 1)
      out += (out.empty() ? "" : ", ") +
             std::string(kind == Kind::kSpecialist ? "specialist " : "objective ") + std::to_string(c);
  return out;
}

struct Group {  // cards the viewer passed together: all in hands, at most most[w] with seat w
  Kind kind;
  uint64_t cards;
  std::array<int, kMaxPlayers> most;
  std::string seen;  // how the viewer knows, for the message
  int passes = 0;    // passes since
  bool operator==(const Group& o) const { return kind == o.kind && cards == o.cards && most == o.most; }
  bool operator!=(const Group& o) const { return !(*this == o); }
};

class LiftOffObserver final : public WorldObserver {
 public:
  LiftOffObserver(int viewer, int players) : viewer_(viewer), players_(players) {}

  bool observe(const AnyState& before, Action a, const AnyState& after) override {
    const State& b = typed(before);
    const State& s = typed(after);
    const auto was = groups_;
    if (a >= actions::kPlaySpecialist && a < actions::kPlaySpecialist + kMaxSpecialists) {
      const int card = a - actions::kPlaySpecialist, seat = b.current_player();
      for (Group& g : groups_)
        if (g.kind == Kind::kSpecialist && (g.cards >> card & 1)) {
          g.cards &= ~(uint64_t{1} << card);
          g.most[static_cast<std::size_t>(seat)] = std::max(0, g.most[static_cast<std::size_t>(seat)] - 1);
        }
    }
    follow_pass(b, s, Kind::kSpecialist, b.direction());
    follow_pass(b, s, Kind::kObjective, 1);
    std::vector<Group> kept;
    for (Group g : groups_) {
      for (int w = 0; w < players_; ++w) {
        int& most = g.most[static_cast<std::size_t>(w)];
        most = std::min(most, __builtin_popcountll(held(s, w, g.kind)));
      }
      if (g.cards != 0) kept.push_back(g);
    }
    groups_ = kept;
    return groups_ != was;
  }

  void check(const AnyState& world, std::vector<BrokenFact>& broken) const override {
    const State& w = typed(world);
    for (const Group& g : groups_) {
      uint64_t in_hands = 0;
      for (int p = 0; p < players_; ++p) {
        const uint64_t there = g.cards & held(w, p, g.kind);
        in_hands |= there;
        if (__builtin_popcountll(there) > g.most[static_cast<std::size_t>(p)])
          broken.push_back(
              {"draft: of the cards a seat passed, each hand holds at most what it could keep or be given",
               describe(g) + ": player " + std::to_string(p) + " can hold at most " +
                   std::to_string(g.most[static_cast<std::size_t>(p)]) + " of them (" + bounds(g) +
                   "), but holds " + cards(there, g.kind)});
      }
      if ((g.cards & ~in_hands) != 0)
        broken.push_back({"draft: the cards a seat passed stay in hands until played",
                          describe(g) + ", but " + cards(g.cards & ~in_hands, g.kind) + " is in no hand"});
    }
  }

 private:
  static std::string describe(const Group& g) {
    return g.seen + " (" + std::to_string(g.passes) + " pass" + (g.passes == 1 ? "" : "es") + " since)";
  }

  int next(int seat, int dir) const { return (seat + dir + players_) % players_; }

  std::string bounds(const Group& g) const {
    std::string out = "bounds";
    for (int p = 0; p < players_; ++p) out += " " + std::to_string(g.most[static_cast<std::size_t>(p)]);
    return out;
  }

  void follow_pass(const State& b, const State& s, Kind kind, int dir) {
    if (!is_pass_of(b.step(), kind)) return;
    std::array<uint64_t, kMaxPlayers> passed{};
    std::array<int, kMaxPlayers> kept{};
    bool moved = false;
    for (int p = 0; p < players_; ++p) {
      const auto i = static_cast<std::size_t>(p);
      passed[i] = held(b, p, kind) & ~held(s, p, kind);
      kept[i] = __builtin_popcountll(held(b, p, kind) & held(s, p, kind));
      moved = moved || passed[i] != 0;
    }
    if (!moved) return;  // a pick, not yet the pass
    const uint64_t mine = held(s, viewer_, kind);
    for (Group& g : groups_) {
      if (g.kind != kind) continue;
      const auto was = g.most;
      for (int w = 0; w < players_; ++w) {
        const auto from = static_cast<std::size_t>(next(w, -dir));
        g.most[static_cast<std::size_t>(w)] =
            std::min(was[static_cast<std::size_t>(w)], kept[static_cast<std::size_t>(w)]) +
            std::min(was[from], __builtin_popcountll(passed[from]));
      }
      g.cards &= ~mine;  // the viewer sees what it holds
      g.most[static_cast<std::size_t>(viewer_)] = 0;
      ++g.passes;
    }
    const uint64_t given = passed[static_cast<std::size_t>(viewer_)];
    Group g{kind, given, {}, ""};
    g.most[static_cast<std::size_t>(next(viewer_, dir))] = __builtin_popcountll(given);
    g.seen = "the viewer (player " + std::to_string(viewer_) + ") passed " + cards(given, kind) +
             " to player " + std::to_string(next(viewer_, dir)) + " in round " + std::to_string(b.round());
    groups_.push_back(g);
  }

  int viewer_;
  int players_;
  std::vector<Group> groups_;
};
const bool registered =
    register_world_observer("lift_off", [](int viewer, int players) -> std::unique_ptr<WorldObserver> {
      return std::make_unique<LiftOffObserver>(viewer, players);
    });

}  // namespace
}  // namespace rocketgym::testing
