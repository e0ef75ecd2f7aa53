// Information-set MCTS on a real game, Launchpad 23 (envs/launchpad23): finds
// a winning move, does not peek at secret set-up choices, and beats random
// play. Uses the type-erased entry point too.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/game_model.h"
#include "games/launchpad23/launchpad23_game.h"
#include "training/mcts/rollout.h"

using namespace rocketgym;
using namespace rocketgym::mcts;
using G = launchpad23::Game;
using launchpad23::State;

namespace {

const launchpad23::Config& config() {
  static const launchpad23::Config c =
      launchpad23::load_config(ConfigNode::parse(builtin_game_config("launchpad23"), "launchpad23.yaml"));
  return c;
}

// Rollouts by the heuristic bot: random play almost never finishes a rocket
// (every playout would be a draw), see RolloutPolicy.
Options heuristic_search(int simulations, uint64_t seed) {
  Options o;
  o.simulations = simulations;
  o.seed = seed;
  o.rollout_policy = RolloutPolicy::kHeuristic;
  o.heuristic_prior = 0.5;
  return o;
}

Action random_legal(const State& s, Rng& rng) {
  std::vector<uint8_t> mask(launchpad23::kNumActions);
  s.legal_actions_mask(mask.data());
  std::vector<Action> legal;
  for (Action a = 0; a < launchpad23::kNumActions; ++a)
    if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

void put(State& s, int space, int colour, int size) {
  --s.mutable_board().bank[launchpad23::piece_type(colour, size)];
  ++s.mutable_board().spaces[space][launchpad23::piece_type(colour, size)];
}

}  // namespace

TEST_CASE("launchpad23: the search completes its rocket when one move wins", "[search][launchpad23]") {
  // Two players, seat 0 (pad = space 0) moving with one move left. Its pad
  // holds four small pieces; the small black one lies east of it on space 1.
  // Seat 1's pad (space 8) is one move from a rocket too, so any other move
  // loses on seat 1's turn.
  Json doc = State(config(), 2, 1).to_json();
  doc["phase"] = "moves";
  doc["current_player"] = 0;
  doc["dice"] = {{"size", "S"}, {"colour", "red"}};
  doc["moves_left"] = 1;
  doc["setup_choices"] = {"small", "small"};
  State s = State::from_json(doc, config());
  const int kBlack = 4, kSmall = 0, kLarge = 2, kWest = 3;
  for (int colour = 0; colour < 4; ++colour) put(s, 0, colour, kSmall);
  put(s, 1, kBlack, kSmall);
  for (int colour = 0; colour < 4; ++colour) put(s, 8, colour, kLarge);
  put(s, 7, kBlack, kLarge);
  REQUIRE(s.pad_of(1) == 8);
  s.check_invariants();
  const Action win =
      launchpad23::kMoveBase +
      (1 * launchpad23::kPieceTypes + launchpad23::piece_type(kBlack, kSmall)) * launchpad23::kDirections +
      kWest;
  REQUIRE(s.is_legal(win));

  for (int depth : {0, 8}) {  // playouts to the end; cut off after 8 moves and valued by the estimate
    Options options = heuristic_search(300, 3);
    options.rollout_depth = depth;
    Search<G> search(options);
    RolloutEvaluator<G> rollouts(search.options());
    const Action chosen = search.run(s, rollouts);
    INFO("depth " << depth << ", chosen " << s.action_to_string(chosen));
    CHECK(chosen == win);
    CHECK(search.child_value(win, 0) == 1.0f);
  }
  s.apply(win);
  CHECK(s.winner() == 0);
}

TEST_CASE("launchpad23: the search does not peek at another seat's secret set-up choice",
          "[search][launchpad23]") {
  // Seat 0 has secretly chosen its starting size; seat 1 now chooses. Two
  // positions that differ only in seat 0's secret give the very same search.
  std::vector<std::vector<float>> policies;
  for (Action secret = launchpad23::kSetupBase; secret < launchpad23::kSetupBase + 3; ++secret) {
    State s(config(), 2, 17);
    s.apply(secret);
    REQUIRE(s.current_player() == 1);
    Search<G> search(heuristic_search(60, 8));
    RolloutEvaluator<G> rollouts(search.options());
    const Action a = search.run(s, rollouts);
    CHECK(s.is_legal(a));
    std::vector<float> policy(launchpad23::kNumActions);
    search.visit_policy(policy.data());
    policies.push_back(policy);
  }
  CHECK(policies[0] == policies[1]);
  CHECK(policies[0] == policies[2]);
}

TEST_CASE("launchpad23: the search beats a random player from every seat", "[search][launchpad23]") {
  // Seeded games; the search sits in each seat in turn. (Figures with more
  // games and simulations: docs/search.md.)
  for (int players : {2, 4}) {
    int wins = 0;
    const int games = 4;
    RolloutMcts<G> agent(heuristic_search(40, 11));
    Rng rng(5);
    for (int g = 0; g < games; ++g) {
      const int seat = g % players;
      State s(config(), players, derive_seed(2026, static_cast<uint64_t>(g)));
      while (!s.is_terminal()) s.apply(s.current_player() == seat ? agent.act(s) : random_legal(s, rng));
      wins += s.winner() == seat ? 1 : 0;
    }
    INFO(players << " players: the search won " << wins << " of " << games);
    CHECK(wins == games);
  }
}
