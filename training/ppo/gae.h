// Generalized advantage estimation on turn-based trajectories.
//
// In a turn-based game a seat's trajectory is the sequence of its own
// decisions; the other seats' moves between two of them are part of the
// environment. So GAE runs once per seat over that seat's decisions, and the
// terminal return of the seat is the reward of its last decision (rewards
// are terminal-only in every rocketgym game). Episodes are complete when GAE
// runs, so there is no bootstrap value: the value after the last decision is 0.
#pragma once

namespace rocketgym::ppo {

// One seat's decisions in time order: values[k] = V(s_k) from the network,
// rewards[k] the reward received after decision k (the terminal return on the
// last one). Writes A_k = sum_j (gamma*lambda)^j delta_{k+j} with
// delta_k = r_k + gamma * V(s_{k+1}) - V(s_k), and the lambda-returns A_k + V(s_k).
void gae_single_seat(const float* values, const float* rewards, int count, float gamma, float lambda,
                     float* advantages, float* returns);

// One complete episode with decisions interleaved between seats: seats[k] is
// who made decision k. `final_returns` [num_players] are the terminal returns.
// Each seat's chain is handled by gae_single_seat without copying.
//
// Potential-based shaping (Ng, Harada & Russell 1999), training only: with
// `potentials` (phi[k] = the acting seat's potential at decision k) and a
// weight w != 0, decision k also earns w * (gamma * phi[next] - phi[k]), where
// next is the seat's next decision and phi = 0 after its last one. The shaping
// terms of a seat telescope to -w * phi[first], so every policy's return moves
// by a constant per start state and the best policy stays the best.
void gae_turn_based(const int* seats, const float* values, int count, const float* final_returns,
                    int num_players, float gamma, float lambda, float* advantages, float* returns,
                    const float* potentials = nullptr, float shaping_weight = 0.0f);

}  // namespace rocketgym::ppo
