// The heuristic bot against uniformly random play, seats rotated.
#include <array>
#include <catch2/catch.hpp>
#include <iostream>

#include "envs/core/game.h"
#include "games/lift_off/lift_off_game.h"

using namespace rocketgym;
using namespace rocketgym::lift_off;

namespace {

const Config& default_config() {
  static const Config config =
      load_config(ConfigNode::parse(builtin_game_config("lift_off"), "lift_off.yaml"));
  return config;
}

Action random_action(const State& s, Rng& rng) {
  std::array<uint8_t, actions::kNumActions> mask{};
  s.legal_actions_mask(mask.data());
  int n = 0;
  for (uint8_t m : mask) n += m;
  int k = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
  for (Action a = 0; a < actions::kNumActions; ++a)
    if (mask[static_cast<std::size_t>(a)] && k-- == 0) return a;
  return -1;
}

// Plays one game with the bot in `bot_seat`; returns the bot's return.
float play(int players, int bot_seat, uint64_t seed, int* bot_score, int* best_other) {
  State s(default_config(), players, seed);
  Rng rng(derive_seed(seed, 5));
  while (!s.is_terminal()) {
    const Action a = s.current_player() == bot_seat ? heuristic_action(s, rng) : random_action(s, rng);
    s.apply(a);
  }
  std::array<float, kMaxPlayers> r{};
  s.returns(r.data());
  std::array<int, kMaxPlayers> sc{};
  s.scores(sc.data());
  *bot_score = sc[static_cast<std::size_t>(bot_seat)];
  *best_other = 0;
  for (int p = 0; p < players; ++p)
    if (p != bot_seat) *best_other = std::max(*best_other, sc[static_cast<std::size_t>(p)]);
  return r[static_cast<std::size_t>(bot_seat)];
}

}  // namespace

TEST_CASE("bot: the heuristic clearly beats random play (200 games per player count, seats rotated)",
          "[bot]") {
  for (int players = 2; players <= 4; ++players) {
    int wins = 0;
    long bot_total = 0, other_total = 0;
    const int games = 200;
    for (int g = 0; g < games; ++g) {
      int bot_score = 0, best_other = 0;
      const float r =
          play(players, g % players, derive_seed(2026, static_cast<uint64_t>(g)), &bot_score, &best_other);
      wins += r >= 1.0f - 1e-6f;  // sole first place (rank reward +1)
      bot_total += bot_score;
      other_total += best_other;
    }
    const double rate = static_cast<double>(wins) / games;
    std::cout << "lift_off bot vs random, " << players << " players: won " << wins << "/" << games << " ("
              << rate * 100 << "%), mean bot score " << bot_total / games << ", mean best random score "
              << other_total / games << "\n";
    CHECK(rate >= 0.9);
  }
}
