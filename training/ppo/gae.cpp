#include "training/ppo/gae.h"

#include "training/table_limits.h"

namespace rocketgym::ppo {

void gae_single_seat(const float* values, const float* rewards, int count, float gamma, float lambda,
                     float* advantages, float* returns) {
  float next_value = 0.0f, running = 0.0f;
  for (int k = count - 1; k >= 0; --k) {
    const float delta = rewards[k] + gamma * next_value - values[k];
    running = delta + gamma * lambda * running;
    advantages[k] = running;
    returns[k] = running + values[k];
    next_value = values[k];
  }
}

void gae_turn_based(const int* seats, const float* values, int count, const float* final_returns,
                    int num_players, float gamma, float lambda, float* advantages, float* returns,
                    const float* potentials, float shaping_weight) {
  // Walk backwards once, keeping each seat's running sums: the same recurrence
  // as gae_single_seat on the seat's subsequence.
  const bool shaped = potentials != nullptr && shaping_weight != 0.0f;
  float next_value[kMaxSeats], running[kMaxSeats], next_potential[kMaxSeats];
  bool seen[kMaxSeats];
  for (int p = 0; p < num_players && p < kMaxSeats; ++p)
    next_value[p] = running[p] = next_potential[p] = 0.0f, seen[p] = false;
  for (int k = count - 1; k >= 0; --k) {
    const int p = seats[k];
    float reward = seen[p] ? 0.0f : final_returns[p];  // the seat's last decision gets its return
    seen[p] = true;
    if (shaped) {
      reward += shaping_weight * (gamma * next_potential[p] - potentials[k]);
      next_potential[p] = potentials[k];
    }
    const float delta = reward + gamma * next_value[p] - values[k];
    running[p] = delta + gamma * lambda * running[p];
    advantages[k] = running[p];
    returns[k] = running[p] + values[k];
    next_value[p] = values[k];
  }
}

}  // namespace rocketgym::ppo
