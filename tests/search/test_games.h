// Tiny games for testing the search. Each satisfies the part of the State
// contract (docs/ADDING_A_GAME.md) that the search uses, and each has an
// answer that can be worked out by hand:
//   Nim        - perfect information, forced wins.
//   Kingmaker  - three players; only max-n values find the right first move.
//   HiddenCard - a hidden card; a search that peeks at it plays a different
//                move from one that only samples what the viewer may know.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/rng.h"

namespace rocketgym::search_test {

// --- Nim: take 1, 2 or 3 stones; whoever takes the last stone wins ----------
// Actions: [0, 3) take (a + 1) stones; 3 is never legal (checks that the
// search only plays legal moves). Returns: winner +1, the others -1/(n-1).
class NimState {
 public:
  NimState(int num_players, int stones) : players_(num_players), stones_(stones) {}

  int num_players() const { return players_; }
  int current_player() const { return stones_ == 0 ? -1 : current_; }
  int stones() const { return stones_; }
  bool is_legal(Action a) const { return a >= 0 && a < 3 && a + 1 <= stones_; }
  void legal_actions_mask(uint8_t* out) const {
    for (Action a = 0; a < 4; ++a) out[a] = is_legal(a) ? 1 : 0;
  }
  void apply(Action a) {
    if (!is_legal(a)) throw IllegalAction("nim: illegal action " + std::to_string(a));
    stones_ -= a + 1;
    if (stones_ == 0) {
      winner_ = current_;
    } else {
      current_ = (current_ + 1) % players_;
    }
  }
  bool is_terminal() const { return stones_ == 0; }
  bool is_truncated() const { return false; }
  void returns(float* out) const {
    for (int p = 0; p < players_; ++p)
      out[p] = !is_terminal() ? 0.0f : p == winner_ ? 1.0f : -1.0f / static_cast<float>(players_ - 1);
  }
  void redeterminize(int, Rng& rng) { rng_.reseed(rng.next()); }  // nothing hidden, no chance

 private:
  int players_;
  int stones_;
  int current_ = 0;
  int winner_ = -1;
  Rng rng_;
};

struct Nim {
  using State = NimState;
  static GameInfo info() {
    GameInfo i;
    i.id = "test_nim";
    i.min_players = 2;
    i.max_players = 4;
    i.num_actions = 4;
    i.max_decisions = 64;
    return i;
  }
  // Perfect play: leave a multiple of 4 when possible, else take 1.
  static Action heuristic_action(const State& s, Rng&) {
    return s.stones() % 4 == 0 ? 0 : s.stones() % 4 - 1;
  }
};

// --- Kingmaker: a fixed three-player game tree ------------------------------
// Seat 0 picks Left (0) or Right (1); then seat 1 (after Left) or seat 2
// (after Right) picks outcome 0 or 1. Values (seat 0, seat 1, seat 2):
//   Left:  0 -> ( 1.0, -0.5, -0.5)   1 -> (-0.5, 0.0, 0.5)   seat 1 takes 1
//   Right: 0 -> ( 0.0,  0.0,  0.1)   1 -> ( 0.2, 0.0, -0.2)  seat 2 takes 0
// So with each seat playing for itself (max-n), Left is worth -0.5 to seat 0
// and Right 0.0: seat 0 must go Right. Averaging the outcomes (Left 0.25,
// Right 0.1) or hoping for the best (Left 1.0) both wrongly pick Left.
class KingmakerState {
 public:
  static constexpr std::array<std::array<std::array<float, 3>, 2>, 2> kOutcome{{
      {{{1.0f, -0.5f, -0.5f}, {-0.5f, 0.0f, 0.5f}}},
      {{{0.0f, 0.0f, 0.1f}, {0.2f, 0.0f, -0.2f}}},
  }};

  int num_players() const { return 3; }
  int current_player() const { return side_ < 0 ? 0 : outcome_ < 0 ? 1 + side_ : -1; }
  bool is_legal(Action a) const { return current_player() >= 0 && (a == 0 || a == 1); }
  void legal_actions_mask(uint8_t* out) const { out[0] = out[1] = is_legal(0) ? 1 : 0; }
  void apply(Action a) {
    if (!is_legal(a)) throw IllegalAction("kingmaker: illegal action");
    (side_ < 0 ? side_ : outcome_) = a;
  }
  bool is_terminal() const { return outcome_ >= 0; }
  bool is_truncated() const { return false; }
  void returns(float* out) const {
    for (int p = 0; p < 3; ++p) out[p] = is_terminal() ? kOutcome[side_][outcome_][p] : 0.0f;
  }
  void redeterminize(int, Rng&) {}

 private:
  int side_ = -1;
  int outcome_ = -1;
};

struct Kingmaker {
  using State = KingmakerState;
  static GameInfo info() {
    GameInfo i;
    i.id = "test_kingmaker";
    i.min_players = i.max_players = 3;
    i.num_actions = 2;
    i.max_decisions = 2;
    return i;
  }
  static Action heuristic_action(const State&, Rng&) { return 0; }
};

// --- HiddenCard: guess the card seat 1 holds --------------------------------
// Seat 1 is dealt card 0, 1 or 2 face down (from the state's own Rng). Seat 0
// moves first:
//   0        fold: both score 0
//   1, 2, 3  guess card 0, 1, 2 now: right +1 / -1, wrong -1 / +1
//   4        pass: seat 1 must then show the card (action 5 + card, the only
//            legal move, so seat 1's legal moves depend on the hidden card),
//            and seat 0 guesses again (1, 2, 3): right +0.5 / -0.5, wrong -1 / +1.
// Seat 0 cannot see the card, so pass (worth 0.5) beats fold (0) and a blind
// guess (1/3 - 2/3 = -1/3). A search that peeked at the card would guess at
// once (+1).
class HiddenCardState {
 public:
  static constexpr Action kFold = 0, kGuess = 1, kPass = 4, kShow = 5;
  enum class Phase { kFirstGuess, kShow, kSecondGuess, kOver };

  explicit HiddenCardState(uint64_t seed) : rng_(seed) { card_ = static_cast<int>(rng_.below(3)); }

  static int& redeterminize_calls() {
    static int calls = 0;
    return calls;
  }
  static int& last_viewer() {
    static int viewer = -1;
    return viewer;
  }

  int num_players() const { return 2; }
  int card() const { return card_; }
  void set_card(int card) { card_ = card; }
  int current_player() const { return phase_ == Phase::kOver ? -1 : phase_ == Phase::kShow ? 1 : 0; }
  bool is_legal(Action a) const {
    switch (phase_) {
      case Phase::kFirstGuess:
        return a >= kFold && a <= kPass;
      case Phase::kShow:
        return a == kShow + card_;
      case Phase::kSecondGuess:
        return a >= kGuess && a < kGuess + 3;
      case Phase::kOver:
        return false;
    }
    return false;
  }
  void legal_actions_mask(uint8_t* out) const {
    for (Action a = 0; a < 8; ++a) out[a] = is_legal(a) ? 1 : 0;
  }
  void apply(Action a) {
    if (a < 0 || a >= 8 || !is_legal(a)) throw IllegalAction("hidden card: illegal action");
    if (phase_ == Phase::kShow) {
      shown_ = true;
      phase_ = Phase::kSecondGuess;
    } else if (a == kFold) {
      finish(0.0f, 0.0f);
    } else if (a == kPass) {
      phase_ = Phase::kShow;
    } else {
      const bool right = a - kGuess == card_;
      const float win = phase_ == Phase::kFirstGuess ? 1.0f : 0.5f;
      finish(right ? win : -1.0f, right ? -win : 1.0f);
    }
  }
  bool is_terminal() const { return phase_ == Phase::kOver; }
  bool is_truncated() const { return false; }
  void returns(float* out) const {
    out[0] = result_[0];
    out[1] = result_[1];
  }
  // Seat 0 does not know the card until it is shown; seat 1 knows it.
  void redeterminize(int viewer, Rng& rng) {
    ++redeterminize_calls();
    last_viewer() = viewer;
    if (viewer == 0 && !shown_) card_ = static_cast<int>(rng.below(3));
    rng_.reseed(rng.next());
  }

 private:
  void finish(float seat0, float seat1) {
    result_ = {seat0, seat1};
    phase_ = Phase::kOver;
  }
  Rng rng_;
  int card_ = 0;
  bool shown_ = false;
  Phase phase_ = Phase::kFirstGuess;
  std::array<float, 2> result_{};
};

struct HiddenCard {
  using State = HiddenCardState;
  static GameInfo info() {
    GameInfo i;
    i.id = "test_hidden_card";
    i.min_players = i.max_players = 2;
    i.num_actions = 8;
    i.max_decisions = 3;
    return i;
  }
  // The lowest legal move (fold first; show the card when asked).
  static Action heuristic_action(const State& s, Rng&) {
    Action a = 0;
    while (!s.is_legal(a)) ++a;
    return a;
  }
};

// --- Bandit: one decision with known payouts --------------------------------
// Seat 0 picks arm 0, 1 or 2 and gets +1, 0 or -1 (seat 1 the opposite). With
// uniform priors and one visit per arm, the gumbel root's improved policy is
// softmax(sigma(q)) with q = (1, 0.5, 0) after min-max normalization.
class BanditState {
 public:
  int num_players() const { return 2; }
  int current_player() const { return arm_ < 0 ? 0 : -1; }
  bool is_legal(Action a) const { return arm_ < 0 && a >= 0 && a < 3; }
  void legal_actions_mask(uint8_t* out) const {
    for (Action a = 0; a < 3; ++a) out[a] = is_legal(a) ? 1 : 0;
  }
  void apply(Action a) {
    if (!is_legal(a)) throw IllegalAction("bandit: illegal action");
    arm_ = a;
  }
  bool is_terminal() const { return arm_ >= 0; }
  bool is_truncated() const { return false; }
  void returns(float* out) const {
    out[0] = is_terminal() ? 1.0f - static_cast<float>(arm_) : 0.0f;
    out[1] = -out[0];
  }
  void redeterminize(int, Rng&) {}

 private:
  int arm_ = -1;
};

struct Bandit {
  using State = BanditState;
  static GameInfo info() {
    GameInfo i;
    i.id = "test_bandit";
    i.min_players = i.max_players = 2;
    i.num_actions = 3;
    i.max_decisions = 1;
    return i;
  }
  static Action heuristic_action(const State&, Rng&) { return 2; }
};

// --- Gamble: chance resolved inside apply ------------------------------------
// Seat 0 either stays (0): +0.2, or gambles (1): a die is rolled from the
// state's own Rng, 5 or 6 wins +1, anything else loses -1 (worth -1/3). The
// die is chance the search must sample, not read: the state's Rng is reseeded
// by redeterminize, so every simulation rolls its own die.
class GambleState {
 public:
  explicit GambleState(uint64_t seed) : rng_(seed) {}
  int num_players() const { return 2; }
  int current_player() const { return result_ == kOpen ? 0 : -1; }
  bool is_legal(Action a) const { return result_ == kOpen && (a == 0 || a == 1); }
  void legal_actions_mask(uint8_t* out) const { out[0] = out[1] = is_legal(0) ? 1 : 0; }
  void apply(Action a) {
    if (!is_legal(a)) throw IllegalAction("gamble: illegal action");
    result_ = a == 0 ? 0.2f : (rng_.below(6) >= 4 ? 1.0f : -1.0f);
  }
  bool is_terminal() const { return result_ != kOpen; }
  bool is_truncated() const { return false; }
  void returns(float* out) const {
    out[0] = is_terminal() ? result_ : 0.0f;
    out[1] = -out[0];
  }
  void redeterminize(int, Rng& rng) { rng_.reseed(rng.next()); }

 private:
  static constexpr float kOpen = -9.0f;
  Rng rng_;
  float result_ = kOpen;
};

struct Gamble {
  using State = GambleState;
  static GameInfo info() {
    GameInfo i;
    i.id = "test_gamble";
    i.min_players = i.max_players = 2;
    i.num_actions = 2;
    i.max_decisions = 1;
    return i;
  }
  static Action heuristic_action(const State&, Rng&) { return 1; }
};

}  // namespace rocketgym::search_test
