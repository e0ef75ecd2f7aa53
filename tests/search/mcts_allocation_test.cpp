// The search allocates nothing per simulation: once a Search object has run
// one search, later searches of the same size reuse its buffers.
//
// This file replaces the global operator new (and new[], and the matching
// deletes) to count allocations made while counting is switched on (only
// around the code under test).
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <new>

#include "tests/search/test_games.h"
#include "training/mcts/rollout.h"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

// GCC (12) inlines this file's operator delete into std::function's manager
// (the search's key table) and then warns that free() meets `new`: a false
// alarm, since operator new above is malloc.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
// The nothrow forms too, so that every allocation is paired with our free()
// (AddressSanitizer reports a mismatch otherwise).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace rocketgym;
using namespace rocketgym::mcts;

namespace {
template <class F>
long allocations_during(F&& f) {
  allocations = 0;
  counting = true;
  f();
  counting = false;
  return allocations.load();
}
}  // namespace

TEST_CASE("a second search with the same Search object allocates nothing", "[search]") {
  Options options;
  options.simulations = 400;
  options.rollouts = 2;
  options.dirichlet_fraction = 0.25;
  Search<search_test::HiddenCard> search(options);
  RolloutEvaluator<search_test::HiddenCard> rollouts(options);
  search.run(search_test::HiddenCardState(1), rollouts);  // first use sizes the buffers
  search_test::HiddenCardState root(2);
  Action chosen = -1;
  const long count = allocations_during([&] { chosen = search.run(root, rollouts); });
  CHECK(count == 0);
  CHECK(search.simulations_done() == 400);
  CHECK(root.is_legal(chosen));
}

TEST_CASE("batched searches allocate nothing once their buffers exist", "[search]") {
  Options options;
  options.simulations = 200;
  std::vector<Search<search_test::Nim>> searches(3, Search<search_test::Nim>(options));
  std::vector<Search<search_test::Nim>*> pointers{&searches[0], &searches[1], &searches[2]};
  RolloutEvaluator<search_test::Nim> rollouts;
  std::vector<Leaf<search_test::NimState>> batch;
  auto run_all = [&] {
    for (int i = 0; i < 3; ++i) searches[i].start(search_test::NimState(2 + i, 10 + i));
    run_batched(pointers.data(), 3, rollouts, batch);
  };
  run_all();
  CHECK(allocations_during(run_all) == 0);
}
