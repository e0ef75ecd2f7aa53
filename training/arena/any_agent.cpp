#include "training/arena/any_agent.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "envs/core/game_model.h"
#include "generated/game_list.h"
#include "models/checkpoint.h"
#include "training/mcts/network_evaluator.h"
#include "training/policy_runner.h"

namespace rocketgym::arena {

namespace {

template <class G>
class TypedAgent final : public AnyAgent {
 public:
  using State = typename G::State;

  TypedAgent(AgentSpec spec, int players, torch::Device device)
      : spec_(std::move(spec)), players_(players), mask_(static_cast<std::size_t>(G::info().num_actions)) {
    if (spec_.net) runner_ = std::make_unique<PolicyRunner>(spec_.net, device, kBatch);
    if (spec_.kind == "ismcts") {
      search_ = std::make_unique<mcts::Search<G>>(spec_.mcts);
      if (runner_) network_ = std::make_unique<mcts::NetworkEvaluator<G>>(*runner_, 1, spec_.mcts);
      if (!runner_) rollouts_ = std::make_unique<mcts::RolloutEvaluator<G>>(spec_.mcts);
    }
  }

  const AgentSpec& spec() const override { return spec_; }
  int num_players() const override { return players_; }

  Action act(const AnyState& any, uint64_t seed) override {
    const auto* model = dynamic_cast<const StateModel<G>*>(&any);
    if (model == nullptr) throw Error("agent '" + spec_.name + "': the state is not a " + G::info().id + " state");
    if (model->num_players() != players_)
      throw Error("agent '" + spec_.name + "' was loaded for " + std::to_string(players_) + " players, not " +
                  std::to_string(model->num_players()));
    const State& state = model->state();
    if (state.is_terminal()) throw Error("agent '" + spec_.name + "': the game is over, there is no move to choose");
    const std::lock_guard<std::mutex> turn(busy_);
    Rng rng(seed);
    if (spec_.kind == "heuristic") return G::heuristic_action(state, rng);
    if (spec_.kind == "random") {
      state.legal_actions_mask(mask_.data());
      return random_legal_action(mask_.data(), G::info().num_actions, rng);
    }
    if (spec_.kind == "checkpoint") {
      G::Encoder::encode(state, state.current_player(), runner_->observation_row(0));
      state.legal_actions_mask(runner_->mask_row(0));
      runner_->evaluate(1);
      return runner_->choose(0, spec_.greedy, rng);
    }
    search_->reseed(seed);
    return runner_ ? search_->run(state, *network_) : search_->run(state, *rollouts_);
  }

  void evaluate(const float* observations, const uint8_t* masks, int count, float* probabilities,
                float* values) override {
    if (!runner_) throw Error("agent '" + spec_.name + "' (" + spec_.kind + ") has no network to evaluate");
    const std::lock_guard<std::mutex> turn(busy_);
    const int obs_size = spec_.net->spec().observation_size(), actions = G::info().num_actions;
    for (int first = 0; first < count; first += kBatch) {
      const int n = std::min(kBatch, count - first);
      for (int k = 0; k < n; ++k) {
        const auto row = static_cast<std::size_t>(first + k);
        std::memcpy(runner_->observation_row(k), observations + row * obs_size, sizeof(float) * obs_size);
        std::memcpy(runner_->mask_row(k), masks + row * actions, static_cast<std::size_t>(actions));
        if (std::none_of(masks + row * actions, masks + (row + 1) * actions, [](uint8_t m) { return m != 0; }))
          throw Error("agent '" + spec_.name + "': row " + std::to_string(row) + " has no legal action");
      }
      runner_->evaluate(n);
      for (int k = 0; k < n; ++k) {
        const auto row = static_cast<std::size_t>(first + k);
        std::copy_n(runner_->probabilities(k), actions, probabilities + row * actions);
        std::copy_n(runner_->values(k), players_, values + row * players_);
      }
    }
  }

 private:
  static constexpr int kBatch = 256;
  AgentSpec spec_;
  int players_;
  std::vector<uint8_t> mask_;
  std::unique_ptr<PolicyRunner> runner_;
  std::unique_ptr<mcts::Search<G>> search_;
  std::unique_ptr<mcts::NetworkEvaluator<G>> network_;
  std::unique_ptr<mcts::RolloutEvaluator<G>> rollouts_;
  // Held for a whole act() or evaluate(): they share mask_, the runner's
  // buffers and the search (Python calls them with the GIL released).
  std::mutex busy_;
};

}  // namespace

std::unique_ptr<AnyAgent> make_agent(AgentSpec spec, const AnyGame& game, int num_players, torch::Device device) {
  game.check_players(num_players);
  std::vector<AgentSpec> one{std::move(spec)};
  name_agents(one);
  AgentSpec& a = one.front();
  resolve_zoo(a);
  if (a.uses_network() && !a.net) {
    LoadedCheckpoint loaded = load_checkpoint(a.path, device);
    check_checkpoint_matches(loaded.meta, a.path, game.info().id, num_players, game.observation_shape(num_players),
                             game.info().num_actions);
    a.net = loaded.net;
    a.net->eval();
  }
  return visit_game(game.info().id, [&](auto g) -> std::unique_ptr<AnyAgent> {
    using G = decltype(g);
    return std::make_unique<TypedAgent<G>>(std::move(a), num_players, device);
  });
}

}  // namespace rocketgym::arena
