#include "envs/core/vector_env.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/worker_pool.h"

using namespace rocketgym;

namespace {

struct Snapshot {
  std::vector<float> obs, rewards;
  std::vector<uint8_t> mask, terminated, truncated;
  std::vector<int32_t> current;
  bool operator==(const Snapshot& o) const {
    return obs == o.obs && rewards == o.rewards && mask == o.mask && terminated == o.terminated &&
           truncated == o.truncated && current == o.current;
  }
};

Snapshot snapshot(AnyVectorEnv& env) {
  const auto n = static_cast<std::size_t>(env.num_envs());
  Snapshot s;
  s.obs.assign(env.observations(), env.observations() + n * env.observation_size());
  s.rewards.assign(env.rewards(), env.rewards() + n * env.num_players());
  s.mask.assign(env.action_masks(), env.action_masks() + n * env.num_actions());
  s.terminated.assign(env.terminated(), env.terminated() + n);
  s.truncated.assign(env.truncated(), env.truncated() + n);
  s.current.assign(env.current_players(), env.current_players() + n);
  return s;
}

}  // namespace

TEST_CASE("vector env: identical results with 1 and 2 threads", "[vector]") {
  for (const auto& id : Registry::instance().ids()) {
    DYNAMIC_SECTION(id) {
      auto game = load_game(id);
      const int players = game->info().min_players;
      auto one = game->new_vector_env(12, players, 7, 1);
      auto two = game->new_vector_env(12, players, 7, 2);
      std::vector<Action> a1(12), a2(12);
      int finished = 0;
      for (int step = 0; step < 400; ++step) {
        REQUIRE(snapshot(*one) == snapshot(*two));
        one->sample_random_actions(a1.data());
        two->sample_random_actions(a2.data());
        REQUIRE(a1 == a2);
        one->step(a1.data());
        two->step(a2.data());
        for (int i = 0; i < 12; ++i) finished += one->terminated()[i] + one->truncated()[i];
      }
      REQUIRE(snapshot(*one) == snapshot(*two));
      INFO("games finished: " << finished);
    }
  }
}

TEST_CASE("vector env: env i replays alone from its documented seed", "[vector]") {
  for (const auto& id : Registry::instance().ids()) {
    DYNAMIC_SECTION(id) {
      auto game = load_game(id);
      const int players = game->info().min_players;
      auto env = game->new_vector_env(4, players, 123, 2);
      for (int i = 0; i < 4; ++i) {
        auto alone = game->new_state(players, episode_seed(123, static_cast<uint64_t>(i), 0));
        REQUIRE(env->state(i)->to_json() == alone->to_json());
        std::vector<float> obs(static_cast<std::size_t>(env->observation_size()));
        alone->encode(alone->current_player(), obs.data());
        REQUIRE(std::memcmp(obs.data(), env->observations() + i * env->observation_size(),
                            obs.size() * sizeof(float)) == 0);
      }
    }
  }
}

TEST_CASE("vector env: an illegal action steps no env", "[vector]") {
  for (const auto& id : Registry::instance().ids()) {
    DYNAMIC_SECTION(id) {
      auto game = load_game(id);
      auto env = game->new_vector_env(3, game->info().min_players, 5, 2);
      std::vector<Action> actions(3);
      env->sample_random_actions(actions.data());
      const std::string before = env->state(0)->to_json();
      std::vector<Action> bad = actions;
      bad[2] = env->num_actions();  // out of range
      REQUIRE_THROWS_AS(env->step(bad.data()), IllegalAction);
      bad[2] = -3;
      REQUIRE_THROWS_AS(env->step(bad.data()), IllegalAction);
      for (Action a = 0; a < env->num_actions(); ++a)
        if (!env->action_masks()[2 * env->num_actions() + a]) {
          bad[2] = a;
          REQUIRE_THROWS_AS(env->step(bad.data()), IllegalAction);
          break;
        }
      REQUIRE(env->state(0)->to_json() == before);
      REQUIRE_NOTHROW(env->step(actions.data()));
    }
  }
}

TEST_CASE("vector env: auto-reset reports the final returns once", "[vector]") {
  for (const auto& id : Registry::instance().ids()) {
    DYNAMIC_SECTION(id) {
      auto game = load_game(id);
      const int players = game->info().min_players;
      auto env = game->new_vector_env(1, players, 11, 1);
      // Replay env 0 alone next to the vector env and compare the outcome.
      auto alone = game->new_state(players, episode_seed(11, 0, 0));
      std::vector<Action> action(1);
      while (!alone->is_terminal()) {
        REQUIRE(env->terminated()[0] == 0);
        REQUIRE(env->truncated()[0] == 0);
        for (int p = 0; p < players; ++p) REQUIRE(env->rewards()[p] == 0.0f);
        env->sample_random_actions(action.data());
        alone->apply(action[0]);
        env->step(action.data());
      }
      REQUIRE((env->terminated()[0] ^ env->truncated()[0]) == 1);
      REQUIRE(static_cast<bool>(env->truncated()[0]) == alone->is_truncated());
      const auto returns = alone->returns();
      for (int p = 0; p < players; ++p) REQUIRE(env->rewards()[p] == returns[static_cast<std::size_t>(p)]);
      REQUIRE(env->episode_steps()[0] == 0);
      auto next = game->new_state(players, episode_seed(11, 0, 1));
      REQUIRE(env->state(0)->to_json() == next->to_json());
      env->sample_random_actions(action.data());
      env->step(action.data());
      REQUIRE(env->terminated()[0] + env->truncated()[0] <= 1);
    }
  }
}

// ---- The threads of the vector envs (envs/core/worker_pool.h) ----

TEST_CASE("worker pool: every index runs once, whatever the threads", "[vector]") {
  for (int threads : {1, 2, 3, 5}) {
    WorkerPool pool(threads);
    for (int n : {1, 2, 7, 64, 1000}) {
      std::vector<std::atomic<int>> runs(static_cast<std::size_t>(n));
      for (int round = 0; round < 3; ++round)
        pool.run(n, [&](int i) { ++runs[static_cast<std::size_t>(i)]; });
      for (int i = 0; i < n; ++i) REQUIRE(runs[static_cast<std::size_t>(i)].load() == 3);
    }
  }
}

TEST_CASE("worker pool: run() does not wait for a worker that never runs", "[vector]") {
  // Workers not started are what a descheduled thread looks like to the
  // others: an OpenMP barrier would wait for them for ever. The caller takes
  // their shares and returns; started later, they join in.
  WorkerPool pool(3, /*start=*/false);
  std::vector<std::thread::id> ran_on(100);
  pool.run(100, [&](int i) { ran_on[static_cast<std::size_t>(i)] = std::this_thread::get_id(); });
  for (const auto& id : ran_on) REQUIRE(id == std::this_thread::get_id());
  pool.start_workers();
  std::vector<int> runs(100, 0);
  for (int round = 0; round < 5; ++round) pool.run(100, [&](int i) { ++runs[static_cast<std::size_t>(i)]; });
  for (int r : runs) REQUIRE(r == 5);
}

TEST_CASE("worker pool: the exception of the lowest index reaches the caller, after every index ran",
          "[vector]") {
  for (int threads : {1, 2}) {
    WorkerPool pool(threads);
    std::vector<int> runs(50, 0);
    try {
      pool.run(50, [&](int i) {
        ++runs[static_cast<std::size_t>(i)];
        if (i == 7 || i == 40) throw Error("index " + std::to_string(i));
      });
      FAIL("no exception");
    } catch (const Error& e) {
      REQUIRE(std::string(e.what()) == "index 7");
    }
    for (int r : runs) REQUIRE(r == 1);
    REQUIRE_NOTHROW(pool.run(50, [&](int i) { ++runs[static_cast<std::size_t>(i)]; }));
  }
}
