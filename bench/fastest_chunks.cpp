// Throughput on a loaded machine: the rate of the fastest chunks of steps.
//
//   fastest_chunks GAME PLAYERS MODE [CHUNKS]     MODE: single, single_obs, vector_1, vector_2
//
// Runs the loop of `rocketgym bench GAME --modes MODE` (random legal actions,
// 256 envs in the vector modes) in CHUNKS chunks (default 4000) of 256 steps
// (single modes) or one batch of 256 envs (vector modes), times each chunk
// and prints the steps/s of the chunk at the 10th percentile of durations.
// While other processes share the cores most chunks are slowed by them, but
// the fastest ones ran undisturbed (for vector_2: with both threads on a core
// at once), so the figure stays close to a quiet machine's. It is not the
// same number as `rocketgym bench` (which times the whole loop): compare two
// builds with it, not with bench.json. See docs/benchmarks.md.
//
// Build it against a build tree's library (not part of CMake: a measuring aid):
// clang-format off
//   g++ -std=c++17 -O2 -fopenmp -I. -Ibuild/generated bench/fastest_chunks.cpp build/librocketgym_envs.a -lyaml-cpp -o build/fastest_chunks
// clang-format on
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "envs/core/game_model.h"
#include "envs/core/observation_size.h"
#include "envs/core/vector_env.h"
#include "generated/game_list.h"

namespace rocketgym {
namespace {

constexpr int kChunk = 256;
using Clock = std::chrono::steady_clock;

double tenth_percentile(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 10];
}

// Out of line so that a profiler can single the loops out (--toggle-collect='*single_env*').
template <class G>
[[gnu::noinline]] double single_env(const typename G::Config& config, int players, bool encode, int chunks) {
  using State = typename G::State;
  const int actions = G::info().num_actions;
  std::vector<uint8_t> mask(static_cast<std::size_t>(actions));
  const int obs_size = observation_size<G>(config, players);
  std::vector<float> obs(static_cast<std::size_t>(obs_size));
  Rng rng(1);
  State state(config, players, 1);
  uint64_t episode = 0;
  std::vector<double> seconds;
  for (int c = 0; c < chunks; ++c) {
    const auto start = Clock::now();
    for (int step = 0; step < kChunk; ++step) {
      if (state.is_terminal()) state = State(config, players, derive_seed(1, ++episode));
      state.legal_actions_mask(mask.data());
      state.apply(random_legal_action(mask.data(), actions, rng));
      if (encode && !state.is_terminal()) G::Encoder::encode(state, state.current_player(), obs.data());
    }
    seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  return kChunk / tenth_percentile(seconds);
}

template <class G>
[[gnu::noinline]] double vector_env(std::shared_ptr<const typename G::Config> config, int players,
                                    int threads, int chunks) {
  VectorEnv<G> env(std::move(config), kChunk, players, 1, threads);
  std::vector<Action> actions(kChunk);
  std::vector<double> seconds;
  for (int c = 0; c < chunks; ++c) {
    const auto start = Clock::now();
    env.sample_random_actions(actions.data());
    env.step(actions.data());
    seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  return kChunk / tenth_percentile(seconds);
}

}  // namespace
}  // namespace rocketgym

int main(int argc, char** argv) {
  using namespace rocketgym;
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: fastest_chunks GAME PLAYERS single|single_obs|vector_1|vector_2 [CHUNKS]\n");
    return 2;
  }
  const std::string id = argv[1], mode = argv[3];
  const int players = std::atoi(argv[2]);
  const int chunks = argc == 5 ? std::atoi(argv[4]) : 4000;
  if (chunks < 10) {
    std::fprintf(stderr, "fastest_chunks: CHUNKS must be at least 10\n");
    return 2;
  }
  try {
    auto any = load_game(id);
    any->check_players(players);
    const double rate = visit_game(id, [&](auto game) {
      using G = decltype(game);
      const auto config = dynamic_cast<const GameModel<G>&>(*any).config();
      if (mode == "single" || mode == "single_obs")
        return single_env<G>(*config, players, mode == "single_obs", chunks);
      if (mode == "vector_1" || mode == "vector_2")
        return vector_env<G>(config, players, mode == "vector_1" ? 1 : 2, chunks);
      throw Error("unknown mode '" + mode + "' (single, single_obs, vector_1, vector_2)");
    });
    std::printf("%s %d %s %.0f\n", id.c_str(), players, mode.c_str(), rate);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fastest_chunks: %s\n", e.what());
    return 2;
  }
  return 0;
}
