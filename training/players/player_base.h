// Player<G>, the interface of every player (each kind's players are in its
// file, training/players/kinds/; the factory is make_player<G> in player.h),
// and its Decision<G>. No LibTorch here, so that the command line built
// without the training library seats the players of the kinds that need none
// (act_once()).
#pragma once

#include <cstdint>
#include <string>

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

// A Player<G> of some game G, as a kind's factory returns it
// (PlayerKind::make_player, kinds.h): make_player<G> casts it back.
class UntypedPlayer {
 public:
  virtual ~UntypedPlayer() = default;
};

template <class G>
class Player : public UntypedPlayer {
 public:
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
