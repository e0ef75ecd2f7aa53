#include "training/players/any_player.h"

#include <mutex>

#include "envs/core/game_model.h"
#include "envs/core/quoted.h"
#include "generated/game_list.h"
#include "training/players/player.h"

namespace rocketgym::players {

namespace {

template <class G>
class TypedPlayer final : public AnyPlayer {
 public:
  TypedPlayer(PlayerSpec spec, int players, torch::Device device)
      : spec_(std::move(spec)), players_(players), player_(make_player<G>(spec_, {1, kBatch, device})) {}

  const PlayerSpec& spec() const override { return spec_; }
  int num_players() const override { return players_; }

  Action act(const AnyState& any, uint64_t seed) override {
    const std::string who = "agent " + quote(spec_.name);
    if (dynamic_cast<const StateModel<G>*>(&any) != nullptr && any.num_players() != players_)
      throw Error(who + " was loaded for " + std::to_string(players_) + " players, not " +
                  std::to_string(any.num_players()));
    const std::lock_guard<std::mutex> turn(busy_);
    return act_once(*player_, any, seed, who);
  }

  void evaluate(const float* observations, const uint8_t* masks, int count, float* probabilities,
                float* values) override {
    if (!uses_network(spec_))
      throw Error("agent " + quote(spec_.name) + " (" + playing_kind_name(spec_) +
                  ") has no network to evaluate");
    const std::lock_guard<std::mutex> turn(busy_);
    try {
      player_->evaluate(observations, masks, count, players_, probabilities, values);
    } catch (const Error& e) {
      throw Error("agent " + quote(spec_.name) + ": " + e.what());
    }
  }

 private:
  static constexpr int kBatch = 256;
  PlayerSpec spec_;
  int players_;
  std::unique_ptr<Player<G>> player_;
  // Held for a whole act() or evaluate(): they share the player's buffers
  // (Python calls them with the GIL released).
  std::mutex busy_;
};

}  // namespace

std::unique_ptr<AnyPlayer> make_any_player(PlayerSpec spec, const AnyGame& game, int num_players,
                                           torch::Device device) {
  game.check_players(num_players);
  std::vector<PlayerSpec> one{std::move(spec)};
  name_players(one);
  PlayerSpec& p = one.front();
  resolve(p, game.info().id, num_players, game.observation_shape(num_players), game.info().num_actions,
          device);
  return visit_game(game.info().id, [&](auto g) -> std::unique_ptr<AnyPlayer> {
    using G = decltype(g);
    return std::make_unique<TypedPlayer<G>>(std::move(p), num_players, device);
  });
}

}  // namespace rocketgym::players
