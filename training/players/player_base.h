// Player<G>, the interface of every player (player.h: the players of every
// kind and the factory), its Decision<G>, and the two players that need no
// network: random play and the game's heuristic bot. No LibTorch here, so
// that the command line built without the training library seats the same
// random and heuristic players (act_once()).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/game_model.h"
#include "envs/core/rng.h"

namespace rocketgym::players {

template <class G>
struct Decision {
  const typename G::State* state = nullptr;  // not over
  int seat = 0;                              // the player to move, whose move this is
  Rng* rng = nullptr;                        // this move's random stream
  uint64_t search_seed = 0;                  // seeds a search player's search for this move
  // The state encoded for `seat` and its legal mask, when the caller has them
  // already (a vector env's buffers); else the player computes what it needs.
  const float* observation = nullptr;
  const uint8_t* mask = nullptr;
  Action action = -1;  // the answer
};

template <class G>
class Player {
 public:
  virtual ~Player() = default;
  // Writes decisions[k].action for k < count. Not thread-safe: one call at a
  // time (the player keeps scratch buffers, network rows and search trees).
  virtual void act(Decision<G>* decisions, int count) = 0;
  // Network players: the masked policy [count, num_actions] and the value per
  // seat relative to the seat each row was encoded for [count, players], for
  // rows of encoder observations and legal masks. Throws Error for others.
  virtual void evaluate(const float* observations, const uint8_t* masks, int count, int players,
                        float* probabilities, float* values) {
    (void)observations, (void)masks, (void)count, (void)players, (void)probabilities, (void)values;
    throw Error("player has no network to evaluate");
  }

  // What a caller that steps many games in its own parallel loop (the
  // opponent env, opponent_env.h) may ask of the player besides act():
  //
  // Whether its move depends on the state and the decision's random stream
  // alone (random play, the heuristic bot), so that act_alone() may play it
  // on any thread, at any time, as act() would.
  virtual bool acts_alone() const { return false; }
  // That move; `mask` is room for one legal mask (the decision's own is used
  // when it has one). Only for a player that acts_alone().
  virtual Action act_alone(const Decision<G>& d, uint8_t* mask) const {
    (void)d, (void)mask;
    throw Error("player does not act alone");
  }
  // The rows of a network that runs in plain C++ (an mlp on the CPU,
  // lean_mlp.h) and can act for a few decisions at a time on the calling
  // thread: act_group(); 0 for every other player.
  virtual int group_rows() const { return 0; }
  // Before a parallel loop of act_group() calls, from one thread.
  virtual void prepare_groups() {}
  // Acts for `count` decisions (at most PolicyRunner::kGroupRows) on the
  // calling thread, with the rows [first_row, first_row + count): calls at
  // the same time must use other rows. The same moves as act().
  virtual void act_group(Decision<G>* d, int count, int first_row) {
    (void)d, (void)count, (void)first_row;
    throw Error("player does not act in groups");
  }
};

namespace detail {

template <class G>
class RandomPlayer final : public Player<G> {
 public:
  explicit RandomPlayer(int threads)
      : threads_(std::max(1, threads)), masks_(static_cast<std::size_t>(threads_) * G::info().num_actions) {}

  void act(Decision<G>* d, int count) override {
    const auto actions = static_cast<std::size_t>(G::info().num_actions);
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (int k = 0; k < count; ++k)
      d[k].action = act_alone(d[k], &masks_[static_cast<std::size_t>(omp_get_thread_num()) * actions]);
  }

  bool acts_alone() const override { return true; }
  Action act_alone(const Decision<G>& d, uint8_t* mask) const override {
    if (d.mask == nullptr) d.state->legal_actions_mask(mask);
    return random_legal_action(d.mask ? d.mask : mask, G::info().num_actions, *d.rng);
  }

 private:
  int threads_;
  std::vector<uint8_t> masks_;  // one legal mask per thread
};

template <class G>
class HeuristicPlayer final : public Player<G> {
 public:
  explicit HeuristicPlayer(int threads) : threads_(std::max(1, threads)) {}

  void act(Decision<G>* d, int count) override {
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (int k = 0; k < count; ++k) d[k].action = act_alone(d[k], nullptr);
  }

  bool acts_alone() const override { return true; }
  Action act_alone(const Decision<G>& d, uint8_t* mask) const override {
    (void)mask;
    return G::heuristic_action(*d.state, *d.rng);
  }

 private:
  int threads_;
};

}  // namespace detail

// One decision, the move of the player to move in `any` (a state of G, not
// over), asked of `player` with the random stream and search seed `seed`:
// how a seat of `rocketgym play` and Python's agents act on a type-erased
// state. `who` names the player in errors.
template <class G>
Action act_once(Player<G>& player, const AnyState& any, uint64_t seed, const std::string& who) {
  const auto* model = dynamic_cast<const StateModel<G>*>(&any);
  if (model == nullptr) throw Error(who + ": the state is not a " + G::info().id + " state");
  const typename G::State& state = model->state();
  if (state.is_terminal()) throw Error(who + ": the game is over, there is no move to choose");
  Rng rng(seed);
  Decision<G> decision{&state, state.current_player(), &rng, seed};
  player.act(&decision, 1);
  return decision.action;
}

}  // namespace rocketgym::players
