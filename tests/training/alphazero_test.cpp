// Search-based self-play: the replay buffer, the loss on hand-made numbers,
// self-play's training targets, the config, and a short run that is
// interrupted and resumed (training itself is not timed here).
#include <unistd.h>  // getpid (LibTorch 2.x no longer includes it)

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "games/launchpad23/launchpad23_game.h"
#include "models/checkpoint.h"
#include "training/alphazero/alphazero_update.h"
#include "training/alphazero/replay_buffer.h"
#include "training/alphazero/search_bench.h"
#include "training/alphazero/self_play.h"
#include "training/alphazero/train_config.h"
#include "training/alphazero/trainer.h"
#include "training/mcts/network_evaluator.h"
#include "training/ppo/trainer.h"

using namespace rocketgym;
using namespace rocketgym::alphazero;

namespace {

std::vector<std::string> lines_of(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TrainConfig tiny_config(const std::string& dir) {
  const std::string yaml =
      "algorithm: alphazero\n"
      "game: {id: launchpad23, players: 2}\n"
      "model: {hidden: 32, blocks: 1, channels: 8}\n"
      "search: {simulations: 8, gumbel_considered: 4}\n"
      "selfplay: {games: 6, samples_per_iteration: 64}\n"
      "replay: {capacity: 4096, min_samples: 32}\n"
      "train: {batch: 32, replay_ratio: 1}\n"
      "imitation: {steps: 128, epochs: 1}\n"
      "budget: {steps: 1, minutes: 0}\n"
      "run: {dir: " +
      dir + ", threads: 1, checkpoint_every: 1, eval_every: 1, eval_games: 4, plot: false}\n";
  return TrainConfig::from_yaml(ConfigNode::parse(yaml, "az.yaml"));
}

// A search-based config for Launchpad 23 with `rest` after its first two
// lines (so an error in `rest` is on line 3 of a.yaml or later).
TrainConfig az_config_with(const std::string& rest) {
  return TrainConfig::from_yaml(
      ConfigNode::parse("algorithm: alphazero\ngame: {id: launchpad23}\n" + rest, "a.yaml"));
}

// The network of `cfg` for two-player games of `game`.
NetSpec two_player_spec(const TrainConfig& cfg, const AnyGame& game) {
  NetSpec spec;
  spec.config = cfg.net;
  spec.observation_shape = game.observation_shape(2);
  spec.num_actions = game.info().num_actions;
  spec.num_players = 2;
  return spec;
}

}  // namespace

TEST_CASE("replay buffer: positions become trainable when their game ends", "[alphazero]") {
  ReplayBuffer buffer(4, 2, 3, 2);
  const auto a = buffer.add();
  const auto b = buffer.add();
  CHECK(buffer.ready_count() == 0);
  const float values[2] = {1.0f, -1.0f};
  buffer.finish(b, values);
  CHECK(buffer.ready_count() == 1);
  CHECK_FALSE(buffer.ready(a.slot));
  CHECK(buffer.ready(b.slot));
  CHECK(buffer.value(b.slot)[0] == 1.0f);
  Rng rng(1);
  std::vector<int32_t> drawn;
  buffer.sample(10, rng, drawn);
  for (int32_t slot : drawn) CHECK(slot == b.slot);  // only trainable positions are drawn
}

TEST_CASE("replay buffer: a wrapped-around slot belongs to its new position", "[alphazero]") {
  ReplayBuffer buffer(2, 1, 1, 2);
  const auto old = buffer.add();    // slot 0
  buffer.add();                     // slot 1
  const auto fresh = buffer.add();  // slot 0 again, overwriting `old` before its game ended
  CHECK(fresh.slot == old.slot);
  const float late[2] = {1.0f, -1.0f}, now[2] = {-1.0f, 1.0f};
  buffer.finish(old, late);  // the old game ends: its slot is someone else's now
  CHECK(buffer.ready_count() == 0);
  buffer.finish(fresh, now);
  CHECK(buffer.ready_count() == 1);
  CHECK(buffer.value(fresh.slot)[0] == -1.0f);
  CHECK_THROWS_AS(ReplayBuffer(0, 1, 1, 1), Error);
}

TEST_CASE("the AlphaZero loss: cross-entropy to the target policy plus the value error", "[alphazero]") {
  PolicyValueOutput out;
  out.logits = torch::zeros({2, 3});  // uniform over the legal moves
  out.values = torch::tensor({{0.5f, -0.5f}, {0.0f, 0.0f}});
  const auto masks = torch::tensor({{1, 1, 0}, {1, 1, 1}}, torch::kUInt8);
  const auto policies = torch::tensor({{1.0f, 0.0f, 0.0f}, {0.5f, 0.25f, 0.25f}});
  const auto values = torch::tensor({{1.0f, -1.0f}, {0.0f, 1.0f}});
  const LossTerms t = az_loss(out, masks, policies, values, 2.0);
  // Row 1: -log(1/2); row 2: -log(1/3).
  CHECK(t.policy_loss.item<float>() == Approx((std::log(2.0f) + std::log(3.0f)) / 2));
  // Squared errors summed over seats: (0.25 + 0.25) and (0 + 1); mean 0.75.
  CHECK(t.value_loss.item<float>() == Approx(0.75f));
  CHECK(t.total.item<float>() == Approx(t.policy_loss.item<float>() + 2.0f * 0.75f));
}

TEST_CASE("AlphaZero config: defaults, round trip and clear errors", "[alphazero]") {
  const TrainConfig c =
      TrainConfig::from_yaml(ConfigNode::parse("algorithm: alphazero\ngame: {id: launchpad23}\n", "a.yaml"));
  CHECK(c.search.root == mcts::RootSelection::kGumbel);
  CHECK(c.search.simulations == 32);
  CHECK(c.run_dir == "runs/launchpad23_alphazero");
  const TrainConfig again = TrainConfig::from_yaml(ConfigNode::parse(c.to_yaml(), "resolved.yaml"));
  CHECK(again.to_yaml() == c.to_yaml());
  CHECK(c.train_steps_per_iteration() == static_cast<int>(4.0 * 2048 / 256));
  CHECK_THROWS_WITH(TrainConfig::from_yaml(ConfigNode::parse("algorithm: alphazero\ngame: {id: launchpad23}\n"
                                                             "replay: {capacity: 10, min_samples: 20}\n",
                                                             "a.yaml")),
                    Catch::Contains("min_samples"));
  CHECK_THROWS_WITH(TrainConfig::from_yaml(ConfigNode::parse(
                        "algorithm: alphazero\ngame: {id: launchpad23}\nselfplay: {gamez: 3}\n", "a.yaml")),
                    Catch::Contains("a.yaml:3") && Catch::Contains("gamez"));
  CHECK_THROWS_WITH(
      TrainConfig::from_yaml(ConfigNode::parse("algorithm: alphazero\ngame: {id: launchpad23}\n"
                                               "search: {root: gumbel, dirichlet_fraction: 0.25}\n",
                                               "a.yaml")),
      Catch::Contains("dirichlet_fraction"));
  CHECK_THROWS_WITH(
      TrainConfig::from_yaml(ConfigNode::parse("algorithm: zero\ngame: {id: launchpad23}\n", "a.yaml")),
      Catch::Contains("algorithm"));
  CHECK(training_algorithm(ConfigNode::parse("game: {id: launchpad23}\n", "a.yaml")) == "ppo");
}

TEST_CASE("AlphaZero config: the resolved config keeps the search's playout and heuristic keys",
          "[alphazero]") {
  // config.yaml must repeat the run: these keys were once dropped from it.
  const TrainConfig c = az_config_with(
      "search: {rollout_policy: heuristic, rollouts: 2, rollout_epsilon: 0.1,\n"
      "         heuristic_prior: 0.5, playout_weight: 0.25, search_forced_moves: true,\n"
      "         prior_temperature: 3}\n");
  const TrainConfig again = TrainConfig::from_yaml(ConfigNode::parse(c.to_yaml(), "resolved.yaml"));
  CHECK(again.search.search_forced_moves);
  CHECK(again.search.rollout_policy == mcts::RolloutPolicy::kHeuristic);
  CHECK(again.search.rollouts == 2);
  CHECK(again.search.rollout_epsilon == Approx(0.1));
  CHECK(again.search.heuristic_prior == Approx(0.5));
  CHECK(again.search.playout_weight == Approx(0.25));
  CHECK(again.search.prior_temperature == Approx(3.0));
  CHECK(again.to_yaml() == c.to_yaml());
}

TEST_CASE("AlphaZero config: search keys that would do nothing are refused, on the user's line",
          "[alphazero]") {
  CHECK_THROWS_WITH(az_config_with("search: {seed: 4}\n"),
                    Catch::Contains("a.yaml:3") && Catch::Contains("training run's seed"));
  // Self-play's leaves are the network's: playout keys need playout_weight > 0.
  CHECK_THROWS_WITH(az_config_with("search: {rollout_policy: heuristic}\n"),
                    Catch::Contains("a.yaml:3") && Catch::Contains("playout_weight > 0"));
  // With the puct root the gumbel keys would do nothing.
  CHECK_THROWS_WITH(az_config_with("search: {root: puct, c_scale: 0.5}\n"), Catch::Contains("c_scale"));
  // Errors in the search block name the user's line (it was once parsed from a copy).
  CHECK_THROWS_WITH(az_config_with("search:\n  c_puct: many\n"),
                    Catch::Contains("a.yaml:4") && Catch::Contains("c_puct"));
  CHECK(az_config_with("search: {c_puct: 2}\n").search.simulations == 32);  // the trainer's default stays
}

TEST_CASE("AlphaZero config: self-play keys that would do nothing are refused, on the user's line",
          "[alphazero]") {
  // greedy_after stops the gumbel root's noise: with root: puct there is none.
  CHECK_THROWS_WITH(
      az_config_with("search: {root: puct}\nselfplay: {greedy_after: 10}\n"),
      Catch::Contains("a.yaml:4") && Catch::Contains("greedy_after") && Catch::Contains("puct"));
  CHECK_THROWS_WITH(az_config_with("search: {gumbel_scale: 0}\nselfplay: {greedy_after: 10}\n"),
                    Catch::Contains("greedy_after") && Catch::Contains("gumbel_scale"));
  CHECK(az_config_with("selfplay: {greedy_after: 10}\n").greedy_after == 10);
  // fast_simulations are used only by playout cap randomization (full_search_share < 1).
  CHECK_THROWS_WITH(az_config_with("selfplay: {fast_simulations: 4}\n"),
                    Catch::Contains("a.yaml:3") && Catch::Contains("fast_simulations") &&
                        Catch::Contains("full_search_share"));
  CHECK(az_config_with("selfplay: {full_search_share: 0.5, fast_simulations: 4}\n").fast_simulations == 4);
  CHECK_THROWS_WITH(az_config_with("search: {simulations: 4}\nselfplay: {full_search_share: 0.5}\n"),
                    Catch::Contains("fast_simulations") && Catch::Contains("must not exceed"));
  // Without playout cap randomization the unused default does not bind the search's size.
  CHECK(az_config_with("search: {simulations: 4}\n").search.simulations == 4);
  // The resolved config (every key written) loads back.
  const TrainConfig puct = az_config_with("search: {root: puct}\n");
  CHECK(TrainConfig::from_yaml(ConfigNode::parse(puct.to_yaml(), "resolved.yaml")).to_yaml() ==
        puct.to_yaml());
}

TEST_CASE("self-play records the search's policy and, at the game's end, every seat's outcome",
          "[alphazero]") {
  using G = launchpad23::Game;
  const auto dir = std::filesystem::temp_directory_path() / ("rocketgym_az_sp_" + std::to_string(::getpid()));
  TrainConfig cfg = tiny_config(dir.string());
  auto game = cfg.game.load();
  const NetSpec spec = two_player_spec(cfg, *game);
  torch::manual_seed(3);
  PolicyValueNet net(spec);
  net->eval();
  PolicyRunner runner(net, torch::kCPU, cfg.games);
  auto play = [&](ReplayBuffer& buffer) {
    SelfPlay<G> self_play(typed_config<G>(*game), {{2, 1.0}}, cfg, runner, 42);
    return self_play.play(200, buffer);
  };
  ReplayBuffer buffer(4096, spec.observation_size(), spec.num_actions, 2);
  const SelfPlayStats stats = play(buffer);
  CHECK(stats.positions >= 200);
  CHECK(stats.leaves > 0);
  CHECK(stats.network_seconds > 0.0);
  CHECK(stats.network_seconds <= stats.seconds);
  for (int slot = 0; slot < stats.positions; ++slot) {
    // Every policy target is a distribution over the legal moves only, and
    // every position had a choice to make.
    double total = 0.0;
    int legal = 0;
    for (int a = 0; a < spec.num_actions; ++a) {
      const float p = buffer.policy(slot)[a];
      CHECK(p >= 0.0f);
      if (!buffer.mask(slot)[a]) CHECK(p == 0.0f);
      total += p;
      legal += buffer.mask(slot)[a];
    }
    CHECK(total == Approx(1.0).epsilon(1e-4));
    CHECK(legal >= 2);
    // Finished games give two-player values that are opposite (rank returns,
    // relative to the player to move), or 0 for a truncated draw.
    if (buffer.ready(slot)) CHECK(buffer.value(slot)[0] == -buffer.value(slot)[1]);
  }
  // The same seed replays the same self-play.
  ReplayBuffer again(4096, spec.observation_size(), spec.num_actions, 2);
  play(again);
  for (int slot = 0; slot < stats.positions; ++slot) {
    CHECK(std::equal(buffer.policy(slot), buffer.policy(slot) + spec.num_actions, again.policy(slot)));
    CHECK(std::equal(buffer.observation(slot), buffer.observation(slot) + spec.observation_size(),
                     again.observation(slot)));
  }
  // The search block's heuristic options reach self-play's evaluator: with
  // leaf values from heuristic playouts the first search already differs.
  cfg.search.rollout_policy = mcts::RolloutPolicy::kHeuristic;
  cfg.search.playout_weight = 1.0;
  ReplayBuffer played(4096, spec.observation_size(), spec.num_actions, 2);
  play(played);
  bool differs = false;
  for (int slot = 0; slot < 16; ++slot)
    differs = differs ||
              !std::equal(buffer.policy(slot), buffer.policy(slot) + spec.num_actions, played.policy(slot));
  CHECK(differs);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a network evaluator mixes in the heuristic: playouts into values, its move into priors",
          "[alphazero]") {
  using G = launchpad23::Game;
  const auto dir = std::filesystem::temp_directory_path() / "rocketgym_az_mix";
  TrainConfig cfg = tiny_config(dir.string());
  auto game = cfg.game.load();
  const NetSpec spec = two_player_spec(cfg, *game);
  torch::manual_seed(5);
  PolicyValueNet net(spec);
  net->eval();
  PolicyRunner runner(net, torch::kCPU, 8);

  // Six positions a few moves into heuristic games, one seed each.
  const auto& config = typed_config<G>(*game);
  std::vector<G::State> states;
  for (int g = 0; g < 6; ++g) {
    G::State s(*config, 2, 100 + static_cast<uint64_t>(g));
    Rng rng(static_cast<uint64_t>(g));
    for (int k = 0; k < 6 + g; ++k) s.apply(G::heuristic_action(s, rng));
    states.push_back(s);
  }
  const int n = static_cast<int>(states.size()), actions = G::info().num_actions;
  auto evaluate = [&](double weight, int threads) {
    mcts::Options o;
    o.rollout_policy = mcts::RolloutPolicy::kHeuristic;
    o.playout_weight = weight;
    mcts::NetworkEvaluator<G> evaluator(runner, threads, o);
    std::vector<float> priors(static_cast<std::size_t>(n * actions)), values(static_cast<std::size_t>(n * 2));
    std::vector<mcts::Leaf<G::State>> leaves(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      leaves[static_cast<std::size_t>(i)] = {&states[static_cast<std::size_t>(i)], 0,
                                             1000 + static_cast<uint64_t>(i), priors.data() + i * actions,
                                             values.data() + i * 2};
    evaluator.evaluate(leaves.data(), n);
    return std::make_pair(priors, values);
  };
  const auto [head_priors, head] = evaluate(0.0, 1);
  const auto [mixed_priors, mixed] = evaluate(0.25, 1);
  const auto [played_priors, played] = evaluate(1.0, 2);
  REQUIRE(evaluate(0.25, 2).second == mixed);  // the thread count changes nothing

  mcts::Options heuristic;
  heuristic.rollout_policy = mcts::RolloutPolicy::kHeuristic;
  mcts::RolloutEvaluator<G> playouts(heuristic);
  for (int i = 0; i < n; ++i) {
    float reference[2];
    mcts::Leaf<G::State> leaf{&states[static_cast<std::size_t>(i)], 0, 1000 + static_cast<uint64_t>(i),
                              nullptr, nullptr};
    Rng rng(leaf.seed);
    playouts.playout_values(leaf, rng, reference);
    for (int p = 0; p < 2; ++p) {
      const auto k = static_cast<std::size_t>(i * 2 + p);
      CHECK(played[k] == reference[p]);  // weight 1: the playout alone
      CHECK(mixed[k] == Approx(0.75 * head[k] + 0.25 * reference[p]));
    }
  }
  CHECK(played_priors == head_priors);  // the priors stay the network's
  CHECK(mixed_priors == head_priors);

  // A heuristic prior moves its share onto the heuristic bot's move.
  mcts::Options o;
  o.heuristic_prior = 0.5;
  mcts::NetworkEvaluator<G> evaluator(runner, 1, o);
  std::vector<float> priors(static_cast<std::size_t>(actions)), values(2);
  mcts::Leaf<G::State> leaf{&states[0], 0, 77, priors.data(), values.data()};
  evaluator.evaluate(&leaf, 1);
  Rng rng(77);
  const Action bot = G::heuristic_action(states[0], rng);
  for (Action a = 0; a < actions; ++a)
    CHECK(priors[static_cast<std::size_t>(a)] ==
          Approx(0.5 * head_priors[static_cast<std::size_t>(a)] + (a == bot ? 0.5 : 0.0)));

  // A prior temperature reshapes the network's policy: p^(1/T), renormalized.
  mcts::Options flat;
  flat.prior_temperature = 2.0;
  mcts::NetworkEvaluator<G> flattening(runner, 1, flat);
  leaf.seed = 78;
  flattening.evaluate(&leaf, 1);
  double sum = 0.0;
  for (Action a = 0; a < actions; ++a) sum += std::sqrt(head_priors[static_cast<std::size_t>(a)]);
  for (Action a = 0; a < actions; ++a)
    CHECK(priors[static_cast<std::size_t>(a)] ==
          Approx(std::sqrt(head_priors[static_cast<std::size_t>(a)]) / sum).margin(1e-6));
}

TEST_CASE("playout cap randomization records only the fully searched decisions", "[alphazero]") {
  using G = launchpad23::Game;
  TrainConfig cfg = tiny_config("/nonexistent/never_written");
  cfg.full_search_share = 0.25;
  cfg.fast_simulations = 2;
  auto game = cfg.game.load();
  const NetSpec spec = two_player_spec(cfg, *game);
  PolicyValueNet net(spec);
  net->eval();
  PolicyRunner runner(net, torch::kCPU, cfg.games);
  SelfPlay<G> self_play(typed_config<G>(*game), {{2, 1.0}}, cfg, runner, 7);
  ReplayBuffer buffer(8192, spec.observation_size(), spec.num_actions, 2);
  const SelfPlayStats stats = self_play.play(300, buffer);
  // About a quarter of the decisions are recorded (forced moves never are).
  const double share = static_cast<double>(stats.positions) / static_cast<double>(stats.decisions);
  CHECK(share > 0.15);
  CHECK(share < 0.30);
  // Fast searches spend fewer simulations than full ones would.
  CHECK(stats.simulations < stats.decisions * cfg.search.simulations / 2);
  CHECK_THROWS_WITH(
      TrainConfig::from_yaml(ConfigNode::parse("algorithm: alphazero\ngame: {id: launchpad23}\n"
                                               "search: {simulations: 8}\nselfplay: {fast_simulations: 9}\n",
                                               "a.yaml")),
      Catch::Contains("fast_simulations"));
}

TEST_CASE("a short AlphaZero run writes its folder and resumes where it stopped", "[alphazero][smoke]") {
  const auto dir = std::filesystem::temp_directory_path() / ("rocketgym_az_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  TrainConfig config = tiny_config(dir.string());
  config.snapshot_minutes = {1e-6};  // written at the first iteration
  const TrainSummary first = alphazero::run_alphazero(config, false);
  CHECK_FALSE(first.resumed);
  CHECK(first.updates == 1);
  CHECK(first.steps >= 64);
  const std::string ckpt = (dir / "checkpoints/latest.ckpt").string();
  REQUIRE(std::filesystem::exists(ckpt));
  CHECK(std::filesystem::exists(dir / "checkpoints/minute_000.000001.ckpt"));
  CHECK(std::filesystem::exists(dir / "config.yaml"));
  CheckpointMeta meta = read_checkpoint_meta(ckpt);
  CHECK(meta.iteration == 1);
  CHECK(meta.step == first.steps);
  CHECK(meta.extra["algorithm"] == "alphazero");
  CHECK(first.eval_vs_random >= 0.0);
  const auto rows = lines_of((dir / "metrics.csv").string());
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].rfind("update,step,", 0) == 0);

  config.total_steps = first.steps + 1;
  const TrainSummary second = alphazero::run_alphazero(config, false);
  CHECK(second.resumed);
  CHECK(second.updates == 2);
  CHECK(second.steps > first.steps);
  CHECK(read_checkpoint_meta(ckpt).iteration == 2);
  CHECK(lines_of((dir / "metrics.csv").string()).size() == 3);

  // Without extra.games (which every search-based checkpoint records) the
  // count restarted at 0 without a word; the refusal changes no file.
  {
    LoadedCheckpoint loaded = load_checkpoint(ckpt);
    torch::optim::AdamW adamw(loaded.net->parameters());
    loaded.meta.extra.erase("games");
    save_checkpoint(ckpt, loaded.meta, loaded.net, &adamw);
    config.total_steps = second.steps + 1;
    CHECK_THROWS_WITH(alphazero::run_alphazero(config, false),
                      Catch::Contains("checkpoint '" + ckpt + "': extra.games is missing"));
    CHECK(lines_of((dir / "metrics.csv").string()).size() == 3);
  }

  // A run folder holding a checkpoint for another player count is refused.
  TrainConfig other = config;
  other.game.players = 3;
  other.game.tables = {{3, 1.0}};
  CHECK_THROWS_AS(alphazero::run_alphazero(other, false), CheckpointError);
  std::filesystem::remove_all(dir);
}

namespace {

// Whether two networks hold the same weights.
bool same_weights(PolicyValueNet a, PolicyValueNet b) {
  const auto pa = a->parameters(), pb = b->parameters();
  if (pa.size() != pb.size()) return false;
  for (std::size_t i = 0; i < pa.size(); ++i)
    if (!torch::equal(pa[i], pb[i])) return false;
  return true;
}

}  // namespace

TEST_CASE("AlphaZero config: gating keys and their refusals", "[alphazero][gating]") {
  const TrainConfig off = az_config_with("");
  CHECK_FALSE(off.gating());
  const TrainConfig on = az_config_with("gating: {every: 5, games: 30, simulations: 16, margin: 1.2}\n");
  CHECK(on.gating());
  CHECK(on.gate_games == 30);
  CHECK(on.gate_search().simulations == 16);
  CHECK(on.gate_search().gumbel_scale == 0.0);  // no root noise in a match
  CHECK(on.gate_search().rollout_policy == on.search.rollout_policy);
  CHECK(TrainConfig::from_yaml(ConfigNode::parse(on.to_yaml(), "resolved.yaml")).to_yaml() == on.to_yaml());
  // Match settings without gating would do nothing: refused on their line.
  CHECK_THROWS_WITH(az_config_with("gating:\n  margin: 1.3\n"), Catch::Contains("a.yaml:4") &&
                                                                    Catch::Contains("margin") &&
                                                                    Catch::Contains("every is 0"));
  CHECK_THROWS_WITH(az_config_with("gating: {every: 1, margin: -1}\n"), Catch::Contains("margin"));
  CHECK_THROWS_WITH(az_config_with("gating: {every: 1, gamez: 3}\n"), Catch::Contains("gamez"));
}

TEST_CASE("gating: self-play keeps the best network until the latest beats it", "[alphazero][gating]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rocketgym_az_gate_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  TrainConfig config = tiny_config(dir.string());
  config.gate_every = 1;
  config.gate_games = 4;
  config.gate_simulations = 4;  // the searching sides
  config.gate_margin = 100.0;   // out of reach: the best stays the network the run started with
  config.total_steps = 2 * 64;
  const TrainSummary first = alphazero::run_alphazero(config, false);
  REQUIRE(first.updates == 2);
  const std::string latest = (dir / "checkpoints/latest.ckpt").string();
  const std::string best = (dir / "checkpoints/best.ckpt").string();
  REQUIRE(std::filesystem::exists(best));
  CHECK(read_checkpoint_meta(best).iteration == 0);
  CHECK(read_checkpoint_meta(latest).extra_count("gating_matches", 0) == 2);
  CHECK_FALSE(same_weights(load_checkpoint(best).net, load_checkpoint(latest).net));
  auto rows = lines_of((dir / "metrics.csv").string());
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].find(",gating_score,best_update") != std::string::npos);
  CHECK(rows[2].substr(rows[2].size() - 2) == ",0");  // a score, and the best is still iteration 0
  CHECK(rows[2][rows[2].size() - 3] != ',');

  // Resumed, the best network is best.ckpt's (iteration 0), not a copy of
  // the latest (iteration 2).
  config.gate_simulations = 0;  // the raw networks
  config.total_steps = first.steps + 1;
  const TrainSummary second = alphazero::run_alphazero(config, false);
  REQUIRE(second.updates == 3);
  CHECK(read_checkpoint_meta(best).iteration == 0);
  rows = lines_of((dir / "metrics.csv").string());
  REQUIRE(rows.size() == 4);
  CHECK(rows[3].substr(rows[3].size() - 2) == ",0");

  // With margin 0 the next match replaces it by the latest.
  config.gate_margin = 0.0;
  config.total_steps = second.steps + 1;
  const TrainSummary third = alphazero::run_alphazero(config, false);
  REQUIRE(third.updates == 4);
  CHECK(read_checkpoint_meta(best).iteration == 4);
  CHECK(read_checkpoint_meta(best).step == third.steps);
  CHECK(same_weights(load_checkpoint(best).net, load_checkpoint(latest).net));
  CHECK(read_checkpoint_meta(latest).extra_count("gating_matches", 0) == 4);
  rows = lines_of((dir / "metrics.csv").string());
  REQUIRE(rows.size() == 5);
  CHECK(rows[4].substr(rows[4].size() - 2) == ",4");
  std::filesystem::remove_all(dir);
}

TEST_CASE("an AlphaZero run refuses a run folder another training holds", "[alphazero]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rocketgym_az_lock_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const TrainConfig config = tiny_config(dir.string());
  {
    const RunFolderLock held(dir.string());
    CHECK_THROWS_WITH(alphazero::run_alphazero(config, false),
                      Catch::Contains("in use by another rocketgym train"));
    CHECK_FALSE(std::filesystem::exists(dir / "config.yaml"));  // nothing of the holder's was touched
  }
  CHECK_NOTHROW(alphazero::run_alphazero(config, false));  // released with its holder
  std::filesystem::remove_all(dir);
}

TEST_CASE("bench-search reports the self-play it ran", "[alphazero]") {
  const TrainConfig config = tiny_config("unused");
  const alphazero::SearchBenchResult r = alphazero::bench_search(config, "", 0.3, 0.0);
  REQUIRE(r.seconds >= 0.3);
  CHECK(r.decisions > 0);
  // Every simulation either evaluates one leaf or ends in a terminal position.
  CHECK(r.leaves > 0);
  CHECK(r.leaves <= r.simulations);
  CHECK(r.simulations <= r.decisions * config.search.simulations);
  // Leaves go to the network in batches of at most one per game.
  CHECK(r.batches > 0);
  CHECK(r.mean_batch() <= config.games);
  CHECK(r.network_share() > 0.0);
  CHECK(r.network_share() < 1.0);
  CHECK_THROWS_AS(alphazero::bench_search(config, "/nonexistent.ckpt", 0.1, 0.0), CheckpointError);
}

TEST_CASE("each trainer refuses the other's run folder, naming the run's trainer", "[alphazero][resume]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rocketgym_az_other_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const TrainConfig search_based = tiny_config(dir.string());
  alphazero::run_alphazero(search_based, false);
  const ppo::TrainConfig ppo_config = ppo::TrainConfig::from_yaml(ConfigNode::parse(
      "game: {id: launchpad23, players: 2}\nmodel: {hidden: 32, blocks: 1, channels: 8}\n"
      "ppo: {envs: 8, steps_per_update: 32, epochs: 1, minibatch: 32}\nbudget: {steps: 1, minutes: 0}\n"
      "run: {dir: \"" +
          dir.string() + "\", threads: 1, eval_every: 0, plot: false}\n",
      "ppo.yaml"));
  // It said "it holds AdamW state, the optimizer is Adam".
  CHECK_THROWS_WITH(ppo::run_training(ppo_config, false),
                    Catch::Contains("search-based run") && Catch::Contains("PPO trainer"));
  std::filesystem::remove_all(dir);

  ppo::run_training(ppo_config, false);
  CHECK_THROWS_WITH(alphazero::run_alphazero(search_based, false),
                    Catch::Contains("PPO run") && Catch::Contains("search-based trainer"));
  std::filesystem::remove_all(dir);
}
