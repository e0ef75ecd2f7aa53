// Information-set MCTS on tiny games whose answers are known by hand
// (tests/search/test_games.h).
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <vector>

#include "envs/core/config.h"
#include "tests/search/test_games.h"
#include "training/mcts/rollout.h"

using namespace rocketgym;
using namespace rocketgym::mcts;
using rocketgym::search_test::HiddenCard;
using rocketgym::search_test::HiddenCardState;
using rocketgym::search_test::Kingmaker;
using rocketgym::search_test::KingmakerState;
using rocketgym::search_test::Nim;
using rocketgym::search_test::NimState;

namespace {

Options with_simulations(int simulations, uint64_t seed = 1) {
  Options o;
  o.simulations = simulations;
  o.seed = seed;
  return o;
}

template <class G>
std::vector<float> policy_of(const Search<G>& search) {
  std::vector<float> out(static_cast<std::size_t>(G::info().num_actions));
  search.visit_policy(out.data());
  return out;
}

// A stand-in for a network: fixed priors, a fixed value for every seat, and a
// record of what it was asked.
template <class G>
struct FixedEvaluator {
  std::vector<float> priors;
  float value = 0.0f;
  int leaves = 0;
  int calls = 0;
  int largest_batch = 0;
  void evaluate(Leaf<typename G::State>* batch, int count) {
    ++calls;
    largest_batch = std::max(largest_batch, count);
    for (int i = 0; i < count; ++i) {
      ++leaves;
      std::copy(priors.begin(), priors.end(), batch[i].priors);
      for (int p = 0; p < batch[i].state->num_players(); ++p) batch[i].values[p] = value;
    }
  }
};

}  // namespace

TEST_CASE("nim: the search finds the forced win for the player to move", "[search]") {
  // With 4k + r stones (r = 1..3) the winning move takes r stones.
  for (int stones : {5, 6, 7, 9, 10, 11}) {
    INFO("stones " << stones);
    Search<Nim> search(with_simulations(2000));
    RolloutEvaluator<Nim> rollouts;
    const Action a = search.run(NimState(2, stones), rollouts);
    CHECK(a == stones % 4 - 1);
    // The mover wins with best play, so its value is clearly positive.
    CHECK(search.child_value(a, 0) > 0.5f);
  }
}

TEST_CASE("nim: a lost position is valued as lost for the mover", "[search]") {
  // 8 stones: whatever the mover takes, the opponent can leave a multiple of 4.
  Search<Nim> search(with_simulations(3000));
  RolloutEvaluator<Nim> rollouts;
  search.run(NimState(2, 8), rollouts);
  for (Action a = 0; a < 3; ++a) CHECK(search.child_value(a, 0) < 0.0f);
  CHECK(search.root_value(0) < 0.0f);
  CHECK(search.root_value(1) > 0.0f);
}

TEST_CASE("nim: values are kept per seat and add up like the returns", "[search]") {
  // Three players, 2 stones: taking both wins at once.
  Search<Nim> search(with_simulations(500));
  RolloutEvaluator<Nim> rollouts;
  CHECK(search.run(NimState(3, 2), rollouts) == 1);
  CHECK(search.child_value(1, 0) == Approx(1.0f));
  CHECK(search.child_value(1, 1) == Approx(-0.5f));
  CHECK(search.child_value(1, 2) == Approx(-0.5f));
  // Every simulation backs up a zero-sum vector, so the root's means sum to 0.
  CHECK(search.root_value(0) + search.root_value(1) + search.root_value(2) == Approx(0.0f).margin(1e-4));
}

TEST_CASE("kingmaker: max-n backup picks the move each seat's own choices make best", "[search]") {
  Options options = with_simulations(20000);
  options.c_puct = 1.0;
  Search<Kingmaker> search(options);
  RolloutEvaluator<Kingmaker> rollouts;
  const Action a = search.run(KingmakerState(), rollouts);
  CHECK(a == 1);  // Right
  // Left: seat 1 answers with outcome 1 -> (-0.5, 0.0, 0.5).
  CHECK(search.child_value(0, 0) == Approx(-0.5f).margin(0.15));
  CHECK(search.child_value(0, 2) == Approx(0.5f).margin(0.15));
  // Right: seat 2 answers with outcome 0 -> (0.0, 0.0, 0.1).
  CHECK(search.child_value(1, 0) == Approx(0.0f).margin(0.1));
  CHECK(search.child_value(1, 2) == Approx(0.1f).margin(0.1));
  CHECK(search.root_value(2) == Approx(0.1f).margin(0.1));
}

TEST_CASE("hidden card: the search samples the hidden card instead of reading it", "[search]") {
  // Whatever the true card, seat 0 must pass: a peeking search would guess it.
  for (int card = 0; card < 3; ++card) {
    INFO("card " << card);
    HiddenCardState root(7);
    root.set_card(card);
    Search<HiddenCard> search(with_simulations(3000));
    RolloutEvaluator<HiddenCard> rollouts;
    CHECK(search.run(root, rollouts) == HiddenCardState::kPass);
    CHECK(search.child_value(HiddenCardState::kPass, 0) == Approx(0.5f).margin(0.15));
    // A blind guess is right one time in three: 1/3 - 2/3 = -1/3.
    for (int guess = 0; guess < 3; ++guess)
      CHECK(search.child_value(HiddenCardState::kGuess + guess, 0) < 0.0f);
  }
}

TEST_CASE("hidden card: redeterminize is called once per simulation, for the viewer", "[search]") {
  FixedEvaluator<HiddenCard> evaluator;
  evaluator.priors.assign(8, 1.0f);
  Search<HiddenCard> search(with_simulations(250));
  HiddenCardState::redeterminize_calls() = 0;
  HiddenCardState::last_viewer() = -1;
  search.run(HiddenCardState(3), evaluator);
  CHECK(HiddenCardState::redeterminize_calls() == 250);
  CHECK(HiddenCardState::last_viewer() == 0);
  CHECK(search.simulations_done() == 250);
}

TEST_CASE("hidden card: the evaluator is shown sampled worlds, never only the true one", "[search]") {
  // The true card is 2; the leaves the evaluator sees hold every card.
  struct CardRecorder {
    std::array<int, 3> seen{};
    void evaluate(Leaf<HiddenCardState>* leaves, int count) {
      for (int i = 0; i < count; ++i) {
        ++seen[static_cast<std::size_t>(leaves[i].state->card())];
        std::fill(leaves[i].priors, leaves[i].priors + 8, 1.0f);
        leaves[i].values[0] = leaves[i].values[1] = 0.0f;
      }
    }
  } recorder;
  HiddenCardState root(1);
  root.set_card(2);
  // No room to expand the root: every simulation evaluates a root world.
  Options options = with_simulations(300);
  options.max_nodes = 2;
  Search<HiddenCard> search(options);
  search.run(root, recorder);
  for (int card = 0; card < 3; ++card) CHECK(recorder.seen[static_cast<std::size_t>(card)] > 60);
}

TEST_CASE("hidden card: the extra rollouts re-sample the world for the viewer", "[search]") {
  // One leaf evaluation with 4 rollouts: 3 of them redeterminize.
  Options options;
  options.rollouts = 4;
  RolloutEvaluator<HiddenCard> rollouts(options);
  HiddenCardState leaf(5);
  std::array<float, 8> priors{};
  std::array<float, 2> values{};
  Leaf<HiddenCardState> request{&leaf, 0, 99, priors.data(), values.data()};
  HiddenCardState::redeterminize_calls() = 0;
  rollouts.evaluate(&request, 1);
  CHECK(HiddenCardState::redeterminize_calls() == 3);
  // Uniform priors on the legal moves only.
  for (Action a = 0; a < 8; ++a) CHECK(priors[a] == Approx(a <= HiddenCardState::kPass ? 0.2f : 0.0f));
  CHECK(values[0] + values[1] == Approx(0.0f).margin(1e-6));
}

TEST_CASE("heuristic rollouts play the game's heuristic bot; epsilon mixes in random moves", "[search]") {
  // Nim's heuristic plays perfectly: from 5 stones the mover (seat 0) wins,
  // from 8 stones it loses, in every playout.
  Options options;
  options.rollouts = 20;
  options.rollout_policy = RolloutPolicy::kHeuristic;
  auto evaluate = [](const Options& o, int stones) {
    RolloutEvaluator<Nim> rollouts(o);
    NimState leaf(2, stones);
    std::array<float, 4> priors{};
    std::array<float, 2> values{};
    Leaf<NimState> request{&leaf, 0, 7, priors.data(), values.data()};
    rollouts.evaluate(&request, 1);
    return values;
  };
  CHECK(evaluate(options, 5) == std::array<float, 2>{1.0f, -1.0f});
  CHECK(evaluate(options, 8) == std::array<float, 2>{-1.0f, 1.0f});
  // Random playouts (or heuristic ones that always deviate) lose some won games.
  options.rollout_epsilon = 1.0;
  CHECK(evaluate(options, 5)[0] < 1.0f);
  options.rollout_policy = RolloutPolicy::kRandom;
  options.rollout_epsilon = 0.0;
  CHECK(evaluate(options, 5)[0] < 1.0f);
}

TEST_CASE("a heuristic prior puts its share on the heuristic bot's move", "[search]") {
  // 21 stones: the heuristic takes 1 (leaving 20); half the prior goes there.
  Options options = with_simulations(30);
  options.heuristic_prior = 0.5;
  Search<Nim> search(options);
  RolloutEvaluator<Nim> rollouts(options);
  search.run(NimState(2, 21), rollouts);
  CHECK(search.child_prior(0) == Approx(0.5f + 0.5f / 3.0f));
  CHECK(search.child_prior(1) == Approx(0.5f / 3.0f));
  CHECK(search.child_prior(2) == Approx(0.5f / 3.0f));
  CHECK(search.child_visits(0) > search.child_visits(1));
}

TEST_CASE("a playout that does not end within max_decisions counts as a draw", "[search]") {
  // Nim claiming at most 3 decisions per game: 20 stones need at least 7.
  struct ShortNim : Nim {
    static GameInfo info() {
      GameInfo i = Nim::info();
      i.max_decisions = 3;
      return i;
    }
  };
  Options options;
  options.rollouts = 5;
  RolloutEvaluator<ShortNim> rollouts(options);
  NimState leaf(2, 20);
  std::array<float, 4> priors{};
  std::array<float, 2> values{1.0f, 1.0f};
  Leaf<NimState> request{&leaf, 0, 3, priors.data(), values.data()};
  rollouts.evaluate(&request, 1);
  CHECK(values == std::array<float, 2>{0.0f, 0.0f});
}

// Nim with an estimate of a position: the mover's value is +0.25 whatever
// the stones (a deliberately wrong guess, so that a test sees which value a
// playout returned); it records the stones of the last position it saw.
struct EstimatedNim : Nim {
  static inline int last_stones = -1;
  static void estimate_returns(const NimState& s, float* out) {
    last_stones = s.stones();
    for (int p = 0; p < s.num_players(); ++p) out[p] = p == s.current_player() ? 0.25f : -0.25f;
  }
};

TEST_CASE("rollout_depth stops a playout after that many moves and takes the game's estimate", "[search]") {
  Options options;
  options.rollout_policy = RolloutPolicy::kHeuristic;  // perfect play: from 20 stones seat 0 loses
  auto evaluate = [&](int depth) {
    options.rollout_depth = depth;
    RolloutEvaluator<EstimatedNim> rollouts(options);
    NimState leaf(2, 20);
    std::array<float, 4> priors{};
    std::array<float, 2> values{};
    Leaf<NimState> request{&leaf, 0, 5, priors.data(), values.data()};
    EstimatedNim::last_stones = -1;
    rollouts.evaluate(&request, 1);
    return values;
  };
  // Depth 0 plays to the end: the true result, no estimate asked.
  CHECK(evaluate(0) == std::array<float, 2>{-1.0f, 1.0f});
  CHECK(EstimatedNim::last_stones == -1);
  // Three moves (take 1, take 3, take 1: 20 -> 15 stones), then seat 1 is to
  // move and the estimate gives it +0.25.
  CHECK(evaluate(3) == std::array<float, 2>{-0.25f, 0.25f});
  CHECK(EstimatedNim::last_stones == 15);
  // A game that ends within the depth is valued by its returns.
  CHECK(evaluate(64) == std::array<float, 2>{-1.0f, 1.0f});
  CHECK(EstimatedNim::last_stones == -1);
}

TEST_CASE("rollout_depth is refused for a game without an estimate of a position", "[search]") {
  Options options;
  options.rollout_depth = 4;
  CHECK_THROWS_WITH(RolloutEvaluator<Nim>(options), Catch::Contains("rollout_depth must be 0 for test_nim") &&
                                                        Catch::Contains("estimate_returns"));
  CHECK_THROWS_AS(RolloutMcts<Nim>(options), Error);
  CHECK_NOTHROW(RolloutMcts<EstimatedNim>(options));
  options.rollout_depth = -1;
  CHECK_THROWS_WITH(RolloutEvaluator<EstimatedNim>(options), Catch::Contains("rollout_depth"));
  options.rollout_depth = kRolloutDepthRange.max + 1;
  CHECK_THROWS_WITH(RolloutEvaluator<EstimatedNim>(options), Catch::Contains("rollout_depth"));
}

TEST_CASE("hidden card: an opponent's moves that depend on the hidden card all get children", "[search]") {
  // After pass, seat 1's only legal move is to show its card, which differs
  // between sampled worlds; the tree learns a reply per shown card.
  HiddenCardState root(11);
  Search<HiddenCard> search(with_simulations(2000));
  RolloutEvaluator<HiddenCard> rollouts;
  search.run(root, rollouts);
  // With every card shown at some point, the pass line is played perfectly.
  CHECK(search.child_value(HiddenCardState::kPass, 0) > 0.4f);
  CHECK(search.num_nodes() >= 1 + 5 + 3 + 3 * 3);
}

TEST_CASE("the search only plays and visits legal moves", "[search]") {
  // 2 stones: taking 3 (action 2) and the never-legal action 3 are illegal.
  Search<Nim> search(with_simulations(300));
  RolloutEvaluator<Nim> rollouts;
  const Action a = search.run(NimState(2, 2), rollouts);
  CHECK(a == 1);
  const auto policy = policy_of(search);
  CHECK(policy[2] == 0.0f);
  CHECK(policy[3] == 0.0f);
  CHECK(search.child_visits(2) == 0);
  CHECK(std::accumulate(policy.begin(), policy.end(), 0.0f) == Approx(1.0f));
  // Random positions: every chosen move is legal, also when sampled by temperature.
  Options options = with_simulations(50);
  options.temperature = 1.0;
  Search<Nim> sampler(options);
  for (int stones = 1; stones <= 20; ++stones) {
    NimState s(3, stones);
    CHECK(s.is_legal(sampler.run(s, rollouts)));
  }
}

TEST_CASE("the same seed gives the same search; the seed sequence restarts on reseed", "[search]") {
  HiddenCardState root(21);
  RolloutEvaluator<HiddenCard> rollouts;
  Search<HiddenCard> first(with_simulations(300, 42));
  Search<HiddenCard> second(with_simulations(300, 42));
  first.run(root, rollouts);
  second.run(root, rollouts);
  const auto policy = policy_of(first);
  CHECK(policy == policy_of(second));
  // A second search of the same object uses the next seed of the sequence...
  first.run(root, rollouts);
  const auto next = policy_of(first);
  // ...and reseeding starts the sequence again.
  first.reseed(42);
  first.run(root, rollouts);
  CHECK(policy_of(first) == policy);
  first.run(root, rollouts);
  CHECK(policy_of(first) == next);
}

TEST_CASE("batched evaluation over several searches gives the same results as one by one", "[search]") {
  RolloutEvaluator<Nim> rollouts;
  std::vector<NimState> roots{NimState(2, 9), NimState(3, 13), NimState(4, 6)};
  std::vector<std::vector<float>> alone;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    Search<Nim> search(with_simulations(100 + 50 * static_cast<int>(i), i));
    search.run(roots[i], rollouts);
    alone.push_back(policy_of(search));
  }
  // The same searches, advanced together, with one evaluator call per round.
  struct Counting {
    RolloutEvaluator<Nim> inner;
    int calls = 0;
    int largest = 0;
    void evaluate(Leaf<NimState>* leaves, int count) {
      ++calls;
      largest = std::max(largest, count);
      inner.evaluate(leaves, count);
    }
  } counting;
  std::vector<Search<Nim>> searches;
  for (std::size_t i = 0; i < roots.size(); ++i)
    searches.emplace_back(with_simulations(100 + 50 * static_cast<int>(i), i));
  std::vector<Search<Nim>*> pointers;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    searches[i].start(roots[i]);
    pointers.push_back(&searches[i]);
  }
  std::vector<Leaf<NimState>> batch;
  run_batched(pointers.data(), static_cast<int>(pointers.size()), counting, batch);
  CHECK(counting.largest == 3);
  CHECK(counting.calls <= 200);  // the longest search's leaves, at most one per simulation
  for (std::size_t i = 0; i < roots.size(); ++i) {
    CHECK(searches[i].finished());
    CHECK(policy_of(searches[i]) == alone[i]);
  }
}

TEST_CASE("an evaluator's priors guide the search; weight on illegal moves is dropped", "[search]") {
  FixedEvaluator<Nim> evaluator;
  evaluator.priors = {0.1f, 0.6f, 0.0f, 100.0f};  // action 3 is never legal
  Options options = with_simulations(40);
  options.c_puct = 5.0;
  Search<Nim> search(options);
  search.run(NimState(2, 20), evaluator);
  CHECK(search.child_prior(0) == Approx(0.1f / 0.7f));
  CHECK(search.child_prior(1) == Approx(0.6f / 0.7f));
  CHECK(search.child_prior(2) == 0.0f);
  CHECK(search.child_prior(3) == 0.0f);
  // All values are equal, so visits follow the priors.
  CHECK(search.child_visits(1) > search.child_visits(0));
  CHECK(search.child_visits(0) > search.child_visits(2));
  CHECK(search.best_action() == 1);
}

TEST_CASE("priors that are all zero on the legal moves become uniform", "[search]") {
  FixedEvaluator<Nim> evaluator;
  evaluator.priors = {0.0f, 0.0f, 0.0f, 1.0f};
  Search<Nim> search(with_simulations(10));
  search.run(NimState(2, 20), evaluator);
  for (Action a = 0; a < 3; ++a) CHECK(search.child_prior(a) == Approx(1.0f / 3.0f));
}

TEST_CASE("Dirichlet noise changes the root priors, keeps them a distribution, and is seeded", "[search]") {
  FixedEvaluator<Nim> evaluator;
  evaluator.priors = {1.0f, 1.0f, 1.0f, 0.0f};
  Options options = with_simulations(20, 5);
  options.dirichlet_fraction = 0.5;
  options.dirichlet_alpha = 0.3;
  auto priors_after = [&](const Options& o) {
    Search<Nim> search(o);
    search.run(NimState(2, 20), evaluator);
    return std::array<float, 3>{search.child_prior(0), search.child_prior(1), search.child_prior(2)};
  };
  const auto noisy = priors_after(options);
  CHECK(noisy[0] + noisy[1] + noisy[2] == Approx(1.0f));
  CHECK(noisy != std::array<float, 3>{1.0f / 3, 1.0f / 3, 1.0f / 3});
  for (float p : noisy) CHECK(p >= 0.5f / 3.0f - 1e-6f);  // (1 - f) of the prior always stays
  CHECK(priors_after(options) == noisy);
  options.dirichlet_fraction = 0.0;
  const auto plain = priors_after(options);
  for (float p : plain) CHECK(p == Approx(1.0f / 3.0f));
}

TEST_CASE("the gamma sampler behind the Dirichlet noise has the right mean", "[search]") {
  Rng rng(3);
  double sum = 0.0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) sum += mcts::detail::sample_gamma(0.3, rng);
  CHECK(sum / n == Approx(0.3).margin(0.02));  // the mean of Gamma(alpha, 1) is alpha
  sum = 0.0;
  for (int i = 0; i < n; ++i) sum += mcts::detail::sample_gamma(2.5, rng);
  CHECK(sum / n == Approx(2.5).margin(0.06));
}

TEST_CASE("temperature 0 plays the most visited move; a high temperature samples others", "[search]") {
  FixedEvaluator<Nim> evaluator;
  evaluator.priors = {0.2f, 0.5f, 0.3f, 0.0f};
  Options options = with_simulations(60);
  Search<Nim> greedy(options);
  greedy.run(NimState(2, 20), evaluator);
  CHECK(greedy.choose_action() == greedy.best_action());
  CHECK(greedy.best_action() == 1);
  options.temperature = 50.0;  // nearly uniform over the visited moves
  Search<Nim> sampler(options);
  std::array<int, 4> picked{};
  for (int i = 0; i < 60; ++i) ++picked[static_cast<std::size_t>(sampler.run(NimState(2, 20), evaluator))];
  CHECK(picked[0] > 0);
  CHECK(picked[1] > 0);
  CHECK(picked[2] > 0);
  CHECK(picked[3] == 0);
}

TEST_CASE("a forced move is returned without searching unless asked to search", "[search]") {
  FixedEvaluator<Nim> evaluator;
  evaluator.priors.assign(4, 1.0f);
  Search<Nim> quick(with_simulations(100));
  CHECK(quick.run(NimState(2, 1), evaluator) == 0);
  CHECK(evaluator.leaves == 0);
  CHECK(quick.simulations_done() == 0);
  CHECK(policy_of(quick) == std::vector<float>{1, 0, 0, 0});
  Options options = with_simulations(100);
  options.search_forced_moves = true;
  Search<Nim> thorough(options);
  CHECK(thorough.run(NimState(2, 1), evaluator) == 0);
  CHECK(thorough.simulations_done() == 100);
  CHECK(thorough.root_value(0) == Approx(0.99f));  // one evaluation worth 0, then 99 wins
}

TEST_CASE("a full node arena degrades to evaluating leaves without expanding them", "[search]") {
  Options options = with_simulations(300);
  options.max_nodes = 5;
  Search<Nim> search(options);
  RolloutEvaluator<Nim> rollouts;
  const Action a = search.run(NimState(2, 6), rollouts);
  CHECK(search.num_nodes() <= 5);
  CHECK(search.simulations_done() == 300);
  CHECK(a == 1);  // the root's children are still searched: take 2, leave 4
  // Not even room for the root's children: the first legal move.
  options.max_nodes = 2;
  Search<Nim> tiny(options);
  CHECK(tiny.run(NimState(2, 6), rollouts) == 0);
  CHECK(tiny.num_nodes() == 1);
  CHECK(policy_of(tiny) == std::vector<float>{1, 0, 0, 0});
}

TEST_CASE("bad use and bad options are errors, not crashes", "[search]") {
  Options bad;
  bad.simulations = 0;
  CHECK_THROWS_AS(Search<Nim>(bad), Error);
  bad = Options{};
  bad.dirichlet_fraction = 1.5;
  CHECK_THROWS_AS(Search<Nim>(bad), Error);
  bad = Options{};
  bad.c_puct = std::nan("");
  CHECK_THROWS_AS(Search<Nim>(bad), Error);
  bad = Options{};
  bad.rollout_epsilon = -0.5;
  CHECK_THROWS_AS(RolloutEvaluator<Nim>(bad), Error);

  Search<Nim> search(with_simulations(10));
  RolloutEvaluator<Nim> rollouts;
  CHECK_THROWS_AS(search.advance(), Error);  // before start()
  NimState over(2, 1);
  over.apply(0);
  CHECK_THROWS_AS(search.run(over, rollouts), Error);
  search.start(NimState(2, 9));
  CHECK_THROWS_AS(search.best_action(), Error);  // not finished
  CHECK_THROWS_AS(search.root_value(7), Error);

  FixedEvaluator<Nim> broken;
  broken.priors.assign(4, 1.0f);
  broken.value = std::nanf("");
  CHECK_THROWS_AS(Search<Nim>(with_simulations(10)).run(NimState(2, 9), broken), Error);
}

TEST_CASE("search options load from YAML strictly", "[search]") {
  const auto node = ConfigNode::parse(
      "simulations: 64\nc_puct: 2.5\nrollouts: 3\nrollout_policy: heuristic\nrollout_epsilon: 0.1\n"
      "heuristic_prior: 0.4\nplayout_weight: 0.5\n"
      "temperature: 1\ndirichlet_alpha: 0.5\n"
      "dirichlet_fraction: 0.25\nmax_nodes: 1000\nsearch_forced_moves: true\n",
      "agent.yaml");
  const Options o = parse_options(node);
  CHECK(o.simulations == 64);
  CHECK(o.c_puct == 2.5);
  CHECK(o.rollouts == 3);
  CHECK(o.rollout_policy == RolloutPolicy::kHeuristic);
  CHECK(o.rollout_epsilon == 0.1);
  CHECK(o.heuristic_prior == 0.4);
  CHECK(o.playout_weight == 0.5);
  CHECK(o.temperature == 1.0);
  CHECK(o.dirichlet_alpha == 0.5);
  CHECK(o.dirichlet_fraction == 0.25);
  CHECK(o.max_nodes == 1000);
  CHECK(o.search_forced_moves);
  CHECK(parse_options(ConfigNode::parse("", "empty.yaml")).simulations == Options{}.simulations);
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("simulation: 5\n", "agent.yaml")),
                    Catch::Contains("agent.yaml") && Catch::Contains("simulation"));
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("x: 1\nsimulations: 0\n", "agent.yaml")),
                    Catch::Contains("x"));
  CHECK_THROWS_AS(parse_options(ConfigNode::parse("simulations: 0\n", "agent.yaml")), ConfigError);
  CHECK_THROWS_AS(parse_options(ConfigNode::parse("c_puct: many\n", "agent.yaml")), ConfigError);
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("rollout_policy: smart\n", "agent.yaml")),
                    Catch::Contains("rollout_policy"));
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("playout_weight: 1.5\n", "agent.yaml")),
                    Catch::Contains("agent.yaml:1") && Catch::Contains("playout_weight"));
  // Arena and self-play reseed every search: a seed key would do nothing.
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("simulations: 8\nseed: 9\n", "agent.yaml")),
                    Catch::Contains("agent.yaml:2") && Catch::Contains("seed"));
}
