// OpponentVectorEnv (training/players/opponent_env.h): the learner sees only
// its own decisions and its own return, opponents play as the arena would,
// games do not depend on the number of envs or threads, and bad answers are
// errors that leave the env usable after reset().
#include "training/players/opponent_env.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "games/launchpad23/launchpad23_game.h"
#include "models/policy_value_net.h"
#include "training/game_setup.h"

using namespace rocketgym;
using G = launchpad23::Game;
using Env = players::OpponentVectorEnv<G>;

namespace {

std::shared_ptr<const G::Config> config() {
  static const auto game = load_game("launchpad23");
  return typed_config<G>(*game);
}

std::unique_ptr<Env> make_env(int num_envs, int num_players, int seat, const std::vector<std::string>& specs,
                              uint64_t seed, int threads = 1) {
  std::vector<std::unique_ptr<players::Player<G>>> opponents;
  for (const auto& spec : specs)
    opponents.push_back(players::make_player<G>(players::parse_player(spec), {threads, num_envs}));
  return std::make_unique<Env>(config(), num_envs, num_players, seat, std::move(opponents), specs, seed,
                               threads);
}

// The learner's action in env i: the first legal one (a function of the
// position only, whatever the batch).
std::vector<Action> first_legal(Env& env) {
  std::vector<Action> actions(static_cast<std::size_t>(env.num_envs()));
  for (int i = 0; i < env.num_envs(); ++i) {
    const uint8_t* mask = env.action_masks() + static_cast<std::size_t>(i) * env.num_actions();
    actions[static_cast<std::size_t>(i)] =
        static_cast<Action>(std::find(mask, mask + env.num_actions(), 1) - mask);
  }
  return actions;
}

// A player that answers `answer` for every decision (a broken bot).
class FixedAnswer final : public players::Player<G> {
 public:
  explicit FixedAnswer(Action answer) : answer_(answer) {}
  void act(players::Decision<G>* d, int count) override {
    for (int k = 0; k < count; ++k) d[k].action = answer_;
  }

 private:
  Action answer_;
};

// The heuristic bot, except that its `n`-th decision is answered with an
// in-range action that is not legal there (once).
class BreaksOnce final : public players::Player<G> {
 public:
  explicit BreaksOnce(int n) : left_(n) {}
  void act(players::Decision<G>* d, int count) override {
    for (int k = 0; k < count; ++k) {
      d[k].action = G::heuristic_action(*d[k].state, *d[k].rng);
      if (--left_ != 0) continue;
      for (Action a = 0; a < G::info().num_actions; ++a)
        if (!d[k].state->is_legal(a)) {
          d[k].action = a;
          broke = true;
          break;
        }
    }
  }
  bool broke = false;

 private:
  int left_;
};

}  // namespace

TEST_CASE("the learner sees its own seat's view and is always to move", "[opponent_env]") {
  for (int seat : {0, 1, 2}) {
    INFO("seat " << seat);
    auto env = make_env(6, 3, seat, {"heuristic"}, 11);
    std::vector<float> expected(static_cast<std::size_t>(env->observation_size()));
    std::vector<uint8_t> mask(static_cast<std::size_t>(env->num_actions()));
    for (int step = 0; step < 60; ++step) {
      for (int i = 0; i < env->num_envs(); ++i) {
        const G::State& s = env->state(i);
        REQUIRE(s.current_player() == seat);
        REQUIRE(env->seats()[i] == seat);
        G::Encoder::encode(s, seat, expected.data());
        const float* obs = env->observations() + static_cast<std::size_t>(i) * env->observation_size();
        REQUIRE(std::equal(expected.begin(), expected.end(), obs));
        s.legal_actions_mask(mask.data());
        REQUIRE(std::equal(mask.begin(), mask.end(),
                           env->action_masks() + static_cast<std::size_t>(i) * env->num_actions()));
      }
      std::vector<Action> actions(static_cast<std::size_t>(env->num_envs()));
      env->sample_random_actions(actions.data());
      env->step(actions.data());
    }
  }
}

TEST_CASE("the learner's rewards sum to its return, also when an opponent ends the game", "[opponent_env]") {
  // Each game replayed alone, move by move: the learner's recorded actions at
  // its seat, the heuristic bot's at the others with the arena's streams.
  const int players = 2, seat = 1, envs = 4;
  const uint64_t seed = 5;
  auto env = make_env(envs, players, seat, {"heuristic"}, seed);
  std::vector<std::vector<Action>> learner(envs);
  std::vector<int> episode(envs, 0);
  int games = 0, ended_by_opponent = 0;
  while (games < 40) {
    std::vector<Action> actions(envs);
    env->sample_random_actions(actions.data());
    for (int i = 0; i < envs; ++i)
      learner[static_cast<std::size_t>(i)].push_back(actions[static_cast<std::size_t>(i)]);
    env->step(actions.data());
    for (int i = 0; i < envs; ++i) {
      const auto e = static_cast<std::size_t>(i);
      if (!env->terminated()[i] && !env->truncated()[i]) {
        CHECK(env->rewards()[i] == 0.0f);
        continue;
      }
      const uint64_t game_seed = episode_seed(seed, e, static_cast<uint64_t>(episode[e]++));
      G::State s(*config(), players, game_seed);
      std::size_t next = 0;
      int moves = 0, last_mover = -1;
      while (!s.is_terminal()) {
        last_mover = s.current_player();
        if (last_mover == seat) {
          s.apply(learner[e].at(next++));
        } else {
          Rng rng(streams::move_seed(game_seed, static_cast<uint64_t>(moves)));
          s.apply(G::heuristic_action(s, rng));
        }
        ++moves;
      }
      CHECK(next == learner[e].size());
      CHECK(env->final_episode_steps()[i] == static_cast<int>(learner[e].size()));
      float returns[4];
      s.returns(returns);
      CHECK(env->rewards()[i] == returns[seat]);
      CHECK(env->final_returns()[e * players + seat] == returns[seat]);
      CHECK(env->final_seats()[i] == seat);
      std::vector<float> final_view(static_cast<std::size_t>(env->observation_size()));
      G::Encoder::encode(s, seat, final_view.data());
      CHECK(std::equal(final_view.begin(), final_view.end(),
                       env->final_observations() + e * env->observation_size()));
      ended_by_opponent += last_mover != seat;
      learner[e].clear();
      ++games;
      CHECK(env->episode_steps()[i] == 0);
    }
  }
  CHECK(ended_by_opponent > 0);
}

TEST_CASE("env i plays the same games whatever the number of envs and threads", "[opponent_env]") {
  int finished = 0;  // games seen to end (and restart): the seeds of later games are compared too
  for (const char* opponent : {"heuristic", "random", "ismcts:8"}) {
    INFO(opponent);
    auto wide = make_env(7, 3, Env::kRandomSeat, {opponent}, 21, 1);
    auto narrow = make_env(3, 3, Env::kRandomSeat, {opponent}, 21, 2);
    for (int step = 0; step < 80; ++step) {
      for (int i = 0; i < 3; ++i) {
        REQUIRE(wide->state(i).to_json().dump() == narrow->state(i).to_json().dump());
        REQUIRE(wide->seats()[i] == narrow->seats()[i]);
        REQUIRE(wide->rewards()[i] == narrow->rewards()[i]);
        finished += wide->terminated()[i];
      }
      auto a = first_legal(*wide), b = first_legal(*narrow);
      wide->step(a.data());
      narrow->step(b.data());
    }
  }
  CHECK(finished > 0);
}

// Hides a player behind another Player, so that the env cannot play it
// inline and asks it in rounds, as it asks a network.
class AskedInRounds final : public players::Player<G> {
 public:
  explicit AskedInRounds(const std::string& spec)
      : inner_(players::make_player<G>(players::parse_player(spec), {})) {}
  void act(players::Decision<G>* d, int count) override { inner_->act(d, count); }

 private:
  std::unique_ptr<players::Player<G>> inner_;
};

// A player of the test's own type that says it acts alone (as the heuristic
// bot it wraps does): the env asks the player what it supports, not its type.
class CountedAlone final : public players::Player<G> {
 public:
  CountedAlone() : inner_(players::make_player<G>(players::parse_player("heuristic"), {})) {}
  void act(players::Decision<G>* d, int count) override {
    batches += 1;
    inner_->act(d, count);
  }
  bool acts_alone() const override { return true; }
  Action act_alone(const players::Decision<G>& d, uint8_t* mask) const override {
    ++alone;
    return inner_->act_alone(d, mask);
  }
  int batches = 0;
  mutable std::atomic<int> alone{0};

 private:
  std::unique_ptr<players::Player<G>> inner_;
};

TEST_CASE("an opponent that acts alone is played inline, whatever its type", "[opponent_env]") {
  std::vector<std::unique_ptr<players::Player<G>>> opponents;
  opponents.push_back(std::make_unique<CountedAlone>());
  const auto* counted = static_cast<const CountedAlone*>(opponents.front().get());
  Env env(config(), 4, 2, 0, std::move(opponents), {"mine"}, 5, 2);
  auto reference = make_env(4, 2, 0, {"heuristic"}, 5, 2);
  for (int step = 0; step < 60; ++step) {
    for (int i = 0; i < 4; ++i)
      REQUIRE(env.state(i).to_json().dump() == reference->state(i).to_json().dump());
    auto a = first_legal(env);
    env.step(a.data());
    reference->step(a.data());
  }
  CHECK(counted->batches == 0);
  CHECK(counted->alone.load() > 0);
}

TEST_CASE("the heuristic and random opponents played inline play the same games as asked in rounds",
          "[opponent_env]") {
  // (opponents, players): one for every seat, and one per seat mixing the two ways.
  const std::vector<std::pair<std::vector<std::string>, int>> tables = {
      {{"heuristic"}, 2},
      {{"random"}, 2},
      {{"heuristic", "random"}, 3},
      {{"random", "heuristic", "random"}, 4}};
  int finished = 0;
  for (const auto& [specs, players] : tables) {
    INFO(specs.front() << ", " << players << " players");
    std::vector<std::unique_ptr<players::Player<G>>> asked;
    for (const auto& spec : specs) asked.push_back(std::make_unique<AskedInRounds>(spec));
    // In the mixed tables the first opponent stays inline, so both ways meet in one game.
    auto inline_env = make_env(5, players, Env::kRandomSeat, specs, 33, 2);
    if (specs.size() > 1) asked.front() = players::make_player<G>(players::parse_player(specs.front()), {});
    Env rounds(config(), 5, players, Env::kRandomSeat, std::move(asked), specs, 33, 2);
    for (int step = 0; step < 150; ++step) {
      for (int i = 0; i < 5; ++i) {
        REQUIRE(inline_env->state(i).to_json().dump() == rounds.state(i).to_json().dump());
        REQUIRE(inline_env->rewards()[i] == rounds.rewards()[i]);
        REQUIRE(inline_env->terminated()[i] == rounds.terminated()[i]);
        finished += inline_env->terminated()[i];
      }
      const std::size_t obs = static_cast<std::size_t>(5) * inline_env->observation_size();
      REQUIRE(
          std::equal(inline_env->observations(), inline_env->observations() + obs, rounds.observations()));
      REQUIRE(std::equal(inline_env->final_observations(), inline_env->final_observations() + obs,
                         rounds.final_observations()));
      const std::size_t masks = static_cast<std::size_t>(5) * inline_env->num_actions();
      REQUIRE(
          std::equal(inline_env->action_masks(), inline_env->action_masks() + masks, rounds.action_masks()));
      auto a = first_legal(*inline_env);
      inline_env->step(a.data());
      rounds.step(a.data());
    }
  }
  CHECK(finished > 0);
}

// A small mlp for Launchpad 23 at `players` seats, its weights drawn so that
// its policy is far from uniform (a greedy tie would hide a wrong sum).
PolicyValueNet small_network(int players) {
  NetSpec spec;
  spec.config.kind = "mlp";
  spec.config.hidden = 24;  // not a multiple of the loops' 16 outputs
  spec.config.blocks = 1;
  spec.observation_shape = G::Encoder::shape(*config(), players);
  spec.num_actions = G::info().num_actions;
  spec.num_players = players;
  PolicyValueNet net(spec);
  torch::NoGradGuard no_grad;
  for (auto& p : net->parameters()) p.normal_(0.0, 0.5);
  return net;
}

TEST_CASE("a network opponent played in groups inside the env plays the games it plays one env at a time",
          "[opponent_env]") {
  // Played in groups: the runner holds a row per env, so the env plays its
  // moves in its own loop, groups of up to 8 envs per forward pass. One env
  // at a time: a runner of one row cannot, so the env asks it in rounds and
  // it evaluates the rows one by one.
  const bool greedy = GENERATE(true, false);
  const int players = GENERATE(2, 3);
  INFO((greedy ? "greedy" : "sampled") << ", " << players << " players");
  const PolicyValueNet net = small_network(players);
  auto network = [&](int threads, int rows) -> std::unique_ptr<players::Player<G>> {
    return players::make_player<G>(players::PlayerSpec{"net", players::Checkpoint{"", greedy}, net},
                                   players::PlayerOptions{threads, rows});
  };
  // With 3 players the second seat is the heuristic bot's, played inline between the network's moves.
  auto opponents = [&](int threads, int rows) {
    std::vector<std::unique_ptr<players::Player<G>>> list;
    list.push_back(network(threads, rows));
    if (players == 3) list.push_back(players::make_player<G>(players::parse_player("heuristic"), {}));
    return list;
  };
  const std::vector<std::string> names =
      players == 3 ? std::vector<std::string>{"net", "heuristic"} : std::vector<std::string>{"net"};
  constexpr int kEnvs = 19;
  Env grouped(config(), kEnvs, players, Env::kRandomSeat, opponents(2, kEnvs), names, 51, 2);
  Env narrow(config(), 5, players, Env::kRandomSeat, opponents(3, 5), names, 51, 3);
  Env one_at_a_time(config(), kEnvs, players, Env::kRandomSeat, opponents(1, 1), names, 51, 1);
  int finished = 0;
  uint64_t decisions = 0;
  for (int step = 0; step < 300; ++step) {
    for (int i = 0; i < kEnvs; ++i) {
      REQUIRE(grouped.state(i).to_json().dump() == one_at_a_time.state(i).to_json().dump());
      REQUIRE(grouped.rewards()[i] == one_at_a_time.rewards()[i]);
      REQUIRE(grouped.terminated()[i] == one_at_a_time.terminated()[i]);
      if (i < 5) REQUIRE(grouped.state(i).to_json().dump() == narrow.state(i).to_json().dump());
      REQUIRE(grouped.truncated()[i] == one_at_a_time.truncated()[i]);
      finished +=
          grouped.terminated()[i] + grouped.truncated()[i];  // games that restarted: later seeds compared too
    }
    const std::size_t obs = static_cast<std::size_t>(kEnvs) * grouped.observation_size();
    REQUIRE(std::equal(grouped.observations(), grouped.observations() + obs, one_at_a_time.observations()));
    REQUIRE(std::equal(grouped.final_observations(), grouped.final_observations() + obs,
                       one_at_a_time.final_observations()));
    const std::size_t masks = static_cast<std::size_t>(kEnvs) * grouped.num_actions();
    REQUIRE(std::equal(grouped.action_masks(), grouped.action_masks() + masks, one_at_a_time.action_masks()));
    decisions = grouped.decisions_played();
    // Random legal learner moves, from each env's own stream (the same in the three envs).
    std::vector<Action> a(kEnvs), b(kEnvs), c(5);
    grouped.sample_random_actions(a.data());
    one_at_a_time.sample_random_actions(b.data());
    narrow.sample_random_actions(c.data());
    REQUIRE(a == b);
    REQUIRE(std::equal(c.begin(), c.end(), a.begin()));
    grouped.step(a.data());
    one_at_a_time.step(a.data());
    narrow.step(c.data());
  }
  // At 3 players games end and restart within the 300 steps (later seeds
  // compared too); a 2-player game against this network lasts longer.
  if (players == 3) CHECK(finished > 0);
  CHECK(decisions > 300 * kEnvs);  // the opponents moved too
}

TEST_CASE("a random seat is drawn from each game's seed and covers every seat", "[opponent_env]") {
  auto a = make_env(60, 3, Env::kRandomSeat, {"random", "heuristic"}, 8);
  auto b = make_env(60, 3, Env::kRandomSeat, {"random", "heuristic"}, 8);
  auto c = make_env(60, 3, Env::kRandomSeat, {"random", "heuristic"}, 9);
  std::set<int> seen;
  int differ = 0;
  for (int i = 0; i < 60; ++i) {
    seen.insert(a->seats()[i]);
    CHECK(a->seats()[i] == b->seats()[i]);
    CHECK(a->state(i).current_player() == a->seats()[i]);
    differ += a->seats()[i] != c->seats()[i];
  }
  CHECK(seen == std::set<int>{0, 1, 2});
  CHECK(differ > 10);
}

TEST_CASE("one opponent per seat plays the seats clockwise from the learner", "[opponent_env]") {
  // Opponent 0 (seat learner+1) answers illegally, opponent 1 is fine: the
  // error names the first, so it was asked for the seat after the learner's.
  std::vector<std::unique_ptr<players::Player<G>>> opponents;
  opponents.push_back(std::make_unique<FixedAnswer>(-1));
  opponents.push_back(players::make_player<G>(players::parse_player("heuristic"), {}));
  CHECK_THROWS_WITH(Env(config(), 2, 3, 2, std::move(opponents), {"broken", "bot"}, 1, 1),
                    Catch::Contains("opponent 'broken' returned action -1 in env 0: out of range"));
}

TEST_CASE("bad arguments and bad answers are errors; the env is usable after reset", "[opponent_env]") {
  CHECK_THROWS_WITH(make_env(2, 3, 0, {"heuristic", "heuristic", "heuristic"}, 1),
                    Catch::Contains("takes 1 opponent (for every other seat) or 2 (one per seat), got 3"));
  CHECK_THROWS_WITH(make_env(2, 2, 2, {"heuristic"}, 1),
                    Catch::Contains("seat 2 is not a seat of a 2-player game"));
  CHECK_THROWS_WITH(make_env(0, 2, 0, {"heuristic"}, 1), Catch::Contains("num_envs must be at least 1"));

  SECTION("an illegal learner action names the env and steps nothing") {
    auto env = make_env(3, 2, 0, {"heuristic"}, 3);
    const std::string before = env->state(0).to_json().dump();
    std::vector<Action> actions = first_legal(*env);
    actions[2] = G::info().num_actions;
    CHECK_THROWS_WITH(env->step(actions.data()),
                      Catch::Contains("env 2: action") && Catch::Contains("out of range"));
    const uint8_t* mask = env->action_masks() + 2 * env->num_actions();
    actions[2] = static_cast<Action>(std::find(mask, mask + env->num_actions(), 0) - mask);
    CHECK_THROWS_WITH(env->step(actions.data()), Catch::Contains("is not legal; no env was stepped"));
    CHECK(env->state(0).to_json().dump() == before);
  }

  SECTION("an opponent's illegal answer names it; step refuses until reset") {
    std::vector<std::unique_ptr<players::Player<G>>> opponents;
    auto broken = std::make_unique<BreaksOnce>(5);
    BreaksOnce* bot = broken.get();
    opponents.push_back(std::move(broken));
    Env env(config(), 2, 2, 0, std::move(opponents), {"flaky"}, 4, 1);
    bool failed = false;
    for (int step = 0; step < 20 && !failed; ++step) {
      auto actions = first_legal(env);
      try {
        env.step(actions.data());
      } catch (const Error& e) {
        failed = true;
        CHECK_THAT(e.what(),
                   Catch::Contains("opponent 'flaky' returned action") && Catch::Contains("is not legal"));
      }
    }
    REQUIRE(failed);
    REQUIRE(bot->broke);
    auto actions = first_legal(env);
    CHECK_THROWS_WITH(env.step(actions.data()), Catch::Contains("call reset()"));
    env.reset(4);
    for (int step = 0; step < 30; ++step) {
      actions = first_legal(env);
      env.step(actions.data());
    }
  }
}

namespace {

// A player whose every answer fails, as a search over a network whose values
// overflow does; asked in rounds, or inline when it says it acts alone.
class Failing final : public players::Player<G> {
 public:
  explicit Failing(bool alone) : alone_(alone) {}
  void act(players::Decision<G>*, int) override { fail(); }
  bool acts_alone() const override { return alone_; }
  Action act_alone(const players::Decision<G>&, uint8_t*) const override { fail(); }

 private:
  [[noreturn]] static void fail() { throw Error("mcts: the evaluator returned a non-finite value"); }
  bool alone_;
};

}  // namespace

TEST_CASE("an opponent's error names the agent, asked in rounds or inline", "[opponent_env]") {
  for (const bool alone : {false, true}) {
    INFO((alone ? "inline" : "in rounds"));
    std::vector<std::unique_ptr<players::Player<G>>> opponents;
    opponents.push_back(std::make_unique<Failing>(alone));
    Env env(config(), 2, 2, 0, std::move(opponents), {"broken"}, 4, 1);
    auto actions = first_legal(env);
    CHECK_THROWS_WITH(env.step(actions.data()),
                      Catch::StartsWith("agent 'broken': mcts: the evaluator returned a non-finite value"));
  }
}

TEST_CASE("a restored env steps on as the one its slots were read from", "[opponent_env]") {
  auto env = make_env(3, 3, Env::kRandomSeat, {"random", "heuristic"}, 12, 2);
  for (int t = 0; t < 40; ++t) env->step(first_legal(*env).data());
  // Not started: no opponent is asked; every env is put back from the original.
  std::vector<std::unique_ptr<players::Player<G>>> opponents;
  for (const char* spec : {"random", "heuristic"})
    opponents.push_back(players::make_player<G>(players::parse_player(spec), {1, 3}));
  Env copy(config(), 3, 3, Env::kRandomSeat, std::move(opponents), {"random", "heuristic"}, 0, 1, true,
           false);
  CHECK(copy.broken());
  const auto seed = static_cast<uint64_t>(12);
  for (int i = 0; i < 3; ++i) copy.restore(seed, i, env->state(i), env->slot(i));
  CHECK_FALSE(copy.broken());
  CHECK(copy.decisions_played() == env->decisions_played());
  for (int t = 0; t < 200; ++t) {
    const auto actions = first_legal(*env);
    env->step(actions.data());
    copy.step(actions.data());
    for (int i = 0; i < 3; ++i) {
      CHECK(copy.state(i).to_json() == env->state(i).to_json());
      CHECK(copy.seats()[i] == env->seats()[i]);
      CHECK(copy.rewards()[i] == env->rewards()[i]);
    }
  }
  CHECK_THROWS_WITH(copy.restore(seed, 3, env->state(0), env->slot(0)), Catch::Contains("out of range"));
  auto slot = env->slot(0);
  slot.seat = (slot.seat + 1) % 3;
  CHECK_THROWS_WITH(copy.restore(seed, 0, env->state(0), slot),
                    Catch::Contains("not at the learner's decision"));
}

TEST_CASE("an interrupt stops a step between rounds and the env refuses until reset", "[opponent_env]") {
  int polls = 0;
  players::Interrupt interrupt([&] { return ++polls == 2; });
  std::vector<std::unique_ptr<players::Player<G>>> opponents;
  players::PlayerOptions options{1, 4};
  options.interrupt = &interrupt;
  opponents.push_back(players::make_player<G>(players::parse_player("ismcts:20"), options));
  Env env(config(), 4, 2, 0, std::move(opponents), {"ismcts:20"}, 3, 1);
  env.set_interrupt(&interrupt);
  interrupt.arm();
  // Poll 1: the round of the search's moves; poll 2: its first search, which stops the step.
  CHECK_THROWS_AS(env.step(first_legal(env).data()), players::Interrupted);
  CHECK(polls == 2);
  CHECK(env.broken());
  CHECK_THROWS_WITH(env.step(first_legal(env).data()), Catch::Contains("call reset()"));
  interrupt.arm();
  polls = 100;  // no more stops
  env.reset(3);
  env.step(first_legal(env).data());
}
