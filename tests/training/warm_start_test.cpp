// Warm start (models/warm_start.h, run.warm_start): a network for today's
// layout and a 4-seat value head built from an older 2-player checkpoint
// computes what the old one did on a 2-player observation.
#include "models/warm_start.h"

#include <unistd.h>  // getpid (LibTorch 2.x no longer includes it)

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "envs/core/describe.h"
#include "envs/core/vector_env.h"
#include "generated/game_list.h"
#include "training/ppo/train_config.h"
#include "training/ppo/trainer.h"

using namespace rocketgym;

namespace {

NetSpec mlp_spec(int observation_size, int value_seats) {
  NetSpec spec;
  spec.config.kind = "mlp";
  spec.config.hidden = 16;
  spec.config.blocks = 1;
  spec.observation_shape = {observation_size};
  spec.num_actions = 5;
  spec.num_players = value_seats;
  return spec;
}

// Blocks laid one after the other in this order.
std::vector<LayoutBlock> laid_out(std::vector<std::pair<std::string, int>> blocks) {
  std::vector<LayoutBlock> out;
  int at = 0;
  for (const auto& [name, size] : blocks) {
    out.push_back({name, at, size});
    at += size;
  }
  return out;
}

// An observation of the new layout from one of the old: shared blocks moved
// to their new place, new blocks filled with `fill`.
torch::Tensor relaid(const torch::Tensor& old_obs, const std::vector<LayoutBlock>& from,
                     const std::vector<LayoutBlock>& to, float fill) {
  const int size = to.back().offset + to.back().size;
  torch::Tensor out = torch::full({old_obs.size(0), size}, fill);
  for (const LayoutBlock& b : to)
    for (const LayoutBlock& a : from)
      if (a.name == b.name && a.size == b.size)
        out.narrow(1, b.offset, b.size).copy_(old_obs.narrow(1, a.offset, a.size));
  return out;
}

}  // namespace

TEST_CASE("a warm-started network computes the old one's function on the old blocks", "[warm_start]") {
  // The old layout: three blocks. The new one moves "cards" first, keeps
  // "scores", resizes "seats" (2 -> 4 seats) and appends "player count".
  const auto old_layout = laid_out({{"scores", 2}, {"seats", 6}, {"cards", 4}});
  const auto new_layout = laid_out({{"cards", 4}, {"scores", 2}, {"seats", 12}, {"player count", 3}});
  torch::manual_seed(3);
  PolicyValueNet old_net(mlp_spec(12, 2));
  torch::manual_seed(4);
  WarmStartReport report;
  PolicyValueNet net =
      warm_start_network(old_net, old_layout, mlp_spec(21, 4), new_layout, "old.ckpt", &report);
  CHECK(report.copied == std::vector<std::string>{"cards", "scores"});
  CHECK(report.added == std::vector<std::string>{"seats", "player count"});
  CHECK(report.dropped.empty());
  CHECK(report.summary().find("'seats', 'player count'") != std::string::npos);

  // Observations where the resized seat block is zero (as at a table where
  // those features are absent) and the new block holds anything.
  torch::manual_seed(5);
  torch::Tensor old_obs = torch::randn({6, 12});
  old_obs.narrow(1, 2, 6).zero_();
  torch::Tensor new_obs = relaid(old_obs, old_layout, new_layout, 0.0f);
  new_obs.narrow(1, 18, 3).copy_(torch::randn({6, 3}));
  torch::NoGradGuard no_grad;
  const PolicyValueOutput before = old_net->forward(old_obs), after = net->forward(new_obs);
  CHECK(torch::allclose(before.logits, after.logits, 1e-5, 1e-6));
  CHECK(torch::allclose(before.values, after.values.narrow(1, 0, 2), 1e-5, 1e-6));
  // The further seats start as the old last seat (an opponent).
  CHECK(torch::allclose(after.values.select(1, 2), before.values.select(1, 1), 1e-5, 1e-6));
  CHECK(torch::allclose(after.values.select(1, 3), before.values.select(1, 1), 1e-5, 1e-6));

  // A block the new layout lacks is dropped.
  const auto fewer = laid_out({{"cards", 4}, {"scores", 2}});
  warm_start_network(old_net, old_layout, mlp_spec(6, 2), fewer, "old.ckpt", &report);
  CHECK(report.dropped == std::vector<std::string>{"seats"});
}

TEST_CASE("a warm start refuses what it cannot carry over, naming the file", "[warm_start]") {
  const auto layout = laid_out({{"a", 3}, {"b", 2}});
  PolicyValueNet old_net(mlp_spec(5, 2));
  CHECK_THROWS_WITH(
      warm_start_network(old_net, laid_out({{"a", 3}}), mlp_spec(5, 4), layout, "old.ckpt"),
      Catch::Contains("warm start from 'old.ckpt'") && Catch::Contains("old observation layout covers 3"));
  CHECK_THROWS_WITH(
      warm_start_network(old_net, layout, mlp_spec(5, 4), laid_out({{"a", 3}, {"b", 3}}), "old.ckpt"),
      Catch::Contains("new observation layout covers 6"));
  NetSpec wider = mlp_spec(5, 4);
  wider.config.hidden = 32;
  CHECK_THROWS_WITH(warm_start_network(old_net, layout, wider, layout, "old.ckpt"),
                    Catch::Contains("the model block must describe the same network"));
  NetSpec more_actions = mlp_spec(5, 4);
  more_actions.num_actions = 6;
  CHECK_THROWS_WITH(warm_start_network(old_net, layout, more_actions, layout, "old.ckpt"),
                    Catch::Contains("action ids changed"));
  CHECK_THROWS_WITH(warm_start_network(old_net, layout, mlp_spec(5, 1), layout, "old.ckpt"),
                    Catch::Contains("value head has 2 seats"));

  // A conv network carries over only with the layout unchanged.
  NetSpec conv;
  conv.config.kind = "conv";
  conv.config.hidden = 8;
  conv.config.channels = 2;
  conv.config.blocks = 1;
  conv.observation_shape = {2, 2, 2};
  conv.num_actions = 3;
  conv.num_players = 2;
  PolicyValueNet old_conv(conv);
  const auto planes = laid_out({{"p0", 4}, {"p1", 4}});
  NetSpec conv4 = conv;
  conv4.num_players = 4;
  CHECK_NOTHROW(warm_start_network(old_conv, planes, conv4, planes, "conv.ckpt"));
  CHECK_THROWS_WITH(warm_start_network(old_conv, planes, conv4, laid_out({{"p0", 4}, {"q", 4}}), "conv.ckpt"),
                    Catch::Contains("conv network") && Catch::Contains("unchanged"));

  // The old layout from `rocketgym describe` JSON.
  const Json doc = Json::parse(R"({"observation": {"2": [{"name": "a", "offset": 0, "size": 3},
                                                          {"name": "b", "offset": 3, "size": 2}]}})");
  const auto read = layout_from_describe_json(doc, 2, "old.json");
  REQUIRE(read.size() == 2);
  CHECK(read[1].name == "b");
  CHECK(read[1].offset == 3);
  CHECK_THROWS_WITH(layout_from_describe_json(doc, 3, "old.json"),
                    Catch::Contains("'old.json'") && Catch::Contains("for 3 players"));
}

TEST_CASE("run.warm_start starts a mixed-table run from an old 2-player checkpoint", "[warm_start][smoke]") {
  const auto dir = std::filesystem::temp_directory_path() / ("rocketgym_warm_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string id = "launch_pad";
  const auto game = load_game(id);
  const std::vector<int> shape = game->observation_shape(2);
  const GameInfo& info = game->info();
  // An old checkpoint: 2 value seats, no "players", no layout, and (as the
  // lead's old layouts do) an observation without the last block of today's.
  const std::vector<FeatureBlock> today = observation_layout(id, 2);
  REQUIRE(today.size() >= 2);
  const int old_size = today.back().offset;
  CheckpointMeta old_meta;
  old_meta.game = id;
  old_meta.game_version = info.version;
  old_meta.num_players = 2;
  old_meta.observation_shape = {old_size};
  old_meta.num_actions = info.num_actions;
  old_meta.net.hidden = 16;
  old_meta.net.blocks = 1;
  torch::manual_seed(7);
  PolicyValueNet old_net(old_meta.net_spec());
  const std::string old_file = (dir / "old.ckpt").string();
  save_checkpoint(old_file, old_meta, old_net, nullptr);
  Json describe{{"observation", Json::object()}};
  Json blocks = Json::array();
  for (std::size_t k = 0; k + 1 < today.size(); ++k)
    blocks.push_back(Json{{"name", today[k].name}, {"offset", today[k].offset}, {"size", today[k].size}});
  describe["observation"]["2"] = blocks;
  const std::string layout_file = (dir / "old_layout.json").string();
  std::ofstream(layout_file) << describe.dump();

  const std::string run_dir = (dir / "run").string();
  auto config_with = [&](const std::string& run_extra) {
    return ppo::TrainConfig::from_yaml(ConfigNode::parse(
        "game: {id: launch_pad, players: [2, 3, 4]}\n"
        "model: {hidden: 16, blocks: 1}\n"
        "ppo: {envs: 6, steps_per_update: 32, epochs: 1, minibatch: 32, learning_rate: 1e-9}\n"
        "imitation: {steps: 1000}\n"  // not run after a warm start
        "budget: {steps: 1, minutes: 0}\n"
        "run: {dir: \"" +
            run_dir + "\", threads: 1, eval_every: 0, plot: false, warm_start: \"" + old_file + "\"" +
            run_extra + "}\n",
        "warm.yaml"));
  };
  // Without the old layout the sizes differ: refused, naming the key.
  CHECK_THROWS_WITH(ppo::run_training(config_with(""), false),
                    Catch::Contains("run.warm_start_layout") && Catch::Contains("old.ckpt"));
  std::filesystem::remove_all(run_dir);
  // A layout file naming a key twice is refused, naming the key and the file.
  const std::string twice_file = (dir / "twice_layout.json").string();
  std::ofstream(twice_file) << "{\"observation\": {}, " << describe.dump().substr(1);
  CHECK_THROWS_WITH(ppo::run_training(config_with(", warm_start_layout: \"" + twice_file + "\""), false),
                    Catch::Contains("run.warm_start_layout: '" + twice_file + "'") &&
                        Catch::Contains("key 'observation' is given twice"));
  std::filesystem::remove_all(run_dir);
  ppo::TrainConfig other_net = config_with(", warm_start_layout: \"" + layout_file + "\"");
  other_net.net.hidden = 32;
  CHECK_THROWS_WITH(ppo::run_training(other_net, false), Catch::Contains("the same network"));
  std::filesystem::remove_all(run_dir);

  ppo::run_training(config_with(", warm_start_layout: \"" + layout_file + "\""), false);
  LoadedCheckpoint now = load_checkpoint(run_dir + "/checkpoints/latest.ckpt");
  CHECK(now.meta.served_players() == std::vector<int>{2, 3, 4});
  CHECK(now.meta.num_players == info.max_players);
  REQUIRE(now.meta.layout.size() == today.size());  // recorded: a later warm start needs no file
  CHECK(now.meta.layout.back().name == today.back().name);
  // On real 2-player observations (the old blocks as they are) the policy is
  // the old one's, up to the learning rate of 1e-9 of one update.
  visit_game(id, [&](auto g) {
    using G = decltype(g);
    VectorEnv<G> env(typed_config<G>(*game), 4, 2, 11, 1);
    std::vector<Action> actions(4);
    for (int step = 0; step < 30; ++step) {
      env.heuristic_actions(actions.data());
      env.step(actions.data());
    }
    const int size = env.observation_size();
    const torch::Tensor obs = torch::from_blob(env.observations(), {4, size}).clone();
    torch::NoGradGuard no_grad;
    const PolicyValueOutput before = old_net->forward(obs.narrow(1, 0, old_size));
    const PolicyValueOutput after = now.net->forward(obs);
    CHECK(torch::allclose(before.logits, after.logits, 1e-4, 1e-4));
    CHECK(torch::allclose(before.values, after.values.narrow(1, 0, 2), 1e-4, 1e-4));
  });
  std::filesystem::remove_all(dir);
}
