// random: a uniformly random legal action. Needs no LibTorch (the command
// line without the training library seats it too).
#include "training/players/kinds/random.h"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "generated/game_list.h"
#include "training/players/player_base.h"

namespace rocketgym::players {

namespace {

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

}  // namespace

const KindInfo& Random::row() {
  static const KindInfo row{"random", "random", "", {}, "a uniformly random legal action", true, false, 10};
  return row;
}

std::unique_ptr<UntypedPlayer> Random::make_player(const PlayerSetup& setup) const {
  return visit_game(setup.game, [&](auto g) -> std::unique_ptr<UntypedPlayer> {
    return std::make_unique<RandomPlayer<decltype(g)>>(setup.threads);
  });
}

const PlayerKind& random_kind() {
  static const Random kind;
  return kind;
}

}  // namespace rocketgym::players
