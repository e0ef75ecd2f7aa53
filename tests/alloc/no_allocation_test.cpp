// The hot paths allocate nothing (the project's rule for env step, legal mask,
// encoders, vector env and bots), checked for every registered game and every
// player count from its minimum to 4.
//
// This executable replaces the global operator new and delete with versions
// that count calls while a window is open (CountAllocations below). Inside a
// window the test only plays; it asserts after the window closes, because
// Catch2 itself allocates. What a window covers, per game and player count:
//   single env     10,000 decisions of one state, as a user's loop or the
//                  `bench` command runs them: legal_actions_mask into a
//                  preallocated buffer, a random legal action, apply, the
//                  current player's observation encoded into a preallocated
//                  buffer, and a new State (the reset) whenever a game ends;
//   heuristic bot  10,000 decisions of the game's bot, every seat, resets included;
//   vector env     10,000 env steps of VectorEnv<G> (4 envs, 1 and 2 threads):
//                  sample_random_actions and step, which validate, apply,
//                  encode every env's observation and mask, encode every
//                  seat's final observation and auto-reset finished games;
//   async env      10,000 env steps of AsyncVectorEnv<G> (4 envs, batches of 2,
//                  1 and 2 threads): recv, sample_random_actions and send, the
//                  workers' steps into the ring of batches included.
// Constructing a state or a vector env may allocate (the config, the buffers,
// the worker threads): that happens before the window opens, and so does a
// first warm-up step of the vector envs.
// Not covered: the text views, JSON, redeterminize and the knowledge model's
// card_places lists, which build strings or vectors by design and are not
// called per step by an env loop.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "envs/core/async_vector_env.h"
#include "envs/core/game_model.h"
#include "envs/core/observation_size.h"
#include "envs/core/vector_env.h"
#include "generated/game_list.h"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

void* counted_allocation(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

void* counted_aligned_allocation(std::size_t size, std::align_val_t align) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  const auto a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}

}  // namespace

// Every replaceable allocation function the library may call. The nothrow
// forms are replaced too: a sanitizer runtime supplies its own, whose memory
// must not reach the free() of the deletes below (alloc-dealloc mismatch).
void* operator new(std::size_t size) { return counted_allocation(size); }
void* operator new[](std::size_t size) { return counted_allocation(size); }
void* operator new(std::size_t size, std::align_val_t align) {
  return counted_aligned_allocation(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return counted_aligned_allocation(size, align);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted_allocation(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  try {
    return counted_aligned_allocation(size, align);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t& tag) noexcept {
  return operator new(size, align, tag);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace rocketgym {
namespace {

constexpr long kSteps = 10000;

// Counts the operator new calls made (by any thread) while it lives.
class CountAllocations {
 public:
  CountAllocations() {
    g_allocations = 0;
    g_counting = true;
  }
  ~CountAllocations() { g_counting = false; }
  long count() const { return g_allocations.load(); }
};

struct Played {
  long allocations = 0;
  long games_finished = 0;
};

template <class G>
Played play_single_env(const typename G::Config& config, int players) {
  using State = typename G::State;
  const int actions = G::info().num_actions;
  std::vector<uint8_t> mask(static_cast<std::size_t>(actions));
  const int obs_size = observation_size<G>(config, players);
  std::vector<float> obs(static_cast<std::size_t>(obs_size));
  Rng rng(11);
  uint64_t episode = 0;
  State state(config, players, derive_seed(11, episode));
  Played played;
  {
    CountAllocations window;
    for (long step = 0; step < kSteps; ++step) {
      if (state.is_terminal()) {
        state = State(config, players, derive_seed(11, ++episode));
        ++played.games_finished;
      }
      state.legal_actions_mask(mask.data());
      state.apply(random_legal_action(mask.data(), actions, rng));
      if (!state.is_terminal()) G::Encoder::encode(state, state.current_player(), obs.data());
    }
    played.allocations = window.count();
  }
  return played;
}

template <class G>
Played play_heuristic_bot(const typename G::Config& config, int players) {
  using State = typename G::State;
  Rng rng(12);
  uint64_t episode = 0;
  State state(config, players, derive_seed(12, episode));
  Played played;
  {
    CountAllocations window;
    for (long step = 0; step < kSteps; ++step) {
      if (state.is_terminal()) {
        state = State(config, players, derive_seed(12, ++episode));
        ++played.games_finished;
      }
      state.apply(G::heuristic_action(state, rng));
    }
    played.allocations = window.count();
  }
  return played;
}

template <class G>
Played play_vector_env(std::shared_ptr<const typename G::Config> config, int players, int threads) {
  constexpr int kEnvs = 4;  // 2,500 steps each: every game finishes at least once
  VectorEnv<G> env(std::move(config), kEnvs, players, 13, threads);
  std::vector<Action> actions(kEnvs);
  env.sample_random_actions(actions.data());  // warm-up
  env.step(actions.data());
  Played played;
  {
    CountAllocations window;
    for (long batch = 0; batch < kSteps / kEnvs; ++batch) {
      env.sample_random_actions(actions.data());
      env.step(actions.data());
      for (int i = 0; i < kEnvs; ++i) played.games_finished += env.terminated()[i] + env.truncated()[i];
    }
    played.allocations = window.count();
  }
  return played;
}

template <class G>
Played play_async_vector_env(std::shared_ptr<const typename G::Config> config, int players, int threads) {
  constexpr int kEnvs = 4, kBatch = 2;
  AsyncVectorEnv<G> env(std::move(config), kEnvs, players, 14, threads, kBatch);
  std::vector<Action> actions(kBatch);
  auto step = [&] {
    const AsyncBatch batch = env.batch(env.recv());
    env.sample_random_actions(actions.data());
    env.send(actions.data(), batch.env_ids, kBatch);
    long finished = 0;
    for (int j = 0; j < kBatch; ++j) finished += batch.terminated[j] + batch.truncated[j];
    return finished;
  };
  step();  // warm-up
  Played played;
  {
    CountAllocations window;
    for (long batch = 0; batch < kSteps / kBatch; ++batch) played.games_finished += step();
    played.allocations = window.count();
  }
  return played;
}

}  // namespace
}  // namespace rocketgym

using namespace rocketgym;

TEST_CASE("no allocation per step: single env, heuristic bot and vector envs of every game", "[alloc]") {
  for (const auto& id : Registry::instance().ids()) {
    auto any = load_game(id);
    const int most = std::min(4, any->info().max_players);
    for (int players = any->info().min_players; players <= most; ++players) {
      DYNAMIC_SECTION(id << ", " << players << " players") {
        visit_game(id, [&](auto game) {
          using G = decltype(game);
          const auto config = dynamic_cast<const GameModel<G>&>(*any).config();
          const Played single = play_single_env<G>(*config, players);
          const Played bot = play_heuristic_bot<G>(*config, players);
          const Played vec1 = play_vector_env<G>(config, players, 1);
          const Played vec2 = play_vector_env<G>(config, players, 2);
          const Played async1 = play_async_vector_env<G>(config, players, 1);
          const Played async2 = play_async_vector_env<G>(config, players, 2);
          // Each window must have seen resets too, or it proved nothing about them.
          CHECK(single.games_finished > 0);
          CHECK(bot.games_finished > 0);
          CHECK(vec1.games_finished > 0);
          CHECK(vec2.games_finished > 0);
          CHECK(async1.games_finished > 0);
          CHECK(async2.games_finished > 0);
          CHECK(single.allocations == 0);
          CHECK(bot.allocations == 0);
          CHECK(vec1.allocations == 0);
          CHECK(vec2.allocations == 0);
          CHECK(async1.allocations == 0);
          CHECK(async2.allocations == 0);
          return 0;
        });
      }
    }
  }
}

TEST_CASE("the allocation counter sees an allocation in its window", "[alloc]") {
  long counted = 0;
  {
    CountAllocations window;
    // A call of the function itself: a compiler may leave out a new-expression, not this.
    void* p = ::operator new(64);
    ::operator delete(p);
    counted = window.count();
  }
  REQUIRE(counted == 1);
}
