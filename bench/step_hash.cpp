// A hash of everything a user of the envs sees, to show that a speed-up changed nothing.
//
//   step_hash [STEPS] [GAME...]       (default: 200000 steps; every registered game)
//
// Per game and player count (2 to 4, as the game allows): STEPS random legal steps of one
// state from a fixed seed, hashing every legal mask, every action and every seat's
// observation after every step; and a vector env of 64 envs on 2 threads for STEPS / 256
// batches, hashing its observations, masks and rewards. Build it against two build trees
// (before and after a change), run both and compare the lines: they must be identical.
//
// clang-format off
//   g++ -std=c++17 -O2 -fopenmp -I. -Ibuild/generated bench/step_hash.cpp build/librocketgym_envs.a -lyaml-cpp -o build/step_hash
// clang-format on
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

struct Fnv1a {
  uint64_t h = 1469598103934665603ull;
  void add(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
};

template <class G>
uint64_t single_env(const typename G::Config& config, int players, int steps) {
  using State = typename G::State;
  const int actions = G::info().num_actions;
  std::vector<uint8_t> mask(static_cast<std::size_t>(actions));
  const int obs_size = observation_size<G>(config, players);
  std::vector<float> obs(static_cast<std::size_t>(obs_size));
  Rng rng(7);
  State state(config, players, 11);
  uint64_t episode = 0;
  Fnv1a hash;
  for (int step = 0; step < steps; ++step) {
    if (state.is_terminal()) state = State(config, players, derive_seed(11, ++episode));
    state.legal_actions_mask(mask.data());
    hash.add(mask.data(), mask.size());
    const Action a = random_legal_action(mask.data(), actions, rng);
    hash.add(&a, sizeof a);
    state.apply(a);
    if (state.is_terminal()) continue;
    for (int seat = 0; seat < players; ++seat) {
      G::Encoder::encode(state, seat, obs.data());
      hash.add(obs.data(), obs.size() * sizeof(float));
    }
  }
  return hash.h;
}

template <class G>
uint64_t vector_env(std::shared_ptr<const typename G::Config> config, int players, int batches) {
  constexpr int kEnvs = 64;
  VectorEnv<G> env(std::move(config), kEnvs, players, 5, 2);
  std::vector<Action> actions(kEnvs);
  Fnv1a hash;
  for (int b = 0; b < batches; ++b) {
    env.sample_random_actions(actions.data());
    env.step(actions.data());
    hash.add(env.observations(), sizeof(float) * static_cast<std::size_t>(env.observation_size()) * kEnvs);
    hash.add(env.action_masks(), static_cast<std::size_t>(env.num_actions()) * kEnvs);
    hash.add(env.rewards(), sizeof(float) * static_cast<std::size_t>(kEnvs * players));
  }
  return hash.h;
}

}  // namespace
}  // namespace rocketgym

int main(int argc, char** argv) {
  using namespace rocketgym;
  const int steps = argc > 1 ? std::atoi(argv[1]) : 200000;
  if (steps < 256) {
    std::fprintf(stderr, "usage: step_hash [STEPS >= 256] [GAME...]\n");
    return 2;
  }
  std::vector<std::string> games(argv + std::min(argc, 2), argv + argc);
  if (games.empty()) games = Registry::instance().ids();
  try {
    for (const std::string& id : games) {
      auto any = load_game(id);
      for (int players = 2; players <= 4; ++players) {
        try {
          any->check_players(players);
        } catch (const Error&) {
          continue;  // a table size the game does not have
        }
        visit_game(id, [&](auto game) {
          using G = decltype(game);
          const auto config = dynamic_cast<const GameModel<G>&>(*any).config();
          std::printf("%s %d single %016llx vector %016llx\n", id.c_str(), players,
                      static_cast<unsigned long long>(single_env<G>(*config, players, steps)),
                      static_cast<unsigned long long>(vector_env<G>(config, players, steps / 256)));
          return 0;
        });
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "step_hash: %s\n", e.what());
    return 2;
  }
  return 0;
}
