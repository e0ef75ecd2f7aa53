#include "training/alphazero/search_bench.h"

#include <torch/torch.h>

#include <algorithm>

#include "envs/core/rng.h"
#include "generated/game_list.h"
#include "models/checkpoint.h"
#include "training/alphazero/replay_buffer.h"
#include "training/alphazero/self_play.h"
#include "training/policy_runner.h"
#include "training/run_support.h"

namespace rocketgym::alphazero {
namespace {

// The network the benchmark searches with: the checkpoint's, or a fresh one
// seeded like the trainer's first weights. Its values do not change the cost
// of a forward pass, only which moves are played.
PolicyValueNet benchmark_net(const NetSpec& spec, const TrainConfig& config, const AnyGame& game,
                             const std::string& checkpoint, torch::Device device) {
  PolicyValueNet net{nullptr};
  if (checkpoint.empty()) {
    net = fresh_network(spec, config.seed);
  } else {
    LoadedCheckpoint loaded = load_checkpoint(checkpoint, device);
    for (int players : config.game.player_counts())
      check_checkpoint_matches(loaded.meta, checkpoint, game.info().id, players, spec.observation_shape,
                               spec.num_actions);
    net = loaded.net;
  }
  net->to(device);
  net->eval();
  return net;
}

void add(SearchBenchResult& total, const SelfPlayStats& play) {
  total.seconds += play.seconds;
  total.network_seconds += play.network_seconds;
  total.simulations += play.simulations;
  total.leaves += play.leaves;
  total.batches += play.batches;
  total.decisions += play.decisions;
  total.positions += play.positions;
}

}  // namespace

SearchBenchResult bench_search(const TrainConfig& config, const std::string& checkpoint, double seconds,
                               double warmup_seconds) {
  set_torch_threads(config.threads);
  const torch::Device device = parse_device(config.device);
  const std::shared_ptr<AnyGame> game = config.game.load();
  return visit_game(config.game.id, [&](auto g) {
    using G = decltype(g);
    const NetSpec spec = net_spec_for(*game, config.game.player_counts(), config.net);
    PolicyRunner runner(benchmark_net(spec, config, *game, checkpoint, device), device, config.games);
    runner.use_sparse_rows();  // as the trainer's (alphazero/trainer.h)
    SelfPlay<G> self_play(typed_config<G>(*game), config.game.tables, config, runner, config.seed);
    // Positions are written into a ring that is never trained on; one play()
    // call is a few decisions of every game, so the clock is checked often.
    ReplayBuffer buffer(std::max(config.games, 1024), spec.observation_size(), spec.num_actions,
                        spec.num_players);
    const int chunk = std::max(1, config.games / 2);
    SearchBenchResult warmup, result;
    while (warmup.seconds < warmup_seconds) add(warmup, self_play.play(chunk, buffer));
    while (result.seconds < seconds) add(result, self_play.play(chunk, buffer));
    return result;
  });
}

}  // namespace rocketgym::alphazero
