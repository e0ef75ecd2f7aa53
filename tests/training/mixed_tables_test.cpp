// Networks for every table size and training on mixed tables (issue 31):
// the game.players forms, the split of envs over table sizes, the value loss
// over the seats at each row's table, checkpoints that say which table sizes
// they serve, and a short PPO run on [2, 3, 4].
#include <unistd.h>  // getpid (LibTorch 2.x no longer includes it)

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "generated/game_list.h"
#include "models/checkpoint.h"
#include "tests/common/temp_dir.h"
#include "training/alphazero/self_play.h"
#include "training/alphazero/train_config.h"
#include "training/alphazero/trainer.h"
#include "training/game_setup.h"
#include "training/mixed_vector_env.h"
#include "training/ppo/ppo_update.h"
#include "training/ppo/train_config.h"
#include "training/ppo/trainer.h"
#include "training/ppo/trajectory_store.h"
#include "training/run_support.h"

using namespace rocketgym;
using namespace rocketgym::ppo;

namespace {

TrainConfig ppo_config(const std::string& game_yaml) {
  return TrainConfig::from_yaml(ConfigNode::parse("game: " + game_yaml + "\n", "mixed.yaml"));
}

using testing::fresh_dir;

}  // namespace

TEST_CASE("game.players takes one count, a list or a mapping of weights", "[mixed]") {
  const TrainConfig one = ppo_config("{id: launch_pad, players: 3}");
  CHECK_FALSE(one.game.mixed());
  CHECK(one.game.players == 3);
  CHECK(one.game.player_counts() == std::vector<int>{3});

  const TrainConfig list = ppo_config("{id: launch_pad, players: [4, 2, 3]}");
  CHECK(list.game.mixed());
  CHECK(list.game.players == 2);  // the smallest
  CHECK(list.game.player_counts() == std::vector<int>{2, 3, 4});
  for (const TableShare& t : list.game.tables) CHECK(t.weight == 1.0);
  CHECK(list.game.players_text() == "[2, 3, 4]");

  const TrainConfig weighted = ppo_config("{id: launch_pad, players: {2: 0.5, 4: 0.25, 3: 0.25}}");
  CHECK(weighted.game.player_counts() == std::vector<int>{2, 3, 4});
  CHECK(weighted.game.tables[0].weight == 0.5);
  CHECK(weighted.game.tables[2].weight == 0.25);
  // The resolved config reads back to the same mix.
  for (const TrainConfig* c : {&one, &list, &weighted}) {
    const TrainConfig again = TrainConfig::from_yaml(ConfigNode::parse(c->to_yaml(), "resolved"));
    CHECK(again.game.player_counts() == c->game.player_counts());
    CHECK(again.game.players_text() == c->game.players_text());
  }

  CHECK_THROWS_WITH(ppo_config("{id: launch_pad, players: [2, 5]}"),
                    Catch::Contains("mixed.yaml") && Catch::Contains("'5' is not a player count") &&
                        Catch::Contains("from 2 to 4"));
  CHECK_THROWS_WITH(ppo_config("{id: launch_pad, players: [2, 3, 2]}"), Catch::Contains("2 players twice"));
  CHECK_THROWS_WITH(ppo_config("{id: launch_pad, players: []}"), Catch::Contains("lists no player count"));
  CHECK_THROWS_WITH(ppo_config("{id: launch_pad, players: {2: 0.5, 3: 0}}"),
                    Catch::Contains("game.players.3"));
  CHECK_THROWS_WITH(ppo_config("{id: launch_pad, players: {two: 1}}"),
                    Catch::Contains("'two' is not a player count"));
  // The arena plays one table size.
  CHECK_THROWS_WITH(
      GameSetup::from_yaml(ConfigNode::parse("{id: launch_pad, players: [2, 3]}", "arena.yaml")),
      Catch::Contains("arena.yaml") && Catch::Contains("only the trainers draw table sizes"));
}

TEST_CASE("envs are split over the table sizes in proportion to the weights", "[mixed]") {
  CHECK(split_by_weight(64, {0.5, 0.25, 0.25}) == std::vector<int>{32, 16, 16});
  CHECK(split_by_weight(64, {1, 1, 1}) == std::vector<int>{22, 21, 21});
  CHECK(split_by_weight(3, {100, 1, 1}) == std::vector<int>{1, 1, 1});  // every size gets an env
  CHECK(split_by_weight(10, {100, 1, 1}) == std::vector<int>{8, 1, 1});
  CHECK(split_by_weight(7, {2}) == std::vector<int>{7});
  CHECK_THROWS_AS(split_by_weight(2, {1, 1, 1}), ConfigError);
}

TEST_CASE("a mixed vector env plays every table size, the same games whatever the threads", "[mixed]") {
  const TrainConfig c = ppo_config("{id: launch_pad, players: {2: 0.5, 3: 0.25, 4: 0.25}}");
  const auto game = c.game.load();
  visit_game("launch_pad", [&](auto g) {
    using G = decltype(g);
    auto config = typed_config<G>(*game);
    MixedVectorEnv<G> one(config, c.game.tables, 8, 42, 1, "ppo.envs");
    MixedVectorEnv<G> two(config, c.game.tables, 8, 42, 2, "ppo.envs");
    REQUIRE(one.num_envs() == 8);
    std::vector<int> sizes;
    for (int i = 0; i < 8; ++i) sizes.push_back(one.players(i));
    CHECK(sizes == std::vector<int>{2, 2, 2, 2, 3, 3, 4, 4});
    std::vector<Action> a1(8), a2(8);
    std::vector<int> finished_at(5, 0);
    for (int step = 0; step < 1200; ++step) {  // a 4-player game is about 400 decisions
      one.heuristic_actions(a1.data());
      two.heuristic_actions(a2.data());
      REQUIRE(a1 == a2);
      one.step(a1.data());
      two.step(a2.data());
      for (int i = 0; i < 8; ++i) {
        REQUIRE(one.finished(i) == two.finished(i));
        REQUIRE(one.current_player(i) == two.current_player(i));
        REQUIRE(one.current_player(i) < one.players(i));
        REQUIRE(
            std::equal(one.observation(i), one.observation(i) + one.observation_size(), two.observation(i)));
        if (one.finished(i)) {
          ++finished_at[static_cast<std::size_t>(one.players(i))];
          REQUIRE(std::equal(one.returns(i), one.returns(i) + one.players(i), two.returns(i)));
        }
      }
    }
    CHECK(finished_at[2] > 0);
    CHECK(finished_at[3] > 0);
    CHECK(finished_at[4] > 0);
    // The first table size's env is exactly a plain VectorEnv with the seed.
    VectorEnv<G> plain(config, 4, 2, 42, 1);
    MixedVectorEnv<G> again(config, c.game.tables, 8, 42, 1, "ppo.envs");
    for (int i = 0; i < 4; ++i)
      CHECK(std::equal(again.observation(i), again.observation(i) + again.observation_size(),
                       plain.observations() + static_cast<std::size_t>(i) * plain.observation_size()));
    CHECK_THROWS_WITH(MixedVectorEnv<G>(config, c.game.tables, 2, 42, 1, "ppo.envs"),
                      Catch::Contains("ppo.envs (2) must be at least the number of table sizes"));
  });
}

TEST_CASE("one network takes mixed tables only when the layout is the same for every count", "[mixed]") {
  for (const std::string& id : Registry::instance().ids()) {
    INFO(id);
    const TrainConfig c = ppo_config("{id: " + id + ", players: [2, 3, 4]}");
    const auto game = c.game.load();
    const bool same = game->observation_shape(2) == game->observation_shape(3) &&
                      game->observation_shape(3) == game->observation_shape(4);
    if (same) {
      const NetSpec spec = net_spec_for(*game, c.game.player_counts(), c.net);
      CHECK(spec.observation_shape == game->observation_shape(2));
      CHECK(spec.num_players == game->info().max_players);  // a value per seat of the largest table
    } else {
      CHECK_THROWS_WITH(net_spec_for(*game, c.game.player_counts(), c.net),
                        Catch::Contains("game.players") && Catch::Contains("one layout"));
    }
  }
}

TEST_CASE("value targets and the value loss cover the seats at each decision's table", "[mixed]") {
  // Width 4 (a 4-seat value head); env 0 plays 2 players, env 1 plays 3.
  TrajectoryStore store(2, 4, 1, 2, 8);
  store.set_table_players(0, 2);
  store.set_table_players(1, 3);
  const float values[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  store.add(0, 1, 0, 0.0f, values);
  store.add(1, 2, 0, 0.0f, values);
  const float two[2] = {1.0f, -1.0f};
  const float three[3] = {-1.0f, 0.5f, 1.0f};
  store.finish_episode(0, two, 1.0f, 1.0f);
  store.finish_episode(1, three, 1.0f, 1.0f);
  REQUIRE(store.ready_count() == 2);
  CHECK(store.table_players(0) == 2);
  CHECK(store.table_players(1) == 3);
  // Seat 1 of 2: itself (-1), then seat 0 (+1); the absent seats are 0.
  CHECK(std::vector<float>(store.value_targets(0), store.value_targets(0) + 4) ==
        std::vector<float>{-1.0f, 1.0f, 0.0f, 0.0f});
  // Seat 2 of 3: itself, seat 0, seat 1.
  CHECK(std::vector<float>(store.value_targets(1), store.value_targets(1) + 4) ==
        std::vector<float>{1.0f, -1.0f, 0.5f, 0.0f});
  CHECK_THROWS_AS(store.set_table_players(0, 5), Error);

  // The loss: row 0 has 2 seats, row 1 has 3; what the head says at the
  // absent seats does not count.
  const torch::Tensor mask = seat_mask(torch::tensor({2, 3}), 4);
  CHECK(torch::equal(mask, torch::tensor({{1.0f, 1.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f, 0.0f}})));
  const auto targets = torch::zeros({2, 4});
  const auto logits = torch::zeros({2, 2});
  const auto masks = torch::ones({2, 2}, torch::kUInt8);
  const auto actions = torch::zeros({2}, torch::kInt64);
  const auto old = torch::full({2}, std::log(0.5f));
  const auto adv = torch::zeros({2});
  auto loss_with = [&](const torch::Tensor& values_out) {
    PolicyValueOutput out;
    out.logits = logits;
    out.values = values_out;
    return ppo_loss(out, masks, actions, old, adv, targets, 0.2, 0.0, mask).value_loss.item<float>();
  };
  // Row 0: mean of (1, 1) = 1; row 1: mean of (1, 1, 1) = 1; over 2 rows: 1.
  const auto present = torch::tensor({{1.0f, 1.0f, 9.0f, 9.0f}, {1.0f, -1.0f, 1.0f, 9.0f}});
  CHECK(loss_with(present) == Approx(1.0f));
  CHECK(loss_with(present * mask) == Approx(1.0f));
}

TEST_CASE("a checkpoint says which table sizes it serves; older ones serve their one count", "[mixed]") {
  CheckpointMeta old;
  old.game = "launch_pad";
  old.num_players = 2;
  old.observation_shape = {10};
  old.num_actions = 3;
  CHECK(old.served_players() == std::vector<int>{2});
  CHECK_FALSE(old.to_json().contains("players"));
  CHECK(CheckpointMeta::from_json(old.to_json()).served_players() == std::vector<int>{2});

  CheckpointMeta any = old;
  any.num_players = 4;
  any.players = {2, 3, 4};
  const CheckpointMeta back = CheckpointMeta::from_json(any.to_json());
  CHECK(back.served_players() == std::vector<int>{2, 3, 4});
  CHECK(back.serves(3));
  CHECK_FALSE(back.serves(5));
  Json bad = any.to_json();
  bad["players"] = {2, 5};  // beyond the value head
  CHECK_THROWS_WITH(CheckpointMeta::from_json(bad), Catch::Contains("players must list ascending"));
  bad["players"] = {3, 2};
  CHECK_THROWS_AS(CheckpointMeta::from_json(bad), SerializationError);
  bad["players"] = Json::array();
  CHECK_THROWS_AS(CheckpointMeta::from_json(bad), SerializationError);

  const int version = Registry::instance().find("launch_pad").info.version;
  old.game_version = any.game_version = version;
  CHECK_NOTHROW(check_checkpoint_matches(old, "old.ckpt", "launch_pad", 2, {10}, 3));
  CHECK_THROWS_WITH(check_checkpoint_matches(old, "old.ckpt", "launch_pad", 3, {10}, 3),
                    Catch::Contains("checkpoint 'old.ckpt' was trained for 2 players, not 3"));
  for (int players : {2, 3, 4})
    CHECK_NOTHROW(check_checkpoint_matches(any, "any.ckpt", "launch_pad", players, {10}, 3));
  any.players = {2, 4};
  CHECK_THROWS_WITH(check_checkpoint_matches(any, "any.ckpt", "launch_pad", 3, {10}, 3),
                    Catch::Contains("'any.ckpt' was trained for 2 and 4 players, not 3"));
  CHECK(player_counts_text({2, 3, 4}) == "2, 3 and 4 players");
}

TEST_CASE("PPO on tables of 2, 3 and 4 players trains a network that serves all three", "[mixed][smoke]") {
  const auto dir = fresh_dir("mixed_ppo");
  const std::string yaml =
      "game: {id: launch_pad, players: {2: 0.5, 3: 0.25, 4: 0.25}}\n"
      "model: {hidden: 16, blocks: 1}\n"
      "ppo: {envs: 8, steps_per_update: 64, epochs: 1, minibatch: 64}\n"
      "opponents: {self_play: 1, pool: 1, agents: {random: 1, heuristic: 1}, snapshot_every: 1, pool_size: "
      "2}\n"
      "imitation: {steps: 64}\n"
      "budget: {steps: 1, minutes: 0}\n"
      "run: {dir: \"" +
      dir.string() + "\", threads: 1, checkpoint_every: 1, eval_every: 1, eval_games: 4, plot: false}\n";
  TrainConfig config = TrainConfig::from_yaml(ConfigNode::parse(yaml, "mixed.yaml"));
  const TrainSummary first = run_training(config, false);
  CHECK(first.updates == 1);
  const std::string latest = (dir / "checkpoints/latest.ckpt").string();
  const CheckpointMeta meta = read_checkpoint_meta(latest);
  CHECK(meta.served_players() == std::vector<int>{2, 3, 4});
  CHECK(meta.num_players == 4);
  // Resumed twice more (the pool's snapshots play at every table size).
  for (int update = 2; update <= 3; ++update) {
    config.total_steps = read_checkpoint_meta(latest).step + 1;
    const TrainSummary next = run_training(config, false);
    CHECK(next.resumed);
    CHECK(next.updates == update);
  }
  // A run on fewer table sizes may resume it; one on a size it never saw may not.
  TrainConfig two = config;
  two.game = GameSetup::from_yaml(ConfigNode::parse("{id: launch_pad, players: 2}", "t.yaml"));
  two.total_steps = read_checkpoint_meta(latest).step + 1;
  CHECK(run_training(two, false).updates == 4);
  CHECK(read_checkpoint_meta(latest).served_players() == std::vector<int>{2});
  TrainConfig three = config;
  three.game = GameSetup::from_yaml(ConfigNode::parse("{id: launch_pad, players: 3}", "t.yaml"));
  three.total_steps = read_checkpoint_meta(latest).step + 1;
  CHECK_THROWS_WITH(run_training(three, false), Catch::Contains("was trained for 2 players, not 3"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("search-based self-play draws each game's table size from its seed", "[mixed][alphazero]") {
  const std::vector<TableShare> tables{{2, 0.5}, {3, 0.25}, {4, 0.25}};
  std::vector<int> drawn(5, 0);
  for (uint64_t game = 0; game < 4000; ++game) {
    const int players = draw_table_size(tables, derive_seed(99, game));
    CHECK(draw_table_size(tables, derive_seed(99, game)) == players);  // the seed decides
    ++drawn[static_cast<std::size_t>(players)];
  }
  // Within 4 standard deviations of the weights (the seeds are fixed: the
  // counts never change between runs).
  CHECK(std::abs(drawn[2] - 2000) < 4 * 32);
  CHECK(std::abs(drawn[3] - 1000) < 4 * 28);
  CHECK(std::abs(drawn[4] - 1000) < 4 * 28);
  CHECK(draw_table_size({{3, 1.0}}, 12345) == 3);

  const auto dir = fresh_dir("mixed_alphazero");
  const std::string yaml =
      "algorithm: alphazero\n"
      "game: {id: launch_pad, players: [2, 3, 4]}\n"
      "model: {hidden: 16, blocks: 1}\n"
      "search: {simulations: 4, gumbel_considered: 2}\n"
      "selfplay: {games: 6, samples_per_iteration: 400}\n"
      "replay: {capacity: 4096, min_samples: 32}\n"
      "train: {batch: 32, replay_ratio: 1}\n"
      "imitation: {steps: 64, epochs: 1}\n"
      "budget: {steps: 1, minutes: 0}\n"
      "run: {dir: \"" +
      dir.string() + "\", threads: 1, checkpoint_every: 1, eval_every: 1, eval_games: 3, plot: false}\n";
  const alphazero::TrainConfig config = alphazero::TrainConfig::from_yaml(ConfigNode::parse(yaml, "az.yaml"));
  CHECK(config.game.player_counts() == std::vector<int>{2, 3, 4});
  const TrainSummary run = alphazero::run_alphazero(config, false);
  CHECK(run.updates == 1);
  const CheckpointMeta meta = read_checkpoint_meta((dir / "checkpoints/latest.ckpt").string());
  CHECK(meta.served_players() == std::vector<int>{2, 3, 4});
  CHECK(meta.extra.at("algorithm") == "alphazero");
  std::filesystem::remove_all(dir);

  // Self-play itself: games at every table size, the same for 1 and 2 threads.
  const auto game = config.game.load();
  visit_game("launch_pad", [&](auto g) {
    using G = decltype(g);
    const NetSpec spec = net_spec_for(*game, config.game.player_counts(), config.net);
    torch::manual_seed(5);
    PolicyValueNet net(spec);
    net->eval();
    auto play = [&](int threads) {
      alphazero::TrainConfig c = config;
      c.threads = threads;
      c.games = 24;  // 24 tables drawn at the start
      PolicyRunner runner(net, torch::kCPU, c.games);
      alphazero::SelfPlay<G> self_play(typed_config<G>(*game), c.game.tables, c, runner, 42);
      alphazero::ReplayBuffer buffer(8192, spec.observation_size(), spec.num_actions, spec.num_players);
      self_play.play(600, buffer);
      std::vector<int> seats;
      for (int slot = 0; slot < buffer.capacity(); ++slot)
        if (buffer.ready(slot)) seats.push_back(buffer.table_players(slot));
      return std::make_pair(self_play.games_at(), seats);
    };
    const auto one = play(1), two = play(2);
    CHECK(one == two);
    CHECK(one.first[2] > 0);
    CHECK(one.first[3] > 0);
    CHECK(one.first[4] > 0);
    for (int players : one.second) CHECK((players >= 2 && players <= 4));
  });
}
