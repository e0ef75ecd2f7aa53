// distributed_rank: the program the distributed tests start as ranks.
//
//   distributed_rank update-check OUT     one PPO update and one imitation
//       update on this rank's part of a fixed batch; rank 0 also runs them on
//       the whole batch in one process and writes the differences to OUT
//   distributed_rank checkpoint GAME PATH a checkpoint of a fresh network
//   distributed_rank capacity CONFIG...   bytes all-reduced per update for each
//       training config's network (docs/results.md, "Distributed training")
//   distributed_rank train|arena ...      rocketgym's own train and arena commands
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "envs/core/rng.h"
#include "models/checkpoint.h"
#include "training/alphazero/train_config.h"
#include "training/cli/torch/training_commands.h"
#include "training/distributed/distributed.h"
#include "training/game_setup.h"
#include "training/ppo/ppo_update.h"
#include "training/ppo/train_config.h"

using namespace rocketgym;

namespace {

constexpr int kObs = 10, kActions = 6, kPlayers = 2, kEpisodes = 9;

// Episode e of a fixed batch of made-up decisions, appended to `store`.
void add_episode(ppo::TrajectoryStore& store, int e) {
  Rng rng(derive_seed(2024, static_cast<uint64_t>(e)));
  const int length = 3 + (e * 5) % 7;
  for (int t = 0; t < length; ++t) {
    float values[kPlayers];
    for (float& v : values) v = static_cast<float>(rng.uniform01() * 2 - 1);
    const int seat = t % kPlayers;
    const Action action = static_cast<Action>(rng.below(kActions));
    const int slot = store.add(0, seat, action, static_cast<float>(-0.2 - rng.uniform01() * 2), values);
    for (int i = 0; i < kObs; ++i) store.observation(slot)[i] = static_cast<float>(rng.uniform01() * 2 - 1);
    for (int a = 0; a < kActions; ++a) store.mask(slot)[a] = a == action || rng.below(2) == 0;
  }
  const float returns[kPlayers] = {e % 3 == 0 ? 1.0f : -1.0f, e % 3 == 0 ? -1.0f : 1.0f};
  store.finish_episode(0, returns, 1.0f, 0.95f);
}

PolicyValueNet fresh_net() {
  NetSpec spec;
  spec.config.kind = "mlp";
  spec.config.hidden = 32;
  spec.config.blocks = 1;
  spec.observation_shape = {kObs};
  spec.num_actions = kActions;
  spec.num_players = kPlayers;
  torch::manual_seed(7);
  return PolicyValueNet(spec);
}

torch::Tensor flat(PolicyValueNet& net) {
  std::vector<torch::Tensor> parts;
  for (const auto& p : net->parameters()) parts.push_back(p.detach().reshape(-1).clone());
  return torch::cat(parts);
}

// Runs `update` on this rank's episodes (rank 0: the first five, rank 1 the
// other four: unequal shares) and, on rank 0, on all of them in one process.
// Writes "<name>_diff" (largest weight difference between the two),
// "<name>_moved" (largest change the update made) and "<name>_ranks"
// (largest difference between the ranks' weights).
template <class Update>
void compare(const char* name, const dist::Context& ranks, std::ofstream& out, Update update) {
  ppo::TrajectoryStore mine(1, kPlayers, kObs, kActions, 64), all(1, kPlayers, kObs, kActions, 64);
  for (int e = 0; e < kEpisodes; ++e) {
    if ((e < 5) == (ranks.rank() == 0)) add_episode(mine, e);
    add_episode(all, e);
  }
  PolicyValueNet net = fresh_net();
  const torch::Tensor before = flat(net);
  const ppo::UpdateStats split = update(net, mine, ranks);
  const torch::Tensor after = flat(net);
  const torch::Tensor bytes = after.contiguous();
  const std::string mine_bytes(reinterpret_cast<const char*>(bytes.data_ptr<float>()),
                               sizeof(float) * static_cast<std::size_t>(bytes.numel()));
  const std::vector<std::string> everyone = ranks.gather_to_root(mine_bytes, "gathering the weights");
  if (!ranks.is_root()) return;
  double rank_diff = 0.0;
  for (const std::string& other : everyone)
    rank_diff =
        std::max(rank_diff, std::memcmp(other.data(), mine_bytes.data(), mine_bytes.size()) == 0 ? 0.0 : 1.0);
  PolicyValueNet reference = fresh_net();
  const ppo::UpdateStats whole = update(reference, all, dist::Context());
  out << name << "_diff " << (after - flat(reference)).abs().max().item<double>() << "\n"
      << name << "_moved " << (after - before).abs().max().item<double>() << "\n"
      << name << "_ranks " << rank_diff << "\n"
      << name << "_samples " << split.samples << " " << whole.samples << "\n"
      << name << "_loss_diff " << std::abs(split.policy_loss - whole.policy_loss) << "\n";
}

int update_check(const std::string& file) {
  const dist::Context ranks = dist::Context::from_environment(std::chrono::seconds(60));
  std::ofstream out;
  if (ranks.is_root()) out.open(file);
  ppo::UpdateSettings settings;
  settings.epochs = 3;
  settings.minibatch = 16;
  compare("ppo", ranks, out,
          [&](PolicyValueNet& net, const ppo::TrajectoryStore& store, const dist::Context& c) {
            torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3).eps(1e-5));
            return ppo::ppo_update(net, adam, store, settings, torch::kCPU, c, 99);
          });
  compare("imitation", ranks, out,
          [&](PolicyValueNet& net, const ppo::TrajectoryStore& store, const dist::Context& c) {
            // eps as PPO's: with Adam's default 1e-8 a weight whose gradient
            // is ~0 moves by up to the learning rate on rounding noise alone.
            torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3).eps(1e-5));
            return ppo::imitation_update(net, adam, store, settings, torch::kCPU, c, 5);
          });
  return 0;
}

// A checkpoint of a fresh network for `game` (2 players), for arena agents.
int write_checkpoint(const std::string& game_id, const std::string& path) {
  GameSetup setup;
  setup.id = game_id;
  const auto game = setup.load();
  NetSpec spec;
  spec.config.kind = "mlp";
  spec.config.hidden = 32;
  spec.config.blocks = 1;
  spec.observation_shape = game->observation_shape(2);
  spec.num_actions = game->info().num_actions;
  spec.num_players = 2;
  torch::manual_seed(11);
  PolicyValueNet net(spec);
  CheckpointMeta meta;
  meta.game = game_id;
  meta.game_version = game->info().version;
  meta.num_players = 2;
  meta.observation_shape = spec.observation_shape;
  meta.num_actions = spec.num_actions;
  meta.net = spec.config;
  save_checkpoint(path, meta, net, nullptr);
  return 0;
}

// One line per config: parameters, bytes per all-reduce (float32 gradients),
// all-reduces per update (PPO: epochs x minibatches of steps_per_update;
// search-based: gradient steps per iteration), and the seconds a ring
// all-reduce of that much needs at 1 and 10 Gb/s (each rank sends and
// receives about twice the message).
int capacity(int argc, char** argv) {
  std::printf("%-36s %10s %12s %10s %12s %10s %10s\n", "config", "params", "MB/step", "steps", "MB/update",
              "s@1Gb/s", "s@10Gb/s");
  for (int i = 2; i < argc; ++i) {
    const ConfigNode root = ConfigNode::load_file(argv[i]);
    GameSetup game;
    NetConfig net;
    int64_t collectives = 0;
    if (alphazero::training_algorithm(root) == "alphazero") {
      const auto c = alphazero::TrainConfig::from_yaml(root);
      game = c.game;
      net = c.net;
      collectives = c.train_steps_per_iteration();
    } else {
      const auto c = ppo::TrainConfig::from_yaml(root);
      game = c.game;
      net = c.net;
      collectives = static_cast<int64_t>(c.epochs) * ((c.steps_per_update + c.minibatch - 1) / c.minibatch);
    }
    const auto loaded = game.load();
    NetSpec spec;
    spec.config = net;
    spec.observation_shape = loaded->observation_shape(game.players);
    spec.num_actions = loaded->info().num_actions;
    spec.num_players = game.players;
    PolicyValueNet network(spec);
    int64_t params = 0;
    for (const auto& p : network->parameters()) params += p.numel();
    const double step_bytes = 4.0 * static_cast<double>(params);
    const double update_bytes = step_bytes * static_cast<double>(collectives);
    std::printf("%-36s %10lld %12.2f %10lld %12.1f %10.2f %10.3f\n", argv[i], static_cast<long long>(params),
                step_bytes / 1e6, static_cast<long long>(collectives), update_bytes / 1e6,
                2 * update_bytes * 8 / 1e9, 2 * update_bytes * 8 / 1e10);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "update-check" && argc == 3) return update_check(argv[2]);
    if (mode == "checkpoint" && argc == 4) return write_checkpoint(argv[2], argv[3]);
    if (mode == "capacity") return capacity(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "distributed_rank: error: " << e.what() << "\n";
    return 1;
  }
  CLI::App app{"rocketgym's train and arena commands, for the distributed tests"};
  app.require_subcommand(1);
  add_training_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "distributed_rank: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
