// The gumbel root (Gumbel AlphaZero's Sequential Halving and improved policy)
// on tiny games whose answers are known by hand (tests/search/test_games.h).
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <vector>

#include "tests/search/test_games.h"
#include "training/mcts/rollout.h"

using namespace rocketgym;
using namespace rocketgym::mcts;
using namespace rocketgym::search_test;

namespace {

Options gumbel(int simulations, uint64_t seed = 1, double noise = 1.0) {
  Options o;
  o.root = RootSelection::kGumbel;
  o.simulations = simulations;
  o.seed = seed;
  o.gumbel_scale = noise;
  return o;
}

template <class G>
std::vector<float> improved(const Search<G>& search) {
  std::vector<float> out(static_cast<std::size_t>(G::info().num_actions));
  search.improved_policy(out.data());
  return out;
}

// Uniform priors and a value of 0 for every seat: the search learns only from
// terminal positions.
template <class G>
struct UniformEvaluator {
  int leaves = 0;
  void evaluate(Leaf<typename G::State>* batch, int count) {
    for (int i = 0; i < count; ++i, ++leaves) {
      std::fill(batch[i].priors, batch[i].priors + G::info().num_actions, 1.0f);
      std::fill(batch[i].values, batch[i].values + batch[i].state->num_players(), 0.0f);
    }
  }
};

}  // namespace

TEST_CASE("gumbel: Sequential Halving's visit schedule, worked by hand", "[search][gumbel]") {
  std::vector<int32_t> schedule;
  // 4 moves, 8 simulations: log2(4) = 2 phases; the first gives each of the 4
  // one visit (8 / (2 * 4) = 1), the second each of the best 2 two more.
  mcts::detail::considered_visits(4, 8, schedule);
  CHECK(schedule == std::vector<int32_t>{0, 0, 0, 0, 1, 1, 2, 2});
  // 2 moves, 6 simulations: one phase of 3 visits each.
  mcts::detail::considered_visits(2, 6, schedule);
  CHECK(schedule == std::vector<int32_t>{0, 0, 1, 1, 2, 2});
  // One move: all simulations go to it.
  mcts::detail::considered_visits(1, 3, schedule);
  CHECK(schedule == std::vector<int32_t>{0, 1, 2});
}

TEST_CASE("gumbel: the improved policy is softmax(logit + sigma(q)), worked by hand", "[search][gumbel]") {
  // 4 simulations: the root's evaluation, then one visit per arm. q = (1, 0, -1)
  // normalizes to (1, 0.5, 0); sigma = (c_visit + 1) * c_scale = 5.1 per unit.
  Search<Bandit> search(gumbel(4, 3, 0.0));
  UniformEvaluator<Bandit> evaluator;
  const Action a = search.run(BanditState(), evaluator);
  CHECK(a == 0);
  for (Action arm = 0; arm < 3; ++arm) CHECK(search.child_visits(arm) == 1);
  const std::vector<float> policy = improved(search);
  const double w0 = std::exp(5.1), w1 = std::exp(2.55), w2 = 1.0, total = w0 + w1 + w2;
  CHECK(policy[0] == Approx(w0 / total).epsilon(1e-4));
  CHECK(policy[1] == Approx(w1 / total).epsilon(1e-4));
  CHECK(policy[2] == Approx(w2 / total).epsilon(1e-4));
}

TEST_CASE("gumbel: unvisited moves get the mixed value estimate in the improved policy", "[search][gumbel]") {
  // 2 simulations: the root's evaluation (value 0) and one arm. The other two
  // arms are completed by (v_root + N * q_visited) / (1 + N).
  Search<Bandit> search(gumbel(2, 5, 0.0));
  UniformEvaluator<Bandit> evaluator;
  search.run(BanditState(), evaluator);
  Action visited = -1;
  for (Action arm = 0; arm < 3; ++arm)
    if (search.child_visits(arm) == 1) visited = arm;
  REQUIRE(visited >= 0);
  const double q = 1.0 - visited, mixed = (0.0 + 1.0 * q) / 2.0;
  const double lo = std::min(q, mixed), range = std::max(std::abs(q - mixed), 1e-8);
  const double sigma = (50.0 + 1) * 0.1;
  const double w_visited = std::exp(sigma * (q - lo) / range),
               w_other = std::exp(sigma * (mixed - lo) / range);
  const std::vector<float> policy = improved(search);
  CHECK(policy[static_cast<std::size_t>(visited)] ==
        Approx(w_visited / (w_visited + 2 * w_other)).epsilon(1e-4));
  CHECK(std::accumulate(policy.begin(), policy.end(), 0.0) == Approx(1.0));
}

TEST_CASE("gumbel: a few simulations find Nim's forced win", "[search][gumbel]") {
  for (int stones : {5, 6, 7}) {
    INFO("stones " << stones);
    Search<Nim> search(gumbel(48, static_cast<uint64_t>(stones), 0.0));
    RolloutEvaluator<Nim> rollouts;
    const Action a = search.run(NimState(2, stones), rollouts);
    CHECK(a == stones % 4 - 1);
    const std::vector<float> policy = improved(search);
    CHECK(std::max_element(policy.begin(), policy.end()) - policy.begin() == stones % 4 - 1);
  }
}

TEST_CASE("gumbel: max-n values pick the kingmaker's right move", "[search][gumbel]") {
  Search<Kingmaker> search(gumbel(64, 2, 0.0));
  RolloutEvaluator<Kingmaker> rollouts;
  CHECK(search.run(KingmakerState(), rollouts) == 1);  // Right
}

TEST_CASE("gumbel: with a hidden card the root passes instead of guessing", "[search][gumbel]") {
  HiddenCardState root(7);
  Search<HiddenCard> search(gumbel(200, 3, 0.0));
  RolloutEvaluator<HiddenCard> rollouts;
  CHECK(search.run(root, rollouts) == HiddenCardState::kPass);
  const std::vector<float> policy = improved(search);
  CHECK(std::max_element(policy.begin(), policy.end()) - policy.begin() == HiddenCardState::kPass);
}

TEST_CASE("gumbel: chance inside apply is sampled per simulation; the safe move wins", "[search][gumbel]") {
  // Whatever die the true state would roll, the search must weigh the odds.
  for (uint64_t seed : {1, 2, 3, 4}) {
    Search<Gamble> search(gumbel(64, seed, 0.0));
    RolloutEvaluator<Gamble> rollouts;
    CHECK(search.run(GambleState(seed), rollouts) == 0);
    CHECK(search.child_value(1, 0) == Approx(-1.0 / 3.0).margin(0.3));
  }
}

TEST_CASE("gumbel: noise makes self-play explore; without it the search is deterministic",
          "[search][gumbel]") {
  // Two simulations, uniform priors, values 0: every arm looks the same to the
  // search, so with noise the arm played depends on the seed.
  std::vector<int> played(3, 0);
  for (uint64_t seed = 0; seed < 60; ++seed) {
    Search<Bandit> search(gumbel(1, seed, 1.0));
    UniformEvaluator<Bandit> evaluator;
    ++played[static_cast<std::size_t>(search.run(BanditState(), evaluator))];
  }
  for (int n : played) CHECK(n > 5);
  Search<Bandit> quiet(gumbel(1, 0, 0.0));
  UniformEvaluator<Bandit> evaluator;
  const Action first = quiet.run(BanditState(), evaluator);
  for (uint64_t seed = 1; seed < 10; ++seed) {
    Search<Bandit> again(gumbel(1, seed, 0.0));
    CHECK(again.run(BanditState(), evaluator) == first);
  }
}

TEST_CASE("gumbel: batched and one-by-one evaluation give the same searches", "[search][gumbel]") {
  constexpr int kGames = 5;
  std::vector<Search<HiddenCard>> alone, together;
  for (int i = 0; i < kGames; ++i) {
    alone.emplace_back(gumbel(40, 100 + i));
    together.emplace_back(gumbel(40, 100 + i));
  }
  std::vector<Action> moves(kGames);
  std::vector<std::vector<float>> policies;
  for (int i = 0; i < kGames; ++i) {
    UniformEvaluator<HiddenCard> evaluator;
    moves[static_cast<std::size_t>(i)] =
        alone[static_cast<std::size_t>(i)].run(HiddenCardState(i), evaluator);
    policies.push_back(improved(alone[static_cast<std::size_t>(i)]));
  }
  std::vector<Search<HiddenCard>*> pointers;
  for (int i = 0; i < kGames; ++i) {
    together[static_cast<std::size_t>(i)].start(HiddenCardState(i));
    pointers.push_back(&together[static_cast<std::size_t>(i)]);
  }
  UniformEvaluator<HiddenCard> evaluator;
  std::vector<Leaf<HiddenCardState>> batch;
  run_batched(pointers.data(), kGames, evaluator, batch);
  for (int i = 0; i < kGames; ++i) {
    CHECK(together[static_cast<std::size_t>(i)].choose_action() == moves[static_cast<std::size_t>(i)]);
    CHECK(improved(together[static_cast<std::size_t>(i)]) == policies[static_cast<std::size_t>(i)]);
  }
}

TEST_CASE("gumbel: options are checked and read from YAML", "[search][gumbel]") {
  Options o = gumbel(8);
  o.dirichlet_fraction = 0.25;
  CHECK_THROWS_WITH(o.validate(), Catch::Contains("dirichlet_fraction"));
  o = gumbel(8);
  o.gumbel_considered = 0;
  CHECK_THROWS_WITH(o.validate(), Catch::Contains("gumbel_considered"));
  const Options loaded =
      parse_options(ConfigNode::parse("root: gumbel\ngumbel_considered: 4\nc_scale: 0.2\n", "agent.yaml"));
  CHECK(loaded.root == RootSelection::kGumbel);
  CHECK(loaded.gumbel_considered == 4);
  CHECK(loaded.c_scale == 0.2);
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("root: best\n", "agent.yaml")), Catch::Contains("root"));
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("root: gumbel\ndirichlet_fraction: 0.3\n", "agent.yaml")),
                    Catch::Contains("agent.yaml"));
  // The gumbel root plays Sequential Halving's pick: a temperature would be ignored.
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("root: gumbel\ntemperature: 1\n", "agent.yaml")),
                    Catch::Contains("temperature"));
}
