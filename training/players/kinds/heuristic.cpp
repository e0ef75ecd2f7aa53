// heuristic: the game's hand-written heuristic bot (G::heuristic_action).
// Needs no LibTorch (the command line without the training library seats it
// too).
#include "training/players/kinds/heuristic.h"

#include <omp.h>

#include <algorithm>

#include "generated/game_list.h"
#include "training/players/player_base.h"

namespace rocketgym::players {

namespace {

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

}  // namespace

const KindInfo& Heuristic::row() {
  static const KindInfo row{"heuristic", "heuristic", "", {}, "the game's hand-written heuristic bot",
                            true,        false,       20};
  return row;
}

std::unique_ptr<UntypedPlayer> Heuristic::make_player(const PlayerSetup& setup) const {
  return visit_game(setup.game, [&](auto g) -> std::unique_ptr<UntypedPlayer> {
    return std::make_unique<HeuristicPlayer<decltype(g)>>(setup.threads);
  });
}

const PlayerKind& heuristic_kind() {
  static const Heuristic kind;
  return kind;
}

}  // namespace rocketgym::players
