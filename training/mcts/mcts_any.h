// The search for type-erased states (AnyState), for the CLI, the arena and
// Python: one virtual call per move, the search itself runs on the concrete
// state type of the game (no virtual call per step).
//
//   auto agent = rocketgym::mcts::make_mcts_agent("launchpad23", options);
//   Action a = agent->act(*state);   // state: an AnyState of that game
//
// Needs the generated list of games (generated/game_list.h, on the include
// path of every target linked with rocketgym_envs).
#pragma once

#include <memory>
#include <string>

#include "envs/core/game_model.h"
#include "generated/game_list.h"
#include "training/mcts/mcts.h"

namespace rocketgym::mcts {

class AnyMctsAgent {
 public:
  virtual ~AnyMctsAgent() = default;
  // The move chosen by a rollout ISMCTS search for the player to move.
  // Throws Error if the state is of another game or the game is over.
  virtual Action act(const AnyState& state) = 0;
  // After act(): root visit shares per action id ([num_actions]).
  virtual void visit_policy(float* out) const = 0;
  // After act(): the search's mean value for a seat.
  virtual float root_value(int seat) const = 0;
};

namespace detail {

template <class G>
class MctsAgentModel final : public AnyMctsAgent {
 public:
  explicit MctsAgentModel(const Options& options) : player_(options) {}
  Action act(const AnyState& state) override {
    const auto* model = dynamic_cast<const StateModel<G>*>(&state);
    if (model == nullptr) throw Error("mcts: the state is not a " + G::info().id + " state");
    return player_.act(model->state());
  }
  void visit_policy(float* out) const override { search().visit_policy(out); }
  float root_value(int seat) const override { return search().root_value(seat); }

 private:
  const Search<G>& search() const { return player_.search(); }
  RolloutMcts<G> player_;
};

}  // namespace detail

// A rollout ISMCTS player for the game `game_id`; throws Error for an
// unknown game or bad options.
inline std::unique_ptr<AnyMctsAgent> make_mcts_agent(const std::string& game_id, const Options& options) {
  options.validate();
  return visit_game(game_id, [&](auto game) -> std::unique_ptr<AnyMctsAgent> {
    using G = decltype(game);
    return std::make_unique<detail::MctsAgentModel<G>>(options);
  });
}

// One-shot form: searches `state` (a state of game `game_id`) and returns the move.
inline Action mcts_action(const std::string& game_id, const AnyState& state, const Options& options) {
  return make_mcts_agent(game_id, options)->act(state);
}

}  // namespace rocketgym::mcts
