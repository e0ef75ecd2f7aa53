#include "generated/game_list.h"
#include "training/alphazero/trainer.h"

namespace rocketgym::alphazero {

TrainSummary run_alphazero(const TrainConfig& config, bool verbose, const dist::Context& context) {
  const std::shared_ptr<AnyGame> game = config.game.load();
  return visit_game(config.game.id, [&](auto g) {
    using G = decltype(g);
    Trainer<G> trainer(config, game, context);
    return trainer.run(verbose);
  });
}

}  // namespace rocketgym::alphazero
