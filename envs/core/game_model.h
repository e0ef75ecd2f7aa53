// Adapters from a game's concrete types to the type-erased interfaces in
// game.h, and register_game<G>() which puts a game into the registry.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "envs/core/async_vector_env.h"
#include "envs/core/game.h"
#include "envs/core/json.h"
#include "envs/core/vector_env.h"

namespace rocketgym {

// Detects State::observation_string(int viewer).
template <class S, class = void>
struct HasObservationString : std::false_type {};
template <class S>
struct HasObservationString<S, std::void_t<decltype(std::declval<const S&>().observation_string(0))>>
    : std::true_type {};

// Detects State::is_public_action(Action).
template <class S, class = void>
struct HasIsPublicAction : std::false_type {};
template <class S>
struct HasIsPublicAction<S, std::void_t<decltype(std::declval<const S&>().is_public_action(Action{}))>>
    : std::true_type {};

// Detects State::is_public_decider().
template <class S, class = void>
struct HasIsPublicDecider : std::false_type {};
template <class S>
struct HasIsPublicDecider<S, std::void_t<decltype(std::declval<const S&>().is_public_decider())>>
    : std::true_type {};

// Detects the knowledge model: State::card_places(CardPlaces&) and
// State::known_card_places(int viewer, CardPlaces&) (envs/core/knowledge.h).
template <class S, class = void>
struct HasCardPlaces : std::false_type {};
template <class S>
struct HasCardPlaces<
    S, std::void_t<decltype(std::declval<const S&>().card_places(std::declval<CardPlaces&>())),
                   decltype(std::declval<const S&>().known_card_places(0, std::declval<CardPlaces&>()))>>
    : std::true_type {};

// Detects the descriptor's `static constexpr bool kHiddenInformation`.
template <class G, class = void>
struct DeclaresHiddenInformation : std::false_type {};
template <class G>
struct DeclaresHiddenInformation<G, std::void_t<decltype(G::kHiddenInformation)>> : std::true_type {};

// Hidden information fails closed: every game states whether it has any, and
// a game that has some must say what each seat may see (its text view),
// which actions the others may see, and what each seat knows about where the
// cards are. Nothing falls back to a view that shows everything.
template <class G>
constexpr bool check_descriptor() {
  using S = typename G::State;
  static_assert(DeclaresHiddenInformation<G>::value,
                "a game descriptor must declare `static constexpr bool kHiddenInformation`");
  if constexpr (G::kHiddenInformation) {
    static_assert(HasObservationString<S>::value,
                  "a game with hidden information must define State::observation_string(int viewer)");
    static_assert(HasIsPublicAction<S>::value,
                  "a game with hidden information must define State::is_public_action(Action)");
    static_assert(HasCardPlaces<S>::value,
                  "a game with hidden information must define State::card_places(CardPlaces&) and "
                  "State::known_card_places(int viewer, CardPlaces&)");
  }
  return true;
}

template <class G>
GameInfo described_info() {
  static_assert(check_descriptor<G>());
  GameInfo info = G::info();
  info.hidden_information = G::kHiddenInformation;
  return info;
}

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
    if constexpr (G::kHiddenInformation)
      return state_.observation_string(viewer);
    else
      return state_.to_string();
  }
  std::string action_to_string(Action a) const override {
    if (a < 0 || a >= num_actions()) return "<action " + std::to_string(a) + " out of range>";
    return state_.action_to_string(a);
  }
  std::string view_json(int viewer) const override {
    if (viewer != kFullBoard) check_viewer(viewer);
    static const std::string id = G::info().id;
    Json doc;
    doc["game"] = id;
    doc["num_players"] = num_players();
    doc["viewer"] = viewer;
    doc["your_turn"] = viewer != kFullBoard && current_player() == viewer;
    if (viewer == kFullBoard) doc["current_player"] = current_player();
    doc["terminal"] = is_terminal();
    if (is_terminal()) {
      doc["scores"] = AnyState::scores();
      doc["returns"] = AnyState::returns();
      doc["truncated"] = is_truncated();
    }
    doc["board"] = state_.view_json(viewer);
    return doc.dump();
  }
  bool is_public_action(Action a) const override {
    if (a < 0 || a >= num_actions()) return false;
    if constexpr (G::kHiddenInformation)
      return state_.is_public_action(a);
    else
      return true;
  }
  bool is_public_decider() const override {
    if constexpr (!G::kHiddenInformation)
      return true;
    else if constexpr (HasIsPublicDecider<State>::value)
      return state_.is_public_decider();
    else
      return false;  // not said: who decides stays hidden
  }
  CardPlaces card_places() const override {
    CardPlaces out;
    if constexpr (G::kHiddenInformation) state_.card_places(out);
    return out;
  }
  CardPlaces known_card_places(int viewer) const override {
    check_viewer(viewer);
    CardPlaces out;
    if constexpr (G::kHiddenInformation) state_.known_card_places(viewer, out);
    return out;
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
  float* final_observations() override { return env_.final_observations(); }
  int32_t* final_episode_steps() override { return env_.final_episode_steps(); }
  std::unique_ptr<AnyState> state(int i) const override {
    if (i < 0 || i >= env_.num_envs()) throw Error("env index " + std::to_string(i) + " out of range");
    return std::make_unique<StateModel<G>>(env_.config(), env_.state(i));
  }
  int num_threads() const override { return env_.num_threads(); }
  void set_num_threads(int n) override { env_.set_num_threads(n); }
  uint64_t seed() const override { return env_.seed(); }
  VectorEnvSlot slot(int i) const override { return env_.slot(i); }
  void restore(int i, const AnyState& state, const VectorEnvSlot& slot) override {
    const auto* own = dynamic_cast<const StateModel<G>*>(&state);
    if (!own) throw Error("env " + std::to_string(i) + ": the state is not a " + G::info().id + " position");
    env_.restore(i, own->state(), slot);
  }
  VectorEnv<G>& env() { return env_; }

 private:
  VectorEnv<G> env_;
};

template <class G>
class AsyncVectorEnvModel final : public AnyAsyncVectorEnv {
 public:
  AsyncVectorEnvModel(std::shared_ptr<const typename G::Config> config, int n, int players, uint64_t seed,
                      int threads, int batch_size)
      : env_(std::move(config), n, players, seed, threads, batch_size) {}
  int num_envs() const override { return env_.num_envs(); }
  int batch_size() const override { return env_.batch_size(); }
  int num_players() const override { return env_.num_players(); }
  int num_actions() const override { return env_.num_actions(); }
  std::vector<int> observation_shape() const override {
    return G::Encoder::shape(*env_.config(), env_.num_players());
  }
  int observation_size() const override { return env_.observation_size(); }
  int num_threads() const override { return env_.num_threads(); }
  uint64_t seed() const override { return env_.seed(); }
  void reset(uint64_t seed) override { env_.reset(seed); }
  int recv() override { return env_.recv(); }
  void send(const Action* actions, const int32_t* env_ids, int count) override {
    env_.send(actions, env_ids, count);
  }
  void sample_random_actions(Action* out) override { env_.sample_random_actions(out); }
  void heuristic_actions(Action* out) override { env_.heuristic_actions(out); }
  int num_blocks() const override { return env_.num_blocks(); }
  int block() const override { return env_.block(); }
  AsyncBatch batch(int b) override {
    if (b < 0 || b >= env_.num_blocks())
      throw Error("block " + std::to_string(b) + " out of range [0, " +
                  std::to_string(env_.num_blocks() - 1) + "]");
    return env_.batch(b);
  }
  std::unique_ptr<AnyState> state(int i) const override {
    return std::make_unique<StateModel<G>>(env_.config(), env_.state(i));
  }
  void shutdown() override { env_.shutdown(); }
  AsyncVectorEnv<G>& env() { return env_; }

 private:
  AsyncVectorEnv<G> env_;
};

template <class G>
class GameModel final : public AnyGame {
 public:
  using Config = typename G::Config;
  using State = typename G::State;

  explicit GameModel(std::shared_ptr<const Config> config)
      : config_(std::move(config)), info_(described_info<G>()) {}

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
      doc = parse_json(text);
    } catch (const SerializationError& e) {
      throw SerializationError(std::string("state document: ") + e.what());
    }
    try {
      State s = State::from_json(doc, *config_);
      check_players(s.num_players());
      s.check_invariants();
      check_playable(s);
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
  std::unique_ptr<AnyAsyncVectorEnv> new_async_vector_env(int n, int players, uint64_t seed, int threads,
                                                          int batch_size) const override {
    check_players(players);
    return std::make_unique<AsyncVectorEnvModel<G>>(config_, n, players, seed, threads, batch_size);
  }
  const std::shared_ptr<const Config>& config() const { return config_; }

 private:
  // A loaded position must be one the game can go on from: someone in range
  // to move and something for them to do, or a finished game with nothing to do.
  static void check_playable(const State& s) {
    std::vector<uint8_t> mask(static_cast<std::size_t>(G::info().num_actions));
    s.legal_actions_mask(mask.data());
    const bool any_legal = std::find(mask.begin(), mask.end(), uint8_t{1}) != mask.end();
    const int player = s.current_player();
    if (s.is_terminal()) {
      if (player != -1 || any_legal)
        throw InvariantViolation("the game is over, yet a player is to move or has a legal action");
      return;
    }
    if (player < 0 || player >= s.num_players())
      throw InvariantViolation("the player to move, " + std::to_string(player) + ", is not a seat");
    if (s.is_truncated()) throw InvariantViolation("the game is cut short (truncated) but not over");
    if (!any_legal)
      throw InvariantViolation("the game is not over, but player " + std::to_string(player) +
                               " has no legal action");
  }

  std::shared_ptr<const Config> config_;
  GameInfo info_;
};

template <class G>
void register_game(Registry& registry) {
  GameEntry entry;
  entry.info = described_info<G>();
  entry.load = [](const ConfigNode& node) -> std::shared_ptr<AnyGame> {
    auto config = std::make_shared<const typename G::Config>(G::load_config(node));
    return std::make_shared<GameModel<G>>(std::move(config));
  };
  registry.add(std::move(entry));
}

}  // namespace rocketgym
