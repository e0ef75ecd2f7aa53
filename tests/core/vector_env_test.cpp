#include "envs/core/vector_env.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/game_model.h"
#include "envs/core/worker_pool.h"
#include "generated/game_list.h"
#include "tests/common/conformance.h"

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

// ---- AsyncVectorEnv ----

namespace {

// FNV-1a over 8-byte words (the tail byte by byte): fast enough to hash every view.
struct Fnv1a {
  uint64_t h = 1469598103934665603ull;
  void add(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t word;
      std::memcpy(&word, b + i, 8);
      h = (h ^ word) * 1099511628211ull;
    }
    for (; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
};

struct Sizes {
  std::size_t obs, actions, players;
};

// What one env shows after a step or a reset: its rows of the outputs.
struct EnvView {
  const float* obs;
  const uint8_t* mask;
  int32_t current;
  const float* rewards;
  uint8_t terminated, truncated;
  int32_t steps;
  const float* final_obs;
  int32_t final_steps;
};

void add_view(Fnv1a& h, const EnvView& v, const Sizes& z) {
  h.add(v.obs, z.obs * sizeof(float));
  h.add(v.mask, z.actions);
  h.add(&v.current, sizeof v.current);
  h.add(v.rewards, z.players * sizeof(float));
  h.add(&v.terminated, 1);
  h.add(&v.truncated, 1);
  h.add(&v.steps, sizeof v.steps);
  if (v.terminated || v.truncated) {
    h.add(v.final_obs, z.players * z.obs * sizeof(float));
    h.add(&v.final_steps, sizeof v.final_steps);
  }
}

// A policy that depends only on (env, its step count, its observation).
Action policy(int env, int step, const float* obs, const uint8_t* mask, const Sizes& z) {
  Fnv1a h;
  h.add(&env, sizeof env);
  h.add(&step, sizeof step);
  h.add(obs, z.obs * sizeof(float));
  std::size_t legal = 0;
  for (std::size_t a = 0; a < z.actions; ++a) legal += mask[a] != 0;
  std::size_t pick = h.h % legal;
  for (std::size_t a = 0; a < z.actions; ++a)
    if (mask[a] && pick-- == 0) return static_cast<Action>(a);
  return -1;
}

// Each env's first `steps` steps under policy(), hashed, with the sync env.
std::vector<uint64_t> sync_trajectories(const AnyGame& game, int n, int players, uint64_t seed, int steps,
                                        long& finished) {
  auto env = game.new_vector_env(n, players, seed, 2);
  const Sizes z{static_cast<std::size_t>(env->observation_size()),
                static_cast<std::size_t>(env->num_actions()), static_cast<std::size_t>(players)};
  std::vector<Fnv1a> hash(static_cast<std::size_t>(n));
  auto view = [&](int i) {
    const auto e = static_cast<std::size_t>(i);
    return EnvView{env->observations() + e * z.obs,
                   env->action_masks() + e * z.actions,
                   env->current_players()[i],
                   env->rewards() + e * z.players,
                   env->terminated()[i],
                   env->truncated()[i],
                   env->episode_steps()[i],
                   env->final_observations() + e * z.players * z.obs,
                   env->final_episode_steps()[i]};
  };
  for (int i = 0; i < n; ++i) add_view(hash[static_cast<std::size_t>(i)], view(i), z);
  std::vector<Action> actions(static_cast<std::size_t>(n));
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      const EnvView v = view(i);
      actions[static_cast<std::size_t>(i)] = policy(i, s, v.obs, v.mask, z);
    }
    env->step(actions.data());
    for (int i = 0; i < n; ++i) {
      add_view(hash[static_cast<std::size_t>(i)], view(i), z);
      finished += env->terminated()[i] + env->truncated()[i];
    }
  }
  std::vector<uint64_t> out;
  for (const Fnv1a& h : hash) out.push_back(h.h);
  return out;
}

// How the driver sends a batch's actions: the completion order of a
// single-threaded async env is the order of its queue, so each gives other
// batches (deterministically).
enum class SendOrder { as_received, reversed, shuffled_in_two, hold_one_back };

// The same with the async env, driven in `order` until every env made `steps` steps.
std::vector<uint64_t> async_trajectories(AnyAsyncVectorEnv& env, int steps, SendOrder order) {
  const int n = env.num_envs(), k = env.batch_size();
  const Sizes z{static_cast<std::size_t>(env.observation_size()), static_cast<std::size_t>(env.num_actions()),
                static_cast<std::size_t>(env.num_players())};
  std::vector<Fnv1a> hash(static_cast<std::size_t>(n));
  std::vector<int> taken(static_cast<std::size_t>(n), 0), seen(static_cast<std::size_t>(n), 0);
  std::vector<Action> actions;
  std::vector<int32_t> ids, held;
  Rng shuffle(99);
  int complete = 0;
  while (complete < n) {
    const AsyncBatch b = env.batch(env.recv());
    actions.clear();
    ids.clear();
    for (int j = 0; j < k; ++j) {
      const int i = b.env_ids[j];
      const auto e = static_cast<std::size_t>(i), row = static_cast<std::size_t>(j);
      const EnvView v{b.observations + row * z.obs,
                      b.action_masks + row * z.actions,
                      b.current_players[j],
                      b.rewards + row * z.players,
                      b.terminated[j],
                      b.truncated[j],
                      b.episode_steps[j],
                      b.final_observations + row * z.players * z.obs,
                      b.final_episode_steps[j]};
      if (seen[e] <= steps) {
        add_view(hash[e], v, z);
        if (++seen[e] == steps + 1) ++complete;
      }
      actions.push_back(policy(i, taken[e]++, v.obs, v.mask, z));
      ids.push_back(i);
    }
    switch (order) {
      case SendOrder::as_received:
        env.send(actions.data(), ids.data(), k);
        break;
      case SendOrder::reversed:
        std::reverse(actions.begin(), actions.end());
        std::reverse(ids.begin(), ids.end());
        env.send(actions.data(), ids.data(), k);
        break;
      case SendOrder::shuffled_in_two: {
        for (int j = k - 1; j > 0; --j) {
          const auto r = static_cast<std::size_t>(shuffle.below(static_cast<uint32_t>(j + 1)));
          std::swap(actions[static_cast<std::size_t>(j)], actions[r]);
          std::swap(ids[static_cast<std::size_t>(j)], ids[r]);
        }
        env.send(actions.data(), ids.data(), k / 2);
        env.send(actions.data() + k / 2, ids.data() + k / 2, k - k / 2);
        break;
      }
      case SendOrder::hold_one_back: {
        // The envs held last round go first; this batch's first env waits a round
        // (while the others may be stepped and come back before it).
        std::vector<Action> first;
        std::vector<int32_t> first_ids;
        for (std::size_t h = 0; h < held.size(); h += 2) {
          first.push_back(held[h + 1]);
          first_ids.push_back(held[h]);
        }
        held.clear();
        if (n > k) {
          held = {ids[0], actions[0]};
          env.send(first.data(), first_ids.data(), static_cast<int>(first.size()));
          env.send(actions.data() + 1, ids.data() + 1, k - 1);
        } else {
          env.send(actions.data(), ids.data(), k);
        }
        break;
      }
    }
  }
  std::vector<uint64_t> out;
  for (const Fnv1a& h : hash) out.push_back(h.h);
  return out;
}

}  // namespace

TEST_CASE("async vector env: each env's games equal the sync env's, whatever the completion order",
          "[vector]") {
  constexpr int kEnvs = 4, kSteps = 1500;
  for (const auto& id : Registry::instance().ids()) {
    DYNAMIC_SECTION(id) {
      auto game = load_game(id);
      const int players = game->info().min_players;
      long finished = 0;
      const auto expected = sync_trajectories(*game, kEnvs, players, 21, kSteps, finished);
      INFO("games finished in the sync env: " << finished);
      REQUIRE(finished >= kEnvs);  // the hashes cover final views and auto-resets
      // Every batch size (3: batches that straddle the ring's blocks) with every
      // send order; the first four cover each size and each order, and are all
      // the sanitized run plays (ROCKETGYM_CONFORMANCE_DEEP_GAMES, conformance.h).
      const std::vector<std::pair<int, SendOrder>> runs{
          {1, SendOrder::as_received},     {3, SendOrder::reversed},     {kEnvs, SendOrder::shuffled_in_two},
          {3, SendOrder::hold_one_back},   {1, SendOrder::reversed},     {1, SendOrder::shuffled_in_two},
          {1, SendOrder::hold_one_back},   {3, SendOrder::as_received},  {3, SendOrder::shuffled_in_two},
          {kEnvs, SendOrder::as_received}, {kEnvs, SendOrder::reversed}, {kEnvs, SendOrder::hold_one_back}};
      const auto played =
          static_cast<std::size_t>(std::max(4, testing::full_check_games(static_cast<int>(runs.size()))));
      for (std::size_t r = 0; r < played; ++r) {
        const auto [k, order] = runs[r];
        INFO("batch_size " << k << ", send order " << static_cast<int>(order));
        // One thread: the envs complete in the order they were sent (deterministic).
        auto alone = game->new_async_vector_env(kEnvs, players, 21, 1, k);
        REQUIRE(async_trajectories(*alone, kSteps, order) == expected);
        // Three threads: any order the scheduler makes, the same games.
        auto threaded = game->new_async_vector_env(kEnvs, players, 21, 3, k);
        REQUIRE(async_trajectories(*threaded, kSteps, order) == expected);
      }
    }
  }
}

TEST_CASE("async vector env: batch_size == num_envs behaves as the sync env", "[vector]") {
  for (const auto& id : Registry::instance().ids()) {
    DYNAMIC_SECTION(id) {
      auto game = load_game(id);
      const int players = game->info().min_players, n = 5;
      auto sync = game->new_vector_env(n, players, 3, 2);
      auto async = game->new_async_vector_env(n, players, 3, 2, n);
      std::vector<Action> a_sync(n), a_async(n);
      for (int step = 0; step < 300; ++step) {
        const AsyncBatch b = async->batch(async->recv());
        for (int i = 0; i < n; ++i) REQUIRE(b.env_ids[i] == i);
        const auto obs = static_cast<std::size_t>(n) * sync->observation_size();
        REQUIRE(std::memcmp(b.observations, sync->observations(), obs * sizeof(float)) == 0);
        REQUIRE(std::memcmp(b.action_masks, sync->action_masks(),
                            static_cast<std::size_t>(n) * sync->num_actions()) == 0);
        REQUIRE(std::memcmp(b.rewards, sync->rewards(), sizeof(float) * n * players) == 0);
        REQUIRE(std::memcmp(b.terminated, sync->terminated(), n) == 0);
        REQUIRE(std::memcmp(b.truncated, sync->truncated(), n) == 0);
        REQUIRE(std::memcmp(b.current_players, sync->current_players(), sizeof(int32_t) * n) == 0);
        REQUIRE(std::memcmp(b.episode_steps, sync->episode_steps(), sizeof(int32_t) * n) == 0);
        for (int i = 0; i < n; ++i) {
          if (!b.terminated[i] && !b.truncated[i]) continue;
          REQUIRE(b.final_episode_steps[i] == sync->final_episode_steps()[i]);
          const std::size_t rows = static_cast<std::size_t>(players) * sync->observation_size();
          REQUIRE(std::memcmp(b.final_observations + i * rows, sync->final_observations() + i * rows,
                              rows * sizeof(float)) == 0);
        }
        sync->sample_random_actions(a_sync.data());
        async->sample_random_actions(a_async.data());
        REQUIRE(a_sync == a_async);
        sync->step(a_sync.data());
        async->send(a_async.data(), b.env_ids, n);
      }
    }
  }
}

TEST_CASE("async vector env: recv() does not wait for workers that never run", "[vector]") {
  const std::string id = Registry::instance().ids().front();
  auto any = load_game(id);
  visit_game(id, [&](auto game) {
    using G = decltype(game);
    const auto config = dynamic_cast<const GameModel<G>&>(*any).config();
    AsyncVectorEnv<G> env(config, 6, any->info().min_players, 4, 3, 2, /*start=*/false);
    std::vector<Action> actions(2);
    for (int round = 0; round < 50; ++round) {
      const AsyncBatch b = env.batch(env.recv());
      env.sample_random_actions(actions.data());
      env.send(actions.data(), b.env_ids, 2);
    }
    env.start_workers();
    for (int round = 0; round < 50; ++round) {
      const AsyncBatch b = env.batch(env.recv());
      env.sample_random_actions(actions.data());
      env.send(actions.data(), b.env_ids, 2);
    }
    return 0;
  });
}

TEST_CASE("async vector env: bad arguments are errors naming them, and change nothing", "[vector]") {
  auto game = load_game(Registry::instance().ids().front());
  const int players = game->info().min_players;
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  using Catch::Matchers::Contains;
  REQUIRE_THAT(message([&] { game->new_async_vector_env(4, players, 1, 2, 0); }), Contains("batch_size"));
  REQUIRE_THAT(message([&] { game->new_async_vector_env(4, players, 1, 2, 5); }), Contains("batch_size"));
  REQUIRE_THAT(message([&] { game->new_async_vector_env(4, players, 1, 0, 2); }), Contains("num_threads"));
  REQUIRE_THAT(message([&] { game->new_async_vector_env(0, players, 1, 1, 1); }), Contains("num_envs"));

  auto env = game->new_async_vector_env(4, players, 1, 2, 2);
  std::vector<Action> actions(4, 0);
  std::vector<int32_t> ids = {0, 1};
  REQUIRE_THAT(message([&] { env->send(actions.data(), ids.data(), 2); }), Contains("send before recv"));
  REQUIRE_THAT(message([&] { env->sample_random_actions(actions.data()); }), Contains("recv() first"));

  // After a reset every env is ready in id order: the first batch is envs 0 and 1.
  const AsyncBatch first = env->batch(env->recv());
  REQUIRE((first.env_ids[0] == 0 && first.env_ids[1] == 1));
  env->sample_random_actions(actions.data());
  std::vector<int32_t> twice = {0, 0}, outside = {0, 4}, negative = {-1, 0}, not_awaiting = {0, 2};
  REQUIRE_THAT(message([&] { env->send(actions.data(), twice.data(), 2); }),
               Contains("env_ids") && Contains("more than once"));
  REQUIRE_THAT(message([&] { env->send(actions.data(), outside.data(), 2); }),
               Contains("env_ids") && Contains("out of range"));
  REQUIRE_THAT(message([&] { env->send(actions.data(), negative.data(), 2); }),
               Contains("env_ids") && Contains("out of range"));
  REQUIRE_THAT(message([&] { env->send(actions.data(), not_awaiting.data(), 2); }),
               Contains("env_ids") && Contains("does not await an action"));
  REQUIRE_THAT(message([&] { env->send(actions.data(), ids.data(), 5); }), Contains("at most num_envs"));
  REQUIRE_THAT(message([&] { env->state(2); }), Contains("awaits an action"));
  std::vector<Action> bad = {actions[0], env->num_actions()};
  REQUIRE_THROWS_AS(env->send(bad.data(), ids.data(), 2), IllegalAction);
  bad[1] = -1;
  REQUIRE_THROWS_AS(env->send(bad.data(), ids.data(), 2), IllegalAction);
  const auto state = env->state(1);
  for (Action a = 0; a < env->num_actions(); ++a)
    if (!state->is_legal(a)) {
      bad[1] = a;
      REQUIRE_THROWS_AS(env->send(bad.data(), ids.data(), 2), IllegalAction);
      break;
    }
  // Nothing was sent: envs 0 and 1 still await their actions.
  REQUIRE(env->state(0)->to_json() == game->new_state(players, episode_seed(1, 0, 0))->to_json());
  REQUIRE_NOTHROW(env->send(actions.data(), ids.data(), 1));  // env 0 only
  REQUIRE_THAT(message([&] { env->send(actions.data(), ids.data(), 1); }),
               Contains("does not await an action"));
  REQUIRE_THAT(message([&] { env->sample_random_actions(actions.data()); }), Contains("sent already"));
  // Envs 2 and 3 (ready since the reset) are the next batch; then only env 0 is
  // being stepped, fewer than batch_size: recv refuses instead of waiting for ever.
  const AsyncBatch second = env->batch(env->recv());
  REQUIRE((second.env_ids[0] == 2 && second.env_ids[1] == 3));
  REQUIRE_THAT(message([&] { env->recv(); }), Contains("recv") && Contains("batch_size"));
  // Env 1 is of an earlier batch: its action is checked against its state.
  std::vector<Action> illegal_for_1 = {bad[1]};
  REQUIRE_THROWS_AS(env->send(illegal_for_1.data(), ids.data() + 1, 1), IllegalAction);
  REQUIRE_NOTHROW(env->send(actions.data() + 1, ids.data() + 1, 1));  // env 1
  const AsyncBatch third = env->batch(env->recv());
  REQUIRE(std::set<int32_t>{third.env_ids[0], third.env_ids[1]} == std::set<int32_t>{0, 1});
}
