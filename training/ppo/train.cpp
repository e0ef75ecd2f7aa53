#include <fstream>
#include <sstream>

#include "generated/game_list.h"
#include "training/ppo/trainer.h"

namespace rocketgym::ppo {

std::atomic<bool> stop_requested{false};

void truncate_metrics(const std::string& file, int64_t last_update) {
  std::ifstream in(file);
  if (!in) return;
  std::ostringstream kept;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      kept << line << "\n";
      header = false;
      continue;
    }
    try {
      if (std::stoll(line.substr(0, line.find(','))) <= last_update) kept << line << "\n";
    } catch (const std::exception&) {
      // a half-written last line from an interrupted run: dropped
    }
  }
  in.close();
  std::ofstream(file, std::ios::trunc) << kept.str();
}

TrainSummary run_training(const TrainConfig& config, bool verbose) {
  const std::shared_ptr<AnyGame> game = config.game.load();
  return visit_game(config.game.id, [&](auto g) {
    using G = decltype(g);
    Trainer<G> trainer(config, game);
    return trainer.run(verbose);
  });
}

}  // namespace rocketgym::ppo
