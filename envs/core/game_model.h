// Adapters from a game's concrete types to the type-erased interfaces in
// game.h, and register_game<G>() which puts a game into the registry.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/vector_env.h"

namespace rocketgym {

// Detects the optional State::observation_string(int viewer).
template <class S, class = void>
struct HasObservationString : std::false_type {};
template <class S>
struct HasObservationString<S, std::void_t<decltype(std::declval<const S&>().observation_string(0))>>
    : std::true_type {};

// Detects the optional State::is_public_action(Action).
template <class S, class = void>
struct HasIsPublicAction : std::false_type {};
template <class S>
struct HasIsPublicAction<S, std::void_t<decltype(std::declval<const S&>().is_public_action(Action{}))>>
    : std::true_type {};

template <class G>
class StateModel final : public AnyState {
 public:
  using Config = typename G::Config;
  using State = typename G::State;

  StateModel(std::shared_ptr<const Config> config, State state)
      : config_(std::move(config)), state_(std::move(state)) {}

  std::unique_ptr<AnyState> clone() const override { return std::make_unique<StateModel>(config_, state_); }
  int num_players() const override { return state_.num_players(); }
  int num_actions() const override {
    static const int n = G::info().num_actions;  // info() builds strings: look it up once
    return n;
  }
  int current_player() const override { return state_.current_player(); }
  void legal_actions_mask(uint8_t* out) const override { state_.legal_actions_mask(out); }
  bool is_legal(Action a) const override { return a >= 0 && a < num_actions() && state_.is_legal(a); }
  void apply(Action a) override {
    if (a < 0 || a >= num_actions())
      throw IllegalAction("action " + std::to_string(a) + " out of range [0, " +
                          std::to_string(num_actions() - 1) + "]");
    state_.apply(a);
  }
  bool is_terminal() const override { return state_.is_terminal(); }
  bool is_truncated() const override { return state_.is_truncated(); }
  void returns(float* out) const override { state_.returns(out); }
  void scores(int* out) const override { state_.scores(out); }
  void redeterminize(int viewer, uint64_t seed) override {
    check_viewer(viewer);
    Rng rng(seed);
    state_.redeterminize(viewer, rng);
  }
  std::string to_string() const override { return state_.to_string(); }
  std::string observation_string(int viewer) const override {
    check_viewer(viewer);
    if constexpr (HasObservationString<State>::value)
      return state_.observation_string(viewer);
    else
      return state_.to_string();
  }
  std::string action_to_string(Action a) const override {
    if (a < 0 || a >= num_actions()) return "<action " + std::to_string(a) + " out of range>";
    return state_.action_to_string(a);
  }
  bool is_public_action(Action a) const override {
    if constexpr (HasIsPublicAction<State>::value)
      return state_.is_public_action(a);
    else
      return true;
  }
  std::string to_json() const override { return state_.to_json().dump(1); }
  std::vector<int> observation_shape() const override {
    return G::Encoder::shape(*config_, state_.num_players());
  }
  void encode(int viewer, float* out) const override {
    check_viewer(viewer);
    G::Encoder::encode(state_, viewer, out);
  }
  Action heuristic_action(uint64_t seed) const override {
    if (state_.is_terminal()) throw Error("the game is over: no action to choose");
    Rng rng(seed);
    return G::heuristic_action(state_, rng);
  }
  void check_invariants() const override { state_.check_invariants(); }

  const State& state() const { return state_; }
  State& state() { return state_; }

 private:
  void check_viewer(int viewer) const {
    if (viewer < 0 || viewer >= num_players())
      throw Error("viewer " + std::to_string(viewer) + " out of range [0, " +
                  std::to_string(num_players() - 1) + "]");
  }
  std::shared_ptr<const Config> config_;
  State state_;
};

template <class G>
class VectorEnvModel final : public AnyVectorEnv {
 public:
  VectorEnvModel(std::shared_ptr<const typename G::Config> config, int n, int players, uint64_t seed,
                 int threads)
      : env_(std::move(config), n, players, seed, threads) {}
  int num_envs() const override { return env_.num_envs(); }
  int num_players() const override { return env_.num_players(); }
  int num_actions() const override { return env_.num_actions(); }
  std::vector<int> observation_shape() const override {
    return G::Encoder::shape(*env_.config(), env_.num_players());
  }
  int observation_size() const override { return env_.observation_size(); }
  void reset(uint64_t seed) override { env_.reset(seed); }
  void step(const Action* actions) override { env_.step(actions); }
  void sample_random_actions(Action* out) override { env_.sample_random_actions(out); }
  void heuristic_actions(Action* out) override { env_.heuristic_actions(out); }
  float* observations() override { return env_.observations(); }
  uint8_t* action_masks() override { return env_.action_masks(); }
  int32_t* current_players() override { return env_.current_players(); }
  float* rewards() override { return env_.rewards(); }
  uint8_t* terminated() override { return env_.terminated(); }
  uint8_t* truncated() override { return env_.truncated(); }
  int32_t* episode_steps() override { return env_.episode_steps(); }
  std::unique_ptr<AnyState> state(int i) const override {
    if (i < 0 || i >= env_.num_envs()) throw Error("env index " + std::to_string(i) + " out of range");
    return std::make_unique<StateModel<G>>(env_.config(), env_.state(i));
  }
  int num_threads() const override { return env_.num_threads(); }
  void set_num_threads(int n) override { env_.set_num_threads(n); }
  VectorEnv<G>& env() { return env_; }

 private:
  VectorEnv<G> env_;
};

template <class G>
class GameModel final : public AnyGame {
 public:
  using Config = typename G::Config;
  using State = typename G::State;

  explicit GameModel(std::shared_ptr<const Config> config) : config_(std::move(config)), info_(G::info()) {}

  const GameInfo& info() const override { return info_; }
  std::vector<int> observation_shape(int n) const override {
    check_players(n);
    return G::Encoder::shape(*config_, n);
  }
  std::unique_ptr<AnyState> new_state(int n, uint64_t seed) const override {
    check_players(n);
    return std::make_unique<StateModel<G>>(config_, State(*config_, n, seed));
  }
  std::unique_ptr<AnyState> state_from_json(const std::string& text) const override {
    Json doc;
    try {
      doc = Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
      throw SerializationError(std::string("state document is not valid JSON: ") + e.what());
    }
    try {
      State s = State::from_json(doc, *config_);
      check_players(s.num_players());
      s.check_invariants();
      return std::make_unique<StateModel<G>>(config_, std::move(s));
    } catch (const InvariantViolation& e) {
      throw SerializationError(std::string("state document describes an impossible position: ") + e.what());
    }
  }
  std::unique_ptr<AnyVectorEnv> new_vector_env(int n, int players, uint64_t seed,
                                               int threads) const override {
    check_players(players);
    return std::make_unique<VectorEnvModel<G>>(config_, n, players, seed, threads);
  }
  const std::shared_ptr<const Config>& config() const { return config_; }

 private:
  std::shared_ptr<const Config> config_;
  GameInfo info_;
};

template <class G>
void register_game(Registry& registry) {
  GameEntry entry;
  entry.info = G::info();
  entry.load = [](const ConfigNode& node) -> std::shared_ptr<AnyGame> {
    auto config = std::make_shared<const typename G::Config>(G::load_config(node));
    return std::make_shared<GameModel<G>>(std::move(config));
  };
  registry.add(std::move(entry));
}

}  // namespace rocketgym
