// Terminal rewards per seat (docs/architecture.md). Games describe the outcome
// as a standing per seat (higher is better, equal means tied) plus their own
// scores; the reward mode chosen in the game's config turns it into returns.
#pragma once

#include <string>

namespace rocketgym {

class ConfigNode;

enum class RewardMode { kRank, kWin, kScore };

// Reads the optional `reward:` key (rank | win | score, default rank).
RewardMode parse_reward_mode(const ConfigNode& root);
const char* reward_mode_name(RewardMode mode);

// rank: (players i beats - players who beat i) / (n - 1).
// win: the best standing shares +1, the others share -1 (zero-sum).
// score: score margin to the mean, scaled into [-1, 1] (zero-sum).
void compute_returns(RewardMode mode, int num_players, const double* standing, const double* score,
                     float* out);

}  // namespace rocketgym
